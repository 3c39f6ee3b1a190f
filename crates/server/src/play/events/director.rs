//! The director's steps (each refused to anyone else) and a player's registration.

use ingo_store::server::{self as db, UserRow};
use ingo_store::tournament::{self as tdb, online};
use ingo_tournament::{
    Action, Agreement, Entrant, Game, LogEntry, Outcome, PairingError, PairingOptions, ResultError,
};
use serde::Deserialize;

use super::*;
use crate::domain::error::{ErrorKind, GameError};
use crate::play::hub::Play;
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
    let decided = ev
        .decide(round, board, outcome, d.change)
        .map_err(result_error)?;
    for c in &decided.changed {
        if let Ok(g) = ev.game(c.round, c.board) {
            tdb::write_result(tx.conn(), id, &tdb::game_row(g)).await?;
        }
    }
    let entries = decided.log(Some(&d.reason));
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
