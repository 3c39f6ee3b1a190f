//! Positions from game records, for `ingo score` and `ingo render`.

use std::path::Path;

use anyhow::bail;
use ingo_rules::{Game, Preset};

pub use ingo_front::record::Position;

/// The game of the record at `path` after `upto` moves (all when `None`), under `preset` (the
/// record's own rules when `None`) with the record's komi and the time penalties its result
/// includes ([`ingo_front::record::position`], as the play server's judge page reads a record).
///
/// # Errors
/// When the file cannot be read or a move is illegal.
pub fn position(
    path: &Path,
    preset: Option<Preset>,
    upto: Option<usize>,
) -> anyhow::Result<Position> {
    Ok(read(path, preset, upto)?.1)
}

/// The record at `path` and its position (see [`position`]).
fn read(
    path: &Path,
    preset: Option<Preset>,
    upto: Option<usize>,
) -> anyhow::Result<(ingo_sgf::Record, Position)> {
    let ingo_sgf::FileReplay { record, replay } = ingo_sgf::replay_file(path, upto, |record| {
        ingo_front::record::rules_for(record, preset)
    })?;
    let position = ingo_front::record::position(&record, replay);
    Ok((record, position))
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
    /// The count, and the judgement it comes from when no dead stones were given or agreed.
    pub count: ingo_front::record::Count,
    /// The reader's warnings (see [`Position::warnings`]).
    pub warnings: Vec<String>,
    /// Of the judgement's verdicts to check, those the winner turns on
    /// (`Judgement::winner_turns_on`, read once here); none when the count was not judged.
    pub winner_turns_on: Vec<ingo_rules::Point>,
}

/// The fill-in count of the record at `path` after `upto` moves (all when `None`), with the
/// stones named in `dead` taken off, else those its territory markup agrees, else as the
/// end-of-game judgement finds them ([`ingo_front::record::count`], the play server's judge
/// page's count).
///
/// # Errors
/// When the file cannot be read, a move is illegal, or a dead stone is not on the board.
pub fn score_report(
    path: &Path,
    preset: Option<Preset>,
    upto: Option<usize>,
    dead: &[String],
) -> anyhow::Result<ScoreReport> {
    let (
        record,
        Position {
            game,
            moves,
            inserted_passes,
            mut warnings,
        },
    ) = read(path, preset, upto)?;
    let board = game.board();
    let dead = crate::judge::parse_points(dead, board.width(), board.height())?;
    if let Some(p) = dead.iter().find(|p| board.color_at(**p).is_none()) {
        bail!("--dead: there is no stone at {}", p.to_gtp(board.height()));
    }
    let count = ingo_front::record::count(&record, &game, &dead);
    if let ingo_front::record::DeadStones::Markup = count.dead {
        warnings.push(format!(
            "dead stones from the record's territory markup (TB/TW): {}",
            names(&count.score.dead, board.height())
        ));
    }
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
    let winner_turns_on = count.winner_turns_on(&game);
    if let Some(j) = count.judgement() {
        text.push_str(&crate::verify::judgement_text(j, board, &winner_turns_on));
    }
    text.push_str(&crate::report::count_text(&count.score, board));
    Ok(ScoreReport {
        text,
        game,
        count,
        warnings,
        winner_turns_on,
    })
}

/// GTP names of `points`, separated by commas, or `none`.
fn names(points: &[ingo_rules::Point], height: usize) -> String {
    if points.is_empty() {
        return "none".into();
    }
    let names: Vec<String> = points.iter().map(|p| p.to_gtp(height)).collect();
    names.join(", ")
}
