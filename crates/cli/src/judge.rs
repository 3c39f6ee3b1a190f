//! `ingo judge`: replay game records under Ing's rules (or another preset), stop at the first
//! illegal move, and report; `--count` counts the final position.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use ingo_rules::{Phase, Point, Preset, Rules, Score};
use ingo_sgf::{replay, replay_line, Line, Record, ReplayMode};
use serde_json::{json, Value};
use walkdir::WalkDir;

/// What to judge and how.
pub struct JudgeOptions {
    /// Rules for every record instead of the record's own `RU` (Ing when absent).
    pub rules: Option<Rules>,
    /// The preset name reported with `rules`.
    pub rules_name: Option<&'static str>,
    /// Count the final position even when the game has not ended.
    pub count: bool,
    /// Stones to take off as dead before counting (GTP names).
    pub dead: Vec<String>,
    /// Accept moves that only a ko rule refuses (誤提), reporting them.
    pub tolerant: bool,
    /// Judge every line of play of the game tree, not only the main line.
    pub variations: bool,
    /// Judge the end of each game that ended by a count and compare with its `RE`.
    pub verify: bool,
}

/// Totals over a run.
#[derive(Default)]
pub struct Summary {
    /// Files read (or tried).
    pub files: usize,
    /// Games judged.
    pub games: usize,
    /// Moves replayed.
    pub moves: usize,
    /// Games stopped by an illegal move.
    pub illegal: usize,
    /// Files that could not be read.
    pub errors: usize,
    /// `--verify`: the judged counts against the recorded ones.
    pub verify: crate::verify::VerifyTotals,
}

impl Summary {
    /// The exit code: 2 when a file could not be read, 1 when a record has an illegal move, 0
    /// when every file was judged cleanly.
    pub fn exit_code(&self) -> u8 {
        if self.errors > 0 {
            2
        } else if self.illegal > 0 {
            1
        } else {
            0
        }
    }
}

/// The `.sgf` files named by `inputs`: files as given, folders searched recursively, sorted;
/// and what could not be searched or read, one line each (`path: why`).
///
/// A folder is walked whatever its name (`x.sgf/` too). Inside a folder, what cannot be read (a
/// dangling symbolic link, a link loop, a folder without permission) and `.sgf` names that are
/// not regular files (a FIFO, a device) are skipped with a warning, and the rest is judged; a
/// folder given with no `.sgf` file in it is an error, as judging nothing is not a verdict.
pub fn find_files(inputs: &[PathBuf]) -> (Vec<PathBuf>, Vec<String>, Vec<(PathBuf, String)>) {
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    let mut errors = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut found: Vec<PathBuf> = Vec::new();
            for entry in WalkDir::new(input).follow_links(true) {
                let entry = match entry {
                    Ok(entry) => entry,
                    Err(e) => {
                        let path = e.path().map_or_else(
                            || input.display().to_string(),
                            |p| p.display().to_string(),
                        );
                        let why = if e.loop_ancestor().is_some() {
                            "a symbolic link loop".to_string()
                        } else {
                            e.io_error()
                                .map_or_else(|| e.to_string(), std::io::Error::to_string)
                        };
                        skipped.push(format!("{path}: skipped, cannot be read: {why}"));
                        continue;
                    }
                };
                let is_sgf = entry
                    .path()
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("sgf"));
                let kind = entry.file_type();
                if is_sgf && kind.is_file() {
                    found.push(entry.into_path());
                } else if is_sgf && !kind.is_dir() {
                    skipped.push(format!(
                        "{}: skipped, not a regular file",
                        entry.path().display()
                    ));
                }
            }
            if found.is_empty() {
                errors.push((
                    input.clone(),
                    format!(
                        "{}: a folder with no .sgf file in it (nothing judged)",
                        input.display()
                    ),
                ));
            }
            found.sort();
            files.extend(found);
        } else {
            files.push(input.clone());
        }
    }
    (files, skipped, errors)
}

/// The `.sgf` files named by `inputs` (see [`find_files`]), what was skipped left out: the
/// corpus of `ingo bench`.
pub fn collect_files(inputs: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    Ok(find_files(inputs).0)
}

pub fn parse_points(names: &[String], width: usize, height: usize) -> anyhow::Result<Vec<Point>> {
    let mut out = Vec::new();
    for n in names
        .iter()
        .flat_map(|s| s.split([',', ' ']))
        .filter(|s| !s.is_empty())
    {
        out.push(Point::from_gtp(n, width, height).with_context(|| {
            format!("--dead: {n:?} is not a point of a {width}x{height} board")
        })?);
    }
    Ok(out)
}

fn halves_json(h: i32) -> Value {
    if h % 2 == 0 {
        json!(h / 2)
    } else {
        json!(h as f64 / 2.0)
    }
}

/// The JSON `result` object of a count.
pub fn result_json(score: &Score) -> Value {
    json!({
        "black_area": score.area.black,
        "white_area": score.area.white,
        "shared": score.shared,
        "komi": halves_json(score.komi.halves()),
        "margin": halves_json(score.margin_halves),
        "winner": score.winner.letter().to_string(),
    })
}

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Playing => "playing",
        Phase::Suspended => "suspended",
        Phase::Ended => "ended",
    }
}

/// Judges one game of a file; returns its JSON report and text line.
fn judge_record(
    file: &Path,
    game_index: Option<usize>,
    record: &Record,
    line: Option<&Line>,
    opts: &JudgeOptions,
    summary: &mut Summary,
) -> anyhow::Result<Judged> {
    let (rules, rules_name) = match opts.rules {
        Some(r) => (r, opts.rules_name.unwrap_or("custom")),
        None => {
            let preset = record.rules.map_or(Preset::Ing, |m| m.preset);
            (record.rules_or(Preset::Ing), preset.name())
        }
    };
    let mode = if opts.tolerant {
        ReplayMode::Tolerant
    } else {
        ReplayMode::Strict
    };
    let rep = match line {
        Some(l) => replay_line(record, l, rules, mode)?,
        None => replay(record, rules, mode)?,
    };
    let total_moves = line.map_or(record.moves.len(), |l| l.moves.len());
    summary.games += 1;
    summary.moves += rep.played;
    let game = &rep.game;
    let illegal = rep.illegal.as_ref().map(|m| {
        json!({
            "move_number": m.move_number,
            "color": m.color.letter().to_string(),
            "point": m.point_gtp,
            "reason": m.reason.code(),
        })
    });
    if rep.illegal.is_some() {
        summary.illegal += 1;
    }
    let score = if game.phase() == Phase::Ended && opts.dead.is_empty() {
        game.score()
    } else if opts.count || (game.phase() == Phase::Ended && !opts.dead.is_empty()) {
        let b = game.board();
        let dead = parse_points(&opts.dead, b.width(), b.height())?;
        Some(game.count(&dead))
    } else {
        None
    };
    let mut obj = json!({
        "file": file.display().to_string(),
        "rules": rules_name,
        "size": record.width,
        "moves": total_moves,
        "illegal": illegal,
        "phase": phase_name(game.phase()),
        "result": score.as_ref().map(result_json),
    });
    if let Value::Object(map) = &mut obj {
        if let Some(i) = game_index {
            map.insert("game".into(), json!(i + 1));
        }
        if let Some(l) = line {
            map.insert("variation".into(), json!(l.to_string()));
        }
        if record.width != record.height {
            map.insert("height".into(), json!(record.height));
        }
        if !rep.forced.is_empty() {
            let forced: Vec<Value> = rep
                .forced
                .iter()
                .map(|m| json!({"move_number": m.move_number, "color": m.color.letter().to_string(), "point": m.point_gtp, "reason": m.reason.code()}))
                .collect();
            map.insert("forced".into(), Value::Array(forced));
        }
        if !rep.inserted_passes.is_empty() {
            map.insert("inserted_passes".into(), json!(rep.inserted_passes.len()));
        }
        if let Some(m) = record.rules {
            if !m.exact && opts.rules.is_none() {
                map.insert("rules_note".into(), json!(m.note));
            }
        }
        if !record.warnings.is_empty() {
            let w: Vec<String> = record.warnings.iter().map(|w| w.to_string()).collect();
            map.insert("warnings".into(), json!(w));
        }
    }
    if let (Some(why), Value::Object(map)) = (&record.incomplete, &mut obj) {
        map.insert("incomplete".into(), json!(true));
        map.insert("incomplete_reason".into(), json!(why));
    }
    let mut text = format!(
        "{}{}{}: {}{rules_name}, {}x{}, {} moves, ",
        file.display(),
        game_index
            .map(|i| format!(" (game {})", i + 1))
            .unwrap_or_default(),
        line.map(|l| format!(" ({l})")).unwrap_or_default(),
        record
            .incomplete
            .as_ref()
            .map(|why| format!("INCOMPLETE RECORD, only what comes before was read: {why}; "))
            .unwrap_or_default(),
        record.width,
        record.height,
        total_moves
    );
    match &rep.illegal {
        Some(m) => text.push_str(&format!("illegal {m}")),
        None => text.push_str(&format!("legal, {}", phase_name(game.phase()))),
    }
    if !rep.forced.is_empty() {
        text.push_str(&format!(
            ", {} ko retakes accepted (tolerant)",
            rep.forced.len()
        ));
    }
    if let Some(s) = &score {
        text.push_str(&format!(
            ", Black {} White {} shared {}, {}",
            s.area.black,
            s.area.white,
            s.shared,
            s.result_string()
        ));
    }
    if opts.verify && rep.illegal.is_none() {
        if let Some(v) = crate::verify::verify(game, record.info.result.as_deref()) {
            summary.verify.add(&v);
            text.push_str(&v.text());
            if let Value::Object(map) = &mut obj {
                map.insert("verify".into(), v.json());
            }
        }
    }
    let warnings = line
        .map_or(&record.warnings, |l| &l.warnings)
        .iter()
        .map(|w| w.to_string())
        .collect();
    Ok(Judged {
        json: obj,
        text,
        warnings,
    })
}

/// What [`judge_record`] says of one game: its JSON object, its text line, and the warnings to
/// print (on standard error) with the text.
struct Judged {
    json: Value,
    text: String,
    warnings: Vec<String>,
}

/// Judges every file, printing one line (or JSON object) per game on `out` and the warnings and
/// errors of the text output on `err`, and returns the totals. With `json_out`, an unreadable
/// file is a JSON object with an `error` field on `out`, like the verdicts.
pub fn run(
    inputs: &[PathBuf],
    json_out: bool,
    opts: &JudgeOptions,
    out: &mut impl Write,
    err: &mut impl Write,
) -> anyhow::Result<Summary> {
    let read_options = ingo_sgf::ReadOptions::from_env()?;
    let (files, skipped, folder_errors) = find_files(inputs);
    let mut summary = Summary::default();
    for line in &skipped {
        writeln!(err, "warning: {line}")?;
    }
    for (path, line) in &folder_errors {
        summary.errors += 1;
        if json_out {
            writeln!(
                out,
                "{}",
                json!({"file": path.display().to_string(), "error": line})
            )?;
        } else {
            writeln!(err, "error: {line}")?;
        }
    }
    let progress = if files.len() > 1 {
        let bar = ProgressBar::new(files.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} files {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    for file in &files {
        summary.files += 1;
        let read = ingo_sgf::parse_file_with(file, &read_options);
        let records = match read {
            Ok(r) => r,
            Err(e) => {
                summary.errors += 1;
                progress.suspend(|| {
                    if json_out {
                        let obj =
                            json!({"file": file.display().to_string(), "error": e.to_string()});
                        writeln!(out, "{obj}")
                    } else {
                        // The reader's errors name the file already.
                        writeln!(err, "error: {e}")
                    }
                })?;
                progress.inc(1);
                continue;
            }
        };
        let many = records.len() > 1;
        for (i, record) in records.iter().enumerate() {
            let lines: Vec<Result<Option<Line>, ingo_sgf::SgfError>> = if opts.variations {
                record.lines().map(|l| l.map(Some)).collect()
            } else {
                vec![Ok(None)]
            };
            for line in lines {
                let judged = line.map_err(anyhow::Error::from).and_then(|l| {
                    judge_record(
                        file,
                        many.then_some(i),
                        record,
                        l.as_ref(),
                        opts,
                        &mut summary,
                    )
                });
                match judged {
                    Ok(judged) => progress.suspend(|| {
                        if json_out {
                            writeln!(out, "{}", judged.json)
                        } else {
                            // The verdict first, then what the reader noticed, each on its own
                            // stream; flushed in that order so a terminal shows them together.
                            writeln!(out, "{}", judged.text)?;
                            if !judged.warnings.is_empty() {
                                out.flush()?;
                                for w in &judged.warnings {
                                    writeln!(err, "{}: warning: {w}", file.display())?;
                                }
                            }
                            Ok(())
                        }
                    })?,
                    Err(e) => {
                        summary.errors += 1;
                        progress.suspend(|| {
                            if json_out {
                                let obj = json!({"file": file.display().to_string(), "error": format!("{e:#}")});
                                writeln!(out, "{obj}")
                            } else {
                                writeln!(err, "{}: error: {e:#}", file.display())
                            }
                        })?;
                    }
                }
            }
        }
        progress.set_message(format!(
            "{} illegal, {} errors",
            summary.illegal, summary.errors
        ));
        progress.inc(1);
    }
    progress.finish_and_clear();
    out.flush()?;
    if files.len() > 1 || !skipped.is_empty() {
        writeln!(
            err,
            "judged {} files: {} games, {} moves, {} with an illegal move, {} errors{}",
            summary.files,
            summary.games,
            summary.moves,
            summary.illegal,
            summary.errors,
            if skipped.is_empty() {
                String::new()
            } else {
                format!(", {} skipped", skipped.len())
            }
        )?;
    }
    if opts.verify {
        let totals = summary.verify.text();
        if !json_out {
            writeln!(out, "{totals}")?;
        }
        eprintln!("{totals}");
    }
    Ok(summary)
}
