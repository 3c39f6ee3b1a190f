//! The end of a game as a referee counts it: the status of every string (alive, dead, in seki),
//! the neutral points the players fill in turn before counting (填滿計點), the points shared in
//! seki (分空), and the count that results ([`judge_end`]).
//!
//! The method (`docs/endgame.md` has the details and the cases it gets wrong):
//!
//! 1. **Proof first.** Strings that are unconditionally alive by Benson's algorithm are alive,
//!    whatever the playouts say; the strings and ko stones of a double-ko seki, proved from
//!    its shape, are in seki (`double_ko`).
//! 2. **Search for the rest.** Playouts from the final position under the game's own rules
//!    ([`Game::play`] is the judge of every move), in which no side puts a string of two or more
//!    stones into atari without capturing; a string that its owner holds at the end of fewer
//!    than half of them is dead. Then reading: closed capture races between two strings, or
//!    two groups of strings joined through one eye of their own, counted with their eyes
//!    ([`crate::tactics::capture_race_with_eyes`], [`crate::tactics::group_race_with_eyes`];
//!    `races`), and races at one liberty each, taken by the player to move; and the groups
//!    the playouts are unsure of (held by a quarter to three quarters of them), read by a
//!    bounded search of their life where the walls around them stand (proved, open, or with
//!    no liberty beyond the points read but eyes of their own, which the search is given) or
//!    with the walls that may fall, whose small groups the search then plays on too
//!    ([`crate::tactics::read_group`]; `groups`), or, where their region is larger than that
//!    search reads, by the size of their eye space: ten empty points or more with three
//!    stones of the other side inside at most give the group two eyes and those stones none
//!    (`large_eyes`).
//! 3. **The neutral points.** With the dead stones turned into stones of their capturer (the
//!    players fill the dame before the dead stones are cleared: "單官著完…死子清完"), the points
//!    next to stones of both colours ("空屬鄰子" leaves them to nobody) are filled in turn, the
//!    player to move first: a fill that puts a string in atari is answered, sente fills come
//!    first, a side only fills a point where its string keeps two liberties and captures
//!    nothing. The points that neither side can fill stay shared: the seki points
//!    ("雙方各填其半"), and the strings next to them are in seki.
//! 4. **The count.** The board with the fills on it is counted by [`ingo_rules::score`] with the
//!    dead stones removed, which gives the margin, the winner and the fill-in breakdown. The
//!    time penalties of a record, those it states in words included, are the record's
//!    (`ingo_sgf::Record::time_penalties`), given to the game before it is judged.

mod benson;
mod double_ko;
mod fill;
mod groups;
mod large_eyes;
mod playout;
mod races;

use ingo_rules::{score, Board, Color, Game, GameEnd, Owner, Point, Rules, Score, Setup};

use crate::rng::Rng;

/// How much search [`judge_end`] spends, and its seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndgameConfig {
    /// Playouts from the final position (0: every string not proved alive is judged by the
    /// proof and the shape of the board alone, i.e. alive).
    pub playouts: u32,
    /// Seed of the playouts: the same seed gives the same judgement.
    pub seed: u64,
    /// Who fills the first neutral point: `None` for the player to move in the final position.
    pub first_to_fill: Option<Color>,
}

impl Default for EndgameConfig {
    fn default() -> EndgameConfig {
        EndgameConfig {
            playouts: 128,
            seed: 0x1D_EAD5,
            first_to_fill: None,
        }
    }
}

/// The status of a string at the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// It stays on the board and counts for its owner.
    Alive,
    /// It is taken off before counting; its points count for the opponent.
    Dead,
    /// It stays on the board, alive, next to liberties that neither side can fill (分空).
    Seki,
}

impl Status {
    /// The GTP name: `alive`, `dead` or `seki`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Alive => "alive",
            Status::Dead => "dead",
            Status::Seki => "seki",
        }
    }
}

/// How the status of a string was decided, so that a person knows which verdicts to check.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Decided {
    /// Unconditionally alive (Benson's algorithm): no sequence of moves captures it.
    ProvedAlive,
    /// A string or ko stone of a double-ko seki, proved from its shape.
    DoubleKoSeki,
    /// Sampled: its owner held its points at the end of this share of the playouts (dead below
    /// one half).
    Sampled(f64),
    /// Read dead: in atari beside a string of the player to move that it holds in atari (a
    /// capture race at one liberty each), taken by the player to move first.
    MutualAtari,
    /// Read alive: in atari beside a string of the other side in atari, saved by the capture
    /// its owner makes first (the sampling had it dead).
    SavedInRace,
    /// Taken in the fill of the neutral points (a string left in atari).
    TakenInFill,
    /// Read dead in a capture race between two strings, counted on their liberties (outside,
    /// shared, and an eye's by its size: [`crate::tactics::capture_race_with_eyes`]), that it
    /// loses whoever moves first.
    LostRace,
    /// Read alive: it wins a capture race whoever moves first ([`Decided::LostRace`] for the
    /// other string), and the space of the stones it takes gives two eyes whoever plays there
    /// next, or one eye beside an eye of its group's own (the sampling had it dead); or a wall
    /// around a group read dead by a search ([`Decided::GroupRead`]) that the same search
    /// proves alive, the sampling unsure of it and having it dead.
    WonRace,
    /// Read dead by the shape of its group's eye space: the other side's stones inside it
    /// make a dead shape and the group has one eye at most
    /// ([`crate::tactics::dead_by_shape`]).
    DeadShape,
    /// Read alive: stones inside the eye space of a group read dead by its shape
    /// ([`Decided::DeadShape`]) or by a search ([`Decided::GroupRead`]).
    Nakade,
    /// Read dead by a bounded search of its group's life, where the playouts were unsure: the
    /// other side takes it even when its group moves first, the walls around standing
    /// ([`crate::tactics::read_group`]).
    GroupRead,
    /// Read alive: its group encloses a large eye space (more points than the shape reader
    /// and the search read, ten empty or more, three stones of the other side inside at most)
    /// where the playouts were unsure (`large_eyes`).
    LargeEyeSpace,
    /// Read dead: one of three stones or fewer of the other side inside a large eye space
    /// ([`Decided::LargeEyeSpace`]), where the playouts were unsure.
    InLargeEyeSpace,
    /// In seki: held in this share of the playouts, and next to a point the fill leaves
    /// shared.
    SharedPoints(f64),
    /// Read alive: the stone with which the last move took a ko, which the player to move may
    /// not take back at once; the taker connects next (the sampling had it dead).
    KoTakenLast,
    /// Given: dead by an agreement or a proposal, or alive because the rules ended the game
    /// (four passes) or no search was asked for.
    Given,
}

impl Decided {
    /// A short English description: `proved alive`, `sampled at 87%`, `taken in the fill`.
    pub fn describe(&self) -> String {
        match self {
            Decided::ProvedAlive => "proved alive".into(),
            Decided::DoubleKoSeki => "proved seki (double ko)".into(),
            Decided::Sampled(held) => format!("sampled at {:.0}%", held * 100.0),
            Decided::MutualAtari => "read dead (taken first in a race at one liberty each)".into(),
            Decided::SavedInRace => {
                "read alive (saved by taking first in a race at one liberty each)".into()
            }
            Decided::TakenInFill => "taken in the fill".into(),
            Decided::KoTakenLast => {
                "read alive (took a ko last: it may not be taken back at once)".into()
            }
            Decided::LostRace => "read dead (a capture race lost whoever moves first)".into(),
            Decided::WonRace => {
                "read alive (a capture race won whoever moves first, two eyes with the space taken)"
                    .into()
            }
            Decided::DeadShape => {
                "read dead (one eye at most: a dead shape of the other side's stones inside)".into()
            }
            Decided::Nakade => "read alive (inside the eye space of a group read dead)".into(),
            Decided::GroupRead => {
                "read dead (a search of its group's life: taken even moving first)".into()
            }
            Decided::LargeEyeSpace => {
                "read alive (its group encloses a large eye space with few stones inside)".into()
            }
            Decided::InLargeEyeSpace => {
                "read dead (few stones inside a large eye space of the other side)".into()
            }
            Decided::SharedPoints(held) => format!(
                "sampled at {:.0}%, in seki next to points the fill leaves shared",
                held * 100.0
            ),
            Decided::Given => "given".into(),
        }
    }

    /// A name for machines: `proved`, `double_ko`, `sampled`, `mutual_atari`, `saved_in_race`,
    /// `fill`, `ko_taken_last`, `lost_race`, `won_race`, `dead_shape`, `nakade`, `group_read`,
    /// `large_eye_space`, `in_large_eye_space`, `shared`, `given`.
    pub fn name(&self) -> &'static str {
        match self {
            Decided::ProvedAlive => "proved",
            Decided::DoubleKoSeki => "double_ko",
            Decided::Sampled(_) => "sampled",
            Decided::MutualAtari => "mutual_atari",
            Decided::SavedInRace => "saved_in_race",
            Decided::TakenInFill => "fill",
            Decided::KoTakenLast => "ko_taken_last",
            Decided::LostRace => "lost_race",
            Decided::WonRace => "won_race",
            Decided::DeadShape => "dead_shape",
            Decided::Nakade => "nakade",
            Decided::GroupRead => "group_read",
            Decided::LargeEyeSpace => "large_eye_space",
            Decided::InLargeEyeSpace => "in_large_eye_space",
            Decided::SharedPoints(_) => "shared",
            Decided::Given => "given",
        }
    }
}

/// One string of the final position and its status.
#[derive(Clone, Debug, PartialEq)]
pub struct StringStatus {
    /// The string's colour.
    pub color: Color,
    /// Its stones, in board order.
    pub stones: Vec<Point>,
    /// Alive, dead or in seki.
    pub status: Status,
    /// Unconditionally alive (Benson): proved, not searched.
    pub proved: bool,
    /// The share of playouts at whose end its owner held its points (1.0 when not searched).
    pub held: f64,
    /// How its status was decided.
    pub how: Decided,
}

/// A neutral point filled before counting, and by whom; or a connection inside the filler's
/// own area that made such a fill possible, in its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fill {
    /// The point.
    pub point: Point,
    /// The side that fills it.
    pub color: Color,
}

/// What [`judge_end`] finds.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// Every string of the final position, in board order of their first stone.
    pub strings: Vec<StringStatus>,
    /// The dead stones, in board order.
    pub dead: Vec<Point>,
    /// The empty points shared in seki (分空), left empty by the fill, in board order.
    pub seki_points: Vec<Point>,
    /// The neutral points in the order they are filled, and who fills each (with the
    /// connections inside a side's own area that made a fill possible, in their turn).
    pub fills: Vec<Fill>,
    /// Who fills first: the player to move in the final position.
    pub first_to_fill: Color,
    /// The count of the board with the fills on it and the dead stones removed: margin, winner
    /// and the fill-in breakdown (`score.dead` holds the dead stones).
    pub score: Score,
    /// The board the count is made on: the final position with the fills (dead stones still on
    /// it; the count removes them).
    pub filled: Board,
    /// Whether the fill was read out by search (`false`: too large to read, filled by the
    /// one-move rule; or no fill, the end settled by the rules).
    pub fill_read: bool,
    /// Why the fill was made one move deep, when the search did not read it out (`None` when
    /// it did, or when there was no fill to make).
    pub fill_shallow: Option<ShallowFill>,
}

/// Why the fill of the last dame was made one move deep (the one-move rule) rather than read
/// out by the search: what a referee is told, so that they know which fills to check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShallowFill {
    /// These dame, one region that fills elsewhere leave alone, are too many to read together
    /// within the search's budget.
    TooLarge(Vec<Point>),
    /// The fill read out would take these stones of the final position: a fight for life that
    /// the judgement decided and that the reading of the dame does not read (the defences
    /// outside the dame are not among its moves).
    TakesStones(Vec<Point>),
    /// A move read out does not stand on the board that is counted (a capture there differs
    /// from the board the search reads, or the move would take its own stones).
    DoesNotStand,
}

impl ShallowFill {
    /// The reason in words, the points named by `name` (GTP names, for a person).
    pub fn describe(&self, name: impl Fn(&[Point]) -> String) -> String {
        match self {
            // A long list is cut after eight (a board far from its end has scores of dame).
            ShallowFill::TooLarge(points) if points.len() > 10 => format!(
                "the {} dame {} … are too many to read together",
                points.len(),
                name(&points[..8])
            ),
            ShallowFill::TooLarge(points) => format!(
                "the {} dame {} are too many to read together",
                points.len(),
                name(points)
            ),
            ShallowFill::TakesStones(stones) => format!(
                "reading it out takes {}, a fight for life the judgement decided",
                name(stones)
            ),
            ShallowFill::DoesNotStand => {
                "a move read out does not stand on the counted board".to_string()
            }
        }
    }
}

impl Judgement {
    /// Why the neutral points were filled one move deep rather than read out, in words, the
    /// points named by `name` ([`ShallowFill::describe`]): what a referee is told, with the
    /// fills, to check them. `None` when they were read out or none were filled.
    pub fn fill_note(&self, name: impl Fn(&[Point]) -> String) -> Option<String> {
        // `fill_shallow` is set exactly where the search did not read the fill out.
        self.fill_shallow
            .as_ref()
            .filter(|_| !self.fills.is_empty())
            .map(|why| why.describe(name))
    }

    /// This judgement's count as a territory count gives it, for a record counted so (half
    /// points, Black ahead positive), `game` being the game it judged. A stone on the board is
    /// a point of its owner's area, and a stone taken off a prisoner for the other side in a
    /// territory count (empty points surrounded, plus prisoners); so two areas differ from two
    /// territory counts by the difference of the stones each side has put on the board: its
    /// setup stones (handicap), its plays and its fills here. `area_B − area_W = terr_B −
    /// terr_W + placed_B − placed_W`, whatever was taken, with the borders closed by the fill
    /// as the area count closes them: a fill on a dame is a point of area and no territory, a
    /// play inside one's own area costs a point of territory. Exact but for the eyes of a
    /// seki, which a territory count under Japanese rules gives to nobody; komi and penalties
    /// are in both alike.
    ///
    /// ```
    /// use ingo_player::endgame::{judge_end, EndgameConfig};
    /// use ingo_rules::{Board, Color, Game, Komi, Move, Point, Rules, Setup};
    /// // Black's wall and White's, and Black plays once more inside its own area: the areas
    /// // are 15 to 10, the territories (empty points) 9 to 5.
    /// let board = Board::from_ascii("
    ///     . . X O .
    ///     . . X O .
    ///     . . X O .
    ///     . . X O .
    ///     . . X O .").unwrap();
    /// let setup = Setup { board, to_move: Color::Black, handicap_passes: 0 };
    /// let mut game = Game::new(setup, Rules { komi: Komi(0), ..Rules::ing() });
    /// game.play(Move::Play(Point::from_gtp("A1", 5, 5).unwrap())).unwrap();
    /// let j = judge_end(&game, &EndgameConfig::default());
    /// assert_eq!(j.score.margin_halves, 2 * 5);
    /// // Black has put 6 stones on the board, White 5.
    /// assert_eq!(j.territory_margin_halves(&game), 2 * 4);
    /// ```
    pub fn territory_margin_halves(&self, game: &Game) -> i32 {
        let mut placed = [0i32; 2];
        let side = |c: Color| usize::from(c == Color::White);
        let setup = &game.setup().board;
        for p in setup.points() {
            if let Some(c) = setup.color_at(p) {
                placed[side(c)] += 1;
            }
        }
        for m in game.history() {
            if matches!(m.mv, ingo_rules::Move::Play(_)) {
                placed[side(m.color)] += 1;
            }
        }
        for f in &self.fills {
            placed[side(f.color)] += 1;
        }
        self.score.margin_halves - 2 * (placed[0] - placed[1])
    }

    /// The status of the stone on `p`, or `None` on an empty point.
    pub fn status_at(&self, p: Point) -> Option<Status> {
        self.strings
            .iter()
            .find(|s| s.stones.contains(&p))
            .map(|s| s.status)
    }

    /// The stones of every string with `status`, in board order (GTP `final_status_list`).
    pub fn stones(&self, status: Status) -> Vec<Point> {
        let mut v: Vec<Point> = self
            .strings
            .iter()
            .filter(|s| s.status == status)
            .flat_map(|s| s.stones.iter().copied())
            .collect();
        v.sort();
        v
    }

    /// The verdicts a person should check, each as a short note on the first stone of its
    /// string, in the order of [`Judgement::strings`]: a sampled share between
    /// [`CHECK_BELOW`] and [`CHECK_ABOVE`] (`48%`: the playouts alone, near a coin's throw),
    /// and every verdict read by a rule rather than proved (`R` a capture race, `A` a race at
    /// one liberty each, `S` the shape of an eye space, `G` a search of a group's life, `F`
    /// taken in the fill, `K` the stone that took a ko last). Strings proved
    /// alive, given, or sampled clearly either way carry none.
    ///
    /// ```
    /// use ingo_player::endgame::{judge_end, EndgameConfig};
    /// use ingo_rules::{Board, Color, Game, Point, Rules, Setup};
    /// // Two White stones inside Black's corner: dead, but the light playouts let them stand in
    /// // almost half of the games, so both are marked with their share.
    /// let board = Board::from_ascii("
    ///     . . . . . X O . .
    ///     . . . . . X O . .
    ///     . . O . . X O . .
    ///     . . . . . X O . .
    ///     . . . O . X O . .
    ///     X X X X X X O . .
    ///     O O O O O O O . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .").unwrap();
    /// let setup = Setup { board, to_move: Color::Black, handicap_passes: 0 };
    /// let j = judge_end(&Game::new(setup, Rules::ing()), &EndgameConfig::default());
    /// let c7 = Point::from_gtp("C7", 9, 9).unwrap();
    /// let d5 = Point::from_gtp("D5", 9, 9).unwrap();
    /// let checks = j.checks();
    /// assert!(checks.iter().any(|(p, _)| *p == c7) && checks.iter().any(|(p, _)| *p == d5));
    /// assert!(checks.iter().all(|(_, note)| note.ends_with('%')));
    /// ```
    pub fn checks(&self) -> Vec<(Point, String)> {
        self.strings
            .iter()
            .filter_map(|s| {
                let note = match s.how {
                    Decided::Sampled(held) | Decided::SharedPoints(held)
                        if (CHECK_BELOW..=CHECK_ABOVE).contains(&held) =>
                    {
                        format!("{:.0}%", held * 100.0)
                    }
                    Decided::LostRace | Decided::WonRace => "R".into(),
                    Decided::MutualAtari | Decided::SavedInRace => "A".into(),
                    Decided::DeadShape | Decided::Nakade => "S".into(),
                    Decided::GroupRead => "G".into(),
                    Decided::LargeEyeSpace | Decided::InLargeEyeSpace => "E".into(),
                    Decided::TakenInFill => "F".into(),
                    Decided::KoTakenLast => "K".into(),
                    _ => return None,
                };
                Some((*s.stones.first()?, note))
            })
            .collect()
    }

    /// Of the verdicts to check ([`Judgement::checks`]), the strings the winner turns on: the
    /// first stone of each string whose verdict, turned the other way (a dead string alive, a
    /// living or seki string dead) with every other verdict as judged, makes the count of
    /// [`judge_with_dead`] name the other winner. A referee checks these first: the others
    /// change the margin at most. Empty when the count of the judgement's own dead stones by
    /// [`judge_with_dead`] names another winner than the judgement (it has captures or a ko
    /// that count does not see), since the two counts are then not the same count. `game` is
    /// the game judged; one count a verdict to check, so this costs as many fills.
    ///
    /// ```
    /// use ingo_player::endgame::{judge_end, EndgameConfig};
    /// use ingo_rules::{Board, Color, Game, Point, Rules, Setup};
    /// // Two White stones inside Black's corner, each held by about half of the playouts, so
    /// // both are verdicts to check; but White wins by 17 whatever becomes of either.
    /// let board = Board::from_ascii("
    ///     . . . . . X O . .
    ///     . . . . . X O . .
    ///     . . O . . X O . .
    ///     . . . . . X O . .
    ///     . . . O . X O . .
    ///     X X X X X X O . .
    ///     O O O O O O O . .
    ///     . . . . . . . . .
    ///     . . . . . . . . .").unwrap();
    /// let setup = Setup { board, to_move: Color::Black, handicap_passes: 0 };
    /// let game = Game::new(setup, Rules::ing());
    /// let config = EndgameConfig::default();
    /// let j = judge_end(&game, &config);
    /// let c7 = Point::from_gtp("C7", 9, 9).unwrap();
    /// assert!(j.checks().iter().any(|(p, _)| *p == c7));
    /// assert_eq!(j.score.result_string(), "W+17");
    /// assert!(j.winner_turns_on(&game, &config).is_empty());
    /// ```
    pub fn winner_turns_on(&self, game: &Game, config: &EndgameConfig) -> Vec<Point> {
        let checked: Vec<Point> = self.checks().into_iter().map(|(p, _)| p).collect();
        if checked.is_empty()
            || judge_with_dead(game, &self.dead, config).score.winner != self.score.winner
        {
            return Vec::new();
        }
        self.strings
            .iter()
            .filter_map(|s| {
                let first = *s.stones.first()?;
                if !checked.contains(&first) {
                    return None;
                }
                let dead: Vec<Point> = if s.status == Status::Dead {
                    self.dead
                        .iter()
                        .copied()
                        .filter(|p| !s.stones.contains(p))
                        .collect()
                } else {
                    self.dead.iter().chain(&s.stones).copied().collect()
                };
                let turned = judge_with_dead(game, &dead, config).score.winner;
                (turned != self.score.winner).then_some(first)
            })
            .collect()
    }
}

/// The lowest share of the playouts that [`Judgement::checks`] marks: below it the string is
/// dead three times out of four or more.
pub const CHECK_BELOW: f64 = 0.25;

/// The highest share of the playouts that [`Judgement::checks`] marks.
pub const CHECK_ABOVE: f64 = 0.75;

/// Row-major indexing of a board's points.
pub(crate) struct Grid {
    width: usize,
    height: usize,
}

impl Grid {
    fn new(board: &Board) -> Grid {
        Grid {
            width: board.width(),
            height: board.height(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.width * self.height
    }

    pub(crate) fn point(&self, i: usize) -> Point {
        Point::new(i % self.width, i / self.width).unwrap_or_else(unreachable_point)
    }

    pub(crate) fn index(&self, p: Point) -> usize {
        p.row() * self.width + p.col()
    }

    pub(crate) fn neighbors(&self, i: usize) -> impl Iterator<Item = usize> {
        let (w, h) = (self.width, self.height);
        let (r, c) = (i / w, i % w);
        [
            (r > 0).then(|| i - w),
            (c > 0).then(|| i - 1),
            (c + 1 < w).then(|| i + 1),
            (r + 1 < h).then(|| i + w),
        ]
        .into_iter()
        .flatten()
    }
}

/// A board's points are all below `MAX_SIZE` in both directions, so `Point::new` never fails
/// for them; this names that fact instead of an `expect`.
#[cold]
fn unreachable_point() -> Point {
    Point::new(0, 0).unwrap_or_else(|| unreachable!("0,0 is a point"))
}

/// The most neutral points among which [`choose_fill`] looks one move ahead.
const LOOKAHEAD_POINTS: usize = 64;

/// The tie winner of `game`'s rules for this game (even or handicap).
fn tie_winner(game: &Game) -> Color {
    let rules: &Rules = game.rules();
    if game.is_handicap() {
        rules.tie_handicap
    } else {
        rules.tie_even
    }
}

/// Judges the final position of `game` as a referee counts it: the status of every string,
/// the dead stones, the seki points, the neutral points filled in turn (the player to move
/// first), and the count that results, with the game's komi, penalties and tie rule.
///
/// Deterministic for a given `config` (the playouts draw from `config.seed`).
///
/// ```
/// use ingo_player::endgame::{judge_end, EndgameConfig, Status};
/// use ingo_rules::{Board, Color, Game, Point, Rules, Setup};
///
/// // Two White stones inside Black's corner are dead.
/// let board = Board::from_ascii("
///     . . . . . X O . .
///     . . . . . X O . .
///     . . O . . X O . .
///     . . . . . X O . .
///     . . . O . X O . .
///     X X X X X X O . .
///     O O O O O O O . .
///     . . . . . . . . .
///     . . . . . . . . .").unwrap();
/// let setup = Setup { board, to_move: Color::Black, handicap_passes: 0 };
/// let game = Game::new(setup, Rules::ing());
/// let j = judge_end(&game, &EndgameConfig::default());
/// let c7 = Point::from_gtp("C7", 9, 9).unwrap();
/// let d5 = Point::from_gtp("D5", 9, 9).unwrap();
/// assert_eq!(j.status_at(c7), Some(Status::Dead));
/// assert_eq!(j.dead, vec![c7, d5]);
/// assert_eq!(j.score.result_string(), "W+17");
/// ```
pub fn judge_end(game: &Game, config: &EndgameConfig) -> Judgement {
    // Where the rules have settled the end, nothing is judged: after four passes every stone is
    // alive and a missed dame is shared ("連續四次虛手，不論任何理由不得恢復著手"; the dame both
    // players missed counts as 分空, T14), and after an agreement the agreed stones are dead.
    match game.end() {
        Some(GameEnd::Passes) => return settled(game, &[]),
        Some(GameEnd::Agreement(dead)) => return settled(game, dead),
        _ => {}
    }
    let board = game.board();
    let grid = Grid::new(board);
    let n = grid.len();
    // Proved: alive by Benson's algorithm, or in a double-ko seki (which the playouts need not
    // judge either).
    let double_ko_seki = double_ko::double_ko_seki(board, &grid);
    let proved: Vec<bool> = {
        let b = benson::unconditionally_alive(board, &grid, Color::Black);
        let w = benson::unconditionally_alive(board, &grid, Color::White);
        (0..n).map(|i| b[i] || w[i] || double_ko_seki[i]).collect()
    };

    // Playouts: how often each point ends as Black's or White's area.
    let mut held_by = vec![[0u32; 2]; n];
    let searched = config.playouts > 0
        && proved
            .iter()
            .enumerate()
            .any(|(i, &p)| !p && board.color_at(grid.point(i)).is_some());
    if searched {
        let template = Game::new(
            Setup {
                board: board.clone(),
                to_move: game.to_move(),
                handicap_passes: 0,
            },
            *game.rules(),
        );
        let mut rng = Rng::new(config.seed);
        let mut scratch = Vec::with_capacity(n);
        // One game played out again and again: `clone_from` copies the board's used rows into
        // it and keeps its history's room.
        let mut g = template.clone();
        for _ in 0..config.playouts {
            g.clone_from(&template);
            playout::run(&mut g, &mut rng, &mut scratch);
            for (i, o) in ingo_rules::owners(g.board(), &[]).iter().enumerate() {
                match o {
                    Owner::Black => held_by[i][0] += 1,
                    Owner::White => held_by[i][1] += 1,
                    Owner::Shared => {}
                }
            }
        }
    }

    // Strings and their status.
    let (mut strings, string_of) = strings_of(board, &grid, |i, color, stones| {
        let side = usize::from(color == Color::White);
        let held = if searched {
            let sum: u32 = stones.iter().map(|&s| held_by[grid.index(s)][side]).sum();
            f64::from(sum) / (f64::from(config.playouts) * stones.len() as f64)
        } else {
            1.0
        };
        let how = if double_ko_seki[i] {
            Decided::DoubleKoSeki
        } else if proved[i] {
            Decided::ProvedAlive
        } else if searched {
            Decided::Sampled(held)
        } else {
            Decided::Given
        };
        let status = if double_ko_seki[i] {
            Status::Seki
        } else if !proved[i] && held < 0.5 {
            Status::Dead
        } else {
            Status::Alive
        };
        (status, proved[i], held, how)
    });
    let mut captures = 0;
    if searched {
        races::read_races(board, &grid, &mut strings, &string_of);
        groups::read_groups(board, &grid, &mut strings, &string_of);
        groups::read_searched_groups(board, &grid, &mut strings, &string_of);
        large_eyes::read_large_eye_spaces(board, &grid, &mut strings, &string_of);
        captures = settle_mutual_ataris(game, &mut strings, &string_of);
        keep_the_ko_taken_last(game, &grid, &mut strings, &string_of);
    }
    finish(game, config, &grid, strings, string_of, captures)
}

/// The stone with which the last move took a ko stays: the player to move may not take it back
/// at once ("凡提取熱子必須間隔一實手或虛手": taking a hot stone needs a play or a pass
/// between), and at the end of a game, where nothing else is left to play, the taker connects
/// next, after that play or pass. A single stone of the last move, with one liberty, the point
/// of the one stone it took, which the player to move may not play.
fn keep_the_ko_taken_last(
    game: &Game,
    grid: &Grid,
    strings: &mut [StringStatus],
    string_of: &[usize],
) {
    // The game's history knows a ko capture (one stone taken, the taker a single stone in
    // atari there): the point to take back is the stone it took.
    let Some(m) = game.last_move().filter(|m| m.ko_capture) else {
        return;
    };
    let (ingo_rules::Move::Play(p), [taken]) = (m.mv, m.removed) else {
        return;
    };
    if game.is_legal(ingo_rules::Move::Play(*taken)) {
        return;
    }
    if let Some(s) = strings.get_mut(string_of[grid.index(p)]) {
        if s.status == Status::Dead && !s.proved {
            s.status = Status::Alive;
            s.how = Decided::KoTakenLast;
        }
    }
}

/// The most captures of races at one liberty each that [`settle_mutual_ataris`] reads, each
/// side's in turn from the player to move.
const MUTUAL_ATARI_CAPTURES: usize = 4;

/// Races at one liberty each, settled before the fill: the player to move takes the other
/// side's string first ([`mutual_atari_capture`]), which saves its own (random play takes
/// either about half of the time); then the other side takes in the next such race, and so on.
/// The strings taken are dead, and the strings around a space taken that gives two eyes are
/// alive; the stones stay on the board (the captures are read on a copy), the fill and the
/// count do the rest. Returns the number of captures that stood (each a move: the fill starts
/// with the side whose turn follows them).
fn settle_mutual_ataris(game: &Game, strings: &mut [StringStatus], string_of: &[usize]) -> usize {
    let mut board = game.board().clone();
    let grid = Grid::new(&board);
    let mut mover = game.to_move();
    let mut removed = Vec::new();
    for k in 0..MUTUAL_ATARI_CAPTURES {
        // The first capture is a move of the game, legal under its rules (its ko rules
        // included); the later ones are read on the board alone.
        let legal = |p: Point| k > 0 || game.is_legal(ingo_rules::Move::Play(p));
        let Some((l, saved)) = mutual_atari_capture(&board, mover, legal) else {
            return k;
        };
        removed.clear();
        board.play_unchecked(l, mover, &mut removed);
        // The strings of `mover` around the space the capture opens live when the space gives
        // two eyes whoever plays first there (the other side plays next): they won the race.
        if two_eyes(&board, &removed) {
            let mut around: Vec<Point> = removed
                .iter()
                .flat_map(|&q| board.neighbors(q))
                .filter(|&q| board.color_at(q) == Some(mover))
                .collect();
            around.extend(saved.iter().copied());
            for q in around {
                if let Some(s) = strings.get_mut(string_of[grid.index(q)]) {
                    if s.status == Status::Dead {
                        s.status = Status::Alive;
                        s.how = Decided::SavedInRace;
                    }
                }
            }
        }
        // The race is one fight: the capture decides it only when the strings it saves are
        // not dead all the same (a capture by strings that die afterwards settles nothing, and
        // the two sides' strings are not both dead). Otherwise the playouts' verdicts stand.
        let saved_dead = saved.iter().any(|&q| {
            strings
                .get(string_of[grid.index(q)])
                .is_some_and(|s| s.status == Status::Dead)
        });
        if saved_dead {
            return k;
        }
        for &q in &removed {
            if let Some(s) = strings.get_mut(string_of[grid.index(q)]) {
                if !s.proved {
                    s.status = Status::Dead;
                    s.how = Decided::MutualAtari;
                }
            }
        }
        mover = mover.opponent();
    }
    MUTUAL_ATARI_CAPTURES
}

/// Whether the empty points `space` of `board` (the stones a capture just took) give two eyes
/// whoever plays first there ([`crate::tactics::eye_space`]): a connected space of four points
/// or more that no play inside reduces to one eye. A bent four that touches a corner point is
/// left out: there it is a ko, not two eyes ("bent four in the corner").
fn two_eyes(board: &Board, space: &[Point]) -> bool {
    use crate::tactics::{eye_space, EyeShape, EyeStatus};
    let Ok(eye) = eye_space(space) else {
        return false;
    };
    let (w, h) = (board.width(), board.height());
    let corner =
        |p: &Point| (p.col() == 0 || p.col() + 1 == w) && (p.row() == 0 || p.row() + 1 == h);
    eye.status == EyeStatus::TwoEyes
        && !(eye.shape == EyeShape::BentFour && space.iter().any(corner))
}

/// The stones of `color` that live once the stones `taken` are off `board`, with stones of
/// `color` on every liberty they had (the taker fills them all, the last with the capture; an
/// eye read without those stones can be false, as `mertin13x13/GNHT1`'s `N4`, one point on
/// the edge between two strings once `N3` is filled): the strings around the space the
/// capture opens, when that space is an eye of theirs and the strings around it
/// touch another eye. An eye here is a region of empty points bordered by stones of `color`
/// only: two points or more, or one point that is not false (a point between two or more
/// strings with stones of the other side on two of its diagonals, or one on the edge). `None`
/// when they do not have the two. A race won leaves the winner the space it took; with an eye
/// of its own beside it, that is two (`01/09`: Black's two strings around White's D2 D1 share
/// the space B1 C1 D1 D2 once it is taken, and the lower one has its own eye at F1 F2).
fn lives_after_taking(board: &Board, taken: &[Point], color: Color) -> Option<Vec<Point>> {
    let mut board = board.clone();
    // The taker fills every liberty of the stones taken, the last one with the capture.
    for l in crate::tactics::liberty_points(&board, taken) {
        board.set_stone(l, color);
    }
    for &p in taken {
        board.clear_stone(p);
    }
    let board = &board;
    let grid = Grid::new(board);
    // The empty points met so far, each region's once.
    let mut seen = vec![false; grid.len()];
    // The region of empty points around `start`, and whether it is bordered by `color` alone;
    // the strings of `color` around it, by their heads.
    let region = |start: Point, heads: &mut Vec<Point>, seen: &mut [bool]| -> (Vec<Point>, bool) {
        seen[grid.index(start)] = true;
        let mut points = vec![start];
        let mut i = 0;
        let mut own = true;
        while i < points.len() {
            let p = points[i];
            i += 1;
            for q in board.neighbors(p) {
                match board.color_at(q) {
                    None if !seen[grid.index(q)] => {
                        seen[grid.index(q)] = true;
                        points.push(q);
                    }
                    None => {}
                    Some(c) if c == color => {
                        if let Some(h) = board.string_head(q) {
                            if !heads.contains(&h) {
                                heads.push(h);
                            }
                        }
                    }
                    Some(_) => own = false,
                }
            }
        }
        (points, own)
    };
    // One point between two strings or more is an eye when its diagonals allow it (the
    // playouts' eye rule, [`Board::is_eye`]); a larger region, or one point of a single
    // string, is an eye.
    let is_eye = |points: &[Point], heads: &[Point]| match points {
        [p] => heads.len() < 2 || board.is_eye(*p, color),
        _ => !points.is_empty(),
    };
    let start = *taken.first()?;
    let mut heads = Vec::new();
    let (space, own) = region(start, &mut heads, &mut seen);
    if !own || !is_eye(&space, &heads) {
        return None;
    }
    let mut group: Vec<Point> = heads.iter().flat_map(|&h| board.string_stones(h)).collect();
    let mut eyes = 1;
    let mut k = 0;
    while k < group.len() && eyes < 2 {
        let s = group[k];
        k += 1;
        for l in board.neighbors(s) {
            if board.color_at(l).is_some() || seen[grid.index(l)] {
                continue;
            }
            let mut around = Vec::new();
            let (points, own) = region(l, &mut around, &mut seen);
            if own && is_eye(&points, &around) {
                eyes += 1;
                for h in around {
                    if !heads.contains(&h) {
                        heads.push(h);
                        group.extend(board.string_stones(h));
                    }
                }
                break;
            }
        }
    }
    (eyes >= 2).then_some(group)
}

/// The capture `mover` makes first on `board`, and the strings of its own it saves: the last
/// liberty of a string of the other side in atari that touches a string of `mover` in atari
/// (a race at one liberty each: whoever moves first takes the other), the largest such string,
/// the first in board order among equals. The capture must save: the capturing string keeps
/// two liberties (not a ko, whose fight the rules of ko decide, nor a capture taken back at
/// once); and `legal` must allow it.
fn mutual_atari_capture(
    board: &Board,
    mover: Color,
    legal: impl Fn(Point) -> bool,
) -> Option<(Point, Vec<Point>)> {
    let mut best: Option<(usize, Point, Vec<Point>)> = None;
    let mut removed = Vec::new();
    for p in board.points() {
        if board.color_at(p) != Some(mover.opponent()) || board.string_head(p) != Some(p) {
            continue;
        }
        let libs = board.liberties_upto(p, 2);
        let [l] = libs.as_slice() else {
            continue;
        };
        let stones = board.string_stones(p);
        let ours_in_atari: Vec<Point> = stones
            .iter()
            .flat_map(|&s| board.neighbors(s))
            .filter(|&q| board.color_at(q) == Some(mover) && board.liberties_upto(q, 2).len() == 1)
            .collect();
        if ours_in_atari.is_empty() || best.as_ref().is_some_and(|(n, _, _)| stones.len() <= *n) {
            continue;
        }
        // The capture saves: the capturing string has two liberties after it (a ko, or a
        // capture that the other side takes back at once, decides nothing).
        let mut scratch = board.clone();
        removed.clear();
        scratch.play_unchecked(*l, mover, &mut removed);
        if scratch.liberties_upto(*l, 2).len() < 2 || !legal(*l) {
            continue;
        }
        best = Some((stones.len(), *l, ours_in_atari));
    }
    best.map(|(_, l, saved)| (l, saved))
}

/// Judges the final position of `game` with the dead stones given (agreed by the players, or
/// proposed): every string with a stone in `dead` is dead, every other one alive (or in seki);
/// the neutral points are filled in turn and the board counted as in [`judge_end`]. No search:
/// `config.playouts` is not used.
///
/// ```
/// use ingo_player::endgame::{judge_with_dead, EndgameConfig, Status};
/// use ingo_rules::{Board, Color, Game, Point, Rules, Setup};
///
/// let board = Board::from_ascii("
///     . . X O .
///     . . X O .
///     . O X O .
///     X X X O .
///     O O O O .").unwrap();
/// let setup = Setup { board, to_move: Color::Black, handicap_passes: 0 };
/// let game = Game::new(setup, Rules::ing());
/// let b3 = Point::from_gtp("B3", 5, 5).unwrap();
/// let j = judge_with_dead(&game, &[b3], &EndgameConfig::default());
/// assert_eq!(j.status_at(b3), Some(Status::Dead));
/// assert_eq!(j.dead, vec![b3]);
/// ```
pub fn judge_with_dead(game: &Game, dead: &[Point], config: &EndgameConfig) -> Judgement {
    let board = game.board();
    let grid = Grid::new(board);
    let proved: Vec<bool> = {
        let b = benson::unconditionally_alive(board, &grid, Color::Black);
        let w = benson::unconditionally_alive(board, &grid, Color::White);
        b.iter().zip(&w).map(|(x, y)| *x || *y).collect()
    };
    let (strings, string_of) = strings_of(board, &grid, |i, _, stones| {
        let is_dead = stones.iter().any(|s| dead.contains(s));
        let status = if is_dead { Status::Dead } else { Status::Alive };
        let how = if proved[i] && !is_dead {
            Decided::ProvedAlive
        } else {
            Decided::Given
        };
        (status, proved[i], 1.0, how)
    });
    finish(game, config, &grid, strings, string_of, 0)
}

/// Every string of `board`, in board order of its first stone, with the status, proof and hold
/// that `decide(index of its first point, colour, sorted stones)` gives it; and, for each point,
/// the index of its string (`usize::MAX` on an empty point).
fn strings_of(
    board: &Board,
    grid: &Grid,
    mut decide: impl FnMut(usize, Color, &[Point]) -> (Status, bool, f64, Decided),
) -> (Vec<StringStatus>, Vec<usize>) {
    let mut string_of = vec![usize::MAX; grid.len()];
    let mut strings: Vec<StringStatus> = Vec::new();
    for i in 0..grid.len() {
        let p = grid.point(i);
        let Some(color) = board.color_at(p) else {
            continue;
        };
        if string_of[i] != usize::MAX {
            continue;
        }
        let mut stones: Vec<Point> = board.string_stones(p);
        stones.sort();
        let id = strings.len();
        for &s in &stones {
            string_of[grid.index(s)] = id;
        }
        let (status, proved, held, how) = decide(i, color, &stones);
        strings.push(StringStatus {
            color,
            stones,
            status,
            proved,
            held,
            how,
        });
    }
    (strings, string_of)
}

/// The part of a judgement after the status of each string is known: the neutral points filled
/// in turn, the seki, and the count.
fn finish(
    game: &Game,
    config: &EndgameConfig,
    grid: &Grid,
    mut strings: Vec<StringStatus>,
    string_of: Vec<usize>,
    captures: usize,
) -> Judgement {
    let board = game.board();

    // The board on which the neutral points are filled in turn: the dead stones are the
    // capturer's (the players fill with the dead stones still on the board, and a stone next
    // to them gains no liberty from them; the points they stand on are the capturer's).
    let mut live = match Board::with_dims(board.width(), board.height()) {
        Ok(b) => b,
        Err(_) => board.clone(),
    };
    for s in &strings {
        let color = if s.status == Status::Dead {
            s.color.opponent()
        } else {
            s.color
        };
        for &p in &s.stones {
            live.set_stone(p, color);
        }
    }
    // The captures read in races at one liberty each ([`settle_mutual_ataris`], `captures`
    // of them, the player to move first and then in turn) are moves, as in play: after an odd
    // number of them the other side fills first. (Measured when the fill became the dame
    // between the walls: `06/06` right and exact, `Hoshiai_Hasseki/1` exact,
    // `kgs/20040516-GoBucks-GnuGoCVS`, a board far from its end, wrong; before it, two of the
    // other records lost their winners, so the capture did not take a turn.)
    let after_captures = if captures % 2 == 1 {
        game.to_move().opponent()
    } else {
        game.to_move()
    };
    let first_to_fill = config.first_to_fill.unwrap_or(after_captures);
    // The record's last move, when it was made by the other side, is answered like a fill: a
    // string of the player to move that it left in atari is saved first.
    let last_move = game.last_move().and_then(|m| match m.mv {
        ingo_rules::Move::Play(p) => Some(Fill {
            point: p,
            color: first_to_fill.opponent(),
        }),
        ingo_rules::Move::Pass => None,
    });
    let status_at = |i: usize| strings.get(string_of[i]).map(|s| s.status);
    let converted: Vec<bool> = (0..grid.len())
        .map(|i| status_at(i) == Some(Status::Dead))
        .collect();
    // Strings already in seki here are those of a double-ko seki, proved from the shape: the
    // fill never takes their ko stones.
    let untakable: Vec<bool> = (0..grid.len())
        .map(|i| converted[i] || status_at(i) == Some(Status::Seki))
        .collect();
    let seki = seki_points(&live, grid);
    // A board without a stone has no walls to fill between: "子空皆地", a point is area where
    // stones stand or enclose it, and here none do. Every point stays shared, as in the count
    // of a game ended on that board (the fill would give it all to the first to fill).
    let (fills, fill_shallow) = if live.empty_count() == live.area() {
        (Vec::new(), None)
    } else {
        match fill::read_fill(board, &live, grid, first_to_fill, &seki, &untakable) {
            Ok((fills, after)) => {
                live = after;
                (fills, None)
            }
            Err(why) => (
                fill_neutral(&mut live, board, grid, &seki, first_to_fill, last_move),
                Some(why),
            ),
        }
    };
    let fill_read = fill_shallow.is_none();
    // The points left shared once the fill is over (seki, and dame neither side could fill).
    let seki_points: Vec<Point> = {
        let owners = ingo_rules::owners(&live, &[]);
        (0..grid.len())
            .map(|i| grid.point(i))
            .filter(|&p| owners[grid.index(p)] == Owner::Shared && live.color_at(p).is_none())
            .collect()
    };
    // Strings of the final position taken in the fill (the search reads captures: a string
    // left in atari is taken) are dead: their points are the capturer's.
    for i in 0..grid.len() {
        let id = string_of[i];
        if id != usize::MAX
            && !converted[i]
            && live.color_at(grid.point(i)) != Some(strings[id].color)
        {
            strings[id].status = Status::Dead;
            strings[id].how = Decided::TakenInFill;
        }
    }
    let mut dead: Vec<Point> = strings
        .iter()
        .filter(|s| s.status == Status::Dead)
        .flat_map(|s| s.stones.iter().copied())
        .collect();
    dead.sort();

    // Strings next to a point left shared are in seki.
    for &p in &seki_points {
        for q in grid.neighbors(grid.index(p)) {
            let id = string_of[q];
            if id != usize::MAX && strings[id].status == Status::Alive {
                strings[id].status = Status::Seki;
                if let Decided::Sampled(held) = strings[id].how {
                    strings[id].how = Decided::SharedPoints(held);
                }
            }
        }
    }

    // The final position with the fills still standing at the end of the fill (a fill taken
    // later in the fill is not there) and the dead stones still on it.
    let mut filled = board.clone();
    for i in 0..grid.len() {
        let p = grid.point(i);
        if board.color_at(p).is_none() {
            if let Some(c) = live.color_at(p) {
                filled.set_stone(p, c);
            }
        }
    }
    let score = score(
        &filled,
        &dead,
        game.rules().komi,
        game.penalties(),
        tie_winner(game),
    );
    Judgement {
        strings,
        dead,
        seki_points,
        fills,
        first_to_fill,
        score,
        filled,
        fill_read,
        fill_shallow,
    }
}

/// The judgement of a game whose end the rules settled: `dead` dead (an agreement) and every
/// other string alive, no fill, the points bordered by both colours shared.
fn settled(game: &Game, dead: &[Point]) -> Judgement {
    let board = game.board();
    let grid = Grid::new(board);
    let (strings, _) = strings_of(board, &grid, |_, _, stones| {
        if stones.iter().any(|q| dead.contains(q)) {
            (Status::Dead, false, 0.0, Decided::Given)
        } else {
            (Status::Alive, false, 1.0, Decided::Given)
        }
    });
    let mut dead: Vec<Point> = dead.to_vec();
    dead.sort();
    let owners = ingo_rules::owners(board, &dead);
    let seki_points: Vec<Point> = (0..grid.len())
        .filter(|&i| owners[i] == Owner::Shared && board.color_at(grid.point(i)).is_none())
        .map(|i| grid.point(i))
        .collect();
    Judgement {
        strings,
        score: game.count(&dead),
        dead,
        seki_points,
        fills: Vec::new(),
        first_to_fill: game.to_move(),
        filled: board.clone(),
        fill_read: false,
        fill_shallow: None,
    }
}

/// Whether `color` may fill the empty point `p` as a neutral point: legal, its string keeps two
/// liberties, so that the fill cannot be taken back, and it captures nothing (a fill is not a
/// capture: a string left in atari at the end is answered, not taken, see [`forced_answer`]).
fn can_fill(board: &Board, p: Point, color: Color) -> bool {
    let a = playout::after(board, p, color);
    !a.suicide && !a.captures && a.liberties >= 2
}

/// The point where `color` must answer the opponent's fill on `filled`: the last liberty of a
/// string of `color` next to it that the fill left in atari, if connecting there saves it (two
/// liberties or a capture).
fn forced_answer(live: &Board, filled: Point, color: Color) -> Option<Point> {
    live.neighbors(filled)
        .filter(|&q| live.color_at(q) == Some(color))
        .find_map(|q| {
            let libs = live.liberties_upto(q, 2);
            match libs.as_slice() {
                [l] if can_fill(live, *l, color) => Some(*l),
                _ => None,
            }
        })
}

/// Whether a play of `color` on `p` (already on `board`) left a string of the other side next
/// to it in atari that connecting at its last liberty would save: a fill that must be answered.
fn threatens(board: &Board, p: Point, color: Color) -> bool {
    forced_answer(board, p, color.opponent()).is_some()
}

/// Whether a fill of `color` on `p` stands on `real`, the board with the dead stones as they
/// are (the stones of their owner): not a suicide, and two liberties or a capture. On `live`
/// the dead stones are the capturer's and lend the fill their liberties; on the real board the
/// other side still owns them, and a fill left in atari there is taken: Black's `S2 T2` beside
/// White's dead `S3`, which is in atari at `T3`, have the liberties `T1` and `T3`, and a Black
/// fill on the dame `T1` leaves them one (`CJSuperGo/CJSG-03-06`, where White then takes three
/// stones at `T3`). Both fills keep this rule: the read one ([`fill::read_fill`]) and the one
/// move deep ([`fill_neutral`]). A point already taken on `real` (a capture read before the
/// fill or on the search's line, made on `live` only, where the real board may still hold the
/// captured stones) is not judged here.
fn stands_on_real(real: &Board, p: Point, color: Color) -> bool {
    if real.color_at(p).is_some() {
        return true;
    }
    let a = playout::after(real, p, color);
    !a.suicide && (a.captures || a.liberties >= 2)
}

/// The owner of the area of `color`.
fn area_of(color: Color) -> Owner {
    match color {
        Color::Black => Owner::Black,
        Color::White => Owner::White,
    }
}

/// A free move of the fill: a play in the mover's own area, worth nothing under area counting,
/// made on a turn with nothing else to fill so that a fill of its own is made the next turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FreeMove {
    /// A dead stone of the other side taken, on the real board only ([`take_dead_for_fill`]).
    Take(Point),
    /// A connection on both boards, a play on the board counted ([`connect_for_fill`]).
    Connect(Point),
}

impl FreeMove {
    /// Where it is played.
    pub(crate) fn point(self) -> Point {
        match self {
            FreeMove::Take(p) | FreeMove::Connect(p) => p,
        }
    }

    /// Plays it for `color` on `real`, and a connection on `live` too (the stones it takes go to
    /// `removed`, cleared first). Returns the connection's point: a play on the board that is
    /// counted, listed with the fills.
    pub(crate) fn play(
        self,
        live: &mut Board,
        real: &mut Board,
        color: Color,
        removed: &mut Vec<Point>,
    ) -> Option<Point> {
        let p = self.point();
        removed.clear();
        real.play_unchecked(p, color, removed);
        let FreeMove::Connect(_) = self else {
            return None;
        };
        removed.clear();
        live.play_unchecked(p, color, removed);
        Some(p)
    }
}

/// The free move `mover` makes on a turn with nothing else to fill, if any: a dead stone taken
/// first, else a connection.
pub(crate) fn free_move_for_fill(
    live: &Board,
    real: &Board,
    grid: &Grid,
    owners: &[Owner],
    neutral: &[Point],
    mover: Color,
) -> Option<FreeMove> {
    take_dead_for_fill(live, real, grid, owners, neutral, mover)
        .map(FreeMove::Take)
        .or_else(|| {
            connect_for_fill(live, real, grid, owners, neutral, mover).map(FreeMove::Connect)
        })
}

/// Where `mover` takes a dead stone of the other side on `real` (the board with the dead stones
/// standing) so that a fill of its own, one [`can_fill`] allows on `live`, stands there too:
/// the last liberty of a dead string in atari next to the string the fill would make, a point
/// of the mover's own area (a move there costs nothing under area counting). Among `neutral`,
/// the first such fill in board order. The players take the dead stones before the last dame
/// when a dame needs it: `Fujitsu/20/18`'s `A1`, Black's to fill once White's dead `B3` is
/// taken at `A3`, otherwise left shared between them.
fn take_dead_for_fill(
    live: &Board,
    real: &Board,
    grid: &Grid,
    owners: &[Owner],
    neutral: &[Point],
    mover: Color,
) -> Option<Point> {
    let area = area_of(mover);
    let mut removed = Vec::new();
    for &p in neutral {
        if !can_fill(live, p, mover) || stands_on_real(real, p, mover) {
            continue;
        }
        // The stones the fill would join on the real board: `p` and the mover's strings
        // next to it.
        let mut joined = vec![p];
        for q in real.neighbors(p) {
            // A string next to `p` twice is joined once.
            if real.color_at(q) == Some(mover) && !joined.contains(&q) {
                joined.extend(real.string_stones(q));
            }
        }
        for &s in &joined {
            for q in real.neighbors(s) {
                // A dead stone: the other side's on the real board, the mover's on `live`.
                if real.color_at(q) != Some(mover.opponent()) || live.color_at(q) != Some(mover) {
                    continue;
                }
                let libs = real.liberties_upto(q, 2);
                let [c] = libs.as_slice() else { continue };
                let c = *c;
                if c == p || live.color_at(c).is_some() || owners.get(grid.index(c)) != Some(&area)
                {
                    continue;
                }
                let mut taken = real.clone();
                taken.play_unchecked(c, mover, &mut removed);
                if stands_on_real(&taken, p, mover) {
                    return Some(c);
                }
            }
        }
    }
    None
}

/// Where `mover` connects, at a point of its own area, the string a fill of its own at a
/// neutral point would make, when that string would have one liberty ([`can_fill`] refuses the
/// fill), to a string of its own with three liberties or more, so that the fill is made on its
/// next turn (on `live` and standing on `real`). Among `neutral`, the first such fill in board
/// order; the connection is made on both boards. `Ing/07/P02`'s `F19`: White's `G19` and
/// Black's wall share it, and either side's fill there would have one liberty, so it was left
/// shared as a seki; White connects `G19` at `H19` inside its own area, fills `F19`, and Black
/// connects inside its eye at `E15`: W+1, the record's count.
fn connect_for_fill(
    live: &Board,
    real: &Board,
    grid: &Grid,
    owners: &[Owner],
    neutral: &[Point],
    mover: Color,
) -> Option<Point> {
    let area = area_of(mover);
    let mut removed = Vec::new();
    for &p in neutral {
        if can_fill(live, p, mover) {
            continue;
        }
        let a = playout::after(live, p, mover);
        if a.suicide || a.captures {
            continue;
        }
        let mut after = live.clone();
        after.play_unchecked(p, mover, &mut removed);
        let string = after.string_stones(p);
        for c in after.liberties_upto(p, 3) {
            if owners.get(grid.index(c)) != Some(&area) || real.color_at(c).is_some() {
                continue;
            }
            // `c`, a liberty of the string the fill would make, joins a string of the mover
            // with three liberties or more.
            let strong = live.neighbors(c).any(|q| {
                live.color_at(q) == Some(mover)
                    && !string.contains(&q)
                    && live.liberties_upto(q, 3).len() >= 3
            });
            if !strong {
                continue;
            }
            let mut l2 = live.clone();
            l2.play_unchecked(c, mover, &mut removed);
            let mut r2 = real.clone();
            r2.play_unchecked(c, mover, &mut removed);
            if can_fill(&l2, p, mover) && stands_on_real(&r2, p, mover) {
                return Some(c);
            }
        }
    }
    None
}

/// How far each empty point of `live` is from the nearest stone of `color`, in steps over empty
/// points (1 next to a stone; `u32::MAX` where no path of empty points reaches one): the
/// boundary the two sides' stones draw between their areas, which players seal when they fill.
fn distances(live: &Board, grid: &Grid, color: Color) -> Vec<u32> {
    let n = grid.len();
    let mut d = vec![u32::MAX; n];
    let mut queue = std::collections::VecDeque::new();
    for (i, di) in d.iter_mut().enumerate() {
        if live.color_at(grid.point(i)).is_none()
            && grid
                .neighbors(i)
                .any(|j| live.color_at(grid.point(j)) == Some(color))
        {
            *di = 1;
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        for j in grid.neighbors(i) {
            if d[j] == u32::MAX && live.color_at(grid.point(j)).is_none() {
                d[j] = d[i] + 1;
                queue.push_back(j);
            }
        }
    }
    d
}

/// The neutral point `mover` fills this turn, among `neutral` (board order), as players fill
/// the last dame. Only points no nearer the other side's stones than the mover's are filled
/// ([`distances`]): a point between the two sides (a dame) or a gap in the mover's own wall,
/// never a point inside the other side's area that counts for nobody only because the area is
/// not closed yet (in a record that stops before the dame are filled, the regions behind each
/// open dame). Among those: first a fill that must be answered (an atari: the other side
/// answers it and the mover keeps the turn of filling), then a fill after which the other side
/// has no fill that puts a string of the mover in atari (a fill that gives the other side such
/// a forcing fill costs the mover a turn), then any fill the mover can make ([`can_fill`] on
/// `live`, and [`stands_on_real`] on `real`, the board with the dead stones standing);
/// within each, a dame that closes a gap in the mover's wall first, then nearest the other
/// side (the dame before the points behind them), board order breaking ties.
fn choose_fill(
    live: &Board,
    real: &Board,
    grid: &Grid,
    neutral: &[Point],
    mover: Color,
) -> Option<Point> {
    let mine = distances(live, grid, mover);
    let theirs = distances(live, grid, mover.opponent());
    // How near the other side's stones a point is (smaller first); `None` for a point nearer
    // the other side than the mover.
    let reach = |p: Point| {
        let i = grid.index(p);
        (mine[i] <= theirs[i]).then_some(theirs[i])
    };
    // A board with this many neutral points is no end of a game (a suspension early on, or a
    // record that stops in the middle): no look-ahead, which keeps the fill linear in the
    // neutral points instead of cubic.
    if neutral.len() > LOOKAHEAD_POINTS {
        return neutral
            .iter()
            .copied()
            .filter_map(|p| reach(p).map(|r| (r, p)))
            .filter(|&(_, p)| can_fill(live, p, mover) && stands_on_real(real, p, mover))
            .min_by_key(|&(r, _)| r)
            .map(|(_, p)| p);
    }
    // A dame next to a point nearer the mover (a gap in its wall): filled by the other side,
    // it makes that point a dame the mover must fill with a move of its own; filled by the
    // mover, it closes the gap.
    let closes_gap = |p: Point| {
        let i = grid.index(p);
        mine[i] == theirs[i]
            && grid
                .neighbors(i)
                .any(|j| live.color_at(grid.point(j)).is_none() && mine[j] < theirs[j])
    };
    // The best so far: (rank, closes a gap, reach, point), the highest rank, then a fill that
    // closes a gap, then the smallest reach.
    let mut best: Option<(u8, bool, u32, Point)> = None;
    let mut removed = Vec::new();
    for &p in neutral {
        let Some(r) = reach(p) else { continue };
        if !can_fill(live, p, mover) || !stands_on_real(real, p, mover) {
            continue;
        }
        let mut after = live.clone();
        after.play_unchecked(p, mover, &mut removed);
        let rank = if threatens(&after, p, mover) {
            2
        } else {
            let exposed = neutral.iter().any(|&q| {
                q != p && after.color_at(q).is_none() && can_fill(&after, q, mover.opponent()) && {
                    let mut reply = after.clone();
                    reply.play_unchecked(q, mover.opponent(), &mut removed);
                    threatens(&reply, q, mover.opponent())
                }
            });
            u8::from(!exposed)
        };
        let gap = closes_gap(p);
        if best.is_none_or(|(br, bg, bd, _)| {
            (rank, gap, std::cmp::Reverse(r)) > (br, bg, std::cmp::Reverse(bd))
        }) {
            best = Some((rank, gap, r, p));
        }
    }
    best.map(|(_, _, _, p)| p)
}

/// The shared points of `live` (no dead stones on it) that are seki points without eyes: next
/// to a string of each colour that has no liberty of its own (no point next to it counts for
/// its colour), so that both live only on the shared liberties and whoever fills one shortens
/// the race for itself ("雙方各填其半" leaves them shared). A string with a liberty of its own
/// has an eye or territory behind it; the points it shares are filled while the filler keeps
/// two liberties ([`can_fill`]), which stops at the last liberties of a seki with eyes.
fn seki_points(live: &Board, grid: &Grid) -> Vec<bool> {
    seki_points_given(live, grid, &ingo_rules::owners(live, &[]))
}

/// [`seki_points`] with the owners of `live` already counted. A seki point is one of the
/// position as it stands: a fill that connects a string without liberties of its own to a
/// living group ends the seki, and its shared points are then filled like any dame (the fill
/// asks again after every fill, and keeps the seki points of the final position that still
/// are: a fill ends a seki, it does not make one).
pub(crate) fn seki_points_given(live: &Board, grid: &Grid, owners: &[Owner]) -> Vec<bool> {
    let n = grid.len();
    let mut own_libs: std::collections::HashMap<Option<Point>, usize> =
        std::collections::HashMap::new();
    let mut insecure = |p: Point| -> bool {
        let head = live.string_head(p);
        *own_libs.entry(head).or_insert_with(|| {
            let color = live.color_at(p);
            let mut libs: Vec<Point> = Vec::new();
            for s in live.string_stones(p) {
                for q in live.neighbors(s) {
                    let mine = match (owners[grid.index(q)], color) {
                        (Owner::Black, Some(Color::Black)) | (Owner::White, Some(Color::White)) => {
                            live.color_at(q).is_none()
                        }
                        _ => false,
                    };
                    if mine && !libs.contains(&q) {
                        libs.push(q);
                    }
                }
            }
            libs.len()
        }) == 0
    };
    (0..n)
        .map(|i| {
            let p = grid.point(i);
            if owners[i] != Owner::Shared || live.color_at(p).is_some() {
                return false;
            }
            let mut weak = [false; 2];
            for q in live.neighbors(p) {
                if let Some(c) = live.color_at(q) {
                    if insecure(q) {
                        weak[usize::from(c == Color::White)] = true;
                    }
                }
            }
            weak[0] && weak[1]
        })
        .collect()
}

/// Fills the neutral points of `live` (the dead stones on it are the capturer's) in turn,
/// `first` first: each turn the side to move answers a fill that left one of its strings in
/// atari, else fills the point [`choose_fill`] picks among those that count for nobody and are
/// not seki points (`first_seki`, the final position's, while they still are); a side that has
/// none passes; two passes in a row end the fill. Each fill is made on `real` too (the final
/// position with the dead stones standing), where it must stand ([`stands_on_real`]). Returns
/// the fills.
fn fill_neutral(
    live: &mut Board,
    real: &Board,
    grid: &Grid,
    first_seki: &[bool],
    first: Color,
    last_move: Option<Fill>,
) -> Vec<Fill> {
    let mut fills = Vec::new();
    let mut mover = first;
    let mut passes = 0;
    let mut removed = Vec::new();
    let mut last: Option<Fill> = last_move;
    // The same fills on the board with the dead stones standing ([`stands_on_real`]).
    let mut real = real.clone();
    // Each fill takes an empty point, so this ends; the bound is for safety.
    for _ in 0..2 * grid.len() + 2 {
        let owners = ingo_rules::owners(live, &[]);
        // The seki of the final position that still stand (a fill can end one, not make one).
        let seki: Vec<bool> = seki_points_given(live, grid, &owners)
            .iter()
            .zip(first_seki)
            .map(|(now, then)| *now && *then)
            .collect();
        // A fill that puts a string of the mover in atari must be answered first: the mover
        // connects at the last liberty (in its own area or on a neutral point), which costs it
        // its turn of filling and so shifts the parity of the last neutral points.
        let answer = last
            .filter(|f| f.color != mover)
            .and_then(|f| forced_answer(live, f.point, mover));
        let neutral: Vec<Point> = (0..grid.len())
            .filter(|&i| {
                owners[i] == Owner::Shared && !seki[i] && live.color_at(grid.point(i)).is_none()
            })
            .map(|i| grid.point(i))
            .collect();
        let target = answer.or_else(|| choose_fill(live, &real, grid, &neutral, mover));
        if target.is_none() {
            // With no fill to make, the mover's turn is free to make a fill of its own possible
            // next turn. A connection is a play on the board that is counted, listed with the
            // fills in its turn; a dead stone taken is on the real board only.
            if let Some(free) = free_move_for_fill(live, &real, grid, &owners, &neutral, mover) {
                last = free
                    .play(live, &mut real, mover, &mut removed)
                    .map(|point| Fill {
                        point,
                        color: mover,
                    });
                fills.extend(last);
                passes = 0;
                mover = mover.opponent();
                continue;
            }
        }
        match target {
            Some(p) => {
                live.play_unchecked(p, mover, &mut removed);
                if real.color_at(p).is_none() {
                    real.play_unchecked(p, mover, &mut removed);
                }
                let fill = Fill {
                    point: p,
                    color: mover,
                };
                fills.push(fill);
                last = Some(fill);
                passes = 0;
            }
            None => {
                last = None;
                passes += 1;
                if passes == 2 {
                    break;
                }
            }
        }
        mover = mover.opponent();
    }
    fills
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The strings of `game`'s board, every one sampled dead.
    fn all_dead(game: &Game, grid: &Grid) -> (Vec<StringStatus>, Vec<usize>) {
        strings_of(game.board(), grid, |_, _, _| {
            (Status::Dead, false, 0.0, Decided::Sampled(0.0))
        })
    }

    /// Black's `C4` takes White's `B4` in a ko, the last move of the game: White may not take
    /// back at once, so the stone stays, and nothing else is touched. After another move it is
    /// no longer the last, and keeps its verdict.
    #[test]
    fn the_stone_that_took_a_ko_last_stays() {
        let board = Board::from_ascii(
            "
            . X O . .
            X O . O .
            . X O . .
            . . . . .
            . . . . .",
        )
        .expect("diagram");
        let setup = Setup {
            board,
            to_move: Color::Black,
            handicap_passes: 0,
        };
        let mut game = Game::new(setup, ingo_rules::Rules::ing());
        let at = |s: &str| Point::from_gtp(s, 5, 5).expect("a point");
        game.play(ingo_rules::Move::Play(at("C4"))).expect("the ko");
        assert!(
            !game.is_legal(ingo_rules::Move::Play(at("B4"))),
            "the hot stone"
        );
        let grid = Grid::new(game.board());
        let (mut strings, string_of) = all_dead(&game, &grid);
        keep_the_ko_taken_last(&game, &grid, &mut strings, &string_of);
        let taker = &strings[string_of[grid.index(at("C4"))]];
        assert_eq!(
            (taker.status, taker.how),
            (Status::Alive, Decided::KoTakenLast)
        );
        let kept = strings.iter().filter(|s| s.status == Status::Alive).count();
        assert_eq!(kept, 1, "only the ko stone");

        game.play(ingo_rules::Move::Play(at("E1")))
            .expect("elsewhere");
        let grid = Grid::new(game.board());
        let (mut strings, string_of) = all_dead(&game, &grid);
        keep_the_ko_taken_last(&game, &grid, &mut strings, &string_of);
        assert!(strings.iter().all(|s| s.status == Status::Dead));
    }

    /// A fill one move deep that stands on the board the dead stones are converted on but not on
    /// the real one. Source: `aeb-pro/CJSuperGo/CJSG-03-06.sgf`, its lower right corner (`Q1` …
    /// `T4`), moved to the lower right of a 9×9 board beside a column of eight dame (`D2` …
    /// `D9`). White's dead `H3` is in atari at `J3`; Black's `H2 J2` have the liberties `J1` and
    /// `J3`. With `H3` converted to Black (`live`), a Black fill on the dame `J1` keeps many
    /// liberties; on the real board it leaves `H2 J2 J1` the one liberty `J3`, where White takes
    /// three stones. So Black never fills `J1`, White does.
    #[test]
    fn a_fill_in_atari_beside_a_dead_stone_is_not_made() {
        let real = Board::from_ascii(
            "
            . . O . X . . . .
            . . O . X . . . .
            . . O . X . . . .
            . . O . X . . . .
            . . O . X . . . .
            . . O . X . X X .
            . . O . X X X O .
            . . O . X X O X X
            . . O O O O O O .",
        )
        .expect("diagram");
        let grid = Grid::new(&real);
        let h3 = Point::from_gtp("H3", 9, 9).expect("H3");
        let j1 = Point::from_gtp("J1", 9, 9).expect("J1");
        let mut live = real.clone();
        live.clear_stone(h3);
        live.set_stone(h3, Color::Black);
        assert!(can_fill(&live, j1, Color::Black), "on live the fill stands");
        assert!(!stands_on_real(&real, j1, Color::Black));
        assert!(stands_on_real(&real, j1, Color::White));
        for first in [Color::Black, Color::White] {
            let mut filled = live.clone();
            let no_seki = vec![false; grid.len()];
            let fills = fill_neutral(&mut filled, &real, &grid, &no_seki, first, None);
            assert_eq!(fills.len(), 9, "eight dame and J1: {fills:?}");
            assert!(
                fills.contains(&Fill {
                    point: j1,
                    color: Color::White
                }),
                "{first:?} first: {fills:?}"
            );
        }
    }

    /// A dame that a dead stone keeps from being filled: the player takes the dead stone first,
    /// on a turn with nothing else to fill (a play in its own area, worth nothing), then fills.
    /// Source: `aeb-pro/Fujitsu/20/18.sgf`, its lower left corner (`A1` … `D4`), on a 9×9 board
    /// beside White's wall on the D line. White's dead `B3` is in atari at `A3`; Black's `A2
    /// B2` have the liberties `A1` and `A3` on the real board. Black's fill at `A1` stands on
    /// `live` (`B3` converted) but leaves `A1 A2 B2` in atari on the real board, and White's
    /// `A1` is in atari on both (`A1 B1` with the one liberty `C1`). Taken at `A3`, `B3` is
    /// gone and Black's fill stands; White's stands once it has connected `B1` at `C1`, inside
    /// its own area ([`connect_for_fill`]). So whoever starts makes its move first and fills
    /// `A1`. Left alone, `A1` was a point shared between the two and the stones around it a
    /// seki, a point and the winner of the record off (W+0.5, where Black won by half a point,
    /// as GNU Go counts it too).
    #[test]
    fn a_dead_stone_in_the_way_of_a_fill_is_taken_first() {
        let real = Board::from_ascii(
            "
            . . X O . . . . .
            . . X O . . . . .
            . . X O . . . . .
            . . X O . . . . .
            . . X O . . . . .
            . X X O . . . . .
            . O X O . . . . .
            X X O O . . . . .
            . O . O . . . . .",
        )
        .expect("diagram");
        let grid = Grid::new(&real);
        let at = |s: &str| Point::from_gtp(s, 9, 9).expect("point");
        let mut live = real.clone();
        live.clear_stone(at("B3"));
        live.set_stone(at("B3"), Color::Black);
        assert!(can_fill(&live, at("A1"), Color::Black));
        assert!(!stands_on_real(&real, at("A1"), Color::Black));
        assert!(!can_fill(&live, at("A1"), Color::White));
        let no_seki = vec![false; grid.len()];
        for first in [Color::Black, Color::White] {
            let a1 = Fill {
                point: at("A1"),
                color: first,
            };
            let mut filled = live.clone();
            let fills = fill_neutral(&mut filled, &real, &grid, &no_seki, first, None);
            // White's connection is a play on the board counted, listed with the fills;
            // Black's capture, on the real board only, is not (`A3` is Black's area either way).
            let c1 = Fill {
                point: at("C1"),
                color: Color::White,
            };
            let want = vec![c1, a1];
            assert_eq!(fills, want, "one move deep, {first:?} first");
            assert_eq!(filled.color_at(at("A3")), None);
            let untakable: Vec<bool> = (0..grid.len()).map(|i| grid.point(i) == at("B3")).collect();
            let (fills, _) = fill::read_fill(&real, &live, &grid, first, &no_seki, &untakable)
                .expect("read out");
            assert_eq!(fills, want, "read, {first:?} first");
        }
    }

    /// A dame that each side can fill only after a connection inside its own area: the side to
    /// fill first connects, the other connects too, and the first fills. Source:
    /// `aeb-pro/Ing/07/P02.sgf`, its upper edge (`D19` … `J19`), on a 9×9 board. White's `G9`
    /// and Black's `E9 E8 E7 F8 G8` share the dame `F9`; either fill there would leave the
    /// filler's string one liberty (White's `H9`, Black's `E6`). White connects at `H9` to its
    /// wall, Black at `E6` (its own eye) to its lower group. Left alone, `F9` was shared and the
    /// strings around it a seki, and the record's W+1 counted B+0 (as GNU Go counts it too).
    #[test]
    fn a_dame_is_filled_after_a_connection_inside_ones_own_area() {
        let board = Board::from_ascii(
            "
            . . O O X . O . O
            . . O O X X X O O
            . . O O X O O O .
            O O O X . X O . .
            X X X X X X O . .
            . . . . . X O . .
            . . . . . X O . .
            . . . . . X O . .
            . . . . . X O . .",
        )
        .expect("diagram");
        let grid = Grid::new(&board);
        let at = |s: &str| Point::from_gtp(s, 9, 9).expect("point");
        for c in [Color::Black, Color::White] {
            assert!(
                !can_fill(&board, at("F9"), c),
                "{c:?} cannot fill F9 at once"
            );
        }
        let no_seki = vec![false; grid.len()];
        let none = vec![false; grid.len()];
        let fill = |p: &str, color: Color| Fill {
            point: at(p),
            color,
        };
        for first in [Color::Black, Color::White] {
            // The connections are plays on the board counted, listed with the fills.
            let want = if first == Color::Black {
                vec![
                    fill("E6", first),
                    fill("H9", Color::White),
                    fill("F9", first),
                ]
            } else {
                vec![
                    fill("H9", first),
                    fill("E6", Color::Black),
                    fill("F9", first),
                ]
            };
            let mut live = board.clone();
            let fills = fill_neutral(&mut live, &board, &grid, &no_seki, first, None);
            assert_eq!(fills, want, "one move deep, {first:?} first");
            let (fills, after) =
                fill::read_fill(&board, &board, &grid, first, &no_seki, &none).expect("read out");
            assert_eq!(fills, want, "read, {first:?} first");
            assert_eq!(after.color_at(at("F9")), Some(first));
        }
    }
}
