//! A match killed with SIGKILL in the middle resumes where it stopped: every game exists
//! exactly once and the results count every game.
//!
//! The match to kill runs in a child process: this test binary itself, asked to run only
//! `resume_child`, which plays the match when `INGO_REFEREE_RESUME_DIR` is set (and does
//! nothing otherwise).

mod common;

use std::{
    collections::BTreeSet,
    fs,
    path::Path,
    process::Command,
    time::{Duration, Instant},
};

use ingo_referee::{run_match, GameRecord, MatchConfig, NoProgress};

const GAMES: u32 = 6;
const ENV: &str = "INGO_REFEREE_RESUME_DIR";

fn resume_config(dir: &Path) -> MatchConfig {
    let mut c = MatchConfig::new(
        common::fake("--seed 31 --max-moves 6 --delay 0.04"),
        common::fake("--seed 32 --max-moves 6 --delay 0.04"),
        dir,
    );
    c.size = 5;
    c.games = GAMES;
    c.parallel = 2;
    c.time = "ing-pp:1m".parse().expect("time control");
    c
}

fn finished(dir: &Path) -> Vec<u32> {
    (1..=GAMES)
        .filter(|i| dir.join(format!("game-{i:04}.sgf")).is_file())
        .collect()
}

/// The child: plays the match in the directory the parent names.
#[test]
fn resume_child() {
    let Some(dir) = std::env::var_os(ENV) else {
        return;
    };
    run_match(&resume_config(Path::new(&dir)), &mut NoProgress).expect("the match runs");
}

#[test]
fn a_match_killed_in_the_middle_resumes_without_losing_or_repeating_a_game() {
    let dir = common::out_dir("resume");
    let mut child = Command::new(std::env::current_exe().expect("the test binary"))
        .args(["resume_child", "--exact", "--nocapture", "--test-threads=1"])
        .env(ENV, &dir)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("start the child");
    let started = Instant::now();
    while finished(&dir).len() < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the child finished no games"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().expect("SIGKILL"); // std's kill is SIGKILL on Unix
    child.wait().expect("reap the child");
    let before = finished(&dir);
    assert!(
        (before.len() as u32) < GAMES,
        "the child finished every game before it was killed"
    );
    let records_before: Vec<GameRecord> = before
        .iter()
        .map(|i| {
            let bytes = fs::read(dir.join(format!("game-{i:04}.json"))).expect("sidecar");
            serde_json::from_slice(&bytes).expect("a record")
        })
        .collect();

    let summary = run_match(&resume_config(&dir), &mut NoProgress).expect("the match resumes");
    assert_eq!(finished(&dir), (1..=GAMES).collect::<Vec<_>>());
    assert_eq!((summary.finished, summary.counted), (GAMES, GAMES));
    let indices: BTreeSet<u32> = summary.games.iter().map(|g| g.index).collect();
    assert_eq!(indices, (1..=GAMES).collect());
    assert_eq!(summary.a.wins + summary.b.wins, GAMES);
    // Games finished before the kill were not played again.
    for r in &records_before {
        assert_eq!(summary.games.iter().find(|g| g.index == r.index), Some(r));
    }
    let results: serde_json::Value =
        serde_json::from_slice(&fs::read(dir.join("results.json")).expect("results"))
            .expect("JSON");
    assert_eq!(results["finished"], GAMES);
    // No temporary file is left behind.
    for entry in fs::read_dir(&dir).expect("list") {
        let name = entry.expect("entry").file_name();
        assert!(!name.to_string_lossy().starts_with(".tmp-"), "{name:?}");
    }
}
