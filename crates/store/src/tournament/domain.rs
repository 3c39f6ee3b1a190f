//! The rows of this module's tables as `ingo-tournament`'s types, and back: an [`Event`] read
//! whole from the database, entrants and games written from the domain's values.
//!
//! The mapping lives here, beside the queries, so that every program that keeps events (the
//! `ingo tournament` command, the play server's online events) reads a stored event the same
//! way. Rows come from a database that other versions or people may have written, so every
//! field is checked and a bad one is an error naming the row, never a panic.

use ingo_competition::Rank;
use ingo_rules::Komi;
use ingo_tournament::{
    Action, Agreement, AgreementError, Entrant, EntrantKind, Event, Game, LogEntry, Member,
};
use sqlx::AnyConnection;

use super::{entrants, event_by_name, events, games, EntrantRow, EventRow, GameRow, LogRow};
use crate::StoreError;

/// A stored row that does not make an entrant or a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RowError {
    /// An entrant's kind is none of `player`, `pair`, `consultation`, `team`.
    #[error("entrant {name:?}: unknown kind {kind:?} in the database")]
    Kind {
        /// The entrant.
        name: String,
        /// The stored kind.
        kind: String,
    },
    /// An entrant's or member's rank does not parse.
    #[error("{what} {name:?}: {reason}")]
    Rank {
        /// `entrant` or `member`.
        what: &'static str,
        /// Its name.
        name: String,
        /// Why the rank was refused.
        reason: String,
    },
    /// An entrant's EGD PIN is out of range.
    #[error("entrant {name:?}: EGD PIN {pin} out of range")]
    Pin {
        /// The entrant.
        name: String,
        /// The stored PIN.
        pin: i64,
    },
    /// A game's result does not parse.
    #[error("round {round} board {board}: {reason}")]
    Result {
        /// Round.
        round: i64,
        /// Board.
        board: i64,
        /// Why the result was refused.
        reason: String,
    },
    /// A game's round or board is not a positive number that fits.
    #[error("a game with round {round} and board {board}: not a round and board")]
    Place {
        /// The stored round.
        round: i64,
        /// The stored board.
        board: i64,
    },
}

/// Why an event could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// No event has the name asked for.
    #[error("no event named {0:?}")]
    NoSuchEvent(String),
    /// No name was given and the database holds no event.
    #[error("holds no event")]
    NoEvent,
    /// No name was given and the database holds several events.
    #[error("holds {} events; choose one with --event: {}", .0.len(), quoted(.0))]
    Ambiguous(Vec<String>),
    /// The stored agreement no longer reads (written by another version, or by hand).
    #[error("the stored agreement: {0}")]
    Agreement(#[source] AgreementError),
    /// A stored entrant or game is not one.
    #[error(transparent)]
    Row(#[from] RowError),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The row of entrant `e`, seeded `seq` (from 1).
pub fn entrant_row(seq: i64, e: &Entrant) -> EntrantRow {
    EntrantRow {
        seq,
        name: e.name.clone(),
        kind: e.kind.name().to_owned(),
        rank: e.rank.map(|r| r.to_string()),
        members: e
            .members
            .iter()
            .map(|m| {
                format!(
                    "{}\t{}",
                    m.name,
                    m.rank.map(|r| r.to_string()).unwrap_or_default()
                )
            })
            .collect::<Vec<_>>()
            .join("\n"),
        engine: e.engine.clone(),
        club: e.club.clone(),
        surname: e.surname.clone(),
        given_name: e.given_name.clone(),
        country: e.country.clone(),
        egd_pin: e.egd_pin.map(i64::from),
        withdrawn: e.withdrawn,
    }
}

fn rank_of(what: &'static str, name: &str, text: &str) -> Result<Rank, RowError> {
    text.parse()
        .map_err(|e: <Rank as std::str::FromStr>::Err| RowError::Rank {
            what,
            name: name.to_owned(),
            reason: e.to_string(),
        })
}

/// The entrant a row holds.
///
/// # Errors
///
/// [`RowError::Kind`] or [`RowError::Rank`] for a field that does not parse.
pub fn entrant_of(r: &EntrantRow) -> Result<Entrant, RowError> {
    let kind = EntrantKind::from_name(&r.kind).ok_or_else(|| RowError::Kind {
        name: r.name.clone(),
        kind: r.kind.clone(),
    })?;
    let mut members = Vec::new();
    for line in r.members.lines().filter(|l| !l.is_empty()) {
        let (name, rank) = line.split_once('\t').unwrap_or((line, ""));
        members.push(Member {
            name: name.to_owned(),
            rank: if rank.is_empty() {
                None
            } else {
                Some(rank_of("member", name, rank)?)
            },
        });
    }
    Ok(Entrant {
        name: r.name.clone(),
        rank: r
            .rank
            .as_deref()
            .map(|t| rank_of("entrant", &r.name, t))
            .transpose()?,
        kind,
        members,
        engine: r.engine.clone(),
        club: r.club.clone(),
        surname: r.surname.clone(),
        given_name: r.given_name.clone(),
        country: r.country.clone(),
        egd_pin: r
            .egd_pin
            .map(|p| {
                u32::try_from(p).map_err(|_| RowError::Pin {
                    name: r.name.clone(),
                    pin: p,
                })
            })
            .transpose()?,
        withdrawn: r.withdrawn,
    })
}

/// The row of game `g`, without a record.
pub fn game_row(g: &Game) -> GameRow {
    GameRow {
        round: i64::from(g.round),
        board: i64::from(g.board),
        black: g.black.clone(),
        white: g.white.clone(),
        passes: i64::from(g.passes),
        komi_halves: i64::from(g.komi.halves()),
        result: g.result.map(|o| o.to_string()),
        sgf: None,
        automatic: g.automatic,
    }
}

/// The game a row holds (its record, if any, stays in the row).
///
/// # Errors
///
/// [`RowError::Place`] for a round or board out of range, [`RowError::Result`] for a result
/// that does not parse.
pub fn game_of(r: &GameRow) -> Result<Game, RowError> {
    let place = || RowError::Place {
        round: r.round,
        board: r.board,
    };
    let round = u32::try_from(r.round).map_err(|_| place())?;
    let board = u32::try_from(r.board).map_err(|_| place())?;
    let mut g = Game::new(
        round,
        board,
        &r.black,
        r.white.as_deref(),
        r.passes.clamp(0, 255) as u8,
        Komi(
            r.komi_halves
                .clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
        ),
    );
    g.result = r.result.as_deref().map(str::parse).transpose().map_err(
        |e: ingo_tournament::ParseOutcomeError| RowError::Result {
            round: r.round,
            board: r.board,
            reason: e.to_string(),
        },
    )?;
    g.automatic = r.automatic && g.result.is_some();
    Ok(g)
}

/// The row of log entry `l` (its `seq` and time are set when it is appended).
pub fn log_row(l: &LogEntry) -> LogRow {
    LogRow {
        seq: 0,
        at_ms: 0,
        action: l.action.map_or("", Action::name).to_owned(),
        round: l.round.map(i64::from),
        board: l.board.map(i64::from),
        entrant: l.entrant.clone(),
        old_value: l.old.clone(),
        new_value: l.new.clone(),
        reason: l.reason.clone(),
    }
}

/// The log entry a row holds; an action this version does not know reads as none (the row's
/// text is still shown by whoever prints the row).
pub fn log_of(r: &LogRow) -> LogEntry {
    let num = |v: Option<i64>| v.and_then(|v| u32::try_from(v).ok());
    LogEntry {
        action: Action::from_name(&r.action),
        round: num(r.round),
        board: num(r.board),
        entrant: r.entrant.clone(),
        old: r.old_value.clone(),
        new: r.new_value.clone(),
        reason: r.reason.clone(),
    }
}

/// Reads an event whole: the one named `name`, or, with no name, the only event the database
/// holds. Returns its id and the event.
///
/// # Errors
///
/// [`LoadError::NoSuchEvent`], [`LoadError::NoEvent`], [`LoadError::Ambiguous`] when the
/// event cannot be chosen; [`LoadError::Agreement`] and [`LoadError::Row`] for stored values
/// that no longer read; [`LoadError::Store`] when a query fails.
pub async fn load_event(
    conn: &mut AnyConnection,
    name: Option<&str>,
) -> Result<(i64, Event), LoadError> {
    let row = match name {
        Some(name) => event_by_name(conn, name)
            .await?
            .ok_or_else(|| LoadError::NoSuchEvent(name.to_owned()))?,
        None => {
            let mut all = events(conn).await?;
            match all.len() {
                0 => return Err(LoadError::NoEvent),
                1 => all.remove(0),
                _ => {
                    return Err(LoadError::Ambiguous(
                        all.into_iter().map(|e| e.name).collect(),
                    ))
                }
            }
        }
    };
    Ok((row.id, event_of(conn, &row).await?))
}

/// Reads the event whose row is `row`, whole.
async fn event_of(conn: &mut AnyConnection, row: &EventRow) -> Result<Event, LoadError> {
    let agreement = Agreement::from_toml(&row.agreement).map_err(LoadError::Agreement)?;
    let mut ev = Event::new(agreement);
    ev.entrants = entrants(conn, row.id)
        .await?
        .iter()
        .map(entrant_of)
        .collect::<Result<_, _>>()?;
    ev.games = games(conn, row.id)
        .await?
        .iter()
        .map(game_of)
        .collect::<Result<_, _>>()?;
    Ok(ev)
}

/// Reads event `id` whole.
///
/// # Errors
///
/// [`LoadError::NoSuchEvent`] (naming the id) when there is none, and as [`load_event`].
pub async fn load_event_by_id(conn: &mut AnyConnection, id: i64) -> Result<Event, LoadError> {
    let row = super::event_by_id(conn, id)
        .await?
        .ok_or_else(|| LoadError::NoSuchEvent(format!("#{id}")))?;
    event_of(conn, &row).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entrant_goes_through_its_row_unchanged() {
        let mut e = Entrant::player("Ann", Some("3d".parse().expect("rank")));
        e.kind = EntrantKind::Pair;
        e.members = vec![
            Member {
                name: "Ann".into(),
                rank: Some("3d".parse().expect("rank")),
            },
            Member {
                name: "Bo".into(),
                rank: None,
            },
        ];
        e.engine = Some("gnugo --mode gtp".into());
        e.club = Some("Berlin".into());
        e.surname = Some("Lee".into());
        e.given_name = Some("Ann Marie".into());
        e.country = Some("DE".into());
        e.egd_pin = Some(12_345_678);
        e.withdrawn = true;
        assert_eq!(entrant_of(&entrant_row(4, &e)), Ok(e));
    }

    #[test]
    fn bad_rows_are_errors_naming_the_row() {
        let mut r = entrant_row(1, &Entrant::player("Ann", None));
        r.kind = "dragon".into();
        assert!(matches!(entrant_of(&r), Err(RowError::Kind { .. })));
        r.kind = "player".into();
        r.rank = Some("12x".into());
        let e = entrant_of(&r).expect_err("bad rank");
        assert!(e.to_string().starts_with("entrant \"Ann\""), "{e}");
        let mut g = game_row(&Game::new(1, 2, "Ann", Some("Bo"), 0, Komi::points(8)));
        g.result = Some("B+lots".into());
        let e = game_of(&g).expect_err("bad result");
        assert!(e.to_string().starts_with("round 1 board 2"), "{e}");
        g.result = None;
        g.round = -1;
        assert!(matches!(game_of(&g), Err(RowError::Place { .. })));
    }
}
