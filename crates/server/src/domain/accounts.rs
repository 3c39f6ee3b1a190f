//! The server's own accounts: the built-in player and the configured engines play as
//! accounts whose names start with a reserved prefix, which nobody registers. What program an
//! account is, is stored with it ([`Program`]), never read back from the name.

/// The name prefix of the built-in player's accounts.
pub const BOT_PREFIX: &str = "ingo-bot-";

/// The name prefix of engine accounts.
pub const ENGINE_PREFIX: &str = "ingo-engine-";

/// Whether `name` is kept for the server's own accounts: nobody registers it.
pub fn is_reserved_name(name: &str) -> bool {
    name.starts_with(BOT_PREFIX) || name.starts_with(ENGINE_PREFIX)
}

/// The built-in player's account for a search budget.
pub fn bot_account(playouts: u64) -> String {
    format!("{BOT_PREFIX}{playouts}")
}

/// The program an account is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Program {
    /// The built-in player, at a search budget per move.
    Builtin {
        /// Playouts per move.
        playouts: u64,
    },
    /// A configured GTP engine.
    Engine {
        /// Its configured name.
        name: String,
    },
}

impl Program {
    /// The program of a stored kind and its fields (`None` for an unknown kind or a missing
    /// field).
    pub fn of_stored(kind: &str, playouts: Option<i64>, engine: Option<&str>) -> Option<Program> {
        match kind {
            "builtin" => Some(Program::Builtin {
                playouts: u64::try_from(playouts?).ok()?,
            }),
            "engine" => Some(Program::Engine {
                name: engine?.to_owned(),
            }),
            _ => None,
        }
    }

    /// The stored kind, `builtin` or `engine`.
    pub fn kind(&self) -> &'static str {
        match self {
            Program::Builtin { .. } => "builtin",
            Program::Engine { .. } => "engine",
        }
    }
}
