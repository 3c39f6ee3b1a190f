//! A game as the server keeps it: an [`ingo_front::Table`] (rules through `Game::play_as`,
//! the only legality authority; handicap passes; the Ing clock fed the server's own times;
//! phases; the dead-stone step; results and count) plus the stored rows and the players.
//!
//! Its fields are private: every change goes through a method that checks it and keeps the
//! stored row in step with the table; it knows nothing of HTTP, JSON or the database.
//!
//! **Clock policy.** The clock is the server's wall clock: a move's time is the time its
//! transaction was made, and a player's thinking time runs from the previous move's. A
//! restarted server (after a crash or a `kill -9`) rebuilds both clocks from the committed
//! moves' times, so the time the server was down is charged to the player who was to move,
//! exactly as if it had stayed up; if that player's time ran out meanwhile, the game is lost on
//! time as soon as the server is back. This keeps several servers on one database agreeing on
//! one clock without talking to each other. While play is suspended (two passes) neither clock
//! runs; a move that resumes play is charged nothing for the suspension.

use std::time::Duration;

use ingo_clock::TimeControl;
use ingo_front::{Event, Settings, Table, TableError};
use ingo_rules::{ByColor, Color, Game, GameEnd, Move, Phase, PlayErrorKind, Point, Preset, Rules};
use ingo_store::server::{GameRow, GameState, MoveRow, UndoRequest};

use crate::domain::end::{EndReason, EngineFault};
use crate::domain::error::{reason_message, GameError};
use crate::domain::team::{Player, Team, TeamKind};

/// A game in memory.
#[derive(Debug)]
pub struct LiveGame {
    /// The stored row, its state kept current.
    row: GameRow,
    /// The game: rules, clock (in time since `row.started_ms`), phases, dead stones, count.
    table: Table,
    /// Every move, as stored.
    moves: Vec<MoveRow>,
    /// The players (in a team game, each side's first seat).
    players: ByColor<Player>,
    /// The sides' members in a pair or consultation game; `None` for one player a side.
    team: Option<Team>,
    /// Whether anyone may ask for a score estimate while the game goes on (true unless the
    /// game's agreement, an event's for instance, says otherwise).
    estimate_allowed: bool,
    /// The event pairing it plays, if it is an event's game.
    event: Option<EventSeat>,
    /// A player's standing request to take back their last move.
    undo: Option<UndoRequest>,
    /// Set when a change judged on this copy was not committed ([`LiveGame::discard`]).
    discarded: bool,
}

/// The pairing of an event a game plays, and how late each player arrived at its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventSeat {
    /// The event.
    pub event_id: i64,
    /// Round.
    pub round: u32,
    /// Board.
    pub board: u32,
    /// How late each side arrived after the round's start (twice of it came off its basic
    /// time).
    pub late: ByColor<Duration>,
}

/// The dead stones the server proposes when play is suspended: the referee-grade judgement
/// of `ingo_player::endgame` (proof of life first, then playouts under the game's own rules;
/// deterministic). The players accept it, mark other stones, or resume play to prove life and
/// death on the board.
///
/// With them, the verdicts a player should check before accepting
/// ([`ingo_player::endgame::Judgement::checks`]): each doubtful string's first stone, how it
/// was decided (`54%` of the playouts, `R` read in a capture race, …) and whether the winner
/// turns on it ([`ingo_player::endgame::Judgement::winner_turns_on`]: that verdict alone turned
/// the other way makes the count name the other winner). That costs one fill of the neutral
/// points for each verdict to check, without playouts: on 19×19 from two thirds of the
/// judgement's own time to about as much, once a suspension (`ingo-bench endgame` prints
/// both, `ingo_cpu_ms_per_position` and `ingo_turns_cpu_ms_per_position`).
pub fn propose_dead(game: &Game) -> (Vec<Point>, Vec<DeadCheck>) {
    let config = ingo_player::endgame::EndgameConfig::default();
    let j = ingo_player::endgame::judge_end(game, &config);
    let turns = j.winner_turns_on(game, &config);
    let checks = j
        .checks()
        .into_iter()
        .map(|(point, note)| DeadCheck {
            point,
            note,
            turns_winner: turns.contains(&point),
        })
        .collect();
    (j.dead, checks)
}

/// A verdict of the server's judgement to check before accepting its dead stones (see
/// [`propose_dead`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadCheck {
    /// The string's first stone.
    pub point: Point,
    /// How its verdict was decided (`54%`, `R`, …: `Judgement::checks`).
    pub note: String,
    /// Whether that verdict alone, turned the other way, makes the count name the other winner.
    pub turns_winner: bool,
}

/// What marks, in the stored text, a verdict the winner turns on (`G3:75%!`); no note of the
/// judgement ends with it.
const TURNS_MARK: char = '!';

/// The verdicts to check as stored (`P19:54% S17:R G3:75%!`).
fn checks_text(checks: &[DeadCheck], size: usize) -> String {
    checks
        .iter()
        .map(|c| {
            let mut text = format!("{}:{}", c.point.to_gtp(size), c.note);
            if c.turns_winner {
                text.push(TURNS_MARK);
            }
            text
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The stored verdicts to check of a game of `size`; a pair that does not read (a row written
/// by hand) is left out, as it only ever adds a ring. Rows stored before the winner's mark was
/// written read as verdicts the winner does not turn on.
fn parse_checks(text: &str, size: usize) -> Vec<DeadCheck> {
    text.split_whitespace()
        .filter_map(|pair| {
            let (p, note) = pair.split_once(':')?;
            let (note, turns_winner) = match note.strip_suffix(TURNS_MARK) {
                Some(n) => (n, true),
                None => (note, false),
            };
            Some(DeadCheck {
                point: Point::from_gtp(p, size, size).ok()?,
                note: note.to_owned(),
                turns_winner,
            })
        })
        .collect()
}

/// A table's refusal as the API answers it.
fn table_error(e: TableError) -> GameError {
    match e {
        TableError::Illegal(p) => GameError::rule(p.kind),
        TableError::LostOnTime(_) => GameError::conflict(
            "lost-on-time",
            "Your time ran out before this move: the game is lost on time (逾時裁定敗).",
        ),
        TableError::Game(ingo_rules::GameError::NotSuspended) => GameError::conflict(
            "not-suspended",
            "Dead stones are marked only while play is suspended, after two passes.",
        ),
        TableError::Game(ingo_rules::GameError::AlreadyEnded) => {
            GameError::rule(PlayErrorKind::GameOver)
        }
        TableError::Game(ingo_rules::GameError::NoStone(_)) => {
            GameError::unprocessable("no-stone", "There is no stone on a point marked dead.")
        }
        other => GameError::internal(other.to_string()),
    }
}

fn color_letter(c: Color) -> String {
    c.letter().to_string()
}

fn parse_color(s: &str) -> Result<Color, GameError> {
    match s {
        "B" => Ok(Color::Black),
        "W" => Ok(Color::White),
        _ => Err(GameError::internal(format!("stored colour {s:?}"))),
    }
}

/// The rules of a stored game: the preset with the stored komi.
pub fn rules_of(preset: &str, komi_halves: i64) -> Result<Rules, GameError> {
    let p: Preset = preset
        .parse()
        .map_err(|e: ingo_rules::ParsePresetError| GameError::internal(e.to_string()))?;
    let mut rules = p.rules();
    rules.komi = ingo_rules::Komi(komi_halves as i32);
    Ok(rules)
}

fn points_text(points: &[Point], size: usize) -> String {
    points
        .iter()
        .map(|p| p.to_gtp(size))
        .collect::<Vec<_>>()
        .join(" ")
}

fn parse_points(text: &str, size: usize) -> Result<Vec<Point>, GameError> {
    text.split_whitespace()
        .map(|s| {
            Point::from_gtp(s, size, size)
                .map_err(|_| GameError::unprocessable("bad-point", format!("{s:?} is not a point")))
        })
        .collect()
}

/// The table's settings of a stored game.
fn settings_of(row: &GameRow) -> Result<Settings, GameError> {
    let tc: TimeControl = row
        .time_control
        .parse()
        .map_err(|e| GameError::internal(format!("time control: {e}")))?;
    Ok(Settings {
        size: row.size as usize,
        rules: rules_of(&row.preset, row.komi_halves)?,
        handicap_passes: row.handicap_passes as u8,
        time_control: Some(tc),
    })
}

/// The clock's time of wall time `at_ms` in a game started at `started_ms`.
fn since_start(started_ms: i64, at_ms: i64) -> Duration {
    Duration::from_millis((at_ms - started_ms).max(0) as u64)
}

/// The table's log of a stored game's moves: the clock started at the game's start, then every
/// move at its commit time (never before the move it follows). Also returns the last move's
/// time, where the clocks stand.
fn move_events(
    row: &GameRow,
    moves: &[MoveRow],
    late: ByColor<Duration>,
) -> Result<(Vec<Event>, Duration), GameError> {
    let size = row.size as usize;
    let mut log = Vec::with_capacity(moves.len() + 3);
    // An event game's players charged for their lateness before the clock starts (第八條).
    for color in [Color::Black, Color::White] {
        let late = *late.get(color);
        if !late.is_zero() {
            log.push(Event::LateArrival { color, late });
        }
    }
    log.push(Event::StartClock { at: Duration::ZERO });
    let mut last = Duration::ZERO;
    for m in moves {
        let color = parse_color(&m.color)?;
        let mv = Move::from_gtp(&m.mv, size, size)
            .map_err(|e| GameError::internal(format!("stored move {}: {e}", m.move_number)))?;
        last = since_start(row.started_ms, m.at_ms).max(last);
        log.push(Event::Play {
            color,
            mv,
            at: Some(last),
        });
    }
    Ok((log, last))
}

/// What the stored state adds to the table that replayed the moves (`table`): the dead stones
/// proposed during a suspension and who accepted them, or an ending that is not a move
/// (resignation, time, agreement, an engine's fault) as the table's events.
fn state_events(row: &GameRow, moves: &[MoveRow], table: &Table) -> Result<Vec<Event>, GameError> {
    let s = &row.state;
    let size = row.size as usize;
    if table.phase() == Phase::Suspended && s.status == Phase::Suspended.as_str() {
        let mut log = vec![Event::ProposeDead {
            by: None,
            dead: parse_points(&s.dead_proposal, size)?,
        }];
        for (color, yes) in [
            (Color::Black, s.accepted_black),
            (Color::White, s.accepted_white),
        ] {
            if yes {
                log.push(Event::AcceptDead { color });
            }
        }
        return Ok(log);
    }
    if s.status != Phase::Ended.as_str() || table.phase() == Phase::Ended {
        return Ok(Vec::new());
    }
    let loser = match s.result.as_deref().and_then(|r| r.chars().next()) {
        Some('B') => Some(Color::White),
        Some('W') => Some(Color::Black),
        _ => None,
    };
    let reason = s.end_reason.as_deref().and_then(EndReason::parse);
    let end = match (reason, loser) {
        (Some(EndReason::Resignation), Some(color)) => vec![Event::Resign { color }],
        (Some(EndReason::Time), Some(color)) => {
            // The timer's loss: the table's own clock, looked at when the game ended, finds the
            // flag fall. A loss decided without it (the stored word) follows any look that
            // changed the clock without a flag fall, as it did when the game was played.
            let last = moves
                .last()
                .map_or(Duration::ZERO, |m| since_start(row.started_ms, m.at_ms));
            let at = s
                .ended_ms
                .map_or(last, |ms| since_start(row.started_ms, ms).max(last));
            let mut probe = table.clone();
            let logged = probe.events().len();
            match probe.check_time(at) {
                Ok(Some(_)) => vec![Event::CheckTime { at }],
                Ok(None) if probe.events().len() > logged => {
                    vec![Event::CheckTime { at }, Event::TimeLoss { color }]
                }
                _ => vec![Event::TimeLoss { color }],
            }
        }
        (Some(EndReason::Agreement), _) => {
            let dead = parse_points(s.dead.as_deref().unwrap_or(""), size)?;
            vec![
                Event::ProposeDead {
                    by: Some(Color::Black),
                    dead,
                },
                Event::AcceptDead {
                    color: Color::White,
                },
            ]
        }
        // An engine's failure (`crate::opponents::engine`): a hang is a loss on time, the rest
        // forfeits.
        (Some(r @ EndReason::Engine(_)), Some(color)) if r.on_time() => {
            vec![Event::TimeLoss { color }]
        }
        (
            Some(r @ (EndReason::Engine(_) | EndReason::Forfeit | EndReason::Absence)),
            Some(color),
        ) => {
            vec![Event::Forfeit {
                color,
                reason: r.as_str().to_owned(),
            }]
        }
        _ => {
            return Err(GameError::internal(format!(
                "stored end {:?} {:?} does not replay",
                s.end_reason, s.result
            )))
        }
    };
    Ok(end)
}

/// What a move request did.
#[derive(Debug)]
pub struct Applied {
    /// The new rows to commit (the move, and any handicap passes the server made for White).
    pub new_moves: Vec<MoveRow>,
}

impl LiveGame {
    /// A new game at its start, Black's clock running from `row.started_ms`.
    ///
    /// # Errors
    /// When the stored settings are not a game (bad size, preset or time control).
    pub fn new(row: GameRow, players: ByColor<Player>) -> Result<LiveGame, GameError> {
        LiveGame::replay(row, Vec::new(), players, None)
    }

    /// Rebuilds a game from its stored row and moves, the one way a stored game is rebuilt:
    /// what is stored is turned into the table's own event log (`move_events` and
    /// `state_events`: the clock's start, every move at its time as the module's clock policy
    /// says, then the stored ending or dead-stone step) and [`Table::replay`] replays it.
    ///
    /// # Errors
    /// When the stored game cannot be replayed (a broken invariant: moves are stored only after
    /// the rules accepted them), naming the stored move or ending that does not replay.
    pub fn replay(
        row: GameRow,
        moves: Vec<MoveRow>,
        players: ByColor<Player>,
        team: Option<Team>,
    ) -> Result<LiveGame, GameError> {
        LiveGame::replay_in_event(row, moves, players, team, None)
    }

    /// [`LiveGame::replay`] of a game that plays an event's pairing (`event`): its players'
    /// lateness is charged before its clock starts.
    ///
    /// # Errors
    /// As [`LiveGame::replay`].
    pub fn replay_in_event(
        row: GameRow,
        moves: Vec<MoveRow>,
        players: ByColor<Player>,
        team: Option<Team>,
        event: Option<EventSeat>,
    ) -> Result<LiveGame, GameError> {
        let settings = settings_of(&row)?;
        let late = event.map(|e| e.late).unwrap_or_default();
        let (move_log, _) = move_events(&row, &moves, late)?;
        // Events before the first move: the late arrivals and the clock's start.
        let before = move_log.len() - moves.len();
        let mut table = Table::replay(settings, &move_log).map_err(|e| match e {
            TableError::Event { index, error } if index >= before => GameError::internal(format!(
                "stored move {} does not replay: {error}",
                moves
                    .get(index - before)
                    .map_or(index as i64, |m| m.move_number)
            )),
            e => GameError::internal(e.to_string()),
        })?;
        for event in state_events(&row, &moves, &table)? {
            table
                .apply(&event)
                .map_err(|e| GameError::internal(format!("stored end does not replay: {e}")))?;
        }
        Ok(LiveGame {
            row,
            table,
            moves,
            players,
            team,
            // An event's games: no score estimate while they are played.
            estimate_allowed: event.is_none(),
            event,
            undo: None,
            discarded: false,
        })
    }

    /// The request to take back the last move, while it stands (the move asked about is still
    /// the last and the game in play).
    pub fn undo_request(&self) -> Option<&UndoRequest> {
        self.undo
            .as_ref()
            .filter(|u| self.phase() == Phase::Playing && u.move_number == self.moves.len() as i64)
    }

    /// Sets (or, `None`, forgets) the request to take back the last move.
    pub fn set_undo_request(&mut self, undo: Option<UndoRequest>) {
        self.undo = undo;
    }

    /// Checks that `user_id` may ask to take back their last move, and answers it: the number
    /// of the move to take back. An event's game has no undo (悔著 there is a forfeit).
    ///
    /// # Errors
    /// 403 for a non-player or an event's game; 409 when the game is not in play or the last
    /// move is not the user's own.
    pub fn check_undo_request(&self, user_id: i64) -> Result<i64, GameError> {
        let color = self
            .color_of(user_id)
            .ok_or_else(|| GameError::forbidden("not-a-player", "You do not play in this game."))?;
        if self.event.is_some() {
            return Err(GameError::forbidden(
                "undo-not-allowed",
                "An event's game takes no move back: 悔著 is a forfeit (article 8).",
            ));
        }
        if self.phase() != Phase::Playing {
            return Err(GameError::conflict(
                "not-playing",
                "The game is not in play.",
            ));
        }
        match self.moves.last() {
            Some(m) if m.color == color_letter(color) => Ok(m.move_number),
            _ => Err(GameError::conflict(
                "not-your-move",
                "Only your own last move can be taken back, before your opponent answers it.",
            )),
        }
    }

    /// While play is suspended, the verdicts to check of the server's judgement of the
    /// position (see [`propose_dead`]); none otherwise.
    pub fn dead_checks(&self) -> Vec<DeadCheck> {
        if self.phase() == Phase::Suspended {
            parse_checks(&self.row.state.dead_checks, self.size())
        } else {
            Vec::new()
        }
    }

    /// The event pairing this game plays, if it is an event's.
    pub fn event(&self) -> Option<&EventSeat> {
        self.event.as_ref()
    }

    /// Writes the ending the table reached by itself into the stored state: a player of an
    /// event game so late that twice the lateness used up the basic time is absent (缺席) and
    /// has forfeited before the first move. Whether there was such an ending to write.
    pub fn mark_ended(&mut self, now_ms: i64) -> bool {
        if self.table.phase() != Phase::Ended || self.row.state.result.is_some() {
            return false;
        }
        self.finish(now_ms);
        if self.event.is_some()
            && matches!(self.table.game().end(), Some(GameEnd::Forfeit(..)))
            && self.moves.is_empty()
        {
            self.row.state.end_reason = Some(EndReason::Absence.as_str().to_owned());
        }
        true
    }

    /// The referee's decision ends the game: `color` forfeits (an event's director recorded a
    /// forfeit for 悔著, 抗命…; the event keeps the reason, the game its end `forfeit`).
    ///
    /// # Errors
    /// 409 when the game has ended.
    pub fn referee_forfeit(&mut self, color: Color, now_ms: i64) -> Result<(), GameError> {
        if self.table.phase() == Phase::Ended {
            return Err(GameError::conflict("game-over", "The game has ended."));
        }
        self.table
            .forfeit(color, EndReason::Forfeit.as_str())
            .map_err(table_error)?;
        self.finish(now_ms);
        Ok(())
    }

    /// Whether a score estimate may be asked for while the game goes on.
    pub fn estimate_allowed(&self) -> bool {
        self.estimate_allowed
    }

    /// Allows or forbids score estimates during play (an event's agreement may forbid them).
    pub fn set_estimate_allowed(&mut self, allowed: bool) {
        self.estimate_allowed = allowed;
    }

    /// The rules' game.
    pub fn game(&self) -> &Game {
        self.table.game()
    }

    /// The game's id.
    pub fn id(&self) -> i64 {
        self.row.id
    }

    /// The stored row: the game's settings and players. Its `state` is what was loaded and
    /// written by the methods here except the phase, which the table keeps: read
    /// [`LiveGame::state`].
    pub fn row(&self) -> &GameRow {
        &self.row
    }

    /// The version of the game this copy is: how many commits made it ([`GameRow::version`]).
    /// A change is committed on this version, and only if the store still has it.
    pub fn version(&self) -> i64 {
        self.row.version
    }

    /// Marks this copy as holding a change that was not committed (the commit failed or
    /// conflicted, or the request judging it stopped before it): what it holds is not what is
    /// stored, so nothing may be judged on it or answered from it ([`LiveGame::is_discarded`]).
    pub fn discard(&mut self) {
        self.discarded = true;
    }

    /// Whether [`LiveGame::discard`] was called: a request that waited for this copy's lock
    /// reads the game from the store instead.
    pub fn is_discarded(&self) -> bool {
        self.discarded
    }

    /// Records that this copy's change was committed: the store has the next version now.
    pub fn committed(&mut self) {
        self.row.version += 1;
    }

    /// The table: rules, clock (in time since the start), phases, dead stones, count.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Every move, as stored.
    pub fn moves(&self) -> &[MoveRow] {
        &self.moves
    }

    /// The players (in a team game, each side's first seat).
    pub fn players(&self) -> &ByColor<Player> {
        &self.players
    }

    /// The sides' members in a pair or consultation game; `None` for one player a side.
    pub fn team(&self) -> Option<&Team> {
        self.team.as_ref()
    }

    /// Where the game stands: play, suspension (two passes), or its end.
    pub fn phase(&self) -> Phase {
        self.table.phase()
    }

    /// The colour to move.
    pub fn to_move(&self) -> Color {
        self.table.to_move()
    }

    /// Board size.
    pub fn size(&self) -> usize {
        self.row.size as usize
    }

    /// The clock's time for a wall time in ms.
    pub fn clock_time(&self, at_ms: i64) -> Duration {
        since_start(self.row.started_ms, at_ms)
    }

    fn clock_last(&self) -> Duration {
        self.moves
            .last()
            .map_or(Duration::ZERO, |m| self.clock_time(m.at_ms))
    }

    /// The clock's time at wall time `now_ms` (never before the last move).
    pub fn now(&self, now_ms: i64) -> Duration {
        self.clock_time(now_ms).max(self.clock_last())
    }

    /// The colour `user_id` plays, if any (in a team game: the side they are a member of).
    pub fn color_of(&self, user_id: i64) -> Option<Color> {
        if let Some(team) = &self.team {
            return [Color::Black, Color::White]
                .into_iter()
                .find(|&c| team.members.get(c).iter().any(|p| p.id == user_id));
        }
        if self.players.black.id == user_id {
            Some(Color::Black)
        } else if self.players.white.id == user_id {
            Some(Color::White)
        } else {
            None
        }
    }

    /// `c`'s penalty points so far.
    pub fn penalty_points(&self, c: Color) -> u32 {
        self.table
            .clock()
            .map_or(0, |clock| clock.penalty_points(c))
    }

    /// Whether the player to move has run out of time at wall time `now_ms`; records the loss.
    /// Returns the loser.
    pub fn check_time(&mut self, now_ms: i64) -> Option<Color> {
        if self.table.phase() == Phase::Ended {
            return None;
        }
        let loser = self.table.check_time(self.now(now_ms)).ok().flatten()?;
        self.finish(now_ms);
        Some(loser)
    }

    /// The wall time (ms) at which the running clock falls, if one runs.
    pub fn deadline_ms(&self) -> Option<i64> {
        let clock = self.table.clock()?;
        let d = clock.deadline(clock.running()?)?;
        Some(self.row.started_ms + d.as_millis() as i64 + 1)
    }

    /// The person whose turn it is against a program (the built-in player or an engine), in a
    /// game of one player a side that has not ended.
    fn person_against_a_program(&self) -> Option<Color> {
        if self.team.is_some() || self.phase() == Phase::Ended {
            return None;
        }
        let c = self.to_move();
        let person = self.players.get(c).program.is_none();
        let program = self.players.get(c.opponent()).program.is_some();
        (person && program).then_some(c)
    }

    /// The wall time (ms) at which the person to move against a program is absent, after
    /// `limit_ms` without a move since the last one (or the start); `None` when nobody can be.
    pub fn absence_deadline_ms(&self, limit_ms: i64) -> Option<i64> {
        self.absent_at(limit_ms).map(|(_, at)| at)
    }

    /// The person to move against a program and when they are absent, after `limit_ms`.
    fn absent_at(&self, limit_ms: i64) -> Option<(Color, i64)> {
        if limit_ms <= 0 {
            return None;
        }
        let color = self.person_against_a_program()?;
        let since = self.moves.last().map_or(self.row.started_ms, |m| m.at_ms);
        Some((color, since.saturating_add(limit_ms)))
    }

    /// Ends the game by the absence (缺席) of the person to move against a program when, at
    /// wall time `now_ms`, `limit_ms` have passed without a move: a forfeit (`W+F` or `B+F`,
    /// end reason `absence`). Returns the absent player.
    ///
    /// # Errors
    /// 500 if the table refuses the ending (a bug).
    pub fn check_absence(
        &mut self,
        now_ms: i64,
        limit_ms: i64,
    ) -> Result<Option<Color>, GameError> {
        let Some((color, deadline)) = self.absent_at(limit_ms) else {
            return Ok(None);
        };
        if now_ms < deadline {
            return Ok(None);
        }
        let reason = EndReason::Absence;
        self.table
            .forfeit(color, reason.as_str())
            .map_err(table_error)?;
        self.finish(now_ms);
        self.row.state.end_reason = Some(reason.as_str().to_owned());
        Ok(Some(color))
    }

    /// A move by `user_id` at wall time `now_ms`. `number`, when given, is the number the
    /// client believes the move gets: a stale one is refused, so a retried request is not
    /// applied twice.
    ///
    /// # Errors
    /// 403 when the user does not play here; 409 out of turn, after the game's end, on a stale
    /// move number or a loss on time (the game has then ended: commit it); 422 with the rules'
    /// reason for an illegal move.
    pub fn play(
        &mut self,
        user_id: i64,
        mv_text: &str,
        number: Option<i64>,
        now_ms: i64,
    ) -> Result<Applied, GameError> {
        let color = self
            .color_of(user_id)
            .ok_or_else(|| GameError::forbidden("not-a-player", "You do not play in this game."))?;
        let size = self.size();
        let mv = Move::from_gtp(mv_text.trim(), size, size).map_err(|_| {
            GameError::unprocessable(
                "bad-move",
                format!("{mv_text:?} is not a point of this {size}×{size} board or \"pass\"."),
            )
        })?;
        if self.table.phase() == Phase::Ended {
            return Err(GameError::conflict(
                "game-over",
                reason_message(PlayErrorKind::GameOver),
            ));
        }
        if let Some(n) = number {
            let next = self.moves.len() as i64 + 1;
            if n != next {
                return Err(GameError::conflict(
                    "stale-move-number",
                    format!("This game's next move is number {next}, not {n}."),
                ));
            }
        }
        if self.table.to_move() != color {
            return Err(GameError::conflict(
                "out-of-turn",
                reason_message(PlayErrorKind::OutOfTurn),
            ));
        }
        self.check_partner_turn(user_id, color)?;
        let was_suspended = self.table.phase() == Phase::Suspended;
        let t = self.now(now_ms);
        if let Err(e) = self.table.play(color, mv, Some(t)) {
            if self.table.phase() == Phase::Ended {
                // Lost on time before the move: the ending is the caller's to commit.
                self.finish(now_ms);
            }
            return Err(table_error(e));
        }
        let mut new_moves = vec![self.push_move(color, mv, now_ms)];
        // White's handicap passes ("N先減1即為所讓手數") are made by the server at once.
        while self.table.handicap_pass_due() {
            match self.table.pass_handicap_if_due(Some(t)) {
                Ok(true) => new_moves.push(self.push_move(Color::White, Move::Pass, now_ms)),
                _ => break,
            }
        }
        self.sync_penalties();
        match self.table.phase() {
            Phase::Playing => {
                if was_suspended {
                    self.row.state.dead_proposal.clear();
                    self.row.state.dead_checks.clear();
                    self.row.state.accepted_black = false;
                    self.row.state.accepted_white = false;
                }
            }
            Phase::Suspended => {
                let (proposal, checks) = propose_dead(self.table.game());
                self.table
                    .propose_dead(None, &proposal)
                    .map_err(table_error)?;
                self.row.state.dead_proposal = points_text(&proposal, size);
                self.row.state.dead_checks = checks_text(&checks, size);
                self.row.state.accepted_black = false;
                self.row.state.accepted_white = false;
            }
            Phase::Ended => self.finish(now_ms),
        }
        Ok(Applied { new_moves })
    }

    fn sync_penalties(&mut self) {
        self.row.state.penalty_black = i64::from(self.penalty_points(Color::Black));
        self.row.state.penalty_white = i64::from(self.penalty_points(Color::White));
    }

    fn push_move(&mut self, color: Color, mv: Move, at_ms: i64) -> MoveRow {
        let row = MoveRow {
            move_number: self.moves.len() as i64 + 1,
            color: color_letter(color),
            mv: mv.to_gtp(self.size()),
            at_ms,
        };
        self.moves.push(row.clone());
        row
    }

    /// Writes the ending into the row state.
    fn finish(&mut self, now_ms: i64) {
        self.sync_penalties();
        let size = self.size();
        let score = self.table.score().map(|s| s.result_string());
        let s = &mut self.row.state;
        s.ended_ms = Some(now_ms);
        let (reason, result) = match self.table.game().end() {
            Some(GameEnd::Passes) => (EndReason::Passes, score),
            Some(GameEnd::Agreement(dead)) => {
                s.dead = Some(points_text(dead, size));
                (EndReason::Agreement, score)
            }
            Some(GameEnd::Resignation(c)) => (
                EndReason::Resignation,
                Some(format!("{}+R", c.opponent().letter())),
            ),
            Some(GameEnd::Time(c)) => (
                EndReason::Time,
                Some(format!("{}+T", c.opponent().letter())),
            ),
            Some(GameEnd::Forfeit(c, _)) => (
                EndReason::Forfeit,
                Some(format!("{}+F", c.opponent().letter())),
            ),
            None => return,
        };
        s.end_reason = Some(reason.as_str().to_owned());
        s.result = result;
    }

    /// `user_id` resigns.
    ///
    /// # Errors
    /// 403 for a non-player, 409 after the end.
    pub fn resign(&mut self, user_id: i64, now_ms: i64) -> Result<(), GameError> {
        let color = self
            .color_of(user_id)
            .ok_or_else(|| GameError::forbidden("not-a-player", "You do not play in this game."))?;
        if self.check_time(now_ms).is_some() {
            return Ok(());
        }
        self.table.resign(color).map_err(table_error)?;
        self.finish(now_ms);
        Ok(())
    }

    /// The engine playing `color` failed ([`crate::opponents::engine`]) by `fault`: it loses
    /// as the referee's failure policy says, on time for a hang (`B+T`), by forfeit otherwise
    /// (`B+F`), with [`EndReason::Engine`] as the stored end reason. Nothing changes once the
    /// game has ended; a flag that fell first stands.
    ///
    /// # Errors
    /// 500 if the table refuses the ending (a bug).
    pub fn engine_failed(
        &mut self,
        color: Color,
        fault: EngineFault,
        now_ms: i64,
    ) -> Result<(), GameError> {
        if self.table.phase() == Phase::Ended || self.check_time(now_ms).is_some() {
            return Ok(());
        }
        let reason = EndReason::Engine(fault);
        let ended = if reason.on_time() {
            self.table.lose_on_time(color)
        } else {
            self.table.forfeit(color, reason.as_str())
        };
        ended.map_err(table_error)?;
        self.finish(now_ms);
        self.row.state.end_reason = Some(reason.as_str().to_owned());
        Ok(())
    }

    fn suspended_player(&self, user_id: i64) -> Result<Color, GameError> {
        let color = self
            .color_of(user_id)
            .ok_or_else(|| GameError::forbidden("not-a-player", "You do not play in this game."))?;
        if self.table.phase() != Phase::Suspended {
            return Err(table_error(TableError::Game(
                ingo_rules::GameError::NotSuspended,
            )));
        }
        Ok(color)
    }

    /// `user_id` proposes the dead stones: every string touching one of `points`. The proposer
    /// accepts their own proposal; the opponent has to accept it too.
    ///
    /// # Errors
    /// 403 for a non-player, 409 when play is not suspended, 422 for a point without a stone.
    pub fn propose(&mut self, user_id: i64, points: &[String]) -> Result<(), GameError> {
        let color = self.suspended_player(user_id)?;
        let size = self.size();
        let board = self.table.game().board();
        let mut dead: Vec<Point> = Vec::new();
        for text in points {
            let p = Point::from_gtp(text.trim(), size, size).map_err(|_| {
                GameError::unprocessable("bad-point", format!("{text:?} is not a point"))
            })?;
            if board.color_at(p).is_none() {
                return Err(GameError::unprocessable(
                    "no-stone",
                    format!("There is no stone on {}.", p.to_gtp(size)),
                ));
            }
            for s in board.string_stones(p) {
                if !dead.contains(&s) {
                    dead.push(s);
                }
            }
        }
        dead.sort_by_key(|p| (p.row(), p.col()));
        self.table
            .propose_dead(Some(color), &dead)
            .map_err(table_error)?;
        self.row.state.dead_proposal = points_text(&dead, size);
        self.row.state.accepted_black = color == Color::Black;
        self.row.state.accepted_white = color == Color::White;
        Ok(())
    }

    /// `user_id` accepts the proposal, which must be the one they saw (`expected`); when both
    /// have accepted, the game ends and is counted with those stones off the board.
    ///
    /// # Errors
    /// 403 for a non-player, 409 when play is not suspended or the proposal changed.
    pub fn accept(
        &mut self,
        user_id: i64,
        expected: &[String],
        now_ms: i64,
    ) -> Result<(), GameError> {
        let color = self.suspended_player(user_id)?;
        let size = self.size();
        let mut want = Vec::new();
        for t in expected {
            want.extend(parse_points(t, size)?);
        }
        let mut have = parse_points(&self.row.state.dead_proposal, size)?;
        want.sort_by_key(|p| (p.row(), p.col()));
        have.sort_by_key(|p| (p.row(), p.col()));
        if want != have {
            return Err(GameError::conflict(
                "proposal-changed",
                "The proposal of dead stones has changed; look at it again before accepting.",
            ));
        }
        self.table.accept_dead(color).map_err(table_error)?;
        match color {
            Color::Black => self.row.state.accepted_black = true,
            Color::White => self.row.state.accepted_white = true,
        }
        if self.table.phase() == Phase::Ended {
            self.finish(now_ms);
        }
        Ok(())
    }

    /// The record as SGF (`RU[GOE]`, TM/OT and time left per move, penalty points, dead
    /// stones), written by the table.
    pub fn sgf(&self) -> String {
        // A team game lists every member of a side in seat order: PB[A & B].
        let (black, black_rank) = self.side_names(Color::Black);
        let (white, white_rank) = self.side_names(Color::White);
        let info = ingo_sgf::GameInfo {
            players: ByColor {
                black: Some(black),
                white: Some(white),
            },
            ranks: ByColor {
                black: Some(black_rank),
                white: Some(white_rank),
            },
            place: Some("ingo serve".into()),
            ..ingo_sgf::GameInfo::default()
        };
        self.table.to_sgf(&info)
    }

    /// The stones move `number` (1 for the first) removed from the board: the opponent's it
    /// captured, or the player's own block on a suicide.
    pub fn removed_by(&self, number: i64) -> Vec<Point> {
        let history = self.table.game().history();
        let from_end = self.moves.len() as i64 - number;
        match usize::try_from(from_end) {
            Ok(k) if number >= 1 => history
                .rev()
                .nth(k)
                .map_or_else(Vec::new, |p| p.removed.to_vec()),
            _ => Vec::new(),
        }
    }

    /// The stones each colour has captured: Black's count is White's stones removed.
    pub fn captures(&self) -> ByColor<usize> {
        let game = self.table.game();
        ByColor {
            black: game.stones_lost(Color::White),
            white: game.stones_lost(Color::Black),
        }
    }

    /// The state to store: the row's, with the phase read from the table (the one place the
    /// phase is kept).
    pub fn state(&self) -> GameState {
        let mut s = self.row.state.clone();
        s.status = self.table.phase().as_str().to_owned();
        s
    }
}

/// Pair go and consultation: who may act for a side, and how a team game is shown.
impl LiveGame {
    /// The turns `color` has had: its moves, passes included, less White's handicap passes
    /// (the server makes those; they are nobody's turn).
    pub fn turns_of(&self, color: Color) -> usize {
        let letter = color_letter(color);
        let made = self.moves.iter().filter(|m| m.color == letter).count();
        match color {
            Color::Black => made,
            Color::White => made.saturating_sub(self.row.handicap_passes.max(0) as usize),
        }
    }

    /// In pair go, the member of `color` whose turn it is when `color` is next to move: seat
    /// order, one turn each (B1 W1 B2 W2 …). `None` in other games.
    pub fn member_to_move(&self, color: Color) -> Option<&Player> {
        let team = self.team.as_ref()?;
        if team.kind != TeamKind::Pair {
            return None;
        }
        let members = team.members.get(color);
        if members.is_empty() {
            return None;
        }
        members.get(self.turns_of(color) % members.len())
    }

    /// Refuses a move by a member of the side to move whose partner's turn it is (pair go).
    fn check_partner_turn(&self, user_id: i64, color: Color) -> Result<(), GameError> {
        match self.member_to_move(color) {
            Some(p) if p.id != user_id => Err(GameError::conflict(
                "partner-turn",
                format!(
                    "In pair go (聯棋) partners move in turn: this move is {}'s.",
                    p.name
                ),
            )),
            _ => Ok(()),
        }
    }

    /// A side's names as a record shows them: `A & B` in a team game.
    pub fn side_names(&self, color: Color) -> (String, String) {
        match &self.team {
            Some(team) => {
                let members = team.members.get(color);
                let join =
                    |f: fn(&Player) -> &str| members.iter().map(f).collect::<Vec<_>>().join(" & ");
                (join(|p| &p.name), join(|p| &p.rank))
            }
            None => {
                let p = self.players.get(color);
                (p.name.clone(), p.rank.clone())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The verdicts to check are stored as text and read back as they were, the winner's mark
    /// with them; a pair that does not read (no colon, a point off the board) is left out, the
    /// others kept in order; a row stored without marks reads as verdicts without them.
    #[test]
    fn checks_are_stored_and_read_back() {
        let check = |s: &str, note: &str, turns_winner: bool| DeadCheck {
            point: Point::from_gtp(s, 9, 9).expect("a point"),
            note: note.to_owned(),
            turns_winner,
        };
        let checks = vec![check("C7", "46%", false), check("G3", "75%", true)];
        let text = checks_text(&checks, 9);
        assert_eq!(text, "C7:46% G3:75%!");
        assert_eq!(parse_checks(&text, 9), checks);
        assert_eq!(
            parse_checks("C7:46% Z99:R junk G3:75%!", 9),
            checks,
            "malformed pairs left out"
        );
        assert_eq!(
            parse_checks("C7:46% G3:R", 9),
            vec![check("C7", "46%", false), check("G3", "R", false)],
            "an older row, without marks"
        );
        assert!(parse_checks("", 9).is_empty());
    }

    /// The proposal of the five-stone 9×9 game the web board's tests play (E5, C7, G3, C3, G7,
    /// two passes): two verdicts to check, and the winner turns on exactly those that
    /// `Judgement::winner_turns_on` names, here G3 alone (Black wins by 3 with it alive).
    #[test]
    fn the_proposal_marks_the_verdicts_the_winner_turns_on() {
        let setup = ingo_rules::Setup {
            board: ingo_rules::Board::new(9).expect("9×9"),
            to_move: Color::Black,
            handicap_passes: 0,
        };
        let mut game = Game::new(setup, Rules::ing());
        for m in ["E5", "C7", "G3", "C3", "G7"] {
            let p = Point::from_gtp(m, 9, 9).expect("a point");
            game.play(Move::Play(p)).expect("legal");
        }
        game.play(Move::Pass).expect("a pass");
        game.play(Move::Pass).expect("a pass");
        let (_, checks) = propose_dead(&game);
        let config = ingo_player::endgame::EndgameConfig::default();
        let j = ingo_player::endgame::judge_end(&game, &config);
        let turns = j.winner_turns_on(&game, &config);
        assert_eq!(checks.len(), 2, "{checks:?}");
        let named: Vec<String> = checks
            .iter()
            .filter(|c| c.turns_winner)
            .map(|c| c.point.to_gtp(9))
            .collect();
        assert_eq!(named, vec!["G3".to_owned()], "{checks:?}");
        assert_eq!(
            turns,
            checks
                .iter()
                .filter(|c| c.turns_winner)
                .map(|c| c.point)
                .collect::<Vec<_>>()
        );
    }
}
