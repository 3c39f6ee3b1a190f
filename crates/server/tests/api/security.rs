//! Nobody acts where they don't belong (issue 13, item 9), tried as a user would.

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
        let a_id = a.get("/api/me").await.unwrap().body["id"].as_i64().unwrap();
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
