//! Rules as plain data, with named presets.

use std::fmt;
use std::str::FromStr;

use crate::color::Color;

/// How repetition is limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KoRule {
    /// Ing's ko rules as formalized in docs/rules.md (IKF: R2–R6): hot stones, double and twin hot
    /// stones, the disturbing-ko limit and cycle bans. "劫分爭攪".
    Ing,
    /// Only the immediate retake of a single stone is forbidden.
    Simple,
    /// No play may recreate an earlier whole-board position.
    PositionalSuperko,
    /// No play may recreate an earlier position with the same player to move.
    SituationalSuperko,
}

/// Which suicides are allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SuicideRule {
    /// No suicide at all.
    None,
    /// Suicide of a block of two or more stones is allowed, single-stone suicide is not (Ing:
    /// "顆子自盡…變窮禁著。塊子自盡，變未窮，不禁著").
    BlockOnly,
    /// Any suicide, single stones included.
    All,
}

/// Komi, in half points so that both Ing's integers and other rules' half-integers are exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Komi(pub i32);

impl Komi {
    /// Komi of `points` whole points.
    pub const fn points(points: i32) -> Komi {
        Komi(points * 2)
    }

    /// The komi in half points.
    pub fn halves(self) -> i32 {
        self.0
    }

    /// The komi as a float, for display.
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 2.0
    }
}

impl fmt::Display for Komi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_halves(self.0, f)
    }
}

/// Writes a value in half points as `8`, `7.5` or `-0.5`.
pub(crate) fn fmt_halves(h: i32, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if h % 2 == 0 {
        write!(f, "{}", h / 2)
    } else {
        let sign = if h < 0 { "-" } else { "" };
        write!(f, "{sign}{}.5", h.abs() / 2)
    }
}

/// The error for a komi that is not an integer or half-integer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid komi {0:?}: expected an integer or half-integer such as 8 or 7.5")]
pub struct ParseKomiError(pub String);

impl FromStr for Komi {
    type Err = ParseKomiError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let err = || ParseKomiError(s.to_string());
        let v: f64 = t.parse().map_err(|_| err())?;
        if !v.is_finite() || v.abs() > 10_000.0 {
            return Err(err());
        }
        let h = v * 2.0;
        if (h - h.round()).abs() > 1e-9 {
            return Err(err());
        }
        Ok(Komi(h.round() as i32))
    }
}

/// The rules a game is played under. Plain `Copy` data; [`Rules::ing`] is the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The repetition rule.
    pub ko: KoRule,
    /// The suicide rule.
    pub suicide: SuicideRule,
    /// Points White receives (Ing: 8, "貼還八點").
    pub komi: Komi,
    /// Who wins a game whose margin is exactly zero when there was no handicap (Ing: Black,
    /// "和棋黑勝").
    pub tie_even: Color,
    /// Who wins a tied handicap game (the text is silent; KSS and Sensei's Library say White).
    pub tie_handicap: Color,
}

impl Default for Rules {
    fn default() -> Self {
        Rules::ing()
    }
}

/// Named rule presets, for `--rules` and GTP.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// Ing's rules: IKF ko, block suicide only, komi 8, ties to Black.
    Ing,
    /// What KataGo and OGS call "ing": positional superko, block suicide, komi 7.5.
    KataGoIng,
    /// Chinese-style area rules as GNU Go plays them: simple ko, no suicide, komi 7.5.
    Chinese,
    /// Tromp–Taylor: positional superko, all suicide, komi 7.5.
    TrompTaylor,
    /// Japanese-like play rules (simple ko, no suicide, komi 6.5); counted by area here.
    Japanese,
}

impl Preset {
    /// Every preset, in the order they are listed.
    pub const ALL: [Preset; 5] = [
        Preset::Ing,
        Preset::KataGoIng,
        Preset::Chinese,
        Preset::TrompTaylor,
        Preset::Japanese,
    ];

    /// The preset's name as `--rules` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Ing => "ing",
            Preset::KataGoIng => "katago-ing",
            Preset::Chinese => "chinese",
            Preset::TrompTaylor => "tromp-taylor",
            Preset::Japanese => "japanese",
        }
    }

    /// The rules of the preset.
    pub fn rules(self) -> Rules {
        let base = Rules::ing();
        match self {
            Preset::Ing => base,
            Preset::KataGoIng => Rules {
                ko: KoRule::PositionalSuperko,
                komi: Komi(15),
                ..base
            },
            Preset::Chinese => Rules {
                ko: KoRule::Simple,
                suicide: SuicideRule::None,
                komi: Komi(15),
                ..base
            },
            Preset::TrompTaylor => Rules {
                ko: KoRule::PositionalSuperko,
                suicide: SuicideRule::All,
                komi: Komi(15),
                ..base
            },
            Preset::Japanese => Rules {
                ko: KoRule::Simple,
                suicide: SuicideRule::None,
                komi: Komi(13),
                ..base
            },
        }
    }
}

/// The error for an unknown preset name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rules {0:?}: expected one of ing, katago-ing, chinese, tromp-taylor, japanese")]
pub struct ParsePresetError(pub String);

impl FromStr for Preset {
    type Err = ParsePresetError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase().replace(['_', ' '], "-");
        Ok(match t.as_str() {
            "ing" | "goe" | "sst" | "ing-goe" => Preset::Ing,
            "katago-ing" | "ogs-ing" | "psk-ing" => Preset::KataGoIng,
            "chinese" => Preset::Chinese,
            "tromp-taylor" | "tromptaylor" | "tt" => Preset::TrompTaylor,
            "japanese" => Preset::Japanese,
            _ => return Err(ParsePresetError(s.to_string())),
        })
    }
}

impl Rules {
    /// Ing's rules (應氏計點制): IKF ko, block suicide only, komi 8, ties to Black in even games
    /// and to White in handicap games.
    pub const fn ing() -> Rules {
        Rules {
            ko: KoRule::Ing,
            suicide: SuicideRule::BlockOnly,
            komi: Komi::points(8),
            tie_even: Color::Black,
            tie_handicap: Color::White,
        }
    }
}

/// The error for an unknown ko rule name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown ko rule {0:?}: expected one of ing, simple, positional, situational")]
pub struct ParseKoRuleError(pub String);

/// The error for an unknown suicide rule name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown suicide rule {0:?}: expected one of none, block, all")]
pub struct ParseSuicideRuleError(pub String);

impl FromStr for KoRule {
    type Err = ParseKoRuleError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "ing" => KoRule::Ing,
            "simple" => KoRule::Simple,
            "positional" | "psk" | "positional-superko" => KoRule::PositionalSuperko,
            "situational" | "ssk" | "situational-superko" => KoRule::SituationalSuperko,
            _ => return Err(ParseKoRuleError(s.to_string())),
        })
    }
}

impl FromStr for SuicideRule {
    type Err = ParseSuicideRuleError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "none" | "no" => SuicideRule::None,
            "block" | "block-only" | "multi" => SuicideRule::BlockOnly,
            "all" | "any" => SuicideRule::All,
            _ => return Err(ParseSuicideRuleError(s.to_string())),
        })
    }
}

impl fmt::Display for KoRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KoRule::Ing => "ing",
            KoRule::Simple => "simple",
            KoRule::PositionalSuperko => "positional",
            KoRule::SituationalSuperko => "situational",
        })
    }
}

impl fmt::Display for SuicideRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SuicideRule::None => "none",
            SuicideRule::BlockOnly => "block",
            SuicideRule::All => "all",
        })
    }
}

impl fmt::Display for Rules {
    /// One line, `ko=ing suicide=block komi=8`: the rules of play and the komi (the tie rules
    /// follow from the preset and are not shown).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ko={} suicide={} komi={}",
            self.ko, self.suicide, self.komi
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_display_as_one_line() {
        assert_eq!(Rules::ing().to_string(), "ko=ing suicide=block komi=8");
        assert_eq!(
            Preset::Chinese.rules().to_string(),
            "ko=simple suicide=none komi=7.5"
        );
    }

    #[test]
    fn each_parser_names_what_it_accepts() {
        assert_eq!(
            "foo"
                .parse::<KoRule>()
                .expect_err("not a ko rule")
                .to_string(),
            "unknown ko rule \"foo\": expected one of ing, simple, positional, situational"
        );
        assert_eq!(
            "foo"
                .parse::<SuicideRule>()
                .expect_err("not a suicide rule")
                .to_string(),
            "unknown suicide rule \"foo\": expected one of none, block, all"
        );
        assert_eq!(
            "foo".parse::<Preset>().expect_err("not a preset").to_string(),
            "unknown rules \"foo\": expected one of ing, katago-ing, chinese, tromp-taylor, japanese"
        );
    }

    #[test]
    fn every_name_the_errors_list_parses() {
        for ko in ["ing", "simple", "positional", "situational"] {
            assert_eq!(
                ko.parse::<KoRule>().map(|k| k.to_string()),
                Ok(ko.to_string())
            );
        }
        for suicide in ["none", "block", "all"] {
            assert_eq!(
                suicide.parse::<SuicideRule>().map(|s| s.to_string()),
                Ok(suicide.to_string())
            );
        }
        for preset in Preset::ALL {
            assert_eq!(preset.name().parse::<Preset>(), Ok(preset));
        }
    }
}
