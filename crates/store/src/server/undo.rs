//! Undo requests (migration `0210_undo.sql`): a player asks to take back their last move, the
//! opponent grants it, and the move is taken back in one transaction on the game's version.

use sqlx::Row;

use crate::{Store, StoreError};

use super::games::{write_state, Appended};
use super::{writer, GameState};

/// A player's standing request to take back move `move_number`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UndoRequest {
    /// Who asks.
    pub user_id: i64,
    /// The move to take back (the game's last when asked).
    pub move_number: i64,
    /// When, ms since the epoch.
    pub at_ms: i64,
}

/// Records `r` as game `game_id`'s request, in place of any earlier one.
///
/// # Errors
/// On a database failure.
pub async fn request_undo(store: &Store, game_id: i64, r: &UndoRequest) -> Result<(), StoreError> {
    let _writing = writer(store).await;
    let mut tx = store.writes().begin().await?;
    sqlx::query("DELETE FROM server_undo_requests WHERE game_id = $1")
        .bind(game_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "INSERT INTO server_undo_requests (game_id, user_id, move_number, at_ms) \
         VALUES ($1, $2, $3, $4)",
    )
    .bind(game_id)
    .bind(r.user_id)
    .bind(r.move_number)
    .bind(r.at_ms)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Game `game_id`'s request, if any.
///
/// # Errors
/// On a database failure.
pub async fn undo_request(store: &Store, game_id: i64) -> Result<Option<UndoRequest>, StoreError> {
    let row = sqlx::query(
        "SELECT user_id, move_number, at_ms FROM server_undo_requests WHERE game_id = $1",
    )
    .bind(game_id)
    .fetch_optional(store.pool())
    .await?;
    let Some(r) = row else { return Ok(None) };
    Ok(Some(UndoRequest {
        user_id: r.try_get("user_id")?,
        move_number: r.try_get("move_number")?,
        at_ms: r.try_get("at_ms")?,
    }))
}

/// Forgets game `game_id`'s request (declined); whether there was one.
///
/// # Errors
/// On a database failure.
pub async fn clear_undo(store: &Store, game_id: i64) -> Result<bool, StoreError> {
    let _writing = writer(store).await;
    let r = sqlx::query("DELETE FROM server_undo_requests WHERE game_id = $1")
        .bind(game_id)
        .execute(store.writes())
        .await?;
    Ok(r.rows_affected() > 0)
}

/// Takes back the moves from `from` on (the requested move and the handicap passes that came
/// with it), writes `state` and forgets the request, in one transaction on the version `base`
/// the grant was judged on: [`Appended::Conflict`] and nothing written when the game changed
/// meanwhile.
///
/// # Errors
/// On a database failure.
pub async fn take_back(
    store: &Store,
    game_id: i64,
    base: i64,
    from: i64,
    state: &GameState,
) -> Result<Appended, StoreError> {
    let _writing = writer(store).await;
    let mut tx = store.writes().begin().await?;
    if !write_state(&mut tx, game_id, base, state).await? {
        tx.rollback().await?;
        return Ok(Appended::Conflict);
    }
    sqlx::query("DELETE FROM server_moves WHERE game_id = $1 AND move_number >= $2")
        .bind(game_id)
        .bind(from)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM server_undo_requests WHERE game_id = $1")
        .bind(game_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Appended::Committed)
}
