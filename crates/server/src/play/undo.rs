//! Taking back a move by agreement: a player asks to take back their last move, the opponent
//! grants or declines. Granted, the move is taken back in one transaction on the version the
//! grant was judged on, and the game is rebuilt from what is then stored, clocks included:
//! the player who took the move back is charged from their previous move, as if they had
//! thought all along. An event's game has none: 悔著 there is a forfeit (article 8).

use ingo_store::server::{self as db, Appended, UndoRequest};

use crate::domain::error::GameError;
use crate::play::event::state_event;
use crate::play::hub::Play;
use crate::play::live::{fresh, shown};
use crate::play::view::{self, GameView};

/// `user_id` asks to take back their last move in game `id`; the game as it is now, with the
/// request.
///
/// # Errors
/// As [`crate::LiveGame::check_undo_request`]; on a storage failure.
pub async fn request(play: &Play, user_id: i64, id: i64) -> Result<GameView, GameError> {
    // Never judged on a copy a failed change left discarded (it may hold a move nobody
    // stored): `shown` reads the game again from the store then.
    let (_shared, mut g) = shown(play, id).await?;
    let number = g.check_undo_request(user_id)?;
    let now = play.now_ms();
    let r = UndoRequest {
        user_id,
        move_number: number,
        at_ms: now,
    };
    db::request_undo(play.store(), id, &r).await?;
    g.set_undo_request(Some(r));
    // The other servers read the request from the store when told the game changed.
    play.publish(id, state_event(&g, now));
    Ok(view::game(&g, now))
}

/// `user_id`, the opponent of the player who asked, grants (`accept`) or declines the request
/// to take back the last move of game `id`; the game after it.
///
/// # Errors
/// 403 for anyone but the opponent; 409 with no standing request, or when the game changed
/// meanwhile; on a storage failure.
pub async fn answer(
    play: &Play,
    user_id: i64,
    id: i64,
    accept: bool,
) -> Result<GameView, GameError> {
    let (_shared, mut g) = shown(play, id).await?;
    let Some(r) = g.undo_request().copied() else {
        return Err(GameError::conflict(
            "no-undo-request",
            "Nobody asks to take a move back now.",
        ));
    };
    let asker = g.color_of(r.user_id);
    match g.color_of(user_id) {
        Some(c) if Some(c) != asker => {}
        _ => {
            return Err(GameError::forbidden(
                "not-the-opponent",
                "Only the opponent of the player who asks grants or declines it.",
            ))
        }
    }
    let now = play.now_ms();
    if !accept {
        db::clear_undo(play.store(), id).await?;
        g.set_undo_request(None);
        play.publish(id, state_event(&g, now));
        return Ok(view::game(&g, now));
    }
    let state = g.state();
    match db::take_back(play.store(), id, g.version(), r.move_number, &state).await? {
        Appended::Committed => {}
        Appended::Conflict => {
            play.evict(id);
            return Err(GameError::conflict(
                "stale",
                "The game changed; look at it again.",
            ));
        }
    }
    drop(g);
    // What is stored now, replayed: the board, the history and the clocks without the move.
    let rebuilt = fresh(play, id).await?;
    let g = rebuilt.lock().await;
    play.publish(id, state_event(&g, now));
    play.wake_timer(id);
    play.changed(id);
    Ok(view::game(&g, now))
}
