//! The result of one finished game, as the match keeps it (`game-NNNN.json`).

use std::path::Path;

use ingo_rules::{Color, GameEnd};
use serde::{Deserialize, Serialize};

use crate::{
    config::MatchConfig,
    engine_id::EngineId,
    error::RefereeError,
    game::{GameReport, Outcome},
};

/// How a game ended, for the results table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EndKind {
    /// Counted (after agreement on dead stones, or four passes).
    Count,
    /// A resignation.
    Resignation,
    /// A loss on time (the clock, or a hang under [`FailureAction::Forfeit`](crate::FailureAction)).
    Time,
    /// A forfeit (illegal move, crash, garbage).
    Forfeit,
    /// Void: counted for nobody.
    Void,
}

/// One finished game of a match: what `results.json` lists and `game-NNNN.json` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number, from 1.
    pub index: u32,
    /// The engine with Black.
    pub black: EngineId,
    /// The engine with White.
    pub white: EngineId,
    /// Black's name as written in the SGF.
    pub black_name: String,
    /// White's name as written in the SGF.
    pub white_name: String,
    /// `RE`: `B+7`, `W+R`, `B+T`, `W+F`, `Void`.
    pub result: String,
    /// The winning engine; `None` for a void game.
    pub winner: Option<EngineId>,
    /// The winning colour, `B` or `W`; `None` for a void game.
    pub winner_color: Option<String>,
    /// How the game ended.
    pub end: EndKind,
    /// How it ended, in a sentence.
    pub reason: String,
    /// The failure's code when an engine failure ended or voided the game (see
    /// [`Failure::code`](crate::Failure::code)).
    pub failure_code: Option<String>,
    /// The engine that failed.
    pub failed: Option<EngineId>,
    /// Moves played (passes and handicap passes included).
    pub moves: usize,
    /// The counted margin from Black's side, in points (komi and penalties included), for a
    /// counted game.
    pub margin: Option<f64>,
    /// Black's time-penalty points (Ing PP).
    pub black_penalty: i32,
    /// White's time-penalty points.
    pub white_penalty: i32,
    /// White's handicap passes.
    pub handicap_passes: u8,
    /// The komi, as text (`8`, `7.5`).
    pub komi: String,
    /// Thinking time Black used, in milliseconds.
    pub black_time_ms: u64,
    /// Thinking time White used, in milliseconds.
    pub white_time_ms: u64,
    /// Wall time of the game, in milliseconds.
    pub duration_ms: u64,
    /// How many times the game was voided and replayed before this result.
    pub voided_before: u32,
    /// The SGF file name (in the output directory).
    pub sgf: String,
}

impl GameRecord {
    /// Whether the game counts for the results (it is not void).
    pub fn counted(&self) -> bool {
        self.end != EndKind::Void
    }

    /// The record of a report's game.
    pub fn from_report(report: &GameReport, sgf: &str) -> GameRecord {
        let game = &report.game;
        let end = match report.outcome {
            Outcome::Void { .. } => EndKind::Void,
            Outcome::Decided => match game.end() {
                Some(GameEnd::Passes | GameEnd::Agreement(_)) => EndKind::Count,
                Some(GameEnd::Resignation(_)) => EndKind::Resignation,
                Some(GameEnd::Time(_)) => EndKind::Time,
                Some(GameEnd::Forfeit(..)) => EndKind::Forfeit,
                None => EndKind::Void,
            },
        };
        let winner_color = report.winner();
        let penalties = game.penalties();
        GameRecord {
            index: report.index,
            black: report.engines.black,
            white: report.engines.white,
            black_name: report.names.black.clone(),
            white_name: report.names.white.clone(),
            result: report.result_string(),
            winner: winner_color.map(|c| *report.engines.get(c)),
            winner_color: winner_color.map(|c| c.letter().to_string()),
            end,
            reason: report.reason(),
            failure_code: report.failure.as_ref().map(|f| f.code.to_string()),
            failed: report.failure.as_ref().map(|f| f.engine),
            moves: game.move_count(),
            margin: (end == EndKind::Count)
                .then(|| game.score().map(|s| s.margin()))
                .flatten(),
            black_penalty: penalties.black,
            white_penalty: penalties.white,
            handicap_passes: game.setup().handicap_passes,
            komi: game.rules().komi.to_string(),
            black_time_ms: millis(report.time_used.black),
            white_time_ms: millis(report.time_used.white),
            duration_ms: millis(report.duration),
            voided_before: report.voids_so_far,
            sgf: sgf.to_string(),
        }
    }

    /// Rebuilds the record of game `index` from its SGF file alone (when its JSON sidecar is
    /// missing): the result from `RE`, the colours from the match's schedule, the names from
    /// `PB`/`PW`. Times and the failure code are not in the SGF and are left empty.
    ///
    /// # Errors
    /// When the file cannot be read as SGF.
    pub fn from_sgf(
        path: &Path,
        config: &MatchConfig,
        index: u32,
    ) -> Result<GameRecord, RefereeError> {
        let records = ingo_sgf::parse_file(path).map_err(|source| RefereeError::Sgf {
            path: path.to_path_buf(),
            source: Box::new(source),
        })?;
        let record = records.first().ok_or_else(|| {
            RefereeError::Internal(format!("{}: no game in the file", path.display()))
        })?;
        let a = config.assignment(index);
        let result = record
            .info
            .result
            .clone()
            .unwrap_or_else(|| "?".to_string());
        let (winner_color, end, margin) = parse_result(&result);
        let name = |c: Color| {
            record
                .info
                .players
                .get(c)
                .clone()
                .unwrap_or_else(|| config.engine(a.engine(c)).program_name())
        };
        let penalties = record.penalties;
        Ok(GameRecord {
            index,
            black: a.engine(Color::Black),
            white: a.engine(Color::White),
            black_name: name(Color::Black),
            white_name: name(Color::White),
            result: result.clone(),
            winner: winner_color.map(|c| a.engine(c)),
            winner_color: winner_color.map(|c| c.letter().to_string()),
            end,
            reason: format!("read back from the SGF: {result}"),
            failure_code: None,
            failed: None,
            moves: record.moves.len(),
            margin,
            black_penalty: penalties.black,
            white_penalty: penalties.white,
            handicap_passes: a.handicap_passes,
            komi: a.komi.to_string(),
            black_time_ms: 0,
            white_time_ms: 0,
            duration_ms: 0,
            voided_before: 0,
            sgf: path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        })
    }
}

fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Reads `B+R`, `W+T`, `B+F`, `B+7`, `Void`.
fn parse_result(re: &str) -> (Option<Color>, EndKind, Option<f64>) {
    let re = re.trim();
    let (winner, rest) = match re.split_once('+') {
        Some((w, rest)) if w.eq_ignore_ascii_case("b") => (Color::Black, rest),
        Some((w, rest)) if w.eq_ignore_ascii_case("w") => (Color::White, rest),
        _ => return (None, EndKind::Void, None),
    };
    let rest = rest.trim();
    let first = rest.chars().next().map(|c| c.to_ascii_uppercase());
    match first {
        Some('R') => (Some(winner), EndKind::Resignation, None),
        Some('T') => (Some(winner), EndKind::Time, None),
        Some('F') => (Some(winner), EndKind::Forfeit, None),
        _ => {
            let m = rest.parse::<f64>().ok().map(|m| match winner {
                Color::Black => m,
                Color::White => -m,
            });
            (Some(winner), EndKind::Count, m)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_back() {
        assert_eq!(
            parse_result("B+R"),
            (Some(Color::Black), EndKind::Resignation, None)
        );
        assert_eq!(
            parse_result("W+T"),
            (Some(Color::White), EndKind::Time, None)
        );
        assert_eq!(
            parse_result("W+F"),
            (Some(Color::White), EndKind::Forfeit, None)
        );
        assert_eq!(
            parse_result("W+3.5"),
            (Some(Color::White), EndKind::Count, Some(-3.5))
        );
        assert_eq!(
            parse_result("B+0"),
            (Some(Color::Black), EndKind::Count, Some(0.0))
        );
        assert_eq!(parse_result("Void"), (None, EndKind::Void, None));
    }
}
