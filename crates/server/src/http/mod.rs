//! Everything axum-specific: [`error::ApiError`] and the one table from the game's errors to
//! HTTP statuses, the routes per resource (accounts, challenges, games, consultation's
//! proposals, the review and judge pages, games against programs, the events a director hosts),
//! the WebSocket, and the
//! pages, the security headers and checks of every request ([`guard`]), and the listener that
//! caps connections per address ([`conn`]). Each handler parses its request, calls `crate::play` or `crate::opponents`, and
//! answers a type that derives `Serialize`.

pub mod assets;
pub mod auth;
pub mod challenges;
pub mod conn;
pub mod consult;
pub mod error;
pub mod events;
pub mod games;
pub mod guard;
pub mod opponents;
pub mod review;
pub mod trace;
pub mod ws;
