//! Support shared by ingo's tests, used as a dev-dependency only (this crate is not published).
//!
//! A test that reads the shared corpus of real records calls [`shared_corpus`]. A test that
//! needs GNU Go calls [`gnugo`]: one lookup ([`ingo_gtp::find_gnugo`]: `$GNUGO`,
//! then `PATH`, then Debian's `/usr/games/gnugo`) and one rule for when it is missing, the same in
//! every crate.
//!
//! Why a crate of its own rather than a function in `ingo-gtp`: the lookup itself is there (the
//! `ingo-bench` binary needs it too, and binaries cannot use dev-dependencies), but the rule for a
//! missing GNU Go panics, which a library must not do on outside input. This crate depends only on
//! `ingo-gtp`, so every crate can take it as a dev-dependency without a cycle of normal
//! dependencies (`ingo-gtp`'s own tests use it through a dev-dependency, which Cargo allows).
#![deny(missing_docs)]

use std::path::PathBuf;

/// Finds GNU Go for a test. When it is missing, prints a note and returns `None` (the test then
/// returns early and passes), except under CI (the `CI` environment variable is set), where it
/// panics: a silently skipped test would hide a broken CI setup. `scripts/test` installs GNU Go
/// (`apt-get install gnugo`).
///
/// # Panics
///
/// When GNU Go is missing and `CI` is set.
#[must_use]
pub fn gnugo() -> Option<PathBuf> {
    let found = ingo_gtp::find_gnugo();
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "gnugo not found ($GNUGO, PATH, {}) and CI is set: install it (apt-get install gnugo)",
            ingo_gtp::DEBIAN_GNUGO
        );
        eprintln!(
            "note: gnugo not found ($GNUGO, PATH, {}); skipping the GNU Go test",
            ingo_gtp::DEBIAN_GNUGO
        );
    }
    found
}

/// The shared corpus of real game records (`shared/sgf-corpus`, with its `INDEX.tsv`) next to
/// the work tree: `../../../shared` from a crate of the main checkout (`manifest_dir`, the
/// test's `CARGO_MANIFEST_DIR`), one level more from a helper's worktree under `wt/`. `None`
/// when it is not there (a checkout without `shared/`): the tests that read it then skip.
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
