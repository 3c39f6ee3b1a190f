//! Accounts and sessions: registering (argon2id password hashes), checking a password, and
//! sessions kept as the SHA-256 of a random token, each with its CSRF token.
//!
//! Argon2 runs on Tokio's blocking threads ([`tokio::task::spawn_blocking`]): a burst of
//! registrations or log-ins must not hold up the moves served by the async threads. Names are
//! unique folded ([`fold_name`]); expired sessions are deleted ([`purge_expired`]).
//!
//! An account may have many sessions at once (a phone, a laptop, the hall's computer): a new
//! log-in leaves the others valid unless it asks to end them. The owner lists them (opened,
//! last used, from which address: [`list`]) and ends one ([`revoke`]) or all the others
//! ([`revoke_all`]); a password change ends every other session ([`change_password`]).

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use ingo_store::new_id;
use ingo_store::server::{self as db, UserRow};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::net::IpAddr;

use crate::domain::accounts::{
    check_name_shape, check_password_shape, fold_name, is_reserved_name,
};
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

fn hash_blocking(password: &str) -> Result<String, GameError> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| GameError::internal(format!("no randomness: {e}")))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| GameError::internal(e.to_string()))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| GameError::internal(e.to_string()))
}

fn verify_blocking(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// The argon2id hash of `password`, computed on a blocking thread.
async fn hash_password(password: &str) -> Result<String, GameError> {
    let password = password.to_owned();
    tokio::task::spawn_blocking(move || hash_blocking(&password))
        .await
        .map_err(|e| GameError::internal(format!("the password hash failed: {e}")))?
}

/// Whether `password` matches `hash`, checked on a blocking thread.
async fn verify_password(password: &str, hash: &str) -> Result<bool, GameError> {
    let (password, hash) = (password.to_owned(), hash.to_owned());
    tokio::task::spawn_blocking(move || verify_blocking(&password, &hash))
        .await
        .map_err(|e| GameError::internal(format!("the password check failed: {e}")))
}

fn valid_name(name: &str) -> bool {
    let n = name.chars().count();
    (1..=32).contains(&n)
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// Opens a session of `user_id` lasting `lifetime_ms`, from `address` (if known).
///
/// # Errors
/// Internal on a storage failure or without randomness.
pub async fn open(
    play: &Play,
    user_id: i64,
    lifetime_ms: i64,
    address: Option<IpAddr>,
) -> Result<Opened, GameError> {
    let token = random_token()?;
    let csrf = random_token()?;
    let now = play.now_ms();
    db::create_session_from(
        play.store(),
        &token_hash(&token),
        user_id,
        &csrf,
        now,
        now + lifetime_ms,
        address.map(|a| a.to_string()).as_deref(),
    )
    .await?;
    Ok(Opened { token, csrf })
}

/// How often, at most, a session's last use is written: once a minute (or at once when it
/// is used from another address), so that reading a session costs no write.
pub const SEEN_EVERY_MS: i64 = 60_000;

/// The session of a token, if it is valid now; marks it seen from `address` (at most once a
/// [`SEEN_EVERY_MS`], or when the address changed).
///
/// # Errors
/// On a storage failure.
pub async fn of_token(
    play: &Play,
    token: &str,
    address: Option<IpAddr>,
) -> Result<Option<Session>, GameError> {
    let hash = token_hash(token);
    let now = play.now_ms();
    let Some(found) = db::session_seen(play.store(), &hash, now).await? else {
        return Ok(None);
    };
    let address = address.map(|a| a.to_string());
    let moved = address.is_some() && address != found.address;
    let stale = found
        .last_seen_ms
        .is_none_or(|t| now.saturating_sub(t) >= SEEN_EVERY_MS);
    if moved || stale {
        db::touch_session(play.store(), &hash, now, address.as_deref()).await?;
    }
    Ok(Some(Session {
        user: found.user,
        csrf: found.csrf,
    }))
}

/// One of an account's sessions, as its owner sees it.
#[derive(Clone, Debug, Serialize)]
pub struct SessionView {
    /// Its id, for `POST /api/sessions/{id}/revoke`.
    pub id: String,
    /// When it was opened (ms since the epoch).
    pub created_ms: i64,
    /// When it was last used (to the minute), if known.
    pub last_seen_ms: Option<i64>,
    /// The address it was last used from, if known.
    pub address: Option<String>,
    /// When it expires.
    pub expires_ms: i64,
    /// Whether it is the session of this request.
    pub current: bool,
}

/// The valid sessions of account `user_id`, the most recently used first; `current` is the
/// token of the asking session.
///
/// # Errors
/// On a storage failure.
pub async fn list(play: &Play, user_id: i64, current: &str) -> Result<Vec<SessionView>, GameError> {
    let mine = token_hash(current);
    Ok(db::sessions_of(play.store(), user_id, play.now_ms())
        .await?
        .into_iter()
        .map(|(hash, s)| SessionView {
            current: hash == mine,
            id: s.id,
            created_ms: s.created_ms,
            last_seen_ms: s.last_seen_ms,
            address: s.address,
            expires_ms: s.expires_ms,
        })
        .collect())
}

/// Ends the session `id` of account `user_id`.
///
/// # Errors
/// Not found when the account has no session of that id; on a storage failure.
pub async fn revoke(play: &Play, user_id: i64, id: &str) -> Result<(), GameError> {
    if db::delete_session_of(play.store(), user_id, id).await? {
        Ok(())
    } else {
        Err(GameError::not_found("session"))
    }
}

/// Ends every session of account `user_id` but that of the token `keep` (`None`: every one);
/// answers how many.
///
/// # Errors
/// On a storage failure.
pub async fn revoke_all(play: &Play, user_id: i64, keep: Option<&str>) -> Result<u64, GameError> {
    let keep = keep.map(token_hash);
    Ok(db::delete_sessions_of(play.store(), user_id, keep.as_deref()).await?)
}

/// Changes the password of `user` (whose `old` password was checked by the caller) to `new`,
/// and ends every other session of the account (the one of the token `keep` stays).
///
/// # Errors
/// Refused for a password too short or of a shape no one types; on a storage failure.
pub async fn change_password(
    play: &Play,
    user: &UserRow,
    new: &str,
    keep: &str,
) -> Result<u64, GameError> {
    check_password_shape(new)?;
    if new.chars().count() < 8 {
        return Err(GameError::unprocessable(
            "weak-password",
            "A password has at least 8 characters.",
        ));
    }
    let hash = hash_password(new).await?;
    db::set_password_hash(play.store(), user.id, &hash).await?;
    revoke_all(play, user.id, Some(keep)).await
}

/// Deletes the sessions expired now; answers how many.
///
/// # Errors
/// On a storage failure.
pub async fn purge_expired(play: &Play) -> Result<u64, GameError> {
    Ok(db::delete_expired_sessions(play.store(), play.now_ms()).await?)
}

/// Gives a folded name ([`fold_name`]) to each account that has none (made before they were
/// kept); the second of two names that fold alike keeps none. Answers how many were set.
///
/// # Errors
/// On a storage failure.
pub async fn fold_old_names(play: &Play) -> Result<usize, GameError> {
    const BATCH: usize = 500;
    let (mut set, mut skipped) = (0, 0);
    loop {
        // The accounts still without a key, oldest first: those skipped come first.
        let want = skipped + BATCH;
        let batch = db::users_without_name_key(play.store(), want as i64).await?;
        for (id, name) in batch.iter().skip(skipped) {
            if db::set_name_key(play.store(), *id, &fold_name(name)).await? {
                set += 1;
            } else {
                skipped += 1;
            }
        }
        if batch.len() < want {
            return Ok(set);
        }
    }
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
    check_name_shape("name", &name)?;
    check_password_shape(password)?;
    if !valid_name(&name) {
        return Err(GameError::unprocessable(
            "bad-name",
            "A name has 1 to 32 letters, digits, '_' or '-'.",
        ));
    }
    if is_reserved_name(&name) {
        return Err(GameError::unprocessable(
            "reserved-name",
            "Names starting with ingo-bot- or ingo-engine- (in any case or form) are the \
             server's own.",
        ));
    }
    let key = fold_name(&name);
    if db::name_key_taken(play.store(), &key).await? {
        return Err(GameError::conflict(
            "name-taken",
            "That name is taken (names are compared without case: AliceX and alicex are one).",
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
        password_hash: hash_password(password).await?,
        rank: rank.to_string(),
        created_ms: play.now_ms(),
    };
    if !db::create_user_keyed(play.store(), &user, Some(&key)).await? {
        return Err(GameError::conflict("name-taken", "That name is taken."));
    }
    Ok(user)
}

/// How many log-ins for a name no account has were checked against [`dummy_hash`] (since the
/// process started): a test's way to see that such a log-in takes the same argon2 path.
static DUMMY_CHECKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many checks against the dummy hash were made in this process.
pub fn dummy_checks() -> u64 {
    DUMMY_CHECKS.load(std::sync::atomic::Ordering::Relaxed)
}

/// The argon2id hash, with the same parameters as every account's ([`Argon2::default`]), of a
/// random password nobody knows, made once. A log-in for an unknown name is verified against
/// it, so that it costs what a wrong password for a known name costs and its time does not
/// tell whether the name exists.
fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| {
        let mut secret = [0u8; 32];
        // Without randomness the secret is zeros: still the same cost, and no password of the
        // accepted shape hashes to it by chance under a random salt.
        let _ = getrandom::fill(&mut secret);
        hash_blocking(&hex(&secret)).unwrap_or_default()
    })
}

/// Whether `password` matches [`dummy_hash`] (never, in practice), checked on a blocking
/// thread; counted in [`dummy_checks`].
async fn verify_dummy(password: &str) -> Result<bool, GameError> {
    let password = password.to_owned();
    DUMMY_CHECKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    tokio::task::spawn_blocking(move || verify_blocking(&password, dummy_hash()))
        .await
        .map_err(|e| GameError::internal(format!("the password check failed: {e}")))
}

/// The account `name` when `password` is its password. An unknown name is verified against a
/// dummy hash of the same cost (made once) and answers `None`.
///
/// # Errors
/// On a storage failure.
pub async fn check_password(
    play: &Play,
    name: &str,
    password: &str,
) -> Result<Option<UserRow>, GameError> {
    let Some(u) = db::user_by_name(play.store(), name).await? else {
        verify_dummy(password).await?;
        return Ok(None);
    };
    Ok(verify_password(password, &u.password_hash)
        .await?
        .then_some(u))
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;

    #[test]
    fn argon2_runs_on_a_blocking_thread() {
        // The one blocking thread is held: a hash or check sent to it cannot be ready at its
        // first poll; one computed on the async thread would be.
        let rt = tokio::runtime::Builder::new_current_thread()
            .max_blocking_threads(1)
            .build()
            .unwrap_or_else(|e| panic!("{e}"));
        rt.block_on(async {
            let (hold, held) = std::sync::mpsc::channel::<()>();
            let holder = tokio::task::spawn_blocking(move || held.recv());
            let mut hash = std::pin::pin!(hash_password("correct horse"));
            assert!(
                hash.as_mut().now_or_never().is_none(),
                "hashed on the async thread"
            );
            let stored = hash_blocking("correct horse").unwrap_or_else(|e| panic!("{e}"));
            let mut check = std::pin::pin!(verify_password("correct horse", &stored));
            assert!(
                check.as_mut().now_or_never().is_none(),
                "checked on the async thread"
            );
            let _ = hold.send(());
            let _ = holder.await;
            let hashed = hash.await.unwrap_or_else(|e| panic!("{e}"));
            assert!(hashed.starts_with("$argon2id$"), "{hashed}");
            assert_eq!(check.await, Ok(true));
            assert_eq!(verify_password("wrong", &hashed).await, Ok(false));
        });
    }
}
