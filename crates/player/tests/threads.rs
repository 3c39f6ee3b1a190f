//! Root parallelism (`Config::threads`): the threads share a playout budget, their root moves'
//! statistics are summed before the choice, a seed with a playout budget still fixes the move,
//! a time budget still ends the search, and a bad thread count is refused.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ingo_player::{
    Budget, Config, ConfigError, PatternPriors, Player, Reason, TimeSource, MAX_THREADS,
};
use ingo_rules::{Board, Color, Game, Move, Rules, Setup};

fn threaded_config(playouts: u64, threads: usize, seed: u64) -> Config {
    Config {
        budget: Budget::playouts(playouts),
        threads,
        seed,
        pattern_priors: PatternPriors::Off,
        ..Config::default()
    }
}

fn threaded(playouts: u64, threads: usize, seed: u64) -> Player {
    Player::new(threaded_config(playouts, threads, seed)).expect("valid config")
}

/// A 5×5 board with few empty points, Black to move: every root move is among the ten
/// candidates the search reports, so their visits add up to the playouts.
fn small() -> Game {
    let board = Board::from_ascii(
        "
        . X O . .
        X X O O O
        X . X O .
        X X X O O
        . X O O .",
    )
    .expect("diagram");
    Game::new(
        Setup {
            board,
            to_move: Color::Black,
            handicap_passes: 0,
        },
        Rules::ing(),
    )
}

#[test]
fn the_threads_votes_are_summed() {
    let game = small();
    for threads in [1, 2, 3] {
        // No early stop: the whole budget is spent, so the threads' playouts add up to it.
        let d = Player::new(Config {
            early_stop: false,
            ..threaded_config(1001, threads, 7)
        })
        .expect("valid config")
        .genmove(&game, None);
        assert_eq!(d.info.reason, Reason::Search);
        assert_eq!(d.info.playouts, 1001, "{threads} threads share the budget");
        assert!(d.info.candidates.len() < 10, "{:?}", d.info.candidates);
        // Every playout goes through one root move, in whichever thread's tree.
        let visits: u32 = d.info.candidates.iter().map(|c| c.visits).sum();
        assert_eq!(visits, 1001, "{threads} threads");
        assert!(d.mv().is_some_and(|m| game.is_legal(m)));
    }
}

#[test]
fn a_seed_and_a_playout_budget_fix_the_move_with_threads() {
    let game = Game::new(Setup::empty(7).expect("size"), Rules::ing());
    let a = threaded(600, 2, 42).genmove(&game, None);
    let b = threaded(600, 2, 42).genmove(&game, None);
    assert_eq!(a.action, b.action);
    assert_eq!(a.info.candidates, b.info.candidates);
    assert_eq!(a.info.playouts, 600);
}

#[test]
fn more_playouts_than_threads_is_not_needed() {
    // A budget of one playout on four threads: one thread makes it, the others none.
    let d = threaded(1, 4, 1).genmove(&small(), None);
    assert_eq!(d.info.playouts, 1);
    assert!(d.mv().is_some());
}

/// A clock that advances one millisecond at every reading.
#[derive(Debug, Default)]
struct Ticks(AtomicU64);

impl TimeSource for Ticks {
    fn now(&self) -> Duration {
        Duration::from_millis(self.0.fetch_add(1, Ordering::Relaxed))
    }
}

#[test]
fn a_time_budget_stops_every_thread() {
    let game = Game::new(Setup::empty(9).expect("size"), Rules::ing());
    let mut p = Player::with_time_source(
        Config {
            budget: Budget::time(Duration::from_millis(100)),
            threads: 2,
            early_stop: false,
            ..Config::default()
        },
        Arc::new(Ticks::default()),
    )
    .expect("config");
    // The first thread reads the clock after each playout and stops at the 100th; the other
    // stops when told, after however many it made meanwhile.
    let d = p.genmove(&game, None);
    assert!(d.info.playouts >= 100, "{}", d.info.playouts);
    assert!(d.mv().is_some_and(|m| game.is_legal(m)));
}

#[test]
fn takes_a_group_in_atari_with_threads() {
    let board = Board::from_ascii(
        "
        . . . . .
        . X X X .
        X O O O X
        . X O X .
        . . . . .",
    )
    .expect("diagram");
    let game = Game::new(
        Setup {
            board,
            to_move: Color::Black,
            handicap_passes: 0,
        },
        Rules::ing(),
    );
    let c1 = ingo_rules::Point::from_gtp("C1", 5, 5).expect("point");
    assert_eq!(
        threaded(400, 2, 9).genmove(&game, None).mv(),
        Some(Move::Play(c1))
    );
}

#[test]
fn bad_thread_counts_are_refused() {
    for threads in [0, MAX_THREADS + 1] {
        let config = Config {
            threads,
            ..Config::default()
        };
        assert_eq!(
            Player::new(config).err(),
            Some(ConfigError::Threads(threads))
        );
    }
}
