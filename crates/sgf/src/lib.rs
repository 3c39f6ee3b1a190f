//! SGF game records for ingo: reading real-world files and replaying them under Ing's rules.
//!
//! * **Text → tree** is [sgf-parse]'s job (FF\[1]–FF\[4], mixed-case FF\[3] identifiers such as
//!   `CoPyright`, unknown properties kept). This crate adds what it lacks: character sets
//!   (byte-order marks, `CA`, a fallback for undeclared legacy bytes), error positions (line and
//!   column), a depth guard, and a few safe repairs for damaged files in lenient mode.
//! * **Tree → [`Record`]**: size, komi (Fox's ×100 values included), handicap, `RU` mapped to a
//!   [`Preset`](ingo_rules::Preset), game information, setup, and the main line as
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
mod lines;
mod record;
mod replay;
mod syntax;
mod write;

use std::path::Path;

pub use error::{ErrorKind, Position, Repair, SgfError, SyntaxReason, Warning};
pub use lines::{replay_line, Departure, Line, Lines};
pub use record::{map_rules, GameInfo, Record, RecordedMove, RulesMapping, SetupEvent};
pub use replay::{replay, replay_moves, IllegalMove, InsertedPass, Replay, ReplayMode};
/// The SGF parser this crate builds on, re-exported for [`Record::sgf_root`].
pub use sgf_parse;
pub use write::{
    preset_of, rules_sgf_name, write, write_collection, write_game, write_tree, MoveInfo, WriteInfo,
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
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            lenient: true,
            charset: None,
        }
    }
}

impl ReadOptions {
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
    let decoded = decode::decode(bytes, options.charset.as_deref());
    parse_decoded(&decoded.text, options, decoded.warnings, false)
}

/// Reads every game of the SGF file at `path`, leniently; errors name the file.
///
/// # Errors
/// When the file cannot be read, or as [`parse_bytes`].
pub fn parse_file(path: impl AsRef<Path>) -> Result<Vec<Record>, SgfError> {
    parse_file_with(path, &ReadOptions::default())
}

/// Reads every game of the SGF file at `path` with `options`; errors name the file.
///
/// # Errors
/// When the file cannot be read, or as [`parse_bytes`].
pub fn parse_file_with(
    path: impl AsRef<Path>,
    options: &ReadOptions,
) -> Result<Vec<Record>, SgfError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| SgfError::new(ErrorKind::Io(e)).in_file(path))?;
    parse_bytes(&bytes, options).map_err(|e| e.in_file(path))
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
    if fast_path {
        if let Some(games) = fast::records(text, MAX_DEPTH) {
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
    let trees = if options.lenient {
        let repaired = syntax::repair(text);
        if !repaired.found_tree {
            return Err(syntax_error(None, SyntaxReason::NoGameTree).into());
        }
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
                warnings.push(Warning::Damaged {
                    reason: syntax::reason(&e),
                });
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
    records(trees, warnings)
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
