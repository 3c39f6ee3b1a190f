//! What an engine error says about the engine: the one classification of GTP faults, used by
//! the referee's games and by the play server's engine opponents alike.

use std::fmt;

use ingo_gtp::EngineError;

/// A kind of engine misbehaviour; see [`FailurePolicy`](crate::FailurePolicy).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FailureKind {
    /// An illegal move, or a legal move the engine refused to `play`.
    Illegal,
    /// The engine exited.
    Crash,
    /// The engine did not answer in time and was killed.
    Timeout,
    /// The engine's answer made no sense.
    Garbage,
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FailureKind::Illegal => "illegal move",
            FailureKind::Crash => "crash",
            FailureKind::Timeout => "timeout",
            FailureKind::Garbage => "garbage",
        })
    }
}

/// Whose fault an [`EngineError`] is, as [`classify`] reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// The engine misbehaved: the kind chooses the policy, and the engine loses by it.
    Engine(FailureKind),
    /// The engine could not be started (its command line, or starting the process, failed).
    Start,
    /// The controller's own mistake: a command it could not write as one GTP line. Nothing
    /// was sent, so the engine did nothing wrong and must not lose for it.
    Controller,
}

/// The one reading of an engine error. A GTP failure answer (`? message`) is `on_failure`,
/// since what a refusal means depends on the command (a refused `play` of a legal move is
/// [`FailureKind::Illegal`], a refused `genmove` [`FailureKind::Garbage`]).
///
/// An invalid command ([`EngineError::InvalidCommand`]) is the controller's fault, not the
/// engine's: `ingo_gtp` refuses to send it, so the engine never saw it.
pub fn classify(error: &EngineError, on_failure: FailureKind) -> Fault {
    match error {
        EngineError::Failure { .. } => Fault::Engine(on_failure),
        EngineError::Timeout { .. } => Fault::Engine(FailureKind::Timeout),
        EngineError::Garbage { .. } => Fault::Engine(FailureKind::Garbage),
        EngineError::Exited { .. } | EngineError::Io { .. } | EngineError::Closed { .. } => {
            Fault::Engine(FailureKind::Crash)
        }
        EngineError::InvalidCommand { .. } => Fault::Controller,
        EngineError::CommandLine(_) | EngineError::Spawn { .. } => Fault::Start,
        // A kind of error added later: the engine cannot be used any more.
        _ => Fault::Engine(FailureKind::Crash),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn an_invalid_command_is_the_controllers_fault() {
        let e = EngineError::InvalidCommand {
            command: "play b A1\nquit".to_string(),
            reason: "contains a line break",
        };
        for on_failure in [FailureKind::Illegal, FailureKind::Garbage] {
            assert_eq!(classify(&e, on_failure), Fault::Controller);
        }
    }

    #[test]
    fn a_refusal_is_what_the_command_makes_it() {
        let e = EngineError::Failure {
            command: "play b A1".to_string(),
            message: "illegal move".to_string(),
            elapsed: Duration::ZERO,
        };
        assert_eq!(
            classify(&e, FailureKind::Illegal),
            Fault::Engine(FailureKind::Illegal)
        );
        assert_eq!(
            classify(&e, FailureKind::Garbage),
            Fault::Engine(FailureKind::Garbage)
        );
        let t = EngineError::Timeout {
            command: "genmove b".to_string(),
            timeout: Duration::from_secs(1),
        };
        assert_eq!(
            classify(&t, FailureKind::Garbage),
            Fault::Engine(FailureKind::Timeout)
        );
    }
}
