//! What the benchmarks read from a corpus: its `.sgf` files and the counted results of `RE`.
//!
//! `ingo judge` walks folders the same way (`crates/cli/src/judge.rs`, `find_files`) and reads
//! `RE` the same way (`crates/cli/src/verify.rs`, `counted_result`); the bench suite keeps its own
//! copies because a binary crate cannot import another's modules. The test below pins the `RE`
//! reading to the same cases as the judge's test.

use std::path::{Path, PathBuf};

use ingo_rules::Color;
use walkdir::WalkDir;

/// The `.sgf` files of `input`: a file as given, a folder searched recursively (following symbolic
/// links, any letter case of `.sgf`), sorted. What cannot be read, and `.sgf` names that are not
/// regular files, are left out, as `ingo judge` skips them (a benchmark times what can be judged).
pub fn sgf_files(input: &Path) -> Vec<PathBuf> {
    if !input.is_dir() {
        return vec![input.to_path_buf()];
    }
    let mut found: Vec<PathBuf> = WalkDir::new(input)
        .follow_links(true)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_type().is_file()
                && e.path()
                    .extension()
                    .is_some_and(|x| x.eq_ignore_ascii_case("sgf"))
        })
        .map(walkdir::DirEntry::into_path)
        .collect();
    found.sort();
    found
}

/// A result that a count gives, read from SGF `RE` (or GNU Go's `final_score`): `B+3`, `W+0.5`,
/// `B+0`, as the winner and the margin in half points. `None` for a resignation, a time loss, a
/// forfeit, a draw text or anything else that is not a count.
pub fn counted_result(re: &str) -> Option<(Color, i32)> {
    let (who, margin) = re.trim().split_once('+')?;
    let color = match who.trim() {
        "B" | "b" => Color::Black,
        "W" | "w" => Color::White,
        _ => return None,
    };
    let m: f64 = margin.trim().parse().ok()?;
    if !m.is_finite() || m < 0.0 || (m * 2.0).fract() != 0.0 || m > 1000.0 {
        return None;
    }
    Some((color, (m * 2.0) as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counted_results_are_read_and_others_are_not() {
        assert_eq!(counted_result("B+3"), Some((Color::Black, 6)));
        assert_eq!(counted_result("W+0.5"), Some((Color::White, 1)));
        assert_eq!(counted_result("B+0"), Some((Color::Black, 0)));
        for re in [
            "B+R", "W+T", "W+Resign", "0", "Void", "B+", "+3", "B+-2", "B+1.25", "B+inf",
        ] {
            assert_eq!(counted_result(re), None, "{re}");
        }
    }

    #[test]
    fn sgf_files_of_a_folder_are_sorted_and_only_sgf() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bench");
        let files = sgf_files(&dir);
        assert_eq!(files, vec![dir.join("short_19x19.sgf")]);
        let one = dir.join("INDEX.tsv");
        assert_eq!(sgf_files(&one), vec![one]);
    }
}
