//! Nobody acts where they don't belong, tried as a user would.

use ingo_server::wall::ManualClock;
use ingo_store::testing::TestDb;
use serde_json::json;

use crate::*;

#[tokio::test]
async fn passwords_are_argon2_and_the_cookie_is_http_only_same_site() {
    bounded(async {
        let app = sqlite().await;
        let mut c = Client::new(app.addr);
        let r = c.register("alice", "correct horse", "2k").await.unwrap();
        assert_eq!(r.status, 201);
        let cookie = r.header("set-cookie").unwrap();
        assert!(cookie.starts_with("ingo_session="), "{cookie}");
        assert!(cookie.contains("HttpOnly"), "{cookie}");
        assert!(cookie.contains("SameSite=Strict"), "{cookie}");
        let row = ingo_store::server::user_by_name(&app.db.store, "alice")
            .await
            .unwrap()
            .unwrap();
        assert!(
            row.password_hash.starts_with("$argon2id$"),
            "{}",
            row.password_hash
        );
        assert!(!row.password_hash.contains("correct horse"));
        // The name is taken once; a weak password and a bad rank are refused.
        let mut d = Client::new(app.addr);
        assert_eq!(
            d.register("alice", "another one", "1d")
                .await
                .unwrap()
                .status,
            409
        );
        assert_eq!(d.register("bob", "short", "1d").await.unwrap().status, 422);
        assert_eq!(
            d.register("bob", "long enough", "12x")
                .await
                .unwrap()
                .status,
            422
        );
        // Log-in: right password works, wrong one is refused.
        assert_eq!(
            d.login("alice", "wrong password").await.unwrap().status,
            401
        );
        let r = d.login("alice", "correct horse").await.unwrap();
        assert_eq!(r.status, 200);
        assert_eq!(d.get("/api/me").await.unwrap().body["name"], "alice");
        // Log-out ends the session.
        assert_eq!(d.post("/api/logout", json!({})).await.unwrap().status, 204);
        assert_eq!(d.get("/api/me").await.unwrap().status, 401);
        // The old token, sent again by hand, opens nothing either.
        let mut replay = Client::new(app.addr);
        replay.session = Some("0".repeat(64));
        assert_eq!(replay.get("/api/me").await.unwrap().status, 401);
    })
    .await;
}

#[tokio::test]
async fn log_in_is_rate_limited() {
    bounded(async {
        // On a clock that moves only when told: the five failures fall in one minute however
        // long the password checks take.
        let clock = ManualClock::starting_now();
        let app = spawn_with_clock(TestDb::sqlite().await.unwrap(), clock.clone().into()).await;
        let _alice = user(&app, "alice", "2k").await;
        let mut m = Client::new(app.addr);
        for _ in 0..5 {
            assert_eq!(m.login("alice", "guess guess").await.unwrap().status, 401);
        }
        // Even the right password is refused for a minute after five failures...
        let r = m.login("alice", "correct horse").await.unwrap();
        assert_eq!(r.status, 429, "{:?}", r.body);
        assert_eq!(r.body["reason"], "rate-limited");
        clock.advance(Duration::from_millis(59_999));
        let r = m.login("alice", "correct horse").await.unwrap();
        assert_eq!(r.status, 429, "{:?}", r.body);
        // ...and accepted once the minute is over.
        clock.advance(Duration::from_millis(1));
        let r = m.login("alice", "correct horse").await.unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
    })
    .await;
}

#[tokio::test]
async fn state_changes_need_the_csrf_token() {
    bounded(async {
        let app = sqlite().await;
        let mut a = user(&app, "alice", "2k").await;
        // The cookie alone, as a forged cross-site form would send it, is not enough.
        let mut forged = a.clone();
        forged.csrf = None;
        let r = forged
            .post("/api/challenges", json!({"size": 9}))
            .await
            .unwrap();
        assert_eq!((r.status, r.body["reason"].as_str()), (403, Some("csrf")));
        forged.csrf = Some("0".repeat(64));
        let r = forged
            .post("/api/challenges", json!({"size": 9}))
            .await
            .unwrap();
        assert_eq!(r.status, 403);
        let r = a.post("/api/challenges", json!({"size": 9})).await.unwrap();
        assert_eq!(r.status, 201);
        // Without a session at all.
        let r = Client::new(app.addr)
            .post("/api/challenges", json!({"size": 9}))
            .await
            .unwrap();
        assert_eq!(r.status, 401);
    })
    .await;
}

#[tokio::test]
async fn nobody_moves_where_they_do_not_belong() {
    bounded(async {
        let app = sqlite().await;
        let mut a = user(&app, "alice", "2k").await;
        let mut c = user(&app, "bob", "2k").await;
        let mut carol = user(&app, "carol", "2k").await;
        // One's own challenge cannot be accepted.
        let r = a.post("/api/challenges", json!({"size": 9})).await.unwrap();
        let cid = r.body["id"].as_i64().unwrap();
        let r = a
            .post(&format!("/api/challenges/{cid}/accept"), json!({}))
            .await
            .unwrap();
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (403, Some("own-challenge"))
        );
        // Only the challenger cancels; a challenge to bob is not carol's to accept or decline.
        let r = c
            .post(&format!("/api/challenges/{cid}/cancel"), json!({}))
            .await
            .unwrap();
        assert_eq!(r.status, 403);
        let r = a
            .post("/api/challenges", json!({"size": 9, "opponent": "bob"}))
            .await
            .unwrap();
        let to_bob = r.body["id"].as_i64().unwrap();
        let r = carol
            .post(&format!("/api/challenges/{to_bob}/accept"), json!({}))
            .await
            .unwrap();
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (403, Some("not-your-challenge"))
        );
        let r = carol
            .post(&format!("/api/challenges/{to_bob}/decline"), json!({}))
            .await
            .unwrap();
        assert_eq!(r.status, 403);
        let r = c
            .post(&format!("/api/challenges/{to_bob}/decline"), json!({}))
            .await
            .unwrap();
        assert_eq!(r.status, 204);
        let r = c
            .post(&format!("/api/challenges/{to_bob}/accept"), json!({}))
            .await
            .unwrap();
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (409, Some("challenge-closed"))
        );
        // The open one becomes a game.
        let r = c
            .post(&format!("/api/challenges/{cid}/accept"), json!({}))
            .await
            .unwrap();
        assert_eq!(r.status, 201);
        let gid = r.body["game_id"].as_i64().unwrap();
        let a_id = id_of(&mut a).await;
        let (mut black, mut white) = if r.body["black"].as_i64() == Some(a_id) {
            (a.clone(), c.clone())
        } else {
            (c.clone(), a.clone())
        };
        // A user who does not play here cannot move, resign or mark stones.
        let r = play(&mut carol, gid, "E5").await;
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (403, Some("not-a-player"))
        );
        let r = carol
            .post(&format!("/api/games/{gid}/resign"), json!({}))
            .await
            .unwrap();
        assert_eq!(r.status, 403);
        // White cannot move for Black, nor out of turn.
        let r = play(&mut white, gid, "E5").await;
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (409, Some("out-of-turn"))
        );
        play_ok(&mut black, gid, "E5").await;
        let r = play(&mut black, gid, "D5").await;
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (409, Some("out-of-turn"))
        );
        // Malformed input is a clear refusal, not a crash.
        let r = play(&mut white, gid, "Z99").await;
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (422, Some("bad-move"))
        );
        let r = play(&mut white, gid, "E5").await;
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (422, Some("occupied"))
        );
        let r = white
            .request(
                "POST",
                &format!("/api/games/{gid}/moves"),
                Some(&json!({"mv": 1})),
            )
            .await
            .unwrap();
        assert!(r.status == 400 || r.status == 422, "{}", r.status);
        assert_eq!(state(&mut black, gid).await["move_count"], 1);
        // An SQL-looking name is only a name.
        let mut x = Client::new(app.addr);
        let r = x.login("alice' OR '1'='1", "x' OR '1'='1").await.unwrap();
        assert_eq!(r.status, 401);
        assert_eq!(x.get("/api/users/alice'--").await.unwrap().status, 404);
    })
    .await;
}

// ---- Strangers and hostile users: bounded memory, fair limits, clean refusals. ----

/// Reads a socket until the server closes it (a Close frame, the end, or an error); `false`
/// if it is still open after 10 s.
async fn closed_by_server(ws: &mut WsStream) -> bool {
    loop {
        match tokio::time::timeout(Duration::from_secs(10), ws.next()).await {
            Err(_) => return false,
            Ok(None | Some(Err(_)) | Some(Ok(Message::Close(_)))) => return true,
            Ok(Some(Ok(_))) => continue,
        }
    }
}

/// A client that connects from another loopback address, as another machine would.
fn from_address(app: &App, ip: &str) -> Client {
    let mut c = Client::new(app.addr);
    c.from = Some(ip.parse().unwrap());
    c
}

#[tokio::test]
async fn log_in_refuses_over_long_and_nul_names_before_keeping_anything() {
    bounded(async {
        let app = sqlite().await;
        let _alice = user(&app, "alice", "2k").await;
        let mut m = Client::new(app.addr);
        let huge = "x".repeat(1 << 20);
        for _ in 0..20 {
            let r = m.login(&huge, "guess guess").await.unwrap();
            assert_eq!(
                (r.status, r.body["reason"].as_str()),
                (422, Some("bad-name"))
            );
        }
        let r = m.login("alice\0", "guess guess").await.unwrap();
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (422, Some("nul-character"))
        );
        let r = m.login("alice", &"p".repeat(1 << 20)).await.unwrap();
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (422, Some("bad-password"))
        );
        // Nothing was kept for any of them; a real attempt keeps its few keys.
        assert_eq!(app.state.login_keys(), 0);
        assert_eq!(m.login("alice", "guess guess").await.unwrap().status, 401);
        // The name from the address, the address, the name, and the budget over all names.
        assert_eq!(app.state.login_keys(), 4);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_wrong_passwords_verify_at_most_the_limit() {
    bounded(async {
        let app = sqlite().await;
        let _alice = user(&app, "alice", "2k").await;
        let tasks: Vec<_> = (0..200)
            .map(|i| {
                let addr = app.addr;
                tokio::spawn(async move {
                    let r = Client::new(addr)
                        .login("alice", &format!("guess number {i}"))
                        .await
                        .unwrap();
                    (r.status, r.header("retry-after").map(str::to_owned))
                })
            })
            .collect();
        let (mut verified, mut waited) = (0, 0);
        for t in tasks {
            match t.await.unwrap() {
                (401, _) => verified += 1,
                (429, Some(after)) => {
                    assert!(after.parse::<u64>().unwrap() >= 1, "{after}");
                    waited += 1;
                }
                other => panic!("{other:?}"),
            }
        }
        eprintln!("verified {verified} of 200 concurrent wrong passwords");
        let limit = Config::default().login_failures_per_minute;
        assert!(
            (1..=limit).contains(&verified),
            "{verified} verified, limit {limit}"
        );
        assert_eq!(verified + waited, 200);
    })
    .await;
}

#[tokio::test]
async fn guesses_from_one_address_lock_out_neither_the_owner_elsewhere_nor_a_neighbour() {
    bounded(async {
        let app = sqlite().await;
        let _alice = user(&app, "alice", "2k").await;
        let _bob = user(&app, "bob", "2k").await;
        let mut attacker = Client::new(app.addr);
        for _ in 0..5 {
            assert_eq!(
                attacker.login("alice", "guess guess").await.unwrap().status,
                401
            );
        }
        // The attacker's address waits, told for how long...
        let r = attacker.login("alice", "guess guess").await.unwrap();
        assert_eq!(r.status, 429, "{:?}", r.body);
        let after: u64 = r.header("retry-after").unwrap().parse().unwrap();
        assert!((1..=60).contains(&after), "{after}");
        // ...while the owner logs in from another address, and a neighbour on the attacker's
        // address logs in to their own account.
        let r = from_address(&app, "127.0.0.2")
            .login("alice", "correct horse")
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
        let r = Client::new(app.addr)
            .login("bob", "correct horse")
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
        // The name in another case is the same name to the limit.
        let r = attacker.login("ALICE", "guess guess").await.unwrap();
        assert_eq!(r.status, 429, "{:?}", r.body);
    })
    .await;
}

#[tokio::test]
async fn failed_log_ins_are_limited_per_address_and_per_account() {
    bounded(async {
        let db = TestDb::sqlite().await.unwrap();
        let app = spawn_configured(db, WallClock::System, |c| {
            c.login_failures_per_address_per_minute = 4;
            c.login_failures_per_account_per_minute = 6;
        })
        .await;
        let _alice = user(&app, "alice", "2k").await;
        // One address spraying names: four failures, then it waits.
        let mut sprayer = from_address(&app, "127.0.0.3");
        for i in 0..4 {
            let r = sprayer.login(&format!("name{i}"), "guess").await.unwrap();
            assert_eq!(r.status, 401, "{:?}", r.body);
        }
        let r = sprayer.login("name9", "guess").await.unwrap();
        assert_eq!(r.status, 429, "{:?}", r.body);
        assert!(r.header("retry-after").is_some());
        // One name guessed from many addresses: six failures, then every address waits.
        for i in 0..6 {
            let r = from_address(&app, &format!("127.0.1.{}", i + 1))
                .login("alice", "guess")
                .await
                .unwrap();
            assert_eq!(r.status, 401, "{:?}", r.body);
        }
        let r = from_address(&app, "127.0.2.1")
            .login("alice", "guess")
            .await
            .unwrap();
        assert_eq!(r.status, 429, "{:?}", r.body);
    })
    .await;
}

#[tokio::test]
async fn a_socket_closes_on_a_message_longer_than_the_longest_chat_line() {
    bounded(async {
        let app = sqlite().await;
        let mut a = user(&app, "alice", "2k").await;
        let mut b = user(&app, "bob", "2k").await;
        let (black, _white, gid) = game_between(&app, &mut a, &mut b, json!({"size": 9})).await;
        let mut ws = black.websocket(gid).await.unwrap();
        assert_eq!(next_json(&mut ws).await["type"], "state");
        // The longest chat line, written as long as JSON can write it (each character outside
        // the Basic Multilingual Plane as two \u escapes): accepted and read back whole.
        let line = "\\ud83d\\ude00".repeat(ingo_server::play::chat::MAX_CHAT_CHARS);
        let text = format!(r#"{{"type": "chat", "channel": "players", "text": "{line}"}}"#);
        assert!(text.len() > 12_000, "{}", text.len());
        ws.send(Message::Text(text.into())).await.unwrap();
        let m = until(&mut ws, |m| m["type"] == "chat").await;
        assert_eq!(
            m["text"].as_str().unwrap().chars().count(),
            ingo_server::play::chat::MAX_CHAT_CHARS
        );
        // 64 KiB: more than any message of the protocol; the server closes the socket.
        let big = json!({"type": "chat", "text": "x".repeat(64 * 1024)});
        ws.send(Message::Text(big.to_string().into()))
            .await
            .unwrap();
        assert!(
            closed_by_server(&mut ws).await,
            "the socket stayed open after a 64 KiB message"
        );
        // An anonymous socket likewise, before anything is parsed.
        let mut anon = Client::new(app.addr).websocket(gid).await.unwrap();
        assert_eq!(next_json(&mut anon).await["type"], "state");
        anon.send(Message::Binary(vec![0u8; 1 << 20].into()))
            .await
            .unwrap();
        assert!(closed_by_server(&mut anon).await);
    })
    .await;
}

#[tokio::test]
async fn connections_per_address_are_capped() {
    bounded(async {
        let db = TestDb::sqlite().await.unwrap();
        let app = spawn_configured(db, WallClock::System, |c| {
            c.max_connections_per_address = 3;
        })
        .await;
        let mut idle = Vec::new();
        for _ in 0..3 {
            idle.push(tokio::net::TcpStream::connect(app.addr).await.unwrap());
        }
        // A fourth from the same address is closed unanswered...
        let r = Client::new(app.addr).get("/api/engines").await;
        assert!(r.is_err(), "{r:?}");
        // ...while another address is served.
        let r = from_address(&app, "127.0.0.2").get("/api/engines").await;
        assert_eq!(r.unwrap().status, 200);
        // Once one closes, the address is served again.
        drop(idle.pop());
        loop {
            match Client::new(app.addr).get("/api/engines").await {
                Ok(r) => {
                    assert_eq!(r.status, 200);
                    break;
                }
                Err(_) => tokio::task::yield_now().await,
            }
        }
    })
    .await;
}

/// A NUL character, wherever a user may write text, is refused with 422.
async fn nul_characters_are_refused(app: App) {
    let mut x = Client::new(app.addr);
    let r = x.register("ali\0ce", "correct horse", "2k").await.unwrap();
    assert_eq!(
        (r.status, r.body["reason"].as_str()),
        (422, Some("nul-character")),
        "{:?}",
        r.body
    );
    let r = x.register("alice", "correct\0horse", "2k").await.unwrap();
    assert_eq!(
        (r.status, r.body["reason"].as_str()),
        (422, Some("nul-character"))
    );
    let r = x.login("ali\0ce", "correct horse").await.unwrap();
    assert_eq!(
        (r.status, r.body["reason"].as_str()),
        (422, Some("nul-character"))
    );
    let r = x.get("/api/users/ali%00ce").await.unwrap();
    assert_eq!(
        (r.status, r.body["reason"].as_str()),
        (422, Some("nul-character"))
    );
    let r = x.get("/api/games/1%00/chat").await.unwrap();
    assert_eq!(r.status, 422, "{:?}", r.body);
    let mut a = user(&app, "alice", "2k").await;
    let mut b = user(&app, "bob", "2k").await;
    let _c = user(&app, "carol", "2k").await;
    let _d = user(&app, "dave", "2k").await;
    for body in [
        json!({"size": 9, "opponent": "bo\0b"}),
        json!({"size": 9, "kind": "pair", "partners": ["carol\0"], "opponents": ["bob", "dave"]}),
        json!({"size": 9, "kind": "pair", "partners": ["carol"], "opponents": ["bob", "\0"]}),
    ] {
        let r = a.post("/api/challenges", body.clone()).await.unwrap();
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (422, Some("nul-character")),
            "{body}: {:?}",
            r.body
        );
    }
    let (black, _white, gid) = game_between(&app, &mut a, &mut b, json!({"size": 9})).await;
    let mut ws = black.websocket(gid).await.unwrap();
    assert_eq!(next_json(&mut ws).await["type"], "state");
    send(&mut ws, json!({"type": "chat", "text": "hello\0there"})).await;
    let m = until(&mut ws, |m| m["type"] == "error").await;
    assert_eq!(m["reason"], "nul-character", "{m}");
    // Nothing was stored, and the server goes on.
    let r = Client::new(app.addr)
        .get(&format!("/api/games/{gid}/chat"))
        .await
        .unwrap();
    assert_eq!(r.body.as_array().map(Vec::len), Some(0), "{:?}", r.body);
}

on_both_databases!(nul_characters_are_refused: nul_characters_are_refused_on_sqlite, nul_characters_are_refused_on_postgres);

/// A storage failure met through the socket is told as over HTTP: without its detail.
async fn the_socket_hides_a_storage_failure(app: App) {
    let mut a = user(&app, "alice", "2k").await;
    let mut b = user(&app, "bob", "2k").await;
    let (black, _white, gid) = game_between(&app, &mut a, &mut b, json!({"size": 9})).await;
    let mut ws = black.websocket(gid).await.unwrap();
    assert_eq!(next_json(&mut ws).await["type"], "state");
    sqlx::query("DROP TABLE server_chat")
        .execute(app.db.store.pool())
        .await
        .unwrap();
    send(&mut ws, json!({"type": "chat", "text": "hello"})).await;
    let m = until(&mut ws, |m| m["type"] == "error").await;
    assert_eq!(m["reason"], "internal", "{m}");
    assert_eq!(
        m["message"],
        ingo_server::http::error::INTERNAL_MESSAGE,
        "{m}"
    );
    assert!(!m.to_string().contains("server_chat"), "{m}");
}

on_both_databases!(the_socket_hides_a_storage_failure: the_socket_hides_a_storage_failure_on_sqlite, the_socket_hides_a_storage_failure_on_postgres);

/// Names are compared folded: reserved in any case or compatibility form, unique without case.
async fn names_are_compared_case_folded_after_nfkc(app: App) {
    let mut x = Client::new(app.addr);
    for reserved in ["Ingo-Bot-1", "ｉｎｇｏ-bot-1000", "INGO-ENGINE-gnugo"] {
        let r = x.register(reserved, "correct horse", "2k").await.unwrap();
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (422, Some("reserved-name")),
            "{reserved}: {:?}",
            r.body
        );
    }
    let _a = user(&app, "alicex", "2k").await;
    for twin in ["AliceX", "ＡｌｉｃｅＸ"] {
        let r = x.register(twin, "correct horse", "2k").await.unwrap();
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (409, Some("name-taken")),
            "{twin}: {:?}",
            r.body
        );
    }
}

on_both_databases!(names_are_compared_case_folded_after_nfkc: names_are_folded_on_sqlite, names_are_folded_on_postgres);

/// Accounts made before names were folded get their folded name when a server starts; the
/// second of two that fold alike keeps its exact name only, and both still log in.
async fn older_accounts_are_folded_at_start(db: TestDb) {
    for (id, name) in [(1, "Bob"), (2, "BOB")] {
        let u = ingo_store::server::UserRow {
            id,
            name: name.into(),
            password_hash: "!".into(),
            rank: "2k".into(),
            created_ms: id,
        };
        assert!(ingo_store::server::create_user(&db.store, &u)
            .await
            .unwrap());
    }
    let app = spawn_on(db).await;
    // The server has started once it answers.
    let mut x = Client::new(app.addr);
    let _ = x.get("/api/engines").await.unwrap();
    let r = x.register("bob", "correct horse", "2k").await.unwrap();
    assert_eq!(
        (r.status, r.body["reason"].as_str()),
        (409, Some("name-taken")),
        "{:?}",
        r.body
    );
    assert_eq!(
        ingo_store::server::users_without_name_key(&app.db.store, 10)
            .await
            .unwrap(),
        vec![(2, "BOB".to_owned())]
    );
}

#[tokio::test]
async fn older_accounts_are_folded_at_start_on_sqlite() {
    bounded(older_accounts_are_folded_at_start(
        TestDb::sqlite().await.unwrap(),
    ))
    .await;
}

#[tokio::test]
async fn older_accounts_are_folded_at_start_on_postgres() {
    bounded(async {
        older_accounts_are_folded_at_start(TestDb::postgres().await.expect("a PostgreSQL server"))
            .await
    })
    .await;
}

/// Expired sessions are deleted at a log-in.
async fn expired_sessions_are_purged(db: TestDb) {
    let clock = ManualClock::starting_now();
    let app = spawn_with_clock(db, clock.clone().into()).await;
    let _alice = user(&app, "alice", "2k").await;
    let mut bob = user(&app, "bob", "2k").await;
    let count = |store: ingo_store::Store| async move {
        use sqlx::Row;
        let row = sqlx::query("SELECT COUNT(*) AS n FROM server_sessions")
            .fetch_one(store.pool())
            .await
            .unwrap();
        row.try_get::<i64, _>("n").unwrap()
    };
    assert_eq!(count(app.db.store.clone()).await, 2);
    clock.advance(Duration::from_millis(
        u64::try_from(Config::default().session_ms).unwrap() + 1,
    ));
    assert_eq!(bob.get("/api/me").await.unwrap().status, 401);
    let r = bob.login("bob", "correct horse").await.unwrap();
    assert_eq!(r.status, 200, "{:?}", r.body);
    // Only the new session is left.
    assert_eq!(count(app.db.store.clone()).await, 1);
}

#[tokio::test]
async fn expired_sessions_are_purged_on_sqlite() {
    bounded(expired_sessions_are_purged(TestDb::sqlite().await.unwrap())).await;
}

#[tokio::test]
async fn expired_sessions_are_purged_on_postgres() {
    bounded(async {
        expired_sessions_are_purged(TestDb::postgres().await.expect("a PostgreSQL server")).await
    })
    .await;
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    bounded(async {
        let app = sqlite().await;
        let mut x = Client::new(app.addr);
        for path in ["/", "/api/me", "/api/engines", "/no/such/page"] {
            let r = x.get(path).await.unwrap();
            assert_eq!(
                r.header("x-content-type-options"),
                Some("nosniff"),
                "{path}"
            );
            assert_eq!(r.header("x-frame-options"), Some("DENY"), "{path}");
            let csp = r.header("content-security-policy").unwrap_or("");
            for part in [
                "default-src 'none'",
                "script-src 'self' 'sha256-",
                "style-src 'self'",
                "img-src 'self' data:",
                "connect-src 'self'",
                "frame-ancestors 'none'",
            ] {
                assert!(csp.contains(part), "{path}: {part} in {csp}");
            }
            assert!(!csp.contains("unsafe"), "{path}: {csp}");
        }
    })
    .await;
}

#[tokio::test]
async fn absurd_time_controls_are_refused() {
    bounded(async {
        let app = sqlite().await;
        let mut a = user(&app, "alice", "2k").await;
        for tc in ["ing-pp:1000000000000000h", "absolute:100000h"] {
            let r = a
                .post("/api/challenges", json!({"size": 9, "time_control": tc}))
                .await
                .unwrap();
            assert_eq!(
                (r.status, r.body["reason"].as_str()),
                (422, Some("bad-time-control")),
                "{tc}: {:?}",
                r.body
            );
            let r = a
                .post(
                    "/api/games/bot",
                    json!({"size": 9, "playouts": 10, "time_control": tc}),
                )
                .await
                .unwrap();
            assert_eq!(r.status, 422, "{tc}: {:?}", r.body);
        }
    })
    .await;
}

/// One user's open challenges are limited, and the error says the limit.
async fn open_challenges_are_limited_per_user(db: TestDb) {
    let app = spawn_configured(db, WallClock::System, |c| {
        c.max_open_challenges_per_user = 2
    })
    .await;
    let mut a = user(&app, "alice", "2k").await;
    let mut b = user(&app, "bob", "2k").await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let r = a.post("/api/challenges", json!({"size": 9})).await.unwrap();
        assert_eq!(r.status, 201, "{:?}", r.body);
        ids.push(r.body["id"].as_i64().unwrap());
    }
    let r = a.post("/api/challenges", json!({"size": 9})).await.unwrap();
    assert_eq!(
        (r.status, r.body["reason"].as_str()),
        (409, Some("too-many-challenges")),
        "{:?}",
        r.body
    );
    assert!(
        r.body["message"].as_str().unwrap().contains("(2)"),
        "{:?}",
        r.body
    );
    // Others are not held up; a cancelled challenge frees its place.
    let r = b.post("/api/challenges", json!({"size": 9})).await.unwrap();
    assert_eq!(r.status, 201, "{:?}", r.body);
    let r = a
        .post(&format!("/api/challenges/{}/cancel", ids[0]), json!({}))
        .await
        .unwrap();
    assert_eq!(r.status, 204, "{:?}", r.body);
    let r = a.post("/api/challenges", json!({"size": 9})).await.unwrap();
    assert_eq!(r.status, 201, "{:?}", r.body);
}

#[tokio::test]
async fn open_challenges_are_limited_per_user_on_sqlite() {
    bounded(open_challenges_are_limited_per_user(
        TestDb::sqlite().await.unwrap(),
    ))
    .await;
}

#[tokio::test]
async fn open_challenges_are_limited_per_user_on_postgres() {
    bounded(async {
        open_challenges_are_limited_per_user(TestDb::postgres().await.expect("a PostgreSQL server"))
            .await
    })
    .await;
}

/// One user's running games against the built-in player and against the engines are limited.
async fn games_against_programs_are_limited_per_user(db: TestDb) {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../referee/tests/engines/fake_engine.py")
        .canonicalize()
        .unwrap();
    let mut engine = ingo_server::engine::EngineConfig::new(
        "fake",
        vec!["python3".into(), script.display().to_string()],
    )
    .unwrap();
    engine.max_games = 3;
    let app = spawn_configured(db, WallClock::System, move |c| {
        c.max_bot_games_per_user = 1;
        c.max_engine_games_per_user = 1;
        c.engines = vec![engine];
    })
    .await;
    let mut a = user(&app, "alice", "2k").await;
    let bot = json!({"size": 9, "playouts": 10, "color": "black"});
    let r = a.post("/api/games/bot", bot.clone()).await.unwrap();
    assert_eq!(r.status, 201, "{:?}", r.body);
    let first = r.body["game_id"].as_i64().unwrap();
    let r = a.post("/api/games/bot", bot.clone()).await.unwrap();
    assert_eq!(
        (r.status, r.body["reason"].as_str()),
        (409, Some("too-many-bot-games")),
        "{:?}",
        r.body
    );
    assert!(
        r.body["message"].as_str().unwrap().contains("(1)"),
        "{:?}",
        r.body
    );
    // The engine's limit is its own.
    let eng = json!({"engine": "fake", "size": 9, "color": "black"});
    let r = a.post("/api/games/engine", eng.clone()).await.unwrap();
    assert_eq!(r.status, 201, "{:?}", r.body);
    let r = a.post("/api/games/engine", eng.clone()).await.unwrap();
    assert_eq!(
        (r.status, r.body["reason"].as_str()),
        (409, Some("too-many-engine-games")),
        "{:?}",
        r.body
    );
    // Another user is not held up; a finished game frees its place.
    let mut b = user(&app, "bob", "2k").await;
    let r = b.post("/api/games/engine", eng).await.unwrap();
    assert_eq!(r.status, 201, "{:?}", r.body);
    let r = a
        .post(&format!("/api/games/{first}/resign"), json!({}))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{:?}", r.body);
    let r = a.post("/api/games/bot", bot).await.unwrap();
    assert_eq!(r.status, 201, "{:?}", r.body);
}

#[tokio::test]
async fn games_against_programs_are_limited_per_user_on_sqlite() {
    bounded(games_against_programs_are_limited_per_user(
        TestDb::sqlite().await.unwrap(),
    ))
    .await;
}

#[tokio::test]
async fn games_against_programs_are_limited_per_user_on_postgres() {
    bounded(async {
        games_against_programs_are_limited_per_user(
            TestDb::postgres().await.expect("a PostgreSQL server"),
        )
        .await
    })
    .await;
}

#[tokio::test]
async fn chat_lines_are_limited_per_minute() {
    bounded(async {
        let clock = ManualClock::starting_now();
        let db = TestDb::sqlite().await.unwrap();
        let app = spawn_configured(db, clock.clone().into(), |c| c.chat_lines_per_minute = 3).await;
        let mut a = user(&app, "alice", "2k").await;
        let mut b = user(&app, "bob", "2k").await;
        let (black, _white, gid) = game_between(&app, &mut a, &mut b, json!({"size": 9})).await;
        let mut ws = black.websocket(gid).await.unwrap();
        assert_eq!(next_json(&mut ws).await["type"], "state");
        for i in 0..3 {
            send(
                &mut ws,
                json!({"type": "chat", "text": format!("line {i}")}),
            )
            .await;
            let m = until(&mut ws, |m| m["type"] == "chat").await;
            assert_eq!(m["text"], format!("line {i}"));
        }
        send(&mut ws, json!({"type": "chat", "text": "one too many"})).await;
        let m = until(&mut ws, |m| m["type"] == "error").await;
        assert_eq!(m["reason"], "chat-rate", "{m}");
        assert!(
            m["message"].as_str().unwrap().contains("3 chat lines"),
            "{m}"
        );
        clock.advance(Duration::from_secs(60));
        send(&mut ws, json!({"type": "chat", "text": "a minute later"})).await;
        let m = until(&mut ws, |m| m["type"] != "state").await;
        assert_eq!(
            (m["type"].as_str(), m["text"].as_str()),
            (Some("chat"), Some("a minute later")),
            "{m}"
        );
    })
    .await;
}
