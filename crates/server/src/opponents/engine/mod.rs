//! GTP engines the operator configures (GNU Go, KataGo, `ingo gtp`…) as opponents, refereed
//! exactly like people: an engine's move goes through the same [`crate::play::submit::play_move`]
//! (rules, clock, commit) as a person's.
//!
//! * **Accounts.** Each configured engine plays as the account `ingo-engine-NAME` (the prefix
//!   is reserved at registration, like the built-in player's `ingo-bot-`), made on first use
//!   with no usable password and the configured rank. `GET /api/engines` lists the engines,
//!   `POST /api/games/engine` starts a game against one.
//! * **Processes.** The server starts the engine when it first has to act in a game (one
//!   process per game and side, at most `max_games` per engine at once, also the limit on new
//!   games) and drives it through the referee's own session (`ingo_referee::GtpSession`, the
//!   one `ingo match` uses): `boardsize`, `clear_board`, `ingo-rules PRESET` when the engine
//!   knows that command (GTP itself has no way to name Ing's rules), `komi` (with the half-point
//!   fallback), `time_settings` (and `kgs-time_settings` when known, then `time_left` follows
//!   KGS), then every move of the game with `play` (White's handicap passes as `play w pass`, as
//!   `ingo match` does). Before each of its moves it gets `time_left`, then `genmove` with a
//!   timeout of its clock's deadline plus [`crate::config::GRACE`], at most its `move_timeout`. The process is
//!   stopped when the game ends (checked after every action and every second), and with the
//!   server (the parent-death signal of `ingo_gtp::Engine`; `ingo serve` kills every engine
//!   on SIGTERM or SIGINT).
//! * **Restarts.** Nothing of a process is stored: after a restart (or on another server) a
//!   new process is told the game's moves from the start. When the moves the engine knows are no
//!   longer a prefix of the game's (another server moved first), it is told `clear_board` and
//!   every move again.
//! * **Faults**, read by the referee's one classification (`ingo_referee::classify`), with its
//!   default policy (`ingo_referee::FailurePolicy`: the engine loses): a crash (`engine-crash`, `B+F`), no answer in time
//!   (`engine-timeout`, a loss on time `B+T`; when the clock's own deadline passes first, the
//!   server's timer ends the game as for a person, reason `time`), an answer that is not a
//!   vertex or not GTP, or `? failure` to `genmove` (`engine-garbage`, `B+F`), an illegal move or
//!   a refused `play` of a legal one (`engine-illegal-move`, `B+F`), and an engine that cannot
//!   be started or refuses `boardsize` (`engine-unavailable`, `B+F`). A command the server
//!   cannot write as one GTP line is its own mistake, not the engine's (nothing was sent): an
//!   internal error, the game goes on and a fresh process is told it next time. The detail
//!   goes to the server's log. An engine never panics the server.
//! * **Dead stones.** At a suspension the engine is asked `final_status_list dead`. When it
//!   names the stones that stand proposed, or gives no usable answer, it accepts the proposal.
//!   When it disagrees and it is its turn, it resumes play (the referee's way with a dispute:
//!   life and death proved on the board, four passes ending the game with every stone alive);
//!   when it is the person's turn, it proposes its own list, which the person accepts, or
//!   answers by proposing again or resuming play. Once play has been suspended, an engine that
//!   knows `kgs-genmove_cleanup` is asked with it, so that it captures the stones it calls dead.
//! * **Clock.** An engine's clock is a person's: it runs from the opponent's committed move,
//!   so starting the process and telling it the moves count against it.
//! * **Several servers** on one database may each drive the same engine game (each after its
//!   own commits, and all at a start): the move number makes one answer count, and the others'
//!   processes are told the game again at their next turn.
//! * The account's rank follows the configuration: a changed rank is written to the account
//!   when the engine is next asked for a game.

mod drive;
mod fault;
mod job;
mod pool;
mod session;

pub use drive::act;
pub use pool::Engines;
