//! Playout and search speed from the empty board, single thread.
//!
//! ```text
//! cargo run --release -p ingo-player --example speed [seconds per measurement, default 3]
//! ```

use std::time::{Duration, Instant};

use ingo_player::{playout, Budget, Config, Player, Rng};
use ingo_rules::{Color, Game, Rules, Setup};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let secs: f64 = match std::env::args().nth(1) {
        Some(s) => s.parse()?,
        None => 3.0,
    };
    let span = Duration::from_secs_f64(secs);
    for size in [9, 19] {
        let root = Game::new(Setup::empty(size)?, Rules::ing());
        let mut rng = Rng::new(1);
        let (mut n, mut moves, mut black) = (0u64, 0usize, 0u64);
        let start = Instant::now();
        let mut g = root.clone();
        while start.elapsed() < span {
            g.clone_from(&root);
            let score = playout(&mut g, &mut rng);
            moves += g.move_count();
            black += u64::from(score.winner == Color::Black);
            n += 1;
        }
        let t = start.elapsed().as_secs_f64();
        println!(
            "{size}x{size} playouts: {:.0}/s ({:.1} moves each, {:.0} moves/s, Black wins {:.1}%)",
            n as f64 / t,
            moves as f64 / n as f64,
            moves as f64 / t,
            100.0 * black as f64 / n as f64
        );
        let mut player = Player::new(Config {
            budget: Budget::time(span),
            early_stop: false,
            ..Config::default()
        })?;
        let d = player.genmove(&root, None);
        println!(
            "{size}x{size} search:   {:.0} playouts/s ({} playouts, {} nodes, best {:?} {:.1}%)",
            d.info.playouts as f64 / d.info.elapsed.as_secs_f64(),
            d.info.playouts,
            d.info.nodes,
            d.mv().map(|m| m.to_gtp(size)),
            100.0 * d.info.win_rate
        );
    }
    Ok(())
}
