//! A game: the board and its history under a set of rules. [`Game`] holds the control flow,
//! checking a move ([`Game::check`]), applying it ([`Game::apply`]), the phases (playing,
//! suspended, ended) and the results; each concept it calls on has its own module:
//!
//! * `error`: why a move or an action was refused;
//! * `setup`: where a game starts from;
//! * `history`: the plies, the snapshots, and earlier boards rebuilt to confirm hash matches;
//! * `ing`: Ing's ko rules R2–R6 (beside `crate::ko`, the ko complexes they read);
//! * `superko`: the superko rules of other rule sets.

mod error;
mod history;
mod ing;
mod setup;
mod superko;

#[cfg(test)]
mod collision_tests;

pub use error::{GameError, PlayError, PlayErrorKind};
pub use history::PlayedMove;
pub use setup::{Setup, SetupError};

use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::board::{Board, Cell};
use crate::color::{ByColor, Color};
use crate::count::{self, Score, Tally};
use crate::keyset::KeySet;
use crate::ko::LocalShape;
use crate::point::{Move, Point};
use crate::rules::{KoRule, Rules, SuicideRule};
use crate::zobrist;

use history::{
    pack, Packed, Ply, F_ATTACKING, F_FORCED, F_KO_CAPTURE, F_SUICIDE, NO_POINT, SNAPSHOT_EVERY,
};
use ing::Pending;
use superko::tracks_situations;

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

impl Phase {
    /// The three phases, in the order a game goes through them.
    pub const ALL: [Phase; 3] = [Phase::Playing, Phase::Suspended, Phase::Ended];

    /// The phase's one-word name, as GTP's `ingo-phase`, `showboard` and the judge's reports
    /// give it: `playing`, `suspended`, `ended`.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Playing => "playing",
            Phase::Suspended => "suspended",
            Phase::Ended => "ended",
        }
    }
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
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
    /// Hashes of the positions that have stood (positional superko only). A hit is confirmed
    /// against every index where a position with that hash stood ([`Game::position_recurs`]).
    pos_seen: FxHashSet<u64>,
    /// (situation, point) → the ply whose situation it is: plays banned for good (R6). One
    /// candidate per key here; a second ply whose (situation, point) hashes the same goes to
    /// `more_bans`, so that a collision never hides a real ban.
    bans: FxHashMap<(u64, u16), u32>,
    /// Further candidates of keys already in `bans` (hash collisions, or the same situation
    /// banned from another ply): every one is checked.
    more_bans: Vec<((u64, u16), u32)>,
    /// Disturbing captures already answered (R5): local key → the exact shapes with that key.
    disturb_used: FxHashMap<u64, Vec<LocalShape>>,
    pending: Option<Box<Pending>>,
    consecutive_passes: u32,
    phase: Phase,
    end: Option<GameEnd>,
    penalties: ByColor<i32>,
    /// A handicap game (有差賽) whatever the handicap passes: set from the players' ranks when
    /// the handicap is compensation points alone ([`Game::set_handicap_game`]).
    handicap_game: bool,
    /// The board after every `SNAPSHOT_EVERY`-th move (`snapshots[k]` after `(k+1)·128` moves),
    /// so that rebuilding an earlier board walks back at most 127 moves however long the game.
    /// 183 bytes (two bits a cell) per 128 moves; shared by clones.
    snapshots: Vec<Arc<Packed>>,
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
            more_bans,
            disturb_used,
            pending,
            consecutive_passes,
            phase,
            end,
            penalties,
            handicap_game,
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
            more_bans: more_bans.clone(),
            disturb_used: disturb_used.clone(),
            pending: pending.clone(),
            consecutive_passes: *consecutive_passes,
            phase: *phase,
            end: end.clone(),
            penalties: *penalties,
            handicap_game: *handicap_game,
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
            more_bans,
            disturb_used,
            pending,
            consecutive_passes,
            phase,
            end,
            penalties,
            handicap_game,
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
        self.more_bans.clone_from(more_bans);
        self.disturb_used.clone_from(disturb_used);
        self.pending.clone_from(pending);
        self.consecutive_passes = *consecutive_passes;
        self.phase = *phase;
        self.end.clone_from(end);
        self.penalties = *penalties;
        self.handicap_game = *handicap_game;
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
            pos_seen: FxHashSet::default(),
            bans: FxHashMap::default(),
            more_bans: Vec::new(),
            disturb_used: FxHashMap::default(),
            pending: None,
            consecutive_passes: 0,
            phase: Phase::Playing,
            end: None,
            penalties: ByColor::default(),
            handicap_game: false,
            snapshots: Vec::new(),
        };
        if tracks_situations(rules.ko) {
            g.last_seen.insert(start_hash ^ zobrist::side(to_move));
        }
        if rules.ko == KoRule::PositionalSuperko {
            g.pos_seen.insert(start_hash);
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

    /// Sets the time-penalty points of `color`. Any value counts right (the count is exact
    /// whatever the points); readers of outside data refuse values past
    /// [`crate::MAX_PENALTY_POINTS`].
    pub fn set_penalty(&mut self, color: Color, points: i32) {
        *self.penalties.get_mut(color) = points;
    }

    /// Sets the time-penalty points of both sides (see [`Game::set_penalty`]).
    pub fn set_penalties(&mut self, points: ByColor<i32>) {
        self.penalties = points;
    }

    /// Whether the game is a handicap game (有差賽): White owes or owed handicap passes, or the
    /// game was marked as one with [`Game::set_handicap_game`]. The handicap decides, not the
    /// pass count: a tie goes to [`Rules::tie_handicap`] in a handicap game.
    pub fn is_handicap(&self) -> bool {
        self.handicap_game || self.setup.handicap_passes > 0
    }

    /// Marks the game as a handicap game (有差賽) or not. A handicap from the players' ranks can
    /// be compensation points alone, with no White pass (5段 against 4段 is komi 4, 5段 against
    /// 3段 no komi): such a game is still a handicap game, and its tie goes to
    /// [`Rules::tie_handicap`], not to [`Rules::tie_even`]. A game with handicap passes is a
    /// handicap game whatever this says.
    ///
    /// ```
    /// use ingo_rules::{Color, Game, Rules, Setup};
    /// let mut game = Game::new(Setup::empty(9).unwrap(), Rules::ing());
    /// assert!(!game.is_handicap());
    /// game.set_handicap_game(true);
    /// assert!(game.is_handicap());
    /// ```
    pub fn set_handicap_game(&mut self, handicap: bool) {
        self.handicap_game = handicap;
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
                if self.pos_seen.contains(&a.hash_after) && self.position_recurs(p, color, &a) {
                    return Err(PlayErrorKind::Superko);
                }
                Ok(Plan { pending: None })
            }
            KoRule::SituationalSuperko => {
                let sit = a.hash_after ^ zobrist::side(color.opponent());
                if self.last_seen.contains(sit) && self.situation_recurs(p, color, sit) {
                    return Err(PlayErrorKind::Superko);
                }
                Ok(Plan { pending: None })
            }
        }
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
    /// tolerant replay of docs/rules.md §9.12, for records with 誤提, mistaken hot captures). Returns the
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
        // Asked before the ply is pushed: whether this pass is one of White's handicap passes.
        let handicap_pass = mv == Move::Pass && self.handicap_pass_due();
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
        self.resolve_disturbance(pt, flags, removed_start);
        self.pending = plan.pending;
        self.to_move = color.opponent();
        let index = self.hist.len();
        let sit = self.situation_hash();
        // One probe of the table: the insert says whether the situation stood before.
        let seen_before = tracks_situations(self.rules.ko) && !self.last_seen.insert(sit);
        if pt != NO_POINT {
            if self.rules.ko == KoRule::Ing && seen_before {
                self.close_cycle(index, sit);
            }
            self.consecutive_passes = 0;
            self.phase = Phase::Playing;
        } else if handicap_pass {
            // A handicap pass (讓手) is owed, not chosen, and ends nothing (docs/rules.md §2:
            // "讓手棋…虛手" does not count toward the end): the passes that suspend play are the
            // players' own, so the row starts again after it.
            self.consecutive_passes = 0;
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
            self.pos_seen.insert(self.board.hash());
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
        g.handicap_game = self.handicap_game;
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

    /// Counts the board as it stands with the stones on `dead` removed (docs/rules.md §5), with this
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
