//! The move patterns of `ingo_player::patterns`: the features on ASCII boards, the symmetry of
//! the 3×3 key (a property over random positions), the shipped weights, the weights file's
//! errors, and the trainer's determinism on a small set of real records.

use ingo_player::patterns::{
    self, legal_features, Extractor, Group, Patterns, PatternsErrorKind, Shape3x3, TrainConfig,
    TrainGame,
};
use ingo_rules::{Board, Color, Game, Move, Point, Rules, Setup};
use proptest::prelude::*;

fn game(ascii: &str, to_move: Color) -> Game {
    Game::new(
        Setup {
            board: Board::from_ascii(ascii).expect("diagram"),
            to_move,
            handicap_passes: 0,
        },
        Rules::ing(),
    )
}

fn pt(col: usize, row: usize) -> Point {
    Point::new(col, row).expect("point")
}

/// The level of `group` of the play at `p` by the player to move of `g`.
fn level(g: &Game, p: Point, group: Group) -> Option<u8> {
    let mut ex = Extractor::new();
    ex.prepare(g);
    ex.features(g.board(), Move::Play(p)).level(group)
}

#[test]
fn an_atari_escape_is_recognised_with_its_ladder() {
    // Black's D4 stone is in atari; extending to D3 gives it three liberties.
    let open = game(
        "
        . . . . . . .
        . . . . . . .
        . . . O . . .
        . . O X O . .
        . . . . . . .
        . . . . . . .
        . . . . . . .",
        Color::Black,
    );
    assert_eq!(
        level(&open, pt(3, 4), Group::Escape),
        Some(2),
        "escapes, safe"
    );
    assert_eq!(
        level(&open, pt(5, 5), Group::Escape),
        None,
        "elsewhere, nothing"
    );
    // White's C4 stone in atari runs to two liberties, and the ladder still captures it.
    let ladder = game(
        "
        . . . . . . .
        . . . . . . .
        . . X X . . .
        . X O . . . .
        . . X . . . .
        . . . . . . .
        . . . . . . .",
        Color::White,
    );
    assert_eq!(
        level(&ladder, pt(3, 3), Group::Escape),
        Some(3),
        "escapes into a ladder"
    );
    // Without ladder reading the same extension counts as safe.
    let mut ex = Extractor::new().with_ladders(false);
    ex.prepare(&ladder);
    let f = ex.features(ladder.board(), Move::Play(pt(3, 3)));
    assert_eq!(f.level(Group::Escape), Some(2));
}

#[test]
fn a_self_atari_is_recognised() {
    let g = game(
        "
        . O . . . .
        O . O . . .
        . . . . . .
        . . . . O .
        . . . O X O
        . . . . . .",
        Color::Black,
    );
    // B5 has one liberty left (B4) among three white stones: a one-stone self-atari.
    assert_eq!(level(&g, pt(1, 1), Group::SelfAtari), Some(0));
    // E1 extends Black's stone in atari to two liberties (D1, F1): no self-atari, an escape,
    // but on the edge, where the ladder captures it.
    assert_eq!(level(&g, pt(4, 5), Group::SelfAtari), None);
    assert_eq!(level(&g, pt(4, 5), Group::Escape), Some(3));
    // A point in the open is no self-atari.
    assert_eq!(level(&g, pt(3, 2), Group::SelfAtari), None);
    // Three stones left in atari (D4 their last liberty): the level of bigger strings.
    let big = game(
        "
        . O O O .
        O X X . O
        . O O . .
        . . . . .",
        Color::Black,
    );
    assert_eq!(level(&big, pt(3, 1), Group::SelfAtari), Some(1));
    // With D4 White's too, the play leaves no liberty: a block suicide, legal under Ing's
    // rules ("塊子自盡…不禁著"), its own level.
    let suicide = game(
        "
        . O O O .
        O X X . O
        . O O O .
        . . . . .",
        Color::Black,
    );
    assert!(suicide.is_legal(Move::Play(pt(3, 1))));
    assert_eq!(level(&suicide, pt(3, 1), Group::SelfAtari), Some(2));
}

#[test]
fn a_capture_is_recognised_with_its_size() {
    // White's four stones have one liberty, F3.
    let g = game(
        "
        . X X X X .
        X O O O O .
        . X X X X .
        . . . . . .",
        Color::Black,
    );
    assert_eq!(g.board().atari_liberty(pt(1, 1)), Some(pt(5, 1)));
    // Four stones (2 to 4), not saving a string of Black's, not the last move: kind 2, size 1.
    assert_eq!(level(&g, pt(5, 1), Group::Capture), Some(2 * 3 + 1));
    assert_eq!(level(&g, pt(5, 1), Group::SelfAtari), None);
    assert_eq!(level(&g, pt(0, 0), Group::Capture), None);
}

#[test]
fn symmetric_shapes_have_one_key_and_different_shapes_do_not() {
    let a = Board::from_ascii(
        "
        . X O
        . . O
        . . .",
    )
    .expect("diagram");
    // Turned a quarter (clockwise).
    let b = Board::from_ascii(
        "
        . . .
        . . X
        . O O",
    )
    .expect("diagram");
    // Mirrored, colours exchanged (then White to play).
    let c = Board::from_ascii(
        "
        X O .
        X . .
        . . .",
    )
    .expect("diagram");
    let centre = pt(1, 1);
    let k = Shape3x3::at(&a, centre, Color::Black);
    assert_eq!(k, Shape3x3::at(&b, centre, Color::Black));
    assert_eq!(k, Shape3x3::at(&c, centre, Color::White));
    // The same stones for the other player are another shape.
    assert_ne!(k, Shape3x3::at(&a, centre, Color::White));
    // So is one liberty fewer: a stone on the corner takes one from White's pair.
    let d = Board::from_ascii(
        "
        . X O
        . . O
        . . X",
    )
    .expect("diagram");
    assert_ne!(k, Shape3x3::at(&d, centre, Color::Black));
}

const SIZE: usize = 7;

/// A random game's board: `picks` choose among the empty points (an illegal choice is a pass).
fn random_board(picks: &[u16]) -> Board {
    let mut g = Game::new(
        Setup {
            board: Board::with_dims(SIZE, SIZE).expect("a square board"),
            to_move: Color::Black,
            handicap_passes: 0,
        },
        Rules::ing(),
    );
    for &k in picks {
        let n = g.board().empty_count();
        if g.end().is_some() || n == 0 {
            break;
        }
        let p = g.board().empty_point(usize::from(k) % n);
        if g.play(Move::Play(p)).is_err() && g.play(Move::Pass).is_err() {
            break;
        }
    }
    g.board().clone()
}

/// Symmetry `s` (0..8) of the square: a transpose, then mirrors of the columns and rows.
fn turn(p: Point, s: u8) -> Point {
    let (mut c, mut r) = (p.col(), p.row());
    if s & 1 != 0 {
        std::mem::swap(&mut c, &mut r);
    }
    if s & 2 != 0 {
        c = SIZE - 1 - c;
    }
    if s & 4 != 0 {
        r = SIZE - 1 - r;
    }
    pt(c, r)
}

/// `b` under symmetry `s`, with the colours exchanged when `swap`.
fn image(b: &Board, s: u8, swap: bool) -> Board {
    let mut out = Board::with_dims(SIZE, SIZE).expect("a square board");
    for p in b.points() {
        if let Some(c) = b.color_at(p) {
            out.set_stone(turn(p, s), if swap { c.opponent() } else { c });
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The 3×3 key (and the diamonds' hashes) of every point is the same on the 8 images of
    /// a position, and with the colours exchanged for the other player.
    #[test]
    fn the_3x3_key_is_invariant_under_the_symmetries(
        picks in proptest::collection::vec(any::<u16>(), 0..40),
        swap in any::<bool>(),
    ) {
        let b = random_board(&picks);
        for s in 0..8u8 {
            let t = image(&b, s, swap);
            for p in b.points() {
                for me in [Color::Black, Color::White] {
                    let them = if swap { me.opponent() } else { me };
                    prop_assert_eq!(
                        Shape3x3::at(&b, p, me),
                        Shape3x3::at(&t, turn(p, s), them),
                        "point {:?} symmetry {} swap {}", p, s, swap
                    );
                    prop_assert_eq!(
                        patterns::Diamonds::at(&b, p, me),
                        patterns::Diamonds::at(&t, turn(p, s), them)
                    );
                }
            }
        }
    }
}

#[test]
fn the_shipped_weights_parse_and_rank_the_capture_of_a_big_string_first() {
    let patterns = Patterns::builtin().expect("the shipped weights parse");
    assert!(patterns
        .notes()
        .iter()
        .any(|n| n.contains("ingo-bench patterns train")));
    let (shapes, r2, r3) = patterns.shape_counts();
    assert!(
        shapes > 1000 && r2 > 1000 && r3 > 1000,
        "{shapes} {r2} {r3}"
    );
    // White's five stones in atari ran out to K9, which leaves them one liberty still, K10:
    // Black captures the six there.
    let mut g = game(
        "
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . X . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . X . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . X X X X X X . . . . . . . . . .
        . . . X O O O O O . X . . . . . . . .
        . . . . X X X X X X . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . O . . . . . . . . . . . . O . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . .",
        Color::White,
    );
    assert_eq!(g.board().atari_liberty(pt(4, 9)), Some(pt(9, 9)));
    g.play(Move::Play(pt(9, 9))).expect("White runs");
    assert_eq!(g.board().atari_liberty(pt(4, 9)), Some(pt(9, 8)));
    let ranked = patterns.ranked(&g);
    assert_eq!(ranked[0].0, Move::Play(pt(9, 8)), "{:?}", &ranked[..5]);
}

#[test]
fn a_move_the_ko_rules_forbid_is_not_rated() {
    // Black has just taken the ko at C4 (T1 of docs/rules.md); White may not retake at B4 at
    // once, so the patterns do not rate it, though it would capture.
    let mut g = game(
        "
        . X O . .
        X O . O .
        . X O . .
        . . . . .
        . . . . .",
        Color::Black,
    );
    g.play(Move::Play(pt(2, 1))).expect("Black takes the ko");
    let retake = Move::Play(pt(1, 1));
    assert!(!g.is_legal(retake));
    let mut feats = Vec::new();
    legal_features(&g, &mut Extractor::new(), &mut feats);
    assert!(!feats.is_empty());
    assert!(feats.iter().all(|f| f.mv != retake));
    assert!(Patterns::builtin()
        .expect("weights")
        .ranked(&g)
        .iter()
        .all(|r| r.0 != retake));
}

#[test]
fn a_bad_weights_file_is_a_typed_error_with_its_line() {
    let kind = |text: &str| {
        Patterns::parse(text)
            .map(|_| ())
            .map_err(|e| (e.line, e.kind))
    };
    assert_eq!(kind(""), Err((1, PatternsErrorKind::Empty)));
    assert!(matches!(
        kind("# note\nother 2\n"),
        Err((2, PatternsErrorKind::Format(_)))
    ));
    let head = "# made by hand\ningo-patterns 1\n";
    assert!(matches!(
        kind(&format!("{head}capture 0\n")),
        Err((3, PatternsErrorKind::Fields(_)))
    ));
    assert!(matches!(
        kind(&format!("{head}ladder 0 1.0\n")),
        Err((3, PatternsErrorKind::UnknownFeature(_)))
    ));
    assert!(matches!(
        kind(&format!("{head}capture 9 1.0\n")),
        Err((3, PatternsErrorKind::Level { .. }))
    ));
    assert!(matches!(
        kind(&format!("{head}capture 1 -1\n")),
        Err((3, PatternsErrorKind::Gamma(_)))
    ));
    assert!(matches!(
        kind(&format!("{head}capture 1 inf\n")),
        Err((3, PatternsErrorKind::Gamma(_)))
    ));
    assert!(matches!(
        kind(&format!("{head}3x3 zz 1.0\n")),
        Err((3, PatternsErrorKind::Key(_)))
    ));
    assert!(matches!(
        kind(&format!("{head}3x3 1000000 1.0\n")),
        Err((3, PatternsErrorKind::Key(_)))
    ));
    assert!(matches!(
        kind(&format!("{head}d2 00ff 2.0\n\nd2 ff 3.0\n")),
        Err((5, PatternsErrorKind::Duplicate(_)))
    ));
    // A good file reads back to the same text.
    let good =
        format!("{head}capture 1 5.000e0\n3x3 000abc 2.500e-1\nd3 00000000000000ff 1.250e0\n");
    let p = Patterns::parse(&good).expect("parses");
    assert_eq!(p.gamma_of(Group::Capture, 1), 5.0);
    assert_eq!(p.gamma_3x3(0xabc), 0.25);
    assert_eq!(p.gamma_3x3(0xabd), 1.0);
    assert_eq!(Patterns::parse(&p.to_text()).expect("reads back"), p);
}

/// The records of the test data file, replayed under Ing's rules.
fn train_games() -> Vec<TrainGame> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/patterns_train.sgf");
    let records = ingo_sgf::parse_file(&path).expect("the test records read");
    assert_eq!(records.len(), 4);
    records
        .iter()
        .enumerate()
        .map(|(i, r)| TrainGame {
            name: format!("patterns_train.sgf#{}", i + 1),
            game: ingo_sgf::replay(r, Rules::ing(), ingo_sgf::ReplayMode::Strict)
                .expect("replays")
                .game,
        })
        .collect()
}

#[test]
fn training_is_deterministic_by_seed() {
    let games = train_games();
    let config = TrainConfig {
        seed: 7,
        held_out_percent: 50,
        sample: 0.5,
        min_shape: 1,
        min_diamond: 1,
        iterations: 3,
        threads: 2,
    };
    let a = patterns::train(&games, &config).expect("trains");
    let b = patterns::train(
        &games,
        &TrainConfig {
            threads: 1,
            ..config
        },
    )
    .expect("trains");
    assert_eq!(a.stats, b.stats);
    assert_eq!(a.patterns.to_text(), b.patterns.to_text());
    assert!(a.stats.positions > 50, "{:?}", a.stats);
    // MM raises the likelihood at every pass.
    let ll = &a.stats.log_likelihood;
    assert!(ll.windows(2).all(|w| w[1] >= w[0] - 1e-9), "{ll:?}");
    // Another seed samples other positions.
    let c = patterns::train(&games, &TrainConfig { seed: 8, ..config }).expect("trains");
    assert_ne!(a.stats, c.stats);
    // The held-out records are the ones the split names, and evaluation counts their moves.
    let e = patterns::evaluate(&a.patterns, &games, &config);
    let held: Vec<_> = games
        .iter()
        .filter(|g| patterns::held_out(&g.name, config.seed, config.held_out_percent))
        .collect();
    assert_eq!(e.records, held.len());
    assert!(
        !held.is_empty() && held.len() < games.len(),
        "{} held out",
        held.len()
    );
    assert_eq!(
        e.positions,
        held.iter().map(|g| g.game.move_count() as u64).sum::<u64>()
    );
    assert!(e.top[0] <= e.top[1] && e.top[1] <= e.top[2] && e.top[2] <= e.positions);
}

#[test]
fn the_player_with_priors_plays_on_the_empty_19x19_board() {
    // The pass has no AMAF statistics, so virtual AMAF wins given to it never faded and made
    // the player pass from the first move.
    let game = Game::new(Setup::empty(19).expect("size"), Rules::ing());
    let mut player = ingo_player::Player::new(ingo_player::Config {
        budget: ingo_player::Budget::playouts(1000),
        ..ingo_player::Config::default()
    })
    .expect("config");
    let d = player.genmove(&game, None);
    assert!(
        matches!(d.mv(), Some(Move::Play(_))),
        "{:?}",
        d.info.candidates
    );
}
