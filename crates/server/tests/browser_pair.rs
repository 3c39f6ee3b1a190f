//! Pair go in a real browser (Chromium over WebDriver, as `browser.rs`): a challenge for pair
//! go made in the lobby's form, each named player accepting their seat, and on the game page
//! the member whose turn it is and the side's own chat, which the other side never sees.
//!
//! Without Chromium or chromedriver the tests fail under CI and are skipped with a note
//! elsewhere (`ingo_testkit::chromium`).

// A failed step of a browser test is a failed test: its panic says where.
#![allow(clippy::unwrap_used)]

mod browser_util;

use std::time::Duration;

use browser_util::*;
use serde_json::json;

/// The four players of a team game: ann, ben and cat in browsers, registered with `ranks`;
/// dan, a program on the API (2段).
struct Players {
    app: App,
    _driver: ChromeDriver,
    ann: Browser,
    ben: Browser,
    cat: Browser,
    dan: ingo_server::client::Client,
}

async fn players(ranks: [&str; 3]) -> Players {
    let app = spawn_app().await;
    let driver = ChromeDriver::start().await;
    let ann = driver.browser(1280, 1000).await;
    let ben = driver.browser(1000, 900).await;
    let cat = driver.browser(1000, 900).await;
    for (b, name, rank) in [
        (&ann, "ann", ranks[0]),
        (&ben, "ben", ranks[1]),
        (&cat, "cat", ranks[2]),
    ] {
        register(b, &app.base, name, rank).await;
    }
    let dan = api_player(&app, "dan", "2d").await;
    Players {
        app,
        _driver: driver,
        ann,
        ben,
        cat,
        dan,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pair_go_side_chat_in_the_browser() {
    bounded(Duration::from_secs(180), flow()).await;
}

async fn flow() {
    let Players {
        app,
        _driver,
        ann,
        ben,
        cat,
        mut dan,
    } = players(["2d", "2d", "2d"]).await;
    let base = app.base.clone();

    // Ann challenges for pair go: ben her partner, cat and dan the opponents.
    let form = challenge_form(&ann, &base).await;
    select(&form, "size", "9").await;
    select(&form, "kind", "pair").await;
    type_into(&form, "partners", "ben").await;
    type_into(&form, "opponents", "cat, dan").await;
    submit(&form).await;

    // Ben and cat accept their seats in the lobby, then dan over the API: the game starts and
    // every browser goes to it.
    for b in [&ben, &cat] {
        b.goto(&format!("{base}/#/")).await.unwrap();
        // Found and clicked in one script: the lobby redraws its list when it changes.
        wait_css(b, "[data-challenge] button.accept").await;
        let text = wait_css(b, "[data-challenge] span")
            .await
            .text()
            .await
            .unwrap();
        assert!(text.contains("ann ✓ & ben"), "{text}");
        b.execute(
            "document.querySelector('[data-challenge] button.accept').click()",
            vec![],
        )
        .await
        .unwrap();
        wait_until(
            b,
            "the seat accepted",
            "const s = document.querySelector('[data-challenge] small'); return s ? s.textContent : null",
        )
        .await;
    }
    let list = dan.get("/api/challenges").await.unwrap().body;
    let cid = list[0]["id"].as_i64().unwrap();
    let r = dan
        .post(&format!("/api/challenges/{cid}/accept"), json!({}))
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{:?}", r.body);
    let gid = r.body["game_id"].as_i64().unwrap().to_string();
    for b in [&ann, &ben, &cat] {
        wait_until(
            b,
            "the game page",
            &format!("return location.hash === '#/game/{gid}' || null"),
        )
        .await;
        wait_move_count(b, 0).await;
    }
    let state = app.state(&gid).await;
    let to_move = state["team"]["to_move"]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    // Whose turn: the member's name, or "Your turn" on that member's page.
    for (name, b) in [("ann", &ann), ("ben", &ben), ("cat", &cat)] {
        let team = wait_until(
            b,
            "the sides",
            "const t = document.getElementById('team'); return t && !t.hidden ? t.textContent : null",
        )
        .await;
        let team = team.as_str().unwrap();
        assert!(
            team.contains("ann & ben") && team.contains("cat & dan"),
            "{team}"
        );
        if name == to_move {
            assert!(team.contains("Your turn"), "{name}: {team}");
        } else {
            assert!(
                team.contains(&format!("{to_move} to move")),
                "{name}: {team}"
            );
        }
        // The status line too: only the member whose turn it is reads "Your turn"; the partner
        // is told it is the partner's move, and the pass button is for the member to move.
        let status = b
            .execute(
                "return document.getElementById('status').textContent",
                vec![],
            )
            .await
            .unwrap();
        let status = status.as_str().unwrap();
        let pass_disabled = b
            .execute("return document.getElementById('pass').disabled", vec![])
            .await
            .unwrap();
        let side_to_move = state["to_move"].as_str().unwrap();
        let on_side = |n: &str| {
            let side = if side_to_move == "B" {
                "black"
            } else {
                "white"
            };
            state["team"][side]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["name"] == n)
        };
        if name == to_move {
            assert!(status.contains("Your turn"), "{name}: {status}");
            assert_eq!(pass_disabled, json!(false), "{name} may pass");
        } else {
            assert!(!status.contains("Your turn"), "{name}: {status}");
            assert_eq!(pass_disabled, json!(true), "{name} may not pass");
            if on_side(name) {
                assert!(status.contains("your partner"), "{name}: {status}");
            }
        }
    }

    // Ann writes in her side's chat: ben reads it; cat (the other side) has a side panel of
    // his own, in which it never appears.
    chat(&ann, "side", "secret: play the ladder").await;
    wait_until(
        &ben,
        "the side's message",
        "const l = document.getElementById('chat-side'); return l && l.textContent.includes('secret: play the ladder') || null",
    )
    .await;
    chat(&ann, "players", "have a good game").await;
    wait_until(
        &cat,
        "the players' message",
        "const l = document.getElementById('chat-players'); return l && l.textContent.includes('have a good game') || null",
    )
    .await;
    let seen = cat
        .execute("return document.body.innerText.includes('secret')", vec![])
        .await
        .unwrap();
    assert_eq!(seen, json!(false), "the other side read the side's chat");
    // After a reload, ben gets the side's chat back from the server; cat still does not.
    ben.refresh().await.unwrap();
    wait_until(
        &ben,
        "the side's chat after a reload",
        "const l = document.getElementById('chat-side'); return l && l.textContent.includes('secret: play the ladder') || null",
    )
    .await;
    cat.refresh().await.unwrap();
    wait_until(
        &cat,
        "the players' chat after a reload",
        "const l = document.getElementById('chat-players'); return l && l.textContent.includes('have a good game') || null",
    )
    .await;
    let seen = cat
        .execute("return document.body.innerText.includes('secret')", vec![])
        .await
        .unwrap();
    assert_eq!(
        seen,
        json!(false),
        "the other side read the side's chat after a reload"
    );
    screenshot(&ben, "pair-game").await;
    for b in [ann, ben, cat] {
        b.close().await.unwrap();
    }
}

/// Consultation in a real browser: the agreement chosen in the lobby's form; a member's click
/// on the board is a proposal that their partner sees with an Agree button, presses with the
/// keyboard, and the move is played; the other side never sees the proposal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn consultation_proposals_in_the_browser() {
    bounded(Duration::from_secs(180), consultation_flow()).await;
}

async fn consultation_flow() {
    // ann and ben (1段) are the weaker side: by ranks they take Black.
    let Players {
        app,
        _driver,
        ann,
        ben,
        cat,
        mut dan,
    } = players(["1d", "1d", "2d"]).await;
    let base = app.base.clone();

    let form = challenge_form(&ann, &base).await;
    for (name, value) in [
        ("size", "9"),
        ("handicap", "ranks"),
        ("kind", "consultation"),
    ] {
        select(&form, name, value).await;
    }
    // The agreement is offered for consultation, every member by default.
    let agreement = wait_until(
        &ann,
        "the agreement field",
        "const s = document.getElementById('challenge-agreement'); return s && !s.closest('label').hidden ? s.value : null",
    )
    .await;
    assert_eq!(agreement, json!("all"));
    type_into(&form, "partners", "ben").await;
    type_into(&form, "opponents", "cat, dan").await;
    submit(&form).await;
    for b in [&ben, &cat] {
        b.goto(&format!("{base}/#/")).await.unwrap();
        // Found and clicked in one script: the lobby redraws its list when it changes.
        wait_css(b, "[data-challenge] button.accept").await;
        b.execute(
            "document.querySelector('[data-challenge] button.accept').click()",
            vec![],
        )
        .await
        .unwrap();
        wait_until(
            b,
            "the seat accepted",
            "const s = document.querySelector('[data-challenge] small'); return s ? s.textContent : null",
        )
        .await;
    }
    let list = dan.get("/api/challenges").await.unwrap().body;
    assert_eq!(list[0]["agreement"], "all");
    let cid = list[0]["id"].as_i64().unwrap();
    let r = dan
        .post(&format!("/api/challenges/{cid}/accept"), json!({}))
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{:?}", r.body);
    let gid = r.body["game_id"].as_i64().unwrap().to_string();
    for b in [&ann, &ben, &cat] {
        wait_until(
            b,
            "the game page",
            &format!("return location.hash === '#/game/{gid}' || null"),
        )
        .await;
        wait_move_count(b, 0).await;
    }
    let state = app.state(&gid).await;
    assert_eq!(state["team"]["black"][0]["name"], "ann");
    assert_eq!(state["team"]["agreement"], "all");

    // ann's click proposes E5: nothing is played; ben sees it with an Agree button.
    click_point(&ann, 9, "E5").await;
    wait_until(
        &ann,
        "ann's proposal",
        "const p = document.getElementById('proposals'); return p && !p.hidden && p.textContent.includes('E5') || null",
    )
    .await;
    let agree = wait_css(&ben, "#proposals button.agree").await;
    let text = wait_css(&ben, "#proposals").await.text().await.unwrap();
    assert!(text.contains("E5") && text.contains("ann"), "{text}");
    assert!(!text.contains("null"), "{text}");
    // The proposed point is on ben's board, with its one vote.
    let votes = wait_until(
        &ben,
        "the proposed stone",
        "const c = document.querySelector('svg.board [data-proposed=E5]'); return c ? c.nextSibling.textContent : null",
    )
    .await;
    assert_eq!(votes, json!("1"));
    // ann, who proposed it, may withdraw it and has no Agree button of her own.
    wait_css(&ann, "#proposals #withdraw").await;
    assert!(ann.find(css("#proposals button.agree")).await.is_err());
    assert_eq!(app.state(&gid).await["move_count"], 0);
    // The other side sees no proposal.
    let seen = cat
        .execute(
            "const p = document.getElementById('proposals'); return (p && (p.textContent.includes('E5') || p.textContent.includes('ann'))) || document.body.innerText.includes('ann (1/2')",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(seen, json!(false), "the other side saw Black's proposal");
    screenshot(&ben, "consultation-proposal").await;
    // ben agrees with the keyboard: Enter on the focused button. The move is played.
    agree.send_keys("\u{E007}").await.unwrap();
    for b in [&ann, &ben, &cat] {
        wait_move_count(b, 1).await;
    }
    assert!(board_of(&cat).await.contains("E5B"));
    // The proposal lapsed: no proposed stone is left on Black's boards.
    for b in [&ann, &ben] {
        wait_until(
            b,
            "no proposed stone",
            "return document.querySelector('svg.board [data-proposed]') ? null : true",
        )
        .await;
    }
    let s = app.state(&gid).await;
    assert_eq!(s["moves"][0]["move"], "E5");
    assert!(s.get("proposals").is_none());
    for b in [ann, ben, cat] {
        b.close().await.unwrap();
    }
}
