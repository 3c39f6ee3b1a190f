//! `ingo tournament` corrections end to end: a result is not overwritten without `--change`,
//! a corrected absence lifts the suspension it caused and takes back its forfeits, rounds are
//! taken back and paired by hand, a Swiss with no pairing but rematches is offered a way on,
//! entrants are reinstated, edited and removed, and `ingo tournament log` keeps every decision
//! with its time and reason. On an SQLite file and on a real PostgreSQL server.

use std::path::Path;
use std::process::{Command, Output};

fn ingo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ingo"))
        .args(args)
        .output()
        .expect("run ingo")
}

fn ok(args: &[&str]) -> String {
    let out = ingo(args);
    assert!(
        out.status.success(),
        "ingo {args:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// Runs a command that must fail; returns its standard error.
fn refused(args: &[&str]) -> String {
    let out = ingo(args);
    assert!(
        !out.status.success(),
        "ingo {args:?} succeeded: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8(out.stderr).expect("utf-8")
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).expect("json")
}

const HEAD: &str = r#"purpose = "Friendly"
eligibility = "Members"
registration = { opens = "2026-01-01", closes = "2026-01-31" }
"#;

/// Creates the event `name` in the database `db` from an agreement written to `dir`.
fn create(dir: &Path, db: &str, name: &str, rest: &str) {
    let p = dir.join(format!("{name}.toml"));
    std::fs::write(&p, format!("name = \"{name}\"\n{HEAD}{rest}")).expect("write");
    ok(&["tournament", "create", &p.display().to_string(), "--db", db]);
}

fn game(games: &serde_json::Value, round: u64, board: u64) -> &serde_json::Value {
    games
        .as_array()
        .expect("array")
        .iter()
        .find(|g| g["round"] == round && g["board"] == board)
        .expect("game")
}

/// The round robin of the hand-computed test: D absent in rounds 1 and 2 is suspended, then
/// the director finds that the round 2 game was lost on time, not by absence.
fn round_robin_corrections(dir: &Path, db: &str) {
    create(dir, db, "rr", "format = { kind = \"round-robin\" }\n");
    let at = ["--db", db, "--event", "rr"];
    let run = |args: &[&str]| ok(&[&["tournament"], args, &at[..]].concat());
    let fail = |args: &[&str]| refused(&[&["tournament"], args, &at[..]].concat());
    for p in ["A", "B", "C", "D", "E"] {
        run(&["add", p]);
    }
    run(&["pair"]);
    // Round 1 board 2 is C-D, round 2 board 1 A-D (Berger, as in the library's test).
    run(&["result", "1", "2", "B+F:absence"]);
    let out = run(&["result", "2", "1", "B+F:absence"]);
    assert!(out.contains("D is suspended (罰停)"), "{out}");
    let games = json(&["tournament", "games", "--json", "--db", db, "--event", "rr"]);
    let forfeits = |games: &serde_json::Value| {
        games
            .as_array()
            .expect("array")
            .iter()
            .filter(|g| {
                g["result"]
                    .as_str()
                    .is_some_and(|r| r.ends_with("F:suspension"))
            })
            .count()
    };
    assert_eq!(forfeits(&games), 2);
    assert_eq!(
        game(&games, 3, 3)["result"],
        "void",
        "D's round 3 bye is cancelled"
    );

    // Entering over a result is refused, saying how to change it; a change needs a reason.
    let err = fail(&["result", "2", "1", "B+T"]);
    assert!(
        err.contains("already has the result B+F:absence") && err.contains("--change --reason"),
        "{err}"
    );
    fail(&["result", "2", "1", "B+T", "--change"]);
    let out = run(&[
        "result",
        "2",
        "1",
        "B+T",
        "--change",
        "--reason",
        "the sheet says time",
    ]);
    assert!(out.contains("罰停 lifted"), "{out}");
    assert!(
        !out.contains("later rounds were paired"),
        "drawn in advance: {out}"
    );
    let games = json(&["tournament", "games", "--json", "--db", db, "--event", "rr"]);
    assert_eq!(
        forfeits(&games),
        0,
        "the suspension's forfeits are taken back"
    );
    assert_eq!(game(&games, 3, 3)["result"], serde_json::Value::Null);
    let entrants = json(&[
        "tournament",
        "entrants",
        "--json",
        "--db",
        db,
        "--event",
        "rr",
    ]);
    assert!(entrants
        .as_array()
        .expect("array")
        .iter()
        .all(|e| e["suspended"] == false));

    run(&["result", "1", "1", "B+3"]);
    run(&["result", "1", "1", "--clear", "--reason", "wrong board"]);
    let games = json(&["tournament", "games", "--json", "--db", db, "--event", "rr"]);
    assert_eq!(game(&games, 1, 1)["result"], serde_json::Value::Null);
    let err = fail(&["result", "1", "1", "--clear", "--reason", "again"]);
    assert!(err.contains("has no result"), "{err}");

    // The schedule is taken back whole, and not while results stand.
    let err = fail(&["unpair", "5"]);
    assert!(err.contains("drawn whole"), "{err}");
    let err = fail(&["unpair", "1"]);
    assert!(
        err.contains("has 2 result(s)") && err.contains("--force"),
        "{err}"
    );
    // No late entrant in a drawn round robin.
    let err = fail(&["add", "Late"]);
    assert!(err.contains("drawn already"), "{err}");

    // Entrants: removal refused once a player has games, an edit renames in the games,
    // a withdrawal is undone.
    let err = fail(&["remove", "A"]);
    assert!(err.contains("withdraw instead"), "{err}");
    run(&[
        "edit", "E", "--name", "Eve", "--rank", "2d", "--reason", "spelling",
    ]);
    let games = json(&["tournament", "games", "--json", "--db", db, "--event", "rr"]);
    assert!(games
        .as_array()
        .expect("array")
        .iter()
        .any(|g| g["black"] == "Eve" || g["white"] == "Eve"));
    run(&["withdraw", "B", "--reason", "ill"]);
    run(&["reinstate", "B", "--reason", "better"]);
    let err = fail(&["reinstate", "B"]);
    assert!(err.contains("is not withdrawn"), "{err}");

    // The log: every decision in order, with the value before and after and the reason.
    let log = json(&["tournament", "log", "--json", "--db", db, "--event", "rr"]);
    let log = log.as_array().expect("array");
    let actions: Vec<&str> = log
        .iter()
        .map(|l| l["action"].as_str().expect("action"))
        .collect();
    let count = |a: &str| actions.iter().filter(|x| **x == a).count();
    assert_eq!(count("add"), 5);
    assert_eq!(
        count("pair"),
        15,
        "one entry a game and bye of the schedule"
    );
    assert_eq!(count("result"), 3);
    // Given by 罰停 (two forfeits and a bye), then taken back by the change.
    assert_eq!(count("automatic"), 6);
    assert_eq!((count("change"), count("clear"), count("edit")), (1, 1, 1));
    assert_eq!((count("withdraw"), count("reinstate")), (1, 1));
    let change = log
        .iter()
        .find(|l| l["action"] == "change")
        .expect("change");
    assert_eq!(
        (
            &change["round"],
            &change["board"],
            &change["old"],
            &change["new"],
            &change["reason"]
        ),
        (
            &serde_json::json!(2),
            &serde_json::json!(1),
            &serde_json::json!("B+F:absence"),
            &serde_json::json!("B+T"),
            &serde_json::json!("the sheet says time")
        )
    );
    assert!(log.iter().all(|l| l["at_ms"].as_i64() > Some(0)));
    let seqs: Vec<i64> = log
        .iter()
        .map(|l| l["seq"].as_i64().expect("seq"))
        .collect();
    assert_eq!(seqs, (1..=log.len() as i64).collect::<Vec<_>>());
    let text = run(&["log"]);
    assert!(
        text.contains(
            "change      round 2 board 1: B+F:absence -> B+T  (reason: the sheet says time)"
        ),
        "{text}"
    );
}

/// Four players, four Swiss rounds paired by hand so that the fourth has no pairing without a
/// rematch: `pair` says so and names both ways on; `--allow-rematches` pairs with the fewest.
fn swiss_by_hand(dir: &Path, db: &str) {
    create(dir, db, "sw", "format = { kind = \"swiss\", rounds = 4 }\n");
    let at = ["--db", db, "--event", "sw"];
    let run = |args: &[&str]| ok(&[&["tournament"], args, &at[..]].concat());
    let fail = |args: &[&str]| refused(&[&["tournament"], args, &at[..]].concat());
    for p in ["P1", "P2", "P3", "P4"] {
        run(&["add", p]);
    }
    let err = fail(&[
        "pair", "--manual", "--game", "P1", "P2", "--game", "P1", "P3",
    ]);
    assert!(err.contains("\"P1\" is paired twice"), "{err}");
    let err = fail(&["pair", "--manual", "--game", "P1", "P2"]);
    assert!(err.contains("not paired: P3, P4"), "{err}");
    for (round, a, b, c, d) in [
        ("1", "P2", "P1", "P3", "P4"),
        ("2", "P1", "P3", "P2", "P4"),
        ("3", "P1", "P4", "P2", "P3"),
    ] {
        let out = run(&[
            "pair", "--manual", "--game", a, b, "--game", c, d, "--reason", "by hand",
        ]);
        assert!(out.contains(&format!("{a} (B) vs {b} (W)")), "{out}");
        run(&["result", round, "1", "B+R"]);
        run(&["result", round, "2", "B+R"]);
    }
    let err = fail(&["pair"]);
    assert!(
        err.contains("no pairing without a rematch")
            && err.contains("pair --manual")
            && err.contains("pair --allow-rematches"),
        "{err}"
    );
    // A change after the next round was paired on it says how to take that round back.
    let out = run(&["result", "2", "1", "W+R", "--change", "--reason", "misread"]);
    assert!(out.contains("`ingo tournament unpair 3`"), "{out}");
    let out = run(&["pair", "--allow-rematches", "--explain"]);
    assert_eq!(out.matches("(a rematch)").count(), 2, "{out}");
    assert_eq!(
        out.matches("; a rematch (met 1 time(s) before)").count(),
        2,
        "{out}"
    );
    assert!(out.contains("[cost levels: rematch 1, score "), "{out}");
    // Take it back and pair it by hand instead.
    run(&["unpair", "4", "--reason", "the director prefers"]);
    let err = fail(&["unpair", "2"]);
    assert!(err.contains("not the latest paired round (3)"), "{err}");
    run(&[
        "pair", "--manual", "--game", "P4", "P1", "--game", "P3", "P2",
    ]);
    let log = json(&["tournament", "log", "--json", "--db", db, "--event", "sw"]);
    let log = log.as_array().expect("array");
    let manual = log.iter().filter(|l| l["action"] == "pair-manual").count();
    let unpaired = log.iter().filter(|l| l["action"] == "unpair").count();
    assert_eq!((manual, unpaired), (8, 2));
}

/// A knockout whose winner withdraws before the next round: the opponent goes on by walkover.
fn knockout_walkover(dir: &Path, db: &str) {
    create(dir, db, "ko", "format = { kind = \"knockout\" }\n");
    let at = ["--db", db, "--event", "ko"];
    let run = |args: &[&str]| ok(&[&["tournament"], args, &at[..]].concat());
    for p in ["P1", "P2", "P3", "P4"] {
        run(&["add", p]);
    }
    run(&["pair"]);
    let games = json(&["tournament", "games", "--json", "--db", db, "--event", "ko"]);
    for g in games.as_array().expect("array") {
        let top_black = g["black"] == "P1" || g["black"] == "P2";
        let board = g["board"].to_string();
        run(&["result", "1", &board, if top_black { "B+R" } else { "W+R" }]);
    }
    run(&["withdraw", "P1"]);
    let out = run(&["pair"]);
    assert!(out.contains("P2 has a bye"), "{out}");
    // The bracket: text, and the pictures.
    let text = run(&["bracket"]);
    assert!(
        text.ends_with("round 2\n  [P2] (bye)\nwinner: P2\n"),
        "{text}"
    );
    let svg = dir.join("bracket.svg");
    let png = dir.join("bracket.png");
    run(&[
        "bracket",
        "--svg",
        &svg.display().to_string(),
        "--png",
        &png.display().to_string(),
    ]);
    assert!(std::fs::read_to_string(&svg)
        .expect("svg")
        .contains(">P2</text>"));
    assert_eq!(&std::fs::read(&png).expect("png")[1..4], b"PNG");
}

#[test]
fn corrections_on_sqlite() {
    let dir = tempfile::tempdir().expect("dir");
    let db = dir.path().join("events.db").display().to_string();
    round_robin_corrections(dir.path(), &db);
    swiss_by_hand(dir.path(), &db);
    knockout_walkover(dir.path(), &db);
}

#[test]
fn corrections_on_postgres() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let test_db = rt
        .block_on(ingo_store::testing::TestDb::postgres())
        .expect("a PostgreSQL server (scripts/test starts one)");
    let dir = tempfile::tempdir().expect("dir");
    round_robin_corrections(dir.path(), &test_db.url);
    swiss_by_hand(dir.path(), &test_db.url);
    knockout_walkover(dir.path(), &test_db.url);
}
