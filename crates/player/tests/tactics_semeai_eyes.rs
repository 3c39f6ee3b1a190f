//! Capture races with an eye ([`ingo_player::tactics::capture_race_with_eyes`]): one eye
//! against none, counted with the big-eye liberties, checked against an exhaustive search of
//! the real board (every play on a liberty of either string, captures and suicide as the board
//! gives them, two passes seki), with either side to move; and the classic counts by hand.

mod race_oracle;

use std::collections::HashMap;

use ingo_player::tactics::{
    capture_race, capture_race_with_eyes, eye_liberties, RaceEye, RaceOutcome,
};
use ingo_rules::{Board, Color, Point};

/// A race with `x` outside liberties for Black, `y` for White, `s` shared and a Black eye of
/// `n` points in a line at the right edge (none for `n == 0`), on a board 9 rows high: rows 1
/// and 2 a White wall with Black's outside liberties at the start of row 2, row 3 the Black
/// string (its eye at the end of the row, closed above and below by Black stones of rows 2 and
/// 4 one column wider than the eye), row 4 the shared liberties then White stones, row 5 the
/// White string, rows 6 and 7 a Black wall with White's outside liberties at the start of row
/// 6; rows 0 and 8 are the walls' room.
fn eye_race_board(x: usize, y: usize, s: usize, n: usize) -> (Board, Point, Point) {
    let w = x.max(y).max(s) + n + 3;
    let mut b = Board::with_dims(w, 9).expect("a small board");
    let p = |c: usize, r: usize| Point::new(c, r).expect("on the board");
    let wall = w - n - 1;
    for c in 0..w {
        let eye_part = n > 0 && c >= wall;
        b.set_stone(p(c, 1), Color::White);
        if eye_part {
            b.set_stone(p(c, 2), Color::Black);
        } else if c >= x {
            b.set_stone(p(c, 2), Color::White);
        }
        if !(n > 0 && c > wall) {
            b.set_stone(p(c, 3), Color::Black);
        }
        if eye_part {
            b.set_stone(p(c, 4), Color::Black);
        } else if c >= s {
            b.set_stone(p(c, 4), Color::White);
        }
        b.set_stone(p(c, 5), Color::White);
        if c >= y {
            b.set_stone(p(c, 6), Color::Black);
        }
        b.set_stone(p(c, 7), Color::Black);
    }
    (b, p(0, 3), p(0, 5))
}

/// The race on the real board: the value for Black with Black to move when `black_to_move`,
/// after a pass when `passed`.
fn search(
    b: &Board,
    black: Point,
    white: Point,
    black_to_move: bool,
    passed: bool,
    memo: &mut HashMap<(u64, bool, bool), RaceOutcome>,
) -> RaceOutcome {
    // Every liberty of either string, and the empty points of Black's eye (row 3: a stone
    // played inside the eye and taken leaves points that are no liberty of a string).
    fn moves(b: &Board, black: Point, white: Point) -> Vec<Point> {
        let mut m: Vec<Point> = b.liberties_upto(black, 16).into_iter().collect();
        m.extend(b.liberties_upto(white, 16));
        m.extend(
            b.points()
                .filter(|&q| q.row() == 3 && b.color_at(q).is_none()),
        );
        m
    }
    race_oracle::search(b, (black, white), black_to_move, passed, moves, memo)
}

#[test]
fn the_board_has_the_counts_it_is_built_with() {
    for n in 0..=3 {
        let (b, black, white) = eye_race_board(2, 1, 2, n);
        assert_eq!(b.liberty_count(black), 2 + 2 + n, "{n}:\n{}", b.to_ascii());
        assert_eq!(b.liberty_count(white), 1 + 2, "{n}:\n{}", b.to_ascii());
        let r = capture_race_with_eyes(&b, black, white).expect("a race");
        assert_eq!((r.first_outside, r.second_outside, r.shared), (2, 1, 2));
        assert_eq!(r.second_eye, RaceEye::None);
        match (n, r.first_eye) {
            (0, RaceEye::None) => {}
            (
                1 | 2,
                RaceEye::One {
                    points,
                    vital: None,
                    ..
                },
            ) => assert_eq!(points, n),
            (
                3,
                RaceEye::One {
                    points: 3,
                    vital: Some(v),
                    ..
                },
            ) => {
                // The middle of the straight three.
                assert_eq!(b.color_at(v), None);
                assert_eq!(
                    b.neighbors(v).filter(|&q| b.color_at(q).is_none()).count(),
                    2
                );
            }
            other => panic!("{other:?}\n{}", b.to_ascii()),
        }
    }
}

/// One eye of one, two or three points against none, for every count of outside and shared
/// liberties up to three (two with the straight three): the counting gives what the search of
/// the board gives.
#[test]
fn one_eye_against_none_agrees_with_search_on_the_board() {
    let mut checked = 0;
    for n in 1..=3 {
        // The straight three's board is the largest to search: counts up to two there.
        let top = if n == 3 { 2 } else { 3 };
        for x in 0..=top {
            for y in 0..=top {
                for s in 0..=top {
                    if y + s == 0 {
                        continue;
                    }
                    let (b, black, white) = eye_race_board(x, y, s, n);
                    let race = capture_race_with_eyes(&b, black, white).expect("a race");
                    let mut memo = HashMap::new();
                    let black_first = search(&b, black, white, true, false, &mut memo);
                    let white_first = search(&b, black, white, false, false, &mut memo);
                    assert_eq!(
                        (race.first_to_move, race.second_to_move),
                        (black_first, white_first),
                        "eye {n}, outside {x} and {y}, shared {s}:\n{}",
                        b.to_ascii()
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 2 * 4 * 15 + 3 * 8);
}

/// Without eyes the counting is [`capture_race`]'s.
#[test]
fn without_eyes_it_is_the_plain_race() {
    for x in 0..=3 {
        for y in 0..=3 {
            for s in 0..=3 {
                if x + s == 0 || y + s == 0 {
                    continue;
                }
                let (b, black, white) = eye_race_board(x, y, s, 0);
                let plain = capture_race(&b, black, white).expect("a race");
                let eyes = capture_race_with_eyes(&b, black, white).expect("a race");
                assert_eq!(
                    (plain.first_to_move, plain.second_to_move),
                    (eyes.first_to_move, eyes.second_to_move),
                    "{x} {y} {s}"
                );
            }
        }
    }
}

/// The classic rules: with one eye against none there is no seki from shared liberties (the
/// eyeless side cannot fill them, the side with the eye can), so two shared liberties and
/// nothing outside is the eye's; and the big-eye counts.
#[test]
fn the_classic_counts_with_an_eye() {
    use RaceOutcome::{FirstWins, SecondWins, Seki};
    let race = |x, y, s, n| {
        let (b, black, white) = eye_race_board(x, y, s, n);
        let r = capture_race_with_eyes(&b, black, white).expect("a race");
        (r.first_to_move, r.second_to_move)
    };
    // No eyes: seki. An eye of one point: the eye wins whoever moves.
    assert_eq!(race(0, 0, 2, 0), (Seki, Seki));
    assert_eq!(race(0, 0, 2, 1), (FirstWins, FirstWins));
    // With one eye against none the shared liberties count for the eye: the eye side has its
    // outside, eye and shared liberties, the eyeless side its outside ones; the more wins, and
    // on equal counts the side to move. Three against three:
    assert_eq!(race(0, 3, 2, 1), (FirstWins, SecondWins));
    // four against three, and three against four, whoever moves:
    assert_eq!(race(1, 3, 2, 1), (FirstWins, FirstWins));
    assert_eq!(race(0, 4, 2, 1), (SecondWins, SecondWins));
    // Without the eye, (2, 2, 2) is seki; with it, the eye's.
    assert_eq!(race(2, 2, 2, 0), (Seki, Seki));
    assert_eq!(race(2, 2, 2, 1), (FirstWins, FirstWins));
    assert_eq!(eye_liberties(3), Some(3));
    assert_eq!(eye_liberties(4), Some(5));
    assert_eq!(eye_liberties(5), Some(8));
    assert_eq!(eye_liberties(6), Some(12));
    assert_eq!(eye_liberties(7), None);
    // A straight three of the eyeless side's opponent: the owner to move plays its middle.
    // Three outside liberties of White against a straight three with nothing else: Black to
    // move plays the vital point (two eyes); White to move fills it (three liberties, as many
    // as White's) and wins.
    assert_eq!(race(0, 3, 0, 3), (FirstWins, SecondWins));
}

/// An unsettled eye is two eyes for its owner to move, whatever the other side's liberties: a
/// straight three against five outside liberties is Black's with Black to move (the vital
/// point), White's with White to move (it fills the three points before Black fills five).
/// The search of the board says the same.
#[test]
fn the_vital_point_of_an_unsettled_eye_is_its_owners_when_it_moves() {
    let (b, black, white) = eye_race_board(0, 5, 0, 3);
    let r = capture_race_with_eyes(&b, black, white).expect("a race");
    assert_eq!(
        (r.first_to_move, r.second_to_move),
        (RaceOutcome::FirstWins, RaceOutcome::SecondWins)
    );
    let mut memo = HashMap::new();
    assert_eq!(
        search(&b, black, white, true, false, &mut memo),
        RaceOutcome::FirstWins
    );
    assert_eq!(
        search(&b, black, white, false, false, &mut memo),
        RaceOutcome::SecondWins
    );
}

/// A bent four in the corner is no pair of eyes under Ing's rules: it is played out as a ko
/// ("提證死活": nothing is dead or alive by its shape), which the count does not read; it
/// counts as one eye of five liberties without a vital point. Away from the corner the bent
/// four is two eyes (the string cannot be taken).
#[test]
fn a_bent_four_in_the_corner_is_one_eye_in_a_race() {
    let corner = Board::from_ascii(
        "
        . . . . . . .
        . . . . . . .
        O O O . . . .
        X X O . . . .
        . X O O . . .
        . X X O . . .
        . . X O . . .",
    )
    .expect("a diagram");
    let at = |b: &Board, name: &str| Point::from_gtp(name, b.width(), b.height()).expect("vertex");
    let r = capture_race_with_eyes(&corner, at(&corner, "A4"), at(&corner, "A5")).expect("a race");
    assert_eq!(
        r.first_eye,
        RaceEye::One {
            points: 4,
            liberties: 5,
            vital: None
        }
    );
    assert_eq!(r.first_outside, 0);
    // The same shape on the side, one column in: two eyes.
    let side = Board::from_ascii(
        "
        . . . . . . .
        . . . . . . .
        O O O O . . .
        X X X O . . .
        X . X O O . .
        X . X X O . .
        X . . X O . .",
    )
    .expect("a diagram");
    let r = capture_race_with_eyes(&side, at(&side, "B4"), at(&side, "B5")).expect("a race");
    assert_eq!(r.first_outside, 0);
    assert_eq!(r.first_eye, RaceEye::Alive);
}

/// A race of groups refuses groups that are empty, of one colour, or whose target is not
/// theirs, with an error that says which.
#[test]
fn a_race_of_groups_refuses_what_is_no_group() {
    use ingo_player::tactics::{group_race_with_eyes, TacticsError};
    let board = ingo_rules::Board::from_ascii(
        "
        . X O .
        . X O .
        . X O .
        . . . .",
    )
    .expect("diagram");
    let p = |n: &str| ingo_rules::Point::from_gtp(n, 4, 4).expect("vertex");
    let black = [p("B4"), p("B3"), p("B2")];
    let white = [p("C4"), p("C3"), p("C2")];
    assert_eq!(
        group_race_with_eyes(&board, (&[], &[]), (&white, &white)),
        Err(TacticsError::NotAGroup)
    );
    assert_eq!(
        group_race_with_eyes(&board, (&black, &black), (&black, &black)),
        Err(TacticsError::SameColor)
    );
    assert_eq!(
        group_race_with_eyes(&board, (&black, &white), (&white, &white)),
        Err(TacticsError::SameColor)
    );
    assert_eq!(
        group_race_with_eyes(&board, (&black[..1], &black[1..2]), (&white, &white)),
        Err(TacticsError::NotAGroup)
    );
    let race = group_race_with_eyes(&board, (&black, &black), (&white, &white)).expect("a race");
    assert_eq!(
        (race.first_outside, race.second_outside, race.shared),
        (4, 4, 0)
    );
}
