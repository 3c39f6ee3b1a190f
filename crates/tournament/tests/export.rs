//! Exports of an event: the SGF record of a game entered by hand, the results CSV read back,
//! the EGF results file's refusal of formats it does not describe.

use ingo_rules::{Komi, Preset};
use ingo_tournament::export::{self, ExportError};
use ingo_tournament::{Agreement, Event, FormatKind, Game};

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

#[test]
fn the_egf_file_is_refused_for_a_round_robin() {
    let ev = event(r#"{ kind = "round-robin" }"#);
    assert_eq!(
        export::egf_results(&ev),
        Err(ExportError::EgfFormat(FormatKind::RoundRobin))
    );
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
