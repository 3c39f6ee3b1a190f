//! Positions from game records, for `ingo score` and `ingo render`.

use std::path::Path;

use anyhow::bail;
use ingo_rules::{Game, Preset};

/// A position of a record: the game, how many moves of the record it holds, and what the
/// reader noticed.
pub struct Position {
    /// The game after the moves.
    pub game: Game,
    /// The moves of the record played, as `ingo judge` counts them: a node with two moves
    /// counts two (the pass the replay puts between two moves of one colour is not a move of
    /// the record, see [`Position::inserted_passes`]).
    pub moves: usize,
    /// Passes the replay put between two moves of the same colour.
    pub inserted_passes: usize,
    /// The reader's warnings, and a last one when the record is incomplete.
    pub warnings: Vec<String>,
}

/// The game of the record at `path` after `upto` moves (all when `None`), under `preset` (the
/// record's own rules when `None`) with the record's komi.
///
/// # Errors
/// When the file cannot be read or a move is illegal.
pub fn position(
    path: &Path,
    preset: Option<Preset>,
    upto: Option<usize>,
) -> anyhow::Result<Position> {
    let ingo_sgf::FileReplay { record, replay } = ingo_sgf::replay_file(path, upto, |record| {
        preset.map_or_else(
            || record.rules_or(Preset::Ing),
            |p| record.with_komi(p.rules()),
        )
    })?;
    let mut warnings: Vec<String> = record.warnings.iter().map(|w| w.to_string()).collect();
    if let Some(why) = &record.incomplete {
        warnings.push(format!(
            "INCOMPLETE RECORD, only what comes before was read: {why}"
        ));
    }
    // A count of the record takes off the time penalties its result includes: `BP`/`WP`, else
    // those its comments state in words (said, since they are read from prose).
    let mut game = replay.game;
    let penalties = record.time_penalties();
    if penalties != game.penalties() {
        warnings.push(format!(
            "time penalties read from the record's comments: Black {}, White {} points",
            penalties.black, penalties.white
        ));
        game.set_penalties(penalties);
    }
    Ok(Position {
        moves: replay.played,
        inserted_passes: replay.inserted_passes.len(),
        game,
        warnings,
    })
}

/// Prints the `warnings` of the record at `path` on standard error.
pub fn print_warnings(path: &Path, warnings: &[String]) {
    for w in warnings {
        eprintln!("{}: warning: {w}", path.display());
    }
}

/// What `ingo score` reports: the count of the position as text, and the pictures asked for.
pub struct ScoreReport {
    /// The count in words and numbers.
    pub text: String,
    /// The counted game.
    pub game: Game,
    /// The count.
    pub score: ingo_rules::Score,
    /// The reader's warnings (see [`Position::warnings`]).
    pub warnings: Vec<String>,
    /// The end-of-game judgement the count comes from, when no dead stones were given.
    pub judgement: Option<ingo_player::endgame::Judgement>,
}

/// The fill-in count of the record at `path` after `upto` moves (all when `None`), with the
/// stones named in `dead` taken off.
///
/// # Errors
/// When the file cannot be read, a move is illegal, or a dead stone is not on the board.
pub fn score_report(
    path: &Path,
    preset: Option<Preset>,
    upto: Option<usize>,
    dead: &[String],
) -> anyhow::Result<ScoreReport> {
    let Position {
        game,
        moves,
        inserted_passes,
        warnings,
    } = position(path, preset, upto)?;
    let board = game.board();
    let dead = crate::judge::parse_points(dead, board.width(), board.height())?;
    if let Some(p) = dead.iter().find(|p| board.color_at(**p).is_none()) {
        bail!("--dead: there is no stone at {}", p.to_gtp(board.height()));
    }
    // Without --dead, the end of the game is judged as a referee counts it: dead stones, seki
    // and the neutral points filled in turn (填滿計點).
    let judgement = dead.is_empty().then(|| {
        ingo_player::endgame::judge_end(&game, &ingo_player::endgame::EndgameConfig::default())
    });
    let score = match &judgement {
        Some(j) => j.score.clone(),
        None => game.count(&dead),
    };
    let mut text = format!(
        "{} after {} moves{} ({}): rules {}\n",
        path.display(),
        moves,
        match inserted_passes {
            0 => String::new(),
            n => format!(" and {n} inserted pass(es)"),
        },
        match game.phase() {
            ingo_rules::Phase::Playing => "play goes on",
            ingo_rules::Phase::Suspended => "play suspended",
            ingo_rules::Phase::Ended => "game ended",
        },
        game.rules()
    );
    if let Some(j) = &judgement {
        text.push_str(&crate::verify::judgement_text(j, board));
    }
    text.push_str(&crate::report::count_text(&score, board));
    Ok(ScoreReport {
        text,
        game,
        score,
        warnings,
        judgement,
    })
}
