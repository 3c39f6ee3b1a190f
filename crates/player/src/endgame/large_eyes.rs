//! Large eye spaces: a group whose enclosed region is too large for the shape reader and the
//! bounded search (more than [`GroupLimits::region`] points), with many empty points and
//! only a few stones of the other side inside, is alive, and those stones are dead
//! ([`read_large_eye_spaces`]).
//!
//! Why this holds: the dead shapes of an eye space (the nakade) have six points at most (the
//! rabbity six), and a group whose region keeps [`EMPTY_AT_LEAST`] empty points or more,
//! against at most [`INSIDE_AT_MOST`] stones of the other side there, has the room for two
//! eyes whoever plays first, while those stones have no room to live: a living group of the
//! other side inside would need more stones than that (at the end of a game an invasion that
//! lives has been answered and played out, its stones and eye space standing). The guard for
//! the group's own strings: each borders the region with two liberties or more, so none is cut
//! off from it by one move. GNU Go's eye-space evaluation takes such a space as two eyes too.
//!
//! It is a reading of shape, not a proof, so it is used only where the playouts are unsure
//! (one of the strings it turns held by a quarter to three quarters of them), never against a
//! verdict read by another rule, and its verdicts are among those to check (`E`).
//! `aeb-pro/Ing/02/12`: White's `R16` inside Black's upper right corner of 24 empty points,
//! whose Black strings have no liberty elsewhere, held by about half of the playouts, so
//! that the winner rested on the seed's draw.

use ingo_rules::{Board, Color};

use super::{Decided, Grid, Status, StringStatus, CHECK_ABOVE, CHECK_BELOW};
use crate::tactics::GroupLimits;

/// The fewest empty points of a large eye space: more than the largest dead shape (six) with
/// the vital points that the stones inside could take.
pub(super) const EMPTY_AT_LEAST: usize = 10;

/// The most stones of the other side inside a large eye space.
pub(super) const INSIDE_AT_MOST: usize = 3;

/// The most points of a large eye space (its empty points and the stones inside): beyond it
/// the region is a side's whole territory or open board, not the eye space of one group.
pub(super) const POINTS_AT_MOST: usize = 40;

/// Marks alive the strings around each large eye space (module doc) and dead the stones of the
/// other side inside it, where the playouts are unsure of one of them and every string it
/// turns was decided by the playouts alone.
pub(super) fn read_large_eye_spaces(
    board: &Board,
    grid: &Grid,
    strings: &mut [StringStatus],
    string_of: &[usize],
) {
    let above = GroupLimits::default().region;
    let n = grid.len();
    for color in [Color::Black, Color::White] {
        let mut seen = vec![false; n];
        for start in 0..n {
            if seen[start] || board.color_at(grid.point(start)) == Some(color) {
                continue;
            }
            let region = region_from(board, grid, start, color, &mut seen);
            if !(above + 1..=POINTS_AT_MOST).contains(&region.points.len()) {
                continue;
            }
            let Some(turned) = turned_by(board, grid, strings, string_of, &region) else {
                continue;
            };
            for s in turned {
                if strings[s].color == color {
                    strings[s].status = Status::Alive;
                    strings[s].how = Decided::LargeEyeSpace;
                } else {
                    strings[s].status = Status::Dead;
                    strings[s].how = Decided::InLargeEyeSpace;
                }
            }
        }
    }
}

/// A connected set of points without a stone of one colour, bordered by that colour's strings.
struct Region {
    /// Its points (grid indices): empty points and the other side's stones.
    points: Vec<usize>,
    /// The stones of the colour next to it (grid indices, a stone once for each neighbour in
    /// the region); their strings are the group's.
    border: Vec<usize>,
}

/// The region of points without a stone of `color` that holds `start`, its points marked
/// `seen`.
fn region_from(
    board: &Board,
    grid: &Grid,
    start: usize,
    color: Color,
    seen: &mut [bool],
) -> Region {
    let mut points = vec![start];
    seen[start] = true;
    let mut border_points = Vec::new();
    let mut i = 0;
    while i < points.len() {
        let q = points[i];
        i += 1;
        for r in grid.neighbors(q) {
            if board.color_at(grid.point(r)) == Some(color) {
                border_points.push(r);
            } else if !seen[r] {
                seen[r] = true;
                points.push(r);
            }
        }
    }
    Region {
        points,
        border: border_points,
    }
}

/// The strings a large eye space turns (its own strings not alive, the stones inside not
/// dead), or `None` when `region` is not a large eye space (module doc), turns nothing, or
/// would turn a string not decided by the playouts alone, or none of them is unsure.
fn turned_by(
    board: &Board,
    grid: &Grid,
    strings: &[StringStatus],
    string_of: &[usize],
    region: &Region,
) -> Option<Vec<usize>> {
    let is_empty = |q: usize| board.color_at(grid.point(q)).is_none();
    let empty = region.points.iter().filter(|&&q| is_empty(q)).count();
    if empty < EMPTY_AT_LEAST || region.points.len() - empty > INSIDE_AT_MOST {
        return None;
    }
    let mut inside: Vec<usize> = region
        .points
        .iter()
        .filter(|&&q| !is_empty(q))
        .map(|&q| string_of[q])
        .collect();
    inside.sort_unstable();
    inside.dedup();
    let mut own: Vec<usize> = region.border.iter().map(|&q| string_of[q]).collect();
    own.sort_unstable();
    own.dedup();
    // An eye space is some group's: a region no string borders (an empty board with a few
    // stones on it) is nobody's.
    if own.is_empty() || inside.iter().any(|&s| strings[s].proved) {
        return None;
    }
    // Each string of the group borders the region with two liberties or more.
    let in_region = |q: usize| region.points.contains(&q);
    for &s in &own {
        let mut libs: Vec<usize> = Vec::new();
        for &stone in &strings[s].stones {
            for r in grid.neighbors(grid.index(stone)) {
                if is_empty(r) && in_region(r) && !libs.contains(&r) {
                    libs.push(r);
                }
            }
        }
        if libs.len() < 2 {
            return None;
        }
    }
    let turned: Vec<usize> = own
        .iter()
        .copied()
        .filter(|&s| !strings[s].proved && strings[s].status != Status::Alive)
        .chain(
            inside
                .iter()
                .copied()
                .filter(|&s| strings[s].status != Status::Dead),
        )
        .collect();
    let sampled = |s: usize| match strings[s].how {
        Decided::Sampled(held) => Some(held),
        _ => None,
    };
    let all_sampled = turned.iter().all(|&s| sampled(s).is_some());
    let unsure = turned
        .iter()
        .filter_map(|&s| sampled(s))
        .any(|held| (CHECK_BELOW..=CHECK_ABOVE).contains(&held));
    (!turned.is_empty() && all_sampled && unsure).then_some(turned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ingo_rules::Point;

    /// Black's wall `E9` … `J5` around 16 points of the upper right, White's stones inside
    /// (`H7`, and the `extra` ones), White's wall outside.
    fn board(extra: &[&str]) -> Board {
        with_black(extra, &[])
    }

    /// [`board`] with Black's stones `black` too.
    fn with_black(extra: &[&str], black: &[&str]) -> Board {
        let mut rows: Vec<Vec<char>> = "
            . . . O X . . . .
            . . . O X . . . .
            . . . O X . . O .
            . . . O X . . . .
            . . . O X X X X X
            . . . O O O O O O
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . ."
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                l.split_whitespace()
                    .map(|c| c.chars().next().unwrap_or('.'))
                    .collect()
            })
            .collect();
        for (names, stone) in [(extra, 'O'), (black, 'X')] {
            for name in names {
                let p = Point::from_gtp(name, 9, 9).expect("a point");
                rows[p.row()][p.col()] = stone;
            }
        }
        let text: Vec<String> = rows
            .iter()
            .map(|r| r.iter().map(char::to_string).collect::<Vec<_>>().join(" "))
            .collect();
        Board::from_ascii(&text.join("\n")).expect("a diagram")
    }

    /// The strings of `board` as the playouts might leave them: Black's wall dead and White's
    /// stones inside alive at `held` (Black's share `1 - held`), White's wall alive and sure;
    /// and the string of each point. (Built here, from the board's strings, rather than by
    /// the judgement's own `strings_of`, which this module does not call.)
    fn judged(board: &Board, held: f64) -> (Vec<StringStatus>, Vec<usize>) {
        let grid = Grid::new(board);
        let mut string_of = vec![usize::MAX; grid.len()];
        let mut strings = Vec::new();
        for i in 0..grid.len() {
            let Some(color) = board.color_at(grid.point(i)) else {
                continue;
            };
            if string_of[i] != usize::MAX {
                continue;
            }
            let mut stones = board.string_stones(grid.point(i));
            stones.sort();
            for &p in &stones {
                string_of[grid.index(p)] = strings.len();
            }
            let inside = color == Color::White && grid.point(i).col() >= 5 && stones.len() < 4;
            let share = match color {
                Color::Black => 1.0 - held,
                Color::White if inside => held,
                Color::White => 0.95,
            };
            strings.push(StringStatus {
                color,
                stones,
                status: if share < 0.5 {
                    Status::Dead
                } else {
                    Status::Alive
                },
                proved: false,
                held: share,
                how: Decided::Sampled(share),
            });
        }
        (strings, string_of)
    }

    fn read(board: &Board, strings: &mut [StringStatus], string_of: &[usize]) {
        read_large_eye_spaces(board, &Grid::new(board), strings, string_of);
    }

    fn at<'a>(strings: &'a [StringStatus], name: &str) -> &'a StringStatus {
        let p = Point::from_gtp(name, 9, 9).expect("a point");
        strings
            .iter()
            .find(|s| s.stones.contains(&p))
            .expect("a string there")
    }

    /// One White stone among 15 empty points of Black's region: where the playouts are unsure
    /// (Black's wall held 45%), the wall is alive and the stone dead, each marked as read so.
    #[test]
    fn a_few_stones_inside_a_large_eye_space_are_dead_and_the_group_alive() {
        let b = board(&[]);
        let (mut strings, string_of) = judged(&b, 0.55);
        read(&b, &mut strings, &string_of);
        let wall = at(&strings, "E9");
        assert_eq!(
            (wall.status, wall.how),
            (Status::Alive, Decided::LargeEyeSpace)
        );
        let h7 = at(&strings, "H7");
        assert_eq!(
            (h7.status, h7.how),
            (Status::Dead, Decided::InLargeEyeSpace)
        );
        // White's wall is left as it was.
        assert_eq!(at(&strings, "D9").how, Decided::Sampled(0.95));
        // Three stones inside are still few.
        let b = board(&["G8", "H9"]);
        let (mut strings, string_of) = judged(&b, 0.55);
        read(&b, &mut strings, &string_of);
        assert_eq!(at(&strings, "E9").how, Decided::LargeEyeSpace);
        assert_eq!(at(&strings, "G8").status, Status::Dead);
    }

    /// Nothing is turned where the rule does not hold or is not needed: four stones inside,
    /// playouts that are sure (the wall held 10%), a verdict read by another rule, a string of
    /// the group with one liberty in the region (Black's `J9` beside White's `H9`), a region no
    /// string borders (a lone stone on an empty board), a region of no more points than the
    /// shape reader reads (12).
    #[test]
    fn nothing_is_turned_outside_a_large_eye_space_or_against_a_sure_verdict() {
        let unchanged = |b: &Board, strings: &mut Vec<StringStatus>, string_of: &[usize]| {
            let before = strings.clone();
            read(b, strings, string_of);
            assert_eq!(*strings, before);
        };
        let four = board(&["G8", "H9", "J6"]);
        let (mut strings, string_of) = judged(&four, 0.55);
        unchanged(&four, &mut strings, &string_of);
        let b = board(&[]);
        let (mut strings, string_of) = judged(&b, 0.9);
        unchanged(&b, &mut strings, &string_of);
        let (mut strings, string_of) = judged(&b, 0.55);
        let wall = string_of[Grid::new(&b).index(Point::from_gtp("E9", 9, 9).expect("E9"))];
        strings[wall].how = Decided::LostRace;
        unchanged(&b, &mut strings, &string_of);
        let cut = with_black(&["H9"], &["J9"]);
        let (mut strings, string_of) = judged(&cut, 0.55);
        unchanged(&cut, &mut strings, &string_of);
        // A board with one White stone and no Black one: nobody's eye space.
        let lone = Board::from_ascii(". . . . .\n. . . . .\n. . O . .\n. . . . .\n. . . . .")
            .expect("a diagram");
        let (mut strings, string_of) = judged(&lone, 0.55);
        strings[0].how = Decided::Sampled(0.55);
        unchanged(&lone, &mut strings, &string_of);
        // The wall one column further right: 12 points inside.
        let small = Board::from_ascii(
            "
            . . . . O X . . .
            . . . . O X . . .
            . . . . O X . O .
            . . . . O X . . .
            . . . . O X X X X
            . . . . O O O O O
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        )
        .expect("a diagram");
        let (mut strings, string_of) = judged(&small, 0.55);
        unchanged(&small, &mut strings, &string_of);
    }
}
