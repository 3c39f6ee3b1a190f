//! The programs that play as accounts (migration `0205_programs.sql`): what plays a seat is
//! stored with the account, not encoded in its name.

use sqlx::Row;

use crate::server::writer;
use crate::{Store, StoreError};

/// The program an account is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramRow {
    /// The account.
    pub user_id: i64,
    /// `builtin` or `engine`.
    pub kind: String,
    /// The built-in player's search budget per move.
    pub playouts: Option<i64>,
    /// The engine's configured name.
    pub engine: Option<String>,
}

/// Records the program account `p.user_id` is; nothing when it is recorded already.
///
/// # Errors
/// On a database failure.
pub async fn set_program(store: &Store, p: &ProgramRow) -> Result<(), StoreError> {
    let _writing = writer(store).await;
    sqlx::query(
        "INSERT INTO server_programs (user_id, kind, playouts, engine) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (user_id) DO NOTHING",
    )
    .bind(p.user_id)
    .bind(&p.kind)
    .bind(p.playouts)
    .bind(&p.engine)
    .execute(store.writes())
    .await?;
    Ok(())
}

/// The program account `user_id` is, if it is one.
///
/// # Errors
/// On a database failure.
pub async fn program_of(store: &Store, user_id: i64) -> Result<Option<ProgramRow>, StoreError> {
    let row = sqlx::query(
        "SELECT user_id, kind, playouts, engine FROM server_programs WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(store.pool())
    .await?;
    let Some(r) = row else {
        return Ok(None);
    };
    Ok(Some(ProgramRow {
        user_id: r.try_get("user_id")?,
        kind: r.try_get("kind")?,
        playouts: r.try_get("playouts")?,
        engine: r.try_get("engine")?,
    }))
}
