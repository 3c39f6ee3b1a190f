//! One game between two GTP engines, refereed: the referee's own [`Game`] judges every move,
//! its own [`Clock`] runs on the time it reads from a [`TimeSource`] (the machine's clock,
//! [`WallClock`], unless a test gives another), and it counts the result itself.

use std::{collections::BTreeSet, fmt, time::Duration};

use ingo_clock::{gtp_time_settings, Clock, ClockEvent, TimeControl, TimeSource, WallClock};
use ingo_competition::Rank;
use ingo_gtp::{engine::EngineBuilder, protocol::GenmoveReply, EngineError};
use ingo_player::endgame::{judge_end, EndgameConfig};
use ingo_rules::{Board, ByColor, Color, Game, GameEnd, Move, Phase, Point, Rules, Setup};
use ingo_sgf::{GameInfo, MoveInfo, WriteInfo};

use crate::{
    config::{EngineSpec, FailureAction, FailurePolicy, MatchConfig, Timeouts, VoidExhausted},
    engine_id::EngineId,
    error::{ConfigError, RefereeError},
    fault::{FailureKind, Fault},
    session::{GtpSession, KomiTold, SessionError, SessionSetup},
};

/// One side of a game: which engine plays it, how to start it, and its clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSpec {
    /// Which engine of the match this is.
    pub engine: EngineId,
    /// How to start it.
    pub spec: EngineSpec,
    /// Its time control.
    pub time: TimeControl,
}

/// Everything [`play_game`] needs for one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSpec {
    /// The game's number in the match, from 1.
    pub index: u32,
    /// Black.
    pub black: PlayerSpec,
    /// White.
    pub white: PlayerSpec,
    /// Board size, 2..=25.
    pub size: usize,
    /// The rules, with the game's komi.
    pub rules: Rules,
    /// White's handicap passes, which the referee plays for White.
    pub handicap_passes: u8,
    /// Whether this is a handicap game (有差賽), even with no pass: a tie goes to White.
    pub handicap_game: bool,
    /// Whether the engines are told the time ([`MatchConfig::tell_time`]).
    pub tell_time: bool,
    /// How failures end the game.
    pub failure: FailurePolicy,
    /// How many times this game has already been voided and replayed (decides when a
    /// [`FailureAction::Void`] is exhausted).
    pub voids_so_far: u32,
    /// Timeouts other than the clock's.
    pub timeouts: Timeouts,
    /// Moves after which the game is void and excluded.
    pub max_moves: usize,
    /// `EV` of the SGF.
    pub event: Option<String>,
    /// `RO` of the SGF.
    pub round: Option<String>,
}

impl GameSpec {
    /// The side with `color`.
    pub fn player(&self, color: Color) -> &PlayerSpec {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }
}

impl MatchConfig {
    /// The spec of game `index` (from 1) of this match, voided `voids_so_far` times before.
    pub fn game_spec(&self, index: u32, voids_so_far: u32) -> GameSpec {
        let a = self.assignment(index);
        let player = |color: Color| {
            let id = a.engine(color);
            PlayerSpec {
                engine: id,
                spec: self.engine(id).clone(),
                time: self.time_of(id),
            }
        };
        GameSpec {
            index,
            black: player(Color::Black),
            white: player(Color::White),
            size: self.size,
            rules: Rules {
                komi: a.komi,
                ..self.rules
            },
            handicap_passes: a.handicap_passes,
            handicap_game: a.handicap_game,
            tell_time: self.tell_time,
            failure: self.failure,
            voids_so_far,
            timeouts: self.timeouts,
            max_moves: self.move_limit(),
            event: Some(
                self.event
                    .clone()
                    .unwrap_or_else(|| "ingo match".to_string()),
            ),
            round: Some(format!("game {index} of {}", self.games)),
        }
    }
}

/// An engine's misbehaviour that ended (or voided) a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The colour of the engine that failed.
    pub color: Color,
    /// Which engine.
    pub engine: EngineId,
    /// The kind, which chooses the policy.
    pub kind: FailureKind,
    /// A short code: the rules' reason code for an illegal move (`occupied`, `suicide`,
    /// `hot-stone`, …), `refused-legal-move`, `crash`, `timeout`, `garbage`, `bad-vertex` or
    /// `genmove-failed`.
    pub code: &'static str,
    /// What happened, in a sentence.
    pub detail: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (engine {}): {} [{}]",
            color_name(self.color),
            self.engine,
            self.detail,
            self.code
        )
    }
}

/// How a game came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The game has a result: [`Game::end`] says how it ended, [`Game::winner`] who won.
    Decided,
    /// The game is void (`RE[Void]`).
    Void {
        /// Whether it is to be played again ([`FailureAction::Void`] not yet exhausted). When
        /// `false` the void is final and the game is excluded from the results.
        replay: bool,
    },
}

/// What [`play_game`] returns: the game as the referee saw it, and everything for its record.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The game's number in the match.
    pub index: u32,
    /// The engine with each colour.
    pub engines: ByColor<EngineId>,
    /// The game, as the referee's rules played it. When the outcome is
    /// [`Outcome::Decided`] it has ended.
    pub game: Game,
    /// How it came out.
    pub outcome: Outcome,
    /// The failure that ended or voided it, if any.
    pub failure: Option<Failure>,
    /// The players' names as written to the SGF (label, or GTP `name version`, or program).
    pub names: ByColor<String>,
    /// The ranks, if known.
    pub ranks: ByColor<Option<Rank>>,
    /// Each side's time control.
    pub time: ByColor<TimeControl>,
    /// Thinking time each side used, as the clock measured it (on the referee's
    /// [`TimeSource`]).
    pub time_used: ByColor<Duration>,
    /// Time of the whole game on the referee's [`TimeSource`] (the wall time in a real match),
    /// engine start-up included.
    pub duration: Duration,
    /// Per-move SGF properties (`BL`/`WL`, `OB`/`OW`, comments), by history index.
    pub moves: Vec<MoveInfo>,
    /// What happened besides the moves (komi fallbacks, disputes, the end), for `GC`.
    pub notes: Vec<String>,
    /// How many times the game had been voided before this attempt.
    pub voids_so_far: u32,
    /// `EV`.
    pub event: Option<String>,
    /// `RO`.
    pub round: Option<String>,
}

impl GameReport {
    /// `RE`: `B+7`, `W+R`, `B+T`, `W+F`, or `Void`.
    pub fn result_string(&self) -> String {
        if let Outcome::Void { .. } = self.outcome {
            return "Void".to_string();
        }
        match self.game.end() {
            Some(GameEnd::Passes | GameEnd::Agreement(_)) => self
                .game
                .score()
                .map_or_else(|| "?".to_string(), |s| s.result_string()),
            Some(GameEnd::Resignation(c)) => format!("{}+R", c.opponent().letter()),
            Some(GameEnd::Time(c)) => format!("{}+T", c.opponent().letter()),
            Some(GameEnd::Forfeit(c, _)) => format!("{}+F", c.opponent().letter()),
            None => "Void".to_string(),
        }
    }

    /// The winner's colour, for a decided game.
    pub fn winner(&self) -> Option<Color> {
        match self.outcome {
            Outcome::Decided => self.game.winner(),
            Outcome::Void { .. } => None,
        }
    }

    /// How the game ended, in a sentence: `Black resigned`, `White lost on time`, `counted:
    /// B+3`, `Black forfeits: illegal move C3 (occupied)`, `void: …`.
    pub fn reason(&self) -> String {
        if let Outcome::Void { replay } = self.outcome {
            let why = match &self.failure {
                Some(f) => f.to_string(),
                None => self
                    .notes
                    .last()
                    .cloned()
                    .unwrap_or_else(|| "no result".to_string()),
            };
            let then = if replay { "to be replayed" } else { "excluded" };
            return format!("void ({then}): {why}");
        }
        let failure = self.failure.as_ref().map(|f| format!(": {}", f.detail));
        match self.game.end() {
            Some(GameEnd::Passes) => format!("counted after four passes: {}", self.result_string()),
            Some(GameEnd::Agreement(dead)) => format!(
                "counted with {} agreed dead stone{}: {}",
                dead.len(),
                if dead.len() == 1 { "" } else { "s" },
                self.result_string()
            ),
            Some(GameEnd::Resignation(c)) => format!("{} resigned", color_name(*c)),
            Some(GameEnd::Time(c)) => format!(
                "{} lost on time{}",
                color_name(*c),
                failure.unwrap_or_default()
            ),
            Some(GameEnd::Forfeit(c, _)) => {
                format!("{} forfeits{}", color_name(*c), failure.unwrap_or_default())
            }
            None => "no result".to_string(),
        }
    }

    /// What [`ingo_sgf::write_game`] needs besides the game.
    pub fn write_info(&self) -> WriteInfo {
        let mut info = GameInfo::default();
        for color in Color::ALL {
            *info.players.get_mut(color) = Some(self.names.get(color).clone());
            *info.ranks.get_mut(color) = self.ranks.get(color).map(|r| r.to_string());
        }
        info.event.clone_from(&self.event);
        info.round.clone_from(&self.round);
        info.name = Some(format!("game-{:04}", self.index));
        info.date = Some(ingo_sgf::today());
        let tc = self.time.black;
        info.time = ingo_clock::sgf_tm(&tc);
        info.overtime = ingo_clock::sgf_ot(&tc);
        if let Outcome::Void { .. } = self.outcome {
            info.result = Some("Void".to_string());
        }
        let mut gc = vec![format!(
            "ingo referee, game {}: engine {} ({}) Black, engine {} ({}) White.",
            self.index, self.engines.black, self.names.black, self.engines.white, self.names.white
        )];
        if self.time.black != self.time.white {
            gc.push(format!(
                "Time: Black {}, White {}.",
                self.time.black, self.time.white
            ));
        } else {
            gc.push(format!("Time: {}.", self.time.black));
        }
        gc.push(format!("Result: {}.", self.reason()));
        if let Some(f) = &self.failure {
            gc.push(format!("reason: {}", f.code));
        }
        if self.voids_so_far > 0 {
            gc.push(format!(
                "Played {} time{} before and voided.",
                self.voids_so_far,
                if self.voids_so_far == 1 { "" } else { "s" }
            ));
        }
        gc.extend(self.notes.iter().cloned());
        info.comment = Some(gc.join("\n"));
        WriteInfo {
            info,
            comment: None,
            moves: self.moves.clone(),
        }
    }

    /// The SGF record of the game ([`ingo_sgf::write_game`]): player names, ranks, event,
    /// date, `TM`/`OT`, `BL`/`WL`/`OB`/`OW` after each move, penalty points (`BP`/`WP`), `RE`
    /// and the reason in `GC`.
    pub fn sgf(&self) -> String {
        ingo_sgf::write_game(&self.game, &self.write_info())
    }
}

/// The failure of the engine a session error names (its kind, code and detail), or the error
/// back when it is not the engine's doing: a refused `boardsize`, a command the referee could
/// not write (nothing was sent) or an engine never started, which stop the referee instead.
fn failure_of(error: SessionError) -> Result<(FailureKind, &'static str, String), SessionError> {
    match error {
        SessionError::Fault {
            fault: Fault::Engine(kind),
            code,
            detail,
        } => Ok((kind, code, detail)),
        e => Err(e),
    }
}

/// "Black" or "White".
pub(crate) fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// A started engine process and what the referee learnt about it (not to be confused with
/// `ingo_player::Player`, the search player, nor [`PlayerSpec`], how to start an engine).
struct RunningEngine {
    id: EngineId,
    session: GtpSession,
    /// Resumed play after a dispute: `kgs-genmove_cleanup` instead of `genmove`.
    cleanup: bool,
    name: String,
}

/// Why the game loop stopped early.
enum Stop {
    /// An engine misbehaved.
    Fail(Failure),
    /// The referee cannot go on.
    Fatal(RefereeError),
}

impl From<RefereeError> for Stop {
    fn from(e: RefereeError) -> Self {
        Stop::Fatal(e)
    }
}

fn internal(e: impl fmt::Display) -> Stop {
    Stop::Fatal(RefereeError::Internal(e.to_string()))
}

struct Referee<'a> {
    spec: &'a GameSpec,
    game: Game,
    clock: Clock,
    players: ByColor<RunningEngine>,
    time: &'a dyn TimeSource,
    /// The reading of `time` when the game started: [`Referee::now`] counts from it.
    start: Duration,
    moves: Vec<MoveInfo>,
    notes: Vec<String>,
    /// The move count at which the last suspension was settled, so each is settled once.
    settled_at: Option<usize>,
}

/// Plays one game between two engines and referees it; `on_move` is called after each move
/// (handicap passes included) with the game so far.
///
/// The referee's [`Game`] is the only legality authority and the referee counts the result
/// itself (an engine's `final_score` is never asked). In order:
///
/// 1. Both engines are started and told `boardsize`, `clear_board`, `komi` (if refused, the
///    nearest half-point komi is tried, then the engine keeps its own: the referee counts with
///    the game's komi anyway), `time_settings` and, when `known_command` says so,
///    `kgs-time_settings` (then `time_left` follows the KGS convention), unless
///    [`GameSpec::tell_time`] is off. `name` and `version` name the players.
/// 2. Moves alternate: `time_left COLOR SECS STONES` (for a timed side told the time), then `genmove COLOR`
///    with a timeout of the clock's deadline plus [`Timeouts::grace`]; the clock runs from
///    just before the command is written to the arrival of the answer, on the machine's clock
///    ([`WallClock`]; [`play_game_timed`] takes another [`TimeSource`]). The move is played on
///    the referee's game and sent to the other engine with `play COLOR VERTEX`. Ing's
///    penalty points go into the count ([`Game::set_penalty`]); a flag fall is a loss on time.
///    When [`Game::handicap_pass_due`], the referee passes for White without asking it and
///    tells both engines `play w pass`.
/// 3. At two consecutive passes (play suspended) both engines are asked
///    `final_status_list dead`. If both answer with the same set of points, those stones are
///    agreed dead and the game ends. Otherwise the referee's own judgement
///    ([`ingo_player::endgame::judge_end`], the same judge as `ingo gtp`'s
///    `final_status_list`) decides where it can: it stands in for an engine that says nothing
///    useful (no answer, or not a list of vertices), and when the two lists differ and it
///    matches one of them, that list is agreed. Otherwise play resumes with the side to move; engines that
///    know `kgs-genmove_cleanup` are asked with it from then on, so that they capture disputed
///    stones. Four consecutive passes end the game with every stone alive. Each new
///    suspension (after a board play) is settled the same way.
/// 4. `genmove` answering `resign` ends the game by resignation. Failures end it by
///    `spec.failure` ([`FailurePolicy`]).
///
/// # Errors
/// [`RefereeError::Config`] for a bad size or time control, [`RefereeError::Spawn`] when an
/// engine cannot be started, [`RefereeError::Unsupported`] when an engine refuses
/// `boardsize` or `clear_board`, [`RefereeError::Internal`] for a bug. An engine's
/// misbehaviour is never an error: it is in the report.
pub fn play_game(
    spec: &GameSpec,
    on_move: &mut dyn FnMut(&Game),
) -> Result<GameReport, RefereeError> {
    play_game_timed(spec, &WallClock::new(), on_move)
}

/// [`play_game`] with the time read from `time` instead of the machine's clock: the clocks of
/// both sides, the time told to the engines, [`GameReport::time_used`] and
/// [`GameReport::duration`] all come from its readings, so that a test can script the time
/// each move takes and know exactly what is charged, whatever the machine's speed.
///
/// The time charged for a move is the reading after the engine's answer arrived minus the
/// reading just before `genmove` was written. The waits for an engine (the `genmove` timeout,
/// the clock's deadline plus [`Timeouts::grace`]) are computed from these readings but spent on
/// the machine's clock, since that is what an engine that hangs takes.
///
/// # Errors
/// As [`play_game`].
pub fn play_game_timed(
    spec: &GameSpec,
    time: &dyn TimeSource,
    on_move: &mut dyn FnMut(&Game),
) -> Result<GameReport, RefereeError> {
    let board = Board::new(spec.size)
        .ok()
        .filter(|_| spec.size >= 2)
        .ok_or(ConfigError::BoardSize(spec.size))?;
    let setup = Setup {
        board,
        to_move: Color::Black,
        handicap_passes: spec.handicap_passes,
    };
    let mut game = Game::new(setup, spec.rules);
    game.set_handicap_game(spec.handicap_game);
    let clock = Clock::with_controls(spec.black.time, spec.white.time).map_err(|reason| {
        ConfigError::TimeControl {
            control: format!("{} / {}", spec.black.time, spec.white.time),
            reason,
        }
    })?;
    let start = time.now();
    let players = ByColor {
        black: spawn(&spec.black)?,
        white: spawn(&spec.white)?,
    };
    let mut r = Referee {
        spec,
        game,
        clock,
        players,
        time,
        start,
        moves: Vec::new(),
        notes: Vec::new(),
        settled_at: None,
    };
    let stopped = match r.setup() {
        Ok(()) => r.run(on_move),
        Err(stop) => Err(stop),
    };
    let (outcome, failure) = match stopped {
        Ok(outcome) => (outcome, None),
        Err(Stop::Fatal(e)) => return Err(e),
        Err(Stop::Fail(f)) => (r.apply_policy(&f)?, Some(f)),
    };
    let now = r.now();
    if let Some(side) = r.clock.running() {
        // A failure while thinking: stop the clock so that the time used is counted.
        let _ = r.clock.stop(side, now);
    }
    let Referee {
        game,
        clock,
        players,
        moves,
        notes,
        ..
    } = r;
    let time_used = ByColor::new_with(|c| clock.time_used(c));
    let names = ByColor::new_with(|c| players.get(c).name.clone());
    let engines = ByColor::new_with(|c| players.get(c).id);
    for player in [players.black, players.white] {
        if player.session.engine().closed().is_none() {
            // A polite goodbye; dropping the engine kills it anyway.
            let _ = player.session.into_engine().quit(spec.timeouts.quit);
        }
    }
    Ok(GameReport {
        index: spec.index,
        engines,
        game,
        outcome,
        failure,
        names,
        ranks: ByColor::new_with(|c| spec.player(c).spec.rank),
        time: ByColor::new_with(|c| spec.player(c).time),
        time_used,
        duration: time.now().saturating_sub(start),
        moves,
        notes,
        voids_so_far: spec.voids_so_far,
        event: spec.event.clone(),
        round: spec.round.clone(),
    })
}

fn spawn(p: &PlayerSpec) -> Result<RunningEngine, RefereeError> {
    let spawn_error = |source| RefereeError::Spawn {
        engine: p.engine,
        command: p.spec.command.clone(),
        source: Box::new(source),
    };
    let mut builder = EngineBuilder::from_command_line(&p.spec.command)
        .map_err(|e| spawn_error(EngineError::CommandLine(e)))?;
    if let Some(dir) = &p.spec.current_dir {
        builder = builder.current_dir(dir.clone());
    }
    let engine = builder.spawn().map_err(spawn_error)?;
    Ok(RunningEngine {
        id: p.engine,
        session: GtpSession::new(engine),
        cleanup: false,
        name: p
            .spec
            .label
            .clone()
            .unwrap_or_else(|| p.spec.program_name()),
    })
}

impl Referee<'_> {
    /// The time since the game started, on the referee's [`TimeSource`].
    fn now(&self) -> Duration {
        self.time.now().saturating_sub(self.start)
    }

    fn failure(&self, color: Color, kind: FailureKind, code: &'static str, detail: String) -> Stop {
        Stop::Fail(Failure {
            color,
            engine: self.players.get(color).id,
            kind,
            code,
            detail,
        })
    }

    /// Turns a session error of `color`'s engine into a failure, or into the referee's own
    /// stop when it is not the engine's doing.
    fn stop(&self, color: Color, error: SessionError) -> Stop {
        match failure_of(error) {
            Ok((kind, code, detail)) => self.failure(color, kind, code, detail),
            Err(SessionError::Unsupported { command, message }) => {
                Stop::Fatal(RefereeError::Unsupported {
                    engine: self.players.get(color).id,
                    command,
                    message,
                })
            }
            Err(e) => internal(e),
        }
    }

    /// Sends a command whose `? failure` answer is acceptable: `Ok(None)` then.
    fn send_optional(
        &mut self,
        color: Color,
        name: &str,
        args: &[&str],
    ) -> Result<Option<String>, Stop> {
        let timeout = self.spec.timeouts.setup;
        let sent = self
            .players
            .get_mut(color)
            .session
            .send_optional(name, args, timeout);
        sent.map_err(|e| self.stop(color, e))
    }

    fn setup(&mut self) -> Result<(), Stop> {
        for color in Color::ALL {
            let name = self.send_optional(color, "name", &[])?;
            let version = self.send_optional(color, "version", &[])?;
            if self.spec.player(color).spec.label.is_none() {
                if let Some(name) = name.map(|n| n.trim().to_string()).filter(|n| !n.is_empty()) {
                    let full = match version.map(|v| v.trim().to_string()) {
                        Some(v) if !v.is_empty() => format!("{name} {v}"),
                        _ => name,
                    };
                    self.players.get_mut(color).name = full;
                }
            }
            let tc = self.spec.player(color).time;
            let setup = SessionSetup {
                size: self.spec.size,
                komi: self.spec.rules.komi,
                preset: None,
                time: self.spec.tell_time.then_some(tc),
                handicap_passes: self.spec.handicap_passes,
                timeout: self.spec.timeouts.setup,
            };
            let started = self.players.get_mut(color).session.start(&setup);
            let started = started.map_err(|e| self.stop(color, e))?;
            let komi = self.spec.rules.komi;
            let who = color_name(color);
            match started.komi {
                KomiTold::Exact => {}
                KomiTold::Near(near) => self.notes.push(format!(
                    "{who} refused komi {komi} and was told {near}; the referee counts with {komi}."
                )),
                KomiTold::Own => self.notes.push(format!(
                    "{who} refused komi {komi}; it plays with its own, the referee counts with {komi}."
                )),
            }
            if started.time_settings_refused {
                self.notes.push(format!(
                    "{who} refused `time_settings {}`.",
                    gtp_time_settings(&tc)
                ));
            }
        }
        Ok(())
    }

    fn run(&mut self, on_move: &mut dyn FnMut(&Game)) -> Result<Outcome, Stop> {
        loop {
            match self.game.phase() {
                Phase::Ended => return Ok(Outcome::Decided),
                Phase::Suspended
                    if self.game.consecutive_passes() == 2
                        && self.settled_at != Some(self.game.move_count()) =>
                {
                    self.settle()?;
                    continue;
                }
                _ => {}
            }
            if self.game.move_count() >= self.spec.max_moves {
                self.notes.push(format!(
                    "The game reached the limit of {} moves without ending; it is void.",
                    self.spec.max_moves
                ));
                return Ok(Outcome::Void { replay: false });
            }
            let before = self.game.move_count();
            if self.game.handicap_pass_due() {
                self.handicap_pass()?;
            } else {
                self.genmove(self.game.to_move())?;
            }
            if self.game.move_count() > before {
                on_move(&self.game);
            }
        }
    }

    /// Tells `color`'s engine about a move it did not generate.
    fn tell(&mut self, color: Color, mover: Color, mv: Move) -> Result<(), Stop> {
        let vertex = mv.to_gtp(self.spec.size);
        let timeout = self.spec.timeouts.setup;
        let told = self
            .players
            .get_mut(color)
            .session
            .tell(mover, &vertex, timeout);
        told.map_err(|e| self.stop(color, e))
    }

    /// 讓手: the referee passes for White and tells both engines.
    fn handicap_pass(&mut self) -> Result<(), Stop> {
        self.game
            .play_as(Color::White, Move::Pass)
            .map_err(internal)?;
        self.moves.push(MoveInfo {
            comment: Some("Handicap pass (讓手), played by the referee.".to_string()),
            ..MoveInfo::default()
        });
        for color in Color::ALL {
            self.tell(color, Color::White, Move::Pass)?;
        }
        Ok(())
    }

    fn genmove(&mut self, color: Color) -> Result<(), Stop> {
        let s = color;
        let size = self.spec.size;
        let (time, start) = (self.time, self.start);
        let now = move || time.now().saturating_sub(start);
        let player = self.players.get_mut(color);
        let told = self
            .clock
            .gtp_time_left(s, now(), player.session.dialect())
            .filter(|_| self.spec.tell_time);
        let (grace, untimed) = (self.spec.timeouts.grace, self.spec.timeouts.untimed_move);
        let clock = &mut self.clock;
        let mut started = None;
        let sent = player.session.genmove(
            color,
            |_| told,
            player.cleanup,
            self.spec.timeouts.setup,
            || {
                // The clock runs from just before the command is written.
                let t0 = now();
                let ran = clock.start(s, t0);
                let timeout = match clock.deadline(s) {
                    Some(deadline) => deadline.saturating_sub(t0).saturating_add(grace),
                    None => untimed,
                };
                started = Some((t0, timeout, ran));
                timeout
            },
        );
        let t0 = match started {
            Some((t0, timeout, ran)) => {
                ran.map_err(internal)?;
                if let Err(SessionError::Fault {
                    fault: Fault::Engine(FailureKind::Timeout),
                    ..
                }) = &sent
                {
                    // Records the flag fall, so the clock agrees with the result.
                    let _ = self.clock.check(now().max(t0 + timeout));
                }
                t0
            }
            None => now(),
        };
        let reply = sent.map_err(|e| self.stop(color, e))?;
        // The answer's time on the referee's own source, not the engine's measure of it
        // (`reply.elapsed`): one source for every reading of the clock.
        let t1 = self.now().max(t0);
        let event = self.clock.stop(s, t1).map_err(internal)?;
        let points = i32::try_from(self.clock.penalty_points(s)).unwrap_or(i32::MAX);
        self.game.set_penalty(color, points);
        if event == ClockEvent::Flagged {
            self.notes.push(format!(
                "{} answered `{}` after {:.3} s, past its time: loss on time.",
                color_name(color),
                reply.text.trim(),
                (t1 - t0).as_secs_f64()
            ));
            self.game.lose_on_time(color).map_err(internal)?;
            return Ok(());
        }
        let mv = match GtpSession::parse_genmove(&reply, size) {
            Ok(GenmoveReply::Resign) => {
                self.notes.push(format!(
                    "{} resigned after {} moves.",
                    color_name(color),
                    self.game.move_count()
                ));
                self.game.resign(color).map_err(internal)?;
                return Ok(());
            }
            Ok(GenmoveReply::Move(v)) => v,
            Err(e) => return Err(self.stop(color, e)),
        };
        if let Err(e) = self.game.play_as(color, mv) {
            return Err(self.failure(
                color,
                FailureKind::Illegal,
                e.kind.code(),
                format!("illegal move {} ({})", mv.to_gtp(size), e.kind),
            ));
        }
        let left = self.clock.time_left(s, t1);
        let tc = self.clock.control(s);
        let has_periods = matches!(
            tc,
            TimeControl::Japanese { .. }
                | TimeControl::IngByoYomi { .. }
                | TimeControl::Canadian { .. }
        );
        self.moves.push(MoveInfo {
            comment: clock_comment(color, event),
            time_left: left.map(|l| l.main),
            periods_left: left
                .filter(|l| l.in_overtime && has_periods)
                .map(|l| l.periods_or_stones),
        });
        self.tell(color.opponent(), color, mv)
    }

    /// Two passes: asks both engines for the dead stones; ends the game if they agree,
    /// otherwise play resumes (with `kgs-genmove_cleanup` where known).
    fn settle(&mut self) -> Result<(), Stop> {
        self.settled_at = Some(self.game.move_count());
        let mut lists: ByColor<Option<BTreeSet<Point>>> = ByColor::default();
        for color in Color::ALL {
            let (size, timeout) = (self.spec.size, self.spec.timeouts.setup);
            let answer = self.players.get_mut(color).session.dead_list(size, timeout);
            let answer = answer.map_err(|e| self.stop(color, e))?;
            *lists.get_mut(color) = answer.map(|l| l.into_iter().collect());
        }
        let show = |l: &Option<BTreeSet<Point>>| match l {
            None => "no answer".to_string(),
            Some(s) if s.is_empty() => "none".to_string(),
            Some(s) => s
                .iter()
                .map(|p| p.to_gtp(self.spec.size))
                .collect::<Vec<_>>()
                .join(" "),
        };
        let said = format!(
            "Dead stones after two passes: Black says {}, White says {}",
            show(&lists.black),
            show(&lists.white)
        );
        // The referee's own judgement (the same end-of-game judge as `final_status_list` of
        // `ingo gtp` and the play server's proposal) stands in for an engine that says nothing
        // useful, and settles a disagreement when it sides with one of the two lists.
        let own: BTreeSet<Point> = judge_end(&self.game, &EndgameConfig::default())
            .dead
            .into_iter()
            .collect();
        let agreed = match (&lists.black, &lists.white) {
            (Some(b), Some(w)) if b == w => Some((b.clone(), "agreed")),
            (Some(b), Some(w)) if *b == own || *w == own => {
                Some((own.clone(), "disputed, the referee's judgement decides"))
            }
            (Some(l), None) | (None, Some(l)) if *l == own => Some((
                own.clone(),
                "one side said nothing useful, the referee's judgement agrees with the other",
            )),
            (None, None) => Some((
                own.clone(),
                "neither side said anything useful, the referee's judgement decides",
            )),
            _ => None,
        };
        if let Some((dead, why)) = agreed {
            let dead: Vec<Point> = dead.into_iter().collect();
            if self.game.agree_dead(&dead).is_ok() {
                let also = if why == "agreed" {
                    String::new()
                } else {
                    format!(" (the referee judges dead: {})", show(&Some(own.clone())))
                };
                self.comment_last(format!("{said}: {why}{also}, the game ends."));
                return Ok(());
            }
        }
        let mut text = format!("{said}: disputed, play resumes");
        for color in Color::ALL {
            let p = self.players.get_mut(color);
            if p.session.knows_cleanup() && !p.cleanup {
                p.cleanup = true;
                text.push_str(&format!(
                    "; {} plays on with kgs-genmove_cleanup",
                    color_name(color)
                ));
            }
        }
        text.push('.');
        self.comment_last(text);
        Ok(())
    }

    fn comment_last(&mut self, text: String) {
        if let Some(m) = self.moves.last_mut() {
            m.comment = Some(match m.comment.take() {
                Some(c) => format!("{c}\n{text}"),
                None => text.clone(),
            });
        }
        self.notes.push(text);
    }

    /// Ends the game (or voids it) for `f` by the policy.
    fn apply_policy(&mut self, f: &Failure) -> Result<Outcome, RefereeError> {
        if self.game.phase() == Phase::Ended {
            // The game had already ended (a failure acknowledging the last pass): the result
            // stands.
            self.notes.push(format!("After the end: {f}."));
            return Ok(Outcome::Decided);
        }
        let policy = &self.spec.failure;
        let action = match f.kind {
            FailureKind::Illegal => policy.on_illegal,
            FailureKind::Crash => policy.on_crash,
            FailureKind::Timeout => policy.on_timeout,
            FailureKind::Garbage => policy.on_garbage,
        };
        let forfeit = match action {
            FailureAction::Forfeit => true,
            FailureAction::Void { max_replays } if self.spec.voids_so_far < max_replays => {
                return Ok(Outcome::Void { replay: true });
            }
            FailureAction::Void { .. } => match policy.when_exhausted {
                VoidExhausted::Forfeit => {
                    self.notes.push(format!(
                        "Voided {} time{} already: counted as a loss this time.",
                        self.spec.voids_so_far,
                        if self.spec.voids_so_far == 1 { "" } else { "s" }
                    ));
                    true
                }
                VoidExhausted::Exclude => false,
            },
        };
        if !forfeit {
            return Ok(Outcome::Void { replay: false });
        }
        let ended = if f.kind == FailureKind::Timeout {
            self.game.lose_on_time(f.color)
        } else {
            self.game.forfeit(f.color, f.code)
        };
        ended.map_err(|e| RefereeError::Internal(e.to_string()))?;
        Ok(Outcome::Decided)
    }
}

/// The point of a GTP vertex (rows count from 1 at the bottom) on a `size` board.
/// The comment for a move that changed the mover's clock state.
fn clock_comment(color: Color, event: ClockEvent) -> Option<String> {
    let who = color_name(color);
    match event {
        ClockEvent::Ok | ClockEvent::Flagged => None,
        ClockEvent::EnteredOvertime { penalty_points: 0 } => {
            Some(format!("{who}'s main time is used up."))
        }
        ClockEvent::EnteredOvertime { penalty_points } => Some(format!(
            "{who}'s basic time is used up: {penalty_points} penalty points (罰點)."
        )),
        ClockEvent::Penalty { total_points } => {
            Some(format!("{who}: {total_points} penalty points (罰點)."))
        }
        ClockEvent::PeriodUsed { periods_left } => {
            Some(format!("{who}: {periods_left} periods left."))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The referee stops on an invalid command (its own mistake) instead of charging either
    /// engine; the play server reads the same session error (its engine opponents' test).
    #[test]
    fn an_invalid_command_charges_no_engine() {
        let e = EngineError::InvalidCommand {
            command: "play b A1\nquit".to_string(),
            reason: "contains a line break",
        };
        for on_failure in [
            (FailureKind::Illegal, "refused-legal-move"),
            (FailureKind::Garbage, "genmove-failed"),
        ] {
            let error = SessionError::engine(&e, on_failure);
            assert!(failure_of(error.clone()).is_err(), "{error:?}");
        }
    }
}
