//! The tournament queries, each run on SQLite and on a real PostgreSQL server.

use ingo_store::testing::TestDb;
use ingo_store::tournament::{self, EntrantRow, GameRow};

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
