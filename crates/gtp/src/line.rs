//! Reading lines with a length limit, shared by the engine front and the
//! engine controller.
//!
//! `BufRead::read_until` grows its buffer without bound, so a peer that
//! writes without newlines could make us allocate until we run out of
//! memory. Both GTP sides read from processes we do not trust.

use std::io::{self, BufRead};

/// What one call of [`read_line`] found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum LineRead {
    /// A whole line is in the buffer, without its `\n` (a final line without
    /// `\n` before the end of input also counts).
    Line,
    /// The line was longer than the limit: the buffer holds its first `max`
    /// bytes and the rest, up to and including the `\n`, was discarded.
    TooLong,
    /// End of input; the buffer is empty.
    Eof,
}

/// Reads one line into `buf` (cleared first), keeping at most `max` bytes.
pub(crate) fn read_line<R: BufRead + ?Sized>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<LineRead> {
    buf.clear();
    let mut too_long = false;
    let mut read_any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(match (read_any, too_long) {
                (false, _) => LineRead::Eof,
                (true, false) => LineRead::Line,
                (true, true) => LineRead::TooLong,
            });
        }
        read_any = true;
        let newline = available.iter().position(|&b| b == b'\n');
        let chunk = &available[..newline.unwrap_or(available.len())];
        let room = max.saturating_sub(buf.len());
        if chunk.len() > room {
            too_long = true;
        }
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let consumed = newline.map_or(available.len(), |n| n + 1);
        reader.consume(consumed);
        if newline.is_some() {
            return Ok(if too_long {
                LineRead::TooLong
            } else {
                LineRead::Line
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::BufReader;

    use super::*;

    fn lines(input: &[u8], max: usize, capacity: usize) -> Vec<(LineRead, Vec<u8>)> {
        let mut reader = BufReader::with_capacity(capacity, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            let r = read_line(&mut reader, &mut buf, max).expect("in-memory read");
            if r == LineRead::Eof {
                return out;
            }
            out.push((r, buf.clone()));
        }
    }

    #[test]
    fn splits_and_bounds() {
        for capacity in [1, 2, 3, 7, 64] {
            let got = lines(b"ab\n\nabcdefgh\nxyz", 4, capacity);
            assert_eq!(
                got,
                [
                    (LineRead::Line, b"ab".to_vec()),
                    (LineRead::Line, b"".to_vec()),
                    (LineRead::TooLong, b"abcd".to_vec()),
                    (LineRead::Line, b"xyz".to_vec()),
                ],
                "capacity {capacity}"
            );
        }
        assert!(lines(b"", 4, 8).is_empty());
        assert_eq!(lines(b"abcd\n", 4, 2), [(LineRead::Line, b"abcd".to_vec())]);
        assert_eq!(
            lines(b"abcde", 4, 2),
            [(LineRead::TooLong, b"abcd".to_vec())]
        );
    }
}
