//! The pages the server sends, embedded in the binary: the web board, one page at
//! `/` whose modules route by the URL's fragment (`#/game/12`), so a reload keeps the page.
//!
//! Caching, so that a game page opened again costs one small request before its data: the page
//! at `/` names its files under `/assets/{version}/`, where the version is a hash of every
//! embedded file; those answers may be kept for a year (`immutable`), since a new binary with
//! other files has another version. The page itself, and the files at the plain
//! `/assets/{file}`, are revalidated each time with their `ETag` (304 when unchanged).

use std::sync::OnceLock;

use axum::extract::Path;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use sha2::{Digest, Sha256};

use crate::AppState;

/// Every embedded file: path under `/assets/`, content type, bytes. The web board:
/// plain ES modules, no build step, nothing fetched from elsewhere at run time.
pub const ASSETS: &[(&str, &str, &[u8])] = &[
    (
        "index.html",
        "text/html; charset=utf-8",
        include_bytes!("../../assets/index.html"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/app.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/board.js"),
    ),
    (
        "clock.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/clock.js"),
    ),
    (
        "i18n.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/i18n.js"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_bytes!("../../assets/style.css"),
    ),
    (
        "events.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/events.js"),
    ),
    (
        "events.css",
        "text/css; charset=utf-8",
        include_bytes!("../../assets/events.css"),
    ),
];

/// `Cache-Control` of the files under the current version: kept, never revalidated.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// `Cache-Control` of the page and of unversioned files: kept, revalidated by `ETag`.
const REVALIDATE: &str = "no-cache";

/// One file as served: bytes (the page with its links versioned), type and `ETag`.
struct Served {
    name: &'static str,
    content_type: &'static str,
    bytes: Vec<u8>,
    etag: String,
}

/// The version and the served files, computed once.
struct Catalog {
    version: String,
    files: Vec<Served>,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        let mut all = Sha256::new();
        for (name, _, bytes) in ASSETS {
            all.update(name.as_bytes());
            all.update((bytes.len() as u64).to_le_bytes());
            all.update(bytes);
        }
        let version = hex(&all.finalize()[..6]);
        let files = ASSETS
            .iter()
            .map(|&(name, content_type, bytes)| {
                let bytes = if name == "index.html" {
                    // The page's links (`"/assets/app.js"`) point at this version's files.
                    String::from_utf8_lossy(bytes)
                        .replace("\"/assets/", &format!("\"/assets/{version}/"))
                        .into_bytes()
                } else {
                    bytes.to_vec()
                };
                let etag = format!("\"{}\"", hex(&Sha256::digest(&bytes)[..8]));
                Served {
                    name,
                    content_type,
                    bytes,
                    etag,
                }
            })
            .collect();
        Catalog { version, files }
    })
}

/// The version under which the page links its files: a hash of every embedded file.
pub fn version() -> &'static str {
    &catalog().version
}

/// The routes of this module: `/`, `/assets/{file}` and `/assets/{version}/{file}`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/",
            get(|headers: HeaderMap| async move { respond("index.html", false, &headers) }),
        )
        .route(
            "/assets/{file}",
            get(|Path(file): Path<String>, headers: HeaderMap| async move {
                respond(&file, false, &headers)
            }),
        )
        .route(
            "/assets/{version}/{file}",
            get(
                |Path((v, file)): Path<(String, String)>, headers: HeaderMap| async move {
                    // An older page's version gets today's file, revalidated rather than kept.
                    respond(&file, v == version(), &headers)
                },
            ),
        )
}

/// The answer for file `name`: kept for good when `immutable`, else revalidated; 304 when the
/// request's `If-None-Match` names the current `ETag`.
fn respond(name: &str, immutable: bool, headers: &HeaderMap) -> Response {
    let Some(f) = catalog().files.iter().find(|f| f.name == name) else {
        return (StatusCode::NOT_FOUND, "no such file").into_response();
    };
    let cache = HeaderValue::from_static(if immutable { IMMUTABLE } else { REVALIDATE });
    let etag = HeaderValue::from_str(&f.etag).unwrap_or(HeaderValue::from_static("\"\""));
    let fresh = headers
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim().trim_start_matches("W/") == f.etag);
    if fresh {
        return (
            StatusCode::NOT_MODIFIED,
            [(CACHE_CONTROL, cache), (ETAG, etag)],
        )
            .into_response();
    }
    (
        [
            (CONTENT_TYPE, HeaderValue::from_static(f.content_type)),
            (CACHE_CONTROL, cache),
            (ETAG, etag),
        ],
        f.bytes.clone(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(r: &Response, name: axum::http::HeaderName) -> &str {
        r.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }

    #[test]
    fn the_page_links_its_files_under_the_version() {
        let page = &catalog().files[0];
        assert_eq!(page.name, "index.html");
        let text = String::from_utf8_lossy(&page.bytes);
        let v = version();
        assert_eq!(v.len(), 12);
        for file in ["style.css", "app.js", "i18n.js", "board.js", "clock.js"] {
            assert!(
                text.contains(&format!("\"/assets/{v}/{file}\"")),
                "{file} in {text}"
            );
        }
        // The event pages' module and style come only when a page needs them: app.js imports
        // the module beside it, which links its style beside itself (so under the version).
        assert!(!text.contains("events."), "{text}");
        let file = |name: &str| {
            let f = catalog().files.iter().find(|f| f.name == name).expect(name);
            String::from_utf8_lossy(&f.bytes).into_owned()
        };
        assert!(file("app.js").contains("import(\"./events.js\")"));
        assert!(file("events.js").contains("new URL(\"./events.css\", import.meta.url)"));
        assert!(!text.contains("\"/assets/app.js\""), "{text}");
    }

    #[test]
    fn versioned_files_are_kept_and_the_page_is_revalidated() {
        let none = HeaderMap::new();
        let r = respond("app.js", true, &none);
        assert_eq!(r.status(), StatusCode::OK);
        assert_eq!(header(&r, CACHE_CONTROL), IMMUTABLE);
        assert!(header(&r, CONTENT_TYPE).starts_with("text/javascript"));
        let r = respond("index.html", false, &none);
        assert_eq!(header(&r, CACHE_CONTROL), "no-cache");
        let etag = header(&r, ETAG).to_owned();
        assert!(etag.starts_with('"') && etag.len() > 2, "{etag}");
        // Revalidation: the same ETag is a 304 without a body; another one the file.
        let mut h = HeaderMap::new();
        h.insert(
            IF_NONE_MATCH,
            HeaderValue::from_str(&etag).expect("an ETag is a header value"),
        );
        let r = respond("index.html", false, &h);
        assert_eq!(r.status(), StatusCode::NOT_MODIFIED);
        h.insert(IF_NONE_MATCH, HeaderValue::from_static("\"0\", W/\"1\""));
        assert_eq!(respond("index.html", false, &h).status(), StatusCode::OK);
        assert_eq!(
            respond("nothing.js", false, &none).status(),
            StatusCode::NOT_FOUND
        );
    }
}
