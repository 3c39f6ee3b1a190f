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

/// Every `.sgf` file below `dir` (any case of the extension), sorted.
#[allow(dead_code)] // not every test binary that includes this module lists files
pub fn sgf_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}
