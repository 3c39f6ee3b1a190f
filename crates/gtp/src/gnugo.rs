//! Where GNU Go is installed.
//!
//! GNU Go is the engine every GTP controller is first tried against, and the peer of the
//! rules' differential test and of `ingo-bench judge --peer gnugo`. One lookup serves them all, so
//! that `$GNUGO` means the same thing everywhere.

use std::{env, path::PathBuf};

/// Where Debian and Ubuntu install GNU Go (`apt-get install gnugo`): a directory that is not on
/// root's `PATH`.
pub const DEBIAN_GNUGO: &str = "/usr/games/gnugo";

/// Finds the GNU Go program: `$GNUGO` when it is set and not empty (taken as given, so that a
/// wrong value fails when GNU Go is started rather than being passed over), else the first
/// `gnugo` file in a `PATH` directory, else [`DEBIAN_GNUGO`] if it exists. `None` when none of
/// these names a program.
///
/// ```
/// if let Some(program) = ingo_gtp::find_gnugo() {
///     println!("GNU Go: {}", program.display());
/// }
/// ```
#[must_use]
pub fn find_gnugo() -> Option<PathBuf> {
    find_in(env::var_os("GNUGO"), env::var_os("PATH"))
}

/// [`find_gnugo`] with the two environment variables passed in, for tests.
fn find_in(gnugo: Option<std::ffi::OsString>, path: Option<std::ffi::OsString>) -> Option<PathBuf> {
    if let Some(program) = gnugo.filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(program));
    }
    let on_path = path
        .map(|p| env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    on_path
        .into_iter()
        .map(|dir| dir.join("gnugo"))
        .chain([PathBuf::from(DEBIAN_GNUGO)])
        .find(|candidate| candidate.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    #[test]
    fn gnugo_variable_wins_even_when_it_names_nothing() {
        let found = find_in(
            Some(OsString::from("/no/such/gnugo")),
            Some(OsString::from("/usr/bin")),
        );
        assert_eq!(found, Some(PathBuf::from("/no/such/gnugo")));
    }

    #[test]
    fn empty_gnugo_variable_is_ignored() {
        let dir = std::env::temp_dir().join(format!("ingo-gtp-find-gnugo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join("gnugo"), "").expect("fake gnugo");
        let found = find_in(Some(OsString::new()), Some(dir.clone().into_os_string()));
        assert_eq!(found, Some(dir.join("gnugo")));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn path_comes_before_the_debian_directory() {
        let dir =
            std::env::temp_dir().join(format!("ingo-gtp-find-gnugo-path-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join("gnugo"), "").expect("fake gnugo");
        let path = env::join_paths([PathBuf::from("/no/such/dir"), dir.clone()]).expect("path");
        assert_eq!(find_in(None, Some(path)), Some(dir.join("gnugo")));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn without_path_only_the_debian_directory_is_tried() {
        let expected = std::path::Path::new(DEBIAN_GNUGO)
            .is_file()
            .then(|| PathBuf::from(DEBIAN_GNUGO));
        assert_eq!(find_in(None, None), expected);
    }
}
