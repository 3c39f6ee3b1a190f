//! The names ingo's SGF reader and writer share: the `RU` values of the rule presets (read by
//! [`map_rules`], written by [`rules_sgf_name`]), ingo's private root properties, and the
//! letters of SGF points. Both sides use this module, so neither imports the other.

use ingo_rules::Preset;

/// ingo's private root property for Black's time-penalty points (Ing's 罰點), a whole number.
pub(crate) const BLACK_PENALTY: &str = "BP";
/// ingo's private root property for White's time-penalty points.
pub(crate) const WHITE_PENALTY: &str = "WP";

/// How an `RU` value was mapped to a [`Preset`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RulesMapping {
    /// The preset.
    pub preset: Preset,
    /// Whether the preset is the ruleset itself (rather than the nearest one).
    pub exact: bool,
    /// Which mapping was done, in a few words.
    pub note: &'static str,
}

/// Maps an SGF `RU` value to the nearest [`Preset`].
///
/// `GOE`, `Ing`, `Ing Goe`, `SST` (and 應氏/应氏) are Ing's rules. Chinese, Japanese and
/// Tromp–Taylor map to their presets; Korean to Japanese (territory rules), AGA to Chinese (area
/// counting), New Zealand to Tromp–Taylor (area counting, suicide allowed, superko). Anything else
/// (`Pair go`, `Free handicap placement`…) is `None`.
///
/// ```
/// use ingo_sgf::map_rules;
/// use ingo_rules::Preset;
/// assert_eq!(map_rules("GOE").map(|m| m.preset), Some(Preset::Ing));
/// assert_eq!(map_rules("Tromp/Taylor").map(|m| m.preset), Some(Preset::TrompTaylor));
/// assert!(!map_rules("New Zealand").expect("known").exact);
/// assert_eq!(map_rules("Pair go"), None);
/// ```
pub fn map_rules(ru: &str) -> Option<RulesMapping> {
    let norm: String = ru
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    let norm = norm.split_whitespace().collect::<Vec<_>>().join(" ");
    let m = |preset, exact, note| {
        Some(RulesMapping {
            preset,
            exact,
            note,
        })
    };
    let has = |s: &str| ru.contains(s);
    match norm.as_str() {
        "ing" | "goe" | "ing goe" | "sst" | "ing s" | "ing rules" | "ing s rules" | "ing sst" => {
            m(Preset::Ing, true, "Ing's rules")
        }
        "katago ing" | "ogs ing" | "psk ing" => m(
            Preset::KataGoIng,
            true,
            "Ing as KataGo and OGS play it (positional superko)",
        ),
        "chinese" | "cn" | "chn" | "china" | "chinese rules" => m(
            Preset::Chinese,
            true,
            "Chinese rules (area counting, simple ko)",
        ),
        "old chinese" => m(
            Preset::Chinese,
            false,
            "old Chinese rules read as Chinese (area counting, simple ko)",
        ),
        "japanese" | "jp" | "jpn" | "japan" | "japanese rules" => m(
            Preset::Japanese,
            true,
            "Japanese rules (simple ko, no suicide)",
        ),
        "korean" | "kr" | "kor" | "korea" => m(
            Preset::Japanese,
            false,
            "Korean rules read as Japanese (territory rules, simple ko, no suicide)",
        ),
        "aga" | "aga rules" => m(
            Preset::Chinese,
            false,
            "AGA rules read as Chinese (area counting; AGA's situational superko becomes simple ko)",
        ),
        "nz" | "new zealand" | "new zealand rules" => m(
            Preset::TrompTaylor,
            false,
            "New Zealand rules read as Tromp-Taylor (area counting, suicide allowed; situational \
             superko becomes positional)",
        ),
        "tromp taylor" | "tromptaylor" | "tt" | "tromp taylor rules" => {
            m(Preset::TrompTaylor, true, "Tromp-Taylor rules")
        }
        _ if has("應氏") || has("应氏") => m(Preset::Ing, true, "Ing's rules"),
        _ if has("中国") || has("中國") => m(Preset::Chinese, true, "Chinese rules"),
        _ if has("日本") => m(Preset::Japanese, true, "Japanese rules"),
        _ if has("韩国") || has("韓國") || has("한국") => m(
            Preset::Japanese,
            false,
            "Korean rules read as Japanese (territory rules, simple ko, no suicide)",
        ),
        _ => None,
    }
}

/// The `RU` value ingo writes for a preset: `GOE` for Ing's rules (the name the SGF standard
/// gives them), `katago-ing`, `Chinese`, `Tromp-Taylor`, `Japanese`. [`map_rules`] maps
/// each back to its preset.
///
/// ```
/// use ingo_rules::Preset;
/// use ingo_sgf::{map_rules, rules_sgf_name};
/// assert_eq!(rules_sgf_name(Preset::Ing), "GOE");
/// for preset in Preset::ALL {
///     assert_eq!(map_rules(rules_sgf_name(preset)).map(|m| m.preset), Some(preset));
/// }
/// ```
pub fn rules_sgf_name(preset: Preset) -> &'static str {
    match preset {
        Preset::Ing => "GOE",
        Preset::KataGoIng => "katago-ing",
        Preset::Chinese => "Chinese",
        Preset::TrompTaylor => "Tromp-Taylor",
        Preset::Japanese => "Japanese",
    }
}

/// The SGF letter of a coordinate (`a`–`z`, then `A`–`Z` as FF\[4] counts on).
pub(crate) fn letter(v: u8) -> char {
    match v {
        0..=25 => char::from(b'a' + v),
        26..=51 => char::from(b'A' + v - 26),
        // sgf-parse reads no other letter, so no tree holds one.
        _ => '?',
    }
}
