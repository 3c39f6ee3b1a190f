//! [`Limiter`]: attempts counted by key in a sliding window, bounded in memory whatever
//! strangers send. An attempt is recorded *before* the work it guards (a password check, a
//! chat line), in the same step as the check, so that concurrent attempts cannot all pass;
//! work that turns out harmless (a right password) may give its attempt back.
//!
//! Memory: a key holds at most its limit of times, and at most [`Limiter::max_keys`] keys are
//! kept: when full, keys whose window is over are dropped first, then the half least recently
//! used. A key is made only when an attempt under it is let through.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;

/// One key and the most attempts it allows in a window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limit<K> {
    /// The key (an address, an account, an address and an account…).
    pub key: K,
    /// The most attempts in one window, at least 1 (0 is read as 1).
    pub max: usize,
}

/// Attempts by key in a sliding window of `window_ms`.
#[derive(Debug)]
pub struct Limiter<K> {
    window_ms: i64,
    max_keys: usize,
    times: HashMap<K, VecDeque<i64>>,
}

/// Why an attempt was refused: the first limit reached, and when the oldest attempt under it
/// leaves the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused {
    /// The index, in the limits given, of the key that is at its limit.
    pub which: usize,
    /// Milliseconds until one more attempt under that key is let through (at least 1).
    pub retry_after_ms: i64,
}

impl Refused {
    /// [`Refused::retry_after_ms`] in whole seconds, rounded up (a `Retry-After` value).
    pub fn retry_after_secs(self) -> i64 {
        (self.retry_after_ms + 999) / 1000
    }
}

impl<K: Hash + Eq + Clone> Limiter<K> {
    /// A limiter over windows of `window_ms` keeping at most `max_keys` keys (at least 1).
    pub fn new(window_ms: i64, max_keys: usize) -> Limiter<K> {
        Limiter {
            window_ms: window_ms.max(1),
            max_keys: max_keys.max(1),
            times: HashMap::new(),
        }
    }

    /// The most keys kept.
    pub fn max_keys(&self) -> usize {
        self.max_keys
    }

    /// How many keys are kept now.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Whether no key is kept.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// The attempts under `key` still in the window at `now_ms`.
    pub fn count(&self, key: &K, now_ms: i64) -> usize {
        self.times.get(key).map_or(0, |t| {
            t.iter().filter(|&&t| now_ms - t < self.window_ms).count()
        })
    }

    /// Records one attempt at `now_ms` under every key of `limits` when none is at its limit;
    /// otherwise records nothing and says which limit was reached and for how long.
    ///
    /// # Errors
    /// [`Refused`] when a key has its most attempts in the window.
    pub fn acquire(&mut self, limits: &[Limit<K>], now_ms: i64) -> Result<(), Refused> {
        for (which, l) in limits.iter().enumerate() {
            if let Some(times) = self.times.get_mut(&l.key) {
                while times.front().is_some_and(|&t| now_ms - t >= self.window_ms) {
                    times.pop_front();
                }
                if times.len() >= l.max.max(1) {
                    let oldest = times.front().copied().unwrap_or(now_ms);
                    return Err(Refused {
                        which,
                        retry_after_ms: (oldest + self.window_ms - now_ms).max(1),
                    });
                }
            }
        }
        for l in limits {
            if !self.times.contains_key(&l.key) {
                self.make_room(now_ms);
            }
            self.times
                .entry(l.key.clone())
                .or_default()
                .push_back(now_ms);
        }
        Ok(())
    }

    /// As [`Limiter::acquire`], and also counts the attempt under `budget.key`, a budget shared
    /// by many other keys (every failed log-in, whatever the name and address). The budget
    /// refuses only attempts whose `guarded` key already has an attempt in the window: once
    /// `budget.max` attempts are in the window, a key seen recently waits, while a key with no
    /// recent attempt still goes through (and is counted). The budget keeps only its newest
    /// `budget.max` times, which is all it needs to tell whether it is full. Refused by the
    /// budget, [`Refused::which`] is `limits.len()`.
    ///
    /// # Errors
    /// [`Refused`] when a key of `limits` is full, or the budget is full and `guarded` was seen
    /// in the window.
    pub fn acquire_within_budget(
        &mut self,
        limits: &[Limit<K>],
        budget: &Limit<K>,
        guarded: &K,
        now_ms: i64,
    ) -> Result<(), Refused> {
        let max = budget.max.max(1);
        let seen = self.count(guarded, now_ms) > 0;
        if let Some(times) = self.times.get_mut(&budget.key) {
            while times.front().is_some_and(|&t| now_ms - t >= self.window_ms) {
                times.pop_front();
            }
            if times.len() >= max && seen {
                let oldest = times.front().copied().unwrap_or(now_ms);
                return Err(Refused {
                    which: limits.len(),
                    retry_after_ms: (oldest + self.window_ms - now_ms).max(1),
                });
            }
        }
        self.acquire(limits, now_ms)?;
        if !self.times.contains_key(&budget.key) {
            self.make_room(now_ms);
        }
        let times = self.times.entry(budget.key.clone()).or_default();
        if times.len() >= max {
            times.pop_front();
        }
        times.push_back(now_ms);
        Ok(())
    }

    /// Gives back one attempt recorded at `at_ms` under each of `keys` (the work it guarded
    /// was harmless); an empty key is dropped.
    pub fn release(&mut self, keys: &[K], at_ms: i64) {
        for k in keys {
            if let Some(times) = self.times.get_mut(k) {
                if let Some(i) = times.iter().rposition(|&t| t == at_ms) {
                    times.remove(i);
                }
                if times.is_empty() {
                    self.times.remove(k);
                }
            }
        }
    }

    /// Makes room for one more key: drops the keys whose window is over, then, if still full,
    /// the half of the keys least recently used.
    fn make_room(&mut self, now_ms: i64) {
        if self.times.len() < self.max_keys {
            return;
        }
        let window = self.window_ms;
        self.times
            .retain(|_, t| t.back().is_some_and(|&last| now_ms - last < window));
        if self.times.len() < self.max_keys {
            return;
        }
        let mut last: Vec<i64> = self
            .times
            .values()
            .map(|t| t.back().copied().unwrap_or(i64::MIN))
            .collect();
        let half = last.len() / 2;
        let (_, &mut cut, _) = last.select_nth_unstable(half);
        self.times
            .retain(|_, t| t.back().copied().unwrap_or(i64::MIN) > cut);
        // Many keys with the same time: drop enough of them anyway.
        while self.times.len() >= self.max_keys {
            let Some(k) = self.times.keys().next().cloned() else {
                break;
            };
            self.times.remove(&k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limit(key: &str, max: usize) -> Limit<String> {
        Limit {
            key: key.to_owned(),
            max,
        }
    }

    #[test]
    fn an_attempt_counts_under_every_key_and_a_full_key_refuses_all() {
        let mut l = Limiter::new(60_000, 100);
        let both = [limit("pair", 2), limit("addr", 3)];
        assert_eq!(l.acquire(&both, 0), Ok(()));
        assert_eq!(l.acquire(&both, 10), Ok(()));
        let r = l.acquire(&both, 20);
        assert_eq!(
            r,
            Err(Refused {
                which: 0,
                retry_after_ms: 60_000 - 20
            })
        );
        assert_eq!(r.map_err(Refused::retry_after_secs), Err(60));
        // A refused attempt is recorded nowhere.
        assert_eq!(l.count(&"addr".to_owned(), 20), 2);
        // Another pair on the same address: one more, then the address is full.
        assert_eq!(
            l.acquire(&[limit("other", 2), limit("addr", 3)], 30),
            Ok(())
        );
        assert_eq!(
            l.acquire(&[limit("third", 2), limit("addr", 3)], 40)
                .map_err(|r| r.which),
            Err(1)
        );
        assert!(l.count(&"third".to_owned(), 40) == 0 && l.len() == 3);
        // The window slides.
        assert_eq!(l.acquire(&both, 60_000), Ok(()));
    }

    #[test]
    fn a_released_attempt_no_longer_counts() {
        let mut l = Limiter::new(60_000, 100);
        for t in 0..3 {
            assert_eq!(l.acquire(&[limit("k", 3)], t), Ok(()));
        }
        l.release(&["k".to_owned()], 1);
        assert_eq!(l.count(&"k".to_owned(), 3), 2);
        assert_eq!(l.acquire(&[limit("k", 3)], 3), Ok(()));
        l.release(&["k".to_owned()], 0);
        l.release(&["k".to_owned()], 2);
        l.release(&["k".to_owned()], 3);
        assert!(l.is_empty());
    }

    #[test]
    fn a_full_budget_holds_up_keys_seen_recently_and_lets_new_ones_through() {
        let mut l = Limiter::new(60_000, 100);
        let budget = limit("all", 3);
        let name = |n: &str| [limit(&format!("name:{n}"), 10)];
        for (t, n) in ["a", "b", "c"].iter().enumerate() {
            let k = format!("name:{n}");
            assert_eq!(
                l.acquire_within_budget(&name(n), &budget, &k, t as i64),
                Ok(())
            );
        }
        // Full: a name that failed recently waits until the oldest leaves the window...
        assert_eq!(
            l.acquire_within_budget(&name("a"), &budget, &"name:a".to_owned(), 10),
            Err(Refused {
                which: 1,
                retry_after_ms: 60_000 - 10
            })
        );
        // ...a name never seen goes through, and is counted, the budget keeping its newest.
        assert_eq!(
            l.acquire_within_budget(&name("d"), &budget, &"name:d".to_owned(), 20),
            Ok(())
        );
        assert_eq!(l.count(&"all".to_owned(), 20), 3);
        assert_eq!(
            l.acquire_within_budget(&name("d"), &budget, &"name:d".to_owned(), 30)
                .map_err(|r| r.which),
            Err(1)
        );
        // The window slides.
        assert_eq!(
            l.acquire_within_budget(&name("a"), &budget, &"name:a".to_owned(), 60_021),
            Ok(())
        );
    }

    #[test]
    fn the_keys_kept_are_bounded_whatever_is_asked() {
        let mut l = Limiter::new(60_000, 1000);
        for i in 0..100_000_i64 {
            assert_eq!(l.acquire(&[limit(&format!("name:{i}"), 5)], i / 10), Ok(()));
            assert!(l.len() <= 1000, "{} keys after {i}", l.len());
        }
        // The newest keys are the ones kept.
        assert_eq!(l.count(&"name:99999".to_owned(), 10_000), 1);
        assert_eq!(l.count(&"name:0".to_owned(), 10_000), 0);
    }
}
