//! The server's own accounts: the built-in player and the configured engines play as
//! accounts whose names start with a reserved prefix, which nobody registers.

/// The name prefix of the built-in player's accounts.
pub const BOT_PREFIX: &str = "ingo-bot-";

/// The name prefix of engine accounts.
pub const ENGINE_PREFIX: &str = "ingo-engine-";

/// Whether `name` is kept for the server's own accounts: nobody registers it.
pub fn is_reserved_name(name: &str) -> bool {
    name.starts_with(BOT_PREFIX) || name.starts_with(ENGINE_PREFIX)
}

/// Whether `name` is an engine account's.
pub fn is_engine_name(name: &str) -> bool {
    name.starts_with(ENGINE_PREFIX)
}

/// The built-in player's account for a search budget.
pub fn bot_account(playouts: u64) -> String {
    format!("{BOT_PREFIX}{playouts}")
}

/// The search budget of a built-in player's account, from its name.
pub fn playouts_of(name: &str) -> Option<u64> {
    name.strip_prefix(BOT_PREFIX)?.parse().ok()
}
