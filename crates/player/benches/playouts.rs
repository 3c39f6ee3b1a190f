//! Criterion benchmarks of the playout path: light random playouts from the empty board under
//! Ing's ko rules and under simple ko, on 9×9 and 19×19, heavy playouts
//! ([`PlayoutPolicy::Heavy`]) beside them under Ing's rules, and counting a final position.
//! Before criterion runs, one pass of 200 playouts of each policy and size prints the playouts a
//! second and the heavy/light ratio measured in the same run.
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
use std::time::Instant;

use ingo_player::{playout, playout_with, PlayoutPolicy, Rng};
use ingo_rules::{Color, Game, KoRule, Rules, Setup};

fn rules(ko: KoRule) -> Rules {
    Rules { ko, ..Rules::ing() }
}

/// Total moves and Black's wins of `n` playouts from the empty board, seed 1.
fn batch(size: usize, ko: KoRule, n: usize) -> (usize, usize) {
    batch_with(size, ko, n, PlayoutPolicy::Light)
}

/// [`batch`] with the playouts of `policy`.
fn batch_with(size: usize, ko: KoRule, n: usize, policy: PlayoutPolicy) -> (usize, usize) {
    let template = Game::new(Setup::empty(size).expect("size"), rules(ko));
    let mut rng = Rng::new(1);
    let (mut moves, mut wins) = (0, 0);
    let mut g = template.clone();
    for _ in 0..n {
        g.clone_from(&template);
        let score = playout_with(&mut g, &mut rng, policy);
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

/// (size, total moves, Black's wins) of 200 heavy playouts with seed 1 under Ing's rules.
const HEAVY_BATCHES: [(usize, usize, usize); 2] = [
    (9, HEAVY_9_MOVES, HEAVY_9_WINS),
    (19, HEAVY_19_MOVES, HEAVY_19_WINS),
];
const HEAVY_9_MOVES: usize = 21_908;
const HEAVY_9_WINS: usize = 74;
const HEAVY_19_MOVES: usize = 91_553;
const HEAVY_19_WINS: usize = 109;

fn heavy(c: &mut Criterion) {
    for (size, moves, wins) in HEAVY_BATCHES {
        assert_eq!(
            batch_with(size, KoRule::Ing, 200, PlayoutPolicy::Heavy),
            (moves, wins),
            "{size}x{size} heavy: the fixed-seed batch changed"
        );
    }
    // The ratio in one run: 200 playouts of each policy, one after the other, on each size.
    for size in [9, 19] {
        let rate = |policy| {
            let start = Instant::now();
            black_box(batch_with(size, KoRule::Ing, 200, policy));
            200.0 / start.elapsed().as_secs_f64()
        };
        let (light, heavy) = (rate(PlayoutPolicy::Light), rate(PlayoutPolicy::Heavy));
        println!(
            "{size}x{size}: light {light:.0} playouts/s, heavy {heavy:.0} playouts/s, heavy/light {:.3}",
            heavy / light
        );
    }
    for size in [9, 19] {
        let template = Game::new(Setup::empty(size).expect("size"), Rules::ing());
        let mut rng = Rng::new(1);
        let mut g = template.clone();
        c.bench_function(&format!("heavy_playout_{size}x{size}_ing"), |b| {
            b.iter(|| {
                g.clone_from(&template);
                black_box(playout_with(&mut g, &mut rng, PlayoutPolicy::Heavy))
            });
        });
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

criterion_group!(benches, playouts, heavy, count);
criterion_main!(benches);
