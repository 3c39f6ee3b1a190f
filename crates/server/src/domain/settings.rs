//! A new game's settings, the same for a challenge, the built-in player and an engine: the
//! board size, the rules preset, the time control, and who takes Black with what komi and
//! handicap passes (nigiri, or §6 of the rules from the ranks).

use std::time::Duration;

use ingo_clock::TimeControl;
use ingo_competition::{handicap, nigiri, HandicapScale, Rank};
use ingo_rules::Preset;

use crate::domain::error::GameError;

/// Checks a board size: 9 to 19 lines.
///
/// # Errors
/// `bad-size` otherwise.
pub fn check_size(size: i64) -> Result<(), GameError> {
    if (9..=19).contains(&size) {
        Ok(())
    } else {
        Err(GameError::unprocessable(
            "bad-size",
            format!("A board is 9 to 19 lines wide, not {size}."),
        ))
    }
}

/// The rules preset named `text` (`ing`, `chinese`…).
///
/// # Errors
/// `bad-rules` for a name that is no preset.
pub fn parse_preset(text: &str) -> Result<Preset, GameError> {
    text.parse().map_err(|e: ingo_rules::ParsePresetError| {
        GameError::unprocessable("bad-rules", e.to_string())
    })
}

/// The longest a player's clock may hold in one game on this server: 30 days (the main time
/// and every overtime period together). Longer controls are refused, so that every time the
/// server shows or stores, in milliseconds, stays far inside its integers.
pub const MAX_CLOCK: Duration = Duration::from_secs(30 * 24 * 3600);

/// The most stones a Canadian overtime period may ask for.
pub const MAX_CANADIAN_STONES: u32 = 1000;

/// The time control `text` asks for, or `default` when it names none; checked to be one the
/// clock can run, within [`MAX_CLOCK`].
///
/// # Errors
/// `bad-time-control` for text the clock does not read, a control it cannot run, or one
/// longer than [`MAX_CLOCK`].
pub fn time_control(text: Option<&str>, default: &str) -> Result<TimeControl, GameError> {
    let text = text.unwrap_or(default);
    let bad =
        |e: &dyn std::fmt::Display| GameError::unprocessable("bad-time-control", e.to_string());
    let tc: TimeControl = text
        .parse()
        .map_err(|e: ingo_clock::ParseTimeControlError| bad(&e))?;
    tc.validate().map_err(|e| bad(&e))?;
    let days = MAX_CLOCK.as_secs() / 86_400;
    if longest_clock(&tc).is_none_or(|d| d > MAX_CLOCK) {
        return Err(bad(&format!(
            "{text:?} gives a clock more than {days} days, the longest this server runs"
        )));
    }
    if let TimeControl::Canadian { stones, .. } = tc {
        if stones > MAX_CANADIAN_STONES {
            return Err(bad(&format!(
                "{text:?} asks for {stones} stones a period; at most {MAX_CANADIAN_STONES}"
            )));
        }
    }
    Ok(tc)
}

/// The most time a player's clock holds under `tc` (`None` when it overflows): the main time
/// and the overtime together; for Fischer, the larger of the start and the cap, and the
/// increment alone; for Ing's penalty points, the basic time and half of it again.
fn longest_clock(tc: &TimeControl) -> Option<Duration> {
    match *tc {
        TimeControl::None => Some(Duration::ZERO),
        TimeControl::Absolute { main } => Some(main),
        TimeControl::Japanese {
            main,
            periods,
            period,
        }
        | TimeControl::IngByoYomi {
            basic: main,
            periods,
            period,
        } => main.checked_add(period.checked_mul(periods)?),
        TimeControl::Canadian { main, period, .. } => main.checked_add(period),
        TimeControl::Fischer {
            main,
            increment,
            max,
        } => Some(main.max(max.unwrap_or(main)).max(increment)),
        TimeControl::IngPenalty { basic } => basic.checked_add(basic / 2),
    }
}

/// A rank as an account stores it (declared at registration, set by the director, or a
/// program's): read as [`Rank`], and 級外 when it does not read, the class below every other,
/// so that a garbled rank never earns a handicap.
pub fn stored_rank(text: &str) -> Rank {
    text.parse().unwrap_or(Rank::BelowKyu)
}

/// How colours are given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    /// The one who asks takes Black.
    Black,
    /// The one who asks takes White.
    White,
    /// An even game, colours by nigiri: the other side holds the stones, the one who asks
    /// guesses.
    Nigiri,
    /// From the ranks (§6): the weaker side takes Black, White gives handicap passes and
    /// points back; nigiri when the ranks are equal.
    Ranks,
}

impl ColorChoice {
    /// `black`, `white`, `nigiri` or `ranks`.
    pub fn parse(s: &str) -> Option<ColorChoice> {
        match s {
            "black" => Some(ColorChoice::Black),
            "white" => Some(ColorChoice::White),
            "nigiri" => Some(ColorChoice::Nigiri),
            "ranks" => Some(ColorChoice::Ranks),
            _ => None,
        }
    }
}

/// Who takes Black, the komi and White's handicap passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Colors {
    /// Whether the side that asks (the guesser at nigiri) takes Black.
    pub asker_black: bool,
    /// Komi, in half points.
    pub komi_halves: i64,
    /// White's handicap passes.
    pub handicap_passes: i64,
}

/// The colours of a game between the side that asks (`asker`: a challenge's acceptors, the
/// person against a program) and the other (`other`), each side's ranks in seat order; an even
/// game's komi is `even_komi_halves`, and `seed` draws the nigiri.
pub fn colors(
    choice: ColorChoice,
    even_komi_halves: i64,
    asker: &[Rank],
    other: &[Rank],
    seed: u64,
) -> Colors {
    let even = |asker_black| Colors {
        asker_black,
        komi_halves: even_komi_halves,
        handicap_passes: 0,
    };
    match choice {
        ColorChoice::Black => even(true),
        ColorChoice::White => even(false),
        ColorChoice::Nigiri => even(nigiri(seed).guesser_takes_black),
        ColorChoice::Ranks => match (asker, other) {
            ([a], [o]) => {
                let h = handicap(*a, *o, &HandicapScale::default());
                if h.nigiri {
                    even(nigiri(seed).guesser_takes_black)
                } else {
                    Colors {
                        asker_black: h.black == *a && h.white == *o,
                        komi_halves: i64::from(h.komi.halves()),
                        handicap_passes: i64::from(h.handicap_passes),
                    }
                }
            }
            _ => match team_handicap(other, asker) {
                Some((other_black, komi_halves, handicap_passes)) => Colors {
                    asker_black: !other_black,
                    komi_halves,
                    handicap_passes,
                },
                None => even(nigiri(seed).guesser_takes_black),
            },
        },
    }
}

/// The points of a side's ranks on the §6 scale, and its number of players.
fn side_points(ranks: &[Rank]) -> (i64, i64) {
    let scale = HandicapScale::default();
    let sum = ranks.iter().map(|&r| i64::from(scale.points(r))).sum();
    (sum, ranks.len() as i64)
}

/// The handicap between two sides from their *average* ranks on the §6 points scale (the rule
/// text says nothing of teams; the difference of the averages, rounded to a whole point, is
/// treated as between two players): `None` for an even game; else whether the challenger's
/// side takes Black, the komi in half points and White's handicap passes.
pub fn team_handicap(challengers: &[Rank], opponents: &[Rank]) -> Option<(bool, i64, i64)> {
    let scale = HandicapScale::default();
    let ((sa, na), (sb, nb)) = (side_points(challengers), side_points(opponents));
    if na == 0 || nb == 0 {
        return None;
    }
    // The difference of the averages, sa/na − sb/nb, rounded to the nearest point (half up).
    let num = sa * nb - sb * na;
    let den = na * nb;
    let delta = (2 * num.abs() + den) / (2 * den);
    if delta == 0 {
        return None;
    }
    let sente = i64::from(scale.sente);
    let k = ((delta + sente - 1) / sente).max(1);
    let komi_points = sente * k - delta;
    // The weaker side (the lower average) takes Black.
    Some((num < 0, 2 * komi_points, k - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absurd_time_controls_are_refused() {
        for ok in [
            "ing-pp:1h",
            "absolute:20s",
            "none",
            "japanese:1h+5x30s",
            "ing-pp:480h",
        ] {
            assert!(time_control(Some(ok), "ing-pp:1h").is_ok(), "{ok}");
        }
        for absurd in [
            "ing-pp:1000000000000000h",
            "ing-pp:481h",
            "absolute:721h",
            "japanese:1h+100000x1h",
            "canadian:1h+5000/5m",
        ] {
            let e = time_control(Some(absurd), "ing-pp:1h").map_err(|e| e.reason);
            assert_eq!(e, Err("bad-time-control"), "{absurd}");
        }
    }
}
