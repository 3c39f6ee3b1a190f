//! Tactical reading: ladders and the capture or rescue of a string in a small fight.
//!
//! One reader for the end-of-game judgement and for the player. It answers questions about one
//! string (the *target*) by a bounded search on scratch copies of the board:
//!
//! * [`Reader::ladder`]: does a ladder (繫) capture a string in atari, or one with two
//!   liberties when the attacker moves first? Only ataris are tried for the attacker; the
//!   defender extends or captures a chasing string in atari. Ladder breakers and the edge need
//!   no special case: they are what the search meets.
//! * [`Reader::can_capture`] and [`Reader::can_save`]: the attack and defence of a string with
//!   few liberties, in the manner of GNU Go's `attack`/`defend` (engine/reading.c), simplified:
//!   the attacker tries the target's liberties, the empty points next to them (nets) and the
//!   rescue of its own strings in atari next to the target; the defender tries its liberties,
//!   the capture or atari of the attacking strings next to it, and passing.
//! * [`eye_space`]: the classic eye-space shapes of one to six points (the threes, the
//!   pyramid and square fours, the bulky and cross fives, the rabbity six) with their status
//!   and vital (nakade) point.
//! * [`capture_race`]: a race between two adjacent strings without eyes, solved on their
//!   outside and shared liberties, with either side to move.
//! * [`capture_race_with_eyes`]: the same race with an eye of either string counted by its
//!   size ([`eye_liberties`]: the big-eye counts 1, 2, 3, 5, 8, 12), so one eye against none
//!   (the shared liberties are the eye's, no seki) and the vital point of an unsettled eye.
//! * [`group_at`], [`dead_by_shape`] and [`read_group`]: the life of a group (strings joined
//!   through their enclosed regions) read on its eye space with the other side's stones
//!   inside: dead by shape when those stones make a dead shape in its only eye space (the
//!   nakade) and its other eyes are false; by a bounded search, dead when its largest string
//!   is taken with the group moving first, alive when it makes it unconditionally alive with
//!   the other side first.
//!
//! Every answer is a [`Verdict`] (`Yes`, `No`, `Unknown`) with the main line read and the nodes
//! spent. The verdicts are relative to those candidate moves, as GNU Go's are: a target that
//! reaches [`Limits::escape_liberties`] liberties counts as escaped. `Unknown` is given, never a
//! guess, when the node budget or the depth runs out, or when a line needs a ko capture: the
//! reader sees the board alone, without the game's history, so it cannot know which ko captures
//! Ing's ko rules allow (the hot stone and the rules for several kos, `ingo_rules::Game`), and it
//! stops there. For the same reason the first move of an answer should be checked with
//! [`ingo_rules::Game::is_legal`] by a caller that has the game. Block suicide, legal under Ing's
//! rules, is never useful to either side in these fights and is not tried.
//!
//! The search allocates only while its buffers grow: a [`Reader`] keeps one board per ply, and
//! reading again with the same reader reuses them ([`Board`]'s `clone_from` copies only the rows in
//! use).
//!
//! ```
//! use ingo_player::tactics::{Limits, Reader, Verdict};
//! use ingo_rules::{Board, Point};
//!
//! // White's stone at C4, in atari, runs along a staircase to the edge: the ladder works.
//! let board = Board::from_ascii("
//!   . . . . . . .
//!   . . . . . . .
//!   . . X X . . .
//!   . X O . . . .
//!   . . X . . . .
//!   . . . . . . .
//!   . . . . . . .").unwrap();
//! let c3 = Point::new(2, 3).unwrap();
//! let mut reader = Reader::new();
//! let reading = reader.ladder(&board, c3, false, &Limits::default()).unwrap();
//! assert_eq!(reading.verdict, Verdict::Yes);
//! ```

mod capture;
mod eyes;
mod group;
mod group_search;
mod ladder;
mod search;
mod semeai;

pub use eyes::{eye_space, EyeShape, EyeSpace, EyeSpaceError, EyeStatus};
pub use group::{dead_by_shape, group_at, Group, GroupLimits};
pub(crate) use group::{strings_next_to, wall_eyes, wall_liberties, END_OF_GAME};
pub use group_search::{read_group, read_group_alive, read_group_dead, GroupLife};
pub(crate) use semeai::empty_region;
pub use semeai::{
    capture_race, capture_race_with_eyes, eye_liberties, group_race_with_eyes, EyeRace, Race,
    RaceEye, RaceOutcome,
};

use ingo_rules::{Board, Color, Move, Point};

use search::{Mode, Outcome, Search};

/// The answer of a reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The side the question is about succeeds (the ladder or the attack captures; the defence
    /// saves).
    Yes,
    /// It fails against every reply the reader tries.
    No,
    /// The reading could not decide: budget or depth exhausted, or a ko on the way.
    Unknown,
}

/// Why a reading gave [`Verdict::Unknown`] (when it did).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Undecided {
    /// The node budget ran out.
    Budget,
    /// A line reached the depth limit.
    Depth,
    /// A line needed a ko capture, which the board alone cannot judge.
    Ko,
}

/// The bounds of one reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most positions the search may visit.
    pub nodes: u64,
    /// The most plies a line may have.
    pub depth: usize,
    /// A target with this many liberties counts as escaped in [`Reader::can_capture`] and
    /// [`Reader::can_save`] in the first 16 plies, and with three past them (as GNU Go stops
    /// attacking strings of three liberties past its depth of 16); read as 2 to 8. A ladder's
    /// target escapes at three.
    pub escape_liberties: usize,
}

impl Default for Limits {
    /// 20,000 nodes, 100 plies (a ladder across a 19×19 board is about 70), escape at four
    /// liberties (GNU Go's reading counts a string with five as safe; four keeps the tree small
    /// while the usual small fights, two or three liberties against the attacker's stones,
    /// stay inside it).
    fn default() -> Limits {
        Limits {
            nodes: 20_000,
            depth: 100,
            escape_liberties: 4,
        }
    }
}

/// What a reading found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The answer.
    pub verdict: Verdict,
    /// Why the answer is [`Verdict::Unknown`]: the first cause met (`None` for `Yes` and `No`).
    pub undecided: Option<Undecided>,
    /// The main line, first move first, beginning with the side the question gives the move.
    /// For `Yes` it is a line that succeeds: the questioned side's moves are the ones that
    /// work and the other side's are its last refuted tries. Empty for `No` and `Unknown`,
    /// and for a target already captured or escaped without a move.
    pub line: Vec<Move>,
    /// Positions visited.
    pub nodes: u64,
}

/// A question the reader cannot answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TacticsError {
    /// The point is outside the board.
    #[error("point ({col}, {row}) is outside the board")]
    OffBoard {
        /// The point's column.
        col: usize,
        /// The point's row.
        row: usize,
    },
    /// No stone on the point: there is no string to read about.
    #[error("no stone on point ({col}, {row})")]
    NoStone {
        /// The point's column.
        col: usize,
        /// The point's row.
        row: usize,
    },
    /// A capture race needs strings of both colours.
    #[error("the two strings of a capture race are of one colour")]
    SameColor,
    /// A capture race needs strings that touch.
    #[error("the two strings of a capture race do not touch")]
    NotAdjacent,
    /// A group of a capture race holds no stone, or its target is not one of its strings.
    #[error("a group of a capture race is empty, or its target is not among its strings")]
    NotAGroup,
}

/// A tactical reader, holding the search's buffers so that repeated readings reuse them.
#[derive(Default)]
pub struct Reader {
    search: Search,
}

impl Reader {
    /// A reader with empty buffers (they grow on first use).
    #[must_use]
    pub fn new() -> Reader {
        Reader::default()
    }

    /// Whether a ladder captures the string on `target`. With `attacker_to_move`, the attacker
    /// (the other colour) moves first: the target must then be in atari (it is captured at
    /// once) or have two liberties (the attacker ataris). Otherwise the target's side moves
    /// first and the target must be in atari to be read; with two liberties its side may also
    /// pass. A target with three liberties or more escapes (`No`) without a move.
    ///
    /// `Yes`: the ladder captures whatever the target's side does; `No`: it escapes.
    ///
    /// # Errors
    /// [`TacticsError`] when `target` is off the board or holds no stone.
    pub fn ladder(
        &mut self,
        board: &Board,
        target: Point,
        attacker_to_move: bool,
        limits: &Limits,
    ) -> Result<Reading, TacticsError> {
        let defender = stone_color(board, target)?;
        let limits = Limits {
            escape_liberties: 3,
            ..*limits
        };
        let outcome = self.search.run(
            board,
            target,
            defender,
            Mode::Ladder,
            attacker_to_move,
            &limits,
        );
        Ok(self.reading(outcome, true))
    }

    /// Whether the attacker (the colour other than the target's), moving first, can capture
    /// the string on `target`. `Yes` comes with a capturing line.
    ///
    /// # Errors
    /// [`TacticsError`] when `target` is off the board or holds no stone.
    pub fn can_capture(
        &mut self,
        board: &Board,
        target: Point,
        limits: &Limits,
    ) -> Result<Reading, TacticsError> {
        self.capture_reading(board, target, limits, true)
    }

    /// Whether the target's side, moving first, can save the string on `target` from capture.
    /// `Yes` comes with a saving line (which may begin with a pass when the string is safe as
    /// it stands).
    ///
    /// # Errors
    /// [`TacticsError`] when `target` is off the board or holds no stone.
    pub fn can_save(
        &mut self,
        board: &Board,
        target: Point,
        limits: &Limits,
    ) -> Result<Reading, TacticsError> {
        self.capture_reading(board, target, limits, false)
    }

    /// [`Reader::can_capture`] (`attacker_first`) or [`Reader::can_save`]: one capture search,
    /// read from the side that moves first.
    fn capture_reading(
        &mut self,
        board: &Board,
        target: Point,
        limits: &Limits,
        attacker_first: bool,
    ) -> Result<Reading, TacticsError> {
        let defender = stone_color(board, target)?;
        let outcome = self.search.run(
            board,
            target,
            defender,
            Mode::Capture,
            attacker_first,
            limits,
        );
        Ok(self.reading(outcome, attacker_first))
    }

    /// The reading of a finished search, from the attacker's side (`for_attacker`) or the
    /// defender's.
    fn reading(&self, outcome: Outcome, for_attacker: bool) -> Reading {
        let (verdict, line) = match (outcome, for_attacker) {
            (Outcome::Attacker, true) | (Outcome::Defender, false) => {
                (Verdict::Yes, self.search.main_line().to_vec())
            }
            (Outcome::Attacker, false) | (Outcome::Defender, true) => (Verdict::No, Vec::new()),
            (Outcome::Unknown, _) => (Verdict::Unknown, Vec::new()),
        };
        Reading {
            verdict,
            undecided: (verdict == Verdict::Unknown).then(|| self.search.undecided()),
            line,
            nodes: self.search.nodes(),
        }
    }
}

/// The colour of the stone on `p`, or why there is none.
fn stone_color(board: &Board, p: Point) -> Result<Color, TacticsError> {
    let (col, row) = (p.col(), p.row());
    if !board.contains(p) {
        return Err(TacticsError::OffBoard { col, row });
    }
    board.color_at(p).ok_or(TacticsError::NoStone { col, row })
}

/// The empty points next to any of `stones` (a string's liberties), sorted, each once.
pub(crate) fn liberty_points(board: &Board, stones: &[Point]) -> Vec<Point> {
    let mut v: Vec<Point> = stones
        .iter()
        .flat_map(|&p| board.neighbors(p))
        .filter(|&q| board.color_at(q).is_none())
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The liberties of the string a stone of `color` on the empty point `p` would make (no
/// capture counted).
pub(crate) fn liberties_after_play(board: &Board, p: Point, color: Color) -> usize {
    let mut libs: Vec<Point> = Vec::new();
    for q in board.neighbors(p) {
        match board.color_at(q) {
            None => libs.push(q),
            Some(c) if c == color => {
                libs.extend(liberty_points(board, &board.string_stones(q)));
            }
            Some(_) => {}
        }
    }
    libs.sort();
    libs.dedup();
    libs.retain(|&l| l != p);
    libs.len()
}

/// [`Reader::ladder`] with a reader of its own.
///
/// # Errors
/// [`TacticsError`] when `target` is off the board or holds no stone.
pub fn ladder(
    board: &Board,
    target: Point,
    attacker_to_move: bool,
    limits: &Limits,
) -> Result<Reading, TacticsError> {
    Reader::new().ladder(board, target, attacker_to_move, limits)
}

/// [`Reader::can_capture`] with a reader of its own.
///
/// # Errors
/// [`TacticsError`] when `target` is off the board or holds no stone.
pub fn can_capture(board: &Board, target: Point, limits: &Limits) -> Result<Reading, TacticsError> {
    Reader::new().can_capture(board, target, limits)
}

/// [`Reader::can_save`] with a reader of its own.
///
/// # Errors
/// [`TacticsError`] when `target` is off the board or holds no stone.
pub fn can_save(board: &Board, target: Point, limits: &Limits) -> Result<Reading, TacticsError> {
    Reader::new().can_save(board, target, limits)
}
