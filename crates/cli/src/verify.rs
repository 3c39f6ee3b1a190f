//! `ingo judge --verify` and `ingo score`: the end of a game judged as a referee counts it
//! ([`ingo_player::endgame::judge_end`]), compared with the result the record gives.

use ingo_player::endgame::{judge_end, EndgameConfig, Judgement, Status};
use ingo_rules::{Board, Game};
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
}

impl Verify {
    /// The `verify` object of `ingo judge --json`.
    pub fn json(&self) -> Value {
        json!({
            "recorded": self.recorded,
            "counted": self.counted,
            "agrees": self.agrees,
            "winner_agrees": self.winner_agrees,
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
        format!(
            ", verify: recorded {} counted {} ({verdict})",
            self.recorded, self.counted
        )
    }
}

/// Judges the final position of `game`, the game of `record`, and compares its count with the
/// record's `RE`, when that is a counted result; `None` otherwise (a resignation, a time loss,
/// no `RE`). The count takes off the time penalties the record gives
/// ([`ingo_sgf::Record::time_penalties`]: `BP`/`WP`, else those its comments state), since the
/// result written on the record includes them.
pub fn verify(game: &Game, record: &ingo_sgf::Record) -> Option<Verify> {
    let re = record.info.result.as_deref()?;
    let (winner, halves) = ingo_sgf::counted_result(re)?;
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
    Some(Verify {
        recorded: re.trim().to_string(),
        counted: j.score.result_string(),
        winner_agrees,
        agrees: winner_agrees && j.score.margin_halves.abs() == halves,
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

/// The lines `ingo score` prints about the judgement: dead stones, seki, and the neutral
/// points filled in turn, and whether that fill was read out by search or made one move deep.
pub fn judgement_text(j: &Judgement, board: &Board) -> String {
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
    format!(
        "dead stones: {}\nseki stones: {}\nshared points (分空) left empty: {}\nneutral points filled in turn, {} first: {}\n",
        names(&j.dead),
        names(&j.stones(Status::Seki)),
        names(&j.seki_points),
        j.first_to_fill,
        if fills.is_empty() {
            "none".to_string()
        } else if j.fill_read {
            format!("{} (read out to the end)", fills.join(", "))
        } else {
            format!("{} (one move deep: too many to read)", fills.join(", "))
        }
    )
}
