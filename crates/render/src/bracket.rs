//! Knockout brackets as pictures: a column a round, a box a pairing with its two sides and
//! results, the side that went on in bold, lines leading each pairing to the next round; and
//! the same as PNG.

use std::fmt::Write as _;

use ingo_tournament::bracket::{Bracket, BracketMatch};

use crate::png::{rasterize, system_fonts};
use crate::RenderError;

/// The bracket as an SVG picture: rounds from left to right, the winner of each pairing in
/// bold (a bye marked as such), results under the names, the rounds to come as empty boxes,
/// and the event's winner at the right once the final is decided.
pub fn bracket_svg(b: &Bracket) -> String {
    if b.double {
        return double_svg(b);
    }
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

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A pairing's box at `(x, y)` (its top left): the two sides with their seeds, the side that
/// went on in bold, a bye marked, the results at the bottom right.
fn pairing_box(s: &mut String, m: &BracketMatch, x: f64, y: f64, box_w: f64, line_h: f64) {
    let box_h = 2.0 * line_h + 16.0;
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
}

/// A double knockout: a column a round, the unbeaten players' pairings at the top, the
/// once-beaten players' below them, the finals at the bottom; a line follows each player
/// from one round to the next (solid for the side that went on, dashed for a player who lost
/// and drops to the once-beaten), and the winner at the right.
fn double_svg(b: &Bracket) -> String {
    let longest = b
        .rounds
        .iter()
        .chain(&b.losers)
        .flatten()
        .chain(b.finals.iter().map(|(_, m)| m))
        .flat_map(|m| m.players.iter().flatten())
        .map(|p| p.chars().count())
        .max()
        .unwrap_or(6)
        .max(8);
    let box_w = 40.0 + 8.0 * longest as f64;
    let line_h = 22.0;
    let box_h = 2.0 * line_h + 16.0;
    let gap_x = 36.0;
    let slot = box_h + 14.0;
    let x0 = 10.0;
    let label_h = 26.0;
    let rounds = b.rounds.len();
    let finals_in = |r: usize| -> Vec<&BracketMatch> {
        b.finals
            .iter()
            .filter(|(f, _)| *f as usize == r + 1)
            .map(|(_, m)| m)
            .collect()
    };
    let nu = b.rounds.iter().map(Vec::len).max().unwrap_or(0);
    let nl = b.losers.iter().map(Vec::len).max().unwrap_or(0);
    let nf = (0..rounds).map(|r| finals_in(r).len()).max().unwrap_or(0);
    let top_u = 64.0 + label_h;
    let top_l = top_u + slot * nu as f64 + label_h;
    let top_f = top_l + slot * nl as f64 + label_h;
    let columns = rounds + usize::from(b.champion().is_some());
    let width = x0 * 2.0 + columns as f64 * (box_w + gap_x);
    let height = top_f + slot * nf as f64 + 10.0;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"DejaVu Sans, Liberation Sans, Noto Sans, sans-serif\" font-size=\"13\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{x0}\" y=\"26\" font-size=\"18\" font-weight=\"bold\">{}</text>\n\
         <text x=\"{x0}\" y=\"46\" font-size=\"11\" fill=\"#444\">double knockout: out after two losses</text>\n",
        esc(&b.title)
    );
    for (label, y) in [
        ("unbeaten", top_u),
        ("once beaten", top_l),
        ("final", top_f),
    ] {
        if label == "final" && nf == 0 {
            continue;
        }
        let _ = writeln!(
            s,
            "<text x=\"{x0}\" y=\"{:.1}\" font-weight=\"bold\" fill=\"#444\">{label}</text>",
            y - 8.0
        );
    }
    // Each player in each round: (round, player, the box's x, the player's line, went on).
    let mut at: Vec<(usize, String, f64, f64, bool)> = Vec::new();
    for r in 0..rounds {
        let x = x0 + r as f64 * (box_w + gap_x);
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-weight=\"bold\" fill=\"#444\">round {}</text>",
            x + box_w / 2.0,
            64.0,
            r + 1
        );
        let sections: [(f64, Vec<&BracketMatch>); 3] = [
            (top_u, b.rounds[r].iter().collect()),
            (top_l, b.losers[r].iter().collect()),
            (top_f, finals_in(r)),
        ];
        for (top, matches) in sections {
            for (j, m) in matches.iter().enumerate() {
                let y = top + slot * j as f64;
                pairing_box(&mut s, m, x, y, box_w, line_h);
                for (i, p) in m.players.iter().enumerate() {
                    if let Some(p) = p {
                        let won = m.winner == Some(i) || m.players[1].is_none();
                        at.push((r, p.clone(), x, y + 6.0 + line_h * (i as f64 + 0.5), won));
                    }
                }
            }
        }
    }
    // A line from each player's box to the same player's box in the next round.
    // The vertical parts are spread across the gap, so that lines do not run on each other.
    let mut in_gap: Vec<usize> = vec![0; rounds + 1];
    for (r, p, x, y, won) in &at {
        if let Some((_, _, nx, ny, _)) = at.iter().find(|(nr, np, ..)| *nr == r + 1 && np == p) {
            let k = in_gap[*r];
            in_gap[*r] += 1;
            let mx = x + box_w + 6.0 + (k % 6) as f64 * (gap_x - 12.0) / 5.0;
            let dash = if *won {
                ""
            } else {
                " stroke-dasharray=\"4 3\""
            };
            let _ = writeln!(s, "<path d=\"M{:.1} {y:.1} H{mx:.1} V{ny:.1} H{nx:.1}\" fill=\"none\" stroke=\"#888\" stroke-width=\"1\"{dash}/>", x + box_w);
        }
    }
    if let Some(c) = b.champion() {
        let x = x0 + rounds as f64 * (box_w + gap_x);
        let last = at.iter().rev().find(|(_, p, ..)| p == c);
        let cy = last.map_or(top_u, |(_, _, _, y, _)| *y);
        if let Some((_, _, lx, ly, _)) = last {
            let _ = writeln!(s, "<path d=\"M{:.1} {ly:.1} H{x:.1}\" fill=\"none\" stroke=\"#888\" stroke-width=\"1\"/>", lx + box_w);
        }
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
