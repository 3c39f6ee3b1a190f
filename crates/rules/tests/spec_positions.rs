//! Runs the test positions of the spec (§10, T1–T18) from `tests/data/*.txt`.
//!
//! Format: `# ` comments (each file has a `# Source:` line), `key: value` headers (`name`,
//! `to_move`, `rules`, `komi`), `board:` then an ASCII diagram, `moves:` then one line per step:
//! `B C4 legal`, `W B4 illegal hot-stone` (or just `illegal`), `check phase suspended`,
//! `check removed 2`, `check board:` + diagram, `check score black=16 white=8 shared=1 margin=0
//! winner=B result=B+0`, `check fillin supply=12 black_net=0 white_net=0`. Cases in one file are
//! separated by `===`.

use std::fs;
use std::path::Path;

use ingo_rules::{Board, Color, Game, Komi, Move, Phase, Preset, Setup};

fn parse_move(s: &str, game: &Game) -> Move {
    let b = game.board();
    Move::from_gtp(s, b.width(), b.height()).unwrap_or_else(|e| panic!("bad move {s}: {e}"))
}

fn take_board(lines: &[&str], i: &mut usize) -> Board {
    let mut text = String::new();
    while *i < lines.len() {
        let t = lines[*i].trim();
        let is_board_line = !t.is_empty()
            && (t.starts_with(|c: char| c.is_ascii_digit())
                || t.split_whitespace().next() == Some("A"));
        if !is_board_line {
            break;
        }
        text.push_str(lines[*i]);
        text.push('\n');
        *i += 1;
    }
    Board::from_ascii(&text).unwrap_or_else(|e| panic!("bad board: {e}\n{text}"))
}

fn run_case(file: &Path, case: &str) -> usize {
    let lines: Vec<&str> = case.lines().collect();
    let mut i = 0;
    let mut name = String::new();
    let mut to_move = Color::Black;
    let mut rules = Preset::Ing.rules();
    let mut board = None;
    let mut checks = 0;
    let mut source = false;
    while i < lines.len() {
        let t = lines[i].trim();
        i += 1;
        if t.starts_with("# Source:") {
            source = true;
        }
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if let Some(v) = t.strip_prefix("name:") {
            name = v.trim().to_string();
        } else if let Some(v) = t.strip_prefix("to_move:") {
            to_move = v.trim().parse().expect("colour");
        } else if let Some(v) = t.strip_prefix("rules:") {
            rules = v.trim().parse::<Preset>().expect("preset").rules();
        } else if let Some(v) = t.strip_prefix("komi:") {
            rules.komi = v.trim().parse::<Komi>().expect("komi");
        } else if t == "board:" {
            board = Some(take_board(&lines, &mut i));
        } else if t == "moves:" {
            break;
        } else {
            panic!("{}: unknown header line {t:?}", file.display());
        }
    }
    assert!(
        source,
        "{}: every case needs a `# Source:` line",
        file.display()
    );
    let board = board.unwrap_or_else(|| panic!("{}: no board", file.display()));
    let mut game = Game::new(
        Setup {
            board,
            to_move,
            handicap_passes: 0,
        },
        rules,
    );
    let ctx = |step: &str| format!("{} [{name}] at {step:?}", file.display());
    while i < lines.len() {
        let t = lines[i].trim();
        i += 1;
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = t.split_whitespace().collect();
        match words[0] {
            "B" | "W" => {
                let color: Color = words[0].parse().expect("colour");
                assert_eq!(game.to_move(), color, "{}: wrong side to move", ctx(t));
                let mv = parse_move(words[1], &game);
                match words.get(2).copied() {
                    Some("legal") => {
                        assert!(game.is_legal(mv), "{}: expected legal", ctx(t));
                        let all = game.legal_moves();
                        assert!(all.contains(&mv), "{}: legal_moves disagrees", ctx(t));
                        game.play(mv).unwrap_or_else(|e| panic!("{}: {e}", ctx(t)));
                    }
                    Some("illegal") => {
                        let reason = game.illegal_reason(mv);
                        assert!(reason.is_some(), "{}: expected illegal, was legal", ctx(t));
                        if let Some(code) = words.get(3) {
                            assert_eq!(reason.map(|r| r.code()), Some(*code), "{}", ctx(t));
                        }
                        assert!(
                            !game.legal_moves().contains(&mv),
                            "{}: legal_moves disagrees",
                            ctx(t)
                        );
                    }
                    other => panic!("{}: expected legal/illegal, got {other:?}", ctx(t)),
                }
                checks += 1;
            }
            "check" => {
                checks += 1;
                match words.get(1).copied() {
                    Some("phase") => {
                        let want = match words[2] {
                            "playing" => Phase::Playing,
                            "suspended" => Phase::Suspended,
                            "ended" => Phase::Ended,
                            p => panic!("unknown phase {p}"),
                        };
                        assert_eq!(game.phase(), want, "{}", ctx(t));
                    }
                    Some("removed") => {
                        let n: usize = words[2].parse().expect("count");
                        let last = game.last_move().expect("a move was played");
                        assert_eq!(last.removed.len(), n, "{}", ctx(t));
                    }
                    Some("board:") => {
                        let want = take_board(&lines, &mut i);
                        assert_eq!(game.board(), &want, "{}: board\n{:?}", ctx(t), game.board());
                    }
                    Some("score") => {
                        let s = game.score().unwrap_or_else(|| game.count(&[]));
                        for kv in &words[2..] {
                            let (k, v) = kv.split_once('=').expect("key=value");
                            match k {
                                "black" => assert_eq!(s.area.black.to_string(), v, "{}", ctx(t)),
                                "white" => assert_eq!(s.area.white.to_string(), v, "{}", ctx(t)),
                                "shared" => assert_eq!(s.shared.to_string(), v, "{}", ctx(t)),
                                "margin" => {
                                    assert_eq!(
                                        s.margin(),
                                        v.parse::<f64>().expect("number"),
                                        "{}",
                                        ctx(t)
                                    )
                                }
                                "winner" => {
                                    assert_eq!(s.winner.letter().to_string(), v, "{}", ctx(t))
                                }
                                "result" => assert_eq!(s.result_string(), v, "{}", ctx(t)),
                                _ => panic!("unknown score key {k}"),
                            }
                        }
                        assert_eq!(
                            s.fill_in.margin(),
                            s.margin(),
                            "{}: fill-in disagrees",
                            ctx(t)
                        );
                    }
                    Some("fillin") => {
                        let s = game.count(&[]);
                        for kv in &words[2..] {
                            let (k, v) = kv.split_once('=').expect("key=value");
                            let v: f64 = v.parse().expect("number");
                            let got = match k {
                                "supply" => s.fill_in.supply as f64,
                                "black_net" => s.fill_in.black_net,
                                "white_net" => s.fill_in.white_net,
                                _ => panic!("unknown fillin key {k}"),
                            };
                            assert_eq!(got, v, "{}: {k}", ctx(t));
                        }
                    }
                    other => panic!("{}: unknown check {other:?}", ctx(t)),
                }
            }
            _ => panic!("{}: unknown line", ctx(t)),
        }
    }
    checks
}

#[test]
fn spec_test_positions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("tests/data exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 17,
        "expected the T1–T18 files, found {}",
        files.len()
    );
    let mut total = 0;
    for f in &files {
        let text = fs::read_to_string(f).expect("readable");
        for case in text.split("\n===\n") {
            total += run_case(f, case);
        }
    }
    eprintln!("{} files, {total} verdicts and checks", files.len());
}
