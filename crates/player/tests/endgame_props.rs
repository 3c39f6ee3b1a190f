//! Invariants of the end-of-game judgement ([`judge_end`]) on random positions: it never
//! panics, it is deterministic, every stone has a status, and the fill is checked by playing it
//! again here: the judgement's fills, played in order on the final position (the dead stones as
//! stones of their capturer, as the method fills), are legal moves under the game's own rules
//! ([`Game::play_as`] decides, with a pass where a side has nothing to fill), they give the
//! judgement's filled board, and the strings they capture are among its dead. The positions are
//! random games on 9×9 (legal moves only, as [`Game::play`] decides them), stopped after up to
//! 160 moves, and early 19×19 boards.

use ingo_player::endgame::{judge_end, Decided, EndgameConfig, Judgement, Status};
use ingo_rules::{Board, Color, Game, Move, Point, Rules, Setup};
use proptest::prelude::*;

/// A random game: `picks` choose among the empty points (an illegal choice is a pass).
fn random_game(picks: &[u16], to_move: Color) -> Game {
    random_game_on(9, picks, to_move)
}

fn random_game_on(size: usize, picks: &[u16], to_move: Color) -> Game {
    let board = Board::with_dims(size, size).expect("a square board");
    let mut g = Game::new(
        Setup {
            board,
            to_move,
            handicap_passes: 0,
        },
        Rules::ing(),
    );
    for &k in picks {
        if g.end().is_some() {
            break;
        }
        let n = g.board().empty_count();
        if n == 0 {
            break;
        }
        let p = g.board().empty_point(usize::from(k) % n);
        if g.play(Move::Play(p)).is_err() && g.play(Move::Pass).is_err() {
            break;
        }
    }
    g
}

/// Plays `j`'s fills again on `game`'s final position and checks them against the judgement.
///
/// The board the fill starts from is the method's (docs/endgame.md, step 3): the final position
/// with every string judged dead before the fill (held by its owner in fewer than half of the
/// playouts, and not proved alive: step 2; or taken in a race at one liberty each) turned into
/// stones of its capturer: every dead string that does not say it was taken in the fill. The fills are
/// played on it in order by a [`Game`] under the game's rules, the side of each fill being the
/// side to move (a side with nothing to fill passes, so a pass is played where the same side
/// fills twice in a row; two passes would end the fill, so never two in a row); each must be
/// legal. Then:
///
/// * the judgement's filled board is the final position with, on each of its empty points, what
///   stands there after the fills (a fill captured later in the fill is gone);
/// * every string of the final position that the fills captured (one of its points no longer
///   holds its colour, the converted dead stones aside) is dead in the judgement, and every dead
///   string was either judged dead before the fill or captured by it.
///
/// Returns the filled board rebuilt here.
fn replay_fill(g: &Game, j: &Judgement) -> Result<Board, TestCaseError> {
    let board = g.board();
    let dead_before: Vec<Point> = j
        .strings
        .iter()
        .filter(|s| s.status == Status::Dead && s.how != Decided::TakenInFill)
        .flat_map(|s| s.stones.iter().copied())
        .collect();
    // Built stone by stone on an empty board (`set_stone` places on empty points only).
    let mut start = Board::with_dims(board.width(), board.height()).expect("the game's size");
    for p in board.points() {
        if let Some(c) = board.color_at(p) {
            let c = if dead_before.contains(&p) {
                c.opponent()
            } else {
                c
            };
            start.set_stone(p, c);
        }
    }
    let mut fill = Game::new(
        Setup {
            board: start,
            to_move: j.first_to_fill,
            handicap_passes: 0,
        },
        *g.rules(),
    );
    for (k, f) in j.fills.iter().enumerate() {
        if fill.to_move() != f.color {
            // The side to move had nothing to fill (the first to fill too, before the first
            // fill): it passed.
            prop_assert_eq!(
                fill.consecutive_passes(),
                0,
                "two passes in a row inside the fill: {:?}",
                j.fills
            );
            fill.play(Move::Pass)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
        if let Err(e) = fill.play_as(f.color, Move::Play(f.point)) {
            prop_assert!(
                false,
                "fill {} of {:?} is illegal under the game's rules: {}\n{}\nfills {:?}",
                k,
                f,
                e,
                board.to_ascii(),
                j.fills
            );
        }
    }
    let after = fill.board();
    let mut rebuilt = board.clone();
    for p in board.points() {
        if board.color_at(p).is_none() {
            if let Some(c) = after.color_at(p) {
                rebuilt.set_stone(p, c);
            }
        }
    }
    prop_assert_eq!(
        rebuilt.to_ascii(),
        j.filled.to_ascii(),
        "the fills played again do not give the filled board; fills {:?}",
        j.fills
    );
    // A string is taken when any of its stones is (the same side may fill a point of it again
    // later, as after a snapback: the string was still taken, and the stone filled there
    // stands inside the capturer's area).
    for s in &j.strings {
        let converted = s.stones.iter().any(|p| dead_before.contains(p));
        let taken = !converted && s.stones.iter().any(|&p| after.color_at(p) != Some(s.color));
        let dead = s.stones.iter().all(|p| j.dead.contains(p));
        prop_assert!(
            s.stones.iter().all(|p| j.dead.contains(p) == dead),
            "string {:?} is partly dead",
            s.stones
        );
        prop_assert!(
            !taken || dead,
            "string {:?} was captured by the fill but is not dead; fills {:?}",
            s.stones,
            j.fills
        );
        prop_assert!(
            !dead || converted || taken,
            "string {:?} is dead but was neither judged dead nor captured by the fill",
            s.stones
        );
        // A sampled verdict is the playouts': dead below one half.
        if let Decided::Sampled(held) = s.how {
            prop_assert_eq!(
                dead,
                held < 0.5,
                "string {:?} sampled at {}",
                s.stones,
                held
            );
        }
    }
    Ok(rebuilt)
}

/// The count of the board the fills make (rebuilt by [`replay_fill`]) without the dead stones,
/// by the rules' count ([`ingo_rules::score`], whose figures the rules crate checks against an
/// independent fill-in count), with the game's komi, penalties and tie rule.
fn count_of(g: &Game, filled: &Board, dead: &[Point]) -> ingo_rules::Score {
    ingo_rules::score(
        filled,
        dead,
        g.rules().komi,
        g.penalties(),
        g.rules().tie_even,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn judgement_holds_its_invariants(
        picks in proptest::collection::vec(any::<u16>(), 0..160),
        white_first in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let to_move = if white_first { Color::White } else { Color::Black };
        let g = random_game(&picks, to_move);
        let config = EndgameConfig { playouts: 16, seed, first_to_fill: None };
        let j = judge_end(&g, &config);
        prop_assert_eq!(&j, &judge_end(&g, &config));
        let board = g.board();
        let filled = replay_fill(&g, &j)?;
        // Every stone has a status; the dead stones are those of the dead strings.
        for p in board.points() {
            prop_assert_eq!(board.color_at(p).is_some(), j.status_at(p).is_some());
        }
        let mut dead: Vec<_> = j
            .strings
            .iter()
            .filter(|s| s.status == ingo_player::endgame::Status::Dead)
            .flat_map(|s| s.stones.iter().copied())
            .collect();
        dead.sort();
        prop_assert_eq!(&dead, &j.dead);
        // The count is that of the board the fills make, without the dead stones.
        prop_assert_eq!(count_of(&g, &filled, &j.dead), j.score);
    }

    /// A 19×19 board early in a game (a suspension after a few moves): hundreds of neutral
    /// points, filled without looking ahead; the fill is played again as on 9×9.
    #[test]
    fn an_early_board_is_filled_and_counted(
        picks in proptest::collection::vec(any::<u16>(), 0..30),
        seed in any::<u64>(),
    ) {
        let g = random_game_on(19, &picks, Color::Black);
        let config = EndgameConfig { playouts: 4, seed, first_to_fill: None };
        let j = judge_end(&g, &config);
        let filled = replay_fill(&g, &j)?;
        prop_assert_eq!(count_of(&g, &filled, &j.dead), j.score);
        // Without captures (every string of an early board has room), the fills and the
        // points left shared are distinct empty points of the board.
        let empty = g.board().empty_count();
        prop_assert!(j.fills.len() + j.seki_points.len() <= empty);
        for f in &j.fills {
            prop_assert!(!j.seki_points.contains(&f.point));
        }
    }
}
