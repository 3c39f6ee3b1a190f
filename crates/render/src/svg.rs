//! The SVG writer: layout, then one pass per layer (board, stones, marks, captions).

use std::fmt::{self, Write as _};

use ingo_rules::{gtp_column, Board, Color, Owner, Point, Score};

use crate::{Diagram, DiagramOptions, MAX_POINT_SIZE, MIN_POINT_SIZE};

// Colours. Stones are flat so that a pixel at a stone's centre has the stone's colour exactly.
const WOOD_LIGHT: &str = "#ebc987";
const WOOD_DARK: &str = "#d9a953";
const INK: &str = "#1e1a14";
const BLACK_STONE: &str = "#141414";
const WHITE_STONE: &str = "#f8f8f4";
const WHITE_EDGE: &str = "#3a3a3a";
const LAST_MOVE_NUMBER: &str = "#d01c1c";
/// The ring around a note ([`Diagram::with_notes`]): amber, seen on both stones and the wood.
const NOTE_RING: &str = "#e07b00";
/// Font families for all text: DejaVu first because Debian-like systems ship it and it has the
/// em dash and CJK-free Latin we use; the generic family last for any other renderer.
const FONT_FAMILY: &str = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif";

/// Renders `diagram` as a standalone SVG document.
///
/// The document's `width` and `height` are whole pixels: the board is `point_size_px` per
/// point, plus a band of one point on every side for the coordinates (a quarter point without
/// them), plus a line above for the title and one below for the count, widened if a caption
/// needs it. Numbers are written with at most two decimals, so the text is the same on every
/// platform. Text from the caller is escaped, and characters XML cannot hold are dropped.
///
/// ```
/// use ingo_render::{render_svg, Diagram, DiagramOptions};
/// use ingo_rules::Board;
/// let board = Board::new(9).unwrap();
/// let svg = render_svg(&Diagram::new(&board), &DiagramOptions::default());
/// assert!(svg.contains(r#"width="352" height="352""#)); // 9 × 32 + 2 × 32
/// ```
pub fn render_svg(diagram: &Diagram<'_>, options: &DiagramOptions) -> String {
    let layout = Layout::new(diagram, options);
    let mut out = String::new();
    // Writing to a String cannot fail; the Result only comes from the fmt::Write trait.
    let _ = write_svg(&mut out, diagram, options, &layout);
    out
}

/// Where everything goes, in pixels.
struct Layout {
    /// Distance between lines.
    s: f64,
    /// Width of the band around the grid's cells: coordinates, or a thin margin.
    band: f64,
    /// Left edge of the board area (nonzero when a caption is wider than the board).
    board_x: f64,
    /// Top edge of the board area (below the title).
    board_y: f64,
    board_w: f64,
    board_h: f64,
    width: u32,
    height: u32,
    caption_font: f64,
    title: Option<String>,
    legend: Option<String>,
    /// What the notes on points mean, under the legend (only when there are notes).
    key: Option<String>,
    /// How the neutral points were filled, when a person should check it: the last line.
    fill_note: Option<String>,
}

impl Layout {
    fn new(diagram: &Diagram<'_>, options: &DiagramOptions) -> Layout {
        let board = diagram.board;
        let s = options.point_size_px.clamp(MIN_POINT_SIZE, MAX_POINT_SIZE);
        let band = if options.coordinates { s } else { s / 4 };
        // Board sides are at most 25, so none of these can overflow a u32.
        let board_w = board.width() as u32 * s + 2 * band;
        let board_h = board.height() as u32 * s + 2 * band;
        let caption_font = 0.45 * f64::from(s);
        let title = options.title.as_deref().map(clean_text);
        let legend = score_of(diagram).map(legend);
        let key = diagram
            .note_key
            .as_deref()
            .filter(|_| diagram.notes.iter().any(|(p, _)| board.contains(*p)))
            .map(clean_text);
        let fill_note = diagram.fill_note.as_deref().map(clean_text);
        let text_w = title
            .iter()
            .chain(legend.iter())
            .chain(key.iter())
            .chain(fill_note.iter())
            .map(|t| (text_width_em(t) * caption_font + f64::from(s)).ceil() as u32)
            .max()
            .unwrap_or(0);
        let width = board_w.max(text_w);
        let header = if title.is_some() { s } else { 0 };
        let footer = u32::from(legend.is_some()) * s
            + u32::from(key.is_some()) * s
            + u32::from(fill_note.is_some()) * s;
        Layout {
            s: f64::from(s),
            band: f64::from(band),
            board_x: f64::from(width - board_w) / 2.0,
            board_y: f64::from(header),
            board_w: f64::from(board_w),
            board_h: f64::from(board_h),
            width,
            height: header + board_h + footer,
            caption_font,
            title,
            legend,
            key,
            fill_note,
        }
    }

    /// The centre of `p`.
    fn at(&self, p: Point) -> (f64, f64) {
        (self.col_x(p.col()), self.row_y(p.row()))
    }

    fn col_x(&self, col: usize) -> f64 {
        self.board_x + self.band + (col as f64 + 0.5) * self.s
    }

    fn row_y(&self, row: usize) -> f64 {
        self.board_y + self.band + (row as f64 + 0.5) * self.s
    }

    /// Line width of the grid.
    fn line(&self) -> f64 {
        self.s / 32.0
    }
}

/// The diagram's score, if it was counted on this board.
fn score_of<'a>(diagram: &Diagram<'a>) -> Option<&'a Score> {
    let board = diagram.board;
    diagram.score.filter(|score| {
        score.size == (board.width(), board.height())
            && score.owners.len() == board.width() * board.height()
    })
}

/// The count line: "Black N, White M, shared S — B+R".
fn legend(score: &Score) -> String {
    format!(
        "Black {}, White {}, shared {} — {}",
        score.area.black,
        score.area.white,
        score.shared,
        score.result_string()
    )
}

fn write_svg(
    out: &mut String,
    diagram: &Diagram<'_>,
    options: &DiagramOptions,
    l: &Layout,
) -> fmt::Result {
    let board = diagram.board;
    let (w, h) = (l.width, l.height);
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT_FAMILY}">"#
    )?;
    let title = match &l.title {
        Some(t) => t.clone(),
        None => format!("Go board {}×{}", board.width(), board.height()),
    };
    writeln!(out, "<title>{}</title>", Escaped(&title))?;
    writeln!(
        out,
        r#"<defs><linearGradient id="ingo-wood" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="{WOOD_LIGHT}"/><stop offset="1" stop-color="{WOOD_DARK}"/></linearGradient></defs>"#
    )?;
    writeln!(
        out,
        r#"<rect width="{w}" height="{h}" fill="url(#ingo-wood)"/>"#
    )?;
    write_grid(out, board, l)?;
    if options.coordinates {
        write_coordinates(out, board, l)?;
    }

    let score = score_of(diagram);
    let dead: Vec<Point> = score
        .map(|s| {
            s.dead
                .iter()
                .copied()
                .filter(|&p| board.contains(p) && board.color_at(p).is_some())
                .collect()
        })
        .unwrap_or_default();
    write_stones(out, board, &dead, l)?;

    // Territory: who owns each empty point and dead stone, when asked for.
    let owners: Vec<Option<Owner>> = board
        .points()
        .enumerate()
        .map(|(i, p)| {
            let score = score.filter(|_| options.shade_territory)?;
            let empty_or_dead = board.color_at(p).is_none() || dead.contains(&p);
            empty_or_dead
                .then(|| score.owners.get(i).copied())
                .flatten()
        })
        .collect();
    write_territory(out, board, &owners, l)?;
    if !options.shade_territory {
        write_dead_crosses(out, board, &dead, l)?;
    }
    write_fills(out, board, &diagram.fills, l)?;
    write_seki(out, board, &diagram.seki, l)?;
    write_notes(out, board, &diagram.notes, l)?;

    let last = diagram
        .last_move
        .filter(|&p| options.last_move && board.contains(p));
    let mut last_numbered = false;
    if options.move_numbers {
        last_numbered = write_numbers(out, diagram, &owners, last, l)?;
    }
    if let (Some(p), false) = (last, last_numbered) {
        let (x, y) = l.at(p);
        let color = match board.color_at(p) {
            Some(Color::Black) => WHITE_STONE,
            Some(Color::White) | None => BLACK_STONE,
        };
        writeln!(
            out,
            r#"<circle class="last-move" cx="{}" cy="{}" r="{}" fill="none" stroke="{color}" stroke-width="{}"/>"#,
            N(x),
            N(y),
            N(0.22 * l.s),
            N(0.07 * l.s)
        )?;
    }

    write_captions(out, l)?;
    out.push_str("</svg>\n");
    Ok(())
}

fn write_grid(out: &mut String, board: &Board, l: &Layout) -> fmt::Result {
    let (w, h) = (board.width(), board.height());
    writeln!(
        out,
        r#"<rect class="board" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{WOOD_DARK}" stroke-width="{}"/>"#,
        N(l.board_x),
        N(l.board_y),
        N(l.board_w),
        N(l.board_h),
        N(l.line())
    )?;
    let (left, right) = (l.col_x(0), l.col_x(w - 1));
    let (top, bottom) = (l.row_y(0), l.row_y(h - 1));
    // A 1-wide or 1-high board has lines of length zero one way: leave them out.
    let mut inner = String::new();
    let mut edge = String::new();
    if w > 1 {
        for row in 0..h {
            let d = if row == 0 || row == h - 1 {
                &mut edge
            } else {
                &mut inner
            };
            write!(d, "M{} {}H{}", N(left), N(l.row_y(row)), N(right))?;
        }
    }
    if h > 1 {
        for col in 0..w {
            let d = if col == 0 || col == w - 1 {
                &mut edge
            } else {
                &mut inner
            };
            write!(d, "M{} {}V{}", N(l.col_x(col)), N(top), N(bottom))?;
        }
    }
    for (d, width) in [(inner, l.line()), (edge, 2.0 * l.line())] {
        if !d.is_empty() {
            writeln!(
                out,
                r#"<path class="grid" d="{d}" fill="none" stroke="{INK}" stroke-width="{}" stroke-linecap="square" shape-rendering="crispEdges"/>"#,
                N(width)
            )?;
        }
    }
    for (col, row) in star_points(w, h) {
        writeln!(
            out,
            r#"<circle class="hoshi" cx="{}" cy="{}" r="{}" fill="{INK}"/>"#,
            N(l.col_x(col)),
            N(l.row_y(row)),
            N(0.1 * l.s)
        )?;
    }
    Ok(())
}

/// The star points (hoshi) of a `w × h` board, as (column, row).
///
/// Boards with a side under 7 have none. Otherwise the four corner stars sit on the third line
/// (fourth from 13 up), as on 9×9, 13×13 and 19×19 boards; the centre is added when both sides
/// are odd and at least 9, and the side stars when a side is odd and at least 15, so 9×9 and
/// 13×13 show five stars and 19×19 nine.
pub(crate) fn star_points(w: usize, h: usize) -> Vec<(usize, usize)> {
    if w < 7 || h < 7 {
        return Vec::new();
    }
    let near = |n: usize| if n >= 13 { 3 } else { 2 };
    let (xs, ys) = ([near(w), w - 1 - near(w)], [near(h), h - 1 - near(h)]);
    let mut stars: Vec<(usize, usize)> = Vec::new();
    for &y in &ys {
        for &x in &xs {
            stars.push((x, y));
        }
    }
    let (mx, my) = (w / 2, h / 2);
    if w % 2 == 1 && h % 2 == 1 && w >= 9 && h >= 9 {
        stars.push((mx, my));
    }
    if w % 2 == 1 && w >= 15 {
        stars.extend(ys.iter().map(|&y| (mx, y)));
    }
    if h % 2 == 1 && h >= 15 {
        stars.extend(xs.iter().map(|&x| (x, my)));
    }
    stars.sort_unstable_by_key(|&(x, y)| (y, x));
    stars
}

fn write_coordinates(out: &mut String, board: &Board, l: &Layout) -> fmt::Result {
    let (w, h) = (board.width(), board.height());
    let font = 0.42 * l.s;
    // Text is placed by its baseline; 0.35 em down centres digits and capitals on a line.
    let shift = 0.35 * font;
    writeln!(
        out,
        r#"<g class="coordinates" font-size="{}" fill="{INK}" text-anchor="middle">"#,
        N(font)
    )?;
    let top = l.board_y + l.band / 2.0 + shift;
    let bottom = l.board_y + l.board_h - l.band / 2.0 + shift;
    for col in 0..w {
        let x = l.col_x(col);
        let c = gtp_column(col);
        for y in [top, bottom] {
            writeln!(out, r#"<text x="{}" y="{}">{c}</text>"#, N(x), N(y))?;
        }
    }
    let left = l.board_x + l.band / 2.0;
    let right = l.board_x + l.board_w - l.band / 2.0;
    for row in 0..h {
        let y = l.row_y(row) + shift;
        let n = h - row;
        for x in [left, right] {
            writeln!(out, r#"<text x="{}" y="{}">{n}</text>"#, N(x), N(y))?;
        }
    }
    writeln!(out, "</g>")
}

fn write_stones(out: &mut String, board: &Board, dead: &[Point], l: &Layout) -> fmt::Result {
    let r = 0.47 * l.s;
    for p in board.points() {
        let Some(color) = board.color_at(p) else {
            continue;
        };
        let (x, y) = l.at(p);
        let (fill, stroke, class) = match color {
            Color::Black => (BLACK_STONE, BLACK_STONE, "black"),
            Color::White => (WHITE_STONE, WHITE_EDGE, "white"),
        };
        // Dead stones stay visible, so the count can be checked, but faded.
        let (class, opacity) = if dead.contains(&p) {
            (format!("{class} dead"), r#" opacity="0.45""#)
        } else {
            (class.to_string(), "")
        };
        writeln!(
            out,
            r#"<circle class="{class}" cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="{}"{opacity}/>"#,
            N(x),
            N(y),
            N(r),
            N(l.line())
        )?;
    }
    Ok(())
}

fn write_territory(
    out: &mut String,
    board: &Board,
    owners: &[Option<Owner>],
    l: &Layout,
) -> fmt::Result {
    let side = 0.36 * l.s;
    let half = side / 2.0;
    let stroke = l.line();
    for (p, owner) in board.points().zip(owners) {
        let Some(owner) = owner else { continue };
        let (x, y) = l.at(p);
        match owner {
            Owner::Black | Owner::White => {
                let (fill, class) = if *owner == Owner::Black {
                    (BLACK_STONE, "territory-black")
                } else {
                    (WHITE_STONE, "territory-white")
                };
                writeln!(
                    out,
                    r#"<rect class="{class}" x="{}" y="{}" width="{}" height="{}" fill="{fill}" stroke="{BLACK_STONE}" stroke-width="{}"/>"#,
                    N(x - half),
                    N(y - half),
                    N(side),
                    N(side),
                    N(stroke)
                )?;
            }
            // 分空: half for each side, so half black and half white.
            Owner::Shared => {
                writeln!(
                    out,
                    r#"<g class="shared"><rect x="{}" y="{}" width="{}" height="{}" fill="{BLACK_STONE}"/><rect x="{}" y="{}" width="{}" height="{}" fill="{WHITE_STONE}" stroke="{BLACK_STONE}" stroke-width="{}"/></g>"#,
                    N(x - half),
                    N(y - half),
                    N(half),
                    N(side),
                    N(x),
                    N(y - half),
                    N(half),
                    N(side),
                    N(stroke)
                )?;
            }
        }
    }
    Ok(())
}

/// The neutral points filled before counting: a small stone of the filler's colour.
fn write_fills(
    out: &mut String,
    board: &Board,
    fills: &[(Point, Color)],
    l: &Layout,
) -> fmt::Result {
    for &(p, c) in fills {
        if !board.contains(p) || board.color_at(p).is_some() {
            continue;
        }
        let (x, y) = l.at(p);
        let (fill, class) = match c {
            Color::Black => (BLACK_STONE, "fill-black"),
            Color::White => (WHITE_STONE, "fill-white"),
        };
        writeln!(
            out,
            r#"<circle class="{class}" cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{BLACK_STONE}" stroke-width="{}"/>"#,
            N(x),
            N(y),
            N(0.3 * l.s),
            N(l.line())
        )?;
    }
    Ok(())
}

/// Seki: a triangle on stones in seki, a ring around the empty points they share.
fn write_seki(out: &mut String, board: &Board, seki: &[Point], l: &Layout) -> fmt::Result {
    let a = 0.22 * l.s;
    for &p in seki {
        if !board.contains(p) {
            continue;
        }
        let (x, y) = l.at(p);
        match board.color_at(p) {
            Some(c) => {
                let color = match c {
                    Color::Black => WHITE_STONE,
                    Color::White => BLACK_STONE,
                };
                writeln!(
                    out,
                    r#"<path class="seki-stone" d="M{} {}L{} {}L{} {}Z" fill="none" stroke="{color}" stroke-width="{}"/>"#,
                    N(x),
                    N(y - a),
                    N(x + a),
                    N(y + 0.8 * a),
                    N(x - a),
                    N(y + 0.8 * a),
                    N(0.07 * l.s)
                )?;
            }
            None => {
                writeln!(
                    out,
                    r#"<circle class="seki-point" cx="{}" cy="{}" r="{}" fill="none" stroke="{BLACK_STONE}" stroke-width="{}"/>"#,
                    N(x),
                    N(y),
                    N(0.3 * l.s),
                    N(0.06 * l.s)
                )?;
            }
        }
    }
    Ok(())
}

/// Writes the notes on points: an amber ring filled with the stone's colour, and the note inside
/// it in the colour that reads there (white on Black, black on White and on the wood).
fn write_notes(
    out: &mut String,
    board: &Board,
    notes: &[(Point, String)],
    l: &Layout,
) -> fmt::Result {
    for (p, text) in notes {
        if !board.contains(*p) {
            continue;
        }
        let (x, y) = l.at(*p);
        let text = clean_text(text);
        // The ring is filled with the stone's colour, so that the note reads over a territory
        // marker on a dead stone.
        let (fill, color) = match board.color_at(*p) {
            Some(Color::Black) => (BLACK_STONE, WHITE_STONE),
            Some(Color::White) => (WHITE_STONE, BLACK_STONE),
            None => (WOOD_LIGHT, BLACK_STONE),
        };
        let font = l.s
            * match text.chars().count() {
                0..=1 => 0.45,
                2 => 0.38,
                _ => 0.3,
            };
        writeln!(
            out,
            r#"<g class="check"><circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{NOTE_RING}" stroke-width="{}"/><text x="{}" y="{}" font-size="{}" fill="{color}" text-anchor="middle">{}</text></g>"#,
            N(x),
            N(y),
            N(0.47 * l.s),
            N(0.08 * l.s),
            N(x),
            N(y + 0.35 * font),
            N(font),
            Escaped(&text)
        )?;
    }
    Ok(())
}

/// Crosses dead stones when no territory marker says whose they are.
fn write_dead_crosses(out: &mut String, board: &Board, dead: &[Point], l: &Layout) -> fmt::Result {
    let a = 0.2 * l.s;
    for &p in dead {
        let (x, y) = l.at(p);
        let color = match board.color_at(p) {
            Some(Color::Black) => WHITE_STONE,
            _ => BLACK_STONE,
        };
        writeln!(
            out,
            r#"<path class="dead-cross" d="M{} {}L{} {}M{} {}L{} {}" stroke="{color}" stroke-width="{}"/>"#,
            N(x - a),
            N(y - a),
            N(x + a),
            N(y + a),
            N(x - a),
            N(y + a),
            N(x + a),
            N(y - a),
            N(0.08 * l.s)
        )?;
    }
    Ok(())
}

/// Writes the move numbers; returns whether the last move got one (and so needs no circle).
fn write_numbers(
    out: &mut String,
    diagram: &Diagram<'_>,
    owners: &[Option<Owner>],
    last: Option<Point>,
    l: &Layout,
) -> Result<bool, fmt::Error> {
    let board = diagram.board;
    let width = board.width();
    // One number per point, the last given; points under a territory marker keep the marker.
    let mut numbers: Vec<Option<u32>> = vec![None; board.width() * board.height()];
    for &(p, n) in &diagram.move_numbers {
        if board.contains(p) {
            numbers[p.row() * width + p.col()] = Some(n);
        }
    }
    let mut last_numbered = false;
    for (i, p) in board.points().enumerate() {
        let (Some(n), None) = (numbers[i], owners.get(i).copied().flatten()) else {
            continue;
        };
        let (x, y) = l.at(p);
        let digits = n.to_string();
        let font = l.s
            * match digits.len() {
                0..=2 => 0.5,
                3 => 0.42,
                _ => 0.32,
            };
        let is_last = last == Some(p);
        last_numbered |= is_last;
        let color = match (is_last, board.color_at(p)) {
            (true, _) => LAST_MOVE_NUMBER,
            (false, Some(Color::Black)) => WHITE_STONE,
            (false, _) => BLACK_STONE,
        };
        if board.color_at(p).is_none() {
            // Hide the lines under a number on a bare point.
            writeln!(
                out,
                r#"<circle cx="{}" cy="{}" r="{}" fill="{WOOD_LIGHT}"/>"#,
                N(x),
                N(y),
                N(0.32 * l.s)
            )?;
        }
        let class = if is_last {
            "number last-move"
        } else {
            "number"
        };
        writeln!(
            out,
            r#"<text class="{class}" x="{}" y="{}" font-size="{}" fill="{color}" text-anchor="middle">{digits}</text>"#,
            N(x),
            N(y + 0.35 * font),
            N(font)
        )?;
    }
    Ok(last_numbered)
}

fn write_captions(out: &mut String, l: &Layout) -> fmt::Result {
    let x = f64::from(l.width) / 2.0;
    let shift = 0.35 * l.caption_font;
    if let Some(title) = &l.title {
        writeln!(
            out,
            r#"<text class="title" x="{}" y="{}" font-size="{}" fill="{INK}" text-anchor="middle">{}</text>"#,
            N(x),
            N(l.board_y / 2.0 + shift),
            N(l.caption_font),
            Escaped(title)
        )?;
    }
    if let Some(legend) = &l.legend {
        writeln!(
            out,
            r#"<text class="legend" x="{}" y="{}" font-size="{}" fill="{INK}" text-anchor="middle">{}</text>"#,
            N(x),
            N(l.board_y + l.board_h + l.s / 2.0 + shift),
            N(l.caption_font),
            Escaped(legend)
        )?;
    }
    if let Some(key) = &l.key {
        let lines_above = if l.legend.is_some() { 1.5 } else { 0.5 };
        writeln!(
            out,
            r#"<text class="key" x="{}" y="{}" font-size="{}" fill="{INK}" text-anchor="middle">{}</text>"#,
            N(x),
            N(l.board_y + l.board_h + lines_above * l.s + shift),
            N(0.85 * l.caption_font),
            Escaped(key)
        )?;
    }
    if let Some(note) = &l.fill_note {
        let lines_above = 0.5 + f64::from(u8::from(l.legend.is_some()) + u8::from(l.key.is_some()));
        writeln!(
            out,
            r#"<text class="fill-note" x="{}" y="{}" font-size="{}" fill="{INK}" text-anchor="middle">{}</text>"#,
            N(x),
            N(l.board_y + l.board_h + lines_above * l.s + shift),
            N(0.85 * l.caption_font),
            Escaped(note)
        )?;
    }
    Ok(())
}

/// A number written with at most two decimals and no trailing zeros (`16`, `4.5`, `0.47`),
/// computed in integers so that every platform prints the same text.
struct N(f64);

impl fmt::Display for N {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hundredths = (self.0 * 100.0).round() as i64;
        let sign = if hundredths < 0 { "-" } else { "" };
        let (int, frac) = (hundredths.abs() / 100, hundredths.abs() % 100);
        match frac {
            0 => write!(f, "{sign}{int}"),
            _ if frac % 10 == 0 => write!(f, "{sign}{int}.{}", frac / 10),
            _ => write!(f, "{sign}{int}.{frac:02}"),
        }
    }
}

/// Text for XML character data and attribute values, with the five special characters escaped.
struct Escaped<'a>(&'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            match c {
                '&' => f.write_str("&amp;")?,
                '<' => f.write_str("&lt;")?,
                '>' => f.write_str("&gt;")?,
                '"' => f.write_str("&quot;")?,
                '\'' => f.write_str("&apos;")?,
                c => f.write_char(c)?,
            }
        }
        Ok(())
    }
}

/// Caller text made fit for one line of XML: control characters become spaces (a caption is
/// one line) and characters XML 1.0 forbids (U+FFFE, U+FFFF) are dropped, since a single one
/// makes the whole document unreadable.
fn clean_text(text: &str) -> String {
    text.chars()
        .filter(|&c| c != '\u{FFFE}' && c != '\u{FFFF}')
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// A generous estimate of the width of `text` in ems, to size the canvas for captions: about
/// 0.62 em for Latin letters and digits in DejaVu Sans, a full em for wide (CJK) characters.
fn text_width_em(text: &str) -> f64 {
    text.chars()
        .map(|c| match c as u32 {
            0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF => 1.0,
            0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x20000..=0x3FFFD => 1.0,
            _ => 0.62,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_have_at_most_two_decimals() {
        let shown: Vec<String> = [16.0, 4.5, 0.47, -1.255, 1e-9, 15.04, 2.0 / 3.0]
            .iter()
            .map(|&v| N(v).to_string())
            .collect();
        assert_eq!(shown, ["16", "4.5", "0.47", "-1.25", "0", "15.04", "0.67"]);
    }

    #[test]
    fn escapes_markup_and_drops_what_xml_cannot_hold() {
        let text = clean_text("<Lee> & \"O'Meara\"\u{0}\n\u{FFFF}");
        assert_eq!(
            Escaped(&text).to_string(),
            "&lt;Lee&gt; &amp; &quot;O&apos;Meara&quot;  "
        );
    }

    #[test]
    fn star_points_of_usual_sizes() {
        assert_eq!(star_points(19, 19).len(), 9);
        assert!(star_points(19, 19).contains(&(3, 3)));
        assert!(star_points(19, 19).contains(&(9, 9)));
        assert!(star_points(19, 19).contains(&(15, 9)));
        assert_eq!(
            star_points(13, 13),
            [(3, 3), (9, 3), (6, 6), (3, 9), (9, 9)]
        );
        assert_eq!(star_points(9, 9), [(2, 2), (6, 2), (4, 4), (2, 6), (6, 6)]);
        assert_eq!(star_points(7, 7), [(2, 2), (4, 2), (2, 4), (4, 4)]);
        assert_eq!(star_points(8, 8).len(), 4);
        assert!(star_points(5, 5).is_empty());
        assert!(star_points(1, 1).is_empty());
        // A rectangle: odd 19 wide gets side stars along the top and bottom star lines only.
        assert_eq!(
            star_points(19, 9),
            [(3, 2), (9, 2), (15, 2), (9, 4), (3, 6), (9, 6), (15, 6)]
        );
        for w in 1..=25 {
            for h in 1..=25 {
                assert!(star_points(w, h).iter().all(|&(x, y)| x < w && y < h));
            }
        }
    }
}
