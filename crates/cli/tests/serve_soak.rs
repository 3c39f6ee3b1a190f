//! A soak of `ingo serve`, bounded (loopback only, a fixed number of games, moves and faults):
//! six 19×19 games played at once, each by its two players as fast as the server answers, with
//! WebSocket spectators that connect and drop at random; the server is killed with SIGKILL in
//! the middle of play three times and started again. After every restart each acknowledged
//! move is stored, in order (and at most the one move in flight besides), each acknowledged
//! resignation stands, and the games go on to their end. On SQLite (one server), and on
//! PostgreSQL with two servers, one of them killed each time, plus a round in which every
//! connection of the database is terminated under the servers, as a PostgreSQL restart does:
//! they connect again and lose nothing acknowledged.
#![allow(clippy::unwrap_used)] // Tests: a failed unwrap is a failed test.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod serve_util;

use ingo_server::client::{quiet_moves, Client};
use serde_json::json;
use serve_util::{ingo_serve, runtime, spawn, Server};

const GAMES: usize = 6;
/// Moves a round plays in all (acknowledged) before its fault.
const MOVES_A_ROUND: usize = 90;
/// The moves of each game's list; it resigns before the list ends.
const LIST: usize = 150;

fn start(db: &str, dir: &std::path::Path) -> Server {
    let mut serve = ingo_serve(dir);
    serve
        .args(["--db", db, "--listen", "127.0.0.1:0"])
        .env("RUST_LOG", "warn");
    spawn(serve)
}

/// A small seeded generator (xorshift), so that a run's disconnects can be replayed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// One game and what its players were told.
struct Soaked {
    id: i64,
    black: Client,
    white: Client,
    /// Every acknowledged move, in order.
    acked: Vec<String>,
    /// The move after which Black resigns (by its index in the list).
    resign_at: usize,
    /// The acknowledged resignation's result.
    result: Option<String>,
}

async fn register(addr: SocketAddr, name: &str) -> Client {
    let mut c = Client::new(addr);
    let r = c.register(name, "correct horse", "2d").await.unwrap();
    assert_eq!(r.status, 201, "{:?}", r.body);
    c
}

async fn new_games(addr: SocketAddr) -> Vec<Soaked> {
    let mut games = Vec::new();
    for g in 0..GAMES {
        let mut a = register(addr, &format!("ann{g}")).await;
        let mut b = register(addr, &format!("bob{g}")).await;
        let r = a
            .post(
                "/api/challenges",
                json!({"size": 19, "time_control": "ing-pp:1h"}),
            )
            .await
            .unwrap();
        let cid = r.body["id"].as_i64().unwrap();
        let r = b
            .post(&format!("/api/challenges/{cid}/accept"), json!({}))
            .await
            .unwrap();
        assert_eq!(r.status, 201, "{:?}", r.body);
        let id = r.body["game_id"].as_i64().unwrap();
        let a_id = a.get("/api/me").await.unwrap().body["id"].as_i64().unwrap();
        let (black, white) = if r.body["black"].as_i64() == Some(a_id) {
            (a, b)
        } else {
            (b, a)
        };
        games.push(Soaked {
            id,
            black,
            white,
            acked: Vec::new(),
            resign_at: 110 + 7 * g,
            result: None,
        });
    }
    games
}

/// Plays game `g` from where its players were told it stands, through the servers at `addrs`
/// in turn, until it ends or `stop` is set; a failed request is sent again (its move number
/// makes that safe) until then.
async fn play_on(
    games: Arc<Mutex<Vec<Soaked>>>,
    g: usize,
    addrs: Vec<SocketAddr>,
    stop: Arc<AtomicBool>,
    acked_total: Arc<Mutex<usize>>,
) {
    let moves = quiet_moves(LIST);
    let (id, mut black, mut white, resign_at) = {
        let games = games.lock().unwrap();
        let s = &games[g];
        if s.result.is_some() {
            return;
        }
        (s.id, s.black.clone(), s.white.clone(), s.resign_at)
    };
    let mut turn = 0usize;
    loop {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        let next = games.lock().unwrap()[g].acked.len();
        let addr = addrs[turn % addrs.len()];
        turn += 1;
        let c = if next.is_multiple_of(2) {
            &mut black
        } else {
            &mut white
        };
        c.addr = addr;
        let reply = if next == resign_at {
            c.post(&format!("/api/games/{id}/resign"), json!({})).await
        } else {
            let body = json!({"move": moves[next], "number": next + 1});
            c.post(&format!("/api/games/{id}/moves"), body).await
        };
        match reply {
            Ok(r) if r.status == 200 && next == resign_at => {
                let result = r.body["result"]["result"].as_str().map(str::to_owned);
                assert!(result.is_some(), "{:?}", r.body);
                games.lock().unwrap()[g].result = result;
                return;
            }
            Ok(r) if r.status == 200 => {
                games.lock().unwrap()[g].acked.push(moves[next].clone());
                *acked_total.lock().unwrap() += 1;
            }
            Ok(r) if r.status < 500 => panic!("game {id}, move {}: {:?}", next + 1, r.body),
            _ => {
                if stop.load(Ordering::SeqCst) {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

/// Spectators that connect to a game chosen at random, read its first message or not, and
/// drop, until `stop` is set.
async fn spectators(addrs: Vec<SocketAddr>, ids: Vec<i64>, stop: Arc<AtomicBool>, seed: u64) {
    use futures_util::StreamExt;
    let mut rng = Rng(seed | 1);
    let mut held = Vec::new();
    while !stop.load(Ordering::SeqCst) {
        let c = Client::new(addrs[rng.below(addrs.len())]);
        let Ok(mut ws) = c.websocket(ids[rng.below(ids.len())]).await else {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        match rng.below(3) {
            0 => drop(ws),
            1 => {
                let _ = tokio::time::timeout(Duration::from_secs(2), ws.next()).await;
            }
            // Kept open (and dropped later, or by the server's death).
            _ => held.push(ws),
        }
        if held.len() > 8 {
            held.remove(rng.below(held.len()));
        }
    }
}

/// What happens in a round, once a number of moves is acknowledged.
enum Fault<F> {
    /// Nothing: every game is played to its end.
    None,
    /// The players are stopped, then `F` (a kill).
    Stop(usize, F),
    /// `F` under the players (a connection cut), who play on through it for as many moves
    /// again.
    Under(usize, F),
}

/// Plays every unfinished game through `addrs`, with `fault`.
async fn round<F: std::future::Future<Output = ()>>(
    games: &Arc<Mutex<Vec<Soaked>>>,
    addrs: &[SocketAddr],
    seed: u64,
    fault: Fault<F>,
) {
    let stop = Arc::new(AtomicBool::new(false));
    let acked_total = Arc::new(Mutex::new(0usize));
    let ids: Vec<i64> = games.lock().unwrap().iter().map(|s| s.id).collect();
    let players: Vec<_> = (0..GAMES)
        .map(|g| {
            tokio::spawn(play_on(
                Arc::clone(games),
                g,
                addrs.to_vec(),
                Arc::clone(&stop),
                Arc::clone(&acked_total),
            ))
        })
        .collect();
    let watchers = tokio::spawn(spectators(addrs.to_vec(), ids, Arc::clone(&stop), seed));
    // The fault comes once `n` moves are acknowledged (a count, not a time), while every
    // player keeps posting.
    let acked = |n: usize| {
        let acked_total = Arc::clone(&acked_total);
        async move {
            tokio::time::timeout(Duration::from_secs(120), async {
                while *acked_total.lock().unwrap() < n {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
            })
            .await
            .expect("the moves of a round were acknowledged");
        }
    };
    let bound = match fault {
        Fault::None => 300,
        Fault::Stop(n, f) => {
            acked(n).await;
            stop.store(true, Ordering::SeqCst);
            f.await;
            60
        }
        Fault::Under(n, f) => {
            acked(n).await;
            f.await;
            acked(2 * n).await;
            stop.store(true, Ordering::SeqCst);
            60
        }
    };
    for p in players {
        tokio::time::timeout(Duration::from_secs(bound), p)
            .await
            .expect("the players stop, or the games end")
            .unwrap();
    }
    stop.store(true, Ordering::SeqCst);
    let _ = watchers.await;
}

/// Every acknowledged move and result is in the database at `url`, and so on the server at
/// `fresh` (started since the last change, so it reads every game from the store); the
/// players' counts are set to what is stored (a move in flight at a kill may have been).
async fn check(games: &Arc<Mutex<Vec<Soaked>>>, url: &str, fresh: Option<SocketAddr>) {
    let store = ingo_store::Store::open(url).await.unwrap();
    let list = quiet_moves(LIST);
    let ids: Vec<i64> = games.lock().unwrap().iter().map(|s| s.id).collect();
    let mut rows = Vec::new();
    for &id in &ids {
        let row = ingo_store::server::game_by_id(&store, id)
            .await
            .unwrap()
            .unwrap();
        let moves: Vec<String> = ingo_store::server::moves_of(&store, id)
            .await
            .unwrap()
            .into_iter()
            .map(|m| m.mv)
            .collect();
        if let Some(addr) = fresh {
            let r = Client::new(addr)
                .get(&format!("/api/games/{id}"))
                .await
                .unwrap();
            assert_eq!(r.status, 200, "{:?}", r.body);
            assert_eq!(r.body["move_count"], moves.len(), "game {id}");
            assert_eq!(r.body["phase"].as_str(), Some(row.state.status.as_str()));
        }
        rows.push((row.state, moves));
    }
    let mut games = games.lock().unwrap();
    for (s, (state, stored)) in games.iter_mut().zip(rows) {
        assert!(
            stored.len() == s.acked.len() || stored.len() == s.acked.len() + 1,
            "game {}: {} stored, {} acknowledged",
            s.id,
            stored.len(),
            s.acked.len()
        );
        assert_eq!(stored[..s.acked.len()], s.acked[..], "game {}", s.id);
        assert_eq!(stored[..], list[..stored.len()], "game {}", s.id);
        match &s.result {
            Some(result) => {
                assert_eq!(state.status, "ended", "game {}", s.id);
                assert_eq!(state.result.as_deref(), Some(result.as_str()));
            }
            None if state.status == "ended" => {
                // The resignation in flight at the kill was stored.
                assert_eq!(s.acked.len(), s.resign_at, "game {}", s.id);
                s.result = state.result.clone();
            }
            None => {}
        }
        s.acked = stored;
    }
}

fn kill(server: &mut Server) {
    server.child.kill().expect("SIGKILL"); // std sends SIGKILL on Unix
    let _ = server.child.wait();
}

fn every_game_ended(games: &Arc<Mutex<Vec<Soaked>>>, faults: &str) {
    let games = games.lock().unwrap();
    for s in games.iter() {
        assert!(s.result.is_some(), "game {} ended", s.id);
        assert_eq!(s.acked.len(), s.resign_at, "game {}", s.id);
    }
    let moves: usize = games.iter().map(|s| s.acked.len()).sum();
    eprintln!(
        "soak: {} games, {moves} moves and {} resignations acknowledged, all stored, through {faults}",
        games.len(),
        games.len()
    );
}

#[test]
fn soak_with_kill_9_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("soak.db").display());
    let rt = runtime();
    let mut server = start(&db, dir.path());
    let games = Arc::new(Mutex::new(rt.block_on(new_games(server.addr))));
    for k in 0..3u64 {
        let addr = server.addr;
        let kill_it = async { kill(&mut server) };
        rt.block_on(round(
            &games,
            &[addr],
            7 + k,
            Fault::Stop(MOVES_A_ROUND, kill_it),
        ));
        server = start(&db, dir.path());
        rt.block_on(check(&games, &db, Some(server.addr)));
    }
    let addr = server.addr;
    rt.block_on(round(
        &games,
        &[addr],
        11,
        Fault::None::<std::future::Ready<()>>,
    ));
    rt.block_on(check(&games, &db, None));
    every_game_ended(&games, "3 SIGKILLs");
}

/// Terminates every other connection to the database at `url` (what a PostgreSQL restart does
/// to its clients); the number terminated.
async fn terminate_connections(url: &str) -> i64 {
    let store = ingo_store::Store::open(url).await.unwrap();
    let row: (i64,) = sqlx::query_as(
        "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()) AS cut",
    )
    .fetch_one(store.pool())
    .await
    .unwrap();
    row.0
}

#[test]
fn soak_with_kill_9_and_lost_connections_on_postgres() {
    let rt = runtime();
    let db = rt
        .block_on(ingo_store::testing::TestDb::postgres())
        .expect("a PostgreSQL server (scripts/test starts one)");
    let dir = tempfile::tempdir().unwrap();
    let mut servers = [start(&db.url, dir.path()), start(&db.url, dir.path())];
    let games = Arc::new(Mutex::new(rt.block_on(new_games(servers[0].addr))));
    for k in 0..3usize {
        let addrs = [servers[0].addr, servers[1].addr];
        let victim = &mut servers[k % 2];
        let kill_it = async { kill(victim) };
        rt.block_on(round(
            &games,
            &addrs,
            17 + k as u64,
            Fault::Stop(MOVES_A_ROUND, kill_it),
        ));
        servers[k % 2] = start(&db.url, dir.path());
        rt.block_on(check(&games, &db.url, Some(servers[k % 2].addr)));
    }
    // Every connection of the database is cut under both servers in the middle of play.
    let addrs = [servers[0].addr, servers[1].addr];
    let cut = async {
        let cut = terminate_connections(&db.url).await;
        assert!(cut >= 2, "only {cut} connections were cut");
    };
    rt.block_on(round(
        &games,
        &addrs,
        23,
        Fault::Under(MOVES_A_ROUND / 3, cut),
    ));
    rt.block_on(check(&games, &db.url, None));
    // Both servers play every game to its end.
    rt.block_on(round(
        &games,
        &addrs,
        29,
        Fault::None::<std::future::Ready<()>>,
    ));
    rt.block_on(check(&games, &db.url, None));
    every_game_ended(
        &games,
        "3 SIGKILLs of one of two servers and every database connection cut once",
    );
}
