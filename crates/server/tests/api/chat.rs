//! The chat of a game, stored: players' chat read by everyone, spectators' chat not by the
//! players, and in pair and consultation games each side's chat read only by its members —
//! over the WebSocket, in the state a (re)connecting socket gets, and over HTTP.

use ingo_server::client::{Client, WsStream};
use ingo_server::wall::ManualClock;
use ingo_store::testing::TestDb;
use serde_json::{json, Value};

use crate::pair::team_game;
use crate::*;

/// Messages until a chat with `text`; panics on a chat containing `secret` first.
async fn chat_until(ws: &mut WsStream, text: &str, secret: &str) -> Value {
    loop {
        let v = next_json(ws).await;
        if v["type"] == "chat" {
            let t = v["text"].as_str().unwrap();
            assert!(!t.contains(secret), "read what it must not: {v}");
            if t == text {
                return v;
            }
        }
    }
}

fn texts(chat: &Value) -> Vec<String> {
    chat.as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_owned())
        .collect()
}

async fn first_state(c: &Client, gid: i64) -> (WsStream, Value) {
    let mut ws = c.websocket(gid).await.unwrap();
    let first = next_json(&mut ws).await;
    assert_eq!(first["type"], "state");
    (ws, first)
}

async fn side_chat_privacy(app: App) {
    let mut t = team_game(
        &app,
        "pair",
        &[("ann", "2d"), ("ben", "2d"), ("cat", "2d"), ("dan", "2d")],
        1,
        json!({}),
    )
    .await;
    let gid = t.gid;
    let (b1, b2, w1) = (t.black[0].clone(), t.black[1].clone(), t.white[0].clone());
    let eve = user(&app, "eve", "1k").await;
    let anonymous = Client::new(app.addr);
    let (mut ws_b1, _) = first_state(t.get(&b1), gid).await;
    let (mut ws_b2, _) = first_state(t.get(&b2), gid).await;
    let (mut ws_w1, _) = first_state(t.get(&w1), gid).await;
    let (mut ws_eve, _) = first_state(&eve, gid).await;
    let (mut ws_anon, _) = first_state(&anonymous, gid).await;
    // A member's socket without the CSRF token reads as a spectator.
    let mut b1_no_token = t.get(&b1).clone();
    b1_no_token.csrf = None;
    let (mut ws_b1_ro, _) = first_state(&b1_no_token, gid).await;

    // Black's side chat reaches Black's members only.
    send(
        &mut ws_b1,
        json!({"type": "chat", "channel": "side", "text": "secret: tenuki"}),
    )
    .await;
    let m = chat_until(&mut ws_b2, "secret: tenuki", "never").await;
    assert_eq!(
        (m["channel"].as_str(), m["from"].as_str()),
        (Some("black"), Some(b1.as_str()))
    );
    chat_until(&mut ws_b1, "secret: tenuki", "never").await;
    // Then a players' message, read by all: nobody else read the side's message before it.
    send(&mut ws_w1, json!({"type": "chat", "text": "good game"})).await;
    for ws in [&mut ws_w1, &mut ws_eve, &mut ws_anon, &mut ws_b1_ro] {
        let m = chat_until(ws, "good game", "secret").await;
        assert_eq!(m["channel"], "players");
    }
    // A spectator's message does not reach the players.
    send(
        &mut ws_eve,
        json!({"type": "chat", "text": "psst: secret ladder"}),
    )
    .await;
    chat_until(&mut ws_anon, "psst: secret ladder", "never").await;
    send(&mut ws_b2, json!({"type": "chat", "text": "thanks"})).await;
    for ws in [&mut ws_b1, &mut ws_b2, &mut ws_w1] {
        chat_until(ws, "thanks", "secret").await;
    }
    // Nobody writes where they do not belong.
    for (ws, channels) in [
        (&mut ws_w1, &["black", "spectators"][..]),
        (&mut ws_eve, &["side", "players"][..]),
        (&mut ws_b1_ro, &["side"][..]),
    ] {
        for channel in channels {
            send(ws, json!({"type": "chat", "channel": channel, "text": "x"})).await;
            let e = until(ws, |v| v["type"] == "error").await;
            assert!(
                ["not-your-channel", "not-logged-in"].contains(&e["reason"].as_str().unwrap()),
                "{channel}: {e}"
            );
        }
    }
    send(&mut ws_anon, json!({"type": "chat", "text": "hello"})).await;
    let e = until(&mut ws_anon, |v| v["type"] == "error").await;
    assert_eq!(e["reason"], "not-logged-in");

    // The stored chat, as a (re)connecting socket gets it.
    let (_, s) = first_state(t.get(&b2), gid).await;
    assert_eq!(
        texts(&s["chat"]),
        vec!["secret: tenuki", "good game", "thanks"]
    );
    let (_, s) = first_state(t.get(&w1), gid).await;
    assert_eq!(texts(&s["chat"]), vec!["good game", "thanks"]);
    for c in [&eve, &anonymous, &b1_no_token] {
        let (_, s) = first_state(c, gid).await;
        assert_eq!(
            texts(&s["chat"]),
            vec!["good game", "psst: secret ladder", "thanks"]
        );
    }
    // And over HTTP: the chat route, and no side chat in the state or the record.
    let chat = format!("/api/games/{gid}/chat");
    let r = t.get(&b1).get(&chat).await.unwrap();
    assert_eq!(
        texts(&r.body),
        vec!["secret: tenuki", "good game", "thanks"]
    );
    let r = t.get(&w1).get(&chat).await.unwrap();
    assert_eq!(texts(&r.body), vec!["good game", "thanks"]);
    let mut eve2 = eve.clone();
    let mut anon2 = anonymous.clone();
    for c in [&mut eve2, &mut anon2] {
        let r = c.get(&chat).await.unwrap();
        assert_eq!(r.status, 200);
        assert_eq!(
            texts(&r.body),
            vec!["good game", "psst: secret ladder", "thanks"]
        );
        for path in [format!("/api/games/{gid}"), format!("/api/games/{gid}/sgf")] {
            let r = c.get(&path).await.unwrap();
            assert!(!r.text.contains("tenuki"), "{path}");
        }
    }
    // A move event of a pair game names the member whose turn it is now.
    play_ok(t.get(&b1), gid, "E5").await;
    let ev = until(&mut ws_eve, |v| v["type"] == "move").await;
    assert_eq!(ev["team_to_move"]["name"], w1.as_str());
    // The other side's members keep their own chat to themselves too.
    send(
        &mut ws_w1,
        json!({"type": "chat", "channel": "side", "text": "white secret"}),
    )
    .await;
    let m = chat_until(&mut ws_w1, "white secret", "never").await;
    assert_eq!(m["channel"], "white");
    send(&mut ws_b2, json!({"type": "chat", "text": "after"})).await;
    for ws in [&mut ws_b1, &mut ws_b2, &mut ws_eve] {
        chat_until(ws, "after", "white secret").await;
    }
}

/// A server whose clock stands still: every message is stored in the same millisecond, so the
/// chat is in the right order only if it is read in the order it was stored.
async fn at_one_time(db: TestDb) -> App {
    spawn_with_clock(db, ManualClock::starting_now().into()).await
}

#[tokio::test]
async fn side_chat_privacy_on_sqlite() {
    bounded(async { side_chat_privacy(at_one_time(TestDb::sqlite().await.unwrap()).await).await })
        .await;
}

#[tokio::test]
async fn side_chat_privacy_on_postgres() {
    bounded(async {
        let db = TestDb::postgres()
            .await
            .expect("a PostgreSQL server (scripts/test starts one)");
        side_chat_privacy(at_one_time(db).await).await;
    })
    .await;
}

/// A game of one player a side has no side chat; its chat is stored all the same.
#[tokio::test]
async fn single_games_have_no_side_chat() {
    bounded(async {
        let app = sqlite().await;
        let mut a = user(&app, "alice", "1d").await;
        let mut c = user(&app, "bob", "1d").await;
        let (b, _w, gid) = game_between(&app, &mut a, &mut c, json!({"size": 9})).await;
        let (mut ws, first) = first_state(&b, gid).await;
        assert_eq!(first["game"]["team"], Value::Null);
        assert_eq!(first["chat"], json!([]));
        send(
            &mut ws,
            json!({"type": "chat", "channel": "side", "text": "x"}),
        )
        .await;
        let e = until(&mut ws, |v| v["type"] == "error").await;
        assert_eq!(e["reason"], "no-side-chat");
        send(&mut ws, json!({"type": "chat", "text": "   "})).await;
        let e = until(&mut ws, |v| v["type"] == "error").await;
        assert_eq!(e["reason"], "empty-chat");
        send(&mut ws, json!({"type": "chat", "text": "hello"})).await;
        chat_until(&mut ws, "hello", "never").await;
        let (_, again) = first_state(&b, gid).await;
        assert_eq!(texts(&again["chat"]), vec!["hello"]);
    })
    .await;
}
