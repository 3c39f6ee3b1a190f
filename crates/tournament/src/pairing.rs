//! Pairing for each format (article 5, 賽制).

use std::collections::{BTreeMap, BTreeSet};

use ingo_competition::{handicap, HandicapScale, Rank};
use ingo_rules::Komi;

use crate::agreement::{Agreement, FormatKind, HandicapSystem};
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
    winners
        .chunks(2)
        .enumerate()
        .map(|(i, c)| make(last + 1, i as u32 + 1, &c[0], c.get(1).map(String::as_str)))
        .collect()
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
    for group in [&zero, &one] {
        let n = group.len();
        for i in 0..n / 2 {
            let (bl, wh, p, k) = conditions(agreement, group[i], group[n - 1 - i]);
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

/// Who has played whom, and each player's colours so far.
struct History<'a> {
    met: BTreeSet<(&'a str, &'a str)>,
    /// Blacks minus whites, even games only.
    balance: BTreeMap<&'a str, i32>,
}

fn history(games: &[Game]) -> History<'_> {
    let mut met = BTreeSet::new();
    let mut balance = BTreeMap::new();
    for g in games {
        if let Some(w) = g.white.as_deref() {
            met.insert((g.black.as_str(), w));
            met.insert((w, g.black.as_str()));
            if g.passes == 0 {
                *balance.entry(g.black.as_str()).or_default() += 1;
                *balance.entry(w).or_default() -= 1;
            }
        }
    }
    History { met, balance }
}

/// The next round of a Swiss or McMahon event.
///
/// Players are ordered by score (main score, or the McMahon score = start + main score), then
/// rank, then seed. An odd player out has a bye: the one with the fewest byes and, among them,
/// the lowest in that order, so byes rotate (passed over only when no rematch-free pairing of
/// the others exists). The others are paired from the top, each with the
/// nearest player below not met before, preferring one who needs the other colour; a search
/// with backtracking guarantees no rematch whenever one is possible. In an even game the player
/// who has had Black more often (net) takes White; in a handicap game (有差賽) the weaker takes
/// Black.
pub fn swiss_next(
    agreement: &Agreement,
    entrants: &[&Entrant],
    games: &[Game],
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
    let mut main: BTreeMap<&str, i32> = BTreeMap::new();
    for g in games {
        if g.is_bye() && g.result.is_none() {
            *main.entry(g.black.as_str()).or_default() += agreement.scoring.bye_main as i32;
        } else if let Some((w, _)) = g.winner_loser() {
            *main.entry(w).or_default() += 1;
        }
    }
    let mcmahon = agreement.format.kind == FormatKind::McMahon;
    let score = |e: &Entrant| {
        main.get(e.name.as_str()).copied().unwrap_or(0)
            + if mcmahon {
                mcmahon_start(e.rank, agreement.format.bar, agreement.format.floor)
            } else {
                0
            }
    };
    let mut order: Vec<(usize, &Entrant)> = entrants.iter().copied().enumerate().collect();
    order.sort_by_key(|(seed, e)| {
        (
            std::cmp::Reverse(score(e)),
            std::cmp::Reverse(e.rank.map_or(i32::MIN, rank_level)),
            *seed,
        )
    });
    let players: Vec<&Entrant> = order.into_iter().map(|(_, e)| e).collect();
    let h = history(games);
    let round = last + 1;
    let mut out = Vec::new();
    let bal = |e: &Entrant| h.balance.get(e.name.as_str()).copied().unwrap_or(0);
    // Who may have the bye, in order of preference: the fewest byes, then the lowest placed.
    // Without an odd player out, the one "candidate" is nobody.
    let candidates: Vec<Option<usize>> = if players.len() % 2 == 1 {
        let had_bye = byes(games);
        let mut c: Vec<usize> = (0..players.len()).rev().collect();
        c.sort_by_key(|&i| had_bye.get(players[i].name.as_str()).copied().unwrap_or(0));
        c.into_iter().map(Some).collect()
    } else {
        vec![None]
    };
    // First without pairing two players who both had Black (or White) twice more than the
    // other colour, whose game would put one of them three apart; then, if no such pairing
    // exists, with them. The bye goes to the first candidate who leaves a pairing.
    let mut found = None;
    'outer: for strict in [true, false] {
        for &bye in &candidates {
            let rest: Vec<&Entrant> = players
                .iter()
                .enumerate()
                .filter(|(i, _)| Some(*i) != bye)
                .map(|(_, e)| *e)
                .collect();
            let mut matched = vec![usize::MAX; rest.len()];
            let mut steps = 0u64;
            if search(&rest, &h, &bal, strict, &mut matched, &mut steps) {
                found = Some((bye, rest, matched));
                break 'outer;
            }
        }
    }
    let Some((bye, rest, matched)) = found else {
        return Err(PairingError::NoPairing(round));
    };
    if let Some(b) = bye {
        out.push(Game::new(
            round,
            0,
            &players[b].name,
            None,
            0,
            agreement.komi,
        ));
    }
    let players = rest;
    let mut board = 0;
    for i in 0..players.len() {
        let j = matched[i];
        if j < i {
            continue;
        }
        let (a, b) = (players[i], players[j]);
        // Colour balance: the one who has had Black more often takes White; equal, the
        // higher-placed player takes White in odd rounds, Black in even ones.
        let first_black = match bal(a).cmp(&bal(b)) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => round % 2 == 0,
        };
        let (x, y) = if first_black { (a, b) } else { (b, a) };
        let (bl, wh, p, k) = conditions(agreement, x, y);
        board += 1;
        out.push(Game::new(round, board, &bl, Some(&wh), p, k));
    }
    out.sort_by_key(|g| g.is_bye());
    for (i, g) in out.iter_mut().enumerate() {
        g.board = i as u32 + 1;
    }
    Ok(out)
}

fn search(
    players: &[&Entrant],
    h: &History<'_>,
    bal: &dyn Fn(&Entrant) -> i32,
    strict: bool,
    matched: &mut [usize],
    steps: &mut u64,
) -> bool {
    *steps += 1;
    if *steps > 2_000_000 {
        return false;
    }
    let Some(i) = matched.iter().position(|&m| m == usize::MAX) else {
        return true;
    };
    let a = players[i];
    let mut candidates: Vec<usize> = (i + 1..players.len())
        .filter(|&j| {
            matched[j] == usize::MAX
                && !h.met.contains(&(a.name.as_str(), players[j].name.as_str()))
        })
        .filter(|&j| !(strict && bal(a) == bal(players[j]) && bal(a).abs() >= 2))
        .collect();
    // Nearest first; within two places, one needing the other colour first.
    candidates.sort_by_key(|&j| {
        let clash = bal(a).signum() != 0 && bal(a).signum() == bal(players[j]).signum();
        ((j - i).div_ceil(2), clash)
    });
    for j in candidates {
        matched[i] = j;
        matched[j] = i;
        if search(players, h, bal, strict, matched, steps) {
            return true;
        }
        matched[i] = usize::MAX;
        matched[j] = usize::MAX;
    }
    false
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
