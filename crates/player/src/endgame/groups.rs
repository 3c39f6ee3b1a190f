//! Groups read dead by the shape of their eye space ([`crate::tactics::dead_by_shape`]) before
//! the playouts' verdicts stand: a group whose eye space holds the other side's stones in a
//! dead shape (the nakade) and gives it one eye at most is dead, and the stones inside it are
//! alive, whatever share of the playouts held them; and groups the playouts are unsure of,
//! read by a bounded search of their life ([`read_searched_groups`]).

use ingo_rules::{Board, Point};

use super::{Decided, Grid, Status, StringStatus, CHECK_ABOVE, CHECK_BELOW};
use crate::tactics::{
    dead_by_shape, group_at, read_group_alive, read_group_dead, strings_next_to, wall_eyes,
    wall_liberties, Group, GroupLimits, Verdict, END_OF_GAME,
};

/// A group read from one of its strings: its own strings and those inside its regions
/// (indices into the judgement's strings).
struct Read {
    group: Group,
    own: Vec<usize>,
    inside: Vec<usize>,
}

impl Read {
    /// The group of string `i` within `limits`, its strings marked `read`; `None` when it is
    /// open or too large, or one of its strings is proved alive.
    fn at(
        board: &Board,
        grid: &Grid,
        strings: &[StringStatus],
        string_of: &[usize],
        read: &mut [bool],
        i: usize,
        limits: &GroupLimits,
    ) -> Option<Read> {
        let group = group_at(board, strings[i].stones[0], limits)?;
        let of = |points: &[Point]| -> Vec<usize> {
            points.iter().map(|&p| string_of[grid.index(p)]).collect()
        };
        let own = of(&group.stones);
        for &s in &own {
            read[s] = true;
        }
        if own.iter().any(|&s| strings[s].proved) {
            return None;
        }
        let inside = of(&group.inside(board));
        Some(Read { group, own, inside })
    }

    /// Its walls: the strings of the other side next to it or to its outside areas, those
    /// inside its regions aside (one stone of each).
    fn walls(&self, board: &Board, grid: &Grid, string_of: &[usize]) -> Vec<Point> {
        let g = &self.group;
        let next_to = g.stones.iter().chain(&g.outside).copied();
        let mut walls = strings_next_to(board, next_to, g.color.opponent());
        walls.retain(|&q| !self.inside.contains(&string_of[grid.index(q)]));
        walls
    }

    /// The strings inside its regions, not proved alive, are alive: the group is read dead.
    fn inside_alive(&self, strings: &mut [StringStatus]) {
        for &s in &self.inside {
            if !strings[s].proved {
                strings[s].status = Status::Alive;
                strings[s].how = Decided::Nakade;
            }
        }
    }
}

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
        let Some(r) = Read::at(board, grid, strings, string_of, &mut read, i, &END_OF_GAME) else {
            continue;
        };
        let wall_dead = r
            .walls(board, grid, string_of)
            .iter()
            .any(|&q| strings[string_of[grid.index(q)]].status == Status::Dead);
        if wall_dead || !dead_by_shape(board, &r.group) {
            continue;
        }
        for &s in &r.own {
            strings[s].status = Status::Dead;
            strings[s].how = Decided::DeadShape;
        }
        r.inside_alive(strings);
    }
}

/// Adds `points` the reading of `group` does not play on yet to its outside areas, so that it
/// plays on them too.
fn add_points(group: &mut Group, points: impl IntoIterator<Item = Point>) {
    for p in points {
        let known = group.outside.contains(&p)
            || group.stones.contains(&p)
            || group.regions.iter().any(|r| r.contains(&p));
        if !known {
            group.outside.push(p);
        }
    }
}

/// The most points a reading of [`read_searched_groups`] plays on once the groups of the walls
/// that may fall are taken in.
const WITH_WALLS: usize = 30;

/// The most positions each such reading visits: with the default 20,000 the readings that
/// end unknown cost a third more time on 13×13 boards, and 5,000 names the same records on
/// every record set.
const WITH_WALLS_NODES: u64 = 5_000;

/// Whether the playouts alone decided `s` and are unsure of it: held between [`CHECK_BELOW`]
/// and [`CHECK_ABOVE`] of them.
fn sampled_unsure(s: &StringStatus) -> bool {
    matches!(s.how, Decided::Sampled(held) if (CHECK_BELOW..=CHECK_ABOVE).contains(&held))
}

/// Marks dead the largest string of every group that [`read_group_dead`] proves taken even
/// when it moves first, where the playouts are unsure of it: one of its strings held between
/// [`CHECK_BELOW`] and [`CHECK_ABOVE`] of them, none proved alive, the group closed within
/// [`GroupLimits::default`] (regions of up to 12 points, outside areas of up to 6, 20 points
/// in all, 20,000 positions). The search plays on those points only and takes the
/// walls around them as they stand, so it is believed only where no wall can fall in a race
/// it does not see: every string of the other side next to the group or to its outside areas
/// (those inside its regions aside) is proved alive, or alive in the judgement and either open
/// ([`wall_liberties`]: neither it nor a group it joins at a point the group's side cannot
/// play is closed) or without a liberty beyond the points read but its own small eyes, which
/// the search is then given too ([`wall_eyes`]: the group's side can take the wall only there,
/// last, and the search sees it). A wall that is none of these, closed and short of eyes, may
/// fall in a race with the group: where its own group is closed within the same limits, the
/// search plays on that group's points too (its stones, regions and outside areas), so the
/// race is read, not assumed, provided the whole reading stays within [`WITH_WALLS`] points
/// and [`WITH_WALLS_NODES`] positions (`castle/cg381`: a race of three strings in a corner).
/// Such a wall may be one the playouts have dead, when they are unsure of it too: then the
/// same reading must prove its group's largest string alive, the group's side moving first
/// (Benson's proof on the points read), or nothing is turned; proved, its strings are alive
/// ([`Decided::WonRace`]). The strings inside the group's regions are then alive.
pub(super) fn read_searched_groups(
    board: &Board,
    grid: &Grid,
    strings: &mut [StringStatus],
    string_of: &[usize],
) {
    let limits = GroupLimits::default();
    let mut read = vec![false; strings.len()];
    for i in 0..strings.len() {
        if read[i] || strings[i].proved || !sampled_unsure(&strings[i]) {
            continue;
        }
        let Some(r) = Read::at(board, grid, strings, string_of, &mut read, i, &limits) else {
            continue;
        };
        let mut group = r.group.clone();
        let mut took_walls = false;
        // The walls taken in that the playouts have dead: they must be read alive too.
        let mut revive: Vec<Group> = Vec::new();
        let in_play = r.group.play_mask();
        let walls_stand = r.walls(board, grid, string_of).into_iter().all(|q| {
            let wall = &strings[string_of[grid.index(q)]];
            if wall.proved {
                return true;
            }
            let alive = wall.status == Status::Alive;
            if alive {
                if wall_liberties(board, q).is_none() {
                    return true;
                }
                if let Some(eyes) = wall_eyes(board, &in_play, q) {
                    add_points(&mut group, eyes);
                    return true;
                }
            }
            if !alive && !sampled_unsure(wall) {
                return false;
            }
            // A wall that may fall, read with the group: its own group's points.
            let Some(wall_group) = group_at(board, q, &limits) else {
                return false;
            };
            took_walls = true;
            add_points(&mut group, wall_group.play_set());
            if !alive {
                revive.push(wall_group);
            }
            true
        });
        let in_reach = !took_walls || group.play_set().len() <= WITH_WALLS;
        let reading = if took_walls {
            GroupLimits {
                nodes: WITH_WALLS_NODES,
                ..limits
            }
        } else {
            limits
        };
        if !walls_stand || !in_reach || read_group_dead(board, &group, &reading) != Verdict::Yes {
            continue;
        }
        // A wall the playouts have dead stands only if the same reading proves it alive.
        let walls_live = revive.iter().all(|w| {
            let mut w = w.clone();
            add_points(&mut w, group.play_set());
            read_group_alive(board, &w, &reading) == Verdict::Yes
        });
        if !walls_live {
            continue;
        }
        for w in &revive {
            for &p in &w.stones {
                let s = &mut strings[string_of[grid.index(p)]];
                if !s.proved {
                    s.status = Status::Alive;
                    s.how = Decided::WonRace;
                }
            }
        }
        let main = string_of[grid.index(r.group.main[0])];
        strings[main].status = Status::Dead;
        strings[main].how = Decided::GroupRead;
        for &s in &r.inside {
            read[s] = true;
        }
        r.inside_alive(strings);
    }
}
