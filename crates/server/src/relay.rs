//! Several servers on one PostgreSQL: each game event is also sent with `NOTIFY ingo_games`,
//! and each server `LISTEN`s, drops its in-memory copy of that game (so its next move is
//! judged on what is committed) and passes the event to its own subscribers.

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
        let payload = if event.len() < MAX_PAYLOAD {
            format!("{{\"origin\":{instance},\"game\":{game},\"event\":{event}}}")
        } else {
            json!({"origin": instance, "game": game, "event": {"type": "refresh"}}).to_string()
        };
        let _ = self.tx.send(payload);
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
            let r = sqlx::query("SELECT pg_notify($1, $2)")
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
            state.evict(game);
            state.wake_timer(game);
            if v["event"]["type"] == "refresh" {
                if let Ok(g) = state.game(game).await {
                    let g = g.lock().await;
                    let ev = json!({"type": "state", "game": g.state_json(ingo_store::now_ms())});
                    state.publish_local(game, Arc::from(ev.to_string()));
                }
            } else {
                state.publish_local(game, Arc::from(v["event"].to_string()));
            }
        }
    });
    Ok(())
}
