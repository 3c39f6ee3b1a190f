//! `ingo render`: a position of a record drawn as SVG or PNG.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use ingo_rules::Preset;

use crate::pictures::{refuse_to_overwrite, write_pictures};
use crate::records;

/// Arguments of `ingo render`.
#[derive(Args)]
#[command(group(clap::ArgGroup::new("out").required(true).multiple(true).args(["svg", "png"])))]
pub struct RenderArgs {
    /// The SGF file (its first game).
    file: PathBuf,
    /// Draw the position after this many moves (default: the end of the main line).
    #[arg(long = "move")]
    move_number: Option<usize>,
    /// Write SVG to this file.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Write PNG to this file.
    #[arg(long)]
    png: Option<PathBuf>,
    /// Number the stones by the move that played them.
    #[arg(long)]
    numbers: bool,
    /// Leave out the coordinates.
    #[arg(long)]
    no_coordinates: bool,
    /// Pixels between two lines.
    #[arg(long, default_value_t = 32)]
    point_size: u32,
    /// Rules preset to replay under, instead of the record's RU.
    #[arg(long)]
    rules: Option<Preset>,
}

/// Draws the position of `args`.
///
/// # Errors
/// When the record cannot be read or replayed, or an output cannot be written (or is the input
/// record).
pub fn run(args: RenderArgs) -> anyhow::Result<ExitCode> {
    refuse_to_overwrite(&args.file, [args.svg.as_deref(), args.png.as_deref()])?;
    let position = records::position(&args.file, args.rules, args.move_number)?;
    records::print_warnings(&args.file, &position.warnings);
    let diagram = ingo_render::Diagram::from_game(&position.game);
    let options = ingo_render::DiagramOptions {
        coordinates: !args.no_coordinates,
        move_numbers: args.numbers,
        point_size_px: args.point_size,
        ..ingo_render::DiagramOptions::default()
    };
    write_pictures(&diagram, &options, args.svg.as_deref(), args.png.as_deref())?;
    Ok(ExitCode::SUCCESS)
}
