//! Arbitrary bytes through the whole SGF path: decoding, lenient and strict parsing, replay of
//! every line of play under Ing's rules in both modes, writing and reading back. Nothing may
//! panic, what the reader accepted must read back the same after writing, and the reader's fast
//! path for well-formed text must give what the full path (repairs, sgf-parse) gives.

use ingo_rules::Rules;
use ingo_sgf::{
    parse, parse_bytes, parse_bytes_full_path, replay, replay_line, write, ReadOptions, Record,
    ReplayMode, SgfError,
};

/// The fast path and the full path agree: same error, or same records (everything but the order
/// of the warnings, which follows sgf-parse's hash sets).
fn assert_same(
    data: &[u8],
    fast: &Result<Vec<Record>, SgfError>,
    full: &Result<Vec<Record>, SgfError>,
) {
    match (fast, full) {
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{data:?}"),
        (Ok(a), Ok(b)) => {
            assert_eq!(a.len(), b.len(), "{data:?}");
            for (a, b) in a.iter().zip(b) {
                assert_eq!((a.width, a.height), (b.width, b.height), "{data:?}");
                assert_eq!((a.komi, a.handicap, a.rules), (b.komi, b.handicap, b.rules));
                assert_eq!(a.info, b.info, "{data:?}");
                assert_eq!(a.setup_events, b.setup_events, "{data:?}");
                assert_eq!(a.moves, b.moves, "{data:?}");
                assert_eq!(a.territory, b.territory, "{data:?}");
                assert_eq!(a.penalties, b.penalties, "{data:?}");
                assert_eq!(a.sgf_root(), b.sgf_root(), "{data:?}");
                let sorted = |r: &Record| {
                    let mut w: Vec<String> = r.warnings.iter().map(|w| format!("{w:?}")).collect();
                    w.sort();
                    w
                };
                assert_eq!(sorted(a), sorted(b), "{data:?}");
            }
        }
        (a, b) => panic!(
            "one path read {data:?}, the other refused it: {:?} / {:?}",
            a.as_ref().err(),
            b.as_ref().err()
        ),
    }
}

/// The target's body: runs one input, and panics when a check fails.
pub fn run(data: &[u8]) {
    let strict = parse_bytes(data, &ReadOptions::strict());
    assert_same(
        data,
        &strict,
        &parse_bytes_full_path(data, &ReadOptions::strict()),
    );
    let lenient = parse_bytes(data, &ReadOptions::default());
    assert_same(
        data,
        &lenient,
        &parse_bytes_full_path(data, &ReadOptions::default()),
    );
    let Ok(records) = lenient else {
        return;
    };
    for record in &records {
        for mode in [ReplayMode::Strict, ReplayMode::Tolerant] {
            let _ = replay(record, Rules::ing(), mode);
        }
        for line in record.lines().take(8).flatten() {
            let _ = replay_line(record, &line, Rules::ing(), ReplayMode::Strict);
        }
        let text = write(record);
        let again = parse(&text).expect("ingo reads what it wrote");
        assert_eq!(again.len(), 1, "one game written, one read back");
        assert_eq!(again[0].moves, record.moves, "moves survive writing");
        assert_eq!(
            (again[0].width, again[0].height),
            (record.width, record.height),
            "size survives writing"
        );
    }
}
