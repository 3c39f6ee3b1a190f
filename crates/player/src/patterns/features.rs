//! The features of a candidate move, after Coulom (2007): tactical facts (capture, atari
//! escape, self-atari, atari, with ladders read where cheap), the distances to the last two
//! moves and to the edge, the pass, and the shapes around the point.

use ingo_rules::{Board, Color, Game, Move, Point, MAX_SIZE};

use super::shape::{Diamonds, Shape3x3};
use crate::tactics::{Limits, Reader, Verdict};

/// The feature groups with a fixed number of levels; a move has at most one level of each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Group {
    /// The pass: level 0 after a board play, 1 after a pass.
    Pass,
    /// The play captures: level `3·kind + size`, kind 0 when a captured string touches a
    /// string of the player's own in atari (the capture saves it), 1 when it captures the
    /// opponent's last stone played, 2 otherwise; size 0 for one stone, 1 for 2 to 4, 2 for 5
    /// or more (all strings captured together).
    Capture,
    /// The play extends a string of the player's own in atari (its liberty) to two liberties
    /// or more, capturing nothing: level 0 or 1 when the last move put it in atari (the
    /// opponent's last stone touches it), 2 or 3 otherwise; the odd level when, left with two
    /// liberties, a ladder captures it still (read by [`crate::tactics::Reader::ladder`]).
    Escape,
    /// The play leaves the player's own string with one liberty and captures nothing: level 0
    /// for a string of 1 or 2 stones (a throw-in, a nakade), 1 for 3 or more, 2 when it leaves
    /// none (a block suicide, legal under Ing's rules: "塊子自盡…不禁著").
    SelfAtari,
    /// The play leaves an opponent string with one liberty (without capturing it): level 0
    /// when a ladder then captures it, 1 otherwise.
    Atari,
    /// The distance `d = |dx| + |dy| + max(|dx|, |dy|)` to the last move (a board play):
    /// level `d − 2` for `d` in 2..=16, 15 for 17 or more.
    DistanceLast,
    /// The same distance to the move before the last (the player's own previous move).
    DistanceBeforeLast,
    /// The line of the point (1 at the edge): level `line − 1`, at most 5 (the sixth line and
    /// inwards).
    Edge,
}

impl Group {
    /// Every group, in the order of [`MoveFeatures::levels`].
    pub const ALL: [Group; 8] = [
        Group::Pass,
        Group::Capture,
        Group::Escape,
        Group::SelfAtari,
        Group::Atari,
        Group::DistanceLast,
        Group::DistanceBeforeLast,
        Group::Edge,
    ];

    /// The number of levels of the group.
    pub const fn levels(self) -> usize {
        match self {
            Group::Pass => 2,
            Group::Capture => 9,
            Group::Escape => 4,
            Group::SelfAtari => 3,
            Group::Atari => 2,
            Group::DistanceLast | Group::DistanceBeforeLast => 16,
            Group::Edge => 6,
        }
    }

    /// The group's name in a weights file.
    pub const fn name(self) -> &'static str {
        match self {
            Group::Pass => "pass",
            Group::Capture => "capture",
            Group::Escape => "escape",
            Group::SelfAtari => "self-atari",
            Group::Atari => "atari",
            Group::DistanceLast => "distance-last",
            Group::DistanceBeforeLast => "distance-before-last",
            Group::Edge => "edge",
        }
    }

    /// The group named `name` in a weights file.
    pub fn from_name(name: &str) -> Option<Group> {
        Group::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The group's index in [`Group::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// The features of one candidate move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveFeatures {
    /// The move.
    pub mv: Move,
    /// The level of each group of [`Group::ALL`], when the move has that feature.
    pub levels: [Option<u8>; 8],
    /// The 3×3 shape's key ([`Shape3x3`]); `None` for a pass.
    pub shape: Option<u32>,
    /// The diamonds' hashes ([`Diamonds`]); `None` for a pass.
    pub diamonds: Option<Diamonds>,
}

impl MoveFeatures {
    /// The level of `group`, if the move has that feature.
    pub fn level(&self, group: Group) -> Option<u8> {
        self.levels[group.index()]
    }
}

/// Coulom's distance `|dx| + |dy| + max(|dx|, |dy|)`, as a level of
/// [`Group::DistanceLast`].
fn distance_level(a: Point, b: Point) -> u8 {
    let dx = a.col().abs_diff(b.col());
    let dy = a.row().abs_diff(b.row());
    let d = dx + dy + dx.max(dy);
    (d.clamp(2, 17) - 2) as u8
}

/// A set of at most `N` points, in insertion order; points past the first `N` are dropped.
struct Few<const N: usize> {
    items: [Point; N],
    len: usize,
}

impl<const N: usize> Few<N> {
    /// An empty set (`filler` only fills the unused slots).
    fn new(filler: Point) -> Self {
        Few {
            items: [filler; N],
            len: 0,
        }
    }

    /// Adds `q` unless it is there or the set is full; whether it was added.
    fn insert(&mut self, q: Point) -> bool {
        if self.len == N || self.items[..self.len].contains(&q) {
            return false;
        }
        self.items[self.len] = q;
        self.len += 1;
        true
    }

    fn len(&self) -> usize {
        self.len
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn as_slice(&self) -> &[Point] {
        &self.items[..self.len]
    }
}

fn local(p: Point) -> usize {
    p.row() * MAX_SIZE + p.col()
}

/// Computes the features of the moves of one position at a time, keeping buffers (the
/// liberties of the strings, a scratch board and a tactical reader for the ladders) from
/// position to position.
pub struct Extractor {
    /// Per string head ([`local`] index): its liberties up to 3, 0 not yet counted.
    libs: Vec<u8>,
    last: Option<Point>,
    before_last: Option<Point>,
    last_pass: bool,
    to_play: Color,
    scratch: Option<Board>,
    removed: Vec<Point>,
    reader: Reader,
    limits: Limits,
    ladders: bool,
}

impl Default for Extractor {
    fn default() -> Self {
        Extractor::new()
    }
}

impl std::fmt::Debug for Extractor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Extractor")
            .field("ladders", &self.ladders)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl Extractor {
    /// An extractor that reads ladders (with at most 300 nodes a reading).
    pub fn new() -> Extractor {
        Extractor {
            libs: vec![0; MAX_SIZE * MAX_SIZE],
            last: None,
            before_last: None,
            last_pass: false,
            to_play: Color::Black,
            scratch: None,
            removed: Vec::new(),
            reader: Reader::new(),
            limits: Limits {
                nodes: 300,
                ..Limits::default()
            },
            ladders: true,
        }
    }

    /// Whether ladders are read (`true` by default); without, [`Group::Escape`] and
    /// [`Group::Atari`] never take their "the ladder captures" levels.
    pub fn with_ladders(mut self, ladders: bool) -> Extractor {
        self.ladders = ladders;
        self
    }

    /// Starts on the position of `game`: the player to move and the last two moves.
    pub fn prepare(&mut self, game: &Game) {
        self.libs.fill(0);
        self.to_play = game.to_move();
        let mut history = game.history().rev();
        let point = |m: Option<ingo_rules::PlayedMove<'_>>| match m.map(|m| m.mv) {
            Some(Move::Play(p)) => Some(p),
            _ => None,
        };
        let last = history.next();
        self.last_pass = last.as_ref().is_some_and(|m| m.mv == Move::Pass);
        self.last = point(last);
        self.before_last = point(history.next());
    }

    /// The liberties of the string on `q` (a stone), up to 3, counted once per string.
    fn libs_of(&mut self, board: &Board, q: Point) -> u8 {
        let Some(h) = board.string_head(q) else {
            return 0;
        };
        let i = local(h);
        if self.libs[i] == 0 {
            self.libs[i] = board.liberties_upto(q, 3).len().min(3) as u8;
        }
        self.libs[i]
    }

    /// The features of `mv` by the player to move in the position given to
    /// [`Extractor::prepare`] (`board` is that position's board). `mv` should be legal; a
    /// play on a stone has no features but its shapes.
    pub fn features(&mut self, board: &Board, mv: Move) -> MoveFeatures {
        let mut levels = [None; 8];
        let Move::Play(p) = mv else {
            levels[Group::Pass.index()] = Some(u8::from(self.last_pass));
            return MoveFeatures {
                mv,
                levels,
                shape: None,
                diamonds: None,
            };
        };
        let me = self.to_play;
        let shape = {
            // The closure borrows the cache; the board is only read.
            let libs = &mut self.libs;
            Shape3x3::with_liberties(board, p, me, |q| {
                let Some(h) = board.string_head(q) else {
                    return 0;
                };
                let i = local(h);
                if libs[i] == 0 {
                    libs[i] = board.liberties_upto(q, 3).len().min(3) as u8;
                }
                libs[i]
            })
        };
        let diamonds = Diamonds::at(board, p, me);
        if let Some(last) = self.last {
            levels[Group::DistanceLast.index()] = Some(distance_level(p, last));
        }
        if let Some(prev) = self.before_last {
            levels[Group::DistanceBeforeLast.index()] = Some(distance_level(p, prev));
        }
        let line = p
            .col()
            .min(p.row())
            .min(board.width().saturating_sub(1 + p.col()))
            .min(board.height().saturating_sub(1 + p.row()));
        levels[Group::Edge.index()] = Some(line.min(5) as u8);
        if board.color_at(p).is_none() {
            self.tactics(board, p, me, &mut levels);
        }
        MoveFeatures {
            mv,
            levels,
            shape: Some(shape),
            diamonds: Some(diamonds),
        }
    }

    /// The tactical groups of a play of `me` on the empty point `p`.
    fn tactics(&mut self, board: &Board, p: Point, me: Color, levels: &mut [Option<u8>; 8]) {
        let mut heads: Few<4> = Few::new(p);
        // The liberties of the new string, up to 3 (enough to tell atari from safety).
        let mut libs: Few<3> = Few::new(p);
        let add_lib = |libs: &mut Few<3>, q: Point| {
            if q != p {
                libs.insert(q);
            }
        };
        let mut size_after = 1;
        let mut captured = 0;
        let mut saves = false;
        let mut takes_last = false;
        let mut in_atari_own: Option<Point> = None;
        let mut targets: Few<4> = Few::new(p);
        let last_head = self.last.and_then(|l| board.string_head(l));
        let mut neighbors: Few<4> = Few::new(p);
        for q in board.neighbors(p) {
            neighbors.insert(q);
        }
        for &q in neighbors.as_slice() {
            let Some(c) = board.color_at(q) else {
                add_lib(&mut libs, q);
                continue;
            };
            let Some(h) = board.string_head(q) else {
                continue;
            };
            if !heads.insert(h) {
                continue;
            }
            if c == me {
                size_after += board.string_size(q);
                let own = board.liberties_upto(q, 4);
                if own.len() == 1 {
                    in_atari_own = Some(q);
                }
                for &l in own.iter() {
                    add_lib(&mut libs, l);
                }
            } else if board.atari_liberty(q) == Some(p) {
                captured += board.string_size(q);
                // The captured stone next to the play becomes a liberty of it.
                add_lib(&mut libs, q);
                takes_last |= last_head == Some(h);
                if !saves {
                    saves = board.string_stones(q).iter().any(|&s| {
                        board
                            .neighbors(s)
                            .any(|n| board.color_at(n) == Some(me) && board.in_atari(n))
                    });
                }
            } else if self.libs_of(board, q) == 2 {
                targets.insert(q);
            }
        }
        if captured > 0 {
            let kind = if saves {
                0
            } else if takes_last {
                1
            } else {
                2
            };
            let size = match captured {
                1 => 0,
                2..=4 => 1,
                _ => 2,
            };
            levels[Group::Capture.index()] = Some(kind * 3 + size);
        } else {
            match libs.len() {
                0 => levels[Group::SelfAtari.index()] = Some(2),
                1 => levels[Group::SelfAtari.index()] = Some(u8::from(size_after > 2)),
                _ => {}
            }
            if let (Some(q), true) = (in_atari_own, libs.len() >= 2) {
                let new = self.last.is_some_and(|l| {
                    board
                        .neighbors(l)
                        .any(|n| board.string_head(n) == board.string_head(q))
                });
                let dies = libs.len() == 2 && self.ladder_after(board, p, me, p, true);
                levels[Group::Escape.index()] = Some(2 * u8::from(!new) + u8::from(dies));
            }
        }
        if !targets.is_empty() && libs.len() >= 2 {
            let mut works = false;
            for &t in targets.as_slice() {
                if self.ladder_after(board, p, me, t, false) {
                    works = true;
                    break;
                }
            }
            levels[Group::Atari.index()] = Some(u8::from(!works));
        }
    }

    /// Whether, after `me` plays `p`, a ladder captures the string on `target`
    /// ([`Reader::ladder`], the attacker to move when `attacker_to_move`); `false` without
    /// ladder reading or when the reading cannot decide.
    fn ladder_after(
        &mut self,
        board: &Board,
        p: Point,
        me: Color,
        target: Point,
        attacker_to_move: bool,
    ) -> bool {
        if !self.ladders {
            return false;
        }
        let scratch = match &mut self.scratch {
            Some(s) => {
                s.clone_from(board);
                s
            }
            slot => slot.insert(board.clone()),
        };
        self.removed.clear();
        scratch.play_unchecked(p, me, &mut self.removed);
        if scratch.color_at(target).is_none() {
            return false;
        }
        matches!(
            self.reader.ladder(scratch, target, attacker_to_move, &self.limits),
            Ok(r) if r.verdict == Verdict::Yes
        )
    }
}

/// The features of every move the player to move may play in `game` under its rules (every
/// legal board play and the pass; nothing when a handicap pass is due or the game has ended).
pub fn legal_features(game: &Game, extractor: &mut Extractor, out: &mut Vec<MoveFeatures>) {
    out.clear();
    if game.phase() == ingo_rules::Phase::Ended {
        return;
    }
    extractor.prepare(game);
    let board = game.board();
    if !(game.is_handicap() && game.handicap_pass_due()) {
        for i in 0..board.empty_count() {
            let p = board.empty_point(i);
            if game.is_legal(Move::Play(p)) {
                out.push(extractor.features(board, Move::Play(p)));
            }
        }
    }
    if game.is_legal(Move::Pass) {
        out.push(extractor.features(board, Move::Pass));
    }
}
