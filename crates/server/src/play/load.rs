//! Rebuilding a game from the store: its row, moves, players and sides, replayed into a
//! [`LiveGame`].

use ingo_rules::ByColor;
use ingo_store::server as db;
use ingo_store::Store;

use crate::domain::accounts::Program;
use crate::domain::error::GameError;
use crate::domain::live_game::{EventSeat, LiveGame};
use crate::domain::team::{Consensus, Player, Team, TeamKind};

/// How the sides of stored game `id` of kind `kind` agree: `any` for pair go (whose order is
/// the seats'), and for a consultation game stored without one (made before it was asked).
///
/// # Errors
/// On a storage failure or an unknown stored name.
pub async fn consensus_of(store: &Store, id: i64, kind: TeamKind) -> Result<Consensus, GameError> {
    if kind != TeamKind::Consultation {
        return Ok(Consensus::Any);
    }
    match ingo_store::consult::game_agreement(store, id).await? {
        None => Ok(Consensus::Any),
        Some(name) => Consensus::parse(&name)
            .ok_or_else(|| GameError::internal(format!("stored agreement {name:?}"))),
    }
}

/// Rebuilds game `id` from the store.
///
/// # Errors
/// Not found when there is no such game; internal on a storage failure or a game that does
/// not replay.
pub async fn load(store: &Store, id: i64) -> Result<LiveGame, GameError> {
    let row = db::game_by_id(store, id)
        .await?
        .ok_or_else(|| GameError::not_found("game"))?;
    let moves = db::moves_of(store, id).await?;
    let player = |id: i64| {
        let store = store.clone();
        async move {
            let u = db::user_by_id(&store, id)
                .await?
                .ok_or_else(|| GameError::internal(format!("user {id} of a game vanished")))?;
            let program = match ingo_store::programs::program_of(&store, id).await? {
                None => None,
                Some(p) => Some(
                    Program::of_stored(&p.kind, p.playouts, p.engine.as_deref()).ok_or_else(
                        || GameError::internal(format!("stored program {:?} of user {id}", p.kind)),
                    )?,
                ),
            };
            Ok::<_, GameError>(Player {
                id: u.id,
                name: u.name,
                rank: u.rank,
                program,
            })
        }
    };
    let players = ByColor {
        black: player(row.black).await?,
        white: player(row.white).await?,
    };
    let team = match db::game_team(store, id).await? {
        None => None,
        Some((kind, rows)) => {
            let kind = TeamKind::parse(&kind)
                .ok_or_else(|| GameError::internal(format!("stored team kind {kind:?}")))?;
            let mut members: ByColor<Vec<Player>> = ByColor::default();
            for m in rows {
                let color = match m.color.as_str() {
                    "B" => ingo_rules::Color::Black,
                    "W" => ingo_rules::Color::White,
                    other => return Err(GameError::internal(format!("stored colour {other:?}"))),
                };
                members.get_mut(color).push(player(m.user_id).await?);
            }
            if members.black.is_empty() || members.white.is_empty() {
                return Err(GameError::internal(format!(
                    "team game {id} has an empty side"
                )));
            }
            let consensus = consensus_of(store, id, kind).await?;
            Some(Team {
                kind,
                members,
                consensus,
            })
        }
    };
    let event = ingo_store::tournament::online::event_game(store, id)
        .await?
        .map(|e| EventSeat {
            event_id: e.event_id,
            round: e.round as u32,
            board: e.board as u32,
            late: ByColor {
                black: std::time::Duration::from_millis(e.late_black_ms.max(0) as u64),
                white: std::time::Duration::from_millis(e.late_white_ms.max(0) as u64),
            },
        });
    // What is stored does not replay: a broken invariant, which no retry mends.
    let mut live = LiveGame::replay_in_event(row, moves, players, team, event)
        .map_err(|e| GameError::damaged(id, &e.message))?;
    live.set_undo_request(db::undo_request(store, id).await?);
    Ok(live)
}
