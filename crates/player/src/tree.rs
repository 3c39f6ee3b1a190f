//! The search tree: UCT with RAVE (rapid action value estimation, "all moves as first").
//!
//! Nodes live in one arena; a node's children are contiguous, created all at once when the node
//! is expanded. The root is the current game; the game of any other node is reached by replaying
//! the moves of its path on a clone of the root game, so nodes store no positions.

use ingo_rules::{Color, Game, Move, Point, Tally};

use crate::patterns::{Extractor, MoveFeatures, Patterns};
use crate::playout;
use crate::rng::Rng;

/// The search parameters a tree needs (taken from [`crate::Config`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Params {
    pub exploration: f32,
    pub rave_equiv: f32,
    pub first_play_urgency: f32,
    pub expand_visits: u32,
    pub max_nodes: usize,
    pub score_weight: f32,
    pub pass_prior: f32,
    pub playout: crate::PlayoutPolicy,
    /// Pattern priors for this search, or `None`.
    pub priors: Option<PriorParams>,
    /// Dynamic komi: half points the search takes off Black's margin ([`crate::Config::dynamic_komi`]).
    pub extra_komi_halves: i32,
}

/// [`Node::prior`]'s scale: a child of the likeliest pattern has this.
const PRIOR_ONE: f32 = u16::MAX as f32;

/// How the move patterns ([`Patterns`]) bias the search: each board-play child of a node gets,
/// once the node has `visits` playouts (the root at once), `equiv · √(p / p_max)` virtual AMAF
/// wins, rounded, where `p` is its pattern gamma and `p_max` the largest among the node's
/// children (as Pachi's pattern prior gives virtual wins by the square root of the
/// probability). The virtual wins weigh like real AMAF results and fade as real ones
/// accumulate. The pass gets none: AMAF never credits it, so they would never fade.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PriorParams {
    pub patterns: &'static Patterns,
    pub equiv: f32,
    pub visits: u32,
    /// Progressive widening, if any: see [`crate::Widening`].
    pub widening: Option<crate::Widening>,
    /// Progressive bias (Chaslot et al. 2008): `bias · p / p_max / (n + 1)` added to a child's
    /// selection value, `n` its real visits, so that the patterns' choice weighs until real
    /// playouts replace it (unlike the virtual AMAF wins, which AMAF samples wash out within a
    /// few hundred playouts); 0 for none.
    pub bias: f32,
}

impl crate::Widening {
    /// How many of a node's children, best pattern first, selection considers after `visits`
    /// playouts through it: `start`, and one more each time the visits grow by the factor
    /// `growth` past `visits` (a pass child is always considered besides).
    pub(crate) fn width(&self, visits: u32) -> usize {
        let n = f64::from(visits) / self.visits.max(1e-9);
        let extra = (1.0 + n).ln() / self.growth.max(1.0 + 1e-9).ln();
        self.start as usize + extra as usize
    }
}

/// The reward of a counted position for Black, in 0..=1: mostly the win (by the count, so the
/// tie rule applies), plus `weight` times the margin scaled to the board. The margin term makes
/// the search prefer the larger of two wins (and the smaller of two losses) instead of playing
/// aimlessly once every move wins, without ever trading much winning chance for points.
/// `points` is the number of points of the board. `extra_halves` (the dynamic komi) is taken
/// off Black's margin first; a margin it brings to zero is White's, as a tie in a handicap
/// game is.
pub(crate) fn black_reward(count: &Tally, points: usize, weight: f32, extra_halves: i32) -> f32 {
    let margin_halves = count.margin_halves - extra_halves;
    let black_wins = if extra_halves == 0 {
        count.winner == Color::Black
    } else {
        margin_halves > 0
    };
    let win = if black_wins { 1.0 } else { 0.0 };
    let area = points.max(1) as f32;
    let margin = (margin_halves as f32 / 2.0 / area).clamp(-1.0, 1.0);
    (1.0 - weight) * win + weight * (0.5 + 0.5 * margin)
}

/// One node: the move that leads to it and the statistics of that move.
///
/// `wins` count for `color`, the player who made `mv`, which is what the parent compares when
/// it chooses among its children.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub mv: Move,
    pub color: Color,
    /// Black's reward, when play stops at this node: two consecutive passes suspend play and the
    /// position is counted as it stands, every stone alive.
    pub terminal: Option<f32>,
    /// [`EXPANDED`] and [`PRIORS`].
    flags: u8,
    /// The move's pattern gamma over the best of its siblings', in units of 1 / [`PRIOR_ONE`]
    /// (0 until the parent has its priors).
    prior: u16,
    n_children: u16,
    first_child: u32,
    pub visits: u32,
    pub wins: f32,
    pub amaf_visits: u32,
    pub amaf_wins: f32,
}

impl Node {
    fn new(mv: Move, color: Color, terminal: Option<f32>) -> Node {
        Node {
            mv,
            color,
            terminal,
            flags: 0,
            prior: 0,
            n_children: 0,
            first_child: 0,
            visits: 0,
            wins: 0.0,
            amaf_visits: 0,
            amaf_wins: 0.0,
        }
    }

    /// The mean reward of the playouts through this node for the player who made its move:
    /// mostly the share won (see [`black_reward`]).
    pub fn win_rate(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            f64::from(self.wins) / f64::from(self.visits)
        }
    }
}

/// [`Node::flags`]: the node's children exist.
const EXPANDED: u8 = 1;
/// [`Node::flags`]: its children have their pattern priors.
const PRIORS: u8 = 2;

/// A search tree rooted at one game.
pub(crate) struct Tree {
    nodes: Vec<Node>,
    width: usize,
    /// Node ids from the root to the node evaluated in the current iteration.
    path: Vec<u32>,
    /// The buffers of the pattern priors.
    priors: PriorBuffers,
    /// Board plays of the current playout: (colour, point index).
    seq: Vec<(Color, u16)>,
    /// Per point, who played there first after the node being updated (0 none, 1 B, 2 W).
    first: Vec<u8>,
    /// The game each iteration plays on, a copy of the root made with `clone_from` (which reuses
    /// its buffers: no allocation per iteration).
    scratch: Option<Box<Game>>,
}

/// The buffers [`Tree::set_priors`] reuses.
#[derive(Default)]
struct PriorBuffers {
    extractor: Extractor,
    features: Vec<MoveFeatures>,
    rated: Vec<(Move, f32)>,
    /// Per point (row by row), the pass last: the gamma of the move.
    gamma: Vec<f32>,
}

fn code(c: Color) -> u8 {
    match c {
        Color::Black => 1,
        Color::White => 2,
    }
}

impl Tree {
    /// A tree with just the root, the position of `game`.
    pub fn new(game: &Game) -> Tree {
        let area = game.board().area();
        Tree {
            nodes: vec![Node::new(Move::Pass, game.to_move().opponent(), None)],
            width: game.board().width(),
            path: Vec::new(),
            priors: PriorBuffers::default(),
            seq: Vec::with_capacity(playout::MOVES_PER_POINT * area),
            first: vec![0; area],
            scratch: None,
        }
    }

    fn index(width: usize, p: Point) -> usize {
        p.row() * width + p.col()
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The node `id`.
    pub fn node(&self, id: usize) -> &Node {
        &self.nodes[id]
    }

    /// The ids of the children of `id`.
    pub fn children(&self, id: usize) -> std::ops::Range<usize> {
        let n = &self.nodes[id];
        let start = n.first_child as usize;
        start..start + usize::from(n.n_children)
    }

    /// The child of `id` with the most visits (ties: the more wins), if any was visited.
    pub fn best_child(&self, id: usize) -> Option<usize> {
        self.children(id)
            .filter(|&c| self.nodes[c].visits > 0)
            .max_by(|&a, &b| {
                let (na, nb) = (&self.nodes[a], &self.nodes[b]);
                na.visits
                    .cmp(&nb.visits)
                    .then(na.wins.total_cmp(&nb.wins))
                    // On a full tie prefer the earlier child, as `max_by` would the later.
                    .then(b.cmp(&a))
            })
    }

    /// The principal variation: the most visited child, repeatedly, from the root.
    pub fn pv(&self) -> Vec<Move> {
        let mut out = Vec::new();
        let mut id = 0;
        while let Some(c) = self.best_child(id) {
            out.push(self.nodes[c].mv);
            id = c;
        }
        out
    }

    /// A tree whose root is the node `id` of this one, with all of its subtree (renumbered,
    /// statistics kept); `game` is that node's position. Pondering uses it: the search made on
    /// the opponent's time goes on from the move the opponent played.
    pub fn subtree(&self, id: usize, game: &Game) -> Tree {
        let mut t = Tree::new(game);
        t.nodes[0] = self.nodes[id].clone();
        let mut stack = vec![(id, 0usize)];
        while let Some((old, new)) = stack.pop() {
            let children = self.children(old);
            let start = t.nodes.len();
            t.nodes.extend_from_slice(&self.nodes[children.clone()]);
            t.nodes[new].first_child = start as u32;
            for (k, c) in children.enumerate() {
                if self.nodes[c].n_children > 0 {
                    stack.push((c, start + k));
                }
            }
        }
        t
    }

    /// Adds the root statistics of `other`, a search of the same position, to this tree's:
    /// the root's visits and, move by move, its children's real and AMAF statistics (root
    /// parallelism: each thread searches a tree of its own and the trees vote together on the
    /// move). Children of `other` that this root lacks (none when both roots were expanded from
    /// one position) are left out; below the root this tree keeps its own statistics.
    pub fn merge_root(&mut self, other: &Tree) {
        self.nodes[0].visits += other.nodes[0].visits;
        self.nodes[0].wins += other.nodes[0].wins;
        let mine = self.children(0);
        for (k, oc) in other.children(0).enumerate() {
            let o = &other.nodes[oc];
            // Both roots list their children in the same order; look further only if not.
            let same = mine.start + k;
            let target = if mine.contains(&same) && self.nodes[same].mv == o.mv {
                Some(same)
            } else {
                mine.clone().find(|&c| self.nodes[c].mv == o.mv)
            };
            if let Some(c) = target {
                let n = &mut self.nodes[c];
                n.visits += o.visits;
                n.wins += o.wins;
                n.amaf_visits += o.amaf_visits;
                n.amaf_wins += o.amaf_wins;
            }
        }
    }

    /// Creates the children of `id`, whose position is `game`: every legal board play that does
    /// not fill the mover's own eye and is not suicide, and the pass.
    fn expand(&mut self, id: usize, game: &Game, params: &Params) {
        let color = game.to_move();
        let start = self.nodes.len();
        let board = game.board();
        // "讓手": a handicap pass that is due is White's only move.
        let handicap_due = game.is_handicap() && game.handicap_pass_due();
        if !handicap_due {
            for i in 0..board.empty_count() {
                let p = board.empty_point(i);
                let mv = Move::Play(p);
                // Never fill one's own eye: in a playout or in the tree it only ever destroys
                // life, and leaving it out shrinks the tree. Nor commit block suicide: legal
                // under Ing ("塊子自盡…不禁著") but it only gives stones away, and engines
                // playing other rules refuse it, which a referee counts against them.
                if crate::playout::is_candidate(game, p, color) && game.is_legal(mv) {
                    self.nodes.push(Node::new(mv, color, None));
                }
            }
        }
        // A pass after a pass suspends play: the node is terminal, valued by counting the
        // board as it stands (every stone alive, as Ing counts after the final passes). This
        // is what makes the search capture dead stones before passing: a pass leaving them
        // on the board is scored with them alive. (A handicap pass is no pass of the row,
        // `Game::consecutive_passes`, so Black's pass after one is not terminal.)
        let terminal = (game.consecutive_passes() >= 1).then(|| {
            black_reward(
                &game.tally(),
                game.board().area(),
                params.score_weight,
                params.extra_komi_halves,
            )
        });
        self.nodes.push(Node::new(Move::Pass, color, terminal));
        // At most one child per point plus the pass: 626 fits.
        let count = (self.nodes.len() - start) as u16;
        let n = &mut self.nodes[id];
        n.flags |= EXPANDED;
        n.first_child = start as u32;
        n.n_children = count;
    }

    fn select(&self, parent: usize, params: &Params) -> usize {
        let node = &self.nodes[parent];
        let log_n = (node.visits.max(1) as f32).ln();
        let mut best = node.first_child as usize;
        let mut best_value = f32::NEG_INFINITY;
        let all = self.children(parent);
        // With progressive widening, children that have their priors are in the order of their
        // patterns (the pass last): only the first `width` are considered, and the pass.
        let width = match params.priors.and_then(|p| p.widening) {
            Some(w) if node.flags & PRIORS != 0 => w.width(node.visits),
            _ => all.len(),
        };
        let last = all.end.saturating_sub(1);
        let pass = (all.len() > width && self.nodes[last].mv == Move::Pass).then_some(last);
        let bias = params.priors.map_or(0.0, |p| p.bias);
        for c in all.take(width).chain(pass) {
            let v = self.value(c, log_n, bias, params);
            if v > best_value {
                best_value = v;
                best = c;
            }
        }
        best
    }

    /// The selection value of a child: its win rate blended with its AMAF win rate (the weight
    /// of AMAF, β = ñ / (n + ñ + n·ñ/k), falls as real visits n accumulate; k is the number of
    /// visits at which both count equally, after Gelly and Silver), plus a UCT exploration term
    /// and the progressive bias of weight `bias_weight` ([`PriorParams::bias`], read once per
    /// selection by `select`).
    fn value(&self, id: usize, log_n: f32, bias_weight: f32, params: &Params) -> f32 {
        let node = &self.nodes[id];
        let mut n = node.visits as f32;
        // A pass that does not end play only gives the opponent a free move; it gets virtual
        // losses so that it is chosen when every board play is worse, not when noise favours
        // it (a pass has no AMAF statistics to steady its value).
        if node.mv == Move::Pass && node.terminal.is_none() {
            n += params.pass_prior;
        }
        let na = if params.rave_equiv > 0.0 {
            node.amaf_visits as f32
        } else {
            0.0
        };
        let bias = if bias_weight > 0.0 {
            bias_weight * f32::from(node.prior) / PRIOR_ONE / (n + 1.0)
        } else {
            0.0
        };
        if n == 0.0 && na == 0.0 {
            return params.first_play_urgency + bias;
        }
        let q = if n > 0.0 { node.wins / n } else { 0.0 };
        let mean = if na > 0.0 {
            let qa = node.amaf_wins / na;
            let beta = na / (n + na + n * na / params.rave_equiv);
            (1.0 - beta) * q + beta * qa
        } else {
            q
        };
        mean + bias + params.exploration * (log_n / (n + 1.0)).sqrt()
    }

    /// Iterates from `root` until `max` iterations (if given) are made or `stop` (if given) is
    /// set, which is read before each; returns the iterations made.
    pub fn iterate_until(
        &mut self,
        root: &Game,
        rng: &mut Rng,
        params: &Params,
        max: Option<u64>,
        stop: Option<&std::sync::atomic::AtomicBool>,
    ) -> u64 {
        let mut done: u64 = 0;
        while max.is_none_or(|m| done < m)
            && !stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
        {
            self.iterate(root, rng, params);
            done += 1;
        }
        done
    }

    /// One iteration: select down the tree from `root`, expand, play out, back up.
    pub fn iterate(&mut self, root: &Game, rng: &mut Rng, params: &Params) {
        // Taken out of `self` for the iteration (the tree's methods borrow it whole), then put back.
        let mut scratch = match self.scratch.take() {
            Some(mut g) => {
                (*g).clone_from(root);
                g
            }
            None => Box::new(root.clone()),
        };
        let game = &mut *scratch;
        self.path.clear();
        self.path.push(0);
        let mut id = 0;
        loop {
            if self.nodes[id].terminal.is_some() {
                break;
            }
            if self.nodes[id].flags & EXPANDED == 0 {
                let room = self.nodes.len() + game.board().empty_count() < params.max_nodes;
                if id != 0 && (self.nodes[id].visits < params.expand_visits || !room) {
                    break;
                }
                self.expand(id, game, params);
            }
            if self.nodes[id].n_children == 0 {
                break;
            }
            if let Some(prior) = &params.priors {
                let n = &self.nodes[id];
                if n.flags & PRIORS == 0 && (id == 0 || n.visits >= prior.visits) {
                    self.set_priors(id, game, prior);
                }
            }
            let c = self.select(id, params);
            self.path.push(c as u32);
            if game.play(self.nodes[c].mv).is_err() {
                // Legality depends only on the history, which the path fixes, so a child made
                // from a legal move stays legal. Should that ever fail, retire the child as a
                // loss for its mover rather than panic in the middle of a game.
                let loser = self.nodes[c].color;
                self.nodes[c].terminal = Some(if loser == Color::Black { 0.0 } else { 1.0 });
                break;
            }
            id = c;
        }
        self.seq.clear();
        let last = self.path[self.path.len() - 1] as usize;
        let reward = match self.nodes[last].terminal {
            Some(r) => r,
            None => {
                let (seq, width) = (&mut self.seq, self.width);
                let score = playout::run_with(game, rng, params.playout, |c, p| {
                    seq.push((c, Tree::index(width, p) as u16));
                });
                black_reward(
                    &score,
                    game.board().area(),
                    params.score_weight,
                    params.extra_komi_halves,
                )
            }
        };
        self.scratch = Some(scratch);
        self.backup(reward, params.rave_equiv > 0.0);
    }

    /// Gives the children of `id`, whose position is `game`, their pattern priors (see
    /// [`PriorParams`]). The patterns rate only moves the game's rules allow, and the children
    /// are such moves already; a child the patterns did not rate gets nothing.
    fn set_priors(&mut self, id: usize, game: &Game, prior: &PriorParams) {
        let buf = &mut self.priors;
        prior
            .patterns
            .rate(game, &mut buf.extractor, &mut buf.features, &mut buf.rated);
        let width = self.width;
        let pass_slot = game.board().area();
        let slot = |mv: Move| match mv {
            Move::Play(p) => Tree::index(width, p),
            Move::Pass => pass_slot,
        };
        buf.gamma.clear();
        buf.gamma.resize(pass_slot + 1, 0.0);
        for &(mv, g) in &buf.rated {
            buf.gamma[slot(mv)] = g;
        }
        let children = {
            let n = &self.nodes[id];
            let start = n.first_child as usize;
            start..start + usize::from(n.n_children)
        };
        let best = self.nodes[children.clone()]
            .iter()
            .map(|n| buf.gamma[slot(n.mv)])
            .fold(0.0f32, f32::max);
        if best > 0.0 && best.is_finite() {
            // Not the pass: AMAF never credits it, so virtual wins would never fade (and a pass
            // that does not end play has its virtual losses, `Params::pass_prior`).
            for child in self.nodes[children.clone()]
                .iter_mut()
                .filter(|c| c.mv != Move::Pass)
            {
                let share = buf.gamma[slot(child.mv)] / best;
                let wins = (prior.equiv * share.sqrt()).round();
                child.amaf_visits += wins as u32;
                child.amaf_wins += wins;
                child.prior = (share.clamp(0.0, 1.0) * PRIOR_ONE).round() as u16;
            }
            if prior.widening.is_some() {
                // Best pattern first, the pass last, for the widening of `select`. Nothing
                // points at a child by its place but its parent (through `first_child`), and
                // the children keep their own `first_child`, so reordering them is safe.
                let key = |n: &Node| match n.mv {
                    Move::Pass => f32::NEG_INFINITY,
                    mv => buf.gamma[slot(mv)],
                };
                self.nodes[children].sort_by(|a, b| key(b).total_cmp(&key(a)));
            }
        }
        self.nodes[id].flags |= PRIORS;
    }

    fn backup(&mut self, black_reward: f32, rave: bool) {
        let reward = |c: Color| match c {
            Color::Black => black_reward,
            Color::White => 1.0 - black_reward,
        };
        self.first.fill(0);
        // Walk the playout backwards so that the earliest play on a point is the one kept.
        for &(c, i) in self.seq.iter().rev() {
            self.first[usize::from(i)] = code(c);
        }
        for k in (0..self.path.len()).rev() {
            let id = self.path[k] as usize;
            let (mv, color, expanded) = {
                let n = &mut self.nodes[id];
                n.visits += 1;
                n.wins += reward(n.color);
                (n.mv, n.color, n.flags & EXPANDED != 0)
            };
            // `first` now holds the plays made after this node: AMAF credits each child whose
            // point its player was first to play in the rest of the game.
            if rave && expanded {
                for c in self.children(id) {
                    let child = &mut self.nodes[c];
                    if let Move::Play(p) = child.mv {
                        if self.first[Tree::index(self.width, p)] == code(child.color) {
                            child.amaf_visits += 1;
                            child.amaf_wins += reward(child.color);
                        }
                    }
                }
            }
            if let (Move::Play(p), true) = (mv, id != 0) {
                self.first[Tree::index(self.width, p)] = code(color);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use ingo_rules::{ByColor, Rules, Setup};

    use super::*;

    #[test]
    fn nodes_stay_small() {
        // `Config::max_nodes` documents the size; a 19×19 search makes millions of nodes.
        assert!(std::mem::size_of::<Node>() <= 40);
    }

    /// The search's settings in these tests: at most `max_nodes` nodes, light playouts.
    fn test_params(max_nodes: usize, priors: Option<PriorParams>) -> Params {
        Params {
            exploration: 0.1,
            rave_equiv: 1000.0,
            first_play_urgency: 1.1,
            expand_visits: 2,
            max_nodes,
            score_weight: 0.02,
            pass_prior: 10.0,
            playout: crate::PlayoutPolicy::Light,
            priors,
            extra_komi_halves: 0,
        }
    }

    /// The dynamic komi moves the line between a win and a loss: a Black win by 10 points is a
    /// loss against 12 extra points, and a margin it brings to zero is White's.
    #[test]
    fn the_dynamic_komi_is_taken_off_blacks_margin() {
        let count = |margin_halves: i32| Tally {
            stones: ByColor::new_with(|_| 0),
            spaces: ByColor::new_with(|_| 0),
            area: ByColor::new_with(|_| 0),
            shared: 0,
            margin_halves,
            winner: if margin_halves >= 0 {
                Color::Black
            } else {
                Color::White
            },
        };
        let r = |m: i32, extra: i32| black_reward(&count(m), 361, 0.0, extra);
        assert_eq!(r(20, 0), 1.0);
        assert_eq!(r(20, 24), 0.0);
        assert_eq!(r(20, 20), 0.0);
        assert_eq!(r(20, 18), 1.0);
        assert_eq!(r(-4, -10), 1.0);
        // The margin term follows the shifted margin.
        let w = |m: i32, extra: i32| black_reward(&count(m), 361, 1.0, extra);
        assert!(w(20, 24) < 0.5 && w(20, 0) > 0.5);
    }

    #[test]
    fn root_children_are_the_legal_non_eye_moves_and_the_pass() {
        let game = Game::new(Setup::empty(5).expect("size"), Rules::ing());
        let mut tree = Tree::new(&game);
        let params = test_params(10_000, None);
        let mut rng = Rng::new(5);
        for _ in 0..200 {
            tree.iterate(&game, &mut rng, &params);
        }
        assert_eq!(tree.children(0).len(), 26);
        assert_eq!(tree.node(0).visits, 200);
        let child_visits: u32 = tree.children(0).map(|c| tree.node(c).visits).sum();
        assert_eq!(child_visits, 200);
        // Every playout passes through one root child and credits AMAF to the root children
        // whose points Black played first, so AMAF counts exceed real visits.
        let amaf: u32 = tree.children(0).map(|c| tree.node(c).amaf_visits).sum();
        assert!(amaf > 200);
        assert!(tree.len() > 26);
    }

    #[test]
    fn pattern_priors_give_the_likeliest_child_the_most_virtual_wins() {
        let game = Game::new(Setup::empty(13).expect("size"), Rules::ing());
        let patterns = Patterns::builtin().expect("the shipped weights parse");
        let params = test_params(
            100_000,
            Some(PriorParams {
                patterns,
                equiv: 50.0,
                visits: 1_000_000,
                widening: None,
                bias: 0.0,
            }),
        );
        let mut tree = Tree::new(&game);
        // One iteration: the root gets its priors before the first selection, and the playout
        // credits real AMAF results on top.
        tree.iterate(&game, &mut Rng::new(1), &params);
        let root: Vec<&Node> = tree.children(0).map(|c| tree.node(c)).collect();
        assert_eq!(root.len(), 13 * 13 + 1);
        assert_ne!(tree.node(0).flags & PRIORS, 0);
        let ranked = patterns.ranked(&game);
        let best = ranked[0];
        let of = |mv: Move| root.iter().find(|n| n.mv == mv).expect("a child");
        // The likeliest move has the full 50 virtual wins (and maybe one real AMAF result).
        assert!(
            (50..=51).contains(&of(best.0).amaf_visits),
            "{:?}",
            of(best.0)
        );
        // The least likely board play has (nearly) none: √(γ / γ_max) rounds to its share.
        let worst = *ranked
            .iter()
            .rev()
            .find(|r| r.0 != Move::Pass)
            .expect("a board play");
        let expect = (50.0 * (worst.1 / best.1).sqrt()).round() as u32;
        assert!(
            (expect..=expect + 1).contains(&of(worst.0).amaf_visits),
            "{:?} {expect}",
            of(worst.0)
        );
        // The pass gets none: AMAF never credits it, so they would never fade.
        assert_eq!(of(Move::Pass).amaf_visits, 0);
        // A tree without priors gives none.
        let mut plain = Tree::new(&game);
        plain.iterate(
            &game,
            &mut Rng::new(1),
            &Params {
                priors: None,
                ..params
            },
        );
        assert_eq!(plain.node(0).flags & PRIORS, 0);
        assert!(plain.children(0).all(|c| plain.node(c).amaf_visits <= 1));
    }

    #[test]
    fn with_priors_the_tree_never_offers_a_move_ing_forbids() {
        // Black has just taken the ko at C12; White may not retake at B12 at once (T1 of
        // docs/rules.md). 13×13, where the priors apply by default.
        let mut game = Game::new(
            Setup {
                board: ingo_rules::Board::from_ascii(
                    "
                    . X O . . . . . . . . . .
                    X O . O . . . . . . . . .
                    . X O . . . . . . . . . .
                    . . . . . . . . . . . . .
                    . . . . . . . . . . . . .
                    . . . . . . . . . . . . .
                    . . . . . . . . . . . . .
                    . . . . . . . . . . . . .
                    . . . . . . . . . . . . .
                    . . . . . . . . . . . . .
                    . . . . . . . . . . . . .
                    . . . . . . . . . . . . .
                    . . . . . . . . . . . . .",
                )
                .expect("diagram"),
                to_move: Color::Black,
                handicap_passes: 0,
            },
            Rules::ing(),
        );
        let p = |c, r| Point::new(c, r).expect("point");
        game.play(Move::Play(p(2, 1))).expect("Black takes the ko");
        let retake = Move::Play(p(1, 1));
        assert!(!game.is_legal(retake));
        let params = test_params(
            100_000,
            Some(PriorParams {
                patterns: Patterns::builtin().expect("weights"),
                equiv: 400.0,
                visits: 8,
                widening: None,
                bias: 0.0,
            }),
        );
        let mut tree = Tree::new(&game);
        let mut rng = Rng::new(3);
        for _ in 0..300 {
            tree.iterate(&game, &mut rng, &params);
        }
        assert!(tree.children(0).all(|c| tree.node(c).mv != retake));
        assert!(tree.children(0).all(|c| game.is_legal(tree.node(c).mv)));
        // No child anywhere was retired as a move the game refused.
        assert!((0..tree.len())
            .all(|id| tree.node(id).terminal.is_none() || tree.node(id).mv == Move::Pass));
    }

    #[test]
    fn widening_orders_children_by_pattern_and_searches_only_the_best_few() {
        let game = Game::new(Setup::empty(13).expect("size"), Rules::ing());
        let patterns = Patterns::builtin().expect("weights");
        let widening = crate::Widening {
            start: 3,
            visits: 1e9,
            growth: 2.0,
        };
        assert_eq!(widening.width(1_000_000), 3);
        let params = test_params(
            100_000,
            Some(PriorParams {
                patterns,
                equiv: 50.0,
                visits: 8,
                widening: Some(widening),
                bias: 0.0,
            }),
        );
        let mut tree = Tree::new(&game);
        let mut rng = Rng::new(2);
        for _ in 0..400 {
            tree.iterate(&game, &mut rng, &params);
        }
        let root: Vec<&Node> = tree.children(0).map(|c| tree.node(c)).collect();
        assert_eq!(root.len(), 13 * 13 + 1, "every move is still a child");
        // The first children are the patterns' best moves, in order; the pass is last.
        let ranked = patterns.ranked(&game);
        for (k, node) in root.iter().take(3).enumerate() {
            assert_eq!(node.mv, ranked[k].0, "child {k}");
        }
        assert_eq!(root[root.len() - 1].mv, Move::Pass);
        // Only those three (and perhaps the pass) were searched.
        let searched: u32 = root[..3].iter().map(|n| n.visits).sum();
        let pass = root[root.len() - 1].visits;
        assert_eq!(searched + pass, 400);
        assert!(root[3..root.len() - 1].iter().all(|n| n.visits == 0));
        // The schedule grows with the playouts.
        let w = crate::Widening::default();
        assert_eq!(w.width(0), 4);
        assert!(w.width(100) > w.width(10));
        assert!(w.width(10_000) < 40);
    }

    #[test]
    fn progressive_bias_sends_the_first_playouts_to_the_likeliest_move() {
        let game = Game::new(Setup::empty(13).expect("size"), Rules::ing());
        let patterns = Patterns::builtin().expect("weights");
        // The likeliest moves (the board's symmetry makes several equally likely).
        let ranked = patterns.ranked(&game);
        let best: Vec<Move> = ranked
            .iter()
            .filter(|r| r.1 >= ranked[0].1)
            .map(|r| r.0)
            .collect();
        assert!(best.len() < 10);
        let visits_of_best = |bias: f32| {
            // No virtual AMAF wins: only the bias (if any) carries the patterns' choice.
            let params = test_params(
                100_000,
                Some(PriorParams {
                    patterns,
                    equiv: 0.0,
                    visits: 8,
                    widening: None,
                    bias,
                }),
            );
            let mut tree = Tree::new(&game);
            let mut rng = Rng::new(4);
            for _ in 0..50 {
                tree.iterate(&game, &mut rng, &params);
            }
            tree.children(0)
                .filter(|&c| best.contains(&tree.node(c).mv))
                .map(|c| tree.node(c).visits)
                .sum::<u32>()
        };
        // Without it, first-play urgency tries the moves one by one in board order.
        assert!(visits_of_best(0.0) as usize <= best.len());
        // With it, the likeliest moves keep the search until their bias has faded.
        assert!(
            visits_of_best(10.0) as usize > 2 * best.len(),
            "{} of {}",
            visits_of_best(10.0),
            best.len()
        );
    }
}
