//! The crosstable picture: one row a player in rank order, results coloured, names escaped,
//! and a PNG of it.

use ingo_render::{crosstable_png, crosstable_svg};
use ingo_tournament::crosstable::Crosstable;
use ingo_tournament::{Agreement, Event};

fn event() -> Event {
    let mut ev = Event::new(
        Agreement::from_toml(
            r#"
name = "Cup <&>"
purpose = "Tests"
eligibility = "Anyone"
registration = { opens = "2026-01-01", closes = "2026-01-31" }
format = { kind = "round-robin" }
entrants = [{ name = "Ann" }, { name = "Bo<b>" }]
"#,
        )
        .expect("agreement"),
    );
    ev.entrants = ev.agreement.entrants.clone();
    ev.games = ev.draw().expect("draw");
    let g = &ev.games[0];
    let (round, board) = (g.round, g.board);
    let black = g.black.clone();
    ev.enter(round, board, "B+F:absence".parse().expect("result"))
        .expect("enter");
    assert_eq!(ev.standings()[0].player, black);
    ev
}

#[test]
fn the_winner_is_first_with_a_green_win_and_names_are_escaped() {
    let ct = Crosstable::new(&event());
    assert_eq!(ct.cells[0][1], "+b!");
    assert_eq!(ct.cells[1][0], "-w!");
    let svg = crosstable_svg(&ct);
    assert!(svg.contains("Cup &lt;&amp;&gt;"), "{svg}");
    assert!(svg.contains("Bo&lt;b&gt;"), "{svg}");
    assert!(!svg.contains("Bo<b>"), "{svg}");
    // Row 1 (the winner) has its win in green, row 2 its loss in red.
    let cell = |text: &str| {
        svg.lines()
            .find(|l| l.ends_with(&format!(">{text}</text>")))
            .unwrap_or_else(|| panic!("no cell {text}: {svg}"))
            .to_owned()
    };
    assert!(cell("+b!").contains("fill=\"#006600\""));
    assert!(cell("-w!").contains("fill=\"#990000\""));
    let png = crosstable_png(&ct).expect("png");
    assert_eq!(&png[1..4], b"PNG");
}
