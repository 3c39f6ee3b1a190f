//! Many spectators of one game, on one server or split over two on one PostgreSQL database:
//! every one receives every move, once and in order. (The load at the scale of a final, and
//! its times, are `ingo-load --spectators`; no time is asserted here.)

use std::net::SocketAddr;

use ingo_store::testing::TestDb;
use serde_json::json;

use crate::*;

const SPECTATORS: usize = 200;
const MOVES: usize = 10;

/// Spectators on `addrs` in turn watch a game of `app` for [`MOVES`] moves.
async fn every_spectator_receives_every_move(app: App, addrs: Vec<SocketAddr>) {
    let mut a = user(&app, "alice", "2k").await;
    let mut b = user(&app, "bob", "2k").await;
    let (mut black, mut white, gid) = game_between(&app, &mut a, &mut b, json!({"size": 19})).await;
    let mut watching = Vec::new();
    for k in 0..SPECTATORS {
        let mut ws = Client::new(addrs[k % addrs.len()])
            .websocket(gid)
            .await
            .unwrap();
        until(&mut ws, |v| v["type"] == "state").await;
        watching.push(ws);
    }
    let moves = ingo_server::client::quiet_moves(MOVES);
    for (i, mv) in moves.iter().enumerate() {
        let c = if i % 2 == 0 { &mut black } else { &mut white };
        play_ok(c, gid, mv).await;
    }
    let seen = futures_util::future::join_all(watching.into_iter().map(|mut ws| async move {
        let mut numbers = Vec::new();
        while numbers.len() < MOVES {
            let v = until(&mut ws, |v| v["type"] == "move").await;
            numbers.push(v["number"].as_u64().unwrap() as usize);
        }
        numbers
    }))
    .await;
    let all: Vec<usize> = (1..=MOVES).collect();
    for (k, numbers) in seen.iter().enumerate() {
        assert_eq!(numbers, &all, "spectator {k} on {}", addrs[k % addrs.len()]);
    }
}

async fn on_one_server(app: App) {
    let addr = app.addr;
    every_spectator_receives_every_move(app, vec![addr]).await;
}

on_both_databases!(
    on_one_server:
        two_hundred_spectators_on_one_server_receive_every_move_on_sqlite,
        two_hundred_spectators_on_one_server_receive_every_move_on_postgres
);

#[tokio::test]
async fn two_hundred_spectators_over_two_servers_receive_every_move_on_postgres() {
    bounded(async {
        let app = spawn_on(TestDb::postgres().await.expect("a PostgreSQL server")).await;
        let other = spawn_on_store(&app).await;
        let addr = app.addr;
        every_spectator_receives_every_move(app, vec![addr, other]).await;
    })
    .await;
}
