//! Regression tests for the rules engine's soft spots: each test is
//! named after what it guards.

use ingo_rules::{Board, Color, Game, Komi, Move, Point, Rules, Setup, SetupError};

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
}

/// A handicap pass does not end anything ("讓手…虛手" is no step toward the end, docs/rules.md
/// §2): Black's pass right after one is the first of a row, not the second. Before, Black could
/// suspend a game with a 5先 handicap at move 3 (B Q3, White's handicap pass, B pass) and win
/// it by the whole board when White did not object (found in an `ingo match` against GNU Go).
#[test]
fn a_pass_after_a_handicap_pass_is_the_first_of_a_row() {
    use ingo_rules::Phase;
    let setup = Setup {
        handicap_passes: 2,
        ..Setup::empty(9).expect("size")
    };
    let mut g = Game::new(setup, Rules::ing());
    g.play(Move::Play(at("C3", 9))).expect("legal");
    assert!(g.handicap_pass_due());
    g.play(Move::Pass).expect("White's first handicap pass");
    assert_eq!(g.consecutive_passes(), 0);
    g.play(Move::Pass).expect("Black passes");
    assert_eq!((g.phase(), g.consecutive_passes()), (Phase::Playing, 1));
    assert!(g.handicap_pass_due());
    g.play(Move::Pass).expect("White's second handicap pass");
    assert_eq!((g.phase(), g.consecutive_passes()), (Phase::Playing, 0));
    g.play(Move::Pass).expect("Black passes again");
    assert_eq!((g.phase(), g.consecutive_passes()), (Phase::Playing, 1));
    // The handicap is paid: White's pass now is an ordinary one, and the two suspend play.
    assert!(!g.handicap_pass_due());
    g.play(Move::Pass).expect("White passes");
    assert_eq!((g.phase(), g.consecutive_passes()), (Phase::Suspended, 2));
    // Undo rebuilds the same counts.
    g.undo().expect("undo");
    assert_eq!((g.phase(), g.consecutive_passes()), (Phase::Playing, 1));
    g.undo().expect("undo");
    g.undo().expect("undo");
    assert_eq!((g.phase(), g.consecutive_passes()), (Phase::Playing, 1));
}

/// A 5×5 board with a black stone on C3 in atari-free space and a white stone on A1.
fn small_board() -> Board {
    Board::from_ascii(
        "
  A B C D E
5 . . . . .
4 . . . . .
3 . . X . .
2 . . . . .
1 O . . . .",
    )
    .expect("a diagram")
}

#[test]
fn board_string_queries_on_an_empty_point_answer_nothing() {
    // Issue 9 item 16: these read the string tables at whatever index they were given.
    let b = small_board();
    let empty = at("D4", 5);
    assert!(b.liberties_upto(empty, 4).is_empty());
    assert_eq!(b.string_size(empty), 0);
    assert!(!b.in_atari(empty));
    assert_eq!(b.atari_liberty(empty), None);
    assert_eq!(b.string_head(empty), None);
    assert_eq!(b.liberty_count(empty), 0);
    assert!(!b.is_eye(at("C3", 5), Color::Black), "a stone is no eye");
    assert!(
        b.is_eye_or_suicide(at("C3", 5), Color::White),
        "nothing to play on a stone"
    );
    // And on stones they still answer.
    assert_eq!(b.string_head(at("C3", 5)), Some(at("C3", 5)));
    assert_eq!(b.liberties_upto(at("C3", 5), 8).len(), 4);
    assert_eq!(b.atari_liberty(at("A1", 5)), None);
}

#[test]
#[should_panic(expected = "there are 23 empty points")]
fn board_empty_point_past_the_end_is_refused_not_stale() {
    // The list's room past its end holds stale points: handing one out would let a playout
    // play on a stone.
    let b = small_board();
    let _ = b.empty_point(b.empty_count());
}

#[test]
#[should_panic(expected = "Board::play_unchecked")]
fn board_play_unchecked_on_a_stone_is_refused_not_corrupting() {
    let mut b = small_board();
    let mut removed = Vec::new();
    b.play_unchecked(at("C3", 5), Color::White, &mut removed);
}

#[test]
#[should_panic(expected = "Board::analyze")]
fn board_analyze_on_a_stone_is_refused() {
    let b = small_board();
    let _ = b.analyze(at("A1", 5), Color::Black);
}

#[test]
fn penalty_points_past_i32_half_points_still_give_the_right_winner() {
    // Issue 9 item 15: the margin doubles the penalty points; in i32 `2 * i32::MAX` wraps and
    // hands the game to the side with the penalty (a panic in debug builds).
    let mut game = Game::new(Setup::empty(3).expect("size"), Rules::ing());
    game.set_penalty(Color::Black, i32::MAX);
    for _ in 0..4 {
        game.play(Move::Pass).expect("a pass is legal");
    }
    assert_eq!(game.winner(), Some(Color::White));
    assert_eq!(game.tally().winner, Color::White);
    let score = game.score().expect("counted");
    assert_eq!(score.winner, Color::White);
    assert!(score.margin_halves < 0, "{}", score.margin_halves);
    let mut game = Game::new(Setup::empty(3).expect("size"), Rules::ing());
    game.set_penalty(Color::White, i32::MAX);
    game.set_penalty(Color::Black, i32::MIN);
    assert_eq!(game.count(&[]).winner, Color::Black);
}

#[test]
fn setup_string_without_liberty_is_refused() {
    // Issue 9 item 15: a string with no liberty in a setup could never be captured.
    let mut board = Board::new(3).expect("size");
    for p in ["A3", "B2", "C3"] {
        board.set_stone(at(p, 3), Color::White);
    }
    board.set_stone(at("B3", 3), Color::Black);
    let setup = Setup {
        board,
        to_move: Color::Black,
        handicap_passes: 0,
    };
    let err = setup.check().expect_err("B3 has no liberty");
    assert!(
        matches!(err, SetupError::NoLiberty { point, color: Color::Black, .. } if point == at("B3", 3)),
        "{err:?}"
    );
    assert_eq!(err.to_string(), "the black string at B3 has no liberty");
    assert_eq!(Setup::empty(9).expect("size").check(), Ok(()));
}
