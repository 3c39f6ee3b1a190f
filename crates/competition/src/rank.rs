//! Ranks: 品 (professional, 1品 strongest … 9品), 段 (amateur, 9段 … 初段), 級 (1級 … 30級) and 級外.
//!
//! Ing's scale stops at 9級: 「級外」 is everything below, one class for the handicap. Kyu ranks
//! down to 30級 are still read and kept, as registration lists, the EGD and McMahon placement
//! use them; on the handicap scale every one of them below 9級 counts as 級外.
//!
//! Professional ranks are written two ways that count in opposite directions: Ing's 品 (1品 is
//! the top of the scale) and the professional dan `Np` everyone else uses (9p is the top). `9p`
//! is read as 1品 and `1p` as 9品; `N品` is read as it is.

use std::fmt;
use std::str::FromStr;

/// A player's rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rank {
    /// n品, 1 (strongest) to 9: written `3品`, or as the professional dan `(10 − n)p`
    /// (`Pro(1)`, 1品, is `9p`).
    Pro(u8),
    /// n段, 1 (初段) to 9: written `5d`.
    Dan(u8),
    /// n級, 1 to 30 ([`MAX_KYU`]): written `2k`. On Ing's handicap scale, 10級 and below are
    /// 級外.
    Kyu(u8),
    /// 級外: below 9級, one class.
    BelowKyu,
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The professional dan: 1品 is 9p.
            Rank::Pro(n) => write!(f, "{}p", 10 - n),
            Rank::Dan(n) => write!(f, "{n}d"),
            Rank::Kyu(n) => write!(f, "{n}k"),
            Rank::BelowKyu => f.write_str("級外"),
        }
    }
}

impl Rank {
    /// The rank in Ing's own notation: `3品`, `5段`, `2級`, `級外`.
    pub fn to_chinese(self) -> String {
        match self {
            Rank::Pro(n) => format!("{n}品"),
            Rank::Dan(1) => "初段".to_string(),
            Rank::Dan(n) => format!("{n}段"),
            Rank::Kyu(n) => format!("{n}級"),
            Rank::BelowKyu => "級外".to_string(),
        }
    }
}

/// The weakest kyu rank read: 30級.
pub const MAX_KYU: u8 = 30;

/// The error for text that is not a rank.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid rank {0:?}: expected 1-9 followed by p (professional dan, 9p = 1品), 品 or d/段, or 1-30 followed by k/級 (for example 9p, 3品, 5段, 2k, 25k), 初段, or 級外")]
pub struct ParseRankError(pub String);

fn digit(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '一' | '初' => Some(1),
        '二' => Some(2),
        '三' => Some(3),
        '四' => Some(4),
        '五' => Some(5),
        '六' => Some(6),
        '七' => Some(7),
        '八' => Some(8),
        '九' => Some(9),
        _ => None,
    }
}

impl FromStr for Rank {
    type Err = ParseRankError;

    /// Reads `7p`, `7P`, `7 pro` (the professional dan: 3品) and `3品`; `5d`, `5 dan`, `5段`, `初段`, `五段`; `2k`, `2 kyu`,
    /// `2級`, `2级`; `級外`, `级外`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseRankError(s.to_string());
        let t: String = s
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if t == "級外" || t == "级外" {
            return Ok(Rank::BelowKyu);
        }
        // Two ASCII digits: a kyu rank from 10k to 30k.
        let two: String = t.chars().take_while(char::is_ascii_digit).collect();
        if two.len() == 2 {
            let n: u8 = two.parse().map_err(|_| err())?;
            return match &t[2..] {
                "k" | "kyu" | "級" | "级" if (10..=MAX_KYU).contains(&n) => Ok(Rank::Kyu(n)),
                _ => Err(err()),
            };
        }
        let mut chars = t.chars();
        let n = chars.next().and_then(digit).ok_or_else(err)?;
        let class: String = chars.collect();
        match class.as_str() {
            // "9p" is a 9-dan professional, the top of the scale: 1品.
            "p" | "pro" => Ok(Rank::Pro(10 - n)),
            "品" => Ok(Rank::Pro(n)),
            "d" | "dan" | "段" => Ok(Rank::Dan(n)),
            "k" | "kyu" | "級" | "级" => Ok(Rank::Kyu(n)),
            _ => Err(err()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kyu_ranks_down_to_30k() {
        for (text, rank) in [
            ("10k", Rank::Kyu(10)),
            ("15 kyu", Rank::Kyu(15)),
            ("30級", Rank::Kyu(30)),
            ("9k", Rank::Kyu(9)),
        ] {
            assert_eq!(text.parse::<Rank>(), Ok(rank), "{text}");
            assert_eq!(rank.to_string().parse::<Rank>(), Ok(rank));
        }
        for text in ["31k", "0k", "10d", "10p", "12", "100k", "01k"] {
            assert!(text.parse::<Rank>().is_err(), "{text}");
        }
        // On Ing's scale they are all 級外, one step below 9級.
        let scale = crate::HandicapScale::ing();
        let below = scale.points(Rank::BelowKyu);
        assert_eq!(scale.points(Rank::Kyu(10)), below);
        assert_eq!(scale.points(Rank::Kyu(30)), below);
        assert!(scale.points(Rank::Kyu(9)) > below);
    }

    #[test]
    fn both_notations() {
        for (text, rank) in [
            ("7p", Rank::Pro(3)),
            ("7P", Rank::Pro(3)),
            ("7 pro", Rank::Pro(3)),
            ("3品", Rank::Pro(3)),
            ("5d", Rank::Dan(5)),
            ("5 dan", Rank::Dan(5)),
            ("5段", Rank::Dan(5)),
            ("五段", Rank::Dan(5)),
            ("初段", Rank::Dan(1)),
            ("2k", Rank::Kyu(2)),
            ("2級", Rank::Kyu(2)),
            ("2级", Rank::Kyu(2)),
            ("級外", Rank::BelowKyu),
            ("级外", Rank::BelowKyu),
        ] {
            assert_eq!(text.parse::<Rank>(), Ok(rank), "{text}");
        }
        for bad in ["", "0d", "31k", "3x", "p", "段", "3段段"] {
            assert!(bad.parse::<Rank>().is_err(), "{bad}");
        }
    }

    #[test]
    fn professional_dan_9p_is_1pin_the_top_rank() {
        assert_eq!("9p".parse::<Rank>(), Ok(Rank::Pro(1)));
        assert_eq!("1p".parse::<Rank>(), Ok(Rank::Pro(9)));
        assert_eq!("9品".parse::<Rank>(), Ok(Rank::Pro(9)));
        assert_eq!("1品".parse::<Rank>(), Ok(Rank::Pro(1)));
        assert_eq!(Rank::Pro(1).to_string(), "9p");
        assert_eq!(Rank::Pro(1).to_chinese(), "1品");
    }

    #[test]
    fn display_round_trips() {
        for r in (1..=9).flat_map(|n| [Rank::Pro(n), Rank::Dan(n), Rank::Kyu(n)]) {
            assert_eq!(r.to_string().parse::<Rank>(), Ok(r));
            assert_eq!(r.to_chinese().parse::<Rank>(), Ok(r));
        }
    }
}
