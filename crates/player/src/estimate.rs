//! A quick estimate of the dead stones by random playouts, for an engine front asked
//! `final_status_list dead` before the players have agreed (and for a server that wants a first
//! proposal). It is an estimate, not a referee's decision: a stone is called dead when light
//! random playouts nearly always end with it in the opponent's area.

use ingo_rules::{Color, Game, Owner, Point};

use crate::{playout, Rng};

/// The playouts an engine front runs for one estimate: enough for a stable answer on 19×19 in a
/// fraction of a second.
pub const DEAD_PLAYOUTS: u32 = 200;

/// The seed of the estimate's playouts: fixed, so that asking twice gives the same answer.
const SEED: u64 = 0x1D_EAD5;

/// The stones that belong to the opponent's area at the end of at least 80% of `playouts`
/// random playouts from the current position. Deterministic (fixed seed), so that a controller
/// asking twice gets the same answer. No stone is called dead when `playouts` is 0.
///
/// ```
/// use ingo_rules::{Board, Color, Game, Point, Rules, Setup};
///
/// // A lone white stone inside Black's wall on 5x5 is dead; Black's wall is not.
/// let board = Board::from_ascii("
///   A B C D E
/// 5 . . X . .
/// 4 . . X . .
/// 3 . . X . .
/// 2 . . X O .
/// 1 . . X . .").unwrap();
/// let setup = Setup { board, to_move: Color::Black, handicap_passes: 0 };
/// let game = Game::new(setup, Rules::ing());
/// let dead = ingo_player::estimate_dead(&game, 100);
/// assert!(dead.iter().all(|&p| game.board().color_at(p) == Some(Color::White)));
/// ```
pub fn estimate_dead(game: &Game, playouts: u32) -> Vec<Point> {
    let board = game.board();
    let width = board.width();
    let mut lost = vec![0u32; board.area()];
    let mut rng = Rng::new(SEED);
    for _ in 0..playouts {
        let mut g = game.clone();
        playout(&mut g, &mut rng);
        let score = g.count(&[]);
        for p in board.points() {
            let owner = score.owners[p.row() * width + p.col()];
            let lost_it = match board.color_at(p) {
                Some(Color::Black) => owner != Owner::Black,
                Some(Color::White) => owner != Owner::White,
                None => false,
            };
            if lost_it {
                lost[p.row() * width + p.col()] += 1;
            }
        }
    }
    board
        .points()
        .filter(|p| {
            playouts > 0
                && board.color_at(*p).is_some()
                && lost[p.row() * width + p.col()] * 5 >= playouts * 4
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ingo_rules::{Board, Rules, Setup};

    fn game(ascii: &str) -> Game {
        let board = Board::from_ascii(ascii).expect("valid diagram");
        let setup = Setup {
            board,
            to_move: Color::Black,
            handicap_passes: 0,
        };
        Game::new(setup, Rules::ing())
    }

    #[test]
    fn a_lone_stone_inside_a_wall_is_dead_and_the_wall_lives() {
        let g = game(
            "
  A B C D E F G
7 . . . X . . .
6 . . . X . . .
5 . . . X . . .
4 . . . X . O .
3 . . . X . . .
2 . . . X . . .
1 . . . X . . .",
        );
        // White's lone stone on the right can live there in some playouts (the right side is
        // as big as the left), so only check that Black's wall, which splits the board and has
        // two big eyes, is never called dead, and that the answer is stable.
        let dead = estimate_dead(&g, DEAD_PLAYOUTS);
        assert!(dead
            .iter()
            .all(|&p| g.board().color_at(p) == Some(Color::White)));
        assert_eq!(dead, estimate_dead(&g, DEAD_PLAYOUTS));
    }

    #[test]
    fn a_stone_in_atari_deep_in_enemy_area_is_dead() {
        let g = game(
            "
  A B C D E
5 . . . . .
4 . X X X .
3 . X O X .
2 . X . X .
1 . . X . .",
        );
        let c3 = Point::from_gtp("C3", 5, 5).expect("on the board");
        assert_eq!(estimate_dead(&g, DEAD_PLAYOUTS), vec![c3]);
    }

    #[test]
    fn no_playouts_call_nothing_dead() {
        let g = game(
            "
  A B C
3 . X .
2 X O X
1 . X .",
        );
        assert!(estimate_dead(&g, 0).is_empty());
    }
}
