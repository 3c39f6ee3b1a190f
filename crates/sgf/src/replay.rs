//! Replaying a record's main line through [`Game`], the only legality authority.

use std::fmt;

use ingo_rules::{Color, Game, Move, Phase, PlayErrorKind, Rules, Setup};

use crate::error::{ErrorKind, SgfError};
use crate::record::{Record, RecordedMove, SetupEvent};

/// How refusals are handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ReplayMode {
    /// Stop at the first move the rules refuse.
    #[default]
    Strict,
    /// Accept board plays that only a ko rule refuses (docs/rules.md §9.12: records of games with
    /// mistaken hot-stone captures, 誤提), listing them in [`Replay::forced`]; stop at any other
    /// refusal (occupied, suicide, off the board, after the end).
    Tolerant,
}

/// A move of the record that the rules refuse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// Its number in the main line, from 1, counting every `B`/`W` (passes included) and no
    /// setup node.
    pub move_number: usize,
    /// The node of the main line holding it (0 = the root).
    pub node_number: usize,
    /// Who played it.
    pub color: Color,
    /// The move.
    pub mv: Move,
    /// The move in GTP notation (`J9`, `pass`; an off-board point keeps its SGF letters).
    pub point_gtp: String,
    /// Why the rules refuse it.
    pub reason: PlayErrorKind,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} ({} {}): {}",
            self.move_number,
            self.color.letter(),
            self.point_gtp,
            self.reason
        )
    }
}

/// A pass the replay added because the record has two moves in a row by one colour.
///
/// Records do this for handicap stones given as moves (`B`, `B`, `B`, then `W`), and when a pass
/// was left out. A pass by the other side is what Ing's rules make of it (讓手: handicap by White
/// passes, "B1, W pass, B3"); it is never forbidden and changes no stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InsertedPass {
    /// The number of the record move it was inserted before.
    pub before_move: usize,
    /// Who passes.
    pub color: Color,
}

/// The result of [`replay`].
#[derive(Clone, Debug)]
pub struct Replay {
    /// The game after the moves that were played. Its history also holds the inserted passes,
    /// so `game.move_count()` is `played + inserted_passes.len()`.
    pub game: Game,
    /// The move the replay stopped at, if it did not reach the end.
    pub illegal: Option<IllegalMove>,
    /// Moves accepted in [`ReplayMode::Tolerant`] although a ko rule refuses them, with that
    /// rule as the reason.
    pub forced: Vec<IllegalMove>,
    /// Passes added where the record has two moves in a row by one colour.
    pub inserted_passes: Vec<InsertedPass>,
    /// How many moves of the record were played.
    pub played: usize,
}

impl Replay {
    /// Whether every move was played and none had to be forced.
    pub fn is_clean(&self) -> bool {
        self.illegal.is_none() && self.forced.is_empty()
    }
}

/// Replays the main line of `record` under `rules`, from [`Record::setup`].
///
/// * A move by the colour not to move gets a pass by the other colour first
///   ([`InsertedPass`]); after the end of the game (four passes) it is refused as `game-over`.
/// * The record's time-penalty points ([`Record::penalties`]) are given to the game; values
///   outside `0..=`[`ingo_rules::MAX_PENALTY_POINTS`] are refused ([`ErrorKind::BadValue`]).
/// * A setup with a string that has no liberty is refused ([`ErrorKind::Setup`]).
/// * Setup inside the game that changes the board is refused with
///   [`ErrorKind::SetupInGame`]; setup that changes nothing, `PL` alone, and setup after the last
///   move (some programs clear dead stones with `AE` at the end) are ignored.
///
/// ```
/// use ingo_rules::{PlayErrorKind, Rules};
/// use ingo_sgf::{parse, replay, ReplayMode};
///
/// // T1 of docs/rules.md: Black takes the ko at C4, White retakes at B4 at once.
/// let text = "(;SZ[5]AB[ba][ab][bc]AW[ca][bb][db][cc]PL[B];B[cb];W[bb])";
/// let record = &parse(text)?[0];
/// let strict = replay(record, Rules::ing(), ReplayMode::Strict)?;
/// let illegal = strict.illegal.expect("refused");
/// assert_eq!((illegal.move_number, illegal.reason), (2, PlayErrorKind::HotStone));
///
/// let tolerant = replay(record, Rules::ing(), ReplayMode::Tolerant)?;
/// assert_eq!(tolerant.played, 2);
/// assert_eq!(tolerant.forced.len(), 1);
/// # Ok::<(), ingo_sgf::SgfError>(())
/// ```
///
/// # Errors
/// When the setup cannot be built, or setup inside the game changes the board.
pub fn replay(record: &Record, rules: Rules, mode: ReplayMode) -> Result<Replay, SgfError> {
    replay_moves(record, rules, mode, record.moves.len())
}

/// Like [`replay`], but plays only the first `count` moves of the main line (all of them when
/// `count` is larger): the position "before move `count + 1`", as GTP `loadsgf` asks for it.
///
/// # Errors
/// As [`replay`].
pub fn replay_moves(
    record: &Record,
    rules: Rules,
    mode: ReplayMode,
    count: usize,
) -> Result<Replay, SgfError> {
    replay_parts(
        record,
        record.setup()?,
        &record.setup_events,
        &record.moves,
        rules,
        mode,
        count,
    )
}

/// Replays the first `count` of `moves` from `setup`, checking `setup_events` inside the game: the
/// main line of `record` or one of its variations.
pub(crate) fn replay_parts(
    record: &Record,
    setup: Setup,
    setup_events: &[SetupEvent],
    moves: &[RecordedMove],
    rules: Rules,
    mode: ReplayMode,
    count: usize,
) -> Result<Replay, SgfError> {
    let count = count.min(moves.len());
    // A string with no liberty could never be captured: refused (SetupError says why).
    setup.check().map_err(ErrorKind::from)?;
    // Penalty points past the bound are a corrupt record, not a penalty.
    for (color, property) in [(Color::Black, "BP"), (Color::White, "WP")] {
        let points = *record.penalties.get(color);
        if !(0..=ingo_rules::MAX_PENALTY_POINTS).contains(&points) {
            return Err(ErrorKind::BadValue {
                node: 0,
                property: property.to_string(),
                value: points.to_string(),
            }
            .into());
        }
    }
    // The record's length is known: reserve that, not the two moves per point of a new game.
    let mut game = Game::with_room_for(setup, rules, count);
    game.set_penalties(record.penalties);
    let mut in_game = setup_events.iter().filter(|e| e.after_move > 0).peekable();
    let mut replay_state = ReplayState::default();
    for (i, rm) in moves.iter().take(count).enumerate() {
        while let Some(ev) = in_game.next_if(|e| e.after_move <= i) {
            if changes_board(&game, ev) {
                return Err(ErrorKind::SetupInGame {
                    node: ev.node_number,
                    after_move: ev.after_move,
                }
                .into());
            }
        }
        let number = i + 1;
        let refused = |reason| IllegalMove {
            move_number: number,
            node_number: rm.node_number,
            color: rm.color,
            mv: rm.mv,
            point_gtp: move_name(rm.mv, record.width, record.height),
            reason,
        };
        if rm.color != game.to_move() {
            if game.phase() == Phase::Ended {
                replay_state.illegal = Some(refused(PlayErrorKind::GameOver));
                break;
            }
            let color = game.to_move();
            if let Err(e) = game.play(Move::Pass) {
                replay_state.illegal = Some(refused(e.kind));
                break;
            }
            replay_state.inserted_passes.push(InsertedPass {
                before_move: number,
                color,
            });
        }
        let outcome = match mode {
            ReplayMode::Strict => game.play(rm.mv).map(|()| None),
            ReplayMode::Tolerant => game.play_tolerant(rm.mv),
        };
        match outcome {
            Ok(None) => replay_state.played += 1,
            Ok(Some(rule)) => {
                replay_state.played += 1;
                replay_state.forced.push(refused(rule));
            }
            Err(e) => {
                replay_state.illegal = Some(refused(e.kind));
                break;
            }
        }
    }
    let ReplayState {
        illegal,
        forced,
        inserted_passes,
        played,
    } = replay_state;
    Ok(Replay {
        game,
        illegal,
        forced,
        inserted_passes,
        played,
    })
}

#[derive(Default)]
struct ReplayState {
    illegal: Option<IllegalMove>,
    forced: Vec<IllegalMove>,
    inserted_passes: Vec<InsertedPass>,
    played: usize,
}

/// Whether applying `ev` would change the board of `game`.
fn changes_board(game: &Game, ev: &SetupEvent) -> bool {
    let board = game.board();
    ev.black
        .iter()
        .any(|&p| board.color_at(p) != Some(Color::Black))
        || ev
            .white
            .iter()
            .any(|&p| board.color_at(p) != Some(Color::White))
        || ev.empty.iter().any(|&p| board.color_at(p).is_some())
}

/// The GTP name of a move on a `width × height` board; a point off the board keeps its SGF name
/// (GTP cannot name it).
pub(crate) fn move_name(mv: Move, width: usize, height: usize) -> String {
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Play(p) if p.col() < width && p.row() < height => p.to_gtp(height),
        Move::Play(p) => p.to_sgf(),
    }
}

/// The first game of an SGF file, replayed: what [`replay_file`] gives.
#[derive(Debug)]
pub struct FileReplay {
    /// The record (its warnings, and [`Record::incomplete`] when the file was cut off).
    pub record: Record,
    /// The replay of its main line; [`Replay::illegal`] is always `None` here.
    pub replay: Replay,
}

/// Why [`replay_file`] gives no position.
#[derive(Debug, thiserror::Error)]
pub enum FileReplayError {
    /// The file could not be read or parsed (not a regular file, over a size limit, not SGF),
    /// or its setup is unusable.
    #[error(transparent)]
    Sgf(#[from] SgfError),
    /// The file holds no game.
    #[error("{0}: no game in the file")]
    NoGame(String),
    /// A move of the record is illegal under the rules.
    #[error("{path}: {illegal}")]
    Illegal {
        /// The file.
        path: String,
        /// The move and why.
        illegal: IllegalMove,
    },
}

/// The first game of the SGF file at `path`, read within the limits of the environment
/// ([`crate::ReadOptions::from_env`]; a path that is not a regular file, such as a FIFO, is
/// refused at once), and its first `count` moves (all of them when `None`) replayed strictly
/// under the rules `rules` gives for the record. The one reader of "the position of a record"
/// for `ingo score`, `ingo render` and GTP's `loadsgf`, which differ only in the rules they
/// choose and in how they count moves.
///
/// # Errors
/// When the file cannot be read, holds no game, or a move of the record is illegal.
pub fn replay_file(
    path: &std::path::Path,
    count: Option<usize>,
    rules: impl FnOnce(&Record) -> Rules,
) -> Result<FileReplay, FileReplayError> {
    let record = crate::parse_file_with(path, &crate::ReadOptions::from_env()?)?
        .into_iter()
        .next()
        .ok_or_else(|| FileReplayError::NoGame(path.display().to_string()))?;
    let count = count.unwrap_or(record.moves.len()).min(record.moves.len());
    let replay = replay_moves(&record, rules(&record), ReplayMode::Strict, count)?;
    if let Some(illegal) = replay.illegal.clone() {
        return Err(FileReplayError::Illegal {
            path: path.display().to_string(),
            illegal,
        });
    }
    Ok(FileReplay { record, replay })
}
