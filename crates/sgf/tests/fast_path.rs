//! The reader's fast path for well-formed text gives exactly what the full path (repairs, depth
//! guard, sgf-parse) gives: the same records — size, komi, rules, game information, setup, moves,
//! territory, penalties, warnings, the whole parsed tree — or the same error, leniently and
//! strictly.
//!
//! * a sample of the corpus (every 8th file, and every file under `Ing/`) in the normal run;
//! * `INGO_FULL_CORPUS=1` compares every file of the corpus.

use std::path::PathBuf;

use ingo_sgf::{parse_bytes, parse_bytes_full_path, ReadOptions, Record, SgfError};

mod common;

use common::{corpus_dir, sgf_files};

/// Why two readings differ, if they do.
fn difference(
    fast: &Result<Vec<Record>, SgfError>,
    full: &Result<Vec<Record>, SgfError>,
) -> Option<String> {
    let (fast, full) = match (fast, full) {
        (Err(a), Err(b)) => {
            return (a.to_string() != b.to_string()).then(|| format!("errors: {a} / {b}"));
        }
        (Ok(a), Ok(b)) => (a, b),
        (a, b) => {
            return Some(format!(
                "one read, one refused: {:?} / {:?}",
                a.as_ref().err(),
                b.as_ref().err()
            ))
        }
    };
    if fast.len() != full.len() {
        return Some(format!("{} games / {}", fast.len(), full.len()));
    }
    for (i, (a, b)) in fast.iter().zip(full).enumerate() {
        let game = i + 1;
        let same = (a.width, a.height) == (b.width, b.height)
            && a.komi == b.komi
            && a.handicap == b.handicap
            && a.rules == b.rules
            && a.info == b.info
            && a.setup_events == b.setup_events
            && a.moves == b.moves
            && a.territory == b.territory
            && a.penalties == b.penalties;
        if !same {
            return Some(format!("game {game}: the records differ"));
        }
        if a.sgf_root() != b.sgf_root() {
            return Some(format!("game {game}: the parsed trees differ"));
        }
        // Warnings about the points of a list (`AB`, `AE`…) come in the order of sgf-parse's
        // hash sets, which differs from one reading to the next even on the same path: compare
        // them in order when they agree, as multisets otherwise.
        if a.warnings != b.warnings {
            let sorted = |r: &Record| {
                let mut w: Vec<String> = r.warnings.iter().map(|w| format!("{w:?}")).collect();
                w.sort();
                w
            };
            if sorted(a) != sorted(b) {
                return Some(format!(
                    "game {game}: warnings {:?} / {:?}",
                    a.warnings, b.warnings
                ));
            }
        }
    }
    None
}

#[test]
fn fast_path_reads_as_the_full_path() {
    let dir = corpus_dir();
    let full = std::env::var_os("INGO_FULL_CORPUS").is_some();
    let files: Vec<PathBuf> = sgf_files(&dir)
        .into_iter()
        .enumerate()
        .filter(|(i, p)| full || i % 8 == 0 || p.components().any(|c| c.as_os_str() == "Ing"))
        .map(|(_, p)| p)
        .collect();
    let mut failures = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).expect("corpus file");
        for options in [ReadOptions::default(), ReadOptions::strict()] {
            let fast = parse_bytes(&bytes, &options);
            let slow = parse_bytes_full_path(&bytes, &options);
            if let Some(d) = difference(&fast, &slow) {
                let mode = if options.lenient { "lenient" } else { "strict" };
                failures.push(format!("{} ({mode}): {d}", path.display()));
            }
        }
    }
    println!(
        "fast path: {} files compared ({}), {} differences",
        files.len(),
        if full { "whole corpus" } else { "sample" },
        failures.len()
    );
    assert!(full || files.len() >= 700, "sample too small");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Hand-made texts at the edges of what the fast path takes.
#[test]
fn fast_path_edges() {
    for text in [
        "(;GM[1]FF[4]SZ[19]C[a \\] b \\\\ c\\\nd]PB[Ing];B[pd];W[];B[tt](;W[aA])(;W[Zz];B[\\a]))",
        "  (;CoPyright[x]SZ[9] AB[aa][bb] \n [cc:dd];W[ab]  ) \r\n(;B[cc])\n",
        "(;B[aa][bb];W[a];B[abc];W[1a];KM[6.5]HA[1]C[中文]GM[1];AE[])",
        "(;FF[4]GM[1];B[aa](;W[bb](;B[cc])(;B[dd]))(;W[ee]))",
        "(;GM[2];B[aa])",
        "(;GM[1]GM[1];B[aa])",
        "(;bbGM[2];B[aa])",
        "(;SZ[400])",
        "(;B[zz])",
        "(;AB[zz]AW[aa:cc])",
        "(;TB[aa]TW[bb];B[aa])",
        "(;B[aa](;W[bb]);B[cc])",
        "(;SZ[5];B[aa]C[x](;W[bb]TB[cc]TW[dd](;B[cc])(;B[dd]TB[ee]))(;W[ee]AB[aa]))",
        "(;SZ[5]PB[a]BP[2]WP[x];B[aa];W[bb]AE[aa];B[]TW[aa])",
        "(;B[aa])(;SZ[99];B[aa])(;GM[1]B[zz])",
        "(;B[aa])(;bbGM[2];B[aa])",
        "(;SZ[5]KM[650]HA[x]RU[Korean];B[aa];B[bb];W[aa][bb])",
        "(;SZ[3];W[cc];B[dd])(;W[ab])",
        "(;B [aa])",
        "(;B[aa]\u{a0})",
        "\u{feff}(;B[aa])",
        "(;B[aa])\u{1a}",
        "(;B[aa]",
        "",
    ] {
        for options in [ReadOptions::default(), ReadOptions::strict()] {
            let fast = parse_bytes(text.as_bytes(), &options);
            let slow = parse_bytes_full_path(text.as_bytes(), &options);
            assert_eq!(difference(&fast, &slow), None, "{text:?}");
        }
    }
}
