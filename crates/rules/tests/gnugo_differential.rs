//! Differential test against GNU Go: the board and the legality of plays under the rule variants
//! that GNU Go implements the same way we do.
//!
//! Ing's ko rules exist nowhere else (docs/rules.md §0, §8), so no program can check [`KoRule::Ing`]. What
//! another program *can* check is everything underneath it: placing stones, merging strings,
//! counting liberties, captures (including docs/rules.md §2's "if both sides reach zero liberties at once,
//! the opponent's stones are removed"), suicide of a single stone and of a block, and the
//! repetition rules that are common property. GNU Go 3.8 decides all of these in
//! `is_allowed_move` (engine/board.c), which its GTP `is_legal` and `play` commands call.
//!
//! Variants compared (ours vs. GNU Go's command line):
//!
//! * **simple ko, no suicide**: `Rules { ko: Simple, suicide: None }` vs
//!   `--chinese-rules --forbid-suicide` (simple ko is GNU Go's default). GNU Go marks a ko point
//!   when a play captures exactly one stone and leaves a lone stone with one liberty, and forbids
//!   the opponent's very next play there: the same as our simple ko, which forbids retaking at
//!   once the lone stone that has just captured one stone;
//! * **simple ko, block suicide**: `Rules { ko: Simple, suicide: BlockOnly }` vs
//!   `--chinese-rules --allow-suicide` ("allow suicide except single-stone suicide", the suicide
//!   half of Ing's rule: "顆子自盡…變窮禁著。塊子自盡，變未窮，不禁著");
//! * **positional superko, no suicide**: `Rules { ko: PositionalSuperko, suicide: None }` vs
//!   `--chinese-rules --forbid-suicide --positional-superko`. GNU Go refuses a play whose resulting
//!   stones equal the current position or the position before any earlier move (hashes with the
//!   simple-ko point taken out), which is our rule: no play may recreate any earlier position.
//!   Two GNU Go limits shape this variant: its superko check plays the move with
//!   `do_play_move`, which assumes the move is no suicide, so superko is compared only with
//!   suicide forbidden; and GNU Go folds the oldest tenth of its history into the start position
//!   once 500 moves are stored (`MAX_MOVE_HISTORY`), forgetting those positions, so every game
//!   stays below 500 moves.
//! * **situational superko, no suicide**: `Rules { ko: SituationalSuperko, suicide: None }` vs
//!   `--chinese-rules --forbid-suicide --situational-superko`, under the same two limits. GNU Go
//!   refuses a play whose resulting stones equal the position before an earlier move *by the
//!   opponent*, that is, the same stones with the same player to move, which is our rule.
//!
//! For every turn of every random game the test draws a candidate move, asks both engines whether
//! it is legal (ours: [`Game::illegal_reason`], GNU Go: `is_legal`) and fails on any disagreement;
//! it draws again after a refusal. A legal move is played in both (`play`), and after every move
//! the stones of both boards (`list_stones`) must be identical, which checks every capture. The
//! draw is biased toward the points where rules matter: liberties of strings in atari (captures,
//! self-ataris, block suicides), points with no empty neighbour (suicide attempts, ko retakes) and
//! the points just captured, and a player sometimes passes right after a ko capture so that
//! retakes after a pass happen too.
//!
//! The seed of every game is printed on failure; `INGO_GNUGO_SEED=<n>` changes the base seed.
//! GNU Go is found by `ingo_testkit::gnugo` (`$GNUGO`, then `gnugo` on `PATH`, then
//! `/usr/games/gnugo`, where Debian and Ubuntu install it) and driven by `ingo_gtp::Engine`. When
//! it is missing the test prints a note and passes, except under CI (`CI` set), where it fails. Run with `-- --nocapture` to see the counts.

mod common;

use common::SplitMix64;

use std::collections::BTreeSet;
use std::env;
use std::fmt::Write as _;
use std::path::Path;
use std::thread;
use std::time::{Duration, Instant};

use ingo_gtp::engine::{Engine, EngineBuilder, EngineError};
use ingo_rules::{Color, Game, KoRule, Move, PlayErrorKind, Point, Rules, Setup, SuicideRule};

/// How long GNU Go may take to answer one command before the test gives up on it.
const TIMEOUT: Duration = Duration::from_secs(20);

/// Board sizes played, each by several games per variant.
const SIZES: [usize; 8] = [2, 3, 4, 5, 7, 9, 13, 19];

/// Games per board size and variant.
const GAMES_PER_SIZE: u64 = 6;

/// GNU Go keeps at most 500 moves of history (`MAX_MOVE_HISTORY`); superko needs all of them.
const MAX_GAME_MOVES: usize = 450;

/// Draws allowed in one turn before the player passes instead.
const MAX_DRAWS: usize = 40;

/// GNU Go, driven over GTP by ingo-gtp's [`Engine`] (a timeout on every command, and a hung or
/// crashed GNU Go reported as such).
struct Gnugo(Engine);

impl Gnugo {
    fn spawn(program: &Path, args: &[&str]) -> Gnugo {
        let engine = EngineBuilder::new(program.to_string_lossy())
            .args(["--mode", "gtp"])
            .args(args.iter().copied())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
        Gnugo(engine)
    }

    /// Sends one command, its words separated by spaces; `Ok(text)` for a `=` response,
    /// `Err(text)` for a `?` response. A GNU Go that hangs, exits or answers garbage fails the
    /// test.
    fn send(&mut self, command: &str) -> Result<String, String> {
        let mut words = command.split(' ');
        let name = words.next().unwrap_or_default();
        let args: Vec<&str> = words.collect();
        match self.0.send(name, &args, TIMEOUT) {
            Ok(reply) => Ok(reply.text),
            Err(EngineError::Failure { message, .. }) => Err(message),
            Err(e) => panic!("gnugo: {e}"),
        }
    }

    /// Sends a command that must succeed.
    fn ok(&mut self, command: &str) -> String {
        self.send(command)
            .unwrap_or_else(|e| panic!("gnugo refused `{command}`: {e}"))
    }
}

/// A rules variant on which we and GNU Go must agree.
#[derive(Clone, Copy)]
struct Variant {
    name: &'static str,
    rules: Rules,
    gnugo_args: &'static [&'static str],
    base_seed: u64,
}

fn variants() -> [Variant; 4] {
    let base = Rules::ing();
    [
        Variant {
            name: "simple ko, no suicide",
            rules: Rules {
                ko: KoRule::Simple,
                suicide: SuicideRule::None,
                ..base
            },
            gnugo_args: &["--chinese-rules", "--forbid-suicide"],
            base_seed: 0x5EED_0001,
        },
        Variant {
            name: "simple ko, block suicide",
            rules: Rules {
                ko: KoRule::Simple,
                suicide: SuicideRule::BlockOnly,
                ..base
            },
            gnugo_args: &["--chinese-rules", "--allow-suicide"],
            base_seed: 0x5EED_0002,
        },
        Variant {
            name: "positional superko, no suicide",
            rules: Rules {
                ko: KoRule::PositionalSuperko,
                suicide: SuicideRule::None,
                ..base
            },
            gnugo_args: &[
                "--chinese-rules",
                "--forbid-suicide",
                "--positional-superko",
            ],
            base_seed: 0x5EED_0003,
        },
        Variant {
            name: "situational superko, no suicide",
            rules: Rules {
                ko: KoRule::SituationalSuperko,
                suicide: SuicideRule::None,
                ..base
            },
            gnugo_args: &[
                "--chinese-rules",
                "--forbid-suicide",
                "--situational-superko",
            ],
            base_seed: 0x5EED_0004,
        },
    ]
}

/// What one variant's games compared.
#[derive(Clone, Copy, Default, Debug)]
struct Counts {
    games: u64,
    verdicts: u64,
    refusals: u64,
    moves: u64,
    passes: u64,
    captures: u64,
    captured_stones: u64,
    block_suicides: u64,
    suicide_refusals: u64,
    ko_refusals: u64,
    /// Ko refusals other than the immediate retake of a ko (superko only).
    long_cycle_refusals: u64,
    ko_captures: u64,
    /// Ko retakes one move pair after the ko capture.
    later_retakes: u64,
    /// Of those, the ones where both moves in between were passes.
    retakes_after_passes: u64,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.games += o.games;
        self.verdicts += o.verdicts;
        self.refusals += o.refusals;
        self.moves += o.moves;
        self.passes += o.passes;
        self.captures += o.captures;
        self.captured_stones += o.captured_stones;
        self.block_suicides += o.block_suicides;
        self.suicide_refusals += o.suicide_refusals;
        self.ko_refusals += o.ko_refusals;
        self.long_cycle_refusals += o.long_cycle_refusals;
        self.ko_captures += o.ko_captures;
        self.later_retakes += o.later_retakes;
        self.retakes_after_passes += o.retakes_after_passes;
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The GTP vertices of `color`'s stones on our board.
fn our_stones(game: &Game, color: Color) -> BTreeSet<String> {
    let b = game.board();
    b.points()
        .filter(|&p| b.color_at(p) == Some(color))
        .map(|p| p.to_gtp(b.height()))
        .collect()
}

fn gnugo_stones(gnugo: &mut Gnugo, color: Color) -> BTreeSet<String> {
    gnugo
        .ok(&format!("list_stones {}", color_name(color)))
        .split_whitespace()
        .map(str::to_ascii_uppercase)
        .collect()
}

/// The moves so far, for failure reports.
fn moves_so_far(game: &Game) -> String {
    let h = game.board().height();
    game.history()
        .map(|m| format!("{}{}", m.color.letter(), m.mv.to_gtp(h)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The point of the single stone that the move `back` moves ago (0 = the last move) captured by
/// a ko capture, if the point is still empty: where the victim of the ko would retake.
fn ko_point(game: &Game, back: usize) -> Option<Point> {
    let m = game.history().rev().nth(back)?;
    match (m.ko_capture, m.removed) {
        (true, [p]) if game.board().color_at(*p).is_none() => Some(*p),
        _ => None,
    }
}

/// Whether the move `back` moves ago was a pass.
fn was_pass(game: &Game, back: usize) -> bool {
    game.history()
        .rev()
        .nth(back)
        .is_some_and(|m| m.mv == Move::Pass)
}

/// Points where the rules have something to decide, for the player to move: `captures` are the
/// liberties of opponent strings in atari (captures, ko captures, snapbacks); `tight` are the
/// liberties of the player's own strings in atari and the points with no empty neighbour
/// (self-ataris, suicides of one stone or of a block, eye filling).
fn interesting_points(game: &Game) -> (Vec<Point>, Vec<Point>) {
    let b = game.board();
    let me = game.to_move();
    let mut captures = Vec::new();
    let mut tight = Vec::new();
    for p in b.empty_points() {
        let mut empty_neighbour = false;
        let mut captures_here = false;
        let mut own_atari = false;
        for q in b.neighbors(p) {
            match b.color_at(q) {
                None => empty_neighbour = true,
                Some(c) if b.in_atari(q) => {
                    if c == me {
                        own_atari = true;
                    } else {
                        captures_here = true;
                    }
                }
                Some(_) => {}
            }
        }
        if captures_here {
            captures.push(p);
        } else if own_atari || !empty_neighbour {
            tight.push(p);
        }
    }
    (captures, tight)
}

/// Draws a point to try. The first draw of a turn is often the ko retake, at once (refused by
/// both ko rules) or one move pair later (allowed by simple ko; refused by superko when both
/// moves between were passes). Otherwise, with a bias, a point where the rules have something to
/// decide, or any empty point.
fn draw_point(game: &Game, rng: &mut SplitMix64, first_draw: bool) -> Point {
    if first_draw {
        if let Some(p) = ko_point(game, 0).or_else(|| ko_point(game, 2)) {
            if rng.chance(70) {
                return p;
            }
        }
    }
    let (captures, tight) = interesting_points(game);
    let roll = rng.below(100);
    if !captures.is_empty() && roll < 45 {
        return captures[rng.below(captures.len())];
    }
    if !tight.is_empty() && (45..60).contains(&roll) {
        return tight[rng.below(tight.len())];
    }
    let b = game.board();
    b.empty_point(rng.below(b.empty_count()))
}

/// Plays one random game in both engines, comparing every verdict and every board.
fn play_game(gnugo: &mut Gnugo, variant: &Variant, size: usize, seed: u64, counts: &mut Counts) {
    let mut rng = SplitMix64(seed);
    let setup = Setup::empty(size).expect("supported board size");
    let mut game = Game::new(setup, variant.rules);
    gnugo.ok(&format!("boardsize {size}"));
    gnugo.ok("clear_board");
    counts.games += 1;
    let max_moves = (4 * size * size).clamp(12, MAX_GAME_MOVES);
    let context = |game: &Game, gnugo: &mut Gnugo| {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "variant: {} (gnugo {}), size {size}, game seed {seed:#x}, move {}",
            variant.name,
            variant.gnugo_args.join(" "),
            game.move_count() + 1
        );
        let _ = writeln!(s, "moves: {}", moves_so_far(game));
        let _ = writeln!(s, "our board:\n{}", game.board().to_ascii());
        let _ = writeln!(
            s,
            "gnugo board:\n{}",
            gnugo.send("showboard").unwrap_or_else(|e| e)
        );
        s
    };

    while game.move_count() < max_moves {
        let color = game.to_move();
        let h = game.board().height();
        // Pass now and then; often as the victim right after a ko capture, and as the capturer
        // after the victim passed, so that retakes after passes come up.
        let wants_pass = rng.chance(3)
            || (ko_point(&game, 0).is_some() && rng.chance(25))
            || (was_pass(&game, 0) && ko_point(&game, 1).is_some() && rng.chance(50));
        let mut chosen = None;
        if !wants_pass {
            for draw in 0..MAX_DRAWS {
                if game.board().empty_count() == 0 {
                    break;
                }
                let p = draw_point(&game, &mut rng, draw == 0);
                let vertex = p.to_gtp(h);
                let ours = game.illegal_reason(Move::Play(p));
                let reply = gnugo.ok(&format!("is_legal {} {vertex}", color_name(color)));
                let theirs = match reply.as_str() {
                    "1" => true,
                    "0" => false,
                    other => panic!("gnugo: is_legal answered {other:?}"),
                };
                counts.verdicts += 1;
                if ours.is_none() != theirs {
                    panic!(
                        "legality disagreement: {} {vertex}: ours {}, gnugo {}\n{}",
                        color_name(color),
                        ours.map_or("legal".to_string(), |k| format!("illegal ({k})")),
                        if theirs { "legal" } else { "illegal" },
                        context(&game, gnugo)
                    );
                }
                match ours {
                    None => {
                        chosen = Some(p);
                        break;
                    }
                    Some(kind) => {
                        counts.refusals += 1;
                        match kind {
                            PlayErrorKind::Suicide => counts.suicide_refusals += 1,
                            k if k.is_ko() => {
                                counts.ko_refusals += 1;
                                if ko_point(&game, 0) != Some(p) {
                                    counts.long_cycle_refusals += 1;
                                }
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
        let mv = match chosen {
            Some(p) => Move::Play(p),
            None => {
                // A fourth pass in a row would end our game; stop before it instead.
                if game.consecutive_passes() >= 3 {
                    break;
                }
                Move::Pass
            }
        };
        let later_retake = matches!(mv, Move::Play(p) if ko_point(&game, 2) == Some(p));
        let after_passes = was_pass(&game, 0) && was_pass(&game, 1);
        let command = format!("play {} {}", color_name(color), mv.to_gtp(h));
        if let Err(e) = gnugo.send(&command) {
            panic!(
                "gnugo refused `{command}` that both engines call legal: {e}\n{}",
                context(&game, gnugo)
            );
        }
        game.play(mv)
            .unwrap_or_else(|e| panic!("our engine refused {mv:?} after allowing it: {e}"));
        let played = game.last_move().expect("a move was just played");
        match mv {
            Move::Pass => counts.passes += 1,
            Move::Play(_) => {
                counts.moves += 1;
                if played.suicide {
                    counts.block_suicides += 1;
                } else if !played.removed.is_empty() {
                    counts.captures += 1;
                    counts.captured_stones += played.removed.len() as u64;
                }
                if played.ko_capture {
                    counts.ko_captures += 1;
                }
                if later_retake {
                    counts.later_retakes += 1;
                    if after_passes {
                        counts.retakes_after_passes += 1;
                    }
                }
            }
        }
        for c in Color::ALL {
            let ours = our_stones(&game, c);
            let theirs = gnugo_stones(gnugo, c);
            if ours != theirs {
                panic!(
                    "board disagreement after {command}: {} stones only ours {:?}, only gnugo's \
                     {:?}\n{}",
                    color_name(c),
                    ours.difference(&theirs).collect::<Vec<_>>(),
                    theirs.difference(&ours).collect::<Vec<_>>(),
                    context(&game, gnugo)
                );
            }
        }
    }
}

/// Plays every game of one variant against its own GNU Go process.
fn run_variant(program: &Path, variant: &Variant, base_seed: u64) -> Counts {
    let mut gnugo = Gnugo::spawn(program, variant.gnugo_args);
    let version = gnugo.ok("version");
    assert!(
        version.starts_with('3'),
        "expected GNU Go 3.x, whose board.c this test was checked against; got {version}"
    );
    let mut counts = Counts::default();
    for (i, &size) in SIZES.iter().enumerate() {
        for g in 0..GAMES_PER_SIZE {
            let seed = base_seed
                .wrapping_add(variant.base_seed << 20)
                .wrapping_add((i as u64) << 8)
                .wrapping_add(g);
            play_game(&mut gnugo, variant, size, seed, &mut counts);
        }
    }
    if let Err(e) = gnugo.0.quit(TIMEOUT) {
        panic!("gnugo did not quit: {e}");
    }
    counts
}

#[test]
fn gnugo_differential() {
    let Some(program) = ingo_testkit::gnugo() else {
        return;
    };
    let base_seed = env::var("INGO_GNUGO_SEED")
        .ok()
        .map(|s| s.parse::<u64>().expect("INGO_GNUGO_SEED must be a number"))
        .unwrap_or(0);
    let started = Instant::now();
    let variants = variants();
    // One GNU Go per variant, in parallel: the variants are independent.
    let results: Vec<Counts> = thread::scope(|s| {
        let handles: Vec<_> = variants
            .iter()
            .map(|v| {
                let program = &program;
                s.spawn(move || run_variant(program, v, base_seed))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut total = Counts::default();
    for (v, c) in variants.iter().zip(&results) {
        eprintln!(
            "gnugo differential [{}]: {} games, {} verdicts agree ({} refusals: {} suicide, {} \
             ko of which {} not an immediate retake), {} moves played, {} passes, {} captures ({} stones, {} ko captures), {} block \
             suicides, {} later ko retakes ({} after two passes)",
            v.name,
            c.games,
            c.verdicts,
            c.refusals,
            c.suicide_refusals,
            c.ko_refusals,
            c.long_cycle_refusals,
            c.moves,
            c.passes,
            c.captures,
            c.captured_stones,
            c.ko_captures,
            c.block_suicides,
            c.later_retakes,
            c.retakes_after_passes,
        );
        total.add(c);
    }
    eprintln!(
        "gnugo differential: {} verdicts agree, {} moves played, {} captures, {} suicide \
         refusals, {} ko refusals ({} games, {:.1} s)",
        total.verdicts,
        total.moves,
        total.captures,
        total.suicide_refusals,
        total.ko_refusals,
        total.games,
        started.elapsed().as_secs_f64()
    );
    // The bias must actually reach the cases each variant is about, or the agreement means little.
    for (v, c) in variants.iter().zip(&results) {
        assert!(c.captures >= 300, "[{}] too few captures: {c:?}", v.name);
        assert!(
            c.ko_refusals >= 50,
            "[{}] too few ko refusals: {c:?}",
            v.name
        );
        assert!(
            c.suicide_refusals >= 50,
            "[{}] too few suicide refusals: {c:?}",
            v.name
        );
        assert!(
            c.later_retakes >= 10,
            "[{}] too few later ko retakes: {c:?}",
            v.name
        );
        match v.rules.ko {
            // Simple ko allows the retake after a pass by each (隔虛提劫 in Ing's words)...
            KoRule::Simple => assert!(
                c.retakes_after_passes >= 5,
                "[{}] too few retakes after passes: {c:?}",
                v.name
            ),
            // ...superko never does: it recreates the position before the ko capture.
            _ => {
                assert_eq!(c.retakes_after_passes, 0, "[{}] {c:?}", v.name);
                assert!(
                    c.long_cycle_refusals >= 20,
                    "[{}] too few superko refusals: {c:?}",
                    v.name
                );
            }
        }
        if v.rules.ko == KoRule::Simple {
            assert_eq!(c.long_cycle_refusals, 0, "[{}] {c:?}", v.name);
        }
        if v.rules.suicide == SuicideRule::BlockOnly {
            assert!(
                c.block_suicides >= 50,
                "[{}] too few block suicides: {c:?}",
                v.name
            );
        }
    }
    assert!(
        total.verdicts >= 10_000,
        "only {} legality verdicts compared",
        total.verdicts
    );
}
