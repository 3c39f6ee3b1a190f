//! `ingo-bench`: the speed of the engine, measured the way a search and a referee use it, each
//! benchmark checking its own result so that a fast wrong answer cannot pass unseen.
//!
//! * `playouts`: light random playouts from the empty board (a template game cloned per playout,
//!   as a search does), under Ing's ko rules or simple ko. With `--playouts N --seed K` the move
//!   total is deterministic and printed (`total_moves=`), so a change in what the engine decides
//!   shows; the last line is `playouts_per_second=<number>` for scripts.
//! * `compare`: the same under Ing's rules and simple ko, alternating, and the cost of Ing's rules.
//! * `judge`: parse + strict replay under Ing's rules + count of every record of a corpus, read
//!   into memory first; checks the move counts against the corpus index and that every Ing Cup
//!   game replays cleanly.
//! * `player`: the built-in player's playouts per second over a few moves of a fixed opening.
//! * `memory`: bytes of history per ply ([`ingo_rules::Game::history_bytes`]) and the peak
//!   resident memory of judging a corpus.
//! * `peer`: light playouts of a peer Go library (the `goban` crate, with the `peer` feature) beside
//!   ingo's, and their ratio; `judge --peer sgfmill` times sgfmill on the same records.
//!
//! `BENCHMARKS.md` at the root of the workspace has the commands and the figures. The suite is a
//! crate of its own, not published, so that the shipped `ingo` carries neither the benchmarks nor
//! their peers: `cargo run --release -p ingo-bench -- playouts ...`.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, ensure, Context};
use clap::{Args, Parser, Subcommand, ValueEnum};
use ingo_player::{Action, Budget, Config, Player, Rng};
use ingo_rules::{Color, Game, KoRule, Rules, Setup};
use ingo_sgf::{ReadOptions, ReplayMode};

mod patterns;

/// ingo's benchmarks, each checking its own result: playouts, the judge path, the player, memory,
/// the end of game, and peers timed beside ingo.
#[derive(Parser)]
#[command(name = "ingo-bench", version, about)]
pub struct BenchArgs {
    #[command(subcommand)]
    what: BenchCmd,
}

fn main() -> ExitCode {
    match run(BenchArgs::parse(), &mut std::io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stops early (`ingo-bench judge | head`) is not an error.
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ingo-bench: {e:#}");
            ExitCode::from(2)
        }
    }
}

#[derive(Subcommand)]
enum BenchCmd {
    /// Light random playouts from the empty board; ends with `playouts_per_second=<number>`.
    Playouts(PlayoutArgs),
    /// Playouts under Ing's ko rules and under simple ko, alternating: the cost of Ing's rules.
    Compare(CompareArgs),
    /// Parse, replay under Ing's rules and count every record of a corpus (read into memory first).
    Judge(JudgeBenchArgs),
    /// The built-in player's search speed over a few moves of a fixed opening.
    Player(PlayerArgs),
    /// Bytes of history per ply, and the peak memory of judging a corpus.
    Memory(MemoryArgs),
    /// The end of the counted Ing Cup games judged by ingo and by GNU Go's `final_score` in the
    /// same run: time per position, ratio, and agreement with the recorded results.
    Endgame(EndgameBenchArgs),
    /// Light playouts of a peer library (the `goban` crate) beside ingo's, and the ratio (needs
    /// the `peer` feature: `cargo run --release -p ingo-bench --features peer -- peer`).
    Peer(PeerArgs),
    /// Move patterns learned from a corpus (`patterns train`) and their prediction rate on
    /// records held out (`patterns eval`).
    Patterns(patterns::PatternsArgs),
}

/// The ko rule of a playout benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BenchKo {
    /// Ing's ko rules (R2–R6 of docs/rules.md), the default rules of ingo.
    Ing,
    /// Simple ko: only the immediate retake of a single stone is forbidden.
    Simple,
}

impl BenchKo {
    fn rules(self) -> Rules {
        let mut rules = Rules::ing();
        rules.ko = match self {
            BenchKo::Ing => KoRule::Ing,
            BenchKo::Simple => KoRule::Simple,
        };
        rules
    }

    fn name(self) -> &'static str {
        match self {
            BenchKo::Ing => "ing",
            BenchKo::Simple => "simple",
        }
    }
}

#[derive(Args)]
struct PlayoutArgs {
    /// Board size.
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(2..=25))]
    size: u8,
    /// Ko rule: `ing` (Ing's rules) or `simple`.
    #[arg(long, value_enum, default_value = "ing")]
    ko: BenchKo,
    /// Run for this many seconds (default 5 when --playouts is not given).
    #[arg(long, conflicts_with = "playouts")]
    seconds: Option<f64>,
    /// Run exactly this many playouts (the move total is then deterministic for the seed).
    #[arg(long)]
    playouts: Option<u64>,
    /// Seed of the random numbers.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Args)]
struct CompareArgs {
    /// Board size.
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(2..=25))]
    size: u8,
    /// Seconds for each ko rule, spent in alternating one-second rounds.
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// Seed of the random numbers (each round restarts from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Args)]
struct JudgeBenchArgs {
    /// The folder of records, searched recursively for *.sgf (with INDEX.tsv for the move check
    /// when it has one).
    #[arg(long, default_value = "../shared/sgf-corpus")]
    corpus: PathBuf,
    /// Only records of this board size (19 for real 19×19 games).
    #[arg(long)]
    size: Option<u8>,
    /// Judge the records this many times over (after one untimed pass).
    #[arg(long, default_value_t = 3)]
    repeat: u32,
    /// Also time a peer on the same files: `sgfmill` (python3 with sgfmill installed) or `gnugo`
    /// (GNU Go's `loadsgf` over GTP).
    #[arg(long, value_enum)]
    peer: Vec<JudgePeer>,
    /// The GNU Go program for `--peer gnugo` [default: `$GNUGO`, else `gnugo` on `PATH`, else
    /// `/usr/games/gnugo`].
    #[arg(long)]
    gnugo: Option<PathBuf>,
}

/// A program that replays SGF records, timed on the same files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum JudgePeer {
    /// sgfmill (Python): parse and replay the main line with captures (no ko check).
    Sgfmill,
    /// GNU Go over GTP: `loadsgf` of each file (parse and replay through its board).
    Gnugo,
}

impl JudgePeer {
    fn name(self) -> &'static str {
        match self {
            JudgePeer::Sgfmill => "sgfmill",
            JudgePeer::Gnugo => "gnugo",
        }
    }
}

#[derive(Args)]
struct PlayerArgs {
    /// Board size.
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(2..=25))]
    size: u8,
    /// Playouts per move.
    #[arg(long, default_value_t = 2000)]
    playouts: u64,
    /// Moves to generate (each from the position the previous ones made).
    #[arg(long, default_value_t = 4)]
    moves: u32,
    /// Seed of the player.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Search without the pattern priors (`Config::pattern_priors` off), to measure them.
    #[arg(long)]
    no_priors: bool,
    /// Searching threads (`Config::threads`).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Heavy playouts (`PlayoutPolicy::Heavy`) instead of light ones.
    #[arg(long)]
    heavy: bool,
}

#[derive(Args)]
struct EndgameBenchArgs {
    /// The corpus (with INDEX.tsv: the records' paths, komi and results).
    #[arg(long, default_value = "../shared/sgf-corpus")]
    corpus: PathBuf,
    /// Only records whose path in INDEX.tsv starts with this.
    #[arg(long, default_value = "aeb-pro/Ing/")]
    prefix: String,
    /// Only records with this komi (KM as INDEX.tsv gives it; empty for any).
    #[arg(long, default_value = "8")]
    komi: String,
    /// Judge the positions with ingo this many times over (the time is the mean).
    #[arg(long, default_value_t = 5)]
    repeat: u32,
    /// Playouts of ingo's judgement per position.
    #[arg(long, default_value_t = ingo_player::endgame::EndgameConfig::default().playouts)]
    playouts: u32,
    /// Seed of ingo's playouts: the judgement's own by default. Other seeds show how much of
    /// a figure is the luck of the draw (the playouts decide the verdicts no reading settles).
    #[arg(long, default_value_t = ingo_player::endgame::EndgameConfig::default().seed)]
    seed: u64,
    /// Also judge every record with the seeds 1 to N and print each seed's winners and exact
    /// margins and their range (`ingo_winner_over_seeds=`): the spread of a figure over the
    /// draws of the playouts, which one run with one seed does not show.
    #[arg(long, default_value_t = 0)]
    seeds: u64,
    /// The GNU Go program (`/usr/games/gnugo` when `gnugo` is not on the PATH).
    #[arg(long, default_value = "gnugo")]
    gnugo: PathBuf,
    /// Leave GNU Go out (ingo's figures only).
    #[arg(long)]
    no_gnugo: bool,
    /// GNU Go's counting: `area` (`--chinese-rules`, stones and empty points, as Ing's rules
    /// count) or `territory` (its default, Japanese counting).
    #[arg(long, value_enum, default_value_t = GnugoCount::Area)]
    gnugo_count: GnugoCount,
    /// ingo's counting: `area` (Ing's count, the judgement's score) or `territory` (a
    /// diagnostic for records counted by territory: the same judgement, its margin less the
    /// difference of the stones each side put on the board, which is the territory margin:
    /// `Judgement::territory_margin_halves`).
    #[arg(long, value_enum, default_value_t = IngoCount::Area)]
    ingo_count: IngoCount,
    /// The record set: `chosen` (the records `--prefix` and `--komi` select), `ing` (every
    /// counted Ing Cup record, any komi), `others` (every 8th counted 19×19 record of the other
    /// events, as `endgame_corpus` judges them), `held-out` (every 4th counted 19×19 record of
    /// the other events from the 3rd: none of `others`, records the judgement was not tuned on),
    /// `outside` (every counted 19×19 record of `--corpus`, for records from outside the shared
    /// corpus), `small` (every counted 9×9 record, then every counted 13×13 record) or `all`
    /// (the three sets `km8`, `ing` and `others` in one run, each reported on its own, then the
    /// processor time over all). A run of several sets ends with `set=all` and the processor
    /// time over them.
    #[arg(long, value_enum, default_value_t = EndgameSet::Chosen)]
    set: EndgameSet,
}

/// The records `ingo-bench endgame` judges.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum EndgameSet {
    /// The records `--prefix` and `--komi` select.
    Chosen,
    /// The counted Ing Cup records with `KM[8]` (`--prefix aeb-pro/Ing/ --komi 8`).
    Km8,
    /// Every counted Ing Cup record, whatever its komi.
    Ing,
    /// Every 8th counted 19×19 record of the other events, in index order.
    Others,
    /// `km8`, `ing` and `others`, one after the other in one run.
    All,
    /// Held out: every 4th counted 19×19 record of the other events from the 3rd, in index
    /// order (the 3rd, 7th, 11th, …): none of them is in `others`, the set the judgement was
    /// measured and tuned on, so this is how it does on records it was not built on.
    HeldOut,
    /// Every counted 19×19 record of `--corpus`'s index, those that do not replay left out: for
    /// a folder of records from outside the shared corpus, such as the one
    /// `scripts/outside-records.py` draws (`--corpus DIR`).
    Outside,
    /// Every counted 9×9 record, then every counted 13×13 record of the index (none of them
    /// measured or tuned on before): the boards most games on a server are played on.
    Small,
}

/// One selection of counted records of the corpus's index.
#[derive(Clone)]
struct Selection {
    name: &'static str,
    /// Paths starting with this…
    prefix: String,
    /// …or, when set, paths not starting with it.
    exclude: bool,
    /// `KM` as the index gives it (empty: any).
    komi: String,
    /// `SZ` (empty: any).
    size: &'static str,
    /// Every `step`th of the matching counted records…
    step: usize,
    /// …from this one (0: the first).
    offset: usize,
    /// Leave out records that do not replay (the `others` set, as the corpus test does)
    /// instead of failing.
    skip_unreplayable: bool,
}

impl EndgameSet {
    fn selections(self, a: &EndgameBenchArgs) -> Vec<Selection> {
        let km8 = Selection {
            name: "km8",
            prefix: "aeb-pro/Ing/".into(),
            exclude: false,
            komi: "8".into(),
            size: "",
            step: 1,
            offset: 0,
            skip_unreplayable: false,
        };
        let all_ing = Selection {
            name: "ing",
            komi: String::new(),
            skip_unreplayable: true,
            ..km8.clone()
        };
        let others = Selection {
            name: "others",
            exclude: true,
            komi: String::new(),
            size: "19",
            step: 8,
            skip_unreplayable: true,
            ..km8.clone()
        };
        match self {
            EndgameSet::Chosen => vec![Selection {
                name: "chosen",
                prefix: a.prefix.clone(),
                komi: a.komi.clone(),
                ..km8.clone()
            }],
            EndgameSet::Km8 => vec![km8],
            EndgameSet::Ing => vec![all_ing],
            EndgameSet::Others => vec![others],
            EndgameSet::HeldOut => vec![Selection {
                name: "held_out",
                step: 4,
                offset: 2,
                ..others
            }],
            EndgameSet::Outside => vec![Selection {
                name: "outside",
                prefix: String::new(),
                exclude: false,
                step: 1,
                ..others
            }],
            EndgameSet::Small => {
                let nine = Selection {
                    name: "small_9x9",
                    prefix: String::new(),
                    exclude: false,
                    size: "9",
                    step: 1,
                    ..others
                };
                let thirteen = Selection {
                    name: "small_13x13",
                    size: "13",
                    ..nine.clone()
                };
                vec![nine, thirteen]
            }
            EndgameSet::All => vec![km8, all_ing, others],
        }
    }
}

/// How ingo's judgement is counted in `ingo-bench endgame`.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum IngoCount {
    /// The judgement's count: area, as Ing's rules count.
    Area,
    /// The judgement's count as a territory count
    /// ([`ingo_player::endgame::Judgement::territory_margin_halves`]).
    Territory,
}

/// ingo's count of `p` judged `j`, as `how` asks: a winner and a margin in half points. A
/// territory margin of 0 goes to the rules' winner of a tie.
fn ingo_count(
    how: IngoCount,
    p: &CountedPosition,
    j: &ingo_player::endgame::Judgement,
) -> Option<(Color, i32)> {
    let m = match how {
        IngoCount::Area => return Some((j.score.winner, j.score.margin_halves.abs())),
        IngoCount::Territory => i64::from(j.territory_margin_halves(&p.game)),
    };
    let winner = match m.signum() {
        1 => Color::Black,
        -1 => Color::White,
        _ => p.game.rules().tie_even,
    };
    Some((winner, i32::try_from(m.abs()).ok()?))
}

/// How GNU Go counts a final position in `ingo-bench endgame`.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum GnugoCount {
    /// `--chinese-rules`: area counting, as Ing's rules count.
    Area,
    /// GNU Go's default rules: territory counting.
    Territory,
}

#[derive(Args)]
struct MemoryArgs {
    /// The folder of records to judge for the peak memory (skipped when missing).
    #[arg(long, default_value = "../shared/sgf-corpus")]
    corpus: PathBuf,
    /// Seed of the random playout games measured.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Args)]
struct PeerArgs {
    /// Board size (the peer, `goban`, supports 9, 13 and 19).
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(2..=25))]
    size: u8,
    /// Seconds for each side, in alternating one-second rounds.
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// Seed of the random numbers.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Runs a benchmark, writing the report to `out`.
///
/// # Errors
/// When a benchmark's self-check fails, an argument is out of range, or a file cannot be read.
pub fn run(args: BenchArgs, out: &mut impl Write) -> anyhow::Result<()> {
    match args.what {
        BenchCmd::Playouts(a) => playouts(&a, out),
        BenchCmd::Compare(a) => compare(&a, out),
        BenchCmd::Judge(a) => judge(&a, out),
        BenchCmd::Player(a) => player(&a, out),
        BenchCmd::Memory(a) => memory(&a, out),
        BenchCmd::Peer(a) => peer(&a, out),
        BenchCmd::Endgame(a) => endgame(&a, out),
        BenchCmd::Patterns(a) => patterns::run(&a, out),
    }
}

fn positive_seconds(s: f64, flag: &str) -> anyhow::Result<Duration> {
    ensure!(
        s.is_finite() && s > 0.0,
        "{flag} must be a positive number of seconds, not {s}"
    );
    Ok(Duration::from_secs_f64(s))
}

/// Time this thread has spent on a processor, where Linux reports it (`/proc/thread-self/schedstat`,
/// nanoseconds): on a busy machine it shows how much of the wall-clock time the benchmark had.
fn cpu_time() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(Duration::from_nanos(
        s.split_whitespace().next()?.parse().ok()?,
    ))
}

// ---------------------------------------------------------------------------------------------
// Playouts
// ---------------------------------------------------------------------------------------------

/// When a batch of playouts stops.
#[derive(Clone, Copy, Debug)]
enum Limit {
    Playouts(u64),
    Time(Duration),
}

/// What a batch of playouts did; every field but the times is deterministic for a seed and count.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Batch {
    /// Playouts made.
    pub playouts: u64,
    /// Moves played in them, passes included.
    pub moves: u64,
    /// Playouts Black won by the count.
    pub black_wins: u64,
    /// Sum of the margins (for Black, in half points), a checksum of the final positions.
    pub margin_halves: i64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Time on a processor, when known.
    pub cpu: Option<Duration>,
}

impl Batch {
    fn add(&mut self, other: &Batch) {
        self.cpu = if self.elapsed.is_zero() {
            other.cpu
        } else {
            self.cpu.zip(other.cpu).map(|(a, b)| a + b)
        };
        self.playouts += other.playouts;
        self.moves += other.moves;
        self.black_wins += other.black_wins;
        self.margin_halves += other.margin_halves;
        self.elapsed += other.elapsed;
    }

    /// The share of the wall-clock time spent on a processor, when known.
    fn cpu_share(&self) -> Option<f64> {
        self.cpu
            .map(|c| c.as_secs_f64() / self.elapsed.as_secs_f64().max(1e-9))
    }

    fn per_second(&self, n: u64) -> f64 {
        n as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Playouts per second.
    pub fn playouts_per_second(&self) -> f64 {
        self.per_second(self.playouts)
    }

    /// Moves per second.
    pub fn moves_per_second(&self) -> f64 {
        self.per_second(self.moves)
    }
}

/// The margin for Black in half points (positive: Black ahead) of a result named by its winner
/// and its margin (`B+3`: Black, 6). A `Score`'s `margin_halves` is Black's already.
fn black_margin(margin_halves: i32, winner: Color) -> i64 {
    let m = i64::from(margin_halves);
    if winner == Color::Black {
        m
    } else {
        -m
    }
}

/// Light random playouts ([`ingo_player::playout`]) from the empty `size`×`size` board under
/// `ko`, each on a clone of one template game, until `limit`.
fn run_playouts(size: usize, ko: BenchKo, seed: u64, limit: Limit) -> anyhow::Result<Batch> {
    let template = Game::new(Setup::empty(size)?, ko.rules());
    let mut rng = Rng::new(seed);
    let mut b = Batch::default();
    let cpu_start = cpu_time();
    let start = Instant::now();
    // One game reused for every playout, as the search does: `clone_from` copies the template
    // into it without allocating.
    let mut game = template.clone();
    loop {
        match limit {
            Limit::Playouts(n) if b.playouts >= n => break,
            Limit::Time(t) if start.elapsed() >= t => break,
            _ => {}
        }
        game.clone_from(&template);
        let score = ingo_player::playout(&mut game, &mut rng);
        b.playouts += 1;
        b.moves += game.move_count() as u64;
        b.black_wins += u64::from(score.winner == Color::Black);
        b.margin_halves += i64::from(score.margin_halves);
    }
    b.elapsed = start.elapsed();
    b.cpu = cpu_time()
        .zip(cpu_start)
        .map(|(end, start)| end.saturating_sub(start));
    Ok(b)
}

fn write_batch(out: &mut impl Write, b: &Batch) -> anyhow::Result<()> {
    writeln!(out, "playouts={}", b.playouts)?;
    writeln!(out, "total_moves={}", b.moves)?;
    writeln!(out, "black_wins={}", b.black_wins)?;
    writeln!(out, "margin_sum_halves={}", b.margin_halves)?;
    writeln!(
        out,
        "moves_per_playout={:.2}",
        b.moves as f64 / b.playouts.max(1) as f64
    )?;
    writeln!(out, "seconds={:.3}", b.elapsed.as_secs_f64())?;
    if let (Some(share), true) = (b.cpu_share(), b.elapsed.as_secs_f64() >= 0.5) {
        // Below 1 when other processes took the processor for part of the run.
        writeln!(out, "cpu_share={share:.2}")?;
    }
    writeln!(out, "moves_per_second={:.0}", b.moves_per_second())?;
    Ok(())
}

fn playouts(a: &PlayoutArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let limit = match (a.playouts, a.seconds) {
        (Some(n), _) => Limit::Playouts(n),
        (None, s) => Limit::Time(positive_seconds(s.unwrap_or(5.0), "--seconds")?),
    };
    let cap = 3 * u64::from(a.size) * u64::from(a.size);
    writeln!(
        out,
        "bench playouts: {n}x{n}, ko {ko}, seed {seed}, {limit}; light policy (uniform among legal \
         plays that fill no own eye), ends at two passes or {cap} moves",
        n = a.size,
        ko = a.ko.name(),
        seed = a.seed,
        limit = match limit {
            Limit::Playouts(n) => format!("{n} playouts"),
            Limit::Time(t) => format!("{:.1} s", t.as_secs_f64()),
        },
    )?;
    let b = run_playouts(a.size.into(), a.ko, a.seed, limit)?;
    ensure!(b.playouts > 0, "no playout finished");
    // A playout makes at least one move per side before two passes can end it, and at most
    // the cap.
    ensure!(
        b.moves >= 2 * b.playouts && b.moves <= cap * b.playouts,
        "{} moves in {} playouts is outside what the policy can play",
        b.moves,
        b.playouts
    );
    write_batch(out, &b)?;
    writeln!(out, "playouts_per_second={:.1}", b.playouts_per_second())?;
    Ok(())
}

/// Runs one-second rounds under both ko rules, alternating which goes first; the totals.
fn alternate(
    seed: u64,
    total: Duration,
    mut run: impl FnMut(BenchKo, u64, Limit) -> anyhow::Result<Batch>,
) -> anyhow::Result<(Batch, Batch)> {
    let rounds = total.as_secs_f64().ceil().max(1.0) as u32;
    let round = total / rounds;
    let (mut ing, mut simple) = (Batch::default(), Batch::default());
    for r in 0..rounds {
        // Alternate which goes first, so that neither always runs on a warmer (or busier) machine.
        let order = if r % 2 == 0 {
            [BenchKo::Ing, BenchKo::Simple]
        } else {
            [BenchKo::Simple, BenchKo::Ing]
        };
        for ko in order {
            let b = run(ko, seed.wrapping_add(u64::from(r)), Limit::Time(round))?;
            match ko {
                BenchKo::Ing => ing.add(&b),
                BenchKo::Simple => simple.add(&b),
            }
        }
    }
    Ok((ing, simple))
}

fn compare(a: &CompareArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let total = positive_seconds(a.seconds, "--seconds")?;
    let size = usize::from(a.size);
    writeln!(
        out,
        "bench compare: {n}x{n}, light playouts under Ing's ko rules and under simple ko, \
         {s:.1} s each in alternating rounds",
        n = a.size,
        s = total.as_secs_f64()
    )?;
    let (ing, simple) = alternate(a.seed, total, |ko, seed, limit| {
        run_playouts(size, ko, seed, limit)
    })?;
    ensure!(
        ing.playouts > 0 && simple.playouts > 0,
        "no playout finished"
    );
    for (name, b) in [("ing", &ing), ("simple", &simple)] {
        writeln!(
            out,
            "{name}: playouts={} moves={} moves_per_playout={:.2} playouts_per_second={:.1} \
             moves_per_second={:.0} cpu_share={:.2}",
            b.playouts,
            b.moves,
            b.moves as f64 / b.playouts as f64,
            b.playouts_per_second(),
            b.moves_per_second(),
            b.cpu_share().unwrap_or(f64::NAN)
        )?;
    }
    // Per move: the two rules play the same games from the same seed, but a round's time limit
    // cuts the batches at different points.
    let per_move = (simple.moves_per_second() / ing.moves_per_second() - 1.0) * 100.0;
    let per_playout = (simple.playouts_per_second() / ing.playouts_per_second() - 1.0) * 100.0;
    writeln!(out, "ing_overhead_per_playout_percent={per_playout:.1}")?;
    writeln!(out, "ing_overhead_percent={per_move:.1}")?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Judge
// ---------------------------------------------------------------------------------------------

/// A row of the corpus's `INDEX.tsv`: what sgfmill found in the file.
struct IndexRow {
    /// `B`/`W` nodes of the main line, passes included (`None` when sgfmill could not parse it).
    moves: Option<usize>,
    /// Game trees in the file.
    games: usize,
}

/// A tab-separated file with a header line, as the corpus's `INDEX.tsv` is.
struct Tsv {
    path: PathBuf,
    text: String,
    header: Vec<String>,
}

impl Tsv {
    /// Reads `path`; `hint` is added to the error when it cannot be read.
    fn read(path: &Path, hint: &str) -> anyhow::Result<Tsv> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}{hint}", path.display()))?;
        let header = text
            .lines()
            .next()
            .unwrap_or_default()
            .split('\t')
            .map(str::to_owned)
            .collect();
        Ok(Tsv {
            path: path.to_path_buf(),
            text,
            header,
        })
    }

    /// The index of the column `name`.
    fn col(&self, name: &str) -> anyhow::Result<usize> {
        self.header
            .iter()
            .position(|h| h == name)
            .with_context(|| format!("{} has no column {name}", self.path.display()))
    }

    /// The lines after the header, empty ones left out.
    fn rows(&self) -> impl Iterator<Item = &str> {
        self.text.lines().skip(1).filter(|l| !l.is_empty())
    }
}

/// Reads `INDEX.tsv` of a corpus (columns `path`, `SZ`, `moves`, …, `games`, `sgfmill`), if any.
fn read_index(dir: &Path) -> anyhow::Result<Option<HashMap<String, IndexRow>>> {
    let path = dir.join("INDEX.tsv");
    if !path.is_file() {
        return Ok(None);
    }
    let tsv = Tsv::read(&path, "")?;
    let (c_path, c_moves, c_games) = (tsv.col("path")?, tsv.col("moves")?, tsv.col("games")?);
    let mut rows = HashMap::new();
    for line in tsv.rows() {
        let f: Vec<&str> = line.split('\t').collect();
        let get = |c: usize| f.get(c).copied().unwrap_or_default();
        rows.insert(
            get(c_path).to_string(),
            IndexRow {
                moves: get(c_moves).parse().ok(),
                games: get(c_games).parse().unwrap_or(1),
            },
        );
    }
    Ok(Some(rows))
}

/// Totals of judging a set of records: all deterministic, so every pass must give the same.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct JudgeTotals {
    /// Files judged.
    files: usize,
    /// Files that could not be read as SGF, and games whose setup is unusable.
    unreadable: usize,
    /// Games replayed.
    games: usize,
    /// Moves played (up to the first refused one).
    moves: usize,
    /// Games with a move Ing's rules refuse.
    refused: usize,
    /// Games that reached the end of play (four passes).
    ended: usize,
    /// Sum of the counts' margins for Black, in half points: a checksum of the final positions.
    margin_halves: i64,
}

/// What the untimed pass learns about one record, for the checks.
struct RecordFacts {
    size: (usize, usize),
    record_moves: usize,
    clean: bool,
}

/// Judges one file as `ingo judge` does, under Ing's rules: parse, strict replay of each game's
/// main line, count of the final position.
fn judge_bytes(bytes: &[u8], t: &mut JudgeTotals, mut facts: Option<&mut Vec<RecordFacts>>) {
    t.files += 1;
    let Ok(records) = ingo_sgf::parse_bytes(bytes, &ReadOptions::default()) else {
        t.unreadable += 1;
        return;
    };
    for record in &records {
        let Ok(rep) = ingo_sgf::replay(record, Rules::ing(), ReplayMode::Strict) else {
            t.unreadable += 1;
            continue;
        };
        t.games += 1;
        t.moves += rep.played;
        t.refused += usize::from(rep.illegal.is_some());
        t.ended += usize::from(rep.game.phase() == ingo_rules::Phase::Ended);
        let score = rep.game.count(&[]);
        t.margin_halves += i64::from(score.margin_halves);
        if let Some(f) = facts.as_deref_mut() {
            f.push(RecordFacts {
                size: (record.width, record.height),
                record_moves: record.moves.len(),
                clean: rep.is_clean() && rep.played == record.moves.len(),
            });
        }
    }
}

/// The peak resident memory of this process so far (`VmHWM`), in KiB, where Linux reports it.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn write_totals(out: &mut impl Write, t: &JudgeTotals) -> anyhow::Result<()> {
    writeln!(out, "files={}", t.files)?;
    writeln!(out, "unreadable={}", t.unreadable)?;
    writeln!(out, "games={}", t.games)?;
    writeln!(out, "total_moves={}", t.moves)?;
    writeln!(out, "refused={}", t.refused)?;
    writeln!(out, "ended={}", t.ended)?;
    writeln!(out, "margin_sum_halves={}", t.margin_halves)?;
    Ok(())
}

fn judge(a: &JudgeBenchArgs, out: &mut impl Write) -> anyhow::Result<()> {
    ensure!(a.repeat >= 1, "--repeat must be at least 1");
    ensure!(
        a.corpus.is_dir(),
        "no corpus at {} (give --corpus DIR)",
        a.corpus.display()
    );
    let paths = ingo_sgf::find_sgf_files(std::slice::from_ref(&a.corpus)).0;
    let index = read_index(&a.corpus)?;
    let mut files: Vec<(String, PathBuf, Vec<u8>)> = Vec::with_capacity(paths.len());
    for p in paths {
        let bytes = std::fs::read(&p).with_context(|| format!("cannot read {}", p.display()))?;
        let rel = p
            .strip_prefix(&a.corpus)
            .unwrap_or(&p)
            .to_string_lossy()
            .replace('\\', "/");
        files.push((rel, p, bytes));
    }
    // The untimed pass: the facts the checks need, and the selection by size.
    let mut checked = 0usize;
    let mut mismatches: Vec<String> = Vec::new();
    let mut ing_cup = (0usize, Vec::new());
    let mut selected = Vec::new();
    for (rel, path, bytes) in &files {
        let mut facts = Vec::new();
        judge_bytes(bytes, &mut JudgeTotals::default(), Some(&mut facts));
        let keep = match a.size {
            None => true,
            Some(n) => {
                let n = usize::from(n);
                !facts.is_empty() && facts.iter().all(|f| f.size == (n, n))
            }
        };
        if !keep {
            continue;
        }
        // The move count of the main line against sgfmill's, from the corpus index.
        if let Some(row) = index.as_ref().and_then(|ix| ix.get(rel.as_str())) {
            if let (Some(m), 1, [f]) = (row.moves, row.games, facts.as_slice()) {
                checked += 1;
                if f.record_moves != m {
                    mismatches.push(format!("{rel}: {} moves, INDEX.tsv {m}", f.record_moves));
                }
            }
        }
        // Games refereed under Ing's rules (a folder named Ing, as the corpus's Ing Cup games)
        // replay without a refused move.
        if rel.split('/').any(|c| c == "Ing") {
            ing_cup.0 += facts.len();
            if facts.is_empty() || facts.iter().any(|f| !f.clean) {
                ing_cup.1.push(rel.clone());
            }
        }
        selected.push((path.clone(), bytes.as_slice()));
    }
    ensure!(!selected.is_empty(), "no records selected");
    let bytes_total: usize = selected.iter().map(|(_, b)| b.len()).sum();
    writeln!(
        out,
        "bench judge: {} ({} files{}, {:.1} MB in memory), parse + strict replay under Ing's \
         rules + count, {} timed passes",
        a.corpus.display(),
        selected.len(),
        a.size
            .map(|n| format!(" of {n}x{n} records"))
            .unwrap_or_default(),
        bytes_total as f64 / 1e6,
        a.repeat
    )?;
    let mut totals = None;
    let cpu_start = cpu_time();
    let start = Instant::now();
    for _ in 0..a.repeat {
        let mut t = JudgeTotals::default();
        for (_, bytes) in &selected {
            judge_bytes(bytes, &mut t, None);
        }
        if let Some(prev) = totals {
            ensure!(
                prev == t,
                "two passes over the same records differ: {prev:?} / {t:?}"
            );
        }
        totals = Some(t);
    }
    let elapsed = start.elapsed();
    let cpu = cpu_time().zip(cpu_start).map(|(e, s)| e.saturating_sub(s));
    let t = totals.unwrap_or_default();
    write_totals(out, &t)?;
    if index.is_some() {
        writeln!(out, "index_checked={checked}")?;
        writeln!(out, "index_move_mismatches={}", mismatches.len())?;
    }
    writeln!(out, "ing_cup_games={}", ing_cup.0)?;
    writeln!(out, "ing_cup_refused={}", ing_cup.1.len())?;
    let secs = elapsed.as_secs_f64().max(1e-9);
    let passes = f64::from(a.repeat);
    let files_per_second = selected.len() as f64 * passes / secs;
    writeln!(out, "seconds={secs:.3}")?;
    if let Some(cpu) = cpu {
        writeln!(out, "cpu_share={:.2}", cpu.as_secs_f64() / secs)?;
    }
    writeln!(
        out,
        "moves_per_second={:.0}",
        t.moves as f64 * passes / secs
    )?;
    writeln!(out, "files_per_second={files_per_second:.1}")?;
    if let Some(kib) = peak_rss_kib() {
        writeln!(out, "peak_rss_kib={kib}")?;
    }
    for peer in &a.peer {
        let files: Vec<&Path> = selected.iter().map(|(p, _)| p.as_path()).collect();
        let r = match peer {
            JudgePeer::Sgfmill => sgfmill_peer(&files, a.repeat),
            JudgePeer::Gnugo => gnugo_peer(a.gnugo.as_deref(), &files),
        };
        match r {
            Ok(p) => {
                writeln!(
                    out,
                    "peer {}: files={} failed={} moves={} seconds={:.3} files_per_second={:.1}",
                    p.name,
                    p.files,
                    p.failed,
                    p.moves,
                    p.seconds,
                    p.files_per_second()
                )?;
                writeln!(
                    out,
                    "ratio_{}={:.2}",
                    p.name,
                    files_per_second / p.files_per_second()
                )?;
            }
            Err(e) => writeln!(out, "peer {}: not run: {e:#}", peer.name())?,
        }
    }
    // The checks come after the figures, so that a failure still shows them. A few records are
    // read differently on purpose (a node holding both B[tt] and W[tt] is two passes to ingo,
    // one move to sgfmill): they are listed, and more than one in a thousand fails.
    for m in &mismatches {
        writeln!(out, "index_mismatch: {m}")?;
    }
    ensure!(
        mismatches.len() * 1000 <= checked,
        "{} of {checked} records' move counts differ from INDEX.tsv",
        mismatches.len()
    );
    ensure!(
        ing_cup.1.is_empty(),
        "games played under Ing's rules were refused:\n{}",
        ing_cup.1.join("\n")
    );
    writeln!(
        out,
        "games_per_second={:.1}",
        t.games as f64 * passes / secs
    )?;
    Ok(())
}

/// A peer's timing of the same files.
struct PeerRun {
    name: &'static str,
    files: usize,
    failed: usize,
    moves: u64,
    seconds: f64,
}

impl PeerRun {
    fn files_per_second(&self) -> f64 {
        self.files as f64 / self.seconds.max(1e-9)
    }
}

/// Reads `key=value` words from a peer's output.
fn peer_field(text: &str, key: &str) -> anyhow::Result<f64> {
    text.split_whitespace()
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
        .with_context(|| format!("no {key}= in the peer's output: {text}"))?
        .parse()
        .with_context(|| format!("{key}= is not a number in: {text}"))
}

/// sgfmill (python3): each file's first game parsed, its main line replayed on an sgfmill board
/// (captures, no ko check) and the area counted, timed over the same files.
fn sgfmill_peer(files: &[&Path], repeat: u32) -> anyhow::Result<PeerRun> {
    use std::process::{Command, Stdio};
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(include_str!("bench_sgfmill.py"))
        .arg(repeat.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("cannot start python3")?;
    let mut list = String::new();
    for f in files {
        let _ = writeln!(list, "{}", f.display());
    }
    child
        .stdin
        .take()
        .context("python3's standard input")?
        .write_all(list.as_bytes())?;
    let output = child.wait_with_output()?;
    let text = String::from_utf8_lossy(&output.stdout);
    ensure!(
        output.status.success(),
        "python3 failed: {}",
        String::from_utf8_lossy(&output.stderr).trim()
    );
    Ok(PeerRun {
        name: "sgfmill",
        files: peer_field(&text, "files")? as usize,
        failed: peer_field(&text, "failed")? as usize,
        moves: peer_field(&text, "moves")? as u64,
        seconds: peer_field(&text, "seconds")?,
    })
}

/// GNU Go started in GTP mode.
struct Gnugo {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
    /// How it was started, to start it again after a crash.
    program: PathBuf,
    extra: Vec<String>,
}

impl Gnugo {
    fn start(program: &Path) -> anyhow::Result<Gnugo> {
        Gnugo::start_with(program, &[])
    }

    /// Starts GNU Go in GTP mode with `extra` arguments besides `--mode gtp`.
    fn start_with(program: &Path, extra: &[&str]) -> anyhow::Result<Gnugo> {
        use std::process::{Command, Stdio};
        let mut child = Command::new(program)
            .args(["--mode", "gtp"])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start {}", program.display()))?;
        let stdin = child.stdin.take().context("GNU Go's standard input")?;
        let stdout = std::io::BufReader::new(child.stdout.take().context("GNU Go's output")?);
        let mut g = Gnugo {
            child,
            stdin,
            stdout,
            program: program.to_path_buf(),
            extra: extra.iter().map(|s| s.to_string()).collect(),
        };
        g.ask("name")?;
        Ok(g)
    }

    /// A new GNU Go started the same way, in place of one that stopped.
    fn restart(&mut self) -> anyhow::Result<()> {
        let extra: Vec<&str> = self.extra.iter().map(String::as_str).collect();
        let _ = self.child.kill();
        let _ = self.child.wait();
        *self = Gnugo::start_with(&self.program.clone(), &extra)?;
        Ok(())
    }

    /// The processor time GNU Go's process has used (user + system, from `/proc/PID/stat`).
    fn cpu_time(&self) -> Option<Duration> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).ok()?;
        // The fields after the command name (which is in parentheses and may hold spaces):
        // utime and stime are the 12th and 13th of them, in clock ticks.
        let rest = stat.rsplit_once(')')?.1;
        let f: Vec<&str> = rest.split_whitespace().collect();
        let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
        // Linux reports these in USER_HZ, 100 a second on every usual configuration.
        Some(Duration::from_millis(ticks * 10))
    }

    /// Sends a command; its reply, or an error when GNU Go stopped.
    fn ask(&mut self, cmd: &str) -> anyhow::Result<String> {
        use std::io::BufRead;
        writeln!(self.stdin, "{cmd}")?;
        self.stdin.flush()?;
        let mut reply = String::new();
        loop {
            let mut line = String::new();
            ensure!(self.stdout.read_line(&mut line)? > 0, "GNU Go stopped");
            if line.trim().is_empty() && !reply.is_empty() {
                return Ok(reply);
            }
            reply.push_str(&line);
        }
    }
}

impl Drop for Gnugo {
    fn drop(&mut self) {
        let _ = self.ask("quit");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// GNU Go over GTP: `loadsgf` of each file (its parser and board replay the game), one round
/// trip per file; a file that makes GNU Go stop counts as failed and GNU Go is started again.
fn gnugo_peer(program: Option<&Path>, files: &[&Path]) -> anyhow::Result<PeerRun> {
    let found;
    let program = match program {
        Some(p) => p,
        None => {
            found = ingo_gtp::find_gnugo().with_context(|| {
                format!(
                    "GNU Go not found ($GNUGO, PATH, {}); give its path with --gnugo",
                    ingo_gtp::DEBIAN_GNUGO
                )
            })?;
            found.as_path()
        }
    };
    let mut gnugo = Gnugo::start(program)?;
    let (mut done, mut failed) = (0, 0);
    let start = Instant::now();
    for f in files {
        let abs = std::fs::canonicalize(f)?;
        let name = abs.to_string_lossy();
        if name.contains(char::is_whitespace) {
            continue;
        }
        done += 1;
        match gnugo.ask(&format!("loadsgf {name}")) {
            Ok(reply) => failed += usize::from(!reply.starts_with('=')),
            Err(_) => {
                failed += 1;
                gnugo = Gnugo::start(program)?;
            }
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    Ok(PeerRun {
        name: "gnugo",
        files: done,
        failed,
        moves: 0,
        seconds,
    })
}

// ---------------------------------------------------------------------------------------------
// Player
// ---------------------------------------------------------------------------------------------

fn player(a: &PlayerArgs, out: &mut impl Write) -> anyhow::Result<()> {
    ensure!(a.playouts >= 1, "--playouts must be at least 1");
    let config = Config {
        budget: Budget::playouts(a.playouts),
        seed: a.seed,
        // Every move gets the whole budget, so that the playout count is known in advance.
        early_stop: false,
        pattern_priors: if a.no_priors {
            ingo_player::PatternPriors::Off
        } else {
            Config::default().pattern_priors
        },
        threads: a.threads,
        playout: if a.heavy {
            ingo_player::PlayoutPolicy::Heavy
        } else {
            ingo_player::PlayoutPolicy::Light
        },
        ..Config::default()
    };
    let mut player = Player::new(config)?;
    let size = usize::from(a.size);
    let mut game = Game::new(Setup::empty(size)?, Rules::ing());
    writeln!(
        out,
        "bench player: {n}x{n}, Ing's rules, {p} playouts per move, {m} moves from the empty \
         board, seed {s}, {t} thread(s), {kind} playouts",
        t = a.threads,
        kind = if a.heavy { "heavy" } else { "light" },
        n = a.size,
        p = a.playouts,
        m = a.moves,
        s = a.seed
    )?;
    let (mut playouts, mut elapsed, mut moves) = (0u64, Duration::ZERO, Vec::new());
    for _ in 0..a.moves {
        let d = player.genmove(&game, None);
        let Action::Move(mv) = d.action else {
            bail!("the player resigned, which is off by default");
        };
        if d.info.playouts > 0 {
            ensure!(
                d.info.playouts == a.playouts,
                "a search made {} playouts, not the {} budgeted",
                d.info.playouts,
                a.playouts
            );
        }
        playouts += d.info.playouts;
        elapsed += d.info.elapsed;
        game.play(mv)
            .with_context(|| format!("the player chose an illegal move {mv:?}"))?;
        moves.push(mv.to_gtp(size));
    }
    writeln!(out, "moves={}", moves.join(" "))?;
    writeln!(out, "playouts={playouts}")?;
    writeln!(out, "seconds={:.3}", elapsed.as_secs_f64())?;
    writeln!(
        out,
        "playouts_per_second={:.1}",
        playouts as f64 / elapsed.as_secs_f64().max(1e-9)
    )?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Memory
// ---------------------------------------------------------------------------------------------

fn memory(a: &MemoryArgs, out: &mut impl Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "bench memory: heap bytes of a game's history (Game::history_bytes) per ply; the board \
         itself is {} bytes",
        std::mem::size_of::<ingo_rules::Board>()
    )?;
    // Light playout games on 19×19, as a search plays them, under both ko rules.
    let mut headline = 0.0;
    for ko in [BenchKo::Ing, BenchKo::Simple] {
        let template = Game::new(Setup::empty(19)?, ko.rules());
        let mut rng = Rng::new(a.seed);
        let (mut bytes, mut plies, mut longest) = (0usize, 0usize, (0usize, 0usize));
        for _ in 0..100 {
            let mut g = template.clone();
            ingo_player::playout(&mut g, &mut rng);
            bytes += g.history_bytes();
            plies += g.move_count();
            if g.move_count() > longest.1 {
                longest = (g.history_bytes(), g.move_count());
            }
        }
        writeln!(
            out,
            "playouts_19x19_{}: games=100 plies={plies} bytes_per_ply={:.1} longest_plies={} \
             longest_bytes_per_ply={:.1}",
            ko.name(),
            bytes as f64 / plies as f64,
            longest.1,
            longest.0 as f64 / longest.1 as f64
        )?;
        if ko == BenchKo::Ing {
            headline = bytes as f64 / plies as f64;
        }
    }
    // Real 19×19 games of the corpus, replayed under Ing's rules.
    if a.corpus.is_dir() {
        let before = peak_rss_kib();
        let paths = ingo_sgf::find_sgf_files(std::slice::from_ref(&a.corpus)).0;
        let (mut bytes, mut plies, mut games) = (0usize, 0usize, 0usize);
        let mut t = JudgeTotals::default();
        for p in &paths {
            let data = std::fs::read(p)?;
            judge_bytes(&data, &mut t, None);
            let Ok(records) = ingo_sgf::parse_bytes(&data, &ReadOptions::default()) else {
                continue;
            };
            for r in records.iter().filter(|r| (r.width, r.height) == (19, 19)) {
                if let Ok(rep) = ingo_sgf::replay(r, Rules::ing(), ReplayMode::Strict) {
                    if rep.game.move_count() > 0 {
                        games += 1;
                        bytes += rep.game.history_bytes();
                        plies += rep.game.move_count();
                    }
                }
            }
        }
        writeln!(
            out,
            "corpus_19x19_ing: games={games} plies={plies} bytes_per_ply={:.1} \
             (a replay reserves room for the record's moves)",
            bytes as f64 / plies.max(1) as f64
        )?;
        writeln!(
            out,
            "corpus_judged: files={} games={} moves={}",
            t.files, t.games, t.moves
        )?;
        if let (Some(b), Some(p)) = (before, peak_rss_kib()) {
            writeln!(out, "peak_rss_kib_before_judging={b}")?;
            writeln!(out, "peak_rss_kib={p}")?;
        }
    }
    // The figure for scripts: an average 19×19 playout game under Ing's rules.
    writeln!(out, "bytes_per_ply={headline:.1}")?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Peer: the goban crate
// ---------------------------------------------------------------------------------------------

/// Light playouts of the `goban` crate (crates.io, a Rust Go library with captures, simple ko and
/// superko), driven by the same policy as ingo's: uniform among the legal plays that fill no
/// eye of one's own (the same eye test), two passes or 3 moves per point end it, then the count.
/// Its `JAPANESE` rules forbid suicide and retaking a ko at once: the same legality as ingo's
/// simple ko for this policy, which never commits suicide.
#[cfg(feature = "peer")]
mod goban_peer {
    use goban::pieces::stones::Color;
    use goban::rules::game::Game;
    use goban::rules::{GobanSizes, Move, JAPANESE};
    use ingo_player::Rng;

    use super::{Batch, Limit};

    /// The usual playout eye: every neighbour is one's own stone or off the board, and the
    /// opponent holds no diagonal on the edge, at most one in the centre (as
    /// `ingo_rules::Board::is_eye`).
    fn is_eye(g: &Game, (r, c): (u8, u8), color: Color) -> bool {
        let n = g.size().0 as i16;
        let on = |r: i16, c: i16| r >= 0 && c >= 0 && r < n && c < n;
        let (r, c) = (i16::from(r), i16::from(c));
        for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            let (rr, cc) = (r + dr, c + dc);
            if on(rr, cc) && g.goban().get_color((rr as u8, cc as u8)) != Some(color) {
                return false;
            }
        }
        let (mut bad, mut edge) = (0, false);
        for (dr, dc) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
            let (rr, cc) = (r + dr, c + dc);
            if !on(rr, cc) {
                edge = true;
            } else if g.goban().get_color((rr as u8, cc as u8)) == Some(!color) {
                bad += 1;
            }
        }
        if edge {
            bad == 0
        } else {
            bad <= 1
        }
    }

    /// One playout from `template`; returns (moves, Black won).
    fn playout(template: &Game, rng: &mut Rng) -> (u64, bool) {
        let mut g = template.clone();
        let (h, w) = g.size();
        let cap = 3 * u64::from(h) * u64::from(w);
        let mut moves = 0;
        let mut empties: Vec<(u8, u8)> = Vec::with_capacity(usize::from(h) * usize::from(w));
        while moves < cap && !g.is_over() {
            // goban keeps no list of empty points: collect them.
            empties.clear();
            empties.extend(g.pseudo_legals());
            let color = g.turn();
            let mut chosen = None;
            let mut m = empties.len();
            while m > 0 {
                let i = rng.below(m as u32) as usize;
                let p = empties[i];
                if !is_eye(&g, p, color) && g.check_point(p).is_none() {
                    chosen = Some(p);
                    break;
                }
                m -= 1;
                empties.swap(i, m);
            }
            match chosen {
                Some((r, c)) => g.play(Move::Play(r, c)),
                None => g.play(Move::Pass),
            };
            moves += 1;
        }
        let (b, w) = g.calculate_score();
        (moves, b > w)
    }

    pub(super) fn run(size: usize, seed: u64, limit: Limit) -> anyhow::Result<Batch> {
        let sizes = match size {
            9 => GobanSizes::Nine,
            13 => GobanSizes::Thirteen,
            19 => GobanSizes::Nineteen,
            n => anyhow::bail!("the goban crate plays 9x9, 13x13 and 19x19, not {n}x{n}"),
        };
        let template = Game::new(sizes, JAPANESE);
        let mut rng = Rng::new(seed);
        let mut b = Batch::default();
        let start = std::time::Instant::now();
        loop {
            match limit {
                Limit::Playouts(n) if b.playouts >= n => break,
                Limit::Time(t) if start.elapsed() >= t => break,
                _ => {}
            }
            let (moves, black) = playout(&template, &mut rng);
            b.playouts += 1;
            b.moves += moves;
            b.black_wins += u64::from(black);
        }
        b.elapsed = start.elapsed();
        Ok(b)
    }
}

#[cfg(feature = "peer")]
fn peer(a: &PeerArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let total = positive_seconds(a.seconds, "--seconds")?;
    let size = usize::from(a.size);
    writeln!(
        out,
        "bench peer: {n}x{n}, light playouts (same policy, same random numbers) by ingo with \
         simple ko, ingo with Ing's rules, and the goban crate (JAPANESE: simple ko, no suicide), \
         {s:.1} s each in alternating rounds",
        n = a.size,
        s = total.as_secs_f64()
    )?;
    // Check the peer before timing it: on a fixed seed both engines play playouts of similar
    // length (the same policy; the games differ because the engines order empty points
    // differently).
    let check = goban_peer::run(size, a.seed, Limit::Playouts(200))?;
    let own = run_playouts(size, BenchKo::Simple, a.seed, Limit::Playouts(200))?;
    let (lp, lo) = (check.moves as f64 / 200.0, own.moves as f64 / 200.0);
    writeln!(out, "check: moves_per_playout goban={lp:.1} ingo={lo:.1}")?;
    ensure!(
        (lp / lo - 1.0).abs() < 0.1,
        "the peer's playouts are not comparable: {lp:.1} moves against ingo's {lo:.1}"
    );
    let rounds = total.as_secs_f64().ceil().max(1.0) as u32;
    let round = total / rounds;
    let (mut ing, mut simple, mut goban) = (Batch::default(), Batch::default(), Batch::default());
    for r in 0..rounds {
        let seed = a.seed.wrapping_add(u64::from(r));
        simple.add(&run_playouts(
            size,
            BenchKo::Simple,
            seed,
            Limit::Time(round),
        )?);
        goban.add(&goban_peer::run(size, seed, Limit::Time(round))?);
        ing.add(&run_playouts(size, BenchKo::Ing, seed, Limit::Time(round))?);
    }
    for (name, b) in [
        ("ingo_simple", &simple),
        ("ingo_ing", &ing),
        ("goban", &goban),
    ] {
        writeln!(
            out,
            "{name}: playouts={} moves={} playouts_per_second={:.1} moves_per_second={:.0}",
            b.playouts,
            b.moves,
            b.playouts_per_second(),
            b.moves_per_second()
        )?;
    }
    writeln!(
        out,
        "ratio_ing={:.2}",
        ing.moves_per_second() / goban.moves_per_second()
    )?;
    writeln!(
        out,
        "ratio={:.2}",
        simple.moves_per_second() / goban.moves_per_second()
    )?;
    Ok(())
}

#[cfg(not(feature = "peer"))]
fn peer(_: &PeerArgs, _: &mut impl Write) -> anyhow::Result<()> {
    bail!(
        "this ingo-bench was built without the peer: run \
         `cargo run --release -p ingo-bench --features peer -- peer`"
    )
}

// ---------------------------------------------------------------------------------------------
// Endgame
// ---------------------------------------------------------------------------------------------

/// A counted record's final position and the result its referee wrote.
struct CountedPosition {
    path: PathBuf,
    game: Game,
    recorded: (Color, i32),
}

/// The configuration of ingo's judgement in the bench: `a.playouts` playouts drawn from `seed`.
fn ingo_config(a: &EndgameBenchArgs, seed: u64) -> ingo_player::endgame::EndgameConfig {
    ingo_player::endgame::EndgameConfig {
        playouts: a.playouts,
        seed,
        ..ingo_player::endgame::EndgameConfig::default()
    }
}

/// Every position judged once with `config`: ingo's agreement with the records, the sum of
/// the margins (a timed pass must give the same), and the judgements.
fn judge_all(
    a: &EndgameBenchArgs,
    positions: &[CountedPosition],
    config: &ingo_player::endgame::EndgameConfig,
) -> (Agreement, i64, Vec<ingo_player::endgame::Judgement>) {
    let mut agreement = Agreement::default();
    let mut checksum = 0i64;
    let mut judged = Vec::with_capacity(positions.len());
    for p in positions {
        let j = ingo_player::endgame::judge_end(&p.game, config);
        checksum += i64::from(j.score.margin_halves);
        agreement.add(p, ingo_count(a.ingo_count, p, &j));
        judged.push(j);
    }
    (agreement, checksum, judged)
}

/// The judgement's winners and exact margins with each of the seeds 1 to `a.seeds`, one line
/// a seed; then the records whose winner is wrong with some of the seeds but not all
/// (`ingo_seed_flip: PATH wrong with K of N seeds`, the most often wrong first: the verdicts
/// that rest on the draw); then the range and mean over the seeds.
fn seed_spread(
    a: &EndgameBenchArgs,
    positions: &[CountedPosition],
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let mut figures = Vec::new();
    let mut wrong_with: std::collections::BTreeMap<PathBuf, u64> = Default::default();
    for seed in 1..=a.seeds {
        let (agreement, _, _) = judge_all(a, positions, &ingo_config(a, seed));
        writeln!(
            out,
            "ingo_seed_{seed}: winners {} exact {}",
            agreement.winner, agreement.margin
        )?;
        figures.push((agreement.winner, agreement.margin));
        for path in agreement.wrong_winner {
            *wrong_with.entry(path).or_default() += 1;
        }
    }
    let mut flips: Vec<(u64, PathBuf)> = wrong_with
        .into_iter()
        .filter(|&(_, k)| k < a.seeds)
        .map(|(path, k)| (k, path))
        .collect();
    flips.sort_by(|x, y| y.0.cmp(&x.0).then_with(|| x.1.cmp(&y.1)));
    for (k, path) in flips {
        writeln!(
            out,
            "ingo_seed_flip: {} wrong with {k} of {} seeds",
            path.display(),
            a.seeds
        )?;
    }
    let n = positions.len();
    let spread = |pick: fn(&(usize, usize)) -> usize| {
        let values: Vec<usize> = figures.iter().map(pick).collect();
        let (lo, hi) = (values.iter().min(), values.iter().max());
        let mean = values.iter().sum::<usize>() as f64 / values.len().max(1) as f64;
        format!(
            "{}..{}/{n} mean {mean:.1} ({:.1}%)",
            lo.unwrap_or(&0),
            hi.unwrap_or(&0),
            100.0 * mean / n.max(1) as f64
        )
    };
    writeln!(out, "ingo_winner_over_seeds={}", spread(|f| f.0))?;
    writeln!(out, "ingo_margin_over_seeds={}", spread(|f| f.1))?;
    Ok(())
}

/// Agreement of one judge with the recorded results.
#[derive(Default)]
struct Agreement {
    positions: usize,
    winner: usize,
    margin: usize,
    wrong: Vec<String>,
    /// The records whose winner is wrong (or not given), by path.
    wrong_winner: Vec<PathBuf>,
}

impl Agreement {
    fn add(&mut self, p: &CountedPosition, counted: Option<(Color, i32)>) {
        self.positions += 1;
        let winner = counted.is_some_and(|(c, _)| c == p.recorded.0);
        let margin = counted == Some(p.recorded);
        self.winner += usize::from(winner);
        self.margin += usize::from(margin);
        if !winner {
            self.wrong_winner.push(p.path.clone());
        }
        if !margin {
            let show = |r: Option<(Color, i32)>| {
                r.map_or_else(
                    || "none".to_string(),
                    |(c, h)| format!("{}+{}", c.letter(), f64::from(h) / 2.0),
                )
            };
            self.wrong.push(format!(
                "{} recorded {} counted {}",
                p.path.display(),
                show(Some(p.recorded)),
                show(counted)
            ));
        }
    }

    fn write(&self, out: &mut impl Write, name: &str) -> anyhow::Result<()> {
        let pct = |n: usize| 100.0 * n as f64 / self.positions.max(1) as f64;
        writeln!(
            out,
            "{name}_winner_agrees={}/{} ({:.1}%)",
            self.winner,
            self.positions,
            pct(self.winner)
        )?;
        writeln!(
            out,
            "{name}_margin_agrees={}/{} ({:.1}%)",
            self.margin,
            self.positions,
            pct(self.margin)
        )?;
        Ok(())
    }
}

/// The counted records of the corpus that `sel` selects, replayed to their final positions,
/// how many were left out because they do not replay, and how many because their `RE` is no
/// count after all ([`ingo_sgf::Record::counted_result`]; the sample is drawn from the index's
/// `RE` first, so that it stays the same records).
fn counted_positions(
    corpus: &Path,
    sel: &Selection,
) -> anyhow::Result<(Vec<CountedPosition>, usize, usize)> {
    let index = corpus.join("INDEX.tsv");
    let tsv = Tsv::read(&index, " (give --corpus DIR)")?;
    let (c_path, c_km, c_re) = (tsv.col("path")?, tsv.col("KM")?, tsv.col("RE")?);
    let c_sz = tsv.col("SZ")?;
    let mut out = Vec::new();
    let mut unreplayable = 0;
    let mut not_counted = 0;
    let mut matched = 0usize;
    for line in tsv.rows() {
        let f: Vec<&str> = line.split('\t').collect();
        let get = |c: usize| f.get(c).copied().unwrap_or_default();
        if get(c_path).starts_with(&sel.prefix) == sel.exclude
            || (!sel.komi.is_empty() && get(c_km) != sel.komi)
            || (!sel.size.is_empty() && get(c_sz) != sel.size)
        {
            continue;
        }
        let Some(recorded) = ingo_sgf::counted_result(get(c_re)) else {
            continue;
        };
        matched += 1;
        if (matched - 1) % sel.step != sel.offset {
            continue;
        }
        let path = corpus.join(get(c_path));
        let replayed = ingo_sgf::parse_file(&path)
            .map_err(anyhow::Error::from)
            .and_then(|records| {
                let record = records
                    .into_iter()
                    .next()
                    .with_context(|| format!("{}: no game", path.display()))?;
                // A zero margin beside a half-point komi is no count (Fox's `W+0.0`).
                if record.counted_result().is_none() {
                    return Ok(None);
                }
                let mut rep = ingo_sgf::replay(
                    &record,
                    record.rules_or(ingo_rules::Preset::Ing),
                    ReplayMode::Strict,
                )?;
                if let Some(illegal) = rep.illegal {
                    bail!("{}: {illegal}", path.display());
                }
                // The time penalties, those the record states in words included (its result
                // includes them).
                rep.game.set_penalties(record.time_penalties());
                Ok(Some(rep.game))
            });
        match replayed {
            Ok(Some(game)) => out.push(CountedPosition {
                path,
                game,
                recorded,
            }),
            Ok(None) => not_counted += 1,
            Err(_) if sel.skip_unreplayable => unreplayable += 1,
            Err(e) => return Err(e),
        }
    }
    ensure!(
        !out.is_empty(),
        "no counted record matches --prefix {} --komi {}",
        sel.prefix,
        sel.komi
    );
    Ok((out, unreplayable, not_counted))
}

/// GNU Go's `final_score` reply (`= B+2.0`, `= 0`) as a winner and margin in half points,
/// with the time penalties of `game` taken off (GNU Go knows only the komi; the recorded
/// result includes them). A margin of 0 is no winner.
fn gnugo_score(reply: &str, game: &Game) -> Option<(Color, i32)> {
    let r = reply.trim().trim_start_matches('=').trim();
    let black_halves = if r == "0" {
        0
    } else {
        let (c, h) = ingo_sgf::counted_result(r)?;
        black_margin(h, c)
    };
    let pen = game.penalties();
    let m = black_halves - 2 * i64::from(pen.black) + 2 * i64::from(pen.white);
    let halves = i32::try_from(m.abs()).ok()?;
    match m.signum() {
        1 => Some((Color::Black, halves)),
        -1 => Some((Color::White, halves)),
        _ => None,
    }
}

fn endgame(a: &EndgameBenchArgs, out: &mut impl Write) -> anyhow::Result<()> {
    ensure!(a.repeat >= 1, "--repeat must be at least 1");
    let selections = a.set.selections(a);
    let mut gnugo = if a.no_gnugo {
        None
    } else {
        let debian = Path::new("/usr/games/gnugo");
        let program = if a.gnugo == Path::new("gnugo") && debian.is_file() {
            debian
        } else {
            a.gnugo.as_path()
        };
        let extra: &[&str] = match a.gnugo_count {
            GnugoCount::Area => &["--chinese-rules"],
            GnugoCount::Territory => &[],
        };
        writeln!(
            out,
            "gnugo_count={}",
            match a.gnugo_count {
                GnugoCount::Area => "area (--chinese-rules)",
                GnugoCount::Territory => "territory (default rules)",
            }
        )?;
        Some(Gnugo::start_with(program, extra)?)
    };
    if a.ingo_count == IngoCount::Territory {
        writeln!(
            out,
            "ingo_count=territory (the judgement's area margin less the stones placed)"
        )?;
    }
    let several = selections.len() > 1;
    // Processor time over every set (ingo's per pass, GNU Go's), for the ratio of the whole run.
    let (mut ingo_total, mut gnugo_total) = (Some(0.0), Some(0.0));
    for sel in &selections {
        let (positions, unreplayable, not_counted) = counted_positions(&a.corpus, sel)?;
        if several {
            writeln!(out, "set={}", sel.name)?;
        }
        if not_counted > 0 {
            writeln!(out, "not_counts={not_counted}")?;
        }
        if unreplayable > 0 {
            writeln!(out, "unreplayable={unreplayable}")?;
        }
        let (i, g) = endgame_set(a, &positions, gnugo.as_mut(), out)?;
        ingo_total = ingo_total.zip(i).map(|(t, c)| t + c);
        gnugo_total = match gnugo {
            Some(_) => gnugo_total.zip(g).map(|(t, c)| t + c),
            None => None,
        };
    }
    if several {
        writeln!(out, "set=all")?;
        if let Some(i) = ingo_total {
            writeln!(out, "ingo_cpu_s={i:.3}")?;
        }
        if let (Some(g), Some(i)) = (gnugo_total, ingo_total) {
            writeln!(out, "gnugo_cpu_s={g:.3}")?;
            writeln!(out, "ratio_cpu={:.1}", g / i)?;
        }
    }
    Ok(())
}

/// Judges `positions` with ingo (`a.repeat` timed passes) and, when given, GNU Go, and writes
/// the figures; returns the processor seconds of one ingo pass and of GNU Go over the set.
fn endgame_set(
    a: &EndgameBenchArgs,
    positions: &[CountedPosition],
    gnugo: Option<&mut Gnugo>,
    out: &mut impl Write,
) -> anyhow::Result<(Option<f64>, Option<f64>)> {
    use ingo_player::endgame::judge_end;
    let config = ingo_config(a, a.seed);
    // One untimed pass gives the counts (the judgement is deterministic, so every pass agrees).
    let (ingo, checksum, judged) = judge_all(a, positions, &config);
    let start = Instant::now();
    let cpu_start = cpu_time();
    for _ in 0..a.repeat {
        let mut sum = 0i64;
        for p in positions {
            let j = judge_end(&p.game, &config);
            sum += i64::from(j.score.margin_halves);
        }
        ensure!(sum == checksum, "the judgement changed between passes");
    }
    let per = f64::from(a.repeat) * positions.len() as f64;
    let ingo_s = start.elapsed().as_secs_f64() / per;
    let ingo_cpu = cpu_start
        .zip(cpu_time())
        .map(|(a, b)| b.saturating_sub(a).as_secs_f64() / per);
    // The records each judge gets wrong first, then the figures: the last line is the ratio
    // (ingo's margin agreement with --no-gnugo).
    for w in &ingo.wrong {
        writeln!(out, "ingo_wrong: {w}")?;
    }
    writeln!(out, "positions={}", positions.len())?;
    writeln!(out, "ingo_playouts={}", a.playouts)?;
    writeln!(out, "ingo_seed={}", a.seed)?;
    writeln!(out, "ingo_ms_per_position={:.3}", ingo_s * 1e3)?;
    if let Some(c) = ingo_cpu {
        writeln!(out, "ingo_cpu_ms_per_position={:.3}", c * 1e3)?;
    }
    // What the server's dead-stone proposal adds to the judgement: the verdicts the winner
    // turns on (one fill for each verdict to check), timed apart, once over the set, on the
    // judgements of the counting pass.
    let cpu_start = cpu_time();
    let mut named = 0;
    for (p, j) in positions.iter().zip(&judged) {
        named += j.winner_turns_on(&p.game, &config).len();
    }
    if let Some(c) = cpu_start.zip(cpu_time()).map(|(a, b)| b.saturating_sub(a)) {
        writeln!(
            out,
            "ingo_turns_cpu_ms_per_position={:.3}",
            c.as_secs_f64() * 1e3 / positions.len().max(1) as f64
        )?;
    }
    writeln!(out, "ingo_turns_named={named}")?;
    ingo.write(out, "ingo")?;
    if a.seeds > 0 {
        seed_spread(a, positions, out)?;
    }
    let n = positions.len() as f64;
    let Some(gnugo) = gnugo else {
        return Ok((ingo_cpu.map(|c| c * n), None));
    };
    let mut agreement = Agreement::default();
    let mut spent = Duration::ZERO;
    let mut spent_cpu = Some(Duration::ZERO);
    for p in positions {
        let mut abs = std::fs::canonicalize(&p.path)?;
        // GTP cannot name a path with spaces: such a record is given to GNU Go as a copy.
        if abs.to_string_lossy().contains(char::is_whitespace) {
            let copy =
                std::env::temp_dir().join(format!("ingo-bench-endgame-{}.sgf", std::process::id()));
            std::fs::copy(&abs, &copy)?;
            abs = copy;
        }
        let name = abs.to_string_lossy().into_owned();
        ensure!(
            !name.contains(char::is_whitespace),
            "{}: GTP cannot name a path with spaces",
            p.path.display()
        );
        // Then the komi ingo counts with (the record's, as `ingo_sgf` reads it: Fox's `KM[0]`
        // is 7.5, a record without `KM` or rules has none), so that both judges count one game.
        // A refusal stops the run; a GNU Go that stopped answering is restarted below.
        let komi = p.game.rules().komi;
        let mut loaded = Ok(String::new());
        for cmd in [format!("loadsgf {name}"), format!("komi {komi}")] {
            loaded = loaded.and_then(|_| gnugo.ask(&cmd));
            if let Ok(reply) = &loaded {
                ensure!(reply.starts_with('='), "GNU Go: {cmd}: {reply}");
            }
        }
        let t = Instant::now();
        let cpu_before = gnugo.cpu_time();
        match loaded.and_then(|_| gnugo.ask("final_score")) {
            Ok(reply) => {
                spent += t.elapsed();
                spent_cpu = spent_cpu
                    .zip(cpu_before.zip(gnugo.cpu_time()))
                    .map(|(s, (b, e))| s + e.saturating_sub(b));
                agreement.add(p, gnugo_score(&reply, &p.game));
            }
            // GNU Go 3.8 crashes on a few records (a segmentation fault): the record counts as
            // one it gave no count for, and a new GNU Go takes the next. Its time on the record
            // is left out (a dead process's time cannot be read), which favours GNU Go.
            Err(e) => {
                writeln!(out, "gnugo_stopped: {} ({e})", p.path.display())?;
                agreement.add(p, None);
                gnugo.restart()?;
            }
        }
    }
    for w in &agreement.wrong {
        writeln!(out, "gnugo_wrong: {w}")?;
    }
    let gnugo_s = spent.as_secs_f64() / n;
    writeln!(out, "gnugo_ms_per_position={:.3}", gnugo_s * 1e3)?;
    let gnugo_cpu = spent_cpu.map(|d| d.as_secs_f64() / n);
    if let Some(c) = gnugo_cpu {
        writeln!(out, "gnugo_cpu_ms_per_position={:.3}", c * 1e3)?;
    }
    agreement.write(out, "gnugo")?;
    // Whose wrong winners are whose: a record both name wrong alike is a record's question,
    // one only ingo names wrong is ingo's.
    let names = |keep: &dyn Fn(&PathBuf) -> bool, from: &[PathBuf]| -> Vec<String> {
        from.iter()
            .filter(|p| keep(p))
            .map(|p| p.strip_prefix(&a.corpus).unwrap_or(p).display().to_string())
            .collect()
    };
    for (label, list) in [
        (
            "winner_wrong_both",
            names(&|p| agreement.wrong_winner.contains(p), &ingo.wrong_winner),
        ),
        (
            "winner_wrong_ingo_only",
            names(&|p| !agreement.wrong_winner.contains(p), &ingo.wrong_winner),
        ),
        (
            "winner_wrong_gnugo_only",
            names(&|p| !ingo.wrong_winner.contains(p), &agreement.wrong_winner),
        ),
    ] {
        writeln!(out, "{label}={}: {}", list.len(), list.join(", "))?;
    }
    writeln!(out, "ratio={:.1}", gnugo_s / ingo_s)?;
    // On a shared machine the processor time is the fairer measure of the two.
    if let (Some(g), Some(i)) = (gnugo_cpu, ingo_cpu) {
        writeln!(out, "ratio_cpu={:.1}", g / i)?;
    }
    Ok((ingo_cpu.map(|c| c * n), gnugo_cpu.map(|c| c * n)))
}
