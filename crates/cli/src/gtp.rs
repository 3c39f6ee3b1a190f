//! `ingo gtp`: the GTP v2 engine front of `ingo-front` on standard input and output, with the
//! built-in player configured from the command line.

use std::io;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use ingo_front::gtp::GtpFront;
use ingo_player::{Budget, Config, PatternPriors, Player, PlayoutPolicy, ResignPolicy, Widening};
use ingo_rules::Rules;

use crate::RuleArgs;

/// Speaks GTP on standard input and output on a `size × size` board under `rules` until `quit`
/// or the end of input, with the built-in player set by `config`.
///
/// # Errors
/// For an invalid `config`, or when reading or writing fails.
pub fn serve(size: usize, rules: Rules, config: Config) -> anyhow::Result<()> {
    let player = Player::new(config)?;
    let mut front = GtpFront::new(size, rules, player)?;
    ingo_front::gtp::run(&mut front, io::stdin().lock(), io::stdout().lock())?;
    Ok(())
}

/// Arguments of `ingo gtp`.
#[derive(Args)]
pub struct GtpArgs {
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
    /// at least 2,000 playouts, past the opening and losing by 15 points or more by the
    /// estimate of a few playouts, instead of playing out a lost game).
    #[arg(long)]
    no_resign: bool,
    /// The playout policy: heavy (MoGo-style: atari escapes and captures around the last move,
    /// nakade, 3×3 shapes, no self-atari of three stones; stronger in the same time) or light
    /// (uniform random, about four times as many playouts a second).
    #[arg(long, default_value = "heavy", value_parser = ["light", "heavy"])]
    playout: String,
    /// Where the search takes the move patterns learned from the corpus as priors: on boards of
    /// 13×13 and larger (`large`), on every board (`always`), or never (`off`, the search
    /// without them, to measure what they give).
    #[arg(long, default_value = "large", value_parser = ["large", "always", "off"])]
    priors: String,
    /// Searching threads (each searches a tree of its own and their root moves' statistics are
    /// summed). By default one per processor core. A seed and a playout budget with no `--time`
    /// give the same moves for the same number of threads.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=ingo_player::MAX_THREADS as i64))]
    threads: Option<u16>,
    /// Ponder: after each of its moves, search on the opponent's time (one thread) until the
    /// next command comes; the next `genmove` goes on from that search.
    #[arg(long)]
    ponder: bool,
    /// Progressive widening where the priors apply: `off`, `on` (4 moves, one more each time a
    /// node's playouts grow 1.4 times past 20), or `START,VISITS,GROWTH`.
    #[arg(long, default_value = "off", value_parser = parse_widening)]
    widening: WideningArg,
    /// Progressive bias where the priors apply: this times the move's pattern share over one
    /// plus its playouts, added to its value in the search (0: none).
    #[arg(long, default_value_t = 0.0, value_parser = parse_bias)]
    prior_bias: f64,
    /// The UCT exploration constant of the search: `C·√(ln N / (n+1))` added to a move's value
    /// (0: exploring is left to RAVE and the first-play urgency, the measured best on 19×19 and
    /// 9×9 with heavy playouts; the lobby's light-playout levels play 0.1).
    #[arg(long, default_value_t = Config::default().exploration, value_parser = parse_bias)]
    exploration: f64,
    /// Dynamic komi in handicap games: the search counts with this many points per handicap
    /// stone against Black, falling linearly to none by move 200 (0: off).
    #[arg(long, default_value_t = 7.0, value_parser = parse_bias)]
    dynamic_komi: f64,
}

fn parse_bias(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(b) if b.is_finite() && b >= 0.0 => Ok(b),
        _ => Err(format!("{s:?} is not a number of 0 or more")),
    }
}

/// `--widening`'s value (a newtype: clap takes an `Option` field as an optional flag).
#[derive(Clone, Copy, Debug)]
struct WideningArg(Option<Widening>);

fn parse_widening(s: &str) -> Result<WideningArg, String> {
    match s {
        "off" => return Ok(WideningArg(None)),
        "on" => return Ok(WideningArg(Some(Widening::default()))),
        _ => {}
    }
    let bad = || format!("{s:?} is not off, on or START,VISITS,GROWTH (such as 4,20,1.4)");
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    let [start, visits, growth] = parts[..] else {
        return Err(bad());
    };
    let w = Widening {
        start: start.parse().map_err(|_| bad())?,
        visits: visits.parse().map_err(|_| bad())?,
        growth: growth.parse().map_err(|_| bad())?,
    };
    w.validate().map_err(|e| {
        format!("{s:?}: {e} (START must be at least 1, VISITS above 0 and GROWTH above 1)")
    })?;
    Ok(WideningArg(Some(w)))
}

/// Runs `ingo gtp` with the flags of `args`.
///
/// # Errors
/// For a bad `--time`, or when reading or writing fails.
pub fn run(args: GtpArgs) -> anyhow::Result<ExitCode> {
    let config = player_config(&args)?;
    serve(args.size as usize, args.rules.rules(), config)?;
    Ok(ExitCode::SUCCESS)
}

/// The built-in player's settings from `ingo gtp`'s flags.
///
/// # Errors
/// For a bad `--time`.
fn player_config(args: &GtpArgs) -> anyhow::Result<Config> {
    let time = match args.time {
        Some(t) if t.is_finite() && t > 0.0 => Some(Duration::from_secs_f64(t)),
        Some(t) => anyhow::bail!("--time must be a positive number of seconds, not {t}"),
        None => None,
    };
    Ok(Config {
        budget: Budget {
            playouts: Some(args.playouts),
            time,
        },
        seed: args.seed.unwrap_or_else(fresh_seed),
        resign: (!args.no_resign).then_some(ResignPolicy {
            below: 0.02,
            min_playouts: 2_000.min(args.playouts),
            ..ResignPolicy::default()
        }),
        playout: if args.playout == "heavy" {
            PlayoutPolicy::Heavy
        } else {
            PlayoutPolicy::Light
        },
        pattern_priors: match args.priors.as_str() {
            "off" => PatternPriors::Off,
            "always" => PatternPriors::Always,
            _ => PatternPriors::Large,
        },
        threads: args.threads.map_or_else(cores, usize::from),
        ponder: args.ponder,
        widening: args.widening.0,
        prior_bias: args.prior_bias,
        exploration: args.exploration,
        dynamic_komi: args.dynamic_komi,
        ..Config::default()
    })
}

/// The processor cores this process may use (1 if that cannot be told).
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A seed that differs from run to run: the clock and the process id, mixed.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32) ^ 0x9E37_79B9_7F4A_7C15
}
