//! Capture races (攻め合い, semeai) between two adjacent strings of opposite colours, neither
//! with an eye, read from their liberties: each string's outside liberties (its own) and the
//! liberties they share.
//!
//! The race is solved exactly as a game on the three counts: a move fills one of the
//! opponent's outside liberties, or one shared liberty (which takes one from both strings and
//! is a suicide when it would take the mover's last without capturing), or passes; a string
//! without liberties is captured, two passes in a row leave both standing (seki, 雙活). The
//! counts are what matter when every liberty can be filled at once: a liberty that needs an
//! approach move, an eye, or a third string short of liberties is outside this model.

use ingo_rules::{Board, Point};

use super::TacticsError;

/// How a race ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RaceOutcome {
    /// The first string (the one on `a`) captures the second.
    FirstWins,
    /// The second captures the first.
    SecondWins,
    /// Neither can capture the other: seki.
    Seki,
}

/// A capture race's liberty counts and its outcome with either side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Race {
    /// Liberties of the first string that the second lacks.
    pub first_outside: usize,
    /// Liberties of the second string that the first lacks.
    pub second_outside: usize,
    /// Liberties of both.
    pub shared: usize,
    /// The outcome when the first string's side moves first.
    pub first_to_move: RaceOutcome,
    /// The outcome when the second string's side moves first.
    pub second_to_move: RaceOutcome,
}

/// The race between the strings on `a` and `b`.
///
/// # Errors
/// [`TacticsError::OffBoard`] or [`TacticsError::NoStone`] for either point,
/// [`TacticsError::SameColor`] when both stones are of one colour, and
/// [`TacticsError::NotAdjacent`] when the strings do not touch.
pub fn capture_race(board: &Board, a: Point, b: Point) -> Result<Race, TacticsError> {
    let ca = super::stone_color(board, a)?;
    let cb = super::stone_color(board, b)?;
    if ca == cb {
        return Err(TacticsError::SameColor);
    }
    let sa = board.string_stones(a);
    let sb = board.string_stones(b);
    let touch = sa
        .iter()
        .any(|&p| board.neighbors(p).any(|q| sb.contains(&q)));
    if !touch {
        return Err(TacticsError::NotAdjacent);
    }
    let libs = |stones: &[Point]| {
        let mut v: Vec<Point> = stones
            .iter()
            .flat_map(|&p| board.neighbors(p))
            .filter(|&q| board.color_at(q).is_none())
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let (la, lb) = (libs(&sa), libs(&sb));
    let shared = la.iter().filter(|p| lb.contains(p)).count();
    let (x, y) = (la.len() - shared, lb.len() - shared);
    let mut solver = Solver::new(x, y, shared);
    Ok(Race {
        first_outside: x,
        second_outside: y,
        shared,
        first_to_move: solver.solve(x, y, shared, true, false),
        second_to_move: solver.solve(x, y, shared, false, false),
    })
}

/// The race game on the counts, with a table of solved states.
struct Solver {
    dims: (usize, usize, usize),
    memo: Vec<Option<RaceOutcome>>,
}

impl Solver {
    fn new(x: usize, y: usize, s: usize) -> Solver {
        let dims = (x + 1, y + 1, s + 1);
        Solver {
            dims,
            memo: vec![None; dims.0 * dims.1 * dims.2 * 4],
        }
    }

    fn index(&self, x: usize, y: usize, s: usize, first: bool, passed: bool) -> usize {
        (((x * self.dims.1 + y) * self.dims.2 + s) * 2 + usize::from(first)) * 2
            + usize::from(passed)
    }

    /// The outcome with `x` and `y` outside liberties, `s` shared, the first string's side to
    /// move when `first`, after a pass when `passed`.
    fn solve(&mut self, x: usize, y: usize, s: usize, first: bool, passed: bool) -> RaceOutcome {
        let i = self.index(x, y, s, first, passed);
        if let Some(v) = self.memo[i] {
            return v;
        }
        // From the mover's side: its own, the opponent's outside liberties and the win.
        let (own, theirs, win) = if first {
            (x, y, RaceOutcome::FirstWins)
        } else {
            (y, x, RaceOutcome::SecondWins)
        };
        let rank = |v: RaceOutcome| match v {
            v if v == win => 2,
            RaceOutcome::Seki => 1,
            _ => 0,
        };
        let mut best = if passed {
            RaceOutcome::Seki
        } else {
            self.solve(x, y, s, !first, true)
        };
        let mut consider = |v: RaceOutcome| {
            if rank(v) > rank(best) {
                best = v;
            }
        };
        if theirs > 0 {
            let v = if theirs - 1 + s == 0 {
                win
            } else if first {
                self.solve(x, y - 1, s, false, false)
            } else {
                self.solve(x - 1, y, s, true, false)
            };
            consider(v);
        }
        if s > 0 {
            if theirs + s - 1 == 0 {
                consider(win);
            } else if own + s - 1 > 0 {
                consider(self.solve(x, y, s - 1, !first, false));
            }
        }
        self.memo[i] = Some(best);
        best
    }
}
