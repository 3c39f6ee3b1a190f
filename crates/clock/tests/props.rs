//! Random timelines: the clock never panics, time used is conserved, and `deadline` agrees
//! with `stop` and `check`; and the penalty points of Ing's overtime are those of article 7's
//! text ([`article_7_points`], written from the rule, not from `pp_status`), on random timelines
//! and on moves that end exactly at, just before and just after each of its steps.

use std::time::Duration;

use ingo_clock::{Arrival, Clock, ClockError, ClockEvent, TimeControl};
use ingo_rules::Color;
use proptest::prelude::*;

fn control() -> impl Strategy<Value = TimeControl> {
    let d = |max: u64| (0..max).prop_map(Duration::from_millis);
    prop_oneof![
        Just(TimeControl::None),
        d(100_000).prop_map(|main| TimeControl::Absolute { main }),
        (d(100_000), 1..5u32, 1..30_000u64).prop_map(|(main, periods, p)| {
            TimeControl::Japanese {
                main,
                periods,
                period: Duration::from_millis(p),
            }
        }),
        (d(100_000), 1..5u32, 1..30_000u64).prop_map(|(basic, periods, p)| {
            TimeControl::IngByoYomi {
                basic,
                periods,
                period: Duration::from_millis(p),
            }
        }),
        (d(100_000), 1..5u32, 1..30_000u64).prop_map(|(main, stones, p)| {
            TimeControl::Canadian {
                main,
                stones,
                period: Duration::from_millis(p),
            }
        }),
        (d(100_000), d(10_000), proptest::option::of(d(200_000))).prop_map(
            |(main, increment, max)| TimeControl::Fischer {
                main,
                increment,
                max
            }
        ),
        (1..100_000u64).prop_map(|ms| TimeControl::IngPenalty {
            basic: Duration::from_millis(ms)
        }),
    ]
}

/// Penalty points under Ing's penalty-point overtime for a side that has been charged `charged`
/// (time used and late-arrival deduction) against the basic time `basic`, written from the rule
/// text; `None` when the side has lost on time. S002 article 7
/// (`shared/rules-text/ing-rules-2001-traditional.txt`, 延時 (1); docs/rules.md §7):
///
/// 「基時用完後，罰二點，延時超過基時1/6再罰二點，共四點，延時超過基時2/6再罰二點，共六點。
/// 延時超過基時3/6為逾時裁定敗。」 ("Once the basic time is used up, two points; when the overtime
/// exceeds 1/6 of the basic time, two more, four in all; when it exceeds 2/6, two more, six in
/// all. Overtime beyond 3/6 of the basic time loses on time.")
///
/// Read as blocks: the overtime is cut into blocks of one sixth of the basic time, and each
/// block begun costs two points. The first block begins the moment the basic time is used up
/// ("用完後": two points at once, at exactly the basic time too); the next begins once the
/// overtime is past the end of the one before ("超過": strictly more, so exactly 1/6 over is
/// still the first block). Beginning a fourth block loses. The number of blocks begun is the
/// overtime in sixths of the basic time, rounded up, and at least one; counted in whole
/// nanoseconds, so a basic time that six does not divide is not rounded.
fn article_7_points(charged: Duration, basic: Duration) -> Option<u32> {
    if charged < basic {
        return Some(0);
    }
    let overtime = charged.as_nanos() - basic.as_nanos();
    let sixths = 6 * overtime;
    let blocks_begun = sixths.div_ceil(basic.as_nanos().max(1)).max(1);
    (blocks_begun <= 3).then(|| 2 * blocks_begun as u32)
}

#[test]
fn article_7_oracle_on_its_own_example() {
    // docs/rules.md §7: "With 180 minutes: 180 → 2, over 210 → 4, over 240 → 6, over 270 →
    // loss." A check of the oracle itself, against the worked example rather than the code.
    let min = |m: u64| Duration::from_secs(60 * m);
    let ns = Duration::from_nanos(1);
    let bt = min(180);
    assert_eq!(article_7_points(min(180) - ns, bt), Some(0));
    assert_eq!(article_7_points(min(180), bt), Some(2));
    assert_eq!(article_7_points(min(210), bt), Some(2));
    assert_eq!(article_7_points(min(210) + ns, bt), Some(4));
    assert_eq!(article_7_points(min(240), bt), Some(4));
    assert_eq!(article_7_points(min(240) + ns, bt), Some(6));
    assert_eq!(article_7_points(min(270), bt), Some(6));
    assert_eq!(article_7_points(min(270) + ns, bt), None);
    // The spec's T16 (shared/spec/ing-rules.md): 215 and 182 minutes of a 180-minute basic
    // time give 4 and 2 points; 270.1 minutes loses.
    assert_eq!(article_7_points(min(215), bt), Some(4));
    assert_eq!(article_7_points(min(182), bt), Some(2));
    assert_eq!(
        article_7_points(min(270) + Duration::from_secs(6), bt),
        None
    );
}

#[derive(Clone, Debug)]
enum Op {
    Start(Color, u64),
    Stop(Color, u64),
    Press(Color, u64),
    Check(u64),
    Back(u64),
    Late(Color, u64),
    Query(Color, u64),
}

fn side() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::Black), Just(Color::White)]
}

fn op() -> impl Strategy<Value = Op> {
    // Steps in milliseconds, sometimes huge to reach saturation.
    let step = prop_oneof![12 => 0..3_000u64, 3 => 0..60_000u64, 1 => Just(u64::MAX / 4)];
    prop_oneof![
        4 => (side(), step.clone()).prop_map(|(s, t)| Op::Start(s, t)),
        4 => (side(), step.clone()).prop_map(|(s, t)| Op::Stop(s, t)),
        8 => (side(), step.clone()).prop_map(|(s, t)| Op::Press(s, t)),
        1 => step.clone().prop_map(Op::Check),
        1 => (1..10_000u64).prop_map(Op::Back),
        1 => (side(), 0..200_000u64).prop_map(|(s, t)| Op::Late(s, t)),
        1 => (side(), step).prop_map(|(s, t)| Op::Query(s, t)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_timelines(black in control(), white in control(), ops in proptest::collection::vec(op(), 0..60)) {
        let mut clock = Clock::with_controls(black, white).expect("valid controls");
        let mut now = Duration::ZERO;
        // The latest time the clock accepted: earlier times must be refused.
        let mut last = Duration::ZERO;
        // Model: the running side and its start, and the time each side has spent.
        let mut running: Option<(Color, Duration)> = None;
        let mut spent = [Duration::ZERO; 2];
        let idx = |s: Color| if s == Color::Black { 0 } else { 1 };
        let ms = Duration::from_millis;

        for op in ops {
            match op {
                Op::Start(side, dt) => {
                    now = now.saturating_add(ms(dt));
                    let result = clock.start(side, now);
                    if clock.flagged().is_none() && running.is_none() {
                        prop_assert_eq!(result, Ok(()));
                        running = Some((side, now));
                        last = now;
                    } else {
                        prop_assert!(result.is_err());
                    }
                }
                Op::Stop(side, dt) | Op::Press(side, dt) => {
                    now = now.saturating_add(ms(dt));
                    let deadline = clock.deadline(side);
                    let press = matches!(op, Op::Press(..));
                    let flagged_before = clock.flagged();
                    let result = if press { clock.press(side, now) } else { clock.stop(side, now) };
                    match (running, flagged_before) {
                        (Some((s, since)), None) if s == side => {
                            let late = deadline.is_some_and(|d| now > d);
                            let expected = if late { Some(ClockEvent::Flagged) } else { None };
                            match result {
                                Ok(event) => {
                                    prop_assert_eq!(event == ClockEvent::Flagged, late);
                                    if let Some(e) = expected { prop_assert_eq!(event, e); }
                                }
                                Err(e) => prop_assert!(false, "stop failed: {}", e),
                            }
                            spent[idx(side)] += now - since;
                            running = (press && !late).then_some((side.opponent(), now));
                            last = now;
                        }
                        _ => prop_assert!(result.is_err()),
                    }
                }
                Op::Check(dt) => {
                    now = now.saturating_add(ms(dt));
                    let before = clock.flagged();
                    let deadline = running.and_then(|(s, _)| clock.deadline(s));
                    let flagged = clock.check(now);
                    prop_assert!(flagged.is_ok());
                    let flagged = flagged.unwrap_or(None);
                    if before.is_none() {
                        last = now;
                        if let (Some((side, since)), Some(d)) = (running, deadline) {
                            if now > d {
                                prop_assert_eq!(flagged, Some(side));
                                spent[idx(side)] += now - since;
                                running = None;
                            } else {
                                prop_assert_eq!(flagged, None);
                            }
                        } else {
                            prop_assert_eq!(flagged, None);
                        }
                    } else {
                        prop_assert_eq!(flagged, before);
                    }
                }
                Op::Back(dt) => {
                    if last >= ms(dt) && dt > 0 {
                        let earlier = last - ms(dt);
                        let back = matches!(clock.check(earlier), Err(ClockError::TimeWentBackwards { .. }));
                        prop_assert!(back);
                        prop_assert!(clock.start(Color::Black, earlier).is_err());
                        prop_assert!(clock.stop(Color::White, earlier).is_err());
                    }
                }
                Op::Late(side, dt) => {
                    let before = clock.time_left(side, now);
                    match clock.late_arrival(side, ms(dt)) {
                        Ok(Arrival::Deducted { deducted }) => {
                            if dt > 0 && clock.control(side).is_timed() {
                                prop_assert_eq!(deducted, ms(2 * dt));
                            }
                        }
                        Ok(Arrival::Forfeit) => prop_assert_eq!(clock.time_left(side, now), before),
                        Err(_) => {}
                    }
                }
                Op::Query(side, dt) => {
                    let at = now.saturating_add(ms(dt));
                    let _ = clock.time_left(side, at);
                    let _ = clock.gtp_time_left(side, at, ingo_clock::GtpDialect::Standard);
                    let _ = clock.gtp_time_left(side, at, ingo_clock::GtpDialect::Kgs);
                    let _ = clock.sgf_move_properties(side, at);
                }
            }
            // Invariants after every operation.
            for side in Color::ALL {
                prop_assert_eq!(clock.time_used(side), spent[idx(side)], "conservation for {}", side);
                prop_assert!([0, 2, 4, 6].contains(&clock.penalty_points(side)));
                // Oracle for PP, from article 7's text (not from `pp_status`): the points follow
                // from the time charged alone, and a side past the third sixth has lost on time.
                if let TimeControl::IngPenalty { basic } = clock.control(side) {
                    let charged = clock.time_used(side) + clock.deducted(side);
                    match article_7_points(charged, basic) {
                        Some(points) => {
                            prop_assert_ne!(clock.flagged(), Some(side), "flagged within 3/6 of the basic time");
                            prop_assert_eq!(clock.penalty_points(side), points, "charged {:?} of {:?}", charged, basic);
                        }
                        None => prop_assert_eq!(clock.flagged(), Some(side), "charged {:?} of {:?} and not flagged", charged, basic),
                    }
                }
            }
            let net = clock.net_penalty();
            prop_assert!(net.black == 0 || net.white == 0);
            prop_assert_eq!(clock.running(), running.map(|(s, _)| s));
        }
    }
}

/// How long one move of the penalty-point property takes: a random time, or a time that brings
/// the mover's charged time to a step of article 7 (`basic + k·basic/6`, k = 0…3), one
/// nanosecond before it, or one after, which random times in milliseconds almost never hit.
#[derive(Clone, Debug)]
enum Think {
    Random(u64),
    ToStep { k: u32, delta: i8 },
}

fn think() -> impl Strategy<Value = Think> {
    prop_oneof![
        1 => (0..20_000u64).prop_map(Think::Random),
        2 => (0..4u32, -1..=1i8).prop_map(|(k, delta)| Think::ToStep { k, delta }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Penalty-point overtime on both sides, moves in turn, with a late arrival at the start
    /// sometimes: after every move the points are article 7's ([`article_7_points`]), and a side
    /// is flagged exactly when its charged time is past 3/6 of the basic time. Basic times in
    /// whole milliseconds, multiples of 6 ms (every step a whole number of nanoseconds), and
    /// any number of nanoseconds.
    #[test]
    fn penalty_points_follow_article_7_at_its_steps(
        basic in prop_oneof![
            (1..60_000u64).prop_map(Duration::from_millis),
            (1..10_000u64).prop_map(|k| Duration::from_millis(6 * k)),
            (1..60_000_000_000u64).prop_map(Duration::from_nanos),
        ],
        late in proptest::option::of((any::<bool>(), 0..1_000u32)),
        moves in proptest::collection::vec(think(), 1..40),
    ) {
        let control = TimeControl::IngPenalty { basic };
        let mut clock = Clock::with_controls(control, control).expect("valid controls");
        if let Some((white, per_mille)) = late {
            // Late by up to half the basic time: deducted twice, up to all of it (a forfeit
            // when it would use it all up, the clock unchanged).
            let side = if white { Color::White } else { Color::Black };
            let late = basic * per_mille / 2_000;
            let _ = clock.late_arrival(side, late).expect("before any move");
        }
        let mut now = Duration::ZERO;
        let mut side = Color::Black;
        clock.start(side, now).expect("start");
        for m in moves {
            let charged = clock.time_used(side) + clock.deducted(side);
            let d = match m {
                Think::Random(ms) => Duration::from_millis(ms),
                Think::ToStep { k, delta } => {
                    let step = basic.as_nanos() + u128::from(k) * basic.as_nanos() / 6;
                    let target = (step as i128 + i128::from(delta)).max(0) as u128;
                    let d = target.saturating_sub(charged.as_nanos());
                    Duration::from_nanos(u64::try_from(d).expect("a step within u64 nanoseconds"))
                }
            };
            now += d;
            let event = clock.press(side, now).expect("the side to move presses");
            let charged = clock.time_used(side) + clock.deducted(side);
            match article_7_points(charged, basic) {
                Some(points) => {
                    prop_assert_ne!(event, ClockEvent::Flagged, "charged {:?} of {:?}", charged, basic);
                    prop_assert_eq!(clock.penalty_points(side), points, "charged {:?} of {:?}", charged, basic);
                }
                None => {
                    prop_assert_eq!(event, ClockEvent::Flagged, "charged {:?} of {:?}", charged, basic);
                    prop_assert_eq!(clock.flagged(), Some(side));
                    break;
                }
            }
            side = side.opponent();
        }
    }
}
