//! Who plays a game: the players, and the sides of pair go and consultation with how a
//! consultation side agrees on its move.

use ingo_rules::ByColor;

use crate::domain::accounts::Program;

/// A user as a game shows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// User id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Declared rank.
    pub rank: String,
    /// The program that plays as this account, if one does.
    pub program: Option<Program>,
}

/// How a team's members move (article 5 賽式).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TeamKind {
    /// 聯棋: two a side, moving in turn in seat order (B1 W1 B2 W2 …; a pass is a turn).
    Pair,
    /// 商談聯棋: two or more a side who confer; the side moves once it has agreed, as its
    /// [`Consensus`] says.
    Consultation,
}

impl TeamKind {
    /// `pair` or `consultation`, as stored.
    pub fn name(self) -> &'static str {
        match self {
            TeamKind::Pair => "pair",
            TeamKind::Consultation => "consultation",
        }
    }

    /// The kind of a stored name.
    pub fn parse(s: &str) -> Option<TeamKind> {
        match s {
            "pair" => Some(TeamKind::Pair),
            "consultation" => Some(TeamKind::Consultation),
            _ => None,
        }
    }
}

/// The two sides of a pair or consultation game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Team {
    /// Pair go or consultation.
    pub kind: TeamKind,
    /// Each side's members in seat order (never empty).
    pub members: ByColor<Vec<Player>>,
    /// How a consultation side agrees on a move; `Any` in pair go.
    pub consensus: Consensus,
}

/// How a consultation side agrees on its move (called `agreement` in the API; not the
/// tournament's agreement, 賽約).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Consensus {
    /// Any member's move is the side's (no proposals).
    Any,
    /// More than half of the side's members.
    Majority,
    /// Every member of the side.
    All,
}

impl Consensus {
    /// What a consultation challenge gets when it names none: the strict reading of "once the
    /// side has agreed", every member.
    pub const DEFAULT: Consensus = Consensus::All;

    /// `any`, `majority` or `all`, as stored and in the API.
    pub fn name(self) -> &'static str {
        match self {
            Consensus::Any => "any",
            Consensus::Majority => "majority",
            Consensus::All => "all",
        }
    }

    /// The consensus of a stored or requested name.
    pub fn parse(s: &str) -> Option<Consensus> {
        match s {
            "any" => Some(Consensus::Any),
            "majority" => Some(Consensus::Majority),
            "all" => Some(Consensus::All),
            _ => None,
        }
    }

    /// The votes a move needs in a side of `members` members.
    pub fn needed(self, members: usize) -> usize {
        match self {
            Consensus::Any => 1,
            Consensus::Majority => members / 2 + 1,
            Consensus::All => members.max(1),
        }
    }
}
