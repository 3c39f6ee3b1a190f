//! Colours of stones and per-colour data.

use std::fmt;
use std::str::FromStr;

/// The colour of a stone or of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Color {
    /// Black, who moves first (黑先白後).
    Black,
    /// White.
    White,
}

impl Color {
    /// The other colour.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `0` for Black, `1` for White: an index into per-colour tables.
    #[inline]
    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// The one-letter name used by SGF and GTP: `B` or `W`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// The error for a colour name that is neither black nor white.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid colour {0:?}: expected b, black, w or white")]
pub struct ParseColorError(pub String);

impl FromStr for Color {
    type Err = ParseColorError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Color::Black),
            "w" | "white" => Ok(Color::White),
            _ => Err(ParseColorError(s.to_string())),
        }
    }
}

/// One value per colour (shakmaty's `ByColor`), instead of a `[T; 2]` indexed by `as usize`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ByColor<T> {
    /// Black's value.
    pub black: T,
    /// White's value.
    pub white: T,
}

impl<T> ByColor<T> {
    /// Builds from one function of the colour.
    pub fn new_with(mut f: impl FnMut(Color) -> T) -> Self {
        ByColor {
            black: f(Color::Black),
            white: f(Color::White),
        }
    }

    /// The value of `color`.
    #[inline]
    pub fn get(&self, color: Color) -> &T {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// The value of `color`, mutably.
    #[inline]
    pub fn get_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}

impl<T> From<ByColor<T>> for (T, T) {
    /// `(black, white)`.
    fn from(v: ByColor<T>) -> (T, T) {
        (v.black, v.white)
    }
}
