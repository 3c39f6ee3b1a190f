//! The pages the server sends, embedded in the binary: the web board (issue 14), one page at
//! `/` whose modules route by the URL's fragment (`#/game/12`), so a reload keeps the page.

use axum::extract::Path;
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::AppState;

/// Every embedded file: path under `/assets/`, content type, bytes. The web board (issue 14):
/// plain ES modules, no build step, nothing fetched from elsewhere at run time.
pub const ASSETS: &[(&str, &str, &[u8])] = &[
    (
        "index.html",
        "text/html; charset=utf-8",
        include_bytes!("../assets/index.html"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/app.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/board.js"),
    ),
    (
        "i18n.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../assets/i18n.js"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_bytes!("../assets/style.css"),
    ),
];

/// The routes of this module: `/` and `/assets/{file}`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(|| async { asset("index.html") }))
        .route(
            "/assets/{file}",
            get(|Path(file): Path<String>| async move { asset(&file) }),
        )
}

fn asset(name: &str) -> Response {
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((_, ty, bytes)) => ([(CONTENT_TYPE, *ty)], *bytes).into_response(),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}
