//! Closed capture races, read before the playouts' verdicts stand ([`read_races`]): between two
//! strings, or two groups of strings each joined through one eye of its own (a race side,
//! [`race_sides`]), counted on their liberties with their eyes
//! ([`crate::tactics::capture_race_with_eyes`], [`crate::tactics::group_race_with_eyes`]).

use ingo_rules::{Board, Color, Point};

use super::{lives_after_taking, two_eyes, Decided, Grid, Status, StringStatus};
use crate::tactics::empty_region;

/// The most points of an eye a race side is joined through (the largest that
/// [`crate::tactics::eye_liberties`] counts).
const SIDE_EYE: usize = 6;

/// One side of a race: a string, or the strings of one colour around one eye of theirs.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Side {
    /// Its strings (indices into the judgement's strings), sorted.
    strings: Vec<usize>,
    /// Their stones.
    stones: Vec<Point>,
    /// The string the other side attacks: the one with the fewest liberties.
    target: usize,
}

/// The eyes of `string`: the empty regions next to it of at most [`SIDE_EYE`] points whose
/// stones around are all of its colour; `None` when one such region is larger (room to live).
fn small_eyes(board: &Board, string: &StringStatus) -> Option<Vec<Vec<Point>>> {
    let mut eyes: Vec<Vec<Point>> = Vec::new();
    for l in crate::tactics::liberty_points(board, &string.stones) {
        if eyes.iter().any(|e| e.contains(&l)) {
            continue;
        }
        let (mut region, own) = empty_region(board, l, SIDE_EYE, |q| {
            board.color_at(q) == Some(string.color)
        });
        if !own {
            continue;
        }
        if region.len() > SIDE_EYE {
            return None;
        }
        region.sort();
        eyes.push(region);
    }
    Some(eyes)
}

/// The race side of every string not proved alive: the string alone, or, when it has exactly
/// one eye ([`small_eyes`]) that other strings of its colour border too, all the strings
/// around that eye, provided each of them has that eye and no other and no empty point
/// outside the eye touches two of them (they can join only by filling their own eye, so the
/// side is as strong as its weakest string with the eye: the other side fills that string's
/// liberties, then the eye, and takes it and the side's only eye with it). Each side once.
fn race_sides(
    board: &Board,
    grid: &Grid,
    strings: &[StringStatus],
    string_of: &[usize],
) -> Vec<Side> {
    let liberties = |i: usize| crate::tactics::liberty_points(board, &strings[i].stones);
    // Each string's eyes, once (none for a string proved alive).
    let eyes: Vec<Option<Vec<Vec<Point>>>> = strings
        .iter()
        .map(|s| if s.proved { None } else { small_eyes(board, s) })
        .collect();
    let mut sides: Vec<Side> = Vec::new();
    for (i, s) in strings.iter().enumerate() {
        if s.proved {
            continue;
        }
        let mut members = vec![i];
        if let Some([eye]) = eyes[i].as_deref() {
            let mut around: Vec<usize> = eye
                .iter()
                .flat_map(|&p| board.neighbors(p))
                .filter(|&q| board.color_at(q) == Some(s.color))
                .map(|q| string_of[grid.index(q)])
                .collect();
            around.sort_unstable();
            around.dedup();
            let same_eye = |j: usize| matches!(eyes[j].as_deref(), Some([e]) if e == eye);
            let mut outside: Vec<Point> = Vec::new();
            let mut joins = false;
            for &j in &around {
                for l in liberties(j) {
                    if eye.contains(&l) {
                        continue;
                    }
                    joins |= outside.contains(&l);
                    outside.push(l);
                }
            }
            if around.len() > 1 && !joins && around.iter().all(|&j| same_eye(j)) {
                members = around;
            }
        }
        members.sort_unstable();
        if sides.iter().any(|side| side.strings == members) {
            continue;
        }
        let Some(target) = members
            .iter()
            .copied()
            .min_by_key(|&j| (liberties(j).len(), j))
        else {
            continue;
        };
        let stones = members
            .iter()
            .flat_map(|&j| strings[j].stones.iter().copied())
            .collect();
        sides.push(Side {
            strings: members,
            stones,
            target,
        });
    }
    sides
}

/// Capture races between two adjacent race sides of both colours ([`race_sides`]: a string, or
/// strings joined through one eye of theirs) that one of them loses whoever moves first,
/// counted on the liberties of each side's weakest string with the side's eye
/// ([`crate::tactics::group_race_with_eyes`], which between two strings counts as
/// [`crate::tactics::capture_race_with_eyes`] does): the loser is dead. Read only where the count is
/// the whole race: no string proved alive, each target with at most eight liberties, and every
/// empty region next to either side (other than an eye) made of liberties of the two sides
/// only and closed by their stones and stones of the other colour than the side it is a
/// liberty of, whose strings have three liberties or more (filled at once, without an approach
/// move, and no third string short of liberties).
pub(super) fn read_races(
    board: &Board,
    grid: &Grid,
    strings: &mut [StringStatus],
    string_of: &[usize],
) {
    use crate::tactics::{group_race_with_eyes, RaceEye, RaceOutcome};
    let sides = race_sides(board, grid, strings, string_of);
    let mut side_of = vec![usize::MAX; strings.len()];
    for (k, side) in sides.iter().enumerate() {
        for &j in &side.strings {
            if side_of[j] == usize::MAX {
                side_of[j] = k;
            }
        }
    }
    let liberty_count = |i: usize| crate::tactics::liberty_points(board, &strings[i].stones).len();
    let mut lost: Vec<(usize, usize)> = Vec::new();
    for (ka, a) in sides.iter().enumerate() {
        if strings[a.target].color != Color::Black || liberty_count(a.target) > 8 {
            continue;
        }
        let mut seen = Vec::new();
        for q in a.stones.iter().flat_map(|&p| board.neighbors(p)) {
            if board.color_at(q) != Some(Color::White) {
                continue;
            }
            let kb = side_of[string_of[grid.index(q)]];
            if seen.contains(&kb) {
                continue;
            }
            seen.push(kb);
            let Some(b) = sides.get(kb) else {
                continue;
            };
            if liberty_count(b.target) > 8
                || ko_target(strings, a)
                || ko_target(strings, b)
                || !race_is_closed(board, &a.stones, &b.stones)
                || short_aside(board, strings, a, b)
                || short_aside(board, strings, b, a)
            {
                continue;
            }
            let targets = (&strings[a.target].stones, &strings[b.target].stones);
            let Ok(r) = group_race_with_eyes(board, (&a.stones, targets.0), (&b.stones, targets.1))
            else {
                continue;
            };
            // A side with two eyes or room of its own is no racer: the other side is then
            // simply surrounded, which is the playouts' business (and its liberties may be
            // those of a third string short of liberties, which the count does not see).
            if r.first_eye == RaceEye::Alive || r.second_eye == RaceEye::Alive {
                continue;
            }
            match (r.first_to_move, r.second_to_move) {
                (RaceOutcome::FirstWins, RaceOutcome::FirstWins) => lost.push((kb, ka)),
                (RaceOutcome::SecondWins, RaceOutcome::SecondWins) => lost.push((ka, kb)),
                _ => {}
            }
        }
    }
    // The winner lives when the space it takes gives two eyes whoever plays there next, or
    // is one eye of the strings around it beside another eye of theirs (a string that loses
    // another race aside); otherwise it keeps its verdict: a race won can leave it one eye (a
    // nakade in the space it takes, as in a pyramid four). The race is one
    // fight, as at one liberty each: when the winner is dead all the same, the race settles
    // nothing and the playouts' verdicts stand. Else the loser is dead, and says so even when
    // the playouts had it dead too: the reading is the firmer ground.
    let losers: Vec<usize> = lost
        .iter()
        .flat_map(|&(l, _)| sides[l].strings.iter().copied())
        .collect();
    for &(loser, winner) in &lost {
        let (loser, winner) = (&sides[loser], &sides[winner]);
        if !winner.strings.iter().any(|w| losers.contains(w)) {
            let color = strings[winner.target].color;
            let mut alive: Vec<usize> = Vec::new();
            if two_eyes(board, &loser.stones) {
                alive.extend(winner.strings.iter().copied());
            } else if let Some(group) = lives_after_taking(board, &loser.stones, color) {
                alive.extend(group.iter().map(|&q| string_of[grid.index(q)]));
            }
            for i in alive {
                if let Some(s) = strings.get_mut(i) {
                    if s.status == Status::Dead && !s.proved {
                        s.status = Status::Alive;
                        s.how = Decided::WonRace;
                    }
                }
            }
        }
        if winner
            .strings
            .iter()
            .any(|&w| strings[w].status == Status::Dead)
        {
            continue;
        }
        for &l in &loser.strings {
            if let Some(s) = strings.get_mut(l) {
                s.status = Status::Dead;
                s.how = Decided::LostRace;
            }
        }
    }
}

/// Whether the target of a side of several strings is a single stone: taken through the eye,
/// it leaves the taker's stone in atari, a ko, and the side's other strings stand (a race
/// between them and the taker, not the end of the side). `IgoFestival2008/4` (9×9): White's
/// `J8`, in atari at its eye `J9` beside its string `G9` … `J5`; Black's take at `J9` is a ko.
fn ko_target(strings: &[StringStatus], side: &Side) -> bool {
    side.strings.len() > 1 && strings[side.target].stones.len() == 1
}

/// Whether the side `a` would shorten a string of its own the race does not count by filling a
/// liberty of `b`: a liberty of `b` next to a string of `a` other than its target, where `a`'s
/// stone would leave that string fewer than two liberties. The count takes that fill for a
/// free one; on the board the other side then takes the string through the eye, and the eye
/// with it (`01/09`'s upper right: White's `R19 S19` and `T18` around the eye `T19`; White's
/// fill at `R18`, Black's liberty, leaves `R19 S19 R18` the eye alone, and Black takes them
/// at `T19`: a seki, not a race Black loses).
fn short_aside(board: &Board, strings: &[StringStatus], a: &Side, b: &Side) -> bool {
    let lb = crate::tactics::liberty_points(board, &b.stones);
    let color = strings[a.target].color;
    a.strings.iter().filter(|&&j| j != a.target).any(|&j| {
        crate::tactics::liberty_points(board, &strings[j].stones)
            .into_iter()
            .filter(|l| lb.contains(l))
            .any(|l| crate::tactics::liberties_after_play(board, l, color) < 2)
    })
}

/// Whether the race between the sides `a` and `b` (their stones) is closed ([`read_races`]):
/// every empty point next to either side lies in a region of empty points each of which is a
/// liberty of `a` or `b`, and whose stones around are those of the two sides, or of the other
/// colour than a side it is a liberty of only, in strings with three liberties or more; or the
/// region is bordered by one side alone (its eye, which the race counts).
fn race_is_closed(board: &Board, a: &[Point], b: &[Point]) -> bool {
    let (la, lb) = (
        crate::tactics::liberty_points(board, a),
        crate::tactics::liberty_points(board, b),
    );
    let ca = board.color_at(a[0]);
    for &l in la.iter().chain(&lb) {
        // The region of `l`.
        let mut region = vec![l];
        let mut i = 0;
        while i < region.len() {
            let p = region[i];
            i += 1;
            if region.len() > 16 {
                return false;
            }
            for q in board.neighbors(p) {
                if board.color_at(q).is_none() && !region.contains(&q) {
                    region.push(q);
                }
            }
        }
        let only = |stones: &[Point]| {
            region.iter().all(|&p| {
                board
                    .neighbors(p)
                    .all(|q| board.color_at(q).is_none() || stones.contains(&q))
            })
        };
        if only(a) || only(b) {
            continue;
        }
        for &p in &region {
            let (of_a, of_b) = (la.contains(&p), lb.contains(&p));
            if !of_a && !of_b {
                return false;
            }
            for q in board.neighbors(p) {
                let Some(c) = board.color_at(q) else {
                    continue;
                };
                if a.contains(&q) || b.contains(&q) {
                    continue;
                }
                // A wall: of the other colour than every string the point is a liberty of,
                // and not short of liberties.
                let against_a = Some(c) != ca;
                let ok = (!of_a || against_a) && (!of_b || !against_a);
                if !ok || board.liberties_upto(q, 3).len() < 3 {
                    return false;
                }
            }
        }
    }
    true
}
