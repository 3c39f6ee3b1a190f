//! Regression tests for the rules engine's soft spots of issue 9 (items 13–16): each test is
//! named after what it guards.

use ingo_rules::{Board, Color, Game, Komi, Move, Point, Rules, Setup};

fn at(s: &str, size: usize) -> Point {
    Point::from_gtp(s, size, size).expect("a point on the board")
}

/// A game on an empty 3×3 board with komi 0 that ends at once by four passes: a tie.
fn tied_game(handicap_game: bool) -> Game {
    let rules = Rules {
        komi: Komi::points(0),
        ..Rules::ing()
    };
    let mut game = Game::new(Setup::empty(3).expect("size"), rules);
    game.set_handicap_game(handicap_game);
    for _ in 0..4 {
        game.play(Move::Pass).expect("a pass is legal");
    }
    game
}

#[test]
fn tie_in_handicap_game_without_passes_goes_to_white() {
    // Issue 9 item 14: 5段 against 3段 is a handicap game with no White pass and no komi; the
    // handicap, not the pass count, decides the tie.
    let even = tied_game(false);
    assert_eq!(even.score().expect("counted").margin_halves, 0);
    assert_eq!(
        even.winner(),
        Some(Color::Black),
        "和棋黑勝 in an even game"
    );
    let handicap = tied_game(true);
    assert!(handicap.is_handicap());
    assert_eq!(handicap.winner(), Some(Color::White));
    assert_eq!(handicap.tally().winner, Color::White);
    // Undo rebuilds the game: the mark survives.
    let mut g = tied_game(true);
    g.undo().expect("a move to undo");
    assert!(g.is_handicap());
    let _ = (at("A1", 3), Board::new(3));
}
