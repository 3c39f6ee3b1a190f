//! What a game's subscribers are sent: a [`Broadcast`] is its text (JSON, written once however
//! many sockets send it) and its [`Audience`], so that who may read it is decided by a field,
//! not by reading the text. The events' bodies are types deriving `Serialize`.

use std::sync::Arc;

use ingo_rules::Color;
use ingo_store::server::MoveRow;
use serde::Serialize;

use crate::domain::live_game::LiveGame;
use crate::play::view::{self, Both, ClocksView, GameView, PlayerView};

/// A chat channel: the players', the spectators', or a side's own in a team game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// Read by everyone watching, written by the players.
    Players,
    /// Read and written by the spectators, never shown to the players.
    Spectators,
    /// A side's own, read and written by its members only (pair and consultation games).
    Side(Color),
}

impl Channel {
    /// `players`, `spectators`, `black` or `white`, as stored and sent.
    pub fn name(self) -> &'static str {
        match self {
            Channel::Players => "players",
            Channel::Spectators => "spectators",
            Channel::Side(Color::Black) => "black",
            Channel::Side(Color::White) => "white",
        }
    }

    /// The channel of a stored name.
    pub fn parse(s: &str) -> Option<Channel> {
        match s {
            "players" => Some(Channel::Players),
            "spectators" => Some(Channel::Spectators),
            "black" => Some(Channel::Side(Color::Black)),
            "white" => Some(Channel::Side(Color::White)),
            _ => None,
        }
    }
}

/// Who reads an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Everyone watching the game.
    Everyone,
    /// Those who read a chat channel.
    Channel(Channel),
}

impl Audience {
    /// `all`, or the channel's name: how the relay tells other servers.
    pub fn name(self) -> &'static str {
        match self {
            Audience::Everyone => "all",
            Audience::Channel(c) => c.name(),
        }
    }

    /// The audience of a name written by [`Audience::name`].
    pub fn parse(s: &str) -> Option<Audience> {
        match s {
            "all" => Some(Audience::Everyone),
            other => Channel::parse(other).map(Audience::Channel),
        }
    }
}

/// One message to a game's subscribers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broadcast {
    /// Who reads it.
    pub audience: Audience,
    /// Its JSON text.
    pub text: Arc<str>,
}

impl Broadcast {
    /// The event of body `body` for `audience`.
    pub fn new(audience: Audience, body: &impl Serialize) -> Broadcast {
        // These bodies are plain structs of strings and numbers: they always serialise.
        let text = serde_json::to_string(body).unwrap_or_else(|_| "{}".to_owned());
        Broadcast {
            audience,
            text: Arc::from(text),
        }
    }

    /// An event already written as text.
    pub fn from_text(audience: Audience, text: &str) -> Broadcast {
        Broadcast {
            audience,
            text: Arc::from(text),
        }
    }
}

impl std::ops::Deref for Broadcast {
    type Target = str;

    /// The JSON text.
    fn deref(&self) -> &str {
        &self.text
    }
}

/// `{"type": "move", …}`: a move, with where the game stands after it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveEvent {
    /// Always `move`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The game.
    pub game_id: i64,
    /// The move's number.
    pub number: i64,
    /// `B` or `W`.
    pub color: String,
    /// The vertex or `pass`.
    #[serde(rename = "move")]
    pub mv: String,
    /// When it was committed.
    pub at_ms: i64,
    /// The stones it removed (captured, or the player's own on a suicide), decided by the
    /// rules here so that a board on a page only draws them.
    pub removed: Vec<String>,
    /// The stones each side has captured after it.
    pub captures: Both<usize>,
    /// Who moves next.
    pub to_move: String,
    /// The phase after it.
    pub phase: &'static str,
    /// Both clocks after it.
    pub clocks: ClocksView,
    /// In a team game, the member whose turn it is now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team_to_move: Option<Option<PlayerView>>,
}

/// `{"type": "state", "game": …}`: the whole state (and, as a socket's first message, the chat
/// its reader may read).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StateEvent {
    /// Always `state`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The game.
    pub game: GameView,
    /// The chat the reader may read (a socket's first message only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chat: Option<Vec<ChatEvent>>,
}

/// `{"type": "chat", …}`: a chat message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChatEvent {
    /// Always `chat`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Its channel's name.
    pub channel: String,
    /// The writer's name.
    pub from: String,
    /// The text.
    pub text: String,
    /// When it was written.
    pub at_ms: i64,
}

/// The whole state of `g` at `now`, for everyone.
pub fn state_event(g: &LiveGame, now: i64) -> Broadcast {
    Broadcast::new(
        Audience::Everyone,
        &StateEvent {
            kind: "state",
            game: view::game(g, now),
            chat: None,
        },
    )
}

/// The events of a change: one `move` event per new move, then the whole state when the phase
/// is no longer plain play.
pub fn change_events(g: &LiveGame, new_moves: &[MoveRow], now: i64) -> Vec<Broadcast> {
    let mut out = Vec::with_capacity(new_moves.len() + 1);
    if !new_moves.is_empty() {
        let to_move = view::letter(g.to_move());
        let clocks = view::clocks(g, now);
        let captures: Both<usize> = (&g.captures()).into();
        // Pair go: the member whose turn it is now.
        let team_to_move = g.team().is_some().then(|| view::team_to_move(g));
        for m in new_moves {
            let ev = MoveEvent {
                kind: "move",
                game_id: g.id(),
                number: m.move_number,
                color: m.color.clone(),
                mv: m.mv.clone(),
                at_ms: m.at_ms,
                removed: view::removed(g, m.move_number),
                captures: captures.clone(),
                to_move: to_move.clone(),
                phase: g.phase().as_str(),
                clocks: clocks.clone(),
                team_to_move: team_to_move.clone(),
            };
            out.push(Broadcast::new(Audience::Everyone, &ev));
        }
    }
    if g.phase() != ingo_rules::Phase::Playing || new_moves.is_empty() {
        out.push(state_event(g, now));
    }
    out
}

/// The channel of event `id`'s notifications among the games' channels of [`crate::play::hub::Play`]: game ids
/// are positive, so an event's is its id negated. Its subscribers (the event's pages) are
/// told, here and through the relay on the other servers, each time the event changes.
pub fn channel(event_id: i64) -> i64 {
    -event_id
}

/// `{"type": "event", "event_id": …}`: event `event_id` changed (a registration, a pairing, a
/// check-in, a game started or ended, a decision); its pages read it again.
#[derive(Clone, Debug, Serialize)]
pub struct EventChanged {
    /// Always `event`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The event.
    pub event_id: i64,
}

/// The notification that event `event_id` changed.
pub fn changed_event(event_id: i64) -> Broadcast {
    Broadcast::new(
        Audience::Everyone,
        &EventChanged {
            kind: "event",
            event_id,
        },
    )
}
