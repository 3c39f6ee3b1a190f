//! Ing Chang-ki's counting rules of Go (應氏計點制圍棋規則, the SST or Goe rules), as specified in
//! the project's rules contract (`docs/rules.md`).
//!
//! * [`Board`]: stones, strings, captures, incremental Zobrist hash; any size up to 25×25.
//! * [`Game`]: the history and every rule of play: single-stone suicide forbidden and block
//!   suicide allowed, Ing's ko rules (hot stones, double and twin hot stones, the disturbing-ko
//!   limit and cycle bans: "除窮任擇"), passes that suspend (2) and end (4) play, results.
//! * [`Score`]: area counting ("子空皆地"), shared points, komi, penalty points and the fill-in
//!   breakdown ("填滿計點").
//! * [`Rules`]: plain data with presets, for comparison with other programs.
//!
//! ```
//! use ingo_rules::{Board, Game, Move, PlayErrorKind, Point, Rules, Setup, Color};
//!
//! // T1 of docs/rules.md: a basic ko. Black takes; White may not retake at once.
//! let board = Board::from_ascii("
//!   A B C D E
//! 5 . X O . .
//! 4 X O . O .
//! 3 . X O . .
//! 2 . . . . .
//! 1 . . . . .").unwrap();
//! let setup = Setup { board, to_move: Color::Black, handicap_passes: 0 };
//! let mut game = Game::new(setup, Rules::ing());
//! let at = |s| Move::Play(Point::from_gtp(s, 5, 5).unwrap());
//! game.play(at("C4")).unwrap();
//! assert_eq!(game.play(at("B4")).unwrap_err().kind, PlayErrorKind::HotStone);
//! game.play(Move::Pass).unwrap();          // a pass is the interval (隔虛提劫)…
//! game.play(Move::Pass).unwrap();
//! assert!(game.is_legal(at("B4")));        // …so White may retake now
//! ```
#![deny(missing_docs)]

mod board;
mod color;
mod count;
mod game;
mod keyset;
mod ko;
mod point;
mod rules;
mod splitmix;
mod zobrist;

pub use board::{AsciiError, Board, BoardSizeError, Cell, PlayAnalysis};
pub use color::{ByColor, Color, ParseColorError};
pub use count::{
    owners, region_owners, score, tally, FillIn, Owner, RegionScratch, Score, Tally,
    MAX_PENALTY_POINTS,
};
pub use game::{
    Game, GameEnd, GameError, Phase, PlayError, PlayErrorKind, PlayedMove, Setup, SetupError,
};
pub use point::{gtp_column, ColoredMove, Move, ParsePointError, Point, MAX_SIZE};
pub use rules::{
    KoRule, Komi, ParseKoRuleError, ParseKomiError, ParsePresetError, ParseSuicideRuleError,
    Preset, Rules, SuicideRule,
};
pub use splitmix::SplitMix64;
