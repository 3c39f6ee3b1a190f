//! The chat of a game (migrations `0201_pair.sql` and `0204_chat_order.sql`).

use sqlx::Row;

use crate::{Store, StoreError};

use super::writer;

/// One chat message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRow {
    /// Its id.
    pub id: i64,
    /// The game.
    pub game_id: i64,
    /// `players`, `spectators`, `black` or `white`.
    pub channel: String,
    /// Who wrote it.
    pub user_id: i64,
    /// The writer's name (filled in when read; ignored when stored).
    pub name: String,
    /// The text.
    pub text: String,
    /// When it was stored, in ms since the epoch.
    pub at_ms: i64,
    /// Its place in its game's chat (migration `0204_chat_order.sql`): 1, 2, … in the order the
    /// messages were stored (filled in when read; given by the store when stored).
    pub seq: i64,
}

/// Stores a chat message (`m.name` is not stored: it is the user's), after the game's others
/// (`m.seq` is not stored: the message gets the game's next). Two messages stored at the same
/// time may get the same number; a message stored after another was stored gets a higher one.
///
/// # Errors
/// On a database failure.
pub async fn add_chat(store: &Store, m: &ChatRow) -> Result<(), StoreError> {
    let _writing = writer(store).await;
    sqlx::query(
        "INSERT INTO server_chat (id, game_id, channel, user_id, text, at_ms, seq) \
         VALUES ($1, $2, $3, $4, $5, $6, \
         (SELECT COALESCE(MAX(seq), 0) + 1 FROM server_chat WHERE game_id = $2))",
    )
    .bind(m.id)
    .bind(m.game_id)
    .bind(&m.channel)
    .bind(m.user_id)
    .bind(&m.text)
    .bind(m.at_ms)
    .execute(store.writes())
    .await?;
    Ok(())
}

/// The last `limit` messages of one channel of a game, in the order they were stored (`seq`),
/// with their writers' names.
/// The caller asks only for the channels its reader may read.
///
/// # Errors
/// On a database failure.
pub async fn chat_of(
    store: &Store,
    game_id: i64,
    channel: &str,
    limit: i64,
) -> Result<Vec<ChatRow>, StoreError> {
    let rows = sqlx::query(
        "SELECT m.id, m.game_id, m.channel, m.user_id, u.name, m.text, m.at_ms, m.seq \
         FROM server_chat m JOIN server_users u ON u.id = m.user_id \
         WHERE m.game_id = $1 AND m.channel = $2 \
         ORDER BY m.seq DESC, m.id DESC LIMIT $3",
    )
    .bind(game_id)
    .bind(channel)
    .bind(limit)
    .fetch_all(store.pool())
    .await?;
    let mut out = rows
        .iter()
        .map(|r| {
            Ok(ChatRow {
                id: r.try_get("id")?,
                game_id: r.try_get("game_id")?,
                channel: r.try_get("channel")?,
                user_id: r.try_get("user_id")?,
                name: r.try_get("name")?,
                text: r.try_get("text")?,
                at_ms: r.try_get("at_ms")?,
                seq: r.try_get("seq")?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    out.reverse();
    Ok(out)
}
