//! `run_match_until`, in a test binary of its own: stopping a match shuts down every engine of
//! the process (`ingo_gtp::engine::shut_down_engines`) and refuses new ones, which would break
//! the other tests.

mod common;

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    thread,
    time::{Duration, Instant},
};

use ingo_referee::{run_match_until, NoProgress, RefereeError};

/// Whether `/proc` shows a live process (not a zombie) whose command line holds `needle`.
fn any_alive_with(needle: &str) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|entry| {
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let live = std::fs::read_to_string(entry.path().join("stat"))
            .ok()
            .and_then(|stat| {
                let (_, rest) = stat.rsplit_once(')')?;
                rest.split_whitespace()
                    .next()
                    .map(|s| !matches!(s, "Z" | "X"))
            })
            .unwrap_or(false);
        live && String::from_utf8_lossy(&cmdline).contains(needle)
    })
}

#[test]
fn an_interrupted_match_kills_its_engines_and_counts_no_unfinished_game() {
    let name = "interrupt";
    let dir = common::out_dir(name);
    let log = dir.join("black.log");
    // Both engines hang on their first genmove, for far longer than the test.
    let black = format!("--mode sleep --name {name}-black --log '{}'", log.display());
    let mut config = common::config(
        &black,
        &format!("--mode sleep --name {name}-white"),
        9,
        name,
    );
    config.games = 2;
    // A day: only the interruption can end the hang within the test.
    config.timeouts.untimed_move = Duration::from_secs(86_400);
    let stop = Arc::new(AtomicBool::new(false));
    // A thread of its own, not a scoped one: if the match never returned, a scope would wait
    // for it instead of failing the test.
    let running = {
        let (config, stop) = (config.clone(), Arc::clone(&stop));
        thread::spawn(move || run_match_until(&config, &mut NoProgress, &stop))
    };
    let asked = (0..6000).any(|_| {
        thread::sleep(Duration::from_millis(10));
        std::fs::read_to_string(&log).is_ok_and(|l| l.contains("genmove"))
    });
    assert!(asked, "Black was never asked for a move");
    // What a SIGTERM handler does: the flag first, then the engines.
    stop.store(true, Ordering::SeqCst);
    ingo_gtp::engine::shut_down_engines();
    // The match returns once its engines are gone; the bound only keeps a broken interruption
    // from hanging the test for the day of the move timeout.
    let bound = Instant::now() + Duration::from_secs(60);
    while !running.is_finished() {
        assert!(
            Instant::now() < bound,
            "the match did not return after it was stopped"
        );
        thread::sleep(Duration::from_millis(10));
    }
    let result = running.join().expect("the match thread");
    assert!(
        matches!(
            result,
            Err(RefereeError::Interrupted {
                finished: 0,
                planned: 2
            })
        ),
        "{result:?}"
    );
    #[cfg(target_os = "linux")]
    assert!(!any_alive_with(&format!("{name}-black")) && !any_alive_with(&format!("{name}-white")));
    // Nothing was written for the interrupted game: no record, no void attempt.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the output directory")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("game-"))
        .collect();
    assert!(names.is_empty(), "{names:?}");
}
