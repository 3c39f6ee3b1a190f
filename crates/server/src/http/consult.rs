//! Consultation's proposals over HTTP (see [`crate::play::consult`] for the agreement step):
//! read the side's proposals, agree to one, withdraw one's own.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::http::auth::User;
use crate::http::error::ApiError;
use crate::play::consult::{self, Submitted};
use crate::play::view::ProposalsView;
use crate::AppState;

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games/{id}/proposals", get(proposals_route))
        .route("/api/games/{id}/proposals/accept", post(accept_route))
        .route("/api/games/{id}/proposals/withdraw", post(withdraw_route))
}

/// `{"proposed": true, "proposals": …}`: a move or resignation stored as a proposal.
#[derive(Serialize)]
struct Proposed {
    proposed: bool,
    proposals: ProposalsView,
}

/// A member's request as an HTTP answer: 202 with the side's proposals, or 200 with what the
/// agreed proposal did.
pub fn submitted(s: Submitted) -> Response {
    match s {
        Submitted::Proposed(p) => (
            StatusCode::ACCEPTED,
            Json(Proposed {
                proposed: true,
                proposals: p,
            }),
        )
            .into_response(),
        Submitted::Played(v) => Json(v).into_response(),
    }
}

#[derive(Deserialize)]
struct AcceptRequest {
    /// The proposed move agreed to (`D4`, `pass`, `resign`).
    #[serde(rename = "move")]
    mv: String,
    /// The move number it was proposed for.
    number: Option<i64>,
}

async fn proposals_route(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
) -> Result<Json<ProposalsView>, ApiError> {
    let side = consult::member_side(&state.play, user.user.id, id).await?;
    Ok(Json(side.current(&state.play).await?))
}

async fn accept_route(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
    Json(req): Json<AcceptRequest>,
) -> Result<Response, ApiError> {
    let s = consult::accept(&state.play, user.user.id, id, &req.mv, req.number).await?;
    Ok(submitted(s))
}

async fn withdraw_route(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
) -> Result<Json<ProposalsView>, ApiError> {
    Ok(Json(
        consult::withdraw(&state.play, user.user.id, id).await?,
    ))
}
