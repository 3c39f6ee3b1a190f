//! The wall clock the server reads: for the game clocks, the timer that declares a loss on
//! time, and every time it stores (moves, games, challenges, sessions, chat).
//!
//! A server runs on the system's clock ([`WallClock::System`], the default). A test gives it a
//! [`ManualClock`] instead, which moves only when the test advances it: the test then says
//! exactly how long a player thought, and a game's timer wakes when the time it waits for is
//! reached, so neither waits on real time nor depends on how busy the machine is.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

/// Where the server reads the time.
#[derive(Clone, Debug, Default)]
pub enum WallClock {
    /// The system's clock ([`ingo_store::now_ms`]).
    #[default]
    System,
    /// A clock that moves only when it is advanced.
    Manual(ManualClock),
}

impl WallClock {
    /// The time, in ms since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        match self {
            WallClock::System => ingo_store::now_ms(),
            WallClock::Manual(m) => m.now_ms(),
        }
    }

    /// Waits until the time is `at_ms` or later.
    pub async fn sleep_until(&self, at_ms: i64) {
        match self {
            WallClock::System => {
                let wait = u64::try_from(at_ms - ingo_store::now_ms()).unwrap_or(0);
                tokio::time::sleep(Duration::from_millis(wait)).await;
            }
            WallClock::Manual(m) => m.reached(at_ms).await,
        }
    }
}

impl From<ManualClock> for WallClock {
    fn from(m: ManualClock) -> WallClock {
        WallClock::Manual(m)
    }
}

/// A clock that stands still until [`ManualClock::advance`] moves it; its clones share the
/// time. Whoever waits on it ([`WallClock::sleep_until`]) is woken when it reaches their time.
#[derive(Clone, Debug)]
pub struct ManualClock {
    ms: Arc<watch::Sender<i64>>,
}

impl ManualClock {
    /// A clock showing `start_ms` (ms since the Unix epoch).
    pub fn new(start_ms: i64) -> ManualClock {
        ManualClock {
            ms: Arc::new(watch::Sender::new(start_ms)),
        }
    }

    /// A clock showing the system's time now, then standing still.
    pub fn starting_now() -> ManualClock {
        ManualClock::new(ingo_store::now_ms())
    }

    /// The time it shows, in ms since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        *self.ms.borrow()
    }

    /// Moves the time on by `by` (whole ms) and wakes whoever waits for a time now reached.
    pub fn advance(&self, by: Duration) {
        let by = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        self.ms.send_modify(|t| *t = t.saturating_add(by));
    }

    async fn reached(&self, at_ms: i64) {
        let mut rx = self.ms.subscribe();
        // The sender lives as long as `self`, so the wait ends only when the time is reached.
        let _ = rx.wait_for(|&t| t >= at_ms).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_manual_clock_wakes_its_sleepers_when_advanced_to_their_time() {
        let m = ManualClock::new(1_000);
        let clock = WallClock::from(m.clone());
        let sleeper = tokio::spawn({
            let clock = clock.clone();
            async move { clock.sleep_until(1_500).await }
        });
        m.advance(Duration::from_millis(499));
        assert_eq!(clock.now_ms(), 1_499);
        tokio::task::yield_now().await;
        assert!(!sleeper.is_finished());
        m.advance(Duration::from_millis(1));
        tokio::time::timeout(Duration::from_secs(10), sleeper)
            .await
            .expect("woken at 1500")
            .expect("no panic");
        // A time already passed does not wait.
        clock.sleep_until(1_200).await;
    }
}
