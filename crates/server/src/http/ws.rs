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
//! In a consultation game whose sides agree by proposals ([`crate::play::consult`]), a member's
//! `move` is answered `{"type": "proposed", "proposals": …}` until the side agrees (then `ack`),
//! and the side's proposals go out as `{"type": "proposals", "channel": "black", …}` to that
//! side's members only, like its chat; a member's first `state` carries them (`"proposals"`).
//!
//! Reading a side's chat needs a member's session *and* its CSRF token on the socket (as acting
//! does): a page of another site can open a socket with the member's cookie, but must not read.

use std::collections::HashMap;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Json;
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast::error::RecvError;

use crate::domain::error::GameError;
use crate::http::auth::{session_token, user_of_token};
use crate::http::error::{public_message, ApiError};
use crate::play::chat::{self, Viewer};
use crate::play::consult::{self, Agreed, Submitted};
use crate::play::event::{ChatEvent, StateEvent};
use crate::play::submit::{play_move, Ack};
use crate::play::view::{self, ProposalsView};
use crate::AppState;

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

/// `GET /api/games/{id}/chat`: the chat the caller may read (a spectator's without a session).
///
/// # Errors
/// 404 for an unknown game, 500 on a storage failure.
pub async fn chat_route(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    headers: HeaderMap,
) -> Result<Json<Vec<ChatEvent>>, ApiError> {
    let game = state.game(id).await?;
    let user = match session_token(&headers) {
        Some(t) => user_of_token(&state, &t).await?,
        None => None,
    };
    let viewer = {
        let g = game.lock().await;
        Viewer::of(&g, user.map(|u| u.user.id))
    };
    Ok(Json(chat::history(&state.play, id, viewer).await?))
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
    // cost of a move's message). A longer message is read in several, up to the longest the
    // protocol has; past it the socket is closed (1009), before the message is kept whole.
    Ok(ws
        .read_buffer_size(4096)
        .max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| {
            run(
                state,
                id,
                socket,
                actor.map(|u| (u.user.id, u.user.name)),
                viewer,
            )
        }))
}

/// The longest message a client sends: a chat line of [`chat::MAX_CHAT_CHARS`] characters,
/// each at most 12 bytes of JSON (`\uXXXX\uXXXX` for one outside the Basic Multilingual
/// Plane), with the envelope, fits in 16 KiB. A move is far shorter.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;

async fn send(socket: &mut WebSocket, v: &impl Serialize) -> bool {
    let Ok(text) = serde_json::to_string(v) else {
        return false;
    };
    socket.send(Message::Text(text.into())).await.is_ok()
}

/// The whole state with the chat `viewer` may read: a socket's first message.
async fn full_state(state: &AppState, id: i64, viewer: Viewer) -> Option<StateEvent> {
    let (live, g) = state.shown(id).await.ok()?;
    let mut game = view::game(&g, state.now_ms());
    drop(g);
    // A consultation side's own proposals, for its members only.
    if let Viewer::Player { color, team: true } = viewer {
        game.proposals = consult::for_socket(&state.play, &live, color).await;
    }
    let chat = chat::history(&state.play, id, viewer).await.ok()?;
    Some(StateEvent {
        kind: "state",
        game,
        chat: Some(chat),
    })
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
        // The game's events first, and only when none is waiting the socket's read: a task
        // woken by an event that polled the read as well would zero the read's 4 KiB buffer
        // (tungstenite's `read_in`) for nothing, ten thousand times a move with ten thousand
        // spectators, who never send anything.
        tokio::select! {
            biased;
            ev = events.recv() => match ev {
                Ok(event) => {
                    if !viewer.reads(event.audience) {
                        continue;
                    }
                    if socket.send(Message::Text(event.text.as_ref().into())).await.is_err() {
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

/// What a socket answers to a player's message.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Reply {
    /// A move was played.
    Ack(Ack),
    /// An agreed proposal was played.
    #[serde(rename = "ack")]
    Agreed(Agreed),
    /// A consultation member's move was stored as a proposal.
    Proposed {
        proposals: ProposalsView,
        number: Option<i64>,
    },
    /// A refusal.
    Error {
        reason: &'static str,
        message: String,
        number: Option<i64>,
    },
}

/// A refusal as the socket sends it: like an HTTP answer, an internal error's detail goes to
/// the log only.
fn refusal(e: GameError, number: Option<i64>) -> Option<Reply> {
    let message = public_message(&e);
    Some(Reply::Error {
        reason: e.reason,
        message,
        number,
    })
}

async fn handle(
    state: &AppState,
    id: i64,
    actor: Option<&(i64, String)>,
    viewer: Viewer,
    text: &str,
) -> Option<Reply> {
    let msg: ClientMessage = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => {
            return refusal(
                GameError::bad_request("bad-message", format!("cannot read this message: {e}")),
                None,
            )
        }
    };
    let Some((user_id, name)) = actor else {
        return refusal(GameError::unauthorized(), None);
    };
    match msg {
        ClientMessage::Move { mv, number } => {
            // Consultation that agrees by proposals: a proposal until the side agrees.
            match consult::submit(&state.play, *user_id, id, &mv, number).await {
                Ok(Some(Submitted::Proposed(proposals))) => {
                    return Some(Reply::Proposed { proposals, number });
                }
                Ok(Some(Submitted::Played(agreed))) => return Some(Reply::Agreed(agreed)),
                Ok(None) => {}
                Err(e) => return refusal(e, number),
            }
            match play_move(&state.play, *user_id, id, &mv, number).await {
                Ok(ack) => Some(Reply::Ack(ack)),
                Err(e) => refusal(e, number),
            }
        }
        ClientMessage::Chat { text, channel } => {
            if let Err(e) = state.chat_line(*user_id) {
                return refusal(e, None);
            }
            match chat::say(
                &state.play,
                id,
                (*user_id, name),
                viewer,
                &text,
                channel.as_deref(),
            )
            .await
            {
                Ok(()) => None,
                Err(e) => refusal(e, None),
            }
        }
    }
}
