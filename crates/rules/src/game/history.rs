//! The history of a game: its plies (16 bytes each; the stones they removed in one shared
//! arena), a packed snapshot of the board every `SNAPSHOT_EVERY` plies, and the rebuilding of
//! any earlier board from them ([`Game::cells_at`]), which confirms every hash match so that a
//! collision never decides a verdict.

use std::sync::Arc;

use crate::board::Cell;
use crate::color::Color;
use crate::ko::LocalShape;
use crate::point::{Move, Point, CELLS};
use crate::zobrist;

use super::Game;

pub(super) const F_SUICIDE: u8 = 1;

pub(super) const F_KO_CAPTURE: u8 = 2;

pub(super) const F_ATTACKING: u8 = 4;

pub(super) const F_FORCED: u8 = 8;

/// The play's (situation, point) is already in `bans`: later cycles need not insert it again.
pub(super) const F_BANNED: u8 = 16;

/// A board's cells at two bits each (a snapshot).
pub(super) type Packed = [u8; CELLS.div_ceil(4)];

pub(super) fn pack(cells: &[Cell; CELLS]) -> Packed {
    let mut out = [0u8; CELLS.div_ceil(4)];
    // Four cells a byte, a whole byte at a time: this runs every `SNAPSHOT_EVERY` moves of every
    // playout.
    for (byte, four) in out.iter_mut().zip(cells.chunks(4)) {
        *byte = four
            .iter()
            .enumerate()
            .fold(0, |acc, (k, &c)| acc | (c as u8) << (2 * k));
    }
    out
}

fn unpack(packed: &Packed) -> [Cell; CELLS] {
    let mut cells = [Cell::Edge; CELLS];
    for (i, cell) in cells.iter_mut().enumerate() {
        *cell = match (packed[i / 4] >> (2 * (i % 4))) & 3 {
            0 => Cell::Empty,
            1 => Cell::Black,
            2 => Cell::White,
            _ => Cell::Edge,
        };
    }
    cells
}

/// Plies between two snapshots of the board kept for [`Game::cells_at`].
pub(super) const SNAPSHOT_EVERY: usize = 128;

pub(super) const NO_POINT: u16 = 0;

/// One move of the history, 16 bytes. Removed stones live in a shared arena: a ply's stones
/// run from its `removed_start` to the next ply's (see [`Game::removed_by`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Ply {
    pub(super) pos_after: u64,
    pub(super) removed_start: u32,
    pub(super) pt: u16,
    pub(super) color: Color,
    pub(super) flags: u8,
}

// The history's footprint is part of the performance contract (at most 64 bytes a ply).
const _: () = assert!(std::mem::size_of::<Ply>() == 16);

impl Ply {
    pub(super) fn point(&self) -> Option<Point> {
        (self.pt != NO_POINT).then_some(Point(self.pt))
    }
}

/// A played move as the history shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedMove<'a> {
    /// Who moved.
    pub color: Color,
    /// The move.
    pub mv: Move,
    /// The stones it removed (the opponent's, or the player's own block on suicide).
    pub removed: &'a [Point],
    /// The play removed the player's own block.
    pub suicide: bool,
    /// The play was a ko capture (one stone, leaving a one-stone string in atari there).
    pub ko_capture: bool,
    /// The play left an opponent string next to it with one liberty.
    pub attacking: bool,
    /// The play was accepted in tolerant replay despite a ko rule ([`Game::play_tolerant`]).
    pub forced: bool,
}

impl Game {
    /// The heap bytes held by the history: the moves (16 bytes each), the removed stones, the
    /// tables of situations and positions seen, the cycle bans and disturbances, and the board
    /// snapshots (shared with clones, counted here in full). Exact for the vectors; for the hash
    /// tables, the bucket arrays as `hashbrown` lays them out (an entry and a control byte per
    /// bucket). Reserved room counts, since it is allocated. Not included: the board (about
    /// 15 KB, boxed), the setup and the `Game` value itself.
    ///
    /// ```
    /// use ingo_rules::{Game, Move, Point, Rules, Setup};
    /// let mut game = Game::new(Setup::empty(9).unwrap(), Rules::ing());
    /// game.play(Move::Play(Point::from_gtp("E5", 9, 9).unwrap())).unwrap();
    /// // Room for two moves per point is reserved from the start: 162 moves of 16 bytes.
    /// assert!(game.history_bytes() >= 162 * 16);
    /// ```
    pub fn history_bytes(&self) -> usize {
        use std::mem::size_of;
        fn table_bytes(capacity: usize, entry: usize) -> usize {
            // hashbrown keeps a power-of-two number of buckets, at most 7/8 full (all but one
            // below 8 buckets), plus one control byte per bucket and a 16-byte group at the end.
            let buckets = match capacity {
                0 => return 0,
                c if c < 8 => (c + 1).next_power_of_two(),
                c => (c * 8 / 7).next_power_of_two(),
            };
            buckets * (entry + 1) + 16
        }
        self.hist.capacity() * size_of::<Ply>()
            + self.removed.capacity() * size_of::<Point>()
            + self.last_seen.heap_bytes()
            + table_bytes(self.pos_seen.capacity(), size_of::<u64>())
            + table_bytes(self.bans.capacity(), size_of::<((u64, u16), u32)>())
            + self.more_bans.capacity() * size_of::<((u64, u16), u32)>()
            // R5's shapes (rare: one per answered disturbing capture) are not counted.
            + table_bytes(self.disturb_used.capacity(), size_of::<(u64, Vec<LocalShape>)>())
            + self.snapshots.capacity() * size_of::<Arc<Packed>>()
            // Each snapshot: the packed cells and the Arc's two counters.
            + self.snapshots.len() * (size_of::<Packed>() + 2 * size_of::<usize>())
    }

    /// The history, oldest first.
    pub fn history(&self) -> impl DoubleEndedIterator<Item = PlayedMove<'_>> + ExactSizeIterator {
        (0..self.hist.len()).map(move |k| self.played(k))
    }

    /// The stones removed by move `k` (0-based).
    pub(super) fn removed_by(&self, k: usize) -> &[Point] {
        let start = self.hist[k].removed_start as usize;
        let end = self
            .hist
            .get(k + 1)
            .map_or(self.removed.len(), |next| next.removed_start as usize);
        &self.removed[start..end]
    }

    pub(super) fn played(&self, k: usize) -> PlayedMove<'_> {
        let ply = &self.hist[k];
        PlayedMove {
            color: ply.color,
            mv: ply.point().map_or(Move::Pass, Move::Play),
            removed: self.removed_by(k),
            suicide: ply.flags & F_SUICIDE != 0,
            ko_capture: ply.flags & F_KO_CAPTURE != 0,
            attacking: ply.flags & F_ATTACKING != 0,
            forced: ply.flags & F_FORCED != 0,
        }
    }

    /// The last move, if any.
    pub fn last_move(&self) -> Option<PlayedMove<'_>> {
        self.hist.len().checked_sub(1).map(|k| self.played(k))
    }

    /// Stones of `color` removed from the board so far (prisoners taken by its opponent, and own
    /// stones lost to block suicide).
    pub fn stones_lost(&self, color: Color) -> usize {
        (0..self.hist.len())
            .map(|k| {
                let ply = &self.hist[k];
                let lost = if ply.flags & F_SUICIDE != 0 {
                    ply.color
                } else {
                    ply.color.opponent()
                };
                if lost == color {
                    self.removed_by(k).len()
                } else {
                    0
                }
            })
            .sum()
    }

    pub(super) fn pos_before(&self, t: usize) -> u64 {
        if t == 0 {
            self.start_hash
        } else {
            self.hist[t - 1].pos_after
        }
    }

    pub(super) fn color_at_index(&self, t: usize) -> Color {
        self.hist.get(t).map_or(self.to_move, |p| p.color)
    }

    /// The cells of the position after the first `t` moves, rebuilt by walking back from the
    /// current one. Used only to confirm a hash match, so a collision never decides a verdict.
    pub(super) fn cells_at(&self, t: usize) -> Box<[Cell; CELLS]> {
        // Start from the first snapshot at or after `t` (the setup for `t == 0`, the current board
        // when there is none) and walk back from there.
        let k = t.div_ceil(SNAPSHOT_EVERY);
        let (mut cells, from) = if t == 0 {
            return Box::new(self.setup.board.cells);
        } else if let Some(snap) = self.snapshots.get(k - 1) {
            (Box::new(unpack(snap)), k * SNAPSHOT_EVERY)
        } else {
            (Box::new(self.board.cells), self.hist.len())
        };
        for k in (t..from).rev() {
            let ply = &self.hist[k];
            let lost = if ply.flags & F_SUICIDE != 0 {
                ply.color
            } else {
                ply.color.opponent()
            };
            let cell = match lost {
                Color::Black => Cell::Black,
                Color::White => Cell::White,
            };
            for p in self.removed_by(k) {
                cells[p.idx()] = cell;
            }
            if ply.pt != NO_POINT {
                cells[ply.pt as usize] = Cell::Empty;
            }
        }
        cells
    }

    /// The latest index `t <= upto` (number of moves played) at which the situation hashed `sit`
    /// stood. A backward scan of the history, run only when the situation table has a hit.
    pub(super) fn latest_index_of(&self, sit: u64, upto: usize) -> Option<usize> {
        (0..=upto.min(self.hist.len()))
            .rev()
            .find(|&t| self.pos_before(t) ^ zobrist::side(self.color_at_index(t)) == sit)
    }
}
