//! `ingo score`: the fill-in count of a record's final position (or of a given move), as a
//! referee reads it off the board, optionally drawn as SVG or PNG.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use ingo_rules::Preset;

use crate::pictures::{refuse_to_overwrite, write_pictures};
use crate::records;

/// Arguments of `ingo score`.
#[derive(Args)]
pub struct ScoreArgs {
    /// The SGF file (its first game).
    file: PathBuf,
    /// Dead stones to take off before counting, GTP names separated by commas (C3,D4).
    #[arg(long, value_delimiter = ',')]
    dead: Vec<String>,
    /// Rules preset instead of the record's RU (Ing when RU is absent).
    #[arg(long)]
    rules: Option<Preset>,
    /// Count the position after this many moves instead of the final one.
    #[arg(long = "move")]
    move_number: Option<usize>,
    /// Also draw the counted board, territory and shared points marked, as SVG to this file.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Also draw the counted board as PNG to this file.
    #[arg(long)]
    png: Option<PathBuf>,
    /// Print the count as JSON: the result, and each string with its status and how it was
    /// decided (proved alive, read dead in a ladder, sampled at 87%…).
    #[arg(long)]
    json: bool,
}

/// Counts the position of `args` and prints the count (and draws it when asked).
///
/// # Errors
/// When the record cannot be read or replayed, a dead stone is not a point, or an output cannot
/// be written (or is the input record).
pub fn run(args: ScoreArgs) -> anyhow::Result<ExitCode> {
    refuse_to_overwrite(&args.file, [args.svg.as_deref(), args.png.as_deref()])?;
    let report = records::score_report(&args.file, args.rules, args.move_number, &args.dead)?;
    records::print_warnings(&args.file, &report.warnings);
    if args.json {
        let mut text = serde_json::to_string_pretty(&score_json(&report))?;
        text.push('\n');
        io::stdout().lock().write_all(text.as_bytes())?;
    } else {
        io::stdout().lock().write_all(report.text.as_bytes())?;
    }
    if args.svg.is_some() || args.png.is_some() {
        let (fills, seki) = report.count.marks();
        let title = format!(
            "{}: counted under {}",
            args.file.file_name().map_or_else(
                || args.file.display().to_string(),
                |n| n.to_string_lossy().into_owned()
            ),
            report.game.rules()
        );
        let picture = ingo_render::count_picture(
            report.game.board(),
            &report.count.score,
            fills,
            seki,
            title,
        )
        .with_checks(report.count.checks())
        .with_winner_turns_on(&report.winner_turns_on)
        .with_fill_note(report.count.fill_note(report.game.board().height()));
        write_pictures(
            &picture.diagram,
            &picture.options,
            args.svg.as_deref(),
            args.png.as_deref(),
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `ingo score --json`: the result, the dead stones, and (when the end was judged) every string
/// with its status and how it was decided, and the verdicts to check that the winner turns on.
fn score_json(report: &records::ScoreReport) -> serde_json::Value {
    let board = report.game.board();
    let score = &report.count.score;
    let names = |v: &[ingo_rules::Point]| crate::verify::gtp_names(v, board);
    let strings: Vec<serde_json::Value> = report
        .count
        .judgement()
        .map(|j| {
            j.strings
                .iter()
                .map(|s| {
                    serde_json::json!({
                        "color": s.color.letter().to_string(),
                        "stones": names(&s.stones),
                        "status": s.status.name(),
                        "decided": s.how.name(),
                        "how": s.how.describe(),
                        "held": s.held,
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    // The dame filled in turn before the count, and how: read out by the search, or one move
    // deep and why (a referee checks those).
    let (fills, fill) = report.count.judgement().map_or((Vec::new(), None), |j| {
        let fills = j
            .fills
            .iter()
            .map(|f| {
                serde_json::json!({
                    "color": f.color.letter().to_string(),
                    "point": f.point.to_gtp(board.height()),
                })
            })
            .collect();
        let how = if j.fills.is_empty() {
            None
        } else if let Some(why) = j.fill_note(|v| names(v).join(" ")) {
            Some(serde_json::json!({"read": false, "why": why}))
        } else {
            Some(serde_json::json!({"read": true}))
        };
        (fills, how)
    });
    serde_json::json!({
        "result": score.result_string(),
        "dead": names(&score.dead),
        "strings": strings,
        "winner_turns_on": names(&report.winner_turns_on),
        "fills": fills,
        "fill": fill,
    })
}
