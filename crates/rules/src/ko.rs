//! Ko pairs, ko complexes and their local keys (docs/rules.md §4, "Definitions"): the structures behind the
//! twin-hot rule R4 and the disturbing-ko limit R5. Everything here runs only on ko captures that
//! attack, so it favours clarity over speed.

use arrayvec::ArrayVec;

use crate::board::{neighbors, Board, Cell};
use crate::point::Point;
use crate::{zobrist, SplitMix64};

/// A ko pair `(x, y)`: `y` holds a one-stone string whose only liberty is `x`, and every other
/// neighbour of `x` is a stone of that string's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KoPair {
    pub x: u16,
    pub y: u16,
}

pub(crate) fn is_pair(b: &Board, x: usize, y: usize) -> bool {
    if b.cells[x] != Cell::Empty {
        return false;
    }
    let cy = b.cells[y];
    if !matches!(cy, Cell::Black | Cell::White) || b.next[y] as usize != y {
        return false;
    }
    // y's only liberty is x: y is a single stone, so look at its neighbours directly.
    if neighbors(y)
        .into_iter()
        .any(|q| q != x && b.cells[q] == Cell::Empty)
    {
        return false;
    }
    if !neighbors(y).contains(&x) {
        return false;
    }
    neighbors(x)
        .into_iter()
        .all(|q| q == y || b.cells[q] == cy || b.cells[q] == Cell::Edge)
}

/// Heads of the strings of at least two stones adjacent to the pair (on neighbours of `x` and of
/// `y`, not counting the stone on `y`), Black's and White's.
fn big_strings(b: &Board, pair: KoPair) -> [ArrayVec<u16, 8>; 2] {
    let mut out: [ArrayVec<u16, 8>; 2] = [ArrayVec::new(), ArrayVec::new()];
    let (x, y) = (pair.x as usize, pair.y as usize);
    for q in neighbors(x).into_iter().chain(neighbors(y)) {
        if q == y {
            continue;
        }
        if let Some(c) = b.cells[q].color() {
            let h = b.head[q];
            let p = Point(h);
            if b.string_size(p) >= 2 {
                let list = &mut out[c as usize];
                if !list.contains(&h) && !list.is_full() {
                    list.push(h);
                }
            }
        }
    }
    out
}

/// The ko complex containing `start`: the connected component of ko pairs, two pairs being linked
/// when some Black string and some White string, each of at least two stones, touch both.
pub(crate) fn complex(b: &Board, start: KoPair) -> Vec<KoPair> {
    let first = big_strings(b, start);
    if first.iter().any(|list| list.is_empty()) {
        // A link needs a big string of each colour touching both pairs: without one of them
        // around `start`, nothing links to it (the common case of a lone ko), and the search
        // below would walk every string around only to find that.
        return vec![start];
    }
    let mut pairs = vec![start];
    let mut strings = vec![first];
    let mut i = 0;
    while i < pairs.len() {
        let cur = strings[i].clone();
        for color_list in cur.iter() {
            for &h in color_list {
                for cand in pairs_touching(b, h as usize) {
                    if pairs.contains(&cand) {
                        continue;
                    }
                    let s2 = big_strings(b, cand);
                    let linked = (0..2).all(|c| cur[c].iter().any(|h| s2[c].contains(h)));
                    if linked {
                        pairs.push(cand);
                        strings.push(s2);
                    }
                }
            }
        }
        i += 1;
    }
    pairs
}

/// The ko pairs a string touches: through its liberties (as `x`) and through the opponent's
/// single stones in atari next to it (as `y`).
fn pairs_touching(b: &Board, h: usize) -> Vec<KoPair> {
    let mut out = Vec::new();
    let push = |p: KoPair, out: &mut Vec<KoPair>| {
        if !out.contains(&p) {
            out.push(p);
        }
    };
    let mut s = h;
    loop {
        for q in neighbors(s) {
            match b.cells[q] {
                Cell::Empty => {
                    for y in neighbors(q) {
                        if is_pair(b, q, y) {
                            push(
                                KoPair {
                                    x: q as u16,
                                    y: y as u16,
                                },
                                &mut out,
                            );
                        }
                    }
                }
                Cell::Black | Cell::White if b.head[q] != b.head[s] => {
                    if let Some(x) = b.atari_liberty(Point(q as u16)) {
                        if is_pair(b, x.idx(), q) {
                            push(
                                KoPair {
                                    x: x.0,
                                    y: q as u16,
                                },
                                &mut out,
                            );
                        }
                    }
                }
                _ => {}
            }
        }
        s = b.next[s] as usize;
        if s == h {
            return out;
        }
    }
}

/// The local key of a complex: the colours on its points, and for every string next to it, its
/// stones and its liberty count. Equal keys mean the same local shape with the same liberties
/// around it, so R5 treats the capture as the same disturbance.
pub(crate) fn local_key(b: &Board, pairs: &[KoPair]) -> u64 {
    let mut key = 0u64;
    let mut heads: Vec<u16> = Vec::new();
    for pair in pairs {
        for i in [pair.x as usize, pair.y as usize] {
            key ^= SplitMix64::mix(((i as u64) << 2) | b.cells[i] as u64);
            for q in neighbors(i) {
                if b.cells[q].color().is_some() && !heads.contains(&b.head[q]) {
                    heads.push(b.head[q]);
                }
            }
        }
    }
    for h in heads {
        let p = Point(h);
        let stones = b.string_stones(p).iter().fold(0u64, |a, s| {
            a ^ b.cells[s.idx()]
                .color()
                .map_or(0, |c| zobrist::stone(s.idx(), c))
        });
        key ^= SplitMix64::mix(
            stones ^ (b.liberty_count(p) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
    }
    key
}

/// The exact local shape that [`local_key`] hashes, with the play that disturbs: the colours on
/// the complex's points, and every string next to it with its stones and liberty count. R5
/// refuses a disturbing capture only when this, not just the key, equals an earlier one's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LocalShape {
    /// (point, cell) of each pair's two points, sorted.
    points: Vec<(u16, u8)>,
    /// (sorted stones, colour, liberty count) of each string next to the complex, sorted.
    strings: Vec<(Vec<u16>, u8, usize)>,
    /// The capturing play: point and colour.
    play: (u16, u8),
}

/// The [`LocalShape`] of the complex `pairs` on `b` for the play of `color` on `p`.
pub(crate) fn local_shape(
    b: &Board,
    pairs: &[KoPair],
    p: Point,
    color: crate::Color,
) -> LocalShape {
    let mut points = Vec::with_capacity(2 * pairs.len());
    let mut heads: Vec<u16> = Vec::new();
    for pair in pairs {
        for i in [pair.x as usize, pair.y as usize] {
            points.push((i as u16, b.cells[i] as u8));
            for q in neighbors(i) {
                if b.cells[q].color().is_some() && !heads.contains(&b.head[q]) {
                    heads.push(b.head[q]);
                }
            }
        }
    }
    points.sort_unstable();
    let mut strings: Vec<(Vec<u16>, u8, usize)> = heads
        .into_iter()
        .map(|h| {
            let head = Point(h);
            let mut stones: Vec<u16> = b.string_stones(head).iter().map(|s| s.0).collect();
            stones.sort_unstable();
            (stones, b.cells[h as usize] as u8, b.liberty_count(head))
        })
        .collect();
    strings.sort_unstable();
    LocalShape {
        points,
        strings,
        play: (p.0, color as u8),
    }
}
