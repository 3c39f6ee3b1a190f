//! Every fuzz target's body run as an ordinary test, on the stable toolchain, over fixed inputs:
//! the repository's own files of the target's format (the SGF records and GTP transcripts of the
//! tests, and the inputs fuzzing once found, `crates/sgf/tests/data/fuzz/`), their prefixes
//! (truncated files), and seeded pseudo-random bytes. This is no substitute for fuzzing
//! (`README.md`); it keeps the targets compiling and their checks true on known inputs.

use std::path::{Path, PathBuf};

/// SplitMix64: a fixed, seeded byte source, so that every run tries the same inputs.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// The repository's root, above `fuzz/`.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("fuzz/ sits in the repository")
        .to_path_buf()
}

/// The files with extension `ext` under the test folders of every crate, sorted.
fn committed(ext: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, ext, out);
            } else if path.extension().is_some_and(|e| e == ext) {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    let crates = repo().join("crates");
    for entry in std::fs::read_dir(&crates)
        .expect("crates/ exists")
        .flatten()
    {
        walk(&entry.path().join("tests"), ext, &mut out);
    }
    out.sort();
    out
}

/// Runs `target` on `data`, naming the input when a check fails.
fn run(target: fn(&[u8]), name: &str, data: &[u8]) {
    if let Err(panic) = std::panic::catch_unwind(|| target(data)) {
        eprintln!("fuzz target failed on {name}: {data:?}");
        std::panic::resume_unwind(panic);
    }
}

/// Runs `target` on each file and on a few of its prefixes (a file cut anywhere).
fn run_files(target: fn(&[u8]), files: &[PathBuf], min_files: usize) {
    assert!(
        files.len() >= min_files,
        "expected at least {min_files} files, found {files:?}"
    );
    for path in files {
        let data = std::fs::read(path).expect("readable");
        let name = path.display().to_string();
        run(target, &name, &data);
        for cut in (0..data.len()).step_by(data.len() / 16 + 1) {
            run(target, &format!("{name} cut at {cut}"), &data[..cut]);
        }
    }
}

#[test]
fn sgf_parse_on_the_repositorys_records_and_random_bytes() {
    let files = committed("sgf");
    run_files(ingo_fuzz::sgf_parse::run, &files, 10);
    let mut rng = SplitMix64(0x5EED_5F00);
    for i in 0..300 {
        let len = (rng.next() % 200) as usize;
        run(
            ingo_fuzz::sgf_parse::run,
            &format!("random input {i}"),
            &rng.bytes(len),
        );
    }
    // Random moves in a well-formed frame reach the replay and the writer, which bytes rarely do.
    for i in 0..100 {
        let mut sgf = b"(;FF[4]GM[1]SZ[5]RU[GOE]".to_vec();
        for m in 0..(rng.next() % 30) {
            let color = if m % 2 == 0 { b'B' } else { b'W' };
            let (x, y) = (b'a' + (rng.next() % 6) as u8, b'a' + (rng.next() % 6) as u8);
            sgf.extend([b';', color, b'[', x, y, b']']);
        }
        sgf.push(b')');
        run(ingo_fuzz::sgf_parse::run, &format!("random game {i}"), &sgf);
    }
}

#[test]
fn gtp_parse_on_the_repositorys_transcripts_and_random_bytes() {
    let mut files = committed("gtp");
    files.extend(committed("out"));
    run_files(ingo_fuzz::gtp_parse::run, &files, 10);
    // Each line and each response block on its own, as the parsers see them.
    for path in &files {
        let text = std::fs::read_to_string(path).expect("UTF-8");
        for line in text.lines() {
            run(
                ingo_fuzz::gtp_parse::run,
                &path.display().to_string(),
                line.as_bytes(),
            );
        }
        for block in text.split("\n\n") {
            let block = format!("{block}\n\n");
            run(
                ingo_fuzz::gtp_parse::run,
                &path.display().to_string(),
                block.as_bytes(),
            );
        }
    }
    let mut rng = SplitMix64(0x5EED_6700);
    for i in 0..500 {
        let len = (rng.next() % 64) as usize;
        run(
            ingo_fuzz::gtp_parse::run,
            &format!("random input {i}"),
            &rng.bytes(len),
        );
    }
}

#[test]
fn play_undo_on_random_games_of_every_preset_and_shape() {
    let mut rng = SplitMix64(0x5EED_0BD0);
    // Every preset, both first players, a square and a rectangle, several board sizes.
    for i in 0..120u64 {
        let width = (i % 7) as u8; // 1..=7 after `1 + b % 13`
        let preset = (i % 5) as u8 | (((i / 5) % 4) as u8) << 4 | if i % 2 == 0 { 0 } else { 0x80 };
        let height = if i % 3 == 0 {
            0x80 | (rng.next() % 13) as u8
        } else {
            0
        };
        let penalties = rng.next() as u8;
        let mut data = vec![width, preset, height, penalties];
        let len = (rng.next() % 160) as usize;
        data.extend(rng.bytes(len));
        run(
            ingo_fuzz::play_undo::run,
            &format!("random game {i}"),
            &data,
        );
    }
    // Larger boards, fewer of them: each undo replays the game.
    for i in 0..10u64 {
        let mut data = vec![8 + (i % 5) as u8, i as u8, 0, 0x44];
        data.extend(rng.bytes(120));
        run(ingo_fuzz::play_undo::run, &format!("large game {i}"), &data);
    }
}
