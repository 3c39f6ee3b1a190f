//! What a match is: the two engines, the games, the rules, the clock and the failure policies.

use std::{fmt, path::PathBuf, time::Duration};

use ingo_clock::TimeControl;
use ingo_competition::{handicap, HandicapScale, Rank};
use ingo_rules::{Color, Komi, Rules};
use serde_json::{json, Value};

use crate::engine_id::EngineId;
use crate::error::ConfigError;

/// How to start one engine, and what is known about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The command line, split like a shell would (`gnugo --mode gtp --level 1`); see
    /// [`ingo_gtp::engine::split_command_line`].
    pub command: String,
    /// The directory to run it in (engines often find their data files relative to it); the
    /// referee's own when `None`.
    pub current_dir: Option<PathBuf>,
    /// The name for tables and the SGF `PB`/`PW`. When `None`: the engine's GTP `name` and
    /// `version`, or else its program name.
    pub label: Option<String>,
    /// The engine's rank. When both engines have one, the handicap follows Ing's table
    /// ([`MatchConfig::assignment`]); it is also written as `BR`/`WR`.
    pub rank: Option<Rank>,
    /// This engine's time control, overriding [`MatchConfig::time`] (handicap events sometimes
    /// give the weaker player more time).
    pub time: Option<TimeControl>,
}

impl EngineSpec {
    /// An engine started by `command`, with nothing else set.
    pub fn new(command: impl Into<String>) -> EngineSpec {
        EngineSpec {
            command: command.into(),
            current_dir: None,
            label: None,
            rank: None,
            time: None,
        }
    }

    /// The program part of the command line (its file name), for a label of last resort.
    pub fn program_name(&self) -> String {
        let first = ingo_gtp::engine::split_command_line(&self.command)
            .ok()
            .and_then(|words| words.into_iter().next())
            .unwrap_or_else(|| self.command.clone());
        std::path::Path::new(&first)
            .file_name()
            .map_or(first.clone(), |n| n.to_string_lossy().into_owned())
    }
}

/// Who takes Black in each game, when the ranks do not decide it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ColorPolicy {
    /// Engine A takes Black in odd games (1, 3, …), engine B in even games.
    #[default]
    Alternate,
    /// Engine A always takes Black.
    Fixed,
    /// Game 1's colours are drawn by nigiri from this seed ([`ingo_competition::nigiri`], engine
    /// B guessing, as the second player named), then they alternate: Ing's way of deciding the
    /// colours of an even game ("猜先"), reproducible so that a resumed match agrees.
    Nigiri(u64),
}

/// What to do when an engine misbehaves in one way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FailureAction {
    /// The engine loses the game: `B+F`/`W+F` (`B+T`/`W+T` for a timeout, which is a loss on
    /// time), with the reason in `GC`.
    #[default]
    Forfeit,
    /// The game is void (`RE[Void]`) and played again from the start, at most `max_replays`
    /// times; after that [`FailurePolicy::when_exhausted`] decides.
    Void {
        /// How many times a game may be replayed for failures of any kind together.
        max_replays: u32,
    },
}

impl fmt::Display for FailureAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FailureAction::Forfeit => f.write_str("forfeit"),
            FailureAction::Void { max_replays } => write!(f, "void:{max_replays}"),
        }
    }
}

/// What becomes of a game voided more often than `max_replays` allows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VoidExhausted {
    /// The last failure is a forfeit after all, as with [`FailureAction::Forfeit`].
    #[default]
    Forfeit,
    /// The game stays void: it is recorded (`RE[Void]`) but counted for nobody, and excluded
    /// from the win rates.
    Exclude,
}

/// How each kind of engine misbehaviour ends a game.
///
/// | kind | what happened | `reason_code` |
/// |---|---|---|
/// | `on_illegal` | a move the referee's `Game` refuses; or an engine refusing a `play` the referee accepted | the rules' code (`occupied`, `suicide`, `hot-stone`, …); `refused-legal-move` |
/// | `on_crash` | the engine exited (or its pipe broke) | `crash` |
/// | `on_timeout` | no answer within the clock's deadline plus [`Timeouts::grace`] (or within [`Timeouts::setup`] / [`Timeouts::untimed_move`]); the engine is killed | `timeout` |
/// | `on_garbage` | an answer that is not GTP, a `genmove` answer that is not a vertex of the board, or `? failure` to `genmove` | `garbage`, `bad-vertex`, `genmove-failed` |
///
/// A move that arrives after the clock's deadline but within the grace is **not** a failure:
/// it is an ordinary loss on time (`B+T`/`W+T`) under every policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FailurePolicy {
    /// An illegal move.
    pub on_illegal: FailureAction,
    /// A crash.
    pub on_crash: FailureAction,
    /// A hang past the deadline.
    pub on_timeout: FailureAction,
    /// Garbage on the wire.
    pub on_garbage: FailureAction,
    /// What a void game becomes once it has been replayed `max_replays` times.
    pub when_exhausted: VoidExhausted,
}

impl FailurePolicy {
    /// The same action for every kind of failure.
    pub fn all(action: FailureAction) -> FailurePolicy {
        FailurePolicy {
            on_illegal: action,
            on_crash: action,
            on_timeout: action,
            on_garbage: action,
            when_exhausted: VoidExhausted::Forfeit,
        }
    }
}

/// Timeouts other than the clock's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Timeouts {
    /// For every command that is not a move: setup (`name`, `boardsize`, `komi`, …), `play`,
    /// `time_left`, `final_status_list`. Default 60 s (an engine loading a large network answers
    /// its first command late).
    pub setup: Duration,
    /// Added to the clock's deadline before a thinking engine is killed, for the pipes and the
    /// scheduler. Default 1 s. An answer within the grace but after the deadline loses on time.
    pub grace: Duration,
    /// The `genmove` timeout for a side with no time limit (`--time none`, the default of
    /// `ingo match --move-timeout`). Default 5 min ([`Timeouts::UNTIMED_MOVE`]): with no clock an
    /// engine that hangs in `genmove` must still end the game, by
    /// [`FailurePolicy::on_timeout`]. Must not be zero.
    pub untimed_move: Duration,
    /// How long an engine has to `quit` at the end before it is killed. Default 2 s.
    pub quit: Duration,
}

impl Timeouts {
    /// The default [`Timeouts::untimed_move`]: 5 minutes, far more than any engine set up for a
    /// match thinks on a move, and short enough that a hung engine is noticed.
    pub const UNTIMED_MOVE: Duration = Duration::from_secs(300);
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            setup: Duration::from_secs(60),
            grace: Duration::from_secs(1),
            untimed_move: Timeouts::UNTIMED_MOVE,
            quit: Duration::from_secs(2),
        }
    }
}

/// A match between two engines: everything [`run_match`](crate::run_match) needs.
///
/// Build one with [`MatchConfig::new`] and change the fields:
///
/// ```
/// use ingo_referee::{FailureAction, FailurePolicy, MatchConfig};
/// let mut config = MatchConfig::new("gnugo --mode gtp --level 1", "gnugo --mode gtp --level 5", "out");
/// config.games = 20;
/// config.size = 9;
/// config.time = "ing-pp:5m".parse().unwrap();
/// config.failure.on_crash = FailureAction::Void { max_replays: 2 };
/// config.parallel = 4;
/// assert_eq!(config.assignment(2).black, ingo_referee::EngineId::B);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    /// Engine A (`--black`: Black in game 1).
    pub a: EngineSpec,
    /// Engine B (`--white`).
    pub b: EngineSpec,
    /// Number of games (`--games`). Default 1.
    pub games: u32,
    /// Board size, 2..=25 (`--size`). Default 19.
    pub size: usize,
    /// The rules (`--rules`, a [`Preset`](ingo_rules::Preset)'s rules). Default Ing's.
    pub rules: Rules,
    /// Komi for even games, replacing the rules' (`--komi`). A handicap from ranks sets its own.
    pub komi: Option<Komi>,
    /// Who takes Black when the ranks do not decide it.
    pub colors: ColorPolicy,
    /// The time control of both engines unless an [`EngineSpec::time`] overrides it
    /// (`--time`, e.g. `ing-pp:30m`). Default [`TimeControl::None`].
    pub time: TimeControl,
    /// Whether engines are told the time (`time_settings`, `kgs-time_settings`, `time_left`).
    /// Default `true`. With `false` the clock is still enforced, but engines think as they are
    /// configured (a fixed number of visits, say), which makes games reproducible; GNU Go,
    /// for one, raises its level to use the time it is told it has.
    pub tell_time: bool,
    /// How engine failures end a game.
    pub failure: FailurePolicy,
    /// Games played at once, each with its own engine processes (`--parallel`). Default 1.
    pub parallel: usize,
    /// Where the SGF files, `match.json` and the results go (`--out`).
    pub out_dir: PathBuf,
    /// The event name for the SGF `EV`. Default `ingo match`.
    pub event: Option<String>,
    /// Timeouts other than the clock's.
    pub timeouts: Timeouts,
    /// A game still going after this many moves (passes included) is void and excluded (a
    /// safety net for engines that never pass). `None` (the default): 10 moves per point of
    /// the board.
    pub max_moves: Option<usize>,
}

/// Who plays Black in a game, with the handicap that goes with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Assignment {
    /// The engine with Black.
    pub black: EngineId,
    /// White's handicap passes (讓手): 0 in an even game.
    pub handicap_passes: u8,
    /// The komi of the game.
    pub komi: Komi,
    /// Whether this is a handicap game (有差賽) by the engines' ranks, even one with no White
    /// pass (compensation points only): a tie then goes to White, not to Black.
    pub handicap_game: bool,
}

impl Assignment {
    /// The engine with `color`.
    pub fn engine(&self, color: Color) -> EngineId {
        match color {
            Color::Black => self.black,
            Color::White => self.black.other(),
        }
    }

    /// The colour `engine` plays.
    pub fn color_of(&self, engine: EngineId) -> Color {
        if engine == self.black {
            Color::Black
        } else {
            Color::White
        }
    }
}

impl MatchConfig {
    /// A one-game match on 19×19 under Ing's rules, untimed, engine A (`a`) with Black,
    /// writing to `out_dir`.
    pub fn new(a: impl Into<String>, b: impl Into<String>, out_dir: impl Into<PathBuf>) -> Self {
        MatchConfig {
            a: EngineSpec::new(a),
            b: EngineSpec::new(b),
            games: 1,
            size: 19,
            rules: Rules::ing(),
            komi: None,
            colors: ColorPolicy::Alternate,
            time: TimeControl::None,
            tell_time: true,
            failure: FailurePolicy::default(),
            parallel: 1,
            out_dir: out_dir.into(),
            event: None,
            timeouts: Timeouts::default(),
            max_moves: None,
        }
    }

    /// The spec of `engine`.
    pub fn engine(&self, engine: EngineId) -> &EngineSpec {
        match engine {
            EngineId::A => &self.a,
            EngineId::B => &self.b,
        }
    }

    /// The time control of `engine`.
    pub fn time_of(&self, engine: EngineId) -> TimeControl {
        self.engine(engine).time.unwrap_or(self.time)
    }

    /// The move limit in effect: [`max_moves`](Self::max_moves), or 10 moves per point.
    pub fn move_limit(&self) -> usize {
        self.max_moves.unwrap_or(10 * self.size * self.size)
    }

    /// Checks what can be checked before starting: the board size, `parallel`, the command
    /// lines, the time controls, the ranks (both or neither) and the per-move timeout.
    ///
    /// # Errors
    /// The first problem found.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(2..=25).contains(&self.size) {
            return Err(ConfigError::BoardSize(self.size));
        }
        if self.parallel == 0 {
            return Err(ConfigError::Parallel);
        }
        for id in [EngineId::A, EngineId::B] {
            if self.engine(id).command.trim().is_empty() {
                return Err(ConfigError::EmptyCommand(id));
            }
            let tc = self.time_of(id);
            tc.validate().map_err(|reason| ConfigError::TimeControl {
                control: tc.to_string(),
                reason,
            })?;
        }
        // One rank alone decides nothing (the handicap needs both), and ignoring it silently
        // would play an even game the user did not ask for.
        match (self.a.rank, self.b.rank) {
            (Some(_), None) => return Err(ConfigError::OneRank(EngineId::A)),
            (None, Some(_)) => return Err(ConfigError::OneRank(EngineId::B)),
            _ => {}
        }
        if self.timeouts.untimed_move.is_zero() {
            return Err(ConfigError::MoveTimeout);
        }
        if let Some(h) = self.rank_handicap() {
            if u8::try_from(h.handicap_passes).is_err() {
                return Err(ConfigError::Handicap(h.handicap_passes));
            }
        }
        Ok(())
    }

    fn rank_handicap(&self) -> Option<ingo_competition::Handicap> {
        let (a, b) = (self.a.rank?, self.b.rank?);
        Some(handicap(a, b, &HandicapScale::ing()))
    }

    /// Whether [`colors`](Self::colors) decides who takes Black (an even game), rather than the
    /// engines' ranks.
    pub fn colours_by_policy(&self) -> bool {
        self.rank_handicap().is_none_or(|h| h.nigiri)
    }

    /// Who plays Black in game `index` (counted from 1), with the handicap.
    ///
    /// * When both engines have a [rank](EngineSpec::rank) and the ranks differ, Ing's table
    ///   decides (docs/rules.md §6, [`ingo_competition::handicap`]): the weaker engine takes Black in
    ///   every game, White passes `N先 − 1` times, and the komi is the compensation points.
    /// * Otherwise (no ranks, or equal ranks: an even game) [`colors`](Self::colors) decides,
    ///   with the komi [`komi`](Self::komi) or else the rules' komi.
    ///
    /// The assignment depends only on the configuration and the index, so a resumed match
    /// plays every game with the colours it would have had.
    pub fn assignment(&self, index: u32) -> Assignment {
        if let Some(h) = self.rank_handicap().filter(|h| !h.nigiri) {
            let black = if Some(h.black) == self.a.rank {
                EngineId::A
            } else {
                EngineId::B
            };
            return Assignment {
                black,
                handicap_passes: u8::try_from(h.handicap_passes).unwrap_or(u8::MAX),
                komi: h.komi,
                handicap_game: h.is_handicap_game(),
            };
        }
        let first_black = match self.colors {
            ColorPolicy::Fixed => {
                return Assignment {
                    black: EngineId::A,
                    handicap_passes: 0,
                    komi: self.komi.unwrap_or(self.rules.komi),
                    handicap_game: false,
                }
            }
            ColorPolicy::Alternate => EngineId::A,
            ColorPolicy::Nigiri(seed) if ingo_competition::nigiri(seed).guesser_takes_black => {
                EngineId::B
            }
            ColorPolicy::Nigiri(_) => EngineId::A,
        };
        let black = match (first_black, index % 2 == 1) {
            (first, true) => first,
            (EngineId::A, false) => EngineId::B,
            (EngineId::B, false) => EngineId::A,
        };
        Assignment {
            black,
            handicap_passes: 0,
            komi: self.komi.unwrap_or(self.rules.komi),
            handicap_game: false,
        }
    }

    /// The settings that decide how games are played, as JSON: what `match.json` keeps so that
    /// a match is only resumed with the same settings. `games`, `parallel`, `out_dir`, the
    /// labels and the timeouts other than the grace are not part of it: they may change between
    /// runs (a match can be extended by asking for more games).
    pub fn fingerprint(&self) -> Value {
        let engine = |e: &EngineSpec, id: EngineId| {
            json!({
                "command": e.command,
                "current_dir": e.current_dir.as_ref().map(|d| d.display().to_string()),
                "rank": e.rank.map(|r| r.to_string()),
                "time": self.time_of(id).to_string(),
            })
        };
        let r = &self.rules;
        json!({
            "engine_a": engine(&self.a, EngineId::A),
            "engine_b": engine(&self.b, EngineId::B),
            "size": self.size,
            "rules": {
                "ko": r.ko.to_string(),
                "suicide": r.suicide.to_string(),
                "komi": r.komi.to_string(),
                "tie_even": r.tie_even.letter().to_string(),
                "tie_handicap": r.tie_handicap.letter().to_string(),
            },
            "komi": self.komi.map(|k| k.to_string()),
            "colors": match self.colors {
                ColorPolicy::Alternate => "alternate".to_string(),
                ColorPolicy::Fixed => "fixed".to_string(),
                ColorPolicy::Nigiri(seed) => format!("nigiri:{seed}"),
            },
            "tell_time": self.tell_time,
            "failure": {
                "on_illegal": self.failure.on_illegal.to_string(),
                "on_crash": self.failure.on_crash.to_string(),
                "on_timeout": self.failure.on_timeout.to_string(),
                "on_garbage": self.failure.on_garbage.to_string(),
                "when_exhausted": match self.failure.when_exhausted {
                    VoidExhausted::Forfeit => "forfeit",
                    VoidExhausted::Exclude => "exclude",
                },
            },
            "grace_ms": u64::try_from(self.timeouts.grace.as_millis()).unwrap_or(u64::MAX),
            "max_moves": self.move_limit(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> MatchConfig {
        MatchConfig::new("a", "b", "out")
    }

    #[test]
    fn colours_alternate_or_stay() {
        let mut c = config();
        let blacks: Vec<EngineId> = (1..=4).map(|i| c.assignment(i).black).collect();
        assert_eq!(blacks, [EngineId::A, EngineId::B, EngineId::A, EngineId::B]);
        c.colors = ColorPolicy::Fixed;
        assert!((1..=4).all(|i| c.assignment(i).black == EngineId::A));
        // Nigiri: game 1 as the draw says (engine B guesses), then alternating; over seeds,
        // each engine starts as Black about half the time.
        let mut b_first = 0;
        for seed in 0..200 {
            c.colors = ColorPolicy::Nigiri(seed);
            let first = if ingo_competition::nigiri(seed).guesser_takes_black {
                EngineId::B
            } else {
                EngineId::A
            };
            let other = if first == EngineId::A {
                EngineId::B
            } else {
                EngineId::A
            };
            let blacks: Vec<EngineId> = (1..=4).map(|i| c.assignment(i).black).collect();
            assert_eq!(blacks, [first, other, first, other], "seed {seed}");
            b_first += usize::from(first == EngineId::B);
        }
        assert!((70..130).contains(&b_first), "{b_first} of 200");
        c.komi = Some(Komi(15));
        assert_eq!(c.assignment(1).komi, Komi(15));
    }

    #[test]
    fn ranks_decide_colours_passes_and_komi() {
        let mut c = config();
        // 6段 against 3段: one and a half 先, so one White pass and 4 points back (docs/rules.md §6).
        c.a.rank = Some("6d".parse().expect("rank"));
        c.b.rank = Some("3d".parse().expect("rank"));
        for i in 1..=3 {
            let a = c.assignment(i);
            assert_eq!(
                (a.black, a.handicap_passes, a.komi),
                (EngineId::B, 1, Komi::points(4))
            );
            assert_eq!(a.color_of(EngineId::A), Color::White);
        }
        // Equal ranks: an even game, colours as configured, the rules' komi.
        c.b.rank = c.a.rank;
        let a = c.assignment(2);
        assert_eq!(
            (a.black, a.handicap_passes, a.komi),
            (EngineId::B, 0, Komi::points(8))
        );
    }

    // 5段 against 4段 is komi 4 with no White pass: still a handicap
    // game (有差賽), so the game the referee plays gives a tie to White.
    #[test]
    fn rank_handicap_without_passes_is_a_handicap_game() {
        let mut c = config();
        c.a.rank = Some("5d".parse().expect("rank"));
        c.b.rank = Some("4d".parse().expect("rank"));
        let a = c.assignment(1);
        assert_eq!(a.handicap_passes, 0);
        assert!(a.handicap_game);
        let spec = c.game_spec(1, 0);
        assert!(spec.handicap_game);
        c.b.rank = c.a.rank;
        assert!(!c.assignment(1).handicap_game);
        assert!(!config().assignment(1).handicap_game);
    }

    #[test]
    fn the_fingerprint_ignores_what_may_change_between_runs() {
        let c = config();
        let mut d = config();
        d.games = 100;
        d.parallel = 8;
        d.out_dir = "elsewhere".into();
        d.a.label = Some("renamed".into());
        d.timeouts.setup = Duration::from_secs(1);
        assert_eq!(c.fingerprint(), d.fingerprint());
        d.time = "ing-pp:30m".parse().expect("time control");
        assert_ne!(c.fingerprint(), d.fingerprint());
    }

    #[test]
    fn validation() {
        let mut c = config();
        assert_eq!(c.validate(), Ok(()));
        c.size = 1;
        assert_eq!(c.validate(), Err(ConfigError::BoardSize(1)));
        c.size = 26;
        assert_eq!(c.validate(), Err(ConfigError::BoardSize(26)));
        c.size = 2;
        c.parallel = 0;
        assert_eq!(c.validate(), Err(ConfigError::Parallel));
        c.parallel = 1;
        c.b.command = " ".into();
        assert_eq!(c.validate(), Err(ConfigError::EmptyCommand(EngineId::B)));
    }

    #[test]
    fn one_rank_without_the_other_is_refused() {
        let mut c = config();
        c.a.rank = Some("5d".parse().expect("rank"));
        assert_eq!(c.validate(), Err(ConfigError::OneRank(EngineId::A)));
        c.a.rank = None;
        c.b.rank = Some("2k".parse().expect("rank"));
        assert_eq!(c.validate(), Err(ConfigError::OneRank(EngineId::B)));
        c.a.rank = Some("5d".parse().expect("rank"));
        assert_eq!(c.validate(), Ok(()));
    }

    #[test]
    fn an_untimed_move_has_a_limit_of_a_few_minutes() {
        let mut c = config();
        assert_eq!(c.timeouts.untimed_move, Duration::from_secs(300));
        c.timeouts.untimed_move = Duration::ZERO;
        assert_eq!(c.validate(), Err(ConfigError::MoveTimeout));
    }
}
