//! SplitMix64, the one small mixer every crate of the workspace uses: for the Zobrist keys, the
//! local keys of Ing's ko complexes, the player's random seeds, and nigiri.

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
/// a 64-bit counter stepped by the golden ratio, each value passed through [`SplitMix64::mix`].
///
/// Not cryptographic. Its output for a seed is fixed forever: the Zobrist keys, and through them
/// every stored hash, are built from it at compile time.
///
/// ```
/// use ingo_rules::SplitMix64;
///
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The golden-ratio step added to the counter for each value.
    const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

    /// A generator started at `seed` (any value, 0 included).
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 bits.
    #[inline]
    pub const fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(Self::GAMMA);
        Self::mix(self.state)
    }

    /// SplitMix64's finaliser (Stafford's variant 13): a bijection of `u64` whose output bits
    /// each depend on every input bit, for turning structured keys into well-spread ones.
    #[inline]
    pub const fn mix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs for seed 0 of the reference implementation (Vigna's `splitmix64.c`).
    #[test]
    fn matches_the_reference_sequence() {
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(g.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(g.next_u64(), 0x06C4_5D18_8009_454F);
    }
}
