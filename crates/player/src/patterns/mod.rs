//! Move patterns learned from game records: the features of a candidate move and their
//! strengths ("gammas"), rated by the generalised Bradley–Terry model of Rémi Coulom, "Computing
//! Elo Ratings of Move Patterns in the Game of Go" (2007).
//!
//! A move is a *team* of features, at most one level of each group ([`Group`], the 3×3 shape
//! and the larger diamond shape); its strength is the product of its features' gammas, and the
//! probability that it is the move played is its strength over the sum of the strengths of
//! every legal move of the position. [`train`] fits the gammas to records by
//! minorisation–maximisation, and the weights shipped with the crate ([`Patterns::builtin`],
//! made by `ingo-bench patterns train`) are read from `data/patterns.txt`, compiled in.
//!
//! * [`Shape3x3`]: the key of the 3×3 shape around a point (liberties of its stones folded in),
//!   the same for the 8 symmetries and the exchange of colours; [`Patterns::gamma_3x3`] its
//!   gamma. For a playout policy: `Shape3x3::at(board, p, to_play)` then
//!   `patterns.gamma_3x3(key)`.
//! * [`Diamonds`]: the hashes of the diamonds of radius 2 and 3 around a point.
//! * [`Extractor`] and [`MoveFeatures`]: every feature of a move; [`legal_features`]: those of
//!   every move the rules allow.
//! * [`Patterns`]: the gammas, read from text ([`Patterns::parse`], typed errors
//!   [`PatternsError`]) and written back ([`Patterns::to_text`]); [`Patterns::rate`] the
//!   strengths of every legal move of a game.
//!
//! Only moves the game's rules allow are rated: [`legal_features`] asks
//! [`ingo_rules::Game::is_legal`] for each, so under Ing's rules a play the ko rules forbid is
//! never a candidate, while a block suicide ("塊子自盡…不禁著") is one (with its own level of
//! [`Group::SelfAtari`]).
//!
//! ```
//! use ingo_player::patterns::Patterns;
//! use ingo_rules::{Game, Rules, Setup};
//!
//! let patterns = Patterns::builtin().expect("the shipped weights parse");
//! let game = Game::new(Setup::empty(19).unwrap(), Rules::ing());
//! let ranked = patterns.ranked(&game);
//! assert_eq!(ranked.len(), 19 * 19 + 1); // every point and the pass
//! assert!(ranked[0].1 >= ranked[1].1);
//! ```

mod features;
mod shape;
mod train;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use ingo_rules::{Game, Move, SplitMix64};

pub use features::{legal_features, Extractor, Group, MoveFeatures};
pub use shape::{Diamonds, Shape3x3};
pub use train::{
    evaluate, held_out, train, Evaluation, TrainConfig, TrainError, TrainGame, TrainStats, Training,
};

/// The first line of a weights file that is not a comment, with the format's version.
pub const FORMAT_LINE: &str = "ingo-patterns 1";

/// The weights shipped with the crate (made by `ingo-bench patterns train`; the file's
/// comment lines say how).
const BUILTIN: &str = include_str!("../../data/patterns.txt");

/// A hasher for keys that are already well spread (shape keys, Zobrist hashes).
#[derive(Clone, Copy, Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = SplitMix64::mix(self.0 ^ u64::from(b));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = SplitMix64::mix(self.0 ^ u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = SplitMix64::mix(self.0 ^ n);
    }
}

type KeyMap<K> = HashMap<K, f32, BuildHasherDefault<KeyHasher>>;

/// Why a weights file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PatternsErrorKind {
    /// The first line that is not a comment is not [`FORMAT_LINE`].
    #[error("expected the format line `{FORMAT_LINE}`, found `{0}`")]
    Format(String),
    /// The file has no format line.
    #[error("the file is empty (no `{FORMAT_LINE}` line)")]
    Empty,
    /// A line does not have three fields: feature, level or key, gamma.
    #[error("expected `FEATURE LEVEL-OR-KEY GAMMA`, found `{0}`")]
    Fields(String),
    /// The feature is not one this version knows.
    #[error("unknown feature `{0}`")]
    UnknownFeature(String),
    /// A level outside the group's levels.
    #[error("level `{level}` of `{feature}` is not within 0..{levels}")]
    Level {
        /// The feature group.
        feature: String,
        /// The level as written.
        level: String,
        /// The number of levels of the group.
        levels: usize,
    },
    /// A shape key that is not hexadecimal (or too large).
    #[error("bad shape key `{0}`")]
    Key(String),
    /// A gamma that is not a finite positive number.
    #[error("bad gamma `{0}` (a finite number > 0)")]
    Gamma(String),
    /// The same feature twice.
    #[error("`{0}` is given twice")]
    Duplicate(String),
}

/// An error reading a weights file, with its line (from 1).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("patterns line {line}: {kind}")]
pub struct PatternsError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub kind: PatternsErrorKind,
}

/// The gammas of the features: strengths of the Bradley–Terry model, 1 for a feature not
/// listed (as if it were absent).
#[derive(Clone, Debug, PartialEq)]
pub struct Patterns {
    /// Per group of [`Group::ALL`], per level.
    fixed: [Vec<f32>; 8],
    shapes: KeyMap<u32>,
    radius2: KeyMap<u64>,
    radius3: KeyMap<u64>,
    /// The comment lines at the top of the file (without `# `).
    notes: Vec<String>,
}

impl Default for Patterns {
    /// Every gamma 1: every legal move equally likely.
    fn default() -> Self {
        Patterns {
            fixed: Group::ALL.map(|g| vec![1.0; g.levels()]),
            shapes: KeyMap::default(),
            radius2: KeyMap::default(),
            radius3: KeyMap::default(),
            notes: Vec::new(),
        }
    }
}

impl Patterns {
    /// The weights shipped with the crate, parsed once.
    ///
    /// # Errors
    /// When the compiled-in file does not parse (a test checks that it does).
    pub fn builtin() -> Result<&'static Patterns, &'static PatternsError> {
        static BUILT: OnceLock<Result<Patterns, PatternsError>> = OnceLock::new();
        BUILT.get_or_init(|| Patterns::parse(BUILTIN)).as_ref()
    }

    /// Reads a weights file: comment lines (`#`) first, kept as notes; then the format line
    /// [`FORMAT_LINE`]; then one feature a line, `GROUP LEVEL GAMMA` for the groups of
    /// [`Group`] (by [`Group::name`]), `3x3 KEY GAMMA`, `d2 HASH GAMMA` and `d3 HASH GAMMA`
    /// for the shapes (keys in hexadecimal). Blank lines and later comments are skipped.
    ///
    /// # Errors
    /// A [`PatternsError`] with the line and what is wrong.
    pub fn parse(text: &str) -> Result<Patterns, PatternsError> {
        let mut out = Patterns::default();
        let mut seen_format = false;
        let mut set_fixed = vec![vec![false; 26]; 8];
        for (n, raw) in text.lines().enumerate() {
            let line = n + 1;
            let err = |kind| PatternsError { line, kind };
            let l = raw.trim();
            if let Some(note) = l.strip_prefix('#') {
                if !seen_format {
                    out.notes
                        .push(note.strip_prefix(' ').unwrap_or(note).to_string());
                }
                continue;
            }
            if l.is_empty() {
                continue;
            }
            if !seen_format {
                if l != FORMAT_LINE {
                    return Err(err(PatternsErrorKind::Format(l.to_string())));
                }
                seen_format = true;
                continue;
            }
            let fields: Vec<&str> = l.split_whitespace().collect();
            let [feature, key, gamma] = fields[..] else {
                return Err(err(PatternsErrorKind::Fields(l.to_string())));
            };
            let g: f32 = gamma
                .parse()
                .ok()
                .filter(|g: &f32| g.is_finite() && *g > 0.0)
                .ok_or_else(|| err(PatternsErrorKind::Gamma(gamma.to_string())))?;
            let dup = || err(PatternsErrorKind::Duplicate(format!("{feature} {key}")));
            match feature {
                "3x3" => {
                    let k = u32::from_str_radix(key, 16)
                        .ok()
                        .filter(|&k| k < 1 << 24)
                        .ok_or_else(|| err(PatternsErrorKind::Key(key.to_string())))?;
                    if out.shapes.insert(k, g).is_some() {
                        return Err(dup());
                    }
                }
                "d2" | "d3" => {
                    let k = u64::from_str_radix(key, 16)
                        .map_err(|_| err(PatternsErrorKind::Key(key.to_string())))?;
                    let map = if feature == "d2" {
                        &mut out.radius2
                    } else {
                        &mut out.radius3
                    };
                    if map.insert(k, g).is_some() {
                        return Err(dup());
                    }
                }
                name => {
                    let group = Group::from_name(name)
                        .ok_or_else(|| err(PatternsErrorKind::UnknownFeature(name.to_string())))?;
                    let levels = group.levels();
                    let level = key
                        .parse::<usize>()
                        .ok()
                        .filter(|&v| v < levels)
                        .ok_or_else(|| {
                            err(PatternsErrorKind::Level {
                                feature: name.to_string(),
                                level: key.to_string(),
                                levels,
                            })
                        })?;
                    let seen = &mut set_fixed[group.index()][level];
                    if *seen {
                        return Err(dup());
                    }
                    *seen = true;
                    out.fixed[group.index()][level] = g;
                }
            }
        }
        if !seen_format {
            return Err(PatternsError {
                line: text.lines().count().max(1),
                kind: PatternsErrorKind::Empty,
            });
        }
        Ok(out)
    }

    /// The weights as text, in the format [`Patterns::parse`] reads: the notes as comments,
    /// then every feature whose gamma is known, shapes by key.
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        for n in &self.notes {
            let _ = writeln!(out, "# {n}");
        }
        let _ = writeln!(out, "{FORMAT_LINE}");
        for g in Group::ALL {
            for (level, gamma) in self.fixed[g.index()].iter().enumerate() {
                let _ = writeln!(out, "{} {level} {}", g.name(), fmt_gamma(*gamma));
            }
        }
        let mut shapes: Vec<_> = self.shapes.iter().collect();
        shapes.sort_by_key(|(k, _)| **k);
        for (k, g) in shapes {
            let _ = writeln!(out, "3x3 {k:06x} {}", fmt_gamma(*g));
        }
        for (name, map) in [("d2", &self.radius2), ("d3", &self.radius3)] {
            let mut keys: Vec<_> = map.iter().collect();
            keys.sort_by_key(|(k, _)| **k);
            for (k, g) in keys {
                let _ = writeln!(out, "{name} {k:016x} {}", fmt_gamma(*g));
            }
        }
        out
    }

    /// The comment lines at the top of the weights (how they were made).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Replaces the notes.
    pub fn set_notes(&mut self, notes: Vec<String>) {
        self.notes = notes;
    }

    /// The number of shapes with a gamma: 3×3, radius-2 and radius-3 diamonds.
    pub fn shape_counts(&self) -> (usize, usize, usize) {
        (self.shapes.len(), self.radius2.len(), self.radius3.len())
    }

    /// The gamma of level `level` of `group` (1 outside its levels).
    pub fn gamma_of(&self, group: Group, level: u8) -> f32 {
        self.fixed[group.index()]
            .get(usize::from(level))
            .copied()
            .unwrap_or(1.0)
    }

    /// The gamma of the 3×3 shape `key` ([`Shape3x3`]), 1 for a shape not rated.
    pub fn gamma_3x3(&self, key: u32) -> f32 {
        self.shapes.get(&key).copied().unwrap_or(1.0)
    }

    /// The gamma of the larger shape: the radius-3 diamond if it is rated, else the radius-2
    /// one, else 1 (the largest shape known, as Coulom's nested patterns).
    pub fn gamma_diamonds(&self, d: Diamonds) -> f32 {
        self.radius3
            .get(&d.radius3)
            .or_else(|| self.radius2.get(&d.radius2))
            .copied()
            .unwrap_or(1.0)
    }

    /// The strength of a move: the product of its features' gammas.
    pub fn gamma(&self, f: &MoveFeatures) -> f32 {
        let mut g = 1.0;
        for group in Group::ALL {
            if let Some(level) = f.levels[group.index()] {
                g *= self.gamma_of(group, level);
            }
        }
        if let Some(k) = f.shape {
            g *= self.gamma_3x3(k);
        }
        if let Some(d) = f.diamonds {
            g *= self.gamma_diamonds(d);
        }
        g
    }

    /// The strength of every move the player to move may play in `game` (see
    /// [`legal_features`]), into `out` (cleared first), in no particular order. `features` is a
    /// buffer.
    pub fn rate(
        &self,
        game: &Game,
        extractor: &mut Extractor,
        features: &mut Vec<MoveFeatures>,
        out: &mut Vec<(Move, f32)>,
    ) {
        legal_features(game, extractor, features);
        out.clear();
        out.extend(features.iter().map(|f| (f.mv, self.gamma(f))));
    }

    /// The legal moves of `game` with their strengths, strongest first (ties in the order of
    /// the board's points, row by row, the pass last).
    pub fn ranked(&self, game: &Game) -> Vec<(Move, f32)> {
        let mut out = Vec::new();
        self.rate(game, &mut Extractor::new(), &mut Vec::new(), &mut out);
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| move_order(a.0, b.0)));
        out
    }
}

/// Row by row, the pass last.
fn move_order(a: Move, b: Move) -> std::cmp::Ordering {
    let key = |m: Move| match m {
        Move::Play(p) => (0, p.row(), p.col()),
        Move::Pass => (1, 0, 0),
    };
    key(a).cmp(&key(b))
}

/// A gamma with 4 significant digits.
fn fmt_gamma(g: f32) -> String {
    format!("{g:.3e}")
}
