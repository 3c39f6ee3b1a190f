//! GTP vertices (`Q16`, `pass`) and colors (`b`, `white`).

use std::{fmt, str::FromStr};

use super::quote;

/// The largest board size GTP vertices can name: 25 columns `A`–`Z` without `I`.
pub const MAX_BOARD_SIZE: u8 = 25;

/// Column letters in order; GTP skips `I` so it is not confused with `J` or `1`.
const COLUMNS: &[u8; MAX_BOARD_SIZE as usize] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A GTP vertex: a board point or `pass`.
///
/// Coordinates follow GTP, not SGF: columns are letters from the left
/// (`A` is column 0, `I` is skipped), rows are numbers counted from the
/// **bottom**, starting at 1. So `A1` is the lower left corner, `Vertex::Point
/// { col: 0, row: 1 }`, and on 19×19 `T19` is the upper right one.
///
/// ```
/// use ingo_gtp::protocol::Vertex;
///
/// let v = Vertex::parse("q16", 19).unwrap();
/// assert_eq!(v, Vertex::Point { col: 15, row: 16 });
/// assert_eq!(v.to_string(), "Q16");
/// assert_eq!(Vertex::parse("PASS", 9).unwrap(), Vertex::Pass);
/// assert!(Vertex::parse("K10", 9).is_err()); // off a 9x9 board
/// ```
///
/// Values built by hand can lie outside any board; [`Display`](fmt::Display)
/// then writes `?` for a column it cannot name and the row number as is,
/// instead of panicking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Vertex {
    /// The `pass` move.
    Pass,
    /// A point on the board.
    Point {
        /// Column, 0-based from the left: 0 is `A`, 8 is `J`.
        col: u8,
        /// Row, 1-based from the bottom, as written in GTP.
        row: u8,
    },
}

impl Vertex {
    /// Parses a vertex for a board of `size`×`size`, case-insensitively.
    ///
    /// # Errors
    ///
    /// [`VertexError::BoardSize`] if `size` is not in `1..=25`,
    /// [`VertexError::Malformed`] for text that is not a vertex (including a
    /// column `I`, a row with a sign or leading zero), and
    /// [`VertexError::OffBoard`] for a well-formed vertex outside the board.
    pub fn parse(s: &str, size: u8) -> Result<Vertex, VertexError> {
        if !(1..=MAX_BOARD_SIZE).contains(&size) {
            return Err(VertexError::BoardSize { size });
        }
        if s.eq_ignore_ascii_case("pass") {
            return Ok(Vertex::Pass);
        }
        let malformed = || VertexError::Malformed { input: quote(s) };
        let bytes = s.as_bytes();
        let (&letter, digits) = bytes.split_first().ok_or_else(malformed)?;
        let col = COLUMNS
            .iter()
            .position(|&c| c == letter.to_ascii_uppercase())
            .ok_or_else(malformed)?;
        // One or two digits without a leading zero: the canonical spelling,
        // so that every accepted text names exactly one point.
        let row = match digits {
            [d @ b'1'..=b'9'] => d - b'0',
            [d1 @ b'1'..=b'9', d2 @ b'0'..=b'9'] => (d1 - b'0') * 10 + (d2 - b'0'),
            _ => return Err(malformed()),
        };
        // `position` is below 25, so the conversion cannot fail.
        let col = u8::try_from(col).map_err(|_| malformed())?;
        if col >= size || row > size {
            return Err(VertexError::OffBoard {
                vertex: Vertex::Point { col, row },
                size,
            });
        }
        Ok(Vertex::Point { col, row })
    }

    /// Whether this vertex is `pass`.
    pub fn is_pass(self) -> bool {
        self == Vertex::Pass
    }
}

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Vertex::Pass => f.write_str("pass"),
            Vertex::Point { col, row } => {
                let letter = COLUMNS
                    .get(usize::from(col))
                    .map_or('?', |&c| char::from(c));
                write!(f, "{letter}{row}")
            }
        }
    }
}

/// Text that is not a vertex on the given board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VertexError {
    /// The board size cannot be written with GTP vertices.
    #[error("board size {size} is not in 1..={MAX_BOARD_SIZE}")]
    BoardSize {
        /// The size asked for.
        size: u8,
    },
    /// The text is not a vertex at all.
    #[error("malformed vertex {input:?}")]
    Malformed {
        /// The text received (shortened if very long).
        input: String,
    },
    /// A well-formed vertex outside the board.
    #[error("vertex {vertex} is off a {size}x{size} board")]
    OffBoard {
        /// The vertex as parsed.
        vertex: Vertex,
        /// The board size.
        size: u8,
    },
}

/// A player color as written in GTP.
///
/// GTP accepts `b`, `black`, `w` and `white` in any case; this type is the
/// protocol's view, kept apart from the rules crate's `Color` so that this
/// crate does not depend on it. [`Display`](fmt::Display) writes `b` or `w`.
///
/// ```
/// use ingo_gtp::protocol::GtpColor;
///
/// assert_eq!("WHITE".parse::<GtpColor>().unwrap(), GtpColor::White);
/// assert_eq!(GtpColor::Black.to_string(), "b");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GtpColor {
    /// Black, `b` or `black`.
    Black,
    /// White, `w` or `white`.
    White,
}

impl GtpColor {
    /// The other color.
    #[must_use]
    pub fn opponent(self) -> GtpColor {
        match self {
            GtpColor::Black => GtpColor::White,
            GtpColor::White => GtpColor::Black,
        }
    }
}

impl FromStr for GtpColor {
    type Err = ColorError;

    fn from_str(s: &str) -> Result<GtpColor, ColorError> {
        if s.eq_ignore_ascii_case("b") || s.eq_ignore_ascii_case("black") {
            Ok(GtpColor::Black)
        } else if s.eq_ignore_ascii_case("w") || s.eq_ignore_ascii_case("white") {
            Ok(GtpColor::White)
        } else {
            Err(ColorError { input: quote(s) })
        }
    }
}

impl fmt::Display for GtpColor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GtpColor::Black => "b",
            GtpColor::White => "w",
        })
    }
}

/// Text that is not a GTP color.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid color {input:?}: expected b, black, w or white")]
pub struct ColorError {
    /// The text received (shortened if very long).
    pub input: String,
}

/// What an engine answers to `genmove`: a vertex, or `resign`.
///
/// Resigning is not a move (it ends the game with a result), so it is not a
/// [`Vertex`]; the referee turns it into a game result.
///
/// ```
/// use ingo_gtp::protocol::{GenmoveReply, Vertex};
///
/// assert_eq!(GenmoveReply::parse("Resign", 19).unwrap(), GenmoveReply::Resign);
/// assert_eq!(GenmoveReply::parse(" d4 ", 19).unwrap(), GenmoveReply::Move(Vertex::Point { col: 3, row: 4 }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GenmoveReply {
    /// The engine plays this vertex (possibly `pass`).
    Move(Vertex),
    /// The engine resigns.
    Resign,
}

impl GenmoveReply {
    /// Parses a `genmove` response text for a `size`×`size` board;
    /// surrounding whitespace is ignored.
    ///
    /// # Errors
    ///
    /// As for [`Vertex::parse`].
    pub fn parse(text: &str, size: u8) -> Result<GenmoveReply, VertexError> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("resign") {
            // Check the size anyway, so that a bad size is reported the same
            // way whatever the engine answered.
            if !(1..=MAX_BOARD_SIZE).contains(&size) {
                return Err(VertexError::BoardSize { size });
            }
            return Ok(GenmoveReply::Resign);
        }
        Vertex::parse(text, size).map(GenmoveReply::Move)
    }
}

impl fmt::Display for GenmoveReply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenmoveReply::Move(v) => v.fmt(f),
            GenmoveReply::Resign => f.write_str("resign"),
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn every_point_round_trips_on_every_size() {
        for size in 1..=MAX_BOARD_SIZE {
            let mut seen = std::collections::HashSet::new();
            for col in 0..size {
                for row in 1..=size {
                    let v = Vertex::Point { col, row };
                    let text = v.to_string();
                    assert_eq!(Vertex::parse(&text, size), Ok(v), "{text} on {size}");
                    assert_eq!(Vertex::parse(&text.to_lowercase(), size), Ok(v));
                    assert!(!text.contains('I'), "{text}");
                    assert!(seen.insert(text));
                }
            }
            // Just outside, on both axes.
            let right = Vertex::Point { col: size, row: 1 };
            let top = Vertex::Point {
                col: 0,
                row: size + 1,
            };
            for off in [right, top] {
                if let Vertex::Point { col, row } = off {
                    if col < MAX_BOARD_SIZE && row <= 99 {
                        assert_eq!(
                            Vertex::parse(&off.to_string(), size),
                            Err(VertexError::OffBoard { vertex: off, size })
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn corners_and_letters() {
        assert_eq!(
            Vertex::parse("A1", 19),
            Ok(Vertex::Point { col: 0, row: 1 })
        );
        assert_eq!(
            Vertex::parse("T19", 19),
            Ok(Vertex::Point { col: 18, row: 19 })
        );
        assert_eq!(Vertex::parse("J9", 9), Ok(Vertex::Point { col: 8, row: 9 }));
        assert_eq!(
            Vertex::parse("Z25", 25),
            Ok(Vertex::Point { col: 24, row: 25 })
        );
        assert_eq!(Vertex::parse("A1", 1), Ok(Vertex::Point { col: 0, row: 1 }));
    }

    #[test]
    fn pass_in_any_case() {
        for s in ["pass", "PASS", "Pass", "pAsS"] {
            assert_eq!(Vertex::parse(s, 19), Ok(Vertex::Pass));
        }
        assert_eq!(Vertex::Pass.to_string(), "pass");
    }

    #[test]
    fn malformed() {
        for s in [
            "", "A", "1", "I5", "i5", "A0", "A01", "A+1", "A-1", "A100", "AA1", " A1", "A1 ", "Ä1",
            "é", "passs", "A١", "pas",
        ] {
            assert!(
                matches!(Vertex::parse(s, 25), Err(VertexError::Malformed { .. })),
                "{s:?}"
            );
        }
    }

    #[test]
    fn off_board_and_bad_sizes() {
        assert_eq!(
            Vertex::parse("K10", 9).map_err(|e| e.to_string()),
            Err("vertex K10 is off a 9x9 board".into())
        );
        assert!(matches!(
            Vertex::parse("A99", 25),
            Err(VertexError::OffBoard { .. })
        ));
        for size in [0, 26, 255] {
            assert_eq!(
                Vertex::parse("A1", size),
                Err(VertexError::BoardSize { size })
            );
            assert_eq!(
                Vertex::parse("pass", size),
                Err(VertexError::BoardSize { size })
            );
            assert_eq!(
                GenmoveReply::parse("resign", size),
                Err(VertexError::BoardSize { size })
            );
        }
    }

    #[test]
    fn display_never_panics_on_hand_built_values() {
        assert_eq!(Vertex::Point { col: 200, row: 0 }.to_string(), "?0");
    }

    #[test]
    fn colors() {
        for (s, c) in [
            ("b", GtpColor::Black),
            ("B", GtpColor::Black),
            ("black", GtpColor::Black),
            ("BlAcK", GtpColor::Black),
            ("w", GtpColor::White),
            ("W", GtpColor::White),
            ("white", GtpColor::White),
            ("WHITE", GtpColor::White),
        ] {
            assert_eq!(s.parse::<GtpColor>(), Ok(c), "{s}");
        }
        for s in ["", "bl", "blacks", "x", " b", "empty"] {
            assert!(s.parse::<GtpColor>().is_err(), "{s:?}");
        }
        assert_eq!(GtpColor::Black.opponent(), GtpColor::White);
        assert_eq!(
            GtpColor::White.to_string().parse::<GtpColor>(),
            Ok(GtpColor::White)
        );
        assert_eq!(
            "x".parse::<GtpColor>().map_err(|e| e.to_string()),
            Err("invalid color \"x\": expected b, black, w or white".into())
        );
    }

    #[test]
    fn genmove_replies() {
        assert_eq!(GenmoveReply::parse("RESIGN", 9), Ok(GenmoveReply::Resign));
        assert_eq!(
            GenmoveReply::parse("pass", 9),
            Ok(GenmoveReply::Move(Vertex::Pass))
        );
        assert!(GenmoveReply::parse("resigns", 9).is_err());
        assert_eq!(GenmoveReply::Resign.to_string(), "resign");
    }

    proptest! {
        #[test]
        fn parse_never_panics(s in any::<String>(), size in any::<u8>()) {
            let _ = Vertex::parse(&s, size);
            let _ = GenmoveReply::parse(&s, size);
            let _ = s.parse::<GtpColor>();
        }

        #[test]
        fn valid_vertices_round_trip_in_any_case(
            size in 1..=MAX_BOARD_SIZE,
            col in 0..MAX_BOARD_SIZE,
            row in 1..=MAX_BOARD_SIZE,
            lower in any::<bool>(),
        ) {
            let (col, row) = (col % size, (row - 1) % size + 1);
            let v = Vertex::Point { col, row };
            let text = if lower { v.to_string().to_lowercase() } else { v.to_string() };
            prop_assert_eq!(Vertex::parse(&text, size), Ok(v));
        }

        #[test]
        fn parsed_vertices_are_on_the_board(s in "[a-zA-Z][0-9]{1,3}", size in 1..=MAX_BOARD_SIZE) {
            if let Ok(Vertex::Point { col, row }) = Vertex::parse(&s, size) {
                prop_assert!(col < size && (1..=size).contains(&row));
                let text = Vertex::Point { col, row }.to_string();
                prop_assert!(text.eq_ignore_ascii_case(&s), "{} vs {}", text, s);
            }
        }
    }
}
