//! `ingo`: Ing's rules of Go as a command-line tool. The binary is thin: it parses arguments,
//! calls the libraries, and maps errors to exit codes.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use ingo_competition::{handicap, HandicapScale, Rank};
use ingo_rules::{KoRule, Komi, Preset, Rules, SuicideRule};

mod bench;
mod gtp;
mod judge;
mod matches;
mod records;
mod report;
mod serve;
mod tournament;
mod verify;

/// Ing's counting rules of Go (應氏計點制): a GTP engine and tools to judge and referee games.
#[derive(Parser)]
#[command(name = "ingo", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Speak GTP v2 on standard input and output (for GoGui, Sabaki, referees, engines).
    Gtp(GtpArgs),
    /// Replay game records under Ing's rules: report the first illegal move, the phase and the count.
    ///
    /// Exit code 0 when every file was judged cleanly, 1 when some record has an illegal move, 2
    /// when some file could not be read (or holds no game tree, or a folder holds no record).
    /// Verdicts (or JSON) go to standard output, warnings and errors to standard error. A record
    /// cut off before its end is judged as far as it goes and called INCOMPLETE. Files are
    /// limited to 16 MiB, 20,000 games and 2,000,000 nodes; raise the limits with the
    /// environment variables INGO_SGF_MAX_BYTES, INGO_SGF_MAX_GAMES and INGO_SGF_MAX_NODES.
    Judge(JudgeArgs),
    /// The fill-in count of a record's final position, as a referee reads it off the board.
    Score(ScoreArgs),
    /// Draw a position of a record as SVG or PNG: coordinates, stones, last move, move numbers.
    Render(RenderArgs),
    /// Run games between two GTP engines with an enforced clock; the referee judges every move
    /// and counts every game itself.
    Match(Box<matches::MatchArgs>),
    /// The handicap between two ranks (9p/1品, 5d/5段, 2k/2級, 級外): White's passes, komi and
    /// who wins a tie.
    ///
    /// Professional ranks: `Np` is the professional dan, counted upwards (9p is the strongest),
    /// and `N品` is Ing's own scale, counted downwards (1品 is the strongest): 9p = 1品, 1p = 9品.
    /// A game between different ranks is a handicap game (有差賽) even when the handicap is
    /// compensation points alone, and its tie goes to White; an even game's tie goes to Black.
    Handicap(HandicapArgs),
    /// Benchmarks that check their own results: playouts, the judge path, the player, memory.
    Bench(bench::BenchArgs),
    /// Run the play server: games under Ing's rules over HTTP and WebSocket, on an SQLite file
    /// (created on first start) or PostgreSQL.
    Serve(serve::ServeArgs),
    /// Tournaments under Ing's competition rules: agreement, entrants, pairing, results,
    /// standings with A1/A2/B1/B2, crosstables, exports, and engine events run to the end.
    Tournament(tournament::TournamentArgs),
}

#[derive(Args)]
struct HandicapArgs {
    /// One player's rank: 9p (professional dan, = 1品) … 1p (= 9品), 1品 … 9品, 9d/9段 … 1d/初段,
    /// 1k/1級 … 9k/9級, 級外.
    a: Rank,
    /// The other player's rank.
    b: Rank,
    /// Print {"black", "white", "handicap_passes", "komi", "tie_winner", ...} as JSON.
    #[arg(long)]
    json: bool,
    /// Points from 1級 up to 初段 (an assumption of the spec: one 級 step).
    #[arg(long, default_value_t = 8)]
    kyu_to_dan: i32,
    /// Points from 9段 up to 9品 (an assumption of the spec: one 段 step).
    #[arg(long, default_value_t = 4)]
    dan_to_pro: i32,
    /// In an even game, draw the colours by nigiri from this seed: the first player named
    /// holds the stones, the second guesses (the same seed gives the same result).
    #[arg(long)]
    nigiri_seed: Option<u64>,
}

#[derive(Args)]
struct JudgeArgs {
    /// SGF files, or folders searched recursively for *.sgf.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// One JSON object per game on standard output.
    #[arg(long)]
    json: bool,
    /// Rules preset for every record, instead of the record's RU (Ing when RU is absent).
    #[arg(long)]
    rules: Option<Preset>,
    /// Count the final position even when the game has not ended (every stone alive unless --dead).
    #[arg(long)]
    count: bool,
    /// Dead stones to take off before counting, GTP names separated by commas (C3,D4).
    #[arg(long, value_delimiter = ',')]
    dead: Vec<String>,
    /// Accept ko retakes that Ing's rules refuse (mistaken captures, 誤提) and list them.
    #[arg(long)]
    tolerant: bool,
    /// Judge every line of play (each variation from the root to a leaf), not only the main line.
    #[arg(long)]
    variations: bool,
    /// For every record that ended by a count (RE like B+3), judge the end of the game (dead
    /// stones, seki, neutral points filled in turn) and compare the count with RE.
    #[arg(long)]
    verify: bool,
}

#[derive(Args)]
struct ScoreArgs {
    /// The SGF file (its first game).
    file: PathBuf,
    /// Dead stones to take off before counting, GTP names separated by commas (C3,D4).
    #[arg(long, value_delimiter = ',')]
    dead: Vec<String>,
    /// Rules preset instead of the record's RU (Ing when RU is absent).
    #[arg(long)]
    rules: Option<Preset>,
    /// Count the position after this many moves instead of the final one.
    #[arg(long = "move")]
    move_number: Option<usize>,
    /// Also draw the counted board, territory and shared points marked, as SVG to this file.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Also draw the counted board as PNG to this file.
    #[arg(long)]
    png: Option<PathBuf>,
}

#[derive(Args)]
#[command(group(clap::ArgGroup::new("out").required(true).multiple(true).args(["svg", "png"])))]
struct RenderArgs {
    /// The SGF file (its first game).
    file: PathBuf,
    /// Draw the position after this many moves (default: the end of the main line).
    #[arg(long = "move")]
    move_number: Option<usize>,
    /// Write SVG to this file.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Write PNG to this file.
    #[arg(long)]
    png: Option<PathBuf>,
    /// Number the stones by the move that played them.
    #[arg(long)]
    numbers: bool,
    /// Leave out the coordinates.
    #[arg(long)]
    no_coordinates: bool,
    /// Pixels between two lines.
    #[arg(long, default_value_t = 32)]
    point_size: u32,
    /// Rules preset to replay under, instead of the record's RU.
    #[arg(long)]
    rules: Option<Preset>,
}

/// Rule selection shared by the subcommands.
#[derive(Args, Clone)]
pub struct RuleArgs {
    /// Rules preset: ing, katago-ing, chinese, tromp-taylor, japanese.
    #[arg(long, default_value = "ing")]
    pub rules: Preset,
    /// Override the ko rule: ing, simple, positional, situational.
    #[arg(long)]
    pub ko: Option<KoRule>,
    /// Override the suicide rule: none, block, all.
    #[arg(long)]
    pub suicide: Option<SuicideRule>,
    /// Override the komi (an integer or half-integer).
    #[arg(long, allow_hyphen_values = true)]
    pub komi: Option<Komi>,
}

impl RuleArgs {
    /// The rules: the preset with the overrides.
    pub fn rules(&self) -> Rules {
        let mut r = self.rules.rules();
        if let Some(ko) = self.ko {
            r.ko = ko;
        }
        if let Some(s) = self.suicide {
            r.suicide = s;
        }
        if let Some(k) = self.komi {
            r.komi = k;
        }
        r
    }
}

#[derive(Args)]
struct GtpArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// Board size of the first game (2 to 25).
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(2..=25))]
    size: u8,
    /// Playouts per move of the built-in player (its strength).
    #[arg(long, default_value_t = 10_000)]
    playouts: u64,
    /// Most seconds per move of the built-in player (the clock, when the controller sets one, may
    /// allow less).
    #[arg(long)]
    time: Option<f64>,
    /// Seed of the built-in player's random numbers: with a playout budget and no time limit,
    /// the same seed plays the same moves. By default a new seed each run, so that the games of
    /// a match differ.
    #[arg(long)]
    seed: Option<u64>,
    /// Never resign (by default the player resigns when its best move wins less than 2% of
    /// at least 2,000 playouts, instead of playing out a lost game).
    #[arg(long)]
    no_resign: bool,
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Cmd::Gtp(args) => {
            let player = gtp::PlayerArgs {
                playouts: args.playouts,
                time: args.time,
                seed: args.seed.unwrap_or_else(fresh_seed),
                resign: !args.no_resign,
            };
            gtp::serve(args.size as usize, args.rules.rules(), &player)?;
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Judge(args) => {
            let opts = judge::JudgeOptions {
                rules: args.rules.map(Preset::rules),
                rules_name: args.rules.map(Preset::name),
                count: args.count,
                dead: args.dead,
                tolerant: args.tolerant,
                variations: args.variations,
                verify: args.verify,
            };
            let summary = judge::run(
                &args.paths,
                args.json,
                &opts,
                &mut io::stdout().lock(),
                &mut io::stderr().lock(),
            )?;
            Ok(ExitCode::from(summary.exit_code()))
        }
        Cmd::Handicap(args) => {
            let scale = HandicapScale {
                kyu_to_dan: args.kyu_to_dan,
                dan_to_pro: args.dan_to_pro,
                ..HandicapScale::ing()
            };
            let h = handicap(args.a, args.b, &scale);
            // 猜先: the guesser (the second player named) takes Black when the guess is right.
            let drawn = args
                .nigiri_seed
                .filter(|_| h.nigiri)
                .map(ingo_competition::nigiri);
            let (black, white) = match drawn {
                Some(n) if n.guesser_takes_black => (args.b, args.a),
                _ => (h.black, h.white),
            };
            // The handicap decides who wins a tie, not the pass count (有差賽: White).
            let tie_winner = match h.tie_winner(&Rules::ing()) {
                ingo_rules::Color::Black => "black",
                ingo_rules::Color::White => "white",
            };
            let mut out = io::stdout().lock();
            if args.json {
                let komi = if h.komi.halves() % 2 == 0 {
                    serde_json::json!(h.komi.halves() / 2)
                } else {
                    serde_json::json!(h.komi.as_f64())
                };
                let mut v = serde_json::json!({
                    "black": black.to_string(),
                    "white": white.to_string(),
                    "handicap_passes": h.handicap_passes,
                    "komi": komi,
                    "tie_winner": tie_winner,
                    "nigiri": h.nigiri,
                    "difference": h.difference,
                    "explanation": h.explanation,
                });
                if let (Some(n), serde_json::Value::Object(map)) = (drawn, &mut v) {
                    map.insert(
                        "nigiri_draw".into(),
                        serde_json::json!({
                            "handful": n.handful,
                            "guess": if n.guess == ingo_competition::Parity::Odd { "odd" } else { "even" },
                            "guesser_takes_black": n.guesser_takes_black,
                            "black_player": if n.guesser_takes_black { "second" } else { "first" },
                        }),
                    );
                }
                writeln!(out, "{v}")?;
            } else {
                writeln!(out, "{}", h.explanation)?;
                if let Some(n) = drawn {
                    writeln!(
                        out,
                        "Nigiri: the first player ({}) holds {} stones, the second ({}) guesses {}: {}. The {} player takes Black; Black gives {} points.",
                        args.a,
                        n.handful,
                        args.b,
                        if n.guess == ingo_competition::Parity::Odd { "odd" } else { "even" },
                        if n.guesser_takes_black { "right" } else { "wrong" },
                        if n.guesser_takes_black { "second" } else { "first" },
                        h.komi
                    )?;
                } else if h.nigiri {
                    writeln!(out, "Colours by nigiri; Black gives {} points.", h.komi)?;
                } else {
                    writeln!(
                        out,
                        "Black: {} ({}), White: {} ({}); White passes {} time(s) after Black's moves; komi {}; a tie goes to {} (有差賽).",
                        h.black,
                        h.black.to_chinese(),
                        h.white,
                        h.white.to_chinese(),
                        h.handicap_passes,
                        h.komi,
                        if tie_winner == "white" { "White" } else { "Black" },
                    )?;
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Score(args) => {
            refuse_to_overwrite(&args.file, [args.svg.as_deref(), args.png.as_deref()])?;
            let report =
                records::score_report(&args.file, args.rules, args.move_number, &args.dead)?;
            records::print_warnings(&args.file, &report.warnings);
            io::stdout().lock().write_all(report.text.as_bytes())?;
            if args.svg.is_some() || args.png.is_some() {
                let mut diagram =
                    ingo_render::Diagram::new(report.game.board()).with_score(Some(&report.score));
                if let Some(j) = &report.judgement {
                    let mut seki = j.stones(ingo_player::endgame::Status::Seki);
                    seki.extend(&j.seki_points);
                    diagram = diagram
                        .with_fills(j.fills.iter().map(|f| (f.point, f.color)).collect())
                        .with_seki(seki);
                }
                let options = ingo_render::DiagramOptions {
                    shade_territory: true,
                    last_move: false,
                    title: Some(format!(
                        "{}: counted under {}",
                        args.file.file_name().map_or_else(
                            || args.file.display().to_string(),
                            |n| n.to_string_lossy().into_owned()
                        ),
                        report.game.rules()
                    )),
                    ..ingo_render::DiagramOptions::default()
                };
                write_pictures(&diagram, &options, args.svg.as_deref(), args.png.as_deref())?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Match(args) => matches::run(*args),
        Cmd::Serve(args) => {
            serve::run(args)?;
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Tournament(args) => {
            tournament::run(args)?;
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Bench(args) => {
            bench::run(args, &mut io::stdout().lock())?;
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Render(args) => {
            refuse_to_overwrite(&args.file, [args.svg.as_deref(), args.png.as_deref()])?;
            let position = records::position(&args.file, args.rules, args.move_number)?;
            records::print_warnings(&args.file, &position.warnings);
            let diagram = ingo_render::Diagram::from_game(&position.game);
            let options = ingo_render::DiagramOptions {
                coordinates: !args.no_coordinates,
                move_numbers: args.numbers,
                point_size_px: args.point_size,
                ..ingo_render::DiagramOptions::default()
            };
            write_pictures(&diagram, &options, args.svg.as_deref(), args.png.as_deref())?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// A seed that differs from run to run: the clock and the process id, mixed.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32) ^ 0x9E37_79B9_7F4A_7C15
}

/// Refuses outputs that would write over the `input` record: the same file (device and inode,
/// so also through another path, a symbolic link or a hard link), or the same canonical path.
/// An output that does not exist yet cannot be the input.
fn refuse_to_overwrite<const N: usize>(
    input: &std::path::Path,
    outputs: [Option<&std::path::Path>; N],
) -> anyhow::Result<()> {
    for out in outputs.into_iter().flatten() {
        let (Ok(a), Ok(b)) = (std::fs::metadata(input), std::fs::metadata(out)) else {
            continue;
        };
        #[cfg(unix)]
        let same = {
            use std::os::unix::fs::MetadataExt;
            a.dev() == b.dev() && a.ino() == b.ino()
        };
        #[cfg(not(unix))]
        let same = {
            let _ = (a, b);
            std::fs::canonicalize(input).ok() == std::fs::canonicalize(out).ok()
        };
        if same {
            anyhow::bail!(
                "refusing to write {}: it is the input record {}",
                out.display(),
                input.display()
            );
        }
    }
    Ok(())
}

/// Writes the diagram as SVG and/or PNG.
fn write_pictures(
    diagram: &ingo_render::Diagram<'_>,
    options: &ingo_render::DiagramOptions,
    svg: Option<&std::path::Path>,
    png: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    use anyhow::Context;
    if let Some(path) = svg {
        std::fs::write(path, ingo_render::render_svg(diagram, options))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = png {
        let bytes = ingo_render::render_png(diagram, options)?;
        std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        // A reader that stops early (`ingo judge DIR | head`) is not an error.
        Err(e)
            if e.downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ingo: {e:#}");
            ExitCode::from(2)
        }
    }
}
