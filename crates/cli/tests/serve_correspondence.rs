//! Correspondence games on the play server: three days a move (`fischer:3d+3d[max 3d]`), a
//! list of the player's games with the ones waiting for them first, and a game that goes on
//! across a restart of the server with the players away for days: nothing is lost, each
//! move's time is charged from the committed moves, and a player who lets three days pass
//! loses on time (逾時), declared by the server with nobody connected.
//!
//! The servers run in this process on a manual clock: days pass at a word, with no sleep.
#![allow(clippy::unwrap_used)] // Tests: a failed unwrap is a failed test.

use std::net::SocketAddr;
use std::time::Duration;

use ingo_server::client::Client;
use ingo_server::wall::ManualClock;
use ingo_server::{AppState, Config};
use ingo_store::testing::TestDb;
use serde_json::{json, Value};

const DAY: Duration = Duration::from_secs(86_400);

async fn spawn(url: &str, clock: &ManualClock) -> SocketAddr {
    let config = Config {
        database_url: url.to_owned(),
        ..Config::default()
    };
    // A new store each time: nothing in memory, as after a restart.
    let store = ingo_store::Store::open(url).await.unwrap();
    let state = AppState::with_clock(store, config, clock.clone().into());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(ingo_server::serve(listener, state));
    addr
}

async fn ok(c: &mut Client, path: &str, body: Value) -> Value {
    let r = c.post(path, body.clone()).await.unwrap();
    assert!(
        (200..300).contains(&r.status),
        "POST {path} {body}: {} {:?}",
        r.status,
        r.body
    );
    r.body
}

async fn get(c: &mut Client, path: &str) -> Value {
    let r = c.get(path).await.unwrap();
    assert_eq!(r.status, 200, "GET {path}: {:?}", r.body);
    r.body
}

async fn correspondence(db: TestDb) {
    let clock = ManualClock::starting_now();
    let addr = spawn(&db.url, &clock).await;
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
    let c = ok(
        &mut ann,
        "/api/challenges",
        json!({"size": 9, "time_control": "fischer:3d+3d[max 3d]", "handicap": "black"}),
    )
    .await;
    let cid = c["id"].as_i64().unwrap();
    let g = ok(&mut bo, &format!("/api/challenges/{cid}/accept"), json!({})).await;
    let gid = g["game_id"].as_i64().unwrap();
    let listed = get(&mut ann, "/api/games/mine").await;
    let (mut black, mut white) = if listed[0]["black"] == "ann" {
        (ann, bo)
    } else {
        (bo, ann)
    };
    // The list: the game waits for Black, not for White.
    let mine = get(&mut black, "/api/games/mine").await;
    assert_eq!(mine[0]["id"], gid, "{mine}");
    assert_eq!(mine[0]["your_turn"], true, "{mine}");
    assert_eq!(
        get(&mut white, "/api/games/mine").await[0]["your_turn"],
        false
    );
    // Black thinks two days, then moves.
    clock.advance(DAY * 2);
    ok(
        &mut black,
        &format!("/api/games/{gid}/moves"),
        json!({"move": "E5"}),
    )
    .await;
    // White is away; the server restarts meanwhile; two days pass.
    clock.advance(DAY * 2);
    let again = spawn(&db.url, &clock).await;
    black.addr = again;
    white.addr = again;
    let s = get(&mut white, &format!("/api/games/{gid}")).await;
    assert_eq!(s["moves"].as_array().unwrap().len(), 1, "{s}");
    assert_eq!(s["phase"], "playing", "{s}");
    assert_eq!(
        s["clocks"]["white"]["main_ms"],
        json!(DAY.as_millis() as u64),
        "a day left of White's three: {s}"
    );
    // Black's clock: the unused day came back, up to the cap of three.
    assert_eq!(
        s["clocks"]["black"]["main_ms"],
        json!((DAY * 3).as_millis() as u64),
        "{s}"
    );
    assert_eq!(
        get(&mut white, "/api/games/mine").await[0]["your_turn"],
        true
    );
    ok(
        &mut white,
        &format!("/api/games/{gid}/moves"),
        json!({"move": "C3"}),
    )
    .await;
    // Black lets three days and a moment pass: lost on time, found by the server's timer.
    let mut ws = white.websocket(gid).await.unwrap();
    clock.advance(DAY * 3 + Duration::from_millis(1));
    let ended = loop {
        use futures_util::StreamExt;
        let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("the loss on time is declared")
            .unwrap()
            .unwrap();
        if let ingo_server::client::Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == "state" && v["game"]["phase"] == "ended" {
                break v["game"].clone();
            }
        }
    };
    assert_eq!(ended["result"]["result"], "W+T", "{ended}");
    assert_eq!(get(&mut black, "/api/games/mine").await, json!([]));
}

fn bounded(f: impl std::future::Future<Output = ()>) {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            tokio::time::timeout(Duration::from_secs(90), f)
                .await
                .expect("within the time bound");
        });
}

#[test]
fn a_correspondence_game_goes_on_across_a_restart_on_sqlite() {
    bounded(async { correspondence(TestDb::sqlite().await.unwrap()).await });
}

#[test]
fn a_correspondence_game_goes_on_across_a_restart_on_postgres() {
    bounded(async {
        correspondence(
            TestDb::postgres()
                .await
                .expect("a PostgreSQL server (scripts/test starts one)"),
        )
        .await
    });
}
