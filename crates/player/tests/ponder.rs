//! Pondering: a search on the opponent's time ([`Player::ponder`], off by default) is taken up
//! by the next move's search when the opponent plays a move it tried.

use std::sync::atomic::AtomicBool;

use ingo_player::{Budget, Config, Player};
use ingo_rules::{Game, Move, Point, Rules, Setup};

fn player(ponder: bool) -> Player {
    Player::new(Config {
        budget: Budget::playouts(2_000),
        early_stop: false,
        ponder,
        seed: 3,
        ..Config::default()
    })
    .expect("a valid config")
}

#[test]
fn pondering_is_off_by_default() {
    assert!(!Config::default().ponder);
    let game = Game::new(Setup::empty(5).expect("size"), Rules::ing());
    let mut p = player(false);
    assert_eq!(p.ponder(&game, &AtomicBool::new(false), 1_000), 0);
    let mut next = game.clone();
    next.play(Move::Play(Point::new(2, 2).expect("C3")))
        .expect("legal");
    assert_eq!(p.genmove(&next, None).info.playouts, 2_000);
}

#[test]
fn the_next_move_goes_on_from_the_pondered_search() {
    let game = Game::new(Setup::empty(5).expect("size"), Rules::ing());
    let mut p = player(true);
    // White ponders while Black thinks about the empty board.
    assert_eq!(p.ponder(&game, &AtomicBool::new(false), 3_000), 3_000);
    // Black plays the centre, which the pondered search tried: White's search goes on from
    // there, and makes fewer playouts of its own to reach its budget.
    let mut next = game.clone();
    next.play(Move::Play(Point::new(2, 2).expect("C3")))
        .expect("legal");
    let d = p.genmove(&next, None);
    assert!(d.info.playouts < 2_000, "{}", d.info.playouts);
    assert!(d.mv().is_some_and(|m| next.is_legal(m)));
    // The pondered search is used once: the same position again searches afresh.
    assert_eq!(p.genmove(&next, None).info.playouts, 2_000);
}

#[test]
fn a_pondered_search_of_another_position_is_not_used() {
    let game = Game::new(Setup::empty(5).expect("size"), Rules::ing());
    let mut p = player(true);
    let mut elsewhere = game.clone();
    elsewhere
        .play(Move::Play(Point::new(0, 0).expect("A5")))
        .expect("legal");
    p.ponder(&elsewhere, &AtomicBool::new(false), 1_000);
    // A position that does not follow from the pondered one (Black played C3, not A5).
    let mut next = game.clone();
    next.play(Move::Play(Point::new(2, 2).expect("C3")))
        .expect("legal");
    assert_eq!(p.genmove(&next, None).info.playouts, 2_000);
    // A stop already set: nothing is searched.
    assert_eq!(p.ponder(&game, &AtomicBool::new(true), 1_000), 0);
}
