//! The server's settings: [`Config`], read by [`Config::load`] from, in order of precedence,
//! the flags and environment a front end read ([`Overrides`]), a TOML file, then the defaults
//! (`sqlite:ingo.db` in the working directory, `127.0.0.1:8080`); and the GTP engines it offers
//! as opponents ([`EngineConfig`], checked field by field), from the file's `[[engine]]` tables
//! and `NAME=COMMAND` flags together (a name may appear once):
//!
//! ```toml
//! [[engine]]
//! name = "gnugo"                      # plays as the account ingo-engine-gnugo
//! command = ["gnugo", "--mode", "gtp", "--level", "1"]   # or one string, split like a shell
//! rank = "5k"                         # default 級外; the handicap of a game by ranks
//! max_games = 2                       # games (processes) at once, default 1
//! move_timeout_secs = 30              # longest think per move, default 300
//! setup_timeout_secs = 10             # other commands, default 60
//! dir = "/opt/engines"                # where it runs, default the server's directory
//! ```
//!
//! The limits that keep one address or one user from crowding the others out are top-level
//! keys of the same file (defaults shown):
//!
//! ```toml
//! login_failures_per_minute = 5               # one name from one address (then 429, Retry-After)
//! login_failures_per_address_per_minute = 30  # one address, all names
//! login_failures_per_account_per_minute = 30  # one name, all addresses
//! login_failures_per_minute_overall = 600     # all names and addresses (names failed lately wait)
//! max_connections_per_address = 256           # TCP connections open at once
//! max_open_challenges_per_user = 20
//! max_bot_games_per_user = 2                  # running games against the built-in player
//! max_engine_games_per_user = 1               # running games against the engines, together
//! chat_lines_per_minute = 20
//! program_absence_minutes = 60                # no move this long against a program: forfeit
//! ```

use std::path::{Path, PathBuf};
use std::time::Duration;

use ingo_competition::Rank;
use serde::Deserialize;

use crate::domain::accounts::ENGINE_PREFIX;

/// The server's settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Mark the session cookie `Secure` (behind HTTPS).
    pub secure_cookies: bool,
    /// How long a session lasts, in ms.
    pub session_ms: i64,
    /// Log-in attempts (counted before the password is checked; a right one is given back)
    /// allowed in a minute for one name from one address. Past it that address waits
    /// (429 with `Retry-After`); the owner elsewhere is not held up.
    pub login_failures_per_minute: usize,
    /// Failed log-in attempts allowed in a minute from one address, whatever the names.
    pub login_failures_per_address_per_minute: usize,
    /// Failed log-in attempts allowed in a minute on one name, from all addresses together.
    pub login_failures_per_account_per_minute: usize,
    /// Failed log-in attempts in a minute over all names and addresses together. Past it, a
    /// name that failed within the minute waits (429 with `Retry-After`); a name with no recent
    /// failure is still checked, so an owner with the right password gets in.
    pub login_failures_per_minute_overall: usize,
    /// TCP connections open at once from one IP address; more are closed at once.
    pub max_connections_per_address: usize,
    /// Open challenges one user may have at once.
    pub max_open_challenges_per_user: usize,
    /// Running games one user may have against the built-in player.
    pub max_bot_games_per_user: usize,
    /// Running games one user may have against the engines, all engines together.
    pub max_engine_games_per_user: usize,
    /// Chat lines one user may send in a minute (all games and channels together).
    pub chat_lines_per_minute: usize,
    /// A person who makes no move (nor any step of a suspension) for this long, in ms, in a
    /// game against the built-in player or an engine is absent (缺席) and forfeits it, so that
    /// an abandoned game frees its program; 0: never.
    pub program_absence_ms: i64,
    /// The time control of a challenge that names none: Ing's penalty-point overtime.
    pub default_time_control: String,
    /// The database URL (`sqlite:PATH` or `postgres://…`); also the LISTEN connection of
    /// several servers on PostgreSQL.
    pub database_url: String,
    /// The address [`crate::run`] listens on; port 0 picks a free port.
    pub listen: String,
    /// The GTP engines offered as opponents.
    pub engines: Vec<EngineConfig>,
    /// The accounts (by name) that may direct events: create them, approve entrants, pair and
    /// start rounds, record the referee's decisions, close them. Nobody else can.
    pub directors: Vec<String>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            secure_cookies: false,
            session_ms: 30 * 24 * 3600 * 1000,
            login_failures_per_minute: 5,
            login_failures_per_address_per_minute: 30,
            login_failures_per_account_per_minute: 30,
            login_failures_per_minute_overall: 600,
            max_connections_per_address: 256,
            max_open_challenges_per_user: 20,
            max_bot_games_per_user: 2,
            max_engine_games_per_user: 1,
            chat_lines_per_minute: 20,
            program_absence_ms: 60 * 60 * 1000,
            default_time_control: "ing-pp:1h".into(),
            database_url: String::new(),
            listen: "127.0.0.1:8080".into(),
            engines: Vec::new(),
            directors: Vec::new(),
        }
    }
}

/// What a front end read from its flags and the environment; each given value wins over the
/// file's.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// The database: `sqlite:PATH`, a bare path, or `postgres://…`.
    pub db: Option<String>,
    /// The address to listen on.
    pub listen: Option<String>,
    /// The TOML file.
    pub config: Option<PathBuf>,
    /// Mark the session cookie Secure.
    pub secure_cookies: bool,
    /// The time control of a challenge that names none.
    pub default_time_control: Option<String>,
    /// Engines as `NAME=COMMAND LINE`.
    pub engines: Vec<String>,
    /// The accounts that may direct events, added to the file's `directors`.
    pub directors: Vec<String>,
}

/// Why the settings cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file cannot be read.
    #[error("cannot read the configuration file {path}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a configuration.
    #[error("bad configuration file {path}")]
    Parse {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: toml::de::Error,
    },
    /// A bad engine entry (where, the field and what is wrong).
    #[error("{0}")]
    Engine(String),
    /// The default time control is not one.
    #[error("bad --default-time-control {text:?}")]
    TimeControl {
        /// The text.
        text: String,
        /// Why.
        #[source]
        source: ingo_clock::ParseTimeControlError,
    },
    /// The default time control reads, but the server would refuse it for a game (no basic
    /// time, a clock over 30 days…).
    #[error("bad --default-time-control {text:?}: {message}")]
    TimeControlRefused {
        /// The text.
        text: String,
        /// Why, as a game's settings would say it.
        message: String,
    },
}

/// The optional configuration file.
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    db: Option<String>,
    listen: Option<String>,
    secure_cookies: Option<bool>,
    default_time_control: Option<String>,
    login_failures_per_minute: Option<usize>,
    login_failures_per_address_per_minute: Option<usize>,
    login_failures_per_account_per_minute: Option<usize>,
    login_failures_per_minute_overall: Option<usize>,
    max_connections_per_address: Option<usize>,
    max_open_challenges_per_user: Option<usize>,
    max_bot_games_per_user: Option<usize>,
    max_engine_games_per_user: Option<usize>,
    chat_lines_per_minute: Option<usize>,
    program_absence_minutes: Option<i64>,
    session_days: Option<i64>,
    #[serde(default)]
    directors: Vec<String>,
    #[serde(default)]
    engine: Vec<FileEngine>,
}

/// An `[[engine]]` table of the file.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct FileEngine {
    name: String,
    command: Command,
    rank: Option<String>,
    max_games: Option<i64>,
    move_timeout_secs: Option<f64>,
    setup_timeout_secs: Option<f64>,
    dir: Option<PathBuf>,
}

/// An engine's command: a list of words, or one line split as a shell would.
#[derive(Deserialize, Debug)]
#[serde(untagged)]
enum Command {
    Words(Vec<String>),
    Line(String),
}

impl FileEngine {
    fn config(self) -> Result<EngineConfig, EngineConfigError> {
        let words = match self.command {
            Command::Words(w) => w,
            Command::Line(l) => ingo_gtp::engine::split_command_line(&l)
                .map_err(|e| config_error("command", e.to_string()))?,
        };
        let mut e = EngineConfig::new(&self.name, words)?;
        if let Some(r) = &self.rank {
            e = e.with_rank(r)?;
        }
        if let Some(n) = self.max_games {
            e = e.with_max_games(n)?;
        }
        if let Some(t) = self.move_timeout_secs {
            e = e.with_move_timeout(t)?;
        }
        if let Some(t) = self.setup_timeout_secs {
            e = e.with_setup_timeout(t)?;
        }
        e.dir = self.dir;
        Ok(e)
    }
}

/// The engines of the file, then of the flags.
fn engines(
    file: Vec<FileEngine>,
    flags: &[String],
    path: Option<&Path>,
) -> Result<Vec<EngineConfig>, ConfigError> {
    let mut out = Vec::new();
    let where_ = path.map_or_else(String::new, |p| format!("{}: ", p.display()));
    for (i, f) in file.into_iter().enumerate() {
        let name = f.name.clone();
        out.push(f.config().map_err(|e| {
            ConfigError::Engine(format!(
                "{where_}engine[{i}] ({name:?}): {}: {}",
                e.field, e.message
            ))
        })?);
    }
    for flag in flags {
        out.push(EngineConfig::from_flag(flag).map_err(|e| {
            ConfigError::Engine(format!("--engine {flag:?}: {}: {}", e.field, e.message))
        })?);
    }
    check_engines(&out)
        .map_err(|e| ConfigError::Engine(format!("engines: {}: {}", e.field, e.message)))?;
    Ok(out)
}

/// The database URL for a `--db` value: a bare path means an SQLite file.
pub fn db_url(value: &str) -> String {
    if value.starts_with("sqlite:") || value.contains("://") {
        value.to_owned()
    } else {
        format!("sqlite:{value}")
    }
}

impl Config {
    /// The settings: `o` first, then the file `o.config` names, then the defaults.
    ///
    /// # Errors
    /// An unreadable or bad file, a bad engine entry, a bad default time control.
    pub fn load(o: Overrides) -> Result<Config, ConfigError> {
        let file = match &o.config {
            None => FileConfig::default(),
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
                    path: path.display().to_string(),
                    source,
                })?;
                toml::from_str(&text).map_err(|source| ConfigError::Parse {
                    path: path.display().to_string(),
                    source,
                })?
            }
        };
        let db = db_url(
            &o.db
                .or(file.db)
                .unwrap_or_else(|| "sqlite:ingo.db".to_owned()),
        );
        let mut config = Config {
            secure_cookies: o.secure_cookies || file.secure_cookies.unwrap_or(false),
            database_url: db,
            engines: engines(file.engine, &o.engines, o.config.as_deref())?,
            directors: file.directors.into_iter().chain(o.directors).collect(),
            ..Config::default()
        };
        if let Some(listen) = o.listen.or(file.listen) {
            config.listen = listen;
        }
        if let Some(tc) = o.default_time_control.or(file.default_time_control) {
            let parsed: ingo_clock::TimeControl =
                tc.parse().map_err(|source| ConfigError::TimeControl {
                    text: tc.clone(),
                    source,
                })?;
            let text = parsed.to_string();
            crate::domain::settings::time_control(Some(&text), &text).map_err(|e| {
                ConfigError::TimeControlRefused {
                    text: tc.clone(),
                    message: e.message,
                }
            })?;
            config.default_time_control = text;
        }
        let limits = [
            (
                file.login_failures_per_minute,
                &mut config.login_failures_per_minute,
            ),
            (
                file.login_failures_per_address_per_minute,
                &mut config.login_failures_per_address_per_minute,
            ),
            (
                file.login_failures_per_account_per_minute,
                &mut config.login_failures_per_account_per_minute,
            ),
            (
                file.login_failures_per_minute_overall,
                &mut config.login_failures_per_minute_overall,
            ),
            (
                file.max_connections_per_address,
                &mut config.max_connections_per_address,
            ),
            (
                file.max_open_challenges_per_user,
                &mut config.max_open_challenges_per_user,
            ),
            (
                file.max_bot_games_per_user,
                &mut config.max_bot_games_per_user,
            ),
            (
                file.max_engine_games_per_user,
                &mut config.max_engine_games_per_user,
            ),
            (
                file.chat_lines_per_minute,
                &mut config.chat_lines_per_minute,
            ),
        ];
        for (given, field) in limits {
            if let Some(n) = given {
                *field = n;
            }
        }
        if let Some(days) = file.session_days {
            config.session_ms = days * 24 * 3600 * 1000;
        }
        if let Some(minutes) = file.program_absence_minutes {
            config.program_absence_ms = minutes.max(0).saturating_mul(60 * 1000);
        }
        Ok(config)
    }
}

/// Added to the clock's deadline before a thinking engine is killed (the referee's default).
pub const GRACE: Duration = Duration::from_secs(1);

/// The default `move_timeout`: the referee's timeout for an untimed move.
pub const DEFAULT_MOVE_TIMEOUT: Duration = Duration::from_secs(300);

/// The default `setup_timeout`, for every command that is not a move (the referee's).
pub const DEFAULT_SETUP_TIMEOUT: Duration = Duration::from_secs(60);

/// The longest engine name: the account name (`ingo-engine-` + name) has at most 32 characters.
pub const MAX_NAME: usize = 32 - ENGINE_PREFIX.len();

/// One engine the operator offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Its name (letters, digits, `_`, `-`; at most [`MAX_NAME`] characters).
    pub name: String,
    /// The program and its arguments.
    pub command: Vec<String>,
    /// The rank it plays at (the handicap of a game by ranks).
    pub rank: Rank,
    /// How many games it plays at once (processes running at once), at least 1.
    pub max_games: usize,
    /// The longest it may think on one move, whatever its clock says.
    pub move_timeout: Duration,
    /// The timeout of every command that is not a move.
    pub setup_timeout: Duration,
    /// The directory it runs in (engines look for their data files relative to it).
    pub dir: Option<PathBuf>,
}

/// A bad engine entry: the field and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct EngineConfigError {
    /// The field (`name`, `command`, `rank`, `max_games`, …).
    pub field: &'static str,
    /// What is wrong, in a sentence.
    pub message: String,
}

fn config_error(field: &'static str, message: impl Into<String>) -> EngineConfigError {
    EngineConfigError {
        field,
        message: message.into(),
    }
}

impl EngineConfig {
    /// An engine with the defaults: rank 級外 (below kyu), one game at a time, the default
    /// timeouts, the server's directory.
    ///
    /// # Errors
    /// For a name that is empty, too long or has other characters than letters, digits, `_`
    /// and `-`, or an empty command.
    pub fn new(name: &str, command: Vec<String>) -> Result<EngineConfig, EngineConfigError> {
        let n = name.chars().count();
        if !(1..=MAX_NAME).contains(&n)
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(config_error(
                "name",
                format!(
                    "{name:?} is not an engine name (1 to {MAX_NAME} letters, digits, '_' or '-')"
                ),
            ));
        }
        if command.first().is_none_or(|p| p.trim().is_empty()) {
            return Err(config_error("command", "the command is empty"));
        }
        Ok(EngineConfig {
            name: name.to_owned(),
            command,
            rank: Rank::BelowKyu,
            max_games: 1,
            move_timeout: DEFAULT_MOVE_TIMEOUT,
            setup_timeout: DEFAULT_SETUP_TIMEOUT,
            dir: None,
        })
    }

    /// An engine from the `--engine` flag's `NAME=COMMAND LINE` (the command line split as a
    /// shell would, quotes included).
    ///
    /// # Errors
    /// Without `=`, or as [`EngineConfig::new`].
    pub fn from_flag(spec: &str) -> Result<EngineConfig, EngineConfigError> {
        let (name, line) = spec.split_once('=').ok_or_else(|| {
            config_error(
                "engine",
                format!("{spec:?} is not NAME=COMMAND (e.g. gnugo=gnugo --mode gtp)"),
            )
        })?;
        let words = ingo_gtp::engine::split_command_line(line)
            .map_err(|e| config_error("command", e.to_string()))?;
        EngineConfig::new(name.trim(), words)
    }

    /// Sets the rank from its text (`5k`, `2d`, `3段`…).
    ///
    /// # Errors
    /// For text that is not a rank.
    pub fn with_rank(mut self, rank: &str) -> Result<EngineConfig, EngineConfigError> {
        self.rank = rank
            .parse()
            .map_err(|_| config_error("rank", format!("{rank:?} is not a rank (5k, 2d, 3段…)")))?;
        Ok(self)
    }

    /// Sets how many games it plays at once.
    ///
    /// # Errors
    /// For 0.
    pub fn with_max_games(mut self, n: i64) -> Result<EngineConfig, EngineConfigError> {
        self.max_games = usize::try_from(n)
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| config_error("max_games", format!("{n} is not at least 1")))?;
        Ok(self)
    }

    /// Sets the move timeout, in seconds.
    ///
    /// # Errors
    /// For a value that is not more than zero.
    pub fn with_move_timeout(mut self, secs: f64) -> Result<EngineConfig, EngineConfigError> {
        self.move_timeout = positive_secs(secs).ok_or_else(|| {
            config_error(
                "move_timeout_secs",
                format!("{secs} is not a number of seconds above 0"),
            )
        })?;
        Ok(self)
    }

    /// Sets the timeout of the other commands, in seconds.
    ///
    /// # Errors
    /// For a value that is not more than zero.
    pub fn with_setup_timeout(mut self, secs: f64) -> Result<EngineConfig, EngineConfigError> {
        self.setup_timeout = positive_secs(secs).ok_or_else(|| {
            config_error(
                "setup_timeout_secs",
                format!("{secs} is not a number of seconds above 0"),
            )
        })?;
        Ok(self)
    }

    /// Its account's name.
    pub fn account(&self) -> String {
        format!("{ENGINE_PREFIX}{}", self.name)
    }
}

fn positive_secs(secs: f64) -> Option<Duration> {
    if secs.is_finite() && secs > 0.0 && secs < 1e9 {
        Some(Duration::from_secs_f64(secs))
    } else {
        None
    }
}

/// Checks a whole list: no name twice.
///
/// # Errors
/// The second entry of a name.
pub fn check_engines(list: &[EngineConfig]) -> Result<(), EngineConfigError> {
    for (i, e) in list.iter().enumerate() {
        if list[..i].iter().any(|o| o.name == e.name) {
            return Err(config_error(
                "name",
                format!("engine {:?} is configured twice", e.name),
            ));
        }
    }
    Ok(())
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limits_are_read_from_the_file() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("ingo.toml");
        std::fs::write(
            &path,
            "login_failures_per_minute = 3\n\
             login_failures_per_address_per_minute = 7\n\
             login_failures_per_account_per_minute = 9\n\
             max_connections_per_address = 11\n\
             max_open_challenges_per_user = 4\n\
             max_bot_games_per_user = 5\n\
             max_engine_games_per_user = 6\n\
             chat_lines_per_minute = 8\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let c = Config::load(Overrides {
            config: Some(path),
            ..Overrides::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (
                c.login_failures_per_minute,
                c.login_failures_per_address_per_minute,
                c.login_failures_per_account_per_minute,
                c.max_connections_per_address
            ),
            (3, 7, 9, 11)
        );
        assert_eq!(
            (
                c.max_open_challenges_per_user,
                c.max_bot_games_per_user,
                c.max_engine_games_per_user,
                c.chat_lines_per_minute
            ),
            (4, 5, 6, 8)
        );
        // A default time control no game could have is refused at start.
        let e = Config::load(Overrides {
            default_time_control: Some("ing-pp:1000000000000000h".into()),
            ..Overrides::default()
        });
        assert!(
            matches!(e, Err(ConfigError::TimeControlRefused { .. })),
            "{e:?}"
        );
        // Unset keys keep their defaults.
        let d = Config::load(Overrides::default()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(d.max_connections_per_address, 256);
    }

    #[test]
    fn flags_and_fields_are_checked() {
        let e = EngineConfig::from_flag("gnugo=gnugo --mode gtp --level '1'")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(e.command, ["gnugo", "--mode", "gtp", "--level", "1"]);
        assert_eq!(e.account(), "ingo-engine-gnugo");
        assert_eq!(
            EngineConfig::from_flag("gnugo").map_err(|e| e.field),
            Err("engine")
        );
        assert_eq!(
            EngineConfig::from_flag("g g=x").map_err(|e| e.field),
            Err("name")
        );
        assert_eq!(
            EngineConfig::from_flag("g=").map_err(|e| e.field),
            Err("command")
        );
        let long = format!("{}=x", "a".repeat(MAX_NAME + 1));
        assert_eq!(
            EngineConfig::from_flag(&long).map_err(|e| e.field),
            Err("name")
        );
        assert_eq!(e.clone().with_rank("5x").map_err(|e| e.field), Err("rank"));
        assert_eq!(e.clone().with_rank("5k").map(|e| e.rank), Ok(Rank::Kyu(5)));
        assert_eq!(
            e.clone().with_max_games(0).map_err(|e| e.field),
            Err("max_games")
        );
        assert_eq!(
            e.clone().with_move_timeout(0.0).map_err(|e| e.field),
            Err("move_timeout_secs")
        );
        assert_eq!(
            check_engines(&[e.clone(), e.clone()]).map_err(|e| e.field),
            Err("name")
        );
        assert!(
            crate::domain::accounts::is_reserved_name(&e.account())
                && !crate::domain::accounts::is_reserved_name("gnugo")
        );
    }
}
