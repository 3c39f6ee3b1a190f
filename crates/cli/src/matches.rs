//! `ingo match`: the command-line face of `ingo-referee`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{
    atomic::{AtomicBool, AtomicI32, Ordering},
    Arc,
};
use std::time::Duration;

use anyhow::{bail, Context};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use ingo_clock::TimeControl;
use ingo_competition::Rank;
use ingo_referee::{
    run_match_until, ColorPolicy, FailureAction, GameRecord, MatchConfig, MatchSummary, Progress,
    RefereeError, Timeouts, VoidExhausted,
};

use crate::RuleArgs;

/// Arguments of `ingo match`.
#[derive(Args)]
pub struct MatchArgs {
    /// Command line of engine A, Black in game 1 (for example "gnugo --mode gtp --level 1").
    #[arg(long)]
    black: String,
    /// Command line of engine B, White in game 1.
    #[arg(long)]
    white: String,
    /// Number of games.
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// Board size, 2 to 25.
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(2..=25))]
    size: u8,
    /// Folder for the SGF files, match.json and the results; a match stopped at any moment
    /// continues where it stopped when run again with the same folder.
    #[arg(long)]
    out: PathBuf,
    #[command(flatten)]
    rules: RuleArgs,
    /// Time control of both engines: none, absolute:30m, byoyomi:30m+5x30s, canadian:20m+25/5m,
    /// fischer:10m+10s, ing-pp:3h (Ing's penalty points), ing-rs:1h+3x30s (Ing's byo-yomi).
    #[arg(long, default_value = "none")]
    time: TimeControl,
    /// Time control of engine A only (overrides --time).
    #[arg(long)]
    black_time: Option<TimeControl>,
    /// Time control of engine B only (overrides --time).
    #[arg(long)]
    white_time: Option<TimeControl>,
    /// Rank of engine A (3p/3品, 5d/5段, 2k/2級): with --white-rank (both or neither), Ing's
    /// handicap decides colours, White's passes and komi.
    #[arg(long, requires = "white_rank")]
    black_rank: Option<Rank>,
    /// Rank of engine B (with --black-rank).
    #[arg(long, requires = "black_rank")]
    white_rank: Option<Rank>,
    /// Engine A takes Black in every game (default: colours alternate, engine A first).
    #[arg(long, conflicts_with = "nigiri_seed")]
    fixed_colors: bool,
    /// Draw game 1's colours by nigiri from this seed (engine B guesses), then alternate.
    #[arg(long)]
    nigiri_seed: Option<u64>,
    /// Games played at once, each with its own engine processes.
    #[arg(long, default_value_t = 1)]
    parallel: usize,
    /// Do not tell engines the time (the clock is still enforced).
    #[arg(long)]
    no_tell_time: bool,
    /// What an illegal move does: forfeit, or void:N (replay the game, at most N times).
    #[arg(long, default_value = "forfeit")]
    on_illegal: String,
    /// What an engine crash does: forfeit or void:N.
    #[arg(long, default_value = "forfeit")]
    on_crash: String,
    /// What a hang past the clock's deadline does: forfeit (a loss on time) or void:N.
    #[arg(long, default_value = "forfeit")]
    on_timeout: String,
    /// What garbage on the wire does: forfeit or void:N.
    #[arg(long, default_value = "forfeit")]
    on_garbage: String,
    /// When a game has been voided too often: forfeit (the last failure loses) or exclude.
    #[arg(long, default_value = "forfeit")]
    when_exhausted: String,
    /// Void and exclude a game still going after this many moves (default: 10 per point).
    #[arg(long)]
    max_moves: Option<usize>,
    /// Seconds an engine may answer after its clock's deadline before it is killed.
    #[arg(long, default_value_t = 1.0)]
    grace: f64,
    /// Seconds an engine with no clock (--time none) may think on one move; past it the engine
    /// is killed and the game ends by --on-timeout.
    #[arg(long, default_value_t = Timeouts::UNTIMED_MOVE.as_secs_f64())]
    move_timeout: f64,
    /// Event name for the SGF files.
    #[arg(long)]
    event: Option<String>,
}

fn failure_action(s: &str, flag: &str) -> anyhow::Result<FailureAction> {
    if s == "forfeit" {
        return Ok(FailureAction::Forfeit);
    }
    if let Some(n) = s.strip_prefix("void:") {
        let max_replays = n
            .parse()
            .with_context(|| format!("{flag}: {n:?} is not a number of replays"))?;
        return Ok(FailureAction::Void { max_replays });
    }
    bail!("{flag}: expected forfeit or void:N, not {s:?}")
}

/// The progress bar: games finished, with the running score.
struct Bar {
    bar: ProgressBar,
}

impl Progress for Bar {
    fn match_started(&mut self, planned: u32, done: u32) {
        self.bar.set_length(u64::from(planned));
        self.bar.set_position(u64::from(done));
        if done > 0 {
            self.bar.println(format!(
                "resuming: {done} of {planned} games already played"
            ));
        }
    }

    fn game_voided(&mut self, index: u32, attempt: u32, reason: &str) {
        self.bar.println(format!(
            "game {index} void (attempt {attempt}): {reason}; replaying"
        ));
    }

    fn game_finished(&mut self, record: &GameRecord, summary: &MatchSummary) {
        self.bar.println(format!(
            "game {}: {} (B) vs {} (W): {} {}",
            record.index, record.black_name, record.white_name, record.result, record.reason
        ));
        self.bar
            .set_message(format!("A {} - B {}", summary.a.wins, summary.b.wins));
        self.bar.inc(1);
    }
}

/// Stops the match on SIGTERM and SIGINT: sets `stop` (so that the game being played is not
/// counted), then kills every engine (they run in process groups of their own, so a Ctrl-C in
/// the terminal does not reach them, and one that ignores end of input would outlive us).
/// Returns the signal caught (0 until then) and the handle that ends the watching thread.
#[cfg(unix)]
fn stop_on_signals(
    stop: Arc<AtomicBool>,
) -> anyhow::Result<(Arc<AtomicI32>, signal_hook::iterator::Handle)> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals =
        signal_hook::iterator::Signals::new([SIGTERM, SIGINT]).context("cannot catch signals")?;
    let handle = signals.handle();
    let caught = Arc::new(AtomicI32::new(0));
    let seen = Arc::clone(&caught);
    std::thread::Builder::new()
        .name("ingo-match-signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                if seen.swap(signal, Ordering::SeqCst) != 0 {
                    // A second signal: the engines are already dead; stop waiting.
                    std::process::exit(128 + signal);
                }
                stop.store(true, Ordering::SeqCst);
                ingo_gtp::engine::shut_down_engines();
            }
        })
        .context("cannot start the signal thread")?;
    Ok((caught, handle))
}

/// Runs the match and prints the results table. Exits with 128 + the signal's number when
/// stopped by SIGTERM or SIGINT (the match can then be resumed).
pub fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let mut config = MatchConfig::new(args.black.clone(), args.white.clone(), args.out.clone());
    config.games = args.games;
    config.size = args.size as usize;
    config.rules = args.rules.rules();
    config.komi = args.rules.komi;
    config.time = args.time;
    config.a.time = args.black_time;
    config.b.time = args.white_time;
    config.a.rank = args.black_rank;
    config.b.rank = args.white_rank;
    config.colors = match (args.fixed_colors, args.nigiri_seed) {
        (true, _) => ColorPolicy::Fixed,
        (false, Some(seed)) => ColorPolicy::Nigiri(seed),
        (false, None) => ColorPolicy::Alternate,
    };
    if args.parallel == 0 {
        bail!("--parallel must be at least 1");
    }
    config.parallel = args.parallel;
    config.tell_time = !args.no_tell_time;
    config.failure.on_illegal = failure_action(&args.on_illegal, "--on-illegal")?;
    config.failure.on_crash = failure_action(&args.on_crash, "--on-crash")?;
    config.failure.on_timeout = failure_action(&args.on_timeout, "--on-timeout")?;
    config.failure.on_garbage = failure_action(&args.on_garbage, "--on-garbage")?;
    config.failure.when_exhausted = match args.when_exhausted.as_str() {
        "forfeit" => VoidExhausted::Forfeit,
        "exclude" => VoidExhausted::Exclude,
        other => bail!("--when-exhausted: expected forfeit or exclude, not {other:?}"),
    };
    config.max_moves = args.max_moves;
    if !(args.grace.is_finite() && args.grace >= 0.0) {
        bail!("--grace must be a number of seconds, not {}", args.grace);
    }
    config.timeouts.grace = Duration::from_secs_f64(args.grace);
    if !(args.move_timeout.is_finite() && args.move_timeout > 0.0 && args.move_timeout < 1e9) {
        bail!(
            "--move-timeout must be a number of seconds above zero, not {}",
            args.move_timeout
        );
    }
    config.timeouts.untimed_move = Duration::from_secs_f64(args.move_timeout);
    if let Some(event) = args.event {
        config.event = Some(event);
    }
    if let (Some(seed), true) = (args.nigiri_seed, config.colours_by_policy()) {
        let n = ingo_competition::nigiri(seed);
        let guess = match n.guess {
            ingo_competition::Parity::Odd => "odd",
            ingo_competition::Parity::Even => "even",
        };
        eprintln!(
            "Nigiri (seed {seed}): a handful of {} stones, engine B guessed {guess}, so engine {} \
             takes Black in game 1; colours alternate after it.",
            n.handful,
            if n.guesser_takes_black { "B" } else { "A" },
        );
    }
    let bar = ProgressBar::new(u64::from(config.games));
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {msg} [{elapsed_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut progress = Bar { bar };
    let stop = Arc::new(AtomicBool::new(false));
    #[cfg(unix)]
    let (caught, signals) = stop_on_signals(Arc::clone(&stop))?;
    let result = run_match_until(&config, &mut progress, &stop);
    #[cfg(unix)]
    signals.close();
    progress.bar.finish_and_clear();
    let summary = match result {
        Ok(summary) => summary,
        Err(e @ RefereeError::Interrupted { .. }) => {
            eprintln!("ingo: {e} ({})", args.out.display());
            #[cfg(unix)]
            let signal = caught.load(Ordering::SeqCst);
            #[cfg(not(unix))]
            let signal = 2;
            return Ok(ExitCode::from(u8::try_from(128 + signal).unwrap_or(1)));
        }
        Err(e) => return Err(e.into()),
    };
    println!("{summary}");
    println!(
        "Records and results (results.txt, results.tsv, results.json) are in {}",
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
