//! The store opens and migrates on both databases, and the same query runs on each.

use ingo_store::testing::TestDb;
use ingo_store::Backend;

async fn schema_of(db: &TestDb) -> String {
    let row: (String,) = sqlx::query_as("SELECT value FROM store_meta WHERE key = $1")
        .bind("schema")
        .fetch_one(db.store.pool())
        .await
        .expect("query");
    row.0
}

#[tokio::test]
async fn sqlite_file_is_created_and_migrated() {
    let db = TestDb::sqlite().await.expect("sqlite");
    assert_eq!(db.store.backend(), Backend::Sqlite);
    assert_eq!(schema_of(&db).await, "ingo");
    // Reopening runs no migration twice.
    let again = ingo_store::Store::open(&db.url).await.expect("reopen");
    assert_eq!(again.backend(), Backend::Sqlite);
}

#[tokio::test]
async fn postgres_database_is_created_and_migrated() {
    let db = TestDb::postgres()
        .await
        .expect("a PostgreSQL server (scripts/test starts one)");
    assert_eq!(db.store.backend(), Backend::Postgres);
    assert_eq!(schema_of(&db).await, "ingo");
}
