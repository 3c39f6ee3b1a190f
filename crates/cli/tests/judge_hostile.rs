//! `ingo judge`, `score`, `render` and GTP `loadsgf` on hostile input: paths that are
//! not files, inputs past the limits, random bytes, cut-off records, folders with holes, an
//! output over the input. Each test runs the built binary, bounded in time, and is named after
//! what it guards.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a run of `ingo` gave.
struct Run {
    stdout: String,
    stderr: String,
    code: i32,
}

/// Runs `ingo args` in `dir` with `env` and `stdin`, killing it (and failing) after 60 s: a
/// watchdog against hangs, not a timing assertion.
fn ingo_in(dir: &Path, args: &[&str], env: &[(&str, &str)], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ingo"))
        .args(args)
        .envs(env.iter().copied())
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ingo starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("stdin written");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("ingo {args:?} still running after 60 s: it hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        stdout: out.join().expect("stdout read"),
        stderr: err.join().expect("stderr read"),
        code: status.code().expect("ingo exits normally, not by a signal"),
    }
}

/// A folder of its own for one test, emptied first.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ingo-hostile-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("temp dir");
    dir
}

const GAME: &str = "(;GM[1]FF[4]SZ[9]RU[GOE]KM[8];B[ee];W[cc];B[gg])";

#[cfg(unix)]
#[test]
fn fifo_path_is_refused_at_once() {
    let dir = temp_dir("fifo");
    let made = Command::new("mkfifo")
        .arg(dir.join("pipe.sgf"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    for args in [
        &["judge", "pipe.sgf"][..],
        &["score", "pipe.sgf"],
        &["render", "pipe.sgf", "--svg", "out.svg"],
    ] {
        let run = ingo_in(&dir, args, &[], "");
        assert_eq!(run.code, 2, "ingo {args:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("pipe.sgf") && run.stderr.contains("not a regular file"),
            "ingo {args:?}: {}",
            run.stderr
        );
    }
    // GTP loadsgf answers with an error, and the engine goes on.
    let run = ingo_in(&dir, &["gtp"], &[], "loadsgf pipe.sgf\nname\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("? cannot load file:") && run.stdout.contains("not a regular file"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("= ingo"), "{}", run.stdout);
    let _ = fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn dev_zero_is_refused_at_once() {
    let dir = temp_dir("zero");
    let run = ingo_in(&dir, &["judge", "/dev/zero"], &[], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("a device"), "{}", run.stderr);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn size_limits_are_refused_naming_the_variable() {
    let dir = temp_dir("limits");
    fs::write(dir.join("game.sgf"), GAME).expect("written");
    fs::write(dir.join("many.sgf"), "(;)".repeat(30)).expect("written");
    let run = ingo_in(
        &dir,
        &["judge", "game.sgf"],
        &[("INGO_SGF_MAX_BYTES", "20")],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("limit of 20") && run.stderr.contains("INGO_SGF_MAX_BYTES"),
        "{}",
        run.stderr
    );
    let run = ingo_in(
        &dir,
        &["judge", "many.sgf"],
        &[("INGO_SGF_MAX_GAMES", "29")],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("INGO_SGF_MAX_GAMES"), "{}", run.stderr);
    let run = ingo_in(
        &dir,
        &["judge", "many.sgf"],
        &[("INGO_SGF_MAX_GAMES", "30")],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = ingo_in(
        &dir,
        &["score", "game.sgf"],
        &[("INGO_SGF_MAX_NODES", "3")],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("INGO_SGF_MAX_NODES"), "{}", run.stderr);
    let run = ingo_in(
        &dir,
        &["gtp"],
        &[("INGO_SGF_MAX_BYTES", "20")],
        "loadsgf game.sgf\nquit\n",
    );
    assert!(run.stdout.contains("INGO_SGF_MAX_BYTES"), "{}", run.stdout);
    let run = ingo_in(
        &dir,
        &["judge", "game.sgf"],
        &[("INGO_SGF_MAX_BYTES", "lots")],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("not a whole number"), "{}", run.stderr);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn random_bytes_are_an_error_not_an_empty_game() {
    let dir = temp_dir("random");
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut bytes: Vec<u8> = (0..100_000)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 32) as u8
        })
        .collect();
    bytes[40_000..40_002].copy_from_slice(b"(;");
    fs::write(dir.join("random.sgf"), &bytes).expect("written");
    let run = ingo_in(&dir, &["judge", "random.sgf"], &[], "");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(!run.stdout.contains("legal"), "{}", run.stdout);
    assert!(run.stderr.contains("not an SGF record"), "{}", run.stderr);
    let run = ingo_in(&dir, &["judge", "--json", "random.sgf"], &[], "");
    assert_eq!(run.code, 2);
    let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("one JSON object");
    assert!(v["error"]
        .as_str()
        .is_some_and(|e| e.contains("not an SGF record")));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn truncated_record_is_called_incomplete_in_text_and_json() {
    let dir = temp_dir("truncated");
    for (name, text) in [
        ("mid_move.sgf", "(;FF[4]SZ[9];B[ee];W[c"),
        ("comment.sgf", "(;FF[4]SZ[9];B[ee]C[a comment that never"),
        ("no_close.sgf", "(;FF[4]SZ[9];B[ee];W[cc]"),
    ] {
        fs::write(dir.join(name), text).expect("written");
        let run = ingo_in(&dir, &["judge", name], &[], "");
        assert!(
            run.stdout.contains("INCOMPLETE RECORD"),
            "{name}: {}",
            run.stdout
        );
        let run = ingo_in(&dir, &["judge", "--json", name], &[], "");
        let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("JSON");
        assert_eq!(v["incomplete"], true, "{name}: {v}");
        assert!(v["incomplete_reason"].as_str().is_some(), "{name}: {v}");
        let run = ingo_in(&dir, &["score", name], &[], "");
        assert!(
            run.stderr.contains("INCOMPLETE RECORD"),
            "{name}: {}",
            run.stderr
        );
    }
    fs::write(dir.join("whole.sgf"), GAME).expect("written");
    let run = ingo_in(&dir, &["judge", "--json", "whole.sgf"], &[], "");
    let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("JSON");
    assert_eq!(v.get("incomplete"), None, "{v}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn contradictory_setup_and_repeated_properties_are_warned() {
    let dir = temp_dir("dup");
    fs::write(
        dir.join("dup.sgf"),
        "(;SZ[9]KM[6.5]KM[7.5]RU[GOE]RU[Chinese]AB[aa]AW[aa];SZ[13]B[ee])",
    )
    .expect("written");
    let run = ingo_in(&dir, &["judge", "dup.sgf"], &[], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    for says in [
        "AB[aa] and AW[aa]",
        "KM[7.5] ignored",
        "RU[Chinese] ignored",
        "SZ[13] ignored",
    ] {
        assert!(run.stderr.contains(says), "{says}: {}", run.stderr);
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn two_moves_in_one_node_are_counted_alike_everywhere() {
    let dir = temp_dir("two");
    fs::write(dir.join("two.sgf"), "(;SZ[9]RU[GOE];B[aa]B[bb];W[cc])").expect("written");
    let judge = ingo_in(&dir, &["judge", "--json", "two.sgf"], &[], "");
    let v: serde_json::Value = serde_json::from_str(judge.stdout.trim()).expect("JSON");
    assert_eq!(v["moves"], 3, "{v}");
    let score = ingo_in(&dir, &["score", "two.sgf"], &[], "");
    assert_eq!(score.code, 0, "{}", score.stderr);
    assert!(
        score
            .stdout
            .starts_with("two.sgf after 3 moves and 1 inserted pass(es)"),
        "{}",
        score.stdout
    );
    assert!(
        score.stderr.contains("more than one move in one node"),
        "{}",
        score.stderr
    );
    // --move counts the same moves: after 2, Black's two stones and no White stone.
    let score = ingo_in(&dir, &["score", "--move", "2", "two.sgf"], &[], "");
    assert!(
        score.stdout.starts_with("two.sgf after 2 moves"),
        "{}",
        score.stdout
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn folder_named_like_a_record_is_walked_or_reported() {
    let dir = temp_dir("folder");
    fs::create_dir_all(dir.join("x.sgf")).expect("folder");
    let run = ingo_in(&dir, &["judge", "x.sgf"], &[], "");
    assert_eq!(
        run.code, 2,
        "an empty folder judges nothing: {}",
        run.stderr
    );
    assert!(run.stderr.contains("no .sgf file"), "{}", run.stderr);
    fs::write(dir.join("x.sgf/inner.sgf"), GAME).expect("written");
    let run = ingo_in(&dir, &["judge", "x.sgf"], &[], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("inner.sgf: ing, 9x9, 3 moves, legal"),
        "{}",
        run.stdout
    );
    let _ = fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn unreadable_entries_of_a_folder_are_skipped_and_the_rest_judged() {
    use std::os::unix::fs::symlink;
    let dir = temp_dir("holes");
    let games = dir.join("games");
    fs::create_dir_all(games.join("sub")).expect("folder");
    fs::write(games.join("good.sgf"), GAME).expect("written");
    symlink(dir.join("nowhere.sgf"), games.join("dangling.sgf")).expect("symlink");
    symlink(&games, games.join("sub/loop")).expect("symlink loop");
    let run = ingo_in(&dir, &["judge", "games"], &[], "");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("good.sgf: ing, 9x9, 3 moves, legal"),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr.contains("dangling.sgf: skipped"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("loop: skipped"), "{}", run.stderr);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn render_and_score_refuse_to_write_over_the_record() {
    let dir = temp_dir("overwrite");
    fs::write(dir.join("x.sgf"), GAME).expect("written");
    for args in [
        &["render", "x.sgf", "--svg", "x.sgf"][..],
        &["render", "x.sgf", "--png", "./x.sgf"],
        &[
            "score",
            "x.sgf",
            "--svg",
            "../ingo-hostile-overwrite-{}/x.sgf",
        ],
    ] {
        let args: Vec<String> = args
            .iter()
            .map(|a| a.replace("{}", &std::process::id().to_string()))
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = ingo_in(&dir, &args, &[], "");
        assert_eq!(run.code, 2, "ingo {args:?}: {}", run.stderr);
        assert!(run.stderr.contains("refusing to write"), "{}", run.stderr);
        assert_eq!(fs::read_to_string(dir.join("x.sgf")).expect("read"), GAME);
    }
    let run = ingo_in(&dir, &["render", "x.sgf", "--svg", "x.svg"], &[], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn judge_text_keeps_diagnostics_off_standard_output() {
    let dir = temp_dir("streams");
    fs::write(dir.join("a.sgf"), "(;SZ[9]KM[6.5]KM[7];B[ee]B[dd])").expect("written");
    fs::write(dir.join("b.sgf"), "not a record").expect("written");
    let run = ingo_in(&dir, &["judge", "a.sgf", "b.sgf", "missing.sgf"], &[], "");
    assert_eq!(run.code, 2);
    // Standard output: one verdict line per game, nothing else.
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines,
        ["a.sgf: ing, 9x9, 2 moves, legal, playing"],
        "{}",
        run.stdout
    );
    for says in [
        "a.sgf: warning: node 0: KM[7] ignored",
        "a.sgf: warning: node 1: more than one move",
        "error: b.sgf: no game tree found",
        "error: missing.sgf: cannot read the file",
    ] {
        assert!(run.stderr.contains(says), "{says}: {}", run.stderr);
    }
    let _ = fs::remove_dir_all(&dir);
}

/// Every cause of an error is printed once: the readers' errors already write the error they
/// wrap into their own text ("cannot read the file: No such file …"), and the chain printed
/// it a second time.
#[test]
fn an_error_names_each_cause_once() {
    let dir = temp_dir("causes");
    // A string with no liberty in the setup: the record's error wraps the rules' own.
    fs::write(
        dir.join("setup.sgf"),
        "(;GM[1]FF[4]SZ[9]AB[aa][bb]AW[ba][ab];B[ee])",
    )
    .expect("written");
    for (args, cause) in [
        (&["score", "missing.sgf"][..], "No such file or directory"),
        (&["judge", "missing.sgf"], "No such file or directory"),
        (&["score", "setup.sgf"], "has no liberty"),
        (&["judge", "setup.sgf"], "has no liberty"),
    ] {
        let run = ingo_in(&dir, args, &[], "");
        assert_eq!(run.code, 2, "ingo {args:?}: {}", run.stderr);
        assert_eq!(
            run.stderr.matches(cause).count(),
            1,
            "ingo {args:?} names {cause:?} once: {}",
            run.stderr
        );
    }
    let _ = fs::remove_dir_all(&dir);
}
