//! The WebSocket of a game: full state on connection, then every move, suspension and result;
//! moves over the socket; players' and spectators' chats kept apart.

use serde_json::json;

use crate::*;

async fn live_updates(app: App) {
    let mut a = user(&app, "alice", "1d").await;
    let mut c = user(&app, "bob", "1d").await;
    let (mut b, w, gid) = game_between(&app, &mut a, &mut c, json!({"size": 9})).await;
    let spectator = user(&app, "sam", "5k").await;
    let mut spec = spectator.websocket(gid).await.unwrap();
    let first = next_json(&mut spec).await;
    assert_eq!(first["type"], "state");
    assert_eq!(first["game"]["id"], gid);
    let mut wws = w.websocket(gid).await.unwrap();
    assert_eq!(next_json(&mut wws).await["type"], "state");
    // A move over HTTP reaches the spectator and the opponent.
    play_ok(&mut b, gid, "E5").await;
    let ev = until(&mut spec, |v| v["type"] == "move").await;
    assert_eq!(
        (ev["number"].as_i64(), ev["move"].as_str()),
        (Some(1), Some("E5"))
    );
    assert!(ev["clocks"]["white"]["running"].as_bool().unwrap());
    until(&mut wws, |v| v["type"] == "move").await;
    // A move over the socket is acknowledged after its commit, and relayed.
    send(&mut wws, json!({"type": "move", "move": "E5", "number": 2})).await;
    let e = until(&mut wws, |v| v["type"] == "error").await;
    assert_eq!(e["reason"], "occupied");
    send(&mut wws, json!({"type": "move", "move": "D5", "number": 2})).await;
    let ack = until(&mut wws, |v| v["type"] == "ack").await;
    assert_eq!(
        (ack["number"].as_i64(), ack["duplicate"].as_bool()),
        (Some(2), Some(false))
    );
    let ev = until(&mut spec, |v| v["type"] == "move").await;
    assert_eq!(ev["move"], "D5");
    // The spectator cannot move: its socket is read-only for the game.
    let mut spec_as_player = spectator.websocket(gid).await.unwrap();
    next_json(&mut spec_as_player).await;
    send(&mut spec_as_player, json!({"type": "move", "move": "A1"})).await;
    let e = until(&mut spec_as_player, |v| v["type"] == "error").await;
    assert_eq!(e["reason"], "not-a-player");
    // Chat: the spectators' chat does not reach the players; the players' reaches everyone.
    send(
        &mut spec,
        json!({"type": "chat", "text": "black is winning"}),
    )
    .await;
    let m = until(&mut spec_as_player, |v| v["type"] == "chat").await;
    assert_eq!(
        (m["channel"].as_str(), m["from"].as_str()),
        (Some("spectators"), Some("sam"))
    );
    send(&mut wws, json!({"type": "chat", "text": "good luck"})).await;
    let m = until(&mut wws, |v| v["type"] == "chat").await;
    assert_eq!(
        (m["channel"].as_str(), m["text"].as_str()),
        (Some("players"), Some("good luck"))
    );
    // The spectators see both chats, their own first.
    let m = until(&mut spec, |v| v["type"] == "chat").await;
    assert_eq!(m["text"], "black is winning");
    let m = until(&mut spec, |v| v["type"] == "chat").await;
    assert_eq!(m["text"], "good luck");
    // Suspension and result arrive as state messages.
    play_ok(&mut b, gid, "pass").await;
    send(&mut wws, json!({"type": "move", "move": "pass"})).await;
    let s = until(&mut spec, |v| v["type"] == "state").await;
    assert_eq!(s["game"]["phase"], "suspended");
    b.post(&format!("/api/games/{gid}/resign"), json!({}))
        .await
        .unwrap();
    let s = until(&mut spec, |v| {
        v["type"] == "state" && v["game"]["phase"] == "ended"
    })
    .await;
    assert_eq!(s["game"]["result"]["result"], "W+R");
    // A reconnection gets the whole game again.
    let mut again = spectator.websocket(gid).await.unwrap();
    let s = next_json(&mut again).await;
    assert_eq!(s["game"]["move_count"], 4);
    // The live list no longer shows it.
    let list = b.get("/api/games").await.unwrap().body;
    assert!(list.as_array().unwrap().iter().all(|g| g["id"] != gid));
}

on_both_databases!(live_updates: live_updates_on_sqlite, live_updates_on_postgres);

#[tokio::test]
async fn lobby_page_and_lists() {
    bounded(async {
        let app = sqlite().await;
        let mut a = user(&app, "alice", "1d").await;
        let r = a.get("/").await.unwrap();
        assert_eq!(r.status, 200);
        assert!(r.text.contains("<h1>"));
        assert!(r.header("content-type").unwrap().starts_with("text/html"));
        let r = a.post("/api/challenges", json!({"size": 9})).await.unwrap();
        assert_eq!(r.body["time_control"], "ing-pp:1h");
        let list = a.get("/api/challenges").await.unwrap().body;
        assert_eq!(list[0]["challenger"], "alice");
        let r = a
            .post("/api/challenges", json!({"size": 21}))
            .await
            .unwrap();
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (422, Some("bad-size"))
        );
        let r = a
            .post(
                "/api/challenges",
                json!({"size": 9, "time_control": "soon"}),
            )
            .await
            .unwrap();
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (422, Some("bad-time-control"))
        );
        assert_eq!(a.get("/api/games/12345").await.unwrap().status, 404);
    })
    .await;
}
