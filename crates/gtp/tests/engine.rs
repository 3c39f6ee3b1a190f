//! `Engine` against fake engines: small shell scripts in `tests/engines/`
//! that answer properly, hang, exit at once, or print garbage.
//!
//! The scripts are run with `sh script`, so they work without their
//! executable bit. Timeouts are short, so the whole file runs in about a
//! second.

use std::{
    path::PathBuf,
    time::{Duration, Instant},
};

use ingo_gtp::{
    engine::{CloseReason, CommandLineError, Engine, EngineBuilder, EngineError},
    protocol::{parse_vertex, Command, GenmoveReply, ResponseError},
};

/// Generous for a script that answers at once, so that a loaded CI machine
/// does not fail the tests; they only wait this long when something is broken.
const OK: Duration = Duration::from_secs(30);

/// Short, so that the hang tests are fast.
const HANG: Duration = Duration::from_millis(300);

fn script(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "engines", name]
        .iter()
        .collect();
    path.to_str().expect("UTF-8 path").to_owned()
}

fn fake(name: &str) -> EngineBuilder {
    EngineBuilder::new("sh").arg(script(name))
}

fn start(name: &str) -> Engine {
    fake(name).spawn().expect("sh starts")
}

/// Whether any process is still alive in the process group `pgid` (the
/// engine's pid, since engines get a group of their own). Linux only: reads
/// `/proc/<pid>/stat`, whose 5th field is the process group.
#[cfg(target_os = "linux")]
fn group_alive(pgid: u32) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|entry| {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            return false;
        };
        // The command name (2nd field) is in parentheses and may hold spaces.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            return false;
        };
        let mut fields = rest.split_whitespace();
        let state = fields.next();
        let pgrp = fields.nth(1).and_then(|f| f.parse::<u32>().ok());
        // A zombie (or a dead process) only waits for its parent to reap it.
        pgrp == Some(pgid) && !matches!(state, Some("Z" | "X"))
    })
}

#[cfg(not(target_os = "linux"))]
fn group_alive(_pgid: u32) -> bool {
    false
}

/// Whether the process group `pgid` is gone within a short while. SIGKILL
/// is delivered asynchronously, and a killed script's orphaned child must
/// still be reaped by init, so this cannot be checked at one instant.
fn group_gone(pgid: u32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(3);
    while group_alive(pgid) {
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

fn assert_closed(engine: &mut Engine, reason: CloseReason) {
    match engine.send("name", &[], OK) {
        Err(EngineError::Closed { reason: r }) => assert_eq!(r, reason),
        other => panic!("expected Closed({reason:?}), got {other:?}"),
    }
    assert_eq!(engine.closed(), Some(reason));
}

#[test]
fn good_engine_answers() {
    let mut engine = start("good.sh");
    let reply = engine.send("protocol_version", &[], OK).expect("answers");
    assert_eq!(reply.text, "2");
    assert_eq!(
        engine.send("name", &[], OK).expect("answers").text,
        "Fake Engine"
    );
    assert_eq!(
        engine.send("echo", &["a", "b"], OK).expect("answers").text,
        "a b"
    );
    let genmove = engine.send("genmove", &["b"], OK).expect("answers");
    assert_eq!(
        GenmoveReply::parse(&genmove.text, 19),
        parse_vertex("Q16", 19).map(GenmoveReply::Move)
    );
    let cmd = Command::parse("99 echo from command")
        .expect("parses")
        .expect("command");
    assert_eq!(
        engine.send_command(&cmd, OK).expect("answers").text,
        "from command"
    );
}

#[test]
fn good_engine_odd_but_valid_responses() {
    let mut engine = start("good.sh");
    let mut text = |cmd| engine.send(cmd, &[], OK).expect("answers").text;
    assert_eq!(text("multi"), "first\nsecond\nthird");
    assert_eq!(text("crlf"), "windows");
    assert_eq!(text("blank_first"), "late");
    // Latin-1 bytes from the engine are not UTF-8; they are replaced, not fatal.
    assert_eq!(text("binary"), "caf\u{fffd}");
    // Control characters are dropped, so a line holding only BEL is empty.
    assert_eq!(text("bell"), "ding");
    assert_eq!(text("name"), "Fake Engine");
}

#[test]
fn failure_keeps_the_engine_usable() {
    let mut engine = start("good.sh");
    match engine.send("bogus_command", &["x"], OK) {
        Err(EngineError::Failure {
            command, message, ..
        }) => {
            assert_eq!(command, "bogus_command x");
            assert_eq!(message, "unknown command");
        }
        other => panic!("expected a failure, got {other:?}"),
    }
    assert_eq!(engine.closed(), None);
    assert_eq!(
        engine.send("name", &[], OK).expect("still answers").text,
        "Fake Engine"
    );
}

#[test]
fn elapsed_is_measured() {
    let mut engine = start("good.sh");
    let reply = engine.send("slow", &[], OK).expect("answers");
    assert_eq!(reply.text, "slept");
    // A lower bound only, which no load can break: the script sleeps 0.1 s
    // after reading the command and before answering.
    assert!(
        reply.elapsed >= Duration::from_millis(100),
        "{:?}",
        reply.elapsed
    );
}

#[test]
fn invalid_commands_are_not_sent() {
    let mut engine = start("good.sh");
    for (name, args) in [
        ("play", &["b", "Q 16"][..]),
        ("", &[][..]),
        ("name#x", &[][..]),
        ("a\nb", &[][..]),
    ] {
        assert!(
            matches!(
                engine.send(name, args, OK),
                Err(EngineError::InvalidCommand { .. })
            ),
            "{name:?} {args:?}"
        );
    }
    assert_eq!(
        engine.send("name", &[], OK).expect("still in step").text,
        "Fake Engine"
    );
}

#[test]
fn stderr_is_captured() {
    let mut engine = start("good.sh");
    engine.send("chatty", &[], OK).expect("answers");
    // stderr is read on its own thread; give it a moment.
    let deadline = Instant::now() + OK;
    while !engine.stderr_tail().iter().any(|l| l == "thinking hard") {
        assert!(
            Instant::now() < deadline,
            "stderr never arrived: {:?}",
            engine.stderr_tail()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn quit_is_polite() {
    let mut engine = start("good.sh");
    engine.send("name", &[], OK).expect("answers");
    let status = engine.quit(OK).expect("quits");
    assert!(status.success(), "{status}");
}

#[test]
fn wrong_id_is_garbage() {
    let mut engine = start("good.sh");
    match engine.send("wrong_id", &[], OK) {
        Err(EngineError::Garbage {
            error:
                ResponseError::IdMismatch {
                    expected: 1,
                    found: 999,
                },
            ..
        }) => {}
        other => panic!("expected an id mismatch, got {other:?}"),
    }
    assert_closed(&mut engine, CloseReason::Garbage);
}

#[test]
fn ids_can_be_turned_off() {
    let mut engine = fake("good.sh").command_ids(false).spawn().expect("starts");
    assert_eq!(
        engine.send("wrong_id", &[], OK).expect("answers").text,
        "mine"
    );
    assert_eq!(
        engine.send("name", &[], OK).expect("answers").text,
        "Fake Engine"
    );
}

#[test]
fn crash_reports_status_and_stderr() {
    let mut engine = start("good.sh");
    engine.send("name", &[], OK).expect("answers");
    match engine.send("crash", &[], OK) {
        Err(e @ EngineError::Exited { .. }) => {
            let message = e.to_string();
            let EngineError::Exited {
                command,
                status,
                stderr,
            } = e
            else {
                unreachable!()
            };
            assert_eq!(command, "crash");
            assert_eq!(status.and_then(|s| s.code()), Some(3));
            assert_eq!(stderr, ["panic: simulated crash"]);
            assert!(message.contains("panic: simulated crash"), "{message}");
            assert!(message.contains("exit status: 3"), "{message}");
        }
        other => panic!("expected Exited, got {other:?}"),
    }
    assert_closed(&mut engine, CloseReason::Exited);
}

#[test]
fn engine_that_exits_at_once() {
    let mut engine = start("exit.sh");
    // Whether the write hits a closed pipe or the read hits end of output
    // depends on timing; either way the caller sees the exit.
    match engine.send("protocol_version", &[], OK) {
        Err(EngineError::Exited { status, stderr, .. }) => {
            assert_eq!(status.and_then(|s| s.code()), Some(7));
            assert_eq!(
                stderr,
                [
                    "loading weights from /nonexistent/model.bin",
                    "error: cannot open model file"
                ]
            );
        }
        other => panic!("expected Exited, got {other:?}"),
    }
    assert_closed(&mut engine, CloseReason::Exited);
    assert_eq!(engine.exit_status().and_then(|s| s.code()), Some(7));
}

#[test]
fn hung_engine_times_out_and_is_killed() {
    let mut engine = start("hang.sh");
    let pid = engine.pid();
    assert_eq!(
        engine.send("name", &[], OK).expect("answers").text,
        "Hanging Engine"
    );

    let start = Instant::now();
    match engine.send("genmove", &["b"], HANG) {
        Err(EngineError::Timeout { command, timeout }) => {
            assert_eq!(command, "genmove b");
            assert_eq!(timeout, HANG);
        }
        other => panic!("expected a timeout, got {other:?}"),
    }
    // Not before the timeout: a lower bound that no load can break (a slow
    // machine only makes the wait longer). That it returned at the timeout
    // needs no upper bound: the script never answers, so a call that ignored
    // its timeout would not return at all, and `Timeout` names the timeout.
    let waited = start.elapsed();
    assert!(waited >= HANG, "{waited:?}");

    // The script and its `sleep` child are both gone.
    assert!(engine.exit_status().is_some());
    assert!(group_gone(pid), "process group {pid} survived");
    assert_closed(&mut engine, CloseReason::TimedOut);
}

#[test]
fn hung_engine_quit_is_bounded() {
    let mut engine = start("hang.sh");
    let pid = engine.pid();
    engine.send("name", &[], OK).expect("answers");
    // Quit returns at its timeout with `Timeout` (the script never exits by
    // itself, so a quit that ignored its timeout would not return), and the
    // engine is killed.
    assert!(matches!(
        engine.quit(HANG),
        Err(EngineError::Timeout { .. })
    ));
    assert!(group_gone(pid), "process group {pid} survived");
}

#[test]
fn garbage_is_rejected_with_what_was_received() {
    let mut engine = start("garbage.sh");
    // Garbage is noticed on its first line, not at the timeout: the script
    // never ends a response, so waiting for one would end in a Timeout.
    match engine.send("protocol_version", &[], OK) {
        Err(e @ EngineError::Garbage { .. }) => {
            assert!(
                e.to_string()
                    .contains("received \"Welcome to my program! You typed: 1 protocol_version\""),
                "{e}"
            );
        }
        other => panic!("expected garbage, got {other:?}"),
    }
    assert_closed(&mut engine, CloseReason::Garbage);
}

#[test]
fn drop_kills_and_reaps() {
    let mut engine = start("hang.sh");
    let pid = engine.pid();
    engine.send("name", &[], OK).expect("answers");
    drop(engine);
    assert!(group_gone(pid), "process group {pid} survived");
    #[cfg(target_os = "linux")]
    assert!(
        !std::path::Path::new(&format!("/proc/{pid}")).exists(),
        "not reaped"
    );
}

#[test]
fn spawn_errors() {
    match Engine::spawn("/nonexistent/engine --gtp") {
        Err(e @ EngineError::Spawn { .. }) => {
            assert!(
                e.to_string()
                    .starts_with("failed to start engine \"/nonexistent/engine\""),
                "{e}"
            );
        }
        other => panic!("expected a spawn error, got {other:?}"),
    }
    assert!(matches!(
        Engine::spawn("  "),
        Err(EngineError::CommandLine(CommandLineError::Empty))
    ));
    assert!(matches!(
        Engine::spawn("gnugo --mode 'gtp"),
        Err(EngineError::CommandLine(
            CommandLineError::UnterminatedQuote { quote: '\'' }
        ))
    ));
}

#[test]
fn spawn_from_a_quoted_command_line() {
    let line = format!("sh '{}'", script("good.sh").replace('\'', r"'\''"));
    let mut engine = Engine::spawn(&line).expect("starts");
    assert_eq!(
        engine.send("name", &[], OK).expect("answers").text,
        "Fake Engine"
    );
}

#[test]
fn engine_is_send() {
    fn assert_send<T: Send>() {}
    assert_send::<Engine>();
    assert_send::<EngineError>();
}

/// An engine dies with the thread that forked it when the parent-death signal
/// is set (Linux's `PR_SET_PDEATHSIG` belongs to a thread, not the process).
/// Engines are forked on a thread that lives as long as the process, so one
/// started on a short-lived thread and driven from another still answers.
#[test]
fn engine_outlives_the_thread_that_started_it() {
    let (mut engine, task) = std::thread::spawn(|| {
        // This thread's entry in /proc, "<pid>/task/<tid>".
        let task = std::fs::read_link("/proc/thread-self").ok();
        (start("good.sh"), task)
    })
    .join()
    .expect("the starting thread");
    // The kernel sends a thread's parent-death signals while the thread exits
    // and removes its /proc entry after that; once the entry is gone, a
    // SIGKILL (were it sent) is pending on the engine, which then runs no
    // more code and cannot answer below.
    if let Some(task) = task {
        let task = std::path::Path::new("/proc").join(task);
        let deadline = Instant::now() + OK;
        while task.exists() {
            assert!(Instant::now() < deadline, "{} never exited", task.display());
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    assert_eq!(
        engine.send("name", &[], OK).expect("still alive").text,
        "Fake Engine"
    );
}

/// An engine that exits by itself is reaped, after which its process group
/// is no longer signalled by pid; what it left behind (a child that ignores
/// end of input) is killed by the group's guard when the `Engine` goes.
#[test]
fn what_an_exited_engine_left_behind_dies_with_the_engine() {
    let mut engine = fake("leaves_child.sh")
        .command_ids(false)
        .spawn()
        .expect("sh starts");
    let child: u32 = engine
        .send("name", &[], OK)
        .expect("answers")
        .text
        .trim()
        .parse()
        .expect("the child's pid");
    assert!(matches!(engine.quit(OK), Ok(status) if status.success()));
    let deadline = Instant::now() + Duration::from_secs(5);
    #[cfg(target_os = "linux")]
    let alive = || {
        std::fs::read_to_string(format!("/proc/{child}/stat"))
            .ok()
            .and_then(|stat| {
                let (_, rest) = stat.rsplit_once(')')?;
                rest.split_whitespace()
                    .next()
                    .map(|s| !matches!(s, "Z" | "X"))
            })
            .unwrap_or(false)
    };
    #[cfg(not(target_os = "linux"))]
    let alive = || false;
    while alive() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(!alive(), "the engine's child {child} survived it");
}
