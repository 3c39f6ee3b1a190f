//! How a game ended, as it is stored (`end_reason`) and shown: one name for each way, written
//! and read here only.

/// How an engine failed, which decides how it loses (the referee's kinds, plus a failed start).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineFault {
    /// An illegal move, or a refused `play` of a legal one.
    Illegal,
    /// It exited (or its pipe broke).
    Crash,
    /// No answer in time; it was killed. A loss on time.
    Timeout,
    /// An answer that is not GTP, not a vertex, or `? failure` to `genmove`.
    Garbage,
    /// It could not be started, refused `boardsize`, or is no longer configured.
    Unavailable,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// Four passes in a row: counted with every stone on the board alive.
    Passes,
    /// Both sides accepted the dead stones during a suspension: counted without them.
    Agreement,
    /// A player resigned.
    Resignation,
    /// A player's time ran out.
    Time,
    /// A player forfeited.
    Forfeit,
    /// A person made no move for too long against a program: absent (缺席), a forfeit.
    Absence,
    /// An engine failed, and lost as the referee's policy says.
    Engine(EngineFault),
}

impl EndReason {
    /// Every reason, for tests and documentation.
    pub const ALL: [EndReason; 11] = [
        EndReason::Passes,
        EndReason::Agreement,
        EndReason::Resignation,
        EndReason::Time,
        EndReason::Forfeit,
        EndReason::Absence,
        EndReason::Engine(EngineFault::Illegal),
        EndReason::Engine(EngineFault::Crash),
        EndReason::Engine(EngineFault::Timeout),
        EndReason::Engine(EngineFault::Garbage),
        EndReason::Engine(EngineFault::Unavailable),
    ];

    /// Its stored name (`passes`, `agreement`, `resignation`, `time`, `forfeit`, `absence`,
    /// `engine-illegal-move`, `engine-crash`, `engine-timeout`, `engine-garbage`,
    /// `engine-unavailable`).
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Passes => "passes",
            EndReason::Agreement => "agreement",
            EndReason::Resignation => "resignation",
            EndReason::Time => "time",
            EndReason::Forfeit => "forfeit",
            EndReason::Absence => "absence",
            EndReason::Engine(EngineFault::Illegal) => "engine-illegal-move",
            EndReason::Engine(EngineFault::Crash) => "engine-crash",
            EndReason::Engine(EngineFault::Timeout) => "engine-timeout",
            EndReason::Engine(EngineFault::Garbage) => "engine-garbage",
            EndReason::Engine(EngineFault::Unavailable) => "engine-unavailable",
        }
    }

    /// The reason of a stored name written by [`EndReason::as_str`].
    pub fn parse(s: &str) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// Whether the loser lost on time (a flag, or an engine that did not answer in time).
    pub fn on_time(self) -> bool {
        matches!(
            self,
            EndReason::Time | EndReason::Engine(EngineFault::Timeout)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stored_name_reads_back_as_its_reason() {
        for r in EndReason::ALL {
            assert_eq!(EndReason::parse(r.as_str()), Some(r), "{}", r.as_str());
        }
        assert_eq!(EndReason::parse("count"), None);
        assert_eq!(EndReason::parse(""), None);
    }
}
