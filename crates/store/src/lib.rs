//! Storage for ingo's play server and tournaments.
//!
//! One set of migrations (`migrations/`) and one set of queries serve both SQLite (the embedded
//! database `ingo serve` and `ingo tournament` create on first use) and PostgreSQL (what an
//! operator points several servers at). Both go through sqlx's `Any` driver, so every query is
//! written once; the migrations use only what both databases accept:
//!
//! * ids are `BIGINT`, made by the application with [`new_id`] (no `SERIAL`/`AUTOINCREMENT`,
//!   which the two spell differently), below 2⁵³ so that JavaScript reads them exactly;
//! * integers, booleans (0/1) and times (milliseconds since the Unix epoch) are `BIGINT`;
//! * text is `TEXT`; there is no `BLOB`/`BYTEA`;
//! * parameters are written `$1`, `$2`, …, which both drivers accept.
//!
//! Migration versions are grouped by owner: `0001`–`0099` the store itself, `0100`–`0199`
//! tournaments, `0200`–`0299` the play server.
#![deny(missing_docs)]

use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use std::sync::Arc;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyConnection, AnyPool, ConnectOptions, Executor};

pub mod consult;
pub mod programs;
pub mod server;
#[cfg(feature = "testing")]
pub mod testing;
pub mod tournament;

/// The database behind a [`Store`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// An SQLite file.
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

/// What went wrong in the store.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The URL names no database ingo can use.
    #[error("unsupported database URL {url:?}: expected sqlite:PATH or postgres://…")]
    UnsupportedUrl {
        /// The URL as given.
        url: String,
    },
    /// The database could not be opened or reached.
    #[error("cannot open database {url}: {source}")]
    Open {
        /// The URL, without its password.
        url: String,
        /// The driver's error.
        #[source]
        source: sqlx::Error,
    },
    /// Bringing the schema up to date failed.
    #[error("cannot migrate database: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A query failed.
    #[error("database error: {0}")]
    Query(#[from] sqlx::Error),
}

/// A migrated database: a connection pool and the kind of database behind it.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    /// With SQLite, a pool of one connection for the writes: SQLite has one writer at a time
    /// anyway, so writes queue here instead of in its busy handler (which sleeps), and the one
    /// connection that writes keeps its page cache (a connection whose file another connection
    /// changed drops its whole cache at its next transaction). With PostgreSQL, `pool` again.
    writes: AnyPool,
    /// With SQLite, the connection that appends moves, held outside the pools: a pool's
    /// connection costs a hand-over to its thread (a ping) each time it is given back, and the
    /// one writer would wait for it.
    held: Arc<tokio::sync::Mutex<Option<AnyConnection>>>,
    options: AnyConnectOptions,
    backend: Backend,
}

/// The settings of every SQLite connection. WAL: readers do not block the writer.
/// `synchronous = NORMAL`: COMMIT returns once the transaction is written to the WAL file, that
/// is into the operating system's cache, and the file is fsynced only at checkpoints. So a
/// committed transaction survives the death of this process (kill -9, a panic, an abort): the
/// server acknowledges a move only after its commit, and no acknowledged move is lost when the
/// process is killed. A crash of the machine itself (power, kernel) may lose
/// the last transactions before a checkpoint; FULL would fsync at every commit and cost that on
/// every move. `busy_timeout`: a writer of another process waits instead of failing at once.
const SQLITE_PRAGMAS: &str = "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
     PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON;";

/// The migrations, embedded in the binary.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

impl Store {
    /// Opens the database at `url` and brings its schema up to date.
    ///
    /// `sqlite:PATH` (or `sqlite://PATH`) opens or creates an SQLite file in WAL mode, which
    /// keeps every committed transaction across a crash of the process;
    /// `postgres://…` (or `postgresql://…`) connects to a PostgreSQL server.
    ///
    /// # Errors
    ///
    /// [`StoreError::UnsupportedUrl`] for another scheme, [`StoreError::Open`] when the
    /// database cannot be opened, [`StoreError::Migrate`] when the migrations fail.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = backend_of(url)?;
        let url_for_driver = match backend {
            Backend::Sqlite if !url.contains('?') => format!("{url}?mode=rwc"),
            _ => url.to_owned(),
        };
        let open_err = |source| StoreError::Open {
            url: redact(url),
            source,
        };
        let options = AnyConnectOptions::from_str(&url_for_driver).map_err(open_err)?;
        let pool_options = |max| {
            AnyPoolOptions::new()
                .max_connections(max)
                .acquire_timeout(Duration::from_secs(30))
                // No ping before each use: a query on a connection that broke fails and the
                // pool drops that connection; a ping would cost a round trip per transaction.
                .test_before_acquire(false)
                .after_connect(move |conn, _meta| {
                    Box::pin(async move {
                        if backend == Backend::Sqlite {
                            conn.execute(SQLITE_PRAGMAS).await?;
                        }
                        Ok(())
                    })
                })
        };
        let (pool, writes) = match backend {
            Backend::Sqlite => {
                let pool = pool_options(4)
                    .connect_with(options.clone())
                    .await
                    .map_err(open_err)?;
                let writes = pool_options(1)
                    .connect_with(options.clone())
                    .await
                    .map_err(open_err)?;
                (pool, writes)
            }
            Backend::Postgres => {
                let pool = pool_options(16)
                    .connect_with(options.clone())
                    .await
                    .map_err(open_err)?;
                (pool.clone(), pool)
            }
        };
        MIGRATOR.run(&writes).await?;
        Ok(Store {
            pool,
            writes,
            held: Arc::new(tokio::sync::Mutex::new(None)),
            options,
            backend,
        })
    }

    /// With SQLite, the held connection that appends moves, made on first use and again after
    /// it was dropped; locked while the caller uses it. The caller drops a connection it cannot
    /// trust any more by setting the guard to `None`.
    pub(crate) async fn held(
        &self,
    ) -> Result<tokio::sync::MutexGuard<'_, Option<AnyConnection>>, StoreError> {
        let mut held = self.held.lock().await;
        if held.is_none() {
            let mut conn = self.options.connect().await?;
            if self.backend == Backend::Sqlite {
                conn.execute(SQLITE_PRAGMAS).await?;
            }
            *held = Some(conn);
        }
        Ok(held)
    }

    /// The connection pool, for queries.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// The pool for writes: with SQLite one connection, so that writes follow one another at
    /// once and that connection's page cache stays valid; with PostgreSQL [`Store::pool`].
    pub fn writes(&self) -> &AnyPool {
        &self.writes
    }

    /// The kind of database.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Closes every connection (waits for those in use).
    pub async fn close(&self) {
        self.pool.close().await;
        self.writes.close().await;
        if let Some(conn) = self.held.lock().await.take() {
            // Closing tells the database goodbye; a connection that cannot is dropped anyway.
            let _ = sqlx::Connection::close(conn).await;
        }
    }
}

/// The backend a URL names.
///
/// # Errors
///
/// [`StoreError::UnsupportedUrl`] for anything but `sqlite:` and `postgres(ql)://`.
pub fn backend_of(url: &str) -> Result<Backend, StoreError> {
    if url.starts_with("sqlite:") {
        Ok(Backend::Sqlite)
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Backend::Postgres)
    } else {
        Err(StoreError::UnsupportedUrl { url: redact(url) })
    }
}

/// `url` with any password replaced by `***`, for messages.
pub fn redact(url: &str) -> String {
    let Some(scheme_end) = url.find("://") else {
        return url.to_owned();
    };
    let rest = &url[scheme_end + 3..];
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    match (authority.rfind('@'), authority.find(':')) {
        (Some(at), Some(colon)) if colon < at => format!(
            "{}{}:***{}",
            &url[..scheme_end + 3],
            &authority[..colon],
            &rest[at..]
        ),
        _ => url.to_owned(),
    }
}

/// A new random id for a row: positive and below 2⁵³, so that it survives JSON in JavaScript.
pub fn new_id() -> i64 {
    let mut bytes = [0u8; 8];
    // getrandom fails only where the OS has no entropy source at all; fall back to the clock
    // mixed with a counter rather than fail an insert.
    if getrandom::fill(&mut bytes).is_err() {
        bytes = fallback_seed().to_le_bytes();
    }
    let id = (u64::from_le_bytes(bytes) >> 11) as i64; // 53 bits
    id.max(1)
}

fn fallback_seed() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut x = now_ms() as u64 ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    // SplitMix64's finaliser, so that consecutive counters give unrelated ids.
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Milliseconds since the Unix epoch, the store's unit of time.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redact_hides_the_password_only() {
        assert_eq!(
            redact("postgres://u:secret@h:5432/db"),
            "postgres://u:***@h:5432/db"
        );
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact("sqlite:/tmp/x.db"), "sqlite:/tmp/x.db");
    }

    #[test]
    fn ids_are_positive_and_js_safe() {
        for _ in 0..1000 {
            let id = new_id();
            assert!(id > 0 && id < (1i64 << 53));
        }
    }

    #[test]
    fn unknown_schemes_are_refused() {
        assert!(matches!(
            backend_of("mysql://x"),
            Err(StoreError::UnsupportedUrl { .. })
        ));
    }
}
