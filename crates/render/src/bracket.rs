//! Knockout brackets as pictures: a column a round, a box a pairing with its two sides and
//! results, the side that went on in bold, lines leading each pairing to the next round; and
//! the same as PNG.

use std::fmt::Write as _;

use ingo_tournament::bracket::Bracket;

use crate::png::{rasterize, system_fonts};
use crate::RenderError;

/// The bracket as an SVG picture: rounds from left to right, the winner of each pairing in
/// bold (a bye marked as such), results under the names, the rounds to come as empty boxes,
/// and the event's winner at the right once the final is decided.
pub fn bracket_svg(b: &Bracket) -> String {
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let longest = b
        .rounds
        .iter()
        .flatten()
        .flat_map(|m| m.players.iter().flatten())
        .map(|p| p.chars().count())
        .max()
        .unwrap_or(6)
        .max(8);
    let box_w = 40.0 + 8.0 * longest as f64;
    let line_h = 22.0;
    let box_h = 2.0 * line_h + 16.0;
    let gap_x = 36.0;
    let slot = box_h + 18.0;
    let top = 64.0;
    let x0 = 10.0;
    let first = b.rounds.first().map_or(1, Vec::len).max(1);
    let columns = b.rounds.len() + usize::from(b.champion().is_some());
    let width = x0 * 2.0 + columns as f64 * (box_w + gap_x);
    let height = top + slot * first as f64 + 10.0;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"DejaVu Sans, Liberation Sans, Noto Sans, sans-serif\" font-size=\"13\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{x0}\" y=\"26\" font-size=\"18\" font-weight=\"bold\">{}</text>\n",
        esc(&b.title)
    );
    // The centre of pairing j of round r (from 0): halfway between the two it comes from.
    let centre = |r: usize, j: usize| top + slot * (2f64.powi(r as i32) * (j as f64 + 0.5));
    for (r, matches) in b.rounds.iter().enumerate() {
        let x = x0 + r as f64 * (box_w + gap_x);
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"50\" text-anchor=\"middle\" font-weight=\"bold\" fill=\"#444\">{}</text>",
            x + box_w / 2.0,
            if r + 1 == b.rounds.len() {
                "final".to_owned()
            } else {
                format!("round {}", r + 1)
            }
        );
        for (j, m) in matches.iter().enumerate() {
            let cy = centre(r, j);
            let y = cy - box_h / 2.0;
            let _ = writeln!(s, "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{box_w:.1}\" height=\"{box_h:.1}\" fill=\"#fafafa\" stroke=\"#888\" stroke-width=\"0.8\" rx=\"3\"/>");
            let bye = m.players[0].is_some() && m.players[1].is_none() && m.winner == Some(0);
            for (i, p) in m.players.iter().enumerate() {
                let ty = y + 6.0 + line_h * (i as f64 + 0.5) + 4.5;
                let (text, colour) = match (p, bye && i == 1) {
                    (_, true) => ("bye".to_owned(), "#888"),
                    (Some(p), _) => (p.clone(), "black"),
                    (None, _) => ("?".to_owned(), "#aaa"),
                };
                let seed = m.seeds[i].map(|n| format!("{n} ")).unwrap_or_default();
                let weight = if m.winner == Some(i) && !(bye && i == 1) {
                    " font-weight=\"bold\""
                } else {
                    ""
                };
                let _ = writeln!(
                    s,
                    "<text x=\"{:.1}\" y=\"{ty:.1}\" fill=\"{colour}\"{weight}><tspan fill=\"#888\" font-size=\"10\">{}</tspan>{}</text>",
                    x + 6.0,
                    esc(&seed),
                    esc(&text)
                );
            }
            if !m.results.is_empty() {
                let _ = writeln!(
                    s,
                    "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"10\" fill=\"#444\">{}</text>",
                    x + box_w - 6.0,
                    y + box_h - 4.0,
                    esc(&m.results.join(", "))
                );
            }
            // A line to the pairing of the next round this one leads to.
            if r + 1 < b.rounds.len() || b.champion().is_some() {
                let nx = x + box_w + gap_x;
                let ny = if r + 1 < b.rounds.len() {
                    centre(r + 1, j / 2)
                } else {
                    cy
                };
                let mx = x + box_w + gap_x / 2.0;
                let _ = writeln!(s, "<path d=\"M{:.1} {cy:.1} H{mx:.1} V{ny:.1} H{nx:.1}\" fill=\"none\" stroke=\"#888\" stroke-width=\"1\"/>", x + box_w);
            }
        }
    }
    if let Some(c) = b.champion() {
        let x = x0 + b.rounds.len() as f64 * (box_w + gap_x);
        let cy = centre(b.rounds.len() - 1, 0);
        let _ = writeln!(s, "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{box_w:.1}\" height=\"{line_h:.1}\" fill=\"#fff6d5\" stroke=\"#b08d00\" stroke-width=\"1\" rx=\"3\"/>", cy - line_h / 2.0);
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-weight=\"bold\">{}</text>",
            x + 6.0,
            cy + 4.5,
            esc(c)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The bracket as a PNG picture: [`bracket_svg`] drawn with the machine's fonts.
///
/// # Errors
/// [`RenderError::Canvas`] when the image cannot be allocated; the other variants mark bugs.
pub fn bracket_png(b: &Bracket) -> Result<Vec<u8>, RenderError> {
    rasterize(&bracket_svg(b), system_fonts())
}
