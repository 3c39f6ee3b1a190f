//! `ingo serve`: the play server on an embedded SQLite file (created and migrated on first
//! start) or on PostgreSQL.
//!
//! Settings come from, in order of precedence: flags, the environment (`INGO_DB`,
//! `INGO_LISTEN`, `INGO_CONFIG`), a TOML file (`--config`), then the defaults (`sqlite:ingo.db`
//! in the working directory, `127.0.0.1:8080`).
//!
//! GTP engines offered as opponents come from `[[engine]]` tables of the file and from
//! repeatable `--engine NAME=COMMAND` flags (both together; a name may appear once):
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
//! On SIGTERM or SIGINT the server kills every engine it started before it exits.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use serde::Deserialize;

/// The arguments of `ingo serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The database: `sqlite:PATH` (created on first start) or `postgres://…`
    /// [default: sqlite:ingo.db].
    #[arg(long, env = "INGO_DB")]
    db: Option<String>,
    /// Address to listen on; port 0 picks a free port (the bound address is printed)
    /// [default: 127.0.0.1:8080].
    #[arg(long, env = "INGO_LISTEN")]
    listen: Option<String>,
    /// A TOML file with any of: db, listen, secure_cookies, default_time_control,
    /// login_failures_per_minute, session_days, and `[[engine]]` tables (name, command, rank,
    /// max_games, move_timeout_secs, setup_timeout_secs, dir).
    #[arg(long, env = "INGO_CONFIG")]
    config: Option<PathBuf>,
    /// Mark the session cookie Secure (when served behind HTTPS).
    #[arg(long)]
    secure_cookies: bool,
    /// The time control of a challenge that names none [default: ing-pp:1h].
    #[arg(long)]
    default_time_control: Option<String>,
    /// A GTP engine offered as an opponent, `NAME=COMMAND LINE` (repeatable), e.g.
    /// `gnugo=gnugo --mode gtp --level 1`; rank, max_games and timeouts in the file's
    /// `[[engine]]` tables.
    #[arg(long = "engine", value_name = "NAME=COMMAND")]
    engines: Vec<String>,
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
    session_days: Option<i64>,
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
    fn config(
        self,
    ) -> Result<ingo_server::engine::EngineConfig, ingo_server::engine::EngineConfigError> {
        use ingo_server::engine::{EngineConfig, EngineConfigError};
        let words = match self.command {
            Command::Words(w) => w,
            Command::Line(l) => {
                ingo_gtp::engine::split_command_line(&l).map_err(|e| EngineConfigError {
                    field: "command",
                    message: e.to_string(),
                })?
            }
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
    path: Option<&std::path::Path>,
) -> anyhow::Result<Vec<ingo_server::engine::EngineConfig>> {
    let mut out = Vec::new();
    let where_ = path.map_or_else(String::new, |p| format!("{}: ", p.display()));
    for (i, f) in file.into_iter().enumerate() {
        let name = f.name.clone();
        out.push(f.config().map_err(|e| {
            anyhow::anyhow!("{where_}engine[{i}] ({name:?}): {}: {}", e.field, e.message)
        })?);
    }
    for flag in flags {
        out.push(
            ingo_server::engine::EngineConfig::from_flag(flag)
                .map_err(|e| anyhow::anyhow!("--engine {flag:?}: {}: {}", e.field, e.message))?,
        );
    }
    ingo_server::engine::check_engines(&out)
        .map_err(|e| anyhow::anyhow!("engines: {}: {}", e.field, e.message))?;
    Ok(out)
}

/// The database URL for a `--db` value: a bare path means an SQLite file.
fn db_url(value: &str) -> String {
    if value.starts_with("sqlite:") || value.contains("://") {
        value.to_owned()
    } else {
        format!("sqlite:{value}")
    }
}

/// Runs the server until the process is stopped.
pub fn run(args: ServeArgs) -> anyhow::Result<std::process::ExitCode> {
    serve(args).map(|()| std::process::ExitCode::SUCCESS)
}

fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let file = match &args.config {
        None => FileConfig::default(),
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| {
                format!("cannot read the configuration file {}", path.display())
            })?;
            toml::from_str(&text)
                .with_context(|| format!("bad configuration file {}", path.display()))?
        }
    };
    let db = db_url(
        &args
            .db
            .or(file.db)
            .unwrap_or_else(|| "sqlite:ingo.db".to_owned()),
    );
    let listen = args
        .listen
        .or(file.listen)
        .unwrap_or_else(|| "127.0.0.1:8080".to_owned());
    let engines = engines(file.engine, &args.engines, args.config.as_deref())?;
    let mut config = ingo_server::Config {
        secure_cookies: args.secure_cookies || file.secure_cookies.unwrap_or(false),
        database_url: db.clone(),
        engines,
        ..ingo_server::Config::default()
    };
    if let Some(tc) = args.default_time_control.or(file.default_time_control) {
        let parsed: ingo_clock::TimeControl = tc
            .parse()
            .with_context(|| format!("bad --default-time-control {tc:?}"))?;
        config.default_time_control = parsed.to_string();
    }
    if let Some(n) = file.login_failures_per_minute {
        config.login_failures_per_minute = n;
    }
    if let Some(days) = file.session_days {
        config.session_ms = days * 24 * 3600 * 1000;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let store = ingo_store::Store::open(&db)
            .await
            .with_context(|| format!("cannot open the database {}", ingo_store::redact(&db)))?;
        let listener = tokio::net::TcpListener::bind(&listen)
            .await
            .with_context(|| format!("cannot listen on {listen}"))?;
        let addr = listener.local_addr()?;
        // The first line of output: scripts and tests read the port from it.
        println!(
            "ingo serve: listening on http://{addr} (database {})",
            ingo_store::redact(&db)
        );
        use std::io::Write;
        std::io::stdout().flush()?;
        let server = ingo_server::serve(listener, ingo_server::AppState::new(store, config));
        tokio::select! {
            r = server => r,
            () = stop_signal() => {
                // Engines run in process groups of their own: a Ctrl-C does not reach them.
                ingo_gtp::engine::shut_down_engines();
                Ok(())
            }
        }
    })
}

/// SIGTERM or SIGINT.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) {
            (Ok(mut term), Ok(mut int)) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = int.recv() => {}
                }
            }
            _ => std::future::pending().await,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
