#![doc = include_str!("../README.md")]
//!
//! # Layout
//!
//! * [`MatchConfig`] (with [`EngineSpec`], [`ColorPolicy`], [`FailurePolicy`], [`Timeouts`]):
//!   what a match is; [`MatchConfig::assignment`] gives the colours, handicap and komi of each
//!   game.
//! * [`play_game`]: one game from a [`GameSpec`], giving a [`GameReport`] (the referee's
//!   [`Game`](ingo_rules::Game), the outcome, the failure if any, and the SGF), on the
//!   machine's clock ([`WallClock`]); [`play_game_timed`] reads the time from another
//!   [`TimeSource`].
//! * [`run_match`]: N games, in parallel, written to the output directory and resumable, with
//!   a [`Progress`] callback; results as [`GameRecord`]s and a [`MatchSummary`].
//! * [`RefereeError`]: what stops a match. An engine's misbehaviour is never an error: it is a
//!   result ([`FailurePolicy`]).
#![deny(missing_docs)]

mod config;
mod engine_id;
mod error;
mod fault;
mod game;
mod record;
mod run;
mod session;
mod summary;

pub use config::{
    Assignment, ColorPolicy, EngineSpec, FailureAction, FailurePolicy, MatchConfig, Timeouts,
    VoidExhausted,
};
pub use engine_id::EngineId;
pub use error::{ConfigError, RefereeError};
pub use fault::{classify, FailureKind, Fault};
pub use game::{play_game, play_game_timed, Failure, GameReport, GameSpec, Outcome, PlayerSpec};
/// Where the referee reads the time its clocks charge (from `ingo-clock`, shared with the player).
pub use ingo_clock::{TimeSource, WallClock};
pub use record::{EndKind, GameRecord};
pub use run::{
    game_file_name, record_file_name, run_match, run_match_until, void_file_name, write_atomic,
    NoProgress, Progress, MATCH_FILE,
};
pub use session::{GenmoveAnswer, GtpSession, KomiTold, SessionError, SessionSetup, Started};
pub use summary::{wilson_interval, ColorStats, EndCounts, EngineStats, MatchSummary, Z95};
