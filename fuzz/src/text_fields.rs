//! Arbitrary text through the parsers of the short fields people type into ingo's flags, its
//! agreements, its registration lists and its server: time controls (and their SGF `TM`/`OT`
//! form), SGF times, ranks, komi, rules presets, ko and suicide rules, colours, game outcomes,
//! tournament formats, rule sets and tie-breakers. Nothing may panic, and whatever reads must
//! read back the same from the text ingo writes for it.

use std::fmt::Debug;
use std::str::FromStr;
use std::time::Duration;

use ingo_clock::{parse_sgf_real, sgf_ot, sgf_real, sgf_tm, TimeControl};
use ingo_competition::Rank;
use ingo_rules::{Color, KoRule, Komi, Preset, SuicideRule};
use ingo_tournament::{FormatKind, Outcome, RuleSet, TieBreak};

/// The target's body: runs one input, and panics when a check fails.
pub fn run(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    fields(&text);
    // The same parsers on each line alone, as a flag or a CSV field gives them.
    if text.contains('\n') {
        for line in text.lines() {
            fields(line);
        }
    }
    // The SGF pair: `TM` before the first newline, `OT` after it.
    let (tm, ot) = match text.split_once('\n') {
        Some((tm, ot)) => (tm, Some(ot)),
        None => (&*text, None),
    };
    if let Some(tc) = TimeControl::from_sgf(Some(tm), ot) {
        sgf_round_trip(&tc);
    }
}

/// Every field parser on `s`, each checked to read back what it wrote.
fn fields(s: &str) {
    if let Some(tc) = reads_back::<TimeControl>(s, "time control", TimeControl::to_string) {
        sgf_round_trip(&tc);
    }
    if let Some(d) = parse_sgf_real(s) {
        let written = sgf_real(d);
        let millis = Duration::new(d.as_secs(), d.subsec_millis() * 1_000_000);
        assert_eq!(
            parse_sgf_real(&written),
            Some(millis),
            "SGF time {s:?} written as {written:?}"
        );
    }
    reads_back::<Rank>(s, "rank", Rank::to_string);
    reads_back::<Rank>(s, "rank in Chinese", |r| r.to_chinese());
    reads_back::<Komi>(s, "komi", Komi::to_string);
    reads_back::<Preset>(s, "preset", |v| v.name().to_owned());
    reads_back::<KoRule>(s, "ko rule", KoRule::to_string);
    reads_back::<SuicideRule>(s, "suicide rule", SuicideRule::to_string);
    reads_back::<Color>(s, "colour", Color::to_string);
    reads_back::<Outcome>(s, "outcome", Outcome::to_string);
    reads_back::<FormatKind>(s, "format", |v| v.name().to_owned());
    reads_back::<RuleSet>(s, "rule set", |v| v.name().to_owned());
    reads_back::<TieBreak>(s, "tie-break", |v| v.name().to_owned());
}

/// When `s` reads as a `T` (a `what`), the text `write` makes of it reads back as the same
/// value; that value.
fn reads_back<T: FromStr + PartialEq + Debug>(
    s: &str,
    what: &str,
    write: impl Fn(&T) -> String,
) -> Option<T> {
    let v = s.parse::<T>().ok()?;
    let written = write(&v);
    assert_eq!(
        written.parse::<T>().ok().as_ref(),
        Some(&v),
        "{what} {s:?} written as {written:?}"
    );
    Some(v)
}

/// A time control written as SGF `TM`/`OT` reads back as the same control.
fn sgf_round_trip(tc: &TimeControl) {
    let Some(tm) = sgf_tm(tc) else {
        return;
    };
    let ot = sgf_ot(tc);
    assert_eq!(
        TimeControl::from_sgf(Some(&tm), ot.as_deref()),
        Some(*tc),
        "time control {tc} written to SGF as TM[{tm}] OT[{ot:?}]"
    );
}
