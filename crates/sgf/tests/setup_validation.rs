//! Issue 9 item 15 at the SGF reader: what a record's root may not give a game.

use ingo_rules::Rules;
use ingo_sgf::{parse, replay, ErrorKind, ReplayMode};

#[test]
fn sgf_setup_string_without_liberty_is_refused() {
    // A black stone on B3 surrounded by White on a 3×3 board: no liberty, never capturable.
    let record = &parse("(;SZ[3]AW[aa][ca][bb]AB[ba];B[cc])").expect("parses")[0];
    let err = replay(record, Rules::ing(), ReplayMode::Strict).expect_err("refused");
    assert!(matches!(err.kind(), ErrorKind::Setup(_)), "{err}");
    assert!(err.to_string().contains("B3 has no liberty"), "{err}");
}

#[test]
fn sgf_penalty_points_past_the_bound_are_refused() {
    // 2,000,000,000 doubled overflows i32: it must never reach the count.
    let record = &parse("(;SZ[5]BP[2000000000];B[aa])").expect("parses")[0];
    let err = replay(record, Rules::ing(), ReplayMode::Strict).expect_err("refused");
    assert!(
        matches!(err.kind(), ErrorKind::BadValue { property, .. } if property == "BP"),
        "{err}"
    );
    let record = &parse("(;SZ[5]WP[-3];B[aa])").expect("parses")[0];
    assert!(replay(record, Rules::ing(), ReplayMode::Strict).is_err());
    // A real penalty is read.
    let record = &parse("(;SZ[5]WP[2];B[aa])").expect("parses")[0];
    let r = replay(record, Rules::ing(), ReplayMode::Strict).expect("replays");
    assert_eq!(r.game.penalties().white, 2);
}
