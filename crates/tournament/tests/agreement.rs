//! The agreement (賽約): complete ones are read, incomplete or inconsistent ones refused with
//! the field and the reason.

use ingo_tournament::{Agreement, FormatKind, HandicapSystem, TieBreak};

const BASE: &str = r#"
name = "Ing Cup club edition"
purpose = "Promote Ing's rules"
eligibility = "Club members"
registration = { opens = "2026-01-01", closes = "2026-01-31" }
"#;

fn field_of(text: &str) -> String {
    Agreement::from_toml(text).expect_err("refused").field
}

#[test]
fn a_complete_agreement_is_read_with_the_defaults() {
    let a = Agreement::from_toml(&format!(
        "{BASE}format = {{ kind = \"swiss\", rounds = 5 }}\n"
    ))
    .expect("ok");
    assert_eq!(a.format.kind, FormatKind::Swiss);
    assert_eq!(a.format.rounds, 5);
    assert_eq!(a.handicap, HandicapSystem::Even);
    assert_eq!(a.komi.to_string(), "8");
    assert_eq!(
        a.time.to_string(),
        "ing-pp:3h"
            .parse::<ingo_clock::TimeControl>()
            .expect("tc")
            .to_string()
    );
    assert_eq!(a.allowed_absences, 1);
    assert_eq!(
        a.scoring.tie_breakers,
        [TieBreak::A1, TieBreak::A2, TieBreak::B1, TieBreak::B2]
    );
    assert_eq!(a.scoring.bye_main, 1);
}

#[test]
fn ten_game_defaults_are_margin_four_and_half_a_sente() {
    let a =
        Agreement::from_toml(&format!("{BASE}format = {{ kind = \"十局升降制\" }}\n")).expect("ok");
    assert_eq!(
        (a.format.games, a.format.margin, a.format.grade),
        (10, 4, 4)
    );
}

#[test]
fn missing_items_of_article_5_are_named() {
    assert_eq!(field_of("purpose = \"x\"\n"), "name");
    assert_eq!(
        field_of(&BASE.replace("eligibility = \"Club members\"", "")),
        "eligibility"
    );
    assert_eq!(field_of(BASE), "format");
    assert_eq!(
        field_of(&format!("{BASE}format = {{ kind = \"swiss\" }}")),
        "format.rounds"
    );
}

#[test]
fn inconsistent_agreements_are_refused_with_the_reason() {
    let e = Agreement::from_toml(&format!(
        "{BASE}format = {{ kind = \"round-robin\", rounds = 3 }}"
    ))
    .expect_err("rounds");
    assert_eq!(e.field, "format.rounds");
    assert!(e.reason.contains("only for swiss"), "{e}");
    assert_eq!(
        field_of(&format!(
            "{BASE}format = {{ kind = \"ten-game\", games = 3, margin = 4 }}"
        )),
        "format.margin"
    );
    assert_eq!(
        field_of(
            &(BASE.replace("closes = \"2026-01-31\"", "closes = \"2025-12-31\"")
                + "format = { kind = \"knockout\" }")
        ),
        "registration.closes"
    );
    assert_eq!(field_of(&format!("{BASE}format = {{ kind = \"round-robin\" }}\nscoring = {{ tie_breakers = [\"A1\", \"SOS\"] }}")), "scoring.tie_breakers[1]");
    assert_eq!(field_of(&format!("{BASE}format = {{ kind = \"swiss\", rounds = 2 }}\nscoring = {{ tie_breakers = [\"A1\", \"A1\"] }}")), "scoring.tie_breakers[1]");
    assert_eq!(
        field_of(&format!(
            "{BASE}format = {{ kind = \"round-robin\" }}\ntime = {{ control = \"fortnight\" }}"
        )),
        "time.control"
    );
    assert_eq!(field_of(&format!("{BASE}format = {{ kind = \"round-robin\" }}\nhandicap = {{ system = \"ranks\" }}\nentrants = [{{ name = \"A\" }}]")), "entrants");
    assert_eq!(field_of(&format!("{BASE}format = {{ kind = \"round-robin\" }}\nentrants = [{{ name = \"A\", rank = \"12d\" }}]")), "entrants[0].rank");
    assert_eq!(field_of(&format!("{BASE}format = {{ kind = \"round-robin\" }}\nentrants = [{{ name = \"A\", kind = \"pair\", members = [{{ name = \"a\" }}] }}]")), "entrants[0].members");
    assert_eq!(
        field_of(&format!(
            "{BASE}format = {{ kind = \"leitai\" }}\nentrants = [{{ name = \"A\" }}]"
        )),
        "entrants"
    );
    assert_eq!(
        field_of(&format!(
            "{BASE}format = {{ kind = \"round-robin\" }}\nrounds = 3"
        )),
        "rounds"
    );
}

#[test]
fn ing_selection_is_refused_as_undefined() {
    let e = Agreement::from_toml(&format!("{BASE}format = {{ kind = \"應氏選擇制\" }}"))
        .expect_err("undefined");
    assert_eq!(e.field, "format.kind");
    assert!(e.reason.contains("defined in no known source"), "{e}");
}

#[test]
fn pairs_and_consultation_teams_are_entrants() {
    let a = Agreement::from_toml(&format!(
        "{BASE}format = {{ kind = \"round-robin\" }}\nentrants = [\
         {{ name = \"P\", kind = \"pair\", members = [{{ name = \"p1\" }}, {{ name = \"p2\" }}] }},\
         {{ name = \"C\", kind = \"商談聯棋\", members = [{{ name = \"c1\" }}, {{ name = \"c2\" }}, {{ name = \"c3\" }}] }}]"
    ))
    .expect("ok");
    let pair = &a.entrants[0];
    // 聯棋: the two members of a side move in turn: B1 W1 B2 W2, so a side's turns 0, 1, 2
    // are played by members 1, 2, 1.
    let movers: Vec<&str> = (0..3)
        .map(|t| pair.mover(t).map_or("", |m| m.name.as_str()))
        .collect();
    assert_eq!(movers, ["p1", "p2", "p1"]);
    // 商談聯棋: the side confers, one move a turn: no single mover.
    assert!(a.entrants[1].mover(0).is_none());
}
