//! The strengths of the built-in player that the lobby offers, each with the rank that its
//! measurement gives, and the rank of the built-in player's account at any search budget.
//!
//! Each level was measured, with the playout policy and exploration constant it plays, on
//! 19×19 under Ing's rules against GNU Go 3.8 at level 10, with the handicap by White's passes
//! (讓手) of Ing's scale, and against the level above it (`ingo match`, BENCHMARKS.md "Ranks of
//! the built-in player's levels"). The handicap of an even chance from GNU Go is the measured
//! part; the kyu number puts GNU Go level 10 at [`GNU_GO_LEVEL_10`], an assumption (GNU Go
//! publishes no rank). The strong level wins even games against GNU Go, so its rank is GNU
//! Go's, a lower bound (it was not measured giving stones); the weak and medium levels are 級外
//! (below 9級) on Ing's scale, ranked through the strong level with light playouts.

use ingo_competition::Rank;
use ingo_player::PlayoutPolicy;
use serde::{Serialize, Serializer};

/// The rank taken for GNU Go 3.8 at level 10 when turning a measured handicap into a kyu
/// number: an assumption, not a measurement.
pub const GNU_GO_LEVEL_10: &str = "8k";

/// A strength of the built-in player, as the lobby offers it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Level {
    /// Its name in the lobby: `weak`, `medium`, `strong`.
    pub name: &'static str,
    /// Search playouts per move (the pattern priors on 13×13 and larger).
    pub playouts: u64,
    /// The playout policy it was measured with, and plays with (`playout`, `light` or `heavy`,
    /// in JSON).
    #[serde(rename = "playout", serialize_with = "serialize_policy")]
    pub policy: PlayoutPolicy,
    /// The search's UCT exploration constant it was measured with, and plays with
    /// ([`ingo_player::Config::exploration`]).
    pub exploration: f64,
    /// The rank it was measured at on 19×19, as [`Rank`] reads it (`19k`).
    pub rank: &'static str,
    /// The handicap at which it has an even chance, in 先, and from whom.
    pub even_at: &'static str,
    /// The games the rank rests on.
    pub measured: &'static str,
}

/// The lobby's levels, weakest first.
pub const LEVELS: [Level; 3] = [
    Level {
        name: "weak",
        playouts: 100,
        policy: PlayoutPolicy::Light,
        exploration: 0.1,
        // 25 + 7 is past the scale's last kyu, 30級.
        rank: "30k",
        even_at: "about 7先 from the medium level",
        measured: "against medium on 19×19: 1 of 6 games at 3先, 2 of 6 at 5先, 3 of 6 at 7先",
    },
    Level {
        name: "medium",
        playouts: 1000,
        policy: PlayoutPolicy::Light,
        exploration: 0.1,
        rank: "25k",
        even_at: "about 5先 from the strong level with light playouts (20級)",
        measured: "against strong with light playouts on 19×19: 5 of 8 games at 5先",
    },
    Level {
        name: "strong",
        playouts: 10_000,
        policy: PlayoutPolicy::Heavy,
        exploration: 0.0,
        rank: "8k",
        even_at: "even or better against GNU Go 3.8 at level 10 (taken as 8級)",
        measured: "against GNU Go level 10 on 19×19, even, colours alternating: 9 of 9 games \
                   (with exploration 0.1 it needed about 6先)",
    },
];

impl Level {
    /// Its rank.
    pub fn rank(&self) -> Rank {
        // Written as constants above and read by the test below: never fails.
        self.rank.parse().unwrap_or(Rank::BelowKyu)
    }
}

/// The rank of the built-in player at `playouts` per move: that of the strongest level at or
/// below it (more playouts never play worse, but only the levels were measured), and the
/// weakest level's below them all.
pub fn rank_for(playouts: u64) -> Rank {
    level_for(playouts).rank()
}

/// The playout policy of the built-in player at `playouts` per move: that of the level whose
/// rank [`rank_for`] gives, so that the rank is the one measured with that policy.
pub fn policy_for(playouts: u64) -> PlayoutPolicy {
    level_for(playouts).policy
}

/// The search's exploration constant at `playouts` per move: that of the level whose rank
/// [`rank_for`] gives.
pub fn exploration_for(playouts: u64) -> f64 {
    level_for(playouts).exploration
}

/// The name of a playout policy, as `ingo gtp --playout` takes it.
fn policy_name(policy: PlayoutPolicy) -> &'static str {
    match policy {
        PlayoutPolicy::Light => "light",
        PlayoutPolicy::Heavy => "heavy",
    }
}

fn serialize_policy<S: Serializer>(policy: &PlayoutPolicy, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(policy_name(*policy))
}

/// The strongest level at or below `playouts`, and the weakest below them all.
fn level_for(playouts: u64) -> &'static Level {
    LEVELS
        .iter()
        .rev()
        .find(|l| l.playouts <= playouts)
        .unwrap_or(&LEVELS[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_has_a_rank_and_they_rise_with_the_playouts() {
        for l in &LEVELS {
            assert!(l.rank.parse::<Rank>().is_ok(), "{}", l.rank);
        }
        assert!(GNU_GO_LEVEL_10.parse::<Rank>().is_ok());
        let kyu = |r: Rank| match r {
            Rank::Kyu(k) => k,
            other => panic!("a kyu rank, not {other}"),
        };
        for w in LEVELS.windows(2) {
            assert!(w[0].playouts < w[1].playouts);
            assert!(kyu(w[0].rank()) > kyu(w[1].rank()), "{w:?}");
        }
        assert_eq!(rank_for(10), LEVELS[0].rank());
        assert_eq!(rank_for(100), LEVELS[0].rank());
        assert_eq!(rank_for(999), LEVELS[0].rank());
        assert_eq!(rank_for(1000), LEVELS[1].rank());
        assert_eq!(rank_for(100_000), LEVELS[2].rank());
    }

    #[test]
    fn every_level_plays_with_the_policy_it_was_measured_with() {
        for l in &LEVELS {
            assert!(["light", "heavy"].contains(&policy_name(l.policy)), "{l:?}");
        }
        assert_eq!(policy_for(10), PlayoutPolicy::Light);
        assert_eq!(policy_for(5_000), PlayoutPolicy::Light);
        assert_eq!(policy_for(10_000), PlayoutPolicy::Heavy);
        assert_eq!(policy_for(100_000), PlayoutPolicy::Heavy);
        // The strong level was measured with exploration 0 and heavy playouts, the light-playout
        // levels with the earlier 0.1.
        assert_eq!(exploration_for(100), 0.1);
        assert_eq!(exploration_for(1000), 0.1);
        assert_eq!(exploration_for(10_000), 0.0);
        assert_eq!(
            exploration_for(10_000),
            ingo_player::Config::default().exploration
        );
    }
}
