//! The server's own accounts: the built-in player and the configured engines play as
//! accounts whose names start with a reserved prefix, which nobody registers. What program an
//! account is, is stored with it ([`Program`]), never read back from the name.
//!
//! Names are compared as [`fold_name`] gives them (Unicode NFKC, then lower case): `AliceX`
//! and `alicex` are one name, and `Ingo-Bot-1` or a full-width `ｉｎｇｏ-bot-1` is reserved.

use unicode_normalization::UnicodeNormalization;

use crate::domain::error::GameError;

/// The name prefix of the built-in player's accounts.
pub const BOT_PREFIX: &str = "ingo-bot-";

/// The name prefix of engine accounts.
pub const ENGINE_PREFIX: &str = "ingo-engine-";

/// The longest name, in characters.
pub const MAX_NAME_CHARS: usize = 32;

/// The longest password, in bytes (argon2 reads all of it; nobody types more).
pub const MAX_PASSWORD_BYTES: usize = 1024;

/// The form two names are compared in: NFKC (compatibility forms such as full-width letters
/// become the plain ones), then lower case, then NFKC again (lower-casing may leave a string
/// unnormalised). Two accounts never have the same folded name.
pub fn fold_name(name: &str) -> String {
    let lower: String = name.nfkc().collect::<String>().to_lowercase();
    lower.nfkc().collect()
}

/// Whether `name` is kept for the server's own accounts: nobody registers it, in any case or
/// compatibility form.
pub fn is_reserved_name(name: &str) -> bool {
    let f = fold_name(name);
    f.starts_with(BOT_PREFIX) || f.starts_with(ENGINE_PREFIX)
}

/// Checks a name sent to log in or to look an account up, before anything is done with it: at
/// most [`MAX_NAME_CHARS`] characters (so at most 128 bytes) and no NUL. Registration checks
/// more (which characters).
///
/// # Errors
/// `bad-name` for an empty or over-long name; `nul-character` for a NUL.
pub fn check_name_shape(field: &str, name: &str) -> Result<(), GameError> {
    if name.is_empty() || name.len() > 4 * MAX_NAME_CHARS || name.chars().count() > MAX_NAME_CHARS {
        return Err(GameError::unprocessable(
            "bad-name",
            format!("{field}: a name has 1 to {MAX_NAME_CHARS} characters."),
        ));
    }
    refuse_nul(field, name)
}

/// Checks a password before it is hashed or verified: at most [`MAX_PASSWORD_BYTES`] bytes and
/// no NUL.
///
/// # Errors
/// `bad-password` for an over-long one; `nul-character` for a NUL.
pub fn check_password_shape(password: &str) -> Result<(), GameError> {
    if password.len() > MAX_PASSWORD_BYTES {
        return Err(GameError::unprocessable(
            "bad-password",
            format!("password: a password has at most {MAX_PASSWORD_BYTES} bytes."),
        ));
    }
    refuse_nul("password", password)
}

/// Refuses text with a NUL character (no database column holds one: PostgreSQL refuses it).
///
/// # Errors
/// `nul-character`, naming `field`.
pub fn refuse_nul(field: &str, text: &str) -> Result<(), GameError> {
    if text.contains('\0') {
        Err(GameError::unprocessable(
            "nul-character",
            format!("{field}: the text has a NUL character (U+0000), which is not allowed."),
        ))
    } else {
        Ok(())
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_folded_by_compatibility_and_case() {
        assert_eq!(fold_name("AliceX"), "alicex");
        assert_eq!(fold_name("ｉｎｇｏ-bot-1000"), "ingo-bot-1000");
        assert!(is_reserved_name("Ingo-Bot-1"));
        assert!(is_reserved_name("ｉｎｇｏ-bot-1000"));
        assert!(is_reserved_name("INGO-ENGINE-gnugo"));
        assert!(!is_reserved_name("ingo"));
        assert!(check_name_shape("name", &"a".repeat(33)).is_err());
        assert!(check_name_shape("name", &"段".repeat(32)).is_ok());
        assert_eq!(
            check_name_shape("name", "a\0b").map_err(|e| e.reason),
            Err("nul-character")
        );
    }
}
