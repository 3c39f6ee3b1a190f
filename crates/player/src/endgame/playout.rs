//! The playouts of the end-of-game analysis: light random play from the final position under
//! the game's own rules ([`Game::play`] decides every move), with one change to the player's
//! playouts: a side never puts a string of two or more stones into atari without capturing.
//! That keeps seki standing (neither side fills a shared liberty) and keeps a living group
//! from destroying itself, while a dead group still gets its outside liberties filled and is
//! captured (the capturing move is not self-atari). The last move is answered, in this order:
//! a string it left in atari is taken or saved; a string of the mover it left at two liberties
//! takes a string of the other side in atari beside it; and the other half of a double
//! connection it took is played.

use ingo_rules::{Board, Color, Game, Move, Phase, Point};

use crate::rng::Rng;

/// Uniform draws tried before the exhaustive scan of a move.
const QUICK_TRIES: usize = 4;

/// Moves per point of the board after which a playout stops.
const MOVES_PER_POINT: usize = 2;

/// What playing `color` on the empty point `p` would make: up to two liberties of the string
/// (with the strings it joins), and whether it captures.
pub(crate) struct After {
    pub(crate) liberties: usize,
    pub(crate) captures: bool,
    pub(crate) suicide: bool,
}

/// [`After`] for `color` on `p`, without changing the board.
pub(crate) fn after(board: &Board, p: Point, color: Color) -> After {
    let analysis = board.analyze(p, color);
    // Up to two distinct liberties of the string the play would make (`p` itself excluded).
    let mut libs: [Option<Point>; 2] = [None, None];
    let add = |q: Point, libs: &mut [Option<Point>; 2]| {
        if q != p && libs[0] != Some(q) && libs[1].is_none() {
            if libs[0].is_none() {
                libs[0] = Some(q);
            } else {
                libs[1] = Some(q);
            }
        }
    };
    let mut heads: [Option<Point>; 4] = [None; 4];
    for (k, q) in board.neighbors(p).enumerate() {
        match board.color_at(q) {
            None => add(q, &mut libs),
            Some(c) if c == color => {
                // q holds a stone, so it has a head.
                let h = board.string_head(q);
                if heads.contains(&h) {
                    continue;
                }
                heads[k] = h;
                for l in board.liberties_upto(q, 3) {
                    add(l, &mut libs);
                }
            }
            Some(_) => {}
        }
    }
    After {
        liberties: libs.iter().flatten().count(),
        captures: analysis.captured_stones > 0,
        suicide: analysis.suicide,
    }
}

/// Whether `color` on the empty point `p` would capture or leave its string at least two
/// liberties (the string with those it joins), and whether it joins a string of its own:
/// [`after`]'s questions, asked for every point a playout tries, so answered here with the
/// cheap checks first (an empty neighbour is a liberty, a capture is an atari of the other
/// side at `p`, both read in constant time) and the strings' liberties walked only when
/// neither settles it.
fn captures_or_breathes(board: &Board, p: Point, color: Color) -> (bool, bool) {
    // The one liberty other than `p` found so far; a second one settles the question.
    let mut lib: Option<Point> = None;
    let mut second = |q: Point| {
        if q == p || lib == Some(q) {
            false
        } else if lib.is_none() {
            lib = Some(q);
            false
        } else {
            true
        }
    };
    let mut joins = false;
    for q in board.neighbors(p) {
        match board.color_at(q) {
            None if second(q) => return (true, joins),
            None => {}
            Some(c) if c == color => joins = true,
            Some(_) if board.atari_liberty(q) == Some(p) => return (true, joins),
            Some(_) => {}
        }
    }
    // A string of ours in atari at `p` brings no liberty but `p`.
    for q in board.neighbors(p) {
        if board.color_at(q) == Some(color) && board.atari_liberty(q) != Some(p) {
            for l in board.liberties_upto(q, 3) {
                if second(l) {
                    return (true, true);
                }
            }
        }
    }
    (false, joins)
}

/// Whether `color` on the empty point `p` would leave a string of two or more stones with a
/// single liberty and capture nothing.
fn big_self_atari(board: &Board, p: Point, color: Color) -> bool {
    let (fine, joins) = captures_or_breathes(board, p, color);
    !fine && joins
}

/// Plays `game` on at random until two consecutive passes (or the move cap).
pub(crate) fn run(game: &mut Game, rng: &mut Rng, scratch: &mut Vec<Point>) {
    let cap = MOVES_PER_POINT * game.board().area();
    let mut moves = 0;
    while moves < cap && game.consecutive_passes() < 2 && game.phase() == Phase::Playing {
        let color = game.to_move();
        let acceptable = |game: &Game, p: Point| {
            let board = game.board();
            !board.is_eye_or_suicide(p, color) && !big_self_atari(board, p, color)
        };
        let mut played = false;
        // Answers to the last move first: capture a string it left in atari (its own or a
        // neighbour's), else save a string of ours it put in atari when the saving move gives
        // two liberties. Without them random play leaves strings in atari for many moves and
        // lets dead groups live or living ones die by chance.
        if let Some(p) = atari_answer(game, color) {
            played = game.play(Move::Play(p)).is_ok();
        }
        // Then a string the last move left at two liberties takes what it can beside it
        // (`09/T21`: White's six stones B12 … C10 live by taking Black's A12, which Black's D12
        // makes urgent), and a side keeps two strings joined by two shared liberties joined, as
        // players do. Without them random play misses the capture and cuts such a pair about
        // as often as not, and a group that lives through them dies in the playouts
        // (`ProAma/ProAmaHoninbo/14`: Black's 13 stones on the left join the centre through E10
        // and E11).
        if !played {
            if let Some(p) = capture_answer(game, color) {
                played = game.play(Move::Play(p)).is_ok();
            }
        }
        if !played {
            if let Some(p) = connection_answer(game, color) {
                played = acceptable(game, p) && game.play(Move::Play(p)).is_ok();
            }
        }
        // A few uniform draws first (most points are acceptable early on), then every empty
        // point in random order, so that a side passes only when it has no acceptable play.
        let n = game.board().empty_count();
        for _ in 0..QUICK_TRIES.min(n) {
            if played {
                break;
            }
            let p = game.board().empty_point(rng.below(n as u32) as usize);
            if acceptable(game, p) && game.play(Move::Play(p)).is_ok() {
                played = true;
                break;
            }
        }
        if !played {
            scratch.clear();
            scratch.extend(game.board().empty_points());
        }
        while !played && !scratch.is_empty() {
            let i = rng.below(scratch.len() as u32) as usize;
            let p = scratch.swap_remove(i);
            if acceptable(game, p) && game.play(Move::Play(p)).is_ok() {
                played = true;
            }
        }
        if !played && game.play(Move::Pass).is_err() {
            break;
        }
        moves += 1;
    }
}

/// The point of the last move when it was a play of the other side of `color` (its stone still
/// on the board).
fn last_play_of_other(game: &Game, color: Color) -> Option<Point> {
    match game.last_move()?.mv {
        Move::Play(p) if game.board().color_at(p) == Some(color.opponent()) => Some(p),
        _ => None,
    }
}

/// The answer of `color` to a last move of the other side that left a string of `color` with
/// two liberties: the capture of a string of the other side in atari touching it (a string at
/// two liberties in a race takes what it can before the other side takes its second liberty).
fn capture_answer(game: &Game, color: Color) -> Option<Point> {
    let last = last_play_of_other(game, color)?;
    let board = game.board();
    let mut walked: [Option<Point>; 4] = [None; 4];
    for (k, q) in board.neighbors(last).enumerate() {
        if board.color_at(q) != Some(color) || board.liberties_upto(q, 3).len() != 2 {
            continue;
        }
        // A string touching the last move on two sides is walked once.
        let head = board.string_head(q);
        if walked.contains(&head) {
            continue;
        }
        walked[k] = head;
        for s in board.string_stones(q) {
            for r in board.neighbors(s) {
                if board.color_at(r) != Some(color.opponent()) {
                    continue;
                }
                // A capture is never a suicide.
                if let Some(l) = board.atari_liberty(r) {
                    return Some(l);
                }
            }
        }
    }
    None
}

/// The answer of `color` to a last move of the other side on a liberty shared by two strings
/// of `color`: when those two strings now share exactly one liberty, that point (it joins
/// them). A double connection ("two ways to connect") played on one side is answered on the
/// other.
fn connection_answer(game: &Game, color: Color) -> Option<Point> {
    let last = last_play_of_other(game, color)?;
    let board = game.board();
    let mut heads: [Option<Point>; 4] = [None; 4];
    let mut n = 0;
    for q in board.neighbors(last) {
        if board.color_at(q) == Some(color) {
            let h = board.string_head(q);
            if !heads[..n].contains(&h) {
                heads[n] = h;
                n += 1;
            }
        }
    }
    if n < 2 {
        return None;
    }
    for i in 0..n {
        for j in i + 1..n {
            let (Some(a), Some(b)) = (heads[i], heads[j]) else {
                continue;
            };
            // The smaller string's stones are walked for the liberties the two share.
            let (a, b) = if board.string_size(a) <= board.string_size(b) {
                (a, b)
            } else {
                (b, a)
            };
            let mut shared: [Option<Point>; 2] = [None; 2];
            let mut count = 0;
            'walk: for s in board.string_stones(a) {
                for l in board.neighbors(s) {
                    if board.color_at(l).is_some() || shared[..count].contains(&Some(l)) {
                        continue;
                    }
                    if board.neighbors(l).any(|r| {
                        board.color_at(r) == Some(color) && board.string_head(r) == Some(b)
                    }) {
                        shared[count] = Some(l);
                        count += 1;
                        if count == 2 {
                            break 'walk;
                        }
                    }
                }
            }
            if count == 1 {
                return shared[0];
            }
        }
    }
    None
}

/// The answer of `color` to the last move, if it left a string in atari: the capture of an
/// opponent string (first), else the move that gives a string of `color` two liberties.
fn atari_answer(game: &Game, color: Color) -> Option<Point> {
    let last = match game.last_move()?.mv {
        Move::Play(p) => p,
        Move::Pass => return None,
    };
    let board = game.board();
    let mut save = None;
    for q in std::iter::once(last).chain(board.neighbors(last)) {
        let Some(c) = board.color_at(q) else {
            continue;
        };
        // The liberty of a string in atari, read from the board's liberty sums without a walk
        // of the string (this is the playouts' commonest question).
        let Some(l) = board.atari_liberty(q) else {
            continue;
        };
        // A capture is never a suicide; a save must capture or give two liberties.
        if c != color {
            return Some(l);
        } else if save.is_none() && captures_or_breathes(board, l, color).0 {
            save = Some(l);
        }
    }
    save
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What the play of `color` on `p` makes, asked of the board itself (the play made on a
    /// copy): whether it captures or leaves its string two liberties, and whether it leaves a
    /// string of two or more stones in atari capturing nothing (a suicide, which the copy may
    /// not take, captures nothing and leaves no liberty).
    fn by_playing(board: &Board, p: Point, color: Color) -> (bool, bool) {
        let joins = board.neighbors(p).any(|q| board.color_at(q) == Some(color));
        if board.analyze(p, color).suicide {
            return (false, joins);
        }
        let mut copy = board.clone();
        let mut removed = Vec::new();
        copy.play_unchecked(p, color, &mut removed);
        let libs = copy.liberties_upto(p, 2).len();
        (
            !removed.is_empty() || libs >= 2,
            removed.is_empty() && copy.string_size(p) >= 2 && libs < 2,
        )
    }

    proptest! {
        /// On boards of random stones, the shortcuts of `captures_or_breathes` and
        /// `big_self_atari` give the answers of the play itself, at every empty point and for
        /// both colours.
        #[test]
        fn the_playouts_shortcuts_answer_as_the_play_does(
            stones in proptest::collection::vec((0usize..49, any::<bool>()), 0..60),
        ) {
            let mut board = Board::new(7).expect("a 7x7 board");
            let points: Vec<Point> = board.points().collect();
            let mut removed = Vec::new();
            for (i, black) in stones {
                let (p, c) = (points[i], if black { Color::Black } else { Color::White });
                if board.color_at(p).is_none() && !board.analyze(p, c).suicide {
                    board.play_unchecked(p, c, &mut removed);
                }
            }
            let empty: Vec<Point> = board.empty_points().collect();
            for p in empty {
                for c in [Color::Black, Color::White] {
                    let fine = captures_or_breathes(&board, p, c).0;
                    let got = (fine, big_self_atari(&board, p, c));
                    prop_assert_eq!(got, by_playing(&board, p, c), "{:?} {:?}", p, c);
                }
            }
        }
    }
}
