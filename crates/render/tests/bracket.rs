//! The knockout bracket picture: rounds as columns, the side that went on in bold, a bye
//! marked, the rounds to come as empty boxes, names escaped, the winner at the right; and a
//! PNG of it.

use ingo_render::{bracket_png, bracket_svg};
use ingo_tournament::bracket::Bracket;
use ingo_tournament::{Agreement, Event};

fn event(names: &[&str]) -> Event {
    let entrants: Vec<String> = names
        .iter()
        .map(|n| format!("{{ name = \"{n}\" }}"))
        .collect();
    let mut ev = Event::new(
        Agreement::from_toml(&format!(
            r#"
name = "Cup <&>"
purpose = "Tests"
eligibility = "Anyone"
registration = {{ opens = "2026-01-01", closes = "2026-01-31" }}
format = {{ kind = "knockout" }}
entrants = [{}]
"#,
            entrants.join(", ")
        ))
        .expect("agreement"),
    );
    ev.games = ev.draw().expect("draw");
    ev
}

/// The higher seed (earlier in the list) wins every game of round `round`.
fn seeds_win(ev: &mut Event, round: u32) {
    for g in ev
        .games
        .clone()
        .iter()
        .filter(|g| g.round == round && !g.is_bye())
    {
        let seed = |n: &str| ev.entrants.iter().position(|e| e.name == n);
        let black_wins = seed(&g.black) < seed(g.white.as_deref().expect("game"));
        ev.enter(
            round,
            g.board,
            if black_wins { "B+R" } else { "W+R" }.parse().expect("r"),
        )
        .expect("enter");
    }
}

#[test]
fn a_five_player_bracket_shows_byes_results_and_the_winner() {
    let mut ev = event(&["Ann", "Bo<b>", "Cy", "Di", "Ed"]);
    seeds_win(&mut ev, 1);
    let b = Bracket::new(&ev).expect("bracket");
    // A bracket of 8: four pairings (three byes), then two, then the final to come.
    assert_eq!(b.rounds.iter().map(Vec::len).collect::<Vec<_>>(), [4, 2, 1]);
    assert_eq!(
        b.rounds[0]
            .iter()
            .filter(|m| m.players[1].is_none())
            .count(),
        3
    );
    assert!(b.rounds[1].iter().all(|m| m.players == [None, None]));
    let svg = bracket_svg(&b);
    assert!(
        svg.contains("Cup &lt;&amp;&gt;") && svg.contains("Bo&lt;b&gt;"),
        "{svg}"
    );
    assert!(!svg.contains("Bo<b>"), "{svg}");
    assert_eq!(svg.matches(">bye</text>").count(), 3, "{svg}");
    assert!(svg.contains(">final</text>"), "{svg}");
    // Di (seed 4) beat Ed (seed 5): Di in bold, the result shown.
    let line = |text: &str| {
        svg.lines()
            .find(|l| l.contains(&format!("</tspan>{text}</text>")))
            .unwrap_or_else(|| panic!("no {text}: {svg}"))
            .to_owned()
    };
    assert!(
        line("Di").contains("font-weight=\"bold\""),
        "{}",
        line("Di")
    );
    assert!(!line("Ed").contains("font-weight"), "{}", line("Ed"));
    assert!(
        svg.contains(">B+R</text>") || svg.contains(">W+R</text>"),
        "{svg}"
    );

    for round in 2..=3 {
        let next = ev.pair_next().expect("next round");
        ev.games.extend(next);
        seeds_win(&mut ev, round);
    }
    let b = Bracket::new(&ev).expect("bracket");
    assert_eq!(b.champion(), Some("Ann"));
    let svg = bracket_svg(&b);
    assert!(svg.contains("fill=\"#fff6d5\""), "the winner's box: {svg}");
    assert!(b.text().ends_with("winner: Ann\n"), "{}", b.text());
    let png = bracket_png(&b).expect("png");
    assert_eq!(&png[1..4], b"PNG");
}

#[test]
fn only_a_drawn_knockout_has_a_bracket() {
    let mut ev = event(&["Ann", "Bo"]);
    ev.games.clear();
    assert!(Bracket::new(&ev).is_err());
    ev.agreement.format.kind = ingo_tournament::FormatKind::Swiss;
    assert!(Bracket::new(&ev)
        .expect_err("swiss")
        .to_string()
        .contains("not a swiss"));
}

/// A double knockout of five: each player's box in each round, the unbeaten above the
/// once-beaten and the final below, a dashed line for each player who lost and dropped to
/// the once-beaten, and the winner's box.
#[test]
fn a_double_knockout_is_drawn_by_losses() {
    let mut ev = event(&["Ann", "Bo", "Cy", "Di", "Ed"]);
    ev.agreement.format.kind = ingo_tournament::FormatKind::DoubleKnockout;
    ev.games.clear();
    ev.games = ev.draw().expect("draw");
    let mut round = 1;
    loop {
        seeds_win(&mut ev, round);
        match ev.pair_next() {
            Ok(next) => ev.games.extend(next),
            Err(_) => break,
        }
        round += 1;
    }
    let b = Bracket::new(&ev).expect("bracket");
    assert!(b.double);
    assert_eq!(b.champion(), Some("Ann"));
    let svg = bracket_svg(&b);
    for label in [">unbeaten</text>", ">once beaten</text>", ">final</text>"] {
        assert!(svg.contains(label), "{label}: {svg}");
    }
    // A box a pairing of every round and section.
    let boxes = b
        .rounds
        .iter()
        .chain(&b.losers)
        .map(Vec::len)
        .sum::<usize>()
        + b.finals.len();
    assert_eq!(svg.matches("fill=\"#fafafa\"").count(), boxes, "{svg}");
    // Each loss of a player still in the event is a dashed line to the next round.
    let drops = ev
        .games
        .iter()
        .filter(|g| {
            g.winner_loser()
                .is_some_and(|(_, l)| ev.games.iter().any(|x| x.round == g.round + 1 && x.has(l)))
        })
        .count();
    assert_eq!(svg.matches("stroke-dasharray").count(), drops, "{svg}");
    assert!(svg.contains("fill=\"#fff6d5\""), "the winner's box: {svg}");
    let png = bracket_png(&b).expect("png");
    assert_eq!(&png[1..4], b"PNG");
}
