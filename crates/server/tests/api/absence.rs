//! A game against a program that its person abandons ends by the absence rule (缺席), so that
//! it frees the program: after `program_absence_ms` (an hour by default) without a move the
//! person forfeits, found by the game's timer with nobody connected. Games between people are
//! left to their clocks.

use std::time::Duration;

use ingo_server::wall::ManualClock;
use ingo_store::testing::TestDb;
use serde_json::{json, Value};

use crate::*;

const MINUTE: Duration = Duration::from_secs(60);

#[tokio::test]
async fn an_abandoned_game_against_a_program_is_forfeited_by_absence() {
    bounded(async {
        let clock = ManualClock::starting_now();
        let app = spawn_with_clock(TestDb::sqlite().await.unwrap(), clock.clone().into()).await;
        let mut p = user(&app, "ann", "1k").await;
        let r = p
            .post(
                "/api/games/bot",
                json!({"size": 9, "playouts": 50, "color": "black", "time_control": "none"}),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 201, "{:?}", r.body);
        let bot_game = r.body["game_id"].as_i64().unwrap();
        // A game between two people, untimed too: nobody's program, nobody's absence.
        let mut q = user(&app, "cid", "1k").await;
        let (_b, _w, people) = game_between(
            &app,
            &mut p,
            &mut q,
            json!({"size": 9, "time_control": "none"}),
        )
        .await;
        let mut events = app.state.subscribe(bot_game);
        // Black moves once; the program answers.
        play_ok(&mut p, bot_game, "E5").await;
        tokio::time::timeout(Duration::from_secs(30), async {
            loop {
                let e: Value = serde_json::from_str(&events.recv().await.unwrap()).unwrap();
                if e["type"] == "move" && e["number"] == 2 {
                    return;
                }
            }
        })
        .await
        .expect("the program answered");
        // 59 minutes without a move: still playing.
        clock.advance(MINUTE * 59);
        assert_eq!(state(&mut p, bot_game).await["phase"], "playing");
        // An hour and a millisecond: absent, and the timer ends the game by itself.
        clock.advance(MINUTE + Duration::from_millis(1));
        let ended = tokio::time::timeout(Duration::from_secs(30), async {
            loop {
                let e: Value = serde_json::from_str(&events.recv().await.unwrap()).unwrap();
                if e["type"] == "state" && e["game"]["phase"] == "ended" {
                    return e["game"].clone();
                }
            }
        })
        .await
        .expect("the absence was declared");
        assert_eq!(ended["result"]["result"], "W+F", "{ended}");
        assert_eq!(ended["result"]["reason"], "absence", "{ended}");
        let row = ingo_store::server::game_by_id(&app.db.store, bot_game)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(row.state.end_reason.as_deref(), Some("absence"));
        // It replays from the store as it ended.
        let again = spawn_on_store(&app).await;
        p.addr = again;
        let s = state(&mut p, bot_game).await;
        assert_eq!(s["result"]["result"], "W+F");
        assert_eq!(s["phase"], "ended");
        // The people's game goes on.
        assert_eq!(state(&mut p, people).await["phase"], "playing");
    })
    .await;
}
