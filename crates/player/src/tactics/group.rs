//! The life of a group read by its eye space.
//!
//! A *group* ([`group_at`]) is a string and the strings of its colour joined to it through its
//! enclosed regions: a region is a connected set of points without a stone of the group's
//! colour (empty points and the other side's stones inside), of at most
//! [`GroupLimits::region`] points, bordered by the group's strings alone. The group's other
//! liberties lie in empty areas of at most [`GroupLimits::outside`] points each (the dame and
//! shared points of a final position, or the other side's ground along an edge); a group with
//! a liberty in a larger area is open and is not read.
//!
//! [`dead_by_shape`] reads it dead from the shapes of its regions: the other side's stones
//! inside its only eye space in a dead shape (the nakade: a straight or bent three, a square
//! or pyramid four, a bulky or flower five, a rabbity six, which the group cannot take without
//! leaving one eye), its other eyes false. [`super::read_group`] reads a small group by search
//! ([`super::group_search`]).
//!
//! Under Ing's rules nothing is dead by a ruling ("提證死活"): no bent four in the corner is
//! taken off by its shape here (a bent four of empty points gives two eyes to this count).

use ingo_rules::{Board, Color, Point, MAX_SIZE};

use super::EyeStatus;

pub(super) fn idx(p: Point) -> usize {
    p.row() * MAX_SIZE + p.col()
}

/// The bounds of a group and of its reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupLimits {
    /// The most points of an enclosed region of the group (empty points and the other side's
    /// stones inside).
    pub region: usize,
    /// The most empty points of one empty area outside the group's regions that holds a
    /// liberty of the group.
    pub outside: usize,
    /// The most points read in all (regions and outside areas).
    pub arena: usize,
    /// The most positions each of the two searches of [`super::read_group`] may visit.
    pub nodes: u64,
}

impl Default for GroupLimits {
    /// Regions of up to 12 points, outside areas of up to 6, 20 points in all, 20,000 positions.
    fn default() -> GroupLimits {
        GroupLimits {
            region: 12,
            outside: 6,
            arena: 20,
            nodes: 20_000,
        }
    }
}

/// The bounds of the groups read at the end of a game, by the judgement and for the walls
/// around a group: regions of up to 12 points, outside areas of up to 12 (the other side's
/// ground along an edge next to the group), 40 points in all, no search.
pub(crate) const END_OF_GAME: GroupLimits = GroupLimits {
    region: 12,
    outside: 12,
    arena: 40,
    nodes: 0,
};

/// A group: strings of one colour joined through their enclosed regions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The group's colour.
    pub color: Color,
    /// The stones of its strings.
    pub stones: Vec<Point>,
    /// The largest string's stones (the string the reading takes or proves).
    pub main: Vec<Point>,
    /// Its enclosed regions: empty points and the other side's stones inside.
    pub regions: Vec<Vec<Point>>,
    /// The empty points of the areas outside its regions that hold its liberties.
    pub outside: Vec<Point>,
}

impl Group {
    /// The stones of the other side inside the group's regions.
    pub fn inside(&self, board: &Board) -> Vec<Point> {
        self.regions
            .iter()
            .flatten()
            .copied()
            .filter(|&p| board.color_at(p) == Some(self.color.opponent()))
            .collect()
    }

    /// Every point the reading plays on: the regions, the outside areas, the group's stones.
    pub(crate) fn play_set(&self) -> Vec<Point> {
        let mut v: Vec<Point> = self.regions.iter().flatten().copied().collect();
        v.extend(self.outside.iter().copied());
        v.extend(self.stones.iter().copied());
        v
    }

    /// Whether the reading plays on each point, by [`idx`] (what [`wall_eyes`] takes).
    pub(crate) fn play_mask(&self) -> Vec<bool> {
        let mut in_play = vec![false; MAX_SIZE * MAX_SIZE];
        for p in self.play_set() {
            in_play[idx(p)] = true;
        }
        in_play
    }
}

/// The connected points from `from` that `inside` accepts, at most `cap + 1` of them (more
/// than `cap` says "too large").
fn flood(board: &Board, from: Point, cap: usize, inside: impl Fn(Point) -> bool) -> Vec<Point> {
    let mut seen = vec![false; MAX_SIZE * MAX_SIZE];
    seen[idx(from)] = true;
    let mut out = vec![from];
    let mut i = 0;
    while i < out.len() && out.len() <= cap {
        let p = out[i];
        i += 1;
        for q in board.neighbors(p) {
            if !seen[idx(q)] && inside(q) {
                seen[idx(q)] = true;
                out.push(q);
            }
        }
    }
    out
}

/// The group of the string on `p`, or `None` on an empty point, or when the group is open (a
/// liberty in an empty area larger than [`GroupLimits::outside`]) or has more than
/// [`GroupLimits::arena`] points to read.
pub fn group_at(board: &Board, p: Point, limits: &GroupLimits) -> Option<Group> {
    let color = board.color_at(p)?;
    let mut in_group = vec![false; MAX_SIZE * MAX_SIZE];
    let mut done = vec![false; MAX_SIZE * MAX_SIZE];
    let mut stones = Vec::new();
    let mut strings: Vec<Vec<Point>> = Vec::new();
    let add =
        |q: Point, in_group: &mut Vec<bool>, stones: &mut Vec<Point>, strings: &mut Vec<_>| {
            if in_group[idx(q)] {
                return;
            }
            let s = board.string_stones(q);
            for &t in &s {
                in_group[idx(t)] = true;
                stones.push(t);
            }
            strings.push(s);
        };
    add(p, &mut in_group, &mut stones, &mut strings);
    let (mut regions, mut outside) = (Vec::new(), Vec::new());
    let mut arena = 0;
    let mut i = 0;
    while i < stones.len() {
        let s = stones[i];
        i += 1;
        for q in board.neighbors(s) {
            if done[idx(q)] || board.color_at(q) == Some(color) {
                continue;
            }
            let region = flood(board, q, limits.region, |x| {
                board.color_at(x) != Some(color)
            });
            if region.len() <= limits.region {
                for &r in &region {
                    done[idx(r)] = true;
                    for t in board.neighbors(r) {
                        if board.color_at(t) == Some(color) {
                            add(t, &mut in_group, &mut stones, &mut strings);
                        }
                    }
                }
                arena += region.len();
                regions.push(region);
            } else if board.color_at(q).is_none() {
                let area = flood(board, q, limits.outside, |x| board.color_at(x).is_none());
                if area.len() > limits.outside {
                    return None;
                }
                for &r in &area {
                    done[idx(r)] = true;
                }
                arena += area.len();
                outside.extend(area);
            }
            if arena > limits.arena {
                return None;
            }
        }
    }
    let main = strings.iter().max_by_key(|s| s.len())?.clone();
    stones.sort();
    Some(Group {
        color,
        stones,
        main,
        regions,
        outside,
    })
}

/// Whether `group` is dead by the shape of its eye space (module doc): at most one eye, the
/// group moving first, with the other side's stones inside. Each region is worth, to the
/// group moving first:
///
/// * without stones of the other side: its shape's eyes ([`super::eye_space`]: one for one
///   or two points and the square four, two for an unsettled shape, whose vital point the
///   group takes, and for the rest); a one-point region between two or more of the group's
///   strings with the other side's stones on its diagonals (two in the centre, one on the
///   edge), none of them inside a region, is a false eye, worth none;
/// * with them: one eye when they are one string, every empty point of the region is a
///   liberty of it, and its stones make a shape of one eye or an unsettled one: taking it
///   fills the region but for the space of the stones taken, where the other side plays the
///   vital point next (the nakade); two otherwise.
///
/// The empty areas outside the regions give liberties, not eyes: at the end of a game they are
/// dame or the other side's ground. The verdict needs at least one region with stones of the
/// other side in it, no string of the group's colour outside it touching its outside areas
/// (it might connect there), and, for each such region, at least as many liberties of the
/// group outside it as empty points in it (so the group fills them without running short:
/// no seki). The strings of the other side next to the group (its wall) are taken as alive:
/// the group of each, joined through its own regions and to the groups of its colour it
/// shares a liberty with where this group's side cannot play, must have more liberties than
/// this group or be open (else the group may win a capture race against it, which is not a
/// question of shape), and the caller checks that they are not dead. A string of one or two
/// stones inside is a race or a ko (its capture leaves an eye of one or two points, which the
/// races count), not a shape.
pub fn dead_by_shape(board: &Board, group: &Group) -> bool {
    let color = group.color;
    let mut in_group = vec![false; MAX_SIZE * MAX_SIZE];
    for &p in &group.stones {
        in_group[idx(p)] = true;
    }
    let mut in_region = vec![false; MAX_SIZE * MAX_SIZE];
    for &p in group.regions.iter().flatten() {
        in_region[idx(p)] = true;
    }
    // Another string of the colour at the outside areas: the group may join it.
    let joins = group.outside.iter().any(|&p| {
        board
            .neighbors(p)
            .any(|q| board.color_at(q) == Some(color) && !in_group[idx(q)])
    });
    if joins {
        return false;
    }
    let liberties = super::liberty_points(board, &group.stones);
    // A wall whose own group has no more liberties than this one: a capture race, not a
    // question of shape. A wall whose group is open (a liberty in a large empty area) is safe,
    // and so is one that joins such a group, or one with more liberties, at a liberty they
    // share ([`wall_liberties`]).
    let short_wall = strings_next_to(board, group.stones.iter().copied(), color.opponent())
        .into_iter()
        .filter(|&q| !in_region[idx(q)])
        .any(|q| wall_liberties(board, q).is_some_and(|n| n <= liberties.len()));
    if short_wall {
        return false;
    }
    let mut eyes = 0;
    let mut nakade = false;
    for region in &group.regions {
        let empty: Vec<Point> = region
            .iter()
            .copied()
            .filter(|&p| board.color_at(p).is_none())
            .collect();
        let worth = if empty.len() == region.len() {
            empty_region_eyes(board, group, region, &in_group, &in_region)
        } else {
            let stones: Vec<Point> = region
                .iter()
                .copied()
                .filter(|&p| board.color_at(p).is_some())
                .collect();
            let string = board.string_stones(stones[0]);
            let one_string = string.len() == stones.len();
            let all_liberties = empty
                .iter()
                .all(|&e| board.neighbors(e).any(|q| string.contains(&q)));
            let outside_liberties = liberties.iter().filter(|l| !region.contains(l)).count();
            let shape_dies = matches!(
                super::eye_space(&string).map(|e| e.status),
                Ok(EyeStatus::OneEye | EyeStatus::Unsettled { .. })
            );
            // One or two stones inside are a race or a ko (their capture leaves an eye of one
            // or two points, which races count), not a shape.
            let shape_dies = shape_dies && string.len() >= 3;
            if one_string && all_liberties && shape_dies && outside_liberties >= empty.len() {
                nakade = true;
                1
            } else {
                2
            }
        };
        eyes += worth;
        if eyes >= 2 {
            return false;
        }
    }
    nakade
}

/// The strings of `color` next to `points`, each once (its head stone).
pub(crate) fn strings_next_to(
    board: &Board,
    points: impl IntoIterator<Item = Point>,
    color: Color,
) -> Vec<Point> {
    let mut heads: Vec<Point> = points
        .into_iter()
        .flat_map(|p| board.neighbors(p))
        .filter(|&q| board.color_at(q) == Some(color))
        .filter_map(|q| board.string_head(q))
        .collect();
    heads.sort_unstable();
    heads.dedup();
    heads
}

/// The liberties of the wall on `q` in a race with a group inside it ([`dead_by_shape`]):
/// those of the wall's group ([`group_at`]) and of every group of its colour that shares a
/// liberty with it where the other side cannot play (its stone would be in atari and take
/// nothing), in turn: the wall joins them there when it needs to, and nothing stops it.
/// `None` when one of them is open, which no race inside reaches.
pub(crate) fn wall_liberties(board: &Board, q: Point) -> Option<usize> {
    let color = board.color_at(q)?;
    let joins_at = |l: Point| {
        super::liberties_after_play(board, l, color.opponent()) < 2
            && !board
                .neighbors(l)
                .any(|r| board.color_at(r) == Some(color) && board.in_atari(r))
    };
    let mut in_chain = vec![false; MAX_SIZE * MAX_SIZE];
    let mut stones: Vec<Point> = Vec::new();
    let mut pending = vec![q];
    while let Some(p) = pending.pop() {
        if in_chain[idx(p)] {
            continue;
        }
        let wall = group_at(board, p, &END_OF_GAME)?;
        for &s in &wall.stones {
            in_chain[idx(s)] = true;
        }
        let first = stones.len();
        stones.extend(wall.stones);
        for l in super::liberty_points(board, &stones[first..]) {
            if !joins_at(l) {
                continue;
            }
            pending.extend(
                board
                    .neighbors(l)
                    .filter(|&r| board.color_at(r) == Some(color) && !in_chain[idx(r)]),
            );
        }
    }
    Some(super::liberty_points(board, &stones).len())
}

/// Empty regions of at most this many points, bordered by stones of one colour alone, are
/// the eyes [`wall_eyes`] adds to a reading.
const WALL_EYE: usize = 3;

/// The points to add to the reading of a group ([`super::read_group`]; `in_play`, its
/// [`Group::play_mask`]) so that it sees every liberty of the string on `q` (a wall around the
/// group): its liberties outside the points read, each in an empty region of at most
/// [`WALL_EYE`] points whose every neighbour is a stone of the wall's colour (an eye of the
/// wall's, which the other side fills last, from inside, or not at all). `None` when a liberty lies elsewhere: the wall could be attacked
/// from outside the points read, a race the reading does not see.
pub(crate) fn wall_eyes(board: &Board, in_play: &[bool], q: Point) -> Option<Vec<Point>> {
    let color = board.color_at(q)?;
    let mut added: Vec<Point> = Vec::new();
    for l in super::liberty_points(board, &board.string_stones(q)) {
        if in_play[idx(l)] || added.contains(&l) {
            continue;
        }
        let enclosed = std::cell::Cell::new(true);
        let region = flood(board, l, WALL_EYE, |r| match board.color_at(r) {
            None => true,
            Some(c) => {
                enclosed.set(enclosed.get() && c == color);
                false
            }
        });
        if region.len() > WALL_EYE || !enclosed.get() || region.iter().any(|&r| in_play[idx(r)]) {
            return None;
        }
        added.extend(region);
    }
    Some(added)
}

/// The eyes an empty region of the group gives it, the group moving first
/// ([`dead_by_shape`]).
fn empty_region_eyes(
    board: &Board,
    group: &Group,
    region: &[Point],
    in_group: &[bool],
    in_region: &[bool],
) -> usize {
    if let [p] = region {
        let mut heads: Vec<Point> = board
            .neighbors(*p)
            .filter_map(|q| board.string_head(q))
            .collect();
        heads.sort();
        heads.dedup();
        if heads.len() >= 2 {
            let (w, h) = (board.width(), board.height());
            let edge = p.col() == 0 || p.row() == 0 || p.col() + 1 == w || p.row() + 1 == h;
            let (c, r) = (p.col() as i32, p.row() as i32);
            let enemy_diagonals = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
                .iter()
                .filter_map(|&(dc, dr)| {
                    let (cc, rr) = (c + dc, r + dr);
                    if cc < 0 || rr < 0 {
                        return None;
                    }
                    Point::new(cc as usize, rr as usize).filter(|&q| board.contains(q))
                })
                .filter(|&q| {
                    board.color_at(q) == Some(group.color.opponent())
                        && !in_region[idx(q)]
                        && !in_group[idx(q)]
                })
                .count();
            if enemy_diagonals >= if edge { 1 } else { 2 } {
                return 0;
            }
        }
        return 1;
    }
    match super::eye_space(region).map(|e| e.status) {
        Ok(EyeStatus::OneEye) => 1,
        _ => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(name: &str, size: usize) -> Point {
        Point::from_gtp(name, size, size).expect("vertex")
    }

    /// White's stone on A1 read on the points `play`; the wall is Black's string on `wall`.
    fn eyes_of(ascii: &str, play: &[&str], wall: &str) -> Option<Vec<Point>> {
        let board = Board::from_ascii(ascii).expect("diagram");
        let n = board.width();
        let group = Group {
            color: Color::White,
            stones: vec![pt("A1", n)],
            main: vec![pt("A1", n)],
            regions: Vec::new(),
            outside: play.iter().map(|p| pt(p, n)).collect(),
        };
        wall_eyes(&board, &group.play_mask(), pt(wall, n)).map(|mut v| {
            v.sort();
            v
        })
    }

    /// Black's wall `A3 B3 C3 D3 B2 B1 D2 D1` around White's A1, inside White's stones on the
    /// 4th line and the E file: its liberties are A2 (read) and the points between B1 and D1.
    #[test]
    fn a_wall_liberty_outside_the_points_read_must_be_an_eye_of_its_own() {
        // C1 alone, bordered by Black only: an eye, added.
        let one = "
            . . . . .
            O O O O O
            X X X X O
            . X X X O
            O X . X O";
        assert_eq!(eyes_of(one, &["A2"], "B1"), Some(vec![pt("C1", 5)]));
        // Every liberty read: nothing to add.
        assert_eq!(eyes_of(one, &["A2", "C1"], "B1"), Some(Vec::new()));
        // A region of two points bordered by Black alone: added whole.
        let two = "
            . . . . .
            O O O O O
            X X X X O
            . X . X O
            O X . X O";
        assert_eq!(
            eyes_of(two, &["A2"], "B1"),
            Some({
                let mut v = vec![pt("C1", 5), pt("C2", 5)];
                v.sort();
                v
            })
        );
        // A liberty on the open board: the wall may be attacked from outside.
        let open = "
            . . . . .
            . . . . .
            X X X X O
            . X X X O
            O X . X O";
        assert_eq!(eyes_of(open, &["A2"], "B1"), None);
        // A White stone beside the liberty: not Black's eye.
        let touched = "
            . . . . .
            O O O O O
            X X X X O
            . X O X O
            O X . X O";
        assert_eq!(eyes_of(touched, &["A2"], "B1"), None);
        // A region of four points: larger than an eye this reading adds.
        let large = "
            . . . . . .
            O O O O O O
            X X X X X O
            . X . . X O
            O X . . X O
            X X X X X O";
        assert_eq!(eyes_of(large, &["A3"], "B2"), None);
    }
}
