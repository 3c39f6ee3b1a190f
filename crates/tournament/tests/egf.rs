//! The EGF results file checked against a validator written from the format's published
//! description (the EGF rating list's "tournament table format", A. Cieply: "Comments on
//! submitting tournament results"):
//!
//! * one line a player; empty lines and everything after `;` are ignored;
//! * a line is the place, the name (surname and given name, spaces inside a name written
//!   `_`), the grade (`30k`…`1k`, `1d`…`9d`, `1p`…`9p`), the country (two letters), the club,
//!   the scores, then one entry a round, separated by blanks, the same number of rounds for
//!   every player; OpenGotha appends the EGD PIN as `|PIN`;
//! * a round's entry is `<opponent's place><symbol>[/<colour>[<h>]]`, `+` a win, `-` a loss,
//!   `=` a jigo, the colour `b` or `w`, `h` the handicap stones; a player who did not play the
//!   round has `0+` (a free win), `0-` (a free round) or `0=` (a free round worth half);
//! * a game that was not played but decided (a forfeit) is marked `!` after its entry, and is
//!   not rated;
//! * the class `CL[]` follows from the time limits (EGF tournament classes): A needs a basic
//!   time of 60 minutes and an adjusted time of 75, B 40 and 50, C 25 and 30; the adjusted
//!   time adds to the basic time 45 moves of byo-yomi, 60 of Canadian overtime, or 120
//!   Fischer increments (with Fischer timing the basic times are 45, 30 and 20 minutes);
//! * the header's `TM[]` is the basic time in minutes, `DT[]` the event's first and last day,
//!   `PC[]` its place (country code and town).
//!
//! The validator also checks what the entries imply together: each game is seen from both
//! sides, in the same round, with opposite symbols and colours and the same handicap.

use ingo_tournament::{export, Agreement, Event};

/// One round's entry of one player.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    opponent: usize,
    symbol: char,
    colour: Option<char>,
    handicap: Option<u32>,
    unplayed: bool,
}

fn entry(token: &str) -> Result<Entry, String> {
    let bad = || format!("result entry {token:?}");
    let (token, unplayed) = match token.strip_suffix('!') {
        Some(t) => (t, true),
        None => (token, false),
    };
    let digits = token.chars().take_while(char::is_ascii_digit).count();
    let opponent: usize = token[..digits].parse().map_err(|_| bad())?;
    let mut rest = token[digits..].chars();
    let symbol = rest.next().filter(|c| "+-=".contains(*c)).ok_or_else(bad)?;
    let rest: String = rest.collect();
    let (colour, handicap) = match rest.strip_prefix('/') {
        None if rest.is_empty() => (None, None),
        None => return Err(bad()),
        Some(c) => {
            let mut chars = c.chars();
            let colour = chars
                .next()
                .filter(|c| *c == 'b' || *c == 'w')
                .ok_or_else(bad)?;
            let h: String = chars.collect();
            let handicap = if h.is_empty() {
                None
            } else {
                Some(h.parse().map_err(|_| bad())?)
            };
            (Some(colour), handicap)
        }
    };
    if opponent == 0 && (colour.is_some() || unplayed) {
        return Err(bad());
    }
    Ok(Entry {
        opponent,
        symbol,
        colour,
        handicap,
        unplayed,
    })
}

fn is_grade(t: &str) -> bool {
    let (n, class) = t.split_at(t.len().saturating_sub(1));
    let Ok(n) = n.parse::<u32>() else {
        return false;
    };
    match class {
        "k" | "K" => (1..=30).contains(&n),
        "d" | "D" | "p" | "P" => (1..=9).contains(&n),
        _ => false,
    }
}

/// A player line as the validator read it.
#[derive(Debug)]
struct Line {
    name: Vec<String>,
    grade: String,
    country: String,
    club: String,
    entries: Vec<Entry>,
    pin: Option<String>,
}

/// Checks a results file against the description; returns its player lines in place order.
fn validate(text: &str) -> Result<Vec<Line>, String> {
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let data = raw.split(';').next().unwrap_or("").trim();
        if data.is_empty() {
            continue;
        }
        let (data, pin) = match data.split_once('|') {
            Some((d, p)) => {
                let p = p.trim();
                if p.is_empty() || !p.chars().all(|c| c.is_ascii_digit()) {
                    return Err(format!("line {n}: PIN {p:?}"));
                }
                (d, Some(p.to_owned()))
            }
            None => (data, None),
        };
        let t: Vec<&str> = data.split_whitespace().collect();
        let place: usize = t[0]
            .parse()
            .map_err(|_| format!("line {n}: place {:?}", t[0]))?;
        if place != lines.len() + 1 {
            return Err(format!("line {n}: place {place} out of order"));
        }
        let g = t
            .iter()
            .position(|x| is_grade(x))
            .ok_or_else(|| format!("line {n}: no grade in {raw:?}"))?;
        if !(2..=3).contains(&g) {
            return Err(format!("line {n}: the name is one or two words: {raw:?}"));
        }
        let country = t
            .get(g + 1)
            .ok_or_else(|| format!("line {n}: no country"))?;
        if country.len() != 2 || !country.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(format!("line {n}: country {country:?}"));
        }
        let club = t.get(g + 2).ok_or_else(|| format!("line {n}: no club"))?;
        let mut k = g + 3;
        while k < t.len() && t[k].parse::<f64>().is_ok() {
            k += 1;
        }
        let entries = t[k..]
            .iter()
            .map(|x| entry(x).map_err(|e| format!("line {n}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        lines.push(Line {
            name: t[1..g].iter().map(|s| (*s).to_owned()).collect(),
            grade: t[g].to_owned(),
            country: (*country).to_owned(),
            club: (*club).to_owned(),
            entries,
            pin,
        });
    }
    let rounds = lines.first().map_or(0, |l| l.entries.len());
    for (p, l) in lines.iter().enumerate() {
        if l.entries.len() != rounds {
            return Err(format!(
                "place {}: {} rounds, not {rounds}",
                p + 1,
                l.entries.len()
            ));
        }
        for (r, e) in l.entries.iter().enumerate() {
            if e.opponent == 0 {
                continue;
            }
            let other = lines
                .get(e.opponent - 1)
                .ok_or_else(|| format!("place {}: opponent {} is no place", p + 1, e.opponent))?;
            let back = &other.entries[r];
            let opposite = match e.symbol {
                '+' => '-',
                '-' => '+',
                _ => '=',
            };
            let colours_ok = match (e.colour, back.colour) {
                (Some(a), Some(b)) => a != b,
                (None, None) => true,
                _ => false,
            };
            if back.opponent != p + 1
                || back.symbol != opposite
                || !colours_ok
                || back.handicap != e.handicap
                || back.unplayed != e.unplayed
            {
                return Err(format!(
                    "round {}: place {} has {e:?} but place {} has {back:?}",
                    r + 1,
                    p + 1,
                    e.opponent
                ));
            }
        }
    }
    Ok(lines)
}

/// The value of a header line `; XX[value]`.
fn header(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let v = l.trim().strip_prefix(';')?.trim().strip_prefix(key)?;
        Some(v.strip_prefix('[')?.strip_suffix(']')?.to_owned())
    })
}

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

fn place_of(lines: &[Line], text: &str, name: &str) -> usize {
    lines
        .iter()
        .position(|l| l.name.join(" ") == name)
        .unwrap_or_else(|| panic!("no {name}: {text}"))
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

    let text = export::egf_results(&ev).expect("egf");
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

/// Reads the file back into the event's games: every game, bye and void is where it should
/// be, with its winner, colours and forfeit mark, and the file holds no other game.
fn read_back(ev: &Event, lines: &[Line], text: &str) {
    let mut played = 0;
    for g in &ev.games {
        let r = g.round as usize - 1;
        let b = place_of(lines, text, &g.black);
        let of = |p: usize| &lines[p].entries[r];
        match (g.white.as_deref(), g.result) {
            (None, Some(ingo_tournament::Outcome::Void)) => assert_eq!(of(b).opponent, 0),
            (None, _) => assert_eq!((of(b).opponent, of(b).symbol), (0, '+'), "{text}"),
            (Some(w), Some(ingo_tournament::Outcome::Void)) => {
                let w = place_of(lines, text, w);
                assert_eq!((of(b).opponent, of(w).opponent), (0, 0), "{text}");
            }
            (Some(w), Some(o)) => {
                let wp = place_of(lines, text, w);
                let e = of(b);
                let black_won = g.winner_loser().map(|(x, _)| x) == Some(g.black.as_str());
                assert_eq!(
                    (e.opponent, e.symbol, e.colour, e.unplayed),
                    (
                        wp + 1,
                        if black_won { '+' } else { '-' },
                        Some('b'),
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
    let text = export::egf_results(&ev).expect("egf");
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
    let text = export::egf_results(&Event::new(with)).expect("egf");
    assert_eq!(
        header(&text, "DT").as_deref(),
        Some("2026-02-07,2026-02-08"),
        "{text}"
    );
    assert_eq!(header(&text, "PC").as_deref(), Some("DE, Berlin"), "{text}");
    let without = Agreement::from_toml(head).expect("agreement");
    let text = export::egf_results(&Event::new(without)).expect("egf");
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
    let text = export::egf_results(&ev).expect("egf");
    assert_eq!(header(&text, "CL").as_deref(), Some("A"), "{text}");
}
