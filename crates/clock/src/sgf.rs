//! SGF time properties: `TM` and `OT` in the root, `BL`/`WL` and `OB`/`OW` after each move.
//!
//! See [`sgf_ot`] for the texts.

use std::time::Duration;

use crate::{Clock, TimeControl, TimeLeft};
use ingo_rules::Color;

/// Seconds as an SGF Real: whole milliseconds at most, no trailing zeros (`1800`, `29.5`,
/// `0.001`). Rounded down, like a clock display.
pub fn sgf_real(d: Duration) -> String {
    sgf_real_exact(Duration::new(d.as_secs(), d.subsec_millis() * 1_000_000))
}

/// Reads an SGF Real number of seconds (`1800`, `29.5`, `+3`); `None` if it is not one, is
/// negative or too large.
pub fn parse_sgf_real(s: &str) -> Option<Duration> {
    let s = s.trim();
    let s = s.strip_prefix('+').unwrap_or(s);
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(frac) {
        return None;
    }
    let secs: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    // Nanosecond resolution; further digits are dropped.
    let mut nanos = 0u32;
    for (i, b) in frac.bytes().take(9).enumerate() {
        nanos += u32::from(b - b'0') * 10u32.pow(8 - i as u32);
    }
    Some(Duration::new(secs, nanos))
}

/// Seconds as an SGF Real to the nanosecond, no trailing zeros: the durations of a time
/// control, which must read back as the same control (a period of 0.4 ms written as `0` would
/// read back as no period at all). [`sgf_real`] rounds the time left down instead, as a clock
/// shows it.
fn sgf_real_exact(d: Duration) -> String {
    let nanos = d.subsec_nanos();
    if nanos == 0 {
        d.as_secs().to_string()
    } else {
        let frac = format!("{nanos:09}");
        format!("{}.{}", d.as_secs(), frac.trim_end_matches('0'))
    }
}

/// The `TM` value (main or basic time); `None` when untimed.
pub fn sgf_tm(tc: &TimeControl) -> Option<String> {
    tc.main_time().map(sgf_real_exact)
}

/// The `OT` value; `None` when there is no overtime (absolute time, untimed).
///
/// SGF FF\[4\] gives `TM` as a Real number of seconds and `OT` as free text; the `OT` texts
/// follow the common KGS spellings (`5x30 byo-yomi`, `25/300 Canadian`) so other programs
/// recognise them, and add Ing's controls:
///
/// | control | `TM` | `OT` |
/// |---|---|---|
/// | `absolute:30m` | `1800` | — |
/// | `byoyomi:30m+5x30s` | `1800` | `5x30 byo-yomi` |
/// | `ing-rs:1h+3x30s` | `3600` | `3x30 byo-yomi (Ing RS)` |
/// | `canadian:20m+25/5m` | `1200` | `25/300 Canadian` |
/// | `fischer:10m+10s[max 20m]` | `600` | `Fischer 10s max 1200s` |
/// | `ing-pp:3h` | `10800` | `Ing PP 2 points per 1/6 of basic time` |
/// | `none` | — | — |
pub fn sgf_ot(tc: &TimeControl) -> Option<String> {
    match *tc {
        TimeControl::None | TimeControl::Absolute { .. } => None,
        TimeControl::Japanese {
            periods, period, ..
        } => Some(format!("{periods}x{} byo-yomi", sgf_real_exact(period))),
        TimeControl::IngByoYomi {
            periods, period, ..
        } => Some(format!(
            "{periods}x{} byo-yomi (Ing RS)",
            sgf_real_exact(period)
        )),
        TimeControl::Canadian { stones, period, .. } => {
            Some(format!("{stones}/{} Canadian", sgf_real_exact(period)))
        }
        TimeControl::Fischer { increment, max, .. } => Some(match max {
            None => format!("Fischer {}s", sgf_real_exact(increment)),
            Some(max) => format!(
                "Fischer {}s max {}s",
                sgf_real_exact(increment),
                sgf_real_exact(max)
            ),
        }),
        TimeControl::IngPenalty { .. } => Some("Ing PP 2 points per 1/6 of basic time".into()),
    }
}

impl TimeControl {
    /// Reads a control back from `TM` and `OT` values as written by [`sgf_tm`] and [`sgf_ot`]
    /// (and the usual KGS spellings). `None` when there is no `TM`, or when either value is
    /// not understood: the caller keeps the raw properties then.
    ///
    /// ```
    /// use ingo_clock::{sgf_ot, sgf_tm, TimeControl};
    /// let tc: TimeControl = "canadian:20m+25/5m".parse().unwrap();
    /// let (tm, ot) = (sgf_tm(&tc), sgf_ot(&tc));
    /// assert_eq!(TimeControl::from_sgf(tm.as_deref(), ot.as_deref()), Some(tc));
    /// ```
    pub fn from_sgf(tm: Option<&str>, ot: Option<&str>) -> Option<TimeControl> {
        let main = parse_sgf_real(tm?)?;
        let ot = ot.map(str::trim).unwrap_or("");
        let tc = if ot.is_empty() {
            TimeControl::Absolute { main }
        } else if ot.starts_with("Ing PP") {
            TimeControl::IngPenalty { basic: main }
        } else if let Some(rest) = ot.strip_prefix("Fischer ") {
            let secs = |t: &str| parse_sgf_real(t.trim().trim_end_matches('s'));
            let (inc, max) = match rest.split_once(" max ") {
                Some((inc, max)) => (secs(inc)?, Some(secs(max)?)),
                None => (secs(rest)?, None),
            };
            TimeControl::Fischer {
                main,
                increment: inc,
                max,
            }
        } else if let Some(rest) = ot.strip_suffix("Canadian") {
            let (stones, period) = rest.trim().split_once('/')?;
            TimeControl::Canadian {
                main,
                stones: stones.trim().parse().ok()?,
                period: parse_sgf_real(period)?,
            }
        } else {
            let (spec, ing) = match ot.strip_suffix("(Ing RS)") {
                Some(spec) => (spec.trim(), true),
                None => (ot, false),
            };
            let spec = spec.strip_suffix("byo-yomi")?.trim();
            let (periods, period) = spec.split_once('x')?;
            let periods = periods.trim().parse().ok()?;
            let period = parse_sgf_real(period)?;
            if ing {
                TimeControl::IngByoYomi {
                    basic: main,
                    periods,
                    period,
                }
            } else {
                TimeControl::Japanese {
                    main,
                    periods,
                    period,
                }
            }
        };
        tc.validate().ok().map(|()| tc)
    }
}

/// The per-move properties for `side` with `left` under `tc`: `BL`/`WL` (seconds left: main
/// time, or the current period's time in overtime, or for Ing PP the time before the loss)
/// and, in byo-yomi or Canadian overtime, `OB`/`OW` (periods or stones left).
///
/// ```
/// use ingo_clock::{sgf_move_properties, TimeControl, TimeLeft};
/// use ingo_rules::Color;
/// use std::time::Duration;
/// let tc: TimeControl = "byoyomi:30m+5x30s".parse().unwrap();
/// let left = TimeLeft { main: Duration::from_secs(30), periods_or_stones: 4, in_overtime: true };
/// assert_eq!(
///     sgf_move_properties(Color::White, &tc, &left),
///     vec![("WL", "30".to_string()), ("OW", "4".to_string())]
/// );
/// ```
pub fn sgf_move_properties(
    side: Color,
    tc: &TimeControl,
    left: &TimeLeft,
) -> Vec<(&'static str, String)> {
    if !tc.is_timed() {
        return Vec::new();
    }
    let (time_prop, overtime_prop) = match side {
        Color::Black => ("BL", "OB"),
        Color::White => ("WL", "OW"),
    };
    let mut props = vec![(time_prop, sgf_real(left.main))];
    let has_periods = matches!(
        tc,
        TimeControl::Japanese { .. }
            | TimeControl::IngByoYomi { .. }
            | TimeControl::Canadian { .. }
    );
    if left.in_overtime && has_periods {
        props.push((overtime_prop, left.periods_or_stones.to_string()));
    }
    props
}

impl Clock {
    /// [`sgf_move_properties`] for `side`'s clock at `now` (after its move: its clock stopped).
    pub fn sgf_move_properties(&self, side: Color, now: Duration) -> Vec<(&'static str, String)> {
        match self.time_left(side, now) {
            Some(left) => sgf_move_properties(side, &self.control(side), &left),
            None => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reals() {
        assert_eq!(sgf_real(Duration::from_secs(1800)), "1800");
        assert_eq!(sgf_real(Duration::from_millis(29_500)), "29.5");
        assert_eq!(sgf_real(Duration::from_micros(1_999)), "0.001");
        assert_eq!(parse_sgf_real("29.5"), Some(Duration::from_millis(29_500)));
        assert_eq!(parse_sgf_real("+3"), Some(Duration::from_secs(3)));
        assert_eq!(parse_sgf_real(".25"), Some(Duration::from_millis(250)));
        for bad in ["", ".", "-1", "1e3", "99999999999999999999", "1.2.3"] {
            assert_eq!(parse_sgf_real(bad), None, "{bad}");
        }
    }

    #[test]
    fn tm_ot_round_trip() {
        for text in [
            "absolute:30m",
            "byoyomi:30m+5x30s",
            "ing-rs:1h+3x30s",
            "canadian:20m+25/5m",
            "fischer:10m+10s",
            "fischer:10m+10s[max 20m]",
            "ing-pp:3h",
            "byoyomi:0s+3x1s500ms",
            // Found by fuzzing (`text_fields`): a period under a millisecond was written as
            // `0`, which reads back as no control at all.
            "ing-rs:0s+1x3us",
            "fischer:1m+1ns[max 1m500us]",
            "ing-pp:7ns",
        ] {
            let tc: TimeControl = text.parse().expect("valid control");
            let (tm, ot) = (sgf_tm(&tc), sgf_ot(&tc));
            assert_eq!(
                TimeControl::from_sgf(tm.as_deref(), ot.as_deref()),
                Some(tc),
                "{text}: TM[{tm:?}] OT[{ot:?}]"
            );
        }
        assert_eq!(sgf_tm(&TimeControl::None), None);
        assert_eq!(TimeControl::from_sgf(None, Some("5x30 byo-yomi")), None);
        assert_eq!(
            TimeControl::from_sgf(Some("60"), Some("sudden death?")),
            None
        );
        assert_eq!(
            TimeControl::from_sgf(Some("60"), Some("0x30 byo-yomi")),
            None
        );
    }

    #[test]
    fn ot_texts() {
        let ot = |t: &str| sgf_ot(&t.parse().expect("valid control"));
        assert_eq!(ot("byoyomi:30m+5x30s").as_deref(), Some("5x30 byo-yomi"));
        assert_eq!(ot("canadian:20m+25/5m").as_deref(), Some("25/300 Canadian"));
        assert_eq!(ot("fischer:10m+10s").as_deref(), Some("Fischer 10s"));
        assert_eq!(
            ot("ing-pp:3h").as_deref(),
            Some("Ing PP 2 points per 1/6 of basic time")
        );
        assert_eq!(ot("absolute:30m"), None);
    }
}
