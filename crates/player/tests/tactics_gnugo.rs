//! Differential test of the tactical reader against GNU Go 3.8's reading: on small random
//! positions, the verdicts of [`Reader::can_capture`] and [`Reader::can_save`] for every string
//! with one to three liberties are compared with GNU Go's GTP `attack` and `defend` on the same
//! stones, where both are decided: GNU Go's answer `0` (fails) or `1` (succeeds), not its ko
//! results `2` and `3`, and the reader's `Yes` or `No`, not `Unknown`.
//!
//! The two readers are not the same program: GNU Go tries more moves (back-filling, edge
//! clamps, its own move patterns), narrows them with depth by its own rules, and counts a
//! string with five liberties as safe where this reader stops at four. So the test holds a
//! floor on the agreement, the share of the decided pairs where both say the same, and prints
//! the figures and the disagreements; `-- --nocapture` shows them.
//!
//! The ladders likewise: [`Reader::ladder`] with the attacker to move against GNU Go's
//! `ladder_attack`, for every string with two liberties, on more positions (a ladder reads in
//! tens of nodes), where every decided ladder must agree.
//!
//! Positions: random games on 9×9 (seeds 0..GAMES, 0..LADDER_GAMES for the ladders), legal under Ing's rules and without block
//! suicide (which GNU Go forbids), stopped after 20 to 80 moves, the stones then given to GNU Go
//! by `play`, Black's first (a legal position is set up that way without a capture), so that
//! neither reader has a history to judge a ko by. GNU Go is found by [`ingo_testkit::gnugo`]:
//! missing, the test prints a note and passes, except under CI, where it fails.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

use ingo_player::tactics::{Limits, Reader, Verdict};
use ingo_rules::{Board, Color, Game, Move, Point, Rules, Setup, SplitMix64};

const SIZE: usize = 9;
const GAMES: u64 = 60;

/// The least share of decided pairs on which the reader and GNU Go agree.
const AGREEMENT_FLOOR: f64 = 0.97;

struct Gnugo {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Gnugo {
    fn start(path: &std::path::Path) -> Gnugo {
        let mut child = Command::new(path)
            .args(["--mode", "gtp"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("GNU Go starts");
        let input = child.stdin.take().expect("piped stdin");
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        Gnugo {
            child,
            input,
            output,
        }
    }

    /// Sends one command; its answer without the `= `, or a panic on `?`.
    fn send(&mut self, command: &str) -> String {
        writeln!(self.input, "{command}").expect("GNU Go reads");
        self.input.flush().expect("GNU Go reads");
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            let n = self.output.read_line(&mut line).expect("GNU Go answers");
            assert!(n > 0, "GNU Go closed its output after {command:?}");
            if line.trim().is_empty() {
                if !answer.is_empty() {
                    break;
                }
                continue;
            }
            answer.push_str(line.trim_end());
        }
        match answer.strip_prefix('=') {
            Some(rest) => rest.trim().to_string(),
            None => panic!("GNU Go refused {command:?}: {answer}"),
        }
    }
}

impl Gnugo {
    /// Gives GNU Go the stones of `b`, Black's first.
    fn set_up(&mut self, b: &Board) {
        self.send(&format!("boardsize {SIZE}"));
        self.send("clear_board");
        for color in [Color::Black, Color::White] {
            for p in b.points().filter(|&p| b.color_at(p) == Some(color)) {
                self.send(&format!("play {} {}", color.letter(), p.to_gtp(SIZE)));
            }
        }
    }
}

impl Drop for Gnugo {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}

/// A random position: up to `moves` random plays, none of them a suicide.
fn random_board(seed: u64) -> Board {
    let mut rng = SplitMix64::new(seed);
    let mut g = Game::new(
        Setup {
            board: Board::with_dims(SIZE, SIZE).expect("9x9"),
            to_move: Color::Black,
            handicap_passes: 0,
        },
        Rules::ing(),
    );
    let moves = 20 + rng.next_u64() % 61;
    for _ in 0..moves {
        let n = g.board().empty_count();
        if n == 0 {
            break;
        }
        let mut played = false;
        for _ in 0..8 {
            let p = g.board().empty_point((rng.next_u64() % n as u64) as usize);
            if g.board().analyze(p, g.to_move()).suicide {
                continue;
            }
            if g.play(Move::Play(p)).is_ok() {
                played = true;
                break;
            }
        }
        if !played && g.play(Move::Pass).is_err() {
            break;
        }
    }
    g.board().clone()
}

/// GNU Go's verdict: `Some(true)` for `1 …`, `Some(false)` for `0`, `None` for a ko result.
fn gnugo_verdict(answer: &str) -> Option<bool> {
    match answer.split_whitespace().next() {
        Some("0") => Some(false),
        Some("1") => Some(true),
        _ => None,
    }
}

fn ours(v: Verdict) -> Option<bool> {
    match v {
        Verdict::Yes => Some(true),
        Verdict::No => Some(false),
        Verdict::Unknown => None,
    }
}

#[test]
fn attack_and_defend_agree_with_gnugo() {
    let Some(path) = ingo_testkit::gnugo() else {
        return;
    };
    let mut gnugo = Gnugo::start(&path);
    let mut reader = Reader::new();
    let limits = Limits::default();
    let (mut decided, mut agree, mut unknown, mut gnugo_ko, mut nodes) = (0u32, 0u32, 0, 0, 0u64);
    let mut disagreements = Vec::new();
    let started = Instant::now();
    let mut reading_time = std::time::Duration::ZERO;
    for seed in 0..GAMES {
        let b = random_board(seed);
        gnugo.set_up(&b);
        let mut heads: Vec<Point> = b
            .points()
            .filter_map(|p| b.string_head(p))
            .filter(|&h| (1..=3).contains(&b.liberty_count(h)))
            .collect();
        heads.sort();
        heads.dedup();
        for h in heads {
            let name = h.to_gtp(SIZE);
            for (question, attack) in [("attack", true), ("defend", false)] {
                let theirs = gnugo_verdict(&gnugo.send(&format!("{question} {name}")));
                let t = Instant::now();
                let r = if attack {
                    reader.can_capture(&b, h, &limits)
                } else {
                    reader.can_save(&b, h, &limits)
                }
                .expect("a stone");
                reading_time += t.elapsed();
                nodes += r.nodes;
                match (ours(r.verdict), theirs) {
                    (_, None) => gnugo_ko += 1,
                    (None, Some(_)) => unknown += 1,
                    (Some(x), Some(y)) => {
                        decided += 1;
                        if x == y {
                            agree += 1;
                        } else {
                            disagreements.push(format!(
                                "seed {seed} {question} {name}: ingo {:?}, GNU Go {y}\n{b:?}",
                                r.verdict
                            ));
                        }
                    }
                }
            }
        }
    }
    let rate = f64::from(agree) / f64::from(decided.max(1));
    println!(
        "{GAMES} positions: {decided} decided pairs, {agree} agree ({:.1}%), {unknown} unknown \
         to ingo, {gnugo_ko} ko to GNU Go; {nodes} nodes in {:.3} s of reading \
         ({:.0} nodes/s); {:.1} s in all",
        100.0 * rate,
        reading_time.as_secs_f64(),
        nodes as f64 / reading_time.as_secs_f64().max(1e-9),
        started.elapsed().as_secs_f64()
    );
    for d in disagreements.iter().take(6) {
        println!("{d}");
    }
    assert!(decided >= 200, "only {decided} decided pairs");
    assert!(
        rate >= AGREEMENT_FLOOR,
        "agreement {:.1}% below {:.0}%: first disagreements:\n{}",
        100.0 * rate,
        100.0 * AGREEMENT_FLOOR,
        disagreements[..disagreements.len().min(3)].join("\n")
    );
}

/// Positions for the ladders (seeds 0..LADDER_GAMES): a ladder reads in tens of nodes.
const LADDER_GAMES: u64 = 300;

/// The least share of decided ladders on which the reader and GNU Go's `ladder_attack` agree:
/// all of them, as measured.
const LADDER_FLOOR: f64 = 1.0;

#[test]
fn ladders_agree_with_gnugo() {
    let Some(path) = ingo_testkit::gnugo() else {
        return;
    };
    let mut gnugo = Gnugo::start(&path);
    let mut reader = Reader::new();
    let limits = Limits::default();
    let (mut decided, mut agree, mut unknown, mut gnugo_ko, mut captured) = (0u32, 0u32, 0, 0, 0);
    let mut disagreements = Vec::new();
    for seed in 0..LADDER_GAMES {
        let b = random_board(seed);
        gnugo.set_up(&b);
        let mut heads: Vec<Point> = b
            .points()
            .filter_map(|p| b.string_head(p))
            .filter(|&h| b.liberty_count(h) == 2)
            .collect();
        heads.sort();
        heads.dedup();
        for h in heads {
            let name = h.to_gtp(SIZE);
            let theirs = gnugo_verdict(&gnugo.send(&format!("ladder_attack {name}")));
            let r = reader.ladder(&b, h, true, &limits).expect("a stone");
            match (ours(r.verdict), theirs) {
                (_, None) => gnugo_ko += 1,
                (None, Some(_)) => unknown += 1,
                (Some(x), Some(y)) => {
                    decided += 1;
                    captured += u32::from(y);
                    if x == y {
                        agree += 1;
                    } else {
                        disagreements.push(format!(
                            "seed {seed} ladder_attack {name}: ingo {:?}, GNU Go {y}\n{b:?}",
                            r.verdict
                        ));
                    }
                }
            }
        }
    }
    let rate = f64::from(agree) / f64::from(decided.max(1));
    println!(
        "{LADDER_GAMES} positions: {decided} decided ladders ({captured} captured by GNU Go), {agree} \
         agree ({:.1}%), {unknown} unknown to ingo, {gnugo_ko} ko to GNU Go",
        100.0 * rate
    );
    for d in disagreements.iter().take(6) {
        println!("{d}");
    }
    assert!(decided >= 100, "only {decided} decided ladders");
    assert!(
        rate >= LADDER_FLOOR,
        "agreement {:.1}% below {:.0}%: first disagreements:\n{}",
        100.0 * rate,
        100.0 * LADDER_FLOOR,
        disagreements[..disagreements.len().min(3)].join("\n")
    );
}
