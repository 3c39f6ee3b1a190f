//! What a director prints on the day, as HTML pages that print on A4 (`@page` and
//! `@media print`): each round's pairing sheet (boards, players, scores, conditions and a
//! column for the results), its result slips for the players to fill in and sign, the wall
//! list (the standings in large type), and where a 擂台制 or 十局升降制 match stands
//! ([`match_state`]). Pure: the event in, the page out; the command line only writes it.

use std::fmt::Write as _;

use crate::agreement::FormatKind;
use crate::pairing::{group_scores, leitai_state, ten_game_state};
use crate::score::Game;
use crate::{Event, Outcome};

/// Why a sheet cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SheetError {
    /// The round has no games.
    #[error("round {0} is not paired")]
    NotPaired(u32),
}

/// Escapes text for HTML.
pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The style every printed page shares: A4 with margins, black on white, tables that keep
/// their rows whole and repeat their head on each page, nothing that only a screen needs.
pub(crate) const PRINT_CSS: &str = "\
@page { size: A4; margin: 12mm; }
* { box-sizing: border-box; }
body { font-family: 'DejaVu Sans', 'Liberation Sans', 'Noto Sans', sans-serif; font-size: 11pt; color: #000; background: #fff; margin: 0; }
h1 { font-size: 16pt; margin: 0 0 2mm 0; }
p.sub { margin: 0 0 4mm 0; color: #333; }
table { border-collapse: collapse; width: 100%; }
thead { display: table-header-group; }
tr { break-inside: avoid; page-break-inside: avoid; }
th, td { border: 0.3mm solid #444; padding: 1.2mm 2mm; text-align: left; vertical-align: middle; }
th { background: #e8e8e8; }
td.n, th.n { text-align: right; white-space: nowrap; }
td.c, th.c { text-align: center; white-space: nowrap; }
td.fill { width: 26mm; }
@media screen { body { margin: 8mm; max-width: 190mm; } }
@media print { th { background: #e8e8e8; -webkit-print-color-adjust: exact; print-color-adjust: exact; } a { color: #000; text-decoration: none; } }
";

/// An HTML page with the print style, `extra` style and `body`.
pub(crate) fn page(title: &str, extra_css: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n<style>\n{PRINT_CSS}{extra_css}</style></head>\n<body>\n{body}</body></html>\n",
        esc(title)
    )
}

/// The games of `round`, or the error for a round with none.
fn round_games(ev: &Event, round: u32) -> Result<Vec<&Game>, SheetError> {
    let games: Vec<&Game> = ev.games.iter().filter(|g| g.round == round).collect();
    if games.is_empty() {
        return Err(SheetError::NotPaired(round));
    }
    Ok(games)
}

/// A game's conditions in Ing's terms, in a few words: `even, komi 8`, or the handicap as
/// K 先 with White's passes (K − 1) and the points White gives back: `1 先, komi 0`,
/// `2 先: 1 pass, komi 0`.
pub fn conditions_text(ev: &Event, g: &Game) -> String {
    if g.passes == 0 && g.komi == ev.agreement.komi {
        format!("even, komi {}", g.komi)
    } else if g.passes == 0 {
        format!("1 先, komi {}", g.komi)
    } else {
        format!(
            "{} 先: {} pass{}, komi {}",
            u32::from(g.passes) + 1,
            g.passes,
            if g.passes == 1 { "" } else { "es" },
            g.komi
        )
    }
}

/// The score a player is paired on before `round`: the McMahon score in a McMahon event, the
/// main score otherwise.
fn scores_before(ev: &Event, round: u32) -> std::collections::BTreeMap<String, i32> {
    let before: Vec<Game> = ev
        .games
        .iter()
        .filter(|g| g.round < round)
        .cloned()
        .collect();
    group_scores(&ev.agreement, &ev.entrants, &before)
}

fn rank_of(ev: &Event, name: &str) -> String {
    ev.entrants
        .iter()
        .find(|e| e.name == name)
        .and_then(|e| e.rank)
        .or_else(|| {
            ev.entrants
                .iter()
                .flat_map(|t| &t.members)
                .find(|m| m.name == name)
                .and_then(|m| m.rank)
        })
        .map(|r| r.to_string())
        .unwrap_or_default()
}

/// The pairing sheet of `round`: a line a board (Black and White with rank and the score
/// they were paired on, the conditions, and the result, or an empty box to write it in),
/// then the bye. For the wall and the director's table; prints on A4, the head repeated on
/// each page.
///
/// # Errors
///
/// [`SheetError::NotPaired`] for a round without games.
pub fn pairing_sheet(ev: &Event, round: u32) -> Result<String, SheetError> {
    let games = round_games(ev, round)?;
    let a = &ev.agreement;
    let scores = scores_before(ev, round);
    let score_name = if a.format.kind == FormatKind::McMahon {
        "MMS"
    } else {
        "score"
    };
    let mut body = format!(
        "<h1>{} — round {round}</h1>\n<p class=\"sub\">Pairings: {}, {}, {}×{}. Write the result as B+ or W+ (and the margin, R or T).</p>\n\
         <table>\n<thead><tr><th class=\"n\">board</th><th>Black</th><th class=\"c\">rank</th><th class=\"n\">{score_name}</th>\
         <th>White</th><th class=\"c\">rank</th><th class=\"n\">{score_name}</th><th>conditions</th><th class=\"c\">result</th></tr></thead>\n<tbody>\n",
        esc(&a.name),
        a.format.kind.name(),
        esc(a.ruleset.title()),
        a.size,
        a.size
    );
    let score = |n: &str| {
        scores
            .get(n)
            .map(i32::to_string)
            .unwrap_or_else(|| "-".into())
    };
    for g in games.iter().filter(|g| !g.is_bye()) {
        let w = g.white.as_deref().unwrap_or_default();
        let result = g.result.map(|o| o.to_string()).unwrap_or_default();
        let _ = writeln!(
            body,
            "<tr><td class=\"n\">{}</td><td>{}</td><td class=\"c\">{}</td><td class=\"n\">{}</td><td>{}</td><td class=\"c\">{}</td><td class=\"n\">{}</td><td>{}</td><td class=\"c fill\">{}</td></tr>",
            g.board,
            esc(&g.black),
            esc(&rank_of(ev, &g.black)),
            score(&g.black),
            esc(w),
            esc(&rank_of(ev, w)),
            score(w),
            esc(&conditions_text(ev, g)),
            esc(&result)
        );
    }
    body.push_str("</tbody></table>\n");
    for g in games.iter().filter(|g| g.is_bye()) {
        let cancelled = if g.result == Some(Outcome::Void) {
            " (cancelled: 罰停)"
        } else {
            ""
        };
        let _ = writeln!(
            body,
            "<p class=\"bye\">Bye: <b>{}</b> ({}, {score_name} {}){cancelled}</p>",
            esc(&g.black),
            esc(&rank_of(ev, &g.black)),
            score(&g.black)
        );
    }
    Ok(page(
        &format!("{} — round {round} pairings", a.name),
        "body { font-size: 10pt; } td { white-space: nowrap; height: 8mm; } p.bye { margin-top: 3mm; }\n",
        &body,
    ))
}

/// The result slips of `round`: one a game, four to an A4 page, each with the event, round,
/// board, the players and conditions, boxes for the winner and the margin, and lines for both
/// players' signatures, cut apart along the dashed lines.
///
/// # Errors
///
/// [`SheetError::NotPaired`] for a round without games.
pub fn result_slips(ev: &Event, round: u32) -> Result<String, SheetError> {
    let games = round_games(ev, round)?;
    let a = &ev.agreement;
    let mut body = String::new();
    for (i, g) in games.iter().filter(|g| !g.is_bye()).enumerate() {
        let w = g.white.as_deref().unwrap_or_default();
        // Four slips a page: a break after every fourth.
        let class = if i % 4 == 3 { "slip last" } else { "slip" };
        let _ = writeln!(
            body,
            "<div class=\"{class}\"><div class=\"head\"><b>{}</b> — round {round}, board <b>{}</b></div>\n\
             <table><tr><th>Black</th><td>{} <span class=\"rk\">{}</span></td><td class=\"box\">&#9744; Black won</td></tr>\n\
             <tr><th>White</th><td>{} <span class=\"rk\">{}</span></td><td class=\"box\">&#9744; White won</td></tr></table>\n\
             <p>Conditions: {}. Margin: ________ &nbsp; by resignation &#9744; &nbsp; on time &#9744;</p>\n\
             <p class=\"sign\">Black's signature: ____________________ &nbsp; White's signature: ____________________</p></div>",
            esc(&a.name),
            g.board,
            esc(&g.black),
            esc(&rank_of(ev, &g.black)),
            esc(w),
            esc(&rank_of(ev, w)),
            esc(&conditions_text(ev, g))
        );
    }
    let css = "\
.slip { height: 66mm; border-bottom: 0.3mm dashed #000; padding: 3mm 0; break-inside: avoid; page-break-inside: avoid; }
.slip.last { break-after: page; page-break-after: always; border-bottom: none; }
.slip:last-child { break-after: auto; page-break-after: auto; }
.slip .head { font-size: 12pt; margin-bottom: 2mm; }
.slip table { width: 100%; }
.slip th { width: 22mm; }
.slip td.box { width: 40mm; }
.slip .rk { color: #333; }
.slip p { margin: 2mm 0; }
.slip p.sign { margin-top: 5mm; }
";
    Ok(page(
        &format!("{} — round {round} result slips", a.name),
        css,
        &body,
    ))
}

/// The wall list: the standings in large type, a line a player (place, name, rank, club,
/// the score that places the event and the tie-breakers, games won and lost), after the
/// latest round with results; a 擂台制 or 十局升降制 match says where it stands above.
pub fn wall_list(ev: &Event) -> String {
    let a = &ev.agreement;
    let table = ev.standings();
    let mcmahon = a.format.kind == FormatKind::McMahon;
    let played = ev
        .games
        .iter()
        .filter(|g| !g.is_bye() && g.result.is_some())
        .map(|g| g.round)
        .max();
    let mut body = format!(
        "<h1>{}</h1>\n<p class=\"sub\">Standings{}: {}, {}.</p>\n",
        esc(&a.name),
        played
            .map(|r| format!(" after round {r}"))
            .unwrap_or_default(),
        a.format.kind.name(),
        esc(a.ruleset.title())
    );
    if let Some(state) = match_state(ev) {
        let _ = writeln!(body, "<p class=\"state\">{}</p>", esc(&state));
    }
    let _ = write!(
        body,
        "<table>\n<thead><tr><th class=\"n\">place</th><th>name</th><th class=\"c\">rank</th><th>club</th><th class=\"n\">{}</th>",
        if mcmahon { "MMS" } else { "points" }
    );
    for k in &a.scoring.tie_breakers {
        let _ = write!(body, "<th class=\"n\">{}</th>", k.name());
    }
    body.push_str("<th class=\"c\">won–lost</th></tr></thead>\n<tbody>\n");
    for s in &table {
        let e = ev.entrants.iter().find(|e| e.name == s.player);
        let club = e.and_then(|e| e.club.as_deref()).unwrap_or("");
        let withdrawn = if e.is_some_and(|e| e.withdrawn) {
            " <span class=\"note\">(withdrawn)</span>"
        } else {
            ""
        };
        let _ = write!(
            body,
            "<tr><td class=\"n\">{}</td><td class=\"name\">{}{withdrawn}</td><td class=\"c\">{}</td><td>{}</td><td class=\"n\"><b>{}</b></td>",
            s.rank,
            esc(&s.player),
            esc(&rank_of(ev, &s.player)),
            esc(club),
            if mcmahon { s.mcmahon } else { s.main }
        );
        for k in &a.scoring.tie_breakers {
            let _ = write!(body, "<td class=\"n\">{}</td>", s.key(*k));
        }
        let _ = writeln!(body, "<td class=\"c\">{}–{}</td></tr>", s.wins, s.losses);
    }
    body.push_str("</tbody></table>\n");
    page(
        &format!("{} — standings", a.name),
        "body { font-size: 11pt; } td, th { padding: 1.1mm 1.8mm; white-space: nowrap; } td.name { white-space: normal; } .note { color: #555; font-size: 10pt; } p.state { font-size: 14pt; font-weight: bold; }\n",
        &body,
    )
}

/// Where a team or match format stands, in a sentence: a 擂台制 event's team result (each
/// team's wins, who is on and how many games in a row, the members left) and a 十局升降制
/// match's score, running handicap and the lead since the handicap last moved. `None` for
/// other formats.
pub fn match_state(ev: &Event) -> Option<String> {
    match ev.agreement.format.kind {
        FormatKind::Leitai => {
            let [t1, t2] = &ev.entrants[..] else {
                return None;
            };
            let st = leitai_state([t1, t2], &ev.games);
            let teams = [t1, t2];
            let wins = |t: usize| {
                ev.games
                    .iter()
                    .filter_map(Game::winner_loser)
                    .filter(|(w, _)| teams[t].members.iter().any(|m| m.name == *w))
                    .count()
            };
            let mut s = format!(
                "Team result: {} {} – {} {} (games won)",
                t1.name,
                wins(0),
                wins(1),
                t2.name
            );
            if let Some(w) = st.winner {
                let l = 1 - w;
                let _ = write!(
                    s,
                    "; {} wins: all {} of {}'s members have lost",
                    teams[w].name,
                    teams[l].members.len(),
                    teams[l].name
                );
            } else {
                // Who is on (the winner of the last decided game) and for how many games.
                let decided: Vec<(&str, &str)> =
                    ev.games.iter().filter_map(Game::winner_loser).collect();
                if let Some(&(on, _)) = decided.last() {
                    let streak = decided.iter().rev().take_while(|(w, _)| *w == on).count();
                    let _ = write!(s, "; {on} is on the stage ({streak} win(s) in a row)");
                }
                for (team, next) in teams.iter().zip(st.next) {
                    let left: Vec<&str> = team.members[next.min(team.members.len())..]
                        .iter()
                        .map(|m| m.name.as_str())
                        .collect();
                    let _ = write!(s, "; {} left: {}", team.name, left.join(", "));
                }
            }
            Some(s)
        }
        FormatKind::TenGame => {
            let [p1, p2] = &ev.entrants[..] else {
                return None;
            };
            let f = &ev.agreement.format;
            let st = ten_game_state(&p1.name, &ev.games, f.margin, f.grade);
            let wins = |n: &str| {
                ev.games
                    .iter()
                    .filter_map(Game::winner_loser)
                    .filter(|(w, _)| *w == n)
                    .count()
            };
            let mut s = format!(
                "Match: {} {} – {} {} after {} of {} games; ",
                p1.name,
                wins(&p1.name),
                wins(&p2.name),
                p2.name,
                st.played,
                f.games
            );
            if st.handicap == 0 {
                s.push_str("handicap: even games");
            } else {
                let (giver, taker) = if st.handicap > 0 { (p1, p2) } else { (p2, p1) };
                let h = st.handicap.abs();
                let k = (h + 7) / 8;
                let _ = write!(
                    s,
                    "handicap: {} gives {} {h} point(s) ({k} 先: {} takes Black, White passes {} time(s) and gives back {} point(s))",
                    giver.name,
                    taker.name,
                    taker.name,
                    k - 1,
                    8 * k - h
                );
            }
            let leader = match st.lead.signum() {
                1 => format!("{} +{}", p1.name, st.lead),
                -1 => format!("{} +{}", p2.name, -st.lead),
                _ => "level".to_owned(),
            };
            let _ = write!(
                s,
                "; lead since the handicap last moved: {leader} (a lead of {} moves it one grade of {} points)",
                f.margin, f.grade
            );
            Some(s)
        }
        _ => None,
    }
}
