//! Time management: how long to think about one move, given what is left on the clock and how
//! far the game has gone; when a search may stop before its time is up; and when a lost game is
//! lost widely enough to resign.
//!
//! Everything here is a pure function of the clock and the search's figures, so that each rule
//! is tested by giving it a state and checking the answer, with no time measured.

use std::time::Duration;

use ingo_rules::{Color, Game, Move};

use crate::playout::{self, PlayoutPolicy};
use crate::rng::Rng;

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
    /// The share of a move's even part of the main time spent in the opening (the first 4% of
    /// the board's points in moves), where playouts tell least; see [`TimePolicy::stage_factor`].
    pub opening: f64,
    /// The share spent in the middle game (from 12% to 40% of the points in moves), where the
    /// fights are.
    pub middle: f64,
    /// The share spent late (from 70% of the points in moves on), when the moves left are few and
    /// small.
    pub late: f64,
    /// A search on the clock may stop once this share of its time is spent and the most visited
    /// move has [`TimePolicy::dominance`] times the runner-up's visits.
    pub stop_share: f64,
    /// How many times the runner-up's visits the best move needs to stop a clock search early;
    /// `0` turns this rule off (the rule that the best move cannot be overtaken stays).
    pub dominance: f64,
    /// The most playouts a forced move gets: when the only board play left (that fills no eye of
    /// one's own) is one, the search only has it and the pass to compare.
    pub forced_playouts: u64,
}

/// The clock and the game at one move, for [`TimePolicy::allot_move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveClock {
    /// What is left on the player's clock.
    pub left: TimeLeft,
    /// Empty points of the board.
    pub empty_points: usize,
    /// Points of the board.
    pub points: usize,
    /// Moves played so far (passes included).
    pub move_number: usize,
}

impl Default for TimePolicy {
    fn default() -> Self {
        TimePolicy {
            min_moves_left: 20,
            byo_fraction: 0.8,
            safety_margin: Duration::from_millis(500),
            minimum: Duration::from_millis(5),
            opening: 0.6,
            middle: 1.5,
            late: 0.7,
            stop_share: 0.3,
            dominance: 6.0,
            forced_playouts: 64,
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
        self.allot_with(left, empty_points, 1.0)
    }

    /// The share of a move's even part of the main time to spend at move `move_number` on a
    /// board of `points` points: [`TimePolicy::opening`] for the first 4% of the points in
    /// moves (about 14 on 19×19, 3 on 9×9), rising to [`TimePolicy::middle`] by 12% and kept to
    /// 40%, falling to [`TimePolicy::late`] by 70% and kept after it; straight lines between.
    ///
    /// ```
    /// use ingo_player::TimePolicy;
    ///
    /// let p = TimePolicy::default();
    /// assert_eq!(p.stage_factor(0, 361), p.opening);
    /// assert_eq!(p.stage_factor(100, 361), p.middle);
    /// assert_eq!(p.stage_factor(300, 361), p.late);
    /// ```
    pub fn stage_factor(&self, move_number: usize, points: usize) -> f64 {
        let x = move_number as f64 / points.max(1) as f64;
        let lerp = |a: f64, b: f64, x0: f64, x1: f64| a + (b - a) * (x - x0) / (x1 - x0);
        let f = if x <= 0.04 {
            self.opening
        } else if x < 0.12 {
            lerp(self.opening, self.middle, 0.04, 0.12)
        } else if x <= 0.40 {
            self.middle
        } else if x < 0.70 {
            lerp(self.middle, self.late, 0.40, 0.70)
        } else {
            self.late
        };
        if f.is_finite() {
            f.max(0.0)
        } else {
            1.0
        }
    }

    /// The thinking time for the next move: [`TimePolicy::allot`] with the main-time part
    /// weighted by the stage of the game ([`TimePolicy::stage_factor`]): less in the opening,
    /// more in the middle game, less late. Byo-yomi is used as [`TimePolicy::allot`] uses it
    /// (a period's time does not carry over), and the same caps apply.
    ///
    /// ```
    /// use std::time::Duration;
    /// use ingo_player::{MoveClock, TimeLeft, TimePolicy};
    ///
    /// let p = TimePolicy::default();
    /// let clock = |move_number, empty_points| MoveClock {
    ///     left: TimeLeft::absolute(Duration::from_secs(600)),
    ///     empty_points,
    ///     points: 361,
    ///     move_number,
    /// };
    /// // The same clock and board at move 0 and at move 100: three halves of the even share in
    /// // the middle game, three fifths in the opening.
    /// assert_eq!(p.allot_move(&clock(100, 300)), Duration::from_secs(9));
    /// assert_eq!(p.allot_move(&clock(0, 300)), Duration::from_millis(3_600));
    /// ```
    pub fn allot_move(&self, clock: &MoveClock) -> Duration {
        let factor = self.stage_factor(clock.move_number, clock.points);
        self.allot_with(&clock.left, clock.empty_points, factor)
    }

    /// [`TimePolicy::allot`] with the main-time part multiplied by `factor`.
    fn allot_with(&self, left: &TimeLeft, empty_points: usize, factor: f64) -> Duration {
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
            (
                (left.main / moves_left).mul_f64(factor) + byo_part,
                left.main + byo_share,
            )
        } else {
            (byo_part, byo_share)
        };
        want.min(cap.saturating_sub(self.safety_margin))
            .max(self.minimum)
    }
}

impl TimePolicy {
    /// Whether a search may stop now: the most visited root move has `best` visits, the
    /// runner-up `second`, about `remaining` playouts are still to come, and `elapsed` of the
    /// search's `allotted` time is spent (`allotted`: `None` when no clock sets the time).
    ///
    /// * Always when the best move cannot be overtaken: `best > second + remaining`, even if
    ///   every remaining playout went to the runner-up.
    /// * On the clock, also when [`TimePolicy::stop_share`] of the time is spent and `best` is at
    ///   least [`TimePolicy::dominance`] times `second` (and at least 100 visits): the search
    ///   would almost surely choose the same move, and the time saved stays on the clock for
    ///   the moves that need it. Not without a clock: a fixed time per move saved is lost.
    pub fn can_stop(
        &self,
        best: u64,
        second: u64,
        remaining: u64,
        elapsed: Duration,
        allotted: Option<Duration>,
    ) -> bool {
        if best > second.saturating_add(remaining) {
            return true;
        }
        let Some(allotted) = allotted else {
            return false;
        };
        let share = if self.stop_share.is_finite() {
            self.stop_share.clamp(0.0, 1.0)
        } else {
            1.0
        };
        self.dominance > 0.0
            && best >= 100
            && elapsed >= allotted.mul_f64(share)
            && best as f64 >= self.dominance * second as f64
    }

    /// The playout budget of a move when the player has `board_plays` board plays that fill no
    /// eye of its own: [`TimePolicy::forced_playouts`] when it has just one (the search then
    /// compares it with the pass only), `None` (the budget as it is) otherwise.
    pub fn forced_budget(&self, board_plays: usize) -> Option<u64> {
        (board_plays == 1).then_some(self.forced_playouts.max(1))
    }
}

/// When to resign. Resignation is an act, not a move ([`crate::Action::Resign`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResignPolicy {
    /// Resign when the best move's value ([`crate::SearchInfo::win_rate`]) is below this (for example
    /// 0.05).
    pub below: f64,
    /// ...and the search made at least this many playouts, so that the estimate means something.
    pub min_playouts: u64,
    /// ...and the estimated loss is at least this many points (the mean margin of a few
    /// playouts after the best move, [`ResignPolicy::resigns`]).
    pub min_margin: f64,
    /// ...and the game is past its opening: this share of the board's points in moves played
    /// or stones on the board.
    pub opening: f64,
}

impl Default for ResignPolicy {
    /// Below 10% after 2,000 playouts, a loss of 15 points or more, past the first fifth of the
    /// board (72 moves on 19×19, 16 on 9×9).
    fn default() -> Self {
        ResignPolicy {
            below: 0.10,
            min_playouts: 2_000,
            min_margin: 15.0,
            opening: 0.2,
        }
    }
}

impl ResignPolicy {
    /// Whether to resign: the best move's value `win_rate` (about the chance of winning) is
    /// below [`ResignPolicy::below`] after at least [`ResignPolicy::min_playouts`] playouts, the
    /// game is past its opening ([`ResignPolicy::opening`] of the board's `points`, counted in
    /// `progress`: the moves played or the stones on the board, whichever is more, so that a
    /// set-up position is not an opening), and the estimated loss, `margin()` points for the player (negative
    /// when losing; asked only when the rest holds, as it costs playouts), is at least
    /// [`ResignPolicy::min_margin`].
    ///
    /// ```
    /// use ingo_player::ResignPolicy;
    ///
    /// let r = ResignPolicy::default();
    /// // Lost by 30 points at move 150 of 19x19 with 3% of playouts won: resign.
    /// assert!(r.resigns(0.03, 10_000, 150, 361, || -30.0));
    /// // The same loss at move 20: the opening, never.
    /// assert!(!r.resigns(0.03, 10_000, 20, 361, || -30.0));
    /// // Losing by 5 points only: play on.
    /// assert!(!r.resigns(0.03, 10_000, 150, 361, || -5.0));
    /// ```
    pub fn resigns(
        &self,
        win_rate: f64,
        playouts: u64,
        progress: usize,
        points: usize,
        margin: impl FnOnce() -> f64,
    ) -> bool {
        let opening = (self.opening.clamp(0.0, 1.0) * points as f64) as usize;
        playouts >= self.min_playouts
            && win_rate < self.below
            && progress >= opening
            && -margin() >= self.min_margin
    }
}

/// The mean margin in points, for the player to move in `game`, of `n` playouts of `policy`
/// after it plays `mv`: the estimate of the loss a resignation looks at. 0 when `mv` cannot be
/// played or `n` is 0.
pub(crate) fn estimate_margin(
    game: &Game,
    mv: Move,
    rng: &mut Rng,
    policy: PlayoutPolicy,
    n: u32,
) -> f64 {
    let me = game.to_move();
    let mut start = game.clone();
    if n == 0 || start.play(mv).is_err() {
        return 0.0;
    }
    let mut g = start.clone();
    let mut sum = 0i64;
    for _ in 0..n {
        g.clone_from(&start);
        let tally = playout::run_with(&mut g, rng, policy, |_, _| {});
        sum += i64::from(tally.margin_halves);
    }
    let black = sum as f64 / 2.0 / f64::from(n);
    if me == Color::Black {
        black
    } else {
        -black
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

    fn clock(main: f64, empty_points: usize, points: usize, move_number: usize) -> MoveClock {
        MoveClock {
            left: TimeLeft::absolute(secs(main)),
            empty_points,
            points,
            move_number,
        }
    }

    #[test]
    fn the_middle_game_gets_more_time_than_the_opening_and_the_end() {
        let p = TimePolicy::default();
        // One clock, one board: only the move number differs.
        let at = |m| p.allot_move(&clock(600.0, 300, 361, m));
        let (opening, middle, late) = (at(5), at(90), at(280));
        assert!(
            middle > opening && middle > late,
            "{opening:?} {middle:?} {late:?}"
        );
        // 600 s / 100 moves left = 6 s even: 0.6, 1.5 and 0.7 of it.
        assert_eq!(opening, secs(3.6));
        assert_eq!(middle, secs(9.0));
        assert_eq!(late, secs(4.2));
        // Between the stages the factor moves in straight lines: move 29 of 361 is half-way
        // from the opening (4%, 14.44 moves) to the middle game (12%, 43.32 moves).
        let f = p.stage_factor(29, 361);
        assert!((f - 1.05).abs() < 0.01, "{f}");
        // 9x9: the middle game is from move 10 to move 32.
        assert_eq!(p.stage_factor(20, 81), p.middle);
        // The caps still hold: 1 s left gets at most 1 s less the margin.
        assert!(p.allot_move(&clock(1.0, 300, 361, 90)) <= secs(0.5));
    }

    #[test]
    fn byo_yomi_is_not_weighted_by_the_stage() {
        let p = TimePolicy::default();
        let byo = TimeLeft {
            main: Duration::ZERO,
            byo_period: secs(30.0),
            byo_stones: 1,
        };
        for m in [0, 90, 280] {
            let c = MoveClock {
                left: byo,
                empty_points: 200,
                points: 361,
                move_number: m,
            };
            assert_eq!(p.allot_move(&c), secs(24.0));
        }
    }

    #[test]
    fn a_search_stops_when_the_best_move_cannot_be_overtaken_or_dominates_on_the_clock() {
        let p = TimePolicy::default();
        let t = Some(secs(10.0));
        // 700 against 300 with 500 to come: the runner-up could still pass it.
        assert!(!p.can_stop(700, 300, 500, secs(1.0), None));
        // With 500 to come and 801 visits ahead, it cannot.
        assert!(p.can_stop(1_200, 300, 500, secs(1.0), None));
        // On the clock, 6 times the runner-up's visits after 30% of the time: stop.
        assert!(p.can_stop(6_000, 1_000, 20_000, secs(3.0), t));
        // Not before 30% of the time, nor at 5 times, nor without a clock.
        assert!(!p.can_stop(6_000, 1_000, 20_000, secs(2.9), t));
        assert!(!p.can_stop(5_000, 1_000, 20_000, secs(5.0), t));
        assert!(!p.can_stop(6_000, 1_000, 20_000, secs(5.0), None));
        // Nor on a handful of visits.
        assert!(!p.can_stop(60, 0, 20_000, secs(5.0), t));
        // Dominance 0 turns the rule off.
        let off = TimePolicy {
            dominance: 0.0,
            ..p
        };
        assert!(!off.can_stop(6_000, 0, 20_000, secs(9.0), t));
    }

    #[test]
    fn a_forced_move_gets_a_small_budget() {
        let p = TimePolicy::default();
        assert_eq!(p.forced_budget(1), Some(64));
        assert_eq!(p.forced_budget(2), None);
        assert_eq!(p.forced_budget(200), None);
    }

    #[test]
    fn resignation_needs_a_wide_margin_and_never_comes_in_the_opening() {
        let r = ResignPolicy::default();
        assert!(r.resigns(0.05, 5_000, 100, 361, || -20.0));
        // Each condition alone keeps the game going.
        assert!(!r.resigns(0.05, 1_999, 100, 361, || -20.0));
        assert!(!r.resigns(0.10, 5_000, 100, 361, || -20.0));
        // The opening is the first 72 moves (a fifth of 361 points).
        assert!(!r.resigns(0.05, 5_000, 71, 361, || -20.0));
        assert!(!r.resigns(0.05, 5_000, 100, 361, || -14.9));
        // 9x9: the opening is the first 16 moves.
        assert!(!r.resigns(0.05, 5_000, 15, 81, || -40.0));
        assert!(r.resigns(0.05, 5_000, 16, 81, || -40.0));
        // The margin is estimated only when everything else says resign.
        let mut asked = false;
        assert!(!r.resigns(0.5, 5_000, 100, 361, || {
            asked = true;
            -50.0
        }));
        assert!(!asked);
    }

    #[test]
    fn the_margin_estimate_is_the_movers() {
        use ingo_rules::{Board, Rules, Setup};
        // Both sides alive with two eyes, nothing left to play: every playout passes at once,
        // so the estimate is the count, Black ahead by 35 - 14 less komi.
        let board = Board::from_ascii(
            "
            . X . X X X X
            X X X X X X X
            X X X X X X X
            X X X X X X X
            X X X X X X X
            O O O O O O O
            . O . O O O O",
        )
        .expect("diagram");
        let game = |to_move| {
            Game::new(
                Setup {
                    board: board.clone(),
                    to_move,
                    handicap_passes: 0,
                },
                Rules::ing(),
            )
        };
        let black_ahead = f64::from(game(Color::Black).count(&[]).margin_halves) / 2.0;
        assert!(black_ahead > 10.0, "{black_ahead}");
        let mut rng = Rng::new(4);
        for policy in [PlayoutPolicy::Light, PlayoutPolicy::Heavy] {
            let w = estimate_margin(&game(Color::White), Move::Pass, &mut rng, policy, 8);
            assert_eq!(w, -black_ahead);
            let b = estimate_margin(&game(Color::Black), Move::Pass, &mut rng, policy, 8);
            assert_eq!(b, black_ahead);
        }
        assert_eq!(
            estimate_margin(
                &game(Color::White),
                Move::Pass,
                &mut rng,
                PlayoutPolicy::Light,
                0
            ),
            0.0
        );
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
