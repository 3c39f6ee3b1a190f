//! A game's chat: who reads and writes which channel, and a message stored first, then
//! published to those who read its channel.

use ingo_rules::Color;
use ingo_store::new_id;
use ingo_store::server::{self as db, ChatRow};

use crate::domain::accounts::refuse_nul;
use crate::domain::error::GameError;
use crate::domain::live_game::LiveGame;
use crate::play::event::{Audience, Broadcast, Channel, ChatEvent};
use crate::play::hub::Play;

/// Who reads a socket or the chat route, for the chat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// Anyone who is not a player here (or a player's socket without the CSRF token).
    Spectator,
    /// A player (a member of a side): `team` when the game is pair or consultation.
    Player {
        /// Their side.
        color: Color,
        /// Whether the game has teams (and so side chats).
        team: bool,
    },
}

impl Viewer {
    /// The chat channels this viewer reads.
    pub fn channels(self) -> Vec<Channel> {
        match self {
            Viewer::Spectator => vec![Channel::Players, Channel::Spectators],
            Viewer::Player { team: false, .. } => vec![Channel::Players],
            Viewer::Player { color, team: true } => vec![Channel::Players, Channel::Side(color)],
        }
    }

    /// Whether this viewer reads an event for `audience`.
    pub fn reads(self, audience: Audience) -> bool {
        match audience {
            Audience::Everyone => true,
            Audience::Channel(c) => self.channels().contains(&c),
        }
    }

    /// The viewer `user_id` is in game `g` (`None`: not logged in, or without the token).
    pub fn of(g: &LiveGame, user_id: Option<i64>) -> Viewer {
        match user_id.and_then(|u| g.color_of(u)) {
            Some(color) => Viewer::Player {
                color,
                team: g.team().is_some(),
            },
            None => Viewer::Spectator,
        }
    }
}

fn chat_event(m: &ChatRow) -> ChatEvent {
    ChatEvent {
        kind: "chat",
        channel: m.channel.clone(),
        from: m.name.clone(),
        text: m.text.clone(),
        at_ms: m.at_ms,
    }
}

/// The chat of game `id` that `viewer` may read, oldest first.
///
/// # Errors
/// On a storage failure.
pub async fn history(play: &Play, id: i64, viewer: Viewer) -> Result<Vec<ChatEvent>, GameError> {
    let mut all: Vec<ChatRow> = Vec::new();
    for channel in viewer.channels() {
        all.extend(db::chat_of(play.store(), id, channel.name(), 500).await?);
    }
    // One order for the channels read together: the order the game's messages were stored in.
    all.sort_by_key(|m| (m.seq, m.id));
    Ok(all.iter().map(chat_event).collect())
}

/// The channel a chat message goes to, or why it may not be sent there.
fn send_channel(viewer: Viewer, asked: Option<&str>) -> Result<Channel, GameError> {
    let not_yours = || {
        GameError::forbidden(
            "not-your-channel",
            "You cannot write in this chat: the players' chat is for the players, the \
             spectators' for the spectators, and a side's chat for that side's members.",
        )
    };
    match (viewer, asked) {
        (Viewer::Spectator, None | Some("spectators")) => Ok(Channel::Spectators),
        (Viewer::Player { .. }, None | Some("players")) => Ok(Channel::Players),
        (Viewer::Player { color, team: true }, Some(c))
            if c == "side" || c == Channel::Side(color).name() =>
        {
            Ok(Channel::Side(color))
        }
        (Viewer::Player { team: false, .. }, Some("side")) => Err(GameError::unprocessable(
            "no-side-chat",
            "Only pair and consultation games have a side's chat.",
        )),
        _ => Err(not_yours()),
    }
}

/// The longest chat line, in characters (the page's input allows as many; longer text is cut).
pub const MAX_CHAT_CHARS: usize = 1000;

/// Stores a chat message, then publishes it to those who read its channel.
///
/// # Errors
/// Forbidden in a channel the writer may not write in; refused when empty; internal on a
/// storage failure.
pub async fn say(
    play: &Play,
    id: i64,
    (user_id, name): (i64, &str),
    viewer: Viewer,
    text: &str,
    channel: Option<&str>,
) -> Result<(), GameError> {
    refuse_nul("text", text)?;
    let channel = send_channel(viewer, channel)?;
    let text: String = text.trim().chars().take(MAX_CHAT_CHARS).collect();
    if text.is_empty() {
        return Err(GameError::unprocessable(
            "empty-chat",
            "Write something first.",
        ));
    }
    let m = ChatRow {
        id: new_id(),
        game_id: id,
        channel: channel.name().to_owned(),
        user_id,
        name: name.to_owned(),
        text,
        at_ms: play.now_ms(),
        seq: 0,
    };
    db::add_chat(play.store(), &m).await?;
    play.publish(
        id,
        Broadcast::new(Audience::Channel(channel), &chat_event(&m)),
    );
    Ok(())
}
