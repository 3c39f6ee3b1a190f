//! A validator of the EGF results file, written from the format's published description
//! (the EGF rating list's "tournament table format", A. Cieply: "Comments on
//! submitting tournament results"), shared by the tests that export one (`#[path]` from
//! other crates' tests):
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

#![allow(dead_code)]

/// One round's entry of one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub opponent: usize,
    pub symbol: char,
    pub colour: Option<char>,
    pub handicap: Option<u32>,
    pub unplayed: bool,
}

pub fn entry(token: &str) -> Result<Entry, String> {
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

pub fn is_grade(t: &str) -> bool {
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
pub struct Line {
    pub name: Vec<String>,
    pub grade: String,
    pub country: String,
    pub club: String,
    pub entries: Vec<Entry>,
    pub pin: Option<String>,
}

/// Checks a results file against the description; returns its player lines in place order.
pub fn validate(text: &str) -> Result<Vec<Line>, String> {
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
pub fn header(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let v = l.trim().strip_prefix(';')?.trim().strip_prefix(key)?;
        Some(v.strip_prefix('[')?.strip_suffix(']')?.to_owned())
    })
}

pub fn place_of(lines: &[Line], text: &str, name: &str) -> usize {
    lines
        .iter()
        .position(|l| l.name.join(" ") == name)
        .unwrap_or_else(|| panic!("no {name}: {text}"))
}
