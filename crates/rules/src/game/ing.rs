//! Ing's ko rules on a game (IKF, docs/rules.md §4): the hot stone (R2), double hot stones (R3), twin
//! hot stones (R4), the disturbing limit (R5) and the cycle bans (R6). The structures they read
//! off the board, ko pairs, complexes and local shapes, are in `crate::ko`.

use arrayvec::ArrayVec;

use crate::board::{Cell, PlayAnalysis};
use crate::color::Color;
use crate::ko::{self, KoPair, LocalShape};
use crate::point::Point;
use crate::zobrist;

use super::error::PlayErrorKind;
use super::history::{F_ATTACKING, F_BANNED, F_KO_CAPTURE, F_SUICIDE, NO_POINT};
use super::{Game, Plan};

/// A disturbing capture waiting for the opponent's answer (R5).
#[derive(Clone, Debug)]
pub(super) struct Pending {
    key: u64,
    /// The exact shape behind `key`, which confirms a later match.
    shape: LocalShape,
    ys: ArrayVec<u16, 16>,
}

impl Game {
    /// R2, single hot stone (單熱子): the previous move captured exactly the one stone on `p`,
    /// and this play would capture exactly the stone that made that capture. This is the exact
    /// board comparison behind "h' == L.pos_before", so no hash is involved.
    pub(super) fn retakes_hot_stone(&self, p: Point, a: &PlayAnalysis) -> bool {
        let Some(last) = self.hist.last() else {
            return false;
        };
        if last.pt == NO_POINT
            || last.flags & F_SUICIDE != 0
            || self.removed.len() - last.removed_start as usize != 1
        {
            return false;
        }
        self.removed[last.removed_start as usize] == p
            && a.captured_stones == 1
            && a.captured_heads[0] == self.board.head[last.pt as usize]
    }

    #[inline]
    pub(super) fn check_ing(
        &self,
        color: Color,
        p: Point,
        a: &PlayAnalysis,
    ) -> Result<Plan, PlayErrorKind> {
        if a.captured_stones == 0 {
            // R2–R5 are all about captures (hot stones, ko captures); most plays capture
            // nothing and only R6 can refuse them. Kept apart from the capture case so that
            // this common path is inlined and pays nothing for the rest.
            if self.cycle_banned(color, p) {
                return Err(PlayErrorKind::Cycle);
            }
            return Ok(Plan { pending: None });
        }
        self.check_ing_capture(color, p, a)
    }

    /// [`Game::check_ing`] for a play that captures.
    #[inline(never)]
    pub(super) fn check_ing_capture(
        &self,
        color: Color,
        p: Point,
        a: &PlayAnalysis,
    ) -> Result<Plan, PlayErrorKind> {
        let opp = color.opponent();
        // R2 單熱子: "凡提取熱子必須間隔一實手或虛手". After a pass the last move is not a play,
        // so the retake is legal (隔虛提劫).
        if self.retakes_hot_stone(p, a) {
            return Err(PlayErrorKind::HotStone);
        }
        // R3 雙熱子: "雙覆子逢雙成為雙熱子". The opponent just captured two or more stones and
        // this play retakes a group that includes the capturing stone; it is refused when the
        // opponent could then close the eternal-life cycle with one throw-in.
        if let (Some(last), true) = (self.hist.last(), self.hist.len() >= 2) {
            if last.pt != NO_POINT
                && last.flags & F_SUICIDE == 0
                && self.removed.len() > last.removed_start as usize
                && a.captured_stones >= 2
                && a.captured_heads
                    .contains(&self.board.head[last.pt as usize])
            {
                let t = self.hist.len() - 2;
                let target = self.pos_before(t);
                for &h in &a.captured_heads {
                    for q in self.board.string_stones(Point(h)) {
                        if a.hash_after ^ zobrist::stone(q.idx(), opp) == target
                            && self.confirm_double_hot(p, color, q, t)
                        {
                            return Err(PlayErrorKind::DoubleHot);
                        }
                    }
                }
            }
        }
        if self.cycle_banned(color, p) {
            return Err(PlayErrorKind::Cycle);
        }
        // R4 and R5 concern ko captures that attack.
        let mut pending = None;
        if let Some(y) = self.ko_capture_target(p, a) {
            if self.attacks(p, a) {
                let pairs = ko::complex(
                    &self.board,
                    KoPair {
                        x: p.0,
                        y: y as u16,
                    },
                );
                let n = pairs.len();
                if n >= 3 && n % 2 == 1 {
                    // R4 孿熱子: "爭三劫除單熱子外，另一單或雙覆子視同熱子".
                    if let Some(last) = self.hist.last() {
                        let last_attacking_ko = last.pt != NO_POINT
                            && last.flags & F_KO_CAPTURE != 0
                            && last.flags & F_ATTACKING != 0;
                        if last_attacking_ko
                            && pairs.iter().any(|k| k.y == last.pt)
                            && last.pt as usize != y
                        {
                            return Err(PlayErrorKind::TwinHot);
                        }
                    }
                } else if n >= 2 && n.is_multiple_of(2) {
                    // R5 越環再攪: "凡越環再攪必須隨時禁止攪方續攪".
                    let key = ko::local_key(&self.board, &pairs)
                        ^ zobrist::stone(p.idx(), color).rotate_left(17);
                    let shape = ko::local_shape(&self.board, &pairs, p, color);
                    // The key finds the candidates; the exact shape decides.
                    if self
                        .disturb_used
                        .get(&key)
                        .is_some_and(|shapes| shapes.contains(&shape))
                    {
                        return Err(PlayErrorKind::Disturbing);
                    }
                    pending = Some(Box::new(Pending {
                        key,
                        shape,
                        ys: pairs
                            .iter()
                            .filter(|k| k.y as usize != y)
                            .map(|k| k.y)
                            .take(16)
                            .collect(),
                    }));
                }
            }
        }
        Ok(Plan { pending })
    }

    /// R6: whether the play of `color` on `p` is banned for good in this situation after a
    /// completed cycle ("越環再攪…變窮").
    #[inline]
    pub(super) fn cycle_banned(&self, color: Color, p: Point) -> bool {
        if self.bans.is_empty() {
            return false;
        }
        self.cycle_banned_in(color, p)
    }

    /// [`Game::cycle_banned`] once some play is banned.
    #[inline(never)]
    pub(super) fn cycle_banned_in(&self, color: Color, p: Point) -> bool {
        let key = (self.situation_hash(), p.0);
        let Some(&first) = self.bans.get(&key) else {
            return false;
        };
        // Every candidate with this key is confirmed on the board; a collision never hides a
        // real ban.
        std::iter::once(first)
            .chain(
                self.more_bans
                    .iter()
                    .filter(|(k, _)| *k == key)
                    .map(|&(_, t)| t),
            )
            .any(|t| {
                let t = t as usize;
                self.hist[t].color == color && *self.cells_at(t) == self.board.cells
            })
    }

    /// The board after the play with an extra opponent stone on `q`, compared with the position
    /// after `t` moves (R3's exact check).
    pub(super) fn confirm_double_hot(&self, p: Point, color: Color, q: Point, t: usize) -> bool {
        let mut b = self.board.clone();
        let mut scratch = Vec::new();
        b.play_unchecked(p, color, &mut scratch);
        b.cells[q.idx()] = Cell::of(color.opponent());
        *self.cells_at(t) == b.cells
    }

    /// When the play on `p` is a ko capture, the point of the stone it captures.
    pub(super) fn ko_capture_target(&self, p: Point, a: &PlayAnalysis) -> Option<usize> {
        if a.captured_stones != 1 || !a.lone {
            return None;
        }
        if self
            .board
            .neighbors(p)
            .any(|q| self.board.get(q) == Cell::Empty)
        {
            return None;
        }
        Some(a.captured_heads[0] as usize)
    }

    /// Whether the play on `p` leaves an opponent string next to it (one it does not capture)
    /// with exactly one liberty; such a string had two, `p` and one more.
    pub(super) fn attacks(&self, p: Point, a: &PlayAnalysis) -> bool {
        if a.suicide {
            return false;
        }
        let opp = self.to_move.opponent();
        self.board.neighbors(p).any(|q| {
            self.board.color_at(q) == Some(opp)
                && !a.captured_heads.contains(&self.board.head[q.idx()])
                && self.board.liberties_upto(q, 3).len() == 2
        })
    }

    /// R6: a board play recreated the situation that stood after `j` moves. Ban, in their own
    /// situations, the attacking plays of the cycle, or when there are none the plays of the
    /// player who completed it (the disturber; the victim's replies stay legal).
    pub(super) fn ban_cycle(&mut self, j: usize) {
        let last = self.hist.len() - 1;
        let completer = self.hist[last].color;
        let seg = j..=last;
        let any_attacking = self.hist[seg.clone()]
            .iter()
            .any(|p| p.pt != NO_POINT && p.flags & F_ATTACKING != 0);
        for k in seg {
            let ply = self.hist[k];
            if ply.pt == NO_POINT || ply.flags & F_BANNED != 0 {
                continue;
            }
            let chosen = if any_attacking {
                ply.flags & F_ATTACKING != 0
            } else {
                ply.color == completer
            };
            if chosen {
                let key = (self.pos_before(k) ^ zobrist::side(ply.color), ply.pt);
                match self.bans.entry(key) {
                    std::collections::hash_map::Entry::Vacant(v) => {
                        v.insert(k as u32);
                    }
                    std::collections::hash_map::Entry::Occupied(_) => {
                        self.more_bans.push((key, k as u32));
                    }
                }
                self.hist[k].flags |= F_BANNED;
            }
        }
    }

    /// R5: a pending disturbing capture becomes "used" only when the opponent's very next
    /// move captures the stone of another pair of the complex, the free answer a double ko
    /// gives ("攪方迫使對方或利用雙劫循環提取"). Called by `apply` with the ply just pushed.
    #[inline]
    pub(super) fn resolve_disturbance(&mut self, pt: u16, flags: u8, removed_start: usize) {
        if let Some(pending) = self.pending.take() {
            let removed = &self.removed[removed_start..];
            if pt != NO_POINT
                && flags & F_SUICIDE == 0
                && removed.iter().any(|r| pending.ys.contains(&r.0))
            {
                let Pending { key, shape, .. } = *pending;
                let shapes = self.disturb_used.entry(key).or_default();
                if !shapes.contains(&shape) {
                    shapes.push(shape);
                }
            }
        }
    }

    /// R6: the board play that made the game `index` plies long recreated the situation
    /// hashed `sit`. Finds the latest earlier index with this situation on the real board (a
    /// hash that matches a different board is passed over) and bans the cycle's plays.
    pub(super) fn close_cycle(&mut self, index: usize, sit: u64) {
        let mut upto = index - 1;
        while let Some(j) = self.latest_index_of(sit, upto) {
            if self.color_at_index(j) == self.to_move && *self.cells_at(j) == self.board.cells {
                self.ban_cycle(j);
                break;
            }
            match j.checked_sub(1) {
                Some(u) => upto = u,
                None => break,
            }
        }
    }
}
