//! Consultation with an agreement step (migration `0203_consult.sql`): how a consultation
//! challenge's sides agree on a move, and the members' stored proposals, so that a restarted
//! server loses none. Every query is a constant string with `$n` parameters.

use sqlx::any::AnyRow;
use sqlx::Row;

use crate::server::writer;
use crate::{Backend, Store, StoreError};

/// A member's proposal of their side's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VoteRow {
    /// The game.
    pub game_id: i64,
    /// The member.
    pub user_id: i64,
    /// The member's name (filled in when read; ignored when stored).
    pub name: String,
    /// `B` or `W`: the member's side.
    pub color: String,
    /// The number of the move proposed (the game's next move when proposed).
    pub move_number: i64,
    /// A GTP vertex, `pass` or `resign`.
    pub mv: String,
    /// When it was stored, in ms since the epoch.
    pub at_ms: i64,
}

fn vote(r: &AnyRow) -> Result<VoteRow, sqlx::Error> {
    Ok(VoteRow {
        game_id: r.try_get("game_id")?,
        user_id: r.try_get("user_id")?,
        name: r.try_get("name")?,
        color: r.try_get("color")?,
        move_number: r.try_get("move_number")?,
        mv: r.try_get("mv")?,
        at_ms: r.try_get("at_ms")?,
    })
}

/// Records how challenge `challenge_id`'s sides agree (`any`, `majority`, `all`). Call it
/// *before* storing the challenge: a challenge is then never without its agreement.
///
/// # Errors
/// On a database failure.
pub async fn set_challenge_agreement(
    store: &Store,
    challenge_id: i64,
    agreement: &str,
) -> Result<(), StoreError> {
    let _writing = writer(store).await;
    sqlx::query("INSERT INTO server_consult_agreement (challenge_id, agreement) VALUES ($1, $2)")
        .bind(challenge_id)
        .bind(agreement)
        .execute(store.writes())
        .await?;
    Ok(())
}

/// How challenge `challenge_id`'s sides agree; `None` when it was stored without one.
///
/// # Errors
/// On a database failure.
pub async fn challenge_agreement(
    store: &Store,
    challenge_id: i64,
) -> Result<Option<String>, StoreError> {
    let row = sqlx::query("SELECT agreement FROM server_consult_agreement WHERE challenge_id = $1")
        .bind(challenge_id)
        .fetch_optional(store.pool())
        .await?;
    Ok(row.map(|r| r.try_get("agreement")).transpose()?)
}

/// How game `game_id`'s sides agree: its challenge's agreement; `None` for a game made
/// without one (before migration `0203`, or without a challenge).
///
/// # Errors
/// On a database failure.
pub async fn game_agreement(store: &Store, game_id: i64) -> Result<Option<String>, StoreError> {
    let row = sqlx::query(
        "SELECT a.agreement FROM server_consult_agreement a \
         JOIN server_challenges c ON c.id = a.challenge_id WHERE c.game_id = $1",
    )
    .bind(game_id)
    .fetch_optional(store.pool())
    .await?;
    Ok(row.map(|r| r.try_get("agreement")).transpose()?)
}

/// Records `v` as its member's proposal, replacing the member's earlier one, and answers every
/// proposal of that side for that move number, oldest first, in one transaction. On
/// PostgreSQL the game's row is locked first, so that proposals made through several servers
/// at once are counted one after the other.
///
/// # Errors
/// On a database failure.
pub async fn propose(store: &Store, v: &VoteRow) -> Result<Vec<VoteRow>, StoreError> {
    let _writing = writer(store).await;
    let mut tx = store.writes().begin().await?;
    if store.backend() == Backend::Postgres {
        sqlx::query("SELECT id FROM server_games WHERE id = $1 FOR UPDATE")
            .bind(v.game_id)
            .execute(&mut *tx)
            .await?;
    }
    sqlx::query("DELETE FROM server_consult_votes WHERE game_id = $1 AND user_id = $2")
        .bind(v.game_id)
        .bind(v.user_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "INSERT INTO server_consult_votes (game_id, user_id, color, move_number, mv, at_ms) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(v.game_id)
    .bind(v.user_id)
    .bind(&v.color)
    .bind(v.move_number)
    .bind(&v.mv)
    .bind(v.at_ms)
    .execute(&mut *tx)
    .await?;
    let rows = sqlx::query(VOTES_OF)
        .bind(v.game_id)
        .bind(&v.color)
        .bind(v.move_number)
        .fetch_all(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(rows.iter().map(vote).collect::<Result<_, _>>()?)
}

const VOTES_OF: &str = "SELECT v.game_id, v.user_id, u.name, v.color, v.move_number, v.mv, \
     v.at_ms FROM server_consult_votes v JOIN server_users u ON u.id = v.user_id \
     WHERE v.game_id = $1 AND v.color = $2 AND v.move_number = $3 ORDER BY v.at_ms, u.name";

/// The proposals of side `color` (`B`, `W`) of a game for move `move_number`, oldest first.
///
/// # Errors
/// On a database failure.
pub async fn votes_of(
    store: &Store,
    game_id: i64,
    color: &str,
    move_number: i64,
) -> Result<Vec<VoteRow>, StoreError> {
    let rows = sqlx::query(VOTES_OF)
        .bind(game_id)
        .bind(color)
        .bind(move_number)
        .fetch_all(store.pool())
        .await?;
    Ok(rows.iter().map(vote).collect::<Result<_, _>>()?)
}

/// Withdraws `user_id`'s proposal in a game. Returns whether there was one.
///
/// # Errors
/// On a database failure.
pub async fn withdraw(store: &Store, game_id: i64, user_id: i64) -> Result<bool, StoreError> {
    let _writing = writer(store).await;
    let r = sqlx::query("DELETE FROM server_consult_votes WHERE game_id = $1 AND user_id = $2")
        .bind(game_id)
        .bind(user_id)
        .execute(store.writes())
        .await?;
    Ok(r.rows_affected() > 0)
}

/// Deletes a game's proposals for moves up to `move_number` (the move played, and any that
/// lapsed before it).
///
/// # Errors
/// On a database failure.
pub async fn clear_votes(store: &Store, game_id: i64, move_number: i64) -> Result<(), StoreError> {
    let _writing = writer(store).await;
    sqlx::query("DELETE FROM server_consult_votes WHERE game_id = $1 AND move_number <= $2")
        .bind(game_id)
        .bind(move_number)
        .execute(store.writes())
        .await?;
    Ok(())
}
