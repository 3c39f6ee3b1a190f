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

/// Runs `target` on each text, named by itself.
fn run_texts(target: fn(&[u8]), texts: &[&str]) {
    for text in texts {
        run(target, text, text.as_bytes());
    }
}

/// Runs `target` on `count` inputs of random bytes from `rng`, each shorter than `max_len`.
fn run_random(target: fn(&[u8]), rng: &mut SplitMix64, count: usize, max_len: u64) {
    for i in 0..count {
        let len = (rng.next() % max_len) as usize;
        run(target, &format!("random input {i}"), &rng.bytes(len));
    }
}

/// The four bytes of a game (`src/game_input.rs`) for the `i`th random game: a width among the
/// first `widths`, every preset, the handicap passes and both first players in turn, a
/// rectangle one time in three, and random penalties.
fn game_header(i: u64, widths: u64, rng: &mut SplitMix64) -> Vec<u8> {
    let width = (i % widths) as u8;
    let preset =
        (i % 5) as u8 | (((i / 5) % 4) as u8) << 4 | if i.is_multiple_of(2) { 0 } else { 0x80 };
    let height = if i.is_multiple_of(3) {
        0x80 | (rng.next() % 13) as u8
    } else {
        0
    };
    vec![width, preset, height, rng.next() as u8]
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
    run_random(ingo_fuzz::sgf_parse::run, &mut rng, 300, 200);
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
    run_random(ingo_fuzz::gtp_parse::run, &mut rng, 500, 64);
}

#[test]
fn play_undo_on_random_games_of_every_preset_and_shape() {
    let mut rng = SplitMix64(0x5EED_0BD0);
    // Every preset, both first players, a square and a rectangle, several board sizes.
    for i in 0..120u64 {
        // Widths 1..=7 after `1 + b % 13`.
        let mut data = game_header(i, 7, &mut rng);
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

/// Field texts of every kind `text_fields` reads, as ingo's docs and tests write them, and a
/// few near misses.
const FIELDS: &[&str] = &[
    "none",
    "untimed",
    "absolute:30m",
    "sudden-death:1h30m",
    "byoyomi:30m+5x30s",
    "japanese:1h+3X60",
    "ing-rs:3h+3x1m",
    "rs:90m+1×30s",
    "ing-pp:3h",
    "canadian:20m+25/5m",
    "fischer:10m+10s[max 20m]",
    "fischer:3d+3d[ max 3d ]",
    "fischer:10m+500ms",
    "absolute:1h30",
    "canadian:20m+25",
    "byoyomi:+5x30s",
    "1800",
    "29.5",
    "+3",
    "0.001",
    ".5",
    "1e3",
    "3品",
    "5段",
    "初段",
    "2級",
    "級外",
    "9p",
    "5d",
    "1k",
    "30k",
    "31k",
    "0d",
    "8",
    "7.5",
    "-2.5",
    "8.25",
    "ing",
    "katago-ing",
    "chinese",
    "japanese",
    "tromp-taylor",
    "simple",
    "positional",
    "situational",
    "single",
    "block",
    "all",
    "b",
    "White",
    "B+3.5",
    "W+R",
    "B+T",
    "W+F",
    "0-0",
    "1-0",
    "jigo",
    "round-robin",
    "單式淘汰制",
    "ten_game",
    "應氏選擇制",
    "egf-simplified-ing",
    "sir",
    "A1",
    "b2",
    "sosos",
    "SODOS",
];

#[test]
fn text_fields_on_the_documented_forms_and_random_bytes() {
    for (i, s) in FIELDS.iter().enumerate() {
        run(
            ingo_fuzz::text_fields::run,
            &format!("field {i}"),
            s.as_bytes(),
        );
        // The SGF pair: a TM and an OT on two lines.
        let pair = format!("{}\n{s}", 60 * (i + 1));
        run(
            ingo_fuzz::text_fields::run,
            &format!("TM/OT {i}"),
            pair.as_bytes(),
        );
    }
    run_texts(
        ingo_fuzz::text_fields::run,
        &[
            "1800\n5x30 byo-yomi",
            "10800\n3x60 byo-yomi (Ing RS)",
            "10800\nIng PP",
            "1200\n25/300 Canadian",
            "600\nFischer 10s max 1200s",
        ],
    );
    let mut rng = SplitMix64(0x5EED_F1E1);
    run_random(ingo_fuzz::text_fields::run, &mut rng, 500, 24);
}

#[test]
fn data_files_on_the_repositorys_files_and_random_bytes() {
    let mut files = committed("csv");
    files.push(repo().join("crates/player/data/patterns.txt"));
    run_files(ingo_fuzz::data_files::run, &files, 2);
    // The agreements of the docs, each TOML block alone.
    let mut blocks = 0;
    for doc in ["docs/tournaments.md", "docs/server.md"] {
        let text = std::fs::read_to_string(repo().join(doc)).expect("the docs are there");
        for block in text.split("```toml").skip(1) {
            let block = block.split("```").next().unwrap_or_default();
            run(ingo_fuzz::data_files::run, doc, block.as_bytes());
            blocks += 1;
        }
    }
    assert!(blocks >= 2, "the docs hold agreements in TOML");
    run_texts(
        ingo_fuzz::data_files::run,
        &[
            "round,black,white,result\n1,Ann,Bo,B+3.5\n1,Cy,,bye\n2,Bo,Cy,W+R\n",
            "round,board,black,white,result\n1,2,Ann,Bo,1-0\n1,1,Cy,Dee,jigo\n",
            "1,Ann,Bo,B+R\n\n# a comment\n2,\"Lee, Ann\",Bo,W+F\n",
            "name,rank,country,club\n\"Lee, Ann\",2k,de,Berlin\nBo,,,\n",
            "surname,given_name,rank,egd_pin\nLee,Ann,3品,12345678\n",
        ],
    );
    let mut rng = SplitMix64(0x5EED_DA7A);
    run_random(ingo_fuzz::data_files::run, &mut rng, 300, 120);
}

#[test]
fn gtp_engine_on_the_repositorys_transcripts_and_random_commands() {
    let files = committed("gtp");
    assert!(
        files.len() >= 5,
        "expected GTP transcripts, found {files:?}"
    );
    for path in &files {
        let data = std::fs::read(path).expect("readable");
        run(
            ingo_fuzz::gtp_engine::run,
            &path.display().to_string(),
            &data,
        );
    }
    // Commands of the engine's own table with arguments drawn from what they take and what
    // they do not.
    let names: Vec<&str> = ingo_front::gtp::COMMANDS.iter().map(|s| s.name).collect();
    let args = [
        "b",
        "w",
        "black",
        "WHITE",
        "pass",
        "resign",
        "A1",
        "J9",
        "T19",
        "Z0",
        "e5",
        "7",
        "0",
        "-1",
        "25",
        "26",
        "7.5",
        "-3.5",
        "nan",
        "1e9",
        "99999999999",
        "dead",
        "alive",
        "seki",
        "ing",
        "chinese",
        "simple",
        "block",
        "",
        "\u{7f}",
        "品",
    ];
    let mut rng = SplitMix64(0x5EED_E61E);
    for i in 0..200 {
        let mut input = String::new();
        for _ in 0..(rng.next() % 12) {
            let name = names[(rng.next() % names.len() as u64) as usize];
            input.push_str(name);
            for _ in 0..(rng.next() % 5) {
                input.push(' ');
                input.push_str(args[(rng.next() % args.len() as u64) as usize]);
            }
            input.push('\n');
        }
        run(
            ingo_fuzz::gtp_engine::run,
            &format!("random commands {i}: {input:?}"),
            input.as_bytes(),
        );
    }
}

#[test]
fn endgame_judge_on_random_games_of_every_preset_and_shape() {
    let mut rng = SplitMix64(0x5EED_E7D0);
    for i in 0..120u64 {
        let mut data = game_header(i, 13, &mut rng);
        let len = (rng.next() % 200) as usize;
        // Few passes, so that most games run to a full board before they end.
        data.extend(rng.bytes(len).into_iter().map(|b| b % 250));
        run(
            ingo_fuzz::endgame_judge::run,
            &format!("random game {i}"),
            &data,
        );
    }
}
