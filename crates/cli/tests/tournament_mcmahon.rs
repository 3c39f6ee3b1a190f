//! A whole McMahon event through `ingo tournament`: 40 players over 6 rounds, with a
//! registration list, a late entrant, two withdrawals, byes, two forfeits, a void game, a
//! result corrected after the next round was paired, and a round taken back and paired by hand.
//! Each round is paired as the event's record (`data/tournament_mcmahon40.txt`) has it, the
//! standings are checked key by key against the record's hand computation, and the EGF results
//! file passes the validator written from the format's description and reads back into the
//! same games. On an SQLite file and on a real PostgreSQL server.

#[path = "../../tournament/tests/egf_validator/mod.rs"]
mod egf_validator;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use egf_validator::{header, validate};

fn ingo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ingo"))
        .args(args)
        .output()
        .expect("run ingo")
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// One line of a round in the record.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Row {
    Game {
        board: u64,
        black: String,
        white: String,
        result: String,
    },
    Bye(String),
}

/// One line of the record's standings: place, name, then start, main, MMS, SOS, SOSOS,
/// SODOS, wins, losses, byes, voids, forfeits.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Line {
    place: u64,
    name: String,
    keys: [u64; 11],
}

struct Record {
    rounds: Vec<Vec<Row>>,
    standings: Vec<Line>,
}

/// Reads the record: `round R` blocks of games and byes, then `standings`.
fn record() -> Record {
    let text = std::fs::read_to_string(data("tournament_mcmahon40.txt")).expect("record");
    assert!(text.starts_with("# Source:"), "the record names its source");
    let mut rounds: Vec<Vec<Row>> = Vec::new();
    let mut standings = Vec::new();
    let mut in_standings = false;
    for raw in text.lines() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with("round ") {
            rounds.push(Vec::new());
            continue;
        }
        if line == "standings" {
            in_standings = true;
            continue;
        }
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        if in_standings {
            let n = |i: usize| f[i].parse::<u64>().unwrap_or_else(|_| panic!("{raw}"));
            let mut keys = [0; 11];
            for (k, key) in keys.iter_mut().enumerate() {
                *key = n(k + 2);
            }
            standings.push(Line {
                place: n(0),
                name: f[1].to_owned(),
                keys,
            });
            continue;
        }
        let round = rounds.last_mut().expect("a round first");
        round.push(match f[..] {
            ["bye", name] => Row::Bye(name.to_owned()),
            [board, black, white, result] => Row::Game {
                board: board.parse().expect("board"),
                black: black.to_owned(),
                white: white.to_owned(),
                result: result.to_owned(),
            },
            _ => panic!("record line {raw:?}"),
        });
    }
    Record { rounds, standings }
}

const AGREEMENT: &str = r#"name = "Brno Autumn McMahon"
purpose = "Test of a whole McMahon event"
eligibility = "Open"
registration = { opens = "2026-10-01", closes = "2026-11-27" }
dates = { start = "2026-11-28", end = "2026-11-29" }
place = "CZ, Brno"
handicap = { system = "mcmahon" }
format = { kind = "mcmahon", rounds = 6, bar = "2d", floor = "15k" }
"#;

/// The event's commands, on `db`.
struct Director<'a> {
    db: &'a str,
}

impl Director<'_> {
    fn args<'b>(&'b self, args: &[&'b str]) -> Vec<&'b str> {
        let mut v = vec!["tournament"];
        v.extend_from_slice(args);
        v.extend_from_slice(&["--db", self.db, "--event", "Brno Autumn McMahon"]);
        v
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = ingo(&self.args(args));
        assert!(
            out.status.success(),
            "ingo {args:?} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8")
    }

    fn refused(&self, args: &[&str]) -> String {
        let out = ingo(&self.args(args));
        assert!(!out.status.success(), "ingo {args:?} succeeded");
        String::from_utf8(out.stderr).expect("utf-8")
    }

    fn json(&self, args: &[&str]) -> serde_json::Value {
        serde_json::from_str(&self.ok(args)).expect("json")
    }

    /// Round `round` as the event has it, as record rows (results as entered so far).
    fn round(&self, round: u64) -> Vec<Row> {
        let r = round.to_string();
        let games = self.json(&["games", "--json", "--round", &r]);
        games
            .as_array()
            .expect("array")
            .iter()
            .map(|g| {
                let s = |k: &str| g[k].as_str().unwrap_or_default().to_owned();
                match g["white"].as_str() {
                    None => Row::Bye(s("black")),
                    Some(w) => Row::Game {
                        board: g["board"].as_u64().expect("board"),
                        black: s("black"),
                        white: w.to_owned(),
                        result: s("result"),
                    },
                }
            })
            .collect()
    }

    /// Checks that round `round` is paired as `want` has it (results aside).
    fn check_pairing(&self, round: u64, want: &[Row]) {
        let strip = |rows: &[Row]| -> Vec<Row> {
            rows.iter()
                .map(|r| match r {
                    Row::Game {
                        board,
                        black,
                        white,
                        ..
                    } => Row::Game {
                        board: *board,
                        black: black.clone(),
                        white: white.clone(),
                        result: String::new(),
                    },
                    bye => bye.clone(),
                })
                .collect()
        };
        assert_eq!(
            strip(&self.round(round)),
            strip(want),
            "round {round} as paired"
        );
    }

    /// Enters the record's results of a round, `except` the boards given other results first.
    fn enter(&self, round: u64, rows: &[Row], except: &BTreeMap<u64, &str>) {
        for row in rows {
            if let Row::Game { board, result, .. } = row {
                let r = except.get(board).copied().unwrap_or(result);
                self.ok(&["result", &round.to_string(), &board.to_string(), r]);
            }
        }
    }
}

/// The EGF name of an entrant of the registration list: surname and given name, blanks inside
/// each written `_`.
fn egf_names(entrants: &serde_json::Value) -> BTreeMap<String, String> {
    entrants
        .as_array()
        .expect("array")
        .iter()
        .map(|e| {
            let s = |k: &str| e[k].as_str().expect(k).replace(' ', "_");
            (
                e["name"].as_str().expect("name").to_owned(),
                format!("{} {}", s("surname"), s("given_name")),
            )
        })
        .collect()
}

fn mcmahon_event(dir: &Path, db: &str) {
    let rec = record();
    assert_eq!(rec.rounds.len(), 6);
    let agreement = dir.join("mcmahon.toml");
    std::fs::write(&agreement, AGREEMENT).expect("write");
    let d = Director { db };
    let created = ingo(&[
        "tournament",
        "create",
        &agreement.display().to_string(),
        "--db",
        db,
    ]);
    assert!(created.status.success(), "{created:?}");
    let list = data("tournament_mcmahon40_players.csv");
    let out = d.ok(&["import", &list.display().to_string()]);
    assert!(out.contains("added 39 players"), "{out}");

    // Round 1: 39 players, a bye.
    d.ok(&["pair"]);
    d.check_pairing(1, &rec.rounds[0]);
    d.enter(1, &rec.rounds[0], &BTreeMap::new());

    // A late entrant before round 2.
    d.ok(&[
        "add",
        "Ivan Petrov",
        "--rank",
        "3k",
        "--surname",
        "Petrov",
        "--given-name",
        "Ivan",
        "--country",
        "BG",
        "--club",
        "Sofia",
    ]);
    d.ok(&["pair"]);
    d.check_pairing(2, &rec.rounds[1]);
    // Board 7 is entered the wrong way round.
    d.enter(2, &rec.rounds[1], &BTreeMap::from([(7, "W+R")]));
    // Entering another result over it is refused.
    let err = d.refused(&["result", "2", "7", "B+R"]);
    assert!(err.contains("--change"), "{err}");

    d.ok(&["withdraw", "Mia Wagner", "--reason", "ill after round 2"]);
    d.ok(&["pair"]);
    d.check_pairing(3, &rec.rounds[2]);
    // The correction, after round 3 was paired on the wrong result.
    let out = d.ok(&[
        "result",
        "2",
        "7",
        "B+R",
        "--change",
        "--reason",
        "the sheet of round 2 board 7 was read the wrong way round",
    ]);
    assert!(
        out.contains("later rounds were paired on the old result"),
        "{out}"
    );
    d.enter(3, &rec.rounds[2], &BTreeMap::new());

    d.ok(&["pair"]);
    d.check_pairing(4, &rec.rounds[3]);
    d.enter(4, &rec.rounds[3], &BTreeMap::new());

    // Round 5: the program's pairing has Jansen against Novak on board 4; the director takes
    // the round back and pairs it by hand with the Whites of boards 1 and 4 swapped.
    d.ok(&["withdraw", "Adam Lewandowski", "--reason", "left the event"]);
    d.ok(&["pair"]);
    let by_hand = &rec.rounds[4];
    let swapped: Vec<Row> = by_hand
        .iter()
        .map(|r| match r {
            Row::Game {
                board,
                black,
                result,
                ..
            } if *board == 1 || *board == 4 => {
                let other = if *board == 1 { 4 } else { 1 };
                let white = by_hand
                    .iter()
                    .find_map(|x| match x {
                        Row::Game { board, white, .. } if *board == other => Some(white.clone()),
                        _ => None,
                    })
                    .expect("board");
                Row::Game {
                    board: *board,
                    black: black.clone(),
                    white,
                    result: result.clone(),
                }
            }
            r => r.clone(),
        })
        .collect();
    d.check_pairing(5, &swapped);
    d.ok(&[
        "unpair",
        "5",
        "--reason",
        "Sanne Jansen and Jan Novak are teacher and pupil and asked not to meet",
    ]);
    let mut manual: Vec<String> = vec!["pair".into(), "--manual".into()];
    for r in by_hand {
        match r {
            Row::Game { black, white, .. } => {
                manual.extend(["--game".into(), black.clone(), white.clone()]);
            }
            Row::Bye(n) => manual.extend(["--bye".into(), n.clone()]),
        }
    }
    manual.extend([
        "--reason".into(),
        "Sanne Jansen and Jan Novak are teacher and pupil".into(),
    ]);
    let out = d.ok(&manual.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(!out.contains("rematch"), "{out}");
    d.check_pairing(5, by_hand);
    d.enter(5, by_hand, &BTreeMap::new());

    d.ok(&["pair"]);
    d.check_pairing(6, &rec.rounds[5]);
    d.enter(6, &rec.rounds[5], &BTreeMap::new());
    let err = d.refused(&["pair"]);
    assert!(err.contains("finished"), "{err}");

    // Every result as the record has it, the corrected one included.
    for (r, rows) in rec.rounds.iter().enumerate() {
        assert_eq!(&d.round(r as u64 + 1), rows, "round {}", r + 1);
    }

    // The standings, key by key against the hand computation.
    let table = d.json(&["standings", "--json"]);
    let got: Vec<Line> = table
        .as_array()
        .expect("array")
        .iter()
        .map(|s| {
            let n = |k: &str| s[k].as_u64().unwrap_or_else(|| panic!("{k}"));
            Line {
                place: n("rank"),
                name: s["player"].as_str().expect("player").to_owned(),
                keys: [
                    n("mcmahon") - n("main"),
                    n("main"),
                    n("mcmahon"),
                    n("sos"),
                    n("sosos"),
                    n("sodos"),
                    n("wins"),
                    n("losses"),
                    n("byes"),
                    n("voids"),
                    n("forfeits"),
                ],
            }
        })
        .collect();
    assert_eq!(got.len(), 40);
    for (g, w) in got.iter().zip(&rec.standings) {
        assert_eq!(g, w, "standings line {}", w.place);
    }
    assert_eq!(got.len(), rec.standings.len());
    let text = d.ok(&["standings"]);
    assert!(
        text.lines().next().is_some_and(|l| l.contains("MMS")),
        "{text}"
    );

    // The EGF results file: valid, placed as the standings, and read back into the games.
    let egf = dir.join("brno.h");
    d.ok(&["export", "--egf", &egf.display().to_string()]);
    let text = std::fs::read_to_string(&egf).expect("egf");
    let lines = validate(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let egf_name = egf_names(&d.json(&["entrants", "--json"]));
    let order: Vec<String> = lines.iter().map(|l| l.name.join(" ")).collect();
    let want: Vec<String> = rec
        .standings
        .iter()
        .map(|s| egf_name[&s.name].clone())
        .collect();
    assert_eq!(order, want, "{text}");
    for (key, value) in [
        ("EV", "Brno Autumn McMahon"),
        ("PC", "CZ, Brno"),
        ("DT", "2026-11-28,2026-11-29"),
        ("CL", "A"),
        ("TM", "180"),
        ("KM", "8"),
        ("HA", "h9"),
    ] {
        assert_eq!(header(&text, key).as_deref(), Some(value), "{key}: {text}");
    }
    let place = |name: &str| {
        order
            .iter()
            .position(|n| *n == egf_name[name])
            .unwrap_or_else(|| panic!("{name}: {text}"))
    };
    // The McMahon score is the score column.
    for (l, s) in text
        .lines()
        .filter(|l| !l.trim_start().starts_with(';') && !l.trim().is_empty())
        .zip(&rec.standings)
    {
        // Place, surname, given name, grade, country, club, then the score.
        let score = l.split_whitespace().nth(6);
        assert_eq!(score, Some(s.keys[2].to_string().as_str()), "{l}");
    }
    let games = d.json(&["games", "--json"]);
    let mut entries = 0;
    for g in games.as_array().expect("array") {
        let r = g["round"].as_u64().expect("round") as usize - 1;
        let black = g["black"].as_str().expect("black");
        let b = &lines[place(black)].entries[r];
        let Some(white) = g["white"].as_str() else {
            assert_eq!((b.opponent, b.symbol), (0, '+'), "{black}'s bye: {text}");
            continue;
        };
        let w = &lines[place(white)].entries[r];
        let result = g["result"].as_str().expect("result");
        if result == "void" {
            assert_eq!((b.opponent, w.opponent), (0, 0), "void: {text}");
            continue;
        }
        let passes = g["handicap_passes"].as_u64().expect("passes") as u32;
        let handicap = (passes > 0 || g["komi"].as_f64() != Some(8.0)).then_some(passes + 1);
        assert_eq!(
            (b.opponent, b.symbol, b.colour, b.handicap, b.unplayed),
            (
                place(white) + 1,
                if result.starts_with("B+") { '+' } else { '-' },
                Some('b'),
                handicap,
                result.contains("+F")
            ),
            "round {}: {black} against {white}: {text}",
            r + 1
        );
        entries += 2;
    }
    let in_file = lines
        .iter()
        .flat_map(|l| &l.entries)
        .filter(|e| e.opponent != 0)
        .count();
    assert_eq!(in_file, entries, "no game but the event's: {text}");
    // The late entrant has no game in round 1; the withdrawn have none after leaving.
    assert_eq!(lines[place("Ivan Petrov")].entries[0].opponent, 0);
    assert!(lines[place("Mia Wagner")].entries[2..]
        .iter()
        .all(|e| e.opponent == 0 && e.symbol == '-'));
    assert_eq!(lines[place("Jan Novak")].pin.as_deref(), Some("10000001"));

    // The log keeps the decisions with their reasons.
    let log = d.json(&["log", "--json"]);
    let log = log.as_array().expect("array");
    let with = |action: &str| -> Vec<&serde_json::Value> {
        log.iter().filter(|e| e["action"] == action).collect()
    };
    let change = with("change");
    assert_eq!(change.len(), 1, "{log:?}");
    assert_eq!(
        (&change[0]["old"], &change[0]["new"], &change[0]["round"]),
        (&"W+R".into(), &"B+R".into(), &2.into())
    );
    assert!(change[0]["reason"]
        .as_str()
        .is_some_and(|r| r.contains("wrong way round")));
    assert_eq!(with("pair-manual").len(), 19);
    assert_eq!(with("unpair").len(), 19);
    assert_eq!(with("withdraw").len(), 2);
    assert_eq!(with("add").len(), 40);
}

#[test]
fn a_mcmahon_event_of_40_players_on_sqlite() {
    let dir = tempfile::tempdir().expect("dir");
    let db = dir.path().join("brno.db").display().to_string();
    mcmahon_event(dir.path(), &db);
}

#[test]
fn a_mcmahon_event_of_40_players_on_postgres() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let test_db = rt
        .block_on(ingo_store::testing::TestDb::postgres())
        .expect("a PostgreSQL server (scripts/test starts one)");
    let dir = tempfile::tempdir().expect("dir");
    mcmahon_event(dir.path(), &test_db.url);
}
