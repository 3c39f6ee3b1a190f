//! Errors (the record could not be read or replayed) and warnings (it was read, with a remark).

use std::fmt;
use std::path::{Path, PathBuf};

use ingo_rules::{BoardSizeError, Preset};

/// A place in the text: 1-based line and column (the column counts characters, not bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, in characters.
    pub column: usize,
}

impl Position {
    /// The position of byte `offset` of `text` (clamped to the text; rounded down to a character).
    pub fn of_offset(text: &str, offset: usize) -> Position {
        let mut end = offset.min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let before = &text[..end];
        let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        Position { line, column }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// An error reading an SGF file or building or replaying one of its records.
///
/// It names the file (when it was read from one) and the game of the collection (when the
/// collection holds several), then says what went wrong:
/// `games/x.sgf: line 3, column 7: property value not closed (missing "]")`, or for a variation
/// `games/x.sgf: variation 3 at move 57: node 60: invalid B[zz]`.
#[derive(Debug)]
pub struct SgfError {
    file: Option<PathBuf>,
    game: Option<usize>,
    line: Option<String>,
    kind: ErrorKind,
}

impl SgfError {
    /// An error of `kind`, with no file or game named yet.
    pub fn new(kind: ErrorKind) -> SgfError {
        SgfError {
            file: None,
            game: None,
            line: None,
            kind,
        }
    }

    /// The same error, naming `path` as the file it came from.
    pub fn in_file(mut self, path: impl Into<PathBuf>) -> SgfError {
        self.file = Some(path.into());
        self
    }

    /// The same error, naming the game (1-based) of the collection it came from.
    pub fn in_game(mut self, game: usize) -> SgfError {
        self.game = Some(game);
        self
    }

    /// The same error, naming the line of play it came from (`variation 3 at move 57`, see
    /// [`crate::Line`]).
    pub fn in_line(mut self, line: impl Into<String>) -> SgfError {
        self.line = Some(line.into());
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The file, when the record was read from one.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The game of the collection (1-based), when the collection holds more than one.
    pub fn game(&self) -> Option<usize> {
        self.game
    }

    /// The line of play, when the error is about one variation.
    pub fn line(&self) -> Option<&str> {
        self.line.as_deref()
    }
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{}: ", file.display())?;
        }
        if let Some(game) = self.game {
            write!(f, "game {game}: ")?;
        }
        if let Some(line) = &self.line {
            write!(f, "{line}: ")?;
        }
        write!(f, "{}", self.kind)
    }
}

impl std::error::Error for SgfError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.kind)
    }
}

impl From<ErrorKind> for SgfError {
    fn from(kind: ErrorKind) -> Self {
        SgfError::new(kind)
    }
}

/// What went wrong, without the file and game (see [`SgfError`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file could not be read.
    #[error("cannot read the file: {0}")]
    Io(#[source] std::io::Error),
    /// The text is not SGF. The position is given when it could be found.
    #[error("{}{reason}", match .position { Some(p) => format!("{p}: "), None => String::new() })]
    Syntax {
        /// Where the parser stopped.
        position: Option<Position>,
        /// Why.
        reason: SyntaxReason,
    },
    /// A line of play is too long to be held safely (the tree is dropped recursively).
    #[error("a line of play has {depth} nodes, more than the {max} this reader accepts")]
    TooDeep {
        /// Nodes in the longest line found.
        depth: usize,
        /// The limit, [`crate::MAX_DEPTH`].
        max: usize,
    },
    /// The game tree records another game than Go (`GM` other than 1).
    #[error("not a game of Go: GM[{0}]")]
    NotGo(String),
    /// `SZ` is not a board size that ingo supports (1 to 25 on each side).
    #[error("unsupported board size SZ[{0}]: each side must be 1 to 25")]
    BoardSize(String),
    /// A property value that must be understood (a move, a setup point, the size) is invalid.
    #[error("node {node}: invalid {property}[{value}]")]
    BadValue {
        /// The node of the main line (0 = root).
        node: usize,
        /// The property identifier.
        property: String,
        /// The value as written (after unescaping).
        value: String,
    },
    /// Setup properties (`AB`, `AW`, `AE`, `PL`) inside the game, after a move: ingo replays a game
    /// from one setup position and cannot change the board in the middle of its history.
    #[error("node {node}: setup after move {after_move} cannot be replayed")]
    SetupInGame {
        /// The node of the main line holding the setup.
        node: usize,
        /// The number of moves of the main line before it.
        after_move: usize,
    },
    /// The board of the setup could not be built.
    #[error(transparent)]
    Board(#[from] BoardSizeError),
    /// The path names something that is not a regular file (a FIFO, a device, a socket, a
    /// folder): refused before it is opened, as reading it could wait or run for ever.
    #[error("{0}, not a regular file: SGF is read from regular files only")]
    NotAFile(&'static str),
    /// The input is past one of the reader's [`crate::Limits`].
    #[error(
        "more {} than the limit of {limit} ({found} or more); raise it with the environment \
         variable {}=N",
        .what.noun(),
        .what.env_var()
    )]
    TooLarge {
        /// Which limit.
        what: Limit,
        /// How many were found (a lower bound: counting stops past the limit).
        found: u64,
        /// The limit.
        limit: u64,
    },
    /// An environment variable that sets a limit holds something that is not a whole number.
    #[error("{variable}={value:?} is not a whole number")]
    BadLimit {
        /// The variable.
        variable: &'static str,
        /// Its value.
        value: String,
    },
    /// The lenient reader found a game tree, but most of the text is not SGF (random bytes, a
    /// binary file): nothing was read that could be judged.
    #[error("not an SGF record: {removed} of its {total} bytes are not SGF and no game tree could be read")]
    NotSgf {
        /// Bytes the repairs would remove.
        removed: usize,
        /// Bytes of the (decoded) text.
        total: usize,
    },
    /// No game can start from the setup (a string with no liberty).
    #[error("setup: {0}")]
    Setup(#[from] ingo_rules::SetupError),
}

/// One of the reader's [`crate::Limits`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// Bytes of the file or text.
    Bytes,
    /// Game trees of the collection.
    Games,
    /// Nodes, all game trees and variations together.
    Nodes,
}

impl Limit {
    /// What is counted, in a word (plural).
    pub fn noun(self) -> &'static str {
        match self {
            Limit::Bytes => "bytes",
            Limit::Games => "game trees",
            Limit::Nodes => "nodes",
        }
    }

    /// The environment variable that sets this limit ([`crate::Limits::from_env`]).
    pub fn env_var(self) -> &'static str {
        match self {
            Limit::Bytes => "INGO_SGF_MAX_BYTES",
            Limit::Games => "INGO_SGF_MAX_GAMES",
            Limit::Nodes => "INGO_SGF_MAX_NODES",
        }
    }
}

/// Why the text could not be parsed as SGF.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum SyntaxReason {
    /// A property value is not closed before the end of the text.
    #[error("property value not closed (missing \"]\")")]
    UnclosedValue,
    /// A property identifier holds a character that is not ASCII.
    #[error("invalid character in a property identifier")]
    BadIdentifier,
    /// The text ends inside a property identifier.
    #[error("the text ends inside a property identifier")]
    UnfinishedIdentifier,
    /// A game tree opens with no node before it.
    #[error("\"(\" with no node before it")]
    TreeWithoutNode,
    /// A `)` closes no game tree.
    #[error("unmatched \")\"")]
    UnmatchedClose,
    /// A property stands outside a node (a missing `;`).
    #[error("property outside a node (missing \";\")")]
    PropertyOutsideNode,
    /// The text ends before every game tree is closed.
    #[error("unexpected end of the text (missing \")\")")]
    UnexpectedEnd,
    /// `GM` is not a number, or is given twice.
    #[error("invalid GM property")]
    BadGameType,
    /// The text holds no game tree.
    #[error("no game tree found")]
    NoGameTree,
    /// Text that cannot be SGF stands outside property values (prose before the game tree,
    /// the second `]` of `BR[3d]]`, a stray character between properties).
    #[error("stray text outside a property value")]
    StrayText,
    /// Any other reason given by the parser.
    #[error("invalid SGF")]
    Other,
}

/// A remark about a record that was read anyway: a repair, a guess, a value ignored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Warning {
    /// `CA` names a character set that is not known; the text was read as `used`.
    #[error("unknown charset CA[{declared}]; read as {used}")]
    UnknownCharset {
        /// The `CA` value.
        declared: String,
        /// The encoding used instead.
        used: &'static str,
    },
    /// `CA` names a legacy character set but the bytes are valid UTF-8, so they were read as UTF-8.
    #[error("CA[{declared}] but the bytes are UTF-8; read as UTF-8")]
    CharsetMismatch {
        /// The `CA` value.
        declared: String,
    },
    /// No `CA` and the bytes are not UTF-8: read as `used`, the SGF default (ISO-8859-1) unless
    /// the caller gave another; names in other scripts may be garbled.
    #[error("no CA property and the bytes are not UTF-8; read as {used}")]
    NoCharset {
        /// The encoding used.
        used: &'static str,
    },
    /// Bytes that are not valid in `charset` were replaced by U+FFFD.
    #[error("bytes that are not valid {charset} were replaced by U+FFFD")]
    Replaced {
        /// The encoding the text was decoded with.
        charset: &'static str,
    },
    /// The lenient reader repaired the text here.
    #[error("{position}: {repair}")]
    Repaired {
        /// Where, in the decoded text.
        position: Position,
        /// What was done.
        repair: Repair,
    },
    /// More repairs than are listed one by one.
    #[error("{0} more repairs not listed")]
    MoreRepairs(usize),
    /// Even after repairs the parser stopped early; what it read before that was kept.
    #[error("{reason}: the rest of the text was skipped")]
    Damaged {
        /// Why the parser stopped.
        reason: SyntaxReason,
    },
    /// `KM` was read in a non-standard way, or ignored.
    #[error("KM[{raw}]: {note}")]
    Komi {
        /// The value as written.
        raw: String,
        /// What was done with it.
        note: String,
    },
    /// `HA` is not a whole number and was ignored.
    #[error("HA[{0}] is not a whole number; ignored")]
    Handicap(String),
    /// `RU` was mapped to the nearest preset.
    #[error("RU[{raw}] read as the {} preset: {note}", .preset.name())]
    RulesMapped {
        /// The value as written.
        raw: String,
        /// The preset chosen.
        preset: Preset,
        /// How near it is.
        note: &'static str,
    },
    /// `RU` names no rules that ingo knows.
    #[error("unknown rules RU[{0}]")]
    UnknownRules(String),
    /// A node holds more than one move; they were kept in order, each counted as a move (a
    /// replay puts a pass between two moves of the same colour).
    #[error("node {0}: more than one move in one node; each is read as a move, in order")]
    TwoMoves(usize),
    /// `AB` and `AW` of one node name the same point; `AW` applies after `AB`, so the point
    /// holds a White stone.
    #[error("node {node}: AB[{point}] and AW[{point}] in one node; the White stone is kept")]
    SetupConflict {
        /// The node of the main line.
        node: usize,
        /// The point, as SGF writes it.
        point: String,
    },
    /// `SZ`, `KM`, `RU` or `HA` given again with another value, in the same node or a later one:
    /// the first value is used.
    #[error("node {node}: {value} ignored: {first} came first and is used")]
    Duplicate {
        /// The node of the main line holding the second value.
        node: usize,
        /// The property ignored, as written (`KM[7.5]`).
        value: String,
        /// The property used, as written (`KM[6.5]`).
        first: String,
    },
    /// A node holds setup and a move; they were applied in the order written.
    #[error("node {0}: setup and a move in one node; applied in the order written")]
    SetupAndMove(usize),
    /// A property value was ignored.
    #[error("node {node}: {property}[{value}] ignored: {why}")]
    Ignored {
        /// The node of the main line.
        node: usize,
        /// The property identifier.
        property: String,
        /// The value as written.
        value: String,
        /// Why.
        why: &'static str,
    },
}

/// A repair made by the lenient reader.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Repair {
    /// Text that cannot be part of SGF was removed (for example the second `]` of `BR[3d]]`, or
    /// text before the first game tree).
    #[error("removed stray text {0:?}")]
    RemovedJunk(String),
    /// A property value with no identifier was removed.
    #[error("removed a value with no property identifier")]
    RemovedStrayValue,
    /// A `;` was inserted before properties that stood outside a node.
    #[error("inserted a missing \";\"")]
    InsertedNode,
    /// An empty node was inserted where a variation `(` followed `(` with no node between.
    #[error("inserted an empty node between \"((\"")]
    InsertedEmptyNode,
    /// The text ends inside a property; that property was dropped.
    #[error("the text ends inside a property (truncated file?); that property was dropped")]
    DroppedUnfinished,
    /// Missing `)` were added at the end of the text.
    #[error("added {0} missing \")\" at the end of the text")]
    AddedClose(usize),
}
