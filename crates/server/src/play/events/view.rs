//! What an event's pages read: the event, its entrants, rounds and pairings, standings, log.

use std::collections::{HashMap, HashSet};

use ingo_store::server::{self as db};
use ingo_store::tournament::{self as tdb, online};
use ingo_tournament::{Event, Standing};
use serde::Serialize;

use super::*;
use crate::domain::error::GameError;
use crate::play::hub::Play;

/// An entrant as the event's page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct EntrantView {
    /// Seed, from 1.
    pub seed: usize,
    /// Name.
    pub name: String,
    /// Rank.
    pub rank: Option<String>,
    /// Withdrawn.
    pub withdrawn: bool,
    /// Suspended (罰停).
    pub suspended: bool,
    /// Whether an account plays as it (and which).
    pub account: Option<String>,
}

/// A pairing of a round.
#[derive(Clone, Debug, Serialize)]
pub struct PairingView {
    /// Board.
    pub board: u32,
    /// Black (the player with the bye, for a bye).
    pub black: String,
    /// White; none for a bye.
    pub white: Option<String>,
    /// White's handicap passes.
    pub handicap_passes: u8,
    /// Komi.
    pub komi: f64,
    /// The result, once known.
    pub result: Option<String>,
    /// The server game that plays it, once started.
    pub game_id: Option<i64>,
    /// Who of the two has checked in for the round.
    pub checked_in: Vec<String>,
}

/// A round.
#[derive(Clone, Debug, Serialize)]
pub struct RoundView {
    /// Its number.
    pub round: u32,
    /// When it started, if it has.
    pub started_ms: Option<i64>,
    /// When a player who has not arrived is absent (缺席), if the round started and the time
    /// control has a limit.
    pub absent_at_ms: Option<i64>,
    /// Its pairings and byes.
    pub pairings: Vec<PairingView>,
}

/// A registration waiting for the director.
#[derive(Clone, Debug, Serialize)]
pub struct PendingView {
    /// The account's name.
    pub name: String,
    /// The rank it declared.
    pub rank: Option<String>,
    /// When.
    pub at_ms: i64,
}

/// What the agreement says, in its own terms.
#[derive(Clone, Debug, Serialize)]
pub struct AgreementView {
    /// 賽制.
    pub format: &'static str,
    /// Rounds (Swiss, McMahon), if the format has a number.
    pub rounds: Option<u32>,
    /// 採用規則: the rules preset.
    pub rules: &'static str,
    /// Board size.
    pub size: usize,
    /// Komi of an even game.
    pub komi: f64,
    /// 對局時限.
    pub time_control: String,
    /// 處罰規則: absences allowed before 罰停.
    pub allowed_absences: u32,
    /// 計分: the keys after the main score, in order (`A1`, `A2`, `B1`, `B2`, `SOS`…).
    pub tie_breakers: Vec<&'static str>,
    /// The agreement as the director wrote it (TOML).
    pub text: String,
}

/// An event.
#[derive(Clone, Debug, Serialize)]
pub struct EventView {
    /// Id.
    pub id: i64,
    /// Name (比賽名稱).
    pub name: String,
    /// `registration` (open to players), `running`, `finished` (no round left) or `closed`.
    pub status: &'static str,
    /// Whether registration is open.
    pub registration_open: bool,
    /// The agreement.
    pub agreement: AgreementView,
    /// Entrants in seed order.
    pub entrants: Vec<EntrantView>,
    /// Registrations waiting for the director (shown to the director only; empty for others).
    pub pending: Vec<PendingView>,
    /// Whether the logged-in viewer has registered (waiting for approval) or is entered.
    pub registered: bool,
    /// Rounds paired, in order.
    pub rounds: Vec<RoundView>,
}

/// One line of the event list.
#[derive(Clone, Debug, Serialize)]
pub struct EventSummary {
    /// Id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// As [`EventView::status`].
    pub status: &'static str,
    /// Whether registration is open.
    pub registration_open: bool,
    /// 賽制.
    pub format: &'static str,
}

/// An entry of the event's log.
#[derive(Clone, Debug, Serialize)]
pub struct LogView {
    /// Order, from 1.
    pub seq: i64,
    /// When.
    pub at_ms: i64,
    /// What.
    pub action: String,
    /// Round.
    pub round: Option<i64>,
    /// Board.
    pub board: Option<i64>,
    /// Entrant.
    pub entrant: Option<String>,
    /// Before.
    pub old: Option<String>,
    /// After.
    pub new: Option<String>,
    /// Why.
    pub reason: Option<String>,
}

fn status_word(s: &online::EventStatus, ev: &Event) -> &'static str {
    if s.closed_ms.is_some() {
        "closed"
    } else if s.registration {
        "registration"
    } else if !ev.games.is_empty() && ev.is_finished() {
        "finished"
    } else {
        "running"
    }
}

/// Every event, newest first.
///
/// # Errors
/// On a storage failure.
pub async fn list(play: &Play) -> Result<Vec<EventSummary>, GameError> {
    let mut conn = play.store().pool().acquire().await.map_err(store_err)?;
    let all = online::statuses(&mut conn).await?;
    let mut out = Vec::with_capacity(all.len());
    for s in all {
        let Ok(ev) = tdb::load_event_by_id(&mut conn, s.event.id).await else {
            continue;
        };
        out.push(EventSummary {
            id: s.event.id,
            name: s.event.name.clone(),
            status: status_word(&s, &ev),
            registration_open: s.registration,
            format: ev.agreement.format.kind.name(),
        });
    }
    Ok(out)
}

/// Event `id` as its page shows it (`director`: with the registrations waiting).
///
/// # Errors
/// 404 for an unknown event; on a storage failure.
pub async fn view(
    play: &Play,
    id: i64,
    director: bool,
    viewer: Option<i64>,
) -> Result<EventView, GameError> {
    let mut conn = play.store().pool().acquire().await.map_err(store_err)?;
    let s = online::status(&mut conn, id)
        .await?
        .ok_or_else(|| GameError::not_found("event"))?;
    let ev = tdb::load_event_by_id(&mut conn, id)
        .await
        .map_err(load_error)?;
    let accounts: HashMap<String, Option<i64>> =
        online::accounts(&mut conn, id).await?.into_iter().collect();
    let mut names: HashMap<i64, String> = HashMap::new();
    for account in accounts.values().flatten() {
        if let Some(u) = db::user_by_id(play.store(), *account).await? {
            names.insert(*account, u.name);
        }
    }
    let suspended: HashSet<String> = ev.suspended().into_iter().collect();
    let entrants = ev
        .entrants
        .iter()
        .enumerate()
        .map(|(i, e)| EntrantView {
            seed: i + 1,
            name: e.name.clone(),
            rank: e.rank.map(|r| r.to_string()),
            withdrawn: e.withdrawn,
            suspended: suspended.contains(&e.name),
            account: accounts
                .get(&e.name)
                .copied()
                .flatten()
                .and_then(|a| names.get(&a).cloned()),
        })
        .collect();
    let waiting = online::registrations(&mut conn, id).await?;
    let registered = viewer.is_some_and(|v| {
        waiting.iter().any(|r| r.account == v) || accounts.values().any(|a| *a == Some(v))
    });
    let pending = if director {
        waiting
            .into_iter()
            .map(|r| PendingView {
                name: r.name,
                rank: r.rank,
                at_ms: r.at_ms,
            })
            .collect()
    } else {
        Vec::new()
    };
    let starts: HashMap<i64, i64> = online::rounds(&mut conn, id).await?.into_iter().collect();
    let links: HashMap<(i64, i64), i64> = online::event_games(&mut conn, id)
        .await?
        .into_iter()
        .map(|g| ((g.round, g.board), g.game_id))
        .collect();
    let mut rounds: Vec<RoundView> = Vec::new();
    // Who has checked in, read once a round (the games come in round order).
    let mut checked: HashSet<String> = HashSet::new();
    for g in &ev.games {
        if rounds.last().is_none_or(|r| r.round != g.round) {
            let started = starts.get(&i64::from(g.round)).copied();
            rounds.push(RoundView {
                round: g.round,
                started_ms: started,
                absent_at_ms: started.and_then(|t| absent_at(&ev.agreement.time, t)),
                pairings: Vec::new(),
            });
            checked = online::checkins(&mut conn, id, i64::from(g.round))
                .await?
                .into_iter()
                .map(|(n, _)| n)
                .collect();
        }
        let Some(round) = rounds.last_mut() else {
            continue;
        };
        round.pairings.push(PairingView {
            board: g.board,
            black: g.black.clone(),
            white: g.white.clone(),
            handicap_passes: g.passes,
            komi: g.komi.as_f64(),
            result: g.result.map(|o| o.to_string()),
            game_id: links
                .get(&(i64::from(g.round), i64::from(g.board)))
                .copied(),
            checked_in: std::iter::once(&g.black)
                .chain(g.white.as_ref())
                .filter(|n| checked.contains(*n))
                .cloned()
                .collect(),
        });
    }
    let a = &ev.agreement;
    Ok(EventView {
        id,
        name: s.event.name.clone(),
        status: status_word(&s, &ev),
        registration_open: s.registration,
        agreement: AgreementView {
            format: a.format.kind.name(),
            rounds: Some(a.format.rounds).filter(|r| *r > 0),
            rules: a.rules.name(),
            size: a.size,
            komi: a.komi.as_f64(),
            time_control: a.time.to_string(),
            allowed_absences: a.allowed_absences,
            tie_breakers: a.scoring.tie_breakers.iter().map(|t| t.name()).collect(),
            text: s.event.agreement.clone(),
        },
        entrants,
        pending,
        registered,
        rounds,
    })
}

/// The standings, as `ingo tournament standings --json` gives them.
///
/// # Errors
/// 404 for an unknown event; on a storage failure.
pub async fn standings(play: &Play, id: i64) -> Result<Vec<Standing>, GameError> {
    let mut conn = play.store().pool().acquire().await.map_err(store_err)?;
    let ev = tdb::load_event_by_id(&mut conn, id)
        .await
        .map_err(load_error)?;
    Ok(ev.standings())
}

/// The event's log of decisions.
///
/// # Errors
/// 404 for an unknown event; on a storage failure.
pub async fn log(play: &Play, id: i64) -> Result<Vec<LogView>, GameError> {
    let mut conn = play.store().pool().acquire().await.map_err(store_err)?;
    if online::status(&mut conn, id).await?.is_none() {
        return Err(GameError::not_found("event"));
    }
    Ok(tdb::log(&mut conn, id)
        .await?
        .into_iter()
        .map(|r| LogView {
            seq: r.seq,
            at_ms: r.at_ms,
            action: r.action,
            round: r.round,
            board: r.board,
            entrant: r.entrant,
            old: r.old_value,
            new: r.new_value,
            reason: r.reason,
        })
        .collect())
}

/// The event's data for an export: the event itself.
///
/// # Errors
/// 404 for an unknown event; on a storage failure.
pub async fn event(play: &Play, id: i64) -> Result<Event, GameError> {
    let mut conn = play.store().pool().acquire().await.map_err(store_err)?;
    tdb::load_event_by_id(&mut conn, id)
        .await
        .map_err(load_error)
}

/// The server games of event `id`: (round, board, game id).
///
/// # Errors
/// On a storage failure.
pub async fn games_of(play: &Play, id: i64) -> Result<Vec<(u32, u32, i64)>, GameError> {
    let mut conn = play.store().pool().acquire().await.map_err(store_err)?;
    Ok(online::event_games(&mut conn, id)
        .await?
        .into_iter()
        .map(|g| (g.round as u32, g.board as u32, g.game_id))
        .collect())
}
