//! The SGF corpus (`shared/sgf-corpus/`, 5,786 real records) read and replayed: docs/rules.md §10 T19.
//!
//! * every game played under Ing's rules replays under `Rules::ing()` without an illegal move;
//! * every professional game with a recorded illegal ko retake is refused exactly there;
//! * every file of the corpus is read and replayed without a panic, with a summary printed
//!   (`cargo test -p ingo-sgf --test corpus -- --nocapture`).

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::Instant;

use ingo_rules::{Color, PlayErrorKind, Preset, Rules};
use ingo_sgf::{parse_file, replay, ErrorKind, ReplayMode, SgfError};

mod common;

use common::{corpus_dir, sgf_files};

/// Lines of a data file in `tests/data/`, without `#` comments and blank lines.
fn data_lines(name: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// The declared count of a data file (its `# Count: N` header line).
fn declared_count(name: &str) -> usize {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("data file");
    text.lines()
        .find_map(|l| l.strip_prefix("# Count: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("{name} has no '# Count: N' line"))
}

/// docs/rules.md §10 T19: games refereed under Ing's rules replay without an illegal move.
#[test]
fn ing_games_replay_under_ing_rules() {
    let dir = corpus_dir();
    let paths = data_lines("ing_games.txt");
    assert_eq!(paths.len(), declared_count("ing_games.txt"));
    let mut failures = Vec::new();
    for rel in &paths {
        let path = dir.join(rel);
        let records = match parse_file(&path) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{rel}: {e}"));
                continue;
            }
        };
        if records.len() != 1 {
            failures.push(format!("{rel}: {} games, expected 1", records.len()));
            continue;
        }
        match replay(&records[0], Rules::ing(), ReplayMode::Strict) {
            Ok(r) => {
                if let Some(illegal) = &r.illegal {
                    failures.push(format!("{rel}: {illegal}"));
                } else if r.played != records[0].moves.len() {
                    failures.push(format!("{rel}: only {} moves played", r.played));
                } else if let Some(first) = r.inserted_passes.first() {
                    // A refereed record alternates: a pass the replay had to insert means two
                    // moves in a row by one colour, which the verdict would hide.
                    failures.push(format!(
                        "{rel}: {} pass(es) inserted, the first by {} before move {}",
                        r.inserted_passes.len(),
                        first.color,
                        first.before_move
                    ));
                }
            }
            Err(e) => failures.push(format!("{rel}: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} Ing games refused:\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n")
    );
}

/// docs/rules.md §10 T19: professional games with a recorded illegal ko retake are refused exactly at
/// that move, with a ko reason; tolerant replay accepts the retake and goes on.
#[test]
fn illegal_ko_retakes_are_refused() {
    let dir = corpus_dir();
    let rows = data_lines("illegal_ko.tsv");
    assert_eq!(rows.len(), declared_count("illegal_ko.tsv"));
    let mut failures = Vec::new();
    for row in &rows {
        let cols: Vec<&str> = row.split('\t').collect();
        let [rel, number, color, point, ..] = cols[..] else {
            panic!("bad row: {row}");
        };
        let number: usize = number.parse().expect("move number");
        let color: Color = color.parse().expect("colour");
        let records = parse_file(dir.join(rel)).unwrap_or_else(|e| panic!("{e}"));
        let record = &records[0];
        let strict = replay(record, Rules::ing(), ReplayMode::Strict).expect("replay");
        match &strict.illegal {
            Some(i)
                if i.move_number == number
                    && i.color == color
                    && i.point_gtp == point
                    && i.reason.is_ko()
                    && i.reason == PlayErrorKind::HotStone => {}
            other => {
                failures.push(format!(
                    "{rel}: expected move {number} {color} {point} hot-stone, got {other:?}"
                ));
                continue;
            }
        }
        let tolerant = replay(record, Rules::ing(), ReplayMode::Tolerant).expect("replay");
        let first_forced = tolerant.forced.first().map(|f| f.move_number);
        if first_forced != Some(number) {
            failures.push(format!(
                "{rel}: tolerant replay forced {:?}, expected move {number} first",
                tolerant.forced
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What a file came to.
enum Outcome {
    Unreadable(String),
    Read(Vec<GameOutcome>),
}

enum GameOutcome {
    Clean,
    Illegal(PlayErrorKind),
    NotReplayed(String),
}

fn error_category(e: &SgfError) -> String {
    match e.kind() {
        ErrorKind::Io(_) => "cannot read the file".into(),
        ErrorKind::Syntax { reason, .. } => format!("syntax: {reason}"),
        ErrorKind::TooDeep { .. } => "too deep".into(),
        ErrorKind::NotGo(_) => "not Go".into(),
        ErrorKind::BoardSize(_) => "unsupported board size".into(),
        ErrorKind::BadValue { property, .. } => format!("invalid {property} value"),
        ErrorKind::SetupInGame { .. } => "setup inside the game".into(),
        other => format!("{other}"),
    }
}

fn read_and_replay(path: &Path) -> Outcome {
    let records = match parse_file(path) {
        Ok(r) => r,
        Err(e) => return Outcome::Unreadable(error_category(&e)),
    };
    Outcome::Read(
        records
            .iter()
            .map(|record| {
                let rules = record.rules_or(Preset::Ing);
                match replay(record, rules, ReplayMode::Strict) {
                    Ok(r) => match r.illegal {
                        None => GameOutcome::Clean,
                        Some(i) => GameOutcome::Illegal(i.reason),
                    },
                    Err(e) => GameOutcome::NotReplayed(error_category(&e)),
                }
            })
            .collect(),
    )
}

/// Every file of the corpus is read and replayed (under the rules its `RU` maps to, Ing's when
/// it has none or an unknown one) without a panic.
#[test]
fn whole_corpus_reads_and_replays_without_panic() {
    let dir = corpus_dir();
    let start = Instant::now();
    let files = sgf_files(&dir);
    let index_rows = std::fs::read_to_string(dir.join("INDEX.tsv"))
        .expect("INDEX.tsv")
        .lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .count();
    assert_eq!(files.len(), index_rows, "files found vs INDEX.tsv rows");

    let mut panics = Vec::new();
    let mut unreadable: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut illegal: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    let mut not_replayed: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let (mut parsed, mut games, mut clean) = (0usize, 0usize, 0usize);
    for path in &files {
        let rel = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .display()
            .to_string();
        match catch_unwind(AssertUnwindSafe(|| read_and_replay(path))) {
            Err(_) => panics.push(rel),
            Ok(Outcome::Unreadable(why)) => unreadable.entry(why).or_default().push(rel),
            Ok(Outcome::Read(outcomes)) => {
                parsed += 1;
                for o in outcomes {
                    games += 1;
                    match o {
                        GameOutcome::Clean => clean += 1,
                        GameOutcome::Illegal(k) => {
                            illegal.entry(k.code()).or_default().push(rel.clone())
                        }
                        GameOutcome::NotReplayed(why) => {
                            not_replayed.entry(why).or_default().push(rel.clone())
                        }
                    }
                }
            }
        }
    }
    let elapsed = start.elapsed();

    let mut report = format!(
        "SGF corpus: {} files, {parsed} read ({games} games), {clean} games replayed cleanly \
         under their own RU (Ing when none), {:.1} s\n",
        files.len(),
        elapsed.as_secs_f64()
    );
    let list = |report: &mut String, title: &str, groups: Vec<(String, &Vec<String>)>| {
        if groups.is_empty() {
            return;
        }
        report.push_str(&format!("{title}:\n"));
        for (why, paths) in groups {
            let shown: Vec<&str> = paths.iter().take(3).map(String::as_str).collect();
            report.push_str(&format!(
                "  {why}: {} (e.g. {}{})\n",
                paths.len(),
                shown.join(", "),
                if paths.len() > 3 { ", …" } else { "" }
            ));
        }
    };
    list(
        &mut report,
        "refused moves by reason",
        illegal.iter().map(|(k, v)| (k.to_string(), v)).collect(),
    );
    list(
        &mut report,
        "games not replayed",
        not_replayed.iter().map(|(k, v)| (k.clone(), v)).collect(),
    );
    list(
        &mut report,
        "unreadable files",
        unreadable.iter().map(|(k, v)| (k.clone(), v)).collect(),
    );
    println!("{report}");
    assert!(panics.is_empty(), "panics on:\n{}", panics.join("\n"));
}
