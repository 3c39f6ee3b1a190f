//! A fast path for well-formed text: SGF read straight into sgf-parse's tree in one pass.
//!
//! **Why by hand.** sgf-parse 4.2 lexes each property value character by character into a
//! `Vec<char>`, collects the whole file into a token list, clones every identifier and value out
//! of it into the tree, and only then drops the tokens; every `B[pd]` costs five or six
//! allocations. Before this module, judging the 19×19 records of the corpus
//! (`ingo bench judge --size 19`) spent 54% of its instructions in sgf-parse and 72% reading
//! SGF; the reader also passed over the text four times before sgf-parse did (decoding, the
//! `CA` scan, [`crate::syntax::repair`], [`crate::syntax::nesting_depth`]). This one pass, with
//! `B`/`W` moves built without any string, cut the whole bench from 17.7 to 9.0 billion
//! instructions (callgrind, `bench judge --size 19 --repeat 1`) — see `BENCHMARKS.md`.
//!
//! **What it accepts.** Only the plain SGF grammar, `GameTree = "(" Node {Node} {GameTree} ")"`,
//! with ASCII whitespace between tokens, property identifiers of ASCII letters followed at once
//! by `[`, values closed by `]` (with `\` escapes), and a root node whose `GM`, if any, is
//! exactly `GM[1]` (Go). On anything else — junk, a stray `]`, a missing `;`, a node after a
//! variation, an unclosed value, a line of play deeper than the limit, non-ASCII bytes outside
//! values — [`parse`] returns `None` and the caller takes the full path (repairs, depth guard,
//! sgf-parse), which alone decides about errors, warnings and repairs.
//!
//! **The promise.** When [`parse`] returns `Some(trees)`:
//! * `trees` equals what `sgf_parse::parse_with_options` returns for the same text in strict
//!   mode with `convert_mixed_case_identifiers` (the full path's first try), property for
//!   property, including FF\[3] mixed-case identifiers (`CoPyright` read as `CP`);
//! * [`crate::syntax::repair`] would find nothing to repair (so no warning is lost), and
//!   [`crate::syntax::nesting_depth`] is at most `max_depth`.
//!
//! `tests/fast_path.rs` checks both paths agree on every file of the corpus
//! (`INGO_FULL_CORPUS=1`; a sample otherwise), and the `sgf_parse` fuzz target on arbitrary
//! bytes.

use sgf_parse::go::{Move, Point, Prop};
use sgf_parse::{GameTree, SgfNode, SgfProp};

/// A game tree being read: its sequence of nodes (their properties) and the variations that
/// follow the sequence.
struct Open {
    nodes: Vec<Vec<Prop>>,
    variations: Vec<SgfNode<Prop>>,
    /// The node depth (as [`crate::syntax::nesting_depth`] counts it) where the tree began.
    depth: usize,
}

/// One property value: the bytes between `[` and `]`, and whether they hold a `\` escape.
#[derive(Clone, Copy)]
struct Value {
    start: usize,
    end: usize,
    escaped: bool,
}

/// Reads `text` when it is well-formed SGF of Go whose lines of play are at most `max_depth`
/// nodes deep; `None` for anything else (see the module documentation).
pub(crate) fn parse(text: &str, max_depth: usize) -> Option<Vec<GameTree>> {
    let b = text.as_bytes();
    let mut trees = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut depth = 0usize;
    // The properties of the node being read.
    let mut scratch: Vec<Prop> = Vec::new();
    let mut i = skip_ws(b, 0);
    while let Some(&c) = b.get(i) {
        match c {
            b'(' => {
                // Every game tree and variation starts with a node.
                if b.get(skip_ws(b, i + 1)) != Some(&b';') {
                    return None;
                }
                stack.push(Open {
                    nodes: Vec::new(),
                    variations: Vec::new(),
                    depth,
                });
                i += 1;
            }
            b';' => {
                let root = stack.len() == 1;
                let top = stack.last_mut()?;
                // sgf-parse takes a node after a variation as one more variation; leave it to it.
                if !top.variations.is_empty() {
                    return None;
                }
                depth += 1;
                if depth > max_depth {
                    return None;
                }
                let root = root && top.nodes.is_empty();
                scratch.clear();
                let mut gm = 0;
                i = skip_ws(b, i + 1);
                while b.get(i).is_some_and(u8::is_ascii_alphabetic) {
                    let (prop, is_gm, next) = property(text, i)?;
                    gm += usize::from(is_gm);
                    scratch.push(prop);
                    i = skip_ws(b, next);
                }
                // sgf-parse refuses a root with two GM; a single one was checked to be GM[1].
                if root && gm > 1 {
                    return None;
                }
                // Moved into a vector of the exact size: one allocation per node, none to grow.
                let mut props = Vec::with_capacity(scratch.len());
                props.append(&mut scratch);
                top.nodes.push(props);
                continue;
            }
            b')' => {
                let open = stack.pop()?;
                depth = open.depth;
                let mut node = fold(open)?;
                match stack.last_mut() {
                    Some(parent) => parent.variations.push(node),
                    None => {
                        node.is_root = true;
                        trees.push(GameTree::GoGame(node));
                    }
                }
                i += 1;
            }
            _ => return None,
        }
        i = skip_ws(b, i);
    }
    (stack.is_empty() && !trees.is_empty()).then_some(trees)
}

/// The first node of a finished game tree, with the rest of its sequence and its variations
/// below it.
fn fold(open: Open) -> Option<SgfNode<Prop>> {
    let mut children = open.variations;
    for props in open.nodes.into_iter().rev() {
        children = vec![SgfNode::new(props, children, false)];
    }
    children.pop()
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

/// The property whose identifier starts at `start`: the property, whether its identifier is
/// exactly `GM`, and the index just past its last value. `None` when the identifier is not
/// followed at once by `[`, a value is not closed, or a `GM` is anything but `GM[1]`.
fn property(text: &str, start: usize) -> Option<(Prop, bool, usize)> {
    let b = text.as_bytes();
    let mut i = start;
    while b.get(i).is_some_and(u8::is_ascii_alphabetic) {
        i += 1;
    }
    if b.get(i) != Some(&b'[') {
        return None;
    }
    let raw = text.get(start..i)?;
    let (first, mut next) = value(b, i)?;
    let single = b.get(skip_ws(b, next)) != Some(&b'[');
    // The common case, a move, without any allocation: what `Prop::new` makes of one plain value.
    if single && !first.escaped && matches!(raw, "B" | "W") {
        if let Some(mv) = b.get(first.start..first.end).and_then(simple_move) {
            let prop = if raw == "B" { Prop::B(mv) } else { Prop::W(mv) };
            return Some((prop, false, next));
        }
    }
    let mut values = vec![first];
    if !single {
        loop {
            let j = skip_ws(b, next);
            if b.get(j) != Some(&b'[') {
                break;
            }
            let (v, after) = value(b, j)?;
            values.push(v);
            next = after;
        }
    }
    let is_gm = raw == "GM";
    if is_gm && !(values.len() == 1 && text.get(first.start..first.end) == Some("1")) {
        return None;
    }
    // sgf-parse's conversion of FF[3] identifiers: lowercase letters are dropped.
    let identifier = if raw.bytes().all(|c| c.is_ascii_uppercase()) {
        raw.to_string()
    } else {
        raw.chars().filter(char::is_ascii_uppercase).collect()
    };
    let values = values
        .into_iter()
        .map(|v| unescape(text, v))
        .collect::<Option<Vec<String>>>()?;
    Some((Prop::new(identifier, values), is_gm, next))
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
