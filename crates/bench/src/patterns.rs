//! `ingo-bench patterns`: learning the move patterns of `ingo_player::patterns` from a corpus
//! of records, and measuring their prediction rate on the records held out.
//!
//! The work is the library's ([`ingo_player::patterns::train`] and
//! [`ingo_player::patterns::evaluate`]); this reads the records, replays them under Ing's
//! rules (strictly: a record stops at the first move Ing's rules refuse), and writes the
//! weights with a note of how they were made.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{ensure, Context};
use clap::{Args, Subcommand};
use ingo_player::patterns::{self, Patterns, TrainConfig, TrainGame};
use ingo_rules::Rules;
use ingo_sgf::{ReadOptions, ReplayMode};

#[derive(Args)]
pub struct PatternsArgs {
    #[command(subcommand)]
    what: PatternsCmd,
}

#[derive(Subcommand)]
enum PatternsCmd {
    /// Learn the gammas from the records not held out, write them, and report the prediction
    /// rate on the records held out.
    Train(TrainArgs),
    /// The prediction rate of a weights file (the built-in one by default) on the records the
    /// seed's split holds out.
    Eval(EvalArgs),
    /// How often the built-in player's move (with or without the pattern priors) is the move
    /// played, on positions of the held-out records: a quick proxy of what the priors change.
    Agree(AgreeArgs),
}

#[derive(Args)]
struct AgreeArgs {
    #[command(flatten)]
    corpus: CorpusArgs,
    /// Positions tested (evenly spread over the held-out records, moves 10 to 200).
    #[arg(long, default_value_t = 100)]
    positions: usize,
    /// Playouts per move.
    #[arg(long, default_value_t = 1000)]
    playouts: u64,
    /// Search without the pattern priors.
    #[arg(long)]
    no_priors: bool,
    /// `Config::prior_equiv`.
    #[arg(long, default_value_t = ingo_player::Config::default().prior_equiv)]
    prior_equiv: f64,
    /// `Config::prior_visits`.
    #[arg(long, default_value_t = ingo_player::Config::default().prior_visits)]
    prior_visits: u32,
}

#[derive(Args)]
struct CorpusArgs {
    /// The folder of records, searched recursively for *.sgf.
    #[arg(long, default_value = "../shared/sgf-corpus")]
    corpus: PathBuf,
    /// The board sizes to learn from and test on.
    #[arg(long, value_delimiter = ',', default_value = "19,13")]
    sizes: Vec<usize>,
    /// The seed of the split of records and of the sample of positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Records held out from training, in per cent.
    #[arg(long, default_value_t = 10)]
    held_out: u32,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Only the records whose path below the corpus starts with this (`aeb-pro/` for the
    /// professional games); the split of a record does not depend on it.
    #[arg(long, default_value = "")]
    only: String,
}

#[derive(Args)]
struct TrainArgs {
    #[command(flatten)]
    corpus: CorpusArgs,
    /// Where to write the weights.
    #[arg(long, default_value = "crates/player/data/patterns.txt")]
    out: PathBuf,
    /// The share of the training positions used by MM (a seeded draw per position).
    #[arg(long, default_value_t = TrainConfig::default().sample)]
    sample: f64,
    /// MM passes over every feature group.
    #[arg(long, default_value_t = TrainConfig::default().iterations)]
    iterations: u32,
    /// A 3×3 shape is rated when the move played had it at least this many times.
    #[arg(long, default_value_t = TrainConfig::default().min_shape)]
    min_shape: u32,
    /// A diamond shape is rated when the move played had it at least this many times.
    #[arg(long, default_value_t = TrainConfig::default().min_diamond)]
    min_diamond: u32,
}

#[derive(Args)]
struct EvalArgs {
    #[command(flatten)]
    corpus: CorpusArgs,
    /// The weights file (default: the ones built into ingo-player).
    #[arg(long)]
    weights: Option<PathBuf>,
}

/// Runs `ingo-bench patterns ...`.
///
/// # Errors
/// When the corpus or the weights cannot be read, or training has nothing to learn from.
pub fn run(args: &PatternsArgs, out: &mut impl Write) -> anyhow::Result<()> {
    match &args.what {
        PatternsCmd::Train(a) => train(a, out),
        PatternsCmd::Eval(a) => eval(a, out),
        PatternsCmd::Agree(a) => agree(a, out),
    }
}

/// The records of `dir` of the given sizes, replayed under Ing's rules, named by their path
/// below `dir` (`#N` added for the N-th game of a collection, from 2).
pub fn load(dir: &Path, sizes: &[usize], only: &str) -> anyhow::Result<(Vec<TrainGame>, usize)> {
    ensure!(
        dir.is_dir(),
        "no corpus at {} (give --corpus DIR)",
        dir.display()
    );
    let paths = ingo_sgf::find_sgf_files(&[dir.to_path_buf()]).0;
    let mut games = Vec::new();
    let mut unusable = 0;
    for p in paths {
        let bytes = std::fs::read(&p).with_context(|| format!("cannot read {}", p.display()))?;
        let rel = p
            .strip_prefix(dir)
            .unwrap_or(&p)
            .to_string_lossy()
            .replace('\\', "/");
        if !rel.starts_with(only) {
            continue;
        }
        let Ok(records) = ingo_sgf::parse_bytes(&bytes, &ReadOptions::default()) else {
            unusable += 1;
            continue;
        };
        for (i, record) in records.iter().enumerate() {
            if record.width != record.height || !sizes.contains(&record.width) {
                continue;
            }
            let Ok(rep) = ingo_sgf::replay(record, Rules::ing(), ReplayMode::Strict) else {
                unusable += 1;
                continue;
            };
            let name = if i == 0 {
                rel.clone()
            } else {
                format!("{rel}#{}", i + 1)
            };
            games.push(TrainGame {
                name,
                game: rep.game,
            });
        }
    }
    Ok((games, unusable))
}

fn config(c: &CorpusArgs) -> TrainConfig {
    TrainConfig {
        seed: c.seed,
        held_out_percent: c.held_out,
        threads: c.threads,
        ..TrainConfig::default()
    }
}

fn report_eval(out: &mut impl Write, e: &patterns::Evaluation) -> anyhow::Result<()> {
    let [r1, r5, r10] = e.rates();
    writeln!(out, "held_out_records={}", e.records)?;
    writeln!(out, "held_out_positions={}", e.positions)?;
    writeln!(out, "top1={} ({r1:.2}%)", e.top[0])?;
    writeln!(out, "top5={} ({r5:.2}%)", e.top[1])?;
    writeln!(out, "top10={} ({r10:.2}%)", e.top[2])?;
    writeln!(
        out,
        "published: Coulom 2007, 34.9% top-1 on professional 19x19 games (his 2007 features)"
    )?;
    Ok(())
}

fn train(a: &TrainArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let start = Instant::now();
    let (games, unusable) = load(&a.corpus.corpus, &a.corpus.sizes, &a.corpus.only)?;
    let loaded = start.elapsed();
    let cfg = TrainConfig {
        sample: a.sample,
        iterations: a.iterations,
        min_shape: a.min_shape,
        min_diamond: a.min_diamond,
        ..config(&a.corpus)
    };
    let t = Instant::now();
    let mut training = patterns::train(&games, &cfg)?;
    let trained = t.elapsed();
    let s = &training.stats;
    writeln!(out, "records={} (unusable {unusable})", games.len())?;
    writeln!(out, "training_records={}", s.records)?;
    writeln!(out, "training_positions={}", s.positions_seen)?;
    writeln!(out, "sampled_positions={}", s.positions)?;
    writeln!(out, "candidates={}", s.candidates)?;
    writeln!(out, "teams={}", s.teams)?;
    writeln!(
        out,
        "shapes_3x3={} diamonds_r2={} diamonds_r3={}",
        s.shapes.0, s.shapes.1, s.shapes.2
    )?;
    for (i, ll) in s.log_likelihood.iter().enumerate() {
        writeln!(out, "mm_pass={} mean_log_likelihood={ll:.5}", i + 1)?;
    }
    let sizes: Vec<String> = a.corpus.sizes.iter().map(ToString::to_string).collect();
    let notes = vec![
        "ingo move patterns: generalised Bradley-Terry gammas fitted by minorisation-maximisation".to_string(),
        "(Coulom 2007, \"Computing Elo Ratings of Move Patterns in the Game of Go\").".to_string(),
        format!(
            "Made by: ingo-bench patterns train --corpus {} --sizes {} --seed {} --held-out {} \
             --sample {} --iterations {} --min-shape {} --min-diamond {}",
            a.corpus.corpus.display(),
            sizes.join(","),
            cfg.seed,
            cfg.held_out_percent,
            cfg.sample,
            cfg.iterations,
            cfg.min_shape,
            cfg.min_diamond
        ) + &if a.corpus.only.is_empty() {
            String::new()
        } else {
            format!(" --only {}", a.corpus.only)
        },
        format!("Date: {} (ingo {})", ingo_sgf::today(), env!("CARGO_PKG_VERSION")),
        format!(
            "Records: {} replayed under Ing's rules ({} for training, {} held out by the seed's split);",
            games.len(),
            s.records,
            s.held_out
        ),
        format!(
            "positions: {} in the training records, {} sampled; {} candidate moves, {} distinct teams.",
            s.positions_seen, s.positions, s.candidates, s.teams
        ),
        format!(
            "Shapes rated: {} 3x3, {} radius-2 and {} radius-3 diamonds. Format: ingo_player::patterns::Patterns::parse.",
            s.shapes.0, s.shapes.1, s.shapes.2
        ),
    ];
    training.patterns.set_notes(notes);
    let text = training.patterns.to_text();
    std::fs::write(&a.out, &text).with_context(|| format!("cannot write {}", a.out.display()))?;
    writeln!(out, "weights={} ({} bytes)", a.out.display(), text.len())?;
    // The weights as written, read back, are the ones tested.
    let back = Patterns::parse(&text)?;
    let t = Instant::now();
    let e = patterns::evaluate(&back, &games, &cfg);
    let evaluated = t.elapsed();
    report_eval(out, &e)?;
    writeln!(
        out,
        "seconds: load {:.1}, train {:.1}, evaluate {:.1}",
        loaded.as_secs_f64(),
        trained.as_secs_f64(),
        evaluated.as_secs_f64()
    )?;
    Ok(())
}

fn eval(a: &EvalArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let (games, _) = load(&a.corpus.corpus, &a.corpus.sizes, &a.corpus.only)?;
    let owned;
    let patterns = match &a.weights {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read {}", p.display()))?;
            owned = Patterns::parse(&text)?;
            &owned
        }
        None => Patterns::builtin().map_err(|e| anyhow::anyhow!("{e}"))?,
    };
    let e = patterns::evaluate(patterns, &games, &config(&a.corpus));
    report_eval(out, &e)
}

fn agree(a: &AgreeArgs, out: &mut impl Write) -> anyhow::Result<()> {
    use ingo_player::{Budget, Config, PatternPriors, Player};
    let (games, _) = load(&a.corpus.corpus, &a.corpus.sizes, &a.corpus.only)?;
    let cfg = config(&a.corpus);
    // Every position from move 10 to 200 of the held-out records, then every k-th of them.
    let mut all = Vec::new();
    for tg in games
        .iter()
        .filter(|g| patterns::held_out(&g.name, cfg.seed, cfg.held_out_percent))
    {
        for (k, m) in tg.game.history().enumerate().take(200).skip(10) {
            all.push((tg, k, m.mv));
        }
    }
    ensure!(!all.is_empty(), "no held-out position");
    let step = (all.len() / a.positions.max(1)).max(1);
    let config = Config {
        budget: Budget::playouts(a.playouts),
        pattern_priors: if a.no_priors {
            PatternPriors::Off
        } else {
            PatternPriors::Large
        },
        prior_equiv: a.prior_equiv,
        prior_visits: a.prior_visits,
        ..Config::default()
    };
    let mut player = Player::new(config)?;
    let (mut tested, mut agreed) = (0u64, 0u64);
    let start = Instant::now();
    for &(tg, k, expert) in all.iter().step_by(step).take(a.positions) {
        let g0 = &tg.game;
        let mut g = ingo_rules::Game::new(g0.setup().clone(), *g0.rules());
        g.set_handicap_game(g0.is_handicap());
        let mut ok = true;
        for m in g0.history().take(k) {
            ok &= g.play_as(m.color, m.mv).is_ok();
        }
        if !ok {
            continue;
        }
        let d = player.genmove(&g, None);
        tested += 1;
        agreed += u64::from(d.mv() == Some(expert));
    }
    writeln!(
        out,
        "agree: {agreed} of {tested} ({:.1}%), {} playouts a move, priors {}, prior_equiv {}, prior_visits {}, {:.1} s",
        100.0 * agreed as f64 / tested.max(1) as f64,
        a.playouts,
        if a.no_priors { "off" } else { "on" },
        a.prior_equiv,
        a.prior_visits,
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}
