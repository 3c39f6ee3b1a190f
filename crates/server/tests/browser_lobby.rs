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

/// Clicks the button of `selector` in the lobby's list, found and clicked in one script (the list
/// is drawn anew every second, so an element found in one step may be gone in the next).
async fn click_in_list(b: &fantoccini::Client, selector: &str) {
    wait_until(
        b,
        selector,
        &format!("const e = document.querySelector(\"{selector}\"); if (!e) return null; e.click(); return true"),
    )
    .await;
}

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
        click_in_list(&bob, "[data-challenge] button.decline").await;
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
    let gid = a_suspended_game(app, alice, bob, 9).await;
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

/// A `size`×`size` game by ranks between `alice` (Black) and `bob` at its dead-stone step:
/// Black E5 and both pass. Its id.
async fn a_suspended_game(
    app: &App,
    alice: &fantoccini::Client,
    bob: &fantoccini::Client,
    size: usize,
) -> String {
    let challenge = page_api(
        alice,
        "POST",
        "/api/challenges",
        json!({"size": size, "handicap": "ranks", "opponent": "bob"}),
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
    assert_eq!(app.state(&gid).await["phase"], "suspended");
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

/// Milliseconds since the epoch by this machine's clock.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// The chat lines of `channel` on the page: each line's text and its `<time>` (its
/// `datetime` as milliseconds, and what it shows).
async fn chat_lines(b: &fantoccini::Client, channel: &str, n: usize) -> Value {
    wait_until(
        b,
        &format!("{n} chat lines in {channel}"),
        &format!(
            "const li = [...document.querySelectorAll('#chat-{channel} li')]; \
             return li.length === {n} ? li.map((l) => {{ const t = l.querySelector('time'); \
               return [l.textContent, t ? Date.parse(t.dateTime) : null, t ? t.textContent : null]; }}) : null"
        ),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_chat_line_shows_when_it_was_said() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let alice = driver.browser(1280, 1000).await;
        let bob = driver.browser(1280, 1000).await;
        register(&alice, &app.base, "alice", "1d").await;
        register(&bob, &app.base, "bob", "2d").await;
        let gid = a_counted_game(&app, &alice, &bob).await;
        for b in [&alice, &bob] {
            b.goto(&format!("{}/#/game/{gid}", app.base)).await.unwrap();
            wait_css(b, "#chat-players ~ form input").await;
        }
        let before = now_ms();
        chat(&alice, "players", "good game").await;
        // As it came (bob's page), and from the history (alice's page reloaded).
        let live = chat_lines(&bob, "players", 1).await;
        let after = now_ms();
        alice.refresh().await.unwrap();
        let history = chat_lines(&alice, "players", 1).await;
        for (lines, how) in [(&live, "as it came"), (&history, "from the history")] {
            let line = &lines[0];
            assert!(
                line[0].as_str().unwrap().contains("alice: good game"),
                "{how}: {line}"
            );
            let at = line[1]
                .as_i64()
                .unwrap_or_else(|| panic!("{how}: a time on {line}"));
            // The server's time of the line, to the second (Date.parse of the ISO text).
            assert!(
                before - 1000 <= at && at <= after + 1000,
                "{how}: {at} in {before}..{after}"
            );
            let shown = line[2].as_str().unwrap();
            assert!(
                shown.len() == 5 && shown.as_bytes()[2] == b':',
                "{how}: hours and minutes shown: {shown:?}"
            );
        }
        assert_eq!(live[0][1], history[0][1], "the same time both ways");
        for b in [alice, bob] {
            b.close().await.unwrap();
        }
    })
    .await;
}

/// The rectangle of `selector` on the page and the window's: `[left, top, right, bottom,
/// innerWidth, innerHeight, scrollY]` (waited for until it is there).
async fn rect(b: &fantoccini::Client, selector: &str) -> Vec<f64> {
    let r = wait_until(
        b,
        selector,
        &format!(
            "const e = document.querySelector('{selector}'); if (!e) return null; const r = e.getBoundingClientRect(); \
             return [r.left, r.top, r.right, r.bottom, innerWidth, innerHeight, scrollY]"
        ),
    )
    .await;
    r.as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_count_comes_beside_the_board_after_the_final_acceptance() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let alice = driver.browser(1280, 800).await;
        let bob = driver.browser(1280, 800).await;
        register(&alice, &app.base, "alice", "1d").await;
        register(&bob, &app.base, "bob", "2d").await;
        let gid = a_suspended_game(&app, &alice, &bob, 9).await;
        let r = page_api(
            &bob,
            "POST",
            &format!("/api/games/{gid}/dead/accept"),
            json!({"dead": []}),
        )
        .await;
        assert!(r.get("reason").is_none(), "{r}");
        alice
            .goto(&format!("{}/#/game/{gid}", app.base))
            .await
            .unwrap();
        wait_css(&alice, "#accept-dead")
            .await
            .click()
            .await
            .unwrap();
        wait_css(&alice, "#count table").await;
        let board = rect(&alice, "svg.board").await;
        let table = rect(&alice, "#count table").await;
        assert_eq!(table[6], 0.0, "the page was not scrolled");
        assert!(
            table[0] >= board[2],
            "the count is right of the board: {table:?} {board:?}"
        );
        assert!(
            table[3] <= table[5],
            "the count's table is above the fold: {table:?}"
        );
        screenshot(&alice, "count-beside-board").await;
        for b in [alice, bob] {
            b.close().await.unwrap();
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_phone_the_dead_stone_step_is_under_the_board_and_coordinates_read() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let alice = driver.phone(390, 844).await;
        let bob = driver.browser(1280, 800).await;
        register(&alice, &app.base, "alice", "1d").await;
        register(&bob, &app.base, "bob", "2d").await;
        let gid = a_suspended_game(&app, &alice, &bob, 19).await;
        alice.goto(&format!("{}/#/game/{gid}", app.base)).await.unwrap();
        wait_css(&alice, "#accept-dead").await;
        let board = rect(&alice, "svg.board").await;
        let button = rect(&alice, "#accept-dead").await;
        assert_eq!(button[6], 0.0, "the page was not scrolled");
        assert!(button[1] >= board[3], "the button is under the board: {button:?} {board:?}");
        assert!(button[3] <= button[5], "the button is in the window: {button:?}");
        // The 19×19 board's coordinates, in CSS pixels as drawn.
        let px = alice
            .execute(
                "const s = document.querySelector('svg.board'); const t = s.querySelector('.coords text'); \
                 return parseFloat(getComputedStyle(t).fontSize) * s.getBoundingClientRect().width / s.viewBox.baseVal.width",
                vec![],
            )
            .await
            .unwrap();
        let px = px.as_f64().unwrap();
        assert!(px >= 9.0, "19×19 coordinates {px:.1} px high on a phone");
        screenshot(&alice, "phone-dead-step").await;
        for b in [alice, bob] {
            b.close().await.unwrap();
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_from_a_finished_game_swaps_the_colours() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let alice = driver.browser(1280, 800).await;
        let bob = driver.browser(1280, 800).await;
        register(&alice, &app.base, "alice", "1d").await;
        register(&bob, &app.base, "bob", "2d").await;
        let first = a_counted_game(&app, &alice, &bob).await;
        alice.goto(&format!("{}/#/game/{first}", app.base)).await.unwrap();
        wait_css(&alice, "#rematch").await.click().await.unwrap();
        // Offered to bob, in words, with bob to take Black.
        bob.goto(&format!("{}/#/", app.base)).await.unwrap();
        let item = wait_until(
            &bob,
            "the rematch in bob's lobby",
            "const li = document.querySelector('[data-challenge]'); return li && li.querySelector('button.accept') ? li.textContent : null",
        )
        .await;
        assert!(item.as_str().unwrap().contains("alice takes White"), "{item}");
        click_in_list(&bob, "[data-challenge] button.accept").await;
        wait_game_page(&bob).await;
        // Alice's lobby follows the rematch into its game.
        wait_game_page(&alice).await;
        let hash = alice.execute("return location.hash", vec![]).await.unwrap();
        let second = hash.as_str().unwrap().trim_start_matches("#/game/").to_owned();
        assert_ne!(second, first);
        let state = app.state(&second).await;
        assert_eq!(state["black"]["name"], "bob", "{state}");
        assert_eq!(state["white"]["name"], "alice", "{state}");
        assert_eq!(state["size"], 9, "{state}");
        assert_eq!(state["handicap_passes"], 0, "{state}");
        for b in [alice, bob] {
            b.close().await.unwrap();
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_my_finished_games_with_links_to_opponents() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let alice = driver.browser(1280, 800).await;
        let bob = driver.browser(1280, 800).await;
        register(&alice, &app.base, "alice", "1d").await;
        register(&bob, &app.base, "bob", "2d").await;
        let gid = a_counted_game(&app, &alice, &bob).await;
        alice.goto(&format!("{}/#/", app.base)).await.unwrap();
        let line = wait_css(&alice, &format!("#my-finished li[data-game='{gid}']")).await;
        assert!(
            line.text().await.unwrap().contains("B+77"),
            "the result shown"
        );
        // The opponent's name leads to the opponent's games, where alice is a link back.
        line.find(css("a.opponent"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let back = wait_css(
            &alice,
            &format!("#finished li[data-game='{gid}'] a.opponent"),
        )
        .await;
        assert_eq!(back.text().await.unwrap(), "alice");
        let hash = alice.execute("return location.hash", vec![]).await.unwrap();
        assert_eq!(hash, json!("#/user/bob"));
        for b in [alice, bob] {
            b.close().await.unwrap();
        }
    })
    .await;
}

/// The lobby's lists say what each game is, as its page does: a challenge its rules, a game in
/// play its rules, komi, handicap passes and time control in words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_say_the_rules_komi_and_handicap() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let alice = driver.browser(1280, 1000).await;
        let bob = driver.browser(1280, 1000).await;
        register(&alice, &app.base, "alice", "5d").await;
        register(&bob, &app.base, "bob", "1k").await;
        let form = challenge_form(&alice, &app.base).await;
        select(&form, "size", "19").await;
        select(&form, "handicap", "ranks").await;
        submit(&form).await;
        bob.goto(&format!("{}/#/", app.base)).await.unwrap();
        let text = wait_until(
            &bob,
            "the challenge with its rules",
            "const li = document.querySelector('[data-challenge]'); return li && li.textContent.includes(\"Ing's rules\") ? li.textContent : null",
        )
        .await;
        assert!(text.as_str().unwrap().contains("19×19"), "{text}");
        click_in_list(&bob, "[data-challenge] button.accept").await;
        // A 5d against a 1k by ranks: White gives handicap passes, shown in the list of games.
        let carol = driver.browser(1280, 1000).await;
        carol.goto(&format!("{}/#/", app.base)).await.unwrap();
        let line = wait_until(
            &carol,
            "the game with its terms",
            "const e = document.querySelector('#live-games .terms'); return e ? e.parentElement.textContent : null",
        )
        .await;
        let line = line.as_str().unwrap();
        assert!(line.contains("Ing's rules"), "{line}");
        assert!(line.contains("komi"), "{line}");
        assert!(line.contains("handicap passes"), "{line}");
        assert!(line.contains("penalty"), "the time control in words: {line}");
        for b in [alice, bob, carol] {
            b.close().await.unwrap();
        }
    })
    .await;
}
