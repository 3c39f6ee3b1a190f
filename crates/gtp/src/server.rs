//! The engine side of GTP: reading commands from a controller.
//!
//! [`CommandReader`] turns a byte stream (normally standard input) into
//! [`Command`]s. Writing responses needs no helper: write a
//! [`Response`](crate::protocol::Response) with `write!` and flush.
//!
//! ```
//! use std::io::Write;
//! use ingo_gtp::{protocol::Response, server::{CommandReader, ReadError}};
//!
//! let input = &b"1 name\n# comment\n\n2 bogus\xff\nquit\n"[..];
//! let mut reader = CommandReader::new(input);
//! let mut out = Vec::new();
//! loop {
//!     let response = match reader.read_command() {
//!         Ok(None) => break, // end of input
//!         Ok(Some(cmd)) => match cmd.name.as_str() {
//!             "name" => Response::success("ingo"),
//!             "quit" => Response::success(""),
//!             _ => Response::failure("unknown command"),
//!         }
//!         .with_id(cmd.id),
//!         Err(ReadError::Protocol(e)) => Response::failure(e.to_string()).with_id(e.id()),
//!         Err(ReadError::Io(e)) => panic!("{e}"),
//!     };
//!     write!(out, "{response}").unwrap();
//! }
//! assert_eq!(
//!     String::from_utf8(out).unwrap(),
//!     "=1 ingo\n\n?2 unknown command\n\n= \n\n"
//! );
//! ```

use std::io::{self, BufRead};

use crate::{
    line::{self, LineRead},
    protocol::{Command, ProtocolError},
};

/// The default longest command line a [`CommandReader`] accepts, in bytes.
///
/// Real GTP commands are a few dozen bytes; the limit only guards against a
/// runaway controller.
pub const DEFAULT_MAX_LINE: usize = 64 * 1024;

/// Reads GTP commands from a buffered byte stream, one line at a time.
///
/// Ignorable lines (empty, whitespace, comments) are skipped; bytes that are
/// not UTF-8 are replaced with U+FFFD; lines longer than the limit are
/// skipped and reported as [`ProtocolError::LineTooLong`].
#[derive(Debug)]
pub struct CommandReader<R> {
    inner: R,
    buf: Vec<u8>,
    max_line: usize,
}

impl<R: BufRead> CommandReader<R> {
    /// Wraps `inner`, accepting lines up to [`DEFAULT_MAX_LINE`] bytes.
    pub fn new(inner: R) -> CommandReader<R> {
        CommandReader {
            inner,
            buf: Vec::new(),
            max_line: DEFAULT_MAX_LINE,
        }
    }

    /// Sets the longest line accepted, in bytes (excluding the newline).
    #[must_use]
    pub fn with_max_line(mut self, max_line: usize) -> CommandReader<R> {
        self.max_line = max_line;
        self
    }

    /// Reads the next command; `Ok(None)` at the end of input.
    ///
    /// # Errors
    ///
    /// [`ReadError::Protocol`] for a line that is not a valid command; the
    /// line has been consumed, so the caller answers with a failure response
    /// and reads on. [`ReadError::Io`] when reading fails.
    pub fn read_command(&mut self) -> Result<Option<Command>, ReadError> {
        loop {
            match line::read_line(&mut self.inner, &mut self.buf, self.max_line)? {
                LineRead::Eof => return Ok(None),
                LineRead::TooLong => {
                    return Err(ProtocolError::LineTooLong { max: self.max_line }.into())
                }
                LineRead::Line => {
                    if let Some(command) = Command::parse_bytes(&self.buf)? {
                        return Ok(Some(command));
                    }
                }
            }
        }
    }

    /// Gives back the wrapped reader.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: BufRead> Iterator for CommandReader<R> {
    type Item = Result<Command, ReadError>;

    /// Like [`CommandReader::read_command`], ending at the end of input.
    fn next(&mut self) -> Option<Self::Item> {
        self.read_command().transpose()
    }
}

/// Why [`CommandReader::read_command`] returned no command.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A line that is not a valid GTP command.
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
    /// Reading the input failed.
    #[error("failed to read a command")]
    Io(#[from] io::Error),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(input: &[u8], max: usize) -> Vec<Result<Command, String>> {
        CommandReader::new(input)
            .with_max_line(max)
            .map(|r| r.map_err(|e| e.to_string()))
            .collect()
    }

    #[test]
    fn skips_ignorable_lines_and_survives_bad_ones() {
        let input = b"\n  \n# hi\n\t\r\n1 name\r\n99999999999 x\n2\n\xff\xfe version\nlast";
        let got = read_all(input, 100);
        assert_eq!(got.len(), 5);
        assert_eq!(got[0].as_ref().map(|c| c.id), Ok(Some(1)));
        assert!(got[1].as_ref().is_err_and(|e| e.contains("out of range")));
        assert_eq!(got[2], Err("missing command name after id 2".into()));
        assert_eq!(
            got[3].as_ref().map(|c| c.name.as_str()),
            Ok("\u{fffd}\u{fffd}")
        );
        assert_eq!(got[4].as_ref().map(|c| c.name.as_str()), Ok("last"));
    }

    #[test]
    fn long_lines_are_reported_then_skipped() {
        let mut input = vec![b'x'; 1000];
        input.extend_from_slice(b"\nname\n");
        let got = read_all(&input, 10);
        assert_eq!(
            got,
            [
                Err("command line longer than 10 bytes".into()),
                Ok(Command::new("name", [""; 0])),
            ]
        );
    }
}
