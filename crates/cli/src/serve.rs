//! `ingo serve`: the play server on an embedded SQLite file (created and migrated on first
//! start) or on PostgreSQL.
//!
//! Settings come from, in order of precedence: flags, the environment (`INGO_DB`,
//! `INGO_LISTEN`, `INGO_CONFIG`), a TOML file (`--config`), then the defaults (`sqlite:ingo.db`
//! in the working directory, `127.0.0.1:8080`).
//!
//! GTP engines offered as opponents come from `[[engine]]` tables of the file and from
//! repeatable `--engine NAME=COMMAND` flags (both together; a name may appear once); the file's
//! fields are described in `ingo_server::config`, which reads and checks everything: this
//! module only parses the flags.
//!
//! On SIGTERM or SIGINT the server kills every engine it started before it exits.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

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
    /// An account that may direct events on this server (repeatable; also the file's
    /// `directors = ["NAME", …]`): create an event from an agreement, approve entrants, pair
    /// and start rounds, record the referee's decisions.
    #[arg(long = "director", value_name = "NAME")]
    directors: Vec<String>,
    /// How the server logs to standard error: `text`, or `json` (one object a line, with each
    /// request's method, route, status, latency and game id) [default: text].
    #[arg(long, env = "INGO_LOG_FORMAT", value_parser = ["text", "json"])]
    log_format: Option<String>,
}

/// Runs the server until the process is stopped.
pub fn run(args: ServeArgs) -> anyhow::Result<std::process::ExitCode> {
    serve(args).map(|()| std::process::ExitCode::SUCCESS)
}

fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let format = args
        .log_format
        .as_deref()
        .and_then(ingo_server::logging::LogFormat::parse)
        .unwrap_or_default();
    ingo_server::logging::init(format).context("cannot start the logs")?;
    let config = ingo_server::Config::load(ingo_server::config::Overrides {
        db: args.db,
        listen: args.listen,
        config: args.config,
        secure_cookies: args.secure_cookies,
        default_time_control: args.default_time_control,
        engines: args.engines,
        directors: args.directors,
    })?;
    // The server judges a suspended game's dead stones and runs the built-in player on its
    // runtime's threads, whose stacks Tokio makes 2 MiB by default. Both read deep lines (a
    // group's reading once overflowed 2 MiB and aborted the process: CHANGELOG, 5 December
    // 2026); 8 MiB, a main thread's stack on Linux, leaves them the same room as the
    // command line has. The memory is reserved, not used, until a line reaches it.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .thread_stack_size(8 << 20)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let db = ingo_store::redact(&config.database_url);
        let server = ingo_server::run(config, |addr| {
            // The first line of output: scripts and tests read the port from it.
            println!("ingo serve: listening on http://{addr} (database {db})");
            use std::io::Write;
            let _ = std::io::stdout().flush();
        });
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
