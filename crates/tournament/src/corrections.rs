//! Corrections: results changed or cleared on purpose, rounds taken back or paired by hand,
//! entrants reinstated, edited or removed, and the log that keeps each decision.
//!
//! Article 10 gives the referee the decisions: 「裁判之任務如下：棋賽規約之執行、未列舉事項之
//! 裁定……裁判對于犯規之裁定以及對禮節之糾正有絕對權利。」 A decision is annotated, not
//! overwritten: every change here returns what it changed, and the caller keeps a
//! [`LogEntry`] for it with its time and the director's reason.
//!
//! What depends on a change is worked out again: 罰停 (「對局者缺席或請假次數超過規定，停止其
//! 以後賽程，其未賽成績一律為“裁定敗”」) is decided by the absences, so when an absence is
//! corrected, the forfeit losses and cancelled byes that suspension gave
//! ([`crate::Game::automatic`]) are taken back and the suspensions applied afresh
//! ([`Event::recompute_suspensions`]).

use std::collections::BTreeMap;
use std::fmt;

use ingo_rules::Color;

use crate::agreement::{FormatKind, HandicapSystem};
use crate::outcome::{Outcome, WinBy};
use crate::pairing::{conditions, group_scores, mcmahon_conditions};
use crate::score::Game;
use crate::{Entrant, Event, PairingError, ResultError};

/// What a log entry records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Action {
    /// A round (or game, or schedule) paired by the program.
    Pair,
    /// A round paired by the director.
    PairManual,
    /// A game taken back with its round.
    Unpair,
    /// A result entered.
    Result,
    /// A result changed.
    Change,
    /// A result cleared.
    Clear,
    /// A result given or taken back by the rules (罰停), after another change.
    Automatic,
    /// An entrant added.
    Add,
    /// An entrant withdrawn.
    Withdraw,
    /// A withdrawn entrant back in.
    Reinstate,
    /// An entrant's name or details changed.
    Edit,
    /// An entrant removed (one who had no game).
    Remove,
}

impl Action {
    /// Every action.
    pub const ALL: [Action; 12] = [
        Action::Pair,
        Action::PairManual,
        Action::Unpair,
        Action::Result,
        Action::Change,
        Action::Clear,
        Action::Automatic,
        Action::Add,
        Action::Withdraw,
        Action::Reinstate,
        Action::Edit,
        Action::Remove,
    ];

    /// The name kept in the store and shown in the log.
    pub fn name(self) -> &'static str {
        match self {
            Action::Pair => "pair",
            Action::PairManual => "pair-manual",
            Action::Unpair => "unpair",
            Action::Result => "result",
            Action::Change => "change",
            Action::Clear => "clear",
            Action::Automatic => "automatic",
            Action::Add => "add",
            Action::Withdraw => "withdraw",
            Action::Reinstate => "reinstate",
            Action::Edit => "edit",
            Action::Remove => "remove",
        }
    }

    /// The action named `s` (as [`Action::name`] writes it).
    pub fn from_name(s: &str) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.name() == s)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One decision of an event's log: what was done, to which game or entrant, the value before
/// and after (as text), and the director's reason. The store adds the time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogEntry {
    /// What was done; `None` only in [`LogEntry::default`].
    pub action: Option<Action>,
    /// The round, for a game or round.
    pub round: Option<u32>,
    /// The board, for a game.
    pub board: Option<u32>,
    /// The entrant, for an entrant's change.
    pub entrant: Option<String>,
    /// The value before (a result, a pairing, an entrant's details).
    pub old: Option<String>,
    /// The value after.
    pub new: Option<String>,
    /// Why: the director's words, or the rule that made the change.
    pub reason: Option<String>,
}

impl LogEntry {
    /// An entry for `action` with nothing else yet.
    pub fn new(action: Action) -> LogEntry {
        LogEntry {
            action: Some(action),
            ..LogEntry::default()
        }
    }

    /// An entry about the game at `round`, `board`.
    pub fn game(action: Action, round: u32, board: u32) -> LogEntry {
        LogEntry {
            round: Some(round),
            board: Some(board),
            ..LogEntry::new(action)
        }
    }

    /// An entry about entrant `name`.
    pub fn entrant(action: Action, name: &str) -> LogEntry {
        LogEntry {
            entrant: Some(name.to_owned()),
            ..LogEntry::new(action)
        }
    }

    /// With the value before.
    pub fn old(mut self, v: impl Into<String>) -> LogEntry {
        self.old = Some(v.into());
        self
    }

    /// With the value after.
    pub fn new_value(mut self, v: impl Into<String>) -> LogEntry {
        self.new = Some(v.into());
        self
    }

    /// With a reason (an empty one is none).
    pub fn reason(mut self, v: Option<&str>) -> LogEntry {
        self.reason = v
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_owned);
        self
    }
}

/// A game whose result a change (or the rules after it) changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Changed {
    /// Round.
    pub round: u32,
    /// Board.
    pub board: u32,
    /// The result before.
    pub old: Option<Outcome>,
    /// The result after.
    pub new: Option<Outcome>,
}

impl Changed {
    /// The log entry of a change the rules made (罰停 applied or lifted).
    pub fn log(&self) -> LogEntry {
        let text = |o: Option<Outcome>| o.map_or_else(|| "-".to_owned(), |o| o.to_string());
        let why = if self.new.is_some() {
            "罰停: 其未賽成績一律為“裁定敗”"
        } else {
            "罰停 lifted: the absences no longer exceed the agreement's number"
        };
        LogEntry::game(Action::Automatic, self.round, self.board)
            .old(text(self.old))
            .new_value(text(self.new))
            .reason(Some(why))
    }
}

/// A director's decision on a game's result, as [`Event::decide`] made it: what was done and
/// every game it changed, the decided game first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decided {
    /// `Result` (entered), `Change` or `Clear`.
    pub action: Action,
    /// The decided game, then what 罰停 changed after it.
    pub changed: Vec<Changed>,
}

impl Decided {
    /// The log's entries: the decision with its reason, then each change the rules made.
    pub fn log(&self, reason: Option<&str>) -> Vec<LogEntry> {
        let text = |o: Option<Outcome>| o.map_or_else(|| "-".to_owned(), |o| o.to_string());
        let Some((first, rest)) = self.changed.split_first() else {
            return Vec::new();
        };
        let mut e = LogEntry::game(self.action, first.round, first.board)
            .new_value(text(first.new))
            .reason(reason);
        if first.old.is_some() {
            e = e.old(text(first.old));
        }
        std::iter::once(e)
            .chain(rest.iter().map(Changed::log))
            .collect()
    }
}

/// Why a round or an entrant cannot be corrected so.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CorrectionError {
    /// No games have been paired.
    #[error("no round is paired yet")]
    NothingPaired,
    /// Only the latest round can be taken back.
    #[error(
        "round {round} is not the latest paired round ({latest}): take back round {latest} first"
    )]
    NotLatest {
        /// The round asked for.
        round: u32,
        /// The latest paired round.
        latest: u32,
    },
    /// A round robin's schedule is drawn whole and taken back whole.
    #[error("the schedule of a round robin is drawn whole: taking back round 1 takes back the whole schedule, not round {0} alone")]
    WholeSchedule(u32),
    /// The round has results, which taking it back would lose.
    #[error("round {round} has {count} result(s): clear them first, or take the round back with its results on purpose (force)")]
    HasResults {
        /// The round.
        round: u32,
        /// How many games have an entered result.
        count: usize,
    },
    /// A manual pairing that does not make a round.
    #[error("manual pairing of round {round}: {reason}")]
    Manual {
        /// The round being paired.
        round: u32,
        /// Why it is refused.
        reason: String,
    },
    /// No entrant has that name.
    #[error("{0:?} is not an entrant")]
    NotEntrant(String),
    /// The entrant is already withdrawn.
    #[error("{0:?} is already withdrawn")]
    Withdrawn(String),
    /// The entrant is not withdrawn.
    #[error("{0:?} is not withdrawn")]
    NotWithdrawn(String),
    /// The entrant is suspended by its absences, which a reinstatement does not undo.
    #[error("{0:?} is suspended (罰停) by its absences, not withdrawn: correct an absence to lift the suspension")]
    Suspended(String),
    /// The entrant has games, and the results of others depend on them.
    #[error("{name:?} has {games} game(s) or bye(s) in the event: withdraw instead (the games and the opponents' scores stay)")]
    HasGames {
        /// The entrant.
        name: String,
        /// How many games and byes.
        games: usize,
    },
    /// An edit the event does not admit.
    #[error("cannot edit {name:?}: {reason}")]
    Edit {
        /// The entrant.
        name: String,
        /// Why.
        reason: String,
    },
    /// The round cannot be paired now.
    #[error(transparent)]
    Pairing(#[from] PairingError),
}

impl Event {
    /// The game at `round`, `board`.
    ///
    /// # Errors
    ///
    /// [`ResultError::NoSuchGame`].
    pub fn game(&self, round: u32, board: u32) -> Result<&Game, ResultError> {
        self.games
            .iter()
            .find(|g| g.round == round && g.board == board)
            .ok_or(ResultError::NoSuchGame { round, board })
    }

    pub(crate) fn game_mut(&mut self, round: u32, board: u32) -> Result<&mut Game, ResultError> {
        let g = self
            .games
            .iter_mut()
            .find(|g| g.round == round && g.board == board)
            .ok_or(ResultError::NoSuchGame { round, board })?;
        if g.is_bye() {
            return Err(ResultError::Bye { round, board });
        }
        Ok(g)
    }

    /// Whether `result` can be the result of `g` on this event's board:
    ///
    /// * a tie goes to Black in an even game (「無差值之棋局……稱為“和棋”」, 和棋黑勝) and to
    ///   White in a handicap game (the default of `docs/tournaments.md`), so `W+0` or `B+0`
    ///   respectively cannot happen;
    /// * 「勝負之點數以“差值”為準」: the margin is the difference of the areas less the komi
    ///   and time penalties (`R = D − komi − pen_B + pen_W`), so it cannot exceed the board's
    ///   points plus the komi and both sides' greatest time penalty (6 points each), and its
    ///   fraction is the komi's (areas and penalties are whole points): no `B+3.5` with komi 8.
    ///
    /// # Errors
    ///
    /// [`ResultError::Impossible`] with the reason, [`ResultError::Bye`] for a bye.
    pub fn check_result(&self, g: &Game, result: Outcome) -> Result<(), ResultError> {
        if g.is_bye() {
            return Err(ResultError::Bye {
                round: g.round,
                board: g.board,
            });
        }
        let Outcome::Win {
            winner,
            by: WinBy::Points(m),
        } = result
        else {
            return Ok(());
        };
        let bad = |reason: String| ResultError::Impossible {
            round: g.round,
            board: g.board,
            result,
            reason,
        };
        let handicap_game = g.passes > 0 || g.komi != self.agreement.komi;
        if m.halves() == 0 {
            match (handicap_game, winner) {
                (false, Color::White) => {
                    return Err(bad(
                        "a tie goes to Black in an even game (和棋黑勝): enter B+0".into(),
                    ))
                }
                (true, Color::Black) => {
                    return Err(bad(
                        "a tie goes to White in a handicap game: enter W+0".into()
                    ))
                }
                _ => {}
            }
        }
        let points = (self.agreement.size * self.agreement.size) as i64;
        let most_halves = 2 * points + i64::from(g.komi.halves().abs()) + 2 * 12;
        if i64::from(m.halves()) > most_halves {
            return Err(bad(format!(
                "a margin cannot exceed the {points} points of the {n}×{n} board with the komi ({}) and time penalties",
                g.komi,
                n = self.agreement.size
            )));
        }
        if (m.halves() - g.komi.halves()).rem_euclid(2) != 0 {
            return Err(bad(format!(
                "the areas and penalties are whole points, so with komi {} the margin is {}",
                g.komi,
                if g.komi.halves() % 2 == 0 {
                    "a whole number"
                } else {
                    "a whole number and a half"
                }
            )));
        }
        Ok(())
    }

    /// Changes the result of a game that has one (a correction on purpose), then works out
    /// again the suspensions that depend on it. Returns every game changed, this one first.
    ///
    /// # Errors
    ///
    /// [`ResultError::NoResult`] when it has none yet (enter it with [`Event::enter`]), and
    /// the errors of [`Event::enter`] for the game and the result.
    pub fn change(
        &mut self,
        round: u32,
        board: u32,
        result: Outcome,
    ) -> Result<Vec<Changed>, ResultError> {
        let g = self.game(round, board)?;
        let Some(old) = g.result else {
            return Err(ResultError::NoResult { round, board });
        };
        self.check_result(g, result)?;
        let g = self.game_mut(round, board)?;
        g.result = Some(result);
        g.automatic = false;
        let mut out = vec![Changed {
            round,
            board,
            old: Some(old),
            new: Some(result),
        }];
        out.extend(self.recompute_suspensions());
        Ok(out)
    }

    /// The director's decision on the result of the game at `round`, `board`: `result`
    /// entered ([`Event::enter`]), or with `change` put in place of the one it has
    /// ([`Event::change`]), or with `None` cleared ([`Event::clear`]).
    ///
    /// # Errors
    ///
    /// As the step taken.
    pub fn decide(
        &mut self,
        round: u32,
        board: u32,
        result: Option<Outcome>,
        change: bool,
    ) -> Result<Decided, ResultError> {
        let (action, changed) = match result {
            None => (Action::Clear, self.clear(round, board)?),
            Some(o) if change => (Action::Change, self.change(round, board, o)?),
            Some(o) => {
                let mut changed = vec![Changed {
                    round,
                    board,
                    old: None,
                    new: Some(o),
                }];
                changed.extend(self.enter(round, board, o)?);
                (Action::Result, changed)
            }
        };
        Ok(Decided { action, changed })
    }

    /// Clears the result of a game (to be played, or entered again), then works out again
    /// the suspensions that depend on it. Returns every game changed, this one first.
    ///
    /// # Errors
    ///
    /// [`ResultError::NoResult`] when it has none, [`ResultError::Automatic`] for a forfeit
    /// that 罰停 gave (it follows the absences), [`ResultError::NoSuchGame`],
    /// [`ResultError::Bye`].
    pub fn clear(&mut self, round: u32, board: u32) -> Result<Vec<Changed>, ResultError> {
        let g = self.game_mut(round, board)?;
        let Some(old) = g.result else {
            return Err(ResultError::NoResult { round, board });
        };
        if g.automatic {
            let player = g
                .winner_loser()
                .map_or_else(|| g.black.clone(), |(_, l)| l.to_owned());
            return Err(ResultError::Automatic {
                round,
                board,
                result: old,
                player,
            });
        }
        g.result = None;
        let mut out = vec![Changed {
            round,
            board,
            old: Some(old),
            new: None,
        }];
        out.extend(self.recompute_suspensions());
        Ok(out)
    }

    /// Takes back every result the rules gave (罰停's forfeits and cancelled byes) and applies
    /// the suspensions the absences now call for. Returns the games whose result changed.
    pub fn recompute_suspensions(&mut self) -> Vec<Changed> {
        let before: Vec<(u32, u32, Option<Outcome>)> = self
            .games
            .iter()
            .map(|g| (g.round, g.board, g.result))
            .collect();
        for g in self.games.iter_mut().filter(|g| g.automatic) {
            g.result = None;
            g.automatic = false;
        }
        self.apply_suspensions();
        self.games
            .iter()
            .zip(before)
            .filter(|(g, (_, _, old))| g.result != *old)
            .map(|(g, (round, board, old))| Changed {
                round,
                board,
                old,
                new: g.result,
            })
            .collect()
    }

    /// The latest round that has games.
    pub fn latest_round(&self) -> Option<u32> {
        self.games.iter().map(|g| g.round).max()
    }

    /// Takes back the latest paired round: its games and byes are removed, so that it can be
    /// paired again (by the program or by hand). A round robin's schedule is drawn whole, so
    /// `unpair(1)` takes back all of it. A round with entered results is taken back only with
    /// `force` (the results go with it; the caller logs them). Suspensions are worked out
    /// again afterwards. Returns the games removed, and the games whose result that changed.
    ///
    /// # Errors
    ///
    /// [`CorrectionError::NothingPaired`], [`CorrectionError::NotLatest`],
    /// [`CorrectionError::WholeSchedule`], [`CorrectionError::HasResults`].
    pub fn unpair(
        &mut self,
        round: u32,
        force: bool,
    ) -> Result<(Vec<Game>, Vec<Changed>), CorrectionError> {
        let latest = self.latest_round().ok_or(CorrectionError::NothingPaired)?;
        let whole = matches!(
            self.agreement.format.kind,
            FormatKind::RoundRobin | FormatKind::DoubleRoundRobin
        );
        if whole && round != 1 {
            return Err(CorrectionError::WholeSchedule(round));
        }
        if !whole && round != latest {
            return Err(CorrectionError::NotLatest { round, latest });
        }
        let taken = |g: &Game| whole || g.round == round;
        let count = self
            .games
            .iter()
            .filter(|g| taken(g) && g.result.is_some() && !g.automatic)
            .count();
        if count > 0 && !force {
            return Err(CorrectionError::HasResults { round, count });
        }
        let (removed, kept): (Vec<Game>, Vec<Game>) =
            std::mem::take(&mut self.games).into_iter().partition(taken);
        self.games = kept;
        let changed = self.recompute_suspensions();
        Ok((removed, changed))
    }

    /// The next round of a Swiss or McMahon event as the director pairs it: `pairs` gives
    /// each game as (Black, White), and a bye as (player, `None`). Every active entrant
    /// (neither withdrawn nor suspended) appears exactly once, with one bye when their number
    /// is odd and none when it is even. Colours are the director's in an even game; in a
    /// handicap game (有差賽 or a McMahon handicap) the weaker takes Black and the handicap is
    /// the agreement's. Rematches are allowed (the director decides); [`Event::times_met`]
    /// tells them.
    ///
    /// # Errors
    ///
    /// [`CorrectionError::Manual`] naming the player or game at fault; as
    /// [`Event::pair_next`] when the round cannot be paired now.
    pub fn pair_manual(
        &self,
        pairs: &[(String, Option<String>)],
    ) -> Result<Vec<Game>, CorrectionError> {
        let a = &self.agreement;
        let last = self.latest_round().unwrap_or(0);
        let round = last + 1;
        let manual = |reason: String| CorrectionError::Manual { round, reason };
        if !matches!(a.format.kind, FormatKind::Swiss | FormatKind::McMahon) {
            return Err(manual(format!(
                "rounds are paired by hand in swiss and mcmahon events, not {}",
                a.format.kind.name()
            )));
        }
        if self.games.iter().any(|g| !g.is_done()) {
            return Err(PairingError::RoundNotFinished(last).into());
        }
        if last >= a.format.rounds {
            return Err(PairingError::Finished.into());
        }
        let active = self.active();
        let suspended = self.suspended();
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, (b, w)) in pairs.iter().enumerate() {
            for name in std::iter::once(b).chain(w) {
                let Some(e) = self.entrants.iter().find(|e| &e.name == name) else {
                    return Err(manual(format!("{name:?} is not an entrant")));
                };
                if e.withdrawn {
                    return Err(manual(format!("{name:?} is withdrawn (reinstate first)")));
                }
                if suspended.contains(name) {
                    return Err(manual(format!("{name:?} is suspended (罰停)")));
                }
                if let Some(j) = seen.insert(name.as_str(), i) {
                    return Err(manual(format!(
                        "{name:?} is paired twice (in pairings {} and {})",
                        j + 1,
                        i + 1
                    )));
                }
            }
        }
        let missing: Vec<&str> = active
            .iter()
            .filter(|e| !seen.contains_key(e.name.as_str()))
            .map(|e| e.name.as_str())
            .collect();
        if !missing.is_empty() {
            return Err(manual(format!(
                "every active entrant plays or has the bye; not paired: {}",
                missing.join(", ")
            )));
        }
        let byes = pairs.iter().filter(|(_, w)| w.is_none()).count();
        let want = active.len() % 2;
        if byes != want {
            return Err(manual(format!(
                "{} active entrants: {} bye, not {byes}",
                active.len(),
                if want == 1 { "exactly one" } else { "no" }
            )));
        }
        let scores = group_scores(a, active.iter().copied(), &self.games);
        let find = |n: &str| active.iter().copied().find(|e| e.name == n);
        let mut out = Vec::new();
        for (b, w) in pairs {
            let Some(w) = w else { continue };
            let (Some(x), Some(y)) = (find(b), find(w)) else {
                return Err(manual(format!("{b:?}–{w:?}: not two active entrants")));
            };
            let (bl, wh, p, k) = if matches!(a.handicap, HandicapSystem::McMahon { .. }) {
                let s = |e: &Entrant| scores.get(&e.name).copied().unwrap_or(0);
                mcmahon_conditions(a, (x, s(x)), (y, s(y)))
            } else {
                conditions(a, x, y)
            };
            let handicap = p > 0 || k != a.komi;
            if handicap && bl != *b {
                return Err(manual(format!(
                    "{b:?}–{w:?} is a handicap game: the weaker, {bl:?}, takes Black"
                )));
            }
            let board = out.len() as u32 + 1;
            out.push(if handicap {
                Game::new(round, board, &bl, Some(&wh), p, k)
            } else {
                Game::new(round, board, b, Some(w), 0, a.komi)
            });
        }
        if let Some((b, _)) = pairs.iter().find(|(_, w)| w.is_none()) {
            out.push(Game::new(round, out.len() as u32 + 1, b, None, 0, a.komi));
        }
        Ok(out)
    }

    /// Why each game of `paired`, the next round of this Swiss or McMahon event as
    /// [`Event::pair_next`] or [`Event::pair_manual`] made it, is as it is: a line a game or
    /// bye ([`crate::pairing::explain`]).
    pub fn explain_pairing(&self, paired: &[Game]) -> Vec<String> {
        crate::pairing::explain(&self.agreement, &self.active(), &self.games, paired)
    }

    /// How often `a` and `b` have met.
    pub fn times_met(&self, a: &str, b: &str) -> usize {
        self.games
            .iter()
            .filter(|g| g.has(a) && g.has(b) && a != b)
            .count()
    }

    fn entrant_index(&self, name: &str) -> Result<usize, CorrectionError> {
        self.entrants
            .iter()
            .position(|e| e.name == name)
            .ok_or_else(|| CorrectionError::NotEntrant(name.to_owned()))
    }

    /// Withdraws an entrant: paired no more. Games already paired stay (enter their
    /// results); in a knockout, the next opponent of a withdrawn player who had advanced goes
    /// on by walkover.
    ///
    /// # Errors
    ///
    /// [`CorrectionError::NotEntrant`], [`CorrectionError::Withdrawn`].
    pub fn withdraw(&mut self, name: &str) -> Result<(), CorrectionError> {
        let i = self.entrant_index(name)?;
        if self.entrants[i].withdrawn {
            return Err(CorrectionError::Withdrawn(name.to_owned()));
        }
        self.entrants[i].withdrawn = true;
        Ok(())
    }

    /// Brings a withdrawn entrant back: paired again from the next round.
    ///
    /// # Errors
    ///
    /// [`CorrectionError::NotEntrant`]; [`CorrectionError::Suspended`] for a player
    /// suspended by absences; [`CorrectionError::NotWithdrawn`].
    pub fn reinstate(&mut self, name: &str) -> Result<(), CorrectionError> {
        let i = self.entrant_index(name)?;
        if !self.entrants[i].withdrawn {
            if self.suspended().iter().any(|s| s == name) {
                return Err(CorrectionError::Suspended(name.to_owned()));
            }
            return Err(CorrectionError::NotWithdrawn(name.to_owned()));
        }
        self.entrants[i].withdrawn = false;
        Ok(())
    }

    /// Removes an entrant entered by mistake: only one that has no game or bye, since the
    /// opponents' scores depend on the games (withdraw the others). Returns it.
    ///
    /// # Errors
    ///
    /// [`CorrectionError::NotEntrant`], [`CorrectionError::HasGames`].
    pub fn remove(&mut self, name: &str) -> Result<Entrant, CorrectionError> {
        let i = self.entrant_index(name)?;
        let games = self.games.iter().filter(|g| g.has(name)).count();
        if games > 0 {
            return Err(CorrectionError::HasGames {
                name: name.to_owned(),
                games,
            });
        }
        Ok(self.entrants.remove(i))
    }

    /// Replaces entrant `name` by `edited` (its withdrawal kept): details, rank, or the name
    /// itself, which is changed in its games too. Games already paired keep their
    /// conditions; a new rank counts from the next pairing.
    ///
    /// # Errors
    ///
    /// [`CorrectionError::NotEntrant`]; [`CorrectionError::Edit`] when the new name is
    /// taken, the members do not suit the kind, or the agreement does not admit it.
    pub fn edit(&mut self, name: &str, mut edited: Entrant) -> Result<(), CorrectionError> {
        let i = self.entrant_index(name)?;
        let err = |reason: String| CorrectionError::Edit {
            name: name.to_owned(),
            reason,
        };
        if edited.name != name && self.entrants.iter().any(|e| e.name == edited.name) {
            return Err(err(format!("{:?} is already entered", edited.name)));
        }
        if edited.name.trim().is_empty() {
            return Err(err("the name is empty".into()));
        }
        edited.withdrawn = self.entrants[i].withdrawn;
        edited.check().map_err(err)?;
        self.agreement.admits(&edited).map_err(err)?;
        if edited.name != name {
            for g in &mut self.games {
                if g.black == name {
                    g.black.clone_from(&edited.name);
                }
                if g.white.as_deref() == Some(name) {
                    g.white = Some(edited.name.clone());
                }
            }
        }
        self.entrants[i] = edited;
        Ok(())
    }
}

/// An entrant's details as one line of text, for the log: rank, kind and members, club,
/// names, country, EGD PIN and engine, each only when set.
pub fn entrant_text(e: &Entrant) -> String {
    let mut parts = vec![e.name.clone()];
    if let Some(r) = e.rank {
        parts.push(format!("rank {r}"));
    }
    if !e.members.is_empty() {
        let m: Vec<String> = e
            .members
            .iter()
            .map(|m| match m.rank {
                Some(r) => format!("{}:{r}", m.name),
                None => m.name.clone(),
            })
            .collect();
        parts.push(format!("{} {}", e.kind.name(), m.join("+")));
    }
    for (k, v) in [
        ("club", &e.club),
        ("surname", &e.surname),
        ("given name", &e.given_name),
        ("country", &e.country),
        ("engine", &e.engine),
    ] {
        if let Some(v) = v {
            parts.push(format!("{k} {v}"));
        }
    }
    if let Some(p) = e.egd_pin {
        parts.push(format!("EGD {p}"));
    }
    parts.join(", ")
}

/// A game as one line of text, for the log: `Ann (B) – Bo (W)`, `Ann: bye`, with the result.
pub fn game_text(g: &Game) -> String {
    let mut s = match &g.white {
        Some(w) => format!("{} (B) – {w} (W)", g.black),
        None => format!("{}: bye", g.black),
    };
    if g.passes > 0 {
        s.push_str(&format!(", {} pass(es)", g.passes));
    }
    if let Some(r) = g.result {
        s.push_str(&format!(", {r}"));
    }
    s
}
