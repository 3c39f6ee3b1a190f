//! A match of the built-in player against GNU Go on 9×9, refereed under Ing's rules with a
//! clock: the game must complete and be counted by the referee (not ended by a forfeit, a loss
//! on time or a resignation: the player is told not to resign).
//!
//! GNU Go comes from Debian (`apt-get install gnugo`, installed by `scripts/test`) and is found by
//! `ingo_testkit::gnugo`; when it is missing the test fails under CI (`CI` set) and is skipped
//! elsewhere.

use std::path::Path;
use std::process::Command;

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
            &format!("{ingo} gtp --playouts 300 --seed 5 --no-resign"),
            "--white",
            &format!("{} --mode gtp --level 1", gnugo.display()),
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
    // The referee's record replays under Ing's rules to the same count.
    let judged = Command::new(ingo)
        .args(["judge", "--json"])
        .arg(Path::new(&dir).join("game-0001.sgf"))
        .output()
        .expect("ingo judge runs");
    assert!(judged.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}
