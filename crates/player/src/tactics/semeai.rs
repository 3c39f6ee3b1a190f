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

/// The two strings of a race and their liberties (each list sorted).
struct Racing {
    sa: Vec<Point>,
    sb: Vec<Point>,
    la: Vec<Point>,
    lb: Vec<Point>,
}

/// The strings on `a` and `b`, checked to be of opposite colours and to touch, with their
/// liberties: what [`capture_race`] and [`capture_race_with_eyes`] both count.
fn racing(board: &Board, a: Point, b: Point) -> Result<Racing, TacticsError> {
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
    let (la, lb) = (
        super::liberty_points(board, &sa),
        super::liberty_points(board, &sb),
    );
    Ok(Racing { sa, sb, la, lb })
}

/// The race between the strings on `a` and `b`.
///
/// # Errors
/// [`TacticsError::OffBoard`] or [`TacticsError::NoStone`] for either point,
/// [`TacticsError::SameColor`] when both stones are of one colour, and
/// [`TacticsError::NotAdjacent`] when the strings do not touch.
pub fn capture_race(board: &Board, a: Point, b: Point) -> Result<Race, TacticsError> {
    let Racing { la, lb, .. } = racing(board, a, b)?;
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

/// The liberties an eye of `points` points gives in a capture race once the other side has
/// started filling it (the big-eye counts: one, two and three points give as many, four give
/// five, five give eight, six give twelve: the filler must make a nakade shape inside and be
/// taken, and fill again). `None` past six points: such a space is not filled in a race.
#[must_use]
pub fn eye_liberties(points: usize) -> Option<usize> {
    match points {
        1..=3 => Some(points),
        4 => Some(5),
        5 => Some(8),
        6 => Some(12),
        _ => None,
    }
}

/// The eye of one string in a capture race ([`capture_race_with_eyes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RaceEye {
    /// No eye of its own: its liberties are outside or shared ones.
    None,
    /// One eye: an empty region bordered by the string alone (and the edge), of `points`
    /// points, worth `liberties` ([`eye_liberties`]); `vital` when its owner can make two eyes
    /// of it by playing there first (the straight and bent threes, the pyramid four, the
    /// bulky five, the flower five, the rabbity six: [`super::eye_space`]).
    One {
        /// The points of the eye.
        points: usize,
        /// What filling it costs the other side.
        liberties: usize,
        /// The vital point, when the eye is unsettled.
        vital: Option<Point>,
    },
    /// Two eyes or a space that gives two whoever plays first: the string cannot be taken.
    Alive,
}

/// A capture race counted with each string's eye: outside liberties, shared ones, and an eye
/// of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EyeRace {
    /// Liberties of the first string that are neither shared nor in its eye.
    pub first_outside: usize,
    /// Liberties of the second string that are neither shared nor in its eye.
    pub second_outside: usize,
    /// Liberties of both.
    pub shared: usize,
    /// The first string's eye.
    pub first_eye: RaceEye,
    /// The second string's eye.
    pub second_eye: RaceEye,
    /// The outcome when the first string's side moves first.
    pub first_to_move: RaceOutcome,
    /// The outcome when the second string's side moves first.
    pub second_to_move: RaceOutcome,
}

/// The race between the strings on `a` and `b` counted with their eyes: a liberty of a string
/// whose empty region (the empty points connected to it) touches no stone but the string's
/// own is in an eye of that string; one such region is one eye, worth [`eye_liberties`]; two
/// such regions, or one that gives two eyes whoever plays first (straight, bent and zigzag
/// fours, and spaces past six points), make the string uncapturable. A bent four touching a
/// corner point is one eye (five liberties, no vital point): under Ing's rules it is played
/// out as a ko, which the count does not read.
///
/// The race is then solved as a game on the counts, with either side to move: a move fills an
/// outside liberty of the other string, a shared liberty, or a point of the other string's
/// eye (the last point of an eye only when it captures: else it is suicide), or plays the
/// vital point of its own unsettled eye before the other side has played inside it (two
/// eyes: it cannot be taken, and the other string, short of liberties, is), or passes; two
/// passes leave both standing (seki). Without eyes this is [`capture_race`]. Like it, the
/// model holds when every outside liberty can be filled at once (no approach move) and no
/// third string is short of liberties: with one eye against none the shared liberties are
/// the eye's (the eyeless side cannot fill them without shortening itself first), and there
/// is no seki unless the eyeless side has enough outside liberties.
///
/// # Errors
/// As [`capture_race`]: [`TacticsError::OffBoard`] or [`TacticsError::NoStone`] for either
/// point, [`TacticsError::SameColor`], [`TacticsError::NotAdjacent`].
pub fn capture_race_with_eyes(board: &Board, a: Point, b: Point) -> Result<EyeRace, TacticsError> {
    let Racing { sa, sb, la, lb } = racing(board, a, b)?;
    Ok(race_counted(board, (&sa, &la), (&sb, &lb)))
}

/// A capture race between two *groups* of strings, each joined through one eye of its own: the
/// strings of `a` (one colour) around their eye, of which `a_target` is the one the other side
/// attacks, and the same for `b`. It is [`capture_race_with_eyes`] between the two targets,
/// each counted with its own liberties and with the eye of its whole group where it touches
/// it: an eye bordered by several strings is a liberty of each of them, and the other side,
/// which fills one string's other liberties and then the eye, takes that string and with it
/// the group's only eye. The caller picks the targets (the shortest string of each group) and
/// checks that the strings of a group can join only through their eye; with one string on
/// each side this is [`capture_race_with_eyes`].
///
/// # Errors
/// [`TacticsError::NotAGroup`] when a group or target is empty or a target is not within its
/// group, [`TacticsError::NoStone`] or [`TacticsError::OffBoard`] for a point without a stone
/// or off the board, and [`TacticsError::SameColor`] when the groups are of one colour or a
/// group or target holds stones of both.
pub fn group_race_with_eyes(
    board: &Board,
    (a, a_target): (&[Point], &[Point]),
    (b, b_target): (&[Point], &[Point]),
) -> Result<EyeRace, TacticsError> {
    let color_of = |stones: &[Point]| -> Result<ingo_rules::Color, TacticsError> {
        let first = stones.first().ok_or(TacticsError::NotAGroup)?;
        let c = super::stone_color(board, *first)?;
        for &p in stones {
            if super::stone_color(board, p)? != c {
                return Err(TacticsError::SameColor);
            }
        }
        Ok(c)
    };
    let (ca, cb) = (color_of(a)?, color_of(b)?);
    if ca == cb || color_of(a_target)? != ca || color_of(b_target)? != cb {
        return Err(TacticsError::SameColor);
    }
    if !a_target.iter().all(|p| a.contains(p)) || !b_target.iter().all(|p| b.contains(p)) {
        return Err(TacticsError::NotAGroup);
    }
    let (la, lb) = (
        super::liberty_points(board, a_target),
        super::liberty_points(board, b_target),
    );
    Ok(race_counted(board, (a, &la), (b, &lb)))
}

/// The race of two targets with liberties `la` and `lb`, each with the eye of the stones
/// around it (`sa` and `sb`: the target's string, or its whole group).
fn race_counted(
    board: &Board,
    (sa, la): (&[Point], &[Point]),
    (sb, lb): (&[Point], &[Point]),
) -> EyeRace {
    let (eye_a, in_eye_a) = string_eye(board, sa, la);
    let (eye_b, in_eye_b) = string_eye(board, sb, lb);
    let shared = la.iter().filter(|p| lb.contains(p)).count();
    let x = la.len() - shared - in_eye_a;
    let y = lb.len() - shared - in_eye_b;
    let mut solver = EyeSolver::new(eye_a, eye_b);
    let start = EyeState {
        x,
        y,
        s: shared,
        ea: eye_count(eye_a),
        eb: eye_count(eye_b),
        va: matches!(eye_a, RaceEye::One { vital: Some(_), .. }),
        vb: matches!(eye_b, RaceEye::One { vital: Some(_), .. }),
        first: true,
        passed: false,
    };
    EyeRace {
        first_outside: x,
        second_outside: y,
        shared,
        first_eye: eye_a,
        second_eye: eye_b,
        first_to_move: solver.solve(start),
        second_to_move: solver.solve(EyeState {
            first: false,
            ..start
        }),
    }
}

/// The liberties an eye gives in the race (0 without one).
fn eye_count(eye: RaceEye) -> usize {
    match eye {
        RaceEye::One { liberties, .. } => liberties,
        RaceEye::None | RaceEye::Alive => 0,
    }
}

/// The most points of an empty region [`string_eye`] floods: past this a region is room.
const REGION_LIMIT: usize = 40;

/// The empty region of `from` (its connected empty points), flooded until it holds more than
/// `cap` points, and whether every stone next to the points it expanded is one `own` accepts:
/// the region of an eye ([`string_eye`], and a race side's eye in the end-of-game judgement).
pub(crate) fn empty_region(
    board: &Board,
    from: Point,
    cap: usize,
    own: impl Fn(Point) -> bool,
) -> (Vec<Point>, bool) {
    let mut region = vec![from];
    let mut all_own = true;
    let mut i = 0;
    while i < region.len() && region.len() <= cap {
        let p = region[i];
        i += 1;
        for q in board.neighbors(p) {
            match board.color_at(q) {
                None if !region.contains(&q) => region.push(q),
                None => {}
                Some(_) => all_own &= own(q),
            }
        }
    }
    (region, all_own)
}

/// The eye of the string `stones` (liberties `libs`), and how many of its liberties are in it.
/// An empty region next to the string whose stones around are all the string's is its own:
/// of six points or fewer an eye, larger room to live in ([`RaceEye::Alive`]).
fn string_eye(board: &Board, stones: &[Point], libs: &[Point]) -> (RaceEye, usize) {
    let mut seen: Vec<Point> = Vec::new();
    let mut eyes: Vec<Vec<Point>> = Vec::new();
    let mut room = false;
    for &l in libs {
        if seen.contains(&l) {
            continue;
        }
        let (region, own) = empty_region(board, l, REGION_LIMIT, |q| stones.contains(&q));
        seen.extend(region.iter().copied());
        if !own {
            continue;
        }
        if region.len() <= 6 {
            eyes.push(region);
        } else {
            room = true;
        }
    }
    let in_eyes = libs
        .iter()
        .filter(|l| eyes.iter().any(|r| r.contains(l)))
        .count();
    if room || eyes.len() >= 2 {
        return (RaceEye::Alive, in_eyes);
    }
    let Some(one) = eyes.first() else {
        return (RaceEye::None, 0);
    };
    // A bent four touching a corner point is played out as a ko under Ing's rules (nothing
    // is dead or alive by its shape: "提證死活"), which the count does not read: one eye.
    let corner = |p: &Point| {
        (p.col() == 0 || p.col() + 1 == board.width())
            && (p.row() == 0 || p.row() + 1 == board.height())
    };
    let eye = match (eye_liberties(one.len()), super::eye_space(one)) {
        (Some(liberties), Ok(space))
            if space.shape == super::EyeShape::BentFour && one.iter().any(corner) =>
        {
            RaceEye::One {
                points: one.len(),
                liberties,
                vital: None,
            }
        }
        (Some(liberties), Ok(space)) => match space.status {
            super::EyeStatus::OneEye => RaceEye::One {
                points: one.len(),
                liberties,
                vital: None,
            },
            super::EyeStatus::Unsettled { vital } => RaceEye::One {
                points: one.len(),
                liberties,
                vital: Some(vital),
            },
            super::EyeStatus::TwoEyes => RaceEye::Alive,
        },
        _ => RaceEye::Alive,
    };
    (eye, in_eyes)
}

/// A state of the race game of [`capture_race_with_eyes`]: the outside liberties `x` and `y`,
/// the shared `s`, the eye liberties `ea` and `eb`, whether each eye's vital point is still
/// open to its owner (`va`, `vb`), the first string's side to move, a pass just made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct EyeState {
    x: usize,
    y: usize,
    s: usize,
    ea: usize,
    eb: usize,
    va: bool,
    vb: bool,
    first: bool,
    passed: bool,
}

/// The race game with eyes, with a table of solved states.
struct EyeSolver {
    alive: (bool, bool),
    memo: std::collections::HashMap<EyeState, RaceOutcome>,
}

impl EyeSolver {
    fn new(a: RaceEye, b: RaceEye) -> EyeSolver {
        EyeSolver {
            alive: (a == RaceEye::Alive, b == RaceEye::Alive),
            memo: std::collections::HashMap::new(),
        }
    }

    fn solve(&mut self, st: EyeState) -> RaceOutcome {
        // A string that cannot be taken takes the other (which has no two eyes of its own and
        // only the race's liberties); two such strings both stand.
        match self.alive {
            (true, true) => return RaceOutcome::Seki,
            (true, false) => return RaceOutcome::FirstWins,
            (false, true) => return RaceOutcome::SecondWins,
            (false, false) => {}
        }
        self.value(st)
    }

    fn value(&mut self, st: EyeState) -> RaceOutcome {
        if let Some(&v) = self.memo.get(&st) {
            return v;
        }
        // The mover's counts: its own outside liberties and eye, the other's, and the win.
        let (own_x, own_e, own_v, their_x, their_e, win) = if st.first {
            (st.x, st.ea, st.va, st.y, st.eb, RaceOutcome::FirstWins)
        } else {
            (st.y, st.eb, st.vb, st.x, st.ea, RaceOutcome::SecondWins)
        };
        let rank = |v: RaceOutcome| match v {
            v if v == win => 2,
            RaceOutcome::Seki => 1,
            _ => 0,
        };
        let next = |mut n: EyeState| {
            n.first = !st.first;
            n.passed = false;
            n
        };
        let mut best = if st.passed {
            RaceOutcome::Seki
        } else {
            self.value(EyeState {
                first: !st.first,
                passed: true,
                ..st
            })
        };
        let consider = |v: RaceOutcome, best: &mut RaceOutcome| {
            if rank(v) > rank(*best) {
                *best = v;
            }
        };
        // The vital point of its own eye: two eyes.
        if own_v && own_e > 0 {
            consider(win, &mut best);
        }
        // The other's outside liberty.
        if their_x > 0 && best != win {
            let v = if their_x - 1 + st.s + their_e == 0 {
                win
            } else {
                let mut n = next(st);
                if st.first {
                    n.y -= 1;
                } else {
                    n.x -= 1;
                }
                self.value(n)
            };
            consider(v, &mut best);
        }
        // A shared liberty: legal when it captures or leaves the mover a liberty.
        if st.s > 0 && best != win {
            if their_x + st.s - 1 + their_e == 0 {
                consider(win, &mut best);
            } else if own_x + st.s - 1 + own_e > 0 {
                let mut n = next(st);
                n.s -= 1;
                let v = self.value(n);
                consider(v, &mut best);
            }
        }
        // A point of the other's eye: the last one only when it captures; the first one
        // inside takes the vital point from its owner.
        if their_e > 0 && best != win {
            if their_x + st.s + their_e - 1 == 0 {
                consider(win, &mut best);
            } else if their_e > 1 {
                let mut n = next(st);
                if st.first {
                    n.eb -= 1;
                    n.vb = false;
                } else {
                    n.ea -= 1;
                    n.va = false;
                }
                let v = self.value(n);
                consider(v, &mut best);
            }
        }
        self.memo.insert(st, best);
        best
    }
}
