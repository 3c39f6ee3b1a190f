//! Property tests over random games: invariants that hold after every move whatever the rules,
//! the board size or the moves (design note 26: "legal_moves <=> is_legal; incremental hash ==
//! recomputed hash").
//!
//! Each case draws a board (2×2 to 13×13, some of them rectangles, a few with setup stones), a
//! rules preset, who starts, a handicap, time penalties and a list of move choices (indices into
//! `legal_moves`, with passes mixed in at a per-game rate and captures preferred, which makes
//! kos). One test starts from the positions of the test cases of docs/rules.md (`tests/data`), plays a
//! prefix of their moves and continues at random, so that every one of Ing's ko rules (hot,
//! double hot, twin hot, disturbing, cycle) is met, and asserts that each refusal occurred. After every move it checks:
//!
//! * stones are conserved per colour: stones on the board = setup stones + stones played − stones
//!   removed, reading the removals from the history (block suicide removes the player's own);
//! * the incremental hash equals the recomputed one, and every string has a liberty;
//! * counting identities (how the count's own figures hang together, not an oracle of the
//!   count: they would hold for a count that gave a wrong owner to a point): `tally` agrees with
//!   `count`; area + shared = points, for no dead stones and for a random dead set; the stones
//!   counted are the board's minus the dead; the margin is `2·(area_B − area_W) − komi − 2·pen_B
//!   + 2·pen_W` half points, the fill-in breakdown gives the same margin, and the winner follows
//!   from the margin and the tie rule. Whether the count itself is right is checked elsewhere:
//!   against hand counts of the rules' positions (`spec_positions.rs`, `check score`) and
//!   against a referee's fill-in done independently of `count.rs` from the owner of each point
//!   (`fill_in.rs`);
//! * `legal_moves()` agrees with `is_legal` and `illegal_reason` on every point and the pass, and
//!   playing a refused move fails with that reason and changes nothing;
//! * `play` then `undo` restores the game exactly (verdicts on every move included), a twin game
//!   that never undoes stays identical, and undoing the whole game step by step goes back
//!   through every earlier state to a fresh game;
//! * a new game replaying the history reaches the same state;
//! * rule-specific facts that need no oracle: no forbidden suicide happens, superko rules never
//!   repeat a position, simple-ko and Ing rules never retake at once into the position before the
//!   previous play, passes suspend (2) and end (4) play, and agreement, resignation and time
//!   losses end the game with the right winner.
//!
//! `PROPTEST_CASES=N` overrides the number of cases of every test, for longer runs
//! (`PROPTEST_CASES=3000 cargo test --release -p ingo-rules --test props`).

mod common;

use std::fs;
use std::path::Path;
use std::sync::OnceLock;

use ingo_rules::{
    Board, Color, Game, GameEnd, KoRule, Move, Phase, PlayErrorKind, Point, Preset, Rules, Setup,
    SuicideRule,
};
use proptest::prelude::*;

/// A small deterministic generator for the choices proptest does not need to shrink (dead
/// stones, penalties, which refused move to try).
use common::SplitMix64 as Rng;

/// Everything about a game that can be observed from outside, including the verdict on every
/// move, so that hidden rule state (bans, disturbances, pending captures) shows through.
#[derive(Debug, PartialEq)]
struct Snapshot {
    board: String,
    hash: u64,
    situation: u64,
    to_move: Color,
    phase: Phase,
    end: Option<GameEnd>,
    move_count: usize,
    consecutive_passes: u32,
    penalties: (i32, i32),
    history: Vec<(Color, Move, Vec<Point>, [bool; 4])>,
    legal_moves: Vec<Move>,
    verdicts: Vec<Option<PlayErrorKind>>,
}

impl Snapshot {
    fn of(game: &Game) -> Snapshot {
        let board = game.board();
        let penalties = game.penalties();
        Snapshot {
            board: board.to_ascii(),
            hash: board.hash(),
            situation: game.situation_hash(),
            to_move: game.to_move(),
            phase: game.phase(),
            end: game.end().cloned(),
            move_count: game.move_count(),
            consecutive_passes: game.consecutive_passes(),
            penalties: (penalties.black, penalties.white),
            history: game
                .history()
                .map(|m| {
                    (
                        m.color,
                        m.mv,
                        m.removed.to_vec(),
                        [m.suicide, m.ko_capture, m.attacking, m.forced],
                    )
                })
                .collect(),
            legal_moves: game.legal_moves(),
            verdicts: all_moves(board)
                .into_iter()
                .map(|m| game.illegal_reason(m))
                .collect(),
        }
    }
}

/// Every point of the board, then the pass.
fn all_moves(board: &Board) -> Vec<Move> {
    board
        .points()
        .map(Move::Play)
        .chain(std::iter::once(Move::Pass))
        .collect()
}

fn describe(game: &Game) -> String {
    let h = game.board().height();
    let moves: Vec<String> = game
        .history()
        .map(|m| format!("{}{}", m.color.letter(), m.mv.to_gtp(h)))
        .collect();
    format!(
        "rules {:?}, {}x{}, moves [{}]\n{}",
        game.rules(),
        game.board().width(),
        h,
        moves.join(" "),
        game.board().to_ascii()
    )
}

/// A random game's parameters.
#[derive(Clone, Debug)]
struct Params {
    width: usize,
    height: usize,
    preset: Preset,
    white_first: bool,
    handicap_passes: u8,
    setup_stones: usize,
    pass_percent: u16,
    /// Start from this position of the docs/rules.md test data instead (index into [`spec_starts`]),
    /// and play this many of its listed legal moves first.
    spec_start: Option<(usize, usize)>,
    /// How often, in percent, a board play is a capture when there is one.
    capture_percent: u16,
    seed: u64,
    choices: Vec<u16>,
}

fn params(max_moves: usize) -> impl Strategy<Value = Params> {
    (
        prop_oneof![
            // Mostly square boards, small ones more often: they repeat positions and so reach
            // the ko rules.
            3 => (2usize..=5).prop_map(|s| (s, s)),
            2 => (6usize..=13).prop_map(|s| (s, s)),
            1 => (2usize..=13, 2usize..=13),
        ],
        0..Preset::ALL.len(),
        any::<bool>(),
        prop_oneof![4 => Just(0u8), 1 => 1u8..=3],
        prop_oneof![4 => Just(0usize), 1 => 1usize..=12],
        0u16..=30,
        any::<u64>(),
        prop::collection::vec(any::<u16>(), 0..=max_moves),
    )
        .prop_map(
            |(
                (width, height),
                preset,
                white_first,
                handicap_passes,
                setup_stones,
                pass_percent,
                seed,
                choices,
            )| {
                Params {
                    width,
                    height,
                    preset: Preset::ALL[preset],
                    white_first,
                    handicap_passes,
                    setup_stones,
                    pass_percent,
                    spec_start: None,
                    capture_percent: 50,
                    seed,
                    choices,
                }
            },
        )
}

/// A test position of docs/rules.md: its position, who moves, and the legal moves it plays.
struct SpecStart {
    board: Board,
    to_move: Color,
    moves: Vec<Move>,
}

/// The starting positions of the test cases of docs/rules.md (`tests/data/*.txt`: double kos, triple kos,
/// eternal life, …), where random play soon meets every one of Ing's ko rules.
fn spec_starts() -> &'static [SpecStart] {
    static STARTS: OnceLock<Vec<SpecStart>> = OnceLock::new();
    STARTS.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
        let mut files: Vec<_> = fs::read_dir(&dir)
            .expect("tests/data exists")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "txt"))
            .collect();
        files.sort();
        let mut out = Vec::new();
        for file in files {
            let text = fs::read_to_string(&file).expect("readable test data");
            for case in text.split("\n===") {
                let mut to_move = Color::Black;
                let mut diagram = None;
                let mut moves = Vec::new();
                let mut lines = case.lines();
                while let Some(line) = lines.next() {
                    let t = line.trim();
                    let words: Vec<&str> = t.split_whitespace().collect();
                    if let ["B" | "W", mv, "legal"] = words[..] {
                        moves.push(mv.to_string());
                    } else if let Some(v) = t.strip_prefix("to_move:") {
                        to_move = v.trim().parse().expect("a colour");
                    } else if t == "board:" {
                        let rows: Vec<&str> = lines
                            .by_ref()
                            .take_while(|l| {
                                let t = l.trim();
                                t.starts_with(|c: char| c.is_ascii_digit()) || t.starts_with('A')
                            })
                            .collect();
                        diagram = Some(rows.join("\n"));
                    }
                }
                if let Some(Ok(board)) = diagram.map(|d| Board::from_ascii(&d)) {
                    let (w, h) = (board.width(), board.height());
                    let moves = moves
                        .iter()
                        .map(|m| Move::from_gtp(m, w, h).expect("a move of the board"))
                        .collect();
                    if board.all_strings_have_liberties() {
                        out.push(SpecStart {
                            board,
                            to_move,
                            moves,
                        });
                    }
                }
            }
        }
        assert!(
            out.len() >= 10,
            "expected the spec's test positions in {}",
            dir.display()
        );
        out
    })
}

/// The setup: a test position of docs/rules.md, an empty board, or a few random stones that leave every string
/// a liberty.
fn make_setup(p: &Params, rng: &mut Rng) -> Setup {
    if let Some((i, _)) = p.spec_start {
        let starts = spec_starts();
        let start = &starts[i % starts.len()];
        return Setup {
            board: start.board.clone(),
            to_move: start.to_move,
            handicap_passes: 0,
        };
    }
    let mut board = Board::with_dims(p.width, p.height).expect("sizes are in range");
    for _ in 0..p.setup_stones {
        let pts: Vec<Point> = board.empty_points().collect();
        if pts.len() <= 1 {
            break;
        }
        let pt = pts[rng.below(pts.len())];
        let color = if rng.below(2) == 0 {
            Color::Black
        } else {
            Color::White
        };
        board.set_stone(pt, color);
        if !board.all_strings_have_liberties() {
            board.clear_stone(pt);
        }
    }
    Setup {
        board,
        to_move: if p.white_first {
            Color::White
        } else {
            Color::Black
        },
        handicap_passes: p.handicap_passes,
    }
}

/// The move a choice picks among the legal ones: a pass, a capture (which makes kos and so
/// reaches the ko rules far more often than uniform play) or any board play.
fn pick(game: &Game, choice: u16, pass_percent: u16, capture_percent: u16) -> Option<Move> {
    let legal = game.legal_moves();
    if legal.is_empty() {
        return None;
    }
    let plays: Vec<Move> = legal.into_iter().filter(|&m| m != Move::Pass).collect();
    let roll = choice % 100;
    let index = (choice / 100) as usize;
    if plays.is_empty() || roll < pass_percent {
        return Some(Move::Pass);
    }
    if roll < pass_percent + capture_percent {
        let board = game.board();
        let captures: Vec<Move> = plays
            .iter()
            .copied()
            .filter(|&m| match m {
                Move::Play(p) => board.analyze(p, game.to_move()).captured_stones > 0,
                Move::Pass => false,
            })
            .collect();
        if !captures.is_empty() {
            return Some(captures[index % captures.len()]);
        }
    }
    Some(plays[index % plays.len()])
}

fn color_count(board: &Board, color: Color) -> usize {
    board
        .points()
        .filter(|&p| board.color_at(p) == Some(color))
        .count()
}

/// Stones conserved, per colour, against the history.
fn check_stones(game: &Game, start: &Board) -> Result<(), TestCaseError> {
    let board = game.board();
    for color in Color::ALL {
        let placed = game
            .history()
            .filter(|m| m.color == color && matches!(m.mv, Move::Play(_)))
            .count();
        let lost: usize = game
            .history()
            .filter(|m| (m.color == color) == m.suicide)
            .map(|m| m.removed.len())
            .sum();
        prop_assert_eq!(lost, game.stones_lost(color), "stones_lost({:?})", color);
        let expected = start.stone_count(color) + placed - lost;
        prop_assert_eq!(board.stone_count(color), expected, "{:?} stones", color);
        prop_assert_eq!(
            color_count(board, color),
            expected,
            "{:?} stones on points",
            color
        );
    }
    prop_assert_eq!(
        board.empty_count(),
        board.area() - board.stone_count(Color::Black) - board.stone_count(Color::White)
    );
    prop_assert_eq!(board.empty_points().count(), board.empty_count());
    prop_assert!(board.empty_points().all(|p| board.color_at(p).is_none()));
    Ok(())
}

/// Hash, strings and liberties, against a flood fill of the board.
fn check_board(board: &Board) -> Result<(), TestCaseError> {
    prop_assert_eq!(board.hash(), board.recompute_hash(), "incremental hash");
    for p in board.empty_points() {
        for color in Color::ALL {
            prop_assert_eq!(
                board.is_eye_or_suicide(p, color),
                board.is_eye(p, color) || board.analyze(p, color).suicide,
                "eye or suicide at {:?} for {}",
                p,
                color
            );
        }
    }
    prop_assert!(board.all_strings_have_liberties());
    let mut seen: Vec<Point> = Vec::new();
    for p in board.points() {
        let Some(color) = board.color_at(p) else {
            continue;
        };
        if seen.contains(&p) {
            continue;
        }
        // The string and its liberties by flood fill.
        let mut string = vec![p];
        let mut liberties: Vec<Point> = Vec::new();
        let mut i = 0;
        while i < string.len() {
            for q in board.neighbors(string[i]).collect::<Vec<_>>() {
                match board.color_at(q) {
                    Some(c) if c == color && !string.contains(&q) => string.push(q),
                    None if !liberties.contains(&q) => liberties.push(q),
                    _ => {}
                }
            }
            i += 1;
        }
        seen.extend(&string);
        let mut stones = board.string_stones(p);
        stones.sort();
        string.sort();
        prop_assert_eq!(&stones, &string, "string at {:?}", p);
        prop_assert!(!liberties.is_empty(), "string at {:?} has no liberty", p);
        for &q in &string {
            prop_assert_eq!(board.string_head(q), board.string_head(p));
            prop_assert_eq!(board.string_size(q), string.len());
            prop_assert_eq!(
                board.liberty_count(q),
                liberties.len(),
                "liberties at {:?}",
                q
            );
            prop_assert_eq!(board.in_atari(q), liberties.len() == 1, "atari at {:?}", q);
            let single = (liberties.len() == 1).then(|| liberties[0]);
            prop_assert_eq!(board.atari_liberty(q), single);
        }
    }
    Ok(())
}

/// About one in `one_in` of the stones on `board`, drawn from `rng`.
fn random_stones(board: &Board, rng: &mut Rng, one_in: usize) -> Vec<Point> {
    board
        .points()
        .filter(|&p| board.color_at(p).is_some() && rng.below(one_in) == 0)
        .collect()
}

/// The counting identities for no dead stones and for a random dead set, with the game's
/// penalties: algebra on the figures of one count (and `tally` against `count`), which any
/// consistent count satisfies, right or wrong; the module's comment says where the count is
/// checked against independent ones.
fn check_count_identities(game: &Game, rng: &mut Rng) -> Result<(), TestCaseError> {
    let board = game.board();
    let dead = random_stones(board, rng, 4);
    let t = game.tally();
    let s = game.count(&[]);
    prop_assert_eq!(
        (
            t.stones,
            t.spaces,
            t.area,
            t.shared,
            t.margin_halves,
            t.winner
        ),
        (
            s.stones,
            s.spaces,
            s.area,
            s.shared,
            s.margin_halves,
            s.winner
        ),
        "tally and count"
    );
    for dead in [Vec::new(), dead] {
        let s = game.count(&dead);
        let points = board.area();
        prop_assert_eq!(
            s.area.black + s.area.white + s.shared,
            points,
            "area + shared"
        );
        prop_assert_eq!(s.owners.len(), points);
        prop_assert_eq!(s.area.black, s.stones.black + s.spaces.black);
        prop_assert_eq!(s.area.white, s.stones.white + s.spaces.white);
        for color in Color::ALL {
            let dead_of = dead
                .iter()
                .filter(|&&p| board.color_at(p) == Some(color))
                .count();
            prop_assert_eq!(*s.stones.get(color), board.stone_count(color) - dead_of);
        }
        let pen = game.penalties();
        prop_assert_eq!(s.penalties, pen);
        let expected = 2 * (s.area.black as i32 - s.area.white as i32)
            - game.rules().komi.halves()
            - 2 * pen.black
            + 2 * pen.white;
        prop_assert_eq!(s.margin_halves, expected, "margin");
        prop_assert_eq!(
            s.fill_in.margin(),
            s.margin(),
            "fill-in margin: {:?}",
            s.fill_in
        );
        let tie = if game.is_handicap() {
            game.rules().tie_handicap
        } else {
            game.rules().tie_even
        };
        let winner = match s.margin_halves {
            m if m > 0 => Color::Black,
            m if m < 0 => Color::White,
            _ => tie,
        };
        prop_assert_eq!(s.winner, winner);
        prop_assert_eq!(s.fill_in.supply, points / 2);
        prop_assert_eq!(s.fill_in.odd_point, points % 2);
    }
    Ok(())
}

thread_local! {
    /// The refusals met by this thread's test so far, by kind: a test that claims to meet every
    /// ko rule asserts that it did ([`spec_positions_continued`]).
    static REFUSALS: std::cell::RefCell<std::collections::BTreeMap<&'static str, u64>> =
        const { std::cell::RefCell::new(std::collections::BTreeMap::new()) };
}

/// `legal_moves` ⇔ `is_legal` ⇔ no `illegal_reason`, on every point and the pass.
fn check_legality(game: &Game) -> Result<(), TestCaseError> {
    let legal = game.legal_moves();
    for mv in all_moves(game.board()) {
        if let Some(kind) = game.illegal_reason(mv) {
            REFUSALS.with(|r| *r.borrow_mut().entry(kind.code()).or_default() += 1);
        }
        let listed = legal.contains(&mv);
        prop_assert_eq!(game.is_legal(mv), listed, "is_legal({:?})", mv);
        prop_assert_eq!(
            game.illegal_reason(mv).is_none(),
            listed,
            "illegal_reason({:?}) = {:?}",
            mv,
            game.illegal_reason(mv)
        );
        if let Move::Play(p) = mv {
            if game.board().color_at(p).is_some() && game.phase() != Phase::Ended {
                prop_assert_eq!(game.illegal_reason(mv), Some(PlayErrorKind::Occupied));
            }
        }
    }
    let ended = game.phase() == Phase::Ended;
    prop_assert_eq!(
        game.is_legal(Move::Pass),
        !ended,
        "a pass is legal until the end"
    );
    if ended {
        prop_assert!(legal.is_empty());
    }
    // Legal moves are listed once each, board plays in row-major order, then the pass.
    let order: Vec<Move> = all_moves(game.board())
        .into_iter()
        .filter(|m| legal.contains(m))
        .collect();
    prop_assert_eq!(&legal, &order);
    // Off the board.
    let b = game.board();
    if let Some(p) = Point::new(b.width(), 0) {
        if !ended {
            prop_assert_eq!(
                game.illegal_reason(Move::Play(p)),
                Some(PlayErrorKind::OffBoard)
            );
        }
    }
    Ok(())
}

/// Passes, phase and end agree with the history: the passes in a row since the last board play
/// or handicap pass (White's passes while every White move so far was a pass, up to the
/// handicap), which ends nothing.
fn check_phase(game: &Game) -> Result<(), TestCaseError> {
    let owed = game.setup().handicap_passes as usize;
    let (mut white_passes, mut white_played, mut trailing) = (0usize, false, 0usize);
    for m in game.history() {
        let handicap_pass =
            m.color == Color::White && m.mv == Move::Pass && !white_played && white_passes < owed;
        if m.color == Color::White {
            match m.mv {
                Move::Pass => white_passes += 1,
                Move::Play(_) => white_played = true,
            }
        }
        trailing = match m.mv {
            Move::Pass if !handicap_pass => trailing + 1,
            _ => 0,
        };
    }
    prop_assert_eq!(game.consecutive_passes() as usize, trailing);
    let phase = match trailing {
        0 | 1 => Phase::Playing,
        2 | 3 => Phase::Suspended,
        _ => Phase::Ended,
    };
    prop_assert_eq!(game.phase(), phase);
    prop_assert_eq!(game.end().is_some(), phase == Phase::Ended);
    if phase == Phase::Ended {
        prop_assert_eq!(game.end(), Some(&GameEnd::Passes));
        prop_assert_eq!(game.score(), Some(game.count(&[])));
    } else {
        prop_assert_eq!(game.score(), None);
    }
    Ok(())
}

/// Facts about the move just played that follow from the rules alone.
fn check_last_move(game: &Game, positions: &[(Board, Color)]) -> Result<(), TestCaseError> {
    let rules = *game.rules();
    let Some(last) = game.last_move() else {
        return Ok(());
    };
    let board = game.board();
    let Move::Play(p) = last.mv else {
        prop_assert!(last.removed.is_empty());
        return Ok(());
    };
    for &r in last.removed {
        prop_assert!(
            board.color_at(r).is_none(),
            "removed stone {:?} still there",
            r
        );
    }
    if last.suicide {
        prop_assert!(last.removed.contains(&p));
        match rules.suicide {
            SuicideRule::None => prop_assert!(false, "suicide under {:?}", rules.suicide),
            SuicideRule::BlockOnly => prop_assert!(last.removed.len() >= 2, "single-stone suicide"),
            SuicideRule::All => {}
        }
    } else {
        prop_assert_eq!(board.color_at(p), Some(last.color));
    }
    if last.ko_capture {
        prop_assert_eq!(last.removed.len(), 1);
        prop_assert_eq!(board.string_stones(p).len(), 1);
        prop_assert_eq!(board.liberty_count(p), 1);
    }
    // positions[i] is the position (and the player to move) after i moves; the last entry is
    // the current one.
    if last.forced {
        // Accepted by `play_tolerant` despite the ko rule, so the checks below need not hold.
        return Ok(());
    }
    let n = positions.len() - 1;
    match rules.ko {
        KoRule::PositionalSuperko => {
            for (i, (b, _)) in positions[..n].iter().enumerate() {
                prop_assert!(b != board, "position after {} moves repeated", i);
            }
        }
        KoRule::SituationalSuperko => {
            for (i, (b, c)) in positions[..n].iter().enumerate() {
                prop_assert!(
                    !(b == board && *c == game.to_move()),
                    "situation after {} moves repeated",
                    i
                );
            }
        }
        KoRule::Simple | KoRule::Ing => {
            // "凡提取熱子必須間隔一實手或虛手": a play right after a play never brings back the
            // position before that play.
            let previous_was_play = game
                .history()
                .rev()
                .nth(1)
                .is_some_and(|m| matches!(m.mv, Move::Play(_)));
            if n >= 2 && previous_was_play {
                prop_assert!(&positions[n - 2].0 != board, "immediate retake");
            }
        }
    }
    Ok(())
}

/// Plays one refused move, if there is one, and checks it fails with its reason and changes
/// nothing.
fn check_refused_move(game: &mut Game, rng: &mut Rng) -> Result<(), TestCaseError> {
    let refused: Vec<(Move, PlayErrorKind)> = all_moves(game.board())
        .into_iter()
        .filter_map(|m| game.illegal_reason(m).map(|k| (m, k)))
        .collect();
    if refused.is_empty() {
        return Ok(());
    }
    // Prefer the interesting refusals (anything but an occupied point) when there are some.
    let interesting: Vec<&(Move, PlayErrorKind)> = refused
        .iter()
        .filter(|(_, k)| *k != PlayErrorKind::Occupied)
        .collect();
    let (mv, kind) = if !interesting.is_empty() {
        *interesting[rng.below(interesting.len())]
    } else {
        refused[rng.below(refused.len())]
    };
    let before = Snapshot::of(game);
    let err = game.play(mv).expect_err("a refused move must fail");
    prop_assert_eq!(err.kind, kind);
    prop_assert_eq!(err.mv, mv);
    prop_assert_eq!(err.color, game.to_move());
    prop_assert_eq!(
        &Snapshot::of(game),
        &before,
        "a refused move changed the game"
    );
    Ok(())
}

/// Plays a legal move and takes it back: the game must be as before.
fn check_play_undo(
    game: &mut Game,
    (mv, tolerant): (Move, bool),
    before: &Snapshot,
) -> Result<(), TestCaseError> {
    play_step(game, (mv, tolerant));
    let undone = game.undo().expect("a move was just played");
    prop_assert_eq!(undone, mv);
    prop_assert_eq!(&Snapshot::of(game), before, "play {:?} then undo", mv);
    Ok(())
}

/// The ways a game ends other than by four passes, tried on copies: agreeing on dead stones at a
/// suspension, resigning, losing on time.
fn check_endings(game: &Game, rng: &mut Rng) -> Result<(), TestCaseError> {
    let board = game.board();
    let dead = random_stones(board, rng, 3);
    let mut agreed = game.clone();
    match (game.phase(), agreed.agree_dead(&dead)) {
        (Phase::Suspended, Ok(())) => {
            prop_assert_eq!(agreed.phase(), Phase::Ended);
            prop_assert_eq!(agreed.end(), Some(&GameEnd::Agreement(dead.clone())));
            let score = agreed.score().expect("an agreed game has a score");
            prop_assert_eq!(&score, &game.count(&dead));
            prop_assert_eq!(agreed.winner(), Some(score.winner));
            prop_assert!(agreed.legal_moves().is_empty());
            prop_assert!(agreed.resign(Color::Black).is_err(), "already ended");
        }
        (Phase::Suspended, Err(e)) => prop_assert!(false, "agree_dead refused: {}", e),
        (_, result) => prop_assert!(result.is_err(), "agreement outside a suspension"),
    }
    if game.phase() != Phase::Ended {
        for color in Color::ALL {
            let mut resigned = game.clone();
            resigned.resign(color).expect("the game goes on");
            prop_assert_eq!(resigned.winner(), Some(color.opponent()));
            prop_assert_eq!(resigned.score(), None);
            prop_assert!(resigned.legal_moves().is_empty());
            prop_assert_eq!(
                resigned.move_count(),
                game.move_count(),
                "resigning is no move"
            );
            let mut timed_out = game.clone();
            timed_out.lose_on_time(color).expect("the game goes on");
            prop_assert_eq!(timed_out.winner(), Some(color.opponent()));
        }
    }
    Ok(())
}

/// Plays a move: a legal one with `play`, or with `tolerant` one that only a ko rule refuses, with
/// `play_tolerant` (the replay of records with mistaken hot captures, docs/rules.md §9.12).
fn play_step(game: &mut Game, (mv, tolerant): (Move, bool)) {
    if tolerant {
        let overridden = game.play_tolerant(mv).expect("only a ko rule refuses it");
        assert!(overridden.is_some_and(PlayErrorKind::is_ko));
        assert!(game.last_move().is_some_and(|m| m.forced));
    } else {
        game.play(mv).expect("a listed move is legal");
        assert!(game.last_move().is_some_and(|m| !m.forced));
    }
}

/// A move that only a ko rule refuses, if there is one.
fn ko_refused(game: &Game, rng: &mut Rng) -> Option<Move> {
    let moves: Vec<Move> = game
        .board()
        .points()
        .map(Move::Play)
        .filter(|&m| game.illegal_reason(m).is_some_and(PlayErrorKind::is_ko))
        .collect();
    (!moves.is_empty()).then(|| moves[rng.below(moves.len())])
}

fn replay(game: &Game) -> Game {
    let mut fresh = Game::new(game.setup().clone(), *game.rules());
    let pen = game.penalties();
    fresh.set_penalty(Color::Black, pen.black);
    fresh.set_penalty(Color::White, pen.white);
    let moves: Vec<(Color, Move, bool)> =
        game.history().map(|m| (m.color, m.mv, m.forced)).collect();
    for (color, mv, forced) in moves {
        assert_eq!(fresh.to_move(), color);
        let result = if forced {
            fresh.play_tolerant(mv).map(|_| ())
        } else {
            fresh.play_as(color, mv)
        };
        if let Err(e) = result {
            panic!("replay refused {e}\n{}", describe(game));
        }
    }
    fresh
}

/// `cases` cases, or `PROPTEST_CASES` when set (for longer runs, e.g. in release mode).
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

fn run_game(p: Params) -> Result<(), TestCaseError> {
    let mut rng = Rng(p.seed);
    let setup = make_setup(&p, &mut rng);
    let start = setup.board.clone();
    let mut game = Game::new(setup.clone(), p.preset.rules());
    game.set_penalty(Color::Black, rng.below(7) as i32 - 2);
    game.set_penalty(Color::White, rng.below(7) as i32 - 2);
    prop_assert_eq!(game.board(), &start);

    // A twin that only ever plays: undos and refused moves on `game` must leave no trace, not
    // even in the hidden rule state that shows only in later verdicts.
    // It starts with no room reserved (`with_room_for(…, 0)`), so its history and situation
    // set grow as it plays, while `game`'s were reserved up front.
    let mut twin = Game::with_room_for(setup.clone(), p.preset.rules(), 0);
    twin.set_penalty(Color::Black, game.penalties().black);
    twin.set_penalty(Color::White, game.penalties().white);
    let mut copy = Game::new(
        Setup::empty(if start.width() == 5 { 4 } else { 5 }).expect("size"),
        Rules::ing(),
    );
    let mut snapshots = vec![Snapshot::of(&game)];
    let mut positions = vec![(game.board().clone(), game.to_move())];
    check_board(game.board())?;
    check_legality(&game)?;
    check_count_identities(&game, &mut rng)?;

    // The test case's own moves first, when starting from one: they lead into the states its
    // rules are about.
    let prefix: Vec<Move> = match p.spec_start {
        Some((i, n)) => {
            let start = &spec_starts()[i % spec_starts().len()];
            let n = n % (2 * start.moves.len() + 1);
            start.moves[..n.min(start.moves.len())].to_vec()
        }
        None => Vec::new(),
    };
    let choices = prefix
        .iter()
        .map(|&m| Some(m))
        .chain(p.choices.iter().map(|_| None))
        .zip(prefix.iter().map(|_| 0).chain(p.choices.iter().copied()));
    for (i, (forced, choice)) in choices.enumerate() {
        let picked = match forced {
            Some(m) => game.is_legal(m).then_some(m),
            None => pick(&game, choice, p.pass_percent, p.capture_percent),
        };
        let Some(mut step) = picked.map(|m| (m, false)) else {
            break;
        };
        // Now and then a move only a ko rule refuses, played with `play_tolerant`.
        if forced.is_none() && rng.below(24) == 0 {
            if let Some(m) = ko_refused(&game, &mut rng) {
                step = (m, true);
            }
        }
        // Undo restores the state before the move. Checked on most moves of small boards and a
        // quarter of those of big ones (where each undo replays the whole game); the moves left
        // out let the twin catch an undo whose damage would be repaired by the next one.
        if rng.below(if game.board().area() <= 49 { 4 } else { 16 }) < 3 {
            let before = snapshots.last().expect("the start is recorded");
            check_play_undo(&mut game, step, before)?;
        }
        if i % 3 == 0 {
            check_refused_move(&mut game, &mut rng)?;
        }
        play_step(&mut game, step);
        play_step(&mut twin, step);
        if rng.below(16) == 0 {
            let (color, points) = (Color::ALL[rng.below(2)], rng.below(9) as i32 - 3);
            game.set_penalty(color, points);
            twin.set_penalty(color, points);
        }
        positions.push((game.board().clone(), game.to_move()));
        let with_game = |e: TestCaseError| TestCaseError::fail(format!("{e}\n{}", describe(&game)));
        check_board(game.board()).map_err(with_game)?;
        check_stones(&game, &start).map_err(with_game)?;
        check_legality(&game).map_err(with_game)?;
        check_count_identities(&game, &mut rng).map_err(with_game)?;
        check_phase(&game).map_err(with_game)?;
        check_last_move(&game, &positions).map_err(with_game)?;
        let now = Snapshot::of(&game);
        prop_assert_eq!(
            &Snapshot::of(&twin),
            &now,
            "undos left a trace\n{}",
            describe(&game)
        );
        // `clone_from` into a game that held another position (at first one of another size)
        // gives the same game, down to every verdict; playing on keeps them equal.
        if rng.below(4) == 0 {
            copy.clone_from(&game);
            check_board(copy.board()).map_err(with_game)?;
            prop_assert_eq!(
                &Snapshot::of(&copy),
                &now,
                "clone_from\n{}",
                describe(&game)
            );
            if let Some(m) = pick(&game, rng.below(1000) as u16, 10, 50) {
                let mut played = game.clone();
                play_step(&mut played, (m, false));
                play_step(&mut copy, (m, false));
                prop_assert_eq!(
                    Snapshot::of(&copy),
                    Snapshot::of(&played),
                    "clone_from, then {:?}",
                    m
                );
            }
        }
        snapshots.push(now);
    }

    // A new game replaying the history reaches the same state.
    let replayed = replay(&game);
    prop_assert_eq!(
        &Snapshot::of(&replayed),
        snapshots.last().expect("recorded")
    );
    prop_assert_eq!(
        replayed.stones_lost(Color::Black),
        game.stones_lost(Color::Black)
    );
    prop_assert_eq!(
        replayed.stones_lost(Color::White),
        game.stones_lost(Color::White)
    );

    check_endings(&game, &mut rng)?;

    // Undo step by step back to the start: every earlier state comes back, then a fresh game.
    // Penalties are not part of the history, so undo keeps the current ones.
    let pen = game.penalties();
    for expected in snapshots.iter().rev().skip(1) {
        game.undo().expect("moves are left");
        let mut expected_now = Snapshot::of(&game);
        expected_now.penalties = expected.penalties;
        prop_assert_eq!(&expected_now, expected);
        prop_assert_eq!(game.penalties(), pen, "undo keeps the penalties");
    }
    prop_assert_eq!(game.move_count(), 0);
    prop_assert!(game.undo().is_err(), "nothing left to undo");
    let mut fresh = Game::new(setup, p.preset.rules());
    fresh.set_penalty(Color::Black, pen.black);
    fresh.set_penalty(Color::White, pen.white);
    prop_assert_eq!(Snapshot::of(&game), Snapshot::of(&fresh));
    Ok(())
}

proptest! {
    #![proptest_config(config(96))]

    #[test]
    fn random_games_keep_the_invariants(p in params(160)) {
        run_game(p)?;
    }
}

proptest! {
    #![proptest_config(config(160))]

    /// Tiny boards with many passes: repetition, suspensions and ends come often.
    #[test]
    fn tiny_boards_with_passes(
        size in (2usize..=4, 2usize..=4),
        preset in 0..Preset::ALL.len(),
        pass_percent in 20u16..=60,
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u16>(), 0..=80),
    ) {
        run_game(Params {
            width: size.0,
            height: size.1,
            preset: Preset::ALL[preset],
            white_first: false,
            handicap_passes: 0,
            setup_stones: 0,
            pass_percent,
            spec_start: None,
            capture_percent: 50,
            seed,
            choices,
        })?;
    }
}

/// Random continuations of the test positions of docs/rules.md, mostly under Ing's rules: double and
/// triple kos, eternal life and the like, where hot stones, twin hot stones, the disturbing
/// limit and cycle bans all come into play; and they do: the test asserts that each of those
/// refusals occurred. (Run by hand with proptest's runner, so that it can look at all the
/// cases together at the end.)
#[test]
fn spec_positions_continued() {
    use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};
    REFUSALS.with(|r| r.borrow_mut().clear());
    let strategy = (
        any::<usize>(),
        any::<usize>(),
        prop_oneof![3 => Just(0usize), 1 => 0..Preset::ALL.len()],
        0u16..=30,
        any::<u64>(),
        prop::collection::vec(any::<u16>(), 0..=60),
    );
    // The cases come from a fixed seed: the test asserts that every kind of refusal occurs
    // among them, and a disturbing refusal is rare enough that fresh random cases missed it
    // now and then (a CI run on 2 December 2026 saw none in 160 cases).
    let mut runner = TestRunner::new_with_rng(
        config(160),
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let result = runner.run(
        &strategy,
        |(start, prefix, preset, pass_percent, seed, choices)| {
            run_game(Params {
                width: 0,
                height: 0,
                preset: Preset::ALL[preset],
                white_first: false,
                handicap_passes: 0,
                setup_stones: 0,
                pass_percent,
                spec_start: Some((start, prefix)),
                capture_percent: 80,
                seed,
                choices,
            })
        },
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    let seen = REFUSALS.with(|r| r.borrow().clone());
    for kind in [
        PlayErrorKind::HotStone,
        PlayErrorKind::DoubleHot,
        PlayErrorKind::TwinHot,
        PlayErrorKind::Disturbing,
        PlayErrorKind::Cycle,
    ] {
        assert!(
            seen.contains_key(kind.code()),
            "no {kind} refusal in the continued spec positions: {seen:?}"
        );
    }
}
