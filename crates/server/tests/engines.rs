//! GTP engines as opponents, over HTTP as a person plays them: a 9×9 game
//! against GNU Go to the end (skipped with a note when GNU Go is missing), and fake engines
//! (the referee's `tests/engines/fake_engine.py`) that crash, hang, answer garbage or play an
//! illegal move, each losing the game with its reason; the limit of games at once; a server
//! started again on the same database resuming an engine game with a new process.
#![allow(clippy::unwrap_used)] // Tests: a failed unwrap is a failed test.

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use futures_util::StreamExt;

use ingo_server::client::Client;
use ingo_server::engine::EngineConfig;
use ingo_server::wall::{ManualClock, WallClock};
use ingo_server::{AppState, Config};
use ingo_store::testing::TestDb;
use serde_json::{json, Value};

struct App {
    addr: SocketAddr,
    db: TestDb,
}

async fn app_with(db: TestDb, engines: Vec<EngineConfig>) -> App {
    let addr = serve_on(&db.url, engines).await;
    App { addr, db }
}

/// A server over the database at `url` (a fresh one each call, nothing in memory).
async fn serve_on(url: &str, engines: Vec<EngineConfig>) -> SocketAddr {
    serve_with_clock(url, engines, WallClock::System).await
}

/// A server over the database at `url` that reads the time from `clock`.
async fn serve_with_clock(url: &str, engines: Vec<EngineConfig>, clock: WallClock) -> SocketAddr {
    let config = Config {
        database_url: url.to_owned(),
        engines,
        ..Config::default()
    };
    let store = ingo_store::Store::open(url).await.unwrap();
    let state = AppState::with_clock(store, config, clock);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(ingo_server::serve(listener, state));
    addr
}

/// The fake engine of the referee's tests with `args`.
fn fake(name: &str, args: &str) -> EngineConfig {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../referee/tests/engines/fake_engine.py")
        .canonicalize()
        .unwrap();
    let python = ["/usr/bin/python3", "/usr/local/bin/python3"]
        .into_iter()
        .find(|p| Path::new(p).is_file())
        .unwrap_or("python3");
    let mut command = vec![python.to_owned(), script.display().to_string()];
    command.extend(args.split_whitespace().map(str::to_owned));
    let mut e = EngineConfig::new(name, command).unwrap();
    e.setup_timeout = Duration::from_secs(10);
    e.move_timeout = Duration::from_secs(10);
    e
}

async fn person(addr: SocketAddr, name: &str) -> Client {
    let mut c = Client::new(addr);
    let r = c.register(name, "correct horse", "1k").await.unwrap();
    assert_eq!(r.status, 201, "{:?}", r.body);
    c
}

async fn state(c: &mut Client, gid: i64) -> Value {
    let r = c.get(&format!("/api/games/{gid}")).await.unwrap();
    assert_eq!(r.status, 200, "{:?}", r.body);
    r.body
}

/// Waits until the game's state satisfies `pred` (within 30 s): looks at the state again at
/// every message of a spectator's socket of the game, opened first, so that no change is missed
/// between a look and the next message.
async fn wait_for(c: &mut Client, gid: i64, pred: impl Fn(&Value) -> bool) -> Value {
    let mut ws = Client::new(c.addr).websocket(gid).await.unwrap();
    let mut last = Value::Null;
    let found = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            last = state(c, gid).await;
            if pred(&last) {
                return Some(last.clone());
            }
            // Any message means the game may have changed; a closed socket, that it will not.
            ws.next().await?.ok()?;
        }
    })
    .await;
    match found {
        Ok(Some(s)) => s,
        Ok(None) => panic!("the game's socket closed before it got there: {last}"),
        Err(_) => panic!("the game did not get there within 30 s: {last}"),
    }
}

async fn new_game(c: &mut Client, body: Value) -> i64 {
    let r = c.post("/api/games/engine", body).await.unwrap();
    assert_eq!(r.status, 201, "{:?}", r.body);
    r.body["game_id"].as_i64().unwrap()
}

async fn play(c: &mut Client, gid: i64, mv: &str) -> ingo_server::client::Reply {
    c.post(&format!("/api/games/{gid}/moves"), json!({"move": mv}))
        .await
        .unwrap()
}

/// The first empty point of the board, from the top row.
fn empty_point(s: &Value) -> String {
    let rows = s["board"].as_array().unwrap();
    let size = rows.len();
    for (r, row) in rows.iter().enumerate() {
        if let Some(c) = row.as_str().unwrap().find('.') {
            let col = "ABCDEFGHJKLMNOPQRST".as_bytes()[c] as char;
            return format!("{col}{}", size - r);
        }
    }
    panic!("a full board: {s}");
}

fn ended(s: &Value) -> bool {
    s["phase"] == "ended"
}

/// Waits until the engine has no process left (it is stopped when its game ends, or within a
/// second by the server's reaper), looking at the list of engines every 50 ms for 10 s.
async fn no_process(c: &mut Client, name: &str) {
    let mut last = Value::Null;
    let stopped = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let r = c.get("/api/engines").await.unwrap();
            last = r
                .body
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["name"] == name)
                .cloned()
                .unwrap();
            if last["processes"] == 0 {
                return;
            }
            // No event tells that a process stopped: the list is looked at again.
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert!(stopped.is_ok(), "still running after 10 s: {last}");
}

fn bounded<F: std::future::Future<Output = ()>>(f: F) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        tokio::time::timeout(Duration::from_secs(120), f)
            .await
            .expect("the test finished within its time bound");
    });
}

/// A game against an engine playing Black that fails at its second move: the person (White)
/// answers its first move, then the engine fails; the game ends with `result` and `reason`.
async fn engine_fails(
    db: TestDb,
    args: &str,
    config: impl Fn(EngineConfig) -> EngineConfig,
    result: &str,
    reason: &str,
) {
    let app = app_with(db, vec![config(fake("fake", args))]).await;
    let mut w = person(app.addr, "wendy").await;
    let gid = new_game(
        &mut w,
        json!({"engine": "fake", "size": 9, "color": "white", "time_control": "ing-pp:10m"}),
    )
    .await;
    let s = wait_for(&mut w, gid, |s| s["move_count"] == 1).await;
    let r = play(&mut w, gid, &empty_point(&s)).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    let s = wait_for(&mut w, gid, ended).await;
    assert_eq!(s["result"]["result"], result, "{s}");
    assert_eq!(s["result"]["reason"], reason, "{s}");
    assert_eq!(s["move_count"], 2, "{s}");
    no_process(&mut w, "fake").await;
    // The person cannot move in an ended game, and the record says who won.
    assert_eq!(play(&mut w, gid, "D4").await.status, 409);
    let sgf = w.get(&format!("/api/games/{gid}/sgf")).await.unwrap();
    assert!(sgf.text.contains(&format!("RE[{result}]")), "{}", sgf.text);
    // A new server rebuilds the ended game from the store with the same ending.
    w.addr = serve_on(&app.db.url, vec![]).await;
    let again = state(&mut w, gid).await;
    assert_eq!(again["result"], s["result"], "{again}");
}

#[test]
fn a_crashing_engine_forfeits() {
    bounded(async {
        engine_fails(
            TestDb::sqlite().await.unwrap(),
            "--mode crash --after 1",
            |e| e,
            "W+F",
            "engine-crash",
        )
        .await
    });
}

#[test]
fn a_crashing_engine_forfeits_on_postgres() {
    bounded(async {
        let db = TestDb::postgres()
            .await
            .expect("a PostgreSQL server (scripts/test starts one)");
        engine_fails(db, "--mode crash --after 1", |e| e, "W+F", "engine-crash").await;
    });
}

#[test]
fn a_hanging_engine_loses_on_time_after_its_move_timeout() {
    bounded(async {
        engine_fails(
            TestDb::sqlite().await.unwrap(),
            "--mode sleep --after 1",
            |mut e| {
                e.move_timeout = Duration::from_millis(800);
                e
            },
            "W+T",
            "engine-timeout",
        )
        .await
    });
}

#[test]
fn an_illegal_engine_move_forfeits() {
    // E5 twice: the second is on an occupied point.
    bounded(async {
        engine_fails(
            TestDb::sqlite().await.unwrap(),
            "--mode list --moves E5,E5",
            |e| e,
            "W+F",
            "engine-illegal-move",
        )
        .await
    });
}

#[test]
fn an_engine_answering_no_vertex_forfeits() {
    bounded(async {
        engine_fails(
            TestDb::sqlite().await.unwrap(),
            "--mode badvertex --after 1",
            |e| e,
            "W+F",
            "engine-garbage",
        )
        .await
    });
}

#[test]
fn an_engine_that_cannot_start_forfeits() {
    bounded(async {
        let missing = EngineConfig::new("missing", vec!["/nonexistent/engine".into()]).unwrap();
        let app = app_with(TestDb::sqlite().await.unwrap(), vec![missing]).await;
        let mut b = person(app.addr, "bea").await;
        let gid = new_game(&mut b, json!({"engine": "missing", "color": "white"})).await;
        let s = wait_for(&mut b, gid, ended).await;
        assert_eq!(s["result"]["result"], "W+F", "{s}");
        assert_eq!(s["result"]["reason"], "engine-unavailable", "{s}");
    });
}

#[test]
fn engines_are_listed_limited_and_their_names_reserved() {
    bounded(async {
        let mut e = fake("fake", "--mode random --seed 3");
        e.rank = "3k".parse().unwrap();
        let app = app_with(TestDb::sqlite().await.unwrap(), vec![e]).await;
        let mut anon = Client::new(app.addr);
        let r = anon.get("/api/engines").await.unwrap();
        assert_eq!(r.status, 200);
        assert_eq!(
            r.body,
            json!([{"name": "fake", "account": "ingo-engine-fake", "rank": "3k",
                    "max_games": 1, "games": 0, "processes": 0}])
        );
        // Nobody registers an engine's name.
        let r = anon
            .register("ingo-engine-fake", "correct horse", "1k")
            .await
            .unwrap();
        assert_eq!(r.status, 422, "{:?}", r.body);
        // A game needs a session, a known engine, good settings.
        assert_eq!(
            anon.post("/api/games/engine", json!({"engine": "fake"}))
                .await
                .unwrap()
                .status,
            401
        );
        let mut p = person(app.addr, "pat").await;
        let r = p
            .post("/api/games/engine", json!({"engine": "nope"}))
            .await
            .unwrap();
        assert_eq!(r.status, 404, "{:?}", r.body);
        let r = p
            .post(
                "/api/games/engine",
                json!({"engine": "fake", "color": "red"}),
            )
            .await
            .unwrap();
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (422, Some("bad-color"))
        );
        // Handicap from the ranks: the 1k person gives the 3k engine Black and passes.
        let r = p
            .post(
                "/api/games/engine",
                json!({"engine": "fake", "color": "ranks"}),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 201, "{:?}", r.body);
        let gid = r.body["game_id"].as_i64().unwrap();
        let s = state(&mut p, gid).await;
        assert_eq!(s["black"]["name"], "ingo-engine-fake");
        assert!(s["handicap_passes"].as_i64().unwrap() >= 1, "{s}");
        // The engine plays its moves, the server White's handicap passes.
        let s = wait_for(&mut p, gid, |s| s["move_count"].as_i64() >= Some(2)).await;
        assert_eq!(s["moves"][1]["move"], "pass", "{s}");
        // One game at a time: the second is refused while the first runs.
        let r = p
            .post("/api/games/engine", json!({"engine": "fake"}))
            .await
            .unwrap();
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (409, Some("engine-busy"))
        );
        let r = anon.get("/api/engines").await.unwrap();
        assert_eq!(r.body[0]["games"], 1);
        assert_eq!(r.body[0]["processes"], 1);
        // The person resigns: the process stops, and a new game may start.
        let r = p
            .post(&format!("/api/games/{gid}/resign"), json!({}))
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
        no_process(&mut p, "fake").await;
        new_game(&mut p, json!({"engine": "fake"})).await;
    });
}

#[test]
fn a_new_server_resumes_an_engine_game_with_a_new_process() {
    bounded(async {
        let db = TestDb::sqlite().await.unwrap();
        let url = db.url.clone();
        let log = tempfile::NamedTempFile::new().unwrap();
        let engine = || {
            fake(
                "fake",
                &format!("--mode random --seed 5 --log {}", log.path().display()),
            )
        };
        let app = app_with(db, vec![engine()]).await;
        let mut w = person(app.addr, "walt").await;
        let gid = new_game(
            &mut w,
            json!({"engine": "fake", "color": "white", "size": 9}),
        )
        .await;
        for i in 0..3 {
            let s = wait_for(&mut w, gid, |s| s["move_count"] == 2 * i + 1).await;
            let r = play(&mut w, gid, &empty_point(&s)).await;
            assert_eq!(r.status, 200, "{:?}", r.body);
        }
        wait_for(&mut w, gid, |s| s["move_count"] == 7).await;
        // Another server on the same database, with nothing in memory, as after a restart:
        // it starts the engine again and tells it the seven moves before asking it for more.
        let addr = serve_on(&url, vec![engine()]).await;
        w.addr = addr;
        for i in 0..2 {
            let s = wait_for(&mut w, gid, |s| s["move_count"] == 7 + 2 * i).await;
            let r = play(&mut w, gid, &empty_point(&s)).await;
            assert_eq!(r.status, 200, "{:?}", r.body);
        }
        let s = wait_for(&mut w, gid, |s| s["move_count"] == 11).await;
        assert_eq!(s["phase"], "playing", "{s}");
        let text = std::fs::read_to_string(log.path()).unwrap();
        let boardsizes = text.lines().filter(|l| l.contains("boardsize")).count();
        assert_eq!(boardsizes, 2, "two processes were started:\n{text}");
        let replayed: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.contains("boardsize"))
            .skip(1)
            .skip_while(|l| !l.contains("boardsize"))
            .filter(|l| l.contains("play "))
            .collect();
        assert!(
            replayed.len() >= 7,
            "the new process was told the game: {replayed:?}"
        );
    });
}

/// The operator changes an engine's rank between two starts: the account shows the new rank,
/// which is the one its games are handicapped by.
#[test]
fn an_engine_account_follows_its_configured_rank() {
    bounded(async {
        let db = TestDb::sqlite().await.unwrap();
        let url = db.url.clone();
        let ranked = |rank: &str| {
            let mut e = fake("fake", "--mode random --seed 7");
            e.rank = rank.parse().unwrap();
            e
        };
        let app = app_with(db, vec![ranked("3k")]).await;
        let mut p = person(app.addr, "rita").await;
        let gid = new_game(
            &mut p,
            json!({"engine": "fake", "color": "white", "size": 9}),
        )
        .await;
        assert_eq!(state(&mut p, gid).await["black"]["rank"], "3k");
        let r = p
            .post(&format!("/api/games/{gid}/resign"), json!({}))
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
        // A restart with the engine configured at 2d: a new game shows it at 2d.
        p.addr = serve_on(&url, vec![ranked("2d")]).await;
        let gid = new_game(
            &mut p,
            json!({"engine": "fake", "color": "white", "size": 9}),
        )
        .await;
        assert_eq!(state(&mut p, gid).await["black"]["rank"], "2d");
    });
}

#[test]
fn a_game_against_gnugo_to_the_end() {
    let Some(gnugo) = ingo_testkit::gnugo() else {
        return;
    };
    bounded(async move {
        let mut e = EngineConfig::new(
            "gnugo",
            vec![
                gnugo.display().to_string(),
                "--mode".into(),
                "gtp".into(),
                "--level".into(),
                "1".into(),
                "--seed".into(),
                "1".into(),
            ],
        )
        .unwrap()
        .with_rank("5k")
        .unwrap();
        e.move_timeout = Duration::from_secs(30);
        let app = app_with(TestDb::sqlite().await.unwrap(), vec![e]).await;
        let mut p = person(app.addr, "gina").await;
        let gid = new_game(
            &mut p,
            // Untimed: told a clock, GNU Go raises its level to use the time it has.
            json!({"engine": "gnugo", "size": 9, "color": "black", "time_control": "none"}),
        )
        .await;
        let mut played = 0;
        let mut next = 0usize;
        // The person's moves: points in a fixed scattered order, skipping refused ones; after 20
        // moves, passes.
        let order: Vec<String> = (0..81)
            .map(|i| (i * 37) % 81)
            .map(|k| {
                let col = "ABCDEFGHJ".as_bytes()[k % 9] as char;
                format!("{col}{}", k / 9 + 1)
            })
            .collect();
        loop {
            let s = wait_for(&mut p, gid, |s| {
                ended(s)
                    || (s["phase"] == "playing" && s["to_move"] == "B")
                    || (s["phase"] == "suspended" && s["dead_stones"]["accepted"]["white"] == true)
            })
            .await;
            if ended(&s) {
                break;
            }
            if s["phase"] == "suspended" {
                // GNU Go has accepted the proposal or made its own: the person accepts it.
                let dead = s["dead_stones"]["proposal"].clone();
                let r = p
                    .post(
                        &format!("/api/games/{gid}/dead/accept"),
                        json!({"dead": dead}),
                    )
                    .await
                    .unwrap();
                assert_eq!(r.status, 200, "{:?}", r.body);
                continue;
            }
            let n = s["move_count"].as_i64().unwrap();
            let mut moved = false;
            while played < 20 && next < order.len() {
                let mv = order[next].clone();
                next += 1;
                let r = p
                    .post(
                        &format!("/api/games/{gid}/moves"),
                        json!({"move": mv, "number": n + 1}),
                    )
                    .await
                    .unwrap();
                if r.status == 200 {
                    played += 1;
                    moved = true;
                    break;
                }
                assert_eq!(r.status, 422, "{mv}: {:?}", r.body);
            }
            if !moved {
                let r = p
                    .post(
                        &format!("/api/games/{gid}/moves"),
                        json!({"move": "pass", "number": n + 1}),
                    )
                    .await
                    .unwrap();
                assert_eq!(r.status, 200, "{:?}", r.body);
            }
        }
        let s = state(&mut p, gid).await;
        let reason = s["result"]["reason"].as_str().unwrap().to_owned();
        assert!(
            ["agreement", "passes", "resignation"].contains(&reason.as_str()),
            "{s}"
        );
        assert!(s["move_count"].as_i64().unwrap() > 20, "{s}");
        eprintln!(
            "against GNU Go: {} after {} moves ({reason})",
            s["result"]["result"], s["move_count"]
        );
        let sgf = p.get(&format!("/api/games/{gid}/sgf")).await.unwrap();
        assert!(sgf.text.contains("RU[GOE]"), "{}", sgf.text);
        assert!(sgf.text.contains("ingo-engine-gnugo"), "{}", sgf.text);
        no_process(&mut p, "gnugo").await;
    });
}

#[test]
fn an_engine_that_disagrees_on_dead_stones_proposes_its_own() {
    bounded(async {
        // It passes at every turn and calls D4 dead.
        let app = app_with(
            TestDb::sqlite().await.unwrap(),
            vec![fake("fake", "--mode pass --dead D4")],
        )
        .await;
        let mut b = person(app.addr, "bo").await;
        let gid = new_game(
            &mut b,
            json!({"engine": "fake", "color": "black", "size": 9}),
        )
        .await;
        assert_eq!(play(&mut b, gid, "D4").await.status, 200);
        wait_for(&mut b, gid, |s| s["move_count"] == 2).await;
        assert_eq!(play(&mut b, gid, "pass").await.status, 200);
        // The server proposes nothing dead (one stone on an empty board lives). The engine, to
        // move, disagrees: it resumes play (and passes again); then, the person to move, it
        // proposes its own list.
        let mut game = ingo_rules::Game::new(
            ingo_rules::Setup::empty(9).unwrap(),
            ingo_rules::Rules::ing(),
        );
        for (c, mv) in [
            (ingo_rules::Color::Black, "D4"),
            (ingo_rules::Color::White, "pass"),
            (ingo_rules::Color::Black, "pass"),
        ] {
            game.play_as(c, ingo_rules::Move::from_gtp(mv, 9, 9).unwrap())
                .unwrap();
        }
        assert!(ingo_server::domain::live_game::propose_dead(&game)
            .0
            .is_empty());
        let s = wait_for(&mut b, gid, |s| {
            s["phase"] == "suspended" && s["dead_stones"]["accepted"]["white"] == true
        })
        .await;
        assert_eq!(s["dead_stones"]["proposal"], json!(["D4"]), "{s}");
        assert_eq!(s["dead_stones"]["accepted"]["black"], false, "{s}");
        // The person accepts it: the game is counted without D4.
        let r = b
            .post(
                &format!("/api/games/{gid}/dead/accept"),
                json!({"dead": ["D4"]}),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
        let s = wait_for(&mut b, gid, ended).await;
        assert_eq!(s["result"]["reason"], "agreement", "{s}");
        assert!(
            s["result"]["result"].as_str().unwrap().starts_with("W+"),
            "{s}"
        );
        no_process(&mut b, "fake").await;
    });
}

/// Waits until the engine's log has `n` lines with `word` (within 30 s), looking every 20 ms:
/// the engine tells nobody else what it was asked.
async fn logged(log: &Path, word: &str, n: usize) {
    let count = || {
        std::fs::read_to_string(log)
            .unwrap()
            .lines()
            .filter(|l| l.contains(word))
            .count()
    };
    let seen = tokio::time::timeout(Duration::from_secs(30), async {
        while count() < n {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(
        seen.is_ok(),
        "{word} ×{n} not in the engine's log: {}",
        count()
    );
}

/// An engine that thinks past the time its clock has loses on time as a person would (reason
/// `time`, not `engine-timeout`). On a manual clock, advanced past the hour once the engine is
/// thinking: the server's timer ends the game at once; had it not, the engine's move timeout
/// (real time: 3 s from its question, when its process is stopped, since a thinking engine is
/// not interrupted) would find the clock fallen and give the same verdict. Either way no race
/// between the clock and the move timeout decides it, as one did on a real 3 s clock.
#[test]
fn an_engine_hanging_past_its_clock_loses_on_time_like_a_person() {
    bounded(async {
        let db = TestDb::sqlite().await.unwrap();
        let log = tempfile::NamedTempFile::new().unwrap();
        let args = format!("--mode sleep --after 1 --log {}", log.path().display());
        let mut engine = fake("fake", &args);
        engine.move_timeout = Duration::from_secs(3);
        let clock = ManualClock::starting_now();
        let addr = serve_with_clock(&db.url, vec![engine], clock.clone().into()).await;
        let mut w = person(addr, "wim").await;
        let gid = new_game(
            &mut w,
            json!({"engine": "fake", "size": 9, "color": "white", "time_control": "absolute:1h"}),
        )
        .await;
        let s = wait_for(&mut w, gid, |s| s["move_count"] == 1).await;
        assert_eq!(play(&mut w, gid, &empty_point(&s)).await.status, 200);
        // Asked for its second move, it sleeps; its hour runs out.
        logged(log.path(), "genmove", 2).await;
        clock.advance(Duration::from_secs(3600) + Duration::from_millis(1));
        let s = wait_for(&mut w, gid, ended).await;
        assert_eq!(s["result"]["result"], "W+T", "{s}");
        assert_eq!(s["result"]["reason"], "time", "{s}");
        no_process(&mut w, "fake").await;
    });
}

#[test]
fn an_engine_disputing_on_its_turn_resumes_play_with_cleanup() {
    bounded(async {
        let log = tempfile::NamedTempFile::new().unwrap();
        let args = format!(
            "--mode pass --dead D4 --cleanup --log {}",
            log.path().display()
        );
        let app = app_with(TestDb::sqlite().await.unwrap(), vec![fake("fake", &args)]).await;
        let mut b = person(app.addr, "bob").await;
        let gid = new_game(
            &mut b,
            json!({"engine": "fake", "color": "black", "size": 9}),
        )
        .await;
        assert_eq!(play(&mut b, gid, "D4").await.status, 200);
        wait_for(&mut b, gid, |s| s["move_count"] == 2).await;
        assert_eq!(play(&mut b, gid, "pass").await.status, 200);
        // Suspended with White (the engine) to move: it calls D4 dead, the server does not, so
        // it resumes play with kgs-genmove_cleanup (and passes: a third pass), then proposes.
        let s = wait_for(&mut b, gid, |s| {
            s["dead_stones"]["accepted"]["white"] == true
        })
        .await;
        assert_eq!(s["move_count"], 4, "{s}");
        assert_eq!(s["moves"][3]["move"], "pass", "{s}");
        assert_eq!(s["dead_stones"]["proposal"], json!(["D4"]), "{s}");
        let text = std::fs::read_to_string(log.path()).unwrap();
        let genmoves: Vec<&str> = text
            .lines()
            .filter(|l| {
                l.split_whitespace()
                    .nth(1)
                    .is_some_and(|c| c == "genmove" || c == "kgs-genmove_cleanup")
            })
            .collect();
        assert_eq!(genmoves.len(), 2, "{text}");
        assert!(
            genmoves[0].contains("genmove w") && !genmoves[0].contains("cleanup"),
            "{text}"
        );
        assert!(genmoves[1].contains("kgs-genmove_cleanup w"), "{text}");
        // The person passes a fourth time: the game ends with every stone alive.
        assert_eq!(play(&mut b, gid, "pass").await.status, 200);
        let s = wait_for(&mut b, gid, ended).await;
        assert_eq!(s["result"]["reason"], "passes", "{s}");
        assert!(
            s["result"]["result"].as_str().unwrap().starts_with("B+"),
            "{s}"
        );
    });
}
