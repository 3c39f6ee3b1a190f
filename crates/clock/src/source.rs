//! Where a caller of the clock reads the time. The [`Clock`](crate::Clock) itself never reads
//! it: the referee and the player read a [`TimeSource`] and pass what they read in. The wall
//! clock ([`WallClock`]) in a real game; a source a test scripts itself (a fixed step at each
//! reading, say) makes every charge exact whatever the machine's speed or load.

use std::time::{Duration, Instant};

/// The time since an origin of the source's choosing; callers only subtract one reading from a
/// later one. (The bounds let a source be shared between threads and kept by a player that is
/// `Send`, `Sync` and unwind-safe.)
pub trait TimeSource:
    std::fmt::Debug + Send + Sync + std::panic::RefUnwindSafe + std::panic::UnwindSafe
{
    /// The time now. It must never decrease.
    fn now(&self) -> Duration;
}

/// The machine's monotonic clock ([`Instant`]), measured from the moment it was made.
#[derive(Clone, Copy, Debug)]
pub struct WallClock {
    origin: Instant,
}

impl WallClock {
    /// A clock whose origin is now.
    #[must_use]
    pub fn new() -> WallClock {
        WallClock {
            origin: Instant::now(),
        }
    }
}

impl Default for WallClock {
    fn default() -> WallClock {
        WallClock::new()
    }
}

impl TimeSource for WallClock {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wall_clock_starts_near_zero_and_never_goes_back() {
        let c = WallClock::new();
        let a = c.now();
        let b = c.now();
        assert!(b >= a);
        assert!(
            a < Duration::from_secs(3600),
            "{a:?} since a clock made just now"
        );
    }
}
