//! A game: the board plus history, Ing's ko rules (IKF, spec §4), passes and the end of play.

use std::fmt;
use std::sync::Arc;

use arrayvec::ArrayVec;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::board::{Board, Cell, PlayAnalysis};
use crate::color::{ByColor, Color};
use crate::count::{self, Score, Tally};
use crate::keyset::KeySet;
use crate::ko::{self, KoPair};
use crate::point::{Move, Point, CELLS};
use crate::rules::{KoRule, Rules, SuicideRule};
use crate::zobrist;

/// Why a move was refused. [`PlayErrorKind::code`] gives the reason code used in reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PlayErrorKind {
    /// The point holds a stone.
    Occupied,
    /// The point is not on the board.
    OffBoard,
    /// Suicide that the rules forbid (under Ing: single-stone suicide, 顆子自盡).
    Suicide,
    /// Retaking a hot stone at once (單熱子, R2): "凡提取熱子必須間隔一實手或虛手".
    HotStone,
    /// Retaking the two hot stones of eternal life (雙熱子, R3).
    DoubleHot,
    /// Capturing in another ko of a fighting triple ko (孿熱子, R4).
    TwinHot,
    /// Disturbing again beyond the first cycle (越環再攪, R5).
    Disturbing,
    /// A play banned after a completed cycle (R6).
    Cycle,
    /// Recreates an earlier position (superko rules, not Ing).
    Superko,
    /// The game has ended.
    GameOver,
    /// It is the other player's turn.
    OutOfTurn,
}

impl PlayErrorKind {
    /// The reason code: `occupied`, `off-board`, `suicide`, `hot-stone`, `double-hot`,
    /// `twin-hot`, `disturbing`, `cycle`, `superko`, `game-over` or `out-of-turn`.
    pub fn code(self) -> &'static str {
        match self {
            PlayErrorKind::Occupied => "occupied",
            PlayErrorKind::OffBoard => "off-board",
            PlayErrorKind::Suicide => "suicide",
            PlayErrorKind::HotStone => "hot-stone",
            PlayErrorKind::DoubleHot => "double-hot",
            PlayErrorKind::TwinHot => "twin-hot",
            PlayErrorKind::Disturbing => "disturbing",
            PlayErrorKind::Cycle => "cycle",
            PlayErrorKind::Superko => "superko",
            PlayErrorKind::GameOver => "game-over",
            PlayErrorKind::OutOfTurn => "out-of-turn",
        }
    }

    /// Whether the refusal comes from a repetition rule (any of Ing's ko rules or superko).
    pub fn is_ko(self) -> bool {
        matches!(
            self,
            PlayErrorKind::HotStone
                | PlayErrorKind::DoubleHot
                | PlayErrorKind::TwinHot
                | PlayErrorKind::Disturbing
                | PlayErrorKind::Cycle
                | PlayErrorKind::Superko
        )
    }
}

impl fmt::Display for PlayErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A refused move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {} {}: {kind}", color.letter(), mv.to_gtp(*height as usize))]
pub struct PlayError {
    /// Who tried to move.
    pub color: Color,
    /// The move refused.
    pub mv: Move,
    /// Why.
    pub kind: PlayErrorKind,
    /// The board height, to name the point in GTP style. The name is made only when the error
    /// is displayed: playouts try and drop many refused moves.
    height: u8,
}

impl PlayError {
    fn new(color: Color, mv: Move, kind: PlayErrorKind, height: usize) -> PlayError {
        PlayError {
            color,
            mv,
            kind,
            height: height as u8,
        }
    }
}

/// An error of a game action other than a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GameError {
    /// There is no move to take back.
    #[error("no move to undo")]
    NothingToUndo,
    /// Dead stones can be agreed only while play is suspended (after two passes).
    #[error("dead stones can only be agreed while play is suspended")]
    NotSuspended,
    /// A point named as dead holds no stone.
    #[error("point {0:?} holds no stone")]
    NoStone(Point),
    /// The game has already ended.
    #[error("the game has already ended")]
    AlreadyEnded,
}

/// The state of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Moves are being played.
    Playing,
    /// Two (or three) consecutive passes: play is suspended (著手休止); the players may agree on
    /// dead stones, or a board play resumes play.
    Suspended,
    /// The game is over (著手終了, or a result by resignation, time or forfeit).
    Ended,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// Four consecutive passes: "連續四次虛手，不論任何理由不得恢復著手". Every stone on the board
    /// counts as alive.
    Passes,
    /// At a suspension both players agreed on the dead stones, which stand in for the last passes.
    Agreement(Vec<Point>),
    /// A player resigned (單方虛手認輸).
    Resignation(Color),
    /// A player lost on time.
    Time(Color),
    /// A player forfeited, for the reason given.
    Forfeit(Color, String),
}

/// The starting point of a game: stones, who moves first and the handicap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The stones at the start (usually none).
    pub board: Board,
    /// Who moves first.
    pub to_move: Color,
    /// White's handicap passes (讓手: "N先減1即為所讓手數"), recorded as ordinary passes.
    pub handicap_passes: u8,
}

impl Setup {
    /// An empty square board with Black to move.
    ///
    /// # Errors
    /// When the size is not in 1..=25.
    pub fn empty(size: usize) -> Result<Setup, crate::BoardSizeError> {
        Ok(Setup {
            board: Board::new(size)?,
            to_move: Color::Black,
            handicap_passes: 0,
        })
    }
}

const F_SUICIDE: u8 = 1;
const F_KO_CAPTURE: u8 = 2;
const F_ATTACKING: u8 = 4;
const F_FORCED: u8 = 8;
/// The play's (situation, point) is already in `bans`: later cycles need not insert it again.
const F_BANNED: u8 = 16;
/// A board's cells at two bits each (a snapshot).
type Packed = [u8; CELLS.div_ceil(4)];

fn pack(cells: &[Cell; CELLS]) -> Packed {
    let mut out = [0u8; CELLS.div_ceil(4)];
    // Four cells a byte, a whole byte at a time: this runs every `SNAPSHOT_EVERY` moves of every
    // playout.
    for (byte, four) in out.iter_mut().zip(cells.chunks(4)) {
        *byte = four
            .iter()
            .enumerate()
            .fold(0, |acc, (k, &c)| acc | (c as u8) << (2 * k));
    }
    out
}

fn unpack(packed: &Packed) -> [Cell; CELLS] {
    let mut cells = [Cell::Edge; CELLS];
    for (i, cell) in cells.iter_mut().enumerate() {
        *cell = match (packed[i / 4] >> (2 * (i % 4))) & 3 {
            0 => Cell::Empty,
            1 => Cell::Black,
            2 => Cell::White,
            _ => Cell::Edge,
        };
    }
    cells
}

/// Plies between two snapshots of the board kept for [`Game::cells_at`].
const SNAPSHOT_EVERY: usize = 128;
const NO_POINT: u16 = 0;

/// One move of the history, 16 bytes. Removed stones live in a shared arena: a ply's stones
/// run from its `removed_start` to the next ply's (see [`Game::removed_by`]).
#[derive(Clone, Copy, Debug)]
struct Ply {
    pos_after: u64,
    removed_start: u32,
    pt: u16,
    color: Color,
    flags: u8,
}

// The history's footprint is part of the performance contract (at most 64 bytes a ply).
const _: () = assert!(std::mem::size_of::<Ply>() == 16);

impl Ply {
    fn point(&self) -> Option<Point> {
        (self.pt != NO_POINT).then_some(Point(self.pt))
    }
}

/// A played move as the history shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedMove<'a> {
    /// Who moved.
    pub color: Color,
    /// The move.
    pub mv: Move,
    /// The stones it removed (the opponent's, or the player's own block on suicide).
    pub removed: &'a [Point],
    /// The play removed the player's own block.
    pub suicide: bool,
    /// The play was a ko capture (one stone, leaving a one-stone string in atari there).
    pub ko_capture: bool,
    /// The play left an opponent string next to it with one liberty.
    pub attacking: bool,
    /// The play was accepted in tolerant replay despite a ko rule ([`Game::play_tolerant`]).
    pub forced: bool,
}

/// A disturbing capture waiting for the opponent's answer (R5).
#[derive(Clone, Debug)]
struct Pending {
    key: u64,
    ys: ArrayVec<u16, 16>,
}

/// What [`Game::check`] found: everything needed to make the move.
struct Plan {
    /// Boxed: it is rare, and a plan is moved through every play.
    pending: Option<Box<Pending>>,
}

/// A game under a set of [`Rules`].
///
/// ```
/// use ingo_rules::{Game, Move, Point, Rules, Setup, PlayErrorKind};
/// let mut game = Game::new(Setup::empty(9).unwrap(), Rules::ing());
/// let p = Point::from_gtp("E5", 9, 9).unwrap();
/// game.play(Move::Play(p)).unwrap();
/// assert_eq!(game.play(Move::Play(p)).unwrap_err().kind, PlayErrorKind::Occupied);
/// ```
#[derive(Debug)]
pub struct Game {
    rules: Rules,
    /// Shared by clones: only undo needs it, and a board is 15 KB.
    setup: Arc<Setup>,
    /// Boxed so that moving a game moves a pointer, not 15 KB.
    board: Box<Board>,
    to_move: Color,
    start_hash: u64,
    hist: Vec<Ply>,
    removed: Vec<Point>,
    /// Every situation that has stood (kept only for the ko rules that read it,
    /// [`tracks_situations`]). A set, not a map to the index: the index is needed only on a hit,
    /// which is rare, and is then found by scanning the history back ([`Game::latest_index_of`]),
    /// which also confirms the whole key (the set compares only its low 32 bits, see
    /// `keyset.rs`); this keeps the table, the largest part of the history, at 4 bytes an entry.
    last_seen: KeySet,
    /// Position → the first index where it stood (positional superko only).
    pos_seen: FxHashMap<u64, u32>,
    /// (situation, point) → the ply whose situation it is: plays banned for good (R6).
    bans: FxHashMap<(u64, u16), u32>,
    /// Keys of disturbing captures already answered (R5).
    disturb_used: FxHashSet<u64>,
    pending: Option<Box<Pending>>,
    consecutive_passes: u32,
    phase: Phase,
    end: Option<GameEnd>,
    penalties: ByColor<i32>,
    /// The board after every `SNAPSHOT_EVERY`-th move (`snapshots[k]` after `(k+1)·128` moves),
    /// so that rebuilding an earlier board walks back at most 127 moves however long the game.
    /// 183 bytes (two bits a cell) per 128 moves; shared by clones.
    snapshots: Vec<Arc<Packed>>,
}

/// Whether games under `ko` keep `Game::last_seen`: Ing's cycle rule (R6) and situational
/// superko read it; simple ko and positional superko never do, so they skip the work.
fn tracks_situations(ko: KoRule) -> bool {
    matches!(ko, KoRule::Ing | KoRule::SituationalSuperko)
}

/// A copy of `v` with `v`'s capacity.
fn with_room<T: Copy>(v: &Vec<T>) -> Vec<T> {
    let mut c = Vec::new();
    copy_vec(&mut c, v);
    c
}

/// Makes `dst` a copy of `src` with at least `src`'s capacity (a derived clone would give it
/// `src`'s length only).
fn copy_vec<T: Copy>(dst: &mut Vec<T>, src: &Vec<T>) {
    dst.clear();
    dst.reserve(src.capacity());
    dst.extend_from_slice(src);
}

impl Clone for Game {
    /// A copy of the game. The history vectors keep the room reserved for them (a derived clone
    /// would allocate them to their length only), so that a search's clone of a game, played on
    /// at once, does not reallocate its history move after move.
    fn clone(&self) -> Game {
        // Destructured so that a field added later cannot be forgotten here.
        let Game {
            rules,
            setup,
            board,
            to_move,
            start_hash,
            hist,
            removed,
            last_seen,
            pos_seen,
            bans,
            disturb_used,
            pending,
            consecutive_passes,
            phase,
            end,
            penalties,
            snapshots,
        } = self;
        Game {
            rules: *rules,
            setup: Arc::clone(setup),
            board: board.clone(),
            to_move: *to_move,
            start_hash: *start_hash,
            hist: with_room(hist),
            removed: with_room(removed),
            last_seen: last_seen.clone(),
            pos_seen: pos_seen.clone(),
            bans: bans.clone(),
            disturb_used: disturb_used.clone(),
            pending: pending.clone(),
            consecutive_passes: *consecutive_passes,
            phase: *phase,
            end: end.clone(),
            penalties: *penalties,
            snapshots: snapshots.clone(),
        }
    }

    /// Makes this game a copy of `src`, reusing this game's board and history buffers: no
    /// allocation once they are large enough, and only the used rows of the board are copied
    /// ([`Board`]'s `clone_from`). A search that copies its root before every playout wants this.
    fn clone_from(&mut self, src: &Game) {
        let Game {
            rules,
            setup,
            board,
            to_move,
            start_hash,
            hist,
            removed,
            last_seen,
            pos_seen,
            bans,
            disturb_used,
            pending,
            consecutive_passes,
            phase,
            end,
            penalties,
            snapshots,
        } = src;
        self.rules = *rules;
        self.setup.clone_from(setup);
        self.board.clone_from(board);
        self.to_move = *to_move;
        self.start_hash = *start_hash;
        copy_vec(&mut self.hist, hist);
        copy_vec(&mut self.removed, removed);
        self.last_seen.copy_from(last_seen);
        self.pos_seen.clone_from(pos_seen);
        self.bans.clone_from(bans);
        self.disturb_used.clone_from(disturb_used);
        self.pending.clone_from(pending);
        self.consecutive_passes = *consecutive_passes;
        self.phase = *phase;
        self.end.clone_from(end);
        self.penalties = *penalties;
        self.snapshots.clone_from(snapshots);
    }
}

impl Game {
    /// A new game from `setup` under `rules`, with room for two moves per point of the board
    /// reserved in its history (most games are shorter; a playout then never regrows a table).
    pub fn new(setup: Setup, rules: Rules) -> Game {
        let expected = setup.board.area() * 2;
        Game::new_shared(Arc::new(setup), rules, expected)
    }

    /// A new game like [`Game::new`] whose history has room for `moves` moves: for a game whose
    /// length is known, such as the replay of a record, which then holds no unused room.
    ///
    /// ```
    /// use ingo_rules::{Game, Rules, Setup};
    /// let short = Game::with_room_for(Setup::empty(19).unwrap(), Rules::ing(), 100);
    /// let usual = Game::new(Setup::empty(19).unwrap(), Rules::ing());
    /// assert!(short.history_bytes() < usual.history_bytes());
    /// ```
    pub fn with_room_for(setup: Setup, rules: Rules, moves: usize) -> Game {
        Game::new_shared(Arc::new(setup), rules, moves + 1)
    }

    fn new_shared(setup: Arc<Setup>, rules: Rules, expected: usize) -> Game {
        let board = Box::new(setup.board.clone());
        let to_move = setup.to_move;
        let start_hash = board.hash();
        let situations = if tracks_situations(rules.ko) {
            expected
        } else {
            0
        };
        let mut g = Game {
            rules,
            setup,
            board,
            to_move,
            start_hash,
            hist: Vec::with_capacity(expected),
            removed: Vec::new(),
            last_seen: KeySet::with_capacity(situations),
            pos_seen: FxHashMap::default(),
            bans: FxHashMap::default(),
            disturb_used: FxHashSet::default(),
            pending: None,
            consecutive_passes: 0,
            phase: Phase::Playing,
            end: None,
            penalties: ByColor::default(),
            snapshots: Vec::new(),
        };
        if tracks_situations(rules.ko) {
            g.last_seen.insert(start_hash ^ zobrist::side(to_move));
        }
        if rules.ko == KoRule::PositionalSuperko {
            g.pos_seen.insert(start_hash, 0);
        }
        g
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The setup the game started from.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The current board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Who is to move.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The state of play.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// How the game ended, once it has.
    pub fn end(&self) -> Option<&GameEnd> {
        self.end.as_ref()
    }

    /// Number of moves played (passes included).
    pub fn move_count(&self) -> usize {
        self.hist.len()
    }

    /// The heap bytes held by the history: the moves (16 bytes each), the removed stones, the
    /// tables of situations and positions seen, the cycle bans and disturbances, and the board
    /// snapshots (shared with clones, counted here in full). Exact for the vectors; for the hash
    /// tables, the bucket arrays as `hashbrown` lays them out (an entry and a control byte per
    /// bucket). Reserved room counts, since it is allocated. Not included: the board (about
    /// 15 KB, boxed), the setup and the `Game` value itself.
    ///
    /// ```
    /// use ingo_rules::{Game, Move, Point, Rules, Setup};
    /// let mut game = Game::new(Setup::empty(9).unwrap(), Rules::ing());
    /// game.play(Move::Play(Point::from_gtp("E5", 9, 9).unwrap())).unwrap();
    /// // Room for two moves per point is reserved from the start: 162 moves of 16 bytes.
    /// assert!(game.history_bytes() >= 162 * 16);
    /// ```
    pub fn history_bytes(&self) -> usize {
        use std::mem::size_of;
        fn table_bytes(capacity: usize, entry: usize) -> usize {
            // hashbrown keeps a power-of-two number of buckets, at most 7/8 full (all but one
            // below 8 buckets), plus one control byte per bucket and a 16-byte group at the end.
            let buckets = match capacity {
                0 => return 0,
                c if c < 8 => (c + 1).next_power_of_two(),
                c => (c * 8 / 7).next_power_of_two(),
            };
            buckets * (entry + 1) + 16
        }
        self.hist.capacity() * size_of::<Ply>()
            + self.removed.capacity() * size_of::<Point>()
            + self.last_seen.heap_bytes()
            + table_bytes(self.pos_seen.capacity(), size_of::<(u64, u32)>())
            + table_bytes(self.bans.capacity(), size_of::<((u64, u16), u32)>())
            + table_bytes(self.disturb_used.capacity(), size_of::<u64>())
            + self.snapshots.capacity() * size_of::<Arc<Packed>>()
            // Each snapshot: the packed cells and the Arc's two counters.
            + self.snapshots.len() * (size_of::<Packed>() + 2 * size_of::<usize>())
    }

    /// Number of consecutive passes at the end of the history.
    pub fn consecutive_passes(&self) -> u32 {
        self.consecutive_passes
    }

    /// The hash of the current situation (position and side to move).
    pub fn situation_hash(&self) -> u64 {
        self.board.hash() ^ zobrist::side(self.to_move)
    }

    /// Time-penalty points each side has incurred (罰點), subtracted from its count.
    pub fn penalties(&self) -> ByColor<i32> {
        self.penalties
    }

    /// Sets the time-penalty points of `color`.
    pub fn set_penalty(&mut self, color: Color, points: i32) {
        *self.penalties.get_mut(color) = points;
    }

    /// Whether the game is a handicap game (White owes or owed handicap passes).
    pub fn is_handicap(&self) -> bool {
        self.setup.handicap_passes > 0
    }

    /// Whether White's next move is one of the handicap passes (White has passed at each turn so
    /// far and fewer times than the handicap).
    pub fn handicap_pass_due(&self) -> bool {
        if self.to_move != Color::White || self.setup.handicap_passes == 0 {
            return false;
        }
        let mut white_moves = 0;
        for ply in &self.hist {
            if ply.color == Color::White {
                if ply.pt != NO_POINT {
                    return false;
                }
                white_moves += 1;
            }
        }
        white_moves < self.setup.handicap_passes as usize
    }

    /// The history, oldest first.
    pub fn history(&self) -> impl DoubleEndedIterator<Item = PlayedMove<'_>> + ExactSizeIterator {
        (0..self.hist.len()).map(move |k| self.played(k))
    }

    /// The stones removed by move `k` (0-based).
    fn removed_by(&self, k: usize) -> &[Point] {
        let start = self.hist[k].removed_start as usize;
        let end = self
            .hist
            .get(k + 1)
            .map_or(self.removed.len(), |next| next.removed_start as usize);
        &self.removed[start..end]
    }

    fn played(&self, k: usize) -> PlayedMove<'_> {
        let ply = &self.hist[k];
        PlayedMove {
            color: ply.color,
            mv: ply.point().map_or(Move::Pass, Move::Play),
            removed: self.removed_by(k),
            suicide: ply.flags & F_SUICIDE != 0,
            ko_capture: ply.flags & F_KO_CAPTURE != 0,
            attacking: ply.flags & F_ATTACKING != 0,
            forced: ply.flags & F_FORCED != 0,
        }
    }

    /// The last move, if any.
    pub fn last_move(&self) -> Option<PlayedMove<'_>> {
        self.hist.len().checked_sub(1).map(|k| self.played(k))
    }

    /// Stones of `color` removed from the board so far (prisoners taken by its opponent, and own
    /// stones lost to block suicide).
    pub fn stones_lost(&self, color: Color) -> usize {
        (0..self.hist.len())
            .map(|k| {
                let ply = &self.hist[k];
                let lost = if ply.flags & F_SUICIDE != 0 {
                    ply.color
                } else {
                    ply.color.opponent()
                };
                if lost == color {
                    self.removed_by(k).len()
                } else {
                    0
                }
            })
            .sum()
    }

    fn pos_before(&self, t: usize) -> u64 {
        if t == 0 {
            self.start_hash
        } else {
            self.hist[t - 1].pos_after
        }
    }

    fn color_at_index(&self, t: usize) -> Color {
        self.hist.get(t).map_or(self.to_move, |p| p.color)
    }

    /// The cells of the position after the first `t` moves, rebuilt by walking back from the
    /// current one. Used only to confirm a hash match, so a collision never decides a verdict.
    fn cells_at(&self, t: usize) -> Box<[Cell; CELLS]> {
        // Start from the first snapshot at or after `t` (the setup for `t == 0`, the current board
        // when there is none) and walk back from there.
        let k = t.div_ceil(SNAPSHOT_EVERY);
        let (mut cells, from) = if t == 0 {
            return Box::new(self.setup.board.cells);
        } else if let Some(snap) = self.snapshots.get(k - 1) {
            (Box::new(unpack(snap)), k * SNAPSHOT_EVERY)
        } else {
            (Box::new(self.board.cells), self.hist.len())
        };
        for k in (t..from).rev() {
            let ply = &self.hist[k];
            let lost = if ply.flags & F_SUICIDE != 0 {
                ply.color
            } else {
                ply.color.opponent()
            };
            let cell = match lost {
                Color::Black => Cell::Black,
                Color::White => Cell::White,
            };
            for p in self.removed_by(k) {
                cells[p.idx()] = cell;
            }
            if ply.pt != NO_POINT {
                cells[ply.pt as usize] = Cell::Empty;
            }
        }
        cells
    }

    /// The latest index `t <= upto` (number of moves played) at which the situation hashed `sit`
    /// stood. A backward scan of the history, run only when the situation table has a hit.
    fn latest_index_of(&self, sit: u64, upto: usize) -> Option<usize> {
        (0..=upto.min(self.hist.len()))
            .rev()
            .find(|&t| self.pos_before(t) ^ zobrist::side(self.color_at_index(t)) == sit)
    }

    /// Whether `mv` is legal for the player to move.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(self.to_move, mv).is_ok()
    }

    /// Why `mv` by the player to move would be refused, if it would.
    pub fn illegal_reason(&self, mv: Move) -> Option<PlayErrorKind> {
        self.check(self.to_move, mv).err()
    }

    /// Every legal move of the player to move: board plays in row-major order, then the pass.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out: Vec<Move> = self
            .board
            .points()
            .map(Move::Play)
            .filter(|&m| self.is_legal(m))
            .collect();
        if self.phase != Phase::Ended {
            out.push(Move::Pass);
        }
        out
    }

    /// Checks a move by `color`, deciding legality lazily for this move only.
    fn check(&self, color: Color, mv: Move) -> Result<Plan, PlayErrorKind> {
        if self.phase == Phase::Ended {
            return Err(PlayErrorKind::GameOver);
        }
        if color != self.to_move {
            return Err(PlayErrorKind::OutOfTurn);
        }
        let p = match mv {
            // "虛手": a pass is always legal.
            Move::Pass => return Ok(Plan { pending: None }),
            Move::Play(p) => p,
        };
        match self.board.get(p) {
            Cell::Empty => {}
            Cell::Edge => return Err(PlayErrorKind::OffBoard),
            Cell::Black | Cell::White => return Err(PlayErrorKind::Occupied),
        }
        let a = self.board.analyze(p, color);
        if a.suicide {
            // "顆子自盡…變窮禁著。塊子自盡，變未窮，不禁著。"
            let forbidden = match self.rules.suicide {
                SuicideRule::None => true,
                SuicideRule::BlockOnly => a.lone,
                SuicideRule::All => false,
            };
            if forbidden {
                return Err(PlayErrorKind::Suicide);
            }
        }
        match self.rules.ko {
            KoRule::Simple => {
                if self.retakes_hot_stone(p, &a) {
                    return Err(PlayErrorKind::HotStone);
                }
                Ok(Plan { pending: None })
            }
            KoRule::Ing => self.check_ing(color, p, &a),
            KoRule::PositionalSuperko => {
                if let Some(&t) = self.pos_seen.get(&a.hash_after) {
                    if self.confirm_after_play(p, color, t as usize) {
                        return Err(PlayErrorKind::Superko);
                    }
                }
                Ok(Plan { pending: None })
            }
            KoRule::SituationalSuperko => {
                let sit = a.hash_after ^ zobrist::side(color.opponent());
                if self.last_seen.contains(sit) {
                    if let Some(t) = self.latest_index_of(sit, self.hist.len()) {
                        if self.color_at_index(t) == color.opponent()
                            && self.confirm_after_play(p, color, t)
                        {
                            return Err(PlayErrorKind::Superko);
                        }
                    }
                }
                Ok(Plan { pending: None })
            }
        }
    }

    /// Whether the board after `color` plays `p` equals the position after `t` moves.
    fn confirm_after_play(&self, p: Point, color: Color, t: usize) -> bool {
        let mut b = self.board.clone();
        let mut scratch = Vec::new();
        b.play_unchecked(p, color, &mut scratch);
        *self.cells_at(t) == b.cells
    }

    /// R2, single hot stone (單熱子): the previous move captured exactly the one stone on `p`,
    /// and this play would capture exactly the stone that made that capture. This is the exact
    /// board comparison behind "h' == L.pos_before", so no hash is involved.
    fn retakes_hot_stone(&self, p: Point, a: &PlayAnalysis) -> bool {
        let Some(last) = self.hist.last() else {
            return false;
        };
        if last.pt == NO_POINT
            || last.flags & F_SUICIDE != 0
            || self.removed.len() - last.removed_start as usize != 1
        {
            return false;
        }
        self.removed[last.removed_start as usize] == p
            && a.captured_stones == 1
            && a.captured_heads[0] == self.board.head[last.pt as usize]
    }

    #[inline]
    fn check_ing(&self, color: Color, p: Point, a: &PlayAnalysis) -> Result<Plan, PlayErrorKind> {
        if a.captured_stones == 0 {
            // R2–R5 are all about captures (hot stones, ko captures); most plays capture
            // nothing and only R6 can refuse them. Kept apart from the capture case so that
            // this common path is inlined and pays nothing for the rest.
            if self.cycle_banned(color, p) {
                return Err(PlayErrorKind::Cycle);
            }
            return Ok(Plan { pending: None });
        }
        self.check_ing_capture(color, p, a)
    }

    /// [`Game::check_ing`] for a play that captures.
    #[inline(never)]
    fn check_ing_capture(
        &self,
        color: Color,
        p: Point,
        a: &PlayAnalysis,
    ) -> Result<Plan, PlayErrorKind> {
        let opp = color.opponent();
        // R2 單熱子: "凡提取熱子必須間隔一實手或虛手". After a pass the last move is not a play,
        // so the retake is legal (隔虛提劫).
        if self.retakes_hot_stone(p, a) {
            return Err(PlayErrorKind::HotStone);
        }
        // R3 雙熱子: "雙覆子逢雙成為雙熱子". The opponent just captured two or more stones and
        // this play retakes a group that includes the capturing stone; it is refused when the
        // opponent could then close the eternal-life cycle with one throw-in.
        if let (Some(last), true) = (self.hist.last(), self.hist.len() >= 2) {
            if last.pt != NO_POINT
                && last.flags & F_SUICIDE == 0
                && self.removed.len() > last.removed_start as usize
                && a.captured_stones >= 2
                && a.captured_heads
                    .contains(&self.board.head[last.pt as usize])
            {
                let t = self.hist.len() - 2;
                let target = self.pos_before(t);
                for &h in &a.captured_heads {
                    for q in self.board.string_stones(Point(h)) {
                        if a.hash_after ^ zobrist::stone(q.idx(), opp) == target
                            && self.confirm_double_hot(p, color, q, t)
                        {
                            return Err(PlayErrorKind::DoubleHot);
                        }
                    }
                }
            }
        }
        if self.cycle_banned(color, p) {
            return Err(PlayErrorKind::Cycle);
        }
        // R4 and R5 concern ko captures that attack.
        let mut pending = None;
        if let Some(y) = self.ko_capture_target(p, a) {
            if self.attacks(p, a) {
                let pairs = ko::complex(
                    &self.board,
                    KoPair {
                        x: p.0,
                        y: y as u16,
                    },
                );
                let n = pairs.len();
                if n >= 3 && n % 2 == 1 {
                    // R4 孿熱子: "爭三劫除單熱子外，另一單或雙覆子視同熱子".
                    if let Some(last) = self.hist.last() {
                        let last_attacking_ko = last.pt != NO_POINT
                            && last.flags & F_KO_CAPTURE != 0
                            && last.flags & F_ATTACKING != 0;
                        if last_attacking_ko
                            && pairs.iter().any(|k| k.y == last.pt)
                            && last.pt as usize != y
                        {
                            return Err(PlayErrorKind::TwinHot);
                        }
                    }
                } else if n >= 2 && n.is_multiple_of(2) {
                    // R5 越環再攪: "凡越環再攪必須隨時禁止攪方續攪".
                    let key = ko::local_key(&self.board, &pairs)
                        ^ zobrist::stone(p.idx(), color).rotate_left(17);
                    if self.disturb_used.contains(&key) {
                        return Err(PlayErrorKind::Disturbing);
                    }
                    pending = Some(Box::new(Pending {
                        key,
                        ys: pairs
                            .iter()
                            .filter(|k| k.y as usize != y)
                            .map(|k| k.y)
                            .take(16)
                            .collect(),
                    }));
                }
            }
        }
        Ok(Plan { pending })
    }

    /// R6: whether the play of `color` on `p` is banned for good in this situation after a
    /// completed cycle ("越環再攪…變窮").
    #[inline]
    fn cycle_banned(&self, color: Color, p: Point) -> bool {
        if self.bans.is_empty() {
            return false;
        }
        self.cycle_banned_in(color, p)
    }

    /// [`Game::cycle_banned`] once some play is banned.
    #[inline(never)]
    fn cycle_banned_in(&self, color: Color, p: Point) -> bool {
        let sit = self.situation_hash();
        match self.bans.get(&(sit, p.0)) {
            Some(&t) => {
                let t = t as usize;
                self.hist[t].color == color && *self.cells_at(t) == self.board.cells
            }
            None => false,
        }
    }

    /// The board after the play with an extra opponent stone on `q`, compared with the position
    /// after `t` moves (R3's exact check).
    fn confirm_double_hot(&self, p: Point, color: Color, q: Point, t: usize) -> bool {
        let mut b = self.board.clone();
        let mut scratch = Vec::new();
        b.play_unchecked(p, color, &mut scratch);
        b.cells[q.idx()] = match color.opponent() {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        };
        *self.cells_at(t) == b.cells
    }

    /// When the play on `p` is a ko capture, the point of the stone it captures.
    fn ko_capture_target(&self, p: Point, a: &PlayAnalysis) -> Option<usize> {
        if a.captured_stones != 1 || !a.lone {
            return None;
        }
        if self
            .board
            .neighbors(p)
            .any(|q| self.board.get(q) == Cell::Empty)
        {
            return None;
        }
        Some(a.captured_heads[0] as usize)
    }

    /// Whether the play on `p` leaves an opponent string next to it (one it does not capture)
    /// with exactly one liberty; such a string had two, `p` and one more.
    fn attacks(&self, p: Point, a: &PlayAnalysis) -> bool {
        if a.suicide {
            return false;
        }
        let opp = self.to_move.opponent();
        self.board.neighbors(p).any(|q| {
            self.board.color_at(q) == Some(opp)
                && !a.captured_heads.contains(&self.board.head[q.idx()])
                && self.board.liberties_upto(q, 3).len() == 2
        })
    }

    /// Plays `mv` for the player to move.
    ///
    /// # Errors
    /// A [`PlayError`] saying why the move is illegal; the game is then unchanged.
    #[inline]
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        self.play_as(self.to_move, mv)
    }

    /// Plays `mv` for `color`, which must be the player to move.
    ///
    /// # Errors
    /// A [`PlayError`] saying why the move is illegal (`out-of-turn` when `color` is not to move).
    #[inline]
    pub fn play_as(&mut self, color: Color, mv: Move) -> Result<(), PlayError> {
        match self.check(color, mv) {
            Ok(plan) => {
                self.apply(color, mv, plan, 0);
                Ok(())
            }
            Err(kind) => Err(PlayError::new(color, mv, kind, self.board.height())),
        }
    }

    /// Plays `mv` like [`Game::play`], but accepts a board play that only a ko rule refuses (the
    /// tolerant replay of spec §9.12, for records with 誤提, mistaken hot captures). Returns the
    /// rule that was overridden, if any.
    ///
    /// # Errors
    /// When the move is illegal for any other reason (occupied, suicide, game over, …).
    pub fn play_tolerant(&mut self, mv: Move) -> Result<Option<PlayErrorKind>, PlayError> {
        let color = self.to_move;
        match self.check(color, mv) {
            Ok(plan) => {
                self.apply(color, mv, plan, 0);
                Ok(None)
            }
            Err(kind) if kind.is_ko() => {
                self.apply(color, mv, Plan { pending: None }, F_FORCED);
                Ok(Some(kind))
            }
            Err(kind) => Err(PlayError::new(color, mv, kind, self.board.height())),
        }
    }

    fn apply(&mut self, color: Color, mv: Move, plan: Plan, extra_flags: u8) {
        let removed_start = self.removed.len();
        let mut flags = extra_flags;
        let pt = match mv {
            Move::Pass => NO_POINT,
            Move::Play(p) => {
                if self.board.play_unchecked(p, color, &mut self.removed) {
                    flags |= F_SUICIDE;
                } else {
                    let n = self.removed.len() - removed_start;
                    let opp = color.opponent();
                    if n == 1
                        && self.board.string_size(p) == 1
                        && self.board.atari_liberty(p) == Some(self.removed[removed_start])
                    {
                        flags |= F_KO_CAPTURE;
                    }
                    if self.board.next_to_atari(p, opp) {
                        flags |= F_ATTACKING;
                    }
                }
                p.0
            }
        };
        self.hist.push(Ply {
            pos_after: self.board.hash(),
            removed_start: removed_start as u32,
            pt,
            color,
            flags,
        });
        if self.hist.len().is_multiple_of(SNAPSHOT_EVERY) {
            self.snapshots.push(Arc::new(pack(&self.board.cells)));
        }
        // R5: a pending disturbing capture becomes "used" only when the opponent's very next
        // move captures the stone of another pair of the complex, the free answer a double ko
        // gives ("攪方迫使對方或利用雙劫循環提取").
        if let Some(pending) = self.pending.take() {
            let removed = &self.removed[removed_start..];
            if pt != NO_POINT
                && flags & F_SUICIDE == 0
                && removed.iter().any(|r| pending.ys.contains(&r.0))
            {
                self.disturb_used.insert(pending.key);
            }
        }
        self.pending = plan.pending;
        self.to_move = color.opponent();
        let index = self.hist.len();
        let sit = self.situation_hash();
        // One probe of the table: the insert says whether the situation stood before.
        let seen_before = tracks_situations(self.rules.ko) && !self.last_seen.insert(sit);
        if pt != NO_POINT {
            if self.rules.ko == KoRule::Ing && seen_before {
                // The latest earlier index with this situation on the real board: a hash that
                // matches a different board is passed over.
                let mut upto = index - 1;
                while let Some(j) = self.latest_index_of(sit, upto) {
                    if self.color_at_index(j) == self.to_move
                        && *self.cells_at(j) == self.board.cells
                    {
                        self.ban_cycle(j);
                        break;
                    }
                    match j.checked_sub(1) {
                        Some(u) => upto = u,
                        None => break,
                    }
                }
            }
            self.consecutive_passes = 0;
            self.phase = Phase::Playing;
        } else {
            // "單官著完各一虛手著手休止…死子清完再各一虛手著手終了": two passes suspend, four end.
            self.consecutive_passes += 1;
            if self.consecutive_passes >= 4 {
                self.phase = Phase::Ended;
                self.end = Some(GameEnd::Passes);
            } else if self.consecutive_passes >= 2 {
                self.phase = Phase::Suspended;
            }
        }
        if self.rules.ko == KoRule::PositionalSuperko {
            self.pos_seen
                .entry(self.board.hash())
                .or_insert(index as u32);
        }
    }

    /// R6: a board play recreated the situation that stood after `j` moves. Ban, in their own
    /// situations, the attacking plays of the cycle, or when there are none the plays of the
    /// player who completed it (the disturber; the victim's replies stay legal).
    fn ban_cycle(&mut self, j: usize) {
        let last = self.hist.len() - 1;
        let completer = self.hist[last].color;
        let seg = j..=last;
        let any_attacking = self.hist[seg.clone()]
            .iter()
            .any(|p| p.pt != NO_POINT && p.flags & F_ATTACKING != 0);
        for k in seg {
            let ply = self.hist[k];
            if ply.pt == NO_POINT || ply.flags & F_BANNED != 0 {
                continue;
            }
            let chosen = if any_attacking {
                ply.flags & F_ATTACKING != 0
            } else {
                ply.color == completer
            };
            if chosen {
                let sit = self.pos_before(k) ^ zobrist::side(ply.color);
                self.bans.entry((sit, ply.pt)).or_insert(k as u32);
                self.hist[k].flags |= F_BANNED;
            }
        }
    }

    /// Takes back the last move; the game is rebuilt from the setup, so every rule state
    /// (bans, disturbances, passes, the end) is exactly what it was.
    ///
    /// # Errors
    /// [`GameError::NothingToUndo`] at the start of the game.
    pub fn undo(&mut self) -> Result<Move, GameError> {
        let last = self.hist.last().ok_or(GameError::NothingToUndo)?;
        let undone = last.point().map_or(Move::Pass, Move::Play);
        let moves: Vec<(Color, Move, bool)> = self.hist[..self.hist.len() - 1]
            .iter()
            .map(|p| {
                (
                    p.color,
                    p.point().map_or(Move::Pass, Move::Play),
                    p.flags & F_FORCED != 0,
                )
            })
            .collect();
        let mut g = Game::new_shared(Arc::clone(&self.setup), self.rules, self.hist.capacity());
        g.penalties = self.penalties;
        for (color, mv, forced) in moves {
            let ok = if forced {
                g.play_tolerant(mv).is_ok()
            } else {
                g.play_as(color, mv).is_ok()
            };
            debug_assert!(ok, "replaying a played move cannot fail");
        }
        *self = g;
        Ok(undone)
    }

    /// At a suspension, both players agree that the stones on `dead` are dead: they are taken off
    /// at counting and the game ends (this stands in for the two final passes).
    ///
    /// # Errors
    /// When play is not suspended or a point holds no stone.
    pub fn agree_dead(&mut self, dead: &[Point]) -> Result<(), GameError> {
        if self.phase != Phase::Suspended {
            return Err(GameError::NotSuspended);
        }
        if let Some(&p) = dead.iter().find(|&&p| self.board.color_at(p).is_none()) {
            return Err(GameError::NoStone(p));
        }
        self.phase = Phase::Ended;
        self.end = Some(GameEnd::Agreement(dead.to_vec()));
        Ok(())
    }

    fn finish(&mut self, end: GameEnd) -> Result<(), GameError> {
        if self.phase == Phase::Ended {
            return Err(GameError::AlreadyEnded);
        }
        self.phase = Phase::Ended;
        self.end = Some(end);
        Ok(())
    }

    /// `color` resigns. Resignation is an act, not a move: the history is unchanged.
    ///
    /// # Errors
    /// When the game has already ended.
    pub fn resign(&mut self, color: Color) -> Result<(), GameError> {
        self.finish(GameEnd::Resignation(color))
    }

    /// `color` loses on time.
    ///
    /// # Errors
    /// When the game has already ended.
    pub fn lose_on_time(&mut self, color: Color) -> Result<(), GameError> {
        self.finish(GameEnd::Time(color))
    }

    /// `color` forfeits, for `reason`.
    ///
    /// # Errors
    /// When the game has already ended.
    pub fn forfeit(&mut self, color: Color, reason: &str) -> Result<(), GameError> {
        self.finish(GameEnd::Forfeit(color, reason.to_string()))
    }

    /// Counts the board as it stands with the stones on `dead` removed (spec §5), with this
    /// game's komi, penalties and tie rule.
    pub fn count(&self, dead: &[Point]) -> Score {
        count::score(
            &self.board,
            dead,
            self.rules.komi,
            self.penalties,
            self.tie_winner(),
        )
    }

    /// Counts the position as it stands with every stone alive, like `count(&[])` but without
    /// the per-point map and the fill-in breakdown (and without allocating): the count at the
    /// end of a playout.
    pub fn tally(&self) -> Tally {
        count::tally(
            &self.board,
            self.rules.komi,
            self.penalties,
            self.tie_winner(),
        )
    }

    /// Who wins a count with a margin of 0: the rules' tie winner for even or handicap games.
    fn tie_winner(&self) -> Color {
        if self.is_handicap() {
            self.rules.tie_handicap
        } else {
            self.rules.tie_even
        }
    }

    /// The count of an ended game: the agreed dead stones removed, or none after four passes.
    /// `None` while the game goes on or when it ended otherwise than by counting.
    pub fn score(&self) -> Option<Score> {
        match &self.end {
            Some(GameEnd::Passes) => Some(self.count(&[])),
            Some(GameEnd::Agreement(dead)) => Some(self.count(dead)),
            _ => None,
        }
    }

    /// The winner, once the game has ended: by count, or the opponent of who resigned, lost on
    /// time or forfeited.
    pub fn winner(&self) -> Option<Color> {
        match &self.end {
            None => None,
            Some(GameEnd::Passes | GameEnd::Agreement(_)) => self.score().map(|s| s.winner),
            Some(GameEnd::Resignation(c) | GameEnd::Time(c) | GameEnd::Forfeit(c, _)) => {
                Some(c.opponent())
            }
        }
    }
}
