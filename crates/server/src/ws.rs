//! The WebSocket of a game, for players and spectators.
//!
//! On (re)connection the socket receives `{"type": "state", "game": …}` (what
//! `GET /api/games/{id}` gives), then each event as it happens: `move`, `state` (suspension,
//! dead stones, result), `chat`. A logged-in player who connected with `?csrf=TOKEN` may send
//! `{"type": "move", "move": "D4", "number": 12}` (answered by `ack` or `error`) and
//! `{"type": "chat", "text": "…"}`. The players' chat is shown to everyone watching; the
//! spectators' chat is not shown to the players, so nobody can help them.
//!
//! In a pair or consultation game a member may also send `{"type": "chat", "channel": "side",
//! "text": "…"}`: the side's own chat (channel `black` or `white`), read only by that side's
//! members, never by the other side or by spectators. Every message is stored first
//! (`server_chat`), then published; the first `state` message carries the history the reader
//! may read (`"chat": […]`), and `GET /api/games/{id}/chat` answers the same.
//!
//! In a consultation game whose sides agree by proposals ([`crate::consult`]), a member's
//! `move` is answered `{"type": "proposed", "proposals": …}` until the side agrees (then `ack`),
//! and the side's proposals go out as `{"type": "proposals", "channel": "black", …}` to that
//! side's members only, like its chat; a member's first `state` carries them (`"proposals"`).
//!
//! Reading a side's chat needs a member's session *and* its CSRF token on the socket (as acting
//! does): a page of another site can open a socket with the member's cookie, but must not read.

use std::collections::HashMap;

use axum::Json;
use ingo_rules::Color;
use ingo_store::new_id;
use ingo_store::server::{self as db, ChatRow};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;

use crate::auth::{session_token, user_of_token};
use crate::{ApiError, AppState};

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum ClientMessage {
    Move {
        #[serde(rename = "move")]
        mv: String,
        number: Option<i64>,
    },
    Chat {
        text: String,
        /// `players`, `spectators` or `side`; by default the sender's usual one.
        channel: Option<String>,
    },
}

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

/// The side chat's channel of a colour.
pub fn side_channel(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

impl Viewer {
    /// The chat channels this viewer reads.
    pub fn channels(self) -> Vec<&'static str> {
        match self {
            Viewer::Spectator => vec!["players", "spectators"],
            Viewer::Player { team: false, .. } => vec!["players"],
            Viewer::Player { color, team: true } => vec!["players", side_channel(color)],
        }
    }

    /// Whether this viewer reads `channel`.
    pub fn reads(self, channel: &str) -> bool {
        self.channels().contains(&channel)
    }

    /// The viewer `user_id` is in game `g` (`None`: not logged in, or without the token).
    fn of(g: &crate::LiveGame, user_id: Option<i64>) -> Viewer {
        match user_id.and_then(|u| g.color_of(u)) {
            Some(color) => Viewer::Player {
                color,
                team: g.team.is_some(),
            },
            None => Viewer::Spectator,
        }
    }
}

/// The channel of an event when it is a chat message or a consultation side's proposals
/// (events read only by those who read their channel).
fn chat_channel(event: &str) -> Option<String> {
    // JSON escapes the quotes inside strings, so this text occurs only as the event's own key.
    if !event.contains("\"type\":\"chat\"") && !event.contains("\"type\":\"proposals\"") {
        return None;
    }
    let v: Value = serde_json::from_str(event).ok()?;
    if v["type"] != "chat" && v["type"] != "proposals" {
        return None;
    }
    // A chat event without a channel is read by nobody.
    Some(v["channel"].as_str().unwrap_or("").to_owned())
}

/// The chat of game `id` that `viewer` may read, oldest first, as JSON.
///
/// # Errors
/// On a storage failure.
pub async fn chat_history(state: &AppState, id: i64, viewer: Viewer) -> Result<Value, ApiError> {
    let mut all: Vec<ChatRow> = Vec::new();
    for channel in viewer.channels() {
        all.extend(db::chat_of(&state.store, id, channel, 500).await?);
    }
    // One order for the channels read together: the order the game's messages were stored in.
    all.sort_by_key(|m| (m.seq, m.id));
    Ok(Value::Array(all.iter().map(chat_json).collect()))
}

fn chat_json(m: &ChatRow) -> Value {
    json!({
        "type": "chat", "channel": m.channel, "from": m.name, "text": m.text, "at_ms": m.at_ms,
    })
}

/// `GET /api/games/{id}/chat`: the chat the caller may read (a spectator's without a session).
///
/// # Errors
/// 404 for an unknown game, 500 on a storage failure.
pub async fn chat_route(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let game = state.game(id).await?;
    let user = match session_token(&headers) {
        Some(t) => user_of_token(&state, &t).await?,
        None => None,
    };
    let viewer = {
        let g = game.lock().await;
        Viewer::of(&g, user.map(|u| u.user.id))
    };
    Ok(Json(chat_history(&state, id, viewer).await?))
}

/// `GET /api/games/{id}/ws`: upgrades to the game's WebSocket.
///
/// # Errors
/// 404 for an unknown game, 500 on a storage failure.
pub async fn upgrade(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // Load first: an unknown game is a 404, not a socket that closes.
    let game = state.game(id).await?;
    let user = match session_token(&headers) {
        Some(t) => user_of_token(&state, &t).await?,
        None => None,
    };
    // Acting needs the CSRF token too: a page of another site could open this socket with the
    // user's cookie, but cannot know the token.
    let actor = user.filter(|u| query.get("csrf").is_some_and(|c| *c == u.csrf));
    let viewer = {
        let g = game.lock().await;
        Viewer::of(&g, actor.as_ref().map(|u| u.user.id))
    };
    // Reads of 4 KiB (tungstenite's default is 128 KiB, zeroed at every read: most of the
    // cost of a move's message). A longer message is read in several.
    Ok(ws.read_buffer_size(4096).on_upgrade(move |socket| {
        run(
            state,
            id,
            socket,
            actor.map(|u| (u.user.id, u.user.name)),
            viewer,
        )
    }))
}

async fn send(socket: &mut WebSocket, v: &Value) -> bool {
    socket
        .send(Message::Text(v.to_string().into()))
        .await
        .is_ok()
}

/// The whole state with the chat `viewer` may read: a socket's first message.
async fn full_state(state: &AppState, id: i64, viewer: Viewer) -> Option<Value> {
    let live = state.game(id).await.ok()?;
    let mut game = {
        let g = live.lock().await;
        g.state_json(state.now_ms())
    };
    // A consultation side's proposals, for its members only.
    if let Viewer::Player { color, team: true } = viewer {
        if let Some(p) = crate::consult::for_socket(state, &live, color).await {
            game["proposals"] = p;
        }
    }
    let chat = chat_history(state, id, viewer).await.ok()?;
    Some(json!({"type": "state", "game": game, "chat": chat}))
}

async fn run(
    state: AppState,
    id: i64,
    mut socket: WebSocket,
    actor: Option<(i64, String)>,
    viewer: Viewer,
) {
    let mut events = state.subscribe(id);
    let Some(first) = full_state(&state, id, viewer).await else {
        return;
    };
    if !send(&mut socket, &first).await {
        return;
    }
    loop {
        tokio::select! {
            ev = events.recv() => match ev {
                Ok(text) => {
                    if chat_channel(&text).is_some_and(|c| !viewer.reads(&c)) {
                        continue;
                    }
                    if socket.send(Message::Text(text.as_ref().into())).await.is_err() {
                        return;
                    }
                }
                Err(RecvError::Lagged(_)) => {
                    // Too slow a reader: start it again from the whole state.
                    let Some(s) = full_state(&state, id, viewer).await else { return };
                    if !send(&mut socket, &s).await {
                        return;
                    }
                }
                Err(RecvError::Closed) => return,
            },
            msg = socket.recv() => {
                let text = match msg {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    Some(Ok(_)) => continue,
                };
                let reply = handle(&state, id, actor.as_ref(), viewer, text.as_str()).await;
                if let Some(r) = reply {
                    if !send(&mut socket, &r).await {
                        return;
                    }
                }
            }
        }
    }
}

async fn handle(
    state: &AppState,
    id: i64,
    actor: Option<&(i64, String)>,
    viewer: Viewer,
    text: &str,
) -> Option<Value> {
    let err = |e: ApiError, number: Option<i64>| {
        Some(json!({"type": "error", "reason": e.reason, "message": e.message, "number": number}))
    };
    let msg: ClientMessage = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => {
            return err(
                ApiError::bad_request("bad-message", format!("cannot read this message: {e}")),
                None,
            )
        }
    };
    let Some((user_id, name)) = actor else {
        return err(ApiError::unauthorized(), None);
    };
    match msg {
        ClientMessage::Move { mv, number } => {
            // Consultation that agrees by proposals: a proposal until the side agrees.
            match crate::consult::submit(state, *user_id, id, &mv, number).await {
                Ok(Some(crate::consult::Submitted::Proposed(p))) => {
                    return Some(json!({"type": "proposed", "proposals": p, "number": number}));
                }
                Ok(Some(crate::consult::Submitted::Played(mut ack))) => {
                    ack["type"] = json!("ack");
                    return Some(ack);
                }
                Ok(None) => {}
                Err(e) => return err(e, number),
            }
            match crate::games::play_move(state, *user_id, id, &mv, number).await {
                Ok(mut ack) => {
                    ack["type"] = json!("ack");
                    Some(ack)
                }
                Err(e) => err(e, number),
            }
        }
        ClientMessage::Chat { text, channel } => {
            match chat(
                state,
                id,
                (*user_id, name),
                viewer,
                &text,
                channel.as_deref(),
            )
            .await
            {
                Ok(()) => None,
                Err(e) => err(e, None),
            }
        }
    }
}

/// The channel a chat message goes to, or why it may not be sent there.
fn send_channel(viewer: Viewer, asked: Option<&str>) -> Result<&'static str, ApiError> {
    let not_yours = || {
        ApiError::forbidden(
            "not-your-channel",
            "You cannot write in this chat: the players' chat is for the players, the \
             spectators' for the spectators, and a side's chat for that side's members.",
        )
    };
    match (viewer, asked) {
        (Viewer::Spectator, None | Some("spectators")) => Ok("spectators"),
        (Viewer::Player { .. }, None | Some("players")) => Ok("players"),
        (Viewer::Player { color, team: true }, Some(c))
            if c == "side" || c == side_channel(color) =>
        {
            Ok(side_channel(color))
        }
        (Viewer::Player { team: false, .. }, Some("side")) => Err(ApiError::unprocessable(
            "no-side-chat",
            "Only pair and consultation games have a side's chat.",
        )),
        _ => Err(not_yours()),
    }
}

/// Stores a chat message, then publishes it (each socket shows it only to those who read its
/// channel).
async fn chat(
    state: &AppState,
    id: i64,
    (user_id, name): (i64, &str),
    viewer: Viewer,
    text: &str,
    channel: Option<&str>,
) -> Result<(), ApiError> {
    let channel = send_channel(viewer, channel)?;
    let text: String = text.trim().chars().take(1000).collect();
    if text.is_empty() {
        return Err(ApiError::unprocessable(
            "empty-chat",
            "Write something first.",
        ));
    }
    let m = ChatRow {
        id: new_id(),
        game_id: id,
        channel: channel.to_owned(),
        user_id,
        name: name.to_owned(),
        text,
        at_ms: state.now_ms(),
        seq: 0,
    };
    db::add_chat(&state.store, &m).await?;
    state.publish(id, chat_json(&m).to_string().into());
    Ok(())
}
