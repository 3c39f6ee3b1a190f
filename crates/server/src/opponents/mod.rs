//! The programs that play people: the built-in player ([`builtin`]) and the GTP engines the
//! operator configures ([`engine`]), woken by committed changes ([`wake`]); new games against
//! them ([`games`]).

pub mod builtin;
pub mod engine;
pub mod games;
pub mod wake;
