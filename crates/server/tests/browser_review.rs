//! The review page as an analysis board (Chromium over WebDriver, as `browser.rs`): a
//! variation played on the board from a move of the game, each move judged by the server under
//! Ing's rules (a hot stone retaken at once is refused, with the rule), the way back to the
//! game's line, and the SGF of the game with its variations as branches.
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

/// A ko on the D and E lines: Black's E5 (move 9) takes White's D5, and White may not retake
/// at once; then a move each elsewhere.
const KO_GAME: [&str; 11] = [
    "D6", "E6", "C5", "F5", "D4", "E4", "J9", "D5", "E5", "J1", "A9",
];

/// The stones of a board given as rows from the top, as [`board_of`] writes a page's.
fn stones_of(rows: &Value) -> String {
    board_text(&json!({ "board": rows }))
}

/// Waits until the review page's label says `text`, and answers it.
async fn wait_label(b: &Client, text: &str) -> String {
    wait_until(
        b,
        &format!("the label {text:?}"),
        &format!(
            "const l = document.getElementById('step-label'); return l && l.textContent.includes({}) ? l.textContent : null",
            json!(text)
        ),
    )
    .await
    .as_str()
    .unwrap()
    .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_variation_is_played_in_review_under_ings_rules() {
    bounded(Duration::from_secs(180), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let b = driver.browser(1280, 1200).await;
        register(&b, &app.base, "alice", "1d").await;
        let mut bob = api_player(&app, "bob", "2d").await;
        let gid = ranked_game(&app, &b, &mut bob, 9).await;
        play_moves(&b, &mut bob, &gid, 1, &KO_GAME).await;
        let r = bob
            .post(&format!("/api/games/{gid}/resign"), json!({}))
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
        let game_sgf = app.get_text(&format!("/api/games/{gid}/sgf")).await;

        b.goto(&format!("{}/#/review/{gid}", app.base)).await.unwrap();
        wait_label(&b, "Move 11 of 11").await;
        // Back to move 9, Black's capture of the ko.
        for _ in 0..2 {
            b.execute(
                "document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft' }))",
                vec![],
            )
            .await
            .unwrap();
        }
        wait_label(&b, "Move 9 of 11").await;
        let at_nine = board_of(&b).await;
        assert!(!at_nine.contains("D5W"), "D5 was taken: {at_nine}");

        // White retakes the ko at once: the server refuses it, naming the rule; nothing moves.
        click_point(&b, 9, "D5").await;
        let refusal = wait_until(
            &b,
            "the refusal",
            "const n = document.getElementById('review-notice'); return n && n.dataset.reason ? [n.dataset.reason, n.textContent] : null",
        )
        .await;
        assert_eq!(refusal[0], "hot-stone", "{refusal}");
        assert!(refusal[1].as_str().unwrap().contains("White D5"), "{refusal}");
        assert!(refusal[1].as_str().unwrap().contains("hot stone"), "{refusal}");
        assert_eq!(board_of(&b).await, at_nine, "the refused move is not drawn");
        assert!(b.find(css("svg.board rect.illegal")).await.is_ok());

        // White plays elsewhere, then Black connects at D5: the variation, as the server has it.
        click_point(&b, 9, "J5").await;
        wait_label(&b, "Variation from move 9 · Move 10 · White J5").await;
        click_point(&b, 9, "D5").await;
        wait_label(&b, "Variation from move 9 · Move 11 · Black D5").await;
        let page = board_of(&b).await;
        let server = ingo_server::client::Client::new(app.addr)
            .post(
                &format!("/api/games/{gid}/variation"),
                json!({"from": 9, "moves": ["J5", "D5"]}),
            )
            .await
            .unwrap();
        assert_eq!(server.status, 200, "{:?}", server.body);
        assert_eq!(page, stones_of(&server.body["boards"][1]), "the page draws the server's position");
        assert!(page.contains("D5B") && page.contains("J5W"), "{page}");
        let notice = b
            .execute("return document.getElementById('review-notice').textContent", vec![])
            .await
            .unwrap();
        assert_eq!(notice, json!(""), "the refusal is gone once a move is played");
        screenshot(&b, "review-variation").await;

        // Back to the game: its position at move 9 again.
        b.find(css("#back-to-game")).await.unwrap().click().await.unwrap();
        wait_label(&b, "Move 9 of 11").await;
        assert_eq!(board_of(&b).await, at_nine);
        let hidden = b
            .execute("return document.getElementById('variation').hidden", vec![])
            .await
            .unwrap();
        assert_eq!(hidden, json!(true));

        // The SGF with the variation: the game's line, and the variation branching at move 9.
        b.find(css("#variations-sgf")).await.unwrap().click().await.unwrap();
        let text = wait_until(
            &b,
            "the SGF of the variations",
            "return window.__ingo.variationsSgf",
        )
        .await;
        let text = text.as_str().unwrap();
        let records = ingo_sgf::parse(text).unwrap();
        let mut node = records[0].sgf_root();
        for _ in 0..9 {
            node = &node.children[0];
        }
        assert_eq!(node.children.len(), 2, "the game's move 10 and the variation: {text}");
        let branch = &node.children[1];
        assert_eq!(
            branch.get_property("W").map(ToString::to_string),
            Some("W[ie]".into()),
            "{text}"
        );
        assert_eq!(
            branch.children[0].get_property("B").map(ToString::to_string),
            Some("B[de]".into()),
            "{text}"
        );
        // The game's own line is the record the game's SGF download gives.
        let own = ingo_sgf::parse(&game_sgf).unwrap();
        assert_eq!(records[0].moves, own[0].moves, "{text}");
        b.close().await.unwrap();
    })
    .await;
}
