//! The pages the server sends, embedded in the binary: for now a minimal lobby at `/`. The web
//! board (issue 14) adds its files to [`ASSETS`].

use axum::extract::Path;
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::AppState;

/// Every embedded file: path under `/assets/`, content type, bytes.
pub const ASSETS: &[(&str, &str, &[u8])] = &[(
    "index.html",
    "text/html; charset=utf-8",
    include_bytes!("../assets/index.html"),
)];

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
