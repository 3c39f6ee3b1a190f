//! The play server's load test: simulated players over WebSocket on loopback, bounded in
//! count and time. Reports acknowledged moves per second and the latency percentiles of the
//! acknowledgements (from sending a move to its `ack`, which the server sends only after the
//! move's transaction is committed).
//!
//! ```text
//! cargo run --release -p ingo-server --bin ingo-load -- [--db URL] [--games N] [--moves M]
//!     [--seconds S] [--addr HOST:PORT]
//! ```
//!
//! `--games N` tables (2N accounts, made before the clock starts: argon2 is no part of the
//! move path) play at once for `--seconds S`; at each table both sides are simulated, each
//! player on its own WebSocket, and a player sends its next move only once the previous one is
//! acknowledged, like a person. A table plays games of `--moves M` moves (a quiet 19×19 game
//! without captures) back to back: challenge, acceptance, both sockets, the moves. Only
//! acknowledged moves count; the rate is over the whole window, the games' set-up included.
//!
//! Without `--addr` it starts the server in this process on 127.0.0.1:0 over `--db` (default:
//! a fresh SQLite file in a temporary folder; `postgres://…` for PostgreSQL: a new database is
//! made on that server). With `--addr` it loads a running `ingo serve` instead.
//!
//! The last line is one `name=value` line. Since the machine may be busy with other work, it
//! ends with `cpu_us_per_move=`, the processor time of this process (server and simulated
//! players together, without `--addr`) per acknowledged move, and `loadavg=`, the first figure
//! of `/proc/loadavg` at the end.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use futures_util::{SinkExt, StreamExt};
use ingo_server::client::{quiet_moves, Client, WsStream};
use serde_json::{json, Value};
use tokio::sync::Barrier;
use tokio_tungstenite::tungstenite::Message;

struct Args {
    db: Option<String>,
    games: usize,
    moves: usize,
    seconds: u64,
    addr: Option<SocketAddr>,
}

fn args() -> anyhow::Result<Args> {
    let mut a = Args {
        db: None,
        games: 40,
        moves: 300,
        seconds: 20,
        addr: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().with_context(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--db" => a.db = Some(value()?),
            "--games" => a.games = value()?.parse().context("--games")?,
            "--moves" => a.moves = value()?.parse().context("--moves")?,
            "--seconds" => a.seconds = value()?.parse().context("--seconds")?,
            "--addr" => a.addr = Some(value()?.parse().context("--addr")?),
            other => bail!("unknown flag {other:?}; see the file's documentation"),
        }
    }
    if a.games == 0 || a.games > 500 {
        bail!("--games is 1 to 500");
    }
    if a.moves == 0 || a.moves > 320 {
        bail!("--moves is 1 to 320");
    }
    if a.seconds == 0 || a.seconds > 300 {
        bail!("--seconds is 1 to 300");
    }
    if let Some(addr) = a.addr {
        if !addr.ip().is_loopback() {
            bail!("the load test runs on loopback only");
        }
    }
    Ok(a)
}

/// The next message of type `kind` on `ws`, skipping the others (the game's `move` events,
/// which each player's socket also receives). An `error` fails the game.
async fn wait_for(ws: &mut WsStream, kind: &str) -> anyhow::Result<Value> {
    let tag = format!("\"type\":\"{kind}\"");
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .context("no answer within 10 s")?
            .context("socket closed")??;
        if let Message::Text(t) = msg {
            let t = t.as_str();
            // Parse only what may be the answer: an event is skipped by a glance.
            if t.contains(&tag) || t.contains("\"type\":\"error\"") {
                let v: Value = serde_json::from_str(t)?;
                if v["type"] == kind {
                    return Ok(v);
                }
                if v["type"] == "error" {
                    bail!("refused: {v}");
                }
            }
        }
    }
}

/// Two accounts that play each other.
struct Table {
    a: Client,
    b: Client,
    a_id: i64,
}

async fn seat(addr: SocketAddr, k: usize, run: u64) -> anyhow::Result<Table> {
    let mut a = Client::new(addr);
    let mut b = Client::new(addr);
    for (c, side) in [(&mut a, 'a'), (&mut b, 'b')] {
        let r = c
            .register(&format!("load{run}{side}{k}"), "load-test-password", "1d")
            .await?;
        if r.status != 201 {
            bail!("register: {}", r.text);
        }
    }
    let a_id = a.get("/api/me").await?.body["id"].as_i64().context("id")?;
    Ok(Table { a, b, a_id })
}

/// Games at one table until `until`. Returns the latencies of the acknowledged moves, in µs.
async fn play_games(
    t: &mut Table,
    moves: &[String],
    until: Instant,
    lat: &mut Vec<u64>,
) -> anyhow::Result<usize> {
    let mut games = 0;
    while Instant::now() < until {
        let r =
            t.a.post(
                "/api/challenges",
                json!({"size": 19, "time_control": "ing-pp:3h"}),
            )
            .await?;
        let cid = r.body["id"].as_i64().context("challenge id")?;
        let r =
            t.b.post(&format!("/api/challenges/{cid}/accept"), json!({}))
                .await?;
        let gid = r.body["game_id"].as_i64().context("game id")?;
        let (black, white) = if r.body["black"].as_i64() == Some(t.a_id) {
            (&t.a, &t.b)
        } else {
            (&t.b, &t.a)
        };
        let mut bws = black.websocket(gid).await?;
        let mut wws = white.websocket(gid).await?;
        wait_for(&mut bws, "state").await?;
        wait_for(&mut wws, "state").await?;
        games += 1;
        for (i, mv) in moves.iter().enumerate() {
            if Instant::now() >= until {
                break;
            }
            let ws = if i % 2 == 0 { &mut bws } else { &mut wws };
            let t0 = Instant::now();
            ws.send(Message::Text(
                json!({"type": "move", "move": mv, "number": i + 1})
                    .to_string()
                    .into(),
            ))
            .await?;
            let ack = wait_for(ws, "ack").await?;
            lat.push(t0.elapsed().as_micros() as u64);
            if ack["number"].as_u64() != Some(i as u64 + 1) {
                bail!("ack {ack} for move {}", i + 1);
            }
        }
        let _ = bws.close(None).await;
        let _ = wws.close(None).await;
    }
    Ok(games)
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

/// This process's processor time (user + system) in seconds, from `/proc/self/stat`: with the
/// server in this process, the cost of the run on the processors, whatever else runs beside it.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = args()?;
    let run = ingo_store::new_id() % 1_000_000;
    let mut _keep = None;
    let (addr, backend) = match args.addr {
        Some(a) => (a, "external".to_owned()),
        None => {
            let (store, url) = match &args.db {
                Some(u) if u.starts_with("postgres") => {
                    std::env::set_var("DATABASE_URL", u);
                    let db = ingo_store::testing::TestDb::postgres().await?;
                    let r = (db.store.clone(), db.url.clone());
                    _keep = Some(db);
                    r
                }
                Some(u) => (ingo_store::Store::open(u).await?, u.clone()),
                None => {
                    let db = ingo_store::testing::TestDb::sqlite().await?;
                    let r = (db.store.clone(), db.url.clone());
                    _keep = Some(db);
                    r
                }
            };
            let backend = format!("{:?}", store.backend());
            let config = ingo_server::Config {
                database_url: url,
                // Every simulated player connects from 127.0.0.1.
                max_connections_per_address: usize::MAX,
                ..ingo_server::Config::default()
            };
            let state = ingo_server::AppState::new(store, config);
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
            let addr = listener.local_addr()?;
            tokio::spawn(ingo_server::serve(listener, state));
            (addr, backend)
        }
    };
    let moves: Arc<[String]> = quiet_moves(args.moves).into();
    let seconds = Duration::from_secs(args.seconds);
    // Everybody signs up first; the clock starts when the last table is seated.
    let seated = Arc::new(Barrier::new(args.games + 1));
    let start_tx = Arc::new(tokio::sync::watch::channel(None::<Instant>).0);
    let tasks: Vec<_> = (0..args.games)
        .map(|k| {
            let (seated, moves) = (Arc::clone(&seated), Arc::clone(&moves));
            let mut start = start_tx.subscribe();
            tokio::spawn(async move {
                let table = seat(addr, k, run as u64).await;
                seated.wait().await;
                let mut table = table?;
                let until = loop {
                    if let Some(t) = *start.borrow_and_update() {
                        break t + seconds;
                    }
                    start.changed().await?;
                };
                let mut lat = Vec::new();
                let r = play_games(&mut table, &moves, until, &mut lat).await;
                anyhow::Ok((lat, r))
            })
        })
        .collect();
    let setup = Instant::now();
    seated.wait().await;
    let setup = setup.elapsed().as_secs_f64();
    let start = Instant::now();
    let cpu0 = cpu_seconds();
    start_tx.send_replace(Some(start));
    let mut lat = Vec::new();
    let (mut failed, mut games) = (0, 0);
    for t in tasks {
        match t.await? {
            Ok((l, r)) => {
                // A failed game's acknowledged moves were acknowledged: they count.
                lat.extend(l);
                match r {
                    Ok(n) => games += n,
                    Err(e) => {
                        failed += 1;
                        eprintln!("ingo-load: a table failed: {e:#}");
                    }
                }
            }
            Err(e) => {
                failed += 1;
                eprintln!("ingo-load: a table failed: {e:#}");
            }
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
    lat.sort_unstable();
    let moves = lat.len();
    println!(
        "ingo-load: backend={backend} tables={} games={games} moves_acked={moves} \
         setup_s={setup:.2} elapsed_s={elapsed:.2} moves_per_s={:.0} p50_ms={:.2} p90_ms={:.2} \
         p99_ms={:.2} max_ms={:.2} failed_tables={failed} cpu_us_per_move={} loadavg={}",
        args.games,
        moves as f64 / elapsed,
        percentile(&lat, 0.50),
        percentile(&lat, 0.90),
        percentile(&lat, 0.99),
        percentile(&lat, 1.0),
        match (cpu, args.addr) {
            (Some(c), None) if moves > 0 => format!("{:.0}", c * 1e6 / moves as f64),
            _ => "?".into(),
        },
        loadavg(),
    );
    if failed > 0 {
        bail!("{failed} tables failed");
    }
    Ok(())
}
