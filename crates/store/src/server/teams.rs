//! The teams of pair go and consultation games and challenges (migration `0201_pair.sql`).

use sqlx::Row;

use crate::{Store, StoreError};

use super::{game, insert_challenge, insert_game, start_game, writer, ChallengeRow, GameRow};

/// A seat of a team challenge (pair go or consultation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// `challenger` (the challenger's side) or `opponent`.
    pub side: String,
    /// 1, 2, … within the side: the order partners move in, in pair go.
    pub seat: i64,
    /// Who sits there.
    pub user_id: i64,
    /// Whether they accepted the challenge.
    pub accepted: bool,
}

/// A member of a side of a team game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberRow {
    /// `B` or `W`.
    pub color: String,
    /// 1, 2, … within the side.
    pub seat: i64,
    /// The member.
    pub user_id: i64,
}

/// Stores a new team challenge: the challenge, its kind and its seats, in one transaction.
///
/// # Errors
/// On a database failure (a user in two seats is refused by a unique index).
pub async fn create_team_challenge(
    store: &Store,
    c: &ChallengeRow,
    kind: &str,
    seats: &[SeatRow],
) -> Result<(), StoreError> {
    let _writing = writer(store).await;
    let mut tx = store.writes().begin().await?;
    insert_team_challenge(&mut tx, c, kind, seats).await?;
    tx.commit().await?;
    Ok(())
}

/// Writes a team challenge, its kind and its seats in `tx`.
pub(super) async fn insert_team_challenge(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    c: &ChallengeRow,
    kind: &str,
    seats: &[SeatRow],
) -> Result<(), sqlx::Error> {
    insert_challenge(c).execute(&mut **tx).await?;
    sqlx::query("INSERT INTO server_challenge_teams (challenge_id, kind) VALUES ($1, $2)")
        .bind(c.id)
        .bind(kind)
        .execute(&mut **tx)
        .await?;
    for s in seats {
        sqlx::query(
            "INSERT INTO server_challenge_seats (challenge_id, side, seat, user_id, accepted) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(c.id)
        .bind(&s.side)
        .bind(s.seat)
        .bind(s.user_id)
        .bind(i64::from(s.accepted))
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// The kind and seats (by side, then seat) of a team challenge; `None` for a challenge of one
/// player a side.
///
/// # Errors
/// On a database failure.
pub async fn challenge_team(
    store: &Store,
    challenge_id: i64,
) -> Result<Option<(String, Vec<SeatRow>)>, StoreError> {
    team_of(
        store,
        "SELECT kind FROM server_challenge_teams WHERE challenge_id = $1",
        "SELECT side, seat, user_id, accepted FROM server_challenge_seats \
         WHERE challenge_id = $1 ORDER BY side, seat",
        challenge_id,
        |r| {
            Ok(SeatRow {
                side: r.try_get("side")?,
                seat: r.try_get("seat")?,
                user_id: r.try_get("user_id")?,
                accepted: r.try_get::<i64, _>("accepted")? != 0,
            })
        },
    )
    .await
}

/// The kind of a team (`kind_sql`, one row with `kind`, or none for a game or challenge of one
/// player a side) and its rows (`rows_sql`, each read by `row`), both selected by `id`.
async fn team_of<T>(
    store: &Store,
    kind_sql: &'static str,
    rows_sql: &'static str,
    id: i64,
    row: impl Fn(&sqlx::any::AnyRow) -> Result<T, sqlx::Error>,
) -> Result<Option<(String, Vec<T>)>, StoreError> {
    let kind = sqlx::query(kind_sql)
        .bind(id)
        .fetch_optional(store.pool())
        .await?;
    let Some(kind) = kind else {
        return Ok(None);
    };
    let kind: String = kind.try_get("kind")?;
    let rows = sqlx::query(rows_sql)
        .bind(id)
        .fetch_all(store.pool())
        .await?;
    let rows = rows
        .iter()
        .map(row)
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    Ok(Some((kind, rows)))
}

/// `user_id` accepts their seat of an open team challenge. Returns `false` when they have no
/// seat there, accepted already, or the challenge is no longer open.
///
/// # Errors
/// On a database failure.
pub async fn accept_seat(
    store: &Store,
    challenge_id: i64,
    user_id: i64,
) -> Result<bool, StoreError> {
    let _writing = writer(store).await;
    let r = sqlx::query(
        "UPDATE server_challenge_seats SET accepted = 1 \
         WHERE challenge_id = $1 AND user_id = $2 AND accepted = 0 \
         AND EXISTS (SELECT 1 FROM server_challenges c WHERE c.id = $1 AND c.status = 'open')",
    )
    .bind(challenge_id)
    .bind(user_id)
    .execute(store.writes())
    .await?;
    Ok(r.rows_affected() == 1)
}

/// Starts the game of a team challenge whose every seat has accepted, in one transaction: the
/// challenge closed as accepted, the game, its kind and its members. Returns `false` (and
/// writes nothing) when the challenge is no longer open or a seat has not accepted.
///
/// # Errors
/// On a database failure.
pub async fn start_team_game(
    store: &Store,
    challenge_id: i64,
    game: &GameRow,
    kind: &str,
    members: &[MemberRow],
) -> Result<bool, StoreError> {
    start_game(
        store,
        "UPDATE server_challenges SET status = 'accepted', game_id = $2 \
         WHERE id = $1 AND status = 'open' AND NOT EXISTS \
         (SELECT 1 FROM server_challenge_seats s WHERE s.challenge_id = $1 AND s.accepted = 0)",
        challenge_id,
        game,
        Some((kind, members)),
    )
    .await
}

pub(super) async fn insert_team(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game_id: i64,
    kind: &str,
    members: &[MemberRow],
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO server_game_teams (game_id, kind) VALUES ($1, $2)")
        .bind(game_id)
        .bind(kind)
        .execute(&mut **tx)
        .await?;
    for m in members {
        sqlx::query(
            "INSERT INTO server_game_members (game_id, color, seat, user_id) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(game_id)
        .bind(&m.color)
        .bind(m.seat)
        .bind(m.user_id)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Stores a team game made without a challenge (by a test, or a director's tool): the game,
/// its kind and its members, in one transaction.
///
/// # Errors
/// On a database failure.
pub async fn create_team_game(
    store: &Store,
    game: &GameRow,
    kind: &str,
    members: &[MemberRow],
) -> Result<(), StoreError> {
    let _writing = writer(store).await;
    let mut tx = store.writes().begin().await?;
    insert_game(&mut tx, game).await?;
    insert_team(&mut tx, game.id, kind, members).await?;
    tx.commit().await?;
    Ok(())
}

/// The kind and members (by colour, then seat) of a team game; `None` for a game of one player
/// a side.
///
/// # Errors
/// On a database failure.
pub async fn game_team(
    store: &Store,
    game_id: i64,
) -> Result<Option<(String, Vec<MemberRow>)>, StoreError> {
    team_of(
        store,
        "SELECT kind FROM server_game_teams WHERE game_id = $1",
        "SELECT color, seat, user_id FROM server_game_members WHERE game_id = $1 \
         ORDER BY color, seat",
        game_id,
        |r| {
            Ok(MemberRow {
                color: r.try_get("color")?,
                seat: r.try_get("seat")?,
                user_id: r.try_get("user_id")?,
            })
        },
    )
    .await
}

/// Finished team games in which `user_id` sat in a seat other than the first (the first seats
/// are `server_games.black/white`, found by [`finished_games_of`](super::finished_games_of)),
/// newest first.
///
/// # Errors
/// On a database failure.
pub async fn finished_team_games_of(
    store: &Store,
    user_id: i64,
    limit: i64,
) -> Result<Vec<GameRow>, StoreError> {
    let rows = sqlx::query(concat!(
        "SELECT ",
        game_columns!(),
        " FROM server_games \
         WHERE status = 'ended' AND black <> $1 AND white <> $1 AND id IN \
         (SELECT game_id FROM server_game_members WHERE user_id = $1) \
         ORDER BY ended_ms DESC, id LIMIT $2"
    ))
    .bind(user_id)
    .bind(limit)
    .fetch_all(store.pool())
    .await?;
    Ok(rows.iter().map(game).collect::<Result<_, _>>()?)
}
