//! A GTP engine from the lobby, in a real browser (headless Chromium over WebDriver, as
//! `tests/browser.rs`): the engines the operator configured are among the opponents of the
//! lobby's form; choosing one starts a game whose engine answers the person's move.
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver`; without them the test fails under CI
//! and is skipped with a note elsewhere (`ingo_testkit::chromium`).

// A failed step of a browser test is a failed test: its panic says where.
#![allow(clippy::unwrap_used)]

mod browser_util;

use std::path::Path;
use std::time::Duration;

use browser_util::*;
use ingo_server::client::Client as ApiClient;
use ingo_server::engine::EngineConfig;
use ingo_server::{AppState, Config};
use ingo_store::testing::TestDb;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_an_engine_from_the_lobby() {
    bounded(Duration::from_secs(120), async {
        // The referee's fake engine, playing random legal moves.
        let script = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../referee/tests/engines/fake_engine.py")
            .canonicalize()
            .unwrap();
        let engine = EngineConfig::new(
            "fake",
            vec![
                "python3".into(),
                script.display().to_string(),
                "--seed".into(),
                "7".into(),
            ],
        )
        .unwrap()
        .with_rank("3k")
        .unwrap();
        let db = TestDb::sqlite().await.unwrap();
        let config = Config {
            database_url: db.url.clone(),
            engines: vec![engine],
            ..Config::default()
        };
        let state = AppState::new(db.store.clone(), config);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let base = format!("http://{addr}");
        tokio::spawn(ingo_server::serve(listener, state));

        let driver = ChromeDriver::start().await;
        let b = driver.browser(1280, 1000).await;
        register(&b, &base, "erin", "5k").await;
        b.goto(&format!("{base}/#/")).await.unwrap();
        let form = wait_css(&b, "#bot-form").await;
        // The engine's option arrives with GET /api/engines.
        wait_css(&b, "#bot-form option[value='engine:fake']").await;
        let label = b
            .execute(
                "return document.querySelector(\"#bot-form option[value='engine:fake']\").textContent",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(label.as_str(), Some("fake (3k)"));
        select(&form, "size", "9").await;
        select(&form, "playouts", "engine:fake").await;
        select(&form, "color", "black").await;
        submit(&form).await;
        wait_game_page(&b).await;
        wait_move_count(&b, 0).await;
        click_point(&b, 9, "E5").await;
        // The engine answers through the same move path as a person: the page shows the
        // server's board after the answer, stone by stone.
        wait_move_count(&b, 2).await;
        let gid = b.execute("return location.hash.slice(7)", vec![]).await.unwrap();
        let state = ApiClient::new(addr)
            .get(&format!("/api/games/{}", gid.as_str().unwrap()))
            .await
            .unwrap()
            .body;
        assert_e5_answered(&b, &state, "the game against the engine").await;
        b.close().await.unwrap();
    })
    .await;
}
