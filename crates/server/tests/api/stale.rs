//! No result from a stale copy: two servers on one database, one of which never hears of the
//! other's changes (a server whose notifications are lost, as when the other's LISTEN
//! connection is cut, or two servers on one SQLite file, which have no relay at all). Every
//! change judged on a copy another server has made stale must be judged again on what is
//! committed: a dead-stone acceptance, a loss on time from the timer. And on PostgreSQL a
//! server whose LISTEN connection is terminated (`pg_terminate_backend`) notices, drops its
//! copies and tells its subscribers each game again.

use std::net::SocketAddr;
use std::time::Duration;

use ingo_server::client::Client;
use ingo_server::wall::{ManualClock, WallClock};
use ingo_server::{AppState, Config};
use serde_json::{json, Value};

use crate::*;

/// A server on `app`'s database that sends no notification of its changes to the others: the
/// others' copies of a game it changes go stale, as when their LISTEN connection is cut.
async fn silent_server(app: &App, clock: WallClock) -> (SocketAddr, AppState) {
    let config = Config {
        database_url: app.db.url.clone(),
        ..Config::default()
    };
    let store = ingo_store::Store::open(&app.db.url).await.unwrap();
    let state = AppState::with_clock(store, config, clock);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    // The router alone: no LISTEN/NOTIFY relay.
    let served = state.clone();
    tokio::spawn(async move {
        axum::serve(
            listener,
            ingo_server::app(served).into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
    });
    (addr, state)
}

/// `c` accepts the dead stones `proposal` of game `gid`; the answer.
async fn accept(c: &mut Client, gid: i64, proposal: &Value) -> ingo_server::client::Reply {
    c.post(
        &format!("/api/games/{gid}/dead/accept"),
        json!({ "dead": proposal }),
    )
    .await
    .unwrap()
}

/// The game as the database holds it: (status, result, moves).
async fn stored(app: &App, gid: i64) -> (String, Option<String>, Vec<String>) {
    let row = ingo_store::server::game_by_id(&app.db.store, gid)
        .await
        .unwrap()
        .unwrap();
    let moves = ingo_store::server::moves_of(&app.db.store, gid)
        .await
        .unwrap();
    (
        row.state.status,
        row.state.result,
        moves.into_iter().map(|m| m.mv).collect(),
    )
}

/// The first event of `events` that `pred` picks, within a bound.
async fn first_event(
    events: &mut tokio::sync::broadcast::Receiver<ingo_server::Broadcast>,
    pred: impl Fn(&Value) -> bool,
) -> Value {
    tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            let e: Value = serde_json::from_str(&events.recv().await.unwrap()).unwrap();
            if pred(&e) {
                return e;
            }
        }
    })
    .await
    .expect("the event came within its bound")
}

/// Waits for game `gid`'s ending on `events` and checks that it was published and stored
/// with `result` and exactly the moves `moves`.
async fn ends_as_stored(
    app: &App,
    events: &mut tokio::sync::broadcast::Receiver<ingo_server::Broadcast>,
    gid: i64,
    result: &str,
    moves: &[&str],
) {
    let ended = first_event(events, |e| {
        e["type"] == "state" && e["game"]["phase"] == "ended"
    })
    .await;
    assert_eq!(ended["game"]["result"]["result"], result, "{ended}");
    let (status, stored_result, stored_moves) = stored(app, gid).await;
    assert_eq!(status, "ended");
    assert_eq!(stored_result.as_deref(), Some(result));
    assert_eq!(stored_moves, moves);
}

/// Play suspended; White accepts the proposal through server B; White resumes play with a
/// move through server A, which B never hears of; Black then accepts the old proposal through
/// B. B's copy says both have accepted, but the store says play has resumed: the acceptance
/// is judged again on what is committed and refused, the game goes on with White's move, and
/// both servers still serve it (a game ended by agreement with a move after the suspension
/// would replay on neither).
async fn a_stale_copy_commits_no_agreement(app: App) {
    let (silent, _) = silent_server(&app, WallClock::System).await;
    let mut ann = user(&app, "ann", "1k").await;
    let mut cid = user(&app, "cid", "1k").await;
    let (mut b, mut w, gid) = game_between(&app, &mut ann, &mut cid, json!({"size": 9})).await;
    play_ok(&mut b, gid, "E5").await;
    play_ok(&mut w, gid, "pass").await;
    play_ok(&mut b, gid, "pass").await;
    let s = state(&mut w, gid).await;
    assert_eq!(s["phase"], "suspended");
    let proposal = s["dead_stones"]["proposal"].clone();
    let r = accept(&mut w, gid, &proposal).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    // White resumes play through the silent server.
    let mut w_silent = w.clone();
    w_silent.addr = silent;
    play_ok(&mut w_silent, gid, "C3").await;
    // Black accepts the proposal through B, whose copy has not heard of C3.
    let r = accept(&mut b, gid, &proposal).await;
    assert_eq!(r.status, 409, "{:?}", r.body);
    assert_eq!(r.body["reason"], "not-suspended", "{:?}", r.body);
    let (status, result, moves) = stored(&app, gid).await;
    assert_eq!((status.as_str(), result), ("playing", None));
    assert_eq!(moves, ["E5", "pass", "pass", "C3"]);
    // Both servers serve the game, with White's move on the board.
    for c in [&mut b, &mut w_silent] {
        let s = state(c, gid).await;
        assert_eq!(s["phase"], "playing", "{s}");
        assert_eq!(s["move_count"], 4, "{s}");
    }
}

on_both_databases!(a_stale_copy_commits_no_agreement: a_stale_copy_commits_no_agreement_on_sqlite, a_stale_copy_commits_no_agreement_on_postgres);

/// Sudden death of 20 s. The server holds the game with Black to move; Black's move at 5 s is
/// committed by another server (here written to the store as that server would), which this
/// one never hears of. At 21 s its timer finds Black's 20 s used up on its copy: that loss is
/// judged again on what is committed (White to move since 5 s, 4 s left), so no `W+T`; White
/// then runs out at 25 s and the game is `B+T`.
async fn a_stale_timer_commits_no_loss_on_time(db: ingo_store::testing::TestDb) {
    let clock = ManualClock::starting_now();
    let app = spawn_with_clock(db, clock.clone().into()).await;
    let mut ann = user(&app, "ann", "1k").await;
    let mut cid = user(&app, "cid", "1k").await;
    let (mut b, _w, gid) = game_between(
        &app,
        &mut ann,
        &mut cid,
        json!({"size": 9, "time_control": "absolute:20s"}),
    )
    .await;
    // The server holds the game (and runs its timer); its events, seen from inside.
    let s = state(&mut b, gid).await;
    assert_eq!(s["phase"], "playing");
    let mut events = app.state.subscribe(gid);
    clock.advance(Duration::from_secs(5));
    // Another server commits Black's move on version 0.
    let row = ingo_store::server::game_by_id(&app.db.store, gid)
        .await
        .unwrap()
        .unwrap();
    let e5 = ingo_store::server::MoveRow {
        move_number: 1,
        color: "B".into(),
        mv: "E5".into(),
        at_ms: clock.now_ms(),
    };
    let committed = ingo_store::server::append_moves(&app.db.store, gid, 0, &[e5], &row.state)
        .await
        .unwrap();
    assert_eq!(committed, ingo_store::server::Appended::Committed);
    // Black's 20 s are over on this server's copy; White's are not, then they are.
    clock.advance(Duration::from_secs(16));
    clock.advance(Duration::from_secs(5));
    ends_as_stored(&app, &mut events, gid, "B+T", &["E5"]).await;
}

#[tokio::test]
async fn a_stale_timer_commits_no_loss_on_time_on_sqlite() {
    bounded(async {
        a_stale_timer_commits_no_loss_on_time(ingo_store::testing::TestDb::sqlite().await.unwrap())
            .await
    })
    .await;
}

#[tokio::test]
async fn a_stale_timer_commits_no_loss_on_time_on_postgres() {
    bounded(async {
        a_stale_timer_commits_no_loss_on_time(
            ingo_store::testing::TestDb::postgres()
                .await
                .expect("a PostgreSQL server (scripts/test starts one)"),
        )
        .await
    })
    .await;
}

/// Terminates the LISTEN connections of `app`'s database (as a network fault or a database
/// restart would); the number terminated.
async fn cut_listeners(app: &App) -> i64 {
    let admin = ingo_store::Store::open(&app.db.url).await.unwrap();
    let row: (i64,) = sqlx::query_as(
        "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND query LIKE 'LISTEN%' \
         AND pid <> pg_backend_pid()) AS cut",
    )
    .fetch_one(admin.pool())
    .await
    .unwrap();
    row.0
}

/// Waits, within a bound, until `n` LISTEN connections are open on `app`'s database.
async fn listeners_back(app: &App, n: i64) {
    let admin = ingo_store::Store::open(&app.db.url).await.unwrap();
    tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            let row: (i64,) = sqlx::query_as(
                "SELECT count(*) FROM pg_stat_activity \
                 WHERE datname = current_database() AND query LIKE 'LISTEN%'",
            )
            .fetch_one(admin.pool())
            .await
            .unwrap();
            if row.0 >= n {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the servers listen again");
}

/// Two servers on PostgreSQL with their relays; B's LISTEN connection is terminated. B notices,
/// drops its copies and tells its subscribers the game again; the stale-copy scenario of
/// [`a_stale_copy_commits_no_agreement`] then ends the same way whichever of B's copies
/// answers; and B's relay works again: A's next move reaches B's subscribers.
#[tokio::test]
async fn a_cut_listener_drops_every_copy_on_postgres() {
    bounded(async {
        let app = postgres().await;
        let other = spawn_on_store(&app).await;
        let mut ann = user(&app, "ann", "1k").await;
        let mut cid = user(&app, "cid", "1k").await;
        let (mut b, mut w, gid) = game_between(&app, &mut ann, &mut cid, json!({"size": 9})).await;
        play_ok(&mut b, gid, "E5").await;
        play_ok(&mut w, gid, "pass").await;
        play_ok(&mut b, gid, "pass").await;
        let proposal = state(&mut w, gid).await["dead_stones"]["proposal"].clone();
        let r = accept(&mut w, gid, &proposal).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        let mut events = app.state.subscribe(gid);
        assert!(
            cut_listeners(&app).await >= 1,
            "a LISTEN connection was cut"
        );
        // B (the first server) tells its subscribers the game again once it notices.
        let refreshed = first_event(&mut events, |e| e["type"] == "state").await;
        assert_eq!(refreshed["game"]["phase"], "suspended", "{refreshed}");
        // White resumes play through the other server; Black accepts the old proposal through B.
        let mut w_other = w.clone();
        w_other.addr = other;
        play_ok(&mut w_other, gid, "C3").await;
        let r = accept(&mut b, gid, &proposal).await;
        assert_eq!(r.status, 409, "{:?}", r.body);
        let (status, result, moves) = stored(&app, gid).await;
        assert_eq!((status.as_str(), result), ("playing", None));
        assert_eq!(moves, ["E5", "pass", "pass", "C3"]);
        // B's relay listens again (both servers' LISTEN connections are back): Black's move
        // through the other server reaches B's subscribers.
        listeners_back(&app, 2).await;
        let mut b_other = b.clone();
        b_other.addr = other;
        play_ok(&mut b_other, gid, "D4").await;
        let moved = first_event(&mut events, |e| e["type"] == "move" && e["move"] == "D4").await;
        assert_eq!(moved["number"], 5, "{moved}");
    })
    .await;
}

/// Makes the PostgreSQL database behind `app` refuse every move, at once or after a second
/// (`slowly`): a trigger that stands in for a connection cut under the commit, until
/// [`accept_moves`].
async fn refuse_moves(app: &App, slowly: bool) {
    let function = if slowly {
        "CREATE FUNCTION refuse_move() RETURNS trigger AS $$ \
         BEGIN PERFORM pg_sleep(1); RAISE EXCEPTION 'the move is refused'; END $$ \
         LANGUAGE plpgsql"
    } else {
        "CREATE FUNCTION refuse_move() RETURNS trigger AS $$ \
         BEGIN RAISE EXCEPTION 'the move is refused'; END $$ LANGUAGE plpgsql"
    };
    for sql in [
        function,
        "CREATE TRIGGER refuse_move BEFORE INSERT ON server_moves \
         FOR EACH ROW EXECUTE FUNCTION refuse_move()",
    ] {
        sqlx::query(sql).execute(app.db.store.pool()).await.unwrap();
    }
}

/// The database behind `app` takes moves again.
async fn accept_moves(app: &App) {
    for sql in [
        "DROP TRIGGER refuse_move ON server_moves",
        "DROP FUNCTION refuse_move()",
    ] {
        sqlx::query(sql).execute(app.db.store.pool()).await.unwrap();
    }
}

/// A 9×9 game between ann and bob (2d each) on `app`, Black's C3 and White's G7 played: the
/// clients of Black and White, and the game.
async fn two_moves_played(app: &App) -> (Client, Client, i64) {
    let mut a = user(app, "ann", "2d").await;
    let mut b = user(app, "bob", "2d").await;
    let (mut black, mut white, gid) = game_between(app, &mut a, &mut b, json!({"size": 9})).await;
    play_ok(&mut black, gid, "C3").await;
    play_ok(&mut white, gid, "G7").await;
    (black, white, gid)
}

/// A move whose commit fails is acknowledged to nobody. The first request for it holds the
/// game while the database takes a second and refuses the move (a trigger stands in for a
/// connection cut under it); the same move sent again meanwhile (a client that gave up
/// waiting, a double click, an engine's driver) waits for the game, and must then be judged on
/// what is committed, not answered "already stored" from the copy the failed request had
/// changed; and a player who asks for the game meanwhile is shown what is stored. The two
/// moves go to `play_move` itself, so that the second one waits for the game's lock there.
/// Once the database takes moves again, the move is stored once.
#[tokio::test]
async fn a_move_whose_commit_fails_is_acknowledged_to_nobody() {
    use ingo_server::play::submit::play_move;
    bounded(async {
        let app = postgres().await;
        let (mut black, mut white, gid) = two_moves_played(&app).await;
        let black_id = id_of(&mut black).await;
        refuse_moves(&app, true).await;
        let play = &app.state.play;
        let mut viewer = white.clone();
        let (first, second, shown) = tokio::join!(
            play_move(play, black_id, gid, "C7", Some(3)),
            async {
                tokio::time::sleep(Duration::from_millis(300)).await;
                play_move(play, black_id, gid, "C7", Some(3)).await
            },
            async {
                tokio::time::sleep(Duration::from_millis(300)).await;
                state(&mut viewer, gid).await
            }
        );
        // A player looking at the game meanwhile is shown what is stored.
        assert_eq!(shown["moves"].as_array().map(Vec::len), Some(2), "{shown}");
        assert!(first.is_err(), "{first:?}");
        let (_, _, moves) = stored(&app, gid).await;
        assert_eq!(moves, ["C3", "G7"], "nothing was stored");
        assert!(
            second.is_err(),
            "a move the database refused was acknowledged: {second:?}"
        );
        accept_moves(&app).await;
        let ack = play_move(play, black_id, gid, "C7", Some(3)).await.unwrap();
        assert!(!ack.duplicate, "{ack:?}");
        let (_, _, moves) = stored(&app, gid).await;
        assert_eq!(moves, ["C3", "G7", "C7"]);
        // What the server shows is what is stored.
        assert_eq!(
            state(&mut white, gid).await["moves"]
                .as_array()
                .map(Vec::len),
            Some(3)
        );
    })
    .await;
}

/// The timer judges no loss on time on a copy a failed change left behind. Sudden death of
/// 20 s: White moves with 0.1 s left, Black's clock then runs to its flag at 39.9 s, and the
/// server's timer sleeps until that flag. At 39.85 s Black's move is refused by the database
/// (a trigger stands in for a connection cut under it): the copy that played it (White to
/// move, White's 0.1 s running) is discarded, but the timer still holds it. When the clock
/// passes 39.9 s, the timer must read the game again from the store, where Black never moved
/// and Black's time is up (W+T), not find White's 0.1 s used up on the discarded copy and
/// commit B+T with a board and clocks that hold a move nobody stored.
#[tokio::test]
async fn the_timer_judges_no_loss_on_a_copy_a_failed_move_left() {
    use ingo_server::play::submit::play_move;
    bounded(async {
        let clock = ManualClock::starting_now();
        let db = ingo_store::testing::TestDb::postgres()
            .await
            .expect("a PostgreSQL server (scripts/test starts one)");
        let app = spawn_with_clock(db, clock.clone().into()).await;
        let mut ann = user(&app, "ann", "1k").await;
        let mut cid = user(&app, "cid", "1k").await;
        let (mut b, mut w, gid) = game_between(
            &app,
            &mut ann,
            &mut cid,
            json!({"size": 9, "time_control": "absolute:20s"}),
        )
        .await;
        clock.advance(Duration::from_secs(1));
        play_ok(&mut b, gid, "E5").await;
        clock.advance(Duration::from_millis(19_900));
        play_ok(&mut w, gid, "C3").await;
        let s = state(&mut b, gid).await;
        assert_eq!(s["phase"], "playing", "{s}");
        let mut events = app.state.subscribe(gid);
        let black_id = id_of(&mut b).await;
        refuse_moves(&app, false).await;
        clock.advance(Duration::from_millis(18_950));
        let refused = play_move(&app.state.play, black_id, gid, "G7", Some(3)).await;
        assert!(refused.is_err(), "{refused:?}");
        clock.advance(Duration::from_millis(600));
        ends_as_stored(&app, &mut events, gid, "W+T", &["E5", "C3"]).await;
        accept_moves(&app).await;
        // The server shows what is stored.
        let s = state(&mut w, gid).await;
        assert_eq!(s["move_count"], 2, "{s}");
        assert_eq!(s["result"]["result"], "W+T", "{s}");
    })
    .await;
}

/// A request to take back a move is judged on what is stored, never on a copy a failed move
/// left behind. Black has played C7; White's answer takes the database a second and is
/// refused (a trigger); Black asks meanwhile to take C7 back, and waits for the game. The copy
/// the failed request changed shows White's unstored move last, on which Black's request would
/// be refused ("not-your-move"); judged on what is stored, C7 is Black's last move and the
/// request stands. White grants it and C7 is taken back.
#[tokio::test]
async fn a_request_to_take_back_is_judged_on_what_is_stored() {
    use ingo_server::play::submit::play_move;
    use ingo_server::play::undo;
    bounded(async {
        let app = postgres().await;
        let (mut black, mut white, gid) = two_moves_played(&app).await;
        play_ok(&mut black, gid, "C7").await;
        let (black_id, white_id) = (id_of(&mut black).await, id_of(&mut white).await);
        refuse_moves(&app, true).await;
        let play = &app.state.play;
        let (refused, asked) = tokio::join!(play_move(play, white_id, gid, "D4", Some(4)), async {
            tokio::time::sleep(Duration::from_millis(300)).await;
            undo::request(play, black_id, gid).await
        });
        assert!(refused.is_err(), "{refused:?}");
        let asked = asked.expect("C7 is Black's last stored move: the request stands");
        assert_eq!(asked.move_count, 3);
        accept_moves(&app).await;
        undo::answer(play, white_id, gid, true).await.unwrap();
        let (_, _, moves) = stored(&app, gid).await;
        assert_eq!(moves, ["C3", "G7"]);
    })
    .await;
}
