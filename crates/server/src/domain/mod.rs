//! The game and its people, without HTTP, JSON or the database: [`live_game::LiveGame`] (a
//! game in memory, changed only through its checked methods), the players and sides of
//! [`team`], a new game's settings and colours ([`settings`]), the server's own accounts
//! ([`accounts`]) and the built-in player's measured levels ([`levels`]), how a game ended
//! ([`end::EndReason`]), the in-memory limits of attempts ([`limiter`]) and the one error
//! type, [`error::GameError`].

pub mod accounts;
pub mod end;
pub mod error;
pub mod levels;
pub mod limiter;
pub mod live_game;
pub mod settings;
pub mod team;
