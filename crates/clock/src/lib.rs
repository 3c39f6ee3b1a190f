//! Go clocks for Ing Chang-ki's rules (第七條 時限, 第八條 罰則) and the usual alternatives, as
//! a pure state machine: the caller passes the time in, the clock never reads it or sleeps.
//!
//! * [`TimeControl`]: plain `Copy` data with a compact text form (`ing-pp:3h`,
//!   `ing-rs:1h+3x30s`, `byoyomi:30m+5x30s`, `canadian:20m+25/5m`, `fischer:10m+10s[max 20m]`,
//!   `absolute:30m`, `none`): Ing's basic time with penalty-point overtime (罰點延時, PP) or
//!   byo-yomi overtime (讀秒延時, RS), Japanese byo-yomi, Canadian, Fischer, absolute.
//! * [`Clock`]: both players' clocks; [`start`](Clock::start) / [`stop`](Clock::stop) /
//!   [`press`](Clock::press) at explicit times `now: Duration` (since an origin the caller
//!   picks), giving a [`ClockEvent`]; [`deadline`](Clock::deadline) and
//!   [`check`](Clock::check) for flag falls while thinking; penalty points and their
//!   cancellation ([`net_penalty`](Clock::net_penalty)); late arrival
//!   ([`late_arrival`](Clock::late_arrival), 扣時 and 缺席).
//! * [`TimeSource`]: where a caller reads the time it passes in (the machine's, [`WallClock`],
//!   or one a test scripts); the referee and the player read one.
//! * GTP ([`gtp_time_settings`], [`kgs_time_settings`], [`Clock::gtp_time_left`]) and SGF
//!   ([`sgf_tm`], [`sgf_ot`], [`sgf_move_properties`]) mappings.
//!
//! docs/rules.md T16, with a basic time of 180 minutes: Black uses 215 minutes (4 points), White 182
//! (2 points); the penalties cancel down to 2 points, which go to White.
//!
//! ```
//! use ingo_clock::{Clock, ClockEvent, TimeControl};
//! use ingo_rules::Color;
//! use std::time::Duration;
//!
//! let min = |m: u64| Duration::from_secs(60 * m);
//! let mut clock = Clock::new("ing-pp:180m".parse().unwrap()).unwrap();
//! let mut now = Duration::ZERO;
//! // Black thinks 215 minutes, White 182, in one long move each.
//! clock.start(Color::Black, now).unwrap();
//! now += min(215);
//! assert_eq!(clock.press(Color::Black, now).unwrap(), ClockEvent::EnteredOvertime { penalty_points: 4 });
//! now += min(182);
//! assert_eq!(clock.stop(Color::White, now).unwrap(), ClockEvent::EnteredOvertime { penalty_points: 2 });
//! assert_eq!((clock.penalty_points(Color::Black), clock.penalty_points(Color::White)), (4, 2));
//! let net = clock.net_penalty();
//! assert_eq!((net.black, net.white), (2, 0)); // 2 points to White
//!
//! // Black's next move: 55 minutes of allowance remain (3/6 of 180 = 90, 35 used).
//! clock.start(Color::Black, now).unwrap();
//! assert_eq!(clock.deadline(Color::Black), Some(now + min(55)));
//! assert_eq!(clock.check(now + min(55)).unwrap(), None);
//! assert_eq!(clock.check(now + min(55) + Duration::from_secs(6)).unwrap(), Some(Color::Black));
//! assert_eq!(clock.flagged(), Some(Color::Black)); // regardless of the score
//! ```
//!
//! # Feature flags
//!
//! * `serde`: `Serialize` and `Deserialize` for [`TimeControl`], [`Color`] and [`ByColor`] (through
//!   `ingo-rules/serde`),
//!   [`TimeLeft`], [`ClockEvent`], [`Arrival`], [`PpStatus`] and the [`Clock`] state.
#![deny(missing_docs)]

mod clock;
mod control;
mod gtp;
mod sgf;
mod source;

#[cfg(doc)]
use ingo_rules::{ByColor, Color};

pub use clock::{Arrival, Clock, ClockError, ClockEvent, TimeLeft};
pub use control::{pp_status, ParseTimeControlError, PpStatus, TimeControl, TimeControlError};
pub use gtp::{gtp_time_settings, kgs_time_settings, GtpDialect, GtpTimeLeft, GtpTimeSettings};
pub use sgf::{parse_sgf_real, sgf_move_properties, sgf_ot, sgf_real, sgf_tm};
pub use source::{TimeSource, WallClock};
