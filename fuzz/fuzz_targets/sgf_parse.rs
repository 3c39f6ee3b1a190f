//! Arbitrary bytes through the whole SGF path: decoding, lenient and strict parsing, replay of
//! every line of play under Ing's rules in both modes, writing and reading back. Nothing may
//! panic, and what the reader accepted must read back the same after writing.
#![no_main]

use ingo_rules::Rules;
use ingo_sgf::{parse, parse_bytes, replay, replay_line, write, ReadOptions, ReplayMode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = parse_bytes(data, &ReadOptions::strict());
    let Ok(records) = parse_bytes(data, &ReadOptions::default()) else {
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
});
