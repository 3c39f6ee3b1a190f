//! Games and their moves (migration `0200_server.sql`): a game stored with its challenge or
//! alone, read back, and its moves appended with its state in one transaction.

use sqlx::any::AnyRow;
use sqlx::Row;

use crate::{Backend, Store, StoreError};

use super::{insert_team, is_unique_violation, writer, MemberRow};

/// A game as stored (its moves are in [`MoveRow`]s).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Its id.
    pub id: i64,
    /// Black's user id.
    pub black: i64,
    /// White's user id.
    pub white: i64,
    /// Board size.
    pub size: i64,
    /// Rules preset name.
    pub preset: String,
    /// Komi in half points.
    pub komi_halves: i64,
    /// White's handicap passes.
    pub handicap_passes: i64,
    /// Time control text.
    pub time_control: String,
    /// The mutable part.
    pub state: GameState,
    /// When play began.
    pub started_ms: i64,
    /// How many times the game's moves and state have been committed: a change is committed on
    /// the version it was judged on and makes the next one ([`append_moves`]).
    pub version: i64,
}

/// What changes in a game besides its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameState {
    /// `playing`, `suspended` or `ended`.
    pub status: String,
    /// Proposed dead stones, GTP points separated by spaces.
    pub dead_proposal: String,
    /// The verdicts to check of the server's judgement of the suspended position
    /// (`ingo_player::endgame::Judgement::checks`): `point:note` pairs separated by spaces,
    /// as `P19:54% S17:R`; empty during play (migration `0211_dead_checks.sql`).
    pub dead_checks: String,
    /// Black accepted the proposal.
    pub accepted_black: bool,
    /// White accepted the proposal.
    pub accepted_white: bool,
    /// The result (`B+3`, `W+R`), once ended.
    pub result: Option<String>,
    /// How the game ended (`count`, `resignation`, `time`).
    pub end_reason: Option<String>,
    /// The agreed dead stones, once ended by agreement.
    pub dead: Option<String>,
    /// Black's time-penalty points.
    pub penalty_black: i64,
    /// White's time-penalty points.
    pub penalty_white: i64,
    /// When the game ended.
    pub ended_ms: Option<i64>,
}

impl GameState {
    /// The state of a game that has just begun: in play, nothing proposed, no result.
    #[must_use]
    pub fn playing() -> GameState {
        GameState {
            status: "playing".into(),
            ..GameState::default()
        }
    }
}

/// One stored move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    /// 1 for the first move.
    pub move_number: i64,
    /// `B` or `W`.
    pub color: String,
    /// GTP vertex or `pass`.
    pub mv: String,
    /// When it was committed, in ms since the epoch.
    pub at_ms: i64,
}

/// What [`append_moves`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Appended {
    /// The moves and the new state are committed.
    Committed,
    /// A move with one of these numbers is already stored (another request, or another
    /// server, was first): nothing was written.
    Conflict,
}

/// Closes a challenge as accepted by `close_sql` (binding the challenge's id and the game's;
/// no row changed: the challenge was no longer open, and nothing is written) and stores its
/// game, with its team when it has one, in one transaction.
pub(super) async fn start_game(
    store: &Store,
    close_sql: &'static str,
    challenge_id: i64,
    game: &GameRow,
    team: Option<(&str, &[MemberRow])>,
) -> Result<bool, StoreError> {
    let _writing = writer(store).await;
    let mut tx = store.writes().begin().await?;
    let r = sqlx::query(close_sql)
        .bind(challenge_id)
        .bind(game.id)
        .execute(&mut *tx)
        .await?;
    if r.rows_affected() != 1 {
        tx.rollback().await?;
        return Ok(false);
    }
    insert_game(&mut tx, game).await?;
    if let Some((kind, members)) = team {
        insert_team(&mut tx, game.id, kind, members).await?;
    }
    tx.commit().await?;
    Ok(true)
}

pub(super) async fn insert_game(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    g: &GameRow,
) -> Result<(), sqlx::Error> {
    let s = &g.state;
    sqlx::query(
        "INSERT INTO server_games (id, black, white, size, preset, komi_halves, handicap_passes, \
         time_control, status, dead_proposal, accepted_black, accepted_white, result, end_reason, \
         dead, penalty_black, penalty_white, started_ms, ended_ms, version, dead_checks) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, \
         $20, $21)",
    )
    .bind(g.id)
    .bind(g.black)
    .bind(g.white)
    .bind(g.size)
    .bind(&g.preset)
    .bind(g.komi_halves)
    .bind(g.handicap_passes)
    .bind(&g.time_control)
    .bind(&s.status)
    .bind(&s.dead_proposal)
    .bind(i64::from(s.accepted_black))
    .bind(i64::from(s.accepted_white))
    .bind(&s.result)
    .bind(&s.end_reason)
    .bind(&s.dead)
    .bind(s.penalty_black)
    .bind(s.penalty_white)
    .bind(g.started_ms)
    .bind(s.ended_ms)
    .bind(g.version)
    .bind(&s.dead_checks)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Stores a game in the caller's transaction (an event's round starting its games, in the
/// transaction that links each to its pairing).
///
/// # Errors
/// On a database failure.
pub async fn insert_game_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game: &GameRow,
) -> Result<(), StoreError> {
    insert_game(tx, game).await?;
    Ok(())
}

/// Stores a team game's seats in the caller's transaction (an event's pair or consultation
/// game, with [`insert_game_in`]).
///
/// # Errors
/// On a database failure.
pub async fn insert_team_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game_id: i64,
    kind: &str,
    members: &[MemberRow],
) -> Result<(), StoreError> {
    insert_team(tx, game_id, kind, members).await?;
    Ok(())
}

/// Stores a game made without a challenge (against a bot, or by a test).
///
/// # Errors
/// On a database failure.
pub async fn create_game(store: &Store, game: &GameRow) -> Result<(), StoreError> {
    let _writing = writer(store).await;
    let mut tx = store.writes().begin().await?;
    insert_game(&mut tx, game).await?;
    tx.commit().await?;
    Ok(())
}

pub(super) fn game(row: &AnyRow) -> Result<GameRow, sqlx::Error> {
    Ok(GameRow {
        id: row.try_get("id")?,
        black: row.try_get("black")?,
        white: row.try_get("white")?,
        size: row.try_get("size")?,
        preset: row.try_get("preset")?,
        komi_halves: row.try_get("komi_halves")?,
        handicap_passes: row.try_get("handicap_passes")?,
        time_control: row.try_get("time_control")?,
        started_ms: row.try_get("started_ms")?,
        version: row.try_get("version")?,
        state: GameState {
            status: row.try_get("status")?,
            dead_proposal: row.try_get("dead_proposal")?,
            dead_checks: row.try_get("dead_checks")?,
            accepted_black: row.try_get::<i64, _>("accepted_black")? != 0,
            accepted_white: row.try_get::<i64, _>("accepted_white")? != 0,
            result: row.try_get("result")?,
            end_reason: row.try_get("end_reason")?,
            dead: row.try_get("dead")?,
            penalty_black: row.try_get("penalty_black")?,
            penalty_white: row.try_get("penalty_white")?,
            ended_ms: row.try_get("ended_ms")?,
        },
    })
}

/// The game of that id.
///
/// # Errors
/// On a database failure.
pub async fn game_by_id(store: &Store, id: i64) -> Result<Option<GameRow>, StoreError> {
    let row = sqlx::query(concat!(
        "SELECT ",
        game_columns!(),
        " FROM server_games WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(store.pool())
    .await?;
    Ok(row.as_ref().map(game).transpose()?)
}

/// Games not yet ended (playing or suspended), newest first, at most `limit`.
///
/// # Errors
/// On a database failure.
pub async fn live_games(store: &Store, limit: i64) -> Result<Vec<GameRow>, StoreError> {
    let rows = sqlx::query(concat!(
        "SELECT ",
        game_columns!(),
        " FROM server_games WHERE status <> 'ended' \
         ORDER BY started_ms DESC, id LIMIT $1"
    ))
    .bind(limit)
    .fetch_all(store.pool())
    .await?;
    Ok(rows.iter().map(game).collect::<Result<_, _>>()?)
}

/// Games of a user not yet ended (as a player, or a member of a side), oldest first, at most
/// `limit`: a correspondence player's list of their games.
///
/// # Errors
/// On a database failure.
pub async fn live_games_of(
    store: &Store,
    user_id: i64,
    limit: i64,
) -> Result<Vec<GameRow>, StoreError> {
    let rows = sqlx::query(concat!(
        "SELECT ",
        game_columns!(),
        " FROM server_games \
         WHERE status <> 'ended' AND (black = $1 OR white = $1 OR id IN \
         (SELECT game_id FROM server_game_members WHERE user_id = $1)) \
         ORDER BY started_ms, id LIMIT $2"
    ))
    .bind(user_id)
    .bind(limit)
    .fetch_all(store.pool())
    .await?;
    Ok(rows.iter().map(game).collect::<Result<_, _>>()?)
}

/// Finished games of a user, newest first, at most `limit`.
///
/// # Errors
/// On a database failure.
pub async fn finished_games_of(
    store: &Store,
    user_id: i64,
    limit: i64,
) -> Result<Vec<GameRow>, StoreError> {
    let rows = sqlx::query(concat!(
        "SELECT ",
        game_columns!(),
        " FROM server_games \
         WHERE status = 'ended' AND (black = $1 OR white = $1) \
         ORDER BY ended_ms DESC, id LIMIT $2"
    ))
    .bind(user_id)
    .bind(limit)
    .fetch_all(store.pool())
    .await?;
    Ok(rows.iter().map(game).collect::<Result<_, _>>()?)
}

/// The moves of a game, in order.
///
/// # Errors
/// On a database failure.
pub async fn moves_of(store: &Store, game_id: i64) -> Result<Vec<MoveRow>, StoreError> {
    let rows = sqlx::query(
        "SELECT move_number, color, mv, at_ms FROM server_moves WHERE game_id = $1 \
         ORDER BY move_number",
    )
    .bind(game_id)
    .fetch_all(store.pool())
    .await?;
    rows.iter()
        .map(|r| {
            Ok(MoveRow {
                move_number: r.try_get("move_number")?,
                color: r.try_get("color")?,
                mv: r.try_get("mv")?,
                at_ms: r.try_get("at_ms")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(StoreError::from)
}

/// The update of a game's state, shared by [`append_moves`]'s queries: `$1` the game, `$2` to
/// `$12` the state, `$13` the version it was judged on; the row is written, with the next
/// version, only when it still has that one.
macro_rules! update_game {
    () => {
        "UPDATE server_games SET status = $2, dead_proposal = $3, accepted_black = $4, \
         accepted_white = $5, result = $6, end_reason = $7, dead = $8, penalty_black = $9, \
         penalty_white = $10, ended_ms = $11, dead_checks = $12, version = $13 + 1 \
         WHERE id = $1 AND version = $13"
    };
}

/// Binds `$1` to `$13` of [`update_game`].
macro_rules! bind_state {
    ($q:expr, $game_id:expr, $base:expr, $state:expr) => {
        $q.bind($game_id)
            .bind(&$state.status)
            .bind(&$state.dead_proposal)
            .bind(i64::from($state.accepted_black))
            .bind(i64::from($state.accepted_white))
            .bind(&$state.result)
            .bind(&$state.end_reason)
            .bind(&$state.dead)
            .bind($state.penalty_black)
            .bind($state.penalty_white)
            .bind($state.ended_ms)
            .bind(&$state.dead_checks)
            .bind($base)
    };
}

/// Writes `state` and the next version in the caller's transaction, only on the version `base`
/// the change was judged on; whether it was written (false: the copy was stale).
pub(super) async fn write_state(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game_id: i64,
    base: i64,
    state: &GameState,
) -> Result<bool, sqlx::Error> {
    let written = bind_state!(sqlx::query(update_game!()), game_id, base, state)
        .execute(&mut **tx)
        .await?;
    Ok(written.rows_affected() == 1)
}

/// One move and the new state in one transaction made of one request to the database, the
/// common case of [`append_moves`]: `$14` to `$17` the move. The state is written first, only
/// on the version it was judged on (`RETURNING` says whether it was); the move only then
/// (`changes()`, the rows the update wrote); a move number already stored fails the insert,
/// and the caller rolls the whole back.
const SQLITE_ONE_MOVE: &str = concat!(
    "BEGIN IMMEDIATE; ",
    update_game!(),
    " RETURNING version; \
     INSERT INTO server_moves (game_id, move_number, color, mv, at_ms) \
     SELECT $1, $14, $15, $16, $17 WHERE changes() = 1; \
     COMMIT;"
);

/// The same for PostgreSQL: one statement, so one transaction. `cur` locks the game's row if
/// it still has the version judged on (a row another transaction is writing is waited for and
/// read again); the move is inserted only then, and the state written only when the move was;
/// `inserted` says whether it was.
const POSTGRES_ONE_MOVE: &str = concat!(
    "WITH cur AS (SELECT id FROM server_games WHERE id = $1 AND version = $13 FOR UPDATE), \
     ins AS (INSERT INTO server_moves (game_id, move_number, color, mv, at_ms) \
     SELECT $1, $14, $15, $16, $17 FROM cur ON CONFLICT DO NOTHING RETURNING 1 AS one), \
     upd AS (",
    update_game!(),
    " AND EXISTS (SELECT 1 FROM ins) RETURNING 1 AS one) \
     SELECT (SELECT count(*) FROM ins) AS inserted"
);

/// Appends `moves` (possibly none) to a game and writes its new `state`, in one transaction,
/// on the version `base` the change was judged on; the stored version is then `base + 1`.
///
/// Nothing is written and [`Appended::Conflict`] is returned when the game's stored version is
/// not `base` (another request or another server committed a change first: the change was
/// judged on a stale copy) or when a move of one of these numbers is already stored (two
/// requests for one move apply once). The caller then reads the game again and judges anew.
///
/// It returns once the transaction is committed. A single move, the common case, takes one
/// request to the database (a move costs its round trips: with SQLite each is a hand-over to
/// the connection's thread, with PostgreSQL a trip over the network); several moves or none take
/// a transaction of several statements.
///
/// # Errors
/// On a database failure.
pub async fn append_moves(
    store: &Store,
    game_id: i64,
    base: i64,
    moves: &[MoveRow],
    state: &GameState,
) -> Result<Appended, StoreError> {
    let _writing = writer(store).await;
    // A game that ends may be an event's, whose result is entered in the same transaction.
    let ending = state.status == "ended";
    if let [m] = moves {
        if !ending {
            return append_one(store, game_id, base, m, state).await;
        }
    }
    let mut tx = store.writes().begin().await?;
    if !write_state(&mut tx, game_id, base, state).await? {
        tx.rollback().await?;
        return Ok(Appended::Conflict);
    }
    for m in moves {
        let r = sqlx::query(
            "INSERT INTO server_moves (game_id, move_number, color, mv, at_ms) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(game_id)
        .bind(m.move_number)
        .bind(&m.color)
        .bind(&m.mv)
        .bind(m.at_ms)
        .execute(&mut *tx)
        .await;
        match r {
            Ok(_) => {}
            Err(e) if is_unique_violation(&e) => {
                tx.rollback().await?;
                return Ok(Appended::Conflict);
            }
            Err(e) => return Err(e.into()),
        }
    }
    if ending {
        if let Some(result) = &state.result {
            crate::tournament::online::game_ended(
                &mut tx,
                store.backend(),
                game_id,
                result,
                state.end_reason.as_deref(),
            )
            .await?;
        }
    }
    tx.commit().await?;
    Ok(Appended::Committed)
}

/// [`append_moves`] of one move (the caller holds the writer's turn).
async fn append_one(
    store: &Store,
    game_id: i64,
    base: i64,
    m: &MoveRow,
    state: &GameState,
) -> Result<Appended, StoreError> {
    match store.backend() {
        Backend::Postgres => {
            let row = bind_state!(sqlx::query(POSTGRES_ONE_MOVE), game_id, base, state)
                .bind(m.move_number)
                .bind(&m.color)
                .bind(&m.mv)
                .bind(m.at_ms)
                .fetch_one(store.writes())
                .await?;
            let inserted: i64 = row.try_get("inserted")?;
            Ok(if inserted == 1 {
                Appended::Committed
            } else {
                Appended::Conflict
            })
        }
        Backend::Sqlite => {
            let mut held = store.held().await?;
            let Some(conn) = held.as_mut() else {
                return Err(StoreError::Query(sqlx::Error::PoolClosed));
            };
            let r = bind_state!(sqlx::query(SQLITE_ONE_MOVE), game_id, base, state)
                .bind(m.move_number)
                .bind(&m.color)
                .bind(&m.mv)
                .bind(m.at_ms)
                .fetch_all(&mut *conn)
                .await;
            match r {
                // The update's `RETURNING`: one row when the version was the one judged on.
                Ok(rows) if rows.len() == 1 => Ok(Appended::Committed),
                Ok(_) => Ok(Appended::Conflict),
                Err(e) => {
                    // The statements stopped at the error, inside the transaction: end it
                    // (or, if that fails, drop the connection rather than reuse it).
                    if sqlx::query("ROLLBACK").execute(&mut *conn).await.is_err() {
                        *held = None;
                    }
                    if is_unique_violation(&e) {
                        Ok(Appended::Conflict)
                    } else {
                        Err(e.into())
                    }
                }
            }
        }
    }
}
