//! Real games: GNU Go against GNU Go on 9×9 with an enforced clock, counted by the referee, and
//! the referee's count compared with GNU Go's own.
//!
//! GNU Go is found by `ingo_testkit::gnugo`: skipped with a note when it is not installed, except
//! under CI (`CI` set), where a missing GNU Go fails.

mod common;

use ingo_referee::{play_game, run_match, EndKind, MatchConfig, NoProgress, Outcome};
use ingo_rules::{GameEnd, Preset};
use ingo_sgf::{parse, replay, ReplayMode};
use ingo_testkit::{assert_area_margins_agree, gnugo_count};

fn gnugo_config(name: &str) -> Option<(MatchConfig, std::path::PathBuf)> {
    let gnugo = ingo_testkit::gnugo()?;
    let cmd = format!(
        "'{}' --mode gtp --level 1 --seed 1 --chinese-rules",
        gnugo.display()
    );
    let mut c = MatchConfig::new(cmd.clone(), cmd, common::out_dir(name));
    c.size = 9;
    c.time = "byoyomi:30s+3x5s".parse().expect("time control");
    Some((c, gnugo))
}

#[test]
fn gnugo_against_gnugo_on_9x9_is_counted_by_the_referee() {
    let Some((mut c, gnugo)) = gnugo_config("gnugo_game") else {
        return;
    };
    // The clock is enforced, but GNU Go is not told about it: told it has time, it raises its
    // level to use it, and the game would take half a minute.
    c.tell_time = false;
    let mut moves = 0;
    let r = play_game(&c.game_spec(1, 0), &mut |g| moves = g.move_count()).expect("the game");
    assert_eq!(r.outcome, Outcome::Decided, "{:?} {:?}", r.failure, r.notes);
    assert!(r.failure.is_none());
    assert_eq!(moves, r.game.move_count());
    assert!(moves > 20, "a real game: {moves} moves");
    assert!(
        matches!(r.game.end(), Some(GameEnd::Agreement(_) | GameEnd::Passes)),
        "{:?}",
        r.game.end()
    );
    let score = r.game.score().expect("counted");
    // The referee's count against GNU Go's own, of the same final position, no penalty points
    // (byo-yomi gives none): the dead stones the referee counted are the ones both players
    // named (GNU Go's judgement), and GNU Go judges them again for `final_score`.
    let theirs = gnugo_count(&gnugo, &r.game, "8");
    assert_area_margins_agree(
        score.margin(),
        score.shared,
        theirs.margin,
        "the referee's count",
    );
    assert_eq!(r.names.black, "GNU Go 3.8");
    assert!(r.time_used.black > std::time::Duration::ZERO);
    let text = r.sgf();
    assert!(text.contains("BL[") && text.contains("WL[") && text.contains("TM[30]"));
    assert!(text.contains("OT[3x5 byo-yomi]"));
    let record = &parse(&text).expect("parses")[0];
    let replayed = replay(record, Preset::Ing.rules(), ReplayMode::Strict).expect("replays");
    assert_eq!(replayed.game.board(), r.game.board());
}

#[test]
fn a_gnugo_match_told_the_time() {
    let Some((mut c, gnugo)) = gnugo_config("gnugo_match") else {
        return;
    };
    // Told 4 s of basic time (GNU Go knows it as absolute time), GNU Go paces itself; Ing's
    // penalty-point overtime would only cost it points, and the loss comes at 6 s.
    c.time = "ing-pp:4s".parse().expect("time control");
    let s = run_match(&c, &mut NoProgress).expect("the match");
    assert_eq!(s.counted, 1);
    let g = &s.games[0];
    assert!(g.end == EndKind::Count || g.end == EndKind::Time, "{g:?}");
    assert!(g.black_time_ms + g.white_time_ms > 0);
    if g.end == EndKind::Count {
        // The written record, replayed: its dead stones (the territory markup of its last node)
        // counted give the referee's margin, penalty points included (the record carries them).
        let text = std::fs::read_to_string(c.out_dir.join("game-0001.sgf")).expect("the SGF");
        let record = &parse(&text).expect("parses")[0];
        let replayed = replay(record, Preset::Ing.rules(), ReplayMode::Strict).expect("replays");
        let dead = record
            .dead_stones(replayed.game.board())
            .expect("a counted record marks its dead stones");
        let ours = g.margin.expect("a counted game has a margin");
        let counted = replayed.game.count(&dead);
        assert!(
            (counted.margin() - ours).abs() < f64::EPSILON,
            "the record counts {}, the referee said {ours}",
            counted.margin()
        );
        // Ing's count of the same record with the dead stones GNU Go names, against GNU Go's
        // own count of it, with the penalty points that GNU Go does not know about taken out
        // (margin = areas − komi − Black's points + White's). The referee's dead stones are
        // not compared with GNU Go's: told 4 s, GNU Go may pass far from the end on a loaded
        // machine, and where the end is open two judgements of it may differ.
        let theirs = gnugo_count(&gnugo, &replayed.game, "8");
        let penalties = f64::from(g.white_penalty) - f64::from(g.black_penalty);
        let with_theirs = replayed.game.count(&theirs.dead);
        assert_area_margins_agree(
            with_theirs.margin() - penalties,
            with_theirs.shared,
            theirs.margin,
            "the written record with GNU Go's dead stones",
        );
        if dead == theirs.dead {
            assert_area_margins_agree(
                ours - penalties,
                counted.shared,
                theirs.margin,
                "the written record",
            );
        }
    }
}
