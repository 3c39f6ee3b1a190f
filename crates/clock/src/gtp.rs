//! What a referee tells GTP engines about time: `time_settings`, `kgs-time_settings` and
//! `time_left`.
//!
//! See [`gtp_time_settings`] for how each control is told to an engine.

use std::{fmt, time::Duration};

use crate::{control::pp_step_limit, Clock, TimeControl};
use ingo_rules::Color;

/// The arguments of GTP `time_settings`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GtpTimeSettings {
    /// Main time in seconds.
    pub main_secs: u64,
    /// Byo-yomi (Canadian period) time in seconds.
    pub byo_secs: u64,
    /// Stones per byo-yomi period; 0 with `byo_secs` 0 means absolute time, 0 with `byo_secs`
    /// > 0 means no time limit.
    pub byo_stones: u32,
}

impl fmt::Display for GtpTimeSettings {
    /// `main byo stones`, ready to follow `time_settings `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {}",
            self.main_secs, self.byo_secs, self.byo_stones
        )
    }
}

fn secs(d: Duration) -> u64 {
    d.as_secs()
}

fn period_secs(d: Duration) -> u64 {
    if d.is_zero() {
        0
    } else {
        d.as_secs().max(1)
    }
}

/// The `time_settings` arguments for `tc`.
///
/// GTP's `time_settings main byo_time byo_stones` can express only absolute time and Canadian
/// overtime, so the other controls are approximated (and the referee enforces the real ones
/// with [`Clock::deadline`]):
///
/// * **Japanese / Ing RS byo-yomi** → `main period 1` (Canadian with one stone per period: each
///   move must fit in a period). `kgs-time_settings byoyomi` states the period count exactly.
/// * **Fischer** → absolute `main`; `time_left` then reports the real remaining time after every
///   move, increments included, so an engine plans with what it truly has, only without
///   counting on future increments (the safe side).
/// * **Ing PP** → absolute `basic`. Overtime costs 2 points (one stone) per sixth of the basic
///   time, more than an engine gains from thinking longer, so an engine should aim to finish
///   within the basic time; telling it about the 3/6 allowance would invite it to spend it.
///   Once in overtime, `time_left` reports the time until the *next* penalty step (or, after
///   the last, until the loss), so the engine hurries to avoid the next 2 points. The referee's
///   engine timeout should still be [`Clock::deadline`], the real loss.
/// * **None** → `0 1 0`: by the GTP spec, byo-yomi time with zero stones means no time limit.
///
/// Seconds are whole numbers, rounded down (an engine told too little is safe); a non-zero
/// period shorter than a second is sent as 1 s, since 0 would change its meaning.
///
/// ```
/// use ingo_clock::gtp_time_settings;
/// let tc = "byoyomi:30m+5x30s".parse().unwrap();
/// assert_eq!(gtp_time_settings(&tc).to_string(), "1800 30 1");
/// let pp = "ing-pp:3h".parse().unwrap();
/// assert_eq!(gtp_time_settings(&pp).to_string(), "10800 0 0");
/// ```
pub fn gtp_time_settings(tc: &TimeControl) -> GtpTimeSettings {
    let (main_secs, byo_secs, byo_stones) = match *tc {
        TimeControl::None => (0, 1, 0),
        TimeControl::Absolute { main } | TimeControl::Fischer { main, .. } => (secs(main), 0, 0),
        TimeControl::IngPenalty { basic } => (secs(basic), 0, 0),
        TimeControl::Japanese { main, period, .. }
        | TimeControl::IngByoYomi {
            basic: main,
            period,
            ..
        } => (secs(main), period_secs(period), 1),
        TimeControl::Canadian {
            main,
            stones,
            period,
        } => (secs(main), period_secs(period), stones),
    };
    GtpTimeSettings {
        main_secs,
        byo_secs,
        byo_stones,
    }
}

/// The arguments of `kgs-time_settings` for `tc`: `none`, `absolute M`, `byoyomi M T N` or
/// `canadian M T S`. Fischer and Ing PP become `absolute`, as in [`gtp_time_settings`].
///
/// ```
/// use ingo_clock::kgs_time_settings;
/// assert_eq!(kgs_time_settings(&"ing-rs:1h+3x30s".parse().unwrap()), "byoyomi 3600 30 3");
/// assert_eq!(kgs_time_settings(&"canadian:20m+25/5m".parse().unwrap()), "canadian 1200 300 25");
/// assert_eq!(kgs_time_settings(&"none".parse().unwrap()), "none");
/// ```
pub fn kgs_time_settings(tc: &TimeControl) -> String {
    match *tc {
        TimeControl::None => "none".to_string(),
        TimeControl::Absolute { main } | TimeControl::Fischer { main, .. } => {
            format!("absolute {}", secs(main))
        }
        TimeControl::IngPenalty { basic } => format!("absolute {}", secs(basic)),
        TimeControl::Japanese {
            main,
            periods,
            period,
        }
        | TimeControl::IngByoYomi {
            basic: main,
            periods,
            period,
        } => format!("byoyomi {} {} {periods}", secs(main), period_secs(period)),
        TimeControl::Canadian {
            main,
            stones,
            period,
        } => format!("canadian {} {} {stones}", secs(main), period_secs(period)),
    }
}

/// Which settings command the engine was given, which decides how `time_left` counts
/// byo-yomi periods.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum GtpDialect {
    /// Standard `time_settings`: byo-yomi is one-stone Canadian, so `time_left` in byo-yomi is
    /// `period_time_left 1`.
    #[default]
    Standard,
    /// `kgs-time_settings`: in byo-yomi `time_left` is `period_time_left periods_left`, the
    /// convention of KGS that engines such as KataGo follow.
    Kgs,
}

/// The arguments of GTP `time_left COLOR TIME STONES` (after the colour).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GtpTimeLeft {
    /// Seconds left (in main time, or in the current period), rounded down.
    pub secs: u64,
    /// 0 in main (or absolute) time; otherwise stones (Canadian) or periods (KGS byo-yomi)
    /// left.
    pub stones: u32,
}

impl fmt::Display for GtpTimeLeft {
    /// `secs stones`, ready to follow `time_left b `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.secs, self.stones)
    }
}

impl Clock {
    /// The `time_left` arguments for `side` at `now` (usually sent just before `genmove`), for
    /// an engine set up with `dialect`. `None` for an untimed side, to which no `time_left` is
    /// sent.
    ///
    /// ```
    /// use ingo_clock::{Clock, GtpDialect};
    /// use ingo_rules::Color;
    /// use std::time::Duration;
    /// let mut clock = Clock::new("byoyomi:1m+5x30s".parse().unwrap()).unwrap();
    /// clock.start(Color::Black, Duration::ZERO).unwrap();
    /// clock.stop(Color::Black, Duration::from_secs(100)).unwrap(); // 60 s main + 40 s: one period gone
    /// let std = clock.gtp_time_left(Color::Black, Duration::from_secs(100), GtpDialect::Standard);
    /// assert_eq!(std.unwrap().to_string(), "30 1");
    /// let kgs = clock.gtp_time_left(Color::Black, Duration::from_secs(100), GtpDialect::Kgs);
    /// assert_eq!(kgs.unwrap().to_string(), "30 4");
    /// ```
    pub fn gtp_time_left(
        &self,
        side: Color,
        now: Duration,
        dialect: GtpDialect,
    ) -> Option<GtpTimeLeft> {
        let left = self.time_left(side, now)?;
        if !left.in_overtime {
            return Some(GtpTimeLeft {
                secs: secs(left.main),
                stones: 0,
            });
        }
        let (secs, stones) = match self.control(side) {
            TimeControl::None => return None,
            TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => (secs(left.main), 0),
            TimeControl::Japanese { .. } | TimeControl::IngByoYomi { .. } => match dialect {
                GtpDialect::Standard => (secs(left.main), u32::from(left.periods_or_stones > 0)),
                GtpDialect::Kgs => (secs(left.main), left.periods_or_stones),
            },
            TimeControl::Canadian { .. } => (secs(left.main), left.periods_or_stones),
            TimeControl::IngPenalty { basic } => {
                // Time until the next penalty step, not until the loss: see the module docs.
                let charged = self
                    .charged(side)
                    .saturating_add(self.current_move(side, now));
                let next = (1..=3)
                    .map(|k| pp_step_limit(basic, k))
                    .find(|&limit| charged <= limit)
                    .map_or(Duration::ZERO, |limit| limit - charged);
                (secs(next), 0)
            }
        };
        Some(GtpTimeLeft { secs, stones })
    }
}
