//! Fresh, migrated databases for tests: an SQLite file in a temporary folder, and a new
//! database on a real PostgreSQL server (`DATABASE_URL`, else the usual local port).
//!
//! The PostgreSQL server is not optional: `scripts/test` finds one or starts its own, and a
//! test that asks for one fails when there is none.

use std::path::PathBuf;

use sqlx::{Connection, Executor};

use crate::{new_id, Store, StoreError};

/// The PostgreSQL server tests use: `DATABASE_URL`, else `postgres://postgres@127.0.0.1:5432/postgres`.
pub fn postgres_admin_url() -> String {
    std::env::var("DATABASE_URL")
        .ok()
        .filter(|u| u.starts_with("postgres"))
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/postgres".to_owned())
}

/// A test database; an SQLite file is deleted with its folder on drop.
#[derive(Debug)]
pub struct TestDb {
    /// The migrated store.
    pub store: Store,
    /// The URL it was opened with, for a second process or a reopen.
    pub url: String,
    _dir: Option<tempfile::TempDir>,
}

impl TestDb {
    /// A fresh SQLite file in a new temporary folder.
    ///
    /// # Errors
    ///
    /// When the folder cannot be made or the store cannot be opened.
    pub async fn sqlite() -> Result<TestDb, StoreError> {
        let dir = tempfile::tempdir().map_err(|e| StoreError::Open {
            url: "sqlite:(temporary)".into(),
            source: sqlx::Error::Io(e),
        })?;
        let path: PathBuf = dir.path().join("ingo.db");
        let url = format!("sqlite:{}", path.display());
        let store = Store::open(&url).await?;
        Ok(TestDb {
            store,
            url,
            _dir: Some(dir),
        })
    }

    /// A new, empty database `ingo_test_<unix seconds>_<random>` on the PostgreSQL server of
    /// [`postgres_admin_url`], migrated. It is left behind for inspection (names are unique);
    /// test databases more than [`KEEP_SECONDS`] old are dropped here, so that they do not pile
    /// up on a developer's server.
    ///
    /// # Errors
    ///
    /// When the server cannot be reached or the database cannot be created.
    pub async fn postgres() -> Result<TestDb, StoreError> {
        let admin = postgres_admin_url();
        let now_s = crate::now_ms() / 1000;
        let name = format!("ingo_test_{now_s}_{}", new_id());
        let mut conn = sqlx::PgConnection::connect(&admin)
            .await
            .map_err(|source| StoreError::Open {
                url: crate::redact(&admin),
                source,
            })?;
        drop_stale(&mut conn, now_s).await;
        conn.execute(sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
            "CREATE DATABASE {name}"
        ))))
        .await?;
        conn.close().await?;
        let base = admin
            .rsplit_once('/')
            .map(|(b, _)| b.to_owned())
            .unwrap_or(admin.clone());
        let url = format!("{base}/{name}");
        let store = Store::open(&url).await?;
        Ok(TestDb {
            store,
            url,
            _dir: None,
        })
    }
}

/// How long a test database is kept for inspection before a later test run drops it.
pub const KEEP_SECONDS: i64 = 6 * 3600;

/// The creation time (Unix seconds) in a test database's name, `ingo_test_<seconds>_<random>`;
/// `None` for any other name (older names without a time included: those are never dropped).
pub fn created_s(name: &str) -> Option<i64> {
    let (secs, random) = name.strip_prefix("ingo_test_")?.split_once('_')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(secs) || !digits(random) {
        return None;
    }
    secs.parse().ok()
}

/// Drops the test databases made more than [`KEEP_SECONDS`] before `now_s`. Best effort: a
/// database still in use, or a role without the right, is left alone (the test goes on).
async fn drop_stale(conn: &mut sqlx::PgConnection, now_s: i64) {
    let names: Vec<(String,)> =
        match sqlx::query_as("SELECT datname FROM pg_database WHERE datname LIKE 'ingo_test_%'")
            .fetch_all(&mut *conn)
            .await
        {
            Ok(n) => n,
            Err(_) => return,
        };
    for (name,) in names {
        let stale = created_s(&name).is_some_and(|t| now_s - t > KEEP_SECONDS);
        // The name was checked to be `ingo_test_<digits>_<digits>`: safe to quote as an identifier.
        if stale {
            let _ = conn
                .execute(sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
                    "DROP DATABASE IF EXISTS \"{name}\""
                ))))
                .await;
        }
    }
}

/// A user row for a test: a fresh id, `name`, a password hash no password verifies against,
/// `rank`.
#[must_use]
pub fn user_row(name: &str, rank: &str) -> crate::server::UserRow {
    crate::server::UserRow {
        id: new_id(),
        name: name.into(),
        password_hash: "$argon2id$fake".into(),
        rank: rank.into(),
        created_ms: 1,
    }
}

/// A 9×9 game in play under Ing's rules (komi 8, ten minutes of basic time) for a test.
#[must_use]
pub fn game_row(black: i64, white: i64) -> crate::server::GameRow {
    crate::server::GameRow {
        id: new_id(),
        black,
        white,
        size: 9,
        preset: "ing".into(),
        komi_halves: 16,
        handicap_passes: 0,
        time_control: "ing-pp:10m".into(),
        state: crate::server::GameState::playing(),
        started_ms: 100,
        version: 0,
    }
}

/// Move `n` of a test game: `color` plays `v` at 100 + `n` ms.
#[must_use]
pub fn move_row(n: i64, color: &str, v: &str) -> crate::server::MoveRow {
    crate::server::MoveRow {
        move_number: n,
        color: color.into(),
        mv: v.into(),
        at_ms: 100 + n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_timed_test_names_are_read() {
        assert_eq!(created_s("ingo_test_1700000000_42"), Some(1_700_000_000));
        assert_eq!(created_s("ingo_test_12345"), None);
        assert_eq!(created_s("ingo_test_1700000000_x"), None);
        assert_eq!(created_s("ingo_test_+17_1"), None);
        assert_eq!(created_s("postgres"), None);
    }
}
