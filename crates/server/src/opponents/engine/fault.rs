//! How an engine's failure is read: the referee's one classification
//! ([`ingo_referee::classify`], through [`SessionError`]), read as the domain's
//! [`FaultKind`] (`crate::domain::end::EngineFault`), which the game's end reason names.

use ingo_referee::{FailureKind, Fault as Blame, SessionError};

pub use crate::domain::end::EngineFault as FaultKind;

/// Why an engine side stopped: an engine's fault, which ends the game against it, or the server's own
/// mistake, which does not.
#[derive(Debug)]
pub(super) enum Fault {
    /// The engine is at fault: it loses by `kind`.
    Engine {
        /// How.
        kind: FaultKind,
        /// What it did.
        detail: String,
    },
    /// Not the engine's doing (a command the server could not write): an internal error.
    Server(String),
}

pub(super) fn fault(kind: FaultKind, detail: impl Into<String>) -> Fault {
    Fault::Engine {
        kind,
        detail: detail.into(),
    }
}

/// The server's reading of a session error: the referee's ([`ingo_referee::classify`]), with
/// a refused start and an engine never started as [`FaultKind::Unavailable`].
pub(super) fn fault_of(e: SessionError) -> Fault {
    let detail = e.to_string();
    let kind = match e {
        SessionError::Fault { fault, .. } => match fault {
            Blame::Engine(FailureKind::Illegal) => FaultKind::Illegal,
            Blame::Engine(FailureKind::Crash) => FaultKind::Crash,
            Blame::Engine(FailureKind::Timeout) => FaultKind::Timeout,
            Blame::Engine(FailureKind::Garbage) => FaultKind::Garbage,
            Blame::Start => FaultKind::Unavailable,
            Blame::Controller => return Fault::Server(detail),
        },
        SessionError::Unsupported { .. } => FaultKind::Unavailable,
    };
    fault(kind, detail)
}

#[cfg(test)]
mod tests {
    use ingo_gtp::EngineError;

    use std::time::Duration;

    use super::*;

    /// An invalid command is the server's own mistake, as the referee reads it: the engine
    /// never saw it, so it does not lose the game for it.
    #[test]
    fn an_invalid_command_charges_no_engine() {
        let e = EngineError::InvalidCommand {
            command: "play b A1\nquit".to_string(),
            reason: "contains a line break",
        };
        for on_failure in [
            (FailureKind::Illegal, "refused-legal-move"),
            (FailureKind::Garbage, "genmove-failed"),
        ] {
            let f = fault_of(SessionError::engine(&e, on_failure));
            assert!(matches!(f, Fault::Server(_)), "{f:?}");
        }
    }

    #[test]
    fn a_refusal_is_what_the_command_makes_it() {
        let refused = EngineError::Failure {
            command: "play b A1".to_string(),
            message: "illegal move".to_string(),
            elapsed: Duration::ZERO,
        };
        for (kind, want) in [
            (FailureKind::Illegal, FaultKind::Illegal),
            (FailureKind::Garbage, FaultKind::Garbage),
        ] {
            let f = fault_of(SessionError::engine(&refused, (kind, "code")));
            assert!(
                matches!(f, Fault::Engine { kind: k, .. } if k == want),
                "{f:?}"
            );
        }
        let unsupported = SessionError::Unsupported {
            command: "boardsize 19".to_string(),
            message: "unacceptable size".to_string(),
        };
        assert!(matches!(
            fault_of(unsupported),
            Fault::Engine {
                kind: FaultKind::Unavailable,
                ..
            }
        ));
    }
}
