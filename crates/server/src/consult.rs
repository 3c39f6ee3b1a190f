//! Consultation (商談聯棋) with an agreement step: "a team of which any member may move once the
//! side has agreed" (issue 13 item 5, article 5 賽式).
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
//! the ordinary play path ([`crate::games::play_move`]: rules, clock, commit, then the
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

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use ingo_rules::{Color, Move, Phase, PlayErrorKind};
use ingo_store::consult::{self as db, VoteRow};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::Mutex;

use crate::auth::{session_token, user_of_token, User};
use crate::game::{reason_message, LiveGame, TeamKind};
use crate::{ApiError, AppState};

/// How a consultation side agrees on its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// Any member's move is the side's (no proposals).
    Any,
    /// More than half of the side's members.
    Majority,
    /// Every member of the side.
    All,
}

impl Agreement {
    /// `any`, `majority` or `all`, as stored and in the API.
    pub fn name(self) -> &'static str {
        match self {
            Agreement::Any => "any",
            Agreement::Majority => "majority",
            Agreement::All => "all",
        }
    }

    /// The agreement of a stored or requested name.
    pub fn parse(s: &str) -> Option<Agreement> {
        match s {
            "any" => Some(Agreement::Any),
            "majority" => Some(Agreement::Majority),
            "all" => Some(Agreement::All),
            _ => None,
        }
    }

    /// The votes a move needs in a side of `members` members.
    pub fn needed(self, members: usize) -> usize {
        match self {
            Agreement::Any => 1,
            Agreement::Majority => members / 2 + 1,
            Agreement::All => members.max(1),
        }
    }
}

/// The agreement a consultation challenge gets when it names none: the strict reading of the
/// issue, every member.
pub const DEFAULT: Agreement = Agreement::All;

/// The agreement of stored game `id` of kind `kind`: `any` for pair go (whose order is the
/// seats'), and for a consultation game stored without one (made before agreements existed).
///
/// # Errors
/// 500 on a storage failure or an unknown stored name.
pub async fn agreement_of(
    state: &AppState,
    id: i64,
    kind: TeamKind,
) -> Result<Agreement, ApiError> {
    if kind != TeamKind::Consultation {
        return Ok(Agreement::Any);
    }
    match db::game_agreement(&state.store, id).await? {
        None => Ok(Agreement::Any),
        Some(name) => Agreement::parse(&name)
            .ok_or_else(|| ApiError::internal(format!("stored agreement {name:?}"))),
    }
}

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games/{id}/proposals", get(proposals_route))
        .route("/api/games/{id}/proposals/accept", post(accept_route))
        .route("/api/games/{id}/proposals/withdraw", post(withdraw_route))
}

/// A side of a game that agrees by proposals, as one moment of the game shows it.
#[derive(Clone, Debug)]
pub struct Side {
    /// The game.
    pub game_id: i64,
    /// The side.
    pub color: Color,
    /// How it agrees (`majority` or `all`).
    pub agreement: Agreement,
    /// Its number of members.
    pub members: usize,
    /// The game's next move number: the one proposals are for.
    pub next: i64,
}

impl Side {
    /// Side `color` of `g`, when `g` is a consultation game whose sides agree by proposals.
    pub fn of(g: &LiveGame, color: Color) -> Option<Side> {
        let team = g.team.as_ref()?;
        if team.kind != TeamKind::Consultation || team.agreement == Agreement::Any {
            return None;
        }
        Some(Side {
            game_id: g.row.id,
            color,
            agreement: team.agreement,
            members: team.members.get(color).len(),
            next: g.moves.len() as i64 + 1,
        })
    }

    /// The side of member `user_id` of `g` (`None` for anyone else, or another kind of game).
    pub fn of_member(g: &LiveGame, user_id: i64) -> Option<Side> {
        Side::of(g, g.color_of(user_id)?)
    }

    fn needed(&self) -> usize {
        self.agreement.needed(self.members)
    }

    fn letter(&self) -> String {
        self.color.letter().to_string()
    }

    /// The side's current proposals as JSON: how it agrees, the votes a move needs, the move
    /// number, and each proposed move with its members (first proposed first).
    pub fn json(&self, votes: &[VoteRow]) -> Value {
        let mut moves: Vec<(String, Vec<String>)> = Vec::new();
        for v in votes.iter().filter(|v| v.move_number == self.next) {
            match moves.iter_mut().find(|(m, _)| *m == v.mv) {
                Some((_, by)) => by.push(v.name.clone()),
                None => moves.push((v.mv.clone(), vec![v.name.clone()])),
            }
        }
        json!({
            "color": self.letter(),
            "agreement": self.agreement.name(),
            "needed": self.needed(),
            "members": self.members,
            "number": self.next,
            "proposals": moves.iter().map(|(m, by)| json!({"move": m, "by": by})).collect::<Vec<_>>(),
        })
    }

    /// The side's current proposals, read from the store.
    ///
    /// # Errors
    /// On a storage failure.
    pub async fn current(&self, state: &AppState) -> Result<Value, ApiError> {
        let votes = db::votes_of(&state.store, self.game_id, &self.letter(), self.next).await?;
        Ok(self.json(&votes))
    }

    /// Publishes the side's proposals to its channel (read by its members only).
    fn publish(&self, state: &AppState, proposals: Value) {
        let ev = json!({
            "type": "proposals",
            "channel": crate::ws::side_channel(self.color),
            "game_id": self.game_id,
            "proposals": proposals,
        });
        state.publish(self.game_id, ev.to_string().into());
    }
}

/// A proposal to resign, as stored and shown (a move is a GTP vertex or `pass`).
pub const RESIGN: &str = "resign";

/// What a member's request became in a game whose sides agree by proposals.
#[derive(Debug)]
pub enum Submitted {
    /// Stored as a proposal; the side has not agreed yet. The side's proposals.
    Proposed(Value),
    /// The side agreed and it was played: the acknowledgement of the move (or, for a
    /// resignation, the game's state).
    Played(Value),
}

impl Submitted {
    /// As an HTTP answer: 202 with `{"proposed": true, "proposals": …}`, or 200.
    pub fn into_http(self) -> Response {
        match self {
            Submitted::Proposed(p) => (
                StatusCode::ACCEPTED,
                Json(json!({"proposed": true, "proposals": p})),
            )
                .into_response(),
            Submitted::Played(v) => Json(v).into_response(),
        }
    }
}

/// A member's move request (`D4`, `pass`) in game `id`.
///
/// `None` when the request is not a proposal — not a consultation game that agrees by
/// proposals, not a member, a game that has ended, a stale move number, a move out of turn or
/// that is not a move: the caller's ordinary path then plays it or refuses it with its reason.
///
/// # Errors
/// 422/409 with the rules' reason for an illegal move; 500 on a storage failure; and the play
/// path's errors when the agreement completes.
pub async fn submit(
    state: &AppState,
    user_id: i64,
    id: i64,
    mv_text: &str,
    number: Option<i64>,
) -> Result<Option<Submitted>, ApiError> {
    submit_as(state, user_id, id, Some(mv_text), number).await
}

/// A member's resignation in game `id`: as [`submit`], the proposal `resign`.
///
/// # Errors
/// As [`submit`].
pub async fn submit_resign(
    state: &AppState,
    user_id: i64,
    id: i64,
) -> Result<Option<Submitted>, ApiError> {
    submit_as(state, user_id, id, None, None).await
}

/// A move (`Some`) or a resignation (`None`) proposed by `user_id`.
async fn submit_as(
    state: &AppState,
    user_id: i64,
    id: i64,
    mv_text: Option<&str>,
    number: Option<i64>,
) -> Result<Option<Submitted>, ApiError> {
    let game = state.game(id).await?;
    let (side, mv, votes) = {
        let g = game.lock().await;
        let Some(side) = Side::of_member(&g, user_id) else {
            return Ok(None);
        };
        if g.table.phase() == Phase::Ended || number.is_some_and(|n| n != side.next) {
            return Ok(None);
        }
        let mv = if let Some(text) = mv_text.map(str::trim) {
            if g.table.to_move() != side.color {
                return Ok(None);
            }
            let size = g.size();
            let Ok(m) = Move::from_gtp(text, size, size) else {
                return Ok(None);
            };
            if let Some(kind) = g.game().illegal_reason(m) {
                let status = match kind {
                    PlayErrorKind::OutOfTurn | PlayErrorKind::GameOver => 409,
                    _ => 422,
                };
                return Err(ApiError::rule(status, kind.code(), reason_message(kind)));
            }
            m.to_gtp(size)
        } else {
            RESIGN.to_owned()
        };
        // Stored under the game's lock, so that no move is played in between.
        let votes = db::propose(
            &state.store,
            &VoteRow {
                game_id: id,
                user_id,
                name: String::new(),
                color: side.letter(),
                move_number: side.next,
                mv: mv.clone(),
                at_ms: state.now_ms(),
            },
        )
        .await?;
        (side, mv, votes)
    };
    let agreed = votes.iter().filter(|v| v.mv == mv).count() >= side.needed();
    if !agreed {
        let p = side.json(&votes);
        side.publish(state, p.clone());
        return Ok(Some(Submitted::Proposed(p)));
    }
    let by: Vec<String> = votes
        .iter()
        .filter(|v| v.mv == mv)
        .map(|v| v.name.clone())
        .collect();
    let mut played = if mv == RESIGN {
        let Json(s) = crate::games::change(state, id, |g, now| g.resign(user_id, now)).await?;
        s
    } else {
        crate::games::play_move(state, user_id, id, &mv, Some(side.next)).await?
    };
    played["agreed_by"] = json!(by);
    db::clear_votes(&state.store, id, side.next).await?;
    // The side's (empty) proposals for the move now to come.
    let game = state.game(id).await?;
    let now = Side::of(&*game.lock().await, side.color);
    if let Some(now) = now {
        now.publish(state, now.json(&[]));
    }
    Ok(Some(Submitted::Played(played)))
}

#[derive(Deserialize)]
struct AcceptRequest {
    /// The proposed move agreed to (`D4`, `pass`, `resign`).
    #[serde(rename = "move")]
    mv: String,
    /// The move number it was proposed for.
    number: Option<i64>,
}

/// The member's side, or why there is none.
async fn member_side(state: &AppState, user_id: i64, id: i64) -> Result<Side, ApiError> {
    let game = state.game(id).await?;
    let g = game.lock().await;
    if g.color_of(user_id).is_none() {
        return Err(ApiError::forbidden(
            "not-a-member",
            "Only a member of a side reads and answers its proposals.",
        ));
    }
    Side::of_member(&g, user_id).ok_or_else(|| {
        ApiError::conflict(
            "no-agreement-step",
            "This game has no proposals: each move is played as it is made.",
        )
    })
}

async fn proposals_route(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
) -> Result<Json<Value>, ApiError> {
    let side = member_side(&state, user.user.id, id).await?;
    Ok(Json(side.current(&state).await?))
}

async fn accept_route(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
    Json(req): Json<AcceptRequest>,
) -> Result<Response, ApiError> {
    let side = member_side(&state, user.user.id, id).await?;
    let votes = db::votes_of(&state.store, id, &side.letter(), side.next).await?;
    let wanted = req.mv.trim();
    let proposed = req.number.is_none_or(|n| n == side.next)
        && votes
            .iter()
            .any(|v| v.mv.eq_ignore_ascii_case(wanted) && v.user_id != user.user.id);
    if !proposed {
        return Err(ApiError::conflict(
            "no-such-proposal",
            "Nobody else in your side proposes this move now; look at the proposals again.",
        ));
    }
    let asked = (!wanted.eq_ignore_ascii_case(RESIGN)).then_some(wanted);
    match submit_as(&state, user.user.id, id, asked, Some(side.next)).await? {
        Some(s) => Ok(s.into_http()),
        // Not a proposal any more (the game moved on): the play path says why.
        None => Err(ApiError::conflict(
            "no-such-proposal",
            "This proposal has lapsed; look at the game again.",
        )),
    }
}

async fn withdraw_route(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
) -> Result<Json<Value>, ApiError> {
    let game = state.game(id).await?;
    let g = game.lock().await;
    let side = Side::of_member(&g, user.user.id)
        .ok_or_else(|| ApiError::forbidden("not-a-member", "You have no proposal in this game."))?;
    db::withdraw(&state.store, id, user.user.id).await?;
    drop(g);
    let p = side.current(&state).await?;
    side.publish(&state, p.clone());
    Ok(Json(p))
}

/// Adds `"proposals"` to the state of game `game` answered at `GET /api/games/{id}` when the
/// caller (by their session) is a member of a side that agrees by proposals; nothing for
/// anyone else.
///
/// # Errors
/// On a storage failure.
pub async fn add_to_state(
    state: &AppState,
    headers: &HeaderMap,
    game: &Mutex<LiveGame>,
    out: &mut Value,
) -> Result<(), ApiError> {
    if Side::of(&*game.lock().await, Color::Black).is_none() {
        return Ok(());
    }
    let Some(token) = session_token(headers) else {
        return Ok(());
    };
    let Some(user) = user_of_token(state, &token).await? else {
        return Ok(());
    };
    let side = Side::of_member(&*game.lock().await, user.user.id);
    if let Some(side) = side {
        out["proposals"] = side.current(state).await?;
    }
    Ok(())
}

/// The proposals a socket's first message carries for a member of side `color` (`None` for a
/// game without proposals).
pub async fn for_socket(state: &AppState, game: &Mutex<LiveGame>, color: Color) -> Option<Value> {
    let side = Side::of(&*game.lock().await, color)?;
    side.current(state).await.ok()
}

#[cfg(test)]
mod tests {
    use super::*;

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
            assert_eq!(Agreement::Any.needed(n), any, "{n}");
            assert_eq!(Agreement::Majority.needed(n), majority, "{n}");
            assert_eq!(Agreement::All.needed(n), all, "{n}");
        }
    }

    #[test]
    fn names_round_trip() {
        for a in [Agreement::Any, Agreement::Majority, Agreement::All] {
            assert_eq!(Agreement::parse(a.name()), Some(a));
        }
        assert_eq!(Agreement::parse("most"), None);
        assert_eq!(DEFAULT, Agreement::All);
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
            agreement: Agreement::All,
            members: 3,
            next: 5,
        };
        let v = side.json(&[
            vote("ann", 5, "E5"),
            vote("ben", 4, "C3"),
            vote("ben", 5, "C3"),
            vote("cat", 5, "E5"),
        ]);
        assert_eq!(
            v,
            json!({
                "color": "B", "agreement": "all", "needed": 3, "members": 3, "number": 5,
                "proposals": [{"move": "E5", "by": ["ann", "cat"]}, {"move": "C3", "by": ["ben"]}],
            })
        );
    }
}
