//! The Go Text Protocol (GTP version 2) for ingo.
//!
//! GTP is how Go programs talk to each other: a controller writes one
//! command per line (`genmove b`), an engine answers `= Q16` or
//! `? illegal move`, each answer ended by an empty line. ingo is on both
//! sides of it: `ingo gtp` is an engine, and the referee is a controller
//! that drives external engines such as GNU Go or KataGo. This crate holds
//! what both need; it takes `Color`, `Point` and `Move` from `ingo-rules`, but
//! moves are judged there, not here.
//!
//! * [`protocol`]: the wire format, with no I/O: [`Command`] parsing,
//!   [`Response`] formatting (engine side) and parsing (controller side),
//!   [`parse_vertex`] (into `ingo_rules::Move`), [`GenmoveReply`]. Nothing here panics on any
//!   input. Colours are `ingo_rules::Color`.
//! * [`server`]: [`CommandReader`](server::CommandReader), which reads
//!   commands from a byte stream for an engine front.
//! * [`engine`]: [`Engine`], a child process driven over GTP with a timeout
//!   on every command, which reports crashes (with the engine's last stderr
//!   lines), hangs and garbage as distinct errors and measures how long each
//!   command took.
//! * [`find_gnugo`]: where GNU Go is installed (`$GNUGO`, `PATH`, Debian's
//!   `/usr/games`), for the tests and benchmarks that drive it.
//!
//! ```
//! use ingo_gtp::{parse_vertex, Command, Response};
//! use ingo_rules::{Color, Move};
//!
//! // Engine side: parse what the controller sent, answer it.
//! let cmd = Command::parse("5 play white d4").unwrap().unwrap();
//! let color: Color = cmd.args[0].parse().unwrap();
//! let mv = parse_vertex(&cmd.args[1], 19).unwrap();
//! assert_eq!((color, mv.to_gtp(19)), (Color::White, "D4".to_string()));
//! assert_eq!(Response::success("").with_id(cmd.id).to_string(), "=5 \n\n");
//!
//! // Controller side: read what the engine answered.
//! let response = Response::parse("=6 Q16\n\n").unwrap();
//! assert!(response.is_success());
//! assert_eq!(parse_vertex(&response.text, 19).unwrap().to_gtp(19), "Q16");
//! ```
//!
//! Reference: GTP version 2, draft 2,
//! <https://www.lysator.liu.se/~gunnar/gtp/gtp2-spec-draft2/gtp2-spec.html>.
#![deny(missing_docs)]

pub mod engine;
mod gnugo;
mod line;
pub mod protocol;
pub mod server;

pub use crate::{
    engine::{Engine, EngineError, Reply},
    gnugo::{find_gnugo, DEBIAN_GNUGO},
    protocol::{parse_color, parse_vertex, Command, GenmoveReply, Response},
};
