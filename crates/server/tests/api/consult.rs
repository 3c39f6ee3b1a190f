//! Consultation (商談聯棋) with an agreement step: a member's move is a proposal shown to the
//! side only; the move is played through the ordinary play path once the side agrees (every
//! member by default, or a majority); resignation is agreed the same way; proposals survive a
//! restart; the other side, spectators and strangers never see them, over HTTP or WebSocket.

use ingo_server::client::{Client, WsStream};
use serde_json::{json, Value};

use crate::pair::{team_game, Teams};
use crate::*;

async fn propose(t: &mut Teams, name: &str, mv: &str) -> ingo_server::client::Reply {
    let gid = t.gid;
    play(t.get(name), gid, mv).await
}

async fn agree(t: &mut Teams, name: &str, mv: &str) -> ingo_server::client::Reply {
    let gid = t.gid;
    t.get(name)
        .post(
            &format!("/api/games/{gid}/proposals/accept"),
            json!({"move": mv}),
        )
        .await
        .unwrap()
}

/// The proposals of a reply or state as `[(move, [names])]`.
fn proposals(p: &Value) -> Vec<(String, Vec<String>)> {
    p["proposals"]
        .as_array()
        .unwrap_or_else(|| panic!("no proposals in {p}"))
        .iter()
        .map(|x| {
            let by = x["by"].as_array().unwrap();
            (
                x["move"].as_str().unwrap().to_owned(),
                by.iter().map(|n| n.as_str().unwrap().to_owned()).collect(),
            )
        })
        .collect()
}

fn p(mv: &str, by: &[&str]) -> (String, Vec<String>) {
    (mv.to_owned(), by.iter().map(|s| s.to_string()).collect())
}

async fn first_state(c: &Client, gid: i64) -> (WsStream, Value) {
    let mut ws = c.websocket(gid).await.unwrap();
    let first = next_json(&mut ws).await;
    assert_eq!(first["type"], "state");
    (ws, first)
}

/// Reads a socket up to the `move` event of move `number`; panics on anything that shows
/// Black's proposals on the way.
async fn no_black_proposals_until_move(ws: &mut WsStream, number: i64) {
    loop {
        let v = next_json(ws).await;
        let text = v.to_string();
        let blacks = v["type"] == "proposals" && v["channel"] == "black";
        assert!(
            !blacks && !text.contains("\"by\":[\"ann"),
            "read Black's proposals: {v}"
        );
        if v["type"] == "move" && v["number"] == number {
            return;
        }
    }
}

/// Black (ann, ben, cat: the weaker side by ranks) against White (dan, fay), every member
/// agreeing (the default): proposals, disagreement, agreement, refusals, privacy, resignation
/// agreed, and proposals kept across a restart.
async fn every_member_agrees(app: App) {
    let mut t = team_game(
        &app,
        "consultation",
        &[
            ("ann", "1d"),
            ("ben", "1d"),
            ("cat", "1d"),
            ("dan", "2d"),
            ("fay", "2d"),
        ],
        2,
        json!({"handicap": "ranks"}),
    )
    .await;
    let gid = t.gid;
    assert_eq!(t.black, vec!["ann", "ben", "cat"]);
    assert_eq!(t.white, vec!["dan", "fay"]);
    let mut eve = user(&app, "eve", "1k").await;
    let anonymous = Client::new(app.addr);
    let s = state(&mut eve, gid).await;
    assert_eq!(s["team"]["agreement"], "all");
    assert!(s.get("proposals").is_none(), "{s}");

    let (mut ws_ben, first) = first_state(t.get("ben"), gid).await;
    assert_eq!(first["game"]["proposals"]["needed"], 3);
    assert_eq!(proposals(&first["game"]["proposals"]), vec![]);
    let (mut ws_dan, first) = first_state(t.get("dan"), gid).await;
    assert_eq!(first["game"]["proposals"]["color"], "W");
    let (mut ws_eve, first) = first_state(&eve, gid).await;
    assert!(first["game"].get("proposals").is_none());
    let (mut ws_anon, _) = first_state(&anonymous, gid).await;
    // A member's socket without the CSRF token reads as a spectator.
    let mut ben_no_token = t.get("ben").clone();
    ben_no_token.csrf = None;
    let (mut ws_ben_ro, first) = first_state(&ben_no_token, gid).await;
    assert!(first["game"].get("proposals").is_none());

    // ann proposes E5: stored, not played; Black's clock keeps running.
    let r = propose(&mut t, "ann", "E5").await;
    assert_eq!(r.status, 202, "{:?}", r.body);
    assert_eq!(r.body["proposed"], true);
    assert_eq!(proposals(&r.body["proposals"]), vec![p("E5", &["ann"])]);
    assert_eq!(r.body["proposals"]["number"], 1);
    let ev = until(&mut ws_ben, |v| v["type"] == "proposals").await;
    assert_eq!(ev["channel"], "black");
    assert_eq!(proposals(&ev["proposals"]), vec![p("E5", &["ann"])]);
    let s = state(&mut eve, gid).await;
    assert_eq!(s["move_count"], 0);
    assert_eq!(s["clocks"]["black"]["running"], true);
    // The other side, a stranger and a bad point are refused by the ordinary path.
    let r = propose(&mut t, "dan", "C3").await;
    assert_eq!(
        (r.status, r.body["reason"].as_str()),
        (409, Some("out-of-turn"))
    );
    let r = play(&mut eve, gid, "C3").await;
    assert_eq!(
        (r.status, r.body["reason"].as_str()),
        (403, Some("not-a-player"))
    );
    for bad in ["Z99", "resign"] {
        // Resigning is proposed at the resignation route, not as a move.
        let r = propose(&mut t, "ben", bad).await;
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (422, Some("bad-move")),
            "{bad}"
        );
    }
    // Disagreement: ben proposes C3 (over his socket); cat agrees to ann's E5; each member
    // holds one proposal.
    send(
        &mut ws_ben,
        json!({"type": "move", "move": "C3", "number": 1}),
    )
    .await;
    let r = until(&mut ws_ben, |v| {
        v["type"] == "proposed" || v["type"] == "error"
    })
    .await;
    assert_eq!(r["type"], "proposed", "{r}");
    assert_eq!(
        proposals(&r["proposals"]),
        vec![p("E5", &["ann"]), p("C3", &["ben"])]
    );
    let r = agree(&mut t, "cat", "E5").await;
    assert_eq!(r.status, 202, "{:?}", r.body);
    assert_eq!(
        proposals(&r.body["proposals"]),
        vec![p("E5", &["ann", "cat"]), p("C3", &["ben"])]
    );
    // Accepting what nobody else proposes is refused; so is a stranger's or the other side's.
    for (who, mv, status, reason) in [
        ("ben", "G7", 409, "no-such-proposal"),
        ("ben", "C3", 409, "no-such-proposal"),
        ("dan", "E5", 409, "no-such-proposal"),
    ] {
        let r = agree(&mut t, who, mv).await;
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (status, Some(reason)),
            "{who} {mv}: {:?}",
            r.body
        );
    }
    let r = eve
        .post(
            &format!("/api/games/{gid}/proposals/accept"),
            json!({"move": "E5"}),
        )
        .await
        .unwrap();
    assert_eq!(
        (r.status, r.body["reason"].as_str()),
        (403, Some("not-a-member"))
    );
    // Privacy over HTTP: the side's members read the proposals; nobody else does.
    let r = t
        .get("ben")
        .get(&format!("/api/games/{gid}"))
        .await
        .unwrap();
    assert_eq!(
        proposals(&r.body["proposals"]),
        vec![p("E5", &["ann", "cat"]), p("C3", &["ben"])]
    );
    let r = t
        .get("dan")
        .get(&format!("/api/games/{gid}/proposals"))
        .await
        .unwrap();
    assert_eq!((r.status, r.body["color"].as_str()), (200, Some("W")));
    assert_eq!(proposals(&r.body), vec![]);
    let r = t
        .get("dan")
        .get(&format!("/api/games/{gid}"))
        .await
        .unwrap();
    assert_eq!(proposals(&r.body["proposals"]), vec![]);
    assert!(
        !r.text.contains("C3") && !r.text.contains("E5"),
        "{}",
        r.text
    );
    let mut anon = anonymous.clone();
    for (c, status) in [(&mut eve, 403), (&mut anon, 401)] {
        let r = c.get(&format!("/api/games/{gid}/proposals")).await.unwrap();
        assert_eq!(r.status, status, "{:?}", r.body);
        for path in [
            format!("/api/games/{gid}"),
            format!("/api/games/{gid}/sgf"),
            format!("/api/games/{gid}/chat"),
            "/api/games".to_owned(),
        ] {
            let r = c.get(&path).await.unwrap();
            assert!(
                !r.text.contains("proposals") && !r.text.contains("C3"),
                "{path}: {}",
                r.text
            );
        }
    }

    // ben changes his mind: his C3 is replaced, and the side has agreed: E5 is played.
    let r = propose(&mut t, "ben", "E5").await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(
        (r.body["number"].as_i64(), r.body["move"].as_str()),
        (Some(1), Some("E5"))
    );
    assert_eq!(r.body["agreed_by"], json!(["ann", "cat", "ben"]));
    let s = state(&mut eve, gid).await;
    assert_eq!(s["move_count"], 1);
    assert_eq!(s["to_move"], "W");
    // Nobody outside Black read any of it; Black's members saw the proposals cleared.
    for ws in [&mut ws_dan, &mut ws_eve, &mut ws_anon, &mut ws_ben_ro] {
        no_black_proposals_until_move(ws, 1).await;
    }
    let ev = until(&mut ws_ben, |v| {
        v["type"] == "proposals" && v["proposals"]["number"] == 2
    })
    .await;
    assert_eq!(proposals(&ev["proposals"]), vec![]);

    // White: an illegal proposal is refused with the rules' reason at once; withdrawal.
    let r = propose(&mut t, "dan", "E5").await;
    assert_eq!(r.status, 422, "{:?}", r.body);
    assert!(r.body["message"].is_string());
    assert_eq!(propose(&mut t, "dan", "C3").await.status, 202);
    let r = t
        .get("dan")
        .post(&format!("/api/games/{gid}/proposals/withdraw"), json!({}))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(proposals(&r.body), vec![]);
    let ev = until(&mut ws_dan, |v| {
        v["type"] == "proposals" && v["proposals"]["proposals"] == json!([])
    })
    .await;
    assert_eq!(ev["channel"], "white");
    assert_eq!(propose(&mut t, "fay", "G7").await.status, 202);
    let r = propose(&mut t, "dan", "G7").await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(r.body["agreed_by"], json!(["fay", "dan"]));
    // Black's socket never saw White's proposals.
    loop {
        let v = next_json(&mut ws_ben).await;
        assert!(v["channel"] != "white", "{v}");
        if v["type"] == "move" && v["number"] == 2 {
            break;
        }
    }

    // Resignation needs the side's agreement too; proposals survive a restart.
    let r = t
        .get("ann")
        .post(&format!("/api/games/{gid}/resign"), json!({}))
        .await
        .unwrap();
    assert_eq!(r.status, 202, "{:?}", r.body);
    assert_eq!(proposals(&r.body["proposals"]), vec![p("resign", &["ann"])]);
    assert_eq!(propose(&mut t, "ben", "D4").await.status, 202);
    let other = spawn_on_store(&app).await;
    let mut ben2 = t.get("ben").clone();
    ben2.addr = other;
    let mut cat2 = t.get("cat").clone();
    cat2.addr = other;
    let s = state(&mut ben2, gid).await;
    assert_eq!(s["phase"], "playing");
    assert_eq!(
        proposals(&s["proposals"]),
        vec![p("resign", &["ann"]), p("D4", &["ben"])]
    );
    // With PostgreSQL, a proposal made through the other server reaches this one's sockets.
    let postgres = app.db.url.starts_with("postgres");
    let mut ws_ann = if postgres {
        Some(first_state(t.get("ann"), gid).await.0)
    } else {
        None
    };
    let r = cat2
        .post(&format!("/api/games/{gid}/resign"), json!({}))
        .await
        .unwrap();
    assert_eq!(r.status, 202, "{:?}", r.body);
    if let Some(ws) = ws_ann.as_mut() {
        let ev = until(ws, |v| v["type"] == "proposals").await;
        assert_eq!(
            proposals(&ev["proposals"]),
            vec![p("resign", &["ann", "cat"]), p("D4", &["ben"])]
        );
    }
    let r = ben2
        .post(
            &format!("/api/games/{gid}/proposals/accept"),
            json!({"move": "resign"}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(r.body["result"]["result"], "W+R");
    assert_eq!(r.body["agreed_by"], json!(["ann", "cat", "ben"]));
    let s = state(&mut ben2, gid).await;
    assert_eq!(s["phase"], "ended");
}

on_both_databases!(every_member_agrees: every_member_agrees_on_sqlite, every_member_agrees_on_postgres);

/// A majority: two of three agree and the move is played; the challenge says how it agrees.
#[tokio::test]
async fn a_majority_agrees() {
    bounded(async {
        let app = sqlite().await;
        let mut t = team_game(
            &app,
            "consultation",
            &[
                ("ann", "1d"),
                ("ben", "1d"),
                ("cat", "1d"),
                ("dan", "2d"),
                ("fay", "2d"),
            ],
            2,
            json!({"handicap": "ranks", "agreement": "majority"}),
        )
        .await;
        let gid = t.gid;
        let s = state(t.get("ann"), gid).await;
        assert_eq!(s["team"]["agreement"], "majority");
        assert_eq!(s["proposals"]["needed"], 2);
        assert_eq!(propose(&mut t, "ann", "E5").await.status, 202);
        assert_eq!(propose(&mut t, "cat", "C3").await.status, 202);
        let r = agree(&mut t, "ben", "C3").await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        assert_eq!(r.body["move"], "C3");
        // Two of two for White.
        let s = state(t.get("dan"), gid).await;
        assert_eq!(s["proposals"]["needed"], 2);
        assert_eq!(propose(&mut t, "dan", "G7").await.status, 202);
        assert_eq!(propose(&mut t, "fay", "G7").await.status, 200);
        // A lapsed proposal: ann's E5 was for move 1.
        let s = state(t.get("ben"), gid).await;
        assert_eq!(
            (
                s["proposals"]["number"].as_i64(),
                proposals(&s["proposals"])
            ),
            (Some(3), vec![])
        );
        // Passes are agreed like moves; the dead-stone step is not voted: one member a side.
        assert_eq!(propose(&mut t, "ann", "pass").await.status, 202);
        assert_eq!(propose(&mut t, "cat", "pass").await.status, 200);
        assert_eq!(propose(&mut t, "fay", "pass").await.status, 202);
        let r = agree(&mut t, "dan", "pass").await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        assert_eq!(r.body["phase"], "suspended");
        let s = state(t.get("ben"), gid).await;
        let dead = s["dead_stones"]["proposal"].clone();
        for (who, ended) in [("ben", "suspended"), ("fay", "ended")] {
            let r = t
                .get(who)
                .post(
                    &format!("/api/games/{gid}/dead/accept"),
                    json!({"dead": dead}),
                )
                .await
                .unwrap();
            assert_eq!(
                (r.status, r.body["phase"].as_str()),
                (200, Some(ended)),
                "{:?}",
                r.body
            );
        }
        // After the end, nothing is proposed.
        let r = t
            .get("ann")
            .post(&format!("/api/games/{gid}/resign"), json!({}))
            .await
            .unwrap();
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (409, Some("game-over"))
        );
    })
    .await;
}

/// The agreement is consultation's: refused on other challenges and for unknown names; a
/// consultation challenge shows it (every member by default), and `any` plays at once.
#[tokio::test]
async fn agreement_is_chosen_by_the_challenge() {
    bounded(async {
        let app = sqlite().await;
        let mut ann = user(&app, "ann", "1d").await;
        for n in ["ben", "cat", "dan"] {
            user(&app, n, "1d").await;
        }
        for (body, reason) in [
            (json!({"kind": "pair", "partners": ["ben"], "opponents": ["cat", "dan"], "agreement": "all"}), "bad-agreement"),
            (json!({"kind": "consultation", "partners": ["ben"], "opponents": ["cat", "dan"], "agreement": "most"}), "bad-agreement"),
            (json!({"agreement": "all"}), "bad-team"),
        ] {
            let r = ann.post("/api/challenges", body.clone()).await.unwrap();
            assert_eq!((r.status, r.body["reason"].as_str()), (422, Some(reason)), "{body}: {:?}", r.body);
        }
        let r = ann
            .post("/api/challenges", json!({"kind": "consultation", "partners": ["ben"], "opponents": ["cat", "dan"]}))
            .await
            .unwrap();
        assert_eq!((r.status, r.body["agreement"].as_str()), (201, Some("all")), "{:?}", r.body);
        let r = ann
            .post("/api/challenges", json!({"kind": "pair", "partners": ["ben"], "opponents": ["cat", "dan"]}))
            .await
            .unwrap();
        assert_eq!(r.body["agreement"], Value::Null);

        let app = sqlite().await;
        let mut t = team_game(
            &app,
            "consultation",
            &[("ann", "1d"), ("ben", "1d"), ("cat", "2d"), ("dan", "2d")],
            1,
            json!({"handicap": "ranks", "agreement": "any"}),
        )
        .await;
        let gid = t.gid;
        let s = state(t.get("ann"), gid).await;
        assert_eq!(s["team"]["agreement"], "any");
        assert!(s.get("proposals").is_none());
        assert_eq!(propose(&mut t, "ben", "E5").await.status, 200);
        let r = t.get("cat").get(&format!("/api/games/{gid}/proposals")).await.unwrap();
        assert_eq!((r.status, r.body["reason"].as_str()), (409, Some("no-agreement-step")));
    })
    .await;
}
