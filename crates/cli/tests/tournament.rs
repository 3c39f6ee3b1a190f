//! `ingo tournament`: the director's commands end to end on an SQLite event file, the plain
//! results file, and a 4-engine 9×9 round robin of the built-in player run to the end and
//! resumed after a kill -9.

#[path = "../../tournament/tests/egf_validator/mod.rs"]
mod egf_validator;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

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

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).expect("json")
}

const HEAD: &str = r#"name = "Club cup"
purpose = "Friendly"
eligibility = "Members"
registration = { opens = "2026-01-01", closes = "2026-01-31" }
"#;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p.display().to_string()
}

/// The round robin of the library's hand-computed test, entered through the command line:
/// forfeits, a bye each round, a suspension after the second absence.
/// A new event in `dir` from the agreement `text` (written to `NAME.toml`), made with
/// `ingo tournament create`: the path of its database (`NAME.db`).
fn new_event(dir: &Path, name: &str, text: &str) -> String {
    let agreement = write(dir, &format!("{name}.toml"), text);
    let db = dir.join(format!("{name}.db")).display().to_string();
    ok(&["tournament", "create", &agreement, "--db", &db]);
    db
}

#[test]
fn director_runs_a_round_robin_from_the_command_line() {
    let dir = tempfile::tempdir().expect("dir");
    let db = new_event(
        dir.path(),
        "cup",
        &format!("{HEAD}format = {{ kind = \"round-robin\" }}\n"),
    );
    for p in ["A", "B", "C", "D", "E"] {
        ok(&["tournament", "add", p, "--rank", "3d", "--db", &db]);
    }
    // A name twice is refused, and nothing is written.
    assert!(!ingo(&["tournament", "add", "A", "--db", &db])
        .status
        .success());
    let drawn = ok(&["tournament", "pair", "--db", &db]);
    assert_eq!(drawn.lines().count(), 15, "{drawn}");
    for (round, board, result) in [
        ("1", "1", "B+3"),         // B beats E
        ("1", "2", "B+F:absence"), // C beats D, D absent
        ("2", "1", "B+F:absence"), // A beats D, D absent again: 罰停
        ("2", "2", "W+R"),         // C beats B
        ("3", "1", "B+T"),         // E beats C on time
        ("3", "2", "void"),        // A-B void
        ("4", "2", "W+5"),         // A beats E
        ("5", "1", "B+2"),         // C beats A
    ] {
        ok(&["tournament", "result", round, board, result, "--db", &db]);
    }
    let games = json(&["tournament", "games", "--json", "--db", &db]);
    let d_games: Vec<&serde_json::Value> = games
        .as_array()
        .expect("array")
        .iter()
        .filter(|g| g["round"].as_u64() >= Some(4) && (g["black"] == "D" || g["white"] == "D"))
        .collect();
    assert_eq!(d_games.len(), 2);
    assert!(d_games.iter().all(|g| g["result"]
        .as_str()
        .is_some_and(|r| r.ends_with("F:suspension"))));
    let t = json(&["tournament", "standings", "--json", "--db", &db]);
    type Row<'a> = (u64, &'a str, u64, u64, u64, u64, u64, u64, u64);
    let rows: Vec<Row> = t
        .as_array()
        .expect("array")
        .iter()
        .map(|r| {
            let n = |k: &str| r[k].as_u64().expect(k);
            (
                n("rank"),
                r["player"].as_str().expect("player"),
                n("main"),
                n("a1"),
                n("a2"),
                n("b1"),
                n("b2"),
                n("wins"),
                n("losses"),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (1, "C", 4, 4, 2, 19, 7, 3, 1),
            (2, "E", 3, 3, 4, 15, 10, 2, 2),
            (3, "A", 3, 2, 3, 16, 6, 2, 1),
            (3, "B", 3, 2, 3, 16, 6, 2, 1),
            (5, "D", 0, 0, 9, 0, 23, 0, 4),
        ]
    );
    // Exports: CSV round-trips through the event-free standings.
    let csv = dir.path().join("results.csv");
    ok(&[
        "tournament",
        "export",
        "--csv",
        &csv.display().to_string(),
        "--sgf",
        &dir.path().join("sgf").display().to_string(),
        "--db",
        &db,
    ]);
    let text = std::fs::read_to_string(&csv).expect("csv");
    // The event and its rules in comment lines, then the header.
    assert!(
        text.starts_with(
            "# event: Club cup\n# round-robin, rules: Ing's rules (ing), 19x19, komi 8\nround,board,black,white,result\n"
        ),
        "{text}"
    );
    let sgfs = std::fs::read_dir(dir.path().join("sgf"))
        .expect("sgf dir")
        .count();
    assert_eq!(sgfs, 10);
    // The EGF results file of a round robin: it passes the validator, with the places of the
    // standings, D's forfeits unplayed (`!`) and the void game a free round for both.
    let egf = dir.path().join("rr.h");
    ok(&[
        "tournament",
        "export",
        "--egf",
        &egf.display().to_string(),
        "--db",
        &db,
    ]);
    let text = std::fs::read_to_string(&egf).expect("egf");
    let lines = egf_validator::validate(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let names: Vec<String> = lines.iter().map(|l| l.name.join(" ")).collect();
    assert_eq!(names, ["C", "E", "A", "B", "D"], "{text}");
    let d = &lines[4];
    assert!(
        d.entries
            .iter()
            .filter(|e| e.opponent != 0)
            .all(|e| e.symbol == '-' && e.unplayed),
        "{text}"
    );
    // Round 3 board 2, A–B, was void.
    assert_eq!(
        (lines[2].entries[2].opponent, lines[3].entries[2].opponent),
        (0, 0),
        "{text}"
    );
    assert!(
        egf_validator::header(&text, "CM")
            .is_some_and(|c| c.contains("round-robin under Ing's rules")),
        "{text}"
    );
    // Pictures.
    let png = dir.path().join("ct.png");
    let html = dir.path().join("ct.html");
    ok(&[
        "tournament",
        "crosstable",
        "--png",
        &png.display().to_string(),
        "--html",
        &html.display().to_string(),
        "--db",
        &db,
    ]);
    assert_eq!(&std::fs::read(&png).expect("png")[1..4], b"PNG");
    assert!(std::fs::read_to_string(&html)
        .expect("html")
        .contains("<td class=\"name\">C</td>"));
    let ct = ok(&["tournament", "crosstable", "--db", &db]);
    assert!(ct.contains("-w!"), "{ct}");
}

/// Pairs (聯棋) and consultation teams (商談聯棋) are entered with their members and read back.
#[test]
fn pairs_and_consultation_teams_are_entered_with_their_members() {
    let dir = tempfile::tempdir().expect("dir");
    let db = new_event(
        dir.path(),
        "p",
        &format!("{HEAD}format = {{ kind = \"round-robin\" }}\n"),
    );
    ok(&[
        "tournament",
        "add",
        "Li & Chen",
        "--kind",
        "pair",
        "--rank",
        "4d",
        "--member",
        "Li:3d",
        "--member",
        "Chen:4段",
        "--db",
        &db,
    ]);
    ok(&[
        "tournament",
        "add",
        "Club",
        "--kind",
        "consultation",
        "--member",
        "A",
        "--member",
        "B",
        "--member",
        "C",
        "--db",
        &db,
    ]);
    // A pair of three is refused.
    assert!(!ingo(&[
        "tournament",
        "add",
        "Trio",
        "--kind",
        "pair",
        "--member",
        "x",
        "--member",
        "y",
        "--member",
        "z",
        "--db",
        &db
    ])
    .status
    .success());
    ok(&["tournament", "withdraw", "Club", "--db", &db]);
    let e = json(&["tournament", "entrants", "--json", "--db", &db]);
    let e = e.as_array().expect("array");
    assert_eq!(e.len(), 2);
    assert_eq!(
        (e[0]["kind"].as_str(), e[0]["rank"].as_str()),
        (Some("pair"), Some("4d"))
    );
    assert_eq!(e[0]["members"][1]["name"], "Chen");
    assert_eq!(e[0]["members"][1]["rank"], "4d");
    assert_eq!(
        (
            e[1]["kind"].as_str(),
            e[1]["members"].as_array().map(Vec::len)
        ),
        (Some("consultation"), Some(3))
    );
    assert_eq!(e[1]["withdrawn"], true);
}

/// `standings --results`: a plain file, no event; a bye is an empty opponent.
#[test]
fn standings_from_a_plain_results_file() {
    let dir = tempfile::tempdir().expect("dir");
    // Three players, each with a bye; Ann beats Bo, Bo beats Cy, Cy and Ann void.
    let file = write(dir.path(), "r.csv", "round,black,white,result\n1,Bo,Ann,W+R\n1,Cy,,\n2,Bo,Cy,B+4\n2,Ann,,\n3,Cy,Ann,void\n3,,Bo,\n");
    let t = json(&["tournament", "standings", "--results", &file, "--json"]);
    let row = |p: &str| {
        t.as_array()
            .expect("array")
            .iter()
            .find(|r| r["player"] == p)
            .expect("player")
            .clone()
    };
    // Main: Ann 1 + bye = 2, Bo 1 + bye = 2, Cy 0 + bye = 1. Byes add nothing to A1/A2:
    // Ann A1 = Bo's 1; Bo A1 = Cy's 0, A2 = Ann's 1. Ann B1 = aux(Bo) = 0 + 1 = 1.
    assert_eq!(
        (
            row("Ann")["rank"].as_u64(),
            row("Ann")["main"].as_u64(),
            row("Ann")["a1"].as_u64(),
            row("Ann")["b1"].as_u64()
        ),
        (Some(1), Some(2), Some(1), Some(1))
    );
    assert_eq!(
        (
            row("Bo")["rank"].as_u64(),
            row("Bo")["a1"].as_u64(),
            row("Bo")["a2"].as_u64()
        ),
        (Some(2), Some(0), Some(1))
    );
    assert_eq!(
        (
            row("Cy")["rank"].as_u64(),
            row("Cy")["main"].as_u64(),
            row("Cy")["losses"].as_u64()
        ),
        (Some(3), Some(1), Some(1))
    );
    // A bad line is reported with its number.
    let bad = write(
        dir.path(),
        "bad.csv",
        "round,black,white,result\n1,A,B,B+X\n",
    );
    let out = ingo(&["tournament", "standings", "--results", &bad]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("line 2"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// An agreement missing a field is refused, naming it; no event is created.
#[test]
fn incomplete_agreement_is_refused_naming_the_field() {
    let dir = tempfile::tempdir().expect("dir");
    let agreement = write(
        dir.path(),
        "a.toml",
        &format!("{HEAD}format = {{ kind = \"swiss\" }}\n"),
    );
    let out = ingo(&[
        "tournament",
        "create",
        &agreement,
        "--db",
        &dir.path().join("x.db").display().to_string(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("format.rounds"), "{err}");
}

/// A Swiss event paired round by round, exported in the EGF format.
#[test]
fn swiss_event_is_paired_and_exported_for_the_egf() {
    let dir = tempfile::tempdir().expect("dir");
    let db = new_event(dir.path(), "s", &format!("{HEAD}format = {{ kind = \"mcmahon\", rounds = 2, bar = \"3d\" }}\nentrants = [{{ name = \"Ann\", rank = \"4d\" }}, {{ name = \"Bo\", rank = \"1k\" }}, {{ name = \"Cy\", rank = \"2d\" }}]\n"));
    let r1 = ok(&["tournament", "pair", "--db", &db]);
    assert!(r1.contains("has a bye"), "{r1}");
    // The round must be finished before the next is paired.
    assert!(!ingo(&["tournament", "pair", "--db", &db]).status.success());
    ok(&["tournament", "result", "1", "1", "B+R", "--db", &db]);
    ok(&["tournament", "pair", "--db", &db]);
    ok(&["tournament", "result", "2", "1", "W+3", "--db", &db]);
    let egf = dir.path().join("r.h");
    ok(&[
        "tournament",
        "export",
        "--egf",
        &egf.display().to_string(),
        "--db",
        &db,
    ]);
    let text = std::fs::read_to_string(&egf).expect("egf");
    assert!(text.contains("; EV[Club cup]"), "{text}");
    assert_eq!(
        text.lines().filter(|l| !l.starts_with(';')).count(),
        3,
        "{text}"
    );
    assert!(text.contains("0+"), "a bye is written 0+: {text}");
}

fn results_of(db: &str) -> Vec<(u64, u64, String)> {
    let games = json(&["tournament", "games", "--json", "--db", db]);
    games
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|g| {
            Some((
                g["round"].as_u64()?,
                g["board"].as_u64()?,
                g["result"].as_str()?.to_owned(),
            ))
        })
        .collect()
}

/// A 4-engine 9×9 round robin of the built-in player: killed (SIGKILL) after its first game,
/// run again to the end; no game is lost or counted twice.
#[test]
fn engine_round_robin_runs_to_the_end_and_resumes_after_a_kill() {
    let dir = tempfile::tempdir().expect("dir");
    let exe = env!("CARGO_BIN_EXE_ingo");
    let entrants: Vec<String> = [(10, 1), (20, 2), (40, 3), (80, 4)]
        .iter()
        .enumerate()
        .map(|(i, (playouts, seed))| {
            format!("{{ name = \"ingo-{}\", engine = \"{exe} gtp --size 9 --playouts {playouts} --seed {seed}\" }}", (b'a' + i as u8) as char)
        })
        .collect();
    let agreement = write(
        dir.path(),
        "e.toml",
        &format!("{HEAD}size = 9\ntime = {{ control = \"none\" }}\nformat = {{ kind = \"round-robin\" }}\nentrants = [{}]\n", entrants.join(", ")),
    );
    let db = dir.path().join("e.db").display().to_string();
    ok(&["tournament", "create", &agreement, "--db", &db]);
    let mut child = Command::new(exe)
        .args(["tournament", "run", "--parallel", "2", "--db", &db])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run");
    let start = Instant::now();
    let before = loop {
        let r = if Path::new(&db).exists() {
            results_of(&db)
        } else {
            Vec::new()
        };
        if !r.is_empty() {
            break r;
        }
        if let Some(status) = child.try_wait().expect("wait") {
            panic!("the runner ended ({status}) before any game was recorded");
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "no game finished in 5 minutes"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    child.kill().expect("kill -9");
    child.wait().expect("reap");
    let after_kill = results_of(&db);
    assert!(after_kill.len() < 6, "killed before the end");
    let out = ok(&["tournament", "run", "--parallel", "2", "--db", &db]);
    assert!(out.contains("is finished"), "{out}");
    let all = results_of(&db);
    assert_eq!(
        all.len(),
        6,
        "every game of the round robin has one result: {all:?}"
    );
    for r in &after_kill {
        assert!(
            all.contains(r),
            "{r:?}, recorded before the kill, is kept as it was"
        );
    }
    assert!(before.iter().all(|r| all.contains(r)));
    let t = json(&["tournament", "standings", "--json", "--db", &db]);
    let rows = t.as_array().expect("array");
    let wins: u64 = rows.iter().map(|r| r["wins"].as_u64().expect("wins")).sum();
    let losses: u64 = rows
        .iter()
        .map(|r| r["losses"].as_u64().expect("losses"))
        .sum();
    let voids: u64 = rows
        .iter()
        .map(|r| r["voids"].as_u64().expect("voids"))
        .sum();
    assert_eq!(wins + voids / 2, 6, "each game counted once");
    assert_eq!(wins, losses);
    // Every game has its record.
    let sgf = dir.path().join("sgf");
    ok(&[
        "tournament",
        "export",
        "--sgf",
        &sgf.display().to_string(),
        "--db",
        &db,
    ]);
    let records: Vec<String> = std::fs::read_dir(&sgf)
        .expect("dir")
        .map(|e| std::fs::read_to_string(e.expect("entry").path()).expect("read"))
        .collect();
    assert_eq!(records.len(), 6);
    assert!(
        records
            .iter()
            .all(|r| r.contains("SZ[9]") && r.contains(";B[")),
        "played records"
    );
}

/// `export --csv` is read back by `standings --results`, as the docs promise, with the same
/// standings as the event's; a name with a comma or a quote stays one field.
#[test]
fn exported_csv_reads_back_in_standings_with_names_that_need_quoting() {
    let dir = tempfile::tempdir().expect("dir");
    let db = new_event(dir.path(), "cup", &format!("{HEAD}format = {{ kind = \"round-robin\" }}\nentrants = [{{ name = \"Lee, Ann\" }}, {{ name = 'Bo \"Kid\"' }}, {{ name = \"Cy\" }}]\n"));
    ok(&["tournament", "pair", "--db", &db]);
    for (round, result) in [("1", "B+3"), ("2", "W+R"), ("3", "B+F:absence")] {
        ok(&["tournament", "result", round, "1", result, "--db", &db]);
    }
    let csv = dir.path().join("results.csv");
    let csv_path = csv.display().to_string();
    ok(&["tournament", "export", "--csv", &csv_path, "--db", &db]);
    let text = std::fs::read_to_string(&csv).expect("csv");
    assert!(text.contains("\"Lee, Ann\""), "{text}");
    assert!(text.contains("\"Bo \"\"Kid\"\"\""), "{text}");
    let rows = |v: serde_json::Value| {
        let mut rows: Vec<String> = v
            .as_array()
            .expect("array")
            .iter()
            .map(|r| {
                let mut r = r.clone();
                r.as_object_mut().expect("object").remove("rank");
                r.to_string()
            })
            .collect();
        rows.sort();
        rows
    };
    let from_event = rows(json(&["tournament", "standings", "--json", "--db", &db]));
    let from_file = rows(json(&[
        "tournament",
        "standings",
        "--results",
        &csv_path,
        "--json",
    ]));
    assert_eq!(from_file, from_event, "{text}");
    assert_eq!(from_event.len(), 3);
}

/// An entrant added with surname, given name, country, club and EGD PIN keeps them in the
/// event's database (a new migration's columns), lists them, and the EGF file writes them;
/// a country that is no two-letter code is refused.
#[test]
fn entrant_details_are_stored_and_exported() {
    let dir = tempfile::tempdir().expect("dir");
    let db = new_event(
        dir.path(),
        "s",
        &format!("{HEAD}format = {{ kind = \"swiss\", rounds = 1 }}\n"),
    );
    ok(&[
        "tournament",
        "add",
        "Ann Lee",
        "--rank",
        "4d",
        "--surname",
        "Lee",
        "--given-name",
        "Ann",
        "--country",
        "de",
        "--club",
        "Berlin",
        "--egd-pin",
        "12345678",
        "--db",
        &db,
    ]);
    ok(&["tournament", "add", "Bo", "--rank", "1k", "--db", &db]);
    assert!(!ingo(&[
        "tournament",
        "add",
        "Cy",
        "--country",
        "Germany",
        "--db",
        &db
    ])
    .status
    .success());
    let e = json(&["tournament", "entrants", "--json", "--db", &db]);
    assert_eq!(
        (
            &e[0]["surname"],
            &e[0]["given_name"],
            &e[0]["country"],
            &e[0]["club"],
            &e[0]["egd_pin"]
        ),
        (
            &serde_json::json!("Lee"),
            &serde_json::json!("Ann"),
            &serde_json::json!("DE"),
            &serde_json::json!("Berlin"),
            &serde_json::json!(12_345_678)
        )
    );
    assert_eq!(e[1]["club"], serde_json::Value::Null);
    ok(&["tournament", "pair", "--db", &db]);
    ok(&["tournament", "result", "1", "1", "B+R", "--db", &db]);
    let egf = dir.path().join("r.h");
    ok(&[
        "tournament",
        "export",
        "--egf",
        &egf.display().to_string(),
        "--db",
        &db,
    ]);
    let text = std::fs::read_to_string(&egf).expect("egf");
    let ann = text
        .lines()
        .find(|l| l.contains("Lee Ann"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        ann.contains(" DE Berlin ") && ann.ends_with("|12345678"),
        "{text}"
    );
}

/// `import` enters a registration list (CSV with a header) in one transaction: every player
/// with rank, names, country, club and PIN, or, when one line cannot be entered, none.
#[test]
fn a_registration_list_is_imported_whole_or_not_at_all() {
    let dir = tempfile::tempdir().expect("dir");
    let db = new_event(
        dir.path(),
        "s",
        &format!("{HEAD}format = {{ kind = \"mcmahon\", rounds = 3, bar = \"3d\" }}\n"),
    );
    let list = write(
        dir.path(),
        "list.csv",
        "name,rank,surname,given_name,country,club,egd_pin\n\"Lee, Ann\",2k,Lee,Ann,de,Berlin,12345678\nBo,3d,,,,,\n",
    );
    let out = ok(&["tournament", "import", &list, "--db", &db]);
    assert!(out.contains("added 2 players"), "{out}");
    let e = json(&["tournament", "entrants", "--json", "--db", &db]);
    assert_eq!(e.as_array().map(Vec::len), Some(2));
    assert_eq!(
        (
            &e[0]["name"],
            &e[0]["rank"],
            &e[0]["country"],
            &e[0]["egd_pin"]
        ),
        (
            &serde_json::json!("Lee, Ann"),
            &serde_json::json!("2k"),
            &serde_json::json!("DE"),
            &serde_json::json!(12_345_678)
        )
    );
    // Cy is new but Bo is already entered: nothing of this list is entered.
    let again = write(dir.path(), "again.csv", "name,rank\nCy,1k\nBo,3d\n");
    let out = ingo(&["tournament", "import", &again, "--db", &db]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("\"Bo\" is already entered"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let e = json(&["tournament", "entrants", "--json", "--db", &db]);
    assert_eq!(e.as_array().map(Vec::len), Some(2));
}
