//! [`Play`]: what every game of this process shares: the store, the clock, the games in
//! memory (each behind its own lock), each game's subscribers, the timers' wake-ups, the
//! PostgreSQL relay, and the queue of committed changes the opponents read.
//!
//! [`Play::commit`] is the one place a game's change is written: the moves and the state in one
//! transaction, *then* the events published (here and, through the relay, in the other
//! servers) and the game queued for its opponents.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex as StdMutex};

use ingo_store::server::{self as db, Appended, MoveRow};
use ingo_store::Store;
use tokio::sync::{broadcast, mpsc, Mutex, Notify};

use crate::domain::error::GameError;
use crate::domain::live_game::LiveGame;
use crate::play::event::Broadcast;
use crate::play::relay::Relay;
use crate::wall::WallClock;

/// A game in memory, behind its lock.
pub type SharedGame = Arc<Mutex<LiveGame>>;

/// The games of this process and what they share (cheap to clone).
#[derive(Clone)]
pub struct Play {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    clock: WallClock,
    /// Games in memory; each behind its own lock, held across the commit of a move so that a
    /// game's moves are applied one at a time.
    games: StdMutex<HashMap<i64, SharedGame>>,
    /// One broadcast channel per game with subscribers.
    hubs: StdMutex<HashMap<i64, broadcast::Sender<Broadcast>>>,
    /// Wakes a game's timer task when its clock changes.
    timers: StdMutex<HashMap<i64, Arc<Notify>>>,
    /// This process's id, to skip its own NOTIFY messages.
    instance: i64,
    /// The NOTIFY sender, with PostgreSQL.
    relay: StdMutex<Option<Relay>>,
    /// The games changed by a commit, for their opponents.
    changed: mpsc::UnboundedSender<i64>,
    /// The games set aside because what is stored of them does not replay, with why.
    damaged: StdMutex<HashMap<i64, GameError>>,
    /// How long a person may go without a move against a program before being absent (ms;
    /// 0: never): [`crate::Config::program_absence_ms`].
    program_absence_ms: AtomicI64,
}

/// Locks one of the short locks of plain data.
pub fn lock<T>(m: &StdMutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic while holding one of these short locks leaves plain data behind; go on with it.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Play {
    /// The games over `store`, reading the time from `clock`, and the receiver of the ids of
    /// games changed by a commit (read by the opponents).
    pub fn new(store: Store, clock: WallClock) -> (Play, mpsc::UnboundedReceiver<i64>) {
        let (changed, rx) = mpsc::unbounded_channel();
        let play = Play {
            inner: Arc::new(Inner {
                store,
                clock,
                games: StdMutex::new(HashMap::new()),
                hubs: StdMutex::new(HashMap::new()),
                timers: StdMutex::new(HashMap::new()),
                instance: ingo_store::new_id(),
                relay: StdMutex::new(None),
                changed,
                damaged: StdMutex::new(HashMap::new()),
                program_absence_ms: AtomicI64::new(0),
            }),
        };
        (play, rx)
    }

    /// The database.
    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// Where this server reads the time.
    pub fn clock(&self) -> &WallClock {
        &self.inner.clock
    }

    /// The time, in ms since the Unix epoch, on this server's clock.
    pub fn now_ms(&self) -> i64 {
        self.inner.clock.now_ms()
    }

    /// How long a person may go without a move against a program (ms; 0: never).
    pub fn program_absence_ms(&self) -> i64 {
        self.inner.program_absence_ms.load(Ordering::Relaxed)
    }

    /// Sets how long a person may go without a move against a program (ms; 0: never).
    pub fn set_program_absence_ms(&self, ms: i64) {
        self.inner.program_absence_ms.store(ms, Ordering::Relaxed);
    }

    /// Whether other servers may change this process's games: with PostgreSQL several servers
    /// share one database, so a copy here may miss their latest change until notified.
    pub fn has_other_servers(&self) -> bool {
        self.inner.store.backend() == ingo_store::Backend::Postgres
    }

    /// This process's id among the servers of one database.
    pub fn instance(&self) -> i64 {
        self.inner.instance
    }

    /// The game `id` if it is in memory.
    pub fn cached(&self, id: i64) -> Option<SharedGame> {
        lock(&self.inner.games).get(&id).cloned()
    }

    /// Keeps `live` in memory, unless another copy got there first; the copy kept.
    pub fn keep(&self, id: i64, live: LiveGame) -> SharedGame {
        let mut map = lock(&self.inner.games);
        Arc::clone(map.entry(id).or_insert_with(|| Arc::new(Mutex::new(live))))
    }

    /// Sets game `id` aside (quarantine): what is stored of it does not replay. It is logged
    /// once, and every later request for it is answered `error` without reading the store.
    pub fn set_aside(&self, id: i64, error: &GameError) {
        let mut damaged = lock(&self.inner.damaged);
        if damaged.insert(id, error.clone()).is_none() {
            tracing::error!(game_id = id, "game set aside: {}", error.message);
        }
    }

    /// Why game `id` is set aside, if it is.
    pub fn damaged(&self, id: i64) -> Option<GameError> {
        lock(&self.inner.damaged).get(&id).cloned()
    }

    /// The games set aside, with why, by id.
    pub fn set_aside_games(&self) -> Vec<(i64, GameError)> {
        let mut v: Vec<_> = lock(&self.inner.damaged)
            .iter()
            .map(|(id, e)| (*id, e.clone()))
            .collect();
        v.sort_by_key(|(id, _)| *id);
        v
    }

    /// Keeps `live`, just read from the store, in memory in place of any copy there: a copy
    /// loaded at the same time by another task may have been read before the latest commit.
    pub fn replace(&self, id: i64, live: LiveGame) -> SharedGame {
        let shared = Arc::new(Mutex::new(live));
        lock(&self.inner.games).insert(id, Arc::clone(&shared));
        shared
    }

    /// Forgets the in-memory copy of a game (after a failed commit, or a move made by
    /// another server): the next access rebuilds it from the store.
    pub fn evict(&self, id: i64) {
        lock(&self.inner.games).remove(&id);
    }

    /// Marks `g`, a copy whose change was not committed, discarded ([`LiveGame::discard`]: a
    /// request waiting for its lock reads the store) and forgets it: the next access rebuilds
    /// the game from the store.
    pub fn discard(&self, g: &mut LiveGame) {
        g.discard();
        self.evict(g.id());
    }

    /// Forgets every in-memory copy (the other servers' notifications may have been lost) and
    /// wakes every timer, which then judge on what is committed; the ids of the games with
    /// subscribers here, to be told the game again.
    pub fn evict_all(&self) -> Vec<i64> {
        lock(&self.inner.games).clear();
        for n in lock(&self.inner.timers).values() {
            n.notify_one();
        }
        lock(&self.inner.hubs).keys().copied().collect()
    }

    /// A receiver of game `id`'s events.
    pub fn subscribe(&self, id: i64) -> broadcast::Receiver<Broadcast> {
        lock(&self.inner.hubs)
            .entry(id)
            .or_insert_with(|| broadcast::channel(1024).0)
            .subscribe()
    }

    /// Sends an event to this process's subscribers of game `id`.
    pub fn publish_local(&self, id: i64, event: Broadcast) {
        let mut hubs = lock(&self.inner.hubs);
        if let Some(tx) = hubs.get(&id) {
            if tx.send(event).is_err() {
                hubs.remove(&id);
            }
        }
    }

    /// Sends an event to every subscriber of game `id`, in this process and (with PostgreSQL)
    /// in the others.
    pub fn publish(&self, id: i64, event: Broadcast) {
        self.publish_all(id, &[event]);
    }

    /// Sends events of game `id`, in order, to every subscriber, in this process and (with
    /// PostgreSQL, in one notification) in the others.
    pub fn publish_all(&self, id: i64, events: &[Broadcast]) {
        for e in events {
            self.publish_local(id, e.clone());
        }
        let relay = lock(&self.inner.relay).clone();
        if let Some(relay) = relay {
            relay.send(self.inner.instance, id, events);
        }
    }

    /// Tells event `event_id`'s subscribers (its pages), here and on the other servers, that
    /// it changed.
    pub fn notify_event(&self, event_id: i64) {
        self.publish(
            crate::play::event::channel(event_id),
            crate::play::event::changed_event(event_id),
        );
    }

    /// Sends this process's events to the other servers through `relay` from now on.
    pub fn set_relay(&self, relay: Relay) {
        *lock(&self.inner.relay) = Some(relay);
    }

    /// Wakes the timer of game `id` (its clock changed).
    pub fn wake_timer(&self, id: i64) {
        if let Some(n) = lock(&self.inner.timers).get(&id) {
            n.notify_one();
        }
    }

    /// The wake-up of a new timer for game `id`; `None` when it has one.
    pub fn new_timer(&self, id: i64) -> Option<Arc<Notify>> {
        let mut timers = lock(&self.inner.timers);
        if timers.contains_key(&id) {
            return None;
        }
        let n = Arc::new(Notify::new());
        timers.insert(id, Arc::clone(&n));
        Some(n)
    }

    /// Forgets the timer of game `id` (its task has ended).
    pub fn end_timer(&self, id: i64) {
        lock(&self.inner.timers).remove(&id);
    }

    /// Tells the opponents that game `id` has changed (or, at a start, may be theirs to play).
    pub fn changed(&self, id: i64) {
        // The receiver lives as long as the server; with none, nobody waits for opponents.
        let _ = self.inner.changed.send(id);
    }

    /// Commits the game's new moves and state, then publishes `events` (to this process's
    /// subscribers and to the other servers), wakes the game's timer and tells its opponents.
    /// The commit is made on the copy's version ([`LiveGame::version`]) and only if the store
    /// still has it. On a conflict (another request or server committed a change first: this
    /// copy was stale) or a failure, nothing is published and the in-memory copy is marked
    /// discarded ([`LiveGame::discard`]: a request waiting for its lock reads the store) and
    /// dropped, so the next access rebuilds it from what is committed and the change is judged
    /// again.
    ///
    /// # Errors
    /// On a storage failure.
    pub async fn commit(
        &self,
        g: &mut LiveGame,
        new_moves: &[MoveRow],
        events: &[Broadcast],
    ) -> Result<Appended, GameError> {
        let id = g.id();
        match db::append_moves(self.store(), id, g.version(), new_moves, &g.state()).await {
            Ok(Appended::Committed) => {
                g.committed();
                self.publish_all(id, events);
                // An event's game that ended has entered its result into the event.
                if let Some(seat) = g.event() {
                    if g.phase() == ingo_rules::Phase::Ended {
                        self.notify_event(seat.event_id);
                    }
                }
                self.wake_timer(id);
                self.changed(id);
                Ok(Appended::Committed)
            }
            Ok(Appended::Conflict) => {
                self.discard(g);
                Ok(Appended::Conflict)
            }
            Err(e) => {
                self.discard(g);
                Err(e.into())
            }
        }
    }
}
