//! `ingo gtp`: a GTP v2 engine front for the rules engine. Every move is judged by
//! `ingo_rules::Game`; this module only maps commands to it and answers.

use std::io::{BufRead, Write};
use std::path::Path;

use ingo_gtp::protocol::{GtpColor, Vertex};
use ingo_gtp::server::{CommandReader, ReadError};
use ingo_gtp::{Command, Response};
use ingo_rules::{
    Board, Color, Game, GameEnd, KoRule, Komi, Move, Phase, Point, Preset, Rules, Setup,
    SuicideRule,
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
    "ingo-rules",
    "ingo-ko",
    "ingo-suicide",
    "ingo-illegal_reason",
    "ingo-phase",
    "ingo-count",
    "ingo-agree_dead",
    "ingo-handicap_passes",
];

/// The state of the GTP engine: the game and the settings for the next one.
pub struct GtpFront {
    game: Game,
    size: usize,
    rules: Rules,
    handicap_passes: u8,
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
    /// A front with an empty `size × size` board under `rules`.
    pub fn new(size: usize, rules: Rules) -> anyhow::Result<GtpFront> {
        let setup = Setup::empty(size)?;
        Ok(GtpFront {
            game: Game::new(setup, rules),
            size,
            rules,
            handicap_passes: 0,
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

    fn dead_stones(&self) -> Vec<Point> {
        match self.game.end() {
            Some(GameEnd::Agreement(dead)) => dead.clone(),
            _ => Vec::new(),
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
