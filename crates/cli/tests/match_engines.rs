//! `ingo match` against stubborn fake engines: engines that hang in `genmove`, ignore the end of
//! their input and ignore SIGTERM, SIGINT and SIGHUP, as a badly written engine or wrapper does.
//! The real `ingo` binary is run, stopped with SIGKILL, SIGTERM or SIGINT, and `/proc` then
//! tells whether any engine of that run is still alive. All waits are bounded polls.
//!
//! The fake engine is a POSIX shell script (written by each test into its own directory) that
//! records its pid and, once it hangs in `genmove`, `exec`s a long `sleep`, so that each engine
//! is one process whose pid the test knows.

use std::{
    fs,
    path::{Path, PathBuf},
    process::{Child, Command, ExitStatus, Stdio},
    thread,
    time::{Duration, Instant},
};

/// The fake engine. Arguments: its directory, and how many engine processes (counted over the
/// whole test, in start order) play properly (always passing) before the later ones hang in
/// `genmove`; a file `behave` in the directory makes every engine play properly.
const ENGINE: &str = r#"#!/bin/sh
dir=$1
good=$2
trap '' TERM INT HUP
echo $$ >> "$dir/pids"
n=$(wc -l < "$dir/pids")
n=$((n))
hang=yes
if [ "$n" -le "$good" ] || [ -e "$dir/behave" ]; then hang=no; fi
set -f
while IFS= read -r line; do
  # shellcheck disable=SC2086 # splitting the command into words is the point
  set -- $line
  id=$1
  cmd=$2
  case "$cmd" in
    genmove)
      if [ "$hang" = yes ]; then
        echo $$ >> "$dir/hanging"
        exec sleep 100000
      fi
      printf '=%s pass\n\n' "$id" ;;
    name) printf '=%s Stubborn\n\n' "$id" ;;
    protocol_version) printf '=%s 2\n\n' "$id" ;;
    quit) printf '=%s\n\n' "$id"; exit 0 ;;
    *) printf '=%s\n\n' "$id" ;;
  esac
done
# Ignores the end of its input, as some engines do.
exec sleep 100000
"#;

/// Generous bound for things that take well under a second on an idle machine.
const BOUND: Duration = Duration::from_secs(60);

/// A fresh directory holding the fake engine; the match writes to `out` inside it.
fn test_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("ingo-match-engines")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("create the test directory");
    fs::write(dir.join("engine.sh"), ENGINE).expect("write the fake engine");
    dir
}

/// The engine command line for `ingo match`.
fn engine(dir: &Path, good: u32) -> String {
    format!(
        "sh '{}' '{}' {good}",
        dir.join("engine.sh").display(),
        dir.display()
    )
}

/// The engine command line of a wrapper script that runs the fake engine as its child (not
/// with `exec`), so that the engine is the referee's grandchild.
fn wrapped_engine(dir: &Path, good: u32) -> String {
    format!(
        r#"sh -c 'sh "$0" "$@"; exit $?' '{}' '{}' {good}"#,
        dir.join("engine.sh").display(),
        dir.display()
    )
}

/// Starts `ingo match` with the same engine for both sides.
fn start_match(dir: &Path, good: u32, extra: &[&str]) -> Child {
    start_match_with(dir, &engine(dir, good), extra)
}

fn start_match_with(dir: &Path, command: &str, extra: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_ingo"))
        .args(["match", "--black", command, "--white", command])
        .args(["--size", "9", "--out"])
        .arg(dir.join("out"))
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ingo starts")
}

/// Polls `done` every 10 ms until it holds or `bound` passes; returns whether it held.
fn wait_for(bound: Duration, mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + bound;
    loop {
        if done() {
            return true;
        }
        if Instant::now() > deadline {
            return false;
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// The pids listed in `dir/name`, one a line.
fn pids(dir: &Path, name: &str) -> Vec<i32> {
    fs::read_to_string(dir.join(name))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// Whether `pid` is a live process (a zombie only waits to be reaped: it is dead).
fn alive(pid: i32) -> bool {
    let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    let state = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().next());
    !matches!(state, Some("Z" | "X") | None)
}

/// Waits (bounded) for `child` to exit and returns its status and standard error.
fn finish(mut child: Child) -> (ExitStatus, String) {
    let mut status = None;
    let exited = wait_for(BOUND, || {
        status = child.try_wait().expect("wait for ingo");
        status.is_some()
    });
    if !exited {
        let _ = child.kill();
        let _ = child.wait();
        panic!("ingo match did not exit within {BOUND:?}");
    }
    let output = child.wait_with_output().expect("ingo's output");
    let status = status.expect("exited");
    (status, String::from_utf8_lossy(&output.stderr).into_owned())
}

/// Runs the match to its end and checks that it succeeded.
fn run_to_the_end(dir: &Path, good: u32, extra: &[&str]) -> String {
    let (status, stderr) = finish(start_match(dir, good, extra));
    assert!(status.success(), "{status}: {stderr}");
    stderr
}

/// Starts a match whose engines hang as soon as the engine started `good + 1`-th is asked for
/// a move, and waits until that one hangs.
fn start_until_an_engine_hangs(dir: &Path, good: u32, extra: &[&str]) -> Child {
    hang_with(dir, &engine(dir, good), extra)
}

/// Starts a match with `command` and waits until an engine hangs in `genmove`.
fn hang_with(dir: &Path, command: &str, extra: &[&str]) -> Child {
    let mut child = start_match_with(dir, command, extra);
    let hanging = wait_for(BOUND, || !pids(dir, "hanging").is_empty());
    if !hanging {
        let _ = child.kill();
        panic!("no engine reached genmove: {:?}", finish(child).1);
    }
    child
}

fn send_signal(child: &Child, signal: rustix::process::Signal) {
    let pid = i32::try_from(child.id())
        .ok()
        .and_then(rustix::process::Pid::from_raw)
        .expect("a pid");
    rustix::process::kill_process(pid, signal).expect("signal ingo");
}

fn game_file(dir: &Path, index: u32) -> PathBuf {
    dir.join("out").join(format!("game-{index:04}.sgf"))
}

/// A game record's JSON sidecar.
fn record(dir: &Path, index: u32) -> serde_json::Value {
    let path = dir.join("out").join(format!("game-{index:04}.json"));
    serde_json::from_str(&fs::read_to_string(&path).expect("the game's record")).expect("JSON")
}

/// Void attempts written in the output directory (an interrupted game must not leave one).
fn void_files(dir: &Path) -> Vec<String> {
    fs::read_dir(dir.join("out"))
        .expect("the output directory")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("-void-"))
        .collect()
}

#[test]
fn no_clock_still_ends_a_hang_in_genmove_by_the_timeout_policy() {
    let dir = test_dir("move-timeout");
    // `--time none` is the default; Black hangs on its first move. The referee waits the
    // 0.5 s asked for, not the default 300 s (`run_to_the_end` would give up at 60 s), and
    // says so in the result's reason.
    run_to_the_end(&dir, 0, &["--move-timeout", "0.5"]);
    let record = record(&dir, 1);
    assert_eq!(record["result"], "W+T", "{record}");
    assert_eq!(record["end"], "time", "{record}");
    assert_eq!(
        record["reason"],
        "Black lost on time: engine did not answer `genmove b` within 500ms and was killed",
        "{record}"
    );
    // The default limit is a few minutes, and says so.
    let help = Command::new(env!("CARGO_BIN_EXE_ingo"))
        .args(["match", "--help"])
        .output()
        .expect("ingo runs");
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("--move-timeout") && help.contains("300"),
        "{help}"
    );
    // A timeout of zero would end every game at once.
    let zero = Command::new(env!("CARGO_BIN_EXE_ingo"))
        .args(["match", "--black", "x", "--white", "y", "--out"])
        .arg(dir.join("zero"))
        .args(["--move-timeout", "0"])
        .output()
        .expect("ingo runs");
    assert_eq!(zero.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&zero.stderr).contains("--move-timeout"));
}

#[test]
fn sigkill_of_the_referee_kills_its_engines_and_a_resumed_match_finds_none() {
    let dir = test_dir("sigkill");
    let mut child = start_until_an_engine_hangs(&dir, 0, &[]);
    let old = pids(&dir, "pids");
    assert_eq!(old.len(), 2, "{old:?}");
    child.kill().expect("SIGKILL ingo");
    child.wait().expect("reap ingo");
    // The parent-death signal is delivered as ingo dies, but asynchronously.
    let gone = wait_for(Duration::from_secs(10), || !old.iter().any(|&p| alive(p)));
    assert!(
        gone,
        "engines {:?} outlived a SIGKILLed referee",
        old.iter().filter(|&&p| alive(p)).collect::<Vec<_>>()
    );
    assert!(!game_file(&dir, 1).exists());

    // The match resumes, with new engines only.
    fs::write(dir.join("behave"), "").expect("write");
    run_to_the_end(&dir, 0, &[]);
    assert!(game_file(&dir, 1).exists());
    assert_eq!(record(&dir, 1)["end"], "count");
    assert_eq!(pids(&dir, "pids").len(), 4);
    assert!(!old.iter().any(|&p| alive(p)));
}

/// The parent-death signal reaches only the referee's own children; a wrapper script's child
/// is killed with the engine's process group by a guard that sees the referee die.
#[test]
fn sigkill_of_the_referee_kills_what_a_wrapper_script_started() {
    let dir = test_dir("sigkill-wrapped");
    let mut child = hang_with(&dir, &wrapped_engine(&dir, 0), &[]);
    let old = pids(&dir, "pids");
    assert_eq!(old.len(), 2, "{old:?}");
    child.kill().expect("SIGKILL ingo");
    child.wait().expect("reap ingo");
    let gone = wait_for(Duration::from_secs(10), || !old.iter().any(|&p| alive(p)));
    assert!(
        gone,
        "engines {:?} outlived a SIGKILLed referee",
        old.iter().filter(|&&p| alive(p)).collect::<Vec<_>>()
    );
}

/// SIGTERM or SIGINT in the second of two games: ingo stops every engine before it exits
/// (with 128 + the signal), keeps game 1, does not count game 2, and a later run plays game 2
/// only.
fn a_signal_stops_the_engines_and_keeps_finished_games(
    name: &str,
    signal: rustix::process::Signal,
    code: i32,
) {
    let dir = test_dir(name);
    // The two engines of game 1 play; those of game 2 hang.
    let child = start_until_an_engine_hangs(&dir, 2, &["--games", "2"]);
    let old = pids(&dir, "pids");
    assert_eq!(old.len(), 4, "{old:?}");
    send_signal(&child, signal);
    let (status, stderr) = finish(child);
    assert_eq!(status.code(), Some(code), "{stderr}");
    // Checked at once: ingo stopped them before it exited.
    let alive_now: Vec<_> = old.iter().filter(|&&p| alive(p)).collect();
    assert!(alive_now.is_empty(), "engines {alive_now:?} outlived ingo");
    assert!(
        stderr.contains("interrupted with 1 of 2 games finished") && stderr.contains("resume"),
        "{stderr}"
    );
    assert!(game_file(&dir, 1).exists());
    assert!(!game_file(&dir, 2).exists());
    assert!(void_files(&dir).is_empty(), "{:?}", void_files(&dir));
    let results: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(dir.join("out/results.json")).expect("results.json"),
    )
    .expect("JSON");
    assert_eq!(results["finished"], 1, "{results}");

    // The resumed match plays game 2 only, with two new engines.
    fs::write(dir.join("behave"), "").expect("write");
    run_to_the_end(&dir, 2, &["--games", "2"]);
    assert!(game_file(&dir, 2).exists());
    assert_eq!(record(&dir, 2)["end"], "count");
    assert_eq!(pids(&dir, "pids").len(), 6);
}

#[test]
fn sigterm_of_the_referee_stops_its_engines_and_keeps_finished_games() {
    a_signal_stops_the_engines_and_keeps_finished_games(
        "sigterm",
        rustix::process::Signal::TERM,
        143,
    );
}

#[test]
fn sigint_of_the_referee_stops_its_engines_and_keeps_finished_games() {
    a_signal_stops_the_engines_and_keeps_finished_games(
        "sigint",
        rustix::process::Signal::INT,
        130,
    );
}

#[test]
fn one_rank_without_the_other_is_refused() {
    for (given, missing) in [
        ("--black-rank", "--white-rank"),
        ("--white-rank", "--black-rank"),
    ] {
        let dir = test_dir(&format!("one-rank{given}"));
        let out = Command::new(env!("CARGO_BIN_EXE_ingo"))
            .args(["match", "--black", "x", "--white", "y", given, "3d"])
            .arg("--out")
            .arg(dir.join("out"))
            .output()
            .expect("ingo runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(missing), "{stderr}");
        // Refused before anything is started or written.
        assert!(!dir.join("out").exists());
    }
}

/// In a handicap game between two `ingo gtp` players, the referee tells the engines of White's
/// handicap passes (`ingo-handicap_passes`), so Black does not take the first of them for an
/// ordinary pass: before, Black passed at once in reply (a pass after a pass, with one stone
/// against none, "won" the count), White's next handicap pass made two in a row, and a 5先
/// game against GNU Go ended at move 3, B+361.
#[test]
fn black_plays_through_white_handicap_passes() {
    let dir = test_dir("handicap-passes");
    let ingo = format!(
        "'{}' gtp --size 9 --playouts 50 --threads 1",
        env!("CARGO_BIN_EXE_ingo")
    );
    let out = Command::new(env!("CARGO_BIN_EXE_ingo"))
        .args(["match", "--black", &ingo, "--white", &ingo, "--size", "9"])
        // 5級 against 1級: 32 points, 4先: three White passes, no komi.
        .args(["--black-rank", "5k", "--white-rank", "1k", "--out"])
        .arg(dir.join("out"))
        .stdin(Stdio::null())
        .output()
        .expect("ingo runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let sgf = fs::read_to_string(game_file(&dir, 1)).expect("the game's record");
    let moves: Vec<&str> = sgf
        .split(';')
        .filter_map(|node| node.strip_prefix("B[").or_else(|| node.strip_prefix("W[")))
        .map(|rest| rest.split(']').next().unwrap_or_default())
        .take(8)
        .collect();
    assert_eq!(moves.len(), 8, "{sgf}");
    for (i, mv) in moves.iter().enumerate() {
        // B W B W B W B W: White's first three are its handicap passes, Black's four are stones.
        let handicap_pass = i % 2 == 1 && i < 6;
        assert_eq!(mv.is_empty(), handicap_pass, "move {}: {sgf}", i + 1);
    }
    assert!(sgf.contains("HA[4]"), "{sgf}");
}
