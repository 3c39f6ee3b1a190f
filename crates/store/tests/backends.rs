//! The store opens and migrates on both databases, and the same query runs on each; reopening a
//! migrated database runs no migration again.

use ingo_store::testing::TestDb;
use ingo_store::{Backend, Store, MIGRATOR};

async fn schema_of(store: &Store) -> String {
    let row: (String,) = sqlx::query_as("SELECT value FROM store_meta WHERE key = $1")
        .bind("schema")
        .fetch_one(store.pool())
        .await
        .expect("query");
    row.0
}

/// One row of sqlx's bookkeeping table: version, description, when it was installed, success
/// (0 or 1), checksum (hex, lower case) and how long it ran (ns). A migration run again would
/// fail (its tables exist) or rewrite its row (a new `installed_on` and `execution_time`).
type Applied = (i64, String, String, i64, String, i64);

async fn applied(store: &Store) -> Vec<Applied> {
    let checksum = match store.backend() {
        Backend::Sqlite => "lower(hex(checksum))",
        Backend::Postgres => "encode(checksum, 'hex')",
    };
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT version, description, CAST(installed_on AS TEXT), CAST(success AS INTEGER), \
         {checksum}, execution_time FROM _sqlx_migrations ORDER BY version"
    )))
    .fetch_all(store.pool())
    .await
    .expect("read _sqlx_migrations")
}

/// Every embedded migration is applied once, successfully, with its own checksum; reopening the
/// database leaves that bookkeeping, and the data written before, exactly as they were.
async fn reopening_runs_no_migration_twice(db: &TestDb) {
    let before = applied(&db.store).await;
    let expected: Vec<(i64, String)> = MIGRATOR
        .iter()
        .map(|m| {
            let hex: String = m.checksum.iter().map(|b| format!("{b:02x}")).collect();
            (m.version, hex)
        })
        .collect();
    let got: Vec<(i64, String)> = before.iter().map(|a| (a.0, a.4.clone())).collect();
    assert_eq!(got, expected, "applied migrations (version, checksum)");
    assert!(
        before.iter().all(|a| a.3 == 1),
        "a migration failed: {before:?}"
    );

    // Data written before the reopen, which a migration run again would lose or collide with.
    sqlx::query("INSERT INTO store_meta (key, value) VALUES ($1, $2)")
        .bind("reopen-marker")
        .bind("kept")
        .execute(db.store.pool())
        .await
        .expect("insert");
    let again = Store::open(&db.url).await.expect("reopen");
    assert_eq!(again.backend(), db.store.backend());
    assert_eq!(applied(&again).await, before, "migrations after reopening");
    let marker: Vec<(String, String)> =
        sqlx::query_as("SELECT key, value FROM store_meta ORDER BY key")
            .fetch_all(again.pool())
            .await
            .expect("query");
    assert_eq!(
        marker,
        [
            ("reopen-marker".to_owned(), "kept".to_owned()),
            ("schema".to_owned(), "ingo".to_owned())
        ]
    );
}

#[tokio::test]
async fn sqlite_file_is_created_and_migrated() {
    let db = TestDb::sqlite().await.expect("sqlite");
    assert_eq!(db.store.backend(), Backend::Sqlite);
    assert_eq!(schema_of(&db.store).await, "ingo");
    reopening_runs_no_migration_twice(&db).await;
}

#[tokio::test]
async fn postgres_database_is_created_and_migrated() {
    let db = TestDb::postgres()
        .await
        .expect("a PostgreSQL server (scripts/test starts one)");
    assert_eq!(db.store.backend(), Backend::Postgres);
    assert_eq!(schema_of(&db.store).await, "ingo");
    reopening_runs_no_migration_twice(&db).await;
}
