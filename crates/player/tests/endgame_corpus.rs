//! The end-of-game judgement ([`ingo_player::endgame::judge_end`]) against the results real
//! referees wrote: the counted Ing Cup records (`aeb-pro/Ing`, komi 8, `RE` like `B+3`), winner
//! and exact margin, with floors so that no later change makes them worse; and counted 19×19
//! records of other events, which the method was not tuned on (winner only, each record's own
//! komi and rules).
//!
//! Source: `shared/sgf-corpus/` (`INDEX.tsv` names each record's size, komi and result).
//! The time penalties a record states in words (`GC[8 komi, +2 time penalty]`, `C[X 1 Penalty
//! and Y +2.0.]`) are given to the game before it is judged: the recorded result includes
//! them ([`ingo_sgf::Record::time_penalties`]).
//!
//! `INGO_ENDGAME_VERBOSE=1` prints every record that disagrees (`INGO_ENDGAME_ALL=1`: every
//! record); `INGO_ENDGAME_BOARDS=1` adds the board with the judgement, the fills in order, the
//! strings the playouts hold between 10% and 90% of the time, and the count without the fill;
//! `INGO_ENDGAME_ONLY=09/T21` judges only the Ing Cup records whose path holds that text.

use std::path::{Path, PathBuf};

use ingo_player::endgame::{judge_end, EndgameConfig};
use ingo_rules::{Color, Preset, Rules};
use ingo_sgf::ReplayMode;

/// The corpus: `shared/` next to the work tree.
fn corpus_dir() -> Option<PathBuf> {
    ingo_testkit::shared_corpus(Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// A counted result `B+3` / `W+0.5`: the winner and the margin in half points.
fn parse_result(re: &str) -> Option<(Color, i32)> {
    let (w, m) = re.split_once('+')?;
    let color = match w {
        "B" => Color::Black,
        "W" => Color::White,
        _ => return None,
    };
    let m: f64 = m.parse().ok()?;
    Some((color, (m * 2.0).round() as i32))
}

struct Row {
    path: String,
    size: String,
    komi: String,
    result: String,
}

fn index(dir: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(dir.join("INDEX.tsv")).expect("INDEX.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (cp, cs, ck, cr) = (col("path"), col("SZ"), col("KM"), col("RE"));
    lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f.len() > cr)
        .map(|f| Row {
            path: f[cp].to_string(),
            size: f[cs].to_string(),
            komi: f[ck].to_string(),
            result: f[cr].to_string(),
        })
        .collect()
}

/// The final position with the judgement: `x`/`o` dead stones, `#`/`@` seki stones, `b`/`w`
/// points filled by Black/White, `*` seki points.
fn picture(game: &ingo_rules::Game, j: &ingo_player::endgame::Judgement) -> String {
    use ingo_player::endgame::Status;
    let b = game.board();
    let mut out = String::new();
    for r in 0..b.height() {
        for c in 0..b.width() {
            let p = ingo_rules::Point::new(c, r).expect("point");
            let ch = match (b.color_at(p), j.status_at(p)) {
                (Some(Color::Black), Some(Status::Dead)) => 'x',
                (Some(Color::White), Some(Status::Dead)) => 'o',
                (Some(Color::Black), Some(Status::Seki)) => '#',
                (Some(Color::White), Some(Status::Seki)) => '@',
                (Some(Color::Black), _) => 'X',
                (Some(Color::White), _) => 'O',
                (None, _) => match j.fills.iter().find(|f| f.point == p) {
                    Some(f) if f.color == Color::Black => 'b',
                    Some(_) => 'w',
                    None if j.seki_points.contains(&p) => '*',
                    None => '.',
                },
            };
            out.push(ch);
            out.push(' ');
        }
        out.push('\n');
    }
    out
}

#[derive(Default, Debug)]
struct Tally {
    records: usize,
    winner: usize,
    margin: usize,
    unreplayable: usize,
}

/// Judges each record's final position; `rules` gives the rules to replay and count under (the
/// record's komi always).
fn judge_rows(dir: &Path, rows: &[&Row], rules: impl Fn(&ingo_sgf::Record) -> Rules) -> Tally {
    let verbose = std::env::var_os("INGO_ENDGAME_VERBOSE").is_some();
    let mut t = Tally::default();
    for row in rows {
        let Some((rec_winner, rec_margin)) = parse_result(&row.result) else {
            continue;
        };
        let path = dir.join(&row.path);
        let Some(record) = ingo_sgf::parse_file(&path)
            .ok()
            .and_then(|r| r.into_iter().next())
        else {
            t.unreplayable += 1;
            continue;
        };
        let Ok(mut rep) = ingo_sgf::replay(&record, rules(&record), ReplayMode::Strict) else {
            t.unreplayable += 1;
            continue;
        };
        // The time penalties, those the record states in words included: its result includes them.
        for color in [Color::Black, Color::White] {
            rep.game
                .set_penalty(color, *record.time_penalties().get(color));
        }
        if rep.illegal.is_some() {
            t.unreplayable += 1;
            continue;
        }
        t.records += 1;
        let mut config = EndgameConfig::default();
        if let Some(n) = std::env::var("INGO_ENDGAME_PLAYOUTS")
            .ok()
            .and_then(|v| v.parse().ok())
        {
            config.playouts = n;
        }
        // Experiments: who fills the first neutral point.
        match std::env::var("INGO_ENDGAME_FIRST").as_deref() {
            Ok("black") => config.first_to_fill = Some(Color::Black),
            Ok("white") => config.first_to_fill = Some(Color::White),
            Ok("other") => config.first_to_fill = Some(rep.game.to_move().opponent()),
            _ => {}
        }
        let j = judge_end(&rep.game, &config);
        let winner_ok = j.score.winner == rec_winner;
        let margin_ok = winner_ok && j.score.margin_halves.abs() == rec_margin;
        t.winner += usize::from(winner_ok);
        t.margin += usize::from(margin_ok);
        let all = std::env::var_os("INGO_ENDGAME_ALL").is_some();
        if verbose && (!margin_ok || all) {
            println!(
                "{} recorded {} counted {} dead {} fills {} ({}) seki {} to-move {}",
                row.path,
                row.result,
                j.score.result_string(),
                j.dead.len(),
                j.fills.len(),
                if j.fill_read { "read" } else { "one move deep" },
                j.seki_points.len(),
                j.first_to_fill,
            );
            if std::env::var_os("INGO_ENDGAME_BOARDS").is_some() {
                let h = rep.game.board().height();
                let fills: Vec<String> = j
                    .fills
                    .iter()
                    .map(|f| format!("{}{}", f.color.letter(), f.point.to_gtp(h)))
                    .collect();
                println!("fills: {}", fills.join(" "));
                for s in j
                    .strings
                    .iter()
                    .filter(|s| !s.proved && s.held > 0.1 && s.held < 0.9)
                {
                    println!(
                        "uncertain {} {} {:?} held {:.2}",
                        s.color.letter(),
                        s.stones[0].to_gtp(h),
                        s.status,
                        s.held
                    );
                }
                let nofill = ingo_rules::score(
                    rep.game.board(),
                    &j.dead,
                    rep.game.rules().komi,
                    rep.game.penalties(),
                    Color::Black,
                );
                println!(
                    "without the fill: {} shared {}",
                    nofill.result_string(),
                    nofill.shared
                );
                println!("{}", picture(&rep.game, &j));
            }
        }
    }
    t
}

#[test]
fn counted_ing_cup_records_keep_their_agreement_floor() {
    let Some(dir) = corpus_dir() else {
        eprintln!("no corpus next to the work tree: skipped");
        return;
    };
    let rows = index(&dir);
    // `INGO_ENDGAME_ONLY=09/T21` judges only the records whose path holds that text (no floor).
    let only = std::env::var("INGO_ENDGAME_ONLY").ok();
    let ing: Vec<&Row> = rows
        .iter()
        .filter(|r| r.path.starts_with("aeb-pro/Ing/") && r.komi == "8")
        .filter(|r| parse_result(&r.result).is_some())
        .filter(|r| only.as_ref().is_none_or(|o| r.path.contains(o.as_str())))
        .collect();
    let t = judge_rows(&dir, &ing, |r| r.rules_or(Preset::Ing));
    println!("{t:?}");
    if only.is_some() {
        return;
    }
    assert_eq!(t.unreplayable, 0, "{t:?}");
    assert!(t.records >= 70, "{t:?}");
    // Floors just below the figures measured last (75 of 76 winners, 98.7%; 59 of 76 margins,
    // 77.6%, with the time penalties the records state, the fill made with the dead stones on
    // the board and read out by search, and seki ended by a fill): the winner target
    // (98%) is met, its margin target (85%) is not, see docs/endgame.md.
    assert!(t.winner * 100 >= 98 * t.records, "winner {t:?}");
    assert!(t.margin * 100 >= 77 * t.records, "margin {t:?}");
}

#[test]
#[ignore = "140 records: minutes in a debug build; run with --ignored (release: seconds)"]
fn other_counted_19x19_records_name_the_recorded_winner() {
    let Some(dir) = corpus_dir() else {
        eprintln!("no corpus next to the work tree: skipped");
        return;
    };
    let rows = index(&dir);
    // Counted 19×19 records of other events, every 8th in index order (a fixed sample that
    // keeps the test short), each under its own rules and komi.
    let others: Vec<&Row> = rows
        .iter()
        .filter(|r| !r.path.starts_with("aeb-pro/Ing/") && r.size == "19")
        .filter(|r| parse_result(&r.result).is_some())
        .step_by(8)
        .collect();
    let t = judge_rows(&dir, &others, |r| r.rules_or(Preset::Ing));
    println!("{t:?}");
    assert!(t.records >= 100, "{t:?}");
    // Floor just below the figure measured last: 117 of 140 (83.6%; 116 before the fill of a
    // board with more than 64 neutral points was made without looking ahead; 113 before the playouts
    // answered ataris, 119 before the fill was made with the dead stones on the board, which
    // lost three old Japanese records ending with 70 to 200 neutral points, Honinbo_Shuho/219,
    // Hoshiai_Hasseki/1 and Komatsu_Kaizen/8). Many of these games were counted by territory
    // (Japanese and Korean rules), where the margin and, in close games, the winner differ
    // from an area count.
    assert!(t.winner * 100 >= FLOOR_OTHERS * t.records, "winner {t:?}");
}

/// The winner floor (percent) on the other counted records.
const FLOOR_OTHERS: usize = 82;

/// The seki of `01/19` (the first Ing Cup, B+3) ends in the fill: Black's stone J7 lives only
/// on J8 and J6, which it shares with White's string K8 … N6, and K5 is shared with Black's
/// J5 J4, so the final position has three seki points. Black's fill H7 connects J7 to its
/// living group, which ends the seki: J8, J6 and K5 are then dame like any other, filled in
/// turn, and the count is the recorded B+3 (three shared points would make the margin even).
#[test]
fn a_fill_that_connects_a_string_of_a_seki_ends_it() {
    let Some(dir) = corpus_dir() else {
        eprintln!("no corpus next to the work tree: skipped");
        return;
    };
    let path = dir.join("aeb-pro/Ing/01/19.sgf");
    let record = ingo_sgf::parse_file(&path)
        .expect("01/19 reads")
        .into_iter()
        .next()
        .expect("one game");
    let rep = ingo_sgf::replay(&record, record.rules_or(Preset::Ing), ReplayMode::Strict)
        .expect("01/19 replays");
    let j = judge_end(&rep.game, &EndgameConfig::default());
    let p = |name: &str| ingo_rules::Point::from_gtp(name, 19, 19).expect("vertex");
    let at = |name: &str| j.fills.iter().position(|f| f.point == p(name));
    let h7 = at("H7").expect("H7 is filled");
    assert_eq!(j.fills[h7].color, Color::Black);
    for name in ["J8", "J6", "K5"] {
        let k = at(name).unwrap_or_else(|| panic!("{name} is filled: {:?}", j.fills));
        assert!(
            k > h7,
            "{name} is filled after H7 ends the seki: {:?}",
            j.fills
        );
    }
    assert!(j.seki_points.is_empty(), "{:?}", j.seki_points);
    assert_eq!(j.score.result_string(), "B+3");
}
