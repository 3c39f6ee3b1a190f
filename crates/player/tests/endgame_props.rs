//! Invariants of the end-of-game judgement ([`judge_end`]) on random positions: it never
//! panics, it is deterministic, every fill is made on an empty point of the final position
//! (or on a stone taken earlier in the fill), every stone has a status, and the count is the rules' own count of the filled board with the
//! dead stones off. The positions are random games on 9×9 (legal moves only, as
//! [`Game::play`] decides them), stopped after up to 160 moves.

use ingo_player::endgame::{judge_end, EndgameConfig};
use ingo_rules::{Board, Color, Game, Move, Rules, Setup};
use proptest::prelude::*;

/// A random game: `picks` choose among the empty points (an illegal choice is a pass).
fn random_game(picks: &[u16], to_move: Color) -> Game {
    random_game_on(9, picks, to_move)
}

fn random_game_on(size: usize, picks: &[u16], to_move: Color) -> Game {
    let board = Board::with_dims(size, size).expect("a square board");
    let mut g = Game::new(
        Setup {
            board,
            to_move,
            handicap_passes: 0,
        },
        Rules::ing(),
    );
    for &k in picks {
        if g.end().is_some() {
            break;
        }
        let n = g.board().empty_count();
        if n == 0 {
            break;
        }
        let p = g.board().empty_point(usize::from(k) % n);
        if g.play(Move::Play(p)).is_err() && g.play(Move::Pass).is_err() {
            break;
        }
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn judgement_holds_its_invariants(
        picks in proptest::collection::vec(any::<u16>(), 0..160),
        white_first in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let to_move = if white_first { Color::White } else { Color::Black };
        let g = random_game(&picks, to_move);
        let config = EndgameConfig { playouts: 16, seed, first_to_fill: None };
        let j = judge_end(&g, &config);
        prop_assert_eq!(&j, &judge_end(&g, &config));
        let board = g.board();
        // Every fill is on a point empty in the final position, or on a stone taken earlier in
        // the fill: a dead stone (captured), or one retaken (a ko: a play next to it took it).
        for (k, f) in j.fills.iter().enumerate() {
            let taken = || {
                j.fills[..k]
                    .iter()
                    .any(|e| board.neighbors(f.point).any(|q| q == e.point))
            };
            prop_assert!(
                board.color_at(f.point).is_none() || j.dead.contains(&f.point) || taken(),
                "fill on a standing stone: {:?}\n{}\n{:?}\nread {} dead {:?} to move {:?}",
                f,
                board.to_ascii(),
                j.fills,
                j.fill_read,
                j.dead,
                g.to_move()
            );
        }
        // Every stone has a status; the dead stones are those of the dead strings.
        for p in board.points() {
            prop_assert_eq!(board.color_at(p).is_some(), j.status_at(p).is_some());
        }
        let mut dead: Vec<_> = j
            .strings
            .iter()
            .filter(|s| s.status == ingo_player::endgame::Status::Dead)
            .flat_map(|s| s.stones.iter().copied())
            .collect();
        dead.sort();
        prop_assert_eq!(&dead, &j.dead);
        // The count is the rules' count of the filled board without the dead stones.
        let counted = ingo_rules::score(&j.filled, &j.dead, g.rules().komi, g.penalties(), Color::Black);
        prop_assert_eq!(counted, j.score);
    }

    /// A 19×19 board early in a game (a suspension after a few moves): hundreds of neutral
    /// points, filled without looking ahead, and the count is still the rules' count.
    #[test]
    fn an_early_board_is_filled_and_counted(
        picks in proptest::collection::vec(any::<u16>(), 0..30),
        seed in any::<u64>(),
    ) {
        let g = random_game_on(19, &picks, Color::Black);
        let config = EndgameConfig { playouts: 4, seed, first_to_fill: None };
        let j = judge_end(&g, &config);
        let counted = ingo_rules::score(&j.filled, &j.dead, g.rules().komi, g.penalties(), Color::Black);
        prop_assert_eq!(counted, j.score);
        // Without captures (every string of an early board has room), the fills and the
        // points left shared are distinct empty points of the board.
        let empty = g.board().empty_count();
        prop_assert!(j.fills.len() + j.seki_points.len() <= empty);
        for f in &j.fills {
            prop_assert!(!j.seki_points.contains(&f.point));
        }
    }
}
