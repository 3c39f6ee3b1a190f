//! One GTP opponent session: an engine started for one game and driven through it, shared by
//! the referee's games and the play server's engine opponents, so that both tell an engine a
//! game the same way and read its faults the same way ([`classify`]).

use std::time::Duration;

use ingo_clock::{gtp_time_settings, kgs_time_settings, GtpDialect, GtpTimeLeft, TimeControl};
use ingo_gtp::{protocol::GenmoveReply, Engine, EngineError};
use ingo_rules::{Color, Komi, Move};

use crate::fault::{classify, FailureKind, Fault};

/// What an engine is told when its game starts ([`GtpSession::start`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionSetup<'a> {
    /// Board size.
    pub size: usize,
    /// The game's komi.
    pub komi: Komi,
    /// The rules' name for `ingo-rules`, sent when the engine knows that command (GTP itself
    /// cannot name Ing's rules); `None` to send nothing.
    pub preset: Option<&'a str>,
    /// The time control for `time_settings` (and `kgs-time_settings`); `None` when the engine
    /// is not told the time.
    pub time: Option<TimeControl>,
    /// White's handicap passes (讓手), sent as `ingo-handicap_passes N` when there are some and
    /// the engine knows that command. An engine that does not sees them only as `play w pass`,
    /// which it may take for an ordinary pass and answer with one.
    pub handicap_passes: u8,
    /// The timeout of each command.
    pub timeout: Duration,
}

/// Which komi the engine took at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KomiTold {
    /// The game's.
    Exact,
    /// It refused a whole-number komi and took this one, the half point below.
    Near(Komi),
    /// It refused both and keeps its own (the count uses the game's anyway).
    Own,
}

/// What [`GtpSession::start`] learnt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Started {
    /// The komi it took.
    pub komi: KomiTold,
    /// Whether it refused `time_settings`.
    pub time_settings_refused: bool,
}

/// Why a session stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// An engine error, read by [`classify`].
    #[error("{detail}")]
    Fault {
        /// Whose fault, and its kind.
        fault: Fault,
        /// A short code: `refused-legal-move`, `crash`, `timeout`, `garbage`, `bad-vertex`,
        /// `genmove-failed`, or the one the caller gave for a refusal.
        code: &'static str,
        /// What happened, in a sentence.
        detail: String,
    },
    /// The engine refused a command the game cannot do without (`boardsize`, `clear_board`).
    #[error("the engine refused `{command}`: {message}")]
    Unsupported {
        /// The command with its arguments.
        command: String,
        /// The engine's message.
        message: String,
    },
}

impl SessionError {
    /// `error` read by [`classify`]; a GTP failure answer (`? message`) is `on_failure`, with
    /// its code.
    pub fn engine(error: &EngineError, on_failure: (FailureKind, &'static str)) -> SessionError {
        let fault = classify(error, on_failure.0);
        let code = match fault {
            Fault::Engine(_) if matches!(error, EngineError::Failure { .. }) => on_failure.1,
            Fault::Engine(FailureKind::Illegal) => "refused-legal-move",
            Fault::Engine(FailureKind::Crash) => "crash",
            Fault::Engine(FailureKind::Timeout) => "timeout",
            Fault::Engine(FailureKind::Garbage) => "garbage",
            Fault::Start => "unavailable",
            Fault::Controller => "invalid-command",
        };
        SessionError::Fault {
            fault,
            code,
            detail: error.to_string(),
        }
    }
}

/// `b` or `w`.
pub(crate) fn gtp_letter(c: Color) -> &'static str {
    match c {
        Color::Black => "b",
        Color::White => "w",
    }
}

/// An engine's answer to `genmove`, before it is parsed ([`GtpSession::parse_genmove`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenmoveAnswer {
    /// The command sent: `genmove` or `kgs-genmove_cleanup`.
    pub command: &'static str,
    /// The answer's text.
    pub text: String,
}

/// A started engine, driven through one game over GTP.
#[derive(Debug)]
pub struct GtpSession {
    engine: Engine,
    dialect: GtpDialect,
    knows_cleanup: bool,
}

impl GtpSession {
    /// A session on a started engine, told nothing yet.
    pub fn new(engine: Engine) -> GtpSession {
        GtpSession {
            engine,
            dialect: GtpDialect::Standard,
            knows_cleanup: false,
        }
    }

    /// The engine.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The engine, to stop it.
    pub fn into_engine(self) -> Engine {
        self.engine
    }

    /// The `time_left` convention it follows: KGS once it accepted `kgs-time_settings`.
    pub fn dialect(&self) -> GtpDialect {
        self.dialect
    }

    /// Whether it knows `kgs-genmove_cleanup`.
    pub fn knows_cleanup(&self) -> bool {
        self.knows_cleanup
    }

    /// Sends a command; a `? failure` answer is `on_failure`.
    ///
    /// # Errors
    /// [`SessionError::Fault`] for any engine error.
    pub fn send(
        &mut self,
        name: &str,
        args: &[&str],
        timeout: Duration,
        on_failure: (FailureKind, &'static str),
    ) -> Result<String, SessionError> {
        self.engine
            .send(name, args, timeout)
            .map(|reply| reply.text)
            .map_err(|e| SessionError::engine(&e, on_failure))
    }

    /// Sends a command whose `? failure` answer is acceptable: `Ok(None)` then.
    ///
    /// # Errors
    /// [`SessionError::Fault`] for any other engine error.
    pub fn send_optional(
        &mut self,
        name: &str,
        args: &[&str],
        timeout: Duration,
    ) -> Result<Option<String>, SessionError> {
        match self.engine.send(name, args, timeout) {
            Ok(reply) => Ok(Some(reply.text)),
            Err(EngineError::Failure { .. }) => Ok(None),
            Err(e) => Err(SessionError::engine(&e, (FailureKind::Garbage, "garbage"))),
        }
    }

    /// Sends a command the engine must accept to play the game at all.
    ///
    /// # Errors
    /// [`SessionError::Unsupported`] when refused, [`SessionError::Fault`] for another error.
    pub fn send_required(
        &mut self,
        name: &str,
        args: &[&str],
        timeout: Duration,
    ) -> Result<(), SessionError> {
        match self.engine.send(name, args, timeout) {
            Ok(_) => Ok(()),
            Err(EngineError::Failure { message, .. }) => {
                let mut command = name.to_string();
                for a in args {
                    command.push(' ');
                    command.push_str(a);
                }
                Err(SessionError::Unsupported { command, message })
            }
            Err(e) => Err(SessionError::engine(&e, (FailureKind::Garbage, "garbage"))),
        }
    }

    /// `known_command COMMAND`.
    ///
    /// # Errors
    /// As [`GtpSession::send_optional`].
    pub fn known(&mut self, command: &str, timeout: Duration) -> Result<bool, SessionError> {
        Ok(self
            .send_optional("known_command", &[command], timeout)?
            .is_some_and(|t| t.trim() == "true"))
    }

    /// Tells the engine the game: asks which of `kgs-time_settings`, `kgs-genmove_cleanup`
    /// (and `ingo-rules`, with a preset, and `ingo-handicap_passes`, with handicap passes) it
    /// knows, then `boardsize`, `clear_board`, `ingo-rules PRESET` and `ingo-handicap_passes N`
    /// where known, `komi` (when refused, the half point below a
    /// whole-number komi; when that is refused too it keeps its own, which does not matter:
    /// the referee or the server counts), and with a time control `time_settings` and, where
    /// known, `kgs-time_settings` (then `time_left` follows the KGS convention).
    ///
    /// # Errors
    /// [`SessionError::Unsupported`] when it refuses `boardsize` or `clear_board`,
    /// [`SessionError::Fault`] for an engine error.
    pub fn start(&mut self, setup: &SessionSetup<'_>) -> Result<Started, SessionError> {
        let t = setup.timeout;
        let kgs_time = self.known("kgs-time_settings", t)?;
        self.knows_cleanup = self.known("kgs-genmove_cleanup", t)?;
        let ingo_rules = match setup.preset {
            Some(_) => self.known("ingo-rules", t)?,
            None => false,
        };
        let handicap_passes = setup.handicap_passes > 0 && self.known("ingo-handicap_passes", t)?;
        self.send_required("boardsize", &[&setup.size.to_string()], t)?;
        self.send_required("clear_board", &[], t)?;
        if let (true, Some(preset)) = (ingo_rules, setup.preset) {
            self.send_optional("ingo-rules", &[preset], t)?;
        }
        if handicap_passes {
            self.send_optional(
                "ingo-handicap_passes",
                &[&setup.handicap_passes.to_string()],
                t,
            )?;
        }
        let komi = self.send_komi(setup.komi, t)?;
        let mut time_settings_refused = false;
        if let Some(tc) = setup.time {
            let settings = gtp_time_settings(&tc).to_string();
            let words: Vec<&str> = settings.split_whitespace().collect();
            time_settings_refused = self.send_optional("time_settings", &words, t)?.is_none();
            if kgs_time {
                let kgs = kgs_time_settings(&tc);
                let words: Vec<&str> = kgs.split_whitespace().collect();
                if self
                    .send_optional("kgs-time_settings", &words, t)?
                    .is_some()
                {
                    self.dialect = GtpDialect::Kgs;
                }
            }
        }
        Ok(Started {
            komi,
            time_settings_refused,
        })
    }

    fn send_komi(&mut self, komi: Komi, t: Duration) -> Result<KomiTold, SessionError> {
        if self
            .send_optional("komi", &[&komi.to_string()], t)?
            .is_some()
        {
            return Ok(KomiTold::Exact);
        }
        if komi.halves() % 2 == 0 {
            let near = Komi(komi.halves() - 1);
            if self
                .send_optional("komi", &[&near.to_string()], t)?
                .is_some()
            {
                return Ok(KomiTold::Near(near));
            }
        }
        Ok(KomiTold::Own)
    }

    /// Tells the engine a move it did not generate: `play COLOR VERTEX`.
    ///
    /// # Errors
    /// A refusal is [`FailureKind::Illegal`] (`refused-legal-move`): the move was legal.
    pub fn tell(
        &mut self,
        mover: Color,
        vertex: &str,
        timeout: Duration,
    ) -> Result<(), SessionError> {
        self.send(
            "play",
            &[gtp_letter(mover), vertex],
            timeout,
            (FailureKind::Illegal, "refused-legal-move"),
        )
        .map(|_| ())
    }

    /// Asks for `color`'s move: `time_left` first when `time_left` gives one in the engine's
    /// dialect (with `setup_timeout`), then `genmove` (`kgs-genmove_cleanup` when `cleanup`
    /// and the engine knows it), with the timeout `deadline` gives, called just before the
    /// command is written (so that a caller can start its clock there).
    ///
    /// # Errors
    /// [`SessionError::Fault`]; a refused `genmove` is [`FailureKind::Garbage`]
    /// (`genmove-failed`).
    pub fn genmove(
        &mut self,
        color: Color,
        time_left: impl FnOnce(GtpDialect) -> Option<GtpTimeLeft>,
        cleanup: bool,
        setup_timeout: Duration,
        deadline: impl FnOnce() -> Duration,
    ) -> Result<GenmoveAnswer, SessionError> {
        let letter = gtp_letter(color);
        if let Some(left) = time_left(self.dialect) {
            let (secs, stones) = (left.secs.to_string(), left.stones.to_string());
            self.send_optional("time_left", &[letter, &secs, &stones], setup_timeout)?;
        }
        let command = if cleanup && self.knows_cleanup {
            "kgs-genmove_cleanup"
        } else {
            "genmove"
        };
        let timeout = deadline();
        let text = self.send(
            command,
            &[letter],
            timeout,
            (FailureKind::Garbage, "genmove-failed"),
        )?;
        Ok(GenmoveAnswer { command, text })
    }

    /// The move of a `genmove` answer on a `size` board.
    ///
    /// # Errors
    /// Not a vertex, `pass` or `resign`: [`FailureKind::Garbage`] (`bad-vertex`).
    pub fn parse_genmove(
        answer: &GenmoveAnswer,
        size: usize,
    ) -> Result<GenmoveReply, SessionError> {
        let garbage = |why: String| SessionError::Fault {
            fault: Fault::Engine(FailureKind::Garbage),
            code: "bad-vertex",
            detail: format!("`{}` answered {:?}: {why}", answer.command, answer.text),
        };
        let sz = u8::try_from(size).map_err(|e| garbage(e.to_string()))?;
        GenmoveReply::parse(&answer.text, sz).map_err(|e| garbage(e.to_string()))
    }

    /// `final_status_list dead`: its points, sorted; `None` for no usable answer (a refusal,
    /// or a word that is not a point of the board).
    ///
    /// # Errors
    /// As [`GtpSession::send_optional`].
    pub fn dead_list(
        &mut self,
        size: usize,
        timeout: Duration,
    ) -> Result<Option<Vec<ingo_rules::Point>>, SessionError> {
        let Some(text) = self.send_optional("final_status_list", &["dead"], timeout)? else {
            return Ok(None);
        };
        let Ok(sz) = u8::try_from(size) else {
            return Ok(None);
        };
        let points: Option<Vec<ingo_rules::Point>> = text
            .split_whitespace()
            .map(|w| match ingo_gtp::protocol::parse_vertex(w, sz).ok()? {
                Move::Play(p) => Some(p),
                Move::Pass => None,
            })
            .collect();
        Ok(points.map(|mut v| {
            v.sort_by_key(|p| (p.row(), p.col()));
            v.dedup();
            v
        }))
    }
}
