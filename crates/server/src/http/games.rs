//! Games over HTTP: the state, moves, resignation, the dead-stone steps, SGF, the live list.
//! Each handler hands the request to [`crate::play`], which judges, commits and publishes.

use axum::extract::{Path, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use ingo_store::server as db;
use serde::{Deserialize, Serialize};

use crate::http::auth::{session_token, user_of_token, User};
use crate::http::error::ApiError;
use crate::play::consult;
use crate::play::submit::{change, play_move, Ack};
use crate::play::view::{self, GameView};
use crate::AppState;

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games", get(live_list))
        .route("/api/games/mine", get(mine))
        .route("/api/games/{id}", get(state_of))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/undo", post(undo_request))
        .route("/api/games/{id}/undo/accept", post(undo_accept))
        .route("/api/games/{id}/undo/decline", post(undo_decline))
        .route("/api/games/{id}/dead", post(propose_dead))
        .route("/api/games/{id}/dead/accept", post(accept_dead))
        .route("/api/games/{id}/sgf", get(sgf))
        .route("/api/games/{id}/ws", get(crate::http::ws::upgrade))
        .route("/api/games/{id}/chat", get(crate::http::ws::chat_route))
}

#[derive(Deserialize)]
struct MoveRequest {
    /// `D4` or `pass`.
    #[serde(rename = "move")]
    mv: String,
    /// The number this move gets (1 for the first), to make a retried request safe.
    number: Option<i64>,
}

async fn play(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
    Json(req): Json<MoveRequest>,
) -> Result<Response, ApiError> {
    // Consultation that agrees by proposals: the move is a proposal until the side agrees.
    if let Some(s) = consult::submit(&state.play, user.user.id, id, &req.mv, req.number).await? {
        return Ok(crate::http::consult::submitted(s));
    }
    let ack: Ack = play_move(&state.play, user.user.id, id, &req.mv, req.number).await?;
    Ok(Json(ack).into_response())
}

async fn state_of(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    headers: HeaderMap,
) -> Result<Json<GameView>, ApiError> {
    let (game, g) = state.shown(id).await?;
    let mut v = view::game(&g, state.now_ms());
    drop(g);
    // A consultation side's own proposals, for its members only.
    if consult::has_proposals(&game).await {
        if let Some(token) = session_token(&headers) {
            if let Some(user) = user_of_token(&state, &token).await? {
                v.proposals = consult::of_member(&state.play, &game, user.user.id).await?;
            }
        }
    }
    Ok(Json(v))
}

async fn resign(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
) -> Result<Response, ApiError> {
    // Consultation that agrees by proposals: resigning is proposed to the side first.
    if let Some(s) = consult::submit_resign(&state.play, user.user.id, id).await? {
        return Ok(crate::http::consult::submitted(s));
    }
    let v = change(&state.play, id, |g, now| g.resign(user.user.id, now)).await?;
    Ok(Json(v).into_response())
}

#[derive(Deserialize)]
struct DeadRequest {
    /// Points (GTP); each marks its whole string.
    dead: Vec<String>,
}

async fn propose_dead(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
    Json(req): Json<DeadRequest>,
) -> Result<Json<GameView>, ApiError> {
    Ok(Json(
        change(&state.play, id, |g, _| g.propose(user.user.id, &req.dead)).await?,
    ))
}

async fn accept_dead(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
    Json(req): Json<DeadRequest>,
) -> Result<Json<GameView>, ApiError> {
    Ok(Json(
        change(&state.play, id, |g, now| {
            g.accept(user.user.id, &req.dead, now)
        })
        .await?,
    ))
}

async fn sgf(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<impl IntoResponse, ApiError> {
    let (_, g) = state.shown(id).await?;
    Ok((
        [(CONTENT_TYPE, "application/x-go-sgf; charset=utf-8")],
        g.sgf(),
    ))
}

/// A running game in the live list.
#[derive(Serialize)]
struct LiveGameItem {
    id: i64,
    black: Option<String>,
    white: Option<String>,
    team: Option<String>,
    size: i64,
    rules: String,
    /// Komi, in points.
    komi: f64,
    /// White's handicap passes.
    handicap_passes: i64,
    /// The time control as text.
    time_control: String,
    phase: String,
    started_ms: i64,
}

async fn live_list(State(state): State<AppState>) -> Result<Json<Vec<LiveGameItem>>, ApiError> {
    let mut out = Vec::new();
    for row in db::live_games(&state.store, 200).await? {
        let name = |id| {
            let store = state.store.clone();
            async move { Ok::<_, ApiError>(db::user_by_id(&store, id).await?.map(|u| u.name)) }
        };
        // A team game names each side's members in seat order: "A & B".
        let (mut black, mut white) = (name(row.black).await?, name(row.white).await?);
        let mut kind = None;
        if let Some((k, members)) = db::game_team(&state.store, row.id).await? {
            let mut sides: [Vec<String>; 2] = [Vec::new(), Vec::new()];
            for m in members {
                if let Some(n) = name(m.user_id).await? {
                    sides[usize::from(m.color == "W")].push(n);
                }
            }
            black = Some(sides[0].join(" & "));
            white = Some(sides[1].join(" & "));
            kind = Some(k);
        }
        out.push(LiveGameItem {
            id: row.id,
            black,
            white,
            team: kind,
            size: row.size,
            rules: row.preset,
            komi: row.komi_halves as f64 / 2.0,
            handicap_passes: row.handicap_passes,
            time_control: row.time_control,
            phase: row.state.status,
            started_ms: row.started_ms,
        });
    }
    Ok(Json(out))
}

/// One of the logged-in player's games not yet ended, for the list of "your turn".
#[derive(Serialize)]
struct MyGame {
    id: i64,
    black: String,
    white: String,
    size: usize,
    time_control: String,
    phase: &'static str,
    /// The player's colour.
    color: Option<String>,
    /// Whether the game waits for this player: their move (their own turn in pair go), or in
    /// a suspension their answer to the dead stones.
    your_turn: bool,
    /// When the clock running now falls, ms since the epoch.
    deadline_ms: Option<i64>,
    moves: usize,
}

/// The logged-in player's games not yet ended, those waiting for them first, then by the
/// clock that falls soonest: what a correspondence player looks at each day.
async fn mine(
    State(state): State<AppState>,
    user: crate::http::auth::User,
) -> Result<Json<Vec<MyGame>>, ApiError> {
    let me = user.user.id;
    let mut out = Vec::new();
    for row in db::live_games_of(&state.store, me, 500).await? {
        let Ok((_, g)) = state.shown(row.id).await else {
            continue;
        };
        let color = g.color_of(me);
        let your_turn = match (g.phase(), color) {
            (ingo_rules::Phase::Playing, Some(c)) => {
                g.to_move() == c && g.member_to_move(c).is_none_or(|p| p.id == me)
            }
            (ingo_rules::Phase::Suspended, Some(c)) => {
                let s = g.state();
                !match c {
                    ingo_rules::Color::Black => s.accepted_black,
                    ingo_rules::Color::White => s.accepted_white,
                }
            }
            _ => false,
        };
        let (black, white) = (
            g.side_names(ingo_rules::Color::Black).0,
            g.side_names(ingo_rules::Color::White).0,
        );
        out.push(MyGame {
            id: row.id,
            black,
            white,
            size: g.size(),
            time_control: row.time_control.clone(),
            phase: g.phase().as_str(),
            color: color.map(crate::play::view::letter),
            your_turn,
            deadline_ms: g.deadline_ms(),
            moves: g.moves().len(),
        });
    }
    out.sort_by_key(|m| (!m.your_turn, m.deadline_ms.unwrap_or(i64::MAX)));
    Ok(Json(out))
}

async fn undo_request(
    State(state): State<AppState>,
    user: crate::http::auth::User,
    Path(id): Path<i64>,
) -> Result<Json<crate::play::view::GameView>, ApiError> {
    Ok(Json(
        crate::play::undo::request(&state.play, user.user.id, id).await?,
    ))
}

async fn undo_accept(
    State(state): State<AppState>,
    user: crate::http::auth::User,
    Path(id): Path<i64>,
) -> Result<Json<crate::play::view::GameView>, ApiError> {
    Ok(Json(
        crate::play::undo::answer(&state.play, user.user.id, id, true).await?,
    ))
}

async fn undo_decline(
    State(state): State<AppState>,
    user: crate::http::auth::User,
    Path(id): Path<i64>,
) -> Result<Json<crate::play::view::GameView>, ApiError> {
    Ok(Json(
        crate::play::undo::answer(&state.play, user.user.id, id, false).await?,
    ))
}
