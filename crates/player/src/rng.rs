//! A small seedable random number generator, so that the player needs no `rand` dependency and a
//! seed gives the same games on every platform and Rust version.

/// xoshiro256++ (Blackman and Vigna), seeded through SplitMix64.
///
/// Not cryptographic; fast and of good statistical quality, which is all a playout needs.
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator seeded with `seed`. Equal seeds give equal sequences.
    pub fn new(seed: u64) -> Rng {
        // SplitMix64 turns any seed (0 included) into four well-mixed words; being a bijection
        // of distinct counter values they cannot all be zero, the one state xoshiro forbids.
        let mut g = ingo_rules::SplitMix64::new(seed);
        Rng {
            s: [g.next_u64(), g.next_u64(), g.next_u64(), g.next_u64()],
        }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..n` (`0` when `n` is `0`).
    ///
    /// Lemire's multiply-and-reject method: exactly uniform, and almost never divides.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        let mut m = u64::from((self.next_u64() >> 32) as u32) * u64::from(n);
        let mut low = m as u32;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                m = u64::from((self.next_u64() >> 32) as u32) * u64::from(n);
                low = m as u32;
            }
        }
        (m >> 32) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(Rng::new(7).next_u64(), Rng::new(8).next_u64());
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut r = Rng::new(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            let x = r.below(7) as usize;
            seen[x] += 1;
        }
        // Each bucket expects 1000; 800 is more than six standard deviations away.
        assert!(seen.iter().all(|&c| c > 800), "{seen:?}");
        assert_eq!(r.below(0), 0);
        assert_eq!(r.below(1), 0);
    }
}
