//! Benson's unconditional life: the strings of one colour that no sequence of opponent moves can
//! capture, even if their owner always passes (D. B. Benson, "Life in the game of Go", 1976).

use ingo_rules::{Board, Color};

use super::Grid;

/// Which points hold a stone of `color` that is unconditionally alive.
///
/// The algorithm: the `color`-enclosed regions are the connected sets of points without a stone
/// of `color`. A region is *vital* to a string when every empty point of it is a liberty of the
/// string. Repeatedly drop the strings with fewer than two vital regions among those left, and
/// the regions bordered by a dropped string; the strings that remain are alive.
pub(crate) fn unconditionally_alive(board: &Board, grid: &Grid, color: Color) -> Vec<bool> {
    let n = grid.len();
    // Strings of `color`, numbered.
    let mut string_of = vec![usize::MAX; n];
    let mut strings: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        if board.color_at(grid.point(i)) == Some(color) && string_of[i] == usize::MAX {
            let id = strings.len();
            let mut stones = Vec::new();
            let mut stack = vec![i];
            string_of[i] = id;
            while let Some(j) = stack.pop() {
                stones.push(j);
                for k in grid.neighbors(j) {
                    if string_of[k] == usize::MAX && board.color_at(grid.point(k)) == Some(color) {
                        string_of[k] = id;
                        stack.push(k);
                    }
                }
            }
            strings.push(stones);
        }
    }
    // Regions: connected sets of points without a `color` stone.
    let mut region_of = vec![usize::MAX; n];
    let mut regions: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        if string_of[i] == usize::MAX && region_of[i] == usize::MAX {
            let id = regions.len();
            let mut pts = Vec::new();
            let mut stack = vec![i];
            region_of[i] = id;
            while let Some(j) = stack.pop() {
                pts.push(j);
                for k in grid.neighbors(j) {
                    if string_of[k] == usize::MAX && region_of[k] == usize::MAX {
                        region_of[k] = id;
                        stack.push(k);
                    }
                }
            }
            regions.push(pts);
        }
    }
    // For each region: the strings bordering it, and the strings it is vital to.
    let mut borders: Vec<Vec<usize>> = vec![Vec::new(); regions.len()];
    let mut vital_to: Vec<Vec<usize>> = vec![Vec::new(); regions.len()];
    for (r, pts) in regions.iter().enumerate() {
        let mut b = Vec::new();
        for &j in pts {
            for k in grid.neighbors(j) {
                let s = string_of[k];
                if s != usize::MAX && !b.contains(&s) {
                    b.push(s);
                }
            }
        }
        for &s in &b {
            let vital = pts.iter().all(|&j| {
                board.color_at(grid.point(j)).is_some()
                    || grid.neighbors(j).any(|k| string_of[k] == s)
            });
            if vital {
                vital_to[r].push(s);
            }
        }
        borders[r] = b;
    }
    let mut string_alive = vec![true; strings.len()];
    let mut region_alive = vec![true; regions.len()];
    loop {
        let mut vital_count = vec![0usize; strings.len()];
        for r in 0..regions.len() {
            if region_alive[r] {
                for &s in &vital_to[r] {
                    vital_count[s] += 1;
                }
            }
        }
        let mut changed = false;
        for s in 0..strings.len() {
            if string_alive[s] && vital_count[s] < 2 {
                string_alive[s] = false;
                changed = true;
            }
        }
        for r in 0..regions.len() {
            if region_alive[r] && borders[r].iter().any(|&s| !string_alive[s]) {
                region_alive[r] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    (0..n)
        .map(|i| string_of[i] != usize::MAX && string_alive[string_of[i]])
        .collect()
}
