//! Hand-made final positions where the end-of-game judgement reads before it samples: a string
//! the tactical reader captures whatever its owner plays first is dead, the playouts start with
//! it captured, and the judgement says how each status was decided.

use ingo_player::endgame::{judge_end, Decided, EndgameConfig, Judgement, Status};
use ingo_rules::{Board, Color, Game, Point, Rules, Setup};

fn judge(ascii: &str, to_move: Color) -> (Game, Judgement) {
    let board = Board::from_ascii(ascii).expect("test diagram");
    let g = Game::new(
        Setup {
            board,
            to_move,
            handicap_passes: 0,
        },
        Rules::ing(),
    );
    let j = judge_end(&g, &EndgameConfig::default());
    (g, j)
}

fn pt(g: &Game, name: &str) -> Point {
    let b = g.board();
    Point::from_gtp(name, b.width(), b.height()).expect("vertex")
}

fn how(g: &Game, j: &Judgement, name: &str) -> Decided {
    let p = pt(g, name);
    j.strings
        .iter()
        .find(|s| s.stones.contains(&p))
        .map(|s| s.how)
        .expect("a stone")
}

/// White's two stones D5 E5 in Black's wide-open area are in atari at E4; extending there gives
/// two liberties, and Black's ataris drive them along a ladder to the edge: dead whoever moves first, read as a ladder, and the
/// playouts (which start with them captured) cannot let them run.
#[test]
fn a_string_caught_in_a_ladder_is_read_dead() {
    let (g, j) = judge(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . X X . . . .
        . . X O O X . . .
        . . . X . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        Color::White,
    );
    assert_eq!(j.status_at(pt(&g, "D5")), Some(Status::Dead));
    assert_eq!(how(&g, &j, "D5"), Decided::Ladder, "{:#?}", j.strings);
}

/// A capture race in the corner of Black's area: White's string A1 B1 (liberties C1 and A2's
/// side: two) against Black's B2 C2 (three outside liberties). White moving first fills one of
/// Black's liberties and is still a move short; read dead, not sampled.
#[test]
fn a_lost_capture_race_is_read_dead() {
    let (g, j) = judge(
        "
        . . . . . . . X O
        . . . . . . . X O
        . . . . . . . X O
        . . . . . . . X O
        . . . . . . . X O
        . . . . . . . X O
        X X X . . . . X O
        O O X . . . . X O
        . O O X . . . X O",
        Color::White,
    );
    assert_eq!(
        j.status_at(pt(&g, "B1")),
        Some(Status::Dead),
        "{:#?}",
        j.strings
    );
    assert!(
        matches!(how(&g, &j, "B1"), Decided::ReadDead | Decided::Ladder),
        "{:?}",
        how(&g, &j, "B1")
    );
}

/// Strings that no sequence of moves captures are proved alive, and the rest sampled: the
/// judgement says which.
#[test]
fn each_string_says_how_it_was_decided() {
    let (g, j) = judge(
        "
        . . . . . X O . .
        . . . . . X O . .
        . . O . . X O . .
        . . . . . X O . .
        . . . O . X O . .
        X X X X X X O . .
        O O O O O O O . .
        . . . . . . . . .
        . . . . . . . . .",
        Color::Black,
    );
    assert!(matches!(how(&g, &j, "F9"), Decided::Sampled(h) if h > 0.5));
    assert!(matches!(how(&g, &j, "C7"), Decided::Sampled(h) if h < 0.5));
    assert_eq!(j.status_at(pt(&g, "C7")), Some(Status::Dead));
}
