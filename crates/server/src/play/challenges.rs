//! Challenges: open one, list the open ones, accept (which makes the game), decline, cancel.
//! The routes are `crate::http::challenges`'s.
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

use ingo_clock::TimeControl;
use ingo_competition::Rank;
use ingo_rules::Preset;
use ingo_store::new_id;
use ingo_store::server::{
    self as db, ChallengeRow, GameRow, GameState, MemberRow, SeatRow, UserRow,
};
use serde::{Deserialize, Serialize};

use crate::domain::accounts::check_name_shape;
use crate::domain::error::GameError;
use crate::domain::settings::{self, check_size, parse_preset, ColorChoice};
use crate::domain::team::{Consensus, TeamKind};
use crate::play::hub::Play;
use crate::play::live;
use crate::play::view::{self, TeamView};

/// A new challenge, as asked.
#[derive(Deserialize)]
pub struct NewChallenge {
    #[serde(default = "default_size")]
    size: i64,
    #[serde(default = "default_rules")]
    rules: String,
    /// `nigiri` (even game, colours drawn), `ranks` (handicap from the two ranks, §6), or
    /// `black` or `white` (an even game, the challenger taking that colour: a rematch with the
    /// colours swapped; one a side only).
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
pub struct SeatView {
    side: String,
    seat: i64,
    name: Option<String>,
    rank: Option<String>,
    accepted: bool,
}

/// A challenge as the API shows it.
#[derive(Serialize)]
pub struct ChallengeView {
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
pub enum Accepted {
    /// The game started.
    Started {
        /// The game.
        game_id: i64,
        /// Black's user id (a team's first seat).
        black: i64,
        /// White's user id (a team's first seat).
        white: i64,
        /// A team game's sides.
        #[serde(skip_serializing_if = "Option::is_none")]
        team: Option<Option<TeamView>>,
    },
    /// Some seats have not accepted yet.
    Waiting {
        /// No game yet: `null`.
        game_id: Option<i64>,
        /// The names of the seats that have not accepted.
        waiting_for: Vec<Option<String>>,
    },
}

async fn view_of(play: &Play, c: &ChallengeRow) -> Result<ChallengeView, GameError> {
    let name = |id: Option<i64>| {
        let store = play.store().clone();
        async move {
            match id {
                None => Ok::<_, GameError>(None),
                Some(id) => Ok(db::user_by_id(&store, id).await?.map(|u| (u.name, u.rank))),
            }
        }
    };
    let challenger = name(Some(c.challenger)).await?;
    let opponent = name(c.opponent).await?;
    let agreement = ingo_store::consult::challenge_agreement(play.store(), c.id).await?;
    let (kind, seats) = match db::challenge_team(play.store(), c.id).await? {
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

/// Opens a challenge of `user`'s, who may have at most `max_open` open at once.
///
/// # Errors
/// Refused for bad settings or seats, or past `max_open` (`too-many-challenges`, saying the
/// limit); not found for an unknown user; internal on a storage failure.
pub async fn create(
    play: &Play,
    default_time_control: &str,
    max_open: usize,
    user: &UserRow,
    req: NewChallenge,
) -> Result<ChallengeView, GameError> {
    for (field, names) in [
        ("opponent", req.opponent.as_slice()),
        ("partners", req.partners.as_slice()),
        ("opponents", req.opponents.as_slice()),
    ] {
        for n in names {
            check_name_shape(field, n)?;
        }
    }
    // An early answer; counted again in the transaction that stores the challenge.
    let open = db::holding_count(play.store(), user.id, db::Holding::OpenChallenges).await?;
    if open >= max_open {
        return Err(too_many_challenges(open, max_open));
    }
    // What stores the challenge once its challenger has fewer than `max_open` open, counted in
    // the same transaction (so several servers on one database count one after another).
    let limit = [db::HoldingLimit {
        account: user.id,
        holding: db::Holding::OpenChallenges,
        max: max_open,
    }];
    check_size(req.size)?;
    let preset = parse_preset(&req.rules)?;
    if !["nigiri", "ranks", "black", "white"].contains(&req.handicap.as_str()) {
        return Err(GameError::unprocessable(
            "bad-handicap",
            "handicap is \"nigiri\" (an even game), \"ranks\" (from the two ranks), or \"black\" \
             or \"white\" (an even game, the challenger's colour).",
        ));
    }
    let tc = settings::time_control(req.time_control.as_deref(), default_time_control)?;
    let kind = req.kind.as_deref().unwrap_or("single");
    if kind != "single" && (req.handicap == "black" || req.handicap == "white") {
        return Err(GameError::unprocessable(
            "bad-handicap",
            "A team challenge's colours are \"nigiri\" or \"ranks\"; \"black\" and \"white\" \
             name the challenger's colour in a game of one a side.",
        ));
    }
    if kind != "single" {
        let (kind, seats) = team_seats(play, user, kind, &req).await?;
        let c = new_challenge(
            user.id,
            None,
            req.size,
            req.handicap,
            preset,
            &tc,
            play.now_ms(),
        );
        if let Some(agreement) = agreement_of_request(kind, req.agreement.as_deref())? {
            // Before the challenge: a consultation challenge never exists without it.
            ingo_store::consult::set_challenge_agreement(play.store(), c.id, agreement.name())
                .await?;
        }
        let new = db::NewHolding::TeamChallenge(&c, kind.name(), &seats);
        if let Err(over) = db::insert_within(play.store(), &limit, new).await? {
            return Err(too_many_challenges(over.held, max_open));
        }
        return view_of(play, &c).await;
    }
    if !req.partners.is_empty() || !req.opponents.is_empty() || req.agreement.is_some() {
        return Err(GameError::unprocessable(
            "bad-team",
            "partners, opponents and agreement are for \"kind\": \"pair\" or \"consultation\".",
        ));
    }
    let opponent = match req.opponent {
        None => None,
        Some(name) => {
            let o = db::user_by_name(play.store(), &name)
                .await?
                .ok_or_else(|| GameError::not_found("user"))?;
            if o.id == user.id {
                return Err(GameError::unprocessable(
                    "own-challenge",
                    "You cannot challenge yourself.",
                ));
            }
            Some(o.id)
        }
    };
    let c = new_challenge(
        user.id,
        opponent,
        req.size,
        req.handicap,
        preset,
        &tc,
        play.now_ms(),
    );
    if let Err(over) =
        db::insert_within(play.store(), &limit, db::NewHolding::Challenge(&c)).await?
    {
        return Err(too_many_challenges(over.held, max_open));
    }
    view_of(play, &c).await
}

fn too_many_challenges(open: usize, max_open: usize) -> GameError {
    GameError::conflict(
        "too-many-challenges",
        format!(
            "You have {open} open challenge(s), the most one may have at once ({max_open}); \
             cancel one first."
        ),
    )
}

/// The open challenges.
///
/// # Errors
/// On a storage failure.
pub async fn list(play: &Play) -> Result<Vec<ChallengeView>, GameError> {
    let mut out = Vec::new();
    for c in db::open_challenges(play.store(), 200).await? {
        out.push(view_of(play, &c).await?);
    }
    Ok(out)
}

/// Challenge `id`.
///
/// # Errors
/// Not found; internal on a storage failure.
pub async fn one(play: &Play, id: i64) -> Result<ChallengeView, GameError> {
    let c = db::challenge_by_id(play.store(), id)
        .await?
        .ok_or_else(|| GameError::not_found("challenge"))?;
    view_of(play, &c).await
}

async fn open_challenge(play: &Play, id: i64) -> Result<ChallengeRow, GameError> {
    let c = db::challenge_by_id(play.store(), id)
        .await?
        .ok_or_else(|| GameError::not_found("challenge"))?;
    if c.status != "open" {
        return Err(GameError::conflict(
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
) -> Result<(i64, i64, i64, i64), GameError> {
    let even_komi = i64::from(parse_preset(&c.preset)?.rules().komi.halves());
    // The challenger's colour named: an even game, no passes.
    match c.handicap.as_str() {
        "black" => return Ok((c.challenger, acceptor, even_komi, 0)),
        "white" => return Ok((acceptor, c.challenger, even_komi, 0)),
        _ => {}
    }
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

/// `user` accepts challenge `id`: the game starts, or (a team challenge) the seat is taken.
///
/// # Errors
/// Forbidden for one's own challenge or another's; a conflict when closed; internal on a
/// storage failure.
pub async fn accept(play: &Play, user: &UserRow, id: i64) -> Result<Accepted, GameError> {
    let c = open_challenge(play, id).await?;
    if c.challenger == user.id {
        return Err(GameError::forbidden(
            "own-challenge",
            "You cannot accept your own challenge.",
        ));
    }
    if let Some((kind, seats)) = db::challenge_team(play.store(), c.id).await? {
        return accept_seat(play, user, &c, &kind, &seats).await;
    }
    if c.opponent.is_some_and(|o| o != user.id) {
        return Err(GameError::forbidden(
            "not-your-challenge",
            "This challenge is offered to someone else.",
        ));
    }
    let challenger = db::user_by_id(play.store(), c.challenger)
        .await?
        .ok_or_else(|| GameError::internal("challenger vanished"))?;
    let (black, white, komi_halves, passes) = seat(
        &c,
        settings::stored_rank(&challenger.rank),
        user.id,
        settings::stored_rank(&user.rank),
    )?;
    let game = game_of(&c, black, white, komi_halves, passes, play.now_ms());
    if !db::accept_challenge(play.store(), c.id, &game).await? {
        return Err(GameError::conflict(
            "challenge-closed",
            "Someone else acted on this challenge first.",
        ));
    }
    // Load it now, so that its clock's timer runs from the start.
    live::game(play, game.id).await?;
    Ok(Accepted::Started {
        game_id: game.id,
        black,
        white,
        team: None,
    })
}

/// `user`, to whom challenge `id` is offered, declines it.
///
/// # Errors
/// Forbidden for anyone else; a conflict when closed; internal on a storage failure.
pub async fn decline(play: &Play, user: &UserRow, id: i64) -> Result<(), GameError> {
    let c = open_challenge(play, id).await?;
    let seated = match db::challenge_team(play.store(), c.id).await? {
        Some((_, seats)) => seats
            .iter()
            .any(|s| s.user_id == user.id && c.challenger != user.id),
        None => false,
    };
    if !seated && c.opponent != Some(user.id) {
        return Err(GameError::forbidden(
            "not-your-challenge",
            "Only a player a challenge is offered to can decline it.",
        ));
    }
    if !db::close_challenge(play.store(), id, "declined").await? {
        return Err(GameError::conflict(
            "challenge-closed",
            "This challenge is closed.",
        ));
    }
    Ok(())
}

/// The challenger cancels challenge `id`.
///
/// # Errors
/// Forbidden for anyone else; a conflict when closed; internal on a storage failure.
pub async fn cancel(play: &Play, user: &UserRow, id: i64) -> Result<(), GameError> {
    let c = open_challenge(play, id).await?;
    if c.challenger != user.id {
        return Err(GameError::forbidden(
            "not-your-challenge",
            "Only the challenger can cancel a challenge.",
        ));
    }
    if !db::close_challenge(play.store(), id, "cancelled").await? {
        return Err(GameError::conflict(
            "challenge-closed",
            "This challenge is closed.",
        ));
    }
    Ok(())
}

/// The seats of a new team challenge: the challenger's side (the challenger first, then the
/// partners) and the opponents, each in the order given.
async fn team_seats(
    play: &Play,
    user: &UserRow,
    kind: &str,
    req: &NewChallenge,
) -> Result<(TeamKind, Vec<SeatRow>), GameError> {
    let bad = |m: String| GameError::unprocessable("bad-team", m);
    let kind = TeamKind::parse(kind).ok_or_else(|| {
        GameError::unprocessable(
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
        user_id: user.id,
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
        let u = db::user_by_name(play.store(), name).await?.ok_or_else(|| {
            GameError::unprocessable("unknown-user", format!("There is no user {name:?}."))
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
    play: &Play,
    user: &UserRow,
    c: &ChallengeRow,
    kind: &str,
    seats: &[SeatRow],
) -> Result<Accepted, GameError> {
    let mine = seats.iter().find(|s| s.user_id == user.id).ok_or_else(|| {
        GameError::forbidden(
            "not-your-challenge",
            "This challenge is offered to other players.",
        )
    })?;
    if mine.accepted {
        return Err(GameError::conflict(
            "already-accepted",
            "You have accepted this challenge already; the others have not all accepted yet.",
        ));
    }
    if !db::accept_seat(play.store(), c.id, user.id).await? {
        return Err(GameError::conflict(
            "challenge-closed",
            "Someone else acted on this challenge first.",
        ));
    }
    let Some((_, seats)) = db::challenge_team(play.store(), c.id).await? else {
        return Err(GameError::internal("team challenge lost its seats"));
    };
    let mut waiting = Vec::new();
    for s in seats.iter().filter(|s| !s.accepted) {
        waiting.push(
            db::user_by_id(play.store(), s.user_id)
                .await?
                .map(|u| u.name),
        );
    }
    if !waiting.is_empty() {
        return Ok(Accepted::Waiting {
            game_id: None,
            waiting_for: waiting,
        });
    }
    let kind = TeamKind::parse(kind)
        .ok_or_else(|| GameError::internal(format!("stored team kind {kind:?}")))?;
    // Each side in seat order, with its ranks.
    let mut sides: [Vec<(i64, Rank)>; 2] = [Vec::new(), Vec::new()];
    for s in &seats {
        let u = db::user_by_id(play.store(), s.user_id)
            .await?
            .ok_or_else(|| GameError::internal("a seat's user vanished"))?;
        let rank = settings::stored_rank(&u.rank);
        sides[usize::from(s.side != "challenger")].push((u.id, rank));
    }
    let preset: Preset = c
        .preset
        .parse()
        .map_err(|e: ingo_rules::ParsePresetError| GameError::internal(e.to_string()))?;
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
        return Err(GameError::internal("a team challenge with an empty side"));
    };
    let game = game_of(c, b1, w1, komi_halves, passes, play.now_ms());
    if !db::start_team_game(play.store(), c.id, &game, kind.name(), &members).await? {
        // Another last acceptor started it at the same moment: answer that game.
        let now = db::challenge_by_id(play.store(), c.id).await?;
        return match now.and_then(|c| c.game_id) {
            Some(id) => {
                let live = live::game(play, id).await?;
                let g = live.lock().await;
                Ok(Accepted::Started {
                    game_id: id,
                    black: g.row().black,
                    white: g.row().white,
                    team: Some(view::team(&g)),
                })
            }
            None => Err(GameError::conflict(
                "challenge-closed",
                "Someone else acted on this challenge first.",
            )),
        };
    }
    // Load it now, so that its clock's timer runs from the start.
    let live = live::game(play, game.id).await?;
    let team = view::team(&*live.lock().await);
    Ok(Accepted::Started {
        game_id: game.id,
        black: b1,
        white: w1,
        team: Some(team),
    })
}

/// The agreement a team challenge asks for: consultation's (by default every member); pair go
/// has none (its order is the seats').
fn agreement_of_request(
    kind: TeamKind,
    asked: Option<&str>,
) -> Result<Option<Consensus>, GameError> {
    match (kind, asked) {
        (TeamKind::Pair, None) => Ok(None),
        (TeamKind::Pair, Some(_)) => Err(GameError::unprocessable(
            "bad-agreement",
            "Pair go (聯棋) has no agreement: partners move in turn.",
        )),
        (TeamKind::Consultation, None) => Ok(Some(Consensus::DEFAULT)),
        (TeamKind::Consultation, Some(a)) => Consensus::parse(a).map(Some).ok_or_else(|| {
            GameError::unprocessable(
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
        version: 0,
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
