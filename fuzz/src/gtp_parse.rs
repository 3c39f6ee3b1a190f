//! Arbitrary bytes through the GTP parsers of both sides: command lines (engine side), response
//! blocks and vertices (controller side). Nothing may panic, and a parsed command or response
//! must parse back the same after formatting.

use ingo_gtp::parse_vertex;
use ingo_gtp::protocol::{Command, GenmoveReply, Response};

/// The target's body: runs one input, and panics when a check fails.
pub fn run(data: &[u8]) {
    if let Ok(Some(cmd)) = Command::parse_bytes(data) {
        let again = Command::parse(&cmd.to_string());
        if cmd.args.iter().all(|a| !a.contains(['#', ' '])) {
            assert_eq!(again, Ok(Some(cmd)), "a command formats and parses back");
        }
    }
    let text = String::from_utf8_lossy(data);
    if let Ok(resp) = Response::parse(&text) {
        let again = Response::parse(&resp.to_string()).expect("a formatted response parses");
        assert_eq!(again.status, resp.status);
    }
    for size in [1u8, 9, 19, 25, 26] {
        let _ = parse_vertex(&text, size);
        let _ = GenmoveReply::parse(&text, size);
    }
}
