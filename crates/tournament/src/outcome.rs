//! Game results as a director enters them: `B+3`, `W+R`, `B+T`, `W+F:absence`, `void`.

use std::fmt;
use std::str::FromStr;

use ingo_rules::{Color, Komi};

/// Why a game was forfeited (裁定敗, article 8), or a player's remaining games after 罰停.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ForfeitReason {
    /// 缺席: 「對局者超過時限而未出賽」. Counts toward 罰停.
    Absence,
    /// 請假: leave asked for; counts toward 罰停 like an absence (「缺席或請假次數超過規定」).
    Leave,
    /// 棄權: 「對局者中途因故無法繼續對局」.
    Abandonment,
    /// 悔著: 「對局者從新變更著子位置」.
    TakeBack,
    /// 逾時: 「對局者超過規定對局時限」.
    Time,
    /// 抗命: 「對局者不服從裁判而無理抗命」.
    Defiance,
    /// 罰停: 「停止其以後賽程，其未賽成績一律為“裁定敗”」.
    Suspension,
    /// An engine's illegal move, forfeited by the referee's failure policy (engine events).
    IllegalMove,
    /// No reason given.
    Unspecified,
}

impl ForfeitReason {
    /// The English name written after `F:`.
    pub fn name(self) -> &'static str {
        match self {
            ForfeitReason::Absence => "absence",
            ForfeitReason::Leave => "leave",
            ForfeitReason::Abandonment => "abandonment",
            ForfeitReason::TakeBack => "takeback",
            ForfeitReason::Time => "time",
            ForfeitReason::Defiance => "defiance",
            ForfeitReason::Suspension => "suspension",
            ForfeitReason::IllegalMove => "illegal",
            ForfeitReason::Unspecified => "",
        }
    }

    /// The rule text's word.
    pub fn chinese(self) -> &'static str {
        match self {
            ForfeitReason::Absence => "缺席",
            ForfeitReason::Leave => "請假",
            ForfeitReason::Abandonment => "棄權",
            ForfeitReason::TakeBack => "悔著",
            ForfeitReason::Time => "逾時",
            ForfeitReason::Defiance => "抗命",
            ForfeitReason::Suspension => "罰停",
            ForfeitReason::IllegalMove => "違規",
            ForfeitReason::Unspecified => "裁定敗",
        }
    }

    fn parse(s: &str) -> Option<ForfeitReason> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "absence" | "absent" | "缺席" => ForfeitReason::Absence,
            "leave" | "請假" => ForfeitReason::Leave,
            "abandonment" | "abandon" | "棄權" => ForfeitReason::Abandonment,
            "takeback" | "take-back" | "悔著" => ForfeitReason::TakeBack,
            "time" | "逾時" => ForfeitReason::Time,
            "defiance" | "抗命" => ForfeitReason::Defiance,
            "suspension" | "罰停" => ForfeitReason::Suspension,
            "illegal" => ForfeitReason::IllegalMove,
            "" => ForfeitReason::Unspecified,
            _ => return None,
        })
    }

    /// Whether it counts toward 罰停.
    pub fn is_absence(self) -> bool {
        matches!(self, ForfeitReason::Absence | ForfeitReason::Leave)
    }
}

/// How a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinBy {
    /// By counting, with the margin (in half points).
    Points(Komi),
    /// By an unstated margin (`B+`).
    Unstated,
    /// By resignation.
    Resignation,
    /// On time (the clock's 逾時 in play).
    Time,
    /// By the referee's forfeit (裁定敗).
    Forfeit(ForfeitReason),
}

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `winner` won.
    Win {
        /// The winning colour.
        winner: Color,
        /// How.
        by: WinBy,
    },
    /// A void game: counts for nobody.
    Void,
}

impl Outcome {
    /// The winning colour, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Void => None,
        }
    }

    /// The forfeit reason, for a forfeit.
    pub fn forfeit(self) -> Option<ForfeitReason> {
        match self {
            Outcome::Win {
                by: WinBy::Forfeit(r),
                ..
            } => Some(r),
            _ => None,
        }
    }
}

/// A result that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid result {text:?}: {reason}")]
pub struct ParseOutcomeError {
    /// The text.
    pub text: String,
    /// Why.
    pub reason: &'static str,
}

impl FromStr for Outcome {
    type Err = ParseOutcomeError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let bad = |reason| ParseOutcomeError {
            text: s.to_owned(),
            reason,
        };
        if t.eq_ignore_ascii_case("void") || t == "無效" {
            return Ok(Outcome::Void);
        }
        let mut chars = t.chars();
        let winner = match chars.next().map(|c| c.to_ascii_uppercase()) {
            Some('B') => Color::Black,
            Some('W') => Color::White,
            _ => return Err(bad("expected B+…, W+… or void")),
        };
        let rest = chars.as_str();
        let Some(rest) = rest.strip_prefix('+') else {
            return Err(bad("expected + after the colour"));
        };
        let by = match rest.to_ascii_uppercase().as_str() {
            "" => WinBy::Unstated,
            "R" | "RESIGN" => WinBy::Resignation,
            "T" | "TIME" => WinBy::Time,
            _ => {
                if let Some(reason) = rest
                    .strip_prefix("F")
                    .or_else(|| rest.strip_prefix("f"))
                    .or_else(|| rest.strip_prefix("Forfeit"))
                {
                    let reason = reason.strip_prefix(':').unwrap_or(reason);
                    WinBy::Forfeit(ForfeitReason::parse(reason).ok_or_else(|| {
                        bad("unknown forfeit reason: expected absence, leave, abandonment, takeback, time, defiance, suspension or illegal")
                    })?)
                } else {
                    let k: Komi = rest
                        .parse()
                        .map_err(|_| bad("expected a margin, R, T or F:reason after +"))?;
                    // `B+0`: a tie, which the rules give to one side (「和棋黑勝」 in an even game).
                    if k.halves() < 0 {
                        return Err(bad("a margin cannot be negative"));
                    }
                    WinBy::Points(k)
                }
            }
        };
        Ok(Outcome::Win { winner, by })
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Void => f.write_str("void"),
            Outcome::Win { winner, by } => {
                write!(f, "{}+", winner.letter())?;
                match by {
                    WinBy::Points(k) => write!(f, "{k}"),
                    WinBy::Unstated => Ok(()),
                    WinBy::Resignation => f.write_str("R"),
                    WinBy::Time => f.write_str("T"),
                    WinBy::Forfeit(ForfeitReason::Unspecified) => f.write_str("F"),
                    WinBy::Forfeit(r) => write!(f, "F:{}", r.name()),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_round_trip() {
        for s in [
            "B+3",
            "W+7.5",
            "W+R",
            "B+T",
            "W+F:absence",
            "B+F",
            "void",
            "B+",
            "B+F:suspension",
        ] {
            let o: Outcome = s.parse().expect(s);
            assert_eq!(o.to_string(), s);
        }
        let o: Outcome = "w+f:缺席".parse().expect("chinese reason");
        assert_eq!(o.forfeit(), Some(ForfeitReason::Absence));
        assert_eq!(o.winner(), Some(Color::White));
    }

    #[test]
    fn bad_results_say_why() {
        for s in ["", "X+3", "B3", "B+-1", "W+F:sleep", "B+abc"] {
            assert!(s.parse::<Outcome>().is_err(), "{s}");
        }
    }
}
