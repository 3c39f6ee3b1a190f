//! Counting (docs/rules.md §5): "子空皆地": stones and spaces are both area; shared points (分空) are split;
//! the fill-in breakdown (填滿計點) a referee reads off the board.

use std::fmt;

use crate::board::Board;
use crate::color::{ByColor, Color};
use crate::point::Point;
use crate::rules::{fmt_halves, Komi};

/// Who a point counts for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    /// A Black stone or a space that counts for Black.
    Black,
    /// A White stone or a space that counts for White.
    White,
    /// A shared point (分空): "雙方各填其半", so it counts for neither side's margin.
    Shared,
}

/// The fill-in breakdown of a count (填滿計點): each side fills its own area, and half of the
/// shared points ("雙方各填其半"; a single shared point stays empty: "僅有唯一分空時，雙方不得填子"),
/// from a supply of `(N²−1)/2` stones; the side with spaces left over is ahead (勝空), the other
/// has stones left over (負子). Compensation stones (還子: komi at 2 points a stone, "每子二點")
/// and penalty stones (罰子) then go into the area of the side that owes them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FillIn {
    /// Stones each side has to fill with: `(points − 1) / 2` (180 on 19×19; half the points on
    /// an even board).
    pub supply: usize,
    /// The point left over when the board has an odd number of points (`points − 2·supply`).
    pub odd_point: usize,
    /// Shared points each side fills: half of them, rounded down.
    pub shared_filled: usize,
    /// Stones each side places: `min(area + shared_filled, supply)`.
    pub filled: ByColor<usize>,
    /// Spaces each side has left after filling (勝空 before the exchanges).
    pub spaces_left: ByColor<usize>,
    /// Stones each side has left after filling (負子 before the exchanges).
    pub stones_left: ByColor<usize>,
    /// Compensation stones White receives: komi / 2 (4 stones for komi 8).
    pub compensation_stones: f64,
    /// Penalty stones each side owes: its penalty points / 2.
    pub penalty_stones: ByColor<f64>,
    /// Black's net after the exchanges, in stones: positive = spaces left (勝空), negative =
    /// stones left (負子).
    pub black_net: f64,
    /// White's net after the exchanges, in stones, as for Black. The two nets add up to the
    /// board's odd point minus an odd shared point left empty (−1, 0 or 1).
    pub white_net: f64,
}

impl FillIn {
    /// The margin the fill-in gives, in points: Black's net minus White's net, each space or
    /// stone counting one. It equals [`Score::margin`].
    pub fn margin(&self) -> f64 {
        self.black_net - self.white_net
    }
}

/// The count of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    /// Board width and height.
    pub size: (usize, usize),
    /// Stones on the board after removing the dead ones.
    pub stones: ByColor<usize>,
    /// Spaces (empty points) counting for each side.
    pub spaces: ByColor<usize>,
    /// Area: stones plus spaces.
    pub area: ByColor<usize>,
    /// Shared points (分空).
    pub shared: usize,
    /// The dead stones taken off before counting.
    pub dead: Vec<Point>,
    /// Komi.
    pub komi: Komi,
    /// Time-penalty points of each side.
    pub penalties: ByColor<i32>,
    /// `area_B − area_W − komi − pen_B + pen_W`, in half points.
    pub margin_halves: i32,
    /// The winner (a margin of 0 goes to the tie winner of the rules).
    pub winner: Color,
    /// Who each point counts for, row by row from the top left.
    pub owners: Vec<Owner>,
    /// The fill-in breakdown.
    pub fill_in: FillIn,
}

impl Score {
    /// The margin in points (positive: Black ahead).
    pub fn margin(&self) -> f64 {
        self.margin_halves as f64 / 2.0
    }

    /// The result as SGF writes it, from the winner's side: `B+7`, `W+0.5`, `B+0` (a tie Black
    /// wins).
    pub fn result_string(&self) -> String {
        struct H(i32);
        impl fmt::Display for H {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt_halves(self.0, f)
            }
        }
        format!("{}+{}", self.winner.letter(), H(self.margin_halves.abs()))
    }
}

/// The count of a position with every stone alive, without the per-point map and fill-in of a
/// [`Score`]: what a playout needs at its end ([`tally`], [`Game::tally`](crate::Game::tally)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Stones on the board.
    pub stones: ByColor<usize>,
    /// Spaces counting for each side.
    pub spaces: ByColor<usize>,
    /// Area: stones plus spaces.
    pub area: ByColor<usize>,
    /// Shared points (分空).
    pub shared: usize,
    /// `area_B − area_W − komi − pen_B + pen_W`, in half points.
    pub margin_halves: i32,
    /// The winner (a margin of 0 goes to `tie_winner`).
    pub winner: Color,
}

/// The largest number of time-penalty points (罰點) a reader accepts for one side. Ing's
/// overtime gives 2 points a period and at most three periods; a value past this bound is not a
/// penalty but a corrupt record. It keeps every count far inside `i32` half points.
pub const MAX_PENALTY_POINTS: i32 = 10_000;

/// The margin in half points and the winner, from the areas ("子空皆地").
fn margin_and_winner(
    area: ByColor<usize>,
    komi: Komi,
    penalties: ByColor<i32>,
    tie_winner: Color,
) -> (i32, Color) {
    // In i64: penalty points and komi come from outside (an SGF `BP`, a referee's clock) and
    // doubled in i32 they can overflow, which would give the game to the wrong side. The winner
    // is decided on the exact value; the margin saturates only far beyond any real count (the
    // readers bound penalties by `MAX_PENALTY_POINTS`).
    let exact = 2 * (area.black as i64 - area.white as i64)
        - i64::from(komi.halves())
        - 2 * i64::from(penalties.black)
        + 2 * i64::from(penalties.white);
    let winner = match exact {
        m if m > 0 => Color::Black,
        m if m < 0 => Color::White,
        _ => tie_winner,
    };
    let margin_halves = exact.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    (margin_halves, winner)
}

/// Counts `board` with every stone alive: the same areas, shared points, margin and winner as
/// [`score`] with no dead stones, found on the board's own arrays without allocating.
///
/// Most empty points at the end of a playout are single-point eyes: a point whose neighbours are
/// all stones of one colour counts for it at once; only the rest are flood-filled by region,
/// with the same split as [`owners`] ("空屬鄰子") for regions bordered by both colours.
pub fn tally(board: &Board, komi: Komi, penalties: ByColor<i32>, tie_winner: Color) -> Tally {
    use crate::board::{neighbors, Cell};
    use crate::point::{CELLS, MAX_SIZE};
    let cells = &board.cells;
    let stones = ByColor {
        black: board.stone_count(Color::Black),
        white: board.stone_count(Color::White),
    };
    let mut spaces = ByColor::<usize>::default();
    let mut shared = 0;
    // Bit 0: Black neighbour, bit 1: White neighbour, bit 2: an empty neighbour. `Cell` values
    // are 0 empty, 1 Black, 2 White, 3 edge.
    let touch = |i: usize| -> u8 {
        neighbors(i).iter().fold(0u8, |acc, &q| {
            acc | match cells[q] {
                Cell::Empty => 4,
                Cell::Black => 1,
                Cell::White => 2,
                Cell::Edge => 0,
            }
        })
    };
    let mut seen = [false; CELLS];
    let mut stack: arrayvec::ArrayVec<u16, { MAX_SIZE * MAX_SIZE }> = arrayvec::ArrayVec::new();
    let mut region: arrayvec::ArrayVec<u16, { MAX_SIZE * MAX_SIZE }> = arrayvec::ArrayVec::new();
    for k in 0..board.empty_count() {
        let start = board.empty_point(k).idx();
        if seen[start] {
            continue;
        }
        match touch(start) {
            1 => spaces.black += 1,
            2 => spaces.white += 1,
            0 | 3 => shared += 1,
            _ => {
                // A region of two or more points.
                region.clear();
                stack.push(start as u16);
                seen[start] = true;
                let mut border = 0u8;
                while let Some(i) = stack.pop() {
                    let i = usize::from(i);
                    region.push(i as u16);
                    for q in neighbors(i) {
                        match cells[q] {
                            Cell::Empty if !seen[q] => {
                                seen[q] = true;
                                stack.push(q as u16);
                            }
                            Cell::Black => border |= 1,
                            Cell::White => border |= 2,
                            _ => {}
                        }
                    }
                }
                match border {
                    1 => spaces.black += region.len(),
                    2 => spaces.white += region.len(),
                    0 => shared += region.len(),
                    _ => {
                        for &i in &region {
                            match touch(usize::from(i)) & 3 {
                                1 => spaces.black += 1,
                                2 => spaces.white += 1,
                                _ => shared += 1,
                            }
                        }
                    }
                }
            }
        }
    }
    let area = ByColor {
        black: stones.black + spaces.black,
        white: stones.white + spaces.white,
    };
    let (margin_halves, winner) = margin_and_winner(area, komi, penalties, tie_winner);
    Tally {
        stones,
        spaces,
        area,
        shared,
        margin_halves,
        winner,
    }
}

/// Who each point of `board` counts for once the stones on `dead` are removed.
///
/// Regions of spaces bordered by one colour belong to it; a region bordered by both is split
/// point by point by adjacency ("空屬鄰子"): points next to Black stones only are Black's, next
/// to White stones only White's, all others shared.
pub fn owners(board: &Board, dead: &[Point]) -> Vec<Owner> {
    let (w, h) = (board.width(), board.height());
    let idx = |p: Point| p.row() * w + p.col();
    let mut color: Vec<Option<Color>> = board.points().map(|p| board.color_at(p)).collect();
    for &d in dead {
        if board.contains(d) {
            color[idx(d)] = None;
        }
    }
    let nbrs = |i: usize| {
        let (r, c) = (i / w, i % w);
        let mut v: arrayvec::ArrayVec<usize, 4> = arrayvec::ArrayVec::new();
        if r > 0 {
            v.push(i - w);
        }
        if c > 0 {
            v.push(i - 1);
        }
        if c + 1 < w {
            v.push(i + 1);
        }
        if r + 1 < h {
            v.push(i + w);
        }
        v
    };
    let mut out: Vec<Option<Owner>> = color
        .iter()
        .map(|c| {
            c.map(|c| match c {
                Color::Black => Owner::Black,
                Color::White => Owner::White,
            })
        })
        .collect();
    let mut seen = vec![false; w * h];
    // One region and one stack for all regions: a final position has dozens of small ones.
    let mut scratch = RegionScratch::default();
    for start in 0..w * h {
        if color[start].is_some() || seen[start] {
            continue;
        }
        region_owners(
            start,
            |i| color[i],
            nbrs,
            &mut seen,
            &mut scratch,
            |i, o| out[i] = Some(o),
        );
    }
    out.into_iter()
        .map(|o| o.unwrap_or(Owner::Shared))
        .collect()
}

/// The buffers [`region_owners`] reuses from one region to the next.
#[derive(Default, Debug)]
pub struct RegionScratch {
    region: Vec<usize>,
    stack: Vec<usize>,
}

/// Who each point of one region of empty points counts for: the region of `start` (points
/// numbered `0..n`, `color(i)` the stone on point `i` or `None`, `nbrs(i)` its neighbours), each
/// of its points marked in `seen` and given to `out` with its owner. A region next to one colour
/// is its; next to both, each point counts by the stones next to it ("空屬鄰子"): Black's next
/// to Black only, White's next to White only, shared otherwise. The one rule of [`owners`],
/// for a caller that recounts some regions only (the end-of-game search).
pub fn region_owners<I: IntoIterator<Item = usize>>(
    start: usize,
    color: impl Fn(usize) -> Option<Color>,
    nbrs: impl Fn(usize) -> I,
    seen: &mut [bool],
    scratch: &mut RegionScratch,
    mut out: impl FnMut(usize, Owner),
) {
    let RegionScratch { region, stack } = scratch;
    region.clear();
    stack.clear();
    stack.push(start);
    seen[start] = true;
    let (mut black, mut white) = (false, false);
    while let Some(i) = stack.pop() {
        region.push(i);
        for j in nbrs(i) {
            match color(j) {
                Some(Color::Black) => black = true,
                Some(Color::White) => white = true,
                None if !seen[j] => {
                    seen[j] = true;
                    stack.push(j);
                }
                None => {}
            }
        }
    }
    for &i in region.iter() {
        out(
            i,
            match (black, white) {
                (true, false) => Owner::Black,
                (false, true) => Owner::White,
                (false, false) => Owner::Shared,
                (true, true) => {
                    let (mut b, mut wh) = (false, false);
                    for j in nbrs(i) {
                        match color(j) {
                            Some(Color::Black) => b = true,
                            Some(Color::White) => wh = true,
                            None => {}
                        }
                    }
                    match (b, wh) {
                        (true, false) => Owner::Black,
                        (false, true) => Owner::White,
                        _ => Owner::Shared,
                    }
                }
            },
        );
    }
}

/// Counts `board` with the stones on `dead` removed.
pub fn score(
    board: &Board,
    dead: &[Point],
    komi: Komi,
    penalties: ByColor<i32>,
    tie_winner: Color,
) -> Score {
    let owners = owners(board, dead);
    let mut stones = ByColor::<usize>::default();
    let mut spaces = ByColor::<usize>::default();
    let mut shared = 0;
    for (p, o) in board.points().zip(owners.iter()) {
        let is_stone = board.color_at(p).is_some() && !dead.contains(&p);
        match o {
            Owner::Black if is_stone => stones.black += 1,
            Owner::Black => spaces.black += 1,
            Owner::White if is_stone => stones.white += 1,
            Owner::White => spaces.white += 1,
            Owner::Shared => shared += 1,
        }
    }
    let area = ByColor {
        black: stones.black + spaces.black,
        white: stones.white + spaces.white,
    };
    let (margin_halves, winner) = margin_and_winner(area, komi, penalties, tie_winner);
    let points = board.area();
    // "(N²−1)/2" stones each on Ing's odd boards; half the points on an even board.
    let supply = points / 2;
    let odd_point = points - 2 * supply;
    let shared_filled = shared / 2;
    let compensation_stones = komi.halves() as f64 / 4.0;
    let penalty_stones = ByColor {
        black: penalties.black as f64 / 2.0,
        white: penalties.white as f64 / 2.0,
    };
    let filled_area = ByColor {
        black: area.black + shared_filled,
        white: area.white + shared_filled,
    };
    let b = filled_area.black as f64 - supply as f64;
    let w = filled_area.white as f64 - supply as f64;
    let owed_by_black = compensation_stones + penalty_stones.black - penalty_stones.white;
    let fill_in = FillIn {
        supply,
        odd_point,
        shared_filled,
        filled: ByColor {
            black: filled_area.black.min(supply),
            white: filled_area.white.min(supply),
        },
        spaces_left: ByColor {
            black: filled_area.black.saturating_sub(supply),
            white: filled_area.white.saturating_sub(supply),
        },
        stones_left: ByColor {
            black: supply.saturating_sub(filled_area.black),
            white: supply.saturating_sub(filled_area.white),
        },
        compensation_stones,
        penalty_stones,
        black_net: b - owed_by_black,
        white_net: w + owed_by_black,
    };
    Score {
        size: (board.width(), board.height()),
        stones,
        spaces,
        area,
        shared,
        dead: dead.to_vec(),
        komi,
        penalties,
        margin_halves,
        winner,
        owners,
        fill_in,
    }
}
