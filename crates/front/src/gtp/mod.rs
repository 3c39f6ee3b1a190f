//! A GTP v2 engine front on a [`Table`]: [`GtpFront::handle`] answers one command, [`run`]
//! speaks GTP on a pair of streams until `quit`. Commands are parsed into [`GtpCommand`]s by
//! the one table [`COMMANDS`]; every move is judged by `ingo_rules::Game` through the table.
//!
//! ```
//! use ingo_front::gtp::{run, GtpFront};
//! use ingo_player::{Budget, Config, Player};
//! use ingo_rules::Rules;
//!
//! let player = Player::new(Config { budget: Budget::playouts(50), ..Config::default() }).unwrap();
//! let mut front = GtpFront::new(5, Rules::ing(), player).unwrap();
//! let mut out = Vec::new();
//! run(&mut front, &b"1 play b c3\n2 ingo-illegal_reason w c3\nquit\n"[..], &mut out).unwrap();
//! assert_eq!(String::from_utf8(out).unwrap(), "=1 \n\n=2 occupied\n\n= \n\n");
//! ```

mod command;

use std::error::Error;
use std::io::{self, BufRead, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ingo_clock::GtpTimeSettings;
use ingo_gtp::server::{CommandReader, ReadError};
use ingo_gtp::{Command, Response};
use ingo_player::endgame::Status as JudgedStatus;
use ingo_player::{Action, Player, SearchInfo, TimeLeft};
use ingo_rules::{ByColor, Color, Game, Move, Phase, Point, Preset, Rules};

pub use command::{find, parse, Args, GtpCommand, ReportedTime, Spec, Status, COMMANDS};

use crate::{Settings, Table, TableError};

/// The clock as the controller describes it (`time_settings`, `kgs-time_settings`,
/// `time_left`): the engine's own time, which the built-in player plans with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GtpTime {
    /// The settings; `None` until `time_settings` or `kgs-time_settings`.
    pub settings: Option<GtpTimeSettings>,
    /// What `time_left` last said for each colour.
    pub left: ByColor<Option<ReportedTime>>,
}

impl GtpTime {
    /// The time the player of `color` has, if the controller said anything about time.
    pub fn for_player(&self, color: Color) -> Option<TimeLeft> {
        let s = self.settings?;
        let (main, byo) = (
            Duration::from_secs(s.main_secs),
            Duration::from_secs(s.byo_secs),
        );
        if main.is_zero() && byo.is_zero() && s.byo_stones == 0 {
            return None; // GTP: "time_settings 0 0 0" means no time limit
        }
        Some(match *self.left.get(color) {
            Some(ReportedTime { time, stones: 0 }) => TimeLeft {
                main: time,
                byo_period: byo,
                byo_stones: s.byo_stones,
            },
            Some(ReportedTime { time, stones }) => TimeLeft {
                main: Duration::ZERO,
                byo_period: time,
                byo_stones: stones,
            },
            None => TimeLeft {
                main,
                byo_period: byo,
                byo_stones: s.byo_stones,
            },
        })
    }
}

/// The state of the GTP engine: the game, the settings of the next one, the built-in player
/// and what the controller said about time.
#[derive(Debug)]
pub struct GtpFront {
    table: Table,
    size: usize,
    rules: Rules,
    handicap_passes: u8,
    player: Player,
    time: GtpTime,
    last_search: Option<SearchInfo>,
    /// The last command was this engine's `genmove` and it played a move: the opponent is to
    /// move, and with [`ingo_player::Config::ponder`] the player searches on its time.
    ponder_due: bool,
}

/// The most playouts of one pondering search in [`run`], so that a controller that goes silent
/// does not keep a core busy for ever (about four minutes of 19×19 heavy playouts a core, one of
/// light ones).
pub const PONDER_PLAYOUTS: u64 = 1_000_000;

/// The result of one command: the answer, and whether to stop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The response to write.
    pub response: Response,
    /// `quit` was asked.
    pub quit: bool,
}

/// Why `loadsgf` could not load a position.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The file could not be read or parsed, holds no game, or a move of the record is illegal.
    #[error(transparent)]
    File(#[from] ingo_sgf::FileReplayError),
    /// The board is not one GTP can play on.
    #[error("{path}: a {width}x{height} board cannot be played over GTP")]
    Board {
        /// The file.
        path: String,
        /// The record's width.
        width: usize,
        /// The record's height.
        height: usize,
    },
}

/// The position of the first game of the SGF file at `path` before move `upto` (GTP: "the
/// position before move_number is played"; all moves when `None`), replayed under `rules` with
/// the record's komi ([`ingo_sgf::replay_file`], the reader `ingo score` uses too).
///
/// # Errors
/// When the file cannot be read (not a regular file, over a size limit), holds no square game
/// of 2 to 25 lines, or a move of the record is illegal under `rules`.
pub fn load_position(path: &Path, upto: Option<usize>, rules: Rules) -> Result<Game, LoadError> {
    let loaded = ingo_sgf::replay_file(path, upto.map(|n| n.saturating_sub(1)), |record| {
        record.with_komi(rules)
    })?;
    let record = &loaded.record;
    if record.width != record.height || !(2..=25).contains(&record.width) {
        return Err(LoadError::Board {
            path: path.display().to_string(),
            width: record.width,
            height: record.height,
        });
    }
    Ok(loaded.replay.game)
}

/// An error with its causes, `outer: inner: innermost`.
fn chain(e: &dyn Error) -> String {
    let mut s = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        s.push_str(": ");
        s.push_str(&cause.to_string());
        source = cause.source();
    }
    s
}

impl GtpFront {
    /// A front with an empty `size × size` board under `rules`, whose moves come from `player`.
    ///
    /// # Errors
    /// For a size outside 1..=25.
    pub fn new(size: usize, rules: Rules, player: Player) -> Result<GtpFront, TableError> {
        Ok(GtpFront {
            table: Table::new(Settings::new(size, rules))?,
            size,
            rules,
            handicap_passes: 0,
            player,
            time: GtpTime::default(),
            last_search: None,
            ponder_due: false,
        })
    }

    /// The game being played.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// What the controller said about time.
    pub fn time(&self) -> &GtpTime {
        &self.time
    }

    /// What the built-in player's last `genmove` found, with the thinking time the clock
    /// allowed it (`SearchInfo::allotted`, from what the controller said about time).
    pub fn last_search(&self) -> Option<&SearchInfo> {
        self.last_search.as_ref()
    }

    /// Answers one command.
    pub fn handle(&mut self, cmd: &Command) -> Outcome {
        let board = self.table.game().board();
        let parsed = parse(&cmd.name, &cmd.args, board.width(), board.height());
        let quit = parsed == Ok(GtpCommand::Quit);
        self.ponder_due = false;
        let response = match parsed.and_then(|c| self.execute(c)) {
            Ok(text) => Response::success(text),
            Err(msg) => Response::failure(msg),
        }
        .with_id(cmd.id);
        Outcome { response, quit }
    }

    fn new_game(&mut self) -> Result<(), String> {
        let settings = Settings {
            handicap_passes: self.handicap_passes,
            ..Settings::new(self.size, self.rules)
        };
        self.table = Table::new(settings).map_err(|e| e.to_string())?;
        Ok(())
    }

    fn change_rules(&mut self, rules: Rules) -> Result<(), String> {
        self.table.set_rules(rules).map_err(|e| e.to_string())?;
        self.rules = rules;
        Ok(())
    }

    fn name_point(&self, p: Point) -> String {
        p.to_gtp(self.table.game().board().height())
    }

    fn game(&self) -> &Game {
        self.table.game()
    }

    /// Runs one parsed command; the text of the answer, or the error message.
    ///
    /// # Errors
    /// The GTP error message.
    pub fn execute(&mut self, cmd: GtpCommand) -> Result<String, String> {
        match cmd {
            GtpCommand::ProtocolVersion => Ok("2".into()),
            GtpCommand::Name => Ok("ingo".into()),
            GtpCommand::Version => Ok(env!("CARGO_PKG_VERSION").into()),
            GtpCommand::KnownCommand(name) => Ok(find(&name).is_some().to_string()),
            GtpCommand::ListCommands => Ok(COMMANDS
                .iter()
                .map(|s| s.name)
                .collect::<Vec<_>>()
                .join("\n")),
            GtpCommand::Quit => Ok(String::new()),
            GtpCommand::Boardsize(n) => {
                self.size = n;
                self.new_game()?;
                Ok(String::new())
            }
            GtpCommand::ClearBoard => {
                self.new_game()?;
                Ok(String::new())
            }
            GtpCommand::Komi(komi) => {
                self.change_rules(Rules { komi, ..self.rules })?;
                Ok(String::new())
            }
            GtpCommand::Play(color, mv) => {
                self.table.play(color, mv, None).map_err(|e| match e {
                    TableError::Illegal(e) => format!("illegal move: {}", e.kind.code()),
                    e => e.to_string(),
                })?;
                Ok(String::new())
            }
            GtpCommand::Undo => {
                self.table.undo().map_err(|_| "cannot undo".to_string())?;
                Ok(String::new())
            }
            GtpCommand::Showboard => Ok(self.showboard()),
            // An ended game has its result (the rules' count of the agreed board); before
            // that, the judgement counts the board as a referee would, the neutral points
            // filled in turn from the player to move (填滿計點).
            GtpCommand::FinalScore => Ok(match self.table.score() {
                Some(score) => score.result_string(),
                None => self.table.judgement().score.result_string(),
            }),
            GtpCommand::FinalStatusList(status) => {
                let judgement = self.table.judgement();
                let wanted = match status {
                    Status::Dead => JudgedStatus::Dead,
                    Status::Alive => JudgedStatus::Alive,
                    Status::Seki => JudgedStatus::Seki,
                };
                let list: Vec<String> = judgement
                    .stones(wanted)
                    .into_iter()
                    .map(|p| self.name_point(p))
                    .collect();
                Ok(list.join(" "))
            }
            GtpCommand::IsLegal(color, mv) => {
                let legal = color == self.game().to_move() && self.game().is_legal(mv);
                Ok(if legal { "1" } else { "0" }.into())
            }
            GtpCommand::AllLegal(color) => {
                if color != self.game().to_move() {
                    return Ok(String::new());
                }
                let list: Vec<String> = self
                    .game()
                    .legal_moves()
                    .into_iter()
                    .filter_map(|m| match m {
                        Move::Play(p) => Some(self.name_point(p)),
                        Move::Pass => None,
                    })
                    .collect();
                Ok(list.join(" "))
            }
            GtpCommand::Loadsgf { file, upto } => {
                let loaded = load_position(Path::new(&file), upto, self.rules)
                    .map_err(|e| format!("cannot load file: {}", chain(&e)))?;
                self.size = loaded.board().width();
                self.table = Table::from_game(loaded);
                Ok(self.game().to_move().to_string())
            }
            GtpCommand::Genmove(color) | GtpCommand::GenmoveCleanup(color) => self.genmove(color),
            GtpCommand::TimeSettings(s) | GtpCommand::KgsTimeSettings(s) => {
                self.time.settings = Some(s);
                self.time.left = ByColor::default();
                Ok(String::new())
            }
            GtpCommand::TimeLeft(color, left) => {
                *self.time.left.get_mut(color) = Some(left);
                Ok(String::new())
            }
            GtpCommand::Rules(preset) => {
                if let Some(p) = preset {
                    self.change_rules(Preset::rules(p))?;
                }
                Ok(self.rules.to_string())
            }
            GtpCommand::Ko(ko) => {
                self.change_rules(Rules { ko, ..self.rules })?;
                Ok(self.rules.to_string())
            }
            GtpCommand::Suicide(suicide) => {
                self.change_rules(Rules {
                    suicide,
                    ..self.rules
                })?;
                Ok(self.rules.to_string())
            }
            GtpCommand::IllegalReason(color, mv) => {
                if color != self.game().to_move() && self.game().phase() != Phase::Ended {
                    return Ok("out-of-turn".into());
                }
                Ok(self
                    .game()
                    .illegal_reason(mv)
                    .map_or("legal", |k| k.code())
                    .into())
            }
            GtpCommand::Phase => Ok(self.game().phase().as_str().into()),
            GtpCommand::Count => Ok(crate::count_text(&self.table.count(), self.game().board())),
            GtpCommand::AgreeDead(dead) => {
                if let Some(&p) = dead
                    .iter()
                    .find(|&&p| self.game().board().color_at(p).is_none())
                {
                    return Err(format!("no stone at {}", self.name_point(p)));
                }
                self.table.agree_dead(&dead).map_err(|e| e.to_string())?;
                Ok(String::new())
            }
            GtpCommand::HandicapPasses(n) => {
                if self.game().move_count() > 0
                    || self.game().board().empty_count() != self.game().board().area()
                {
                    return Err("handicap passes can only be set on an empty board".into());
                }
                self.handicap_passes = n;
                self.new_game()?;
                Ok(String::new())
            }
        }
    }

    // Under Ing every stone left on the board counts as alive, so the player always plays on to
    // capture dead stones before passing: cleanup is the same search.
    fn genmove(&mut self, color: Color) -> Result<String, String> {
        if self.game().phase() == Phase::Ended {
            return Err("game is over".into());
        }
        if color != self.game().to_move() {
            return Err(format!("it is {}'s turn", self.game().to_move()));
        }
        let decision = self
            .player
            .genmove(self.table.game(), self.time.for_player(color));
        self.last_search = Some(decision.info);
        match decision.action {
            Action::Resign => Ok("resign".into()),
            Action::Move(mv) => {
                self.table.play(color, mv, None).map_err(|e| match e {
                    TableError::Illegal(e) => format!("internal error: the player chose {e}"),
                    e => format!("internal error: {e}"),
                })?;
                self.ponder_due = self.game().phase() != Phase::Ended;
                Ok(mv.to_gtp(self.game().board().height()))
            }
        }
    }

    /// The player and the position it may ponder on while the controller is silent: right
    /// after its own move, when pondering is on.
    fn ponder_parts(&mut self) -> Option<(&mut Player, &Game)> {
        (self.ponder_due && self.player.config().ponder)
            .then(|| (&mut self.player, self.table.game()))
    }

    fn showboard(&self) -> String {
        let g = self.game();
        let mut s = String::from("\n");
        s.push_str(&g.board().to_ascii());
        s.push_str(&format!(
            "to move: {}, moves: {}, phase: {}\n",
            g.to_move(),
            g.move_count(),
            g.phase()
        ));
        s.push_str(&format!(
            "stones lost: black {}, white {}\nrules: {}",
            g.stones_lost(Color::Black),
            g.stones_lost(Color::White),
            g.rules()
        ));
        s
    }
}

/// Runs the GTP loop on `input`/`output` until `quit` or the end of input. A line that is not
/// a command is answered with an error and the loop goes on.
///
/// With pondering on ([`ingo_player::Config::ponder`]), after each of its own moves the player
/// searches on the opponent's time, on a thread of its own, until the next command arrives
/// (at most [`PONDER_PLAYOUTS`]); the next `genmove` goes on from that search.
///
/// # Errors
/// When reading or writing fails.
pub fn run(front: &mut GtpFront, input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut reader = CommandReader::new(input);
    loop {
        let read = match front.ponder_parts() {
            None => reader.read_command(),
            Some((player, game)) => {
                let stop = AtomicBool::new(false);
                std::thread::scope(|scope| {
                    let thinker = scope.spawn(|| player.ponder(game, &stop, PONDER_PLAYOUTS));
                    let read = reader.read_command();
                    stop.store(true, Ordering::Relaxed);
                    // A pondering thread that panicked only loses its search.
                    let _ = thinker.join();
                    read
                })
            }
        };
        let response = match read {
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
            Err(ReadError::Io(e)) => return Err(e),
        };
        write!(output, "{response}")?;
        output.flush()?;
    }
}

#[cfg(test)]
mod ponder_tests {
    use ingo_player::{Budget, Config, Player};
    use ingo_rules::Rules;

    use super::*;

    fn front(ponder: bool) -> GtpFront {
        let player = Player::new(Config {
            budget: Budget::playouts(50),
            ponder,
            ..Config::default()
        })
        .expect("config");
        GtpFront::new(5, Rules::ing(), player).expect("size")
    }

    /// Sends `line` and returns the success response's text.
    fn ask(f: &mut GtpFront, line: &str) -> String {
        let cmd = Command::parse(line).expect("line").expect("command");
        let response = f.handle(&cmd).response;
        assert!(response.is_success(), "{line}: {}", response.text);
        response.text
    }

    #[test]
    fn pondering_is_due_right_after_its_own_move_only() {
        let mut f = front(true);
        assert!(f.ponder_parts().is_none(), "nothing played yet");
        let played = ask(&mut f, "genmove b");
        assert!(f.ponder_parts().is_some(), "the opponent's time");
        // White's answer on a point the engine's move left empty.
        let answer = if played.eq_ignore_ascii_case("C3") {
            "B2"
        } else {
            "C3"
        };
        ask(&mut f, &format!("play w {answer}"));
        assert!(f.ponder_parts().is_none(), "the engine's own turn");
        ask(&mut f, "genmove b");
        ask(&mut f, "showboard");
        assert!(
            f.ponder_parts().is_none(),
            "another command came in between"
        );
        let mut off = front(false);
        ask(&mut off, "genmove b");
        assert!(off.ponder_parts().is_none(), "pondering is off");
    }
}
