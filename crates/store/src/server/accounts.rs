//! Accounts and sessions (migration `0200_server.sql`; when and from where each session was last
//! used: `0208_session_seen.sql`), and the per-account limits counted in the transaction of
//! what they limit.

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
    create_session_from(
        store, token_hash, user_id, csrf, created_ms, expires_ms, None,
    )
    .await
}

/// Opens a session from `address` (last seen when it is made).
///
/// # Errors
/// On a database failure.
pub async fn create_session_from(
    store: &Store,
    token_hash: &str,
    user_id: i64,
    csrf: &str,
    created_ms: i64,
    expires_ms: i64,
    address: Option<&str>,
) -> Result<(), StoreError> {
    let _writing = writer(store).await;
    sqlx::query(
        "INSERT INTO server_sessions \
         (token_hash, user_id, csrf, created_ms, expires_ms, last_seen_ms, address) \
         VALUES ($1, $2, $3, $4, $5, $4, $6)",
    )
    .bind(token_hash)
    .bind(user_id)
    .bind(csrf)
    .bind(created_ms)
    .bind(expires_ms)
    .bind(address)
    .execute(store.writes())
    .await?;
    Ok(())
}

/// How many hexadecimal digits of a session's token hash make its public id
/// ([`SessionRow::id`]): enough to tell one account's sessions apart, nothing that opens one.
pub const SESSION_ID_DIGITS: usize = 16;

/// A session as its owner sees it in the list of their sessions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    /// Its public id: the first [`SESSION_ID_DIGITS`] digits of its token hash.
    pub id: String,
    /// When it was opened, in ms since the epoch.
    pub created_ms: i64,
    /// When it was last used (kept to about the minute); `None` for a session opened before
    /// this was kept and not used since.
    pub last_seen_ms: Option<i64>,
    /// The address it was last used from, if known.
    pub address: Option<String>,
    /// When it expires.
    pub expires_ms: i64,
}

fn session_id(token_hash: &str) -> String {
    token_hash.chars().take(SESSION_ID_DIGITS).collect()
}

/// A valid session found by its token hash, with when it was last seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionFound {
    /// The account.
    pub user: UserRow,
    /// The session's CSRF token.
    pub csrf: String,
    /// When it was last used, if kept.
    pub last_seen_ms: Option<i64>,
    /// The address it was last used from, if known.
    pub address: Option<String>,
}

/// The session still valid at `now_ms` of a token hash, with when and from where it was last
/// seen.
///
/// # Errors
/// On a database failure.
pub async fn session_seen(
    store: &Store,
    token_hash: &str,
    now_ms: i64,
) -> Result<Option<SessionFound>, StoreError> {
    let row = sqlx::query(
        "SELECT u.id, u.name, u.password_hash, u.rank, u.created_ms, s.csrf, s.last_seen_ms, \
         s.address FROM server_sessions s JOIN server_users u ON u.id = s.user_id \
         WHERE s.token_hash = $1 AND s.expires_ms > $2",
    )
    .bind(token_hash)
    .bind(now_ms)
    .fetch_optional(store.pool())
    .await?;
    match row {
        None => Ok(None),
        Some(r) => Ok(Some(SessionFound {
            user: user(&r)?,
            csrf: r.try_get("csrf")?,
            last_seen_ms: r.try_get("last_seen_ms")?,
            address: r.try_get("address")?,
        })),
    }
}

/// Marks a session seen at `now_ms`, from `address` when given (else the address kept).
///
/// # Errors
/// On a database failure.
pub async fn touch_session(
    store: &Store,
    token_hash: &str,
    now_ms: i64,
    address: Option<&str>,
) -> Result<(), StoreError> {
    let _writing = writer(store).await;
    sqlx::query(
        "UPDATE server_sessions SET last_seen_ms = $1, address = COALESCE($2, address) \
         WHERE token_hash = $3",
    )
    .bind(now_ms)
    .bind(address)
    .bind(token_hash)
    .execute(store.writes())
    .await?;
    Ok(())
}

/// The sessions of account `user_id` still valid at `now_ms`, the most recently used first.
///
/// # Errors
/// On a database failure.
pub async fn sessions_of(
    store: &Store,
    user_id: i64,
    now_ms: i64,
) -> Result<Vec<(String, SessionRow)>, StoreError> {
    let rows = sqlx::query(
        "SELECT token_hash, created_ms, last_seen_ms, address, expires_ms FROM server_sessions \
         WHERE user_id = $1 AND expires_ms > $2",
    )
    .bind(user_id)
    .bind(now_ms)
    .fetch_all(store.pool())
    .await?;
    let mut out = rows
        .iter()
        .map(|r| {
            let hash: String = r.try_get("token_hash")?;
            let row = SessionRow {
                id: session_id(&hash),
                created_ms: r.try_get("created_ms")?,
                last_seen_ms: r.try_get("last_seen_ms")?,
                address: r.try_get("address")?,
                expires_ms: r.try_get("expires_ms")?,
            };
            Ok((hash, row))
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    out.sort_by_key(|(_, s)| {
        std::cmp::Reverse((s.last_seen_ms.unwrap_or(s.created_ms), s.created_ms))
    });
    Ok(out)
}

/// Ends every session of account `user_id` but the one of `keep` (a token hash; `None`: all).
/// Answers how many were ended.
///
/// # Errors
/// On a database failure.
pub async fn delete_sessions_of(
    store: &Store,
    user_id: i64,
    keep: Option<&str>,
) -> Result<u64, StoreError> {
    let _writing = writer(store).await;
    let r = sqlx::query(
        "DELETE FROM server_sessions WHERE user_id = $1 AND ($2 IS NULL OR token_hash <> $2)",
    )
    .bind(user_id)
    .bind(keep)
    .execute(store.writes())
    .await?;
    Ok(r.rows_affected())
}

/// Ends the session of account `user_id` whose public id ([`SessionRow::id`]) is `id`;
/// answers whether there was one (another account's session is never ended).
///
/// # Errors
/// On a database failure.
pub async fn delete_session_of(store: &Store, user_id: i64, id: &str) -> Result<bool, StoreError> {
    if id.len() != SESSION_ID_DIGITS || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(false);
    }
    let _writing = writer(store).await;
    let r = sqlx::query(
        "DELETE FROM server_sessions WHERE user_id = $1 AND substr(token_hash, 1, 16) = $2",
    )
    .bind(user_id)
    .bind(id)
    .execute(store.writes())
    .await?;
    Ok(r.rows_affected() > 0)
}

/// Sets the password hash of account `id`.
///
/// # Errors
/// On a database failure.
pub async fn set_password_hash(store: &Store, id: i64, hash: &str) -> Result<(), StoreError> {
    let _writing = writer(store).await;
    sqlx::query("UPDATE server_users SET password_hash = $1 WHERE id = $2")
        .bind(hash)
        .bind(id)
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

/// What an account holds that a per-account limit counts, read from the tables (so several
/// servers on one database count the same things).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holding<'a> {
    /// Its open challenges (as challenger).
    OpenChallenges,
    /// Its running games (not ended) against a program of this kind (`builtin`, `engine`).
    GamesAgainst(&'a str),
    /// Its running games, whoever the opponent (an engine's account: the processes it runs).
    Games,
}

/// One per-account limit: `account` may hold at most `max` of `holding`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HoldingLimit<'a> {
    /// The account.
    pub account: i64,
    /// What is counted.
    pub holding: Holding<'a>,
    /// The most it may hold.
    pub max: usize,
}

/// What [`insert_within`] stores once every limit allows it.
#[derive(Clone, Copy, Debug)]
pub enum NewHolding<'a> {
    /// A challenge of one player a side.
    Challenge(&'a super::ChallengeRow),
    /// A team challenge with its kind and seats.
    TeamChallenge(&'a super::ChallengeRow, &'a str, &'a [super::SeatRow]),
    /// A game made without a challenge (against a program).
    Game(&'a super::GameRow),
}

/// A limit [`insert_within`] found reached: its index among those given, and what the
/// account holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverLimit {
    /// The index of the limit reached.
    pub which: usize,
    /// What the account holds now.
    pub held: usize,
}

async fn held(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    account: i64,
    holding: Holding<'_>,
) -> Result<usize, sqlx::Error> {
    let row = match holding {
        Holding::OpenChallenges => {
            sqlx::query(
                "SELECT COUNT(*) AS n FROM server_challenges \
                 WHERE challenger = $1 AND status = 'open'",
            )
            .bind(account)
            .fetch_one(&mut **tx)
            .await?
        }
        Holding::GamesAgainst(kind) => {
            sqlx::query(
                "SELECT COUNT(*) AS n FROM server_games g JOIN server_programs p \
                 ON p.user_id = CASE WHEN g.black = $1 THEN g.white ELSE g.black END \
                 WHERE (g.black = $1 OR g.white = $1) AND g.status <> 'ended' AND p.kind = $2",
            )
            .bind(account)
            .bind(kind)
            .fetch_one(&mut **tx)
            .await?
        }
        Holding::Games => {
            sqlx::query(
                "SELECT COUNT(*) AS n FROM server_games \
                 WHERE (black = $1 OR white = $1) AND status <> 'ended'",
            )
            .bind(account)
            .fetch_one(&mut **tx)
            .await?
        }
    };
    let n: i64 = row.try_get("n")?;
    Ok(usize::try_from(n).unwrap_or(0))
}

/// Stores `new` if every limit of `limits` allows one more, counted in the same transaction
/// as the insert: on PostgreSQL each limited account's row is locked first (`FOR UPDATE`, in
/// the order given), so requests through several servers at once are counted one after
/// another; on SQLite one process writes at a time. Answers the first limit reached, writing
/// nothing, or `Ok(())` once stored.
///
/// # Errors
/// On a database failure.
pub async fn insert_within(
    store: &Store,
    limits: &[HoldingLimit<'_>],
    new: NewHolding<'_>,
) -> Result<Result<(), OverLimit>, StoreError> {
    let _writing = writer(store).await;
    let mut tx = store.writes().begin().await?;
    if store.backend() == crate::Backend::Postgres {
        let mut locked = Vec::new();
        for l in limits {
            if !locked.contains(&l.account) {
                sqlx::query("SELECT id FROM server_users WHERE id = $1 FOR UPDATE")
                    .bind(l.account)
                    .execute(&mut *tx)
                    .await?;
                locked.push(l.account);
            }
        }
    }
    for (which, l) in limits.iter().enumerate() {
        let n = held(&mut tx, l.account, l.holding).await?;
        if n >= l.max {
            tx.rollback().await?;
            return Ok(Err(OverLimit { which, held: n }));
        }
    }
    match new {
        NewHolding::Challenge(c) => {
            super::insert_challenge(c).execute(&mut *tx).await?;
        }
        NewHolding::TeamChallenge(c, kind, seats) => {
            super::insert_team_challenge(&mut tx, c, kind, seats).await?;
        }
        NewHolding::Game(g) => super::insert_game(&mut tx, g).await?,
    }
    tx.commit().await?;
    Ok(Ok(()))
}

/// How many of `holding` account `account` holds now (outside any transaction: an early
/// answer; [`insert_within`] counts again where it matters).
///
/// # Errors
/// On a database failure.
pub async fn holding_count(
    store: &Store,
    account: i64,
    holding: Holding<'_>,
) -> Result<usize, StoreError> {
    let mut tx = store.pool().begin().await?;
    let n = held(&mut tx, account, holding).await?;
    tx.commit().await?;
    Ok(n)
}
