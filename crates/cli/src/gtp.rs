//! `ingo gtp`: the GTP v2 engine front of `ingo-front` on standard input and output, with the
//! built-in player configured from the command line.

use std::io;
use std::time::Duration;

use ingo_front::gtp::{run, GtpFront};
use ingo_player::{Budget, Config, Player, ResignPolicy};
use ingo_rules::Rules;

/// How the built-in player plays: from `ingo gtp`'s flags.
pub struct PlayerArgs {
    /// Playouts per move.
    pub playouts: u64,
    /// Most time per move.
    pub time: Option<f64>,
    /// The seed of its random numbers.
    pub seed: u64,
    /// Whether it may resign.
    pub resign: bool,
}

/// Speaks GTP on standard input and output on a `size × size` board under `rules` until `quit`
/// or the end of input.
///
/// # Errors
/// For a bad `--time`, or when reading or writing fails.
pub fn serve(size: usize, rules: Rules, args: &PlayerArgs) -> anyhow::Result<()> {
    let time = match args.time {
        Some(t) if t.is_finite() && t > 0.0 => Some(Duration::from_secs_f64(t)),
        Some(t) => anyhow::bail!("--time must be a positive number of seconds, not {t}"),
        None => None,
    };
    let config = Config {
        budget: Budget {
            playouts: Some(args.playouts),
            time,
        },
        seed: args.seed,
        resign: args.resign.then_some(ResignPolicy {
            below: 0.02,
            min_playouts: 2_000.min(args.playouts),
        }),
        ..Config::default()
    };
    let player = Player::new(config)?;
    let mut front = GtpFront::new(size, rules, player)?;
    run(&mut front, io::stdin().lock(), io::stdout().lock())?;
    Ok(())
}
