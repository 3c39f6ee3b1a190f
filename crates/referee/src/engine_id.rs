//! Which of the two engines of a match: the one name that the configuration, the errors, the
//! records and the summary share, kept below all of them.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One of the two engines of a match: `A` (given first, `--black`) or `B` (`--white`).
///
/// Colours change from game to game ([`ColorPolicy`](crate::ColorPolicy)), so results are kept per engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum EngineId {
    /// The first engine.
    A,
    /// The second engine.
    B,
}

impl EngineId {
    /// The other engine.
    pub fn other(self) -> EngineId {
        match self {
            EngineId::A => EngineId::B,
            EngineId::B => EngineId::A,
        }
    }
}

impl fmt::Display for EngineId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EngineId::A => "A",
            EngineId::B => "B",
        })
    }
}
