//! Real games: GNU Go against GNU Go on 9×9 with an enforced clock, counted by the referee, and
//! the referee's count compared with GNU Go's own.
//!
//! GNU Go is found by `ingo_testkit::gnugo`: skipped with a note when it is not installed, except
//! under CI (`CI` set), where a missing GNU Go fails.

mod common;

use std::{path::Path, time::Duration};

use ingo_gtp::{engine::EngineBuilder, protocol::parse_vertex};
use ingo_referee::{play_game, run_match, EndKind, MatchConfig, NoProgress, Outcome};
use ingo_rules::{Color, Game, GameEnd, Move, Point, Preset};
use ingo_sgf::{parse, replay, ReplayMode};

/// GNU Go's own count of a final position.
struct GnuGoCount {
    /// The margin for Black.
    margin: f64,
    /// The stones it judges dead (`final_status_list dead`).
    dead: Vec<Point>,
}

/// GNU Go's own count of `game`'s final position: a fresh GNU Go under Chinese (area) rules at
/// the players' level, told the board size and `komi` (given by the test, not read from the
/// game under test), is played the game's moves (passes included) and asked `final_score`,
/// which judges the dead stones itself and answers `B+3.0`, `W+7.0` or `0`.
fn gnugo_count(gnugo: &Path, game: &Game, komi: &str) -> GnuGoCount {
    let command = format!("'{}' --mode gtp --level 1 --chinese-rules", gnugo.display());
    let mut engine = EngineBuilder::from_command_line(&command)
        .expect("a command line")
        .spawn()
        .expect("GNU Go starts");
    let timeout = Duration::from_secs(60);
    let size = game.board().width();
    let mut send = |name: &str, args: &[&str]| {
        engine
            .send(name, args, timeout)
            .unwrap_or_else(|e| panic!("GNU Go: `{name} {}`: {e}", args.join(" ")))
            .text
    };
    send("boardsize", &[&size.to_string()]);
    send("clear_board", &[]);
    send("komi", &[komi]);
    for ply in game.history() {
        let color = match ply.color {
            Color::Black => "b",
            Color::White => "w",
        };
        send("play", &[color, &ply.mv.to_gtp(size)]);
    }
    let dead = send("final_status_list", &["dead"]);
    let score = send("final_score", &[]);
    let score = score.trim();
    let margin = if score == "0" {
        0.0
    } else {
        let (winner, margin) = score.split_once('+').expect("`B+…` or `W+…`");
        let margin: f64 = margin.parse().expect("a number of points");
        match winner {
            "B" => margin,
            "W" => -margin,
            _ => panic!("GNU Go's final_score: {score}"),
        }
    };
    let size = u8::try_from(size).expect("a board size");
    let dead = dead
        .split_whitespace()
        .map(|v| match parse_vertex(v, size) {
            Ok(Move::Play(p)) => p,
            other => panic!("GNU Go's dead stone {v:?}: {other:?}"),
        })
        .collect();
    GnuGoCount { margin, dead }
}

/// Ing's margin `ours` (penalty points taken out) against GNU Go's, for a position where Ing
/// shares `shared` points. Both are area counts: stones and the empty points surrounded by one
/// colour, with komi 8 (Ing's, article 6; this is an even game), so with no shared point the
/// margins are equal. A shared point (bordered by both colours: a dame, a seki's liberty)
/// counts for nobody under Ing's rules, while GNU Go's `final_score` may give one in a seki to
/// a side (seen: a seki with two shared points, Ing W+5, GNU Go W+4); each point so given moves
/// the margin by one, so the margins then differ by at most `shared`. Not compared: the winner
/// at a margin of 0 (Ing gives a tie to Black, `B+0`; GNU Go answers `0`).
fn assert_counts_agree(ours: f64, shared: usize, theirs: f64) {
    let shared = f64::from(u32::try_from(shared).expect("a number of points"));
    if shared == 0.0 {
        assert_eq!(ours, theirs, "Ing's margin {ours}, GNU Go's {theirs}");
    } else {
        assert!(
            (ours - theirs).abs() <= shared,
            "Ing's margin {ours}, GNU Go's {theirs}, {shared} shared points"
        );
    }
}

fn gnugo_config(name: &str) -> Option<(MatchConfig, std::path::PathBuf)> {
    let gnugo = ingo_testkit::gnugo()?;
    let cmd = format!("'{}' --mode gtp --level 1 --chinese-rules", gnugo.display());
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
    assert_counts_agree(score.margin(), score.shared, theirs.margin);
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
        // The written record, replayed, against GNU Go's count of it: the same comparison as
        // above, with the penalty points that GNU Go does not know about taken out (margin =
        // areas − komi − Black's points + White's).
        let text = std::fs::read_to_string(c.out_dir.join("game-0001.sgf")).expect("the SGF");
        let record = &parse(&text).expect("parses")[0];
        let replayed = replay(record, Preset::Ing.rules(), ReplayMode::Strict).expect("replays");
        let theirs = gnugo_count(&gnugo, &replayed.game, "8");
        let penalties = f64::from(g.white_penalty) - f64::from(g.black_penalty);
        let ours = g.margin.expect("a counted game has a margin") - penalties;
        // How many points Ing shares in the position, with the dead stones GNU Go names.
        let shared = replayed.game.count(&theirs.dead).shared;
        assert_counts_agree(ours, shared, theirs.margin);
    }
}
