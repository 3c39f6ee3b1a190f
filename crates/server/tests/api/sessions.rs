//! An account's sessions: several at once (several devices), listed to their owner, ended one
//! by one, all the others, or all; a log-in or a password change may end the others.

use ingo_server::wall::ManualClock;
use ingo_store::testing::TestDb;
use serde_json::json;

use crate::*;

/// A client that connects from another loopback address, as another machine would.
fn from_address(app: &App, ip: &str) -> Client {
    let mut c = Client::new(app.addr);
    c.from = Some(ip.parse().unwrap());
    c
}

async fn logged_in(app: &App, ip: &str, name: &str) -> Client {
    let mut c = from_address(app, ip);
    let r = c.login(name, "correct horse").await.unwrap();
    assert_eq!(r.status, 200, "{:?}", r.body);
    c
}

async fn status_of_me(c: &mut Client) -> u16 {
    c.get("/api/me").await.unwrap().status
}

/// Listed with when and where, ended one by one or all the others, and never another's.
async fn sessions_are_listed_and_ended_by_their_owner(db: TestDb) {
    let clock = ManualClock::starting_now();
    let app = spawn_with_clock(db, clock.clone().into()).await;
    let mut a = user(&app, "alice", "2k").await;
    let mut bob = user(&app, "bob", "2k").await;
    let mut b = logged_in(&app, "127.0.0.2", "alice").await;
    let mut c = logged_in(&app, "127.0.0.3", "alice").await;
    // A new log-in leaves the older sessions valid.
    assert_eq!(status_of_me(&mut a).await, 200);
    // Used two minutes later: its last use is kept.
    clock.advance(Duration::from_millis(120_000));
    assert_eq!(status_of_me(&mut b).await, 200);
    let r = a.get("/api/sessions").await.unwrap();
    assert_eq!(r.status, 200, "{:?}", r.body);
    let list = r.body.as_array().unwrap().clone();
    assert_eq!(list.len(), 3, "{list:?}");
    assert_eq!(list.iter().filter(|s| s["current"] == true).count(), 1);
    let of = |ip: &str| {
        list.iter()
            .find(|s| s["address"] == ip)
            .unwrap_or_else(|| panic!("no session from {ip}: {list:?}"))
            .clone()
    };
    let (sb, sc) = (of("127.0.0.2"), of("127.0.0.3"));
    assert!(
        sb["last_seen_ms"].as_i64().unwrap() >= sb["created_ms"].as_i64().unwrap() + 120_000,
        "{sb:?}"
    );
    assert_eq!(sc["last_seen_ms"], sc["created_ms"], "{sc:?}");
    // The most recently used first (this request's and b's, then c's).
    assert_eq!(list[2]["id"], sc["id"], "{list:?}");
    // Another account sees none of them and ends none.
    let r = bob.get("/api/sessions").await.unwrap();
    assert_eq!(r.body.as_array().unwrap().len(), 1, "{:?}", r.body);
    let r = bob
        .post(
            &format!("/api/sessions/{}/revoke", sb["id"].as_str().unwrap()),
            json!({}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 404, "{:?}", r.body);
    assert_eq!(status_of_me(&mut b).await, 200);
    // Ending needs the CSRF token, as every change does.
    let mut forged = a.clone();
    forged.csrf = None;
    let r = forged
        .post(
            &format!("/api/sessions/{}/revoke", sb["id"].as_str().unwrap()),
            json!({}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 403, "{:?}", r.body);
    // The owner ends one...
    let r = a
        .post(
            &format!("/api/sessions/{}/revoke", sb["id"].as_str().unwrap()),
            json!({}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 204, "{:?}", r.body);
    assert_eq!(status_of_me(&mut b).await, 401);
    assert_eq!(status_of_me(&mut c).await, 200);
    // ...or every other one.
    let r = c.post("/api/sessions/revoke", json!({})).await.unwrap();
    assert_eq!(
        (r.status, &r.body["ended"]),
        (200, &json!(1)),
        "{:?}",
        r.body
    );
    assert_eq!(status_of_me(&mut a).await, 401);
    assert_eq!(status_of_me(&mut c).await, 200);
    assert_eq!(status_of_me(&mut bob).await, 200);
}

#[tokio::test]
async fn sessions_are_listed_and_ended_by_their_owner_on_sqlite() {
    bounded(sessions_are_listed_and_ended_by_their_owner(
        TestDb::sqlite().await.unwrap(),
    ))
    .await;
}

#[tokio::test]
async fn sessions_are_listed_and_ended_by_their_owner_on_postgres() {
    bounded(async {
        sessions_are_listed_and_ended_by_their_owner(
            TestDb::postgres().await.expect("a PostgreSQL server"),
        )
        .await
    })
    .await;
}

/// A log-in may end the others; logging out everywhere ends every one.
async fn a_log_in_or_a_log_out_everywhere_ends_the_other_sessions(app: App) {
    let mut a = user(&app, "alice", "2k").await;
    let mut bob = user(&app, "bob", "2k").await;
    let mut b = logged_in(&app, "127.0.0.2", "alice").await;
    let mut c = from_address(&app, "127.0.0.3");
    let r = c
        .post(
            "/api/login",
            json!({"name": "alice", "password": "correct horse", "end_other_sessions": true}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(status_of_me(&mut a).await, 401);
    assert_eq!(status_of_me(&mut b).await, 401);
    assert_eq!(status_of_me(&mut c).await, 200);
    let mut d = logged_in(&app, "127.0.0.4", "alice").await;
    let r = d.post("/api/logout?all=1", json!({})).await.unwrap();
    assert_eq!(r.status, 204, "{:?}", r.body);
    assert_eq!(status_of_me(&mut c).await, 401);
    assert_eq!(status_of_me(&mut d).await, 401);
    assert_eq!(status_of_me(&mut bob).await, 200);
}

on_both_databases!(
    a_log_in_or_a_log_out_everywhere_ends_the_other_sessions:
        a_log_in_or_a_log_out_everywhere_ends_the_other_sessions_on_sqlite,
        a_log_in_or_a_log_out_everywhere_ends_the_other_sessions_on_postgres
);

/// A password change needs the old password and ends every other session.
async fn a_password_change_ends_every_other_session(app: App) {
    let mut a = user(&app, "alice", "2k").await;
    let mut b = logged_in(&app, "127.0.0.2", "alice").await;
    let r = a
        .post(
            "/api/password",
            json!({"password": "guess guess", "new_password": "battery staple"}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 401, "{:?}", r.body);
    assert_eq!(status_of_me(&mut b).await, 200);
    let r = a
        .post(
            "/api/password",
            json!({"password": "correct horse", "new_password": "short"}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 422, "{:?}", r.body);
    let r = a
        .post(
            "/api/password",
            json!({"password": "correct horse", "new_password": "battery staple"}),
        )
        .await
        .unwrap();
    assert_eq!(
        (r.status, &r.body["ended"]),
        (200, &json!(1)),
        "{:?}",
        r.body
    );
    assert_eq!(status_of_me(&mut b).await, 401);
    assert_eq!(status_of_me(&mut a).await, 200);
    let mut x = from_address(&app, "127.0.0.5");
    assert_eq!(x.login("alice", "correct horse").await.unwrap().status, 401);
    assert_eq!(
        x.login("alice", "battery staple").await.unwrap().status,
        200
    );
}

on_both_databases!(
    a_password_change_ends_every_other_session:
        a_password_change_ends_every_other_session_on_sqlite,
        a_password_change_ends_every_other_session_on_postgres
);
