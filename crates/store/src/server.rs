//! The play server's tables (migration `0200_server.sql`): accounts, sessions, challenges,
//! games and moves. Every query is a constant string with `$n` parameters.

use sqlx::any::AnyRow;
use sqlx::Row;

use crate::{Backend, Store, StoreError};

/// SQLite allows one writer at a time; a second one waits in SQLite's busy handler, which
/// sleeps in steps of up to 100 ms. Writes from this process are queued here instead, so
/// they follow one another at once, and go through [`Store::writes`], one connection. (One
/// process per SQLite file; several servers use PostgreSQL.)
static SQLITE_WRITER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

pub(crate) async fn writer(store: &Store) -> Option<tokio::sync::MutexGuard<'static, ()>> {
    match store.backend() {
        Backend::Sqlite => Some(SQLITE_WRITER.lock().await),
        Backend::Postgres => None,
    }
}

/// An account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserRow {
    /// Its id.
    pub id: i64,
    /// The log-in name, unique.
    pub name: String,
    /// The argon2 hash of the password (PHC string).
    pub password_hash: String,
    /// The declared rank (`5d`, `2k`, `3p`, `級外`).
    pub rank: String,
    /// When it was made, in ms since the epoch.
    pub created_ms: i64,
}

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
}

/// What changes in a game besides its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameState {
    /// `playing`, `suspended` or `ended`.
    pub status: String,
    /// Proposed dead stones, GTP points separated by spaces.
    pub dead_proposal: String,
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

fn is_unique_violation(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .is_some_and(|d| d.is_unique_violation())
}

fn user(row: &AnyRow) -> Result<UserRow, sqlx::Error> {
    Ok(UserRow {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        password_hash: row.try_get("password_hash")?,
        rank: row.try_get("rank")?,
        created_ms: row.try_get("created_ms")?,
    })
}

/// Adds an account. Returns `false` (and writes nothing) when the name is taken.
///
/// # Errors
/// On a database failure.
pub async fn create_user(store: &Store, u: &UserRow) -> Result<bool, StoreError> {
    let _writing = writer(store).await;
    let r = sqlx::query(
        "INSERT INTO server_users (id, name, password_hash, rank, created_ms) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(u.id)
    .bind(&u.name)
    .bind(&u.password_hash)
    .bind(&u.rank)
    .bind(u.created_ms)
    .execute(store.writes())
    .await;
    match r {
        Ok(_) => Ok(true),
        Err(e) if is_unique_violation(&e) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// The account of that name.
///
/// # Errors
/// On a database failure.
pub async fn user_by_name(store: &Store, name: &str) -> Result<Option<UserRow>, StoreError> {
    let row = sqlx::query(
        "SELECT id, name, password_hash, rank, created_ms FROM server_users WHERE name = $1",
    )
    .bind(name)
    .fetch_optional(store.pool())
    .await?;
    Ok(row.as_ref().map(user).transpose()?)
}

/// Sets the declared rank of user `id` (an engine account whose configured rank changed).
///
/// # Errors
/// On a database failure.
pub async fn set_user_rank(store: &Store, id: i64, rank: &str) -> Result<(), StoreError> {
    let _writing = writer(store).await;
    sqlx::query("UPDATE server_users SET rank = $1 WHERE id = $2")
        .bind(rank)
        .bind(id)
        .execute(store.writes())
        .await?;
    Ok(())
}

/// The account of that id.
///
/// # Errors
/// On a database failure.
pub async fn user_by_id(store: &Store, id: i64) -> Result<Option<UserRow>, StoreError> {
    let row = sqlx::query(
        "SELECT id, name, password_hash, rank, created_ms FROM server_users WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(store.pool())
    .await?;
    Ok(row.as_ref().map(user).transpose()?)
}

/// Opens a session.
///
/// # Errors
/// On a database failure.
pub async fn create_session(
    store: &Store,
    token_hash: &str,
    user_id: i64,
    csrf: &str,
    created_ms: i64,
    expires_ms: i64,
) -> Result<(), StoreError> {
    let _writing = writer(store).await;
    sqlx::query(
        "INSERT INTO server_sessions (token_hash, user_id, csrf, created_ms, expires_ms) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(token_hash)
    .bind(user_id)
    .bind(csrf)
    .bind(created_ms)
    .bind(expires_ms)
    .execute(store.writes())
    .await?;
    Ok(())
}

/// The user and CSRF token of a session still valid at `now_ms`.
///
/// # Errors
/// On a database failure.
pub async fn session(
    store: &Store,
    token_hash: &str,
    now_ms: i64,
) -> Result<Option<(UserRow, String)>, StoreError> {
    let row = sqlx::query(
        "SELECT u.id, u.name, u.password_hash, u.rank, u.created_ms, s.csrf \
         FROM server_sessions s JOIN server_users u ON u.id = s.user_id \
         WHERE s.token_hash = $1 AND s.expires_ms > $2",
    )
    .bind(token_hash)
    .bind(now_ms)
    .fetch_optional(store.pool())
    .await?;
    match row {
        None => Ok(None),
        Some(r) => Ok(Some((user(&r)?, r.try_get("csrf")?))),
    }
}

/// Ends a session.
///
/// # Errors
/// On a database failure.
pub async fn delete_session(store: &Store, token_hash: &str) -> Result<(), StoreError> {
    let _writing = writer(store).await;
    sqlx::query("DELETE FROM server_sessions WHERE token_hash = $1")
        .bind(token_hash)
        .execute(store.writes())
        .await?;
    Ok(())
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
fn insert_challenge(
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

/// Closes a challenge as accepted by `close_sql` (binding the challenge's id and the game's;
/// no row changed: the challenge was no longer open, and nothing is written) and stores its
/// game, with its team when it has one, in one transaction.
async fn start_game(
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

async fn insert_game(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    g: &GameRow,
) -> Result<(), sqlx::Error> {
    let s = &g.state;
    sqlx::query(
        "INSERT INTO server_games (id, black, white, size, preset, komi_halves, handicap_passes, \
         time_control, status, dead_proposal, accepted_black, accepted_white, result, end_reason, \
         dead, penalty_black, penalty_white, started_ms, ended_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)",
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
    .execute(&mut **tx)
    .await?;
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

/// The columns of a game, as a literal so that queries stay compile-time constants.
macro_rules! game_columns {
    () => {
        "id, black, white, size, preset, komi_halves, handicap_passes, time_control, status, \
         dead_proposal, accepted_black, accepted_white, result, end_reason, dead, penalty_black, \
         penalty_white, started_ms, ended_ms"
    };
}

fn game(row: &AnyRow) -> Result<GameRow, sqlx::Error> {
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
        state: GameState {
            status: row.try_get("status")?,
            dead_proposal: row.try_get("dead_proposal")?,
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
/// `$11` the state.
macro_rules! update_game {
    () => {
        "UPDATE server_games SET status = $2, dead_proposal = $3, accepted_black = $4, \
         accepted_white = $5, result = $6, end_reason = $7, dead = $8, penalty_black = $9, \
         penalty_white = $10, ended_ms = $11 WHERE id = $1"
    };
}

/// Binds `$1` to `$11` of [`update_game`].
macro_rules! bind_state {
    ($q:expr, $game_id:expr, $state:expr) => {
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
    };
}

/// One move and the new state in one transaction made of one request to the database, the
/// common case of [`append_moves`]: `$12` to `$15` the move.
const SQLITE_ONE_MOVE: &str = concat!(
    "BEGIN IMMEDIATE; \
     INSERT INTO server_moves (game_id, move_number, color, mv, at_ms) \
     VALUES ($1, $12, $13, $14, $15); ",
    update_game!(),
    "; COMMIT;"
);

/// The same for PostgreSQL: one statement, so one transaction; the state is written only when
/// the move was inserted, and `inserted` says whether it was.
const POSTGRES_ONE_MOVE: &str = concat!(
    "WITH ins AS (INSERT INTO server_moves (game_id, move_number, color, mv, at_ms) \
     VALUES ($1, $12, $13, $14, $15) ON CONFLICT DO NOTHING RETURNING 1 AS one), \
     upd AS (",
    update_game!(),
    " AND EXISTS (SELECT 1 FROM ins) RETURNING 1 AS one) \
     SELECT (SELECT count(*) FROM ins) AS inserted"
);

/// Appends `moves` (possibly none) to a game and writes its new `state`, in one transaction.
/// When a move of one of these numbers is already stored nothing is written and
/// [`Appended::Conflict`] is returned: that is how two requests for one move apply once.
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
    moves: &[MoveRow],
    state: &GameState,
) -> Result<Appended, StoreError> {
    let _writing = writer(store).await;
    if let [m] = moves {
        return append_one(store, game_id, m, state).await;
    }
    let mut tx = store.writes().begin().await?;
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
    bind_state!(sqlx::query(update_game!()), game_id, state)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Appended::Committed)
}

// ---- Pair go and consultation (migration `0201_pair.sql`), and the chat of a game. ----

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

/// One chat message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRow {
    /// Its id.
    pub id: i64,
    /// The game.
    pub game_id: i64,
    /// `players`, `spectators`, `black` or `white`.
    pub channel: String,
    /// Who wrote it.
    pub user_id: i64,
    /// The writer's name (filled in when read; ignored when stored).
    pub name: String,
    /// The text.
    pub text: String,
    /// When it was stored, in ms since the epoch.
    pub at_ms: i64,
    /// Its place in its game's chat (migration `0204_chat_order.sql`): 1, 2, … in the order the
    /// messages were stored (filled in when read; given by the store when stored).
    pub seq: i64,
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
    insert_challenge(c).execute(&mut *tx).await?;
    sqlx::query("INSERT INTO server_challenge_teams (challenge_id, kind) VALUES ($1, $2)")
        .bind(c.id)
        .bind(kind)
        .execute(&mut *tx)
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
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
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

async fn insert_team(
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
/// are `server_games.black/white`, found by [`finished_games_of`]), newest first.
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

/// Stores a chat message (`m.name` is not stored: it is the user's), after the game's others
/// (`m.seq` is not stored: the message gets the game's next). Two messages stored at the same
/// time may get the same number; a message stored after another was stored gets a higher one.
///
/// # Errors
/// On a database failure.
pub async fn add_chat(store: &Store, m: &ChatRow) -> Result<(), StoreError> {
    let _writing = writer(store).await;
    sqlx::query(
        "INSERT INTO server_chat (id, game_id, channel, user_id, text, at_ms, seq) \
         VALUES ($1, $2, $3, $4, $5, $6, \
         (SELECT COALESCE(MAX(seq), 0) + 1 FROM server_chat WHERE game_id = $2))",
    )
    .bind(m.id)
    .bind(m.game_id)
    .bind(&m.channel)
    .bind(m.user_id)
    .bind(&m.text)
    .bind(m.at_ms)
    .execute(store.writes())
    .await?;
    Ok(())
}

/// The last `limit` messages of one channel of a game, in the order they were stored (`seq`),
/// with their writers' names.
/// The caller asks only for the channels its reader may read.
///
/// # Errors
/// On a database failure.
pub async fn chat_of(
    store: &Store,
    game_id: i64,
    channel: &str,
    limit: i64,
) -> Result<Vec<ChatRow>, StoreError> {
    let rows = sqlx::query(
        "SELECT m.id, m.game_id, m.channel, m.user_id, u.name, m.text, m.at_ms, m.seq \
         FROM server_chat m JOIN server_users u ON u.id = m.user_id \
         WHERE m.game_id = $1 AND m.channel = $2 \
         ORDER BY m.seq DESC, m.id DESC LIMIT $3",
    )
    .bind(game_id)
    .bind(channel)
    .bind(limit)
    .fetch_all(store.pool())
    .await?;
    let mut out = rows
        .iter()
        .map(|r| {
            Ok(ChatRow {
                id: r.try_get("id")?,
                game_id: r.try_get("game_id")?,
                channel: r.try_get("channel")?,
                user_id: r.try_get("user_id")?,
                name: r.try_get("name")?,
                text: r.try_get("text")?,
                at_ms: r.try_get("at_ms")?,
                seq: r.try_get("seq")?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    out.reverse();
    Ok(out)
}

/// [`append_moves`] of one move (the caller holds the writer's turn).
async fn append_one(
    store: &Store,
    game_id: i64,
    m: &MoveRow,
    state: &GameState,
) -> Result<Appended, StoreError> {
    match store.backend() {
        Backend::Postgres => {
            let row = bind_state!(sqlx::query(POSTGRES_ONE_MOVE), game_id, state)
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
            let r = bind_state!(sqlx::query(SQLITE_ONE_MOVE), game_id, state)
                .bind(m.move_number)
                .bind(&m.color)
                .bind(&m.mv)
                .bind(m.at_ms)
                .execute(&mut *conn)
                .await;
            match r {
                Ok(_) => Ok(Appended::Committed),
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
