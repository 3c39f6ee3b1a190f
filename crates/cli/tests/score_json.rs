//! `ingo score --json`: every string of the judged final position with its status and how it
//! was decided, so that a referee knows which verdicts to check.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A 9×9 final position in SGF (the example of `judge_end`): Black's corner inside the wall
/// F9–F4, A4–F4, White's wall outside it, White's stones C7 and D5 dead in Black's corner (left
/// to the playouts: each has four liberties), W+17.
const RECORD: &str = "(;GM[1]FF[4]SZ[9]KM[8]RU[Ing]\
AB[fa][fb][fc][fd][fe][af][bf][cf][df][ef][ff]\
AW[ga][gb][gc][gd][ge][gf][ag][bg][cg][dg][eg][fg][gg][cc][de];)";

/// [`RECORD`] written as `corner.sgf` in a new temporary folder named after `tag`: the folder
/// and the file.
fn corner_record(tag: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("ingo-score-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("corner.sgf");
    std::fs::write(&path, RECORD).expect("write the record");
    (dir, path)
}

/// What `ingo score [--json] PATH` prints; it must succeed.
fn score(json: bool, path: &Path) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ingo"));
    cmd.arg("score");
    if json {
        cmd.arg("--json");
    }
    let out = cmd.arg(path).output().expect("ingo runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn score_json_names_each_strings_status_and_how_it_was_decided() {
    let (dir, path) = corner_record("json");
    let v: serde_json::Value = serde_json::from_str(&score(true, &path)).expect("JSON");
    assert_eq!(v["result"], "W+17", "{v:#}");
    let strings = v["strings"].as_array().expect("strings");
    let c7 = strings
        .iter()
        .find(|s| {
            s["stones"]
                .as_array()
                .is_some_and(|a| a.iter().any(|p| p == "C7"))
        })
        .expect("the string on C7");
    assert_eq!(c7["status"], "dead", "{c7:#}");
    assert_eq!(c7["decided"], "sampled", "{c7:#}");
    assert!(
        c7["how"]
            .as_str()
            .is_some_and(|h| h.starts_with("sampled at ")),
        "{c7:#}"
    );
    for s in strings {
        assert!(s["decided"].is_string() && s["held"].is_number(), "{s:#}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `ingo score` says which of the verdicts to check the winner turns on, in text and in JSON:
/// on `unfinished.sgf` (B+3.5, White's C7 and Black's G3 held by three playouts in four) Black's
/// G3 dead names White, and White's C7 alive changes the margin only; in the corner of
/// [`RECORD`] (W+17) neither of White's two stones does.
#[test]
fn score_names_the_verdicts_the_winner_turns_on() {
    let (dir, corner) = corner_record("turns");
    let unfinished = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/unfinished.sgf");
    for (path, turns, line) in [
        (
            unfinished.as_path(),
            vec!["G3"],
            "the winner turns on: G3 (each alone turned the other way names the other winner)",
        ),
        (
            corner.as_path(),
            vec![],
            "the winner turns on: none of them (each alone turned the other way changes the margin only)",
        ),
    ] {
        let v: serde_json::Value = serde_json::from_str(&score(true, path)).expect("JSON");
        assert_eq!(v["winner_turns_on"], serde_json::json!(turns), "{v:#}");
        let text = score(false, path);
        assert!(text.lines().any(|l| l == line), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
