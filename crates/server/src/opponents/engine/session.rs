//! A running engine process driven through the referee's session ([`GtpSession`]): started and
//! told the game's settings, kept in step with the game's moves, asked for a move or its dead
//! stones. Blocking: called off the async threads.

use std::time::{Duration, Instant};

use ingo_clock::GtpDialect;
use ingo_gtp::engine::EngineBuilder;
use ingo_gtp::GenmoveReply;
use ingo_referee::{FailureKind, GenmoveAnswer, GtpSession, SessionError, SessionSetup};
use ingo_rules::{Color, Move, Point};
use tokio::sync::OwnedSemaphorePermit;

use super::fault::{fault, fault_of, Fault, FaultKind};
use super::job::{points_of, Job, MoveJob, Moves, Setup};
use crate::config::{EngineConfig, GRACE};

/// A running engine process and what the server knows of it.
pub(super) struct Session {
    pub(super) gtp: GtpSession,
    /// One of its engine's `max_games` permits, held while the process runs.
    _permit: OwnedSemaphorePermit,
    /// The moves on its board (`b`/`w`, vertex); `None` when unknown (told `clear_board` first).
    pub(super) known: Option<Moves>,
}

/// What an engine answered.
pub(super) enum Answer {
    /// A move.
    Move(Move),
    /// It resigns.
    Resign,
    /// Its dead stones; `None` for no usable answer.
    Dead(Option<Vec<Point>>),
}

fn letter(c: Color) -> &'static str {
    match c {
        Color::Black => "b",
        Color::White => "w",
    }
}

impl Session {
    /// Starts the engine and tells it the game's settings (blocking).
    pub(super) fn start(
        config: &EngineConfig,
        setup: &Setup,
        permit: OwnedSemaphorePermit,
    ) -> Result<Session, Fault> {
        let (program, args) = config
            .command
            .split_first()
            .ok_or_else(|| fault(FaultKind::Unavailable, "empty command"))?;
        let mut builder = EngineBuilder::new(program.clone()).args(args.iter().cloned());
        if let Some(dir) = &config.dir {
            builder = builder.current_dir(dir.clone());
        }
        let engine = builder
            .spawn()
            .map_err(|e| fault_of(SessionError::engine(&e, (FailureKind::Garbage, "garbage"))))?;
        let mut s = Session {
            gtp: GtpSession::new(engine),
            _permit: permit,
            known: None,
        };
        s.gtp
            .start(&SessionSetup {
                size: setup.size,
                komi: setup.komi,
                preset: Some(&setup.preset),
                time: Some(setup.time_control),
                handicap_passes: setup.handicap_passes,
                timeout: config.setup_timeout,
            })
            .map_err(fault_of)?;
        s.known = Some(Vec::new());
        Ok(s)
    }

    /// Tells the engine the moves it does not have yet (all of them, after `clear_board`,
    /// when what it has is not where the game stands).
    fn sync(&mut self, moves: &[(Color, String)], t: Duration) -> Result<(), Fault> {
        let fits = self
            .known
            .as_ref()
            .is_some_and(|k| k.len() <= moves.len() && moves[..k.len()] == k[..]);
        if !fits {
            self.gtp
                .send("clear_board", &[], t, (FailureKind::Garbage, "garbage"))
                .map_err(fault_of)?;
            self.known = Some(Vec::new());
        }
        let from = self.known.as_ref().map_or(0, Vec::len);
        for (c, v) in &moves[from..] {
            self.gtp
                .tell(*c, v, t)
                .map_err(fault_of)
                .map_err(|f| match f {
                    Fault::Engine {
                        kind: FaultKind::Illegal,
                        detail,
                    } => fault(
                        FaultKind::Illegal,
                        format!("it refused the legal move {} {v}: {detail}", letter(*c)),
                    ),
                    f => f,
                })?;
            if let Some(k) = self.known.as_mut() {
                k.push((*c, v.clone()));
            }
        }
        Ok(())
    }

    /// Does `job` (blocking).
    pub(super) fn answer(
        &mut self,
        config: &EngineConfig,
        setup: &Setup,
        moves: &[(Color, String)],
        color: Color,
        job: &Job,
    ) -> Result<Answer, Fault> {
        let t = config.setup_timeout;
        self.sync(moves, t)?;
        let size = setup.size;
        match job {
            // Handled before any process is asked (`drive`).
            Job::Close => Err(fault(FaultKind::Crash, "asked to act in an ended game")),
            Job::Dead { proposal, resume } => {
                let list = self.dead_list(size, t)?;
                match (list, resume) {
                    // It disagrees and it is its turn: it resumes play, to capture what it
                    // calls dead (the referee's way with a disputed suspension).
                    (Some(l), Some(m)) if Some(&l) != points_of(proposal, size).as_ref() => {
                        self.genmove(config, size, color, m)
                    }
                    (list, _) => Ok(Answer::Dead(list)),
                }
            }
            Job::Move(m) => self.genmove(config, size, color, m),
        }
    }

    /// `final_status_list dead`, sorted; `None` for no usable answer.
    fn dead_list(&mut self, size: usize, t: Duration) -> Result<Option<Vec<Point>>, Fault> {
        self.gtp.dead_list(size, t).map_err(fault_of)
    }

    /// `time_left`, then `genmove` (or `kgs-genmove_cleanup`) with the move's timeout.
    fn genmove(
        &mut self,
        config: &EngineConfig,
        size: usize,
        color: Color,
        m: &MoveJob,
    ) -> Result<Answer, Fault> {
        let time_left = |d| match d {
            GtpDialect::Kgs => m.time_left[1],
            _ => m.time_left[0],
        };
        let timeout = || {
            m.deadline
                .map_or(config.move_timeout, |d| {
                    d.saturating_duration_since(Instant::now()) + GRACE
                })
                .min(config.move_timeout)
        };
        let reply: GenmoveAnswer = self
            .gtp
            .genmove(color, time_left, m.cleanup, config.setup_timeout, timeout)
            .map_err(fault_of)?;
        match GtpSession::parse_genmove(&reply, size).map_err(fault_of)? {
            GenmoveReply::Resign => Ok(Answer::Resign),
            GenmoveReply::Move(mv) => {
                if let Some(k) = self.known.as_mut() {
                    k.push((color, mv.to_gtp(size)));
                }
                Ok(Answer::Move(mv))
            }
        }
    }
}
