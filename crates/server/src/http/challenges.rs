//! Challenges: open one, list the open ones, accept (which makes the game), decline, cancel.
//!
//! **Pair go and consultation** (article 5 賽式: 聯棋, 商談聯棋). The challenger names every
//! seat: `"kind": "pair"` (two a side: one partner, two opponents) or `"consultation"` (two to
//! eight a side), `"partners"` and `"opponents"` by user name, each side in seat order (the
//! challenger sits first on theirs). There are no open seats: every named user accepts their
//! own seat (`POST …/accept`), the game starts when the last one does, and any of them may
//! decline, which closes the challenge. Colours: by nigiri between the sides, or with
//! `"handicap": "ranks"` from each side's *average* rank on the §6 points scale (the rule text
//! says nothing of teams; the difference of the averages, rounded to a whole point, is treated
//! as between two players: the weaker side takes Black, White passes `K − 1` times and gets
//! `8K − Δ` points back).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use ingo_clock::TimeControl;
use ingo_competition::Rank;
use ingo_rules::Preset;
use ingo_store::new_id;
use ingo_store::server::{self as db, ChallengeRow, GameRow, GameState, MemberRow, SeatRow};
use serde::{Deserialize, Serialize};

use crate::domain::settings::{self, check_size, parse_preset, ColorChoice};
use crate::domain::team::{Consensus, TeamKind};
use crate::http::auth::User;
use crate::http::error::ApiError;
use crate::play::view::{self, TeamView};
use crate::AppState;

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/challenges", get(list).post(create))
        .route("/api/challenges/{id}", get(one))
        .route("/api/challenges/{id}/accept", post(accept))
        .route("/api/challenges/{id}/decline", post(decline))
        .route("/api/challenges/{id}/cancel", post(cancel))
}

#[derive(Deserialize)]
struct NewChallenge {
    #[serde(default = "default_size")]
    size: i64,
    #[serde(default = "default_rules")]
    rules: String,
    /// `nigiri` (even game, colours drawn) or `ranks` (handicap from the two ranks, §6).
    #[serde(default = "default_handicap")]
    handicap: String,
    time_control: Option<String>,
    /// Only this user may accept.
    opponent: Option<String>,
    /// `single` (the default), `pair` or `consultation`.
    kind: Option<String>,
    /// A team challenge: the challenger's partners, in seat order after the challenger.
    #[serde(default)]
    partners: Vec<String>,
    /// A team challenge: the other side, in seat order.
    #[serde(default)]
    opponents: Vec<String>,
    /// Consultation: how a side agrees on a move (`all`, the default; `majority`; `any`).
    agreement: Option<String>,
}

/// The most members a side of a consultation game may have.
pub const MAX_SIDE: usize = 8;

fn default_size() -> i64 {
    19
}
fn default_rules() -> String {
    "ing".into()
}
fn default_handicap() -> String {
    "nigiri".into()
}

/// A seat of a team challenge.
#[derive(Serialize)]
struct SeatView {
    side: String,
    seat: i64,
    name: Option<String>,
    rank: Option<String>,
    accepted: bool,
}

/// A challenge as the API shows it.
#[derive(Serialize)]
struct ChallengeView {
    /// `single`, `pair` or `consultation`.
    kind: String,
    /// How a consultation side agrees.
    agreement: Option<String>,
    /// The seats of a team challenge.
    seats: Option<Vec<SeatView>>,
    id: i64,
    challenger: Option<String>,
    challenger_rank: Option<String>,
    opponent: Option<String>,
    size: i64,
    rules: String,
    handicap: String,
    time_control: String,
    status: String,
    game_id: Option<i64>,
    created_ms: i64,
}

/// What an acceptance did: the game it started, or the seats still waited for.
#[derive(Serialize)]
#[serde(untagged)]
enum Accepted {
    /// The game started.
    Started {
        game_id: i64,
        black: i64,
        white: i64,
        /// A team game's sides.
        #[serde(skip_serializing_if = "Option::is_none")]
        team: Option<Option<TeamView>>,
    },
    /// Some seats have not accepted yet.
    Waiting {
        game_id: Option<i64>,
        waiting_for: Vec<Option<String>>,
    },
}

async fn view_of(state: &AppState, c: &ChallengeRow) -> Result<ChallengeView, ApiError> {
    let name = |id: Option<i64>| {
        let store = state.store.clone();
        async move {
            match id {
                None => Ok::<_, ApiError>(None),
                Some(id) => Ok(db::user_by_id(&store, id).await?.map(|u| (u.name, u.rank))),
            }
        }
    };
    let challenger = name(Some(c.challenger)).await?;
    let opponent = name(c.opponent).await?;
    let agreement = ingo_store::consult::challenge_agreement(&state.store, c.id).await?;
    let (kind, seats) = match db::challenge_team(&state.store, c.id).await? {
        None => ("single".to_owned(), None),
        Some((kind, seats)) => {
            let mut out = Vec::new();
            for s in &seats {
                let u = name(Some(s.user_id)).await?;
                let (name, rank) = u.map_or((None, None), |(n, r)| (Some(n), Some(r)));
                out.push(SeatView {
                    side: s.side.clone(),
                    seat: s.seat,
                    name,
                    rank,
                    accepted: s.accepted,
                });
            }
            (kind, Some(out))
        }
    };
    // Consultation: how a side agrees (a challenge stored before agreements existed: any).
    let agreement = (kind == "consultation").then(|| agreement.unwrap_or_else(|| "any".into()));
    let (challenger, challenger_rank) =
        challenger.map_or((None, None), |(n, r)| (Some(n), Some(r)));
    Ok(ChallengeView {
        kind,
        agreement,
        seats,
        id: c.id,
        challenger,
        challenger_rank,
        opponent: opponent.map(|(n, _)| n),
        size: c.size,
        rules: c.preset.clone(),
        handicap: c.handicap.clone(),
        time_control: c.time_control.clone(),
        status: c.status.clone(),
        game_id: c.game_id,
        created_ms: c.created_ms,
    })
}

fn time_control(state: &AppState, text: Option<&str>) -> Result<TimeControl, ApiError> {
    Ok(settings::time_control(
        text,
        &state.config.default_time_control,
    )?)
}

async fn create(
    State(state): State<AppState>,
    user: User,
    Json(req): Json<NewChallenge>,
) -> Result<(StatusCode, Json<ChallengeView>), ApiError> {
    check_size(req.size)?;
    let preset = parse_preset(&req.rules)?;
    if req.handicap != "nigiri" && req.handicap != "ranks" {
        return Err(ApiError::unprocessable(
            "bad-handicap",
            "handicap is \"nigiri\" (an even game) or \"ranks\" (from the two ranks).",
        ));
    }
    let tc = time_control(&state, req.time_control.as_deref())?;
    let kind = req.kind.as_deref().unwrap_or("single");
    if kind != "single" {
        let (kind, seats) = team_seats(&state, &user, kind, &req).await?;
        let c = new_challenge(
            user.user.id,
            None,
            req.size,
            req.handicap,
            preset,
            &tc,
            state.now_ms(),
        );
        if let Some(agreement) = agreement_of_request(kind, req.agreement.as_deref())? {
            // Before the challenge: a consultation challenge never exists without it.
            ingo_store::consult::set_challenge_agreement(&state.store, c.id, agreement.name())
                .await?;
        }
        db::create_team_challenge(&state.store, &c, kind.name(), &seats).await?;
        return Ok((StatusCode::CREATED, Json(view_of(&state, &c).await?)));
    }
    if !req.partners.is_empty() || !req.opponents.is_empty() || req.agreement.is_some() {
        return Err(ApiError::unprocessable(
            "bad-team",
            "partners, opponents and agreement are for \"kind\": \"pair\" or \"consultation\".",
        ));
    }
    let opponent = match req.opponent {
        None => None,
        Some(name) => {
            let o = db::user_by_name(&state.store, &name)
                .await?
                .ok_or_else(|| ApiError::not_found("user"))?;
            if o.id == user.user.id {
                return Err(ApiError::unprocessable(
                    "own-challenge",
                    "You cannot challenge yourself.",
                ));
            }
            Some(o.id)
        }
    };
    let c = new_challenge(
        user.user.id,
        opponent,
        req.size,
        req.handicap,
        preset,
        &tc,
        state.now_ms(),
    );
    db::create_challenge(&state.store, &c).await?;
    Ok((StatusCode::CREATED, Json(view_of(&state, &c).await?)))
}

async fn list(State(state): State<AppState>) -> Result<Json<Vec<ChallengeView>>, ApiError> {
    let mut out = Vec::new();
    for c in db::open_challenges(&state.store, 200).await? {
        out.push(view_of(&state, &c).await?);
    }
    Ok(Json(out))
}

async fn one(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<ChallengeView>, ApiError> {
    let c = db::challenge_by_id(&state.store, id)
        .await?
        .ok_or_else(|| ApiError::not_found("challenge"))?;
    Ok(Json(view_of(&state, &c).await?))
}

async fn open_challenge(state: &AppState, id: i64) -> Result<ChallengeRow, ApiError> {
    let c = db::challenge_by_id(&state.store, id)
        .await?
        .ok_or_else(|| ApiError::not_found("challenge"))?;
    if c.status != "open" {
        return Err(ApiError::conflict(
            "challenge-closed",
            format!("This challenge is {} already.", c.status),
        ));
    }
    Ok(c)
}

/// Colours, komi and handicap passes of a game between the challenger and the acceptor.
fn seat(
    c: &ChallengeRow,
    challenger_rank: Rank,
    acceptor: i64,
    acceptor_rank: Rank,
) -> Result<(i64, i64, i64, i64), ApiError> {
    let even_komi = i64::from(parse_preset(&c.preset)?.rules().komi.halves());
    let choice = if c.handicap == "ranks" {
        ColorChoice::Ranks
    } else {
        ColorChoice::Nigiri
    };
    // The challenger holds the stones, the acceptor guesses.
    let colors = settings::colors(
        choice,
        even_komi,
        &[acceptor_rank],
        &[challenger_rank],
        new_id() as u64,
    );
    let (black, white) = if colors.asker_black {
        (acceptor, c.challenger)
    } else {
        (c.challenger, acceptor)
    };
    Ok((black, white, colors.komi_halves, colors.handicap_passes))
}

async fn accept(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
) -> Result<(StatusCode, Json<Accepted>), ApiError> {
    let c = open_challenge(&state, id).await?;
    if c.challenger == user.user.id {
        return Err(ApiError::forbidden(
            "own-challenge",
            "You cannot accept your own challenge.",
        ));
    }
    if let Some((kind, seats)) = db::challenge_team(&state.store, c.id).await? {
        return accept_seat(&state, &user, &c, &kind, &seats).await;
    }
    if c.opponent.is_some_and(|o| o != user.user.id) {
        return Err(ApiError::forbidden(
            "not-your-challenge",
            "This challenge is offered to someone else.",
        ));
    }
    let challenger = db::user_by_id(&state.store, c.challenger)
        .await?
        .ok_or_else(|| ApiError::internal("challenger vanished"))?;
    let rank = |r: &str| r.parse::<Rank>().unwrap_or(Rank::BelowKyu);
    let (black, white, komi_halves, passes) = seat(
        &c,
        rank(&challenger.rank),
        user.user.id,
        rank(&user.user.rank),
    )?;
    let game = game_of(&c, black, white, komi_halves, passes, state.now_ms());
    if !db::accept_challenge(&state.store, c.id, &game).await? {
        return Err(ApiError::conflict(
            "challenge-closed",
            "Someone else acted on this challenge first.",
        ));
    }
    // Load it now, so that its clock's timer runs from the start.
    state.game(game.id).await?;
    Ok((
        StatusCode::CREATED,
        Json(Accepted::Started {
            game_id: game.id,
            black,
            white,
            team: None,
        }),
    ))
}

async fn decline(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
) -> Result<StatusCode, ApiError> {
    let c = open_challenge(&state, id).await?;
    let seated = match db::challenge_team(&state.store, c.id).await? {
        Some((_, seats)) => seats
            .iter()
            .any(|s| s.user_id == user.user.id && c.challenger != user.user.id),
        None => false,
    };
    if !seated && c.opponent != Some(user.user.id) {
        return Err(ApiError::forbidden(
            "not-your-challenge",
            "Only a player a challenge is offered to can decline it.",
        ));
    }
    if !db::close_challenge(&state.store, id, "declined").await? {
        return Err(ApiError::conflict(
            "challenge-closed",
            "This challenge is closed.",
        ));
    }
    Ok(StatusCode::NO_CONTENT)
}

async fn cancel(
    State(state): State<AppState>,
    user: User,
    Path(id): Path<i64>,
) -> Result<StatusCode, ApiError> {
    let c = open_challenge(&state, id).await?;
    if c.challenger != user.user.id {
        return Err(ApiError::forbidden(
            "not-your-challenge",
            "Only the challenger can cancel a challenge.",
        ));
    }
    if !db::close_challenge(&state.store, id, "cancelled").await? {
        return Err(ApiError::conflict(
            "challenge-closed",
            "This challenge is closed.",
        ));
    }
    Ok(StatusCode::NO_CONTENT)
}

/// The seats of a new team challenge: the challenger's side (the challenger first, then the
/// partners) and the opponents, each in the order given.
async fn team_seats(
    state: &AppState,
    user: &User,
    kind: &str,
    req: &NewChallenge,
) -> Result<(TeamKind, Vec<SeatRow>), ApiError> {
    let bad = |m: String| ApiError::unprocessable("bad-team", m);
    let kind = TeamKind::parse(kind).ok_or_else(|| {
        ApiError::unprocessable(
            "bad-kind",
            "kind is \"single\", \"pair\" (聯棋) or \"consultation\" (商談聯棋).",
        )
    })?;
    if req.opponent.is_some() {
        return Err(bad(
            "A team challenge names its players in partners and opponents, not opponent.".into(),
        ));
    }
    let (ours, theirs) = (req.partners.len() + 1, req.opponents.len());
    match kind {
        TeamKind::Pair if ours != 2 || theirs != 2 => {
            return Err(bad(format!(
                "Pair go (聯棋) is two a side: name one partner and two opponents, not {} and {theirs}.",
                ours - 1
            )))
        }
        TeamKind::Consultation if !(2..=MAX_SIDE).contains(&ours) || !(2..=MAX_SIDE).contains(&theirs) => {
            return Err(bad(format!(
                "Consultation (商談聯棋) is two to {MAX_SIDE} a side, not {ours} and {theirs}."
            )))
        }
        _ => {}
    }
    let mut seats = vec![SeatRow {
        side: "challenger".into(),
        seat: 1,
        user_id: user.user.id,
        accepted: true,
    }];
    let named = req
        .partners
        .iter()
        .enumerate()
        .map(|(i, n)| ("challenger", i as i64 + 2, n))
        .chain(
            req.opponents
                .iter()
                .enumerate()
                .map(|(i, n)| ("opponent", i as i64 + 1, n)),
        );
    for (side, seat, name) in named {
        let u = db::user_by_name(&state.store, name).await?.ok_or_else(|| {
            ApiError::unprocessable("unknown-user", format!("There is no user {name:?}."))
        })?;
        if seats.iter().any(|s| s.user_id == u.id) {
            return Err(bad(format!(
                "{name} is named twice: each player has one seat."
            )));
        }
        seats.push(SeatRow {
            side: side.into(),
            seat,
            user_id: u.id,
            accepted: false,
        });
    }
    Ok((kind, seats))
}

/// A seat's user accepts a team challenge; the last acceptance starts the game.
async fn accept_seat(
    state: &AppState,
    user: &User,
    c: &ChallengeRow,
    kind: &str,
    seats: &[SeatRow],
) -> Result<(StatusCode, Json<Accepted>), ApiError> {
    let mine = seats
        .iter()
        .find(|s| s.user_id == user.user.id)
        .ok_or_else(|| {
            ApiError::forbidden(
                "not-your-challenge",
                "This challenge is offered to other players.",
            )
        })?;
    if mine.accepted {
        return Err(ApiError::conflict(
            "already-accepted",
            "You have accepted this challenge already; the others have not all accepted yet.",
        ));
    }
    if !db::accept_seat(&state.store, c.id, user.user.id).await? {
        return Err(ApiError::conflict(
            "challenge-closed",
            "Someone else acted on this challenge first.",
        ));
    }
    let Some((_, seats)) = db::challenge_team(&state.store, c.id).await? else {
        return Err(ApiError::internal("team challenge lost its seats"));
    };
    let mut waiting = Vec::new();
    for s in seats.iter().filter(|s| !s.accepted) {
        waiting.push(
            db::user_by_id(&state.store, s.user_id)
                .await?
                .map(|u| u.name),
        );
    }
    if !waiting.is_empty() {
        return Ok((
            StatusCode::OK,
            Json(Accepted::Waiting {
                game_id: None,
                waiting_for: waiting,
            }),
        ));
    }
    let kind = TeamKind::parse(kind)
        .ok_or_else(|| ApiError::internal(format!("stored team kind {kind:?}")))?;
    // Each side in seat order, with its ranks.
    let mut sides: [Vec<(i64, Rank)>; 2] = [Vec::new(), Vec::new()];
    for s in &seats {
        let u = db::user_by_id(&state.store, s.user_id)
            .await?
            .ok_or_else(|| ApiError::internal("a seat's user vanished"))?;
        let rank = u.rank.parse::<Rank>().unwrap_or(Rank::BelowKyu);
        sides[usize::from(s.side != "challenger")].push((u.id, rank));
    }
    let preset: Preset = c
        .preset
        .parse()
        .map_err(|e: ingo_rules::ParsePresetError| ApiError::internal(e.to_string()))?;
    let even_komi = i64::from(preset.rules().komi.halves());
    let ranks = |i: usize| sides[i].iter().map(|(_, r)| *r).collect::<Vec<_>>();
    let choice = if c.handicap == "ranks" {
        ColorChoice::Ranks
    } else {
        ColorChoice::Nigiri
    };
    // The challenger holds the stones, the other side guesses.
    let colors = settings::colors(choice, even_komi, &ranks(1), &ranks(0), new_id() as u64);
    let (challengers_black, komi_halves, passes) = (
        !colors.asker_black,
        colors.komi_halves,
        colors.handicap_passes,
    );
    let (black, white) = if challengers_black {
        (&sides[0], &sides[1])
    } else {
        (&sides[1], &sides[0])
    };
    let members: Vec<MemberRow> = [("B", black), ("W", white)]
        .into_iter()
        .flat_map(|(color, side)| {
            side.iter().enumerate().map(move |(i, (id, _))| MemberRow {
                color: color.into(),
                seat: i as i64 + 1,
                user_id: *id,
            })
        })
        .collect();
    let (Some(&(b1, _)), Some(&(w1, _))) = (black.first(), white.first()) else {
        return Err(ApiError::internal("a team challenge with an empty side"));
    };
    let game = game_of(c, b1, w1, komi_halves, passes, state.now_ms());
    if !db::start_team_game(&state.store, c.id, &game, kind.name(), &members).await? {
        // Another last acceptor started it at the same moment: answer that game.
        let now = db::challenge_by_id(&state.store, c.id).await?;
        return match now.and_then(|c| c.game_id) {
            Some(id) => {
                let live = state.game(id).await?;
                let g = live.lock().await;
                Ok((
                    StatusCode::CREATED,
                    Json(Accepted::Started {
                        game_id: id,
                        black: g.row().black,
                        white: g.row().white,
                        team: Some(view::team(&g)),
                    }),
                ))
            }
            None => Err(ApiError::conflict(
                "challenge-closed",
                "Someone else acted on this challenge first.",
            )),
        };
    }
    // Load it now, so that its clock's timer runs from the start.
    let live = state.game(game.id).await?;
    let team = view::team(&*live.lock().await);
    Ok((
        StatusCode::CREATED,
        Json(Accepted::Started {
            game_id: game.id,
            black: b1,
            white: w1,
            team: Some(team),
        }),
    ))
}

/// The agreement a team challenge asks for: consultation's (by default every member); pair go
/// has none (its order is the seats').
fn agreement_of_request(
    kind: TeamKind,
    asked: Option<&str>,
) -> Result<Option<Consensus>, ApiError> {
    match (kind, asked) {
        (TeamKind::Pair, None) => Ok(None),
        (TeamKind::Pair, Some(_)) => Err(ApiError::unprocessable(
            "bad-agreement",
            "Pair go (聯棋) has no agreement: partners move in turn.",
        )),
        (TeamKind::Consultation, None) => Ok(Some(Consensus::DEFAULT)),
        (TeamKind::Consultation, Some(a)) => Consensus::parse(a).map(Some).ok_or_else(|| {
            ApiError::unprocessable(
                "bad-agreement",
                "agreement is \"all\" (every member), \"majority\" or \"any\" (any member).",
            )
        }),
    }
}

/// The game an accepted challenge starts: its size, rules and time control, the seats and
/// handicap it was decided with, a fresh id, in play from `now_ms`.
fn game_of(
    c: &ChallengeRow,
    black: i64,
    white: i64,
    komi_halves: i64,
    passes: i64,
    now_ms: i64,
) -> GameRow {
    GameRow {
        id: new_id(),
        black,
        white,
        size: c.size,
        preset: c.preset.clone(),
        komi_halves,
        handicap_passes: passes,
        time_control: c.time_control.clone(),
        state: GameState::playing(),
        started_ms: now_ms,
    }
}

/// A new open challenge of `challenger` (to `opponent`, or to anybody), with its size, rules,
/// handicap and time control already checked, made at `now_ms`.
fn new_challenge(
    challenger: i64,
    opponent: Option<i64>,
    size: i64,
    handicap: String,
    preset: Preset,
    tc: &TimeControl,
    now_ms: i64,
) -> ChallengeRow {
    ChallengeRow {
        id: new_id(),
        challenger,
        opponent,
        size,
        preset: preset.name().into(),
        handicap,
        time_control: tc.to_string(),
        status: "open".into(),
        game_id: None,
        created_ms: now_ms,
    }
}
