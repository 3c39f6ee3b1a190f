//! A match of the built-in player against GNU Go on 9×9, refereed under Ing's rules with a
//! clock: the game must complete and be counted by the referee (not ended by a forfeit, a loss
//! on time or a resignation: the player is told not to resign).
//!
//! The count is checked twice, by nothing that wrote it: `ingo judge --verify` recounts the
//! written record, and GNU Go's own `final_score` (under Chinese, area, rules) counts its final
//! position.
//!
//! GNU Go comes from Debian (`apt-get install gnugo`, installed by `scripts/test`) and is found by
//! `ingo_testkit::gnugo`; when it is missing the test fails under CI (`CI` set) and is skipped
//! elsewhere.

use std::path::Path;
use std::process::Command;

use ingo_rules::Preset;
use ingo_sgf::{parse, replay, ReplayMode};
use ingo_testkit::{assert_area_margins_agree, gnugo_count};

#[test]
fn built_in_player_against_gnu_go_is_counted_by_the_referee() {
    let Some(gnugo) = ingo_testkit::gnugo() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("ingo-match-gnugo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let ingo = env!("CARGO_BIN_EXE_ingo");
    let out = Command::new(ingo)
        .args([
            "match",
            "--black",
            &format!("{ingo} gtp --playouts 3000 --seed 5 --threads 1 --no-resign"),
            "--white",
            // GNU Go seeds its random choices from the clock unless given `--seed`: seeded, and
            // with the player on one thread, a fixed seed and a fixed number of playouts, the
            // game is the same on every run (B+1, 30 s in a debug build). At 300 playouts the
            // player lost every stone (W+89), a count with nothing left to judge.
            &format!("{} --mode gtp --level 1 --seed 1", gnugo.display()),
            "--games",
            "1",
            "--size",
            "9",
            "--time",
            "absolute:10m",
            "--out",
        ])
        .arg(&dir)
        .output()
        .expect("ingo runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let record: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("game-0001.json")).expect("the game's record"),
    )
    .expect("JSON");
    assert_eq!(record["end"], "count", "{record}");
    let sgf = std::fs::read_to_string(dir.join("game-0001.sgf")).expect("the SGF");
    assert!(sgf.contains("RU[GOE]") && sgf.contains("TM[600]"), "{sgf}");
    // The referee's record replays under Ing's rules to the same count: `ingo judge --verify`
    // reads the written SGF, replays it, judges the end of the game itself (its own dead
    // stones, not the players' agreement) and compares its count with the record's `RE`.
    let judged = Command::new(ingo)
        .args(["judge", "--verify", "--json"])
        .arg(Path::new(&dir).join("game-0001.sgf"))
        .output()
        .expect("ingo judge runs");
    let judged_out = String::from_utf8_lossy(&judged.stdout);
    assert!(
        judged.status.success(),
        "{judged_out}\n{}",
        String::from_utf8_lossy(&judged.stderr)
    );
    let line: serde_json::Value = serde_json::from_str(
        judged_out
            .lines()
            .find(|l| !l.trim().is_empty())
            .expect("a JSON line"),
    )
    .expect("JSON");
    let verify = &line["verify"];
    assert_eq!(verify["recorded"], record["result"], "{line}");
    assert_eq!(verify["agrees"], true, "{line}");
    // GNU Go's count of the same position. Comparable as margins: both are area counts (stones
    // and the empty points surrounded by one colour), with komi 8 and no penalty points
    // (absolute time gives none), and the dead stones are GNU Go's judgement on its side too
    // (the players' lists agree in this game, the SGF's comment says so). With no point that
    // Ing shares the margins are equal; a shared point (bordered by both colours) counts for
    // nobody under Ing's rules, while GNU Go may give one in a seki to a side, so they may then
    // differ by up to the number of shared points. Not compared: the winner at a margin of 0
    // (Ing gives a tie to Black, GNU Go answers `0`).
    let game = replay(
        &parse(&sgf).expect("the SGF parses")[0],
        Preset::Ing.rules(),
        ReplayMode::Strict,
    )
    .expect("the SGF replays")
    .game;
    assert!(sgf.contains(": agreed, the game ends."), "{sgf}");
    let theirs = gnugo_count(&gnugo, &game, "8");
    let shared = game.count(&theirs.dead).shared;
    let ours = record["margin"].as_f64().expect("a margin");
    assert_area_margins_agree(ours, shared, theirs.margin, &record.to_string());
    let _ = std::fs::remove_dir_all(&dir);
}
