//! A round's start, the players' arrival (check-in, lateness charged twice, absence by the
//! server's clock) and the start of each pairing's game.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use ingo_rules::Color;
use ingo_store::server::{self as db, GameRow, GameState, MemberRow, UserRow};
use ingo_store::tournament::{self as tdb, online};
use ingo_tournament::{
    Action, Changed, EntrantKind, Event, ForfeitReason, Game, LogEntry, Outcome, WinBy,
};

use super::*;
use crate::domain::error::{ErrorKind, GameError};
use crate::play::hub::Play;
use crate::play::live;
use crate::play::submit::Judging;

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
    // basic time is absent, and that ending is committed (and reaches the event) at once,
    // through the same guard as any change: unless it is committed, the copy that holds it
    // is discarded, also when this request is dropped in the middle of the commit (a
    // check-in whose connection closed), so no copy shows an ending the store does not have.
    // A copy another request discarded meanwhile is left to the game's timer, which finds the
    // same ending on what is stored.
    let shared = live::game(play, row.id).await?;
    if let Some(mut live) = Judging::lock(play, &shared).await {
        let now = play.now_ms();
        live.changing();
        if live.mark_ended(now) {
            let event = crate::play::event::state_event(&live, now);
            live.commit_change(&[], &[event]).await?;
        } else {
            live.committed();
        }
    }
    play.changed(row.id);
    Ok(Some(row.id))
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

/// Decides round `round`'s absences now (what the round's absence timer runs).
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
