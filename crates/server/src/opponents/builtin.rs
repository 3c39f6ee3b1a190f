//! The built-in player (`ingo-player`'s MCTS) as an opponent, refereed exactly like a person:
//! its moves go through the same [`crate::play::submit::play_move`] (rules, clock, commit), and
//! at a suspension it accepts the dead stones that stand proposed.
//!
//! It plays as an account named `ingo-bot-<playouts>` (the strength is the search budget per
//! move, stored with the account as its [`Program`]), made on first use with no usable
//! password, so nobody can log in as it.

use ingo_player::{Action, Budget, Config, Player};
use ingo_rules::{Color, Phase};

use crate::domain::accounts::Program;
use crate::domain::error::GameError;
use crate::play::hub::Play;
use crate::play::live::shown;
use crate::play::submit::{change, play_move};

/// Lets the built-in player of game `id` act if it is its turn (or its acceptance is awaited).
///
/// # Errors
/// The play path's errors; internal when its search fails.
pub async fn act(play: &Play, id: i64) -> Result<(), GameError> {
    let job = {
        // Never a copy a failed change left discarded: the player would think on a position
        // that holds a move nobody stored.
        let (_shared, g) = shown(play, id).await?;
        let bots = [Color::Black, Color::White].map(|c| {
            let p = g.players().get(c);
            let playouts = match p.program {
                Some(Program::Builtin { playouts }) => Some(playouts),
                _ => None,
            };
            (c, p.id, playouts)
        });
        match g.phase() {
            Phase::Ended => return Ok(()),
            Phase::Suspended => {
                let s = g.state();
                let waiting = bots.iter().find(|(c, _, bot)| {
                    bot.is_some()
                        && !match c {
                            Color::Black => s.accepted_black,
                            Color::White => s.accepted_white,
                        }
                });
                match waiting {
                    // It accepts what stands proposed; a person who disagrees resumes play.
                    Some(&(_, bot_id, _)) => {
                        let proposal: Vec<String> = s
                            .dead_proposal
                            .split_whitespace()
                            .map(str::to_owned)
                            .collect();
                        drop(g);
                        change(play, id, |g, now| g.accept(bot_id, &proposal, now)).await?;
                        return Ok(());
                    }
                    None => return Ok(()),
                }
            }
            Phase::Playing => {
                let to_move = g.to_move();
                let Some(&(_, bot_id, Some(playouts))) =
                    bots.iter().find(|(c, _, _)| *c == to_move)
                else {
                    return Ok(());
                };
                let number = g.moves().len() as i64 + 1;
                (bot_id, playouts, g.game().clone(), number, g.size())
            }
        }
    };
    let (bot_id, playouts, position, number, size) = job;
    let decision = tokio::task::spawn_blocking(move || {
        let config = Config {
            budget: Budget::playouts(playouts),
            playout: crate::domain::levels::policy_for(playouts),
            exploration: crate::domain::levels::exploration_for(playouts),
            seed: (id as u64) ^ (number as u64),
            ..Config::default()
        };
        Player::new(config).map(|mut p| p.genmove(&position, None))
    })
    .await
    .map_err(|e| GameError::internal(format!("bot task: {e}")))?
    .map_err(|e| GameError::internal(format!("bot config: {e}")))?;
    match decision.action {
        Action::Move(mv) => {
            play_move(play, bot_id, id, &mv.to_gtp(size), Some(number)).await?;
        }
        Action::Resign => {
            change(play, id, |g, now| g.resign(bot_id, now)).await?;
        }
    }
    Ok(())
}
