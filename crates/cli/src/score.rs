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
    io::stdout().lock().write_all(report.text.as_bytes())?;
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
        );
        write_pictures(
            &picture.diagram,
            &picture.options,
            args.svg.as_deref(),
            args.png.as_deref(),
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
