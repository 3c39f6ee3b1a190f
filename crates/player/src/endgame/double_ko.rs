//! The double-ko seki (雙劫循環的雙活), proved from its shape: two strings of opposite colours,
//! each with one eye of its own and one ko, where the stone each side can take in the other's
//! ko touches the taker's own string. Random play cannot judge it: whoever takes a ko first in
//! a playout captures about half of the time, so the playouts hold both strings about half of
//! the time. The shape itself settles it.
//!
//! The argument, for Black's string `S` (eye `e`, ko point `k`, the Black stone `t` whose only
//! liberty is `k`) and White's string `U` (eye `f`, ko point `l`, White's stone `u` whose only
//! liberty is `l`), with `t` touching `U` and `u` touching `S`:
//!
//! * `S` has no liberty but `e` and `k`, and `e` is surrounded by `S` alone, so White can
//!   capture `S` only by taking the ko at `k` (capturing `t`) and then playing `e`.
//! * White's take at `k` leaves `S` in atari at `e`, and frees `t`'s point, which touches `U`:
//!   `U` now has three liberties. Black answers at once by taking the other ko at `l`
//!   (capturing `u`, another ko: no ko threat is needed), which frees `u`'s point next to `S`,
//!   so `S` is back to two liberties, and `U` to two: the same shape, mirrored.
//! * White retaking at `u`'s point and Black at `t`'s point returns the first position: a cycle
//!   in which each side captures twice ("同型反覆"), which the rules end after one round
//!   ("除窮任擇": disturbing beyond one cycle is not allowed), the strings still standing. The
//!   same holds with the colours exchanged.
//!
//! The same holds when the two strings share their other liberty instead of having an eye each
//! (the rules' test position T7, "衡劫"): filling the shared point puts the filler's own string
//! in atari with the other side to take it, so neither fills it, and the kos go as above.
//!
//! Neither string can be captured and neither side gains by starting, so the two strings and
//! the two ko stones stand, in seki. Every empty point of the shape touches one colour only
//! (`e` and `k` Black's, `f` and `l` White's), so it is counted by adjacency and nothing is
//! shared (in the T7 form, the shared liberty is shared). The shape must be exact: any other liberty, a ko stone of two stones, or a ko stone
//! that does not touch the other string, and it is not this proof.

use ingo_rules::{Board, Color, Point};

use super::Grid;

/// The half of a double-ko seki that belongs to one string: the string (by its head), its ko
/// stone, the heads of the other colour's strings the ko stone touches, and the string's other
/// liberty.
struct Half {
    head: Point,
    color: Color,
    ko_stone: Point,
    touches: Vec<Point>,
    /// The string's liberty besides the ko point.
    other: Point,
    /// That liberty is an eye of the string alone (else it must be the liberty the two
    /// strings share).
    eye: bool,
}

/// The half of a double-ko seki of the string whose head is `p`, if it has one: exactly two
/// liberties, a ko point whose ko stone is a single stone of the string's colour in atari
/// there, and an eye of its own or a liberty shared with the other string.
fn half(board: &Board, p: Point) -> Option<Half> {
    let color = board.color_at(p)?;
    if board.string_head(p) != Some(p) {
        return None;
    }
    let libs = board.liberties_upto(p, 3);
    let [a, b] = libs.as_slice() else {
        return None;
    };
    // Every neighbour of the ko point is the string's, or one single stone of its colour whose
    // only liberty is the ko point.
    let ko_stone_at = |ko: Point| -> Option<Point> {
        let mut stone = None;
        for q in board.neighbors(ko) {
            if board.string_head(q) == Some(p) {
                continue;
            }
            if board.color_at(q) != Some(color)
                || board.string_size(q) != 1
                || board.atari_liberty(q) != Some(ko)
                || stone.replace(q).is_some()
            {
                return None;
            }
        }
        stone
    };
    let (ko_stone, other) = match (ko_stone_at(*a), ko_stone_at(*b)) {
        (Some(t), None) => (t, *b),
        (None, Some(t)) => (t, *a),
        _ => return None,
    };
    Some(Half {
        head: p,
        color,
        ko_stone,
        touches: board
            .neighbors(ko_stone)
            .filter(|&q| board.color_at(q) == Some(color.opponent()))
            .filter_map(|q| board.string_head(q))
            .collect(),
        other,
        eye: board
            .neighbors(other)
            .all(|q| board.string_head(q) == Some(p)),
    })
}

/// Which points hold a stone of a double-ko seki (both strings and both ko stones).
pub(crate) fn double_ko_seki(board: &Board, grid: &Grid) -> Vec<bool> {
    let halves: Vec<Half> = (0..grid.len())
        .filter_map(|i| half(board, grid.point(i)))
        .collect();
    let mut out = vec![false; grid.len()];
    for h in &halves {
        // The other half: a string of the other colour that this ko stone touches, whose own ko
        // stone touches this string.
        let pair = halves.iter().find(|o| {
            o.color != h.color
                && h.touches.contains(&o.head)
                && o.touches.contains(&h.head)
                && (h.eye || h.other == o.other)
                && (o.eye || h.other == o.other)
        });
        if let Some(o) = pair {
            for p in [h.head, h.ko_stone, o.head, o.ko_stone] {
                for s in board.string_stones(p) {
                    out[grid.index(s)] = true;
                }
            }
        }
    }
    out
}

/// The points of a double-ko seki on `board`, as points (for tests and diagnostics).
#[cfg(test)]
pub(crate) fn double_ko_seki_points(board: &Board) -> Vec<Point> {
    let grid = Grid::new(board);
    double_ko_seki(board, &grid)
        .iter()
        .enumerate()
        .filter(|(_, &b)| b)
        .map(|(i, _)| grid.point(i))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::double_ko_seki_points;
    use ingo_rules::{Board, Point};

    /// The double-ko seki of the tests of the judgement (13×13, `endgame_positions.rs`), top
    /// rows only and seen in a mirror: Black's string with the eye N7 and the ko K7 (its stone
    /// J7), White's with the eye E7 and the ko J5 (its stone K5). Every test here also runs it
    /// in its 15 other variants ([`variants`]).
    const SHAPE: &str = "
        . . X O . O O O X . X X .
        . . X O O O O O O X X X X
        . . X O O O O O . O X X X
        . . X O O O O O O X X X X
        . . X X X X X X X O O O O
        . . . . . . . . X O . . .
        . . . . . . . . X O . . .";

    fn names(board: &Board, v: &[Point]) -> String {
        v.iter()
            .map(|p| p.to_gtp(board.height()))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn found(ascii: &str) -> (Board, Vec<Point>) {
        let board = Board::from_ascii(ascii).expect("board");
        let v = double_ko_seki_points(&board);
        (board, v)
    }

    /// One of the 16 variants of a diagram: a symmetry of the square (bit 0 mirrors the
    /// columns, bit 1 the rows, bit 2 transposes, after the mirrors; the eight together are the
    /// dihedral group, and a rectangle turns with them), and the colours swapped or not.
    #[derive(Clone, Copy, Debug)]
    struct Variant {
        symmetry: u8,
        swap: bool,
    }

    fn variants() -> impl Iterator<Item = Variant> {
        (0..8u8).flat_map(|symmetry| [false, true].map(|swap| Variant { symmetry, swap }))
    }

    impl Variant {
        /// Where the point at column `c`, row `r` of a `w`×`h` diagram goes.
        fn map(self, c: usize, r: usize, w: usize, h: usize) -> (usize, usize) {
            let c = if self.symmetry & 1 != 0 { w - 1 - c } else { c };
            let r = if self.symmetry & 2 != 0 { h - 1 - r } else { r };
            if self.symmetry & 4 != 0 {
                (r, c)
            } else {
                (c, r)
            }
        }

        /// The diagram `ascii` (rows from the top, as `Board::from_ascii` reads them) in this
        /// variant.
        fn diagram(self, ascii: &str) -> String {
            let rows: Vec<Vec<char>> = ascii
                .lines()
                .map(|l| {
                    l.split_whitespace()
                        .map(|t| t.chars().next().unwrap_or('.'))
                        .collect()
                })
                .filter(|r: &Vec<char>| !r.is_empty())
                .collect();
            let (h, w) = (rows.len(), rows[0].len());
            let (nw, nh) = if self.symmetry & 4 != 0 {
                (h, w)
            } else {
                (w, h)
            };
            let mut out = vec![vec!['.'; nw]; nh];
            for (r, row) in rows.iter().enumerate() {
                for (c, &ch) in row.iter().enumerate() {
                    let ch = match (ch, self.swap) {
                        ('X', true) => 'O',
                        ('O', true) => 'X',
                        (ch, _) => ch,
                    };
                    let (nc, nr) = self.map(c, r, w, h);
                    out[nr][nc] = ch;
                }
            }
            out.iter()
                .map(|r| {
                    r.iter()
                        .map(|c| c.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect::<Vec<_>>()
                .join("\n")
        }

        /// The point `p` of a `board` in this variant.
        fn point(self, p: Point, board: &Board) -> Point {
            let (c, r) = self.map(p.col(), p.row(), board.width(), board.height());
            Point::new(c, r).expect("a point of the turned board")
        }
    }

    /// The points found in `ascii` are found, moved, in each of its 16 variants; returns how
    /// many there are.
    fn found_in_every_variant(ascii: &str) -> usize {
        let (board, v) = found(ascii);
        for variant in variants() {
            let (turned, got) = found(&variant.diagram(ascii));
            let mut want: Vec<Point> = v.iter().map(|&p| variant.point(p, &board)).collect();
            want.sort();
            let mut got = got;
            got.sort();
            assert_eq!(
                names(&turned, &got),
                names(&turned, &want),
                "{variant:?}\n{}",
                turned.to_ascii()
            );
        }
        v.len()
    }

    #[test]
    fn both_strings_and_both_ko_stones_are_found() {
        let (board, v) = found(SHAPE);
        let text = names(&board, &v);
        for p in ["M7", "J7", "K5", "H7", "D7", "D4", "J4"] {
            assert!(text.split(' ').any(|n| n == p), "{p} missing: {text}");
        }
        // 13 Black stones of the inner string and its ko stone, 21 White and its ko stone.
        assert_eq!(v.len(), 13 + 1 + 21 + 1, "{text}");
        // The outer walls are not part of it.
        assert!(!text.split(' ').any(|n| n == "N3" || n == "C7"), "{text}");
        // Whichever way it faces, and with the colours exchanged: the same stones, moved.
        assert_eq!(found_in_every_variant(SHAPE), 36);
    }

    /// The rules' test position T7 (衡劫): the two strings share the liberty B3 instead of
    /// having an eye each; White's ko stone B5 (point C5), Black's C1 (point B1).
    #[test]
    fn the_two_strings_may_share_their_other_liberty() {
        let (board, v) = found(
            "
            X O . O
            X X O O
            X . O O
            X X O O
            X . X O",
        );
        assert_eq!(v.len(), 17, "{}", names(&board, &v));
        assert_eq!(
            found_in_every_variant(
                "
            X O . O
            X X O O
            X . O O
            X X O O
            X . X O",
            ),
            17
        );
        // Black fills the shared point B3: the shape is gone (Black's string has one liberty).
        assert_eq!(
            found_in_every_variant(
                "
            X O . O
            X X O O
            X X O O
            X X O O
            X . X O",
            ),
            0
        );
    }

    #[test]
    fn the_shape_must_be_exact() {
        // Each near miss is no double ko in any of its 16 variants either.
        let none = |ascii: &str| assert_eq!(found_in_every_variant(ascii), 0, "{ascii}");
        // White's eye E7 filled by a Black stone: White's string has one liberty of its own
        // only (and the Black stone is in atari): no double ko.
        none(&SHAPE.replacen(". . X O . O", ". . X O X O", 1));
        // J6 Black instead of White: the stone J7 joins Black's string, and K7 is no ko.
        none(&SHAPE.replacen(". . X O O O O O O X X X X", ". . X O O O O O X X X X X", 1));
        // A third liberty for Black's string (L6 empty).
        none(&SHAPE.replacen(". . X O O O O O O X X X X", ". . X O O O O O O X . X X", 1));
        // The rules' T9, double-ko death (虛劫): Black has a real eye (A3) and a ko, White
        // only the ko and no liberty of its own; not a seki.
        none(
            "
            X O . O
            X X O O
            . X O O
            X X O O
            X . X O",
        );
        // A board with no ko at all.
        none(
            "
            . X O .
            X X O O
            O O . .
            . . . .",
        );
    }
}
