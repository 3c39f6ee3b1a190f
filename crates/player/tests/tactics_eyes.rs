//! The eye-space shapes of [`ingo_player::tactics::eye_space`]: each classic shape from a
//! diagram (`#` a point of the space), in its eight orientations, with its status and vital
//! point; and each status checked by reading: the space enclosed by a Black group that has no
//! other liberty, inside a White wall with room outside, where [`Reader::can_capture`] (White
//! first) and [`Reader::can_save`] (Black first) must agree with the status.

use ingo_player::tactics::{
    eye_space, EyeShape, EyeSpaceError, EyeStatus, Limits, Reader, Verdict,
};
use ingo_rules::{Board, Color, Point};

/// The points marked `#` in `diagram` (rows top to bottom), and the one marked `*` (a `#`
/// that is the vital point) if any.
fn shape(diagram: &str) -> (Vec<Point>, Option<Point>) {
    let mut points = Vec::new();
    let mut vital = None;
    for (r, line) in diagram.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        for (c, ch) in line
            .trim()
            .chars()
            .filter(|c| !c.is_whitespace())
            .enumerate()
        {
            let p = Point::new(c + 3, r + 3).expect("on the board");
            match ch {
                '#' => points.push(p),
                '*' => {
                    points.push(p);
                    vital = Some(p);
                }
                _ => {}
            }
        }
    }
    (points, vital)
}

/// Symmetry `s` of a point about the centre of a 13×13 array (the shapes sit inside it).
fn turn(p: Point, s: u8) -> Point {
    let (mut c, mut r) = (p.col(), p.row());
    if s & 1 != 0 {
        std::mem::swap(&mut c, &mut r);
    }
    if s & 2 != 0 {
        c = 12 - c;
    }
    if s & 4 != 0 {
        r = 12 - r;
    }
    Point::new(c, r).expect("on the board")
}

/// Every shape: its diagram, the shape and whether it is unsettled (vital point `*`), one eye,
/// or two eyes.
const SHAPES: [(&str, EyeShape, &str); 13] = [
    ("#", EyeShape::One, "one"),
    ("# #", EyeShape::Two, "one"),
    ("# * #", EyeShape::StraightThree, "vital"),
    ("* #\n# .", EyeShape::BentThree, "vital"),
    ("# #\n# #", EyeShape::SquareFour, "one"),
    ("# * #\n. # .", EyeShape::PyramidFour, "vital"),
    ("# # # #", EyeShape::StraightFour, "two"),
    ("# # #\n# . .", EyeShape::BentFour, "two"),
    ("# # .\n. # #", EyeShape::ZigzagFour, "two"),
    ("# * #\n# # .", EyeShape::BulkyFive, "vital"),
    (". # .\n# * #\n. # .", EyeShape::CrossFive, "vital"),
    (". # .\n# * #\n. # #", EyeShape::RabbitySix, "vital"),
    ("# # #\n# # #", EyeShape::Other(6), "two"),
];

#[test]
fn every_shape_in_every_orientation() {
    for (diagram, want, status) in SHAPES {
        let (points, vital) = shape(diagram);
        for s in 0..8 {
            let turned: Vec<Point> = points.iter().map(|&p| turn(p, s)).collect();
            let got = eye_space(&turned).expect("an eye space");
            assert_eq!(got.shape, want, "{diagram} turned {s}");
            let expected = match status {
                "one" => EyeStatus::OneEye,
                "two" => EyeStatus::TwoEyes,
                _ => EyeStatus::Unsettled {
                    vital: turn(vital.expect("a vital point in the diagram"), s),
                },
            };
            assert_eq!(got.status, expected, "{diagram} turned {s}");
        }
    }
}

#[test]
fn a_straight_five_is_two_eyes() {
    let (points, _) = shape("# # # # #");
    let got = eye_space(&points).expect("an eye space");
    assert_eq!(
        (got.shape, got.status),
        (EyeShape::Other(5), EyeStatus::TwoEyes)
    );
}

#[test]
fn sets_that_are_no_eye_space_are_errors() {
    assert_eq!(eye_space(&[]), Err(EyeSpaceError::Empty));
    let (points, _) = shape("# . #");
    assert_eq!(eye_space(&points), Err(EyeSpaceError::NotConnected));
    let p = points[0];
    assert_eq!(eye_space(&[p, p]), Err(EyeSpaceError::Repeated));
}

/// The space `points` inside a Black group with no other liberty (every point within one step,
/// diagonals included), inside a White wall (within two steps) on a 13×13 board.
fn enclosed(points: &[Point]) -> Board {
    let mut b = Board::with_dims(13, 13).expect("13x13");
    let dist = |p: Point| {
        points
            .iter()
            .map(|q| p.col().abs_diff(q.col()).max(p.row().abs_diff(q.row())))
            .min()
            .unwrap_or(usize::MAX)
    };
    for p in b.points().collect::<Vec<_>>() {
        match dist(p) {
            1 => b.set_stone(p, Color::Black),
            2 => b.set_stone(p, Color::White),
            _ => {}
        }
    }
    b
}

#[test]
fn reading_agrees_with_each_status() {
    let limits = Limits {
        nodes: 200_000,
        escape_liberties: 8,
        ..Limits::default()
    };
    let mut reader = Reader::new();
    for (diagram, _, status) in SHAPES {
        let (points, _) = shape(diagram);
        let b = enclosed(&points);
        let group = b
            .points()
            .find(|&p| b.color_at(p) == Some(Color::Black))
            .expect("the group");
        assert_eq!(
            b.string_size(group),
            b.stone_count(Color::Black),
            "{diagram}\n{b:?}"
        );
        let attack = reader.can_capture(&b, group, &limits).expect("a stone");
        let save = reader.can_save(&b, group, &limits).expect("a stone");
        let (want_attack, want_save) = match status {
            "one" => (Verdict::Yes, Verdict::No),
            "two" => (Verdict::No, Verdict::Yes),
            _ => (Verdict::Yes, Verdict::Yes),
        };
        assert_eq!(
            (attack.verdict, save.verdict),
            (want_attack, want_save),
            "{diagram}\n{b:?}\nattack {attack:?}\nsave {save:?}"
        );
    }
}
