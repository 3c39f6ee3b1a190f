//! A Monte Carlo tree search player for Ing Chang-ki's rules of Go (應氏計點制), built on
//! [`ingo_rules`], which stays the only judge of legality and of the count.
//!
//! * [`Player`]: UCT with RAVE over playouts, light random ones by default or heavy ones
//!   ([`PlayoutPolicy::Heavy`]: atari escapes and captures around the last move, nakade, 3×3
//!   shapes, no self-atari of three stones or more; [`Config::playout`]);
//!   [`Player::genmove`] returns a [`Decision`] (a move, or resignation when enabled) with
//!   [`SearchInfo`] statistics.
//! * [`Budget`] (playouts and/or time per move), [`TimeLeft`] and [`TimePolicy`] (thinking time
//!   from the clock), [`Config`]; [`TimeSource`], where the player reads the time (the wall
//!   clock unless [`Player::with_time_source`] gives another).
//! * [`playout`]: one random playout, counted ([`playout_with`]: one of a given policy);
//!   [`RandomPlayer`]: the playout policy as a player.
//! * [`estimate_dead`]: the stones random playouts nearly always capture, a quick dead-stone
//!   estimate for an engine front.
//! * [`endgame`]: the end of a game as a referee counts it (dead stones, seki, the neutral
//!   points filled in turn, the count): [`endgame::judge_end`].
//! * [`patterns`]: move features (3×3 and diamond shapes, captures, atari escapes, self-atari,
//!   ataris with their ladders, distances to the last moves and the edge) and their
//!   Bradley–Terry gammas learned from records (Coulom 2007), shipped compiled in
//!   ([`patterns::Patterns::builtin`]); the tree uses them as priors on 13×13 and larger
//!   ([`Config::pattern_priors`]).
//! * [`tactics`]: tactical reading of one string: ladders, and its capture or rescue in a small
//!   fight ([`tactics::Reader`]).
//!
//! What the player does under Ing's rules:
//!
//! * It never fills one of its own eyes ([`ingo_rules::Board::is_eye`]).
//! * Every stone left on the board at the end counts as alive ("連續四次虛手" ends play and
//!   there is no agreement in bot play), so dead stones must be captured: the search values a
//!   pass that suspends play by counting the board as it stands, and plays on while that loses.
//! * It passes when it has no board play left, when a handicap pass is due (讓手), or when the
//!   opponent has just passed and the board as it stands already wins.
//!
//! ```
//! use ingo_player::{Action, Budget, Config, Player};
//! use ingo_rules::{Game, Move, Rules, Setup};
//!
//! let mut game = Game::new(Setup::empty(7).unwrap(), Rules::ing());
//! let config = Config { budget: Budget::playouts(100), ..Config::default() };
//! let mut player = Player::new(config).unwrap();
//! let decision = player.genmove(&game, None);
//! let Action::Move(mv) = decision.action else { panic!("resignation is off by default") };
//! assert!(matches!(mv, Move::Play(_)));
//! game.play(mv).unwrap();
//! assert_eq!(decision.info.playouts, 100);
//! ```
#![deny(missing_docs)]

pub mod endgame;
mod estimate;
mod handicap;
mod heavy;
mod light;
pub mod patterns;
mod player;
mod playout;
mod rng;
pub mod tactics;
mod time;
mod tree;

pub use estimate::{estimate_dead, DEAD_PLAYOUTS};
pub use heavy::{ladder_captures, self_atari_stones, shape_key, Shapes};
/// Where the player reads the time (from `ingo-clock`, shared with the referee).
pub use ingo_clock::TimeSource;
pub use player::{
    Action, Budget, Candidate, Config, ConfigError, Decision, PatternPriors, Player, RandomPlayer,
    Reason, SearchInfo, Widening, MAX_THREADS,
};
pub use playout::{playout, playout_with, policy_move, PlayoutPolicy};
pub use rng::Rng;
pub use time::{MoveClock, ResignPolicy, TimeLeft, TimePolicy};

/// A copy of `v` in a box: one taken from `spare` and overwritten by `copy` when the pool
/// has one, else a new box. For the searches that keep the positions of their line in boxes
/// rather than in the frames of their recursion (`tactics::read_group`'s boards, the fill's
/// states: a board is 9 KB on 19×19, and a line of a hundred moves in frames overflows a
/// 2 MiB stack); they give each box back to `spare` when done with it.
pub(crate) fn pooled_copy<T: Clone>(
    spare: &mut Vec<Box<T>>,
    v: &T,
    copy: impl FnOnce(&mut T, &T),
) -> Box<T> {
    match spare.pop() {
        Some(mut b) => {
            copy(&mut b, v);
            b
        }
        None => boxed_copy(v),
    }
}

/// A copy of `v` in a new box. Out of line, so that the copy made on the way into the box (a
/// debug build makes it on the stack, and an inlined one may in release) is in this frame only.
#[inline(never)]
fn boxed_copy<T: Clone>(v: &T) -> Box<T> {
    Box::new(v.clone())
}
