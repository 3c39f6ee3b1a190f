//! The queries of pair go, consultation and the stored chat (`ingo_store::server`, migration
//! `0201_pair.sql`), each run on SQLite and on PostgreSQL.
#![allow(clippy::unwrap_used)] // Tests: a failed unwrap is a failed test.

use ingo_store::server::{self, ChallengeRow, ChatRow, MemberRow, SeatRow, UserRow};
use ingo_store::testing::{game_row, TestDb};

fn user(name: &str) -> UserRow {
    ingo_store::testing::user_row(name, "2d")
}
use ingo_store::{new_id, Store};

fn challenge(challenger: i64) -> ChallengeRow {
    ChallengeRow {
        id: new_id(),
        challenger,
        opponent: None,
        size: 9,
        preset: "ing".into(),
        handicap: "nigiri".into(),
        time_control: "ing-pp:10m".into(),
        status: "open".into(),
        game_id: None,
        created_ms: 5,
    }
}

fn seat(side: &str, seat: i64, user_id: i64, accepted: bool) -> SeatRow {
    SeatRow {
        side: side.into(),
        seat,
        user_id,
        accepted,
    }
}

fn member(color: &str, seat: i64, user_id: i64) -> MemberRow {
    MemberRow {
        color: color.into(),
        seat,
        user_id,
    }
}

fn chat(game_id: i64, channel: &str, user_id: i64, text: &str, at_ms: i64) -> ChatRow {
    ChatRow {
        id: new_id(),
        game_id,
        channel: channel.into(),
        user_id,
        name: String::new(),
        text: text.into(),
        at_ms,
        seq: 0,
    }
}

async fn pair_queries(store: &Store) {
    let [a, b, c, d] = ["ann", "ben", "cat", "dan"].map(user);
    for u in [&a, &b, &c, &d] {
        assert!(server::create_user(store, u).await.unwrap());
    }
    // A pair challenge: the challenger's seat accepted, the three others not yet.
    let ch = challenge(a.id);
    let seats = vec![
        seat("challenger", 1, a.id, true),
        seat("challenger", 2, b.id, false),
        seat("opponent", 1, c.id, false),
        seat("opponent", 2, d.id, false),
    ];
    server::create_team_challenge(store, &ch, "pair", &seats)
        .await
        .unwrap();
    let (kind, stored) = server::challenge_team(store, ch.id).await.unwrap().unwrap();
    assert_eq!((kind.as_str(), stored.clone()), ("pair", seats.clone()));
    assert_eq!(server::challenge_team(store, 12345).await.unwrap(), None);
    // One seat per user: a second seat for ann is refused and nothing of that challenge stays.
    let dup = challenge(a.id);
    let twice = [
        seat("challenger", 1, a.id, true),
        seat("opponent", 1, a.id, false),
    ];
    assert!(server::create_team_challenge(store, &dup, "pair", &twice)
        .await
        .is_err());
    assert_eq!(server::challenge_by_id(store, dup.id).await.unwrap(), None);

    // Seats are accepted once each, and only by their users.
    assert!(server::accept_seat(store, ch.id, b.id).await.unwrap());
    assert!(!server::accept_seat(store, ch.id, b.id).await.unwrap());
    assert!(!server::accept_seat(store, ch.id, new_id()).await.unwrap());
    // The game does not start while a seat has not accepted.
    let game = game_row(c.id, a.id);
    let members = vec![
        member("B", 1, c.id),
        member("B", 2, d.id),
        member("W", 1, a.id),
        member("W", 2, b.id),
    ];
    assert!(
        !server::start_team_game(store, ch.id, &game, "pair", &members)
            .await
            .unwrap()
    );
    assert_eq!(server::game_by_id(store, game.id).await.unwrap(), None);
    assert!(server::accept_seat(store, ch.id, c.id).await.unwrap());
    assert!(server::accept_seat(store, ch.id, d.id).await.unwrap());
    assert!(
        server::start_team_game(store, ch.id, &game, "pair", &members)
            .await
            .unwrap()
    );
    // Started once: a second start (a racing last acceptor) writes nothing.
    let other = game_row(c.id, a.id);
    assert!(
        !server::start_team_game(store, ch.id, &other, "pair", &members)
            .await
            .unwrap()
    );
    assert_eq!(server::game_by_id(store, other.id).await.unwrap(), None);
    let closed = server::challenge_by_id(store, ch.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (closed.status.as_str(), closed.game_id),
        ("accepted", Some(game.id))
    );
    // A closed challenge's seats cannot be accepted.
    let ch2 = challenge(a.id);
    server::create_team_challenge(
        store,
        &ch2,
        "consultation",
        &[
            seat("challenger", 1, a.id, true),
            seat("opponent", 1, c.id, false),
        ],
    )
    .await
    .unwrap();
    assert!(server::close_challenge(store, ch2.id, "declined")
        .await
        .unwrap());
    assert!(!server::accept_seat(store, ch2.id, c.id).await.unwrap());

    // The members, by colour then seat.
    let (kind, got) = server::game_team(store, game.id).await.unwrap().unwrap();
    assert_eq!((kind.as_str(), got), ("pair", members.clone()));
    let single = game_row(a.id, c.id);
    server::create_game(store, &single).await.unwrap();
    assert_eq!(server::game_team(store, single.id).await.unwrap(), None);
    let made = game_row(b.id, d.id);
    server::create_team_game(
        store,
        &made,
        "consultation",
        &[
            member("B", 1, b.id),
            member("B", 2, a.id),
            member("B", 3, c.id),
            member("W", 1, d.id),
        ],
    )
    .await
    .unwrap();
    let (kind, got) = server::game_team(store, made.id).await.unwrap().unwrap();
    assert_eq!((kind.as_str(), got.len()), ("consultation", 4));

    // Finished games of a second-seat member.
    let mut ended = game.state.clone();
    ended.status = "ended".into();
    ended.ended_ms = Some(900);
    server::append_moves(store, game.id, 0, &[], &ended)
        .await
        .unwrap();
    let of_d = server::finished_team_games_of(store, d.id, 10)
        .await
        .unwrap();
    assert_eq!(of_d.iter().map(|g| g.id).collect::<Vec<_>>(), vec![game.id]);
    // The first seats are found by finished_games_of, not here (no game twice).
    assert!(server::finished_team_games_of(store, c.id, 10)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        server::finished_games_of(store, c.id, 10)
            .await
            .unwrap()
            .len(),
        1
    );

    // Chat: each channel apart, oldest first, with the writers' names, the last `limit`.
    for (channel, who, text, at) in [
        ("players", a.id, "have a good game", 1000),
        ("black", c.id, "let us take the corner", 1001),
        ("white", b.id, "watch the ko", 1002),
        ("spectators", d.id, "what a move", 1003),
        ("black", d.id, "agreed", 1004),
    ] {
        server::add_chat(store, &chat(game.id, channel, who, text, at))
            .await
            .unwrap();
    }
    let black = server::chat_of(store, game.id, "black", 10).await.unwrap();
    assert_eq!(
        black
            .iter()
            .map(|m| (m.name.as_str(), m.text.as_str()))
            .collect::<Vec<_>>(),
        vec![("cat", "let us take the corner"), ("dan", "agreed")]
    );
    let white = server::chat_of(store, game.id, "white", 10).await.unwrap();
    assert_eq!(white.len(), 1);
    assert_eq!(
        (white[0].channel.as_str(), white[0].user_id),
        ("white", b.id)
    );
    let last = server::chat_of(store, game.id, "black", 1).await.unwrap();
    assert_eq!(last[0].text, "agreed");
    assert!(server::chat_of(store, single.id, "players", 10)
        .await
        .unwrap()
        .is_empty());
}

#[tokio::test]
async fn pair_queries_on_sqlite() {
    let db = TestDb::sqlite().await.unwrap();
    pair_queries(&db.store).await;
}

#[tokio::test]
async fn pair_queries_on_postgres() {
    let db = TestDb::postgres()
        .await
        .expect("a PostgreSQL server (scripts/test starts one)");
    pair_queries(&db.store).await;
}
