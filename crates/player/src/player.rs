//! The player: configuration, the move decision and what the search found.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ingo_clock::{TimeSource, WallClock};
use ingo_rules::{Game, Move, Phase};

use crate::playout::{self, PlayoutPolicy};
use crate::rng::Rng;
use crate::time::{self, MoveClock, ResignPolicy, TimeLeft, TimePolicy};
use crate::tree::{self, Params, Tree};

/// How much search one move gets: a number of playouts, a time (on the wall clock, or on the
/// player's [`TimeSource`]), or both (whichever runs out first). At least one must be set, so that a search always ends.
///
/// With a clock ([`Player::genmove`]'s `time_left`) the clock's allotment limits the time as
/// well; a front playing on the clock would set `playouts: None` and `time` to a per-move cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Budget {
    /// The most playouts (search iterations) per move.
    pub playouts: Option<u64>,
    /// The most thinking time per move (further limited by the clock, see [`Player::genmove`]).
    pub time: Option<Duration>,
}

impl Budget {
    /// A budget of `n` playouts and no time limit: the search is then deterministic for a seed.
    pub fn playouts(n: u64) -> Budget {
        Budget {
            playouts: Some(n),
            time: None,
        }
    }

    /// A budget of `t` of thinking time.
    pub fn time(t: Duration) -> Budget {
        Budget {
            playouts: None,
            time: Some(t),
        }
    }
}

/// Playouts after the best move that estimate the margin of a resignation.
const RESIGN_PLAYOUTS: u32 = 64;

/// The player's settings. [`Config::default`] suits a 9×9 to 19×19 game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Search per move.
    pub budget: Budget,
    /// How thinking time is derived from the clock.
    pub time: TimePolicy,
    /// The seed of the random number generator: equal seeds and playout budgets give equal moves.
    pub seed: u64,
    /// The UCT exploration constant (added `c·√(ln N / (n+1))`); 0, the default, leaves the
    /// exploring to RAVE and the first-play urgency, as MoGo and Fuego do once RAVE is on.
    /// With 0.1 (the earlier default) the 19×19 search was flat: of 10,000 playouts from a
    /// move-60 position its most visited move got 116, with 0 it gets about half. Measured
    /// (BENCHMARKS.md "Exploration"): 0 against 0.1, heavy playouts, one thread, 37 of 40
    /// games on 19×19 at 1,000 playouts and 27 of 40 on 9×9 at 2,000; at 10,000 playouts 0
    /// won 9 of 9 even games against GNU Go 3.8 level 10 on 19×19, where 0.1 needed about
    /// six stones.
    pub exploration: f64,
    /// RAVE: the number of real visits at which a move's own statistics weigh as much as its
    /// AMAF statistics; `0` turns RAVE off (plain UCT).
    pub rave_equiv: f64,
    /// The value of a move with no statistics at all (first-play urgency).
    pub first_play_urgency: f64,
    /// Visits a leaf needs before it is expanded (the root always is).
    pub expand_visits: u32,
    /// The most tree nodes (40 bytes each); past it leaves are no longer expanded.
    pub max_nodes: usize,
    /// Stop searching once the most visited move can no longer be overtaken within the budget.
    pub early_stop: bool,
    /// Pass at once when the opponent has just passed and the board as it stands (every stone
    /// alive) already wins.
    pub pass_when_winning: bool,
    /// When to resign; `None` (the default): never.
    pub resign: Option<ResignPolicy>,
    /// Whether [`Player::ponder`] searches on the opponent's time (off by default); the next
    /// [`Player::genmove`] then goes on from the opponent's move in that search.
    pub ponder: bool,
    /// The weight of the margin in a playout's reward (the rest is the win): small, so that the
    /// search prefers bigger wins without giving up winning chances for points.
    pub score_weight: f64,
    /// Virtual lost playouts given to a pass that does not end play (one not answering a pass):
    /// mid-game such a pass only loses a tempo, and without them the unsteady value of a
    /// rarely tried pass sometimes wins the vote by chance.
    pub pass_prior: f64,
    /// The playout policy: heavy (MoGo-style local answers and shapes, the default) or light
    /// (uniform random, about four times as many playouts a second; [`PlayoutPolicy`]). Heavy
    /// at a quarter of the playouts beats light in the same time on 19×19 (8 of 10 games,
    /// BENCHMARKS.md) and on 9×9.
    pub playout: PlayoutPolicy,
    /// On which boards the move patterns learned from records ([`crate::patterns`]) bias the
    /// search: [`PatternPriors::Large`] (13×13 and larger, the default), always, or never (the
    /// search as before the patterns, to measure them).
    pub pattern_priors: PatternPriors,
    /// The most virtual AMAF wins a pattern prior gives a move (the likeliest move of a node
    /// gets this many; a move of pattern probability `p` gets `prior_equiv · √(p / p_max)`).
    pub prior_equiv: f64,
    /// Playouts through a node before its children get their pattern priors (the root gets
    /// them at once): rating every legal move costs about two light 19×19 playouts.
    pub prior_visits: u32,
    /// Searching threads (root parallelism: each searches a tree of its own from the same
    /// position and their root moves' statistics are summed before the choice), 1 to
    /// [`MAX_THREADS`]. A playout budget is shared among them. With one thread (the default) a
    /// seed and a playout budget give the same moves every time; with more, the early stop
    /// ([`Config::early_stop`]) depends on how fast each thread ran.
    pub threads: usize,
    /// Keep the search tree after a move and go on from its part for the position of the next
    /// move (the reply searched so far, with its statistics), instead of starting afresh: the
    /// playouts already made below the moves played are not lost. On by default. Only the
    /// playouts made for this move count toward its budget (those made while pondering count,
    /// see [`Player::ponder`]), so a seed and a playout budget still fix the moves of a game.
    pub reuse_tree: bool,
    /// Progressive widening (Coulom 2007, Chaslot et al. 2008) where the pattern priors apply:
    /// a node's children are ordered by their patterns and selection considers only the best
    /// few, more as the node's playouts grow ([`Widening`]); `None`: every child.
    pub widening: Option<Widening>,
    /// Progressive bias where the pattern priors apply: `prior_bias · p / p_max / (n + 1)`
    /// added to a move's selection value, `p` its pattern gamma, `p_max` the best of its
    /// siblings', `n` its real visits; 0 (the default) for none.
    pub prior_bias: f64,
    /// Dynamic komi in handicap games (Baudiš's "linear" dynamic komi, as Pachi plays
    /// handicap games): the search counts with this many extra points per handicap stone
    /// against Black, falling linearly to none by [`Config::dynamic_komi_moves`], so that
    /// neither side sees every move win or every move lose, where a search plays aimlessly
    /// (Black with ten stones gave a game away move by move). On boards of 13×13 and larger;
    /// `0` turns it off. The count and the game's result never change: only what the search
    /// aims at.
    pub dynamic_komi: f64,
    /// The move on 19×19 by which the dynamic komi falls to none (proportionally to the
    /// board's points on other sizes).
    pub dynamic_komi_moves: u32,
}

/// The schedule of [`Config::widening`]: after `n` playouts through a node, selection
/// considers its `start + ⌊ln(1 + n / visits) / ln(growth)⌋` children of the best patterns
/// (and the pass).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Widening {
    /// Children considered from the first playout.
    pub start: u32,
    /// The scale of the playouts: one more child at `visits · (growth − 1)` playouts.
    pub visits: f64,
    /// The factor by which the playouts grow for each further child (more than 1).
    pub growth: f64,
}

impl Widening {
    /// Checks the schedule: `start` at least 1, `visits` above 0, `growth` above 1.
    ///
    /// # Errors
    /// The first field out of range, as [`ConfigError::BadParameter`].
    pub fn validate(&self) -> Result<(), ConfigError> {
        let bad = |name, value| Err(ConfigError::BadParameter { name, value });
        if self.start == 0 {
            return bad("widening.start", 0.0);
        }
        if !(self.visits.is_finite() && self.visits > 0.0) {
            return bad("widening.visits", self.visits);
        }
        if !(self.growth.is_finite() && self.growth > 1.0) {
            return bad("widening.growth", self.growth);
        }
        Ok(())
    }
}

impl Default for Widening {
    fn default() -> Widening {
        Widening {
            start: 4,
            visits: 20.0,
            growth: 1.4,
        }
    }
}

/// The most searching threads of [`Config::threads`].
pub const MAX_THREADS: usize = 256;

/// Where the pattern priors of [`Config::pattern_priors`] apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PatternPriors {
    /// Never: the search without them.
    Off,
    /// On boards of 13×13 and larger (the patterns were learned from 19×19 and 13×13 records).
    Large,
    /// On every board.
    Always,
}

impl PatternPriors {
    /// Whether the priors apply on a board `width × height`.
    pub fn applies(self, width: usize, height: usize) -> bool {
        match self {
            PatternPriors::Off => false,
            PatternPriors::Large => width.min(height) >= 13,
            PatternPriors::Always => true,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            budget: Budget::playouts(10_000),
            time: TimePolicy::default(),
            seed: 0x1D60_5EED,
            exploration: 0.0,
            rave_equiv: 1000.0,
            first_play_urgency: 1.1,
            expand_visits: 2,
            max_nodes: 2_000_000,
            early_stop: true,
            pass_when_winning: true,
            resign: None,
            ponder: false,
            score_weight: 0.02,
            pass_prior: 10.0,
            playout: PlayoutPolicy::Heavy,
            pattern_priors: PatternPriors::Large,
            prior_equiv: 400.0,
            prior_visits: 8,
            threads: 1,
            reuse_tree: true,
            widening: None,
            prior_bias: 0.0,
            dynamic_komi: 7.0,
            dynamic_komi_moves: 200,
        }
    }
}

/// An invalid [`Config`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The budget sets neither playouts nor time, so a search without a clock would not end.
    #[error("the budget needs a playout or time limit")]
    UnboundedBudget,
    /// A playout budget of zero: no move could be chosen by search.
    #[error("the playout budget must be at least 1")]
    ZeroPlayouts,
    /// A numeric parameter is negative or not a number.
    #[error("parameter {name} must be a finite number >= 0, not {value}")]
    BadParameter {
        /// The parameter's name.
        name: &'static str,
        /// Its value.
        value: f64,
    },
    /// A resignation threshold outside 0..=1.
    #[error("resignation threshold {0} is not within 0..=1")]
    ResignThreshold(f64),
    /// A thread count outside `1..=`[`MAX_THREADS`].
    #[error("threads must be 1 to {MAX_THREADS}, not {0}")]
    Threads(usize),
}

impl Config {
    /// Checks the settings.
    ///
    /// # Errors
    /// The first problem found.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.budget.playouts.is_none() && self.budget.time.is_none() {
            return Err(ConfigError::UnboundedBudget);
        }
        if self.budget.playouts == Some(0) {
            return Err(ConfigError::ZeroPlayouts);
        }
        if !(1..=MAX_THREADS).contains(&self.threads) {
            return Err(ConfigError::Threads(self.threads));
        }
        if let Some(w) = self.widening {
            w.validate()?;
        }
        for (name, value) in [
            ("exploration", self.exploration),
            ("rave_equiv", self.rave_equiv),
            ("first_play_urgency", self.first_play_urgency),
            ("time.byo_fraction", self.time.byo_fraction),
            ("time.opening", self.time.opening),
            ("time.middle", self.time.middle),
            ("time.late", self.time.late),
            ("time.stop_share", self.time.stop_share),
            ("time.dominance", self.time.dominance),
            ("score_weight", self.score_weight),
            ("pass_prior", self.pass_prior),
            ("prior_equiv", self.prior_equiv),
            ("prior_bias", self.prior_bias),
            ("dynamic_komi", self.dynamic_komi),
        ] {
            if !value.is_finite() || value < 0.0 {
                return Err(ConfigError::BadParameter { name, value });
            }
        }
        if self.score_weight > 1.0 {
            return Err(ConfigError::BadParameter {
                name: "score_weight",
                value: self.score_weight,
            });
        }
        if let Some(r) = self.resign {
            if !(0.0..=1.0).contains(&r.below) {
                return Err(ConfigError::ResignThreshold(r.below));
            }
        }
        Ok(())
    }

    /// The tree's parameters for a search on `game`'s board.
    fn params(&self, game: &Game) -> Params {
        let board = game.board();
        let priors = self
            .pattern_priors
            .applies(board.width(), board.height())
            .then(|| crate::patterns::Patterns::builtin().ok())
            .flatten()
            .map(|patterns| tree::PriorParams {
                patterns,
                equiv: self.prior_equiv as f32,
                visits: self.prior_visits,
                widening: self.widening,
                bias: self.prior_bias as f32,
            });
        Params {
            exploration: self.exploration as f32,
            rave_equiv: self.rave_equiv as f32,
            first_play_urgency: self.first_play_urgency as f32,
            expand_visits: self.expand_visits,
            max_nodes: self.max_nodes,
            score_weight: self.score_weight as f32,
            pass_prior: self.pass_prior as f32,
            playout: self.playout,
            priors,
            extra_komi_halves: self.extra_komi_halves(game),
        }
    }

    /// The dynamic komi at `game`'s move, in half points against Black ([`Config::dynamic_komi`]):
    /// per handicap stone (White's passes plus one), falling linearly to 0 by the last move.
    fn extra_komi_halves(&self, game: &Game) -> i32 {
        let passes = u32::from(game.setup().handicap_passes);
        let board = game.board();
        // On small boards a few points decide, and 7 a stone would be most of the board.
        if passes == 0 || self.dynamic_komi <= 0.0 || board.width().min(board.height()) < 13 {
            return 0;
        }
        let end = f64::from(self.dynamic_komi_moves) * board.area() as f64 / 361.0;
        let left = (1.0 - game.move_count() as f64 / end.max(1.0)).max(0.0);
        (2.0 * self.dynamic_komi * f64::from(passes + 1) * left).round() as i32
    }
}

/// What the player does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Play this move (a board play or a pass).
    Move(Move),
    /// Resign the game.
    Resign,
}

/// Why the player chose what it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// The search chose it.
    Search,
    /// The game is over; the move returned is a pass, which the game will refuse.
    GameOver,
    /// A handicap pass of White's was due (讓手).
    HandicapPass,
    /// One of Black's handicap stones while White passes: the next star point of the standard
    /// placement (GTP's `fixed_handicap`).
    HandicapStone,
    /// There is no legal board play that does not fill one of the player's own eyes.
    NoPlay,
    /// The opponent passed and the board as it stands (every stone alive) already wins.
    Winning,
    /// The search found the game lost beyond the resignation threshold.
    Resign,
}

/// The statistics of one candidate move at the root.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Playouts through it.
    pub visits: u32,
    /// Their mean reward for the player to move: the share won, blended with the margin term of
    /// [`Config::score_weight`].
    pub win_rate: f64,
    /// AMAF (RAVE) playouts that credited it.
    pub amaf_visits: u32,
    /// Their mean reward for the player to move.
    pub amaf_win_rate: f64,
}

/// What the search found, for logs and GTP analysis output.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// Why this action.
    pub reason: Reason,
    /// Playouts made (0 when no search was needed).
    pub playouts: u64,
    /// Time spent deciding.
    pub elapsed: Duration,
    /// The time the clock allowed for this move, if a clock was given.
    pub allotted: Option<Duration>,
    /// The search's value of the chosen move for the player to move: about the chance of
    /// winning (the share of playouts won, blended with the small margin term of
    /// [`Config::score_weight`]); 0.5 when no search was made, 1 when passing wins outright.
    pub win_rate: f64,
    /// Playouts through the chosen move.
    pub visits: u32,
    /// The expected continuation, starting with the chosen move.
    pub pv: Vec<Move>,
    /// The most visited root moves, best first (at most ten).
    pub candidates: Vec<Candidate>,
    /// Nodes in the search tree.
    pub nodes: usize,
    /// Playouts of the position searched before this move (by the last move's search or by
    /// pondering, [`Config::reuse_tree`]) that this search went on from; not in `playouts`.
    pub reused: u64,
}

impl SearchInfo {
    fn without_search(reason: Reason, win_rate: f64, elapsed: Duration) -> SearchInfo {
        SearchInfo {
            reason,
            playouts: 0,
            elapsed,
            allotted: None,
            win_rate,
            visits: 0,
            pv: Vec::new(),
            candidates: Vec::new(),
            nodes: 0,
            reused: 0,
        }
    }
}

/// The player's decision: an action and how it was reached.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// What to do.
    pub action: Action,
    /// What the search found.
    pub info: SearchInfo,
}

impl Decision {
    /// The move, unless the player resigns.
    pub fn mv(&self) -> Option<Move> {
        match self.action {
            Action::Move(m) => Some(m),
            Action::Resign => None,
        }
    }
}

/// A Monte Carlo tree search player (UCT with RAVE over light random playouts) for Ing's rules.
///
/// It never fills its own eyes, passes when nothing is left or when the opponent passed and the
/// board as it stands wins, and otherwise plays on: because Ing counts every stone left on the
/// board at the end as alive, dead stones must be captured, and the search, which scores a pass
/// after a pass by counting the board as it stands, does so.
#[derive(Clone, Debug)]
pub struct Player {
    config: Config,
    rng: Rng,
    time: Arc<dyn TimeSource>,
    kept: Kept,
}

/// The last search (of [`Player::genmove`] or [`Player::ponder`]) with its root position, for
/// the next one to go on from ([`Config::reuse_tree`]). A clone of the player does not keep it
/// (the tree can be large, and a clone is another player).
#[derive(Default)]
struct Kept(Option<Box<KeptSearch>>);

struct KeptSearch {
    root: Game,
    tree: Tree,
    /// The playouts made on the opponent's time (by [`Player::ponder`]), which count toward
    /// the next move's budget; 0 for a move's own search.
    pondered: u64,
}

impl Clone for Kept {
    fn clone(&self) -> Kept {
        Kept(None)
    }
}

impl std::fmt::Debug for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(k) => write!(f, "Kept({} nodes, {} pondered)", k.tree.len(), k.pondered),
            None => write!(f, "Kept(none)"),
        }
    }
}

impl Player {
    /// A player with `config`, timing its moves by the wall clock.
    ///
    /// # Errors
    /// When the configuration is invalid ([`Config::validate`]).
    pub fn new(config: Config) -> Result<Player, ConfigError> {
        Player::with_time_source(config, Arc::new(WallClock::new()))
    }

    /// A player with `config` that reads the time from `time` instead of the wall clock: for a
    /// [`Budget`]'s time and the clock's allotment. A source that a test advances itself (a
    /// fixed step per reading, say) makes what a time budget allows exact: the search stops at
    /// the first reading at or past the limit, and [`SearchInfo::elapsed`] is the difference of
    /// the first and last readings.
    ///
    /// # Errors
    /// When the configuration is invalid ([`Config::validate`]).
    pub fn with_time_source(
        config: Config,
        time: Arc<dyn TimeSource>,
    ) -> Result<Player, ConfigError> {
        config.validate()?;
        Ok(Player {
            config,
            rng: Rng::new(config.seed),
            time,
            kept: Kept::default(),
        })
    }

    /// The settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Changes the search budget per move (a GTP front's strength setting, say).
    ///
    /// # Errors
    /// When the budget is unbounded or zero; the player is then unchanged.
    pub fn set_budget(&mut self, budget: Budget) -> Result<(), ConfigError> {
        let config = Config {
            budget,
            ..self.config
        };
        config.validate()?;
        self.config = config;
        Ok(())
    }

    /// Restarts the random number generator from `seed`.
    pub fn reseed(&mut self, seed: u64) {
        self.config.seed = seed;
        self.rng = Rng::new(seed);
    }

    /// Searches `game`, where the opponent is to move, until `stop` is set or `max_playouts`
    /// playouts are made, when [`Config::ponder`] is on (otherwise nothing: 0 playouts). The
    /// next [`Player::genmove`], if its game is this one with one more move, goes on from that
    /// move's part of this search: its playouts count toward that move's budget. A front calls
    /// this on its own thread while it waits for the opponent, and sets `stop` when the move
    /// comes. Returns the playouts made.
    pub fn ponder(&mut self, game: &Game, stop: &AtomicBool, max_playouts: u64) -> u64 {
        if !self.config.ponder || game.phase() == Phase::Ended {
            self.kept = Kept(None);
            return 0;
        }
        let params = self.config.params(game);
        // Go on from this player's last move's search, where it reached `game`.
        let (mut tree, _) = self.take_kept(game).unwrap_or_else(|| (Tree::new(game), 0));
        let done = tree.iterate_until(game, &mut self.rng, &params, Some(max_playouts), Some(stop));
        self.kept = Kept(Some(Box::new(KeptSearch {
            root: game.clone(),
            tree,
            pondered: done,
        })));
        done
    }

    /// The part of the kept search that `game` reached, and the playouts of it made while
    /// pondering: `game` is the kept search's position with one or more moves since, each of
    /// which the search had tried (with the same setup and rules). The kept search is dropped
    /// either way.
    fn take_kept(&mut self, game: &Game) -> Option<(Tree, u64)> {
        let KeptSearch {
            root,
            tree,
            pondered,
        } = *std::mem::take(&mut self.kept).0?;
        if game.move_count() <= root.move_count()
            || game.setup() != root.setup()
            || game.rules() != root.rules()
            || !root
                .history()
                .zip(game.history())
                .all(|(a, b)| a.color == b.color && a.mv == b.mv)
        {
            return None;
        }
        let mut id = 0;
        for m in game.history().skip(root.move_count()) {
            id = tree.children(id).find(|&c| tree.node(c).mv == m.mv)?;
            if tree.node(id).visits == 0 {
                return None;
            }
        }
        let sub = tree.subtree(id, game);
        // Of the playouts below the move played, at most all of those pondered were pondered.
        let pondered = pondered.min(u64::from(sub.node(0).visits));
        Some((sub, pondered))
    }

    /// Chooses an action for the player to move in `game`.
    ///
    /// `time_left` is this player's clock, if there is one: the thinking time is then the lesser
    /// of the budget's time and what [`TimePolicy::allot`] allows.
    pub fn genmove(&mut self, game: &Game, time_left: Option<TimeLeft>) -> Decision {
        let time = Arc::clone(&self.time);
        let start = time.now();
        let pass = |reason, win_rate| Decision {
            action: Action::Move(Move::Pass),
            info: SearchInfo::without_search(reason, win_rate, time.now().saturating_sub(start)),
        };
        let me = game.to_move();
        let kept = self.take_kept(game);
        if game.phase() == Phase::Ended {
            return pass(Reason::GameOver, 0.5);
        }
        if game.handicap_pass_due() {
            return pass(Reason::HandicapPass, 0.5);
        }
        if !has_play(game) {
            return pass(Reason::NoPlay, 0.5);
        }
        if let Some(p) = crate::handicap::stone(game) {
            return Decision {
                action: Action::Move(Move::Play(p)),
                info: SearchInfo::without_search(
                    Reason::HandicapStone,
                    0.5,
                    time.now().saturating_sub(start),
                ),
            };
        }
        // The opponent passed: passing too suspends play (and after four passes ends the game)
        // with the board counted as it stands. If that wins, there is nothing to gain by playing
        // on. If it does not (dead stones of the opponent's left in our area count as alive
        // under Ing), the search below plays on to capture them.
        if self.config.pass_when_winning
            && game.consecutive_passes() >= 1
            && game.count(&[]).winner == me
        {
            return pass(Reason::Winning, 1.0);
        }
        let mut limits = self.config.budget;
        let allotted = time_left.map(|left| {
            self.config.time.allot_move(&MoveClock {
                left,
                empty_points: game.board().empty_count(),
                points: game.board().area(),
                move_number: game.move_count(),
            })
        });
        if let Some(a) = allotted {
            limits.time = Some(limits.time.map_or(a, |t| t.min(a)));
        }
        // A forced move (one board play, beside the pass) needs no time.
        if let Some(n) = self.config.time.forced_budget(board_plays(game)) {
            limits.playouts = Some(limits.playouts.map_or(n, |p| p.min(n)));
        }
        // With a clock, the time a search saves stays on it.
        let clock = allotted.and(limits.time);
        // The pondered playouts of this position count toward the budget; those of the last
        // move's search do not (they were that move's).
        if let (Some((_, pondered)), Some(n)) = (&kept, limits.playouts) {
            limits.playouts = Some(n.saturating_sub(*pondered).max(1));
        }
        let from = kept.map(|(t, _)| t);
        let reused = from.as_ref().map_or(0, |t| u64::from(t.node(0).visits));
        let (tree, playouts) = self.search(game, limits, start, clock, from);
        let root_best = tree.best_child(0);
        let candidates = candidates(&tree);
        let (mv, visits, win_rate) = match root_best {
            Some(c) => {
                let n = tree.node(c);
                (n.mv, n.visits, n.win_rate())
            }
            // Cannot happen (the search makes at least one playout through a child of the
            // root), but a pass is always legal.
            None => (Move::Pass, 0, 0.5),
        };
        let progress = game
            .move_count()
            .max(game.board().area() - game.board().empty_count());
        let resign = self.config.resign.is_some_and(|r| {
            r.resigns(win_rate, playouts, progress, game.board().area(), || {
                time::estimate_margin(
                    game,
                    mv,
                    &mut self.rng,
                    self.config.playout,
                    RESIGN_PLAYOUTS,
                )
            })
        });
        let (pv, nodes) = (tree.pv(), tree.len());
        if self.config.reuse_tree && !resign {
            self.kept = Kept(Some(Box::new(KeptSearch {
                root: game.clone(),
                tree,
                pondered: 0,
            })));
        }
        Decision {
            action: if resign {
                Action::Resign
            } else {
                Action::Move(mv)
            },
            info: SearchInfo {
                reason: if resign {
                    Reason::Resign
                } else {
                    Reason::Search
                },
                playouts,
                elapsed: time.now().saturating_sub(start),
                allotted,
                win_rate,
                visits,
                pv,
                candidates,
                nodes,
                reused,
            },
        }
    }

    /// Runs the search from `game` within `limits`; returns the tree and the playouts made.
    /// `clock`: the search's time when a clock sets it (the early stop of
    /// [`TimePolicy::can_stop`] then applies); `from`: a tree to go on from (a kept one).
    fn search(
        &mut self,
        game: &Game,
        limits: Budget,
        start: Duration,
        clock: Option<Duration>,
        from: Option<Tree>,
    ) -> (Tree, u64) {
        let params = self.config.params(game);
        let threads = self.config.threads.clamp(1, MAX_THREADS);
        let tree = from.unwrap_or_else(|| Tree::new(game));
        if threads == 1 {
            let stop = AtomicBool::new(false);
            let early = self.config.early_stop;
            return self.search_one(game, tree, &params, limits, (start, clock), early, &stop);
        }
        // Each helper thread gets a seed of its own from this player's generator (so a seed
        // still fixes them all) and an equal share of a playout budget; this thread takes the
        // remainder and decides when all stop (time, budget or early stop). Without a time limit
        // every thread makes its whole share and none stops early, so that a seed and a playout
        // budget still give the same move.
        let timed = limits.time.is_some();
        let seeds: Vec<u64> = (1..threads).map(|_| self.rng.next_u64()).collect();
        let n = threads as u64;
        let share = |k: u64| limits.playouts.map(|p| p / n + u64::from(k < p % n));
        let stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let helpers: Vec<_> = seeds
                .iter()
                .enumerate()
                .filter_map(|(k, &seed)| {
                    // A playout budget smaller than the threads leaves some without a share.
                    let max = share(k as u64 + 1);
                    if max == Some(0) {
                        return None;
                    }
                    let (params, stop) = (&params, &stop);
                    Some(scope.spawn(move || {
                        let mut tree = Tree::new(game);
                        let stop = timed.then_some(stop);
                        let done = tree.iterate_until(game, &mut Rng::new(seed), params, max, stop);
                        (tree, done)
                    }))
                })
                .collect();
            let own = Budget {
                playouts: share(0).map(|p| p.max(1)),
                ..limits
            };
            let early = self.config.early_stop && timed;
            let (mut tree, mut done) =
                self.search_one(game, tree, &params, own, (start, clock), early, &stop);
            stop.store(true, Ordering::Relaxed);
            for h in helpers {
                // A helper that panicked (it cannot: `iterate` has no panicking path on a legal
                // game) only loses its votes.
                if let Ok((t, d)) = h.join() {
                    tree.merge_root(&t);
                    done += d;
                }
            }
            (tree, done)
        })
    }

    /// The search loop of one thread on `tree` within `limits`, from `start` with the clock's
    /// time `clock` (see [`Player::search`]); `early`: whether it may stop once the move is
    /// decided; it stops when `stop` is set (by another thread). Returns the tree and the
    /// playouts made.
    #[allow(clippy::too_many_arguments)]
    fn search_one(
        &mut self,
        game: &Game,
        mut tree: Tree,
        params: &Params,
        limits: Budget,
        (start, clock): (Duration, Option<Duration>),
        early: bool,
        stop: &AtomicBool,
    ) -> (Tree, u64) {
        let mut done: u64 = 0;
        loop {
            tree.iterate(game, &mut self.rng, params);
            done += 1;
            if limits.playouts.is_some_and(|max| done >= max) || stop.load(Ordering::Relaxed) {
                break;
            }
            // Reading the clock costs tens of nanoseconds, a playout tens of microseconds.
            let elapsed = self.time.now().saturating_sub(start);
            if limits.time.is_some_and(|t| elapsed >= t) {
                break;
            }
            if early && done.is_multiple_of(64) && done >= 256 {
                let remaining = remaining(limits, done, elapsed);
                if decided(&tree, &self.config.time, remaining, elapsed, clock) {
                    break;
                }
            }
        }
        (tree, done)
    }
}

/// An estimate of the playouts still to come: from the playout budget, or from the rate so far
/// and the time left.
fn remaining(limits: Budget, done: u64, elapsed: Duration) -> u64 {
    let by_count = limits
        .playouts
        .map_or(u64::MAX, |max| max.saturating_sub(done));
    let by_time = limits.time.map_or(u64::MAX, |t| {
        let rate = done as f64 / elapsed.as_secs_f64().max(1e-9);
        (rate * t.saturating_sub(elapsed).as_secs_f64()) as u64
    });
    by_count.min(by_time)
}

/// Whether the search may stop ([`TimePolicy::can_stop`]): the most visited root move stays the
/// most visited even if every remaining playout went to the runner-up, or on the clock it
/// dominates.
fn decided(
    tree: &Tree,
    policy: &TimePolicy,
    remaining: u64,
    elapsed: Duration,
    clock: Option<Duration>,
) -> bool {
    let (mut first, mut second) = (0u64, 0u64);
    for c in tree.children(0) {
        let v = u64::from(tree.node(c).visits);
        if v > first {
            second = first;
            first = v;
        } else if v > second {
            second = v;
        }
    }
    policy.can_stop(first, second, remaining, elapsed, clock)
}

fn candidates(tree: &Tree) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = tree
        .children(0)
        .map(|c| tree.node(c))
        .filter(|n| n.visits > 0)
        .map(|n| Candidate {
            mv: n.mv,
            visits: n.visits,
            win_rate: n.win_rate(),
            amaf_visits: n.amaf_visits,
            amaf_win_rate: if n.amaf_visits == 0 {
                0.5
            } else {
                f64::from(n.amaf_wins) / f64::from(n.amaf_visits)
            },
        })
        .collect();
    out.sort_by_key(|c| std::cmp::Reverse(c.visits));
    out.truncate(10);
    out
}

/// The legal board plays of the player to move that neither fill its own eye nor are suicide,
/// counted up to two.
fn board_plays(game: &Game) -> usize {
    let color = game.to_move();
    game.board()
        .empty_points()
        .filter(|&p| playout::is_candidate(game, p, color) && game.is_legal(Move::Play(p)))
        .take(2)
        .count()
}

/// Whether the player to move has a legal board play that neither fills its own eye nor is
/// suicide.
fn has_play(game: &Game) -> bool {
    let color = game.to_move();
    game.board()
        .empty_points()
        .any(|p| playout::is_candidate(game, p, color) && game.is_legal(Move::Play(p)))
}

/// A player that plays uniformly at random among its legal board plays that neither fill its own
/// eye nor commit suicide, and passes when it has none (or a handicap pass is due): the playout
/// policy as a player, a baseline for tests and a weakest level for a GTP front.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    /// A random player seeded with `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Rng::new(seed),
        }
    }

    /// A move for the player to move in `game` (a pass once the game has ended).
    pub fn genmove(&mut self, game: &Game) -> Move {
        if game.phase() == Phase::Ended || game.handicap_pass_due() {
            return Move::Pass;
        }
        playout::choose_random(game, &mut self.rng).map_or(Move::Pass, Move::Play)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ingo_rules::{Rules, Setup};

    fn handicap_game(size: usize, passes: u8, moves: usize) -> Game {
        let setup = Setup {
            handicap_passes: passes,
            ..Setup::empty(size).expect("size")
        };
        let mut g = Game::new(setup, Rules::ing());
        let mut i = 0;
        while g.move_count() < moves {
            let p = g.board().empty_point(i % g.board().empty_count());
            i += 7;
            if g.handicap_pass_due() || g.play(Move::Play(p)).is_err() {
                g.play(Move::Pass).expect("a pass");
            }
        }
        g
    }

    /// 7 points a stone at the start, half of it by move 100 of 200, none after; none in an
    /// even game or when switched off; the end scales with the board.
    #[test]
    fn the_dynamic_komi_falls_linearly_to_none() {
        let c = Config::default();
        // Four passes: five stones, 35 points = 70 half points.
        assert_eq!(c.extra_komi_halves(&handicap_game(19, 4, 0)), 70);
        assert_eq!(c.extra_komi_halves(&handicap_game(19, 4, 100)), 35);
        assert_eq!(c.extra_komi_halves(&handicap_game(19, 4, 200)), 0);
        assert_eq!(c.extra_komi_halves(&handicap_game(19, 4, 260)), 0);
        assert_eq!(c.extra_komi_halves(&handicap_game(19, 0, 10)), 0);
        let off = Config {
            dynamic_komi: 0.0,
            ..Config::default()
        };
        assert_eq!(off.extra_komi_halves(&handicap_game(19, 4, 0)), 0);
        // 13×13: the end is move 200 · 169 / 361 ≈ 94; none under 13×13.
        assert_eq!(c.extra_komi_halves(&handicap_game(13, 1, 0)), 28);
        assert_eq!(c.extra_komi_halves(&handicap_game(13, 1, 94)), 0);
        assert!(c.extra_komi_halves(&handicap_game(13, 1, 47)) > 0);
        assert_eq!(c.extra_komi_halves(&handicap_game(9, 1, 0)), 0);
    }
}
