//! The crosstable of an event: players in rank order, a column for each, the results between
//! them, as data (for pictures, which ingo-render draws), text and an HTML page.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use ingo_rules::Color;

use crate::{Event, Outcome, Scoring, Standing};

/// The crosstable: players in rank order, a column for each, the games between them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crosstable {
    /// The event's name.
    pub title: String,
    /// The format, rules and board, and the key to the cells.
    pub subtitle: String,
    /// The names of the tie-breakers, in the agreement's order.
    pub keys: Vec<&'static str>,
    /// The standings, in rank order: row and column `i` are `rows[i]`'s.
    pub rows: Vec<Standing>,
    /// `cells[i][j]`: player i's results against player j, e.g. "+b" "-w" "=b" "+w!" (a
    /// forfeit), several separated by a space.
    pub cells: Vec<Vec<String>>,
    scoring: Scoring,
}

impl Crosstable {
    /// The crosstable of `ev` as it stands.
    pub fn new(ev: &Event) -> Crosstable {
        let rows = ev.standings();
        let index: BTreeMap<&str, usize> = rows
            .iter()
            .enumerate()
            .map(|(i, s)| (s.player.as_str(), i))
            .collect();
        let n = rows.len();
        let mut cells = vec![vec![String::new(); n]; n];
        for g in &ev.games {
            let Some(w) = g.white.as_deref() else {
                continue;
            };
            let (Some(&bi), Some(&wi)) = (index.get(g.black.as_str()), index.get(w)) else {
                continue;
            };
            let (sb, sw) = match g.result {
                None => ("?", "?"),
                Some(Outcome::Void) => ("=", "="),
                Some(o) => match o.winner() {
                    Some(Color::Black) => ("+", "-"),
                    _ => ("-", "+"),
                },
            };
            let f = if g.result.and_then(Outcome::forfeit).is_some() {
                "!"
            } else {
                ""
            };
            for (i, j, sign, c) in [(bi, wi, sb, "b"), (wi, bi, sw, "w")] {
                if !cells[i][j].is_empty() {
                    cells[i][j].push(' ');
                }
                cells[i][j].push_str(&format!("{sign}{c}{f}"));
            }
        }
        let a = &ev.agreement;
        Crosstable {
            title: a.name.clone(),
            subtitle: format!(
                "{}, {}, {}×{}; + win, - loss, = void, ! forfeit, ? to play; b/w colour",
                a.format.kind.name(),
                a.ruleset.title(),
                a.size,
                a.size
            ),
            keys: a.scoring.tie_breakers.iter().map(|k| k.name()).collect(),
            rows,
            cells,
            scoring: a.scoring.clone(),
        }
    }

    /// The tie-breakers of `s`, in the order of [`Crosstable::keys`].
    pub fn key_values(&self, s: &Standing) -> Vec<u32> {
        self.scoring
            .tie_breakers
            .iter()
            .map(|k| s.key(*k))
            .collect()
    }

    /// As text, in columns.
    pub fn text(&self) -> String {
        let w = self
            .rows
            .iter()
            .map(|s| s.player.chars().count())
            .max()
            .unwrap_or(6)
            .max(6);
        let cw = self
            .cells
            .iter()
            .flatten()
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(2)
            .max(3);
        let mut s = format!(
            "{}\n{}\n\n{:>3}  {:<w$}",
            self.title, self.subtitle, "#", "player"
        );
        for j in 0..self.rows.len() {
            let _ = write!(s, " {:>cw$}", j + 1);
        }
        let _ = write!(s, " {:>4}", "main");
        for k in &self.keys {
            let _ = write!(s, " {k:>5}");
        }
        s.push('\n');
        for (i, r) in self.rows.iter().enumerate() {
            let _ = write!(s, "{:>3}  {:<w$}", r.rank, r.player);
            for j in 0..self.rows.len() {
                let c = if i == j { "x" } else { &self.cells[i][j] };
                let _ = write!(s, " {c:>cw$}");
            }
            let _ = write!(s, " {:>4}", r.main);
            for v in self.key_values(r) {
                let _ = write!(s, " {v:>5}");
            }
            s.push('\n');
        }
        s
    }

    /// As an HTML page.
    pub fn html(&self) -> String {
        let esc = |s: &str| {
            s.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        };
        let mut s = format!(
            "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>{t}</title>\n<style>\
             body{{font-family:sans-serif}} table{{border-collapse:collapse}} \
             td,th{{border:1px solid #999;padding:2px 6px;text-align:center}} td.name{{text-align:left}} \
             td.self{{background:#ddd}} .win{{color:#060}} .loss{{color:#900}}</style></head>\n\
             <body><h1>{t}</h1><p>{st}</p>\n<table>\n<tr><th>#</th><th>player</th>",
            t = esc(&self.title),
            st = esc(&self.subtitle)
        );
        for j in 0..self.rows.len() {
            let _ = write!(s, "<th>{}</th>", j + 1);
        }
        s.push_str("<th>main</th>");
        for k in &self.keys {
            let _ = write!(s, "<th>{k}</th>");
        }
        s.push_str("</tr>\n");
        for (i, r) in self.rows.iter().enumerate() {
            let _ = write!(
                s,
                "<tr><td>{}</td><td class=\"name\">{}</td>",
                r.rank,
                esc(&r.player)
            );
            for j in 0..self.rows.len() {
                if i == j {
                    s.push_str("<td class=\"self\"></td>");
                } else {
                    let c = &self.cells[i][j];
                    let class = if c.starts_with('+') {
                        "win"
                    } else if c.starts_with('-') {
                        "loss"
                    } else {
                        ""
                    };
                    let _ = write!(s, "<td class=\"{class}\">{}</td>", esc(c));
                }
            }
            let _ = write!(s, "<td><b>{}</b></td>", r.main);
            for v in self.key_values(r) {
                let _ = write!(s, "<td>{v}</td>");
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</table></body></html>\n");
        s
    }
}

/// The crosstable in round order, as OpenGotha prints it: a row a player in rank order, a
/// column a round, each cell the opponent's number (its row), the result and the colour as
/// the EGF writes them (`12+/b`, `3-/w2` with a handicap of 2 先, `7+/b!` a forfeit, `5=/w`
/// a void game, `12?/b` not played yet), `bye` (`bye void` when 罰停 cancelled it) and `-` a
/// round without a game; then the scores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundCrosstable {
    /// The event's name.
    pub title: String,
    /// The format, rules and board, and the key to the cells.
    pub subtitle: String,
    /// The name of the score that places the event (`MMS` in a McMahon event, else `main`).
    pub score: &'static str,
    /// The names of the tie-breakers, in the agreement's order.
    pub keys: Vec<&'static str>,
    /// The standings, in rank order: row `i` is `rows[i]`'s, its number `i + 1`.
    pub rows: Vec<Standing>,
    /// `cells[i][r]`: player i's games of round r + 1.
    pub cells: Vec<Vec<String>>,
    scoring: Scoring,
    mcmahon: bool,
}

impl RoundCrosstable {
    /// The crosstable in round order of `ev` as it stands.
    pub fn new(ev: &Event) -> RoundCrosstable {
        let rows = ev.standings();
        let index: BTreeMap<&str, usize> = rows
            .iter()
            .enumerate()
            .map(|(i, s)| (s.player.as_str(), i))
            .collect();
        let rounds = ev.games.iter().map(|g| g.round).max().unwrap_or(0) as usize;
        let a = &ev.agreement;
        let mut cells = vec![vec![String::new(); rounds]; rows.len()];
        for g in &ev.games {
            let r = g.round as usize - 1;
            let mut put = |name: &str, text: String| {
                if let Some(&i) = index.get(name) {
                    let c = &mut cells[i][r];
                    if !c.is_empty() {
                        c.push(' ');
                    }
                    c.push_str(&text);
                }
            };
            let Some(w) = g.white.as_deref() else {
                let void = if g.result == Some(Outcome::Void) {
                    " void"
                } else {
                    ""
                };
                put(&g.black, format!("bye{void}"));
                continue;
            };
            let h = if g.passes > 0 || g.komi != a.komi {
                (u32::from(g.passes) + 1).to_string()
            } else {
                String::new()
            };
            let f = if g.result.and_then(Outcome::forfeit).is_some() {
                "!"
            } else {
                ""
            };
            let (sb, sw) = match g.result {
                None => ("?", "?"),
                Some(Outcome::Void) => ("=", "="),
                Some(o) => match o.winner() {
                    Some(Color::Black) => ("+", "-"),
                    _ => ("-", "+"),
                },
            };
            let num = |n: &str| index.get(n).map_or(0, |i| i + 1);
            put(&g.black, format!("{}{sb}/b{h}{f}", num(w)));
            put(w, format!("{}{sw}/w{h}{f}", num(&g.black)));
        }
        for row in &mut cells {
            for c in row.iter_mut().filter(|c| c.is_empty()) {
                c.push('-');
            }
        }
        let mcmahon = a.format.kind == crate::FormatKind::McMahon;
        RoundCrosstable {
            title: a.name.clone(),
            subtitle: format!(
                "{}, {}, {}×{}; opponent's number, + win, - loss, = void, ? to play, /b /w colour, \
                 the handicap in 先 after it, ! forfeit",
                a.format.kind.name(),
                a.ruleset.title(),
                a.size,
                a.size
            ),
            score: if mcmahon { "MMS" } else { "main" },
            keys: a.scoring.tie_breakers.iter().map(|k| k.name()).collect(),
            rows,
            cells,
            scoring: a.scoring.clone(),
            mcmahon,
        }
    }

    /// The score that places `s`: its McMahon score in a McMahon event, else its main score.
    pub fn score_of(&self, s: &Standing) -> u32 {
        if self.mcmahon {
            s.mcmahon
        } else {
            s.main
        }
    }

    /// The tie-breakers of `s`, in the order of [`RoundCrosstable::keys`].
    pub fn key_values(&self, s: &Standing) -> Vec<u32> {
        self.scoring
            .tie_breakers
            .iter()
            .map(|k| s.key(*k))
            .collect()
    }

    /// As text, in columns.
    pub fn text(&self) -> String {
        let w = self
            .rows
            .iter()
            .map(|s| s.player.chars().count())
            .max()
            .unwrap_or(6)
            .max(6);
        let cw = self
            .cells
            .iter()
            .flatten()
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(2)
            .max(5);
        let rounds = self.cells.first().map_or(0, Vec::len);
        let mut s = format!(
            "{}\n{}\n\n{:>3}  {:<w$}",
            self.title, self.subtitle, "#", "player"
        );
        for r in 1..=rounds {
            let _ = write!(s, " {:>cw$}", format!("R{r}"));
        }
        let _ = write!(s, " {:>4}", self.score);
        for k in &self.keys {
            let _ = write!(s, " {k:>5}");
        }
        s.push('\n');
        for (i, r) in self.rows.iter().enumerate() {
            let _ = write!(s, "{:>3}  {:<w$}", i + 1, r.player);
            for c in &self.cells[i] {
                let _ = write!(s, " {c:>cw$}");
            }
            let _ = write!(s, " {:>4}", self.score_of(r));
            for v in self.key_values(r) {
                let _ = write!(s, " {v:>5}");
            }
            s.push('\n');
        }
        s
    }

    /// As an HTML page that prints on A4 (landscape when the rounds are many).
    pub fn html(&self) -> String {
        let esc = crate::sheets::esc;
        let rounds = self.cells.first().map_or(0, Vec::len);
        let mut body = format!(
            "<h1>{}</h1>\n<p class=\"sub\">{}</p>\n<table>\n<thead><tr><th class=\"n\">#</th><th>player</th><th class=\"n\">place</th>",
            esc(&self.title),
            esc(&self.subtitle)
        );
        for r in 1..=rounds {
            let _ = write!(body, "<th class=\"c\">R{r}</th>");
        }
        let _ = write!(body, "<th class=\"n\">{}</th>", self.score);
        for k in &self.keys {
            let _ = write!(body, "<th class=\"n\">{k}</th>");
        }
        body.push_str("</tr></thead>\n<tbody>\n");
        for (i, r) in self.rows.iter().enumerate() {
            let _ = write!(
                body,
                "<tr><td class=\"n\">{}</td><td class=\"name\">{}</td><td class=\"n\">{}</td>",
                i + 1,
                esc(&r.player),
                r.rank
            );
            for c in &self.cells[i] {
                let class = if c.contains('+') {
                    "c win"
                } else if c.contains('-') && c != "-" {
                    "c loss"
                } else {
                    "c"
                };
                let _ = write!(body, "<td class=\"{class}\">{}</td>", esc(c));
            }
            let _ = write!(body, "<td class=\"n\"><b>{}</b></td>", self.score_of(r));
            for v in self.key_values(r) {
                let _ = write!(body, "<td class=\"n\">{v}</td>");
            }
            body.push_str("</tr>\n");
        }
        body.push_str("</tbody></table>\n");
        let landscape = if rounds > 7 {
            "@page { size: A4 landscape; }\n"
        } else {
            ""
        };
        crate::sheets::page(
            &format!("{} — crosstable by round", self.title),
            &format!(
                "{landscape}body {{ font-size: 9pt; }} td, th {{ padding: 0.7mm 1.2mm; white-space: nowrap; }} td.name {{ white-space: normal; }} \
                 .win {{ color: #060; }} .loss {{ color: #900; }}\n"
            ),
            &body,
        )
    }
}
