//! Finding records on disk and reading counted results, as `ingo judge` and the benchmarks do.

use std::path::PathBuf;

use ingo_rules::Color;
use walkdir::WalkDir;

/// The `.sgf` files named by `inputs`: files as given, folders searched recursively, sorted;
/// and what could not be searched or read, one line each (`path: why`).
///
/// A folder is walked whatever its name (`x.sgf/` too). Inside a folder, what cannot be read (a
/// dangling symbolic link, a link loop, a folder without permission) and `.sgf` names that are
/// not regular files (a FIFO, a device) are skipped with a warning, and the rest is
/// returned; a folder given with no `.sgf` file in it is an error, as reading nothing is not a
/// verdict (`ingo judge`).
pub fn find_sgf_files(inputs: &[PathBuf]) -> (Vec<PathBuf>, Vec<String>, Vec<(PathBuf, String)>) {
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    let mut errors = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut found: Vec<PathBuf> = Vec::new();
            for entry in WalkDir::new(input).follow_links(true) {
                let entry = match entry {
                    Ok(entry) => entry,
                    Err(e) => {
                        let path = e.path().map_or_else(
                            || input.display().to_string(),
                            |p| p.display().to_string(),
                        );
                        let why = if e.loop_ancestor().is_some() {
                            "a symbolic link loop".to_string()
                        } else {
                            e.io_error()
                                .map_or_else(|| e.to_string(), std::io::Error::to_string)
                        };
                        skipped.push(format!("{path}: skipped, cannot be read: {why}"));
                        continue;
                    }
                };
                let is_sgf = entry
                    .path()
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("sgf"));
                let kind = entry.file_type();
                if is_sgf && kind.is_file() {
                    found.push(entry.into_path());
                } else if is_sgf && !kind.is_dir() {
                    skipped.push(format!(
                        "{}: skipped, not a regular file",
                        entry.path().display()
                    ));
                }
            }
            if found.is_empty() {
                errors.push((
                    input.clone(),
                    format!(
                        "{}: a folder with no .sgf file in it (nothing to read)",
                        input.display()
                    ),
                ));
            }
            found.sort();
            files.extend(found);
        } else {
            files.push(input.clone());
        }
    }
    (files, skipped, errors)
}

/// A result that a count gives, read from SGF `RE`: `B+3`, `W+0.5`, `B+0`. `None` for a
/// resignation, a time loss, a forfeit, a draw text or anything else that is not a count.
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
    fn a_folder_is_walked_sorted_and_a_file_kept_as_given() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
        let (files, skipped, errors) = find_sgf_files(std::slice::from_ref(&dir));
        assert!(skipped.is_empty() && errors.is_empty());
        assert!(!files.is_empty());
        assert!(files.windows(2).all(|w| w[0] < w[1]));
        let one = dir.join("not-there.txt");
        assert_eq!(find_sgf_files(std::slice::from_ref(&one)).0, vec![one]);
    }
}
