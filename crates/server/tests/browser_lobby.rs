//! The habits of a Go server on the web board, driven as players use them (Chromium over
//! WebDriver, as `browser.rs`): declining a challenge from the lobby, the chat's times, the
//! count's wording, the favicon and the layout of the end of a game.
//!
//! Without Chromium or chromedriver the tests fail under CI and are skipped with a note
//! elsewhere (`ingo_testkit::chromium`).

// A failed step of a browser test is a failed test: its panic says where.
#![allow(clippy::unwrap_used)]

mod browser_util;

use std::time::Duration;

use browser_util::*;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_offered_to_me_is_declined_from_the_lobby() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let alice = driver.browser(1280, 1000).await;
        let bob = driver.browser(1280, 1000).await;
        let carol = driver.browser(1280, 1000).await;
        register(&alice, &app.base, "alice", "1d").await;
        register(&bob, &app.base, "bob", "2d").await;
        register(&carol, &app.base, "carol", "3d").await;
        let form = challenge_form(&alice, &app.base).await;
        select(&form, "size", "9").await;
        type_into(&form, "opponent", "bob").await;
        submit(&form).await;
        // Carol, to whom it is not offered, has nothing to decline.
        carol.goto(&format!("{}/#/", app.base)).await.unwrap();
        let item = wait_until(
            &carol,
            "the challenge in carol's lobby",
            "const li = document.querySelector('[data-challenge]'); return li ? li.dataset.challenge : null",
        )
        .await;
        let id = item.as_str().unwrap().to_owned();
        let none = carol
            .execute("return document.querySelectorAll('[data-challenge] button.decline').length", vec![])
            .await
            .unwrap();
        assert_eq!(none, json!(0), "carol cannot decline a challenge offered to bob");
        // Bob declines it: it leaves his lobby and alice's, and the server has it declined.
        bob.goto(&format!("{}/#/", app.base)).await.unwrap();
        wait_css(&bob, "[data-challenge] button.decline")
            .await
            .click()
            .await
            .unwrap();
        for (b, who) in [(&bob, "bob"), (&alice, "alice")] {
            wait_until(
                b,
                &format!("the declined challenge gone from {who}'s lobby"),
                "return document.querySelector('#challenges li') && !document.querySelector('[data-challenge]') || null",
            )
            .await;
        }
        let c = app.get_text(&format!("/api/challenges/{id}")).await;
        let c: Value = serde_json::from_str(&c).unwrap();
        assert_eq!(c["status"], "declined", "{c}");
        // Alice is told it was declined, not sent to a game.
        let told = wait_until(
            &alice,
            "alice told of the refusal",
            "const e = document.getElementById('challenges-error'); return e && e.dataset.reason === 'declined' ? e.textContent : null",
        )
        .await;
        assert!(told.as_str().unwrap().contains("bob"), "{told}");
        for b in [alice, bob, carol] {
            b.close().await.unwrap();
        }
    })
    .await;
}

/// A 9×9 game by ranks between `alice` (Black) and `bob`, played to the count: Black E5, both
/// pass, no stone dead. Its id.
async fn a_counted_game(app: &App, alice: &fantoccini::Client, bob: &fantoccini::Client) -> String {
    let challenge = page_api(
        alice,
        "POST",
        "/api/challenges",
        json!({"size": 9, "handicap": "ranks", "opponent": "bob"}),
    )
    .await;
    let r = page_api(
        bob,
        "POST",
        &format!("/api/challenges/{}/accept", challenge["id"]),
        json!({}),
    )
    .await;
    let gid = r["game_id"].to_string();
    assert_eq!(app.state(&gid).await["black"]["name"], "alice");
    for (b, n, mv) in [(alice, 1, "E5"), (bob, 2, "pass"), (alice, 3, "pass")] {
        let r = page_api(
            b,
            "POST",
            &format!("/api/games/{gid}/moves"),
            json!({"move": mv, "number": n}),
        )
        .await;
        assert!(r.get("reason").is_none(), "{r}");
    }
    for b in [alice, bob] {
        let r = page_api(
            b,
            "POST",
            &format!("/api/games/{gid}/dead/accept"),
            json!({"dead": []}),
        )
        .await;
        assert!(r.get("reason").is_none(), "{r}");
    }
    assert_eq!(app.state(&gid).await["phase"], "ended");
    gid
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_count_reads_as_english_and_chinese() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let alice = driver.browser(1280, 1000).await;
        let bob = driver.browser(1280, 1000).await;
        register(&alice, &app.base, "alice", "1d").await;
        register(&bob, &app.base, "bob", "2d").await;
        let gid = a_counted_game(&app, &alice, &bob).await;
        alice.goto(&format!("{}/#/game/{gid}", app.base)).await.unwrap();
        let text = wait_until(
            &alice,
            "the count",
            "const c = document.getElementById('count'); return c ? c.innerText : null",
        )
        .await;
        let text = text.as_str().unwrap();
        assert!(!text.contains("fills its area from"), "{text}");
        assert!(text.contains("Stones filled in (each side has "), "{text}");
        // One of a thing is singular, in every count the page words (the module's own words).
        let words = alice
            .execute_async(
                "const done = arguments[0]; import('/assets/i18n.js').then((m) => { \
                   const out = []; for (const l of ['en', 'zh']) { m.setLang(l); \
                   for (const k of ['spaces_left', 'stones_left', 'points']) out.push(m.tn(k, 1), m.tn(k, 3)); } \
                   m.setLang('en'); done(out); }, (e) => done(String(e)));",
                vec![],
            )
            .await
            .unwrap();
        let words: Vec<&str> = words.as_array().unwrap().iter().map(|w| w.as_str().unwrap()).collect();
        assert_eq!(
            words,
            [
                "1 space left over (勝空)", "3 spaces left over (勝空)",
                "1 stone too many (負子)", "3 stones too many (負子)",
                "1 point", "3 points",
                "勝空 1", "勝空 3", "負子 1", "負子 3", "1 點", "3 點",
            ]
        );
        for b in [alice, bob] {
            b.close().await.unwrap();
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_has_a_favicon_the_policy_lets_it_draw() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let b = driver.browser(1280, 1000).await;
        b.goto(&format!("{}/#/", app.base)).await.unwrap();
        wait_css(&b, "#challenge-form").await;
        // Drawn from the page itself (a data URL), under the server's Content-Security-Policy.
        let icon = b
            .execute_async(
                "const done = arguments[0]; const l = document.querySelector('link[rel=icon]'); \
                 if (!l) return done(null); const i = new Image(); \
                 i.onload = () => done([l.href.slice(0, 19), i.naturalWidth > 0]); \
                 i.onerror = () => done([l.href.slice(0, 19), false]); i.src = l.href;",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(
            icon,
            json!(["data:image/svg+xml,", true]),
            "a favicon that loads"
        );
        b.close().await.unwrap();
    })
    .await;
}
