//! `ingo`: Ing's rules of Go as a command-line tool. The binary is thin: it parses arguments,
//! calls the libraries, and maps errors to exit codes.
//!
//! One module per command, each with its arguments (`XArgs`, a clap `Args`) and its entry
//! `run(XArgs) -> anyhow::Result<ExitCode>`; this file only parses and dispatches. The
//! benchmarks are a crate of their own, `ingo-bench` (`crates/bench`), not part of the binary.

use std::io;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod errors;
mod gtp;
mod handicap;
mod judge;
mod matches;
mod pictures;
mod records;
mod render;
mod report;
mod rule_args;
mod score;
mod serve;
mod tournament;
mod verify;

pub use rule_args::RuleArgs;

/// Ing's counting rules of Go (應氏計點制): a GTP engine and tools to judge and referee games.
#[derive(Parser)]
#[command(name = "ingo", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Speak GTP v2 on standard input and output (for GoGui, Sabaki, referees, engines).
    Gtp(gtp::GtpArgs),
    /// Replay game records under Ing's rules: report the first illegal move, the phase and the count.
    ///
    /// Exit code 0 when every file was judged cleanly, 1 when some record has an illegal move, 2
    /// when some file could not be read (or holds no game tree, or a folder holds no record).
    /// Verdicts (or JSON) go to standard output, warnings and errors to standard error. A record
    /// cut off before its end is judged as far as it goes and called INCOMPLETE. Files are
    /// limited to 16 MiB, 20,000 games and 2,000,000 nodes; raise the limits with the
    /// environment variables INGO_SGF_MAX_BYTES, INGO_SGF_MAX_GAMES and INGO_SGF_MAX_NODES.
    Judge(judge::JudgeArgs),
    /// The fill-in count of a record's final position, as a referee reads it off the board.
    Score(score::ScoreArgs),
    /// Draw a position of a record as SVG or PNG: coordinates, stones, last move, move numbers.
    Render(render::RenderArgs),
    /// Run games between two GTP engines with an enforced clock; the referee judges every move
    /// and counts every game itself.
    Match(Box<matches::MatchArgs>),
    /// The handicap between two ranks (9p/1品, 5d/5段, 2k/2級, 級外): White's passes, komi and
    /// who wins a tie.
    ///
    /// Professional ranks: `Np` is the professional dan, counted upwards (9p is the strongest),
    /// and `N品` is Ing's own scale, counted downwards (1品 is the strongest): 9p = 1品, 1p = 9品.
    /// A game between different ranks is a handicap game (有差賽) even when the handicap is
    /// compensation points alone, and its tie goes to White; an even game's tie goes to Black.
    Handicap(handicap::HandicapArgs),
    /// Run the play server: games under Ing's rules over HTTP and WebSocket, on an SQLite file
    /// (created on first start) or PostgreSQL.
    Serve(serve::ServeArgs),
    /// Tournaments under Ing's competition rules: agreement, entrants, pairing, results,
    /// standings with A1/A2/B1/B2, crosstables, exports, and engine events run to the end.
    Tournament(tournament::TournamentArgs),
}

/// Runs one command; its exit code, or an error that `main` reports with exit code 2.
fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Cmd::Gtp(args) => gtp::run(args),
        Cmd::Judge(args) => judge::run(args),
        Cmd::Score(args) => score::run(args),
        Cmd::Render(args) => render::run(args),
        Cmd::Match(args) => matches::run(*args),
        Cmd::Handicap(args) => handicap::run(args),
        Cmd::Serve(args) => serve::run(args),
        Cmd::Tournament(args) => {
            tournament::run(args)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        // A reader that stops early (`ingo judge DIR | head`) is not an error.
        Err(e)
            if e.downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ingo: {}", errors::describe(&e));
            ExitCode::from(2)
        }
    }
}
