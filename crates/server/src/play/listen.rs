//! The other servers' events, with PostgreSQL: each notification drops this process's copy of
//! the game when it changed the game (so its next move is judged on what is committed) and
//! passes the events to this process's subscribers. When the LISTEN connection is lost (and
//! connected again), the notifications of that time are lost with it: every copy is dropped
//! and every subscriber told its game again. (A copy that is stale all the same commits
//! nothing: every commit is made on the version it was judged on, [`Play::commit`].)

use sqlx::postgres::PgListener;

use crate::play::event::{state_event, Audience};
use crate::play::hub::Play;
use crate::play::live::game;
use crate::play::relay::{self, Relayed};

/// Connects to the database at `url`, relays this process's events to the other servers from
/// now on, and passes theirs on.
///
/// # Errors
/// When the listener cannot connect.
pub async fn start(play: &Play, url: &str) -> anyhow::Result<()> {
    let (listener, relay) = relay::connect(url).await?;
    play.set_relay(relay);
    tokio::spawn(run(play.clone(), listener));
    Ok(())
}

async fn run(play: Play, mut listener: PgListener) {
    loop {
        let n = match listener.try_recv().await {
            Ok(Some(n)) => n,
            Ok(None) => {
                // The connection was lost; the listener connects again at the next call, but
                // what the others sent meanwhile is lost: every copy here may be stale.
                lost(&play).await;
                continue;
            }
            Err(e) => {
                // It could not connect again: try later, and judge on the store meanwhile.
                tracing::warn!("LISTEN: {e}");
                lost(&play).await;
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                continue;
            }
        };
        let Some((id, events)) = relay::received(n.payload(), play.instance()) else {
            continue;
        };
        // A chat line changes nothing in the game; an event for everyone may have.
        let for_all = |r: &Relayed| match r {
            Relayed::Broadcast(e) => e.audience == Audience::Everyone,
            Relayed::Refresh => true,
        };
        if events.iter().any(for_all) {
            play.evict(id);
            play.wake_timer(id);
        }
        for r in events {
            match r {
                Relayed::Broadcast(e) => play.publish_local(id, e),
                Relayed::Refresh if id < 0 => {
                    play.publish_local(id, crate::play::event::changed_event(-id));
                }
                Relayed::Refresh => {
                    if let Ok(g) = game(&play, id).await {
                        let g = g.lock().await;
                        play.publish_local(id, state_event(&g, play.now_ms()));
                    }
                }
            }
        }
    }
}

/// What the LISTEN connection's loss means for this server: the other servers' changes of
/// that time are unknown, so every game copy is dropped (the next action on a game, its timer
/// included, judges on what is committed) and every subscriber here is told each game again.
async fn lost(play: &Play) {
    let watched = play.evict_all();
    tracing::warn!(
        games = watched.len(),
        "LISTEN connection lost: notifications may have been missed; every game copy dropped"
    );
    for id in watched {
        // An event's channel: its pages read the event again.
        if id < 0 {
            play.publish_local(id, crate::play::event::changed_event(-id));
            continue;
        }
        if let Ok(g) = game(play, id).await {
            let g = g.lock().await;
            play.publish_local(id, state_event(&g, play.now_ms()));
        }
    }
}
