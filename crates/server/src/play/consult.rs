//! Consultation (商談聯棋) with an agreement step: "a team of which any member may move once the
//! side has agreed" (article 5 賽式).
//!
//! A consultation challenge says how each side agrees on a move (`agreement`):
//!
//! * `all` (the default, the strict reading of "once the side has agreed"): every member;
//! * `majority`: more than half of the side's members (with two members, both);
//! * `any`: any member's move is the side's at once (no proposals).
//!
//! Under `all` or `majority` a member's move (`POST /api/games/{id}/moves`, or a WebSocket
//! `move`) is a **proposal**: it is checked by the rules at once (an illegal one is refused with
//! its reason), stored, and shown to the member's side only — in the side's WebSocket channel
//! (`{"type": "proposals", "channel": "black", …}`), in the state a member's socket or
//! `GET /api/games/{id}` gets (`"proposals"`), and at `GET /api/games/{id}/proposals`. Other
//! members agree by proposing the same move, or with `POST …/proposals/accept` naming it. Each
//! member holds one proposal: a different one *replaces* that member's own earlier proposal
//! (withdrawing their vote from it) and leaves the others' votes alone; `POST
//! …/proposals/withdraw` withdraws it. When one move has the votes needed it is played through
//! the ordinary play path ([`crate::play::submit::play_move`]: rules, clock, commit, then the
//! acknowledgement and the `move` event), by the member whose vote completed the agreement.
//!
//! A proposal is for one move number: it lapses when any move is played, and the side's
//! proposals are deleted when its agreed move is played. The side's clock keeps running while
//! its members confer; a proposal does not stop it. Proposals are stored
//! (`server_consult_votes`), so a restarted server loses none.
//!
//! **Resignation** ends the game for the whole side, so under `all` or `majority` it needs the
//! same agreement: a member's resignation is a proposal `resign` (on either side's turn).
//! **The dead-stone step** is not voted: any member marks or accepts for the side, as in pair
//! go. Play is suspended and no clock runs, nothing is decided until both sides accept, and a
//! member who disputes the status resumes play by proposing a move, which needs the side's
//! agreement like any other (see `docs/competition.md`).

use ingo_rules::{Color, Move, Phase};
use ingo_store::consult::{self as db, VoteRow};
use serde::Serialize;

use crate::domain::error::GameError;
use crate::domain::live_game::LiveGame;
use crate::domain::team::{Consensus, TeamKind};
use crate::play::event::{Audience, Broadcast, Channel};
use crate::play::hub::{Play, SharedGame};
use crate::play::live::{game, shown};
use crate::play::submit::{change, play_move, Ack};
use crate::play::view::{GameView, Proposal, ProposalsView};

/// A side of a game that agrees by proposals, as one moment of the game shows it.
#[derive(Clone, Debug)]
pub struct Side {
    /// The game.
    pub game_id: i64,
    /// The side.
    pub color: Color,
    /// How it agrees (`majority` or `all`).
    pub consensus: Consensus,
    /// Its number of members.
    pub members: usize,
    /// The game's next move number: the one proposals are for.
    pub next: i64,
}

/// `{"type": "proposals", …}`: a side's proposals, for its members only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProposalsEvent {
    /// Always `proposals`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The side's channel.
    pub channel: &'static str,
    /// The game.
    pub game_id: i64,
    /// The proposals.
    pub proposals: ProposalsView,
}

impl Side {
    /// Side `color` of `g`, when `g` is a consultation game whose sides agree by proposals.
    pub fn of(g: &LiveGame, color: Color) -> Option<Side> {
        let team = g.team()?;
        if team.kind != TeamKind::Consultation || team.consensus == Consensus::Any {
            return None;
        }
        Some(Side {
            game_id: g.id(),
            color,
            consensus: team.consensus,
            members: team.members.get(color).len(),
            next: g.moves().len() as i64 + 1,
        })
    }

    /// The side of member `user_id` of `g` (`None` for anyone else, or another kind of game).
    pub fn of_member(g: &LiveGame, user_id: i64) -> Option<Side> {
        Side::of(g, g.color_of(user_id)?)
    }

    fn needed(&self) -> usize {
        self.consensus.needed(self.members)
    }

    /// The side's letter, `B` or `W`, as votes are stored.
    pub fn letter(&self) -> String {
        self.color.letter().to_string()
    }

    /// The side's current proposals (the tally of `votes`): how it agrees, the votes a move
    /// needs, the move number, and each proposed move with its members (first proposed first).
    pub fn view(&self, votes: &[VoteRow]) -> ProposalsView {
        let mut moves: Vec<Proposal> = Vec::new();
        for v in votes.iter().filter(|v| v.move_number == self.next) {
            match moves.iter_mut().find(|p| p.mv == v.mv) {
                Some(p) => p.by.push(v.name.clone()),
                None => moves.push(Proposal {
                    mv: v.mv.clone(),
                    by: vec![v.name.clone()],
                }),
            }
        }
        ProposalsView {
            color: self.letter(),
            agreement: self.consensus.name(),
            needed: self.needed(),
            members: self.members,
            number: self.next,
            proposals: moves,
        }
    }

    /// The side's current proposals, read from the store.
    ///
    /// # Errors
    /// On a storage failure.
    pub async fn current(&self, play: &Play) -> Result<ProposalsView, GameError> {
        let votes = db::votes_of(play.store(), self.game_id, &self.letter(), self.next).await?;
        Ok(self.view(&votes))
    }

    /// Publishes the side's proposals to its channel (read by its members only).
    pub fn publish(&self, play: &Play, proposals: ProposalsView) {
        let channel = Channel::Side(self.color);
        let ev = ProposalsEvent {
            kind: "proposals",
            channel: channel.name(),
            game_id: self.game_id,
            proposals,
        };
        play.publish(
            self.game_id,
            Broadcast::new(Audience::Channel(channel), &ev),
        );
    }
}

/// A proposal to resign, as stored and shown (a move is a GTP vertex or `pass`).
pub const RESIGN: &str = "resign";

/// What an agreed proposal did: a move's acknowledgement, or the state after a resignation.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Played {
    /// The agreed move was played.
    Move(Ack),
    /// The side resigned.
    Resigned(Box<GameView>),
}

/// An agreed proposal's result, with the members who agreed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Agreed {
    /// What it did.
    #[serde(flatten)]
    pub played: Played,
    /// The members whose votes made the agreement.
    pub agreed_by: Vec<String>,
}

/// What a member's request became in a game whose sides agree by proposals.
#[derive(Debug)]
pub enum Submitted {
    /// Stored as a proposal; the side has not agreed yet. The side's proposals.
    Proposed(ProposalsView),
    /// The side agreed and it was played.
    Played(Agreed),
}

/// A member's move request (`D4`, `pass`) in game `id`.
///
/// `None` when the request is not a proposal — not a consultation game that agrees by
/// proposals, not a member, a game that has ended, a stale move number, a move out of turn or
/// that is not a move: the caller's ordinary path then plays it or refuses it with its reason.
///
/// # Errors
/// The rules' refusal of an illegal move; internal on a storage failure; and the play path's
/// errors when the agreement completes.
pub async fn submit(
    play: &Play,
    user_id: i64,
    id: i64,
    mv_text: &str,
    number: Option<i64>,
) -> Result<Option<Submitted>, GameError> {
    submit_as(play, user_id, id, Some(mv_text), number).await
}

/// A member's resignation in game `id`: as [`submit`], the proposal `resign`.
///
/// # Errors
/// As [`submit`].
pub async fn submit_resign(
    play: &Play,
    user_id: i64,
    id: i64,
) -> Result<Option<Submitted>, GameError> {
    submit_as(play, user_id, id, None, None).await
}

/// A move (`Some`) or a resignation (`None`) proposed by `user_id`.
pub async fn submit_as(
    play: &Play,
    user_id: i64,
    id: i64,
    mv_text: Option<&str>,
    number: Option<i64>,
) -> Result<Option<Submitted>, GameError> {
    let (side, mv, votes) = {
        // Never judged on a copy a failed change left discarded (`shown` reads the store).
        let (_shared, g) = shown(play, id).await?;
        let Some(side) = Side::of_member(&g, user_id) else {
            return Ok(None);
        };
        if g.phase() == Phase::Ended || number.is_some_and(|n| n != side.next) {
            return Ok(None);
        }
        let mv = if let Some(text) = mv_text.map(str::trim) {
            if g.to_move() != side.color {
                return Ok(None);
            }
            let size = g.size();
            let Ok(m) = Move::from_gtp(text, size, size) else {
                return Ok(None);
            };
            if let Some(kind) = g.game().illegal_reason(m) {
                return Err(GameError::rule(kind));
            }
            m.to_gtp(size)
        } else {
            RESIGN.to_owned()
        };
        // Stored under the game's lock, so that no move is played in between.
        let votes = db::propose(
            play.store(),
            &VoteRow {
                game_id: id,
                user_id,
                name: String::new(),
                color: side.letter(),
                move_number: side.next,
                mv: mv.clone(),
                at_ms: play.now_ms(),
            },
        )
        .await?;
        (side, mv, votes)
    };
    let agreed = votes.iter().filter(|v| v.mv == mv).count() >= side.needed();
    if !agreed {
        let p = side.view(&votes);
        side.publish(play, p.clone());
        return Ok(Some(Submitted::Proposed(p)));
    }
    let agreed_by: Vec<String> = votes
        .iter()
        .filter(|v| v.mv == mv)
        .map(|v| v.name.clone())
        .collect();
    let played = if mv == RESIGN {
        Played::Resigned(Box::new(
            change(play, id, |g, now| g.resign(user_id, now)).await?,
        ))
    } else {
        Played::Move(play_move(play, user_id, id, &mv, Some(side.next)).await?)
    };
    db::clear_votes(play.store(), id, side.next).await?;
    // The side's (empty) proposals for the move now to come.
    let shared = game(play, id).await?;
    let now = Side::of(&*shared.lock().await, side.color);
    if let Some(now) = now {
        now.publish(play, now.view(&[]));
    }
    Ok(Some(Submitted::Played(Agreed { played, agreed_by })))
}

/// The member's side, or why there is none.
///
/// # Errors
/// Forbidden for someone who is no member; a conflict in a game without proposals.
pub async fn member_side(play: &Play, user_id: i64, id: i64) -> Result<Side, GameError> {
    let shared = game(play, id).await?;
    let g = shared.lock().await;
    if g.color_of(user_id).is_none() {
        return Err(GameError::forbidden(
            "not-a-member",
            "Only a member of a side reads and answers its proposals.",
        ));
    }
    Side::of_member(&g, user_id).ok_or_else(|| {
        GameError::conflict(
            "no-agreement-step",
            "This game has no proposals: each move is played as it is made.",
        )
    })
}

/// Member `user_id` agrees to the proposal `mv` (for move `number`) of another member.
///
/// # Errors
/// A conflict when nobody else proposes it now or it has lapsed; as [`submit`].
pub async fn accept(
    play: &Play,
    user_id: i64,
    id: i64,
    mv: &str,
    number: Option<i64>,
) -> Result<Submitted, GameError> {
    let side = member_side(play, user_id, id).await?;
    let votes = db::votes_of(play.store(), id, &side.letter(), side.next).await?;
    let wanted = mv.trim();
    let proposed = number.is_none_or(|n| n == side.next)
        && votes
            .iter()
            .any(|v| v.mv.eq_ignore_ascii_case(wanted) && v.user_id != user_id);
    if !proposed {
        return Err(GameError::conflict(
            "no-such-proposal",
            "Nobody else in your side proposes this move now; look at the proposals again.",
        ));
    }
    let asked = (!wanted.eq_ignore_ascii_case(RESIGN)).then_some(wanted);
    match submit_as(play, user_id, id, asked, Some(side.next)).await? {
        Some(s) => Ok(s),
        // Not a proposal any more (the game moved on): the play path says why.
        None => Err(GameError::conflict(
            "no-such-proposal",
            "This proposal has lapsed; look at the game again.",
        )),
    }
}

/// Member `user_id` withdraws their proposal; the side's proposals now.
///
/// # Errors
/// Forbidden for someone with no proposal here; internal on a storage failure.
pub async fn withdraw(play: &Play, user_id: i64, id: i64) -> Result<ProposalsView, GameError> {
    let shared = game(play, id).await?;
    let g = shared.lock().await;
    let side = Side::of_member(&g, user_id).ok_or_else(|| {
        GameError::forbidden("not-a-member", "You have no proposal in this game.")
    })?;
    db::withdraw(play.store(), id, user_id).await?;
    drop(g);
    let p = side.current(play).await?;
    side.publish(play, p.clone());
    Ok(p)
}

/// The proposals of `user_id`'s side in `game`, when they are a member of a side that agrees
/// by proposals (`None` for anyone else).
///
/// # Errors
/// On a storage failure.
pub async fn of_member(
    play: &Play,
    game: &SharedGame,
    user_id: i64,
) -> Result<Option<ProposalsView>, GameError> {
    let side = Side::of_member(&*game.lock().await, user_id);
    match side {
        Some(side) => Ok(Some(side.current(play).await?)),
        None => Ok(None),
    }
}

/// Whether `game` is a consultation game whose sides agree by proposals.
pub async fn has_proposals(game: &SharedGame) -> bool {
    Side::of(&*game.lock().await, Color::Black).is_some()
}

/// The proposals a socket's first message carries for a member of side `color` (`None` for a
/// game without proposals).
pub async fn for_socket(play: &Play, game: &SharedGame, color: Color) -> Option<ProposalsView> {
    let side = Side::of(&*game.lock().await, color)?;
    side.current(play).await.ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn votes_needed() {
        // (members, any, majority, all)
        for (n, any, majority, all) in [
            (2, 1, 2, 2),
            (3, 1, 2, 3),
            (4, 1, 3, 4),
            (5, 1, 3, 5),
            (8, 1, 5, 8),
        ] {
            assert_eq!(Consensus::Any.needed(n), any, "{n}");
            assert_eq!(Consensus::Majority.needed(n), majority, "{n}");
            assert_eq!(Consensus::All.needed(n), all, "{n}");
        }
    }

    #[test]
    fn names_round_trip() {
        for a in [Consensus::Any, Consensus::Majority, Consensus::All] {
            assert_eq!(Consensus::parse(a.name()), Some(a));
        }
        assert_eq!(Consensus::parse("most"), None);
        assert_eq!(Consensus::DEFAULT, Consensus::All);
    }

    fn vote(name: &str, number: i64, mv: &str) -> VoteRow {
        VoteRow {
            game_id: 1,
            user_id: 1,
            name: name.into(),
            color: "B".into(),
            move_number: number,
            mv: mv.into(),
            at_ms: 0,
        }
    }

    #[test]
    fn proposals_group_by_move_and_lapse_by_number() {
        let side = Side {
            game_id: 1,
            color: Color::Black,
            consensus: Consensus::All,
            members: 3,
            next: 5,
        };
        let v = serde_json::to_value(side.view(&[
            vote("ann", 5, "E5"),
            vote("ben", 4, "C3"),
            vote("ben", 5, "C3"),
            vote("cat", 5, "E5"),
        ]))
        .expect("JSON");
        assert_eq!(
            v,
            json!({
                "color": "B", "agreement": "all", "needed": 3, "members": 3, "number": 5,
                "proposals": [{"move": "E5", "by": ["ann", "cat"]}, {"move": "C3", "by": ["ben"]}],
            })
        );
    }
}
