//! Games against programs over HTTP: `POST /api/games/bot` and `GET /api/bot-levels` (the
//! built-in player and its measured strengths),
//! `GET /api/engines` and `POST /api/games/engine` (the configured engines).

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::domain::accounts::bot_account;
use crate::domain::levels;
use crate::http::auth::User;
use crate::http::error::ApiError;
use crate::opponents::games::{self, BotGame, EngineGame, EngineView, Request};
use crate::AppState;

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games/bot", post(new_bot_game))
        .route("/api/bot-levels", get(bot_levels))
        .route("/api/engines", get(list))
        .route("/api/games/engine", post(new_engine_game))
}

#[derive(Deserialize)]
struct NewBotGame {
    #[serde(default = "nine")]
    size: i64,
    /// Playouts per move: 10 to 100000.
    #[serde(default = "thousand")]
    playouts: u64,
    /// The person's colour: `black`, `white`, `nigiri`, or `ranks` (handicap from the person's
    /// rank and the one measured for the strength, [`levels`]).
    #[serde(default = "nigiri")]
    color: String,
    time_control: Option<String>,
}

#[derive(Deserialize)]
struct NewEngineGame {
    engine: String,
    #[serde(default = "nine")]
    size: i64,
    /// The person's colour: `black`, `white`, `nigiri`, or `ranks` (handicap from the two
    /// ranks, §6).
    #[serde(default = "nigiri")]
    color: String,
    #[serde(default = "ing")]
    rules: String,
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
fn ing() -> String {
    "ing".into()
}

async fn new_bot_game(
    State(state): State<AppState>,
    user: User,
    Json(req): Json<NewBotGame>,
) -> Result<(StatusCode, Json<BotGame>), ApiError> {
    let r = Request {
        size: req.size,
        rules: ing(),
        color: req.color,
        time_control: req.time_control,
    };
    let g = games::bot_game(&state, &user.user, req.playouts, &r).await?;
    Ok((StatusCode::CREATED, Json(g)))
}

/// The lobby's strengths of the built-in player, with their measured ranks.
async fn bot_levels() -> Json<Vec<LevelView>> {
    Json(
        levels::LEVELS
            .iter()
            .map(|l| LevelView {
                level: *l,
                rank_ing: l.rank().to_chinese(),
                account: bot_account(l.playouts),
            })
            .collect(),
    )
}

/// A level as `GET /api/bot-levels` shows it.
#[derive(Serialize)]
struct LevelView {
    #[serde(flatten)]
    level: levels::Level,
    /// The rank in Ing's notation (`19級`; on Ing's handicap scale everything below 9級 is
    /// 級外).
    rank_ing: String,
    /// The account it plays as.
    account: String,
}

async fn list(State(state): State<AppState>) -> Result<Json<Vec<EngineView>>, ApiError> {
    Ok(Json(games::engines(&state).await?))
}

async fn new_engine_game(
    State(state): State<AppState>,
    user: User,
    Json(req): Json<NewEngineGame>,
) -> Result<(StatusCode, Json<EngineGame>), ApiError> {
    let r = Request {
        size: req.size,
        rules: req.rules,
        color: req.color,
        time_control: req.time_control,
    };
    let g = games::engine_game(&state, &user.user, &req.engine, &r).await?;
    Ok((StatusCode::CREATED, Json(g)))
}
