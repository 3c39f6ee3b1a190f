//! The light playout's move: uniform among the legal board plays that neither fill one's own
//! eye nor commit suicide. The heavy policy (`crate::heavy`) falls back to it, and
//! `crate::playout` runs either.

use ingo_rules::{Color, Game, Move, Point, MAX_SIZE};

use crate::rng::Rng;

/// Random draws tried before falling back to an exact scan. Early in a playout nearly every point
/// is acceptable, so one draw usually suffices; late in it most empty points are eyes, and the
/// exact fallback is cheaper than many rejected draws. Four measured best among 1, 2, 3, 4, 8
/// and 16 (callgrind, instructions per move of 9×9 and 19×19 playouts; 8 cost 2.4% more on 9×9).
const QUICK_TRIES: usize = 4;

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
