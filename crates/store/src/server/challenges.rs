//! Challenges of one player a side (migration `0200_server.sql`): open, read, close, accept.

use sqlx::any::AnyRow;
use sqlx::Row;

use crate::{Store, StoreError};

use super::{start_game, writer, GameRow};

/// A challenge: a game offered to anyone, or to one user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRow {
    /// Its id.
    pub id: i64,
    /// Who offers the game.
    pub challenger: i64,
    /// The only user who may accept it, or `None` for anyone.
    pub opponent: Option<i64>,
    /// Board size.
    pub size: i64,
    /// Rules preset name (`ing`).
    pub preset: String,
    /// `nigiri` or `ranks`.
    pub handicap: String,
    /// Time control text (`ing-pp:3h`).
    pub time_control: String,
    /// `open`, `accepted`, `declined` or `cancelled`.
    pub status: String,
    /// The game made on acceptance.
    pub game_id: Option<i64>,
    /// When it was made.
    pub created_ms: i64,
}

/// The columns of a challenge, as a literal so that queries stay compile-time constants.
macro_rules! challenge_columns {
    () => {
        "id, challenger, opponent, size, preset, handicap, time_control, status, game_id, created_ms"
    };
}

fn challenge(row: &AnyRow) -> Result<ChallengeRow, sqlx::Error> {
    Ok(ChallengeRow {
        id: row.try_get("id")?,
        challenger: row.try_get("challenger")?,
        opponent: row.try_get("opponent")?,
        size: row.try_get("size")?,
        preset: row.try_get("preset")?,
        handicap: row.try_get("handicap")?,
        time_control: row.try_get("time_control")?,
        status: row.try_get("status")?,
        game_id: row.try_get("game_id")?,
        created_ms: row.try_get("created_ms")?,
    })
}

/// The statement that stores challenge `c` (alone, or with its team in one transaction).
pub(super) fn insert_challenge(
    c: &ChallengeRow,
) -> sqlx::query::Query<'_, sqlx::Any, sqlx::any::AnyArguments> {
    sqlx::query(
        "INSERT INTO server_challenges (id, challenger, opponent, size, preset, handicap, \
         time_control, status, game_id, created_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(c.id)
    .bind(c.challenger)
    .bind(c.opponent)
    .bind(c.size)
    .bind(&c.preset)
    .bind(&c.handicap)
    .bind(&c.time_control)
    .bind(&c.status)
    .bind(c.game_id)
    .bind(c.created_ms)
}

/// Stores a new challenge.
///
/// # Errors
/// On a database failure.
pub async fn create_challenge(store: &Store, c: &ChallengeRow) -> Result<(), StoreError> {
    let _writing = writer(store).await;
    insert_challenge(c).execute(store.writes()).await?;
    Ok(())
}

/// The challenge of that id.
///
/// # Errors
/// On a database failure.
pub async fn challenge_by_id(store: &Store, id: i64) -> Result<Option<ChallengeRow>, StoreError> {
    let row = sqlx::query(concat!(
        "SELECT ",
        challenge_columns!(),
        " FROM server_challenges WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(store.pool())
    .await?;
    Ok(row.as_ref().map(challenge).transpose()?)
}

/// Open challenges, newest first, at most `limit`.
///
/// # Errors
/// On a database failure.
pub async fn open_challenges(store: &Store, limit: i64) -> Result<Vec<ChallengeRow>, StoreError> {
    let rows = sqlx::query(concat!(
        "SELECT ",
        challenge_columns!(),
        " FROM server_challenges WHERE status = 'open' \
         ORDER BY created_ms DESC, id LIMIT $1"
    ))
    .bind(limit)
    .fetch_all(store.pool())
    .await?;
    Ok(rows.iter().map(challenge).collect::<Result<_, _>>()?)
}

/// Moves an open challenge to `status` (`declined`, `cancelled`). Returns `false` when it was
/// no longer open (someone else acted first).
///
/// # Errors
/// On a database failure.
pub async fn close_challenge(store: &Store, id: i64, status: &str) -> Result<bool, StoreError> {
    let _writing = writer(store).await;
    let r =
        sqlx::query("UPDATE server_challenges SET status = $2 WHERE id = $1 AND status = 'open'")
            .bind(id)
            .bind(status)
            .execute(store.writes())
            .await?;
    Ok(r.rows_affected() == 1)
}

/// Accepts an open challenge and creates its game, in one transaction. Returns `false` (and
/// writes nothing) when the challenge was no longer open.
///
/// # Errors
/// On a database failure.
pub async fn accept_challenge(
    store: &Store,
    challenge_id: i64,
    game: &GameRow,
) -> Result<bool, StoreError> {
    start_game(
        store,
        "UPDATE server_challenges SET status = 'accepted', game_id = $2 \
         WHERE id = $1 AND status = 'open'",
        challenge_id,
        game,
        None,
    )
    .await
}
