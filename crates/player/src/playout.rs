//! Playouts: light random ones, uniform among the legal board plays that neither fill one's own
//! eye nor commit suicide, or heavy ones ([`PlayoutPolicy::Heavy`], `crate::heavy`); a side with
//! no play passes; two consecutive passes (or a move cap) end the playout, which is then counted
//! with every stone on the board alive.

use ingo_rules::{Color, Game, Move, Phase, Point, Tally, MAX_SIZE};

use crate::rng::Rng;

/// How the moves of a playout are chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PlayoutPolicy {
    /// Uniform among the legal board plays that neither fill one's own eye nor commit suicide
    /// ([`playout`]).
    #[default]
    Light,
    /// MoGo-style heavy playouts: save one's own strings the last move put in atari, capture
    /// the opponent's in atari around it, play the vital point of a three-point eye space, 3×3
    /// hane, cut and edge shapes around the last two moves, and otherwise the light policy
    /// without the self-atari of three stones or more ([`playout_with`]).
    Heavy,
}

/// Random draws tried before falling back to an exact scan. Early in a playout nearly every point
/// is acceptable, so one draw usually suffices; late in it most empty points are eyes, and the
/// exact fallback is cheaper than many rejected draws. Four measured best among 1, 2, 3, 4, 8
/// and 16 (callgrind, instructions per move of 9×9 and 19×19 playouts; 8 cost 2.4% more on 9×9).
const QUICK_TRIES: usize = 4;

/// Playouts stop after this many moves per point of the board, a guard against the long
/// capture-and-refill sequences random play can produce (Ing's cycle bans guarantee termination,
/// but not quickly).
pub(crate) const MOVES_PER_POINT: usize = 3;

/// Whether playing `color` on the empty point `p` is suicide (single stone or block).
#[cfg(test)]
fn is_suicide(game: &Game, p: Point, color: Color) -> bool {
    game.board().analyze(p, color).suicide
}

/// Whether the playout policy considers `p` at all: not one's own eye and not suicide. Legality
/// under the ko rules is left to [`Game::play`] / [`Game::is_legal`].
#[inline]
pub(crate) fn is_candidate(game: &Game, p: Point, color: Color) -> bool {
    !game.board().is_eye_or_suicide(p, color)
}

/// Chooses uniformly among the empty points for which `accept` returns `true`, stopping at the
/// first one accepted; `accept` may change the game only when it accepts.
///
/// Uniform, not merely "random": a draw from all empty points, kept if accepted, is uniform over
/// the acceptable ones; after [`QUICK_TRIES`] rejections the rest is sampled without replacement
/// (swap-remove), which is uniform too, so the mixture is. (Scanning from a random start would
/// favour points that follow long runs of unacceptable ones, such as the point after an eye.)
pub(crate) fn pick(
    game: &mut Game,
    rng: &mut Rng,
    mut accept: impl FnMut(&mut Game, Point) -> bool,
) -> Option<Point> {
    let n = game.board().empty_count();
    if n == 0 {
        return None;
    }
    for _ in 0..QUICK_TRIES {
        let p = game.board().empty_point(rng.below(n as u32) as usize);
        if accept(game, p) {
            return Some(p);
        }
    }
    let first = game.board().empty_point(0);
    let mut cand = [first; MAX_SIZE * MAX_SIZE];
    for (i, slot) in cand.iter_mut().enumerate().take(n) {
        *slot = game.board().empty_point(i);
    }
    let mut m = n;
    while m > 0 {
        let i = rng.below(m as u32) as usize;
        let p = cand[i];
        if accept(game, p) {
            return Some(p);
        }
        m -= 1;
        cand[i] = cand[m];
    }
    None
}

/// Plays a random policy move for the player to move: a board play chosen uniformly among those
/// that are legal, fill no eye of the player's own and are not suicide. Returns the point played,
/// or `None` (game unchanged) when there is none.
pub(crate) fn play_random(game: &mut Game, rng: &mut Rng) -> Option<Point> {
    let color = game.to_move();
    pick(game, rng, |g, p| {
        is_candidate(g, p, color) && g.play(Move::Play(p)).is_ok()
    })
}

/// Like [`play_random`], but only chooses; the game is not changed.
pub(crate) fn choose_random(game: &Game, rng: &mut Rng) -> Option<Point> {
    let color = game.to_move();
    // `pick` wants a `&mut Game` so that playouts can test and play in one step; a chooser only
    // reads, so it works on a clone (one per move, not per playout step).
    let mut scratch = game.clone();
    pick(&mut scratch, rng, |g, p| {
        is_candidate(g, p, color) && g.is_legal(Move::Play(p))
    })
}

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
