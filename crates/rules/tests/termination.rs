//! Termination under Ing's rules: an adversary that tries to make a game cycle forever cannot.
//!
//! docs/rules.md §4 claims that IKF always terminates ("R6 alone guarantees termination"): bans only grow,
//! so after some time nothing new is banned; after that no board play can recreate a situation
//! seen since then, because the cycle it would close contains a play that R6 would then ban;
//! there are finitely many situations, so board plays run out and four passes end the game. The
//! proof is a sketch and the code is not the proof, so this test attacks the code.
//!
//! The adversary plays both colours under [`Rules::ing`]. It **passes when passing recreates a
//! situation seen earlier** (the take–pass–pass–retake loop that R6 exists for: always under
//! [`Policy::Greedy`], every other time under [`Policy::Prefer`], one time in eight under
//! [`Policy::Explore`]), and otherwise only when no board play is legal. Among the legal board plays it prefers those that **recreate a position seen earlier in
//! the game** (the direct way into a cycle), those that **retake** (capture the string that has
//! just captured) and those that **capture**, with one of three seeded policies:
//!
//! * [`Policy::Prefer`]: a random preferred play; any legal play only when none is preferred;
//! * [`Policy::Greedy`]: recreate before retake before capture, random within the class;
//! * [`Policy::Explore`]: like `Prefer`, but one play in [`EXPLORE_ONE_IN`] is any legal play, so
//!   that the game keeps wandering into new shapes and the cycles it then closes are long. These
//!   games are by far the longest (a 4×4 game runs to tens of thousands of moves and a 5×5 game
//!   to hundreds of thousands), and closing a long cycle costs the engine time linear in the
//!   cycle (docs/rules.md §4, "Cost"), so by default only 2×2 and 3×3 games explore.
//!
//! Every game must end by four passes ([`Phase::Ended`]) within [`MAX_GAME_MOVES`] moves; a game
//! that does not fails the test with its size, policy and seed.
//!
//! * [`adversary_cannot_cycle_forever`] plays games on 2×2 to 5×5 boards, one thread per size,
//!   until `INGO_TERMINATION_MOVES` moves have been played in all (default
//!   [`DEFAULT_TOTAL_MOVES`], a million: about 50 s of CPU in a debug build, so under a minute and
//!   a half on two cores), and reports the games, the moves, the longest game per size and the
//!   speed. For more, use a release build, about 15 times faster: ten million moves take about a
//!   minute with `INGO_TERMINATION_MOVES=10000000 cargo test --release -p ingo-rules --test
//!   termination -- --nocapture`. Add `INGO_TERMINATION_EXPLORE=1` to let 4×4 and 5×5 games
//!   explore too; five million moves then take about five minutes, most of it spent on 5×5 games
//!   of 300,000 to 600,000 moves.
//! * [`small_boards_fixed_seeds`] is the quick, fully deterministic version on 2×2 and 3×3.
//! * [`spec_ko_positions_fixed_seeds`] starts the adversary from the docs/rules.md ko positions (double
//!   ko, triple ko, eternal life, send two return one, quadruple ko) and asserts that every kind
//!   of ko refusal (`hot-stone`, `double-hot`, `twin-hot`, `disturbing`, `cycle`) occurred.
//!
//! `INGO_TERMINATION_SEED=<n>` changes the base seed. Run with `-- --nocapture` to see the report.

mod common;

use common::SplitMix64;

use std::collections::{BTreeMap, HashSet};
use std::env;
use std::fs;
use std::path::Path;
use std::thread;
use std::time::Instant;

use ingo_rules::{Board, Color, Game, GameEnd, Move, Phase, PlayErrorKind, Point, Rules, Setup};

/// Moves played in all by the default run of [`adversary_cannot_cycle_forever`].
const DEFAULT_TOTAL_MOVES: u64 = 1_000_000;

/// Each board size's share of the moves, in percent, chosen so that the four threads take about
/// the same time in a debug build (a move costs more on a larger board and in a longer game).
const SHARES: [(usize, u64); 4] = [(2, 6), (3, 34), (4, 35), (5, 25)];

/// A game longer than this fails the test. The longest games seen, exploring on 5×5, are below
/// half of it.
const MAX_GAME_MOVES: usize = 2_000_000;

/// How often an exploring adversary plays any legal play instead of a preferred one.
const EXPLORE_ONE_IN: usize = 25;

/// Drawing a point to play from a list.
trait Pick {
    fn pick(&mut self, points: &[Point]) -> Move;
}

impl Pick for SplitMix64 {
    fn pick(&mut self, points: &[Point]) -> Move {
        Move::Play(points[self.below(points.len())])
    }
}

/// How the adversary chooses among the plays it prefers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Policy {
    /// A random preferred play; any legal play only when none is preferred.
    Prefer,
    /// Recreate, else retake, else capture, else any legal play.
    Greedy,
    /// `Prefer`, except that one play in [`EXPLORE_ONE_IN`] is any legal play.
    Explore,
}

/// The legal board plays of the player to move, by what they do.
#[derive(Default)]
struct Plays {
    /// Plays after which the board is a position seen earlier in the game.
    recreate: Vec<Point>,
    /// Plays that capture the string whose last play captured.
    retake: Vec<Point>,
    /// Other plays that capture.
    capture: Vec<Point>,
    /// The rest.
    other: Vec<Point>,
}

impl Plays {
    /// The plays, and each refusal met on the way counted in `refusals`.
    fn of(game: &Game, seen: &HashSet<u64>, refusals: &mut BTreeMap<&'static str, u64>) -> Plays {
        let board = game.board();
        let me = game.to_move();
        // The liberty of the string that has just captured, when it has only that one.
        let retake_point = game
            .last_move()
            .filter(|m| !m.suicide && !m.removed.is_empty())
            .and_then(|m| match m.mv {
                Move::Play(p) => board.atari_liberty(p),
                Move::Pass => None,
            });
        let mut plays = Plays::default();
        for p in board.empty_points() {
            if let Some(kind) = game.illegal_reason(Move::Play(p)) {
                *refusals.entry(kind.code()).or_default() += 1;
                continue;
            }
            let a = board.analyze(p, me);
            if seen.contains(&a.hash_after) {
                plays.recreate.push(p);
            } else if retake_point == Some(p) {
                plays.retake.push(p);
            } else if a.captured_stones > 0 {
                plays.capture.push(p);
            } else {
                plays.other.push(p);
            }
        }
        plays
    }

    fn preferred(&self) -> Vec<Point> {
        [&self.recreate, &self.retake, &self.capture]
            .into_iter()
            .flatten()
            .copied()
            .collect()
    }

    fn all(&self) -> Vec<Point> {
        let mut all = self.preferred();
        all.extend_from_slice(&self.other);
        all
    }
}

/// The adversary's move: a pass that recreates an earlier situation (see the module's
/// documentation for how often), else a board play whenever one is
/// legal. Also says whether the pass was chosen on purpose.
fn choose(
    game: &Game,
    seen: &Seen,
    rng: &mut SplitMix64,
    policy: Policy,
    refusals: &mut BTreeMap<&'static str, u64>,
) -> (Move, bool) {
    let pass_recreates = seen
        .situations
        .contains(&(game.board().hash(), game.to_move().opponent()));
    let on_purpose = match policy {
        Policy::Greedy => true,
        Policy::Prefer => rng.below(2) == 0,
        // Rarely, so that exploring games still wander into long cycles.
        Policy::Explore => rng.below(8) == 0,
    };
    if pass_recreates && on_purpose {
        // Still look at the plays, for the refusals they meet.
        let _ = Plays::of(game, &seen.positions, refusals);
        return (Move::Pass, true);
    }
    (
        choose_play(game, &seen.positions, rng, policy, refusals),
        false,
    )
}

/// Positions and situations (position, player to move) that have stood in the game.
#[derive(Default)]
struct Seen {
    positions: HashSet<u64>,
    situations: HashSet<(u64, Color)>,
}

impl Seen {
    fn add(&mut self, game: &Game) -> bool {
        self.situations
            .insert((game.board().hash(), game.to_move()));
        self.positions.insert(game.board().hash())
    }
}

/// A board play whenever one is legal, else a pass.
fn choose_play(
    game: &Game,
    seen: &HashSet<u64>,
    rng: &mut SplitMix64,
    policy: Policy,
    refusals: &mut BTreeMap<&'static str, u64>,
) -> Move {
    let plays = Plays::of(game, seen, refusals);
    let all = plays.all();
    if all.is_empty() {
        return Move::Pass;
    }
    let preferred = plays.preferred();
    match policy {
        Policy::Greedy => {
            for class in [&plays.recreate, &plays.retake, &plays.capture] {
                if !class.is_empty() {
                    return rng.pick(class);
                }
            }
        }
        Policy::Explore if rng.below(EXPLORE_ONE_IN) == 0 => return rng.pick(&all),
        Policy::Prefer | Policy::Explore => {
            if !preferred.is_empty() {
                return rng.pick(&preferred);
            }
        }
    }
    rng.pick(&all)
}

/// What one game did.
struct Outcome {
    moves: usize,
    captures: usize,
    recreations: usize,
    /// Passes chosen because they recreated an earlier situation.
    recreating_passes: usize,
    /// Refusals met, by reason code.
    refusals: BTreeMap<&'static str, u64>,
}

/// Plays one adversarial game on an empty board to its end; panics when it exceeds
/// [`MAX_GAME_MOVES`].
fn play_game(size: usize, seed: u64, policy: Policy) -> Outcome {
    let setup = Setup::empty(size).expect("supported board size");
    play_game_from(setup, &[], &format!("{size}x{size}"), seed, policy)
}

/// Plays `prefix` from `setup`, then one adversarial game to its end.
fn play_game_from(
    setup: Setup,
    prefix: &[Move],
    label: &str,
    seed: u64,
    policy: Policy,
) -> Outcome {
    let mut rng = SplitMix64(seed);
    let mut game = Game::new(setup, Rules::ing());
    let mut seen = Seen::default();
    seen.add(&game);
    for &m in prefix {
        game.play(m)
            .unwrap_or_else(|e| panic!("{label}: the case's move failed: {e}"));
        seen.add(&game);
    }
    let mut out = Outcome {
        moves: 0,
        captures: 0,
        recreations: 0,
        recreating_passes: 0,
        refusals: BTreeMap::new(),
    };
    let describe = || format!("{label} game, {policy:?}, seed {seed:#x}");
    while game.phase() != Phase::Ended {
        assert!(
            game.move_count() < MAX_GAME_MOVES,
            "{} has not ended after {MAX_GAME_MOVES} moves; board now:\n{}",
            describe(),
            game.board().to_ascii()
        );
        let (mv, on_purpose) = choose(&game, &seen, &mut rng, policy, &mut out.refusals);
        if on_purpose {
            out.recreating_passes += 1;
        } else if mv == Move::Pass {
            // Otherwise the adversary passes only when it must; `legal_moves` must agree.
            assert_eq!(game.legal_moves(), [Move::Pass], "{}", describe());
        }
        game.play(mv)
            .unwrap_or_else(|e| panic!("{}: a move called legal failed: {e}", describe()));
        if mv != Move::Pass {
            let played = game.last_move().expect("a move was just played");
            if !played.suicide && !played.removed.is_empty() {
                out.captures += 1;
            }
            if seen.positions.contains(&game.board().hash()) {
                out.recreations += 1;
            }
        }
        seen.add(&game);
    }
    assert_eq!(game.end(), Some(&GameEnd::Passes), "{}", describe());
    assert_eq!(game.consecutive_passes(), 4, "{}", describe());
    out.moves = game.move_count();
    out
}

/// One board size's results.
#[derive(Clone, Debug, Default)]
struct Tally {
    games: u64,
    moves: u64,
    captures: u64,
    recreations: u64,
    longest: usize,
    longest_seed: u64,
    longest_policy: Option<Policy>,
    recreating_passes: u64,
    refusals: BTreeMap<&'static str, u64>,
}

impl Tally {
    fn add(&mut self, o: &Outcome, seed: u64, policy: Policy) {
        self.games += 1;
        self.moves += o.moves as u64;
        self.captures += o.captures as u64;
        self.recreations += o.recreations as u64;
        self.recreating_passes += o.recreating_passes as u64;
        for (k, n) in &o.refusals {
            *self.refusals.entry(k).or_default() += n;
        }
        if o.moves > self.longest {
            self.longest = o.moves;
            self.longest_seed = seed;
            self.longest_policy = Some(policy);
        }
    }

    fn report(&self, label: &str) {
        eprintln!(
            "{label}: {} games ended, {} moves, longest {} moves ({:?}, seed {:#x}), {} captures, \
             {} plays recreating an earlier position, {} passes recreating an earlier situation; \
             refusals {:?}",
            self.games,
            self.moves,
            self.longest,
            self.longest_policy.unwrap_or(Policy::Prefer),
            self.longest_seed,
            self.captures,
            self.recreations,
            self.recreating_passes,
            self.refusals
        );
    }
}

fn env_number(name: &str) -> Option<u64> {
    let value = env::var(name).ok()?;
    Some(
        value
            .replace('_', "")
            .parse()
            .unwrap_or_else(|_| panic!("{name} must be a number, not {value:?}")),
    )
}

/// docs/rules.md §4, "termination proof": a million moves or more by the cycle-seeking adversary on 2×2
/// to 5×5, and every game ends.
#[test]
fn adversary_cannot_cycle_forever() {
    let total = env_number("INGO_TERMINATION_MOVES").unwrap_or(DEFAULT_TOTAL_MOVES);
    let explore_all = env::var_os("INGO_TERMINATION_EXPLORE").is_some_and(|v| v != "0");
    let base = env_number("INGO_TERMINATION_SEED").unwrap_or(0x1A6C_4A66);
    let started = Instant::now();
    let tallies: Vec<(usize, Tally)> = thread::scope(|s| {
        let handles: Vec<_> = SHARES
            .iter()
            .map(|&(size, share)| {
                s.spawn(move || {
                    let budget = (total * share).div_ceil(100);
                    let explore = explore_all || size <= 3;
                    let mut t = Tally::default();
                    let mut g = 0u64;
                    while t.moves < budget {
                        let seed = base ^ ((size as u64) << 48) ^ g;
                        let policy = match g % 3 {
                            0 => Policy::Prefer,
                            1 => Policy::Greedy,
                            _ if explore => Policy::Explore,
                            _ => Policy::Prefer,
                        };
                        t.add(&play_game(size, seed, policy), seed, policy);
                        g += 1;
                    }
                    (size, t)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let elapsed = started.elapsed().as_secs_f64();
    for (size, t) in &tallies {
        t.report(&format!("termination {size}x{size}"));
    }
    let games: u64 = tallies.iter().map(|(_, t)| t.games).sum();
    let moves: u64 = tallies.iter().map(|(_, t)| t.moves).sum();
    let longest = tallies.iter().map(|(_, t)| t.longest).max().unwrap_or(0);
    eprintln!(
        "termination: boards 2x2 to 5x5, {games} games, every one ended by four passes; {moves} \
         moves, longest game {longest} moves; {elapsed:.1} s, {:.0} moves/s{}",
        moves as f64 / elapsed,
        if explore_all {
            " (exploring on every size)"
        } else {
            ""
        }
    );
    assert!(moves >= total, "played {moves} moves, wanted {total}");
}

/// The quick deterministic version: fixed seeds on 2×2 and 3×3, every policy.
#[test]
fn small_boards_fixed_seeds() {
    for size in [2usize, 3] {
        let mut t = Tally::default();
        for policy in [Policy::Prefer, Policy::Greedy, Policy::Explore] {
            for seed in 0..30u64 {
                t.add(&play_game(size, seed, policy), seed, policy);
            }
        }
        t.report(&format!("termination {size}x{size}, fixed seeds"));
        assert_eq!(t.games, 90);
        assert!(t.recreations > 0 && t.captures > 0, "{t:?}");
        assert!(t.recreating_passes > 0, "{t:?}");
        assert!(t.refusals.contains_key("cycle"), "no cycle refusal: {t:?}");
        if size == 3 {
            assert!(t.refusals.contains_key("hot-stone"), "{t:?}");
        }
    }
}

/// The spec's ko positions (`tests/data`): double ko (T7–T9), triple ko (T10), eternal life
/// (T11), send two return one (T12), quadruple ko (T13), with their side to move.
/// Each comes with the moves its case plays (the legal ones, in order), which lead into the
/// states its rules are about.
fn spec_ko_positions() -> Vec<(String, Setup, Vec<Move>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut out = Vec::new();
    for file in ["t07", "t08", "t09", "t10", "t11", "t12", "t13"] {
        let path = fs::read_dir(&dir)
            .expect("tests/data exists")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .find(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(file))
            })
            .unwrap_or_else(|| panic!("no {file} file in {}", dir.display()));
        let text = fs::read_to_string(&path).expect("readable");
        for case in text.split("\n===\n") {
            let mut to_move = Color::Black;
            let mut diagram = String::new();
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
                    for row in lines.by_ref() {
                        let r = row.trim();
                        if r.starts_with(|c: char| c.is_ascii_digit()) || r.starts_with('A') {
                            diagram.push_str(row);
                            diagram.push('\n');
                        } else {
                            break;
                        }
                    }
                }
            }
            let board = Board::from_ascii(&diagram).expect("a diagram");
            let (w, h) = (board.width(), board.height());
            let moves = moves
                .iter()
                .map(|m| Move::from_gtp(m, w, h).expect("a move of the board"))
                .collect();
            out.push((
                format!("{} ({})", path.display(), board.width()),
                Setup {
                    board,
                    to_move,
                    handicap_passes: 0,
                },
                moves,
            ));
        }
    }
    out
}

/// The adversary from the docs/rules.md ko positions, every policy, fixed seeds: every game ends, the
/// adversary passed on purpose to recreate situations, and every kind of ko refusal occurred.
#[test]
fn spec_ko_positions_fixed_seeds() {
    let mut t = Tally::default();
    for (label, setup, moves) in spec_ko_positions() {
        for policy in [Policy::Prefer, Policy::Greedy, Policy::Explore] {
            for seed in 0..12u64 {
                // The adversary takes over after a prefix of the case's own moves.
                let n = seed as usize % (moves.len() + 1);
                let o = play_game_from(setup.clone(), &moves[..n], &label, seed, policy);
                t.add(&o, seed, policy);
            }
        }
    }
    t.report("termination from the spec's ko positions");
    assert!(t.recreating_passes > 0, "{t:?}");
    for kind in [
        PlayErrorKind::HotStone,
        PlayErrorKind::DoubleHot,
        PlayErrorKind::TwinHot,
        PlayErrorKind::Disturbing,
        PlayErrorKind::Cycle,
    ] {
        assert!(
            t.refusals.contains_key(kind.code()),
            "no {kind} refusal from the spec's ko positions: {:?}",
            t.refusals
        );
    }
}
