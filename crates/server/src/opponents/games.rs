//! New games against a program: the built-in player at a search budget, or a configured
//! engine, with the same settings and colours as a challenge (`crate::domain::settings`).

use ingo_clock::TimeControl;
use ingo_store::new_id;
use ingo_store::server::{self as db, GameRow, GameState, UserRow};
use serde::Serialize;

use crate::domain::accounts::{bot_account, Program};
use crate::domain::error::GameError;
use crate::domain::levels;
use crate::domain::settings::{self, ColorChoice, Colors};
use crate::play::accounts::machine_account;
use crate::play::live::game;
use crate::AppState;

/// What a person asks for against a program.
#[derive(Clone, Debug)]
pub struct Request {
    /// Board size.
    pub size: i64,
    /// The rules preset.
    pub rules: String,
    /// The person's colour: `black`, `white`, `nigiri` or `ranks` (Ing's handicap from the
    /// person's rank and the program's).
    pub color: String,
    /// The time control (the server's default when `None`).
    pub time_control: Option<String>,
}

/// A game made against the built-in player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BotGame {
    /// The game.
    pub game_id: i64,
    /// Black's user id.
    pub black: i64,
    /// White's user id.
    pub white: i64,
    /// The built-in player's account.
    pub bot: String,
}

/// A game made against an engine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EngineGame {
    /// The game.
    pub game_id: i64,
    /// Black's user id.
    pub black: i64,
    /// White's user id.
    pub white: i64,
    /// The engine's name.
    pub engine: String,
    /// Its account.
    pub account: String,
}

/// A configured engine, as `GET /api/engines` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EngineView {
    /// Its name.
    pub name: String,
    /// Its account.
    pub account: String,
    /// Its rank.
    pub rank: String,
    /// The most games it plays at once.
    pub max_games: usize,
    /// The games it plays now.
    pub games: usize,
    /// Its processes running now in this server.
    pub processes: usize,
}

/// A new game's row: `seats` is (Black, White).
fn game_row(
    seats: (i64, i64),
    size: i64,
    preset: &str,
    colors: Colors,
    tc: &TimeControl,
    now: i64,
) -> GameRow {
    GameRow {
        id: new_id(),
        black: seats.0,
        white: seats.1,
        size,
        preset: preset.into(),
        komi_halves: colors.komi_halves,
        handicap_passes: colors.handicap_passes,
        time_control: tc.to_string(),
        state: GameState::playing(),
        started_ms: now,
        version: 0,
    }
}

/// A game of `person` against the built-in player at `playouts` per move.
///
/// # Errors
/// Refused for a bad size, strength, colour or time control; a conflict when `person` plays
/// their most games against the built-in player already; internal on a storage failure.
pub async fn bot_game(
    state: &AppState,
    person: &UserRow,
    playouts: u64,
    req: &Request,
) -> Result<BotGame, GameError> {
    settings::check_size(req.size)?;
    if !(10..=100_000).contains(&playouts) {
        return Err(GameError::unprocessable(
            "bad-strength",
            "playouts is 10 to 100000 per move.",
        ));
    }
    let tc = settings::time_control(
        req.time_control.as_deref(),
        &state.config.default_time_control,
    )?;
    let choice = ColorChoice::parse(&req.color).ok_or_else(|| {
        GameError::unprocessable("bad-color", "color is black, white, nigiri or ranks.")
    })?;
    // The rank measured for its strength (crate::domain::levels), which Ing's handicap by
    // ranks (`color: ranks`) weighs against the person's.
    let bot_rank = levels::rank_for(playouts);
    let bot = machine_account(
        &state.play,
        &bot_account(playouts),
        &bot_rank.to_string(),
        &Program::Builtin { playouts },
    )
    .await?;
    let person_rank = settings::stored_rank(&person.rank);
    let even = i64::from(ingo_rules::Rules::ing().komi.halves());
    let c = settings::colors(choice, even, &[person_rank], &[bot_rank], new_id() as u64);
    let (black, white) = if c.asker_black {
        (person.id, bot.id)
    } else {
        (bot.id, person.id)
    };
    let row = game_row((black, white), req.size, "ing", c, &tc, state.now_ms());
    {
        let _one_at_a_time = state.program_games_lock().await;
        let max = state.config.max_bot_games_per_user;
        // Counted in the transaction that stores the game (several servers, one database).
        let limit = [db::HoldingLimit {
            account: person.id,
            holding: db::Holding::GamesAgainst("builtin"),
            max,
        }];
        if let Err(over) =
            db::insert_within(&state.store, &limit, db::NewHolding::Game(&row)).await?
        {
            let playing = over.held;
            return Err(GameError::conflict(
                "too-many-bot-games",
                format!(
                    "You play {playing} game(s) against the built-in player, the most one may \
                     play at once ({max}); finish or resign one first."
                ),
            ));
        }
    }
    game(&state.play, row.id).await?;
    state.play.changed(row.id);
    Ok(BotGame {
        game_id: row.id,
        black,
        white,
        bot: bot.name,
    })
}

/// A game of `person` against the engine named `engine`.
///
/// # Errors
/// Not found for an unknown engine; refused for bad settings; a conflict when the engine plays
/// its most games at once or `person` their most against the engines; internal on a storage
/// failure.
pub async fn engine_game(
    state: &AppState,
    person: &UserRow,
    engine: &str,
    req: &Request,
) -> Result<EngineGame, GameError> {
    let config = state
        .engines()
        .config(engine)
        .cloned()
        .ok_or_else(|| GameError::not_found("engine"))?;
    settings::check_size(req.size)?;
    let preset = settings::parse_preset(&req.rules)?;
    let tc = settings::time_control(
        req.time_control.as_deref(),
        &state.config.default_time_control,
    )?;
    let person_rank = settings::stored_rank(&person.rank);
    let even_komi = i64::from(preset.rules().komi.halves());
    let choice = ColorChoice::parse(&req.color).ok_or_else(|| {
        GameError::unprocessable("bad-color", "color is black, white, nigiri or ranks.")
    })?;
    let c = settings::colors(
        choice,
        even_komi,
        &[person_rank],
        &[config.rank],
        new_id() as u64,
    );
    let program = Program::Engine {
        name: config.name.clone(),
    };
    let account = machine_account(
        &state.play,
        &config.account(),
        &config.rank.to_string(),
        &program,
    )
    .await?;
    let (black, white) = if c.asker_black {
        (person.id, account.id)
    } else {
        (account.id, person.id)
    };
    let row = game_row(
        (black, white),
        req.size,
        preset.name(),
        c,
        &tc,
        state.now_ms(),
    );
    {
        let _per_user = state.program_games_lock().await;
        // The engine's own limit first (it says when to try again), then the person's.
        let _one_at_a_time = state.engines().creating().await;
        let max = state.config.max_engine_games_per_user;
        // Counted in the transaction that stores the game (several servers, one database).
        let limits = [
            db::HoldingLimit {
                account: account.id,
                holding: db::Holding::Games,
                max: config.max_games,
            },
            db::HoldingLimit {
                account: person.id,
                holding: db::Holding::GamesAgainst("engine"),
                max,
            },
        ];
        match db::insert_within(&state.store, &limits, db::NewHolding::Game(&row)).await? {
            Ok(()) => {}
            Err(db::OverLimit { which: 0, held }) => {
                return Err(GameError::conflict(
                    "engine-busy",
                    format!(
                        "{} plays {held} game(s) already, its most at once; try again later.",
                        config.name
                    ),
                ));
            }
            Err(db::OverLimit { held: mine, .. }) => {
                return Err(GameError::conflict(
                    "too-many-engine-games",
                    format!(
                        "You play {mine} game(s) against the engines, the most one may play at \
                         once ({max}); finish or resign one first."
                    ),
                ));
            }
        }
    }
    game(&state.play, row.id).await?;
    state.play.changed(row.id);
    Ok(EngineGame {
        game_id: row.id,
        black,
        white,
        engine: config.name,
        account: account.name,
    })
}

/// The configured engines, with the games they play now.
///
/// # Errors
/// On a storage failure.
pub async fn engines(state: &AppState) -> Result<Vec<EngineView>, GameError> {
    let live = db::live_games(&state.store, i64::MAX).await?;
    let mut out = Vec::new();
    for c in state.engines().configs() {
        let account = c.account();
        let games = match db::user_by_name(&state.store, &account).await? {
            Some(u) => live
                .iter()
                .filter(|g| g.black == u.id || g.white == u.id)
                .count(),
            None => 0,
        };
        out.push(EngineView {
            name: c.name.clone(),
            account,
            rank: c.rank.to_string(),
            max_games: c.max_games,
            games,
            processes: state.engines().processes(&c.name),
        });
    }
    Ok(out)
}

/// The account of the built-in player at `playouts` a move, for an event's director to enter
/// it (made on first use).
///
/// # Errors
/// 403 for anyone but a director; 422 for a strength out of range.
pub async fn builtin_account(
    play: &crate::play::hub::Play,
    director: bool,
    playouts: u64,
) -> Result<ingo_store::server::UserRow, GameError> {
    if !director {
        return Err(GameError::forbidden(
            "not-the-director",
            "Only the event's director (a server director) may do this.",
        ));
    }
    if !(10..=100_000).contains(&playouts) {
        return Err(GameError::unprocessable(
            "bad-strength",
            "playouts is 10 to 100000 per move.",
        ));
    }
    machine_account(
        play,
        &bot_account(playouts),
        "級外",
        &Program::Builtin { playouts },
    )
    .await
}

/// The account of the configured engine `name`, for an event's director to enter it.
///
/// # Errors
/// 403 for anyone but a director; 404 for an engine this server does not have.
pub async fn engine_account(
    state: &AppState,
    director: bool,
    name: &str,
) -> Result<ingo_store::server::UserRow, GameError> {
    if !director {
        return Err(GameError::forbidden(
            "not-the-director",
            "Only the event's director (a server director) may do this.",
        ));
    }
    let config = state
        .config
        .engines
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| GameError::not_found("engine"))?;
    machine_account(
        &state.play,
        &config.account(),
        &config.rank.to_string(),
        &Program::Engine {
            name: config.name.clone(),
        },
    )
    .await
}
