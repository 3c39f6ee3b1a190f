//! Taking back a move by agreement (Chromium over WebDriver, as `browser.rs`): the player who
//! made the last move asks from the game page; the opponent grants or declines it there; the
//! page redraws from the states the server sends.
//!
//! Without Chromium or chromedriver the tests fail under CI and are skipped with a note
//! elsewhere (`ingo_testkit::chromium`).

// A failed step of a browser test is a failed test: its panic says where.
#![allow(clippy::unwrap_used)]

mod browser_util;

use std::time::Duration;

use browser_util::*;
use fantoccini::Client;
use serde_json::{json, Value};

/// Clicks the button `#id` once it is on the page (found and clicked in one script, as the
/// page may redraw between two).
async fn click_when_shown(b: &Client, id: &str) {
    wait_until(
        b,
        &format!("#{id} pressed"),
        &format!("const e = document.getElementById('{id}'); if (!e) return null; e.click(); return true"),
    )
    .await;
}

/// Whether the page shows the element `#id`.
async fn shown(b: &Client, id: &str) -> bool {
    b.execute(&format!("return !!document.getElementById('{id}')"), vec![])
        .await
        .unwrap()
        .as_bool()
        .unwrap()
}

/// Bob asks to take back his move 4.
async fn ask_undo(bob: &mut ingo_server::client::Client, gid: &str) {
    let r = bob
        .post(&format!("/api/games/{gid}/undo"), json!({}))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(
        r.body["undo_request"],
        json!({"by": "W", "number": 4}),
        "{:?}",
        r.body
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_is_taken_back_by_agreement_and_the_board_redrawn_without_it() {
    bounded(Duration::from_secs(180), async {
        let (app, _driver, b, mut bob, gid) = nine_by_nine().await;
        b.goto(&format!("{}/#/game/{gid}", app.base)).await.unwrap();
        play_moves(&b, &mut bob, &gid, 1, &["D4", "C3", "E5"]).await;
        let state = app.state(&gid).await;
        assert_board_is_servers(&b, &state, "three moves").await;
        // Alice made the last move: she may ask to take it back; bob sees the request.
        click_when_shown(&b, "undo").await;
        wait_css(&b, "#undo-request").await;
        assert!(!shown(&b, "undo-accept").await, "the asker has nothing to grant");
        let state = app.state(&gid).await;
        assert_eq!(state["undo_request"], json!({"by": "B", "number": 3}), "{state}");
        let r = bob
            .post(&format!("/api/games/{gid}/undo/accept"), json!({}))
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
        let state = app.state(&gid).await;
        assert_eq!(state["move_count"], json!(2), "{state}");
        assert_board_is_servers(&b, &state, "E5 taken back").await;
        assert!(!board_of(&b).await.contains("E5"), "E5 is off the board");
        wait_until(
            &b,
            "no request and no button to ask (the last move is bob's)",
            "return !document.getElementById('undo-request') && !document.getElementById('undo') || null",
        )
        .await;
        // Bob asks in turn: alice declines once, then grants.
        play_moves(&b, &mut bob, &gid, 3, &["F6", "G7"]).await;
        ask_undo(&mut bob, &gid).await;
        click_when_shown(&b, "undo-decline").await;
        wait_until(
            &b,
            "the request declined",
            "return !document.getElementById('undo-request') || null",
        )
        .await;
        let state: Value = app.state(&gid).await;
        assert_eq!(state["undo_request"], Value::Null, "{state}");
        assert_eq!(state["move_count"], json!(4), "{state}");
        ask_undo(&mut bob, &gid).await;
        let text = wait_until(
            &b,
            "bob's request on alice's page",
            "const e = document.getElementById('undo-request'); return e && document.getElementById('undo-accept') ? e.textContent : null",
        )
        .await;
        assert!(text.as_str().unwrap().contains('4'), "{text}");
        click_when_shown(&b, "undo-accept").await;
        wait_move_count(&b, 3).await;
        let state = app.state(&gid).await;
        assert_eq!(state["move_count"], json!(3), "{state}");
        assert_board_is_servers(&b, &state, "G7 taken back").await;
        assert!(!board_of(&b).await.contains("G7"), "G7 is off the board");
        b.close().await.unwrap();
    })
    .await;
}
