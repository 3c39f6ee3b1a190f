//! The play server's load test: simulated players over WebSocket on loopback, bounded in
//! count and time. Reports acknowledged moves per second and the latency percentiles of the
//! acknowledgements (from sending a move to its `ack`, which comes after the commit).
//!
//! ```text
//! cargo run --release -p ingo-server --bin ingo-load -- [--db URL] [--games N] [--moves M]
//!     [--seconds S] [--addr HOST:PORT]
//! ```
//!
//! Without `--addr` it starts the server in this process on 127.0.0.1:0 over `--db` (default:
//! a fresh SQLite file in a temporary folder; `postgres://…` for PostgreSQL: a new database is
//! made on that server). With `--addr` it loads a running `ingo serve` instead.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use futures_util::{SinkExt, StreamExt};
use ingo_server::client::{Client, WsStream};
use serde_json::{json, Value};
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

/// A game without captures on 19×19: Black fills the lower rows, White the upper ones.
fn quiet_moves(n: usize) -> Vec<String> {
    let cols: Vec<char> = "ABCDEFGHJKLMNOPQRST".chars().collect();
    let (mut b, mut w) = (Vec::new(), Vec::new());
    for row in 1..=9 {
        for &c in &cols {
            b.push(format!("{c}{row}"));
            w.push(format!("{c}{}", 20 - row));
        }
    }
    b.into_iter()
        .zip(w)
        .flat_map(|(x, y)| [x, y])
        .take(n)
        .collect()
}

async fn wait_for(ws: &mut WsStream, kind: &str) -> anyhow::Result<Value> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .context("no answer within 10 s")?
            .context("socket closed")??;
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str())?;
            if v["type"] == kind {
                return Ok(v);
            }
            if v["type"] == "error" {
                bail!("refused: {v}");
            }
        }
    }
}

/// One game: two players alternating over their sockets. Returns the latencies in µs.
async fn one_game(
    addr: SocketAddr,
    k: usize,
    run: u64,
    moves: usize,
    until: Instant,
) -> anyhow::Result<Vec<u64>> {
    let mut a = Client::new(addr);
    let mut b = Client::new(addr);
    let r = a
        .register(&format!("load{run}a{k}"), "load-test-password", "1d")
        .await?;
    if r.status != 201 {
        bail!("register: {}", r.text);
    }
    let r = b
        .register(&format!("load{run}b{k}"), "load-test-password", "1d")
        .await?;
    if r.status != 201 {
        bail!("register: {}", r.text);
    }
    let r = a
        .post(
            "/api/challenges",
            json!({"size": 19, "time_control": "ing-pp:3h"}),
        )
        .await?;
    let cid = r.body["id"].as_i64().context("challenge id")?;
    let r = b
        .post(&format!("/api/challenges/{cid}/accept"), json!({}))
        .await?;
    let gid = r.body["game_id"].as_i64().context("game id")?;
    let a_id = a.get("/api/me").await?.body["id"].as_i64().context("id")?;
    let (black, white) = if r.body["black"].as_i64() == Some(a_id) {
        (a, b)
    } else {
        (b, a)
    };
    let mut bws = black.websocket(gid).await?;
    let mut wws = white.websocket(gid).await?;
    wait_for(&mut bws, "state").await?;
    wait_for(&mut wws, "state").await?;
    let mut lat = Vec::with_capacity(moves);
    for (i, mv) in quiet_moves(moves).iter().enumerate() {
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
    Ok(lat)
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
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
                ..ingo_server::Config::default()
            };
            let state = ingo_server::AppState::new(store, config);
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
            let addr = listener.local_addr()?;
            tokio::spawn(ingo_server::serve(listener, state));
            (addr, backend)
        }
    };
    let until = Instant::now() + Duration::from_secs(args.seconds);
    let start = Instant::now();
    let tasks: Vec<_> = (0..args.games)
        .map(|k| tokio::spawn(one_game(addr, k, run as u64, args.moves, until)))
        .collect();
    let mut lat = Vec::new();
    let mut failed = 0;
    for t in tasks {
        match t.await? {
            Ok(l) => lat.extend(l),
            Err(e) => {
                failed += 1;
                eprintln!("ingo-load: a game failed: {e:#}");
            }
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    lat.sort_unstable();
    let moves = lat.len();
    // The clock starts before the sign-ups (argon2 hashing); the rate counts the whole run.
    println!(
        "ingo-load: backend={backend} games={} moves_acked={moves} elapsed_s={elapsed:.2} \
         moves_per_s={:.0} p50_ms={:.2} p90_ms={:.2} p99_ms={:.2} max_ms={:.2} failed_games={failed}",
        args.games,
        moves as f64 / elapsed,
        percentile(&lat, 0.50),
        percentile(&lat, 0.90),
        percentile(&lat, 0.99),
        percentile(&lat, 1.0),
    );
    if failed > 0 {
        bail!("{failed} games failed");
    }
    Ok(())
}
