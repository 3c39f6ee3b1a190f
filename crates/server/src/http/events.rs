//! Events over HTTP; what they do is [`crate::play::events`]'s. Every route that changes an
//! event is the director's, except a player's registration and check-in; the others answer
//! 403 with the reason `not-the-director`.

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast::error::RecvError;

use crate::http::auth::{session_token, user_of_token, User};
use crate::http::error::ApiError;
use crate::http::ws::MAX_MESSAGE_BYTES;
use crate::play::events::{self, Decision, EventSummary, EventView, LogView, PairRequest};
use crate::AppState;

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/events", get(list).post(create))
        .route("/api/events/{id}", get(one))
        .route("/api/events/{id}/register", post(register))
        .route("/api/events/{id}/checkin", post(check_in))
        .route("/api/events/{id}/registration", post(registration))
        .route("/api/events/{id}/entrants", post(enter))
        .route("/api/events/{id}/entrants/approve", post(approve))
        .route("/api/events/{id}/entrants/rank", post(set_rank))
        .route("/api/events/{id}/entrants/withdraw", post(withdraw))
        .route("/api/events/{id}/entrants/reinstate", post(reinstate))
        .route("/api/events/{id}/rounds", post(pair))
        .route("/api/events/{id}/rounds/{n}/start", post(start_round))
        .route("/api/events/{id}/results", post(decide))
        .route("/api/events/{id}/close", post(close))
        .route("/api/events/{id}/standings", get(standings))
        .route("/api/events/{id}/log", get(log))
        .route("/api/events/{id}/export.csv", get(export_csv))
        .route("/api/events/{id}/export.h", get(export_egf))
        .route("/api/events/{id}/games.sgf", get(games_sgf))
        .route("/api/events/{id}/crosstable.svg", get(crosstable_svg))
        .route("/api/events/{id}/crosstable.html", get(crosstable_html))
        .route("/api/events/{id}/bracket.svg", get(bracket_svg))
        .route("/api/events/{id}/ws", get(socket))
}

/// The event's WebSocket: `{"type":"event","event_id":ID}` at once and each time the event
/// changes (here or on another server of the database); the page reads the event again. The
/// socket takes no messages (any closes nothing; a message over the limit closes it).
async fn socket(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // An unknown event is a 404, not a socket that closes.
    events::event(&state.play, id).await?;
    Ok(ws
        .read_buffer_size(4096)
        .max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| watch(state, id, socket)))
}

async fn watch(state: AppState, id: i64, mut socket: WebSocket) {
    let mut changes = state.subscribe(crate::play::event::channel(id));
    let first = crate::play::event::changed_event(id);
    if socket
        .send(Message::Text(first.text.as_ref().into()))
        .await
        .is_err()
    {
        return;
    }
    loop {
        tokio::select! {
            ev = changes.recv() => {
                // A reader too slow for the channel is told once that the event changed.
                let text = match ev {
                    Ok(e) => e.text,
                    Err(RecvError::Lagged(_)) => crate::play::event::changed_event(id).text,
                    Err(RecvError::Closed) => return,
                };
                if socket.send(Message::Text(text.as_ref().into())).await.is_err() {
                    return;
                }
            }
            msg = socket.recv() => match msg {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => {}
            },
        }
    }
}

/// The answer to a created event.
#[derive(Serialize)]
struct Created {
    id: i64,
}

async fn create(
    State(state): State<AppState>,
    user: User,
    body: String,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let id = events::create(&state.play, state.is_director(&user.user), &body).await?;
    Ok((StatusCode::CREATED, Json(Created { id })))
}

async fn list(State(state): State<AppState>) -> Result<Json<Vec<EventSummary>>, ApiError> {
    Ok(Json(events::list(&state.play).await?))
}

async fn one(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Result<Json<EventView>, ApiError> {
    let viewer = match session_token(&headers) {
        Some(t) => user_of_token(&state, &t).await?,
        None => None,
    };
    let director = viewer.as_ref().is_some_and(|u| state.is_director(&u.user));
    let viewer = viewer.map(|u| u.user.id);
    Ok(Json(events::view(&state.play, id, director, viewer).await?))
}

/// A registration names nobody, or the logged-in player: nobody registers someone else.
#[derive(Deserialize, Default)]
struct Registering {
    name: Option<String>,
}

async fn register(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
    body: Option<Json<Registering>>,
) -> Result<StatusCode, ApiError> {
    let r = body.map(|Json(r)| r).unwrap_or_default();
    if r.name.as_deref().is_some_and(|n| n != user.user.name) {
        return Err(ApiError::forbidden(
            "not-yourself",
            "A player registers themselves; the director enters others.",
        ));
    }
    events::register(&state.play, &user.user, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The answer to a check-in: the game, once it has started.
#[derive(Serialize)]
struct CheckedIn {
    game_id: Option<i64>,
}

async fn check_in(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
) -> Result<Json<CheckedIn>, ApiError> {
    let game_id = events::check_in(&state.play, &user.user, id).await?;
    Ok(Json(CheckedIn { game_id }))
}

#[derive(Deserialize)]
struct Registration {
    open: bool,
}

async fn registration(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
    Json(r): Json<Registration>,
) -> Result<StatusCode, ApiError> {
    events::set_registration(&state.play, state.is_director(&user.user), id, r.open).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
struct Named {
    name: String,
    rank: Option<String>,
    reason: Option<String>,
}

/// An entrant the director enters: an account by `name`, the built-in player at `builtin`
/// playouts a move, or a configured `engine` by its name.
#[derive(Deserialize)]
struct NewEntrant {
    name: Option<String>,
    builtin: Option<u64>,
    engine: Option<String>,
    rank: Option<String>,
}

async fn enter(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
    Json(n): Json<NewEntrant>,
) -> Result<StatusCode, ApiError> {
    let director = state.is_director(&user.user);
    let name =
        match (n.name, n.builtin, n.engine) {
            (Some(name), None, None) => name,
            (None, Some(playouts), None) => {
                crate::opponents::games::builtin_account(&state.play, director, playouts)
                    .await?
                    .name
            }
            (None, None, Some(engine)) => {
                crate::opponents::games::engine_account(&state, director, &engine)
                    .await?
                    .name
            }
            _ => return Err(ApiError::unprocessable(
                "bad-entrant",
                "Give one of name (an account), builtin (playouts a move) or engine (its name).",
            )),
        };
    events::enter_account(&state.play, director, id, &name, n.rank.as_deref()).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn approve(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
    Json(n): Json<Named>,
) -> Result<StatusCode, ApiError> {
    let director = state.is_director(&user.user);
    events::approve(&state.play, director, id, &n.name, n.rank.as_deref()).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn set_rank(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
    Json(n): Json<Named>,
) -> Result<StatusCode, ApiError> {
    let director = state.is_director(&user.user);
    let rank = n
        .rank
        .as_deref()
        .ok_or_else(|| ApiError::unprocessable("rank-required", "Give the rank."))?;
    events::set_rank(
        &state.play,
        director,
        id,
        &n.name,
        rank,
        n.reason.as_deref(),
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Withdraws (`back`: reinstates) the entrant the body names.
async fn withdrawal(
    state: AppState,
    user: User,
    id: i64,
    n: Named,
    back: bool,
) -> Result<StatusCode, ApiError> {
    let director = state.is_director(&user.user);
    events::withdraw(
        &state.play,
        director,
        id,
        &n.name,
        back,
        n.reason.as_deref(),
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn withdraw(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
    Json(n): Json<Named>,
) -> Result<StatusCode, ApiError> {
    withdrawal(state, user, id, n, false).await
}

async fn reinstate(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
    Json(n): Json<Named>,
) -> Result<StatusCode, ApiError> {
    withdrawal(state, user, id, n, true).await
}

/// A paired game, as the pairing answer lists it.
#[derive(Serialize)]
struct Paired {
    round: u32,
    board: u32,
    black: String,
    white: Option<String>,
    handicap_passes: u8,
    komi: f64,
}

async fn pair(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
    body: Option<Json<PairRequest>>,
) -> Result<(StatusCode, Json<Vec<Paired>>), ApiError> {
    let req = body.map(|Json(r)| r).unwrap_or_default();
    let director = state.is_director(&user.user);
    let games = events::pair(&state.play, director, id, &req).await?;
    Ok((
        StatusCode::CREATED,
        Json(
            games
                .into_iter()
                .map(|g| Paired {
                    round: g.round,
                    board: g.board,
                    black: g.black,
                    white: g.white,
                    handicap_passes: g.passes,
                    komi: g.komi.as_f64(),
                })
                .collect(),
        ),
    ))
}

/// The games a round's start made.
#[derive(Serialize)]
struct Started {
    game_ids: Vec<i64>,
}

async fn start_round(
    State(state): State<AppState>,
    user: User,
    Path((id, n)): Path<(i64, u32)>,
) -> Result<Json<Started>, ApiError> {
    let director = state.is_director(&user.user);
    let game_ids = events::start_round(&state.play, director, id, n).await?;
    Ok(Json(Started { game_ids }))
}

async fn decide(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
    Json(d): Json<Decision>,
) -> Result<StatusCode, ApiError> {
    events::decide(&state.play, state.is_director(&user.user), id, &d).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize, Default)]
struct Reason {
    reason: Option<String>,
}

async fn close(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
    body: Option<Json<Reason>>,
) -> Result<StatusCode, ApiError> {
    let r = body.map(|Json(r)| r).unwrap_or_default();
    let director = state.is_director(&user.user);
    events::close(&state.play, director, id, r.reason.as_deref()).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn standings(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<ingo_tournament::Standing>>, ApiError> {
    Ok(Json(events::standings(&state.play, id).await?))
}

async fn log(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Vec<LogView>>, ApiError> {
    Ok(Json(events::log(&state.play, id).await?))
}

fn export_error(e: impl std::fmt::Display) -> ApiError {
    ApiError::unprocessable("export", e.to_string())
}

async fn export_csv(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<impl IntoResponse, ApiError> {
    let ev = events::event(&state.play, id).await?;
    let text = ingo_tournament::export::results_csv(&ev.games).map_err(export_error)?;
    Ok(([(CONTENT_TYPE, "text/csv; charset=utf-8")], text))
}

async fn export_egf(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<impl IntoResponse, ApiError> {
    let ev = events::event(&state.play, id).await?;
    let text = ingo_tournament::export::egf_results(&ev);
    Ok(([(CONTENT_TYPE, "text/plain; charset=utf-8")], text))
}

/// Every game of the event as one SGF collection (the format's own archive: game trees one
/// after another), in round and board order: the server's record of each game played here.
async fn games_sgf(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<impl IntoResponse, ApiError> {
    let mut out = String::new();
    for (_, _, game_id) in events::games_of(&state.play, id).await? {
        let text = state.shown(game_id).await?.1.sgf();
        out.push_str(text.trim_end());
        out.push('\n');
    }
    Ok(([(CONTENT_TYPE, "application/x-go-sgf; charset=utf-8")], out))
}

/// The crosstable drawn as `ingo tournament crosstable --svg` draws it.
async fn crosstable_svg(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<impl IntoResponse, ApiError> {
    let ev = events::event(&state.play, id).await?;
    let ct = ingo_tournament::crosstable::Crosstable::new(&ev);
    Ok((
        [(CONTENT_TYPE, "image/svg+xml")],
        ingo_render::crosstable_svg(&ct),
    ))
}

/// The crosstable in round order (each round's opponent, colour and result, byes shown), as
/// `ingo tournament crosstable --by-round --html` writes it.
async fn crosstable_html(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<impl IntoResponse, ApiError> {
    let ev = events::event(&state.play, id).await?;
    let ct = ingo_tournament::crosstable::RoundCrosstable::new(&ev);
    Ok(([(CONTENT_TYPE, "text/html; charset=utf-8")], ct.html()))
}

/// A knockout's bracket, as `ingo tournament bracket --svg` draws it; 422 for another format.
async fn bracket_svg(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<impl IntoResponse, ApiError> {
    let ev = events::event(&state.play, id).await?;
    let b = ingo_tournament::bracket::Bracket::new(&ev)
        .map_err(|e| ApiError::unprocessable("not-a-knockout", e.to_string()))?;
    Ok((
        [(CONTENT_TYPE, "image/svg+xml")],
        ingo_render::bracket_svg(&b),
    ))
}
