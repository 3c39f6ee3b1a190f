//! Pairing for each format (article 5, 賽制).

use std::collections::{BTreeMap, BTreeSet};

use ingo_competition::{handicap, HandicapScale, Rank};
use ingo_rules::Komi;

use crate::agreement::{Agreement, FormatKind, GroupOrder, HandicapSystem};
use crate::entrant::Entrant;
use crate::score::Game;
use crate::{rank_level, PairingError};

/// The conditions of a game between `first` and `second`, `first` taking Black unless the
/// handicap decides: in a 有差賽 the weaker player takes Black and White passes and gives back
/// points by 還點填平法 (ingo-competition); otherwise the even komi of the agreement.
pub fn conditions(
    agreement: &Agreement,
    first: &Entrant,
    second: &Entrant,
) -> (String, String, u8, Komi) {
    if agreement.handicap == HandicapSystem::Ranks {
        if let (Some(a), Some(b)) = (first.rank, second.rank) {
            let h = handicap(a, b, &HandicapScale::ing());
            if !h.nigiri {
                let (black, white) = if h.black == a {
                    (first, second)
                } else {
                    (second, first)
                };
                return (
                    black.name.clone(),
                    white.name.clone(),
                    h.handicap_passes.min(u32::from(u8::MAX)) as u8,
                    h.komi,
                );
            }
        }
    }
    (first.name.clone(), second.name.clone(), 0, agreement.komi)
}

/// The rounds of a round robin by Berger's tables (the circle method): `players` in seed order;
/// with an odd number, the player facing the empty seat has a bye. `double` plays the whole
/// cycle twice with colours swapped. Returns (round, first, second) with `first` taking Black
/// in an even game; `None` for a bye.
pub fn round_robin(players: &[String], double: bool) -> Vec<(u32, String, Option<String>)> {
    let mut seats: Vec<Option<&String>> = players.iter().map(Some).collect();
    if seats.len() % 2 == 1 {
        seats.push(None);
    }
    let n = seats.len();
    let mut out = Vec::new();
    if n < 2 {
        return out;
    }
    let rounds = n - 1;
    // Circle: seat n-1 is fixed; the others turn one place each round.
    let mut ring: Vec<usize> = (0..n - 1).collect();
    for r in 0..rounds {
        let mut pairs = Vec::new();
        // The fixed seat alternates colours round by round.
        let (a, b) = (ring[0], n - 1);
        pairs.push(if r % 2 == 0 { (b, a) } else { (a, b) });
        for i in 1..n / 2 {
            pairs.push((ring[i], ring[n - 1 - i]));
        }
        for (x, y) in pairs {
            let round = r as u32 + 1;
            match (seats[x], seats[y]) {
                (Some(p), Some(q)) => out.push((round, p.clone(), Some(q.clone()))),
                (Some(p), None) | (None, Some(p)) => out.push((round, p.clone(), None)),
                (None, None) => {}
            }
        }
        ring.rotate_right(1);
    }
    if double {
        let first: Vec<_> = out.clone();
        for (round, a, b) in first {
            let round = round + rounds as u32;
            match b {
                Some(b) => out.push((round, b, Some(a))),
                None => out.push((round, a, None)),
            }
        }
    }
    out
}

/// The seed positions of a bracket of `size` (a power of two): 1 meets `size`, and the top
/// seeds meet as late as possible.
pub fn bracket_order(size: usize) -> Vec<usize> {
    let mut order = vec![1usize];
    while order.len() < size {
        let m = order.len() * 2 + 1;
        order = order.iter().flat_map(|&s| [s, m - s]).collect();
    }
    order
}

/// Round 1 of a single-elimination bracket: the top seeds get the byes.
pub fn knockout_first_round(players: &[String]) -> Vec<(String, Option<String>)> {
    let n = players.len();
    let size = n.next_power_of_two().max(2);
    let order = bracket_order(size);
    order
        .chunks(2)
        .filter_map(|pair| {
            let a = players.get(pair[0] - 1);
            let b = players.get(pair[1] - 1);
            match (a, b) {
                (Some(a), Some(b)) => Some((a.clone(), Some(b.clone()))),
                (Some(a), None) | (None, Some(a)) => Some((a.clone(), None)),
                (None, None) => None,
            }
        })
        .collect()
}

/// The result of a knockout pairing within `round`: the winner of the last decided game
/// between the two, if any (a void game is replayed in the same round).
fn pair_winner<'a>(games: &'a [Game], round: u32, a: &str, b: Option<&str>) -> Option<&'a str> {
    let Some(b) = b else {
        return games
            .iter()
            .find(|g| g.round == round && g.is_bye() && g.black == a)
            .map(|g| g.black.as_str());
    };
    games
        .iter()
        .rev()
        .filter(|g| g.round == round && g.has(a) && g.has(b))
        .find_map(|g| g.winner_loser().map(|(w, _)| w))
}

/// The next games of a single-elimination event: replays of void games of the current round,
/// or the next round from its winners in bracket order.
pub fn knockout_next(
    agreement: &Agreement,
    entrants: &[&Entrant],
    games: &[Game],
) -> Result<Vec<Game>, PairingError> {
    let find = |n: &str| entrants.iter().find(|e| e.name == n).copied();
    let last = games.iter().map(|g| g.round).max().unwrap_or(0);
    let make = |round: u32, board: u32, a: &str, b: Option<&str>| -> Result<Game, PairingError> {
        match b {
            None => Ok(Game::new(round, board, a, None, 0, agreement.komi)),
            Some(b) => {
                let (ea, eb) = (
                    find(a).ok_or_else(|| PairingError::Unknown(a.to_owned()))?,
                    find(b).ok_or_else(|| PairingError::Unknown(b.to_owned()))?,
                );
                let (bl, wh, p, k) = conditions(agreement, ea, eb);
                Ok(Game::new(round, board, &bl, Some(&wh), p, k))
            }
        }
    };
    if last == 0 {
        let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
        if names.len() < 2 {
            return Err(PairingError::TooFew(names.len()));
        }
        return knockout_first_round(&names)
            .iter()
            .enumerate()
            .map(|(i, (a, b))| make(1, i as u32 + 1, a, b.as_deref()))
            .collect();
    }
    // The pairings of the current round, in board order, each counted once.
    let mut pairs: Vec<(String, Option<String>)> = Vec::new();
    for g in games.iter().filter(|g| g.round == last) {
        let p = (g.black.clone(), g.white.clone());
        if !pairs.iter().any(|(a, b)| {
            (a == &p.0 && b == &p.1) || (Some(a) == p.1.as_ref() && b.as_ref() == Some(&p.0))
        }) {
            pairs.push(p);
        }
    }
    if games.iter().any(|g| g.round == last && !g.is_done()) {
        return Err(PairingError::RoundNotFinished(last));
    }
    let mut winners = Vec::new();
    let mut replays = Vec::new();
    let next_board = games
        .iter()
        .filter(|g| g.round == last)
        .map(|g| g.board)
        .max()
        .unwrap_or(0);
    for (a, b) in &pairs {
        match pair_winner(games, last, a, b.as_deref()) {
            Some(w) => winners.push(w.to_owned()),
            None => replays.push((a.clone(), b.clone())),
        }
    }
    if !replays.is_empty() {
        return replays
            .iter()
            .enumerate()
            .map(|(i, (a, b))| make(last, next_board + 1 + i as u32, a, b.as_deref()))
            .collect();
    }
    if winners.len() < 2 {
        return Err(PairingError::Finished);
    }
    // A winner withdrawn since does not go on: the opponent of the next round advances by
    // walkover (a bye), and a pairing of two withdrawn winners leaves its place empty.
    let mut out = Vec::new();
    for c in winners.chunks(2) {
        let live: Vec<&str> = c
            .iter()
            .map(String::as_str)
            .filter(|n| find(n).is_some())
            .collect();
        let board = out.len() as u32 + 1;
        match live[..] {
            [a, b] => out.push(make(last + 1, board, a, Some(b))?),
            [a] => out.push(make(last + 1, board, a, None)?),
            _ => {}
        }
    }
    if out.is_empty() {
        return Err(PairingError::Finished);
    }
    Ok(out)
}

/// Losses of each player in decided games.
fn losses(games: &[Game]) -> BTreeMap<&str, u32> {
    let mut m = BTreeMap::new();
    for g in games {
        if let Some((_, l)) = g.winner_loser() {
            *m.entry(l).or_default() += 1;
        }
    }
    m
}

/// Byes each player has had.
fn byes(games: &[Game]) -> BTreeMap<&str, u32> {
    let mut m = BTreeMap::new();
    for g in games.iter().filter(|g| g.is_bye() && g.result.is_none()) {
        *m.entry(g.black.as_str()).or_default() += 1;
    }
    m
}

/// The next round of a double-elimination event: out after two losses. Each round the
/// unbeaten meet the unbeaten and the once-beaten the once-beaten, in seed order (1 against the
/// last); an odd player out of the unbeaten joins the once-beaten, and an odd player out of
/// those has a bye (the one with the fewest byes, lowest seed first). With one unbeaten and one
/// once-beaten player left they meet: a final that the unbeaten must lose twice.
pub fn double_knockout_next(
    agreement: &Agreement,
    entrants: &[&Entrant],
    games: &[Game],
) -> Result<Vec<Game>, PairingError> {
    let last = games.iter().map(|g| g.round).max().unwrap_or(0);
    if games.iter().any(|g| !g.is_done()) {
        return Err(PairingError::RoundNotFinished(last));
    }
    let lost = losses(games);
    let alive: Vec<&Entrant> = entrants
        .iter()
        .copied()
        .filter(|e| lost.get(e.name.as_str()).copied().unwrap_or(0) < 2)
        .collect();
    if alive.len() < 2 {
        return if last == 0 {
            Err(PairingError::TooFew(alive.len()))
        } else {
            Err(PairingError::Finished)
        };
    }
    let had_bye = byes(games);
    let mut zero: Vec<&Entrant> = alive
        .iter()
        .copied()
        .filter(|e| !lost.contains_key(e.name.as_str()))
        .collect();
    let mut one: Vec<&Entrant> = alive
        .iter()
        .copied()
        .filter(|e| lost.contains_key(e.name.as_str()))
        .collect();
    if zero.len() % 2 == 1 {
        if let Some(x) = zero.pop() {
            one.insert(0, x);
        }
    }
    let mut out = Vec::new();
    let round = last + 1;
    let mut board = 0;
    if one.len() % 2 == 1 {
        // The bye goes to the player with the fewest byes, the lowest seed among them.
        let (i, _) = one
            .iter()
            .enumerate()
            .rev()
            .min_by_key(|(_, e)| had_bye.get(e.name.as_str()).copied().unwrap_or(0))
            .ok_or(PairingError::Finished)?;
        let e = one.remove(i);
        board += 1;
        out.push(Game::new(round, board, &e.name, None, 0, agreement.komi));
    }
    let h = history(games);
    for group in [&zero, &one] {
        let n = group.len();
        // Seed order folded (the first against the last), by a minimum-cost matching so
        // that two players who have just met are not paired again while another pairing
        // exists, and earlier meetings are avoided next.
        let mate = crate::matching::min_cost_pairs(n, |i, j| {
            let (a, b) = (group[i].name.as_str(), group[j].name.as_str());
            let dev = (i + j) as i128 - (n as i128 - 1);
            i128::from(h.last.contains(&(a, b))) * 10i128.pow(12)
                + i128::from(h.times_met(a, b)) * 10i128.pow(8)
                + dev * dev
        });
        for i in 0..n {
            if mate[i] < i {
                continue;
            }
            let (bl, wh, p, k) = conditions(agreement, group[i], group[mate[i]]);
            board += 1;
            out.push(Game::new(round, board, &bl, Some(&wh), p, k));
        }
    }
    out.sort_by_key(|g| g.is_bye());
    for (i, g) in out.iter_mut().enumerate() {
        g.board = i as u32 + 1;
    }
    Ok(out)
}

/// The McMahon starting score of `rank`: its level clamped between the floor and the bar,
/// counted from the floor.
pub fn mcmahon_start(rank: Option<Rank>, bar: Option<Rank>, floor: Option<Rank>) -> i32 {
    let lowest = rank_level(Rank::BelowKyu);
    let f = floor.map_or(lowest, rank_level);
    let b = bar.map_or(i32::MAX, rank_level);
    rank.map_or(f, rank_level).clamp(f, b.max(f)) - f
}

/// Who has played whom (how often), and each player's colours so far.
struct History<'a> {
    met: BTreeMap<(&'a str, &'a str), u32>,
    /// Blacks minus whites, even games only.
    balance: BTreeMap<&'a str, i32>,
    /// The pairs of the last round played.
    last: BTreeSet<(&'a str, &'a str)>,
}

fn history(games: &[Game]) -> History<'_> {
    let mut met = BTreeMap::new();
    let mut balance = BTreeMap::new();
    let mut last = BTreeSet::new();
    let last_round = games.iter().map(|g| g.round).max().unwrap_or(0);
    for g in games {
        if let Some(w) = g.white.as_deref() {
            *met.entry((g.black.as_str(), w)).or_default() += 1;
            *met.entry((w, g.black.as_str())).or_default() += 1;
            if g.round == last_round {
                last.insert((g.black.as_str(), w));
                last.insert((w, g.black.as_str()));
            }
            if g.passes == 0 {
                *balance.entry(g.black.as_str()).or_default() += 1;
                *balance.entry(w).or_default() -= 1;
            }
        }
    }
    History { met, balance, last }
}

impl History<'_> {
    fn times_met(&self, a: &str, b: &str) -> u32 {
        self.met.get(&(a, b)).copied().unwrap_or(0)
    }
}

/// The director's choices for one Swiss or McMahon round, beyond the agreement's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairingOptions {
    /// Pairs fixed by the director for this round (colours still by balance).
    pub fixed: Vec<(String, String)>,
    /// Pairs that must not meet this round, beside the agreement's `pairing.forbidden`.
    pub forbidden: Vec<(String, String)>,
    /// Pair even when every pairing has a rematch, with the fewest rematches.
    pub allow_rematches: bool,
}

// The costs of a pairing. Each level is a thousand times or more what the levels below it
// can add up to over a round of a few hundred players, so the minimum-cost matching decides
// lexicographically: forbidden pairs, then rematches, second byes, score difference, same
// club, a colour three apart, the colour preference, and last the order within the score
// group. Score comes before colour as in OpenGotha: a pairing across score groups to spare a
// colour is what directors argue about. The largest entry (about 10^35) leaves the solver's
// doubled duals far inside i128.
const FORBIDDEN: i128 = 10i128.pow(35);
const REMATCH: i128 = 10i128.pow(32);
const SECOND_BYE: i128 = 10i128.pow(29);
/// A squared point of score difference.
const SCORE: i128 = 10i128.pow(23);
const CLUB: i128 = 10i128.pow(20);
const COLOUR_THIRD: i128 = 10i128.pow(17);
/// A squared net colour of the player who gets the colour he has had more.
const COLOUR: i128 = 10i128.pow(11);
/// The most the order within a group adds to one pairing.
const ORDER: i128 = 1_000_000;

/// The conditions of a game of a McMahon event whose agreement sets the handicap by McMahon
/// score (`handicap.system = "mcmahon"`): the difference of the scores less the reduction,
/// one 先 (8 points of article 6's scale) a point, the lower score taking Black (White passes
/// K − 1 times for K 先, no komi); even, with the agreement's komi, when nothing is left or
/// when `even_at_bar` and either player started at the bar. Other agreements: [`conditions`].
pub fn mcmahon_conditions(
    agreement: &Agreement,
    first: (&Entrant, i32),
    second: (&Entrant, i32),
) -> (String, String, u8, Komi) {
    let HandicapSystem::McMahon {
        reduction,
        even_at_bar,
    } = agreement.handicap
    else {
        return conditions(agreement, first.0, second.0);
    };
    let f = &agreement.format;
    let top = mcmahon_start(f.bar.or(Some(Rank::Pro(1))), f.bar, f.floor);
    let at_bar = |e: &Entrant| f.bar.is_some() && mcmahon_start(e.rank, f.bar, f.floor) >= top;
    let d = (first.1 - second.1)
        .unsigned_abs()
        .saturating_sub(reduction);
    if d == 0 || (even_at_bar && (at_bar(first.0) || at_bar(second.0))) {
        return (
            first.0.name.clone(),
            second.0.name.clone(),
            0,
            agreement.komi,
        );
    }
    let (black, white) = if first.1 < second.1 {
        (first.0, second.0)
    } else {
        (second.0, first.0)
    };
    (
        black.name.clone(),
        white.name.clone(),
        (d - 1).min(u32::from(u8::MAX)) as u8,
        Komi::points(0),
    )
}

/// The next round of a Swiss or McMahon event, as [`swiss_next_with`] pairs it with the
/// agreement's choices and no more.
///
/// # Errors
///
/// As [`swiss_next_with`].
pub fn swiss_next(
    agreement: &Agreement,
    entrants: &[&Entrant],
    games: &[Game],
) -> Result<Vec<Game>, PairingError> {
    swiss_next_with(agreement, entrants, games, &PairingOptions::default())
}

/// The score each of `entrants` is grouped by when the next Swiss or McMahon round is paired:
/// its wins in `games` (a bye not played counting the agreement's `scoring.bye_main`), plus,
/// in a McMahon event, its McMahon start from its rank, the bar and the floor.
pub fn group_scores<'a>(
    agreement: &Agreement,
    entrants: impl IntoIterator<Item = &'a Entrant>,
    games: &[Game],
) -> BTreeMap<String, i32> {
    let mut main: BTreeMap<&str, i32> = BTreeMap::new();
    for g in games {
        if g.is_bye() && g.result.is_none() {
            *main.entry(g.black.as_str()).or_default() += agreement.scoring.bye_main as i32;
        } else if let Some((w, _)) = g.winner_loser() {
            *main.entry(w).or_default() += 1;
        }
    }
    let mcmahon = agreement.format.kind == FormatKind::McMahon;
    entrants
        .into_iter()
        .map(|e| {
            let start = if mcmahon {
                mcmahon_start(e.rank, agreement.format.bar, agreement.format.floor)
            } else {
                0
            };
            let won = main.get(e.name.as_str()).copied().unwrap_or(0);
            (e.name.clone(), won + start)
        })
        .collect()
}

/// The next round of a Swiss or McMahon event, paired as OpenGotha pairs: a minimum-cost
/// perfect matching over all pairs of players (the blossom algorithm).
///
/// Players are grouped by score (main score, or the McMahon score = start + main score) and
/// ordered by score, rank and seed. Each possible pairing costs, from the weightiest (each
/// level outweighs all below it): being forbidden (agreement or `options`), a rematch, the
/// square of the score difference (so a player floats one group at a time: two pairings one
/// point apart cost less than one two points apart), two players of one club (with
/// `pairing.avoid_same_club`), putting a player three colours apart, the colour one of them
/// has had more, and the distance from the group's order (split and slip: the top half
/// against the bottom half in order; or split and fold), a player who floats to another
/// group being the bottom of the upper group or the top of the lower. With an odd number of
/// players the bye is one more "pairing" in the same matching: a second bye costs less than a
/// rematch and more than any score difference; then twice the square of the player's height
/// above the lowest score, then a place higher in the group. Pairs fixed in `options` are
/// taken out first.
///
/// In an even game the player who has had Black more often (net) takes White; equal, the
/// higher-placed player takes White in odd rounds, Black in even ones. In a handicap game
/// (有差賽, or a McMahon handicap) the weaker takes Black.
///
/// # Errors
///
/// [`PairingError::NoPairing`] when every pairing has a rematch (unless
/// `options.allow_rematches`) or a forbidden pair, [`PairingError::Entrants`] for a fixed
/// pair that is not two active players, and the errors of a round not finished or an event
/// finished.
pub fn swiss_next_with(
    agreement: &Agreement,
    entrants: &[&Entrant],
    games: &[Game],
    options: &PairingOptions,
) -> Result<Vec<Game>, PairingError> {
    let last = games.iter().map(|g| g.round).max().unwrap_or(0);
    if games.iter().any(|g| !g.is_done()) {
        return Err(PairingError::RoundNotFinished(last));
    }
    if last >= agreement.format.rounds {
        return Err(PairingError::Finished);
    }
    if entrants.len() < 2 {
        return Err(PairingError::TooFew(entrants.len()));
    }
    let grouped = group_scores(agreement, entrants.iter().copied(), games);
    let score = |e: &Entrant| grouped.get(&e.name).copied().unwrap_or(0);
    let mut order: Vec<(usize, &Entrant)> = entrants.iter().copied().enumerate().collect();
    order.sort_by_key(|(seed, e)| {
        (
            std::cmp::Reverse(score(e)),
            std::cmp::Reverse(e.rank.map_or(i32::MIN, rank_level)),
            *seed,
        )
    });
    let players: Vec<&Entrant> = order.into_iter().map(|(_, e)| e).collect();
    let index = |n: &str| players.iter().position(|e| e.name == n);
    let h = history(games);
    let round = last + 1;
    let bal = |e: &Entrant| h.balance.get(e.name.as_str()).copied().unwrap_or(0);
    let had_bye = byes(games);

    // Pairs fixed by the director come out of the matching.
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut taken = vec![false; players.len()];
    for (a, b) in &options.fixed {
        let (Some(i), Some(j)) = (index(a), index(b)) else {
            let who = if index(a).is_none() { a } else { b };
            return Err(PairingError::Entrants(format!(
                "fixed pair {a:?}–{b:?}: {who:?} is not an active entrant"
            )));
        };
        if i == j || taken[i] || taken[j] {
            return Err(PairingError::Entrants(format!(
                "fixed pair {a:?}–{b:?}: a player can be in one fixed pair only, not with themself"
            )));
        }
        taken[i] = true;
        taken[j] = true;
        pairs.push((i.min(j), i.max(j)));
    }
    let rest: Vec<usize> = (0..players.len()).filter(|&i| !taken[i]).collect();
    let forbidden: BTreeSet<(&str, &str)> = agreement
        .pairing
        .forbidden
        .iter()
        .chain(&options.forbidden)
        .flat_map(|(a, b)| [(a.as_str(), b.as_str()), (b.as_str(), a.as_str())])
        .collect();

    // Score groups of the players to match: each one's group, place in it and its size.
    let scores: Vec<i32> = rest.iter().map(|&i| score(players[i])).collect();
    let mut place = vec![0usize; rest.len()];
    let mut size: BTreeMap<i32, usize> = BTreeMap::new();
    for (k, &s) in scores.iter().enumerate() {
        let n = size.entry(s).or_default();
        place[k] = *n;
        *n += 1;
    }
    let lowest = scores.iter().copied().min().unwrap_or(0);
    let sq = |x: i128| x * x;
    let even_game = |a: usize, b: usize| -> bool {
        let (ea, eb) = (players[rest[a]], players[rest[b]]);
        match agreement.handicap {
            HandicapSystem::Even => true,
            HandicapSystem::Ranks => {
                let (_, _, p, k) = conditions(agreement, ea, eb);
                p == 0 && k == agreement.komi
            }
            HandicapSystem::McMahon { .. } => {
                let (_, _, p, k) = mcmahon_conditions(agreement, (ea, scores[a]), (eb, scores[b]));
                p == 0 && k == agreement.komi
            }
        }
    };
    let pair_cost = |a: usize, b: usize| -> i128 {
        let (ea, eb) = (players[rest[a]], players[rest[b]]);
        let mut c = 0;
        if forbidden.contains(&(ea.name.as_str(), eb.name.as_str())) {
            c += FORBIDDEN;
        }
        c += REMATCH * i128::from(h.times_met(&ea.name, &eb.name));
        let (ba, bb) = (bal(ea), bal(eb));
        if ba != 0 && ba.signum() == bb.signum() && even_game(a, b) {
            let m = ba.abs().min(bb.abs());
            c += COLOUR * sq(i128::from(m));
            if m >= 2 {
                c += COLOUR_THIRD;
            }
        }
        let (sa, sb) = (scores[a], scores[b]);
        c += SCORE * sq(i128::from(sa - sb));
        if agreement.pairing.avoid_same_club && ea.club.is_some() && ea.club == eb.club {
            c += CLUB;
        }
        // The order within the group, as a share of ORDER.
        let (pa, pb) = (place[a] as i128, place[b] as i128);
        if sa == sb {
            let n = size[&sa] as i128;
            let dev = match agreement.pairing.order {
                GroupOrder::Slip => ((pb - pa).abs() - n / 2).abs(),
                GroupOrder::Fold => (pa + pb - (n - 1)).abs(),
            };
            c += ORDER * sq(dev) / sq(n).max(1);
        } else {
            // The upper player floats down from the bottom of the group, the lower one up
            // from the top of its group.
            let (up, pu, lo, pl) = if sa > sb {
                (sa, pa, sb, pb)
            } else {
                (sb, pb, sa, pa)
            };
            let (nu, nl) = (size[&up] as i128, size[&lo] as i128);
            c += ORDER * sq(nu - 1 - pu) / sq(nu) / 2 + ORDER * sq(pl) / sq(nl) / 2;
        }
        c
    };
    let bye_cost = |a: usize| -> i128 {
        let e = players[rest[a]];
        let n = size[&scores[a]] as i128;
        SECOND_BYE * i128::from(had_bye.get(e.name.as_str()).copied().unwrap_or(0))
            + 2 * SCORE * sq(i128::from(scores[a] - lowest))
            + ORDER * (n - 1 - place[a] as i128) / n
    };
    let odd = rest.len() % 2 == 1;
    let n = rest.len() + usize::from(odd);
    let mate = crate::matching::min_cost_pairs(n, |a, b| {
        if b == rest.len() {
            bye_cost(a)
        } else {
            pair_cost(a, b)
        }
    });
    let mut bye = None;
    for a in 0..rest.len() {
        let b = mate[a];
        if b == rest.len() {
            bye = Some(rest[a]);
        } else if a < b {
            let (ea, eb) = (players[rest[a]], players[rest[b]]);
            if forbidden.contains(&(ea.name.as_str(), eb.name.as_str())) {
                return Err(PairingError::NoPairing(round));
            }
            if h.times_met(&ea.name, &eb.name) > 0 && !options.allow_rematches {
                return Err(PairingError::NoPairing(round));
            }
            pairs.push((rest[a], rest[b]));
        }
    }
    pairs.sort_unstable();
    let mut out = Vec::new();
    for (board, &(i, j)) in pairs.iter().enumerate() {
        let (a, b) = (players[i], players[j]);
        // Colour balance: the one who has had Black more often takes White; equal, the
        // higher-placed player takes White in odd rounds, Black in even ones.
        let first_black = match bal(a).cmp(&bal(b)) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => round % 2 == 0,
        };
        let (x, y) = if first_black { (a, b) } else { (b, a) };
        let (bl, wh, p, k) = if matches!(agreement.handicap, HandicapSystem::McMahon { .. }) {
            mcmahon_conditions(agreement, (x, score(x)), (y, score(y)))
        } else {
            conditions(agreement, x, y)
        };
        out.push(Game::new(round, board as u32 + 1, &bl, Some(&wh), p, k));
    }
    if let Some(b) = bye {
        out.push(Game::new(
            round,
            out.len() as u32 + 1,
            &players[b].name,
            None,
            0,
            agreement.komi,
        ));
    }
    Ok(out)
}

/// 擂台制 between two teams: where the event stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeitaiState {
    /// How many members of each team have lost (the index of the member now due).
    pub next: [usize; 2],
    /// The winning team, once one team has no one left.
    pub winner: Option<usize>,
}

/// Where a 擂台制 event stands after `games`: each decided game puts the loser's team on to
/// its next member; the winner stays on.
pub fn leitai_state(teams: [&Entrant; 2], games: &[Game]) -> LeitaiState {
    let mut next = [0usize, 0usize];
    for g in games {
        if let Some((_, l)) = g.winner_loser() {
            for t in 0..2 {
                if teams[t].members.get(next[t]).is_some_and(|m| m.name == l) {
                    next[t] += 1;
                }
            }
        }
    }
    let winner = (0..2).find(|&t| next[1 - t] >= teams[1 - t].members.len());
    LeitaiState { next, winner }
}

/// The next game of a 擂台制 event: the member now due of each team. The newcomer (the
/// member who did not play the last game) takes Black; team 1's member takes Black in game 1.
/// In a 有差賽 the members' ranks decide.
pub fn leitai_next(
    agreement: &Agreement,
    teams: [&Entrant; 2],
    games: &[Game],
) -> Result<Vec<Game>, PairingError> {
    if games.iter().any(|g| !g.is_done()) {
        return Err(PairingError::RoundNotFinished(games.len() as u32));
    }
    let st = leitai_state(teams, games);
    if st.winner.is_some() {
        return Err(PairingError::Finished);
    }
    let a = &teams[0].members[st.next[0]];
    let b = &teams[1].members[st.next[1]];
    let last = games.last();
    let a_new = last.is_none_or(|g| !g.has(&a.name));
    let (first, second) = if a_new { (a, b) } else { (b, a) };
    let ea = Entrant::player(first.name.clone(), first.rank);
    let eb = Entrant::player(second.name.clone(), second.rank);
    let (bl, wh, p, k) = conditions(agreement, &ea, &eb);
    let round = games.iter().map(|g| g.round).max().unwrap_or(0) + 1;
    Ok(vec![Game::new(round, 1, &bl, Some(&wh), p, k)])
}

/// Where a 十局升降制 match stands: the handicap in points that the first entrant gives the
/// second (negative: the second gives the first), and the lead since the last change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TenGameState {
    /// Handicap in points on the scale of article 6 (8 = one 先), given by the first entrant.
    pub handicap: i32,
    /// Wins of the first entrant minus wins of the second since the handicap last moved.
    pub lead: i32,
    /// Decided games.
    pub played: u32,
}

/// Replays `games` of a ten-game match between `a` (the first entrant) and `b`: each time one
/// side leads by `margin` the handicap moves one `grade` against the loser and the lead starts
/// again from zero.
pub fn ten_game_state(a: &str, games: &[Game], margin: u32, grade: i32) -> TenGameState {
    let mut st = TenGameState {
        handicap: 0,
        lead: 0,
        played: 0,
    };
    for g in games {
        if let Some((w, _)) = g.winner_loser() {
            st.played += 1;
            st.lead += if w == a { 1 } else { -1 };
            if st.lead.unsigned_abs() >= margin {
                st.handicap += grade * st.lead.signum();
                st.lead = 0;
            }
        }
    }
    st
}

/// The next game of a ten-game match. Even (handicap 0): colours alternate, the first
/// entrant Black in game 1, komi as agreed. Otherwise the side receiving the handicap takes
/// Black: K = ⌈h/8⌉ 先, White passes K − 1 times and gives back 8K − h points (還點填平法).
pub fn ten_game_next(
    agreement: &Agreement,
    a: &Entrant,
    b: &Entrant,
    games: &[Game],
) -> Result<Vec<Game>, PairingError> {
    if games.iter().any(|g| !g.is_done()) {
        return Err(PairingError::RoundNotFinished(games.len() as u32));
    }
    let f = &agreement.format;
    let st = ten_game_state(&a.name, games, f.margin, f.grade);
    if st.played >= f.games {
        return Err(PairingError::Finished);
    }
    let round = games.iter().map(|g| g.round).max().unwrap_or(0) + 1;
    let g = if st.handicap == 0 {
        let (x, y) = if round % 2 == 1 { (a, b) } else { (b, a) };
        Game::new(round, 1, &x.name, Some(&y.name), 0, agreement.komi)
    } else {
        let h = st.handicap.abs();
        let (black, white) = if st.handicap > 0 { (b, a) } else { (a, b) };
        let k = ((h + 7) / 8).max(1);
        Game::new(
            round,
            1,
            &black.name,
            Some(&white.name),
            (k - 1).min(255) as u8,
            Komi::points(8 * k - h),
        )
    };
    Ok(vec![g])
}

/// Why each game of a Swiss or McMahon round `paired` (just made from `games`) is as it is,
/// a line a game or bye: the players' scores (their groups), a float across groups, the
/// colour reason, a rematch or a same-club pairing, and the levels of the matching's cost
/// that decided it, weightiest first (rematches, squared score difference, same club, the
/// colour one of them has had more).
pub fn explain(
    agreement: &Agreement,
    entrants: &[&Entrant],
    games: &[Game],
    paired: &[Game],
) -> Vec<String> {
    let scores = group_scores(agreement, entrants.iter().copied(), games);
    let h = history(games);
    let had_bye = byes(games);
    let score = |n: &str| scores.get(n).copied().unwrap_or(0);
    let bal = |n: &str| h.balance.get(n).copied().unwrap_or(0);
    let club = |n: &str| {
        entrants
            .iter()
            .find(|e| e.name == n)
            .and_then(|e| e.club.clone())
    };
    let lowest = scores.values().copied().min().unwrap_or(0);
    let mut out = Vec::new();
    for g in paired {
        let b = g.black.as_str();
        let Some(w) = g.white.as_deref() else {
            out.push(format!(
                "board {}: {b} has the bye: score {} (the lowest is {lowest}), {} bye(s) before",
                g.board,
                score(b),
                had_bye.get(b).copied().unwrap_or(0)
            ));
            continue;
        };
        let (sb, sw) = (score(b), score(w));
        let mut line = format!(
            "board {}: {b} (B, score {sb}) – {w} (W, score {sw}): ",
            g.board
        );
        if sb == sw {
            line.push_str(&format!("score group {sb}"));
        } else {
            line.push_str(&format!(
                "across score groups {} and {} (a float)",
                sb.max(sw),
                sb.min(sw)
            ));
        }
        let handicap = g.passes > 0 || g.komi != agreement.komi;
        let (bb, bw) = (bal(b), bal(w));
        if handicap {
            line.push_str("; a handicap game: the weaker takes Black");
        } else if bb < bw {
            line.push_str(&format!(
                "; Black to {b}, who has had Black {} time(s) fewer (net {bb:+} against {bw:+})",
                bw - bb
            ));
        } else if bb == bw {
            line.push_str(&format!(
                "; colours equal so far (net {bb:+}): the higher-placed takes White in odd rounds, Black in even ones"
            ));
        } else {
            line.push_str(&format!(
                "; Black to {b} although it has had Black more (net {bb:+} against {bw:+})"
            ));
        }
        let met = h.times_met(b, w);
        if met > 0 {
            line.push_str(&format!("; a rematch (met {met} time(s) before)"));
        }
        let same_club =
            agreement.pairing.avoid_same_club && club(b).is_some() && club(b) == club(w);
        if same_club {
            line.push_str("; same club");
        }
        let colour = if bb != 0 && bb.signum() == bw.signum() && !handicap {
            bb.abs().min(bw.abs()).pow(2)
        } else {
            0
        };
        line.push_str(&format!(
            " [cost levels: rematch {met}, score {}, club {}, colour {colour}]",
            (sb - sw).pow(2),
            u8::from(same_club)
        ));
        out.push(line);
    }
    out
}
