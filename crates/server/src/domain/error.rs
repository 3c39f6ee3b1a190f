//! [`GameError`]: why the server refuses a request, in the terms of the game and its accounts.
//! The HTTP layer turns each [`ErrorKind`] into a status (`crate::http::error`, one table); the
//! WebSocket sends the reason and message as they are.

use ingo_rules::PlayErrorKind;

/// What kind of refusal an error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The request is malformed.
    BadRequest,
    /// No valid session.
    NotLoggedIn,
    /// The user may not do this.
    Forbidden,
    /// No such thing.
    NotFound,
    /// The request does not fit the current state (out of turn, a stale move number…).
    Conflict,
    /// Well-formed but refused: an illegal move, a bad value.
    Refused,
    /// Too large a request body.
    TooLarge,
    /// Too many attempts.
    TooMany,
    /// A storage failure or a broken invariant: the detail goes to the server's log only.
    Internal,
    /// A game whose stored moves or ending do not replay: it is set aside (quarantined) and
    /// the operator told, while every other game is served.
    Damaged,
}

/// A refusal, with a stable code and a sentence for a person.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}: {message}")]
pub struct GameError {
    /// Which kind of refusal.
    pub kind: ErrorKind,
    /// A stable code (`hot-stone`, `not-a-player`, `csrf`…).
    pub reason: &'static str,
    /// A sentence for a person (for [`ErrorKind::Internal`], the detail for the log).
    pub message: String,
}

impl GameError {
    /// An error of `kind`.
    pub fn new(kind: ErrorKind, reason: &'static str, message: impl Into<String>) -> GameError {
        GameError {
            kind,
            reason,
            message: message.into(),
        }
    }

    /// The request is malformed.
    pub fn bad_request(reason: &'static str, message: impl Into<String>) -> GameError {
        GameError::new(ErrorKind::BadRequest, reason, message)
    }

    /// No valid session.
    pub fn unauthorized() -> GameError {
        GameError::new(ErrorKind::NotLoggedIn, "not-logged-in", "Log in first.")
    }

    /// The user may not do this.
    pub fn forbidden(reason: &'static str, message: impl Into<String>) -> GameError {
        GameError::new(ErrorKind::Forbidden, reason, message)
    }

    /// No such `what`.
    pub fn not_found(what: &str) -> GameError {
        GameError::new(ErrorKind::NotFound, "not-found", format!("No such {what}."))
    }

    /// The request does not fit the current state.
    pub fn conflict(reason: &'static str, message: impl Into<String>) -> GameError {
        GameError::new(ErrorKind::Conflict, reason, message)
    }

    /// Well-formed but refused.
    pub fn unprocessable(reason: &'static str, message: impl Into<String>) -> GameError {
        GameError::new(ErrorKind::Refused, reason, message)
    }

    /// Too many attempts.
    pub fn too_many(message: impl Into<String>) -> GameError {
        GameError::new(ErrorKind::TooMany, "rate-limited", message)
    }

    /// A storage failure or a broken invariant.
    pub fn internal(detail: impl Into<String>) -> GameError {
        GameError::new(ErrorKind::Internal, "internal", detail)
    }

    /// Game `id` cannot be rebuilt from what is stored of it, for `why`.
    pub fn damaged(id: i64, why: &str) -> GameError {
        GameError::new(
            ErrorKind::Damaged,
            "damaged-game",
            format!(
                "Game {id} cannot be rebuilt from what is stored of it ({why}). It is set aside \
                 and the server's operator has been told; every other game goes on."
            ),
        )
    }

    /// A refusal by the rules: out of turn and after the end do not fit the state, the rest is
    /// an illegal move.
    pub fn rule(kind: PlayErrorKind) -> GameError {
        let k = match kind {
            PlayErrorKind::OutOfTurn | PlayErrorKind::GameOver => ErrorKind::Conflict,
            _ => ErrorKind::Refused,
        };
        GameError::new(k, kind.code(), reason_message(kind))
    }

    /// The not-a-player refusal.
    pub fn not_a_player() -> GameError {
        GameError::forbidden("not-a-player", "You do not play in this game.")
    }
}

/// The sentence that explains a refusal to a player (the engine front's, so that GTP and the
/// server say the same).
pub fn reason_message(kind: PlayErrorKind) -> &'static str {
    match kind {
        PlayErrorKind::OutOfTurn => "It is not your turn.",
        PlayErrorKind::GameOver => "The game is over.",
        other => ingo_front::explain(other),
    }
}

impl From<ingo_store::StoreError> for GameError {
    fn from(e: ingo_store::StoreError) -> GameError {
        GameError::internal(e.to_string())
    }
}
