//! Crosstables as pictures: an SVG table of results coloured by win and loss, and the same as
//! PNG.

use std::fmt::Write as _;

use ingo_tournament::crosstable::Crosstable;

use crate::png::{rasterize, system_fonts};
use crate::RenderError;

/// The crosstable as an SVG picture: a row a player in rank order, a column for each opponent
/// (wins green, losses red, the player's own cell grey), then the main score and the
/// tie-breakers.
pub fn crosstable_svg(ct: &Crosstable) -> String {
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let n = ct.rows.len();
    let name_w = 16.0
        + 8.5
            * ct.rows
                .iter()
                .map(|s| s.player.chars().count())
                .max()
                .unwrap_or(6)
                .max(6) as f64;
    let cell_w = (12.0
        + 8.0
            * ct.cells
                .iter()
                .flatten()
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(2) as f64)
        .max(44.0);
    let key_w = 48.0;
    let row_h = 26.0;
    let top = 70.0;
    let x0 = 10.0;
    let rank_w = 34.0;
    let width = x0 * 2.0 + rank_w + name_w + cell_w * n as f64 + key_w * (1 + ct.keys.len()) as f64;
    let height = top + row_h * (n + 1) as f64 + 10.0;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"DejaVu Sans, Liberation Sans, Noto Sans, sans-serif\" font-size=\"13\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{x0}\" y=\"26\" font-size=\"18\" font-weight=\"bold\">{}</text>\n\
         <text x=\"{x0}\" y=\"48\" font-size=\"11\" fill=\"#444\">{}</text>\n",
        esc(&ct.title),
        esc(&ct.subtitle)
    );
    let mut cols: Vec<(f64, f64, String)> = vec![
        (x0, rank_w, "#".into()),
        (x0 + rank_w, name_w, "player".into()),
    ];
    let mut x = x0 + rank_w + name_w;
    for j in 0..n {
        cols.push((x, cell_w, (j + 1).to_string()));
        x += cell_w;
    }
    for k in std::iter::once("main").chain(ct.keys.iter().copied()) {
        cols.push((x, key_w, k.to_owned()));
        x += key_w;
    }
    let cell = |s: &mut String,
                x: f64,
                y: f64,
                w: f64,
                text: &str,
                fill: &str,
                color: &str,
                bold: bool,
                left: bool| {
        let _ = writeln!(s, "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{row_h}\" fill=\"{fill}\" stroke=\"#888\" stroke-width=\"0.8\"/>");
        let (tx, anchor) = if left {
            (x + 6.0, "start")
        } else {
            (x + w / 2.0, "middle")
        };
        let weight = if bold { " font-weight=\"bold\"" } else { "" };
        let _ = writeln!(s, "<text x=\"{tx:.1}\" y=\"{:.1}\" text-anchor=\"{anchor}\" fill=\"{color}\"{weight}>{}</text>", y + row_h / 2.0 + 4.5, esc(text));
    };
    for (cx, w, label) in &cols {
        cell(&mut s, *cx, top, *w, label, "#e8e8e8", "black", true, false);
    }
    for (i, r) in ct.rows.iter().enumerate() {
        let y = top + row_h * (i + 1) as f64;
        let mut values = vec![r.rank.to_string(), r.player.clone()];
        for j in 0..n {
            values.push(if i == j {
                String::new()
            } else {
                ct.cells[i][j].clone()
            });
        }
        values.push(r.main.to_string());
        values.extend(ct.key_values(r).iter().map(u32::to_string));
        for (k, ((cx, w, _), v)) in cols.iter().zip(&values).enumerate() {
            let is_self = k >= 2 && k - 2 == i && k - 2 < n;
            let fill = if is_self { "#cccccc" } else { "white" };
            let color = if k >= 2 && k - 2 < n {
                if v.starts_with('+') {
                    "#006600"
                } else if v.starts_with('-') {
                    "#990000"
                } else {
                    "black"
                }
            } else {
                "black"
            };
            cell(&mut s, *cx, y, *w, v, fill, color, k == 2 + n, k == 1);
        }
    }
    s.push_str("</svg>\n");
    s
}

/// The crosstable as a PNG picture: [`crosstable_svg`] drawn with the machine's fonts, as
/// [`render_png`](crate::render_png) draws boards.
///
/// # Errors
/// [`RenderError::Canvas`] when the image cannot be allocated; the other variants mark bugs.
pub fn crosstable_png(ct: &Crosstable) -> Result<Vec<u8>, RenderError> {
    rasterize(&crosstable_svg(ct), system_fonts())
}
