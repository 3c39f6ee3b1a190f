//! `ingo-server`: games under Ing's rules between people over HTTP and WebSocket, the rules
//! (`ingo-rules`) deciding every move and the Ing clock (`ingo-clock`) kept by the server.
//!
//! * [`app`] builds the whole [`axum::Router`] over an [`AppState`] (`store` + `config`), so
//!   tests drive it without a socket; [`serve`] runs it on a listener.
//! * Routes per resource: accounts ([`auth`]), challenges ([`challenges`]), games ([`games`],
//!   with its WebSocket in [`ws`]; consultation's agreement step in [`consult`]), the built-in
//!   player as an opponent ([`bot`]), the GTP engines the operator configures as opponents
//!   ([`engine`]); the lobby page in [`assets`].
//! * Game state lives in one module, [`game`]: a move is checked by `Game::play`, committed in
//!   one transaction with `(game_id, move_number)` unique, *then* acknowledged and published.
//! * Several servers on one PostgreSQL relay their events through LISTEN/NOTIFY ([`relay`]).
//! * Every time the server reads (game clocks, timers, stored times) comes from the state's
//!   [`wall::WallClock`]: the system's, or in tests a manual one ([`AppState::with_clock`]).
//!
//! The API is documented in `openapi.yaml` beside this crate's `Cargo.toml`.
#![deny(missing_docs)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex as StdMutex};

use axum::Router;
use ingo_store::Store;
use tokio::sync::{broadcast, Mutex, Notify};

pub mod assets;
pub mod auth;
pub mod bot;
pub mod challenges;
pub mod client;
pub mod consult;
pub mod engine;
pub mod error;
pub mod game;
pub mod games;
pub mod relay;
pub mod wall;
pub mod web;
pub mod ws;

pub use error::ApiError;
pub use game::LiveGame;

/// The server's settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Mark the session cookie `Secure` (behind HTTPS).
    pub secure_cookies: bool,
    /// How long a session lasts, in ms.
    pub session_ms: i64,
    /// Failed log-ins allowed per name, and per address, in a minute.
    pub login_failures_per_minute: usize,
    /// The time control of a challenge that names none: Ing's penalty-point overtime.
    pub default_time_control: String,
    /// The database URL, for the LISTEN connection of several servers on PostgreSQL.
    pub database_url: String,
    /// The GTP engines offered as opponents ([`engine`]).
    pub engines: Vec<engine::EngineConfig>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            secure_cookies: false,
            session_ms: 30 * 24 * 3600 * 1000,
            login_failures_per_minute: 5,
            default_time_control: "ing-pp:1h".into(),
            database_url: String::new(),
            engines: Vec::new(),
        }
    }
}

/// A message published to a game's subscribers (JSON text).
pub type Event = Arc<str>;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The database.
    pub store: Store,
    /// The settings.
    pub config: Arc<Config>,
    shared: Arc<Shared>,
}

struct Shared {
    /// Games in memory; each behind its own lock, held across the commit of a move so that a
    /// game's moves are applied one at a time.
    games: StdMutex<HashMap<i64, Arc<Mutex<LiveGame>>>>,
    /// One broadcast channel per game with subscribers.
    hubs: StdMutex<HashMap<i64, broadcast::Sender<Event>>>,
    /// Wakes a game's timer task when its clock changes.
    timers: StdMutex<HashMap<i64, Arc<Notify>>>,
    /// Recent failed log-ins, by key (`name:…`, `ip:…`), as ms times.
    login_failures: StdMutex<HashMap<String, Vec<i64>>>,
    /// This process's id, to skip its own NOTIFY messages.
    instance: i64,
    /// The NOTIFY sender, with PostgreSQL.
    relay: StdMutex<Option<relay::Relay>>,
    /// The running engine processes, one per game and engine seat.
    engines: engine::Engines,
    /// Where the time is read.
    clock: wall::WallClock,
}

fn lock<T>(m: &StdMutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic while holding one of these short locks leaves plain data behind; go on with it.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl AppState {
    /// The state over a migrated store, on the system's clock.
    pub fn new(store: Store, config: Config) -> AppState {
        AppState::with_clock(store, config, wall::WallClock::System)
    }

    /// The state over a migrated store, reading the time from `clock` (a test's
    /// [`wall::ManualClock`]).
    pub fn with_clock(store: Store, config: Config, clock: wall::WallClock) -> AppState {
        let engines = engine::Engines::new(&config.engines);
        AppState {
            store,
            config: Arc::new(config),
            shared: Arc::new(Shared {
                games: StdMutex::new(HashMap::new()),
                hubs: StdMutex::new(HashMap::new()),
                timers: StdMutex::new(HashMap::new()),
                login_failures: StdMutex::new(HashMap::new()),
                instance: ingo_store::new_id(),
                relay: StdMutex::new(None),
                engines,
                clock,
            }),
        }
    }

    /// The game `id`, from memory or rebuilt from the store (and its timer started).
    ///
    /// # Errors
    /// 404 for an unknown game; 500 on a storage failure.
    pub async fn game(&self, id: i64) -> Result<Arc<Mutex<LiveGame>>, ApiError> {
        if let Some(g) = lock(&self.shared.games).get(&id) {
            return Ok(Arc::clone(g));
        }
        let live = games::load(self, id).await?;
        let ended = live.row.state.status == "ended";
        let g = {
            let mut map = lock(&self.shared.games);
            Arc::clone(map.entry(id).or_insert_with(|| Arc::new(Mutex::new(live))))
        };
        if !ended {
            self.start_timer(id);
        }
        Ok(g)
    }

    /// Where this server reads the time.
    pub fn clock(&self) -> &wall::WallClock {
        &self.shared.clock
    }

    /// The time, in ms since the Unix epoch, on this server's clock.
    pub fn now_ms(&self) -> i64 {
        self.shared.clock.now_ms()
    }

    /// The engine processes of this server.
    pub fn engines(&self) -> &engine::Engines {
        &self.shared.engines
    }

    /// Forgets the in-memory copy of a game (after a failed commit, or a move made by
    /// another server): the next access rebuilds it from the store.
    pub fn evict(&self, id: i64) {
        lock(&self.shared.games).remove(&id);
    }

    /// A receiver of game `id`'s events.
    pub fn subscribe(&self, id: i64) -> broadcast::Receiver<Event> {
        lock(&self.shared.hubs)
            .entry(id)
            .or_insert_with(|| broadcast::channel(1024).0)
            .subscribe()
    }

    /// Sends an event to this process's subscribers of game `id`.
    pub fn publish_local(&self, id: i64, event: Event) {
        let mut hubs = lock(&self.shared.hubs);
        if let Some(tx) = hubs.get(&id) {
            if tx.send(event).is_err() {
                hubs.remove(&id);
            }
        }
    }

    /// Sends an event to every subscriber of game `id`, in this process and (with PostgreSQL)
    /// in the others.
    pub fn publish(&self, id: i64, event: Event) {
        self.publish_all(id, &[event]);
    }

    /// Sends events of game `id`, in order, to every subscriber, in this process and (with
    /// PostgreSQL, in one notification) in the others.
    pub fn publish_all(&self, id: i64, events: &[Event]) {
        for e in events {
            self.publish_local(id, Arc::clone(e));
        }
        let relay = lock(&self.shared.relay).clone();
        if let Some(relay) = relay {
            relay.send(self.shared.instance, id, events);
        }
    }

    /// Wakes the timer of game `id` (its clock changed).
    pub fn wake_timer(&self, id: i64) {
        if let Some(n) = lock(&self.shared.timers).get(&id) {
            n.notify_one();
        }
    }

    fn start_timer(&self, id: i64) {
        let notify = {
            let mut timers = lock(&self.shared.timers);
            if timers.contains_key(&id) {
                return;
            }
            let n = Arc::new(Notify::new());
            timers.insert(id, Arc::clone(&n));
            n
        };
        let state = self.clone();
        tokio::spawn(async move {
            games::timer_task(state.clone(), id, notify).await;
            lock(&state.shared.timers).remove(&id);
        });
    }

    /// Records a failed log-in for each key; answers whether any key is over the limit.
    pub(crate) fn login_limited(&self, keys: &[String], now_ms: i64, record: bool) -> bool {
        let mut map = lock(&self.shared.login_failures);
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

    /// Starts the timers of every game still running (after a start or a restart).
    ///
    /// # Errors
    /// On a storage failure.
    pub async fn resume_games(&self) -> Result<usize, ApiError> {
        let live = ingo_store::server::live_games(&self.store, i64::MAX).await?;
        for g in &live {
            self.game(g.id).await?;
            bot::poke(self, g.id);
        }
        Ok(live.len())
    }
}

/// The whole application: every route over `state`.
pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(assets::routes())
        .merge(auth::routes())
        .merge(challenges::routes())
        .merge(games::routes())
        .merge(consult::routes())
        .merge(web::routes())
        .merge(bot::routes())
        .merge(engine::routes())
        .with_state(state)
}

/// Runs the server on `listener` until the process ends: resumes the running games' clocks,
/// starts the LISTEN/NOTIFY relay on PostgreSQL, then serves.
///
/// # Errors
/// On a storage failure at start, or when the listener fails.
pub async fn serve(listener: tokio::net::TcpListener, state: AppState) -> anyhow::Result<()> {
    if state.store.backend() == ingo_store::Backend::Postgres {
        relay::start(&state).await?;
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
