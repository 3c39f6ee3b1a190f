//! The built-in player (`ingo-player`'s MCTS) as an opponent, refereed exactly like a person:
//! its moves go through the same [`crate::games::play_move`] (rules, clock, commit), and at a
//! suspension it accepts the dead stones that stand proposed.
//!
//! A bot is an account named `ingo-bot-<playouts>` (the strength is the search budget per
//! move), made on first use with no usable password, so nobody can log in as it.

use axum::extract::State;
use axum::http::StatusCode;
use axum::{Json, Router};
use ingo_player::{Action, Budget, Config, Player};
use ingo_rules::{Color, Phase};
use ingo_store::new_id;
use ingo_store::server::{self as db, GameRow, GameState, UserRow};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::auth::User;
use crate::{ApiError, AppState};

/// The name prefix of bot accounts (refused at registration).
pub const BOT_PREFIX: &str = "ingo-bot-";

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new().route("/api/games/bot", axum::routing::post(new_game))
}

/// Whether `name` is kept for the server's own accounts (built-in players and engines): nobody
/// registers it.
pub fn is_reserved_name(name: &str) -> bool {
    name.starts_with(BOT_PREFIX) || name.starts_with(crate::engine::ENGINE_PREFIX)
}

/// The search budget of a bot account, from its name.
pub fn playouts_of(name: &str) -> Option<u64> {
    name.strip_prefix(BOT_PREFIX)?.parse().ok()
}

async fn bot_user(state: &AppState, playouts: u64) -> Result<UserRow, ApiError> {
    machine_account(state, &format!("{BOT_PREFIX}{playouts}"), "級外").await
}

/// The account a program plays as (the built-in player, a configured engine), made on first use
/// with no usable password. An account that exists takes `rank` when it has another: the
/// operator may have changed an engine's rank, and the account shows the rank its games are
/// handicapped by.
pub(crate) async fn machine_account(
    state: &AppState,
    name: &str,
    rank: &str,
) -> Result<UserRow, ApiError> {
    if let Some(mut u) = db::user_by_name(&state.store, name).await? {
        if u.rank != rank {
            db::set_user_rank(&state.store, u.id, rank).await?;
            u.rank = rank.to_string();
        }
        return Ok(u);
    }
    let u = UserRow {
        id: new_id(),
        name: name.to_string(),
        // Not a PHC string: no password verifies against it.
        password_hash: "!".into(),
        rank: rank.to_string(),
        created_ms: state.now_ms(),
    };
    if !db::create_user(&state.store, &u).await? {
        // Made by another request meanwhile.
        return db::user_by_name(&state.store, name)
            .await?
            .ok_or_else(|| ApiError::internal("program account vanished"));
    }
    Ok(u)
}

#[derive(Deserialize)]
struct NewBotGame {
    #[serde(default = "nine")]
    size: i64,
    /// Playouts per move: 10 to 100000.
    #[serde(default = "thousand")]
    playouts: u64,
    /// The person's colour: `black`, `white` or `nigiri`.
    #[serde(default = "nigiri")]
    color: String,
    time_control: Option<String>,
}

fn nine() -> i64 {
    9
}
fn thousand() -> u64 {
    1000
}
fn nigiri() -> String {
    "nigiri".into()
}

async fn new_game(
    State(state): State<AppState>,
    user: User,
    Json(req): Json<NewBotGame>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    crate::challenges::check_size(req.size)?;
    if !(10..=100_000).contains(&req.playouts) {
        return Err(ApiError::unprocessable(
            "bad-strength",
            "playouts is 10 to 100000 per move.",
        ));
    }
    let tc = crate::challenges::time_control(&state, req.time_control.as_deref())?;
    let bot = bot_user(&state, req.playouts).await?;
    let person_black = match req.color.as_str() {
        "black" => true,
        "white" => false,
        "nigiri" => ingo_competition::nigiri(new_id() as u64).guesser_takes_black,
        _ => {
            return Err(ApiError::unprocessable(
                "bad-color",
                "color is black, white or nigiri.",
            ))
        }
    };
    let (black, white) = if person_black {
        (user.user.id, bot.id)
    } else {
        (bot.id, user.user.id)
    };
    let game = GameRow {
        id: new_id(),
        black,
        white,
        size: req.size,
        preset: "ing".into(),
        komi_halves: i64::from(ingo_rules::Rules::ing().komi.halves()),
        handicap_passes: 0,
        time_control: tc.to_string(),
        state: GameState::playing(),
        started_ms: state.now_ms(),
    };
    db::create_game(&state.store, &game).await?;
    state.game(game.id).await?;
    poke(&state, game.id);
    Ok((
        StatusCode::CREATED,
        Json(json!({"game_id": game.id, "black": black, "white": white, "bot": bot.name})),
    ))
}

/// Lets a bot or an engine ([`crate::engine`]) of game `id` act if it is its turn (or its
/// acceptance is awaited), in the background.
pub fn poke(state: &AppState, id: i64) {
    let state = state.clone();
    tokio::spawn(async move {
        if let Err(e) = act(&state, id).await {
            if e.status == StatusCode::INTERNAL_SERVER_ERROR {
                eprintln!("ingo serve: the bot of game {id}: {}", e.message);
            }
        }
    });
}

async fn act(state: &AppState, id: i64) -> Result<(), ApiError> {
    let game = state.game(id).await?;
    let job = {
        let g = game.lock().await;
        if Color::ALL
            .iter()
            .any(|&c| crate::engine::is_engine_name(&g.players.get(c).name))
        {
            drop(g);
            return crate::engine::act(state, id).await;
        }
        let bots = [Color::Black, Color::White].map(|c| {
            let p = g.players.get(c);
            (c, p.id, playouts_of(&p.name))
        });
        match g.table.phase() {
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
                    // The bot accepts what stands proposed; a person who disagrees resumes play.
                    Some(&(_, bot_id, _)) => {
                        let proposal: Vec<String> = s
                            .dead_proposal
                            .split_whitespace()
                            .map(str::to_owned)
                            .collect();
                        drop(g);
                        let _ = crate::games::change(state, id, |g, now| {
                            g.accept(bot_id, &proposal, now)
                        })
                        .await?;
                        return Ok(());
                    }
                    None => return Ok(()),
                }
            }
            Phase::Playing => {
                let to_move = g.table.to_move();
                let Some(&(_, bot_id, Some(playouts))) =
                    bots.iter().find(|(c, _, _)| *c == to_move)
                else {
                    return Ok(());
                };
                let number = g.moves.len() as i64 + 1;
                (bot_id, playouts, g.table.game().clone(), number, g.size())
            }
        }
    };
    let (bot_id, playouts, position, number, size) = job;
    let decision = tokio::task::spawn_blocking(move || {
        let config = Config {
            budget: Budget::playouts(playouts),
            seed: (id as u64) ^ (number as u64),
            ..Config::default()
        };
        Player::new(config).map(|mut p| p.genmove(&position, None))
    })
    .await
    .map_err(|e| ApiError::internal(format!("bot task: {e}")))?
    .map_err(|e| ApiError::internal(format!("bot config: {e}")))?;
    match decision.action {
        Action::Move(mv) => {
            crate::games::play_move(state, bot_id, id, &mv.to_gtp(size), Some(number)).await?;
        }
        Action::Resign => {
            let _ = crate::games::change(state, id, |g, now| g.resign(bot_id, now)).await?;
        }
    }
    Ok(())
}
