//! Tree reuse (`Config::reuse_tree`, on by default): the next move's search goes on from the
//! part of the last one that the moves played since reached, with the statistics it had, and
//! only the new playouts count toward the budget.

use ingo_player::{Budget, Config, PatternPriors, Player};
use ingo_rules::{Game, Move, Rules, Setup};

fn player(reuse_tree: bool) -> Player {
    Player::new(Config {
        budget: Budget::playouts(1_000),
        early_stop: false,
        reuse_tree,
        seed: 11,
        pattern_priors: PatternPriors::Off,
        ..Config::default()
    })
    .expect("valid config")
}

/// Black's search, then its expected line (its move and White's most visited reply) played,
/// then Black's next search on a 7×7 board: its own playouts and those it went on from.
fn second_search(reuse: bool) -> (u64, u64) {
    let mut game = empty();
    let mut p = player(reuse);
    let first = p.genmove(&game, None);
    assert!(first.info.pv.len() >= 2, "{:?}", first.info.pv);
    assert!(
        !first.info.pv[..2].contains(&Move::Pass),
        "{:?}",
        first.info.pv
    );
    for &mv in &first.info.pv[..2] {
        game.play(mv).expect("the line is legal");
    }
    let second = p.genmove(&game, None);
    assert!(second.mv().is_some_and(|m| game.is_legal(m)));
    (second.info.playouts, second.info.reused)
}

fn empty() -> Game {
    Game::new(Setup::empty(7).expect("size"), Rules::ing())
}

#[test]
fn the_next_search_goes_on_from_the_line_played() {
    assert!(Config::default().reuse_tree);
    let (playouts, reused) = second_search(true);
    assert_eq!(playouts, 1_000, "only the new playouts count");
    assert!(reused > 0, "the reply's part of the last search is kept");
}

#[test]
fn without_reuse_the_next_search_starts_afresh() {
    assert_eq!(second_search(false), (1_000, 0));
}

#[test]
fn a_position_that_does_not_follow_starts_afresh() {
    let mut p = player(true);
    let game = empty();
    p.genmove(&game, None);
    // The same position again (no move since) is not a continuation,
    assert_eq!(p.genmove(&game, None).info.reused, 0);
    // nor is a game on another board with a move played.
    let mut other = Game::new(Setup::empty(9).expect("size"), Rules::ing());
    other.play(Move::Pass).expect("legal");
    assert_eq!(p.genmove(&other, None).info.reused, 0);
}
