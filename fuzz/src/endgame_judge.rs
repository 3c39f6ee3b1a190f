//! The end-of-game judgement (`ingo_player::endgame::judge_end`, what `final_score`, `ingo
//! score`, `judge --verify`, the referee and the server's dead-stone proposal use) on any game
//! an input describes, on every preset and board shape from 1×1 to 13×13. Nothing may panic,
//! and the judgement holds: the same for the same seed; a status for every stone and none for an
//! empty point; the dead stones those of the dead strings; the fills on points that are empty
//! in the final position; and the count adds up (area and shared points are the board's points).
//!
//! Input: the game of [`crate::game_input`], then one byte per move (250–255 a pass, anything
//! else a point: the byte modulo the number of points), illegal ones skipped, until the game
//! ends or the input does; the last byte also seeds the playouts.

use ingo_player::endgame::{judge_end, EndgameConfig, Status};
use ingo_rules::{Move, Point};

/// At most this many moves per input.
const MAX_MOVES: usize = 300;

/// The target's body: runs one input, and panics when a check fails.
pub fn run(data: &[u8]) {
    let Some((mut game, actions)) = crate::game_input::start(data) else {
        return;
    };
    let points: Vec<Point> = game.board().points().collect();
    for &byte in actions.iter().take(MAX_MOVES) {
        if game.end().is_some() {
            break;
        }
        let mv = if byte >= 250 {
            Move::Pass
        } else {
            Move::Play(points[byte as usize % points.len()])
        };
        let _ = game.play(mv);
    }
    let config = EndgameConfig {
        playouts: 8,
        seed: u64::from(actions.last().copied().unwrap_or(0)),
        first_to_fill: None,
    };
    let j = judge_end(&game, &config);
    assert_eq!(
        j,
        judge_end(&game, &config),
        "the same seed, the same judgement"
    );
    let board = game.board();
    for &p in &points {
        assert_eq!(
            board.color_at(p).is_some(),
            j.status_at(p).is_some(),
            "a status for each stone at {p:?}"
        );
    }
    let mut dead: Vec<Point> = j
        .strings
        .iter()
        .filter(|s| s.status == Status::Dead)
        .flat_map(|s| s.stones.iter().copied())
        .collect();
    dead.sort();
    assert_eq!(
        dead, j.dead,
        "the dead stones are those of the dead strings"
    );
    for f in &j.fills {
        assert!(
            points.contains(&f.point),
            "a fill on the board: {:?}",
            f.point
        );
    }
    let s = &j.score;
    assert_eq!(
        s.area.black + s.area.white + s.shared,
        points.len(),
        "area and shared points are the board's points"
    );
}
