//! Heavy playouts, in the manner of MoGo (Gelly, Wang, Munos and Teytaud, "Modification of UCT
//! with Patterns in Monte-Carlo Go", 2006) and Pachi's "moggy" policy: each move of a playout
//! answers the last moves before it plays at random.
//!
//! The policy, in order of priority, for the player to move:
//!
//! 1. **Escape**: when the last move put strings of the player in atari, capture an opponent
//!    string in atari next to one of them, or extend on its liberty when that gives the string
//!    three liberties or more, or two that a ladder does not take ([`ladder_captures`], a cheap
//!    reading without backtracking that agrees with [`crate::tactics::Reader::ladder`] on 139
//!    of 153 decided ladders of random 9×9 positions; each ply of the reader copies a board, and
//!    it took a fifth of a 19×19 heavy playout's time).
//! 2. **Capture**: an opponent string in atari on or around the last move (the biggest first).
//! 3. **Nakade**: an empty space of three points next to the last move, bounded by stones of
//!    one colour: its vital point (the one touching the other two), which kills an opponent's
//!    eye space or makes two eyes of the player's own.
//! 4. **Shape**: a 3×3 pattern ([`Shapes`]) around the last move, or when none matches there
//!    around the second-last move (MoGo's hane, cut and edge patterns, in Pachi's variants),
//!    chosen at random among those matched.
//! 5. **Random**: uniform among the legal plays that fill no eye of the player's own, are not
//!    suicide and are not the self-atari of three stones or more.
//!
//! No move of any step is a self-atari of three stones or more ([`self_atari_stones`]). A
//! self-atari of one or two stones is allowed: it is a throw-in, or a nakade of a two-point
//! space, and the opponent's capture leaves at most two empty points, which make no two eyes
//! by themselves; refusing them would leave eyes that random play cannot take away. Simple, and
//! on the side of playing such moves: some of them only give stones away.
//!
//! Ing's rules everywhere: every move is played through [`Game::play`], which refuses what Ing
//! forbids (single-stone suicide, retaking a hot stone, the cycle bans), and the policy never
//! chooses block suicide (legal under Ing, "塊子自盡…不禁著", but it only gives stones away).

use std::cell::RefCell;
use std::sync::OnceLock;

use ingo_rules::{Board, Cell, Color, Game, Move, Point};

use crate::light::{is_candidate, pick};
use crate::rng::Rng;

/// The most plies of the ladder reading of an escape ([`ladder_captures`]); a ladder longer
/// than this counts as an escape.
const LADDER_PLIES: usize = 40;

thread_local! {
    /// The board a ladder is read on, and the stones its plays remove, one per thread.
    static LADDER_SCRATCH: RefCell<(Option<Board>, Vec<Point>)> =
        const { RefCell::new((None, Vec::new())) };
}

/// The eight neighbours of a point as (column, row) offsets, in the order of the 3×3 key:
/// north-west, north, north-east, west, east, south-west, south, south-east.
const AROUND: [(isize, isize); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The positions in [`AROUND`] of the four orthogonal neighbours (north, west, east, south),
/// whose atari is part of the key.
const ORTHOGONAL: [usize; 4] = [1, 3, 4, 6];

/// The point `(col, row)` of `board`, `None` off the board.
#[inline]
fn at(board: &Board, col: isize, row: isize) -> Option<Point> {
    if col < 0 || row < 0 || col as usize >= board.width() || row as usize >= board.height() {
        return None;
    }
    Point::new(col as usize, row as usize)
}

/// The key of the 3×3 block around the empty point `p` for `me` to move: two bits per
/// neighbour in the order north-west, north, north-east, west, east, south-west, south,
/// south-east (0 empty, 1 a stone of `me`, 2 an opponent's stone, 3 off the board), then one
/// bit per orthogonal neighbour (bits 16 to 19: north, west, east, south) set when the stone
/// there is in atari. 20 bits in all.
pub fn shape_key(board: &Board, p: Point, me: Color) -> u32 {
    let (c, r) = (p.col() as isize, p.row() as isize);
    let mut key = 0u32;
    for (k, &(dc, dr)) in AROUND.iter().enumerate() {
        let code = match at(board, c + dc, r + dr) {
            None => 3,
            Some(q) => match board.get(q) {
                Cell::Empty => 0,
                Cell::Edge => 3,
                Cell::Black | Cell::White => {
                    if let Some(o) = ORTHOGONAL.iter().position(|&x| x == k) {
                        if board.in_atari(q) {
                            key |= 1 << (16 + o);
                        }
                    }
                    if board.color_at(q) == Some(me) {
                        1
                    } else {
                        2
                    }
                }
            },
        };
        key |= code << (2 * k);
    }
    key
}

/// The 5×5 block around a point as the heavy policy reads it, once per move: the code of each
/// cell for `me` to move (as in [`shape_key`]: 0 empty, 1 own stone, 2 opponent's, 3 off the
/// board) and the points, row by row from the north-west corner; the centre is cell 12.
/// Ataris are read from the board only where a key needs them.
struct Window {
    codes: [u8; 25],
    points: [Option<Point>; 25],
}

impl Window {
    /// The cell of offset `(dc, dr)` from the centre (both in -2..=2).
    #[inline]
    const fn cell(dc: isize, dr: isize) -> usize {
        ((dr + 2) * 5 + dc + 2) as usize
    }

    fn new(board: &Board, centre: Point, me: Color) -> Window {
        let (c, r) = (centre.col() as isize, centre.row() as isize);
        let mut w = Window {
            codes: [3; 25],
            points: [None; 25],
        };
        let own = match me {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        };
        let (w_cols, h_rows) = (board.width() as isize, board.height() as isize);
        for dr in -2..=2 {
            let row = r + dr;
            if row < 0 || row >= h_rows {
                continue;
            }
            for dc in -2..=2 {
                let col = c + dc;
                if col < 0 || col >= w_cols {
                    continue;
                }
                let Some(q) = Point::new(col as usize, row as usize) else {
                    continue;
                };
                let i = Window::cell(dc, dr);
                w.points[i] = Some(q);
                let cell = board.get(q);
                w.codes[i] = match cell {
                    Cell::Empty => 0,
                    Cell::Edge => 3,
                    _ if cell == own => 1,
                    _ => 2,
                };
            }
        }
        w
    }

    /// The number of empty cells next to the cell of offset `(dc, dr)` (within -1..=1).
    #[inline]
    fn empty_around(&self, dc: isize, dr: isize) -> usize {
        [(0, -1), (-1, 0), (1, 0), (0, 1)]
            .iter()
            .filter(|&&(a, b)| self.codes[Window::cell(dc + a, dr + b)] == 0)
            .count()
    }

    /// The 16 bits of [`shape_key`] that the cells give, for the neighbour `k` of the centre
    /// (in the order of [`AROUND`]).
    #[inline]
    fn cells_key(&self, k: usize) -> u32 {
        let (kc, kr) = AROUND[k];
        let mut key = 0u32;
        for (j, &(dc, dr)) in AROUND.iter().enumerate() {
            let i = Window::cell(kc + dc, kr + dr);
            key |= u32::from(self.codes[i]) << (2 * j);
        }
        key
    }

    /// [`shape_key`] of the neighbour `k` of the centre: [`Window::cells_key`] and the ataris of
    /// its orthogonal neighbours, read from `board`.
    #[inline]
    fn key(&self, board: &Board, k: usize) -> u32 {
        let (kc, kr) = AROUND[k];
        let mut key = self.cells_key(k);
        for (o, &j) in ORTHOGONAL.iter().enumerate() {
            let (dc, dr) = AROUND[j];
            let i = Window::cell(kc + dc, kr + dr);
            if let (Some(q), 1 | 2) = (self.points[i], self.codes[i]) {
                if board.in_atari(q) {
                    key |= 1 << (16 + o);
                }
            }
        }
        key
    }

    /// The point and code of the neighbour `k` of the centre.
    #[inline]
    fn near(&self, k: usize) -> (Option<Point>, u8) {
        let (dc, dr) = AROUND[k];
        let i = Window::cell(dc, dr);
        (self.points[i], self.codes[i])
    }
}

/// A 3×3 pattern as written: three rows of three characters, the centre `.` (the move), and
/// whether it holds only when X is to move.
///
/// `X`, `O`: a stone of either colour (X one colour, O the other; unless the pattern is for X to
/// move only, it holds with the colours swapped too); `Y`, `Q`: an X or O stone not in atari
/// (on a diagonal, where the key has no atari bit, any X or O stone); `x`, `o`: anything but an
/// X or an O stone (the edge included); `.`: empty; `#`: off the board; `?`: anything.
struct Pattern {
    rows: [&'static str; 3],
    x_to_move: bool,
}

/// MoGo's patterns (Gelly et al. 2006, figures 2 to 5) in the variants of Pachi's moggy policy
/// (`playout/moggy.c`), X being either colour unless marked.
const PATTERNS: [Pattern; 15] = [
    // Hane: enclosing hane.
    Pattern {
        rows: ["XOX", "...", "???"],
        x_to_move: false,
    },
    // Hane: non-cutting hane.
    Pattern {
        rows: ["YO.", "...", "?.?"],
        x_to_move: false,
    },
    // Hane: magari.
    Pattern {
        rows: ["XO?", "X..", "x.?"],
        x_to_move: false,
    },
    // Hane: thin hane, X to move.
    Pattern {
        rows: ["XOO", "...", "?.?"],
        x_to_move: true,
    },
    // Katatsuke or diagonal attachment.
    Pattern {
        rows: [".Q.", "Y..", "..."],
        x_to_move: false,
    },
    // Cut 1 (kiri): unprotected cut.
    Pattern {
        rows: ["XO?", "O.o", "?o?"],
        x_to_move: false,
    },
    // Cut 1: peeped cut.
    Pattern {
        rows: ["XO?", "O.X", "???"],
        x_to_move: false,
    },
    // Cut 2 (de).
    Pattern {
        rows: ["?X?", "O.O", "ooo"],
        x_to_move: false,
    },
    // Cut keima.
    Pattern {
        rows: ["OX?", "o.O", "???"],
        x_to_move: false,
    },
    // Edge: chase.
    Pattern {
        rows: ["X.?", "O.?", "##?"],
        x_to_move: false,
    },
    // Edge: block a cut.
    Pattern {
        rows: ["OX?", "X.O", "###"],
        x_to_move: false,
    },
    // Edge: block a connection.
    Pattern {
        rows: ["?X?", "x.O", "###"],
        x_to_move: false,
    },
    // Edge: sagari.
    Pattern {
        rows: ["?XQ", "x.x", "###"],
        x_to_move: false,
    },
    // Edge: throw-in, X to move.
    Pattern {
        rows: ["?OX", "o.O", "?##"],
        x_to_move: true,
    },
    // Edge: cut.
    Pattern {
        rows: ["?OY", "Y.O", "###"],
        x_to_move: false,
    },
];

/// The 3×3 shapes of the heavy policy as a table over [`shape_key`]: one bit per key, every
/// pattern (MoGo's, in Pachi's variants) expanded over its wildcards, the eight symmetries of the square and
/// (unless it is for X to move only) both colourings. 2^20 bits, 128 KiB, built once.
pub struct Shapes {
    bits: Box<[u64]>,
    /// The same over the 16 bits of the cells alone: set when some atari bits make a match.
    /// 8 KiB, so that the common key that matches nothing is refused from the first level cache.
    cells: Box<[u64]>,
}

impl Shapes {
    /// The table, built on first use.
    pub fn get() -> &'static Shapes {
        static SHAPES: OnceLock<Shapes> = OnceLock::new();
        SHAPES.get_or_init(Shapes::build)
    }

    /// Whether the key matches one of the patterns.
    #[inline]
    pub fn matches(&self, key: u32) -> bool {
        if !self.may_match(key & 0xFFFF) {
            return false;
        }
        let k = key as usize;
        self.bits[k >> 6] >> (k & 63) & 1 != 0
    }

    /// Whether some atari bits would make the 16 bits of cells `cells` match.
    #[inline]
    fn may_match(&self, cells: u32) -> bool {
        let c = cells as usize;
        self.cells[c >> 6] >> (c & 63) & 1 != 0
    }

    fn build() -> Shapes {
        let mut bits = vec![0u64; (1 << 20) / 64].into_boxed_slice();
        for pat in &PATTERNS {
            let grid: Vec<Vec<u8>> = pat.rows.iter().map(|r| r.bytes().collect()).collect();
            for sym in 0..8 {
                // `me` plays X; and, unless the pattern is X's only, O.
                for x_is_me in [true, false] {
                    if pat.x_to_move && !x_is_me {
                        continue;
                    }
                    // Allowed (code, atari) pairs per neighbour of the key.
                    let mut allowed: [Vec<(u32, u32)>; 8] = Default::default();
                    for (k, &(dc, dr)) in AROUND.iter().enumerate() {
                        let (sc, sr) = untransform(sym, dc, dr);
                        let ch = grid[(sr + 1) as usize][(sc + 1) as usize];
                        allowed[k] = cell_options(ch, x_is_me, ORTHOGONAL.contains(&k));
                    }
                    expand(&allowed, 0, 0, &mut bits);
                }
            }
        }
        let mut cells = vec![0u64; (1 << 16) / 64].into_boxed_slice();
        for (w, &word) in bits.iter().enumerate() {
            let mut m = word;
            while m != 0 {
                let k = w * 64 + m.trailing_zeros() as usize;
                let c = k & 0xFFFF;
                cells[c >> 6] |= 1 << (c & 63);
                m &= m - 1;
            }
        }
        Shapes { bits, cells }
    }
}

/// The pattern offset that symmetry `sym` carries to the key offset `(dc, dr)`: one of the
/// eight maps of the square (swap the axes or not, then mirror either).
fn untransform(sym: u8, dc: isize, dr: isize) -> (isize, isize) {
    let (mut c, mut r) = if sym & 4 != 0 { (dr, dc) } else { (dc, dr) };
    if sym & 1 != 0 {
        c = -c;
    }
    if sym & 2 != 0 {
        r = -r;
    }
    (c, r)
}

/// The (code, atari bit) pairs a pattern character allows at one neighbour; `orthogonal`: the
/// key has an atari bit there.
fn cell_options(ch: u8, x_is_me: bool, orthogonal: bool) -> Vec<(u32, u32)> {
    let (x, o) = if x_is_me { (1, 2) } else { (2, 1) };
    let any_atari = |code: u32| -> Vec<(u32, u32)> {
        if orthogonal && (code == 1 || code == 2) {
            vec![(code, 0), (code, 1)]
        } else {
            vec![(code, 0)]
        }
    };
    let codes: Vec<(u32, u32)> = match ch {
        b'X' => any_atari(x),
        b'O' => any_atari(o),
        b'Y' => vec![(x, 0)],
        b'Q' => vec![(o, 0)],
        b'x' => [0, o, 3].iter().flat_map(|&c| any_atari(c)).collect(),
        b'o' => [0, x, 3].iter().flat_map(|&c| any_atari(c)).collect(),
        b'.' => vec![(0, 0)],
        b'#' => vec![(3, 0)],
        _ => [0, 1, 2, 3].iter().flat_map(|&c| any_atari(c)).collect(),
    };
    codes
}

/// Sets the bit of every key that the options from neighbour `k` on allow, `key` holding the
/// choices before it.
fn expand(allowed: &[Vec<(u32, u32)>; 8], k: usize, key: u32, bits: &mut [u64]) {
    if k == 8 {
        bits[(key >> 6) as usize] |= 1 << (key & 63);
        return;
    }
    let atari_bit = ORTHOGONAL.iter().position(|&x| x == k);
    for &(code, atari) in &allowed[k] {
        let mut next = key | code << (2 * k);
        if let Some(o) = atari_bit {
            next |= atari << (16 + o);
        }
        expand(allowed, k + 1, next, bits);
    }
}

/// How many stones of `me` a play on the empty point `p` would leave in atari: the size of the
/// string it makes when that string has exactly one liberty and the play captures nothing; 0
/// otherwise (two liberties or more, a capture, or suicide, which has none).
pub fn self_atari_stones(board: &Board, p: Point, me: Color) -> usize {
    let mut libs: [Option<Point>; 2] = [None, None];
    let add = |l: Point, libs: &mut [Option<Point>; 2]| -> bool {
        if l == p || libs.contains(&Some(l)) {
            return false;
        }
        if libs[0].is_none() {
            libs[0] = Some(l);
            false
        } else {
            libs[1] = Some(l);
            true
        }
    };
    let mut heads: [Option<Point>; 4] = [None; 4];
    let mut stones = 1;
    for q in board.neighbors(p) {
        match board.color_at(q) {
            None => {
                if add(q, &mut libs) {
                    return 0;
                }
            }
            Some(c) if c == me => {
                let h = board.string_head(q);
                if heads.contains(&h) {
                    continue;
                }
                if let Some(slot) = heads.iter_mut().find(|s| s.is_none()) {
                    *slot = h;
                }
                stones += board.string_size(q);
                for l in board.liberties_upto(q, 3) {
                    if add(l, &mut libs) {
                        return 0;
                    }
                }
            }
            Some(_) => {
                if board.atari_liberty(q) == Some(p) {
                    return 0;
                }
            }
        }
    }
    if libs[0].is_some() {
        stones
    } else {
        0
    }
}

/// The distinct liberties (counted up to three) that the string made by `me` playing on `p`
/// would have; a capture counts as three (it gives liberties and usually saves).
fn liberties_after(board: &Board, p: Point, me: Color) -> usize {
    liberties_after_but(board, p, me, p)
}

/// [`liberties_after`] not counting the point `but` (where the opponent is about to play).
fn liberties_after_but(board: &Board, p: Point, me: Color, but: Point) -> usize {
    let mut libs: [Option<Point>; 3] = [None; 3];
    let mut n = 0;
    let mut add = |l: Point| {
        if l != p && l != but && !libs[..n].contains(&Some(l)) && n < 3 {
            libs[n] = Some(l);
            n += 1;
        }
    };
    for q in board.neighbors(p) {
        match board.color_at(q) {
            None => add(q),
            Some(c) if c == me => board.liberties_upto(q, 4).into_iter().for_each(&mut add),
            Some(_) => {
                if board.atari_liberty(q) == Some(p) {
                    return 3;
                }
            }
        }
    }
    n
}

/// Whether a ladder captures the string on `target`, in atari with its side to move: the
/// cheap reading of a playout, on one copy of the board and without backtracking.
///
/// The defender extends on its liberty (a chasing string in atari that it could capture
/// instead breaks the ladder: escaped); three liberties or more escape, one is captured. With
/// two, the chaser ataris on the one that leaves the defender's next extension the fewest
/// liberties, never with a stone that would itself be in atari. A ladder longer than
/// 40 plies counts as an escape. Kos are not judged: the board alone cannot say which
/// capture Ing's rules allow, and a playout checks its moves with [`Game::play`] anyway.
pub fn ladder_captures(board: &Board, target: Point) -> bool {
    LADDER_SCRATCH.with(|cell| {
        let mut scratch = cell.borrow_mut();
        let (slot, removed) = &mut *scratch;
        let b = match slot {
            Some(b) => {
                b.clone_from(board);
                b
            }
            None => slot.insert(board.clone()),
        };
        read_ladder(b, removed, target)
    })
}

fn read_ladder(b: &mut Board, removed: &mut Vec<Point>, target: Point) -> bool {
    let Some(d) = b.color_at(target) else {
        return false;
    };
    let a = d.opponent();
    for _ in 0..LADDER_PLIES {
        let Some(lib) = b.atari_liberty(target) else {
            return false;
        };
        if chaser_in_atari(b, target, a) {
            return false;
        }
        removed.clear();
        if b.play_unchecked(lib, d, removed) {
            return true;
        }
        let libs = b.liberties_upto(target, 3);
        match libs.len() {
            0 | 1 => return true,
            2 => {}
            _ => return false,
        }
        let mut best: Option<(usize, Point)> = None;
        for (p, other) in [(libs[0], libs[1]), (libs[1], libs[0])] {
            if liberties_after(b, p, a) < 2 {
                continue;
            }
            let escape = liberties_after_but(b, other, d, p);
            if best.is_none_or(|(e, _)| escape < e) {
                best = Some((escape, p));
            }
        }
        match best {
            Some((e, p)) if e <= 2 => {
                removed.clear();
                b.play_unchecked(p, a, removed);
            }
            _ => return false,
        }
    }
    false
}

/// Whether a string of `attacker` next to the string on `target` is in atari.
fn chaser_in_atari(b: &Board, target: Point, attacker: Color) -> bool {
    b.string_stones(target).into_iter().any(|s| {
        b.neighbors(s)
            .any(|q| b.color_at(q) == Some(attacker) && b.in_atari(q))
    })
}

/// Whether the policy may play `p` at all: a candidate of the light policy (no own eye filled,
/// no suicide) that is not the self-atari of three stones or more. Ko legality is left to
/// [`Game::play`].
#[inline]
fn acceptable(board: &Board, p: Point, me: Color) -> bool {
    board.get(p) == Cell::Empty
        && !board.is_eye_or_suicide(p, me)
        && self_atari_stones(board, p, me) < 3
}

/// Plays `p` if the policy accepts it and the rules allow it.
fn try_play(game: &mut Game, p: Point, me: Color) -> bool {
    acceptable(game.board(), p, me) && game.play(Move::Play(p)).is_ok()
}

/// Tries the points of `cands` in a random order; plays and returns the first accepted.
fn try_random_order(
    game: &mut Game,
    rng: &mut Rng,
    cands: &mut [Point],
    me: Color,
) -> Option<Point> {
    let mut m = cands.len();
    while m > 0 {
        let i = rng.below(m as u32) as usize;
        let p = cands[i];
        if try_play(game, p, me) {
            return Some(p);
        }
        m -= 1;
        cands.swap(i, m);
    }
    None
}

/// Step 1: save the strings of `me` that the last move (on `last`) put in atari.
fn escape(game: &mut Game, rng: &mut Rng, win: &Window, me: Color) -> Option<Point> {
    let board = game.board();
    let mut targets: [Option<Point>; 4] = [None; 4];
    let mut n = 0;
    for k in ORTHOGONAL {
        if let (Some(q), 1) = win.near(k) {
            if !board.in_atari(q) {
                continue;
            }
            let h = board.string_head(q);
            if !targets[..n].contains(&h) {
                targets[n] = h;
                n += 1;
            }
        }
    }
    for t in targets[..n].iter().flatten().copied() {
        let board = game.board();
        // Capture an opponent string in atari touching the target.
        let mut caps: Vec<Point> = Vec::new();
        for s in board.string_stones(t) {
            for q in board.neighbors(s) {
                if board.color_at(q) == Some(me.opponent()) {
                    if let Some(l) = board.atari_liberty(q) {
                        if !caps.contains(&l) {
                            caps.push(l);
                        }
                    }
                }
            }
        }
        if let Some(p) = try_random_order(game, rng, &mut caps, me) {
            return Some(p);
        }
        let board = game.board();
        let Some(lib) = board.atari_liberty(t) else {
            continue;
        };
        let libs = liberties_after(board, lib, me);
        let works = match libs {
            0 | 1 => false,
            2 => !ladder_captures(board, t),
            _ => true,
        };
        if works && try_play(game, lib, me) {
            return Some(lib);
        }
    }
    None
}

/// Step 2: capture an opponent string in atari on or around `last`, the biggest first.
fn capture(game: &mut Game, rng: &mut Rng, last: Point, win: &Window) -> Option<Point> {
    let me = game.to_move();
    let board = game.board();
    let mut cands: [(usize, Point); 9] = [(0, last); 9];
    let mut n = 0;
    let centre = (Some(last), 2);
    for (q, code) in std::iter::once(centre).chain((0..8).map(|k| win.near(k))) {
        let (Some(q), 2) = (q, code) else {
            continue;
        };
        if let Some(l) = board.atari_liberty(q) {
            if !cands[..n].iter().any(|&(_, x)| x == l) {
                cands[n] = (board.string_size(q), l);
                n += 1;
            }
        }
    }
    let cands = &mut cands[..n];
    // Biggest first, ties in a random order.
    for c in cands.iter_mut() {
        c.0 = c.0 * 1024 + rng.below(1024) as usize;
    }
    cands.sort_unstable_by_key(|c| std::cmp::Reverse(c.0));
    cands
        .iter()
        .map(|&(_, p)| p)
        .find(|&p| try_play(game, p, me))
}

/// The vital point of the empty region containing `e` when it has exactly three points and
/// every stone around it is of one colour.
fn nakade_point(board: &Board, e: Point) -> Option<Point> {
    let mut region: [Option<Point>; 4] = [None; 4];
    region[0] = Some(e);
    let mut n = 1;
    let mut i = 0;
    let mut wall: Option<Color> = None;
    while i < n {
        let Some(p) = region[i] else { break };
        i += 1;
        for q in board.neighbors(p) {
            match board.color_at(q) {
                None => {
                    if !region[..n].contains(&Some(q)) {
                        if n == 4 {
                            return None;
                        }
                        region[n] = Some(q);
                        n += 1;
                    }
                }
                Some(c) => match wall {
                    None => wall = Some(c),
                    Some(w) if w != c => return None,
                    Some(_) => {}
                },
            }
        }
    }
    if n != 3 || wall.is_none() {
        return None;
    }
    let pts = [region[0]?, region[1]?, region[2]?];
    pts.iter().copied().find(|&p| {
        board
            .neighbors(p)
            .filter(|q| pts.contains(q) && *q != p)
            .count()
            == 2
    })
}

/// Step 3: the vital point of a three-point space next to `last`.
fn nakade(game: &mut Game, win: &Window, me: Color) -> Option<Point> {
    let board = game.board();
    let mut seen: [Option<Point>; 4] = [None; 4];
    let mut n = 0;
    for k in ORTHOGONAL {
        let (Some(e), 0) = win.near(k) else {
            continue;
        };
        // A point of a three-point space has one or two empty neighbours.
        let (dc, dr) = AROUND[k];
        if !(1..=2).contains(&win.empty_around(dc, dr)) {
            continue;
        }
        if let Some(v) = nakade_point(board, e) {
            if !seen[..n].contains(&Some(v)) {
                seen[n] = Some(v);
                n += 1;
            }
        }
    }
    seen[..n]
        .iter()
        .flatten()
        .copied()
        .find(|&v| try_play(game, v, me))
}

/// Step 4: a 3×3 shape around a recent move (`w`: its window), chosen at random among those
/// that match.
fn shape(game: &mut Game, rng: &mut Rng, w: &Window, me: Color) -> Option<Point> {
    let shapes = Shapes::get();
    let board = game.board();
    let mut cands: [Option<Point>; 8] = [None; 8];
    let mut n = 0;
    for k in 0..8 {
        if let (Some(q), 0) = w.near(k) {
            if shapes.may_match(w.cells_key(k)) && shapes.matches(w.key(board, k)) {
                cands[n] = Some(q);
                n += 1;
            }
        }
    }
    let mut m = n;
    while m > 0 {
        let i = rng.below(m as u32) as usize;
        if let Some(p) = cands[i] {
            if try_play(game, p, me) {
                return Some(p);
            }
        }
        m -= 1;
        cands.swap(i, m);
    }
    None
}

/// Plays the heavy policy's move for the player to move and returns it; `None` (the game
/// unchanged) when the policy has no board play to make.
pub(crate) fn play_heavy(game: &mut Game, rng: &mut Rng) -> Option<Point> {
    let me = game.to_move();
    if game.board().empty_count() == 0 {
        return None;
    }
    let mut recent: [Option<Point>; 2] = [None, None];
    for (slot, m) in recent.iter_mut().zip(game.history().rev()) {
        if let Move::Play(p) = m.mv {
            *slot = Some(p);
        }
    }
    let board = game.board();
    let last_win = recent[0].map(|p| Window::new(board, p, me));
    // The last move's stone, unless it was removed (block suicide).
    if let (Some(l), Some(w)) = (recent[0], &last_win) {
        if w.codes[12] == 2 {
            if let Some(p) = escape(game, rng, w, me) {
                return Some(p);
            }
            if let Some(p) = capture(game, rng, l, w) {
                return Some(p);
            }
            if let Some(p) = nakade(game, w, me) {
                return Some(p);
            }
        }
    }
    if let Some(p) = last_win.and_then(|w| shape(game, rng, &w, me)) {
        return Some(p);
    }
    // The second-last move's window is read only when the last move's shapes gave nothing.
    if let Some(m) = recent[1] {
        let w = Window::new(game.board(), m, me);
        if let Some(p) = shape(game, rng, &w, me) {
            return Some(p);
        }
    }
    pick(game, rng, |g, p| {
        is_candidate(g, p, me)
            && self_atari_stones(g.board(), p, me) < 3
            && g.play(Move::Play(p)).is_ok()
    })
}

#[cfg(test)]
mod tests {
    use ingo_rules::{Rules, Setup};

    use super::*;

    fn board(ascii: &str) -> Board {
        Board::from_ascii(ascii).expect("test diagram")
    }

    fn pt(b: &Board, s: &str) -> Point {
        Point::from_gtp(s, b.width(), b.height()).expect("vertex")
    }

    #[test]
    fn self_atari_counts_the_stones_left_in_atari() {
        let b = board(
            "
            . . . . .
            . O O O .
            O X X X O
            . O . O .
            . . . . .",
        );
        // The three Black stones have C2 alone: Black on C2 leaves four stones on C1.
        assert_eq!(self_atari_stones(&b, pt(&b, "C2"), Color::Black), 4);
        // White on C2 captures them: not self-atari.
        assert_eq!(self_atari_stones(&b, pt(&b, "C2"), Color::White), 0);
        // A lone Black stone on A2 has A1 alone.
        assert_eq!(self_atari_stones(&b, pt(&b, "A2"), Color::Black), 1);
        // On A1 it has A2 and B1.
        assert_eq!(self_atari_stones(&b, pt(&b, "A1"), Color::Black), 0);
        // Suicide leaves nothing in atari (it is refused elsewhere).
        let b = board(
            "
            . O .
            O . .
            . . .",
        );
        assert_eq!(self_atari_stones(&b, pt(&b, "A3"), Color::Black), 0);
    }

    #[test]
    fn the_shape_table_matches_a_hane_in_every_orientation() {
        let shapes = Shapes::get();
        // Enclosing hane "XOX / ... / ???" with Black stones on the corners of the top row and
        // White between them: the point below White matches, for either colour to move.
        let b = board(
            "
            . . . . .
            . X O X .
            . . . . .
            . . . . .
            . . . . .",
        );
        let p = pt(&b, "C3");
        assert!(shapes.matches(shape_key(&b, p, Color::Black)));
        assert!(shapes.matches(shape_key(&b, p, Color::White)));
        // Rotated a quarter turn: X, O, X down a column.
        let b = board(
            "
            . . . . .
            . X . . .
            . O . . .
            . X . . .
            . . . . .",
        );
        assert!(shapes.matches(shape_key(&b, pt(&b, "C3"), Color::White)));
        // An empty neighbourhood matches nothing.
        let b = Board::new(5).expect("size");
        assert!(!shapes.matches(shape_key(&b, pt(&b, "C3"), Color::Black)));
    }

    #[test]
    fn window_keys_are_the_shape_keys() {
        let mut g = Game::new(Setup::empty(9).expect("size"), Rules::ing());
        let mut rng = Rng::new(9);
        for _ in 0..60 {
            let _ = crate::light::play_random(&mut g, &mut rng);
        }
        let b = g.board();
        for centre in b.points() {
            for me in [Color::Black, Color::White] {
                let w = Window::new(b, centre, me);
                for k in 0..8 {
                    if let (Some(q), 0) = w.near(k) {
                        assert_eq!(w.key(b, k), shape_key(b, q, me), "{centre:?} {k}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_cheap_ladder_reads_a_ladder_and_its_breaker() {
        // White C4 in atari runs along a staircase to the edge: captured.
        let b = board(
            "
            . . . . . . .
            . . . . . . .
            . . X X . . .
            . X O . . . .
            . . X . . . .
            . . . . . . .
            . . . . . . .",
        );
        assert!(ladder_captures(&b, pt(&b, "C4")));
        // A White stone on the ladder's path (F2) breaks it.
        let b = board(
            "
            . . . . . . .
            . . . . . . .
            . . X X . . .
            . X O . . . .
            . . X . . . .
            . . . . . O .
            . . . . . . .",
        );
        let reader =
            crate::tactics::ladder(&b, pt(&b, "C4"), false, &Default::default()).expect("a stone");
        assert_eq!(reader.verdict, crate::tactics::Verdict::No);
        assert!(!ladder_captures(&b, pt(&b, "C4")));
        // A stone with three liberties after the extension escapes at once.
        let b = board(
            "
            . . . . .
            . . . . .
            . X O . .
            . . X . .
            . . . . .",
        );
        assert!(!ladder_captures(&b, pt(&b, "C3")));
    }

    #[test]
    fn the_cheap_ladder_agrees_with_the_tactical_reader() {
        // Every string in atari of random 9x9 positions whose extension gives two liberties,
        // where the reader (default limits) decides.
        let (mut agree, mut total) = (0, 0);
        for seed in 0..200 {
            let mut g = Game::new(Setup::empty(9).expect("size"), Rules::ing());
            let mut rng = Rng::new(seed);
            for _ in 0..(20 + seed % 60) {
                if crate::light::play_random(&mut g, &mut rng).is_none() {
                    let _ = g.play(Move::Pass);
                }
            }
            let b = g.board();
            for p in b.points() {
                let Some(c) = b.color_at(p) else { continue };
                if b.string_head(p) != Some(p) {
                    continue;
                }
                let Some(lib) = b.atari_liberty(p) else {
                    continue;
                };
                if liberties_after(b, lib, c) != 2 {
                    continue;
                }
                let r = crate::tactics::ladder(b, p, false, &Default::default()).expect("stone");
                if r.verdict == crate::tactics::Verdict::Unknown {
                    continue;
                }
                total += 1;
                agree += usize::from(
                    (r.verdict == crate::tactics::Verdict::Yes) == ladder_captures(b, p),
                );
            }
        }
        println!("cheap ladder: {agree} of {total} agree with the reader");
        assert!(total > 100, "{total}");
        assert!(agree * 100 >= total * 90, "{agree} of {total}");
    }

    #[test]
    fn the_vital_point_of_a_three_point_space() {
        // A White straight three D1-C1-B1 closed by White stones: its vital point is C1.
        let b = board(
            "
            . . . . .
            . . . . .
            . . . . .
            O O O O O
            O . . . O",
        );
        assert_eq!(nakade_point(&b, pt(&b, "B1")), Some(pt(&b, "C1")));
        // A four-point space has none.
        let b = board(
            "
            . . . . .
            . . . . .
            . . . . .
            O O O O O
            . . . . O",
        );
        assert_eq!(nakade_point(&b, pt(&b, "B1")), None);
    }
}
