//! Helpers shared by the referee's integration tests.
#![allow(dead_code)]

use std::{
    path::{Path, PathBuf},
    sync::Mutex,
    time::Duration,
};

use ingo_referee::{MatchConfig, TimeSource};

/// The command line of the fake engine with `args` (see `tests/engines/fake_engine.py`).
pub fn fake(args: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/fake_engine.py");
    format!("{} '{}' {args}", python(), script.display())
}

/// The Python to run the fake engine with: `$PYTHON`, else the system's `/usr/bin/python3`
/// (a version manager's `python3` shim can take half a second to start), else `python3`.
fn python() -> String {
    if let Some(p) = std::env::var_os("PYTHON") {
        return p.to_string_lossy().into_owned();
    }
    ["/usr/bin/python3", "/usr/local/bin/python3"]
        .into_iter()
        .find(|p| Path::new(p).is_file())
        .unwrap_or("python3")
        .to_string()
}

/// A fresh, empty directory for one test.
pub fn out_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("ingo-referee-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the test directory");
    dir
}

/// A config for fake engines on a small board, untimed, with short timeouts.
pub fn config(a: &str, b: &str, size: usize, name: &str) -> MatchConfig {
    let mut config = MatchConfig::new(fake(a), fake(b), out_dir(name));
    config.size = size;
    config.timeouts.setup = std::time::Duration::from_secs(10);
    config.timeouts.grace = std::time::Duration::from_millis(300);
    config.timeouts.untimed_move = std::time::Duration::from_secs(10);
    config
}

/// A scripted time source for `play_game_timed`: every reading is `step` later than the one
/// before. The referee reads the time just before it writes `genmove` and again when the answer
/// has arrived, so every move is charged exactly `step`, however long the engine really took;
/// the readings in between (the time told with `time_left`) fall between moves and charge
/// nobody.
#[derive(Debug)]
pub struct Steps {
    step: Duration,
    now: Mutex<Duration>,
}

impl Steps {
    /// A source at zero that advances `step` a reading.
    pub fn new(step: Duration) -> Steps {
        Steps {
            step,
            now: Mutex::new(Duration::ZERO),
        }
    }
}

impl TimeSource for Steps {
    fn now(&self) -> Duration {
        let mut now = self
            .now
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *now += self.step;
        *now
    }
}
