//! The life of a group read by its eye space ([`ingo_player::tactics::group_at`],
//! [`dead_by_shape`], [`read_group`]): the other side's stones inside a group's only eye space
//! in each dead shape (the nakade), built on a board around the shape; the shapes that give
//! two eyes, a string of two stones inside (a race), a group short of outside liberties (no
//! seki guard) and a wall short of liberties, each not dead by shape; a false eye; and the
//! bounded search on small positions.

use ingo_player::tactics::{
    dead_by_shape, group_at, read_group, read_group_alive, read_group_dead, Group, GroupLimits,
    Verdict,
};
use ingo_rules::{Board, Color, Point};

const SIZE: usize = 17;

/// A shape's name, White's stones inside and the empty points beside them (column, row).
type Shape = (
    &'static str,
    &'static [(usize, usize)],
    &'static [(usize, usize)],
);

fn at(c: usize, r: usize) -> Point {
    Point::new(c, r).expect("on the board")
}

fn chebyshev(a: Point, b: Point) -> usize {
    a.col().abs_diff(b.col()).max(a.row().abs_diff(b.row()))
}

/// A board of `SIZE`: White's stones `inside` (one string) and the empty points `empty` make
/// the space a Black group encloses (the Black stones one point around it), with `dame` empty
/// points left in the White wall around Black (each an empty point between the two sides),
/// the White wall two points thick further out, open to the empty board outside.
fn position(inside: &[(usize, usize)], empty: &[(usize, usize)], dame: usize) -> Board {
    let off = 6;
    let space: Vec<Point> = inside
        .iter()
        .chain(empty)
        .map(|&(c, r)| at(c + off, r + off))
        .collect();
    let mut board = Board::new(SIZE).expect("size");
    let dist = |p: Point| space.iter().map(|&s| chebyshev(p, s)).min().unwrap_or(99);
    let mut left = dame;
    for p in board.points().collect::<Vec<_>>() {
        match dist(p) {
            1 => board.set_stone(p, Color::Black),
            3 => board.set_stone(p, Color::White),
            2 => {
                // The dame: points of the wall ring next to a Black stone, taken in board order,
                // two apart at least so that each is an area of its own.
                let next_to_black = |q: Point| {
                    [(0, 1), (1, 0), (0, -1), (-1, 0)].iter().any(|&(dc, dr)| {
                        let (c, r) = (q.col() as i32 + dc, q.row() as i32 + dr);
                        c >= 0
                            && r >= 0
                            && Point::new(c as usize, r as usize).is_some_and(|n| dist(n) == 1)
                    })
                };
                if left > 0 && p.col() % 3 == 0 && next_to_black(p) {
                    left -= 1;
                } else {
                    board.set_stone(p, Color::White);
                }
            }
            _ => {}
        }
    }
    for &(c, r) in inside {
        board.set_stone(at(c + off, r + off), Color::White);
    }
    assert_eq!(left, 0, "not enough dame points:\n{}", board.to_ascii());
    board
}

fn black_group_dead(board: &Board) -> bool {
    let black = board
        .points()
        .find(|&p| board.color_at(p) == Some(Color::Black))
        .expect("a black stone");
    let g = group_at(board, black, &GroupLimits::default()).expect("a closed group");
    assert_eq!(g.color, Color::Black);
    dead_by_shape(board, &g)
}

/// The dead shapes, White's stones inside Black's eye space with two empty points beside them
/// (liberties of White's string), and three dame outside: Black takes the stones, and White
/// plays the vital point of the space they leave.
#[test]
fn stones_inside_in_a_dead_shape_kill_the_group() {
    let shapes: [Shape; 7] = [
        (
            "straight three",
            &[(0, 1), (1, 1), (2, 1)],
            &[(0, 0), (2, 2)],
        ),
        ("bent three", &[(0, 0), (0, 1), (1, 0)], &[(1, 1), (2, 0)]),
        (
            "square four",
            &[(0, 0), (0, 1), (1, 0), (1, 1)],
            &[(2, 0), (2, 1)],
        ),
        (
            "pyramid four",
            &[(0, 0), (1, 0), (2, 0), (1, 1)],
            &[(0, 1), (2, 1)],
        ),
        (
            "bulky five",
            &[(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)],
            &[(2, 1), (3, 0)],
        ),
        (
            "flower (cross) five",
            &[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)],
            &[(0, 0), (2, 2)],
        ),
        (
            "rabbity six",
            &[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 2)],
            &[(0, 0), (2, 0)],
        ),
    ];
    for (name, inside, empty) in shapes {
        let board = position(inside, empty, 3);
        assert!(black_group_dead(&board), "{name}:\n{}", board.to_ascii());
    }
}

/// White's stones in a shape that leaves two eyes once taken (straight, bent and zigzag four),
/// or only two stones (their capture is a race's eye, not a shape): not dead by shape.
#[test]
fn stones_inside_in_a_living_shape_or_too_few_do_not_kill() {
    let shapes: [Shape; 4] = [
        (
            "straight four",
            &[(0, 0), (1, 0), (2, 0), (3, 0)],
            &[(0, 1), (3, 1)],
        ),
        (
            "bent four",
            &[(0, 0), (1, 0), (2, 0), (2, 1)],
            &[(0, 1), (1, 1)],
        ),
        (
            "zigzag four",
            &[(0, 0), (1, 0), (1, 1), (2, 1)],
            &[(0, 1), (2, 0)],
        ),
        ("two stones", &[(0, 0), (1, 0)], &[(0, 1), (1, 1)]),
    ];
    for (name, inside, empty) in shapes {
        let board = position(inside, empty, 3);
        assert!(!black_group_dead(&board), "{name}:\n{}", board.to_ascii());
    }
}

/// The bent three inside with one dame only: Black cannot fill White's two liberties without
/// running short itself (a seki may stand), so the shape alone does not kill.
#[test]
fn a_group_short_of_outside_liberties_is_not_dead_by_shape() {
    let board = position(&[(0, 0), (0, 1), (1, 0)], &[(1, 1), (2, 0)], 1);
    assert!(!black_group_dead(&board), "\n{}", board.to_ascii());
}

/// The bounded search: White's stone B1 in Black's corner of six points cannot live, whoever
/// moves first; Black's group around an empty straight three, with no liberty outside it,
/// lives when it moves first (the vital point) and dies when White does.
#[test]
fn the_search_reads_a_small_corner_and_a_straight_three() {
    let limits = GroupLimits::default();
    let corner = Board::from_ascii(
        "
        . . . . . .
        . . . . . .
        . . . . . .
        X X X X . .
        . . . X . .
        . O . X . .",
    )
    .expect("diagram");
    let b1 = Point::from_gtp("B1", 6, 6).expect("vertex");
    let g = group_at(&corner, b1, &limits).expect("a closed group");
    assert_eq!(g.stones, vec![b1]);
    assert_eq!(g.outside.len(), 5, "{g:?}");
    let life = read_group(&corner, &g, &limits);
    assert_eq!(
        (life.dead, life.alive),
        (Verdict::Yes, Verdict::No),
        "{life:?}"
    );

    let three = Board::from_ascii(
        "
        . . . . . . .
        . . . . . . .
        O O O O O . .
        X X X X O . .
        . . . X O . .
        X X X X O . .
        O O O O O . .",
    )
    .expect("diagram");
    let a4 = Point::from_gtp("A4", 7, 7).expect("vertex");
    let g = group_at(&three, a4, &limits).expect("a closed group");
    assert_eq!(g.regions.len(), 1, "{g:?}");
    let life = read_group(&three, &g, &limits);
    assert_eq!(
        (life.dead, life.alive),
        (Verdict::No, Verdict::No),
        "{life:?}"
    );
}

/// Each half of the reading alone gives what the whole reading gives for it.
#[test]
fn the_readings_of_death_and_life_alone_are_those_of_the_whole_reading() {
    let limits = GroupLimits::default();
    for (ascii, size, at) in [
        (GAME_9X9_2, 9, "C3"),
        (
            "
        . . . . . .
        . . . . . .
        . . . . . .
        X X X X . .
        . . . X . .
        . O . X . .",
            6,
            "B1",
        ),
    ] {
        let board = Board::from_ascii(ascii).expect("diagram");
        let p = Point::from_gtp(at, size, size).expect("vertex");
        let g = group_at(&board, p, &limits).expect("a closed group");
        let life = read_group(&board, &g, &limits);
        assert_eq!(read_group_dead(&board, &g, &limits), life.dead, "{at}");
        assert_eq!(read_group_alive(&board, &g, &limits), life.alive, "{at}");
    }
}

/// The group reading is no rule of shape for the bent four in the corner: White's bent four
/// of empty points in the corner, inside a Black wall, is not read dead (under Ing's rules it
/// is played out, a ko, "提證死活").
#[test]
fn no_bent_four_in_the_corner_is_dead_by_rule() {
    let board = Board::from_ascii(
        "
        . . . . . .
        . . . . . .
        X X X X . .
        O O X . . .
        . O X . . .
        . O O X . .
        . . O X . .",
    )
    .expect("diagram");
    let a4 = Point::from_gtp("A4", 6, 7).expect("vertex");
    let limits = GroupLimits::default();
    let g = group_at(&board, a4, &limits).expect("a closed group");
    assert!(!dead_by_shape(&board, &g), "{g:?}");
    let life = read_group(&board, &g, &limits);
    assert_ne!(life.dead, Verdict::Yes, "{life:?}");
}

/// The final position of `gnugo/regression/games/9x9-2.sgf` (GNU Go against itself, after
/// two passes; recorded W+16, `KM[0]`).
const GAME_9X9_2: &str = "
        . . . . . . . . .
        X X . . . . . . .
        O X X X X X X X .
        O O X O O X O X X
        . O O O X X O O X
        . X . . O O O . O
        X . X O O . . . .
        O O X X X O O O O
        O O O X X X X X .";

/// The Black group of the string on C3 of a 9×9 board, and whether it is dead by shape.
fn c3_group(board: &Board) -> (Group, bool) {
    let c3 = Point::from_gtp("C3", 9, 9).expect("vertex");
    let g = group_at(board, c3, &GroupLimits::default()).expect("a closed group");
    let dead = dead_by_shape(board, &g);
    (g, dead)
}

/// The wall of a group with a nakade inside that has fewer liberties than the group on its
/// own, but joins a living group of its colour at a liberty they share, where the group's
/// side cannot play (its stone would be in atari and take nothing): no race, the group is
/// dead by shape. Source: `gnugo/regression/games/9x9-2.sgf` ([`GAME_9X9_2`]): White's bulky
/// five A2 B2 A1 B1 C1 in Black's corner; White's wall A7 … D5 has three liberties (A5, C4,
/// D4) against the Black group's four (A4, C4, B3, J1), and joins White's centre at D4, a
/// point where a Black stone would be in atari. The first version read a race and left the
/// group, counting B+21; GNU Go counts W+15.
#[test]
fn a_wall_that_joins_its_friends_where_the_group_cannot_play_is_not_short() {
    let board = Board::from_ascii(GAME_9X9_2).expect("diagram");
    let (g, dead) = c3_group(&board);
    assert_eq!(g.stones.len(), 11, "{g:?}");
    assert!(dead, "\n{}", board.to_ascii());
}

/// The same board with a Black stone on C4: Black's stone on D4 is no longer in atari (it
/// joins the group), so the wall, with two liberties against the group's four, does not join
/// White's centre there whatever Black does. Black moving first takes it (D4, then A5), White
/// moving first joins: a race, not a shape.
#[test]
fn a_wall_whose_join_the_group_can_prevent_is_short() {
    let mut board = Board::from_ascii(GAME_9X9_2).expect("diagram");
    board.set_stone(Point::from_gtp("C4", 9, 9).expect("vertex"), Color::Black);
    let (g, dead) = c3_group(&board);
    assert_eq!(g.stones.len(), 12, "{g:?}");
    assert!(!dead, "\n{}", board.to_ascii());
}

/// The final position of `aeb-pro/Ing/02/14.sgf` (2nd Ing Cup, 306 moves; recorded B+1).
const ING_02_14: &str = "
        . . O O X . . . . X O O O O X . . . .
        . O O X X X X . . X X O O X . . . . .
        O . O O X O O X X X X X O X X . X X .
        O O X O O O X X O X X O O X X X X . X
        X X X O O X X O O O O O X O O O O X X
        . . X O X . X X O X X O X O O . O O X
        . X O O X X O O O O X X X X O O . . O
        . . X X X O O O O O O X . . X O . O O
        . X O X X O X X X O X X . X X X O O X
        . X O O O O O X X X . X X O O X X X X
        . X X X O . O O X . X O O O O X X . .
        . X O O . . O X X X X X X X O O O X .
        X X X O . . . O O O X O X O O . O X .
        X X O . O . . O O . O O X O . O X X .
        O O O O . O O X O . O O X O O O X X X
        O O O X O O X X O O X X X X X X O X O
        O X O X X O X O O . O X X X X O O O O
        X X X . X O X X O . O O O X O . O . .
        . . . . X X X X O . . O X X O O . . .";

/// The bounded search keeps the boards of its line off the stack. A group of many stones reads
/// lines of a hundred moves and more, and with a board in each frame of the search (9 KB on
/// 19×19) the reading of Black's group of `H17` here overflowed a 2 MiB stack and aborted the
/// process: the stack of a test thread, and of Tokio's blocking threads, where the server
/// judges a game. Source: [`ING_02_14`].
#[test]
fn a_long_reading_fits_in_a_small_stack() {
    let board = Board::from_ascii(ING_02_14).expect("diagram");
    let h17 = Point::from_gtp("H17", 19, 19).expect("vertex");
    let limits = GroupLimits::default();
    let g = group_at(&board, h17, &limits).expect("a closed group");
    assert!(g.stones.len() >= 40, "{} stones", g.stones.len());
    let life = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || read_group(&board, &g, &limits))
        .expect("a thread")
        .join()
        .expect("the reading returns");
    assert!(life.nodes > 1_000, "{life:?}");
}
