//! Groups read dead by the shape of their eye space ([`crate::tactics::dead_by_shape`]) before
//! the playouts' verdicts stand: a group whose eye space holds the other side's stones in a
//! dead shape (the nakade) and gives it one eye at most is dead, and the stones inside it are
//! alive, whatever share of the playouts held them.

use ingo_rules::Board;

use super::{Decided, Grid, Status, StringStatus};
use crate::tactics::{dead_by_shape, group_at, END_OF_GAME};

/// Marks dead every group [`dead_by_shape`] reads dead, none of whose strings is proved alive
/// and whose walls (the other side's strings next to it or to its outside areas, those inside
/// its regions aside) are not dead themselves; the strings inside its regions are alive.
pub(super) fn read_groups(
    board: &Board,
    grid: &Grid,
    strings: &mut [StringStatus],
    string_of: &[usize],
) {
    let mut read = vec![false; strings.len()];
    for i in 0..strings.len() {
        if read[i] || strings[i].proved {
            continue;
        }
        let Some(group) = group_at(board, strings[i].stones[0], &END_OF_GAME) else {
            continue;
        };
        let own: Vec<usize> = group
            .stones
            .iter()
            .map(|&p| string_of[grid.index(p)])
            .collect();
        for &s in &own {
            read[s] = true;
        }
        if own.iter().any(|&s| strings[s].proved) {
            continue;
        }
        let inside: Vec<usize> = group
            .inside(board)
            .iter()
            .map(|&p| string_of[grid.index(p)])
            .collect();
        let wall_dead = group
            .stones
            .iter()
            .chain(&group.outside)
            .flat_map(|&p| board.neighbors(p))
            .filter(|&q| board.color_at(q) == Some(group.color.opponent()))
            .map(|q| string_of[grid.index(q)])
            .any(|s| !inside.contains(&s) && strings[s].status == Status::Dead);
        if wall_dead || !dead_by_shape(board, &group) {
            continue;
        }
        for &s in &own {
            strings[s].status = Status::Dead;
            strings[s].how = Decided::DeadShape;
        }
        for &s in &inside {
            if !strings[s].proved {
                strings[s].status = Status::Alive;
                strings[s].how = Decided::Nakade;
            }
        }
    }
}
