//! Positions from game records, for GTP `loadsgf` and `ingo score`.

use std::path::Path;

use anyhow::{bail, Context};
use ingo_rules::{Game, Preset, Rules};
use ingo_sgf::{replay_moves, Record, ReplayMode};

/// The position of the first game of the SGF file at `path` before move `upto` (GTP: "the
/// position before move_number is played"; all moves when `None`), replayed under `rules` with
/// the record's komi.
///
/// # Errors
/// When the file cannot be read or a move of the record is illegal under `rules`.
pub fn load_position(path: &Path, upto: Option<usize>, rules: Rules) -> anyhow::Result<Game> {
    let record = first_record(path)?;
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
    let game = position(path, preset, upto)?;
    let count = game.move_count();
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
        "{} after {} moves ({}): rules {}\n",
        path.display(),
        count,
        match game.phase() {
            ingo_rules::Phase::Playing => "play goes on",
            ingo_rules::Phase::Suspended => "play suspended",
            ingo_rules::Phase::Ended => "game ended",
        },
        crate::gtp::describe_rules(game.rules())
    );
    if let Some(j) = &judgement {
        text.push_str(&crate::verify::judgement_text(j, board));
    }
    text.push_str(&crate::report::count_text(&score, board));
    Ok(ScoreReport {
        text,
        game,
        score,
        judgement,
    })
}
