//! Support shared by ingo's tests, used as a dev-dependency only (this crate is not published).
//!
//! One rule for a test whose dependency is missing ([`missing`]): under CI ([`under_ci`]: the
//! `CI` environment variable set, as `.ci/run` does with `CI=1`) the test fails, naming what is
//! missing and how `scripts/test` installs it; elsewhere it prints a note and the caller returns
//! early. No other variable skips a test. The dependencies: GNU Go ([`gnugo`]: one lookup,
//! [`ingo_gtp::find_gnugo`]: `$GNUGO`, then `PATH`, then Debian's `/usr/games/gnugo`), the shared
//! corpus of real records ([`corpus`]), sgfmill ([`sgfmill`]) and Chromium with chromedriver
//! ([`chromium`]).
//!
//! It also holds GNU Go's own count of a final position ([`gnugo_count`],
//! [`assert_area_margins_agree`]), the check of ingo's count by a program that shares none of
//! its code.
//!
//! Why a crate of its own rather than a function in `ingo-gtp`: the lookup itself is there (the
//! `ingo-bench` binary needs it too, and binaries cannot use dev-dependencies), but the rule for a
//! missing GNU Go panics, which a library must not do on outside input. This crate depends only on
//! `ingo-gtp`, so every crate can take it as a dev-dependency without a cycle of normal
//! dependencies (`ingo-gtp`'s own tests use it through a dev-dependency, which Cargo allows).
#![deny(missing_docs)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use ingo_gtp::{engine::EngineBuilder, protocol::parse_vertex};
use ingo_rules::{Color, Game, Move, Point};

/// Whether the tests run under CI: the `CI` environment variable is set to anything but the
/// empty string, `0` or `false` (`.ci/run` exports `CI=1`; CI runners set `CI=true`).
#[must_use]
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

/// A dependency of a test is missing: under CI this fails the test with `what` and `install`
/// (a silently skipped test would hide a broken CI set-up); elsewhere it prints a note, and the
/// caller returns early.
///
/// # Panics
///
/// Under CI ([`under_ci`]).
pub fn missing(what: &str, install: &str) {
    assert!(
        !under_ci(),
        "{what} is missing and CI is set: {install} (scripts/test does this)"
    );
    eprintln!("note: {what} is missing; the test is skipped ({install})");
}

/// Finds GNU Go for a test, or `None` under the rule of [`missing`]. `scripts/test` installs it
/// (`apt-get install gnugo`).
///
/// # Panics
///
/// When GNU Go is missing under CI.
#[must_use]
pub fn gnugo() -> Option<PathBuf> {
    let found = ingo_gtp::find_gnugo();
    if found.is_none() {
        missing(
            &format!("gnugo ($GNUGO, PATH, {})", ingo_gtp::DEBIAN_GNUGO),
            "apt-get install gnugo",
        );
    }
    found
}

/// The shared corpus for a test ([`shared_corpus`]), or `None` under the rule of [`missing`].
///
/// # Panics
///
/// When the corpus is missing under CI.
#[must_use]
pub fn corpus(manifest_dir: &std::path::Path) -> Option<PathBuf> {
    let found = shared_corpus(manifest_dir);
    if found.is_none() {
        missing(
            "the shared corpus (shared/sgf-corpus/INDEX.tsv next to the work tree)",
            "check out the project with its shared/ folder beside it",
        );
    }
    found
}

/// Whether `python3` can import sgfmill, the SGF cross-check; `false` under the rule of
/// [`missing`].
///
/// # Panics
///
/// When sgfmill is missing under CI.
#[must_use]
pub fn sgfmill() -> bool {
    let ok = std::process::Command::new("python3")
        .args(["-c", "import sgfmill"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        missing("python3 with sgfmill", "python3 -m pip install sgfmill");
    }
    ok
}

/// Debian's Chromium and its driver, as the browser tests drive them.
pub const CHROMIUM: &str = "/usr/bin/chromium";
/// See [`CHROMIUM`].
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Whether [`CHROMIUM`] and [`CHROMEDRIVER`] are installed; `false` under the rule of
/// [`missing`].
///
/// # Panics
///
/// When either is missing under CI.
#[must_use]
pub fn chromium() -> bool {
    let ok = [CHROMIUM, CHROMEDRIVER]
        .iter()
        .all(|p| std::path::Path::new(p).is_file());
    if !ok {
        missing(
            &format!("{CHROMIUM} or {CHROMEDRIVER}"),
            "apt-get install chromium chromium-driver fonts-wqy-microhei",
        );
    }
    ok
}

/// The shared corpus of real game records (`shared/sgf-corpus`, with its `INDEX.tsv`) next to
/// the work tree: `../../../shared` from a crate of the main checkout (`manifest_dir`, the
/// test's `CARGO_MANIFEST_DIR`), one level more from a helper's worktree under `wt/`. `None`
/// when it is not there (a checkout without `shared/`); a test asks through [`corpus`], which
/// applies the rule of [`missing`].
#[must_use]
pub fn shared_corpus(manifest_dir: &std::path::Path) -> Option<PathBuf> {
    [
        "../../../shared/sgf-corpus",
        "../../../../shared/sgf-corpus",
    ]
    .iter()
    .map(|rel| manifest_dir.join(rel))
    .find(|d| d.join("INDEX.tsv").is_file())
}

/// GNU Go's own count of a final position ([`gnugo_count`]).
#[derive(Clone, Debug, PartialEq)]
pub struct GnuGoCount {
    /// The margin for Black.
    pub margin: f64,
    /// The stones it judges dead (`final_status_list dead`), in order.
    pub dead: Vec<Point>,
}

/// GNU Go's own count of `game`'s final position, a check of a count made by nothing of ingo's:
/// a fresh GNU Go (`gnugo`, as [`gnugo`] finds it) under Chinese (area) rules at level 1, told
/// the board size and `komi` (given by the test, not read from the game under test), is played
/// the game's moves (passes included) and asked `final_score`, which judges the dead stones
/// itself and answers `B+3.0`, `W+7.0` or `0`.
///
/// # Panics
///
/// When GNU Go does not start or answers something else than GTP's success with a score.
#[must_use]
pub fn gnugo_count(gnugo: &Path, game: &Game, komi: &str) -> GnuGoCount {
    let command = format!(
        "'{}' --mode gtp --level 1 --seed 1 --chinese-rules",
        gnugo.display()
    );
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
    let mut dead = dead
        .split_whitespace()
        .map(|v| match parse_vertex(v, size) {
            Ok(Move::Play(p)) => p,
            other => panic!("GNU Go's dead stone {v:?}: {other:?}"),
        })
        .collect::<Vec<_>>();
    dead.sort();
    GnuGoCount { margin, dead }
}

/// Asserts that Ing's margin `ours` (penalty points taken out) agrees with GNU Go's `theirs`
/// ([`gnugo_count`]) for a position where Ing shares `shared` points. Both are area counts:
/// stones and the empty points surrounded by one colour, with the same komi, so with no shared
/// point the margins are equal. A shared point (bordered by both colours: a dame, a seki's
/// liberty) counts for nobody under Ing's rules, while GNU Go's `final_score` may give one in a
/// seki to a side (seen: a seki with two shared points, Ing W+5, GNU Go W+4); each point so
/// given moves the margin by one, so the margins then differ by at most `shared`. Not compared:
/// the winner at a margin of 0 (Ing gives a tie to Black, `B+0`; GNU Go answers `0`).
///
/// # Panics
///
/// When they disagree, naming both and `context`.
pub fn assert_area_margins_agree(ours: f64, shared: usize, theirs: f64, context: &str) {
    let shared = f64::from(u32::try_from(shared).expect("a number of points"));
    if shared == 0.0 {
        assert!(
            (ours - theirs).abs() < f64::EPSILON,
            "Ing's margin {ours}, GNU Go's {theirs}: {context}"
        );
    } else {
        assert!(
            (ours - theirs).abs() <= shared,
            "Ing's margin {ours}, GNU Go's {theirs}, {shared} shared points: {context}"
        );
    }
}
