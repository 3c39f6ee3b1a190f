//! A match: N games, in parallel if asked, written to an output directory that a later run
//! resumes.

use std::{
    collections::{BTreeMap, VecDeque},
    fs,
    io::Write,
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicBool, Ordering},
        mpsc, Mutex, PoisonError,
    },
    thread,
};

use ingo_rules::Game;
use serde_json::{json, Value};

use crate::{
    config::MatchConfig,
    error::RefereeError,
    game::{play_game, GameReport, Outcome},
    record::GameRecord,
    summary::MatchSummary,
};

/// What the referee reports while a match runs, for a progress bar. Every method has a default
/// that does nothing. The methods are called on the thread that called
/// [`run_match`], one at a time, even when games run in parallel.
pub trait Progress {
    /// The match starts: `done` of the `planned` games are already finished (a resumed match).
    fn match_started(&mut self, planned: u32, done: u32) {
        let _ = (planned, done);
    }

    /// Game `index` starts; `attempt` is 1, or more when it is replayed after a void.
    fn game_started(&mut self, index: u32, attempt: u32) {
        let _ = (index, attempt);
    }

    /// A move was played in game `index`, which now has `moves` moves.
    fn move_played(&mut self, index: u32, moves: usize) {
        let _ = (index, moves);
    }

    /// Attempt `attempt` of game `index` was void and will be replayed.
    fn game_voided(&mut self, index: u32, attempt: u32, reason: &str) {
        let _ = (index, attempt, reason);
    }

    /// Game `index` is finished and written; `summary` is the match so far.
    fn game_finished(&mut self, record: &GameRecord, summary: &MatchSummary) {
        let _ = (record, summary);
    }
}

/// A [`Progress`] that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {}

/// The SGF file name of game `index`: `game-0001.sgf`.
pub fn game_file_name(index: u32) -> String {
    format!("game-{index:04}.sgf")
}

/// The JSON sidecar of game `index`: `game-0001.json`, a [`GameRecord`].
pub fn record_file_name(index: u32) -> String {
    format!("game-{index:04}.json")
}

/// The SGF file of the `attempt`-th voided (and replayed) attempt of game `index`:
/// `game-0001-void-1.sgf`.
pub fn void_file_name(index: u32, attempt: u32) -> String {
    format!("game-{index:04}-void-{attempt}.sgf")
}

/// The state file of a match directory.
pub const MATCH_FILE: &str = "match.json";

const TMP_PREFIX: &str = ".tmp-";
const FORMAT: &str = "ingo-referee match 1";

/// Writes `contents` to `dir/name` atomically: to a temporary file in the same directory,
/// flushed to disk, then renamed over the target, so that the target either does not exist
/// or is complete, whenever the process is killed.
///
/// # Errors
/// [`RefereeError::Io`].
pub fn write_atomic(dir: &Path, name: &str, contents: &[u8]) -> Result<(), RefereeError> {
    let tmp = dir.join(format!("{TMP_PREFIX}{}-{name}", std::process::id()));
    let target = dir.join(name);
    let written = fs::File::create(&tmp).and_then(|mut f| {
        f.write_all(contents)?;
        f.sync_all()
    });
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(RefereeError::io(&tmp)(e));
    }
    fs::rename(&tmp, &target).map_err(RefereeError::io(&target))
}

/// Plays (or resumes) a match and returns its results.
///
/// **Output directory** ([`MatchConfig::out_dir`], created if needed):
///
/// * `match.json`: the format, the number of games, and the configuration's
///   [fingerprint](MatchConfig::fingerprint). A run on a directory whose `match.json` has
///   another fingerprint fails with [`RefereeError::ConfigMismatch`] before anything is played.
/// * `game-0001.sgf`, …: one SGF per finished game (void-and-excluded games included, with
///   `RE[Void]`), and `game-0001.json` beside it, its [`GameRecord`]. Both are written
///   atomically, the JSON first, so that **a game is finished exactly when its SGF exists**.
/// * `game-0001-void-1.sgf`, …: voided attempts that were replayed; their number is how many
///   replays the game has used.
/// * `results.json` ([`MatchSummary`]), `results.tsv` (one line per game) and `results.txt`
///   (the table), rewritten atomically after every game.
///
/// **Resume:** run again with the same configuration (`games` and `parallel` may change) and
/// the same directory. Games whose SGF exists are read back (from the JSON sidecar, or from the
/// SGF's `RE` if the sidecar is missing) and not played again; every other game, including
/// those that were being played when the previous run was killed, is played from the start,
/// with the replays its void files show as used. Leftover temporary files are removed. Only one
/// run may use a directory at a time.
///
/// Games are played `parallel` at a time on threads, each with its own engine processes;
/// colours and handicap depend only on the game's index ([`MatchConfig::assignment`]).
///
/// # Errors
/// A bad configuration, a mismatched `match.json`, an engine that cannot be started or cannot
/// play the board size, or a file that cannot be written: the match stops (games already
/// running are finished and written first). Engine failures during games are results, not
/// errors.
pub fn run_match(
    config: &MatchConfig,
    progress: &mut dyn Progress,
) -> Result<MatchSummary, RefereeError> {
    run_match_until(config, progress, &AtomicBool::new(false))
}

/// [`run_match`], stopped early when `stop` becomes true.
///
/// This is for a SIGTERM or SIGINT handler: it sets `stop`, then kills the engines with
/// [`ingo_gtp::engine::shut_down_engines`] (engines run in process groups of their own, so a
/// Ctrl-C does not reach them). A game whose engines die that way ends in what looks like a
/// crash; with `stop` set it is **not** written or counted, whatever its result, and no further
/// game is started. Games finished before are kept, so a later run on the same directory
/// resumes with the unfinished games.
///
/// # Errors
/// As [`run_match`], and [`RefereeError::Interrupted`] when `stop` was set before the match was
/// over.
pub fn run_match_until(
    config: &MatchConfig,
    progress: &mut dyn Progress,
    stop: &AtomicBool,
) -> Result<MatchSummary, RefereeError> {
    config.validate()?;
    let dir = &config.out_dir;
    fs::create_dir_all(dir).map_err(RefereeError::io(dir))?;
    check_match_file(config)?;
    let state = scan(config)?;
    let mut records: Vec<GameRecord> = state.done.into_values().collect();
    let pending: VecDeque<(u32, u32)> = (1..=config.games)
        .filter(|i| !records.iter().any(|r| r.index == *i))
        .map(|i| (i, state.voids.get(&i).copied().unwrap_or(0)))
        .collect();
    let done = config.games - u32::try_from(pending.len()).unwrap_or(config.games);
    progress.match_started(config.games, done);
    let summary = MatchSummary::new(config, &records);
    write_results(config, &summary)?;
    if pending.is_empty() {
        return Ok(summary);
    }

    let workers = config.parallel.min(pending.len());
    let queue = Mutex::new(pending);
    let failed = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    let mut first_error = None;
    thread::scope(|scope| {
        for _ in 0..workers {
            let (queue, failed, tx) = (&queue, &failed, tx.clone());
            let stops = Stops {
                failed,
                interrupted: stop,
            };
            let spawned = thread::Builder::new()
                .name("ingo-referee-game".into())
                .spawn_scoped(scope, move || worker(config, queue, stops, &tx));
            if let Err(e) = spawned {
                failed.store(true, Ordering::SeqCst);
                first_error.get_or_insert(RefereeError::Internal(format!(
                    "cannot start a game thread: {e}"
                )));
                break;
            }
        }
        drop(tx);
        for event in rx {
            match event {
                Event::Started { index, attempt } => progress.game_started(index, attempt),
                Event::Move { index, moves } => progress.move_played(index, moves),
                Event::Voided {
                    index,
                    attempt,
                    reason,
                } => progress.game_voided(index, attempt, &reason),
                Event::Finished(record) => {
                    records.push(*record);
                    let summary = MatchSummary::new(config, &records);
                    if let Err(e) = write_results(config, &summary) {
                        failed.store(true, Ordering::SeqCst);
                        first_error.get_or_insert(e);
                    }
                    if let Some(record) = records.last() {
                        progress.game_finished(record, &summary);
                    }
                }
                Event::Failed(e) => {
                    failed.store(true, Ordering::SeqCst);
                    first_error.get_or_insert(e);
                }
            }
        }
    });
    if let Some(e) = first_error {
        return Err(e);
    }
    let finished = u32::try_from(records.len()).unwrap_or(u32::MAX);
    if finished < config.games && stop.load(Ordering::SeqCst) {
        return Err(RefereeError::Interrupted {
            finished,
            planned: config.games,
        });
    }
    Ok(MatchSummary::new(config, &records))
}

/// What makes a worker stop taking games: another worker's error, or an interruption.
#[derive(Clone, Copy)]
struct Stops<'a> {
    failed: &'a AtomicBool,
    interrupted: &'a AtomicBool,
}

impl Stops<'_> {
    fn any(self) -> bool {
        self.failed.load(Ordering::SeqCst) || self.interrupted.load(Ordering::SeqCst)
    }
}

enum Event {
    Started {
        index: u32,
        attempt: u32,
    },
    Move {
        index: u32,
        moves: usize,
    },
    Voided {
        index: u32,
        attempt: u32,
        reason: String,
    },
    Finished(Box<GameRecord>),
    Failed(RefereeError),
}

enum Saved {
    Voided(String),
    Finished(Box<GameRecord>),
}

fn worker(
    config: &MatchConfig,
    queue: &Mutex<VecDeque<(u32, u32)>>,
    stop: Stops<'_>,
    tx: &mpsc::Sender<Event>,
) {
    loop {
        if stop.any() {
            return;
        }
        let next = queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop_front();
        let Some((index, mut voids)) = next else {
            return;
        };
        loop {
            let _ = tx.send(Event::Started {
                index,
                attempt: voids + 1,
            });
            let spec = config.game_spec(index, voids);
            let mut on_move = |g: &Game| {
                let _ = tx.send(Event::Move {
                    index,
                    moves: g.move_count(),
                });
            };
            let played = play_game(&spec, &mut on_move);
            // An interrupted game ended because its engines were killed (or could not be
            // started): its result is meaningless, so it is neither saved nor counted, and a
            // resumed match plays it again.
            if stop.interrupted.load(Ordering::SeqCst) {
                return;
            }
            match played.and_then(|report| save(config, &report, voids)) {
                Err(e) => {
                    stop.failed.store(true, Ordering::SeqCst);
                    let _ = tx.send(Event::Failed(e));
                    return;
                }
                Ok(Saved::Voided(reason)) => {
                    voids += 1;
                    let _ = tx.send(Event::Voided {
                        index,
                        attempt: voids,
                        reason,
                    });
                    if stop.any() {
                        return;
                    }
                }
                Ok(Saved::Finished(record)) => {
                    let _ = tx.send(Event::Finished(record));
                    break;
                }
            }
        }
    }
}

/// Writes a played game: a voided attempt as its void file, a finished game as its JSON
/// sidecar and then its SGF.
fn save(config: &MatchConfig, report: &GameReport, voids: u32) -> Result<Saved, RefereeError> {
    let dir = &config.out_dir;
    let sgf = report.sgf();
    if let Outcome::Void { replay: true } = report.outcome {
        write_atomic(
            dir,
            &void_file_name(report.index, voids + 1),
            sgf.as_bytes(),
        )?;
        return Ok(Saved::Voided(report.reason()));
    }
    let name = game_file_name(report.index);
    let record = GameRecord::from_report(report, &name);
    let json = serde_json::to_vec_pretty(&record).map_err(|source| RefereeError::Json {
        path: dir.join(record_file_name(report.index)),
        source,
    })?;
    write_atomic(dir, &record_file_name(report.index), &json)?;
    write_atomic(dir, &name, sgf.as_bytes())?;
    Ok(Saved::Finished(Box::new(record)))
}

fn write_results(config: &MatchConfig, summary: &MatchSummary) -> Result<(), RefereeError> {
    let dir = &config.out_dir;
    let json = serde_json::to_vec_pretty(summary).map_err(|source| RefereeError::Json {
        path: dir.join("results.json"),
        source,
    })?;
    write_atomic(dir, "results.json", &json)?;
    write_atomic(dir, "results.tsv", summary.to_tsv().as_bytes())?;
    write_atomic(dir, "results.txt", summary.to_string().as_bytes())
}

/// Creates `match.json`, or checks that the one there is this match.
fn check_match_file(config: &MatchConfig) -> Result<(), RefereeError> {
    let path = config.out_dir.join(MATCH_FILE);
    let fingerprint = config.fingerprint();
    match fs::read(&path) {
        Ok(bytes) => {
            let old: Value =
                serde_json::from_slice(&bytes).map_err(|source| RefereeError::Json {
                    path: path.clone(),
                    source,
                })?;
            let format = old.get("format").and_then(Value::as_str).unwrap_or("none");
            if format != FORMAT {
                return Err(RefereeError::ConfigMismatch {
                    path,
                    field: "format".into(),
                    was: format.to_string(),
                    now: FORMAT.to_string(),
                });
            }
            let was = old.get("config").cloned().unwrap_or(Value::Null);
            if let Some((field, was, now)) = first_difference("", &was, &fingerprint) {
                return Err(RefereeError::ConfigMismatch {
                    path,
                    field,
                    was,
                    now,
                });
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(RefereeError::io(path)(e)),
    }
    let file = json!({
        "format": FORMAT,
        "games": config.games,
        "config": fingerprint,
    });
    let bytes = serde_json::to_vec_pretty(&file).map_err(|source| RefereeError::Json {
        path: path.clone(),
        source,
    })?;
    write_atomic(&config.out_dir, MATCH_FILE, &bytes)
}

/// The first key (dotted path) where `a` and `b` differ, with both values as text.
fn first_difference(at: &str, a: &Value, b: &Value) -> Option<(String, String, String)> {
    if let (Value::Object(x), Value::Object(y)) = (a, b) {
        let keys = x.keys().chain(y.keys().filter(|k| !x.contains_key(*k)));
        for k in keys {
            let path = if at.is_empty() {
                k.clone()
            } else {
                format!("{at}.{k}")
            };
            let (va, vb) = (
                x.get(k).unwrap_or(&Value::Null),
                y.get(k).unwrap_or(&Value::Null),
            );
            if let Some(d) = first_difference(&path, va, vb) {
                return Some(d);
            }
        }
        return None;
    }
    (a != b).then(|| {
        let name = if at.is_empty() { "config" } else { at };
        (name.to_string(), a.to_string(), b.to_string())
    })
}

struct Scan {
    done: BTreeMap<u32, GameRecord>,
    voids: BTreeMap<u32, u32>,
}

/// What the output directory holds: finished games and replays used. Removes leftover
/// temporary files of killed runs.
fn scan(config: &MatchConfig) -> Result<Scan, RefereeError> {
    let dir = &config.out_dir;
    let mut finished = Vec::new();
    let mut voids: BTreeMap<u32, u32> = BTreeMap::new();
    for entry in fs::read_dir(dir).map_err(RefereeError::io(dir))? {
        let entry = entry.map_err(RefereeError::io(dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(TMP_PREFIX) {
            let _ = fs::remove_file(entry.path());
            continue;
        }
        let Some(stem) = name
            .strip_prefix("game-")
            .and_then(|s| s.strip_suffix(".sgf"))
        else {
            continue;
        };
        match stem.split_once("-void-") {
            None => {
                if let Ok(i) = stem.parse::<u32>() {
                    finished.push(i);
                }
            }
            Some((i, k)) => {
                if let (Ok(i), Ok(k)) = (i.parse::<u32>(), k.parse::<u32>()) {
                    let v = voids.entry(i).or_insert(0);
                    *v = (*v).max(k);
                }
            }
        }
    }
    let mut done = BTreeMap::new();
    for i in finished {
        if i == 0 || i > config.games {
            continue;
        }
        let record = read_record(&dir.join(record_file_name(i)), i).map_or_else(
            || GameRecord::from_sgf(&dir.join(game_file_name(i)), config, i),
            Ok,
        )?;
        done.insert(i, record);
    }
    Ok(Scan { done, voids })
}

/// The JSON sidecar of game `index`, if it is there and is that game's.
fn read_record(path: &PathBuf, index: u32) -> Option<GameRecord> {
    let bytes = fs::read(path).ok()?;
    serde_json::from_slice::<GameRecord>(&bytes)
        .ok()
        .filter(|r| r.index == index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_difference_is_named_by_its_path() {
        let a = json!({"size": 9, "engine_a": {"command": "x", "time": "none"}});
        let b = json!({"size": 9, "engine_a": {"command": "x", "time": "ing-pp:1m"}});
        assert_eq!(
            first_difference("", &a, &b),
            Some((
                "engine_a.time".to_string(),
                "\"none\"".to_string(),
                "\"ing-pp:1m\"".to_string()
            ))
        );
        assert_eq!(first_difference("", &a, &a), None);
        let c = json!({"size": 9, "engine_a": {"command": "x", "time": "none"}, "new": 1});
        assert_eq!(
            first_difference("", &a, &c).map(|d| d.0),
            Some("new".to_string())
        );
    }

    #[test]
    fn file_names() {
        assert_eq!(game_file_name(7), "game-0007.sgf");
        assert_eq!(record_file_name(12345), "game-12345.json");
        assert_eq!(void_file_name(3, 2), "game-0003-void-2.sgf");
    }
}
