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
/// yet are there with sides unknown, down to the final.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bracket {
    /// The event's name.
    pub title: String,
    /// The rounds, the first first.
    pub rounds: Vec<Vec<BracketMatch>>,
}

/// Why an event has no bracket.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BracketError {
    /// Only a single-elimination event has a bracket.
    #[error("a bracket is drawn for a knockout, not a {0}")]
    NotKnockout(&'static str),
    /// Nothing is paired yet.
    #[error("the bracket is not drawn yet: pair round 1 first")]
    NotDrawn,
}

impl Bracket {
    /// The bracket of `ev` as it stands.
    ///
    /// # Errors
    ///
    /// [`BracketError`] for another format or an event not yet paired.
    pub fn new(ev: &Event) -> Result<Bracket, BracketError> {
        if ev.agreement.format.kind != FormatKind::Knockout {
            return Err(BracketError::NotKnockout(ev.agreement.format.kind.name()));
        }
        let last = ev.latest_round().ok_or(BracketError::NotDrawn)?;
        let seed = |n: &str| ev.entrants.iter().position(|e| e.name == n).map(|i| i + 1);
        let mut rounds: Vec<Vec<BracketMatch>> = Vec::new();
        for round in 1..=last {
            let games: Vec<&Game> = ev.games.iter().filter(|g| g.round == round).collect();
            let mut matches: Vec<BracketMatch> = Vec::new();
            for g in games {
                let found = matches.iter_mut().find(|m| {
                    m.players[0].as_deref() == Some(g.black.as_str()) && m.players[1] == g.white
                        || m.players[1].as_deref() == Some(g.black.as_str())
                            && m.players[0] == g.white
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
            rounds.push(matches);
        }
        // The rounds to come, halving down to the final.
        let mut n = rounds.last().map_or(0, Vec::len);
        while n > 1 {
            n = n.div_ceil(2);
            rounds.push(vec![BracketMatch::default(); n]);
        }
        Ok(Bracket {
            title: ev.agreement.name.clone(),
            rounds,
        })
    }

    /// The winner, once the final is decided.
    pub fn champion(&self) -> Option<&str> {
        let last = self.rounds.last()?;
        let [m] = &last[..] else { return None };
        m.players[m.winner?].as_deref()
    }

    /// The bracket as text: a block a round, a line a pairing.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for (r, matches) in self.rounds.iter().enumerate() {
            let _ = writeln!(s, "round {}", r + 1);
            for m in matches {
                let side = |i: usize| -> String {
                    let name = m.players[i].clone().unwrap_or_else(|| "?".into());
                    if m.winner == Some(i) {
                        format!("[{name}]")
                    } else {
                        name
                    }
                };
                if m.players[0].is_some() && m.players[1].is_none() && m.winner == Some(0) {
                    let _ = writeln!(s, "  {} (bye)", side(0));
                } else {
                    let _ = write!(s, "  {} – {}", side(0), side(1));
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
