//! Pairing quality over simulated Swiss and McMahon events: pairings across score groups
//! against the fewest possible, colour imbalance, and the time to pair a round of 500 players.
//!
//! ```sh
//! cargo run --release -p ingo-tournament --example pairing_quality
//! ```
//!
//! Results are drawn from a fixed pseudo-random sequence (the stronger player wins more often),
//! so every run plays the same events. The fewest possible cross-group pairings of a round are
//! found by a minimum-cost perfect matching that counts only rematches (forbidden), the bye
//! (only to a player without one, in the lowest score group that has one) and pairings across
//! groups, over the same players and history. That minimum may pair a player across two
//! groups to spare a pairing in between; the pairing under test counts squared score
//! differences, so it floats through the group between instead (two pairings one point
//! apart, not one pairing two points apart), and the difference shows in the figures.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use ingo_rules::Color;
use ingo_tournament::{Agreement, Event, Game, Outcome, WinBy};

/// A small deterministic generator (a linear congruential one): the same events every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn rank_text(level: i32) -> String {
    if level < 0 {
        format!("{}k", -level)
    } else {
        format!("{}d", level + 1)
    }
}

fn event(kind: &str, n: usize, rounds: u32, seed: u64) -> Event {
    let mut rng = Lcg(seed);
    let entrants: Vec<String> = (0..n)
        .map(|i| {
            let level = rng.below(16) as i32 - 9; // 9k … 7d
            format!(
                "{{ name = \"P{}\", rank = \"{}\" }}",
                i + 1,
                rank_text(level)
            )
        })
        .collect();
    let extra = if kind == "mcmahon" {
        ", bar = \"3d\", floor = \"5k\""
    } else {
        ""
    };
    Event::new(
        Agreement::from_toml(&format!(
            "name = \"sim\"\npurpose = \"sim\"\neligibility = \"sim\"\n\
             registration = {{ opens = \"2026-01-01\", closes = \"2026-01-02\" }}\n\
             format = {{ kind = \"{kind}\", rounds = {rounds}{extra} }}\nentrants = [{}]\n",
            entrants.join(", ")
        ))
        .expect("the simulated agreement is valid"),
    )
}

fn level(e: &Event, name: &str) -> i32 {
    e.entrants
        .iter()
        .find(|x| x.name == name)
        .and_then(|x| x.rank)
        .map_or(-10, ingo_tournament::rank_level)
}

/// The score each player is grouped by when the next round is paired, as the pairing groups
/// them.
fn group_scores(e: &Event) -> BTreeMap<String, i32> {
    ingo_tournament::group_scores(&e.agreement, &e.entrants, &e.games)
}

/// The fewest pairings across score groups that a round can have without a rematch, with the
/// bye (if any) in the lowest score group that has a player without a bye.
fn fewest_cross(e: &Event, score: &BTreeMap<String, i32>, squared: bool) -> i64 {
    let names: Vec<&str> = e.active().iter().map(|x| x.name.as_str()).collect();
    let met: BTreeSet<(&str, &str)> = e
        .games
        .iter()
        .filter_map(|g| Some((g.black.as_str(), g.white.as_deref()?)))
        .flat_map(|(a, b)| [(a, b), (b, a)])
        .collect();
    let byes: BTreeSet<&str> = e
        .games
        .iter()
        .filter(|g| g.is_bye())
        .map(|g| g.black.as_str())
        .collect();
    // The bye goes to a player without one, in the lowest score group that has such a player.
    let bye_score = names
        .iter()
        .filter(|p| !byes.contains(*p))
        .map(|p| score[*p])
        .min();
    let n = names.len() + names.len() % 2;
    let big = 1_000_000i64;
    let mut cost = vec![0i64; n * n];
    for i in 0..n {
        for j in i + 1..n {
            cost[i * n + j] = if j >= names.len() {
                if byes.contains(names[i]) || Some(score[names[i]]) != bye_score {
                    big
                } else {
                    0
                }
            } else if met.contains(&(names[i], names[j])) {
                big
            } else {
                let d = i64::from(score[names[i]] - score[names[j]]);
                if squared {
                    d * d
                } else {
                    i64::from(d != 0)
                }
            };
        }
    }
    let mate = integer_blossom::min_weight_perfect_matching(&cost, n);
    (0..names.len())
        .filter(|&i| mate[i] > i && mate[i] < names.len())
        .map(|i| cost[i * n + mate[i]])
        .sum()
}

#[derive(Default)]
struct Tally {
    cross: usize,
    fewest: i64,
    squares: i64,
    least_squares: i64,
    games: usize,
    rounds: u32,
    stopped: u32,
    top_two_met_in_round_1: u32,
}

/// Plays `rounds` rounds (or until no pairing exists), counting the cross-group pairings of the
/// rounds in `measured`.
fn play(e: &mut Event, rounds: u32, seed: u64, measured: &dyn Fn(u32) -> bool, t: &mut Tally) {
    let mut rng = Lcg(seed ^ 0x9e37_79b9);
    for round in 1..=rounds {
        let score = group_scores(e);
        let games = match e.pair_next() {
            Ok(g) => g,
            Err(_) => {
                t.stopped += 1;
                break;
            }
        };
        if round == 1 {
            let mut seeds: Vec<&str> = e.active().iter().map(|x| x.name.as_str()).collect();
            seeds.sort_by_key(|n| (std::cmp::Reverse(score[*n]), std::cmp::Reverse(level(e, n))));
            if games
                .iter()
                .any(|g| g.has(seeds[0]) && seeds.get(1).is_some_and(|s| g.has(s)))
            {
                t.top_two_met_in_round_1 += 1;
            }
        }
        if measured(round) {
            let pairs: Vec<&Game> = games.iter().filter(|g| !g.is_bye()).collect();
            t.cross += pairs
                .iter()
                .filter(|g| {
                    g.white
                        .as_ref()
                        .is_some_and(|w| score[w] != score[&g.black])
                })
                .count();
            t.squares += pairs
                .iter()
                .filter_map(|g| Some(i64::from(score[g.white.as_ref()?] - score[&g.black]).pow(2)))
                .sum::<i64>();
            t.games += pairs.len();
            t.fewest += fewest_cross(e, &score, false);
            t.least_squares += fewest_cross(e, &score, true);
        }
        t.rounds += 1;
        let first = e.games.len();
        e.games.extend(games);
        for i in first..e.games.len() {
            let g = &e.games[i];
            let Some(w) = g.white.clone() else { continue };
            let d = level(e, &g.black) - level(e, &w);
            let p_black = (50 + 10 * d).clamp(10, 90) as u64;
            let winner = if rng.below(100) < p_black {
                Color::Black
            } else {
                Color::White
            };
            e.games[i].result = Some(Outcome::Win {
                winner,
                by: WinBy::Resignation,
            });
        }
    }
}

/// Net Blacks of each player over even games.
fn colour_imbalance(e: &Event) -> (i32, usize) {
    let mut bal: BTreeMap<&str, i32> = BTreeMap::new();
    for g in e.games.iter().filter(|g| g.passes == 0) {
        if let Some(w) = g.white.as_deref() {
            *bal.entry(&g.black).or_default() += 1;
            *bal.entry(w).or_default() -= 1;
        }
    }
    let max = bal.values().map(|b| b.abs()).max().unwrap_or(0);
    (max, bal.values().filter(|b| b.abs() >= 2).count())
}

fn report(
    name: &str,
    kind: &str,
    n: usize,
    rounds: u32,
    seeds: u64,
    measured: &dyn Fn(u32) -> bool,
) {
    let mut t = Tally::default();
    let (mut worst, mut at_two) = (0, 0);
    for seed in 1..=seeds {
        let mut e = event(kind, n, rounds, seed);
        play(&mut e, rounds, seed, measured, &mut t);
        let (m, c) = colour_imbalance(&e);
        worst = worst.max(m);
        at_two += c;
    }
    println!(
        "{name}: {seeds} events, {} rounds paired ({} stopped early); measured rounds: {} games, \
         {} across score groups (fewest possible {}), sum of squared score differences {} \
         (least possible {}); top two seeds met in round 1 in {} events; colour: worst \
         |net Blacks| {worst}, {at_two} players at 2 or more",
        t.rounds,
        t.stopped,
        t.games,
        t.cross,
        t.fewest,
        t.squares,
        t.least_squares,
        t.top_two_met_in_round_1
    );
}

fn main() {
    report("8-player Swiss, round 3", "swiss", 8, 3, 50, &|r| r == 3);
    report("150-player Swiss, rounds 2-7", "swiss", 150, 7, 5, &|r| {
        r > 1
    });
    report(
        "101-player McMahon, rounds 1-6",
        "mcmahon",
        101,
        6,
        5,
        &|_| true,
    );
    // Time per round at 500 players: each of 5 rounds of a Swiss.
    let mut e = event("swiss", 500, 5, 7);
    let mut rng = Lcg(99);
    let mut times = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let games = e.pair_next().expect("a 500-player round pairs");
        times.push(start.elapsed());
        let first = e.games.len();
        e.games.extend(games);
        for g in &mut e.games[first..] {
            if !g.is_bye() {
                let winner = if rng.below(2) == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                g.result = Some(Outcome::Win {
                    winner,
                    by: WinBy::Resignation,
                });
            }
        }
    }
    let ms: Vec<String> = times
        .iter()
        .map(|d| format!("{:.0} ms", d.as_secs_f64() * 1000.0))
        .collect();
    println!(
        "500-player Swiss, time to pair each of 5 rounds: {}",
        ms.join(", ")
    );
}
