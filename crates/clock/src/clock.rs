//! The two-player clock: a pure state machine fed explicit times.

use std::time::Duration;

use ingo_rules::{ByColor, Color};

use crate::{
    control::{pp_limit, pp_status, PpStatus, TimeControlError},
    TimeControl,
};

/// What a finished move did to the mover's clock, as returned by [`Clock::stop`].
///
/// When one move does several things, the most important is reported:
/// `Flagged` > `Penalty` / `PeriodUsed` > `EnteredOvertime` > `Ok`. [`Clock::time_left`] and
/// [`Clock::penalty_points`] give the full state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ClockEvent {
    /// Nothing noteworthy: the move was made in time.
    Ok,
    /// The main (basic) time ran out during this move and overtime began. For Ing's PP this
    /// carries the points incurred so far (2, or more if the move also crossed a 1/6 step);
    /// for byo-yomi and Canadian overtime it is 0.
    EnteredOvertime {
        /// Total penalty points now (PP only; otherwise 0).
        penalty_points: u32,
    },
    /// PP: the move crossed a further 1/6 step of the basic time ("再罰二點").
    Penalty {
        /// Total penalty points now: 4 or 6.
        total_points: u32,
    },
    /// Byo-yomi: the move took longer than its period, so one or more periods are gone.
    PeriodUsed {
        /// Periods left, including the one the next move starts in.
        periods_left: u32,
    },
    /// The mover ran out of time and lost ("逾時裁定敗").
    Flagged,
}

/// A side's remaining time, as a GTP `time_left` or an SGF `BL`/`OB` would show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TimeLeft {
    /// In main time: the main time left. In byo-yomi: the time left in the current period.
    /// In Canadian overtime: the time left in the current period. In Ing PP overtime: the time
    /// left before the loss (3/6 of the basic time over).
    pub main: Duration,
    /// Byo-yomi: periods left including the current one. Canadian: stones still to play in
    /// the current period (in main time: the stones of the first period). Otherwise 0.
    pub periods_or_stones: u32,
    /// Whether the main (basic) time is used up.
    pub in_overtime: bool,
}

/// The outcome of [`Clock::late_arrival`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Arrival {
    /// The player may play; this much was taken from their main (basic) time.
    Deducted {
        /// Twice the lateness ("加倍扣除").
        deducted: Duration,
    },
    /// The player is absent (缺席) and loses by forfeit; the clock is left unchanged.
    Forfeit,
}

/// A clock operation that does not fit the clock's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ClockError {
    /// `now` is earlier than a time the clock has already been given.
    #[error("time went backwards: {now:?} is before {last:?}")]
    TimeWentBackwards {
        /// The latest time the clock had been given.
        last: Duration,
        /// The earlier time given now.
        now: Duration,
    },
    /// [`Clock::start`] while a clock is running.
    #[error("cannot start the {side} clock: the {running} clock is already running")]
    AlreadyRunning {
        /// The side whose clock was to start.
        side: Color,
        /// The side whose clock is running.
        running: Color,
    },
    /// [`Clock::stop`] of a clock that is not running.
    #[error("cannot stop the {side} clock: it is not running")]
    NotRunning {
        /// The side whose clock was to stop.
        side: Color,
        /// The side whose clock is running, if any.
        running: Option<Color>,
    },
    /// The game is over on time; the clock takes no more moves.
    #[error("the game is over: {side} has lost on time")]
    Flagged {
        /// The side that lost on time.
        side: Color,
    },
    /// [`Clock::late_arrival`] after the side has started playing.
    #[error("late arrival can only be charged before {side} starts playing")]
    AlreadyStarted {
        /// The side that was to be charged.
        side: Color,
    },
}

/// One side's clock.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct SideClock {
    control: TimeControl,
    /// Sum of the durations of this side's moves (and of the move cut short by a flag fall).
    /// Kept apart from `deducted`, so the time actually spent can be checked and reported.
    used: Duration,
    /// Late-arrival charge, twice the lateness.
    deducted: Duration,
    /// Main (basic) time left; for Fischer it includes the increments.
    main_left: Duration,
    in_overtime: bool,
    /// Byo-yomi: periods left, including the current. Canadian: stones left in this period.
    periods_or_stones: u32,
    /// Canadian: time left in the current period.
    period_left: Duration,
    /// PP: total penalty points (0, 2, 4, 6).
    penalty_points: u32,
    moves: u32,
}

/// How many whole periods a move of `overflow` beyond the main time uses up: a move within
/// a period keeps it, so an overflow of exactly `k` periods uses `k − 1`.
fn periods_consumed(overflow: Duration, period: Duration) -> u128 {
    if overflow.is_zero() {
        0
    } else if period.is_zero() {
        // Unreachable for validated controls; a zero period can never be kept.
        u128::MAX
    } else {
        (overflow.as_nanos() - 1) / period.as_nanos()
    }
}

impl SideClock {
    fn new(control: TimeControl) -> SideClock {
        let main_left = control.main_time().unwrap_or(Duration::ZERO);
        let (in_overtime, periods_or_stones, period_left) = match control {
            TimeControl::Japanese { main, periods, .. }
            | TimeControl::IngByoYomi {
                basic: main,
                periods,
                ..
            } => (main.is_zero(), periods, Duration::ZERO),
            TimeControl::Canadian {
                main,
                stones,
                period,
            } => (main.is_zero(), stones, period),
            _ => (false, 0, Duration::ZERO),
        };
        let mut side = SideClock {
            control,
            used: Duration::ZERO,
            deducted: Duration::ZERO,
            main_left,
            in_overtime,
            periods_or_stones,
            period_left,
            penalty_points: 0,
            moves: 0,
        };
        side.update_pp();
        side
    }

    /// Time charged against the basic time: spent plus late-arrival charge.
    fn charged(&self) -> Duration {
        self.used.saturating_add(self.deducted)
    }

    /// PP: recomputes the derived state from the time charged.
    fn update_pp(&mut self) -> PpStatus {
        let TimeControl::IngPenalty { basic } = self.control else {
            return PpStatus::InBasicTime;
        };
        let status = pp_status(self.charged(), basic);
        self.main_left = basic.saturating_sub(self.charged());
        self.in_overtime = status != PpStatus::InBasicTime;
        self.penalty_points = status.points();
        status
    }

    /// The longest move this side can make now without losing; `None` if unlimited.
    fn budget(&self) -> Option<Duration> {
        let main = if self.in_overtime {
            Duration::ZERO
        } else {
            self.main_left
        };
        match self.control {
            TimeControl::None => None,
            TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => Some(self.main_left),
            TimeControl::Japanese { period, .. } | TimeControl::IngByoYomi { period, .. } => {
                // The last period may be used to its very end: "若干次秒限屆滿" loses, and a
                // period is 屆滿 only once it is over.
                Some(main.saturating_add(period.saturating_mul(self.periods_or_stones)))
            }
            TimeControl::Canadian { period, .. } => Some(if self.in_overtime {
                self.period_left
            } else {
                main.saturating_add(period)
            }),
            TimeControl::IngPenalty { basic } => {
                // "延時超過基時3/6為逾時裁定敗": exactly 3/6 over is still allowed.
                Some(pp_limit(basic).saturating_sub(self.charged()))
            }
        }
    }

    /// Records a move of `d` that fits in [`budget`](Self::budget).
    /// Charges `d` to main time: `None` while main time lasts; otherwise the part of `d` beyond
    /// it (all of `d` once in overtime), entering overtime when main time runs out now.
    fn overflow_of_main(&mut self, d: Duration) -> Option<Duration> {
        if self.in_overtime {
            return Some(d);
        }
        if d < self.main_left {
            self.main_left -= d;
            return None;
        }
        let overflow = d - self.main_left;
        self.main_left = Duration::ZERO;
        self.in_overtime = true;
        Some(overflow)
    }

    fn apply_move(&mut self, d: Duration) -> ClockEvent {
        self.used = self.used.saturating_add(d);
        self.moves = self.moves.saturating_add(1);
        match self.control {
            TimeControl::None => ClockEvent::Ok,
            TimeControl::Absolute { .. } => {
                self.main_left = self.main_left.saturating_sub(d);
                ClockEvent::Ok
            }
            TimeControl::Fischer { increment, max, .. } => {
                let after_move = self.main_left.saturating_sub(d);
                let mut left = after_move.saturating_add(increment);
                if let Some(max) = max {
                    // The cap limits what increments add; it never takes time away.
                    left = left.min(max.max(after_move));
                }
                self.main_left = left;
                ClockEvent::Ok
            }
            TimeControl::Japanese { period, .. } | TimeControl::IngByoYomi { period, .. } => {
                let entering = !self.in_overtime;
                let Some(overflow) = self.overflow_of_main(d) else {
                    return ClockEvent::Ok;
                };
                let consumed = periods_consumed(overflow, period);
                let consumed = u32::try_from(consumed).unwrap_or(u32::MAX);
                self.periods_or_stones = self.periods_or_stones.saturating_sub(consumed);
                if consumed > 0 {
                    ClockEvent::PeriodUsed {
                        periods_left: self.periods_or_stones,
                    }
                } else if entering {
                    ClockEvent::EnteredOvertime { penalty_points: 0 }
                } else {
                    ClockEvent::Ok
                }
            }
            TimeControl::Canadian { stones, period, .. } => {
                let entering = !self.in_overtime;
                let Some(overflow) = self.overflow_of_main(d) else {
                    return ClockEvent::Ok;
                };
                if entering {
                    // The move during which main time ran out is the first of the first
                    // period, as on KGS.
                    self.period_left = period;
                    self.periods_or_stones = stones;
                }
                self.period_left = self.period_left.saturating_sub(overflow);
                self.periods_or_stones = self.periods_or_stones.saturating_sub(1);
                if self.periods_or_stones == 0 {
                    // All the period's stones are played: a fresh period begins.
                    self.periods_or_stones = stones;
                    self.period_left = period;
                }
                if entering {
                    ClockEvent::EnteredOvertime { penalty_points: 0 }
                } else {
                    ClockEvent::Ok
                }
            }
            TimeControl::IngPenalty { .. } => {
                let before = self.penalty_points;
                let was_overtime = self.in_overtime;
                let status = self.update_pp();
                match status {
                    PpStatus::InBasicTime => ClockEvent::Ok,
                    // Not reached within the budget; kept total for safety.
                    PpStatus::Lost => ClockEvent::Flagged,
                    PpStatus::Penalty { points } if !was_overtime => ClockEvent::EnteredOvertime {
                        penalty_points: points,
                    },
                    PpStatus::Penalty { points } if points > before => ClockEvent::Penalty {
                        total_points: points,
                    },
                    PpStatus::Penalty { .. } => ClockEvent::Ok,
                }
            }
        }
    }

    /// Records the flag fall of a move that had lasted `d`.
    fn flag(&mut self, d: Duration) {
        self.used = self.used.saturating_add(d);
        self.main_left = Duration::ZERO;
        self.period_left = Duration::ZERO;
        self.periods_or_stones = 0;
        if let TimeControl::IngPenalty { .. } = self.control {
            self.in_overtime = true;
            self.penalty_points = PpStatus::Lost.points();
        }
    }

    /// What is left if the current move (or none, `d = 0`) stops after `d`.
    fn left_after(&self, d: Duration) -> Option<TimeLeft> {
        let main_phase = |stones_or_periods| {
            (!self.in_overtime && d < self.main_left).then(|| TimeLeft {
                main: self.main_left - d,
                periods_or_stones: stones_or_periods,
                in_overtime: false,
            })
        };
        let overflow = if self.in_overtime {
            d
        } else {
            d.saturating_sub(self.main_left)
        };
        let left = match self.control {
            TimeControl::None => return None,
            TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => TimeLeft {
                main: self.main_left.saturating_sub(d),
                periods_or_stones: 0,
                in_overtime: false,
            },
            TimeControl::Japanese { period, .. } | TimeControl::IngByoYomi { period, .. } => {
                if let Some(left) = main_phase(self.periods_or_stones) {
                    return Some(left);
                }
                let consumed = periods_consumed(overflow, period);
                if consumed >= u128::from(self.periods_or_stones) {
                    TimeLeft {
                        main: Duration::ZERO,
                        periods_or_stones: 0,
                        in_overtime: true,
                    }
                } else {
                    // consumed < periods_or_stones ≤ u32::MAX, so these fit.
                    let into_period = overflow.as_nanos() - consumed * period.as_nanos();
                    TimeLeft {
                        main: period.saturating_sub(crate::control::nanos_to_duration(into_period)),
                        periods_or_stones: self.periods_or_stones - consumed as u32,
                        in_overtime: true,
                    }
                }
            }
            TimeControl::Canadian { stones, period, .. } => {
                if let Some(left) = main_phase(stones) {
                    return Some(left);
                }
                let (period_left, stones_left) = if self.in_overtime {
                    (self.period_left, self.periods_or_stones)
                } else {
                    (period, stones)
                };
                TimeLeft {
                    main: period_left.saturating_sub(overflow),
                    periods_or_stones: stones_left,
                    in_overtime: true,
                }
            }
            TimeControl::IngPenalty { basic } => {
                let charged = self.charged().saturating_add(d);
                if charged < basic {
                    TimeLeft {
                        main: basic - charged,
                        periods_or_stones: 0,
                        in_overtime: false,
                    }
                } else {
                    TimeLeft {
                        main: pp_limit(basic).saturating_sub(charged),
                        periods_or_stones: 0,
                        in_overtime: true,
                    }
                }
            }
        };
        Some(left)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Running {
    side: Color,
    since: Duration,
}

/// A game clock for Black and White: a pure state machine.
///
/// The clock never reads the system time and never sleeps: every operation that moves time
/// forward takes `now`, a [`Duration`] since an origin of the caller's choosing (a referee uses
/// `Instant::now() - game_start`; tests write timelines by hand). Times must not go backwards
/// ([`ClockError::TimeWentBackwards`]), and all arithmetic saturates, so no input panics.
///
/// At most one side's clock runs at a time, which is also what makes "但延時最先到達3/6基時者
/// 裁定敗" (the player who first reaches 3/6 loses) automatic: the first flag fall in time
/// order is the only one, and after it the clock refuses moves.
///
/// ```
/// use ingo_clock::{Clock, ClockEvent, TimeControl};
/// use ingo_rules::Color;
/// use std::time::Duration;
///
/// let min = |m: u64| Duration::from_secs(60 * m);
/// let mut clock = Clock::new("ing-pp:30m".parse().unwrap()).unwrap();
/// clock.start(Color::Black, min(0)).unwrap();
/// assert_eq!(clock.deadline(Color::Black), Some(min(45))); // 30 + 3/6 · 30
/// assert_eq!(clock.press(Color::Black, min(31)).unwrap(), ClockEvent::EnteredOvertime { penalty_points: 2 });
/// assert_eq!(clock.stop(Color::White, min(32)).unwrap(), ClockEvent::Ok);
/// assert_eq!(clock.net_penalty().black, 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Clock {
    sides: ByColor<SideClock>,
    running: Option<Running>,
    /// The latest `now` given to a mutating operation.
    last: Duration,
    flagged: Option<Color>,
}

impl Clock {
    /// A clock with the same control for both sides.
    ///
    /// # Errors
    ///
    /// [`TimeControlError`] if the control is unusable (see [`TimeControl::validate`]).
    pub fn new(control: TimeControl) -> Result<Clock, TimeControlError> {
        Clock::with_controls(control, control)
    }

    /// A clock with a control per side, e.g. for handicap events that give the weaker player
    /// more time.
    ///
    /// # Errors
    ///
    /// [`TimeControlError`] if either control is unusable.
    pub fn with_controls(
        black: TimeControl,
        white: TimeControl,
    ) -> Result<Clock, TimeControlError> {
        black.validate()?;
        white.validate()?;
        Ok(Clock {
            sides: ByColor {
                black: SideClock::new(black),
                white: SideClock::new(white),
            },
            running: None,
            last: Duration::ZERO,
            flagged: None,
        })
    }

    /// The control of `side`.
    pub fn control(&self, side: Color) -> TimeControl {
        self.sides.get(side).control
    }

    /// The side whose clock is running, if any.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|r| r.side)
    }

    /// The side that lost on time, if any.
    pub fn flagged(&self) -> Option<Color> {
        self.flagged
    }

    fn check_time(&self, now: Duration) -> Result<(), ClockError> {
        if now < self.last {
            return Err(ClockError::TimeWentBackwards {
                last: self.last,
                now,
            });
        }
        Ok(())
    }

    fn check_not_flagged(&self) -> Result<(), ClockError> {
        match self.flagged {
            Some(side) => Err(ClockError::Flagged { side }),
            None => Ok(()),
        }
    }

    /// Starts `side`'s clock at `now`: it is `side`'s turn to think.
    ///
    /// The clock does not enforce alternation (a handicap pass or an undo is the referee's
    /// business); it only refuses to run two clocks at once.
    ///
    /// # Errors
    ///
    /// [`ClockError::Flagged`] after a loss on time, [`ClockError::TimeWentBackwards`],
    /// [`ClockError::AlreadyRunning`] if a clock (either side's) is running.
    pub fn start(&mut self, side: Color, now: Duration) -> Result<(), ClockError> {
        self.check_not_flagged()?;
        self.check_time(now)?;
        if let Some(running) = self.running {
            return Err(ClockError::AlreadyRunning {
                side,
                running: running.side,
            });
        }
        self.running = Some(Running { side, since: now });
        self.last = now;
        Ok(())
    }

    /// Stops `side`'s clock at `now`: `side` has made its move. Returns what the move did to
    /// the clock; [`ClockEvent::Flagged`] means `side` has lost on time.
    ///
    /// # Errors
    ///
    /// [`ClockError::Flagged`] after a loss on time, [`ClockError::TimeWentBackwards`],
    /// [`ClockError::NotRunning`] if `side`'s clock is not running.
    pub fn stop(&mut self, side: Color, now: Duration) -> Result<ClockEvent, ClockError> {
        self.check_not_flagged()?;
        self.check_time(now)?;
        let running = match self.running {
            Some(r) if r.side == side => r,
            other => {
                return Err(ClockError::NotRunning {
                    side,
                    running: other.map(|r| r.side),
                })
            }
        };
        let d = now.saturating_sub(running.since);
        self.running = None;
        self.last = now;
        let clock = self.sides.get_mut(side);
        if clock.budget().is_some_and(|budget| d > budget) {
            clock.flag(d);
            self.flagged = Some(side);
            return Ok(ClockEvent::Flagged);
        }
        Ok(clock.apply_move(d))
    }

    /// Stops `side`'s clock and, unless `side` lost on time, starts the opponent's: the button
    /// of a real clock.
    ///
    /// # Errors
    ///
    /// As [`stop`](Self::stop).
    pub fn press(&mut self, side: Color, now: Duration) -> Result<ClockEvent, ClockError> {
        let event = self.stop(side, now)?;
        if event != ClockEvent::Flagged {
            self.start(side.opponent(), now)?;
        }
        Ok(event)
    }

    /// Checks for a flag fall at `now` while a side is thinking, and records it: the side whose
    /// [`deadline`](Self::deadline) has passed loses on time. Returns the side that lost on
    /// time, if any (also an earlier loss).
    ///
    /// # Errors
    ///
    /// [`ClockError::TimeWentBackwards`].
    pub fn check(&mut self, now: Duration) -> Result<Option<Color>, ClockError> {
        self.check_time(now)?;
        if self.flagged.is_some() {
            return Ok(self.flagged);
        }
        self.last = now;
        let Some(running) = self.running else {
            return Ok(None);
        };
        let d = now.saturating_sub(running.since);
        let clock = self.sides.get_mut(running.side);
        if clock.budget().is_some_and(|budget| d > budget) {
            clock.flag(d);
            self.running = None;
            self.flagged = Some(running.side);
        }
        Ok(self.flagged)
    }

    /// The latest `now` at which `side`, whose clock is running, can still stop it without
    /// losing on time; a move finishing exactly then is in time, one nanosecond later is not.
    /// `None` if `side`'s clock is not running or the game is untimed for `side`.
    pub fn deadline(&self, side: Color) -> Option<Duration> {
        let running = self.running.filter(|r| r.side == side)?;
        let budget = self.sides.get(side).budget()?;
        Some(running.since.saturating_add(budget))
    }

    /// What `side` has left if its current move (if its clock runs) stopped at `now`, without
    /// changing the clock. A `now` before the clock's start counts as no time spent. `None`
    /// for an untimed side.
    pub fn time_left(&self, side: Color, now: Duration) -> Option<TimeLeft> {
        let clock = self.sides.get(side);
        if self.flagged == Some(side) {
            return clock.control.is_timed().then_some(TimeLeft {
                main: Duration::ZERO,
                periods_or_stones: 0,
                in_overtime: !matches!(
                    clock.control,
                    TimeControl::Absolute { .. } | TimeControl::Fischer { .. }
                ),
            });
        }
        let d = match self.running {
            Some(r) if r.side == side => now.saturating_sub(r.since),
            _ => Duration::ZERO,
        };
        clock.left_after(d)
    }

    /// The time `side` has spent on its finished moves (and on a move cut short by a flag
    /// fall); a late-arrival charge is not included (see [`deducted`](Self::deducted)).
    pub fn time_used(&self, side: Color) -> Duration {
        self.sides.get(side).used
    }

    /// The late-arrival charge of `side` (twice the lateness).
    pub fn deducted(&self, side: Color) -> Duration {
        self.sides.get(side).deducted
    }

    /// The number of moves `side` has finished in time.
    pub fn moves(&self, side: Color) -> u32 {
        self.sides.get(side).moves
    }

    /// `side`'s penalty points under Ing's PP (0, 2, 4 or 6), as of its last finished move.
    /// Always 0 for other controls.
    pub fn penalty_points(&self, side: Color) -> u32 {
        self.sides.get(side).penalty_points
    }

    /// Penalty points after cancelling: "若雙方皆有罰點其所罰點數得互相抵銷" — each side's
    /// points minus the smaller of the two, so at most one side has any.
    ///
    /// Cancelling changes no result: the count subtracts `pen_B − pen_W` either way.
    pub fn net_penalty(&self) -> ByColor<u32> {
        let b = self.penalty_points(Color::Black);
        let w = self.penalty_points(Color::White);
        let common = b.min(w);
        ByColor {
            black: b - common,
            white: w - common,
        }
    }

    /// Charges `side`, who arrived `late` after the scheduled start, before its first move.
    ///
    /// 第八條: "對局者未按規定開賽時間到達比賽場所，其遲到時間應於「基時」中加倍扣除之" — twice
    /// the lateness is taken from the basic (or, for other controls, the main) time. Absence
    /// (缺席, "超過時限而未出賽") is a forfeit; the text gives no cut-off, so ours is: forfeit when
    /// twice the lateness would use up all the main time left (`2·late ≥ BT` on a fresh clock),
    /// including any lateness at all when there is no main time (pure byo-yomi). An untimed
    /// side is charged nothing. On [`Arrival::Forfeit`] the clock is unchanged.
    ///
    /// For PP the penalty steps stay sixths of the *nominal* basic time: the charge counts as
    /// time already used, as if the player's clock had run twice as long.
    ///
    /// # Errors
    ///
    /// [`ClockError::Flagged`] after a loss on time, [`ClockError::AlreadyStarted`] once
    /// `side`'s clock has run.
    pub fn late_arrival(&mut self, side: Color, late: Duration) -> Result<Arrival, ClockError> {
        self.check_not_flagged()?;
        let running = self.running.is_some_and(|r| r.side == side);
        let clock = self.sides.get_mut(side);
        if running || clock.moves > 0 || !clock.used.is_zero() {
            return Err(ClockError::AlreadyStarted { side });
        }
        if !clock.control.is_timed() || late.is_zero() {
            return Ok(Arrival::Deducted {
                deducted: Duration::ZERO,
            });
        }
        let charge = late.saturating_mul(2);
        if charge >= clock.main_left || clock.in_overtime {
            return Ok(Arrival::Forfeit);
        }
        clock.deducted = clock.deducted.saturating_add(charge);
        if let TimeControl::IngPenalty { .. } = clock.control {
            clock.update_pp();
        } else {
            clock.main_left -= charge;
        }
        Ok(Arrival::Deducted { deducted: charge })
    }

    /// PP: the total time used (spent + late charge) of `side`, for the GTP mapping.
    pub(crate) fn charged(&self, side: Color) -> Duration {
        self.sides.get(side).charged()
    }

    /// The running side's current move time at `now`, or zero.
    pub(crate) fn current_move(&self, side: Color, now: Duration) -> Duration {
        match self.running {
            Some(r) if r.side == side => now.saturating_sub(r.since),
            _ => Duration::ZERO,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    #[test]
    fn periods_consumed_keeps_a_period_used_exactly() {
        let p = s(30);
        assert_eq!(periods_consumed(Duration::ZERO, p), 0);
        assert_eq!(periods_consumed(s(30), p), 0);
        assert_eq!(periods_consumed(s(30) + Duration::from_nanos(1), p), 1);
        assert_eq!(periods_consumed(s(60), p), 1);
        assert_eq!(periods_consumed(s(61), p), 2);
        assert_eq!(periods_consumed(s(1), Duration::ZERO), u128::MAX);
    }

    #[test]
    fn fischer_cap_never_takes_time_away() {
        let mut c = SideClock::new(TimeControl::Fischer {
            main: s(100),
            increment: s(10),
            max: Some(s(50)),
        });
        // Above the cap to begin with: the move's time goes, no increment comes.
        c.apply_move(s(5));
        assert_eq!(c.main_left, s(95));
        c.apply_move(s(60));
        assert_eq!(c.main_left, s(45));
        c.apply_move(Duration::ZERO);
        assert_eq!(c.main_left, s(50));
    }

    #[test]
    fn invalid_states_do_not_panic() {
        // Bypass validation: a zero period and zero basic time are handled, not divided by.
        for control in [
            TimeControl::Japanese {
                main: s(1),
                periods: 0,
                period: Duration::ZERO,
            },
            TimeControl::Canadian {
                main: Duration::ZERO,
                stones: 0,
                period: Duration::ZERO,
            },
            TimeControl::IngPenalty {
                basic: Duration::ZERO,
            },
        ] {
            let mut c = SideClock::new(control);
            for d in [Duration::ZERO, s(2), Duration::MAX] {
                let _ = c.budget();
                let _ = c.left_after(d);
                let _ = c.clone().apply_move(d);
            }
            c.flag(Duration::MAX);
            let _ = c.left_after(Duration::MAX);
        }
    }
}
