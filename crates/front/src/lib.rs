//! The game-handling part of a Go front under Ing's rules (應氏計點制), for the `ingo gtp`
//! engine and a play server alike.
//!
//! * [`Table`]: one game as one object — rules, board size, White's handicap passes (讓手), an
//!   optional [`ingo_clock::Clock`] fed explicit times (the library never reads the wall
//!   clock), the phases (playing, suspended after two passes, ended), the dead-stone step (a
//!   proposal, each side's acceptance, or resumption of play to prove life and death: 提證死活),
//!   resignation, loss on time and forfeit, and the count with its fill-in breakdown. Every
//!   move goes through [`ingo_rules::Game::play_as`]; every action is an [`Event`], and
//!   [`Table::replay`] rebuilds a table from its settings and events. [`Table::to_sgf`] writes
//!   the record with [`ingo_sgf::write_game`].
//! * [`gtp`]: a GTP v2 engine front on a table: commands parsed into a typed
//!   [`gtp::GtpCommand`] by one table, [`gtp::COMMANDS`], that drives `list_commands`,
//!   `known_command` and dispatch.
//! * [`estimate_dead`] and [`judge`]: the dead stones, seki and the count with the neutral
//!   points filled in turn, as the front judges them before an agreement
//!   ([`ingo_player::endgame::judge_end`]).
//! * [`record`]: a game record as a referee counts it, for `ingo score` and a server's judge
//!   page alike: the rules it is read under, its position with the time penalties its result
//!   includes, and its count.
//! * [`count_text`]: the count in words, as an Ing referee reads it off the board; [`explain`]:
//!   why a move is refused, in a sentence for a player.
//!
//! # Feature flags
//!
//! * `serde`: `Serialize` and `Deserialize` for [`Settings`] and [`Event`] (colours as
//!   `"black"`/`"white"`, moves as `[col, row]` from the top-left corner or `null` for a pass,
//!   time controls as their text, such as `ing-pp:3h`).
#![deny(missing_docs)]

pub mod gtp;
pub mod record;
mod report;
mod table;
#[cfg(feature = "serde")]
mod wire;

use ingo_player::endgame::{judge_end, EndgameConfig, Judgement};
use ingo_rules::{Game, PlayErrorKind, Point};

pub use report::count_text;
pub use table::{DeadProposal, Event, Settings, Table, TableError};

/// The dead stones of `game` as the front estimates them before the players agree (GTP
/// `final_status_list dead` during a game, a first proposal at a suspension): the referee-grade
/// end-of-game judgement ([`ingo_player::endgame::judge_end`] with its default configuration:
/// Benson's unconditional life, then playouts, seki and the neutral points filled in turn).
/// Every caller in this crate goes through this function or [`judge`].
pub fn estimate_dead(game: &Game) -> Vec<Point> {
    judge(game).dead
}

/// The whole end-of-game judgement of `game` ([`ingo_player::endgame::judge_end`], default
/// configuration): the status of every string (alive, dead, seki), the neutral points filled
/// in turn, the player to move first (填滿計點), and the count that results.
pub fn judge(game: &Game) -> Judgement {
    judge_end(game, &EndgameConfig::default())
}

/// Why a move is refused, in one sentence for a player (beside the reason code,
/// [`PlayErrorKind::code`]).
///
/// ```
/// use ingo_rules::PlayErrorKind;
/// assert!(ingo_front::explain(PlayErrorKind::HotStone).contains("a pass included"));
/// ```
pub fn explain(kind: PlayErrorKind) -> &'static str {
    match kind {
        PlayErrorKind::Occupied => "The point already holds a stone.",
        PlayErrorKind::OffBoard => "The point is not on the board.",
        PlayErrorKind::Suicide => {
            "The stone would have no liberty and capture nothing; the rules forbid this suicide \
             (under Ing's rules a single stone may not take its own last liberty, 顆子自盡, while \
             a block of stones may)."
        }
        PlayErrorKind::HotStone => {
            "This retakes a hot stone at once: a hot stone may be retaken only after one other \
             move, a pass included (凡提取熱子必須間隔一實手或虛手)."
        }
        PlayErrorKind::DoubleHot => {
            "This retakes double hot stones (雙熱子, eternal life) so that the cycle would repeat \
             at once, which is not allowed."
        }
        PlayErrorKind::TwinHot => {
            "In a triple ko fought by both sides, this capture retakes a twin hot stone \
             (孿熱子) at once, which is not allowed."
        }
        PlayErrorKind::Disturbing => {
            "This disturbing ko capture has already been answered once in this position; \
             disturbing again beyond the first cycle is not allowed (越環再攪)."
        }
        PlayErrorKind::Cycle => {
            "This play would start again a cycle of the whole board that has already been \
             completed, which is banned (除窮任擇)."
        }
        PlayErrorKind::Superko => "This play would recreate an earlier whole-board position.",
        PlayErrorKind::GameOver => "The game has ended.",
        PlayErrorKind::OutOfTurn => "It is the other player's turn.",
        _ => "The rules refuse this move.",
    }
}
