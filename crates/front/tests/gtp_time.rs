//! The built-in player follows the GTP time commands: what `time_settings`,
//! `kgs-time_settings` and `time_left` say becomes the thinking time of its next `genmove`
//! (`SearchInfo::allotted`). The allotted time is computed, not measured, so this is seen
//! without a clock: the moves of a golden transcript cannot show it (a playout budget decides
//! them), and a wall-clock check would race the machine.
//!
//! The expected times follow `TimePolicy`'s documented rule with its defaults, worked out by
//! hand here: in main time, the main time left over the moves still expected (a third of the
//! empty points, at least 20) plus 80% of one stone's share of the byo-yomi period; in
//! byo-yomi, 80% of one stone's share; never more than the main time plus that share minus
//! 0.5 s, never less than 5 ms. On the 5×5 board below a third of the empty points is at most
//! 8, so 20 moves are expected. The player's weighting of the main time by the stage of the
//! game (`TimePolicy::stage_factor`, tested in `ingo-player`) is set flat here, so that the
//! figures are the rule's alone.

use std::time::Duration;

use ingo_front::gtp::GtpFront;
use ingo_gtp::Command;
use ingo_player::{Budget, Config, Player, TimePolicy};
use ingo_rules::Rules;

fn front() -> GtpFront {
    // A playout budget that ends every search long before any time allotted below.
    let player = Player::new(Config {
        budget: Budget::playouts(30),
        seed: 7,
        time: TimePolicy {
            opening: 1.0,
            middle: 1.0,
            late: 1.0,
            ..TimePolicy::default()
        },
        ..Config::default()
    })
    .expect("a valid player");
    GtpFront::new(5, Rules::ing(), player).expect("a valid size")
}

fn ok(front: &mut GtpFront, line: &str) -> String {
    let cmd = Command::parse(line)
        .expect("a command line")
        .expect("not empty");
    let out = front.handle(&cmd);
    assert!(out.response.is_success(), "{line}: {}", out.response.text);
    out.response.text
}

/// The thinking time the player was given for the move it just generated.
fn allotted_after_genmove(front: &mut GtpFront, color: &str) -> Option<Duration> {
    ok(front, &format!("genmove {color}"));
    front
        .last_search()
        .expect("genmove records its search")
        .allotted
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn time_commands_set_the_thinking_time_of_the_next_move() {
    let mut f = front();
    // No time command: the playout budget alone, no clock.
    assert_eq!(allotted_after_genmove(&mut f, "b"), None);

    // 600 s main time, then byo-yomi of 30 s per stone; White has said nothing of its own
    // time, so it has all of it: 600/20 + 0.8 × 30 = 54 s.
    ok(&mut f, "time_settings 600 30 1");
    assert_eq!(allotted_after_genmove(&mut f, "w"), Some(ms(54_000)));
    // Black has 500 s left: 500/20 + 24 = 49 s.
    ok(&mut f, "time_left b 500 0");
    assert_eq!(allotted_after_genmove(&mut f, "b"), Some(ms(49_000)));

    // In byo-yomi (a stone count in time_left): 10 s for 1 stone, 80% of it: 8 s.
    ok(&mut f, "kgs-time_settings byoyomi 0 10 3");
    ok(&mut f, "time_left w 10 1");
    assert_eq!(allotted_after_genmove(&mut f, "w"), Some(ms(8_000)));

    // Canadian overtime: 120 s left for 10 stones, 80% of 12 s: 9.6 s.
    ok(&mut f, "time_settings 0 300 25");
    ok(&mut f, "time_left b 120 10");
    assert_eq!(allotted_after_genmove(&mut f, "b"), Some(ms(9_600)));

    // Absolute time nearly out: 1 s left and no overtime gives 1/20 s = 50 ms, under the cap
    // of 1 s - 0.5 s.
    ok(&mut f, "time_settings 60 0 0");
    ok(&mut f, "time_left w 1 0");
    assert_eq!(allotted_after_genmove(&mut f, "w"), Some(ms(50)));

    // "time_settings 0 0 0" means no time limit: no clock again.
    ok(&mut f, "time_settings 0 0 0");
    assert_eq!(allotted_after_genmove(&mut f, "b"), None);
}
