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
