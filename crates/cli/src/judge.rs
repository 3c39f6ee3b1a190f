//! `ingo judge`: replay game records under Ing's rules (or another preset), stop at the first
//! illegal move, and report; `--count` counts the final position.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use ingo_rules::{Phase, Point, Preset, Score};
use ingo_sgf::{replay, replay_line, Line, Record, ReplayMode};
use serde_json::{json, Value};

/// What to judge and how.
pub struct JudgeOptions {
    /// The preset for every record instead of the record's own `RU` (Ing when absent); its
    /// name is the one reported.
    pub rules: Option<Preset>,
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
        Some(p) => (p.rules(), p.name()),
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
        "phase": game.phase().as_str(),
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
        None => text.push_str(&format!("legal, {}", game.phase())),
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
        if let Some(v) = crate::verify::verify(game, record) {
            summary.verify.add(&v);
            text.push_str(&v.text());
            if let Value::Object(map) = &mut obj {
                map.insert("verify".into(), v.json());
            }
        } else if let Some(why) = crate::verify::not_a_count(record) {
            text.push_str(&format!(", not verified: {why}"));
            if let Value::Object(map) = &mut obj {
                map.insert("verify_skipped".into(), why.into());
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
pub fn judge_all(
    inputs: &[PathBuf],
    json_out: bool,
    opts: &JudgeOptions,
    out: &mut impl Write,
    err: &mut impl Write,
) -> anyhow::Result<Summary> {
    let read_options = ingo_sgf::ReadOptions::from_env()?;
    let (files, skipped, folder_errors) = ingo_sgf::find_sgf_files(inputs);
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
                                let obj = json!({"file": file.display().to_string(), "error": crate::errors::describe(&e)});
                                writeln!(out, "{obj}")
                            } else {
                                writeln!(err, "{}: error: {}", file.display(), crate::errors::describe(&e))
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
        // With the records' lines (text) or beside the JSON lines, once: a terminal shows both
        // streams, and the totals written to both appeared twice.
        let totals = summary.verify.text();
        if json_out {
            writeln!(err, "{totals}")?;
        } else {
            writeln!(out, "{totals}")?;
        }
    }
    Ok(summary)
}

/// Arguments of `ingo judge`.
#[derive(Args)]
pub struct JudgeArgs {
    /// SGF files, or folders searched recursively for *.sgf.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// One JSON object per game on standard output.
    #[arg(long)]
    json: bool,
    /// Rules preset for every record, instead of the record's RU (Ing when RU is absent).
    #[arg(long)]
    rules: Option<Preset>,
    /// Count the final position even when the game has not ended (every stone alive unless --dead).
    #[arg(long)]
    count: bool,
    /// Dead stones to take off before counting, GTP names separated by commas (C3,D4).
    #[arg(long, value_delimiter = ',')]
    dead: Vec<String>,
    /// Accept ko retakes that Ing's rules refuse (mistaken captures, 誤提) and list them.
    #[arg(long)]
    tolerant: bool,
    /// Judge every line of play (each variation from the root to a leaf), not only the main line.
    #[arg(long)]
    variations: bool,
    /// For every record that ended by a count (RE like B+3), judge the end of the game (dead
    /// stones, seki, neutral points filled in turn) and compare the count with RE.
    #[arg(long)]
    verify: bool,
}

/// Runs `ingo judge` with the flags of `args`; the exit code says whether every record was judged
/// cleanly (see [`Summary::exit_code`]).
///
/// # Errors
/// When standard output or error cannot be written, or the size limits of the environment are
/// not numbers.
pub fn run(args: JudgeArgs) -> anyhow::Result<ExitCode> {
    let opts = JudgeOptions {
        rules: args.rules,
        count: args.count,
        dead: args.dead,
        tolerant: args.tolerant,
        variations: args.variations,
        verify: args.verify,
    };
    let summary = judge_all(
        &args.paths,
        args.json,
        &opts,
        &mut io::stdout().lock(),
        &mut io::stderr().lock(),
    )?;
    Ok(ExitCode::from(summary.exit_code()))
}
