//! The play server's load test: simulated players over WebSocket on loopback, bounded in
//! count and time. Reports acknowledged moves per second and the latency percentiles of the
//! acknowledgements (from sending a move to its `ack`, which the server sends only after the
//! move's transaction is committed).
//!
//! ```text
//! cargo run --release -p ingo-server --bin ingo-load -- [--db URL] [--games N] [--moves M]
//!     [--seconds S] [--addr HOST:PORT]
//! cargo run --release -p ingo-server --bin ingo-load -- --spectators N [--servers 1|2]
//!     [--moves M] [--db postgres://…]
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
//! `--spectators N [--servers 1|2] [--moves M] [--db postgres://…]`: spectators at the scale of
//! a final. One game is watched by N anonymous WebSockets (at most 20,000), split evenly over
//! `--servers` server processes started from this binary (`--serve-child`, each with no cap on
//! connections per address, since every spectator connects from 127.0.0.1; two servers share
//! one new PostgreSQL database, the moves reaching the second by LISTEN/NOTIFY). This process
//! and the servers raise their limit of open files to the hard limit. The players, on the first
//! server, play `--moves M` moves (default 50), each once every spectator has the one before (or
//! after 10 s). The line reports the deliveries (every spectator must receive every move, else
//! the exit code is 1), for each move the time from sending it (before its commit) and from its
//! acknowledgement (after its commit) to the last spectator that received it, and each server's
//! resident memory before and after the spectators connected, per spectator.
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
    spectators: Option<usize>,
    servers: usize,
    serve_child: bool,
}

fn args() -> anyhow::Result<Args> {
    let mut a = Args {
        db: None,
        games: 40,
        moves: 300,
        seconds: 20,
        addr: None,
        spectators: None,
        servers: 1,
        serve_child: false,
    };
    let mut moves_given = false;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().with_context(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--db" => a.db = Some(value()?),
            "--games" => a.games = value()?.parse().context("--games")?,
            "--moves" => {
                a.moves = value()?.parse().context("--moves")?;
                moves_given = true;
            }
            "--spectators" => a.spectators = Some(value()?.parse().context("--spectators")?),
            "--servers" => a.servers = value()?.parse().context("--servers")?,
            "--serve-child" => a.serve_child = true,
            "--seconds" => a.seconds = value()?.parse().context("--seconds")?,
            "--addr" => a.addr = Some(value()?.parse().context("--addr")?),
            other => bail!("unknown flag {other:?}; see the file's documentation"),
        }
    }
    if let Some(n) = a.spectators {
        if n == 0 || n > 20_000 {
            bail!("--spectators is 1 to 20000");
        }
        if !moves_given {
            a.moves = 50;
        }
    }
    if a.servers == 0 || a.servers > 2 {
        bail!("--servers is 1 or 2");
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

/// Raises this process's limit of open files to its hard limit (a socket is a file); answers
/// the limit now.
fn raise_open_files() -> anyhow::Result<u64> {
    rlimit::increase_nofile_limit(u64::MAX).context("cannot raise the limit of open files")
}

/// `--serve-child`: one server over `--db` on 127.0.0.1:0, without a cap on connections per
/// address (every spectator connects from 127.0.0.1); prints `listening ADDR`, then serves
/// until killed.
async fn serve_child(db: &str) -> anyhow::Result<()> {
    raise_open_files()?;
    let store = ingo_store::Store::open(db).await?;
    let config = ingo_server::Config {
        database_url: db.to_owned(),
        max_connections_per_address: usize::MAX,
        ..ingo_server::Config::default()
    };
    let state = ingo_server::AppState::new(store, config);
    // The default backlog (1024) is enough: spectators connect a few hundred at a time.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    println!("listening {}", listener.local_addr()?);
    use std::io::Write;
    std::io::stdout().flush()?;
    ingo_server::serve(listener, state).await
}

/// A server in its own process (so that its memory is its own), killed when dropped.
struct ChildServer {
    child: std::process::Child,
    addr: SocketAddr,
}

impl ChildServer {
    fn start(db: &str) -> anyhow::Result<ChildServer> {
        use std::io::BufRead;
        let mut child = std::process::Command::new(std::env::current_exe()?)
            .args(["--serve-child", "--db", db])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .context("cannot start a server process")?;
        let out = child.stdout.take().context("the server's output")?;
        let mut line = String::new();
        std::io::BufReader::new(out).read_line(&mut line)?;
        let addr = match line.trim().strip_prefix("listening ") {
            Some(a) => a.parse().context("the server's address")?,
            None => {
                let _ = child.kill();
                bail!("the server process said {line:?}");
            }
        };
        Ok(ChildServer { child, addr })
    }

    /// The processor time the server has used, in ms (see [`cpu_ms`]).
    fn cpu_ms(&self) -> Option<u64> {
        cpu_ms(&self.child.id().to_string())
    }

    /// The server's resident memory, in KiB (`VmRSS` of `/proc/PID/status`).
    fn rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
    }
}

impl Drop for ChildServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move number of a `move` event's text, read by a glance (no parse: ten thousand
/// spectators read every move).
fn move_number(text: &str) -> Option<usize> {
    if !text.starts_with("{\"type\":\"move\"") {
        return None;
    }
    let rest = &text[text.find("\"number\":")? + 9..];
    let end = rest.find(|c: char| !c.is_ascii_digit())?;
    rest[..end].parse().ok()
}

/// One spectator: an anonymous socket on `addr` watching game `gid` until it has seen move
/// `moves` (or `deadline`). Answers when it received each move, in µs since `epoch` (0: not
/// received).
async fn spectate(
    addr: SocketAddr,
    gid: i64,
    moves: usize,
    epoch: Instant,
    received: Arc<Vec<std::sync::atomic::AtomicUsize>>,
    (connecting, ready): (
        Arc<tokio::sync::Semaphore>,
        Arc<std::sync::atomic::AtomicUsize>,
    ),
    deadline: Instant,
) -> anyhow::Result<Vec<u64>> {
    let permit = connecting.acquire().await?;
    let mut ws = Client::new(addr).websocket(gid).await?;
    wait_for(&mut ws, "state").await?;
    drop(permit);
    ready.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut at = vec![0u64; moves];
    // One timer for the whole watch, not one a message: ten thousand spectators read every
    // move, and this process shares the server's cores.
    let watch = async {
        let mut seen = 0;
        while seen < moves {
            let Some(msg) = ws.next().await else { break };
            if let Message::Text(t) = msg? {
                if let Some(n) = move_number(t.as_str()) {
                    if (1..=moves).contains(&n) && at[n - 1] == 0 {
                        at[n - 1] = (epoch.elapsed().as_micros() as u64).max(1);
                        received[n - 1].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        seen += 1;
                    }
                }
            }
        }
        anyhow::Ok(())
    };
    if let Ok(r) = tokio::time::timeout_at(deadline.into(), watch).await {
        r?;
    }
    let _ = ws.close(None).await;
    Ok(at)
}

/// `--spectators N`: one game watched by N anonymous sockets, split evenly over `--servers`
/// server processes (2: on one PostgreSQL database, the moves reaching the second through
/// LISTEN/NOTIFY); the players on the first server play `--moves M` moves, each once every
/// spectator has the one before. Reports, per move, the time from sending it (which precedes
/// its commit) and from its acknowledgement (which follows it) to the last spectator to
/// receive it, and each server's memory per spectator.
async fn spectators(args: &Args, n: usize) -> anyhow::Result<()> {
    let files = raise_open_files()?;
    if (n as u64) + 100 > files {
        bail!("{n} spectators need more open files than this process may have ({files})");
    }
    let mut _keep = None;
    let url = match &args.db {
        Some(u) if u.starts_with("postgres") => {
            std::env::set_var("DATABASE_URL", u);
            let db = ingo_store::testing::TestDb::postgres().await?;
            let url = db.url.clone();
            _keep = Some(db);
            url
        }
        Some(_) => bail!("--spectators makes its own database: --db is postgres://… or absent"),
        None if args.servers > 1 => bail!("several servers share a PostgreSQL database: --db"),
        None => {
            let db = ingo_store::testing::TestDb::sqlite().await?;
            let url = db.url.clone();
            _keep = Some(db);
            url
        }
    };
    let servers: Vec<ChildServer> = (0..args.servers)
        .map(|_| ChildServer::start(&url))
        .collect::<anyhow::Result<_>>()?;
    let main_addr = servers[0].addr;
    // The two players, on the first server.
    let mut t = seat(main_addr, 0, (ingo_store::new_id() % 1_000_000) as u64).await?;
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
    // Every server has the game in memory before its memory is read.
    for s in &servers[1..] {
        Client::new(s.addr)
            .get(&format!("/api/games/{gid}"))
            .await?;
    }
    let rss0: Vec<Option<u64>> = servers.iter().map(ChildServer::rss_kib).collect();
    let moves = args.moves;
    let received: Arc<Vec<_>> = Arc::new(
        (0..moves)
            .map(|_| std::sync::atomic::AtomicUsize::new(0))
            .collect(),
    );
    // At most 256 sockets connecting at once, within the listener's backlog.
    let connecting = Arc::new(tokio::sync::Semaphore::new(256));
    let ready = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let epoch = Instant::now();
    let deadline = epoch + Duration::from_secs(args.seconds.max(60) + 120);
    let tasks: Vec<_> = (0..n)
        .map(|k| {
            let addr = servers[k % servers.len()].addr;
            let (received, connecting) = (Arc::clone(&received), Arc::clone(&connecting));
            let ready = Arc::clone(&ready);
            tokio::spawn(spectate(
                addr,
                gid,
                moves,
                epoch,
                received,
                (connecting, ready),
                deadline,
            ))
        })
        .collect();
    // All connected: each socket past its first state (or failed).
    let connect_until = Instant::now() + Duration::from_secs(120);
    while ready.load(std::sync::atomic::Ordering::Relaxed)
        + tasks.iter().filter(|t| t.is_finished()).count()
        < n
    {
        if Instant::now() > connect_until {
            bail!("the spectators did not connect within 120 s");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let connect_s = epoch.elapsed().as_secs_f64();
    // Let the servers settle (the first state sent, buffers freed) before reading memory.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss1: Vec<Option<u64>> = servers.iter().map(ChildServer::rss_kib).collect();
    let list = quiet_moves(moves);
    let cpu0: Vec<Option<u64>> = servers.iter().map(ChildServer::cpu_ms).collect();
    let self0 = cpu_ms("self");
    let (mut sent_at, mut acked_at) = (Vec::new(), Vec::new());
    for (i, mv) in list.iter().enumerate() {
        let ws = if i % 2 == 0 { &mut bws } else { &mut wws };
        sent_at.push(epoch.elapsed().as_micros() as u64);
        ws.send(Message::Text(
            json!({"type": "move", "move": mv, "number": i + 1})
                .to_string()
                .into(),
        ))
        .await?;
        wait_for(ws, "ack").await?;
        acked_at.push(epoch.elapsed().as_micros() as u64);
        // The next move once every spectator has this one (or 10 s).
        let until = Instant::now() + Duration::from_secs(10);
        while received[i].load(std::sync::atomic::Ordering::Relaxed) < n && Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }
    // The processor time of the moves' deliveries: the servers', and this process's (the
    // players and the spectators' reading).
    let cpu1: Vec<Option<u64>> = servers.iter().map(ChildServer::cpu_ms).collect();
    let self1 = cpu_ms("self");
    let per_delivery = |a: Option<u64>, b: Option<u64>| match (a, b) {
        (Some(a), Some(b)) => format!(
            "{:.1}",
            b.saturating_sub(a) as f64 * 1000.0 / (n * moves).max(1) as f64
        ),
        _ => "?".into(),
    };
    let server_us: Vec<String> = cpu0
        .iter()
        .zip(&cpu1)
        .map(|(a, b)| per_delivery(*a, *b))
        .collect();
    let client_us = per_delivery(self0, self1);
    let mut last = vec![0u64; moves];
    let (mut delivered, mut failed) = (0usize, 0usize);
    let mut all = Vec::new();
    for t in tasks {
        match t.await? {
            Ok(at) => {
                for (i, &a) in at.iter().enumerate() {
                    if a > 0 {
                        delivered += 1;
                        last[i] = last[i].max(a);
                        all.push(a.saturating_sub(sent_at[i]));
                    }
                }
            }
            Err(e) => {
                failed += 1;
                if failed <= 3 {
                    eprintln!("ingo-load: a spectator failed: {e:#}");
                }
            }
        }
    }
    let mut from_send: Vec<u64> = (0..moves)
        .map(|i| last[i].saturating_sub(sent_at[i]))
        .collect();
    let mut from_ack: Vec<u64> = (0..moves)
        .map(|i| last[i].saturating_sub(acked_at[i]))
        .collect();
    from_send.sort_unstable();
    from_ack.sort_unstable();
    all.sort_unstable();
    let per_spectator: Vec<String> = servers
        .iter()
        .enumerate()
        .map(|(i, _)| {
            let on = n / servers.len() + usize::from(i < n % servers.len());
            match (rss0[i], rss1[i]) {
                (Some(a), Some(b)) if on > 0 => {
                    format!("{:.1}", (b.saturating_sub(a)) as f64 / on as f64)
                }
                _ => "?".into(),
            }
        })
        .collect();
    let expected = n * moves;
    println!(
        "ingo-load spectators: backend={} servers={} spectators={n} moves={moves} \
         delivered={delivered}/{expected} failed_spectators={failed} connect_s={connect_s:.1} \
         last_from_send_p50_ms={:.1} last_from_send_p99_ms={:.1} last_from_send_max_ms={:.1} \
         last_from_ack_p99_ms={:.1} every_delivery_p99_ms={:.1} rss_kib_before={} rss_kib_after={} \
         kib_per_spectator={} server_cpu_us_per_delivery={} client_cpu_us_per_delivery={client_us} \
         loadavg={}",
        if url.starts_with("postgres") {
            "Postgres"
        } else {
            "Sqlite"
        },
        servers.len(),
        percentile(&from_send, 0.50),
        percentile(&from_send, 0.99),
        percentile(&from_send, 1.0),
        percentile(&from_ack, 0.99),
        percentile(&all, 0.99),
        rss0.iter()
            .map(|r| r.map_or("?".into(), |v| v.to_string()))
            .collect::<Vec<_>>()
            .join(","),
        rss1.iter()
            .map(|r| r.map_or("?".into(), |v| v.to_string()))
            .collect::<Vec<_>>()
            .join(","),
        per_spectator.join(","),
        server_us.join(","),
        loadavg(),
    );
    if delivered < expected {
        bail!("{} of {expected} deliveries missing", expected - delivered);
    }
    Ok(())
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

/// The processor time (user and system, every thread) process `pid` (or `self`) has used, in
/// ms: fields 14 and 15 of `/proc/PID/stat`, in Linux's clock ticks of 10 ms (`USER_HZ` is 100
/// on every architecture Linux exposes to user space). A figure that does not depend on what
/// else the machine runs, beside the latencies that do.
fn cpu_ms(pid: &str) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut f = rest.split_whitespace().skip(11);
    let utime: u64 = f.next()?.parse().ok()?;
    let stime: u64 = f.next()?.parse().ok()?;
    Some((utime + stime) * 10)
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
    if args.serve_child {
        return serve_child(args.db.as_deref().context("--serve-child needs --db")?).await;
    }
    if let Some(n) = args.spectators {
        return spectators(&args, n).await;
    }
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
