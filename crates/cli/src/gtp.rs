//! `ingo gtp`: a GTP v2 engine front for the rules engine. Every move is judged by
//! `ingo_rules::Game`; this module only maps commands to it and answers.

use std::io::{BufRead, Write};
use std::path::Path;
use std::time::Duration;

use ingo_gtp::protocol::{GtpColor, Vertex};
use ingo_gtp::server::{CommandReader, ReadError};
use ingo_gtp::{Command, Response};
use ingo_player::{Action, Player, Rng, TimeLeft};
use ingo_rules::{
    Board, ByColor, Color, Game, GameEnd, KoRule, Komi, Move, Owner, Phase, Point, Preset, Rules,
    Setup, SuicideRule,
};

/// The commands this engine knows, in the order `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "is_legal",
    "all_legal",
    "loadsgf",
    "genmove",
    "kgs-genmove_cleanup",
    "time_settings",
    "kgs-time_settings",
    "time_left",
    "ingo-rules",
    "ingo-ko",
    "ingo-suicide",
    "ingo-illegal_reason",
    "ingo-phase",
    "ingo-count",
    "ingo-agree_dead",
    "ingo-handicap_passes",
];

/// The clock as the controller describes it (`time_settings`, `kgs-time_settings`, `time_left`).
#[derive(Clone, Copy, Debug, Default)]
struct TimeInfo {
    /// Main time, byo-yomi period, stones per period; `None` until `time_settings`.
    settings: Option<(Duration, Duration, u32)>,
    /// What `time_left` last said for each colour: time and stones.
    left: ByColor<Option<(Duration, u32)>>,
}

impl TimeInfo {
    /// The time the player has for `color`, if the controller said anything about time.
    fn for_player(&self, color: Color) -> Option<TimeLeft> {
        let (main, byo, stones) = self.settings?;
        if main.is_zero() && byo.is_zero() && stones == 0 {
            return None; // GTP: "time_settings 0 0 0" means no time limit
        }
        Some(match *self.left.get(color) {
            Some((time, 0)) => TimeLeft {
                main: time,
                byo_period: byo,
                byo_stones: stones,
            },
            Some((time, stones)) => TimeLeft {
                main: Duration::ZERO,
                byo_period: time,
                byo_stones: stones,
            },
            None => TimeLeft {
                main,
                byo_period: byo,
                byo_stones: stones,
            },
        })
    }
}

/// The state of the GTP engine: the game and the settings for the next one.
pub struct GtpFront {
    game: Game,
    size: usize,
    rules: Rules,
    handicap_passes: u8,
    player: Player,
    time: TimeInfo,
}

fn color_of(c: GtpColor) -> Color {
    match c {
        GtpColor::Black => Color::Black,
        GtpColor::White => Color::White,
    }
}

/// The result of one command: the answer, and whether to stop.
pub struct Outcome {
    /// The response to write.
    pub response: Response,
    /// `quit` was asked.
    pub quit: bool,
}

impl GtpFront {
    /// A front with an empty `size × size` board under `rules`, whose moves come from `player`.
    pub fn new(size: usize, rules: Rules, player: Player) -> anyhow::Result<GtpFront> {
        let setup = Setup::empty(size)?;
        Ok(GtpFront {
            game: Game::new(setup, rules),
            size,
            rules,
            handicap_passes: 0,
            player,
            time: TimeInfo::default(),
        })
    }

    fn new_game(&mut self) -> Result<(), String> {
        let mut setup = Setup::empty(self.size).map_err(|e| e.to_string())?;
        setup.handicap_passes = self.handicap_passes;
        self.game = Game::new(setup, self.rules);
        Ok(())
    }

    /// Replays the current game under new rules; on failure nothing changes.
    fn change_rules(&mut self, rules: Rules) -> Result<(), String> {
        let mut g = Game::new(self.game.setup().clone(), rules);
        for (n, m) in self.game.history().enumerate() {
            g.play_as(m.color, m.mv).map_err(|e| {
                format!(
                    "the current game cannot be replayed under these rules: move {}: {e}",
                    n + 1
                )
            })?;
        }
        for c in Color::ALL {
            g.set_penalty(c, *self.game.penalties().get(c));
        }
        self.rules = rules;
        self.game = g;
        Ok(())
    }

    fn vertex(&self, s: &str) -> Result<Move, String> {
        let b = self.game.board();
        let size = u8::try_from(b.width()).map_err(|_| "board too large".to_string())?;
        match Vertex::parse(s, size).map_err(|e| format!("syntax error: {e}"))? {
            Vertex::Pass => Ok(Move::Pass),
            Vertex::Point { col, row } => Point::new(col as usize, b.height() - row as usize)
                .map(Move::Play)
                .ok_or_else(|| format!("syntax error: invalid vertex {s:?}")),
        }
    }

    fn name_point(&self, p: Point) -> String {
        p.to_gtp(self.game.board().height())
    }

    fn color_arg(cmd: &Command, i: usize) -> Result<Color, String> {
        let s = cmd
            .args
            .get(i)
            .ok_or_else(|| "syntax error: missing colour".to_string())?;
        s.parse::<GtpColor>()
            .map(color_of)
            .map_err(|e| format!("syntax error: {e}"))
    }

    fn arg<'a>(cmd: &'a Command, i: usize, what: &str) -> Result<&'a str, String> {
        cmd.args
            .get(i)
            .map(String::as_str)
            .ok_or_else(|| format!("syntax error: missing {what}"))
    }

    /// Answers one command.
    pub fn handle(&mut self, cmd: &Command) -> Outcome {
        let mut quit = false;
        let result = self.dispatch(cmd, &mut quit);
        let response = match result {
            Ok(text) => Response::success(text),
            Err(msg) => Response::failure(msg),
        }
        .with_id(cmd.id);
        Outcome { response, quit }
    }

    fn dispatch(&mut self, cmd: &Command, quit: &mut bool) -> Result<String, String> {
        match cmd.name.as_str() {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("ingo".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => {
                let name = Self::arg(cmd, 0, "command name")?;
                Ok(COMMANDS.contains(&name).to_string())
            }
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => {
                *quit = true;
                Ok(String::new())
            }
            "boardsize" => {
                let n: usize = Self::arg(cmd, 0, "size")?
                    .parse()
                    .map_err(|_| "syntax error: size is not a number".to_string())?;
                if !(2..=25).contains(&n) {
                    return Err("unacceptable size".into());
                }
                self.size = n;
                self.new_game()?;
                Ok(String::new())
            }
            "clear_board" => {
                self.new_game()?;
                Ok(String::new())
            }
            "komi" => {
                let k: Komi = Self::arg(cmd, 0, "komi")?
                    .parse()
                    .map_err(|e| format!("syntax error: {e}"))?;
                let rules = Rules {
                    komi: k,
                    ..self.rules
                };
                self.change_rules(rules)?;
                Ok(String::new())
            }
            "play" => {
                let color = Self::color_arg(cmd, 0)?;
                let mv = self.vertex(Self::arg(cmd, 1, "vertex")?)?;
                self.game
                    .play_as(color, mv)
                    .map_err(|e| format!("illegal move: {}", e.kind.code()))?;
                Ok(String::new())
            }
            "undo" => {
                self.game.undo().map_err(|_| "cannot undo".to_string())?;
                Ok(String::new())
            }
            "showboard" => Ok(self.showboard()),
            "final_score" => {
                let score = self.current_score();
                Ok(score.result_string())
            }
            "final_status_list" => {
                let which = Self::arg(cmd, 0, "status")?;
                let dead = self.dead_stones();
                let b = self.game.board();
                let list: Vec<String> = match which {
                    "dead" => dead.iter().map(|&p| self.name_point(p)).collect(),
                    "alive" => b
                        .points()
                        .filter(|p| b.color_at(*p).is_some() && !dead.contains(p))
                        .map(|p| self.name_point(p))
                        .collect(),
                    // Ing counts seki like any other position (shared points are split), so no
                    // stone is reported as being in seki.
                    "seki" => Vec::new(),
                    _ => return Err(format!("syntax error: unknown status {which:?}")),
                };
                Ok(list.join(" "))
            }
            "is_legal" => {
                let color = Self::color_arg(cmd, 0)?;
                let mv = self.vertex(Self::arg(cmd, 1, "vertex")?)?;
                let legal = color == self.game.to_move() && self.game.is_legal(mv);
                Ok(if legal { "1" } else { "0" }.into())
            }
            "all_legal" => {
                let color = Self::color_arg(cmd, 0)?;
                if color != self.game.to_move() {
                    return Ok(String::new());
                }
                let list: Vec<String> = self
                    .game
                    .legal_moves()
                    .into_iter()
                    .filter_map(|m| match m {
                        Move::Play(p) => Some(self.name_point(p)),
                        Move::Pass => None,
                    })
                    .collect();
                Ok(list.join(" "))
            }
            "loadsgf" => self.loadsgf(cmd),
            // Under Ing every stone left on the board counts as alive, so the player always
            // plays on to capture dead stones before passing: cleanup is the same search.
            "genmove" | "kgs-genmove_cleanup" => {
                let color = Self::color_arg(cmd, 0)?;
                if self.game.phase() == Phase::Ended {
                    return Err("game is over".into());
                }
                if color != self.game.to_move() {
                    return Err(format!("it is {}'s turn", self.game.to_move()));
                }
                let decision = self.player.genmove(&self.game, self.time.for_player(color));
                match decision.action {
                    Action::Resign => Ok("resign".into()),
                    Action::Move(mv) => {
                        self.game
                            .play_as(color, mv)
                            .map_err(|e| format!("internal error: the player chose {e}"))?;
                        Ok(mv.to_gtp(self.game.board().height()))
                    }
                }
            }
            "time_settings" => {
                let num = |i: usize, what: &str| -> Result<u64, String> {
                    Self::arg(cmd, i, what)?
                        .parse::<u64>()
                        .map_err(|_| format!("syntax error: {what} must be a whole number"))
                };
                let (main, byo, stones) = (
                    num(0, "main time")?,
                    num(1, "byo-yomi time")?,
                    num(2, "byo-yomi stones")?,
                );
                self.time.settings = Some((
                    Duration::from_secs(main),
                    Duration::from_secs(byo),
                    u32::try_from(stones)
                        .map_err(|_| "syntax error: too many stones".to_string())?,
                ));
                self.time.left = ByColor::default();
                Ok(String::new())
            }
            "kgs-time_settings" => {
                let kind = Self::arg(cmd, 0, "time system")?;
                let num = |i: usize| -> Result<u64, String> {
                    Self::arg(cmd, i, "number")?
                        .parse::<u64>()
                        .map_err(|_| "syntax error: expected whole numbers".to_string())
                };
                let settings = match kind {
                    "none" => (0, 0, 0),
                    "absolute" => (num(1)?, 0, 0),
                    // Japanese byo-yomi: M main, then periods of T seconds with one stone each.
                    "byoyomi" => (num(1)?, num(2)?, 1),
                    "canadian" => (num(1)?, num(2)?, num(3)?),
                    _ => return Err(format!("syntax error: unknown time system {kind:?}")),
                };
                self.time.settings = Some((
                    Duration::from_secs(settings.0),
                    Duration::from_secs(settings.1),
                    u32::try_from(settings.2)
                        .map_err(|_| "syntax error: too many stones".to_string())?,
                ));
                self.time.left = ByColor::default();
                Ok(String::new())
            }
            "time_left" => {
                let color = Self::color_arg(cmd, 0)?;
                let time: f64 = Self::arg(cmd, 1, "time")?
                    .parse()
                    .map_err(|_| "syntax error: time must be a number".to_string())?;
                let stones: u32 = Self::arg(cmd, 2, "stones")?
                    .parse()
                    .map_err(|_| "syntax error: stones must be a whole number".to_string())?;
                if !time.is_finite() || time < 0.0 {
                    return Err("syntax error: time must not be negative".into());
                }
                *self.time.left.get_mut(color) =
                    Some((Duration::from_secs_f64(time.min(1e9)), stones));
                Ok(String::new())
            }
            "ingo-rules" => {
                if cmd.args.is_empty() {
                    return Ok(describe_rules(&self.rules));
                }
                let preset: Preset = cmd.args[0].parse().map_err(|e| format!("{e}"))?;
                let rules = preset.rules();
                self.change_rules(rules)?;
                Ok(describe_rules(&self.rules))
            }
            "ingo-ko" => {
                let ko: KoRule = Self::arg(cmd, 0, "ko rule")?.parse().map_err(|_| {
                    "syntax error: expected ing, simple, positional or situational".to_string()
                })?;
                self.change_rules(Rules { ko, ..self.rules })?;
                Ok(describe_rules(&self.rules))
            }
            "ingo-suicide" => {
                let suicide: SuicideRule = Self::arg(cmd, 0, "suicide rule")?
                    .parse()
                    .map_err(|_| "syntax error: expected none, block or all".to_string())?;
                self.change_rules(Rules {
                    suicide,
                    ..self.rules
                })?;
                Ok(describe_rules(&self.rules))
            }
            "ingo-illegal_reason" => {
                let color = Self::color_arg(cmd, 0)?;
                let mv = self.vertex(Self::arg(cmd, 1, "vertex")?)?;
                if color != self.game.to_move() && self.game.phase() != Phase::Ended {
                    return Ok("out-of-turn".into());
                }
                Ok(self
                    .game
                    .illegal_reason(mv)
                    .map_or("legal", |k| k.code())
                    .into())
            }
            "ingo-phase" => Ok(match self.game.phase() {
                Phase::Playing => "playing",
                Phase::Suspended => "suspended",
                Phase::Ended => "ended",
            }
            .into()),
            "ingo-count" => Ok(crate::report::count_text(
                &self.current_score(),
                self.game.board(),
            )),
            "ingo-agree_dead" => {
                let mut dead = Vec::new();
                for a in &cmd.args {
                    match self.vertex(a)? {
                        Move::Play(p) if self.game.board().color_at(p).is_none() => {
                            return Err(format!("no stone at {}", self.name_point(p)))
                        }
                        Move::Play(p) => dead.push(p),
                        Move::Pass => return Err("syntax error: pass is not a stone".into()),
                    }
                }
                self.game.agree_dead(&dead).map_err(|e| e.to_string())?;
                Ok(String::new())
            }
            "ingo-handicap_passes" => {
                let n: u8 = Self::arg(cmd, 0, "number of passes")?
                    .parse()
                    .map_err(|_| "syntax error: expected a number of passes".to_string())?;
                if self.game.move_count() > 0
                    || self.game.board().empty_count() != self.game.board().area()
                {
                    return Err("handicap passes can only be set on an empty board".into());
                }
                self.handicap_passes = n;
                self.new_game()?;
                Ok(String::new())
            }
            _ => Err("unknown command".into()),
        }
    }

    fn loadsgf(&mut self, cmd: &Command) -> Result<String, String> {
        let file = Self::arg(cmd, 0, "file name")?;
        let upto: Option<usize> = match cmd.args.get(1) {
            None => None,
            Some(s) => Some(
                s.parse()
                    .map_err(|_| "syntax error: move number expected".to_string())?,
            ),
        };
        let loaded = crate::records::load_position(Path::new(file), upto, self.rules)
            .map_err(|e| format!("cannot load file: {e:#}"))?;
        self.size = loaded.board().width();
        self.game = loaded;
        Ok(self.game.to_move().to_string())
    }

    /// The dead stones: those agreed at the end, or else the stones that random playouts from
    /// here capture nearly always (an estimate for controllers that ask before agreeing).
    fn dead_stones(&self) -> Vec<Point> {
        match self.game.end() {
            Some(GameEnd::Agreement(dead)) => dead.clone(),
            Some(_) => Vec::new(),
            None => estimate_dead(&self.game, DEAD_PLAYOUTS),
        }
    }

    fn current_score(&self) -> ingo_rules::Score {
        self.game.count(&self.dead_stones())
    }

    fn showboard(&self) -> String {
        let g = &self.game;
        let b: &Board = g.board();
        let mut s = String::from("\n");
        s.push_str(&b.to_ascii());
        s.push_str(&format!(
            "to move: {}, moves: {}, phase: {}\n",
            g.to_move(),
            g.move_count(),
            match g.phase() {
                Phase::Playing => "playing",
                Phase::Suspended => "suspended",
                Phase::Ended => "ended",
            }
        ));
        s.push_str(&format!(
            "stones lost: black {}, white {}\nrules: {}",
            g.stones_lost(Color::Black),
            g.stones_lost(Color::White),
            describe_rules(g.rules())
        ));
        s
    }
}

/// Playouts behind `final_status_list dead` during a game.
const DEAD_PLAYOUTS: u32 = 200;

/// Stones that belong to the opponent's area at the end of at least 80% of `n` random
/// playouts from the current position. Deterministic (fixed seed), so that a controller asking
/// twice gets the same answer.
fn estimate_dead(game: &Game, n: u32) -> Vec<Point> {
    let board = game.board();
    let width = board.width();
    let mut lost = vec![0u32; board.area()];
    let mut rng = Rng::new(0x1D_EAD5);
    for _ in 0..n {
        let mut g = game.clone();
        ingo_player::playout(&mut g, &mut rng);
        let score = g.count(&[]);
        for p in board.points() {
            let owner = score.owners[p.row() * width + p.col()];
            let lost_it = match board.color_at(p) {
                Some(Color::Black) => owner != Owner::Black,
                Some(Color::White) => owner != Owner::White,
                None => false,
            };
            if lost_it {
                lost[p.row() * width + p.col()] += 1;
            }
        }
    }
    board
        .points()
        .filter(|p| board.color_at(*p).is_some() && lost[p.row() * width + p.col()] * 5 >= n * 4)
        .collect()
}

/// One line describing the rules, e.g. `ko=ing suicide=block komi=8`.
pub fn describe_rules(r: &Rules) -> String {
    format!("ko={} suicide={} komi={}", r.ko, r.suicide, r.komi)
}

/// Runs the GTP loop on `input`/`output` until `quit` or the end of input.
pub fn run(
    front: &mut GtpFront,
    input: impl BufRead,
    mut output: impl Write,
) -> anyhow::Result<()> {
    let mut reader = CommandReader::new(input);
    loop {
        let response = match reader.read_command() {
            Ok(None) => return Ok(()),
            Ok(Some(cmd)) => {
                let out = front.handle(&cmd);
                write!(output, "{}", out.response)?;
                output.flush()?;
                if out.quit {
                    return Ok(());
                }
                continue;
            }
            Err(ReadError::Protocol(e)) => Response::failure(e.to_string()).with_id(e.id()),
            Err(ReadError::Io(e)) => return Err(e.into()),
        };
        write!(output, "{response}")?;
        output.flush()?;
    }
}
