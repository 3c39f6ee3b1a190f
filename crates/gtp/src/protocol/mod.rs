//! The GTP v2 wire format, without any I/O.
//!
//! Everything here works on strings that someone else has read: the engine
//! front reads command lines (see [`crate::server`]), the referee reads
//! response blocks (see [`crate::engine`]). Keeping the parsing pure makes it
//! easy to test, and to fuzz: no function in this module panics, whatever the
//! input.
//!
//! Reference: GTP version 2, draft 2,
//! <https://www.lysator.liu.se/~gunnar/gtp/gtp2-spec-draft2/gtp2-spec.html>.

mod vertex;

use std::fmt;

pub use self::vertex::{
    parse_color, parse_vertex, ColorError, GenmoveReply, VertexError, MAX_BOARD_SIZE,
};

/// How many characters of offending input an error message quotes.
///
/// Errors carry what was received so that a log says what went wrong, but a
/// misbehaving engine can send megabytes; the message stays readable.
const QUOTE_LIMIT: usize = 120;

/// Shortens `s` to at most [`QUOTE_LIMIT`] characters, marking the cut.
pub(crate) fn quote(s: &str) -> String {
    match s.char_indices().nth(QUOTE_LIMIT) {
        None => s.to_owned(),
        Some((cut, _)) => format!("{}…", &s[..cut]),
    }
}

/// Whether `c` is one of the control characters GTP says to remove.
///
/// Spec 3.1: "Remove all occurrences of CR and other control characters
/// except for HT and LF." `char::is_control` also covers DEL and the C1 range.
fn is_removed_control(c: char) -> bool {
    c.is_control() && c != '\t' && c != '\n'
}

/// Removes the control characters GTP says to remove from a line of
/// response text; borrows when there are none, as in nearly every line.
pub(crate) fn strip_controls(line: &str) -> std::borrow::Cow<'_, str> {
    if line.chars().any(is_removed_control) {
        line.chars().filter(|&c| !is_removed_control(c)).collect()
    } else {
        line.into()
    }
}

/// Whether a line of a response block (after [`strip_controls`]) is blank:
/// such lines are skipped before a response starts.
pub(crate) fn is_blank(line: &str) -> bool {
    line.trim_matches([' ', '\t']).is_empty()
}

/// Applies the GTP input preprocessing rules to one command line.
///
/// In the spec's order (section 3.1):
/// 1. remove CR and every other control character except HT and LF;
/// 2. remove everything from a `#` to the end of the line;
/// 3. convert HT to space.
///
/// The fourth rule (discard empty or whitespace-only lines) is up to the
/// caller: [`Command::parse`] returns `Ok(None)` for such lines.
///
/// ```
/// assert_eq!(ingo_gtp::protocol::preprocess("1\tgenmove b\r # think"), "1 genmove b ");
/// ```
pub fn preprocess(line: &str) -> String {
    line.chars()
        .filter(|&c| !is_removed_control(c))
        .take_while(|&c| c != '#')
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect()
}

/// A GTP command as sent by a controller: `[id] command_name [arguments]`.
///
/// [`Display`](fmt::Display) writes the command as one line without the
/// terminating newline, e.g. `7 play b Q16`. Arguments are written as they
/// are; one that contains whitespace, `#` or a control character would not
/// survive the round trip (the [`engine`](crate::engine) refuses to send such
/// arguments).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Command {
    /// The optional numeric id, echoed back in the response.
    pub id: Option<u32>,
    /// The command name, e.g. `genmove`. GTP command names are case sensitive.
    pub name: String,
    /// The arguments, already split on whitespace.
    pub args: Vec<String>,
}

impl Command {
    /// Builds a command without an id.
    pub fn new<N, I, A>(name: N, args: I) -> Command
    where
        N: Into<String>,
        I: IntoIterator<Item = A>,
        A: Into<String>,
    {
        Command {
            id: None,
            name: name.into(),
            args: args.into_iter().map(Into::into).collect(),
        }
    }

    /// Parses one line of controller input.
    ///
    /// The line may end in `\n` or `\r\n`. Returns `Ok(None)` for a line that
    /// GTP says to ignore: empty, whitespace only, or only a comment.
    ///
    /// ```
    /// use ingo_gtp::protocol::Command;
    ///
    /// let cmd = Command::parse("12 play\tB q16  # a comment\n").unwrap().unwrap();
    /// assert_eq!(cmd.id, Some(12));
    /// assert_eq!(cmd.name, "play");
    /// assert_eq!(cmd.args, ["B", "q16"]);
    /// assert_eq!(Command::parse("   # nothing").unwrap(), None);
    /// ```
    ///
    /// # Errors
    ///
    /// [`ProtocolError::IdOutOfRange`] when the first word is all digits but
    /// does not fit a `u32`, [`ProtocolError::MissingName`] when a line holds
    /// an id and nothing else, and [`ProtocolError::EmbeddedNewline`] when
    /// `line` holds more than one line.
    pub fn parse(line: &str) -> Result<Option<Command>, ProtocolError> {
        let line = line.strip_suffix('\n').unwrap_or(line);
        if line.contains('\n') {
            return Err(ProtocolError::EmbeddedNewline);
        }
        let cleaned = preprocess(line);
        let mut words = cleaned.split(' ').filter(|w| !w.is_empty());
        let Some(first) = words.next() else {
            return Ok(None);
        };
        // Spec 2.4: "id: optional identity number"; a word made of digits
        // can only be an id, since command names start with a letter.
        let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
            let id = first
                .parse::<u32>()
                .map_err(|_| ProtocolError::IdOutOfRange { id: quote(first) })?;
            match words.next() {
                Some(name) => (Some(id), name),
                None => return Err(ProtocolError::MissingName { id }),
            }
        } else {
            (None, first)
        };
        Ok(Some(Command {
            id,
            name: name.to_owned(),
            args: words.map(str::to_owned).collect(),
        }))
    }

    /// Parses one line of raw controller input that may not be UTF-8.
    ///
    /// Invalid UTF-8 sequences become U+FFFD, so a command name with garbage
    /// bytes simply becomes an unknown command; see [`Command::parse`].
    ///
    /// # Errors
    ///
    /// As for [`Command::parse`].
    pub fn parse_bytes(line: &[u8]) -> Result<Option<Command>, ProtocolError> {
        Command::parse(&String::from_utf8_lossy(line))
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(id) = self.id {
            write!(f, "{id} ")?;
        }
        f.write_str(&self.name)?;
        for arg in &self.args {
            write!(f, " {arg}")?;
        }
        Ok(())
    }
}

/// A command line that could not be parsed into a [`Command`].
///
/// An engine answers these with a failure response (`? ...`), using
/// [`ProtocolError::id`] when the id could be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProtocolError {
    /// The first word is all digits but too large for a command id.
    #[error("command id {id} is out of range (at most {})", u32::MAX)]
    IdOutOfRange {
        /// The digits received (shortened if very long).
        id: String,
    },
    /// The line holds an id but no command name.
    #[error("missing command name after id {id}")]
    MissingName {
        /// The id that was read.
        id: u32,
    },
    /// The text given to [`Command::parse`] holds more than one line.
    #[error("command line contains a newline")]
    EmbeddedNewline,
    /// A line was longer than the reader accepts; it was skipped.
    #[error("command line longer than {max} bytes")]
    LineTooLong {
        /// The limit in bytes.
        max: usize,
    },
}

impl ProtocolError {
    /// The command id, when it could be read before the error.
    pub fn id(&self) -> Option<u32> {
        match self {
            ProtocolError::MissingName { id } => Some(*id),
            _ => None,
        }
    }
}

/// Whether a response reports success (`=`) or failure (`?`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// `=`: the command succeeded.
    Success,
    /// `?`: the command failed; the text is the error message.
    Failure,
}

impl Status {
    fn as_char(self) -> char {
        match self {
            Status::Success => '=',
            Status::Failure => '?',
        }
    }
}

/// A GTP response: `=[id] text` or `?[id] message`, ended by an empty line.
///
/// [`Display`](fmt::Display) writes the exact bytes an engine sends,
/// including the terminating empty line:
///
/// ```
/// use ingo_gtp::protocol::Response;
///
/// assert_eq!(Response::success("Q16").with_id(Some(3)).to_string(), "=3 Q16\n\n");
/// assert_eq!(Response::failure("illegal move").to_string(), "? illegal move\n\n");
/// assert_eq!(Response::success("").to_string(), "= \n\n");
/// ```
///
/// Since an empty line ends a response, the text is cleaned when written:
/// control characters other than HT and LF are removed, trailing whitespace
/// is dropped, and blank lines after the first are left out. A text that
/// starts with a newline (as `showboard` output does) keeps it, so the header
/// line is just `= `.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Response {
    /// The id of the command answered, if it had one.
    pub id: Option<u32>,
    /// Success or failure.
    pub status: Status,
    /// The response text or error message, without the status, id and
    /// terminating empty line. Multi-line texts are joined with `\n`.
    pub text: String,
}

impl Response {
    /// A success response without an id.
    pub fn success(text: impl Into<String>) -> Response {
        Response {
            id: None,
            status: Status::Success,
            text: text.into(),
        }
    }

    /// A failure response without an id.
    pub fn failure(message: impl Into<String>) -> Response {
        Response {
            id: None,
            status: Status::Failure,
            text: message.into(),
        }
    }

    /// Sets the id, normally to the id of the command answered.
    #[must_use]
    pub fn with_id(mut self, id: Option<u32>) -> Response {
        self.id = id;
        self
    }

    /// Whether this is a success (`=`) response.
    pub fn is_success(&self) -> bool {
        self.status == Status::Success
    }

    /// Parses one response block as read from an engine (controller side).
    ///
    /// `block` holds the header line (`=`/`?`, optional id, text), any
    /// further text lines, and optionally the terminating empty line. CRs and
    /// other control characters except HT and LF are removed first, so
    /// engines that write `\r\n` are understood; blank lines before the
    /// header are skipped. The text is the rest of the header line after
    /// the separating spaces, followed by the other lines, with trailing
    /// whitespace removed.
    ///
    /// ```
    /// use ingo_gtp::protocol::{Response, Status};
    ///
    /// let r = Response::parse("=7 Q16\n\n").unwrap();
    /// assert_eq!((r.id, r.status, r.text.as_str()), (Some(7), Status::Success, "Q16"));
    /// let r = Response::parse("? unknown command\r\n\r\n").unwrap();
    /// assert_eq!((r.id, r.status, r.text.as_str()), (None, Status::Failure, "unknown command"));
    /// assert!(Response::parse("Q16\n\n").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// A [`ResponseError`] that quotes what was received when the block is
    /// empty, does not start with `=` or `?`, has a malformed id, or holds
    /// more text after an empty line.
    pub fn parse(block: &str) -> Result<Response, ResponseError> {
        let cleaned = strip_controls(block);
        let mut lines = cleaned.split('\n').skip_while(|line| is_blank(line));
        let Some(header) = lines.next() else {
            return Err(ResponseError::Empty);
        };
        let (id, status, first_text) = parse_header(header)?;
        let mut text = first_text.trim_start_matches([' ', '\t']).to_owned();
        let mut ended = false;
        for line in lines {
            if ended {
                if !line.is_empty() {
                    return Err(ResponseError::TextAfterEnd {
                        received: quote(&cleaned),
                    });
                }
            } else if line.is_empty() {
                ended = true;
            } else {
                text.push('\n');
                text.push_str(line);
            }
        }
        let trimmed = text.trim_end().len();
        text.truncate(trimmed);
        Ok(Response { id, status, text })
    }

    /// Returns an error unless the response carries `expected` as its id or
    /// no id at all.
    ///
    /// A controller that numbers its commands uses this to notice that it
    /// and the engine are out of step. A missing id is accepted because some
    /// engines never echo ids.
    ///
    /// # Errors
    ///
    /// [`ResponseError::IdMismatch`] when the response has another id.
    pub fn check_id(&self, expected: u32) -> Result<(), ResponseError> {
        match self.id {
            Some(found) if found != expected => Err(ResponseError::IdMismatch { expected, found }),
            _ => Ok(()),
        }
    }
}

/// Splits a header line into id, status and the text after the id.
fn parse_header(header: &str) -> Result<(Option<u32>, Status, &str), ResponseError> {
    let status = match header.chars().next() {
        Some('=') => Status::Success,
        Some('?') => Status::Failure,
        _ => {
            return Err(ResponseError::NoStatus {
                received: quote(header),
            })
        }
    };
    // Both status characters are one byte long.
    let rest = &header[1..];
    let digits_len = rest.bytes().take_while(u8::is_ascii_digit).count();
    let (digits, text) = rest.split_at(digits_len);
    // Spec 2.6: "=[id] result"; the id, if any, is followed by a space (or
    // the end of the line when the result is empty), so "=Q16" is garbage.
    if !(text.is_empty() || text.starts_with([' ', '\t'])) {
        return Err(ResponseError::MalformedHeader {
            received: quote(header),
        });
    }
    let id = if digits.is_empty() {
        None
    } else {
        Some(
            digits
                .parse::<u32>()
                .map_err(|_| ResponseError::MalformedHeader {
                    received: quote(header),
                })?,
        )
    };
    Ok((id, status, text))
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.status.as_char())?;
        if let Some(id) = self.id {
            write!(f, "{id}")?;
        }
        f.write_str(" ")?;
        let cleaned: String = self
            .text
            .chars()
            .filter(|&c| !is_removed_control(c))
            .collect();
        let mut lines = cleaned.trim_end().split('\n');
        // The first line shares the header line, so it may be empty.
        if let Some(first) = lines.next() {
            f.write_str(first)?;
        }
        for line in lines.filter(|line| !line.trim().is_empty()) {
            write!(f, "\n{line}")?;
        }
        f.write_str("\n\n")
    }
}

/// A response block from an engine that is not valid GTP.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResponseError {
    /// Nothing but blank lines.
    #[error("empty response")]
    Empty,
    /// The header line starts with neither `=` nor `?`.
    #[error("expected a response starting with '=' or '?', received {received:?}")]
    NoStatus {
        /// The header line received (shortened if very long).
        received: String,
    },
    /// The status character is followed by something other than an id and
    /// a space, or the id is out of range.
    #[error("malformed response header {received:?}")]
    MalformedHeader {
        /// The header line received (shortened if very long).
        received: String,
    },
    /// More text follows the empty line that ends the response.
    #[error("text after the end of the response in {received:?}")]
    TextAfterEnd {
        /// The block received (shortened if very long).
        received: String,
    },
    /// The response carries a different id than the command it answers.
    #[error("response id {found} does not match command id {expected}")]
    IdMismatch {
        /// The id sent with the command.
        expected: u32,
        /// The id in the response.
        found: u32,
    },
    /// A line or the whole response is longer than the controller accepts.
    #[error("response longer than {max} bytes")]
    TooLong {
        /// The limit in bytes.
        max: usize,
    },
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn cmd(line: &str) -> Command {
        Command::parse(line).expect("parses").expect("is a command")
    }

    #[test]
    fn ignorable_lines() {
        for line in [
            "",
            "\n",
            "\r\n",
            "   ",
            "\t\t",
            " \t \r",
            "# comment",
            "  # comment\n",
            "\x01\x02",
            "\x7f",
            "#1 genmove b",
        ] {
            assert_eq!(Command::parse(line), Ok(None), "{line:?}");
        }
    }

    #[test]
    fn plain_and_with_id() {
        assert_eq!(cmd("genmove b"), Command::new("genmove", ["b"]));
        let c = cmd("42 play w A1\n");
        assert_eq!(c.id, Some(42));
        assert_eq!(c.name, "play");
        assert_eq!(c.args, ["w", "A1"]);
        assert_eq!(cmd("0 name").id, Some(0));
        assert_eq!(cmd("007 name").id, Some(7));
        assert_eq!(cmd(&format!("{} name", u32::MAX)).id, Some(u32::MAX));
    }

    #[test]
    fn tabs_spaces_cr_and_controls() {
        let c = cmd("\t3\tplay \t b\r\n");
        assert_eq!((c.id, c.name.as_str(), c.args.len()), (Some(3), "play", 1));
        // Control characters are removed, not turned into separators.
        assert_eq!(cmd("gen\x00move b\x1b").name, "genmove");
        assert_eq!(cmd("genmove b\x1b").args, ["b"]);
        assert_eq!(cmd("name\u{85}").name, "name");
    }

    #[test]
    fn comments() {
        assert_eq!(cmd("boardsize 19 # nineteen").args, ["19"]);
        assert_eq!(cmd("komi#7.5").name, "komi");
        assert!(cmd("komi#7.5").args.is_empty());
    }

    #[test]
    fn id_edge_cases() {
        let huge = "9".repeat(10_000);
        let err = Command::parse(&format!("{huge} name")).expect_err("overflows");
        assert!(matches!(err, ProtocolError::IdOutOfRange { .. }));
        // The message quotes the id but stays short.
        assert!(err.to_string().len() < 300, "{err}");
        assert!(Command::parse("4294967296 name").is_err());
        assert_eq!(
            Command::parse("5"),
            Err(ProtocolError::MissingName { id: 5 })
        );
        assert_eq!(Command::parse("5 # c").expect_err("no name").id(), Some(5));
        // Not all digits: a (strange) command name, which an engine rejects
        // as unknown, not a negative id.
        assert_eq!(cmd("-1 name").name, "-1");
        assert_eq!(cmd("12abc").id, None);
        // Non-ASCII digits are not ids.
        assert_eq!(cmd("١٢ name").id, None);
    }

    #[test]
    fn embedded_newline() {
        assert_eq!(
            Command::parse("name\nversion"),
            Err(ProtocolError::EmbeddedNewline)
        );
        assert_eq!(
            Command::parse("name\n\n"),
            Err(ProtocolError::EmbeddedNewline)
        );
    }

    #[test]
    fn non_utf8_bytes() {
        let c = Command::parse_bytes(b"1 gen\xffmove b\r\n")
            .expect("parses")
            .expect("command");
        assert_eq!(c.name, "gen\u{fffd}move");
        assert_eq!(
            Command::parse_bytes(b"\xfe # x")
                .expect("parses")
                .map(|c| c.name),
            Some("\u{fffd}".into())
        );
    }

    #[test]
    fn command_display() {
        assert_eq!(cmd("1 play b D4").to_string(), "1 play b D4");
        assert_eq!(
            Command::new("clear_board", [""; 0]).to_string(),
            "clear_board"
        );
    }

    #[test]
    fn response_format() {
        assert_eq!(
            Response::success("2").with_id(Some(1)).to_string(),
            "=1 2\n\n"
        );
        assert_eq!(
            Response::failure("unknown command").to_string(),
            "? unknown command\n\n"
        );
        assert_eq!(Response::success("a\nb\n").to_string(), "= a\nb\n\n");
        // Blank lines would end the response early, so they are dropped.
        assert_eq!(Response::success("a\n\n \nb").to_string(), "= a\nb\n\n");
        assert_eq!(
            Response::success("\n A B\n1 .").to_string(),
            "= \n A B\n1 .\n\n"
        );
        assert_eq!(Response::success("x\r\x07y").to_string(), "= xy\n\n");
    }

    #[test]
    fn response_parse() {
        let r = Response::parse("= \n\n").expect("parses");
        assert_eq!(
            (r.id, r.status, r.text.as_str()),
            (None, Status::Success, "")
        );
        let r = Response::parse("=").expect("parses");
        assert_eq!(r.text, "");
        let r = Response::parse("?12").expect("parses");
        assert_eq!((r.id, r.status), (Some(12), Status::Failure));
        let r = Response::parse("\n\n=3   list\nof\ncommands  \n\n").expect("parses");
        assert_eq!((r.id, r.text.as_str()), (Some(3), "list\nof\ncommands"));
        let r = Response::parse("= \n   A B\n 1 . .\n\n").expect("parses");
        assert_eq!(r.text, "\n   A B\n 1 . .");
        let r = Response::parse("=1\tpass\r\n\r\n\r\n").expect("parses");
        assert_eq!(r.text, "pass");
    }

    #[test]
    fn response_garbage() {
        assert_eq!(Response::parse(""), Err(ResponseError::Empty));
        assert_eq!(Response::parse("\n \n\t\n"), Err(ResponseError::Empty));
        let err = Response::parse("hello world\n\n").expect_err("garbage");
        assert_eq!(
            err,
            ResponseError::NoStatus {
                received: "hello world".into()
            }
        );
        assert_eq!(
            err.to_string(),
            "expected a response starting with '=' or '?', received \"hello world\""
        );
        for bad in ["=Q16", "=12x ok", "?-1 no", "=99999999999 ok", "=1=2"] {
            assert!(
                matches!(
                    Response::parse(bad),
                    Err(ResponseError::MalformedHeader { .. })
                ),
                "{bad:?}"
            );
        }
        assert!(matches!(
            Response::parse("= a\n\n= b\n\n"),
            Err(ResponseError::TextAfterEnd { .. })
        ));
        let long = format!("x{}", "y".repeat(100_000));
        let err = Response::parse(&long).expect_err("garbage");
        assert!(err.to_string().len() < 400);
    }

    #[test]
    fn check_id() {
        let r = Response::success("x").with_id(Some(4));
        assert_eq!(r.check_id(4), Ok(()));
        assert_eq!(
            r.check_id(5),
            Err(ResponseError::IdMismatch {
                expected: 5,
                found: 4
            })
        );
        assert_eq!(Response::success("x").check_id(5), Ok(()));
    }

    #[test]
    fn quote_is_char_safe() {
        let s = "é".repeat(500);
        let q = quote(&s);
        assert_eq!(q.chars().count(), QUOTE_LIMIT + 1);
        assert_eq!(quote("short"), "short");
    }

    proptest! {
        #[test]
        fn command_parse_never_panics(s in any::<String>()) {
            let _ = Command::parse(&s);
        }

        #[test]
        fn command_parse_bytes_never_panics(b in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = Command::parse_bytes(&b);
        }

        #[test]
        fn command_parse_never_panics_on_gtp_like_text(s in "[0-9 \t\r\n#a-z=?\\x00-\\x1f]{0,40}") {
            let _ = Command::parse(&s);
        }

        #[test]
        fn response_parse_never_panics(s in any::<String>()) {
            let _ = Response::parse(&s);
        }

        #[test]
        fn response_parse_never_panics_on_gtp_like_text(s in "[=?0-9 \t\r\na-z]{0,40}") {
            let _ = Response::parse(&s);
        }

        #[test]
        fn command_round_trip(
            id in proptest::option::of(any::<u32>()),
            name in "[a-z][a-z0-9_-]{0,15}",
            args in proptest::collection::vec("[!-\"$-~]{1,8}", 0..5),
        ) {
            let c = Command { id, name, args };
            prop_assert_eq!(Command::parse(&c.to_string()), Ok(Some(c)));
        }

        #[test]
        fn response_round_trip(
            id in proptest::option::of(any::<u32>()),
            success in any::<bool>(),
            lines in proptest::collection::vec("[!-~]([ -~]{0,10}[!-~])?", 0..5),
        ) {
            let status = if success { Status::Success } else { Status::Failure };
            let r = Response { id, status, text: lines.join("\n") };
            prop_assert_eq!(Response::parse(&r.to_string()), Ok(r));
        }

        #[test]
        fn formatted_response_always_parses(text in any::<String>(), id in proptest::option::of(any::<u32>())) {
            // Whatever text an engine front answers with, a controller can read it back.
            let wire = Response::success(text).with_id(id).to_string();
            let parsed = Response::parse(&wire);
            prop_assert!(parsed.is_ok(), "{:?} -> {:?}", wire, parsed);
            prop_assert_eq!(parsed.map(|r| r.id).ok(), Some(id));
        }
    }
}
