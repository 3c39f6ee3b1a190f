//! Superko, the repetition rules of other rule sets (not Ing's): no play may recreate an
//! earlier position (positional) or an earlier position with the same player to move
//! (situational). A hash match is confirmed on the board at every index where it stood.

use crate::board::{Cell, PlayAnalysis};
use crate::color::Color;
use crate::point::{Point, CELLS};
use crate::rules::KoRule;

use super::Game;

/// Whether games under `ko` keep `Game::last_seen`: Ing's cycle rule (R6) and situational
/// superko read it; simple ko and positional superko never do, so they skip the work.
pub(super) fn tracks_situations(ko: KoRule) -> bool {
    matches!(ko, KoRule::Ing | KoRule::SituationalSuperko)
}

impl Game {
    /// The cells after `color` plays `p`.
    pub(super) fn cells_after_play(&self, p: Point, color: Color) -> Box<[Cell; CELLS]> {
        let mut b = self.board.clone();
        let mut scratch = Vec::new();
        b.play_unchecked(p, color, &mut scratch);
        Box::new(b.cells)
    }

    /// Positional superko: whether the board after `color` plays `p` stood before. Every index
    /// whose position has the same hash is compared on the board, not only the first: a
    /// collision never hides a real repetition.
    pub(super) fn position_recurs(&self, p: Point, color: Color, a: &PlayAnalysis) -> bool {
        let after = self.cells_after_play(p, color);
        (0..=self.hist.len())
            .rev()
            .filter(|&t| self.pos_before(t) == a.hash_after)
            .any(|t| *self.cells_at(t) == *after)
    }

    /// Situational superko: whether the situation `sit` after `color` plays `p` stood before,
    /// confirmed on the board at every index where a situation with that hash stood.
    pub(super) fn situation_recurs(&self, p: Point, color: Color, sit: u64) -> bool {
        let after = self.cells_after_play(p, color);
        let mut upto = self.hist.len();
        while let Some(t) = self.latest_index_of(sit, upto) {
            if self.color_at_index(t) == color.opponent() && *self.cells_at(t) == *after {
                return true;
            }
            match t.checked_sub(1) {
                Some(u) => upto = u,
                None => break,
            }
        }
        false
    }
}
