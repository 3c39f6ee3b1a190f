//! The table as a server drives it: moves, the clock at explicit times, handicap passes, the
//! dead-stone step, results, the event log and the SGF record.

use std::time::Duration;

use ingo_front::{Event, Settings, Table, TableError};
use ingo_rules::{Color, GameEnd, Move, Phase, PlayErrorKind, Point, Rules};
use proptest::prelude::*;

fn at(s: &str, size: usize) -> Move {
    Move::from_gtp(s, size, size).expect("a vertex on the board")
}

fn pt(s: &str, size: usize) -> Point {
    Point::from_gtp(s, size, size).expect("a vertex on the board")
}

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

fn timed(size: usize, control: &str) -> Table {
    let settings = Settings {
        time_control: Some(control.parse().expect("a time control")),
        ..Settings::new(size, Rules::ing())
    };
    let mut table = Table::new(settings).expect("valid settings");
    table.start_clock(Duration::ZERO).expect("the clock starts");
    table
}

/// Plays `moves` alternately from Black, untimed.
fn play_all(table: &mut Table, moves: &[&str]) {
    let size = table.size();
    for m in moves {
        let color = table.to_move();
        table
            .play(color, at(m, size), None)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

#[test]
fn moves_are_judged_by_the_rules_with_their_reason() {
    // docs/rules.md T1: Black takes the ko; White's immediate retake is a hot-stone capture.
    let mut table = Table::new(Settings::new(5, Rules::ing())).expect("valid settings");
    play_all(
        &mut table,
        &["B5", "C5", "A4", "B4", "B3", "D4", "pass", "C3", "C4"],
    );
    let err = table
        .play(Color::White, at("B4", 5), None)
        .expect_err("the hot stone cannot be retaken at once");
    match err {
        TableError::Illegal(e) => assert_eq!(e.kind, PlayErrorKind::HotStone),
        e => panic!("unexpected {e}"),
    }
    // Out of turn is refused by the rules too.
    let err = table
        .play(Color::Black, at("E1", 5), None)
        .expect_err("not Black's turn");
    assert!(matches!(err, TableError::Illegal(e) if e.kind == PlayErrorKind::OutOfTurn));
}

#[test]
fn a_timed_move_charges_the_mover_and_ing_overtime_costs_points() {
    // Ing PP with 60 minutes: Black's first move takes 70, into overtime: 2 points (第七條
    // "基時用完後，罰二點").
    let mut table = timed(9, "ing-pp:60m");
    table
        .play(Color::Black, at("E5", 9), Some(secs(70 * 60)))
        .expect("in time: the loss comes at 3/6 over");
    let clock = table.clock().expect("timed");
    assert_eq!(clock.penalty_points(ingo_rules::Color::Black), 2);
    assert_eq!(clock.running(), Some(ingo_rules::Color::White));
    assert_eq!(table.game().penalties().black, 2);
    // The count takes the points off Black's margin.
    let before = table.game().count(&[]).margin_halves;
    let mut untimed = Table::new(Settings::new(9, Rules::ing())).expect("valid");
    untimed
        .play(Color::Black, at("E5", 9), None)
        .expect("legal");
    assert_eq!(untimed.game().count(&[]).margin_halves - before, 4);
}

#[test]
fn a_move_after_the_flag_fell_loses_on_time() {
    let mut table = timed(9, "absolute:1m");
    let err = table
        .play(Color::Black, at("E5", 9), Some(secs(61)))
        .expect_err("Black's minute is over");
    assert_eq!(err, TableError::LostOnTime(Color::Black));
    assert_eq!(table.phase(), Phase::Ended);
    assert_eq!(table.game().end(), Some(&GameEnd::Time(Color::Black)));
    assert_eq!(table.winner(), Some(Color::White));
    assert_eq!(table.game().move_count(), 0);
}

#[test]
fn a_player_who_does_not_move_keeps_losing_time() {
    let mut table = timed(9, "absolute:1m");
    table
        .play(Color::Black, at("E5", 9), Some(secs(10)))
        .expect("in time");
    assert_eq!(table.check_time(secs(69)), Ok(None));
    assert_eq!(table.check_time(secs(71)), Ok(Some(Color::White)));
    assert_eq!(table.winner(), Some(Color::Black));
    // The flag fall is in the log, so a rebuilt table ends the same way.
    let again = Table::replay(table.settings().clone(), table.events()).expect("replays");
    assert_eq!(again.game().end(), Some(&GameEnd::Time(Color::White)));
}

#[test]
fn moves_on_a_running_clock_need_their_time() {
    let mut table = timed(9, "absolute:1m");
    assert_eq!(
        table.play(Color::Black, at("E5", 9), None),
        Err(TableError::TimeNeeded)
    );
    assert_eq!(table.game().move_count(), 0);
}

#[test]
fn two_passes_suspend_play_and_the_clock_waits() {
    let mut table = timed(9, "absolute:10m");
    table
        .play(Color::Black, at("E5", 9), Some(secs(5)))
        .expect("legal");
    table
        .play(Color::White, Move::Pass, Some(secs(10)))
        .expect("legal");
    table
        .play(Color::Black, Move::Pass, Some(secs(20)))
        .expect("legal");
    assert_eq!(table.phase(), Phase::Suspended);
    let clock = table.clock().expect("timed");
    assert_eq!(clock.running(), None);
    let used = clock.time_used(ingo_rules::Color::White);
    // White resumes play an hour later (提證死活): the wait is nobody's time.
    table
        .play(Color::White, at("C3", 9), Some(secs(3600)))
        .expect("a board play resumes play");
    assert_eq!(table.phase(), Phase::Playing);
    let clock = table.clock().expect("timed");
    assert_eq!(clock.time_used(ingo_rules::Color::White), used);
    assert_eq!(clock.running(), Some(ingo_rules::Color::Black));
}

#[test]
fn white_passes_for_the_handicap() {
    // 3先: two handicap passes (讓手), played by the table when due.
    let settings = Settings {
        handicap_passes: 2,
        ..Settings::new(9, Rules::ing())
    };
    let mut table = Table::new(settings).expect("valid");
    assert_eq!(table.pass_handicap_if_due(None), Ok(false));
    table.play(Color::Black, at("C3", 9), None).expect("legal");
    assert_eq!(table.pass_handicap_if_due(None), Ok(true));
    table.play(Color::Black, at("G7", 9), None).expect("legal");
    assert_eq!(table.pass_handicap_if_due(None), Ok(true));
    table.play(Color::Black, at("C7", 9), None).expect("legal");
    assert_eq!(table.pass_handicap_if_due(None), Ok(false));
    assert_eq!(table.to_move(), Color::White);
    assert!(table.game().is_handicap());
}

/// A 5x5 game in which White's stone at D2 is dead inside Black's area, suspended.
fn suspended_with_a_dead_stone() -> Table {
    let mut table = Table::new(Settings::new(5, Rules::ing())).expect("valid");
    play_all(
        &mut table,
        &[
            "C1", "D2", "C2", "pass", "C3", "pass", "C4", "pass", "C5", "pass", "pass",
        ],
    );
    assert_eq!(table.phase(), Phase::Suspended);
    table
}

#[test]
fn both_players_accept_the_dead_stones_and_the_game_is_counted() {
    let mut table = suspended_with_a_dead_stone();
    let d2 = pt("D2", 5);
    table.propose_dead(None, &[d2]).expect("a stone");
    table.accept_dead(Color::Black).expect("a proposal");
    assert_eq!(
        table.phase(),
        Phase::Suspended,
        "one acceptance is not enough"
    );
    table.accept_dead(Color::White).expect("a proposal");
    assert_eq!(table.phase(), Phase::Ended);
    assert_eq!(table.game().end(), Some(&GameEnd::Agreement(vec![d2])));
    let score = table.score().expect("counted");
    assert_eq!((score.area.black, score.area.white), (25, 0));
    assert_eq!(score.fill_in.margin(), score.margin());
}

#[test]
fn a_rejected_proposal_leaves_play_suspended_and_play_proves_life_and_death() {
    let mut table = suspended_with_a_dead_stone();
    table
        .propose_dead(Some(Color::Black), &[pt("D2", 5)])
        .expect("a stone");
    table.reject_dead(Color::White).expect("a proposal");
    assert!(table.proposal().is_none());
    assert_eq!(table.accept_dead(Color::White), Err(TableError::NoProposal));
    // White resumes play (提證死活); Black captures on the board.
    table
        .play(Color::White, at("E2", 5), None)
        .expect("resumes");
    assert_eq!(table.phase(), Phase::Playing);
    play_all(
        &mut table,
        &["E3", "pass", "E1", "pass", "D1", "pass", "D3"],
    );
    assert_eq!(table.game().board().color_at(pt("D2", 5)), None);
    play_all(&mut table, &["pass", "pass", "pass", "pass"]);
    assert_eq!(table.game().end(), Some(&GameEnd::Passes));
    assert_eq!(table.winner(), Some(Color::Black));
}

#[test]
fn a_move_withdraws_the_proposal() {
    let mut table = suspended_with_a_dead_stone();
    table.propose_dead(None, &[pt("D2", 5)]).expect("a stone");
    table
        .play(Color::White, Move::Pass, None)
        .expect("a third pass");
    assert!(table.proposal().is_none());
    assert_eq!(table.phase(), Phase::Suspended);
}

#[test]
fn dead_stones_are_proposed_only_at_a_suspension_and_must_be_stones() {
    let mut table = Table::new(Settings::new(5, Rules::ing())).expect("valid");
    table.play(Color::Black, at("C3", 5), None).expect("legal");
    assert!(matches!(
        table.propose_dead(None, &[pt("C3", 5)]),
        Err(TableError::Game(_))
    ));
    let mut table = suspended_with_a_dead_stone();
    assert!(matches!(
        table.propose_dead(None, &[pt("A1", 5)]),
        Err(TableError::Game(_))
    ));
    assert!(table.proposal().is_none());
}

#[test]
fn resignation_and_forfeit_end_the_game_and_no_move_follows() {
    let mut table = Table::new(Settings::new(9, Rules::ing())).expect("valid");
    table.resign(Color::White).expect("resigns");
    assert_eq!(table.winner(), Some(Color::Black));
    assert!(table.score().is_none());
    assert!(matches!(
        table.play(Color::Black, at("E5", 9), None),
        Err(TableError::Illegal(e)) if e.kind == PlayErrorKind::GameOver
    ));
    assert!(table.forfeit(Color::Black, "late").is_err());

    let mut table = Table::new(Settings::new(9, Rules::ing())).expect("valid");
    table.forfeit(Color::Black, "crashed").expect("forfeits");
    assert_eq!(
        table.game().end(),
        Some(&GameEnd::Forfeit(Color::Black, "crashed".into()))
    );
}

#[test]
fn a_late_player_pays_twice_the_lateness_or_is_absent() {
    // 第八條: "其遲到時間應於「基時」中加倍扣除之".
    let mut table = timed(9, "absolute:10m");
    assert_eq!(table.late_arrival(Color::White, secs(60)), Ok(true));
    assert_eq!(
        table
            .clock()
            .expect("timed")
            .deducted(ingo_rules::Color::White),
        secs(120)
    );
    let mut table = timed(9, "absolute:10m");
    assert_eq!(table.late_arrival(Color::White, secs(300)), Ok(false));
    assert_eq!(table.winner(), Some(Color::Black));
}

#[test]
fn undo_is_for_untimed_tables() {
    let mut table = timed(9, "absolute:10m");
    table
        .play(Color::Black, at("E5", 9), Some(secs(1)))
        .expect("legal");
    assert_eq!(table.undo(), Err(TableError::UndoTimed));
    let mut table = Table::new(Settings::new(9, Rules::ing())).expect("valid");
    table.play(Color::Black, at("E5", 9), None).expect("legal");
    assert_eq!(table.undo(), Ok(at("E5", 9)));
    assert!(table.events().is_empty());
}

#[test]
fn the_record_reads_back_with_times_penalties_and_dead_stones() {
    let mut table = timed(5, "ing-pp:10m");
    let moves = [
        "C1", "D2", "C2", "pass", "C3", "pass", "C4", "pass", "C5", "pass", "pass",
    ];
    let mut now = Duration::ZERO;
    for (i, m) in moves.iter().enumerate() {
        // Black's third move takes 10 minutes, 14 s into overtime: 2 penalty points.
        now += if i == 4 { secs(10 * 60) } else { secs(7) };
        let color = table.to_move();
        table.play(color, at(m, 5), Some(now)).expect("legal");
    }
    table
        .propose_dead(Some(Color::White), &[pt("D2", 5)])
        .expect("a stone");
    table.accept_dead(Color::Black).expect("agreed");
    let text = table.to_sgf(&ingo_sgf::GameInfo::default());
    assert!(text.contains("RU[GOE]"), "{text}");
    assert!(text.contains("TM[600]"), "{text}");
    assert!(text.contains("BP[2]"), "{text}");
    assert!(text.contains("BL["), "{text}");
    let record = &ingo_sgf::parse(&text).expect("our own SGF")[0];
    let replayed = ingo_sgf::replay(
        record,
        record.rules_or(ingo_rules::Preset::Ing),
        ingo_sgf::ReplayMode::Strict,
    )
    .expect("replays");
    assert_eq!(replayed.game.board(), table.game().board());
    assert_eq!(
        record.dead_stones(replayed.game.board()),
        Some(vec![pt("D2", 5)])
    );
    assert_eq!(replayed.game.penalties(), table.game().penalties());
}

/// One random action of a player or the server on a 5x5 table.
#[derive(Clone, Debug)]
enum Step {
    Move(usize),
    Pass,
    Propose(bool),
    Accept(bool),
    Reject,
    Check,
    Resign,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => (0usize..25).prop_map(Step::Move),
        3 => Just(Step::Pass),
        1 => any::<bool>().prop_map(Step::Propose),
        1 => any::<bool>().prop_map(Step::Accept),
        1 => Just(Step::Reject),
        1 => Just(Step::Check),
        1 => Just(Step::Resign),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever is played, refused or agreed, the event log rebuilds the same table: the board,
    /// the phase, the end, the clock and the log itself.
    #[test]
    fn replaying_the_events_rebuilds_the_table(
        steps in proptest::collection::vec((step(), 0u64..200), 0..80),
    ) {
        let mut table = timed(5, "ing-pp:2m");
        let mut now = Duration::ZERO;
        for (s, dt) in steps {
            now += Duration::from_secs(dt);
            let color = table.to_move();
            let _ = match s {
                Step::Move(i) => {
                    let p = Point::new(i % 5, i / 5).expect("on a 5x5 board");
                    table.play(color, Move::Play(p), Some(now))
                }
                Step::Pass => table.play(color, Move::Pass, Some(now)),
                Step::Propose(all) => {
                    let dead: Vec<Point> = if all {
                        let b = table.game().board();
                        b.points().filter(|p| b.color_at(*p).is_some()).collect()
                    } else {
                        Vec::new()
                    };
                    table.propose_dead(Some(color), &dead)
                }
                Step::Accept(black) => {
                    table.accept_dead(if black { Color::Black } else { Color::White })
                }
                Step::Reject => table.reject_dead(color),
                Step::Check => table.check_time(now).map(|_| ()),
                Step::Resign => table.resign(color),
            };
        }
        let again = Table::replay(table.settings().clone(), table.events()).expect("replays");
        prop_assert_eq!(again.game().board(), table.game().board());
        prop_assert_eq!(again.phase(), table.phase());
        prop_assert_eq!(again.game().end(), table.game().end());
        prop_assert_eq!(again.clock(), table.clock());
        prop_assert_eq!(again.proposal(), table.proposal());
        prop_assert_eq!(again.events(), table.events());
        prop_assert_eq!(again.to_sgf(&Default::default()), table.to_sgf(&Default::default()));
        let ended = table.events().iter().any(|e| matches!(e, Event::Resign { .. }));
        prop_assert!(!ended || table.phase() == Phase::Ended);
    }
}

/// The settings and the log survive JSON, and rebuild the same table.
#[cfg(feature = "serde")]
#[test]
fn settings_and_events_round_trip_through_json() {
    let mut table = timed(5, "ing-pp:10m");
    let moves = [
        "C1", "D2", "C2", "pass", "C3", "pass", "C4", "pass", "C5", "pass", "pass",
    ];
    for (i, m) in moves.iter().enumerate() {
        let color = table.to_move();
        table
            .play(color, at(m, 5), Some(secs(100 * (i as u64 + 1))))
            .expect("legal");
    }
    table.propose_dead(None, &[pt("D2", 5)]).expect("a stone");
    table.reject_dead(Color::Black).expect("a proposal");
    table
        .propose_dead(Some(Color::White), &[pt("D2", 5)])
        .expect("a stone");
    table.accept_dead(Color::Black).expect("agreed");
    let settings = serde_json::to_string(table.settings()).expect("serializes");
    let events = serde_json::to_string(table.events()).expect("serializes");
    assert!(
        settings.contains(r#""time_control":"ing-pp:10m""#),
        "{settings}"
    );
    assert!(
        events.contains(
            r#"{"type":"play","color":"black","move":[2,4],"at":{"secs":100,"nanos":0}}"#
        ),
        "{events}"
    );
    let settings: Settings = serde_json::from_str(&settings).expect("deserializes");
    let events: Vec<Event> = serde_json::from_str(&events).expect("deserializes");
    assert_eq!(&settings, table.settings());
    assert_eq!(events, table.events());
    let again = Table::replay(settings, &events).expect("replays");
    assert_eq!(again.score(), table.score());
    assert_eq!(again.clock(), table.clock());
    let bad = r#"[{"type":"play","color":"black","move":[30,1],"at":null}]"#;
    assert!(serde_json::from_str::<Vec<Event>>(bad).is_err());
}

#[test]
fn every_refusal_has_a_sentence() {
    use ingo_rules::PlayErrorKind as K;
    let kinds = [
        K::Occupied,
        K::OffBoard,
        K::Suicide,
        K::HotStone,
        K::DoubleHot,
        K::TwinHot,
        K::Disturbing,
        K::Cycle,
        K::Superko,
        K::GameOver,
        K::OutOfTurn,
    ];
    let mut sentences: Vec<&str> = kinds.iter().map(|&k| ingo_front::explain(k)).collect();
    assert!(sentences.iter().all(|s| s.ends_with('.')));
    sentences.sort_unstable();
    sentences.dedup();
    assert_eq!(sentences.len(), kinds.len(), "one sentence per reason");
}
