//! The play server's tables (migration `0200_server.sql`): accounts, sessions, challenges,
//! games and moves, and (migration `0201_pair.sql`) the teams of pair and consultation games and
//! every game's chat. One module per group of tables (`accounts`: accounts and sessions,
//! `challenges`, `games`: games and moves, `teams`, `chat`); everything public is re-exported
//! here, so callers name `ingo_store::server::…` whatever module holds it. Every query is a
//! constant string with `$n` parameters.

use crate::{Backend, Store};

/// SQLite allows one writer at a time; a second one waits in SQLite's busy handler, which
/// sleeps in steps of up to 100 ms. Writes from this process are queued here instead, so
/// they follow one another at once, and go through [`Store::writes`], one connection. (One
/// process per SQLite file; several servers use PostgreSQL.)
static SQLITE_WRITER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

pub(crate) async fn writer(store: &Store) -> Option<tokio::sync::MutexGuard<'static, ()>> {
    match store.backend() {
        Backend::Sqlite => Some(SQLITE_WRITER.lock().await),
        Backend::Postgres => None,
    }
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .is_some_and(|d| d.is_unique_violation())
}

/// The columns of a game, as a literal so that queries stay compile-time constants.
macro_rules! game_columns {
    () => {
        "id, black, white, size, preset, komi_halves, handicap_passes, time_control, status, \
         dead_proposal, accepted_black, accepted_white, result, end_reason, dead, penalty_black, \
         penalty_white, started_ms, ended_ms, version, dead_checks"
    };
}

mod accounts;
mod challenges;
mod chat;
mod games;
mod teams;
mod undo;

pub use accounts::{
    create_session, create_session_from, create_user, create_user_keyed, delete_expired_sessions,
    delete_session, delete_session_of, delete_sessions_of, holding_count, insert_within,
    name_key_taken, session, session_seen, sessions_of, set_name_key, set_password_hash,
    set_user_rank, touch_session, user_by_id, user_by_name, users_without_name_key, Holding,
    HoldingLimit, NewHolding, OverLimit, SessionFound, SessionRow, UserRow, SESSION_ID_DIGITS,
};
use challenges::insert_challenge;
pub use challenges::{
    accept_challenge, challenge_by_id, close_challenge, create_challenge, open_challenges,
    ChallengeRow,
};
pub use chat::{add_chat, chat_of, ChatRow};
pub use games::{
    append_moves, create_game, finished_games_of, game_by_id, insert_game_in, insert_team_in,
    live_games, live_games_of, moves_of, Appended, GameRow, GameState, MoveRow,
};
use games::{game, insert_game, start_game};
pub use teams::{
    accept_seat, challenge_team, create_team_challenge, create_team_game, finished_team_games_of,
    game_team, start_team_game, MemberRow, SeatRow,
};
use teams::{insert_team, insert_team_challenge};
pub use undo::{clear_undo, request_undo, take_back, undo_request, UndoRequest};
