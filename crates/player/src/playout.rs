//! Playouts: light random ones, uniform among the legal board plays that neither fill one's own
//! eye nor commit suicide, or heavy ones ([`PlayoutPolicy::Heavy`], `crate::heavy`); a side with
//! no play passes; two consecutive passes (or a move cap) end the playout, which is then counted
//! with every stone on the board alive.

use ingo_rules::{Color, Game, Move, Phase, Point, Tally};

use crate::rng::Rng;

/// How the moves of a playout are chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PlayoutPolicy {
    /// Uniform among the legal board plays that neither fill one's own eye nor commit suicide
    /// ([`playout`]).
    Light,
    /// MoGo-style heavy playouts: save one's own strings the last move put in atari, capture
    /// the opponent's in atari around it, play the vital point of a three-point eye space, 3×3
    /// hane, cut and edge shapes around the last two moves, and otherwise the light policy
    /// without the self-atari of three stones or more ([`playout_with`]). The default.
    #[default]
    Heavy,
}

/// Playouts stop after this many moves per point of the board, a guard against the long
/// capture-and-refill sequences random play can produce (Ing's cycle bans guarantee termination,
/// but not quickly).
pub(crate) const MOVES_PER_POINT: usize = 3;

/// Whether playing `color` on the empty point `p` is suicide (single stone or block).
#[cfg(test)]
fn is_suicide(game: &Game, p: Point, color: Color) -> bool {
    game.board().analyze(p, color).suicide
}

pub(crate) use crate::light::{choose_random, is_candidate, play_random};

/// Plays `game` on at random to the end of a playout and returns the count; `on_play` sees every
/// board play (for AMAF).
///
/// The playout ends at two consecutive passes (the suspension of play: with every stone left on
/// the board counted alive, as after four passes under Ing, "連續四次虛手" ) or after
/// [`MOVES_PER_POINT`] moves per point.
pub(crate) fn run(game: &mut Game, rng: &mut Rng, on_play: impl FnMut(Color, Point)) -> Tally {
    run_with(game, rng, PlayoutPolicy::Light, on_play)
}

/// [`run`] with the moves chosen by `policy`.
pub(crate) fn run_with(
    game: &mut Game,
    rng: &mut Rng,
    policy: PlayoutPolicy,
    mut on_play: impl FnMut(Color, Point),
) -> Tally {
    let cap = MOVES_PER_POINT * game.board().area();
    // `handicap_pass_due` reads the history, so ask only while it can still be true: once it is
    // false on White's turn (White played a stone, or used up the passes) it stays false.
    let mut handicap_open = game.is_handicap();
    let mut moves = 0;
    while moves < cap && game.consecutive_passes() < 2 && game.phase() != Phase::Ended {
        let color = game.to_move();
        let handicap_pass = handicap_open && color == Color::White && {
            handicap_open = game.handicap_pass_due();
            handicap_open
        };
        let played = if handicap_pass {
            None
        } else {
            match policy {
                PlayoutPolicy::Light => play_random(game, rng),
                PlayoutPolicy::Heavy => crate::heavy::play_heavy(game, rng),
            }
        };
        match played {
            Some(p) => on_play(color, p),
            None => {
                if game.play(Move::Pass).is_err() {
                    // Only an ended game refuses a pass, and the loop checks for that.
                    break;
                }
            }
        }
        moves += 1;
    }
    game.tally()
}

/// Plays a light random playout from `game` (changed in place) and counts the result with every
/// stone on the board alive, with the game's komi, penalties and tie rule.
///
/// The policy: each side plays uniformly among its legal board plays that neither fill its own
/// eye ([`ingo_rules::Board::is_eye`]) nor commit suicide, and passes when it has none (or when a
/// handicap pass is due). The playout ends at two consecutive passes or after three moves per
/// point of the board.
///
/// ```
/// use ingo_player::{playout, Rng};
/// use ingo_rules::{Game, Rules, Setup};
///
/// let mut game = Game::new(Setup::empty(5).unwrap(), Rules::ing());
/// let tally = playout(&mut game, &mut Rng::new(1));
/// assert_eq!(tally.area.black + tally.area.white + tally.shared, 25);
/// // The full count of the final position (with the per-point map) agrees.
/// assert_eq!(game.count(&[]).margin_halves, tally.margin_halves);
/// ```
pub fn playout(game: &mut Game, rng: &mut Rng) -> Tally {
    run(game, rng, |_, _| {})
}

/// Plays a playout of `policy` from `game` (changed in place) and counts the result as
/// [`playout`] does; [`PlayoutPolicy::Light`] is [`playout`] itself.
///
/// ```
/// use ingo_player::{playout_with, PlayoutPolicy, Rng};
/// use ingo_rules::{Game, Rules, Setup};
///
/// let mut game = Game::new(Setup::empty(9).unwrap(), Rules::ing());
/// let tally = playout_with(&mut game, &mut Rng::new(1), PlayoutPolicy::Heavy);
/// assert_eq!(tally.area.black + tally.area.white + tally.shared, 81);
/// ```
pub fn playout_with(game: &mut Game, rng: &mut Rng, policy: PlayoutPolicy) -> Tally {
    run_with(game, rng, policy, |_, _| {})
}

/// The board play `policy` would make for the player to move in `game` (`None`: it would pass),
/// without changing `game`: the first move of a playout from here.
pub fn policy_move(game: &Game, rng: &mut Rng, policy: PlayoutPolicy) -> Option<Point> {
    let mut scratch = game.clone();
    match policy {
        PlayoutPolicy::Light => play_random(&mut scratch, rng),
        PlayoutPolicy::Heavy => crate::heavy::play_heavy(&mut scratch, rng),
    }
}

#[cfg(test)]
mod tests {
    use ingo_rules::{Board, Rules, Setup};

    use super::*;

    #[test]
    fn heavy_playouts_end() {
        let mut g = Game::new(Setup::empty(9).expect("size"), Rules::ing());
        let mut rng = Rng::new(2);
        let tally = run_with(&mut g, &mut rng, PlayoutPolicy::Heavy, |_, _| {});
        assert_eq!(tally.area.black + tally.area.white + tally.shared, 81);
        assert!(g.move_count() > 40);
    }

    fn game(ascii: &str, to_move: Color) -> Game {
        let board = Board::from_ascii(ascii).expect("test diagram");
        Game::new(
            Setup {
                board,
                to_move,
                handicap_passes: 0,
            },
            Rules::ing(),
        )
    }

    #[test]
    fn suicide_test_matches_the_rules() {
        // White on A1 would be a single-stone suicide; Black on A1 is fine (and is an eye).
        let g = game(
            "
            . X . .
            X X . .
            . . . .
            . . . O",
            Color::White,
        );
        let a = |s| Point::from_gtp(s, 4, 4).expect("vertex");
        assert!(is_suicide(&g, a("A4"), Color::White));
        assert!(!is_suicide(&g, a("A4"), Color::Black));
        assert!(!is_suicide(&g, a("C4"), Color::White));
        assert!(!g.is_legal(Move::Play(a("A4"))));
    }

    #[test]
    fn choice_is_uniform_among_acceptable_points() {
        // Black to move; A4 is Black's eye, so 13 points are acceptable and each should come up
        // about 1/13 of the time.
        let g = game(
            "
            . X . .
            X . . .
            . . . .
            . . . .",
            Color::Black,
        );
        let mut rng = Rng::new(3);
        let mut counts = std::collections::HashMap::new();
        let draws = 13_000;
        for _ in 0..draws {
            let p = choose_random(&g, &mut rng).expect("a move exists");
            *counts.entry(p).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len(), 13);
        assert!(
            counts.values().all(|&c| (800..1200).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn playout_ends_and_fills_the_board() {
        let mut g = Game::new(Setup::empty(7).expect("size"), Rules::ing());
        let mut rng = Rng::new(11);
        let mut plays = 0;
        run(&mut g, &mut rng, |_, _| plays += 1);
        assert!(plays > 20);
        assert!(g.consecutive_passes() >= 2 || g.move_count() >= 3 * 49);
        // Nothing but eyes (and ko-forbidden points) is left for the side to move; both passes
        // were made on this same board.
        let c = g.to_move();
        let left = g
            .board()
            .empty_points()
            .filter(|&p| is_candidate(&g, p, c) && g.is_legal(Move::Play(p)))
            .count();
        assert!(left == 0 || g.move_count() >= 3 * 49, "{left} for {c}");
    }
}
