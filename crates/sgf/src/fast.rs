//! A fast path for well-formed text: SGF read in one pass, straight into records.
//!
//! **Why it exists.** Judging a corpus is mostly reading SGF, and well-formed text is the common
//! case (5,781 of the shared corpus's 5,786 files). The general path is built for the rest: it
//! decodes, scans for `CA`, repairs ([`crate::syntax::repair`]) and measures nesting
//! ([`crate::syntax::nesting_depth`]) before handing the text to sgf-parse, whose lexer makes a
//! `Vec<char>` per value, a token list for the whole file and a clone of every identifier and
//! value, several allocations for every `B[pd]`. This module reads plain text once, by hand, and
//! [`records`](crate::record::records) takes the moves of each game's main line straight into [`Record`](crate::Record)s without
//! building a tree; [`Record::sgf_root`](crate::Record::sgf_root) builds sgf-parse's tree from the game's text ([`tree`])
//! only when a caller (writing, variations) asks for it. It makes the judge path several times
//! faster (`ingo-bench judge`, `BENCHMARKS.md`) and changes no result (see the promise below).
//!
//! **What it accepts.** Only the plain SGF grammar, `GameTree = "(" Node {Node} {GameTree} ")"`,
//! with ASCII whitespace between tokens, property identifiers of ASCII letters followed at once
//! by `[`, values closed by `]` (with `\` escapes), and a root node whose `GM`, if any, is
//! exactly `GM[1]` (Go). On anything else — junk, a stray `]`, a missing `;`, a node after a
//! variation, an unclosed value, a line of play deeper than the limit, non-ASCII bytes outside
//! values — [`records`](crate::record::records) and [`parse`] return `None` and the caller takes the full path (repairs,
//! depth guard, sgf-parse), which alone decides about errors, warnings and repairs. Both read
//! the text the same way ([`read`]); they differ only in what they make of it.
//!
//! **The promise.** When [`parse`] returns `Some(trees)`:
//! * `trees` equals what `sgf_parse::parse_with_options` returns for the same text in strict
//!   mode with `convert_mixed_case_identifiers` (the full path's first try), property for
//!   property, including FF\[3] mixed-case identifiers (`CoPyright` read as `CP`);
//! * [`crate::syntax::repair`] would find nothing to repair (so no warning is lost), and
//!   [`crate::syntax::nesting_depth`] is at most `max_depth`;
//!
//! and [`records`](crate::record::records) returns, game by game, what [`Record::from_tree`](crate::Record::from_tree) makes of those trees.
//!
//! `tests/fast_path.rs` checks that both paths give the same records (trees included) on every
//! file of the corpus (`INGO_FULL_CORPUS=1`; a sample otherwise), and the `sgf_parse` fuzz
//! target on arbitrary bytes.

use sgf_parse::go::{Move, Point, Prop};
use sgf_parse::{GameTree, SgfNode, SgfProp};

/// What is done with the text as it is read. The reading (and whether the text is accepted) is
/// the same whatever the sink.
pub(crate) trait Sink {
    /// Whether the properties of nodes off the main line are wanted.
    const ALL_NODES: bool;
    /// A `(`; `top` when it opens a game tree of the collection.
    fn open(&mut self, top: bool);
    /// The properties of a node, in order (the sink may take them); `main` when the node is on
    /// the main line of its game tree (the first variation at every branch). Only called for
    /// nodes of the main line unless [`Sink::ALL_NODES`].
    fn node(&mut self, props: &mut Vec<Prop>, main: bool) -> Option<()>;
    /// A `)`; `tree` is the text of the whole game tree when it closes one of the collection.
    fn close(&mut self, tree: Option<&str>) -> Option<()>;
}

/// A game tree or variation being read.
struct Level {
    /// The node depth (as [`crate::syntax::nesting_depth`] counts it) where it began.
    depth: usize,
    /// Its nodes so far.
    nodes: usize,
    /// Its variations so far.
    variations: usize,
    /// Whether it is on the main line.
    main: bool,
    /// Where its `(` stands.
    start: usize,
}

/// One property value: the bytes between `[` and `]`, and whether they hold a `\` escape.
#[derive(Clone, Copy)]
struct Value {
    start: usize,
    end: usize,
    escaped: bool,
}

/// Reads `text` into `sink` when it is well-formed SGF of Go whose lines of play are at most
/// `max_depth` nodes deep; `None` for anything else (see the module documentation), in which
/// case the sink may have been given part of the text.
pub(crate) fn read<S: Sink>(text: &str, max_depth: usize, sink: &mut S) -> Option<()> {
    let b = text.as_bytes();
    let mut levels: Vec<Level> = Vec::new();
    let mut depth = 0usize;
    let mut trees = 0usize;
    // The properties of the node being read.
    let mut props: Vec<Prop> = Vec::new();
    let mut i = skip_ws(b, 0);
    while let Some(&c) = b.get(i) {
        match c {
            b'(' => {
                // Every game tree and variation starts with a node.
                if b.get(skip_ws(b, i + 1)) != Some(&b';') {
                    return None;
                }
                let main = levels.last().is_none_or(|p| p.main && p.variations == 0);
                sink.open(levels.is_empty());
                levels.push(Level {
                    depth,
                    nodes: 0,
                    variations: 0,
                    main,
                    start: i,
                });
                i += 1;
            }
            b';' => {
                let top_level = levels.len() == 1;
                let level = levels.last_mut()?;
                // sgf-parse takes a node after a variation as one more variation; leave it to it.
                if level.variations > 0 {
                    return None;
                }
                depth += 1;
                if depth > max_depth {
                    return None;
                }
                let root = top_level && level.nodes == 0;
                let wanted = S::ALL_NODES || level.main;
                props.clear();
                let mut gm = 0;
                i = skip_ws(b, i + 1);
                while b.get(i).is_some_and(u8::is_ascii_alphabetic) {
                    let lexed = lex_property(text, i)?;
                    gm += usize::from(lexed.is_gm);
                    if wanted {
                        props.push(property(text, &lexed)?);
                    }
                    i = skip_ws(b, lexed.next);
                }
                // sgf-parse refuses a root with two GM; a single one was checked to be GM[1].
                if root && gm > 1 {
                    return None;
                }
                level.nodes += 1;
                if wanted {
                    sink.node(&mut props, level.main)?;
                }
                continue;
            }
            b')' => {
                let level = levels.pop()?;
                depth = level.depth;
                match levels.last_mut() {
                    Some(parent) => {
                        parent.variations += 1;
                        sink.close(None)?;
                    }
                    None => {
                        trees += 1;
                        sink.close(Some(text.get(level.start..=i)?))?;
                    }
                }
                i += 1;
            }
            _ => return None,
        }
        i = skip_ws(b, i);
    }
    (levels.is_empty() && trees > 0).then_some(())
}

/// Builds sgf-parse's tree.
#[derive(Default)]
struct TreeSink {
    /// The nodes of the open sequences (their properties), the innermost last.
    nodes: Vec<Vec<Prop>>,
    /// Per open game tree or variation: where its nodes begin in `nodes`, and its variations.
    open: Vec<(usize, Vec<SgfNode<Prop>>)>,
    trees: Vec<GameTree>,
}

impl Sink for TreeSink {
    const ALL_NODES: bool = true;

    fn open(&mut self, _top: bool) {
        self.open.push((self.nodes.len(), Vec::new()));
    }

    fn node(&mut self, props: &mut Vec<Prop>, _main: bool) -> Option<()> {
        // Moved into a vector of the exact size: one allocation per node, none to grow.
        let mut own = Vec::with_capacity(props.len());
        own.append(props);
        self.nodes.push(own);
        Some(())
    }

    fn close(&mut self, _tree: Option<&str>) -> Option<()> {
        let (first, variations) = self.open.pop()?;
        // The first node, with the rest of the sequence and the variations below it.
        let mut children = variations;
        for props in self.nodes.drain(first..).rev() {
            children = vec![SgfNode::new(props, children, false)];
        }
        let mut node = children.pop()?;
        match self.open.last_mut() {
            Some((_, parent)) => parent.push(node),
            None => {
                node.is_root = true;
                self.trees.push(GameTree::GoGame(node));
            }
        }
        Some(())
    }
}

/// Reads `text` into sgf-parse's trees when it is well-formed SGF of Go whose lines of play are
/// at most `max_depth` nodes deep; `None` for anything else (see the module documentation).
pub(crate) fn parse(text: &str, max_depth: usize) -> Option<Vec<GameTree>> {
    let mut sink = TreeSink::default();
    read(text, max_depth, &mut sink)?;
    Some(sink.trees)
}

/// The tree of one game tree's text that [`records`](crate::record::records) accepted (so the fast path takes it).
pub(crate) fn tree(text: &str) -> SgfNode<Prop> {
    let tree = parse(text, crate::MAX_DEPTH).and_then(|trees| trees.into_iter().next());
    debug_assert!(tree.is_some(), "a game tree read once reads again");
    match tree {
        Some(GameTree::GoGame(root)) => root,
        // Not reached: `records` read this very text. sgf-parse's own reading, just in case.
        _ => {
            let options = sgf_parse::ParseOptions::default();
            sgf_parse::parse_with_options(text, &options)
                .ok()
                .and_then(|trees| trees.into_iter().next())
                .and_then(|tree| tree.into_go_node().ok())
                .unwrap_or_default()
        }
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// The value opened by the `[` at `open`, and the index just past its `]`.
fn value(b: &[u8], open: usize) -> Option<(Value, usize)> {
    let start = open + 1;
    let mut i = start;
    let mut escaped = false;
    loop {
        match *b.get(i)? {
            b']' => {
                return Some((
                    Value {
                        start,
                        end: i,
                        escaped,
                    },
                    i + 1,
                ))
            }
            b'\\' => {
                escaped = true;
                i += 2;
            }
            _ => i += 1,
        }
    }
}

/// The text of a value as sgf-parse's lexer gives it: each `\` dropped and the character after
/// it kept as it is.
fn unescape(text: &str, v: Value) -> Option<String> {
    if !v.escaped {
        return text.get(v.start..v.end).map(str::to_string);
    }
    let b = text.as_bytes();
    let mut out = String::with_capacity(v.end - v.start);
    let mut from = v.start;
    let mut i = v.start;
    while i < v.end {
        if b[i] == b'\\' {
            out.push_str(text.get(from..i)?);
            // The escaped character starts right after the `\`, on a character boundary; its
            // other bytes (if any) are never `]` or `\`.
            from = i + 1;
            i += 2;
        } else {
            i += 1;
        }
    }
    out.push_str(text.get(from..v.end)?);
    Some(out)
}

/// A move value as sgf-parse reads it: `""` is a pass, two ASCII letters a point (`a`–`z` are
/// 0–25, `A`–`Z` 26–51). `None` for anything else (sgf-parse makes it `Prop::Invalid`).
fn simple_move(v: &[u8]) -> Option<Move> {
    let coord = |c: u8| match c {
        b'a'..=b'z' => Some(c - b'a'),
        b'A'..=b'Z' => Some(c - b'A' + 26),
        _ => None,
    };
    match v {
        [] => Some(Move::Pass),
        &[x, y] => Some(Move::Move(Point {
            x: coord(x)?,
            y: coord(y)?,
        })),
        _ => None,
    }
}

/// A property as lexed: where its identifier ends, its first value, whether more follow, and the
/// index just past its last value.
struct Lexed {
    start: usize,
    ident_end: usize,
    first: Value,
    more: bool,
    is_gm: bool,
    next: usize,
}

/// Lexes the property whose identifier starts at `start`. `None` when the identifier is not
/// followed at once by `[`, a value is not closed, or a `GM` is anything but `GM[1]`.
fn lex_property(text: &str, start: usize) -> Option<Lexed> {
    let b = text.as_bytes();
    let mut i = start;
    while b.get(i).is_some_and(u8::is_ascii_alphabetic) {
        i += 1;
    }
    if b.get(i) != Some(&b'[') {
        return None;
    }
    let ident_end = i;
    let (first, mut next) = value(b, i)?;
    let more = b.get(skip_ws(b, next)) == Some(&b'[');
    if more {
        loop {
            let j = skip_ws(b, next);
            if b.get(j) != Some(&b'[') {
                break;
            }
            next = value(b, j)?.1;
        }
    }
    let is_gm = b.get(start..ident_end) == Some(b"GM");
    if is_gm && (more || b.get(first.start..first.end) != Some(b"1")) {
        return None;
    }
    Some(Lexed {
        start,
        ident_end,
        first,
        more,
        is_gm,
        next,
    })
}

/// The property lexed as `p`, as sgf-parse makes it.
fn property(text: &str, p: &Lexed) -> Option<Prop> {
    let b = text.as_bytes();
    let raw = text.get(p.start..p.ident_end)?;
    // The common case, a move, without any allocation: what `Prop::new` makes of one plain value.
    if !p.more && !p.first.escaped && matches!(raw, "B" | "W") {
        if let Some(mv) = b.get(p.first.start..p.first.end).and_then(simple_move) {
            return Some(if raw == "B" { Prop::B(mv) } else { Prop::W(mv) });
        }
    }
    let mut values = vec![unescape(text, p.first)?];
    if p.more {
        let mut next = p.first.end + 1;
        loop {
            let j = skip_ws(b, next);
            if b.get(j) != Some(&b'[') {
                break;
            }
            let (v, after) = value(b, j)?;
            values.push(unescape(text, v)?);
            next = after;
        }
    }
    // sgf-parse's conversion of FF[3] identifiers: lowercase letters are dropped.
    let identifier = if raw.bytes().all(|c| c.is_ascii_uppercase()) {
        raw.to_string()
    } else {
        raw.chars().filter(char::is_ascii_uppercase).collect()
    };
    Some(Prop::new(identifier, values))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strict(text: &str) -> Option<Vec<GameTree>> {
        let options = sgf_parse::ParseOptions {
            convert_mixed_case_identifiers: true,
            lenient: false,
        };
        sgf_parse::parse_with_options(text, &options).ok()
    }

    #[test]
    fn same_trees_as_sgf_parse() {
        for text in [
            "(;GM[1]FF[4]SZ[19]C[a \\] b \\\\ c\\\nd]PB[Ing];B[pd];W[];B[tt](;W[aA])(;W[Zz];B[\\a]))",
            "  (;CoPyright[x]SZ[9] AB[aa][bb] \n [cc:dd];W[ab]  ) \r\n(;B[cc])\n",
            "(;B[aa][bb];W[a];B[abc];W[1a];KM[6.5]HA[1]C[中文]GM[1];AE[])",
            "(;FF[4]GM[1];B[aa](;W[bb](;B[cc])(;B[dd]))(;W[ee]))",
        ] {
            let fast = parse(text, 100).expect(text);
            assert_eq!(Some(fast), strict(text), "{text}");
        }
    }

    #[test]
    fn declines() {
        for text in [
            "",
            "junk(;B[aa])",
            "(;B[aa])\x1a",
            "(;B[aa]",
            "(;B[aa];W[b",
            "(;B[aa]];W[bb])",
            "(B[aa])",
            "((;B[aa]))",
            "(;B[aa](;W[bb]);B[cc])",
            "(;B [aa])",
            "(;B2[aa])",
            "(;GM[2])",
            "(;GM[01])",
            "(;GM[1]GM[1])",
            "(;GM[1][1])",
            "(;B[aa]é)",
            "(;B[aa];;;;)",
        ] {
            assert!(parse(text, 3).is_none(), "{text:?}");
        }
        assert!(parse("(;B[aa];;;)", 4).is_some());
    }

    /// The fast path is worth having only if it takes the usual file: it must read nearly all of
    /// the corpus (`tests/fast_path.rs` checks that it reads it right).
    #[test]
    fn takes_most_of_the_corpus() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/sgf-corpus");
        let mut stack = vec![dir];
        let (mut files, mut taken) = (0usize, 0usize);
        let mut declined = Vec::new();
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).expect("corpus directory") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                if !path
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
                {
                    continue;
                }
                let bytes = std::fs::read(&path).expect("corpus file");
                let decoded = crate::decode::decode(&bytes, None);
                let text = decoded
                    .text
                    .strip_prefix('\u{feff}')
                    .unwrap_or(&decoded.text);
                files += 1;
                if parse(text, crate::MAX_DEPTH).is_some() {
                    taken += 1;
                } else {
                    declined.push(path);
                }
            }
        }
        println!("fast path: {taken} of {files} files; declined: {declined:#?}");
        assert!(files > 5000, "corpus missing");
        assert!(taken * 100 >= files * 95, "{taken} of {files}");
    }
}
