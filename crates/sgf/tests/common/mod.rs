//! Helpers shared by the integration tests of `ingo-sgf`.

use std::path::{Path, PathBuf};

/// `shared/sgf-corpus/`, three levels above this crate.
pub fn corpus_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/sgf-corpus");
    assert!(
        dir.join("INDEX.tsv").is_file(),
        "the SGF corpus is missing: expected {} (with INDEX.tsv) next to the work tree",
        dir.display()
    );
    dir
}
