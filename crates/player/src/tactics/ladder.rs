//! The moves of a ladder: the attacker gives atari on one of the target's two liberties; the
//! defender captures a chasing string in atari or extends on its liberty. Ladder breakers and
//! the edge are not special cases: the defender's extension gains liberties at a breaker, and
//! runs out of them at the edge.

use ingo_rules::{Board, Move, Point};

use super::search::{captures_and_extensions, push_new, Scratch};

/// The attacker's moves with the target on two liberties (`libs`): the two ataris, first the
/// one on the liberty with more empty neighbours, where the defender would gain most.
pub(super) fn attacker_moves(board: &Board, libs: &[Point], out: &mut Vec<Move>) {
    let room = |p: Point| {
        board
            .neighbors(p)
            .filter(|&q| board.color_at(q).is_none())
            .count()
    };
    let mut order: [Option<Point>; 2] = [libs.first().copied(), libs.get(1).copied()];
    if let [Some(a), Some(b)] = order {
        if room(b) > room(a) {
            order = [Some(b), Some(a)];
        }
    }
    for p in order.into_iter().flatten() {
        push_new(out, Move::Play(p));
    }
}

/// The defender's moves: the capture of every chasing string in atari next to the target, then
/// the extensions on the target's liberties. With two liberties (only at the start of a
/// reading) the defender may also pass, and the attacker must then begin the ladder.
pub(super) fn defender_moves(
    board: &Board,
    libs: &[Point],
    scratch: &Scratch,
    first: bool,
    out: &mut Vec<Move>,
) {
    captures_and_extensions(board, libs, scratch, out);
    if first && libs.len() >= 2 {
        push_new(out, Move::Pass);
    }
}
