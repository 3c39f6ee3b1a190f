//! Games against programs over HTTP: `POST /api/games/bot` (the built-in player),
//! `GET /api/engines` and `POST /api/games/engine` (the configured engines).

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use crate::http::auth::User;
use crate::http::error::ApiError;
use crate::opponents::games::{self, BotGame, EngineGame, EngineView, Request};
use crate::AppState;

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games/bot", post(new_bot_game))
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
    /// The person's colour: `black`, `white` or `nigiri`.
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
