//! What the web board asks of the server beyond the game API: every position of a
//! game for the review page, the count drawn by `ingo-render` exactly as `ingo score --svg`
//! draws it, and the judgement of an uploaded SGF record. The rules are decided here, by
//! `ingo-rules` through `ingo-sgf`; the browser only shows the answers.

use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use ingo_render::count_picture;
use ingo_rules::{Game, Preset};
use ingo_sgf::ReplayMode;
use serde::{Deserialize, Serialize};

use crate::domain::error::reason_message;
use crate::http::error::ApiError;
use crate::play::view::{self, board_rows, ScoreView};
use crate::AppState;

/// The largest record `POST /api/judge` reads, in bytes.
pub const MAX_SGF_BYTES: usize = 1 << 20;

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games/{id}/positions", get(positions))
        .route("/api/games/{id}/count.svg", get(count_svg))
        .route("/api/judge", post(judge))
}

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
    let game = state.game(id).await?;
    let g = game.lock().await;
    Ok(Json(positions_of(g.game())?))
}

async fn count_svg(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<impl IntoResponse, ApiError> {
    let game = state.game(id).await?;
    let g = game.lock().await;
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
        out.count_svg =
            Some(count_picture(position.game.board(), &count.score, fills, seki, title).svg());
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

    #[test]
    fn judge_refuses_what_is_not_a_record() {
        let e = judge_sgf("hello", None).expect_err("not a record");
        assert_eq!((e.status.as_u16(), e.reason), (422, "bad-sgf"));
        let e = judge_sgf("(;SZ[25])", None).expect_err("too large a board");
        assert_eq!(e.reason, "bad-size");
    }
}
