//! Correspondence games (Chromium over WebDriver, as `browser.rs`): the lobby's preset of three
//! days a move, the lobby's list of the player's games with those waiting for them first, and a
//! game that outlives its server: a second server on the same database shows it with its moves
//! and takes the next one.
//!
//! Without Chromium or chromedriver the tests fail under CI and are skipped with a note
//! elsewhere (`ingo_testkit::chromium`).

// A failed step of a browser test is a failed test: its panic says where.
#![allow(clippy::unwrap_used)]

mod browser_util;

use std::time::Duration;

use browser_util::*;
use fantoccini::Client;
use ingo_server::client::Client as ApiClient;
use serde_json::{json, Value};

/// Waits until the lobby lists game `gid` among the player's games, `turn` saying whether it
/// waits for them; the item's text.
async fn wait_listed(b: &Client, gid: &str, turn: bool, moves: usize) -> String {
    wait_until(
        b,
        &format!("game {gid} in Your games, your turn {turn}, move {moves}"),
        &format!(
            "const li = document.querySelector('#your-games li[data-my-game=\"{gid}\"]'); \
             return li && li.classList.contains('your-turn') === {turn} && li.textContent.includes('Move {moves}') ? li.textContent : null"
        ),
    )
    .await
    .as_str()
    .unwrap()
    .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_game_is_listed_as_your_turn_and_outlives_a_server_restart() {
    bounded(Duration::from_secs(240), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let b = driver.browser(1280, 1000).await;
        register(&b, &app.base, "alice", "1d").await;
        let mut bob = api_player(&app, "bob", "2d").await;
        // The preset of three days a move, offered by name, fills the text box.
        let form = challenge_form(&b, &app.base).await;
        select(&form, "tc_preset", "correspondence").await;
        let f = b
            .execute(
                "const f = document.getElementById('challenge-form'); const s = f.querySelector('select[name=tc_preset]'); \
                 return [s.selectedOptions[0].textContent, f.querySelector('input[name=time_control]').value]",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(f[1], "fischer:3d+3d[max 3d]", "{f}");
        let words = f[0].as_str().unwrap();
        assert!(words.contains("Correspondence: 3 days a move"), "{f}");
        assert!(words.contains("3d"), "the days said in words: {f}");
        select(&form, "size", "9").await;
        select(&form, "handicap", "ranks").await;
        type_into(&form, "opponent", "bob").await;
        submit(&form).await;
        wait_css(&b, "[data-challenge]").await;
        let list = bob.get("/api/challenges").await.unwrap();
        // The server writes the control back in hours.
        assert_eq!(list.body[0]["time_control"], json!("fischer:72h+72h[max 72h]"), "{:?}", list.body);
        let r = bob
            .post(&format!("/api/challenges/{}/accept", list.body[0]["id"]), json!({}))
            .await
            .unwrap();
        assert_eq!(r.status, 201, "{:?}", r.body);
        let gid = r.body["game_id"].to_string();
        // Alice holds Black: the game waits for her, and the lobby says so.
        wait_game_page(&b).await;
        b.goto(&format!("{}/#/", app.base)).await.unwrap();
        let item = wait_listed(&b, &gid, true, 0).await;
        assert!(item.contains("Your turn") && item.contains("alice – bob"), "{item}");
        play_moves(&b, &mut bob, &gid, 1, &["D4"]).await;
        let item = wait_listed(&b, &gid, false, 1).await;
        assert!(item.contains("Waiting for the opponent"), "{item}");
        play_moves(&b, &mut bob, &gid, 2, &["C3"]).await;
        wait_listed(&b, &gid, true, 2).await;
        // The server restarts on the same database: the game is there, with its moves.
        let second = app.restart().await;
        b.goto(&format!("{}/#/", second.base)).await.unwrap();
        wait_listed(&b, &gid, true, 2).await;
        wait_until(
            &b,
            "the game's link followed",
            &format!("const a = document.querySelector('#your-games li[data-my-game=\"{gid}\"] a'); if (!a) return null; a.click(); return true"),
        )
        .await;
        wait_game_page(&b).await;
        let r = ApiClient::new(second.addr)
            .get(&format!("/api/games/{gid}"))
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
        let state: Value = r.body;
        assert_eq!(state["move_count"], json!(2), "{state}");
        assert_board_is_servers(&b, &state, "after the restart").await;
        assert_eq!(board_of(&b).await, "C3W D4B");
        let about = wait_css(&b, "#game-info").await.text().await.unwrap();
        assert!(about.contains("3d"), "the time control in words: {about}");
        // The clocks hold days: shown as days, not as 72 hours.
        let clocks = b
            .execute(
                "return Array.from(document.querySelectorAll('.clock .time')).map((e) => e.textContent)",
                vec![],
            )
            .await
            .unwrap();
        assert!(
            clocks.as_array().unwrap().iter().any(|t| t.as_str().is_some_and(|t| t.contains("d "))),
            "a clock of days: {clocks}"
        );
        // And the game goes on there.
        click_point(&b, 9, "E5").await;
        wait_move_count(&b, 3).await;
        b.goto(&format!("{}/#/", second.base)).await.unwrap();
        wait_listed(&b, &gid, false, 3).await;
        b.close().await.unwrap();
    })
    .await;
}
