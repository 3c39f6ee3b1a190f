//! Time management: how long to think about one move, given what is left on the clock.

use std::time::Duration;

/// What is left on the player's clock, as a GTP front learns it from `time_settings`,
/// `kgs-time_settings` and `time_left`.
///
/// * In main time: `main` is what is left of it; `byo_period` and `byo_stones` describe the
///   overtime that follows (`byo_stones == 0`: none, absolute time).
/// * In overtime (GTP `time_left` with a non-zero stone count): `main` is zero, `byo_period` is
///   what is left of the current period and `byo_stones` the stones still to play in it.
///   Japanese byo-yomi is one stone per period; Canadian, several.
///
/// Under Ing's own time rule entering overtime costs points (2 points per block, docs/rules.md §7), so a
/// front playing under it should pass `byo_stones = 0` and let the player treat `main` as the
/// whole budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeLeft {
    /// Main (basic) time left.
    pub main: Duration,
    /// Length of a byo-yomi period, or what is left of the current one.
    pub byo_period: Duration,
    /// Stones to play within `byo_period`; `0` when there is no byo-yomi.
    pub byo_stones: u32,
}

impl TimeLeft {
    /// Absolute time: `main` left and no overtime.
    pub fn absolute(main: Duration) -> TimeLeft {
        TimeLeft {
            main,
            byo_period: Duration::ZERO,
            byo_stones: 0,
        }
    }
}

/// How the thinking time of one move is derived from a [`TimeLeft`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimePolicy {
    /// The fewest moves the player expects still to make; the estimate is otherwise a third of
    /// the empty points (a side makes about half the remaining moves, and not every point is
    /// filled).
    pub min_moves_left: u32,
    /// The share of a byo-yomi period (per stone) to spend, leaving the rest for slack.
    pub byo_fraction: f64,
    /// Kept in hand on every move for the time the answer takes to reach the clock (network,
    /// GTP round trip, process scheduling).
    pub safety_margin: Duration,
    /// The least time a move gets even when the clock is nearly out; the search always makes at
    /// least one playout anyway.
    pub minimum: Duration,
}

impl Default for TimePolicy {
    fn default() -> Self {
        TimePolicy {
            min_moves_left: 20,
            byo_fraction: 0.8,
            safety_margin: Duration::from_millis(500),
            minimum: Duration::from_millis(5),
        }
    }
}

impl TimePolicy {
    /// The thinking time for the next move with `left` on the clock and `empty_points` empty
    /// points on the board.
    ///
    /// In main time: `main / moves_left` plus most of one stone's share of byo-yomi (that share
    /// will be there at the end anyway). In byo-yomi: most of one stone's share of the period.
    /// Never more than what the clock allows for this move (the main time plus one stone's
    /// share of the period) minus the safety margin, and never less than [`TimePolicy::minimum`].
    ///
    /// ```
    /// use std::time::Duration;
    /// use ingo_player::{TimeLeft, TimePolicy};
    ///
    /// let policy = TimePolicy::default();
    /// // 10 minutes of absolute time on an empty 19×19 board: 600 s / 120 moves.
    /// let t = policy.allot(&TimeLeft::absolute(Duration::from_secs(600)), 361);
    /// assert_eq!(t, Duration::from_secs(5));
    /// // Japanese byo-yomi, 30 s per move, main time used up: 80% of a period.
    /// let byo = TimeLeft { main: Duration::ZERO, byo_period: Duration::from_secs(30), byo_stones: 1 };
    /// assert_eq!(policy.allot(&byo, 100), Duration::from_secs(24));
    /// ```
    pub fn allot(&self, left: &TimeLeft, empty_points: usize) -> Duration {
        let moves_left = (empty_points / 3).max(self.min_moves_left.max(1) as usize) as u32;
        let byo_share = if left.byo_stones > 0 {
            left.byo_period / left.byo_stones
        } else {
            Duration::ZERO
        };
        let fraction = if self.byo_fraction.is_finite() {
            self.byo_fraction.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let byo_part = byo_share.mul_f64(fraction);
        let (want, cap) = if left.main > Duration::ZERO {
            (left.main / moves_left + byo_part, left.main + byo_share)
        } else {
            (byo_part, byo_share)
        };
        want.min(cap.saturating_sub(self.safety_margin))
            .max(self.minimum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn main_time_is_spread_over_the_moves_left() {
        let p = TimePolicy::default();
        // 9×9, 81 empty: 27 moves left (more than 20).
        assert_eq!(p.allot(&TimeLeft::absolute(secs(54.0)), 81), secs(2.0));
        // Late: at least 20 moves are assumed.
        assert_eq!(p.allot(&TimeLeft::absolute(secs(20.0)), 10), secs(1.0));
    }

    #[test]
    fn byo_yomi_adds_to_main_time_and_is_used_mostly() {
        let p = TimePolicy::default();
        let t = TimeLeft {
            main: secs(60.0),
            byo_period: secs(10.0),
            byo_stones: 1,
        };
        // 60 / 27 + 8.
        let got = p.allot(&t, 81).as_secs_f64();
        assert!((got - (60.0 / 27.0 + 8.0)).abs() < 1e-6, "{got}");
        // Canadian: 25 stones in 5 minutes, 12 s a stone, 80% of it.
        let canadian = TimeLeft {
            main: Duration::ZERO,
            byo_period: secs(300.0),
            byo_stones: 25,
        };
        assert_eq!(p.allot(&canadian, 200), secs(9.6));
    }

    #[test]
    fn never_more_than_is_left_minus_the_margin() {
        let p = TimePolicy::default();
        // 1 s of absolute time left late in the game: 1/20 s, well within.
        assert_eq!(p.allot(&TimeLeft::absolute(secs(1.0)), 0), secs(0.05));
        // Byo-yomi of 0.6 s: 80% would be 0.48 s, but only 0.1 s is safe.
        let tight = TimeLeft {
            main: Duration::ZERO,
            byo_period: secs(0.6),
            byo_stones: 1,
        };
        assert_eq!(p.allot(&tight, 50), secs(0.1));
        // Nothing left at all: the minimum.
        assert_eq!(p.allot(&TimeLeft::absolute(Duration::ZERO), 50), p.minimum);
    }
}
