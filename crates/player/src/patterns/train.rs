//! Training the gammas from game records by minorisation–maximisation (Coulom 2007, after
//! Hunter 2004), and measuring how often they rank the move played first.
//!
//! Each position of a record is a competition among the legal moves, won by the move played.
//! A move is a team of features; the probability of the winner is its strength (the product
//! of its features' gammas) over the sum of the strengths of all candidates. MM raises the
//! likelihood at every step, one feature group at a time (the other gammas fixed):
//!
//! `γᵢ ← Wᵢ / Σⱼ Cᵢⱼ / Eⱼ`
//!
//! with `Wᵢ` the wins of feature `i`, `Eⱼ` the total strength of competition `j` and `Cᵢⱼ` the
//! strength of `i`'s team-mates summed over the candidates of `j` that have `i`. As in
//! Coulom's paper, each gamma has a prior of one virtual win and one virtual loss against a
//! virtual opponent of gamma 1, so that rare features stay near 1.

use std::collections::HashMap;

use ingo_rules::{Game, Move, SplitMix64};

use super::features::{legal_features, Extractor, Group, MoveFeatures};
use super::Patterns;

/// A record to learn from or test on: a name (its path, which decides the split) and the game
/// replayed from it (its history is the record's moves).
#[derive(Clone, Debug)]
pub struct TrainGame {
    /// The name, for example the record's path in the corpus.
    pub name: String,
    /// The game as replayed from the record.
    pub game: Game,
}

/// How to train.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainConfig {
    /// The seed of the split of records and of the sample of positions.
    pub seed: u64,
    /// The share of records held out from training (by a seeded hash of their names), in
    /// percent.
    pub held_out_percent: u32,
    /// The share of the training records' positions used (a seeded draw per position), in
    /// 0..=1.
    pub sample: f64,
    /// A 3×3 shape gets a gamma when the move played had it at least this many times.
    pub min_shape: u32,
    /// A diamond gets a gamma when the move played had it at least this many times.
    pub min_diamond: u32,
    /// Passes of MM over every group.
    pub iterations: u32,
    /// Threads for reading the positions and for MM (the result does not depend on it).
    pub threads: usize,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            seed: 1,
            held_out_percent: 10,
            sample: 0.25,
            min_shape: 3,
            min_diamond: 20,
            iterations: 12,
            threads: 2,
        }
    }
}

/// Why training cannot run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum TrainError {
    /// No position to learn from (no record left for training, or none sampled).
    #[error("no training position (records {records}, held out {held_out})")]
    NoPositions {
        /// Records given.
        records: usize,
        /// Records held out.
        held_out: usize,
    },
    /// A setting out of range.
    #[error("bad setting: {0}")]
    Config(&'static str),
}

/// What training saw and did.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainStats {
    /// Records trained on.
    pub records: usize,
    /// Records held out.
    pub held_out: usize,
    /// Positions of the training records.
    pub positions_seen: usize,
    /// Positions sampled for MM.
    pub positions: usize,
    /// Candidate moves of those positions (one entry per distinct team of a position, with
    /// its count).
    pub candidates: u64,
    /// Distinct teams.
    pub teams: usize,
    /// Shapes rated: 3×3, radius-2 and radius-3 diamonds.
    pub shapes: (usize, usize, usize),
    /// The mean log-likelihood of the move played, after each MM pass.
    pub log_likelihood: Vec<f64>,
}

/// The result of [`train`].
#[derive(Clone, Debug)]
pub struct Training {
    /// The gammas (without notes: the caller says how they were made).
    pub patterns: Patterns,
    /// What training saw and did.
    pub stats: TrainStats,
}

/// How often the move played was ranked first, in the first 5 and in the first 10.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Evaluation {
    /// Records tested.
    pub records: usize,
    /// Positions tested.
    pub positions: u64,
    /// Positions whose move played was ranked first, within the first 5, within the first 10.
    /// A move tied with others counts as ranked below them all.
    pub top: [u64; 3],
}

impl Evaluation {
    /// The share of positions within the first 1, 5 and 10, in percent.
    pub fn rates(&self) -> [f64; 3] {
        let n = self.positions.max(1) as f64;
        self.top.map(|t| 100.0 * t as f64 / n)
    }
}

/// The FNV-1a hash of a name.
fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Whether the record `name` is held out from training by the split of `seed` that holds out
/// `percent` per cent of records.
pub fn held_out(name: &str, seed: u64, percent: u32) -> bool {
    SplitMix64::mix(name_hash(name) ^ SplitMix64::mix(seed)) % 100 < u64::from(percent)
}

/// Calls `f` with each position of `tg` (a clone of the game at that point, replayed from its
/// setup) and the move played there; positions where a handicap pass is due are skipped (the
/// pass is forced).
fn positions(tg: &TrainGame, mut f: impl FnMut(&Game, Move)) {
    let g0 = &tg.game;
    let mut g = Game::new(g0.setup().clone(), *g0.rules());
    g.set_handicap_game(g0.is_handicap());
    for m in g0.history() {
        if !(g.is_handicap() && g.handicap_pass_due()) {
            f(&g, m.mv);
        }
        if g.play_as(m.color, m.mv).is_err() {
            break;
        }
    }
}

/// The number of feature groups of a team: [`Group::ALL`], the 3×3 shape, the larger shape.
const GROUPS: usize = 10;
const NONE: u32 = u32::MAX;

/// The parts the competitions are split into for MM's sums (each part's sum is one thread's
/// work; the parts are added in order).
const MM_PARTS: usize = 16;

type Team = [u32; GROUPS];

/// The numbering of the features for MM.
struct Index {
    /// The first feature of each fixed group.
    fixed_start: [u32; 8],
    shapes: HashMap<u32, u32>,
    /// Radius-3 then radius-2 diamonds, by hash (`true` for radius 3).
    large: HashMap<(bool, u64), u32>,
    /// The group of each feature.
    group_of: Vec<u8>,
    /// What each feature is, to write the gammas back.
    what: Vec<Feature>,
}

#[derive(Clone, Copy)]
enum Feature {
    Fixed(Group, u8),
    Shape(u32),
    Large(bool, u64),
}

impl Index {
    fn team(&self, f: &MoveFeatures) -> Team {
        let mut t = [NONE; GROUPS];
        for g in Group::ALL {
            if let Some(level) = f.levels[g.index()] {
                t[g.index()] = self.fixed_start[g.index()] + u32::from(level);
            }
        }
        if let Some(k) = f.shape {
            if let Some(&i) = self.shapes.get(&k) {
                t[8] = i;
            }
        }
        if let Some(d) = f.diamonds {
            if let Some(&i) = self
                .large
                .get(&(true, d.radius3))
                .or_else(|| self.large.get(&(false, d.radius2)))
            {
                t[9] = i;
            }
        }
        t
    }
}

/// One position: its distinct teams with their counts, and the winner's team.
struct Competition {
    entries: Vec<(u32, u32)>,
    winner: u32,
}

/// The per-game seed of the position sample.
fn game_rng(name: &str, seed: u64) -> SplitMix64 {
    SplitMix64::new(name_hash(name) ^ SplitMix64::mix(seed ^ 0x5A3B_1E00))
}

fn keep(rng: &mut SplitMix64, sample: f64) -> bool {
    // The top 53 bits as a uniform number in [0, 1).
    ((rng.next_u64() >> 11) as f64) / ((1u64 << 53) as f64) < sample
}

/// Runs `work` on each item of `items` on `threads` threads (item `i` on thread `i % threads`)
/// and returns the results in the order of `items`.
fn parallel<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    work: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.max(1);
    if threads == 1 || items.len() < 2 {
        return items.iter().map(&work).collect();
    }
    let mut parts: Vec<Vec<(usize, R)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|w| {
                let work = &work;
                s.spawn(move || {
                    items
                        .iter()
                        .enumerate()
                        .skip(w)
                        .step_by(threads)
                        .map(|(i, t)| (i, work(t)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut out: Vec<Option<R>> = (0..items.len()).map(|_| None).collect();
    for part in &mut parts {
        for (i, r) in part.drain(..) {
            out[i] = Some(r);
        }
    }
    out.into_iter().flatten().collect()
}

/// Learns the gammas from the records of `games` that the split does not hold out.
///
/// Deterministic: equal records, order and configuration give equal gammas, whatever the
/// number of threads.
///
/// # Errors
/// [`TrainError`] when a setting is out of range or no position is left to learn from.
pub fn train(games: &[TrainGame], config: &TrainConfig) -> Result<Training, TrainError> {
    if !(0.0..=1.0).contains(&config.sample) || config.sample.is_nan() {
        return Err(TrainError::Config("sample must be within 0..=1"));
    }
    if config.held_out_percent > 100 {
        return Err(TrainError::Config("held_out_percent must be at most 100"));
    }
    let training: Vec<&TrainGame> = games
        .iter()
        .filter(|g| !held_out(&g.name, config.seed, config.held_out_percent))
        .collect();
    let held = games.len() - training.len();

    // Pass 1: the shapes of the moves played, counted over every training position.
    let counts = parallel(&training, config.threads, |tg| {
        let mut ex = Extractor::new().with_ladders(false);
        let mut shapes: HashMap<u32, u32> = HashMap::new();
        let mut large: HashMap<(bool, u64), u32> = HashMap::new();
        let mut n = 0usize;
        positions(tg, |g, mv| {
            n += 1;
            ex.prepare(g);
            let f = ex.features(g.board(), mv);
            if let Some(k) = f.shape {
                *shapes.entry(k).or_default() += 1;
            }
            if let Some(d) = f.diamonds {
                *large.entry((false, d.radius2)).or_default() += 1;
                *large.entry((true, d.radius3)).or_default() += 1;
            }
        });
        (n, shapes, large)
    });
    let mut positions_seen = 0;
    let mut shape_count: HashMap<u32, u32> = HashMap::new();
    let mut large_count: HashMap<(bool, u64), u32> = HashMap::new();
    for (n, s, l) in counts {
        positions_seen += n;
        for (k, c) in s {
            *shape_count.entry(k).or_default() += c;
        }
        for (k, c) in l {
            *large_count.entry(k).or_default() += c;
        }
    }

    // The numbering: fixed groups, then the shapes kept (sorted, so it does not depend on the
    // hash maps' order).
    let mut what = Vec::new();
    let mut group_of = Vec::new();
    let mut fixed_start = [0u32; 8];
    for g in Group::ALL {
        fixed_start[g.index()] = what.len() as u32;
        for level in 0..g.levels() {
            what.push(Feature::Fixed(g, level as u8));
            group_of.push(g.index() as u8);
        }
    }
    let mut kept_shapes: Vec<u32> = shape_count
        .iter()
        .filter(|(_, &c)| c >= config.min_shape)
        .map(|(&k, _)| k)
        .collect();
    kept_shapes.sort_unstable();
    let mut shapes = HashMap::new();
    for k in kept_shapes {
        shapes.insert(k, what.len() as u32);
        what.push(Feature::Shape(k));
        group_of.push(8);
    }
    let mut kept_large: Vec<(bool, u64)> = large_count
        .iter()
        .filter(|(_, &c)| c >= config.min_diamond)
        .map(|(&k, _)| k)
        .collect();
    kept_large.sort_unstable();
    let mut large = HashMap::new();
    for k in kept_large {
        large.insert(k, what.len() as u32);
        what.push(Feature::Large(k.0, k.1));
        group_of.push(9);
    }
    let index = Index {
        fixed_start,
        shapes,
        large,
        group_of,
        what,
    };

    // Pass 2: the sampled positions as competitions of teams, in chunks of records (so that
    // the teams of one chunk are merged before the next is read).
    let mut team_ids: HashMap<Team, u32> = HashMap::new();
    let mut teams: Vec<Team> = Vec::new();
    let mut comps: Vec<Competition> = Vec::new();
    let mut candidates = 0u64;
    for chunk in training.chunks(64) {
        let read = parallel(chunk, config.threads, |tg| {
            let mut ex = Extractor::new();
            let mut rng = game_rng(&tg.name, config.seed);
            let mut buf = Vec::new();
            let mut out: Vec<(Vec<(Team, u32)>, Team)> = Vec::new();
            positions(tg, |g, mv| {
                if !keep(&mut rng, config.sample) {
                    return;
                }
                legal_features(g, &mut ex, &mut buf);
                let Some(win) = buf.iter().find(|f| f.mv == mv) else {
                    return;
                };
                let winner = index.team(win);
                let mut ts: Vec<Team> = buf.iter().map(|f| index.team(f)).collect();
                ts.sort_unstable();
                let mut entries: Vec<(Team, u32)> = Vec::new();
                for t in ts {
                    match entries.last_mut() {
                        Some((last, n)) if *last == t => *n += 1,
                        _ => entries.push((t, 1)),
                    }
                }
                out.push((entries, winner));
            });
            out
        });
        for game in read {
            for (entries, winner) in game {
                let mut id = |t: Team| -> u32 {
                    *team_ids.entry(t).or_insert_with(|| {
                        teams.push(t);
                        (teams.len() - 1) as u32
                    })
                };
                let entries: Vec<(u32, u32)> = entries
                    .into_iter()
                    .map(|(t, n)| {
                        candidates += u64::from(n);
                        (id(t), n)
                    })
                    .collect();
                let winner = id(winner);
                comps.push(Competition { entries, winner });
            }
        }
    }
    drop(team_ids);
    if comps.is_empty() {
        return Err(TrainError::NoPositions {
            records: games.len(),
            held_out: held,
        });
    }

    let gammas = minorise_maximise(&index, &teams, &comps, config);
    let log_likelihood = gammas.1;
    let gammas = gammas.0;

    let mut patterns = Patterns::default();
    for (i, w) in index.what.iter().enumerate() {
        let g = gammas[i] as f32;
        match *w {
            Feature::Fixed(group, level) => patterns.fixed[group.index()][usize::from(level)] = g,
            Feature::Shape(k) => {
                patterns.shapes.insert(k, g);
            }
            Feature::Large(true, k) => {
                patterns.radius3.insert(k, g);
            }
            Feature::Large(false, k) => {
                patterns.radius2.insert(k, g);
            }
        }
    }
    let stats = TrainStats {
        records: training.len(),
        held_out: held,
        positions_seen,
        positions: comps.len(),
        candidates,
        teams: teams.len(),
        shapes: patterns.shape_counts(),
        log_likelihood,
    };
    Ok(Training { patterns, stats })
}

/// The MM passes: the gammas of every feature and the mean log-likelihood after each pass.
fn minorise_maximise(
    index: &Index,
    teams: &[Team],
    comps: &[Competition],
    config: &TrainConfig,
) -> (Vec<f64>, Vec<f64>) {
    let n = index.what.len();
    let mut gamma = vec![1.0f64; n];
    let mut wins = vec![0.0f64; n];
    for c in comps {
        for &f in &teams[c.winner as usize] {
            if f != NONE {
                wins[f as usize] += 1.0;
            }
        }
    }
    let threads = config.threads.max(1);
    // A fixed number of parts, summed in order: the sums do not depend on the threads.
    let chunk = comps.len().div_ceil(MM_PARTS).max(1);
    let parts: Vec<&[Competition]> = comps.chunks(chunk).collect();
    let mut strength = vec![0.0f64; teams.len()];
    let mut history = Vec::new();
    let compute_strength = |gamma: &[f64], strength: &mut [f64]| {
        for (s, t) in strength.iter_mut().zip(teams) {
            let mut v = 1.0;
            for &f in t {
                if f != NONE {
                    v *= gamma[f as usize];
                }
            }
            *s = v;
        }
    };
    for _ in 0..config.iterations {
        // The group indexes a column of every team, not one array.
        #[allow(clippy::needless_range_loop)]
        for group in 0..GROUPS {
            compute_strength(&gamma, &mut strength);
            let (strength, gamma_now) = (&strength, &gamma);
            let partial = parallel(&parts, threads, |part| {
                let mut denom: HashMap<u32, f64> = HashMap::new();
                let mut dense = vec![0.0f64; if group < 8 { n } else { 0 }];
                for c in part.iter() {
                    let total: f64 = c
                        .entries
                        .iter()
                        .map(|&(t, m)| f64::from(m) * strength[t as usize])
                        .sum();
                    for &(t, m) in &c.entries {
                        let f = teams[t as usize][group];
                        if f == NONE {
                            continue;
                        }
                        let v = f64::from(m) * strength[t as usize] / gamma_now[f as usize] / total;
                        if group < 8 {
                            dense[f as usize] += v;
                        } else {
                            *denom.entry(f).or_default() += v;
                        }
                    }
                }
                (dense, denom)
            });
            let mut denom = vec![0.0f64; n];
            for (dense, sparse) in partial {
                for (i, v) in dense.into_iter().enumerate() {
                    denom[i] += v;
                }
                // Summed in key order, so that the result does not depend on the map's order.
                let mut sparse: Vec<(u32, f64)> = sparse.into_iter().collect();
                sparse.sort_unstable_by_key(|e| e.0);
                for (f, v) in sparse {
                    denom[f as usize] += v;
                }
            }
            for f in 0..n {
                if usize::from(index.group_of[f]) == group {
                    // One virtual win and one virtual loss against a gamma of 1.
                    let g = gamma[f];
                    gamma[f] = (wins[f] + 1.0) / (denom[f] + 2.0 / (g + 1.0));
                }
            }
        }
        compute_strength(&gamma, &mut strength);
        let ll: f64 = comps
            .iter()
            .map(|c| {
                let total: f64 = c
                    .entries
                    .iter()
                    .map(|&(t, m)| f64::from(m) * strength[t as usize])
                    .sum();
                (strength[c.winner as usize] / total).ln()
            })
            .sum();
        history.push(ll / comps.len() as f64);
    }
    (gamma, history)
}

/// How often `patterns` rank the move played first (and within 5, 10) over every position of
/// the records of `games` that the split of `config` holds out.
pub fn evaluate(patterns: &Patterns, games: &[TrainGame], config: &TrainConfig) -> Evaluation {
    let tested: Vec<&TrainGame> = games
        .iter()
        .filter(|g| held_out(&g.name, config.seed, config.held_out_percent))
        .collect();
    let parts = parallel(&tested, config.threads, |tg| {
        let mut ex = Extractor::new();
        let mut feats = Vec::new();
        let mut rated = Vec::new();
        let mut e = Evaluation {
            records: 1,
            ..Evaluation::default()
        };
        positions(tg, |g, mv| {
            patterns.rate(g, &mut ex, &mut feats, &mut rated);
            let Some(&(_, mine)) = rated.iter().find(|r| r.0 == mv) else {
                return;
            };
            // Ties count against the move played.
            let rank = 1 + rated.iter().filter(|r| r.0 != mv && r.1 >= mine).count();
            e.positions += 1;
            for (slot, k) in [1, 5, 10].into_iter().enumerate() {
                if rank <= k {
                    e.top[slot] += 1;
                }
            }
        });
        e
    });
    parts
        .into_iter()
        .fold(Evaluation::default(), |a, b| Evaluation {
            records: a.records + b.records,
            positions: a.positions + b.positions,
            top: [
                a.top[0] + b.top[0],
                a.top[1] + b.top[1],
                a.top[2] + b.top[2],
            ],
        })
}
