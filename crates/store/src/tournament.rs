//! Tournament events (`ingo tournament`): events, entrants and games, as plain rows.
//!
//! Every function takes a connection, so that a caller runs a whole command in one
//! transaction: `let mut tx = store.pool().begin().await?; … tx.commit().await?`. Nothing
//! here knows the rules of an event; `ingo-tournament` decides, and this module keeps what
//! was decided. [`domain`] reads these rows as `ingo-tournament`'s types and writes them back.

pub mod domain;
pub mod online;

pub use domain::{
    entrant_of, entrant_row, game_of, game_row, load_event, load_event_by_id, log_of, log_row,
    LoadError, RowError,
};

use sqlx::{AnyConnection, Row};

use crate::{new_id, now_ms, StoreError};

/// An event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    /// Id.
    pub id: i64,
    /// Unique name.
    pub name: String,
    /// The agreement (TOML) as the director wrote it.
    pub agreement: String,
    /// When it was created, ms since the Unix epoch.
    pub created_ms: i64,
}

/// An entrant of an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrantRow {
    /// Seed order, from 1.
    pub seq: i64,
    /// Name, unique within the event.
    pub name: String,
    /// `player`, `pair`, `consultation` or `team`.
    pub kind: String,
    /// Rank (`5d`, `3p`, `2k`), if known.
    pub rank: Option<String>,
    /// Members, one a line: name, a tab, rank (empty when unknown).
    pub members: String,
    /// The GTP command of an engine entrant.
    pub engine: Option<String>,
    /// Club.
    pub club: Option<String>,
    /// Surname.
    pub surname: Option<String>,
    /// Given name.
    pub given_name: Option<String>,
    /// Country, a two-letter code.
    pub country: Option<String>,
    /// PIN in the European Go Database.
    pub egd_pin: Option<i64>,
    /// Withdrawn.
    pub withdrawn: bool,
}

/// A game or bye of an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Round, from 1.
    pub round: i64,
    /// Board within the round, from 1.
    pub board: i64,
    /// Black (the player with the bye, for a bye).
    pub black: String,
    /// White; `None` for a bye.
    pub white: Option<String>,
    /// White's handicap passes.
    pub passes: i64,
    /// Komi in half points.
    pub komi_halves: i64,
    /// The result as text, once entered.
    pub result: Option<String>,
    /// The game record, for games played by engines or imported.
    pub sgf: Option<String>,
    /// Whether the result was given by the rules (罰停's forfeits and cancelled byes), not
    /// entered.
    pub automatic: bool,
}

/// One entry of an event's log of decisions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogRow {
    /// Order within the event, from 1 ([`append_log`] sets it).
    pub seq: i64,
    /// When, ms since the Unix epoch ([`append_log`] sets it).
    pub at_ms: i64,
    /// What was done: `pair`, `result`, `change`, … (`ingo_tournament::Action::name`).
    pub action: String,
    /// The round, for a game or round.
    pub round: Option<i64>,
    /// The board, for a game.
    pub board: Option<i64>,
    /// The entrant, for an entrant's change.
    pub entrant: Option<String>,
    /// The value before.
    pub old_value: Option<String>,
    /// The value after.
    pub new_value: Option<String>,
    /// Why.
    pub reason: Option<String>,
}

/// Creates an event; returns its id.
///
/// # Errors
///
/// [`StoreError::Query`], for instance when the name is taken.
pub async fn create_event(
    conn: &mut AnyConnection,
    name: &str,
    agreement: &str,
) -> Result<i64, StoreError> {
    let id = new_id();
    sqlx::query(
        "INSERT INTO tournament_event (id, name, agreement, created_ms) VALUES ($1, $2, $3, $4)",
    )
    .bind(id)
    .bind(name)
    .bind(agreement)
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(id)
}

fn event_row(r: &sqlx::any::AnyRow) -> Result<EventRow, sqlx::Error> {
    Ok(EventRow {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        agreement: r.try_get("agreement")?,
        created_ms: r.try_get("created_ms")?,
    })
}

/// Every event, oldest first.
///
/// # Errors
///
/// [`StoreError::Query`].
pub async fn events(conn: &mut AnyConnection) -> Result<Vec<EventRow>, StoreError> {
    let rows = sqlx::query(
        "SELECT id, name, agreement, created_ms FROM tournament_event ORDER BY created_ms, id",
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows.iter().map(event_row).collect::<Result<_, _>>()?)
}

/// The event named `name`.
///
/// # Errors
///
/// [`StoreError::Query`].
pub async fn event_by_name(
    conn: &mut AnyConnection,
    name: &str,
) -> Result<Option<EventRow>, StoreError> {
    let row =
        sqlx::query("SELECT id, name, agreement, created_ms FROM tournament_event WHERE name = $1")
            .bind(name)
            .fetch_optional(&mut *conn)
            .await?;
    Ok(row.as_ref().map(event_row).transpose()?)
}

/// The event of id `id`.
///
/// # Errors
///
/// [`StoreError::Query`].
pub async fn event_by_id(
    conn: &mut AnyConnection,
    id: i64,
) -> Result<Option<EventRow>, StoreError> {
    let row =
        sqlx::query("SELECT id, name, agreement, created_ms FROM tournament_event WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?;
    Ok(row.as_ref().map(event_row).transpose()?)
}

/// Adds an entrant.
///
/// # Errors
///
/// [`StoreError::Query`], for instance when the name or seed is taken.
pub async fn add_entrant(
    conn: &mut AnyConnection,
    event_id: i64,
    e: &EntrantRow,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO tournament_entrant (id, event_id, seq, name, kind, rank, members, engine, withdrawn, \
         club, surname, given_name, country, egd_pin) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
    )
    .bind(new_id())
    .bind(event_id)
    .bind(e.seq)
    .bind(&e.name)
    .bind(&e.kind)
    .bind(&e.rank)
    .bind(&e.members)
    .bind(&e.engine)
    .bind(i64::from(e.withdrawn))
    .bind(&e.club)
    .bind(&e.surname)
    .bind(&e.given_name)
    .bind(&e.country)
    .bind(e.egd_pin)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The entrants of an event, in seed order.
///
/// # Errors
///
/// [`StoreError::Query`].
pub async fn entrants(
    conn: &mut AnyConnection,
    event_id: i64,
) -> Result<Vec<EntrantRow>, StoreError> {
    let rows = sqlx::query(
        "SELECT seq, name, kind, rank, members, engine, withdrawn, club, surname, given_name, \
         country, egd_pin FROM tournament_entrant \
         WHERE event_id = $1 ORDER BY seq",
    )
    .bind(event_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        out.push(EntrantRow {
            seq: r.try_get("seq")?,
            name: r.try_get("name")?,
            kind: r.try_get("kind")?,
            rank: r.try_get("rank")?,
            members: r.try_get("members")?,
            engine: r.try_get("engine")?,
            club: r.try_get("club")?,
            surname: r.try_get("surname")?,
            given_name: r.try_get("given_name")?,
            country: r.try_get("country")?,
            egd_pin: r.try_get("egd_pin")?,
            withdrawn: r.try_get::<i64, _>("withdrawn")? != 0,
        });
    }
    Ok(out)
}

/// Marks an entrant withdrawn (or back in); returns whether it exists.
///
/// # Errors
///
/// [`StoreError::Query`].
pub async fn set_withdrawn(
    conn: &mut AnyConnection,
    event_id: i64,
    name: &str,
    withdrawn: bool,
) -> Result<bool, StoreError> {
    let r = sqlx::query(
        "UPDATE tournament_entrant SET withdrawn = $1 WHERE event_id = $2 AND name = $3",
    )
    .bind(i64::from(withdrawn))
    .bind(event_id)
    .bind(name)
    .execute(&mut *conn)
    .await?;
    Ok(r.rows_affected() > 0)
}

/// Adds games (a drawn schedule or a paired round).
///
/// # Errors
///
/// [`StoreError::Query`], for instance when a (round, board) is taken.
pub async fn insert_games(
    conn: &mut AnyConnection,
    event_id: i64,
    games: &[GameRow],
) -> Result<(), StoreError> {
    for g in games {
        sqlx::query(
            "INSERT INTO tournament_game (id, event_id, round, board, black, white, passes, komi_halves, result, sgf, updated_ms, automatic) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        )
        .bind(new_id())
        .bind(event_id)
        .bind(g.round)
        .bind(g.board)
        .bind(&g.black)
        .bind(&g.white)
        .bind(g.passes)
        .bind(g.komi_halves)
        .bind(&g.result)
        .bind(&g.sgf)
        .bind(now_ms())
        .bind(i64::from(g.automatic))
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// The games of an event, in round and board order.
///
/// # Errors
///
/// [`StoreError::Query`].
pub async fn games(conn: &mut AnyConnection, event_id: i64) -> Result<Vec<GameRow>, StoreError> {
    let rows = sqlx::query(
        "SELECT round, board, black, white, passes, komi_halves, result, sgf, automatic FROM tournament_game \
         WHERE event_id = $1 ORDER BY round, board",
    )
    .bind(event_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        out.push(GameRow {
            round: r.try_get("round")?,
            board: r.try_get("board")?,
            black: r.try_get("black")?,
            white: r.try_get("white")?,
            passes: r.try_get("passes")?,
            komi_halves: r.try_get("komi_halves")?,
            result: r.try_get("result")?,
            sgf: r.try_get("sgf")?,
            automatic: r.try_get::<i64, _>("automatic")? != 0,
        });
    }
    Ok(out)
}

/// Sets (or corrects, or clears with `None`) the result of a game, as entered (not given by
/// the rules); returns whether it exists.
///
/// # Errors
///
/// [`StoreError::Query`].
pub async fn set_result(
    conn: &mut AnyConnection,
    event_id: i64,
    round: i64,
    board: i64,
    result: Option<&str>,
) -> Result<bool, StoreError> {
    let r = sqlx::query(
        "UPDATE tournament_game SET result = $1, updated_ms = $2, automatic = 0 WHERE event_id = $3 AND round = $4 AND board = $5",
    )
    .bind(result)
    .bind(now_ms())
    .bind(event_id)
    .bind(round)
    .bind(board)
    .execute(&mut *conn)
    .await?;
    Ok(r.rows_affected() > 0)
}

/// Records a played game's result and record only if it has none yet: a game finished twice
/// (two runners, or a runner resumed after a crash) is counted once. Returns whether it was
/// recorded.
///
/// # Errors
///
/// [`StoreError::Query`].
pub async fn record_played(
    conn: &mut AnyConnection,
    event_id: i64,
    round: i64,
    board: i64,
    result: &str,
    sgf: &str,
) -> Result<bool, StoreError> {
    let r = sqlx::query(
        "UPDATE tournament_game SET result = $1, sgf = $2, updated_ms = $3 \
         WHERE event_id = $4 AND round = $5 AND board = $6 AND result IS NULL",
    )
    .bind(result)
    .bind(sgf)
    .bind(now_ms())
    .bind(event_id)
    .bind(round)
    .bind(board)
    .execute(&mut *conn)
    .await?;
    Ok(r.rows_affected() > 0)
}

/// Writes a game's result and whether the rules gave it, as `g` has them (the row's round and
/// board name the game); returns whether it exists.
///
/// # Errors
///
/// [`StoreError::Query`].
pub async fn write_result(
    conn: &mut AnyConnection,
    event_id: i64,
    g: &GameRow,
) -> Result<bool, StoreError> {
    let r = sqlx::query(
        "UPDATE tournament_game SET result = $1, automatic = $2, updated_ms = $3 \
         WHERE event_id = $4 AND round = $5 AND board = $6",
    )
    .bind(&g.result)
    .bind(i64::from(g.automatic))
    .bind(now_ms())
    .bind(event_id)
    .bind(g.round)
    .bind(g.board)
    .execute(&mut *conn)
    .await?;
    Ok(r.rows_affected() > 0)
}

/// Deletes the games of `round` (of every round with `None`); returns how many.
///
/// # Errors
///
/// [`StoreError::Query`].
pub async fn delete_games(
    conn: &mut AnyConnection,
    event_id: i64,
    round: Option<i64>,
) -> Result<u64, StoreError> {
    let r = match round {
        Some(round) => {
            sqlx::query("DELETE FROM tournament_game WHERE event_id = $1 AND round = $2")
                .bind(event_id)
                .bind(round)
                .execute(&mut *conn)
                .await?
        }
        None => {
            sqlx::query("DELETE FROM tournament_game WHERE event_id = $1")
                .bind(event_id)
                .execute(&mut *conn)
                .await?
        }
    };
    Ok(r.rows_affected())
}

/// Removes an entrant and closes the gap in the seeds (the later ones move up one); returns
/// whether it existed. The caller checks that it has no game.
///
/// # Errors
///
/// [`StoreError::Query`].
pub async fn remove_entrant(
    conn: &mut AnyConnection,
    event_id: i64,
    name: &str,
) -> Result<bool, StoreError> {
    let seq: Option<i64> =
        sqlx::query_scalar("SELECT seq FROM tournament_entrant WHERE event_id = $1 AND name = $2")
            .bind(event_id)
            .bind(name)
            .fetch_optional(&mut *conn)
            .await?;
    let Some(seq) = seq else {
        return Ok(false);
    };
    sqlx::query("DELETE FROM tournament_entrant WHERE event_id = $1 AND name = $2")
        .bind(event_id)
        .bind(name)
        .execute(&mut *conn)
        .await?;
    // In two steps through negative seeds, so that no two rows share a seed on the way (the
    // unique constraint is checked row by row).
    for sql in [
        "UPDATE tournament_entrant SET seq = -seq WHERE event_id = $1 AND seq > $2",
        "UPDATE tournament_entrant SET seq = -seq - 1 WHERE event_id = $1 AND seq < 0",
    ] {
        sqlx::query(sql)
            .bind(event_id)
            .bind(seq)
            .execute(&mut *conn)
            .await?;
    }
    Ok(true)
}

/// Replaces the entrant named `name` by `e` (its seed and withdrawal kept); a new name is
/// written into its games too. Returns whether it existed.
///
/// # Errors
///
/// [`StoreError::Query`], for instance when the new name is taken.
pub async fn update_entrant(
    conn: &mut AnyConnection,
    event_id: i64,
    name: &str,
    e: &EntrantRow,
) -> Result<bool, StoreError> {
    let r = sqlx::query(
        "UPDATE tournament_entrant SET name = $1, kind = $2, rank = $3, members = $4, engine = $5, \
         club = $6, surname = $7, given_name = $8, country = $9, egd_pin = $10 \
         WHERE event_id = $11 AND name = $12",
    )
    .bind(&e.name)
    .bind(&e.kind)
    .bind(&e.rank)
    .bind(&e.members)
    .bind(&e.engine)
    .bind(&e.club)
    .bind(&e.surname)
    .bind(&e.given_name)
    .bind(&e.country)
    .bind(e.egd_pin)
    .bind(event_id)
    .bind(name)
    .execute(&mut *conn)
    .await?;
    if r.rows_affected() == 0 {
        return Ok(false);
    }
    if e.name != name {
        for sql in [
            "UPDATE tournament_game SET black = $1 WHERE event_id = $2 AND black = $3",
            "UPDATE tournament_game SET white = $1 WHERE event_id = $2 AND white = $3",
        ] {
            sqlx::query(sql)
                .bind(&e.name)
                .bind(event_id)
                .bind(name)
                .execute(&mut *conn)
                .await?;
        }
    }
    Ok(true)
}

/// Appends entries to an event's log, in order, each with the time now and the next `seq`
/// (the rows' own `seq` and `at_ms` are ignored). Call it in the transaction of the change
/// it records, so that the change and its entry are kept together or not at all.
///
/// # Errors
///
/// [`StoreError::Query`].
pub async fn append_log(
    conn: &mut AnyConnection,
    event_id: i64,
    rows: &[LogRow],
) -> Result<(), StoreError> {
    let last: Option<i64> =
        sqlx::query_scalar("SELECT MAX(seq) FROM tournament_log WHERE event_id = $1")
            .bind(event_id)
            .fetch_one(&mut *conn)
            .await?;
    let at = now_ms();
    for (i, l) in rows.iter().enumerate() {
        sqlx::query(
            "INSERT INTO tournament_log (id, event_id, seq, at_ms, action, round, board, entrant, \
             old_value, new_value, reason) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(new_id())
        .bind(event_id)
        .bind(last.unwrap_or(0) + 1 + i as i64)
        .bind(at)
        .bind(&l.action)
        .bind(l.round)
        .bind(l.board)
        .bind(&l.entrant)
        .bind(&l.old_value)
        .bind(&l.new_value)
        .bind(&l.reason)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// An event's log, in order.
///
/// # Errors
///
/// [`StoreError::Query`].
pub async fn log(conn: &mut AnyConnection, event_id: i64) -> Result<Vec<LogRow>, StoreError> {
    let rows = sqlx::query(
        "SELECT seq, at_ms, action, round, board, entrant, old_value, new_value, reason \
         FROM tournament_log WHERE event_id = $1 ORDER BY seq",
    )
    .bind(event_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        out.push(LogRow {
            seq: r.try_get("seq")?,
            at_ms: r.try_get("at_ms")?,
            action: r.try_get("action")?,
            round: r.try_get("round")?,
            board: r.try_get("board")?,
            entrant: r.try_get("entrant")?,
            old_value: r.try_get("old_value")?,
            new_value: r.try_get("new_value")?,
            reason: r.try_get("reason")?,
        });
    }
    Ok(out)
}
