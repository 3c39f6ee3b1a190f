//! Reading before sampling: the strings of the final position that the tactical reader
//! ([`crate::tactics`]) settles, so that the playouts need not (and cannot) judge them otherwise.
//!
//! A string with few liberties that its owner cannot save even moving first is dead: captured
//! in a ladder, in a net, or in a short capture race the reader plays out (the reader's
//! defender captures attacking strings short of liberties, its attacker fills the outside
//! liberties, so a race of two or three liberties a side is read move by move). The verdict
//! holds whoever is to move in the final position. A reading that meets a ko, or runs out of
//! its budget, settles nothing: the string is left to the playouts.

use ingo_rules::{Board, Point};

use super::Grid;
use crate::tactics::{Limits, Reader, Verdict};

/// How the reader settled a string as dead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Captured {
    /// In a ladder: the attacker's ataris alone capture it.
    Ladder,
    /// By reading: a net or a capture race, whatever its owner plays first.
    Read,
}

/// The most liberties a string may have to be read (a string with more is left to the
/// playouts). Two: a stone with three liberties that the reader cannot bring to four is often a
/// stone of a framework in an unfinished game (the records that end before the last moves),
/// which the reader would call captured where its owner simply has not defended yet.
const MAX_LIBERTIES: usize = 2;

/// The most stones a string read dead by a capture reading other than a ladder may have: the
/// reader reads the fight of a few strings around its target, and a large string's fate in a
/// race depends on strings outside that fight (a larger group read dead this way in the Ing
/// Cup's `01/09` lives in the record).
const MAX_READ_STONES: usize = 3;

/// The bounds of one reading: small, since a final position has a few dozen strings to read and
/// the whole judgement must stay a few milliseconds.
fn limits() -> Limits {
    Limits {
        nodes: 3_000,
        depth: 60,
        escape_liberties: 4,
    }
}

/// For each point of `board`: `Some` when the string on it is not `proved` and the reader
/// captures it whatever its owner plays first.
pub(crate) fn read_dead(board: &Board, grid: &Grid, proved: &[bool]) -> Vec<Option<Captured>> {
    let n = grid.len();
    let mut out: Vec<Option<Captured>> = vec![None; n];
    let mut seen = vec![false; n];
    let mut reader = Reader::new();
    let limits = limits();
    for i in 0..n {
        let p = grid.point(i);
        if seen[i] || board.color_at(p).is_none() {
            continue;
        }
        let stones = board.string_stones(p);
        for &s in &stones {
            seen[grid.index(s)] = true;
        }
        if proved[i] || board.liberty_count(p) > MAX_LIBERTIES || ko_stone(board, p) {
            continue;
        }
        let verdict = capture_verdict(&mut reader, board, p, &limits);
        if let Some(how) = verdict {
            for &s in &stones {
                out[grid.index(s)] = Some(how);
            }
        }
    }
    out
}

/// Whether the string on `p` is captured whatever its owner plays first, and how.
fn capture_verdict(
    reader: &mut Reader,
    board: &Board,
    p: Point,
    limits: &Limits,
) -> Option<Captured> {
    let save = reader.can_save(board, p, limits).ok()?;
    if save.verdict != Verdict::No {
        return None;
    }
    let ladder = board.liberty_count(p) <= 2
        && reader
            .ladder(board, p, false, limits)
            .is_ok_and(|r| r.verdict == Verdict::Yes);
    if ladder {
        Some(Captured::Ladder)
    } else if board.string_size(p) <= MAX_READ_STONES {
        Some(Captured::Read)
    } else {
        None
    }
}

/// Whether the stone on `p` is a single stone in atari whose capture would be a ko (the
/// capturing stone would stand alone with one liberty, the point just taken): a ko left on the
/// board at the end is the fill's business, not a dead string.
fn ko_stone(board: &Board, p: Point) -> bool {
    let Some(color) = board.color_at(p) else {
        return false;
    };
    if board.string_size(p) != 1 {
        return false;
    }
    let libs = board.liberties_upto(p, 2);
    let [l] = libs.as_slice() else {
        return false;
    };
    let capturer = color.opponent();
    // The capturing stone touches no stone of its own and has no empty neighbour: its only
    // liberty after the capture is `p`.
    board
        .neighbors(*l)
        .all(|q| q == p || board.color_at(q) == Some(color))
        && board
            .neighbors(*l)
            .all(|q| board.color_at(q) != Some(capturer))
        && board.analyze(*l, capturer).captured_stones == 1
}
