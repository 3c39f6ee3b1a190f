//! Zobrist keys, generated at compile time so that every build hashes alike.

use crate::point::CELLS;
use crate::{Color, SplitMix64};

const fn make_table() -> [[u64; 2]; CELLS] {
    let mut t = [[0u64; 2]; CELLS];
    let mut rng = SplitMix64::new(0x1A2B_3C4D_5E6F_7081);
    let mut i = 0;
    while i < CELLS {
        let a = rng.next_u64();
        let b = rng.next_u64();
        t[i] = [a, b];
        i += 1;
    }
    t
}

static STONE: [[u64; 2]; CELLS] = make_table();

/// Keys for the side to move (the side keys of docs/rules.md §4).
const SIDE: [u64; 2] = [0x6A09_E667_F3BC_C908, 0xBB67_AE85_84CA_A73B];

/// The key of a stone of `color` on cell `idx`.
#[inline]
pub(crate) fn stone(idx: usize, color: Color) -> u64 {
    STONE[idx][color.index()]
}

/// The key of `color` being to move.
#[inline]
pub(crate) fn side(color: Color) -> u64 {
    SIDE[color.index()]
}
