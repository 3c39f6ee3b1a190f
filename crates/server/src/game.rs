//! A game as the server keeps it: the rules' [`Game`] (the only legality authority), the
//! Ing clock fed the server's own times, the dead-stone step and the stored rows.
//!
//! This is the one module that holds game state, so that it can later be rebuilt on the
//! engine front's table without touching the routes.
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

use ingo_clock::{Clock, Side, TimeControl};
use ingo_rules::{
    ByColor, Color, Game, GameEnd, Move, Phase, PlayErrorKind, Point, Preset, Rules, Setup,
};
use ingo_store::server::{GameRow, GameState, MoveRow};
use serde_json::{json, Value};

use crate::error::ApiError;

/// A user as a game shows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// User id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Declared rank.
    pub rank: String,
}

/// A game in memory.
#[derive(Debug)]
pub struct LiveGame {
    /// The stored row, its state kept current.
    pub row: GameRow,
    /// The rules' game.
    pub game: Game,
    /// Both clocks, in time since `row.started_ms`.
    pub clock: Clock,
    /// Every move, as stored.
    pub moves: Vec<MoveRow>,
    /// The players.
    pub players: ByColor<Player>,
}

/// The sentence that explains a refusal to a player.
pub fn reason_message(kind: PlayErrorKind) -> &'static str {
    match kind {
        PlayErrorKind::Occupied => "There is already a stone on that point.",
        PlayErrorKind::OffBoard => "That point is not on the board.",
        PlayErrorKind::Suicide => {
            "A single stone may not take its own last liberty (顆子自盡 is forbidden); \
             only a block of several stones may be sacrificed."
        }
        PlayErrorKind::HotStone => {
            "That stone is hot (熱子): a ko stone just captured may not be retaken at once. \
             The ko may be retaken after any other move, a pass included \
             (凡提取熱子必須間隔一實手或虛手)."
        }
        PlayErrorKind::DoubleHot => {
            "Double hot stones (雙熱子, eternal life): the side that captured first may not \
             retake and so repeat the cycle; play elsewhere or pass."
        }
        PlayErrorKind::TwinHot => {
            "Twin hot stones (孿熱子, triple ko): a capture in another ko of the cycle is not \
             allowed now; play elsewhere or pass."
        }
        PlayErrorKind::Disturbing => {
            "Disturbing (攪): after the first cycle the disturbing side may not capture again \
             and repeat the position."
        }
        PlayErrorKind::Cycle => {
            "This play would repeat a completed cycle of the game, which Ing's rules forbid."
        }
        PlayErrorKind::Superko => "This play would repeat an earlier position (superko).",
        PlayErrorKind::GameOver => "The game is over.",
        PlayErrorKind::OutOfTurn => "It is not your turn.",
        _ => "This move is not allowed by the rules.",
    }
}

/// The dead stones the server proposes when play is suspended.
///
/// Every stone alive, until the referee-grade end-of-game judgement lands: the players mark
/// what is dead, or resume play to prove it on the board.
pub fn propose_dead(_game: &Game) -> Vec<Point> {
    Vec::new()
}

fn side(c: Color) -> Side {
    match c {
        Color::Black => Side::Black,
        Color::White => Side::White,
    }
}

fn color_letter(c: Color) -> String {
    c.letter().to_string()
}

fn parse_color(s: &str) -> Result<Color, ApiError> {
    match s {
        "B" => Ok(Color::Black),
        "W" => Ok(Color::White),
        _ => Err(ApiError::internal(format!("stored colour {s:?}"))),
    }
}

/// The rules of a stored game: the preset with the stored komi.
pub fn rules_of(preset: &str, komi_halves: i64) -> Result<Rules, ApiError> {
    let p: Preset = preset
        .parse()
        .map_err(|e: ingo_rules::ParsePresetError| ApiError::internal(e.to_string()))?;
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

fn parse_points(text: &str, size: usize) -> Result<Vec<Point>, ApiError> {
    text.split_whitespace()
        .map(|s| {
            Point::from_gtp(s, size, size)
                .map_err(|_| ApiError::unprocessable("bad-point", format!("{s:?} is not a point")))
        })
        .collect()
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
    pub fn new(row: GameRow, players: ByColor<Player>) -> Result<LiveGame, ApiError> {
        LiveGame::replay(row, Vec::new(), players)
    }

    /// Rebuilds a game from its stored row and moves: the rules replay every move, the clock
    /// is pressed at every move's time (see the module's clock policy).
    ///
    /// # Errors
    /// When the stored game cannot be replayed (a broken invariant: moves are stored only after
    /// the rules accepted them).
    pub fn replay(
        row: GameRow,
        moves: Vec<MoveRow>,
        players: ByColor<Player>,
    ) -> Result<LiveGame, ApiError> {
        let size = row.size as usize;
        let mut setup =
            Setup::empty(size).map_err(|e| ApiError::internal(format!("board size: {e}")))?;
        setup.handicap_passes = row.handicap_passes as u8;
        let rules = rules_of(&row.preset, row.komi_halves)?;
        let tc: TimeControl = row
            .time_control
            .parse()
            .map_err(|e| ApiError::internal(format!("time control: {e}")))?;
        let mut clock = Clock::new(tc).map_err(|e| ApiError::internal(e.to_string()))?;
        clock
            .start(Side::Black, Duration::ZERO)
            .map_err(|e| ApiError::internal(e.to_string()))?;
        let game = Game::with_room_for(setup, rules, 64);
        let mut live = LiveGame {
            row,
            game,
            clock,
            moves: Vec::new(),
            players,
        };
        for m in moves {
            let color = parse_color(&m.color)?;
            let mv = Move::from_gtp(&m.mv, size, size)
                .map_err(|e| ApiError::internal(format!("stored move: {e}")))?;
            let t = live.clock_time(m.at_ms);
            live.apply(color, mv, t)
                .map_err(|e| ApiError::internal(format!("stored move {}: {e:?}", m.move_number)))?;
            live.moves.push(m);
        }
        live.sync_penalties();
        if live.row.state.status == "ended" {
            if let Some(running) = live.clock.running() {
                let t = live.row.state.ended_ms.map_or(live.clock_last(), |ms| {
                    live.clock_time(ms).max(live.clock_last())
                });
                let _ = live.clock.stop(running, t);
            }
            live.restore_end()?;
        }
        Ok(live)
    }

    /// Re-applies a stored ending that is not a move (resignation, time, agreement).
    fn restore_end(&mut self) -> Result<(), ApiError> {
        if self.game.phase() == Phase::Ended {
            return Ok(());
        }
        let s = &self.row.state;
        let loser = |r: &Option<String>| -> Option<Color> {
            match r.as_deref()?.chars().next()? {
                'B' => Some(Color::White),
                'W' => Some(Color::Black),
                _ => None,
            }
        };
        let end = match s.end_reason.as_deref() {
            Some("resignation") => loser(&s.result).map(|c| self.game.resign(c)),
            Some("time") => loser(&s.result).map(|c| self.game.lose_on_time(c)),
            Some("agreement") => {
                let dead = parse_points(s.dead.as_deref().unwrap_or(""), self.size())?;
                Some(self.game.agree_dead(&dead))
            }
            _ => None,
        };
        match end {
            Some(Ok(())) => Ok(()),
            _ => Err(ApiError::internal(format!(
                "stored end {:?} {:?} does not replay",
                s.end_reason, s.result
            ))),
        }
    }

    /// Board size.
    pub fn size(&self) -> usize {
        self.row.size as usize
    }

    /// The clock's time for a wall time in ms.
    pub fn clock_time(&self, at_ms: i64) -> Duration {
        Duration::from_millis((at_ms - self.row.started_ms).max(0) as u64)
    }

    fn clock_last(&self) -> Duration {
        self.moves
            .last()
            .map_or(Duration::ZERO, |m| self.clock_time(m.at_ms))
    }

    /// The colour `user_id` plays, if any.
    pub fn color_of(&self, user_id: i64) -> Option<Color> {
        if self.players.black.id == user_id {
            Some(Color::Black)
        } else if self.players.white.id == user_id {
            Some(Color::White)
        } else {
            None
        }
    }

    fn sync_penalties(&mut self) {
        for c in [Color::Black, Color::White] {
            let p = self.clock.penalty_points(side(c)) as i32;
            self.game.set_penalty(c, p);
        }
        self.row.state.penalty_black = i64::from(self.game.penalties().black);
        self.row.state.penalty_white = i64::from(self.game.penalties().white);
    }

    /// Plays one move for `color` at clock time `t`: the rules decide; the clock is stopped
    /// for the mover and started for whoever is to move next while play goes on.
    fn apply(&mut self, color: Color, mv: Move, t: Duration) -> Result<(), PlayErrorKind> {
        let t = t.max(self.clock_last());
        let was_suspended = self.game.phase() == Phase::Suspended;
        self.game.play_as(color, mv).map_err(|e| e.kind)?;
        if was_suspended {
            // Resuming play: the suspension was free, the resuming move takes no time.
            let _ = self.clock.start(side(color), t);
        }
        let _ = self.clock.stop(side(color), t);
        if self.game.phase() == Phase::Playing {
            let _ = self.clock.start(side(self.game.to_move()), t);
        }
        Ok(())
    }

    /// Whether the player to move has run out of time at wall time `now_ms`; records the loss.
    /// Returns the loser.
    pub fn check_time(&mut self, now_ms: i64) -> Option<Color> {
        if self.game.phase() == Phase::Ended {
            return None;
        }
        let t = self.clock_time(now_ms).max(self.clock_last());
        let flagged = self.clock.check(t).ok().flatten()?;
        let color = match flagged {
            Side::Black => Color::Black,
            Side::White => Color::White,
        };
        self.sync_penalties();
        let _ = self.game.lose_on_time(color);
        self.finish(now_ms);
        Some(color)
    }

    /// The wall time (ms) at which the running clock falls, if one runs.
    pub fn deadline_ms(&self) -> Option<i64> {
        let running = self.clock.running()?;
        let d = self.clock.deadline(running)?;
        Some(self.row.started_ms + d.as_millis() as i64 + 1)
    }

    /// A move by `user_id` at wall time `now_ms`. `number`, when given, is the number the
    /// client believes the move gets: a stale one is refused, so a retried request is not
    /// applied twice.
    ///
    /// # Errors
    /// 403 when the user does not play here; 409 out of turn, after the game's end, on a stale
    /// move number or a loss on time; 422 with the rules' reason for an illegal move.
    pub fn play(
        &mut self,
        user_id: i64,
        mv_text: &str,
        number: Option<i64>,
        now_ms: i64,
    ) -> Result<Applied, ApiError> {
        let color = self
            .color_of(user_id)
            .ok_or_else(|| ApiError::forbidden("not-a-player", "You do not play in this game."))?;
        let size = self.size();
        let mv = Move::from_gtp(mv_text.trim(), size, size).map_err(|_| {
            ApiError::unprocessable(
                "bad-move",
                format!("{mv_text:?} is not a point of this {size}×{size} board or \"pass\"."),
            )
        })?;
        if self.game.phase() == Phase::Ended {
            return Err(ApiError::conflict(
                "game-over",
                reason_message(PlayErrorKind::GameOver),
            ));
        }
        if let Some(n) = number {
            let next = self.moves.len() as i64 + 1;
            if n != next {
                return Err(ApiError::conflict(
                    "stale-move-number",
                    format!("This game's next move is number {next}, not {n}."),
                ));
            }
        }
        if self.game.to_move() != color {
            return Err(ApiError::conflict(
                "out-of-turn",
                reason_message(PlayErrorKind::OutOfTurn),
            ));
        }
        if self.check_time(now_ms).is_some() {
            return Err(ApiError::conflict(
                "lost-on-time",
                "Your time ran out before this move: the game is lost on time (逾時裁定敗).",
            ));
        }
        let t = self.clock_time(now_ms);
        let was_suspended = self.game.phase() == Phase::Suspended;
        self.apply(color, mv, t).map_err(|kind| {
            let status = if kind == PlayErrorKind::OutOfTurn || kind == PlayErrorKind::GameOver {
                409
            } else {
                422
            };
            ApiError::rule(status, kind.code(), reason_message(kind))
        })?;
        let mut new_moves = vec![self.push_move(color, mv, now_ms)];
        // White's handicap passes ("N先減1即為所讓手數") are made by the server at once.
        while self.game.handicap_pass_due() {
            let t = self.clock_time(now_ms);
            if self.apply(Color::White, Move::Pass, t).is_err() {
                break;
            }
            new_moves.push(self.push_move(Color::White, Move::Pass, now_ms));
        }
        self.sync_penalties();
        match self.game.phase() {
            Phase::Playing => {
                self.row.state.status = "playing".into();
                if was_suspended {
                    self.clear_proposal();
                }
            }
            Phase::Suspended => {
                self.row.state.status = "suspended".into();
                let proposal = propose_dead(&self.game);
                self.row.state.dead_proposal = points_text(&proposal, size);
                self.row.state.accepted_black = false;
                self.row.state.accepted_white = false;
            }
            Phase::Ended => self.finish(now_ms),
        }
        Ok(Applied { new_moves })
    }

    fn clear_proposal(&mut self) {
        self.row.state.dead_proposal.clear();
        self.row.state.accepted_black = false;
        self.row.state.accepted_white = false;
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
        if let Some(running) = self.clock.running() {
            let t = self.clock_time(now_ms).max(self.clock_last());
            let _ = self.clock.stop(running, t);
        }
        self.sync_penalties();
        let s = &mut self.row.state;
        s.status = "ended".into();
        s.ended_ms = Some(now_ms);
        let (reason, result) = match self.game.end() {
            Some(GameEnd::Passes) => ("passes", self.game.score().map(|s| s.result_string())),
            Some(GameEnd::Agreement(dead)) => {
                s.dead = Some(points_text(dead, self.row.size as usize));
                ("agreement", self.game.score().map(|s| s.result_string()))
            }
            Some(GameEnd::Resignation(c)) => {
                ("resignation", Some(format!("{}+R", c.opponent().letter())))
            }
            Some(GameEnd::Time(c)) => ("time", Some(format!("{}+T", c.opponent().letter()))),
            Some(GameEnd::Forfeit(c, _)) => {
                ("forfeit", Some(format!("{}+F", c.opponent().letter())))
            }
            None => ("", None),
        };
        s.end_reason = Some(reason.to_owned());
        s.result = result;
    }

    /// `user_id` resigns.
    ///
    /// # Errors
    /// 403 for a non-player, 409 after the end.
    pub fn resign(&mut self, user_id: i64, now_ms: i64) -> Result<(), ApiError> {
        let color = self
            .color_of(user_id)
            .ok_or_else(|| ApiError::forbidden("not-a-player", "You do not play in this game."))?;
        self.game.resign(color).map_err(|_| {
            ApiError::conflict("game-over", reason_message(PlayErrorKind::GameOver))
        })?;
        self.finish(now_ms);
        Ok(())
    }

    fn suspended_player(&self, user_id: i64) -> Result<Color, ApiError> {
        let color = self
            .color_of(user_id)
            .ok_or_else(|| ApiError::forbidden("not-a-player", "You do not play in this game."))?;
        if self.game.phase() != Phase::Suspended {
            return Err(ApiError::conflict(
                "not-suspended",
                "Dead stones are marked only while play is suspended, after two passes.",
            ));
        }
        Ok(color)
    }

    /// `user_id` proposes the dead stones: every string touching one of `points`. The proposer
    /// accepts their own proposal; the opponent has to accept it too.
    ///
    /// # Errors
    /// 403 for a non-player, 409 when play is not suspended, 422 for a point without a stone.
    pub fn propose(&mut self, user_id: i64, points: &[String]) -> Result<(), ApiError> {
        let color = self.suspended_player(user_id)?;
        let size = self.size();
        let board = self.game.board();
        let mut dead: Vec<Point> = Vec::new();
        for text in points {
            let p = Point::from_gtp(text.trim(), size, size).map_err(|_| {
                ApiError::unprocessable("bad-point", format!("{text:?} is not a point"))
            })?;
            if board.color_at(p).is_none() {
                return Err(ApiError::unprocessable(
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
    ) -> Result<(), ApiError> {
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
            return Err(ApiError::conflict(
                "proposal-changed",
                "The proposal of dead stones has changed; look at it again before accepting.",
            ));
        }
        match color {
            Color::Black => self.row.state.accepted_black = true,
            Color::White => self.row.state.accepted_white = true,
        }
        if self.row.state.accepted_black && self.row.state.accepted_white {
            self.game
                .agree_dead(&have)
                .map_err(|e| ApiError::conflict("not-suspended", e.to_string()))?;
            self.finish(now_ms);
        }
        Ok(())
    }

    /// The count as JSON (with the fill-in breakdown), once counted.
    pub fn score_json(&self) -> Value {
        let Some(s) = self.game.score() else {
            return Value::Null;
        };
        let f = &s.fill_in;
        json!({
            "winner": color_letter(s.winner),
            "margin": s.margin(),
            "result": s.result_string(),
            "area": {"black": s.area.black, "white": s.area.white},
            "stones": {"black": s.stones.black, "white": s.stones.white},
            "spaces": {"black": s.spaces.black, "white": s.spaces.white},
            "shared": s.shared,
            "komi": s.komi.as_f64(),
            "penalty_points": {"black": s.penalties.black, "white": s.penalties.white},
            "dead": points_text(&s.dead, self.size()).split_whitespace().collect::<Vec<_>>(),
            "fill_in": {
                "supply": f.supply,
                "filled": {"black": f.filled.black, "white": f.filled.white},
                "spaces_left": {"black": f.spaces_left.black, "white": f.spaces_left.white},
                "stones_left": {"black": f.stones_left.black, "white": f.stones_left.white},
                "compensation_stones": f.compensation_stones,
                "penalty_stones": {"black": f.penalty_stones.black, "white": f.penalty_stones.white},
                "black_net": f.black_net,
                "white_net": f.white_net,
            },
        })
    }

    /// Both clocks at wall time `now_ms`.
    pub fn clocks_json(&self, now_ms: i64) -> Value {
        let t = self.clock_time(now_ms).max(self.clock_last());
        let one = |c: Color| {
            let s = side(c);
            let left = self.clock.time_left(s, t);
            json!({
                "running": self.clock.running() == Some(s),
                "main_ms": left.map(|l| l.main.as_millis() as u64),
                "periods_or_stones": left.map(|l| l.periods_or_stones),
                "in_overtime": left.is_some_and(|l| l.in_overtime),
                "penalty_points": self.clock.penalty_points(s),
            })
        };
        json!({"black": one(Color::Black), "white": one(Color::White), "time_control": self.row.time_control})
    }

    /// The whole state, as `GET /api/games/{id}` and a WebSocket's first message give it.
    pub fn state_json(&self, now_ms: i64) -> Value {
        let size = self.size();
        let player = |p: &Player| json!({"id": p.id, "name": p.name, "rank": p.rank});
        let board: Vec<String> = (0..size)
            .rev()
            .map(|row| {
                (0..size)
                    .map(|col| {
                        match Point::new(col, row).and_then(|p| self.game.board().color_at(p)) {
                            Some(Color::Black) => 'X',
                            Some(Color::White) => 'O',
                            None => '.',
                        }
                    })
                    .collect()
            })
            .collect();
        let s = &self.row.state;
        json!({
            "id": self.row.id,
            "size": size,
            "rules": self.row.preset,
            "komi": self.game.rules().komi.as_f64(),
            "handicap_passes": self.row.handicap_passes,
            "black": player(&self.players.black),
            "white": player(&self.players.white),
            "moves": self.moves.iter().map(|m| json!({
                "number": m.move_number, "color": m.color, "move": m.mv, "at_ms": m.at_ms,
            })).collect::<Vec<_>>(),
            "move_count": self.moves.len(),
            "to_move": color_letter(self.game.to_move()),
            "phase": s.status,
            "board": board,
            "captures": {
                "black": self.game.stones_lost(Color::White),
                "white": self.game.stones_lost(Color::Black),
            },
            "clocks": self.clocks_json(now_ms),
            "dead_stones": {
                "proposal": s.dead_proposal.split_whitespace().collect::<Vec<_>>(),
                "accepted": {"black": s.accepted_black, "white": s.accepted_white},
            },
            "result": s.result.as_ref().map(|r| json!({
                "result": r,
                "reason": s.end_reason,
                "score": self.score_json(),
            })),
            "started_ms": self.row.started_ms,
        })
    }

    /// The record as SGF (`RU[GOE]`, time left per move, penalty points, dead stones).
    pub fn sgf(&self) -> String {
        use ingo_sgf::{GameInfo, WriteInfo};
        let mut info = GameInfo::default();
        info.players = ByColor {
            black: Some(self.players.black.name.clone()),
            white: Some(self.players.white.name.clone()),
        };
        info.ranks = ByColor {
            black: Some(self.players.black.rank.clone()),
            white: Some(self.players.white.rank.clone()),
        };
        if let Ok(tc) = self.row.time_control.parse::<TimeControl>() {
            info.time = ingo_clock::sgf_tm(&tc);
            info.overtime = ingo_clock::sgf_ot(&tc);
        }
        info.place = Some("ingo serve".into());
        ingo_sgf::write_game(
            &self.game,
            &WriteInfo {
                info,
                comment: None,
                moves: Vec::new(),
            },
        )
    }

    /// The stored state, for a commit.
    pub fn state(&self) -> &GameState {
        &self.row.state
    }
}
