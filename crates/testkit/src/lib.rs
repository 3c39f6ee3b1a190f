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
//! Why a crate of its own rather than a function in `ingo-gtp`: the lookup itself is there (the
//! `ingo-bench` binary needs it too, and binaries cannot use dev-dependencies), but the rule for a
//! missing GNU Go panics, which a library must not do on outside input. This crate depends only on
//! `ingo-gtp`, so every crate can take it as a dev-dependency without a cycle of normal
//! dependencies (`ingo-gtp`'s own tests use it through a dev-dependency, which Cargo allows).
#![deny(missing_docs)]

use std::path::PathBuf;

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
