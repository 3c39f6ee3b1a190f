//! Tournaments under Ing's competition rules (article 5 賽約 and article 8 罰則 of the 2001
//! text): the agreement, entrants, formats and pairing, main and auxiliary scores, forfeits and
//! suspension. Pure: results in, tables out; storage and engines live elsewhere.
//!
//! ```
//! use ingo_tournament::{Agreement, Event};
//! let agreement = Agreement::from_toml(r#"
//!     name = "Club cup"
//!     purpose = "Friendly"
//!     eligibility = "Members"
//!     registration = { opens = "2026-01-01", closes = "2026-01-31" }
//!     format = { kind = "round-robin" }
//!     entrants = [{ name = "Ann" }, { name = "Bo" }, { name = "Cy" }]
//! "#).unwrap();
//! let mut event = Event::new(agreement);
//! event.games = event.draw().unwrap();
//! assert_eq!(event.games.len(), 6); // 3 games and 3 byes over 3 rounds
//! // Round 1: Bo (Black) against Cy, Ann has the bye.
//! assert_eq!((event.games[0].black.as_str(), event.games[0].white.as_deref()), ("Bo", Some("Cy")));
//! event.enter(1, 1, "B+3".parse().unwrap()).unwrap();
//! let table = event.standings();
//! // Bo's win and Ann's bye are a main point each. Bo beat Cy, who has no point (A1 0) but
//! // whose A2 is Bo's point, so Bo's B1 is 1; a bye adds no auxiliary score.
//! let keys = |i: usize| (table[i].player.as_str(), table[i].main, table[i].a1, table[i].b1);
//! assert_eq!((keys(0), keys(1)), (("Bo", 1, 0, 1), ("Ann", 1, 0, 0)));
//! ```
//!
//! Defaults where the text is silent (each one configurable in the agreement, and listed in
//! `docs/tournaments.md`): a forfeit is a win and a loss like any other game; a void game counts
//! for nobody; a bye is one main point and adds nothing to anyone's auxiliary scores; the
//! auxiliary score of an opponent in B1/B2 is its A1 + A2; one absence is allowed, the second
//! suspends (罰停).
#![deny(missing_docs)]

mod agreement;
pub mod bracket;
mod corrections;
pub mod crosstable;
mod entrant;
pub mod export;
mod matching;
mod outcome;
pub mod pairing;
pub mod registration;
mod score;
pub mod sheets;

pub use agreement::{
    Agreement, AgreementError, AuxForB, Format, FormatKind, GroupOrder, HandicapSystem,
    PairingRules, RuleSet, Scoring, TieBreak,
};
pub use corrections::{
    entrant_text, game_text, Action, Changed, CorrectionError, Decided, LogEntry,
};
pub use entrant::{country_code, Entrant, EntrantKind, Member};
pub use outcome::{ForfeitReason, Outcome, ParseOutcomeError, WinBy};
pub use pairing::{group_scores, PairingOptions};
pub use score::{mcmahon_standings, standings, Game, Standing};

use ingo_competition::Rank;
use ingo_rules::Color;

/// A rank as one step a rank, for ordering and McMahon scores: 1k = −1, 1d = 0, 9d = 8, then
/// the professional ranks above 9d, 1品 (the strongest) highest.
pub fn rank_level(r: Rank) -> i32 {
    match r {
        Rank::BelowKyu => -10,
        Rank::Kyu(k) => -i32::from(k),
        Rank::Dan(d) => i32::from(d) - 1,
        Rank::Pro(p) => 9 + (9 - i32::from(p)),
    }
}

/// Why no pairing can be made now.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PairingError {
    /// Games of the current round still have no result.
    #[error("round {0} is not finished: enter every result first")]
    RoundNotFinished(u32),
    /// Every round or game of the format has been played (or the winner is known).
    #[error("the event is finished: no more rounds to pair")]
    Finished,
    /// Too few active entrants.
    #[error("{0} active entrant(s): at least 2 are needed")]
    TooFew(usize),
    /// No pairing without a rematch exists.
    #[error("round {0}: no pairing without a rematch exists")]
    NoPairing(u32),
    /// A name in the games is not an entrant.
    #[error("{0:?} is not an entrant")]
    Unknown(String),
    /// The schedule of a round robin is drawn once, in advance.
    #[error("the schedule is already drawn")]
    AlreadyDrawn,
    /// The format needs a different set of entrants.
    #[error("{0}")]
    Entrants(String),
}

/// An error entering a result.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResultError {
    /// No game at that round and board.
    #[error("no game at round {round}, board {board}")]
    NoSuchGame {
        /// Round.
        round: u32,
        /// Board.
        board: u32,
    },
    /// A bye has no result.
    #[error("round {round}, board {board} is a bye: it has no result")]
    Bye {
        /// Round.
        round: u32,
        /// Board.
        board: u32,
    },
    /// The game has a result already: a correction is made on purpose, with a reason
    /// ([`Event::change`]), never by entering another result over it.
    #[error("round {round}, board {board} already has the result {result}: change it on purpose, with a reason, or clear it")]
    HasResult {
        /// Round.
        round: u32,
        /// Board.
        board: u32,
        /// The result it has.
        result: Outcome,
    },
    /// There is no result to change or clear.
    #[error("round {round}, board {board} has no result to change or clear")]
    NoResult {
        /// Round.
        round: u32,
        /// Board.
        board: u32,
    },
    /// The result was given by the rules (罰停), not entered: it follows the absences that
    /// caused it and cannot be cleared by itself.
    #[error("round {round}, board {board}: {result} is given by the suspension (罰停) of {player}; correct the absence that caused it instead")]
    Automatic {
        /// Round.
        round: u32,
        /// Board.
        board: u32,
        /// The result.
        result: Outcome,
        /// The suspended player.
        player: String,
    },
    /// The result cannot be the result of that game.
    #[error("round {round}, board {board}: {result} is not a possible result: {reason}")]
    Impossible {
        /// Round.
        round: u32,
        /// Board.
        board: u32,
        /// The result refused.
        result: Outcome,
        /// Why.
        reason: String,
    },
}

/// An event: its agreement, entrants and games. The store keeps these; this type decides.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// The agreement.
    pub agreement: Agreement,
    /// Entrants, in seed order (withdrawn ones included).
    pub entrants: Vec<Entrant>,
    /// Games and byes, in round and board order.
    pub games: Vec<Game>,
}

impl Event {
    /// An event with the agreement's entrants and no games.
    pub fn new(agreement: Agreement) -> Event {
        let entrants = agreement.entrants.clone();
        Event {
            agreement,
            entrants,
            games: Vec::new(),
        }
    }

    /// Adds an entrant.
    ///
    /// # Errors
    ///
    /// The reason, when the name is taken, the members do not suit its kind, the agreement
    /// does not admit it, or the schedule of a round robin or the bracket of a knockout is
    /// drawn already.
    pub fn add(&mut self, entrant: Entrant) -> Result<(), String> {
        if self.entrants.iter().any(|e| e.name == entrant.name) {
            return Err(format!("{:?} is already entered", entrant.name));
        }
        if !self.games.is_empty()
            && matches!(
                self.agreement.format.kind,
                FormatKind::RoundRobin
                    | FormatKind::DoubleRoundRobin
                    | FormatKind::Knockout
                    | FormatKind::DoubleKnockout
            )
        {
            return Err(format!(
                "the {} is drawn already: a late entrant has no place in it (take the draw back with unpair first)",
                self.agreement.format.kind.name()
            ));
        }
        entrant.check()?;
        self.agreement.admits(&entrant)?;
        self.entrants.push(entrant);
        Ok(())
    }

    /// Entrants that are neither withdrawn nor suspended, in seed order.
    pub fn active(&self) -> Vec<&Entrant> {
        let suspended = self.suspended();
        self.entrants
            .iter()
            .filter(|e| !e.withdrawn && !suspended.contains(&e.name))
            .collect()
    }

    /// Absences (缺席 and 請假 forfeits) of `name`.
    pub fn absences(&self, name: &str) -> u32 {
        self.games
            .iter()
            .filter(|g| {
                g.result
                    .and_then(Outcome::forfeit)
                    .is_some_and(ForfeitReason::is_absence)
                    && g.winner_loser().is_some_and(|(_, l)| l == name)
            })
            .count() as u32
    }

    /// Players suspended (罰停): 「對局者缺席或請假次數超過規定，停止其以後賽程」, i.e. with more
    /// absences than the agreement allows.
    pub fn suspended(&self) -> Vec<String> {
        self.entrants
            .iter()
            .filter(|e| self.absences(&e.name) > self.agreement.allowed_absences)
            .map(|e| e.name.clone())
            .collect()
    }

    /// The round in which `name` was suspended: that of the absence that exceeded the
    /// agreement's number.
    pub fn suspended_in(&self, name: &str) -> Option<u32> {
        let mut absences: Vec<u32> = self
            .games
            .iter()
            .filter(|g| {
                g.result
                    .and_then(Outcome::forfeit)
                    .is_some_and(ForfeitReason::is_absence)
                    && g.winner_loser().is_some_and(|(_, l)| l == name)
            })
            .map(|g| g.round)
            .collect();
        absences.sort_unstable();
        absences
            .get(self.agreement.allowed_absences as usize)
            .copied()
    }

    /// Gives every unplayed game of a suspended player a forfeit loss for that player
    /// (「其未賽成績一律為“裁定敗”」) and cancels the player's byes of later rounds (a bye is
    /// part of the schedule that 罰停 stops); returns the (round, board) of each game changed.
    /// When both players of a game are suspended the game is void.
    pub fn apply_suspensions(&mut self) -> Vec<(u32, u32)> {
        let suspended = self.suspended();
        let mut changed = Vec::new();
        let since: Vec<(String, u32)> = suspended
            .iter()
            .filter_map(|n| self.suspended_in(n).map(|r| (n.clone(), r)))
            .collect();
        for g in self
            .games
            .iter_mut()
            .filter(|g| g.is_bye() && g.result.is_none())
        {
            if since.iter().any(|(n, r)| *n == g.black && g.round > *r) {
                g.result = Some(Outcome::Void);
                g.automatic = true;
                changed.push((g.round, g.board));
            }
        }
        for g in self.games.iter_mut().filter(|g| !g.is_done()) {
            let b = suspended.contains(&g.black);
            let w = g.white.as_ref().is_some_and(|w| suspended.contains(w));
            let result = match (b, w) {
                (true, true) => Outcome::Void,
                (true, false) => Outcome::Win {
                    winner: Color::White,
                    by: WinBy::Forfeit(ForfeitReason::Suspension),
                },
                (false, true) => Outcome::Win {
                    winner: Color::Black,
                    by: WinBy::Forfeit(ForfeitReason::Suspension),
                },
                (false, false) => continue,
            };
            g.result = Some(result);
            g.automatic = true;
            changed.push((g.round, g.board));
        }
        changed
    }

    /// Enters the result of the game at `round`, `board`, then applies any suspension it
    /// causes. Returns what that suspension changed. A game that has a result keeps it: a
    /// correction is [`Event::change`] or [`Event::clear`].
    ///
    /// # Errors
    ///
    /// [`ResultError`] when there is no such game, it is a bye, it has a result already, or
    /// the result is not one the game can have ([`Event::check_result`]).
    pub fn enter(
        &mut self,
        round: u32,
        board: u32,
        result: Outcome,
    ) -> Result<Vec<Changed>, ResultError> {
        let g = self.game(round, board)?;
        if let Some(r) = g.result {
            return Err(ResultError::HasResult {
                round,
                board,
                result: r,
            });
        }
        self.check_result(g, result)?;
        let g = self.game_mut(round, board)?;
        g.result = Some(result);
        g.automatic = false;
        Ok(self.recompute_suspensions())
    }

    /// The whole schedule of a round robin; round 1 of a knockout; the first round or game of
    /// the other formats. Use [`Event::pair_next`] afterwards.
    ///
    /// # Errors
    ///
    /// [`PairingError::AlreadyDrawn`] when games exist, or as [`Event::pair_next`].
    pub fn draw(&self) -> Result<Vec<Game>, PairingError> {
        if !self.games.is_empty() {
            return Err(PairingError::AlreadyDrawn);
        }
        self.pair_next()
    }

    /// The next games to play: the next round (Swiss, McMahon, knockouts), the next game
    /// (擂台制, 十局升降制), or the whole schedule of a round robin not yet drawn.
    ///
    /// # Errors
    ///
    /// [`PairingError`]: the round is not finished, the event is, or no pairing exists.
    pub fn pair_next(&self) -> Result<Vec<Game>, PairingError> {
        self.pair_next_with(&PairingOptions::default())
    }

    /// The next games, as [`Event::pair_next`], with the director's choices for this round
    /// (fixed and forbidden pairs, rematches allowed): Swiss and McMahon events only.
    ///
    /// # Errors
    ///
    /// As [`Event::pair_next`], and [`PairingError::Entrants`] for options given to another
    /// format or a fixed pair that is not two active entrants.
    pub fn pair_next_with(&self, options: &PairingOptions) -> Result<Vec<Game>, PairingError> {
        let a = &self.agreement;
        let swiss = matches!(a.format.kind, FormatKind::Swiss | FormatKind::McMahon);
        if !swiss && options != &PairingOptions::default() {
            return Err(PairingError::Entrants(format!(
                "fixed or forbidden pairs and rematches on request are for swiss and mcmahon events, not {}",
                a.format.kind.name()
            )));
        }
        let active = self.active();
        match a.format.kind {
            FormatKind::RoundRobin | FormatKind::DoubleRoundRobin => {
                if !self.games.is_empty() {
                    return Err(PairingError::AlreadyDrawn);
                }
                if active.len() < 2 {
                    return Err(PairingError::TooFew(active.len()));
                }
                let names: Vec<String> = active.iter().map(|e| e.name.clone()).collect();
                let rr =
                    pairing::round_robin(&names, a.format.kind == FormatKind::DoubleRoundRobin);
                let mut out: Vec<Game> = Vec::new();
                for (round, first, second) in rr {
                    let board = out.iter().filter(|g| g.round == round).count() as u32 + 1;
                    let g = match second {
                        None => Game::new(round, board, &first, None, 0, a.komi),
                        Some(second) => {
                            let ea = active.iter().find(|e| e.name == first).copied();
                            let eb = active.iter().find(|e| e.name == second).copied();
                            let (ea, eb) = ea
                                .zip(eb)
                                .ok_or_else(|| PairingError::Unknown(first.clone()))?;
                            let (bl, wh, p, k) = pairing::conditions(a, ea, eb);
                            Game::new(round, board, &bl, Some(&wh), p, k)
                        }
                    };
                    out.push(g);
                }
                // Byes last on each round's list.
                out.sort_by_key(|g| (g.round, g.is_bye(), g.board));
                let mut last = (0, 0);
                for g in &mut out {
                    last = if last.0 == g.round {
                        (g.round, last.1 + 1)
                    } else {
                        (g.round, 1)
                    };
                    g.board = last.1;
                }
                Ok(out)
            }
            FormatKind::Knockout => pairing::knockout_next(a, &active, &self.games),
            FormatKind::DoubleKnockout => pairing::double_knockout_next(a, &active, &self.games),
            FormatKind::Swiss | FormatKind::McMahon => {
                pairing::swiss_next_with(a, &active, &self.games, options)
            }
            FormatKind::Leitai => {
                let teams: Vec<&Entrant> = self.entrants.iter().collect();
                let [t1, t2] = teams[..] else {
                    return Err(PairingError::Entrants(format!(
                        "擂台制 is played by exactly 2 teams, not {}",
                        teams.len()
                    )));
                };
                pairing::leitai_next(a, [t1, t2], &self.games)
            }
            FormatKind::TenGame => {
                let [p1, p2] = self.entrants.iter().collect::<Vec<_>>()[..] else {
                    return Err(PairingError::Entrants(format!(
                        "十局升降制 is a match of exactly 2 entrants, not {}",
                        self.entrants.len()
                    )));
                };
                pairing::ten_game_next(a, p1, p2, &self.games)
            }
        }
    }

    /// The standings: every entrant (members, for a team format), ranked; a McMahon event by
    /// McMahon score ([`mcmahon_standings`]). An entrant withdrawn before its first game or
    /// bye took no part and is left out (so are the crosstable and the exports, which follow
    /// the standings).
    pub fn standings(&self) -> Vec<Standing> {
        let names: Vec<String> = if self.agreement.format.kind == FormatKind::Leitai {
            self.entrants
                .iter()
                .flat_map(|t| t.members.iter().map(|m| m.name.clone()))
                .collect()
        } else {
            // An entrant withdrawn before playing anything (no game, no bye) took no part.
            self.entrants
                .iter()
                .filter(|e| !e.withdrawn || self.games.iter().any(|g| g.has(&e.name)))
                .map(|e| e.name.clone())
                .collect()
        };
        if self.agreement.format.kind == FormatKind::McMahon {
            let f = &self.agreement.format;
            let start: Vec<(String, u32)> = names
                .iter()
                .map(|n| {
                    let rank = self
                        .entrants
                        .iter()
                        .find(|e| &e.name == n)
                        .and_then(|e| e.rank);
                    let s = pairing::mcmahon_start(rank, f.bar, f.floor);
                    (n.clone(), s.max(0) as u32)
                })
                .collect();
            return mcmahon_standings(&start, &self.games, &self.agreement.scoring);
        }
        standings(&names, &self.games, &self.agreement.scoring)
    }

    /// Whether every game is played and no more can be paired.
    pub fn is_finished(&self) -> bool {
        self.games.iter().all(Game::is_done)
            && matches!(
                self.pair_next(),
                Err(PairingError::Finished | PairingError::AlreadyDrawn | PairingError::TooFew(_))
            )
    }
}
