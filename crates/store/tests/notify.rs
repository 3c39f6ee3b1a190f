//! `append_moves_notify`: with PostgreSQL the notice is delivered when, and only when, the
//! change is committed; SQLite commits the same change and ignores the notice.
#![allow(clippy::unwrap_used)] // Tests: a failed unwrap is a failed test.

use std::time::Duration;

use ingo_store::server::{self, Appended, GameRow, GameState, MoveRow, Notice, UserRow};
use ingo_store::testing::TestDb;
use ingo_store::{new_id, Store};
use sqlx::postgres::PgListener;

async fn a_game(store: &Store) -> GameRow {
    let mut ids = Vec::new();
    for name in ["black", "white"] {
        let u = UserRow {
            id: new_id(),
            name: format!("{name}{}", new_id()),
            password_hash: "$argon2id$fake".into(),
            rank: "1d".into(),
            created_ms: 1,
        };
        assert!(server::create_user(store, &u).await.unwrap());
        ids.push(u.id);
    }
    let g = GameRow {
        id: new_id(),
        black: ids[0],
        white: ids[1],
        size: 9,
        preset: "ing".into(),
        komi_halves: 16,
        handicap_passes: 0,
        time_control: "ing-pp:10m".into(),
        state: GameState {
            status: "playing".into(),
            ..GameState::default()
        },
        started_ms: 100,
    };
    server::create_game(store, &g).await.unwrap();
    g
}

fn mv(n: i64, color: &str, v: &str) -> MoveRow {
    MoveRow {
        move_number: n,
        color: color.into(),
        mv: v.into(),
        at_ms: 100 + n,
    }
}

#[tokio::test]
async fn the_notice_comes_with_the_commit_and_not_with_a_conflict() {
    let db = TestDb::postgres()
        .await
        .expect("a PostgreSQL server (scripts/test starts one)");
    let g = a_game(&db.store).await;
    let channel = format!("ingo_test_{}", new_id());
    let mut listener = PgListener::connect(&db.url).await.unwrap();
    listener.listen(&channel).await.unwrap();
    let state = g.state.clone();
    let notice = |payload| Notice {
        channel: &channel,
        payload,
    };
    let r = server::append_moves_notify(
        &db.store,
        g.id,
        &[mv(1, "B", "E5")],
        &state,
        Some(notice("first")),
    )
    .await
    .unwrap();
    assert_eq!(r, Appended::Committed);
    let n = tokio::time::timeout(Duration::from_secs(5), listener.recv())
        .await
        .expect("the notice of a commit arrives")
        .unwrap();
    assert_eq!(n.payload(), "first");
    // The same move number again: nothing is written, nothing is announced.
    let r = server::append_moves_notify(
        &db.store,
        g.id,
        &[mv(1, "B", "D4")],
        &state,
        Some(notice("conflict")),
    )
    .await
    .unwrap();
    assert_eq!(r, Appended::Conflict);
    let r = server::append_moves_notify(
        &db.store,
        g.id,
        &[mv(2, "W", "C3")],
        &state,
        Some(notice("second")),
    )
    .await
    .unwrap();
    assert_eq!(r, Appended::Committed);
    let n = tokio::time::timeout(Duration::from_secs(5), listener.recv())
        .await
        .expect("the notice of the second commit arrives")
        .unwrap();
    assert_eq!(n.payload(), "second", "the conflict sent no notice");
    assert_eq!(
        server::moves_of(&db.store, g.id).await.unwrap(),
        vec![mv(1, "B", "E5"), mv(2, "W", "C3")]
    );
}

#[tokio::test]
async fn sqlite_commits_and_ignores_the_notice() {
    let db = TestDb::sqlite().await.unwrap();
    let g = a_game(&db.store).await;
    let notice = Notice {
        channel: "ingo_games",
        payload: "{}",
    };
    let r =
        server::append_moves_notify(&db.store, g.id, &[mv(1, "B", "E5")], &g.state, Some(notice))
            .await
            .unwrap();
    assert_eq!(r, Appended::Committed);
    assert_eq!(
        server::moves_of(&db.store, g.id).await.unwrap(),
        vec![mv(1, "B", "E5")]
    );
}
