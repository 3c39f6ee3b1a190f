//! `Engine` against a real engine, GNU Go.
//!
//! GNU Go is found by `ingo_testkit::gnugo`: skipped with a note when it is
//! not installed, except under CI (the `CI` environment variable is set),
//! where a missing GNU Go fails the test.

use std::time::Duration;

use ingo_gtp::{
    engine::{Engine, EngineBuilder, EngineError},
    protocol::GenmoveReply,
};

/// GNU Go answers in milliseconds at level 1 on 9×9; this is only reached
/// when something is wrong.
const TIMEOUT: Duration = Duration::from_secs(20);

fn gnugo() -> Option<Engine> {
    let program = ingo_testkit::gnugo()?;
    let program = program.to_str().expect("UTF-8 path").to_owned();
    let engine = EngineBuilder::new(program)
        .args(["--mode", "gtp", "--level", "1", "--seed", "1"])
        .spawn()
        .expect("gnugo starts");
    Some(engine)
}

#[test]
fn plays_a_few_moves_with_gnugo() {
    let Some(mut engine) = gnugo() else {
        return;
    };
    let mut ok = |name: &str, args: &[&str]| {
        engine
            .send(name, args, TIMEOUT)
            .unwrap_or_else(|e| panic!("{name} {args:?}: {e}"))
            .text
    };
    assert_eq!(ok("protocol_version", &[]), "2");
    assert_eq!(ok("name", &[]), "GNU Go");
    assert!(!ok("version", &[]).is_empty());
    ok("boardsize", &["9"]);
    ok("clear_board", &[]);
    ok("komi", &["8"]);
    ok("play", &["black", "e5"]);
    // A multi-line response, starting with an empty first line.
    let board = ok("showboard", &[]);
    assert!(board.starts_with('\n'), "{board:?}");
    assert!(board.lines().count() >= 11, "{board}");

    let reply = engine
        .send("genmove", &["w"], TIMEOUT)
        .expect("gnugo moves");
    match GenmoveReply::parse(&reply.text, 9) {
        Ok(GenmoveReply::Move(ingo_rules::Move::Play(p))) => {
            assert!(p.col() < 9 && p.row() < 9);
            assert_ne!(p.to_gtp(9), "E5", "E5 is taken");
        }
        other => panic!("unexpected genmove reply {:?}: {other:?}", reply.text),
    }

    // An occupied point: a GTP failure, and the engine stays usable.
    match engine.send("play", &["b", "E5"], TIMEOUT) {
        Err(EngineError::Failure { message, .. }) => assert_eq!(message, "illegal move"),
        other => panic!("expected a failure, got {other:?}"),
    }
    match engine.send("no_such_command", &[], TIMEOUT) {
        Err(EngineError::Failure { message, .. }) => assert_eq!(message, "unknown command"),
        other => panic!("expected a failure, got {other:?}"),
    }
    assert_eq!(
        engine
            .send("list_stones", &["black"], TIMEOUT)
            .expect("answers")
            .text,
        "E5"
    );

    let status = engine.quit(TIMEOUT).expect("gnugo quits");
    assert!(status.success(), "{status}");
}
