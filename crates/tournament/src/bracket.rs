//! The bracket of a single-elimination event (單式淘汰制): each round's pairings in bracket
//! order with their results and who went on, and the rounds still to come, as data (for
//! pictures, which ingo-render draws) and text.

use std::fmt::Write as _;

use crate::agreement::FormatKind;
use crate::score::Game;
use crate::Event;

/// One pairing of a bracket.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BracketMatch {
    /// The two sides, Black of the first game first; `None` for the empty side of a bye, or
    /// a side not known yet.
    pub players: [Option<String>; 2],
    /// Each side's seed (from 1), when known.
    pub seeds: [Option<usize>; 2],
    /// The side that went on (0 or 1), once decided.
    pub winner: Option<usize>,
    /// The results of the games between them, in order (a void game replayed shows twice).
    pub results: Vec<String>,
}

/// The bracket: `rounds[r]` holds round r + 1's pairings in bracket order; rounds not paired
/// yet are there with sides unknown, down to the final. A double knockout (複式淘汰制) has no
/// fixed bracket (each round is paired among the players of equal losses): `rounds[r]` holds
/// round r + 1's pairings of the unbeaten, `losers[r]` those of the once-beaten (with an
/// unbeaten player left over, who joins them), and `finals` the games of the last two players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bracket {
    /// The event's name.
    pub title: String,
    /// The rounds, the first first (a double knockout's: the unbeaten players' pairings).
    pub rounds: Vec<Vec<BracketMatch>>,
    /// A double knockout's once-beaten players' pairings, a list a round (empty lists for a
    /// single knockout).
    pub losers: Vec<Vec<BracketMatch>>,
    /// A double knockout's final games, each with its round: the games of the last two
    /// players (the unbeaten against the once-beaten, twice if the unbeaten loses the first).
    pub finals: Vec<(u32, BracketMatch)>,
    /// Whether this is a double knockout's.
    pub double: bool,
    winner: Option<String>,
}

/// Why an event has no bracket.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BracketError {
    /// Only a knockout has a bracket.
    #[error("a bracket is drawn for a knockout or double knockout, not a {0}")]
    NotKnockout(&'static str),
    /// Nothing is paired yet.
    #[error("the bracket is not drawn yet: pair round 1 first")]
    NotDrawn,
}

/// The pairings of one round's `games`, each pair once (a void game replayed in its round is
/// one pairing with two results), the side that went on marked.
fn matches_of(games: &[&Game], seed: &dyn Fn(&str) -> Option<usize>) -> Vec<BracketMatch> {
    let mut matches: Vec<BracketMatch> = Vec::new();
    for g in games {
        let found = matches.iter_mut().find(|m| {
            m.players[0].as_deref() == Some(g.black.as_str()) && m.players[1] == g.white
                || m.players[1].as_deref() == Some(g.black.as_str()) && m.players[0] == g.white
        });
        let m = match found {
            Some(m) => m,
            None => {
                matches.push(BracketMatch {
                    players: [Some(g.black.clone()), g.white.clone()],
                    seeds: [seed(&g.black), g.white.as_deref().and_then(seed)],
                    ..BracketMatch::default()
                });
                let i = matches.len() - 1;
                &mut matches[i]
            }
        };
        if g.is_bye() {
            m.winner = Some(0);
            continue;
        }
        if let Some(r) = g.result {
            m.results.push(r.to_string());
        }
        if let Some((w, _)) = g.winner_loser() {
            m.winner = m.players.iter().position(|p| p.as_deref() == Some(w));
        }
    }
    matches
}

impl Bracket {
    /// The bracket of `ev` as it stands.
    ///
    /// # Errors
    ///
    /// [`BracketError`] for another format or an event not yet paired.
    pub fn new(ev: &Event) -> Result<Bracket, BracketError> {
        let kind = ev.agreement.format.kind;
        if !matches!(kind, FormatKind::Knockout | FormatKind::DoubleKnockout) {
            return Err(BracketError::NotKnockout(kind.name()));
        }
        let last = ev.latest_round().ok_or(BracketError::NotDrawn)?;
        let seed = |n: &str| ev.entrants.iter().position(|e| e.name == n).map(|i| i + 1);
        let round_games =
            |round: u32| -> Vec<&Game> { ev.games.iter().filter(|g| g.round == round).collect() };
        if kind == FormatKind::DoubleKnockout {
            return Ok(Bracket::double(ev, last, &seed));
        }
        let mut rounds: Vec<Vec<BracketMatch>> = (1..=last)
            .map(|round| matches_of(&round_games(round), &seed))
            .collect();
        // The rounds to come, halving down to the final.
        let mut n = rounds.last().map_or(0, Vec::len);
        while n > 1 {
            n = n.div_ceil(2);
            rounds.push(vec![BracketMatch::default(); n]);
        }
        let winner = rounds.last().and_then(|last| match &last[..] {
            [m] => m.winner.and_then(|w| m.players[w].clone()),
            _ => None,
        });
        Ok(Bracket {
            title: ev.agreement.name.clone(),
            losers: vec![Vec::new(); rounds.len()],
            rounds,
            finals: Vec::new(),
            double: false,
            winner,
        })
    }

    /// A double knockout's bracket: each round's pairings sorted by the players' losses before
    /// it (both unbeaten, or a loss on either side), a round of one game the final.
    fn double(ev: &Event, last: u32, seed: &dyn Fn(&str) -> Option<usize>) -> Bracket {
        let mut lost: std::collections::BTreeMap<&str, u32> = Default::default();
        let (mut rounds, mut losers, mut finals) = (Vec::new(), Vec::new(), Vec::new());
        for round in 1..=last {
            let games: Vec<&Game> = ev.games.iter().filter(|g| g.round == round).collect();
            let before = |n: &str| lost.get(n).copied().unwrap_or(0);
            let (mut upper, mut lower) = (Vec::new(), Vec::new());
            // A round of one game and no bye is a final: the last two players left (the
            // unbeaten against the once-beaten, and again if the unbeaten lost).
            match games[..] {
                [g] if !g.is_bye() => {
                    finals.extend(matches_of(&[g], seed).into_iter().map(|m| (round, m)));
                }
                _ => {
                    for g in &games {
                        // An unbeaten player left over joins the once-beaten: a game with a
                        // loss on either side is theirs.
                        match (before(&g.black), g.white.as_deref().map(before)) {
                            (0, None | Some(0)) => upper.push(*g),
                            _ => lower.push(*g),
                        }
                    }
                }
            }
            rounds.push(matches_of(&upper, seed));
            losers.push(matches_of(&lower, seed));
            for g in &games {
                if let Some((_, l)) = g.winner_loser() {
                    *lost.entry(l).or_default() += 1;
                }
            }
        }
        // The winner: the one player left with fewer than two losses once the event is over.
        let alive: Vec<&str> = ev
            .entrants
            .iter()
            .filter(|e| ev.games.iter().any(|g| g.has(&e.name)))
            .map(|e| e.name.as_str())
            .filter(|n| lost.get(n).copied().unwrap_or(0) < 2)
            .collect();
        let winner = match alive[..] {
            [one] if ev.is_finished() => Some(one.to_owned()),
            _ => None,
        };
        Bracket {
            title: ev.agreement.name.clone(),
            rounds,
            losers,
            finals,
            double: true,
            winner,
        }
    }

    /// The winner, once the final is decided.
    pub fn champion(&self) -> Option<&str> {
        self.winner.as_deref()
    }

    /// The bracket as text: a block a round, a line a pairing.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for (r, matches) in self.rounds.iter().enumerate() {
            let _ = writeln!(s, "round {}", r + 1);
            let finals: Vec<&BracketMatch> = self
                .finals
                .iter()
                .filter(|(f, _)| *f as usize == r + 1)
                .map(|(_, m)| m)
                .collect();
            let parts: Vec<(&str, Vec<&BracketMatch>)> = if self.double {
                vec![
                    ("unbeaten: ", matches.iter().collect()),
                    ("once beaten: ", self.losers[r].iter().collect()),
                    ("final: ", finals),
                ]
            } else {
                vec![("", matches.iter().collect())]
            };
            for (label, m) in parts
                .iter()
                .flat_map(|(l, ms)| ms.iter().map(move |m| (*l, *m)))
            {
                s.push_str("  ");
                s.push_str(label);
                let s = &mut s;
                let side = |i: usize| -> String {
                    let name = m.players[i].clone().unwrap_or_else(|| "?".into());
                    if m.winner == Some(i) {
                        format!("[{name}]")
                    } else {
                        name
                    }
                };
                if m.players[0].is_some() && m.players[1].is_none() && m.winner == Some(0) {
                    let _ = writeln!(s, "{} (bye)", side(0));
                } else {
                    let _ = write!(s, "{} – {}", side(0), side(1));
                    if !m.results.is_empty() {
                        let _ = write!(s, "  {}", m.results.join(", "));
                    }
                    s.push('\n');
                }
            }
        }
        if let Some(c) = self.champion() {
            let _ = writeln!(s, "winner: {c}");
        }
        s
    }
}
