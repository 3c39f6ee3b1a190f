//! Golden tests of `ingo judge` and `ingo score`: output, JSON fields and exit codes, on the
//! small records in `tests/data/` (each has a comment saying what it shows; the GTP and bench
//! tests read some of them too), run from that folder; the expected outputs are the `.out` files
//! in `tests/judge/`. `judge .` judges the whole folder, so a record added there shows up in
//! `folder_json.out`. Regenerate the `.out` files with `INGO_BLESS=1 cargo test --test
//! judge_golden` and review the diff. What a command writes on standard error (warnings, errors)
//! is kept in a `.err` file beside the `.out` when there is any.

use std::fs;
use std::path::Path;
use std::process::Command;

fn ingo(args: &[&str]) -> (String, i32) {
    let (stdout, _, code) = ingo_both(args);
    (stdout, code)
}

/// The `verify` object of `ingo judge --verify --json FILE`'s first line, and its `note`.
fn verify_json(file: &str) -> (serde_json::Value, String) {
    let (out, _) = ingo(&["judge", "--verify", "--json", file]);
    let line: serde_json::Value = serde_json::from_str(out.lines().next().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{e}: {out}"));
    let verify = line["verify"].clone();
    let note = verify["note"]
        .as_str()
        .unwrap_or_else(|| panic!("{out}"))
        .to_string();
    (verify, note)
}

/// Standard output, standard error and the exit code of `ingo args`.
fn ingo_both(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_ingo"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data"))
        .output()
        .expect("ingo runs");
    let code = out
        .status
        .code()
        .expect("ingo exits normally, not by a signal");
    (
        String::from_utf8(out.stdout).expect("UTF-8 output"),
        String::from_utf8(out.stderr).expect("UTF-8 errors"),
        code,
    )
}

fn golden(name: &str, args: &[&str], want_code: i32) {
    let (got, errors, code) = ingo_both(args);
    assert_eq!(
        code, want_code,
        "exit code of ingo {args:?}; output:\n{got}{errors}"
    );
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/judge");
    let path = dir.join(format!("{name}.out"));
    let err_path = dir.join(format!("{name}.err"));
    if std::env::var_os("INGO_BLESS").is_some() {
        fs::write(&path, &got).expect("writable");
        if errors.is_empty() {
            let _ = fs::remove_file(&err_path);
        } else {
            fs::write(&err_path, &errors).expect("writable");
        }
        return;
    }
    let want = fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing {} (run with INGO_BLESS=1)", path.display()));
    assert_eq!(want, got, "ingo {args:?} differs from {}", path.display());
    let want_errors = fs::read_to_string(&err_path).unwrap_or_default();
    assert_eq!(
        want_errors,
        errors,
        "standard error of ingo {args:?} differs from {}",
        err_path.display()
    );
}

#[test]
fn judge_json_of_an_ended_game_has_the_count() {
    golden("t14_json", &["judge", "--json", "t14_four_passes.sgf"], 0);
    let (out, _) = ingo(&["judge", "--json", "t14_four_passes.sgf"]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(v["phase"], "ended");
    assert_eq!(v["result"]["margin"], 0);
    assert_eq!(v["result"]["winner"], "B");
    assert_eq!(v["result"]["shared"], 1);
    assert_eq!(v["illegal"], serde_json::Value::Null);
}

#[test]
fn judge_reports_the_illegal_move_and_exits_1() {
    golden(
        "illegal_json",
        &["judge", "--json", "illegal_retake.sgf"],
        1,
    );
    golden("illegal_text", &["judge", "illegal_retake.sgf"], 1);
    golden(
        "tolerant_text",
        &["judge", "--tolerant", "illegal_retake.sgf"],
        0,
    );
}

#[test]
fn judge_counts_unfinished_games_on_request() {
    golden(
        "unfinished_plain",
        &["judge", "--json", "unfinished.sgf"],
        0,
    );
    golden(
        "unfinished_count",
        &["judge", "--json", "--count", "unfinished.sgf"],
        0,
    );
    golden(
        "unfinished_dead",
        &[
            "judge",
            "--json",
            "--count",
            "--dead",
            "C7,C3",
            "--rules",
            "ing",
            "unfinished.sgf",
        ],
        0,
    );
}

#[test]
fn judge_an_unreadable_file_exits_2_and_names_the_place() {
    golden("not_sgf_json", &["judge", "--json", "not_sgf.sgf"], 2);
    golden("not_sgf_text", &["judge", "not_sgf.sgf"], 2);
    golden("missing_text", &["judge", "no_such_file.sgf"], 2);
}

#[test]
fn judge_reports_what_the_lenient_reader_repaired() {
    golden("truncated_json", &["judge", "--json", "truncated.sgf"], 0);
    golden("truncated_text", &["judge", "truncated.sgf"], 0);
}

#[test]
fn judge_every_variation_on_request() {
    golden("variations_main", &["judge", "--json", "variations.sgf"], 0);
    golden(
        "variations_all",
        &["judge", "--json", "--variations", "variations.sgf"],
        1,
    );
    golden(
        "variations_text",
        &["judge", "--variations", "variations.sgf"],
        1,
    );
}

#[test]
fn judge_a_folder_and_a_collection() {
    golden("folder_json", &["judge", "--json", "."], 2);
}

#[test]
fn score_prints_the_fill_in() {
    golden("score_t14", &["score", "t14_four_passes.sgf"], 0);
    golden("score_t15", &["score", "t15_resumed.sgf"], 0);
    golden(
        "score_dead",
        &["score", "--dead", "C7", "unfinished.sgf"],
        0,
    );
    let (_, code) = ingo(&["score", "--dead", "A1", "unfinished.sgf"]);
    assert_eq!(code, 2, "a dead stone where there is none is an error");
}

/// `ingo score` says how the neutral points were filled: read out to the end by the search
/// (the dame next to White's own point F5 first), or one move deep on a board far from the
/// end (five stones on 9×9: every empty point is neutral, too many to read), and why; `--json`
/// gives the same.
#[test]
fn score_says_how_the_neutral_points_were_filled() {
    let (out, code) = ingo(&["score", "--json", "dame_next_to_own_point.sgf"]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["fill"], serde_json::json!({"read": true}), "{out}");
    assert_eq!(
        v["fills"],
        serde_json::json!([
            {"color": "W", "point": "E5"},
            {"color": "B", "point": "D5"},
            {"color": "W", "point": "H5"},
        ]),
        "{out}"
    );
    let (out, code) = ingo(&["score", "--json", "unfinished.sgf"]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["fill"]["read"], false, "{out}");
    assert_eq!(
        v["fill"]["why"], "the 76 dame A9 B9 C9 D9 E9 F9 G9 H9 … are too many to read together",
        "{out}"
    );
    assert_eq!(
        v["fills"][0],
        serde_json::json!({"color": "W", "point": "E7"})
    );

    let (out, code) = ingo(&["score", "dame_next_to_own_point.sgf"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "neutral points filled in turn, white first: W E5, B D5, W H5 (read out to the end)\n"
        ),
        "{out}"
    );
    let (out, code) = ingo(&["score", "unfinished.sgf"]);
    assert_eq!(code, 0, "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("neutral points filled in turn"))
        .unwrap_or_else(|| panic!("no fill line:\n{out}"));
    assert!(
        line.ends_with(
            "(one move deep: the 76 dame A9 B9 C9 D9 E9 F9 G9 H9 … are too many to read together)"
        ),
        "{line}"
    );
}

/// `ingo score --svg` rings the verdicts a person should check, the same strings `--json`
/// names as sampled between 25% and 75% or read by a rule, each with its note, and the text
/// names them on its line `verdicts to check:`; a count whose verdicts are all clear has no
/// ring, no key, and `none` on that line. The notes of the verdicts the winner turns on end
/// with `!`, which the key explains; a fill made one move deep is said under the count, with
/// its reason. (`unfinished.sgf`: five stones on 9×9, two of them held by three playouts in
/// four or fewer, the winner turning on `G3`, its dame too many to read.)
#[test]
fn score_pictures_ring_the_verdicts_to_check() {
    use ingo_player::endgame::{CHECK_ABOVE, CHECK_BELOW};
    let dir = tempfile::tempdir().expect("a temporary folder");
    for (record, rings) in [("unfinished.sgf", 2), ("dame_next_to_own_point.sgf", 0)] {
        let svg_path = dir.path().join(format!("{record}.svg"));
        let svg_arg = svg_path.to_string_lossy().into_owned();
        let (out, code) = ingo(&["score", record, "--svg", &svg_arg]);
        assert_eq!(code, 0, "{out}");
        let svg = std::fs::read_to_string(&svg_path).expect("the picture");
        let (json, code) = ingo(&["score", "--json", record]);
        assert_eq!(code, 0, "{json}");
        let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
        let mut expected = Vec::new();
        for s in v["strings"].as_array().expect("strings") {
            let held = s["held"].as_f64().expect("held");
            let note = match s["decided"].as_str().expect("decided") {
                "sampled" | "shared" if (CHECK_BELOW..=CHECK_ABOVE).contains(&held) => {
                    format!("{:.0}%", held * 100.0)
                }
                "lost_race" | "won_race" => "R".into(),
                "mutual_atari" | "saved_in_race" => "A".into(),
                "dead_shape" | "nakade" => "S".into(),
                "group_read" => "G".into(),
                "large_eye_space" | "in_large_eye_space" => "E".into(),
                "fill" => "F".into(),
                "ko_taken_last" => "K".into(),
                _ => continue,
            };
            // A verdict the winner turns on has its note marked `!`.
            let turns = v["winner_turns_on"]
                .as_array()
                .expect("winner_turns_on")
                .contains(&s["stones"][0]);
            expected.push(if turns { format!("{note}!") } else { note });
        }
        assert_eq!(expected.len(), rings, "{record}: {json}");
        assert_eq!(svg.matches(r#"class="check""#).count(), rings, "{record}");
        for note in &expected {
            assert!(
                svg.contains(&format!(">{note}</text></g>")),
                "{record}: {note}"
            );
        }
        assert_eq!(svg.contains(r#"class="key""#), rings > 0, "{record}");
        // A fill made one move deep is said under the count, with the reason `--json` gives.
        match v["fill"]["why"].as_str() {
            Some(why) => assert!(
                svg.contains(&format!("{}: {why}", ingo_render::FILL_NOTE)),
                "{record}: {why}"
            ),
            None => assert!(!svg.contains(r#"class="fill-note""#), "{record}"),
        }
        assert_eq!(
            v["fill"]["read"].as_bool(),
            Some(record == "dame_next_to_own_point.sgf"),
            "{record}"
        );
        assert_eq!(
            svg.contains(ingo_render::TURNS_KEY),
            expected.iter().any(|n| n.ends_with('!')),
            "{record}: the key says what `!` means where a note has it"
        );
        // The text says the same, on the line `verdicts to check:`.
        let (text, _) = ingo(&["score", record]);
        let line = text
            .lines()
            .find(|l| l.starts_with("verdicts to check: "))
            .unwrap_or_else(|| panic!("no line of verdicts to check:\n{text}"));
        assert_eq!(
            line.starts_with("verdicts to check: none"),
            rings == 0,
            "{line}"
        );
        for note in &expected {
            let note = note.trim_end_matches('!');
            assert!(line.contains(&format!(" {note}")), "{line}: {note}");
        }
    }
}

/// A time penalty stated only in the game comment (`GC[8 komi, +2 time penalty]`): the count of
/// `judge --verify` and of `score` takes it off, as the written result did, and `score` says
/// where it read it. Without it the count would be B+1 against the record's W+1.
#[test]
fn penalties_stated_in_words_are_counted() {
    golden(
        "verify_penalty_json",
        &["judge", "--verify", "--json", "penalty_stated.sgf"],
        0,
    );
    golden("score_penalty", &["score", "penalty_stated.sgf"], 0);
    let (out, _) = ingo(&["judge", "--verify", "--json", "penalty_stated.sgf"]);
    assert!(out.contains(r#""agrees":true"#), "{out}");
}

/// The same game written as the 6th and 7th Ing Cups' records are, `KM[4]` beside
/// `GC[8 komi, -4 time penalty]`: the komi already holds White's penalty, so the count takes it
/// off once (B+5, the written result; taken off again it was B+9), and `score` says why.
#[test]
fn penalties_the_komi_already_holds_are_counted_once() {
    let (out, code) = ingo(&["judge", "--verify", "penalty_in_komi.sgf"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("verify: recorded B+5 counted B+5 (agrees"),
        "{out}"
    );
    let (out, err, code) = ingo_both(&["score", "penalty_in_komi.sgf"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("result B+5\n"), "{out}");
    assert!(
        err.contains("the record's komi (KM 4) already holds the time penalties its comments state (Black 0, White 4 points)"),
        "{err}"
    );
}

/// A record under Japanese rules (`RU[Japanese]`) was counted by territory: `judge --verify`
/// counts it by area, Ing's count (B+8.5), and says what the judgement gives counted by
/// territory, the record's B+7.5 (not the note on an odd number of shared points, which the
/// one point between the two counts would otherwise get), in text and in JSON.
#[test]
fn verify_gives_the_territory_count_of_a_record_counted_by_territory() {
    let (out, code) = ingo(&["judge", "--verify", "territory_japanese.sgf"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("verify: recorded B+7.5 counted B+8.5 (same winner, other margin; the record's rules (RU) count by territory: counted so (the area margin less the difference of the stones each side put on the board), this judgement gives B+7.5, the record's result)"),
        "{out}"
    );
    let (json, code) = ingo(&["judge", "--verify", "--json", "territory_japanese.sgf"]);
    assert_eq!(code, 0, "{json}");
    assert!(
        json.contains("this judgement gives B+7.5, the record's result"),
        "{json}"
    );
}

/// A record whose written margin differs from the board's count by an odd number of points
/// (B+2 against B+1): `judge --verify` says that the record's count had an odd number of
/// shared points where the board has none, in text and in JSON; an even difference (B+3, the
/// same record rewritten) gets no such note, since one point that changed hands explains it.
#[test]
fn verify_says_when_the_record_needs_other_shared_points() {
    let (out, code) = ingo(&["judge", "--verify", "record_count_off_by_one.sgf"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("verify: recorded B+2 counted B+1 (same winner, other margin; the margins differ by an odd number of points, which only a different number of shared points (分空) gives: the record's count had an odd number, this one has 0"),
        "{out}"
    );
    let (_, note) = verify_json("record_count_off_by_one.sgf");
    assert!(note.contains("had an odd number, this one has 0"), "{note}");

    let dir = std::env::temp_dir().join(format!("ingo-parity-test-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("temp dir");
    let even = dir.join("even.sgf");
    let text = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/record_count_off_by_one.sgf"),
    )
    .expect("data");
    fs::write(&even, text.replace("RE[B+2]", "RE[B+3]")).expect("write");
    let (out, _) = ingo(&[
        "judge",
        "--verify",
        "--json",
        even.to_str().expect("UTF-8 path"),
    ]);
    assert!(out.contains(r#""agrees":false"#), "{out}");
    assert!(out.contains(r#""note":null"#), "{out}");
    let _ = fs::remove_dir_all(&dir);
}

/// Where the judged count and the record disagree, `judge --verify` names the verdicts to check
/// (a string's first stone and its note), in text and in JSON; where they agree the text does
/// not, and the JSON still lists them. Where the winners differ it also names the verdicts the
/// winner turns on. (`unfinished.sgf` given a result: counted B+3.5, White's C7 and Black's G3
/// held by three playouts in four; with C7 dead Black still wins, with G3 dead White does.)
#[test]
fn verify_names_the_verdicts_to_check_where_the_counts_differ() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let text =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/unfinished.sgf"))
            .expect("data");
    for (re, agrees) in [("W+10", false), ("B+3.5", true)] {
        let path = dir.path().join(format!("re-{agrees}.sgf"));
        fs::write(
            &path,
            text.replace("RU[Chinese]", &format!("RU[Chinese]RE[{re}]")),
        )
        .expect("write");
        let file = path.to_str().expect("UTF-8 path");
        let (out, code) = ingo(&["judge", "--verify", file]);
        assert_eq!(code, 0, "{out}");
        let named = if agrees {
            "verify: recorded B+3.5 counted B+3.5 (agrees)"
        } else {
            "; verdicts to check: C7 75%, G3 75%; the winner turns on G3)"
        };
        assert!(out.contains(named), "{re}: {out}");
        let (out, _) = ingo(&["judge", "--verify", "--json", file]);
        let v: serde_json::Value =
            serde_json::from_str(out.lines().next().unwrap_or_default()).expect("JSON");
        assert_eq!(v["verify"]["agrees"], agrees, "{out}");
        assert_eq!(
            v["verify"]["checks"],
            serde_json::json!(["C7 75%", "G3 75%"]),
            "{out}"
        );
        let turns: &[&str] = if agrees { &[] } else { &["G3"] };
        assert_eq!(
            v["verify"]["winner_turns_on"],
            serde_json::json!(turns),
            "{out}"
        );
    }
}

#[test]
fn render_and_score_write_pictures() {
    let dir = std::env::temp_dir().join(format!("ingo-render-test-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("temp dir");
    let svg = dir.join("pos.svg");
    let png = dir.join("pos.png");
    let (_, code) = ingo(&[
        "render",
        "t15_resumed.sgf",
        "--move",
        "4",
        "--numbers",
        "--svg",
        svg.to_str().expect("UTF-8 path"),
        "--png",
        png.to_str().expect("UTF-8 path"),
    ]);
    assert_eq!(code, 0);
    let text = fs::read_to_string(&svg).expect("SVG written");
    assert!(
        text.starts_with("<svg") || text.starts_with("<?xml"),
        "an SVG document"
    );
    // Move 4 is White's B5, the missed dame: it is numbered.
    assert!(text.contains(">4<"), "move numbers are drawn");
    let bytes = fs::read(&png).expect("PNG written");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG file");

    let count_png = dir.join("count.png");
    let (out, code) = ingo(&[
        "score",
        "t14_four_passes.sgf",
        "--png",
        count_png.to_str().expect("UTF-8 path"),
    ]);
    assert_eq!(code, 0);
    // The missed dame (B5 is White's fourth move; the point left is filled by Black, the
    // player to move: 填滿計點).
    assert!(out.contains("result B+0"), "{out}");
    assert_eq!(&fs::read(&count_png).expect("PNG written")[..4], b"\x89PNG");

    let (_, code) = ingo(&["render", "t14_four_passes.sgf"]);
    assert_eq!(code, 2, "render needs --svg or --png");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn match_of_the_built_in_player_against_itself() {
    let dir = std::env::temp_dir().join(format!("ingo-match-test-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let engine = format!("{} gtp --playouts 50", env!("CARGO_BIN_EXE_ingo"));
    let out_dir = dir.to_str().expect("UTF-8 path");
    // Two games of the player against itself, on a board of `size`, with `time` if given.
    let run_match = |size: &str, time: Option<&str>| {
        let mut args = vec![
            "match", "--black", &engine, "--white", &engine, "--games", "2", "--size", size,
        ];
        if let Some(t) = time {
            args.extend(["--time", t]);
        }
        args.extend(["--out", out_dir]);
        ingo(&args)
    };
    let (out, code) = run_match("5", Some("absolute:60s"));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 of 2 games finished"), "{out}");
    for game in ["game-0001.sgf", "game-0002.sgf"] {
        let sgf = fs::read_to_string(dir.join(game)).expect("a record per game");
        assert!(sgf.contains("RU[GOE]") && sgf.contains("RE["), "{sgf}");
        let (judged, code) = ingo(&["judge", "--json", dir.join(game).to_str().expect("UTF-8")]);
        assert_eq!(
            code, 0,
            "the referee's record replays under Ing's rules: {judged}"
        );
    }
    // Run again: the match is complete, nothing is replayed.
    let (out, code) = run_match("5", Some("absolute:60s"));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 of 2 games finished"), "{out}");
    // A different board size is a different match.
    let (_, code) = run_match("7", None);
    assert_eq!(code, 2, "resuming with another configuration is refused");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn handicap_and_nigiri() {
    golden("handicap_t16", &["handicap", "6段", "3d", "--json"], 0);
    golden("handicap_pro", &["handicap", "3p", "4品"], 0);
    golden(
        "nigiri_seeded",
        &["handicap", "3d", "3d", "--nigiri-seed", "5", "--json"],
        0,
    );
    let (again, _) = ingo(&["handicap", "3d", "3d", "--nigiri-seed", "5", "--json"]);
    let (first, _) = ingo(&["handicap", "3d", "3d", "--nigiri-seed", "5", "--json"]);
    assert_eq!(again, first, "a seeded nigiri is reproducible");
    let (_, code) = ingo(&["handicap", "3x", "3d"]);
    assert_eq!(code, 2, "a rank that is not one is refused");
}

#[test]
fn handicap_reads_9p_as_1pin_and_gives_rank_handicap_ties_to_white() {
    // 9p, the professional dan, is 1品: the two are the same rank, an even game.
    let (out, code) = ingo(&["handicap", "9p", "1品", "--json"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\"nigiri\":true"), "{out}");
    assert!(out.contains("\"tie_winner\":\"black\""), "{out}");
    // 5段 against 3段: no White pass, no komi, still a handicap game (有差賽).
    let (out, code) = ingo(&["handicap", "5段", "3段", "--json"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\"handicap_passes\":0"), "{out}");
    assert!(out.contains("\"tie_winner\":\"white\""), "{out}");
    let (help, _) = ingo(&["help", "handicap"]);
    assert!(help.contains("9p = 1品"), "{help}");
}

/// The play server's judge page counts a record as `ingo score` does: the same result, margin
/// and penalty points for a record whose time penalty is stated only in its comments (the
/// page once counted it B+1, leaving the penalty out).
#[test]
fn the_judge_page_counts_a_record_as_ingo_score_does() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/penalty_stated.sgf");
    let text = fs::read_to_string(&path).expect("the test record");
    let (out, code) = ingo(&["score", "penalty_stated.sgf"]);
    assert_eq!(code, 0, "{out}");
    let page = ingo_server::http::review::judge_sgf(&text, None).expect("a record");
    let score = page.score.expect("every move is legal: a count");
    assert_eq!(score.result, "W+1");
    assert_eq!(
        (score.penalty_points.black, score.penalty_points.white),
        (2, 0)
    );
    assert!(
        out.contains(&format!(
            "Margin: {} (area {} - {}",
            score.margin, score.area.black, score.area.white
        )) && out.contains(&format!("result {}\n", score.result)),
        "ingo score:\n{out}\nthe judge page: {score:?}"
    );
}

/// A record whose written margin differs from the board's count by a fraction of a point: only
/// the komi explains that, and `judge --verify` says so with the komi that gives the record's
/// result, in text and in JSON. The 9×9 wall game above (45 to 36 by area) written B+1.5:
/// without `KM` (and without `RU`) it is counted with no komi, B+9, and the note says the record
/// leaves its komi out; with its `KM[8]` it is counted B+1, and the note says the record's count
/// used another komi. Both name 7.5.
#[test]
fn verify_says_when_only_the_komi_explains_the_difference() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let text = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/record_count_off_by_one.sgf"),
    )
    .expect("data");
    let text = text.replace("RE[B+2]", "RE[B+1.5]");
    let no_komi = dir.path().join("no_komi.sgf");
    fs::write(&no_komi, text.replace("KM[8]RU[GOE]", "")).expect("write");
    let with_komi = dir.path().join("with_komi.sgf");
    fs::write(&with_komi, &text).expect("write");
    let file = no_komi.to_str().expect("UTF-8 path");
    let (out, code) = ingo(&["judge", "--verify", file]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("verify: recorded B+1.5 counted B+9 (same winner, other margin; the margins differ by a fraction of a point, which only the komi gives: the record states no komi (KM) and was counted with 0, so it was played with a komi it does not give (with 7.5 this count gives the record's result))"),
        "{out}"
    );
    let file = with_komi.to_str().expect("UTF-8 path");
    let (verify, note) = verify_json(file);
    assert!(
        note.contains("another komi than the 8 it states (KM), with which it was counted (with 7.5 this count gives the record's result)"),
        "{note}"
    );
    assert_eq!(verify["counted"], "B+1", "{verify}");
}

/// A result that reads as a count is checked only against a board: on a record with no move
/// (a header kept without its game, as `aeb-pro/Asahi_Top8/4.sgf` of the shared corpus,
/// `RE[B+7.5]`) and beside a half-point komi with a zero margin (Fox's `W+0.0`),
/// `judge --verify` says why it does not verify, in text and in JSON, and counts no record.
#[test]
fn verify_says_why_a_result_is_no_count() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let empty = dir.path().join("no_moves.sgf");
    fs::write(&empty, "(;GM[1]SZ[19]KM[5.5]RE[B+7.5])").expect("write");
    let fox = dir.path().join("fox.sgf");
    fs::write(&fox, "(;GM[1]SZ[19]KM[7.5]RE[W+0.0];B[pd];W[dp])").expect("write");
    let (out, code) = ingo(&["judge", "--verify", empty.to_str().expect("UTF-8 path")]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(", not verified: RE B+7.5 is on a record with no move: no board to count"),
        "{out}"
    );
    assert!(out.contains("verified 0 counted records"), "{out}");
    let (out, code) = ingo(&["judge", "--verify", fox.to_str().expect("UTF-8 path")]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            ", not verified: RE W+0.0, a zero margin beside a half-point komi, is no count"
        ),
        "{out}"
    );
    let (json, _) = ingo(&[
        "judge",
        "--verify",
        "--json",
        empty.to_str().expect("UTF-8 path"),
    ]);
    let line: serde_json::Value =
        serde_json::from_str(json.lines().next().unwrap_or_default()).expect("JSON");
    assert_eq!(
        line["verify_skipped"], "RE B+7.5 is on a record with no move: no board to count",
        "{json}"
    );
    assert!(line.get("verify").is_none(), "{json}");
}
