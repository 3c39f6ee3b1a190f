//! Per-user limits that last (open challenges, running games against programs) are counted in
//! the database, in the transaction that stores what they limit, under a lock of the account's
//! row: so several servers on one PostgreSQL database never let one user past a limit. Here
//! the test's own transaction plays the other server: it holds the account's row, adds one
//! more of what is limited, and commits only once the server's request waits for it.

use ingo_store::testing::TestDb;
use serde_json::{json, Value};
use sqlx::Row;

use crate::*;

/// Sends `body` to `path` while `tx` (holding the account's row) is open; answers the reply,
/// given only once the request was seen waiting for a lock and `tx` committed.
async fn request_behind(
    app: &App,
    tx: sqlx::Transaction<'static, sqlx::Any>,
    mut c: Client,
    path: &'static str,
    body: Value,
) -> ingo_server::client::Reply {
    let req = tokio::spawn(async move { c.post(path, body).await.unwrap() });
    loop {
        if req.is_finished() {
            panic!(
                "answered while another writer held the account's row: {:?}",
                req.await.unwrap().body
            );
        }
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM pg_stat_activity \
             WHERE datname = current_database() AND wait_event_type = 'Lock'",
        )
        .fetch_one(app.db.store.pool())
        .await
        .unwrap();
        if row.try_get::<i64, _>("n").unwrap() > 0 {
            break;
        }
        tokio::task::yield_now().await;
    }
    tx.commit().await.unwrap();
    req.await.unwrap()
}

#[tokio::test]
async fn open_challenges_are_counted_in_the_database_under_the_accounts_lock() {
    bounded(async {
        let app = spawn_configured(
            TestDb::postgres().await.expect("a PostgreSQL server"),
            ingo_server::wall::WallClock::System,
            |c| c.max_open_challenges_per_user = 1,
        )
        .await;
        let mut a = user(&app, "alice", "2k").await;
        let alice = id_of(&mut a).await;
        // Another server stores alice's first challenge, holding her row meanwhile.
        let mut tx = app.db.store.pool().begin().await.unwrap();
        sqlx::query("SELECT id FROM server_users WHERE id = $1 FOR UPDATE")
            .bind(alice)
            .execute(&mut *tx)
            .await
            .unwrap();
        sqlx::query(
            "INSERT INTO server_challenges (id, challenger, opponent, size, preset, handicap, \
             time_control, status, game_id, created_ms) \
             VALUES ($1, $2, NULL, 9, 'ing', 'nigiri', 'ing-pp:1h', 'open', NULL, 0)",
        )
        .bind(ingo_store::new_id())
        .bind(alice)
        .execute(&mut *tx)
        .await
        .unwrap();
        let r = request_behind(&app, tx, a.clone(), "/api/challenges", json!({"size": 9})).await;
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (409, Some("too-many-challenges")),
            "{:?}",
            r.body
        );
    })
    .await;
}

#[tokio::test]
async fn games_against_programs_are_counted_in_the_database_under_the_accounts_lock() {
    bounded(async {
        let app = spawn_configured(
            TestDb::postgres().await.expect("a PostgreSQL server"),
            ingo_server::wall::WallClock::System,
            |c| c.max_bot_games_per_user = 2,
        )
        .await;
        let mut a = user(&app, "alice", "2k").await;
        let alice = id_of(&mut a).await;
        let bot = json!({"size": 9, "playouts": 10, "color": "black"});
        let r = a.post("/api/games/bot", bot.clone()).await.unwrap();
        assert_eq!(r.status, 201, "{:?}", r.body);
        let first = r.body["game_id"].as_i64().unwrap();
        // Another server starts alice's second game against the built-in player.
        let mut tx = app.db.store.pool().begin().await.unwrap();
        sqlx::query("SELECT id FROM server_users WHERE id = $1 FOR UPDATE")
            .bind(alice)
            .execute(&mut *tx)
            .await
            .unwrap();
        sqlx::query(
            "INSERT INTO server_games (id, black, white, size, preset, komi_halves, \
             handicap_passes, time_control, status, dead_proposal, accepted_black, \
             accepted_white, result, end_reason, dead, penalty_black, penalty_white, started_ms, \
             ended_ms, version) \
             SELECT $1, black, white, size, preset, komi_halves, handicap_passes, time_control, \
             status, dead_proposal, accepted_black, accepted_white, result, end_reason, dead, \
             penalty_black, penalty_white, started_ms, ended_ms, version \
             FROM server_games WHERE id = $2",
        )
        .bind(ingo_store::new_id())
        .bind(first)
        .execute(&mut *tx)
        .await
        .unwrap();
        let r = request_behind(&app, tx, a.clone(), "/api/games/bot", bot).await;
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (409, Some("too-many-bot-games")),
            "{:?}",
            r.body
        );
        assert!(
            r.body["message"]
                .as_str()
                .unwrap()
                .contains("play 2 game(s)"),
            "{:?}",
            r.body
        );
    })
    .await;
}
