//! A game whose stored moves do not replay (a broken database, a hand-edited row) is set aside
//! when the server starts: logged, answered with a clear error, and every other game served.

use ingo_store::server::{self as db, MoveRow};
use serde_json::json;

use crate::*;

async fn a_damaged_game_is_set_aside_and_the_others_served(app: App) {
    let mut ann = user(&app, "ann", "1k").await;
    let mut cid = user(&app, "cid", "1k").await;
    let (mut b1, mut w1, healthy) =
        game_between(&app, &mut ann, &mut cid, json!({"size": 9})).await;
    let (mut b2, _w2, damaged) = game_between(&app, &mut ann, &mut cid, json!({"size": 9})).await;
    play_ok(&mut b1, healthy, "E5").await;
    play_ok(&mut b2, damaged, "E5").await;
    // A second move on the same point, written past the rules.
    let row = db::game_by_id(&app.db.store, damaged)
        .await
        .unwrap()
        .unwrap();
    let bad = MoveRow {
        move_number: 2,
        color: "W".into(),
        mv: "E5".into(),
        at_ms: row.started_ms + 1,
    };
    let written = db::append_moves(&app.db.store, damaged, row.version, &[bad], &row.state)
        .await
        .unwrap();
    assert_eq!(written, db::Appended::Committed);
    // A server starting on this database serves the healthy game...
    let again = spawn_on_store(&app).await;
    for c in [&mut b1, &mut w1, &mut b2] {
        c.addr = again;
    }
    let s = state(&mut w1, healthy).await;
    assert_eq!(s["move_count"], 1, "{s}");
    play_ok(&mut w1, healthy, "D4").await;
    // ...and answers for the damaged one with what is wrong, every time.
    for _ in 0..2 {
        let r = b2.get(&format!("/api/games/{damaged}")).await.unwrap();
        assert_eq!(r.status, 503, "{:?}", r.body);
        assert_eq!(r.body["reason"], "damaged-game", "{:?}", r.body);
        let msg = r.body["message"].as_str().unwrap();
        assert!(msg.contains("move 2"), "{msg}");
    }
    // Nothing stored was changed.
    assert_eq!(db::moves_of(&app.db.store, damaged).await.unwrap().len(), 2);
}

on_both_databases!(a_damaged_game_is_set_aside_and_the_others_served: a_damaged_game_is_set_aside_on_sqlite, a_damaged_game_is_set_aside_on_postgres);
