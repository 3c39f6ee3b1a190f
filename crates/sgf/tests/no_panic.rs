//! No input panics the reader or the replay (design rule 18): arbitrary strings, arbitrary
//! bytes, and SGF-like text built from the pieces that make parsers stumble.

use ingo_rules::{Preset, Rules};
use ingo_sgf::{parse_bytes, parse_with, replay, ReadOptions, ReplayMode};
use proptest::prelude::*;

/// Reads `text` both ways and replays whatever was read, in both modes.
fn exercise(text: &str) {
    for options in [ReadOptions::default(), ReadOptions::strict()] {
        match parse_with(text, &options) {
            Ok(records) => {
                for record in &records {
                    let _ = record.setup();
                    for mode in [ReplayMode::Strict, ReplayMode::Tolerant] {
                        let _ = replay(record, record.rules_or(Preset::Ing), mode);
                        let _ = replay(record, Rules::ing(), mode);
                    }
                    for w in &record.warnings {
                        let _ = w.to_string();
                    }
                }
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
}

/// Pieces of SGF, valid and broken.
fn piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "(",
        ")",
        ";",
        "[",
        "]",
        "\\",
        "\\]",
        "B[",
        "W[",
        "AB[",
        "AW[",
        "AE[",
        "PL[",
        "SZ[",
        "KM[",
        "HA[",
        "RU[",
        "GM[",
        "CA[",
        "C[",
        "aa",
        "tt",
        "ss",
        "zz",
        "a",
        "dd:ff",
        "19",
        "9",
        "3:5",
        "26",
        "0",
        "7.5",
        "375",
        "-",
        "B",
        "W",
        "Ing",
        "GOE",
        " ",
        "\n",
        "ü",
        "棋",
        "CoPyright[",
        "]]",
        ":",
        "\u{feff}",
        "PL[W]",
        "B[]",
        "W[]",
        "AB[aa:ss]",
        "SZ[2]",
        "SZ[1]",
        "SZ[25]",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings(text in ".{0,200}") {
        exercise(&text);
    }

    #[test]
    fn sgf_like_strings(pieces in prop::collection::vec(piece(), 0..80)) {
        let text: String = pieces.concat();
        exercise(&text);
        exercise(&format!("(;{text}"));
        exercise(&format!("(;SZ[5]{text})"));
    }

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        for options in [ReadOptions::default(), ReadOptions::strict()] {
            let _ = parse_bytes(&bytes, &options);
        }
        // The same bytes behind a declared charset and behind BOMs.
        for prefix in [&b"(;CA[Shift_JIS]C["[..], b"(;CA[GB2312]PB[", b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf"] {
            let mut b = prefix.to_vec();
            b.extend(&bytes);
            let _ = parse_bytes(&b, &ReadOptions::default());
        }
    }

    #[test]
    fn random_games_on_small_boards(
        size in 1usize..=6,
        moves in prop::collection::vec((any::<bool>(), 0u8..8, 0u8..8, any::<bool>()), 0..120),
    ) {
        // Random plays, passes and out-of-turn moves on tiny boards: captures, suicide, kos,
        // off-board points and the end of the game all come up.
        let mut text = format!("(;SZ[{size}]RU[Ing]");
        for (black, x, y, pass) in moves {
            let c = if black { 'B' } else { 'W' };
            if pass {
                text.push_str(&format!(";{c}[]"));
            } else {
                text.push_str(&format!(";{c}[{}{}]", (b'a' + x) as char, (b'a' + y) as char));
            }
        }
        text.push(')');
        exercise(&text);
    }
}
