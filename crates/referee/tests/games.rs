//! Single games with fake engines (`tests/engines/fake_engine.py`): normal play, disputes,
//! komi fallback, handicap by passes, penalty points, and every failure policy.
//!
//! The fake engines' random moves come from Python's seeded generator, so each seeded game ends
//! on a known board: the test draws it, and the result it expects is counted by hand from that
//! drawing (docs/rules.md §5: a stone counts for its colour, an empty point next to stones of
//! one colour only is that colour's, every other empty point is shared and counts for nobody;
//! margin = Black's area − White's − komi (8 in an even game) − Black's penalty points +
//! White's). The referee's own count is never the expected value. Timed games read the time
//! from a scripted source (`common::Steps`), so what each move is charged does not depend on
//! the machine.

mod common;

use std::{fs, time::Duration};

use common::{config, fake, Steps};
use ingo_referee::{
    play_game, play_game_timed, run_match, EndKind, EngineId, FailureAction, FailureKind,
    FailurePolicy, GameRecord, GameReport, MatchConfig, NoProgress, Outcome, VoidExhausted,
};
use ingo_rules::{Board, Color, GameEnd, Move, Preset};
use ingo_sgf::{parse, replay, ReplayMode};

fn play(config: &MatchConfig) -> GameReport {
    play_game(&config.game_spec(1, 0), &mut |_| {}).expect("the game runs")
}

/// Game 1 of `config`, its time read from `time`.
fn play_timed(config: &MatchConfig, time: &Steps) -> GameReport {
    play_game_timed(&config.game_spec(1, 0), time, &mut |_| {}).expect("the game runs")
}

/// The game ended on the board `diagram` (rows from the top, `X` Black, `O` White).
fn assert_final_board(report: &GameReport, diagram: &str) {
    let expected = Board::from_ascii(diagram).expect("a diagram");
    assert_eq!(
        report.game.board().to_ascii(),
        expected.to_ascii(),
        "the final board"
    );
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

/// Where the fake engines with seeds 1 and 2 and at most 8 stones each end on 5×5: Black C5,
/// White D4, Black D2, White B4, … (the moves of Python's `random.Random(1)` and `(2)`).
const RANDOM_1_2: &str = "
    A B C D E
  5 X . X . O
  4 O O O O X
  3 . . . . .
  2 O X X X O
  1 O . X . X
";

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
    assert_final_board(&r, RANDOM_1_2);
    // Counted by hand, every stone alive. Black: 8 stones and D1 (next to Black only) = 9.
    // White: 8 stones and A3 (next to A4 and A2) = 9. Shared: B5, D5 (between C5 and E5 or
    // D4), B3, C3, D3, E3 (row 3 between the two) and B1 (A1 and C1) = 7; 9 + 9 + 7 = 25.
    // 9 − 9 − komi 8 = −8.
    assert_eq!(r.result_string(), "W+8");
    assert_eq!(r.game.score().map(|s| s.shared), Some(7));
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
    assert_final_board(
        &r,
        "
    A B C D E
  5 O . . . X
  4 . X . . .
  3 . . . . .
  2 X . O . .
  1 . X . O O
",
    );
    // Four passes: every stone alive (Black's claim that C3 is dead was never agreed; C3 is
    // empty anyway). Counted by hand. Black: 4 stones and D5, C4, E4, A3, B3, A1 = 10. White:
    // 4 stones and C3, D2, E2 = 7. Shared: B5 and A4 (next to A5 and B4), B2 (A2, B1 and C2),
    // C1 (B1 and D1), and C5, D4, D3, E3, next to no stone = 8; 10 + 7 + 8 = 25.
    // 10 − 7 − komi 8 = −5.
    assert_eq!(r.result_string(), "W+5");
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
    // The same game as `random_engines_play_to_a_count`, the referee judging Black's eight
    // stones dead: what is pinned here is that verdict, and the count that follows from it.
    assert_final_board(&r, RANDOM_1_2);
    let mut black_stones: Vec<_> = r
        .game
        .board()
        .points()
        .filter(|&p| r.game.board().color_at(p) == Some(Color::Black))
        .collect();
    black_stones.sort();
    assert_eq!(dead, black_stones);
    // Counted by hand: with Black's stones off, every empty point borders White only, and White
    // has the whole board: 0 − 25 − komi 8 = −33.
    assert_eq!(r.result_string(), "W+33");
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
    assert_final_board(
        &r,
        "
    A B C D E
  5 . . . . .
  4 . O . . O
  3 X . X . .
  2 . X . . O
  1 . . . . .
",
    );
    // Counted by hand, both lists empty. Black: 3 stones and D3, A2, C2, B1 = 7. White: 3
    // stones and B5, E5, D4, E3, D2, E1 = 9. Shared: A4, C4, B3 (between the colours) and A5,
    // C5, D5, A1, C1, D1 (next to no stone) = 9; 7 + 9 + 9 = 25. 7 − 9 − komi 8 = −10; with
    // komi 7.5 it would be W+9.5.
    assert_eq!(r.result_string(), "W+10");
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
    assert_final_board(
        &r,
        "
    A B C D E F G
  7 . . . . . . .
  6 . X . . . O .
  5 X . . . . . .
  4 . . . X . . .
  3 . . O . . . .
  2 . . . X . O .
  1 . . . . . O .
",
    );
    // Counted by hand, both lists empty. Black: 4 stones and B7, A6, C6, B5, D5, A4, E4, D1
    // = 12. White: 4 stones and F7, E6, G6, F5, B3, F3, G2, E1, G1 = 13. The other 24 empty
    // points are shared: C4, D3, C2, E2 between the colours, the rest next to no stone;
    // 12 + 13 + 24 = 49. 12 − 13 − komi 0 = −1.
    assert_eq!(r.result_string(), "W+1");
    let text = check_sgf(&r);
    assert!(text.contains("HA[2]") && text.contains("KM[0]") && text.contains("BR[1d]"));
}

#[test]
fn penalty_points_go_into_the_count_and_the_sgf() {
    // Every move costs exactly 1.25 s on the scripted time source. Black has 6 s of basic time
    // with penalty-point overtime (article 7: 2 points when the basic time is used up, 2 more
    // when the overtime exceeds 1/6 of it, here 1 s): its five moves (four stones and a pass)
    // take 6.25 s, 0.25 s of overtime: 2 points. White's five moves fit in its 60 s.
    let log = common::out_dir("penalty_log").join("white.log");
    let mut c = config(
        "--mode list --moves B1,B2,B3,B4",
        &format!(
            "--mode list --moves D1,D2,D3,D4 --kgs-time --log '{}'",
            log.display()
        ),
        5,
        "penalty",
    );
    c.time = "ing-pp:6s".parse().expect("time control");
    c.b.time = Some("ing-pp:60s".parse().expect("time control"));
    let r = play_timed(&c, &Steps::new(Duration::from_millis(1250)));
    assert_eq!(r.outcome, Outcome::Decided, "{:?}", r.failure);
    assert_eq!(
        (r.time_used.black, r.time_used.white),
        (Duration::from_millis(6250), Duration::from_millis(6250))
    );
    assert_eq!((r.game.penalties().black, r.game.penalties().white), (2, 0));
    let g = GameRecord::from_report(&r, "game-0001.sgf");
    assert_eq!((g.black_penalty, g.white_penalty), (2, 0), "{g:?}");
    assert_eq!((g.black_time_ms, g.white_time_ms), (6250, 6250));
    assert_final_board(
        &r,
        "
    A B C D E
  5 . . . . .
  4 . X . O .
  3 . X . O .
  2 . X . O .
  1 . X . O .
",
    );
    // Counted by hand. Black: 4 stones, A1-A4 and B5 = 9; White: 4 stones, E1-E4 and D5 = 9;
    // shared: C1-C5 (between the colours, or next to no stone) and A5, E5 (next to no stone)
    // = 7. 9 − 9 − komi 8 − Black's 2 penalty points = −10.
    assert_eq!(r.result_string(), "W+10");
    assert_eq!(g.result, "W+10");
    assert_eq!(g.margin, Some(-10.0));
    let text = r.sgf();
    assert!(text.contains("BP[2]"), "{text}");
    assert!(text.contains("RE[W+10]"));
    assert!(text.contains("TM[6]") && text.contains("OT[Ing PP"));
    // Black's time left after each of its four stones: 6 − 1.25 k seconds.
    for left in ["BL[4.75]", "BL[3.5]", "BL[2.25]", "BL[1]"] {
        assert!(text.contains(left), "{left} in {text}");
    }
    assert!(
        text.contains("Black's basic time is used up: 2 penalty points"),
        "{text}"
    );
    let record = &parse(&text).expect("parses")[0];
    assert_eq!(record.penalties.black, 2);
    let replayed = replay(record, Preset::Ing.rules(), ReplayMode::Strict).expect("replays");
    assert_eq!(replayed.game.penalties().black, 2);
    // White was told the time both ways, and how much it had left before each move: 60 s, then
    // 1.25 s less each time (whole seconds, rounded down).
    let log = fs::read_to_string(&log).expect("log");
    assert!(log.contains("time_settings 60 0 0\n"), "{log}");
    assert!(log.contains("kgs-time_settings absolute 60\n"), "{log}");
    // Each logged line is `ID COMMAND`.
    let told: Vec<&str> = log
        .lines()
        .filter_map(|l| l.split_once(' ').map(|(_, command)| command))
        .filter(|l| l.starts_with("time_left w "))
        .collect();
    assert_eq!(
        told,
        [
            "time_left w 60 0",
            "time_left w 58 0",
            "time_left w 57 0",
            "time_left w 56 0",
            "time_left w 55 0"
        ],
        "{log}"
    );
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
    // Black's first move costs 0.25 s of its 1 s; on its second it hangs. The referee waits
    // for what is left on the clock plus the grace, 0.75 s + 0.3 s, and kills it (not the 10 s
    // of the test's other timeouts): the failure names the wait.
    let r = play_timed(&c, &Steps::new(Duration::from_millis(250)));
    let f = r.failure.clone().expect("a failure");
    assert_eq!(
        (f.kind, f.code, f.color),
        (FailureKind::Timeout, "timeout", Color::Black)
    );
    assert_eq!(
        f.detail,
        "engine did not answer `genmove b` within 1.05s and was killed"
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
    let mut c = config("--mode list --moves C3", "--mode pass", 5, "late");
    c.time = "absolute:1s".parse().expect("time control");
    c.timeouts.grace = Duration::from_secs(3);
    c.failure = FailurePolicy::all(FailureAction::Void { max_replays: 5 });
    // The answer comes 1.4 s after `genmove` on the referee's clock: past Black's 1 s, within
    // the 3 s of grace, so the engine was not killed and no failure policy applies.
    let r = play_timed(&c, &Steps::new(Duration::from_millis(1400)));
    assert_eq!(r.outcome, Outcome::Decided);
    assert!(r.failure.is_none(), "{:?}", r.failure);
    assert_eq!(r.game.end(), Some(&GameEnd::Time(Color::Black)));
    assert_eq!(r.result_string(), "W+T");
    assert_eq!(r.time_used.black, Duration::from_millis(1400));
    assert!(
        r.notes
            .iter()
            .any(|n| n == "Black answered `C3` after 1.400 s, past its time: loss on time."),
        "{:?}",
        r.notes
    );
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
