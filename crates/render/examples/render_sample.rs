//! Writes a counted 19×19 position as PNG and SVG, to look at the diagrams by eye.
//!
//! `cargo run -p ingo-render --example render_sample [PNG] [SVG]` (default
//! `/tmp/render_sample.png` and `/tmp/render_sample.svg`).

use std::{error::Error, process::ExitCode};

use ingo_render::{render_png, render_svg, Diagram, DiagramOptions};
use ingo_rules::{score, Board, ByColor, Color, Komi, Point};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("render_sample: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let png_path = args
        .next()
        .unwrap_or_else(|| "/tmp/render_sample.png".into());
    let svg_path = args
        .next()
        .unwrap_or_else(|| "/tmp/render_sample.svg".into());

    // A finished game: Black walled off the left, White the right; dame at K19 and G10
    // (shared points), two dead black stones in White's area and one dead white stone in Black's.
    let board = Board::from_ascii(
        "
  A B C D E F G H J K L M N O P Q R S T
19 . . . . . . . . X . O . . . . . . . .
18 . . . . . . . . X O . . . . . . . . .
17 . . . . . . . . X O . . . . . . . . .
16 . . . X . . . . X O . . . . . O . . .
15 . . . . . . . X O . . . . . . . . . .
14 . . . . . . . X O . . . . . . . . . .
13 . . . . . . X O . . . . . . . . . . .
12 . . . . . . X O . . . . . . . X X . .
11 . . . . . X O . . . . . . . . . . . .
10 . . X . . X . O . . O . . . . . . . .
 9 . . . . . X O . . . . . . . . . . . .
 8 . . . . . . X O . . . . . . . . . . .
 7 . . . . . . X O . . . . . . . . . . .
 6 . . . . . . . X O . . . . . . . . . .
 5 . . O . . . . X O . . . . . . . . . .
 4 . . . X . . . X O . . . . . . . O . .
 3 . . . . . . . . X O . . . . . . . . .
 2 . . . . . . . . X O . . . . . . . . .
 1 . . . . . . . . X O . . . . . . . . .",
    )?;
    let at = |name: &str| Point::from_gtp(name, 19, 19);
    let dead = [at("Q12")?, at("R12")?, at("C5")?];
    let count = score(
        &board,
        &dead,
        Komi::points(8),
        ByColor::default(),
        Color::Black,
    );
    let diagram = Diagram::new(&board)
        .with_last_move(Some(at("S4")?))
        .with_score(Some(&count));
    let options = DiagramOptions {
        shade_territory: true,
        title: Some("Black: Lee <B> & White: O'Meara — counted under Ing's rules".into()),
        ..DiagramOptions::default()
    };
    std::fs::write(&png_path, render_png(&diagram, &options)?)?;
    std::fs::write(&svg_path, render_svg(&diagram, &options))?;
    println!("{}: {png_path}, {svg_path}", count.result_string());
    Ok(())
}
