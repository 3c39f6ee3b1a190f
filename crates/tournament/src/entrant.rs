//! Entrants: players, pairs (聯棋), consultation teams (商談聯棋) and teams.
//!
//! 「每方對局者為一人……但亦得以每方二人以輪流著手之“聯棋”。或每方二人以上商量後著手之
//! “商談聯棋”。」(article 5, 賽式)

use ingo_competition::Rank;

/// What an entrant is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntrantKind {
    /// One player a side.
    Player,
    /// 聯棋: two players a side, moving in turn (B1 W1 B2 W2).
    Pair,
    /// 商談聯棋: two or more players a side who confer, one move a turn.
    Consultation,
    /// A team of a team format (擂台制): its members play in the order given.
    Team,
}

impl EntrantKind {
    /// The name used in agreements and the store.
    pub fn name(self) -> &'static str {
        match self {
            EntrantKind::Player => "player",
            EntrantKind::Pair => "pair",
            EntrantKind::Consultation => "consultation",
            EntrantKind::Team => "team",
        }
    }

    /// The kind named `s` (as [`EntrantKind::name`] writes it).
    pub fn from_name(s: &str) -> Option<EntrantKind> {
        Some(match s {
            "player" => EntrantKind::Player,
            "pair" => EntrantKind::Pair,
            "consultation" => EntrantKind::Consultation,
            "team" => EntrantKind::Team,
            _ => return None,
        })
    }
}

/// A member of a pair, consultation team or team.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// Name.
    pub name: String,
    /// Rank, if known.
    pub rank: Option<Rank>,
}

/// An entrant of an event. Names are unique within an event and identify the entrant in
/// games and results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// Unique name.
    pub name: String,
    /// Rank (for a pair or consultation team, the side's rank as the director sets it).
    pub rank: Option<Rank>,
    /// What it is.
    pub kind: EntrantKind,
    /// Members, in playing order (empty for a single player).
    pub members: Vec<Member>,
    /// For an engine event: the GTP command line that starts the engine.
    pub engine: Option<String>,
    /// Club, if known: Swiss and McMahon pairing can keep players of one club apart.
    pub club: Option<String>,
    /// Surname (family name), for the exports that write it apart from the given name (the
    /// EGF results file).
    pub surname: Option<String>,
    /// Given name, likewise.
    pub given_name: Option<String>,
    /// Country, as the two-letter code the EGF uses (`DE`, `CZ`), upper case
    /// ([`country_code`]).
    pub country: Option<String>,
    /// The player's PIN in the European Go Database.
    pub egd_pin: Option<u32>,
    /// Withdrawn from the event: paired no more.
    pub withdrawn: bool,
}

impl Entrant {
    /// A single player.
    pub fn player(name: impl Into<String>, rank: Option<Rank>) -> Entrant {
        Entrant {
            name: name.into(),
            rank,
            kind: EntrantKind::Player,
            members: Vec::new(),
            engine: None,
            club: None,
            surname: None,
            given_name: None,
            country: None,
            egd_pin: None,
            withdrawn: false,
        }
    }

    /// Checks that the members suit the kind.
    ///
    /// # Errors
    ///
    /// The reason, in a sentence.
    pub fn check(&self) -> Result<(), String> {
        let n = self.members.len();
        let ok = match self.kind {
            EntrantKind::Player => n == 0,
            EntrantKind::Pair => n == 2,
            EntrantKind::Consultation => n >= 2,
            EntrantKind::Team => n >= 1,
        };
        if !ok {
            return Err(format!(
                "{:?}: a {} needs {} members, not {n}",
                self.name,
                self.kind.name(),
                match self.kind {
                    EntrantKind::Player => "no",
                    EntrantKind::Pair => "exactly 2",
                    EntrantKind::Consultation => "2 or more",
                    EntrantKind::Team => "1 or more",
                }
            ));
        }
        Ok(())
    }

    /// Which member of this side plays the side's `turn`-th move (from 0): in pair go the two
    /// members alternate (「輪流著手」), so the order over the board is B1 W1 B2 W2; a
    /// consultation team confers and moves once a turn, so every member shares each move
    /// (`None`); so does a single player.
    pub fn mover(&self, turn: usize) -> Option<&Member> {
        match self.kind {
            EntrantKind::Pair => self.members.get(turn % 2),
            _ => None,
        }
    }
}

/// A country as the EGF writes it: two ASCII letters, upper case (`de` → `DE`).
///
/// # Errors
///
/// The reason, in a sentence, for anything else.
pub fn country_code(s: &str) -> Result<String, String> {
    let t = s.trim();
    if t.len() == 2 && t.chars().all(|c| c.is_ascii_alphabetic()) {
        Ok(t.to_ascii_uppercase())
    } else {
        Err(format!(
            "{s:?}: expected a two-letter country code (DE, CZ, JP)"
        ))
    }
}
