//! The SGF corpus (`shared/sgf-corpus/`, 5,786 real records) read and replayed: docs/rules.md §10 T19.
//!
//! * every game played under Ing's rules replays under `Rules::ing()` without an illegal move;
//! * every professional game with a recorded illegal ko retake is refused exactly there;
//! * every file of the corpus is read and replayed without a panic, and the games that do not
//!   replay cleanly are exactly the pinned ones of `tests/data/corpus_refused.tsv`, with their
//!   reasons (a summary is printed: `cargo test -p ingo-sgf --test corpus -- --nocapture`).

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

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
    declared(name, "Count")
}

/// A number a data file declares in a header line `# KEY: N`.
fn declared(name: &str, key: &str) -> usize {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("data file");
    let prefix = format!("# {key}: ");
    text.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("{name} has no '# {key}: N' line"))
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

/// What a game of the corpus came to, when not a clean replay: one row of
/// `tests/data/corpus_refused.tsv` (tab-separated: path, game index, verdict, reason, the refused
/// move as `number colour point` or `-`).
fn refusal_row(rel: &str, game: usize, verdict: &str, reason: &str, at: &str) -> String {
    format!("{rel}\t{game}\t{verdict}\t{reason}\t{at}")
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

/// Reads and replays one file: its number of games, and a row for each game (or for the file)
/// that did not replay cleanly.
fn read_and_replay(path: &Path, rel: &str) -> (usize, Vec<String>) {
    let records = match parse_file(path) {
        Ok(r) => r,
        Err(e) => {
            return (
                0,
                vec![refusal_row(rel, 0, "unreadable", &error_category(&e), "-")],
            )
        }
    };
    let rows = records
        .iter()
        .enumerate()
        .filter_map(|(game, record)| {
            let rules = record.rules_or(Preset::Ing);
            match replay(record, rules, ReplayMode::Strict) {
                Ok(r) => r.illegal.map(|i| {
                    let at = format!("{} {} {}", i.move_number, i.color, i.point_gtp);
                    refusal_row(rel, game, "illegal", i.reason.code(), &at)
                }),
                Err(e) => Some(refusal_row(
                    rel,
                    game,
                    "not-replayed",
                    &error_category(&e),
                    "-",
                )),
            }
        })
        .collect();
    (records.len(), rows)
}

/// Every file of the corpus is read and replayed (under the rules its `RU` maps to, Ing's when
/// it has none or an unknown one) without a panic, and the games that do not replay cleanly are
/// exactly those of `tests/data/corpus_refused.tsv`, each with its reason and move: a record
/// newly refused, newly accepted or refused for another reason fails, named by its path.
#[test]
fn whole_corpus_reads_and_replays_as_pinned() {
    let dir = corpus_dir();
    let files = sgf_files(&dir);
    let index_rows = std::fs::read_to_string(dir.join("INDEX.tsv"))
        .expect("INDEX.tsv")
        .lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .count();
    assert_eq!(files.len(), index_rows, "files found vs INDEX.tsv rows");

    let mut panics = Vec::new();
    let mut measured = Vec::new();
    let mut games = 0usize;
    for path in &files {
        let rel = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .display()
            .to_string();
        match catch_unwind(AssertUnwindSafe(|| read_and_replay(path, &rel))) {
            Err(_) => panics.push(rel),
            Ok((n, rows)) => {
                games += n;
                measured.extend(rows);
            }
        }
    }
    assert!(panics.is_empty(), "panics on:\n{}", panics.join("\n"));
    measured.sort();

    let mut by_reason: BTreeMap<String, usize> = BTreeMap::new();
    for row in &measured {
        let cols: Vec<&str> = row.split('\t').collect();
        *by_reason
            .entry(format!("{} {}", cols[2], cols[3]))
            .or_default() += 1;
    }
    println!(
        "SGF corpus: {} files, {games} games, {} replayed cleanly under their own RU (Ing when \
         none); not clean: {by_reason:?}",
        files.len(),
        games
            - measured
                .iter()
                .filter(|r| !r.contains("\tunreadable\t"))
                .count()
    );

    let pinned = data_lines("corpus_refused.tsv");
    let pinned_games = declared("corpus_refused.tsv", "Games");
    let missing: Vec<&String> = pinned.iter().filter(|r| !measured.contains(r)).collect();
    let new: Vec<&String> = measured.iter().filter(|r| !pinned.contains(r)).collect();
    if games != pinned_games || !missing.is_empty() || !new.is_empty() {
        // The measured table, for review and copying over the pinned one.
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("corpus_refused.tsv");
        std::fs::write(&out, measured.join("\n") + "\n").expect("write the measured table");
        panic!(
            "the corpus no longer replays as pinned in tests/data/corpus_refused.tsv \
             ({games} games read, {pinned_games} pinned; measured table in {}):\n\
             pinned but not measured (newly accepted, or refused otherwise):\n{}\n\
             measured but not pinned (newly refused, or refused otherwise):\n{}",
            out.display(),
            missing
                .iter()
                .map(|r| format!("  {r}"))
                .collect::<Vec<_>>()
                .join("\n"),
            new.iter()
                .map(|r| format!("  {r}"))
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
}
