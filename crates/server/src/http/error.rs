//! [`ApiError`]: every refusal as an HTTP status and `{"reason": code, "message": sentence}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

use crate::domain::error::{ErrorKind, GameError};

/// An error answered to a client. Storage and internal errors are logged on the server and
/// answered as a bare 500, without details.
#[derive(Debug, thiserror::Error)]
#[error("{status} {reason}: {message}")]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable code (`hot-stone`, `not-a-player`, `csrf`…).
    pub reason: &'static str,
    /// A sentence for a person.
    pub message: String,
}

/// The constructors build the game's error of that kind and map it through [`status_of`], the
/// one table from a kind to its status.
impl ApiError {
    /// An error with `status`.
    pub fn new(status: StatusCode, reason: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            reason,
            message: message.into(),
        }
    }

    /// 400: the request is malformed.
    pub fn bad_request(reason: &'static str, message: impl Into<String>) -> ApiError {
        GameError::bad_request(reason, message).into()
    }

    /// 401: no valid session.
    pub fn unauthorized() -> ApiError {
        GameError::unauthorized().into()
    }

    /// 403: the user may not do this.
    pub fn forbidden(reason: &'static str, message: impl Into<String>) -> ApiError {
        GameError::forbidden(reason, message).into()
    }

    /// 404.
    pub fn not_found(what: &str) -> ApiError {
        GameError::not_found(what).into()
    }

    /// 409: the request does not fit the current state.
    pub fn conflict(reason: &'static str, message: impl Into<String>) -> ApiError {
        GameError::conflict(reason, message).into()
    }

    /// 422: well-formed but refused (an illegal move, a bad value).
    pub fn unprocessable(reason: &'static str, message: impl Into<String>) -> ApiError {
        GameError::unprocessable(reason, message).into()
    }

    /// 429: too many attempts.
    pub fn too_many(message: impl Into<String>) -> ApiError {
        GameError::too_many(message).into()
    }

    /// 500, with the detail kept for the server's log only.
    pub fn internal(detail: impl Into<String>) -> ApiError {
        GameError::internal(detail).into()
    }
}

/// The status of each kind of refusal: the one table from the game's errors to HTTP.
pub fn status_of(kind: ErrorKind) -> StatusCode {
    match kind {
        ErrorKind::BadRequest => StatusCode::BAD_REQUEST,
        ErrorKind::NotLoggedIn => StatusCode::UNAUTHORIZED,
        ErrorKind::Forbidden => StatusCode::FORBIDDEN,
        ErrorKind::NotFound => StatusCode::NOT_FOUND,
        ErrorKind::Conflict => StatusCode::CONFLICT,
        ErrorKind::Refused => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorKind::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        ErrorKind::TooMany => StatusCode::TOO_MANY_REQUESTS,
        ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        ErrorKind::Damaged => StatusCode::SERVICE_UNAVAILABLE,
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        ApiError::new(status_of(e.kind), e.reason, e.message)
    }
}

/// An error's body: `{"reason", "message"}`.
#[derive(Serialize)]
struct ErrorBody<'a> {
    reason: &'a str,
    message: String,
}

impl From<ingo_store::StoreError> for ApiError {
    fn from(e: ingo_store::StoreError) -> ApiError {
        ApiError::internal(e.to_string())
    }
}

/// What a client is told of an internal error: never its detail (a database's text), which
/// goes to the server's log.
pub const INTERNAL_MESSAGE: &str = "Something went wrong on the server; nothing was changed.";

/// The sentence a client is told for `e`: its own, or for an internal error
/// [`INTERNAL_MESSAGE`] (the detail logged), the same over HTTP and the WebSocket.
pub fn public_message(e: &GameError) -> String {
    if e.kind == ErrorKind::Internal {
        tracing::error!("internal error: {}", e.message);
        INTERNAL_MESSAGE.to_owned()
    } else {
        e.message.clone()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let message = if self.status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!("internal error: {}", self.message);
            INTERNAL_MESSAGE.to_owned()
        } else {
            self.message
        };
        (
            self.status,
            Json(ErrorBody {
                reason: self.reason,
                message,
            }),
        )
            .into_response()
    }
}
