//! The lobby, the game page and the judge page as players found them wanting (Chromium over
//! WebDriver, as `browser.rs`): the fields of a one-a-side challenge, an unknown game, a
//! challenge offered to one player, resuming after a suspension, the judge page on a game not
//! over, the Chinese move label and phases, and a board that ignores what may not be played.
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

/// Whether the element of `selector` is shown (`null` when there is none).
async fn shown(b: &Client, selector: &str) -> Value {
    b.execute(
        "const e = document.querySelector(arguments[0]); return e ? getComputedStyle(e).display !== 'none' && e.getClientRects().length > 0 : null",
        vec![json!(selector)],
    )
    .await
    .unwrap()
}

/// A game on a `size`×`size` board between `black` (a browser, 1段) and `white` (2段), by ranks so that the weaker
/// holds Black; the game's id.
async fn game_by_ranks(
    app: &App,
    black: &Client,
    white: &mut ingo_server::client::Client,
    size: usize,
) -> String {
    let gid = ranked_game(app, black, white, size).await;
    let state = app.state(&gid).await;
    assert_eq!(state["black"]["name"], "alice", "{state}");
    gid
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_one_a_side_challenge_hides_the_team_fields() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let b = driver.browser(1280, 1000).await;
        register(&b, &app.base, "alice", "1d").await;
        let form = challenge_form(&b, &app.base).await;
        for (selector, what) in [
            ("input[name=partners]", "Your partners"),
            ("input[name=opponents]", "Opponents"),
            ("select[name=agreement]", "A side agrees when"),
        ] {
            assert_eq!(
                shown(&b, &format!("#challenge-form label:has({selector})")).await,
                json!(false),
                "{what} is not shown for a one-a-side game"
            );
        }
        assert_eq!(
            shown(&b, "#challenge-form label:has(input[name=opponent])").await,
            json!(true)
        );
        select(&form, "kind", "pair").await;
        assert_eq!(
            shown(&b, "#challenge-form label:has(input[name=partners])").await,
            json!(true)
        );
        assert_eq!(
            shown(&b, "#challenge-form label:has(select[name=agreement])").await,
            json!(false)
        );
        assert_eq!(
            shown(&b, "#challenge-form label:has(input[name=opponent])").await,
            json!(false)
        );
        b.close().await.unwrap();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_game_says_so_and_stops_trying() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let b = driver.browser(1280, 1000).await;
        register(&b, &app.base, "alice", "1d").await;
        // Opened from the lobby (the page asks over its WebSocket), then directly (a reload:
        // the page's first request).
        b.goto(&format!("{}/#/game/999999", app.base)).await.unwrap();
        for how in ["from the lobby", "directly"] {
            let text = wait_until(
                &b,
                &format!("the unknown game said so, {how}"),
                "const n = document.getElementById('notice'); return n && n.dataset.reason === 'not-found' ? n.textContent : null",
            )
            .await;
            assert!(text.as_str().unwrap().contains("There is no game 999999"), "{text}");
            for selector in ["#pass", "#resign", "svg.board"] {
                assert_ne!(shown(&b, selector).await, json!(true), "{how}: no {selector}");
            }
            let tries = b
                .execute("return [window.__ingo.sockets, window.__ingo.retrying]", vec![])
                .await
                .unwrap();
            assert!(tries[0].as_u64().unwrap() <= 1, "{how}: {tries}");
            assert_eq!(tries[1], json!(false), "{how}: no new connection planned");
            b.refresh().await.unwrap();
        }
        b.close().await.unwrap();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_to_one_player_is_for_that_player_only() {
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
        // Carol sees it, offered to bob, with nothing to press.
        carol.goto(&format!("{}/#/", app.base)).await.unwrap();
        let item = wait_until(
            &carol,
            "the challenge in carol's lobby",
            "const li = document.querySelector('[data-challenge]'); return li ? [li.textContent, !!li.querySelector('button')] : null",
        )
        .await;
        assert!(item[0].as_str().unwrap().contains("offered to bob"), "{item}");
        // With its time control in words.
        assert!(
            item[0].as_str().unwrap().contains("basic time 1h, then penalty points"),
            "{item}"
        );
        assert_eq!(item[1], json!(false), "carol cannot accept a challenge offered to bob: {item}");
        // Bob may accept; a refusal (his session ended meanwhile) is said under the list, not
        // under the challenge form.
        bob.goto(&format!("{}/#/", app.base)).await.unwrap();
        // The lobby's list is drawn again every second: the button is found and clicked in one
        // script, never held across a redraw.
        wait_css(&bob, "[data-challenge] button.accept").await;
        // (Its answer has no body: what matters is that the session is gone.)
        page_api(&bob, "POST", "/api/logout", json!({})).await;
        let me = bob
            .execute_async(
                "const done = arguments[0]; fetch('/api/me').then((r) => done(r.status));",
                vec![],
            )
            .await
            .unwrap();
        assert_ne!(me, json!(200), "bob is logged out");
        bob.execute(
            "document.querySelector('[data-challenge] button.accept').click()",
            vec![],
        )
        .await
        .unwrap();
        let refusal = wait_until(
            &bob,
            "the refusal under the list",
            "const e = document.getElementById('challenges-error'); return e && e.textContent ? e.textContent : null",
        )
        .await;
        let form_error = bob
            .execute("return document.querySelector('#challenge-form .error').textContent", vec![])
            .await
            .unwrap();
        assert_eq!(form_error, json!(""), "the refusal {refusal} is not under the challenge form");
        for b in [alice, bob, carol] {
            b.close().await.unwrap();
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_player_to_move_may_resume_after_a_suspension() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let alice = driver.browser(1280, 1000).await;
        let bob = driver.browser(1280, 1000).await;
        register(&alice, &app.base, "alice", "1d").await;
        register(&bob, &app.base, "bob", "2d").await;
        let challenge = page_api(
            &alice,
            "POST",
            "/api/challenges",
            json!({"size": 9, "handicap": "ranks", "opponent": "bob"}),
        )
        .await;
        let r = page_api(
            &bob,
            "POST",
            &format!("/api/challenges/{}/accept", challenge["id"]),
            json!({}),
        )
        .await;
        let gid = r["game_id"].to_string();
        assert_eq!(app.state(&gid).await["black"]["name"], "alice");
        // Black E5, White passes, Black passes: suspended, White to move.
        for (b, n, mv) in [(&alice, 1, "E5"), (&bob, 2, "pass"), (&alice, 3, "pass")] {
            let r = page_api(
                b,
                "POST",
                &format!("/api/games/{gid}/moves"),
                json!({"move": mv, "number": n}),
            )
            .await;
            assert!(r.get("reason").is_none(), "{r}");
        }
        for b in [&alice, &bob] {
            b.goto(&format!("{}/#/game/{gid}", app.base)).await.unwrap();
            wait_css(b, "#dead-step").await;
        }
        assert_eq!(app.state(&gid).await["to_move"], "W");
        assert_eq!(
            shown(&alice, "#resume").await,
            Value::Null,
            "Black, not to move, is not offered to resume"
        );
        assert_eq!(shown(&alice, "#accept-dead").await, json!(true));
        let resume = wait_css(&bob, "#resume").await;
        resume.click().await.unwrap();
        click_point(&bob, 9, "C3").await;
        wait_move_count(&bob, 4).await;
        wait_move_count(&alice, 4).await;
        let state = app.state(&gid).await;
        assert_eq!(state["phase"], "playing");
        assert_board_is_servers(&alice, &state, "after the resumption").await;
        for b in [alice, bob] {
            b.close().await.unwrap();
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_judge_page_says_play_goes_on_in_a_game_not_over() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let b = driver.browser(1000, 1000).await;
        b.goto(&format!("{}/#/judge", app.base)).await.unwrap();
        let text = wait_css(&b, "#sgf-text").await;
        text.send_keys("(;SZ[9]KM[8];B[ee];W[cc];B[gg])")
            .await
            .unwrap();
        b.find(css("#judge-run"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let score = wait_until(
            &b,
            "the count of a game not over",
            "return document.getElementById('judge-score')?.textContent || null",
        )
        .await;
        let score = score.as_str().unwrap();
        assert!(
            score.contains("The game is not over: play goes on, White to move after move 3"),
            "{score}"
        );
        b.close().await.unwrap();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chinese_move_labels_and_lobby_phases_are_words() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let b = driver.browser(1280, 1000).await;
        register(&b, &app.base, "alice", "1d").await;
        let mut bob = api_player(&app, "bob", "2d").await;
        let gid = game_by_ranks(&app, &b, &mut bob, 9).await;
        b.goto(&format!("{}/#/", app.base)).await.unwrap();
        b.find(css("#lang")).await.unwrap().select_by_value("zh").await.unwrap();
        let list = wait_until(
            &b,
            "the game in the lobby",
            &format!("const a = document.querySelector('#live-games a[href=\"#/game/{gid}\"]'); return a ? a.textContent : null"),
        )
        .await;
        let list = list.as_str().unwrap();
        assert!(list.contains("對局中") && !list.contains("playing"), "{list}");
        b.goto(&format!("{}/#/game/{gid}", app.base)).await.unwrap();
        wait_move_count(&b, 0).await;
        let status = b
            .execute("return document.getElementById('status').textContent", vec![])
            .await
            .unwrap();
        assert!(status.as_str().unwrap().starts_with("第 0 手 · 輪到你著手"), "{status}");
        b.close().await.unwrap();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_ignores_what_may_not_be_played() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let b = driver.browser(1280, 1000).await;
        let sam = driver.browser(412, 915).await;
        register(&b, &app.base, "alice", "1d").await;
        register(&sam, &app.base, "sam", "5k").await;
        let mut bob = api_player(&app, "bob", "2d").await;
        let gid = game_by_ranks(&app, &b, &mut bob, 9).await;
        b.goto(&format!("{}/#/game/{gid}", app.base)).await.unwrap();
        wait_move_count(&b, 0).await;
        click_point(&b, 9, "E5").await;
        wait_move_count(&b, 1).await;
        // Out of turn a click sends nothing, and marks nothing.
        click_point(&b, 9, "C3").await;
        let after = b
            .execute(
                "return [window.__ingo.sent[2] ?? null, !!document.querySelector('svg.board rect.illegal'), document.getElementById('notice').textContent]",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(after, json!([null, false, ""]), "nothing sent out of turn");
        assert_eq!(app.state(&gid).await["move_count"], json!(1));
        // A spectator has nothing to press, and no hint about playing.
        sam.goto(&format!("{}/#/game/{gid}", app.base)).await.unwrap();
        wait_move_count(&sam, 1).await;
        for selector in ["#pass", "#resign", ".controls .hint"] {
            assert_eq!(shown(&sam, selector).await, json!(false), "the spectator has no {selector}");
        }
        assert_eq!(shown(&sam, "#sgf").await, json!(true));
        for b in [b, sam] {
            b.close().await.unwrap();
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_page_says_what_the_game_is() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let b = driver.browser(1280, 1000).await;
        // Four grades apart: a handicap game, White owing handicap passes.
        register(&b, &app.base, "alice", "5k").await;
        let mut bob = api_player(&app, "bob", "2d").await;
        let challenge = page_api(
            &b,
            "POST",
            "/api/challenges",
            json!({"size": 9, "handicap": "ranks", "opponent": "bob", "time_control": "ing-pp:3h"}),
        )
        .await;
        let r = bob
            .post(
                &format!("/api/challenges/{}/accept", challenge["id"]),
                json!({}),
            )
            .await
            .unwrap();
        let gid = r.body["game_id"].to_string();
        let state = app.state(&gid).await;
        let passes = state["handicap_passes"].as_i64().unwrap();
        assert!(passes >= 1, "{state}");
        assert_eq!(state["black"]["name"], "alice");
        b.goto(&format!("{}/#/game/{gid}", app.base)).await.unwrap();
        wait_move_count(&b, 0).await;
        let about = b
            .execute(
                "return document.getElementById('game-info').textContent",
                vec![],
            )
            .await
            .unwrap();
        let about = about.as_str().unwrap();
        for words in [
            "Ing's rules",
            &format!("komi {}", state["komi"].as_f64().unwrap()),
            &format!(
                "a tie to {}",
                if state["tie_winner"] == "B" {
                    "Black"
                } else {
                    "White"
                }
            ),
            "basic time 3h, then penalty points",
            "2 more after each 30m of overtime, lost on time after 1h30m",
            &format!("White gives {passes} handicap passes"),
        ] {
            assert!(about.contains(words), "{words:?} in {about}");
        }
        // Black's first move, and White's handicap pass, counted.
        click_point(&b, 9, "E5").await;
        wait_move_count(&b, 2).await;
        let status = b
            .execute(
                "return document.getElementById('status').textContent",
                vec![],
            )
            .await
            .unwrap();
        assert!(
            status
                .as_str()
                .unwrap()
                .contains(&format!("White: handicap pass 1 of {passes}")),
            "{status}"
        );
        b.close().await.unwrap();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tap_on_a_phone_waits_for_its_confirmation() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let b = driver.phone(412, 915).await;
        register(&b, &app.base, "alice", "1d").await;
        let mut bob = api_player(&app, "bob", "2d").await;
        let gid = game_by_ranks(&app, &b, &mut bob, 19).await;
        b.goto(&format!("{}/#/game/{gid}", app.base)).await.unwrap();
        wait_move_count(&b, 0).await;
        let on = wait_css(&b, "#confirm-moves").await;
        assert!(on.is_selected().await.unwrap(), "the confirm step is on by default on a touch screen");
        // A tap chooses a point, another tap moves the choice: nothing is sent.
        for point in ["Q16", "D4"] {
            click_point(&b, 19, point).await;
            wait_css(&b, &format!("svg.board circle[data-tentative={point}]")).await;
        }
        let pending = b
            .execute(
                "return [window.__ingo.sent[1] ?? null, document.getElementById('confirm-move').textContent]",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(pending, json!([null, "Play D4"]), "nothing sent before the confirmation");
        assert_eq!(app.state(&gid).await["move_count"], json!(0));
        screenshot(&b, "phone-confirm").await;
        b.find(css("#confirm-move")).await.unwrap().click().await.unwrap();
        wait_move_count(&b, 1).await;
        let state = app.state(&gid).await;
        assert_eq!(state["moves"][0]["move"].as_str().map(str::to_uppercase).as_deref(), Some("D4"));
        assert_board_is_servers(&b, &state, "after the confirmation").await;
        // Switched off, and remembered.
        b.find(css("#confirm-moves")).await.unwrap().click().await.unwrap();
        b.refresh().await.unwrap();
        wait_move_count(&b, 1).await;
        let off = wait_css(&b, "#confirm-moves").await;
        assert!(!off.is_selected().await.unwrap(), "the choice is remembered");
        b.close().await.unwrap();
    })
    .await;
}
