//! An Ing event on the web board (Chromium over WebDriver, as `browser.rs`): the director
//! creates the event from its agreement on the page, opens registration, approves the
//! registrations, pairs the round and starts it from the director's page; a player registers
//! from the event page and is taken to the round's game by the Check-in button; the event page
//! and the demonstration boards (傳譜) follow a move and the results as they happen.
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

/// A Swiss of three rounds on 9×9 under Ing's rules, 20 minutes a player.
const AGREEMENT: &str = r#"name = "Browser cup"
purpose = "The rules of Ing played online"
eligibility = "Accounts of this server"
registration = { opens = "2026-12-01", closes = "2026-12-02" }
size = 9
time = { control = "absolute:20m" }
format = { kind = "swiss", rounds = 3 }
scoring = { tie_breakers = ["A1", "A2", "B1", "B2"] }
"#;

/// `GET path` as anyone sees it.
async fn public(app: &App, path: &str) -> Value {
    let r = ApiClient::new(app.addr).get(path).await.unwrap();
    assert_eq!(r.status, 200, "GET {path}: {:?}", r.body);
    r.body
}

async fn ok(c: &mut ApiClient, path: &str, body: Value) -> Value {
    let r = c.post(path, body.clone()).await.unwrap();
    assert!(
        (200..300).contains(&r.status),
        "POST {path} {body}: {} {:?}",
        r.status,
        r.body
    );
    r.body
}

/// Clicks the element `selector` (found and clicked in one script: lists redraw).
async fn click(b: &Client, selector: &str) {
    wait_until(
        b,
        &format!("{selector} to click"),
        &format!(
            "const e = document.querySelector({}); if (!e || e.disabled) return null; e.click(); return true",
            json!(selector)
        ),
    )
    .await;
}

/// The text of `selector` once it satisfies `test` (a JavaScript expression of `t`).
async fn wait_text(b: &Client, what: &str, selector: &str, test: &str) -> String {
    wait_until(
        b,
        what,
        &format!(
            "const e = document.querySelector({}); const t = e && e.textContent; return e && ({test}) ? t : null",
            json!(selector)
        ),
    )
    .await
    .as_str()
    .unwrap()
    .to_owned()
}

/// The pairing of round 1 where `name` plays: (board, black, white, game id).
async fn pairing_of(app: &App, id: i64, name: &str) -> (u64, String, String, Option<i64>) {
    let v = public(app, &format!("/api/events/{id}")).await;
    let p = v["rounds"][0]["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["black"] == name || p["white"] == name)
        .unwrap_or_else(|| panic!("{name} in round 1: {v}"))
        .clone();
    (
        p["board"].as_u64().unwrap(),
        p["black"].as_str().unwrap().to_owned(),
        p["white"].as_str().unwrap().to_owned(),
        p["game_id"].as_i64(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_is_run_from_its_pages_and_followed_live() {
    bounded(Duration::from_secs(300), async {
        let app = spawn_app_with(|c| c.directors = vec!["td".into()]).await;
        let driver = ChromeDriver::start().await;
        let td = driver.browser(1280, 1100).await;
        let ann = driver.browser(1280, 1000).await;
        register(&td, &app.base, "td", "3d").await;
        register(&ann, &app.base, "ann", "2d").await;
        let mut others = Vec::new();
        for (name, rank) in [("bo", "1d"), ("cy", "1k"), ("di", "2k")] {
            others.push((name, api_player(&app, name, rank).await));
        }

        // The director creates the event on the page, from the agreement's text.
        td.goto(&format!("{}/#/", app.base)).await.unwrap();
        click(&td, "#new-event").await;
        let text = wait_css(&td, "#agreement-text").await;
        text.send_keys(AGREEMENT).await.unwrap();
        click(&td, "#new-event-form button[type=submit]").await;
        let hash = wait_until(
            &td,
            "the director's page of the new event",
            "return /^#\\/event\\/\\d+\\/direct$/.test(location.hash) ? location.hash : null",
        )
        .await;
        let id: i64 = hash.as_str().unwrap().split('/').nth(2).unwrap().parse().unwrap();
        click(&td, "#toggle-registration").await;
        wait_text(&td, "registration open", "#event-status", "t === 'registration open'").await;

        // The player finds the event in the lobby and registers from its page.
        ann.goto(&format!("{}/#/", app.base)).await.unwrap();
        click(&ann, &format!("#events a[href='#/event/{id}']")).await;
        click(&ann, "#register-event").await;
        wait_css(&ann, "#registered").await;
        for (_, c) in others.iter_mut() {
            ok(c, &format!("/api/events/{id}/register"), json!({})).await;
        }

        // The director approves each registration on the page (ann's with a corrected rank),
        // closes registration and pairs round 1.
        wait_until(
            &td,
            "four registrations waiting",
            "return document.querySelectorAll('#pending li[data-pending]').length === 4 || null",
        )
        .await;
        td.execute(
            "document.querySelector('#pending li[data-pending=\"ann\"] input').value = '3d'",
            vec![],
        )
        .await
        .unwrap();
        for name in ["ann", "bo", "cy", "di"] {
            click(&td, &format!("#pending li[data-pending='{name}'] button.approve")).await;
            wait_until(
                &td,
                &format!("{name} entered"),
                &format!("return document.querySelector(\"#direct-entrants li[data-entrant='{name}']\") && true || null"),
            )
            .await;
        }
        let v = public(&app, &format!("/api/events/{id}")).await;
        assert_eq!(v["entrants"][0]["name"], "ann", "{v}");
        assert_eq!(v["entrants"][0]["rank"], "3d", "the director's rank: {v}");
        click(&td, "#toggle-registration").await;
        wait_text(&td, "registration closed", "#event-status", "t === 'in play'").await;
        click(&td, "#pair-auto").await;
        wait_css(&td, "#start-round").await;
        let (board, black, white, _) = pairing_of(&app, id, "ann").await;
        // Everyone but ann checks in before the start; the director sees who has not.
        let v = public(&app, &format!("/api/events/{id}")).await;
        for p in v["rounds"][0]["pairings"].as_array().unwrap() {
            for side in ["black", "white"] {
                let n = p[side].as_str().unwrap();
                if let Some((_, c)) = others.iter_mut().find(|(o, _)| *o == n) {
                    ok(c, &format!("/api/events/{id}/checkin"), json!({})).await;
                }
            }
        }
        wait_until(
            &td,
            "only ann not checked in",
            "const l = [...document.querySelectorAll('#not-checked li')].map(e => e.dataset.name); return l.length === 1 && l[0] === 'ann' || null",
        )
        .await;
        screenshot(&td, "event-director").await;
        click(&td, "#start-round").await;
        wait_until(
            &td,
            "round 1 started",
            "return !document.getElementById('start-round') && document.querySelector('#direct-round') && true || null",
        )
        .await;

        // ann, on the event page all along, checks in and is taken to her game.
        click(&ann, "#checkin").await;
        let game_hash = wait_until(
            &ann,
            "ann's game page",
            "return location.hash.startsWith('#/game/') ? location.hash : null",
        )
        .await;
        let (_, _, _, gid) = pairing_of(&app, id, "ann").await;
        let gid = gid.expect("ann's game started on her arrival");
        assert_eq!(game_hash, json!(format!("#/game/{gid}")));
        wait_css(&ann, "svg.board").await;

        // A spectator on the event page; the director on the demonstration boards.
        let sp = driver.browser(1280, 1400).await;
        sp.goto(&format!("{}/#/event/{id}", app.base)).await.unwrap();
        wait_css(&sp, &format!("#rounds tr[data-board='{board}']")).await;
        // It follows the event's WebSocket (the poll is only the fallback).
        wait_until(
            &sp,
            "the event's socket",
            "return window.__ingoEvents.mode === 'socket' || null",
        )
        .await;
        td.goto(&format!("{}/#/event/{id}/round/1/boards", app.base))
            .await
            .unwrap();
        wait_until(
            &td,
            "both boards shown",
            "return document.querySelectorAll('.demo-card[data-moves=\"0\"]').length === 2 || null",
        )
        .await;

        // A move on ann's board: the demonstration board shows it.
        let path = format!("/api/games/{gid}/moves");
        if black == "ann" {
            let r = page_api(&ann, "POST", &path, json!({"move": "E5", "number": 1})).await;
            assert!(r.get("reason").is_none(), "{r}");
        } else {
            let (_, c) = others.iter_mut().find(|(o, _)| *o == black).unwrap();
            ok(c, &path, json!({"move": "E5", "number": 1})).await;
        }
        wait_until(
            &td,
            "the move on the demonstration board",
            &format!(
                "const c = document.querySelector(\".demo-card[data-board='{board}']\"); return c && c.dataset.moves === '1' && c.querySelector('circle.stone.black[data-point=E5]') && true || null"
            ),
        )
        .await;

        // Results: ann's opponent resigns; on the other board White resigns.
        let opponent = if black == "ann" { &white } else { &black };
        let (_, c) = others.iter_mut().find(|(o, _)| o == opponent).unwrap();
        ok(c, &format!("/api/games/{gid}/resign"), json!({})).await;
        let expected = if black == "ann" { "B+R" } else { "W+R" };
        let v = public(&app, &format!("/api/events/{id}")).await;
        let other = v["rounds"][0]["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["board"] != board)
            .unwrap()
            .clone();
        let other_board = other["board"].as_u64().unwrap();
        let other_white = other["white"].as_str().unwrap();
        let other_gid = other["game_id"].as_i64().unwrap();
        let (_, c) = others.iter_mut().find(|(o, _)| *o == other_white).unwrap();
        ok(c, &format!("/api/games/{other_gid}/resign"), json!({})).await;

        wait_until(
            &td,
            "the results on the demonstration boards",
            &format!(
                "const r = (b) => document.querySelector(`.demo-card[data-board='${{b}}']`)?.dataset.result; return r({board}) === '{expected}' && r({other_board}) === 'B+R' || null"
            ),
        )
        .await;
        wait_until(
            &sp,
            "the results on the event page",
            &format!(
                "const r = (b) => document.querySelector(`#rounds tr[data-board='${{b}}']`)?.dataset.result; return r({board}) === '{expected}' && r({other_board}) === 'B+R' || null"
            ),
        )
        .await;
        let main = wait_until(
            &sp,
            "ann's main score in the standings",
            "const c = document.querySelector(\"#standings tr[data-player='ann'] td[data-key=main]\"); return c && c.textContent === '1' ? c.textContent : null",
        )
        .await;
        let standings = public(&app, &format!("/api/events/{id}/standings")).await;
        let row = standings
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["player"] == "ann")
            .unwrap();
        assert_eq!(json!(row["main"].to_string()), main, "{standings}");
        screenshot(&sp, "event").await;
        screenshot(&td, "demo-boards").await;

        // The large-screen layout for a projector: the boards alone, larger.
        click(&td, "#projector").await;
        wait_until(
            &td,
            "the large-screen layout",
            "return document.body.classList.contains('projector') && getComputedStyle(document.querySelector('header')).display === 'none' || null",
        )
        .await;
        click(&td, "#projector").await;

        // In Chinese, in the rule text's terms.
        sp.find(css("#lang"))
            .await
            .unwrap()
            .select_by_value("zh")
            .await
            .unwrap();
        let agreement = wait_text(&sp, "the agreement in Chinese", "#agreement", "t.includes('賽制')").await;
        for term in ["賽約", "採用規則", "對局時限", "處罰規則", "罰停", "瑞士制"] {
            assert!(agreement.contains(term), "{term} in {agreement}");
        }
        wait_text(&sp, "the standings in Chinese", "#standings", "t.includes('主分')").await;

        // On a phone: one column, nothing wider than the screen (the tables scroll).
        let phone = driver.phone(390, 844).await;
        phone
            .goto(&format!("{}/#/event/{id}", app.base))
            .await
            .unwrap();
        wait_css(&phone, "#standings tr[data-player='ann']").await;
        let fits = phone
            .execute(
                "return document.documentElement.scrollWidth <= window.innerWidth",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(fits, json!(true), "the event page fits a phone's width");
        phone.close().await.unwrap();

        // A player has no director's page, nor a link to it.
        ann.goto(&format!("{}/#/event/{id}", app.base)).await.unwrap();
        wait_css(&ann, "#standings").await;
        let link = ann
            .execute("return !!document.getElementById('direct-link')", vec![])
            .await
            .unwrap();
        assert_eq!(link, json!(false), "no director's link for a player");
        ann.goto(&format!("{}/#/event/{id}/direct", app.base))
            .await
            .unwrap();
        wait_css(&ann, "#not-director").await;

        // Each demonstration board opens its game.
        click(&td, &format!(".demo-card[data-board='{board}']")).await;
        wait_until(
            &td,
            "the board's game page",
            &format!("return location.hash === '#/game/{gid}' || null"),
        )
        .await;

        for b in [td, ann, sp] {
            b.close().await.unwrap();
        }
    })
    .await;
}
