//! Diagrams: golden SVG text, well-formedness at every size, and PNG pixels where stones and
//! territory markers are.
//!
//! Pixel checks look only at stones, lines and markers, never at text, so they pass on a
//! machine without fonts.

use std::{path::PathBuf, sync::Arc};

use ingo_render::{
    fontdb::Database, render_png, render_png_with_fonts, render_svg, Diagram, DiagramOptions,
    MAX_POINT_SIZE, MIN_POINT_SIZE,
};
use ingo_rules::{score, Board, ByColor, Color, Game, Komi, Move, Point, Rules, Score, Setup};
use resvg::{tiny_skia::Pixmap, usvg};

fn at(name: &str, board: &Board) -> Point {
    Point::from_gtp(name, board.width(), board.height()).expect("test point names are valid")
}

fn board(ascii: &str) -> Board {
    Board::from_ascii(ascii).expect("test boards are valid")
}

fn count(board: &Board, dead: &[Point]) -> Score {
    score(
        board,
        dead,
        Komi::points(8),
        ByColor::default(),
        Color::Black,
    )
}

/// Parses `svg` the way `render_png` does, without fonts; panics when it is not well formed.
fn parse(svg: &str) -> usvg::Tree {
    match usvg::Tree::from_str(svg, &usvg::Options::default()) {
        Ok(tree) => tree,
        Err(e) => panic!("svg does not parse: {e}\n{svg}"),
    }
}

fn decode(png: &[u8]) -> Pixmap {
    Pixmap::decode_png(png).expect("render_png writes a png")
}

/// The pixel colour (r, g, b) at point `p` of a diagram with default sizes (32 px points, a
/// 32 px coordinate band), shifted by (`dx`, `dy`) pixels. Captions only add height below and
/// above and, when wider than the board, centre the board: `top` is the title's height.
fn rgb_at(pix: &Pixmap, board: &Board, top: u32, p: Point, dx: f64, dy: f64) -> (u8, u8, u8) {
    let board_w = board.width() as f64 * 32.0 + 64.0;
    let left = (pix.width() as f64 - board_w) / 2.0;
    let x = left + 32.0 + (p.col() as f64 + 0.5) * 32.0 + dx;
    let y = top as f64 + 32.0 + (p.row() as f64 + 0.5) * 32.0 + dy;
    let c = pix
        .pixel(x.floor() as u32, y.floor() as u32)
        .expect("pixel inside the image");
    assert_eq!(c.alpha(), 255, "the board is opaque");
    (c.red(), c.green(), c.blue())
}

fn is_dark((r, g, b): (u8, u8, u8)) -> bool {
    r < 50 && g < 50 && b < 50
}

fn is_light((r, g, b): (u8, u8, u8)) -> bool {
    r > 225 && g > 225 && b > 225
}

/// The wood: a warm light brown, neither black nor white.
fn is_wood((r, g, b): (u8, u8, u8)) -> bool {
    r > 190 && g > 140 && b < 160 && r > b + 50
}

/// Compares with a committed file; `INGO_BLESS=1` rewrites it instead.
fn golden(name: &str, actual: &str) {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "golden", name]
        .iter()
        .collect();
    if std::env::var_os("INGO_BLESS").is_some() {
        std::fs::write(&path, actual).expect("golden file is writable");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with INGO_BLESS=1 to create it)",
            path.display()
        )
    });
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(e, a)| e != a)
            .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
        panic!(
            "{} differs from line {}:\nexpected: {:?}\nactual:   {:?}\n(run with INGO_BLESS=1 to accept)",
            path.display(),
            line + 1,
            expected.lines().nth(line),
            actual.lines().nth(line)
        );
    }
}

#[test]
fn golden_5x5_with_numbers_and_last_move() {
    let b = board(
        "
  A B C D E
5 . . . . .
4 . X O . .
3 . . X O .
2 . . X . .
1 . . . . .",
    );
    let numbers = ["C3", "C4", "B4", "D3", "C2"]
        .iter()
        .zip(1..)
        .map(|(name, n)| (at(name, &b), n))
        .collect();
    let diagram = Diagram::new(&b)
        .with_move_numbers(numbers)
        .with_last_move(Some(at("C2", &b)));
    let options = DiagramOptions {
        move_numbers: true,
        title: Some(r#"Golden <5×5> & "quotes""#.to_string()),
        ..DiagramOptions::default()
    };
    let svg = render_svg(&diagram, &options);
    parse(&svg);
    assert_eq!(
        svg,
        render_svg(&diagram, &options),
        "output is deterministic"
    );
    golden("5x5.svg", &svg);
}

/// Every size from 1×1 to 25×25 and some rectangles, with every mark drawn, is well-formed SVG
/// of the size it claims.
#[test]
fn svg_parses_at_every_size() {
    let mut sizes: Vec<(usize, usize)> = (1..=25).map(|n| (n, n)).collect();
    sizes.extend([(19, 7), (7, 19), (1, 25), (25, 1), (3, 2), (25, 24)]);
    for (w, h) in sizes {
        let mut b = Board::with_dims(w, h).expect("size is supported");
        let mut numbers = Vec::new();
        for p in Board::with_dims(w, h).expect("size is supported").points() {
            let color = match (p.col() + 2 * p.row()) % 5 {
                0 => Color::Black,
                2 => Color::White,
                _ => continue,
            };
            b.set_stone(p, color);
            numbers.push((p, numbers.len() as u32 + 1));
        }
        let dead: Vec<Point> = b
            .points()
            .filter(|&p| b.color_at(p).is_some())
            .take(1)
            .collect();
        let score = count(&b, &dead);
        let last = numbers.last().map(|&(p, _)| p);
        let diagram = Diagram::new(&b)
            .with_move_numbers(numbers)
            .with_last_move(last)
            .with_score(Some(&score));
        for coordinates in [true, false] {
            for shade_territory in [true, false] {
                let options = DiagramOptions {
                    coordinates,
                    shade_territory,
                    move_numbers: true,
                    title: Some(format!("{w}×{h}")),
                    ..DiagramOptions::default()
                };
                let svg = render_svg(&diagram, &options);
                let tree = parse(&svg);
                let band = if coordinates { 64 } else { 16 };
                let (tw, th) = (tree.size().width(), tree.size().height());
                assert!(
                    tw >= (32 * w + band) as f32,
                    "{w}×{h}: width {tw} is at least the board's"
                );
                assert_eq!(th, (32 * h + band + 64) as f32, "{w}×{h}: height");
            }
        }
    }
}

#[test]
fn caller_text_is_escaped() {
    let b = Board::new(3).expect("size is supported");
    let options = DiagramOptions {
        title: Some("B: <script>&amp; \"O'Neil\"\u{0}\u{7}\u{FFFF} 李昌镐".to_string()),
        ..DiagramOptions::default()
    };
    let svg = render_svg(&Diagram::new(&b), &options);
    parse(&svg);
    assert!(svg.contains("B: &lt;script&gt;&amp;amp; &quot;O&apos;Neil&quot;   李昌镐"));
    assert!(!svg.contains("<script"));
    // The canvas grows to hold a caption wider than a small board.
    let plain = render_svg(&Diagram::new(&b), &DiagramOptions::default());
    assert!(plain.contains(r#"viewBox="0 0 160 160""#));
    assert!(!svg.contains(r#"viewBox="0 0 160 "#));
}

#[test]
fn coordinates_skip_i_and_count_from_the_bottom() {
    let b = board(
        "
X . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . O",
    );
    let svg = render_svg(&Diagram::new(&b), &DiagramOptions::default());
    assert_eq!(svg.matches(">J</text>").count(), 2, "top and bottom");
    assert_eq!(svg.matches(">9</text>").count(), 2, "left and right");
    assert!(!svg.contains(">I</text>"));
    // Row 9 is the top row: its label sits level with A9, the black stone.
    let line = |needle: &str| {
        svg.lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no line with {needle}"))
            .to_string()
    };
    assert!(line(r#"class="black""#).contains(r#"cy="48""#));
    assert!(
        line(">9</text>").contains(r#"y="52.7""#),
        "48 + 0.35 × 0.42 × 32"
    );
    assert_eq!(svg.matches(r#"class="hoshi""#).count(), 5);
    let bare = DiagramOptions {
        coordinates: false,
        ..DiagramOptions::default()
    };
    assert!(!render_svg(&Diagram::new(&b), &bare).contains("<text"));
}

#[test]
fn png_has_the_svg_size_and_stone_colours() {
    let b = board(
        "
. . . . . . . . .
. . . . . . . . .
. . . . . . O . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . X . . . . . .
. . . . . . . . .
. . . . . . . . .",
    );
    let png = render_png(&Diagram::new(&b), &DiagramOptions::default()).expect("renders");
    let pix = decode(&png);
    assert_eq!((pix.width(), pix.height()), (352, 352));
    assert!(is_dark(rgb_at(&pix, &b, 0, at("C3", &b), 0.0, 0.0)));
    assert!(is_light(rgb_at(&pix, &b, 0, at("G7", &b), 0.0, 0.0)));
    // Between the lines: wood; on a line: ink.
    assert!(is_wood(rgb_at(&pix, &b, 0, at("E5", &b), 8.0, 8.0)));
    assert!(is_dark(rgb_at(&pix, &b, 0, at("E5", &b), 0.0, 8.0)));
    // A star point's centre is ink, beside it wood.
    assert!(is_dark(rgb_at(&pix, &b, 0, at("G3", &b), 0.0, 0.0)));
}

#[test]
fn png_marks_the_last_move_with_a_ring_of_the_other_colour() {
    let b = board("X . O\n. . .\n. . .");
    let render = |last: &str| {
        let diagram = Diagram::new(&b).with_last_move(Some(at(last, &b)));
        decode(&render_png(&diagram, &DiagramOptions::default()).expect("renders"))
    };
    // The ring has radius 0.22 points (7 px): 7 px right of the centre is on it.
    let black = render("A3");
    assert!(is_light(rgb_at(&black, &b, 0, at("A3", &b), 7.0, 0.0)));
    assert!(is_dark(rgb_at(&black, &b, 0, at("A3", &b), 0.0, 0.0)));
    let white = render("C3");
    assert!(is_dark(rgb_at(&white, &b, 0, at("C3", &b), 7.0, 0.0)));
    assert!(is_light(rgb_at(&white, &b, 0, at("C3", &b), 0.0, 0.0)));
}

/// The 5×5 board of the counts below: Black's area on the left, White's on the right, a shared
/// point at C3, and E4 (a Black stone the tests count dead).
fn count_board() -> Board {
    board(
        "
  A B C D E
5 . X O . .
4 . X O . X
3 . X . O .
2 . X O . .
1 . X O . .",
    )
}

/// A counted 5×5: Black's area on the left, White's on the right, a shared point at C3 and a
/// dead black stone at E4.
#[test]
fn png_marks_territory_shared_points_and_dead_stones() {
    let b = count_board();
    let dead = [at("E4", &b)];
    let score = count(&b, &dead);
    assert_eq!(
        (score.area.black, score.area.white, score.shared),
        (10, 14, 1)
    );
    let diagram = Diagram::new(&b).with_score(Some(&score));
    let options = DiagramOptions {
        shade_territory: true,
        ..DiagramOptions::default()
    };
    let svg = render_svg(&diagram, &options);
    assert!(svg.contains(">Black 10, White 14, shared 1 — W+12</text>"));
    assert_eq!(svg.matches(r#"class="territory-black""#).count(), 5);
    assert_eq!(
        svg.matches(r#"class="territory-white""#).count(),
        9,
        "E4 included"
    );
    assert_eq!(svg.matches(r#"class="shared""#).count(), 1);
    assert_eq!(svg.matches(r#"class="black dead""#).count(), 1);

    let pix = decode(&render_png(&diagram, &options).expect("renders"));
    assert_eq!(
        pix.height(),
        224 + 32,
        "a line for the count below the board"
    );
    // Offsets off the lines: (7, 7) is inside a stone (radius 15) but outside a marker (half
    // side 5.76); (9, 9) is bare wood beside a marker.
    let px = |name: &str, dx: f64, dy: f64| rgb_at(&pix, &b, 0, at(name, &b), dx, dy);
    // Black's territory: a black square on the wood.
    assert!(is_dark(px("A3", 0.0, 0.0)));
    assert!(is_wood(px("A3", 9.0, 9.0)));
    // White's territory: a white square.
    assert!(is_light(px("E1", 0.0, 0.0)));
    assert!(is_wood(px("E1", -9.0, -9.0)));
    // The shared point: black on the left half, white on the right.
    assert!(is_dark(px("C3", -3.0, 0.0)));
    assert!(is_light(px("C3", 3.0, 0.0)));
    // The dead black stone: White's marker on it, the stone around it faded, not black.
    assert!(is_light(px("E4", 0.0, 0.0)));
    let faded = px("E4", -7.0, 7.0);
    assert!(!is_dark(faded) && !is_wood(faded), "faded black: {faded:?}");
    assert!(is_dark(px("B4", -7.0, 7.0)), "a live stone is not faded");

    // Without shading: no squares on the territory, and the dead stone is crossed out.
    let plain = DiagramOptions::default();
    let svg = render_svg(&diagram, &plain);
    assert!(!svg.contains("territory-"));
    assert!(svg.contains(r#"class="dead-cross""#));
    assert!(svg.contains("— W+12</text>"), "the count line stays");
    let pix = decode(&render_png(&diagram, &plain).expect("renders"));
    assert!(is_wood(rgb_at(&pix, &b, 0, at("A3", &b), 4.0, 4.0)));
}

#[test]
fn png_without_fonts_still_draws_the_board() {
    let b = board(". . .\n. X .\n. . O");
    let options = DiagramOptions {
        title: Some("no fonts".to_string()),
        ..DiagramOptions::default()
    };
    let diagram = Diagram::new(&b);
    let none = render_png_with_fonts(&diagram, &options, Arc::new(Database::new()))
        .expect("renders without fonts");
    let pix = decode(&none);
    assert_eq!((pix.width(), pix.height()), (160, 192));
    assert!(is_dark(rgb_at(&pix, &b, 32, at("B2", &b), 0.0, 0.0)));
    assert!(is_light(rgb_at(&pix, &b, 32, at("C1", &b), 0.0, 0.0)));

    // Where the machine has fonts, the same diagram gains its text (and only then).
    let mut system = Database::new();
    system.load_system_fonts();
    let with = render_png(&diagram, &options).expect("renders");
    if system.is_empty() {
        assert_eq!(with, none);
    } else {
        assert_ne!(
            with, none,
            "coordinates and title are drawn with system fonts"
        );
    }
}

#[test]
fn empty_1x1_board_renders() {
    let b = Board::new(1).expect("1×1 is supported");
    let score = count(&b, &[]);
    let p = Point::new(0, 0).expect("A1");
    let diagram = Diagram::new(&b)
        .with_move_numbers(vec![(p, 1)])
        .with_last_move(Some(p))
        .with_score(Some(&score));
    for coordinates in [true, false] {
        let options = DiagramOptions {
            coordinates,
            move_numbers: true,
            shade_territory: true,
            title: Some(String::new()),
            ..DiagramOptions::default()
        };
        parse(&render_svg(&diagram, &options));
        let pix = decode(&render_png(&diagram, &options).expect("renders"));
        let side = if coordinates { 96 } else { 48 };
        assert_eq!(pix.height(), side + 64);
    }
    let bare = render_png(&Diagram::new(&b), &DiagramOptions::default()).expect("renders");
    assert_eq!(decode(&bare).width(), 96);
}

/// A damaged record can point outside the board or carry a count of another board: the marks
/// are dropped, the diagram drawn.
#[test]
fn marks_off_the_board_are_ignored() {
    let b = Board::new(5).expect("size is supported");
    let other = Board::new(9).expect("size is supported");
    let wrong_size = count(&other, &[]);
    let far = Point::new(24, 24).expect("on a 25×25 board");
    let diagram = Diagram::new(&b)
        .with_move_numbers(vec![(far, 3), (Point::new(5, 0).expect("F5"), 4)])
        .with_last_move(Some(far))
        .with_score(Some(&wrong_size));
    let options = DiagramOptions {
        move_numbers: true,
        shade_territory: true,
        ..DiagramOptions::default()
    };
    let plain = render_svg(&Diagram::new(&b), &options);
    assert_eq!(render_svg(&diagram, &options), plain);
    render_png(&diagram, &options).expect("renders");
}

#[test]
fn point_size_is_clamped() {
    let b = Board::new(5).expect("size is supported");
    let size = |px: u32| {
        let options = DiagramOptions {
            point_size_px: px,
            ..DiagramOptions::default()
        };
        let pix = decode(&render_png(&Diagram::new(&b), &options).expect("renders"));
        pix.width()
    };
    assert_eq!(size(0), 7 * MIN_POINT_SIZE);
    assert_eq!(size(20), 7 * 20);
    let huge = DiagramOptions {
        point_size_px: u32::MAX,
        ..DiagramOptions::default()
    };
    assert!(render_svg(&Diagram::new(&b), &huge)
        .contains(&format!(r#"width="{}""#, 7 * MAX_POINT_SIZE)));
}

#[test]
fn game_numbers_follow_the_stones_on_the_board() {
    let mut game = Game::new(Setup::empty(5).expect("size is supported"), Rules::ing());
    let b = game.board().clone();
    // Black captures White's A1 at move 3, then fills A1 itself at move 5.
    for name in ["B1", "A1", "A2", "C3", "A1"] {
        game.play(Move::Play(at(name, &b))).expect("legal");
    }
    let diagram = Diagram::from_game(&game);
    let mut numbers = diagram.move_numbers().to_vec();
    numbers.sort_by_key(|&(_, n)| n);
    let expected: Vec<(Point, u32)> = [("B1", 1), ("A2", 3), ("C3", 4), ("A1", 5)]
        .iter()
        .map(|&(name, n)| (at(name, &b), n))
        .collect();
    assert_eq!(numbers, expected);
    assert_eq!(diagram.last_move(), Some(at("A1", &b)));

    let options = DiagramOptions {
        move_numbers: true,
        ..DiagramOptions::default()
    };
    let svg = render_svg(&diagram, &options);
    assert!(svg.contains(r#"class="number last-move""#) && svg.contains(">5</text>"));
    assert!(
        !svg.contains(r#"class="last-move" cx"#),
        "a numbered last move has no ring"
    );
    game.play(Move::Pass).expect("legal");
    assert_eq!(Diagram::from_game(&game).last_move(), None);
}

/// The end-of-game judgement's marks: neutral points filled before counting drawn as small
/// stones of the filler's colour, a triangle on stones in seki and a ring on the points they
/// share; marks off the board or on the wrong kind of point are ignored.
#[test]
fn svg_marks_filled_points_and_seki() {
    let b = count_board();
    let fills = vec![
        (at("C3", &b), Color::Black),
        (at("D5", &b), Color::White),
        // A stone is not a neutral point: no mark.
        (at("B5", &b), Color::White),
    ];
    let seki = vec![at("B1", &b), at("C1", &b), at("D1", &b)];
    let diagram = Diagram::new(&b).with_fills(fills).with_seki(seki);
    assert_eq!(diagram.fills().len(), 3);
    assert_eq!(diagram.seki().len(), 3);
    let svg = render_svg(&diagram, &DiagramOptions::default());
    assert_eq!(svg.matches(r#"class="fill-black""#).count(), 1);
    assert_eq!(svg.matches(r#"class="fill-white""#).count(), 1);
    assert_eq!(svg.matches(r#"class="seki-stone""#).count(), 2);
    assert_eq!(svg.matches(r#"class="seki-point""#).count(), 1);
    parse(&svg);
}

/// The one count picture of `ingo score --svg` and the play server: the count's territory,
/// shared points and dead stones, the judgement's fills and seki on top, the title, and no
/// last-move mark even on a diagram of a game.
#[test]
fn count_picture_draws_the_count_with_the_judgements_marks() {
    let b = count_board();
    let score = count(&b, &[at("E4", &b)]);
    let fills = vec![(at("D5", &b), Color::White)];
    let seki = vec![at("B1", &b), at("C1", &b)];
    let picture = ingo_render::count_picture(&b, &score, fills, seki, "a – b: W+12".into());
    assert!(picture.options.shade_territory && !picture.options.last_move);
    let svg = picture.svg();
    assert!(svg.contains(">a – b: W+12</text>"), "the title");
    assert!(svg.contains(">Black 10, White 14, shared 1 — W+12</text>"));
    assert_eq!(svg.matches(r#"class="territory-black""#).count(), 5);
    assert_eq!(svg.matches(r#"class="shared""#).count(), 1);
    assert_eq!(svg.matches(r#"class="black dead""#).count(), 1);
    assert_eq!(svg.matches(r#"class="fill-white""#).count(), 1);
    assert_eq!(svg.matches(r#"class="seki-stone""#).count(), 2);
    parse(&svg);
    assert!(!picture.png().expect("renders").is_empty());
}

/// The verdicts to check on a count picture: an amber ring filled with the stone's colour and
/// the note inside it (pixels: the ring's amber beside the stone's edge, the fill over the
/// territory marker of a dead stone), the key under the count only when a note is on the
/// board, one line more of height, and notes off the board ignored.
#[test]
fn count_picture_rings_the_verdicts_to_check() {
    let b = count_board();
    let score = count(&b, &[at("E4", &b)]);
    let plain = ingo_render::count_picture(&b, &score, Vec::new(), Vec::new(), "t".into());
    let checked = plain.clone().with_checks(vec![
        (at("E4", &b), "48%".into()),
        (at("B5", &b), "R".into()),
    ]);
    let svg = checked.svg();
    assert_eq!(svg.matches(r#"class="check""#).count(), 2);
    assert!(svg.contains(">48%</text>") && svg.contains(">R</text>"));
    assert!(svg.contains(&format!(">{}</text>", ingo_render::CHECKS_KEY)));
    parse(&svg);
    let (plain_png, checked_png) = (
        decode(&plain.png().expect("renders")),
        decode(&checked.png().expect("renders")),
    );
    // One line (a point, 32 px) more for the key.
    assert_eq!(checked_png.height(), plain_png.height() + 32);
    // The title takes one line above the board. The ring has radius 0.47 points (15 px).
    let amber = |(r, g, b): (u8, u8, u8)| r > 180 && (90..=160).contains(&g) && b < 60;
    assert!(amber(rgb_at(&checked_png, &b, 32, at("B5", &b), 15.0, 0.0)));
    assert!(!amber(rgb_at(&plain_png, &b, 32, at("B5", &b), 15.0, 0.0)));
    // The dead Black stone E4: White's territory marker (light) at its centre without a note;
    // with one, the ring's black fill covers the faded stone and the marker (above the
    // note's small text).
    assert!(is_light(rgb_at(&plain_png, &b, 32, at("E4", &b), 0.0, 0.0)));
    let under = |pix: &Pixmap| rgb_at(pix, &b, 32, at("E4", &b), -8.0, -8.0);
    assert!(is_dark(under(&checked_png)), "{:?}", under(&checked_png));
    assert_ne!(under(&plain_png), under(&checked_png));

    // Notes off the board: nothing drawn, no key.
    let off = Point::from_gtp("T19", 19, 19).expect("T19");
    let svg = plain.clone().with_checks(vec![(off, "R".into())]).svg();
    assert!(!svg.contains(r#"class="check""#) && !svg.contains(r#"class="key""#));
    assert_eq!(svg, plain.svg());
}
