//! Ing events hosted by the server (第五條: an event may be played through telecommunication,
//! 「利用電訊設備…代替面對使用同一棋枰之正統對局」): a director opens an event from an agreement,
//! players register with their accounts, each round's games are played here under the
//! agreement's rules, handicap and clock, and every result reaches the event by itself.
//!
//! The event is `ingo-tournament`'s, kept in `ingo-store`'s tables that `ingo tournament`
//! uses: pairing, results, corrections and 罰停 are decided by [`ingo_tournament::Event`], the
//! same code as on the command line, and every decision is kept in the event's log. Each write
//! is one [`online::EventTx`], which with PostgreSQL locks the event's row, so several servers
//! on one database decide on an event one at a time.
//!
//! Arrival (第八條: 「對局者未按規定開賽時間到達比賽場所，其遲到時間應於「基時」中加倍扣除之」):
//! a round starts at the director's word; a pairing's game starts as soon as both players have
//! checked in, each charged twice their lateness on their basic time (`ingo_clock`'s
//! `late_arrival`); a player who has not arrived when twice the lateness would use up the
//! basic time is absent (缺席) and loses by forfeit, which counts toward 罰停. Programs are
//! always present.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use ingo_clock::TimeControl;
use ingo_rules::Color;
use ingo_store::server::{self as db, GameRow, GameState, MemberRow, UserRow};
use ingo_store::tournament::{self as tdb, online, LoadError};
use ingo_tournament::{
    Action, Agreement, Changed, Entrant, EntrantKind, Event, ForfeitReason, Game, LogEntry,
    Outcome, PairingError, PairingOptions, ResultError, Standing, WinBy,
};
use serde::{Deserialize, Serialize};

use crate::domain::error::{ErrorKind, GameError};
use crate::play::event::{Audience, Broadcast};
use crate::play::hub::Play;
use crate::play::live;
use crate::play::submit;

/// What the director may ask of an event's results: a referee's decision.
#[derive(Clone, Debug, Deserialize)]
pub struct Decision {
    /// Round.
    pub round: u32,
    /// Board.
    pub board: u32,
    /// The result (`B+R`, `W+F:takeback`, `B+F:defiance`, `void`, `B+3`); absent with
    /// `clear`.
    pub result: Option<String>,
    /// Why (required: 「判定」 are annotated).
    pub reason: String,
    /// Change a result the game has (a correction); without it a game with a result keeps it.
    #[serde(default)]
    pub change: bool,
    /// Clear the result.
    #[serde(default)]
    pub clear: bool,
}

/// The director's pairing of the next round.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct PairRequest {
    /// Pair by hand: `[black, white]` pairs.
    #[serde(default)]
    pub games: Vec<(String, String)>,
    /// With `games`: who has the bye.
    pub bye: Option<String>,
    /// Pair with the fewest rematches when none is possible without.
    #[serde(default)]
    pub allow_rematches: bool,
    /// Why (kept in the log).
    pub reason: Option<String>,
}

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

/// The channel of event `id`'s notifications among the games' channels of [`Play`]: game ids
/// are positive, so an event's is its id negated. Its subscribers (the event's pages) are
/// told, here and through the relay on the other servers, each time the event changes.
pub fn channel(event_id: i64) -> i64 {
    -event_id
}

/// `{"type": "event", "event_id": …}`: event `event_id` changed (a registration, a pairing, a
/// check-in, a game started or ended, a decision); its pages read it again.
#[derive(Clone, Debug, Serialize)]
pub struct EventChanged {
    /// Always `event`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The event.
    pub event_id: i64,
}

/// The notification that event `event_id` changed.
pub fn changed_event(event_id: i64) -> Broadcast {
    Broadcast::new(
        Audience::Everyone,
        &EventChanged {
            kind: "event",
            event_id,
        },
    )
}

/// Tells event `event_id`'s subscribers, here and on the other servers, that it changed.
pub fn notify(play: &Play, event_id: i64) {
    play.publish(channel(event_id), changed_event(event_id));
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

/// Creates an event from an agreement (the TOML `ingo tournament create` reads, validated the
/// same way); its id. Registration starts closed.
///
/// # Errors
/// 403 for anyone but a director; 422 naming the field for a bad agreement; 409 for a name
/// taken.
pub async fn create(play: &Play, director: bool, text: &str) -> Result<i64, GameError> {
    forbidden_unless(director)?;
    let agreement = Agreement::from_toml(text).map_err(refused)?;
    let mut tx = online::begin_new(play.store()).await?;
    if tdb::event_by_name(tx.conn(), &agreement.name)
        .await?
        .is_some()
    {
        return Err(GameError::conflict(
            "event-exists",
            format!("An event named {:?} exists already.", agreement.name),
        ));
    }
    let id = tdb::create_event(tx.conn(), &agreement.name, text).await?;
    for (i, e) in agreement.entrants.iter().enumerate() {
        tdb::add_entrant(tx.conn(), id, &tdb::entrant_row(i as i64 + 1, e)).await?;
    }
    append(
        &mut tx,
        id,
        &[LogEntry::new(Action::Add).reason(Some("event created online"))],
    )
    .await?;
    tx.commit().await?;
    notify(play, id);
    Ok(id)
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

/// Event `id` as its page shows it (`director`: with the registrations waiting).
///
/// # Errors
/// 404 for an unknown event; on a storage failure.
pub async fn view(play: &Play, id: i64, director: bool) -> Result<EventView, GameError> {
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
    let pending = if director {
        online::registrations(&mut conn, id)
            .await?
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
    for g in &ev.games {
        if rounds.last().is_none_or(|r| r.round != g.round) {
            let started = starts.get(&i64::from(g.round)).copied();
            rounds.push(RoundView {
                round: g.round,
                started_ms: started,
                absent_at_ms: started.and_then(|t| absent_at(&ev.agreement.time, t)),
                pairings: Vec::new(),
            });
        }
        let checked: HashSet<String> = online::checkins(&mut conn, id, i64::from(g.round))
            .await?
            .into_iter()
            .map(|(n, _)| n)
            .collect();
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
            text: s.event.agreement.clone(),
        },
        entrants,
        pending,
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

/// Opens or closes registration.
///
/// # Errors
/// 403 for anyone but a director; 404; 409 on a closed event.
pub async fn set_registration(
    play: &Play,
    director: bool,
    id: i64,
    open: bool,
) -> Result<(), GameError> {
    forbidden_unless(director)?;
    let mut tx = begin(play, id).await?;
    let s = status_of(&mut tx, id).await?;
    check_open(&s)?;
    online::set_registration(tx.conn(), id, open).await?;
    let entry = LogEntry::new(Action::Edit).reason(Some(if open {
        "registration opened"
    } else {
        "registration closed"
    }));
    append(&mut tx, id, &[entry]).await?;
    tx.commit().await?;
    notify(play, id);
    Ok(())
}

/// Closes the event: no more rounds, registrations or decisions.
///
/// # Errors
/// 403 for anyone but a director; 404; 409 when already closed.
pub async fn close(
    play: &Play,
    director: bool,
    id: i64,
    reason: Option<&str>,
) -> Result<(), GameError> {
    forbidden_unless(director)?;
    let mut tx = begin(play, id).await?;
    let s = status_of(&mut tx, id).await?;
    check_open(&s)?;
    online::close(tx.conn(), id, play.now_ms()).await?;
    let entry = LogEntry::new(Action::Edit).reason(Some(reason.unwrap_or("event closed")));
    append(&mut tx, id, &[entry]).await?;
    tx.commit().await?;
    notify(play, id);
    Ok(())
}

/// `user` registers for event `id` with their declared rank; the director approves.
///
/// # Errors
/// 404; 409 when registration is closed or the user has registered or is entered already.
pub async fn register(play: &Play, user: &UserRow, id: i64) -> Result<(), GameError> {
    let mut tx = begin(play, id).await?;
    let s = status_of(&mut tx, id).await?;
    check_open(&s)?;
    if !s.registration {
        return Err(GameError::conflict(
            "registration-closed",
            "Registration for this event is closed.",
        ));
    }
    if online::accounts(tx.conn(), id)
        .await?
        .iter()
        .any(|(n, a)| *a == Some(user.id) || *n == user.name)
    {
        return Err(GameError::conflict(
            "already-entered",
            "You are entered in this event already.",
        ));
    }
    let row = online::RegistrationRow {
        account: user.id,
        name: user.name.clone(),
        rank: Some(user.rank.clone()).filter(|r| !r.is_empty()),
        at_ms: play.now_ms(),
    };
    if !online::register(tx.conn(), id, &row).await? {
        return Err(GameError::conflict(
            "already-registered",
            "You have registered already; the director approves registrations.",
        ));
    }
    tx.commit().await?;
    notify(play, id);
    Ok(())
}

/// The director approves the registration of account `name` (with `rank` in place of the one
/// declared, if given): it becomes an entrant played by that account.
///
/// # Errors
/// 403 for anyone but a director; 404 for no such registration; 422 when the event does not
/// admit it (a bad rank, a drawn schedule, the agreement's eligibility).
pub async fn approve(
    play: &Play,
    director: bool,
    id: i64,
    name: &str,
    rank: Option<&str>,
) -> Result<(), GameError> {
    forbidden_unless(director)?;
    let mut tx = begin(play, id).await?;
    check_open(&status_of(&mut tx, id).await?)?;
    let reg = online::registrations(tx.conn(), id)
        .await?
        .into_iter()
        .find(|r| r.name == name)
        .ok_or_else(|| GameError::not_found("registration"))?;
    let mut ev = tdb::load_event_by_id(tx.conn(), id)
        .await
        .map_err(load_error)?;
    let rank_text = rank.map(str::to_owned).or(reg.rank.clone());
    let rank = match rank_text.as_deref() {
        None => None,
        Some(t) => Some(
            t.parse()
                .map_err(|e| GameError::unprocessable("bad-rank", format!("rank {t:?}: {e}")))?,
        ),
    };
    let entrant = Entrant::player(reg.name.clone(), rank);
    ev.add(entrant.clone()).map_err(refused)?;
    tdb::add_entrant(
        tx.conn(),
        id,
        &tdb::entrant_row(ev.entrants.len() as i64, &entrant),
    )
    .await?;
    online::set_account(tx.conn(), id, &reg.name, reg.account).await?;
    online::remove_registration(tx.conn(), id, reg.account).await?;
    let entry = LogEntry::entrant(Action::Add, &reg.name)
        .new_value(ingo_tournament::entrant_text(&entrant))
        .reason(Some("registered online, approved by the director"));
    append(&mut tx, id, &[entry]).await?;
    tx.commit().await?;
    notify(play, id);
    Ok(())
}

/// The director enters an account as an entrant directly (a program account, or a player
/// registered at the desk).
///
/// # Errors
/// As [`approve`]; 404 for no such account.
pub async fn enter_account(
    play: &Play,
    director: bool,
    id: i64,
    name: &str,
    rank: Option<&str>,
) -> Result<(), GameError> {
    forbidden_unless(director)?;
    let u = db::user_by_name(play.store(), name)
        .await?
        .ok_or_else(|| GameError::not_found("account"))?;
    {
        let mut tx = begin(play, id).await?;
        check_open(&status_of(&mut tx, id).await?)?;
        let row = online::RegistrationRow {
            account: u.id,
            name: u.name.clone(),
            rank: Some(u.rank.clone()).filter(|r| !r.is_empty()),
            at_ms: play.now_ms(),
        };
        online::register(tx.conn(), id, &row).await?;
        tx.commit().await?;
        notify(play, id);
    }
    approve(play, director, id, &u.name, rank).await
}

/// The director corrects an entrant's rank.
///
/// # Errors
/// 403 for anyone but a director; 404; 422 for a bad rank or a change the event refuses.
pub async fn set_rank(
    play: &Play,
    director: bool,
    id: i64,
    name: &str,
    rank: &str,
    reason: Option<&str>,
) -> Result<(), GameError> {
    forbidden_unless(director)?;
    let rank = rank
        .parse()
        .map_err(|e| GameError::unprocessable("bad-rank", format!("rank {rank:?}: {e}")))?;
    let mut tx = begin(play, id).await?;
    check_open(&status_of(&mut tx, id).await?)?;
    let mut ev = tdb::load_event_by_id(tx.conn(), id)
        .await
        .map_err(load_error)?;
    let seed = ev
        .entrants
        .iter()
        .position(|e| e.name == name)
        .ok_or_else(|| GameError::not_found("entrant"))?;
    let old = ev.entrants[seed].clone();
    let mut e = old.clone();
    e.rank = Some(rank);
    ev.edit(name, e.clone()).map_err(refused)?;
    tdb::update_entrant(tx.conn(), id, name, &tdb::entrant_row(seed as i64 + 1, &e)).await?;
    let entry = LogEntry::entrant(Action::Edit, name)
        .old(ingo_tournament::entrant_text(&old))
        .new_value(ingo_tournament::entrant_text(&e))
        .reason(reason);
    append(&mut tx, id, &[entry]).await?;
    tx.commit().await?;
    notify(play, id);
    Ok(())
}

/// The director withdraws (or, `back`, reinstates) an entrant.
///
/// # Errors
/// 403 for anyone but a director; 404; 422 when the event refuses.
pub async fn withdraw(
    play: &Play,
    director: bool,
    id: i64,
    name: &str,
    back: bool,
    reason: Option<&str>,
) -> Result<(), GameError> {
    forbidden_unless(director)?;
    let mut tx = begin(play, id).await?;
    check_open(&status_of(&mut tx, id).await?)?;
    let mut ev = tdb::load_event_by_id(tx.conn(), id)
        .await
        .map_err(load_error)?;
    let action = if back {
        ev.reinstate(name).map_err(refused)?;
        Action::Reinstate
    } else {
        ev.withdraw(name).map_err(refused)?;
        Action::Withdraw
    };
    tdb::set_withdrawn(tx.conn(), id, name, !back).await?;
    append(
        &mut tx,
        id,
        &[LogEntry::entrant(action, name).reason(reason)],
    )
    .await?;
    tx.commit().await?;
    notify(play, id);
    Ok(())
}

/// The director pairs the next round (as `ingo tournament pair`, by hand with `games`); the
/// games paired.
///
/// # Errors
/// 403 for anyone but a director; 409 when the round is not finished or no pairing exists
/// (with the way on), 422 for a manual pairing the event refuses.
pub async fn pair(
    play: &Play,
    director: bool,
    id: i64,
    req: &PairRequest,
) -> Result<Vec<Game>, GameError> {
    forbidden_unless(director)?;
    let mut tx = begin(play, id).await?;
    let s = status_of(&mut tx, id).await?;
    check_open(&s)?;
    let ev = tdb::load_event_by_id(tx.conn(), id)
        .await
        .map_err(load_error)?;
    let (paired, action) = if req.games.is_empty() && req.bye.is_none() {
        let options = PairingOptions {
            allow_rematches: req.allow_rematches,
            ..PairingOptions::default()
        };
        let games = ev.pair_next_with(&options).map_err(|e| match e {
            PairingError::NoPairing(_) => GameError::conflict(
                "no-pairing",
                format!(
                    "{e}: pair the round by hand, or with the fewest rematches (allow_rematches)"
                ),
            ),
            PairingError::RoundNotFinished(_) | PairingError::Finished => {
                GameError::conflict("cannot-pair", e.to_string())
            }
            e => refused(e),
        })?;
        (games, Action::Pair)
    } else {
        let mut pairs: Vec<(String, Option<String>)> = req
            .games
            .iter()
            .map(|(b, w)| (b.clone(), Some(w.clone())))
            .collect();
        pairs.extend(req.bye.clone().map(|b| (b, None)));
        (ev.pair_manual(&pairs).map_err(refused)?, Action::PairManual)
    };
    tdb::insert_games(
        tx.conn(),
        id,
        &paired.iter().map(tdb::game_row).collect::<Vec<_>>(),
    )
    .await?;
    let entries: Vec<LogEntry> = paired
        .iter()
        .map(|g| {
            LogEntry::game(action, g.round, g.board)
                .new_value(ingo_tournament::game_text(g))
                .reason(req.reason.as_deref())
        })
        .collect();
    append(&mut tx, id, &entries).await?;
    tx.commit().await?;
    notify(play, id);
    Ok(paired)
}

/// The accounts that play as entrant `name`: its account for a player; for a pair (聯棋) or a
/// consultation team (商談聯棋) its members' accounts, by their names, in seat order. `None`
/// when one is missing, or for a team of 擂台制, whose members play their own games.
async fn side_accounts(
    play: &Play,
    ev: &Event,
    accounts: &HashMap<String, Option<i64>>,
    name: &str,
) -> Result<Option<Vec<i64>>, GameError> {
    let Some(e) = ev.entrants.iter().find(|e| e.name == name) else {
        return Ok(None);
    };
    match e.kind {
        EntrantKind::Player => Ok(accounts.get(name).copied().flatten().map(|a| vec![a])),
        EntrantKind::Pair | EntrantKind::Consultation => {
            let mut ids = Vec::with_capacity(e.members.len());
            for m in &e.members {
                match db::user_by_name(play.store(), &m.name).await? {
                    Some(u) => ids.push(u.id),
                    None => return Ok(None),
                }
            }
            Ok(Some(ids).filter(|v| !v.is_empty()))
        }
        EntrantKind::Team => Ok(None),
    }
}

/// The entrant `user` plays as: the one whose account it is, or a pair's or consultation
/// team's whose member it is.
fn entrant_of_user(
    ev: &Event,
    accounts: &[(String, Option<i64>)],
    user: &UserRow,
) -> Option<String> {
    accounts
        .iter()
        .find(|(_, a)| *a == Some(user.id))
        .map(|(n, _)| n.clone())
        .or_else(|| {
            ev.entrants
                .iter()
                .find(|e| {
                    matches!(e.kind, EntrantKind::Pair | EntrantKind::Consultation)
                        && e.members.iter().any(|m| m.name == user.name)
                })
                .map(|e| e.name.clone())
        })
}

/// Whether `name` is an entrant played by a program (always present).
async fn is_program(play: &Play, account: Option<i64>) -> Result<bool, GameError> {
    Ok(match account {
        None => false,
        Some(a) => ingo_store::programs::program_of(play.store(), a)
            .await?
            .is_some(),
    })
}

/// The director starts round `n`: its time is now; programs are checked in; every pairing
/// whose two players have checked in gets its game at once, the others when their players
/// arrive (or, past the absence limit, a forfeit). The ids of the games started.
///
/// # Errors
/// 403 for anyone but a director; 404 for a round not paired; 409 for a round started, or
/// one whose players have no account.
pub async fn start_round(
    play: &Play,
    director: bool,
    id: i64,
    n: u32,
) -> Result<Vec<i64>, GameError> {
    forbidden_unless(director)?;
    let now = play.now_ms();
    let started = {
        let mut tx = begin(play, id).await?;
        check_open(&status_of(&mut tx, id).await?)?;
        let ev = tdb::load_event_by_id(tx.conn(), id)
            .await
            .map_err(load_error)?;
        let games: Vec<&Game> = ev.games.iter().filter(|g| g.round == n).collect();
        if games.is_empty() {
            return Err(GameError::not_found("round"));
        }
        let accounts: HashMap<String, Option<i64>> =
            online::accounts(tx.conn(), id).await?.into_iter().collect();
        for g in &games {
            for name in std::iter::once(&g.black).chain(g.white.as_ref()) {
                if g.result.is_none() && side_accounts(play, &ev, &accounts, name).await?.is_none()
                {
                    return Err(GameError::conflict(
                        "no-account",
                        format!("{name:?} has no account on this server to play with: enter the result by hand"),
                    ));
                }
            }
        }
        if !online::start_round(tx.conn(), id, i64::from(n), now).await? {
            return Err(GameError::conflict(
                "round-started",
                format!("Round {n} has started already."),
            ));
        }
        for g in &games {
            for name in std::iter::once(&g.black).chain(g.white.as_ref()) {
                if is_program(play, accounts.get(name).copied().flatten()).await? {
                    online::check_in(tx.conn(), id, i64::from(n), name, now).await?;
                }
            }
        }
        append(
            &mut tx,
            id,
            &[LogEntry::new(Action::Pair)
                .new_value(format!("round {n} started"))
                .reason(Some("started on the server"))],
        )
        .await?;
        tx.commit().await?;
        notify(play, id);
        games
            .iter()
            .filter(|g| !g.is_bye() && g.result.is_none())
            .map(|g| g.board)
            .collect::<Vec<_>>()
    };
    let mut ids = Vec::new();
    for board in started {
        if let Some(game) = start_game(play, id, n, board).await? {
            ids.push(game);
        }
    }
    spawn_absence_timer(play, id, n);
    Ok(ids)
}

/// The round players check in for now: the latest paired round.
fn current_round(ev: &Event) -> Option<u32> {
    ev.games.iter().map(|g| g.round).max()
}

/// `user` checks in (arrives) for the current round of event `id`. Before the round starts it
/// is on time; after, the lateness is charged twice on the basic time when the game starts.
/// The game's id once it has started.
///
/// # Errors
/// 404; 403 for someone who is not an entrant of the round; 409 when absent already.
pub async fn check_in(play: &Play, user: &UserRow, id: i64) -> Result<Option<i64>, GameError> {
    let now = play.now_ms();
    let (round, board) = {
        let mut tx = begin(play, id).await?;
        check_open(&status_of(&mut tx, id).await?)?;
        let ev = tdb::load_event_by_id(tx.conn(), id)
            .await
            .map_err(load_error)?;
        let accounts = online::accounts(tx.conn(), id).await?;
        let Some(name) = entrant_of_user(&ev, &accounts, user) else {
            return Err(GameError::forbidden(
                "not-an-entrant",
                "You are not an entrant of this event.",
            ));
        };
        let Some(round) = current_round(&ev) else {
            return Err(GameError::conflict("no-round", "No round is paired yet."));
        };
        let Some(g) = ev.games.iter().find(|g| g.round == round && g.has(&name)) else {
            return Err(GameError::forbidden(
                "not-paired",
                format!("You are not paired in round {round}."),
            ));
        };
        let board = g.board;
        let starts: HashMap<i64, i64> = online::rounds(tx.conn(), id).await?.into_iter().collect();
        if let Some(start) = starts.get(&i64::from(round)) {
            if let Some(limit) = absent_at(&ev.agreement.time, *start) {
                if now >= limit {
                    return Err(GameError::conflict(
                        "absent",
                        format!("Round {round} started; the limit for arriving has passed (缺席)."),
                    ));
                }
            }
        }
        online::check_in(tx.conn(), id, i64::from(round), &name, now).await?;
        tx.commit().await?;
        notify(play, id);
        let started = starts.contains_key(&i64::from(round));
        if !started || g.is_bye() || g.result.is_some() {
            return Ok(None);
        }
        (round, board)
    };
    start_game(play, id, round, board).await
}

/// Starts the game of pairing (`round`, `board`) if both players have arrived and it has none:
/// a server game with the agreement's rules, size, komi, handicap and clock, its players
/// charged for their lateness. Its id, if it has a game now.
async fn start_game(
    play: &Play,
    id: i64,
    round: u32,
    board: u32,
) -> Result<Option<i64>, GameError> {
    let mut tx = begin(play, id).await?;
    let ev = tdb::load_event_by_id(tx.conn(), id)
        .await
        .map_err(load_error)?;
    let g = ev
        .game(round, board)
        .map_err(|e| GameError::new(ErrorKind::NotFound, "not-found", e.to_string()))?
        .clone();
    if let Some(existing) = online::event_games(tx.conn(), id)
        .await?
        .iter()
        .find(|l| l.round == i64::from(round) && l.board == i64::from(board))
    {
        return Ok(Some(existing.game_id));
    }
    let Some(white) = g.white.clone() else {
        return Ok(None);
    };
    if g.result.is_some() {
        return Ok(None);
    }
    let starts: HashMap<i64, i64> = online::rounds(tx.conn(), id).await?.into_iter().collect();
    let Some(start) = starts.get(&i64::from(round)).copied() else {
        return Ok(None);
    };
    let arrived: HashMap<String, i64> = online::checkins(tx.conn(), id, i64::from(round))
        .await?
        .into_iter()
        .collect();
    let (Some(b_at), Some(w_at)) = (arrived.get(&g.black), arrived.get(&white)) else {
        return Ok(None);
    };
    let accounts: HashMap<String, Option<i64>> =
        online::accounts(tx.conn(), id).await?.into_iter().collect();
    let (Some(blacks), Some(whites)) = (
        side_accounts(play, &ev, &accounts, &g.black).await?,
        side_accounts(play, &ev, &accounts, &white).await?,
    ) else {
        return Ok(None);
    };
    let (black_id, white_id) = (blacks[0], whites[0]);
    // A pair's or consultation team's game seats each side's members in order.
    let team_kind = ev
        .entrants
        .iter()
        .find(|e| e.name == g.black)
        .and_then(|e| match e.kind {
            EntrantKind::Pair => Some("pair"),
            EntrantKind::Consultation => Some("consultation"),
            _ => None,
        });
    let a = &ev.agreement;
    let started_ms = (*b_at).max(*w_at).max(start);
    let row = GameRow {
        id: ingo_store::new_id(),
        black: black_id,
        white: white_id,
        size: a.size as i64,
        preset: a.rules.name().to_owned(),
        komi_halves: i64::from(g.komi.halves()),
        handicap_passes: i64::from(g.passes),
        time_control: a.time.to_string(),
        state: GameState::playing(),
        started_ms,
        version: 0,
    };
    db::insert_game_in(&mut tx.tx, &row).await?;
    if let Some(kind) = team_kind {
        let members: Vec<MemberRow> = [("B", &blacks), ("W", &whites)]
            .into_iter()
            .flat_map(|(color, ids)| {
                ids.iter().enumerate().map(move |(i, user_id)| MemberRow {
                    color: color.to_owned(),
                    seat: i as i64 + 1,
                    user_id: *user_id,
                })
            })
            .collect();
        db::insert_team_in(&mut tx.tx, row.id, kind, &members).await?;
    }
    let link = online::EventGameRow {
        game_id: row.id,
        event_id: id,
        round: i64::from(round),
        board: i64::from(board),
        late_black_ms: (b_at - start).max(0),
        late_white_ms: (w_at - start).max(0),
    };
    if !online::link_game(tx.conn(), &link).await? {
        return Err(GameError::conflict(
            "stale",
            "The pairing changed meanwhile; look at the event again.",
        ));
    }
    tx.commit().await?;
    notify(play, id);
    // The game is read back as every game is; a player so late that the charge uses up the
    // basic time is absent, and that ending is committed (and reaches the event) at once.
    let shared = live::game(play, row.id).await?;
    {
        let mut live = shared.lock().await;
        let now = play.now_ms();
        if live.mark_ended(now) {
            let event = crate::play::event::state_event(&live, now);
            play.commit(&mut live, &[], &[event]).await?;
        }
    }
    play.changed(row.id);
    Ok(Some(row.id))
}

/// The director's decision on a game's result (a forfeit for 悔著 or 抗命, a void game, a
/// corrected result), with its reason in the log. A game being played on the server when it
/// is decided is ended with it.
///
/// # Errors
/// 403 for anyone but a director; 422 for a result the game cannot have or a missing reason;
/// 409 for a result entered over another without `change`.
pub async fn decide(play: &Play, director: bool, id: i64, d: &Decision) -> Result<(), GameError> {
    forbidden_unless(director)?;
    if d.reason.trim().is_empty() {
        return Err(GameError::unprocessable(
            "reason-required",
            "A referee's decision needs its reason.",
        ));
    }
    let outcome: Option<Outcome> = if d.clear {
        None
    } else {
        let text = d.result.as_deref().ok_or_else(|| {
            GameError::unprocessable("result-required", "Give the result, or clear it.")
        })?;
        Some(
            text.parse()
                .map_err(|e| GameError::unprocessable("bad-result", format!("{e}")))?,
        )
    };
    let (round, board) = (d.round, d.board);
    let mut tx = begin(play, id).await?;
    check_open(&status_of(&mut tx, id).await?)?;
    let mut ev = tdb::load_event_by_id(tx.conn(), id)
        .await
        .map_err(load_error)?;
    let result_error = |e: ResultError| match e {
        ResultError::HasResult { .. } => {
            GameError::conflict("has-result", format!("{e}: change it on purpose (change)"))
        }
        ResultError::NoSuchGame { .. } => {
            GameError::new(ErrorKind::NotFound, "not-found", e.to_string())
        }
        e => refused(e),
    };
    let (action, changed) = match outcome {
        None => (Action::Clear, ev.clear(round, board).map_err(result_error)?),
        Some(o) if d.change => (
            Action::Change,
            ev.change(round, board, o).map_err(result_error)?,
        ),
        Some(o) => {
            let mut changed = vec![Changed {
                round,
                board,
                old: None,
                new: Some(o),
            }];
            changed.extend(ev.enter(round, board, o).map_err(result_error)?);
            (Action::Result, changed)
        }
    };
    for c in &changed {
        if let Ok(g) = ev.game(c.round, c.board) {
            tdb::write_result(tx.conn(), id, &tdb::game_row(g)).await?;
        }
    }
    let text = |o: Option<Outcome>| o.map_or_else(|| "-".to_owned(), |o| o.to_string());
    let mut entries = Vec::new();
    if let Some((first, rest)) = changed.split_first() {
        let mut e = LogEntry::game(action, round, board)
            .new_value(text(first.new))
            .reason(Some(&d.reason));
        if first.old.is_some() {
            e = e.old(text(first.old));
        }
        entries.push(e);
        entries.extend(rest.iter().map(Changed::log));
    }
    append(&mut tx, id, &entries).await?;
    let game_id = online::event_games(tx.conn(), id)
        .await?
        .iter()
        .find(|l| l.round == i64::from(round) && l.board == i64::from(board))
        .map(|l| l.game_id);
    tx.commit().await?;
    notify(play, id);
    // A game still in play ends with the decision (its end then finds the event decided).
    if let (Some(game_id), Some(Outcome::Win { winner, .. })) = (game_id, outcome) {
        let ended = submit::change(play, game_id, |g, now| {
            if g.phase() == ingo_rules::Phase::Ended {
                return Err(GameError::conflict("ended", "The game has ended."));
            }
            g.referee_forfeit(winner.opponent(), now)
        })
        .await;
        match ended {
            Ok(_) => {}
            Err(e) if e.kind == ErrorKind::Conflict => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

fn spawn_absence_timer(play: &Play, id: i64, round: u32) {
    let play = play.clone();
    tokio::spawn(async move {
        absence_timer(&play, id, round).await;
    });
}

/// Starts the absence timers of every round started and not decided (after a restart).
///
/// # Errors
/// On a storage failure.
pub async fn resume_timers(play: &Play) -> Result<(), GameError> {
    let mut conn = play.store().pool().acquire().await.map_err(store_err)?;
    for s in online::statuses(&mut conn).await? {
        if s.closed_ms.is_some() {
            continue;
        }
        for (round, _) in online::rounds(&mut conn, s.event.id).await? {
            spawn_absence_timer(play, s.event.id, round as u32);
        }
    }
    Ok(())
}

/// Sleeps until round `round`'s absence limit, then decides its absences: a pairing with no
/// game whose players have not both arrived is lost by the one absent (缺席, `F:absence`,
/// counted toward 罰停), or made void when both are. Every server of a database may run it:
/// each pairing is decided once, in the event's transaction.
async fn absence_timer(play: &Play, id: i64, round: u32) {
    let limit = {
        let Ok(mut conn) = play.store().pool().acquire().await else {
            return;
        };
        let Ok(ev) = tdb::load_event_by_id(&mut conn, id).await else {
            return;
        };
        let Ok(rounds) = online::rounds(&mut conn, id).await else {
            return;
        };
        let Some(start) = rounds.iter().find(|r| r.0 == i64::from(round)).map(|r| r.1) else {
            return;
        };
        match absent_at(&ev.agreement.time, start) {
            Some(l) => l,
            None => return,
        }
    };
    play.clock().sleep_until(limit).await;
    for _ in 0..5 {
        match decide_absences(play, id, round).await {
            Ok(()) => return,
            Err(e) => {
                tracing::warn!(
                    event_id = id,
                    round,
                    "absences not decided yet: {}",
                    e.message
                );
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
}

/// Decides round `round`'s absences now (see [`absence_timer`]).
///
/// # Errors
/// On a storage failure.
pub async fn decide_absences(play: &Play, id: i64, round: u32) -> Result<(), GameError> {
    let mut tx = begin(play, id).await?;
    if status_of(&mut tx, id).await?.closed_ms.is_some() {
        return Ok(());
    }
    let mut ev = tdb::load_event_by_id(tx.conn(), id)
        .await
        .map_err(load_error)?;
    let linked: HashSet<i64> = online::event_games(tx.conn(), id)
        .await?
        .iter()
        .filter(|l| l.round == i64::from(round))
        .map(|l| l.board)
        .collect();
    let arrived: HashSet<String> = online::checkins(tx.conn(), id, i64::from(round))
        .await?
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let pending: Vec<Game> = ev
        .games
        .iter()
        .filter(|g| {
            g.round == round
                && !g.is_bye()
                && g.result.is_none()
                && !linked.contains(&i64::from(g.board))
        })
        .cloned()
        .collect();
    let mut entries = Vec::new();
    for g in pending {
        let Some(white) = &g.white else { continue };
        let (b, w) = (arrived.contains(&g.black), arrived.contains(white));
        let (outcome, why) = match (b, w) {
            (true, true) => continue,
            (true, false) => (
                Outcome::Win {
                    winner: Color::Black,
                    by: WinBy::Forfeit(ForfeitReason::Absence),
                },
                format!("{white} did not arrive (缺席)"),
            ),
            (false, true) => (
                Outcome::Win {
                    winner: Color::White,
                    by: WinBy::Forfeit(ForfeitReason::Absence),
                },
                format!("{} did not arrive (缺席)", g.black),
            ),
            (false, false) => (
                Outcome::Void,
                format!("neither {} nor {white} arrived (缺席)", g.black),
            ),
        };
        let changed = match ev.enter(round, g.board, outcome) {
            Ok(c) => c,
            Err(_) => continue,
        };
        if let Ok(game) = ev.game(round, g.board) {
            tdb::write_result(tx.conn(), id, &tdb::game_row(game)).await?;
        }
        for c in &changed {
            if let Ok(game) = ev.game(c.round, c.board) {
                tdb::write_result(tx.conn(), id, &tdb::game_row(game)).await?;
            }
        }
        entries.push(
            LogEntry::game(Action::Result, round, g.board)
                .new_value(outcome.to_string())
                .reason(Some(&format!("the server's clock: {why}"))),
        );
        entries.extend(changed.iter().map(Changed::log));
    }
    append(&mut tx, id, &entries).await?;
    tx.commit().await?;
    notify(play, id);
    Ok(())
}

impl From<ingo_store::tournament::LoadError> for GameError {
    fn from(e: LoadError) -> GameError {
        load_error(e)
    }
}
