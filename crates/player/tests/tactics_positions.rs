//! Hand-made positions for the tactical reader ([`ingo_player::tactics`]): the classic ladders
//! (one that works, one broken by a breaker stone, one where the escaper captures a chasing
//! stone, one pushed to the edge), a ko, rescues by capture, and the errors. GNU Go 3.8 agrees
//! with each decided verdict here (its `attack` and `defend` on the same diagram, noted at each
//! test; the differential test `tactics_gnugo.rs` compares many more).

use ingo_player::tactics::{
    can_capture, can_save, ladder, Limits, Reader, Reading, TacticsError, Undecided, Verdict,
};
use ingo_rules::{Board, Color, Move, Point};

fn board(ascii: &str) -> Board {
    Board::from_ascii(ascii).expect("test diagram")
}

fn at(b: &Board, name: &str) -> Point {
    Point::from_gtp(name, b.width(), b.height()).expect("vertex")
}

fn line(b: &Board, r: &Reading) -> String {
    r.line
        .iter()
        .map(|m| m.to_gtp(b.height()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Plays `line` from `b`, the first move by `first`, and says whether the string on `target`
/// is gone at the end (every move must be on an empty point).
fn captured_after(b: &Board, target: Point, first: Color, line: &[Move]) -> bool {
    let mut b = b.clone();
    let mut color = first;
    let mut removed = Vec::new();
    let defender = b.color_at(target);
    for &mv in line {
        if let Move::Play(p) = mv {
            assert!(
                b.color_at(p).is_none(),
                "the line plays on a stone: {line:?}"
            );
            b.play_unchecked(p, color, &mut removed);
        }
        color = color.opponent();
    }
    b.color_at(target) != defender
}

/// The staircase: White's C4 in atari runs towards the lower right, where nothing helps it.
const LADDER: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . X X . . . . .
    . X O . . . . . .
    . . X . . . . . .
    . . . . . . . . .
    . . . . . . . . .";

#[test]
fn a_working_ladder_captures() {
    // GNU Go: attack C4 = 1 D4, defend C4 = 0.
    let b = board(LADDER);
    let c4 = at(&b, "C4");
    let r = ladder(&b, c4, false, &Limits::default()).expect("a stone");
    assert_eq!(r.verdict, Verdict::Yes, "{r:?}");
    assert_eq!(line(&b, &r), "D4 E4 D3 D2 E3 F3 E2 F2 E1 D1 F1 G1");
    assert!(captured_after(&b, c4, Color::White, &r.line));
    let r = can_save(&b, c4, &Limits::default()).expect("a stone");
    assert_eq!(r.verdict, Verdict::No, "{r:?}");
    // The attacker to move simply takes the stone.
    let r = ladder(&b, c4, true, &Limits::default()).expect("a stone");
    assert_eq!((r.verdict, line(&b, &r)), (Verdict::Yes, "D4".to_string()));
}

#[test]
fn a_breaker_stone_breaks_the_ladder() {
    // GNU Go: defend C4 = 1 D4. White's F2 is where the ladder's line above passes.
    let b = board(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . X X . . . . .
        . X O . . . . . .
        . . X . . . . . .
        . . . . . O . . .
        . . . . . . . . .",
    );
    let c4 = at(&b, "C4");
    let r = ladder(&b, c4, false, &Limits::default()).expect("a stone");
    assert_eq!(r.verdict, Verdict::No, "{r:?}");
    let r = can_save(&b, c4, &Limits::default()).expect("a stone");
    assert_eq!(r.verdict, Verdict::Yes, "{r:?}");
    assert_eq!(r.line.first(), Some(&Move::Play(at(&b, "D4"))));
    assert!(!captured_after(&b, c4, Color::White, &r.line));
}

#[test]
fn the_escaper_captures_a_chasing_stone() {
    // GNU Go: defend C4 = 1 D4. Black's C3 has two liberties; when White's ladder reaches D3
    // it is in atari, and White takes it instead of running.
    let b = board(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . X X . . . . .
        . X O . . . . . .
        . O X . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
    );
    let c4 = at(&b, "C4");
    let r = ladder(&b, c4, false, &Limits::default()).expect("a stone");
    assert_eq!(r.verdict, Verdict::No, "{r:?}");
    // Without White's B3 the same ladder works (the position of the first test).
    let mut without = b.clone();
    without.clear_stone(at(&b, "B3"));
    let r = ladder(&without, c4, false, &Limits::default()).expect("a stone");
    assert_eq!(r.verdict, Verdict::Yes, "{r:?}");
}

#[test]
fn a_second_line_stone_is_pushed_to_the_edge_and_taken() {
    // GNU Go: attack E2 = 1 F2, defend E2 = 1 F2. Atari from the open side drives White along
    // the first line, where it never has more than two liberties.
    let b = board(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . X O . . . .
        . . . . . . . . .",
    );
    let e2 = at(&b, "E2");
    let r = ladder(&b, e2, true, &Limits::default()).expect("a stone");
    assert_eq!(r.verdict, Verdict::Yes, "{r:?}");
    assert_eq!(line(&b, &r), "F2 E1 D1 F1 G1");
    assert!(captured_after(&b, e2, Color::Black, &r.line));
    // The other atari, E1, lets White out at F2 with three liberties: the reader must find
    // F2, not just any atari.
    let mut wrong = b.clone();
    wrong.play_unchecked(at(&b, "E1"), Color::Black, &mut Vec::new());
    wrong.play_unchecked(at(&b, "F2"), Color::White, &mut Vec::new());
    assert_eq!(wrong.liberty_count(e2), 3);
    // White to move extends at F2 and is out.
    let r = ladder(&b, e2, false, &Limits::default()).expect("a stone");
    assert_eq!(r.verdict, Verdict::No, "{r:?}");
    let r = can_save(&b, e2, &Limits::default()).expect("a stone");
    assert_eq!((r.verdict, line(&b, &r)), (Verdict::Yes, "F2".to_string()));
}

#[test]
fn a_capture_that_is_a_ko_is_unknown() {
    // GNU Go: attack B4 = 2 C4 (a ko). Black's C4 takes B4 and is left alone in atari on the
    // point it took: whether White may take back is Ing's ko rules' question, and the board
    // alone cannot answer it.
    let b = board(
        "
        . X O . .
        X O . O .
        . X O . .
        . . . . .
        . . . . .",
    );
    let b4 = at(&b, "B4");
    for r in [
        can_capture(&b, b4, &Limits::default()).expect("a stone"),
        ladder(&b, b4, true, &Limits::default()).expect("a stone"),
    ] {
        assert_eq!(r.verdict, Verdict::Unknown, "{r:?}");
        assert_eq!(r.undecided, Some(Undecided::Ko));
        assert!(r.line.is_empty());
    }
}

#[test]
fn questions_about_no_string_are_errors() {
    let b = board(LADDER);
    assert_eq!(
        can_capture(&b, at(&b, "A1"), &Limits::default()),
        Err(TacticsError::NoStone { col: 0, row: 8 })
    );
    let off = Point::new(12, 3).expect("a point of a 25x25 array");
    assert_eq!(
        Reader::new().ladder(&b, off, true, &Limits::default()),
        Err(TacticsError::OffBoard { col: 12, row: 3 })
    );
}

#[test]
fn the_node_budget_bounds_the_reading() {
    // The breaker position's rescue takes thousands of nodes; with 50 it is unknown, and the
    // reading stops at the budget.
    let b = board(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . X X . . . . .
        . X O . . . . . .
        . . X . . . . . .
        . . . . . O . . .
        . . . . . . . . .",
    );
    let limits = Limits {
        nodes: 50,
        ..Limits::default()
    };
    let r = can_save(&b, at(&b, "C4"), &limits).expect("a stone");
    assert_eq!(r.verdict, Verdict::Unknown, "{r:?}");
    assert_eq!(r.undecided, Some(Undecided::Budget));
    assert!(r.nodes <= 51, "{} nodes", r.nodes);
}

#[test]
fn a_first_line_stone_is_saved_by_the_hane() {
    // Seed 17 of tactics_gnugo.rs, where GNU Go's attack C9 = 0 (and after White's C8, its
    // defend C9 = 1 D8). Pushed along the first line from C8, Black's C9 dies at F9 or the
    // corner; the hane at D8, next to a liberty rather than on one, stops the push.
    let b = board(
        "
        . . X . . O X . X
        . . . . . . . X .
        . . . . . O O . X
        . O X O X . X O .
        . . . . . . . . .
        . . X . O O . . .
        . X . . . . . . .
        . X . . . . . . O
        O X . O O . X . .",
    );
    let limits = Limits {
        nodes: 400_000,
        ..Limits::default()
    };
    let r = can_capture(&b, at(&b, "C9"), &limits).expect("a stone");
    assert_eq!(r.verdict, Verdict::No, "{r:?}");
}

/// The staircase in the upper left of a 19×19 board: White's C18 in atari, Black's stones on
/// C19, D19, B18 and C17; with `breaker`, a White stone there too.
fn long_ladder(breaker: Option<&str>) -> Board {
    let mut b = Board::with_dims(19, 19).expect("19x19");
    for (name, color) in [
        ("C19", Color::Black),
        ("D19", Color::Black),
        ("B18", Color::Black),
        ("C17", Color::Black),
        ("C18", Color::White),
    ] {
        b.set_stone(Point::from_gtp(name, 19, 19).expect("vertex"), color);
    }
    if let Some(name) = breaker {
        b.set_stone(Point::from_gtp(name, 19, 19).expect("vertex"), Color::White);
    }
    b
}

#[test]
fn a_ladder_runs_across_the_whole_board() {
    let b = long_ladder(None);
    let c18 = at(&b, "C18");
    let r = ladder(&b, c18, false, &Limits::default()).expect("a stone");
    assert_eq!(r.verdict, Verdict::Yes, "{r:?}");
    println!(
        "{} plies, {} nodes: {}",
        r.line.len(),
        r.nodes,
        line(&b, &r)
    );
    assert!(r.line.len() > 60, "{}", line(&b, &r));
    assert!(captured_after(&b, c18, Color::White, &r.line));
}

#[test]
fn a_breaker_near_the_far_edge_breaks_the_long_ladder() {
    // A White stone at N6, 50 plies down the ladder's path, breaks it; one at S8, beside the
    // path's end but above it, does not. GNU Go, after White's D18 (its ladder_attack needs
    // two liberties): ladder_attack D18 = 0 with N6, 1 E18 with S8 and with no breaker. (Its
    // attack D18 still succeeds with N6, by E17: a net; a ladder is one way to capture.)
    for (breaker, verdict) in [("N6", Verdict::No), ("S8", Verdict::Yes)] {
        let b = long_ladder(Some(breaker));
        let r = ladder(&b, at(&b, "C18"), false, &Limits::default()).expect("a stone");
        assert_eq!(r.verdict, verdict, "breaker {breaker}: {r:?}");
    }
}
