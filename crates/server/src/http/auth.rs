//! Accounts and sessions: register, log in, log out, who am I, profiles.
//!
//! Passwords are hashed with argon2id. A session is a random token in an `HttpOnly`,
//! `SameSite=Strict` cookie; the database keeps only its SHA-256. Every request that changes
//! state must also carry the session's CSRF token in the `X-CSRF-Token` header (the token is
//! answered by log-in and by `GET /api/me`, which another site's page cannot read).
//!
//! Log-in: a name or password of a shape no account has (over-long, a NUL) is refused before
//! anything else; then the attempt is counted, before its password is checked, against three
//! limits (`AppState::login_attempt`): this name from this address, this address, and this
//! name from all addresses. Past one, that caller waits (429 with `Retry-After`); the owner
//! logging in from elsewhere is not held up by one address's guesses. A right password gives
//! its attempt back. Every failure also counts against one budget over all names and addresses
//! (`login_failures_per_minute_overall`): past it, a name that failed within the minute waits,
//! while a name with no recent failure is still checked, so an owner gets in. A name no account
//! has is checked against a dummy hash of the same cost, so the time of a log-in does not tell
//! whether the name exists.
//!
//! Sessions: an account keeps every session it opened (several devices) until it expires, is
//! logged out, or its owner ends it: `GET /api/sessions` lists them (opened, last used, address),
//! `POST /api/sessions/{id}/revoke` ends one, `POST /api/sessions/revoke` every other one,
//! `POST /api/logout?all=1` every one; a log-in with `"end_other_sessions": true` and a password
//! change (`POST /api/password`) end every other one.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts, Path, Query, State};
use axum::http::header::{COOKIE, RETRY_AFTER, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use ingo_store::server::{self as db, UserRow};
use serde::{Deserialize, Serialize};

use crate::domain::accounts::{check_name_shape, check_password_shape};
use crate::http::error::ApiError;
use crate::play::sessions;
use crate::{AppState, LoginLimit, LoginRefused};

/// An account as its owner sees it after logging in: with the session's CSRF token.
#[derive(Serialize)]
struct Me {
    id: i64,
    name: String,
    rank: String,
    csrf: String,
    /// Whether the account directs events (the operator's `directors`).
    is_director: bool,
}

/// A finished game in a profile.
#[derive(Serialize)]
struct ProfileGame {
    id: i64,
    color: &'static str,
    opponent: Option<String>,
    size: i64,
    result: Option<String>,
    reason: Option<String>,
    ended_ms: Option<i64>,
}

/// A user's profile.
#[derive(Serialize)]
struct Profile {
    id: i64,
    name: String,
    rank: String,
    games: Vec<ProfileGame>,
}

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "ingo_session";
/// The header that carries the CSRF token.
pub const CSRF_HEADER: &str = "x-csrf-token";

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/register", post(register))
        .route("/api/login", post(login))
        .route("/api/logout", post(logout))
        .route("/api/password", post(change_password))
        .route("/api/sessions", get(list_sessions))
        .route("/api/sessions/revoke", post(revoke_other_sessions))
        .route("/api/sessions/{id}/revoke", post(revoke_session))
        .route("/api/me", get(me))
        .route("/api/users/{name}", get(profile))
}

/// The logged-in user of a request. Extracting it checks the session cookie and, for a method
/// that changes state, the CSRF header.
#[derive(Clone, Debug)]
pub struct User {
    /// The account.
    pub user: UserRow,
    /// The session's CSRF token.
    pub csrf: String,
    /// The session's token (only its hash is stored).
    pub token: String,
}

/// The session token in a request's cookies.
pub fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == SESSION_COOKIE)
        .map(|(_, v)| v.to_owned())
}

/// The user of a session token, if it is valid.
///
/// # Errors
/// On a storage failure.
pub async fn user_of_token(state: &AppState, token: &str) -> Result<Option<User>, ApiError> {
    user_of_token_from(state, token, None).await
}

/// The user of a session token, if it is valid, the session marked seen from `address`.
///
/// # Errors
/// On a storage failure.
pub async fn user_of_token_from(
    state: &AppState,
    token: &str,
    address: Option<IpAddr>,
) -> Result<Option<User>, ApiError> {
    Ok(sessions::of_token(&state.play, token, address)
        .await?
        .map(|s| User {
            user: s.user,
            csrf: s.csrf,
            token: token.to_owned(),
        }))
}

/// The peer's address of a request, when the server was started with it.
pub fn peer_address(parts: &Parts) -> Option<IpAddr> {
    parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(a)| a.ip())
}

impl FromRequestParts<AppState> for User {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<User, ApiError> {
        let token = session_token(&parts.headers).ok_or_else(ApiError::unauthorized)?;
        let user = user_of_token_from(state, &token, peer_address(parts))
            .await?
            .ok_or_else(ApiError::unauthorized)?;
        let safe = matches!(parts.method, Method::GET | Method::HEAD | Method::OPTIONS);
        if !safe {
            let sent = parts
                .headers
                .get(CSRF_HEADER)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            if !constant_time_eq(sent.as_bytes(), user.csrf.as_bytes()) {
                return Err(ApiError::forbidden(
                    "csrf",
                    "This request lacks the session's CSRF token (header X-CSRF-Token).",
                ));
            }
        }
        Ok(user)
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[derive(Deserialize)]
struct Register {
    name: String,
    password: String,
    #[serde(default = "default_rank")]
    rank: String,
}

fn default_rank() -> String {
    "級外".into()
}

#[derive(Deserialize)]
struct Login {
    name: String,
    password: String,
    /// End every other session of the account (a device lost, a shared computer left).
    #[serde(default)]
    end_other_sessions: bool,
}

/// Opens a session for `user` and answers it with its cookie.
async fn start_session(
    state: &AppState,
    user: &UserRow,
    status: StatusCode,
    address: Option<IpAddr>,
) -> Result<Response, ApiError> {
    let sessions::Opened { token, csrf } =
        sessions::open(&state.play, user.id, state.config.session_ms, address).await?;
    let cookie = format!(
        "{SESSION_COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/; Max-Age={}{}",
        state.config.session_ms / 1000,
        if state.config.secure_cookies {
            "; Secure"
        } else {
            ""
        }
    );
    let mut resp = (
        status,
        Json(Me {
            id: user.id,
            name: user.name.clone(),
            rank: user.rank.clone(),
            csrf,
            is_director: state.is_director(user),
        }),
    )
        .into_response();
    resp.headers_mut().insert(
        SET_COOKIE,
        HeaderValue::from_str(&cookie).map_err(|e| ApiError::internal(e.to_string()))?,
    );
    Ok(resp)
}

async fn register(
    State(state): State<AppState>,
    addr: Option<Extension<ConnectInfo<SocketAddr>>>,
    Json(req): Json<Register>,
) -> Result<Response, ApiError> {
    let user = sessions::register(&state.play, req.name, &req.password, &req.rank).await?;
    state.purge_sessions().await?;
    let ip = addr.map(|Extension(ConnectInfo(a))| a.ip());
    start_session(&state, &user, StatusCode::CREATED, ip).await
}

async fn login(
    State(state): State<AppState>,
    addr: Option<Extension<ConnectInfo<SocketAddr>>>,
    Json(req): Json<Login>,
) -> Result<Response, ApiError> {
    // Before anything is kept or computed: a name that no account can have, a password no
    // one types.
    check_name_shape("name", &req.name)?;
    check_password_shape(&req.password)?;
    let ip = addr.map(|Extension(ConnectInfo(a))| a.ip());
    // Counted before the password is checked, in one step with the check of the limits.
    let attempt = match state.login_attempt(&req.name, ip) {
        Ok(a) => a,
        Err(refused) => return Ok(too_many_log_ins(refused)),
    };
    match sessions::check_password(&state.play, &req.name, &req.password).await? {
        Some(u) => {
            state.login_succeeded(attempt);
            state.purge_sessions().await?;
            if req.end_other_sessions {
                let ended = sessions::revoke_all(&state.play, u.id, None).await?;
                tracing::info!(
                    user = u.id,
                    sessions = ended,
                    "other sessions ended at log-in"
                );
            }
            start_session(&state, &u, StatusCode::OK, ip).await
        }
        None => Err(ApiError::new_unauthorized_credentials()),
    }
}

/// 429 with `Retry-After`, saying which limit was reached.
fn too_many_log_ins(r: LoginRefused) -> Response {
    let wait = r.retry_after_secs.max(1);
    let message = match r.by {
        LoginLimit::NameFromAddress => {
            format!("Too many log-ins for this name from your address; try again in {wait} s.")
        }
        LoginLimit::Address => {
            format!("Too many failed log-ins from your address; try again in {wait} s.")
        }
        LoginLimit::Account => format!(
            "Too many failed log-ins for this name from many addresses; try again in {wait} s."
        ),
        LoginLimit::Overall => format!(
            "The server sees too many failed log-ins, and this name failed recently; try again \
             in {wait} s."
        ),
    };
    let mut resp = ApiError::too_many(message).into_response();
    resp.headers_mut()
        .insert(RETRY_AFTER, HeaderValue::from(wait));
    resp
}

impl ApiError {
    fn new_unauthorized_credentials() -> ApiError {
        ApiError {
            status: StatusCode::UNAUTHORIZED,
            reason: "bad-credentials",
            message: "Wrong name or password.".into(),
        }
    }
}

#[derive(Deserialize)]
struct Logout {
    /// `1` or `true`: end every session of the account, on every device.
    #[serde(default)]
    all: Option<String>,
}

async fn logout(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<Logout>,
    user: User,
) -> Result<Response, ApiError> {
    if q.all.as_deref().is_some_and(|a| a == "1" || a == "true") {
        sessions::revoke_all(&state.play, user.user.id, None).await?;
    } else if let Some(token) = session_token(&headers) {
        sessions::close(&state.play, &token).await?;
    }
    let mut resp = StatusCode::NO_CONTENT.into_response();
    resp.headers_mut().insert(
        SET_COOKIE,
        HeaderValue::from_static("ingo_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0"),
    );
    Ok(resp)
}

async fn list_sessions(
    State(state): State<AppState>,
    user: User,
) -> Result<Json<Vec<sessions::SessionView>>, ApiError> {
    Ok(Json(
        sessions::list(&state.play, user.user.id, &user.token).await?,
    ))
}

async fn revoke_session(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    sessions::revoke(&state.play, user.user.id, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Serialize)]
struct Ended {
    ended: u64,
}

async fn revoke_other_sessions(
    State(state): State<AppState>,
    user: User,
) -> Result<Json<Ended>, ApiError> {
    let ended = sessions::revoke_all(&state.play, user.user.id, Some(&user.token)).await?;
    Ok(Json(Ended { ended }))
}

#[derive(Deserialize)]
struct NewPassword {
    password: String,
    new_password: String,
}

/// The password checked as a log-in is (counted against the same limits first), then
/// changed; every other session of the account ends.
async fn change_password(
    State(state): State<AppState>,
    addr: Option<Extension<ConnectInfo<SocketAddr>>>,
    user: User,
    Json(req): Json<NewPassword>,
) -> Result<Response, ApiError> {
    check_password_shape(&req.password)?;
    let ip = addr.map(|Extension(ConnectInfo(a))| a.ip());
    let attempt = match state.login_attempt(&user.user.name, ip) {
        Ok(a) => a,
        Err(refused) => return Ok(too_many_log_ins(refused)),
    };
    if sessions::check_password(&state.play, &user.user.name, &req.password)
        .await?
        .is_none()
    {
        return Err(ApiError::new_unauthorized_credentials());
    }
    state.login_succeeded(attempt);
    let ended =
        sessions::change_password(&state.play, &user.user, &req.new_password, &user.token).await?;
    Ok(Json(Ended { ended }).into_response())
}

async fn me(State(state): State<AppState>, user: User) -> Json<Me> {
    Json(Me {
        is_director: state.is_director(&user.user),
        id: user.user.id,
        name: user.user.name,
        rank: user.user.rank,
        csrf: user.csrf,
    })
}

async fn profile(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<Profile>, ApiError> {
    check_name_shape("name", &name)?;
    let u = db::user_by_name(&state.store, &name)
        .await?
        .ok_or_else(|| ApiError::not_found("user"))?;
    let mut games = db::finished_games_of(&state.store, u.id, 200).await?;
    // Pair and consultation games in which the user sat in a later seat.
    games.extend(db::finished_team_games_of(&state.store, u.id, 200).await?);
    games.sort_by_key(|g| std::cmp::Reverse(g.state.ended_ms));
    games.truncate(200);
    let mut list = Vec::new();
    for g in games {
        let opponent_id = if g.black == u.id { g.white } else { g.black };
        let mut opponent = db::user_by_id(&state.store, opponent_id)
            .await?
            .map(|o| o.name);
        let mut color = if g.black == u.id { "B" } else { "W" };
        if let Some((_, members)) = db::game_team(&state.store, g.id).await? {
            // A team game: the user's side, and the other side's members ("A & B").
            if let Some(mine) = members.iter().find(|m| m.user_id == u.id) {
                color = if mine.color == "B" { "B" } else { "W" };
            }
            let mut names = Vec::new();
            for m in members.iter().filter(|m| m.color != color) {
                if let Some(o) = db::user_by_id(&state.store, m.user_id).await? {
                    names.push(o.name);
                }
            }
            opponent = Some(names.join(" & "));
        }
        list.push(ProfileGame {
            id: g.id,
            color,
            opponent,
            size: g.size,
            result: g.state.result,
            reason: g.state.end_reason,
            ended_ms: g.state.ended_ms,
        });
    }
    Ok(Json(Profile {
        id: u.id,
        name: u.name,
        rank: u.rank,
        games: list,
    }))
}
