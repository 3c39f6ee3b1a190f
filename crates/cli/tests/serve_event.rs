//! An Ing event hosted by the play server, end to end, on both databases: a director creates
//! an 8-player, 3-round Swiss from its agreement, eight accounts register and are approved,
//! each round is paired and started on the server, and its games are played over the API to
//! results of every kind (a count, resignations, a loss on time, an absence decided by the
//! server's clock, a referee's forfeit for 悔著, a late arrival charged twice on the clock,
//! a corrected result). The standings over the API then equal `ingo tournament standings`
//! on the same store, key by key, and a hand computation. Nobody but the director can do
//! the director's part.
//!
//! The server runs in this process on a manual clock, so that lateness, absence and the loss
//! on time are decided by the server's own timers at exact times, with no sleep.
#![allow(clippy::unwrap_used)] // Tests: a failed unwrap is a failed test.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::process::Command;
use std::time::Duration;

use ingo_server::client::Client;
use ingo_server::wall::ManualClock;
use ingo_server::{AppState, Config};
use ingo_store::testing::TestDb;
use serde_json::{json, Value};

const MINUTE: Duration = Duration::from_secs(60);

/// The agreement: a Swiss of three rounds on 9×9 under Ing's rules, 20 minutes absolute a
/// player (so an absence is declared after 10 minutes: twice the lateness would use it all),
/// ranked by main score then A1, A2, B1, B2.
const AGREEMENT: &str = r#"name = "Online cup"
purpose = "The rules of Ing played online"
eligibility = "Accounts of this server"
registration = { opens = "2026-12-01", closes = "2026-12-02" }
size = 9
time = { control = "absolute:20m" }
format = { kind = "swiss", rounds = 3 }
scoring = { tie_breakers = ["A1", "A2", "B1", "B2"] }
"#;

/// A pairing as the event shows it: (board, black, white, the server game).
type Pairing = (u64, String, String, Option<i64>);

const PLAYERS: [&str; 8] = ["ann", "bo", "cy", "di", "ed", "fay", "gus", "hal"];

struct Event {
    addr: SocketAddr,
    id: i64,
    td: Client,
    players: BTreeMap<String, Client>,
    clock: ManualClock,
}

async fn spawn(db: &TestDb, clock: &ManualClock) -> SocketAddr {
    let config = Config {
        database_url: db.url.clone(),
        directors: vec!["td".into()],
        ..Config::default()
    };
    let state = AppState::with_clock(db.store.clone(), config, clock.clone().into());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(ingo_server::serve(listener, state));
    addr
}

async fn account(addr: SocketAddr, name: &str, rank: &str) -> Client {
    let mut c = Client::new(addr);
    let r = c.register(name, "correct horse", rank).await.unwrap();
    assert_eq!(r.status, 201, "{name}: {:?}", r.body);
    c
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

impl Event {
    fn path(&self, rest: &str) -> String {
        format!("/api/events/{}{rest}", self.id)
    }

    fn player(&mut self, name: &str) -> &mut Client {
        self.players.get_mut(name).unwrap()
    }

    async fn view(&mut self) -> Value {
        let p = self.path("");
        get(&mut self.td, &p).await
    }

    /// The pairings of round `n`: (board, black, white, game id).
    async fn round(&mut self, n: u64) -> Vec<Pairing> {
        let v = self.view().await;
        let round = v["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["round"] == n)
            .unwrap_or_else(|| panic!("round {n} in {v}"))
            .clone();
        round["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["board"].as_u64().unwrap(),
                    p["black"].as_str().unwrap().to_owned(),
                    p["white"].as_str().unwrap_or("").to_owned(),
                    p["game_id"].as_i64(),
                )
            })
            .collect()
    }

    /// The event's result of round `n`, board `b`, waiting (bounded) for the server to decide
    /// it.
    async fn result(&mut self, n: u64, b: u64) -> String {
        for _ in 0..400 {
            let v = self.view().await;
            let r = v["rounds"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["round"] == n)
                .and_then(|r| {
                    r["pairings"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|p| p["board"] == b)
                        .cloned()
                });
            if let Some(s) = r.and_then(|p| p["result"].as_str().map(str::to_owned)) {
                return s;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("round {n} board {b} has no result");
    }

    async fn check_in(&mut self, name: &str) -> Value {
        let p = self.path("/checkin");
        ok(self.player(name), &p, json!({})).await
    }

    async fn pair(&mut self, body: Value) -> Value {
        let p = self.path("/rounds");
        ok(&mut self.td, &p, body).await
    }

    async fn start(&mut self, n: u64) -> Value {
        let p = self.path(&format!("/rounds/{n}/start"));
        ok(&mut self.td, &p, json!({})).await
    }

    async fn play(&mut self, name: &str, gid: i64, mv: &str) {
        let path = format!("/api/games/{gid}/moves");
        ok(self.player(name), &path, json!({ "move": mv })).await;
    }

    async fn resign(&mut self, name: &str, gid: i64) {
        let path = format!("/api/games/{gid}/resign");
        ok(self.player(name), &path, json!({})).await;
    }

    /// A count: Black E5, White A1, two passes, A1 proposed dead and accepted: `B+73` on 9×9
    /// (81 points less the komi of 8).
    async fn count(&mut self, black: &str, white: &str, gid: i64) {
        self.play(black, gid, "E5").await;
        self.play(white, gid, "A1").await;
        self.play(black, gid, "pass").await;
        self.play(white, gid, "pass").await;
        let path = format!("/api/games/{gid}/dead");
        ok(self.player(black), &path, json!({"dead": ["A1"]})).await;
        let path = format!("/api/games/{gid}/dead/accept");
        ok(self.player(white), &path, json!({"dead": ["A1"]})).await;
    }
}

/// Every route of the director's, tried by a player: 403 with the reason, nothing done.
async fn only_the_director(ev: &mut Event) {
    let routes: Vec<(String, Value)> = vec![
        (ev.path("/registration"), json!({"open": true})),
        (ev.path("/entrants"), json!({"name": "bo"})),
        (ev.path("/entrants/approve"), json!({"name": "bo"})),
        (
            ev.path("/entrants/rank"),
            json!({"name": "ann", "rank": "9d"}),
        ),
        (ev.path("/entrants/withdraw"), json!({"name": "bo"})),
        (ev.path("/entrants/reinstate"), json!({"name": "bo"})),
        (ev.path("/rounds"), json!({})),
        (ev.path("/rounds/1/start"), json!({})),
        (
            ev.path("/results"),
            json!({"round": 1, "board": 1, "result": "B+R", "reason": "mine"}),
        ),
        (ev.path("/close"), json!({})),
    ];
    let before = ev.view().await;
    for (path, body) in routes {
        let r = ev.player("ann").post(&path, body).await.unwrap();
        assert_eq!(r.status, 403, "{path}: {:?}", r.body);
        assert_eq!(r.body["reason"], "not-the-director", "{path}");
    }
    // Nobody registers someone else.
    let p = ev.path("/register");
    let r = ev
        .player("ann")
        .post(&p, json!({"name": "bo"}))
        .await
        .unwrap();
    assert_eq!(r.status, 403, "{:?}", r.body);
    assert_eq!(r.body["reason"], "not-yourself");
    let r = ev
        .player("ann")
        .post_text("/api/events", "application/toml", AGREEMENT)
        .await
        .unwrap();
    assert_eq!(r.status, 403, "{:?}", r.body);
    assert_eq!(ev.view().await, before, "nothing changed");
}

/// `GET path` as text: the status and the body.
async fn text(c: &mut Client, path: &str) -> (u16, String) {
    let r = c.get(path).await.unwrap();
    (r.status, r.text)
}

/// The standings of `ingo tournament standings --json` on the store at `url`.
fn cli_standings(url: &str) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_ingo"))
        .args(["tournament", "standings", "--json", "--db", url])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

async fn online_swiss(db: TestDb) {
    let clock = ManualClock::starting_now();
    let addr = spawn(&db, &clock).await;
    let mut td = account(addr, "td", "1d").await;
    let mut players = BTreeMap::new();
    for (i, p) in PLAYERS.iter().enumerate() {
        // Declared ranks from 4d down; hal declares 9d and the director corrects it.
        let rank = if *p == "hal" {
            "9d".to_owned()
        } else {
            format!("{}d", 4 - i.min(3))
        };
        players.insert((*p).to_owned(), account(addr, p, &rank).await);
    }
    // A player cannot create an event; the director can, and a bad agreement is refused with
    // its field.
    let r = td
        .post_text("/api/events", "application/toml", "name = \"x\"\n")
        .await
        .unwrap();
    assert_eq!(r.status, 422, "{:?}", r.body);
    assert!(
        r.body["message"].as_str().unwrap().contains("purpose"),
        "{:?}",
        r.body
    );
    let r = td
        .post_text("/api/events", "application/toml", AGREEMENT)
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{:?}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let mut ev = Event {
        addr,
        id,
        td,
        players,
        clock,
    };
    only_the_director(&mut ev).await;

    // Registration: closed until the director opens it; each player registers themselves.
    let p = ev.path("/register");
    let r = ev.player("ann").post(&p, json!({})).await.unwrap();
    assert_eq!(r.status, 409, "{:?}", r.body);
    let p = ev.path("/registration");
    ok(&mut ev.td, &p, json!({"open": true})).await;
    for name in PLAYERS {
        let p = ev.path("/register");
        ok(ev.player(name), &p, json!({})).await;
    }
    let p = ev.path("/register");
    let r = ev.player("bo").post(&p, json!({})).await.unwrap();
    assert_eq!(r.status, 409, "registered twice: {:?}", r.body);
    let p = ev.path("");
    assert_eq!(get(ev.player("bo"), &p).await["registered"], true);
    assert_eq!(get(&mut ev.td, &p).await["registered"], false);
    assert_eq!(
        get(&mut ev.td, &p).await["agreement"]["tie_breakers"],
        json!(["A1", "A2", "B1", "B2"])
    );
    let pending = ev.view().await["pending"].as_array().unwrap().len();
    assert_eq!(pending, 8);
    // The registrations waiting are the director's to see.
    let p = ev.path("");
    assert_eq!(get(ev.player("cy"), &p).await["pending"], json!([]));
    for name in PLAYERS {
        let rank = (name == "hal").then_some("1d");
        let p = ev.path("/entrants/approve");
        ok(&mut ev.td, &p, json!({"name": name, "rank": rank})).await;
    }
    let p = ev.path("/registration");
    ok(&mut ev.td, &p, json!({"open": false})).await;
    let v = ev.view().await;
    assert_eq!(v["entrants"].as_array().unwrap().len(), 8);
    assert_eq!(v["entrants"][7]["rank"], "1d", "the director's rank: {v}");
    assert_eq!(v["status"], "running");

    // Round 1: everyone but one checks in before the start.
    ev.pair(json!({})).await;
    let r1 = ev.round(1).await;
    assert_eq!(r1.len(), 4, "{r1:?}");
    let absent = r1[3].2.clone();
    for (_, b, w, _) in &r1 {
        for n in [b, w] {
            if *n != absent {
                ev.check_in(n).await;
            }
        }
    }
    let started = ev.start(1).await;
    assert_eq!(
        started["game_ids"].as_array().unwrap().len(),
        3,
        "{started}"
    );
    let r1 = ev.round(1).await;
    let g = |i: usize| r1[i].3.unwrap();
    // The game's settings are the agreement's.
    let p = format!("/api/games/{}", g(0));
    let s = get(&mut ev.td, &p).await;
    assert_eq!(s["size"], 9, "{s}");
    // Board 1 counted, board 2 resigned by White.
    ev.count(&r1[0].1, &r1[0].2, g(0)).await;
    ev.resign(&r1[1].2.clone(), g(1)).await;
    assert_eq!(ev.result(1, 1).await, "B+73");
    assert_eq!(ev.result(1, 2).await, "B+R");
    // Ten minutes and a moment: board 4's White has not arrived: absent, decided by the
    // server's clock.
    ev.clock.advance(MINUTE * 10 + Duration::from_millis(1));
    assert_eq!(ev.result(1, 4).await, "B+F:absence");
    let p = ev.path("/checkin");
    let r = ev.player(&absent).post(&p, json!({})).await.unwrap();
    assert_eq!(r.status, 409, "too late: {:?}", r.body);
    // Ten minutes more: board 3's Black, whose clock has run all along, loses on time.
    ev.clock.advance(MINUTE * 10);
    assert_eq!(ev.result(1, 3).await, "W+T");

    // Round 2, paired by the program: one player arrives two minutes late, charged four.
    ev.pair(json!({})).await;
    let r2 = ev.round(2).await;
    let late = r2[2].1.clone();
    for (_, b, w, _) in &r2 {
        for n in [b, w] {
            if *n != late {
                ev.check_in(n).await;
            }
        }
    }
    let started = ev.start(2).await;
    assert_eq!(
        started["game_ids"].as_array().unwrap().len(),
        3,
        "{started}"
    );
    ev.clock.advance(MINUTE * 2);
    let checked = ev.check_in(&late).await;
    let late_game = checked["game_id"]
        .as_i64()
        .expect("the game starts on arrival");
    let p = format!("/api/games/{late_game}");
    let s = get(&mut ev.td, &p).await;
    assert_eq!(
        s["clocks"]["black"]["main_ms"],
        16 * 60 * 1000,
        "twice the lateness off the basic time: {s}"
    );
    let r2 = ev.round(2).await;
    let g = |i: usize| r2[i].3.unwrap();
    // Board 1: Black takes a move back (悔著); the referee forfeits Black in play.
    ev.play(&r2[0].1.clone(), g(0), "C3").await;
    // No move is taken back by agreement in an event's game: 悔著 there is a forfeit.
    let p = format!("/api/games/{}", g(0));
    assert_eq!(get(&mut ev.td, &p).await["undo_allowed"], false);
    let p = format!("/api/games/{}/undo", g(0));
    let r = ev
        .player(&r2[0].1.clone())
        .post(&p, json!({}))
        .await
        .unwrap();
    assert_eq!(r.status, 403, "{:?}", r.body);
    assert_eq!(r.body["reason"], "undo-not-allowed");
    let p = ev.path("/results");
    ok(
        &mut ev.td,
        &p,
        json!({"round": 2, "board": 1, "result": "W+F:takeback", "reason": "悔著: Black moved the stone at C3"}),
    )
    .await;
    let p = format!("/api/games/{}", g(0));
    assert_eq!(get(&mut ev.td, &p).await["phase"], "ended");
    ev.count(&r2[1].1.clone(), &r2[1].2.clone(), g(1)).await;
    ev.resign(&r2[2].1.clone(), g(2)).await;
    ev.resign(&r2[3].2.clone(), g(3)).await;
    assert_eq!(ev.result(2, 1).await, "W+F:takeback");
    assert_eq!(ev.result(2, 2).await, "B+73");
    assert_eq!(ev.result(2, 3).await, "W+R");
    assert_eq!(ev.result(2, 4).await, "B+R");

    // Round 3, paired by hand by the director: the top boards by the first two rounds.
    let p = ev.path("/standings");
    let table = get(&mut ev.td, &p).await;
    let order: Vec<String> = table
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["player"].as_str().unwrap().to_owned())
        .collect();
    let games: Vec<[&str; 2]> = order
        .chunks(2)
        .map(|c| [c[0].as_str(), c[1].as_str()])
        .collect();
    let paired = ev
        .pair(json!({"games": games, "reason": "the top boards by the standings"}))
        .await;
    assert_eq!(paired[0]["black"], order[0].as_str(), "{paired}");
    let r3 = ev.round(3).await;
    for (_, b, w, _) in &r3 {
        for n in [b, w] {
            ev.check_in(n).await;
        }
    }
    ev.start(3).await;
    let r3 = ev.round(3).await;
    for (_, _, w, gid) in &r3 {
        ev.resign(w, gid.unwrap()).await;
    }
    for b in 1..=4 {
        assert_eq!(ev.result(3, b).await, "B+R");
    }
    // A corrected result, with its reason in the log.
    let p = ev.path("/results");
    let r = ev
        .td
        .post(
            &p,
            json!({"round": 3, "board": 4, "result": "W+R", "reason": "x"}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 409, "no overwrite without change: {:?}", r.body);
    ok(
        &mut ev.td,
        &p,
        json!({"round": 3, "board": 4, "result": "W+R", "change": true, "reason": "the resignation was Black's, recorded on the wrong side"}),
    )
    .await;
    let p = ev.path("/log");
    let log = get(&mut ev.td, &p).await;
    assert!(
        log.as_array()
            .unwrap()
            .iter()
            .any(|e| e["action"] == "change"
                && e["old"] == "B+R"
                && e["new"] == "W+R"
                && e["reason"].as_str().unwrap().contains("wrong side")),
        "{log}"
    );

    // The standings: the API's, the command line's on the same store, and by hand.
    let p = ev.path("/standings");
    let api = get(&mut ev.td, &p).await;
    let cli = cli_standings(&db.url);
    let cli = cli.as_array().unwrap();
    assert_eq!(api.as_array().unwrap().len(), cli.len());
    for (a, c) in api.as_array().unwrap().iter().zip(cli) {
        for (k, v) in c.as_object().unwrap() {
            assert_eq!(&a[k], v, "key {k}: API {a} CLI {c}");
        }
    }
    let rounds = [ev.round(1).await, ev.round(2).await, ev.round(3).await];
    let results = [
        ["B+73", "B+R", "W+T", "B+F:absence"],
        ["W+F:takeback", "B+73", "W+R", "B+R"],
        ["B+R", "B+R", "B+R", "W+R"],
    ];
    let hand = by_hand(&rounds, &results);
    for row in api.as_array().unwrap() {
        let name = row["player"].as_str().unwrap();
        let h = &hand[name];
        for (k, v) in h {
            assert_eq!(row[k.as_str()], json!(v), "{name} {k}: {row}");
        }
    }
    // What leaves the event: the CSV (read back by the command line), the EGF file, every game
    // as one SGF collection, the crosstable; a Swiss has no bracket.
    let (status, csv) = text(&mut ev.td, &format!("/api/events/{id}/export.csv")).await;
    assert_eq!(status, 200);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("results.csv");
    std::fs::write(&file, &csv).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ingo"))
        .args(["tournament", "standings", "--json", "--results"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let from_csv: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(from_csv.as_array().unwrap().len(), 8, "{csv}");
    let (status, egf) = text(&mut ev.td, &format!("/api/events/{id}/export.h")).await;
    assert_eq!(status, 200);
    assert!(egf.contains("; EV[Online cup]"), "{egf}");
    let (status, sgf) = text(&mut ev.td, &format!("/api/events/{id}/games.sgf")).await;
    assert_eq!(status, 200);
    assert_eq!(
        sgf.matches("(;").count(),
        11,
        "every game played on the server: {sgf}"
    );
    let (status, svg) = text(&mut ev.td, &format!("/api/events/{id}/crosstable.svg")).await;
    assert_eq!(status, 200);
    assert!(svg.starts_with("<svg") && svg.contains("ann"), "{svg}");
    let (status, html) = text(&mut ev.td, &format!("/api/events/{id}/crosstable.html")).await;
    assert_eq!(status, 200);
    assert!(html.contains("hal"), "{html}");
    let (status, _) = text(&mut ev.td, &format!("/api/events/{id}/bracket.svg")).await;
    assert_eq!(status, 422);
    let _ = ev.addr;
}

/// The hand computation of the standings' keys from the pairings and results (articles of
/// 計分: 「“主分”乃本人勝一局得一分…敗方對手主分之和為“A1”，勝方對手主分之和為“A2”，敗方對手輔分之和為
/// “B1”，勝方對手輔分之和為“B2”」, with an opponent's auxiliary score A1 + A2).
fn by_hand(
    rounds: &[Vec<Pairing>],
    results: &[[&str; 4]],
) -> BTreeMap<String, BTreeMap<String, u32>> {
    let mut games: Vec<(String, String, bool)> = Vec::new(); // (winner, loser, forfeit)
    for (round, res) in rounds.iter().zip(results) {
        for ((_, b, w, _), r) in round.iter().zip(res) {
            let (winner, loser) = if r.starts_with('B') { (b, w) } else { (w, b) };
            games.push((winner.clone(), loser.clone(), r.contains("+F")));
        }
    }
    let mut main: BTreeMap<&str, u32> = PLAYERS.iter().map(|p| (*p, 0)).collect();
    for (w, _, _) in &games {
        *main.get_mut(w.as_str()).unwrap() += 1;
    }
    let mut out: BTreeMap<String, BTreeMap<String, u32>> = BTreeMap::new();
    for p in PLAYERS {
        let beaten: Vec<&str> = games
            .iter()
            .filter(|g| g.0 == p)
            .map(|g| g.1.as_str())
            .collect();
        let beaten_by: Vec<&str> = games
            .iter()
            .filter(|g| g.1 == p)
            .map(|g| g.0.as_str())
            .collect();
        let a1: u32 = beaten.iter().map(|o| main[o]).sum();
        let a2: u32 = beaten_by.iter().map(|o| main[o]).sum();
        let forfeits = games
            .iter()
            .filter(|g| g.2 && (g.0 == p || g.1 == p))
            .count() as u32;
        let row = out.entry(p.to_owned()).or_default();
        row.insert("main".into(), main[p]);
        row.insert("a1".into(), a1);
        row.insert("a2".into(), a2);
        row.insert("wins".into(), beaten.len() as u32);
        row.insert("losses".into(), beaten_by.len() as u32);
        row.insert("forfeits".into(), forfeits);
    }
    let aux: BTreeMap<String, u32> = out
        .iter()
        .map(|(k, v)| (k.clone(), v["a1"] + v["a2"]))
        .collect();
    for p in PLAYERS {
        let b1: u32 = games.iter().filter(|g| g.0 == p).map(|g| aux[&g.1]).sum();
        let b2: u32 = games.iter().filter(|g| g.1 == p).map(|g| aux[&g.0]).sum();
        let row = out.get_mut(p).unwrap();
        row.insert("b1".into(), b1);
        row.insert("b2".into(), b2);
    }
    out
}

fn bounded(f: impl std::future::Future<Output = ()>) {
    serve_util::runtime().block_on(async {
        tokio::time::timeout(Duration::from_secs(120), f)
            .await
            .expect("the event finished within its time bound");
    });
}

#[test]
fn an_online_swiss_on_sqlite() {
    bounded(async { online_swiss(TestDb::sqlite().await.unwrap()).await });
}

#[test]
fn an_online_swiss_on_postgres() {
    bounded(async {
        online_swiss(
            TestDb::postgres()
                .await
                .expect("a PostgreSQL server (scripts/test starts one)"),
        )
        .await
    });
}

/// A small event of four players, two boards a round, made and started through `addr` (and
/// its players checked in): the event's id, the director's client and the players' clients.
async fn small_event(addr: SocketAddr, rounds: u32) -> (i64, Client, BTreeMap<String, Client>) {
    let mut td = account(addr, "td", "1d").await;
    let mut players = BTreeMap::new();
    for p in &PLAYERS[..4] {
        players.insert((*p).to_owned(), account(addr, p, "1d").await);
    }
    let text = AGREEMENT.replace(
        "format = { kind = \"swiss\", rounds = 3 }",
        &format!("format = {{ kind = \"swiss\", rounds = {rounds} }}"),
    );
    let r = td
        .post_text("/api/events", "application/toml", &text)
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{:?}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    ok(
        &mut td,
        &format!("/api/events/{id}/registration"),
        json!({"open": true}),
    )
    .await;
    for (name, c) in players.iter_mut() {
        ok(c, &format!("/api/events/{id}/register"), json!({})).await;
        ok(
            &mut td,
            &format!("/api/events/{id}/entrants/approve"),
            json!({"name": name}),
        )
        .await;
    }
    (id, td, players)
}

/// The pairings of round `n` of event `id`, as `c` reads them.
async fn pairings(c: &mut Client, id: i64, n: u64) -> Vec<Pairing> {
    let v = get(c, &format!("/api/events/{id}")).await;
    v["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["round"] == n)
        .unwrap_or_else(|| panic!("round {n} in {v}"))["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["board"].as_u64().unwrap(),
                p["black"].as_str().unwrap().to_owned(),
                p["white"].as_str().unwrap_or("").to_owned(),
                p["game_id"].as_i64(),
            )
        })
        .collect()
}

/// The next message of an event socket, within 10 s.
async fn next_change(ws: &mut ingo_server::client::WsStream) -> Value {
    use futures_util::StreamExt;
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message within 10 s")
            .expect("the socket is open")
            .expect("a frame");
        if let ingo_server::client::Message::Text(t) = msg {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

/// Two servers on one PostgreSQL database serve one event: what the director and the players
/// do through either is the event's; a result through one reaches the other's event socket
/// and standings.
async fn two_servers(db: TestDb) {
    let clock = ManualClock::starting_now();
    let a = spawn(&db, &clock).await;
    let b = spawn(&db, &clock).await;
    let (id, mut td, mut players) = small_event(a, 1).await;
    // The director pairs through B, the players check in through B, the round starts on A.
    td.addr = b;
    ok(&mut td, &format!("/api/events/{id}/rounds"), json!({})).await;
    for c in players.values_mut() {
        c.addr = b;
        ok(c, &format!("/api/events/{id}/checkin"), json!({})).await;
    }
    td.addr = a;
    let started = ok(
        &mut td,
        &format!("/api/events/{id}/rounds/1/start"),
        json!({}),
    )
    .await;
    assert_eq!(
        started["game_ids"].as_array().unwrap().len(),
        2,
        "{started}"
    );
    let mut watcher = Client::new(b);
    let mut ws = watcher.event_websocket(id).await.unwrap();
    assert_eq!(next_change(&mut ws).await["type"], "event");
    // White resigns board 1 through A: B's socket is told, B's standings have it.
    let r1 = pairings(&mut td, id, 1).await;
    let white = players.get_mut(&r1[0].2).unwrap();
    white.addr = a;
    let gid = r1[0].3.unwrap();
    let sent = std::time::Instant::now();
    ok(white, &format!("/api/games/{gid}/resign"), json!({})).await;
    let change = next_change(&mut ws).await;
    // Reported, not asserted (a shared machine's timing is noise): the figure of the closing
    // note comes from here.
    eprintln!(
        "a result through one server reached the other's event socket {} ms after it was sent",
        sent.elapsed().as_millis()
    );
    assert_eq!(change["event_id"], id, "{change}");
    let table = get(&mut watcher, &format!("/api/events/{id}/standings")).await;
    let winner = table
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"] == r1[0].1.as_str())
        .unwrap()
        .clone();
    assert_eq!(winner["wins"], 1, "{table}");
    let _ = &mut watcher;
}

#[test]
fn two_servers_on_postgres_serve_one_event() {
    bounded(async {
        two_servers(
            TestDb::postgres()
                .await
                .expect("a PostgreSQL server (scripts/test starts one)"),
        )
        .await
    });
}

mod serve_util;

/// `kill -9` of `ingo serve` during a round: the result committed before stands, once; the
/// game in play goes on after the restart and its result reaches the event once; the next
/// round is paired on both. The server's end of a game and the event's result are one
/// transaction, so no kill can keep one without the other.
#[test]
fn a_killed_server_loses_no_result_and_counts_none_twice() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("event.db").display());
    let start = || {
        let mut serve = serve_util::ingo_serve(dir.path());
        serve
            .args(["--db", &db, "--listen", "127.0.0.1:0", "--director", "td"])
            .env("RUST_LOG", "warn");
        serve_util::spawn(serve)
    };
    let rt = serve_util::runtime();
    let mut server = start();
    let (id, mut td, mut players, r1) = rt.block_on(async {
        let (id, mut td, mut players) = small_event(server.addr, 2).await;
        ok(&mut td, &format!("/api/events/{id}/rounds"), json!({})).await;
        for c in players.values_mut() {
            ok(c, &format!("/api/events/{id}/checkin"), json!({})).await;
        }
        ok(
            &mut td,
            &format!("/api/events/{id}/rounds/1/start"),
            json!({}),
        )
        .await;
        let r1 = pairings(&mut td, id, 1).await;
        // Board 1 ends; board 2 is in play.
        let gid = r1[0].3.unwrap();
        ok(
            players.get_mut(&r1[0].2).unwrap(),
            &format!("/api/games/{gid}/resign"),
            json!({}),
        )
        .await;
        let gid = r1[1].3.unwrap();
        ok(
            players.get_mut(&r1[1].1).unwrap(),
            &format!("/api/games/{gid}/moves"),
            json!({"move": "E5"}),
        )
        .await;
        (id, td, players, r1)
    });
    server.child.kill().unwrap(); // SIGKILL
    server.child.wait().unwrap();
    let again = start();
    rt.block_on(async {
        td.addr = again.addr;
        for c in players.values_mut() {
            c.addr = again.addr;
        }
        let r = pairings(&mut td, id, 1).await;
        assert_eq!(r[0].3, r1[0].3);
        let v = get(&mut td, &format!("/api/events/{id}")).await;
        assert_eq!(v["rounds"][0]["pairings"][0]["result"], "B+R", "{v}");
        // Board 2 goes on where it was and ends.
        let gid = r1[1].3.unwrap();
        ok(
            players.get_mut(&r1[1].2).unwrap(),
            &format!("/api/games/{gid}/moves"),
            json!({"move": "C3"}),
        )
        .await;
        ok(
            players.get_mut(&r1[1].1).unwrap(),
            &format!("/api/games/{gid}/resign"),
            json!({}),
        )
        .await;
        let v = get(&mut td, &format!("/api/events/{id}")).await;
        assert_eq!(v["rounds"][0]["pairings"][1]["result"], "W+R", "{v}");
        let log = get(&mut td, &format!("/api/events/{id}/log")).await;
        for board in [1, 2] {
            let entered = log
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| e["action"] == "result" && e["round"] == 1 && e["board"] == board)
                .count();
            assert_eq!(entered, 1, "board {board} entered once: {log}");
        }
        let table = get(&mut td, &format!("/api/events/{id}/standings")).await;
        let wins: u64 = table
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["wins"].as_u64().unwrap())
            .sum();
        assert_eq!(wins, 2, "{table}");
        ok(&mut td, &format!("/api/events/{id}/rounds"), json!({})).await;
    });
    // The command line reads the same store.
    let cli = cli_standings(&db);
    assert_eq!(cli.as_array().unwrap().len(), 4);
}

/// A program entered by the director (the built-in player) is present at every round's
/// start: its game starts without a check-in, it plays its moves, and its result reaches the
/// event.
#[test]
fn a_program_entrant_is_present_and_plays() {
    bounded(async {
        let db = TestDb::sqlite().await.unwrap();
        let clock = ManualClock::starting_now();
        let addr = spawn(&db, &clock).await;
        let mut td = account(addr, "td", "1d").await;
        let mut people = BTreeMap::new();
        for p in &PLAYERS[..3] {
            people.insert((*p).to_owned(), account(addr, p, "1d").await);
        }
        let text = AGREEMENT.replace("rounds = 3", "rounds = 1");
        let r = td
            .post_text("/api/events", "application/toml", &text)
            .await
            .unwrap();
        let id = r.body["id"].as_i64().unwrap();
        for name in people.keys() {
            ok(
                &mut td,
                &format!("/api/events/{id}/entrants"),
                json!({"name": name}),
            )
            .await;
        }
        let r = people
            .get_mut("ann")
            .unwrap()
            .post(
                &format!("/api/events/{id}/entrants"),
                json!({"builtin": 20}),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 403, "{:?}", r.body);
        ok(
            &mut td,
            &format!("/api/events/{id}/entrants"),
            json!({"builtin": 20, "rank": "1d"}),
        )
        .await;
        let v = get(&mut td, &format!("/api/events/{id}")).await;
        let bot = v["entrants"][3]["name"].as_str().unwrap().to_owned();
        assert!(bot.starts_with("ingo-bot"), "{v}");
        ok(&mut td, &format!("/api/events/{id}/rounds"), json!({})).await;
        for c in people.values_mut() {
            ok(c, &format!("/api/events/{id}/checkin"), json!({})).await;
        }
        let started = ok(
            &mut td,
            &format!("/api/events/{id}/rounds/1/start"),
            json!({}),
        )
        .await;
        assert_eq!(
            started["game_ids"].as_array().unwrap().len(),
            2,
            "{started}"
        );
        let r1 = pairings(&mut td, id, 1).await;
        let (board, black, white, gid) = r1
            .iter()
            .find(|p| p.1 == bot || p.2 == bot)
            .cloned()
            .unwrap();
        let gid = gid.unwrap();
        let person = if black == bot { white } else { black.clone() };
        let c = people.get_mut(&person).unwrap();
        if black != bot {
            ok(c, &format!("/api/games/{gid}/moves"), json!({"move": "E5"})).await;
        }
        // The program answers (woken by the commit, as in any game against it).
        let want = if black == bot { 1 } else { 2 };
        for _ in 0..600 {
            let s = get(c, &format!("/api/games/{gid}")).await;
            if s["moves"].as_array().unwrap().len() >= want {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let s = get(c, &format!("/api/games/{gid}")).await;
        assert!(s["moves"].as_array().unwrap().len() >= want, "{s}");
        ok(c, &format!("/api/games/{gid}/resign"), json!({})).await;
        let v = get(&mut td, &format!("/api/events/{id}")).await;
        let result = v["rounds"][0]["pairings"][board as usize - 1]["result"].clone();
        let expected = if black == bot { "B+R" } else { "W+R" };
        assert_eq!(result, expected, "{v}");
    });
}

/// A pair go event (聯棋): the entrants are pairs of accounts named in the agreement; a member's
/// check-in is the pair's; the round's game seats both pairs, partners moving in turn, and its
/// result reaches the event.
#[test]
fn a_pair_go_event_seats_teams_of_accounts() {
    bounded(async {
        let db = TestDb::sqlite().await.unwrap();
        let clock = ManualClock::starting_now();
        let addr = spawn(&db, &clock).await;
        let mut td = account(addr, "td", "1d").await;
        let mut people = BTreeMap::new();
        for p in &PLAYERS[..4] {
            people.insert((*p).to_owned(), account(addr, p, "1d").await);
        }
        let text = format!(
            "{}entrants = [\n  {{ name = \"North\", kind = \"pair\", members = [{{ name = \"ann\" }}, {{ name = \"bo\" }}] }},\n  {{ name = \"South\", kind = \"pair\", members = [{{ name = \"cy\" }}, {{ name = \"di\" }}] }},\n]\n",
            AGREEMENT.replace("rounds = 3", "rounds = 1")
        );
        let r = td
            .post_text("/api/events", "application/toml", &text)
            .await
            .unwrap();
        assert_eq!(r.status, 201, "{:?}", r.body);
        let id = r.body["id"].as_i64().unwrap();
        ok(&mut td, &format!("/api/events/{id}/rounds"), json!({})).await;
        for p in ["bo", "di"] {
            ok(
                people.get_mut(p).unwrap(),
                &format!("/api/events/{id}/checkin"),
                json!({}),
            )
            .await;
        }
        let started = ok(
            &mut td,
            &format!("/api/events/{id}/rounds/1/start"),
            json!({}),
        )
        .await;
        let gid = started["game_ids"][0].as_i64().expect("the pairs' game");
        let r1 = pairings(&mut td, id, 1).await;
        let (black, white) = (r1[0].1.clone(), r1[0].2.clone());
        let first = |side: &str| if side == "North" { "ann" } else { "cy" };
        let second = |side: &str| if side == "North" { "bo" } else { "di" };
        let s = get(&mut td, &format!("/api/games/{gid}")).await;
        assert_eq!(s["team"]["kind"], "pair", "{s}");
        // B1 moves; then it is W1's turn, and B2 may not move for them.
        ok(
            people.get_mut(first(&black)).unwrap(),
            &format!("/api/games/{gid}/moves"),
            json!({"move": "E5"}),
        )
        .await;
        let r = people
            .get_mut(second(&white))
            .unwrap()
            .post(&format!("/api/games/{gid}/moves"), json!({"move": "C3"}))
            .await
            .unwrap();
        assert_eq!(r.status, 409, "W2 on W1's turn: {:?}", r.body);
        ok(
            people.get_mut(first(&white)).unwrap(),
            &format!("/api/games/{gid}/moves"),
            json!({"move": "C3"}),
        )
        .await;
        ok(
            people.get_mut(second(&black)).unwrap(),
            &format!("/api/games/{gid}/resign"),
            json!({}),
        )
        .await;
        let v = get(&mut td, &format!("/api/events/{id}")).await;
        assert_eq!(v["rounds"][0]["pairings"][0]["result"], "W+R", "{v}");
        let table = get(&mut td, &format!("/api/events/{id}/standings")).await;
        assert_eq!(table[0]["player"], white.as_str(), "{table}");
    });
}
