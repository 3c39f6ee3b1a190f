//! The exhaustive search the capture-race tests check the reader against: the race played out
//! on the real board, every move of a given set tried for both sides, a pass allowed, two
//! passes in a row a seki. Shared by `tactics_semeai.rs` and `tactics_semeai_eyes.rs`, which
//! differ only in the moves they try.

use std::collections::HashMap;

use ingo_player::tactics::RaceOutcome;
use ingo_rules::{Board, Color, Point};

/// The moves tried in a position.
pub type Moves = fn(&Board, Point, Point) -> Vec<Point>;

/// The race between Black's string at `black` and White's at `white`: its value for Black
/// (`FirstWins`: Black takes White's string) with Black to move when `black_to_move`, after a
/// pass when `passed`; `moves` gives the points tried (sorted and deduplicated here).
pub fn search(
    b: &Board,
    (black, white): (Point, Point),
    black_to_move: bool,
    passed: bool,
    moves: Moves,
    memo: &mut HashMap<(u64, bool, bool), RaceOutcome>,
) -> RaceOutcome {
    if let Some(&v) = memo.get(&(b.hash(), black_to_move, passed)) {
        return v;
    }
    let color = if black_to_move {
        Color::Black
    } else {
        Color::White
    };
    let win = if black_to_move {
        RaceOutcome::FirstWins
    } else {
        RaceOutcome::SecondWins
    };
    let rank = |v: RaceOutcome| match v {
        v if v == win => 2,
        RaceOutcome::Seki => 1,
        _ => 0,
    };
    let mut best = if passed {
        RaceOutcome::Seki
    } else {
        search(b, (black, white), !black_to_move, true, moves, memo)
    };
    let mut tried = moves(b, black, white);
    tried.sort();
    tried.dedup();
    for m in tried {
        if b.analyze(m, color).suicide {
            continue;
        }
        let mut next = b.clone();
        next.play_unchecked(m, color, &mut Vec::new());
        let v = if next.color_at(white) != Some(Color::White) {
            RaceOutcome::FirstWins
        } else if next.color_at(black) != Some(Color::Black) {
            RaceOutcome::SecondWins
        } else {
            search(&next, (black, white), !black_to_move, false, moves, memo)
        };
        if rank(v) > rank(best) {
            best = v;
        }
        if best == win {
            break;
        }
    }
    memo.insert((b.hash(), black_to_move, passed), best);
    best
}
