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

/// Adds an account without its folded name (`name_key` NULL: not checked against the others'
/// folded names). Returns `false` (and writes nothing) when the name is taken.
///
/// # Errors
/// On a database failure.
pub async fn create_user(store: &Store, u: &UserRow) -> Result<bool, StoreError> {
    create_user_keyed(store, u, None).await
}

/// Adds an account with `name_key`, its name as the server compares names (folded), unique
/// among the accounts. Returns `false` (and writes nothing) when the name or the key is taken.
///
/// # Errors
/// On a database failure.
pub async fn create_user_keyed(
    store: &Store,
    u: &UserRow,
    name_key: Option<&str>,
) -> Result<bool, StoreError> {
    let _writing = writer(store).await;
    let r = sqlx::query(
        "INSERT INTO server_users (id, name, password_hash, rank, created_ms, name_key) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(u.id)
    .bind(&u.name)
    .bind(&u.password_hash)
    .bind(&u.rank)
    .bind(u.created_ms)
    .bind(name_key)
    .execute(store.writes())
    .await;
    match r {
        Ok(_) => Ok(true),
        Err(e) if is_unique_violation(&e) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Whether an account has the folded name `name_key`.
///
/// # Errors
/// On a database failure.
pub async fn name_key_taken(store: &Store, name_key: &str) -> Result<bool, StoreError> {
    let row = sqlx::query("SELECT id FROM server_users WHERE name_key = $1")
        .bind(name_key)
        .fetch_optional(store.pool())
        .await?;
    Ok(row.is_some())
}

/// The accounts without a folded name (made before it was kept, or by [`create_user`]): id
/// and name, at most `limit`, oldest first.
///
/// # Errors
/// On a database failure.
pub async fn users_without_name_key(
    store: &Store,
    limit: i64,
) -> Result<Vec<(i64, String)>, StoreError> {
    let rows = sqlx::query(
        "SELECT id, name FROM server_users WHERE name_key IS NULL \
         ORDER BY created_ms, id LIMIT $1",
    )
    .bind(limit)
    .fetch_all(store.pool())
    .await?;
    Ok(rows
        .iter()
        .map(|r| Ok((r.try_get("id")?, r.try_get("name")?)))
        .collect::<Result<_, sqlx::Error>>()?)
}

/// Sets the folded name of account `id`. Returns `false` (and writes nothing) when another
/// account has it.
///
/// # Errors
/// On a database failure.
pub async fn set_name_key(store: &Store, id: i64, name_key: &str) -> Result<bool, StoreError> {
    let _writing = writer(store).await;
    let r = sqlx::query("UPDATE server_users SET name_key = $1 WHERE id = $2")
        .bind(name_key)
        .bind(id)
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

/// Deletes every session expired at `now_ms`; answers how many.
///
/// # Errors
/// On a database failure.
pub async fn delete_expired_sessions(store: &Store, now_ms: i64) -> Result<u64, StoreError> {
    let _writing = writer(store).await;
    let r = sqlx::query("DELETE FROM server_sessions WHERE expires_ms <= $1")
        .bind(now_ms)
        .execute(store.writes())
        .await?;
    Ok(r.rows_affected())
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
