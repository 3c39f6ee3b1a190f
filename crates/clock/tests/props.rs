//! Random timelines: the clock never panics, time used is conserved, and `deadline` agrees
//! with `stop` and `check`.

use std::time::Duration;

use ingo_clock::{pp_status, Arrival, Clock, ClockError, ClockEvent, TimeControl};
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
                // Oracle for PP: the points follow from the time charged alone.
                if let TimeControl::IngPenalty { basic } = clock.control(side) {
                    if clock.flagged() != Some(side) {
                        let charged = clock.time_used(side) + clock.deducted(side);
                        prop_assert_eq!(clock.penalty_points(side), pp_status(charged, basic).points());
                    }
                }
            }
            let net = clock.net_penalty();
            prop_assert!(net.black == 0 || net.white == 0);
            prop_assert_eq!(clock.running(), running.map(|(s, _)| s));
        }
    }
}
