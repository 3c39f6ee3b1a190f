//! The board: stones, strings (chains), captures and the position hash.
//!
//! Strings keep *pseudo-liberties* (one per stone–empty-neighbour adjacency) with their sum and sum
//! of squares, so that "no liberty" and "exactly one liberty" are O(1) questions, merges are
//! O(smaller string) and a move allocates nothing. Exact liberty counts are computed on demand,
//! only on the rare paths (ko complexes) that need them.

use std::fmt;

use arrayvec::ArrayVec;

use crate::color::Color;
use crate::point::{Point, CELLS, MAX_SIZE, STRIDE};
use crate::zobrist;

/// What occupies a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Cell {
    /// No stone.
    Empty = 0,
    /// A Black stone.
    Black = 1,
    /// A White stone.
    White = 2,
    /// Outside the board.
    Edge = 3,
}

impl Cell {
    #[inline]
    fn of(color: Color) -> Cell {
        match color {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }

    /// The colour of the stone here, if any.
    #[inline]
    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}

#[inline]
pub(crate) fn neighbors(i: usize) -> [usize; 4] {
    [i - STRIDE, i - 1, i + 1, i + STRIDE]
}

/// Offsets into a [`Board::window`], the 3×3 block around a point (row stride [`STRIDE`]).
struct Window;

impl Window {
    const N: usize = 1;
    const W: usize = STRIDE;
    const E: usize = STRIDE + 2;
    const S: usize = 2 * STRIDE + 1;
    const DIAGONALS: [usize; 4] = [0, 2, 2 * STRIDE, 2 * STRIDE + 2];

    /// A bit for each kind of cell.
    #[inline]
    fn kind(c: Cell) -> u8 {
        1 << (c as u8)
    }

    /// The kinds of cell among the four orthogonal neighbours.
    #[inline]
    fn orthogonal_kinds(w: &[Cell; 2 * STRIDE + 3]) -> u8 {
        Window::kind(w[Window::N])
            | Window::kind(w[Window::W])
            | Window::kind(w[Window::E])
            | Window::kind(w[Window::S])
    }

    /// The diagonal rule of an eye-like point whose neighbours are all `color` or the edge: no
    /// opponent diagonal on the edge (a point is on the edge exactly when a neighbour is), at
    /// most one in the centre.
    #[inline]
    fn diagonals_allow_eye(w: &[Cell; 2 * STRIDE + 3], color: Color, kinds: u8) -> bool {
        let opp = Cell::of(color.opponent());
        let bad = Window::DIAGONALS.iter().filter(|&&d| w[d] == opp).count();
        if kinds & Window::kind(Cell::Edge) != 0 {
            bad == 0
        } else {
            bad <= 1
        }
    }
}

/// What a board play would do, computed without changing the board ([`Board::analyze`]).
#[derive(Clone, Debug)]
pub struct PlayAnalysis {
    /// Heads of the opponent strings the play captures (at most four).
    pub(crate) captured_heads: ArrayVec<u16, 4>,
    /// Number of opponent stones captured.
    pub captured_stones: usize,
    /// The play leaves its own string without liberties and captures nothing.
    pub suicide: bool,
    /// The play touches no stone of its own colour (a suicide is then single-stone suicide, 顆子自盡).
    pub lone: bool,
    /// The position hash after the play.
    pub hash_after: u64,
}

/// A Go board of any size from 1×1 to 25×25 (rectangles too), with incremental strings and hash.
pub struct Board {
    width: u8,
    height: u8,
    pub(crate) cells: [Cell; CELLS],
    /// Next stone of the same string (a circular list).
    pub(crate) next: [u16; CELLS],
    /// The string's representative stone.
    pub(crate) head: [u16; CELLS],
    // Per string, valid at the head:
    plibs: [u16; CELLS],
    lsum: [u32; CELLS],
    lsq: [u32; CELLS],
    nstones: [u16; CELLS],
    /// The empty points, in no particular order, and each empty point's index in that list.
    empties: [u16; MAX_SIZE * MAX_SIZE],
    empty_pos: [u16; CELLS],
    n_empty: u16,
    hash: u64,
    stones: [u16; 2],
}

impl Board {
    /// The cells a board of this height can touch: its rows and the guard rows above and below.
    /// Everything past them stays as [`Board::with_dims`] left it, so a copy between boards of
    /// one size need not move it.
    #[inline]
    fn used_cells(&self) -> usize {
        (self.height as usize + 2) * STRIDE
    }
}

impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            width: self.width,
            height: self.height,
            cells: self.cells,
            next: self.next,
            head: self.head,
            plibs: self.plibs,
            lsum: self.lsum,
            lsq: self.lsq,
            nstones: self.nstones,
            empties: self.empties,
            empty_pos: self.empty_pos,
            n_empty: self.n_empty,
            hash: self.hash,
            stones: self.stones,
        }
    }

    /// Copies `src` into this board. Between boards of one size only the used rows move (the
    /// board's rows and the guard rows around them): on 9×9 that is 297 of the 729 cells, and a
    /// search copies its root board before every playout.
    fn clone_from(&mut self, src: &Board) {
        if (self.width, self.height) != (src.width, src.height) {
            *self = src.clone();
            return;
        }
        let n = src.used_cells();
        self.cells[..n].copy_from_slice(&src.cells[..n]);
        self.next[..n].copy_from_slice(&src.next[..n]);
        self.head[..n].copy_from_slice(&src.head[..n]);
        self.plibs[..n].copy_from_slice(&src.plibs[..n]);
        self.lsum[..n].copy_from_slice(&src.lsum[..n]);
        self.lsq[..n].copy_from_slice(&src.lsq[..n]);
        self.nstones[..n].copy_from_slice(&src.nstones[..n]);
        self.empty_pos[..n].copy_from_slice(&src.empty_pos[..n]);
        let e = src.n_empty as usize;
        self.empties[..e].copy_from_slice(&src.empties[..e]);
        self.n_empty = src.n_empty;
        self.hash = src.hash;
        self.stones = src.stones;
    }
}

impl PartialEq for Board {
    /// Boards are equal when their sizes and stones are; string bookkeeping is derived data.
    fn eq(&self, other: &Self) -> bool {
        self.width == other.width && self.height == other.height && self.cells == other.cells
    }
}
impl Eq for Board {}

/// The error for a board size outside 1..=25.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unsupported board size {width}x{height}: sides must be 1 to 25")]
pub struct BoardSizeError {
    /// The width asked for.
    pub width: usize,
    /// The height asked for.
    pub height: usize,
}

impl Board {
    /// An empty square board.
    ///
    /// # Errors
    /// When `size` is not in 1..=25.
    pub fn new(size: usize) -> Result<Board, BoardSizeError> {
        Board::with_dims(size, size)
    }

    /// An empty `width × height` board.
    ///
    /// # Errors
    /// When a side is not in 1..=25.
    pub fn with_dims(width: usize, height: usize) -> Result<Board, BoardSizeError> {
        if !(1..=MAX_SIZE).contains(&width) || !(1..=MAX_SIZE).contains(&height) {
            return Err(BoardSizeError { width, height });
        }
        let mut b = Board {
            width: width as u8,
            height: height as u8,
            cells: [Cell::Edge; CELLS],
            next: [0; CELLS],
            head: [0; CELLS],
            plibs: [0; CELLS],
            lsum: [0; CELLS],
            lsq: [0; CELLS],
            nstones: [0; CELLS],
            empties: [0; MAX_SIZE * MAX_SIZE],
            empty_pos: [0; CELLS],
            n_empty: 0,
            hash: 0,
            stones: [0; 2],
        };
        for row in 0..height {
            for col in 0..width {
                let i = (row + 1) * STRIDE + col + 1;
                b.cells[i] = Cell::Empty;
                b.empty_pos[i] = b.n_empty;
                b.empties[b.n_empty as usize] = i as u16;
                b.n_empty += 1;
            }
        }
        Ok(b)
    }

    /// Whether this is one of the board sizes Ing's rules allow: square, with 9, 11, 13, 15, 17 or
    /// 19 lines ("枰道道數除標準棋枰為縱橫各19道外，尚有17*17…15*15…13*13…11*11…9*9…等五種").
    pub fn is_standard_size(&self) -> bool {
        self.width == self.height && matches!(self.width, 9 | 11 | 13 | 15 | 17 | 19)
    }

    /// Board width (columns).
    #[inline]
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Board height (rows).
    #[inline]
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// Number of points.
    #[inline]
    pub fn area(&self) -> usize {
        self.width() * self.height()
    }

    /// Whether `p` lies on this board.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        // Every cell outside the board's rows and columns is a guard cell.
        self.get(p) != Cell::Edge
    }

    /// All points, row by row from the top left.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.height())
            .flat_map(move |r| (0..self.width()).filter_map(move |c| Point::new(c, r)))
    }

    /// What is on `p` (`Cell::Edge` off the board).
    #[inline]
    pub fn get(&self, p: Point) -> Cell {
        self.cells.get(p.idx()).copied().unwrap_or(Cell::Edge)
    }

    /// The colour of the stone on `p`, if any.
    #[inline]
    pub fn color_at(&self, p: Point) -> Option<Color> {
        self.get(p).color()
    }

    /// The Zobrist hash of the stones (the *position*; the side to move is not included).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch, to check the incremental one.
    pub fn recompute_hash(&self) -> u64 {
        self.points()
            .filter_map(|p| self.color_at(p).map(|c| zobrist::stone(p.idx(), c)))
            .fold(0, |a, b| a ^ b)
    }

    /// Number of stones of `color` on the board.
    #[inline]
    pub fn stone_count(&self, color: Color) -> usize {
        self.stones[color.index()] as usize
    }

    /// The empty points, in no particular order.
    pub fn empty_points(&self) -> impl Iterator<Item = Point> + '_ {
        self.empties[..self.n_empty as usize]
            .iter()
            .map(|&i| Point(i))
    }

    /// Number of empty points.
    #[inline]
    pub fn empty_count(&self) -> usize {
        self.n_empty as usize
    }

    /// The `i`-th empty point (for uniform random choice without allocation).
    ///
    /// # Panics
    /// When `i` is not below [`Board::empty_count`], like indexing a slice out of bounds (the
    /// list's room past its end holds stale points, which must never be handed out).
    #[inline]
    pub fn empty_point(&self, i: usize) -> Point {
        let n = self.n_empty as usize;
        assert!(i < n, "Board::empty_point({i}): there are {n} empty points");
        Point(self.empties[i])
    }

    /// The on-board neighbours of `p`.
    pub fn neighbors(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        neighbors(p.idx())
            .into_iter()
            .filter(move |&q| self.cells[q] != Cell::Edge)
            .map(|q| Point(q as u16))
    }

    /// The representative stone of the string on `p`; `None` when `p` holds no stone.
    #[inline]
    pub fn string_head(&self, p: Point) -> Option<Point> {
        self.color_at(p).map(|_| Point(self.head[p.idx()]))
    }

    /// The stones of the string on `p`.
    pub fn string_stones(&self, p: Point) -> Vec<Point> {
        let mut out = Vec::new();
        if self.color_at(p).is_some() {
            let start = p.idx();
            let mut s = start;
            loop {
                out.push(Point(s as u16));
                s = self.next[s] as usize;
                if s == start {
                    break;
                }
            }
        }
        out
    }

    /// Number of stones of the string on `p` (0 when `p` holds no stone).
    #[inline]
    pub fn string_size(&self, p: Point) -> usize {
        if self.color_at(p).is_none() {
            return 0;
        }
        self.nstones[self.head[p.idx()] as usize] as usize
    }

    /// Whether the string with head `h` has exactly one liberty: all its pseudo-liberties are
    /// one point exactly when `n·Σl² = (Σl)²` (and there is at least one).
    #[inline]
    fn one_liberty(&self, h: usize) -> bool {
        let (n, s) = (self.plibs[h] as u64, self.lsum[h] as u64);
        n != 0 && n * self.lsq[h] as u64 == s * s
    }

    /// The single liberty of the string with head `h`, if it has exactly one.
    #[inline]
    fn atari_lib(&self, h: usize) -> Option<usize> {
        self.one_liberty(h)
            .then(|| (self.lsum[h] / u32::from(self.plibs[h])) as usize)
    }

    /// Whether the string with head `h` has exactly one liberty and it is `lib`. All pseudo-liberties
    /// equal `lib` exactly when their sum is `n·lib` and their sum of squares `n·lib²`; this needs
    /// no division, unlike [`Board::atari_lib`], and `analyze` asks it for every neighbour.
    #[inline]
    fn only_liberty_is(&self, h: usize, lib: usize) -> bool {
        let n = self.plibs[h] as u64;
        let lib = lib as u64;
        n != 0 && self.lsum[h] as u64 == n * lib && self.lsq[h] as u64 == n * lib * lib
    }

    /// Whether a string of `color` next to `p` has exactly one liberty.
    #[inline]
    pub(crate) fn next_to_atari(&self, p: Point, color: Color) -> bool {
        let c = Cell::of(color);
        neighbors(p.idx())
            .into_iter()
            .any(|q| self.cells[q] == c && self.one_liberty(self.head[q] as usize))
    }

    /// Whether the string on `p` has exactly one liberty (false when `p` holds no stone).
    #[inline]
    pub fn in_atari(&self, p: Point) -> bool {
        self.color_at(p).is_some() && self.one_liberty(self.head[p.idx()] as usize)
    }

    /// The liberty of the string on `p` when it has exactly one (`None` when `p` holds no stone).
    pub fn atari_liberty(&self, p: Point) -> Option<Point> {
        self.color_at(p)?;
        self.atari_lib(self.head[p.idx()] as usize)
            .map(|i| Point(i as u16))
    }

    /// The distinct liberties of the string on `p`, counted up to `limit` (O(string size));
    /// none when `p` holds no stone.
    pub fn liberties_upto(&self, p: Point, limit: usize) -> ArrayVec<Point, 8> {
        let mut libs: ArrayVec<Point, 8> = ArrayVec::new();
        if self.color_at(p).is_none() {
            return libs;
        }
        let limit = limit.min(8);
        let start = p.idx();
        let mut s = start;
        loop {
            for q in neighbors(s) {
                if self.cells[q] == Cell::Empty && !libs.iter().any(|l| l.idx() == q) {
                    libs.push(Point(q as u16));
                    if libs.len() >= limit {
                        return libs;
                    }
                }
            }
            s = self.next[s] as usize;
            if s == start {
                return libs;
            }
        }
    }

    /// The exact number of liberties of the string on `p` (O(string size + liberties)).
    pub fn liberty_count(&self, p: Point) -> usize {
        let mut seen = [false; CELLS];
        let mut count = 0;
        for s in self.string_stones(p) {
            for q in neighbors(s.idx()) {
                if self.cells[q] == Cell::Empty && !seen[q] {
                    seen[q] = true;
                    count += 1;
                }
            }
        }
        count
    }

    /// XOR of the stone keys of the string with head `h`.
    fn string_hash(&self, h: usize) -> u64 {
        let c = match self.cells[h].color() {
            Some(c) => c,
            None => return 0,
        };
        let mut acc = 0;
        let mut s = h;
        loop {
            acc ^= zobrist::stone(s, c);
            s = self.next[s] as usize;
            if s == h {
                return acc;
            }
        }
    }

    /// What playing `color` on the empty on-board point `p` would do, without doing it.
    ///
    /// # Panics
    /// When `p` is not an empty point of the board (a stone or off the board): what a play
    /// there would do has no meaning. [`Board::get`] says which it is.
    // `iter().any` instead of `contains` below: measured, `contains` on `u16` is a call into a
    // slice search that is not inlined, for arrays of at most three entries (12.9M of 233.7M
    // instructions in 9×9 playouts).
    #[allow(clippy::manual_contains)]
    pub fn analyze(&self, p: Point, color: Color) -> PlayAnalysis {
        let i = p.idx();
        assert!(
            self.cells[i] == Cell::Empty,
            "Board::analyze: {p:?} is not an empty point of the board"
        );
        let kinds = Window::orthogonal_kinds(self.window(i));
        let stone_kinds = Window::kind(Cell::Black) | Window::kind(Cell::White);
        if kinds & stone_kinds == 0 {
            // No string around: nothing to capture or join (most plays early in a game).
            let suicide = kinds & Window::kind(Cell::Empty) == 0;
            return PlayAnalysis {
                captured_heads: ArrayVec::new(),
                captured_stones: 0,
                suicide,
                lone: true,
                hash_after: if suicide {
                    self.hash
                } else {
                    self.hash ^ zobrist::stone(i, color)
                },
            };
        }
        let own = Cell::of(color);
        let opp = Cell::of(color.opponent());
        let mut has_lib = kinds & Window::kind(Cell::Empty) != 0;
        let mut captured_heads: ArrayVec<u16, 4> = ArrayVec::new();
        let mut own_heads: ArrayVec<u16, 4> = ArrayVec::new();
        for q in neighbors(i) {
            let cell = self.cells[q];
            if cell == own {
                let h = self.head[q];
                if !own_heads.iter().any(|&x| x == h) {
                    own_heads.push(h);
                    if !has_lib && !self.only_liberty_is(h as usize, i) {
                        has_lib = true;
                    }
                }
            } else if cell == opp {
                let h = self.head[q];
                if !captured_heads.iter().any(|&x| x == h) && self.only_liberty_is(h as usize, i) {
                    captured_heads.push(h);
                }
            }
        }
        let captured_stones = captured_heads
            .iter()
            .map(|&h| self.nstones[h as usize] as usize)
            .sum();
        let suicide = captured_heads.is_empty() && !has_lib;
        let hash_after = if suicide {
            own_heads
                .iter()
                .fold(self.hash, |a, &h| a ^ self.string_hash(h as usize))
        } else {
            captured_heads
                .iter()
                .fold(self.hash ^ zobrist::stone(i, color), |a, &h| {
                    a ^ self.string_hash(h as usize)
                })
        };
        PlayAnalysis {
            captured_heads,
            captured_stones,
            suicide,
            lone: own_heads.is_empty(),
            hash_after,
        }
    }

    #[inline]
    fn add_lib(&mut self, h: usize, lib: usize) {
        self.plibs[h] += 1;
        self.lsum[h] += lib as u32;
        self.lsq[h] += (lib * lib) as u32;
    }

    #[inline]
    fn remove_lib(&mut self, h: usize, lib: usize) {
        self.plibs[h] -= 1;
        self.lsum[h] -= lib as u32;
        self.lsq[h] -= (lib * lib) as u32;
    }

    fn take_empty(&mut self, i: usize) {
        let pos = self.empty_pos[i] as usize;
        self.n_empty -= 1;
        let last = self.empties[self.n_empty as usize];
        self.empties[pos] = last;
        self.empty_pos[last as usize] = pos as u16;
    }

    fn give_empty(&mut self, i: usize) {
        self.empty_pos[i] = self.n_empty;
        self.empties[self.n_empty as usize] = i as u16;
        self.n_empty += 1;
    }

    /// Puts a stone of `color` on the empty point `i` as a string of its own, with no liberties
    /// yet; the caller accounts for the neighbours.
    #[inline]
    fn put(&mut self, i: usize, color: Color) {
        self.take_empty(i);
        self.cells[i] = Cell::of(color);
        self.hash ^= zobrist::stone(i, color);
        self.stones[color.index()] += 1;
        self.head[i] = i as u16;
        self.next[i] = i as u16;
        self.nstones[i] = 1;
        self.plibs[i] = 0;
        self.lsum[i] = 0;
        self.lsq[i] = 0;
    }

    /// Puts a stone of `color` on the empty point `i` as a string of its own, updating the
    /// liberties of its neighbours, without merging or capturing.
    fn place(&mut self, i: usize, color: Color) {
        self.put(i, color);
        for q in neighbors(i) {
            match self.cells[q] {
                Cell::Empty => self.add_lib(i, q),
                Cell::Black | Cell::White => {
                    let h = self.head[q] as usize;
                    self.remove_lib(h, i);
                }
                Cell::Edge => {}
            }
        }
    }

    /// Joins the strings with heads `a` and `b` (of one colour); returns the new head.
    fn merge(&mut self, a: usize, b: usize) -> usize {
        if a == b {
            return a;
        }
        let (big, small) = if self.nstones[a] >= self.nstones[b] {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.head[s] = big as u16;
            s = self.next[s] as usize;
            if s == small {
                break;
            }
        }
        self.next.swap(big, small);
        self.nstones[big] += self.nstones[small];
        self.plibs[big] += self.plibs[small];
        self.lsum[big] += self.lsum[small];
        self.lsq[big] += self.lsq[small];
        big
    }

    /// Removes the string with head `h`, appending its stones to `out`.
    fn remove_string(&mut self, h: usize, out: &mut Vec<Point>) {
        let color = match self.cells[h].color() {
            Some(c) => c,
            None => return,
        };
        let start = out.len();
        let mut s = h;
        loop {
            out.push(Point(s as u16));
            self.cells[s] = Cell::Empty;
            self.hash ^= zobrist::stone(s, color);
            self.give_empty(s);
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        self.stones[color.index()] -= (out.len() - start) as u16;
        for &stone in &out[start..] {
            let s = stone.idx();
            for q in neighbors(s) {
                if matches!(self.cells[q], Cell::Black | Cell::White) {
                    let hq = self.head[q] as usize;
                    self.add_lib(hq, s);
                }
            }
        }
    }

    /// Plays `color` on the empty on-board point `p` with whatever follows: captures, and the
    /// removal of the player's own string when it is left without liberties (block suicide; the
    /// caller decides whether that is allowed). Removed stones are appended to `removed`.
    ///
    /// Returns `true` when the play removed the player's own string (suicide).
    ///
    /// "Unchecked" means that no rule of play is checked (suicide, ko): that is
    /// [`crate::Game`]'s work. The point itself is checked.
    ///
    /// # Panics
    /// When `p` is not an empty point of the board: a stone put there would corrupt the strings.
    pub fn play_unchecked(&mut self, p: Point, color: Color, removed: &mut Vec<Point>) -> bool {
        let i = p.idx();
        assert!(
            self.cells[i] == Cell::Empty,
            "Board::play_unchecked: {p:?} is not an empty point of the board"
        );
        let own = Cell::of(color);
        let opp = Cell::of(color.opponent());
        self.put(i, color);
        // One pass over the neighbours: liberties, joins, and the opponent strings that may be
        // captured, which are removed only after the pass (a removal gives liberties back to
        // the strings around it, the new one included, and must see them all joined).
        let mut h = i;
        let mut threatened = [0usize; 4];
        let mut n = 0;
        for q in neighbors(i) {
            let cell = self.cells[q];
            if cell == Cell::Empty {
                self.add_lib(h, q);
            } else if cell == own {
                let hq = self.head[q] as usize;
                self.remove_lib(hq, i);
                h = self.merge(h, hq);
            } else if cell == opp {
                let hq = self.head[q] as usize;
                self.remove_lib(hq, i);
                threatened[n] = hq;
                n += 1;
            }
        }
        for &hq in &threatened[..n] {
            // A string next to the stone twice is listed twice; once removed, its head is empty.
            if self.cells[hq] == opp && self.plibs[hq] == 0 {
                self.remove_string(hq, removed);
            }
        }
        if self.plibs[h] == 0 {
            self.remove_string(h, removed);
            return true;
        }
        false
    }

    /// Puts a stone on the empty point `p` as setup (SGF `AB`/`AW`): no captures are made, but a
    /// string left without liberties stays (as setup allows); it is merged with its neighbours.
    pub fn set_stone(&mut self, p: Point, color: Color) {
        let i = p.idx();
        if self.cells[i] != Cell::Empty {
            return;
        }
        self.place(i, color);
        let own = Cell::of(color);
        let mut h = i;
        for q in neighbors(i) {
            if self.cells[q] == own {
                let hq = self.head[q] as usize;
                h = self.merge(h, hq);
            }
        }
    }

    /// Removes the stone on `p` (setup `AE`, or dead stones at counting) and rebuilds the strings.
    pub fn clear_stone(&mut self, p: Point) {
        if self.color_at(p).is_none() {
            return;
        }
        let stones: Vec<(Point, Color)> = self
            .points()
            .filter(|&q| q != p)
            .filter_map(|q| self.color_at(q).map(|c| (q, c)))
            .collect();
        // Rebuilding is O(board), acceptable for setup and counting, and it keeps string
        // splitting (which incremental strings cannot do cheaply) out of the hot path.
        let mut fresh = Board::with_dims(self.width(), self.height())
            .expect("the size of an existing board is valid");
        for (q, c) in stones {
            fresh.set_stone(q, c);
        }
        *self = fresh;
    }

    /// Whether every string has at least one liberty (true of any position reached by play).
    pub fn all_strings_have_liberties(&self) -> bool {
        self.points()
            .filter(|&p| self.color_at(p).is_some())
            .all(|p| self.plibs[self.head[p.idx()] as usize] > 0)
    }

    /// The 3×3 block of cells centred on the on-board point `i`, as one slice: indexing it with
    /// the constants of [`Window`] needs no bounds check per cell, which matters in the tests a
    /// playout runs on every point it considers.
    #[inline]
    fn window(&self, i: usize) -> &[Cell; 2 * STRIDE + 3] {
        let w = &self.cells[i - STRIDE - 1..=i + STRIDE + 1];
        w.try_into()
            .expect("an on-board point has a guard cell on every side")
    }

    /// Whether `p` is an eye-like point of `color`: every on-board neighbour is a stone of
    /// `color`, and the diagonals are not held by the opponent too much (the usual playout rule:
    /// at most one opponent diagonal in the centre, none on the edge).
    /// False when `p` is not an empty point of the board.
    pub fn is_eye(&self, p: Point, color: Color) -> bool {
        if self.get(p) != Cell::Empty {
            return false;
        }
        let w = self.window(p.idx());
        let kinds = Window::orthogonal_kinds(w);
        kinds & (Window::kind(Cell::Empty) | Window::kind(Cell::of(color.opponent()))) == 0
            && Window::diagonals_allow_eye(w, color, kinds)
    }

    /// Whether a light playout passes over the empty point `p` for `color`: the play would fill
    /// an eye-like point of its own ([`Board::is_eye`]) or be suicide (single stone or block).
    /// One look at the four neighbours settles the common case, a point with an empty
    /// neighbour, which is neither; this runs for every point a playout considers.
    ///
    /// True when `p` is not an empty point of the board: there is nothing to play there either.
    #[inline]
    pub fn is_eye_or_suicide(&self, p: Point, color: Color) -> bool {
        if self.get(p) != Cell::Empty {
            return true;
        }
        let w = self.window(p.idx());
        let kinds = Window::orthogonal_kinds(w);
        // Inlined into the playout loop up to here; the rest is a call.
        kinds & Window::kind(Cell::Empty) == 0 && self.eye_or_suicide_crowded(p, color, kinds)
    }

    /// [`Board::is_eye_or_suicide`] for a point without an empty neighbour; `kinds` are the
    /// kinds of its neighbours ([`Window::orthogonal_kinds`]).
    #[inline(never)]
    fn eye_or_suicide_crowded(&self, p: Point, color: Color, kinds: u8) -> bool {
        let i = p.idx();
        let w = self.window(i);
        if kinds & Window::kind(Cell::of(color.opponent())) == 0
            && Window::diagonals_allow_eye(w, color, kinds)
        {
            return true;
        }
        // No empty neighbour: suicide when every string of one's own around has `p` as its last
        // liberty and no opponent string around does (it would be captured).
        let own = Cell::of(color);
        neighbors(i).into_iter().all(|q| match self.cells[q] {
            Cell::Edge => true,
            c => (c == own) == self.only_liberty_is(self.head[q] as usize, i),
        })
    }

    /// Parses an ASCII diagram: rows top to bottom, `X`/`x`/`B`/`#` Black, `O`/`o`/`W`/`@`
    /// White, `.`/`+`/`,` empty. An optional column-letter header line and leading row numbers
    /// are skipped. The board takes the diagram's width and height.
    ///
    /// # Errors
    /// When a row has a different width or an unknown character, or a side is not in 1..=25.
    pub fn from_ascii(text: &str) -> Result<Board, AsciiError> {
        let mut rows: Vec<Vec<Option<Color>>> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() {
                continue;
            }
            if t.split_whitespace().next() == Some("A") {
                continue; // the column header: GTP letters from A
            }
            let body = t.trim_start_matches(|c: char| c.is_ascii_digit()).trim();
            let mut row = Vec::new();
            for c in body.chars() {
                match c {
                    ' ' => {}
                    'X' | 'x' | 'B' | '#' => row.push(Some(Color::Black)),
                    'O' | 'o' | 'W' | '@' => row.push(Some(Color::White)),
                    '.' | '+' | ',' => row.push(None),
                    _ => {
                        return Err(AsciiError {
                            line: n + 1,
                            reason: format!("unexpected character {c:?}"),
                        })
                    }
                }
            }
            if let Some(first) = rows.first() {
                if first.len() != row.len() {
                    return Err(AsciiError {
                        line: n + 1,
                        reason: format!(
                            "row has {} points, the first row {}",
                            row.len(),
                            first.len()
                        ),
                    });
                }
            }
            rows.push(row);
        }
        let height = rows.len();
        let width = rows.first().map_or(0, Vec::len);
        let mut board = Board::with_dims(width, height).map_err(|e| AsciiError {
            line: 0,
            reason: e.to_string(),
        })?;
        for (r, row) in rows.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                if let (Some(color), Some(p)) = (cell, Point::new(c, r)) {
                    board.set_stone(p, *color);
                }
            }
        }
        Ok(board)
    }

    /// The board as ASCII, `X` Black, `O` White, `.` empty, with GTP coordinates.
    pub fn to_ascii(&self) -> String {
        let mut s = String::from("   ");
        for c in 0..self.width() {
            s.push(' ');
            s.push(crate::point::gtp_column(c));
        }
        s.push('\n');
        for r in 0..self.height() {
            s.push_str(&format!("{:>3}", self.height() - r));
            for c in 0..self.width() {
                let p = Point::new(c, r).expect("row and column are within the board");
                s.push(' ');
                s.push(match self.get(p) {
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    _ => '.',
                });
            }
            s.push('\n');
        }
        s
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_ascii())
    }
}

/// An error in an ASCII diagram.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ascii board, line {line}: {reason}")]
pub struct AsciiError {
    /// The line (1-based) of the diagram.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}
