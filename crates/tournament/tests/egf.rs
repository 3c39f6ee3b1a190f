//! The EGF results file checked against the validator in `egf_validator/` (written from the
//! format's published description), and read back.

mod egf_validator;

use egf_validator::{header, is_grade, place_of, validate, Line};
use ingo_rules::Komi;
use ingo_tournament::{export, Agreement, Event, Game, Outcome};

/// Enters `result` for the game of `x` in `round`; returns x's opponent.
fn enter(ev: &mut Event, round: u32, x: &str, result: &str) -> String {
    let g = ev
        .games
        .iter()
        .find(|g| g.round == round && g.has(x) && !g.is_bye())
        .unwrap_or_else(|| panic!("no game of {x} in round {round}"));
    let (board, other) = (g.board, g.opponent(x).unwrap_or_default().to_owned());
    ev.enter(round, board, result.parse().expect("result"))
        .expect("enter");
    other
}

fn pair(ev: &mut Event) {
    let games = ev.pair_next().expect("pair");
    ev.games.extend(games);
}

/// A 5-player Swiss of three rounds with an unranked player, a bye each round, a forfeit, a
/// void game and a handicap: the file passes the validator, the forfeit is unplayed (`!`) on
/// both sides, the void game is a free round (`0-`) for both players, not a jigo, and the
/// unranked player has a grade.
#[test]
fn the_egf_file_passes_the_validator_with_forfeits_voids_and_the_unranked() {
    let mut ev = Event::new(
        Agreement::from_toml(
            r#"
name = "Club cup"
purpose = "Tests"
eligibility = "Anyone"
registration = { opens = "2026-01-01", closes = "2026-01-31" }
format = { kind = "swiss", rounds = 3 }
entrants = [{ name = "Ann", rank = "4d" }, { name = "Bo", rank = "1k" }, { name = "Cy", rank = "2d" }, { name = "Dee" }, { name = "Eve", rank = "3p" }]
"#,
        )
        .expect("agreement"),
    );
    ev.entrants = ev.agreement.entrants.clone();
    pair(&mut ev);
    for g in ev.games.clone().iter().filter(|g| !g.is_bye()) {
        let x = g.black.clone();
        enter(&mut ev, 1, &x, "B+3");
    }
    pair(&mut ev);
    let playing: Vec<String> = ev
        .games
        .iter()
        .filter(|g| g.round == 2 && !g.is_bye())
        .map(|g| g.black.clone())
        .collect();
    let forfeit_black = playing[0].clone();
    let forfeit_white = enter(&mut ev, 2, &forfeit_black, "B+F:absence");
    let void_black = playing[1].clone();
    let void_white = enter(&mut ev, 2, &void_black, "void");
    pair(&mut ev);
    let round3: Vec<String> = ev
        .games
        .iter()
        .filter(|g| g.round == 3 && !g.is_bye())
        .map(|g| g.black.clone())
        .collect();
    for x in round3 {
        enter(&mut ev, 3, &x, "W+R");
    }

    let text = export::egf_results(&ev);
    let lines = validate(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(lines.len(), 5, "{text}");
    let entry_of = |name: &str| &lines[place_of(&lines, &text, name)].entries[1];
    let (fb, fw) = (entry_of(&forfeit_black), entry_of(&forfeit_white));
    assert!(
        fb.unplayed && fb.symbol == '+' && fw.symbol == '-',
        "{text}"
    );
    for name in [&void_black, &void_white] {
        let e = entry_of(name);
        assert_eq!((e.opponent, e.symbol), (0, '-'), "{name}: {text}");
    }
    // TM is the basic time in minutes (the agreement's default, Ing's 3 hours with
    // penalty-point overtime).
    assert_eq!(header(&text, "TM").as_deref(), Some("180"), "{text}");
    assert_eq!(header(&text, "CL").as_deref(), Some("A"), "{text}");
    let dee = &lines[place_of(&lines, &text, "Dee")];
    assert!(is_grade(&dee.grade), "{text}");
    assert!(lines
        .iter()
        .all(|l| l.pin.is_none() && !l.club.is_empty() && !l.country.is_empty()));
    read_back(&ev, &lines, &text);
}

/// The column of `player`'s game `g` in the file: a column a round, and one more for each
/// game beyond the first that a player has in one round (a knockout's replay), as the
/// format's description of the export says.
fn column(ev: &Event, g: &Game, player: &str) -> usize {
    let most = |r: u32| {
        let mut n: std::collections::BTreeMap<&str, usize> = Default::default();
        for x in ev.games.iter().filter(|x| x.round == r) {
            for p in [Some(x.black.as_str()), x.white.as_deref()]
                .into_iter()
                .flatten()
            {
                *n.entry(p).or_default() += 1;
            }
        }
        n.values().copied().max().unwrap_or(1).max(1)
    };
    let before: usize = (1..g.round).map(most).sum();
    let nth = ev
        .games
        .iter()
        .filter(|x| x.round == g.round && x.has(player))
        .position(|x| x == g)
        .expect("the game is the player's");
    before + nth
}

/// Reads the file back into the event's games: every game, bye and void is where it should
/// be, with its winner, colours, handicap and forfeit mark, and the file holds no other game.
fn read_back(ev: &Event, lines: &[Line], text: &str) {
    let mut played = 0;
    for g in &ev.games {
        let b = place_of(lines, text, &g.black);
        let of = |p: usize, name: &str| &lines[p].entries[column(ev, g, name)];
        match (g.white.as_deref(), g.result) {
            (None, Some(Outcome::Void)) => assert_eq!(of(b, &g.black).opponent, 0),
            (None, _) => assert_eq!(
                (of(b, &g.black).opponent, of(b, &g.black).symbol),
                (0, '+'),
                "{text}"
            ),
            (Some(w), Some(Outcome::Void)) => {
                let wp = place_of(lines, text, w);
                assert_eq!(
                    (of(b, &g.black).opponent, of(wp, w).opponent),
                    (0, 0),
                    "{text}"
                );
            }
            (Some(w), Some(o)) => {
                let wp = place_of(lines, text, w);
                let e = of(b, &g.black);
                let black_won = g.winner_loser().map(|(x, _)| x) == Some(g.black.as_str());
                // The handicap as the EGF counts it: the 先 of Ing's scale, White's passes
                // plus one, whenever the conditions are not the even game's.
                let handicap =
                    (g.passes > 0 || g.komi != ev.agreement.komi).then(|| u32::from(g.passes) + 1);
                assert_eq!(
                    (e.opponent, e.symbol, e.colour, e.handicap, e.unplayed),
                    (
                        wp + 1,
                        if black_won { '+' } else { '-' },
                        Some('b'),
                        handicap,
                        o.forfeit().is_some()
                    ),
                    "round {}: {} against {w}: {text}",
                    g.round,
                    g.black
                );
                played += 2;
            }
            (Some(_), None) => panic!("round {} unfinished", g.round),
        }
    }
    let entries = lines
        .iter()
        .flat_map(|l| &l.entries)
        .filter(|e| e.opponent != 0)
        .count();
    assert_eq!(entries, played, "no game but the event's: {text}");
}

/// Plays `ev` to its end: each round paired, then every game given `result(game)`.
fn play_out(ev: &mut Event, result: impl Fn(&Game) -> &'static str) {
    loop {
        match ev.pair_next() {
            Ok(games) => ev.games.extend(games),
            Err(
                ingo_tournament::PairingError::Finished
                | ingo_tournament::PairingError::AlreadyDrawn,
            ) => break,
            Err(e) => panic!("{e}"),
        }
        let todo: Vec<(u32, u32, &'static str)> = ev
            .games
            .iter()
            .filter(|g| !g.is_done())
            .map(|g| (g.round, g.board, result(g)))
            .collect();
        for (r, b, res) in todo {
            ev.enter(r, b, res.parse().expect("result")).expect("enter");
        }
    }
}

/// Every format is exported, and each file passes the validator and reads back: round robins
/// (with a bye, a forfeit and a void game), a knockout with a void game replayed in its round
/// (a column of its own), a double knockout, 擂台制 (its members, with their ranks), a
/// ten-game match whose handicap moved to Ing's compensation points only (`h1`, and listed
/// in Ing's terms), and Swiss and McMahon events.
#[test]
fn every_format_is_exported_and_passes_the_validator() {
    let players = r#"entrants = [{ name = "Ann", rank = "4d" }, { name = "Bo", rank = "1k" }, { name = "Cy", rank = "2d" }, { name = "Dee", rank = "3k" }, { name = "Eve", rank = "5d" }]"#;
    let head = |format: &str, rest: &str| {
        format!(
            "name = \"Cup\"\npurpose = \"Tests\"\neligibility = \"Anyone\"\nregistration = {{ opens = \"2026-01-01\", closes = \"2026-01-31\" }}\nformat = {format}\n{rest}\n"
        )
    };
    let cases: Vec<(&str, String)> = vec![
        ("round-robin", head(r#"{ kind = "round-robin" }"#, players)),
        (
            "double-round-robin",
            head(r#"{ kind = "double-round-robin" }"#, players),
        ),
        ("knockout", head(r#"{ kind = "knockout" }"#, players)),
        (
            "double-knockout",
            head(r#"{ kind = "double-knockout" }"#, players),
        ),
        ("swiss", head(r#"{ kind = "swiss", rounds = 3 }"#, players)),
        (
            "mcmahon",
            head(
                r#"{ kind = "mcmahon", rounds = 3, bar = "2d" }"#,
                &format!("handicap = {{ system = \"mcmahon\" }}\n{players}"),
            ),
        ),
        (
            "leitai",
            head(
                r#"{ kind = "leitai" }"#,
                r#"entrants = [{ name = "Red", kind = "team", members = [{ name = "R1", rank = "3d" }, { name = "R2", rank = "1k" }] }, { name = "Blue", kind = "team", members = [{ name = "B1", rank = "2d" }, { name = "B2" }] }]"#,
            ),
        ),
        (
            "ten-game",
            head(
                r#"{ kind = "ten-game", games = 6 }"#,
                r#"entrants = [{ name = "Ann", rank = "4d" }, { name = "Bo", rank = "1k" }]"#,
            ),
        ),
    ];
    for (kind, toml) in cases {
        let mut ev =
            Event::new(Agreement::from_toml(&toml).unwrap_or_else(|e| panic!("{kind}: {e}")));
        let voided = std::cell::Cell::new(false);
        let forfeited = std::cell::Cell::new(false);
        play_out(&mut ev, |g| {
            if g.round == 1 && !voided.get() && kind != "ten-game" && kind != "leitai" {
                voided.set(true);
                return "void";
            }
            if g.round == 2 && !forfeited.get() {
                forfeited.set(true);
                return "W+F:absence";
            }
            // The first entrant wins the ten-game match's games, so the handicap moves.
            if kind == "ten-game" {
                return if g.black == "Ann" { "B+R" } else { "W+R" };
            }
            if (g.round + g.board) % 2 == 0 {
                "B+3"
            } else {
                "W+R"
            }
        });
        let text = export::egf_results(&ev);
        let lines = validate(&text).unwrap_or_else(|e| panic!("{kind}: {e}\n{text}"));
        assert_eq!(lines.len(), ev.standings().len(), "{kind}: {text}");
        read_back(&ev, &lines, &text);
        match kind {
            "knockout" => {
                // The void game of round 1 and its replay are two columns.
                let rounds = ev.games.iter().map(|g| g.round).max().unwrap_or(0) as usize;
                assert_eq!(lines[0].entries.len(), rounds + 1, "{text}");
            }
            "leitai" => {
                // A member has the member's rank and the team as the club.
                let b1 = &lines[place_of(&lines, &text, "B1")];
                assert_eq!(
                    (b1.grade.as_str(), b1.club.as_str()),
                    ("2d", "Blue"),
                    "{text}"
                );
            }
            "ten-game" => {
                // After Ann's four wins the handicap is one grade, 4 points: Bo takes Black
                // with no passes and White gives back 4 points: Ing's points only, `h1`.
                let g = ev
                    .games
                    .iter()
                    .find(|g| g.passes == 0 && g.komi == Komi::points(4))
                    .unwrap_or_else(|| panic!("no game with 4 points: {:?}", ev.games));
                let bo = &lines[place_of(&lines, &text, "Bo")];
                let e = &bo.entries[g.round as usize - 1];
                assert_eq!((e.colour, e.handicap), (Some('b'), Some(1)), "{text}");
                assert!(
                    text.contains(&format!(
                        "round {} board 1: Bo (B, place 2) - Ann (W, place 1): h1, White passes 0 time(s) and gives back 4 point(s)",
                        g.round
                    )),
                    "{text}"
                );
            }
            _ => {}
        }
    }
}

/// The validator itself refuses what the description does not allow.
#[test]
fn the_validator_refuses_broken_files() {
    let good = "; EV[x]\n  1 Ann 4d xx - 1 2+/b 0+\n  2 Bo 1k xx - 0 1-/w 0-\n";
    assert!(validate(good).is_ok());
    for bad in [
        "  1 Ann - xx - 1 2+/b\n  2 Bo 1k xx - 0 1-/w\n", // no grade
        "  1 Ann 4d xx - 1 2+/b\n  2 Bo 1k xx - 0 1+/w\n", // both won
        "  1 Ann 4d xx - 1 2+/b\n  2 Bo 1k xx - 0 1-/b\n", // both Black
        "  1 Ann 4d xx - 1 2+/b!\n  2 Bo 1k xx - 0 1-/w\n", // forfeit on one side only
        "  1 Ann 4d xx - 1 2+/b 0+\n  2 Bo 1k xx - 0 1-/w\n", // rounds differ
        "  2 Ann 4d xx - 1 0+\n",                         // place out of order
        "  1 Ann 4d xx - 1 3+/b\n  2 Bo 1k xx - 0 0-\n",  // no place 3
        "  1 Ann 4d xx - 1 2x\n  2 Bo 1k xx - 0 1-\n",    // symbol
    ] {
        assert!(validate(bad).is_err(), "{bad}");
    }
}

/// Entrants with surname, given name, country, club and EGD PIN are written with them, as
/// fields the validator reads back; one without keeps the name as one word, `xx` and `-`.
#[test]
fn the_egf_file_writes_names_country_club_and_pin() {
    let mut ev = Event::new(
        Agreement::from_toml(
            r#"
name = "Club cup"
purpose = "Tests"
eligibility = "Anyone"
registration = { opens = "2026-01-01", closes = "2026-01-31" }
format = { kind = "swiss", rounds = 1 }
entrants = [
    { name = "Ann Lee", rank = "4d", surname = "Lee", given_name = "Ann Marie", country = "de", club = "FC Berlin", egd_pin = 12345678 },
    { name = "Bo Chen", rank = "1k" },
    { name = "Cy; the third | one", rank = "2k" },
]
"#,
        )
        .expect("agreement"),
    );
    ev.entrants = ev.agreement.entrants.clone();
    pair(&mut ev);
    enter(&mut ev, 1, "Ann Lee", "B+R");
    let text = export::egf_results(&ev);
    let lines = validate(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let ann = &lines[place_of(&lines, &text, "Lee Ann_Marie")];
    assert_eq!(
        (ann.country.as_str(), ann.club.as_str(), ann.pin.as_deref()),
        ("DE", "FC_Berlin", Some("12345678")),
        "{text}"
    );
    // `;` would start a comment and `|` the PIN: they are written `_` like blanks.
    place_of(&lines, &text, "Cy__the_third___one");
    let bo = &lines[place_of(&lines, &text, "Bo_Chen")];
    assert_eq!(
        (bo.country.as_str(), bo.club.as_str(), bo.pin.as_deref()),
        ("xx", "-", None),
        "{text}"
    );
}

/// A country that is not a two-letter code is refused in the agreement, naming the field.
#[test]
fn a_country_must_be_a_two_letter_code() {
    let e = Agreement::from_toml(
        r#"
name = "Club cup"
purpose = "Tests"
eligibility = "Anyone"
registration = { opens = "2026-01-01", closes = "2026-01-31" }
format = { kind = "swiss", rounds = 1 }
entrants = [{ name = "Ann", country = "Germany" }]
"#,
    )
    .expect_err("Germany is no code");
    assert_eq!(e.field, "entrants[0].country");
}

/// `DT[]` holds the event's own days and `PC[]` its place, from the agreement; without them
/// neither is written (the registration period is not when the games were played).
#[test]
fn the_egf_header_has_the_events_dates_and_place() {
    let head = r#"
name = "Club cup"
purpose = "Tests"
eligibility = "Anyone"
registration = { opens = "2026-01-01", closes = "2026-01-31" }
format = { kind = "swiss", rounds = 1 }
entrants = [{ name = "Ann", rank = "4d" }, { name = "Bo", rank = "1k" }]
"#;
    let with = Agreement::from_toml(&format!(
        "{head}dates = {{ start = \"2026-02-07\", end = \"2026-02-08\" }}\nplace = \"DE, Berlin\"\n"
    ))
    .expect("agreement");
    let text = export::egf_results(&Event::new(with));
    assert_eq!(
        header(&text, "DT").as_deref(),
        Some("2026-02-07,2026-02-08"),
        "{text}"
    );
    assert_eq!(header(&text, "PC").as_deref(), Some("DE, Berlin"), "{text}");
    let without = Agreement::from_toml(head).expect("agreement");
    let text = export::egf_results(&Event::new(without));
    assert_eq!(
        (header(&text, "DT"), header(&text, "PC")),
        (None, None),
        "{text}"
    );
    let e = Agreement::from_toml(&format!(
        "{head}dates = {{ start = \"2026-02-07\", end = \"2026-02-06\" }}\n"
    ))
    .expect_err("the end before the start");
    assert_eq!(e.field, "dates.end");
}

/// The class from the time limits, case by case against the EGF's thresholds.
#[test]
fn the_egf_class_follows_from_the_time_limits() {
    use ingo_clock::TimeControl;
    use ingo_tournament::export::egf_class;
    use std::time::Duration;
    let min = |m: u64| Duration::from_secs(60 * m);
    let s = Duration::from_secs;
    for (time, class) in [
        (TimeControl::IngPenalty { basic: min(180) }, Some('A')),
        (TimeControl::Absolute { main: min(75) }, Some('A')),
        // 60 minutes and 45 periods of 20 s: 75 adjusted.
        (
            TimeControl::Japanese {
                main: min(60),
                periods: 5,
                period: s(20),
            },
            Some('A'),
        ),
        // 60 minutes and 45 moves of 15 s: 71.25 adjusted, so B.
        (
            TimeControl::Japanese {
                main: min(60),
                periods: 5,
                period: s(15),
            },
            Some('B'),
        ),
        // 40 minutes and 60 moves at 15 stones in 5 minutes (20 s a move): 60 adjusted.
        (
            TimeControl::Canadian {
                main: min(40),
                stones: 15,
                period: min(5),
            },
            Some('B'),
        ),
        // Fischer: 45 minutes and 120 increments of 15 s, 75 adjusted.
        (
            TimeControl::Fischer {
                main: min(45),
                increment: s(15),
                max: None,
            },
            Some('A'),
        ),
        (
            TimeControl::Fischer {
                main: min(20),
                increment: s(5),
                max: None,
            },
            Some('C'),
        ),
        (
            TimeControl::Fischer {
                main: min(20),
                increment: s(4),
                max: None,
            },
            None,
        ),
        (TimeControl::Absolute { main: min(25) }, None),
        (TimeControl::None, None),
    ] {
        assert_eq!(egf_class(&time), class, "{time}");
    }
    // A handicap event is classed by its time limits like any other.
    let ev = Event::new(
        Agreement::from_toml(
            r#"
name = "Club cup"
purpose = "Tests"
eligibility = "Anyone"
registration = { opens = "2026-01-01", closes = "2026-01-31" }
format = { kind = "swiss", rounds = 1 }
handicap = { system = "ranks" }
"#,
        )
        .expect("agreement"),
    );
    let text = export::egf_results(&ev);
    assert_eq!(header(&text, "CL").as_deref(), Some("A"), "{text}");
}
