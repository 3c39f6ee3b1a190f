//! The situations that have stood in a game, as a set of Zobrist keys that may answer "seen" for
//! a key it does not hold (never the other way round).
//!
//! Written by hand rather than taken from a hashing library because every move of every game
//! inserts into it: with `FxHashSet<u64>` (hashbrown) the insert cost about 67 instructions a
//! move in 9×9 light playouts (callgrind), a sixth of the rules' own work per move. Zobrist keys
//! are already uniformly random, so a table indexed by the key's own low bits, with linear
//! probing, needs no hasher and no control bytes, and an insert that finds an empty slot at once
//! (the common case) costs a load, a compare and a store.
//!
//! A slot keeps only the key's low 32 bits (the index comes from them, so the table can still
//! grow): half the memory of whole keys, which matters because the table sits beside the board in
//! the cache on every move (with 8-byte slots, 19×19 playouts under Ing's rules missed the first
//! level cache twice as often as under simple ko, per callgrind's cache model). Two situations
//! whose keys share their low 32 bits look alike, so "seen" is only a hint: every caller
//! confirms it on the history (the exact 64-bit key, then the stones), as it must for a hash
//! match anyway.

/// A set of `u64` keys, uniformly random ones (Zobrist hashes), compared by their low 32 bits.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeySet {
    /// Open addressing, a power of two long (or empty): the low 32 bits of the keys; 0 marks an
    /// empty slot.
    slots: Vec<u32>,
    /// Keys in `slots`.
    len: usize,
    /// Whether a key whose low 32 bits are 0, which cannot be kept in a slot, was added.
    has_zero: bool,
}

/// Slots are kept at most half full, and a game reserves room for two moves per point (a playout
/// makes about one and a quarter), so that a typical game runs at a load of a quarter or less: the first probe
/// then nearly always settles an insert, and the branch that asks whether the slot is free is
/// rarely mispredicted (at three quarters, the table's mispredictions cost more than the rest
/// of Ing's rules in 9×9 playouts, per callgrind's branch model). 4 bytes a slot keep that at
/// 8–16 bytes a key once full (the history's budget is 64 bytes a move).
fn slots_for(keys: usize) -> usize {
    if keys == 0 {
        0
    } else {
        (keys * 2 + 1).next_power_of_two()
    }
}

impl KeySet {
    /// An empty set with room for `keys` keys without growing.
    pub(crate) fn with_capacity(keys: usize) -> KeySet {
        KeySet {
            slots: vec![0; slots_for(keys)],
            len: 0,
            has_zero: false,
        }
    }

    /// Number of distinct low halves added.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len + usize::from(self.has_zero)
    }

    /// Keys the set holds before it grows.
    #[cfg(test)]
    pub(crate) fn capacity(&self) -> usize {
        self.slots.len() / 2
    }

    /// Bytes of the heap this set uses.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<u32>()
    }

    #[inline]
    fn mask(&self) -> usize {
        self.slots.len().wrapping_sub(1)
    }

    /// Whether a key with the low 32 bits of `key` was added: always when `key` was, and about
    /// once in four billion lookups for a key that was not.
    pub(crate) fn contains(&self, key: u64) -> bool {
        let low = key as u32;
        if low == 0 {
            return self.has_zero;
        }
        if self.slots.is_empty() {
            return false;
        }
        let mask = self.mask();
        let mut i = low as usize & mask;
        loop {
            match self.slots[i] {
                0 => return false,
                k if k == low => return true,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Adds `key`; returns `false` when [`KeySet::contains`] would have said it was there.
    #[inline]
    pub(crate) fn insert(&mut self, key: u64) -> bool {
        let low = key as u32;
        if low == 0 {
            return !std::mem::replace(&mut self.has_zero, true);
        }
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.mask();
        let mut i = low as usize & mask;
        loop {
            match self.slots[i] {
                0 => {
                    self.slots[i] = low;
                    self.len += 1;
                    return true;
                }
                k if k == low => return false,
                _ => i = (i + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        self.slots = vec![0; (old.len() * 2).max(8)];
        self.len = 0;
        for k in old.into_iter().filter(|&k| k != 0) {
            self.insert(u64::from(k));
        }
    }

    /// Empties the set, keeping its room.
    #[cfg(test)]
    pub(crate) fn clear(&mut self) {
        self.slots.fill(0);
        self.len = 0;
        self.has_zero = false;
    }

    /// Makes this set a copy of `src`, reusing this set's room when it is the same size.
    pub(crate) fn copy_from(&mut self, src: &KeySet) {
        if self.slots.len() == src.slots.len() {
            self.slots.copy_from_slice(&src.slots);
            self.len = src.len;
            self.has_zero = src.has_zero;
        } else {
            self.clone_from(src);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use proptest::prelude::*;

    use super::KeySet;

    proptest! {
        /// Against `std`'s set of the low halves, for any sequence of inserts and lookups, with
        /// keys drawn from a small range (so that they repeat and collide) and 0 among them,
        /// and keys that differ only in their high half.
        #[test]
        fn behaves_like_a_set_of_low_halves(
            ops in prop::collection::vec((any::<bool>(), 0u64..64, any::<u64>(), 0u8..3), 0..400),
            start in 0usize..20,
        ) {
            let mut set = KeySet::with_capacity(start);
            let mut reference = HashSet::new();
            for (insert, small, big, kind) in ops {
                let key = match kind {
                    0 => small,
                    1 => big,
                    _ => small | (big << 32),
                };
                if insert {
                    prop_assert_eq!(set.insert(key), reference.insert(key as u32));
                } else {
                    prop_assert_eq!(set.contains(key), reference.contains(&(key as u32)));
                }
                prop_assert_eq!(set.len(), reference.len());
                prop_assert!(set.len() <= set.capacity() + 1);
            }
            let mut copy = KeySet::with_capacity(3);
            copy.copy_from(&set);
            for &k in &reference {
                prop_assert!(copy.contains(u64::from(k)));
            }
            prop_assert_eq!(copy.len(), reference.len());
            copy.clear();
            prop_assert_eq!(copy.len(), 0);
            prop_assert!(reference.iter().all(|&k| !copy.contains(u64::from(k))));
        }
    }
}
