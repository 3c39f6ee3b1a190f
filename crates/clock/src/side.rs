//! The two players and per-player data.

use std::{fmt, str::FromStr};

/// One of the two players, named by the colour they play.
///
/// This crate stands alone (no dependency on `ingo-rules`), so it has its own
/// two-valued type; `ingo_rules::Color` maps onto it one to one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Side {
    /// The player with the black stones.
    Black,
    /// The player with the white stones.
    White,
}

impl Side {
    /// Both sides, Black first.
    pub const ALL: [Side; 2] = [Side::Black, Side::White];

    /// The other side.
    #[inline]
    pub fn opponent(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }

    /// The one-letter name used by SGF and GTP: `B` or `W`.
    pub fn letter(self) -> char {
        match self {
            Side::Black => 'B',
            Side::White => 'W',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Black => "black",
            Side::White => "white",
        })
    }
}

/// The error for a side name that is neither black nor white.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid side {0:?}: expected b, black, w or white")]
pub struct ParseSideError(pub String);

impl FromStr for Side {
    type Err = ParseSideError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Side::Black),
            "w" | "white" => Ok(Side::White),
            _ => Err(ParseSideError(s.to_string())),
        }
    }
}

/// One value per side (shakmaty's `ByColor`), instead of a `[T; 2]` indexed by `as usize`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BySide<T> {
    /// Black's value.
    pub black: T,
    /// White's value.
    pub white: T,
}

impl<T> BySide<T> {
    /// Builds from one function of the side, called for Black first.
    pub fn new_with(mut f: impl FnMut(Side) -> T) -> Self {
        let black = f(Side::Black);
        let white = f(Side::White);
        BySide { black, white }
    }

    /// The value of `side`.
    #[inline]
    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::Black => &self.black,
            Side::White => &self.white,
        }
    }

    /// The value of `side`, mutably.
    #[inline]
    pub fn get_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::Black => &mut self.black,
            Side::White => &mut self.white,
        }
    }
}

impl<T> From<BySide<T>> for (T, T) {
    /// `(black, white)`.
    fn from(v: BySide<T>) -> (T, T) {
        (v.black, v.white)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for side in Side::ALL {
            assert_eq!(side.to_string().parse::<Side>(), Ok(side));
            assert_eq!(side.letter().to_string().parse::<Side>(), Ok(side));
            assert_eq!(side.opponent().opponent(), side);
        }
        assert!("red".parse::<Side>().is_err());
    }

    #[test]
    fn by_side_indexing() {
        let mut v = BySide::new_with(|s| s == Side::White);
        assert!(!*v.get(Side::Black));
        *v.get_mut(Side::Black) = true;
        assert_eq!(<(bool, bool)>::from(v), (true, true));
    }
}
