//! The agreement (賽約): what a director fixes before an event, written as TOML.
//!
//! 「凡是正式比賽，主辦及協辦單位必須事先訂定棋賽規約，以便對局者遵守，公證人執行。」
//! (article 5). [`Agreement::from_toml`] reads one and refuses it, naming the field and the
//! reason, when it is incomplete or inconsistent.

use std::str::FromStr;

use ingo_clock::TimeControl;
use ingo_competition::Rank;
use ingo_rules::{Komi, Preset};
use serde::Deserialize;

use crate::entrant::{Entrant, EntrantKind, Member};

/// An agreement that cannot be used: the field (a TOML path such as `format.rounds`) and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("agreement field `{field}`: {reason}")]
pub struct AgreementError {
    /// The field, as a dotted TOML path.
    pub field: String,
    /// What is wrong with it.
    pub reason: String,
}

fn err(field: &str, reason: impl Into<String>) -> AgreementError {
    AgreementError {
        field: field.to_owned(),
        reason: reason.into(),
    }
}

/// The format (賽制) of an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FormatKind {
    /// 循環制, each pair meets once.
    RoundRobin,
    /// 循環制, each pair meets twice, colours swapped.
    DoubleRoundRobin,
    /// 淘汰制 (單式): out after one loss, a fixed bracket.
    Knockout,
    /// 淘汰制 (複式): out after two losses.
    DoubleKnockout,
    /// 擂台制: two teams, the winner stays on and meets the next member of the other team.
    Leitai,
    /// 十局升降制: a match of N games whose handicap steps by a grade at a lead of `margin`.
    TenGame,
    /// Swiss: players of equal score meet, no rematches.
    Swiss,
    /// McMahon: Swiss on a score that starts from the rank.
    McMahon,
}

impl FormatKind {
    /// The name used in agreements.
    pub fn name(self) -> &'static str {
        match self {
            FormatKind::RoundRobin => "round-robin",
            FormatKind::DoubleRoundRobin => "double-round-robin",
            FormatKind::Knockout => "knockout",
            FormatKind::DoubleKnockout => "double-knockout",
            FormatKind::Leitai => "leitai",
            FormatKind::TenGame => "ten-game",
            FormatKind::Swiss => "swiss",
            FormatKind::McMahon => "mcmahon",
        }
    }

    /// Whether the whole schedule is drawn at once (round robins).
    pub fn drawn_in_advance(self) -> bool {
        matches!(self, FormatKind::RoundRobin | FormatKind::DoubleRoundRobin)
    }
}

impl FromStr for FormatKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.trim().to_ascii_lowercase().replace(['_', ' '], "-").as_str() {
            "round-robin" | "循環制" => FormatKind::RoundRobin,
            "double-round-robin" => FormatKind::DoubleRoundRobin,
            "knockout" | "single-elimination" | "淘汰制" | "單式淘汰制" => FormatKind::Knockout,
            "double-knockout" | "double-elimination" | "複式淘汰制" => FormatKind::DoubleKnockout,
            "leitai" | "擂台制" => FormatKind::Leitai,
            "ten-game" | "十局升降制" => FormatKind::TenGame,
            "swiss" => FormatKind::Swiss,
            "mcmahon" => FormatKind::McMahon,
            "應氏選擇制" | "ing-selection" => {
                return Err("應氏選擇制 is named in article 5 but defined in no known source, so it is not implemented (see docs/tournaments.md)".into())
            }
            _ => {
                return Err(format!(
                    "unknown format {s:?}: expected round-robin, double-round-robin, knockout, double-knockout, leitai, ten-game, swiss or mcmahon"
                ))
            }
        })
    }
}

/// The rules an event is played under (item 5 of the agreement, 採用規則), as the agreement
/// names them and every export writes them: one of ingo's presets (Ing's own rules by
/// default), or the EGF's Simplified Ing Rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// A preset of `ingo_rules`, played and named as itself.
    Preset(Preset),
    /// The EGF's Simplified Ing Rules, which the EGF's general tournament rules offer for area
    /// scoring ("Simplified Ing Rules with 8 komi for even games and Ing fill-in counting.
    /// Black wins ties."): area score, positional superko ("A play may not recreate a
    /// previous position"), suicide allowed ("A play may remove one's own stones"), and after
    /// the first stop either agreement on the removals or, on a disagreement, play resumed
    /// and the score taken at the second stop. Played with the preset that has exactly these
    /// play rules, [`Preset::TrompTaylor`] (positional superko, all suicide, area counting),
    /// with the agreement's komi; named as the EGF's rules everywhere.
    SimplifiedIng,
}

impl RuleSet {
    /// The preset whose play rules the event uses.
    pub fn preset(self) -> Preset {
        match self {
            RuleSet::Preset(p) => p,
            RuleSet::SimplifiedIng => Preset::TrompTaylor,
        }
    }

    /// The name the agreement's `rules` takes.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Preset(p) => p.name(),
            RuleSet::SimplifiedIng => "egf-simplified-ing",
        }
    }

    /// The rules' name in words, for exports and pages.
    pub fn title(self) -> &'static str {
        match self {
            RuleSet::Preset(Preset::Ing) => "Ing's rules",
            RuleSet::Preset(Preset::KataGoIng) => {
                "Ing's rules as KataGo plays them (positional superko)"
            }
            RuleSet::Preset(Preset::Chinese) => "Chinese rules",
            RuleSet::Preset(Preset::TrompTaylor) => "Tromp-Taylor rules",
            RuleSet::Preset(Preset::Japanese) => "Japanese rules",
            RuleSet::SimplifiedIng => "the EGF's Simplified Ing Rules",
        }
    }

    /// The rules as an SGF record's `RU` names them: the preset's (`GOE` for Ing's rules), or
    /// `EGF Simplified Ing Rules`.
    pub fn sgf_name(self) -> &'static str {
        match self {
            RuleSet::Preset(p) => ingo_sgf::rules_sgf_name(p),
            RuleSet::SimplifiedIng => "EGF Simplified Ing Rules",
        }
    }
}

impl FromStr for RuleSet {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s
            .trim()
            .to_ascii_lowercase()
            .replace(['_', ' '], "-")
            .as_str()
        {
            "egf-simplified-ing" | "simplified-ing" | "egf-sir" | "sir" => {
                Ok(RuleSet::SimplifiedIng)
            }
            _ => s.parse::<Preset>().map(RuleSet::Preset).map_err(|e| {
                format!("{e}; or egf-simplified-ing (the EGF's Simplified Ing Rules)")
            }),
        }
    }
}

/// A key of the ranking after the main score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// 敗方對手主分之和.
    A1,
    /// 勝方對手主分之和.
    A2,
    /// 敗方對手輔分之和.
    B1,
    /// 勝方對手輔分之和.
    B2,
    /// Sum of the opponents' main scores (Swiss).
    Sos,
    /// Sum of the opponents' SOS (Swiss).
    Sosos,
    /// Sum of the main scores of the opponents beaten (Swiss).
    Sodos,
}

impl TieBreak {
    /// The name used in agreements and tables.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::A1 => "A1",
            TieBreak::A2 => "A2",
            TieBreak::B1 => "B1",
            TieBreak::B2 => "B2",
            TieBreak::Sos => "SOS",
            TieBreak::Sosos => "SOSOS",
            TieBreak::Sodos => "SODOS",
        }
    }
}

impl FromStr for TieBreak {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.trim().to_ascii_uppercase().as_str() {
            "A1" => TieBreak::A1,
            "A2" => TieBreak::A2,
            "B1" => TieBreak::B1,
            "B2" => TieBreak::B2,
            "SOS" => TieBreak::Sos,
            "SOSOS" => TieBreak::Sosos,
            "SODOS" => TieBreak::Sodos,
            _ => {
                return Err(format!(
                    "unknown tie-breaker {s:?}: expected A1, A2, B1, B2, SOS, SOSOS or SODOS"
                ))
            }
        })
    }
}

/// What an opponent's "auxiliary score" is in B1 and B2 (the text does not say).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuxForB {
    /// A1 + A2 of the opponent (the default).
    A1PlusA2,
    /// A1 of the opponent only.
    A1,
}

/// How handicaps are set (對局局差, article 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandicapSystem {
    /// 無差賽: every game even, komi 8 (「分先黑貼八點」).
    Even,
    /// 有差賽: the handicap from the players' ranks on the scale of article 6.
    Ranks,
    /// McMahon events: the handicap from the difference of the players' McMahon scores, as
    /// the EGF plays handicap McMahon events: `reduction` points less than the difference,
    /// one 先 (8 points) for each point left; with `even_at_bar`, a game with a player who
    /// started at the bar is even.
    McMahon {
        /// Points taken off the McMahon score difference.
        reduction: u32,
        /// Whether a game with a player who started at the bar is even.
        even_at_bar: bool,
    },
}

/// How the players of a score group are paired among themselves in a Swiss or McMahon event
/// (OpenGotha's "split and slip" and "split and fold").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GroupOrder {
    /// The group's top half against its bottom half in order: 1–(n/2+1), 2–(n/2+2), …
    #[default]
    Slip,
    /// The top against the bottom: 1–n, 2–(n−1), …
    Fold,
}

/// The director's choices for Swiss and McMahon pairing, fixed in the agreement.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairingRules {
    /// The order within a score group.
    pub order: GroupOrder,
    /// Whether two players of the same club are kept apart when another pairing of the same
    /// scores exists.
    pub avoid_same_club: bool,
    /// Pairs of entrants who must not meet (relatives, say).
    pub forbidden: Vec<(String, String)>,
}

/// Scoring and ranking options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scoring {
    /// The ranking keys after the main score, in order (default A1, A2, B1, B2).
    pub tie_breakers: Vec<TieBreak>,
    /// What an opponent's auxiliary score is in B1/B2.
    pub aux_for_b: AuxForB,
    /// Main points for a bye (default 1).
    pub bye_main: u32,
    /// Whether a player's bye points count in the main score its opponents sum into A1/A2
    /// (default no: a bye adds nothing to anyone's auxiliary scores).
    pub bye_in_aux: bool,
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring {
            tie_breakers: vec![TieBreak::A1, TieBreak::A2, TieBreak::B1, TieBreak::B2],
            aux_for_b: AuxForB::A1PlusA2,
            bye_main: 1,
            bye_in_aux: false,
        }
    }
}

/// The format and its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Format {
    /// Which format.
    pub kind: FormatKind,
    /// Rounds of a Swiss or McMahon event.
    pub rounds: u32,
    /// Games of a ten-game match (default 10).
    pub games: u32,
    /// The lead that moves the handicap of a ten-game match (default 4).
    pub margin: u32,
    /// The handicap grade of a ten-game match in points (default 4 = ½ 先 by 還點填平法).
    pub grade: i32,
    /// McMahon bar: players at or above it start equal (default: the strongest rank).
    pub bar: Option<Rank>,
    /// McMahon floor: players at or below it start equal (default: the weakest rank).
    pub floor: Option<Rank>,
}

/// A validated agreement.
#[derive(Clone, Debug, PartialEq)]
pub struct Agreement {
    /// (1) 比賽名稱.
    pub name: String,
    /// (2) 比賽宗旨.
    pub purpose: String,
    /// (3) 參加資格, as text.
    pub eligibility: String,
    /// (4) 報名期間: opening and closing dates as written (`YYYY-MM-DD`).
    pub registration: (String, String),
    /// The days the event is played, first and last (`YYYY-MM-DD`), when the agreement gives
    /// them (`dates = { start, end }`): the EGF results file's `DT`.
    pub dates: Option<(String, String)>,
    /// Where the event is played, as the EGF results file's `PC` writes it: the country code
    /// and the town (`DE, Berlin`).
    pub place: Option<String>,
    /// (5) 採用規則: the preset whose play rules the games use (`ruleset.preset()`).
    pub rules: Preset,
    /// (5) 採用規則 as named: the preset, or the EGF's Simplified Ing Rules played with the
    /// preset of the same play rules. Exports name this.
    pub ruleset: RuleSet,
    /// Board size.
    pub size: usize,
    /// (6) 對局局差.
    pub handicap: HandicapSystem,
    /// Komi of an even game (default 8).
    pub komi: Komi,
    /// (7) 對局時限 (default Ing's penalty-point overtime, `ing-pp:3h`).
    pub time: TimeControl,
    /// (8) 處罰規則: absences allowed before 罰停 (default 1: the second absence suspends).
    pub allowed_absences: u32,
    /// (9) 對局禮節, as text.
    pub etiquette: String,
    /// (10) 權利義務, as text.
    pub rights: String,
    /// 賽制.
    pub format: Format,
    /// 計分.
    pub scoring: Scoring,
    /// Swiss and McMahon pairing choices.
    pub pairing: PairingRules,
    /// Entrants listed in the agreement itself.
    pub entrants: Vec<Entrant>,
    /// The text it was read from, kept so that the event can be stored and read back.
    pub source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    name: Option<String>,
    purpose: Option<String>,
    eligibility: Option<String>,
    registration: Option<RawRegistration>,
    dates: Option<RawDates>,
    place: Option<String>,
    rules: Option<String>,
    size: Option<i64>,
    handicap: Option<RawHandicap>,
    time: Option<RawTime>,
    penalties: Option<RawPenalties>,
    etiquette: Option<String>,
    rights: Option<String>,
    format: Option<RawFormat>,
    scoring: Option<RawScoring>,
    pairing: Option<RawPairing>,
    #[serde(default)]
    entrants: Vec<RawEntrant>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRegistration {
    opens: Option<String>,
    closes: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDates {
    start: Option<String>,
    end: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHandicap {
    system: Option<String>,
    komi: Option<f64>,
    reduction: Option<i64>,
    even_at_bar: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPairing {
    order: Option<String>,
    avoid_same_club: Option<bool>,
    #[serde(default)]
    forbidden: Vec<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTime {
    control: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPenalties {
    allowed_absences: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFormat {
    kind: Option<String>,
    rounds: Option<i64>,
    games: Option<i64>,
    margin: Option<i64>,
    grade: Option<i64>,
    bar: Option<String>,
    floor: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScoring {
    tie_breakers: Option<Vec<String>>,
    aux_for_b: Option<String>,
    bye_main: Option<i64>,
    bye_in_aux: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntrant {
    name: Option<String>,
    rank: Option<String>,
    kind: Option<String>,
    #[serde(default)]
    members: Vec<RawMember>,
    engine: Option<String>,
    club: Option<String>,
    surname: Option<String>,
    given_name: Option<String>,
    country: Option<String>,
    egd_pin: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMember {
    name: Option<String>,
    rank: Option<String>,
}

fn required(v: Option<String>, field: &str) -> Result<String, AgreementError> {
    match v {
        Some(s) if !s.trim().is_empty() => Ok(s),
        Some(_) => Err(err(field, "is empty")),
        None => Err(err(field, "is missing (article 5 requires it)")),
    }
}

fn date(s: &str, field: &str) -> Result<(i32, u32, u32), AgreementError> {
    let bad = || err(field, format!("{s:?} is not a date YYYY-MM-DD"));
    let mut it = s.split('-');
    let (Some(y), Some(m), Some(d), None) = (it.next(), it.next(), it.next(), it.next()) else {
        return Err(bad());
    };
    let (y, m, d): (i32, u32, u32) = (
        y.parse().map_err(|_| bad())?,
        m.parse().map_err(|_| bad())?,
        d.parse().map_err(|_| bad())?,
    );
    if y.to_string().len() != 4 || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return Err(bad());
    }
    Ok((y, m, d))
}

fn small(
    v: Option<i64>,
    field: &str,
    default: u32,
    min: u32,
    max: u32,
) -> Result<u32, AgreementError> {
    let Some(v) = v else { return Ok(default) };
    if v < i64::from(min) || v > i64::from(max) {
        return Err(err(field, format!("{v} is out of range {min}..={max}")));
    }
    Ok(v as u32)
}

fn rank(s: &str, field: &str) -> Result<Rank, AgreementError> {
    s.parse::<Rank>().map_err(|e| err(field, e.to_string()))
}

impl Agreement {
    /// Reads and validates an agreement.
    ///
    /// # Errors
    ///
    /// [`AgreementError`] naming the first field that is missing, malformed or inconsistent.
    pub fn from_toml(text: &str) -> Result<Agreement, AgreementError> {
        let raw: Raw = toml::from_str(text).map_err(|e| {
            let field = e
                .message()
                .split('`')
                .nth(1)
                .map(str::to_owned)
                .unwrap_or_else(|| "(file)".to_owned());
            let at = e
                .span()
                .map(|s| {
                    let line = text[..s.start.min(text.len())].matches('\n').count() + 1;
                    format!(" (line {line})")
                })
                .unwrap_or_default();
            err(&field, format!("{}{at}", e.message().trim()))
        })?;
        let name = required(raw.name, "name")?;
        let purpose = required(raw.purpose, "purpose")?;
        let eligibility = required(raw.eligibility, "eligibility")?;
        let reg = raw
            .registration
            .ok_or_else(|| err("registration", "is missing (報名期間, article 5 item 4)"))?;
        let opens = required(reg.opens, "registration.opens")?;
        let closes = required(reg.closes, "registration.closes")?;
        if date(&opens, "registration.opens")? > date(&closes, "registration.closes")? {
            return Err(err(
                "registration.closes",
                format!("{closes} is before the opening date {opens}"),
            ));
        }
        let dates = match raw.dates {
            None => None,
            Some(d) => {
                let start = required(d.start, "dates.start")?;
                // A one-day event needs no end.
                let end = d.end.unwrap_or_else(|| start.clone());
                if date(&start, "dates.start")? > date(&end, "dates.end")? {
                    return Err(err(
                        "dates.end",
                        format!("{end} is before the first day {start}"),
                    ));
                }
                Some((start, end))
            }
        };
        let place = raw.place.filter(|p| !p.trim().is_empty());
        let ruleset = match raw.rules {
            None => RuleSet::Preset(Preset::Ing),
            Some(r) => r.parse::<RuleSet>().map_err(|e| err("rules", e))?,
        };
        let rules = ruleset.preset();
        let size = match raw.size {
            None => 19,
            Some(s) if (2..=25).contains(&s) => s as usize,
            Some(s) => return Err(err("size", format!("{s} is not a board size 2..=25"))),
        };
        let (handicap, komi) = match raw.handicap {
            None => (HandicapSystem::Even, Komi::points(8)),
            Some(h) => {
                let system = match h.system.as_deref().map(str::trim) {
                    None | Some("even") | Some("無差賽") => HandicapSystem::Even,
                    Some("ranks") | Some("有差賽") => HandicapSystem::Ranks,
                    Some("mcmahon") => HandicapSystem::McMahon {
                        reduction: small(h.reduction, "handicap.reduction", 0, 0, 20)?,
                        even_at_bar: h.even_at_bar.unwrap_or(true),
                    },
                    Some(o) => {
                        return Err(err(
                            "handicap.system",
                            format!(
                            "{o:?}: expected \"even\" (無差賽), \"ranks\" (有差賽) or \"mcmahon\""
                        ),
                        ))
                    }
                };
                if !matches!(system, HandicapSystem::McMahon { .. }) {
                    if h.reduction.is_some() {
                        return Err(err(
                            "handicap.reduction",
                            "is only for system = \"mcmahon\"",
                        ));
                    }
                    if h.even_at_bar.is_some() {
                        return Err(err(
                            "handicap.even_at_bar",
                            "is only for system = \"mcmahon\"",
                        ));
                    }
                }
                let komi = match h.komi {
                    None => Komi::points(8),
                    Some(k) => format!("{k}")
                        .parse::<Komi>()
                        .map_err(|e| err("handicap.komi", e.to_string()))?,
                };
                (system, komi)
            }
        };
        let time = match raw.time.and_then(|t| t.control) {
            None => "ing-pp:3h"
                .parse::<TimeControl>()
                .map_err(|e| err("time.control", e.to_string()))?,
            Some(t) => t
                .parse::<TimeControl>()
                .map_err(|e| err("time.control", e.to_string()))?,
        };
        let allowed_absences = small(
            raw.penalties.and_then(|p| p.allowed_absences),
            "penalties.allowed_absences",
            1,
            0,
            1000,
        )?;
        let rf = raw.format.ok_or_else(|| {
            err(
                "format",
                "is missing (賽制: article 5 requires the agreement to fix it)",
            )
        })?;
        let kind: FormatKind = required(rf.kind, "format.kind")?
            .parse()
            .map_err(|e: String| err("format.kind", e))?;
        let swiss = matches!(kind, FormatKind::Swiss | FormatKind::McMahon);
        let rounds = match (swiss, rf.rounds) {
            (true, None) => {
                return Err(err(
                    "format.rounds",
                    "is missing: a Swiss or McMahon event needs its number of rounds",
                ))
            }
            (true, r) => small(r, "format.rounds", 0, 1, 100)?,
            (false, Some(_)) => {
                return Err(err(
                    "format.rounds",
                    format!("is only for swiss and mcmahon, not {}", kind.name()),
                ))
            }
            (false, None) => 0,
        };
        let ten = kind == FormatKind::TenGame;
        for (v, f) in [
            (&rf.games, "format.games"),
            (&rf.margin, "format.margin"),
            (&rf.grade, "format.grade"),
        ] {
            if v.is_some() && !ten {
                return Err(err(f, format!("is only for ten-game, not {}", kind.name())));
            }
        }
        let games = small(rf.games, "format.games", 10, 1, 100)?;
        let margin = small(rf.margin, "format.margin", 4, 1, 100)?;
        let grade = small(rf.grade, "format.grade", 4, 1, 64)? as i32;
        if ten && margin > games {
            return Err(err(
                "format.margin",
                format!("a lead of {margin} can never happen in {games} games"),
            ));
        }
        if (rf.bar.is_some() || rf.floor.is_some()) && kind != FormatKind::McMahon {
            return Err(err(
                if rf.bar.is_some() {
                    "format.bar"
                } else {
                    "format.floor"
                },
                "is only for mcmahon",
            ));
        }
        let bar = rf
            .bar
            .as_deref()
            .map(|b| rank(b, "format.bar"))
            .transpose()?;
        let floor = rf
            .floor
            .as_deref()
            .map(|b| rank(b, "format.floor"))
            .transpose()?;
        if let (Some(b), Some(f)) = (bar, floor) {
            if crate::rank_level(b) < crate::rank_level(f) {
                return Err(err("format.floor", format!("{f} is above the bar {b}")));
            }
        }
        if matches!(handicap, HandicapSystem::McMahon { .. }) && kind != FormatKind::McMahon {
            return Err(err(
                "handicap.system",
                format!(
                    "\"mcmahon\" is only for mcmahon events, not {}",
                    kind.name()
                ),
            ));
        }
        let mut scoring = Scoring::default();
        // A McMahon event is placed as the EGF and OpenGotha place it: by McMahon score, then
        // SOS, SOSOS and SODOS on McMahon scores; Ing's own keys stay the default elsewhere.
        if kind == FormatKind::McMahon {
            scoring.tie_breakers = vec![TieBreak::Sos, TieBreak::Sosos, TieBreak::Sodos];
        }
        let pairing =
            match raw.pairing {
                None => PairingRules::default(),
                Some(_) if !swiss => {
                    return Err(err(
                        "pairing",
                        format!("is only for swiss and mcmahon, not {}", kind.name()),
                    ))
                }
                Some(p) => {
                    let order = match p.order.as_deref().map(str::trim) {
                        None | Some("slip") => GroupOrder::Slip,
                        Some("fold") => GroupOrder::Fold,
                        Some(o) => {
                            return Err(err(
                                "pairing.order",
                                format!("{o:?}: expected \"slip\" or \"fold\""),
                            ))
                        }
                    };
                    let mut forbidden = Vec::new();
                    for (i, pair) in p.forbidden.into_iter().enumerate() {
                        match &pair[..] {
                            [a, b] if a != b => forbidden.push((a.clone(), b.clone())),
                            _ => return Err(err(
                                &format!("pairing.forbidden[{i}]"),
                                "expected two different entrants' names, e.g. [\"Wang\", \"Li\"]",
                            )),
                        }
                    }
                    PairingRules {
                        order,
                        avoid_same_club: p.avoid_same_club.unwrap_or(false),
                        forbidden,
                    }
                }
            };
        if let Some(s) = raw.scoring {
            if let Some(t) = s.tie_breakers {
                let mut keys = Vec::new();
                for (i, k) in t.iter().enumerate() {
                    let key: TieBreak = k
                        .parse()
                        .map_err(|e: String| err(&format!("scoring.tie_breakers[{i}]"), e))?;
                    if keys.contains(&key) {
                        return Err(err(
                            &format!("scoring.tie_breakers[{i}]"),
                            format!("{} is listed twice", key.name()),
                        ));
                    }
                    if matches!(key, TieBreak::Sos | TieBreak::Sosos | TieBreak::Sodos) && !swiss {
                        return Err(err(
                            &format!("scoring.tie_breakers[{i}]"),
                            format!(
                                "{} is offered for swiss and mcmahon events only",
                                key.name()
                            ),
                        ));
                    }
                    keys.push(key);
                }
                scoring.tie_breakers = keys;
            }
            scoring.aux_for_b = match s.aux_for_b.as_deref() {
                None | Some("A1+A2") => AuxForB::A1PlusA2,
                Some("A1") => AuxForB::A1,
                Some(o) => {
                    return Err(err(
                        "scoring.aux_for_b",
                        format!("{o:?}: expected \"A1+A2\" or \"A1\""),
                    ))
                }
            };
            scoring.bye_main = small(s.bye_main, "scoring.bye_main", 1, 0, 1)?;
            scoring.bye_in_aux = s.bye_in_aux.unwrap_or(false);
        }
        let mut entrants = Vec::new();
        for (i, e) in raw.entrants.into_iter().enumerate() {
            let f = |x: &str| format!("entrants[{i}].{x}");
            let name = required(e.name, &f("name"))?;
            let kind = match e.kind.as_deref() {
                None | Some("player") => EntrantKind::Player,
                Some("pair") | Some("聯棋") => EntrantKind::Pair,
                Some("consultation") | Some("商談聯棋") => EntrantKind::Consultation,
                Some("team") => EntrantKind::Team,
                Some(o) => {
                    return Err(err(
                        &f("kind"),
                        format!("{o:?}: expected player, pair, consultation or team"),
                    ))
                }
            };
            let mut members = Vec::new();
            for (j, m) in e.members.into_iter().enumerate() {
                let mf = format!("entrants[{i}].members[{j}]");
                members.push(Member {
                    name: required(m.name, &format!("{mf}.name"))?,
                    rank: m
                        .rank
                        .as_deref()
                        .map(|r| rank(r, &format!("{mf}.rank")))
                        .transpose()?,
                });
            }
            let entrant = Entrant {
                name,
                rank: e.rank.as_deref().map(|r| rank(r, &f("rank"))).transpose()?,
                kind,
                members,
                engine: e.engine,
                club: e.club.filter(|c| !c.trim().is_empty()),
                surname: e.surname.filter(|c| !c.trim().is_empty()),
                given_name: e.given_name.filter(|c| !c.trim().is_empty()),
                country: e
                    .country
                    .as_deref()
                    .map(|c| crate::country_code(c).map_err(|reason| err(&f("country"), reason)))
                    .transpose()?,
                egd_pin: e.egd_pin,
                withdrawn: false,
            };
            entrant
                .check()
                .map_err(|reason| err(&f("members"), reason))?;
            if entrants.iter().any(|x: &Entrant| x.name == entrant.name) {
                return Err(err(
                    &f("name"),
                    format!("{:?} is entered twice", entrant.name),
                ));
            }
            entrants.push(entrant);
        }
        let agreement = Agreement {
            name,
            purpose,
            eligibility,
            registration: (opens, closes),
            dates,
            place,
            rules,
            ruleset,
            size,
            handicap,
            komi,
            time,
            allowed_absences,
            etiquette: raw.etiquette.unwrap_or_default(),
            rights: raw.rights.unwrap_or_default(),
            format: Format {
                kind,
                rounds,
                games,
                margin,
                grade,
                bar,
                floor,
            },
            scoring,
            pairing,
            entrants,
            source: text.to_owned(),
        };
        for e in &agreement.entrants {
            agreement
                .admits(e)
                .map_err(|reason| err("entrants", reason))?;
        }
        Ok(agreement)
    }

    /// Whether `entrant` may enter this event: the kind of entrant must suit the format, and a
    /// handicap event needs every rank.
    ///
    /// # Errors
    ///
    /// The reason, in a sentence.
    pub fn admits(&self, entrant: &Entrant) -> Result<(), String> {
        let team_format = self.format.kind == FormatKind::Leitai;
        if team_format != (entrant.kind == EntrantKind::Team) {
            return Err(format!(
                "{:?} is a {} but a {} event takes {}",
                entrant.name,
                entrant.kind.name(),
                self.format.kind.name(),
                if team_format {
                    "teams"
                } else {
                    "players, pairs or consultation teams"
                }
            ));
        }
        if (self.handicap == HandicapSystem::Ranks || self.format.kind == FormatKind::McMahon)
            && entrant.rank.is_none()
            && entrant.kind != EntrantKind::Team
        {
            return Err(format!(
                "{:?} has no rank, which a {} event needs",
                entrant.name,
                if self.format.kind == FormatKind::McMahon {
                    "McMahon"
                } else {
                    "handicap (有差賽)"
                }
            ));
        }
        Ok(())
    }
}
