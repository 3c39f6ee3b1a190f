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
