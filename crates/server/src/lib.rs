//! `ingo-server`: games under Ing's rules between people over HTTP and WebSocket, the rules
//! (`ingo-rules`) deciding every move and the Ing clock (`ingo-clock`) kept by the server.
//!
//! Four layers, each using only those below it:
//!
//! * [`domain`]: the game and its people, with no HTTP, JSON or database: [`LiveGame`] (private
//!   fields; every change a checked method), sides and teams, new-game settings and colours,
//!   and [`domain::error::GameError`].
//! * [`play`]: the only code that locks a game and commits: the games in memory
//!   ([`play::hub::Play`]), a move judged, committed in one transaction with
//!   `(game_id, move_number)` unique, *then* acknowledged and published as typed events with
//!   their audience; the timers, consultation's proposals, the chat, and the PostgreSQL relay
//!   between servers.
//! * [`opponents`]: the built-in player and the configured GTP engines, woken by committed
//!   changes (a queue the commit writes to), playing through the same play path as people.
//! * [`http`]: axum only: the routes per resource, the WebSocket, the pages and
//!   [`ApiError`].
//!
//! This file wires them: [`AppState`], [`app`] and [`serve`]; [`config::Config`] is the
//! settings. Every time the server reads (game clocks, timers, stored times) comes from the
//! state's [`wall::WallClock`]: the system's, or in tests a manual one
//! ([`AppState::with_clock`]).
//!
//! The API is documented in `openapi.yaml` beside this crate's `Cargo.toml`.
#![deny(missing_docs)]

use std::net::IpAddr;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex as StdMutex};

use axum::Router;
use ingo_store::Store;
use tokio::sync::{broadcast, mpsc};

pub mod client;
pub mod config;
pub mod domain;
pub mod http;
pub mod logging;
pub mod opponents;
pub mod play;
pub mod wall;

pub use config::Config;
use domain::limiter::{Limit, Limiter};
pub use domain::live_game::LiveGame;
pub use http::error::ApiError;
pub use play::event::Broadcast;

/// The engine settings, where the command line and the tests name them.
pub mod engine {
    pub use crate::config::{check_engines, EngineConfig, EngineConfigError};
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The database.
    pub store: Store,
    /// The settings.
    pub config: Arc<Config>,
    /// The games of this process.
    pub play: play::hub::Play,
    shared: Arc<Shared>,
}

struct Shared {
    /// Recent log-in attempts, by key (`pair:ADDRESS NAME`, `ip:ADDRESS`, `name:NAME`, names
    /// folded), bounded in memory.
    logins: StdMutex<Limiter<String>>,
    /// Recent chat lines, by user id.
    chat_lines: StdMutex<Limiter<i64>>,
    /// When expired sessions were last deleted (ms), so that it happens once a minute at most.
    purged_ms: AtomicI64,
    /// Held while a game against a program is checked against the user's limits and made.
    program_games: tokio::sync::Mutex<()>,
    /// The running engine processes, one per game and engine seat.
    engines: opponents::engine::Engines,
    /// The queue of changed games, until the opponents' task takes it.
    changed: StdMutex<Option<mpsc::UnboundedReceiver<i64>>>,
}

impl AppState {
    /// The state over a migrated store, on the system's clock.
    pub fn new(store: Store, config: Config) -> AppState {
        AppState::with_clock(store, config, wall::WallClock::System)
    }

    /// The state over a migrated store, reading the time from `clock` (a test's
    /// [`wall::ManualClock`]).
    pub fn with_clock(store: Store, config: Config, clock: wall::WallClock) -> AppState {
        let engines = opponents::engine::Engines::new(&config.engines);
        let (play, changed) = play::hub::Play::new(store.clone(), clock);
        play.set_program_absence_ms(config.program_absence_ms);
        AppState {
            store,
            config: Arc::new(config),
            play,
            shared: Arc::new(Shared {
                logins: StdMutex::new(Limiter::new(MINUTE_MS, LIMITER_KEYS)),
                chat_lines: StdMutex::new(Limiter::new(MINUTE_MS, LIMITER_KEYS)),
                purged_ms: AtomicI64::new(i64::MIN),
                program_games: tokio::sync::Mutex::new(()),
                engines,
                changed: StdMutex::new(Some(changed)),
            }),
        }
    }

    /// The game `id`, from memory or rebuilt from the store (and its timer started).
    ///
    /// # Errors
    /// 404 for an unknown game; 500 on a storage failure.
    pub async fn game(&self, id: i64) -> Result<play::hub::SharedGame, ApiError> {
        Ok(play::live::game(&self.play, id).await?)
    }

    /// The game `id` and its copy locked, to show its state ([`play::live::shown`]: never a
    /// copy holding a change that was not committed).
    ///
    /// # Errors
    /// 404 for an unknown game; 500 on a storage failure; 409 when the game keeps changing.
    pub async fn shown(
        &self,
        id: i64,
    ) -> Result<
        (
            play::hub::SharedGame,
            tokio::sync::OwnedMutexGuard<LiveGame>,
        ),
        ApiError,
    > {
        Ok(play::live::shown(&self.play, id).await?)
    }

    /// Whether `user` may direct events on this server ([`Config::directors`]).
    pub fn is_director(&self, user: &ingo_store::server::UserRow) -> bool {
        self.config.directors.contains(&user.name)
    }

    /// Where this server reads the time.
    pub fn clock(&self) -> &wall::WallClock {
        self.play.clock()
    }

    /// The time, in ms since the Unix epoch, on this server's clock.
    pub fn now_ms(&self) -> i64 {
        self.play.now_ms()
    }

    /// The engine processes of this server.
    pub fn engines(&self) -> &opponents::engine::Engines {
        &self.shared.engines
    }

    /// A receiver of game `id`'s events.
    pub fn subscribe(&self, id: i64) -> broadcast::Receiver<Broadcast> {
        self.play.subscribe(id)
    }

    /// Counts a log-in attempt for `name` from `ip` (`None`: unknown) *before* its password is
    /// checked, under three limits at once: the name from this address, this address, and the
    /// name from everywhere. Answers the attempt, to give back once it proves right.
    ///
    /// # Errors
    /// [`LoginRefused`] when a limit is reached: which one, and how long to wait.
    pub(crate) fn login_attempt(
        &self,
        name: &str,
        ip: Option<IpAddr>,
    ) -> Result<LoginAttempt, LoginRefused> {
        let folded = domain::accounts::fold_name(name);
        let c = &self.config;
        let mut limits = Vec::new();
        if let Some(ip) = ip {
            limits.push(Limit {
                key: format!("pair:{ip} {folded}"),
                max: c.login_failures_per_minute,
            });
            limits.push(Limit {
                key: format!("ip:{ip}"),
                max: c.login_failures_per_address_per_minute,
            });
        }
        limits.push(Limit {
            key: format!("name:{folded}"),
            max: c.login_failures_per_account_per_minute,
        });
        let at_ms = self.now_ms();
        // Every failure counts against one budget over all names and addresses; past it, a
        // name that failed within the window waits, one that did not is still checked.
        let overall = Limit {
            key: "all".to_owned(),
            max: c.login_failures_per_minute_overall,
        };
        let name_key = format!("name:{folded}");
        let acquired = play::hub::lock(&self.shared.logins)
            .acquire_within_budget(&limits, &overall, &name_key, at_ms);
        match acquired {
            Ok(()) => Ok(LoginAttempt {
                keys: limits
                    .into_iter()
                    .map(|l| l.key)
                    .chain([overall.key])
                    .collect(),
                at_ms,
            }),
            Err(r) => Err(LoginRefused {
                by: if r.which == limits.len() {
                    LoginLimit::Overall
                } else if ip.is_none() {
                    LoginLimit::Account
                } else {
                    [
                        LoginLimit::NameFromAddress,
                        LoginLimit::Address,
                        LoginLimit::Account,
                    ]
                    .get(r.which)
                    .copied()
                    .unwrap_or(LoginLimit::Account)
                },
                retry_after_secs: r.retry_after_secs(),
            }),
        }
    }

    /// Gives back an attempt whose password was right: it is no failure.
    pub(crate) fn login_succeeded(&self, attempt: LoginAttempt) {
        play::hub::lock(&self.shared.logins).release(&attempt.keys, attempt.at_ms);
    }

    /// How many keys the log-in limits keep now (bounded by their most).
    pub fn login_keys(&self) -> usize {
        play::hub::lock(&self.shared.logins).len()
    }

    /// Counts a chat line of `user_id`.
    ///
    /// # Errors
    /// `chat-rate` (429) past [`Config::chat_lines_per_minute`], saying the limit and the wait.
    pub(crate) fn chat_line(&self, user_id: i64) -> Result<(), domain::error::GameError> {
        let max = self.config.chat_lines_per_minute;
        let limit = [Limit { key: user_id, max }];
        let now = self.now_ms();
        play::hub::lock(&self.shared.chat_lines)
            .acquire(&limit, now)
            .map_err(|r| {
                domain::error::GameError::new(
                    domain::error::ErrorKind::TooMany,
                    "chat-rate",
                    format!(
                        "At most {max} chat lines a minute; wait {} s.",
                        r.retry_after_secs()
                    ),
                )
            })
    }

    /// Deletes the expired sessions, at most once a minute (called at each log-in).
    ///
    /// # Errors
    /// On a storage failure.
    pub(crate) async fn purge_sessions(&self) -> Result<(), ApiError> {
        let now = self.now_ms();
        let last = self.shared.purged_ms.load(Ordering::Relaxed);
        if now.saturating_sub(last) < MINUTE_MS
            || self
                .shared
                .purged_ms
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return Ok(());
        }
        let n = play::sessions::purge_expired(&self.play).await?;
        if n > 0 {
            tracing::info!(sessions = n, "expired sessions deleted");
        }
        Ok(())
    }

    /// Held while a game against a program is checked against its user's limits and made, so
    /// that two requests at once cannot both pass.
    pub(crate) async fn program_games_lock(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.shared.program_games.lock().await
    }

    /// Starts the task that wakes the opponents after each commit, once (it needs a Tokio
    /// runtime; without one, it starts at the next call made inside one).
    fn start_opponents(&self) {
        if tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        let Some(rx) = play::hub::lock(&self.shared.changed).take() else {
            return;
        };
        tokio::spawn(opponents::wake::run(self.clone(), rx));
    }

    /// Starts the timers of every game still running (after a start or a restart), and lets
    /// their programs act.
    ///
    /// # Errors
    /// On a storage failure.
    pub async fn resume_games(&self) -> Result<usize, ApiError> {
        self.start_opponents();
        let live = ingo_store::server::live_games(&self.store, i64::MAX).await?;
        let mut resumed = 0;
        for g in &live {
            match play::live::game(&self.play, g.id).await {
                Ok(_) => {}
                // Logged and set aside (`Play::set_aside`): the others are served.
                Err(e) if e.kind == domain::error::ErrorKind::Damaged => continue,
                Err(e) => return Err(e.into()),
            }
            self.play.changed(g.id);
            resumed += 1;
        }
        let aside = self.play.set_aside_games();
        if !aside.is_empty() {
            tracing::error!(
                games = ?aside.iter().map(|(id, _)| *id).collect::<Vec<_>>(),
                "{} stored game(s) do not replay and are set aside; every other game is served",
                aside.len()
            );
        }
        Ok(resumed)
    }
}

/// A minute, in ms: the window of the log-in and chat limits.
const MINUTE_MS: i64 = 60_000;

/// The most keys each in-memory limiter keeps (older ones are dropped first).
const LIMITER_KEYS: usize = 50_000;

/// A log-in attempt counted by [`AppState::login_attempt`].
#[derive(Debug)]
pub(crate) struct LoginAttempt {
    keys: Vec<String>,
    at_ms: i64,
}

/// Which log-in limit refused an attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LoginLimit {
    /// This name from this address.
    NameFromAddress,
    /// This address, all names.
    Address,
    /// This name, all addresses.
    Account,
    /// All names and addresses together, for a name that failed recently.
    Overall,
}

/// A log-in attempt refused by a limit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LoginRefused {
    /// The limit reached.
    pub by: LoginLimit,
    /// When to try again.
    pub retry_after_secs: i64,
}

/// The whole application: every route over `state`.
pub fn app(state: AppState) -> Router {
    state.start_opponents();
    let routes = Router::new()
        .merge(http::assets::routes())
        .merge(http::auth::routes())
        .merge(http::challenges::routes())
        .merge(http::games::routes())
        .merge(http::consult::routes())
        .merge(http::review::routes())
        .merge(http::opponents::routes())
        .merge(http::events::routes())
        .route_layer(axum::middleware::from_fn(http::trace::trace))
        .layer(axum::middleware::from_fn(http::guard::refuse_nul_in_uri))
        .with_state(state);
    http::guard::headers(routes)
}

/// Runs the server that `config` describes until the process ends: opens (and migrates) its
/// database, listens on its address, tells `ready` the address bound, then serves as
/// [`serve`] does.
///
/// # Errors
/// When the database cannot be opened, the address cannot be bound, or as [`serve`].
pub async fn run(config: Config, ready: impl FnOnce(std::net::SocketAddr)) -> anyhow::Result<()> {
    use anyhow::Context;
    let db = config.database_url.clone();
    let store = Store::open(&db)
        .await
        .with_context(|| format!("cannot open the database {}", ingo_store::redact(&db)))?;
    let listener = tokio::net::TcpListener::bind(&config.listen)
        .await
        .with_context(|| format!("cannot listen on {}", config.listen))?;
    ready(listener.local_addr()?);
    serve(listener, AppState::new(store, config)).await
}

/// Runs the server on `listener` until the process ends: resumes the running games' clocks,
/// starts the LISTEN/NOTIFY relay on PostgreSQL, then serves.
///
/// # Errors
/// On a storage failure at start, or when the listener fails.
pub async fn serve(listener: tokio::net::TcpListener, state: AppState) -> anyhow::Result<()> {
    if state.store.backend() == ingo_store::Backend::Postgres {
        play::listen::start(&state.play, &state.config.database_url).await?;
    }
    let folded = play::sessions::fold_old_names(&state.play)
        .await
        .map_err(|e| anyhow::anyhow!("{}", e.message))?;
    if folded > 0 {
        tracing::info!(accounts = folded, "folded names kept for older accounts");
    }
    state
        .resume_games()
        .await
        .map_err(|e| anyhow::anyhow!("{}", e.message))?;
    play::events::resume_timers(&state.play)
        .await
        .map_err(|e| anyhow::anyhow!("{}", e.message))?;
    // At most so many connections per address; small WebSocket frames must not wait for
    // Nagle's algorithm (40 ms with delayed ACKs).
    use axum::serve::ListenerExt;
    let listener = http::conn::Capped::new(listener, state.config.max_connections_per_address)
        .tap_io(|s| {
            let _ = s.tcp().set_nodelay(true);
        });
    axum::serve(
        listener,
        app(state).into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .await?;
    Ok(())
}
