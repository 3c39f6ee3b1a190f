//! Changing a game: a move (parse → check who may move → `Game::play` through
//! [`LiveGame::play`] → commit → *then* acknowledge and publish), and the changes that add no
//! move (resignation, the dead-stone steps, an engine's failure).
//!
//! A game's lock is held from the judgement to the commit, so that its moves are stored in the
//! order they were judged; other games do not wait for it (each game has its own lock).

use ingo_rules::Phase;
use ingo_store::server::{Appended, MoveRow};
use serde::Serialize;

use crate::domain::error::{ErrorKind, GameError};
use crate::domain::live_game::LiveGame;
use crate::play::event::{change_events, state_event, Broadcast};
use crate::play::hub::{Play, SharedGame};
use crate::play::live::{fresh, game};
use crate::play::view::{self, Both, GameView};

/// The answer to an acknowledged move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ack {
    /// The move's number.
    pub number: i64,
    /// The move as stored.
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// Whether it was stored already (a retried request).
    pub duplicate: bool,
    /// The stones it removed.
    pub removed: Vec<String>,
    /// The stones each side has captured now.
    pub captures: Both<usize>,
    /// Moves in the game now.
    pub move_count: usize,
    /// Who moves next.
    pub to_move: String,
    /// The phase now.
    pub phase: &'static str,
    /// The result, once ended.
    pub result: Option<String>,
}

fn ack(g: &LiveGame, number: i64, duplicate: bool) -> Ack {
    Ack {
        number,
        mv: usize::try_from(number - 1)
            .ok()
            .and_then(|i| g.moves().get(i))
            .map(|m| m.mv.clone()),
        duplicate,
        removed: view::removed(g, number),
        captures: (&g.captures()).into(),
        move_count: g.moves().len(),
        to_move: view::letter(g.to_move()),
        phase: g.phase().as_str(),
        result: g.state().result.clone(),
    }
}

/// The copy of game `id` a change is judged on: the one in memory at the first attempt, and
/// after a conflict one read afresh from the store.
async fn judged_copy(play: &Play, id: i64, attempt: usize) -> Result<SharedGame, GameError> {
    if attempt == 0 {
        game(play, id).await
    } else {
        fresh(play, id).await
    }
}

/// A copy of a game locked for a change. Once [`Judging::changing`] is called the change may
/// alter the copy before its commit; unless [`Judging::committed`] follows, the copy is marked
/// discarded ([`LiveGame::discard`]) and taken out of memory when this is dropped, before the
/// lock is released: a failed or conflicting commit, an error found after the copy changed,
/// or the request dropped or panicking in the middle of its commit. A copy that holds an
/// uncommitted change must not be judged on or answered from: a request that waited for its
/// lock would answer a move sent again "already stored" though nobody stored it.
pub(crate) struct Judging<'a> {
    g: tokio::sync::MutexGuard<'a, LiveGame>,
    play: &'a Play,
    changing: bool,
}

impl<'a> Judging<'a> {
    /// The game's copy `shared`, locked, unless a request that held it before discarded it
    /// (`None`: the change is then judged on a copy read from the store).
    pub(crate) async fn lock(play: &'a Play, shared: &'a SharedGame) -> Option<Judging<'a>> {
        let g = shared.lock().await;
        (!g.is_discarded()).then_some(Judging {
            g,
            play,
            changing: false,
        })
    }

    /// The change is about to alter the copy.
    pub(crate) fn changing(&mut self) {
        self.changing = true;
    }

    /// The change was committed (or changed nothing): the copy is what is stored.
    pub(crate) fn committed(&mut self) {
        self.changing = false;
    }

    /// Commits the change ([`Play::commit`]) and, when it is stored, says so
    /// ([`Judging::committed`]); on a conflict the copy stays marked for discarding.
    ///
    /// # Errors
    /// On a storage failure.
    pub(crate) async fn commit_change(
        &mut self,
        new_moves: &[MoveRow],
        events: &[Broadcast],
    ) -> Result<Appended, GameError> {
        let done = self.play.commit(&mut self.g, new_moves, events).await?;
        if done == Appended::Committed {
            self.committed();
        }
        Ok(done)
    }
}

impl std::ops::Deref for Judging<'_> {
    type Target = LiveGame;
    fn deref(&self) -> &LiveGame {
        &self.g
    }
}

impl std::ops::DerefMut for Judging<'_> {
    fn deref_mut(&mut self) -> &mut LiveGame {
        &mut self.g
    }
}

impl Drop for Judging<'_> {
    fn drop(&mut self) {
        if self.changing {
            self.play.discard(&mut self.g);
        }
    }
}

/// Plays a move for `user_id` in game `id`, commits it, publishes it; the acknowledgement.
///
/// # Errors
/// As [`LiveGame::play`], and internal on a storage failure.
pub async fn play_move(
    play: &Play,
    user_id: i64,
    id: i64,
    mv: &str,
    number: Option<i64>,
) -> Result<Ack, GameError> {
    // Twice at most: a conflict means another request or server committed a change first; the
    // game is then rebuilt from the store and the request judged again.
    for attempt in 0..2 {
        let shared = judged_copy(play, id, attempt).await?;
        let Some(mut g) = Judging::lock(play, &shared).await else {
            continue;
        };
        if let Some(n) = number {
            // The same request again: answer what was stored, apply nothing.
            if let Some(m) = g.moves().get((n - 1).max(0) as usize) {
                let mine = g.color_of(user_id).map(view::letter);
                if n >= 1 && Some(&m.color) == mine.as_ref() && m.mv.eq_ignore_ascii_case(mv.trim())
                {
                    return Ok(ack(&g, n, true));
                }
            }
        }
        let now = play.now_ms();
        g.changing();
        let applied = match g.play(user_id, mv, number, now) {
            Ok(a) => a,
            Err(e) => {
                if g.phase() == Phase::Ended && e.reason == "lost-on-time" {
                    // The loss on time found here is committed (and published) like any
                    // ending; when this copy was stale, the move is judged again on what is
                    // committed.
                    let event = state_event(&g, now);
                    if g.commit_change(&[], &[event]).await? == Appended::Conflict {
                        continue;
                    }
                }
                // Out of turn, a move number ahead of this copy, after the end: with several
                // servers on one database the copy may have missed the other servers' latest
                // change, so the move is judged again, once, on what is committed.
                if attempt == 0 && e.kind == ErrorKind::Conflict && play.has_other_servers() {
                    continue;
                }
                return Err(e);
            }
        };
        let events = change_events(&g, &applied.new_moves, now);
        match g.commit_change(&applied.new_moves, &events).await? {
            Appended::Committed => {
                let n = applied.new_moves.first().map_or(0, |m| m.move_number);
                return Ok(ack(&g, n, false));
            }
            Appended::Conflict => continue,
        }
    }
    Err(GameError::conflict(
        "stale-move-number",
        "Another move was stored first; look at the game again.",
    ))
}

/// Runs `f` on game `id` for a change that adds no move, commits and publishes the state; the
/// state after it. When the copy it was judged on was stale (another server changed the game
/// first), the game is read again from the store and `f` judged again on it, once.
///
/// # Errors
/// `f`'s, a conflict when the game changed again meanwhile, internal on a storage failure.
pub async fn change(
    play: &Play,
    id: i64,
    f: impl Fn(&mut LiveGame, i64) -> Result<(), GameError>,
) -> Result<GameView, GameError> {
    for attempt in 0..2 {
        let shared = judged_copy(play, id, attempt).await?;
        let Some(mut g) = Judging::lock(play, &shared).await else {
            continue;
        };
        let now = play.now_ms();
        g.changing();
        f(&mut g, now)?;
        let event = state_event(&g, now);
        if g.commit_change(&[], &[event]).await? == Appended::Committed {
            return Ok(view::game(&g, now));
        }
    }
    Err(GameError::conflict(
        "stale",
        "The game changed; look at it again.",
    ))
}
