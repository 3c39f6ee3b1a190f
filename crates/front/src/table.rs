//! [`Table`]: one game of Go as a front sees it — the rules, the handicap passes, an optional
//! clock fed explicit times, the phases, the dead-stone step and the results — with every move
//! judged by [`ingo_rules::Game::play_as`].

use std::time::Duration;

use ingo_clock::{Clock, ClockError, ClockEvent, TimeControl, TimeControlError};
use ingo_player::endgame::{judge_with_dead, EndgameConfig, Judgement};
use ingo_rules::{
    BoardSizeError, Color, Game, GameEnd, GameError, Move, Phase, PlayError, Point, Rules, Score,
    Setup,
};
use ingo_sgf::{MoveInfo, WriteInfo};

/// What a new [`Table`] is set up with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The board is `size × size` (2 to 25 over GTP; 1 to 25 here).
    pub size: usize,
    /// The rules of play and of the count.
    pub rules: Rules,
    /// White's handicap passes (讓手: "N先減1即為所讓手數"); 0 for an even game.
    pub handicap_passes: u8,
    /// The clock, if the game is timed; `None` leaves time to someone else (a GTP controller).
    pub time_control: Option<TimeControl>,
}

impl Settings {
    /// An untimed even game on `size × size` under `rules`.
    pub fn new(size: usize, rules: Rules) -> Settings {
        Settings {
            size,
            rules,
            handicap_passes: 0,
            time_control: None,
        }
    }
}

/// One action on a table, as it is logged: the table is rebuilt by replaying its events
/// ([`Table::replay`]), so a server stores these and nothing else.
///
/// Times (`at`) are durations since an origin the caller picks (for example the game's
/// creation); the table never reads a clock itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The clock was started for the first player to move.
    StartClock {
        /// When.
        at: Duration,
    },
    /// A move (a board play or a pass) by `color`.
    Play {
        /// Who played.
        color: Color,
        /// What.
        mv: Move,
        /// When, for the clock; `None` for an untimed table.
        at: Option<Duration>,
    },
    /// A list of dead stones was proposed during a suspension; `by` has accepted it by proposing
    /// it (`None`: proposed by the server or a referee, accepted by nobody yet).
    ProposeDead {
        /// Who proposed.
        by: Option<Color>,
        /// The stones proposed as dead.
        dead: Vec<Point>,
    },
    /// `color` accepted the current proposal.
    AcceptDead {
        /// Who accepted.
        color: Color,
    },
    /// `color` rejected the current proposal, which is withdrawn.
    RejectDead {
        /// Who rejected.
        color: Color,
    },
    /// `color` resigned.
    Resign {
        /// Who resigned.
        color: Color,
    },
    /// The clock was looked at, at `at`, and a flag had fallen: a loss on time.
    CheckTime {
        /// When.
        at: Duration,
    },
    /// `color` arrived `late` after the scheduled start, before its first move: twice the
    /// lateness is taken from its basic time, or it forfeits as absent (缺席).
    LateArrival {
        /// Who was late.
        color: Color,
        /// By how much.
        late: Duration,
    },
    /// `color` lost on time by the decision of someone other than the table's clock (an
    /// untimed table whose time is kept elsewhere).
    TimeLoss {
        /// Who lost.
        color: Color,
    },
    /// `color` forfeited, for `reason`.
    Forfeit {
        /// Who forfeited.
        color: Color,
        /// Why.
        reason: String,
    },
}

/// The dead-stone step of a suspension (提證死活): a proposal and who has accepted it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadProposal {
    /// The stones proposed as dead.
    pub dead: Vec<Point>,
    /// Who has accepted it so far.
    pub accepted: ingo_rules::ByColor<bool>,
}

/// Why a table refused an action; the table is then unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// The board size is not one a board can have.
    #[error(transparent)]
    BoardSize(#[from] BoardSizeError),
    /// The time control cannot be used.
    #[error("unusable time control: {0}")]
    TimeControl(#[from] TimeControlError),
    /// The rules refuse the move; [`crate::explain`] says why in a sentence.
    #[error(transparent)]
    Illegal(#[from] PlayError),
    /// A game action other than a move was refused by the game.
    #[error(transparent)]
    Game(#[from] GameError),
    /// The clock refused the operation (time going backwards, for example).
    #[error(transparent)]
    Clock(#[from] ClockError),
    /// The player ran out of time before the action: the game is now lost on time.
    #[error("{0} has lost on time")]
    LostOnTime(Color),
    /// The table's clock is running, so a move needs its time.
    #[error("the game is timed: a move needs the time it was made at")]
    TimeNeeded,
    /// There is no proposal of dead stones to accept or reject.
    #[error("no dead stones have been proposed")]
    NoProposal,
    /// A move cannot be taken back in a timed game.
    #[error("moves cannot be taken back in a timed game")]
    UndoTimed,
    /// The move history cannot be replayed under the new rules.
    #[error("the current game cannot be replayed under these rules: move {number}: {error}")]
    Replay {
        /// The move, from 1.
        number: usize,
        /// Why it is refused now.
        error: PlayError,
    },
    /// An event of a log could not be applied.
    #[error("event {index} of the log: {error}")]
    Event {
        /// The event's index in the log, from 0.
        index: usize,
        /// Why.
        error: Box<TableError>,
    },
}

/// The mover's clock after a move, for the SGF record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct MoveTime {
    left: Option<ingo_clock::TimeLeft>,
}

/// One game: rules, board size, handicap passes, an optional clock, the phases, the dead-stone
/// step, the results and the count. Every move goes through [`Game::play_as`]; every action is
/// logged as an [`Event`], from which [`Table::replay`] rebuilds the same table.
///
/// ```
/// use ingo_front::{Settings, Table};
/// use ingo_rules::{Color, Move, Phase, Point, Rules};
///
/// let mut table = Table::new(Settings::new(9, Rules::ing())).unwrap();
/// let e5 = Move::Play(Point::from_gtp("E5", 9, 9).unwrap());
/// table.play(Color::Black, e5, None).unwrap();
/// table.play(Color::White, Move::Pass, None).unwrap();
/// table.play(Color::Black, Move::Pass, None).unwrap();
/// assert_eq!(table.phase(), Phase::Suspended);
/// table.propose_dead(Some(Color::Black), &[]).unwrap();
/// table.accept_dead(Color::White).unwrap();
/// assert_eq!(table.phase(), Phase::Ended);
/// assert_eq!(table.score().unwrap().result_string(), "B+73");
///
/// let again = Table::replay(table.settings().clone(), table.events()).unwrap();
/// assert_eq!(again.game().board(), table.game().board());
/// assert_eq!(again.score(), table.score());
/// ```
#[derive(Clone, Debug)]
pub struct Table {
    settings: Settings,
    game: Game,
    clock: Option<Clock>,
    proposal: Option<DeadProposal>,
    events: Vec<Event>,
    /// The clock after each move of the history (for `BL`/`WL` in SGF); empty when untimed.
    times: Vec<MoveTime>,
    /// The latest time given to the clock: an earlier one is refused before anything changes.
    last_at: Duration,
}

impl Table {
    /// A new game with `settings`: an empty board, Black to move.
    ///
    /// # Errors
    /// For a board size outside 1..=25 or an unusable time control.
    pub fn new(settings: Settings) -> Result<Table, TableError> {
        let mut setup = Setup::empty(settings.size)?;
        setup.handicap_passes = settings.handicap_passes;
        let clock = settings.time_control.map(Clock::new).transpose()?;
        Ok(Table {
            game: Game::new(setup, settings.rules),
            settings,
            clock,
            proposal: None,
            events: Vec::new(),
            times: Vec::new(),
            last_at: Duration::ZERO,
        })
    }

    /// A table for a game already under way (a loaded record, for example), untimed. Its moves
    /// are logged as untimed [`Event::Play`] events, but [`Table::replay`] starts from an empty
    /// board, so a game with setup stones is not rebuilt by it.
    pub fn from_game(game: Game) -> Table {
        let setup = game.setup();
        let settings = Settings {
            size: setup.board.width(),
            rules: *game.rules(),
            handicap_passes: setup.handicap_passes,
            time_control: None,
        };
        let events = game
            .history()
            .map(|m| Event::Play {
                color: m.color,
                mv: m.mv,
                at: None,
            })
            .collect();
        Table {
            settings,
            game,
            clock: None,
            proposal: None,
            events,
            times: Vec::new(),
            last_at: Duration::ZERO,
        }
    }

    /// Rebuilds a table from `settings` and its event log.
    ///
    /// # Errors
    /// [`TableError::Event`] naming the first event that cannot be applied.
    pub fn replay(settings: Settings, events: &[Event]) -> Result<Table, TableError> {
        let mut table = Table::new(settings)?;
        for (index, event) in events.iter().enumerate() {
            table.apply(event).map_err(|error| TableError::Event {
                index,
                error: Box::new(error),
            })?;
        }
        Ok(table)
    }

    /// Applies one event, as the method of the same name would.
    ///
    /// # Errors
    /// As that method.
    pub fn apply(&mut self, event: &Event) -> Result<(), TableError> {
        match event {
            Event::StartClock { at } => self.start_clock(*at),
            Event::Play { color, mv, at } => self.play(*color, *mv, *at),
            Event::ProposeDead { by, dead } => self.propose_dead(*by, dead),
            Event::AcceptDead { color } => self.accept_dead(*color),
            Event::RejectDead { color } => self.reject_dead(*color),
            Event::Resign { color } => self.resign(*color),
            Event::CheckTime { at } => self.check_time(*at).map(|_| ()),
            Event::TimeLoss { color } => self.lose_on_time(*color),
            Event::LateArrival { color, late } => self.late_arrival(*color, *late).map(|_| ()),
            Event::Forfeit { color, reason } => self.forfeit(*color, reason),
        }
    }

    /// The settings the table was made with (the rules as they are now).
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The event log, oldest first.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The game: board, history, phase, end.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        self.game.rules()
    }

    /// The board size (its width; boards are square here).
    pub fn size(&self) -> usize {
        self.game.board().width()
    }

    /// The player to move.
    pub fn to_move(&self) -> Color {
        self.game.to_move()
    }

    /// Playing, suspended after two passes, or ended.
    pub fn phase(&self) -> Phase {
        self.game.phase()
    }

    /// The clock, if the table is timed.
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    /// The dead-stone proposal under discussion, if any.
    pub fn proposal(&self) -> Option<&DeadProposal> {
        self.proposal.as_ref()
    }

    /// Whether White's next move is a handicap pass (讓手).
    pub fn handicap_pass_due(&self) -> bool {
        self.game.handicap_pass_due()
    }

    /// Starts the clock at `at` for the player to move (Black, or White when the setup says
    /// so). Nothing happens for an untimed table.
    ///
    /// # Errors
    /// From the clock (already running, time going backwards).
    pub fn start_clock(&mut self, at: Duration) -> Result<(), TableError> {
        if let Some(clock) = &mut self.clock {
            clock.start(self.game.to_move(), at)?;
            self.last_at = at;
        }
        self.events.push(Event::StartClock { at });
        Ok(())
    }

    /// Looks at the clock at `at`: a player whose time has run out loses on time (the game ends
    /// with [`GameEnd::Time`]). Returns who lost on time, if anyone has.
    ///
    /// # Errors
    /// From the clock (time going backwards).
    pub fn check_time(&mut self, at: Duration) -> Result<Option<Color>, TableError> {
        let Some(clock) = &mut self.clock else {
            return Ok(None);
        };
        if at < self.last_at {
            return Err(ClockError::TimeWentBackwards {
                last: self.last_at,
                now: at,
            }
            .into());
        }
        if let Some(s) = clock.flagged() {
            return Ok(Some(s));
        }
        // Only a check that finds a flag fall changes the clock: the others leave it alone, so
        // that the log (which holds only the checks that mattered) rebuilds the same clock.
        let due = clock
            .running()
            .and_then(|s| clock.deadline(s))
            .is_some_and(|deadline| at > deadline);
        if !due {
            return Ok(None);
        }
        let flagged = clock.check(at)?;
        self.last_at = at;
        self.events.push(Event::CheckTime { at });
        if let Some(c) = flagged {
            if self.game.phase() != Phase::Ended {
                self.game.lose_on_time(c)?;
                self.proposal = None;
            }
        }
        Ok(flagged)
    }

    /// Plays `mv` for `color` at time `at`. The move is judged by [`Game::play_as`] (a move
    /// out of turn is refused there as `out-of-turn`); on a timed table the mover's clock is
    /// stopped at `at` and the opponent's started (not during a suspension, when nobody is
    /// to move: the clock then waits for play to resume), penalty points of Ing's overtime go
    /// to the count, and a move made after the flag fell loses on time instead.
    ///
    /// A move during a suspension resumes play to prove life and death on the board (提證死活),
    /// and withdraws any proposal of dead stones.
    ///
    /// # Errors
    /// [`TableError::Illegal`] with the reason code; [`TableError::LostOnTime`] when the
    /// mover's time had run out (the game has then ended on time); [`TableError::TimeNeeded`]
    /// for an untimed move on a timed table whose clock runs.
    pub fn play(&mut self, color: Color, mv: Move, at: Option<Duration>) -> Result<(), TableError> {
        let timed = self.clock.as_ref().is_some_and(|c| c.running().is_some());
        let at = match (at, timed) {
            (None, true) => return Err(TableError::TimeNeeded),
            (at, _) => at,
        };
        if let Some(now) = at {
            if let Some(loser) = self.check_time(now)? {
                return Err(TableError::LostOnTime(loser));
            }
        }
        self.game.play_as(color, mv)?;
        self.proposal = None;
        self.events.push(Event::Play { color, mv, at });
        if let (Some(now), Some(clock)) = (at, &mut self.clock) {
            let s = color;
            if clock.running() != Some(s) {
                // Play resumed after a suspension (or the clock was never started): the move
                // took no time on the clock.
                if clock.running().is_none() {
                    clock.start(s, now)?;
                }
            }
            let event = clock.stop(s, now)?;
            if let ClockEvent::Flagged = event {
                // Unreachable after the check above; kept so that a flag never goes unnoticed.
                self.game.lose_on_time(color)?;
            }
            let net = clock.net_penalty();
            self.game.set_penalty(Color::Black, net.black as i32);
            self.game.set_penalty(Color::White, net.white as i32);
            if self.game.phase() == Phase::Playing {
                clock.start(self.game.to_move(), now)?;
            }
            self.last_at = now;
            let left = clock.time_left(s, now);
            self.times
                .resize(self.game.move_count() - 1, MoveTime { left: None });
            self.times.push(MoveTime { left });
        }
        Ok(())
    }

    /// Plays White's handicap pass if one is due (讓手), at `at`; returns whether it did.
    ///
    /// # Errors
    /// As [`Table::play`].
    pub fn pass_handicap_if_due(&mut self, at: Option<Duration>) -> Result<bool, TableError> {
        if !self.game.handicap_pass_due() || self.game.phase() != Phase::Playing {
            return Ok(false);
        }
        self.play(Color::White, Move::Pass, at)?;
        Ok(true)
    }

    /// Proposes `dead` as the dead stones during a suspension (after two passes). `by` has
    /// accepted the proposal by making it; `None` is a proposal of the server or a referee,
    /// which both players must accept. A new proposal replaces the previous one.
    ///
    /// # Errors
    /// When play is not suspended, or a point holds no stone.
    pub fn propose_dead(&mut self, by: Option<Color>, dead: &[Point]) -> Result<(), TableError> {
        if self.game.phase() != Phase::Suspended {
            return Err(GameError::NotSuspended.into());
        }
        if let Some(&p) = dead
            .iter()
            .find(|&&p| self.game.board().color_at(p).is_none())
        {
            return Err(GameError::NoStone(p).into());
        }
        let mut accepted = ingo_rules::ByColor::default();
        if let Some(c) = by {
            *accepted.get_mut(c) = true;
        }
        self.proposal = Some(DeadProposal {
            dead: dead.to_vec(),
            accepted,
        });
        self.events.push(Event::ProposeDead {
            by,
            dead: dead.to_vec(),
        });
        Ok(())
    }

    /// `color` accepts the proposal; once both players have, the game ends and is counted with
    /// those stones taken off ([`GameEnd::Agreement`]).
    ///
    /// # Errors
    /// [`TableError::NoProposal`] when nothing has been proposed.
    pub fn accept_dead(&mut self, color: Color) -> Result<(), TableError> {
        let proposal = self.proposal.as_mut().ok_or(TableError::NoProposal)?;
        let mut accepted = proposal.accepted;
        *accepted.get_mut(color) = true;
        if accepted.black && accepted.white {
            self.game.agree_dead(&proposal.dead)?;
            self.proposal = None;
        } else {
            proposal.accepted = accepted;
        }
        self.events.push(Event::AcceptDead { color });
        Ok(())
    }

    /// `color` rejects the proposal, which is withdrawn. Play stays suspended: either player
    /// may resume play to prove life and death (提證死活), or propose again.
    ///
    /// # Errors
    /// [`TableError::NoProposal`] when nothing has been proposed.
    pub fn reject_dead(&mut self, color: Color) -> Result<(), TableError> {
        self.proposal.take().ok_or(TableError::NoProposal)?;
        self.events.push(Event::RejectDead { color });
        Ok(())
    }

    /// Both players agree at once that `dead` are the dead stones (a GTP controller's
    /// `ingo-agree_dead`): a proposal accepted by both.
    ///
    /// # Errors
    /// When play is not suspended, or a point holds no stone.
    pub fn agree_dead(&mut self, dead: &[Point]) -> Result<(), TableError> {
        self.propose_dead(Some(Color::Black), dead)?;
        self.accept_dead(Color::White)
    }

    /// Ends the game now.
    fn finish(&mut self, end: Event) -> Result<(), TableError> {
        match &end {
            Event::Resign { color } => self.game.resign(*color)?,
            Event::TimeLoss { color } => self.game.lose_on_time(*color)?,
            Event::Forfeit { color, reason } => self.game.forfeit(*color, reason)?,
            _ => {}
        }
        self.proposal = None;
        self.events.push(end);
        Ok(())
    }

    /// `color` arrived `late` after the scheduled start (第八條): "其遲到時間應於「基時」中加倍扣除之"
    /// — twice the lateness comes off its basic time ([`Clock::late_arrival`]); when that
    /// would use it all up, `color` is absent (缺席) and forfeits. Returns whether the game goes
    /// on. Nothing happens on an untimed table.
    ///
    /// # Errors
    /// From the clock (after `color`'s clock has run), or when the game has already ended.
    pub fn late_arrival(&mut self, color: Color, late: Duration) -> Result<bool, TableError> {
        let Some(clock) = &mut self.clock else {
            return Ok(true);
        };
        if self.game.phase() == Phase::Ended {
            return Err(GameError::AlreadyEnded.into());
        }
        let arrival = clock.late_arrival(color, late)?;
        self.events.push(Event::LateArrival { color, late });
        if arrival == ingo_clock::Arrival::Forfeit {
            self.game.forfeit(color, "absent (缺席)")?;
            self.proposal = None;
            return Ok(false);
        }
        Ok(true)
    }

    /// `color` resigns (單方虛手認輸).
    ///
    /// # Errors
    /// When the game has already ended.
    pub fn resign(&mut self, color: Color) -> Result<(), TableError> {
        self.finish(Event::Resign { color })
    }

    /// `color` loses on time, by a decision from outside the table's clock.
    ///
    /// # Errors
    /// When the game has already ended.
    pub fn lose_on_time(&mut self, color: Color) -> Result<(), TableError> {
        self.finish(Event::TimeLoss { color })
    }

    /// `color` forfeits, for `reason` (absence, a refused move of an engine...).
    ///
    /// # Errors
    /// When the game has already ended.
    pub fn forfeit(&mut self, color: Color, reason: &str) -> Result<(), TableError> {
        self.finish(Event::Forfeit {
            color,
            reason: reason.to_string(),
        })
    }

    /// Takes back the last move (GTP `undo`); any later agreement or result goes with it.
    ///
    /// # Errors
    /// [`TableError::UndoTimed`] on a timed table; [`GameError::NothingToUndo`] at the start.
    pub fn undo(&mut self) -> Result<Move, TableError> {
        if self.clock.is_some() {
            return Err(TableError::UndoTimed);
        }
        let mv = self.game.undo()?;
        self.proposal = None;
        if let Some(last) = self
            .events
            .iter()
            .rposition(|e| matches!(e, Event::Play { .. }))
        {
            self.events.truncate(last);
        }
        Ok(mv)
    }

    /// Replays the game under new rules (GTP `komi`, `ingo-rules`); penalties are kept, an
    /// agreement or result is not. On failure nothing changes.
    ///
    /// # Errors
    /// [`TableError::Replay`] with the first move the new rules refuse.
    pub fn set_rules(&mut self, rules: Rules) -> Result<(), TableError> {
        let mut g = Game::new(self.game.setup().clone(), rules);
        for (n, m) in self.game.history().enumerate() {
            g.play_as(m.color, m.mv)
                .map_err(|error| TableError::Replay {
                    number: n + 1,
                    error,
                })?;
        }
        g.set_penalties(self.game.penalties());
        self.settings.rules = rules;
        self.game = g;
        self.proposal = None;
        self.events.retain(|e| matches!(e, Event::Play { .. }));
        Ok(())
    }

    /// The dead stones as they stand: the agreed ones once agreed, none after any other end,
    /// else the current proposal, else the estimate ([`crate::estimate_dead`]).
    pub fn dead_stones(&self) -> Vec<Point> {
        match self.game.end() {
            Some(GameEnd::Agreement(dead)) => dead.clone(),
            Some(_) => Vec::new(),
            None => match &self.proposal {
                Some(p) => p.dead.clone(),
                None => crate::estimate_dead(&self.game),
            },
        }
    }

    /// The end-of-game judgement of the board as it stands: with the agreed dead stones once
    /// agreed, none after any other end, else the current proposal, else the front's own
    /// judgement ([`crate::judge`]). The neutral points are filled in turn, the player to move
    /// first (填滿計點), and the strings next to points left shared are in seki.
    pub fn judgement(&self) -> Judgement {
        let with = |dead: &[Point]| judge_with_dead(&self.game, dead, &EndgameConfig::default());
        match self.game.end() {
            Some(GameEnd::Agreement(dead)) => with(dead),
            Some(_) => with(&[]),
            None => match &self.proposal {
                Some(p) => with(&p.dead),
                None => crate::judge(&self.game),
            },
        }
    }

    /// The count of the board as it stands with [`Table::dead_stones`] taken off, with the
    /// fill-in breakdown (勝空/負子/還子/罰子) in [`Score::fill_in`].
    pub fn count(&self) -> Score {
        self.game.count(&self.dead_stones())
    }

    /// The count of an ended game (four passes, or agreed dead stones); `None` while it goes on
    /// or when it ended by resignation, time or forfeit.
    pub fn score(&self) -> Option<Score> {
        self.game.score()
    }

    /// The winner once the game has ended.
    pub fn winner(&self) -> Option<Color> {
        self.game.winner()
    }

    /// What [`ingo_sgf::write_game`] needs besides the game: `TM`/`OT` from the time control
    /// and the mover's time left after each timed move (`BL`/`WL`, `OB`/`OW`). Fill in the
    /// players' names and the event before writing.
    pub fn write_info(&self) -> WriteInfo {
        let mut info = WriteInfo::default();
        if let Some(tc) = &self.settings.time_control {
            info.info.time = ingo_clock::sgf_tm(tc);
            info.info.overtime = ingo_clock::sgf_ot(tc);
        }
        info.moves = self
            .times
            .iter()
            .map(|t| MoveInfo {
                time_left: t.left.map(|l| l.main),
                periods_left: t
                    .left
                    .filter(|l| l.in_overtime && l.periods_or_stones > 0)
                    .map(|l| l.periods_or_stones),
                ..MoveInfo::default()
            })
            .collect();
        info
    }

    /// The game as SGF (`RU[GOE]`, passes, times, penalty points, agreed dead stones), with the
    /// game information of `info` (names, event...) added to [`Table::write_info`].
    pub fn to_sgf(&self, info: &ingo_sgf::GameInfo) -> String {
        let mut w = self.write_info();
        let (time, overtime) = (w.info.time.take(), w.info.overtime.take());
        w.info = info.clone();
        w.info.time = w.info.time.or(time);
        w.info.overtime = w.info.overtime.or(overtime);
        ingo_sgf::write_game(&self.game, &w)
    }
}
