//! What a director prints on the day, through `ingo tournament`: a round's pairing sheet and
//! result slips (`sheet`), the wall list (`wall`), the crosstable in round order
//! (`crosstable --by-round`), each checked as Chromium prints it: A4 pages, the 20 boards of a
//! 40-player round on one sheet, four result slips a page; and the running state of a
//! 十局升降制 match in `standings`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ingo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ingo"))
        .args(args)
        .output()
        .expect("run ingo")
}

fn ok(args: &[&str]) -> String {
    let out = ingo(args);
    assert!(
        out.status.success(),
        "ingo {args:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// Chromium's print of `html` to PDF: the number of pages and whether each is A4 (595 × 842
/// points).
fn print_pages(dir: &Path, html: &Path) -> (usize, bool) {
    let pdf = dir.join(format!(
        "{}.pdf",
        html.file_stem().and_then(|s| s.to_str()).unwrap_or("page")
    ));
    let out = Command::new(ingo_testkit::CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-pdf-header-footer",
            &format!("--user-data-dir={}", dir.join("chromium").display()),
            &format!("--print-to-pdf={}", pdf.display()),
            &format!("file://{}", html.display()),
        ])
        .output()
        .expect("run chromium");
    assert!(out.status.success(), "{out:?}");
    let bytes = std::fs::read(&pdf).expect("pdf");
    let text = String::from_utf8_lossy(&bytes);
    let boxes: Vec<&str> = text
        .match_indices("/MediaBox")
        .map(|(i, _)| &text[i..])
        .collect();
    let a4 = boxes.iter().all(|b| {
        let nums: Vec<f64> = b
            .split(['[', ']'])
            .nth(1)
            .unwrap_or("")
            .split_whitespace()
            .filter_map(|n| n.parse().ok())
            .collect();
        nums.len() == 4 && (nums[2] - 595.0).abs() < 1.5 && (nums[3] - 842.0).abs() < 1.5
    });
    // Page objects are `/Type /Page`; the page tree is `/Type /Pages`.
    let pages = text
        .match_indices("/Type")
        .filter(|(i, _)| {
            text[i + 5..]
                .trim_start()
                .strip_prefix("/Page")
                .is_some_and(|r| !r.starts_with('s'))
        })
        .count();
    (pages, a4 && !boxes.is_empty())
}

const AGREEMENT: &str = r#"name = "Brno Autumn McMahon"
purpose = "Test of the printed sheets"
eligibility = "Open"
registration = { opens = "2026-10-01", closes = "2026-11-27" }
handicap = { system = "mcmahon" }
format = { kind = "mcmahon", rounds = 6, bar = "2d", floor = "15k" }
"#;

#[test]
fn a_rounds_sheets_the_wall_list_and_the_crosstable_print_on_a4() {
    let dir = tempfile::tempdir().expect("dir");
    let d = dir.path();
    let db = d.join("brno.db").display().to_string();
    let agreement = d.join("brno.toml");
    std::fs::write(&agreement, AGREEMENT).expect("write");
    ok(&[
        "tournament",
        "create",
        &agreement.display().to_string(),
        "--db",
        &db,
    ]);
    let list = data("tournament_mcmahon40_players.csv");
    ok(&[
        "tournament",
        "import",
        &list.display().to_string(),
        "--db",
        &db,
    ]);
    ok(&[
        "tournament",
        "add",
        "Ivan Petrov",
        "--rank",
        "3k",
        "--db",
        &db,
    ]);
    ok(&["tournament", "pair", "--db", &db]);
    for b in 1..=10 {
        ok(&[
            "tournament",
            "result",
            "1",
            &b.to_string(),
            "B+R",
            "--db",
            &db,
        ]);
    }
    let sheet = d.join("round1.html");
    let slips = d.join("slips1.html");
    let wall = d.join("wall.html");
    let by_round = d.join("crosstable.html");
    let (s, sl, w, c) = (
        sheet.display().to_string(),
        slips.display().to_string(),
        wall.display().to_string(),
        by_round.display().to_string(),
    );
    ok(&[
        "tournament",
        "sheet",
        "1",
        "--html",
        &s,
        "--slips",
        &sl,
        "--db",
        &db,
    ]);
    ok(&["tournament", "wall", "--html", &w, "--db", &db]);
    ok(&[
        "tournament",
        "crosstable",
        "--by-round",
        "--html",
        &c,
        "--db",
        &db,
    ]);
    let page = std::fs::read_to_string(&sheet).expect("sheet");
    assert_eq!(
        page.matches("<td class=\"c fill\">B+R</td>").count(),
        10,
        "{page}"
    );
    assert_eq!(
        page.matches("<td class=\"c fill\"></td>").count(),
        10,
        "{page}"
    );
    let text = ok(&["tournament", "crosstable", "--by-round", "--db", &db]);
    assert!(text.contains(" R1"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&ok(&[
        "tournament",
        "crosstable",
        "--by-round",
        "--json",
        "--db",
        &db,
    ]))
    .expect("json");
    let players = json["players"].as_array().expect("players");
    assert_eq!(players.len(), 40);
    assert!(players
        .iter()
        .all(|p| p["rounds"].as_array().is_some_and(|r| r.len() == 1)));
    // An unpaired round has no sheet.
    let out = ingo(&["tournament", "sheet", "2", "--db", &db]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("round 2 is not paired"));

    if !ingo_testkit::chromium() {
        return;
    }
    // The 20 boards of the round on one A4 sheet; 20 slips, four a page; the wall list of 40
    // players on A4 pages; the crosstable on A4.
    assert_eq!(print_pages(d, &sheet), (1, true), "the pairing sheet");
    assert_eq!(print_pages(d, &slips), (5, true), "the result slips");
    let (pages, a4) = print_pages(d, &wall);
    assert!(
        a4 && (1..=2).contains(&pages),
        "the wall list: {pages} pages"
    );
    let (pages, a4) = print_pages(d, &by_round);
    assert!(a4 && pages == 1, "the crosstable: {pages} pages");
}

/// `standings` of a 十局升降制 match says the score, the handicap and the lead.
#[test]
fn a_ten_game_match_shows_its_handicap_and_lead() {
    let dir = tempfile::tempdir().expect("dir");
    let agreement = dir.path().join("ten.toml");
    std::fs::write(
        &agreement,
        r#"name = "Ten"
purpose = "Match"
eligibility = "Two"
registration = { opens = "2026-01-01", closes = "2026-01-31" }
format = { kind = "ten-game" }
entrants = [{ name = "Ann" }, { name = "Bo" }]
"#,
    )
    .expect("write");
    let db = dir.path().join("ten.db").display().to_string();
    ok(&[
        "tournament",
        "create",
        &agreement.display().to_string(),
        "--db",
        &db,
    ]);
    for round in 1..=4 {
        let out = ok(&["tournament", "pair", "--db", &db]);
        let ann_black = out.contains("Ann (B)");
        ok(&[
            "tournament",
            "result",
            &round.to_string(),
            "1",
            if ann_black { "B+R" } else { "W+R" },
            "--db",
            &db,
        ]);
    }
    let text = ok(&["tournament", "standings", "--db", &db]);
    assert!(
        text.starts_with(
            "Match: Ann 4 – 0 Bo after 4 of 10 games; handicap: Ann gives Bo 4 point(s)"
        ),
        "{text}"
    );
    let wall = ok(&["tournament", "wall", "--db", &db]);
    assert!(wall.contains("Match: Ann 4 – 0 Bo"), "{wall}");
}
