//! The WebSocket of a game, for players and spectators.
//!
//! On (re)connection the socket receives `{"type": "state", "game": …}` (what
//! `GET /api/games/{id}` gives), then each event as it happens: `move`, `state` (suspension,
//! dead stones, result), `chat`. A logged-in player who connected with `?csrf=TOKEN` may send
//! `{"type": "move", "move": "D4", "number": 12}` (answered by `ack` or `error`) and
//! `{"type": "chat", "text": "…"}`. The players' chat is shown to everyone watching; the
//! spectators' chat is not shown to the players, so nobody can help them.

use std::collections::HashMap;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use ingo_store::now_ms;
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
    },
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
    let color = {
        let g = game.lock().await;
        actor.as_ref().and_then(|u| g.color_of(u.user.id))
    };
    // Reads of 4 KiB (tungstenite's default is 128 KiB, zeroed at every read: most of the
    // cost of a move's message). A longer message is read in several.
    Ok(ws.read_buffer_size(4096).on_upgrade(move |socket| {
        run(
            state,
            id,
            socket,
            actor.map(|u| (u.user.id, u.user.name)),
            color.is_some(),
        )
    }))
}

async fn send(socket: &mut WebSocket, v: &Value) -> bool {
    socket
        .send(Message::Text(v.to_string().into()))
        .await
        .is_ok()
}

async fn full_state(state: &AppState, id: i64) -> Option<Value> {
    let game = state.game(id).await.ok()?;
    let g = game.lock().await;
    Some(json!({"type": "state", "game": g.state_json(now_ms())}))
}

async fn run(
    state: AppState,
    id: i64,
    mut socket: WebSocket,
    actor: Option<(i64, String)>,
    is_player: bool,
) {
    let mut events = state.subscribe(id);
    let Some(first) = full_state(&state, id).await else {
        return;
    };
    if !send(&mut socket, &first).await {
        return;
    }
    loop {
        tokio::select! {
            ev = events.recv() => match ev {
                Ok(text) => {
                    if !is_player && text.contains("\"channel\":\"players-only\"") {
                        continue;
                    }
                    if is_player && text.starts_with("{\"type\":\"chat\"") && text.contains("\"channel\":\"spectators\"") {
                        continue;
                    }
                    if socket.send(Message::Text(text.as_ref().into())).await.is_err() {
                        return;
                    }
                }
                Err(RecvError::Lagged(_)) => {
                    // Too slow a reader: start it again from the whole state.
                    let Some(s) = full_state(&state, id).await else { return };
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
                let reply = handle(&state, id, actor.as_ref(), is_player, text.as_str()).await;
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
    is_player: bool,
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
            match crate::games::play_move(state, *user_id, id, &mv, number).await {
                Ok(mut ack) => {
                    ack["type"] = json!("ack");
                    Some(ack)
                }
                Err(e) => err(e, number),
            }
        }
        ClientMessage::Chat { text } => {
            let text: String = text.chars().take(1000).collect();
            let channel = if is_player { "players" } else { "spectators" };
            let ev = json!({
                "type": "chat", "channel": channel, "from": name, "text": text, "at_ms": now_ms(),
            });
            state.publish(id, ev.to_string().into());
            None
        }
    }
}
