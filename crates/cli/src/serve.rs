//! `ingo serve`: the play server on an embedded SQLite file (created and migrated on first
//! start) or on PostgreSQL.
//!
//! Settings come from, in order of precedence: flags, the environment (`INGO_DB`,
//! `INGO_LISTEN`, `INGO_CONFIG`), a TOML file (`--config`), then the defaults (`sqlite:ingo.db`
//! in the working directory, `127.0.0.1:8080`).

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
    /// login_failures_per_minute, session_days.
    #[arg(long, env = "INGO_CONFIG")]
    config: Option<PathBuf>,
    /// Mark the session cookie Secure (when served behind HTTPS).
    #[arg(long)]
    secure_cookies: bool,
    /// The time control of a challenge that names none [default: ing-pp:1h].
    #[arg(long)]
    default_time_control: Option<String>,
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
    let mut config = ingo_server::Config {
        secure_cookies: args.secure_cookies || file.secure_cookies.unwrap_or(false),
        database_url: db.clone(),
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
        ingo_server::serve(listener, ingo_server::AppState::new(store, config)).await
    })
}
