//! Games over HTTP, to a count, on both databases.

use ingo_server::wall::ManualClock;
use ingo_store::testing::TestDb;
use serde_json::{json, Value};

use crate::*;

/// A 9×9 game: a ko whose immediate retake is refused with its reason and sentence, retaken
/// after a pass; two passes suspend play; White proposes a dead stone, Black accepts; the
/// count with its fill-in breakdown.
async fn game_to_count(app: App) {
    let mut alice = user(&app, "alice", "3d").await;
    let mut bob = user(&app, "bob", "3d").await;
    let (mut b, mut w, gid) = game_between(
        &app,
        &mut alice,
        &mut bob,
        json!({"size": 9, "handicap": "nigiri", "time_control": "ing-pp:1h"}),
    )
    .await;
    let s = state(&mut b, gid).await;
    assert_eq!(
        (s["size"].as_i64(), s["phase"].as_str()),
        (Some(9), Some("playing"))
    );
    assert_eq!(s["komi"].as_f64(), Some(8.0));
    for (c, mv) in [
        ("b", "C5"),
        ("w", "E6"),
        ("b", "D6"),
        ("w", "F5"),
        ("b", "D4"),
        ("w", "E4"),
        ("b", "A1"),
        ("w", "D5"),
        ("b", "E5"),
    ] {
        play_ok(if c == "b" { &mut b } else { &mut w }, gid, mv).await;
    }
    // White's immediate retake of the hot stone is refused, with the rule's sentence.
    let r = play(&mut w, gid, "D5").await;
    assert_eq!(r.status, 422, "{:?}", r.body);
    assert_eq!(r.body["reason"], "hot-stone");
    let msg = r.body["message"].as_str().unwrap();
    assert!(msg.contains("a pass included"), "{msg}");
    // After a pass (and Black's answer) the ko may be retaken.
    play_ok(&mut w, gid, "pass").await;
    play_ok(&mut b, gid, "J9").await;
    play_ok(&mut w, gid, "D5").await;
    let s = state(&mut b, gid).await;
    assert_eq!(s["captures"]["white"], 1);
    assert_eq!(s["captures"]["black"], 1);
    // Two passes suspend play; the server proposes dead stones (ingo_player::endgame),
    // which nobody has accepted yet.
    play_ok(&mut b, gid, "pass").await;
    play_ok(&mut w, gid, "pass").await;
    let s = state(&mut b, gid).await;
    assert_eq!(s["phase"], "suspended");
    assert!(s["dead_stones"]["proposal"].is_array());
    assert_eq!(
        s["dead_stones"]["accepted"],
        json!({"black": false, "white": false})
    );
    // White marks Black's lone J9 stone dead; Black first answers the old proposal, which is
    // refused, then accepts the new one.
    let r = w
        .post(&format!("/api/games/{gid}/dead"), json!({"dead": ["J9"]}))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(r.body["dead_stones"]["proposal"], json!(["J9"]));
    assert_eq!(
        r.body["dead_stones"]["accepted"],
        json!({"black": false, "white": true})
    );
    let r = b
        .post(
            &format!("/api/games/{gid}/dead/accept"),
            json!({"dead": []}),
        )
        .await
        .unwrap();
    assert_eq!(
        (r.status, r.body["reason"].as_str()),
        (409, Some("proposal-changed"))
    );
    let r = b
        .post(
            &format!("/api/games/{gid}/dead/accept"),
            json!({"dead": ["J9"]}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{:?}", r.body);
    let s = state(&mut w, gid).await;
    assert_eq!(s["phase"], "ended");
    let result = &s["result"];
    assert_eq!(result["reason"], "agreement");
    let score = &result["score"];
    assert_eq!(score["dead"], json!(["J9"]));
    // The count: a margin that the fill-in breakdown reproduces, komi 8 as 4 stones.
    let f = &score["fill_in"];
    assert_eq!(f["compensation_stones"].as_f64(), Some(4.0));
    let margin = score["margin"].as_f64().unwrap();
    assert_eq!(
        f["black_net"].as_f64().unwrap() - f["white_net"].as_f64().unwrap(),
        margin
    );
    assert_eq!(result["result"], score["result"]);
    // No move after the end.
    let r = play(&mut b, gid, "A9").await;
    assert_eq!(
        (r.status, r.body["reason"].as_str()),
        (409, Some("game-over"))
    );
    // The profile lists the finished game.
    let p = b.get("/api/users/alice").await.unwrap();
    assert_eq!(p.body["games"][0]["id"], gid);
    // The record replays cleanly under Ing's rules, to the same result.
    let sgf = b.get(&format!("/api/games/{gid}/sgf")).await.unwrap().text;
    assert!(sgf.contains("RU[GOE]"), "{sgf}");
    let record = &ingo_sgf::parse(&sgf).unwrap()[0];
    let replayed = ingo_sgf::replay(
        record,
        record.rules_or(ingo_rules::Preset::Ing),
        ingo_sgf::ReplayMode::Strict,
    )
    .unwrap();
    assert!(replayed.is_clean());
    assert_eq!(record.info.result.as_deref(), result["result"].as_str());
    // The agreed dead stones come back from the record, and the count with them is the same.
    let dead = record.dead_stones(replayed.game.board()).unwrap();
    assert_eq!(
        ingo_rules::Point::from_gtp("J9", 9, 9)
            .ok()
            .map(|p| vec![p]),
        Some(dead.clone())
    );
    assert_eq!(
        Some(replayed.game.count(&dead).result_string()).as_deref(),
        result["result"].as_str()
    );
}

on_both_databases!(game_to_count: game_to_count_on_sqlite, game_to_count_on_postgres);

/// A dispute: at the suspension a player resumes play instead of accepting, proves a stone
/// dead on the board, and four passes then end the game with every stone on the board alive.
#[tokio::test]
async fn dispute_resumed_and_proved_by_play() {
    bounded(async {
        let app = sqlite().await;
        let mut a = user(&app, "ann", "1k").await;
        let mut c = user(&app, "cid", "1k").await;
        let (mut b, mut w, gid) = game_between(&app, &mut a, &mut c, json!({"size": 9})).await;
        for (p, mv) in [("b", "B1"), ("w", "A1"), ("b", "pass"), ("w", "pass")] {
            play_ok(if p == "b" { &mut b } else { &mut w }, gid, mv).await;
        }
        assert_eq!(state(&mut b, gid).await["phase"], "suspended");
        // Black disputes White's corner stone: instead of marking it, Black resumes play
        // and captures it on the board with A2.
        play_ok(&mut b, gid, "A2").await;
        let s = state(&mut b, gid).await;
        assert_eq!(s["phase"], "playing");
        let s = state(&mut b, gid).await;
        assert_eq!(s["captures"]["black"], 1);
        for (p, mv) in [("w", "pass"), ("b", "pass"), ("w", "pass"), ("b", "pass")] {
            play_ok(if p == "b" { &mut b } else { &mut w }, gid, mv).await;
        }
        let s = state(&mut b, gid).await;
        assert_eq!(s["phase"], "ended");
        assert_eq!(s["result"]["reason"], "passes");
        // Black owns the whole board: 81 points less komi 8.
        assert_eq!(s["result"]["result"], "B+73");
    })
    .await;
}

#[tokio::test]
async fn resignation_ends_the_game() {
    bounded(async {
        let app = sqlite().await;
        let mut a = user(&app, "ann", "1k").await;
        let mut c = user(&app, "cid", "1k").await;
        let (mut b, _w, gid) = game_between(&app, &mut a, &mut c, json!({"size": 13})).await;
        let r = b
            .post(&format!("/api/games/{gid}/resign"), json!({}))
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
        assert_eq!(r.body["result"]["result"], "W+R");
        assert_eq!(r.body["result"]["reason"], "resignation");
    })
    .await;
}

/// §6: a 5段 against a 1段 — the weaker takes Black, White owes handicap passes, which the
/// server plays for White at once.
#[tokio::test]
async fn handicap_game_from_ranks() {
    bounded(async {
        let app = sqlite().await;
        let mut strong = user(&app, "strong", "5d").await;
        let mut weak = user(&app, "weak", "1d").await;
        let (mut b, mut w, gid) = game_between(
            &app,
            &mut strong,
            &mut weak,
            json!({"size": 19, "handicap": "ranks"}),
        )
        .await;
        let s = state(&mut b, gid).await;
        assert_eq!(s["black"]["name"], "weak");
        let passes = s["handicap_passes"].as_i64().unwrap();
        let h = ingo_competition::handicap(
            "5d".parse().unwrap(),
            "1d".parse().unwrap(),
            &ingo_competition::HandicapScale::default(),
        );
        assert_eq!(passes, i64::from(h.handicap_passes));
        assert!(passes > 0);
        assert_eq!(s["komi"].as_f64(), Some(h.komi.as_f64()));
        play_ok(&mut b, gid, "Q16").await;
        let s = state(&mut b, gid).await;
        // Black's move and White's handicap pass.
        assert_eq!(
            s["moves"][1],
            json!({"number": 2, "color": "W", "move": "pass", "at_ms": s["moves"][1]["at_ms"]})
        );
        assert_eq!(s["to_move"], "B");
        let r = play(&mut w, gid, "D4").await;
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (409, Some("out-of-turn"))
        );
    })
    .await;
}

/// A challenge naming the challenger's colour (a rematch with the colours swapped): an even game
/// with the preset's komi whatever the ranks; a team challenge naming a colour is refused.
#[tokio::test]
async fn a_challenge_names_the_challengers_colour() {
    bounded(async {
        let app = sqlite().await;
        let mut strong = user(&app, "strong", "5d").await;
        let mut weak = user(&app, "weak", "1d").await;
        let (b, _w, gid) = game_between(
            &app,
            &mut strong,
            &mut weak,
            json!({"size": 19, "handicap": "black"}),
        )
        .await;
        let mut b = b;
        let s = state(&mut b, gid).await;
        assert_eq!(s["black"]["name"], "strong", "{s}");
        assert_eq!(s["handicap_passes"], 0, "{s}");
        let even = ingo_rules::Preset::Ing.rules().komi.as_f64();
        assert_eq!(s["komi"].as_f64(), Some(even), "{s}");
        let (mut w2, _, gid) = game_between(
            &app,
            &mut strong,
            &mut weak,
            json!({"size": 9, "handicap": "white"}),
        )
        .await;
        assert_eq!(state(&mut w2, gid).await["white"]["name"], "strong");
        let r = strong
            .post(
                "/api/challenges",
                json!({"kind": "pair", "handicap": "black", "partners": ["weak"], "opponents": ["a", "b"]}),
            )
            .await
            .unwrap();
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (422, Some("bad-handicap")),
            "{:?}",
            r.body
        );
    })
    .await;
}

/// The same move number asked twice is applied once; a stale number is refused.
async fn duplicate_move_applies_once(app: App) {
    let mut a = user(&app, "ann", "1k").await;
    let mut c = user(&app, "cid", "1k").await;
    let (mut b, mut w, gid) = game_between(&app, &mut a, &mut c, json!({"size": 9})).await;
    let path = format!("/api/games/{gid}/moves");
    let r1 = b
        .post(&path, json!({"move": "E5", "number": 1}))
        .await
        .unwrap();
    let r2 = b
        .post(&path, json!({"move": "E5", "number": 1}))
        .await
        .unwrap();
    assert_eq!((r1.status, r2.status), (200, 200));
    assert_eq!(
        (
            r1.body["duplicate"].as_bool(),
            r2.body["duplicate"].as_bool()
        ),
        (Some(false), Some(true))
    );
    let r = w
        .post(&path, json!({"move": "D4", "number": 1}))
        .await
        .unwrap();
    assert_eq!(
        (r.status, r.body["reason"].as_str()),
        (409, Some("stale-move-number"))
    );
    let s = state(&mut b, gid).await;
    assert_eq!(s["move_count"], 1);
    let rows = ingo_store::server::moves_of(&app.db.store, gid)
        .await
        .unwrap();
    assert_eq!(rows.len(), 1);
}

on_both_databases!(duplicate_move_applies_once: duplicate_move_applies_once_on_sqlite, duplicate_move_applies_once_on_postgres);

const MINUTE: Duration = Duration::from_secs(60);

/// Ing's penalty-point overtime on the server's clock (basic time 1 h, so 1/6 is 10 min), read
/// from a manual clock that moves only when the test advances it: White thinks 64 min and gets
/// 2 penalty points (one 1/6 begun, 2 points each); then Black never moves and, with nobody
/// connected, the server's timer declares the loss on time once Black's hour and 3/6 of the
/// basic time more are over. A timer that waited on real time would wait hours here.
#[tokio::test]
async fn loss_on_time_with_penalty_points() {
    bounded(async {
        let clock = ManualClock::starting_now();
        let app = spawn_with_clock(TestDb::sqlite().await.unwrap(), clock.clone().into()).await;
        let mut a = user(&app, "ann", "1k").await;
        let mut c = user(&app, "cid", "1k").await;
        let (mut b, mut w, gid) = game_between(
            &app,
            &mut a,
            &mut c,
            json!({"size": 9, "time_control": "ing-pp:1h"}),
        )
        .await;
        // Black moves at once; White thinks 64 min: the hour of basic time, 4 min of overtime.
        play_ok(&mut b, gid, "E5").await;
        clock.advance(MINUTE * 64);
        play_ok(&mut w, gid, "D4").await;
        let s = state(&mut b, gid).await;
        assert_eq!(s["clocks"]["white"]["penalty_points"], 2, "{}", s["clocks"]);
        assert_eq!(s["clocks"]["white"]["in_overtime"], true);
        assert_eq!(s["clocks"]["black"]["penalty_points"], 0, "{}", s["clocks"]);
        // What the server publishes, seen from inside the process: no socket is connected.
        let mut events = app.state.subscribe(gid);
        // Black has thought exactly his hour and 30 min of overtime: not over yet.
        clock.advance(MINUTE * 90);
        let s = state(&mut w, gid).await;
        assert_eq!(s["phase"], "playing", "{}", s["clocks"]);
        assert_eq!(s["clocks"]["black"]["in_overtime"], true);
        // A millisecond more and the timer, woken by the clock, ends the game by itself.
        clock.advance(Duration::from_millis(1));
        let ended = tokio::time::timeout(Duration::from_secs(30), async {
            loop {
                let e: Value = serde_json::from_str(&events.recv().await.unwrap()).unwrap();
                if e["type"] == "state" && e["game"]["phase"] == "ended" {
                    return e["game"].clone();
                }
            }
        })
        .await
        .expect("the server declared the loss on time");
        assert_eq!(ended["result"]["result"], "W+T");
        let s = state(&mut w, gid).await;
        assert_eq!(s["phase"], "ended");
        assert_eq!(s["result"]["result"], "W+T");
        assert_eq!(s["result"]["reason"], "time");
        // Stored, not only in memory, at the time the flag fell.
        let row = ingo_store::server::game_by_id(&app.db.store, gid)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(row.state.result.as_deref(), Some("W+T"));
        assert_eq!(row.state.penalty_white, 2);
        assert_eq!(row.state.ended_ms, Some(clock.now_ms()));
    })
    .await;
}

/// A second server on the same database (as after a restart) rebuilds a suspended game with
/// its proposal, and an ended one with its result, from what was committed.
#[tokio::test]
async fn a_restarted_server_rebuilds_suspension_and_results() {
    bounded(async {
        let app = sqlite().await;
        let mut a = user(&app, "ann", "1k").await;
        let mut c = user(&app, "cid", "1k").await;
        let (mut b, mut w, gid) = game_between(&app, &mut a, &mut c, json!({"size": 9})).await;
        for (p, mv) in [("b", "E5"), ("w", "A1"), ("b", "pass"), ("w", "pass")] {
            play_ok(if p == "b" { &mut b } else { &mut w }, gid, mv).await;
        }
        let r = b
            .post(&format!("/api/games/{gid}/dead"), json!({"dead": ["A1"]}))
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
        let before = state(&mut b, gid).await;
        // The second server: same database, nothing in memory.
        let again = spawn_on_store(&app).await;
        b.addr = again;
        w.addr = again;
        let after = state(&mut w, gid).await;
        assert_eq!(after["dead_stones"], before["dead_stones"]);
        assert_eq!(after["phase"], "suspended");
        assert_eq!(after["board"], before["board"]);
        let r = w
            .post(
                &format!("/api/games/{gid}/dead/accept"),
                json!({"dead": ["A1"]}),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
        let ended = state(&mut w, gid).await;
        assert_eq!(ended["result"]["result"], "B+73");
        let third = spawn_on_store(&app).await;
        b.addr = third;
        let s = state(&mut b, gid).await;
        assert_eq!(s["result"], ended["result"]);
        assert_eq!(s["phase"], "ended");
    })
    .await;
}

/// A game against the built-in player, refereed like a person's: it answers over the same
/// path, passes when it wins, accepts the proposal at the suspension, and the game is counted.
#[tokio::test]
async fn game_against_the_built_in_player() {
    bounded(async {
        let app = sqlite().await;
        let mut p = user(&app, "ann", "1k").await;
        let r = p
            .post(
                "/api/games/bot",
                json!({"size": 9, "playouts": 50, "color": "black"}),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 201, "{:?}", r.body);
        assert_eq!(r.body["bot"], "ingo-bot-50");
        let gid = r.body["game_id"].as_i64().unwrap();
        // Nobody logs in as a bot, nor registers its name.
        assert_eq!(
            Client::new(app.addr)
                .login("ingo-bot-50", "!")
                .await
                .unwrap()
                .status,
            401
        );
        let mut q = Client::new(app.addr);
        assert_eq!(
            q.register("ingo-bot-7", "correct horse", "1k")
                .await
                .unwrap()
                .status,
            422
        );
        // On an empty board White wins by komi: after Black's pass the bot passes too, and
        // accepts the proposal. The player's socket, opened first, sees it happen.
        let mut ws = p.websocket(gid).await.unwrap();
        play_ok(&mut p, gid, "pass").await;
        until(&mut ws, |v| {
            v["type"] == "state"
                && v["game"]["phase"] == "suspended"
                && v["game"]["dead_stones"]["accepted"]["white"] == true
        })
        .await;
        let s = state(&mut p, gid).await;
        assert_eq!(s["phase"], "suspended");
        assert_eq!(s["moves"][1]["move"], "pass", "{}", s["moves"]);
        assert_eq!(s["dead_stones"]["accepted"]["white"], true);
        let r = p
            .post(
                &format!("/api/games/{gid}/dead/accept"),
                json!({"dead": []}),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
        assert_eq!(r.body["result"]["result"], "W+8");
    })
    .await;
}

/// The built-in player's levels carry the ranks measured for them (`GET /api/bot-levels`), its
/// account takes the rank of its strength, and `color: ranks` gives Ing's handicap between the
/// person's rank and that one: a 5級 against the weak level (級外 on Ing's scale, 5先) takes
/// White and gives four passes, with no komi.
#[tokio::test]
async fn the_built_in_players_levels_have_ranks_that_set_the_handicap() {
    bounded(async {
        let app = sqlite().await;
        let mut p = user(&app, "ann", "5k").await;
        let r = p.get("/api/bot-levels").await.unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
        let levels = r.body.as_array().expect("a list").clone();
        let names: Vec<&str> = levels.iter().filter_map(|l| l["name"].as_str()).collect();
        assert_eq!(names, ["weak", "medium", "strong"]);
        for l in &levels {
            let rank: ingo_competition::Rank = l["rank"].as_str().unwrap().parse().unwrap();
            assert_eq!(l["rank_ing"], rank.to_chinese());
            assert_eq!(
                l["account"].as_str(),
                Some(format!("ingo-bot-{}", l["playouts"]).as_str())
            );
            assert!(!l["even_at"].as_str().unwrap().is_empty());
            assert!(!l["measured"].as_str().unwrap().is_empty());
        }
        let weak = &levels[0];
        let bot_rank: ingo_competition::Rank = weak["rank"].as_str().unwrap().parse().unwrap();
        let h = ingo_competition::handicap(
            "5k".parse().unwrap(),
            bot_rank,
            &ingo_competition::HandicapScale::default(),
        );
        assert_eq!((h.handicap_passes, h.komi.halves()), (4, 0));
        let r = p
            .post(
                "/api/games/bot",
                json!({"size": 19, "playouts": weak["playouts"], "color": "ranks"}),
            )
            .await
            .unwrap();
        assert_eq!(r.status, 201, "{:?}", r.body);
        let gid = r.body["game_id"].as_i64().unwrap();
        let bot = r.body["bot"].as_str().unwrap().to_string();
        let s = state(&mut p, gid).await;
        assert_eq!(s["black"]["name"], bot.as_str(), "{s}");
        assert_eq!(s["white"]["name"], "ann");
        assert_eq!(s["handicap_passes"], 4, "{s}");
        assert_eq!(s["komi"].as_f64(), Some(0.0));
        // The account shows the level's rank.
        assert_eq!(s["black"]["rank"], weak["rank"], "{s}");
        // Even colours are still the person's to choose.
        let r = p
            .post(
                "/api/games/bot",
                json!({"size": 9, "playouts": 50, "color": "sideways"}),
            )
            .await
            .unwrap();
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (422, Some("bad-color"))
        );
    })
    .await;
}
