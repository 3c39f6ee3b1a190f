//! The tournament queries, each run on SQLite and on a real PostgreSQL server.

use ingo_store::testing::TestDb;
use ingo_store::tournament::{self, EntrantRow, GameRow, LogRow};

fn entrant(seq: i64, name: &str) -> EntrantRow {
    EntrantRow {
        seq,
        name: name.to_owned(),
        kind: "pair".to_owned(),
        rank: Some("5d".to_owned()),
        members: "a\t5d\nb\t".to_owned(),
        engine: Some("ingo gtp --playouts 50".to_owned()),
        club: Some("Brno".to_owned()),
        surname: None,
        given_name: Some("Jan".to_owned()),
        country: Some("CZ".to_owned()),
        egd_pin: Some(10_398_608),
        withdrawn: false,
    }
}

fn game(round: i64, board: i64, black: &str, white: Option<&str>) -> GameRow {
    GameRow {
        round,
        board,
        black: black.to_owned(),
        white: white.map(str::to_owned),
        passes: 1,
        komi_halves: 8,
        result: None,
        sgf: None,
        automatic: false,
    }
}

async fn every_query(db: TestDb) {
    let pool = db.store.pool();
    let mut tx = pool.begin().await.expect("begin");
    let id = tournament::create_event(&mut tx, "Cup", "name = \"Cup\"")
        .await
        .expect("create");
    tournament::add_entrant(&mut tx, id, &entrant(1, "A"))
        .await
        .expect("add A");
    tournament::add_entrant(&mut tx, id, &entrant(2, "B"))
        .await
        .expect("add B");
    tournament::insert_games(
        &mut tx,
        id,
        &[game(1, 1, "A", Some("B")), game(1, 2, "C", None)],
    )
    .await
    .expect("games");
    tx.commit().await.expect("commit");

    let mut conn = pool.acquire().await.expect("conn");
    // A second event with the same name is refused.
    assert!(tournament::create_event(&mut conn, "Cup", "")
        .await
        .is_err());
    let events = tournament::events(&mut conn).await.expect("events");
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].agreement, "name = \"Cup\"");
    let ev = tournament::event_by_name(&mut conn, "Cup")
        .await
        .expect("by name")
        .expect("found");
    assert_eq!(ev.id, id);
    assert!(tournament::event_by_name(&mut conn, "Nope")
        .await
        .expect("q")
        .is_none());
    let es = tournament::entrants(&mut conn, id).await.expect("entrants");
    assert_eq!(es, [entrant(1, "A"), entrant(2, "B")]);
    assert!(
        tournament::add_entrant(&mut conn, id, &entrant(3, "A"))
            .await
            .is_err(),
        "names are unique"
    );
    assert!(tournament::set_withdrawn(&mut conn, id, "B", true)
        .await
        .expect("withdraw"));
    assert!(!tournament::set_withdrawn(&mut conn, id, "Z", true)
        .await
        .expect("withdraw"));
    assert!(tournament::entrants(&mut conn, id).await.expect("e")[1].withdrawn);

    assert!(tournament::set_result(&mut conn, id, 1, 1, Some("B+3"))
        .await
        .expect("result"));
    assert!(!tournament::set_result(&mut conn, id, 9, 1, Some("B+3"))
        .await
        .expect("no game"));
    // A played game is recorded once: the second runner's result is refused.
    assert!(tournament::set_result(&mut conn, id, 1, 1, None)
        .await
        .expect("clear"));
    assert!(
        tournament::record_played(&mut conn, id, 1, 1, "W+R", "(;GM[1])")
            .await
            .expect("played")
    );
    assert!(
        !tournament::record_played(&mut conn, id, 1, 1, "B+R", "(;GM[1]X)")
            .await
            .expect("again")
    );
    let gs = tournament::games(&mut conn, id).await.expect("games");
    assert_eq!(gs.len(), 2);
    assert_eq!(
        (gs[0].result.as_deref(), gs[0].sgf.as_deref()),
        (Some("W+R"), Some("(;GM[1])"))
    );
    assert_eq!(
        (gs[1].white.as_deref(), gs[1].result.as_deref()),
        (None, None)
    );
    assert_eq!((gs[0].passes, gs[0].komi_halves), (1, 8));

    // A transaction that is not committed leaves nothing behind.
    let mut tx = pool.begin().await.expect("begin");
    tournament::insert_games(&mut tx, id, &[game(2, 1, "A", Some("B"))])
        .await
        .expect("insert");
    tx.rollback().await.expect("rollback");
    assert_eq!(
        tournament::games(&mut conn, id).await.expect("games").len(),
        2
    );
}

#[tokio::test]
async fn tournament_queries_on_sqlite() {
    every_query(TestDb::sqlite().await.expect("sqlite")).await;
}

#[tokio::test]
async fn tournament_queries_on_postgres() {
    every_query(
        TestDb::postgres()
            .await
            .expect("a PostgreSQL server (scripts/test starts one)"),
    )
    .await;
}

fn log_entry(action: &str, round: Option<i64>, reason: Option<&str>) -> LogRow {
    LogRow {
        seq: 0,
        at_ms: 0,
        action: action.to_owned(),
        round,
        board: round.map(|_| 1),
        entrant: None,
        old_value: Some("B+F:absence".to_owned()),
        new_value: Some("B+T".to_owned()),
        reason: reason.map(str::to_owned),
    }
}

/// The queries of corrections: results given by the rules, rounds deleted, entrants removed
/// (the later seeds moving up) and renamed (in their games too), and the log appended in order.
async fn correction_queries(db: TestDb) {
    let pool = db.store.pool();
    let mut conn = pool.acquire().await.expect("conn");
    let id = tournament::create_event(&mut conn, "Cup", "")
        .await
        .expect("create");
    for (i, n) in ["A", "B", "C", "D"].iter().enumerate() {
        tournament::add_entrant(&mut conn, id, &entrant(i as i64 + 1, n))
            .await
            .expect("add");
    }
    let mut given = game(2, 1, "A", Some("C"));
    given.result = Some("B+F:suspension".to_owned());
    given.automatic = true;
    tournament::insert_games(&mut conn, id, &[game(1, 1, "A", Some("C")), given.clone()])
        .await
        .expect("games");
    let gs = tournament::games(&mut conn, id).await.expect("games");
    assert_eq!((gs[0].automatic, gs[1].automatic), (false, true));
    given.result = None;
    given.automatic = false;
    assert!(tournament::write_result(&mut conn, id, &given)
        .await
        .expect("write"));
    let gs = tournament::games(&mut conn, id).await.expect("games");
    assert_eq!((gs[1].result.as_deref(), gs[1].automatic), (None, false));

    // Removing B moves C and D up a seed.
    assert!(tournament::remove_entrant(&mut conn, id, "B")
        .await
        .expect("remove"));
    assert!(!tournament::remove_entrant(&mut conn, id, "B")
        .await
        .expect("again"));
    let es = tournament::entrants(&mut conn, id).await.expect("entrants");
    let seeds: Vec<(i64, &str)> = es.iter().map(|e| (e.seq, e.name.as_str())).collect();
    assert_eq!(seeds, [(1, "A"), (2, "C"), (3, "D")]);
    // Renaming A renames it in its games; a taken name is refused.
    let mut ann = entrant(1, "Ann");
    ann.rank = Some("2k".to_owned());
    assert!(tournament::update_entrant(&mut conn, id, "A", &ann)
        .await
        .expect("rename"));
    assert!(
        tournament::update_entrant(&mut conn, id, "Ann", &entrant(1, "C"))
            .await
            .is_err()
    );
    let gs = tournament::games(&mut conn, id).await.expect("games");
    assert!(gs.iter().all(|g| g.black == "Ann"));
    let es = tournament::entrants(&mut conn, id).await.expect("entrants");
    assert_eq!(
        (es[0].name.as_str(), es[0].rank.as_deref()),
        ("Ann", Some("2k"))
    );

    assert_eq!(
        tournament::delete_games(&mut conn, id, Some(2))
            .await
            .expect("delete"),
        1
    );
    assert_eq!(
        tournament::delete_games(&mut conn, id, None)
            .await
            .expect("delete"),
        1
    );

    tournament::append_log(
        &mut conn,
        id,
        &[
            log_entry("change", Some(2), Some("seen on the sheet")),
            log_entry("automatic", Some(4), None),
        ],
    )
    .await
    .expect("log");
    tournament::append_log(&mut conn, id, &[log_entry("unpair", None, None)])
        .await
        .expect("log");
    let log = tournament::log(&mut conn, id).await.expect("read log");
    let got: Vec<(i64, &str, Option<i64>, Option<&str>)> = log
        .iter()
        .map(|l| (l.seq, l.action.as_str(), l.round, l.reason.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            (1, "change", Some(2), Some("seen on the sheet")),
            (2, "automatic", Some(4), None),
            (3, "unpair", None, None)
        ]
    );
    assert!(log.iter().all(|l| l.at_ms > 0));
    assert_eq!(log[0].old_value.as_deref(), Some("B+F:absence"));
    assert_eq!(log[0].board, Some(1));
}

#[tokio::test]
async fn correction_queries_on_sqlite() {
    correction_queries(TestDb::sqlite().await.expect("sqlite")).await;
}

#[tokio::test]
async fn correction_queries_on_postgres() {
    correction_queries(
        TestDb::postgres()
            .await
            .expect("a PostgreSQL server (scripts/test starts one)"),
    )
    .await;
}
