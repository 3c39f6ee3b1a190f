//! Exports of an event: the SGF record of a game entered by hand, the results CSV read back,
//! the rules named in both.

use ingo_rules::{KoRule, Komi, Preset, SuicideRule};
use ingo_tournament::export;
use ingo_tournament::{Agreement, Event, Game, RuleSet};

fn event(format: &str) -> Event {
    let mut ev = Event::new(
        Agreement::from_toml(&format!(
            r#"
name = "Club [cup] 杯"
purpose = "Tests"
eligibility = "Anyone"
registration = {{ opens = "2026-01-01", closes = "2026-01-31" }}
format = {format}
handicap = {{ system = "ranks" }}
entrants = [{{ name = "Bo", rank = "1k" }}, {{ name = "Ann Lee", rank = "4d" }}, {{ name = "Cy]x", rank = "2d" }}]
"#
        ))
        .expect("agreement"),
    );
    ev.entrants = ev.agreement.entrants.clone();
    ev
}

/// The record of a game entered by hand, through ingo-sgf's writer, reads back with what the
/// hand-built writer it replaced wrote (its text for this game is below, verbatim): the
/// conditions, players, ranks, event, round, result and the forfeit's reason.
#[test]
fn a_game_entered_by_hand_has_a_record_with_its_conditions_and_result() {
    let ev = event(r#"{ kind = "swiss", rounds = 3 }"#);
    let mut g = Game::new(1, 2, "Bo", Some("Ann Lee"), 2, Komi::points(4));
    g.result = Some("W+F:absence".parse().expect("result"));
    let text = export::game_sgf(&ev, &g).expect("a game");
    let before = "(;GM[1]FF[4]CA[UTF-8]SZ[19]RU[ing]KM[4]EV[Club [cup\\] 杯]RO[1]PB[Bo]PW[Ann Lee]\
                  BR[1k]WR[4d]HA[3]RE[W+F]GC[裁定敗: 缺席 (absence)])\n";
    let new = &ingo_sgf::parse(&text).expect("sgf")[0];
    let old = &ingo_sgf::parse(before).expect("old sgf")[0];
    let mut info = new.info.clone();
    assert!(info
        .application
        .take()
        .is_some_and(|a| a.starts_with("ingo:")));
    assert_eq!(info.rules.take().as_deref(), Some("GOE"));
    let mut old_info = old.info.clone();
    old_info.rules = None;
    assert_eq!(info, old_info, "{text}");
    assert_eq!(
        (new.width, new.komi, new.handicap),
        (old.width, old.komi, old.handicap)
    );
    assert_eq!(new.rules.map(|m| m.preset), Some(Preset::Ing));
    assert_eq!(old.rules.map(|m| m.preset), Some(Preset::Ing));
    assert_eq!(new.setup().expect("setup").handicap_passes, 2);
    assert!(new.moves.is_empty());

    // A void game says so; a bye has no record.
    g.result = Some("void".parse().expect("void"));
    let text = export::game_sgf(&ev, &g).expect("a game");
    assert_eq!(
        ingo_sgf::parse(&text).expect("sgf")[0]
            .info
            .result
            .as_deref(),
        Some("Void")
    );
    assert_eq!(
        export::game_sgf(&ev, &Game::new(1, 3, "Cy]x", None, 0, Komi::points(8))),
        None
    );
}

/// An event under the EGF's Simplified Ing Rules is named so in the SGF record (`RU`) and the
/// results CSV, and its games are played with the preset of the same play rules (positional
/// superko, suicide allowed).
#[test]
fn the_simplified_ing_rules_are_named_in_the_sgf_and_the_csv() {
    let mut ev = event(r#"{ kind = "swiss", rounds = 3 }"#);
    assert_eq!(ev.agreement.ruleset, RuleSet::Preset(Preset::Ing));
    let text = ev
        .agreement
        .source
        .replace("format =", "rules = \"egf-simplified-ing\"\nformat =");
    ev.agreement = Agreement::from_toml(&text).expect("agreement");
    assert_eq!(ev.agreement.ruleset, RuleSet::SimplifiedIng);
    let rules = ev.agreement.rules.rules();
    assert_eq!(
        (rules.ko, rules.suicide),
        (KoRule::PositionalSuperko, SuicideRule::All)
    );
    let mut g = Game::new(1, 1, "Bo", Some("Ann Lee"), 0, Komi::points(8));
    g.result = Some("B+3".parse().expect("result"));
    ev.games.push(g.clone());
    let sgf = export::game_sgf(&ev, &g).expect("a game");
    assert_eq!(
        ingo_sgf::parse(&sgf).expect("sgf")[0].info.rules.as_deref(),
        Some("EGF Simplified Ing Rules"),
        "{sgf}"
    );
    let csv = export::event_results_csv(&ev).expect("csv");
    assert!(
        csv.lines()
            .any(|l| l.starts_with('#') && l.contains("the EGF's Simplified Ing Rules")),
        "{csv}"
    );
    let egf = export::egf_results(&ev);
    assert!(
        egf.lines()
            .any(|l| l.starts_with("; CM[swiss under the EGF's Simplified Ing Rules")),
        "{egf}"
    );
    let (_, games) = export::read_results_csv(&csv).expect(&csv);
    assert_eq!(games.len(), 1, "{csv}");
    let e = Agreement::from_toml(&text.replace("egf-simplified-ing", "simplified-go"))
        .expect_err("no such rules");
    assert_eq!(e.field, "rules");
    assert!(e.reason.contains("egf-simplified-ing"), "{e}");
}

/// The results CSV reads back: the same players, games and results, names with a comma or a
/// quote included, a bye as an empty opponent.
#[test]
fn the_results_csv_reads_back_with_names_that_need_quoting() {
    let mut a = Game::new(1, 1, "Lee, Ann", Some("Bo \"Kid\""), 0, Komi::points(8));
    a.result = Some("W+F:absence".parse().expect("result"));
    let mut b = Game::new(2, 1, "Bo \"Kid\"", Some("Cy"), 0, Komi::points(8));
    b.result = Some("B+3.5".parse().expect("result"));
    let games = vec![a, Game::new(1, 2, "Cy", None, 0, Komi::points(8)), b];
    let text = export::results_csv(&games).expect("csv");
    let (names, read) = export::read_results_csv(&text).expect(&text);
    assert_eq!(names, ["Lee, Ann", "Bo \"Kid\"", "Cy"], "{text}");
    assert_eq!(read, games, "{text}");
}
