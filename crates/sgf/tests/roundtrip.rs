//! Writing SGF: read → write → read keeps every game of the corpus and every property of a file;
//! games played through `Game` and written by ingo replay to the same end; sgfmill reads every
//! file ingo writes; and a golden file pins ingo's format byte for byte.
//!
//! * `cargo test -p ingo-sgf --test roundtrip -- --nocapture` prints the figures;
//! * `INGO_FULL_CORPUS=1` round-trips every file of the corpus instead of a sample;
//! * `INGO_BLESS=1` rewrites `tests/data/written_game.sgf` from the writer's output;
//! * the sgfmill test needs `python3` with sgfmill (`pip install sgfmill`): without them it
//!   is skipped with a note, except under CI, where it fails (`ingo_testkit::sgfmill`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use ingo_rules::{
    ByColor, Color, Game, GameEnd, Komi, Move, Phase, PlayErrorKind, Point, Rules, Setup,
};
use ingo_sgf::sgf_parse::go::Prop;
use ingo_sgf::sgf_parse::{SgfNode, SgfProp};
use ingo_sgf::{
    parse, parse_file, replay, replay_line, write, write_collection, write_game, ErrorKind,
    MoveInfo, Record, ReplayMode, WriteInfo,
};

mod common;

use common::corpus_dir;

fn data_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// The rows of INDEX.tsv (header skipped), split into columns.
fn index_rows() -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(corpus_dir().join("INDEX.tsv")).expect("INDEX.tsv");
    text.lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// The Ing games of `tests/data/ing_games.txt` (paths relative to the corpus).
fn ing_games() -> Vec<String> {
    std::fs::read_to_string(data_path("ing_games.txt"))
        .expect("ing_games.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

// ---- comparing records ----

/// Compares two trees node by node without recursion (trees can be thousands of nodes deep);
/// the root's `CA` is left out, since the writer declares UTF-8 whatever was read, and so are
/// properties left with no identifier (`lowercase[x]`), which SGF cannot write.
fn same_tree(a: &SgfNode<Prop>, b: &SgfNode<Prop>) -> Result<(), String> {
    let mut stack = vec![(a, b, 0usize)];
    while let Some((x, y, depth)) = stack.pop() {
        let props = |n: &SgfNode<Prop>| -> Vec<Prop> {
            n.properties
                .iter()
                .filter(|p| depth > 0 || p.identifier() != "CA")
                .filter(|p| !p.identifier().is_empty())
                .cloned()
                .collect()
        };
        if props(x) != props(y) {
            return Err(format!(
                "node at depth {depth} differs:\n  read:    {:?}\n  re-read: {:?}",
                props(x),
                props(y)
            ));
        }
        if x.children.len() != y.children.len() {
            return Err(format!(
                "node at depth {depth}: {} children, then {}",
                x.children.len(),
                y.children.len()
            ));
        }
        stack.extend(
            x.children
                .iter()
                .zip(&y.children)
                .map(|(c, d)| (c, d, depth + 1)),
        );
    }
    Ok(())
}

/// The same game: size, komi, handicap, rules, game information, setup, moves, territory,
/// penalties, and the whole tree.
fn same_record(a: &Record, b: &Record) -> Result<(), String> {
    let check = |what: &str, same: bool| {
        if same {
            Ok(())
        } else {
            Err(format!("{what} differs"))
        }
    };
    check("size", (a.width, a.height) == (b.width, b.height))?;
    check("komi", a.komi == b.komi)?;
    check("handicap", a.handicap == b.handicap)?;
    check("rules", a.rules == b.rules)?;
    check("game information", a.info == b.info)?;
    check("setup", a.setup_events == b.setup_events)?;
    check("moves", a.moves == b.moves)?;
    check("territory", a.territory == b.territory)?;
    check("penalties", a.penalties == b.penalties)?;
    same_tree(a.sgf_root(), b.sgf_root())
}

/// Reads, writes and reads `path` again: `Ok(None)` when the file is not readable in the first
/// place, `Ok(Some(games))` when every game survived.
fn round_trip(path: &Path) -> Result<Option<usize>, String> {
    let Ok(first) = parse_file(path) else {
        return Ok(None);
    };
    let text = write_collection(&first);
    let second = parse(&text).map_err(|e| format!("written text unreadable: {e}"))?;
    if second.len() != first.len() {
        return Err(format!("{} games, then {}", first.len(), second.len()));
    }
    for (i, (a, b)) in first.iter().zip(&second).enumerate() {
        same_record(a, b).map_err(|e| format!("game {}: {e}", i + 1))?;
    }
    // Writing what was read back gives the same text: the writer is deterministic.
    if write_collection(&second) != text {
        return Err("second writing differs from the first".into());
    }
    Ok(Some(first.len()))
}

/// Lines of play of the records of `path`: (lines, lines that could not be read or replayed).
/// The first line must be the main line.
fn lines_of(path: &Path) -> Result<(usize, usize), String> {
    let records = parse_file(path).map_err(|e| e.to_string())?;
    let (mut lines, mut refused) = (0, 0);
    for record in &records {
        for line in record.lines() {
            lines += 1;
            let Ok(line) = line else {
                refused += 1;
                continue;
            };
            if line.number == 1 && (line.moves != record.moves || !line.is_main()) {
                return Err("the first line is not the main line".into());
            }
            let rules = record.rules_or(ingo_rules::Preset::Ing);
            match replay_line(record, &line, rules, ReplayMode::Strict) {
                Ok(r) if r.illegal.is_none() => {}
                _ => refused += 1,
            }
        }
    }
    Ok((lines, refused))
}

/// Read → write → read keeps every game (size, komi, rules, setup, moves, result, players,
/// every property) for a deterministic sample of the corpus (every 8th file of INDEX.tsv, 724
/// files) plus the 463 Ing games, or for the whole corpus with `INGO_FULL_CORPUS=1`.
#[test]
fn corpus_round_trip() {
    let dir = corpus_dir();
    let full = std::env::var_os("INGO_FULL_CORPUS").is_some();
    let mut paths: Vec<String> = index_rows()
        .into_iter()
        .enumerate()
        .filter(|(i, _)| full || i % 8 == 0)
        .map(|(_, row)| row[0].clone())
        .collect();
    paths.extend(ing_games());
    paths.sort();
    paths.dedup();
    let start = Instant::now();
    let (mut files, mut games, mut unreadable) = (0usize, 0usize, Vec::new());
    let mut failures = Vec::new();
    let (mut lines, mut refused_lines) = (0, 0);
    for rel in &paths {
        match lines_of(&dir.join(rel)) {
            Ok((n, refused)) => {
                lines += n;
                refused_lines += refused;
            }
            Err(e) => failures.push(format!("{rel}: lines: {e}")),
        }
        match round_trip(&dir.join(rel)) {
            Ok(Some(n)) => {
                files += 1;
                games += n;
            }
            Ok(None) => unreadable.push(rel.clone()),
            Err(e) => failures.push(format!("{rel}: {e}")),
        }
    }
    println!(
        "round trip: {} files ({}), {files} files ({games} games) kept, {} unreadable before \
         writing, {} failures, {:.1} s",
        paths.len(),
        if full {
            "whole corpus"
        } else {
            "sample + Ing games"
        },
        unreadable.len(),
        failures.len(),
        start.elapsed().as_secs_f64()
    );
    println!(
        "lines of play: {lines} in {games} games, {} variations; {refused_lines} not replayed \
         to the end (an illegal move, or setup inside the line)",
        lines - games
    );
    assert!(
        failures.is_empty(),
        "{} of {} files changed in a round trip:\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n")
    );
    assert!(full || paths.len() >= 500 + 463 - 100, "sample too small");
    assert!(unreadable.is_empty(), "unreadable: {unreadable:?}");
}

fn corpus_record(rel: &str) -> Record {
    let mut records = parse_file(corpus_dir().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert_eq!(records.len(), 1, "{rel}");
    records.remove(0)
}

fn root_value(record: &Record, id: &str) -> Option<Vec<String>> {
    record
        .sgf_root()
        .properties
        .iter()
        .find(|p| p.identifier() == id)
        .map(|p| match p {
            Prop::Unknown(_, v) | Prop::Invalid(_, v) => v.clone(),
            Prop::CP(t) | Prop::US(t) => vec![t.text.clone()],
            other => vec![other.to_string()],
        })
}

/// Unknown and non-game properties of real files survive read → write → read.
#[test]
fn unknown_properties_survive() {
    // IGS: FF[3]-style `CoPyright` (read as CP), the unknown LT, RR, NW, NB, and WL per move.
    for rel in [
        "katrain/tests/data/panda1.sgf",
        "glift/test/testdata/PandanetFF3Example.sgf",
    ] {
        let read = corpus_record(rel);
        let text = write(&read);
        let again = &parse(&text).expect("written text")[0];
        same_record(&read, again).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let copyright = root_value(again, "CP").expect("CP kept");
        assert!(
            copyright[0].contains("Copyright (c) PANDANET Inc."),
            "{copyright:?}"
        );
        for id in ["LT", "RR", "NW", "NB", "US"] {
            assert_eq!(root_value(again, id), root_value(&read, id), "{rel}: {id}");
            assert!(root_value(again, id).is_some(), "{rel}: {id} lost");
        }
        assert!(text.contains("WL["), "{rel}: per-move time kept");
    }

    // Sabaki's test file: comments, markup, labels, variations.
    let rel = "sabaki-sgf/tests/sgf/complex.sgf";
    let read = corpus_record(rel);
    let again = &parse(&write(&read)).expect("written text")[0];
    same_record(&read, again).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let lines = |r: &Record| -> Vec<(String, usize)> {
        r.lines()
            .map(|l| l.expect("line"))
            .map(|l| (l.to_string(), l.moves.len()))
            .collect()
    };
    assert!(lines(&read).len() > 1, "complex.sgf has variations");
    assert_eq!(lines(&read), lines(again));

    // Escapes: `]` and `\` in every kind of value, `:` in composed ones.
    let text = "(;GM[1]FF[4]SZ[9]AP[a\\:b:1\\]0]XX[p\\]q\\\\r:s][t]PB[x\\]y\\\\]C[a:b\\]]\
                ;B[ee]LB[ee:1\\:2][cc:\\]]N[n\\\\])";
    let read = &parse(text).expect("text")[0];
    let written = write(read);
    let again = &parse(&written).expect("written text")[0];
    same_record(read, again).unwrap_or_else(|e| panic!("{written}: {e}"));
    assert_eq!(read.info.application.as_deref(), Some("a:b:1]0"));
    assert_eq!(again.info.application.as_deref(), Some("a:b:1]0"));
    assert_eq!(again.info.players.black.as_deref(), Some("x]y\\"));
}

// ---- games played through Game ----

fn pt(sgf: &str, game: &Game) -> Point {
    let b = game.board();
    Point::from_sgf(sgf, b.width(), b.height()).unwrap_or_else(|e| panic!("{e}"))
}

/// Plays `moves` (SGF points, `""` for a pass), each of which must be legal.
fn play(game: &mut Game, moves: &[&str]) {
    for &m in moves {
        let mv = if m.is_empty() {
            Move::Pass
        } else {
            Move::Play(pt(m, game))
        };
        game.play(mv)
            .unwrap_or_else(|e| panic!("move {} {m}: {e}", game.move_count() + 1));
    }
}

/// A 3先 game on 7×7 (White gives two handicap passes, no komi), with a block suicide, a ko taken,
/// refused at once, and retaken after a threat, ending by four passes; White has 2 penalty
/// points.
fn handicap_game() -> Game {
    let setup = Setup {
        handicap_passes: 2,
        ..Setup::empty(7).expect("size")
    };
    // 3先 exactly: two White passes and no komi (docs/rules.md §6: komi = 8K − Δ with K = 3, Δ = 24).
    let rules = Rules {
        komi: Komi(0),
        ..Rules::ing()
    };
    let mut game = Game::new(setup, rules);
    play(
        &mut game,
        &[
            "de", "", "ed", "", "ef", "fd", "aa", "ff", "cg", "ge", "bf", "ee",
            // Black takes the ko...
            "fe",
        ],
    );
    // ... and White may not take back at once (a hot stone).
    let retake = Move::Play(pt("ee", &game));
    assert_eq!(game.illegal_reason(retake), Some(PlayErrorKind::HotStone));
    // A threat, an answer, the retake; then White surrounds Black's corner stone and Black
    // plays the block suicide of two stones at `ba`.
    play(&mut game, &["ab", "ag", "ee", "gg", "bb", "ga", "ca", "ba"]);
    let last = game.last_move().expect("a move");
    assert!(last.suicide && last.removed.len() == 2, "{last:?}");
    play(&mut game, &["", "", "", ""]);
    assert_eq!(game.end(), Some(&GameEnd::Passes));
    game.set_penalty(Color::White, 2);
    game
}

/// A 5×5 game ended at the suspension by agreeing that White's stone at `aa` is dead.
fn agreement_game() -> Game {
    let mut game = Game::new(Setup::empty(5).expect("size"), Rules::ing());
    play(
        &mut game,
        &[
            "ca", "da", "cb", "db", "cc", "dc", "cd", "dd", "ce", "de", "bc", "aa", "", "",
        ],
    );
    assert_eq!(game.phase(), Phase::Suspended);
    let dead = [pt("aa", &game)];
    game.agree_dead(&dead).expect("agreement");
    game
}

/// A 9×9 game under the katago-ing preset with a setup stone, White to move, resigned by White.
fn resigned_game() -> Game {
    let mut setup = Setup::empty(9).expect("size");
    let c3 = Point::from_sgf("cg", 9, 9).expect("point");
    setup.board.set_stone(c3, Color::Black);
    setup.to_move = Color::White;
    let mut game = Game::new(setup, ingo_rules::Preset::KataGoIng.rules());
    play(&mut game, &["ee", "gc", "", "cc"]);
    game.resign(Color::White).expect("resign");
    game
}

/// Game information with every kind of text that needs care: `]`, `\`, `:`, Chinese.
fn golden_info(game: &Game) -> WriteInfo {
    let mut info = WriteInfo::default();
    info.info.players = ByColor {
        black: Some("聶衛平 [Nie Weiping]".into()),
        white: Some("Cho\\Hunhyun: 曺薰鉉".into()),
    };
    info.info.ranks = ByColor {
        black: Some("9p".into()),
        white: Some("9p".into()),
    };
    info.info.event = Some("1st Ing Cup: final, game 5".into());
    info.info.date = Some("1989-09-05".into());
    info.info.place = Some("Singapore".into());
    info.info.time = Some("10800".into());
    info.info.overtime = Some("Ing PP 2 points per 1/6 of basic time".into());
    info.comment = Some(
        "Source: crates/sgf/tests/roundtrip.rs, handicap_game and golden_info \
         (INGO_BLESS=1 cargo test -p ingo-sgf --test roundtrip rewrites tests/data/written_game.sgf).\n\
         Not a real game: a 3-handicap game on 7x7 with a ko and a block suicide."
            .into(),
    );
    info.moves = (0..game.move_count())
        .map(|i| MoveInfo {
            time_left: Some(Duration::from_millis(10_800_000 - 61_250 * i as u64)),
            ..MoveInfo::default()
        })
        .collect();
    info.moves[12].comment = Some("Black takes the ko [hot stone]; White may not retake.".into());
    info.moves[20].comment = Some("Block suicide: 2 stones.".into());
    info.moves[20].periods_left = Some(3);
    info
}

/// What a game comes to, for comparing a game with its replay.
fn outcome(game: &Game) -> (String, Phase, Option<GameEnd>, Option<String>) {
    (
        game.board().to_ascii(),
        game.phase(),
        game.end().cloned(),
        game.score().map(|s| s.result_string()),
    )
}

/// Writes `game`, reads it back and replays it, finishing an agreement as the record says.
fn write_and_replay(game: &Game, info: &WriteInfo) -> (String, Record, Game) {
    let text = write_game(game, info);
    let mut records = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(records.len(), 1);
    let record = records.remove(0);
    assert!(record.warnings.is_empty(), "{:?}\n{text}", record.warnings);
    let rules = record.rules_or(ingo_rules::Preset::Ing);
    assert_eq!(&rules, game.rules(), "{text}");
    let mut replayed = replay(&record, rules, ReplayMode::Strict).expect("replay");
    assert!(replayed.is_clean(), "{:?}\n{text}", replayed.illegal);
    assert!(replayed.inserted_passes.is_empty(), "{text}");
    if let Some(dead) = record.dead_stones(replayed.game.board()) {
        replayed.game.agree_dead(&dead).expect("agreement");
    }
    (text, record, replayed.game)
}

#[test]
fn played_games_replay_to_the_same_end() {
    // Handicap, ko, block suicide, four passes, penalty points.
    let game = handicap_game();
    let info = golden_info(&game);
    let (text, record, replayed) = write_and_replay(&game, &info);
    assert_eq!(outcome(&replayed), outcome(&game), "{text}");
    assert_eq!(replayed.penalties(), game.penalties());
    assert_eq!(record.handicap, Some(3));
    assert_eq!(record.setup().expect("setup").handicap_passes, 2);
    assert_eq!(record.moves.len(), game.move_count());
    let result = game.score().expect("counted").result_string();
    assert_eq!(record.info.result.as_deref(), Some(result.as_str()));
    assert_eq!(record.info.players.black, info.info.players.black);
    assert_eq!(record.info.players.white, info.info.players.white);
    assert_eq!(record.info.event, info.info.event);
    assert!(text.contains("RU[GOE]SZ[7]KM[0]HA[3]"), "{text}");
    assert!(
        text.contains(";B[de]BL[10800];W[]WL[10738.75];B[ed]"),
        "{text}"
    );
    assert!(text.contains("WP[2]") && !text.contains("BP["), "{text}");
    assert!(!text.contains("[tt]"), "passes are never tt");

    // Agreement on dead stones: territory markup after the last pass.
    let game = agreement_game();
    let (text, record, replayed) = write_and_replay(&game, &WriteInfo::default());
    assert_eq!(outcome(&replayed), outcome(&game), "{text}");
    assert_eq!(
        replayed.end(),
        Some(&GameEnd::Agreement(vec![pt("aa", &game)]))
    );
    assert_eq!(record.info.result.as_deref(), Some("W+3"), "{text}");
    assert!(
        text.ends_with(";TB[aa][ab][ac][ad][ae][ba][bb][bd][be]TW[ea][eb][ec][ed][ee])\n"),
        "{text}"
    );

    // Resignation, a setup stone, White first, another preset.
    let game = resigned_game();
    let (text, record, replayed) = write_and_replay(&game, &WriteInfo::default());
    assert!(
        text.contains("RU[katago-ing]SZ[9]KM[7.5]\nRE[B+R]"),
        "{text}"
    );
    assert!(text.contains("AB[cg]PL[W]"), "{text}");
    assert_eq!(record.info.result.as_deref(), Some("B+R"));
    assert_eq!(replayed.board(), game.board());
    assert_eq!(replayed.to_move(), game.to_move());

    // A game still going on has no RE, unless one is given.
    let mut going = Game::new(Setup::empty(9).expect("size"), Rules::ing());
    play(&mut going, &["ee"]);
    assert!(!write_game(&going, &WriteInfo::default()).contains("RE["));
    let mut info = WriteInfo::default();
    info.info.result = Some("Void".into());
    assert!(write_game(&going, &info).contains("RE[Void]"));
}

/// A fixed game written by ingo, byte for byte (`INGO_BLESS=1` rewrites it).
#[test]
fn golden_written_game() {
    let game = handicap_game();
    let mut info = golden_info(&game);
    // The version would change the file at every release.
    info.info.application = Some("ingo:golden".into());
    let written = write_game(&game, &info);
    let path = data_path("written_game.sgf");
    if std::env::var_os("INGO_BLESS").is_some() {
        std::fs::write(&path, &written).expect("write the golden file");
    }
    let golden = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (INGO_BLESS=1 writes it)", path.display()));
    assert!(
        golden == written,
        "the writer's output differs from {} (INGO_BLESS=1 rewrites it):\n--- golden\n{golden}\n--- written\n{written}",
        path.display()
    );
    // And it reads back as the same game.
    let record = &parse(&golden).expect("golden file")[0];
    let replayed = replay(
        record,
        record.rules_or(ingo_rules::Preset::Ing),
        ReplayMode::Strict,
    )
    .expect("replay");
    assert_eq!(outcome(&replayed.game), outcome(&game));
}

// ---- variations ----

#[test]
fn every_line_of_the_corpus_variations_replays() {
    // Files of the corpus with variations: each line is read and replayed without error.
    let (mut lines_seen, mut replayed) = (0, 0);
    for rel in [
        "sabaki-sgf/tests/sgf/complex.sgf",
        "glift/test/testdata/PandanetFF3Example.sgf",
    ] {
        let record = corpus_record(rel);
        let mut numbers = Vec::new();
        for line in record.lines() {
            let line = line.unwrap_or_else(|e| panic!("{rel}: {e}"));
            if line.is_main() {
                assert_eq!(line.moves, record.moves);
            }
            let rules = record.rules_or(ingo_rules::Preset::Ing);
            match replay_line(&record, &line, rules, ReplayMode::Tolerant) {
                Ok(r) => {
                    assert!(r.played <= line.moves.len());
                    replayed += 1;
                }
                // Sabaki's file edits the board inside a variation, which ingo does not replay;
                // the error names the variation.
                Err(e) => {
                    assert!(
                        matches!(e.kind(), ErrorKind::SetupInGame { .. }),
                        "{rel}: {e}"
                    );
                    assert_eq!(e.line(), Some(line.to_string().as_str()));
                    assert!(e.to_string().starts_with("variation "), "{e}");
                }
            }
            numbers.push(line.number);
            lines_seen += 1;
        }
        assert_eq!(numbers, (1..=numbers.len()).collect::<Vec<_>>());
    }
    println!("variations: {lines_seen} lines, {replayed} replayed");
    assert!(lines_seen > 2 && replayed > 2);
}

// ---- sgfmill ----

/// What sgfmill makes of a file, printed by the Python side.
const SGFMILL_SCRIPT: &str = r#"
import json, sys
from sgfmill import sgf
for path in sys.argv[1:]:
    out = {"file": path}
    try:
        with open(path, "rb") as f:
            game = sgf.Sgf_game.from_bytes(f.read())
        out["size"] = game.get_size()
        try:
            out["komi"] = game.get_komi()
        except ValueError:
            out["komi"] = None
        moves = []
        for node in game.get_main_sequence():
            colour, point = node.get_move()
            if colour is not None:
                moves.append([colour, None if point is None else list(point)])
        out["moves"] = moves
        out["players"] = [game.get_player_name("b"), game.get_player_name("w")]
    except Exception as e:
        out["error"] = f"{type(e).__name__}: {e}"
    print(json.dumps(out, ensure_ascii=True))
"#;

/// What sgfmill should find in a file ingo wrote: size, komi, the main line's moves (one per
/// node, Black's when a node has both, as `get_move` does) and the players.
#[derive(Debug, PartialEq)]
struct Expected {
    size: u64,
    komi: Option<f64>,
    moves: Vec<(String, Option<(u64, u64)>)>,
    players: [Option<String>; 2],
}

fn expected(record: &Record) -> Expected {
    let mut by_node: BTreeMap<usize, (Color, Move)> = BTreeMap::new();
    for m in &record.moves {
        let slot = by_node.entry(m.node_number).or_insert((m.color, m.mv));
        if m.color == Color::Black && slot.0 != Color::Black {
            *slot = (m.color, m.mv);
        }
    }
    let size = record.width as u64;
    Expected {
        size,
        // sgfmill reads KM as written (Fox's `650` stays 650); no KM is 0.
        komi: match &record.info.komi {
            None => Some(0.0),
            Some(raw) => raw.trim().parse::<f64>().ok(),
        },
        moves: by_node
            .values()
            .map(|&(color, mv)| {
                let colour = color.letter().to_ascii_lowercase().to_string();
                let point = match mv {
                    Move::Pass => None,
                    Move::Play(p) => Some((size - 1 - p.row() as u64, p.col() as u64)),
                };
                (colour, point)
            })
            .collect(),
        // ingo keeps the text as written (trimmed); sgfmill turns line breaks into spaces.
        players: [
            record.info.players.black.as_deref().map(spaces),
            record.info.players.white.as_deref().map(spaces),
        ],
    }
}

/// Text with every run of whitespace made one space, and trimmed.
fn spaces(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn from_json(v: &serde_json::Value) -> Result<Expected, String> {
    if let Some(e) = v.get("error").and_then(|e| e.as_str()) {
        return Err(format!("sgfmill: {e}"));
    }
    let moves = v["moves"]
        .as_array()
        .ok_or("no moves")?
        .iter()
        .map(|m| {
            let colour = m[0].as_str().unwrap_or("?").to_string();
            let point = m[1]
                .as_array()
                .map(|p| (p[0].as_u64().unwrap_or(999), p[1].as_u64().unwrap_or(999)));
            (colour, point)
        })
        .collect();
    let name = |i: usize| v["players"][i].as_str().map(spaces);
    Ok(Expected {
        size: v["size"].as_u64().ok_or("no size")?,
        komi: v["komi"].as_f64(),
        moves,
        players: [name(0), name(1)],
    })
}

/// sgfmill reads every file ingo writes: the played games, and 50 corpus files written back
/// (including the four that sgfmill cannot read as they were published).
#[test]
fn sgfmill_reads_what_ingo_writes() {
    if !ingo_testkit::sgfmill() {
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sgfmill-check");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");

    let mut files: Vec<(String, Record)> = Vec::new();
    for (name, game) in [
        ("handicap", handicap_game()),
        ("agreement", agreement_game()),
        ("resigned", resigned_game()),
    ] {
        let info = if name == "handicap" {
            golden_info(&game)
        } else {
            WriteInfo::default()
        };
        let text = write_game(&game, &info);
        let record = parse(&text).expect("written game").remove(0);
        files.push((format!("{name}.sgf"), record));
    }
    // Every 115th single-game square file of INDEX.tsv, plus the ones sgfmill fails on.
    let rows = index_rows();
    let mut corpus: Vec<String> = rows
        .iter()
        .filter(|r| r[7] == "1" && r[1].parse::<usize>().is_ok())
        .step_by(115)
        .take(46)
        .map(|r| r[0].clone())
        .collect();
    corpus.extend(
        rows.iter()
            .filter(|r| r[8] == "unparsed")
            .map(|r| r[0].clone()),
    );
    assert_eq!(corpus.len(), 50, "{corpus:?}");
    for (i, rel) in corpus.iter().enumerate() {
        let record = corpus_record(rel);
        files.push((format!("corpus-{i:02}.sgf"), record));
    }
    let mut paths = Vec::new();
    for (name, record) in &files {
        let path = dir.join(name);
        std::fs::write(&path, write(record)).expect("write");
        paths.push(path);
    }
    let output = Command::new("python3")
        .arg("-c")
        .arg(SGFMILL_SCRIPT)
        .args(&paths)
        .output()
        .expect("run python3");
    assert!(
        output.status.success(),
        "python3 failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).expect("JSON output");
    let summaries: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(summaries.len(), files.len());
    let mut failures = Vec::new();
    let mut moves = 0;
    for ((name, record), summary) in files.iter().zip(&summaries) {
        let want = expected(record);
        match from_json(summary) {
            Ok(got) if got == want => moves += got.moves.len(),
            Ok(got) => failures.push(format!("{name}: sgfmill read {got:?}\n  expected {want:?}")),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    println!(
        "sgfmill: {} files written by ingo ({} played games, {} from the corpus), {moves} moves, \
         {} failures",
        files.len(),
        files.len() - corpus.len(),
        corpus.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- any text that reads, round-trips ----

mod any_text {
    use proptest::prelude::*;

    use super::*;

    /// Pieces of SGF, valid and broken, heavy on values that need escaping.
    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "(",
            ")",
            ";",
            "[",
            "]",
            "\\",
            "\\]",
            "\\\\",
            ":",
            "\\:",
            "\n",
            "\r\n",
            "\t",
            " ",
            "B[",
            "W[",
            "AB[",
            "AE[",
            "TB[",
            "LB[",
            "AR[",
            "AP[",
            "C[",
            "PB[",
            "XX[",
            "KM[",
            "HA[",
            "SZ[",
            "CA[",
            "FG[",
            "CoPyright[",
            "lower[",
            "aa",
            "bb",
            "tt",
            "zz",
            "aa:bb",
            "ee:x",
            "6.5",
            "650",
            "2",
            "x",
            "棋",
            "ü",
            "][",
            "B[]",
            "W[]",
            "RU[GOE]",
        ])
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

        /// Whatever the reader accepts, writing it and reading it again gives the same records
        /// and the same tree, and writing again gives the same text.
        #[test]
        fn read_write_read(pieces in prop::collection::vec(piece(), 0..60)) {
            let body: String = pieces.concat();
            for text in [format!("(;{body})"), format!("(;SZ[9]{body}"), body.clone()] {
                let Ok(first) = parse(&text) else { continue };
                let written = write_collection(&first);
                let second = parse(&written)
                    .map_err(|e| TestCaseError::fail(format!("{e}\n{text:?}\n{written:?}")))?;
                prop_assert_eq!(first.len(), second.len());
                for (a, b) in first.iter().zip(&second) {
                    if let Err(e) = same_record(a, b) {
                        return Err(TestCaseError::fail(format!("{e}\n{text:?}\n{written:?}")));
                    }
                }
                prop_assert_eq!(write_collection(&second), written);
            }
        }
    }
}
