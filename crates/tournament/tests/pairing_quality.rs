//! Swiss and McMahon pairing by minimum-cost matching (checked against brute force), McMahon
//! placement and handicaps, and the double knockout's rematches.

use std::collections::BTreeMap;

use ingo_rules::Color;
use ingo_tournament::pairing::{mcmahon_conditions, mcmahon_start};
use ingo_tournament::{
    Agreement, Event, FormatKind, Game, Outcome, PairingError, PairingOptions, WinBy,
};
use proptest::prelude::*;

fn agreement(format: &str, entrants: &[String], extra: &str) -> Agreement {
    Agreement::from_toml(&format!(
        "name = \"q\"\npurpose = \"q\"\neligibility = \"q\"\n\
         registration = {{ opens = \"2026-01-01\", closes = \"2026-01-02\" }}\n\
         format = {format}\n{extra}\nentrants = [{}]\n",
        entrants.join(", ")
    ))
    .expect("agreement")
}

/// Entrants P1…Pn, strongest first (P1 9d, P2 8d, …, then kyu).
fn ranked(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            let level = 8 - i as i32;
            let rank = if level >= 0 {
                format!("{}d", level + 1)
            } else {
                format!("{}k", -level)
            };
            format!("{{ name = \"P{}\", rank = \"{rank}\" }}", i + 1)
        })
        .collect()
}

fn pairs(games: &[Game]) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = games
        .iter()
        .filter_map(|g| {
            let w = g.white.clone()?;
            let b = g.black.clone();
            Some(if seed(&b) < seed(&w) { (b, w) } else { (w, b) })
        })
        .collect();
    v.sort_by_key(|(a, _)| seed(a));
    v
}

fn seed(name: &str) -> usize {
    name[1..].parse().expect("a name P<n>")
}

fn p(a: usize, b: usize) -> (String, String) {
    (format!("P{a}"), format!("P{b}"))
}

fn decide(g: &mut Game, winner: &str) {
    let winner = if g.black == winner {
        Color::Black
    } else {
        Color::White
    };
    g.result = Some(Outcome::Win {
        winner,
        by: WinBy::Resignation,
    });
}

/// Round 1 of a Swiss pairs the top half against the bottom half (split and slip), or the
/// top against the bottom (fold): the two strongest never meet in round 1.
#[test]
fn round_one_slips_or_folds_the_field() {
    let e = Event::new(agreement(
        r#"{ kind = "swiss", rounds = 3 }"#,
        &ranked(8),
        "",
    ));
    let r1 = e.pair_next().expect("round 1");
    assert_eq!(pairs(&r1), [p(1, 5), p(2, 6), p(3, 7), p(4, 8)]);
    let e = Event::new(agreement(
        r#"{ kind = "swiss", rounds = 3 }"#,
        &ranked(8),
        "pairing = { order = \"fold\" }",
    ));
    let r1 = e.pair_next().expect("round 1");
    assert_eq!(pairs(&r1), [p(1, 8), p(2, 7), p(3, 6), p(4, 5)]);
}

/// McMahon round 1: the start groups are paired within themselves, folded or slipped the
/// same way (P1–P4 start at the bar, 6d; P5–P8 below it, each a group of one, float to the
/// next).
#[test]
fn mcmahon_round_one_slips_within_the_bar_group() {
    let e = Event::new(agreement(
        r#"{ kind = "mcmahon", rounds = 3, bar = "6d", floor = "1k" }"#,
        &ranked(8),
        "",
    ));
    let r1 = e.pair_next().expect("round 1");
    assert_eq!(pairs(&r1), [p(1, 3), p(2, 4), p(5, 6), p(7, 8)]);
}

/// A small deterministic generator: the same simulated events every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// The score each player is grouped by, as the pairing groups them.
fn scores(e: &Event) -> BTreeMap<String, i32> {
    let f = &e.agreement.format;
    let mut s: BTreeMap<String, i32> = e
        .entrants
        .iter()
        .map(|x| {
            let start = if f.kind == FormatKind::McMahon {
                mcmahon_start(x.rank, f.bar, f.floor)
            } else {
                0
            };
            (x.name.clone(), start)
        })
        .collect();
    for g in &e.games {
        if g.is_bye() && g.result.is_none() {
            *s.entry(g.black.clone()).or_default() += e.agreement.scoring.bye_main as i32;
        } else if let Some((w, _)) = g.winner_loser() {
            *s.entry(w.to_owned()).or_default() += 1;
        }
    }
    s
}

/// Every perfect matching of `items` (pairs of indices), by brute force.
fn matchings(items: &[usize]) -> Vec<Vec<(usize, usize)>> {
    let Some((&first, rest)) = items.split_first() else {
        return vec![Vec::new()];
    };
    let mut out = Vec::new();
    for (k, &other) in rest.iter().enumerate() {
        let left: Vec<usize> = rest
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != k)
            .map(|(_, &x)| x)
            .collect();
        for mut m in matchings(&left) {
            m.push((first, other));
            out.push(m);
        }
    }
    out
}

/// What a round's pairing is judged by, weightiest first: forbidden pairs, rematches, second
/// byes, squared score differences (and twice the bye's squared height above the lowest
/// score), same-club pairs (when the agreement keeps clubs apart), players put three colours
/// apart, and the squared net colour of the player given the colour he has had more (the
/// smaller of the two players' balances when both lean the same way).
type Key = (u32, u32, u32, i64, u32, u32, i32);

struct Judge<'a> {
    e: &'a Event,
    names: Vec<String>,
    score: BTreeMap<String, i32>,
    met: BTreeMap<(String, String), u32>,
    balance: BTreeMap<String, i32>,
    byes: BTreeMap<String, u32>,
}

impl<'a> Judge<'a> {
    fn new(e: &'a Event) -> Judge<'a> {
        let mut met = BTreeMap::new();
        let mut balance = BTreeMap::new();
        let mut byes = BTreeMap::new();
        for g in &e.games {
            match g.white.clone() {
                None if g.result.is_none() => *byes.entry(g.black.clone()).or_default() += 1,
                None => {}
                Some(w) => {
                    *met.entry((g.black.clone(), w.clone())).or_default() += 1;
                    *met.entry((w.clone(), g.black.clone())).or_default() += 1;
                    if g.passes == 0 {
                        *balance.entry(g.black.clone()).or_default() += 1;
                        *balance.entry(w).or_default() -= 1;
                    }
                }
            }
        }
        Judge {
            e,
            names: e.active().iter().map(|x| x.name.clone()).collect(),
            score: scores(e),
            met,
            balance,
            byes,
        }
    }

    fn key(&self, pairs: &[(String, Option<String>)]) -> Key {
        let lowest = self.names.iter().map(|n| self.score[n]).min().unwrap_or(0);
        let club = |n: &str| {
            self.e
                .entrants
                .iter()
                .find(|x| x.name == n)
                .and_then(|x| x.club.clone())
        };
        let bal = |n: &str| self.balance.get(n).copied().unwrap_or(0);
        let mut k: Key = (0, 0, 0, 0, 0, 0, 0);
        for (a, b) in pairs {
            let Some(b) = b else {
                k.2 += self.byes.get(a).copied().unwrap_or(0);
                k.3 += 2 * i64::from(self.score[a] - lowest).pow(2);
                continue;
            };
            let forbidden = self
                .e
                .agreement
                .pairing
                .forbidden
                .iter()
                .any(|(x, y)| (x == a && y == b) || (x == b && y == a));
            k.0 += u32::from(forbidden);
            k.1 += self.met.get(&(a.clone(), b.clone())).copied().unwrap_or(0);
            k.3 += i64::from(self.score[a] - self.score[b]).pow(2);
            if self.e.agreement.pairing.avoid_same_club && club(a).is_some() && club(a) == club(b) {
                k.4 += 1;
            }
            let (x, y) = (bal(a), bal(b));
            if x.signum() == y.signum() {
                let m = x.abs().min(y.abs());
                k.5 += u32::from(m >= 2);
                k.6 += m * m;
            }
        }
        k
    }

    /// The least key of any pairing of the round, by brute force.
    fn least(&self) -> Key {
        let n = self.names.len();
        let items: Vec<usize> = (0..n + n % 2).collect();
        matchings(&items)
            .iter()
            .map(|m| {
                let pairs: Vec<(String, Option<String>)> = m
                    .iter()
                    .map(|&(i, j)| {
                        let (i, j) = (i.min(j), i.max(j));
                        (self.names[i].clone(), self.names.get(j).cloned())
                    })
                    .collect();
                self.key(&pairs)
            })
            .min()
            .expect("a matching")
    }
}

fn round_pairs(games: &[Game]) -> Vec<(String, Option<String>)> {
    games
        .iter()
        .map(|g| (g.black.clone(), g.white.clone()))
        .collect()
}

/// Plays seeded results for the games just paired: the stronger player wins more often.
fn play_round(e: &mut Event, first: usize, rng: &mut Lcg) {
    for i in first..e.games.len() {
        let Some(w) = e.games[i].white.clone() else {
            continue;
        };
        let level = |n: &str| {
            e.entrants
                .iter()
                .find(|x| x.name == n)
                .and_then(|x| x.rank)
                .map_or(0, ingo_tournament::rank_level)
        };
        let d = level(&e.games[i].black) - level(&w);
        let black_wins = rng.below(100) < (50 + 10 * d).clamp(10, 90) as u64;
        let winner = if black_wins {
            e.games[i].black.clone()
        } else {
            w
        };
        decide(&mut e.games[i], &winner);
    }
}

/// Round 3 of an 8-player Swiss, over 50 seeded events: no pairing across score groups when
/// a pairing without one exists (brute force), and the pairing is the least by every
/// criterion above score difference too.
#[test]
fn swiss_round_three_of_eight_stays_in_score_groups() {
    let mut crossed = 0;
    for s in 1..=50u64 {
        let mut rng = Lcg(s);
        let entrants: Vec<String> = (0..8)
            .map(|i| {
                let level = rng.below(16) as i32 - 9;
                let rank = if level < 0 {
                    format!("{}k", -level)
                } else {
                    format!("{}d", level + 1)
                };
                format!("{{ name = \"P{}\", rank = \"{rank}\" }}", i + 1)
            })
            .collect();
        let mut e = Event::new(agreement(
            r#"{ kind = "swiss", rounds = 3 }"#,
            &entrants,
            "",
        ));
        for _ in 0..2 {
            let first = e.games.len();
            let games = e.pair_next().expect("rounds 1 and 2 pair");
            e.games.extend(games);
            play_round(&mut e, first, &mut rng);
        }
        let judge = Judge::new(&e);
        let r3 = e.pair_next().expect("round 3 pairs");
        let score = scores(&e);
        let cross = r3
            .iter()
            .filter(|g| {
                g.white
                    .as_ref()
                    .is_some_and(|w| score[w] != score[&g.black])
            })
            .count();
        let least = judge.least();
        assert_eq!(
            judge.key(&round_pairs(&r3)),
            least,
            "seed {s}: round 3 is not the least pairing ({cross} across score groups)"
        );
        crossed += cross;
    }
    assert_eq!(crossed, 0, "pairings across score groups in round 3");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every round of small Swiss and McMahon events (up to 9 players, clubs, a forbidden
    /// pair) is a pairing whose key is the least of all pairings, found by brute force over
    /// every perfect matching; and the pairing refuses only when every pairing has a rematch
    /// or a forbidden pair.
    #[test]
    fn pairing_is_the_least_by_brute_force(
        n in 2usize..10,
        rounds in 1u32..7,
        mcmahon in any::<bool>(),
        fold in any::<bool>(),
        avoid_same_club in any::<bool>(),
        forbid in any::<bool>(),
        ranks in proptest::collection::vec(0i32..12, 9),
        clubs in proptest::collection::vec(0u8..3, 9),
        seed in any::<u64>(),
    ) {
        let entrants: Vec<String> = (0..n)
            .map(|i| {
                let level = ranks[i] - 6;
                let rank = if level < 0 { format!("{}k", -level) } else { format!("{}d", level + 1) };
                format!("{{ name = \"P{}\", rank = \"{rank}\", club = \"C{}\" }}", i + 1, clubs[i])
            })
            .collect();
        let kind = if mcmahon { "mcmahon" } else { "swiss" };
        let extra = if mcmahon { ", bar = \"3d\", floor = \"3k\"" } else { "" };
        let mut pairing = format!(
            "pairing = {{ order = \"{}\", avoid_same_club = {avoid_same_club}",
            if fold { "fold" } else { "slip" }
        );
        if forbid && n >= 2 {
            pairing.push_str(", forbidden = [[\"P1\", \"P2\"]]");
        }
        pairing.push_str(" }");
        let mut e = Event::new(agreement(&format!("{{ kind = \"{kind}\", rounds = {rounds}{extra} }}"), &entrants, &pairing));
        let mut rng = Lcg(seed);
        for round in 1..=rounds {
            let judge = Judge::new(&e);
            let least = judge.least();
            match e.pair_next() {
                Ok(games) => {
                    prop_assert_eq!(judge.key(&round_pairs(&games)), least, "round {}", round);
                    prop_assert_eq!((least.0, least.1), (0, 0));
                    let first = e.games.len();
                    e.games.extend(games);
                    play_round(&mut e, first, &mut rng);
                }
                Err(PairingError::NoPairing(r)) => {
                    prop_assert_eq!(r, round);
                    prop_assert!(least.0 + least.1 > 0, "round {} refused though {:?} pairs", round, least);
                    break;
                }
                Err(x) => prop_assert!(false, "round {}: {}", round, x),
            }
        }
    }
}

/// Same-club players are kept apart when the agreement asks and the scores allow.
#[test]
fn same_club_players_are_kept_apart_on_request() {
    let mut entrants = ranked(4);
    entrants[0] = entrants[0].replace(" }", ", club = \"Taipei\" }");
    entrants[2] = entrants[2].replace(" }", ", club = \"Taipei\" }");
    let format = r#"{ kind = "swiss", rounds = 3 }"#;
    let e = Event::new(agreement(format, &entrants, ""));
    assert_eq!(
        pairs(&e.pair_next().expect("r1")),
        [p(1, 3), p(2, 4)],
        "without the option, split and slip"
    );
    let e = Event::new(agreement(
        format,
        &entrants,
        "pairing = { avoid_same_club = true }",
    ));
    let r1 = pairs(&e.pair_next().expect("r1"));
    assert!(!r1.contains(&p(1, 3)), "P1 and P3 are of one club: {r1:?}");
}

/// Forbidden pairs (the agreement's, or one round's) are not paired; fixed pairs are; a
/// field that can only pair a forbidden pair is refused.
#[test]
fn forbidden_and_fixed_pairs() {
    let format = r#"{ kind = "swiss", rounds = 3 }"#;
    let e = Event::new(agreement(
        format,
        &ranked(8),
        "pairing = { forbidden = [[\"P1\", \"P5\"]] }",
    ));
    let r1 = pairs(&e.pair_next().expect("r1"));
    assert!(!r1.contains(&p(1, 5)), "{r1:?}");
    let options = PairingOptions {
        forbidden: vec![p(2, 6)],
        fixed: vec![p(1, 2)],
        ..PairingOptions::default()
    };
    let r1 = pairs(&e.pair_next_with(&options).expect("r1"));
    assert!(r1.contains(&p(1, 2)), "{r1:?}");
    assert!(!r1.contains(&p(2, 6)) && !r1.contains(&p(1, 5)), "{r1:?}");
    let bad = PairingOptions {
        fixed: vec![("P1".into(), "Nobody".into())],
        ..PairingOptions::default()
    };
    assert!(matches!(
        e.pair_next_with(&bad),
        Err(PairingError::Entrants(m)) if m.contains("Nobody")
    ));
    let two = Event::new(agreement(
        format,
        &ranked(2),
        "pairing = { forbidden = [[\"P1\", \"P2\"]] }",
    ));
    assert_eq!(two.pair_next(), Err(PairingError::NoPairing(1)));
}

/// A field that has run out of rematch-free pairings pairs with the fewest rematches when the
/// director asks.
#[test]
fn rematches_on_request() {
    let mut e = Event::new(agreement(
        r#"{ kind = "swiss", rounds = 3 }"#,
        &ranked(2),
        "",
    ));
    e.games = e.pair_next().expect("r1");
    decide(&mut e.games[0], "P1");
    assert_eq!(e.pair_next(), Err(PairingError::NoPairing(2)));
    let again = PairingOptions {
        allow_rematches: true,
        ..PairingOptions::default()
    };
    assert_eq!(pairs(&e.pair_next_with(&again).expect("r2")), [p(1, 2)]);
}

/// The agreement's pairing choices are checked like every other field.
#[test]
fn pairing_choices_are_checked() {
    let refuse = |format: &str, extra: &str| {
        Agreement::from_toml(&format!(
            "name = \"q\"\npurpose = \"q\"\neligibility = \"q\"\n\
             registration = {{ opens = \"2026-01-01\", closes = \"2026-01-02\" }}\n\
             format = {format}\n{extra}\n"
        ))
        .expect_err("refused")
        .field
    };
    let swiss = r#"{ kind = "swiss", rounds = 3 }"#;
    assert_eq!(
        refuse(swiss, "pairing = { order = \"zigzag\" }"),
        "pairing.order"
    );
    assert_eq!(
        refuse(swiss, "pairing = { forbidden = [[\"A\"]] }"),
        "pairing.forbidden[0]"
    );
    assert_eq!(
        refuse(r#"{ kind = "knockout" }"#, "pairing = { order = \"fold\" }"),
        "pairing"
    );
    assert_eq!(
        refuse(swiss, "handicap = { system = \"mcmahon\" }"),
        "handicap.system"
    );
    assert_eq!(
        refuse(swiss, "handicap = { system = \"even\", reduction = 1 }"),
        "handicap.reduction"
    );
}

/// Double elimination: P3 beat P7 in round 3; in round 4 P3 (the last unbeaten) joins the
/// once-beaten P1, P2 and P7. Folding the seed order would pair P3–P7 again straight away;
/// P3 meets P1 or P2 instead, and P7 the other.
#[test]
fn double_knockout_avoids_an_immediate_rematch() {
    let a = agreement(
        r#"{ kind = "double-knockout" }"#,
        &(1..=8)
            .map(|i| format!("{{ name = \"P{i}\" }}"))
            .collect::<Vec<_>>(),
        "",
    );
    let mut e = Event::new(a);
    let rounds: [&[(&str, &str)]; 3] = [
        &[("P1", "P8"), ("P7", "P2"), ("P3", "P6"), ("P4", "P5")],
        &[("P7", "P1"), ("P3", "P4"), ("P2", "P8"), ("P5", "P6")],
        &[("P3", "P7"), ("P1", "P5"), ("P2", "P4")],
    ];
    for (r, wins) in rounds.iter().enumerate() {
        let games = e.pair_next().expect("pairing");
        let first = e.games.len();
        e.games.extend(games);
        for &(w, l) in wins.iter() {
            let g = e.games[first..]
                .iter_mut()
                .find(|g| g.has(w) && g.has(l))
                .unwrap_or_else(|| panic!("{w}-{l} not paired in round {}", r + 1));
            decide(g, w);
        }
    }
    let r4 = pairs(&e.pair_next().expect("round 4"));
    assert!(!r4.contains(&p(3, 7)), "P3–P7 again in round 4: {r4:?}");
    assert_eq!(r4.len(), 2, "{r4:?}");
}

/// A McMahon event is placed by McMahon score, then SOS, SOSOS and SODOS on McMahon scores.
/// Bar 2d, floor 2k: starts A (3d) 3, B (1d) 2, C (1k) 1, D (2k) 0, E (2k) 0.
/// Round 1: B beats A, D beats C, E has the bye. Round 2: A beats C, D beats B, E the bye.
/// Main: A 1, B 1, C 0, D 2, E 2 (byes). McMahon: A 4, B 3, C 1, D 2, E 2.
/// SOS: A = B 3 + C 1 = 4; B = A 4 + D 2 = 6; C = D 2 + A 4 = 6; D = C 1 + B 3 = 4; E 0.
/// SOSOS: A = 6 + 6 = 12; B = 4 + 4 = 8; C = 4 + 4 = 8; D = 6 + 6 = 12; E 0.
/// SODOS: A = C 1; B = A 4; C 0; D = C 1 + B 3 = 4; E 0.
/// Places: A, B, D (2, SOS 4) before E (2, SOS 0), C. By wins D and E would lead.
#[test]
fn mcmahon_event_is_placed_by_mcmahon_score() {
    let entrants: Vec<String> = [
        ("A", "3d"),
        ("B", "1d"),
        ("C", "1k"),
        ("D", "2k"),
        ("E", "2k"),
    ]
    .iter()
    .map(|(n, r)| format!("{{ name = \"{n}\", rank = \"{r}\" }}"))
    .collect();
    let mut e = Event::new(agreement(
        r#"{ kind = "mcmahon", rounds = 2, bar = "2d", floor = "2k" }"#,
        &entrants,
        "",
    ));
    let komi = e.agreement.komi;
    for (round, wins) in [(1, [("B", "A"), ("D", "C")]), (2, [("A", "C"), ("D", "B")])] {
        for (board, (w, l)) in wins.iter().enumerate() {
            let mut g = Game::new(round, board as u32 + 1, w, Some(l), 0, komi);
            decide(&mut g, w);
            e.games.push(g);
        }
        e.games.push(Game::new(round, 3, "E", None, 0, komi));
    }
    let t = e.standings();
    let got: Vec<(&str, usize, u32, u32, u32, u32, u32)> = t
        .iter()
        .map(|s| {
            (
                s.player.as_str(),
                s.rank,
                s.main,
                s.mcmahon,
                s.sos,
                s.sosos,
                s.sodos,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("A", 1, 1, 4, 4, 12, 1),
            ("B", 2, 1, 3, 6, 8, 4),
            ("D", 3, 2, 2, 4, 12, 4),
            ("E", 4, 2, 2, 0, 0, 0),
            ("C", 5, 0, 1, 6, 8, 0),
        ]
    );
}

/// Handicap by McMahon score difference (`handicap.system = "mcmahon"`), bar 2d, floor 5k,
/// reduction 1: starts S (3d) 6, M (1d) 5, X (3k) 2, W (4k) 1. M against W: 5 − 1 − 1 = 3
/// 先, W Black, White passes twice, no komi; X against W: 2 − 1 − 1 = 0, even. S at the bar
/// plays even unless `even_at_bar = false`, then 6 − 1 − 1 = 4 先.
#[test]
fn mcmahon_handicap_by_score_difference() {
    let entrants: Vec<String> = [("S", "3d"), ("M", "1d"), ("X", "3k"), ("W", "4k")]
        .iter()
        .map(|(n, r)| format!("{{ name = \"{n}\", rank = \"{r}\" }}"))
        .collect();
    let format = r#"{ kind = "mcmahon", rounds = 3, bar = "2d", floor = "5k" }"#;
    let a = agreement(
        format,
        &entrants,
        "handicap = { system = \"mcmahon\", reduction = 1 }",
    );
    let e = Event::new(a.clone());
    let who = |n: &str| e.entrants.iter().find(|x| x.name == n).expect("entrant");
    let start = |n: &str| mcmahon_start(who(n).rank, a.format.bar, a.format.floor);
    assert_eq!(
        [start("S"), start("M"), start("X"), start("W")],
        [6, 5, 2, 1]
    );
    let c = |x: &str, y: &str, a: &Agreement| {
        let (b, w, passes, komi) = mcmahon_conditions(a, (who(x), start(x)), (who(y), start(y)));
        (b, w, passes, komi.to_string())
    };
    assert_eq!(c("M", "W", &a), ("W".into(), "M".into(), 2, "0".into()));
    assert_eq!(c("X", "W", &a), ("X".into(), "W".into(), 0, "8".into()));
    assert_eq!(c("S", "W", &a), ("S".into(), "W".into(), 0, "8".into()));
    let open = agreement(
        format,
        &entrants,
        "handicap = { system = \"mcmahon\", reduction = 1, even_at_bar = false }",
    );
    assert_eq!(c("S", "W", &open), ("W".into(), "S".into(), 3, "0".into()));
    // The pairing uses them: round 1 pairs S–M (at the bar: even) and X–W (even).
    let r1 = e.pair_next().expect("r1");
    assert!(r1.iter().all(|g| g.passes == 0), "{r1:?}");
}
