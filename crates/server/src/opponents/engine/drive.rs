//! How the engines of a game act after each committed change: find each engine side's job,
//! start its process when needed, ask it, and play its answer through the same
//! [`play_move`] and [`change`] as a person's; a fault ends the game by the referee's policy.

use std::sync::Arc;

use ingo_rules::Color;

use super::fault::{fault, Fault, FaultKind};
use super::job::{job_of, points_of, Job, Setup};
use super::pool::{start_reaper, Driver};
use super::session::{Answer, Session};
use crate::config::EngineConfig;
use crate::domain::accounts::Program;
use crate::domain::end::EndReason;
use crate::domain::error::{ErrorKind, GameError};
use crate::play::live::{game, shown};
use crate::play::submit::{change, play_move};
use crate::AppState;

/// Lets the engines of game `id` act (see the module docs); called after every change.
pub async fn act(state: &AppState, id: i64) -> Result<(), GameError> {
    let sides: Vec<(Color, i64, String)> = {
        let game = game(&state.play, id).await?;
        let g = game.lock().await;
        Color::ALL
            .iter()
            .filter_map(|&c| {
                let p = g.players().get(c);
                match &p.program {
                    Some(Program::Engine { name }) => Some((c, p.id, name.clone())),
                    _ => None,
                }
            })
            .collect()
    };
    for (color, user_id, engine) in sides {
        drive(state, id, color, user_id, &engine).await?;
    }
    Ok(())
}

async fn drive(
    state: &AppState,
    id: i64,
    color: Color,
    user_id: i64,
    engine: &str,
) -> Result<(), GameError> {
    let engines = state.engines();
    let driver = engines.driver(id, color);
    let mut driver = driver.lock().await;
    let found = {
        // Never a copy a failed change left discarded: the engine would be asked about a
        // position that holds a move nobody stored.
        let (_game, g) = shown(&state.play, id).await?;
        job_of(&g, color, state.now_ms())?
    };
    let Some((job, setup, moves)) = found else {
        return Ok(());
    };
    if let Job::Close = job {
        engines.close(id, color, &mut driver);
        return Ok(());
    }
    let Some(config) = engines.config(engine).cloned() else {
        let f = fault(
            FaultKind::Unavailable,
            format!("engine {engine:?} is no longer configured on this server"),
        );
        return fail(state, id, color, &mut driver, f).await;
    };
    let setup = match driver.session {
        Some(_) => setup,
        None => {
            let Some(permits) = engines.permits.get(&config.name) else {
                return Err(GameError::internal("engine without permits"));
            };
            let permit = Arc::clone(permits)
                .acquire_owned()
                .await
                .map_err(|e| GameError::internal(e.to_string()))?;
            let c = config.clone();
            let (started, setup) =
                tokio::task::spawn_blocking(move || (Session::start(&c, &setup, permit), setup))
                    .await
                    .map_err(|e| GameError::internal(format!("engine task: {e}")))?;
            match started {
                Ok(session) => driver.session = Some(session),
                Err(f) => return fail(state, id, color, &mut driver, f).await,
            }
            start_reaper(state);
            setup
        }
    };
    let who = Who { id, color, user_id };
    finish_job(state, who, &config, &mut driver, job, setup, moves).await
}

/// An engine's side: the game, the engine's colour and account.
#[derive(Clone, Copy)]
struct Who {
    id: i64,
    color: Color,
    user_id: i64,
}

async fn finish_job(
    state: &AppState,
    Who { id, color, user_id }: Who,
    config: &EngineConfig,
    driver: &mut Driver,
    job: Job,
    setup: Setup,
    moves: Vec<(Color, String)>,
) -> Result<(), GameError> {
    let Some(mut session) = driver.session.take() else {
        return Ok(());
    };
    let c = config.clone();
    let size = setup.size;
    let proposal = match &job {
        Job::Dead { proposal, .. } => Some(proposal.clone()),
        _ => None,
    };
    let number = match &job {
        Job::Move(m)
        | Job::Dead {
            resume: Some(m), ..
        } => m.number,
        _ => 0,
    };
    let (session, answer) = tokio::task::spawn_blocking(move || {
        let answer = session.answer(&c, &setup, &moves, color, &job);
        (session, answer)
    })
    .await
    .map_err(|e| GameError::internal(format!("engine task: {e}")))?;
    driver.session = Some(session);
    let answer = match answer {
        Ok(a) => a,
        Err(f) => return fail(state, id, color, driver, f).await,
    };
    match answer {
        Answer::Move(mv) => {
            let vertex = mv.to_gtp(size);
            match play_move(&state.play, user_id, id, &vertex, Some(number)).await {
                Ok(_) => Ok(()),
                Err(e) if e.kind == ErrorKind::Refused => {
                    let f = fault(
                        FaultKind::Illegal,
                        format!("illegal move {vertex} ({}): {}", e.reason, e.message),
                    );
                    fail(state, id, color, driver, f).await
                }
                Err(e) if e.kind == ErrorKind::Conflict => {
                    // The game moved on meanwhile (a resignation, a flag fall, another server):
                    // its board is told again from the start next time.
                    if let Some(s) = driver.session.as_mut() {
                        s.known = None;
                    }
                    Ok(())
                }
                Err(e) => Err(e),
            }
        }
        Answer::Resign => {
            let _ = change(&state.play, id, |g, now| g.resign(user_id, now)).await?;
            Ok(())
        }
        Answer::Dead(list) => {
            let proposal = proposal.unwrap_or_default();
            let standing = points_of(&proposal, size);
            let own: Option<Vec<String>> = list
                .filter(|l| Some(l) != standing.as_ref())
                .map(|l| l.iter().map(|p| p.to_gtp(size)).collect());
            if let Some(own) = own {
                let proposed = change(&state.play, id, |g, _| g.propose(user_id, &own)).await;
                match proposed {
                    Ok(_) => return Ok(()),
                    // Its list names an empty point: no usable answer, it accepts.
                    Err(e) if e.kind == ErrorKind::Refused => {}
                    Err(e) => return Err(e),
                }
            }
            let _ = change(&state.play, id, |g, now| g.accept(user_id, &proposal, now)).await?;
            Ok(())
        }
    }
}

/// Ends the game for an engine's fault, by the referee's policy, and stops the process.
async fn fail(
    state: &AppState,
    id: i64,
    color: Color,
    driver: &mut Driver,
    f: Fault,
) -> Result<(), GameError> {
    let (kind, detail) = match f {
        Fault::Engine { kind, detail } => (kind, detail),
        Fault::Server(detail) => {
            // The process may be fine, but what it was told is unknown: a fresh one is told
            // the game from the start next time. The game goes on.
            state.engines().close(id, color, driver);
            return Err(GameError::internal(format!("engine driver: {detail}")));
        }
    };
    tracing::warn!(
        game_id = id,
        color = %color.letter(),
        reason = EndReason::Engine(kind).as_str(),
        "the engine failed: {}",
        detail
    );
    let result = change(&state.play, id, |g, now| g.engine_failed(color, kind, now)).await;
    state.engines().close(id, color, driver);
    result.map(|_| ())
}
