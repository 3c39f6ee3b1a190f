//! Time controls: plain `Copy` data with a compact text form.

use std::{fmt, str::FromStr, time::Duration};

/// How much time each player has, and what happens when it runs out.
///
/// The compact text form ([`Display`](fmt::Display) / [`FromStr`]) is:
///
/// | variant | text |
/// |---|---|
/// | [`None`](TimeControl::None) | `none` |
/// | [`Absolute`](TimeControl::Absolute) | `absolute:30m` |
/// | [`Japanese`](TimeControl::Japanese) | `byoyomi:30m+5x30s` |
/// | [`Canadian`](TimeControl::Canadian) | `canadian:20m+25/5m` |
/// | [`Fischer`](TimeControl::Fischer) | `fischer:10m+10s`, `fischer:10m+10s[max 20m]` |
/// | [`IngPenalty`](TimeControl::IngPenalty) | `ing-pp:3h` |
/// | [`IngByoYomi`](TimeControl::IngByoYomi) | `ing-rs:1h+3x30s` |
///
/// Durations are sums of `<number><unit>` with units `h`, `m`, `s`, `ms`, `us`, `ns`
/// (`1h30m`, `90s`, `500ms`); a bare number is seconds. Kind names are case-insensitive and
/// also accept the aliases `untimed`, `sudden-death`, `japanese`, `byo-yomi`, `pp` and `rs`.
/// Display writes the canonical form, so `ing-pp:180m` prints as `ing-pp:3h`.
///
/// ```
/// use ingo_clock::TimeControl;
/// use std::time::Duration;
///
/// let tc: TimeControl = "ing-pp:180m".parse().unwrap();
/// assert_eq!(tc, TimeControl::IngPenalty { basic: Duration::from_secs(3 * 3600) });
/// assert_eq!(tc.to_string(), "ing-pp:3h");
/// assert_eq!("canadian:20m+25/5m".parse::<TimeControl>().unwrap().to_string(), "canadian:20m+25/5m");
/// ```
///
/// With the `serde` feature a control (de)serializes as this text, and deserializing
/// validates it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "String", try_from = "String"))]
pub enum TimeControl {
    /// No time limit.
    None,
    /// Sudden death: the player who uses more than `main` loses.
    Absolute {
        /// The whole time for the game.
        main: Duration,
    },
    /// Japanese byo-yomi: after `main`, `periods` periods of `period` each. A move made within
    /// a period keeps it; a move that takes longer uses it up; using the last one loses.
    Japanese {
        /// Main time.
        main: Duration,
        /// Number of byo-yomi periods.
        periods: u32,
        /// Length of one period.
        period: Duration,
    },
    /// Canadian overtime: after `main`, `stones` moves must be made within each `period`;
    /// a period with its stones made starts afresh.
    Canadian {
        /// Main time.
        main: Duration,
        /// Moves to make in each period.
        stones: u32,
        /// Length of one period.
        period: Duration,
    },
    /// Fischer: `increment` is added to the remaining time after each move, up to `max`.
    Fischer {
        /// Time at the start.
        main: Duration,
        /// Added after each move.
        increment: Duration,
        /// The remaining time never grows beyond this through increments (if set).
        max: Option<Duration>,
    },
    /// Ing's basic time with penalty-point overtime (罰點延時, "PP", 第七條):
    /// "基時用完後，罰二點，延時超過基時1/6再罰二點，共四點，延時超過基時2/6再罰二點，共六點。
    /// 延時超過基時3/6為逾時裁定敗。"
    IngPenalty {
        /// The basic time (基本時限, BT).
        basic: Duration,
    },
    /// Ing's basic time with byo-yomi overtime (讀秒延時, "RS", 第七條):
    /// "基時用完後，規定以若干秒為一次「秒限」，若干次「秒限」屆滿，為逾時裁定敗。"
    /// Periods behave as in [`Japanese`](TimeControl::Japanese).
    IngByoYomi {
        /// The basic time (基本時限, BT).
        basic: Duration,
        /// Number of periods (秒限).
        periods: u32,
        /// Length of one period.
        period: Duration,
    },
}

/// Why a [`TimeControl`] cannot be used for a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TimeControlError {
    /// Penalty-point overtime is measured in sixths of the basic time, so there must be some.
    #[error("penalty-point overtime needs a basic time greater than zero")]
    ZeroBasic,
    /// Byo-yomi with no period is absolute time; say so instead.
    #[error("byo-yomi needs at least one period (use absolute time for none)")]
    NoPeriods,
    /// A period of zero length can never be kept.
    #[error("an overtime period must be longer than zero")]
    ZeroPeriod,
    /// Canadian overtime with no stone per period has no meaning.
    #[error("canadian overtime needs at least one stone per period")]
    NoStones,
}

impl TimeControl {
    /// Checks that the control makes sense: PP needs a basic time, byo-yomi at least one
    /// period, Canadian at least one stone, and periods must be longer than zero.
    ///
    /// # Errors
    ///
    /// The first problem found, as a [`TimeControlError`].
    pub fn validate(&self) -> Result<(), TimeControlError> {
        match *self {
            TimeControl::None | TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => {
                Ok(())
            }
            TimeControl::IngPenalty { basic } => {
                if basic.is_zero() {
                    Err(TimeControlError::ZeroBasic)
                } else {
                    Ok(())
                }
            }
            TimeControl::Japanese {
                periods, period, ..
            }
            | TimeControl::IngByoYomi {
                periods, period, ..
            } => {
                if periods == 0 {
                    Err(TimeControlError::NoPeriods)
                } else if period.is_zero() {
                    Err(TimeControlError::ZeroPeriod)
                } else {
                    Ok(())
                }
            }
            TimeControl::Canadian { stones, period, .. } => {
                if stones == 0 {
                    Err(TimeControlError::NoStones)
                } else if period.is_zero() {
                    Err(TimeControlError::ZeroPeriod)
                } else {
                    Ok(())
                }
            }
        }
    }

    /// The main (or basic) time; `None` when the game is untimed.
    pub fn main_time(&self) -> Option<Duration> {
        match *self {
            TimeControl::None => None,
            TimeControl::Absolute { main }
            | TimeControl::Japanese { main, .. }
            | TimeControl::Canadian { main, .. }
            | TimeControl::Fischer { main, .. } => Some(main),
            TimeControl::IngPenalty { basic } | TimeControl::IngByoYomi { basic, .. } => {
                Some(basic)
            }
        }
    }

    /// Whether there is any time limit.
    pub fn is_timed(&self) -> bool {
        !matches!(self, TimeControl::None)
    }
}

/// Where a player stands under penalty-point overtime (PP); see [`pp_status`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PpStatus {
    /// Still within the basic time: no penalty.
    InBasicTime,
    /// In overtime, with this many penalty points in total (2, 4 or 6).
    Penalty {
        /// Total penalty points.
        points: u32,
    },
    /// More than 3/6 of the basic time over: lost on time.
    Lost,
}

impl PpStatus {
    /// The penalty points: 0 in basic time, 2/4/6 in overtime, 6 once lost.
    pub fn points(self) -> u32 {
        match self {
            PpStatus::InBasicTime => 0,
            PpStatus::Penalty { points } => points,
            PpStatus::Lost => 6,
        }
    }
}

/// The penalty-point status of a player who has used `used` (including any late-arrival
/// charge) against a basic time `basic`.
///
/// 第七條: "基時用完後，罰二點，延時超過基時1/6再罰二點，共四點，延時超過基時2/6再罰二點，
/// 共六點。延時超過基時3/6為逾時裁定敗。" With `e = used − basic`: `used ≥ basic` → 2 points
/// ("用完": exactly at the basic time it is used up); `e > basic/6` → 4; `e > 2·basic/6` → 6;
/// `e > 3·basic/6` → lost ("超過": strictly more). The comparisons are exact in nanoseconds
/// (`6e > k·basic`), so a basic time not divisible by 6 is not rounded.
///
/// ```
/// use ingo_clock::{pp_status, PpStatus};
/// use std::time::Duration;
/// let min = |m: u64| Duration::from_secs(60 * m);
/// let bt = min(180);
/// assert_eq!(pp_status(min(179), bt), PpStatus::InBasicTime);
/// assert_eq!(pp_status(min(180), bt), PpStatus::Penalty { points: 2 });
/// assert_eq!(pp_status(min(210), bt), PpStatus::Penalty { points: 2 });
/// assert_eq!(pp_status(min(210) + Duration::from_secs(1), bt), PpStatus::Penalty { points: 4 });
/// assert_eq!(pp_status(min(270), bt), PpStatus::Penalty { points: 6 });
/// assert_eq!(pp_status(min(270) + Duration::from_nanos(1), bt), PpStatus::Lost);
/// ```
pub fn pp_status(used: Duration, basic: Duration) -> PpStatus {
    if used < basic {
        return PpStatus::InBasicTime;
    }
    // u128 nanoseconds: 6 × (u64::MAX seconds in ns) still fits, so nothing saturates here.
    let e = used.as_nanos() - basic.as_nanos();
    let bt = basic.as_nanos();
    if 6 * e > 3 * bt {
        PpStatus::Lost
    } else if 6 * e > 2 * bt {
        PpStatus::Penalty { points: 6 }
    } else if 6 * e > bt {
        PpStatus::Penalty { points: 4 }
    } else {
        PpStatus::Penalty { points: 2 }
    }
}

/// The largest total time used (`used`, including late-arrival charge) at which PP
/// does not lose: `basic + ⌊basic/2⌋` in nanoseconds, since `6e > 3·basic` ⇔ `e > basic/2`.
pub(crate) fn pp_limit(basic: Duration) -> Duration {
    let bt = basic.as_nanos();
    nanos_to_duration(bt + bt / 2)
}

/// The largest total time used with at most the `k`-th penalty step (k = 1, 2, 3): the
/// boundary `basic + ⌊k·basic/6⌋`.
pub(crate) fn pp_step_limit(basic: Duration, k: u32) -> Duration {
    let bt = basic.as_nanos();
    nanos_to_duration(bt + u128::from(k) * bt / 6)
}

/// A `Duration` from nanoseconds, saturating at [`Duration::MAX`].
pub(crate) fn nanos_to_duration(nanos: u128) -> Duration {
    const NANOS_PER_SEC: u128 = 1_000_000_000;
    match u64::try_from(nanos / NANOS_PER_SEC) {
        // The remainder is below 10^9, so it fits in u32.
        Ok(secs) => Duration::new(secs, (nanos % NANOS_PER_SEC) as u32),
        Err(_) => Duration::MAX,
    }
}

// ---------------------------------------------------------------------------------------------
// Text form

/// Writes a duration as `1h30m`, `45s`, `1m500ms`, `0s`: every non-zero unit from hours to
/// nanoseconds, so that any duration round-trips through [`parse_duration`].
pub(crate) fn fmt_duration(d: Duration, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if d.is_zero() {
        return f.write_str("0s");
    }
    let secs = d.as_secs();
    let nanos = d.subsec_nanos();
    let parts: [(u64, &str); 6] = [
        (secs / 3600, "h"),
        (secs / 60 % 60, "m"),
        (secs % 60, "s"),
        (u64::from(nanos / 1_000_000), "ms"),
        (u64::from(nanos / 1_000 % 1_000), "us"),
        (u64::from(nanos % 1_000), "ns"),
    ];
    for (value, unit) in parts {
        if value != 0 {
            write!(f, "{value}{unit}")?;
        }
    }
    Ok(())
}

/// A duration wrapper for formatting in the compact text form.
pub(crate) struct Compact(pub Duration);

impl fmt::Display for Compact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_duration(self.0, f)
    }
}

/// Parses `3d`, `1h30m`, `90s`, `500ms`, or a bare number of seconds. Overflow is an error.
pub(crate) fn parse_duration(s: &str) -> Option<Duration> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    if s.bytes().all(|b| b.is_ascii_digit()) {
        return s.parse::<u64>().ok().map(Duration::from_secs);
    }
    let mut total = Duration::ZERO;
    let mut rest = s;
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        let value: u64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let letters = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
        let unit = rest[..letters].to_ascii_lowercase();
        rest = &rest[letters..];
        let part = match unit.as_str() {
            // Days, for correspondence: `fischer:3d+3d[max 3d]` is three days a move.
            "d" => Duration::from_secs(value.checked_mul(86_400)?),
            "h" => Duration::from_secs(value.checked_mul(3600)?),
            "m" => Duration::from_secs(value.checked_mul(60)?),
            "s" => Duration::from_secs(value),
            "ms" => Duration::from_millis(value),
            "us" => Duration::from_micros(value),
            "ns" => Duration::from_nanos(value),
            // A trailing number without a unit ("1m30") is ambiguous, so it is refused.
            _ => return None,
        };
        total = total.checked_add(part)?;
    }
    Some(total)
}

/// Why a time control text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseTimeControlError {
    /// The part before `:` names no known kind of time control.
    #[error(
        "unknown time control {0:?}: expected none, absolute:M, byoyomi:M+NxS, \
         canadian:M+N/T, fischer:M+I[max X], ing-pp:BT or ing-rs:BT+NxS"
    )]
    UnknownKind(String),
    /// The kind is known but the rest does not have the expected shape.
    #[error("invalid time control {text:?}: expected {expected}")]
    Syntax {
        /// The text that was read.
        text: String,
        /// The shape it should have had.
        expected: &'static str,
    },
    /// A duration could not be read.
    #[error("invalid duration {0:?}: expected e.g. 90s, 30m, 1h30m, 500ms or a number of seconds")]
    Duration(String),
    /// A count of periods or stones could not be read.
    #[error("invalid count {0:?}: expected a whole number")]
    Count(String),
    /// The text was read but describes an unusable control.
    #[error("invalid time control: {0}")]
    Invalid(#[from] TimeControlError),
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::None => f.write_str("none"),
            TimeControl::Absolute { main } => write!(f, "absolute:{}", Compact(main)),
            TimeControl::Japanese {
                main,
                periods,
                period,
            } => write!(f, "byoyomi:{}+{periods}x{}", Compact(main), Compact(period)),
            TimeControl::Canadian {
                main,
                stones,
                period,
            } => write!(f, "canadian:{}+{stones}/{}", Compact(main), Compact(period)),
            TimeControl::Fischer {
                main,
                increment,
                max,
            } => {
                write!(f, "fischer:{}+{}", Compact(main), Compact(increment))?;
                if let Some(max) = max {
                    write!(f, "[max {}]", Compact(max))?;
                }
                Ok(())
            }
            TimeControl::IngPenalty { basic } => write!(f, "ing-pp:{}", Compact(basic)),
            TimeControl::IngByoYomi {
                basic,
                periods,
                period,
            } => write!(f, "ing-rs:{}+{periods}x{}", Compact(basic), Compact(period)),
        }
    }
}

impl From<TimeControl> for String {
    fn from(tc: TimeControl) -> String {
        tc.to_string()
    }
}

impl TryFrom<String> for TimeControl {
    type Error = ParseTimeControlError;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

fn duration_arg(s: &str) -> Result<Duration, ParseTimeControlError> {
    parse_duration(s).ok_or_else(|| ParseTimeControlError::Duration(s.trim().to_string()))
}

fn count_arg(s: &str) -> Result<u32, ParseTimeControlError> {
    let s = s.trim();
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(n) = s.parse() {
            return Ok(n);
        }
    }
    Err(ParseTimeControlError::Count(s.to_string()))
}

/// Splits `M+REST` into the main time and the rest.
fn main_and_rest<'a>(
    text: &str,
    args: &'a str,
    expected: &'static str,
) -> Result<(Duration, &'a str), ParseTimeControlError> {
    let (main, rest) = args
        .split_once('+')
        .ok_or_else(|| ParseTimeControlError::Syntax {
            text: text.to_string(),
            expected,
        })?;
    Ok((duration_arg(main)?, rest))
}

/// Reads `M+NxS` (byo-yomi).
fn byoyomi_args(
    text: &str,
    args: &str,
) -> Result<(Duration, u32, Duration), ParseTimeControlError> {
    const EXPECTED: &str = "main+NxS, e.g. 30m+5x30s";
    let (main, rest) = main_and_rest(text, args, EXPECTED)?;
    let (n, s) = rest
        .split_once(['x', 'X', '×'])
        .ok_or_else(|| ParseTimeControlError::Syntax {
            text: text.to_string(),
            expected: EXPECTED,
        })?;
    Ok((main, count_arg(n)?, duration_arg(s)?))
}

impl FromStr for TimeControl {
    type Err = ParseTimeControlError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let trimmed = text.trim();
        let (kind, args) = match trimmed.split_once(':') {
            Some((kind, args)) => (kind.trim(), Some(args.trim())),
            None => (trimmed, None),
        };
        let syntax = |expected| ParseTimeControlError::Syntax {
            text: text.to_string(),
            expected,
        };
        let tc = match (kind.to_ascii_lowercase().as_str(), args) {
            ("none" | "untimed", None) => TimeControl::None,
            ("none" | "untimed", Some(_)) => return Err(syntax("none, without arguments")),
            ("absolute" | "sudden-death", Some(a)) => TimeControl::Absolute {
                main: duration_arg(a)?,
            },
            ("byoyomi" | "byo-yomi" | "japanese", Some(a)) => {
                let (main, periods, period) = byoyomi_args(text, a)?;
                TimeControl::Japanese {
                    main,
                    periods,
                    period,
                }
            }
            ("ing-rs" | "rs", Some(a)) => {
                let (basic, periods, period) = byoyomi_args(text, a)?;
                TimeControl::IngByoYomi {
                    basic,
                    periods,
                    period,
                }
            }
            ("canadian", Some(a)) => {
                const EXPECTED: &str = "main+N/T, e.g. 20m+25/5m";
                let (main, rest) = main_and_rest(text, a, EXPECTED)?;
                let (n, t) = rest.split_once('/').ok_or_else(|| syntax(EXPECTED))?;
                TimeControl::Canadian {
                    main,
                    stones: count_arg(n)?,
                    period: duration_arg(t)?,
                }
            }
            ("fischer", Some(a)) => {
                const EXPECTED: &str = "main+increment, optionally [max X], e.g. 10m+10s[max 20m]";
                let (main, rest) = main_and_rest(text, a, EXPECTED)?;
                let (increment, max) = match rest.split_once('[') {
                    None => (duration_arg(rest)?, None),
                    Some((inc, tail)) => {
                        let inner = tail
                            .trim()
                            .strip_suffix(']')
                            .and_then(|t| t.trim_start().strip_prefix("max"))
                            .ok_or_else(|| syntax(EXPECTED))?;
                        (duration_arg(inc)?, Some(duration_arg(inner)?))
                    }
                };
                TimeControl::Fischer {
                    main,
                    increment,
                    max,
                }
            }
            ("ing-pp" | "pp", Some(a)) => TimeControl::IngPenalty {
                basic: duration_arg(a)?,
            },
            (
                "absolute" | "sudden-death" | "byoyomi" | "byo-yomi" | "japanese" | "ing-rs" | "rs"
                | "canadian" | "fischer" | "ing-pp" | "pp",
                None,
            ) => return Err(syntax("KIND:ARGUMENTS, e.g. absolute:30m")),
            _ => return Err(ParseTimeControlError::UnknownKind(text.to_string())),
        };
        tc.validate()?;
        Ok(tc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn text_forms_round_trip() {
        let cases = [
            ("none", TimeControl::None),
            ("absolute:30m", TimeControl::Absolute { main: secs(1800) }),
            (
                "byoyomi:30m+5x30s",
                TimeControl::Japanese {
                    main: secs(1800),
                    periods: 5,
                    period: secs(30),
                },
            ),
            (
                "canadian:20m+25/5m",
                TimeControl::Canadian {
                    main: secs(1200),
                    stones: 25,
                    period: secs(300),
                },
            ),
            (
                "fischer:10m+10s",
                TimeControl::Fischer {
                    main: secs(600),
                    increment: secs(10),
                    max: None,
                },
            ),
            (
                "fischer:10m+10s[max 20m]",
                TimeControl::Fischer {
                    main: secs(600),
                    increment: secs(10),
                    max: Some(secs(1200)),
                },
            ),
            ("ing-pp:3h", TimeControl::IngPenalty { basic: secs(10800) }),
            (
                "ing-rs:1h+3x30s",
                TimeControl::IngByoYomi {
                    basic: secs(3600),
                    periods: 3,
                    period: secs(30),
                },
            ),
        ];
        for (text, tc) in cases {
            assert_eq!(text.parse::<TimeControl>(), Ok(tc), "{text}");
            assert_eq!(tc.to_string(), text);
        }
    }

    #[test]
    fn aliases_and_spellings() {
        let pp = TimeControl::IngPenalty { basic: secs(10800) };
        assert_eq!("ing-pp:180m".parse(), Ok(pp));
        assert_eq!(" PP:10800 ".parse(), Ok(pp));
        assert_eq!("ing-pp:2h60m".parse(), Ok(pp));
        assert_eq!(
            "ing-rs:60m+3x30s".parse(),
            Ok(TimeControl::IngByoYomi {
                basic: secs(3600),
                periods: 3,
                period: secs(30)
            })
        );
        assert_eq!(
            "fischer:10m+10s[max20m]"
                .parse::<TimeControl>()
                .map(|t| t.to_string()),
            Ok("fischer:10m+10s[max 20m]".to_string())
        );
        assert_eq!(
            "absolute:1m500ms".parse(),
            Ok(TimeControl::Absolute {
                main: Duration::from_millis(60_500)
            })
        );
    }

    #[test]
    fn bad_texts_are_typed_errors() {
        use ParseTimeControlError as E;
        assert!(matches!(
            "blitz:5m".parse::<TimeControl>(),
            Err(E::UnknownKind(_))
        ));
        assert!(matches!(
            "absolute".parse::<TimeControl>(),
            Err(E::Syntax { .. })
        ));
        assert!(matches!(
            "none:5m".parse::<TimeControl>(),
            Err(E::Syntax { .. })
        ));
        assert!(matches!(
            "absolute:5q".parse::<TimeControl>(),
            Err(E::Duration(_))
        ));
        assert!(matches!(
            "absolute:1m30".parse::<TimeControl>(),
            Err(E::Duration(_))
        ));
        assert!(matches!(
            "absolute:".parse::<TimeControl>(),
            Err(E::Duration(_))
        ));
        assert!(matches!(
            "byoyomi:30m+5/30s".parse::<TimeControl>(),
            Err(E::Syntax { .. })
        ));
        assert!(matches!(
            "byoyomi:30m+-5x30s".parse::<TimeControl>(),
            Err(E::Count(_))
        ));
        assert!(matches!(
            "canadian:20m".parse::<TimeControl>(),
            Err(E::Syntax { .. })
        ));
        assert!(matches!(
            "fischer:10m+10s[min 20m]".parse::<TimeControl>(),
            Err(E::Syntax { .. })
        ));
        assert_eq!(
            "ing-pp:0s".parse::<TimeControl>(),
            Err(E::Invalid(TimeControlError::ZeroBasic))
        );
        assert_eq!(
            "byoyomi:30m+0x30s".parse::<TimeControl>(),
            Err(E::Invalid(TimeControlError::NoPeriods))
        );
        assert_eq!(
            "ing-rs:30m+3x0s".parse::<TimeControl>(),
            Err(E::Invalid(TimeControlError::ZeroPeriod))
        );
        assert_eq!(
            "canadian:30m+0/5m".parse::<TimeControl>(),
            Err(E::Invalid(TimeControlError::NoStones))
        );
        // Overflow is an error, not a panic or a wrap.
        assert!(matches!(
            "absolute:99999999999999999999h".parse::<TimeControl>(),
            Err(E::Duration(_))
        ));
        assert!(matches!(
            "absolute:5124095576030432h".parse::<TimeControl>(),
            Err(E::Duration(_))
        ));
        // Messages are lowercase, without a final period.
        let msg = "blitz:5m"
            .parse::<TimeControl>()
            .expect_err("must fail")
            .to_string();
        assert!(msg.starts_with("unknown time control"), "{msg}");
    }

    #[test]
    fn days_are_read_for_correspondence() {
        assert_eq!(parse_duration("3d"), Some(Duration::from_secs(3 * 86_400)));
        assert_eq!(
            parse_duration("1d12h"),
            Some(Duration::from_secs(36 * 3600))
        );
        let tc: TimeControl = "fischer:3d+3d[max 3d]".parse().expect("days a move");
        assert_eq!(
            tc,
            TimeControl::Fischer {
                main: Duration::from_secs(3 * 86_400),
                increment: Duration::from_secs(3 * 86_400),
                max: Some(Duration::from_secs(3 * 86_400)),
            }
        );
        assert_eq!(parse_duration("99999999999999999d"), None, "overflow");
    }

    #[test]
    fn durations_round_trip() {
        for d in [
            Duration::ZERO,
            Duration::from_nanos(1),
            Duration::new(3661, 1_002_003),
            Duration::MAX,
        ] {
            let text = Compact(d).to_string();
            assert_eq!(parse_duration(&text), Some(d), "{text}");
        }
    }

    #[test]
    fn pp_thresholds_are_exact_for_odd_basic_times() {
        // BT = 7 ns: BT/6 is not a whole number of nanoseconds.
        let bt = Duration::from_nanos(7);
        let at = |n| pp_status(Duration::from_nanos(n), bt).points();
        // e = 1: 6 > 7? no → 2; e = 2: 12 > 7 → 4; e = 3: 18 > 14 → 6; e = 4: 24 > 21 → lost.
        assert_eq!((at(6), at(7), at(8), at(9)), (0, 2, 2, 4));
        assert_eq!(pp_step_limit(bt, 1), Duration::from_nanos(8));
        assert_eq!(pp_step_limit(bt, 2), Duration::from_nanos(9));
        assert_eq!(
            pp_status(Duration::from_nanos(10), bt),
            PpStatus::Penalty { points: 6 }
        );
        assert_eq!(pp_status(Duration::from_nanos(11), bt), PpStatus::Lost); // 6·4 = 24 > 21
        assert_eq!(pp_limit(bt), Duration::from_nanos(10));
        assert_eq!(
            pp_status(Duration::MAX, Duration::MAX),
            PpStatus::Penalty { points: 2 }
        );
        assert_eq!(pp_limit(Duration::MAX), Duration::MAX);
    }
}
