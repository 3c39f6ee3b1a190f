//! Clock schedules on explicit timelines: every `now` is written out, nothing sleeps.
//!
//! PP cases follow docs/rules.md §7 ("BT = 180 min: 180 → 2, >210 → 4, >240 → 6, >270 → loss"; the same
//! with BT = 30, SL IngTiming) and T16 of docs/rules.md.

use std::time::Duration;

use ingo_clock::{
    gtp_time_settings, kgs_time_settings, Arrival, Clock, ClockError, ClockEvent, GtpDialect,
    TimeControl, TimeLeft,
};
use ingo_rules::Color;

const B: Color = Color::Black;
const W: Color = Color::White;
const NS: Duration = Duration::from_nanos(1);

fn min(m: u64) -> Duration {
    Duration::from_secs(60 * m)
}

fn sec(s: u64) -> Duration {
    Duration::from_secs(s)
}

fn clock(text: &str) -> Clock {
    Clock::new(text.parse().expect("valid control")).expect("valid clock")
}

/// One move of `side` from `at`, lasting `d`; returns the event and the time after.
fn play(clock: &mut Clock, side: Color, at: Duration, d: Duration) -> (ClockEvent, Duration) {
    clock.start(side, at).expect("start");
    let end = at + d;
    (clock.stop(side, end).expect("stop"), end)
}

/// A fresh clock of `text`, one move of `d` by Black.
fn single(text: &str, d: Duration) -> (ClockEvent, Clock) {
    let mut c = clock(text);
    let (event, _) = play(&mut c, B, Duration::ZERO, d);
    (event, c)
}

// ---------------------------------------------------------------------------------------------
// Ing PP (罰點延時)

#[test]
fn pp_bt180_thresholds_in_one_move() {
    let cases = [
        (min(179), ClockEvent::Ok, 0),
        (
            min(180),
            ClockEvent::EnteredOvertime { penalty_points: 2 },
            2,
        ),
        (
            min(210),
            ClockEvent::EnteredOvertime { penalty_points: 2 },
            2,
        ),
        (
            min(210) + sec(1),
            ClockEvent::EnteredOvertime { penalty_points: 4 },
            4,
        ),
        (
            min(240),
            ClockEvent::EnteredOvertime { penalty_points: 4 },
            4,
        ),
        (
            min(240) + sec(1),
            ClockEvent::EnteredOvertime { penalty_points: 6 },
            6,
        ),
        (
            min(270),
            ClockEvent::EnteredOvertime { penalty_points: 6 },
            6,
        ),
        (min(270) + NS, ClockEvent::Flagged, 6),
    ];
    for (used, event, points) in cases {
        let (got, c) = single("ing-pp:180m", used);
        assert_eq!(got, event, "used {used:?}");
        assert_eq!(c.penalty_points(B), points, "used {used:?}");
        assert_eq!(c.flagged(), (event == ClockEvent::Flagged).then_some(B));
    }
}

#[test]
fn pp_bt180_thresholds_move_by_move() {
    let mut c = clock("ing-pp:180m");
    let mut now = Duration::ZERO;
    let black = |c: &mut Clock, now: &mut Duration, d: Duration| {
        let (event, end) = play(c, B, *now, d);
        // White answers in one second each time, far inside its own basic time.
        let (w, end) = play(c, W, end, sec(1));
        assert_eq!(w, ClockEvent::Ok);
        *now = end;
        event
    };
    assert_eq!(black(&mut c, &mut now, min(60)), ClockEvent::Ok);
    assert_eq!(black(&mut c, &mut now, min(60)), ClockEvent::Ok);
    assert_eq!(black(&mut c, &mut now, min(60) - NS), ClockEvent::Ok);
    assert_eq!(
        c.time_left(B, now),
        Some(TimeLeft {
            main: NS,
            periods_or_stones: 0,
            in_overtime: false
        })
    );
    // Exactly 180 minutes used: the basic time is used up ("基時用完後，罰二點").
    assert_eq!(
        black(&mut c, &mut now, NS),
        ClockEvent::EnteredOvertime { penalty_points: 2 }
    );
    assert_eq!(black(&mut c, &mut now, min(30)), ClockEvent::Ok); // 210: still 2
    assert_eq!(c.penalty_points(B), 2);
    assert_eq!(
        black(&mut c, &mut now, sec(1)),
        ClockEvent::Penalty { total_points: 4 }
    );
    assert_eq!(black(&mut c, &mut now, min(30) - sec(1)), ClockEvent::Ok); // 240: still 4
    assert_eq!(
        black(&mut c, &mut now, NS),
        ClockEvent::Penalty { total_points: 6 }
    );
    assert_eq!(black(&mut c, &mut now, min(30) - NS), ClockEvent::Ok); // 270: still 6
    assert_eq!(c.time_used(B), min(270));
    assert_eq!(
        c.time_left(B, now),
        Some(TimeLeft {
            main: Duration::ZERO,
            periods_or_stones: 0,
            in_overtime: true
        })
    );
    c.start(B, now).expect("start");
    assert_eq!(c.deadline(B), Some(now));
    assert_eq!(c.stop(B, now + NS), Ok(ClockEvent::Flagged));
    assert_eq!(c.flagged(), Some(B));
    assert_eq!(c.penalty_points(W), 0);
}

#[test]
fn pp_bt30_thresholds() {
    // SL IngTiming: BT 30 → 2 at 30, 4 beyond 35, 6 beyond 40, loss beyond 45.
    let cases = [
        (min(30) - NS, 0, false),
        (min(30), 2, false),
        (min(35), 2, false),
        (min(35) + NS, 4, false),
        (min(40), 4, false),
        (min(40) + NS, 6, false),
        (min(45), 6, false),
        (min(45) + NS, 6, true),
    ];
    for (used, points, lost) in cases {
        let (event, c) = single("ing-pp:30m", used);
        assert_eq!(c.penalty_points(B), points, "used {used:?}");
        assert_eq!(event == ClockEvent::Flagged, lost, "used {used:?}");
    }
}

#[test]
fn t16_penalties_cancel() {
    // "PP with BT = 180: B uses 215 min and W uses 182 min → penalties B 4, W 2 → net 2 points
    // to White".
    let mut c = clock("ing-pp:180m");
    let mut now = Duration::ZERO;
    // Spread over many moves: 43 moves of 5 minutes for Black, 91 of 2 minutes for White.
    for i in 0..91 {
        if i < 43 {
            now = play(&mut c, B, now, min(5)).1;
        }
        now = play(&mut c, W, now, min(2)).1;
    }
    assert_eq!(c.time_used(B), min(215));
    assert_eq!(c.time_used(W), min(182));
    assert_eq!((c.penalty_points(B), c.penalty_points(W)), (4, 2));
    let net = c.net_penalty();
    assert_eq!((net.black, net.white), (2, 0));
    assert_eq!(<(u32, u32)>::from(net), (2, 0));
}

#[test]
fn t16_black_reaches_270_1_and_loses() {
    // "B reaches 270.1 min → B loses regardless of the score".
    let mut c = clock("ing-pp:180m");
    let (_, now) = play(&mut c, B, Duration::ZERO, min(265));
    let (_, now) = play(&mut c, W, now, min(1));
    c.start(B, now).expect("start");
    assert_eq!(c.check(now + min(5)), Ok(None)); // 270 min: still 6 points, not lost
    assert_eq!(c.check(now + min(5) + sec(6)), Ok(Some(B))); // 270.1 min
    assert_eq!(c.flagged(), Some(B));
    assert_eq!(c.time_used(B), min(270) + sec(6));
    assert_eq!(
        c.stop(B, now + min(6)),
        Err(ClockError::Flagged { side: B })
    );
}

#[test]
fn pp_first_to_reach_three_sixths_loses() {
    // "但延時最先到達3/6基時者裁定敗": both deep in overtime; White runs out first in time order.
    let mut c = clock("ing-pp:30m");
    let (_, now) = play(&mut c, B, Duration::ZERO, min(44));
    let (_, now) = play(&mut c, W, now, min(44));
    assert_eq!((c.penalty_points(B), c.penalty_points(W)), (6, 6));
    assert_eq!((c.net_penalty().black, c.net_penalty().white), (0, 0));
    let (_, now) = play(&mut c, B, now, sec(30));
    c.start(W, now).expect("start");
    assert_eq!(c.check(now + min(1) + NS), Ok(Some(W)));
    // Black had less left but did not run out: the first flag fall decides.
    assert_eq!(
        c.start(B, now + min(2)),
        Err(ClockError::Flagged { side: W })
    );
    assert_eq!(c.flagged(), Some(W));
}

#[test]
fn pp_gtp_time_left_reports_the_next_step() {
    let mut c = clock("ing-pp:180m");
    assert_eq!(gtp_time_settings(&c.control(B)).to_string(), "10800 0 0");
    assert_eq!(kgs_time_settings(&c.control(B)), "absolute 10800");
    let left = |c: &Clock, now| {
        c.gtp_time_left(B, now, GtpDialect::Standard)
            .expect("timed")
            .to_string()
    };
    assert_eq!(left(&c, Duration::ZERO), "10800 0");
    c.start(B, Duration::ZERO).expect("start");
    assert_eq!(left(&c, min(100)), "4800 0");
    assert_eq!(left(&c, min(190)), "1200 0"); // 20 minutes to the 4-point step at 210
    assert_eq!(left(&c, min(230)), "600 0"); // 10 minutes to the 6-point step at 240
    assert_eq!(left(&c, min(260)), "600 0"); // 10 minutes to the loss at 270
    assert_eq!(left(&c, min(271)), "0 0");
    // The SGF record shows the time before the loss instead.
    assert_eq!(
        c.time_left(B, min(230)),
        Some(TimeLeft {
            main: min(40),
            periods_or_stones: 0,
            in_overtime: true
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Ing RS (讀秒延時) and Japanese byo-yomi

#[test]
fn rs_periods() {
    let mut c = clock("ing-rs:10m+3x30s");
    let (e, now) = play(&mut c, B, Duration::ZERO, min(10));
    assert_eq!(e, ClockEvent::EnteredOvertime { penalty_points: 0 });
    assert_eq!(
        c.time_left(B, now),
        Some(TimeLeft {
            main: sec(30),
            periods_or_stones: 3,
            in_overtime: true
        })
    );
    // A move within the period keeps it, even one using all of it.
    let (e, now) = play(&mut c, B, now, sec(29));
    assert_eq!(e, ClockEvent::Ok);
    let (e, now) = play(&mut c, B, now, sec(30));
    assert_eq!(e, ClockEvent::Ok);
    // A longer one uses it.
    let (e, now) = play(&mut c, B, now, sec(30) + NS);
    assert_eq!(e, ClockEvent::PeriodUsed { periods_left: 2 });
    let (e, now) = play(&mut c, B, now, sec(45));
    assert_eq!(e, ClockEvent::PeriodUsed { periods_left: 1 });
    assert_eq!(c.penalty_points(B), 0);
    // The last period: 30 s exactly is fine, more is a loss ("若干次秒限屆滿，為逾時裁定敗").
    let (e, now) = play(&mut c, B, now, sec(30));
    assert_eq!(e, ClockEvent::Ok);
    c.start(B, now).expect("start");
    assert_eq!(c.deadline(B), Some(now + sec(30)));
    assert_eq!(
        c.time_left(B, now + sec(20)),
        Some(TimeLeft {
            main: sec(10),
            periods_or_stones: 1,
            in_overtime: true
        })
    );
    assert_eq!(c.stop(B, now + sec(30) + NS), Ok(ClockEvent::Flagged));
    assert_eq!(c.flagged(), Some(B));
}

#[test]
fn japanese_overflow_from_main_time_uses_periods() {
    let mut c = clock("byoyomi:1m+5x30s");
    // 60 s of main time, then 40 s into byo-yomi: one period gone.
    let (e, now) = play(&mut c, B, Duration::ZERO, sec(100));
    assert_eq!(e, ClockEvent::PeriodUsed { periods_left: 4 });
    // 61 s: two more periods gone.
    let (e, now) = play(&mut c, B, now, sec(61));
    assert_eq!(e, ClockEvent::PeriodUsed { periods_left: 2 });
    c.start(B, now).expect("start");
    assert_eq!(c.deadline(B), Some(now + sec(60)));
    // Time left while thinking: 45 s in, the first of the two periods is gone.
    assert_eq!(
        c.time_left(B, now + sec(45)),
        Some(TimeLeft {
            main: sec(15),
            periods_or_stones: 1,
            in_overtime: true
        })
    );
    assert_eq!(
        c.gtp_time_left(B, now + sec(45), GtpDialect::Kgs)
            .map(|t| t.to_string()),
        Some("15 1".to_string())
    );
    assert_eq!(
        c.stop(B, now + sec(60)),
        Ok(ClockEvent::PeriodUsed { periods_left: 1 })
    );
    assert_eq!(gtp_time_settings(&c.control(B)).to_string(), "60 30 1");
    assert_eq!(kgs_time_settings(&c.control(B)), "byoyomi 60 30 5");
}

#[test]
fn japanese_without_main_time_starts_in_byoyomi() {
    let mut c = clock("byoyomi:0s+3x10s");
    assert_eq!(
        c.time_left(W, Duration::ZERO),
        Some(TimeLeft {
            main: sec(10),
            periods_or_stones: 3,
            in_overtime: true
        })
    );
    let (e, _) = play(&mut c, W, Duration::ZERO, sec(10));
    assert_eq!(e, ClockEvent::Ok);
}

// ---------------------------------------------------------------------------------------------
// Canadian, Fischer, absolute, untimed

#[test]
fn canadian_stones_reset_each_period() {
    let mut c = clock("canadian:1m+3/30s");
    // 60 s main + 10 s: overtime, this move is the first of three in the period.
    let (e, now) = play(&mut c, B, Duration::ZERO, sec(70));
    assert_eq!(e, ClockEvent::EnteredOvertime { penalty_points: 0 });
    assert_eq!(
        c.time_left(B, now),
        Some(TimeLeft {
            main: sec(20),
            periods_or_stones: 2,
            in_overtime: true
        })
    );
    let (e, now) = play(&mut c, B, now, sec(10));
    assert_eq!(e, ClockEvent::Ok);
    // The third stone uses the period to its end: a fresh period with 3 stones follows.
    let (e, now) = play(&mut c, B, now, sec(10));
    assert_eq!(e, ClockEvent::Ok);
    assert_eq!(
        c.time_left(B, now),
        Some(TimeLeft {
            main: sec(30),
            periods_or_stones: 3,
            in_overtime: true
        })
    );
    assert_eq!(
        c.gtp_time_left(B, now, GtpDialect::Standard)
            .map(|t| t.to_string()),
        Some("30 3".to_string())
    );
    // Two quick stones, then the period runs short for the third.
    let (_, now) = play(&mut c, B, now, sec(12));
    let (_, now) = play(&mut c, B, now, sec(12));
    c.start(B, now).expect("start");
    assert_eq!(c.deadline(B), Some(now + sec(6)));
    assert_eq!(c.stop(B, now + sec(6) + NS), Ok(ClockEvent::Flagged));
    assert_eq!(gtp_time_settings(&c.control(B)).to_string(), "60 30 3");
    assert_eq!(kgs_time_settings(&c.control(B)), "canadian 60 30 3");
}

#[test]
fn fischer_increment_and_cap() {
    let mut c = clock("fischer:1m+10s");
    let (e, now) = play(&mut c, B, Duration::ZERO, sec(20));
    assert_eq!(e, ClockEvent::Ok);
    assert_eq!(c.time_left(B, now).map(|t| t.main), Some(sec(50)));
    let (_, now) = play(&mut c, B, now, Duration::ZERO);
    assert_eq!(c.time_left(B, now).map(|t| t.main), Some(sec(60)));
    c.start(B, now).expect("start");
    assert_eq!(c.deadline(B), Some(now + sec(60)));
    // Exactly at the deadline is in time, and the increment follows.
    assert_eq!(c.stop(B, now + sec(60)), Ok(ClockEvent::Ok));
    assert_eq!(c.time_left(B, now + sec(60)).map(|t| t.main), Some(sec(10)));

    let mut c = clock("fischer:1m+10s[max 65s]");
    let mut now = Duration::ZERO;
    for expected in [65, 65, 60] {
        let d = if expected == 60 {
            sec(15)
        } else {
            Duration::ZERO
        };
        now = play(&mut c, W, now, d).1;
        assert_eq!(c.time_left(W, now).map(|t| t.main), Some(sec(expected)));
    }
    assert_eq!(gtp_time_settings(&c.control(W)).to_string(), "60 0 0");
}

#[test]
fn absolute_and_untimed() {
    let (e, c) = single("absolute:30m", min(30));
    assert_eq!(e, ClockEvent::Ok);
    assert_eq!(
        c.time_left(B, min(30)),
        Some(TimeLeft {
            main: Duration::ZERO,
            periods_or_stones: 0,
            in_overtime: false
        })
    );
    let (e, _) = single("absolute:30m", min(30) + NS);
    assert_eq!(e, ClockEvent::Flagged);

    let (e, mut c) = single("none", Duration::MAX);
    assert_eq!(e, ClockEvent::Ok);
    assert_eq!(c.time_left(B, Duration::MAX), None);
    c.start(W, Duration::MAX).expect("start");
    assert_eq!(c.deadline(W), None);
    assert_eq!(c.check(Duration::MAX), Ok(None));
    assert_eq!(
        c.gtp_time_left(W, Duration::MAX, GtpDialect::Standard),
        None
    );
    assert_eq!(gtp_time_settings(&TimeControl::None).to_string(), "0 1 0");
}

#[test]
fn handicap_controls_per_side() {
    let mut c = Clock::with_controls(
        "ing-pp:3h".parse().expect("valid controls"),
        "ing-pp:2h".parse().expect("valid controls"),
    )
    .expect("valid controls");
    let (_, now) = play(&mut c, B, Duration::ZERO, min(150));
    let (e, _) = play(&mut c, W, now, min(150));
    assert_eq!(c.penalty_points(B), 0);
    assert_eq!(e, ClockEvent::EnteredOvertime { penalty_points: 4 }); // 30 min over 120 > 120/6
    assert!(Clock::with_controls(
        TimeControl::None,
        TimeControl::IngPenalty {
            basic: Duration::ZERO
        }
    )
    .is_err());
}

// ---------------------------------------------------------------------------------------------
// Late arrival (遲到 → 扣時; 缺席 → forfeit)

#[test]
fn late_arrival_is_deducted_twice() {
    // "10 min late → BT − 20 min".
    let mut c = clock("ing-pp:180m");
    assert_eq!(
        c.late_arrival(W, min(10)),
        Ok(Arrival::Deducted { deducted: min(20) })
    );
    assert_eq!(c.deducted(W), min(20));
    assert_eq!(
        c.time_left(W, Duration::ZERO).map(|t| t.main),
        Some(min(160))
    );
    // The steps stay sixths of the nominal basic time: overtime after 160 min of play,
    // 4 points beyond 190, loss beyond 250.
    let (e, now) = play(&mut c, W, Duration::ZERO, min(160));
    assert_eq!(e, ClockEvent::EnteredOvertime { penalty_points: 2 });
    let (e, now) = play(&mut c, W, now, min(30) + NS);
    assert_eq!(e, ClockEvent::Penalty { total_points: 4 });
    c.start(W, now).expect("start");
    assert_eq!(c.deadline(W), Some(now + min(60) - NS));
    // The lateness is not time spent.
    assert_eq!(c.time_used(W), min(190) + NS);

    let mut c = clock("fischer:10m+5s");
    assert_eq!(
        c.late_arrival(B, min(2)),
        Ok(Arrival::Deducted { deducted: min(4) })
    );
    assert_eq!(c.time_left(B, Duration::ZERO).map(|t| t.main), Some(min(6)));

    let mut c = clock("byoyomi:10m+3x30s");
    assert_eq!(
        c.late_arrival(B, min(1)),
        Ok(Arrival::Deducted { deducted: min(2) })
    );
    // Charges add up while the player has not started.
    assert_eq!(
        c.late_arrival(B, min(1)),
        Ok(Arrival::Deducted { deducted: min(2) })
    );
    assert_eq!(c.time_left(B, Duration::ZERO).map(|t| t.main), Some(min(6)));

    let mut c = clock("none");
    assert_eq!(
        c.late_arrival(B, min(600)),
        Ok(Arrival::Deducted {
            deducted: Duration::ZERO
        })
    );
}

#[test]
fn absence_is_a_forfeit() {
    // [D] forfeit when 2·late ≥ BT.
    let mut c = clock("ing-pp:180m");
    assert_eq!(c.late_arrival(B, min(90)), Ok(Arrival::Forfeit));
    assert_eq!(c.deducted(B), Duration::ZERO); // unchanged
    assert_eq!(
        c.late_arrival(B, min(90) - NS),
        Ok(Arrival::Deducted {
            deducted: min(180) - 2 * NS
        })
    );
    // Pure byo-yomi has no main time to take from: any lateness is a forfeit.
    let mut c = clock("byoyomi:0s+5x30s");
    assert_eq!(c.late_arrival(W, sec(1)), Ok(Arrival::Forfeit));
    assert_eq!(
        c.late_arrival(W, Duration::ZERO),
        Ok(Arrival::Deducted {
            deducted: Duration::ZERO
        })
    );
    // Huge lateness saturates instead of overflowing.
    assert_eq!(
        clock("absolute:1h").late_arrival(W, Duration::MAX),
        Ok(Arrival::Forfeit)
    );
}

#[test]
fn late_arrival_only_before_playing() {
    let mut c = clock("ing-pp:180m");
    c.start(B, Duration::ZERO).expect("start");
    assert_eq!(
        c.late_arrival(B, min(1)),
        Err(ClockError::AlreadyStarted { side: B })
    );
    // The opponent can still be charged before its first move.
    assert!(c.late_arrival(W, min(1)).is_ok());
    c.press(B, min(1)).expect("press");
    c.stop(W, min(2)).expect("stop");
    assert_eq!(
        c.late_arrival(W, min(1)),
        Err(ClockError::AlreadyStarted { side: W })
    );
}

// ---------------------------------------------------------------------------------------------
// Deadlines and invalid sequences

#[test]
fn deadline_is_exact_for_every_control() {
    let controls = [
        "absolute:30m",
        "byoyomi:30m+5x30s",
        "byoyomi:0s+1x1s",
        "canadian:20m+25/5m",
        "fischer:10m+10s[max 20m]",
        "ing-pp:180m",
        "ing-pp:7ns",
        "ing-rs:60m+3x30s",
    ];
    for text in controls {
        let mut base = clock(text);
        // Put some history on the clock first: two moves each.
        let mut now = sec(5);
        for d in [min(3), sec(1), min(200), sec(2)] {
            base.start(B, now).expect("start");
            now += d;
            if base.stop(B, now) == Ok(ClockEvent::Flagged) {
                base = clock(text);
                break;
            }
            now = play(&mut base, W, now, sec(1)).1;
        }
        let start = base
            .check(now)
            .expect("check")
            .map_or(now, |_| Duration::ZERO);
        base.start(B, start).expect("start");
        let deadline = base.deadline(B).expect("timed");
        assert_eq!(base.deadline(W), None);

        let mut at = base.clone();
        assert_ne!(
            at.stop(B, deadline),
            Ok(ClockEvent::Flagged),
            "{text}: at the deadline"
        );
        let mut late = base.clone();
        assert_eq!(
            late.stop(B, deadline + NS),
            Ok(ClockEvent::Flagged),
            "{text}: 1 ns late"
        );
        let mut checked = base.clone();
        assert_eq!(checked.check(deadline), Ok(None), "{text}");
        assert_eq!(checked.check(deadline + NS), Ok(Some(B)), "{text}");
        assert_eq!(checked.time_used(B), late.time_used(B));
    }
}

#[test]
fn invalid_sequences_are_errors() {
    let mut c = clock("byoyomi:30m+5x30s");
    assert_eq!(
        c.stop(B, sec(1)),
        Err(ClockError::NotRunning {
            side: B,
            running: None
        })
    );
    c.start(B, sec(10)).expect("start");
    assert_eq!(
        c.start(B, sec(11)),
        Err(ClockError::AlreadyRunning {
            side: B,
            running: B
        })
    );
    assert_eq!(
        c.start(W, sec(11)),
        Err(ClockError::AlreadyRunning {
            side: W,
            running: B
        })
    );
    assert_eq!(
        c.stop(W, sec(11)),
        Err(ClockError::NotRunning {
            side: W,
            running: Some(B)
        })
    );
    assert_eq!(
        c.stop(B, sec(9)),
        Err(ClockError::TimeWentBackwards {
            last: sec(10),
            now: sec(9)
        })
    );
    assert_eq!(
        c.check(sec(5)),
        Err(ClockError::TimeWentBackwards {
            last: sec(10),
            now: sec(5)
        })
    );
    // Errors change nothing: the move can still be finished.
    assert_eq!(c.stop(B, sec(20)), Ok(ClockEvent::Ok));
    assert_eq!(c.time_used(B), sec(10));
    assert_eq!(
        c.start(W, sec(19)),
        Err(ClockError::TimeWentBackwards {
            last: sec(20),
            now: sec(19)
        })
    );
    let msg = c.start(W, sec(19)).expect_err("must fail").to_string();
    assert!(msg.starts_with("time went backwards"), "{msg}");
    assert_eq!(c.running(), None);
    assert_eq!(c.moves(B), 1);
}

#[test]
fn sgf_properties_follow_the_clock() {
    let mut c = clock("byoyomi:1m+5x30s");
    let (_, now) = play(&mut c, B, Duration::ZERO, sec(30));
    assert_eq!(
        c.sgf_move_properties(B, now),
        vec![("BL", "30".to_string())]
    );
    let (_, now) = play(&mut c, W, now, sec(95));
    assert_eq!(
        c.sgf_move_properties(W, now),
        vec![("WL", "30".to_string()), ("OW", "4".to_string())]
    );
    let mut c = clock("ing-pp:30m");
    let (_, now) = play(
        &mut c,
        B,
        Duration::ZERO,
        min(31) + Duration::from_millis(500),
    );
    assert_eq!(
        c.sgf_move_properties(B, now),
        vec![("BL", "839.5".to_string())]
    );
    assert!(clock("none").sgf_move_properties(B, now).is_empty());
}
