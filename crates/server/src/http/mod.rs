//! Everything axum-specific: [`error::ApiError`] and the one table from the game's errors to
//! HTTP statuses, the routes per resource (accounts, challenges, games, consultation's
//! proposals, the review and judge pages, games against programs), the WebSocket, and the
//! pages. Each handler parses its request, calls `crate::play` or `crate::opponents`, and
//! answers a type that derives `Serialize`.

pub mod assets;
pub mod auth;
pub mod challenges;
pub mod consult;
pub mod error;
pub mod games;
pub mod opponents;
pub mod review;
pub mod trace;
pub mod ws;
