//! The opponents are woken by committed changes, never called from inside the play path:
//! [`crate::play::hub::Play::commit`] queues the id of each game it changed, and [`run`] reads
//! the queue and lets the game's programs act, each change in a task of its own.
//!
//! Both kinds of program answer the same question, "this game changed: is there something for
//! you to do?", through [`Opponent`]; which one plays a seat is the [`Program`] stored with
//! its account.

use ingo_rules::Color;
use tokio::sync::mpsc;

use crate::domain::accounts::Program;
use crate::domain::error::{ErrorKind, GameError};
use crate::play::live::game;
use crate::AppState;

/// The programs that play on this server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The built-in player ([`crate::opponents::builtin`]).
    Builtin,
    /// A configured GTP engine ([`crate::opponents::engine`]).
    Engine,
}

impl Opponent {
    /// Lets this kind of program act in game `id`.
    ///
    /// # Errors
    /// The play path's errors.
    pub async fn act(self, state: &AppState, id: i64) -> Result<(), GameError> {
        match self {
            Opponent::Builtin => crate::opponents::builtin::act(&state.play, id).await,
            Opponent::Engine => crate::opponents::engine::act(state, id).await,
        }
    }
}

/// Which kind of program plays in game `id`: an engine when a seat is an engine's account,
/// else the built-in player (which finds out itself whether a seat is its own).
async fn opponent_of(state: &AppState, id: i64) -> Result<Opponent, GameError> {
    let shared = game(&state.play, id).await?;
    let g = shared.lock().await;
    let engine = Color::ALL
        .iter()
        .any(|&c| matches!(g.players().get(c).program, Some(Program::Engine { .. })));
    Ok(if engine {
        Opponent::Engine
    } else {
        Opponent::Builtin
    })
}

/// Reads the games changed by commits, for as long as the server runs, and lets their programs
/// act in the background.
pub async fn run(state: AppState, mut changed: mpsc::UnboundedReceiver<i64>) {
    while let Some(id) = changed.recv().await {
        let state = state.clone();
        tokio::spawn(async move {
            let acted = match opponent_of(&state, id).await {
                Ok(o) => o.act(&state, id).await,
                Err(e) => Err(e),
            };
            if let Err(e) = acted {
                if e.kind == ErrorKind::Internal {
                    tracing::error!(game_id = id, "the program of the game: {}", e.message);
                }
            }
        });
    }
}
