//! Challenges: open one, list the open ones, accept (which makes the game), decline, cancel.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use ingo_clock::TimeControl;
use ingo_competition::{handicap, nigiri, HandicapScale, Rank};
use ingo_rules::Preset;
use ingo_store::server::{self as db, ChallengeRow, GameRow, GameState};
use ingo_store::{new_id, now_ms};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::auth::User;
use crate::{ApiError, AppState};

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/challenges", get(list).post(create))
        .route("/api/challenges/{id}", get(one))
        .route("/api/challenges/{id}/accept", post(accept))
        .route("/api/challenges/{id}/decline", post(decline))
        .route("/api/challenges/{id}/cancel", post(cancel))
}

#[derive(Deserialize)]
struct NewChallenge {
    #[serde(default = "default_size")]
    size: i64,
    #[serde(default = "default_rules")]
    rules: String,
    /// `nigiri` (even game, colours drawn) or `ranks` (handicap from the two ranks, §6).
    #[serde(default = "default_handicap")]
    handicap: String,
    time_control: Option<String>,
    /// Only this user may accept.
    opponent: Option<String>,
}

fn default_size() -> i64 {
    19
}
fn default_rules() -> String {
    "ing".into()
}
fn default_handicap() -> String {
    "nigiri".into()
}

async fn json_of(state: &AppState, c: &ChallengeRow) -> Result<Value, ApiError> {
    let name = |id: Option<i64>| {
        let store = state.store.clone();
        async move {
            match id {
                None => Ok::<_, ApiError>(None),
                Some(id) => Ok(db::user_by_id(&store, id).await?.map(|u| (u.name, u.rank))),
            }
        }
    };
    let challenger = name(Some(c.challenger)).await?;
    let opponent = name(c.opponent).await?;
    Ok(json!({
        "id": c.id,
        "challenger": challenger.as_ref().map(|(n, _)| n),
        "challenger_rank": challenger.as_ref().map(|(_, r)| r),
        "opponent": opponent.map(|(n, _)| n),
        "size": c.size,
        "rules": c.preset,
        "handicap": c.handicap,
        "time_control": c.time_control,
        "status": c.status,
        "game_id": c.game_id,
        "created_ms": c.created_ms,
    }))
}

async fn create(
    State(state): State<AppState>,
    user: User,
    Json(req): Json<NewChallenge>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    if !(9..=19).contains(&req.size) {
        return Err(ApiError::unprocessable(
            "bad-size",
            format!("A board is 9 to 19 lines wide, not {}.", req.size),
        ));
    }
    let preset: Preset = req
        .rules
        .parse()
        .map_err(|e: ingo_rules::ParsePresetError| {
            ApiError::unprocessable("bad-rules", e.to_string())
        })?;
    if req.handicap != "nigiri" && req.handicap != "ranks" {
        return Err(ApiError::unprocessable(
            "bad-handicap",
            "handicap is \"nigiri\" (an even game) or \"ranks\" (from the two ranks).",
        ));
    }
    let tc_text = req
        .time_control
        .unwrap_or_else(|| state.config.default_time_control.clone());
    let tc: TimeControl = tc_text
        .parse()
        .map_err(|e: ingo_clock::ParseTimeControlError| {
            ApiError::unprocessable("bad-time-control", e.to_string())
        })?;
    tc.validate()
        .map_err(|e| ApiError::unprocessable("bad-time-control", e.to_string()))?;
    let opponent = match req.opponent {
        None => None,
        Some(name) => {
            let o = db::user_by_name(&state.store, &name)
                .await?
                .ok_or_else(|| ApiError::not_found("user"))?;
            if o.id == user.user.id {
                return Err(ApiError::unprocessable(
                    "own-challenge",
                    "You cannot challenge yourself.",
                ));
            }
            Some(o.id)
        }
    };
    let c = ChallengeRow {
        id: new_id(),
        challenger: user.user.id,
        opponent,
        size: req.size,
        preset: preset.name().into(),
        handicap: req.handicap,
        time_control: tc.to_string(),
        status: "open".into(),
        game_id: None,
        created_ms: now_ms(),
    };
    db::create_challenge(&state.store, &c).await?;
    Ok((StatusCode::CREATED, Json(json_of(&state, &c).await?)))
}

async fn list(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    let mut out = Vec::new();
    for c in db::open_challenges(&state.store, 200).await? {
        out.push(json_of(&state, &c).await?);
    }
    Ok(Json(Value::Array(out)))
}

async fn one(State(state): State<AppState>, Path(id): Path<i64>) -> Result<Json<Value>, ApiError> {
    let c = db::challenge_by_id(&state.store, id)
        .await?
        .ok_or_else(|| ApiError::not_found("challenge"))?;
    Ok(Json(json_of(&state, &c).await?))
}

async fn open_challenge(state: &AppState, id: i64) -> Result<ChallengeRow, ApiError> {
    let c = db::challenge_by_id(&state.store, id)
        .await?
        .ok_or_else(|| ApiError::not_found("challenge"))?;
    if c.status != "open" {
        return Err(ApiError::conflict(
            "challenge-closed",
            format!("This challenge is {} already.", c.status),
        ));
    }
    Ok(c)
}

/// Colours, komi and handicap passes of a game between the challenger and the acceptor.
fn seat(
    c: &ChallengeRow,
    challenger_rank: Rank,
    acceptor: i64,
    acceptor_rank: Rank,
) -> Result<(i64, i64, i64, i64), ApiError> {
    let preset: Preset = c
        .preset
        .parse()
        .map_err(|e: ingo_rules::ParsePresetError| ApiError::internal(e.to_string()))?;
    let even_komi = i64::from(preset.rules().komi.halves());
    let by_nigiri = || {
        // The challenger holds the stones, the acceptor guesses.
        let n = nigiri(new_id() as u64);
        if n.guesser_takes_black {
            (acceptor, c.challenger)
        } else {
            (c.challenger, acceptor)
        }
    };
    if c.handicap == "ranks" {
        // §6: the weaker player takes Black; White gives handicap passes and points.
        let h = handicap(challenger_rank, acceptor_rank, &HandicapScale::default());
        if !h.nigiri {
            let (black, white) = if h.black == challenger_rank {
                (c.challenger, acceptor)
            } else {
                (acceptor, c.challenger)
            };
            return Ok((
                black,
                white,
                i64::from(h.komi.halves()),
                i64::from(h.handicap_passes),
            ));
        }
    }
    let (black, white) = by_nigiri();
    Ok((black, white, even_komi, 0))
}

async fn accept(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let c = open_challenge(&state, id).await?;
    if c.challenger == user.user.id {
        return Err(ApiError::forbidden(
            "own-challenge",
            "You cannot accept your own challenge.",
        ));
    }
    if c.opponent.is_some_and(|o| o != user.user.id) {
        return Err(ApiError::forbidden(
            "not-your-challenge",
            "This challenge is offered to someone else.",
        ));
    }
    let challenger = db::user_by_id(&state.store, c.challenger)
        .await?
        .ok_or_else(|| ApiError::internal("challenger vanished"))?;
    let rank = |r: &str| r.parse::<Rank>().unwrap_or(Rank::BelowKyu);
    let (black, white, komi_halves, passes) = seat(
        &c,
        rank(&challenger.rank),
        user.user.id,
        rank(&user.user.rank),
    )?;
    let game = GameRow {
        id: new_id(),
        black,
        white,
        size: c.size,
        preset: c.preset.clone(),
        komi_halves,
        handicap_passes: passes,
        time_control: c.time_control.clone(),
        state: GameState {
            status: "playing".into(),
            ..GameState::default()
        },
        started_ms: now_ms(),
    };
    if !db::accept_challenge(&state.store, c.id, &game).await? {
        return Err(ApiError::conflict(
            "challenge-closed",
            "Someone else acted on this challenge first.",
        ));
    }
    // Load it now, so that its clock's timer runs from the start.
    state.game(game.id).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({"game_id": game.id, "black": black, "white": white})),
    ))
}

async fn decline(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
) -> Result<StatusCode, ApiError> {
    let c = open_challenge(&state, id).await?;
    if c.opponent != Some(user.user.id) {
        return Err(ApiError::forbidden(
            "not-your-challenge",
            "Only the player a challenge is offered to can decline it.",
        ));
    }
    if !db::close_challenge(&state.store, id, "declined").await? {
        return Err(ApiError::conflict(
            "challenge-closed",
            "This challenge is closed.",
        ));
    }
    Ok(StatusCode::NO_CONTENT)
}

async fn cancel(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
) -> Result<StatusCode, ApiError> {
    let c = open_challenge(&state, id).await?;
    if c.challenger != user.user.id {
        return Err(ApiError::forbidden(
            "not-your-challenge",
            "Only the challenger can cancel a challenge.",
        ));
    }
    if !db::close_challenge(&state.store, id, "cancelled").await? {
        return Err(ApiError::conflict(
            "challenge-closed",
            "This challenge is closed.",
        ));
    }
    Ok(StatusCode::NO_CONTENT)
}
