//! `ingo tournament`: events under Ing's competition rules, kept in a database (an SQLite file
//! or PostgreSQL) through ingo-store, decided by ingo-tournament, and for engine events played
//! through ingo-referee. Each command is one transaction.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use anyhow::{anyhow, bail, Context};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use ingo_competition::Rank;
use ingo_referee::{
    play_game, EngineId, EngineSpec, FailureKind, FailurePolicy, GameSpec, Outcome as RefOutcome,
    PlayerSpec, Timeouts,
};
use ingo_render::{bracket_png, bracket_svg, crosstable_png, crosstable_svg};
use ingo_rules::Rules;
use ingo_store::tournament::{self as db, entrant_row, game_row, log_row, LoadError, LogRow};
use ingo_store::Store;
use ingo_tournament::bracket::Bracket;
use ingo_tournament::crosstable::{Crosstable, RoundCrosstable};
use ingo_tournament::sheets;
use ingo_tournament::{
    entrant_text, export, game_text, standings, Action, Agreement, Changed, CorrectionError,
    Entrant, EntrantKind, Event, ForfeitReason, FormatKind, Game, LogEntry, Member, Outcome,
    PairingError, PairingOptions, ResultError, Scoring, Standing, WinBy,
};
use sqlx::AnyConnection;

/// Arguments of `ingo tournament`.
#[derive(Args)]
pub struct TournamentArgs {
    #[command(subcommand)]
    command: TCmd,
}

/// Where the event lives.
#[derive(Args, Clone)]
struct Where {
    /// The event's database: an SQLite file (created by `create`), `sqlite:PATH`, or
    /// `postgres://…`.
    #[arg(long)]
    db: String,
    /// The event's name, when the database holds several.
    #[arg(long)]
    event: Option<String>,
}

/// What the EGF results file and the pairing know of an entrant besides its name.
#[derive(Args)]
struct Details {
    /// Club (pairing.avoid_same_club keeps a club's players apart).
    #[arg(long)]
    club: Option<String>,
    /// Surname, for the EGF results file.
    #[arg(long)]
    surname: Option<String>,
    /// Given name, for the EGF results file.
    #[arg(long)]
    given_name: Option<String>,
    /// Country, a two-letter code (DE, CZ, JP).
    #[arg(long, value_parser = |s: &str| ingo_tournament::country_code(s))]
    country: Option<String>,
    /// The player's PIN in the European Go Database.
    #[arg(long)]
    egd_pin: Option<u32>,
}

/// New details of an entrant: an empty value clears one.
#[derive(Args)]
struct EditDetails {
    /// Club.
    #[arg(long)]
    club: Option<String>,
    /// Surname.
    #[arg(long)]
    surname: Option<String>,
    /// Given name.
    #[arg(long)]
    given_name: Option<String>,
    /// Country, a two-letter code.
    #[arg(long, value_parser = |s: &str| if s.is_empty() { Ok(String::new()) } else { ingo_tournament::country_code(s) })]
    country: Option<String>,
    /// The player's PIN in the European Go Database (0 clears it).
    #[arg(long)]
    egd_pin: Option<u32>,
}

#[derive(Subcommand)]
enum TCmd {
    /// Create an event from an agreement (賽約, a TOML file; see docs/tournaments.md).
    Create {
        /// The agreement.
        agreement: PathBuf,
        #[command(flatten)]
        at: Where,
    },
    /// Add an entrant: a player, a pair (聯棋), a consultation team (商談聯棋) or a team.
    Add {
        /// Name, unique in the event.
        name: String,
        /// Rank: 3p/3品, 5d/5段, 2k/2級.
        #[arg(long)]
        rank: Option<Rank>,
        /// player, pair, consultation or team.
        #[arg(long, default_value = "player")]
        kind: String,
        /// A member, NAME or NAME:RANK, in playing order (repeat).
        #[arg(long = "member")]
        members: Vec<String>,
        /// For an engine event: the GTP command line of the engine.
        #[arg(long)]
        engine: Option<String>,
        #[command(flatten)]
        details: Details,
        #[command(flatten)]
        at: Where,
    },
    /// Add the players of a registration list: CSV with a header naming its columns, any of
    /// name, rank, surname, given_name, country, club, egd_pin (see docs/tournaments.md).
    Import {
        /// The list.
        list: PathBuf,
        #[command(flatten)]
        at: Where,
    },
    /// Withdraw an entrant: paired no more (games already drawn stay; enter their results).
    /// In a knockout, the next opponent of a withdrawn winner advances by walkover.
    Withdraw {
        /// The entrant.
        name: String,
        /// Why, for the log.
        #[arg(long)]
        reason: Option<String>,
        #[command(flatten)]
        at: Where,
    },
    /// Bring a withdrawn entrant back: paired again from the next round.
    Reinstate {
        /// The entrant.
        name: String,
        /// Why, for the log.
        #[arg(long)]
        reason: Option<String>,
        #[command(flatten)]
        at: Where,
    },
    /// Change an entrant's name, rank or details (an empty value clears a detail). Games
    /// already paired keep their conditions; a new name is written into them.
    Edit {
        /// The entrant.
        name: String,
        /// A new name.
        #[arg(long = "name")]
        new_name: Option<String>,
        /// A new rank.
        #[arg(long)]
        rank: Option<Rank>,
        /// A new engine command.
        #[arg(long)]
        engine: Option<String>,
        #[command(flatten)]
        details: EditDetails,
        /// Why, for the log.
        #[arg(long)]
        reason: Option<String>,
        #[command(flatten)]
        at: Where,
    },
    /// Remove an entrant entered by mistake: refused once it has a game or bye (withdraw it
    /// instead, so that its opponents' scores stay).
    Remove {
        /// The entrant.
        name: String,
        /// Why, for the log.
        #[arg(long)]
        reason: Option<String>,
        #[command(flatten)]
        at: Where,
    },
    /// Pair the next round (Swiss, McMahon, knockouts), the next game (擂台制, 十局升降制), or
    /// draw the whole schedule of a round robin; or, with --manual, pair a Swiss or McMahon
    /// round as the director gives it.
    Pair {
        /// Pair the round by hand: every active entrant in one --game or the --bye.
        #[arg(long, requires = "games", conflicts_with_all = ["fixed", "forbidden", "allow_rematches"])]
        manual: bool,
        /// With --manual: a game, BLACK WHITE (repeat). In a handicap game the weaker takes
        /// Black.
        #[arg(long = "game", num_args = 2, value_names = ["BLACK", "WHITE"], requires = "manual")]
        games: Vec<String>,
        /// With --manual: the player who has the bye.
        #[arg(long, requires = "manual")]
        bye: Option<String>,
        /// Swiss/McMahon: pair with the fewest rematches when no pairing without one exists.
        #[arg(long)]
        allow_rematches: bool,
        /// Swiss/McMahon: a pair the director fixes for this round, A B (repeat).
        #[arg(long = "fix", num_args = 2, value_names = ["A", "B"])]
        fixed: Vec<String>,
        /// Swiss/McMahon: a pair that must not meet this round, A B (repeat), beside the
        /// agreement's pairing.forbidden.
        #[arg(long = "forbid", num_args = 2, value_names = ["A", "B"])]
        forbidden: Vec<String>,
        /// Swiss/McMahon: say why each pairing is as it is (score groups, colours, the bye,
        /// the levels of the cost that decided it).
        #[arg(long)]
        explain: bool,
        /// Why, for the log.
        #[arg(long)]
        reason: Option<String>,
        #[command(flatten)]
        at: Where,
    },
    /// Take back the latest paired round (a round robin: its whole schedule, as `unpair 1`),
    /// to pair it again. A round with results is taken back only with --force (the results
    /// go with it, and are kept in the log).
    Unpair {
        /// The round: the latest paired one.
        round: u32,
        /// Take the round back with its results.
        #[arg(long, requires = "reason")]
        force: bool,
        /// Why, for the log.
        #[arg(long)]
        reason: Option<String>,
        #[command(flatten)]
        at: Where,
    },
    /// Enter a result: B+3, W+7.5, W+R, B+T, W+F:absence (absence, leave, abandonment,
    /// takeback, time, defiance), void. A game that has a result keeps it unless --change
    /// (or --clear) says otherwise, with a --reason.
    Result {
        /// Round.
        round: u32,
        /// Board.
        board: u32,
        /// The result.
        #[arg(allow_hyphen_values = true, required_unless_present = "clear")]
        result: Option<String>,
        /// Change the game's result (it has one), with a --reason.
        #[arg(long, requires = "reason", conflicts_with = "clear")]
        change: bool,
        /// Clear the game's result (to be played or entered again), with a --reason.
        #[arg(long, requires = "reason", conflicts_with = "result")]
        clear: bool,
        /// Why, for the log (required with --change and --clear).
        #[arg(long)]
        reason: Option<String>,
        #[command(flatten)]
        at: Where,
    },
    /// The event's log: every pairing, result, change, withdrawal and edit, with its time and
    /// reason, and every result the rules gave or took back after it (罰停).
    Log {
        /// As JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        at: Where,
    },
    /// List the entrants (seed order), with ranks, members, engines, and who is withdrawn or
    /// suspended.
    Entrants {
        /// As JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        at: Where,
    },
    /// List the games (pairings and results).
    Games {
        /// Only this round.
        #[arg(long)]
        round: Option<u32>,
        /// As JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        at: Where,
    },
    /// The standings: main score, then the agreement's tie-breakers (A1, A2, B1, B2 by default).
    Standings {
        /// A plain results file (`round,black,white,result`, a bye as an empty opponent)
        /// instead of an event: needs no database.
        #[arg(long, conflicts_with_all = ["db", "event"])]
        results: Option<PathBuf>,
        /// As JSON: an array in rank order.
        #[arg(long)]
        json: bool,
        /// With --results: B1/B2 use the opponents' A1 only (default A1 + A2).
        #[arg(long)]
        aux_a1_only: bool,
        /// The event's database.
        #[arg(long)]
        db: Option<String>,
        /// The event's name.
        #[arg(long)]
        event: Option<String>,
    },
    /// The crosstable: as text, JSON, or HTML/SVG/PNG pictures to print or post; with
    /// --by-round, a column a round (each cell the opponent's number, the result, the colour),
    /// as text, JSON or HTML.
    Crosstable {
        /// A column a round, as OpenGotha prints it, byes shown.
        #[arg(long, conflicts_with_all = ["svg", "png"])]
        by_round: bool,
        /// As JSON.
        #[arg(long)]
        json: bool,
        /// Write an HTML page.
        #[arg(long)]
        html: Option<PathBuf>,
        /// Write an SVG picture.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Write a PNG picture.
        #[arg(long)]
        png: Option<PathBuf>,
        #[command(flatten)]
        at: Where,
    },
    /// A round's sheets to print (HTML for A4): the pairing sheet (boards, players, scores,
    /// conditions, a column for the results) and the result slips (one a game, four to a page,
    /// for the players to fill in and sign). Without --html or --slips, the pairing sheet on
    /// standard output.
    Sheet {
        /// The round.
        round: u32,
        /// Write the pairing sheet.
        #[arg(long)]
        html: Option<PathBuf>,
        /// Write the result slips.
        #[arg(long)]
        slips: Option<PathBuf>,
        #[command(flatten)]
        at: Where,
    },
    /// The wall list: the standings as an HTML page in large type for the wall (A4), with a
    /// 擂台制 event's team result or a 十局升降制 match's handicap and lead. Without --html, on
    /// standard output.
    Wall {
        /// Write the page.
        #[arg(long)]
        html: Option<PathBuf>,
        #[command(flatten)]
        at: Where,
    },
    /// A knockout's bracket, or a double knockout's (each round's unbeaten, once-beaten and
    /// final pairings): as text, or SVG/PNG pictures to print or post.
    Bracket {
        /// Write an SVG picture.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Write a PNG picture.
        #[arg(long)]
        png: Option<PathBuf>,
        #[command(flatten)]
        at: Where,
    },
    /// Export the results (CSV; the EGF results format) and the games' SGF.
    Export {
        /// Results as CSV (round,board,black,white,result).
        #[arg(long)]
        csv: Option<PathBuf>,
        /// Results in the EGF tournament results format (every format).
        #[arg(long)]
        egf: Option<PathBuf>,
        /// A folder for one SGF file per game.
        #[arg(long)]
        sgf: Option<PathBuf>,
        #[command(flatten)]
        at: Where,
    },
    /// Play every pairing of an engine event through the referee, pairing rounds as they end;
    /// stopped at any moment (even by kill -9), it continues where it stopped.
    Run {
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        parallel: usize,
        /// Void and exclude a game still going after this many moves (default 10 per point).
        #[arg(long)]
        max_moves: Option<usize>,
        /// Do not tell engines the time (the clock is still enforced).
        #[arg(long)]
        no_tell_time: bool,
        #[command(flatten)]
        at: Where,
    },
}

/// Runs `ingo tournament …`.
pub fn run(args: TournamentArgs) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    match args.command {
        TCmd::Standings {
            results: Some(file),
            json,
            aux_a1_only,
            ..
        } => {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            let (names, games) = export::read_results_csv(&text)
                .with_context(|| format!("in {}", file.display()))?;
            let mut scoring = Scoring::default();
            if aux_a1_only {
                scoring.aux_for_b = ingo_tournament::AuxForB::A1;
            }
            let table = standings(&names, &games, &scoring);
            print!(
                "{}",
                if json {
                    standings_json(&table)
                } else {
                    standings_text(&table, &scoring, false)
                }
            );
            Ok(())
        }
        TCmd::Standings { db: None, .. } => {
            bail!("standings: give --db (an event) or --results FILE.csv")
        }
        TCmd::Standings {
            db: Some(db),
            event,
            json,
            ..
        } => rt.block_on(async {
            let at = Where { db, event };
            let (store, tx, _id, ev) = open_event(&at).await?;
            tx.commit().await?;
            let table = ev.standings();
            if !json {
                if let Some(state) = sheets::match_state(&ev) {
                    println!("{state}");
                }
            }
            print!(
                "{}",
                if json {
                    standings_json(&table)
                } else {
                    standings_text(&table, &ev.agreement.scoring, is_mcmahon(&ev))
                }
            );
            store.close().await;
            Ok(())
        }),
        TCmd::Create { agreement, at } => rt.block_on(create(&agreement, &at)),
        TCmd::Run {
            parallel,
            max_moves,
            no_tell_time,
            at,
        } => rt.block_on(run_engines(&at, parallel, max_moves, !no_tell_time)),
        cmd => rt.block_on(command(cmd)),
    }
}

fn url_of(db: &str) -> String {
    if db.starts_with("sqlite:") || db.starts_with("postgres://") || db.starts_with("postgresql://")
    {
        db.to_owned()
    } else {
        format!("sqlite:{db}")
    }
}

async fn create(file: &Path, at: &Where) -> anyhow::Result<()> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let agreement =
        Agreement::from_toml(&text).with_context(|| format!("in {}", file.display()))?;
    let store = Store::open(&url_of(&at.db)).await?;
    let mut tx = store.pool().begin().await?;
    if db::event_by_name(&mut tx, &agreement.name).await?.is_some() {
        bail!(
            "an event named {:?} already exists in {}",
            agreement.name,
            at.db
        );
    }
    let id = db::create_event(&mut tx, &agreement.name, &text).await?;
    for (i, e) in agreement.entrants.iter().enumerate() {
        db::add_entrant(&mut tx, id, &entrant_row(i as i64 + 1, e)).await?;
    }
    tx.commit().await?;
    println!(
        "created {:?}: {} ({} entrant{})",
        agreement.name,
        agreement.format.kind.name(),
        agreement.entrants.len(),
        if agreement.entrants.len() == 1 {
            ""
        } else {
            "s"
        }
    );
    store.close().await;
    Ok(())
}

type Tx = sqlx::Transaction<'static, sqlx::Any>;

/// Opens the store, starts the command's transaction, and reads the event.
async fn open_event(at: &Where) -> anyhow::Result<(Store, Tx, i64, Event)> {
    let url = url_of(&at.db);
    if let Some(path) = url.strip_prefix("sqlite:") {
        if !Path::new(path).exists() {
            bail!("no event database at {path}: create one with `ingo tournament create AGREEMENT --db {path}`");
        }
    }
    let store = Store::open(&url).await?;
    let mut tx = store.pool().begin().await?;
    let (id, ev) = load(&mut tx, at).await?;
    Ok((store, tx, id, ev))
}

async fn load(conn: &mut AnyConnection, at: &Where) -> anyhow::Result<(i64, Event)> {
    db::load_event(conn, at.event.as_deref())
        .await
        .map_err(|e| match e {
            LoadError::NoSuchEvent(_) => anyhow!("{e} in {}", at.db),
            LoadError::NoEvent | LoadError::Ambiguous(_) => anyhow!("{} {e}", at.db),
            e => e.into(),
        })
}

fn parse_member(s: &str) -> anyhow::Result<Member> {
    let (name, rank) = match s.rsplit_once(':') {
        Some((n, r)) => (
            n,
            Some(
                r.parse::<Rank>()
                    .map_err(|e| anyhow!("--member {s:?}: {e}"))?,
            ),
        ),
        None => (s, None),
    };
    Ok(Member {
        name: name.to_owned(),
        rank,
    })
}

async fn command(cmd: TCmd) -> anyhow::Result<()> {
    match cmd {
        TCmd::Add {
            name,
            rank,
            kind,
            members,
            engine,
            details,
            at,
        } => {
            let (store, mut tx, id, mut ev) = open_event(&at).await?;
            let kind = EntrantKind::from_name(&kind).ok_or_else(|| {
                anyhow!("--kind: expected player, pair, consultation or team, not {kind:?}")
            })?;
            let entrant = Entrant {
                name: name.clone(),
                rank,
                kind,
                members: members
                    .iter()
                    .map(|m| parse_member(m))
                    .collect::<anyhow::Result<_>>()?,
                engine,
                club: details.club,
                surname: details.surname,
                given_name: details.given_name,
                country: details.country,
                egd_pin: details.egd_pin,
                withdrawn: false,
            };
            ev.add(entrant.clone())
                .map_err(|e| anyhow!("cannot add {name:?}: {e}"))?;
            db::add_entrant(
                &mut tx,
                id,
                &entrant_row(ev.entrants.len() as i64, &entrant),
            )
            .await?;
            let entry = LogEntry::entrant(Action::Add, &name).new_value(entrant_text(&entrant));
            append(&mut tx, id, &[entry]).await?;
            tx.commit().await?;
            println!("added {name:?} (seed {})", ev.entrants.len());
            store.close().await;
        }
        TCmd::Import { list, at } => {
            let text = std::fs::read_to_string(&list)
                .with_context(|| format!("cannot read {}", list.display()))?;
            let players = ingo_tournament::registration::read_registration_csv(&text)
                .with_context(|| format!("in {}", list.display()))?;
            // One transaction: the whole list is entered, or none of it.
            let (store, mut tx, id, mut ev) = open_event(&at).await?;
            let added = players.len();
            for e in players {
                let name = e.name.clone();
                ev.add(e.clone())
                    .map_err(|r| anyhow!("{}: cannot add {name:?}: {r}", list.display()))?;
                db::add_entrant(&mut tx, id, &entrant_row(ev.entrants.len() as i64, &e)).await?;
                let entry = LogEntry::entrant(Action::Add, &name)
                    .new_value(entrant_text(&e))
                    .reason(Some(&format!("registration list {}", list.display())));
                append(&mut tx, id, &[entry]).await?;
            }
            tx.commit().await?;
            println!(
                "added {added} player{} from {} ({} entrants)",
                if added == 1 { "" } else { "s" },
                list.display(),
                ev.entrants.len()
            );
            store.close().await;
        }
        TCmd::Withdraw { name, reason, at } => {
            let (store, mut tx, id, mut ev) = open_event(&at).await?;
            ev.withdraw(&name)?;
            db::set_withdrawn(&mut tx, id, &name, true).await?;
            let entry = LogEntry::entrant(Action::Withdraw, &name).reason(reason.as_deref());
            append(&mut tx, id, &[entry]).await?;
            tx.commit().await?;
            println!("withdrew {name:?}");
            store.close().await;
        }
        TCmd::Reinstate { name, reason, at } => {
            let (store, mut tx, id, mut ev) = open_event(&at).await?;
            ev.reinstate(&name)?;
            db::set_withdrawn(&mut tx, id, &name, false).await?;
            let entry = LogEntry::entrant(Action::Reinstate, &name).reason(reason.as_deref());
            append(&mut tx, id, &[entry]).await?;
            tx.commit().await?;
            println!("reinstated {name:?}: paired again from the next round");
            store.close().await;
        }
        TCmd::Edit {
            name,
            new_name,
            rank,
            engine,
            details,
            reason,
            at,
        } => {
            let (store, mut tx, id, mut ev) = open_event(&at).await?;
            let seed = ev
                .entrants
                .iter()
                .position(|e| e.name == name)
                .ok_or_else(|| anyhow!("{name:?} is not an entrant"))?;
            let old = ev.entrants[seed].clone();
            let mut e = old.clone();
            let set = |field: &mut Option<String>, v: Option<String>| {
                if let Some(v) = v {
                    *field = Some(v).filter(|v| !v.trim().is_empty());
                }
            };
            if let Some(n) = new_name {
                e.name = n;
            }
            if rank.is_some() {
                e.rank = rank;
            }
            set(&mut e.engine, engine);
            set(&mut e.club, details.club);
            set(&mut e.surname, details.surname);
            set(&mut e.given_name, details.given_name);
            set(&mut e.country, details.country);
            if let Some(p) = details.egd_pin {
                e.egd_pin = Some(p).filter(|p| *p != 0);
            }
            if e == old {
                bail!("edit {name:?}: nothing to change (give --name, --rank, --club, …)");
            }
            ev.edit(&name, e.clone())?;
            db::update_entrant(&mut tx, id, &name, &entrant_row(seed as i64 + 1, &e)).await?;
            let entry = LogEntry::entrant(Action::Edit, &name)
                .old(entrant_text(&old))
                .new_value(entrant_text(&e))
                .reason(reason.as_deref());
            append(&mut tx, id, &[entry]).await?;
            tx.commit().await?;
            println!("{name:?} is now: {}", entrant_text(&e));
            store.close().await;
        }
        TCmd::Remove { name, reason, at } => {
            let (store, mut tx, id, mut ev) = open_event(&at).await?;
            let old = ev.remove(&name)?;
            db::remove_entrant(&mut tx, id, &name).await?;
            let entry = LogEntry::entrant(Action::Remove, &name)
                .old(entrant_text(&old))
                .reason(reason.as_deref());
            append(&mut tx, id, &[entry]).await?;
            tx.commit().await?;
            println!("removed {name:?} ({} entrants)", ev.entrants.len());
            store.close().await;
        }
        TCmd::Pair {
            manual,
            games,
            bye,
            allow_rematches,
            fixed,
            forbidden,
            explain,
            reason,
            at,
        } => {
            let (store, mut tx, id, ev) = open_event(&at).await?;
            let two = |v: &[String]| -> Vec<(String, String)> {
                v.chunks(2)
                    .filter_map(|c| Some((c.first()?.clone(), c.get(1)?.clone())))
                    .collect()
            };
            let (paired, action) = if manual {
                let mut pairs: Vec<(String, Option<String>)> =
                    two(&games).into_iter().map(|(b, w)| (b, Some(w))).collect();
                pairs.extend(bye.map(|b| (b, None)));
                (ev.pair_manual(&pairs)?, Action::PairManual)
            } else {
                let options = PairingOptions {
                    fixed: two(&fixed),
                    forbidden: two(&forbidden),
                    allow_rematches,
                };
                let games = ev.pair_next_with(&options).map_err(|e| match e {
                    PairingError::NoPairing(r) => anyhow!(
                        "{e}: pair round {r} by hand (`ingo tournament pair --manual --game BLACK WHITE … [--bye NAME]`) \
                         or with the fewest rematches (`ingo tournament pair --allow-rematches`)"
                    ),
                    e => e.into(),
                })?;
                (games, Action::Pair)
            };
            db::insert_games(
                &mut tx,
                id,
                &paired.iter().map(game_row).collect::<Vec<_>>(),
            )
            .await?;
            let entries: Vec<LogEntry> = paired
                .iter()
                .map(|g| {
                    LogEntry::game(action, g.round, g.board)
                        .new_value(game_text(g))
                        .reason(reason.as_deref())
                })
                .collect();
            append(&mut tx, id, &entries).await?;
            tx.commit().await?;
            print!("{}", games_text(&paired));
            if explain {
                if matches!(
                    ev.agreement.format.kind,
                    FormatKind::Swiss | FormatKind::McMahon
                ) {
                    for line in ev.explain_pairing(&paired) {
                        println!("  {line}");
                    }
                } else {
                    println!(
                        "(--explain: a {} is paired by its schedule or bracket)",
                        ev.agreement.format.kind.name()
                    );
                }
            }
            for g in &paired {
                if let Some(w) = &g.white {
                    let n = ev.times_met(&g.black, w);
                    if n > 0 {
                        println!(
                            "note: round {} board {}: {} and {w} have met {n} time{} before (a rematch)",
                            g.round,
                            g.board,
                            g.black,
                            if n == 1 { "" } else { "s" }
                        );
                    }
                }
            }
            store.close().await;
        }
        TCmd::Unpair {
            round,
            force,
            reason,
            at,
        } => {
            let (store, mut tx, id, mut ev) = open_event(&at).await?;
            let whole = matches!(
                ev.agreement.format.kind,
                FormatKind::RoundRobin | FormatKind::DoubleRoundRobin
            );
            let (removed, changed) = ev.unpair(round, force).map_err(|e| match e {
                CorrectionError::HasResults { .. } => {
                    anyhow!("{e}: `ingo tournament result ROUND BOARD --clear --reason TEXT`, or `unpair {round} --force --reason TEXT`")
                }
                e => e.into(),
            })?;
            db::delete_games(&mut tx, id, (!whole).then_some(i64::from(round))).await?;
            save_results(&mut tx, id, &ev, &changed).await?;
            let mut entries: Vec<LogEntry> = removed
                .iter()
                .map(|g| {
                    LogEntry::game(Action::Unpair, g.round, g.board)
                        .old(game_text(g))
                        .reason(reason.as_deref())
                })
                .collect();
            entries.extend(changed.iter().map(Changed::log));
            append(&mut tx, id, &entries).await?;
            tx.commit().await?;
            let with_results = removed
                .iter()
                .filter(|g| g.result.is_some() && !g.automatic)
                .count();
            println!(
                "took back {} ({} game{} and byes{})",
                if whole {
                    "the whole schedule".to_owned()
                } else {
                    format!("round {round}")
                },
                removed.len(),
                if removed.len() == 1 { "" } else { "s" },
                if with_results > 0 {
                    format!(", {with_results} with results, kept in the log")
                } else {
                    String::new()
                }
            );
            print_changed(&ev, &changed);
            store.close().await;
        }
        TCmd::Result {
            round,
            board,
            result,
            change,
            clear,
            reason,
            at,
        } => {
            let outcome: Option<Outcome> = if clear {
                None
            } else {
                result.as_deref().map(str::parse).transpose()?
            };
            let (store, mut tx, id, mut ev) = open_event(&at).await?;
            let hint = |e: ResultError| {
                match e {
                ResultError::HasResult { .. } => anyhow!(
                    "{e}: `ingo tournament result {round} {board} RESULT --change --reason TEXT` changes it, \
                     `--clear --reason TEXT` clears it"
                ),
                ResultError::NoResult { .. } if change => anyhow!(
                    "{e}: enter it without --change"
                ),
                e => e.into(),
            }
            };
            let decided = ev.decide(round, board, outcome, change).map_err(hint)?;
            let (action, changed) = (decided.action, &decided.changed);
            save_results(&mut tx, id, &ev, changed).await?;
            let entries = decided.log(reason.as_deref());
            append(&mut tx, id, &entries).await?;
            tx.commit().await?;
            match outcome {
                None => println!("round {round} board {board}: cleared"),
                Some(o) => println!("round {round} board {board}: {o}"),
            }
            print_changed(&ev, changed.get(1..).unwrap_or_default());
            let drawn_whole = matches!(
                ev.agreement.format.kind,
                FormatKind::RoundRobin | FormatKind::DoubleRoundRobin
            );
            if action != Action::Result
                && !drawn_whole
                && ev.latest_round().is_some_and(|l| l > round)
            {
                println!(
                    "note: later rounds were paired on the old result; `ingo tournament unpair {}` takes back the latest",
                    ev.latest_round().unwrap_or(round)
                );
            }
            store.close().await;
        }
        TCmd::Log { json, at } => {
            let (store, mut tx, id, _ev) = open_event(&at).await?;
            let rows = db::log(&mut tx, id).await?;
            tx.commit().await?;
            if json {
                let v: Vec<serde_json::Value> = rows
                    .iter()
                    .map(|r| {
                        serde_json::json!({
                            "seq": r.seq, "at_ms": r.at_ms, "at": utc(r.at_ms), "action": r.action,
                            "round": r.round, "board": r.board, "entrant": r.entrant,
                            "old": r.old_value, "new": r.new_value, "reason": r.reason,
                        })
                    })
                    .collect();
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                for r in &rows {
                    println!("{}", log_line(r));
                }
            }
            store.close().await;
        }
        TCmd::Entrants { json, at } => {
            let (store, tx, _id, ev) = open_event(&at).await?;
            tx.commit().await?;
            let suspended = ev.suspended();
            let rows: Vec<serde_json::Value> = ev
                .entrants
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    serde_json::json!({
                        "seed": i + 1,
                        "name": e.name,
                        "kind": e.kind.name(),
                        "rank": e.rank.map(|r| r.to_string()),
                        "members": e.members.iter().map(|m| serde_json::json!({"name": m.name, "rank": m.rank.map(|r| r.to_string())})).collect::<Vec<_>>(),
                        "engine": e.engine,
                        "club": e.club,
                        "surname": e.surname,
                        "given_name": e.given_name,
                        "country": e.country,
                        "egd_pin": e.egd_pin,
                        "withdrawn": e.withdrawn,
                        "suspended": suspended.contains(&e.name),
                    })
                })
                .collect();
            if json {
                println!("{}", serde_json::to_string_pretty(&rows)?);
            } else {
                for (i, e) in ev.entrants.iter().enumerate() {
                    let members = e
                        .members
                        .iter()
                        .map(|m| match m.rank {
                            Some(r) => format!("{} {r}", m.name),
                            None => m.name.clone(),
                        })
                        .collect::<Vec<_>>()
                        .join(", ");
                    let mut line = format!("{:>3}  {}", i + 1, e.name);
                    if let Some(r) = e.rank {
                        let _ = write!(line, " {r}");
                    }
                    if e.kind != EntrantKind::Player {
                        let _ = write!(line, " ({}: {members})", e.kind.name());
                    }
                    let place: Vec<&str> = [e.club.as_deref(), e.country.as_deref()]
                        .into_iter()
                        .flatten()
                        .collect();
                    if !place.is_empty() {
                        let _ = write!(line, ", {}", place.join(", "));
                    }
                    if let Some(pin) = e.egd_pin {
                        let _ = write!(line, ", EGD {pin}");
                    }
                    if e.withdrawn {
                        line.push_str(" [withdrawn]");
                    }
                    if suspended.contains(&e.name) {
                        line.push_str(" [suspended: 罰停]");
                    }
                    println!("{line}");
                }
            }
            store.close().await;
        }
        TCmd::Games { round, json, at } => {
            let (store, tx, _id, ev) = open_event(&at).await?;
            tx.commit().await?;
            let games: Vec<Game> = ev
                .games
                .into_iter()
                .filter(|g| round.is_none_or(|r| g.round == r))
                .collect();
            if json {
                let v: Vec<serde_json::Value> = games
                    .iter()
                    .map(|g| {
                        serde_json::json!({
                            "round": g.round, "board": g.board, "black": g.black, "white": g.white,
                            "handicap_passes": g.passes, "komi": g.komi.as_f64(),
                            "result": g.result.map(|o| o.to_string()),
                        })
                    })
                    .collect();
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                print!("{}", games_text(&games));
            }
            store.close().await;
        }
        TCmd::Crosstable {
            by_round: true,
            json,
            html,
            at,
            ..
        } => {
            let (store, tx, _id, ev) = open_event(&at).await?;
            tx.commit().await?;
            let ct = RoundCrosstable::new(&ev);
            if json {
                let rows: Vec<serde_json::Value> = ct
                    .rows
                    .iter()
                    .zip(&ct.cells)
                    .enumerate()
                    .map(|(i, (r, cells))| {
                        let mut v = standing_json(r);
                        v["number"] = serde_json::json!(i + 1);
                        v["rounds"] = serde_json::json!(cells);
                        v
                    })
                    .collect();
                println!(
                    "{}",
                    serde_json::to_string_pretty(
                        &serde_json::json!({"event": ct.title, "players": rows})
                    )?
                );
            }
            if let Some(p) = &html {
                std::fs::write(p, ct.html())
                    .with_context(|| format!("cannot write {}", p.display()))?;
            }
            if !json && html.is_none() {
                print!("{}", ct.text());
            }
            store.close().await;
        }
        TCmd::Sheet {
            round,
            html,
            slips,
            at,
        } => {
            let (store, tx, _id, ev) = open_event(&at).await?;
            tx.commit().await?;
            let sheet = sheets::pairing_sheet(&ev, round)?;
            if let Some(p) = &html {
                std::fs::write(p, &sheet)
                    .with_context(|| format!("cannot write {}", p.display()))?;
            }
            if let Some(p) = &slips {
                std::fs::write(p, sheets::result_slips(&ev, round)?)
                    .with_context(|| format!("cannot write {}", p.display()))?;
            }
            if html.is_none() && slips.is_none() {
                print!("{sheet}");
            }
            store.close().await;
        }
        TCmd::Wall { html, at } => {
            let (store, tx, _id, ev) = open_event(&at).await?;
            tx.commit().await?;
            let page = sheets::wall_list(&ev);
            match &html {
                Some(p) => std::fs::write(p, page)
                    .with_context(|| format!("cannot write {}", p.display()))?,
                None => print!("{page}"),
            }
            store.close().await;
        }
        TCmd::Crosstable {
            json,
            html,
            svg,
            png,
            at,
            ..
        } => {
            let (store, tx, _id, ev) = open_event(&at).await?;
            tx.commit().await?;
            let ct = Crosstable::new(&ev);
            if json {
                println!("{}", crosstable_json(&ct));
            }
            if let Some(p) = &html {
                std::fs::write(p, ct.html())
                    .with_context(|| format!("cannot write {}", p.display()))?;
            }
            if let Some(p) = &svg {
                std::fs::write(p, crosstable_svg(&ct))
                    .with_context(|| format!("cannot write {}", p.display()))?;
            }
            if let Some(p) = &png {
                std::fs::write(
                    p,
                    crosstable_png(&ct).context("cannot draw the crosstable")?,
                )
                .with_context(|| format!("cannot write {}", p.display()))?;
            }
            if !json && html.is_none() && svg.is_none() && png.is_none() {
                print!("{}", ct.text());
            }
            store.close().await;
        }
        TCmd::Bracket { svg, png, at } => {
            let (store, tx, _id, ev) = open_event(&at).await?;
            tx.commit().await?;
            let b = Bracket::new(&ev)?;
            if let Some(p) = &svg {
                std::fs::write(p, bracket_svg(&b))
                    .with_context(|| format!("cannot write {}", p.display()))?;
            }
            if let Some(p) = &png {
                std::fs::write(p, bracket_png(&b).context("cannot draw the bracket")?)
                    .with_context(|| format!("cannot write {}", p.display()))?;
            }
            if svg.is_none() && png.is_none() {
                print!("{}", b.text());
            }
            store.close().await;
        }
        TCmd::Export { csv, egf, sgf, at } => {
            let url = url_of(&at.db);
            let store = Store::open(&url).await?;
            let mut tx = store.pool().begin().await?;
            let (id, ev) = load(&mut tx, &at).await?;
            let rows = db::games(&mut tx, id).await?;
            tx.commit().await?;
            if let Some(p) = &csv {
                std::fs::write(p, export::event_results_csv(&ev)?)
                    .with_context(|| format!("cannot write {}", p.display()))?;
            }
            if let Some(p) = &egf {
                std::fs::write(p, export::egf_results(&ev))
                    .with_context(|| format!("cannot write {}", p.display()))?;
            }
            if let Some(dir) = &sgf {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create {}", dir.display()))?;
                let mut n = 0;
                for (g, r) in ev.games.iter().zip(&rows) {
                    if g.is_bye() {
                        continue;
                    }
                    let Some(text) = r.sgf.clone().or_else(|| export::game_sgf(&ev, g)) else {
                        continue;
                    };
                    let path = dir.join(format!("round{:02}-board{:02}.sgf", g.round, g.board));
                    std::fs::write(&path, text)
                        .with_context(|| format!("cannot write {}", path.display()))?;
                    n += 1;
                }
                println!("{n} SGF files in {}", dir.display());
            }
            if csv.is_none() && egf.is_none() && sgf.is_none() {
                print!("{}", export::event_results_csv(&ev)?);
            }
            store.close().await;
        }
        TCmd::Create { .. } | TCmd::Run { .. } | TCmd::Standings { .. } => {
            unreachable!("handled by run")
        }
    }
    Ok(())
}

/// Appends `entries` to the event's log, in the command's transaction.
async fn append(conn: &mut AnyConnection, id: i64, entries: &[LogEntry]) -> anyhow::Result<()> {
    let rows: Vec<LogRow> = entries.iter().map(log_row).collect();
    db::append_log(conn, id, &rows).await?;
    Ok(())
}

/// Writes the results of the `changed` games as `ev` now has them.
async fn save_results(
    conn: &mut AnyConnection,
    id: i64,
    ev: &Event,
    changed: &[Changed],
) -> anyhow::Result<()> {
    for c in changed {
        let g = ev.game(c.round, c.board)?;
        db::write_result(conn, id, &game_row(g)).await?;
    }
    Ok(())
}

/// Says what the rules changed after a correction: 罰停's forfeits given or taken back.
fn print_changed(ev: &Event, changed: &[Changed]) {
    let text = |o: Option<Outcome>| o.map_or_else(|| "-".to_owned(), |o| o.to_string());
    for c in changed {
        println!(
            "round {} board {}: {} -> {} ({})",
            c.round,
            c.board,
            text(c.old),
            text(c.new),
            if c.new.is_some() {
                "罰停"
            } else {
                "罰停 lifted"
            }
        );
    }
    for s in ev.suspended() {
        if changed.iter().any(|c| {
            c.new.is_some()
                && ev
                    .game(c.round, c.board)
                    .is_ok_and(|g| g.has(&s) || (g.is_bye() && g.black == s))
        }) {
            println!("{s} is suspended (罰停): remaining games are forfeit losses");
        }
    }
}

/// A time in ms since the Unix epoch as `YYYY-MM-DD HH:MM:SS` UTC.
fn utc(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// One line of the log as text.
fn log_line(r: &LogRow) -> String {
    let mut s = format!("{:>4}  {}  {:<11}", r.seq, utc(r.at_ms), r.action);
    match (r.round, r.board) {
        (Some(round), Some(board)) => {
            let _ = write!(s, " round {round} board {board}");
        }
        (Some(round), None) => {
            let _ = write!(s, " round {round}");
        }
        _ => {}
    }
    if let Some(e) = &r.entrant {
        let _ = write!(s, " {e:?}");
    }
    match (&r.old_value, &r.new_value) {
        (Some(o), Some(n)) => {
            let _ = write!(s, ": {o} -> {n}");
        }
        (Some(o), None) => {
            let _ = write!(s, ": was {o}");
        }
        (None, Some(n)) => {
            let _ = write!(s, ": {n}");
        }
        (None, None) => {}
    }
    if let Some(why) = &r.reason {
        let _ = write!(s, "  (reason: {why})");
    }
    s
}

fn games_text(games: &[Game]) -> String {
    let mut s = String::new();
    for g in games {
        match &g.white {
            None => {
                let note = if g.result == Some(Outcome::Void) {
                    " (cancelled: 罰停)"
                } else {
                    ""
                };
                let _ = writeln!(
                    s,
                    "round {:>2} board {:>2}  {} has a bye{note}",
                    g.round, g.board, g.black
                );
            }
            Some(w) => {
                let h = if g.passes > 0 {
                    format!(
                        " handicap {} pass{}",
                        g.passes,
                        if g.passes == 1 { "" } else { "es" }
                    )
                } else {
                    String::new()
                };
                let r = g.result.map_or_else(|| "-".to_owned(), |o| o.to_string());
                let _ = writeln!(
                    s,
                    "round {:>2} board {:>2}  {} (B) vs {} (W), komi {}{h}  {r}",
                    g.round, g.board, g.black, w, g.komi
                );
            }
        }
    }
    s
}

fn is_mcmahon(ev: &Event) -> bool {
    ev.agreement.format.kind == FormatKind::McMahon
}

/// The standings as text; a McMahon event's (`mcmahon`) with its McMahon score, which places it.
fn standings_text(t: &[Standing], scoring: &Scoring, mcmahon: bool) -> String {
    let width = t
        .iter()
        .map(|s| s.player.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let mut s = format!("{:>4}  {:<width$}  {:>4}", "rank", "player", "main");
    if mcmahon {
        s.push_str("  MMS");
    }
    for k in &scoring.tie_breakers {
        let _ = write!(s, " {:>5}", k.name());
    }
    s.push_str("   W   L  bye void\n");
    for r in t {
        let _ = write!(s, "{:>4}  {:<width$}  {:>4}", r.rank, r.player, r.main);
        if mcmahon {
            let _ = write!(s, " {:>4}", r.mcmahon);
        }
        for k in &scoring.tie_breakers {
            let _ = write!(s, " {:>5}", r.key(*k));
        }
        let _ = writeln!(
            s,
            " {:>3} {:>3} {:>4} {:>4}",
            r.wins, r.losses, r.byes, r.voids
        );
    }
    s
}

fn standing_json(s: &Standing) -> serde_json::Value {
    serde_json::json!({
        "rank": s.rank, "player": s.player, "main": s.main, "mcmahon": s.mcmahon,
        "a1": s.a1, "a2": s.a2, "b1": s.b1, "b2": s.b2,
        "sos": s.sos, "sosos": s.sosos, "sodos": s.sodos,
        "wins": s.wins, "losses": s.losses, "byes": s.byes, "voids": s.voids, "forfeits": s.forfeits,
    })
}

fn standings_json(t: &[Standing]) -> String {
    let v: Vec<serde_json::Value> = t.iter().map(standing_json).collect();
    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
}

/// The crosstable as JSON: the standings, each with its games against the others.
fn crosstable_json(ct: &Crosstable) -> String {
    let players: Vec<serde_json::Value> = ct
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut v = standing_json(r);
            v["games"] = serde_json::json!(ct
                .rows
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i && !ct.cells[i][*j].is_empty())
                .map(|(j, o)| serde_json::json!({"opponent": o.player, "results": ct.cells[i][j]}))
                .collect::<Vec<_>>());
            v
        })
        .collect();
    serde_json::to_string_pretty(&serde_json::json!({"event": ct.title, "players": players}))
        .unwrap_or_default()
}

/// A line above the progress bar, or on standard error when there is no terminal to draw the
/// bar on (so that a log still shows every game).
fn say(bar: &ProgressBar, line: String) {
    if bar.is_hidden() {
        eprintln!("{line}");
    } else {
        bar.println(line);
    }
}

/// What a worker reports for one game.
struct Played {
    round: u32,
    board: u32,
    result: Outcome,
    sgf: String,
    line: String,
}

/// The tournament outcome of a referee's report: forfeits keep the failure as the reason.
fn outcome_of(report: &ingo_referee::GameReport) -> Outcome {
    let Some(winner) = report.winner() else {
        return Outcome::Void;
    };
    let re = report.result_string();
    if re.ends_with("+F") {
        let reason = match report.failure.as_ref().map(|f| f.kind) {
            Some(FailureKind::Illegal) => ForfeitReason::IllegalMove,
            Some(FailureKind::Timeout) => ForfeitReason::Time,
            Some(FailureKind::Crash | FailureKind::Garbage) => ForfeitReason::Abandonment,
            None => ForfeitReason::Unspecified,
        };
        return Outcome::Win {
            winner,
            by: WinBy::Forfeit(reason),
        };
    }
    re.parse().unwrap_or(Outcome::Win {
        winner,
        by: WinBy::Unstated,
    })
}

fn game_spec(
    ev: &Event,
    g: &Game,
    index: u32,
    voids: u32,
    max_moves: Option<usize>,
    tell_time: bool,
) -> anyhow::Result<GameSpec> {
    let a = &ev.agreement;
    let white = g
        .white
        .as_deref()
        .ok_or_else(|| anyhow!("a bye is not played"))?;
    let player = |name: &str, id: EngineId| -> anyhow::Result<PlayerSpec> {
        let e = ev
            .entrants
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| anyhow!("{name:?} is not an entrant"))?;
        let cmd = e
            .engine
            .clone()
            .ok_or_else(|| anyhow!("{name:?} has no engine command (add it with --engine)"))?;
        let mut spec = EngineSpec::new(cmd);
        spec.label = Some(name.to_owned());
        spec.rank = e.rank;
        Ok(PlayerSpec {
            engine: id,
            spec,
            time: a.time,
        })
    };
    Ok(GameSpec {
        index,
        black: player(&g.black, EngineId::A)?,
        white: player(white, EngineId::B)?,
        size: a.size,
        rules: Rules {
            komi: g.komi,
            ..a.rules.rules()
        },
        handicap_passes: g.passes,
        // 有差賽: a tie goes to White in a handicap game; every game whose conditions are not
        // the agreement's even game is one.
        handicap_game: g.passes > 0 || g.komi != a.komi,
        tell_time,
        failure: FailurePolicy::default(),
        voids_so_far: voids,
        timeouts: Timeouts::default(),
        max_moves: max_moves.unwrap_or(10 * a.size * a.size),
        event: Some(a.name.clone()),
        round: Some(format!("{}, board {}", g.round, g.board)),
    })
}

async fn run_engines(
    at: &Where,
    parallel: usize,
    max_moves: Option<usize>,
    tell_time: bool,
) -> anyhow::Result<()> {
    if parallel == 0 {
        bail!("--parallel must be at least 1");
    }
    let url = url_of(&at.db);
    let store = Store::open(&url).await?;
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {msg} [{elapsed_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut announced = false;
    loop {
        // One transaction: read the event, pair the next round when the current one is over.
        let mut tx = store.pool().begin().await?;
        let (id, mut ev) = load(&mut tx, at).await?;
        if !announced {
            let missing: Vec<&str> = ev
                .entrants
                .iter()
                .filter(|e| e.engine.is_none())
                .map(|e| e.name.as_str())
                .collect();
            if !missing.is_empty() {
                bail!(
                    "not an engine event: no engine command for {}",
                    missing.join(", ")
                );
            }
        }
        let todo: Vec<Game> = ev.games.iter().filter(|g| !g.is_done()).cloned().collect();
        if todo.is_empty() {
            match ev.pair_next() {
                Ok(games) => {
                    db::insert_games(&mut tx, id, &games.iter().map(game_row).collect::<Vec<_>>())
                        .await?;
                    let entries: Vec<LogEntry> = games
                        .iter()
                        .map(|g| {
                            LogEntry::game(Action::Pair, g.round, g.board).new_value(game_text(g))
                        })
                        .collect();
                    append(&mut tx, id, &entries).await?;
                    tx.commit().await?;
                    continue;
                }
                Err(PairingError::Finished | PairingError::AlreadyDrawn) => {
                    tx.commit().await?;
                    break;
                }
                Err(e) => return Err(e.into()),
            }
        }
        tx.commit().await?;
        let total = ev.games.iter().filter(|g| !g.is_bye()).count() as u64;
        let done = total - todo.len() as u64;
        bar.set_length(total);
        bar.set_position(done);
        if !announced {
            announced = true;
            if done > 0 {
                say(
                    &bar,
                    format!(
                        "resuming {:?}: {done} of {total} games already played",
                        ev.agreement.name
                    ),
                );
            }
        }
        let queue = Arc::new(Mutex::new(todo.clone()));
        let stop = Arc::new(AtomicBool::new(false));
        let (tx_res, rx_res) = mpsc::channel::<anyhow::Result<Played>>();
        let mut workers = Vec::new();
        for _ in 0..parallel.min(todo.len()) {
            let queue = Arc::clone(&queue);
            let stop = Arc::clone(&stop);
            let tx_res = tx_res.clone();
            let ev = ev.clone();
            workers.push(std::thread::spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let next = queue.lock().ok().and_then(|mut q| {
                    if q.is_empty() {
                        None
                    } else {
                        Some(q.remove(0))
                    }
                });
                let Some(g) = next else { break };
                let index = g.round * 1000 + g.board;
                let mut voids = 0;
                let res = loop {
                    let spec = match game_spec(&ev, &g, index, voids, max_moves, tell_time) {
                        Ok(s) => s,
                        Err(e) => break Err(e),
                    };
                    match play_game(&spec, &mut |_| {}) {
                        Err(e) => break Err(anyhow!("round {} board {}: {e}", g.round, g.board)),
                        Ok(report)
                            if matches!(report.outcome, RefOutcome::Void { replay: true }) =>
                        {
                            voids += 1
                        }
                        Ok(report) => {
                            let result = outcome_of(&report);
                            break Ok(Played {
                                round: g.round,
                                board: g.board,
                                result,
                                sgf: report.sgf(),
                                line: format!(
                                    "round {} board {}: {} (B) vs {} (W): {result} ({})",
                                    g.round,
                                    g.board,
                                    g.black,
                                    g.white.as_deref().unwrap_or(""),
                                    report.reason()
                                ),
                            });
                        }
                    }
                };
                if tx_res.send(res).is_err() {
                    break;
                }
            }));
        }
        drop(tx_res);
        let mut failure = None;
        for res in rx_res.iter() {
            match res {
                Ok(p) => {
                    // One transaction a game: the result and its record, recorded once.
                    let mut tx = store.pool().begin().await?;
                    let recorded = db::record_played(
                        &mut tx,
                        id,
                        i64::from(p.round),
                        i64::from(p.board),
                        &p.result.to_string(),
                        &p.sgf,
                    )
                    .await?;
                    if recorded {
                        let entry = LogEntry::game(Action::Result, p.round, p.board)
                            .new_value(p.result.to_string())
                            .reason(Some("played by the engines"));
                        append(&mut tx, id, &[entry]).await?;
                    }
                    tx.commit().await?;
                    if recorded {
                        if let Some(g) = ev
                            .games
                            .iter_mut()
                            .find(|g| g.round == p.round && g.board == p.board)
                        {
                            g.result = Some(p.result);
                        }
                        say(&bar, p.line);
                        bar.inc(1);
                        let t = ev.standings();
                        if let Some(top) = t.first() {
                            bar.set_message(format!("leader {} {}", top.player, top.main));
                        }
                    }
                }
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    failure.get_or_insert(e);
                }
            }
        }
        for w in workers {
            let _ = w.join();
        }
        if let Some(e) = failure {
            bar.abandon();
            return Err(e);
        }
    }
    bar.finish_and_clear();
    let mut tx = store.pool().begin().await?;
    let (_, ev) = load(&mut tx, at).await?;
    tx.commit().await?;
    println!("{:?} is finished.", ev.agreement.name);
    print!(
        "{}",
        standings_text(&ev.standings(), &ev.agreement.scoring, is_mcmahon(&ev))
    );
    store.close().await;
    Ok(())
}
