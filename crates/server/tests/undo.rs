//! Taking back a move by agreement (an undo the opponent may grant): only one's own last move,
//! granted or declined by the opponent only, the game rebuilt without it, on both databases.
//! Games of an event have none (tested with the events, `crates/cli/tests/serve_event.rs`).
#![allow(clippy::unwrap_used)] // Tests: a failed unwrap is a failed test.

use std::time::Duration;

use ingo_server::client::Client;
use ingo_server::{AppState, Config};
use ingo_store::testing::TestDb;
use serde_json::{json, Value};

async fn post(c: &mut Client, path: &str) -> (u16, Value) {
    let r = c.post(path, json!({})).await.unwrap();
    (r.status, r.body)
}

async fn undo(db: TestDb) {
    let config = Config {
        database_url: db.url.clone(),
        ..Config::default()
    };
    let state = AppState::new(db.store.clone(), config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(ingo_server::serve(listener, state));
    let mut ann = Client::new(addr);
    assert_eq!(
        ann.register("ann", "correct horse", "1d")
            .await
            .unwrap()
            .status,
        201
    );
    let mut bo = Client::new(addr);
    assert_eq!(
        bo.register("bo", "correct horse", "1d")
            .await
            .unwrap()
            .status,
        201
    );
    let r = ann
        .post(
            "/api/challenges",
            json!({"size": 9, "time_control": "fischer:10m+10s", "handicap": "black"}),
        )
        .await
        .unwrap();
    let cid = r.body["id"].as_i64().unwrap();
    let r = bo
        .post(&format!("/api/challenges/{cid}/accept"), json!({}))
        .await
        .unwrap();
    let gid = r.body["game_id"].as_i64().unwrap();
    let me = ann.get("/api/me").await.unwrap().body["id"]
        .as_i64()
        .unwrap();
    let (mut b, mut w) = if r.body["black"].as_i64() == Some(me) {
        (ann, bo)
    } else {
        (bo, ann)
    };
    let path = |rest: &str| format!("/api/games/{gid}{rest}");
    let r = b
        .post(&path("/moves"), json!({"move": "E5"}))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{:?}", r.body);
    // White cannot ask to take back Black's move; nobody answers a request not made.
    let (status, body) = post(&mut w, &path("/undo")).await;
    assert_eq!(
        (status, body["reason"].as_str()),
        (409, Some("not-your-move"))
    );
    let (status, _) = post(&mut w, &path("/undo/accept")).await;
    assert_eq!(status, 409);
    // Black asks; Black cannot grant it; White declines.
    let (status, body) = post(&mut b, &path("/undo")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["undo_request"], json!({"by": "B", "number": 1}));
    assert_eq!(body["undo_allowed"], true);
    let (status, body) = post(&mut b, &path("/undo/accept")).await;
    assert_eq!(
        (status, body["reason"].as_str()),
        (403, Some("not-the-opponent"))
    );
    let (status, body) = post(&mut w, &path("/undo/decline")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["undo_request"], Value::Null);
    assert_eq!(body["move_count"], 1);
    // Asked again and granted: the move is gone, stored and shown; Black plays another.
    post(&mut b, &path("/undo")).await;
    let (status, body) = post(&mut w, &path("/undo/accept")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["move_count"], 0, "{body}");
    assert_eq!(body["to_move"], "B");
    assert!(body["board"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| !r.as_str().unwrap().contains('X')));
    let r = b
        .post(&path("/moves"), json!({"move": "D4"}))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(r.body["number"], 1);
    // A second server, nothing in memory, reads what is stored: one move, D4.
    let store = ingo_store::Store::open(&db.url).await.unwrap();
    let moves = ingo_store::server::moves_of(&store, gid).await.unwrap();
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].mv, "D4");
    // A request stands only while its move is the last: White's answer makes it lapse.
    post(&mut b, &path("/undo")).await;
    let r = w
        .post(&path("/moves"), json!({"move": "C3"}))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{:?}", r.body);
    let (status, _) = post(&mut w, &path("/undo/accept")).await;
    assert_eq!(status, 409, "a lapsed request");
}

fn bounded(f: impl std::future::Future<Output = ()>) {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            tokio::time::timeout(Duration::from_secs(60), f)
                .await
                .expect("within the time bound");
        });
}

#[test]
fn a_move_is_taken_back_when_the_opponent_grants_it_on_sqlite() {
    bounded(async { undo(TestDb::sqlite().await.unwrap()).await });
}

#[test]
fn a_move_is_taken_back_when_the_opponent_grants_it_on_postgres() {
    bounded(async {
        undo(
            TestDb::postgres()
                .await
                .expect("a PostgreSQL server (scripts/test starts one)"),
        )
        .await
    });
}
