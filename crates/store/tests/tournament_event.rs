//! An event written from ingo-tournament's types reads back as the same event (entrants with
//! their club, names, country and EGD PIN), on SQLite and
//! on a real PostgreSQL server; a database with no event, or several, says so.

use ingo_rules::Komi;
use ingo_store::testing::TestDb;
use ingo_store::tournament::{self, entrant_row, game_row, load_event, LoadError};
use ingo_tournament::{Agreement, Event, Game};

const AGREEMENT: &str = r#"
name = "Club cup"
purpose = "Friendly"
eligibility = "Members"
registration = { opens = "2026-01-01", closes = "2026-01-31" }
format = { kind = "swiss", rounds = 2 }
entrants = [
    { name = "Ann", rank = "3d", club = "Berlin", surname = "Lee", given_name = "Ann Marie", country = "de", egd_pin = 12345678 },
    { name = "Bo", club = "Brno" },
    { name = "Cy", rank = "2k" },
]
"#;

async fn round_trip(db: TestDb) {
    let pool = db.store.pool();
    let mut conn = pool.acquire().await.expect("conn");
    assert!(matches!(
        load_event(&mut conn, None).await,
        Err(LoadError::NoEvent)
    ));
    let agreement = Agreement::from_toml(AGREEMENT).expect("agreement");
    let mut ev = Event::new(agreement.clone());
    let id = tournament::create_event(&mut conn, "Club cup", AGREEMENT)
        .await
        .expect("create");
    for (i, e) in agreement.entrants.iter().enumerate() {
        tournament::add_entrant(&mut conn, id, &entrant_row(i as i64 + 1, e))
            .await
            .expect("add");
    }
    ev.entrants = agreement.entrants.clone();
    ev.entrants[1].withdrawn = true;
    tournament::set_withdrawn(&mut conn, id, "Bo", true)
        .await
        .expect("withdraw");
    let mut g = Game::new(1, 1, "Ann", Some("Cy"), 2, Komi(-1));
    g.result = Some("W+F:absence".parse().expect("result"));
    ev.games = vec![g, Game::new(1, 2, "Bo", None, 0, Komi::points(8))];
    tournament::insert_games(
        &mut conn,
        id,
        &ev.games.iter().map(game_row).collect::<Vec<_>>(),
    )
    .await
    .expect("games");

    let (read_id, read) = load_event(&mut conn, None).await.expect("load");
    assert_eq!(read_id, id);
    assert_eq!(read.agreement, ev.agreement);
    assert_eq!(read.entrants, ev.entrants);
    // The club, names, country and PIN are kept (the pairing keeps a club apart, the EGF
    // file writes the rest).
    assert_eq!(read.entrants[0].club.as_deref(), Some("Berlin"));
    assert_eq!(read.entrants[0].country.as_deref(), Some("DE"));
    assert_eq!(read.entrants[0].egd_pin, Some(12_345_678));
    assert_eq!(read.games, ev.games);
    let (_, by_name) = load_event(&mut conn, Some("Club cup"))
        .await
        .expect("by name");
    assert_eq!(by_name.games, ev.games);

    let e = load_event(&mut conn, Some("Nope"))
        .await
        .expect_err("no such");
    assert_eq!(e.to_string(), "no event named \"Nope\"");
    tournament::create_event(&mut conn, "Other", AGREEMENT)
        .await
        .expect("second");
    let e = load_event(&mut conn, None).await.expect_err("two events");
    assert_eq!(
        e.to_string(),
        "holds 2 events; choose one with --event: \"Club cup\", \"Other\""
    );
}

#[tokio::test]
async fn an_event_reads_back_on_sqlite() {
    round_trip(TestDb::sqlite().await.expect("sqlite")).await;
}

#[tokio::test]
async fn an_event_reads_back_on_postgres() {
    round_trip(
        TestDb::postgres()
            .await
            .expect("a PostgreSQL server (scripts/test starts one)"),
    )
    .await;
}
