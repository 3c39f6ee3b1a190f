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
    // The first engine writes each command it hangs on to this file.
    let marker = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("shut_down_marker_{}", std::process::id()));
    let _ = std::fs::remove_file(&marker);
    let mut engines: Vec<_> = (0..2)
        .map(|i| {
            let builder = EngineBuilder::new("sh").arg(hang_script());
            let builder = if i == 0 {
                builder.arg(marker.display().to_string())
            } else {
                builder
            };
            builder.spawn().expect("sh starts")
        })
        .collect();
    let pids: Vec<u32> = engines.iter().map(|e| e.pid()).collect();
    let mut first = engines.remove(0);
    // The first engine hangs in `genmove` on a thread of its own. Its timeout is far beyond
    // the test's: the call can only end early because the engine was killed (a timeout would
    // be an `EngineError::Timeout`, not `Exited`).
    let driver = std::thread::spawn(move || {
        first
            .send("name", &[], Duration::from_secs(30))
            .expect("answers");
        first
            .send("genmove", &["b"], Duration::from_secs(120))
            .map(|r| r.text)
    });
    // The shut-down comes once the engine has received `genmove` (it says so in the marker
    // file), so that it really interrupts a hanging command.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !std::fs::read_to_string(&marker).is_ok_and(|m| m.contains("genmove b")) {
        assert!(
            Instant::now() < deadline,
            "the engine never received genmove"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = std::fs::remove_file(&marker);

    assert_eq!(shut_down_engines(), 2);
    let result = driver.join().expect("the driving thread");
    assert!(
        matches!(result, Err(EngineError::Exited { .. })),
        "{result:?}"
    );
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
