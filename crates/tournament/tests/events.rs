//! Hand-computed events, checked key by key. The expected figures were
//! worked out by hand from the rule text's definitions (article 5, 計分); each test's comment
//! shows the sums.

use ingo_rules::Color;
use ingo_tournament::{
    Agreement, Event, ForfeitReason, Outcome, PairingError, PairingOptions, Standing, WinBy,
};

fn agreement(format: &str, entrants: &str, extra: &str) -> Agreement {
    Agreement::from_toml(&format!(
        r#"
name = "Test cup"
purpose = "Tests"
eligibility = "Anyone"
registration = {{ opens = "2026-01-01", closes = "2026-01-31" }}
format = {format}
entrants = [{entrants}]
{extra}
"#
    ))
    .expect("agreement")
}

fn players(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("{{ name = \"{n}\" }}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Enters `result` for the game between `x` and `y` in `round` (whichever colours they have).
fn enter(e: &mut Event, round: u32, x: &str, y: &str, result: &str) {
    let g = e
        .games
        .iter()
        .find(|g| g.round == round && g.has(x) && g.has(y))
        .unwrap_or_else(|| panic!("no game {x}-{y} in round {round}"));
    let board = g.board;
    e.enter(round, board, result.parse().expect("result"))
        .expect("enter");
}

fn row<'a>(t: &'a [Standing], p: &str) -> &'a Standing {
    t.iter().find(|s| s.player == p).expect("player")
}

/// (rank, main, A1, A2, B1, B2, wins, losses)
fn check(t: &[Standing], p: &str, want: (usize, u32, u32, u32, u32, u32, u32, u32)) {
    let s = row(t, p);
    assert_eq!(
        (s.rank, s.main, s.a1, s.a2, s.b1, s.b2, s.wins, s.losses),
        want,
        "{p}: (rank, main, A1, A2, B1, B2, wins, losses)"
    );
}

/// Five players, round robin (Berger): a bye each round; D is absent twice and suspended
/// (allowed_absences = 1), so D's later games are forfeits and D's later bye is cancelled.
///
/// Schedule: R1 B-E, C-D, A bye; R2 A-D, B-C, E bye; R3 E-C, A-B, D bye; R4 D-B, E-A, C bye;
/// R5 C-A, D-E, B bye.
/// Results: C>D (D absent), B>E, A>D (D absent again: 罰停), C>B, E>C (time), A-B void,
/// B>D and E>D (suspension), A>E, C>A.
/// Main (bye = 1): A 3, B 3, C 4, D 0 (its R3 bye cancelled), E 3.
/// Main as others sum it (no bye points): A 2, B 2, C 3, D 0, E 2.
/// A1: A = D0+E2 = 2; B = E2+D0 = 2; C = D0+B2+A2 = 4; D 0; E = C3+D0 = 3.
/// A2: A = C3; B = C3; C = E2; D = C3+A2+B2+E2 = 9; E = B2+A2 = 4.
/// Aux (A1+A2): A 5, B 5, C 6, D 9, E 7.
/// B1: A = D9+E7 = 16; B = E7+D9 = 16; C = D9+B5+A5 = 19; D 0; E = C6+D9 = 15.
/// B2: A = C6; B = C6; C = E7; D = 6+5+5+7 = 23; E = B5+A5 = 10.
/// Ranks: C 1; E 2 (A1 3 > 2); A and B equal on every key share 3; D 5.
#[test]
fn round_robin_with_forfeits_a_bye_and_a_suspension() {
    let mut e = Event::new(agreement(
        r#"{ kind = "round-robin" }"#,
        &players(&["A", "B", "C", "D", "E"]),
        "penalties = { allowed_absences = 1 }",
    ));
    e.games = e.draw().expect("draw");
    assert_eq!(e.games.len(), 15);
    let byes: Vec<(u32, &str)> = e
        .games
        .iter()
        .filter(|g| g.is_bye())
        .map(|g| (g.round, g.black.as_str()))
        .collect();
    assert_eq!(byes, [(1, "A"), (2, "E"), (3, "D"), (4, "C"), (5, "B")]);
    enter(&mut e, 1, "C", "D", "B+F:absence");
    enter(&mut e, 1, "B", "E", "B+3");
    assert!(e.suspended().is_empty(), "one absence is allowed");
    enter(&mut e, 2, "A", "D", "B+F:缺席");
    assert_eq!(e.suspended(), ["D"]);
    // 罰停: D's remaining games are forfeit losses.
    for (round, other) in [(4, "B"), (5, "E")] {
        let g = e
            .games
            .iter()
            .find(|g| g.round == round && g.has("D") && g.has(other))
            .expect("game");
        assert_eq!(
            g.result.and_then(Outcome::forfeit),
            Some(ForfeitReason::Suspension)
        );
        assert_eq!(g.winner_loser().map(|(w, _)| w), Some(other));
    }
    enter(&mut e, 2, "B", "C", "W+R");
    enter(&mut e, 3, "E", "C", "B+T");
    enter(&mut e, 3, "A", "B", "void");
    enter(&mut e, 4, "E", "A", "W+5");
    enter(&mut e, 5, "C", "A", "B+2");
    assert!(e.games.iter().all(|g| g.is_done()));
    let t = e.standings();
    check(&t, "C", (1, 4, 4, 2, 19, 7, 3, 1));
    check(&t, "E", (2, 3, 3, 4, 15, 10, 2, 2));
    check(&t, "A", (3, 3, 2, 3, 16, 6, 2, 1));
    check(&t, "B", (3, 3, 2, 3, 16, 6, 2, 1));
    check(&t, "D", (5, 0, 0, 9, 0, 23, 0, 4));
    assert_eq!((row(&t, "A").voids, row(&t, "B").voids), (1, 1));
    assert_eq!(
        row(&t, "D").byes,
        0,
        "a suspended player's later bye is cancelled"
    );
    assert_eq!(row(&t, "D").forfeits, 4);
    assert_eq!(
        t.iter().map(|s| s.player.as_str()).collect::<Vec<_>>(),
        ["C", "E", "A", "B", "D"]
    );
}

/// Five players, single elimination: seeds 1–3 get byes (bracket of 8: 1-8, 4-5, 2-7, 3-6).
/// R1: P5>P4. R2: P1>P5; P2-P3 void, replayed in round 2: P3>P2. Final: P3>P1.
/// Main: P1 1+bye = 2, P2 0+1 = 1, P3 2+1 = 3, P4 0, P5 1. Summed without byes: 1, 0, 2, 0, 1.
/// A1: P1 = P5 1; P2 0; P3 = P2 0 + P1 1 = 1; P4 0; P5 = P4 0.
/// A2: P1 = P3 2; P2 = P3 2; P3 0; P4 = P5 1; P5 = P1 1.
/// Aux: P1 3, P2 2, P3 1, P4 1, P5 1.
/// B1: P1 = P5 1; P2 0; P3 = P2 2 + P1 3 = 5; P4 0; P5 = P4 1.
/// B2: P1 = P3 1; P2 = P3 1; P3 0; P4 = P5 1; P5 = P1 3.
/// Ranks: P3, P1, then P2 and P5 on 1 point, A1 equal (0), A2 2 > 1: P2, P5; P4.
#[test]
fn knockout_with_byes_and_a_replayed_void() {
    let mut e = Event::new(agreement(
        r#"{ kind = "knockout" }"#,
        &players(&["P1", "P2", "P3", "P4", "P5"]),
        "",
    ));
    let r1 = e.draw().expect("draw");
    let pairs: Vec<(&str, Option<&str>)> = r1
        .iter()
        .map(|g| (g.black.as_str(), g.white.as_deref()))
        .collect();
    assert_eq!(
        pairs,
        [("P1", None), ("P4", Some("P5")), ("P2", None), ("P3", None)]
    );
    e.games = r1;
    assert_eq!(e.pair_next(), Err(PairingError::RoundNotFinished(1)));
    enter(&mut e, 1, "P4", "P5", "W+R");
    let r2 = e.pair_next().expect("round 2");
    let pairs: Vec<(&str, Option<&str>)> = r2
        .iter()
        .map(|g| (g.black.as_str(), g.white.as_deref()))
        .collect();
    assert_eq!(pairs, [("P1", Some("P5")), ("P2", Some("P3"))]);
    e.games.extend(r2);
    enter(&mut e, 2, "P1", "P5", "B+4");
    enter(&mut e, 2, "P2", "P3", "void");
    let replay = e.pair_next().expect("replay");
    assert_eq!((replay.len(), replay[0].round, replay[0].board), (1, 2, 3));
    e.games.extend(replay);
    let board = e.games.last().expect("replay").board;
    let p3_black = e.games.last().expect("replay").black == "P3";
    e.enter(
        2,
        board,
        if p3_black { "B+R" } else { "W+R" }
            .parse()
            .expect("result"),
    )
    .expect("enter");
    let fin = e.pair_next().expect("final");
    assert_eq!(fin.len(), 1);
    assert!(fin[0].has("P1") && fin[0].has("P3"));
    e.games.extend(fin);
    let winner_is_black = e.games.last().expect("final").black == "P3";
    e.enter(
        3,
        1,
        if winner_is_black { "B+R" } else { "W+R" }
            .parse()
            .expect("r"),
    )
    .expect("enter");
    assert_eq!(e.pair_next(), Err(PairingError::Finished));
    let t = e.standings();
    check(&t, "P3", (1, 3, 1, 0, 5, 0, 2, 0));
    check(&t, "P1", (2, 2, 1, 2, 1, 1, 1, 1));
    check(&t, "P2", (3, 1, 0, 2, 0, 1, 0, 1));
    check(&t, "P5", (4, 1, 0, 1, 1, 3, 1, 1));
    check(&t, "P4", (5, 0, 0, 1, 0, 1, 0, 1));
}

/// Six players, three Swiss rounds paired by `pair_next`.
/// R1: P1>P2, P3>P4, P6>P5. R2: P1>P6, P3>P2, P4>P5. R3: P1>P3, P4>P6, P2>P5.
/// Main: P1 3, P2 1, P3 2, P4 2, P5 0, P6 1.
/// A1: P1 = 1+1+2 = 4; P2 = 0; P3 = 2+1 = 3; P4 = 0+1 = 1; P5 0; P6 = 0.
/// A2: P1 0; P2 = 3+2 = 5; P3 = 3; P4 = 2; P5 = 1+2+1 = 4; P6 = 3+2 = 5.
/// Aux: P1 4, P2 5, P3 6, P4 3, P5 4, P6 5.
/// B1: P1 = 5+5+6 = 16; P2 = 4; P3 = 3+5 = 8; P4 = 4+5 = 9; P5 0; P6 = 4.
/// B2: P1 0; P2 = 4+6 = 10; P3 = 4; P4 = 6; P5 = 5+3+5 = 13; P6 = 4+3 = 7.
/// P2 and P6 are equal on main (1), A1 (0), A2 (5) and B1 (4): B2 (10 > 7) puts P2 ahead.
#[test]
fn swiss_tie_on_main_score_broken_at_b2() {
    let mut e = Event::new(agreement(
        r#"{ kind = "swiss", rounds = 3 }"#,
        &players(&["P1", "P2", "P3", "P4", "P5", "P6"]),
        "",
    ));
    let rounds: [&[(&str, &str)]; 3] = [
        &[("P1", "P2"), ("P3", "P4"), ("P6", "P5")],
        &[("P1", "P6"), ("P3", "P2"), ("P4", "P5")],
        &[("P1", "P3"), ("P4", "P6"), ("P2", "P5")],
    ];
    for (r, wins) in rounds.iter().enumerate() {
        let round = r as u32 + 1;
        // The director fixes the pairs of the hand computation (the pairing of its own
        // would fold or slip the score groups, not pair neighbours).
        let fixed = PairingOptions {
            fixed: wins
                .iter()
                .map(|(w, l)| (w.to_string(), l.to_string()))
                .collect(),
            ..PairingOptions::default()
        };
        let games = e.pair_next_with(&fixed).expect("pairing");
        assert_eq!(games.len(), 3);
        for (w, l) in wins.iter() {
            let g = games
                .iter()
                .find(|g| g.has(w) && g.has(l))
                .unwrap_or_else(|| panic!("{w}-{l} not paired in round {round}"));
            assert_eq!(g.passes, 0);
        }
        e.games.extend(games);
        for (w, l) in wins.iter() {
            let g = e
                .games
                .iter()
                .find(|g| g.round == round && g.has(w) && g.has(l))
                .expect("game");
            let winner = if g.black == *w {
                Color::Black
            } else {
                Color::White
            };
            let board = g.board;
            e.enter(
                round,
                board,
                Outcome::Win {
                    winner,
                    by: WinBy::Resignation,
                },
            )
            .expect("enter");
        }
    }
    assert_eq!(e.pair_next(), Err(PairingError::Finished));
    let t = e.standings();
    check(&t, "P1", (1, 3, 4, 0, 16, 0, 3, 0));
    check(&t, "P3", (2, 2, 3, 3, 8, 4, 2, 1));
    check(&t, "P4", (3, 2, 1, 2, 9, 6, 2, 1));
    check(&t, "P2", (4, 1, 0, 5, 4, 10, 1, 2));
    check(&t, "P6", (5, 1, 0, 5, 4, 7, 1, 2));
    check(&t, "P5", (6, 0, 0, 4, 0, 13, 0, 3));
    // SOS for Swiss: P1's opponents P2 1 + P6 1 + P3 2.
    assert_eq!(row(&t, "P1").sos, 4);
}

/// B1/B2 configurable: with A1 only as the opponent's auxiliary score, P2's B2 = A1(P1) +
/// A1(P3) = 4 + 3 and P6's = A1(P1) + A1(P4) = 4 + 1.
#[test]
fn b_scores_can_use_a1_only() {
    let a = agreement(
        r#"{ kind = "swiss", rounds = 3 }"#,
        &players(&["P1", "P2", "P3", "P4", "P5", "P6"]),
        "scoring = { aux_for_b = \"A1\" }",
    );
    let w = |x: &str, l: &str, r: u32| {
        let mut g = ingo_tournament::Game::new(r, 1, x, Some(l), 0, a.komi);
        g.result = Some("B+R".parse().expect("r"));
        g
    };
    let games = vec![
        w("P1", "P2", 1),
        w("P3", "P4", 1),
        w("P6", "P5", 1),
        w("P1", "P6", 2),
        w("P3", "P2", 2),
        w("P4", "P5", 2),
        w("P1", "P3", 3),
        w("P4", "P6", 3),
        w("P2", "P5", 3),
    ];
    let names: Vec<String> = (1..=6).map(|i| format!("P{i}")).collect();
    let t = ingo_tournament::standings(&names, &games, &a.scoring);
    assert_eq!(row(&t, "P2").b2, 7);
    assert_eq!(row(&t, "P6").b2, 5);
}

/// 十局升降制 with the defaults (margin 4, grade 4 points = ½ 先): A wins four in a row, so
/// game 5 gives B half a 先: B takes Black with komi 4; two more wins by A make no change
/// (the lead restarts from zero), two more reach the margin again: one whole 先, komi 0.
#[test]
fn ten_game_match_steps_by_half_a_sente_at_a_lead_of_four() {
    let mut e = Event::new(agreement(
        r#"{ kind = "ten-game" }"#,
        &players(&["A", "B"]),
        "",
    ));
    let mut komis = Vec::new();
    for i in 0..10 {
        let g = e.pair_next().expect("next game").remove(0);
        komis.push((g.black.clone(), g.passes, g.komi.to_string()));
        let a_black = g.black == "A";
        // A wins the first 8 games; B the last two.
        let a_wins = i < 8;
        let r = if a_wins == a_black { "B+R" } else { "W+R" };
        let (round, board) = (g.round, g.board);
        e.games.push(g);
        e.enter(round, board, r.parse().expect("r")).expect("enter");
    }
    assert_eq!(e.pair_next(), Err(PairingError::Finished));
    let even = |b: &str| (b.to_owned(), 0u8, "8".to_owned());
    assert_eq!(komis[0..4], [even("A"), even("B"), even("A"), even("B")]);
    assert_eq!(komis[4], ("B".to_owned(), 0, "4".to_owned()));
    assert_eq!(komis[7], ("B".to_owned(), 0, "4".to_owned()));
    assert_eq!(komis[8], ("B".to_owned(), 0, "0".to_owned()));
    assert_eq!(komis[9], ("B".to_owned(), 0, "0".to_owned()));
    let t = e.standings();
    assert_eq!((t[0].player.as_str(), t[0].main, t[1].main), ("A", 8, 2));
}

/// 擂台制: team X (x1, x2) against team Y (y1, y2, y3). x1 beats y1 and y2, loses to y3; y3
/// beats x2: Y wins with y3 still on.
#[test]
fn leitai_winner_stays_on() {
    let mut e = Event::new(agreement(
        r#"{ kind = "leitai" }"#,
        r#"{ name = "X", kind = "team", members = [{ name = "x1" }, { name = "x2" }] },
           { name = "Y", kind = "team", members = [{ name = "y1" }, { name = "y2" }, { name = "y3" }] }"#,
        "",
    ));
    let winners = ["x1", "x1", "y3", "y3"];
    let expected = [("x1", "y1"), ("y2", "x1"), ("y3", "x1"), ("x2", "y3")];
    for (i, w) in winners.iter().enumerate() {
        let g = e.pair_next().expect("next").remove(0);
        assert_eq!(
            (g.black.as_str(), g.white.as_deref()),
            (expected[i].0, Some(expected[i].1)),
            "game {}",
            i + 1
        );
        let r = if g.black == *w { "B+R" } else { "W+R" };
        let (round, board) = (g.round, g.board);
        e.games.push(g);
        e.enter(round, board, r.parse().expect("r")).expect("enter");
    }
    assert_eq!(e.pair_next(), Err(PairingError::Finished));
    let teams: Vec<&ingo_tournament::Entrant> = e.entrants.iter().collect();
    assert_eq!(
        ingo_tournament::pairing::leitai_state([teams[0], teams[1]], &e.games).winner,
        Some(1)
    );
    let t = e.standings();
    // x1 and y3 both won twice; y3 beat x1 (2 points) and x2, x1 beat y1 and y2 (0 each).
    assert_eq!((t[0].player.as_str(), t[0].main, t[0].a1), ("y3", 2, 2));
    assert_eq!((t[1].player.as_str(), t[1].main, t[1].a1), ("x1", 2, 0));
}

/// Double elimination: four players; out after two losses.
#[test]
fn double_knockout_ends_with_one_player_under_two_losses() {
    let mut e = Event::new(agreement(
        r#"{ kind = "double-knockout" }"#,
        &players(&["S1", "S2", "S3", "S4"]),
        "",
    ));
    // The higher seed (listed first) always wins.
    let seed = |n: &str| n[1..].parse::<u32>().expect("seed");
    for _ in 0..20 {
        let games = match e.pair_next() {
            Ok(g) => g,
            Err(PairingError::Finished) => break,
            Err(x) => panic!("{x}"),
        };
        let round = games[0].round;
        e.games.extend(games);
        let todo: Vec<(u32, String, String)> = e
            .games
            .iter()
            .filter(|g| g.round == round && !g.is_done())
            .map(|g| (g.board, g.black.clone(), g.white.clone().expect("game")))
            .collect();
        for (board, b, w) in todo {
            let r = if seed(&b) < seed(&w) { "B+R" } else { "W+R" };
            e.enter(round, board, r.parse().expect("r")).expect("enter");
        }
    }
    assert_eq!(e.pair_next(), Err(PairingError::Finished));
    let t = e.standings();
    assert_eq!(t[0].player, "S1");
    assert_eq!(t[0].losses, 0);
    for s in &t[1..] {
        assert_eq!(s.losses, 2, "{} is out after two losses", s.player);
    }
}

/// 有差賽: in a handicap event the weaker player takes Black, with White's passes and the
/// compensation points of ingo-competition (docs/rules.md T16: 6段 against 3段 is 1 pass and komi 4).
#[test]
fn handicap_events_take_conditions_from_ranks() {
    let mut e = Event::new(agreement(
        r#"{ kind = "round-robin" }"#,
        r#"{ name = "Strong", rank = "6d" }, { name = "Weak", rank = "3d" }"#,
        "handicap = { system = \"ranks\" }",
    ));
    e.games = e.draw().expect("draw");
    let g = &e.games[0];
    assert_eq!(
        (
            g.black.as_str(),
            g.white.as_deref(),
            g.passes,
            g.komi.to_string().as_str()
        ),
        ("Weak", Some("Strong"), 1, "4")
    );
}

/// McMahon: the starting score is the rank clamped between floor and bar, so players above the
/// bar start equal; a suspended player is paired no more (罰停 stops the schedule).
#[test]
fn mcmahon_starts_from_the_bar_and_suspended_players_are_not_paired() {
    use ingo_competition::Rank;
    use ingo_tournament::pairing::mcmahon_start;
    let (bar, floor) = (Some(Rank::Dan(3)), Some(Rank::Kyu(5)));
    assert_eq!(
        mcmahon_start(Some(Rank::Dan(6)), bar, floor),
        mcmahon_start(Some(Rank::Dan(3)), bar, floor)
    );
    assert_eq!(mcmahon_start(Some(Rank::Dan(3)), bar, floor), 7); // 5k=−5 … 3d=2
    assert_eq!(mcmahon_start(Some(Rank::Kyu(9)), bar, floor), 0);
    assert_eq!(mcmahon_start(Some(Rank::Kyu(4)), bar, floor), 1);

    let mut e = Event::new(agreement(
        r#"{ kind = "mcmahon", rounds = 3, bar = "3d", floor = "5k" }"#,
        r#"{ name = "Hi", rank = "5d" }, { name = "Mid", rank = "1d" }, { name = "Lo", rank = "2k" }, { name = "Gone", rank = "1k" }"#,
        "penalties = { allowed_absences = 0 }",
    ));
    let r1 = e.pair_next().expect("round 1");
    // Scores: Hi 7, Mid 5, Gone 4, Lo 3: Hi-Mid and Gone-Lo.
    assert!(r1.iter().any(|g| g.has("Hi") && g.has("Mid")));
    assert!(r1.iter().any(|g| g.has("Gone") && g.has("Lo")));
    e.games = r1;
    let hi_black = e.games.iter().any(|g| g.black == "Hi");
    enter(&mut e, 1, "Hi", "Mid", if hi_black { "B+R" } else { "W+R" });
    let lo_black = e.games.iter().any(|g| g.black == "Lo");
    enter(
        &mut e,
        1,
        "Gone",
        "Lo",
        if lo_black {
            "B+F:absence"
        } else {
            "W+F:absence"
        },
    );
    assert_eq!(e.suspended(), ["Gone"]);
    let r2 = e.pair_next().expect("round 2");
    assert!(
        r2.iter().all(|g| !g.has("Gone")),
        "a suspended player is not paired"
    );
    assert!(
        r2.iter().any(|g| g.is_bye()),
        "three players left: one has the bye"
    );
}
