//! Positions from game records, for GTP `loadsgf`.

use std::path::Path;

use anyhow::{bail, Context};
use ingo_rules::{Game, Rules};
use ingo_sgf::{replay_moves, ReplayMode};

/// The position of the first game of the SGF file at `path` before move `upto` (GTP: "the
/// position before move_number is played"; all moves when `None`), replayed under `rules` with
/// the record's komi.
///
/// # Errors
/// When the file cannot be read or a move of the record is illegal under `rules`.
pub fn load_position(path: &Path, upto: Option<usize>, rules: Rules) -> anyhow::Result<Game> {
    let records = ingo_sgf::parse_file(path)?;
    let record = records
        .into_iter()
        .next()
        .with_context(|| format!("{}: no game in the file", path.display()))?;
    if record.width != record.height || !(2..=25).contains(&record.width) {
        bail!(
            "{}: a {}x{} board cannot be played over GTP",
            path.display(),
            record.width,
            record.height
        );
    }
    let mut rules = rules;
    if let Some(komi) = record.komi {
        rules.komi = komi;
    }
    let count = upto.map_or(record.moves.len(), |n| n.saturating_sub(1));
    let replay = replay_moves(&record, rules, ReplayMode::Strict, count)?;
    if let Some(illegal) = replay.illegal {
        bail!("{}: {illegal}", path.display());
    }
    Ok(replay.game)
}
