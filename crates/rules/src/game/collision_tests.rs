//! Issue 9 item 13: hash matches never decide a verdict alone, and a collision never hides a
//! real match. Each test forges a collision through the game's private tables (the way `apply`
//! would have filled them) and checks that the verdict follows the boards, not the hashes.

use super::*;
use crate::ko::{self, KoPair};

fn game(diagram: &str, to_move: Color, rules: Rules) -> Game {
    let board = Board::from_ascii(diagram).expect("a diagram");
    Game::new(
        Setup {
            board,
            to_move,
            handicap_passes: 0,
        },
        rules,
    )
}

fn mv(g: &Game, s: &str) -> Move {
    let b = g.board();
    Move::from_gtp(s, b.width(), b.height()).expect("a move")
}

trait PointIndex {
    fn point_index(self) -> u16;
}
impl PointIndex for Move {
    fn point_index(self) -> u16 {
        match self {
            Move::Play(p) => p.0,
            Move::Pass => panic!("a play"),
        }
    }
}

fn play_all(g: &mut Game, moves: &[&str]) {
    for m in moves {
        let m = mv(g, m);
        g.play(m).expect("legal");
    }
}

const T7: &str = "
  A B C D
5 X O . O
4 X X O O
3 X . O O
2 X X O O
1 X . X O";

#[test]
fn r5_refuses_on_the_exact_shape_not_on_a_key_match() {
    let setup_moves = ["C5", "B1", "pass", "B5", "C1", "pass"];
    let mut real = game(T7, Color::Black, Rules::ing());
    play_all(&mut real, &setup_moves);
    let c5 = mv(&real, "C5");
    assert_eq!(real.illegal_reason(c5), Some(PlayErrorKind::Disturbing));
    // A collision: the same keys, standing for another shape. With only the keys kept
    // (a set of u64), this refused C5.
    let mut forged = game(T7, Color::Black, Rules::ing());
    play_all(&mut forged, &setup_moves);
    let other = ko::local_shape(
        &forged.board,
        &[KoPair {
            x: mv(&forged, "B3").point_index(),
            y: mv(&forged, "A3").point_index(),
        }],
        Point(mv(&forged, "B3").point_index()),
        Color::White,
    );
    assert!(!forged.disturb_used.is_empty());
    for shapes in forged.disturb_used.values_mut() {
        *shapes = vec![other.clone()];
    }
    assert_eq!(forged.illegal_reason(c5), None);
}

const T18: &str = "
  A B C D E
6 . X . X X
5 O O X X X
4 O O X . X
3 . O X X X
2 O O X . X
1 . O X X X";

#[test]
fn r6_keeps_every_candidate_of_a_ban_key() {
    let moves = ["A6", "C6", "B6", "pass", "A6", "C6"];
    let mut real = game(T18, Color::Black, Rules::ing());
    play_all(&mut real, &moves);
    let b6 = mv(&real, "B6");
    assert_eq!(real.illegal_reason(b6), Some(PlayErrorKind::Cycle));
    // Each ban key already taken, before the cycle, by a candidate standing for another
    // situation (a ply of the other colour). Keeping one candidate per key, the real ban
    // was lost.
    let forged_bans: Vec<((u64, u16), u32)> = real
        .bans
        .iter()
        .map(|(&k, &t)| {
            (
                k,
                if real.hist[t as usize].color == Color::Black {
                    1
                } else {
                    0
                },
            )
        })
        .collect();
    let mut forged = game(T18, Color::Black, Rules::ing());
    play_all(&mut forged, &moves[..2]);
    forged.bans.extend(forged_bans.iter().copied());
    play_all(&mut forged, &moves[2..]);
    assert!(!forged.more_bans.is_empty());
    assert_eq!(forged.illegal_reason(b6), Some(PlayErrorKind::Cycle));
    // And the forged candidates alone ban nothing: the boards decide.
    let mut only_forged = real.clone();
    only_forged.bans.clear();
    only_forged.more_bans.clear();
    only_forged.bans.extend(forged_bans.iter().copied());
    assert_eq!(only_forged.illegal_reason(b6), None);
}

const T1: &str = "
  A B C D E
5 . X O . .
4 X O . O .
3 . X O . .
2 . . . . .
1 . . . . .";

#[test]
fn positional_superko_confirms_every_index_with_the_hash() {
    let rules = Rules {
        ko: KoRule::PositionalSuperko,
        ..Rules::ing()
    };
    let moves = ["E1", "E2", "C4"];
    let mut real = game(T1, Color::Black, rules);
    play_all(&mut real, &moves);
    let b4 = mv(&real, "B4");
    assert_eq!(real.illegal_reason(b4), Some(PlayErrorKind::Superko));
    // The position after E1 forged to hash like the one after E2 (which B4 recreates), so
    // that the first index with that hash holds another board. Confirming only the first
    // index, B4 was allowed.
    let mut probe = game(T1, Color::Black, rules);
    play_all(&mut probe, &moves[..2]);
    let h = probe.board.hash();
    let mut forged = game(T1, Color::Black, rules);
    play_all(&mut forged, &moves[..1]);
    forged.hist[0].pos_after = h;
    forged.pos_seen.insert(h);
    play_all(&mut forged, &moves[1..]);
    assert_eq!(forged.illegal_reason(b4), Some(PlayErrorKind::Superko));
}
