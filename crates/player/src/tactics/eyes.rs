//! Eye-space shapes: how many eyes an enclosed space of one to six points gives, and its vital
//! point (the nakade point) when the side that plays there first decides it.
//!
//! The shapes are the classic ones, recognised whichever way they face (the eight symmetries
//! of the square): the straight and bent threes, the square, pyramid, straight, bent and
//! zigzag fours, the bulky and cross (flower) fives, the rabbity six. The verdicts are those of
//! an empty space fully enclosed by one side's connected stones, away from the corner: the
//! corner's special cases (bent four in the corner, a ko under Ing's rules; the rectangular
//! six with few outside liberties), opponent stones already inside and false eyes on the
//! space's border are outside this module.

use ingo_rules::{Point, MAX_SIZE};

/// A classic eye-space shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EyeShape {
    /// One point.
    One,
    /// Two points side by side.
    Two,
    /// Three in a line.
    StraightThree,
    /// Three in an L.
    BentThree,
    /// The 2×2 square.
    SquareFour,
    /// The T: three in a line and one beside the middle.
    PyramidFour,
    /// Four in a line.
    StraightFour,
    /// Three in a line and one beside an end (an L).
    BentFour,
    /// The zigzag (S or Z) four.
    ZigzagFour,
    /// The square and one point beside it.
    BulkyFive,
    /// The cross, or flower: a point and its four neighbours.
    CrossFive,
    /// The rabbity six: a cross with a point beside one of its arms' ends, diagonal to the
    /// centre.
    RabbitySix,
    /// Any other shape of `n` points.
    Other(usize),
}

/// What an eye space is worth to the side that encloses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EyeStatus {
    /// One eye at most, whoever moves first: one and two points, the square four.
    OneEye,
    /// Two eyes if the enclosing side plays the vital point first, one if the opponent does.
    Unsettled {
        /// The vital point.
        vital: Point,
    },
    /// Two eyes whoever moves first: the space can be split two ways (miai), or it is large.
    TwoEyes,
}

/// An eye space's shape and status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EyeSpace {
    /// The shape.
    pub shape: EyeShape,
    /// Its status.
    pub status: EyeStatus,
}

/// Why a set of points is not an eye space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EyeSpaceError {
    /// No points.
    #[error("an eye space needs at least one point")]
    Empty,
    /// A point is given twice.
    #[error("a point of the eye space is given twice")]
    Repeated,
    /// The points are not one orthogonally connected region.
    #[error("the points of an eye space must be connected")]
    NotConnected,
}

/// The cells (column, row) of each recognised shape of three to six points, in one of its
/// orientations (compared through [`canonical`]).
fn table() -> [(EyeShape, &'static [(u8, u8)]); 10] {
    [
        (EyeShape::StraightThree, &[(0, 0), (0, 1), (0, 2)]),
        (EyeShape::BentThree, &[(0, 0), (0, 1), (1, 0)]),
        (EyeShape::SquareFour, &[(0, 0), (0, 1), (1, 0), (1, 1)]),
        (EyeShape::PyramidFour, &[(0, 0), (0, 1), (0, 2), (1, 1)]),
        (EyeShape::StraightFour, &[(0, 0), (0, 1), (0, 2), (0, 3)]),
        (EyeShape::BentFour, &[(0, 0), (0, 1), (0, 2), (1, 0)]),
        (EyeShape::ZigzagFour, &[(0, 0), (0, 1), (1, 1), (1, 2)]),
        (
            EyeShape::BulkyFive,
            &[(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)],
        ),
        (
            EyeShape::CrossFive,
            &[(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)],
        ),
        (
            EyeShape::RabbitySix,
            &[(0, 1), (1, 0), (1, 1), (1, 2), (2, 1), (2, 2)],
        ),
    ]
}

/// The least image of `cells` under the eight symmetries, moved to the origin and sorted.
fn canonical(cells: &[(i32, i32)]) -> Vec<(u8, u8)> {
    let mut best: Option<Vec<(u8, u8)>> = None;
    for s in 0..8u8 {
        let image: Vec<(i32, i32)> = cells
            .iter()
            .map(|&(c, r)| {
                let (mut c, mut r) = if s & 1 != 0 { (r, c) } else { (c, r) };
                if s & 2 != 0 {
                    c = -c;
                }
                if s & 4 != 0 {
                    r = -r;
                }
                (c, r)
            })
            .collect();
        let c0 = image.iter().map(|p| p.0).min().unwrap_or(0);
        let r0 = image.iter().map(|p| p.1).min().unwrap_or(0);
        let mut moved: Vec<(u8, u8)> = image
            .iter()
            .map(|&(c, r)| {
                (
                    u8::try_from(c - c0).unwrap_or(u8::MAX),
                    u8::try_from(r - r0).unwrap_or(u8::MAX),
                )
            })
            .collect();
        moved.sort_unstable();
        if best.as_ref().is_none_or(|b| moved < *b) {
            best = Some(moved);
        }
    }
    best.unwrap_or_default()
}

fn adjacent(a: Point, b: Point) -> bool {
    a.col().abs_diff(b.col()) + a.row().abs_diff(b.row()) == 1
}

/// The shape and status of the eye space made of `points` (empty points enclosed by one side).
///
/// # Errors
/// [`EyeSpaceError`] when `points` is empty, repeats a point or is not connected.
pub fn eye_space(points: &[Point]) -> Result<EyeSpace, EyeSpaceError> {
    if points.is_empty() {
        return Err(EyeSpaceError::Empty);
    }
    let mut seen = vec![false; MAX_SIZE * MAX_SIZE];
    for p in points {
        let i = p.row() * MAX_SIZE + p.col();
        if seen[i] {
            return Err(EyeSpaceError::Repeated);
        }
        seen[i] = true;
    }
    // Connected: a flood from the first point reaches them all.
    let mut reached = vec![false; points.len()];
    reached[0] = true;
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        for (j, &q) in points.iter().enumerate() {
            if !reached[j] && adjacent(points[i], q) {
                reached[j] = true;
                stack.push(j);
            }
        }
    }
    if reached.iter().any(|&r| !r) {
        return Err(EyeSpaceError::NotConnected);
    }
    let degree = |p: Point| points.iter().filter(|&&q| adjacent(p, q)).count();
    // In each unsettled shape the vital point is the one point with the most neighbours in the
    // space: the middle of a three, the centre of the pyramid, the cross and the rabbity six,
    // the square's point beside the extra one in the bulky five.
    let vital = || {
        points
            .iter()
            .copied()
            .max_by_key(|&p| degree(p))
            .unwrap_or(points[0])
    };
    let shape = match points.len() {
        1 => EyeShape::One,
        2 => EyeShape::Two,
        n @ 3..=6 => {
            let cells: Vec<(i32, i32)> = points
                .iter()
                .map(|p| (p.col() as i32, p.row() as i32))
                .collect();
            let c = canonical(&cells);
            let int = |t: &[(u8, u8)]| -> Vec<(i32, i32)> {
                t.iter()
                    .map(|&(c, r)| (i32::from(c), i32::from(r)))
                    .collect()
            };
            table()
                .iter()
                .find(|(_, t)| canonical(&int(t)) == c)
                .map_or(EyeShape::Other(n), |&(s, _)| s)
        }
        n => EyeShape::Other(n),
    };
    let status = match shape {
        EyeShape::One | EyeShape::Two | EyeShape::SquareFour => EyeStatus::OneEye,
        EyeShape::StraightThree
        | EyeShape::BentThree
        | EyeShape::PyramidFour
        | EyeShape::BulkyFive
        | EyeShape::CrossFive
        | EyeShape::RabbitySix => EyeStatus::Unsettled { vital: vital() },
        EyeShape::StraightFour | EyeShape::BentFour | EyeShape::ZigzagFour | EyeShape::Other(_) => {
            EyeStatus::TwoEyes
        }
    };
    Ok(EyeSpace { shape, status })
}
