//! Arbitrary text through the readers of the files a tournament director and a player's author
//! hand to ingo: a registration list (CSV), a results file (CSV), an event agreement (TOML) and
//! the player's pattern weights. Nothing may panic; a results file that reads is written and
//! read back with the same games, and pattern weights that read are written, read and written
//! again as the same text.

use ingo_player::patterns::Patterns;
use ingo_tournament::export::{read_results_csv, results_csv};
use ingo_tournament::registration::read_registration_csv;
use ingo_tournament::Agreement;

/// The target's body: runs one input, and panics when a check fails.
pub fn run(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = read_registration_csv(&text);
    let _ = Agreement::from_toml(&text);
    if let Ok((_, games)) = read_results_csv(&text) {
        if let Ok(written) = results_csv(&games) {
            let again = read_results_csv(&written);
            assert_eq!(
                again.as_ref().map(|(_, g)| g),
                Ok(&games),
                "results {text:?} written as {written:?}"
            );
        }
    }
    // The weights are written with four significant digits (`Patterns::to_text`), so what
    // reads back is the written text, not every digit that was read.
    if let Ok(p) = Patterns::parse(&text) {
        let written = p.to_text();
        let again = Patterns::parse(&written).map(|q| q.to_text());
        assert_eq!(
            again.as_ref(),
            Ok(&written),
            "patterns written as {written:?}"
        );
    }
}
