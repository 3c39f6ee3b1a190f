//! The game page's clocks in a real browser (Chromium over WebDriver, as `browser.rs`): the page
//! runs every phase of every time control by itself from the state it was given, as
//! crates/clock counts it, and warns before the basic time and each penalty step run out.
//!
//! * A game under Ing's penalty-point overtime with a short basic time, in which nobody moves:
//!   the page shows the basic time running out (with its warning), then overtime with the
//!   penalty points growing 2, 4, 6, then the loss on time the server declares.
//! * The page's clock module (`/assets/clock.js`) against `ingo_clock::Clock`: for each kind of
//!   control, the state the server would send at some moment, and what the page shows from it
//!   at many later moments, compared with what the clock crate holds then.
//!
//! Without Chromium or chromedriver the tests fail under CI and are skipped with a note
//! elsewhere (`ingo_testkit::chromium`).

// A failed step of a browser test is a failed test: its panic says where.
#![allow(clippy::unwrap_used)]

mod browser_util;

use std::time::Duration;

use browser_util::*;
use ingo_clock::{pp_status, Clock, ClockEvent, TimeControl};
use ingo_rules::Color;
use serde_json::{json, Value};

/// The basic time of the overtime game: its overtime is 9 s, three penalty steps of 3 s.
const BASIC: &str = "ing-pp:18s";

/// The clock of `color` on the page, as one script reads it: its phase, penalty points,
/// whether it warns, and its text.
fn clock_script(color: &str) -> String {
    format!(
        "const c = document.querySelector('#clock-{color} .clock'); return c ? [c.dataset.phase, Number(c.dataset.penalty || 0), c.classList.contains('warn'), c.textContent] : null"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clock_runs_into_ing_overtime_without_a_move() {
    bounded(Duration::from_secs(180), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let b = driver.browser(1280, 1000).await;
        // The weaker player takes Black under a handicap by ranks: alice, whose clock runs.
        register(&b, &app.base, "alice", "1k").await;
        let mut bob = api_player(&app, "bob", "1d").await;
        // The sound of the warnings, switched on from the game page and remembered.
        let challenge = page_api(
            &b,
            "POST",
            "/api/challenges",
            json!({"size": 9, "handicap": "ranks", "opponent": "bob", "time_control": BASIC}),
        )
        .await;
        let r = bob
            .post(&format!("/api/challenges/{}/accept", challenge["id"]), json!({}))
            .await
            .unwrap();
        assert_eq!(r.status, 201, "{:?}", r.body);
        let gid = r.body["game_id"].to_string();
        b.goto(&format!("{}/#/game/{gid}", app.base)).await.unwrap();
        wait_move_count(&b, 0).await;
        let state = app.state(&gid).await;
        assert_eq!(state["black"]["name"], "alice", "{state}");
        assert_eq!(state["clocks"]["black"]["control"]["kind"], "ing-pp");
        let sound = wait_css(&b, "#clock-sound").await;
        sound.click().await.unwrap();
        let stored = b
            .execute("return localStorage.getItem('ingo-clock-sound')", vec![])
            .await
            .unwrap();
        assert_eq!(stored, json!("1"), "the sound switch is remembered");

        let black = clock_script("B");
        // The basic time runs down, and the page warns before it runs out.
        let warned = wait_until(
            &b,
            "the warning before the basic time runs out",
            &format!("const c = (() => {{ {black} }})(); return c && c[0] === 'basic' && c[2] ? c : null"),
        )
        .await;
        assert!(warned[3].as_str().unwrap().contains("Basic time 0:0"), "{warned}");
        // Then overtime, its penalty points growing at each sixth of the basic time, with
        // nothing sent by the server in between (no move is made).
        for points in [2, 4, 6] {
            let shown = wait_until(
                &b,
                &format!("overtime with {points} penalty points"),
                &format!("const c = (() => {{ {black} }})(); return c && c[0] === 'overtime' && c[1] === {points} ? c : null"),
            )
            .await;
            let text = shown[3].as_str().unwrap();
            assert!(
                text.contains("Overtime") && text.contains(&format!("{points} penalty points")),
                "{text}"
            );
            if points == 4 {
                screenshot(&b, "clock-overtime").await;
            }
        }
        assert_eq!(
            app.state(&gid).await["move_count"],
            json!(0),
            "no move was made"
        );
        // The loss on time, as the server declares it.
        let result = wait_until(
            &b,
            "the loss on time",
            "const r = document.getElementById('result'); return r && r.textContent.includes('W+T') ? r.textContent : null",
        )
        .await;
        assert!(result.as_str().unwrap().contains("on time"), "{result}");
        // The page warned before the basic time and before each penalty step ran out, with a
        // sound each time, the player having switched it on.
        let warned = b
            .execute("return [window.__ingo.warned, window.__ingo.beeps]", vec![])
            .await
            .unwrap();
        assert_eq!(
            warned[0],
            json!(["basic", "pp-2", "pp-4", "pp-6"]),
            "{warned}"
        );
        assert!(warned[1].as_u64().unwrap() >= 4, "{warned}");
        b.refresh().await.unwrap();
        let checked = wait_css(&b, "#clock-sound").await;
        assert!(checked.is_selected().await.unwrap(), "the sound stays on after a reload");
        b.close().await.unwrap();
    })
    .await;
}

/// One moment of the comparison: the clock crate's view, and what the page shows.
struct Case {
    what: String,
    snapshot: Value,
    /// (ms after the snapshot, expected `[main_ms, periods_or_stones, in_overtime, points, lost]`)
    points: Vec<(u64, Value)>,
}

/// The cases of `control`: Black to move after `prior` (each move's duration, Black first),
/// the state taken `d0` ms into Black's move, and what Black's clock holds at each later ms;
/// `None` when a move of `prior`, or the move in progress by `d0`, loses on time under `control`.
fn cases(control: &str, prior: &[u64], d0: u64) -> Option<Case> {
    let tc: TimeControl = control.parse().unwrap();
    let mut clock = Clock::new(tc).unwrap();
    let ms = Duration::from_millis;
    let mut now = Duration::ZERO;
    clock.start(Color::Black, now).unwrap();
    let mut side = Color::Black;
    for &d in prior {
        now += ms(d);
        if clock.press(side, now).unwrap() == ClockEvent::Flagged {
            return None;
        }
        side = side.opponent();
    }
    assert_eq!(side, Color::Black, "{control}: Black to move");
    let since = now;
    let t0 = since + ms(d0);
    if clock.clone().check(t0).unwrap().is_some() {
        // Past the deadline already: the server has declared the loss, no page runs this clock.
        return None;
    }
    let snapshot = serde_json::to_value(ingo_server::play::view::clock_view(
        Some(&clock),
        Color::Black,
        t0,
    ))
    .unwrap();
    let mut points = Vec::new();
    let mut xs: Vec<u64> = (0..=400).map(|k| k * 100).collect();
    xs.extend((1..=80).flat_map(|k| [k * 500 - 1, k * 500 + 1]));
    xs.sort_unstable();
    for x in xs {
        let t = t0 + ms(x);
        let lost = clock.clone().check(t).unwrap() == Some(Color::Black);
        let left = clock.time_left(Color::Black, t);
        let points_now = match tc {
            TimeControl::IngPenalty { basic } => pp_status(
                clock.time_used(Color::Black) + clock.deducted(Color::Black) + (t - since),
                basic,
            )
            .points(),
            _ => 0,
        };
        let expected = match left {
            None => json!([null, 0, false, 0, false]),
            Some(_) if lost => json!(["lost"]),
            Some(l) => json!([
                l.main.as_millis() as u64,
                l.periods_or_stones,
                l.in_overtime,
                points_now,
                false
            ]),
        };
        points.push((x, expected));
    }
    Some(Case {
        what: format!("{control} after {prior:?}, {d0} ms into Black's move"),
        snapshot,
        points,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_clock_agrees_with_the_clock_crate() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let b = driver.browser(800, 600).await;
        b.goto(&format!("{}/#/", app.base)).await.unwrap();
        wait_css(&b, "#challenge-form").await;
        let mut all = Vec::new();
        // Each control from a fresh clock, from a state taken in the middle of a move, and
        // after a first move of Black's that went into overtime (White's a short one).
        for control in [
            "ing-pp:12s",
            "ing-pp:10s",
            "ing-pp:6s",
            "ing-rs:6s+3x4s",
            "byoyomi:6s+3x4s",
            "canadian:6s+3/8s",
            "fischer:6s+3s",
            "fischer:6s+5s[max 9s]",
            "absolute:8s",
            "none",
        ] {
            for (prior, d0) in [
                (&[][..], 0),
                (&[][..], 3_000),
                (&[7_500, 1_000][..], 0),
                (&[7_500, 1_000][..], 1_500),
                (&[2_000, 1_000, 2_000, 1_000][..], 500),
            ] {
                all.extend(cases(control, prior, d0));
            }
        }
        let input: Vec<Value> = all
            .iter()
            .map(|c| json!({"snapshot": c.snapshot, "xs": c.points.iter().map(|p| p.0).collect::<Vec<_>>()}))
            .collect();
        let shown = b
            .execute_async(
                "const [cases, done] = arguments; import('/assets/clock.js').then(({ clockAt }) => done(cases.map((c) => c.xs.map((x) => { \
                   const r = clockAt(c.snapshot, c.snapshot.running ? x : 0); \
                   return r.lost ? ['lost'] : [r.main_ms, r.periods_or_stones, r.in_overtime, r.penalty_points, false]; \
                 }))), (e) => done(String(e)));",
                vec![json!(input)],
            )
            .await
            .unwrap();
        let shown = shown.as_array().unwrap_or_else(|| panic!("{shown}"));
        let mut compared = 0;
        for (case, page) in all.iter().zip(shown) {
            for ((x, expected), got) in case.points.iter().zip(page.as_array().unwrap()) {
                assert_eq!(
                    got, expected,
                    "{}: {x} ms after the state {}: the page shows what the clock holds",
                    case.what, case.snapshot
                );
                compared += 1;
            }
        }
        assert!(compared > 10_000, "{compared} moments compared");
        // The lobby says a challenge's control in words from its text alone: the page reads the
        // text as the clock crate does.
        let texts = [
            "ing-pp:3h",
            "ing-pp:1h30m",
            "ing-rs:30m+3x30s",
            "byoyomi:10m+5x30s",
            "canadian:20m+25/5m",
            "fischer:10m+10s",
            "fischer:10m+10s[max 20m]",
            "absolute:90s",
            "none",
            "PP:45m",
            "japanese:1h+3x1m",
        ];
        let expected: Vec<Value> = texts
            .iter()
            .map(|t| {
                let tc: TimeControl = t.parse().unwrap();
                serde_json::to_value(ingo_server::play::view::ControlView::from(tc)).unwrap()
            })
            .collect();
        let read = b
            .execute_async(
                "const [texts, done] = arguments; import('/assets/clock.js').then(({ parseControl }) => done(texts.map((t) => { \
                   const k = parseControl(t); \
                   return k && { kind: k.kind, main_ms: k.main_ms ?? null, periods: k.periods ?? null, stones: k.stones ?? null, \
                     period_ms: k.period_ms ?? null, increment_ms: k.increment_ms ?? null, max_ms: k.max_ms ?? null }; \
                 })), (e) => done(String(e)));",
                vec![json!(texts)],
            )
            .await
            .unwrap();
        assert_eq!(read, json!(expected), "the page reads {texts:?} as the clock crate does");
        b.close().await.unwrap();
    })
    .await;
}
