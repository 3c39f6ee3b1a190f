//! The play server end to end: the real app on 127.0.0.1:0 over a fresh database (an SQLite
//! file, or a new database on the real PostgreSQL server), driven over HTTP and WebSocket as a
//! browser or a bot would.
#![allow(clippy::unwrap_used)] // Tests: a failed unwrap is a failed test.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use ingo_server::client::{Client, WsStream};
use ingo_server::wall::WallClock;
use ingo_server::{AppState, Config};
use ingo_store::testing::TestDb;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// The two tests of one scenario: `scenario(app)` on a fresh SQLite file (`on_sqlite`) and on a
/// fresh PostgreSQL database (`on_postgres`), each with the time bound of [`bounded`].
macro_rules! on_both_databases {
    ($scenario:ident: $on_sqlite:ident, $on_postgres:ident) => {
        #[tokio::test]
        async fn $on_sqlite() {
            bounded(async { $scenario(sqlite().await).await }).await;
        }

        #[tokio::test]
        async fn $on_postgres() {
            bounded(async { $scenario(postgres().await).await }).await;
        }
    };
}

mod absence;
mod chat;
mod consult;
mod damaged;
mod games;
mod limits;
mod logins;
mod pair;
mod security;
mod sessions;
mod spectators;
mod stale;
mod websocket;

/// A running server over a fresh database.
pub struct App {
    pub addr: SocketAddr,
    pub state: AppState,
    pub db: TestDb,
}

pub async fn spawn_on(db: TestDb) -> App {
    spawn_with_clock(db, WallClock::System).await
}

/// A running server over a fresh database that reads the time from `clock`.
pub async fn spawn_with_clock(db: TestDb, clock: WallClock) -> App {
    spawn_configured(db, clock, |_| {}).await
}

/// A running server over a fresh database, with the settings `set` changes from the defaults.
pub async fn spawn_configured(db: TestDb, clock: WallClock, set: impl FnOnce(&mut Config)) -> App {
    let mut config = Config {
        database_url: db.url.clone(),
        ..Config::default()
    };
    set(&mut config);
    let state = AppState::with_clock(db.store.clone(), config, clock);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(ingo_server::serve(listener, state.clone()));
    App { addr, state, db }
}

/// Another server over the same database, with nothing in memory (as after a restart).
pub async fn spawn_on_store(app: &App) -> SocketAddr {
    let config = Config {
        database_url: app.db.url.clone(),
        ..Config::default()
    };
    let store = ingo_store::Store::open(&app.db.url).await.unwrap();
    let state = AppState::new(store, config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(ingo_server::serve(listener, state));
    addr
}

pub async fn sqlite() -> App {
    spawn_on(TestDb::sqlite().await.unwrap()).await
}

pub async fn postgres() -> App {
    spawn_on(
        TestDb::postgres()
            .await
            .expect("a PostgreSQL server (scripts/test starts one)"),
    )
    .await
}

/// Runs a test body with a time bound.
pub async fn bounded<F: std::future::Future<Output = ()>>(f: F) {
    tokio::time::timeout(Duration::from_secs(90), f)
        .await
        .expect("the test finished within its time bound");
}

pub async fn user(app: &App, name: &str, rank: &str) -> Client {
    let mut c = Client::new(app.addr);
    let r = c.register(name, "correct horse", rank).await.unwrap();
    assert_eq!(r.status, 201, "{:?}", r.body);
    c
}

/// Two players in a new game: (black, white, game id).
pub async fn game_between(
    app: &App,
    a: &mut Client,
    b: &mut Client,
    body: Value,
) -> (Client, Client, i64) {
    let r = a.post("/api/challenges", body).await.unwrap();
    assert_eq!(r.status, 201, "{:?}", r.body);
    let cid = r.body["id"].as_i64().unwrap();
    let r = b
        .post(&format!("/api/challenges/{cid}/accept"), json!({}))
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{:?}", r.body);
    let gid = r.body["game_id"].as_i64().unwrap();
    let a_id = id_of(a).await;
    let _ = app;
    if r.body["black"].as_i64() == Some(a_id) {
        (a.clone(), b.clone(), gid)
    } else {
        (b.clone(), a.clone(), gid)
    }
}

/// The account id of the user `c` is signed in as.
pub async fn id_of(c: &mut Client) -> i64 {
    c.get("/api/me").await.unwrap().body["id"].as_i64().unwrap()
}

pub async fn play(c: &mut Client, gid: i64, mv: &str) -> ingo_server::client::Reply {
    c.post(&format!("/api/games/{gid}/moves"), json!({"move": mv}))
        .await
        .unwrap()
}

pub async fn play_ok(c: &mut Client, gid: i64, mv: &str) {
    let r = play(c, gid, mv).await;
    assert_eq!(r.status, 200, "{mv}: {:?}", r.body);
}

pub async fn state(c: &mut Client, gid: i64) -> Value {
    let r = c.get(&format!("/api/games/{gid}")).await.unwrap();
    assert_eq!(r.status, 200, "{:?}", r.body);
    r.body
}

/// The next JSON message of a socket, within 10 s.
pub async fn next_json(ws: &mut WsStream) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message within 10 s")
            .expect("the socket is open")
            .expect("a frame");
        if let Message::Text(t) = msg {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

/// Messages until one matches.
pub async fn until(ws: &mut WsStream, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        let v = next_json(ws).await;
        if pred(&v) {
            return v;
        }
    }
}

pub async fn send(ws: &mut WsStream, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}
