//! Zobrist keys, generated at compile time so that every build hashes alike.

use crate::point::CELLS;
use crate::Color;

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn make_table() -> [[u64; 2]; CELLS] {
    let mut t = [[0u64; 2]; CELLS];
    let mut state = 0x1A2B_3C4D_5E6F_7081u64;
    let mut i = 0;
    while i < CELLS {
        let (s1, a) = splitmix64(state);
        let (s2, b) = splitmix64(s1);
        state = s2;
        t[i] = [a, b];
        i += 1;
    }
    t
}

static STONE: [[u64; 2]; CELLS] = make_table();

/// Keys for the side to move (`ZS` in the spec).
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
