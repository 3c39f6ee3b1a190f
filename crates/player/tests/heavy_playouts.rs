//! Heavy playouts ([`PlayoutPolicy::Heavy`]): they save a string the last move put in atari,
//! never make a self-atari of three stones or more, and never play a move Ing's rules forbid,
//! nor block suicide (legal under Ing, but never the policy's choice).

use ingo_player::{playout_with, policy_move, PlayoutPolicy, Rng};
use ingo_rules::{Board, Color, Game, Move, Phase, Point, Rules, Setup};
use proptest::prelude::*;

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

fn pt(g: &Game, s: &str) -> Point {
    let b = g.board();
    Point::from_gtp(s, b.width(), b.height()).expect("vertex")
}

#[test]
fn a_string_put_in_atari_runs_out() {
    // White E5 has E4 and E6; Black takes E4, and White's only liberty is E6, where it gets
    // three (D6, F6, E7).
    let mut g = game(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . X O X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        Color::Black,
    );
    g.play(Move::Play(pt(&g, "E4"))).expect("legal");
    let e6 = pt(&g, "E6");
    for seed in 0..50 {
        let mv = policy_move(&g, &mut Rng::new(seed), PlayoutPolicy::Heavy);
        assert_eq!(mv, Some(e6), "seed {seed}");
    }
    // The light policy plays there about once in 76.
    let light = (0..50)
        .filter(|&s| policy_move(&g, &mut Rng::new(s), PlayoutPolicy::Light) == Some(e6))
        .count();
    assert!(light < 10, "{light}");
}

#[test]
fn a_string_in_atari_takes_the_stone_that_ataris_it() {
    // Black D5 puts White D4 in atari (C4 left), but D5 itself has only E5: White takes it
    // there, which saves D4, rather than running out at C4.
    let mut g = game(
        "
        . . . . . . .
        . . . O . . .
        . . O . . . .
        . . . O X . .
        . . . X . . .
        . . . . . . .
        . . . . . . .",
        Color::Black,
    );
    g.play(Move::Play(pt(&g, "D5"))).expect("legal");
    assert_eq!(g.board().atari_liberty(pt(&g, "D4")), Some(pt(&g, "C4")));
    assert_eq!(g.board().atari_liberty(pt(&g, "D5")), Some(pt(&g, "E5")));
    for seed in 0..30 {
        let mv = policy_move(&g, &mut Rng::new(seed), PlayoutPolicy::Heavy);
        assert_eq!(mv, Some(pt(&g, "E5")), "seed {seed}");
    }
}

#[test]
fn a_lost_cause_is_not_run_out_into_self_atari() {
    // Black A5 leaves White's three stones E5 alone; running out there leaves four stones on
    // F5 alone, a self-atari the policy never plays.
    let mut g = game(
        "
        . . . . . . .
        . X X X X . .
        . O O O . . X
        . X X X X . .
        . . . . . . .
        . . . . . . .
        . . . . . . .",
        Color::Black,
    );
    g.play(Move::Play(pt(&g, "A5"))).expect("legal");
    let e5 = pt(&g, "E5");
    assert_eq!(g.board().atari_liberty(pt(&g, "B5")), Some(e5));
    for seed in 0..100 {
        let mv = policy_move(&g, &mut Rng::new(seed), PlayoutPolicy::Heavy);
        assert_ne!(mv, Some(e5), "seed {seed}");
    }
}

/// A position after `n` light random moves from the empty `size × size` board.
fn random_position(size: usize, n: usize, seed: u64) -> Game {
    let mut g = Game::new(Setup::empty(size).expect("size"), Rules::ing());
    let mut rng = Rng::new(seed);
    for _ in 0..n {
        if g.phase() == Phase::Ended {
            break;
        }
        let mv = policy_move(&g, &mut rng, PlayoutPolicy::Light).map_or(Move::Pass, Move::Play);
        g.play(mv).expect("the light policy plays legal moves");
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Every move of heavy playouts from random positions: legal under Ing's rules (no
    /// single-stone suicide, no hot-stone retake, no cycle ban), not block suicide, and not a
    /// self-atari of three stones or more, checked on the board after it is played.
    #[test]
    fn heavy_moves_are_legal_and_make_no_big_self_atari(
        size in prop::sample::select(vec![7usize, 9, 13]),
        n in 0usize..250,
        seed in any::<u64>(),
    ) {
        let mut g = random_position(size, n, seed);
        let mut rng = Rng::new(seed ^ 0x5EED);
        for _ in 0..40 {
            if g.phase() == Phase::Ended {
                break;
            }
            let me = g.to_move();
            let Some(p) = policy_move(&g, &mut rng, PlayoutPolicy::Heavy) else {
                g.play(Move::Pass).expect("a pass is legal");
                continue;
            };
            prop_assert!(g.is_legal(Move::Play(p)), "{:?} forbidden: {:?}\n{}", p, g.illegal_reason(Move::Play(p)), g.board().to_ascii());
            let before = g.board().stone_count(me.opponent());
            let a = g.board().analyze(p, me);
            prop_assert!(!a.suicide, "{:?} is suicide\n{}", p, g.board().to_ascii());
            let mut after = g.clone();
            after.play(Move::Play(p)).expect("legal");
            let captured = after.board().stone_count(me.opponent()) < before;
            let b = after.board();
            if !captured && b.liberty_count(p) == 1 {
                prop_assert!(
                    b.string_size(p) < 3,
                    "{:?} leaves {} stones in atari\n{}",
                    p,
                    b.string_size(p),
                    g.board().to_ascii()
                );
            }
            g = after;
        }
    }
}

#[test]
fn heavy_playouts_count_the_whole_board() {
    for size in [9, 19] {
        let mut g = Game::new(Setup::empty(size).expect("size"), Rules::ing());
        let t = playout_with(&mut g, &mut Rng::new(3), PlayoutPolicy::Heavy);
        assert_eq!(t.area.black + t.area.white + t.shared, size * size);
        assert_eq!(g.count(&[]).margin_halves, t.margin_halves);
    }
}
