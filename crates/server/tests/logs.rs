//! The request logs: with `--log-format json` each request is one JSON line whose span names
//! the method, the route pattern and the game, with the status the server answered.
#![allow(clippy::unwrap_used, clippy::expect_used)] // Tests: a failed unwrap is a failed test.

use std::io::Write;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::http::Request;
use ingo_server::logging::{subscriber, LogFormat};
use ingo_server::{app, AppState, Config};
use ingo_store::testing::TestDb;
use serde_json::Value;
use tower::ServiceExt;

/// Log lines written into memory.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<u8>>>);

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test(flavor = "current_thread")]
async fn each_request_is_a_json_line_with_its_route_status_and_game() {
    let lines = Lines::default();
    let writer = lines.clone();
    // This thread's subscriber: the runtime runs every task of the test on it.
    let _logs =
        tracing::subscriber::set_default(subscriber(LogFormat::Json, move || writer.clone()));
    let db = TestDb::sqlite().await.unwrap();
    let state = AppState::new(db.store.clone(), Config::default());
    let response = app(state)
        .oneshot(Request::get("/api/games/4242").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
    let text = String::from_utf8(lines.0.lock().unwrap().clone()).unwrap();
    let answered: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("a JSON line"))
        .filter(|v| v["fields"]["message"] == "answered")
        .collect();
    assert_eq!(answered.len(), 1, "{text}");
    let line = &answered[0];
    assert_eq!(line["fields"]["status"], 404, "{line}");
    assert!(line["fields"]["latency_ms"].is_number(), "{line}");
    assert_eq!(line["span"]["method"], "GET", "{line}");
    assert_eq!(line["span"]["route"], "/api/games/{id}", "{line}");
    assert_eq!(line["span"]["game_id"], 4242, "{line}");
}
