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

    /// A new, empty database `ingo_test_<random>` on the PostgreSQL server of
    /// [`postgres_admin_url`], migrated. It is left behind for inspection (names are unique).
    ///
    /// # Errors
    ///
    /// When the server cannot be reached or the database cannot be created.
    pub async fn postgres() -> Result<TestDb, StoreError> {
        let admin = postgres_admin_url();
        let name = format!("ingo_test_{}", new_id());
        let mut conn = sqlx::PgConnection::connect(&admin)
            .await
            .map_err(|source| StoreError::Open {
                url: crate::redact(&admin),
                source,
            })?;
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
