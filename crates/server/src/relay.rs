//! Several servers on one PostgreSQL: each game event is also sent with `NOTIFY ingo_games`,
//! and each server `LISTEN`s, drops its in-memory copy of that game (so its next move is
//! judged on what is committed) and passes the event to its own subscribers.
//!
//! The events of a committed change (a move, an ending) are sent by the very transaction that
//! commits it ([`payload`], through `ingo_store::server::append_moves_notify`): PostgreSQL
//! delivers them at the commit, in commit order, and never for a change that was rolled back.
//! Other events (chat) go through [`Relay::send`], a task of their own.

use std::sync::Arc;

use serde_json::{json, Value};
use sqlx::postgres::PgListener;
use tokio::sync::mpsc;

use crate::{lock, AppState, Event};

/// The channel name.
pub const CHANNEL: &str = "ingo_games";
/// NOTIFY payloads are limited to 8000 bytes; a larger event is replaced by a request to
/// re-read the game.
const MAX_PAYLOAD: usize = 7000;

/// Sends this process's events to the others, in order.
#[derive(Clone, Debug)]
pub struct Relay {
    tx: mpsc::UnboundedSender<String>,
}

impl Relay {
    /// Queues an event of game `game` for the other servers.
    pub fn send(&self, instance: i64, game: i64, event: Event) {
        let _ = self.tx.send(payload(instance, game, &[event]));
    }
}

/// The NOTIFY payload for `events` of game `game` from server `instance`:
/// `{"origin": …, "game": …, "events": [...]}`, or a request to re-read the game when the
/// events do not fit in a notification.
pub fn payload(instance: i64, game: i64, events: &[Event]) -> String {
    let len: usize = events.iter().map(|e| e.len() + 1).sum();
    if len < MAX_PAYLOAD {
        let mut out = format!("{{\"origin\":{instance},\"game\":{game},\"events\":[");
        for (i, e) in events.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(e);
        }
        out.push_str("]}");
        out
    } else {
        json!({"origin": instance, "game": game, "events": [{"type": "refresh"}]}).to_string()
    }
}

/// Starts listening and the sender task.
///
/// # Errors
/// When the listener cannot connect.
pub async fn start(state: &AppState) -> anyhow::Result<()> {
    let url = state.config.database_url.clone();
    let mut listener = PgListener::connect(&url).await?;
    listener.listen(CHANNEL).await?;
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    *lock(&state.shared.relay) = Some(Relay { tx });
    let store = state.store.clone();
    tokio::spawn(async move {
        while let Some(payload) = rx.recv().await {
            // A chat line need not wait for the disk: its transaction commits asynchronously.
            let r = sqlx::query(
                "SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, $2)",
            )
            .bind(CHANNEL)
            .bind(&payload)
            .execute(store.pool())
            .await;
            if let Err(e) = r {
                eprintln!("ingo serve: NOTIFY failed: {e}");
            }
        }
    });
    let me = state.shared.instance;
    let state = state.clone();
    tokio::spawn(async move {
        loop {
            let n = match listener.recv().await {
                Ok(n) => n,
                Err(e) => {
                    // PgListener reconnects by itself on the next recv.
                    eprintln!("ingo serve: LISTEN: {e}");
                    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                    continue;
                }
            };
            let Ok(v) = serde_json::from_str::<Value>(n.payload()) else {
                continue;
            };
            if v["origin"].as_i64() == Some(me) {
                continue;
            }
            let Some(game) = v["game"].as_i64() else {
                continue;
            };
            let Some(events) = v["events"].as_array() else {
                continue;
            };
            // A chat line changes nothing in the game; anything else may have.
            if events.iter().any(|e| e["type"] != "chat") {
                state.evict(game);
                state.wake_timer(game);
            }
            for e in events {
                if e["type"] == "refresh" {
                    if let Ok(g) = state.game(game).await {
                        let g = g.lock().await;
                        let ev =
                            json!({"type": "state", "game": g.state_json(ingo_store::now_ms())});
                        state.publish_local(game, Arc::from(ev.to_string()));
                    }
                } else {
                    state.publish_local(game, Arc::from(e.to_string()));
                }
            }
        }
    });
    Ok(())
}
