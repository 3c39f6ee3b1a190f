//! Arbitrary text through the parsers of the short fields people type into ingo's flags, its
//! agreements, its registration lists and its server: time controls (and their SGF `TM`/`OT`
//! form), SGF times, ranks, komi, rules presets, ko and suicide rules, colours, game outcomes,
//! tournament formats, rule sets and tie-breakers. Nothing may panic, and whatever reads must
//! read back the same from the text ingo writes for it.

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
    if let Ok(tc) = s.parse::<TimeControl>() {
        let written = tc.to_string();
        assert_eq!(
            written.parse::<TimeControl>().ok(),
            Some(tc),
            "time control {s:?} written as {written:?}"
        );
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
    if let Ok(r) = s.parse::<Rank>() {
        assert_eq!(r.to_string().parse::<Rank>().ok(), Some(r), "rank {s:?}");
        assert_eq!(
            r.to_chinese().parse::<Rank>().ok(),
            Some(r),
            "rank {s:?} in Chinese"
        );
    }
    if let Ok(k) = s.parse::<Komi>() {
        assert_eq!(k.to_string().parse::<Komi>().ok(), Some(k), "komi {s:?}");
    }
    if let Ok(p) = s.parse::<Preset>() {
        assert_eq!(p.name().parse::<Preset>().ok(), Some(p), "preset {s:?}");
    }
    if let Ok(k) = s.parse::<KoRule>() {
        assert_eq!(
            k.to_string().parse::<KoRule>().ok(),
            Some(k),
            "ko rule {s:?}"
        );
    }
    if let Ok(r) = s.parse::<SuicideRule>() {
        assert_eq!(
            r.to_string().parse::<SuicideRule>().ok(),
            Some(r),
            "suicide rule {s:?}"
        );
    }
    if let Ok(c) = s.parse::<Color>() {
        assert_eq!(c.to_string().parse::<Color>().ok(), Some(c), "colour {s:?}");
    }
    if let Ok(o) = s.parse::<Outcome>() {
        let written = o.to_string();
        assert_eq!(
            written.parse::<Outcome>().ok(),
            Some(o),
            "outcome {s:?} written as {written:?}"
        );
    }
    if let Ok(f) = s.parse::<FormatKind>() {
        assert_eq!(f.name().parse::<FormatKind>().ok(), Some(f), "format {s:?}");
    }
    if let Ok(r) = s.parse::<RuleSet>() {
        assert_eq!(r.name().parse::<RuleSet>().ok(), Some(r), "rule set {s:?}");
    }
    if let Ok(t) = s.parse::<TieBreak>() {
        assert_eq!(
            t.name().parse::<TieBreak>().ok(),
            Some(t),
            "tie-break {s:?}"
        );
    }
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
