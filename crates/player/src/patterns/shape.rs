//! Shapes around a point: the 3×3 block with the liberties of its stones, and the larger
//! diamonds (every point within Manhattan distance 2 or 3), each reduced to one key that is the
//! same under the 8 symmetries of the square and under the exchange of colours (the key is read
//! from the side of the player to move: "own" and "opponent" stones, not Black and White).

use ingo_rules::{Board, Cell, Color, Point, SplitMix64};

/// The state of one cell of a 3×3 shape (3 bits): empty, off the board, or a stone of the
/// player to move or of the opponent, with its string's liberties (1, 2, or 3 or more).
#[inline]
fn cell3(board: &Board, p: Point, to_play: Color, libs: &mut impl FnMut(Point) -> u8) -> u32 {
    match board.get(p) {
        Cell::Empty => 0,
        Cell::Edge => 1,
        cell => {
            let l = u32::from(libs(p).clamp(1, 3)) - 1;
            if cell.color() == Some(to_play) {
                2 + l
            } else {
                5 + l
            }
        }
    }
}

/// The point `(dx, dy)` away from `p`, or `None` off the board (negative or past the last column
/// a point can name; [`Board::get`] says [`Cell::Edge`] for the rest).
#[inline]
fn offset(p: Point, dx: i32, dy: i32) -> Option<Point> {
    let c = p.col() as i32 + dx;
    let r = p.row() as i32 + dy;
    if c < 0 || r < 0 {
        return None;
    }
    Point::new(c as usize, r as usize)
}

#[inline]
fn cell_at(board: &Board, p: Point, dx: i32, dy: i32) -> Option<Point> {
    offset(p, dx, dy).filter(|&q| board.contains(q))
}

/// The 8 neighbours of a 3×3 shape, in the order of the key's 3-bit fields (row by row, top
/// left first).
const NEIGH8: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The image of `(x, y)` under symmetry `t` (0..8): bit 2 swaps the axes, bit 0 mirrors x, bit 1
/// mirrors y.
const fn transform(t: usize, x: i32, y: i32) -> (i32, i32) {
    let (a, b) = if t & 4 != 0 { (y, x) } else { (x, y) };
    let a = if t & 1 != 0 { -a } else { a };
    let b = if t & 2 != 0 { -b } else { b };
    (a, b)
}

const fn find8(x: i32, y: i32) -> usize {
    let mut i = 0;
    while i < 8 {
        if NEIGH8[i].0 == x && NEIGH8[i].1 == y {
            return i;
        }
        i += 1;
    }
    usize::MAX
}

/// `PERM3[t][s]`: the field that neighbour `s` moves to under symmetry `t`.
const PERM3: [[usize; 8]; 8] = {
    let mut out = [[0; 8]; 8];
    let mut t = 0;
    while t < 8 {
        let mut s = 0;
        while s < 8 {
            let (x, y) = transform(t, NEIGH8[s].0, NEIGH8[s].1);
            out[t][s] = find8(x, y);
            s += 1;
        }
        t += 1;
    }
    out
};

/// The 3×3 shape around a point, as a key.
///
/// Each of the 8 neighbours is one of: empty, off the board, a stone of the player to move or
/// of the opponent whose string has 1, 2, or 3 or more liberties (3 bits each, 24 bits in
/// all). The key is the least of the 8 codes the symmetries of the square give, so that the
/// rotations and reflections of a shape have one key; and since stones are "own" or
/// "opponent" from the side of `to_play`, a shape with the colours exchanged and the other
/// player to move has the same key too.
///
/// ```
/// use ingo_player::patterns::Shape3x3;
/// use ingo_rules::{Board, Color, Point};
///
/// let board = Board::from_ascii("
///   . X .
///   . . O
///   . . .").unwrap();
/// let mirrored = Board::from_ascii("
///   . O .
///   X . .
///   . . .").unwrap();
/// let centre = Point::new(1, 1).unwrap();
/// // Mirrored left to right, with the colours exchanged and the other side to move.
/// assert_eq!(
///     Shape3x3::at(&board, centre, Color::Black),
///     Shape3x3::at(&mirrored, centre, Color::White),
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape3x3;

impl Shape3x3 {
    /// The key of the 3×3 shape around `p` (any point of the board, usually an empty one) for
    /// `to_play` to move; liberties are counted on the board (up to 3).
    pub fn at(board: &Board, p: Point, to_play: Color) -> u32 {
        Shape3x3::with_liberties(board, p, to_play, |q| {
            board.liberties_upto(q, 3).len().min(3) as u8
        })
    }

    /// [`Shape3x3::at`] with the liberties of the string on a point given by `libs` (which the
    /// caller may cache per string; only its value clamped to 1..=3 matters).
    pub fn with_liberties(
        board: &Board,
        p: Point,
        to_play: Color,
        mut libs: impl FnMut(Point) -> u8,
    ) -> u32 {
        let mut fields = [0u32; 8];
        for (s, &(dx, dy)) in NEIGH8.iter().enumerate() {
            fields[s] = match cell_at(board, p, dx, dy) {
                Some(q) => cell3(board, q, to_play, &mut libs),
                None => 1,
            };
        }
        Shape3x3::canonical(&fields)
    }

    /// The key of 8 fields (3 bits each, in [`NEIGH8`] order): the least code over the
    /// symmetries.
    fn canonical(fields: &[u32; 8]) -> u32 {
        let mut best = u32::MAX;
        for perm in &PERM3 {
            let mut code = 0;
            for (s, &f) in fields.iter().enumerate() {
                code |= f << (3 * perm[s]);
            }
            best = best.min(code);
        }
        best
    }

    /// The shape of a key, as text: 3 rows of 3 cells around the centre `*`: `.` empty, `#`
    /// off the board, `X` a stone of the player to move and `O` an opponent's, each followed by
    /// its liberties (1, 2, or 3 for 3 or more). For reading weights files.
    pub fn describe(key: u32) -> String {
        let mut out = String::new();
        for y in -1..=1 {
            for x in -1..=1 {
                let s = find8(x, y);
                let text = if s == usize::MAX {
                    " * ".to_string()
                } else {
                    match (key >> (3 * s)) & 7 {
                        0 => " . ".to_string(),
                        1 => " # ".to_string(),
                        f @ 2..=4 => format!("X{} ", f - 1),
                        f => format!("O{} ", f - 4),
                    }
                };
                out.push_str(&text);
            }
            out.push('\n');
        }
        out
    }
}

/// The points of the diamonds: Manhattan distance 1 to 3 from the centre, nearest first (the 12
/// of radius 2 come first).
const DIAMOND: [(i32, i32); 24] = {
    let mut out = [(0, 0); 24];
    let mut n = 0;
    let mut d = 1;
    while d <= 3 {
        let mut y = -3;
        while y <= 3 {
            let mut x = -3;
            while x <= 3 {
                let ax = if x < 0 { -x } else { x };
                let ay = if y < 0 { -y } else { y };
                if ax + ay == d {
                    out[n] = (x, y);
                    n += 1;
                }
                x += 1;
            }
            y += 1;
        }
        d += 1;
    }
    out
};

/// The diamond of radius 2: its first 12 points.
const RADIUS2: usize = 12;

const fn find_d(x: i32, y: i32) -> usize {
    let mut i = 0;
    while i < 24 {
        if DIAMOND[i].0 == x && DIAMOND[i].1 == y {
            return i;
        }
        i += 1;
    }
    usize::MAX
}

/// `PERMD[t][s]`: the diamond point that point `s` moves to under symmetry `t`.
const PERMD: [[usize; 24]; 8] = {
    let mut out = [[0; 24]; 8];
    let mut t = 0;
    while t < 8 {
        let mut s = 0;
        while s < 24 {
            let (x, y) = transform(t, DIAMOND[s].0, DIAMOND[s].1);
            out[t][s] = find_d(x, y);
            s += 1;
        }
        t += 1;
    }
    out
};

/// Zobrist keys of (diamond point, state), from a fixed seed so that the hashes written in a
/// weights file stay valid from build to build.
const ZOBRIST: [[u64; 4]; 24] = {
    let mut out = [[0; 4]; 24];
    let mut rng = SplitMix64::new(0x1960_D1A3_0A5E_5EED);
    let mut s = 0;
    while s < 24 {
        let mut k = 0;
        while k < 4 {
            out[s][k] = rng.next_u64();
            k += 1;
        }
        s += 1;
    }
    out
};

/// The hashes of the two diamonds around a point: every point within Manhattan distance 2
/// (`radius2`, 12 points) or 3 (`radius3`, 24 points) of it, each empty, off the board, or a
/// stone of the player to move or of the opponent (liberties are not counted). Each is the
/// least of the 64-bit Zobrist hashes of the 8 symmetric images, so it is the same for
/// rotations, reflections and (being read from the side of the player to move) the exchange of
/// colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Diamonds {
    /// The hash of the diamond of radius 2.
    pub radius2: u64,
    /// The hash of the diamond of radius 3.
    pub radius3: u64,
}

impl Diamonds {
    /// The diamonds around `p` for `to_play` to move.
    pub fn at(board: &Board, p: Point, to_play: Color) -> Diamonds {
        let mut states = [0usize; 24];
        for (s, &(dx, dy)) in DIAMOND.iter().enumerate() {
            states[s] = match cell_at(board, p, dx, dy).map(|q| board.get(q)) {
                Some(Cell::Empty) => 0,
                None | Some(Cell::Edge) => 3,
                Some(c) if c.color() == Some(to_play) => 1,
                Some(_) => 2,
            };
        }
        let mut best2 = u64::MAX;
        let mut best3 = u64::MAX;
        for perm in &PERMD {
            let mut h = 0u64;
            for (s, &st) in states.iter().enumerate().take(RADIUS2) {
                h ^= ZOBRIST[perm[s]][st];
            }
            best2 = best2.min(h);
            for (s, &st) in states.iter().enumerate().skip(RADIUS2) {
                h ^= ZOBRIST[perm[s]][st];
            }
            best3 = best3.min(h);
        }
        Diamonds {
            radius2: best2,
            radius3: best3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_symmetries_permute_the_fields() {
        for perm in &PERM3 {
            let mut seen = [false; 8];
            for &s in perm {
                assert!(s < 8);
                seen[s] = true;
            }
            assert!(seen.iter().all(|&x| x));
        }
        for perm in &PERMD {
            let mut seen = [false; 24];
            for (s, &t) in perm.iter().enumerate() {
                assert!(t < 24);
                // A symmetry keeps the distance from the centre, so radius 2 maps to itself.
                assert_eq!(s < RADIUS2, t < RADIUS2);
                seen[t] = true;
            }
            assert!(seen.iter().all(|&x| x));
        }
        // The identity is symmetry 0.
        assert_eq!(PERM3[0], [0, 1, 2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn describe_shows_the_cells() {
        let board = Board::from_ascii(
            "
            . . .
            X . O
            . . .",
        )
        .expect("diagram");
        let p = Point::new(1, 0).expect("point");
        let text = Shape3x3::describe(Shape3x3::at(&board, p, Color::Black));
        assert_eq!(text.matches('#').count(), 3, "{text}");
        assert!(text.contains("X3") && text.contains("O3"), "{text}");
    }
}
