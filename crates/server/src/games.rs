//! Games over HTTP: the state, moves, resignation, the dead-stone steps, SGF, the live list;
//! and each running game's timer task, which declares a loss on time with nobody connected.
//!
//! A move: parse at the edge → check who may move → `Game::play` (via [`LiveGame::play`]) →
//! append and commit in one transaction → *then* acknowledge and publish to the game's
//! WebSocket subscribers (and, with PostgreSQL, to the other servers: [`crate::relay`]).
//!
//! A game's lock is held from the judgement to the commit, so that its moves are stored in the
//! order they were judged; other games do not wait for it (each game has its own lock).

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use ingo_rules::ByColor;
use ingo_store::server::{self as db, Appended, MoveRow};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::Notify;

use crate::auth::User;
use crate::game::{LiveGame, Player, Team, TeamKind};
use crate::{ApiError, AppState, Event};

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games", get(live_list))
        .route("/api/games/{id}", get(state_of))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/dead", post(propose_dead))
        .route("/api/games/{id}/dead/accept", post(accept_dead))
        .route("/api/games/{id}/sgf", get(sgf))
        .route("/api/games/{id}/ws", get(crate::ws::upgrade))
        .route("/api/games/{id}/chat", get(crate::ws::chat_route))
}

/// Rebuilds game `id` from the store.
///
/// # Errors
/// 404 when there is no such game; 500 on a storage failure or a game that does not replay.
pub async fn load(state: &AppState, id: i64) -> Result<LiveGame, ApiError> {
    let row = db::game_by_id(&state.store, id)
        .await?
        .ok_or_else(|| ApiError::not_found("game"))?;
    let moves = db::moves_of(&state.store, id).await?;
    let player = |id: i64| {
        let store = state.store.clone();
        async move {
            let u = db::user_by_id(&store, id)
                .await?
                .ok_or_else(|| ApiError::internal(format!("user {id} of a game vanished")))?;
            Ok::<_, ApiError>(Player {
                id: u.id,
                name: u.name,
                rank: u.rank,
            })
        }
    };
    let players = ByColor {
        black: player(row.black).await?,
        white: player(row.white).await?,
    };
    let team = match db::game_team(&state.store, id).await? {
        None => None,
        Some((kind, rows)) => {
            let kind = TeamKind::parse(&kind)
                .ok_or_else(|| ApiError::internal(format!("stored team kind {kind:?}")))?;
            let mut members: ByColor<Vec<Player>> = ByColor::default();
            for m in rows {
                let color = match m.color.as_str() {
                    "B" => ingo_rules::Color::Black,
                    "W" => ingo_rules::Color::White,
                    other => return Err(ApiError::internal(format!("stored colour {other:?}"))),
                };
                members.get_mut(color).push(player(m.user_id).await?);
            }
            if members.black.is_empty() || members.white.is_empty() {
                return Err(ApiError::internal(format!(
                    "team game {id} has an empty side"
                )));
            }
            let agreement = crate::consult::agreement_of(state, id, kind).await?;
            Some(Team {
                kind,
                members,
                agreement,
            })
        }
    };
    let mut live = LiveGame::replay(row, moves, players)?;
    live.team = team;
    Ok(live)
}

/// Commits the game's new moves and state, then publishes `events` (to this process's
/// subscribers and to the other servers). On a conflict (another request or server stored that
/// move number first) or a failure, nothing is published and the in-memory copy is dropped, so
/// the next access rebuilds it from what is committed.
async fn commit(
    state: &AppState,
    g: &LiveGame,
    new_moves: &[MoveRow],
    events: &[Event],
) -> Result<Appended, ApiError> {
    let id = g.row.id;
    match db::append_moves(&state.store, id, new_moves, g.state()).await {
        Ok(Appended::Committed) => {
            state.publish_all(id, events);
            Ok(Appended::Committed)
        }
        Ok(Appended::Conflict) => {
            state.evict(g.row.id);
            Ok(Appended::Conflict)
        }
        Err(e) => {
            state.evict(g.row.id);
            Err(e.into())
        }
    }
}

/// The events of a change: one `move` event per new move, then the whole state when the phase
/// is no longer plain play.
pub fn change_events(g: &LiveGame, new_moves: &[MoveRow], now: i64) -> Vec<Event> {
    let mut out = Vec::with_capacity(new_moves.len() + 1);
    if !new_moves.is_empty() {
        let to_move = g.table.to_move().letter().to_string();
        let clocks = g.clocks_json(now);
        // Pair go: the member whose turn it is now.
        let team_to_move = g.team.is_some().then(|| g.team_to_move_json());
        for m in new_moves {
            let mut ev = json!({
                "type": "move",
                "game_id": g.row.id,
                "number": m.move_number,
                "color": m.color,
                "move": m.mv,
                "at_ms": m.at_ms,
                "to_move": to_move,
                "phase": g.row.state.status,
                "clocks": clocks,
            });
            if let Some(member) = &team_to_move {
                ev["team_to_move"] = member.clone();
            }
            out.push(Arc::from(ev.to_string()));
        }
    }
    if g.row.state.status != "playing" || new_moves.is_empty() {
        out.push(state_event(g, now));
    }
    out
}

/// Publishes what a change did (see [`change_events`]) and lets a bot of the game act.
pub fn publish_changes(state: &AppState, g: &LiveGame, new_moves: &[MoveRow], now: i64) {
    state.publish_all(g.row.id, &change_events(g, new_moves, now));
    crate::bot::poke(state, g.row.id);
}

/// The whole state of a game, as an event.
pub fn state_event(g: &LiveGame, now: i64) -> Event {
    Arc::from(json!({"type": "state", "game": g.state_json(now)}).to_string())
}

/// Publishes the whole state of a game.
pub fn publish_state(state: &AppState, g: &LiveGame, now: i64) {
    state.publish(g.row.id, state_event(g, now));
}

#[derive(Deserialize)]
struct MoveRequest {
    /// `D4` or `pass`.
    #[serde(rename = "move")]
    mv: String,
    /// The number this move gets (1 for the first), to make a retried request safe.
    number: Option<i64>,
}

/// The answer to an acknowledged move.
fn ack(g: &LiveGame, number: i64, duplicate: bool) -> Value {
    json!({
        "number": number,
        "move": g.moves.get((number - 1) as usize).map(|m| m.mv.clone()),
        "duplicate": duplicate,
        "move_count": g.moves.len(),
        "to_move": g.table.to_move().letter().to_string(),
        "phase": g.row.state.status,
        "result": g.row.state.result,
    })
}

/// Plays a move for `user` in game `id`, commits it, publishes it; the acknowledgement.
///
/// # Errors
/// As [`LiveGame::play`], and 500 on a storage failure.
pub async fn play_move(
    state: &AppState,
    user_id: i64,
    id: i64,
    mv: &str,
    number: Option<i64>,
) -> Result<Value, ApiError> {
    // Twice at most: a conflict means another server stored a move first; the game is then
    // rebuilt from the store and the request judged again.
    for _ in 0..2 {
        let game = state.game(id).await?;
        let mut g = game.lock().await;
        if let Some(n) = number {
            // The same request again: answer what was stored, apply nothing.
            if let Some(m) = g.moves.get((n - 1).max(0) as usize) {
                let mine = g.color_of(user_id).map(|c| c.letter().to_string());
                if n >= 1 && Some(&m.color) == mine.as_ref() && m.mv.eq_ignore_ascii_case(mv.trim())
                {
                    return Ok(ack(&g, n, true));
                }
            }
        }
        let now = state.now_ms();
        let applied = match g.play(user_id, mv, number, now) {
            Ok(a) => a,
            Err(e) => {
                if g.row.state.status == "ended" && e.reason == "lost-on-time" {
                    // The loss on time found here is committed (and published) like any ending.
                    commit(state, &g, &[], &[state_event(&g, now)]).await?;
                }
                return Err(e);
            }
        };
        let events = change_events(&g, &applied.new_moves, now);
        match commit(state, &g, &applied.new_moves, &events).await? {
            Appended::Committed => {
                state.wake_timer(id);
                crate::bot::poke(state, id);
                let n = applied.new_moves.first().map_or(0, |m| m.move_number);
                return Ok(ack(&g, n, false));
            }
            Appended::Conflict => continue,
        }
    }
    Err(ApiError::conflict(
        "stale-move-number",
        "Another move was stored first; look at the game again.",
    ))
}

async fn play(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
    Json(req): Json<MoveRequest>,
) -> Result<Response, ApiError> {
    // Consultation that agrees by proposals: the move is a proposal until the side agrees.
    if let Some(s) = crate::consult::submit(&state, user.user.id, id, &req.mv, req.number).await? {
        return Ok(s.into_http());
    }
    play_move(&state, user.user.id, id, &req.mv, req.number)
        .await
        .map(|v| Json(v).into_response())
}

async fn state_of(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let game = state.game(id).await?;
    let mut v = game.lock().await.state_json(state.now_ms());
    // A consultation side's own proposals, for its members only.
    crate::consult::add_to_state(&state, &headers, &game, &mut v).await?;
    Ok(Json(v))
}

/// Runs `f` on game `id` for a change that adds no move, commits and publishes the state.
pub(crate) async fn change(
    state: &AppState,
    id: i64,
    f: impl FnOnce(&mut LiveGame, i64) -> Result<(), ApiError>,
) -> Result<Json<Value>, ApiError> {
    let game = state.game(id).await?;
    let mut g = game.lock().await;
    let now = state.now_ms();
    f(&mut g, now)?;
    if commit(state, &g, &[], &[state_event(&g, now)]).await? == Appended::Conflict {
        return Err(ApiError::conflict(
            "stale",
            "The game changed; look at it again.",
        ));
    }
    state.wake_timer(id);
    crate::bot::poke(state, id);
    Ok(Json(g.state_json(now)))
}

async fn resign(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
) -> Result<Response, ApiError> {
    // Consultation that agrees by proposals: resigning is proposed to the side first.
    if let Some(s) = crate::consult::submit_resign(&state, user.user.id, id).await? {
        return Ok(s.into_http());
    }
    change(&state, id, |g, now| g.resign(user.user.id, now))
        .await
        .map(IntoResponse::into_response)
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
) -> Result<Json<Value>, ApiError> {
    change(&state, id, |g, _| g.propose(user.user.id, &req.dead)).await
}

async fn accept_dead(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
    Json(req): Json<DeadRequest>,
) -> Result<Json<Value>, ApiError> {
    change(&state, id, |g, now| g.accept(user.user.id, &req.dead, now)).await
}

async fn sgf(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<impl IntoResponse, ApiError> {
    let game = state.game(id).await?;
    let g = game.lock().await;
    Ok((
        [(CONTENT_TYPE, "application/x-go-sgf; charset=utf-8")],
        g.sgf(),
    ))
}

async fn live_list(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
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
        out.push(json!({
            "id": row.id,
            "black": black,
            "white": white,
            "team": kind,
            "size": row.size,
            "rules": row.preset,
            "phase": row.state.status,
            "started_ms": row.started_ms,
        }));
    }
    Ok(Json(Value::Array(out)))
}

/// Watches game `id`'s clock: sleeps until the running clock's deadline on the server's wall
/// clock (or until a move wakes it), then declares the loss on time, commits it and publishes
/// it. Ends with the game.
pub async fn timer_task(state: AppState, id: i64, notify: Arc<Notify>) {
    loop {
        let Ok(game) = state.game(id).await else {
            return;
        };
        let deadline = {
            let g = game.lock().await;
            if g.row.state.status == "ended" {
                return;
            }
            g.deadline_ms()
        };
        match deadline {
            None => notify.notified().await,
            Some(at) => {
                tokio::select! {
                    _ = state.clock().sleep_until(at) => {
                        let mut g = game.lock().await;
                        let now = state.now_ms();
                        if g.check_time(now).is_some() {
                            match commit(&state, &g, &[], &[state_event(&g, now)]).await {
                                Ok(Appended::Committed) => {}
                                Ok(Appended::Conflict) | Err(_) => {
                                    // Rebuilt from the store at the next turn of the loop.
                                    tokio::time::sleep(Duration::from_millis(200)).await;
                                }
                            }
                        }
                    }
                    _ = notify.notified() => {}
                }
            }
        }
    }
}
