//! Where Black puts its handicap stones while White makes its handicap passes (讓手).
//!
//! Under Ing's rules the handicap is White's passes, so Black places its extra stones freely,
//! one move at a time ("讓手…黑方自由著手"). A search from a nearly empty board cannot tell
//! these moves apart (light playouts on 19×19 are noise there) and spent them unevenly: ten
//! stones given by GNU Go went to the top and the left, and it lost every game. Players use the
//! star points, the placement of fixed handicaps (the GTP specification's `fixed_handicap`,
//! section 4.1.1, and every Go server's); so does this, for as many stones as there are star
//! points on the board, and lets the search place any further ones.

use ingo_rules::{Color, Game, Move, Point};

/// The handicap stone Black should play now, if this move is one of them: the game is a
/// handicap game, White has made nothing but its handicap passes, and the next star point of
/// the standard placement for the game's number of stones is empty. `None` otherwise (and for
/// every stone past the star points, which the search places).
pub(crate) fn stone(game: &Game) -> Option<Point> {
    let owed = usize::from(game.setup().handicap_passes);
    if owed == 0 || game.to_move() != Color::Black {
        return None;
    }
    // Black to move has moved as often as White: while White has only passed, at most `owed`
    // times, this is Black's move number `white + 1` of `owed + 1` handicap stones.
    let mut white = 0;
    for m in game.history().filter(|m| m.color == Color::White) {
        if m.mv != Move::Pass {
            return None;
        }
        white += 1;
    }
    if white > owed {
        return None;
    }
    let stones = owed + 1;
    let board = game.board();
    placement(board.width(), board.height(), stones)
        .into_iter()
        .filter_map(|(x, y)| Point::new(x, y))
        .find(|&p| board.color_at(p).is_none())
        .filter(|&p| game.is_legal(Move::Play(p)))
}

/// The star points of the standard placement of `stones` handicap stones on a `width` ×
/// `height` board, as (column, row) from the top left, in the order they are placed: the
/// corners first (lower left, upper right, upper left, lower right), then for five and seven
/// the centre, for six and more the left and right sides, for eight and nine the top and bottom
/// sides, and for nine the centre. Square boards of 7 to 25 lines; on boards under 13 the star
/// points are on the third line, else on the fourth. Sides and centre need an odd size.
pub(crate) fn placement(width: usize, height: usize, stones: usize) -> Vec<(usize, usize)> {
    if width != height || !(7..=25).contains(&width) || stones < 2 {
        return Vec::new();
    }
    let n = width;
    let d = if n >= 13 { 3 } else { 2 };
    let (lo, hi) = (d, n - 1 - d);
    let corners = [(lo, hi), (hi, lo), (lo, lo), (hi, hi)];
    let mut out: Vec<(usize, usize)> = corners.iter().copied().take(stones.min(4)).collect();
    if n.is_multiple_of(2) || stones <= 4 {
        return out;
    }
    let m = n / 2;
    let (centre, left_right, top_bottom) = ((m, m), [(lo, m), (hi, m)], [(m, lo), (m, hi)]);
    match stones.min(9) {
        5 => out.push(centre),
        6 => out.extend(left_right),
        7 => {
            out.extend(left_right);
            out.push(centre);
        }
        8 => {
            out.extend(left_right);
            out.extend(top_bottom);
        }
        _ => {
            out.extend(left_right);
            out.extend(top_bottom);
            out.push(centre);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ingo_rules::{Rules, Setup};

    fn names(size: usize, stones: usize) -> Vec<String> {
        placement(size, size, stones)
            .into_iter()
            .map(|(x, y)| Point::new(x, y).expect("on the board").to_gtp(size))
            .collect()
    }

    #[test]
    fn the_star_points_of_each_handicap() {
        assert_eq!(names(19, 2), ["D4", "Q16"]);
        assert_eq!(names(19, 4), ["D4", "Q16", "D16", "Q4"]);
        assert_eq!(names(19, 5), ["D4", "Q16", "D16", "Q4", "K10"]);
        assert_eq!(names(19, 6), ["D4", "Q16", "D16", "Q4", "D10", "Q10"]);
        assert_eq!(
            names(19, 7),
            ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K10"]
        );
        assert_eq!(
            names(19, 8),
            ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K16", "K4"]
        );
        assert_eq!(names(19, 9).len(), 9);
        assert_eq!(names(19, 11), names(19, 9));
        assert_eq!(names(9, 3), ["C3", "G7", "C7"]);
        assert_eq!(names(13, 5).last().map(String::as_str), Some("G7"));
        // An even size has no centre and no sides.
        assert_eq!(names(10, 9).len(), 4);
        assert!(names(5, 4).is_empty());
    }

    #[test]
    fn black_plays_the_star_points_until_white_plays() {
        let setup = Setup {
            handicap_passes: 3,
            ..Setup::empty(19).expect("size")
        };
        let mut g = Game::new(setup, Rules::ing());
        let mut played = Vec::new();
        while let Some(p) = stone(&g) {
            played.push(p.to_gtp(19));
            g.play(Move::Play(p)).expect("legal");
            if g.handicap_pass_due() {
                g.play(Move::Pass).expect("White's handicap pass");
            }
        }
        // Four stones, then White's turn.
        assert_eq!(played, ["D4", "Q16", "D16", "Q4"]);
        assert_eq!(g.to_move(), Color::White);
        // A point Black took before is skipped; none once White has played.
        let setup = Setup {
            handicap_passes: 1,
            ..Setup::empty(19).expect("size")
        };
        let mut g = Game::new(setup, Rules::ing());
        g.play(Move::Play(Point::from_gtp("D4", 19, 19).expect("point")))
            .expect("legal");
        g.play(Move::Pass).expect("handicap pass");
        assert_eq!(stone(&g).map(|p| p.to_gtp(19)).as_deref(), Some("Q16"));
        g.play(Move::Play(Point::from_gtp("C3", 19, 19).expect("point")))
            .expect("legal");
        g.play(Move::Play(Point::from_gtp("R17", 19, 19).expect("point")))
            .expect("legal");
        assert_eq!(stone(&g), None);
        // An even game has no handicap stones.
        let g = Game::new(Setup::empty(19).expect("size"), Rules::ing());
        assert_eq!(stone(&g), None);
    }
}
