//! Challenges over HTTP; what they do is [`crate::play::challenges`]'s.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::http::auth::User;
use crate::http::error::ApiError;
use crate::play::challenges::{self, Accepted, ChallengeView, NewChallenge};
use crate::AppState;

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/challenges", get(list).post(create))
        .route("/api/challenges/{id}", get(one))
        .route("/api/challenges/{id}/accept", post(accept))
        .route("/api/challenges/{id}/decline", post(decline))
        .route("/api/challenges/{id}/cancel", post(cancel))
}

async fn create(
    State(state): State<AppState>,
    user: User,
    Json(req): Json<NewChallenge>,
) -> Result<(StatusCode, Json<ChallengeView>), ApiError> {
    let c = challenges::create(
        &state.play,
        &state.config.default_time_control,
        state.config.max_open_challenges_per_user,
        &user.user,
        req,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(c)))
}

async fn list(State(state): State<AppState>) -> Result<Json<Vec<ChallengeView>>, ApiError> {
    Ok(Json(challenges::list(&state.play).await?))
}

async fn one(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<ChallengeView>, ApiError> {
    Ok(Json(challenges::one(&state.play, id).await?))
}

async fn accept(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
) -> Result<(StatusCode, Json<Accepted>), ApiError> {
    let a = challenges::accept(&state.play, &user.user, id).await?;
    // A started game is created; a seat taken while others are awaited is only an answer.
    let status = match a {
        Accepted::Started { .. } => StatusCode::CREATED,
        Accepted::Waiting { .. } => StatusCode::OK,
    };
    Ok((status, Json(a)))
}

async fn decline(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
) -> Result<StatusCode, ApiError> {
    challenges::decline(&state.play, &user.user, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn cancel(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
) -> Result<StatusCode, ApiError> {
    challenges::cancel(&state.play, &user.user, id).await?;
    Ok(StatusCode::NO_CONTENT)
}
