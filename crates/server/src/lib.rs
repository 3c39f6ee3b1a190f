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

use std::collections::HashMap;
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
pub use domain::live_game::LiveGame;
pub use http::error::ApiError;
pub use play::event::Event;

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
    /// Recent failed log-ins, by key (`name:…`, `ip:…`), as ms times.
    login_failures: StdMutex<HashMap<String, Vec<i64>>>,
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
        AppState {
            store,
            config: Arc::new(config),
            play,
            shared: Arc::new(Shared {
                login_failures: StdMutex::new(HashMap::new()),
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
    pub fn subscribe(&self, id: i64) -> broadcast::Receiver<Event> {
        self.play.subscribe(id)
    }

    /// Records a failed log-in for each key; answers whether any key is over the limit.
    pub(crate) fn login_limited(&self, keys: &[String], now_ms: i64, record: bool) -> bool {
        let mut map = play::hub::lock(&self.shared.login_failures);
        let mut limited = false;
        for k in keys {
            let times = map.entry(k.clone()).or_default();
            times.retain(|&t| now_ms - t < 60_000);
            if record {
                times.push(now_ms);
            }
            limited |= times.len() >= self.config.login_failures_per_minute;
        }
        limited
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

/// The whole application: every route over `state`.
pub fn app(state: AppState) -> Router {
    state.start_opponents();
    Router::new()
        .merge(http::assets::routes())
        .merge(http::auth::routes())
        .merge(http::challenges::routes())
        .merge(http::games::routes())
        .merge(http::consult::routes())
        .merge(http::review::routes())
        .merge(http::opponents::routes())
        .route_layer(axum::middleware::from_fn(http::trace::trace))
        .with_state(state)
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
    state
        .resume_games()
        .await
        .map_err(|e| anyhow::anyhow!("{}", e.message))?;
    // Small WebSocket frames must not wait for Nagle's algorithm (40 ms with delayed ACKs).
    use axum::serve::ListenerExt;
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(
        listener,
        app(state).into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .await?;
    Ok(())
}
