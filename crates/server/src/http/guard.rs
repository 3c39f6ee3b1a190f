//! What every answer carries and every request is checked for before its route: the security
//! headers ([`headers`]) and the refusal of a NUL character in the path or query
//! ([`refuse_nul_in_uri`]).
//!
//! The page loads only its own files: its modules, its stylesheet, and images from the server
//! or drawn into `data:` URLs (the count's SVG); it talks to the server's API and WebSocket
//! only. Its one inline script (the early requests in `index.html`) is allowed by its SHA-256,
//! computed here from the embedded page, so the policy follows the page when it changes.

use axum::body::Body;
use axum::extract::Request;
use axum::http::header::{CONTENT_SECURITY_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use sha2::{Digest, Sha256};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::domain::accounts::refuse_nul;
use crate::http::error::ApiError;

/// The `Content-Security-Policy` of every answer, with a hash of each inline script of `page`.
pub fn content_security_policy(page: &[u8]) -> String {
    let hashes: String = inline_scripts(&String::from_utf8_lossy(page))
        .iter()
        .map(|s| format!(" 'sha256-{}'", base64(&Sha256::digest(s.as_bytes()))))
        .collect();
    format!(
        "default-src 'none'; script-src 'self'{hashes}; style-src 'self'; \
         img-src 'self' data:; connect-src 'self'; font-src 'self'; manifest-src 'self'; \
         base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// The bodies of the `<script>` elements without a `src` in an HTML page.
fn inline_scripts(html: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(open) = rest.find("<script") {
        let after = &rest[open..];
        let Some(tag_end) = after.find('>') else {
            break;
        };
        let tag = &after[..tag_end];
        let body = &after[tag_end + 1..];
        let Some(close) = body.find("</script") else {
            break;
        };
        if !tag.contains("src=") {
            out.push(&body[..close]);
        }
        rest = &body[close..];
    }
    out
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `router` with the security headers on every answer: the page's
/// [`content_security_policy`], `X-Content-Type-Options: nosniff` and
/// `X-Frame-Options: DENY`.
pub fn headers<S: Clone + Send + Sync + 'static>(router: Router<S>) -> Router<S> {
    // The page as embedded: serving it changes only its `"/assets/…"` links, never a script.
    let page = crate::http::assets::ASSETS
        .iter()
        .find(|(name, _, _)| *name == "index.html")
        .map_or(&[][..], |(_, _, bytes)| *bytes);
    let csp = HeaderValue::from_str(&content_security_policy(page))
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'"));
    router
        .layer(SetResponseHeaderLayer::overriding(
            CONTENT_SECURITY_POLICY,
            csp,
        ))
        .layer(SetResponseHeaderLayer::overriding(
            X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
}

/// Refuses (422 `nul-character`) a request whose path or query has a NUL character, encoded
/// `%00`: no name, file or id has one.
pub async fn refuse_nul_in_uri(req: Request<Body>, next: Next) -> Response {
    let uri = req.uri();
    let raw = [uri.path(), uri.query().unwrap_or("")];
    for (field, text) in ["path", "query"].into_iter().zip(raw) {
        let decoded = text.to_ascii_lowercase().contains("%00");
        if decoded || text.contains('\0') {
            if let Err(e) = refuse_nul(field, "\0") {
                return ApiError::from(e).into_response();
            }
        }
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_the_standard_one() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn the_policy_allows_the_inline_script_by_its_hash_and_no_other() {
        let page = b"<script>alert(1)</script><script type=\"module\" src=\"/a.js\"></script>";
        let csp = content_security_policy(page);
        // printf 'alert(1)' | openssl dgst -sha256 -binary | base64
        assert!(
            csp.contains(
                "script-src 'self' 'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=';"
            ),
            "{csp}"
        );
        assert!(!csp.contains("unsafe-inline"), "{csp}");
    }
}
