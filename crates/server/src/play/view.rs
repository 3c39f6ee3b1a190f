//! How a game is shown: the types of the game's state, clocks, sides and count, each
//! deriving `Serialize`, built from a [`LiveGame`] at a moment of the server's clock. The HTTP
//! answers and the WebSocket events carry them as they are.

use std::time::Duration;

use ingo_clock::{Clock, TimeControl};
use ingo_rules::{Board, ByColor, Color, Owner, Phase, Point, Score};
use serde::Serialize;

use crate::domain::live_game::LiveGame;
use crate::domain::team::{Player, TeamKind};

/// Something for each colour, as the API shows it: `{"black": …, "white": …}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Both<T> {
    /// Black's.
    pub black: T,
    /// White's.
    pub white: T,
}

impl<T: Clone> From<&ByColor<T>> for Both<T> {
    fn from(b: &ByColor<T>) -> Both<T> {
        Both {
            black: b.black.clone(),
            white: b.white.clone(),
        }
    }
}

/// A colour's letter, `B` or `W`.
pub fn letter(c: Color) -> String {
    c.letter().to_string()
}

/// A player: `{"id", "name", "rank"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    /// User id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Declared rank.
    pub rank: String,
}

impl From<&Player> for PlayerView {
    fn from(p: &Player) -> PlayerView {
        PlayerView {
            id: p.id,
            name: p.name.clone(),
            rank: p.rank.clone(),
        }
    }
}

/// One side's clock.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClockView {
    /// Whether it runs now.
    pub running: bool,
    /// Main time left, in ms.
    pub main_ms: Option<u64>,
    /// Overtime periods or stones left.
    pub periods_or_stones: Option<u32>,
    /// Whether the side is in overtime.
    pub in_overtime: bool,
    /// Ing penalty points as of the side's last finished move (a page running the clock
    /// counts those of the move in progress from `main_ms` and `control`).
    pub penalty_points: u32,
    /// The side's time control, for a page to run the clock by itself from this state.
    pub control: ControlView,
}

/// A time control's parameters (`ingo_clock::TimeControl`), in ms; those a kind does not have
/// are `null`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ControlView {
    /// `none`, `absolute`, `byoyomi`, `canadian`, `fischer`, `ing-pp` or `ing-rs`.
    pub kind: &'static str,
    /// Main (basic) time; `null` when untimed.
    pub main_ms: Option<u64>,
    /// Byo-yomi periods (`byoyomi`, `ing-rs`).
    pub periods: Option<u32>,
    /// Moves to make in each period (`canadian`).
    pub stones: Option<u32>,
    /// One overtime period (`byoyomi`, `ing-rs`, `canadian`).
    pub period_ms: Option<u64>,
    /// Added after each move (`fischer`).
    pub increment_ms: Option<u64>,
    /// The most increments raise the time to (`fischer`, when capped).
    pub max_ms: Option<u64>,
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl From<TimeControl> for ControlView {
    fn from(tc: TimeControl) -> ControlView {
        let mut v = ControlView {
            kind: "none",
            main_ms: tc.main_time().map(ms),
            periods: None,
            stones: None,
            period_ms: None,
            increment_ms: None,
            max_ms: None,
        };
        match tc {
            TimeControl::None => {}
            TimeControl::Absolute { .. } => v.kind = "absolute",
            TimeControl::IngPenalty { .. } => v.kind = "ing-pp",
            TimeControl::Japanese {
                periods, period, ..
            }
            | TimeControl::IngByoYomi {
                periods, period, ..
            } => {
                v.kind = if matches!(tc, TimeControl::Japanese { .. }) {
                    "byoyomi"
                } else {
                    "ing-rs"
                };
                v.periods = Some(periods);
                v.period_ms = Some(ms(period));
            }
            TimeControl::Canadian { stones, period, .. } => {
                v.kind = "canadian";
                v.stones = Some(stones);
                v.period_ms = Some(ms(period));
            }
            TimeControl::Fischer { increment, max, .. } => {
                v.kind = "fischer";
                v.increment_ms = Some(ms(increment));
                v.max_ms = max.map(ms);
            }
        }
        v
    }
}

/// Both clocks and the time control.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClocksView {
    /// Black's clock.
    pub black: ClockView,
    /// White's clock.
    pub white: ClockView,
    /// The time control, as stored.
    pub time_control: String,
}

/// A move as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveView {
    /// Its number, 1 for the first.
    pub number: i64,
    /// `B` or `W`.
    pub color: String,
    /// The GTP vertex or `pass`.
    #[serde(rename = "move")]
    pub mv: String,
    /// When it was committed, in ms since the Unix epoch.
    pub at_ms: i64,
}

/// The dead stones proposed during a suspension, and who accepted them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeadStonesView {
    /// Every stone proposed dead.
    pub proposal: Vec<String>,
    /// Who accepted.
    pub accepted: Both<bool>,
    /// While play is suspended, the owner of every point when the proposed stones are taken
    /// off, as the count finds it (`ingo_rules::owners`): rows from the top, `X` Black's area,
    /// `O` White's, `.` a shared point (分空); `null` otherwise.
    pub owners: Option<Vec<String>>,
    /// While play is suspended, the count the proposal gives if both accept it (the same
    /// `Game::count` that counts the game once they do); `null` otherwise.
    pub count: Option<ScoreView>,
    /// While play is suspended, the verdicts of the server's judgement a player should check
    /// before accepting (`ingo_player::endgame::Judgement::checks`): each doubtful string's
    /// first stone, how it was decided and whether the winner turns on it; empty otherwise.
    pub checks: Vec<CheckView>,
}

/// A verdict to check: a string's first stone and its note (`54%`: the share of the playouts
/// in which it stayed alive, between a quarter and three quarters; `R`: read in a capture
/// race; `A`: a race at one liberty each; `S`: dead by the shape of its eye space; `G`: dead by
/// a search of its group's life; `E`: a large eye space with few stones inside; `F`: taken in
/// the fill of the last neutral points; `K`: took a ko last), and whether the winner turns on
/// it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckView {
    /// The string's first stone.
    pub point: String,
    /// How its verdict was decided.
    pub note: String,
    /// Whether the winner turns on it: that verdict alone, turned the other way, makes the
    /// count name the other winner (`ingo_player::endgame::Judgement::winner_turns_on`).
    pub turns_winner: bool,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResultView {
    /// `B+R`, `W+3.5`…
    pub result: String,
    /// `resignation`, `time`, `passes`, `agreement`, `engine-…`.
    pub reason: Option<String>,
    /// The count, when it was counted.
    pub score: Option<ScoreView>,
}

/// The sides of a pair or consultation game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TeamView {
    /// `pair` or `consultation`.
    pub kind: &'static str,
    /// How a consultation side agrees (`all`, `majority`, `any`); `null` in pair go.
    pub agreement: Option<&'static str>,
    /// Black's members in seat order.
    pub black: Vec<PlayerView>,
    /// White's members in seat order.
    pub white: Vec<PlayerView>,
    /// In pair go, the member whose turn it is.
    pub to_move: Option<PlayerView>,
}

/// The whole state of a game, as `GET /api/games/{id}` and a WebSocket's first message give it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: i64,
    /// Board size.
    pub size: usize,
    /// The rules preset.
    pub rules: String,
    /// Komi, in points.
    pub komi: f64,
    /// White's handicap passes.
    pub handicap_passes: i64,
    /// Who wins a count whose margin is exactly zero in this game, `B` or `W` (the rules' tie
    /// rule for an even or a handicap game).
    pub tie_winner: String,
    /// Black (a team's first seat).
    pub black: PlayerView,
    /// White (a team's first seat).
    pub white: PlayerView,
    /// Every move.
    pub moves: Vec<MoveView>,
    /// How many.
    pub move_count: usize,
    /// `B` or `W`.
    pub to_move: String,
    /// `playing`, `suspended` or `ended`.
    pub phase: &'static str,
    /// The board's rows from the top: `X` Black, `O` White, `.` empty.
    pub board: Vec<String>,
    /// The stones each colour has captured.
    pub captures: Both<usize>,
    /// Both clocks.
    pub clocks: ClocksView,
    /// The dead-stone step.
    pub dead_stones: DeadStonesView,
    /// The result, once ended.
    pub result: Option<ResultView>,
    /// When the game started.
    pub started_ms: i64,
    /// The sides of a team game.
    pub team: Option<TeamView>,
    /// A consultation side's own proposals, for its members only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proposals: Option<ProposalsView>,
    /// Whether a score estimate may be asked for while the game goes on
    /// (`GET /api/games/{id}/estimate`).
    pub estimate_allowed: bool,
    /// A player's standing request to take back their last move, for the opponent to grant
    /// or decline.
    pub undo_request: Option<UndoView>,
    /// Whether a move may be taken back by agreement (not in an event's game: 悔著 is a
    /// forfeit there).
    pub undo_allowed: bool,
}

/// A request to take back a move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UndoView {
    /// The user who asks (their side's colour, `B` or `W`).
    pub by: String,
    /// The move to take back.
    pub number: i64,
}

/// One proposed move and the members who propose it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Proposal {
    /// The vertex, `pass` or `resign`.
    #[serde(rename = "move")]
    pub mv: String,
    /// The members who propose it, first proposed first.
    pub by: Vec<String>,
}

/// A side's current proposals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProposalsView {
    /// The side, `B` or `W`.
    pub color: String,
    /// How it agrees.
    pub agreement: &'static str,
    /// The votes a move needs.
    pub needed: usize,
    /// The side's members.
    pub members: usize,
    /// The move number proposals are for.
    pub number: i64,
    /// Each proposed move, first proposed first.
    pub proposals: Vec<Proposal>,
}

/// The stones move `number` of `g` removed, as GTP points.
pub fn removed(g: &LiveGame, number: i64) -> Vec<String> {
    let size = g.size();
    g.removed_by(number)
        .iter()
        .map(|p| p.to_gtp(size))
        .collect()
}

/// A board's rows from the top (`Point::new` counts rows from the top).
pub fn board_rows(board: &Board) -> Vec<String> {
    (0..board.height())
        .map(|row| {
            (0..board.width())
                .map(
                    |col| match Point::new(col, row).and_then(|p| board.color_at(p)) {
                        Some(Color::Black) => 'X',
                        Some(Color::White) => 'O',
                        None => '.',
                    },
                )
                .collect()
        })
        .collect()
}

/// The owner of every point of `board` with `dead` taken off, as the count finds it: rows from
/// the top, `X` Black's area, `O` White's, `.` a shared point.
pub fn owner_rows(board: &Board, dead: &[Point]) -> Vec<String> {
    let owners = ingo_rules::owners(board, dead);
    let w = board.width();
    owners
        .chunks(w.max(1))
        .map(|row| {
            row.iter()
                .map(|o| match o {
                    Owner::Black => 'X',
                    Owner::White => 'O',
                    Owner::Shared => '.',
                })
                .collect()
        })
        .collect()
}

/// The dead-stone step of `g`: the proposal, who accepted it, and while play is suspended
/// the owners and the count it gives.
pub fn dead_stones(g: &LiveGame) -> DeadStonesView {
    let s = g.state();
    let size = g.size();
    let proposal: Vec<String> = s
        .dead_proposal
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    let (owners, count) = if g.phase() == Phase::Suspended {
        let dead: Vec<Point> = proposal
            .iter()
            .filter_map(|p| Point::from_gtp(p, size, size).ok())
            .collect();
        let game = g.game();
        (
            Some(owner_rows(game.board(), &dead)),
            Some(score(&game.count(&dead), size)),
        )
    } else {
        (None, None)
    };
    DeadStonesView {
        proposal,
        accepted: Both {
            black: s.accepted_black,
            white: s.accepted_white,
        },
        owners,
        count,
        checks: g
            .dead_checks()
            .into_iter()
            .map(|c| CheckView {
                point: c.point.to_gtp(size),
                note: c.note,
                turns_winner: c.turns_winner,
            })
            .collect(),
    }
}

/// Side `c`'s clock of `clock` (none for an untimed game) at the clock's time `t`.
pub fn clock_view(clock: Option<&Clock>, c: Color, t: Duration) -> ClockView {
    let left = clock.and_then(|k| k.time_left(c, t));
    ClockView {
        running: clock.is_some_and(|k| k.running() == Some(c)),
        main_ms: left.map(|l| ms(l.main)),
        periods_or_stones: left.map(|l| l.periods_or_stones),
        in_overtime: left.is_some_and(|l| l.in_overtime),
        penalty_points: clock.map_or(0, |k| k.penalty_points(c)),
        control: clock.map_or(TimeControl::None, |k| k.control(c)).into(),
    }
}

/// Both clocks of `g` at wall time `now_ms`.
pub fn clocks(g: &LiveGame, now_ms: i64) -> ClocksView {
    let t = g.now(now_ms);
    let clock = g.table().clock();
    ClocksView {
        black: clock_view(clock, Color::Black, t),
        white: clock_view(clock, Color::White, t),
        time_control: g.row().time_control.clone(),
    }
}

/// In a team game, the member whose turn it is (`None` once the game is over, and in
/// consultation, where any member may move).
pub fn team_to_move(g: &LiveGame) -> Option<PlayerView> {
    if g.phase() == Phase::Ended {
        return None;
    }
    g.member_to_move(g.to_move()).map(PlayerView::from)
}

/// The sides of a team game (`None` for one player a side): the kind, each side's members in
/// seat order, and in pair go the member whose turn it is.
pub fn team(g: &LiveGame) -> Option<TeamView> {
    let team = g.team()?;
    let list = |ps: &[Player]| ps.iter().map(PlayerView::from).collect();
    Some(TeamView {
        kind: team.kind.name(),
        agreement: match team.kind {
            TeamKind::Consultation => Some(team.consensus.name()),
            TeamKind::Pair => None,
        },
        black: list(&team.members.black),
        white: list(&team.members.white),
        to_move: team_to_move(g),
    })
}

/// The whole state of `g` at wall time `now_ms`.
pub fn game(g: &LiveGame, now_ms: i64) -> GameView {
    let game = g.game();
    let s = g.state();
    GameView {
        id: g.id(),
        size: g.size(),
        rules: g.row().preset.clone(),
        komi: game.rules().komi.as_f64(),
        handicap_passes: g.row().handicap_passes,
        tie_winner: letter(if game.is_handicap() {
            game.rules().tie_handicap
        } else {
            game.rules().tie_even
        }),
        black: PlayerView::from(&g.players().black),
        white: PlayerView::from(&g.players().white),
        moves: g
            .moves()
            .iter()
            .map(|m| MoveView {
                number: m.move_number,
                color: m.color.clone(),
                mv: m.mv.clone(),
                at_ms: m.at_ms,
            })
            .collect(),
        move_count: g.moves().len(),
        to_move: letter(g.to_move()),
        phase: g.phase().as_str(),
        board: board_rows(game.board()),
        captures: (&g.captures()).into(),
        clocks: clocks(g, now_ms),
        dead_stones: dead_stones(g),
        result: s.result.as_ref().map(|r| ResultView {
            result: r.clone(),
            reason: s.end_reason.clone(),
            score: g.table().score().map(|sc| score(&sc, g.size())),
        }),
        started_ms: g.row().started_ms,
        team: team(g),
        proposals: None,
        estimate_allowed: g.estimate_allowed(),
        undo_allowed: g.event().is_none(),
        undo_request: g.undo_request().and_then(|u| {
            Some(UndoView {
                by: letter(g.color_of(u.user_id)?),
                number: u.move_number,
            })
        }),
    }
}

/// The fill-in breakdown of a count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FillInView {
    /// The stones each side has to fill with.
    pub supply: usize,
    /// The points each side filled.
    pub filled: Both<usize>,
    /// The spaces left to each.
    pub spaces_left: Both<usize>,
    /// The stones left to each.
    pub stones_left: Both<usize>,
    /// Komi in stones.
    pub compensation_stones: f64,
    /// Penalty points in stones.
    pub penalty_stones: Both<f64>,
    /// Black's net.
    pub black_net: f64,
    /// White's net.
    pub white_net: f64,
}

/// A count, with its fill-in breakdown.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreView {
    /// `B` or `W`.
    pub winner: String,
    /// The margin in points.
    pub margin: f64,
    /// `B+3.5`…
    pub result: String,
    /// Each side's area.
    pub area: Both<usize>,
    /// Each side's stones.
    pub stones: Both<usize>,
    /// Each side's spaces.
    pub spaces: Both<usize>,
    /// Shared points.
    pub shared: usize,
    /// Komi.
    pub komi: f64,
    /// Penalty points.
    pub penalty_points: Both<i32>,
    /// The stones counted dead.
    pub dead: Vec<String>,
    /// The fill-in breakdown.
    pub fill_in: FillInView,
}

/// A count as the API shows it.
pub fn score(s: &Score, size: usize) -> ScoreView {
    let f = &s.fill_in;
    ScoreView {
        winner: letter(s.winner),
        margin: s.margin(),
        result: s.result_string(),
        area: (&s.area).into(),
        stones: (&s.stones).into(),
        spaces: (&s.spaces).into(),
        shared: s.shared,
        komi: s.komi.as_f64(),
        penalty_points: (&s.penalties).into(),
        dead: s.dead.iter().map(|p| p.to_gtp(size)).collect(),
        fill_in: FillInView {
            supply: f.supply,
            filled: (&f.filled).into(),
            spaces_left: (&f.spaces_left).into(),
            stones_left: (&f.stones_left).into(),
            compensation_stones: f.compensation_stones,
            penalty_stones: (&f.penalty_stones).into(),
            black_net: f.black_net,
            white_net: f.white_net,
        },
    }
}
