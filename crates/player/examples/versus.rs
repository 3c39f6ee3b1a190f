//! Matches between two player configurations, or against the random player, for tuning.
//!
//! ```text
//! cargo run --release -p ingo-player --example versus -- SIZE GAMES PLAYOUTS_A PLAYOUTS_B [a=KEY=VALUE ...] [b=KEY=VALUE ...]
//! ```
//!
//! `PLAYOUTS_B = 0` makes B the random player. Keys: `rave` (rave_equiv), `explore`, `fpu`,
//! `expand`, `early` (0/1), `show` (print the final boards).

use ingo_player::{Action, Budget, Config, Player, RandomPlayer};
use ingo_rules::{Color, Game, Move, Phase, Rules, Setup};

fn config(playouts: u64, seed: u64, overrides: &[(String, f64)]) -> Config {
    let mut c = Config {
        budget: Budget::playouts(playouts.max(1)),
        seed,
        ..Config::default()
    };
    for (k, v) in overrides {
        match k.as_str() {
            "rave" => c.rave_equiv = *v,
            "explore" => c.exploration = *v,
            "fpu" => c.first_play_urgency = *v,
            "expand" => c.expand_visits = *v as u32,
            "early" => c.early_stop = *v != 0.0,
            "score" => c.score_weight = *v,
            "pass" => c.pass_prior = *v,
            _ => {}
        }
    }
    c
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (size, games, pa, pb) = (num(0, 9) as usize, num(1, 10), num(2, 1000), num(3, 0));
    let (mut oa, mut ob) = (Vec::new(), Vec::new());
    let mut show = false;
    for a in args.iter().skip(4) {
        if a == "show" {
            show = true;
            continue;
        }
        let parts: Vec<&str> = a.splitn(3, '=').collect();
        if let [who, k, v] = parts[..] {
            let v: f64 = v.parse()?;
            match who {
                "a" => oa.push((k.to_string(), v)),
                _ => ob.push((k.to_string(), v)),
            }
        }
    }
    let (mut a_wins, mut margin_sum) = (0, 0.0);
    for g in 0..games {
        let a_color = if g % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut a = Player::new(config(pa, g, &oa))?;
        let mut b = Player::new(config(pb, g + 1000, &ob))?;
        let mut r = RandomPlayer::new(g + 7);
        let mut game = Game::new(Setup::empty(size)?, Rules::ing());
        while game.phase() != Phase::Ended && game.move_count() < 20 * size * size {
            let mv = if game.to_move() == a_color {
                let d = a.genmove(&game, None);
                if show && d.mv() == Some(Move::Pass) {
                    println!(
                        "A passes at {}: {:?}\n{:?}",
                        game.move_count(),
                        d.info,
                        game.board()
                    );
                }
                d.action
            } else if pb == 0 {
                Action::Move(r.genmove(&game))
            } else {
                b.genmove(&game, None).action
            };
            match mv {
                Action::Move(m) => game.play(m)?,
                Action::Resign => break,
            }
        }
        let s = game.count(&[]);
        let m = s.margin() * if a_color == Color::Black { 1.0 } else { -1.0 };
        margin_sum += m;
        if s.winner == a_color {
            a_wins += 1;
        }
        println!(
            "game {g}: A {a_color}, {} moves, A margin {m:+}, passes {:?}",
            game.move_count(),
            game.history()
                .enumerate()
                .filter(|(_, h)| h.mv == Move::Pass)
                .map(|(i, h)| (i, h.color.letter()))
                .collect::<Vec<_>>()
        );
        if show {
            println!("{:?}", game.board());
        }
    }
    println!(
        "A won {a_wins}/{games}, mean margin {:.1}",
        margin_sum / games as f64
    );
    Ok(())
}
