//! What the web board asks of the server beyond the game API: every position of a
//! game for the review page, variations played from any of its moves (and their SGF), a score
//! estimate during play, the count drawn by `ingo-render` exactly as `ingo score --svg`
//! draws it, and the judgement of an uploaded SGF record. The rules are decided here, by
//! `ingo-rules` through `ingo-sgf`; the browser only shows the answers.

use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use ingo_render::count_picture;
use ingo_rules::{Color, Game, Move, Phase, Preset};
use ingo_sgf::ReplayMode;
use serde::{Deserialize, Serialize};

use crate::domain::error::reason_message;
use crate::http::error::ApiError;
use crate::play::view::{self, board_rows, owner_rows, Both, ScoreView};
use crate::AppState;

/// The largest record `POST /api/judge` reads, in bytes.
pub const MAX_SGF_BYTES: usize = 1 << 20;

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games/{id}/positions", get(positions))
        .route("/api/games/{id}/count.svg", get(count_svg))
        .route("/api/judge", post(judge))
        .route("/api/games/{id}/variation", post(variation))
        .route("/api/games/{id}/variations.sgf", post(variations_sgf))
        .route("/api/games/{id}/estimate", get(estimate))
}

/// The most moves a variation may hold.
pub const MAX_VARIATION_MOVES: usize = 1000;

/// The most variations one SGF download holds.
pub const MAX_VARIATIONS: usize = 100;

/// A move of a replayed game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Played {
    /// Its number, 1 for the first.
    pub number: usize,
    /// `B` or `W`.
    pub color: String,
    /// The vertex or `pass`.
    #[serde(rename = "move")]
    pub mv: String,
}

/// Every position of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Positions {
    /// Board size.
    pub size: usize,
    /// The moves.
    pub moves: Vec<Played>,
    /// The board before the first move and after each move, rows from the top.
    pub boards: Vec<Vec<String>>,
}

/// The first move the rules refuse in a record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Illegal {
    /// Its number.
    pub number: usize,
    /// `B` or `W`.
    pub color: String,
    /// The point.
    #[serde(rename = "move")]
    pub mv: String,
    /// The rules' code (`hot-stone`…).
    pub reason: &'static str,
    /// The sentence that explains it.
    pub message: &'static str,
}

/// The judgement of an uploaded record.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Judgement {
    /// Every position up to the first refused move.
    #[serde(flatten)]
    pub positions: Positions,
    /// The first refused move, if any.
    pub illegal: Option<Illegal>,
    /// The count, when every move is legal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<ScoreView>,
    /// The count's picture, when every move is legal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count_svg: Option<String>,
    /// The rules it was judged by.
    pub rules: String,
    /// Where the record's game stands at its last move: `playing`, `suspended` (two passes)
    /// or `ended`; a count of a game not ended is the count if play stopped there.
    pub phase: &'static str,
    /// Who moves next, `B` or `W`, when the game goes on.
    pub to_move: String,
}

/// Every position of `game` from its start: the boards before the first move and after each
/// move, and the moves (GTP notation), replayed from the game's setup by the rules.
///
/// # Errors
/// 500 when a move of the game does not replay (a broken invariant).
pub fn positions_of(game: &Game) -> Result<Positions, ApiError> {
    let size = game.board().height();
    let mut replay = Game::new(game.setup().clone(), *game.rules());
    let mut boards = vec![board_rows(replay.board())];
    let mut moves = Vec::new();
    for (i, played) in game.history().enumerate() {
        replay
            .play_as(played.color, played.mv)
            .map_err(|e| ApiError::internal(format!("move {} does not replay: {e}", i + 1)))?;
        boards.push(board_rows(replay.board()));
        moves.push(Played {
            number: i + 1,
            color: played.color.letter().to_string(),
            mv: played.mv.to_gtp(size),
        });
    }
    Ok(Positions {
        size,
        moves,
        boards,
    })
}

async fn positions(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Positions>, ApiError> {
    let (_, g) = state.shown(id).await?;
    Ok(Json(positions_of(g.game())?))
}

async fn count_svg(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<impl IntoResponse, ApiError> {
    let (_, g) = state.shown(id).await?;
    let score = g.game().score().ok_or_else(|| {
        ApiError::conflict(
            "not-counted",
            "This game has not been counted (it is not over, or it ended without a count).",
        )
    })?;
    let title = format!(
        "{} – {}: {}",
        g.players().black.name,
        g.players().white.name,
        score.result_string()
    );
    Ok((
        [
            (CONTENT_TYPE, "image/svg+xml; charset=utf-8"),
            (CACHE_CONTROL, "no-cache"),
        ],
        count_picture(g.game().board(), &score, Vec::new(), Vec::new(), title).svg(),
    ))
}

/// A variation: moves played from move `from` of a game (0: from its start).
#[derive(Clone, Debug, Deserialize)]
pub struct VariationRequest {
    /// The number of the game's last move kept (0 for the start).
    pub from: usize,
    /// The variation's moves, GTP vertices or `pass`, each for the player to move.
    pub moves: Vec<String>,
}

/// A variation as the rules let it be played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Variation {
    /// Board size.
    pub size: usize,
    /// The number of the game's last move before the variation.
    pub from: usize,
    /// The variation's moves the rules accepted, numbered on from `from` (White's handicap
    /// passes the rules owe included, as the server makes them in play).
    pub moves: Vec<Played>,
    /// The board after each of `moves`, rows from the top.
    pub boards: Vec<Vec<String>>,
    /// Who moves next, `B` or `W`.
    pub to_move: String,
    /// `playing`, `suspended` or `ended` after the last accepted move.
    pub phase: &'static str,
    /// The stones each colour has captured, game and variation together.
    pub captures: Both<usize>,
    /// The first move the rules refused, with the reason; the moves after it were not tried.
    pub illegal: Option<Illegal>,
}

/// The game of `game` after its first `from` moves, replayed from its setup by the rules.
fn game_at(game: &Game, from: usize) -> Result<Game, ApiError> {
    let mut replay = Game::new(game.setup().clone(), *game.rules());
    replay.set_handicap_game(game.is_handicap());
    for (i, played) in game.history().take(from).enumerate() {
        replay
            .play_as(played.color, played.mv)
            .map_err(|e| ApiError::internal(format!("move {} does not replay: {e}", i + 1)))?;
    }
    Ok(replay)
}

/// Plays `req.moves` from move `req.from` of `game` under the game's own rules
/// (`Game::play_as`, the one judge of legality): each move for the player to move, White's
/// handicap passes made when due ("讓手" as in play), up to the first move the rules refuse.
///
/// # Errors
/// 422 `bad-move-number` when `from` is past the game's last move, `bad-point` for a move that
/// is neither a point of the board nor `pass`, `too-long` for more than
/// [`MAX_VARIATION_MOVES`] moves.
pub fn play_variation(game: &Game, req: &VariationRequest) -> Result<(Variation, Game), ApiError> {
    let size = game.board().height();
    let played = game.history().count();
    if req.from > played {
        return Err(ApiError::unprocessable(
            "bad-move-number",
            format!("The game has {played} moves; a variation starts at one of them."),
        ));
    }
    if req.moves.len() > MAX_VARIATION_MOVES {
        return Err(ApiError::unprocessable(
            "too-long",
            format!("A variation holds at most {MAX_VARIATION_MOVES} moves."),
        ));
    }
    let mut v = game_at(game, req.from)?;
    let mut out = Variation {
        size,
        from: req.from,
        moves: Vec::new(),
        boards: Vec::new(),
        to_move: String::new(),
        phase: "playing",
        captures: Both { black: 0, white: 0 },
        illegal: None,
    };
    let push = |v: &Game, out: &mut Variation, color: Color, mv: Move| {
        out.moves.push(Played {
            number: req.from + out.moves.len() + 1,
            color: color.letter().to_string(),
            mv: mv.to_gtp(size),
        });
        out.boards.push(board_rows(v.board()));
    };
    // White's handicap passes are the server's to make, in a variation as in play.
    let handicap_pass = |v: &mut Game, out: &mut Variation| {
        while v.phase() == Phase::Playing && v.handicap_pass_due() {
            if v.play_as(Color::White, Move::Pass).is_err() {
                break;
            }
            push(v, out, Color::White, Move::Pass);
        }
    };
    handicap_pass(&mut v, &mut out);
    for text in &req.moves {
        let mv = Move::from_gtp(text, size, size).map_err(|_| {
            ApiError::unprocessable("bad-point", format!("{text:?} is not a point or a pass"))
        })?;
        let color = v.to_move();
        if let Err(e) = v.play_as(color, mv) {
            out.illegal = Some(Illegal {
                number: req.from + out.moves.len() + 1,
                color: color.letter().to_string(),
                mv: mv.to_gtp(size),
                reason: e.kind.code(),
                message: reason_message(e.kind),
            });
            break;
        }
        push(&v, &mut out, color, mv);
        handicap_pass(&mut v, &mut out);
    }
    out.to_move = view::letter(v.to_move());
    out.phase = v.phase().as_str();
    out.captures = Both {
        black: v.stones_lost(Color::White),
        white: v.stones_lost(Color::Black),
    };
    Ok((out, v))
}

async fn variation(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Json(req): Json<VariationRequest>,
) -> Result<Json<Variation>, ApiError> {
    let copy = state.shown(id).await?.1.game().clone();
    let out = tokio::task::spawn_blocking(move || play_variation(&copy, &req))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))??;
    Ok(Json(out.0))
}

#[derive(Deserialize)]
struct VariationsRequest {
    /// The variations, each from its own move.
    variations: Vec<VariationRequest>,
}

/// The record `sgf` (the game as [`crate::domain::live_game::LiveGame::sgf`] writes it, one
/// line of moves) with each of `variations` as a branch from its move, its moves those the
/// rules accepted, written by `ingo_sgf::write_tree`.
///
/// # Errors
/// As [`play_variation`]; 500 when `sgf` does not read back.
pub fn with_variations(
    sgf: &str,
    game: &Game,
    variations: &[VariationRequest],
) -> Result<String, ApiError> {
    use ingo_sgf::sgf_parse::go::{Move as SgfMove, Point as SgfPoint, Prop};
    use ingo_sgf::sgf_parse::{SgfNode, Text};
    if variations.len() > MAX_VARIATIONS {
        return Err(ApiError::unprocessable(
            "too-many",
            format!("A download holds at most {MAX_VARIATIONS} variations."),
        ));
    }
    let records =
        ingo_sgf::parse(sgf).map_err(|e| ApiError::internal(format!("own record: {e}")))?;
    let record = records
        .first()
        .ok_or_else(|| ApiError::internal("own record holds no game"))?;
    let mut root = record.sgf_root().clone();
    let size = game.board().height();
    for req in variations {
        let (v, _) = play_variation(game, req)?;
        // The branch, built from its last node up.
        let mut branch: Option<SgfNode<Prop>> = None;
        for (i, m) in v.moves.iter().enumerate().rev() {
            let mv = match Move::from_gtp(&m.mv, size, size) {
                Ok(Move::Play(p)) => SgfMove::Move(SgfPoint {
                    x: p.col() as u8,
                    y: p.row() as u8,
                }),
                _ => SgfMove::Pass,
            };
            let mut props = vec![if m.color == "B" {
                Prop::B(mv)
            } else {
                Prop::W(mv)
            }];
            if i == 0 {
                props.push(Prop::C(Text {
                    text: format!("Variation from move {}", v.from),
                }));
            }
            branch = Some(SgfNode::new(props, branch.into_iter().collect(), false));
        }
        let Some(branch) = branch else { continue };
        // The node of move `from` on the game's line (the root holds the setup).
        let mut node = &mut root;
        for _ in 0..v.from {
            node = node
                .children
                .first_mut()
                .ok_or_else(|| ApiError::internal("own record is shorter than the game"))?;
        }
        node.children.push(branch);
    }
    Ok(ingo_sgf::write_tree(&root))
}

async fn variations_sgf(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Json(req): Json<VariationsRequest>,
) -> Result<impl IntoResponse, ApiError> {
    let (sgf, copy) = {
        let (_, g) = state.shown(id).await?;
        (g.sgf(), g.game().clone())
    };
    let text = tokio::task::spawn_blocking(move || with_variations(&sgf, &copy, &req.variations))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))??;
    Ok((
        [(CONTENT_TYPE, "application/x-go-sgf; charset=utf-8")],
        text,
    ))
}

/// A score estimate of a game in progress: the end-of-game judgement of the position as it
/// stands.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The moves played when it was made.
    pub move_count: usize,
    /// The stones it finds dead.
    pub dead: Vec<String>,
    /// The owner of every point after the judgement's fill, rows from the top: `X` Black's
    /// area, `O` White's, `.` shared.
    pub owners: Vec<String>,
    /// The count it finds, with its fill-in breakdown.
    pub score: ScoreView,
}

/// The estimate of `game`: [`ingo_front::judge`], the referee-grade end-of-game judgement that
/// proposes the dead stones at a suspension, on the position as it stands.
pub fn estimate_of(game: &Game) -> Estimate {
    let size = game.board().height();
    let j = ingo_front::judge(game);
    Estimate {
        move_count: game.history().count(),
        dead: j.dead.iter().map(|p| p.to_gtp(size)).collect(),
        owners: owner_rows(&j.filled, &j.dead),
        score: view::score(&j.score, size),
    }
}

async fn estimate(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Estimate>, ApiError> {
    let copy = {
        let (_, g) = state.shown(id).await?;
        if !g.estimate_allowed() {
            return Err(ApiError::forbidden(
                "estimate-off",
                "Score estimates are not allowed in this game.",
            ));
        }
        if g.phase() == Phase::Ended {
            return Err(ApiError::conflict(
                "game-over",
                "The game is over: its result stands, and a counted game shows its count.",
            ));
        }
        g.game().clone()
    };
    // Playouts are CPU work: keep them off the async workers.
    let out = tokio::task::spawn_blocking(move || estimate_of(&copy))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?;
    Ok(Json(out))
}

#[derive(Deserialize)]
struct JudgeRequest {
    /// The SGF text.
    sgf: String,
    /// A rules preset (`ing`, …) to judge under instead of the record's own `RU`.
    rules: Option<String>,
}

/// Judges the first game of an SGF text under its own rules (Ing's when it names none) or
/// `preset`: every position up to the first illegal move, that move with its reason, and the
/// count when every move is legal, as `ingo score` counts the record
/// ([`ingo_front::record`]: the time penalties the record states, the dead stones its `TB`/`TW`
/// agree, else the end-of-game judgement with the neutral points filled in turn).
///
/// # Errors
/// 422 for a text that is not SGF, has no game, a board that is not square of 2 to 19 lines,
/// or setup inside the game; 413 for a text over [`MAX_SGF_BYTES`].
pub fn judge_sgf(text: &str, preset: Option<Preset>) -> Result<Judgement, ApiError> {
    if text.len() > MAX_SGF_BYTES {
        return Err(ApiError::new(
            axum::http::StatusCode::PAYLOAD_TOO_LARGE,
            "too-large",
            format!("A record is at most {MAX_SGF_BYTES} bytes."),
        ));
    }
    let records = ingo_sgf::parse(text).map_err(|e| {
        ApiError::unprocessable("bad-sgf", format!("This is not a game record: {e}"))
    })?;
    let record = records
        .first()
        .ok_or_else(|| ApiError::unprocessable("bad-sgf", "The file holds no game."))?;
    if record.width != record.height || !(2..=19).contains(&record.width) {
        return Err(ApiError::unprocessable(
            "bad-size",
            format!(
                "The board is {}×{}; this page shows square boards of 2 to 19 lines.",
                record.width, record.height
            ),
        ));
    }
    let size = record.width;
    let rules = ingo_front::record::rules_for(record, preset);
    let replay = ingo_sgf::replay(record, rules, ReplayMode::Strict)
        .map_err(|e| ApiError::unprocessable("bad-sgf", e.to_string()))?;
    let mut out = Judgement {
        positions: positions_of(&replay.game)?,
        illegal: replay.illegal.as_ref().map(|il| Illegal {
            number: il.move_number,
            color: il.color.letter().to_string(),
            mv: il.point_gtp.clone(),
            reason: il.reason.code(),
            message: reason_message(il.reason),
        }),
        score: None,
        count_svg: None,
        rules: describe(&rules),
        phase: replay.game.phase().as_str(),
        to_move: view::letter(replay.game.to_move()),
    };
    if replay.illegal.is_none() {
        // The count `ingo score` gives: the time penalties the record states, and its agreed
        // dead stones or else the end-of-game judgement, with the judgement's marks drawn.
        let position = ingo_front::record::position(record, replay);
        let count = ingo_front::record::count(record, &position.game, &[]);
        let title = format!(
            "{} – {}: {}",
            record.info.players.black.as_deref().unwrap_or("Black"),
            record.info.players.white.as_deref().unwrap_or("White"),
            count.score.result_string()
        );
        let (fills, seki) = count.marks();
        out.score = Some(view::score(&count.score, size));
        out.count_svg = Some(
            count_picture(position.game.board(), &count.score, fills, seki, title)
                .with_checks(count.checks())
                .with_winner_turns_on(&count.winner_turns_on(&position.game))
                .with_fill_note(count.fill_note(size))
                .svg(),
        );
    }
    Ok(out)
}

fn describe(rules: &ingo_rules::Rules) -> String {
    format!("{:?}, komi {}", rules.ko, rules.komi)
}

async fn judge(Json(req): Json<JudgeRequest>) -> Result<Json<Judgement>, ApiError> {
    let preset = match req.rules.as_deref() {
        None | Some("") => None,
        Some(r) => Some(
            r.parse::<Preset>()
                .map_err(|e: ingo_rules::ParsePresetError| {
                    ApiError::unprocessable("bad-rules", e.to_string())
                })?,
        ),
    };
    // Replaying a long record is CPU work: keep it off the async workers.
    let out = tokio::task::spawn_blocking(move || judge_sgf(&req.sgf, preset))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))??;
    Ok(Json(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(text: &str) -> serde_json::Value {
        serde_json::to_value(judge_sgf(text, None).expect("a record")).expect("JSON")
    }

    // T1 of docs/rules.md: Black takes the ko at C4, White retakes at B4 at once: a hot stone.
    #[test]
    fn judge_marks_the_hot_stone_retake() {
        let out = judged("(;SZ[5]AB[ba][ab][bc]AW[ca][bb][db][cc]PL[B];B[cb];W[bb])");
        assert_eq!(out["illegal"]["number"], 2);
        assert_eq!(out["illegal"]["reason"], "hot-stone");
        assert!(out["illegal"]["message"]
            .as_str()
            .expect("a message")
            .contains("熱子"));
        // The position before the refused move: the setup and Black's capture.
        assert_eq!(out["boards"].as_array().map(Vec::len), Some(2));
        assert!(out["score"].is_null());
    }

    #[test]
    fn judge_counts_a_legal_record() {
        let out = judged("(;SZ[5]KM[0];B[ab];W[];B[];W[])");
        assert!(out["illegal"].is_null());
        assert_eq!(out["score"]["area"]["black"], 25);
        assert_eq!(out["score"]["winner"], "B");
        assert!(out["count_svg"]
            .as_str()
            .expect("a picture")
            .starts_with("<svg"));
        // Rows from the top: SGF `ab` is A4 on a 5×5 board, in the second row.
        assert_eq!(out["boards"][1][1], "X....");
        assert_eq!(out["moves"][0]["move"], "A4");
    }

    /// The judge page's count picture rings the verdicts to check, as `ingo score --svg` does:
    /// five stones on 9×9, two of them held by the playouts three times in four or less, the
    /// winner turning on `G3` (Black wins by 3.5 with it alive), whose note alone is marked;
    /// and it says that the fill was made one move deep, and why.
    #[test]
    fn judge_rings_the_verdicts_to_check() {
        let text = "(;SZ[9]KM[7.5]RU[Chinese];B[ee];W[cc];B[gg];W[cg];B[gc])";
        let out = judged(text);
        let svg = out["count_svg"].as_str().expect("a picture");
        assert_eq!(svg.matches(r#"class="check""#).count(), 2, "{svg}");
        assert!(svg.contains(ingo_render::CHECKS_KEY));
        let game = game_of(text);
        let records = ingo_sgf::parse(text).expect("a record");
        let count = ingo_front::record::count(&records[0], &game, &[]);
        let g3 = ingo_rules::Point::from_gtp("G3", 9, 9).expect("a point");
        assert_eq!(count.winner_turns_on(&game), vec![g3]);
        assert_eq!(svg.matches("%!</text>").count(), 1, "{svg}");
        assert!(svg.contains(ingo_render::TURNS_KEY));
        // Its 76 dame are too many to read: the fill one move deep is said under the count.
        assert!(
            svg.contains(&format!(
                "{}: the 76 dame A9 B9 C9 D9 E9 F9 G9 H9 … are too many to read together",
                ingo_render::FILL_NOTE
            )),
            "{svg}"
        );
        // A count with nothing to check has no ring: four passes end the game, every stone
        // alive by the rules.
        let out = judged("(;SZ[5]KM[0];B[ab];W[];B[];W[];B[])");
        let svg = out["count_svg"].as_str().expect("a picture");
        assert!(!svg.contains(r#"class="check""#));
        assert!(!svg.contains(r#"class="fill-note""#));
    }

    fn game_of(text: &str) -> Game {
        let records = ingo_sgf::parse(text).expect("a record");
        let rules = ingo_front::record::rules_for(&records[0], None);
        ingo_sgf::replay(&records[0], rules, ReplayMode::Strict)
            .expect("it replays")
            .game
    }

    fn variation_of(game: &Game, from: usize, moves: &[&str]) -> Variation {
        let req = VariationRequest {
            from,
            moves: moves.iter().map(|m| (*m).to_owned()).collect(),
        };
        play_variation(game, &req).expect("a variation").0
    }

    // T1 of docs/rules.md again: Black's C4 takes the ko; White's B4 at once retakes a hot stone.
    const KO: &str = "(;SZ[5]AB[ba][ab][bc]AW[ca][bb][db][cc]PL[B];B[cb])";

    #[test]
    fn a_variation_may_not_retake_a_hot_stone_at_once() {
        let game = game_of(KO);
        let v = variation_of(&game, 1, &["B4", "E1"]);
        assert!(v.moves.is_empty(), "{v:?}");
        let il = v.illegal.expect("refused");
        assert_eq!(
            (il.number, il.color.as_str(), il.mv.as_str()),
            (2, "W", "B4")
        );
        assert_eq!(il.reason, "hot-stone");
        // From the start, Black's capture is played in the variation, then the retake refused.
        let v = variation_of(&game, 0, &["C4", "B4"]);
        assert_eq!(v.moves.len(), 1);
        assert_eq!(v.illegal.as_ref().map(|i| i.reason), Some("hot-stone"));
        assert_eq!(v.captures.black, 1);
        // After one other move (a pass included) the retake is allowed.
        let v = variation_of(&game, 1, &["pass", "E1", "B4"]);
        assert!(v.illegal.is_none(), "{v:?}");
        assert_eq!(v.moves.len(), 3);
        assert_eq!(v.moves[2].number, 4);
        assert_eq!(v.boards[2][1], "XO.O.", "White's B4 took back Black's C4");
        assert_eq!(v.to_move, "B");
    }

    #[test]
    fn a_variation_may_not_play_a_single_stone_suicide() {
        let game = game_of("(;SZ[5]AB[ba][ab]PL[W])");
        let v = variation_of(&game, 0, &["A5"]);
        assert_eq!(v.illegal.map(|i| i.reason), Some("suicide"));
        let e = play_variation(
            &game,
            &VariationRequest {
                from: 1,
                moves: vec![],
            },
        )
        .expect_err("past the last move");
        assert_eq!(e.reason, "bad-move-number");
        let e = play_variation(
            &game,
            &VariationRequest {
                from: 0,
                moves: vec!["Z9".into()],
            },
        )
        .expect_err("not a point");
        assert_eq!(e.reason, "bad-point");
    }

    #[test]
    fn variations_are_written_as_branches_of_the_game() {
        // The ko, then White E5 and Black A1: the variations leave the game's line.
        let game = game_of("(;SZ[5]AB[ba][ab][bc]AW[ca][bb][db][cc]PL[B];B[cb];W[ea];B[ae])");
        let sgf = ingo_sgf::write_game(&game, &ingo_sgf::WriteInfo::default());
        let reqs = [
            VariationRequest {
                from: 1,
                moves: vec!["pass".into(), "E1".into(), "B4".into()],
            },
            VariationRequest {
                from: 0,
                moves: vec!["E5".into()],
            },
        ];
        let text = with_variations(&sgf, &game, &reqs).expect("written");
        let records = ingo_sgf::parse(&text).expect("it reads back");
        let root = records[0].sgf_root();
        // The root: the game's move 1 and the variation from the start.
        assert_eq!(root.children.len(), 2, "{text}");
        let after_one = &root.children[0];
        assert_eq!(after_one.children.len(), 2, "{text}");
        let v = &after_one.children[1];
        assert_eq!(
            v.get_property("W").map(ToString::to_string),
            Some("W[]".into())
        );
        assert!(text.contains("C[Variation from move 1]"), "{text}");
        assert!(text.contains(";B[ee]") && text.contains(";B[ea]"), "{text}");
        assert!(text.contains(";W[bb]"), "{text}");
        // The game's own line is the first branch: replayed, it is the game.
        let line =
            ingo_sgf::replay(&records[0], *game.rules(), ReplayMode::Strict).expect("replays");
        assert_eq!(line.game.board(), game.board());
    }

    #[test]
    fn an_estimate_judges_the_position_as_it_stands() {
        let game = game_of("(;SZ[5]KM[0];B[cc])");
        let e = estimate_of(&game);
        assert_eq!(e.move_count, 1);
        assert_eq!(e.owners, vec!["XXXXX"; 5]);
        assert_eq!(e.score.winner, "B");
    }

    #[test]
    fn judge_refuses_what_is_not_a_record() {
        let e = judge_sgf("hello", None).expect_err("not a record");
        assert_eq!((e.status.as_u16(), e.reason), (422, "bad-sgf"));
        let e = judge_sgf("(;SZ[25])", None).expect_err("too large a board");
        assert_eq!(e.reason, "bad-size");
    }
}
