//! Ing events hosted by the server (第五條: an event may be played through telecommunication,
//! 「利用電訊設備…代替面對使用同一棋枰之正統對局」): a director opens an event from an agreement,
//! players register with their accounts, each round's games are played here under the
//! agreement's rules, handicap and clock, and every result reaches the event by itself.
//!
//! The event is `ingo-tournament`'s, kept in `ingo-store`'s tables that `ingo tournament`
//! uses: pairing, results, corrections and 罰停 are decided by [`ingo_tournament::Event`], the
//! same code as on the command line, and every decision is kept in the event's log. Each write
//! is one `ingo_store::tournament::online::EventTx`, which with PostgreSQL locks the event's row, so several servers
//! on one database decide on an event one at a time.
//!
//! Arrival (第八條: 「對局者未按規定開賽時間到達比賽場所，其遲到時間應於「基時」中加倍扣除之」):
//! a round starts at the director's word; a pairing's game starts as soon as both players have
//! checked in, each charged twice their lateness on their basic time (`ingo_clock`'s
//! `late_arrival`); a player who has not arrived when twice the lateness would use up the
//! basic time is absent (缺席) and loses by forfeit, which counts toward 罰停. Programs are
//! always present.
//!
//! [`mod@view`] is what the pages read, [`director`] the director's steps and the players'
//! registration, [`rounds`] the start of a round, arrival and absence.

use std::time::Duration;

use ingo_clock::TimeControl;
use ingo_store::tournament::{self as tdb, online, LoadError};
use ingo_tournament::LogEntry;

use crate::domain::error::GameError;
use crate::play::hub::Play;

pub mod director;
pub mod rounds;
pub mod view;

pub use director::*;
pub use rounds::*;
pub use view::*;

/// Tells event `event_id`'s subscribers, here and on the other servers, that it changed.
pub fn notify(play: &Play, event_id: i64) {
    play.notify_event(event_id);
}

fn forbidden_unless(director: bool) -> Result<(), GameError> {
    if director {
        Ok(())
    } else {
        Err(GameError::forbidden(
            "not-the-director",
            "Only the event's director (a server director) may do this.",
        ))
    }
}

fn load_error(e: LoadError) -> GameError {
    match e {
        LoadError::Store(e) => e.into(),
        LoadError::NoSuchEvent(_) => GameError::not_found("event"),
        e => GameError::internal(format!("stored event: {e}")),
    }
}

fn refused(e: impl std::fmt::Display) -> GameError {
    GameError::unprocessable("refused", e.to_string())
}

async fn begin(play: &Play, id: i64) -> Result<online::EventTx, GameError> {
    online::begin(play.store(), id)
        .await?
        .ok_or_else(|| GameError::not_found("event"))
}

async fn append(tx: &mut online::EventTx, id: i64, entries: &[LogEntry]) -> Result<(), GameError> {
    let rows: Vec<_> = entries.iter().map(tdb::log_row).collect();
    tdb::append_log(tx.conn(), id, &rows).await?;
    Ok(())
}

async fn status_of(tx: &mut online::EventTx, id: i64) -> Result<online::EventStatus, GameError> {
    online::status(tx.conn(), id)
        .await?
        .ok_or_else(|| GameError::not_found("event"))
}

fn check_open(s: &online::EventStatus) -> Result<(), GameError> {
    if s.closed_ms.is_some() {
        return Err(GameError::conflict("event-closed", "The event is closed."));
    }
    Ok(())
}

fn store_err(e: sqlx::Error) -> GameError {
    GameError::from(ingo_store::StoreError::from(e))
}

/// The absence limit of a round started at `started_ms` under `control`: when twice the
/// lateness uses up the basic (main) time, as `ingo_clock`'s `late_arrival` decides; `None`
/// for an untimed control.
pub fn absent_at(control: &TimeControl, started_ms: i64) -> Option<i64> {
    if !control.is_timed() {
        return None;
    }
    let main = control.main_time().unwrap_or(Duration::ZERO);
    Some(started_ms + (main.as_millis() as i64 + 1) / 2)
}

impl From<ingo_store::tournament::LoadError> for GameError {
    fn from(e: LoadError) -> GameError {
        load_error(e)
    }
}
