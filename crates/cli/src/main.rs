//! `ingo`: Ing's rules of Go as a command-line tool. The binary is thin: it parses arguments,
//! calls the libraries, and maps errors to exit codes.

use std::io;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use ingo_rules::{KoRule, Komi, Preset, Rules, SuicideRule};

mod gtp;
mod records;
mod report;

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
    Gtp(GtpArgs),
}

/// Rule selection shared by the subcommands.
#[derive(Args, Clone)]
struct RuleArgs {
    /// Rules preset: ing, katago-ing, chinese, tromp-taylor, japanese.
    #[arg(long, default_value = "ing")]
    rules: Preset,
    /// Override the ko rule: ing, simple, positional, situational.
    #[arg(long)]
    ko: Option<KoRule>,
    /// Override the suicide rule: none, block, all.
    #[arg(long)]
    suicide: Option<SuicideRule>,
    /// Override the komi (an integer or half-integer).
    #[arg(long, allow_hyphen_values = true)]
    komi: Option<Komi>,
}

impl RuleArgs {
    fn rules(&self) -> Rules {
        let mut r = self.rules.rules();
        if let Some(ko) = self.ko {
            r.ko = ko;
        }
        if let Some(s) = self.suicide {
            r.suicide = s;
        }
        if let Some(k) = self.komi {
            r.komi = k;
        }
        r
    }
}

#[derive(Args)]
struct GtpArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// Board size of the first game (2 to 25).
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(2..=25))]
    size: u8,
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Cmd::Gtp(args) => {
            let mut front = gtp::GtpFront::new(args.size as usize, args.rules.rules())?;
            let stdin = io::stdin();
            gtp::run(&mut front, stdin.lock(), io::stdout().lock())?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("ingo: {e:#}");
            ExitCode::from(2)
        }
    }
}
