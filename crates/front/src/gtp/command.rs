//! The commands of the GTP engine front, typed: [`COMMANDS`] is the one table that gives each
//! command's name and parser, and so drives `list_commands`, `known_command` and dispatch
//! (the shape of mini-redis's `cmd` module).

use std::time::Duration;

use ingo_clock::GtpTimeSettings;
use ingo_gtp::{GtpColor, Vertex};
use ingo_rules::{Color, KoRule, Komi, Move, Point, Preset, SuicideRule};

/// A GTP command with its arguments parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum GtpCommand {
    /// `protocol_version`.
    ProtocolVersion,
    /// `name`.
    Name,
    /// `version`.
    Version,
    /// `known_command NAME`.
    KnownCommand(String),
    /// `list_commands`.
    ListCommands,
    /// `quit`.
    Quit,
    /// `boardsize N`, 2 to 25.
    Boardsize(usize),
    /// `clear_board`.
    ClearBoard,
    /// `komi K`.
    Komi(Komi),
    /// `play COLOR VERTEX`.
    Play(Color, Move),
    /// `undo`.
    Undo,
    /// `showboard`.
    Showboard,
    /// `final_score`.
    FinalScore,
    /// `final_status_list STATUS`.
    FinalStatusList(Status),
    /// `is_legal COLOR VERTEX`.
    IsLegal(Color, Move),
    /// `all_legal COLOR`.
    AllLegal(Color),
    /// `loadsgf FILE [MOVE_NUMBER]`: the position before that move (all moves without it).
    Loadsgf {
        /// The file name.
        file: String,
        /// The move number.
        upto: Option<usize>,
    },
    /// `genmove COLOR`.
    Genmove(Color),
    /// `kgs-genmove_cleanup COLOR`: the same search, since under Ing every stone left on the
    /// board counts as alive and the player always captures dead stones before passing.
    GenmoveCleanup(Color),
    /// `time_settings MAIN BYO STONES`.
    TimeSettings(GtpTimeSettings),
    /// `kgs-time_settings none | absolute M | byoyomi M T N | canadian M T S`, as the
    /// `time_settings` it amounts to.
    KgsTimeSettings(GtpTimeSettings),
    /// `time_left COLOR TIME STONES`.
    TimeLeft(Color, ReportedTime),
    /// `ingo-rules [PRESET]`: show the rules, or switch to a preset.
    Rules(Option<Preset>),
    /// `ingo-ko RULE`.
    Ko(KoRule),
    /// `ingo-suicide RULE`.
    Suicide(SuicideRule),
    /// `ingo-illegal_reason COLOR VERTEX`: the reason code, or `legal`.
    IllegalReason(Color, Move),
    /// `ingo-phase`: `playing`, `suspended` or `ended`.
    Phase,
    /// `ingo-count`: the count in words.
    Count,
    /// `ingo-agree_dead VERTEX...`: both players agree on these dead stones.
    AgreeDead(Vec<Point>),
    /// `ingo-handicap_passes N`: White's handicap passes of the next game.
    HandicapPasses(u8),
}

/// The statuses of `final_status_list`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// `dead`.
    Dead,
    /// `alive`.
    Alive,
    /// `seki`.
    Seki,
}

/// What `time_left` said for one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportedTime {
    /// Time left: in main time, or in the current byo-yomi period.
    pub time: Duration,
    /// 0 in main time; else the stones (or periods) left.
    pub stones: u32,
}

/// What a command's parser sees: its arguments and the board they refer to.
#[derive(Clone, Copy, Debug)]
pub struct Args<'a> {
    /// The arguments.
    pub args: &'a [String],
    /// The board's width (vertices are parsed against it).
    pub width: usize,
    /// The board's height.
    pub height: usize,
}

impl<'a> Args<'a> {
    fn get(&self, i: usize, what: &str) -> Result<&'a str, String> {
        self.args
            .get(i)
            .map(String::as_str)
            .ok_or_else(|| format!("syntax error: missing {what}"))
    }

    fn color(&self, i: usize) -> Result<Color, String> {
        let s = self.get(i, "colour")?;
        match s.parse::<GtpColor>() {
            Ok(GtpColor::Black) => Ok(Color::Black),
            Ok(GtpColor::White) => Ok(Color::White),
            Err(e) => Err(format!("syntax error: {e}")),
        }
    }

    fn vertex_text(&self, s: &str) -> Result<Move, String> {
        let size = u8::try_from(self.width).map_err(|_| "board too large".to_string())?;
        match Vertex::parse(s, size).map_err(|e| format!("syntax error: {e}"))? {
            Vertex::Pass => Ok(Move::Pass),
            Vertex::Point { col, row } => Point::new(col as usize, self.height - row as usize)
                .map(Move::Play)
                .ok_or_else(|| format!("syntax error: invalid vertex {s:?}")),
        }
    }

    fn vertex(&self, i: usize) -> Result<Move, String> {
        self.vertex_text(self.get(i, "vertex")?)
    }

    fn whole(&self, i: usize, what: &str, error: &str) -> Result<u64, String> {
        self.get(i, what)?
            .parse::<u64>()
            .map_err(|_| error.to_string())
    }
}

/// A command's parser.
type Parse = fn(&Args<'_>) -> Result<GtpCommand, String>;

/// One command of the table: its GTP name and its parser.
#[derive(Clone, Copy)]
pub struct Spec {
    /// The name, as `list_commands` gives it.
    pub name: &'static str,
    parse: Parse,
}

impl std::fmt::Debug for Spec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spec").field("name", &self.name).finish()
    }
}

impl Spec {
    /// Parses the arguments of this command.
    ///
    /// # Errors
    /// The GTP error text (`syntax error: ...`).
    pub fn parse(&self, args: &Args<'_>) -> Result<GtpCommand, String> {
        (self.parse)(args)
    }
}

macro_rules! spec {
    ($name:literal, $parse:expr) => {
        Spec {
            name: $name,
            parse: $parse,
        }
    };
}

fn stones_u32(n: u64) -> Result<u32, String> {
    u32::try_from(n).map_err(|_| "syntax error: too many stones".to_string())
}

fn time_settings(a: &Args<'_>) -> Result<GtpCommand, String> {
    let num = |i: usize, what: &str| {
        a.whole(
            i,
            what,
            &format!("syntax error: {what} must be a whole number"),
        )
    };
    let (main_secs, byo_secs, stones) = (
        num(0, "main time")?,
        num(1, "byo-yomi time")?,
        num(2, "byo-yomi stones")?,
    );
    Ok(GtpCommand::TimeSettings(GtpTimeSettings {
        main_secs,
        byo_secs,
        byo_stones: stones_u32(stones)?,
    }))
}

fn kgs_time_settings(a: &Args<'_>) -> Result<GtpCommand, String> {
    let kind = a.get(0, "time system")?;
    let num = |i: usize| a.whole(i, "number", "syntax error: expected whole numbers");
    let (main_secs, byo_secs, stones) = match kind {
        "none" => (0, 0, 0),
        "absolute" => (num(1)?, 0, 0),
        // Japanese byo-yomi: M main, then periods of T seconds with one stone each.
        "byoyomi" => (num(1)?, num(2)?, 1),
        "canadian" => (num(1)?, num(2)?, num(3)?),
        _ => return Err(format!("syntax error: unknown time system {kind:?}")),
    };
    Ok(GtpCommand::KgsTimeSettings(GtpTimeSettings {
        main_secs,
        byo_secs,
        byo_stones: stones_u32(stones)?,
    }))
}

fn time_left(a: &Args<'_>) -> Result<GtpCommand, String> {
    let color = a.color(0)?;
    let time: f64 = a
        .get(1, "time")?
        .parse()
        .map_err(|_| "syntax error: time must be a number".to_string())?;
    let stones: u32 = a
        .get(2, "stones")?
        .parse()
        .map_err(|_| "syntax error: stones must be a whole number".to_string())?;
    if !time.is_finite() || time < 0.0 {
        return Err("syntax error: time must not be negative".into());
    }
    Ok(GtpCommand::TimeLeft(
        color,
        ReportedTime {
            time: Duration::from_secs_f64(time.min(1e9)),
            stones,
        },
    ))
}

fn loadsgf(a: &Args<'_>) -> Result<GtpCommand, String> {
    let file = a.get(0, "file name")?.to_string();
    let upto = match a.args.get(1) {
        None => None,
        Some(s) => Some(
            s.parse()
                .map_err(|_| "syntax error: move number expected".to_string())?,
        ),
    };
    Ok(GtpCommand::Loadsgf { file, upto })
}

fn agree_dead(a: &Args<'_>) -> Result<GtpCommand, String> {
    let mut dead = Vec::new();
    for s in a.args {
        match a.vertex_text(s)? {
            Move::Play(p) => dead.push(p),
            Move::Pass => return Err("syntax error: pass is not a stone".into()),
        }
    }
    Ok(GtpCommand::AgreeDead(dead))
}

/// Every command, in the order `list_commands` gives them: the one table behind
/// `list_commands`, `known_command` and dispatch.
pub const COMMANDS: &[Spec] = &[
    spec!("protocol_version", |_| Ok(GtpCommand::ProtocolVersion)),
    spec!("name", |_| Ok(GtpCommand::Name)),
    spec!("version", |_| Ok(GtpCommand::Version)),
    spec!("known_command", |a| Ok(GtpCommand::KnownCommand(
        a.get(0, "command name")?.to_string()
    ))),
    spec!("list_commands", |_| Ok(GtpCommand::ListCommands)),
    spec!("quit", |_| Ok(GtpCommand::Quit)),
    spec!("boardsize", |a| {
        let n: usize = a
            .get(0, "size")?
            .parse()
            .map_err(|_| "syntax error: size is not a number".to_string())?;
        if !(2..=25).contains(&n) {
            return Err("unacceptable size".into());
        }
        Ok(GtpCommand::Boardsize(n))
    }),
    spec!("clear_board", |_| Ok(GtpCommand::ClearBoard)),
    spec!("komi", |a| a
        .get(0, "komi")?
        .parse()
        .map(GtpCommand::Komi)
        .map_err(|e| format!("syntax error: {e}"))),
    spec!("play", |a| Ok(GtpCommand::Play(a.color(0)?, a.vertex(1)?))),
    spec!("undo", |_| Ok(GtpCommand::Undo)),
    spec!("showboard", |_| Ok(GtpCommand::Showboard)),
    spec!("final_score", |_| Ok(GtpCommand::FinalScore)),
    spec!("final_status_list", |a| {
        let which = a.get(0, "status")?;
        Ok(GtpCommand::FinalStatusList(match which {
            "dead" => Status::Dead,
            "alive" => Status::Alive,
            "seki" => Status::Seki,
            _ => return Err(format!("syntax error: unknown status {which:?}")),
        }))
    }),
    spec!("is_legal", |a| Ok(GtpCommand::IsLegal(
        a.color(0)?,
        a.vertex(1)?
    ))),
    spec!("all_legal", |a| Ok(GtpCommand::AllLegal(a.color(0)?))),
    spec!("loadsgf", loadsgf),
    spec!("genmove", |a| Ok(GtpCommand::Genmove(a.color(0)?))),
    spec!("kgs-genmove_cleanup", |a| Ok(GtpCommand::GenmoveCleanup(
        a.color(0)?
    ))),
    spec!("time_settings", time_settings),
    spec!("kgs-time_settings", kgs_time_settings),
    spec!("time_left", time_left),
    spec!("ingo-rules", |a| match a.args.first() {
        None => Ok(GtpCommand::Rules(None)),
        Some(s) => s
            .parse()
            .map(|p| GtpCommand::Rules(Some(p)))
            .map_err(|e: ingo_rules::ParsePresetError| e.to_string()),
    }),
    spec!("ingo-ko", |a| a
        .get(0, "ko rule")?
        .parse()
        .map(GtpCommand::Ko)
        .map_err(|_| {
            "syntax error: expected ing, simple, positional or situational".into()
        })),
    spec!("ingo-suicide", |a| a
        .get(0, "suicide rule")?
        .parse()
        .map(GtpCommand::Suicide)
        .map_err(
            |_| "syntax error: expected none, block or all".into()
        )),
    spec!("ingo-illegal_reason", |a| Ok(GtpCommand::IllegalReason(
        a.color(0)?,
        a.vertex(1)?
    ))),
    spec!("ingo-phase", |_| Ok(GtpCommand::Phase)),
    spec!("ingo-count", |_| Ok(GtpCommand::Count)),
    spec!("ingo-agree_dead", agree_dead),
    spec!("ingo-handicap_passes", |a| a
        .get(0, "number of passes")?
        .parse()
        .map(GtpCommand::HandicapPasses)
        .map_err(
            |_| "syntax error: expected a number of passes".into()
        )),
];

/// The table's entry for `name`, if the engine knows the command.
pub fn find(name: &str) -> Option<&'static Spec> {
    COMMANDS.iter().find(|s| s.name == name)
}

/// Parses a command line's name and arguments against a board of `width × height`.
///
/// # Errors
/// `unknown command`, or the command's own syntax error.
pub fn parse(
    name: &str,
    args: &[String],
    width: usize,
    height: usize,
) -> Result<GtpCommand, String> {
    let spec = find(name).ok_or_else(|| "unknown command".to_string())?;
    spec.parse(&Args {
        args,
        width,
        height,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(line: &str) -> Result<GtpCommand, String> {
        let mut words = line.split_whitespace();
        let name = words.next().unwrap_or_default();
        let args: Vec<String> = words.map(str::to_string).collect();
        parse(name, &args, 9, 9)
    }

    #[test]
    fn every_command_of_the_table_has_a_unique_name() {
        let mut names: Vec<_> = COMMANDS.iter().map(|s| s.name).collect();
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n);
    }

    #[test]
    fn commands_parse_into_typed_values() {
        let d4 = Move::Play(Point::from_gtp("D4", 9, 9).expect("on the board"));
        assert_eq!(p("play w d4"), Ok(GtpCommand::Play(Color::White, d4)));
        assert_eq!(
            p("play B pass"),
            Ok(GtpCommand::Play(Color::Black, Move::Pass))
        );
        assert_eq!(
            p("time_settings 600 30 1"),
            Ok(GtpCommand::TimeSettings(GtpTimeSettings {
                main_secs: 600,
                byo_secs: 30,
                byo_stones: 1
            }))
        );
        assert_eq!(
            p("kgs-time_settings byoyomi 0 10 3"),
            Ok(GtpCommand::KgsTimeSettings(GtpTimeSettings {
                main_secs: 0,
                byo_secs: 10,
                byo_stones: 1
            }))
        );
        assert_eq!(
            p("kgs-time_settings canadian 60 300 25"),
            Ok(GtpCommand::KgsTimeSettings(GtpTimeSettings {
                main_secs: 60,
                byo_secs: 300,
                byo_stones: 25
            }))
        );
        assert_eq!(
            p("ingo-ko psk"),
            Ok(GtpCommand::Ko(KoRule::PositionalSuperko))
        );
        assert_eq!(p("ingo-rules"), Ok(GtpCommand::Rules(None)));
        assert_eq!(
            p("ingo-agree_dead d4 e5"),
            Ok(GtpCommand::AgreeDead(vec![
                Point::from_gtp("D4", 9, 9).expect("on the board"),
                Point::from_gtp("E5", 9, 9).expect("on the board"),
            ]))
        );
    }

    #[test]
    fn bad_arguments_give_gtp_syntax_errors() {
        assert_eq!(p("play"), Err("syntax error: missing colour".into()));
        assert_eq!(p("play b"), Err("syntax error: missing vertex".into()));
        assert_eq!(
            p("play b j10"),
            Err("syntax error: vertex J10 is off a 9x9 board".into())
        );
        assert_eq!(p("boardsize 30"), Err("unacceptable size".into()));
        assert_eq!(
            p("time_left b -5 0"),
            Err("syntax error: time must not be negative".into())
        );
        assert_eq!(
            p("time_settings 1 2 99999999999"),
            Err("syntax error: too many stones".into())
        );
        assert_eq!(
            p("ingo-agree_dead pass"),
            Err("syntax error: pass is not a stone".into())
        );
        assert_eq!(p("frobnicate"), Err("unknown command".into()));
    }
}
