//! The starting point of a game, and the setups no game can start from.

use crate::board::Board;
use crate::color::Color;
use crate::point::Point;

/// The starting point of a game: stones, who moves first and the handicap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The stones at the start (usually none).
    pub board: Board,
    /// Who moves first.
    pub to_move: Color,
    /// White's handicap passes (讓手: "N先減1即為所讓手數"), recorded as ordinary passes.
    pub handicap_passes: u8,
}

/// A setup that no game can start from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    /// A string of the setup has no liberty: play could never capture it (every capture needs a
    /// last liberty to fill), so it would stand for good and count as alive.
    #[error("the {color} string at {name} has no liberty")]
    NoLiberty {
        /// A stone of the string.
        point: Point,
        /// Its colour.
        color: Color,
        /// The point in GTP style (`C3`).
        name: String,
    },
}

impl Setup {
    /// Checks that a game can start from this setup: every string has a liberty.
    ///
    /// Play never leaves a string without liberties, but setup stones (SGF `AB`/`AW`) are put
    /// on the board as they come. Such a string is refused rather than resolved: which side's
    /// stones should go is a guess (sgfmill's `get_setup_and_moves` refuses it too).
    ///
    /// # Errors
    /// [`SetupError::NoLiberty`] naming the first such string, row by row from the top left.
    pub fn check(&self) -> Result<(), SetupError> {
        let b = &self.board;
        match b
            .points()
            .find(|&p| b.color_at(p).is_some() && b.liberties_upto(p, 1).is_empty())
        {
            Some(point) => Err(SetupError::NoLiberty {
                point,
                color: b.color_at(point).unwrap_or(Color::Black),
                name: point.to_gtp(b.height()),
            }),
            None => Ok(()),
        }
    }

    /// An empty square board with Black to move.
    ///
    /// # Errors
    /// When the size is not in 1..=25.
    pub fn empty(size: usize) -> Result<Setup, crate::BoardSizeError> {
        Ok(Setup {
            board: Board::new(size)?,
            to_move: Color::Black,
            handicap_passes: 0,
        })
    }
}
