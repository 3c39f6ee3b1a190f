//! Capture races ([`ingo_player::tactics::capture_race`]) checked by search on small boards:
//! for every count of outside and shared liberties up to three, a race built on a board (a
//! Black string and a White string along each other, each with its outside liberties closed
//! in by a wall of the other colour that has room of its own), solved by an exhaustive
//! minimax over the real board (every play on a liberty of either string, and the pass, with
//! captures and suicide as [`Board::analyze`] and [`Board::play_unchecked`] give them; two
//! passes are seki), must give the outcome the liberty counting gives, with either side to
//! move. And the classic counts by hand.

mod race_oracle;

use std::collections::HashMap;

use ingo_player::tactics::{capture_race, RaceOutcome, TacticsError};
use ingo_rules::{Board, Color, Point};

/// A race with `x` outside liberties for Black, `y` for White and `s` shared, on a board 9
/// rows high: rows 1 and 2 a White wall with Black's outside liberties at the start of row 2,
/// row 3 the Black string, row 4 the shared liberties then White stones, row 5 the White
/// string, rows 6 and 7 a Black wall with White's outside liberties at the start of row 6;
/// rows 0 and 8 are the walls' room. A string that fills one of its own outside liberties
/// gains none: they are closed on every other side.
fn race_board(x: usize, y: usize, s: usize) -> (Board, Point, Point) {
    let w = x.max(y).max(s) + 2;
    let mut b = Board::with_dims(w, 9).expect("a small board");
    let p = |c: usize, r: usize| Point::new(c, r).expect("on the board");
    for c in 0..w {
        b.set_stone(p(c, 1), Color::White);
        if c >= x {
            b.set_stone(p(c, 2), Color::White);
        }
        b.set_stone(p(c, 3), Color::Black);
        if c >= s {
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

/// The race on the real board: the value for Black of the position with `black` to move when
/// `black_to_move`, after a pass when `passed`.
fn search(
    b: &Board,
    black: Point,
    white: Point,
    black_to_move: bool,
    passed: bool,
    memo: &mut HashMap<(u64, bool, bool), RaceOutcome>,
) -> RaceOutcome {
    // Every liberty of either string.
    fn moves(b: &Board, black: Point, white: Point) -> Vec<Point> {
        let mut m: Vec<Point> = b.liberties_upto(black, 8).into_iter().collect();
        m.extend(b.liberties_upto(white, 8));
        m
    }
    race_oracle::search(b, (black, white), black_to_move, passed, moves, memo)
}

#[test]
fn counting_agrees_with_search_on_the_board() {
    let mut checked = 0;
    for x in 0..=3 {
        for y in 0..=3 {
            for s in 0..=3 {
                if x + s == 0 || y + s == 0 {
                    continue;
                }
                let (b, black, white) = race_board(x, y, s);
                assert_eq!(
                    (b.liberty_count(black), b.liberty_count(white)),
                    (x + s, y + s),
                    "{b:?}"
                );
                let race = capture_race(&b, black, white).expect("a race");
                assert_eq!(
                    (race.first_outside, race.second_outside, race.shared),
                    (x, y, s)
                );
                let mut memo = HashMap::new();
                let black_first = search(&b, black, white, true, false, &mut memo);
                let white_first = search(&b, black, white, false, false, &mut memo);
                assert_eq!(
                    (race.first_to_move, race.second_to_move),
                    (black_first, white_first),
                    "outside {x} and {y}, shared {s}:\n{b:?}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 57);
}

#[test]
fn the_classic_counts() {
    let race = |x, y, s| {
        let (b, black, white) = race_board(x, y, s);
        let r = capture_race(&b, black, white).expect("a race");
        (r.first_to_move, r.second_to_move)
    };
    use RaceOutcome::{FirstWins, SecondWins, Seki};
    // No shared liberty: more liberties win, and equal ones go to the side to move.
    assert_eq!(race(3, 2, 0), (FirstWins, FirstWins));
    assert_eq!(race(2, 2, 0), (FirstWins, SecondWins));
    // Without eyes the side to move captures when its outside liberties are at least the
    // other's outside and shared ones less one (it fills those, the other fills its outside
    // ones); the other side when its own are at least the mover's outside and shared ones.
    // Short of both it is seki: with two shared, two outside each is seki, not the mover's.
    assert_eq!(race(2, 2, 2), (Seki, Seki));
    assert_eq!(race(0, 0, 2), (Seki, Seki));
    assert_eq!(race(1, 1, 3), (Seki, Seki));
    assert_eq!(race(3, 2, 2), (FirstWins, Seki));
    assert_eq!(race(3, 1, 2), (FirstWins, FirstWins));
    assert_eq!(race(1, 1, 1), (FirstWins, SecondWins));
}

#[test]
fn a_race_needs_two_touching_strings_of_both_colours() {
    let (b, black, white) = race_board(2, 2, 1);
    assert_eq!(capture_race(&b, black, black), Err(TacticsError::SameColor));
    let black_wall = Point::new(3, 7).expect("on the board");
    let white_wall = Point::new(3, 1).expect("on the board");
    assert_eq!(b.color_at(black_wall), Some(Color::Black));
    assert_eq!(b.color_at(white_wall), Some(Color::White));
    assert_eq!(
        capture_race(&b, black_wall, white_wall),
        Err(TacticsError::NotAdjacent)
    );
    assert!(capture_race(&b, white, black).is_ok());
}
