//! The last neutral points read out: a minimax search of the fill (填滿計點), for positions
//! small enough to read.
//!
//! The players fill the dame before counting ("單官著完各一虛手著手休止"), and they fill them
//! as players do: a fill that ataris, or that ataris on the next fill, is answered; a string
//! left in atari is captured; whoever can takes the last odd dame. The one-move rule (the fill
//! of `super::fill_neutral`) sees the first of these only; the search sees them as deep as the
//! fill goes:
//!
//! * **The board.** The search plays on the board where the dead stones are the capturer's
//!   (`live`: a stone filled next to a dead stone gains no liberty from it), and keeps the
//!   real board beside it, the dead stones standing as stones of their owner: a fill that is
//!   in atari there is not made, whatever the converted dead stones lend it on `live` (on the
//!   real board the other side connects to its dead stones and captures the filler).
//! * **Plain dame** (a lone empty point between the two sides, each of whose neighbouring
//!   strings has two liberties that no fill can take) are worth one point to whoever fills
//!   them and change nothing else: the search keeps them as a count ("take a plain dame" is one
//!   move, whichever it is), so that twenty plain dame cost no more to read than one.
//! * **The other moves** are read on the board: a fill of a neutral point of the final
//!   position or of a point next to one (a fill makes its neighbours neutral when they were
//!   the other side's by adjacency only, "空屬鄰子") that leaves the filler's string two
//!   liberties, but not of a seki point of the final position while it still is one (a fill
//!   that connects a string of the seki to a living group ends it); a capture of a string in
//!   atari anywhere (a seki point too), but never of a string holding a converted dead stone
//!   or a stone of a double-ko seki (its ko stones are in atari, and a take starts the cycle
//!   that leaves the seki standing);
//!   the save of a string in atari at its last liberty; after a capture, the neutral points
//!   next to a play and an atari on the capturing stone (the capture opened an area, which is
//!   closed again); a pass. Simple ko is kept (no immediate retake of a single stone).
//! * **The value** of a position where both have passed is its area difference ("子空皆地"):
//!   stones and the empty points next to one colour only, plus the plain dame each side took.
//!
//! The search is exact minimax (alpha-beta with a table of the positions read) within a
//! budget of [`BUDGET`] positions. Past it, or past [`MAX_READ_POINTS`] points, the fill is
//! **read region by region** ([`read_by_regions`]): the points fall into regions that a fill in
//! one leaves the others alone, each region is read by the same minimax alone, and each turn
//! the mover plays where moving first is worth most, as players fill the last dame. Where a
//! region is too large for the budget, or the line would take a stone of the final position,
//! the one-move fill stands. `Judgement::fill_read` says whether the fill was read.
//!
//! Written here, not taken from a library: no Go library reads the fill of an area count.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use ingo_rules::{Board, Color, Owner, Point};

use super::{
    can_fill, free_move_for_fill, playout, seki_points_given, stands_on_real, Fill, FreeMove, Grid,
    ShallowFill,
};

/// Positions the search may read before it gives up.
pub(crate) const BUDGET: usize = 2_000;

/// The most points (plain dame aside) the search tries to read: past 24 it never finishes
/// within [`BUDGET`] on the counted records.
const MAX_READ_POINTS: usize = 24;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mv {
    Play(Point),
    Plain,
    Pass,
    /// A play in the mover's own area that makes a fill of its own possible
    /// ([`super::free_move_for_fill`]).
    Free(FreeMove),
}

#[derive(Clone)]
struct State {
    board: Board,
    /// The same position with the dead stones as they are (the stones of their owner): a fill
    /// that would be in atari there is not made, whatever the dead stones give it on `board`.
    real: Board,
    to_move: Color,
    passes: u8,
    plain_left: u32,
    ko: Option<Point>,
    /// A capture was made on the line, or a play outside the read regions (a save): the owners
    /// are counted over the whole board again.
    captured: bool,
    /// The last liberties of the strings in atari (captures and saves are read only there
    /// and on the read points), kept as moves are made.
    atari: Vec<Point>,
    /// The points played on the line: the empty points next to them that a play made neutral
    /// are read too (a capture that opens the other side's area is closed again).
    placed: Vec<Point>,
}

impl State {
    /// Makes this state (one of the search's pool) a copy of `src`: the boards copy only their
    /// used rows ([`Board`]'s `clone_from`) and the lists keep their room, where a new boxed
    /// clone would copy two whole boards (30 KB) twice, onto the stack and into its box.
    fn copy_from(&mut self, src: &State) {
        let State {
            board,
            real,
            to_move,
            passes,
            plain_left,
            ko,
            captured,
            atari,
            placed,
        } = src;
        self.board.clone_from(board);
        self.real.clone_from(real);
        self.to_move = *to_move;
        self.passes = *passes;
        self.plain_left = *plain_left;
        self.ko = *ko;
        self.captured = *captured;
        self.atari.clone_from(atari);
        self.placed.clone_from(placed);
    }
}

/// The last liberty of each string in atari next to `p` or on it, added to `out` once.
fn ataris_near(board: &Board, p: Point, out: &mut Vec<Point>) {
    for q in std::iter::once(p).chain(board.neighbors(p)) {
        if board.color_at(q).is_some() {
            if let Some(l) = board.atari_liberty(q) {
                if !out.contains(&l) {
                    out.push(l);
                }
            }
        }
    }
}

/// Whether `l` is still the last liberty of a string next to it.
fn is_atari_liberty(board: &Board, l: Point) -> bool {
    board.color_at(l).is_none()
        && board
            .neighbors(l)
            .any(|q| board.color_at(q).is_some() && board.atari_liberty(q) == Some(l))
}

struct Search<'a> {
    grid: &'a Grid,
    /// The seki points of the final position: not filled while they still are seki points (a
    /// capture there is still read).
    seki: &'a [bool],
    /// Points whose stone is never captured in the search: the stones that stand for a dead
    /// stone of the other colour (on the real board it is the other side's dead stone), and
    /// the stones of a double-ko seki.
    untakable: &'a [bool],
    /// The plain dame, kept as a count.
    plain: Vec<bool>,
    /// The read points, in board order.
    hot_points: Vec<usize>,
    /// The other neutral points of the final position: the only points filled (a point that
    /// becomes neutral later, a territory opened by a capture, is no dame of the players).
    hot: Vec<bool>,
    /// Moves in a line past which a position is valued as it stands.
    max_depth: usize,
    /// Who each point counts for at the root.
    root_owners: Vec<Owner>,
    /// The empty points of the root's regions that hold a read point: the only points whose
    /// owner a fill changes (a fill touches no other region) until a capture is made.
    region: Vec<usize>,
    in_region: Vec<bool>,
    /// The positions read: value for the side to move, what kind of bound it is, best move.
    table: HashMap<u64, Entry>,
    /// The positions on the line being read (a ko that comes back is valued as it stands).
    line: Vec<u64>,
    /// Who each point counts for, by position (the stones' hash).
    owners_seen: RefCell<HashMap<u64, Rc<Vec<Owner>>>>,
    budget: usize,
    /// States read and done with, whose boxes [`Search::apply`] fills again.
    spare: Vec<Box<State>>,
    /// A search of one region ([`read_by_regions`]): its moves stay in the regions of its
    /// points and on the last liberties of strings in atari.
    local: bool,
}

#[derive(Clone, Copy)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    value: i32,
    bound: Bound,
    best: Mv,
}

fn key(st: &State) -> u64 {
    // The real board differs from `board` only where a dead stone stands or was taken.
    let mut k = st.board.hash() ^ st.real.hash().rotate_left(17);
    if st.to_move == Color::White {
        k ^= 0x9E37_79B9_7F4A_7C15;
    }
    k ^= u64::from(st.passes).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    k ^= u64::from(st.plain_left).wrapping_mul(0x1656_67B1_9E37_79F9);
    if let Some(p) = st.ko {
        k ^= (p.col() as u64 + 1).wrapping_mul(0x27D4_EB2F_1656_67C5)
            ^ (p.row() as u64 + 1).wrapping_mul(0x85EB_CA77_C2B2_AE63);
    }
    k
}

fn sign(c: Color) -> i32 {
    if c == Color::Black {
        1
    } else {
        -1
    }
}

impl Search<'_> {
    /// Who each point counts for on `st`: the root's owners with the regions of the read points
    /// counted again ("空屬鄰子": a region next to one colour is its; a region next to both is
    /// split point by point by the stones next to each), or the whole board after a capture.
    fn owners(&self, st: &State) -> Rc<Vec<Owner>> {
        // One count a position: a node and the leaf after two passes share their board.
        let key = st.board.hash();
        if let Some(o) = self.owners_seen.borrow().get(&key) {
            return Rc::clone(o);
        }
        let o = Rc::new(self.count_owners(st));
        self.owners_seen.borrow_mut().insert(key, Rc::clone(&o));
        o
    }

    fn count_owners(&self, st: &State) -> Vec<Owner> {
        let board = &st.board;
        if st.captured {
            return ingo_rules::owners(board, &[]);
        }
        let mut out = self.root_owners.clone();
        let mut seen = vec![false; self.grid.len()];
        let mut scratch = ingo_rules::RegionScratch::default();
        let color_of = |i: usize| board.color_at(self.grid.point(i));
        for &start in &self.region {
            if seen[start] {
                continue;
            }
            if let Some(c) = color_of(start) {
                out[start] = if c == Color::Black {
                    Owner::Black
                } else {
                    Owner::White
                };
                continue;
            }
            ingo_rules::region_owners(
                start,
                color_of,
                |i| self.grid.neighbors(i),
                &mut seen,
                &mut scratch,
                |i, o| out[i] = o,
            );
        }
        out
    }

    /// Area of Black minus area of White on `st`, the plain dame left out (they are counted
    /// as they are taken).
    fn value(&self, st: &State) -> i32 {
        self.owners(st)
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.plain[*i])
            .map(|(_, o)| match o {
                Owner::Black => 1,
                Owner::White => -1,
                Owner::Shared => 0,
            })
            .sum()
    }

    /// Whether the string on `q` holds a stone the search never captures.
    fn holds_untakable(&self, board: &Board, q: Point) -> bool {
        board
            .string_stones(q)
            .iter()
            .any(|s| self.untakable[self.grid.index(*s)])
    }

    /// The moves of the side to move, captures first, then fills and saves, then a plain dame,
    /// then the pass.
    fn moves(&self, st: &State) -> Vec<Mv> {
        let board = &st.board;
        let c = st.to_move;
        let owners = self.owners(st);
        let mut captures = Vec::new();
        let mut fills = Vec::new();
        // The seki points of the final position that still are (counted once, when asked).
        let seki_now = std::cell::OnceCell::new();
        // Only the read points and the last liberties of strings in atari (a capture or a
        // save): a play inside either side's area changes nothing else.
        let mut points: Vec<usize> = self.hot_points.clone();
        let mut near_placed = Vec::new();
        for &l in &st.atari {
            let i = self.grid.index(l);
            if !self.hot[i] {
                points.push(i);
            }
        }
        for &q in &st.placed {
            // The neutral points next to a play, and an atari on the other side's play.
            for r in board.neighbors(q) {
                let i = self.grid.index(r);
                if board.color_at(r).is_none() && !self.hot[i] && owners[i] == Owner::Shared {
                    points.push(i);
                    near_placed.push(r);
                }
            }
            // (After a capture only: a capture is what opens an area to a play.)
            if st.captured && board.color_at(q) == Some(c.opponent()) {
                let libs = board.liberties_upto(q, 3);
                if libs.len() == 2 {
                    for &r in &libs {
                        points.push(self.grid.index(r));
                        near_placed.push(r);
                    }
                }
            }
        }
        points.sort_unstable();
        points.dedup();
        if self.local {
            points.retain(|&i| self.in_region[i] || st.atari.contains(&self.grid.point(i)));
        }
        for i in points {
            let p = self.grid.point(i);
            if board.color_at(p).is_some() || st.ko == Some(p) || self.plain[i] {
                continue;
            }
            let shared = (owners[i] == Owner::Shared && self.hot[i]) || near_placed.contains(&p);
            if !shared && !st.atari.contains(&p) {
                continue;
            }
            let a = board.analyze(p, c);
            if a.suicide {
                continue;
            }
            if a.captured_stones > 0 {
                let takes_untakable = board.neighbors(p).any(|q| {
                    board.color_at(q) == Some(c.opponent())
                        && board.atari_liberty(q) == Some(p)
                        && self.holds_untakable(board, q)
                });
                if !takes_untakable {
                    captures.push(Mv::Play(p));
                }
                continue;
            }
            if shared {
                let seki = self.seki[i]
                    && seki_now.get_or_init(|| seki_points_given(board, self.grid, &owners))[i];
                if !seki && can_fill(board, p, c) && stands_on_real(&st.real, p, c) {
                    fills.push(Mv::Play(p));
                }
            } else if board
                .neighbors(p)
                .any(|q| board.color_at(q) == Some(c) && board.atari_liberty(q) == Some(p))
                && playout::after(board, p, c).liberties >= 2
            {
                // The save of a string in atari at its last liberty (in its own area, or a
                // point the other side's fill made neutral).
                fills.push(Mv::Play(p));
            }
        }
        if captures.is_empty() && fills.is_empty() {
            // Nothing to fill: the turn is free to take a dead stone that keeps a fill from
            // standing on the real board, or else to connect, inside the mover's own area, a
            // string a fill would leave at one liberty.
            let neutral: Vec<Point> = self
                .hot_points
                .iter()
                .filter(|&&i| owners[i] == Owner::Shared && !self.seki[i])
                .map(|&i| self.grid.point(i))
                .filter(|&p| board.color_at(p).is_none())
                .collect();
            if let Some(f) = free_move_for_fill(board, &st.real, self.grid, &owners, &neutral, c) {
                fills.push(Mv::Free(f));
            }
        }
        captures.append(&mut fills);
        if st.plain_left > 0 {
            captures.push(Mv::Plain);
        }
        captures.push(Mv::Pass);
        captures
    }

    /// The state after `mv`, and what the move itself is worth to its player (a plain dame).
    /// The box comes from the pool of states no longer used ([`Search::spare`]); give it back
    /// there when done with it.
    fn apply(&mut self, st: &State, mv: Mv, removed: &mut Vec<Point>) -> (Box<State>, i32) {
        let mut next = crate::pooled_copy(&mut self.spare, st, State::copy_from);
        next.to_move = st.to_move.opponent();
        next.ko = None;
        match mv {
            Mv::Pass => {
                next.passes += 1;
                (next, 0)
            }
            Mv::Plain => {
                next.passes = 0;
                next.plain_left -= 1;
                (next, 1)
            }
            Mv::Free(f) => {
                next.passes = 0;
                let n = &mut *next;
                if let Some(p) = f.play(&mut n.board, &mut n.real, st.to_move, removed) {
                    n.placed.push(p);
                }
                (next, 0)
            }
            Mv::Play(p) => {
                next.passes = 0;
                removed.clear();
                if next.real.color_at(p).is_none() {
                    next.real.play_unchecked(p, st.to_move, removed);
                }
                removed.clear();
                next.board.play_unchecked(p, st.to_move, removed);
                next.captured |= !removed.is_empty() || !self.in_region[self.grid.index(p)];
                next.placed.push(p);
                // A play puts in atari only the strings next to it (or its own); a capture
                // only gives liberties.
                let board = &next.board;
                next.atari.retain(|&l| is_atari_liberty(board, l));
                ataris_near(board, p, &mut next.atari);
                if let [taken] = removed.as_slice() {
                    if next.board.liberties_upto(p, 2).len() == 1 && next.board.string_size(p) == 1
                    {
                        next.ko = Some(*taken);
                    }
                }
                (next, 0)
            }
        }
    }

    /// The negamax value of `st` for its side to move within (`alpha`, `beta`), or `None`
    /// past the budget.
    fn negamax(&mut self, st: &State, depth: usize, mut alpha: i32, beta: i32) -> Option<i32> {
        let s = sign(st.to_move);
        if st.passes >= 2 || depth >= self.max_depth {
            return Some(s * self.value(st));
        }
        let k = key(st);
        if self.line.contains(&k) {
            return Some(s * self.value(st));
        }
        let mut first = None;
        if let Some(e) = self.table.get(&k) {
            match e.bound {
                Bound::Exact => return Some(e.value),
                Bound::Lower if e.value >= beta => return Some(e.value),
                Bound::Upper if e.value <= alpha => return Some(e.value),
                _ => {}
            }
            first = Some(e.best);
        }
        if self.table.len() >= self.budget {
            return None;
        }
        let alpha0 = alpha;
        let mut moves = self.moves(st);
        if let Some(f) = first {
            if let Some(i) = moves.iter().position(|&m| m == f) {
                let m = moves.remove(i);
                moves.insert(0, m);
            }
        }
        self.line.push(k);
        let mut best: Option<(i32, Mv)> = None;
        let mut removed = Vec::new();
        for mv in moves {
            let (next, gain) = self.apply(st, mv, &mut removed);
            let read = self.negamax(&next, depth + 1, gain - beta, gain - alpha);
            self.spare.push(next);
            let Some(v) = read else {
                self.line.pop();
                return None;
            };
            let v = gain - v;
            // Ties go to the first move found: captures, fills, a plain dame, the pass.
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, mv));
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        self.line.pop();
        let (value, mv) = best.unwrap_or((s * self.value(st), Mv::Pass));
        let bound = if value <= alpha0 {
            Bound::Upper
        } else if value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.insert(
            k,
            Entry {
                value,
                bound,
                best: mv,
            },
        );
        Some(value)
    }

    /// The move of `st` on the principal line, once `st` is read: the table's move where the
    /// position was read with the full window, else a search of each move. `None` past the
    /// budget.
    fn principal_move(&mut self, st: &State) -> Option<Mv> {
        match self.table.get(&key(st)) {
            Some(e) if matches!(e.bound, Bound::Exact) => Some(e.best),
            _ => Some(self.best_move(st)?.1),
        }
    }

    /// The best move of `st` and its value, each move read with the full window.
    fn best_move(&mut self, st: &State) -> Option<(i32, Mv)> {
        let mut best: Option<(i32, Mv)> = None;
        let mut removed = Vec::new();
        for mv in self.moves(st) {
            let (next, gain) = self.apply(st, mv, &mut removed);
            let read = self.negamax(&next, 1, -INF, INF);
            self.spare.push(next);
            let v = gain - read?;
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, mv));
            }
        }
        best
    }
}

/// For each point of `board`, whether it is empty and its region of empty points is bordered
/// by one colour only.
fn single_colour_regions(board: &Board, grid: &Grid) -> Vec<bool> {
    single_colour_region_ids(board, grid)
        .into_iter()
        .map(|id| id != usize::MAX)
        .collect()
}

/// For each point of `board` that is empty and whose region of empty points is bordered by
/// one colour only, a number for that region (its first point); `usize::MAX` for the others.
fn single_colour_region_ids(board: &Board, grid: &Grid) -> Vec<usize> {
    let n = grid.len();
    let mut out = vec![usize::MAX; n];
    let mut seen = vec![false; n];
    let mut scratch = ingo_rules::RegionScratch::default();
    let mut region: Vec<(usize, Owner)> = Vec::new();
    let color_of = |i: usize| board.color_at(grid.point(i));
    for start in 0..n {
        if seen[start] || color_of(start).is_some() {
            continue;
        }
        region.clear();
        ingo_rules::region_owners(
            start,
            color_of,
            |i| grid.neighbors(i),
            &mut seen,
            &mut scratch,
            |i, o| region.push((i, o)),
        );
        // A region next to both colours holds a point next to each (one point, shared, or
        // two, of two owners): one owner throughout, not shared, is a region of one colour.
        let first = region[0].1;
        if first != Owner::Shared && region.iter().all(|&(_, o)| o == first) {
            for &(i, _) in &region {
                out[i] = start;
            }
        }
    }
    out
}

/// Larger than any value of a board (its number of points).
const INF: i32 = 1 << 20;

/// What the fill's readings share: the boards and marks they start from, who each point counts
/// for at the root, the plain dame, and the points read.
struct Prepared<'a> {
    /// The final position, the dead stones standing as their owner's.
    real: &'a Board,
    /// The same with the dead stones as the capturer's: the board the fill is made on.
    live: &'a Board,
    grid: &'a Grid,
    /// Who fills first.
    first: Color,
    /// The seki points of the final position.
    seki: &'a [bool],
    /// The stones never captured ([`Search::untakable`]).
    untakable: &'a [bool],
    owners: Vec<Owner>,
    plain: Vec<bool>,
    plain_points: Vec<Point>,
    /// The neutral points of the root that are not plain dame.
    hot_count: usize,
    /// Those and the empty points next to them (a fill makes its neighbours neutral when they
    /// were the other side's by adjacency only, "空屬鄰子": those are filled too).
    hot: Vec<bool>,
}

impl<'a> Prepared<'a> {
    fn new(
        real: &'a Board,
        live: &'a Board,
        grid: &'a Grid,
        first: Color,
        seki: &'a [bool],
        untakable: &'a [bool],
    ) -> Prepared<'a> {
        let owners = ingo_rules::owners(live, &[]);
        let n = grid.len();
        let own_region = single_colour_regions(live, grid);
        let plain: Vec<bool> = (0..n)
            .map(|i| {
                let p = grid.point(i);
                owners[i] == Owner::Shared
                    && !seki[i]
                    && live.color_at(p).is_none()
                    && live.neighbors(p).all(|q| {
                        // Two liberties that no fill can take: points of a region bordered by
                        // the string's colour alone (an eye). A point of a region both sides
                        // border can be filled even where it counts for one side by adjacency,
                        // and a string whose liberties all can be is read, not counted: its own
                        // fill of a plain dame could leave it in atari on the board the search
                        // reads.
                        live.color_at(q).is_some()
                            && live
                                .liberties_upto(q, 8)
                                .iter()
                                .filter(|l| own_region[grid.index(**l)])
                                .count()
                                >= 2
                    })
                    && [Color::Black, Color::White]
                        .iter()
                        .all(|&c| playout::after(live, p, c).liberties >= 2 && can_fill(live, p, c))
            })
            .collect();
        let plain_points: Vec<Point> = (0..n)
            .filter(|&i| plain[i])
            .map(|i| grid.point(i))
            .collect();
        // The seki points are read too: a fill that connects a string of the seki to a living
        // group ends it (`moves` asks again at each position).
        let neutral: Vec<bool> = (0..n)
            .map(|i| {
                owners[i] == Owner::Shared && !plain[i] && live.color_at(grid.point(i)).is_none()
            })
            .collect();
        let hot_count = neutral.iter().filter(|&&h| h).count();
        let hot: Vec<bool> = (0..n)
            .map(|i| {
                neutral[i]
                    || (!plain[i]
                        && live.color_at(grid.point(i)).is_none()
                        && grid.neighbors(i).any(|j| neutral[j]))
            })
            .collect();
        Prepared {
            real,
            live,
            grid,
            first,
            seki,
            untakable,
            owners,
            plain,
            plain_points,
            hot_count,
            hot,
        }
    }
}

impl<'a> Search<'a> {
    /// A search of the fill `prep` prepares, on the points `hot` of `board` (whose owners are
    /// `owners`), `plain` kept as a count, lines of at most `max_depth` moves.
    fn new(
        prep: &Prepared<'a>,
        board: &Board,
        owners: Vec<Owner>,
        plain: Vec<bool>,
        hot: Vec<bool>,
        max_depth: usize,
    ) -> Search<'a> {
        let grid = prep.grid;
        let n = grid.len();
        // The regions of the read points (a save or a capture is read anywhere, but a capture
        // makes the search count the whole board).
        let mut in_region = vec![false; n];
        let mut stack: Vec<usize> = (0..n).filter(|&i| hot[i]).collect();
        for &i in &stack {
            in_region[i] = true;
        }
        while let Some(i) = stack.pop() {
            for j in grid.neighbors(i) {
                if !in_region[j] && board.color_at(grid.point(j)).is_none() {
                    in_region[j] = true;
                    stack.push(j);
                }
            }
        }
        let region: Vec<usize> = (0..n).filter(|&i| in_region[i]).collect();
        let hot_points: Vec<usize> = (0..n).filter(|&i| hot[i]).collect();
        Search {
            hot_points,
            root_owners: owners,
            region,
            in_region,
            grid,
            seki: prep.seki,
            untakable: prep.untakable,
            plain,
            hot,
            max_depth,
            table: HashMap::new(),
            line: Vec::new(),
            owners_seen: RefCell::new(HashMap::new()),
            budget: BUDGET,
            spare: Vec::new(),
            local: false,
        }
    }
}

/// The position the fill `prep` prepares starts from: `plain_left` plain dame, and the last
/// liberties of the strings in atari.
fn root_state(prep: &Prepared, plain_left: u32) -> State {
    let (live, grid) = (prep.live, prep.grid);
    let mut atari = Vec::new();
    for i in 0..grid.len() {
        let p = grid.point(i);
        if live.color_at(p).is_some() && live.string_head(p) == Some(p) {
            if let Some(l) = live.atari_liberty(p) {
                if !atari.contains(&l) {
                    atari.push(l);
                }
            }
        }
    }
    State {
        board: live.clone(),
        real: prep.real.clone(),
        to_move: prep.first,
        passes: 0,
        plain_left,
        ko: None,
        captured: false,
        atari,
        placed: Vec::new(),
    }
}

/// Makes `mv`, a move of `color` the search chose, on `out` (the board the fill returns) and
/// lists it in `fills`; `None` where it does not stand there. The plain dame stand on `out`,
/// not on the search's board: where a capture made the two differ, or where the play would
/// take the filler's own stones on `out` (`suicide`: of one stone or of a block), the line is
/// not followed (the one-move fill stands).
fn follow(
    out: &mut Board,
    fills: &mut Vec<Fill>,
    mv: Mv,
    color: Color,
    plain_next: &mut impl Iterator<Item = Point>,
    removed: &mut Vec<Point>,
) -> Option<()> {
    let point = match mv {
        Mv::Play(p) => Some(p),
        Mv::Plain => plain_next.next(),
        // A connection inside the mover's own area is a play on the board that is counted:
        // listed with the fills, in its turn.
        Mv::Free(FreeMove::Connect(p)) => {
            if out.color_at(p).is_some() {
                return None;
            }
            out.play_unchecked(p, color, removed);
            fills.push(Fill { point: p, color });
            return Some(());
        }
        Mv::Pass | Mv::Free(FreeMove::Take(_)) => None,
    };
    if let Some(p) = point {
        if out.color_at(p).is_some() || out.analyze(p, color).suicide {
            return None;
        }
        out.play_unchecked(p, color, removed);
        fills.push(Fill { point: p, color });
    }
    Some(())
}

/// The fill of the neutral points of `live` (dead stones as the capturer's, marked in
/// `untakable` with the stones of a double-ko seki) read out, `first` first: the fills in
/// order (captures among them) and the board after them, or why it was not read out
/// ([`ShallowFill`]). The whole fill is read by minimax when it holds at most
/// [`MAX_READ_POINTS`] points and the search ends within [`BUDGET`] positions; else it is read
/// region by region ([`read_by_regions`]).
pub(crate) fn read_fill(
    real: &Board,
    live: &Board,
    grid: &Grid,
    first: Color,
    seki: &[bool],
    untakable: &[bool],
) -> Result<(Vec<Fill>, Board), ShallowFill> {
    let prep = Prepared::new(real, live, grid, first, seki, untakable);
    if prep.hot_count <= MAX_READ_POINTS {
        if let Some(out) = read_whole(&prep) {
            return Ok(out);
        }
    }
    read_by_regions(&prep)
}

/// The whole fill read by minimax within [`BUDGET`] positions, or `None` past it.
fn read_whole(prep: &Prepared) -> Option<(Vec<Fill>, Board)> {
    let (live, grid) = (prep.live, prep.grid);
    let n = grid.len();
    let mut search = Search::new(
        prep,
        live,
        prep.owners.clone(),
        prep.plain.clone(),
        prep.hot.clone(),
        2 * (prep.hot_count + prep.plain_points.len()) + 8,
    );
    let root = root_state(prep, prep.plain_points.len() as u32);
    search.negamax(&root, 0, -INF, INF)?;
    // The principal line: the best move of each position on it, read with the full window.
    let mut fills = Vec::new();
    let mut out = live.clone();
    let mut st = Box::new(root);
    let mut plain_next = prep.plain_points.iter().copied();
    let mut removed = Vec::new();
    for _ in 0..4 * n + 4 {
        if st.passes >= 2 {
            break;
        }
        let mv = search.principal_move(&st)?;
        follow(
            &mut out,
            &mut fills,
            mv,
            st.to_move,
            &mut plain_next,
            &mut removed,
        )?;
        let next = search.apply(&st, mv, &mut removed).0;
        search.spare.push(std::mem::replace(&mut st, next));
    }
    Some((fills, out))
}

/// The read points of `board` still empty and the last liberties `atari` of strings in atari,
/// in groups that a fill in one leaves the others alone: points next to each other, liberties
/// of one string that fills could put in atari, or the last liberty of a string in atari and
/// the read points next to that string. A string cannot be put in atari when it has liberties
/// in two regions of its own colour (two eyes, or territory), or two liberties in one such
/// region of three points or more: fills are made on neutral points, and its owner fills no
/// last liberty in a region of its own and connects inside a large one at most once
/// (`FreeMove::Connect`). A region of its own next to a string of two liberties or fewer does
/// not count (the string taken, the region opens to the other side), nor do two liberties in
/// a region of one or two points (the owner may connect on one of them, and a two-point eye
/// is one eye).
fn fill_regions(board: &Board, grid: &Grid, hot: &[bool], atari: &[Point]) -> Vec<Vec<usize>> {
    let n = grid.len();
    // Each string's liberties, by the index of its head, counted once.
    let libs: Vec<Option<Vec<Point>>> = (0..n)
        .map(|i| {
            let q = grid.point(i);
            (board.string_head(q) == Some(q)).then(|| board.liberties_upto(q, 64).to_vec())
        })
        .collect();
    let short = |q: Point| {
        board
            .string_head(q)
            .and_then(|h| libs[grid.index(h)].as_ref())
            .is_some_and(|l| l.len() < 3)
    };
    // The regions of one colour that are eyes no fill can touch: a region next to a string of
    // two liberties or fewer is not (taken, the string opens the region to the other side).
    let mut own_region = single_colour_region_ids(board, grid);
    let mut open_eye = vec![false; n];
    for (i, &id) in own_region.iter().enumerate() {
        if id != usize::MAX && board.neighbors(grid.point(i)).any(short) {
            open_eye[id] = true;
        }
    }
    for id in own_region.iter_mut() {
        if *id != usize::MAX && open_eye[*id] {
            *id = usize::MAX;
        }
    }
    let mut region_size = vec![0usize; n];
    for &id in &own_region {
        if id != usize::MAX {
            region_size[id] += 1;
        }
    }
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    fn join(parent: &mut [usize], i: usize, j: usize) {
        let (a, b) = (find(parent, i), find(parent, j));
        parent[a] = b;
    }
    let mut in_atari = vec![false; n];
    for &l in atari {
        in_atari[grid.index(l)] = true;
    }
    let open = |i: usize| (hot[i] || in_atari[i]) && board.color_at(grid.point(i)).is_none();
    for &l in atari {
        let li = grid.index(l);
        for q in board.neighbors(l) {
            if board.color_at(q).is_none() || board.atari_liberty(q) != Some(l) {
                continue;
            }
            for s in board.string_stones(q) {
                for r in board.neighbors(s) {
                    let j = grid.index(r);
                    if open(j) {
                        join(&mut parent, li, j);
                    }
                }
            }
        }
    }
    for i in (0..n).filter(|&i| open(i)) {
        for j in grid.neighbors(i) {
            if open(j) {
                join(&mut parent, i, j);
            }
        }
    }
    // A string that fills could put in atari joins its liberties (and through a liberty it
    // shares with another such string, that string's: a connection there joins them).
    for (i, libs) in libs.iter().enumerate() {
        let Some(libs) = libs else {
            continue;
        };
        let ids: Vec<usize> = libs
            .iter()
            .map(|l| own_region[grid.index(*l)])
            .filter(|&id| id != usize::MAX)
            .collect();
        let safe = ids.iter().any(|&id| id != ids[0])
            || ids
                .first()
                .is_some_and(|&id| ids.len() >= 2 && region_size[id] >= 3);
        if safe {
            continue;
        }
        for &l in libs {
            join(&mut parent, grid.index(l), i);
        }
    }
    let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
    for i in (0..n).filter(|&i| open(i)) {
        let r = find(&mut parent, i);
        groups.entry(r).or_default().push(i);
    }
    let mut out: Vec<Vec<usize>> = groups.into_values().collect();
    out.sort_unstable();
    out
}

/// The fill read region by region, for boards whose whole fill is too large to read: the
/// points fall into regions that a fill in one leaves the others alone ([`fill_regions`]).
/// Each turn every region is read by minimax alone ([`read_region`]), once with each side to
/// move first, and the mover plays its best move in the region where moving first is worth
/// most against the other side moving first there (the largest "出入", the hottest; a plain
/// dame is worth 2: one point to whoever fills it): a move that must be answered first
/// ("先手先收"), then by worth, a region before a plain dame of the same worth, a region worth
/// nothing (a point only one side can fill) last, and a free move (a connection or a dead
/// stone taken inside one's own area) only when nothing else is left, as in the whole
/// reading; the mover passes when its best move in every region is to pass. This is how
/// players fill the last dame: the dame that also decides the point behind it first (a chain
/// of dame, a gap in a wall), the plain ones after. An error ([`ShallowFill`]) when one region
/// alone is too large to read within [`BUDGET`] positions, when the line takes a stone of the
/// final position (a fight the judgement decided, which one region's moves do not read: the
/// defences outside the region are not among them), or when a move read does not stand on
/// the counted board.
fn read_by_regions(prep: &Prepared) -> Result<(Vec<Fill>, Board), ShallowFill> {
    let (live, grid) = (prep.live, prep.grid);
    let n = grid.len();
    let mut st = Box::new(root_state(prep, prep.plain_points.len() as u32));
    // The moves are made on the search's board by a search of no point (its `apply` alone).
    let mut apply = Search::new(prep, live, Vec::new(), vec![false; n], vec![false; n], 0);
    let mut fills = Vec::new();
    let mut out = live.clone();
    let mut plain_next = prep.plain_points.iter().copied();
    let mut removed = Vec::new();
    // Each region's reading, by its points: (its worth, Black's best move, White's). A fill
    // changes the points of its own region only (the regions leave each other alone), so a
    // region with the same points reads the same, until a capture, a ko, or a free move (a
    // connection or a dead stone taken, off the region's points).
    let mut read: HashMap<Vec<usize>, Region> = HashMap::new();
    for _ in 0..4 * n + 4 {
        if st.passes >= 2 {
            break;
        }
        let mover = st.to_move;
        // Who each point counts for now (each region's search starts from this position),
        // counted when a region is read.
        let mut owners: Option<Vec<Owner>> = None;
        // The best move so far: ((a fill or a capture, not a free move; a move that must be
        // answered; worth; a region before a plain dame), move). A free move (a connection or
        // a dead stone taken inside one's own area) is made only when there is nothing else
        // to fill, as in the whole reading.
        let mut best: Option<((bool, bool, i32, u8), Mv)> = None;
        for region in fill_regions(&st.board, grid, &prep.hot, &st.atari) {
            let r = match read.get(&region) {
                Some(&r) => r,
                None => {
                    let owners = owners.get_or_insert_with(|| ingo_rules::owners(&st.board, &[]));
                    let r = read_region(&st, &region, prep, owners).ok_or_else(|| {
                        ShallowFill::TooLarge(region.iter().map(|&i| grid.point(i)).collect())
                    })?;
                    read.insert(region, r);
                    r
                }
            };
            let (mv, sente) = if mover == Color::Black {
                (r.black, r.black_sente)
            } else {
                (r.white, r.white_sente)
            };
            // A region of the same worth as a plain dame before it (the plain dame wait).
            let rank = (!matches!(mv, Mv::Free(_)), sente, r.worth, 1);
            if mv != Mv::Pass && best.is_none_or(|(w, _)| rank > w) {
                best = Some((rank, mv));
            }
        }
        if st.plain_left > 0 && best.is_none_or(|(w, _)| (true, false, 2, 0) > w) {
            best = Some(((true, false, 2, 0), Mv::Plain));
        }
        let mv = best.map_or(Mv::Pass, |(_, mv)| mv);
        // A region's reading kept from an earlier turn plays on points that are still empty
        // (a fill elsewhere changes no point of it); checked all the same, on both boards, so
        // that a stale move ends the reading instead of playing on a stone.
        let taken = |p: Point| st.board.color_at(p).is_some() || st.real.color_at(p).is_some();
        match mv {
            Mv::Play(p) if st.board.color_at(p).is_some() => return Err(ShallowFill::DoesNotStand),
            Mv::Free(f) if taken(f.point()) => return Err(ShallowFill::DoesNotStand),
            _ => {}
        }
        follow(
            &mut out,
            &mut fills,
            mv,
            mover,
            &mut plain_next,
            &mut removed,
        )
        .ok_or(ShallowFill::DoesNotStand)?;
        let next = apply.apply(&st, mv, &mut removed).0;
        if let Mv::Free(_) = mv {
            read.clear();
        }
        if let Mv::Play(_) = mv {
            // A stone of the final position taken: the fill would decide a fight for life
            // that the judgement decided and that the moves of one region do not read (the
            // defences outside it are not among them). The region reading does not count
            // such a board.
            let stones: Vec<Point> = removed
                .iter()
                .copied()
                .filter(|&q| live.color_at(q).is_some())
                .collect();
            if !stones.is_empty() {
                return Err(ShallowFill::TakesStones(stones));
            }
            if !removed.is_empty() || next.ko.is_some() {
                read.clear();
            }
        }
        apply.spare.push(std::mem::replace(&mut st, next));
    }
    Ok((fills, out))
}

/// One region of `st` read by minimax alone ([`read_by_regions`]), with each side to move
/// first: its worth (what moving first there is worth against the other side moving first),
/// Black's and White's best moves, and whether each must be answered. `None` past [`BUDGET`]
/// positions.
fn read_region(st: &State, region: &[usize], prep: &Prepared, owners: &[Owner]) -> Option<Region> {
    let grid = prep.grid;
    let n = grid.len();
    let mut hot = vec![false; n];
    for &i in region {
        hot[i] = prep.hot[i];
    }
    let mut search = Search::new(
        prep,
        &st.board,
        owners.to_vec(),
        vec![false; n],
        hot,
        2 * region.len() + 8,
    );
    search.local = true;
    let mut local = State {
        plain_left: 0,
        passes: 0,
        captured: false,
        placed: Vec::new(),
        ..st.clone()
    };
    local.atari.retain(|l| region.contains(&grid.index(*l)));
    let mut value_and_move = |to_move: Color| -> Option<(i32, Mv)> {
        local.to_move = to_move;
        let v = search.negamax(&local, 0, -INF, INF)?;
        Some((v, search.principal_move(&local)?))
    };
    let (b, black) = value_and_move(Color::Black)?;
    let (w, white) = value_and_move(Color::White)?;
    // Whether a side's best move threatens more than a plain dame elsewhere is worth (2): its
    // next move there, if the other side does not answer, against the other side's answer.
    let mut removed = Vec::new();
    let mut sente = |color: Color, mv: Mv| -> Option<bool> {
        if mv == Mv::Pass {
            return Some(false);
        }
        local.to_move = color;
        let mut after = *search.apply(&local, mv, &mut removed).0;
        after.passes = 0;
        let reply = search.negamax(&after, 0, -INF, INF)?;
        after.to_move = color;
        let again = search.negamax(&after, 0, -INF, INF)?;
        Some(again + reply > 2)
    };
    let black_sente = sente(Color::Black, black)?;
    let white_sente = sente(Color::White, white)?;
    Some(Region {
        worth: b + w,
        black,
        white,
        black_sente,
        white_sente,
    })
}

/// What [`read_region`] finds in one region.
#[derive(Clone, Copy)]
struct Region {
    /// What moving first there is worth against the other side moving first.
    worth: i32,
    /// Black's best move there.
    black: Mv,
    /// White's best move there.
    white: Mv,
    /// Whether Black's best move threatens more than a plain dame is worth: the other side
    /// must answer it, and it is played before the moves that need no answer ("先手先收").
    black_sente: bool,
    /// The same for White.
    white_sente: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Black's area less White's on `board` (stones and the empty points next to one colour).
    fn area(board: &Board) -> i32 {
        ingo_rules::owners(board, &[])
            .iter()
            .map(|o| match o {
                Owner::Black => 1,
                Owner::White => -1,
                Owner::Shared => 0,
            })
            .sum()
    }

    /// The area after the fill read whole, read region by region, and made one move deep.
    fn counts(board: &Board, first: Color) -> (i32, i32, i32) {
        let grid = Grid::new(board);
        let none = vec![false; grid.len()];
        let prep = Prepared::new(board, board, &grid, first, &none, &none);
        let (_, whole) = read_whole(&prep).expect("read whole");
        let (_, regions) = read_by_regions(&prep).expect("read by regions");
        let mut one = board.clone();
        super::super::fill_neutral(&mut one, board, &grid, &none, first, None);
        (area(&whole), area(&regions), area(&one))
    }

    /// Dame that decide the point behind them. Source: `aeb-pro/KK/KKKissho/01/3` of
    /// Brouwer's collection (outside the shared corpus; Gosei-Kifu, `public/games/`), its
    /// left side (`C12` … `F8`), where Black's fills at `E10` and `D9` made `E9` Black's and
    /// the one-move fill counted B+0.5 on a board recorded W+1.5 (read by regions: W+1.5).
    /// Here the dame `E7 E6` lie between the walls, and `E5` is Black's only while `E6` is
    /// empty or Black's; White's `D4` is a fill Black must answer at `E5` (its `D5` left in
    /// atari), and `D2 D1` are two more dame. Black to fill first, the fill one move deep fills
    /// `E6` and keeps `E5`, as if White had no answer at `D4`: two points too many. The points
    /// fall into two regions, `E7 E6 E5 D4` (joined by `D5`, which fills can put in atari) and
    /// `D2 D1` (the walls have territory behind them), and read region by region the count is
    /// the count of the whole fill read out, whoever fills first.
    #[test]
    fn the_fill_read_by_regions_counts_as_the_whole_fill_read_out() {
        let board = Board::from_ascii(
            "
            . O O O X . . . .
            . O O O X . . . .
            . O O O . X . . .
            . O O O . X . . .
            . O O X . X . . .
            . O O . X X . . .
            . O O O X . . . .
            . O O . X . . . .
            . O O . X . . . .",
        )
        .expect("diagram");
        let grid = Grid::new(&board);
        let at = |s: &str| grid.index(Point::from_gtp(s, 9, 9).expect("point"));
        let none = vec![false; grid.len()];
        let prep = Prepared::new(&board, &board, &grid, Color::Black, &none, &none);
        let mut want = vec![
            vec![at("E7"), at("E6"), at("E5"), at("D4")],
            vec![at("D2"), at("D1")],
        ];
        for r in &mut want {
            r.sort_unstable();
        }
        want.sort_unstable();
        assert_eq!(fill_regions(&board, &grid, &prep.hot, &[]), want);
        for first in [Color::Black, Color::White] {
            let (whole, regions, one) = counts(&board, first);
            assert_eq!(regions, whole, "{first:?} first");
            if first == Color::Black {
                assert_eq!(one, whole + 2, "one move deep, Black first");
            }
        }
    }
}
