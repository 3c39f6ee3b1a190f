//! `ingo serve` with GTP engines from its configuration file: a bad
//! `[[engine]]` entry stops the start with an error naming the entry and the field; an engine
//! game survives a `kill -9` of the server, the engine process going with it and a new one
//! told the game's moves after the restart.
#![allow(clippy::unwrap_used)] // Tests: a failed unwrap is a failed test.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

mod serve_util;

use ingo_server::client::Client;
use serde_json::{json, Value};
use serve_util::{ingo_serve, runtime, spawn, Server};

fn serve(config: &Path, dir: &Path) -> Command {
    let mut c = ingo_serve(dir);
    c.args(["--db", "play.db", "--listen", "127.0.0.1:0", "--config"])
        .arg(config);
    c
}

/// The error `ingo serve` stops with for a configuration file holding `text`.
fn start_error(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("serve.toml");
    std::fs::write(&path, text).unwrap();
    let out = serve(&path, dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_bad_engine_entry_is_named_with_its_field() {
    let e = start_error(
        "[[engine]]\nname = \"gnugo\"\ncommand = [\"gnugo\", \"--mode\", \"gtp\"]\nrank = \"5x\"\n",
    );
    assert!(
        e.contains("engine[0]") && e.contains("rank") && e.contains("5x"),
        "{e}"
    );
    let e = start_error(
        "[[engine]]\nname = \"a\"\ncommand = \"a\"\n[[engine]]\nname = \"b\"\ncommand = \"b\"\nmax_games = 0\n",
    );
    assert!(e.contains("engine[1]") && e.contains("max_games"), "{e}");
    let e = start_error("[[engine]]\nname = \"a\"\ncommand = \"a\"\nmax_game = 2\n");
    assert!(e.contains("max_game"), "{e}");
    let e = start_error("[[engine]]\nname = \"a b\"\ncommand = \"a\"\n");
    assert!(e.contains("engine[0]") && e.contains("name"), "{e}");
    let e = start_error("[[engine]]\nname = \"a\"\ncommand = []\n");
    assert!(e.contains("command"), "{e}");
    let e = start_error(
        "[[engine]]\nname = \"a\"\ncommand = \"a\"\n[[engine]]\nname = \"a\"\ncommand = \"b\"\n",
    );
    assert!(e.contains("twice"), "{e}");
}

/// How long a poll waits for what it waits for before the test fails: the polls wait for events
/// (a move stored, a process gone), and this bound only keeps a failure from hanging the test,
/// so it is generous for a loaded machine.
const BOUND: Duration = Duration::from_secs(60);

fn start(config: &Path, dir: &Path) -> Server {
    spawn(serve(config, dir))
}

async fn wait_for(c: &mut Client, gid: i64, pred: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let s = c.get(&format!("/api/games/{gid}")).await.unwrap().body;
        if pred(&s) {
            return s;
        }
        assert!(start.elapsed() < BOUND, "not there: {s}");
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

/// The first empty point of the board, from the top row.
fn empty_point(s: &Value) -> String {
    let rows = s["board"].as_array().unwrap();
    for (r, row) in rows.iter().enumerate() {
        if let Some(c) = row.as_str().unwrap().find('.') {
            let col = "ABCDEFGHJKLMNOPQRST".as_bytes()[c] as char;
            return format!("{col}{}", rows.len() - r);
        }
    }
    panic!("a full board: {s}");
}

/// How many processes have `marker` in their command line (read from `/proc`).
fn processes_with(marker: &str) -> usize {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    dir.filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .chars()
                .all(|c| c.is_ascii_digit())
        })
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .filter(|c| String::from_utf8_lossy(c).contains(marker))
        .count()
}

#[test]
fn an_engine_game_survives_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../referee/tests/engines/fake_engine.py")
        .canonicalize()
        .unwrap();
    // A marker unique to this test, to find its engine processes.
    let marker = format!("ingo-kill9-{}", std::process::id());
    let config = dir.path().join("serve.toml");
    std::fs::write(
        &config,
        format!(
            "[[engine]]\nname = \"fake\"\ncommand = [\"python3\", {:?}, \"--mode\", \"random\", \"--name\", {marker:?}]\nrank = \"5k\"\nmax_games = 1\nsetup_timeout_secs = 10\n",
            script.display().to_string()
        ),
    )
    .unwrap();
    let rt = runtime();
    let mut server = start(&config, dir.path());
    let mut w = Client::new(server.addr);
    let gid = rt.block_on(async {
        assert_eq!(
            w.register("wes", "correct horse", "1k")
                .await
                .unwrap()
                .status,
            201
        );
        let r = w
            .post(
                "/api/games/engine",
                json!({"engine": "fake", "size": 9, "color": "white"}),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 201, "{:?}", r.body);
        let gid = r.body["game_id"].as_i64().unwrap();
        for i in 0..3 {
            let s = wait_for(&mut w, gid, |s| s["move_count"] == 2 * i + 1).await;
            let r = w
                .post(
                    &format!("/api/games/{gid}/moves"),
                    json!({"move": empty_point(&s)}),
                )
                .await
                .unwrap();
            assert_eq!(r.status, 200, "{:?}", r.body);
        }
        wait_for(&mut w, gid, |s| s["move_count"] == 7).await;
        gid
    });
    assert_eq!(processes_with(&marker), 1, "one engine process runs");
    server.child.kill().unwrap(); // SIGKILL
    let _ = server.child.wait();
    // The engine dies with the server (its parent-death signal).
    let start_wait = Instant::now();
    while processes_with(&marker) > 0 {
        assert!(
            start_wait.elapsed() < BOUND,
            "the engine outlived the server"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let server = start(&config, dir.path());
    w.addr = server.addr;
    rt.block_on(async {
        for i in 0..2 {
            let s = wait_for(&mut w, gid, |s| s["move_count"] == 7 + 2 * i).await;
            let r = w
                .post(
                    &format!("/api/games/{gid}/moves"),
                    json!({"move": empty_point(&s)}),
                )
                .await
                .unwrap();
            assert_eq!(r.status, 200, "{:?}", r.body);
        }
        let s = wait_for(&mut w, gid, |s| s["move_count"] == 11).await;
        assert_eq!(s["phase"], "playing", "{s}");
        let r = w
            .post(&format!("/api/games/{gid}/resign"), json!({}))
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
        assert_eq!(r.body["result"]["result"], "B+R");
    });
    // The process stops with its game.
    let start_wait = Instant::now();
    while processes_with(&marker) > 0 {
        assert!(start_wait.elapsed() < BOUND, "the engine outlived its game");
        std::thread::sleep(Duration::from_millis(20));
    }
    // A new game starts a new process; SIGTERM stops the server and its engines at once.
    rt.block_on(async {
        let r = w
            .post(
                "/api/games/engine",
                json!({"engine": "fake", "size": 9, "color": "white"}),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 201, "{:?}", r.body);
        let gid = r.body["game_id"].as_i64().unwrap();
        wait_for(&mut w, gid, |s| s["move_count"] == 1).await;
    });
    assert_eq!(processes_with(&marker), 1);
    let mut server = server;
    let status = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let start_wait = Instant::now();
    let exit = loop {
        if let Some(s) = server.child.try_wait().unwrap() {
            break s;
        }
        assert!(
            start_wait.elapsed() < BOUND,
            "the server did not stop on SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(exit.success(), "{exit:?}");
    assert_eq!(processes_with(&marker), 0, "an engine outlived the server");
}

#[test]
fn ingo_gtp_plays_as_an_engine_given_by_flag() {
    let dir = tempfile::tempdir().unwrap();
    let mut serve = ingo_serve(dir.path());
    serve
        .args(["--db", "play.db", "--listen", "127.0.0.1:0", "--engine"])
        .arg(format!(
            "ingo=\"{}\" gtp --playouts 30 --seed 1",
            env!("CARGO_BIN_EXE_ingo")
        ));
    let server = spawn(serve);
    let addr = server.addr;
    let rt = runtime();
    rt.block_on(async {
        let mut p = Client::new(addr);
        assert_eq!(
            p.register("ines", "correct horse", "1k")
                .await
                .unwrap()
                .status,
            201
        );
        let r = p
            .post(
                "/api/games/engine",
                json!({"engine": "ingo", "size": 9, "color": "white", "time_control": "ing-pp:5m"}),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 201, "{:?}", r.body);
        let gid = r.body["game_id"].as_i64().unwrap();
        // ingo's engine (told `ingo-rules ing`) opens, the person answers; three rounds.
        for i in 0..3 {
            let s = wait_for(&mut p, gid, |s| s["move_count"] == 2 * i + 1).await;
            assert_eq!(s["phase"], "playing", "{s}");
            let r = p
                .post(
                    &format!("/api/games/{gid}/moves"),
                    json!({"move": empty_point(&s)}),
                )
                .await
                .unwrap();
            assert_eq!(r.status, 200, "{:?}", r.body);
        }
        let s = wait_for(&mut p, gid, |s| s["move_count"] == 7).await;
        assert_eq!(s["black"]["name"], "ingo-engine-ingo", "{s}");
    });
}
