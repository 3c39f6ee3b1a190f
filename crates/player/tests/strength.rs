//! Strength: the search player against the uniformly random player, with the game as referee
//! (Ing's rules, four passes end play, counted with every stone on the board alive).
//!
//! The always-on test is sized for debug builds. The heavier one is ignored by default:
//!
//! ```text
//! cargo test --release -p ingo-player --test strength -- --ignored --nocapture
//! ```

use ingo_player::{Action, Budget, Config, Player, RandomPlayer};
use ingo_rules::{Color, Game, Phase, Rules, Setup};

/// Plays one game and returns the winner and the margin (half points, Black positive).
fn play(size: usize, playouts: u64, mcts: Color, seed: u64) -> (Color, i32, usize) {
    let mut game = Game::new(Setup::empty(size).expect("board size"), Rules::ing());
    let mut player = Player::new(Config {
        budget: Budget::playouts(playouts),
        seed,
        ..Config::default()
    })
    .expect("valid config");
    let mut random = RandomPlayer::new(seed ^ 0xABCD);
    // A guard only: Ing's cycle bans end every game, these far sooner.
    let cap = 20 * size * size;
    while game.phase() != Phase::Ended && game.move_count() < cap {
        let mv = if game.to_move() == mcts {
            match player.genmove(&game, None).action {
                Action::Move(m) => m,
                Action::Resign => panic!("resignation is off by default"),
            }
        } else {
            random.genmove(&game)
        };
        game.play(mv)
            .unwrap_or_else(|e| panic!("{e} in\n{:?}", game.board()));
    }
    assert_eq!(game.phase(), Phase::Ended, "the game should end by passes");
    let score = game.score().expect("ended by passes");
    (score.winner, score.margin_halves, game.move_count())
}

fn match_against_random(size: usize, playouts: u64, games: u64) {
    for seed in 0..games {
        let mcts = if seed % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let (winner, margin, moves) = play(size, playouts, mcts, seed);
        println!(
            "{size}x{size} seed {seed}: search player {mcts}, winner {winner}, margin {}, {moves} moves",
            margin as f64 / 2.0
        );
        assert_eq!(
            winner, mcts,
            "seed {seed}: the search player lost as {mcts}"
        );
    }
}

#[test]
fn beats_random_player_on_7x7() {
    match_against_random(7, 300, 6);
}

#[test]
#[ignore = "heavy in debug builds; run with --release -- --ignored"]
fn beats_random_player_on_9x9_with_1000_playouts() {
    match_against_random(9, 1000, 10);
}
