//! Hostile input: paths that are not files, inputs that made the repairs quadratic,
//! inputs past the size limits, random bytes, cut-off records, contradictory properties. Each
//! test is named after what it guards.

use std::path::PathBuf;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use ingo_sgf::{
    parse, parse_bytes, parse_file, read_file, ErrorKind, Limit, Limits, ReadOptions, Warning,
};

/// Runs `f` in a thread and fails if it has not finished after `limit`: a watchdog, not a timing
/// assertion (the limits are tens of times what the work needs on a busy machine, so only a hang
/// or a quadratic blow-up trips them).
fn within<T: Send + 'static>(
    limit: Duration,
    what: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("{what} did not finish within {limit:?}"))
}

/// A folder of its own under the system's temporary folder.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ingo-sgf-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Pseudo-random bytes (xorshift), the same on every run.
fn random_bytes(n: usize, mut seed: u64) -> Vec<u8> {
    (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 24) as u8
        })
        .collect()
}

#[cfg(unix)]
#[test]
fn fifo_path_is_refused_at_once() {
    let dir = temp_dir("fifo");
    let fifo = dir.join("game.sgf");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo made {}", fifo.display());
    // Opening a FIFO with no writer waits for one: before the fix this never returned.
    let path = fifo.clone();
    let err = within(Duration::from_secs(30), "reading a FIFO", move || {
        parse_file(&path).expect_err("a FIFO is refused")
    });
    assert!(matches!(err.kind(), ErrorKind::NotAFile(_)), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("FIFO") && text.contains("not a regular file"),
        "{text}"
    );
    assert!(
        text.starts_with(&fifo.display().to_string()),
        "names the file: {text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn devices_and_folders_are_refused_at_once() {
    let err = within(Duration::from_secs(30), "reading /dev/zero", || {
        read_file("/dev/zero", &Limits::DEFAULT).expect_err("a device is refused")
    });
    assert!(
        matches!(err.kind(), ErrorKind::NotAFile("a device")),
        "{err}"
    );
    let dir = temp_dir("folder");
    let err = parse_file(&dir).expect_err("a folder is refused");
    assert!(
        matches!(err.kind(), ErrorKind::NotAFile("a folder")),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn repair_of_stray_property_ids_is_linear() {
    // 200,000 stray identifiers (1.9 MB) took about 3 minutes (a release build) when every
    // repair's line and column were counted from the start of the text; linear, it is a
    // fraction of a second, a few seconds in a debug build. The watchdog allows 60 s.
    let mut text = String::from("(;SZ[9]");
    for i in 0..200_000 {
        text.push_str(&format!("P{i}[x]"));
    }
    text.push(')');
    assert!(text.len() > 1_800_000);
    let result = within(
        Duration::from_secs(60),
        "repairing 200,000 stray ids",
        move || parse(&text).map(|r| r.len()),
    );
    // Nearly all of it is junk: not a record, and said at once.
    let err = result.expect_err("not a record");
    assert!(matches!(err.kind(), ErrorKind::NotSgf { .. }), "{err}");
    // The same repairs in a record that is mostly SGF, so that it is read: 40,000 variations
    // of a commented move, each with a stray id (2.4 MB).
    let mut text = String::from("(;SZ[19]");
    for i in 0..40_000 {
        text.push_str(&format!(
            "(;B[aa]C[variation {i}, with a comment of some length]P{i}[x])"
        ));
    }
    text.push(')');
    let records = within(
        Duration::from_secs(60),
        "repairing 40,000 stray ids",
        move || parse(&text),
    )
    .expect("read, the stray ids removed");
    assert_eq!(records[0].moves.len(), 1);
    assert!(records[0]
        .warnings
        .iter()
        .any(|w| matches!(w, Warning::MoreRepairs(n) if *n > 30_000)));
}

#[test]
fn repair_of_random_bytes_is_linear() {
    // 1 MB of random bytes took 11 s; 2 MB is refused as not SGF in well under a second
    // (seconds in a debug build). The watchdog allows 60 s.
    let mut bytes = random_bytes(2 << 20, 0x9E37_79B9_7F4A_7C15);
    // Make sure a game tree is found early, so the repairs run over the whole text.
    bytes[100..102].copy_from_slice(b"(;");
    let result = within(
        Duration::from_secs(60),
        "repairing 2 MB of random bytes",
        move || parse_bytes(&bytes, &ReadOptions::default()).map(|r| r.len()),
    );
    let err = result.expect_err("random bytes are not a record");
    assert!(matches!(err.kind(), ErrorKind::NotSgf { .. }), "{err}");
}

#[test]
fn random_bytes_are_not_a_record() {
    for seed in 1..=5u64 {
        let mut bytes = random_bytes(100_000, seed);
        // A game tree to be found, as random bytes hold now and then.
        bytes[50_000..50_002].copy_from_slice(b"(;");
        let err = parse_bytes(&bytes, &ReadOptions::default()).expect_err("not a record");
        assert!(
            matches!(err.kind(), ErrorKind::NotSgf { .. }),
            "seed {seed}: {err}"
        );
        assert!(err.to_string().contains("not an SGF record"), "{err}");
    }
    // A real record with a little junk around it is still read.
    let records = parse("Saved by Foo 1.0\n(;SZ[9];B[ee];W[cc])\n-- \nfoo").expect("read");
    assert_eq!(records[0].moves.len(), 2);
}

#[test]
fn truncated_records_say_they_are_incomplete() {
    for (text, says) in [
        ("(;FF[4]SZ[9];B[ee];W[zz", "ends inside a property"),
        (
            "(;FF[4]SZ[9];B[ee]C[a comment never closed",
            "ends inside a property",
        ),
        ("(;FF[4]SZ[9];B[ee];W[cc]", "missing"),
        ("(;FF[4]SZ[9];B[ee](;W[cc]", "missing"),
    ] {
        let records = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let why = records[0]
            .incomplete
            .as_deref()
            .unwrap_or_else(|| panic!("{text}: not marked incomplete"));
        assert!(why.contains(says), "{text}: {why}");
    }
    let records = parse("(;FF[4]SZ[9];B[ee];W[cc])").expect("read");
    assert_eq!(records[0].incomplete, None);
    // Only the last game of a collection is cut off.
    let records = parse("(;SZ[9];B[ee])(;SZ[9];B[ee];W[c").expect("read");
    assert_eq!(records[0].incomplete, None);
    assert!(records[1].incomplete.is_some());
}

#[test]
fn same_point_in_ab_and_aw_is_warned() {
    let records = parse("(;SZ[9]AB[aa][bb]AW[aa];B[cc])").expect("read");
    assert!(
        records[0].warnings.iter().any(|w| matches!(
            w,
            Warning::SetupConflict { node: 0, point } if point == "aa"
        )),
        "{:?}",
        records[0].warnings
    );
    let records = parse("(;SZ[9]AB[aa]AW[bb];B[cc])").expect("read");
    assert!(records[0].warnings.is_empty(), "{:?}", records[0].warnings);
}

#[test]
fn duplicate_size_komi_and_rules_are_warned() {
    let records = parse("(;SZ[9]KM[6.5]KM[7.5]RU[Chinese]RU[GOE];SZ[13]B[cc])").expect("read");
    let r = &records[0];
    assert_eq!(r.width, 9, "the first SZ is used");
    assert_eq!(r.komi.map(|k| k.halves()), Some(13), "the first KM is used");
    let said: Vec<String> = r
        .warnings
        .iter()
        .filter(|w| matches!(w, Warning::Duplicate { .. }))
        .map(|w| w.to_string())
        .collect();
    assert_eq!(said.len(), 3, "{said:?}");
    // The same value twice loses nothing and is not worth a warning.
    let records = parse("(;SZ[9]KM[6.5]KM[6.5];SZ[9]B[cc])").expect("read");
    assert!(records[0].warnings.is_empty(), "{:?}", records[0].warnings);
    for (second, first) in [
        ("KM[7.5]", "KM[6.5]"),
        ("RU[GOE]", "RU[Chinese]"),
        ("SZ[13]", "SZ[9]"),
    ] {
        assert!(
            said.iter()
                .any(|s| s.contains(second) && s.contains(first) && s.contains("used")),
            "{second}: {said:?}"
        );
    }
}

#[test]
fn size_limits_name_the_limit_and_how_to_raise_it() {
    let small = |bytes, games, nodes| ReadOptions {
        limits: Limits {
            max_bytes: bytes,
            max_games: games,
            max_nodes: nodes,
        },
        ..ReadOptions::default()
    };
    let many_games = "(;)".repeat(1_000);
    let err = parse_bytes(many_games.as_bytes(), &small(1 << 20, 999, 1 << 20)).expect_err("games");
    assert!(
        matches!(
            err.kind(),
            ErrorKind::TooLarge {
                what: Limit::Games,
                limit: 999,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("INGO_SGF_MAX_GAMES"), "{err}");
    assert!(parse_bytes(many_games.as_bytes(), &small(1 << 20, 1_000, 1 << 20)).is_ok());

    let many_nodes = format!("(;SZ[9]{})", ";C[;;]".repeat(500));
    let err = parse_bytes(many_nodes.as_bytes(), &small(1 << 20, 10, 500)).expect_err("nodes");
    assert!(
        matches!(
            err.kind(),
            ErrorKind::TooLarge {
                what: Limit::Nodes,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("INGO_SGF_MAX_NODES"), "{err}");
    assert!(parse_bytes(many_nodes.as_bytes(), &small(1 << 20, 10, 501)).is_ok());

    let err = parse_bytes(many_nodes.as_bytes(), &small(100, 10, 1 << 20)).expect_err("bytes");
    assert!(
        matches!(
            err.kind(),
            ErrorKind::TooLarge {
                what: Limit::Bytes,
                limit: 100,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("INGO_SGF_MAX_BYTES"), "{err}");

    // A file is read through the bound, not whole.
    let dir = temp_dir("limits");
    let file = dir.join("big.sgf");
    std::fs::write(&file, &many_nodes).expect("written");
    let err = read_file(&file, &small(100, 10, 10).limits).expect_err("too big");
    assert!(
        matches!(
            err.kind(),
            ErrorKind::TooLarge {
                what: Limit::Bytes,
                ..
            }
        ),
        "{err}"
    );
    assert!(read_file(&file, &Limits::DEFAULT).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}
