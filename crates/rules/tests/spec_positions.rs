//! Runs the test positions of docs/rules.md (§10, T1–T18) from `tests/data/*.txt`.
//!
//! Format: `# ` comments (each file has a `# Source:` line), `key: value` headers (`name`,
//! `to_move`, `rules`, `komi`), `board:` then an ASCII diagram, `moves:` then one line per step:
//! `B C4 legal`, `W B4 illegal hot-stone` (or just `illegal`), `check phase suspended`,
//! `check removed 2`, `check board:` + diagram, `check score black=16 white=8 shared=1 margin=0
//! winner=B result=B+0`, `check fillin supply=12 black_net=0 white_net=0`. Cases in one file are
//! separated by `===`.
//!
//! Every case also runs in its 15 variants: the 8 symmetries of the board (rotations and
//! mirrors; a rectangle's transposes turn it), each with the colours swapped or not. A rule
//! holds on any of them, so each spec position is 16 witnesses. With the colours swapped, the
//! count checks (`score`, `fillin`) are skipped: komi and the tie rule are not symmetric.

use std::fs;
use std::path::Path;

use ingo_rules::{Board, Color, Game, Komi, Move, Phase, Point, Preset, Setup};

/// One of the 16 variants of a case: a symmetry of the board (bit 0 mirrors the columns, bit 1
/// the rows, bit 2 transposes) and whether the colours are swapped.
#[derive(Clone, Copy, Debug)]
struct Variant {
    symmetry: u8,
    swap: bool,
}

impl Variant {
    const IDENTITY: Variant = Variant {
        symmetry: 0,
        swap: false,
    };

    fn all() -> impl Iterator<Item = Variant> {
        (0..8u8).flat_map(|symmetry| [false, true].map(|swap| Variant { symmetry, swap }))
    }

    fn point(self, p: Point, (w, h): (usize, usize)) -> Point {
        let (mut c, mut r) = (p.col(), p.row());
        if self.symmetry & 1 != 0 {
            c = w - 1 - c;
        }
        if self.symmetry & 2 != 0 {
            r = h - 1 - r;
        }
        if self.symmetry & 4 != 0 {
            (c, r) = (r, c);
        }
        Point::new(c, r).expect("a point of the transformed board")
    }

    fn color(self, c: Color) -> Color {
        if self.swap {
            c.opponent()
        } else {
            c
        }
    }

    fn board(self, b: &Board) -> Board {
        let dims = (b.width(), b.height());
        let (w, h) = if self.symmetry & 4 != 0 {
            (dims.1, dims.0)
        } else {
            dims
        };
        let mut out = Board::with_dims(w, h).expect("the same size");
        for p in b.points() {
            if let Some(c) = b.color_at(p) {
                out.set_stone(self.point(p, dims), self.color(c));
            }
        }
        out
    }
}

/// A move of the original case's board (`dims`), as it is in the variant.
fn parse_move(s: &str, dims: (usize, usize), v: Variant) -> Move {
    match Move::from_gtp(s, dims.0, dims.1).unwrap_or_else(|e| panic!("bad move {s}: {e}")) {
        Move::Play(p) => Move::Play(v.point(p, dims)),
        Move::Pass => Move::Pass,
    }
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

fn run_case(file: &Path, case: &str, v: Variant) -> usize {
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
    let dims = (board.width(), board.height());
    let mut game = Game::new(
        Setup {
            board: v.board(&board),
            to_move: v.color(to_move),
            handicap_passes: 0,
        },
        rules,
    );
    let ctx = |step: &str| format!("{} [{name}] {v:?} at {step:?}", file.display());
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
                assert_eq!(game.to_move(), v.color(color), "{}: wrong side", ctx(t));
                let mv = parse_move(words[1], dims, v);
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
                        let want = Phase::ALL
                            .into_iter()
                            .find(|p| p.as_str() == words[2])
                            .unwrap_or_else(|| panic!("unknown phase {}", words[2]));
                        assert_eq!(game.phase(), want, "{}", ctx(t));
                    }
                    Some("removed") => {
                        let n: usize = words[2].parse().expect("count");
                        let last = game.last_move().expect("a move was played");
                        assert_eq!(last.removed.len(), n, "{}", ctx(t));
                    }
                    Some("board:") => {
                        let want = v.board(&take_board(&lines, &mut i));
                        assert_eq!(game.board(), &want, "{}: board\n{:?}", ctx(t), game.board());
                    }
                    Some("score" | "fillin") if v.swap => {}
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
            total += run_case(f, case, Variant::IDENTITY);
            for v in Variant::all().skip(1) {
                run_case(f, case, v);
            }
        }
    }
    eprintln!("{} files, {total} verdicts and checks", files.len());
}

/// docs/rules.md T13: in the quadruple ko, "White's moves are never restricted". From the start, seeded
/// fights go on in which Black, the disturber, captures as long as it can and White answers
/// every capture; at every White turn, no capture White could make on the board is refused by
/// a ko-fight rule (R3–R6); only the single hot stone (R2), which binds both sides alike, may
/// be. (Once Black passes, a White capture disturbs the coexistence in turn and White, now the
/// disturber, may be restricted: that is not the docs/rules.md case.)
#[test]
fn t13_quadruple_ko_white_is_never_restricted() {
    let board = Board::from_ascii(
        "
   A B C D
10 X O . O
 9 X X O O
 8 X X O O
 7 X O . O
 6 X X O O
 5 X X O O
 4 X . X O
 3 X X O O
 2 X X O O
 1 X . X O",
    )
    .expect("the T13 board");
    let (w, h) = (board.width(), board.height());
    let at = |s: &str| Move::from_gtp(s, w, h).expect("a move");
    let mut game = Game::new(
        Setup {
            board,
            to_move: Color::Black,
            handicap_passes: 0,
        },
        Preset::Ing.rules(),
    );
    let start = game.clone();
    for m in ["C10", "B4", "C7", "B10", "C4", "B7"] {
        game.play(at(m)).expect("the spec's sequence");
    }
    assert_eq!(
        game.illegal_reason(at("C10")).map(|k| k.code()),
        Some("cycle")
    );
    let mut white_turns = 0;
    let mut white_captures = 0;
    for fight in 0..40u64 {
        let mut game = start.clone();
        fight_on(&mut game, fight, &mut white_turns, &mut white_captures);
    }
    assert!(
        white_turns >= 120 && white_captures >= 120,
        "{white_turns} {white_captures}"
    );
}

/// One seeded fight of [`t13_quadruple_ko_white_is_never_restricted`].
fn fight_on(game: &mut Game, fight: u64, white_turns: &mut usize, white_captures: &mut usize) {
    let h = game.board().height();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ fight.wrapping_mul(0xBF58_476D_1CE4_E5B9) | 1;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..600 {
        if game.phase() == Phase::Ended {
            break;
        }
        let me = game.to_move();
        let captures: Vec<Move> = game
            .board()
            .points()
            .filter(|&p| game.board().get(p) == ingo_rules::Cell::Empty)
            .filter(|&p| {
                let a = game.board().analyze(p, me);
                a.captured_stones > 0 && !a.suicide
            })
            .map(Move::Play)
            .collect();
        if me == Color::White {
            *white_turns += 1;
            for &m in &captures {
                let reason = game.illegal_reason(m);
                assert!(
                    reason.is_none() || reason == Some(ingo_rules::PlayErrorKind::HotStone),
                    "White's {} refused as {reason:?} after {:?}",
                    m.to_gtp(h),
                    game.history()
                        .map(|p| format!("{} {}", p.color.letter(), p.mv.to_gtp(h)))
                        .collect::<Vec<_>>()
                );
            }
        }
        let legal: Vec<Move> = captures.into_iter().filter(|&m| game.is_legal(m)).collect();
        // Black disturbs as long as it can; White answers every capture. When Black can no
        // longer capture, the fight is over.
        if legal.is_empty() {
            assert_eq!(me, Color::Black, "White always has an answer");
            break;
        }
        let mv = legal[(next() % legal.len() as u64) as usize];
        if me == Color::White {
            *white_captures += 1;
        }
        game.play(mv).expect("a legal move");
    }
}
