//! With the `serde` feature: controls travel as their text form, and the clock state round-trips.
#![cfg(feature = "serde")]

use std::time::Duration;

use ingo_clock::{Clock, ClockEvent, TimeControl};
use ingo_rules::Color;

#[test]
fn time_control_is_its_text() {
    let tc: TimeControl = "ing-rs:1h+3x30s".parse().expect("valid control");
    let json = serde_json::to_string(&tc).expect("serializes");
    assert_eq!(json, r#""ing-rs:1h+3x30s""#);
    assert_eq!(
        serde_json::from_str::<TimeControl>(&json).expect("deserializes"),
        tc
    );
    // Deserializing validates.
    assert!(serde_json::from_str::<TimeControl>(r#""ing-pp:0s""#).is_err());
    assert!(serde_json::from_str::<TimeControl>(r#""blitz""#).is_err());
}

#[test]
fn clock_state_round_trips() {
    let mut clock = Clock::new("ing-pp:30m".parse().expect("valid control")).expect("valid clock");
    clock.start(Color::Black, Duration::ZERO).expect("start");
    clock
        .press(Color::Black, Duration::from_secs(1900))
        .expect("press");
    let json = serde_json::to_string(&clock).expect("serializes");
    let mut back: Clock = serde_json::from_str(&json).expect("deserializes");
    assert_eq!(back, clock);
    assert_eq!(back.penalty_points(Color::Black), 2);
    assert_eq!(
        back.stop(Color::White, Duration::from_secs(1901)),
        Ok(ClockEvent::Ok)
    );
}
