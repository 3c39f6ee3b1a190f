//! The search shared by the ladder and the capture reading: a three-valued minimax (the attacker
//! wins, the defender wins, unknown) over the candidate moves of a [`Mode`], on one scratch
//! board per ply.
//!
//! The value of a node is the best of its children for the side to move, in the order
//! loss < unknown < win, and a win ends the node's loop. That value does not depend on the
//! order the children are tried in, so a position and its mirror image get the same verdict as
//! long as the node budget suffices for both.

use ingo_rules::{Board, Cell, Color, Move, Point, MAX_SIZE};

use super::{capture, ladder, Limits, Undecided};

/// The plies in which the attacker of [`Mode::Capture`] tries nets as well as liberties.
/// Deeper, a fight is a chase, and the tree without this bound grows with every net tried at
/// every ply (a single stone in the open, read to 20,000 nodes, came back unknown). GNU Go's
/// reading narrows its moves with depth for the same reason.
pub(super) const NET_PLIES: usize = 8;

/// The plies in which a target of [`Mode::Capture`] escapes only at
/// [`Limits::escape_liberties`]; deeper it escapes at three, as GNU Go's reading stops
/// attacking strings of three liberties past its `depth` (16 plies).
const WIDE_PLIES: usize = 16;

/// Entries of the table of decided positions (a power of two).
const TABLE_SIZE: usize = 1 << 15;

/// One decided position: its key and the reading it belongs to.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    reading: u32,
    attacker_wins: bool,
}

/// The values the search has decided, by position: a reading meets the same position by many
/// move orders (two ataris and two extensions in either order), and reads it once.
///
/// A position's value depends on the stones, the side to move and the ply while the candidate
/// moves depend on it (the first ply, the net plies), all in the key; and on the target and the
/// mode, which are the same within one reading, so each reading has its own number and older
/// entries count as empty (nothing is cleared between readings). A 64-bit key is trusted: two
/// positions of one reading sharing a Zobrist key is a chance of the order of 2⁻⁴⁸ for the
/// 2¹⁵ entries, far below the reader's other approximations.
#[derive(Default)]
struct Table {
    entries: Vec<Entry>,
    reading: u32,
}

impl Table {
    /// Starts a reading: every entry of the previous ones is forgotten.
    fn start(&mut self) {
        if self.entries.is_empty() {
            self.entries = vec![Entry::default(); TABLE_SIZE];
        }
        self.reading = self.reading.wrapping_add(1);
        if self.reading == 0 {
            self.entries.fill(Entry::default());
            self.reading = 1;
        }
    }

    fn slot(key: u64) -> usize {
        (key >> 49) as usize % TABLE_SIZE
    }

    fn get(&self, key: u64) -> Option<Outcome> {
        let e = self.entries.get(Table::slot(key))?;
        (e.reading == self.reading && e.key == key).then_some(if e.attacker_wins {
            Outcome::Attacker
        } else {
            Outcome::Defender
        })
    }

    fn put(&mut self, key: u64, value: Outcome) {
        let reading = self.reading;
        if let Some(e) = self.entries.get_mut(Table::slot(key)) {
            *e = Entry {
                key,
                reading,
                attacker_wins: value == Outcome::Attacker,
            };
        }
    }
}

/// Which candidate moves the sides try.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// Ataris only for the attacker; extensions and captures of chasers for the defender.
    Ladder,
    /// The small fight of `can_capture` / `can_save`.
    Capture,
}

/// The value of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// The target is captured.
    Attacker,
    /// The target lives (escapes).
    Defender,
    /// Not decided within the limits.
    Unknown,
}

/// What trying a move gave.
enum Tried {
    /// Not a move the reader plays: an occupied point or a suicide.
    Refused,
    /// Played on the next ply's board.
    Played,
    /// A ko capture: played, but the board alone cannot say whether the game allows it.
    Ko,
}

/// Buffers for looking at the target string and its neighbours without allocating.
#[derive(Default)]
pub(super) struct Scratch {
    /// The target's stones.
    pub(super) stones: Vec<Point>,
    /// Per point (`row * MAX_SIZE + col`), the epoch in which it was last marked.
    mark: Vec<u32>,
    epoch: u32,
    /// Heads of the opponent strings next to the target.
    pub(super) heads: Vec<Point>,
    /// The stones of another string ([`Scratch::capture_moves_next_to`]).
    other: Vec<Point>,
}

impl Scratch {
    fn index(p: Point) -> usize {
        p.row() * MAX_SIZE + p.col()
    }

    /// A new marking round: every point unmarked.
    fn next_epoch(&mut self) {
        if self.mark.is_empty() {
            self.mark = vec![0; MAX_SIZE * MAX_SIZE];
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.epoch = 1;
        }
    }

    /// Marks `p`; whether it was unmarked in this round.
    fn mark(&mut self, p: Point) -> bool {
        let i = Scratch::index(p);
        let fresh = self.mark[i] != self.epoch;
        self.mark[i] = self.epoch;
        fresh
    }

    /// Fills `stones` with the string on `target` and `heads` with the heads of the strings of
    /// the other colour next to it.
    pub(super) fn survey(&mut self, board: &Board, target: Point) {
        self.stones.clear();
        self.heads.clear();
        let Some(color) = board.color_at(target) else {
            return;
        };
        self.next_epoch();
        self.mark(target);
        self.stones.push(target);
        let mut i = 0;
        while i < self.stones.len() {
            let s = self.stones[i];
            i += 1;
            for q in board.neighbors(s) {
                let c = board.color_at(q);
                if c == Some(color) {
                    if self.mark(q) {
                        self.stones.push(q);
                    }
                } else if c.is_some() {
                    if let Some(h) = board.string_head(q) {
                        if !self.heads.contains(&h) {
                            self.heads.push(h);
                        }
                    }
                }
            }
        }
    }
}

impl Scratch {
    /// Adds to `out` the capture of every string in atari next to the string on `p` (the
    /// moves that rescue a string in atari by taking the stones that give the atari).
    pub(super) fn capture_moves_next_to(&mut self, board: &Board, p: Point, out: &mut Vec<Move>) {
        let Some(color) = board.color_at(p) else {
            return;
        };
        self.next_epoch();
        self.mark(p);
        self.other.clear();
        self.other.push(p);
        let mut i = 0;
        while i < self.other.len() {
            let s = self.other[i];
            i += 1;
            for q in board.neighbors(s) {
                let c = board.color_at(q);
                if c == Some(color) {
                    if self.mark(q) {
                        self.other.push(q);
                    }
                } else if c.is_some() {
                    if let Some(l) = board.atari_liberty(q) {
                        push_new(out, Move::Play(l));
                    }
                }
            }
        }
    }
}

/// Adds `mv` to `out` unless it is there already.
pub(super) fn push_new(out: &mut Vec<Move>, mv: Move) {
    if !out.contains(&mv) {
        out.push(mv);
    }
}

/// The defences every reading tries first: the capture of each attacking string in atari next
/// to the target (`scratch.heads`), then the extensions on the target's liberties `libs`.
pub(super) fn captures_and_extensions(
    board: &Board,
    libs: &[Point],
    scratch: &Scratch,
    out: &mut Vec<Move>,
) {
    for &h in &scratch.heads {
        if let Some(l) = board.atari_liberty(h) {
            push_new(out, Move::Play(l));
        }
    }
    for &l in libs {
        push_new(out, Move::Play(l));
    }
}

/// The search state and its buffers, reused from one reading to the next.
#[derive(Default)]
pub(super) struct Search {
    /// `boards[d]`: the position at ply `d`.
    boards: Vec<Board>,
    /// `cands[d]`: the moves tried at ply `d`.
    cands: Vec<Vec<Move>>,
    /// `lines[d]`: the main line from ply `d`.
    lines: Vec<Vec<Move>>,
    removed: Vec<Point>,
    scratch: Scratch,
    nodes: u64,
    undecided: Option<Undecided>,
    /// The main line of the last reading.
    line: Vec<Move>,
    limits: Limits,
    /// Decided values of positions met in this reading.
    table: Table,
    /// The ply whose position is expanded even when the table knows its value (completing a
    /// main line through positions whose lines the table does not keep).
    fresh_at: Option<usize>,
}

impl Search {
    /// Reads the fight over the string on `target` (of colour `defender`), the attacker moving
    /// first when `attacker_first`.
    pub(super) fn run(
        &mut self,
        board: &Board,
        target: Point,
        defender: Color,
        mode: Mode,
        attacker_first: bool,
        limits: &Limits,
    ) -> Outcome {
        self.nodes = 0;
        self.undecided = None;
        self.limits = *limits;
        self.fresh_at = None;
        self.table.start();
        if self.boards.is_empty() {
            self.boards.push(board.clone());
        }
        self.grow(0);
        self.boards[0].clone_from(board);
        let value = self.node(0, attacker_first, target, defender, mode);
        self.line.clear();
        self.line.extend_from_slice(&self.lines[0]);
        if value != Outcome::Unknown {
            self.complete_line(value, attacker_first, target, defender, mode);
        }
        value
    }

    /// Extends the main line past the positions whose value came from the table (which keeps
    /// no lines), by expanding the position at the end of the line again, until the line ends
    /// in the capture, the escape, or a position the search could not finish again.
    fn complete_line(
        &mut self,
        value: Outcome,
        attacker_first: bool,
        target: Point,
        defender: Color,
        mode: Mode,
    ) {
        loop {
            let k = self.line.len();
            if k + 1 >= self.limits.depth {
                return;
            }
            self.grow(k + 1);
            let mut attacker = attacker_first;
            for i in 0..k {
                let color = if attacker {
                    defender.opponent()
                } else {
                    defender
                };
                if let Tried::Refused = self.try_play(i, self.line[i], color) {
                    return;
                }
                attacker = !attacker;
            }
            if self.boards[k].color_at(target) != Some(defender) {
                return;
            }
            self.fresh_at = Some(k);
            let again = self.node(k, attacker, target, defender, mode);
            self.fresh_at = None;
            if again != value || self.lines[k].is_empty() {
                return;
            }
            let (line, lines) = (&mut self.line, &self.lines);
            line.extend_from_slice(&lines[k]);
        }
    }

    /// The main line of the last reading.
    pub(super) fn main_line(&self) -> &[Move] {
        &self.line
    }

    /// Positions visited by the last reading.
    pub(super) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Why the last reading's value is unknown: the budget when it ran out (then nothing it
    /// read can be trusted to be complete), otherwise the first reason met.
    pub(super) fn undecided(&self) -> Undecided {
        if self.nodes > self.limits.nodes {
            Undecided::Budget
        } else {
            self.undecided.unwrap_or(Undecided::Budget)
        }
    }

    /// Makes room for plies up to `d` (a board, a candidate list and a line each); `run` has
    /// put the first board in.
    fn grow(&mut self, d: usize) {
        while self.boards.len() <= d {
            let b = self.boards[0].clone();
            self.boards.push(b);
        }
        while self.cands.len() <= d {
            self.cands.push(Vec::new());
        }
        while self.lines.len() <= d {
            self.lines.push(Vec::new());
        }
    }

    /// The table key of ply `d`'s position with the attacker to move when `attacker`.
    fn key(&self, d: usize, attacker: bool) -> u64 {
        let ply = d.min(NET_PLIES.max(WIDE_PLIES)) as u64 + 1;
        self.boards[d].hash()
            ^ ply.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ u64::from(attacker).wrapping_mul(0xD1B5_4A32_D192_ED03)
    }

    fn note(&mut self, why: Undecided) {
        self.undecided.get_or_insert(why);
    }

    /// Plays `mv` for `color` on ply `d`'s board into ply `d + 1`'s.
    fn try_play(&mut self, d: usize, mv: Move, color: Color) -> Tried {
        let (lo, hi) = self.boards.split_at_mut(d + 1);
        let (src, dst) = (&lo[d], &mut hi[0]);
        let p = match mv {
            Move::Pass => {
                dst.clone_from(src);
                return Tried::Played;
            }
            Move::Play(p) => p,
        };
        if src.get(p) != Cell::Empty {
            return Tried::Refused;
        }
        let a = src.analyze(p, color);
        if a.suicide {
            return Tried::Refused;
        }
        dst.clone_from(src);
        self.removed.clear();
        dst.play_unchecked(p, color, &mut self.removed);
        // A lone stone that took one stone and sits in atari on the point it took: the other
        // side could take back at once, which is what Ing's ko rules (and the history they
        // need) decide.
        if a.captured_stones == 1
            && dst.string_size(p) == 1
            && dst.atari_liberty(p) == self.removed.first().copied()
        {
            return Tried::Ko;
        }
        // A retake of two stones or more after which one throw-in of the other side on a point
        // it took brings back the position before the mover's own last move (R3, the double
        // hot stone: "雙覆子逢雙成為雙熱子"; the cycle of eternal life the other side closes
        // with that throw-in): Ing's rules forbid it or not by the history, so the board alone
        // cannot say either, as for a single ko. Found by `tactics_props`: a capturing line
        // that retook two stones at once (G3 after White's G2 took G3 G4), refused as a game
        // under Ing's rules.
        if a.captured_stones >= 2 && d >= 2 {
            let before = lo[d - 2].hash();
            let opp = color.opponent();
            for &q in &self.removed {
                let mut thrown = dst.clone();
                thrown.set_stone(q, opp);
                if thrown.hash() == before {
                    return Tried::Ko;
                }
            }
        }
        Tried::Played
    }

    /// The value of ply `d`'s position, the attacker to move when `attacker`.
    fn node(
        &mut self,
        d: usize,
        attacker: bool,
        target: Point,
        defender: Color,
        mode: Mode,
    ) -> Outcome {
        self.nodes += 1;
        self.lines[d].clear();
        if self.nodes > self.limits.nodes {
            self.note(Undecided::Budget);
            return Outcome::Unknown;
        }
        let escape = match mode {
            Mode::Ladder => 3,
            Mode::Capture if d < WIDE_PLIES => self.limits.escape_liberties.clamp(2, 8),
            Mode::Capture => self.limits.escape_liberties.clamp(2, 3),
        };
        let libs = self.boards[d].liberties_upto(target, escape);
        if libs.len() >= escape {
            return Outcome::Defender;
        }
        let color = if attacker {
            defender.opponent()
        } else {
            defender
        };
        if attacker && libs.len() == 1 {
            let mv = Move::Play(libs[0]);
            self.grow(d + 1);
            return match self.try_play(d, mv, color) {
                Tried::Played => {
                    self.lines[d].push(mv);
                    Outcome::Attacker
                }
                Tried::Ko => {
                    self.note(Undecided::Ko);
                    Outcome::Unknown
                }
                // Taking the last liberty always captures; this is unreachable in practice.
                Tried::Refused => Outcome::Defender,
            };
        }
        if d + 1 >= self.limits.depth {
            self.note(Undecided::Depth);
            return Outcome::Unknown;
        }
        let key = self.key(d, attacker);
        if self.fresh_at != Some(d) {
            if let Some(value) = self.table.get(key) {
                return value;
            }
        }
        let value = self.expand(d, attacker, color, &libs, target, defender, mode);
        if value != Outcome::Unknown {
            self.table.put(key, value);
        }
        value
    }

    /// The value of ply `d`'s position found by trying the side's candidate moves.
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &mut self,
        d: usize,
        attacker: bool,
        color: Color,
        libs: &[Point],
        target: Point,
        defender: Color,
        mode: Mode,
    ) -> Outcome {
        self.grow(d + 1);
        let mut cands = std::mem::take(&mut self.cands[d]);
        cands.clear();
        {
            let board = &self.boards[d];
            self.scratch.survey(board, target);
            match (mode, attacker) {
                (Mode::Ladder, true) => ladder::attacker_moves(board, libs, &mut cands),
                (Mode::Ladder, false) => {
                    ladder::defender_moves(board, libs, &self.scratch, d == 0, &mut cands);
                }
                (Mode::Capture, true) => {
                    capture::attacker_moves(board, libs, &mut self.scratch, d, &mut cands);
                }
                (Mode::Capture, false) => {
                    capture::defender_moves(board, libs, &self.scratch, d, &mut cands);
                }
            }
        }
        let (win, loss) = if attacker {
            (Outcome::Attacker, Outcome::Defender)
        } else {
            (Outcome::Defender, Outcome::Attacker)
        };
        let mut unknown = false;
        let mut played_any = false;
        let mut lost_line = false;
        let mut k = 0;
        // The defender passes when nothing else it tries is legal: the attacker must still
        // take the string.
        loop {
            // Out of budget: every remaining try would be unknown at once; leave.
            if self.nodes > self.limits.nodes {
                unknown = true;
                break;
            }
            let mv = match cands.get(k) {
                Some(&mv) => mv,
                None if !attacker && !played_any => Move::Pass,
                None => break,
            };
            k += 1;
            let value = match self.try_play(d, mv, color) {
                Tried::Refused => continue,
                Tried::Ko => {
                    played_any = true;
                    self.note(Undecided::Ko);
                    Outcome::Unknown
                }
                Tried::Played => {
                    played_any = true;
                    if self.boards[d + 1].color_at(target) != Some(defender) {
                        self.lines[d + 1].clear();
                        Outcome::Attacker
                    } else {
                        self.node(d + 1, !attacker, target, defender, mode)
                    }
                }
            };
            if value == win || (value == loss && !lost_line) {
                let (head, tail) = self.lines.split_at_mut(d + 1);
                head[d].clear();
                head[d].push(mv);
                head[d].extend_from_slice(&tail[0]);
                lost_line |= value == loss;
                if value == win {
                    self.cands[d] = cands;
                    return win;
                }
            }
            unknown |= value == Outcome::Unknown;
            if mv == Move::Pass {
                break;
            }
        }
        self.cands[d] = cands;
        if unknown {
            Outcome::Unknown
        } else {
            loss
        }
    }
}
