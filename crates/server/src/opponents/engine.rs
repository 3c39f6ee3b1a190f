//! GTP engines the operator configures (GNU Go, KataGo, `ingo gtp`…) as opponents, refereed
//! exactly like people: an engine's move goes through the same [`crate::play::submit::play_move`]
//! (rules, clock, commit) as a person's.
//!
//! * **Accounts.** Each configured engine plays as the account `ingo-engine-NAME` (the prefix
//!   is reserved at registration, like the built-in player's `ingo-bot-`), made on first use
//!   with no usable password and the configured rank. `GET /api/engines` lists the engines,
//!   `POST /api/games/engine` starts a game against one.
//! * **Processes.** The server starts the engine when it first has to act in a game (one
//!   process per game and seat, at most `max_games` per engine at once, also the limit on new
//!   games) and drives it through the referee's own session (`ingo_referee::GtpSession`, the
//!   one `ingo match` uses): `boardsize`, `clear_board`, `ingo-rules PRESET` when the engine
//!   knows that command (GTP itself has no way to name Ing's rules), `komi` (with the half-point
//!   fallback), `time_settings` (and `kgs-time_settings` when known, then `time_left` follows
//!   KGS), then every move of the game with `play` (White's handicap passes as `play w pass`, as
//!   `ingo match` does). Before each of its moves it gets `time_left`, then `genmove` with a
//!   timeout of its clock's deadline plus [`GRACE`], at most its `move_timeout`. The process is
//!   stopped when the game ends (checked after every action and every second), and with the
//!   server (the parent-death signal of `ingo_gtp::Engine`; `ingo serve` kills every engine
//!   on SIGTERM or SIGINT).
//! * **Restarts.** Nothing of a process is stored: after a restart (or on another server) a
//!   new process is told the game's moves from the start. When the moves the engine knows are no
//!   longer a prefix of the game's (another server moved first), it is told `clear_board` and
//!   every move again.
//! * **Faults**, read by the referee's one classification (`ingo_referee::classify`), with its
//!   default policy (`ingo_referee::FailurePolicy`: the engine loses): a crash (`engine-crash`, `B+F`), no answer in time
//!   (`engine-timeout`, a loss on time `B+T`; when the clock's own deadline passes first, the
//!   server's timer ends the game as for a person, reason `time`), an answer that is not a
//!   vertex or not GTP, or `? failure` to `genmove` (`engine-garbage`, `B+F`), an illegal move or
//!   a refused `play` of a legal one (`engine-illegal-move`, `B+F`), and an engine that cannot
//!   be started or refuses `boardsize` (`engine-unavailable`, `B+F`). A command the server
//!   cannot write as one GTP line is its own mistake, not the engine's (nothing was sent): an
//!   internal error, the game goes on and a fresh process is told it next time. The detail
//!   goes to the server's log. An engine never panics the server.
//! * **Dead stones.** At a suspension the engine is asked `final_status_list dead`. When it
//!   names the stones that stand proposed, or gives no usable answer, it accepts the proposal.
//!   When it disagrees and it is its turn, it resumes play (the referee's way with a dispute:
//!   life and death proved on the board, four passes ending the game with every stone alive);
//!   when it is the person's turn, it proposes its own list, which the person accepts, or
//!   answers by proposing again or resuming play. Once play has been suspended, an engine that
//!   knows `kgs-genmove_cleanup` is asked with it, so that it captures the stones it calls dead.
//! * **Clock.** An engine's clock is a person's: it runs from the opponent's committed move,
//!   so starting the process and telling it the moves count against it.
//! * **Several servers** on one database may each drive the same engine game (each after its
//!   own commits, and all at a start): the move number makes one answer count, and the others'
//!   processes are told the game again at their next turn.
//! * The account's rank follows the configuration: a changed rank is written to the account
//!   when the engine is next asked for a game.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant};

use ingo_clock::{GtpDialect, GtpTimeLeft, TimeControl};
use ingo_gtp::engine::EngineBuilder;
use ingo_gtp::GenmoveReply;
use ingo_referee::{
    FailureKind, Fault as Blame, GenmoveAnswer, GtpSession, SessionError, SessionSetup,
};
use ingo_rules::{Color, Komi, Move, Phase, Point};
use tokio::sync::{Mutex, OwnedSemaphorePermit, Semaphore};

use crate::config::{EngineConfig, GRACE};
use crate::domain::accounts::Program;
use crate::domain::error::{ErrorKind, GameError};
use crate::domain::live_game::LiveGame;
use crate::play::hub::lock;
use crate::play::live::game;
use crate::play::submit::{change, play_move};
use crate::AppState;

/// How an engine failed, which decides how it loses (the referee's kinds, plus a failed start).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// An illegal move, or a refused `play` of a legal one.
    Illegal,
    /// It exited (or its pipe broke).
    Crash,
    /// No answer in time; it was killed.
    Timeout,
    /// An answer that is not GTP, not a vertex, or `? failure` to `genmove`.
    Garbage,
    /// It could not be started, refused `boardsize`, or is no longer configured.
    Unavailable,
}

impl FaultKind {
    /// The game's stored end reason.
    pub fn end_reason(self) -> &'static str {
        match self {
            FaultKind::Illegal => "engine-illegal-move",
            FaultKind::Crash => "engine-crash",
            FaultKind::Timeout => "engine-timeout",
            FaultKind::Garbage => "engine-garbage",
            FaultKind::Unavailable => "engine-unavailable",
        }
    }
}

/// Why a seat stopped: an engine's fault, which ends the game against it, or the server's own
/// mistake, which does not.
#[derive(Debug)]
enum Fault {
    /// The engine is at fault: it loses by `kind`.
    Engine { kind: FaultKind, detail: String },
    /// Not the engine's doing (a command the server could not write): an internal error.
    Server(String),
}

fn fault(kind: FaultKind, detail: impl Into<String>) -> Fault {
    Fault::Engine {
        kind,
        detail: detail.into(),
    }
}

/// The server's reading of a session error: the referee's ([`ingo_referee::classify`]), with
/// a refused start and an engine never started as [`FaultKind::Unavailable`].
fn fault_of(e: SessionError) -> Fault {
    let detail = e.to_string();
    let kind = match e {
        SessionError::Fault { fault, .. } => match fault {
            Blame::Engine(FailureKind::Illegal) => FaultKind::Illegal,
            Blame::Engine(FailureKind::Crash) => FaultKind::Crash,
            Blame::Engine(FailureKind::Timeout) => FaultKind::Timeout,
            Blame::Engine(FailureKind::Garbage) => FaultKind::Garbage,
            Blame::Start => FaultKind::Unavailable,
            Blame::Controller => return Fault::Server(detail),
        },
        SessionError::Unsupported { .. } => FaultKind::Unavailable,
    };
    fault(kind, detail)
}

/// A game's moves as an engine is told them: colour and GTP vertex (or `pass`).
type Moves = Vec<(Color, String)>;

/// The seat of each game's engine: game id and colour.
type SeatKey = (i64, Color);

/// What a seat has to do, with the game's settings and moves.
type Found = (Job, Setup, Moves);

/// One seat of one game: its engine process, while it runs.
#[derive(Default)]
struct Seat {
    session: Option<Session>,
}

/// A running engine process and what the server knows of it.
struct Session {
    gtp: GtpSession,
    /// One of its engine's `max_games` permits, held while the process runs.
    _permit: OwnedSemaphorePermit,
    /// The moves on its board (`b`/`w`, vertex); `None` when unknown (told `clear_board` first).
    known: Option<Moves>,
}

/// The engines of a server: their settings, and the processes running (see the module docs).
pub struct Engines {
    configs: Vec<EngineConfig>,
    permits: HashMap<String, Arc<Semaphore>>,
    seats: StdMutex<HashMap<SeatKey, Arc<Mutex<Seat>>>>,
    /// Held while a new game is counted against `max_games` and made.
    creating: Mutex<()>,
    reaper: AtomicBool,
}

impl Engines {
    /// The engines of `configs`, none running.
    pub fn new(configs: &[EngineConfig]) -> Engines {
        Engines {
            configs: configs.to_vec(),
            permits: configs
                .iter()
                .map(|c| (c.name.clone(), Arc::new(Semaphore::new(c.max_games))))
                .collect(),
            seats: StdMutex::new(HashMap::new()),
            creating: Mutex::new(()),
            reaper: AtomicBool::new(false),
        }
    }

    /// Every engine's settings.
    pub fn configs(&self) -> &[EngineConfig] {
        &self.configs
    }

    /// Held while a new game is counted against `max_games` and made.
    pub async fn creating(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.creating.lock().await
    }

    /// The settings of engine `name`.
    pub fn config(&self, name: &str) -> Option<&EngineConfig> {
        self.configs.iter().find(|c| c.name == name)
    }

    /// How many processes of engine `name` run now.
    pub fn processes(&self, name: &str) -> usize {
        match (self.config(name), self.permits.get(name)) {
            (Some(c), Some(p)) => c.max_games.saturating_sub(p.available_permits()),
            _ => 0,
        }
    }

    fn seat(&self, id: i64, color: Color) -> Arc<Mutex<Seat>> {
        Arc::clone(lock(&self.seats).entry((id, color)).or_default())
    }

    /// Stops the process of a seat whose game has ended, and forgets the seat.
    fn close(&self, id: i64, color: Color, seat: &mut Seat) {
        lock(&self.seats).remove(&(id, color));
        if let Some(s) = seat.session.take() {
            stop(s);
        }
    }
}

/// Stops a process politely (`quit`), then for sure (dropping an `Engine` kills it), off the
/// async threads.
fn stop(s: Session) {
    tokio::task::spawn_blocking(move || {
        if s.gtp.engine().closed().is_none() {
            let _ = s.gtp.into_engine().quit(Duration::from_secs(1));
        }
    });
}

/// Stops the processes of ended games, every second, for endings no action of this module saw
/// (a loss on time found by the game's timer).
fn start_reaper(state: &AppState) {
    if state.engines().reaper.swap(true, Ordering::SeqCst) {
        return;
    }
    let state = state.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(1)).await;
            let seats: Vec<(SeatKey, Arc<Mutex<Seat>>)> = lock(&state.engines().seats)
                .iter()
                .map(|(k, v)| (*k, Arc::clone(v)))
                .collect();
            for ((id, color), seat) in seats {
                // A busy seat is acting: it sees the end itself.
                let Ok(mut seat) = seat.try_lock() else {
                    continue;
                };
                let ended = match game(&state.play, id).await {
                    Ok(g) => g.lock().await.phase() == Phase::Ended,
                    Err(_) => true,
                };
                if ended {
                    state.engines().close(id, color, &mut seat);
                }
            }
        }
    });
}

/// The game's settings an engine is told at its start.
struct Setup {
    size: usize,
    komi: Komi,
    preset: String,
    time_control: TimeControl,
}

/// What a seat has to do now.
enum Job {
    /// The game has ended: stop the process.
    Close,
    /// Its move.
    Move(MoveJob),
    /// Play is suspended and it has not accepted `proposal`; `resume` when it is its turn, to
    /// resume play if it disagrees.
    Dead {
        proposal: Vec<String>,
        resume: Option<MoveJob>,
    },
}

/// A move to ask for.
struct MoveJob {
    /// The number it gets.
    number: i64,
    /// `time_left` in the standard and the KGS dialects.
    time_left: [Option<GtpTimeLeft>; 2],
    /// When its clock falls.
    deadline: Option<Instant>,
    /// Whether play was ever suspended (then `kgs-genmove_cleanup` where known).
    cleanup: bool,
}

/// The move `color` is asked for at wall time `now` (ms).
fn move_job(g: &LiveGame, color: Color, now: i64) -> MoveJob {
    let t = g.clock_time(now);
    let left = |d| g.table().clock().and_then(|k| k.gtp_time_left(color, t, d));
    let deadline = g
        .deadline_ms()
        .map(|at| Instant::now() + Duration::from_millis(u64::try_from(at - now).unwrap_or(0)));
    MoveJob {
        number: g.moves().len() as i64 + 1,
        time_left: [left(GtpDialect::Standard), left(GtpDialect::Kgs)],
        deadline,
        cleanup: g
            .moves()
            .windows(2)
            .any(|w| w.iter().all(|m| m.mv.eq_ignore_ascii_case("pass"))),
    }
}

/// What the engine of `color` is to do at wall time `now` (ms), if anything.
fn job_of(g: &LiveGame, color: Color, now: i64) -> Result<Option<Found>, GameError> {
    let s = g.state();
    let job = match g.phase() {
        Phase::Ended => Job::Close,
        Phase::Suspended => {
            let accepted = match color {
                Color::Black => s.accepted_black,
                Color::White => s.accepted_white,
            };
            if accepted {
                return Ok(None);
            }
            Job::Dead {
                proposal: s
                    .dead_proposal
                    .split_whitespace()
                    .map(str::to_owned)
                    .collect(),
                resume: (g.to_move() == color).then(|| move_job(g, color, now)),
            }
        }
        Phase::Playing => {
            if g.to_move() != color {
                return Ok(None);
            }
            Job::Move(move_job(g, color, now))
        }
    };
    let setup = Setup {
        size: g.size(),
        komi: g.game().rules().komi,
        preset: g.row().preset.clone(),
        time_control: g
            .row()
            .time_control
            .parse()
            .map_err(|e| GameError::internal(format!("time control: {e}")))?,
    };
    let moves = g
        .moves()
        .iter()
        .map(|m| {
            let c = if m.color == "B" {
                Color::Black
            } else {
                Color::White
            };
            (c, m.mv.clone())
        })
        .collect();
    Ok(Some((job, setup, moves)))
}

/// Lets the engines of game `id` act (see the module docs); called after every change.
pub async fn act(state: &AppState, id: i64) -> Result<(), GameError> {
    let seats: Vec<(Color, i64, String)> = {
        let game = game(&state.play, id).await?;
        let g = game.lock().await;
        Color::ALL
            .iter()
            .filter_map(|&c| {
                let p = g.players().get(c);
                match &p.program {
                    Some(Program::Engine { name }) => Some((c, p.id, name.clone())),
                    _ => None,
                }
            })
            .collect()
    };
    for (color, user_id, engine) in seats {
        drive(state, id, color, user_id, &engine).await?;
    }
    Ok(())
}

async fn drive(
    state: &AppState,
    id: i64,
    color: Color,
    user_id: i64,
    engine: &str,
) -> Result<(), GameError> {
    let engines = state.engines();
    let seat = engines.seat(id, color);
    let mut seat = seat.lock().await;
    let found = {
        let game = game(&state.play, id).await?;
        let g = game.lock().await;
        job_of(&g, color, state.now_ms())?
    };
    let Some((job, setup, moves)) = found else {
        return Ok(());
    };
    if let Job::Close = job {
        engines.close(id, color, &mut seat);
        return Ok(());
    }
    let Some(config) = engines.config(engine).cloned() else {
        let f = fault(
            FaultKind::Unavailable,
            format!("engine {engine:?} is no longer configured on this server"),
        );
        return fail(state, id, color, &mut seat, f).await;
    };
    let setup = match seat.session {
        Some(_) => setup,
        None => {
            let Some(permits) = engines.permits.get(&config.name) else {
                return Err(GameError::internal("engine without permits"));
            };
            let permit = Arc::clone(permits)
                .acquire_owned()
                .await
                .map_err(|e| GameError::internal(e.to_string()))?;
            let c = config.clone();
            let (started, setup) =
                tokio::task::spawn_blocking(move || (Session::start(&c, &setup, permit), setup))
                    .await
                    .map_err(|e| GameError::internal(format!("engine task: {e}")))?;
            match started {
                Ok(session) => seat.session = Some(session),
                Err(f) => return fail(state, id, color, &mut seat, f).await,
            }
            start_reaper(state);
            setup
        }
    };
    let who = Who { id, color, user_id };
    finish_job(state, who, &config, &mut seat, job, setup, moves).await
}

/// A seat: the game, the engine's colour and account.
#[derive(Clone, Copy)]
struct Who {
    id: i64,
    color: Color,
    user_id: i64,
}

/// What an engine answered.
enum Answer {
    Move(Move),
    Resign,
    Dead(Option<Vec<Point>>),
}

async fn finish_job(
    state: &AppState,
    Who { id, color, user_id }: Who,
    config: &EngineConfig,
    seat: &mut Seat,
    job: Job,
    setup: Setup,
    moves: Vec<(Color, String)>,
) -> Result<(), GameError> {
    let Some(mut session) = seat.session.take() else {
        return Ok(());
    };
    let c = config.clone();
    let size = setup.size;
    let proposal = match &job {
        Job::Dead { proposal, .. } => Some(proposal.clone()),
        _ => None,
    };
    let number = match &job {
        Job::Move(m)
        | Job::Dead {
            resume: Some(m), ..
        } => m.number,
        _ => 0,
    };
    let (session, answer) = tokio::task::spawn_blocking(move || {
        let answer = session.answer(&c, &setup, &moves, color, &job);
        (session, answer)
    })
    .await
    .map_err(|e| GameError::internal(format!("engine task: {e}")))?;
    seat.session = Some(session);
    let answer = match answer {
        Ok(a) => a,
        Err(f) => return fail(state, id, color, seat, f).await,
    };
    match answer {
        Answer::Move(mv) => {
            let vertex = mv.to_gtp(size);
            match play_move(&state.play, user_id, id, &vertex, Some(number)).await {
                Ok(_) => Ok(()),
                Err(e) if e.kind == ErrorKind::Refused => {
                    let f = fault(
                        FaultKind::Illegal,
                        format!("illegal move {vertex} ({}): {}", e.reason, e.message),
                    );
                    fail(state, id, color, seat, f).await
                }
                Err(e) if e.kind == ErrorKind::Conflict => {
                    // The game moved on meanwhile (a resignation, a flag fall, another server):
                    // its board is told again from the start next time.
                    if let Some(s) = seat.session.as_mut() {
                        s.known = None;
                    }
                    Ok(())
                }
                Err(e) => Err(e),
            }
        }
        Answer::Resign => {
            let _ = change(&state.play, id, |g, now| g.resign(user_id, now)).await?;
            Ok(())
        }
        Answer::Dead(list) => {
            let proposal = proposal.unwrap_or_default();
            let standing = points_of(&proposal, size);
            let own: Option<Vec<String>> = list
                .filter(|l| Some(l) != standing.as_ref())
                .map(|l| l.iter().map(|p| p.to_gtp(size)).collect());
            if let Some(own) = own {
                let proposed = change(&state.play, id, |g, _| g.propose(user_id, &own)).await;
                match proposed {
                    Ok(_) => return Ok(()),
                    // Its list names an empty point: no usable answer, it accepts.
                    Err(e) if e.kind == ErrorKind::Refused => {}
                    Err(e) => return Err(e),
                }
            }
            let _ = change(&state.play, id, |g, now| g.accept(user_id, &proposal, now)).await?;
            Ok(())
        }
    }
}

fn points_of(list: &[String], size: usize) -> Option<Vec<Point>> {
    let mut v: Vec<Point> = list
        .iter()
        .map(|s| Point::from_gtp(s, size, size).ok())
        .collect::<Option<_>>()?;
    v.sort_by_key(|p| (p.row(), p.col()));
    v.dedup();
    Some(v)
}

/// Ends the game for an engine's fault, by the referee's policy, and stops the process.
async fn fail(
    state: &AppState,
    id: i64,
    color: Color,
    seat: &mut Seat,
    f: Fault,
) -> Result<(), GameError> {
    let (kind, detail) = match f {
        Fault::Engine { kind, detail } => (kind, detail),
        Fault::Server(detail) => {
            // The process may be fine, but what it was told is unknown: a fresh one is told
            // the game from the start next time. The game goes on.
            state.engines().close(id, color, seat);
            return Err(GameError::internal(format!("engine seat: {detail}")));
        }
    };
    tracing::warn!(
        game_id = id,
        color = %color.letter(),
        reason = kind.end_reason(),
        "the engine failed: {}",
        detail
    );
    let reason = kind.end_reason();
    let on_time = kind == FaultKind::Timeout;
    let result = change(&state.play, id, |g, now| {
        g.engine_failed(color, on_time, reason, now)
    })
    .await;
    state.engines().close(id, color, seat);
    result.map(|_| ())
}

fn letter(c: Color) -> &'static str {
    match c {
        Color::Black => "b",
        Color::White => "w",
    }
}

impl Session {
    /// Starts the engine and tells it the game's settings (blocking).
    fn start(
        config: &EngineConfig,
        setup: &Setup,
        permit: OwnedSemaphorePermit,
    ) -> Result<Session, Fault> {
        let (program, args) = config
            .command
            .split_first()
            .ok_or_else(|| fault(FaultKind::Unavailable, "empty command"))?;
        let mut builder = EngineBuilder::new(program.clone()).args(args.iter().cloned());
        if let Some(dir) = &config.dir {
            builder = builder.current_dir(dir.clone());
        }
        let engine = builder
            .spawn()
            .map_err(|e| fault_of(SessionError::engine(&e, (FailureKind::Garbage, "garbage"))))?;
        let mut s = Session {
            gtp: GtpSession::new(engine),
            _permit: permit,
            known: None,
        };
        s.gtp
            .start(&SessionSetup {
                size: setup.size,
                komi: setup.komi,
                preset: Some(&setup.preset),
                time: Some(setup.time_control),
                timeout: config.setup_timeout,
            })
            .map_err(fault_of)?;
        s.known = Some(Vec::new());
        Ok(s)
    }

    /// Tells the engine the moves it does not have yet (all of them, after `clear_board`,
    /// when what it has is not where the game stands).
    fn sync(&mut self, moves: &[(Color, String)], t: Duration) -> Result<(), Fault> {
        let fits = self
            .known
            .as_ref()
            .is_some_and(|k| k.len() <= moves.len() && moves[..k.len()] == k[..]);
        if !fits {
            self.gtp
                .send("clear_board", &[], t, (FailureKind::Garbage, "garbage"))
                .map_err(fault_of)?;
            self.known = Some(Vec::new());
        }
        let from = self.known.as_ref().map_or(0, Vec::len);
        for (c, v) in &moves[from..] {
            self.gtp
                .tell(*c, v, t)
                .map_err(fault_of)
                .map_err(|f| match f {
                    Fault::Engine {
                        kind: FaultKind::Illegal,
                        detail,
                    } => fault(
                        FaultKind::Illegal,
                        format!("it refused the legal move {} {v}: {detail}", letter(*c)),
                    ),
                    f => f,
                })?;
            if let Some(k) = self.known.as_mut() {
                k.push((*c, v.clone()));
            }
        }
        Ok(())
    }

    /// Does `job` (blocking).
    fn answer(
        &mut self,
        config: &EngineConfig,
        setup: &Setup,
        moves: &[(Color, String)],
        color: Color,
        job: &Job,
    ) -> Result<Answer, Fault> {
        let t = config.setup_timeout;
        self.sync(moves, t)?;
        let size = setup.size;
        match job {
            // Handled before any process is asked (`drive`).
            Job::Close => Err(fault(FaultKind::Crash, "asked to act in an ended game")),
            Job::Dead { proposal, resume } => {
                let list = self.dead_list(size, t)?;
                match (list, resume) {
                    // It disagrees and it is its turn: it resumes play, to capture what it
                    // calls dead (the referee's way with a disputed suspension).
                    (Some(l), Some(m)) if Some(&l) != points_of(proposal, size).as_ref() => {
                        self.genmove(config, size, color, m)
                    }
                    (list, _) => Ok(Answer::Dead(list)),
                }
            }
            Job::Move(m) => self.genmove(config, size, color, m),
        }
    }

    /// `final_status_list dead`, sorted; `None` for no usable answer.
    fn dead_list(&mut self, size: usize, t: Duration) -> Result<Option<Vec<Point>>, Fault> {
        self.gtp.dead_list(size, t).map_err(fault_of)
    }

    /// `time_left`, then `genmove` (or `kgs-genmove_cleanup`) with the move's timeout.
    fn genmove(
        &mut self,
        config: &EngineConfig,
        size: usize,
        color: Color,
        m: &MoveJob,
    ) -> Result<Answer, Fault> {
        let time_left = |d| match d {
            GtpDialect::Kgs => m.time_left[1],
            _ => m.time_left[0],
        };
        let timeout = || {
            m.deadline
                .map_or(config.move_timeout, |d| {
                    d.saturating_duration_since(Instant::now()) + GRACE
                })
                .min(config.move_timeout)
        };
        let reply: GenmoveAnswer = self
            .gtp
            .genmove(color, time_left, m.cleanup, config.setup_timeout, timeout)
            .map_err(fault_of)?;
        match GtpSession::parse_genmove(&reply, size).map_err(fault_of)? {
            GenmoveReply::Resign => Ok(Answer::Resign),
            GenmoveReply::Move(mv) => {
                if let Some(k) = self.known.as_mut() {
                    k.push((color, mv.to_gtp(size)));
                }
                Ok(Answer::Move(mv))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use ingo_gtp::EngineError;

    use super::*;

    /// An invalid command is the server's own mistake, as the referee reads it: the engine
    /// never saw it, so it does not lose the game for it.
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
            let f = fault_of(SessionError::engine(&e, on_failure));
            assert!(matches!(f, Fault::Server(_)), "{f:?}");
        }
    }

    #[test]
    fn a_refusal_is_what_the_command_makes_it() {
        let refused = EngineError::Failure {
            command: "play b A1".to_string(),
            message: "illegal move".to_string(),
            elapsed: Duration::ZERO,
        };
        for (kind, want) in [
            (FailureKind::Illegal, FaultKind::Illegal),
            (FailureKind::Garbage, FaultKind::Garbage),
        ] {
            let f = fault_of(SessionError::engine(&refused, (kind, "code")));
            assert!(
                matches!(f, Fault::Engine { kind: k, .. } if k == want),
                "{f:?}"
            );
        }
        let unsupported = SessionError::Unsupported {
            command: "boardsize 19".to_string(),
            message: "unacceptable size".to_string(),
        };
        assert!(matches!(
            fault_of(unsupported),
            Fault::Engine {
                kind: FaultKind::Unavailable,
                ..
            }
        ));
    }
}
