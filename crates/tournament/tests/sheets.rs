//! What a director prints: the pairing sheet and result slips of a round, the wall list, the
//! crosstable in round order, and where a 擂台制 or 十局升降制 match stands.

use ingo_tournament::crosstable::RoundCrosstable;
use ingo_tournament::sheets::{match_state, pairing_sheet, result_slips, wall_list, SheetError};
use ingo_tournament::{Agreement, Event};

fn event(format: &str, rest: &str) -> Event {
    Event::new(
        Agreement::from_toml(&format!(
            "name = \"Club <cup> & co\"\npurpose = \"Tests\"\neligibility = \"Anyone\"\n\
             registration = {{ opens = \"2026-01-01\", closes = \"2026-01-31\" }}\n\
             format = {format}\n{rest}\n"
        ))
        .expect("agreement"),
    )
}

fn enter(ev: &mut Event, round: u32, board: u32, result: &str) {
    ev.enter(round, board, result.parse().expect("result"))
        .expect("enter");
}

fn pair(ev: &mut Event) {
    let games = ev.pair_next().expect("pair");
    ev.games.extend(games);
}

const FIVE: &str = r#"entrants = [{ name = "Ann & <Bo>", rank = "4d", club = "Brno" }, { name = "Cy", rank = "1k" }, { name = "Dee", rank = "2d" }, { name = "Eve", rank = "3k" }, { name = "Fay", rank = "5d" }]"#;

/// The pairing sheet: a row a board with both players, ranks, the score they were paired on,
/// the conditions and the result once entered (an empty box before), the bye below; names
/// escaped; the page set for A4 and for print.
#[test]
fn the_pairing_sheet_lists_every_board_and_the_bye() {
    let mut ev = event(r#"{ kind = "swiss", rounds = 3 }"#, FIVE);
    assert_eq!(pairing_sheet(&ev, 1), Err(SheetError::NotPaired(1)));
    pair(&mut ev);
    enter(&mut ev, 1, 1, "B+R");
    let html = pairing_sheet(&ev, 1).expect("sheet");
    assert!(html.contains("@page { size: A4"), "{html}");
    assert!(html.contains("@media print"), "{html}");
    assert!(
        html.contains("Club &lt;cup&gt; &amp; co — round 1"),
        "{html}"
    );
    assert!(!html.contains("<Bo>"), "names are escaped: {html}");
    let rows = html.matches("<tr><td class=\"n\">").count();
    let games = ev.games.iter().filter(|g| !g.is_bye()).count();
    assert_eq!(rows, games, "{html}");
    for g in ev.games.iter().filter(|g| !g.is_bye()) {
        let name = |n: &str| {
            n.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        };
        let row = format!(
            "<tr><td class=\"n\">{}</td><td>{}</td>",
            g.board,
            name(&g.black)
        );
        assert!(html.contains(&row), "{row}: {html}");
        let result = g.result.map(|o| o.to_string()).unwrap_or_default();
        assert!(
            html.contains(&format!("<td class=\"c fill\">{result}</td></tr>")),
            "{html}"
        );
    }
    let bye = ev.games.iter().find(|g| g.is_bye()).expect("a bye");
    assert!(
        html.contains(&format!("Bye: <b>{}</b>", bye.black)),
        "{html}"
    );
    // Round 2 is paired on the scores after round 1: the winner of board 1 has 1.
    let (winner, _) = ev.games[0].winner_loser().expect("decided");
    let winner = winner.to_owned();
    for b in 2..=games {
        enter(&mut ev, 1, b as u32, "W+R");
    }
    pair(&mut ev);
    let html = pairing_sheet(&ev, 2).expect("sheet");
    let rank = ev
        .entrants
        .iter()
        .find(|e| e.name == winner)
        .and_then(|e| e.rank)
        .expect("rank");
    let esc = winner
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    assert!(
        html.contains(&format!(
            "<td>{esc}</td><td class=\"c\">{rank}</td><td class=\"n\">1</td>"
        )),
        "{winner} has 1 point: {html}"
    );
}

/// The result slips: one a game (none for the bye), every fourth ending its page.
#[test]
fn the_result_slips_are_one_a_game_four_to_a_page() {
    let players: Vec<String> = (1..=11)
        .map(|i| format!("{{ name = \"P{i}\", rank = \"{}k\" }}", i))
        .collect();
    let mut ev = event(
        r#"{ kind = "swiss", rounds = 3 }"#,
        &format!("entrants = [{}]", players.join(", ")),
    );
    pair(&mut ev);
    let html = result_slips(&ev, 1).expect("slips");
    assert_eq!(html.matches("<div class=\"slip").count(), 5, "{html}");
    assert_eq!(
        html.matches("<div class=\"slip last\"").count(),
        1,
        "{html}"
    );
    assert!(html.contains("break-after: page"), "{html}");
    let bye = ev.games.iter().find(|g| g.is_bye()).expect("a bye");
    assert!(!html.contains(&format!("{} <span", bye.black)), "{html}");
    assert!(html.contains("Black's signature"), "{html}");
}

/// The wall list follows the standings; a McMahon event shows its McMahon score.
#[test]
fn the_wall_list_follows_the_standings() {
    let mut ev = event(r#"{ kind = "mcmahon", rounds = 2, bar = "2d" }"#, FIVE);
    pair(&mut ev);
    for b in 1..=2 {
        enter(&mut ev, 1, b, "W+R");
    }
    let html = wall_list(&ev);
    assert!(html.contains("<th class=\"n\">MMS</th>"), "{html}");
    assert!(html.contains("after round 1"), "{html}");
    let table = ev.standings();
    let mut at = 0;
    for s in &table {
        let name = s
            .player
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        let row = format!(
            "<tr><td class=\"n\">{}</td><td class=\"name\">{name}</td>",
            s.rank
        );
        let found = html[at..]
            .find(&row)
            .unwrap_or_else(|| panic!("{row}: {html}"));
        at += found;
        assert!(
            html[at..].contains(&format!("<td class=\"n\"><b>{}</b></td>", s.mcmahon)),
            "{html}"
        );
    }
}

/// The crosstable in round order: each cell the opponent's number, the result, the colour, the
/// handicap and a forfeit mark; byes shown; a void game `=`; a round without a game `-`.
#[test]
fn the_crosstable_by_round_shows_opponents_results_colours_and_byes() {
    let mut ev = event(
        r#"{ kind = "swiss", rounds = 3 }"#,
        &format!("{FIVE}\nhandicap = {{ system = \"ranks\" }}"),
    );
    pair(&mut ev);
    enter(&mut ev, 1, 1, "B+F:absence");
    enter(&mut ev, 1, 2, "void");
    pair(&mut ev);
    let ct = RoundCrosstable::new(&ev);
    let row = |n: &str| ct.rows.iter().position(|r| r.player == n).expect("a row");
    for g in &ev.games {
        let r = g.round as usize - 1;
        let b = row(&g.black);
        let Some(w) = g.white.as_deref() else {
            assert_eq!(ct.cells[b][r], "bye");
            continue;
        };
        let w = row(w);
        let h = if g.passes > 0 || g.komi != ev.agreement.komi {
            (u32::from(g.passes) + 1).to_string()
        } else {
            String::new()
        };
        let (sb, sw, f) = match g.result.map(|o| o.to_string()).as_deref() {
            None => ("?", "?", ""),
            Some("void") => ("=", "=", ""),
            Some("B+F:absence") => ("+", "-", "!"),
            Some(o) => panic!("{o}"),
        };
        assert_eq!(ct.cells[b][r], format!("{}{sb}/b{h}{f}", w + 1));
        assert_eq!(ct.cells[w][r], format!("{}{sw}/w{h}{f}", b + 1));
    }
    let text = ct.text();
    assert!(text.contains(" R1 ") && text.contains(" R2 "), "{text}");
    let html = ct.html();
    assert!(html.contains("<td class=\"c\">bye</td>"), "{html}");
    assert!(html.contains("@page { size: A4"), "{html}");
}

/// 擂台制: the team result, who is on and the members left; then the winner.
#[test]
fn a_leitai_event_says_the_team_result() {
    let mut ev = event(
        r#"{ kind = "leitai" }"#,
        r#"entrants = [{ name = "Red", kind = "team", members = [{ name = "R1" }, { name = "R2" }] }, { name = "Blue", kind = "team", members = [{ name = "B1" }, { name = "B2" }, { name = "B3" }] }]"#,
    );
    pair(&mut ev);
    // R1 (Black, the newcomer of team 1) beats B1, then B2.
    enter(&mut ev, 1, 1, "B+R");
    pair(&mut ev);
    let g = &ev.games[1];
    let r1_black = g.black == "R1";
    enter(&mut ev, 2, 1, if r1_black { "B+R" } else { "W+R" });
    assert_eq!(
        match_state(&ev).as_deref(),
        Some("Team result: Red 2 – 0 Blue (games won); R1 is on the stage (2 win(s) in a row); Red left: R1, R2; Blue left: B3")
    );
    pair(&mut ev);
    let g = &ev.games[2];
    let r1_black = g.black == "R1";
    enter(&mut ev, 3, 1, if r1_black { "B+R" } else { "W+R" });
    assert_eq!(
        match_state(&ev).as_deref(),
        Some(
            "Team result: Red 3 – 0 Blue (games won); Red wins: all 3 of Blue's members have lost"
        )
    );
    assert!(wall_list(&ev).contains("Red wins"));
}

/// 十局升降制: the score, the running handicap in Ing's terms and the lead since it moved.
#[test]
fn a_ten_game_match_says_its_handicap_and_lead() {
    let mut ev = event(
        r#"{ kind = "ten-game" }"#,
        r#"entrants = [{ name = "Ann" }, { name = "Bo" }]"#,
    );
    assert!(match_state(&ev).is_some_and(|s| s.contains("handicap: even games")));
    // Ann wins five games: after four the handicap moves a grade (4 points) against Bo...
    // that is, Ann gives Bo 4 points; the fifth is a lead of 1 since.
    for round in 1..=5 {
        pair(&mut ev);
        let g = ev.games.last().expect("a game");
        let ann_black = g.black == "Ann";
        enter(&mut ev, round, 1, if ann_black { "B+R" } else { "W+R" });
    }
    assert_eq!(
        match_state(&ev).as_deref(),
        Some("Match: Ann 5 – 0 Bo after 5 of 10 games; handicap: Ann gives Bo 4 point(s) (1 先: Bo takes Black, White passes 0 time(s) and gives back 4 point(s)); lead since the handicap last moved: Ann +1 (a lead of 4 moves it one grade of 4 points)")
    );
}
