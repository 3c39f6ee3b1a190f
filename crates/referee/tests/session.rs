//! The GTP opponent session the referee and the play server share, on the fake engine
//! (`tests/engines/fake_engine.py`): what it tells an engine at the start, in order.

mod common;

use std::time::Duration;

use ingo_clock::{GtpDialect, TimeControl};
use ingo_gtp::engine::EngineBuilder;
use ingo_referee::{GtpSession, KomiTold, SessionSetup, Started};
use ingo_rules::Komi;

#[test]
fn the_start_falls_back_to_a_half_point_komi_and_the_kgs_time_settings() {
    let dir = common::out_dir("session-start");
    let log = dir.join("commands.log");
    let command = common::fake(&format!(
        "--refuse-int-komi --kgs-time --log '{}'",
        log.display()
    ));
    let engine = EngineBuilder::from_command_line(&command)
        .expect("the fake engine's command line")
        .spawn()
        .expect("start the fake engine");
    let mut session = GtpSession::new(engine);
    let started = session
        .start(&SessionSetup {
            size: 9,
            komi: Komi(14),
            preset: Some("ing"),
            time: Some(TimeControl::Absolute {
                main: Duration::from_secs(60),
            }),
            handicap_passes: 0,
            timeout: Duration::from_secs(30),
        })
        .expect("the fake engine starts");
    assert_eq!(
        started,
        Started {
            komi: KomiTold::Near(Komi(13)),
            time_settings_refused: false,
        }
    );
    assert_eq!(session.dialect(), GtpDialect::Kgs);
    let _ = session.into_engine().quit(Duration::from_secs(5));
    let sent: Vec<String> = std::fs::read_to_string(&log)
        .expect("the fake engine's log")
        .lines()
        // Each line starts with the command's id.
        .map(|l| {
            l.split_whitespace()
                .skip(1)
                .take(2)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    // `ingo-rules` is asked about but not sent: the fake engine does not know it.
    assert_eq!(
        sent,
        [
            "known_command kgs-time_settings",
            "known_command kgs-genmove_cleanup",
            "known_command ingo-rules",
            "boardsize 9",
            "clear_board",
            "komi 7",
            "komi 6.5",
            "time_settings 60",
            "kgs-time_settings absolute",
            "quit",
        ]
    );
}
