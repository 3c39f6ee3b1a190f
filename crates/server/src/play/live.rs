//! The games in memory: a game is looked up there or rebuilt from the store, and each running
//! game has a timer task that declares a loss on time with nobody connected.

use std::sync::Arc;
use std::time::Duration;

use ingo_rules::Phase;
use ingo_store::server::Appended;

use crate::domain::error::{ErrorKind, GameError};
use crate::domain::live_game::LiveGame;
use crate::play::event::state_event;
use crate::play::hub::{Play, SharedGame};
use crate::play::load::load;

/// The game `id`, from memory or rebuilt from the store (and its timer started).
///
/// # Errors
/// Not found for an unknown game; internal on a storage failure.
pub async fn game(play: &Play, id: i64) -> Result<SharedGame, GameError> {
    if let Some(g) = play.cached(id) {
        return Ok(g);
    }
    if let Some(e) = play.damaged(id) {
        return Err(e);
    }
    let live = match load(play.store(), id).await {
        Ok(live) => live,
        Err(e) => {
            if e.kind == ErrorKind::Damaged {
                play.set_aside(id, &e);
            }
            return Err(e);
        }
    };
    let ended = live.phase() == Phase::Ended;
    let g = play.keep(id, live);
    if !ended {
        start_timer(play, id);
    }
    Ok(g)
}

/// Game `id` and its copy locked, to be shown or judged on: never a copy that a change which
/// failed to commit left discarded while this waited for its lock ([`LiveGame::discard`]: it
/// may hold a move nobody stored); the game is then read again from the store.
///
/// # Errors
/// As [`game`]; a conflict when the game's copy is discarded three times running.
pub async fn shown(
    play: &Play,
    id: i64,
) -> Result<(SharedGame, tokio::sync::OwnedMutexGuard<LiveGame>), GameError> {
    for _ in 0..3 {
        let shared = game(play, id).await?;
        let g = Arc::clone(&shared).lock_owned().await;
        if !g.is_discarded() {
            return Ok((shared, g));
        }
    }
    Err(GameError::conflict(
        "stale",
        "The game changed; look at it again.",
    ))
}

/// The game `id` read again from the store, in place of the copy in memory: for a change to be
/// judged again after a conflict, on what is committed now (not on a copy another task may
/// have read before the latest commit).
///
/// # Errors
/// As [`game`].
pub async fn fresh(play: &Play, id: i64) -> Result<SharedGame, GameError> {
    if let Some(e) = play.damaged(id) {
        return Err(e);
    }
    let live = load(play.store(), id).await?;
    let ended = live.phase() == Phase::Ended;
    let g = play.replace(id, live);
    if !ended {
        start_timer(play, id);
    }
    Ok(g)
}

fn start_timer(play: &Play, id: i64) {
    let Some(notify) = play.new_timer(id) else {
        return;
    };
    let play = play.clone();
    tokio::spawn(async move {
        timer_task(&play, id, &notify).await;
        play.end_timer(id);
    });
}

/// Watches game `id`'s clock: sleeps until the running clock's deadline on the server's wall
/// clock, or the moment a person to move against a program becomes absent (or until a move
/// wakes it), then declares the loss on time or the forfeit, commits it and publishes it. Ends
/// with the game.
async fn timer_task(play: &Play, id: i64, notify: &tokio::sync::Notify) {
    loop {
        let Ok(game) = game(play, id).await else {
            return;
        };
        let deadline = {
            let g = game.lock().await;
            if g.phase() == Phase::Ended {
                return;
            }
            // The clock's flag, or the absence of a person against a program, whichever
            // comes first.
            let absence = g.absence_deadline_ms(play.program_absence_ms());
            match (g.deadline_ms(), absence) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        };
        match deadline {
            None => notify.notified().await,
            Some(at) => {
                tokio::select! {
                    _ = play.clock().sleep_until(at) => {
                        let mut g = game.lock().await;
                        if g.is_discarded() {
                            // A change failed to commit on this copy while the timer slept
                            // (`LiveGame::discard`): it may hold a move nobody stored, whose
                            // clock is not the game's. The game is read again from the store.
                            continue;
                        }
                        let now = play.now_ms();
                        // The loss is committed only on the version this copy has: a copy
                        // that missed a move (or any change) of another server conflicts, is
                        // rebuilt from the store at the next turn of the loop, and the clock
                        // is looked at again on what is committed.
                        let flagged = g.check_time(now).is_some();
                        let absent = !flagged
                            && matches!(
                                g.check_absence(now, play.program_absence_ms()),
                                Ok(Some(_))
                            );
                        if flagged || absent {
                            let event = state_event(&g, now);
                            match play.commit(&mut g, &[], &[event]).await {
                                Ok(Appended::Committed | Appended::Conflict) => {}
                                Err(_) => {
                                    // The store failed: try again a little later.
                                    tokio::time::sleep(Duration::from_millis(200)).await;
                                }
                            }
                        }
                    }
                    _ = notify.notified() => {}
                }
            }
        }
    }
}
