//! `ingo gtp`'s rule flags: a wrong value is refused with an error that names what that flag
//! accepts (not the list of presets), and the process ends with status 2 before speaking GTP.

use std::process::{Command, Stdio};

/// Runs `ingo gtp ARGS` with empty input: its exit status and standard error.
fn gtp(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ingo"))
        .arg("gtp")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("ingo runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_wrong_ko_rule_names_the_ko_rules() {
    let (code, err) = gtp(&["--ko", "foo"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(
            "unknown ko rule \"foo\": expected one of ing, simple, positional, situational"
        ),
        "{err}"
    );
    assert!(!err.contains("katago-ing"), "{err}");
}

#[test]
fn a_wrong_suicide_rule_names_the_suicide_rules() {
    let (code, err) = gtp(&["--suicide", "foo"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("unknown suicide rule \"foo\": expected one of none, block, all"),
        "{err}"
    );
    assert!(!err.contains("katago-ing"), "{err}");
}

#[test]
fn a_wrong_preset_names_the_presets() {
    let (code, err) = gtp(&["--rules", "foo"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(
            "unknown rules \"foo\": expected one of ing, katago-ing, chinese, tromp-taylor, japanese"
        ),
        "{err}"
    );
}

#[test]
fn good_rule_flags_are_taken() {
    let (code, err) = gtp(&[
        "--ko",
        "situational",
        "--suicide",
        "all",
        "--rules",
        "chinese",
    ]);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn a_wrong_priors_value_names_the_values() {
    let (code, err) = gtp(&["--priors", "foo"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("large"), "{err}");
    assert!(err.contains("always"), "{err}");
    assert!(err.contains("off"), "{err}");
}

/// `ingo gtp ARGS` fed `input`: its output, after checking that it ended well.
fn session(args: &[&str], input: &[u8]) -> String {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ingo"))
        .arg("gtp")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ingo runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("commands written");
    let out = child.wait_with_output().expect("ingo ends");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `ingo gtp ARGS` answering `genmove b` on an empty 19×19 board: the move.
fn first_move(args: &[&str]) -> String {
    let text = session(args, b"boardsize 19\nclear_board\ngenmove b\nquit\n");
    text.split("\n\n")
        .filter_map(|r| r.strip_prefix("= "))
        .map(str::trim)
        .find(|r| !r.is_empty())
        .unwrap_or_else(|| panic!("no move in {text:?}"))
        .to_owned()
}

#[test]
fn the_priors_switch_reaches_the_search() {
    // The same seed and playouts, with and without the learned patterns' priors: the one
    // difference between the two searches is the priors, so their first moves differ.
    let base = ["--playouts", "300", "--seed", "3", "--no-resign"];
    let with = first_move(&[&base[..], &["--priors", "large"]].concat());
    let without = first_move(&[&base[..], &["--priors", "off"]].concat());
    assert_ne!(with, without, "the same move with and without the priors");
    // And the default is `large`.
    assert_eq!(first_move(&base), with);
}

#[test]
fn a_wrong_thread_count_is_refused() {
    for bad in ["0", "257", "two"] {
        let (code, err) = gtp(&["--threads", bad]);
        assert_eq!(code, Some(2), "--threads {bad}: {err}");
        assert!(err.contains("--threads"), "{err}");
    }
}

#[test]
fn threads_with_a_seed_and_playouts_repeat_their_move() {
    let args = ["--playouts", "400", "--seed", "5", "--threads", "2"];
    assert_eq!(first_move(&args), first_move(&args));
}

#[test]
fn ponder_is_taken_and_the_engine_answers_as_without_it() {
    let args = [
        "--size",
        "9",
        "--playouts",
        "200",
        "--ponder",
        "--seed",
        "2",
    ];
    let text = session(&args, b"genmove b\nplay w E5\ngenmove b\nquit\n");
    let answers: Vec<&str> = text.split("\n\n").filter(|a| !a.is_empty()).collect();
    assert_eq!(answers.len(), 4, "{text}");
    assert!(answers.iter().all(|a| a.starts_with('=')), "{text}");
}

#[test]
fn widening_values_are_checked() {
    for bad in ["maybe", "4,20", "0,20,1.4", "4,20,1", "4,x,1.4"] {
        let (code, err) = gtp(&["--widening", bad]);
        assert_eq!(code, Some(2), "--widening {bad}: {err}");
        assert!(err.contains("--widening"), "{err}");
    }
    for good in ["off", "on", "3,10,1.5"] {
        let (code, err) = gtp(&["--widening", good]);
        assert_eq!(code, Some(0), "--widening {good}: {err}");
    }
}

#[test]
fn widening_reaches_the_search() {
    let base = [
        "--playouts",
        "300",
        "--seed",
        "3",
        "--no-resign",
        "--threads",
        "1",
    ];
    let with = first_move(&[&base[..], &["--widening", "1,1e9,2"]].concat());
    let without = first_move(&[&base[..], &["--widening", "off"]].concat());
    // With one move considered, the search plays the patterns' first choice.
    assert_ne!(with, without);
}

#[test]
fn a_prior_bias_must_be_a_number_of_zero_or_more() {
    for bad in ["-1", "x", "inf"] {
        let (code, err) = gtp(&[&format!("--prior-bias={bad}")]);
        assert_eq!(code, Some(2), "--prior-bias {bad}: {err}");
        assert!(err.contains("--prior-bias"), "{err}");
    }
    let (code, err) = gtp(&["--prior-bias", "0.5"]);
    assert_eq!(code, Some(0), "{err}");
}
