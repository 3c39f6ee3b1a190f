//! A span for each request: method, route (the pattern, `/api/games/{id}`), the game's id when
//! the path names one, then one event with the status and the latency in ms.

use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use tracing::Instrument;

/// The game a path names: `/api/games/{id}/…`.
fn game_id(path: &str) -> Option<i64> {
    path.strip_prefix("/api/games/")?
        .split('/')
        .next()?
        .parse()
        .ok()
}

/// The middleware: runs the request inside its span and logs how it ended.
pub async fn trace(req: Request, next: Next) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| req.uri().path().to_owned(), |p| p.as_str().to_owned());
    let span = tracing::info_span!(
        "request",
        method = %req.method(),
        route = %route,
        game_id = game_id(req.uri().path()),
    );
    let start = Instant::now();
    let response = next.run(req).instrument(span.clone()).await;
    let latency_ms = start.elapsed().as_secs_f64() * 1000.0;
    span.in_scope(|| {
        tracing::info!(status = response.status().as_u16(), latency_ms, "answered");
    });
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_of_a_path() {
        assert_eq!(game_id("/api/games/42/moves"), Some(42));
        assert_eq!(game_id("/api/games/42"), Some(42));
        assert_eq!(game_id("/api/games/bot"), None);
        assert_eq!(game_id("/api/challenges/42"), None);
    }
}
