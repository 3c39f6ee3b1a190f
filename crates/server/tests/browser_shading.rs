//! What the board shows of the count before the game is over (Chromium over WebDriver, as
//! `browser.rs`): at the dead-stone step, each side's area shaded and the count the marked
//! stones give, both as the server judges them, following each new marking; during play, a
//! score estimate on demand, which a game's agreement may switch off.
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

/// Black's wall on the D line, White's on the F line (the E line between them neutral), a Black
/// stone at C3 and a White one at B5 inside Black's area: 20 moves, Black to move.
const WALLS: [&str; 20] = [
    "D1", "F1", "D2", "F2", "D3", "F3", "D4", "F4", "D5", "F5", "D6", "F6", "D7", "F7", "D8", "F8",
    "D9", "F9", "C3", "B5",
];

/// The proposal's dead stones in a game state.
fn proposal(state: &Value) -> Vec<String> {
    state["dead_stones"]["proposal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_owned())
        .collect()
}

/// Waits until the page's dead-stone step shows the count of `state`'s proposal, then checks
/// that it shades each side's area as the server's owners say.
async fn assert_step_is_servers(b: &Client, state: &Value, what: &str) {
    let count = &state["dead_stones"]["count"];
    let result = count["result"].as_str().expect("a count while suspended");
    let shown = wait_until(
        b,
        &format!("{what}: the count {result} on the page"),
        &format!(
            "const p = document.getElementById('running-count'); return p && p.dataset.result === {} && document.getElementById('proposal').textContent.includes({}) ? p.textContent : null",
            json!(result),
            json!(proposal(state).join(" ")),
        ),
    )
    .await;
    let shown = shown.as_str().unwrap();
    for part in [
        format!("Black's area {}", count["area"]["black"]),
        format!("White's {}", count["area"]["white"]),
    ] {
        assert!(shown.contains(&part), "{what}: {part} in {shown}");
    }
    assert_eq!(
        shading_of(b).await,
        shading_expected(
            &state["dead_stones"]["owners"],
            &state["board"],
            &proposal(state)
        ),
        "{what}: the page shades the server's owners"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_dead_stone_step_shades_the_area_and_counts_as_stones_are_marked() {
    bounded(Duration::from_secs(180), async {
        let (app, _driver, b, mut bob, gid) = nine_by_nine().await;
        play_moves(&b, &mut bob, &gid, 1, &WALLS).await;
        play_moves(&b, &mut bob, &gid, 21, &["pass", "pass"]).await;
        b.goto(&format!("{}/#/game/{gid}", app.base)).await.unwrap();
        wait_css(&b, "#dead-step").await;
        let first = app.state(&gid).await;
        assert_eq!(first["phase"], "suspended");
        assert_step_is_servers(&b, &first, "the server's proposal").await;
        let shading = shading_of(&b).await;
        assert!(!shading.is_empty(), "some area is shaded");
        screenshot(&b, "dead-stones-shading").await;
        // Black's click on B5 marks White's stone dead, or frees it if the server had it dead:
        // the proposal changes, and with it the count and the shading.
        let before = b
            .execute(
                "return document.getElementById('proposal').textContent",
                vec![],
            )
            .await
            .unwrap();
        click_point(&b, 9, "B5").await;
        // The page draws the proposal the server answered: once it shows a new one, the
        // server holds it.
        wait_until(
            &b,
            "the new proposal on the page",
            &format!(
                "return document.getElementById('proposal')?.textContent !== {before} || null"
            ),
        )
        .await;
        let second = app.state(&gid).await;
        assert_ne!(proposal(&second), proposal(&first), "{second}");
        assert_ne!(
            second["dead_stones"]["count"]["result"], first["dead_stones"]["count"]["result"],
            "B5 dead or alive changes the count"
        );
        assert_step_is_servers(&b, &second, "after Black's marking").await;
        assert_ne!(
            shading_of(&b).await,
            shading,
            "the shading follows the marking"
        );
        // Accepted by both: the result is the count the step showed.
        b.find(css("#accept-dead"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let r = bob
            .post(
                &format!("/api/games/{gid}/dead/accept"),
                json!({"dead": proposal(&second)}),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
        let end = app.state(&gid).await;
        assert_eq!(
            end["result"]["result"],
            second["dead_stones"]["count"]["result"]
        );
        b.close().await.unwrap();
    })
    .await;
}

/// Five stones on 9×9, two of which the server's playouts keep alive three times in four or
/// less (the judge page's record in `http/review.rs`, played here as a game).
const FIVE: [&str; 5] = ["E5", "C7", "G3", "C3", "G7"];

/// The verdicts to check in a game state: `C7 46%`, … in the server's order.
fn checks(state: &Value) -> Vec<String> {
    state["dead_stones"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{} {}",
                c["point"].as_str().unwrap(),
                c["note"].as_str().unwrap()
            )
        })
        .collect()
}

/// The verdicts to check in a game state that the winner turns on, by their first stone.
fn turning(state: &Value) -> Vec<String> {
    state["dead_stones"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["turns_winner"] == true)
        .map(|c| c["point"].as_str().unwrap().to_owned())
        .collect()
}

/// The rings the page draws (`data-check` of `svg.board g.check`), sorted.
async fn rings_of(b: &Client) -> Vec<String> {
    let v = b
        .execute(
            "return [...document.querySelectorAll('svg.board g.check')].map(g => g.dataset.check).sort()",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_dead_stone_step_rings_the_verdicts_to_check_until_play_resumes() {
    bounded(Duration::from_secs(180), async {
        let (app, _driver, b, mut bob, gid) = nine_by_nine().await;
        play_moves(&b, &mut bob, &gid, 1, &FIVE).await;
        play_moves(&b, &mut bob, &gid, 6, &["pass", "pass"]).await;
        let state = app.state(&gid).await;
        assert_eq!(state["phase"], "suspended");
        let mut want = checks(&state);
        assert_eq!(want.len(), 2, "two doubtful strings: {state}");
        for c in &want {
            assert!(c.ends_with('%'), "held by the playouts: {c}");
        }
        // Stored with the proposal: a server started anew on the database shows the same.
        let second = app.restart().await;
        let again = ApiClient::new(second.addr)
            .get(&format!("/api/games/{gid}"))
            .await
            .unwrap();
        assert_eq!(checks(&again.body), want, "the checks are stored");
        b.goto(&format!("{}/#/game/{gid}", app.base)).await.unwrap();
        wait_css(&b, "#dead-step").await;
        let line = wait_until(
            &b,
            "the verdicts to check under the count",
            "const p = document.getElementById('dead-checks'); return p && p.textContent || null",
        )
        .await;
        let line = line.as_str().unwrap();
        assert!(
            line.contains(&format!("Verdicts to check (ringed): {}", want.join(", "))),
            "{line}"
        );
        want.sort();
        assert_eq!(rings_of(&b).await, want, "a ring on each string named");
        // The winner turns on G3 alone (Black wins by 3 with it alive): the state says so, a
        // line names it, and its ring is the red one.
        assert_eq!(turning(&state), vec!["G3".to_owned()], "{state}");
        assert_eq!(turning(&again.body), turning(&state), "stored with the checks");
        let turns = wait_until(
            &b,
            "the verdicts the winner turns on",
            "const p = document.getElementById('dead-turns'); return p && p.textContent || null",
        )
        .await;
        assert!(
            turns
                .as_str()
                .unwrap()
                .starts_with("The winner turns on (ringed in red): G3."),
            "{turns}"
        );
        let red = b
            .execute(
                "return [...document.querySelectorAll('svg.board g.check.turns')].map(g => g.dataset.check)",
                vec![],
            )
            .await
            .unwrap();
        let red: Vec<String> = serde_json::from_value(red).unwrap();
        assert_eq!(red.len(), 1, "{red:?}");
        assert!(red[0].starts_with("G3 "), "{red:?}");
        screenshot(&b, "dead-stones-checks").await;
        // Marking a string dead changes the proposal, not the judgement's doubts.
        let before = b
            .execute("return document.getElementById('proposal').textContent", vec![])
            .await
            .unwrap();
        let first = want[0].split(' ').next().unwrap().to_owned();
        click_point(&b, 9, &first).await;
        wait_until(
            &b,
            "the new proposal on the page",
            &format!(
                "return document.getElementById('proposal')?.textContent !== {before} || null"
            ),
        )
        .await;
        assert_eq!(rings_of(&b).await, want, "the rings stay with a marking");
        // Play resumes (White, to move, plays): no step, no rings, none in the state.
        play_moves(&b, &mut bob, &gid, 8, &["A1"]).await;
        wait_move_count(&b, 8).await;
        wait_until(
            &b,
            "the rings gone",
            "return !document.getElementById('dead-step') && !document.getElementById('dead-turns') && !document.querySelector('svg.board g.check') || null",
        )
        .await;
        assert_eq!(checks(&app.state(&gid).await), Vec::<String>::new());
        b.close().await.unwrap();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_score_estimate_during_play_unless_the_game_forbids_it() {
    bounded(Duration::from_secs(180), async {
        let (app, _driver, b, mut bob, gid) = nine_by_nine().await;
        play_moves(&b, &mut bob, &gid, 1, &WALLS).await;
        b.goto(&format!("{}/#/game/{gid}", app.base)).await.unwrap();
        wait_move_count(&b, 20).await;
        assert_eq!(app.state(&gid).await["estimate_allowed"], json!(true));
        assert_eq!(shading_of(&b).await, "", "nothing shaded during play");
        wait_css(&b, "#estimate-btn").await.click().await.unwrap();
        let text = wait_until(
            &b,
            "the estimate",
            "const e = document.getElementById('estimate'); return e && !e.hidden && e.textContent || null",
        )
        .await;
        // The page shows the server's estimate (the judgement is deterministic).
        let estimate: Value = serde_json::from_str(
            &app.get_text(&format!("/api/games/{gid}/estimate")).await,
        )
        .unwrap();
        let result = estimate["score"]["result"].as_str().unwrap();
        assert!(
            text.as_str().unwrap().contains(&format!("Estimate after move 20: {result}")),
            "{text}"
        );
        let dead: Vec<String> = estimate["dead"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_owned())
            .collect();
        let state = app.state(&gid).await;
        assert_eq!(
            shading_of(&b).await,
            shading_expected(&estimate["owners"], &state["board"], &dead),
            "the page shades the estimate's owners"
        );
        // A move played makes it lapse.
        play_moves(&b, &mut bob, &gid, 21, &["E5"]).await;
        wait_move_count(&b, 21).await;
        wait_until(
            &b,
            "the estimate gone",
            "return document.getElementById('estimate').hidden && !document.querySelector('svg.board rect.territory') || null",
        )
        .await;
        // A game whose agreement forbids estimates (an event's) offers none, and the server
        // refuses one.
        app.server
            .game(gid.parse().unwrap())
            .await
            .unwrap()
            .lock()
            .await
            .set_estimate_allowed(false);
        b.refresh().await.unwrap();
        wait_move_count(&b, 21).await;
        let button = b
            .execute(
                "const e = document.getElementById('estimate-btn'); return e ? e.hidden : null",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(button, json!(true), "no estimate button");
        assert_eq!(app.state(&gid).await["estimate_allowed"], json!(false));
        let r = ingo_server::client::Client::new(app.addr)
            .get(&format!("/api/games/{gid}/estimate"))
            .await
            .unwrap();
        assert_eq!((r.status, r.body["reason"].clone()), (403, json!("estimate-off")));
        b.close().await.unwrap();
    })
    .await;
}
