//! The play server's queries (`ingo_store::server`), each run on SQLite and on PostgreSQL.
#![allow(clippy::unwrap_used)] // Tests: a failed unwrap is a failed test.

use ingo_store::server::{self, Appended, ChallengeRow, GameState, UserRow};
use ingo_store::testing::{game_row, move_row as mv, TestDb};

fn user(name: &str) -> UserRow {
    ingo_store::testing::user_row(name, "5d")
}
use ingo_store::{new_id, Store};

async fn every_query(store: &Store) {
    // Accounts: a name is taken once.
    let alice = user("alice");
    let bob = user("bob");
    assert!(server::create_user(store, &alice).await.unwrap());
    assert!(server::create_user(store, &bob).await.unwrap());
    assert!(!server::create_user(store, &user("alice")).await.unwrap());
    assert_eq!(
        server::user_by_name(store, "alice").await.unwrap(),
        Some(alice.clone())
    );
    assert_eq!(
        server::user_by_id(store, bob.id).await.unwrap(),
        Some(bob.clone())
    );
    assert_eq!(server::user_by_name(store, "carol").await.unwrap(), None);
    // A rank can be changed (an engine account whose configured rank changed), and back.
    server::set_user_rank(store, bob.id, "3p").await.unwrap();
    let changed = server::user_by_id(store, bob.id).await.unwrap().unwrap();
    assert_eq!(changed.rank, "3p");
    server::set_user_rank(store, bob.id, &bob.rank)
        .await
        .unwrap();

    // Sessions expire and can be ended.
    server::create_session(store, "h1", alice.id, "csrf1", 10, 1000)
        .await
        .unwrap();
    let (u, csrf) = server::session(store, "h1", 500).await.unwrap().unwrap();
    assert_eq!((u.id, csrf.as_str()), (alice.id, "csrf1"));
    assert_eq!(server::session(store, "h1", 1000).await.unwrap(), None);
    server::delete_session(store, "h1").await.unwrap();
    assert_eq!(server::session(store, "h1", 500).await.unwrap(), None);

    // Challenges: accepted once, with its game, in one transaction.
    let c = ChallengeRow {
        id: new_id(),
        challenger: alice.id,
        opponent: None,
        size: 9,
        preset: "ing".into(),
        handicap: "nigiri".into(),
        time_control: "ing-pp:10m".into(),
        status: "open".into(),
        game_id: None,
        created_ms: 5,
    };
    server::create_challenge(store, &c).await.unwrap();
    assert_eq!(
        server::open_challenges(store, 10).await.unwrap(),
        vec![c.clone()]
    );
    let g = game_row(alice.id, bob.id);
    assert!(server::accept_challenge(store, c.id, &g).await.unwrap());
    let g2 = game_row(alice.id, bob.id);
    assert!(!server::accept_challenge(store, c.id, &g2).await.unwrap());
    assert_eq!(server::game_by_id(store, g2.id).await.unwrap(), None);
    let stored = server::challenge_by_id(store, c.id).await.unwrap().unwrap();
    assert_eq!(
        (stored.status.as_str(), stored.game_id),
        ("accepted", Some(g.id))
    );
    assert!(server::open_challenges(store, 10).await.unwrap().is_empty());
    assert!(!server::close_challenge(store, c.id, "cancelled")
        .await
        .unwrap());
    let c2 = ChallengeRow {
        id: new_id(),
        opponent: Some(bob.id),
        ..c.clone()
    };
    server::create_challenge(store, &c2).await.unwrap();
    assert!(server::close_challenge(store, c2.id, "declined")
        .await
        .unwrap());

    // Games and moves: a move number is stored once.
    assert_eq!(
        server::game_by_id(store, g.id).await.unwrap(),
        Some(g.clone())
    );
    assert_eq!(
        server::live_games(store, 10).await.unwrap(),
        vec![g.clone()]
    );
    let state = g.state.clone();
    assert_eq!(
        server::append_moves(
            store,
            g.id,
            0,
            &[mv(1, "B", "E5"), mv(2, "W", "pass")],
            &state
        )
        .await
        .unwrap(),
        Appended::Committed
    );
    assert_eq!(
        server::append_moves(store, g.id, 1, &[mv(2, "W", "D4")], &state)
            .await
            .unwrap(),
        Appended::Conflict
    );
    let moves = server::moves_of(store, g.id).await.unwrap();
    assert_eq!(moves, vec![mv(1, "B", "E5"), mv(2, "W", "pass")]);
    let ended = GameState {
        status: "ended".into(),
        accepted_black: true,
        result: Some("W+R".into()),
        end_reason: Some("resignation".into()),
        ended_ms: Some(200),
        penalty_white: 2,
        ..state
    };
    server::append_moves(store, g.id, 1, &[], &ended)
        .await
        .unwrap();
    assert_eq!(
        server::game_by_id(store, g.id)
            .await
            .unwrap()
            .unwrap()
            .state,
        ended
    );
    assert!(server::live_games(store, 10).await.unwrap().is_empty());
    assert_eq!(
        server::finished_games_of(store, bob.id, 10)
            .await
            .unwrap()
            .len(),
        1
    );
    assert!(server::finished_games_of(store, new_id(), 10)
        .await
        .unwrap()
        .is_empty());
}

#[tokio::test]
async fn server_queries_on_sqlite() {
    let db = TestDb::sqlite().await.unwrap();
    every_query(&db.store).await;
}

#[tokio::test]
async fn server_queries_on_postgres() {
    let db = TestDb::postgres()
        .await
        .expect("a PostgreSQL server (scripts/test starts one)");
    every_query(&db.store).await;
}
