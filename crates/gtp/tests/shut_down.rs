//! `shut_down_engines`, in a test binary of its own: it acts on every engine
//! of the process and refuses new ones, which would break the other tests.

use std::time::{Duration, Instant};

use ingo_gtp::engine::{shut_down_engines, EngineBuilder, EngineError};

fn hang_script() -> String {
    format!("{}/tests/engines/hang.sh", env!("CARGO_MANIFEST_DIR"))
}

/// Whether `/proc/<pid>` shows a live process (not a zombie).
#[cfg(target_os = "linux")]
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let (_, rest) = stat.rsplit_once(')')?;
            rest.split_whitespace()
                .next()
                .map(|s| !matches!(s, "Z" | "X"))
        })
        .unwrap_or(false)
}

#[cfg(not(target_os = "linux"))]
fn alive(_pid: u32) -> bool {
    false
}

/// A SIGTERM handler calls `shut_down_engines`: engines that hang (and so
/// would never see end of input) are killed, from another thread than the
/// one driving them, and no engine can be started afterwards.
#[test]
fn shut_down_kills_engines_of_every_thread_and_refuses_new_ones() {
    let mut engines: Vec<_> = (0..2)
        .map(|_| {
            EngineBuilder::new("sh")
                .arg(hang_script())
                .spawn()
                .expect("sh starts")
        })
        .collect();
    let pids: Vec<u32> = engines.iter().map(|e| e.pid()).collect();
    let mut first = engines.remove(0);
    // The first engine hangs in `genmove` on a thread of its own.
    let driver = std::thread::spawn(move || {
        first
            .send("name", &[], Duration::from_secs(30))
            .expect("answers");
        let started = Instant::now();
        let result = first.send("genmove", &["b"], Duration::from_secs(600));
        (result.map(|r| r.text), started.elapsed())
    });
    std::thread::sleep(Duration::from_millis(200));

    assert_eq!(shut_down_engines(), 2);
    let (result, waited) = driver.join().expect("the driving thread");
    assert!(
        matches!(result, Err(EngineError::Exited { .. })),
        "{result:?}"
    );
    assert!(waited < Duration::from_secs(30), "{waited:?}");
    let deadline = Instant::now() + Duration::from_secs(5);
    while pids.iter().any(|&pid| alive(pid)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    for pid in pids {
        assert!(!alive(pid), "engine {pid} survived the shut-down");
    }
    match EngineBuilder::new("sh").arg(hang_script()).spawn() {
        Err(e @ EngineError::Spawn { .. }) => {
            assert!(e.to_string().contains("shutting down"), "{e}");
        }
        other => panic!("expected a refused spawn, got {other:?}"),
    }
}
