//! Several servers on one PostgreSQL: each game event is also sent with `NOTIFY ingo_games`,
//! and each server `LISTEN`s, drops its in-memory copy of that game (so its next move is
//! judged on what is committed) and passes the event to its own subscribers.
//!
//! The events of a change are queued once it is committed ([`crate::play::hub::Play::commit`])
//! and sent, in order, by one task on a connection of its own, several notifications in one
//! statement when they queue up. That transaction commits asynchronously
//! (`synchronous_commit = off`): a notification needs no disk, and NOTIFY takes a lock that is
//! held until the end of its transaction's commit, so a NOTIFY in each move's transaction
//! would make the moves of all games wait for one another's disk writes. If this server dies
//! between a commit and its notification, the others learn of the move at the next event of
//! that game (and a move they judge on their stale copy conflicts on its number, which makes
//! them re-read the game).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use sqlx::postgres::{PgConnection, PgListener};
use sqlx::{Connection, Executor};
use tokio::sync::mpsc;

use crate::play::event::{Audience, Broadcast};

/// The channel name.
pub const CHANNEL: &str = "ingo_games";
/// NOTIFY payloads are limited to 8000 bytes; larger events are replaced by a request to
/// re-read the game.
const MAX_PAYLOAD: usize = 7000;
/// Notifications sent in one statement at most.
const BATCH: usize = 256;

/// Sends this process's events to the others, in order.
#[derive(Clone, Debug)]
pub struct Relay {
    tx: mpsc::UnboundedSender<String>,
    seq: Arc<AtomicU64>,
}

impl Relay {
    /// Queues events of game `game` for the other servers (one notification).
    pub fn send(&self, instance: i64, game: i64, events: &[Broadcast]) {
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        let _ = self.tx.send(payload(instance, seq, game, events));
    }
}

/// The NOTIFY payload for `events` of game `game` from server `instance`:
/// `{"origin": …, "seq": …, "game": …, "events": [...], "to": [...]}` (`to`: each event's
/// audience, `all` or a chat channel), or a request to re-read the game
/// when the events do not fit in a notification. (`seq` keeps two equal chat lines apart:
/// PostgreSQL folds equal notifications of one transaction into one.)
pub fn payload(instance: i64, seq: u64, game: i64, events: &[Broadcast]) -> String {
    let len: usize = events.iter().map(|e| e.text.len() + 12).sum();
    if len < MAX_PAYLOAD {
        let mut out = format!("{{\"origin\":{instance},\"seq\":{seq},\"game\":{game},\"events\":[");
        for (i, e) in events.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&e.text);
        }
        // Who reads each event, in the same order.
        out.push_str("],\"to\":[");
        for (i, e) in events.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push('"');
            out.push_str(e.audience.name());
            out.push('"');
        }
        out.push_str("]}");
        out
    } else {
        json!({"origin": instance, "seq": seq, "game": game, "events": [{"type": "refresh"}]})
            .to_string()
    }
}

async fn notifier(url: &str) -> Result<PgConnection, sqlx::Error> {
    let mut conn = PgConnection::connect(url).await?;
    conn.execute("SET synchronous_commit = off").await?;
    Ok(conn)
}

/// Sends the queued notifications, in order, until the queue closes.
async fn send_all(url: String, mut rx: mpsc::UnboundedReceiver<String>) {
    let mut conn: Option<PgConnection> = None;
    let mut batch = Vec::with_capacity(BATCH);
    while let Some(first) = rx.recv().await {
        batch.clear();
        batch.push(first);
        while batch.len() < BATCH {
            match rx.try_recv() {
                Ok(p) => batch.push(p),
                Err(_) => break,
            }
        }
        // Twice at most: once more on a new connection when the old one broke.
        for _ in 0..2 {
            if conn.is_none() {
                match notifier(&url).await {
                    Ok(c) => conn = Some(c),
                    Err(e) => {
                        tracing::warn!("NOTIFY connection: {e}");
                        tokio::time::sleep(Duration::from_millis(200)).await;
                        continue;
                    }
                }
            }
            let Some(c) = conn.as_mut() else { continue };
            // unnest yields the payloads in the array's order, and they are queued so.
            let r = sqlx::query("SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p")
                .bind(CHANNEL)
                .bind(&batch)
                .execute(&mut *c)
                .await;
            match r {
                Ok(_) => break,
                Err(e) => {
                    tracing::warn!("NOTIFY failed: {e}");
                    conn = None;
                }
            }
        }
    }
}

/// Connects the LISTEN side and starts the sender task: the listener, and the relay that
/// queues this process's events.
///
/// # Errors
/// When the listener cannot connect.
pub async fn connect(url: &str) -> anyhow::Result<(PgListener, Relay)> {
    let mut listener = PgListener::connect(url).await?;
    listener.listen(CHANNEL).await?;
    let (tx, rx) = mpsc::unbounded_channel::<String>();
    tokio::spawn(send_all(url.to_owned(), rx));
    Ok((
        listener,
        Relay {
            tx,
            seq: Arc::new(AtomicU64::new(0)),
        },
    ))
}

/// What another server relayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Relayed {
    /// An event, with its audience.
    Broadcast(Broadcast),
    /// Its events did not fit in a notification: read the game again.
    Refresh,
}

/// The game and events of another server's notification (`None` for this process's own, or a
/// payload that is not one).
pub fn received(payload: &str, me: i64) -> Option<(i64, Vec<Relayed>)> {
    let v = serde_json::from_str::<Value>(payload).ok()?;
    if v["origin"].as_i64() == Some(me) {
        return None;
    }
    let game = v["game"].as_i64()?;
    let events = v["events"].as_array()?;
    let to = v["to"].as_array();
    let out = events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            if e["type"] == "refresh" {
                return Some(Relayed::Refresh);
            }
            let audience = Audience::parse(to?.get(i)?.as_str()?)?;
            Some(Relayed::Broadcast(Broadcast::from_text(
                audience,
                &e.to_string(),
            )))
        })
        .collect();
    Some((game, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(text: &str) -> Broadcast {
        Broadcast::from_text(Audience::Everyone, text)
    }

    #[test]
    fn a_payload_carries_the_events_in_order() {
        let p = payload(
            7,
            3,
            42,
            &[
                ev(r#"{"type":"move","number":1}"#),
                ev(r#"{"type":"state"}"#),
            ],
        );
        let v: Value = serde_json::from_str(&p).expect("JSON");
        assert_eq!(v["origin"], 7);
        assert_eq!(v["seq"], 3);
        assert_eq!(v["game"], 42);
        assert_eq!(v["events"][0]["number"], 1);
        assert_eq!(v["events"][1]["type"], "state");
        assert_eq!(v["events"].as_array().map(Vec::len), Some(2));
    }

    #[test]
    fn each_event_keeps_its_audience_through_the_relay() {
        let side = Broadcast::from_text(
            Audience::Channel(crate::play::event::Channel::Side(ingo_rules::Color::White)),
            r#"{"type":"chat","channel":"white"}"#,
        );
        let p = payload(
            7,
            5,
            42,
            &[ev(r#"{"type":"move","number":1}"#), side.clone()],
        );
        assert_eq!(
            received(&p, 7),
            None,
            "a server skips its own notifications"
        );
        let (game, events) = received(&p, 8).expect("another server's");
        assert_eq!(game, 42);
        assert_eq!(
            events,
            [
                Relayed::Broadcast(ev(r#"{"type":"move","number":1}"#)),
                Relayed::Broadcast(side),
            ]
        );
        // An event whose audience is not said is read by nobody.
        let bare = r#"{"origin":7,"seq":1,"game":42,"events":[{"type":"chat","channel":"white"}]}"#;
        assert_eq!(received(bare, 8), Some((42, Vec::new())));
        let refresh = payload(7, 6, 42, &[ev(&"x".repeat(MAX_PAYLOAD))]);
        assert_eq!(received(&refresh, 8), Some((42, vec![Relayed::Refresh])));
    }

    #[test]
    fn events_too_long_for_a_notification_become_a_refresh() {
        let long = format!(r#"{{"type":"state","pad":"{}"}}"#, "x".repeat(MAX_PAYLOAD));
        let p = payload(7, 4, 42, &[ev(&long)]);
        assert!(p.len() < MAX_PAYLOAD);
        let v: Value = serde_json::from_str(&p).expect("JSON");
        assert_eq!(v["events"], json!([{"type": "refresh"}]));
        assert_eq!(v["seq"], 4);
    }
}
