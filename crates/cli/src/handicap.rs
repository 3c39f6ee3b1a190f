//! `ingo handicap`: the handicap between two ranks under Ing's rules, and the nigiri of an even
//! game, as text or JSON.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Args;
use ingo_competition::{handicap, HandicapScale, Rank};
use ingo_rules::Rules;

/// Arguments of `ingo handicap`.
#[derive(Args)]
pub struct HandicapArgs {
    /// One player's rank: 9p (professional dan, = 1品) … 1p (= 9品), 1品 … 9品, 9d/9段 … 1d/初段,
    /// 1k/1級 … 9k/9級, 級外.
    a: Rank,
    /// The other player's rank.
    b: Rank,
    /// Print {"black", "white", "handicap_passes", "komi", "tie_winner", ...} as JSON.
    #[arg(long)]
    json: bool,
    /// Points from 1級 up to 初段 (an assumption of docs/rules.md: one 級 step).
    #[arg(long, default_value_t = 8)]
    kyu_to_dan: i32,
    /// Points from 9段 up to 9品 (an assumption of docs/rules.md: one 段 step).
    #[arg(long, default_value_t = 4)]
    dan_to_pro: i32,
    /// In an even game, draw the colours by nigiri from this seed: the first player named
    /// holds the stones, the second guesses (the same seed gives the same result).
    #[arg(long)]
    nigiri_seed: Option<u64>,
}

/// Prints the handicap of `args`.
///
/// # Errors
/// When standard output cannot be written.
pub fn run(args: HandicapArgs) -> anyhow::Result<ExitCode> {
    let scale = HandicapScale {
        kyu_to_dan: args.kyu_to_dan,
        dan_to_pro: args.dan_to_pro,
        ..HandicapScale::ing()
    };
    let h = handicap(args.a, args.b, &scale);
    // 猜先: the guesser (the second player named) takes Black when the guess is right.
    let drawn = args
        .nigiri_seed
        .filter(|_| h.nigiri)
        .map(ingo_competition::nigiri);
    let (black, white) = match drawn {
        Some(n) if n.guesser_takes_black => (args.b, args.a),
        _ => (h.black, h.white),
    };
    // The handicap decides who wins a tie, not the pass count (有差賽: White).
    let tie_winner = match h.tie_winner(&Rules::ing()) {
        ingo_rules::Color::Black => "black",
        ingo_rules::Color::White => "white",
    };
    let mut out = io::stdout().lock();
    if args.json {
        let komi = if h.komi.halves() % 2 == 0 {
            serde_json::json!(h.komi.halves() / 2)
        } else {
            serde_json::json!(h.komi.as_f64())
        };
        let mut v = serde_json::json!({
            "black": black.to_string(),
            "white": white.to_string(),
            "handicap_passes": h.handicap_passes,
            "komi": komi,
            "tie_winner": tie_winner,
            "nigiri": h.nigiri,
            "difference": h.difference,
            "explanation": h.explanation,
        });
        if let (Some(n), serde_json::Value::Object(map)) = (drawn, &mut v) {
            map.insert(
                "nigiri_draw".into(),
                serde_json::json!({
                    "handful": n.handful,
                    "guess": if n.guess == ingo_competition::Parity::Odd { "odd" } else { "even" },
                    "guesser_takes_black": n.guesser_takes_black,
                    "black_player": if n.guesser_takes_black { "second" } else { "first" },
                }),
            );
        }
        writeln!(out, "{v}")?;
    } else {
        writeln!(out, "{}", h.explanation)?;
        if let Some(n) = drawn {
            writeln!(
            out,
            "Nigiri: the first player ({}) holds {} stones, the second ({}) guesses {}: {}. The {} player takes Black; Black gives {} points.",
            args.a,
            n.handful,
            args.b,
            if n.guess == ingo_competition::Parity::Odd { "odd" } else { "even" },
            if n.guesser_takes_black { "right" } else { "wrong" },
            if n.guesser_takes_black { "second" } else { "first" },
            h.komi
        )?;
        } else if h.nigiri {
            writeln!(out, "Colours by nigiri; Black gives {} points.", h.komi)?;
        } else {
            writeln!(
            out,
            "Black: {} ({}), White: {} ({}); White passes {} time(s) after Black's moves; komi {}; a tie goes to {} (有差賽).",
            h.black,
            h.black.to_chinese(),
            h.white,
            h.white.to_chinese(),
            h.handicap_passes,
            h.komi,
            if tie_winner == "white" { "White" } else { "Black" },
        )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
