//! Single games with fake engines (`tests/engines/fake_engine.py`): normal play, disputes,
//! komi fallback, handicap by passes, penalty points, and every failure policy.

mod common;

use std::{fs, time::Duration};

use common::{config, fake};
use ingo_referee::{
    play_game, run_match, EndKind, EngineId, FailureAction, FailureKind, FailurePolicy, GameReport,
    MatchConfig, NoProgress, Outcome, VoidExhausted,
};
use ingo_rules::{Color, GameEnd, Move, Preset};
use ingo_sgf::{parse, replay, ReplayMode};

fn play(config: &MatchConfig) -> GameReport {
    play_game(&config.game_spec(1, 0), &mut |_| {}).expect("the game runs")
}

/// The SGF reads back and replays into the same final position and count.
fn check_sgf(report: &GameReport) -> String {
    let text = report.sgf();
    let record = &parse(&text).expect("the SGF parses")[0];
    let replayed =
        replay(record, record.rules_or(Preset::Ing), ReplayMode::Strict).expect("it replays");
    assert_eq!(replayed.game.board(), report.game.board());
    assert_eq!(
        record.info.result.as_deref(),
        Some(report.result_string().as_str())
    );
    text
}

#[test]
fn random_engines_play_to_a_count() {
    let c = config(
        "--seed 1 --max-moves 8",
        "--seed 2 --max-moves 8",
        5,
        "random_count",
    );
    let r = play(&c);
    assert_eq!(r.outcome, Outcome::Decided);
    assert!(r.failure.is_none(), "{:?}", r.failure);
    // Both engines answer `final_status_list dead` with nothing: agreed at the first suspension.
    assert!(matches!(r.game.end(), Some(GameEnd::Agreement(d)) if d.is_empty()));
    let score = r.game.score().expect("counted");
    assert_eq!(r.result_string(), score.result_string());
    assert_eq!(r.names.black, "Fake 1.0");
    let text = check_sgf(&r);
    assert!(text.contains("PB[Fake 1.0]") && text.contains("RU[GOE]") && text.contains("KM[8]"));
}

#[test]
fn a_dispute_resumes_play_with_cleanup_until_four_passes() {
    let dir = common::out_dir("dispute");
    let (lb, lw) = (dir.join("black.log"), dir.join("white.log"));
    let c = config(
        &format!(
            "--seed 3 --max-moves 4 --dead C3 --cleanup --log '{}'",
            lb.display()
        ),
        &format!(
            "--seed 4 --max-moves 4 --no-final-status --log '{}'",
            lw.display()
        ),
        5,
        "dispute_out",
    );
    let r = play(&c);
    assert_eq!(r.outcome, Outcome::Decided);
    assert_eq!(r.game.end(), Some(&GameEnd::Passes));
    assert_eq!(r.game.consecutive_passes(), 4);
    let black_log = fs::read_to_string(&lb).expect("log");
    let white_log = fs::read_to_string(&lw).expect("log");
    // Black knows kgs-genmove_cleanup and is asked with it after the dispute; White is not.
    assert!(black_log.contains("kgs-genmove_cleanup b"), "{black_log}");
    assert!(!white_log.contains("kgs-genmove_cleanup w"), "{white_log}");
    assert!(r.notes.iter().any(|n| n.contains("disputed, play resumes")));
    check_sgf(&r);
}

#[test]
fn the_referees_judgement_decides_when_neither_engine_names_the_dead() {
    let c = config(
        "--seed 1 --max-moves 8 --no-final-status",
        "--seed 2 --max-moves 8 --no-final-status",
        5,
        "judged_out",
    );
    let r = play(&c);
    assert_eq!(r.outcome, Outcome::Decided);
    // Neither engine answers `final_status_list dead`: the referee's own judgement
    // (`judge_end`, as `ingo gtp` answers it) ends the game at the first suspension, instead
    // of play resuming to four passes with every stone alive.
    let Some(GameEnd::Agreement(dead)) = r.game.end() else {
        panic!("ended by the referee's judgement: {:?}", r.game.end());
    };
    let mut judged =
        ingo_player::endgame::judge_end(&r.game, &ingo_player::endgame::EndgameConfig::default())
            .dead;
    judged.sort();
    let mut dead = dead.clone();
    dead.sort();
    assert_eq!(dead, judged);
    assert!(
        r.notes
            .iter()
            .any(|n| n.contains("the referee's judgement decides")),
        "{:?}",
        r.notes
    );
    check_sgf(&r);
}

#[test]
fn a_refused_komi_falls_back_to_half_a_point_less() {
    let dir = common::out_dir("komi");
    let log = dir.join("white.log");
    let c = config(
        "--seed 5 --max-moves 3",
        &format!(
            "--seed 6 --max-moves 3 --refuse-int-komi --log '{}'",
            log.display()
        ),
        5,
        "komi_out",
    );
    let r = play(&c);
    assert_eq!(r.outcome, Outcome::Decided);
    let log = fs::read_to_string(&log).expect("log");
    assert!(
        log.contains("komi 8\n") && log.contains("komi 7.5\n"),
        "{log}"
    );
    assert!(r.notes.iter().any(|n| n.contains("refused komi 8")));
    // The referee counts with 8 all the same.
    assert_eq!(r.game.rules().komi.to_string(), "8");
}

#[test]
fn ranks_give_a_handicap_of_white_passes_played_by_the_referee() {
    let dir = common::out_dir("handicap");
    let log = dir.join("white.log");
    let mut c = config(
        "--seed 7 --max-moves 4",
        &format!("--seed 8 --max-moves 4 --log '{}'", log.display()),
        7,
        "handicap_out",
    );
    // 5段 against 1段: 16 points = 2先, so one White pass and no komi; the weaker takes Black.
    c.a.rank = Some("1d".parse().expect("rank"));
    c.b.rank = Some("5d".parse().expect("rank"));
    let a = c.assignment(2);
    assert_eq!(
        (a.black, a.handicap_passes, a.komi.to_string().as_str()),
        (EngineId::A, 1, "0")
    );
    let r = play(&c);
    assert_eq!(r.outcome, Outcome::Decided);
    let history: Vec<_> = r.game.history().collect();
    assert!(matches!(history[0].mv, Move::Play(_)));
    assert_eq!(
        (history[1].color, history[1].mv),
        (Color::White, Move::Pass)
    );
    let log = fs::read_to_string(&log).expect("log");
    let pass = log
        .find("play w pass")
        .expect("White is told of its handicap pass");
    let first_genmove = log.find("genmove w").expect("White plays later");
    assert!(pass < first_genmove, "{log}");
    let text = check_sgf(&r);
    assert!(text.contains("HA[2]") && text.contains("KM[0]") && text.contains("BR[1d]"));
}

#[test]
fn penalty_points_go_into_the_count_and_the_sgf() {
    // Black needs 1.25 s a move under 6 s of basic time with penalty-point overtime: its five
    // moves (four stones and a pass) take 6.25 s, past the basic time (2 points) but not past
    // 7 s (4 points).
    let log = common::out_dir("penalty_log").join("white.log");
    let mut c = config(
        "--mode list --moves B1,B2,B3,B4 --delay 1.25",
        &format!(
            "--mode list --moves D1,D2,D3,D4 --kgs-time --log '{}'",
            log.display()
        ),
        5,
        "penalty",
    );
    c.time = "ing-pp:6s".parse().expect("time control");
    let summary = run_match(&c, &mut NoProgress).expect("the match runs");
    let g = &summary.games[0];
    assert_eq!((g.black_penalty, g.white_penalty), (2, 0), "{g:?}");
    // Columns A-B Black's (10), C shared, D-E White's (10): 0 − komi 8 − 2 penalty points.
    assert_eq!(g.result, "W+10");
    assert_eq!(g.margin, Some(-10.0));
    assert_eq!(summary.a.penalty_points, 2);
    let text = fs::read_to_string(c.out_dir.join("game-0001.sgf")).expect("the SGF");
    assert!(text.contains("BP[2]"), "{text}");
    assert!(text.contains("RE[W+10]"));
    assert!(text.contains("TM[6]") && text.contains("OT[Ing PP"));
    assert!(text.contains("BL["));
    assert!(text.contains("2 penalty points"));
    let record = &parse(&text).expect("parses")[0];
    assert_eq!(record.penalties.black, 2);
    let replayed = replay(record, Preset::Ing.rules(), ReplayMode::Strict).expect("replays");
    assert_eq!(replayed.game.penalties().black, 2);
    // White was told the time both ways, and how much it had left before each move.
    let log = fs::read_to_string(&log).expect("log");
    assert!(log.contains("time_settings 6 0 0\n"), "{log}");
    assert!(log.contains("kgs-time_settings absolute 6\n"), "{log}");
    assert!(log.contains("time_left w 6 0\n"), "{log}");
}

#[test]
fn an_illegal_move_forfeits() {
    let c = config("--mode list --moves C3,C3", "--mode pass", 5, "illegal");
    let r = play(&c);
    assert_eq!(r.outcome, Outcome::Decided);
    let f = r.failure.clone().expect("a failure");
    assert_eq!(
        (f.kind, f.code, f.color),
        (FailureKind::Illegal, "occupied", Color::Black)
    );
    assert_eq!(r.result_string(), "W+F");
    let text = check_sgf(&r);
    assert!(
        text.contains("RE[W+F]") && text.contains("occupied"),
        "{text}"
    );
}

#[test]
fn an_illegal_move_voids_then_is_excluded() {
    let mut c = config(
        "--mode list --moves C3,C3",
        "--mode pass",
        5,
        "illegal_void",
    );
    c.failure.on_illegal = FailureAction::Void { max_replays: 1 };
    c.failure.when_exhausted = VoidExhausted::Exclude;
    let s = run_match(&c, &mut NoProgress).expect("the match runs");
    assert!(c.out_dir.join("game-0001-void-1.sgf").is_file());
    let text = fs::read_to_string(c.out_dir.join("game-0001.sgf")).expect("final SGF");
    assert!(text.contains("RE[Void]"), "{text}");
    assert_eq!((s.finished, s.counted, s.ends.void), (1, 0, 1));
    let g = &s.games[0];
    assert_eq!(
        (g.end, g.voided_before, g.failed),
        (EndKind::Void, 1, Some(EngineId::A))
    );
    assert_eq!(s.a_win_rate, None);
}

#[test]
fn a_crash_forfeits() {
    let c = config(
        "--seed 9 --max-moves 6",
        "--mode crash --after 2",
        5,
        "crash",
    );
    let r = play(&c);
    let f = r.failure.clone().expect("a failure");
    assert_eq!(
        (f.kind, f.code, f.color),
        (FailureKind::Crash, "crash", Color::White)
    );
    assert_eq!(r.result_string(), "B+F");
    assert!(f.detail.contains("crashing on purpose"), "{}", f.detail);
    check_sgf(&r);
}

#[test]
fn a_crash_voids_twice_then_forfeits() {
    let mut c = config(
        "--seed 9 --max-moves 6",
        "--mode crash --after 1",
        5,
        "crash_void",
    );
    c.failure = FailurePolicy::all(FailureAction::Void { max_replays: 2 });
    let mut voided = Vec::new();
    struct P<'a>(&'a mut Vec<(u32, u32)>);
    impl ingo_referee::Progress for P<'_> {
        fn game_voided(&mut self, index: u32, attempt: u32, _reason: &str) {
            self.0.push((index, attempt));
        }
    }
    let s = run_match(&c, &mut P(&mut voided)).expect("the match runs");
    assert_eq!(voided, [(1, 1), (1, 2)]);
    assert!(c.out_dir.join("game-0001-void-1.sgf").is_file());
    assert!(c.out_dir.join("game-0001-void-2.sgf").is_file());
    let g = &s.games[0];
    assert_eq!(
        (g.result.as_str(), g.end, g.voided_before),
        ("B+F", EndKind::Forfeit, 2)
    );
    assert_eq!((s.a.wins, s.b.forfeits), (1, 1));
}

#[test]
fn a_hang_past_the_deadline_loses_on_time_and_the_engine_is_killed() {
    let mut c = config("--mode sleep --after 1", "--seed 10", 5, "timeout");
    c.time = "absolute:1s".parse().expect("time control");
    let started = std::time::Instant::now();
    let r = play(&c);
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
    let f = r.failure.clone().expect("a failure");
    assert_eq!(
        (f.kind, f.code, f.color),
        (FailureKind::Timeout, "timeout", Color::Black)
    );
    assert_eq!(r.game.end(), Some(&GameEnd::Time(Color::Black)));
    assert_eq!(r.result_string(), "W+T");
    check_sgf(&r);
}

#[test]
fn a_hang_can_void_the_game_instead() {
    let mut c = config("--mode sleep --after 1", "--seed 10", 5, "timeout_void");
    c.time = "absolute:1s".parse().expect("time control");
    c.failure.on_timeout = FailureAction::Void { max_replays: 0 };
    c.failure.when_exhausted = VoidExhausted::Exclude;
    let r = play(&c);
    assert_eq!(r.outcome, Outcome::Void { replay: false });
    assert_eq!(r.result_string(), "Void");
    assert!(r.sgf().contains("RE[Void]"));
}

#[test]
fn a_late_answer_within_the_grace_is_a_plain_loss_on_time_under_any_policy() {
    let mut c = config(
        "--mode list --moves C3 --delay 1.4",
        "--mode pass",
        5,
        "late",
    );
    c.time = "absolute:1s".parse().expect("time control");
    c.timeouts.grace = Duration::from_secs(3);
    c.failure = FailurePolicy::all(FailureAction::Void { max_replays: 5 });
    let r = play(&c);
    assert_eq!(r.outcome, Outcome::Decided);
    assert!(r.failure.is_none());
    assert_eq!(r.result_string(), "W+T");
}

#[test]
fn garbage_forfeits() {
    let c = config("--seed 11", "--mode garbage --after 1", 5, "garbage");
    let r = play(&c);
    let f = r.failure.clone().expect("a failure");
    assert_eq!((f.kind, f.code), (FailureKind::Garbage, "garbage"));
    assert_eq!(r.result_string(), "B+F");
}

#[test]
fn a_vertex_off_the_board_is_garbage() {
    let c = config("--seed 12", "--mode badvertex", 5, "badvertex");
    let r = play(&c);
    let f = r.failure.clone().expect("a failure");
    assert_eq!((f.kind, f.code), (FailureKind::Garbage, "bad-vertex"));
    assert_eq!(r.result_string(), "B+F");
}

#[test]
fn resignation_ends_the_game() {
    let c = config("--seed 13", "--mode resign --after 2", 5, "resign");
    let r = play(&c);
    assert!(r.failure.is_none());
    assert_eq!(r.game.end(), Some(&GameEnd::Resignation(Color::White)));
    assert_eq!(r.result_string(), "B+R");
    check_sgf(&r);
}

#[test]
fn an_engine_that_cannot_start_is_an_error() {
    let mut c = config("", "--mode pass", 5, "nostart");
    c.a.command = "/nonexistent/engine --gtp".into();
    let e = play_game(&c.game_spec(1, 0), &mut |_| {}).expect_err("cannot start");
    assert!(
        matches!(
            e,
            ingo_referee::RefereeError::Spawn {
                engine: EngineId::A,
                ..
            }
        ),
        "{e}"
    );
    let _ = fake("");
}
