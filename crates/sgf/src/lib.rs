//! SGF game records for ingo: reading real-world files and replaying them under Ing's rules.
//!
//! * **Text → tree** is [sgf-parse]'s job (FF\[1]–FF\[4], mixed-case FF\[3] identifiers such as
//!   `CoPyright`, unknown properties kept). This crate adds what it lacks: character sets
//!   (byte-order marks, `CA`, a fallback for undeclared legacy bytes), error positions (line and
//!   column), a depth guard, and a few safe repairs for damaged files in lenient mode.
//! * **Tree → [`Record`]**: size, komi (Fox's ×100 values included; none when a record names
//!   neither komi nor rules), handicap, `RU` mapped to a [`Preset`](ingo_rules::Preset) (an Ing
//!   Cup event without `RU` is Ing's rules), game information, setup, and the main line as
//!   [`RecordedMove`]s (`B[]`, and `B[tt]` on boards up to 19×19, are passes).
//! * **[`Record`] → [`Game`](ingo_rules::Game)**: [`replay`] plays the main line through
//!   ingo-rules, strictly or tolerating ko violations, and says where and why a move is refused.
//!   [`Record::lines`] lists every line of play (the main line and each variation) and
//!   [`replay_line`] replays one.
//! * **Writing**: [`write()`] gives back the text of a record read from a file, losslessly (every
//!   property and variation kept); [`write_game`] writes a game played through
//!   [`Game`](ingo_rules::Game) in ingo's own format (`RU[GOE]`, passes as `B[]`/`W[]`, handicap
//!   passes as the `W[]` moves they are, dead stones as territory markup), which reads back into
//!   the same game.
//!
//! ```
//! use ingo_rules::{Preset, Rules};
//! use ingo_sgf::{parse, replay, ReplayMode};
//!
//! let text = "(;GM[1]FF[4]SZ[9]RU[GOE]KM[8]PB[Ing]PW[Chang-ki];B[ee];W[gc];B[tt];W[])";
//! let records = parse(text)?;
//! let record = &records[0];
//! assert_eq!((record.width, record.height), (9, 9));
//! assert_eq!(record.rules.map(|m| m.preset), Some(Preset::Ing));
//! assert_eq!(record.info.players.black.as_deref(), Some("Ing"));
//! assert_eq!(record.moves.len(), 4); // B[tt] and W[] are passes
//!
//! let replayed = replay(record, record.rules_or(Preset::Ing), ReplayMode::Strict)?;
//! assert!(replayed.is_clean());
//! assert_eq!(replayed.game.consecutive_passes(), 2);
//! # Ok::<(), ingo_sgf::SgfError>(())
//! ```
//!
//! Files are read with [`parse_file`], which settles the character set first:
//!
//! ```no_run
//! let records = ingo_sgf::parse_file("games/ing-cup-1.sgf")?;
//! for warning in &records[0].warnings {
//!     eprintln!("{warning}");
//! }
//! # Ok::<(), ingo_sgf::SgfError>(())
//! ```
//!
//! No input panics: every problem is an [`SgfError`] (the record cannot be used) or a
//! [`Warning`] (it was read, with a remark).
//!
//! [sgf-parse]: https://docs.rs/sgf-parse
#![deny(missing_docs)]

mod decode;
mod error;
mod fast;
mod files;
mod lines;
mod names;
mod penalty;
mod record;
mod replay;
mod syntax;
mod write;

use std::path::Path;

pub use error::{ErrorKind, Limit, Position, Repair, SgfError, SyntaxReason, Warning};
pub use files::{counted_result, find_sgf_files};
pub use lines::{replay_line, Departure, Line, Lines};
pub use names::{map_rules, rules_sgf_name, RulesMapping};
pub use record::{GameInfo, NotACount, Record, RecordedMove, SetupEvent, FOX_EVEN_KOMI};
pub use replay::{
    replay, replay_file, replay_moves, FileReplay, FileReplayError, IllegalMove, InsertedPass,
    Replay, ReplayMode,
};
/// The SGF parser this crate builds on, re-exported for [`Record::sgf_root`].
pub use sgf_parse;
pub use write::{
    preset_of, today, write, write_collection, write_game, write_tree, MoveInfo, WriteInfo,
};

/// The most nodes in one line of play (root to leaf, variations included) that the reader
/// accepts. sgf-parse nests each node inside the one before it and frees the tree recursively,
/// which costs about 160 bytes of stack per node in a debug build: 5,000 stays within a 1 MiB
/// stack, and real games (a few hundred moves) are far below it.
pub const MAX_DEPTH: usize = 5_000;

/// Repairs listed one by one in a record's warnings; the rest are counted.
const MAX_LISTED_REPAIRS: usize = 10;

/// How to read SGF text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadOptions {
    /// Read damaged real-world files: skip stray text outside property values (KGS `BR[3d]]`,
    /// junk before or after the game trees), add a missing `;` before a root node or a missing
    /// `)` at the end, drop a property cut off by the end of a truncated file, and if the parser
    /// still stops early keep what it read. Each repair is a [`Warning`]. When `false`, any
    /// syntax problem is an error with its position. Default: `true`.
    pub lenient: bool,
    /// The character set for bytes that have no byte-order mark and no `CA` and are not UTF-8
    /// (a label such as `GBK` or `Shift_JIS`). Default: `None`, which reads them as ISO-8859-1,
    /// the SGF default.
    pub charset: Option<String>,
    /// The most bytes, game trees and nodes one read accepts. Default: [`Limits::DEFAULT`].
    pub limits: Limits,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            lenient: true,
            charset: None,
            limits: Limits::DEFAULT,
        }
    }
}

/// The most one read accepts. A file past a limit is refused with [`ErrorKind::TooLarge`],
/// which names the limit and the environment variable that raises it, before the records are
/// built: without limits a 50 MB file of 2.6 million tiny games took 2.2 GB of memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most bytes of a file or text.
    pub max_bytes: u64,
    /// The most game trees of a collection.
    pub max_games: u64,
    /// The most nodes, all game trees and variations together.
    pub max_nodes: u64,
}

impl Limits {
    /// 16 MiB, 20,000 games, 2,000,000 nodes: far above any real record or collection (a
    /// 19×19 game is a few kilobytes and a few hundred nodes), small enough that the records
    /// built stay within a few hundred megabytes.
    pub const DEFAULT: Limits = Limits {
        max_bytes: 16 << 20,
        max_games: 20_000,
        max_nodes: 2_000_000,
    };

    /// The limit of `what`.
    pub fn get(&self, what: Limit) -> u64 {
        match what {
            Limit::Bytes => self.max_bytes,
            Limit::Games => self.max_games,
            Limit::Nodes => self.max_nodes,
        }
    }

    /// [`Limits::DEFAULT`], each raised or lowered by its environment variable when set
    /// (`INGO_SGF_MAX_BYTES`, `INGO_SGF_MAX_GAMES`, `INGO_SGF_MAX_NODES`; see [`Limit::env_var`]).
    ///
    /// # Errors
    /// When a variable is set to something that is not a whole number.
    pub fn from_env() -> Result<Limits, SgfError> {
        let mut limits = Limits::DEFAULT;
        for what in [Limit::Bytes, Limit::Games, Limit::Nodes] {
            let Some(raw) = std::env::var_os(what.env_var()) else {
                continue;
            };
            let value = raw
                .to_str()
                .and_then(|s| s.trim().replace('_', "").parse::<u64>().ok())
                .ok_or_else(|| {
                    SgfError::new(ErrorKind::BadLimit {
                        variable: what.env_var(),
                        value: raw.to_string_lossy().into_owned(),
                    })
                })?;
            match what {
                Limit::Bytes => limits.max_bytes = value,
                Limit::Games => limits.max_games = value,
                Limit::Nodes => limits.max_nodes = value,
            }
        }
        Ok(limits)
    }

    /// An error when `found` is above the limit of `what`.
    fn check(&self, what: Limit, found: u64) -> Result<(), ErrorKind> {
        let limit = self.get(what);
        if found > limit {
            Err(ErrorKind::TooLarge { what, found, limit })
        } else {
            Ok(())
        }
    }
}

impl ReadOptions {
    /// The default options with the limits of the environment ([`Limits::from_env`]).
    ///
    /// # Errors
    /// As [`Limits::from_env`].
    pub fn from_env() -> Result<ReadOptions, SgfError> {
        Ok(ReadOptions {
            limits: Limits::from_env()?,
            ..ReadOptions::default()
        })
    }

    /// Options that refuse any syntax problem (still accepting FF\[3] mixed-case identifiers).
    pub fn strict() -> ReadOptions {
        ReadOptions {
            lenient: false,
            ..ReadOptions::default()
        }
    }
}

/// Reads every game of an SGF collection, leniently ([`ReadOptions::default`]).
///
/// # Errors
/// When the text holds no game tree, a tree is not Go, its size is unsupported, a move value is
/// invalid, or a line of play is deeper than [`MAX_DEPTH`].
pub fn parse(text: &str) -> Result<Vec<Record>, SgfError> {
    parse_with(text, &ReadOptions::default())
}

/// Reads every game of an SGF collection with `options` (the text is already decoded, so `CA`
/// is not used).
///
/// # Errors
/// As [`parse`]; in strict mode also any syntax error, with its line and column.
pub fn parse_with(text: &str, options: &ReadOptions) -> Result<Vec<Record>, SgfError> {
    parse_decoded(text, options, Vec::new(), true)
}

/// Reads every game of an SGF collection from raw bytes, settling the character set first: a
/// byte-order mark (UTF-8, UTF-16LE/BE), else UTF-8 when the bytes are valid UTF-8, else the `CA`
/// charset, else [`ReadOptions::charset`] or ISO-8859-1. Each guess is a [`Warning`].
///
/// # Errors
/// As [`parse_with`].
pub fn parse_bytes(bytes: &[u8], options: &ReadOptions) -> Result<Vec<Record>, SgfError> {
    options.limits.check(Limit::Bytes, bytes.len() as u64)?;
    let decoded = decode::decode(bytes, options.charset.as_deref());
    parse_decoded(&decoded.text, options, decoded.warnings, true)
}

/// [`parse_bytes`] without its fast path for well-formed text: every file goes through the
/// repairs, the depth guard and sgf-parse. The result is the same (that is the point: the tests
/// and the `sgf_parse` fuzz target check it), only slower; not meant for other uses.
///
/// # Errors
/// As [`parse_bytes`].
#[doc(hidden)]
pub fn parse_bytes_full_path(bytes: &[u8], options: &ReadOptions) -> Result<Vec<Record>, SgfError> {
    options.limits.check(Limit::Bytes, bytes.len() as u64)?;
    let decoded = decode::decode(bytes, options.charset.as_deref());
    parse_decoded(&decoded.text, options, decoded.warnings, false)
}

/// Reads every game of the SGF file at `path`, leniently, within [`Limits::DEFAULT`]; errors
/// name the file.
///
/// # Errors
/// When the file cannot be read or is not a regular file, or as [`parse_bytes`].
pub fn parse_file(path: impl AsRef<Path>) -> Result<Vec<Record>, SgfError> {
    parse_file_with(path, &ReadOptions::default())
}

/// Reads every game of the SGF file at `path` with `options`; errors name the file.
///
/// # Errors
/// When the file cannot be read or is not a regular file ([`read_file`]), or as
/// [`parse_bytes`].
pub fn parse_file_with(
    path: impl AsRef<Path>,
    options: &ReadOptions,
) -> Result<Vec<Record>, SgfError> {
    let path = path.as_ref();
    let bytes = read_file(path, &options.limits)?;
    parse_bytes(&bytes, options).map_err(|e| e.in_file(path))
}

/// The bytes of the regular file at `path`, at most `limits.max_bytes` of them; errors name the
/// file.
///
/// Anything that is not a regular file (a FIFO, a device such as `/dev/zero`, a socket, a
/// folder) is refused before it is opened: opening a FIFO waits for a writer, for ever if none
/// comes, and a device may never end. The file is checked again once open, in case the path was
/// replaced in between, and read through a bound, in case it grows.
///
/// # Errors
/// [`ErrorKind::Io`] when the file cannot be read, [`ErrorKind::NotAFile`] when it is not a
/// regular file, [`ErrorKind::TooLarge`] when it holds more than `limits.max_bytes`.
pub fn read_file(path: impl AsRef<Path>, limits: &Limits) -> Result<Vec<u8>, SgfError> {
    use std::io::Read;
    let path = path.as_ref();
    let fail = |kind: ErrorKind| SgfError::new(kind).in_file(path);
    let io = |e: std::io::Error| fail(ErrorKind::Io(e));
    let regular = |meta: &std::fs::Metadata| {
        if meta.is_file() {
            Ok(())
        } else {
            Err(fail(ErrorKind::NotAFile(file_kind(&meta.file_type()))))
        }
    };
    regular(&std::fs::metadata(path).map_err(io)?)?;
    let file = std::fs::File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    regular(&meta)?;
    limits.check(Limit::Bytes, meta.len()).map_err(fail)?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limits.max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    limits
        .check(Limit::Bytes, bytes.len() as u64)
        .map_err(fail)?;
    Ok(bytes)
}

/// What a file that is not a regular file is, in a few words.
fn file_kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
    }
    if t.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// Reads decoded text. `fast_path`: try [`fast::records`] first (always, except to test it against
/// the full path).
fn parse_decoded(
    text: &str,
    options: &ReadOptions,
    mut warnings: Vec<Warning>,
    fast_path: bool,
) -> Result<Vec<Record>, SgfError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    options.limits.check(Limit::Bytes, text.len() as u64)?;
    let (games, nodes) = syntax::count_trees(text, &options.limits);
    options.limits.check(Limit::Games, games)?;
    options.limits.check(Limit::Nodes, nodes)?;
    if fast_path {
        if let Some(games) = record::records(text, MAX_DEPTH) {
            let several = games.len() > 1;
            return with_warnings(games.into_iter(), several, warnings);
        }
    }
    let strict = sgf_parse::ParseOptions {
        convert_mixed_case_identifiers: true,
        lenient: false,
    };
    let syntax_error = |position, reason| ErrorKind::Syntax { position, reason };
    let check_depth = |t: &str| {
        let depth = syntax::nesting_depth(t);
        if depth > MAX_DEPTH {
            Err(ErrorKind::TooDeep {
                depth,
                max: MAX_DEPTH,
            })
        } else {
            Ok(())
        }
    };
    // Why the last game is incomplete, when the text was cut off.
    let mut incomplete: Option<String> = None;
    let trees = if options.lenient {
        let repaired = syntax::repair(text);
        if !repaired.found_tree {
            return Err(syntax_error(None, SyntaxReason::NoGameTree).into());
        }
        // Random bytes hold a `(;` now and then, and the repairs would make an empty game of it
        // (100 KB of them were judged "19x19, 0 moves, legal"): when most of the text had to go,
        // no game tree was read, only found. Text before the first game tree (a mail, a
        // program's banner) is allowed more room than junk inside and after the game trees.
        let kept = repaired.text.len();
        let after_first = repaired.removed - repaired.leading;
        if after_first > kept || repaired.removed > 4 * kept {
            return Err(ErrorKind::NotSgf {
                removed: repaired.removed,
                total: text.len(),
            }
            .into());
        }
        incomplete = repaired.repairs.iter().find_map(|(position, r)| match r {
            Repair::DroppedUnfinished => Some(format!(
                "the text ends inside a property at {position} (cut off?); that property was dropped"
            )),
            Repair::AddedClose(k) => Some(format!(
                "the text ends before the game tree is closed ({k} \")\" missing)"
            )),
            _ => None,
        });
        let extra = repaired.repairs.len().saturating_sub(MAX_LISTED_REPAIRS);
        warnings.extend(
            repaired
                .repairs
                .into_iter()
                .take(MAX_LISTED_REPAIRS)
                .map(|(position, repair)| Warning::Repaired { position, repair }),
        );
        if extra > 0 {
            warnings.push(Warning::MoreRepairs(extra));
        }
        check_depth(&repaired.text)?;
        match sgf_parse::parse_with_options(&repaired.text, &strict) {
            Ok(trees) => trees,
            Err(e) => {
                let reason = syntax::reason(&e);
                incomplete.get_or_insert_with(|| {
                    format!("the parser stopped early ({reason}); the rest of the text was skipped")
                });
                warnings.push(Warning::Damaged { reason });
                let lenient = sgf_parse::ParseOptions {
                    convert_mixed_case_identifiers: true,
                    lenient: true,
                };
                sgf_parse::parse_with_options(&repaired.text, &lenient)
                    .map_err(|e| syntax_error(None, syntax::reason(&e)))?
            }
        }
    } else {
        // sgf-parse folds some damage into property identifiers (`BR[3d]];B[aa]` puts the move
        // into the root node), so whatever the lenient reader would repair is an error here.
        // Truncation is left to sgf-parse, whose position (the unclosed `[`, the end) is exact.
        let repaired = syntax::repair(text);
        if !repaired.found_tree {
            return Err(syntax_error(None, SyntaxReason::NoGameTree).into());
        }
        if let Some((position, repair)) = repaired.repairs.first() {
            if !matches!(repair, Repair::DroppedUnfinished | Repair::AddedClose(_)) {
                return Err(syntax_error(Some(*position), syntax::repair_reason(repair)).into());
            }
        }
        check_depth(text)?;
        sgf_parse::parse_with_options(text, &strict)
            .map_err(|e| syntax_error(syntax::locate(text, &e), syntax::reason(&e)))?
    };
    let mut records = records(trees, warnings)?;
    if let Some(last) = records.last_mut() {
        last.incomplete = incomplete;
    }
    Ok(records)
}

/// The records of the game trees read, each with the reader's `warnings` before its own.
fn records(
    trees: Vec<sgf_parse::GameTree>,
    warnings: Vec<Warning>,
) -> Result<Vec<Record>, SgfError> {
    let several = trees.len() > 1;
    with_warnings(trees.into_iter().map(Record::from_tree), several, warnings)
}

/// The records of a collection, the first failure (if `several` games, naming its game) as the
/// error; each record with the reader's `warnings` before its own.
fn with_warnings(
    games: impl Iterator<Item = Result<Record, ErrorKind>>,
    several: bool,
    warnings: Vec<Warning>,
) -> Result<Vec<Record>, SgfError> {
    games
        .enumerate()
        .map(|(i, game)| {
            let mut record = game.map_err(|kind| {
                let err = SgfError::new(kind);
                if several {
                    err.in_game(i + 1)
                } else {
                    err
                }
            })?;
            if !warnings.is_empty() {
                let mut all = warnings.clone();
                all.append(&mut record.warnings);
                record.warnings = all;
            }
            Ok(record)
        })
        .collect()
}
