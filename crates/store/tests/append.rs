//! `append_moves`, the move path's one write: one move (a single request to the database),
//! several, none; a move number stored twice is a conflict that writes nothing, not even the
//! state; a change judged on a stale version is a conflict that writes nothing; and the
//! connection serves the next move after a conflict. On SQLite and PostgreSQL.
#![allow(clippy::unwrap_used)] // Tests: a failed unwrap is a failed test.

use ingo_store::server::{self, Appended, GameRow, GameState, UserRow};
use ingo_store::testing::{game_row, move_row as mv, TestDb};
use ingo_store::{new_id, Store};

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
    let g = game_row(ids[0], ids[1]);
    server::create_game(store, &g).await.unwrap();
    g
}

/// `state` with Black's penalty points and, so that every column of the state is seen to be
/// written by each path, verdicts to check that differ with them.
fn with_penalty(state: &GameState, black: i64) -> GameState {
    GameState {
        penalty_black: black,
        dead_checks: format!("E5:{black}0% C3:R"),
        ..state.clone()
    }
}

async fn stored_state(store: &Store, id: i64) -> GameState {
    server::game_by_id(store, id).await.unwrap().unwrap().state
}

async fn appends(store: &Store) {
    let g = a_game(store).await;
    let s0 = g.state.clone();
    // One move: committed with its state.
    let s1 = with_penalty(&s0, 1);
    let r = server::append_moves(store, g.id, 0, &[mv(1, "B", "E5")], &s1).await;
    assert_eq!(r.unwrap(), Appended::Committed);
    assert_eq!(stored_state(store, g.id).await, s1);
    // The same number again: a conflict, and neither the move nor the state is written.
    let s2 = with_penalty(&s0, 2);
    let r = server::append_moves(store, g.id, 1, &[mv(1, "B", "D4")], &s2).await;
    assert_eq!(r.unwrap(), Appended::Conflict);
    assert_eq!(
        stored_state(store, g.id).await,
        s1,
        "a conflict writes no state"
    );
    // The next move goes through (the conflict left no transaction open).
    let r = server::append_moves(store, g.id, 1, &[mv(2, "W", "C3")], &s2).await;
    assert_eq!(r.unwrap(), Appended::Committed);
    assert_eq!(stored_state(store, g.id).await, s2);
    // Several moves at once, then one of them again among new ones: all or nothing.
    let s3 = with_penalty(&s0, 3);
    let two = [mv(3, "B", "pass"), mv(4, "W", "pass")];
    assert_eq!(
        server::append_moves(store, g.id, 2, &two, &s3)
            .await
            .unwrap(),
        Appended::Committed
    );
    let clash = [mv(5, "B", "A1"), mv(4, "W", "B2")];
    let s4 = with_penalty(&s0, 4);
    assert_eq!(
        server::append_moves(store, g.id, 3, &clash, &s4)
            .await
            .unwrap(),
        Appended::Conflict
    );
    // No move: the state alone.
    let ended = GameState {
        status: "ended".into(),
        result: Some("W+R".into()),
        end_reason: Some("resignation".into()),
        ended_ms: Some(900),
        ..s3.clone()
    };
    assert_eq!(
        server::append_moves(store, g.id, 3, &[], &ended)
            .await
            .unwrap(),
        Appended::Committed
    );
    assert_eq!(stored_state(store, g.id).await, ended);
    assert_eq!(
        server::moves_of(store, g.id).await.unwrap(),
        vec![
            mv(1, "B", "E5"),
            mv(2, "W", "C3"),
            mv(3, "B", "pass"),
            mv(4, "W", "pass")
        ]
    );
}

/// Many games' moves at once, each game's in order: every one is stored once.
async fn concurrent_games(store: &Store) {
    let mut games = Vec::new();
    for _ in 0..8 {
        games.push(a_game(store).await);
    }
    let tasks: Vec<_> = games
        .iter()
        .map(|g| {
            let (store, g) = (store.clone(), g.clone());
            tokio::spawn(async move {
                for n in 1..=20 {
                    let c = if n % 2 == 1 { "B" } else { "W" };
                    let one = [mv(n, c, "pass")];
                    let r = server::append_moves(&store, g.id, n - 1, &one, &g.state).await;
                    assert_eq!(r.unwrap(), Appended::Committed);
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    for g in &games {
        assert_eq!(server::moves_of(store, g.id).await.unwrap().len(), 20);
    }
}

async fn stored_version(store: &Store, id: i64) -> i64 {
    server::game_by_id(store, id)
        .await
        .unwrap()
        .unwrap()
        .version
}

/// A change judged on a copy that another commit has made stale writes nothing: not a move
/// (alone or with others), not a state alone (a resignation, a loss on time, a dead-stone
/// step); and of two changes judged on one version, one is committed.
async fn stale_versions(store: &Store) {
    let g = a_game(store).await;
    assert_eq!(stored_version(store, g.id).await, 0);
    let s1 = with_penalty(&g.state, 1);
    let r = server::append_moves(store, g.id, 0, &[mv(1, "B", "E5")], &s1).await;
    assert_eq!(r.unwrap(), Appended::Committed);
    assert_eq!(stored_version(store, g.id).await, 1);
    // Another server resigns for White on its copy of version 1: committed.
    let resigned = GameState {
        status: "ended".into(),
        result: Some("B+R".into()),
        end_reason: Some("resignation".into()),
        ..s1.clone()
    };
    let r = server::append_moves(store, g.id, 1, &[], &resigned).await;
    assert_eq!(r.unwrap(), Appended::Committed);
    // A stale copy (version 1) commits a loss on time, a move, two moves: all refused.
    let on_time = GameState {
        status: "ended".into(),
        result: Some("W+T".into()),
        end_reason: Some("time".into()),
        ..s1.clone()
    };
    let r = server::append_moves(store, g.id, 1, &[], &on_time).await;
    assert_eq!(r.unwrap(), Appended::Conflict, "a stale state alone");
    let r = server::append_moves(store, g.id, 1, &[mv(2, "W", "D4")], &s1).await;
    assert_eq!(r.unwrap(), Appended::Conflict, "a stale move");
    let two = [mv(2, "W", "D4"), mv(3, "B", "C3")];
    let r = server::append_moves(store, g.id, 1, &two, &s1).await;
    assert_eq!(r.unwrap(), Appended::Conflict, "stale moves");
    assert_eq!(stored_state(store, g.id).await, resigned);
    assert_eq!(stored_version(store, g.id).await, 2);
    assert_eq!(
        server::moves_of(store, g.id).await.unwrap(),
        vec![mv(1, "B", "E5")]
    );

    // Two servers judge a change on the same version at once: one is committed.
    let g = a_game(store).await;
    let tasks: Vec<_> = (0..8)
        .map(|i| {
            let (store, id) = (store.clone(), g.id);
            let state = with_penalty(&g.state, i);
            tokio::spawn(async move {
                if i % 2 == 0 {
                    server::append_moves(&store, id, 0, &[], &state).await
                } else {
                    server::append_moves(&store, id, 0, &[mv(1, "B", "pass")], &state).await
                }
            })
        })
        .collect();
    let mut committed = 0;
    for t in tasks {
        if t.await.unwrap().unwrap() == Appended::Committed {
            committed += 1;
        }
    }
    assert_eq!(committed, 1, "one change a version");
    assert_eq!(stored_version(store, g.id).await, 1);
}

#[tokio::test]
async fn a_change_judged_on_a_stale_version_writes_nothing_on_sqlite() {
    let db = TestDb::sqlite().await.unwrap();
    stale_versions(&db.store).await;
}

#[tokio::test]
async fn a_change_judged_on_a_stale_version_writes_nothing_on_postgres() {
    let db = TestDb::postgres()
        .await
        .expect("a PostgreSQL server (scripts/test starts one)");
    stale_versions(&db.store).await;
}

#[tokio::test]
async fn append_moves_on_sqlite() {
    let db = TestDb::sqlite().await.unwrap();
    appends(&db.store).await;
    concurrent_games(&db.store).await;
}

#[tokio::test]
async fn append_moves_on_postgres() {
    let db = TestDb::postgres()
        .await
        .expect("a PostgreSQL server (scripts/test starts one)");
    appends(&db.store).await;
    concurrent_games(&db.store).await;
}
