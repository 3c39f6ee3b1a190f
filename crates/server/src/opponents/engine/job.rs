//! What an engine is to do now in a game, read from the game under its lock: close, move, or
//! answer a dead-stone proposal, with the settings and moves its process is told.

use std::time::{Duration, Instant};

use ingo_clock::{GtpDialect, GtpTimeLeft, TimeControl};
use ingo_rules::{Color, Komi, Phase, Point};

use crate::domain::error::GameError;
use crate::domain::live_game::LiveGame;

/// A game's moves as an engine is told them: colour and GTP vertex (or `pass`).
pub(super) type Moves = Vec<(Color, String)>;

/// What an engine side has to do, with the game's settings and moves.
pub(super) type Found = (Job, Setup, Moves);

/// The game's settings an engine is told at its start.
pub(super) struct Setup {
    pub(super) size: usize,
    pub(super) komi: Komi,
    pub(super) preset: String,
    pub(super) time_control: TimeControl,
    /// White's handicap passes (讓手).
    pub(super) handicap_passes: u8,
}

/// What an engine side has to do now.
pub(super) enum Job {
    /// The game has ended: stop the process.
    Close,
    /// Its move.
    Move(MoveJob),
    /// Play is suspended and it has not accepted `proposal`; `resume` when it is its turn, to
    /// resume play if it disagrees.
    Dead {
        /// The stones that stand proposed.
        proposal: Vec<String>,
        /// Its move, when it is its turn and it disagrees.
        resume: Option<MoveJob>,
    },
}

/// A move to ask for.
pub(super) struct MoveJob {
    /// The number it gets.
    pub(super) number: i64,
    /// `time_left` in the standard and the KGS dialects.
    pub(super) time_left: [Option<GtpTimeLeft>; 2],
    /// When its clock falls.
    pub(super) deadline: Option<Instant>,
    /// Whether play was ever suspended (then `kgs-genmove_cleanup` where known).
    pub(super) cleanup: bool,
}

/// The move `color` is asked for at wall time `now` (ms).
pub(super) fn move_job(g: &LiveGame, color: Color, now: i64) -> MoveJob {
    let t = g.clock_time(now);
    let left = |d| g.table().clock().and_then(|k| k.gtp_time_left(color, t, d));
    let deadline = g
        .deadline_ms()
        .map(|at| Instant::now() + Duration::from_millis(u64::try_from(at - now).unwrap_or(0)));
    MoveJob {
        number: g.moves().len() as i64 + 1,
        time_left: [left(GtpDialect::Standard), left(GtpDialect::Kgs)],
        deadline,
        cleanup: g
            .moves()
            .windows(2)
            .any(|w| w.iter().all(|m| m.mv.eq_ignore_ascii_case("pass"))),
    }
}

/// What the engine of `color` is to do at wall time `now` (ms), if anything.
pub(super) fn job_of(g: &LiveGame, color: Color, now: i64) -> Result<Option<Found>, GameError> {
    let s = g.state();
    let job = match g.phase() {
        Phase::Ended => Job::Close,
        Phase::Suspended => {
            let accepted = match color {
                Color::Black => s.accepted_black,
                Color::White => s.accepted_white,
            };
            if accepted {
                return Ok(None);
            }
            Job::Dead {
                proposal: s
                    .dead_proposal
                    .split_whitespace()
                    .map(str::to_owned)
                    .collect(),
                resume: (g.to_move() == color).then(|| move_job(g, color, now)),
            }
        }
        Phase::Playing => {
            if g.to_move() != color {
                return Ok(None);
            }
            Job::Move(move_job(g, color, now))
        }
    };
    let setup = Setup {
        size: g.size(),
        komi: g.game().rules().komi,
        preset: g.row().preset.clone(),
        handicap_passes: u8::try_from(g.row().handicap_passes).unwrap_or(0),
        time_control: g
            .row()
            .time_control
            .parse()
            .map_err(|e| GameError::internal(format!("time control: {e}")))?,
    };
    let moves = g
        .moves()
        .iter()
        .map(|m| {
            let c = if m.color == "B" {
                Color::Black
            } else {
                Color::White
            };
            (c, m.mv.clone())
        })
        .collect();
    Ok(Some((job, setup, moves)))
}

/// A list of GTP vertices as points, sorted, without repeats; `None` when one is not a point.
pub(super) fn points_of(list: &[String], size: usize) -> Option<Vec<Point>> {
    let mut v: Vec<Point> = list
        .iter()
        .map(|s| Point::from_gtp(s, size, size).ok())
        .collect::<Option<_>>()?;
    v.sort_by_key(|p| (p.row(), p.col()));
    v.dedup();
    Some(v)
}
