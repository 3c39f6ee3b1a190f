//! The results of a match: wins per engine and colour, the ways games ended, and a confidence
//! interval for engine A's win rate.

use std::fmt::{self, Write as _};

use serde::{Deserialize, Serialize};

use crate::{
    config::MatchConfig,
    engine_id::EngineId,
    record::{EndKind, GameRecord},
};

/// Games and wins with one colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ColorStats {
    /// Counted games played with this colour.
    pub games: u32,
    /// Of those, games won.
    pub wins: u32,
}

/// One engine's results.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EngineStats {
    /// The name shown: the configured label, else the name the engine gave, else its program.
    pub name: String,
    /// Its command line.
    pub command: String,
    /// Counted games (void ones excluded).
    pub games: u32,
    /// Wins.
    pub wins: u32,
    /// As Black.
    pub as_black: ColorStats,
    /// As White.
    pub as_white: ColorStats,
    /// Losses by forfeit (illegal move, crash, garbage).
    pub forfeits: u32,
    /// Losses on time.
    pub time_losses: u32,
    /// Games this engine resigned.
    pub resignations: u32,
    /// Games excluded as void because of this engine's failure (voided attempts that were
    /// replayed are not counted here: see [`GameRecord::voided_before`]).
    pub voids_caused: u32,
    /// Penalty points (Ing PP) incurred over all counted games.
    pub penalty_points: i64,
}

/// How many games ended each way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndCounts {
    /// Counted.
    pub count: u32,
    /// By resignation.
    pub resignation: u32,
    /// On time.
    pub time: u32,
    /// By forfeit.
    pub forfeit: u32,
    /// Void and excluded.
    pub void: u32,
}

/// A match's results: what [`run_match`](crate::run_match) returns and `results.json` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchSummary {
    /// Games asked for.
    pub planned: u32,
    /// Games finished (each exactly once, void-and-excluded ones included).
    pub finished: u32,
    /// Games that count (finished and not void).
    pub counted: u32,
    /// Board size.
    pub size: usize,
    /// Engine A.
    pub a: EngineStats,
    /// Engine B.
    pub b: EngineStats,
    /// Counted games Black won.
    pub black_wins: u32,
    /// Counted games White won.
    pub white_wins: u32,
    /// How games ended.
    pub ends: EndCounts,
    /// Engine A's share of the counted games, when there are any.
    pub a_win_rate: Option<f64>,
    /// The 95% Wilson score interval of engine A's win rate, `[low, high]`.
    pub a_win_rate_ci95: Option<[f64; 2]>,
    /// Every finished game, by index.
    pub games: Vec<GameRecord>,
}

/// The Wilson score interval for `wins` successes in `n` trials at normal quantile `z`
/// (1.959964 for 95%): `None` when `n` is 0.
///
/// Unlike the normal approximation it stays inside `[0, 1]` and behaves at 0 or `n` wins.
///
/// ```
/// let (lo, hi) = ingo_referee::wilson_interval(8, 10, 1.959964).unwrap();
/// assert!((lo - 0.490).abs() < 1e-3 && (hi - 0.943).abs() < 1e-3);
/// ```
pub fn wilson_interval(wins: u32, n: u32, z: f64) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let n = f64::from(n);
    let p = f64::from(wins) / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    Some(((center - half).max(0.0), (center + half).min(1.0)))
}

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

impl MatchSummary {
    /// Tallies `games` (finished games of the match, any order; only indices up to
    /// `config.games` are counted).
    pub fn new(config: &MatchConfig, games: &[GameRecord]) -> MatchSummary {
        let mut games: Vec<GameRecord> = games
            .iter()
            .filter(|g| g.index >= 1 && g.index <= config.games)
            .cloned()
            .collect();
        games.sort_by_key(|g| g.index);
        games.dedup_by_key(|g| g.index);
        let name_of = |id: EngineId| {
            let spec = config.engine(id);
            spec.label.clone().unwrap_or_else(|| {
                games
                    .iter()
                    .find_map(|g| {
                        if g.black == id {
                            Some(g.black_name.clone())
                        } else if g.white == id {
                            Some(g.white_name.clone())
                        } else {
                            None
                        }
                    })
                    .unwrap_or_else(|| spec.program_name())
            })
        };
        let mut a = EngineStats {
            name: name_of(EngineId::A),
            command: config.a.command.clone(),
            ..EngineStats::default()
        };
        let mut b = EngineStats {
            name: name_of(EngineId::B),
            command: config.b.command.clone(),
            ..EngineStats::default()
        };
        let mut ends = EndCounts::default();
        let (mut black_wins, mut white_wins) = (0, 0);
        for g in &games {
            match g.end {
                EndKind::Count => ends.count += 1,
                EndKind::Resignation => ends.resignation += 1,
                EndKind::Time => ends.time += 1,
                EndKind::Forfeit => ends.forfeit += 1,
                EndKind::Void => ends.void += 1,
            }
            for id in [EngineId::A, EngineId::B] {
                let s = if id == EngineId::A { &mut a } else { &mut b };
                if g.failed == Some(id) && g.end == EndKind::Void {
                    s.voids_caused += 1;
                }
                if !g.counted() {
                    continue;
                }
                s.games += 1;
                let is_black = g.black == id;
                let won = g.winner == Some(id);
                let cs = if is_black {
                    &mut s.as_black
                } else {
                    &mut s.as_white
                };
                cs.games += 1;
                if won {
                    s.wins += 1;
                    cs.wins += 1;
                } else {
                    match g.end {
                        EndKind::Forfeit => s.forfeits += 1,
                        EndKind::Time => s.time_losses += 1,
                        EndKind::Resignation => s.resignations += 1,
                        _ => {}
                    }
                }
                s.penalty_points += i64::from(if is_black {
                    g.black_penalty
                } else {
                    g.white_penalty
                });
            }
            if g.counted() {
                match g.winner_color.as_deref() {
                    Some("B") => black_wins += 1,
                    Some("W") => white_wins += 1,
                    _ => {}
                }
            }
        }
        let counted = a.games;
        let a_win_rate = (counted > 0).then(|| f64::from(a.wins) / f64::from(counted));
        let a_win_rate_ci95 = wilson_interval(a.wins, counted, Z95).map(|(l, h)| [l, h]);
        MatchSummary {
            planned: config.games,
            finished: u32::try_from(games.len()).unwrap_or(u32::MAX),
            counted,
            size: config.size,
            a,
            b,
            black_wins,
            white_wins,
            ends,
            a_win_rate,
            a_win_rate_ci95,
            games,
        }
    }

    /// One line per game, tab-separated, with a header: what `results.tsv` holds.
    pub fn to_tsv(&self) -> String {
        let mut out = String::from(
            "game\tblack\twhite\tresult\twinner\tend\tfailure\tmoves\tmargin\tblack_penalty\twhite_penalty\tblack_time_ms\twhite_time_ms\tduration_ms\tvoided_before\tsgf\n",
        );
        for g in &self.games {
            let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
            let _ = writeln!(
                out,
                "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                g.index,
                g.black,
                g.white,
                clean(&g.result),
                g.winner.map_or_else(|| "-".to_string(), |w| w.to_string()),
                serde_json::to_value(g.end)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                g.failure_code
                    .as_deref()
                    .map_or_else(|| "-".to_string(), clean),
                g.moves,
                g.margin.map_or_else(|| "-".to_string(), |m| m.to_string()),
                g.black_penalty,
                g.white_penalty,
                g.black_time_ms,
                g.white_time_ms,
                g.duration_ms,
                g.voided_before,
                clean(&g.sgf),
            );
        }
        out
    }
}

fn pct(wins: u32, games: u32) -> String {
    if games == 0 {
        "-".to_string()
    } else {
        format!("{:.1}%", 100.0 * f64::from(wins) / f64::from(games))
    }
}

impl fmt::Display for MatchSummary {
    /// The results table, as `results.txt` holds it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} of {} games finished on {}x{}: {} counted, {} void",
            self.finished, self.planned, self.size, self.size, self.counted, self.ends.void
        )?;
        let width = self
            .a
            .name
            .chars()
            .count()
            .max(self.b.name.chars().count())
            .max(6);
        writeln!(
            f,
            "  {:<width$}  {:>5}  {:>6}  {:>15}  {:>15}  {:>8}  {:>4}  {:>4}",
            "engine", "wins", "rate", "as black", "as white", "forfeits", "time", "PP"
        )?;
        for (id, s) in [(EngineId::A, &self.a), (EngineId::B, &self.b)] {
            let colour =
                |c: &ColorStats| format!("{}/{} {:>6}", c.wins, c.games, pct(c.wins, c.games));
            writeln!(
                f,
                "{id} {:<width$}  {:>5}  {:>6}  {:>15}  {:>15}  {:>8}  {:>4}  {:>4}",
                s.name,
                s.wins,
                pct(s.wins, s.games),
                colour(&s.as_black),
                colour(&s.as_white),
                s.forfeits,
                s.time_losses,
                s.penalty_points,
            )?;
        }
        writeln!(
            f,
            "Black won {} ({}), White won {} ({})",
            self.black_wins,
            pct(self.black_wins, self.counted),
            self.white_wins,
            pct(self.white_wins, self.counted)
        )?;
        writeln!(
            f,
            "Ended by count {}, resignation {}, time {}, forfeit {}, void {}",
            self.ends.count,
            self.ends.resignation,
            self.ends.time,
            self.ends.forfeit,
            self.ends.void
        )?;
        match (self.a_win_rate, self.a_win_rate_ci95) {
            (Some(rate), Some([lo, hi])) => writeln!(
                f,
                "A win rate {:.1}%, 95% confidence interval (Wilson) {:.1}%–{:.1}%",
                100.0 * rate,
                100.0 * lo,
                100.0 * hi
            ),
            _ => writeln!(f, "A win rate: no counted games yet"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_at_the_edges() {
        assert_eq!(wilson_interval(0, 0, Z95), None);
        let (lo, hi) = wilson_interval(0, 10, Z95).expect("interval");
        assert!(lo.abs() < 1e-12 && (hi - 0.2775).abs() < 1e-3, "{lo} {hi}");
        let (lo, hi) = wilson_interval(10, 10, Z95).expect("interval");
        assert!(
            (lo - 0.7225).abs() < 1e-3 && (hi - 1.0).abs() < 1e-12,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson_interval(50, 100, Z95).expect("interval");
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3);
    }

    fn record(index: u32, black: EngineId, result: &str, end: EndKind) -> GameRecord {
        let winner_color = match result.as_bytes().first() {
            Some(b'B') => Some("B".to_string()),
            Some(b'W') => Some("W".to_string()),
            _ => None,
        };
        let winner = winner_color
            .as_deref()
            .map(|c| if c == "B" { black } else { black.other() });
        GameRecord {
            index,
            black,
            white: black.other(),
            black_name: "x".into(),
            white_name: "y".into(),
            result: result.into(),
            winner: if end == EndKind::Void { None } else { winner },
            winner_color: if end == EndKind::Void {
                None
            } else {
                winner_color
            },
            end,
            reason: String::new(),
            failure_code: None,
            failed: None,
            moves: 0,
            margin: None,
            black_penalty: 2,
            white_penalty: 0,
            handicap_passes: 0,
            komi: "8".into(),
            black_time_ms: 0,
            white_time_ms: 0,
            duration_ms: 0,
            voided_before: 0,
            sgf: String::new(),
        }
    }

    #[test]
    fn tallies() {
        let mut config = MatchConfig::new("a", "b", "out");
        config.games = 4;
        let games = [
            record(1, EngineId::A, "B+3", EndKind::Count),
            record(2, EngineId::B, "B+F", EndKind::Forfeit),
            record(3, EngineId::A, "W+T", EndKind::Time),
            record(4, EngineId::B, "Void", EndKind::Void),
            // Beyond the match: ignored.
            record(5, EngineId::A, "B+R", EndKind::Resignation),
        ];
        let s = MatchSummary::new(&config, &games);
        assert_eq!((s.finished, s.counted, s.ends.void), (4, 3, 1));
        assert_eq!((s.a.wins, s.b.wins), (1, 2));
        assert_eq!((s.a.forfeits, s.a.time_losses), (1, 1));
        assert_eq!(
            (s.a.as_black, s.a.as_white),
            (
                ColorStats { games: 2, wins: 1 },
                ColorStats { games: 1, wins: 0 },
            )
        );
        assert_eq!((s.black_wins, s.white_wins), (2, 1));
        assert_eq!(s.a.penalty_points, 4);
        assert_eq!(s.to_tsv().lines().count(), 5);
        assert!(s.to_string().contains("A win rate 33.3%"));
    }
}
