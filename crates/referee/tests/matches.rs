//! Whole matches: colours, parallel games, results files, and refusing another configuration.

mod common;

use std::fs;

use common::config;
use ingo_referee::{run_match, EngineId, NoProgress, RefereeError};

#[test]
fn a_match_alternates_colours_in_parallel_and_writes_its_results() {
    let mut c = config(
        "--seed 21 --max-moves 5",
        "--seed 22 --max-moves 5",
        5,
        "match",
    );
    c.games = 4;
    c.parallel = 2;
    c.event = Some("test event".into());
    let s = run_match(&c, &mut NoProgress).expect("the match runs");
    assert_eq!((s.planned, s.finished, s.counted), (4, 4, 4));
    assert_eq!((s.a.as_black.games, s.a.as_white.games), (2, 2));
    assert_eq!(s.a.wins + s.b.wins, 4);
    assert_eq!(s.black_wins + s.white_wins, 4);
    let blacks: Vec<EngineId> = s.games.iter().map(|g| g.black).collect();
    assert_eq!(blacks, [EngineId::A, EngineId::B, EngineId::A, EngineId::B]);
    let [lo, hi] = s.a_win_rate_ci95.expect("an interval");
    let rate = s.a_win_rate.expect("a rate");
    assert!(lo <= rate && rate <= hi && lo >= 0.0 && hi <= 1.0);
    for i in 1..=4 {
        let sgf = fs::read_to_string(c.out_dir.join(format!("game-{i:04}.sgf"))).expect("SGF");
        assert!(sgf.contains("EV[test event]") && sgf.contains(&format!("RO[game {i} of 4]")));
        assert!(c.out_dir.join(format!("game-{i:04}.json")).is_file());
    }
    let json: serde_json::Value =
        serde_json::from_slice(&fs::read(c.out_dir.join("results.json")).expect("json"))
            .expect("valid JSON");
    assert_eq!(json["games"].as_array().map(Vec::len), Some(4));
    assert_eq!(json["counted"], 4);
    let tsv = fs::read_to_string(c.out_dir.join("results.tsv")).expect("tsv");
    assert_eq!(tsv.lines().count(), 5);
    let txt = fs::read_to_string(c.out_dir.join("results.txt")).expect("txt");
    assert!(txt.contains("95% confidence interval (Wilson)"), "{txt}");

    // Run again: everything is finished, nothing is played, the results are the same.
    let again = run_match(&c, &mut NoProgress).expect("resumes");
    assert_eq!(again.games, s.games);
}

#[test]
fn fixed_colours_keep_engine_a_black() {
    let mut c = config(
        "--seed 23 --max-moves 3",
        "--seed 24 --max-moves 3",
        5,
        "fixed",
    );
    c.games = 2;
    c.colors = ingo_referee::ColorPolicy::Fixed;
    let s = run_match(&c, &mut NoProgress).expect("the match runs");
    assert!(s.games.iter().all(|g| g.black == EngineId::A));
}

#[test]
fn nigiri_decides_the_first_game_then_colours_alternate() {
    // Seed 5: a handful of 9 stones, engine B guesses odd and takes Black in game 1.
    assert!(ingo_competition::nigiri(5).guesser_takes_black);
    let mut c = config(
        "--seed 27 --max-moves 3",
        "--seed 28 --max-moves 3",
        5,
        "nigiri",
    );
    c.games = 3;
    c.colors = ingo_referee::ColorPolicy::Nigiri(5);
    let s = run_match(&c, &mut NoProgress).expect("the match runs");
    let blacks: Vec<EngineId> = s.games.iter().map(|g| g.black).collect();
    assert_eq!(blacks, [EngineId::B, EngineId::A, EngineId::B]);
    // Another seed is another configuration: a resumed match keeps its colours.
    c.colors = ingo_referee::ColorPolicy::Nigiri(6);
    assert!(matches!(
        run_match(&c, &mut NoProgress),
        Err(RefereeError::ConfigMismatch { .. })
    ));
}

#[test]
fn another_configuration_is_refused_in_the_same_directory() {
    let mut c = config(
        "--seed 25 --max-moves 3",
        "--seed 26 --max-moves 3",
        5,
        "mismatch",
    );
    run_match(&c, &mut NoProgress).expect("the match runs");
    c.size = 7;
    let e = run_match(&c, &mut NoProgress).expect_err("refused");
    match e {
        RefereeError::ConfigMismatch {
            field, was, now, ..
        } => {
            assert_eq!(
                (field.as_str(), was.as_str(), now.as_str()),
                ("size", "5", "7")
            );
        }
        other => panic!("unexpected error {other}"),
    }
    // More games and more threads are fine: the match is extended.
    c.size = 5;
    c.games = 2;
    c.parallel = 2;
    let s = run_match(&c, &mut NoProgress).expect("extended");
    assert_eq!(s.finished, 2);
}

#[test]
fn a_missing_sidecar_is_rebuilt_from_the_sgf() {
    let mut c = config(
        "--seed 27 --max-moves 3",
        "--seed 28 --max-moves 3",
        5,
        "sidecar",
    );
    c.games = 2;
    let s = run_match(&c, &mut NoProgress).expect("the match runs");
    fs::remove_file(c.out_dir.join("game-0002.json")).expect("remove");
    let again = run_match(&c, &mut NoProgress).expect("resumes");
    assert_eq!(again.games[1].result, s.games[1].result);
    assert_eq!(again.games[1].winner, s.games[1].winner);
    assert_eq!(again.counted, 2);
}

#[test]
fn the_smallest_and_the_largest_boards() {
    for size in [2, 25] {
        let mut c = config(
            "--seed 29 --max-moves 5",
            "--seed 30 --max-moves 5",
            size,
            &format!("size{size}"),
        );
        c.games = 2;
        c.parallel = 2;
        let s = run_match(&c, &mut NoProgress).expect("the match runs");
        assert_eq!(s.counted, 2, "{size}: {:?}", s.games);
        let sgf = fs::read_to_string(c.out_dir.join("game-0001.sgf")).expect("SGF");
        assert!(sgf.contains(&format!("SZ[{size}]")));
    }
}
