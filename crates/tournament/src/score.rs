//! Main and auxiliary scores (article 5, 計分) and the standings.
//!
//! 「“主分”乃本人勝一局得一分，主分相同時以輔分為準。“輔分”分為A1、A2、B1、B2四種：敗方對手
//! 主分之和為“A1”，勝方對手主分之和為“A2”，敗方對手輔分之和為“B1”，勝方對手輔分之和為
//! “B2”。主分相同時再比A1輔分，A1輔分又相同再比A2輔分，依此類推之。」

use std::collections::BTreeMap;

use ingo_rules::{Color, Komi};

use crate::agreement::{AuxForB, Scoring, TieBreak};
use crate::outcome::Outcome;

/// One game of an event (or a bye, when `white` is `None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Round, from 1.
    pub round: u32,
    /// Board (table) within the round, from 1.
    pub board: u32,
    /// Black's entrant name (the player with the bye, for a bye).
    pub black: String,
    /// White's entrant name; `None` for a bye (whose result is `None`, or void when 罰停
    /// cancelled it).
    pub white: Option<String>,
    /// White's handicap passes (讓手).
    pub passes: u8,
    /// Komi (the even komi or the compensation points of 還點填平法).
    pub komi: Komi,
    /// The result, once entered.
    pub result: Option<Outcome>,
    /// Whether the result was given by the rules rather than entered: the forfeit losses and
    /// cancelled byes of 罰停 ([`crate::Event::apply_suspensions`]). Such a result is taken
    /// back and worked out again whenever a correction changes who is suspended.
    pub automatic: bool,
}

impl Game {
    /// A game with no result yet.
    pub fn new(
        round: u32,
        board: u32,
        black: &str,
        white: Option<&str>,
        passes: u8,
        komi: Komi,
    ) -> Game {
        Game {
            round,
            board,
            black: black.to_owned(),
            white: white.map(str::to_owned),
            passes,
            komi,
            result: None,
            automatic: false,
        }
    }

    /// Whether this is a bye.
    pub fn is_bye(&self) -> bool {
        self.white.is_none()
    }

    /// The player with `color`.
    pub fn player(&self, color: Color) -> Option<&str> {
        match color {
            Color::Black => Some(&self.black),
            Color::White => self.white.as_deref(),
        }
    }

    /// Whether `name` plays in it.
    pub fn has(&self, name: &str) -> bool {
        self.black == name || self.white.as_deref() == Some(name)
    }

    /// The opponent of `name`.
    pub fn opponent(&self, name: &str) -> Option<&str> {
        if self.black == name {
            self.white.as_deref()
        } else if self.white.as_deref() == Some(name) {
            Some(&self.black)
        } else {
            None
        }
    }

    /// Winner and loser, for a decided game (not a bye, not void).
    pub fn winner_loser(&self) -> Option<(&str, &str)> {
        let w = self.white.as_deref()?;
        match self.result?.winner()? {
            Color::Black => Some((&self.black, w)),
            Color::White => Some((w, &self.black)),
        }
    }

    /// Whether the game needs no more play: a bye, or a game with a result.
    pub fn is_done(&self) -> bool {
        self.is_bye() || self.result.is_some()
    }
}

/// One line of the standings (as JSON: the fields by these names, as `ingo tournament
/// standings --json` and the play server's events give them).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Standing {
    /// Place, from 1; players equal on every key share it.
    pub rank: usize,
    /// Entrant name.
    pub player: String,
    /// 主分: one point a win (byes included, by the agreement).
    pub main: u32,
    /// The McMahon score: the start from the rank plus the main score (a McMahon event is
    /// placed by it); the main score in other formats.
    pub mcmahon: u32,
    /// 敗方對手主分之和.
    pub a1: u32,
    /// 勝方對手主分之和.
    pub a2: u32,
    /// 敗方對手輔分之和.
    pub b1: u32,
    /// 勝方對手輔分之和.
    pub b2: u32,
    /// Sum of the opponents' main scores (every decided game); their McMahon scores in a
    /// McMahon event.
    pub sos: u32,
    /// Sum of the opponents' SOS.
    pub sosos: u32,
    /// Sum of the main scores (McMahon scores, in a McMahon event) of the opponents beaten.
    pub sodos: u32,
    /// Games won (forfeits included, byes not).
    pub wins: u32,
    /// Games lost (forfeits included).
    pub losses: u32,
    /// Byes.
    pub byes: u32,
    /// Void games.
    pub voids: u32,
    /// Forfeit wins and losses among `wins`/`losses`.
    pub forfeits: u32,
}

impl Standing {
    /// The value of a ranking key.
    pub fn key(&self, k: TieBreak) -> u32 {
        match k {
            TieBreak::A1 => self.a1,
            TieBreak::A2 => self.a2,
            TieBreak::B1 => self.b1,
            TieBreak::B2 => self.b2,
            TieBreak::Sos => self.sos,
            TieBreak::Sosos => self.sosos,
            TieBreak::Sodos => self.sodos,
        }
    }
}

/// The standings of `players` (every entrant, in seed order, so that a player with no game
/// still appears) after `games`, ranked by main score and then `scoring.tie_breakers`.
/// Names in games that are not in `players` are added after them.
pub fn standings(players: &[String], games: &[Game], scoring: &Scoring) -> Vec<Standing> {
    table(players, &BTreeMap::new(), false, games, scoring)
}

/// The standings of a McMahon event, placed as OpenGotha and the EGF place one: by McMahon
/// score (each player's start, given with the name, plus the main score with the agreement's
/// bye points), then `scoring.tie_breakers`, where SOS, SOSOS and SODOS sum McMahon scores.
/// A1, A2, B1 and B2 keep summing main scores.
pub fn mcmahon_standings(
    players: &[(String, u32)],
    games: &[Game],
    scoring: &Scoring,
) -> Vec<Standing> {
    let names: Vec<String> = players.iter().map(|(n, _)| n.clone()).collect();
    let start: BTreeMap<String, u32> = players.iter().cloned().collect();
    table(&names, &start, true, games, scoring)
}

fn table(
    players: &[String],
    start: &BTreeMap<String, u32>,
    mcmahon: bool,
    games: &[Game],
    scoring: &Scoring,
) -> Vec<Standing> {
    let mut order: Vec<String> = players.to_vec();
    for g in games {
        for n in [Some(g.black.as_str()), g.white.as_deref()]
            .into_iter()
            .flatten()
        {
            if !order.iter().any(|p| p == n) {
                order.push(n.to_owned());
            }
        }
    }
    let mut s: BTreeMap<&str, Standing> = order
        .iter()
        .map(|p| {
            (
                p.as_str(),
                Standing {
                    rank: 0,
                    player: p.clone(),
                    main: 0,
                    mcmahon: 0,
                    a1: 0,
                    a2: 0,
                    b1: 0,
                    b2: 0,
                    sos: 0,
                    sosos: 0,
                    sodos: 0,
                    wins: 0,
                    losses: 0,
                    byes: 0,
                    voids: 0,
                    forfeits: 0,
                },
            )
        })
        .collect();
    let mut bye_points: BTreeMap<&str, u32> = BTreeMap::new();
    // (winner, loser) of every decided game: the sums run over games, so an opponent beaten
    // twice counts twice.
    let mut decided: Vec<(&str, &str)> = Vec::new();
    // A bye scores once its round is under way (some game of the round has a result, not
    // counting the forfeits 罰停 decides in advance), so that the byes of a round robin drawn
    // in advance do not count before their round; a round that is all byes is under way.
    let current = games
        .iter()
        .filter(|g| {
            !g.is_bye()
                && g.result
                    .is_some_and(|o| o.forfeit() != Some(crate::ForfeitReason::Suspension))
        })
        .map(|g| g.round)
        .max()
        .unwrap_or(0);
    for g in games {
        if g.is_bye() {
            // A bye cancelled by 罰停 (marked void) scores nothing.
            // A round of byes only (a knockout's walkover) is under way at once.
            let walkover = !games.iter().any(|o| o.round == g.round && !o.is_bye());
            if g.result == Some(Outcome::Void) || (g.round > current && !walkover) {
                continue;
            }
            if let Some(x) = s.get_mut(g.black.as_str()) {
                x.byes += 1;
                x.main += scoring.bye_main;
            }
            *bye_points.entry(g.black.as_str()).or_default() += scoring.bye_main;
            continue;
        }
        match g.result {
            None => {}
            Some(Outcome::Void) => {
                for n in [Some(g.black.as_str()), g.white.as_deref()]
                    .into_iter()
                    .flatten()
                {
                    if let Some(x) = s.get_mut(n) {
                        x.voids += 1;
                    }
                }
            }
            Some(o) => {
                if let Some((w, l)) = g.winner_loser() {
                    decided.push((w, l));
                    let forfeit = u32::from(o.forfeit().is_some());
                    if let Some(x) = s.get_mut(w) {
                        x.main += 1;
                        x.wins += 1;
                        x.forfeits += forfeit;
                    }
                    if let Some(x) = s.get_mut(l) {
                        x.losses += 1;
                        x.forfeits += forfeit;
                    }
                }
            }
        }
    }
    for (k, v) in s.iter_mut() {
        v.mcmahon = v.main + start.get(*k).copied().unwrap_or(0);
    }
    let main: BTreeMap<&str, u32> = s.iter().map(|(k, v)| (*k, v.main)).collect();
    // What SOS and SODOS sum: McMahon scores in a McMahon event, main scores otherwise.
    let summed: BTreeMap<&str, u32> = s
        .iter()
        .map(|(k, v)| (*k, if mcmahon { v.mcmahon } else { v.main }))
        .collect();
    // The main score that others sum: without bye points unless the agreement says otherwise.
    let main_aux = |p: &str| {
        let m = main.get(p).copied().unwrap_or(0);
        if scoring.bye_in_aux {
            m
        } else {
            m - bye_points.get(p).copied().unwrap_or(0)
        }
    };
    for &(w, l) in &decided {
        let (mw, ml) = (main_aux(w), main_aux(l));
        let (fw, fl) = (
            summed.get(w).copied().unwrap_or(0),
            summed.get(l).copied().unwrap_or(0),
        );
        if let Some(x) = s.get_mut(w) {
            x.a1 += ml;
            x.sos += fl;
            x.sodos += fl;
        }
        if let Some(x) = s.get_mut(l) {
            x.a2 += mw;
            x.sos += fw;
        }
    }
    let aux: BTreeMap<&str, u32> = s
        .iter()
        .map(|(k, v)| {
            (
                *k,
                match scoring.aux_for_b {
                    AuxForB::A1PlusA2 => v.a1 + v.a2,
                    AuxForB::A1 => v.a1,
                },
            )
        })
        .collect();
    let sos: BTreeMap<&str, u32> = s.iter().map(|(k, v)| (*k, v.sos)).collect();
    for &(w, l) in &decided {
        if let Some(x) = s.get_mut(w) {
            x.b1 += aux.get(l).copied().unwrap_or(0);
            x.sosos += sos.get(l).copied().unwrap_or(0);
        }
        if let Some(x) = s.get_mut(l) {
            x.b2 += aux.get(w).copied().unwrap_or(0);
            x.sosos += sos.get(w).copied().unwrap_or(0);
        }
    }
    let mut table: Vec<Standing> = order.iter().filter_map(|p| s.remove(p.as_str())).collect();
    let keys = |x: &Standing| -> Vec<u32> {
        std::iter::once(if mcmahon { x.mcmahon } else { x.main })
            .chain(scoring.tie_breakers.iter().map(|&k| x.key(k)))
            .collect()
    };
    // Stable: players equal on every key stay in seed order and share the place.
    table.sort_by_key(|x| std::cmp::Reverse(keys(x)));
    for i in 0..table.len() {
        table[i].rank = if i > 0 && keys(&table[i]) == keys(&table[i - 1]) {
            table[i - 1].rank
        } else {
            i + 1
        };
    }
    table
}
