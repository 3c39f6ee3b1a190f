//! The fill-in count done the way a referee does it at the board, independently of `count.rs`'s
//! algebra, checked against the margin on many positions.
//!
//! # Source: rule text 第五條 "填滿計點": "子空皆地…雙方各以一百八十子填滿本方空…雙方各填其半",
//! 還子 ("貼還八點…每子二點") and 罰子; docs/rules.md §5.
//!
//! The referee's procedure, simulated point by point: every living stone on the board is one of
//! its side's supply of (N²−1)/2 stones (half the points on an even board; captured and dead
//! stones go back to their owner's bowl); the shared points are dealt out in turns (a last
//! single one stays empty); each side takes stones from its bowl and puts one on every empty
//! point of its own area and of its half of the shared points, one at a time; then the compensation stones (還子, komi/2)
//! and the penalty stones (罰子, penalty points/2) are paid by the side that owes them, which
//! puts that many of the other side's stones into its own area. What is left is read off the
//! board: empty points of one's area (勝空) and stones left in one's bowl (負子). Only the area
//! of each point comes from the library (`owners`, tested on its own); the count of stones and
//! spaces, the supply, the filling and the exchanges are this file's.

use ingo_rules::{owners, Board, ByColor, Color, Game, Komi, Move, Owner, Point, Rules, Setup};
use proptest::prelude::*;

/// What the referee finds after filling: per side, in half stones (so that komi 7 → 3½ stones
/// is exact), the spaces left minus the stones left.
#[derive(Debug, PartialEq)]
struct Filled {
    supply: usize,
    filled: ByColor<usize>,
    spaces_left: ByColor<usize>,
    stones_left: ByColor<usize>,
    net_halves: ByColor<i64>,
}

fn referee_fill(board: &Board, dead: &[Point], komi: Komi, penalties: ByColor<i32>) -> Filled {
    let area_of = owners(board, dead);
    let supply = board.area() / 2;
    // The bowls: the supply less the living stones on the board.
    let mut bowl = ByColor {
        black: supply as i64,
        white: supply as i64,
    };
    // What is on each point as the referee fills: Some(colour) for a stone.
    let mut on_point: Vec<Option<Color>> = board
        .points()
        .map(|p| board.color_at(p).filter(|_| !dead.contains(&p)))
        .collect();
    for c in on_point.iter().flatten() {
        *bowl.get_mut(*c) -= 1;
    }
    let mut placed = ByColor {
        black: 0usize,
        white: 0usize,
    };
    for (c, living) in [Color::Black, Color::White].into_iter().zip([
        on_point
            .iter()
            .filter(|s| **s == Some(Color::Black))
            .count(),
        on_point
            .iter()
            .filter(|s| **s == Some(Color::White))
            .count(),
    ]) {
        *placed.get_mut(c) = living;
    }
    // The shared points are dealt out in turns, Black first, so that each side fills half of
    // them; a last single one belongs to neither and stays empty.
    let mut to_fill: Vec<Option<Color>> = area_of
        .iter()
        .map(|o| match o {
            Owner::Black => Some(Color::Black),
            Owner::White => Some(Color::White),
            Owner::Shared => None,
        })
        .collect();
    let shared: Vec<usize> = (0..on_point.len())
        .filter(|&i| area_of[i] == Owner::Shared)
        .collect();
    for pair in shared.chunks_exact(2) {
        to_fill[pair[0]] = Some(Color::Black);
        to_fill[pair[1]] = Some(Color::White);
    }
    // Each side fills the empty points it has to fill, one stone at a time, while its bowl
    // lasts.
    for side in [Color::Black, Color::White] {
        for i in 0..on_point.len() {
            if to_fill[i] == Some(side) && on_point[i].is_none() && *bowl.get(side) > 0 {
                on_point[i] = Some(side);
                *bowl.get_mut(side) -= 1;
                *placed.get_mut(side) += 1;
            }
        }
    }
    let spaces_left = |side: Color| {
        (0..on_point.len())
            .filter(|&i| to_fill[i] == Some(side) && on_point[i].is_none())
            .count()
    };
    let spaces = ByColor {
        black: spaces_left(Color::Black),
        white: spaces_left(Color::White),
    };
    let stones = ByColor {
        black: (*bowl.get(Color::Black)).max(0) as usize,
        white: (*bowl.get(Color::White)).max(0) as usize,
    };
    // The exchanges, in half stones: komi in half points / 4 stones = komi halves / 2 half
    // stones; penalty points / 2 stones = penalty points half stones. The owing side puts the
    // other side's stones into its own area: its net falls, the other's rises.
    let owed_by_black =
        i64::from(komi.halves()) / 2 + i64::from(penalties.black) - i64::from(penalties.white);
    let net = |side: Color| 2 * (*spaces.get(side) as i64 - *stones.get(side) as i64);
    Filled {
        supply,
        filled: placed,
        spaces_left: spaces,
        stones_left: stones,
        net_halves: ByColor {
            black: net(Color::Black) - owed_by_black,
            white: net(Color::White) + owed_by_black,
        },
    }
}

/// A game of random legal moves from `choices` on a `size`×`size` board.
fn random_game(size: usize, choices: &[u16]) -> Game {
    let mut game = Game::new(Setup::empty(size).expect("size"), Rules::ing());
    for &c in choices {
        let moves: Vec<Move> = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Passes rarely: only when the choice says so, or nothing else is legal.
        let plays: Vec<Move> = moves.iter().copied().filter(|m| *m != Move::Pass).collect();
        let mv = if plays.is_empty() || c % 50 == 0 {
            Move::Pass
        } else {
            plays[c as usize % plays.len()]
        };
        if game.play(mv).is_err() {
            break;
        }
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn referee_fill_in_matches_the_margin(
        size in 3usize..=9,
        choices in proptest::collection::vec(any::<u16>(), 0..90),
        komi in 0i32..=16,
        pen_b in 0i32..=6,
        pen_w in 0i32..=6,
        dead_pick in any::<u64>(),
    ) {
        let mut game = random_game(size, &choices);
        game.set_penalty(Color::Black, pen_b);
        game.set_penalty(Color::White, pen_w);
        let board = game.board().clone();
        // Some stones taken as dead: about one stone in five, chosen by the seed.
        let dead: Vec<Point> = board
            .points()
            .filter(|p| board.color_at(*p).is_some())
            .enumerate()
            .filter(|(k, _)| (dead_pick >> (k % 64)) & 1 == 1 && k % 5 == 0)
            .map(|(_, p)| p)
            .collect();
        let komi = Komi::points(komi);
        let score = ingo_rules::score(&board, &dead, komi, game.penalties(), Color::Black);
        let supply = board.area() / 2;
        let living = |c: Color| board.points().filter(|p| board.color_at(*p) == Some(c) && !dead.contains(p)).count();
        // The procedure needs each side's living stones to come from its supply.
        prop_assume!(living(Color::Black) <= supply && living(Color::White) <= supply);
        let r = referee_fill(&board, &dead, komi, game.penalties());
        let f = score.fill_in;
        prop_assert_eq!(r.supply, f.supply);
        prop_assert_eq!(r.filled, f.filled, "{}", board.to_ascii());
        prop_assert_eq!(r.spaces_left, f.spaces_left);
        prop_assert_eq!(r.stones_left, f.stones_left);
        prop_assert_eq!(r.net_halves.black as f64 / 2.0, f.black_net);
        prop_assert_eq!(r.net_halves.white as f64 / 2.0, f.white_net);
        // The margin read off the board is the count's margin, and names the same winner.
        let margin_halves = r.net_halves.black - r.net_halves.white;
        prop_assert_eq!(margin_halves, i64::from(score.margin_halves));
        if margin_halves != 0 {
            prop_assert_eq!(score.winner, if margin_halves > 0 { Color::Black } else { Color::White });
        }
    }
}
