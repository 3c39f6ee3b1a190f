//! Being told wherever one is on the site (Chromium over WebDriver, as `browser.rs`): a
//! challenge accepted, then one's turn, reach a player reading another page, by the page's
//! title, a line under the header and a browser notification (allowed, with the page not in
//! front); the stone sound is off until chosen, and the choice is remembered.
//!
//! The browser's `Notification` is replaced in the test page by one that records what it is
//! given (headless Chromium shows none), and the page is told it is not in front
//! (`document.hasFocus`), as when the player is in another window.
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

/// Replaces the page's `Notification` by a recorder (`window.__notes`, each `[title, body, the
/// page's title then]`),
/// allowed, and makes the page believe it is not in front.
async fn stub_notifications(b: &Client) {
    b.execute(
        "window.__notes = [];
         window.Notification = function (title, opts) { window.__notes.push([title, (opts || {}).body, document.title]); };
         window.Notification.permission = 'granted';
         window.Notification.requestPermission = async () => 'granted';
         document.hasFocus = () => false;",
        vec![],
    )
    .await
    .unwrap();
}

/// Waits for a notification whose body holds `text`; the page's title when it was made.
async fn wait_notified(b: &Client, text: &str) -> Value {
    wait_until(
        b,
        &format!("a notification {text:?}"),
        &format!(
            "const n = (window.__notes || []).find((n) => (n[1] || '').includes({})); return n ? n[2] : null",
            json!(text)
        ),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accepted_challenge_and_the_turn_are_told_on_another_page() {
    bounded(Duration::from_secs(180), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let b = driver.browser(1280, 1000).await;
        register(&b, &app.base, "alice", "1d").await;
        let mut bob = api_player(&app, "bob", "2d").await;
        // Notifications allowed in the alert settings (the permission granted by the stub).
        b.goto(&format!("{}/#/", app.base)).await.unwrap();
        stub_notifications(&b).await;
        wait_css(&b, "#alerts").await.click().await.unwrap();
        let stone = wait_css(&b, "#stone-sound").await;
        assert!(!stone.is_selected().await.unwrap(), "stone sounds are off by default");
        b.find(css("#alert-notify")).await.unwrap().click().await.unwrap();
        // A challenge to bob from the lobby's form (by ranks: alice, the weaker, takes Black).
        let form = challenge_form(&b, &app.base).await;
        select(&form, "size", "9").await;
        select(&form, "handicap", "ranks").await;
        type_into(&form, "opponent", "bob").await;
        submit(&form).await;
        wait_css(&b, "[data-challenge]").await;
        // Alice goes to read the judge page; bob accepts meanwhile.
        b.goto(&format!("{}/#/judge", app.base)).await.unwrap();
        wait_css(&b, "#sgf-text").await;
        let list = bob.get("/api/challenges").await.unwrap();
        let id = list.body[0]["id"].clone();
        let r = bob
            .post(&format!("/api/challenges/{id}/accept"), json!({}))
            .await
            .unwrap();
        assert_eq!(r.status, 201, "{:?}", r.body);
        let gid = r.body["game_id"].to_string();
        let title = wait_notified(&b, "bob accepted your challenge").await;
        assert!(
            title.as_str().unwrap().starts_with("● bob accepted your challenge"),
            "{title}"
        );
        let line = b
            .execute(
                "const a = document.getElementById('attention'); return [a.hidden, a.textContent, a.querySelector('a')?.getAttribute('href')]",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(line[0], json!(false), "{line}");
        assert_eq!(line[2], json!(format!("#/game/{gid}")), "{line}");
        // Alice holds Black: her turn, told too; and again after bob's answer to her move.
        wait_notified(&b, "Your turn: alice – bob").await;
        page_api(
            &b,
            "POST",
            &format!("/api/games/{gid}/moves"),
            json!({"move": "E5", "number": 1}),
        )
        .await;
        let told = b
            .execute("return window.__ingo.told.filter((x) => x.kind === 'turn').length", vec![])
            .await
            .unwrap();
        let r = bob
            .post(
                &format!("/api/games/{gid}/moves"),
                json!({"move": "C3", "number": 2}),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
        wait_until(
            &b,
            "the turn told again after bob's move",
            &format!(
                "return window.__ingo.told.filter((x) => x.kind === 'turn').length > {told} || null"
            ),
        )
        .await;
        // Looked at again: the title is the site's own.
        b.execute("window.dispatchEvent(new Event('focus'))", vec![])
            .await
            .unwrap();
        let title = b.execute("return document.title", vec![]).await.unwrap();
        assert!(!title.as_str().unwrap().starts_with('●'), "{title}");
        // Followed, the call for attention is answered and its line goes.
        b.execute("document.querySelector('#attention a').click()", vec![])
            .await
            .unwrap();
        wait_until(
            &b,
            "the game page, the line gone",
            &format!("return location.hash === '#/game/{gid}' && document.getElementById('attention').hidden || null"),
        )
        .await;
        // The stone sound, chosen, is remembered.
        wait_css(&b, "#alerts").await.click().await.unwrap();
        wait_css(&b, "#stone-sound").await.click().await.unwrap();
        b.refresh().await.unwrap();
        wait_css(&b, "#alerts").await.click().await.unwrap();
        assert!(wait_css(&b, "#stone-sound").await.is_selected().await.unwrap());
        b.close().await.unwrap();
    })
    .await;
}
