//! `ingo_sgf::replay_file`, the one reader of "the position of a record" (`ingo score`,
//! `ingo render`, GTP `loadsgf`): moves counted, rules chosen by the caller, refusals named.

use ingo_rules::{Color, Preset};
use ingo_sgf::{replay_file, FileReplayError};

fn file(text: &str) -> tempfile::NamedTempFile {
    let f = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(f.path(), text).expect("writable");
    f
}

#[test]
fn counts_moves_and_uses_the_callers_rules() {
    // Source: made for this test; three moves on 9x9, komi 6.5 in the record.
    let f = file("(;SZ[9]KM[6.5];B[cc];W[gg];B[cg])");
    let all = replay_file(f.path(), None, |r| r.rules_or(Preset::Ing)).expect("replays");
    assert_eq!(all.replay.played, 3);
    assert_eq!(all.replay.game.to_move(), Color::White);
    let two = replay_file(f.path(), Some(2), |_| Preset::Chinese.rules()).expect("replays");
    assert_eq!(two.replay.played, 2);
    assert_eq!(two.replay.game.rules(), &Preset::Chinese.rules());
    // More moves than the record has: all of them.
    let many = replay_file(f.path(), Some(99), |r| r.rules_or(Preset::Ing)).expect("replays");
    assert_eq!(many.replay.played, 3);
}

#[test]
fn an_illegal_move_and_an_empty_file_are_named_with_the_path() {
    // Source: made for this test; White plays on Black's stone.
    let f = file("(;SZ[9];B[cc];W[cc])");
    let e = replay_file(f.path(), None, |r| r.rules_or(Preset::Ing)).expect_err("illegal");
    assert!(matches!(e, FileReplayError::Illegal { .. }), "{e:?}");
    let text = e.to_string();
    assert!(text.starts_with(&f.path().display().to_string()), "{text}");
    assert!(text.contains("move 2"), "{text}");
    let empty = file("");
    let e = replay_file(empty.path(), None, |r| r.rules_or(Preset::Ing)).expect_err("no game");
    assert!(!e.to_string().is_empty());
}
