//! Plays the moves an input describes and checks the invariants of `ingo-rules` after each one
//! (design note 26): the incremental hash equals the recomputed one, every string has a liberty,
//! stones are conserved against the history, counting adds up, a refused move changes nothing,
//! `undo` restores the exact state before the move, `legal_moves()` agrees with `is_legal` on
//! small boards, and a new game replaying the history reaches the same state.
//!
//! Input: four bytes of the game ([`crate::game_input`]: width, preset and who starts, height,
//! penalties), then one byte per action: 250–255 a pass, 248–249 an undo, anything else a point
//! (the byte modulo the number of points, row by row). Illegal plays are skipped after checking
//! that they leave the game unchanged.

use ingo_rules::{Board, Color, Game, Move, Phase, Point, SuicideRule};

/// Boards up to this many points get the full `legal_moves` ⇔ `is_legal` check at every step.
const SMALL: usize = 49;

/// At most this many actions per input, so that one input stays fast (each undo replays the game).
const MAX_ACTIONS: usize = 400;

/// What can be observed of a game; equal snapshots mean the same state as far as play goes.
#[derive(Debug, PartialEq)]
struct Snapshot {
    board: Board,
    hash: u64,
    situation: u64,
    to_move: Color,
    phase: Phase,
    move_count: usize,
    consecutive_passes: u32,
    legal_moves: Vec<Move>,
}

impl Snapshot {
    fn of(game: &Game) -> Snapshot {
        Snapshot {
            board: game.board().clone(),
            hash: game.board().hash(),
            situation: game.situation_hash(),
            to_move: game.to_move(),
            phase: game.phase(),
            move_count: game.move_count(),
            consecutive_passes: game.consecutive_passes(),
            legal_moves: game.legal_moves(),
        }
    }
}

fn check_invariants(game: &Game, start: &Board) {
    let board = game.board();
    assert_eq!(board.hash(), board.recompute_hash(), "incremental hash");
    assert!(
        board.all_strings_have_liberties(),
        "a string without liberties"
    );

    // Stones on the board = setup stones + stones played − stones removed, per colour.
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
        assert_eq!(lost, game.stones_lost(color));
        assert_eq!(
            board.stone_count(color),
            start.stone_count(color) + placed - lost
        );
    }
    assert_eq!(
        board.empty_count() + board.stone_count(Color::Black) + board.stone_count(Color::White),
        board.area()
    );

    if let Some(last) = game.last_move() {
        if last.suicide {
            match game.rules().suicide {
                SuicideRule::None => panic!("suicide under a no-suicide rule"),
                SuicideRule::BlockOnly => assert!(last.removed.len() >= 2, "one-stone suicide"),
                SuicideRule::All => {}
            }
        }
    }

    // Counting: every point counts for Black, White or both.
    let score = game.count(&[]);
    assert_eq!(
        score.area.black + score.area.white + score.shared,
        board.area()
    );
    let pen = game.penalties();
    assert_eq!(
        score.margin_halves,
        2 * (score.area.black as i32 - score.area.white as i32)
            - game.rules().komi.halves()
            - 2 * pen.black
            + 2 * pen.white
    );
    assert_eq!(score.fill_in.margin(), score.margin());

    // legal_moves ⇔ is_legal ⇔ no illegal_reason.
    let legal = game.legal_moves();
    assert_eq!(legal.contains(&Move::Pass), game.phase() != Phase::Ended);
    if board.area() <= SMALL {
        for mv in board.points().map(Move::Play).chain([Move::Pass]) {
            let listed = legal.contains(&mv);
            assert_eq!(game.is_legal(mv), listed, "is_legal({mv:?})");
            assert_eq!(
                game.illegal_reason(mv).is_none(),
                listed,
                "illegal_reason({mv:?})"
            );
        }
    } else {
        for &mv in &legal {
            assert!(game.is_legal(mv));
        }
    }
}

/// The target's body: runs one input, and panics when a check fails.
pub fn run(data: &[u8]) {
    let Some((mut game, actions)) = crate::game_input::start(data) else {
        return;
    };
    let board = game.board().clone();
    let points: Vec<Point> = board.points().collect();

    // snapshots[i] is the state after i moves.
    let mut snapshots = vec![Snapshot::of(&game)];
    check_invariants(&game, &board);
    for &byte in actions.iter().take(MAX_ACTIONS) {
        if (248..250).contains(&byte) {
            if game.undo().is_ok() {
                snapshots.pop();
                assert_eq!(&Snapshot::of(&game), snapshots.last().expect("the start"));
            } else {
                assert_eq!(game.move_count(), 0);
            }
            continue;
        }
        let mv = if byte >= 250 {
            Move::Pass
        } else {
            Move::Play(points[byte as usize % points.len()])
        };
        let before = snapshots.last().expect("the start");
        match game.illegal_reason(mv) {
            Some(kind) => {
                let err = game
                    .play(mv)
                    .expect_err("illegal_reason said it is illegal");
                assert_eq!(err.kind, kind);
                assert_eq!(
                    &Snapshot::of(&game),
                    before,
                    "a refused move changed the game"
                );
            }
            None => {
                // play then undo restores everything, then the move is played for good.
                game.play(mv).expect("illegal_reason said it is legal");
                assert_eq!(game.undo().expect("a move was played"), mv);
                assert_eq!(&Snapshot::of(&game), before, "play {mv:?} then undo");
                game.play(mv).expect("legal again after undo");
                check_invariants(&game, &board);
                snapshots.push(Snapshot::of(&game));
            }
        }
    }

    // A new game replaying the history reaches the same state.
    let Some((mut fresh, _)) = crate::game_input::start(data) else {
        unreachable!("the input was read above");
    };
    let moves: Vec<(Color, Move)> = game.history().map(|m| (m.color, m.mv)).collect();
    for (color, mv) in moves {
        fresh.play_as(color, mv).expect("a played move replays");
    }
    assert_eq!(Snapshot::of(&fresh), *snapshots.last().expect("recorded"));
}
