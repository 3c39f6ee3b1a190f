//! The referee's errors: what stops a game or a match for reasons that are not an engine's
//! misbehaviour (that is a game result, see [`crate::FailurePolicy`]).

use std::{io, path::PathBuf};

use ingo_gtp::EngineError;

use crate::engine_id::EngineId;

/// Why a game or a match could not be run.
///
/// An engine that crashes, hangs, talks garbage or plays an illegal move does **not** cause an
/// error: that ends the game by the [`FailurePolicy`](crate::FailurePolicy). Errors are for
/// what makes the match itself impossible: a bad configuration, an engine that cannot be
/// started at all or cannot play the board size, an output directory that cannot be written,
/// or an output directory holding another match.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RefereeError {
    /// The configuration cannot be used.
    #[error("invalid match configuration: {0}")]
    Config(#[from] ConfigError),
    /// The output directory holds a match with another configuration.
    #[error(
        "{} holds a match with a different configuration ({field}: was {was}, now {now}); use another --out directory or the same settings",
        path.display()
    )]
    ConfigMismatch {
        /// The `match.json` file.
        path: PathBuf,
        /// The first setting that differs.
        field: String,
        /// Its value in the file.
        was: String,
        /// Its value now.
        now: String,
    },
    /// An engine could not be started (program not found, bad command line).
    #[error("cannot start engine {engine} ({command:?}): {source}")]
    Spawn {
        /// Which engine.
        engine: EngineId,
        /// Its command line.
        command: String,
        /// What went wrong.
        source: Box<EngineError>,
    },
    /// An engine refused a setup command it must accept, such as `boardsize`.
    #[error("engine {engine} cannot play this game: it refused `{command}`: {message}")]
    Unsupported {
        /// Which engine.
        engine: EngineId,
        /// The command refused.
        command: String,
        /// The engine's error message.
        message: String,
    },
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// A JSON file of the output directory cannot be read.
    #[error("{}: {source}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// The JSON error.
        source: serde_json::Error,
    },
    /// A finished game's SGF file cannot be read back (and it has no readable JSON sidecar).
    #[error("{}: {source}", path.display())]
    Sgf {
        /// The file.
        path: PathBuf,
        /// The SGF error.
        source: Box<ingo_sgf::SgfError>,
    },
    /// The match was interrupted ([`run_match_until`](crate::run_match_until)'s `stop`): the
    /// engines were stopped, the games finished before are kept, the game(s) being played are
    /// not counted; a later run on the same directory resumes.
    #[error("match interrupted with {finished} of {planned} games finished; run it again on the same output directory to resume")]
    Interrupted {
        /// Games finished and written, those of earlier runs included.
        finished: u32,
        /// Games planned.
        planned: u32,
    },
    /// The referee's own state went wrong (a clock or rules operation it relies on failed).
    /// This is a bug in ingo.
    #[error("internal referee error: {0}")]
    Internal(String),
}

impl RefereeError {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> RefereeError {
        let path = path.into();
        move |source| RefereeError::Io { path, source }
    }
}

/// A configuration that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The board size is outside 2..=25.
    #[error("board size {0} is not in 2..=25")]
    BoardSize(usize),
    /// `parallel` is zero.
    #[error("parallel must be at least 1")]
    Parallel,
    /// An engine command line is empty.
    #[error("the command line of engine {0} is empty")]
    EmptyCommand(EngineId),
    /// A time control cannot be used.
    #[error("time control {control}: {reason}")]
    TimeControl {
        /// The control, in its text form.
        control: String,
        /// Why it cannot be used.
        reason: ingo_clock::TimeControlError,
    },
    /// One engine has a rank and the other has none: the handicap needs both.
    #[error("engine {0} has a rank but engine {other} has none: give both ranks (for Ing's handicap) or neither (an even game)", other = .0.other())]
    OneRank(EngineId),
    /// The per-move timeout of an untimed side is zero.
    #[error("the move timeout must be more than zero")]
    MoveTimeout,
    /// More handicap passes than the referee can represent.
    #[error("a handicap of {0} passes is too large")]
    Handicap(u32),
}
