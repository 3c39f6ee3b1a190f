//! Exports of an event: results as CSV (and read back), the EGF tournament results format,
//! and an SGF record for a game entered by hand.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::time::Duration;

use ingo_clock::TimeControl;
use ingo_competition::Rank;
use ingo_rules::{Komi, Setup};
use ingo_sgf::{write_game, WriteInfo};

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

/// The event's results as CSV, as [`results_csv`] writes them, after `#` comment lines that
/// name the event, its format and the rules it is played under (the EGF's Simplified Ing
/// Rules, or the preset), the board and the komi. [`read_results_csv`] skips them.
///
/// # Errors
///
/// As [`results_csv`].
pub fn event_results_csv(ev: &Event) -> Result<String, ExportError> {
    let a = &ev.agreement;
    let mut s = String::new();
    let _ = writeln!(s, "# event: {}", a.name.replace('\n', " "));
    let _ = writeln!(
        s,
        "# {}, rules: {} ({}), {}x{}, komi {}",
        a.format.kind.name(),
        a.ruleset.title(),
        a.ruleset.name(),
        a.size,
        a.size,
        a.komi
    );
    s.push_str(&results_csv(&ev.games)?);
    Ok(s)
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
    i.rules = Some(a.ruleset.sgf_name().to_owned());
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

/// The EGF tournament results format (`.h` file) of an event of any format: a header of
/// `; XX[...]` lines, then one line a player in placement order: place, name (surname and
/// given name when known, blanks inside a name as `_`), grade, country (`xx` when unknown),
/// club (`-`), then the scores and one column a round: the opponent's place, `+`/`-`, `/` and
/// the colour (`w`/`b`), with the handicap after it and `!` after a forfeit; `0+` a bye, `0-`
/// no game or a void one; then `|PIN`, the EGD PIN, when known.
///
/// A round in which some player has more than one game (a knockout's void game replayed in
/// its round) has a column for each: the replay is a round of its own for the EGD. The
/// handicap is the EGF's count of stones: the 先 of article 6's scale (K 先 is White's K − 1
/// passes), so a game whose handicap is Ing's compensation points only (no passes, White
/// giving back fewer points than the even komi) is `1`, Black moving first without the full
/// komi; every handicap game is listed after the players with its conditions in Ing's terms
/// (passes and points), since the EGF's count cannot say them.
pub fn egf_results(ev: &Event) -> String {
    let a = &ev.agreement;
    let t = ev.standings();
    let place: BTreeMap<&str, usize> = t
        .iter()
        .enumerate()
        .map(|(i, s)| (s.player.as_str(), i + 1))
        .collect();
    let columns = egf_columns(&ev.games);
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
        if a.handicap == HandicapSystem::Even {
            "h0"
        } else {
            "h9"
        }
    );
    let _ = writeln!(s, "; KM[{}]", a.komi);
    // TM is the basic time in minutes; the whole time control goes in the comment.
    let _ = writeln!(s, "; TM[{}]", basic_minutes(&a.time));
    let _ = writeln!(
        s,
        "; CM[{} under {}, time {}; placed by {}]",
        a.format.kind.name(),
        a.ruleset.title(),
        a.time,
        std::iter::once(if a.format.kind == FormatKind::McMahon {
            "McMahon score"
        } else {
            "main score"
        })
        .chain(a.scoring.tie_breakers.iter().map(|k| k.name()))
        .collect::<Vec<_>>()
        .join(", ")
    );
    if columns.len() != columns.iter().map(|c| c.0).collect::<BTreeSet<_>>().len() {
        let _ = writeln!(
            s,
            "; (columns are games: a round with a replayed game has a column for each game)"
        );
    }
    let _ = writeln!(s, ";");
    let mut head = format!(
        "; {:>3} {:<24} {:>3} {:>2} {:<4} {:>3}",
        "Pl", "Name", "Rk", "Co", "Club", "Pts"
    );
    for k in &a.scoring.tie_breakers {
        let _ = write!(head, " {:>5}", k.name());
    }
    for (r, k) in &columns {
        let label = if columns.iter().filter(|c| c.0 == *r).count() > 1 {
            format!("{r}.{}", k + 1)
        } else {
            r.to_string()
        };
        let _ = write!(head, " {label:>6}");
    }
    let _ = writeln!(s, "{head}");
    for (i, st) in t.iter().enumerate() {
        let e = ev.entrants.iter().find(|e| e.name == st.player);
        // The EGF reads a grade on every line; a player of unknown rank is written as the
        // weakest grade ingo's ranks reach (級外, written 20k). A team member's rank is the
        // member's, the country the team's.
        let team = ev
            .entrants
            .iter()
            .find(|t| e.is_none() && t.members.iter().any(|m| m.name == st.player));
        let rank = e.and_then(|e| e.rank).or_else(|| {
            ev.entrants
                .iter()
                .flat_map(|t| &t.members)
                .find(|m| m.name == st.player)
                .and_then(|m| m.rank)
        });
        let _ = write!(
            s,
            "  {:>3} {:<24} {:>3} {:>2} {:<4} {:>3}",
            i + 1,
            egf_name(&st.player, e),
            egf_rank(rank.unwrap_or(Rank::BelowKyu)),
            e.or(team)
                .and_then(|e| e.country.as_deref())
                .unwrap_or("xx"),
            // A team member's club is the team's, or the team itself.
            e.and_then(|e| e.club.as_deref())
                .or_else(|| team.map(|t| t.club.as_deref().unwrap_or(&t.name)))
                .map_or_else(|| "-".to_owned(), word),
            if a.format.kind == FormatKind::McMahon {
                st.mcmahon
            } else {
                st.main
            }
        );
        for k in &a.scoring.tie_breakers {
            let _ = write!(s, " {:>5}", st.key(*k));
        }
        for (r, k) in &columns {
            let cell = ev
                .games
                .iter()
                .filter(|g| g.round == *r && g.has(&st.player))
                .nth(*k)
                .map_or_else(|| "0-".to_owned(), |g| egf_entry(ev, g, &st.player, &place));
            let _ = write!(s, " {cell:>6}");
        }
        if let Some(pin) = e.and_then(|e| e.egd_pin) {
            // The EGD PIN after a bar at the end of the line, as OpenGotha writes it.
            let _ = write!(s, " |{pin}");
        }
        s.push('\n');
    }
    let handicaps: Vec<&Game> = ev
        .games
        .iter()
        .filter(|g| !g.is_bye() && is_handicap(ev, g))
        .collect();
    if !handicaps.is_empty() {
        let _ = writeln!(
            s,
            ";\n; Handicaps in Ing's terms (article 6: 8 points a 先; the EGF's h is the 先, \
             White passing h - 1 times; h 1 without stones is Ing's compensation points only):"
        );
        for g in handicaps {
            let white = g.white.as_deref().unwrap_or_default();
            let _ = writeln!(
                s,
                ";   round {} board {}: {} (B, place {}) - {white} (W, place {}): h{}, White passes {} time(s) and gives back {} point(s)",
                g.round,
                g.board,
                g.black,
                place.get(g.black.as_str()).copied().unwrap_or(0),
                place.get(white).copied().unwrap_or(0),
                u32::from(g.passes) + 1,
                g.passes,
                g.komi
            );
        }
    }
    s
}

/// The columns of the EGF file, as (round, game of the round): a column a round, and one
/// more for each game beyond the first that a player has in one round (a replay).
fn egf_columns(games: &[Game]) -> Vec<(u32, usize)> {
    let rounds = games.iter().map(|g| g.round).max().unwrap_or(0);
    let mut out = Vec::new();
    for r in 1..=rounds {
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for g in games.iter().filter(|g| g.round == r) {
            for p in [Some(g.black.as_str()), g.white.as_deref()]
                .into_iter()
                .flatten()
            {
                *count.entry(p).or_default() += 1;
            }
        }
        let most = count.values().copied().max().unwrap_or(1).max(1);
        out.extend((0..most).map(|k| (r, k)));
    }
    out
}

/// Whether a game's conditions are not the agreement's even game: White passes, or gives
/// back other points than the even komi.
fn is_handicap(ev: &Event, g: &Game) -> bool {
    g.passes > 0 || g.komi != ev.agreement.komi
}

/// One entry of the EGF file: `player`'s game `g`.
fn egf_entry(ev: &Event, g: &Game, player: &str, place: &BTreeMap<&str, usize>) -> String {
    let Some(o) = g.opponent(player) else {
        // A bye: a free win, unless 罰停 cancelled it.
        return if g.result == Some(Outcome::Void) {
            "0-".to_owned()
        } else {
            "0+".to_owned()
        };
    };
    // A void game, and one with no result yet, was not played: a free round for both (`0-`),
    // not a jigo (`=`), which the EGD would rate as a draw.
    let sign = match g.winner_loser() {
        Some((w, _)) if w == player => "+",
        Some(_) => "-",
        None => return "0-".to_owned(),
    };
    let colour = if g.black == player { "b" } else { "w" };
    let h = if is_handicap(ev, g) {
        (u32::from(g.passes) + 1).to_string()
    } else {
        String::new()
    };
    // A forfeit was decided without play: marked `!`, so that the EGD counts it in the table
    // but does not rate it.
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
