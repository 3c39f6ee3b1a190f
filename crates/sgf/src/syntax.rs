//! What sgf-parse lacks, written by hand:
//!
//! * **Positions.** sgf-parse's errors carry no position (its lexer's spans are private), so
//!   [`locate`] re-runs the same tokenization (a mirror of sgf-parse 4.2's lexer, a few dozen
//!   lines) to find the byte where the given error arises.
//! * **Depth.** sgf-parse nests every node inside the previous one and drops the tree
//!   recursively, so a line of tens of thousands of nodes overflows the stack (an abort, not a
//!   panic). [`nesting_depth`] measures the nesting the parser would build, before it builds it.
//! * **Repairs.** sgf-parse's lenient mode stops at the first problem and keeps what came before;
//!   it has no way to skip a stray `]` (KGS `BR[3d]]`), add the `;` that some exporters omit before
//!   the root (Nihon Ki-in files start `(GN[...]`), or drop junk before or after the game trees.
//!   [`repair`] does these few safe edits, outside property values only.

use sgf_parse::{LexerError, SgfParseError};

use crate::error::{Position, Repair, SyntaxReason};

/// One token of sgf-parse's lexer, with the byte offset where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Open,
    Close,
    Node,
    /// A property; `gm` is true when its identifier is exactly `GM`.
    Prop {
        gm: bool,
    },
}

/// Runs sgf-parse's tokenization over `text`, calling `f` with each token and its offset. Returns
/// the lexer failure and its offset, if any. Offsets are in `text`.
fn lex(text: &str, mut f: impl FnMut(Tok, usize)) -> Option<(LexerError, usize)> {
    // sgf-parse trims the text (Unicode whitespace) before tokenizing.
    let base = text.len() - text.trim_start().len();
    let t = text.trim().as_bytes();
    let mut i = 0;
    while i < t.len() {
        let start = i;
        match t[i] {
            b'(' => {
                i += 1;
                f(Tok::Open, base + start);
            }
            b')' => {
                i += 1;
                f(Tok::Close, base + start);
            }
            b';' => {
                i += 1;
                f(Tok::Node, base + start);
            }
            _ => {
                // Identifier: any ASCII up to '['.
                loop {
                    match t.get(i) {
                        Some(b'[') => break,
                        Some(b) if b.is_ascii() => i += 1,
                        Some(_) => {
                            return Some((LexerError::UnexpectedEndOfPropertyIdentifier, base + i))
                        }
                        None => return Some((LexerError::MissingPropertyIdentifier, base + i)),
                    }
                }
                let gm = &t[start..i] == b"GM";
                // Values.
                loop {
                    while i < t.len() && t[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    if t.get(i) != Some(&b'[') {
                        break;
                    }
                    let open = i;
                    i += 1;
                    let mut escaped = false;
                    loop {
                        match t.get(i) {
                            None => {
                                return Some((
                                    LexerError::UnexpectedEndOfPropertyValue,
                                    base + open,
                                ))
                            }
                            Some(b']') if !escaped => {
                                i += 1;
                                break;
                            }
                            Some(b'\\') if !escaped => escaped = true,
                            Some(_) => escaped = false,
                        }
                        i += 1;
                    }
                }
                f(Tok::Prop { gm }, base + start);
            }
        }
        while i < t.len() && t[i].is_ascii_whitespace() {
            i += 1;
        }
    }
    None
}

/// The deepest node nesting sgf-parse would build from `text` (each node is a child of the one
/// before it; variations add their own nodes). Counts nodes up to a lexer failure, as the lenient
/// parser does; an upper bound for the strict one.
pub(crate) fn nesting_depth(text: &str) -> usize {
    let mut stack: Vec<usize> = Vec::new();
    let mut cur = 0usize;
    let mut max = 0usize;
    lex(text, |tok, _| match tok {
        Tok::Open => stack.push(cur),
        Tok::Close => {
            if let Some(c) = stack.pop() {
                cur = c;
            }
        }
        Tok::Node => {
            cur += 1;
            max = max.max(cur);
        }
        Tok::Prop { .. } => {}
    });
    max
}

/// Our reason for an sgf-parse error.
pub(crate) fn reason(err: &SgfParseError) -> SyntaxReason {
    match err {
        SgfParseError::LexerError(LexerError::UnexpectedEndOfPropertyValue) => {
            SyntaxReason::UnclosedValue
        }
        SgfParseError::LexerError(LexerError::UnexpectedEndOfPropertyIdentifier)
        | SgfParseError::LexerError(LexerError::UnexpectedPropertyIdentifier) => {
            SyntaxReason::BadIdentifier
        }
        SgfParseError::LexerError(LexerError::MissingPropertyIdentifier) => {
            SyntaxReason::UnfinishedIdentifier
        }
        SgfParseError::UnexpectedGameTreeStart => SyntaxReason::TreeWithoutNode,
        SgfParseError::UnexpectedGameTreeEnd => SyntaxReason::UnmatchedClose,
        SgfParseError::UnexpectedProperty => SyntaxReason::PropertyOutsideNode,
        SgfParseError::UnexpectedEndOfData => SyntaxReason::UnexpectedEnd,
        SgfParseError::InvalidGameType => SyntaxReason::BadGameType,
        SgfParseError::NoGameTrees => SyntaxReason::NoGameTree,
        SgfParseError::UnexpectedGameType | SgfParseError::InvalidFF4Property => {
            SyntaxReason::Other
        }
    }
}

/// Where in `text` sgf-parse's (strict) parse fails with `err`, as far as its token stream shows.
pub(crate) fn locate(text: &str, err: &SgfParseError) -> Option<Position> {
    let mut tokens: Vec<(Tok, usize)> = Vec::new();
    let lex_fail = lex(text, |tok, at| tokens.push((tok, at)));
    let at = match err {
        SgfParseError::LexerError(_) => lex_fail.map(|(_, at)| at),
        SgfParseError::UnexpectedEndOfData => Some(text.trim_end().len()),
        SgfParseError::NoGameTrees => Some(0),
        SgfParseError::InvalidGameType => tokens
            .iter()
            .find(|(t, _)| matches!(t, Tok::Prop { gm: true }))
            .map(|&(_, at)| at),
        SgfParseError::UnexpectedGameTreeEnd => {
            let mut depth = 0usize;
            tokens.iter().find_map(|&(t, at)| {
                match t {
                    Tok::Open => depth += 1,
                    Tok::Close if depth == 0 => return Some(at),
                    Tok::Close => depth -= 1,
                    _ => {}
                }
                None
            })
        }
        SgfParseError::UnexpectedGameTreeStart => tokens
            .windows(2)
            .find(|w| w[0].0 == Tok::Open && w[1].0 == Tok::Open)
            .map(|w| w[1].1),
        SgfParseError::UnexpectedProperty => {
            let mut prev: Option<Tok> = None;
            tokens.iter().find_map(|&(t, at)| {
                let bad = matches!(t, Tok::Prop { .. })
                    && !matches!(prev, Some(Tok::Node) | Some(Tok::Prop { .. }));
                prev = Some(t);
                bad.then_some(at)
            })
        }
        SgfParseError::UnexpectedGameType | SgfParseError::InvalidFF4Property => None,
    };
    at.map(|at| Position::of_offset(text, at))
}

/// One edit of the text: remove `remove` bytes at `at`, then insert `insert`.
#[derive(Debug)]
struct Edit {
    at: usize,
    remove: usize,
    insert: &'static str,
    repair: Repair,
}

/// The result of [`repair`]: the edited text, the repairs with their positions in the original
/// text, whether a game tree was found at all, and how many bytes the repairs removed as junk
/// (not counting a property cut off at the end, which is truncation, not junk).
pub(crate) struct Repaired {
    pub text: String,
    pub repairs: Vec<(Position, Repair)>,
    pub found_tree: bool,
    pub removed: usize,
    /// Of `removed`, the bytes before the first game tree (prose, a mail header).
    pub leading: usize,
}

/// The game trees and nodes of `text`, counting `(` at the top level and `;` outside property
/// values, in one pass; each count stops just past its limit in `limits`. Cheap enough to run
/// before any parsing, so that a collection of millions of tiny games is refused before its
/// records are built.
pub(crate) fn count_trees(text: &str, limits: &crate::Limits) -> (u64, u64) {
    let (mut games, mut nodes) = (0u64, 0u64);
    let mut depth = 0usize;
    let mut in_value = false;
    let mut escaped = false;
    for &c in text.as_bytes() {
        if in_value {
            match c {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b']' => in_value = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'[' => in_value = true,
            b'(' => {
                if depth == 0 {
                    games += 1;
                }
                depth += 1;
            }
            b')' => depth = depth.saturating_sub(1),
            b';' => nodes += 1,
            _ => continue,
        }
        if games > limits.max_games || nodes > limits.max_nodes {
            break;
        }
    }
    (games, nodes)
}

/// Positions of increasing offsets of one text, found in one pass over it: [`repair`] places
/// every repair, and [`Position::of_offset`] from the start for each made random bytes (tens of
/// thousands of repairs) quadratic.
struct Positions<'a> {
    text: &'a str,
    /// The offset reached, a character boundary, and its position.
    at: usize,
    here: Position,
}

impl<'a> Positions<'a> {
    fn new(text: &'a str) -> Positions<'a> {
        Positions {
            text,
            at: 0,
            here: Position { line: 1, column: 1 },
        }
    }

    /// The position of byte `offset` (as [`Position::of_offset`]).
    fn of(&mut self, offset: usize) -> Position {
        let mut end = offset.min(self.text.len());
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        if end < self.at {
            return Position::of_offset(self.text, end);
        }
        for c in self.text[self.at..end].chars() {
            if c == '\n' {
                self.here.line += 1;
                self.here.column = 1;
            } else {
                self.here.column += 1;
            }
        }
        self.at = end;
        self.here
    }
}

/// Repairs `text` for the lenient reader. Only text outside property values is touched, and only
/// where it cannot be valid SGF, so a valid file comes back unchanged with no repairs.
pub(crate) fn repair(text: &str) -> Repaired {
    let b = text.as_bytes();
    let n = b.len();
    let mut edits: Vec<Edit> = Vec::new();
    let mut i = 0;
    let mut depth = 0usize;
    // Properties may follow: a ';' was seen since the last '(' or ')'.
    let mut in_node = false;
    // The last structural token: b'(', b')', b';' or b'P' (a property).
    let mut last = 0u8;
    let mut found_tree = false;
    // Bytes of junk before the first game tree.
    let mut leading = 0;
    let skip_ws = |mut j: usize| {
        while j < n && b[j].is_ascii_whitespace() {
            j += 1;
        }
        j
    };
    // The end of the value opened by '[' at `j`, just after its ']', or None at the end of text.
    let value_end = |mut j: usize| {
        j += 1;
        while j < n {
            match b[j] {
                b']' => return Some(j + 1),
                b'\\' => j += 2,
                _ => j += 1,
            }
        }
        None
    };
    // An identifier (ASCII letters) followed by optional whitespace and '[': its end.
    let ident_end = |j: usize| {
        let mut k = j;
        while k < n && b[k].is_ascii_alphabetic() {
            k += 1;
        }
        (k > j && skip_ws(k) < n && b[skip_ws(k)] == b'[').then_some(k)
    };
    // A '(' at `j` opens a game tree if a node or a property follows.
    let starts_tree = |j: usize| {
        let k = skip_ws(j + 1);
        k < n && (b[k] == b';' || ident_end(k).is_some())
    };
    while i < n {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if depth == 0 {
            if c == b'(' && starts_tree(i) {
                depth = 1;
                in_node = false;
                last = b'(';
                found_tree = true;
                i += 1;
            } else {
                // Junk outside any game tree: up to the next '(' that opens one.
                let mut j = i + 1;
                while j < n && !(b[j] == b'(' && starts_tree(j)) {
                    j += 1;
                }
                if !found_tree {
                    leading += j - i;
                }
                let junk = String::from_utf8_lossy(&b[i..j]).trim().to_string();
                edits.push(Edit {
                    at: i,
                    remove: j - i,
                    insert: "",
                    repair: Repair::RemovedJunk(shorten(&junk)),
                });
                i = j;
            }
            continue;
        }
        match c {
            b'(' => {
                if last == b'(' {
                    // "((": sgf-parse needs a node before a variation; an empty one is harmless.
                    edits.push(Edit {
                        at: i,
                        remove: 0,
                        insert: ";",
                        repair: Repair::InsertedEmptyNode,
                    });
                }
                depth += 1;
                in_node = false;
                last = b'(';
                i += 1;
            }
            b')' => {
                depth -= 1;
                in_node = false;
                last = b')';
                i += 1;
            }
            b';' => {
                in_node = true;
                last = b';';
                i += 1;
            }
            b'[' => {
                // A value with no identifier.
                match value_end(i) {
                    Some(j) => {
                        edits.push(Edit {
                            at: i,
                            remove: j - i,
                            insert: "",
                            repair: Repair::RemovedStrayValue,
                        });
                        i = j;
                    }
                    None => {
                        edits.push(Edit {
                            at: i,
                            remove: n - i,
                            insert: "",
                            repair: Repair::DroppedUnfinished,
                        });
                        i = n;
                    }
                }
            }
            _ if c.is_ascii_alphabetic() => match ident_end(i) {
                Some(k) => {
                    if !in_node {
                        edits.push(Edit {
                            at: i,
                            remove: 0,
                            insert: ";",
                            repair: Repair::InsertedNode,
                        });
                        in_node = true;
                    }
                    last = b'P';
                    let mut j = skip_ws(k);
                    let mut truncated = false;
                    while j < n && b[j] == b'[' {
                        match value_end(j) {
                            Some(e) => j = skip_ws(e),
                            None => {
                                truncated = true;
                                break;
                            }
                        }
                    }
                    if truncated {
                        edits.push(Edit {
                            at: i,
                            remove: n - i,
                            insert: "",
                            repair: Repair::DroppedUnfinished,
                        });
                        i = n;
                    } else {
                        i = j;
                    }
                }
                None => {
                    let mut j = i;
                    while j < n && b[j].is_ascii_alphabetic() {
                        j += 1;
                    }
                    let repair = if skip_ws(j) == n {
                        Repair::DroppedUnfinished
                    } else {
                        Repair::RemovedJunk(String::from_utf8_lossy(&b[i..j]).into_owned())
                    };
                    edits.push(Edit {
                        at: i,
                        remove: j - i,
                        insert: "",
                        repair,
                    });
                    i = j;
                }
            },
            _ => {
                // Anything else where a property or a structure character must stand: ']' (KGS
                // `BR[3d]]`), digits, punctuation, non-ASCII. Cut only at ASCII bytes, so
                // multi-byte characters stay whole.
                let mut j = i + 1;
                while j < n {
                    let d = b[j];
                    if d.is_ascii_whitespace()
                        || d.is_ascii_alphabetic()
                        || matches!(d, b'(' | b')' | b';' | b'[')
                    {
                        break;
                    }
                    j += 1;
                }
                edits.push(Edit {
                    at: i,
                    remove: j - i,
                    insert: "",
                    repair: Repair::RemovedJunk(shorten(&String::from_utf8_lossy(&b[i..j]))),
                });
                i = j;
            }
        }
    }
    if depth > 0 {
        edits.push(Edit {
            at: n,
            remove: 0,
            insert: "",
            repair: Repair::AddedClose(depth),
        });
    }
    let mut out = String::with_capacity(n + depth);
    let mut repairs = Vec::with_capacity(edits.len());
    let mut pos = 0;
    let mut removed = 0;
    let mut positions = Positions::new(text);
    for e in edits {
        // Edits come in text order and never overlap; `at` and `at + remove` fall on ASCII bytes
        // or the ends of the text, so on character boundaries.
        let at = e.at.clamp(pos, n);
        out.push_str(text.get(pos..at).unwrap_or_default());
        out.push_str(e.insert);
        if let Repair::AddedClose(k) = e.repair {
            out.push_str(&")".repeat(k));
        }
        let end = (at + e.remove).min(n);
        if matches!(e.repair, Repair::RemovedJunk(_) | Repair::RemovedStrayValue) {
            removed += end - at;
        }
        pos = end;
        repairs.push((positions.of(e.at), e.repair));
    }
    out.push_str(text.get(pos..).unwrap_or_default());
    Repaired {
        text: out,
        repairs,
        found_tree,
        removed,
        leading,
    }
}

/// The syntax error a repair stands for, for the strict reader.
pub(crate) fn repair_reason(repair: &Repair) -> SyntaxReason {
    match repair {
        Repair::RemovedJunk(_) | Repair::RemovedStrayValue => SyntaxReason::StrayText,
        Repair::InsertedNode => SyntaxReason::PropertyOutsideNode,
        Repair::InsertedEmptyNode => SyntaxReason::TreeWithoutNode,
        Repair::DroppedUnfinished => SyntaxReason::UnclosedValue,
        Repair::AddedClose(_) => SyntaxReason::UnexpectedEnd,
    }
}

fn shorten(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(MAX).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(s: &str) -> (String, Vec<Repair>) {
        let r = repair(s);
        (r.text, r.repairs.into_iter().map(|(_, r)| r).collect())
    }

    #[test]
    fn valid_text_is_unchanged() {
        let s = "(;GM[1]FF[4]C[a ) ; ( \\] b]\n;B[aa](;W[bb])(;W[cc];B[dd]))(;B[ee])";
        assert_eq!(fixed(s), (s.to_string(), vec![]));
    }

    #[test]
    fn repairs() {
        assert_eq!(fixed("(;BR[3d]]PW[x])").0, "(;BR[3d]PW[x])");
        assert_eq!(fixed("(GN[x];B[aa])").0, "(;GN[x];B[aa])");
        assert_eq!(fixed("(;B[aa];W[bb]").0, "(;B[aa];W[bb])");
        assert_eq!(fixed("(;B[aa];W[b").0, "(;B[aa];)");
        assert_eq!(fixed("junk\n(;B[aa])\x1a").0, "(;B[aa])");
        assert_eq!(fixed("(;B[aa]))").0, "(;B[aa])");
        assert_eq!(fixed("()(;B[aa])").0, "(;B[aa])");
        assert_eq!(fixed("((;B[aa]))").0, "(;B[aa])");
        assert_eq!(fixed("(;B[aa]((;W[bb])))").0, "(;B[aa](;(;W[bb])))");
    }

    #[test]
    fn depth() {
        assert_eq!(nesting_depth("(;B[aa];W[bb](;B[cc];W[dd])(;B[ee]))"), 4);
        assert_eq!(nesting_depth("(;C[;;;;;;]B[aa])"), 1);
    }

    #[test]
    fn positions() {
        let text = "(;GM[1]\n;B[aa]\n;W[b";
        let err = sgf_parse::parse(text).expect_err("invalid");
        assert_eq!(reason(&err), SyntaxReason::UnclosedValue);
        assert_eq!(locate(text, &err), Some(Position { line: 3, column: 3 }));
        let text = "(;GM[1];B[aa]))";
        let err = sgf_parse::parse(text).expect_err("invalid");
        assert_eq!(
            locate(text, &err),
            Some(Position {
                line: 1,
                column: 15
            })
        );
    }
}
