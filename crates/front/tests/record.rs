//! A record's count, as `ingo score` and the server's judge page both make it: the dead stones
//! given first, then the record's territory markup, then the end-of-game judgement; and the
//! time penalties a record states only in words.

use ingo_front::record::{self, DeadStones};
use ingo_rules::Point;
use ingo_sgf::{parse, replay, Record, ReplayMode};

/// The first game of `text` and its final position, read as `ingo score` reads a record.
fn positioned(text: &str) -> (Record, record::Position) {
    let record = parse(text)
        .expect("an SGF text")
        .into_iter()
        .next()
        .expect("a game");
    let replayed = replay(
        &record,
        record::rules_for(&record, None),
        ReplayMode::Strict,
    )
    .expect("replays");
    let position = record::position(&record, replayed);
    (record, position)
}

fn counted(text: &str, dead: &[Point]) -> record::Count {
    let (record, position) = positioned(text);
    record::count(&record, &position.game, dead)
}

/// Black's stone at `aa` is agreed dead: it lies in White's territory (TW).
const AGREED: &str = "(;GM[1]FF[4]SZ[3]KM[0];B[aa];W[bb];B[];W[]\
                      ;TB[]TW[aa][ab][ac][ba][bc][ca][cb][cc])";

#[test]
fn the_records_markup_is_the_agreement_unless_dead_stones_are_given() {
    let agreed = counted(AGREED, &[]);
    assert!(matches!(agreed.dead, DeadStones::Markup));
    assert_eq!(agreed.score.result_string(), "W+9");
    assert_eq!(agreed.marks(), (Vec::new(), Vec::new()));

    let bb = Point::from_gtp("B2", 3, 3).expect("a point");
    let given = counted(AGREED, &[bb]);
    assert!(matches!(given.dead, DeadStones::Given));
    assert_eq!(given.score.dead, vec![bb]);

    let judged = counted("(;GM[1]FF[4]SZ[3]KM[0];B[aa];W[bb];B[];W[])", &[]);
    assert!(judged.judgement().is_some(), "no markup: judged");
}

#[test]
fn penalties_stated_in_the_comments_are_taken_off() {
    let (record, position) =
        positioned("(;GM[1]FF[4]SZ[3]KM[0]GC[+2 time penalty];B[bb];W[];B[];W[])");
    let record = &record;
    assert_eq!(position.game.penalties().black, 2);
    assert!(position.warnings.iter().any(|w| w.contains("Black 2")));
    let count = record::count(record, &position.game, &[]);
    assert_eq!(count.score.result_string(), "B+7");
}

/// `KM[4]` beside `GC[8 komi, -4 time penalty]`: the komi is what the penalty left (the 7th Ing
/// Cup's records), so the count takes the penalty off once, through the komi, and says so.
#[test]
fn penalties_the_komi_already_holds_are_taken_off_once() {
    let (record, position) =
        positioned("(;GM[1]FF[4]SZ[3]KM[4]GC[8 komi, -4 time penalty];B[bb];W[];B[];W[])");
    let record = &record;
    assert_eq!(position.game.penalties().white, 0);
    assert!(
        position
            .warnings
            .iter()
            .any(|w| w.contains("KM 4") && w.contains("White 4")),
        "{:?}",
        position.warnings
    );
    // Black's 9 points less komi 4; taken off twice it would be B+9.
    let count = record::count(record, &position.game, &[]);
    assert_eq!(count.score.result_string(), "B+5");
}
