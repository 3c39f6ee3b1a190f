//! Accounts and sessions (migration `0200_server.sql`).

use sqlx::any::AnyRow;
use sqlx::Row;

use crate::{Store, StoreError};

use super::{is_unique_violation, writer};

/// An account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserRow {
    /// Its id.
    pub id: i64,
    /// The log-in name, unique.
    pub name: String,
    /// The argon2 hash of the password (PHC string).
    pub password_hash: String,
    /// The declared rank (`5d`, `2k`, `3p`, `級外`).
    pub rank: String,
    /// When it was made, in ms since the epoch.
    pub created_ms: i64,
}

fn user(row: &AnyRow) -> Result<UserRow, sqlx::Error> {
    Ok(UserRow {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        password_hash: row.try_get("password_hash")?,
        rank: row.try_get("rank")?,
        created_ms: row.try_get("created_ms")?,
    })
}

/// Adds an account. Returns `false` (and writes nothing) when the name is taken.
///
/// # Errors
/// On a database failure.
pub async fn create_user(store: &Store, u: &UserRow) -> Result<bool, StoreError> {
    let _writing = writer(store).await;
    let r = sqlx::query(
        "INSERT INTO server_users (id, name, password_hash, rank, created_ms) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(u.id)
    .bind(&u.name)
    .bind(&u.password_hash)
    .bind(&u.rank)
    .bind(u.created_ms)
    .execute(store.writes())
    .await;
    match r {
        Ok(_) => Ok(true),
        Err(e) if is_unique_violation(&e) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// The account of that name.
///
/// # Errors
/// On a database failure.
pub async fn user_by_name(store: &Store, name: &str) -> Result<Option<UserRow>, StoreError> {
    let row = sqlx::query(
        "SELECT id, name, password_hash, rank, created_ms FROM server_users WHERE name = $1",
    )
    .bind(name)
    .fetch_optional(store.pool())
    .await?;
    Ok(row.as_ref().map(user).transpose()?)
}

/// Sets the declared rank of user `id` (an engine account whose configured rank changed).
///
/// # Errors
/// On a database failure.
pub async fn set_user_rank(store: &Store, id: i64, rank: &str) -> Result<(), StoreError> {
    let _writing = writer(store).await;
    sqlx::query("UPDATE server_users SET rank = $1 WHERE id = $2")
        .bind(rank)
        .bind(id)
        .execute(store.writes())
        .await?;
    Ok(())
}

/// The account of that id.
///
/// # Errors
/// On a database failure.
pub async fn user_by_id(store: &Store, id: i64) -> Result<Option<UserRow>, StoreError> {
    let row = sqlx::query(
        "SELECT id, name, password_hash, rank, created_ms FROM server_users WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(store.pool())
    .await?;
    Ok(row.as_ref().map(user).transpose()?)
}

/// Opens a session.
///
/// # Errors
/// On a database failure.
pub async fn create_session(
    store: &Store,
    token_hash: &str,
    user_id: i64,
    csrf: &str,
    created_ms: i64,
    expires_ms: i64,
) -> Result<(), StoreError> {
    let _writing = writer(store).await;
    sqlx::query(
        "INSERT INTO server_sessions (token_hash, user_id, csrf, created_ms, expires_ms) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(token_hash)
    .bind(user_id)
    .bind(csrf)
    .bind(created_ms)
    .bind(expires_ms)
    .execute(store.writes())
    .await?;
    Ok(())
}

/// The user and CSRF token of a session still valid at `now_ms`.
///
/// # Errors
/// On a database failure.
pub async fn session(
    store: &Store,
    token_hash: &str,
    now_ms: i64,
) -> Result<Option<(UserRow, String)>, StoreError> {
    let row = sqlx::query(
        "SELECT u.id, u.name, u.password_hash, u.rank, u.created_ms, s.csrf \
         FROM server_sessions s JOIN server_users u ON u.id = s.user_id \
         WHERE s.token_hash = $1 AND s.expires_ms > $2",
    )
    .bind(token_hash)
    .bind(now_ms)
    .fetch_optional(store.pool())
    .await?;
    match row {
        None => Ok(None),
        Some(r) => Ok(Some((user(&r)?, r.try_get("csrf")?))),
    }
}

/// Ends a session.
///
/// # Errors
/// On a database failure.
pub async fn delete_session(store: &Store, token_hash: &str) -> Result<(), StoreError> {
    let _writing = writer(store).await;
    sqlx::query("DELETE FROM server_sessions WHERE token_hash = $1")
        .bind(token_hash)
        .execute(store.writes())
        .await?;
    Ok(())
}
