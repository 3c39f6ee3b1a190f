//! The rule flags shared by the subcommands that play (`gtp`, `match`).

use clap::Args;
use ingo_rules::{KoRule, Komi, Preset, Rules, SuicideRule};

/// Rule selection shared by the subcommands.
#[derive(Args, Clone)]
pub struct RuleArgs {
    /// Rules preset: ing, katago-ing, chinese, tromp-taylor, japanese.
    #[arg(long, default_value = "ing")]
    pub rules: Preset,
    /// Override the ko rule: ing, simple, positional, situational.
    #[arg(long)]
    pub ko: Option<KoRule>,
    /// Override the suicide rule: none, block, all.
    #[arg(long)]
    pub suicide: Option<SuicideRule>,
    /// Override the komi (an integer or half-integer).
    #[arg(long, allow_hyphen_values = true)]
    pub komi: Option<Komi>,
}

impl RuleArgs {
    /// The rules: the preset with the overrides.
    pub fn rules(&self) -> Rules {
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
