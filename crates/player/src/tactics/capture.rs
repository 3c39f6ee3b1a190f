//! The moves of a small fight over a string, simplified from GNU Go's `attack` and `defend`
//! (engine/reading.c): liberties, nets, captures and ataris of the strings next to the target.

use ingo_rules::{Board, Move, Point};

use super::search::{captures_and_extensions, push_new, Scratch, NET_PLIES};

/// Empty neighbours of `p`.
fn room(board: &Board, p: Point) -> usize {
    board
        .neighbors(p)
        .filter(|&q| board.color_at(q).is_none())
        .count()
}

/// The nakade points: an empty point whose every neighbour is a liberty of the target is the
/// inside of an eye space (the centre of a cross or a rabbity six), which no liberty of the
/// target reaches: the attacker's stone there kills, the defender's makes the eyes.
fn nakade_points(board: &Board, libs: &[Point], out: &mut Vec<Move>) {
    for &l in libs {
        for q in board.neighbors(l) {
            if board.color_at(q).is_none()
                && !libs.contains(&q)
                && board.neighbors(q).all(|n| libs.contains(&n))
            {
                push_new(out, Move::Play(q));
            }
        }
    }
}

/// The attacker's moves against a target with `libs` (two or more, fewer than the escape
/// count): the target's liberties (first where the defender would gain most), its own strings
/// next to the target saved from atari (by extending on their liberty or capturing a string
/// that ataris them), the nakade points inside the target's eye space, and, with two
/// liberties and in the first [`NET_PLIES`] plies (`ply`), the empty points next to the
/// liberties, which is where nets (geta) and the moves that keep a string from extending are.
pub(super) fn attacker_moves(
    board: &Board,
    libs: &[Point],
    scratch: &mut Scratch,
    ply: usize,
    out: &mut Vec<Move>,
) {
    let mut sorted: [Option<Point>; 8] = [None; 8];
    for (slot, &l) in sorted.iter_mut().zip(libs) {
        *slot = Some(l);
    }
    let n = libs.len().min(8);
    sorted[..n].sort_by_key(|p| std::cmp::Reverse(p.map_or(0, |p| room(board, p))));
    for p in sorted[..n].iter().flatten() {
        push_new(out, Move::Play(*p));
    }
    for k in 0..scratch.heads.len() {
        let h = scratch.heads[k];
        if let Some(l) = board.atari_liberty(h) {
            push_new(out, Move::Play(l));
            scratch.capture_moves_next_to(board, h, out);
        }
    }
    nakade_points(board, libs, out);
    if libs.len() == 2 && ply < NET_PLIES {
        for &l in libs {
            for q in board.neighbors(l) {
                if board.color_at(q).is_none() {
                    push_new(out, Move::Play(q));
                }
            }
        }
    }
}

/// The defender's moves: the capture of an attacking string in atari next to the target, the
/// extensions on its liberties, the nakade points of its eye space, the atari of an attacking
/// string with two liberties next to it (on either liberty), with two liberties and in the
/// first [`NET_PLIES`] plies (`ply`) the empty points next to them (the hane that stops a
/// push along the edge, GNU Go's answer where the extension fails), and, at the start of a
/// reading, a pass last: a string that is safe as it stands needs no move.
pub(super) fn defender_moves(
    board: &Board,
    libs: &[Point],
    scratch: &Scratch,
    ply: usize,
    out: &mut Vec<Move>,
) {
    captures_and_extensions(board, libs, scratch, out);
    nakade_points(board, libs, out);
    for &h in &scratch.heads {
        let hl = board.liberties_upto(h, 3);
        if hl.len() == 2 {
            for &l in &hl {
                push_new(out, Move::Play(l));
            }
        }
    }
    if libs.len() == 2 && ply < NET_PLIES {
        for &l in libs {
            for q in board.neighbors(l) {
                if board.color_at(q).is_none() {
                    push_new(out, Move::Play(q));
                }
            }
        }
    }
    if ply == 0 && libs.len() >= 2 {
        push_new(out, Move::Pass);
    }
}
