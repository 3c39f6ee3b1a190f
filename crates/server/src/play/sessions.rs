//! Accounts and sessions: registering (argon2id password hashes), checking a password, and
//! sessions kept as the SHA-256 of a random token, each with its CSRF token.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use ingo_store::new_id;
use ingo_store::server::{self as db, UserRow};
use sha2::{Digest, Sha256};

use crate::domain::accounts::is_reserved_name;
use crate::domain::error::GameError;
use crate::play::hub::Play;

/// A valid session: its account and its CSRF token.
#[derive(Clone, Debug)]
pub struct Session {
    /// The account.
    pub user: UserRow,
    /// The session's CSRF token.
    pub csrf: String,
}

/// A session just opened: the token the client keeps (only its hash is stored) and the CSRF
/// token.
#[derive(Clone, Debug)]
pub struct Opened {
    /// The session token.
    pub token: String,
    /// The CSRF token.
    pub csrf: String,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn random_token() -> Result<String, GameError> {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).map_err(|e| GameError::internal(format!("no randomness: {e}")))?;
    Ok(hex(&b))
}

fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hash_password(password: &str) -> Result<String, GameError> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| GameError::internal(format!("no randomness: {e}")))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| GameError::internal(e.to_string()))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| GameError::internal(e.to_string()))
}

fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

fn valid_name(name: &str) -> bool {
    let n = name.chars().count();
    (1..=32).contains(&n)
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// Opens a session of `user_id` lasting `lifetime_ms`.
///
/// # Errors
/// Internal on a storage failure or without randomness.
pub async fn open(play: &Play, user_id: i64, lifetime_ms: i64) -> Result<Opened, GameError> {
    let token = random_token()?;
    let csrf = random_token()?;
    let now = play.now_ms();
    db::create_session(
        play.store(),
        &token_hash(&token),
        user_id,
        &csrf,
        now,
        now + lifetime_ms,
    )
    .await?;
    Ok(Opened { token, csrf })
}

/// The session of a token, if it is valid now.
///
/// # Errors
/// On a storage failure.
pub async fn of_token(play: &Play, token: &str) -> Result<Option<Session>, GameError> {
    Ok(db::session(play.store(), &token_hash(token), play.now_ms())
        .await?
        .map(|(user, csrf)| Session { user, csrf }))
}

/// Ends the session of a token.
///
/// # Errors
/// On a storage failure.
pub async fn close(play: &Play, token: &str) -> Result<(), GameError> {
    Ok(db::delete_session(play.store(), &token_hash(token)).await?)
}

/// A new account.
///
/// # Errors
/// Refused for a bad or reserved name, a short password or a bad rank; a conflict for a name
/// taken; internal on a storage failure.
pub async fn register(
    play: &Play,
    name: String,
    password: &str,
    rank: &str,
) -> Result<UserRow, GameError> {
    if !valid_name(&name) || is_reserved_name(&name) {
        return Err(GameError::unprocessable(
            "bad-name",
            "A name has 1 to 32 letters, digits, '_' or '-'.",
        ));
    }
    if password.chars().count() < 8 {
        return Err(GameError::unprocessable(
            "weak-password",
            "A password has at least 8 characters.",
        ));
    }
    let rank: ingo_competition::Rank = rank.parse().map_err(|_| {
        GameError::unprocessable(
            "bad-rank",
            format!("{rank:?} is not a rank: write 3p (品), 5d (段), 2k (級) or 級外."),
        )
    })?;
    let user = UserRow {
        id: new_id(),
        name,
        password_hash: hash_password(password)?,
        rank: rank.to_string(),
        created_ms: play.now_ms(),
    };
    if !db::create_user(play.store(), &user).await? {
        return Err(GameError::conflict("name-taken", "That name is taken."));
    }
    Ok(user)
}

/// The account `name` when `password` is its password.
///
/// # Errors
/// On a storage failure.
pub async fn check_password(
    play: &Play,
    name: &str,
    password: &str,
) -> Result<Option<UserRow>, GameError> {
    Ok(db::user_by_name(play.store(), name)
        .await?
        .filter(|u| verify_password(password, &u.password_hash)))
}
