//! Ing's competition rules (docs/rules.md §6, rule text 第六條): ranks in the three classes 品 (professional),
//! 段 (amateur dan) and 級 (kyu), the handicap between two players as White's passes plus
//! compensation points (讓手 and 還點填平法), and nigiri.
//!
//! ```
//! use ingo_competition::{handicap, HandicapScale, Rank};
//! // docs/rules.md T16: 6段 against 3段 is one and a half 先: Black, one White pass, komi 4.
//! let h = handicap("6段".parse().unwrap(), "3d".parse().unwrap(), &HandicapScale::ing());
//! assert_eq!((h.handicap_passes, h.komi.to_string().as_str()), (1, "4"));
//! assert_eq!(h.black.to_string(), "3d");
//! ```
#![deny(missing_docs)]

mod nigiri;
mod rank;

pub use nigiri::{nigiri, Nigiri, Parity};
pub use rank::{ParseRankError, Rank, MAX_KYU};

use ingo_rules::{Color, Komi, Rules};

/// The points scale that turns ranks into handicaps. [`HandicapScale::ing`] holds the docs/rules.md
/// values; the two boundary steps are assumptions (the 品段級 table "附後" is not available) and so
/// are configurable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandicapScale {
    /// Points of one 先 (a whole move): 8, so that "0先" is komi 8 and "1先" no komi.
    pub sente: i32,
    /// Points of one 級 step ("級…一級一先"): 8.
    pub kyu_step: i32,
    /// Points of one 段 step ("段…二分之一先"): 4.
    pub dan_step: i32,
    /// Points of one 品 step ("品…四分之一先"): 2.
    pub pro_step: i32,
    /// From 1級 up to 初段: one 級 step (8) by assumption.
    pub kyu_to_dan: i32,
    /// From 9段 up to 9品: one 段 step (4) by assumption.
    pub dan_to_pro: i32,
    /// The komi of an even game: 8 ("貼還八點").
    pub even_komi: i32,
}

impl HandicapScale {
    /// The scale of docs/rules.md §6.
    pub const fn ing() -> HandicapScale {
        HandicapScale {
            sente: 8,
            kyu_step: 8,
            dan_step: 4,
            pro_step: 2,
            kyu_to_dan: 8,
            dan_to_pro: 4,
            even_komi: 8,
        }
    }

    /// The rank's points on this scale: 初段 is 0, each class counted from there.
    pub fn points(&self, rank: Rank) -> i32 {
        match rank {
            // 級外, everything below 9級, is one class: one step below 9級.
            Rank::BelowKyu => -self.kyu_to_dan - 9 * self.kyu_step,
            // Below 9級 every kyu rank is 級外.
            Rank::Kyu(k) => -self.kyu_to_dan - (i32::from(k).min(10) - 1) * self.kyu_step,
            Rank::Dan(d) => (d as i32 - 1) * self.dan_step,
            Rank::Pro(p) => 8 * self.dan_step + self.dan_to_pro + (9 - p as i32) * self.pro_step,
        }
    }
}

impl Default for HandicapScale {
    fn default() -> Self {
        HandicapScale::ing()
    }
}

/// The conditions of a game between two ranked players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handicap {
    /// Who takes Black (the weaker player; the first one given when even, pending nigiri).
    pub black: Rank,
    /// Who takes White.
    pub white: Rank,
    /// Whether the colours are to be decided by nigiri (an even game).
    pub nigiri: bool,
    /// The difference in points on the scale.
    pub difference: i32,
    /// White's handicap passes: "N先減1即為所讓手數".
    pub handicap_passes: u32,
    /// The points Black gives White (the even komi, or the compensation points of 還點填平法).
    pub komi: Komi,
    /// How the result was derived, in a sentence.
    pub explanation: String,
}

/// The handicap between players of ranks `a` and `b` on `scale`.
///
/// With a difference of Δ points: Δ = 0 is an even game (nigiri, komi 8, ties to Black). Otherwise
/// the weaker player takes Black, `K = max(1, ⌈Δ/8⌉)` 先, White passes `K − 1` times and receives
/// `8K − Δ` points back, so that Black never receives points (docs/rules.md §6 and §9.8).
pub fn handicap(a: Rank, b: Rank, scale: &HandicapScale) -> Handicap {
    let (pa, pb) = (scale.points(a), scale.points(b));
    let (strong, weak, ps, pw) = if pa >= pb {
        (a, b, pa, pb)
    } else {
        (b, a, pb, pa)
    };
    let delta = ps - pw;
    if delta == 0 {
        return Handicap {
            black: a,
            white: b,
            nigiri: true,
            difference: 0,
            handicap_passes: 0,
            komi: Komi::points(scale.even_komi),
            explanation: format!(
                "{a} and {b} are of equal strength ({pa} points): an even game (0先), colours by nigiri, Black gives {} points, ties go to Black",
                scale.even_komi
            ),
        };
    }
    let k = ((delta + scale.sente - 1) / scale.sente).max(1);
    let komi = scale.sente * k - delta;
    let passes = (k - 1) as u32;
    Handicap {
        black: weak,
        white: strong,
        nigiri: false,
        difference: delta,
        handicap_passes: passes,
        komi: Komi::points(komi),
        explanation: format!(
            "{strong} ({ps} points) against {weak} ({pw} points): a difference of {delta} points = {} 先, rounded up to {k} 先; {weak} takes Black, White passes {passes} time{} and receives {komi} point{} back (還點填平法)",
            fmt_sente(delta, scale.sente),
            if passes == 1 { "" } else { "s" },
            if komi == 1 { "" } else { "s" },
        ),
    }
}

impl Handicap {
    /// Whether this is a handicap game (有差賽): the players' ranks differ, whether the handicap
    /// is passes, compensation points, or both. Only an even game (0先, nigiri) is not.
    pub fn is_handicap_game(&self) -> bool {
        !self.nigiri
    }

    /// Who wins a tie under `rules`: [`Rules::tie_even`] in an even game,
    /// [`Rules::tie_handicap`] in a handicap game, even one with no White pass. (For Ing's rules:
    /// Black, "和棋黑勝", in an even game; White in a handicap game.)
    pub fn tie_winner(&self, rules: &Rules) -> Color {
        if self.is_handicap_game() {
            rules.tie_handicap
        } else {
            rules.tie_even
        }
    }
}

fn fmt_sente(points: i32, sente: i32) -> String {
    let whole = points / sente;
    let rest = points % sente;
    match (whole, rest) {
        (w, 0) => format!("{w}"),
        (0, r) => format!("{r}/{sente}"),
        (w, r) => format!("{w} {r}/{sente}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(a: &str, b: &str) -> Handicap {
        handicap(
            a.parse().expect("rank"),
            b.parse().expect("rank"),
            &HandicapScale::ing(),
        )
    }

    #[test]
    fn spec_section_6_examples() {
        // "5段 vs 4段 → komi 4; 3品 vs 4品 → komi 6; 5段 vs 3段 → 1先, komi 0;
        //  6段 vs 3段 (1½先) → 1 pass + komi 4; 2級 vs 5級 → 2 passes."
        let cases = [
            ("5段", "4段", "4d", 0, 4),
            ("3品", "4品", "6p", 0, 6),
            ("5段", "3段", "3d", 0, 0),
            ("6段", "3段", "3d", 1, 4),
            ("2級", "5級", "5k", 2, 0),
        ];
        for (a, b, black, passes, komi) in cases {
            let r = h(a, b);
            assert_eq!(r.black.to_string(), black, "{a} vs {b}");
            assert_eq!(r.handicap_passes, passes, "{a} vs {b}");
            assert_eq!(r.komi, Komi::points(komi), "{a} vs {b}");
            assert!(!r.nigiri);
            // The order of the players does not matter.
            assert_eq!(h(b, a).handicap_passes, passes);
            assert_eq!(h(b, a).komi, Komi::points(komi));
        }
    }

    #[test]
    fn t16_handicap_checks() {
        let r = h("6段", "3段");
        assert_eq!((r.black.to_string().as_str(), r.handicap_passes), ("3d", 1));
        assert_eq!(r.komi, Komi::points(4));
        let r = h("3品", "4品");
        assert_eq!((r.black, r.handicap_passes), (Rank::Pro(4), 0));
        assert_eq!(r.komi, Komi::points(6));
    }

    #[test]
    fn equal_ranks_are_an_even_game_by_nigiri() {
        let r = h("3d", "3段");
        assert!(r.nigiri);
        assert_eq!((r.handicap_passes, r.komi), (0, Komi::points(8)));
    }

    #[test]
    fn class_boundaries_follow_the_stated_assumptions() {
        // 初段 is one 級 step above 1級; 9品 is one 段 step above 9段.
        let r = h("1d", "1k");
        assert_eq!(
            (r.difference, r.handicap_passes, r.komi),
            (8, 0, Komi::points(0))
        );
        let r = h("9品", "9d");
        assert_eq!((r.difference, r.komi), (4, Komi::points(4)));
        // 級外 is one class below 9級.
        let r = h("9k", "級外");
        assert_eq!(r.difference, 8);
    }

    #[test]
    fn nine_dan_professional_gives_handicap_to_one_dan_professional() {
        // 9p is 1品, the top; 1p is 9品: eight 品 steps of 2 points apart.
        let r = h("9p", "1p");
        assert_eq!((r.white, r.black), (Rank::Pro(1), Rank::Pro(9)));
        assert_eq!((r.difference, r.handicap_passes), (16, 1));
    }

    #[test]
    fn handicap_from_ranks_without_passes_gives_ties_to_white() {
        // 5段 against 4段 is komi 4, 5段 against 3段 no komi: no White pass, still 有差賽.
        for (a, b) in [("5段", "4段"), ("5段", "3段"), ("3品", "4品")] {
            let r = h(a, b);
            assert_eq!(r.handicap_passes, 0, "{a} vs {b}");
            assert!(r.is_handicap_game(), "{a} vs {b}");
            assert_eq!(r.tie_winner(&Rules::ing()), Color::White, "{a} vs {b}");
        }
        let even = h("3d", "3段");
        assert!(!even.is_handicap_game());
        assert_eq!(even.tie_winner(&Rules::ing()), Color::Black);
    }

    #[test]
    fn configurable_boundary() {
        let scale = HandicapScale {
            kyu_to_dan: 4,
            ..HandicapScale::ing()
        };
        let r = handicap(Rank::Dan(1), Rank::Kyu(1), &scale);
        assert_eq!((r.difference, r.komi), (4, Komi::points(4)));
    }

    #[test]
    fn black_never_receives_points() {
        let ranks: Vec<Rank> = (1..=9)
            .map(Rank::Pro)
            .chain((1..=9).map(Rank::Dan))
            .chain((1..=9).map(Rank::Kyu))
            .chain([Rank::BelowKyu])
            .collect();
        for &a in &ranks {
            for &b in &ranks {
                let r = handicap(a, b, &HandicapScale::ing());
                assert!(r.komi.halves() >= 0, "{a} vs {b}");
                assert!(
                    r.komi.halves() < 16 || r.nigiri,
                    "{a} vs {b}: komi below one 先"
                );
                // Passes and points together make up the difference (or the even komi).
                if !r.nigiri {
                    let sente = 8 * (r.handicap_passes as i32 + 1);
                    assert_eq!(sente - r.komi.halves() / 2, r.difference, "{a} vs {b}");
                }
            }
        }
    }
}
