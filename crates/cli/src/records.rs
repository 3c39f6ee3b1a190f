//! Positions from game records, for `ingo score` and `ingo render`.

use std::path::Path;

use anyhow::{bail, Context};
use ingo_rules::{Game, Preset};
use ingo_sgf::{replay_moves, Record, ReplayMode};

/// The first game of the SGF file at `path`.
fn first_record(path: &Path) -> anyhow::Result<Record> {
    ingo_sgf::parse_file(path)?
        .into_iter()
        .next()
        .with_context(|| format!("{}: no game in the file", path.display()))
}

/// The game of the record at `path` after `upto` moves (all when `None`), under `preset` (the
/// record's own rules when `None`) with the record's komi.
///
/// # Errors
/// When the file cannot be read or a move is illegal.
pub fn position(path: &Path, preset: Option<Preset>, upto: Option<usize>) -> anyhow::Result<Game> {
    let record = first_record(path)?;
    let rules = match preset {
        Some(p) => {
            let mut r = p.rules();
            if let Some(k) = record.komi {
                r.komi = k;
            }
            r
        }
        None => record.rules_or(Preset::Ing),
    };
    let count = upto.unwrap_or(record.moves.len()).min(record.moves.len());
    let replay = replay_moves(&record, rules, ReplayMode::Strict, count)?;
    if let Some(illegal) = &replay.illegal {
        bail!("{}: {illegal}", path.display());
    }
    Ok(replay.game)
}

/// What `ingo score` reports: the count of the position as text, and the pictures asked for.
pub struct ScoreReport {
    /// The count in words and numbers.
    pub text: String,
    /// The counted game.
    pub game: Game,
    /// The count.
    pub score: ingo_rules::Score,
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
    let game = position(path, preset, upto)?;
    let count = game.move_count();
    let board = game.board();
    let dead = crate::judge::parse_points(dead, board.width(), board.height())?;
    if let Some(p) = dead.iter().find(|p| board.color_at(**p).is_none()) {
        bail!("--dead: there is no stone at {}", p.to_gtp(board.height()));
    }
    let score = game.count(&dead);
    let mut text = format!(
        "{} after {} moves ({}): rules {}\n",
        path.display(),
        count,
        match game.phase() {
            ingo_rules::Phase::Playing => "play goes on",
            ingo_rules::Phase::Suspended => "play suspended",
            ingo_rules::Phase::Ended => "game ended",
        },
        game.rules()
    );
    text.push_str(&crate::report::count_text(&score, board));
    Ok(ScoreReport { text, game, score })
}
