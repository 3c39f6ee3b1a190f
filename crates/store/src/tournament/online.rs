//! Events hosted by the play server (migration `0209_online_events.sql`): registration from
//! the lobby, the rounds' starts, check-ins, the server games that play the pairings, and the
//! result of such a game entered into its event in the transaction that ends the game.
//!
//! The tables are those of `ingo tournament` plus these, so an event made online is read by
//! `ingo tournament standings --db` and the other way round.

use ingo_tournament::{Action, LogEntry, Outcome};
use sqlx::{AnyConnection, Row};

use super::domain::{game_row, load_event_by_id, log_row};
use super::{append_log, write_result, EventRow, LoadError};
use crate::{new_id, Backend, Store, StoreError};

/// A write transaction on one event: with SQLite it holds this process's turn to write (so it
/// follows the other writes at once), with PostgreSQL the event's row is locked, so two
/// servers never decide on one event at the same time (a game's end and a director's change,
/// or two games' ends that both change 罰停's forfeits).
pub struct EventTx {
    /// The transaction.
    pub tx: sqlx::Transaction<'static, sqlx::Any>,
    _writing: Option<tokio::sync::MutexGuard<'static, ()>>,
}

impl EventTx {
    /// Commits.
    ///
    /// # Errors
    /// On a database failure.
    pub async fn commit(self) -> Result<(), StoreError> {
        self.tx.commit().await?;
        Ok(())
    }

    /// The connection, for this module's and [`super`]'s queries.
    pub fn conn(&mut self) -> &mut AnyConnection {
        &mut self.tx
    }
}

/// Begins a write transaction on event `event_id` ([`EventTx`]); `None` when there is no such
/// event.
///
/// # Errors
/// On a database failure.
pub async fn begin(store: &Store, event_id: i64) -> Result<Option<EventTx>, StoreError> {
    let writing = crate::server::writer(store).await;
    let mut tx = store.writes().begin().await?;
    if !lock_event(&mut tx, store.backend(), event_id).await? {
        tx.rollback().await?;
        return Ok(None);
    }
    Ok(Some(EventTx {
        tx,
        _writing: writing,
    }))
}

/// Begins a write transaction that creates an event (no row to lock yet).
///
/// # Errors
/// On a database failure.
pub async fn begin_new(store: &Store) -> Result<EventTx, StoreError> {
    let writing = crate::server::writer(store).await;
    let tx = store.writes().begin().await?;
    Ok(EventTx {
        tx,
        _writing: writing,
    })
}

/// Locks event `id`'s row for the transaction (PostgreSQL; SQLite has one writer at a time);
/// whether it exists.
async fn lock_event(
    conn: &mut AnyConnection,
    backend: Backend,
    id: i64,
) -> Result<bool, StoreError> {
    let sql = match backend {
        Backend::Postgres => "SELECT id FROM tournament_event WHERE id = $1 FOR UPDATE",
        Backend::Sqlite => "SELECT id FROM tournament_event WHERE id = $1",
    };
    Ok(sqlx::query(sql)
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .is_some())
}

/// What an event hosted online adds to its row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventStatus {
    /// The event.
    pub event: EventRow,
    /// Whether registration is open.
    pub registration: bool,
    /// When the director closed the event, ms since the Unix epoch.
    pub closed_ms: Option<i64>,
}

/// Event `id` with its status.
///
/// # Errors
/// On a database failure.
pub async fn status(conn: &mut AnyConnection, id: i64) -> Result<Option<EventStatus>, StoreError> {
    let row = sqlx::query(
        "SELECT id, name, agreement, created_ms, registration, closed_ms FROM tournament_event \
         WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(r) = row else { return Ok(None) };
    Ok(Some(status_of(&r)?))
}

fn status_of(r: &sqlx::any::AnyRow) -> Result<EventStatus, sqlx::Error> {
    Ok(EventStatus {
        event: EventRow {
            id: r.try_get("id")?,
            name: r.try_get("name")?,
            agreement: r.try_get("agreement")?,
            created_ms: r.try_get("created_ms")?,
        },
        registration: r.try_get::<i64, _>("registration")? != 0,
        closed_ms: r.try_get("closed_ms")?,
    })
}

/// Every event with its status, newest first.
///
/// # Errors
/// On a database failure.
pub async fn statuses(conn: &mut AnyConnection) -> Result<Vec<EventStatus>, StoreError> {
    let rows = sqlx::query(
        "SELECT id, name, agreement, created_ms, registration, closed_ms FROM tournament_event \
         ORDER BY created_ms DESC, id DESC",
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows.iter().map(status_of).collect::<Result<_, _>>()?)
}

/// Opens or closes registration.
///
/// # Errors
/// On a database failure.
pub async fn set_registration(
    conn: &mut AnyConnection,
    id: i64,
    open: bool,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE tournament_event SET registration = $1 WHERE id = $2")
        .bind(i64::from(open))
        .bind(id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Closes the event at `at_ms` (and its registration).
///
/// # Errors
/// On a database failure.
pub async fn close(conn: &mut AnyConnection, id: i64, at_ms: i64) -> Result<(), StoreError> {
    sqlx::query("UPDATE tournament_event SET registration = 0, closed_ms = $1 WHERE id = $2")
        .bind(at_ms)
        .bind(id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// A player's registration waiting for the director.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegistrationRow {
    /// The account.
    pub account: i64,
    /// Its name.
    pub name: String,
    /// The rank declared.
    pub rank: Option<String>,
    /// When, ms since the Unix epoch.
    pub at_ms: i64,
}

/// Records a registration; false when the account has registered already.
///
/// # Errors
/// On a database failure.
pub async fn register(
    conn: &mut AnyConnection,
    event_id: i64,
    r: &RegistrationRow,
) -> Result<bool, StoreError> {
    let exists: Option<i64> = sqlx::query_scalar(
        "SELECT account FROM tournament_registration WHERE event_id = $1 AND account = $2",
    )
    .bind(event_id)
    .bind(r.account)
    .fetch_optional(&mut *conn)
    .await?;
    if exists.is_some() {
        return Ok(false);
    }
    sqlx::query(
        "INSERT INTO tournament_registration (id, event_id, account, name, rank, at_ms) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(new_id())
    .bind(event_id)
    .bind(r.account)
    .bind(&r.name)
    .bind(&r.rank)
    .bind(r.at_ms)
    .execute(&mut *conn)
    .await?;
    Ok(true)
}

/// The registrations waiting for approval, oldest first.
///
/// # Errors
/// On a database failure.
pub async fn registrations(
    conn: &mut AnyConnection,
    event_id: i64,
) -> Result<Vec<RegistrationRow>, StoreError> {
    let rows = sqlx::query(
        "SELECT account, name, rank, at_ms FROM tournament_registration WHERE event_id = $1 \
         ORDER BY at_ms, id",
    )
    .bind(event_id)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(RegistrationRow {
                account: r.try_get("account")?,
                name: r.try_get("name")?,
                rank: r.try_get("rank")?,
                at_ms: r.try_get("at_ms")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(StoreError::from)
}

/// Removes a registration (approved or refused); whether there was one.
///
/// # Errors
/// On a database failure.
pub async fn remove_registration(
    conn: &mut AnyConnection,
    event_id: i64,
    account: i64,
) -> Result<bool, StoreError> {
    let r = sqlx::query("DELETE FROM tournament_registration WHERE event_id = $1 AND account = $2")
        .bind(event_id)
        .bind(account)
        .execute(&mut *conn)
        .await?;
    Ok(r.rows_affected() > 0)
}

/// Names the account that plays as entrant `name`.
///
/// # Errors
/// On a database failure.
pub async fn set_account(
    conn: &mut AnyConnection,
    event_id: i64,
    name: &str,
    account: i64,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE tournament_entrant SET account = $1 WHERE event_id = $2 AND name = $3")
        .bind(account)
        .bind(event_id)
        .bind(name)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Each entrant's name and the account that plays as it, in seed order.
///
/// # Errors
/// On a database failure.
pub async fn accounts(
    conn: &mut AnyConnection,
    event_id: i64,
) -> Result<Vec<(String, Option<i64>)>, StoreError> {
    let rows = sqlx::query(
        "SELECT name, account FROM tournament_entrant WHERE event_id = $1 ORDER BY seq",
    )
    .bind(event_id)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("name")?, r.try_get("account")?)))
        .collect::<Result<_, sqlx::Error>>()
        .map_err(StoreError::from)
}

/// Records that `round` started at `at_ms`; false when it had started already.
///
/// # Errors
/// On a database failure.
pub async fn start_round(
    conn: &mut AnyConnection,
    event_id: i64,
    round: i64,
    at_ms: i64,
) -> Result<bool, StoreError> {
    let exists: Option<i64> = sqlx::query_scalar(
        "SELECT started_ms FROM tournament_round WHERE event_id = $1 AND round = $2",
    )
    .bind(event_id)
    .bind(round)
    .fetch_optional(&mut *conn)
    .await?;
    if exists.is_some() {
        return Ok(false);
    }
    sqlx::query("INSERT INTO tournament_round (event_id, round, started_ms) VALUES ($1, $2, $3)")
        .bind(event_id)
        .bind(round)
        .bind(at_ms)
        .execute(&mut *conn)
        .await?;
    Ok(true)
}

/// Forgets that `round` started (the director took the round back).
///
/// # Errors
/// On a database failure.
pub async fn forget_round(
    conn: &mut AnyConnection,
    event_id: i64,
    round: i64,
) -> Result<(), StoreError> {
    for sql in [
        "DELETE FROM tournament_round WHERE event_id = $1 AND round = $2",
        "DELETE FROM tournament_checkin WHERE event_id = $1 AND round = $2",
    ] {
        sqlx::query(sql)
            .bind(event_id)
            .bind(round)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// The rounds started, with when, in order.
///
/// # Errors
/// On a database failure.
pub async fn rounds(
    conn: &mut AnyConnection,
    event_id: i64,
) -> Result<Vec<(i64, i64)>, StoreError> {
    let rows = sqlx::query(
        "SELECT round, started_ms FROM tournament_round WHERE event_id = $1 ORDER BY round",
    )
    .bind(event_id)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("round")?, r.try_get("started_ms")?)))
        .collect::<Result<_, sqlx::Error>>()
        .map_err(StoreError::from)
}

/// Records entrant `name`'s check-in for `round` at `at_ms`; false when it had checked in.
///
/// # Errors
/// On a database failure.
pub async fn check_in(
    conn: &mut AnyConnection,
    event_id: i64,
    round: i64,
    name: &str,
    at_ms: i64,
) -> Result<bool, StoreError> {
    let exists: Option<i64> = sqlx::query_scalar(
        "SELECT at_ms FROM tournament_checkin WHERE event_id = $1 AND round = $2 AND entrant = $3",
    )
    .bind(event_id)
    .bind(round)
    .bind(name)
    .fetch_optional(&mut *conn)
    .await?;
    if exists.is_some() {
        return Ok(false);
    }
    sqlx::query(
        "INSERT INTO tournament_checkin (event_id, round, entrant, at_ms) VALUES ($1, $2, $3, $4)",
    )
    .bind(event_id)
    .bind(round)
    .bind(name)
    .bind(at_ms)
    .execute(&mut *conn)
    .await?;
    Ok(true)
}

/// Who has checked in for `round`, with when.
///
/// # Errors
/// On a database failure.
pub async fn checkins(
    conn: &mut AnyConnection,
    event_id: i64,
    round: i64,
) -> Result<Vec<(String, i64)>, StoreError> {
    let rows = sqlx::query(
        "SELECT entrant, at_ms FROM tournament_checkin WHERE event_id = $1 AND round = $2 \
         ORDER BY at_ms, entrant",
    )
    .bind(event_id)
    .bind(round)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("entrant")?, r.try_get("at_ms")?)))
        .collect::<Result<_, sqlx::Error>>()
        .map_err(StoreError::from)
}

/// The server game that plays a pairing, with each side's lateness at its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventGameRow {
    /// The server game.
    pub game_id: i64,
    /// The event.
    pub event_id: i64,
    /// Round.
    pub round: i64,
    /// Board.
    pub board: i64,
    /// How late Black arrived, ms (twice of it came off Black's basic time).
    pub late_black_ms: i64,
    /// How late White arrived, ms.
    pub late_white_ms: i64,
}

/// Links a server game (stored in this transaction or before) to its pairing; false when
/// the pairing has a game already.
///
/// # Errors
/// On a database failure.
pub async fn link_game(conn: &mut AnyConnection, g: &EventGameRow) -> Result<bool, StoreError> {
    let r = sqlx::query(
        "UPDATE tournament_game SET server_game = $1 \
         WHERE event_id = $2 AND round = $3 AND board = $4 AND server_game IS NULL \
         AND result IS NULL",
    )
    .bind(g.game_id)
    .bind(g.event_id)
    .bind(g.round)
    .bind(g.board)
    .execute(&mut *conn)
    .await?;
    if r.rows_affected() != 1 {
        return Ok(false);
    }
    sqlx::query(
        "INSERT INTO server_event_games (game_id, event_id, round, board, late_black_ms, \
         late_white_ms) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(g.game_id)
    .bind(g.event_id)
    .bind(g.round)
    .bind(g.board)
    .bind(g.late_black_ms)
    .bind(g.late_white_ms)
    .execute(&mut *conn)
    .await?;
    Ok(true)
}

fn event_game_of(r: &sqlx::any::AnyRow) -> Result<EventGameRow, sqlx::Error> {
    Ok(EventGameRow {
        game_id: r.try_get("game_id")?,
        event_id: r.try_get("event_id")?,
        round: r.try_get("round")?,
        board: r.try_get("board")?,
        late_black_ms: r.try_get("late_black_ms")?,
        late_white_ms: r.try_get("late_white_ms")?,
    })
}

/// The pairing server game `game_id` plays, if it is an event's.
///
/// # Errors
/// On a database failure.
pub async fn event_game(store: &Store, game_id: i64) -> Result<Option<EventGameRow>, StoreError> {
    let row = sqlx::query(
        "SELECT game_id, event_id, round, board, late_black_ms, late_white_ms \
         FROM server_event_games WHERE game_id = $1",
    )
    .bind(game_id)
    .fetch_optional(store.pool())
    .await?;
    Ok(row.as_ref().map(event_game_of).transpose()?)
}

/// The server games of an event, in round and board order.
///
/// # Errors
/// On a database failure.
pub async fn event_games(
    conn: &mut AnyConnection,
    event_id: i64,
) -> Result<Vec<EventGameRow>, StoreError> {
    let rows = sqlx::query(
        "SELECT game_id, event_id, round, board, late_black_ms, late_white_ms \
         FROM server_event_games WHERE event_id = $1 ORDER BY round, board",
    )
    .bind(event_id)
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows.iter().map(event_game_of).collect::<Result<_, _>>()?)
}

/// The event's result of a server game that ended with `result` (`B+3`, `W+R`, `B+T`) by
/// `end_reason` (the play server's stored names): a count as it is, a resignation `R`, a loss
/// on time `T` (逾時, the clock's, or an engine that did not answer in time), an absence
/// `F:absence` (缺席), an engine's illegal move `F:illegal`, an engine that crashed or
/// answered nonsense `F:abandonment` (棄權: it could not go on), another forfeit `F`. `None`
/// for a result that is not a win.
pub fn outcome_of(result: &str, end_reason: Option<&str>) -> Option<Outcome> {
    let winner = match result.chars().next() {
        Some('B') => "B",
        Some('W') => "W",
        _ => return None,
    };
    let text = match end_reason {
        Some("resignation") => format!("{winner}+R"),
        Some("time" | "engine-timeout") => format!("{winner}+T"),
        Some("absence") => format!("{winner}+F:absence"),
        Some("engine-illegal-move") => format!("{winner}+F:illegal"),
        Some("engine-crash" | "engine-garbage" | "engine-unavailable") => {
            format!("{winner}+F:abandonment")
        }
        Some("forfeit") => match result.split_once("+F:") {
            Some((_, reason)) => format!("{winner}+F:{reason}"),
            None => format!("{winner}+F"),
        },
        _ => result.to_owned(),
    };
    text.parse().ok()
}

/// What [`game_ended`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entered {
    /// The game is no event's.
    NotAnEventGame,
    /// The result was entered into event `event_id` (with what 罰停 then changed, logged).
    Entered {
        /// The event.
        event_id: i64,
    },
    /// The pairing has a result already (the director decided it while it was played), or
    /// the result does not fit it: nothing was entered, and the log says why.
    Kept {
        /// The event.
        event_id: i64,
    },
    /// The stored event no longer reads (its agreement or a row was written by hand or by
    /// another version): the game ends all the same, and the event keeps no result of it.
    Unreadable {
        /// The event.
        event_id: i64,
        /// Why.
        reason: String,
    },
}

/// Enters the result of server game `game_id`, which has just ended with `result` by
/// `end_reason`, into its event, if it is an event's: in the caller's transaction, the one
/// that ends the game, so that a crash never leaves a game ended and its event not knowing.
/// The event is read whole and the result entered as a director would ([`ingo_tournament::Event::enter`]),
/// so that an absence counts toward 罰停 at once.
///
/// # Errors
/// On a database failure.
pub async fn game_ended(
    conn: &mut AnyConnection,
    backend: Backend,
    game_id: i64,
    result: &str,
    end_reason: Option<&str>,
) -> Result<Entered, StoreError> {
    let row =
        sqlx::query("SELECT event_id, round, board FROM server_event_games WHERE game_id = $1")
            .bind(game_id)
            .fetch_optional(&mut *conn)
            .await?;
    let Some(row) = row else {
        return Ok(Entered::NotAnEventGame);
    };
    let event_id: i64 = row.try_get("event_id")?;
    let round: i64 = row.try_get("round")?;
    let board: i64 = row.try_get("board")?;
    lock_event(conn, backend, event_id).await?;
    let mut ev = match load_event_by_id(conn, event_id).await {
        Ok(ev) => ev,
        Err(LoadError::Store(e)) => return Err(e),
        Err(e) => {
            return Ok(Entered::Unreadable {
                event_id,
                reason: e.to_string(),
            })
        }
    };
    let (r, b) = (round as u32, board as u32);
    let reason = format!(
        "played on the server (game {game_id}), {}",
        end_reason.unwrap_or("ended")
    );
    let Some(outcome) = outcome_of(result, end_reason) else {
        let entry = LogEntry::game(Action::Result, r, b).reason(Some(&format!(
            "{reason}: {result:?} is not a result the event can take"
        )));
        append_log(conn, event_id, &[log_row(&entry)]).await?;
        return Ok(Entered::Kept { event_id });
    };
    match ev.enter(r, b, outcome) {
        Ok(changed) => {
            for c in std::iter::once((r, b)).chain(changed.iter().map(|c| (c.round, c.board))) {
                if let Ok(g) = ev.game(c.0, c.1) {
                    write_result(conn, event_id, &game_row(g)).await?;
                }
            }
            let mut entries = vec![LogEntry::game(Action::Result, r, b)
                .new_value(outcome.to_string())
                .reason(Some(&reason))];
            entries.extend(changed.iter().map(|c| c.log()));
            let rows: Vec<_> = entries.iter().map(log_row).collect();
            append_log(conn, event_id, &rows).await?;
            Ok(Entered::Entered { event_id })
        }
        Err(e) => {
            let entry = LogEntry::game(Action::Result, r, b)
                .reason(Some(&format!("{reason}: {outcome} not entered: {e}")));
            append_log(conn, event_id, &[log_row(&entry)]).await?;
            Ok(Entered::Kept { event_id })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_result_is_the_events_result_of_the_same_kind() {
        let o = |r: &str, why: &str| outcome_of(r, Some(why)).map(|o| o.to_string());
        assert_eq!(o("B+3", "agreement").as_deref(), Some("B+3"));
        assert_eq!(o("W+R", "resignation").as_deref(), Some("W+R"));
        assert_eq!(o("B+T", "time").as_deref(), Some("B+T"));
        assert_eq!(o("W+T", "engine-timeout").as_deref(), Some("W+T"));
        assert_eq!(o("W+F", "absence").as_deref(), Some("W+F:absence"));
        assert_eq!(
            o("B+F", "engine-illegal-move").as_deref(),
            Some("B+F:illegal")
        );
        assert_eq!(o("B+F", "engine-crash").as_deref(), Some("B+F:abandonment"));
        assert_eq!(
            o("W+F:takeback", "forfeit").as_deref(),
            Some("W+F:takeback")
        );
        assert_eq!(outcome_of("0", Some("passes")), None);
    }
}
