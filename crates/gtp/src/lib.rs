//! The Go Text Protocol (GTP version 2) for ingo.
//!
//! GTP is how Go programs talk to each other: a controller writes one
//! command per line (`genmove b`), an engine answers `= Q16` or
//! `? illegal move`, each answer ended by an empty line. ingo is on both
//! sides of it: `ingo gtp` is an engine, and the referee is a controller
//! that drives external engines such as GNU Go or KataGo. This crate holds
//! what both need and knows nothing about the rules of Go; moves are judged
//! by `ingo-rules`.
//!
//! * [`protocol`]: the wire format, with no I/O: [`Command`] parsing,
//!   [`Response`] formatting (engine side) and parsing (controller side),
//!   [`Vertex`], [`GtpColor`], [`GenmoveReply`]. Nothing here panics on any
//!   input.
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
//! use ingo_gtp::{Command, GtpColor, Response, Vertex};
//!
//! // Engine side: parse what the controller sent, answer it.
//! let cmd = Command::parse("5 play white d4").unwrap().unwrap();
//! let color: GtpColor = cmd.args[0].parse().unwrap();
//! let vertex = Vertex::parse(&cmd.args[1], 19).unwrap();
//! assert_eq!((color, vertex), (GtpColor::White, Vertex::Point { col: 3, row: 4 }));
//! assert_eq!(Response::success("").with_id(cmd.id).to_string(), "=5 \n\n");
//!
//! // Controller side: read what the engine answered.
//! let response = Response::parse("=6 Q16\n\n").unwrap();
//! assert!(response.is_success());
//! assert_eq!(Vertex::parse(&response.text, 19).unwrap().to_string(), "Q16");
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
    protocol::{Command, GenmoveReply, GtpColor, Response, Vertex},
};
