//! `ingo judge --verify` and `ingo score`: the end of a game judged as a referee counts it
//! ([`ingo_player::endgame::judge_end`]), compared with the result the record gives.

use ingo_player::endgame::{judge_end, EndgameConfig, Judgement, Status};
use ingo_rules::{Board, Game, Komi};
use serde_json::{json, Value};

/// The comparison of the judged count with a record's counted result.
#[derive(Clone, Debug, PartialEq)]
pub struct Verify {
    /// The result as the record gives it (`RE`).
    pub recorded: String,
    /// The result of the judged count, written the same way.
    pub counted: String,
    /// Same winner.
    pub winner_agrees: bool,
    /// Same winner and the same margin.
    pub agrees: bool,
    /// What the two results alone prove about the record's count, when they differ by an odd
    /// number of points ([`shared_parity_note`]) or by a fraction of a point ([`komi_note`]).
    pub note: Option<String>,
    /// The judgement's verdicts a person should check (`Judgement::checks`: a string's first
    /// stone and its note, `K11 46%`), where a disagreement is looked for first.
    pub checks: Vec<String>,
    /// Where the winners differ, the verdicts to check the winner turns on
    /// (`Judgement::winner_turns_on`: each alone turned the other way names the other winner,
    /// the record's): a string's first stone. Empty where the winners agree (not read: it
    /// costs a fill a verdict).
    pub winner_turns_on: Vec<String>,
}

impl Verify {
    /// The `verify` object of `ingo judge --json`.
    pub fn json(&self) -> Value {
        json!({
            "recorded": self.recorded,
            "counted": self.counted,
            "agrees": self.agrees,
            "winner_agrees": self.winner_agrees,
            "note": self.note,
            "checks": self.checks,
            "winner_turns_on": self.winner_turns_on,
        })
    }

    /// The words `ingo judge` adds to a record's line.
    pub fn text(&self) -> String {
        let verdict = if self.agrees {
            "agrees"
        } else if self.winner_agrees {
            "same winner, other margin"
        } else {
            "other winner"
        };
        let note = self
            .note
            .as_deref()
            .map(|n| format!("; {n}"))
            .unwrap_or_default();
        // Where the counts differ, the verdicts to look at first.
        let checks = if self.agrees || self.checks.is_empty() {
            String::new()
        } else {
            format!("; verdicts to check: {}", self.checks.join(", "))
        };
        let turns = if self.winner_turns_on.is_empty() {
            String::new()
        } else {
            format!("; the winner turns on {}", self.winner_turns_on.join(", "))
        };
        format!(
            ", verify: recorded {} counted {} ({verdict}{note}{checks}{turns})",
            self.recorded, self.counted
        )
    }
}

/// Why the record's `RE`, which reads as a count (`B+7.5`), is none that its board can be
/// checked against, in words ([`ingo_sgf::Record::not_a_count`]).
pub fn not_a_count(record: &ingo_sgf::Record) -> Option<String> {
    let re = record.info.result.as_deref()?;
    Some(match record.not_a_count()? {
        ingo_sgf::NotACount::NoBoard => {
            format!("RE {re} is on a record with no move: no board to count")
        }
        ingo_sgf::NotACount::ZeroBesideHalfPointKomi => {
            format!("RE {re}, a zero margin beside a half-point komi, is no count")
        }
    })
}

/// Judges the final position of `game`, the game of `record`, and compares its count with the
/// record's `RE`, when that is a counted result ([`ingo_sgf::Record::counted_result`]); `None`
/// otherwise (a resignation, a time loss, a zero margin beside a half-point komi, a record with
/// no move and no stone, no `RE`). The count takes off the time penalties the record gives
/// ([`ingo_sgf::Record::time_penalties`]: `BP`/`WP`, else those its comments state), since the
/// result written on the record includes them.
pub fn verify(game: &Game, record: &ingo_sgf::Record) -> Option<Verify> {
    let re = record.info.result.as_deref()?;
    let (winner, halves) = record.counted_result()?;
    let penalties = record.time_penalties();
    let with_penalties;
    let game = if penalties == game.penalties() {
        game
    } else {
        let mut g = game.clone();
        g.set_penalties(penalties);
        with_penalties = g;
        &with_penalties
    };
    let j = judge_end(game, &EndgameConfig::default());
    let winner_agrees = j.score.winner == winner;
    let recorded_halves = match winner {
        ingo_rules::Color::Black => halves,
        ingo_rules::Color::White => -halves,
    };
    let agrees = winner_agrees && j.score.margin_halves.abs() == halves;
    // A record whose rules count by territory (`RU[Japanese]`, Korean) was counted so: the
    // count by territory says more than what the area count's difference proves.
    let by_territory = record
        .rules
        .is_some_and(|m| m.preset == ingo_rules::Preset::Japanese);
    let note = if by_territory && !agrees {
        Some(territory_note(
            recorded_halves,
            j.territory_margin_halves(game),
        ))
    } else {
        shared_parity_note(recorded_halves, j.score.margin_halves, j.score.shared).or_else(|| {
            komi_note(
                recorded_halves,
                j.score.margin_halves,
                record.komi,
                game.rules().komi,
            )
        })
    };
    Some(Verify {
        recorded: re.trim().to_string(),
        counted: j.score.result_string(),
        winner_agrees,
        agrees,
        note,
        checks: checks_text(&j, game.board()),
        winner_turns_on: if winner_agrees {
            Vec::new()
        } else {
            gtp_names(
                &j.winner_turns_on(game, &EndgameConfig::default()),
                game.board(),
            )
        },
    })
}

/// GTP names of `points` on `board`.
pub(crate) fn gtp_names(points: &[ingo_rules::Point], board: &Board) -> Vec<String> {
    points.iter().map(|p| p.to_gtp(board.height())).collect()
}

/// The note for a record whose rules count by territory (`RU[Japanese]`, Korean), where the
/// area count (Ing's, the one `--verify` makes) differs from its result: what the judgement
/// gives counted by territory ([`Judgement::territory_margin_halves`], `territory_halves`,
/// signed, Black ahead positive), and whether that is the record's result.
pub fn territory_note(recorded_halves: i32, territory_halves: i32) -> String {
    let result = match territory_halves.signum() {
        1 => format!("B+{}", Komi(territory_halves)),
        -1 => format!("W+{}", Komi(-territory_halves)),
        _ => "a tie".to_string(),
    };
    let same = if territory_halves == recorded_halves {
        ", the record's result"
    } else {
        ""
    };
    format!(
        "the record's rules (RU) count by territory: counted so (the area margin less the difference of the stones each side put on the board), this judgement gives {result}{same}"
    )
}

/// When a recorded margin and a counted one (signed, Black ahead positive, in half points)
/// differ by an odd number of points, the two counts had numbers of shared points of opposite
/// parity, whatever the stones: a point that changes hands moves the margin by two points, a
/// point that changes between owned and shared (分空, half to each side) by one, and the other
/// terms (komi, compensation and penalty points at two a stone, "負子、還子、罰子，每子二點")
/// are the same in both counts or even. The note says so, with the causes a referee looks
/// for: a seki judged otherwise, or a last dame both players missed, which counts as shared
/// ("最後一單官，如雙方皆未發現…應作分空論"). `None` when the difference is even (or a
/// fraction, which the komi explains, not the board).
pub fn shared_parity_note(
    recorded_halves: i32,
    counted_halves: i32,
    shared: usize,
) -> Option<String> {
    let d = (recorded_halves - counted_halves).rem_euclid(4);
    (d == 2).then(|| {
        let parity = if shared.is_multiple_of(2) { "an odd" } else { "an even" };
        format!(
            "the margins differ by an odd number of points, which only a different number of shared points (分空) gives: the record's count had {parity} number, this one has {shared} (a seki judged otherwise, or a last dame both players missed)"
        )
    })
}

/// When a recorded margin and a counted one (signed, in half points) differ by a fraction of a
/// point, only the komi explains it: a point of the board moves a margin by a whole point
/// (shared, half to each side) or two (changing hands), and the compensation and penalty
/// points go two to a stone. The note says which komi the count used (`used`) and what the
/// record states (`stated`, its `KM`): a record without `KM` whose result has a half point was
/// played with a komi it does not give (old professional records often leave it out), and SGF
/// readers, this count among them, then take none. `None` when the difference is whole.
pub fn komi_note(
    recorded_halves: i32,
    counted_halves: i32,
    stated: Option<Komi>,
    used: Komi,
) -> Option<String> {
    // The komi with which this count gives the record's margin.
    let implied = Komi(used.halves() + counted_halves - recorded_halves);
    ((recorded_halves - counted_halves) % 2 != 0).then(|| {
        let why = match stated {
            None => format!(
                "the record states no komi (KM) and was counted with {used}, so it was played with a komi it does not give"
            ),
            Some(k) => format!(
                "the record's count used another komi than the {k} it states (KM), with which it was counted"
            ),
        };
        format!(
            "the margins differ by a fraction of a point, which only the komi gives: {why} (with {implied} this count gives the record's result)"
        )
    })
}

/// Totals of `--verify` over a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VerifyTotals {
    /// Records that ended by a count.
    pub counted: usize,
    /// Of those, the judged count names the same winner.
    pub winner: usize,
    /// Of those, the judged count gives the same winner and margin.
    pub agrees: usize,
}

impl VerifyTotals {
    /// Adds one comparison.
    pub fn add(&mut self, v: &Verify) {
        self.counted += 1;
        self.winner += usize::from(v.winner_agrees);
        self.agrees += usize::from(v.agrees);
    }

    /// The closing line: `verified N counted records: winner W (x%), margin M (y%)`.
    pub fn text(&self) -> String {
        let pct = |n: usize| {
            if self.counted == 0 {
                0.0
            } else {
                100.0 * n as f64 / self.counted as f64
            }
        };
        format!(
            "verified {} counted records: same winner {} ({:.1}%), same margin {} ({:.1}%)",
            self.counted,
            self.winner,
            pct(self.winner),
            self.agrees,
            pct(self.agrees)
        )
    }
}

/// The verdicts to check of `j` as text, `K11 46%`: a string's first stone and its note.
fn checks_text(j: &Judgement, board: &Board) -> Vec<String> {
    j.checks()
        .iter()
        .map(|(p, note)| format!("{} {note}", p.to_gtp(board.height())))
        .collect()
}

/// The lines `ingo score` prints about the judgement: dead stones, seki, the neutral points
/// filled in turn and whether that fill was read out by search or made one move deep, and the
/// verdicts a person should check (`Judgement::checks`: the first stone of each string and its
/// note, as the count picture rings them) with `turns`, those the winner turns on
/// (`Judgement::winner_turns_on`).
pub fn judgement_text(j: &Judgement, board: &Board, turns: &[ingo_rules::Point]) -> String {
    let h = board.height();
    let names = |v: &[ingo_rules::Point]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.iter().map(|p| p.to_gtp(h)).collect::<Vec<_>>().join(" ")
        }
    };
    let fills: Vec<String> = j
        .fills
        .iter()
        .map(|f| format!("{} {}", f.color.letter(), f.point.to_gtp(h)))
        .collect();
    let checks = checks_text(j, board);
    // Which of them the winner turns on, where there are any.
    let turns = if checks.is_empty() {
        String::new()
    } else {
        let on = gtp_names(turns, board);
        if on.is_empty() {
            "the winner turns on: none of them (each alone turned the other way changes the margin only)\n".to_string()
        } else {
            format!(
                "the winner turns on: {} (each alone turned the other way names the other winner)\n",
                on.join(", ")
            )
        }
    };
    format!(
        "dead stones: {}\nseki stones: {}\nshared points (分空) left empty: {}\nneutral points filled in turn, {} first: {}\nverdicts to check: {}\n{turns}",
        names(&j.dead),
        names(&j.stones(Status::Seki)),
        names(&j.seki_points),
        j.first_to_fill,
        if fills.is_empty() {
            "none".to_string()
        } else if let Some(why) = j.fill_note(names) {
            format!("{} (one move deep: {why})", fills.join(", "))
        } else {
            format!("{} (read out to the end)", fills.join(", "))
        },
        if checks.is_empty() {
            "none (every string proved, given, or sampled more than three times in four either way)"
                .to_string()
        } else {
            format!(
                "{} (a string's first stone: its share of the playouts, or R race, A race in atari, S eye shape, G group read, E large eye space, F fill, K ko taken last)",
                checks.join(", ")
            )
        }
    )
}

#[cfg(test)]
mod tests {
    use super::{komi_note, shared_parity_note};
    use ingo_rules::Komi;

    #[test]
    fn a_difference_of_a_fraction_of_a_point_is_the_komi() {
        // W+5.5 recorded (−11 halves) against B+1 counted without komi: six and a half apart.
        let n = komi_note(-11, 2, None, Komi(0)).expect("a half point apart");
        assert!(
            n.contains("the record states no komi (KM) and was counted with 0")
                && n.contains("(with 6.5 this count gives the record's result)"),
            "{n}"
        );
        let n = komi_note(1, 0, Some(Komi(13)), Komi(13)).expect("half a point apart");
        // B+0.5 recorded against B+0 counted with 6.5: the record's count had 6.
        assert!(
            n.contains("another komi than the 6.5 it states") && n.contains("(with 6 this"),
            "{n}"
        );
        // Whole points apart (the board) or equal: no note.
        assert_eq!(komi_note(2, 0, None, Komi(0)), None);
        assert_eq!(komi_note(-11, -11, Some(Komi(13)), Komi(13)), None);
        assert_eq!(komi_note(-11, 3, Some(Komi(13)), Komi(13)), None);
    }

    #[test]
    fn an_odd_difference_in_points_needs_other_shared_points() {
        // W+1 recorded (−2 halves) against B+0 counted: one point apart.
        let n = shared_parity_note(-2, 0, 0).expect("one point apart");
        assert!(
            n.contains("the record's count had an odd number, this one has 0"),
            "{n}"
        );
        // B+2 against W+1: three points apart; the count has one shared point.
        let n = shared_parity_note(4, -2, 1).expect("three points apart");
        assert!(n.contains("had an even number, this one has 1"), "{n}");
        // Two points apart (a point that changed hands), equal, or half a point (the komi).
        assert_eq!(shared_parity_note(6, 2, 0), None);
        assert_eq!(shared_parity_note(-6, -6, 3), None);
        assert_eq!(shared_parity_note(3, 2, 0), None);
    }
}
