//! A group's life read by a bounded search on its points ([`read_group`]): its regions, the
//! stones of the other side inside them, the empty areas outside, and the points of its own
//! stones once taken; both sides play anywhere there or pass, with a table of the positions
//! read:
//!
//! * **dead** when the other side, the group moving first, takes its largest string (an
//!   invader without room for two eyes, a nakade, a false eye);
//! * **alive** when the group, the other side moving first, makes its largest string
//!   unconditionally alive (Benson's proof on the points read).
//!
//! A seki, two passes with the group still standing, is neither. The stones around the points
//! read (the other side's wall) are taken as they are: a line that takes one of them counts
//! against the goal read, and so does a ko capture, which is not tried (Ing's rules of ko need
//! the game's history, which the board does not have): a "yes" is given only when no ko
//! capture of the other side was skipped, a "no" only when nothing was cut short. The answers
//! are [`Verdict::Yes`] when proved, [`Verdict::No`] when refuted, and [`Verdict::Unknown`]
//! when the budget or the depth ran out or a ko was met.
//!
//! The end-of-game judgement uses its "dead" only where the playouts are unsure of a group
//! and the walls around it are proved alive or open (`endgame::groups`): as a verdict before
//! the playouts on every group it was measured and lost margins (the wall taken as it is
//! misreads races; docs/endgame.md).

use std::collections::HashMap;

use ingo_rules::{Board, Color, Point, MAX_SIZE};

use super::group::{idx, Group, GroupLimits};
use super::Verdict;

/// What [`read_group`] finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupLife {
    /// Whether the other side takes the group's largest string, the group moving first.
    pub dead: Verdict,
    /// Whether the group makes its largest string unconditionally alive, the other side
    /// moving first.
    pub alive: Verdict,
    /// Positions visited by both readings.
    pub nodes: u64,
}

/// Reads the life of `group` on `board` (module doc): dead, the group moving first; alive, the
/// other side moving first.
pub fn read_group(board: &Board, group: &Group, limits: &GroupLimits) -> GroupLife {
    let (play, in_play) = (group.play_set(), group.play_mask());
    let (dead, dead_nodes) = read_goal(board, group, (&play, &in_play), limits, true);
    let (alive, alive_nodes) = read_goal(board, group, (&play, &in_play), limits, false);
    GroupLife {
        dead,
        alive,
        nodes: dead_nodes + alive_nodes,
    }
}

/// The "dead" of [`read_group`] alone: whether the other side takes the group's largest
/// string, the group moving first (half the search where the other half is not needed).
pub fn read_group_dead(board: &Board, group: &Group, limits: &GroupLimits) -> Verdict {
    let (play, in_play) = (group.play_set(), group.play_mask());
    read_goal(board, group, (&play, &in_play), limits, true).0
}

/// The "alive" of [`read_group`] alone: whether the group makes its largest string
/// unconditionally alive, the other side moving first.
pub fn read_group_alive(board: &Board, group: &Group, limits: &GroupLimits) -> Verdict {
    let (play, in_play) = (group.play_set(), group.play_mask());
    read_goal(board, group, (&play, &in_play), limits, false).0
}

/// One reading of [`read_group`] on the group's points (its play set and play mask): the
/// attacker's goal (take the largest string, the group moving first) or the defender's (prove
/// it alive, the other side moving first), and the positions visited.
fn read_goal(
    board: &Board,
    group: &Group,
    (play, in_play): (&[Point], &[bool]),
    limits: &GroupLimits,
    attacker_goal: bool,
) -> (Verdict, u64) {
    let mut s = Solver {
        defender: group.color,
        main: &group.main,
        play,
        in_play,
        attacker_goal,
        nodes: 0,
        budget: limits.nodes,
        unsure_yes: false,
        unsure_no: false,
        table: HashMap::new(),
        spare: Vec::new(),
    };
    let depth = 2 * play.len() + 8;
    // The goal's side moves second: the defender first when the attacker's goal is read.
    let won = s.solve(board, false, 0, depth);
    let verdict = match won {
        Some(true) if !s.unsure_yes => Verdict::Yes,
        Some(false) if !s.unsure_no => Verdict::No,
        _ => Verdict::Unknown,
    };
    (verdict, s.nodes)
}

struct Solver<'a> {
    defender: Color,
    main: &'a [Point],
    play: &'a [Point],
    in_play: &'a [bool],
    /// The goal read: the attacker's (take the main string) or the defender's (prove it alive).
    attacker_goal: bool,
    nodes: u64,
    budget: u64,
    /// A ko capture of the goal's opponent was skipped: a "yes" is not proved.
    unsure_yes: bool,
    /// A line was cut short (the depth, a ko capture of the goal's side skipped, the wall
    /// taken, which counts against the goal): a "no" is not proved.
    unsure_no: bool,
    table: HashMap<(u64, bool, u8), bool>,
    /// Boards of the line done with, whose boxes [`Solver::solve`] fills again. The boards of
    /// the line are kept in boxes, not in the recursion's frames: a line is as long as twice
    /// the points read (a hundred moves and more for a large group), and a board in each
    /// frame (9 KB on 19×19) overflowed the 2 MiB stack of a test thread or of Tokio's
    /// blocking threads, where the server judges a game (`Ing/02/14`'s group at `H17`).
    spare: Vec<Box<Board>>,
}

/// How a position stands for the goal of the reading.
enum Standing {
    Goal,
    Refuted,
    Open,
}

impl Solver<'_> {
    fn standing(&self, board: &Board) -> Standing {
        let taken = self
            .main
            .iter()
            .any(|&p| board.color_at(p) != Some(self.defender));
        if taken {
            return if self.attacker_goal {
                Standing::Goal
            } else {
                Standing::Refuted
            };
        }
        if benson_alive(board, self.defender, self.play, self.in_play, self.main[0]) {
            return if self.attacker_goal {
                Standing::Refuted
            } else {
                Standing::Goal
            };
        }
        Standing::Open
    }

    /// Whether the goal's side wins from `board`, `goal_moves` when it is to move; `None` when
    /// the budget ran out.
    fn solve(&mut self, board: &Board, goal_moves: bool, passes: u8, depth: usize) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        if passes >= 2 {
            return Some(false);
        }
        if depth == 0 {
            self.unsure_no = true;
            return Some(false);
        }
        let key = (board.hash(), goal_moves, passes);
        if let Some(&v) = self.table.get(&key) {
            return Some(v);
        }
        let attacker_moves = goal_moves == self.attacker_goal;
        let mover = if attacker_moves {
            self.defender.opponent()
        } else {
            self.defender
        };
        let moves = self.moves(board, mover, goal_moves);
        let mut result = !goal_moves;
        let mut removed = Vec::new();
        for mv in moves.into_iter().map(Some).chain(std::iter::once(None)) {
            let won = match mv {
                None => self.solve(board, !goal_moves, passes + 1, depth - 1)?,
                Some(p) => {
                    let mut next = crate::pooled_copy(&mut self.spare, board, Board::clone_from);
                    removed.clear();
                    next.play_unchecked(p, mover, &mut removed);
                    let won = if removed.iter().any(|&q| !self.in_play[idx(q)]) {
                        // A stone of the wall taken: the frame of the reading is gone.
                        self.unsure_no = true;
                        Some(false)
                    } else {
                        match self.standing(&next) {
                            Standing::Goal => Some(true),
                            Standing::Refuted => Some(false),
                            Standing::Open => self.solve(&next, !goal_moves, 0, depth - 1),
                        }
                    };
                    self.spare.push(next);
                    won?
                }
            };
            if won == goal_moves {
                result = won;
                break;
            }
        }
        self.table.insert(key, result);
        Some(result)
    }

    /// The plays of `mover` on the empty points read: legal (no suicide), no ko capture (noted:
    /// the verdict it could change is not proved), not into an eye of its own; captures first,
    /// then the points with the most empty neighbours.
    fn moves(&mut self, board: &Board, mover: Color, goal_moves: bool) -> Vec<Point> {
        let mut scored = Vec::new();
        for &p in self.play {
            if board.color_at(p).is_some() || board.is_eye(p, mover) {
                continue;
            }
            let a = board.analyze(p, mover);
            if a.suicide {
                continue;
            }
            let lone_ko = a.captured_stones == 1
                && a.lone
                && board
                    .neighbors(p)
                    .filter(|&q| board.color_at(q).is_none())
                    .count()
                    == 0;
            if lone_ko {
                if goal_moves {
                    self.unsure_no = true;
                } else {
                    self.unsure_yes = true;
                }
                continue;
            }
            let empty = board
                .neighbors(p)
                .filter(|&q| board.color_at(q).is_none())
                .count();
            scored.push((a.captured_stones * 8 + empty, p));
        }
        scored.sort_by_key(|s| std::cmp::Reverse(s.0));
        scored.into_iter().map(|(_, p)| p).collect()
    }
}

/// Benson's unconditional life of the string on `main`, of `color`, on the points `play`: the
/// regions are the connected sets of points without a stone of `color` inside `play`, one
/// that reaches a point without such a stone outside `play` is vital to no string.
fn benson_alive(
    board: &Board,
    color: Color,
    play: &[Point],
    in_play: &[bool],
    main: Point,
) -> bool {
    let Some(main_head) = board.string_head(main) else {
        return false;
    };
    if board.color_at(main) != Some(color) {
        return false;
    }
    // Regions: (empty points, bordering heads), closed ones only.
    let mut seen = vec![false; MAX_SIZE * MAX_SIZE];
    let mut regions: Vec<(Vec<Point>, Vec<Point>)> = Vec::new();
    for &p in play {
        if seen[idx(p)] || board.color_at(p) == Some(color) {
            continue;
        }
        let mut pts = vec![p];
        seen[idx(p)] = true;
        let (mut open, mut heads) = (false, Vec::new());
        let mut i = 0;
        while i < pts.len() {
            let q = pts[i];
            i += 1;
            for r in board.neighbors(q) {
                if board.color_at(r) == Some(color) {
                    let h = board.string_head(r).unwrap_or(r);
                    if !heads.contains(&h) {
                        heads.push(h);
                    }
                } else if !in_play[idx(r)] {
                    open = true;
                } else if !seen[idx(r)] {
                    seen[idx(r)] = true;
                    pts.push(r);
                }
            }
        }
        if !open {
            let empty: Vec<Point> = pts
                .into_iter()
                .filter(|&q| board.color_at(q).is_none())
                .collect();
            regions.push((empty, heads));
        }
    }
    let vital = |empty: &[Point], h: Point| {
        empty.iter().all(|&e| {
            board
                .neighbors(e)
                .any(|r| board.color_at(r) == Some(color) && board.string_head(r) == Some(h))
        })
    };
    let mut heads: Vec<Point> = regions.iter().flat_map(|r| r.1.iter().copied()).collect();
    heads.sort();
    heads.dedup();
    let mut live_region = vec![true; regions.len()];
    loop {
        let before = heads.len();
        heads.retain(|&h| {
            regions
                .iter()
                .zip(&live_region)
                .filter(|((empty, hs), &l)| l && hs.contains(&h) && vital(empty, h))
                .count()
                >= 2
        });
        for (r, l) in regions.iter().zip(live_region.iter_mut()) {
            if *l && r.1.iter().any(|h| !heads.contains(h)) {
                *l = false;
            }
        }
        if heads.len() == before {
            return heads.contains(&main_head);
        }
    }
}
