//! Points of the board and moves, with their GTP and SGF names.

use std::fmt;

use crate::color::Color;

/// The largest board side supported (SGF letters and GTP columns both stop at 25).
pub const MAX_SIZE: usize = 25;

/// Row stride of the padded board array: one guard column on each side.
pub(crate) const STRIDE: usize = MAX_SIZE + 2;

/// Number of cells of the padded board array, guard rows included.
pub(crate) const CELLS: usize = STRIDE * STRIDE;

/// A point of the board.
///
/// Internally the index of a padded `27 × 27` array (one guard row and column on every side), the
/// same for every board size, so that neighbours are `±1` and `±27` and a point needs no board to
/// be named. Columns count from the left (`0` = GTP column `A`, SGF letter `a`); rows count from
/// the **top** (`0` = SGF letter `a`; GTP row numbers count from the bottom and so need the size).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub(crate) u16);

impl Point {
    /// The point in column `col` and row `row` (both 0-based, row 0 at the top).
    ///
    /// Returns `None` when either is `MAX_SIZE` or more.
    pub fn new(col: usize, row: usize) -> Option<Point> {
        if col < MAX_SIZE && row < MAX_SIZE {
            Some(Point(((row + 1) * STRIDE + col + 1) as u16))
        } else {
            None
        }
    }

    #[inline]
    pub(crate) fn idx(self) -> usize {
        self.0 as usize
    }

    /// The column, from 0 at the left.
    pub fn col(self) -> usize {
        self.idx() % STRIDE - 1
    }

    /// The row, from 0 at the top.
    pub fn row(self) -> usize {
        self.idx() / STRIDE - 1
    }

    /// The GTP name on a board `height` rows high, for example `Q16` (columns skip `I`).
    ///
    /// A point below the board's last row has no GTP name; it is named by its SGF letters then.
    pub fn to_gtp(self, height: usize) -> String {
        if self.row() >= height {
            return self.to_sgf();
        }
        format!("{}{}", gtp_column(self.col()), height - self.row())
    }

    /// Parses a GTP vertex such as `q16` on a board of `width × height`.
    ///
    /// # Errors
    /// When the text is not a vertex or lies outside the board.
    pub fn from_gtp(s: &str, width: usize, height: usize) -> Result<Point, ParsePointError> {
        let err = || ParsePointError(s.to_string());
        let mut chars = s.trim().chars();
        let c = chars.next().ok_or_else(err)?.to_ascii_uppercase();
        if !c.is_ascii_uppercase() || c == 'I' {
            return Err(err());
        }
        let mut col = (c as u8 - b'A') as usize;
        if c > 'I' {
            col -= 1;
        }
        let rest = chars.as_str();
        if rest.is_empty() || rest.len() > 2 || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        let num: usize = rest.parse().map_err(|_| err())?;
        if col >= width || num == 0 || num > height {
            return Err(err());
        }
        Point::new(col, height - num).ok_or_else(err)
    }

    /// The SGF name, two lowercase letters column then row, for example `pd`.
    pub fn to_sgf(self) -> String {
        let c = (b'a' + self.col() as u8) as char;
        let r = (b'a' + self.row() as u8) as char;
        format!("{c}{r}")
    }

    /// Parses an SGF point such as `pd` (letters `a`–`y`; upper case `A`–`Z` count 26 on in FF\[4],
    /// which no supported board reaches).
    ///
    /// # Errors
    /// When the text is not two letters naming a point of a `width × height` board.
    pub fn from_sgf(s: &str, width: usize, height: usize) -> Result<Point, ParsePointError> {
        let err = || ParsePointError(s.to_string());
        let b = s.as_bytes();
        if b.len() != 2 || !b[0].is_ascii_lowercase() || !b[1].is_ascii_lowercase() {
            return Err(err());
        }
        let (col, row) = ((b[0] - b'a') as usize, (b[1] - b'a') as usize);
        if col >= width || row >= height {
            return Err(err());
        }
        Point::new(col, row).ok_or_else(err)
    }
}

/// The GTP letter of column `col` (0-based), skipping `I`.
pub fn gtp_column(col: usize) -> char {
    let c = b'A' + col as u8;
    (if c >= b'I' { c + 1 } else { c }) as char
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_sgf())
    }
}

/// The error for a point name that does not name a point of the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid point {0:?}")]
pub struct ParsePointError(pub String);

/// A move: a board play (實手) or a pass (虛手).
///
/// Resignation, loss on time and forfeits are not moves: they are [`crate::GameEnd`]s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A stone played on a point.
    Play(Point),
    /// A pass.
    Pass,
}

impl Move {
    /// The GTP name: a vertex, or `pass`.
    pub fn to_gtp(self, height: usize) -> String {
        match self {
            Move::Play(p) => p.to_gtp(height),
            Move::Pass => "pass".to_string(),
        }
    }

    /// Parses a GTP move: a vertex or `pass` (any case).
    ///
    /// # Errors
    /// When the text is neither.
    pub fn from_gtp(s: &str, width: usize, height: usize) -> Result<Move, ParsePointError> {
        if s.trim().eq_ignore_ascii_case("pass") {
            Ok(Move::Pass)
        } else {
            Point::from_gtp(s, width, height).map(Move::Play)
        }
    }
}

/// A move together with the colour that makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ColoredMove {
    /// Who moves.
    pub color: Color,
    /// What is played.
    pub mv: Move,
}
