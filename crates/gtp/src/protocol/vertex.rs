//! GTP vertices (`Q16`, `pass`): the wire form of an `ingo_rules::Move`.
//!
//! The coordinates themselves (columns `A`–`Z` without `I`, rows from the bottom) are
//! [`Move::from_gtp`] and [`Move::to_gtp`] in `ingo-rules`; this module adds what the protocol
//! demands on top: a square board of at most 25 lines, and one spelling per vertex. Colours are
//! `ingo_rules::Color`, read by [`parse_color`] with GTP's own error message.

use ingo_rules::{Color, Move};

use super::quote;

/// The largest board size GTP vertices can name: 25 columns `A`–`Z` without `I`.
pub const MAX_BOARD_SIZE: u8 = 25;

/// Parses a GTP vertex for a board of `size`×`size`, case-insensitively, into a [`Move`].
///
/// Coordinates follow GTP, not SGF: columns are letters from the left (`A` is column 0, `I` is
/// skipped), rows are numbers counted from the **bottom**, starting at 1, so `A1` is the lower
/// left corner; the [`Point`](ingo_rules::Point) it gives counts rows from the top.
///
/// ```
/// use ingo_gtp::protocol::parse_vertex;
/// use ingo_rules::{Move, Point};
///
/// let q16 = parse_vertex("q16", 19).unwrap();
/// assert_eq!(q16, Move::Play(Point::new(15, 3).unwrap()));
/// assert_eq!(q16.to_gtp(19), "Q16");
/// assert_eq!(parse_vertex("PASS", 9).unwrap(), Move::Pass);
/// assert!(parse_vertex("K10", 9).is_err()); // off a 9x9 board
/// ```
///
/// # Errors
///
/// [`VertexError::BoardSize`] if `size` is not in `1..=25`,
/// [`VertexError::Malformed`] for text that is not a vertex (including a
/// column `I`, a row with a sign or leading zero, surrounding spaces), and
/// [`VertexError::OffBoard`] for a well-formed vertex outside the board.
pub fn parse_vertex(s: &str, size: u8) -> Result<Move, VertexError> {
    if !(1..=MAX_BOARD_SIZE).contains(&size) {
        return Err(VertexError::BoardSize { size });
    }
    if s.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    // One letter and one or two digits without a leading zero: the canonical spelling, so that
    // every accepted text names exactly one point. `Move::from_gtp` is more lenient (it trims
    // and reads `A01`), as befits names typed by people.
    let canonical = match s.as_bytes() {
        [letter, digits @ ..]
            if letter.is_ascii_alphabetic() && !letter.eq_ignore_ascii_case(&b'i') =>
        {
            matches!(digits, [b'1'..=b'9'] | [b'1'..=b'9', b'0'..=b'9'])
        }
        _ => false,
    };
    if !canonical {
        return Err(VertexError::Malformed { input: quote(s) });
    }
    let size_usize = usize::from(size);
    Move::from_gtp(s, size_usize, size_usize).map_err(|_| VertexError::OffBoard {
        vertex: s.to_ascii_uppercase(),
        size,
    })
}

/// Parses a GTP colour: `b`, `black`, `w` or `white` in any case.
///
/// ```
/// use ingo_gtp::protocol::parse_color;
/// use ingo_rules::Color;
///
/// assert_eq!(parse_color("WHITE"), Ok(Color::White));
/// assert!(parse_color("purple").is_err());
/// ```
///
/// # Errors
///
/// [`ColorError`] for anything else, quoting the text (shortened if very long).
pub fn parse_color(s: &str) -> Result<Color, ColorError> {
    if s.eq_ignore_ascii_case("b") || s.eq_ignore_ascii_case("black") {
        Ok(Color::Black)
    } else if s.eq_ignore_ascii_case("w") || s.eq_ignore_ascii_case("white") {
        Ok(Color::White)
    } else {
        Err(ColorError { input: quote(s) })
    }
}

/// Text that is not a GTP color.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid color {input:?}: expected b, black, w or white")]
pub struct ColorError {
    /// The text received (shortened if very long).
    pub input: String,
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
        /// The vertex as received, in upper case.
        vertex: String,
        /// The board size.
        size: u8,
    },
}

/// What an engine answers to `genmove`: a vertex, or `resign`.
///
/// Resigning is not a move (it ends the game with a result), so it is not a
/// [`Move`]; the referee turns it into a game result.
///
/// ```
/// use ingo_gtp::protocol::GenmoveReply;
/// use ingo_rules::{Move, Point};
///
/// assert_eq!(GenmoveReply::parse("Resign", 19).unwrap(), GenmoveReply::Resign);
/// let d4 = Move::Play(Point::new(3, 15).unwrap());
/// assert_eq!(GenmoveReply::parse(" d4 ", 19).unwrap(), GenmoveReply::Move(d4));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GenmoveReply {
    /// The engine plays this move (possibly `pass`).
    Move(Move),
    /// The engine resigns.
    Resign,
}

impl GenmoveReply {
    /// Parses a `genmove` response text for a `size`×`size` board;
    /// surrounding whitespace is ignored.
    ///
    /// # Errors
    ///
    /// As for [`parse_vertex`].
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
        parse_vertex(text, size).map(GenmoveReply::Move)
    }
}

#[cfg(test)]
mod tests {
    use ingo_rules::Point;
    use proptest::prelude::*;

    use super::*;

    /// The move at GTP column `col` (0 is `A`) and row `row` (1 is the bottom) of a `size` board.
    fn at(col: u8, row: u8, size: u8) -> Move {
        let p = Point::new(usize::from(col), usize::from(size - row)).expect("on the board");
        Move::Play(p)
    }

    #[test]
    fn every_point_round_trips_on_every_size() {
        for size in 1..=MAX_BOARD_SIZE {
            let mut seen = std::collections::HashSet::new();
            for col in 0..size {
                for row in 1..=size {
                    let mv = at(col, row, size);
                    let text = mv.to_gtp(usize::from(size));
                    assert_eq!(parse_vertex(&text, size), Ok(mv), "{text} on {size}");
                    assert_eq!(parse_vertex(&text.to_lowercase(), size), Ok(mv));
                    assert!(!text.contains('I'), "{text}");
                    assert!(seen.insert(text));
                }
            }
        }
        // Just outside, on both axes.
        assert_eq!(
            parse_vertex("K9", 9),
            Err(VertexError::OffBoard {
                vertex: "K9".into(),
                size: 9
            })
        );
        assert_eq!(
            parse_vertex("a10", 9),
            Err(VertexError::OffBoard {
                vertex: "A10".into(),
                size: 9
            })
        );
    }

    #[test]
    fn corners_and_letters() {
        assert_eq!(parse_vertex("A1", 19), Ok(at(0, 1, 19)));
        assert_eq!(parse_vertex("T19", 19), Ok(at(18, 19, 19)));
        assert_eq!(parse_vertex("J9", 9), Ok(at(8, 9, 9)));
        assert_eq!(parse_vertex("Z25", 25), Ok(at(24, 25, 25)));
        assert_eq!(parse_vertex("A1", 1), Ok(at(0, 1, 1)));
    }

    #[test]
    fn pass_in_any_case() {
        for s in ["pass", "PASS", "Pass", "pAsS"] {
            assert_eq!(parse_vertex(s, 19), Ok(Move::Pass));
        }
    }

    #[test]
    fn malformed() {
        for s in [
            "", "A", "1", "I5", "i5", "A0", "A01", "A+1", "A-1", "A100", "AA1", " A1", "A1 ", "Ä1",
            "é", "passs", "A١", "pas",
        ] {
            assert!(
                matches!(parse_vertex(s, 25), Err(VertexError::Malformed { .. })),
                "{s:?}"
            );
        }
    }

    #[test]
    fn off_board_and_bad_sizes() {
        assert_eq!(
            parse_vertex("K10", 9).map_err(|e| e.to_string()),
            Err("vertex K10 is off a 9x9 board".into())
        );
        assert!(matches!(
            parse_vertex("A99", 25),
            Err(VertexError::OffBoard { .. })
        ));
        for size in [0, 26, 255] {
            assert_eq!(
                parse_vertex("A1", size),
                Err(VertexError::BoardSize { size })
            );
            assert_eq!(
                parse_vertex("pass", size),
                Err(VertexError::BoardSize { size })
            );
            assert_eq!(
                GenmoveReply::parse("resign", size),
                Err(VertexError::BoardSize { size })
            );
        }
    }

    #[test]
    fn genmove_replies() {
        assert_eq!(GenmoveReply::parse("RESIGN", 9), Ok(GenmoveReply::Resign));
        assert_eq!(
            GenmoveReply::parse("pass", 9),
            Ok(GenmoveReply::Move(Move::Pass))
        );
        assert!(GenmoveReply::parse("resigns", 9).is_err());
    }

    #[test]
    fn colors() {
        for s in ["b", "B", "black", "BlAcK"] {
            assert_eq!(parse_color(s), Ok(Color::Black), "{s}");
        }
        for s in ["w", "W", "white", "WHITE"] {
            assert_eq!(parse_color(s), Ok(Color::White), "{s}");
        }
        for s in ["", "bl", "blacks", "x", " b", "empty"] {
            assert!(parse_color(s).is_err(), "{s:?}");
        }
        assert_eq!(
            parse_color("x").map_err(|e| e.to_string()),
            Err("invalid color \"x\": expected b, black, w or white".into())
        );
    }

    proptest! {
        #[test]
        fn parse_never_panics(s in any::<String>(), size in any::<u8>()) {
            let _ = parse_color(&s);
            let _ = parse_vertex(&s, size);
            let _ = GenmoveReply::parse(&s, size);
        }

        #[test]
        fn valid_vertices_round_trip_in_any_case(
            size in 1..=MAX_BOARD_SIZE,
            col in 0..MAX_BOARD_SIZE,
            row in 1..=MAX_BOARD_SIZE,
            lower in any::<bool>(),
        ) {
            let (col, row) = (col % size, (row - 1) % size + 1);
            let mv = at(col, row, size);
            let text = mv.to_gtp(usize::from(size));
            let text = if lower { text.to_lowercase() } else { text };
            prop_assert_eq!(parse_vertex(&text, size), Ok(mv));
        }

        #[test]
        fn parsed_vertices_are_on_the_board(s in "[a-zA-Z][0-9]{1,3}", size in 1..=MAX_BOARD_SIZE) {
            if let Ok(Move::Play(p)) = parse_vertex(&s, size) {
                let n = usize::from(size);
                prop_assert!(p.col() < n && p.row() < n);
                let text = Move::Play(p).to_gtp(n);
                prop_assert!(text.eq_ignore_ascii_case(&s), "{} vs {}", text, s);
            }
        }
    }
}
