//! The accounts programs play as (the built-in player, a configured engine).

use ingo_store::new_id;
use ingo_store::server::{self as db, UserRow};

use ingo_store::programs::ProgramRow;

use crate::domain::accounts::{fold_name, Program};
use crate::domain::error::GameError;
use crate::play::hub::Play;

/// The account `program` plays as, named `name`, made on first use with no usable password,
/// and the program recorded with it. An account that exists takes `rank` when it has another:
/// the operator may have changed an engine's rank, and the account shows the rank its games are
/// handicapped by.
///
/// # Errors
/// On a storage failure.
pub async fn machine_account(
    play: &Play,
    name: &str,
    rank: &str,
    program: &Program,
) -> Result<UserRow, GameError> {
    let u = account(play, name, rank).await?;
    let (playouts, engine) = match program {
        Program::Builtin { playouts } => (i64::try_from(*playouts).ok(), None),
        Program::Engine { name } => (None, Some(name.clone())),
    };
    ingo_store::programs::set_program(
        play.store(),
        &ProgramRow {
            user_id: u.id,
            kind: program.kind().to_owned(),
            playouts,
            engine,
        },
    )
    .await?;
    Ok(u)
}

async fn account(play: &Play, name: &str, rank: &str) -> Result<UserRow, GameError> {
    let store = play.store();
    if let Some(mut u) = db::user_by_name(store, name).await? {
        if u.rank != rank {
            db::set_user_rank(store, u.id, rank).await?;
            u.rank = rank.to_string();
        }
        return Ok(u);
    }
    let u = UserRow {
        id: new_id(),
        name: name.to_string(),
        // Not a PHC string: no password verifies against it.
        password_hash: "!".into(),
        rank: rank.to_string(),
        created_ms: play.now_ms(),
    };
    if db::create_user_keyed(store, &u, Some(&fold_name(name))).await? {
        return Ok(u);
    }
    // Made by another request meanwhile; or the folded name is a person's, registered before
    // names were compared folded: the program's account then goes without the key.
    if let Some(made) = db::user_by_name(store, name).await? {
        return Ok(made);
    }
    if db::create_user(store, &u).await? {
        return Ok(u);
    }
    db::user_by_name(store, name)
        .await?
        .ok_or_else(|| GameError::internal("program account vanished"))
}
