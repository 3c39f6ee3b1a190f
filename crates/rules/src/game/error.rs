//! Why a move or another action of a game was refused.

use std::fmt;

use crate::color::Color;
use crate::point::{Move, Point};

/// Why a move was refused. [`PlayErrorKind::code`] gives the reason code used in reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PlayErrorKind {
    /// The point holds a stone.
    Occupied,
    /// The point is not on the board.
    OffBoard,
    /// Suicide that the rules forbid (under Ing: single-stone suicide, 顆子自盡).
    Suicide,
    /// Retaking a hot stone at once (單熱子, R2): "凡提取熱子必須間隔一實手或虛手".
    HotStone,
    /// Retaking the two hot stones of eternal life (雙熱子, R3).
    DoubleHot,
    /// Capturing in another ko of a fighting triple ko (孿熱子, R4).
    TwinHot,
    /// Disturbing again beyond the first cycle (越環再攪, R5).
    Disturbing,
    /// A play banned after a completed cycle (R6).
    Cycle,
    /// Recreates an earlier position (superko rules, not Ing).
    Superko,
    /// The game has ended.
    GameOver,
    /// It is the other player's turn.
    OutOfTurn,
}

impl PlayErrorKind {
    /// The reason code: `occupied`, `off-board`, `suicide`, `hot-stone`, `double-hot`,
    /// `twin-hot`, `disturbing`, `cycle`, `superko`, `game-over` or `out-of-turn`.
    pub fn code(self) -> &'static str {
        match self {
            PlayErrorKind::Occupied => "occupied",
            PlayErrorKind::OffBoard => "off-board",
            PlayErrorKind::Suicide => "suicide",
            PlayErrorKind::HotStone => "hot-stone",
            PlayErrorKind::DoubleHot => "double-hot",
            PlayErrorKind::TwinHot => "twin-hot",
            PlayErrorKind::Disturbing => "disturbing",
            PlayErrorKind::Cycle => "cycle",
            PlayErrorKind::Superko => "superko",
            PlayErrorKind::GameOver => "game-over",
            PlayErrorKind::OutOfTurn => "out-of-turn",
        }
    }

    /// Whether the refusal comes from a repetition rule (any of Ing's ko rules or superko).
    pub fn is_ko(self) -> bool {
        matches!(
            self,
            PlayErrorKind::HotStone
                | PlayErrorKind::DoubleHot
                | PlayErrorKind::TwinHot
                | PlayErrorKind::Disturbing
                | PlayErrorKind::Cycle
                | PlayErrorKind::Superko
        )
    }
}

impl fmt::Display for PlayErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A refused move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {} {}: {kind}", color.letter(), mv.to_gtp(*height as usize))]
pub struct PlayError {
    /// Who tried to move.
    pub color: Color,
    /// The move refused.
    pub mv: Move,
    /// Why.
    pub kind: PlayErrorKind,
    /// The board height, to name the point in GTP style. The name is made only when the error
    /// is displayed: playouts try and drop many refused moves.
    height: u8,
}

impl PlayError {
    pub(super) fn new(color: Color, mv: Move, kind: PlayErrorKind, height: usize) -> PlayError {
        PlayError {
            color,
            mv,
            kind,
            height: height as u8,
        }
    }
}

/// An error of a game action other than a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GameError {
    /// There is no move to take back.
    #[error("no move to undo")]
    NothingToUndo,
    /// Dead stones can be agreed only while play is suspended (after two passes).
    #[error("dead stones can only be agreed while play is suspended")]
    NotSuspended,
    /// A point named as dead holds no stone.
    #[error("point {0:?} holds no stone")]
    NoStone(Point),
    /// The game has already ended.
    #[error("the game has already ended")]
    AlreadyEnded,
}
