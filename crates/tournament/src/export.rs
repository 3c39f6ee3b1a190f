//! Exports of an event: results as CSV (and read back), the EGF tournament results format,
//! and an SGF record for a game entered by hand.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

use ingo_clock::TimeControl;
use ingo_competition::Rank;
use ingo_rules::{Komi, Setup};
use ingo_sgf::{rules_sgf_name, write_game, WriteInfo};

use crate::{Entrant, Event, FormatKind, Game, HandicapSystem, Outcome, ParseOutcomeError, WinBy};

/// A results file (`standings --results`) that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadResultsError {
    /// A line has neither the four fields `round,black,white,result` nor the five
    /// `round,board,black,white,result` (or not the header's).
    #[error(
        "line {line}: expected 4 fields round,black,white,result or 5 round,board,black,white,result, found {found}"
    )]
    Fields {
        /// Line, from 1.
        line: usize,
        /// How many fields it has.
        found: usize,
    },
    /// The round is not a number from 1.
    #[error("line {line}: round {round:?} is not a number")]
    Round {
        /// Line, from 1.
        line: usize,
        /// The field.
        round: String,
    },
    /// The board is not a number from 1.
    #[error("line {line}: board {board:?} is not a number")]
    Board {
        /// Line, from 1.
        line: usize,
        /// The field.
        board: String,
    },
    /// The text is not CSV (a quote not closed).
    #[error("line {line}: {reason}")]
    Csv {
        /// Line, from 1.
        line: usize,
        /// What the CSV reader said.
        reason: String,
    },
    /// Neither player is named.
    #[error("line {line}: no player")]
    NoPlayer {
        /// Line, from 1.
        line: usize,
    },
    /// A bye (one player) with a result.
    #[error("line {line}: a bye (empty opponent) takes no result, not {result:?}")]
    ByeResult {
        /// Line, from 1.
        line: usize,
        /// The result given.
        result: String,
    },
    /// The result does not read.
    #[error("line {line}: {source}")]
    Result {
        /// Line, from 1.
        line: usize,
        /// Why.
        #[source]
        source: ParseOutcomeError,
    },
}

/// An export the event's format does not have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// The EGF results format is written for Swiss and McMahon events only.
    #[error("the EGF results format is for Swiss and McMahon events, not {}", .0.name())]
    EgfFormat(FormatKind),
    /// The CSV writer failed.
    #[error("cannot write the CSV: {0}")]
    Csv(String),
}

/// The columns of a results file: `round,black,white,result` (what a director writes by hand)
/// or `round,board,black,white,result` (what [`results_csv`] writes).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Columns {
    Four,
    Five,
}

impl Columns {
    fn of(found: usize) -> Option<Columns> {
        match found {
            4 => Some(Columns::Four),
            5 => Some(Columns::Five),
            _ => None,
        }
    }
}

/// Reads a results file, CSV as RFC 4180 has it (a field with a comma or a quote is quoted,
/// a quote inside doubled): `round,black,white,result` or `round,board,black,white,result`,
/// the form [`results_csv`] writes, with or without its header line (which then sets the
/// columns). A bye has an empty opponent and no result (or `bye`); lines starting with `#`
/// and blank lines are skipped. Without a board column, games are numbered in order within
/// their round. Returns the players in order of appearance and the games.
///
/// # Errors
///
/// The first line that does not read, with its number.
pub fn read_results_csv(text: &str) -> Result<(Vec<String>, Vec<Game>), ReadResultsError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let mut names: Vec<String> = Vec::new();
    let mut games = Vec::new();
    let mut boards: BTreeMap<u32, u32> = BTreeMap::new();
    let mut header: Option<Columns> = None;
    let mut first = true;
    for record in reader.records() {
        let record = record.map_err(|e| ReadResultsError::Csv {
            line: e.position().map_or(0, |p| p.line() as usize),
            reason: e.to_string(),
        })?;
        let n = record.position().map_or(0, |p| p.line() as usize);
        let f: Vec<&str> = record.iter().collect();
        if f.iter().all(|x| x.is_empty()) {
            continue;
        }
        if std::mem::take(&mut first) && f[0].eq_ignore_ascii_case("round") {
            header = Some(if f.len() == 5 && f[1].eq_ignore_ascii_case("board") {
                Columns::Five
            } else if f.len() == 4 {
                Columns::Four
            } else {
                return Err(ReadResultsError::Fields {
                    line: n,
                    found: f.len(),
                });
            });
            continue;
        }
        let columns = Columns::of(f.len())
            .filter(|c| header.is_none_or(|h| h == *c))
            .ok_or(ReadResultsError::Fields {
                line: n,
                found: f.len(),
            })?;
        let (round, board, black, white, result) = match columns {
            Columns::Four => (f[0], None, f[1], f[2], f[3]),
            Columns::Five => (f[0], Some(f[1]), f[2], f[3], f[4]),
        };
        let round: u32 =
            round
                .parse()
                .ok()
                .filter(|r| *r > 0)
                .ok_or_else(|| ReadResultsError::Round {
                    line: n,
                    round: round.to_owned(),
                })?;
        let counted = boards.entry(round).or_default();
        *counted += 1;
        let board = match board {
            None => *counted,
            Some(b) => {
                b.parse()
                    .ok()
                    .filter(|b| *b > 0)
                    .ok_or_else(|| ReadResultsError::Board {
                        line: n,
                        board: b.to_owned(),
                    })?
            }
        };
        for p in [black, white] {
            if !p.is_empty() && !names.iter().any(|x| x == p) {
                names.push(p.to_owned());
            }
        }
        let g = match (black.is_empty(), white.is_empty()) {
            (true, true) => return Err(ReadResultsError::NoPlayer { line: n }),
            (false, true) | (true, false) => {
                let p = if black.is_empty() { white } else { black };
                if !result.is_empty() && !result.eq_ignore_ascii_case("bye") {
                    return Err(ReadResultsError::ByeResult {
                        line: n,
                        result: result.to_owned(),
                    });
                }
                Game::new(round, board, p, None, 0, Komi::points(8))
            }
            (false, false) => {
                let mut g = Game::new(round, board, black, Some(white), 0, Komi::points(8));
                if !result.is_empty() {
                    g.result = Some(
                        result
                            .parse()
                            .map_err(|source| ReadResultsError::Result { line: n, source })?,
                    );
                }
                g
            }
        };
        games.push(g);
    }
    Ok((names, games))
}

/// The results as CSV (RFC 4180, through the `csv` crate: a name with a comma or a quote is
/// quoted): `round,board,black,white,result`, a bye with an empty `white` and no result.
/// [`read_results_csv`] reads it back.
///
/// # Errors
///
/// [`ExportError::Csv`] if the writer fails, which writing to memory does not.
pub fn results_csv(games: &[Game]) -> Result<String, ExportError> {
    let csv_error = |e: &dyn std::fmt::Display| ExportError::Csv(e.to_string());
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["round", "board", "black", "white", "result"])
        .map_err(|e| csv_error(&e))?;
    for g in games {
        let r = match (&g.white, g.result) {
            (None, _) => String::new(),
            (Some(_), r) => r.map(|o| o.to_string()).unwrap_or_default(),
        };
        w.write_record([
            g.round.to_string().as_str(),
            g.board.to_string().as_str(),
            &g.black,
            g.white.as_deref().unwrap_or(""),
            &r,
        ])
        .map_err(|e| csv_error(&e))?;
    }
    let bytes = w.into_inner().map_err(|e| csv_error(&e))?;
    String::from_utf8(bytes).map_err(|e| csv_error(&e))
}

/// A record with the game's conditions and result, for a game entered by hand (no moves):
/// `SZ`, `RU`, `KM`, `HA` (White's passes plus one), the event and round, the players and
/// their ranks, `RE` (`Void`, `B+F` for a forfeit) and the forfeit's reason in `GC`. `None`
/// for a bye, which is no game.
pub fn game_sgf(ev: &Event, g: &Game) -> Option<String> {
    let white = g.white.as_deref()?;
    let a = &ev.agreement;
    let rank = |n: &str| {
        ev.entrants
            .iter()
            .find(|e| e.name == n)
            .and_then(|e| e.rank)
            .map(|r| r.to_string())
    };
    let mut setup = Setup::empty(a.size).ok()?;
    setup.handicap_passes = g.passes;
    let game = ingo_rules::Game::new(
        setup,
        ingo_rules::Rules {
            komi: g.komi,
            ..a.rules.rules()
        },
    );
    let mut info = WriteInfo::default();
    let i = &mut info.info;
    i.rules = Some(rules_sgf_name(a.rules).to_owned());
    i.event = Some(a.name.clone());
    i.round = Some(g.round.to_string());
    i.players.black = Some(g.black.clone());
    i.players.white = Some(white.to_owned());
    i.ranks.black = rank(&g.black);
    i.ranks.white = rank(white);
    if let Some(r) = g.result {
        i.result = Some(match r {
            Outcome::Void => "Void".to_owned(),
            Outcome::Win {
                winner,
                by: WinBy::Forfeit(_),
            } => format!("{}+F", winner.letter()),
            o => o.to_string(),
        });
        i.comment = r
            .forfeit()
            .map(|f| format!("裁定敗: {} ({})", f.chinese(), f.name()));
    }
    Some(write_game(&game, &info))
}

/// The EGF tournament results format (`.h` file): a header of `; XX[...]` lines, then one
/// line a player in placement order: place, name (surname and given name when known, blanks
/// inside a name as `_`), grade, country (`xx` when unknown), club (`-`), then the scores and
/// one column a round: the opponent's place, `+`/`-`, `/` and the colour (`w`/`b`), with the
/// handicap stones after it and `!` after a forfeit; `0+` a bye, `0-` no game or a void
/// one; then `|PIN`, the EGD PIN, when known.
///
/// # Errors
///
/// [`ExportError::EgfFormat`] for an event that is neither Swiss nor McMahon.
pub fn egf_results(ev: &Event) -> Result<String, ExportError> {
    let a = &ev.agreement;
    if !matches!(a.format.kind, FormatKind::Swiss | FormatKind::McMahon) {
        return Err(ExportError::EgfFormat(a.format.kind));
    }
    let t = ev.standings();
    let place: BTreeMap<&str, usize> = t
        .iter()
        .enumerate()
        .map(|(i, s)| (s.player.as_str(), i + 1))
        .collect();
    let rounds = ev.games.iter().map(|g| g.round).max().unwrap_or(0);
    let mut s = String::new();
    // The class follows from the time limits; an event below class C is not one the EGF
    // rates, and a class it does not have is not claimed.
    match egf_class(&a.time) {
        Some(class) => {
            let _ = writeln!(s, "; CL[{class}]");
        }
        None => {
            let _ = writeln!(s, "; (no CL: the time limits are below the EGF's class C)");
        }
    }
    let _ = writeln!(s, "; EV[{}]", a.name);
    // The event's own days and place, when the agreement gives them (the registration period
    // is not when the games were played).
    if let Some(place) = &a.place {
        let _ = writeln!(s, "; PC[{place}]");
    }
    if let Some((start, end)) = &a.dates {
        let _ = writeln!(s, "; DT[{start},{end}]");
    }
    let _ = writeln!(
        s,
        "; HA[{}]",
        if a.handicap == HandicapSystem::Ranks {
            "h9"
        } else {
            "h0"
        }
    );
    let _ = writeln!(s, "; KM[{}]", a.komi);
    // TM is the basic time in minutes; the whole time control goes in the comment.
    let _ = writeln!(s, "; TM[{}]", basic_minutes(&a.time));
    let _ = writeln!(
        s,
        "; CM[{} under Ing's rules, time {}; main score, then {}]",
        a.format.kind.name(),
        a.time,
        a.scoring
            .tie_breakers
            .iter()
            .map(|k| k.name())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(s, ";");
    let mut head = format!(
        "; {:>3} {:<24} {:>3} {:>2} {:<4} {:>3}",
        "Pl", "Name", "Rk", "Co", "Club", "Pts"
    );
    for k in &a.scoring.tie_breakers {
        let _ = write!(head, " {:>5}", k.name());
    }
    for r in 1..=rounds {
        let _ = write!(head, " {:>6}", r);
    }
    let _ = writeln!(s, "{head}");
    for (i, st) in t.iter().enumerate() {
        let e = ev.entrants.iter().find(|e| e.name == st.player);
        // The EGF reads a grade on every line; a player of unknown rank is written as the
        // weakest grade ingo's ranks reach (級外, written 20k).
        let rank = egf_rank(e.and_then(|e| e.rank).unwrap_or(Rank::BelowKyu));
        let _ = write!(
            s,
            "  {:>3} {:<24} {:>3} {:>2} {:<4} {:>3}",
            i + 1,
            egf_name(&st.player, e),
            rank,
            e.and_then(|e| e.country.as_deref()).unwrap_or("xx"),
            e.and_then(|e| e.club.as_deref())
                .map_or_else(|| "-".to_owned(), word),
            st.main
        );
        for k in &a.scoring.tie_breakers {
            let _ = write!(s, " {:>5}", st.key(*k));
        }
        for r in 1..=rounds {
            let cell = ev
                .games
                .iter()
                .find(|g| g.round == r && g.has(&st.player))
                .map_or_else(
                    || "0-".to_owned(),
                    |g| match g.opponent(&st.player) {
                        None => {
                            if g.result == Some(Outcome::Void) {
                                "0-".to_owned()
                            } else {
                                "0+".to_owned()
                            }
                        }
                        Some(o) => {
                            // A void game, and one with no result yet, was not played: a
                            // free round for both (`0-`), not a jigo (`=`), which the EGD
                            // would rate as a draw.
                            let sign = match g.winner_loser() {
                                Some((w, _)) if w == st.player => "+",
                                Some(_) => "-",
                                None => return "0-".to_owned(),
                            };
                            let colour = if g.black == st.player { "b" } else { "w" };
                            let h = if g.passes > 0 {
                                (g.passes + 1).to_string()
                            } else {
                                String::new()
                            };
                            // A forfeit was decided without play: marked `!`, so that the
                            // EGD counts it in the table but does not rate it.
                            let unplayed = if g.result.and_then(Outcome::forfeit).is_some() {
                                "!"
                            } else {
                                ""
                            };
                            format!(
                                "{}{sign}/{colour}{h}{unplayed}",
                                place.get(o).copied().unwrap_or(0)
                            )
                        }
                    },
                );
            let _ = write!(s, " {cell:>6}");
        }
        if let Some(pin) = e.and_then(|e| e.egd_pin) {
            // The EGD PIN after a bar at the end of the line, as OpenGotha writes it.
            let _ = write!(s, " |{pin}");
        }
        s.push('\n');
    }
    Ok(s)
}

/// The basic (main) time of a time control in whole minutes, as the EGF's `TM` gives it; 0 for
/// none.
fn basic_minutes(t: &TimeControl) -> u64 {
    let main = match *t {
        TimeControl::None => Duration::ZERO,
        TimeControl::Absolute { main }
        | TimeControl::Japanese { main, .. }
        | TimeControl::Canadian { main, .. }
        | TimeControl::Fischer { main, .. } => main,
        TimeControl::IngPenalty { basic } | TimeControl::IngByoYomi { basic, .. } => basic,
    };
    main.as_secs() / 60
}

/// The EGF tournament class the time limits allow: `A` (basic time at least 60 minutes,
/// adjusted time at least 75), `B` (40 and 50), `C` (25 and 30), `None` below; with Fischer
/// timing the basic times are 45, 30 and 20 minutes. The adjusted
/// time is the basic time plus 45 moves of standard byo-yomi, 60 moves of Canadian overtime,
/// or 120 Fischer increments; sudden death, and Ing's penalty-point overtime (whose extension
/// costs points), add nothing.
pub fn egf_class(t: &TimeControl) -> Option<char> {
    let (basic, extra) = match *t {
        TimeControl::None => return None,
        TimeControl::Absolute { main } => (main, Duration::ZERO),
        TimeControl::IngPenalty { basic } => (basic, Duration::ZERO),
        TimeControl::Japanese { main, period, .. } => (main, period * 45),
        TimeControl::IngByoYomi { basic, period, .. } => (basic, period * 45),
        TimeControl::Canadian {
            main,
            stones,
            period,
        } => (main, period * 60 / stones.max(1)),
        TimeControl::Fischer {
            main, increment, ..
        } => (main, increment * 120),
    };
    let minutes = |d: Duration| d.as_secs_f64() / 60.0;
    let (basic, adjusted) = (minutes(basic), minutes(basic + extra));
    // Fischer timing has lower basic times for the same adjusted times (45, 30, 20 minutes).
    let fischer = matches!(t, TimeControl::Fischer { .. });
    let classes = if fischer {
        [('A', 45.0, 75.0), ('B', 30.0, 50.0), ('C', 20.0, 30.0)]
    } else {
        [('A', 60.0, 75.0), ('B', 40.0, 50.0), ('C', 25.0, 30.0)]
    };
    classes
        .into_iter()
        .find(|&(_, b, t)| basic >= b && adjusted >= t)
        .map(|(class, _, _)| class)
}

/// A name as one word of the EGF file: blanks separate the fields, so a blank inside a name
/// is written `_`, and so are `;` (which starts a comment) and `|` (which starts the PIN).
fn word(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join("_")
        .replace([';', '|'], "_")
}

/// The name field: surname and given name, each one word, when the entrant has them; else the
/// name as entered, as one word.
fn egf_name(name: &str, e: Option<&Entrant>) -> String {
    match e.and_then(|e| e.surname.as_deref().map(|s| (s, e.given_name.as_deref()))) {
        Some((surname, Some(given))) => format!("{} {}", word(surname), word(given)),
        Some((surname, None)) => word(surname),
        None => word(name),
    }
}

/// EGF ranks: `5d`, `2k`, professional ranks as `Np` with 9p the strongest.
pub fn egf_rank(r: Rank) -> String {
    match r {
        Rank::Pro(n) => format!("{}p", 10 - n),
        Rank::Dan(n) => format!("{n}d"),
        Rank::Kyu(n) => format!("{n}k"),
        Rank::BelowKyu => "20k".to_owned(),
    }
}
