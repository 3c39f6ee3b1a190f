//! Nigiri (猜先): the stronger or elder player takes a handful of White stones, the other guesses
//! odd (one Black stone) or even (two); a right guess takes Black.

/// The guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parity {
    /// One stone shown: the handful is odd.
    Odd,
    /// Two stones shown: the handful is even.
    Even,
}

/// What happened at the nigiri.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nigiri {
    /// Stones in the handful.
    pub handful: u32,
    /// The guesser's guess.
    pub guess: Parity,
    /// Whether the guess was right, so that the guesser takes Black.
    pub guesser_takes_black: bool,
}

/// A nigiri drawn from `seed`: the same seed always gives the same result, so a match can be
/// replayed. The handful is 1 to 30 stones, the guess odd or even with equal chance.
pub fn nigiri(seed: u64) -> Nigiri {
    let mut rng = ingo_rules::SplitMix64::new(seed);
    let handful = (rng.next_u64() % 30) as u32 + 1;
    let guess = if rng.next_u64() & 1 == 0 {
        Parity::Odd
    } else {
        Parity::Even
    };
    let odd = handful % 2 == 1;
    Nigiri {
        handful,
        guess,
        guesser_takes_black: odd == (guess == Parity::Odd),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_and_fair() {
        assert_eq!(nigiri(7), nigiri(7));
        let black = (0..10_000u64)
            .filter(|&s| nigiri(s).guesser_takes_black)
            .count();
        assert!(
            (4_500..5_500).contains(&black),
            "guesser took Black {black} times in 10000"
        );
        for s in 0..1000 {
            let n = nigiri(s);
            assert!((1..=30).contains(&n.handful));
            assert_eq!(
                n.guesser_takes_black,
                (n.handful % 2 == 1) == (n.guess == Parity::Odd)
            );
        }
    }
}
