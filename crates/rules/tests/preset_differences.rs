//! Where real Ing and the approximation other programs call "ing" part ways.
//!
//! KataGo and OGS map `ing`/`goe` onto positional superko with block suicide and komi 7.5
//! (docs/rules.md §8; here `Preset::KataGoIng`). docs/rules.md §0 lists the shapes where that gives other verdicts
//! than Ing's ko rules: retaking after passes, eternal life, triple ko, double ko. Each test plays
//! the same moves under both and asserts the verdict of each, so the differences are documented
//! by tests that fail if either side changes.

use ingo_rules::{Board, Color, Game, Move, PlayErrorKind, Preset, Setup};

fn game(ascii: &str, to_move: Color, preset: Preset) -> Game {
    let board = Board::from_ascii(ascii).expect("valid diagram");
    Game::new(
        Setup {
            board,
            to_move,
            handicap_passes: 0,
        },
        preset.rules(),
    )
}

fn mv(g: &Game, s: &str) -> Move {
    let b = g.board();
    Move::from_gtp(s, b.width(), b.height()).expect("valid move")
}

fn play_all(g: &mut Game, moves: &[&str]) {
    for m in moves {
        let m = mv(g, m);
        g.play(m).unwrap_or_else(|e| panic!("{e}"));
    }
}

const T1: &str = "
  A B C D E
5 . X O . .
4 X O . O .
3 . X O . .
2 . . . . .
1 . . . . .";

#[test]
fn retake_after_passes_is_legal_under_ing_only() {
    // 隔虛提劫: "間隔各一虛手自然可以提劫". Under positional superko the retake recreates the
    // starting position and is refused.
    let mut ing = game(T1, Color::Black, Preset::Ing);
    let mut psk = game(T1, Color::Black, Preset::KataGoIng);
    for g in [&mut ing, &mut psk] {
        play_all(g, &["C4", "pass", "pass"]);
    }
    assert!(ing.is_legal(mv(&ing, "B4")));
    assert_eq!(
        psk.illegal_reason(mv(&psk, "B4")),
        Some(PlayErrorKind::Superko)
    );
}

const T11: &str = "
  A B C D E
5 . X . O X
4 O O X X X
3 O O X . X
2 O O X X X
1 . O X . X";

#[test]
fn eternal_life_blocks_different_players() {
    // Ing (雙熱子): after White captures two, Black may not take the two hot stones back at once.
    let mut ing = game(T11, Color::Black, Preset::Ing);
    play_all(&mut ing, &["A5", "C5"]);
    assert_eq!(
        ing.illegal_reason(mv(&ing, "B5")),
        Some(PlayErrorKind::DoubleHot)
    );
    // Superko lets Black retake and blocks White's throw-in that would close the cycle instead.
    let mut psk = game(T11, Color::Black, Preset::KataGoIng);
    play_all(&mut psk, &["A5", "C5", "B5"]);
    assert_eq!(
        psk.illegal_reason(mv(&psk, "D5")),
        Some(PlayErrorKind::Superko)
    );
}

const T10: &str = "
  A B C D
7 X O . O
6 X X O O
5 X X O O
4 X O . O
3 X X O O
2 X X O O
1 X . X O";

#[test]
fn triple_ko_is_a_fight_under_ing_and_a_cycle_under_superko() {
    // Ing (孿熱子): after Black's capture White may capture in none of the three kos.
    let mut ing = game(T10, Color::Black, Preset::Ing);
    play_all(&mut ing, &["C7"]);
    assert_eq!(
        ing.illegal_reason(mv(&ing, "B1")),
        Some(PlayErrorKind::TwinHot)
    );
    // Superko allows the capture in the other ko, and the six-ply cycle C7 B1 C4 B7 C1 B4 runs
    // until its last move recreates the start.
    let mut psk = game(T10, Color::Black, Preset::KataGoIng);
    play_all(&mut psk, &["C7", "B1", "C4", "B7", "C1"]);
    assert_eq!(
        psk.illegal_reason(mv(&psk, "B4")),
        Some(PlayErrorKind::Superko)
    );
}

#[test]
fn komi_eight_with_ties_to_black_against_komi_seven_and_a_half() {
    // T14: Black 16, White 8 with one shared point: D = 8, so Ing's komi 8 gives a tie that
    // Black wins (和棋黑勝), and komi 7.5 gives Black the win by half a point.
    let t14 = "
  A B C D E
5 X . O . O
4 X X O O .
3 . X X O O
2 . . X X X
1 . . . . .";
    let ing = game(t14, Color::Black, Preset::Ing).count(&[]);
    let psk = game(t14, Color::Black, Preset::KataGoIng).count(&[]);
    assert_eq!(ing.result_string(), "B+0");
    assert_eq!(psk.result_string(), "B+0.5");
}

#[test]
fn single_stone_suicide_is_refused_by_both_and_block_suicide_allowed_by_both() {
    let t3 = "
  A B C D
4 . O . .
3 O . . .
2 . . . .
1 . . . .";
    for preset in [Preset::Ing, Preset::KataGoIng] {
        let g = game(t3, Color::Black, preset);
        assert_eq!(
            g.illegal_reason(mv(&g, "A4")),
            Some(PlayErrorKind::Suicide),
            "{preset:?}"
        );
    }
    // Tromp-Taylor allows suicide, but a single stone's suicide leaves the position unchanged,
    // so positional superko refuses it there.
    let tt = game(t3, Color::Black, Preset::TrompTaylor);
    assert_eq!(
        tt.illegal_reason(mv(&tt, "A4")),
        Some(PlayErrorKind::Superko)
    );
    let t4 = "
  A B C D
4 O O . .
3 X O . .
2 . O . .
1 O . . .";
    for preset in [Preset::Ing, Preset::KataGoIng, Preset::TrompTaylor] {
        let g = game(t4, Color::Black, preset);
        assert!(g.is_legal(mv(&g, "A2")), "{preset:?}: block suicide");
    }
    let chinese = game(t4, Color::Black, Preset::Chinese);
    assert_eq!(
        chinese.illegal_reason(mv(&chinese, "A2")),
        Some(PlayErrorKind::Suicide)
    );
}
