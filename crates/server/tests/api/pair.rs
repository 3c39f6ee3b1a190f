//! Pair go (聯棋) and consultation (商談聯棋) end to end: team challenges accepted seat by seat,
//! who may move, the dead-stone step per side, the record's names, and the side-only chat.

use std::collections::HashMap;

use ingo_competition::Rank;
use ingo_server::client::Client;
use serde_json::{json, Value};

use crate::*;

/// The players of a team game by name, and its id.
pub struct Teams {
    pub gid: i64,
    pub by_name: HashMap<String, Client>,
    /// Each side's member names in seat order.
    pub black: Vec<String>,
    pub white: Vec<String>,
}

impl Teams {
    pub fn get(&mut self, name: &str) -> &mut Client {
        self.by_name.get_mut(name).unwrap()
    }
}

fn names(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect()
}

/// `players[0]` challenges with `players[1..=partners]` as partners and the rest as opponents;
/// every other player accepts; the game.
pub async fn team_game(
    app: &App,
    kind: &str,
    players: &[(&str, &str)],
    partners: usize,
    extra: Value,
) -> Teams {
    let mut by_name = HashMap::new();
    for (n, rank) in players {
        by_name.insert(n.to_string(), user(app, n, rank).await);
    }
    let list = |r: std::ops::Range<usize>| players[r].iter().map(|(n, _)| *n).collect::<Vec<_>>();
    let mut body = json!({
        "size": 9,
        "kind": kind,
        "partners": list(1..1 + partners),
        "opponents": list(1 + partners..players.len()),
    });
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let challenger = by_name.get_mut(players[0].0).unwrap();
    let r = challenger.post("/api/challenges", body).await.unwrap();
    assert_eq!(r.status, 201, "{:?}", r.body);
    assert_eq!(r.body["kind"], kind);
    let cid = r.body["id"].as_i64().unwrap();
    let mut gid = None;
    for (i, (n, _)) in players.iter().enumerate().skip(1) {
        let r = by_name
            .get_mut(*n)
            .unwrap()
            .post(&format!("/api/challenges/{cid}/accept"), json!({}))
            .await
            .unwrap();
        if i + 1 < players.len() {
            assert_eq!(r.status, 200, "{:?}", r.body);
            assert_eq!(r.body["game_id"], Value::Null);
            assert_eq!(
                r.body["waiting_for"].as_array().unwrap().len(),
                players.len() - 1 - i
            );
        } else {
            assert_eq!(r.status, 201, "{:?}", r.body);
            gid = r.body["game_id"].as_i64();
        }
    }
    let gid = gid.unwrap();
    let s = state(by_name.get_mut(players[0].0).unwrap(), gid).await;
    assert_eq!(s["team"]["kind"], kind);
    Teams {
        gid,
        black: names(&s["team"]["black"]),
        white: names(&s["team"]["white"]),
        by_name,
    }
}

async fn move_by(t: &mut Teams, name: &str, mv: &str) -> ingo_server::client::Reply {
    let gid = t.gid;
    play(t.get(name), gid, mv).await
}

/// A pair game: seats accepted one by one, B1 W1 B2 W2 order (passes count as turns), every
/// refusal with its reason, the dead stones accepted by one member of each side, the count, and
/// the record naming both members of each side.
async fn pair_go_to_a_count(app: App) {
    // The challenge: only its named players accept, each once, the challenger never.
    let mut eve = user(&app, "eve", "1d").await;
    let mut t = team_game(
        &app,
        "pair",
        &[("ann", "3d"), ("ben", "3d"), ("cat", "3d"), ("dan", "3d")],
        1,
        json!({"handicap": "nigiri"}),
    )
    .await;
    let gid = t.gid;
    assert_eq!((t.black.len(), t.white.len()), (2, 2));
    let (b1, b2, w1, w2) = (
        t.black[0].clone(),
        t.black[1].clone(),
        t.white[0].clone(),
        t.white[1].clone(),
    );
    // Sides are the challenge's: ann and ben together, ann first on hers.
    let ann_side = if t.black.contains(&"ann".to_owned()) {
        &t.black
    } else {
        &t.white
    };
    assert_eq!(ann_side, &vec!["ann".to_owned(), "ben".to_owned()]);
    let s = state(t.get("ann"), gid).await;
    assert_eq!(s["team"]["to_move"]["name"], b1.as_str());

    // B1 W1 B2 W2 B1 W1, each refused out of order first.
    let order = [
        (&b1, "C3"),
        (&w1, "G7"),
        (&b2, "C7"),
        (&w2, "G3"),
        (&b1, "E5"),
        (&w1, "E6"),
    ];
    for (i, (who, mv)) in order.iter().enumerate() {
        let partner = if t.black.contains(who) {
            &t.black
        } else {
            &t.white
        };
        let other = partner.iter().find(|n| n != who).unwrap().clone();
        let r = move_by(&mut t, &other, mv).await;
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (409, Some("partner-turn")),
            "move {}: {other} for {who}: {:?}",
            i + 1,
            r.body
        );
        assert!(r.body["message"].as_str().unwrap().contains(who.as_str()));
        let r = move_by(&mut t, who, mv).await;
        assert_eq!(r.status, 200, "{who} {mv}: {:?}", r.body);
    }
    // The other side out of turn, and a user who does not play here.
    let r = move_by(&mut t, &w2, "A1").await;
    assert_eq!(
        (r.status, r.body["reason"].as_str()),
        (409, Some("out-of-turn"))
    );
    let r = play(&mut eve, gid, "A1").await;
    assert_eq!(
        (r.status, r.body["reason"].as_str()),
        (403, Some("not-a-player"))
    );
    let s = state(&mut eve, gid).await;
    assert_eq!(s["team"]["to_move"]["name"], b2.as_str());
    // A pass is a turn: B2 passes, then it is W2's, not W1's, pass.
    assert_eq!(move_by(&mut t, &b2, "pass").await.status, 200);
    let r = move_by(&mut t, &w1, "pass").await;
    assert_eq!(
        (r.status, r.body["reason"].as_str()),
        (409, Some("partner-turn"))
    );
    assert_eq!(move_by(&mut t, &w2, "pass").await.status, 200);
    let s = state(&mut eve, gid).await;
    assert_eq!(s["phase"], "suspended");
    // The dead-stone step: a spectator cannot accept; one member accepts for a side.
    let proposal = s["dead_stones"]["proposal"].clone();
    let r = eve
        .post(
            &format!("/api/games/{gid}/dead/accept"),
            json!({"dead": proposal}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 403, "{:?}", r.body);
    let r = t
        .get(&b2)
        .post(
            &format!("/api/games/{gid}/dead/accept"),
            json!({"dead": proposal}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(
        r.body["dead_stones"]["accepted"],
        json!({"black": true, "white": false})
    );
    let r = t
        .get(&w1)
        .post(
            &format!("/api/games/{gid}/dead/accept"),
            json!({"dead": proposal}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{:?}", r.body);
    let s = state(&mut eve, gid).await;
    assert_eq!(s["phase"], "ended");
    assert_eq!(s["result"]["reason"], "agreement");
    assert!(s["result"]["score"]["margin"].is_number(), "{s}");
    assert_eq!(s["team"]["to_move"], Value::Null);
    // No move after the end, by anyone.
    let r = move_by(&mut t, &b1, "A1").await;
    assert_eq!(
        (r.status, r.body["reason"].as_str()),
        (409, Some("game-over"))
    );

    // The record: both members of each side, in seat order; it replays cleanly to the result.
    let sgf = eve
        .get(&format!("/api/games/{gid}/sgf"))
        .await
        .unwrap()
        .text;
    let record = &ingo_sgf::parse(&sgf).unwrap()[0];
    assert_eq!(
        record.info.players.black.as_deref(),
        Some(format!("{b1} & {b2}").as_str()),
        "{sgf}"
    );
    assert_eq!(
        record.info.players.white.as_deref(),
        Some(format!("{w1} & {w2}").as_str())
    );
    let replayed = ingo_sgf::replay(
        record,
        record.rules_or(ingo_rules::Preset::Ing),
        ingo_sgf::ReplayMode::Strict,
    )
    .unwrap();
    assert!(replayed.is_clean());
    assert_eq!(
        record.info.result.as_deref(),
        s["result"]["result"].as_str()
    );
    // The second seats' profiles list the game, with the other side as the opponents.
    let p = eve.get(&format!("/api/users/{b2}")).await.unwrap().body;
    assert_eq!(p["games"][0]["id"], gid, "{p}");
    assert_eq!(p["games"][0]["color"], "B");
    assert_eq!(p["games"][0]["opponent"], format!("{w1} & {w2}").as_str());
    let p = eve.get(&format!("/api/users/{w1}")).await.unwrap().body;
    assert_eq!(p["games"][0]["id"], gid, "{p}");
    assert_eq!(p["games"][0]["color"], "W");
    assert_eq!(p["games"][0]["opponent"], format!("{b1} & {b2}").as_str());
    assert!(sgf.contains(&format!("PB[{b1} & {b2}]")), "{sgf}");
    assert!(sgf.contains("BR[3d & 3d]"), "{sgf}");
    // A restarted server (nothing in memory) knows the teams and whose turn it was.
    let other = spawn_on_store(&app).await;
    let mut fresh = Client::new(other);
    let s2 = state(&mut fresh, gid).await;
    assert_eq!(s2["team"], s["team"]);
    assert_eq!(s2["result"], s["result"]);
}

on_both_databases!(pair_go_to_a_count: pair_go_to_a_count_on_sqlite, pair_go_to_a_count_on_postgres);

/// Challenges of teams: who may accept or decline, and the forms refused.
#[tokio::test]
async fn team_challenges_are_accepted_by_every_seat() {
    bounded(async {
        let app = sqlite().await;
        let mut ann = user(&app, "ann", "1d").await;
        let mut ben = user(&app, "ben", "1d").await;
        let mut cat = user(&app, "cat", "1d").await;
        let _dan = user(&app, "dan", "1d").await;
        let mut eve = user(&app, "eve", "1d").await;
        let post = |body: Value| {
            let mut a = ann.clone();
            async move { a.post("/api/challenges", body).await.unwrap() }
        };
        for (body, reason) in [
            (json!({"kind": "pair", "partners": ["ben"], "opponents": ["cat"]}), "bad-team"),
            (json!({"kind": "pair", "partners": ["ben"], "opponents": ["cat", "ben"]}), "bad-team"),
            (json!({"kind": "pair", "partners": ["ann"], "opponents": ["cat", "dan"]}), "bad-team"),
            (json!({"kind": "pair", "partners": ["ben"], "opponents": ["cat", "zed"]}), "unknown-user"),
            (json!({"kind": "consultation", "partners": [], "opponents": ["cat", "dan"]}), "bad-team"),
            (json!({"kind": "trio", "partners": ["ben"], "opponents": ["cat", "dan"]}), "bad-kind"),
            (json!({"kind": "pair", "partners": ["ben"], "opponents": ["cat", "dan"], "opponent": "cat"}), "bad-team"),
            (json!({"partners": ["ben"]}), "bad-team"),
        ] {
            let r = post(body.clone()).await;
            assert_eq!((r.status, r.body["reason"].as_str()), (422, Some(reason)), "{body}: {:?}", r.body);
        }
        let r = post(json!({"size": 9, "kind": "pair", "partners": ["ben"], "opponents": ["cat", "dan"]})).await;
        assert_eq!(r.status, 201, "{:?}", r.body);
        let cid = r.body["id"].as_i64().unwrap();
        let seats = r.body["seats"].as_array().unwrap();
        assert_eq!(seats.len(), 4);
        assert_eq!(seats[0], json!({"side": "challenger", "seat": 1, "name": "ann", "rank": "1d", "accepted": true}));
        let accept = format!("/api/challenges/{cid}/accept");
        let r = ann.post(&accept, json!({})).await.unwrap();
        assert_eq!((r.status, r.body["reason"].as_str()), (403, Some("own-challenge")));
        let r = eve.post(&accept, json!({})).await.unwrap();
        assert_eq!((r.status, r.body["reason"].as_str()), (403, Some("not-your-challenge")));
        let r = ben.post(&accept, json!({})).await.unwrap();
        assert_eq!(r.body["waiting_for"], json!(["cat", "dan"]));
        let r = ben.post(&accept, json!({})).await.unwrap();
        assert_eq!((r.status, r.body["reason"].as_str()), (409, Some("already-accepted")));
        // The lobby shows who has accepted.
        let one = eve.get(&format!("/api/challenges/{cid}")).await.unwrap().body;
        assert_eq!(one["seats"][1]["accepted"], true);
        // A stranger cannot decline; a seat can, and that closes the challenge for everyone.
        let decline = format!("/api/challenges/{cid}/decline");
        assert_eq!(eve.post(&decline, json!({})).await.unwrap().status, 403);
        assert_eq!(cat.post(&decline, json!({})).await.unwrap().status, 204);
        let r = ben.post(&accept, json!({})).await.unwrap();
        assert_eq!((r.status, r.body["reason"].as_str()), (409, Some("challenge-closed")));
        let one = eve.get(&format!("/api/challenges/{cid}")).await.unwrap().body;
        assert_eq!((one["status"].as_str(), one["game_id"].clone()), (Some("declined"), Value::Null));
    })
    .await;
}

/// The handicap of teams from their average ranks (§6 applied to the averages).
#[test]
fn team_handicap_from_average_ranks() {
    use ingo_server::domain::settings::team_handicap;
    let r = |s: &str| s.parse::<Rank>().unwrap();
    // 5段 and 1段 average 3段: even with two 3段.
    assert_eq!(
        team_handicap(&[r("5d"), r("1d")], &[r("3d"), r("3d")]),
        None
    );
    // 6段+4段 (5段) against 3段+1段 (2段): 12 points = 1½ 先 → 2 先: the weaker side takes
    // Black, White passes once and gets 4 points (8 half points) back.
    assert_eq!(
        team_handicap(&[r("6d"), r("4d")], &[r("3d"), r("1d")]),
        Some((false, 8, 1))
    );
    assert_eq!(
        team_handicap(&[r("3d"), r("1d")], &[r("6d"), r("4d")]),
        Some((true, 8, 1))
    );
    // Sides of different sizes: 2段+2段+5段 (3段) against 1段+1段 (初段): 8 points, one 先.
    assert_eq!(
        team_handicap(&[r("2d"), r("2d"), r("5d")], &[r("1d"), r("1d")]),
        Some((false, 0, 0))
    );
    // Averages round to the nearer point: 3段+3段+2段, (8+8+4)/3 = 6⅔, against 2段+2段 (4):
    // 2⅔ → 3 points, one 先 less 3: komi 5 (10 half points).
    assert_eq!(
        team_handicap(&[r("3d"), r("3d"), r("2d")], &[r("2d"), r("2d")]),
        Some((false, 10, 0))
    );
}

/// Consultation with `"agreement": "any"`: any member of the side to move moves; the other side and strangers are
/// refused; the handicap from the average ranks, White's handicap pass made by the server; a
/// member resigns for the side.
#[tokio::test]
async fn consultation_any_member_moves() {
    bounded(async {
        let app = sqlite().await;
        let mut eve = user(&app, "eve", "1d").await;
        // ann, ben, cat (6d 4d 5d: 5段 on average) against dan, fay (3d 1d: 2段): White passes
        // once and gets back 4 points.
        let mut t = team_game(
            &app,
            "consultation",
            &[
                ("ann", "6d"),
                ("ben", "4d"),
                ("cat", "5d"),
                ("dan", "3d"),
                ("fay", "1d"),
            ],
            2,
            json!({"handicap": "ranks", "agreement": "any"}),
        )
        .await;
        let gid = t.gid;
        assert_eq!(t.black, vec!["dan".to_owned(), "fay".to_owned()]);
        assert_eq!(
            t.white,
            vec!["ann".to_owned(), "ben".to_owned(), "cat".to_owned()]
        );
        let s = state(&mut eve, gid).await;
        assert_eq!(
            (s["handicap_passes"].as_i64(), s["komi"].as_f64()),
            (Some(1), Some(4.0))
        );
        // Nobody in particular is to move in consultation.
        assert_eq!(s["team"]["to_move"], Value::Null);
        assert_eq!(move_by(&mut t, "fay", "E5").await.status, 200);
        // The server passed for White at once; then any Black member again.
        let s = state(&mut eve, gid).await;
        assert_eq!(s["moves"][1]["move"], "pass");
        assert_eq!(move_by(&mut t, "fay", "C3").await.status, 200);
        let r = move_by(&mut t, "dan", "C7").await;
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (409, Some("out-of-turn"))
        );
        assert_eq!(move_by(&mut t, "cat", "G7").await.status, 200);
        assert_eq!(move_by(&mut t, "dan", "C7").await.status, 200);
        assert_eq!(move_by(&mut t, "ben", "G3").await.status, 200);
        let r = play(&mut eve, gid, "A1").await;
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (403, Some("not-a-player"))
        );
        let r = eve
            .post(&format!("/api/games/{gid}/resign"), json!({}))
            .await
            .unwrap();
        assert_eq!(r.status, 403);
        let r = t
            .get("ann")
            .post(&format!("/api/games/{gid}/resign"), json!({}))
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
        assert_eq!(r.body["result"]["result"], "B+R");
        let sgf = eve
            .get(&format!("/api/games/{gid}/sgf"))
            .await
            .unwrap()
            .text;
        assert!(sgf.contains("PW[ann & ben & cat]"), "{sgf}");
        assert!(sgf.contains("PB[dan & fay]"), "{sgf}");
        // The live list named the sides while it ran; the game is gone from it now.
        let list = eve.get("/api/games").await.unwrap().body;
        assert!(list.as_array().unwrap().iter().all(|g| g["id"] != gid));
    })
    .await;
}

/// Pair go with a handicap: White's handicap passes are nobody's turn.
#[tokio::test]
async fn pair_go_handicap_passes_are_not_a_turn() {
    bounded(async {
        let app = sqlite().await;
        let mut t = team_game(
            &app,
            "pair",
            &[("ann", "6d"), ("ben", "4d"), ("cat", "3d"), ("dan", "1d")],
            1,
            json!({"handicap": "ranks"}),
        )
        .await;
        let gid = t.gid;
        assert_eq!(t.black, vec!["cat".to_owned(), "dan".to_owned()]);
        let list = t.get("cat").get("/api/games").await.unwrap().body;
        let mine = list
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == gid)
            .unwrap()
            .clone();
        assert_eq!(
            (mine["black"].as_str(), mine["white"].as_str()),
            (Some("cat & dan"), Some("ann & ben"))
        );
        assert_eq!(mine["team"], "pair");
        assert_eq!(move_by(&mut t, "cat", "E5").await.status, 200);
        // White passed (the handicap); Black's second turn is dan's, White's first is ann's.
        let r = move_by(&mut t, "cat", "C3").await;
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (409, Some("partner-turn"))
        );
        assert_eq!(move_by(&mut t, "dan", "C3").await.status, 200);
        let r = move_by(&mut t, "ben", "G7").await;
        assert_eq!(
            (r.status, r.body["reason"].as_str()),
            (409, Some("partner-turn"))
        );
        assert_eq!(move_by(&mut t, "ann", "G7").await.status, 200);
        assert_eq!(move_by(&mut t, "cat", "C7").await.status, 200);
        assert_eq!(move_by(&mut t, "ben", "G3").await.status, 200);
    })
    .await;
}

/// The last two seats accept at the same moment: one game starts, and both are told its id
/// (or one is told to wait while the other starts it).
async fn last_seats_accept_at_once(app: App) {
    let mut ann = user(&app, "ann", "1d").await;
    let mut ben = user(&app, "ben", "1d").await;
    let cat = user(&app, "cat", "1d").await;
    let dan = user(&app, "dan", "1d").await;
    for round in 0..5 {
        let r = ann
            .post(
                "/api/challenges",
                json!({"size": 9, "kind": "pair", "partners": ["ben"], "opponents": ["cat", "dan"]}),
            )
            .await
            .unwrap();
        let cid = r.body["id"].as_i64().unwrap();
        let accept = format!("/api/challenges/{cid}/accept");
        assert_eq!(ben.post(&accept, json!({})).await.unwrap().status, 200);
        let (mut c, mut d) = (cat.clone(), dan.clone());
        let (rc, rd) = tokio::join!(c.post(&accept, json!({})), d.post(&accept, json!({})));
        let (rc, rd) = (rc.unwrap(), rd.unwrap());
        let games: Vec<i64> = [&rc, &rd]
            .iter()
            .filter_map(|r| r.body["game_id"].as_i64())
            .collect();
        assert!(
            !games.is_empty(),
            "round {round}: no game started: {:?} {:?}",
            rc.body,
            rd.body
        );
        assert!(
            games.iter().all(|g| *g == games[0]),
            "round {round}: two games {games:?}"
        );
        for r in [&rc, &rd] {
            assert!(
                [200, 201].contains(&r.status),
                "round {round}: {:?}",
                r.body
            );
        }
        let c = ann
            .get(&format!("/api/challenges/{cid}"))
            .await
            .unwrap()
            .body;
        assert_eq!(c["game_id"].as_i64(), Some(games[0]));
        let s = state(&mut ann, games[0]).await;
        assert_eq!(s["team"]["black"].as_array().unwrap().len(), 2);
    }
}

on_both_databases!(last_seats_accept_at_once: last_seats_accept_at_once_on_sqlite, last_seats_accept_at_once_on_postgres);
