//! Criterion benchmarks of the playout path: light random playouts from the empty board under
//! Ing's ko rules and under simple ko, on 9×9 and 19×19, and counting a final position.
//!
//! They live here rather than in `ingo-rules` because the light policy is the player's
//! ([`ingo_player::playout`]): benching a copy of it inside `ingo-rules` would measure a loop that
//! can drift from the one the search runs. Each benchmark first checks its result on a
//! fixed-seed batch (the same figures as `ingo-bench playouts --playouts 200 --seed 1`), so a
//! change that makes the engine decide differently fails here instead of showing as a speed-up.
//!
//! `cargo bench -p ingo-player --bench playouts`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use ingo_player::{playout, Rng};
use ingo_rules::{Color, Game, KoRule, Rules, Setup};

fn rules(ko: KoRule) -> Rules {
    Rules { ko, ..Rules::ing() }
}

/// Total moves and Black's wins of `n` playouts from the empty board, seed 1.
fn batch(size: usize, ko: KoRule, n: usize) -> (usize, usize) {
    let template = Game::new(Setup::empty(size).expect("size"), rules(ko));
    let mut rng = Rng::new(1);
    let (mut moves, mut wins) = (0, 0);
    let mut g = template.clone();
    for _ in 0..n {
        g.clone_from(&template);
        let score = playout(&mut g, &mut rng);
        moves += g.move_count();
        wins += usize::from(score.winner == Color::Black);
    }
    (moves, wins)
}

fn playouts(c: &mut Criterion) {
    // (size, total moves, Black's wins) of 200 playouts with seed 1; random play never reaches
    // a position where Ing's rules and simple ko part, so both give the same games.
    for (size, moves, wins) in [(9, 22_317, 81), (19, 90_701, 91)] {
        for (name, ko) in [("ing", KoRule::Ing), ("simple", KoRule::Simple)] {
            assert_eq!(
                batch(size, ko, 200),
                (moves, wins),
                "{size}x{size} {name}: the fixed-seed batch changed"
            );
            let template = Game::new(Setup::empty(size).expect("size"), rules(ko));
            let mut rng = Rng::new(1);
            let mut g = template.clone();
            c.bench_function(&format!("playout_{size}x{size}_{name}"), |b| {
                b.iter(|| {
                    // As the search does: the template copied into one reused game.
                    g.clone_from(&template);
                    black_box(playout(&mut g, &mut rng))
                });
            });
        }
    }
}

fn count(c: &mut Criterion) {
    // The final position of the first 19×19 playout of seed 1.
    let mut game = Game::new(Setup::empty(19).expect("size"), Rules::ing());
    let first = playout(&mut game, &mut Rng::new(1));
    let score = game.count(&[]);
    assert_eq!(
        (score.area, score.shared, score.margin_halves, score.winner),
        (first.area, first.shared, first.margin_halves, first.winner),
        "the playout's tally and the full count agree"
    );
    assert_eq!(
        score.area.black + score.area.white + score.shared,
        361,
        "every point counted once"
    );
    assert_eq!(
        (score.margin_halves, score.winner, game.move_count()),
        (COUNT_MARGIN_HALVES, COUNT_WINNER, COUNT_PLIES),
        "the counted position changed"
    );
    c.bench_function("count_19x19", |b| {
        b.iter(|| black_box(black_box(&game).count(&[])))
    });
    c.bench_function("tally_19x19", |b| {
        b.iter(|| black_box(black_box(&game).tally()))
    });
}

/// The count of that position: White ahead by 47 points after 452 moves.
const COUNT_MARGIN_HALVES: i32 = -94;
const COUNT_WINNER: Color = Color::White;
const COUNT_PLIES: usize = 452;

criterion_group!(benches, playouts, count);
criterion_main!(benches);
