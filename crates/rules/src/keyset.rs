//! A set of Zobrist keys: the situations that have stood in a game.
//!
//! Written by hand rather than taken from a hashing library because every move of every game
//! inserts into it: with `FxHashSet<u64>` (hashbrown) the insert cost about 67 instructions a
//! move in 9×9 light playouts (callgrind), a sixth of the rules' own work per move. Zobrist keys
//! are already uniformly random, so a table indexed by the key's own low bits, with linear
//! probing, needs no hasher and no control bytes, and an insert that finds an empty slot at once
//! (the common case) costs a load, a compare and a store.

/// A set of `u64` keys, uniformly random ones (Zobrist hashes); any key is allowed, 0 included.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeySet {
    /// Open addressing, a power of two long (or empty); 0 marks an empty slot.
    slots: Vec<u64>,
    /// Keys in `slots` (0 excepted).
    len: usize,
    /// Whether the key 0, which cannot be stored in a slot, is in the set.
    has_zero: bool,
}

/// Slots are kept at most three quarters full, which bounds the memory at 8/0.75 ≈ 11 bytes a
/// key once full (the history's budget is 64 bytes a move); linear probing of random keys at
/// that load still finds an empty slot in 8.5 probes at worst, about 1.5 on average over the
/// table's life.
fn slots_for(keys: usize) -> usize {
    if keys == 0 {
        0
    } else {
        (keys * 4 / 3 + 1).next_power_of_two()
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

    /// Number of keys.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len + usize::from(self.has_zero)
    }

    /// Keys the set holds before it grows.
    #[cfg(test)]
    pub(crate) fn capacity(&self) -> usize {
        self.slots.len() * 3 / 4
    }

    /// Bytes of the heap this set uses.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<u64>()
    }

    #[inline]
    fn mask(&self) -> usize {
        self.slots.len().wrapping_sub(1)
    }

    /// Whether `key` is in the set.
    pub(crate) fn contains(&self, key: u64) -> bool {
        if key == 0 {
            return self.has_zero;
        }
        if self.slots.is_empty() {
            return false;
        }
        let mask = self.mask();
        let mut i = key as usize & mask;
        loop {
            match self.slots[i] {
                0 => return false,
                k if k == key => return true,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Adds `key`; returns whether it was new (like `HashSet::insert`).
    #[inline]
    pub(crate) fn insert(&mut self, key: u64) -> bool {
        if key == 0 {
            return !std::mem::replace(&mut self.has_zero, true);
        }
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        let mask = self.mask();
        let mut i = key as usize & mask;
        loop {
            match self.slots[i] {
                0 => {
                    self.slots[i] = key;
                    self.len += 1;
                    return true;
                }
                k if k == key => return false,
                _ => i = (i + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        self.slots = vec![0; (old.len() * 2).max(8)];
        self.len = 0;
        for k in old.into_iter().filter(|&k| k != 0) {
            self.insert(k);
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
        /// The set answers as `std`'s does for any sequence of inserts and lookups, with keys
        /// drawn from a small range (so that they repeat and collide) and 0 among them.
        #[test]
        fn behaves_like_a_hash_set(
            ops in prop::collection::vec((any::<bool>(), 0u64..64, any::<u64>()), 0..400),
            start in 0usize..20,
        ) {
            let mut set = KeySet::with_capacity(start);
            let mut reference = HashSet::new();
            for (insert, small, big) in ops {
                // Half the keys small (many collisions in the low bits), half random.
                let key = if small % 2 == 0 { small } else { big };
                if insert {
                    prop_assert_eq!(set.insert(key), reference.insert(key));
                } else {
                    prop_assert_eq!(set.contains(key), reference.contains(&key));
                }
                prop_assert_eq!(set.len(), reference.len());
                prop_assert!(set.len() <= set.capacity() + 1);
            }
            let mut copy = KeySet::with_capacity(3);
            copy.copy_from(&set);
            for &k in &reference {
                prop_assert!(copy.contains(k));
            }
            prop_assert_eq!(copy.len(), reference.len());
            copy.clear();
            prop_assert_eq!(copy.len(), 0);
            prop_assert!(reference.iter().all(|&k| !copy.contains(k)));
        }
    }
}
