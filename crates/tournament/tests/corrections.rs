//! Corrections a director makes during an event: results changed or cleared on purpose (and
//! what depends on them worked out again: 罰停 and its forfeits), rounds taken back and paired
//! by hand, withdrawals and reinstatements, entrants edited or removed; a knockout whose
//! advanced player withdraws; results that no game can have.

use ingo_tournament::{
    Action, Agreement, Changed, CorrectionError, Entrant, Event, ForfeitReason, Outcome,
    PairingError, PairingOptions, ResultError,
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

fn board_of(e: &Event, round: u32, x: &str, y: &str) -> u32 {
    e.games
        .iter()
        .find(|g| g.round == round && g.has(x) && g.has(y))
        .unwrap_or_else(|| panic!("no game {x}-{y} in round {round}"))
        .board
}

fn r(s: &str) -> Outcome {
    s.parse().expect("result")
}

fn suspension_forfeits(e: &Event, name: &str) -> usize {
    e.games
        .iter()
        .filter(|g| {
            g.has(name) && g.result.and_then(Outcome::forfeit) == Some(ForfeitReason::Suspension)
        })
        .count()
}

/// The round robin of the hand-computed test: D absent in rounds 1 and 2 is suspended
/// (allowed_absences = 1), its games of rounds 4 and 5 are forfeit losses and its bye of round
/// 3 is cancelled. The director then finds that D was not absent in round 2 but lost on
/// time: correcting that result lifts the suspension, takes back the two forfeits and gives
/// the bye back, and each of those is reported as a change of the rules.
#[test]
fn correcting_the_absence_that_suspended_a_player_takes_back_its_forfeits() {
    let mut e = Event::new(agreement(
        r#"{ kind = "round-robin" }"#,
        &players(&["A", "B", "C", "D", "E"]),
        "penalties = { allowed_absences = 1 }",
    ));
    e.games = e.draw().expect("draw");
    let b = board_of(&e, 1, "C", "D");
    e.enter(1, b, r("B+F:absence")).expect("enter");
    let b2 = board_of(&e, 2, "A", "D");
    let caused = e.enter(2, b2, r("B+F:absence")).expect("enter");
    assert_eq!(e.suspended(), ["D"]);
    assert_eq!(suspension_forfeits(&e, "D"), 2);
    // Two forfeits and the cancelled bye of round 3.
    assert_eq!(caused.len(), 3, "{caused:?}");
    assert!(e.games.iter().filter(|g| g.has("D")).any(|g| g.automatic));

    // Entering a result over it is refused: a correction is made on purpose.
    assert_eq!(
        e.enter(2, b2, r("B+T")),
        Err(ResultError::HasResult {
            round: 2,
            board: b2,
            result: r("B+F:absence")
        })
    );
    let changed = e.change(2, b2, r("B+T")).expect("change");
    assert_eq!(
        changed[0],
        Changed {
            round: 2,
            board: b2,
            old: Some(r("B+F:absence")),
            new: Some(r("B+T"))
        }
    );
    assert!(e.suspended().is_empty());
    assert_eq!(
        suspension_forfeits(&e, "D"),
        0,
        "罰停's forfeits are taken back"
    );
    let bye = e
        .games
        .iter()
        .find(|g| g.round == 3 && g.is_bye())
        .expect("bye");
    assert_eq!(
        (bye.black.as_str(), bye.result),
        ("D", None),
        "the bye is back"
    );
    // The forfeits of rounds 4 and 5 and the bye: three changes of the rules, logged as such.
    let rules: Vec<&Changed> = changed[1..].iter().collect();
    assert_eq!(rules.len(), 3, "{changed:?}");
    assert!(rules.iter().all(|c| c.new.is_none()));
    assert_eq!(rules[0].log().action, Some(Action::Automatic));
    assert!(e.games.iter().all(|g| !g.automatic));

    // Absent again in round 4: suspended again, its round 5 game forfeited.
    let b4 = board_of(&e, 4, "D", "B");
    let black_is_d = e.game(4, b4).expect("game").black == "D";
    e.enter(
        4,
        b4,
        r(if black_is_d {
            "W+F:absence"
        } else {
            "B+F:absence"
        }),
    )
    .expect("enter");
    assert_eq!(e.suspended(), ["D"]);
    assert_eq!(suspension_forfeits(&e, "D"), 1);
    // Clearing that absence lifts it again; a forfeit the rules gave cannot be cleared alone.
    let b5 = board_of(&e, 5, "D", "E");
    assert!(matches!(
        e.clear(5, b5),
        Err(ResultError::Automatic { player, .. }) if player == "D"
    ));
    let cleared = e.clear(4, b4).expect("clear");
    assert_eq!(cleared[0].new, None);
    assert!(e.suspended().is_empty());
    assert_eq!(e.game(5, b5).expect("game").result, None);
    assert_eq!(
        e.clear(4, b4),
        Err(ResultError::NoResult {
            round: 4,
            board: b4
        })
    );
    assert_eq!(
        e.change(4, b4, r("B+R")),
        Err(ResultError::NoResult {
            round: 4,
            board: b4
        })
    );
}

fn swiss(n: usize, rounds: u32) -> Event {
    let names: Vec<String> = (1..=n).map(|i| format!("P{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut e = Event::new(agreement(
        &format!(r#"{{ kind = "swiss", rounds = {rounds} }}"#),
        &players(&refs),
        "",
    ));
    let g = e.pair_next().expect("round 1");
    e.games.extend(g);
    e
}

/// Only the latest round is taken back; one with entered results only on purpose (force),
/// the results going with it.
#[test]
fn the_latest_round_is_taken_back_and_paired_again() {
    let mut e = swiss(5, 3);
    let first = e.games.clone();
    assert_eq!(e.latest_round(), Some(1));
    let (removed, _) = e.unpair(1, false).expect("unpair");
    assert_eq!(removed, first);
    assert!(e.games.is_empty());
    e.games = e.pair_next().expect("again");
    assert_eq!(e.games, first, "the same pairing again");
    e.enter(1, 1, r("B+R")).expect("enter");
    assert_eq!(
        e.unpair(1, false),
        Err(CorrectionError::HasResults { round: 1, count: 1 })
    );
    e.enter(1, 2, r("W+3")).expect("enter");
    let r2 = e.pair_next().expect("round 2");
    e.games.extend(r2);
    assert_eq!(
        e.unpair(1, false),
        Err(CorrectionError::NotLatest {
            round: 1,
            latest: 2
        })
    );
    assert_eq!(e.unpair(2, false).expect("unpair 2").0.len(), 3);
    let (with_results, _) = e.unpair(1, true).expect("force");
    assert_eq!(
        with_results.iter().filter(|g| g.result.is_some()).count(),
        2
    );
    assert_eq!(e.unpair(1, false), Err(CorrectionError::NothingPaired));
}

/// A round robin's schedule is drawn whole and taken back whole.
#[test]
fn a_round_robin_schedule_is_taken_back_whole() {
    let mut e = Event::new(agreement(
        r#"{ kind = "round-robin" }"#,
        &players(&["A", "B", "C", "D"]),
        "",
    ));
    e.games = e.draw().expect("draw");
    assert_eq!(e.unpair(3, false), Err(CorrectionError::WholeSchedule(3)));
    // A late entrant is refused while the schedule stands, admitted once it is taken back.
    let err = e.add(Entrant::player("Late", None)).expect_err("drawn");
    assert!(err.contains("drawn already"), "{err}");
    assert_eq!(e.unpair(1, false).expect("unpair").0.len(), 6);
    e.add(Entrant::player("Late", None)).expect("add");
    assert_eq!(e.draw().expect("draw").len(), 15);
}

/// The director pairs a round by hand: colours swapped, opponents swapped, the bye chosen.
/// Each active entrant once, no withdrawn or unknown name, the bye only for an odd number.
#[test]
fn a_round_is_paired_by_hand_and_checked() {
    let mut e = swiss(5, 3);
    for b in 1..=2 {
        e.enter(1, b, r("B+R")).expect("enter");
    }
    let p = |b: &str, w: Option<&str>| (b.to_owned(), w.map(str::to_owned));
    let games = e
        .pair_manual(&[p("P2", Some("P1")), p("P5", Some("P3")), p("P4", None)])
        .expect("manual");
    let got: Vec<(u32, u32, &str, Option<&str>)> = games
        .iter()
        .map(|g| (g.round, g.board, g.black.as_str(), g.white.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            (2, 1, "P2", Some("P1")),
            (2, 2, "P5", Some("P3")),
            (2, 3, "P4", None)
        ]
    );
    let refuse = |e: &Event, pairs: &[(String, Option<String>)], want: &str| {
        let err = e.pair_manual(pairs).expect_err(want).to_string();
        assert!(err.contains(want), "{err} (wanted {want:?})");
    };
    refuse(
        &e,
        &[p("P2", Some("P1")), p("P5", Some("P2")), p("P4", None)],
        "\"P2\" is paired twice",
    );
    refuse(
        &e,
        &[p("P2", Some("P1")), p("P4", None)],
        "not paired: P3, P5",
    );
    refuse(
        &e,
        &[p("P2", Some("P1")), p("P5", Some("Zed")), p("P4", None)],
        "\"Zed\" is not an entrant",
    );
    refuse(
        &e,
        &[
            p("P2", Some("P1")),
            p("P5", None),
            p("P3", None),
            p("P4", None),
        ],
        "exactly one bye, not 3",
    );
    e.withdraw("P4").expect("withdraw");
    refuse(
        &e,
        &[p("P2", Some("P1")), p("P5", Some("P3")), p("P4", None)],
        "\"P4\" is withdrawn",
    );
    refuse(
        &e,
        &[p("P2", Some("P1")), p("P5", Some("P3")), p("P3", None)],
        "paired twice",
    );
    let four = e
        .pair_manual(&[p("P2", Some("P1")), p("P5", Some("P3"))])
        .expect("four players");
    assert_eq!(four.len(), 2);
    // A round still being played cannot be followed by another.
    e.games.extend(four);
    assert_eq!(
        e.pair_manual(&[p("P1", Some("P2")), p("P3", Some("P5"))]),
        Err(CorrectionError::Pairing(PairingError::RoundNotFinished(2)))
    );
}

/// In a handicap event the weaker takes Black even in a manual pairing.
#[test]
fn a_manual_handicap_game_keeps_the_weaker_on_black() {
    let e = Event::new(agreement(
        r#"{ kind = "swiss", rounds = 2 }"#,
        r#"{ name = "Strong", rank = "5d" }, { name = "Weak", rank = "1d" }"#,
        r#"handicap = { system = "ranks" }"#,
    ));
    let p = |b: &str, w: &str| (b.to_owned(), Some(w.to_owned()));
    let err = e.pair_manual(&[p("Strong", "Weak")]).expect_err("colours");
    assert!(
        err.to_string()
            .contains("the weaker, \"Weak\", takes Black"),
        "{err}"
    );
    let g = e.pair_manual(&[p("Weak", "Strong")]).expect("weaker Black");
    assert!(g[0].passes > 0 || g[0].komi != e.agreement.komi, "{g:?}");
}

/// Four players, three rounds: after two rounds P1 and P2 have each met two of the others
/// so that the third round has no pairing without a rematch. The pairing says so; with
/// rematches allowed it pairs with the fewest (one rematch would do only if... here every
/// perfect matching has exactly two).
#[test]
fn a_swiss_with_no_pairing_but_rematches_pairs_with_the_fewest_on_request() {
    let mut e = Event::new(agreement(
        r#"{ kind = "swiss", rounds = 4 }"#,
        &players(&["P1", "P2", "P3", "P4"]),
        "",
    ));
    let p = |b: &str, w: &str| (b.to_owned(), Some(w.to_owned()));
    for (round, pairs) in [
        (1, [p("P1", "P2"), p("P3", "P4")]),
        (2, [p("P1", "P3"), p("P2", "P4")]),
        (3, [p("P1", "P4"), p("P2", "P3")]),
    ] {
        let g = e.pair_manual(&pairs).expect("manual");
        e.games.extend(g);
        for b in 1..=2 {
            e.enter(round, b, r("B+R")).expect("enter");
        }
    }
    assert_eq!(e.pair_next(), Err(PairingError::NoPairing(4)));
    let options = PairingOptions {
        allow_rematches: true,
        ..PairingOptions::default()
    };
    let g = e.pair_next_with(&options).expect("with rematches");
    assert_eq!(g.len(), 2);
    let rematches: usize = g
        .iter()
        .map(|g| e.times_met(&g.black, g.white.as_deref().expect("game")))
        .sum();
    assert_eq!(rematches, 2, "each of the two games meets once before");
}

/// Entrants: a withdrawn player is reinstated; one suspended by absences is not; removal is
/// refused once the player has a game; an edit renames the player in the games too.
#[test]
fn entrants_are_reinstated_edited_and_removed() {
    let mut e = swiss(4, 3);
    assert_eq!(
        e.reinstate("P1"),
        Err(CorrectionError::NotWithdrawn("P1".into()))
    );
    e.withdraw("P1").expect("withdraw");
    assert_eq!(
        e.withdraw("P1"),
        Err(CorrectionError::Withdrawn("P1".into()))
    );
    assert!(e.active().iter().all(|a| a.name != "P1"));
    e.reinstate("P1").expect("reinstate");
    assert!(e.active().iter().any(|a| a.name == "P1"));
    assert_eq!(
        e.remove("P2"),
        Err(CorrectionError::HasGames {
            name: "P2".into(),
            games: 1
        })
    );
    e.add(Entrant::player("Late", None)).expect("late entrant");
    assert_eq!(e.remove("Late").expect("remove").name, "Late");
    assert_eq!(
        e.remove("Late"),
        Err(CorrectionError::NotEntrant("Late".into()))
    );
    let mut edited = e.entrants[1].clone();
    edited.name = "P2 Lee".into();
    edited.rank = Some("3d".parse().expect("rank"));
    e.edit("P2", edited).expect("edit");
    assert!(e.games.iter().any(|g| g.has("P2 Lee")));
    assert!(!e.games.iter().any(|g| g.has("P2")));
    let mut clash = e.entrants[0].clone();
    clash.name = "P3".into();
    assert!(matches!(
        e.edit("P1", clash),
        Err(CorrectionError::Edit { .. })
    ));

    // A player suspended by absences is not "reinstated": the absences decide.
    let mut rr = Event::new(agreement(
        r#"{ kind = "round-robin" }"#,
        &players(&["A", "B", "C"]),
        "penalties = { allowed_absences = 0 }",
    ));
    rr.games = rr.draw().expect("draw");
    let g = rr.games.iter().find(|g| !g.is_bye()).expect("game").clone();
    rr.enter(g.round, g.board, r("W+F:absence"))
        .expect("absent");
    assert_eq!(
        rr.reinstate(&g.black),
        Err(CorrectionError::Suspended(g.black.clone()))
    );
}

/// Single elimination, four players: P1 beats P4 and P2 beats P3, then P1 withdraws before
/// the final. The final is P2's walkover (a bye), and the event is then finished with P2
/// the winner.
#[test]
fn a_knockout_player_who_withdraws_after_advancing_gives_a_walkover() {
    let mut e = Event::new(agreement(
        r#"{ kind = "knockout" }"#,
        &players(&["P1", "P2", "P3", "P4"]),
        "",
    ));
    e.games = e.draw().expect("draw");
    for g in e.games.clone() {
        let winner_black = g.black == "P1" || g.black == "P2";
        e.enter(1, g.board, r(if winner_black { "B+R" } else { "W+R" }))
            .expect("enter");
    }
    e.withdraw("P1").expect("withdraw");
    let fin = e.pair_next().expect("final");
    assert_eq!(fin.len(), 1);
    assert_eq!(
        (fin[0].black.as_str(), fin[0].white.as_deref()),
        ("P2", None)
    );
    e.games.extend(fin);
    assert_eq!(e.pair_next(), Err(PairingError::Finished));
    assert_eq!(e.standings()[0].player, "P2");
}

/// Results that no game can have are refused, naming why: a tie given to White in an even
/// game (和棋黑勝), to Black in a handicap game, a margin beyond the board, half a point with
/// komi 8.
#[test]
fn impossible_results_are_refused() {
    let mut e = Event::new(agreement(
        r#"{ kind = "swiss", rounds = 2 }"#,
        r#"{ name = "A", rank = "3d" }, { name = "B", rank = "3d" }, { name = "C", rank = "5d" }, { name = "D", rank = "1d" }"#,
        r#"handicap = { system = "ranks" }"#,
    ));
    let p = |b: &str, w: &str| (b.to_owned(), Some(w.to_owned()));
    let g = e.pair_manual(&[p("A", "B"), p("D", "C")]).expect("pair");
    e.games.extend(g);
    let refused = |e: &mut Event, board: u32, s: &str, why: &str| match e.enter(1, board, r(s)) {
        Err(ResultError::Impossible { reason, .. }) => {
            assert!(reason.contains(why), "{s}: {reason}")
        }
        other => panic!("{s}: {other:?}"),
    };
    refused(&mut e, 1, "W+0", "a tie goes to Black");
    refused(&mut e, 1, "B+1000", "cannot exceed the 361 points");
    refused(&mut e, 1, "B+3.5", "a whole number");
    refused(&mut e, 2, "B+0", "a tie goes to White");
    e.enter(1, 1, r("B+0")).expect("a tie for Black");
    e.enter(1, 2, r("W+0")).expect("a handicap tie for White");
    // Byes have no result.
    let mut s = swiss(3, 2);
    assert_eq!(
        s.enter(1, 2, r("B+R")),
        Err(ResultError::Bye { round: 1, board: 2 })
    );
}

/// A player withdrawn before round 1 took no part: left out of the standings, the crosstable
/// and the EGF file; one withdrawn after playing stays in them.
#[test]
fn a_player_withdrawn_before_round_one_is_left_out_of_standings_and_exports() {
    let mut e = Event::new(agreement(
        r#"{ kind = "swiss", rounds = 2 }"#,
        &players(&["P1", "P2", "P3", "P4", "Gone"]),
        "",
    ));
    e.withdraw("Gone").expect("withdraw");
    let g = e.pair_next().expect("round 1");
    e.games.extend(g);
    e.enter(1, 1, r("B+R")).expect("enter");
    e.enter(1, 2, r("B+R")).expect("enter");
    e.withdraw("P4").expect("withdraw after playing");
    let names: Vec<String> = e.standings().into_iter().map(|s| s.player).collect();
    assert_eq!(names.len(), 4, "{names:?}");
    assert!(!names.iter().any(|n| n == "Gone") && names.iter().any(|n| n == "P4"));
    let ct = ingo_tournament::crosstable::Crosstable::new(&e);
    assert_eq!(ct.rows.len(), 4);
    let egf = ingo_tournament::export::egf_results(&e);
    assert!(!egf.contains("Gone") && egf.contains("P4"), "{egf}");
}

/// `explain` says why: the score groups, a float across them, the colour reason, the bye.
#[test]
fn a_pairing_is_explained() {
    let mut e = swiss(5, 3);
    e.enter(1, 1, r("B+R")).expect("enter");
    e.enter(1, 2, r("B+R")).expect("enter");
    let next = e.pair_next().expect("round 2");
    let lines = e.explain_pairing(&next);
    assert_eq!(lines.len(), 3, "{lines:?}");
    // Two winners, two losers and last round's bye (a point): groups 1 and 0.
    assert!(
        lines.iter().any(|l| l.contains("score group 1")),
        "{lines:?}"
    );
    assert!(lines[2].contains("has the bye: score 0"), "{lines:?}");
    assert!(
        lines
            .iter()
            .filter(|l| l.contains("across score groups 1 and 0"))
            .count()
            == 1,
        "{lines:?}"
    );
    assert!(lines[0].contains("[cost levels: rematch 0,"), "{lines:?}");
}

/// Kyu ranks below 9k are entered and placed: a McMahon floor at 20k tells 15k from 25k; the
/// default floor (級外) starts them all equal.
#[test]
fn kyu_ranks_down_to_30k_are_entered_and_placed() {
    use ingo_tournament::pairing::mcmahon_start;
    let e = Event::new(agreement(
        r#"{ kind = "mcmahon", rounds = 3, floor = "20k", bar = "1d" }"#,
        r#"{ name = "A", rank = "15k" }, { name = "B", rank = "25k" }, { name = "C", rank = "30k" }"#,
        "",
    ));
    let rank = |n: &str| e.entrants.iter().find(|x| x.name == n).and_then(|x| x.rank);
    let floor = e.agreement.format.floor;
    assert_eq!(mcmahon_start(rank("A"), None, floor), 5);
    assert_eq!(mcmahon_start(rank("B"), None, floor), 0);
    assert_eq!(
        mcmahon_start(rank("C"), None, None),
        mcmahon_start(rank("A"), None, None)
    );
}
