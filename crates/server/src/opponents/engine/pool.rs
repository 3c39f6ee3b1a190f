//! The engine processes of a server: one [`Driver`] for each side of a game an engine plays,
//! at most `max_games` processes an engine, and a reaper for the games that end unseen.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Duration;

use ingo_rules::{Color, Phase};
use tokio::sync::{Mutex, Semaphore};

use super::session::Session;
use crate::config::EngineConfig;
use crate::play::hub::lock;
use crate::play::live::game;
use crate::AppState;

/// The side of each game's engine: game id and colour.
pub(super) type DriverKey = (i64, Color);

/// One side of one game that an engine plays: its engine process, while it runs.
#[derive(Default)]
pub(super) struct Driver {
    pub(super) session: Option<Session>,
}

/// The engines of a server: their settings, and the processes running (see the module docs).
pub struct Engines {
    configs: Vec<EngineConfig>,
    pub(super) permits: HashMap<String, Arc<Semaphore>>,
    drivers: StdMutex<HashMap<DriverKey, Arc<Mutex<Driver>>>>,
    /// Held while a new game is counted against `max_games` and made.
    creating: Mutex<()>,
    reaper: AtomicBool,
}

impl Engines {
    /// The engines of `configs`, none running.
    pub fn new(configs: &[EngineConfig]) -> Engines {
        Engines {
            configs: configs.to_vec(),
            permits: configs
                .iter()
                .map(|c| (c.name.clone(), Arc::new(Semaphore::new(c.max_games))))
                .collect(),
            drivers: StdMutex::new(HashMap::new()),
            creating: Mutex::new(()),
            reaper: AtomicBool::new(false),
        }
    }

    /// Every engine's settings.
    pub fn configs(&self) -> &[EngineConfig] {
        &self.configs
    }

    /// Held while a new game is counted against `max_games` and made.
    pub async fn creating(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.creating.lock().await
    }

    /// The settings of engine `name`.
    pub fn config(&self, name: &str) -> Option<&EngineConfig> {
        self.configs.iter().find(|c| c.name == name)
    }

    /// How many processes of engine `name` run now.
    pub fn processes(&self, name: &str) -> usize {
        match (self.config(name), self.permits.get(name)) {
            (Some(c), Some(p)) => c.max_games.saturating_sub(p.available_permits()),
            _ => 0,
        }
    }

    pub(super) fn driver(&self, id: i64, color: Color) -> Arc<Mutex<Driver>> {
        Arc::clone(lock(&self.drivers).entry((id, color)).or_default())
    }

    /// Stops the process of a side whose game has ended, and forgets the side.
    pub(super) fn close(&self, id: i64, color: Color, driver: &mut Driver) {
        lock(&self.drivers).remove(&(id, color));
        if let Some(s) = driver.session.take() {
            stop(s);
        }
    }
}

/// Stops a process politely (`quit`), then for sure (dropping an `Engine` kills it), off the
/// async threads.
fn stop(s: Session) {
    tokio::task::spawn_blocking(move || {
        if s.gtp.engine().closed().is_none() {
            let _ = s.gtp.into_engine().quit(Duration::from_secs(1));
        }
    });
}

/// Stops the processes of ended games, every second, for endings no action of this module saw
/// (a loss on time found by the game's timer).
pub(super) fn start_reaper(state: &AppState) {
    if state.engines().reaper.swap(true, Ordering::SeqCst) {
        return;
    }
    let state = state.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(1)).await;
            let drivers: Vec<(DriverKey, Arc<Mutex<Driver>>)> = lock(&state.engines().drivers)
                .iter()
                .map(|(k, v)| (*k, Arc::clone(v)))
                .collect();
            for ((id, color), driver) in drivers {
                // A busy driver is acting: it sees the end itself.
                let Ok(mut driver) = driver.try_lock() else {
                    continue;
                };
                let ended = match game(&state.play, id).await {
                    Ok(g) => g.lock().await.phase() == Phase::Ended,
                    Err(_) => true,
                };
                if ended {
                    state.engines().close(id, color, &mut driver);
                }
            }
        }
    });
}
