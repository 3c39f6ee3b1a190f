//! The queries of consultation's agreement step (`ingo_store::consult`, migration
//! `0203_consult.sql`), each run on SQLite and on PostgreSQL.
#![allow(clippy::unwrap_used)] // Tests: a failed unwrap is a failed test.

use ingo_store::consult::{self, VoteRow};
use ingo_store::server::{self, ChallengeRow, GameRow, MemberRow, SeatRow, UserRow};
use ingo_store::testing::{game_row, TestDb};

fn user(name: &str) -> UserRow {
    ingo_store::testing::user_row(name, "2d")
}
use ingo_store::{new_id, Store};

fn vote(game_id: i64, u: &UserRow, number: i64, mv: &str, at_ms: i64) -> VoteRow {
    VoteRow {
        game_id,
        user_id: u.id,
        name: String::new(),
        color: "B".into(),
        move_number: number,
        mv: mv.into(),
        at_ms,
    }
}

fn moves(votes: &[VoteRow]) -> Vec<(String, String, i64)> {
    votes
        .iter()
        .map(|v| (v.name.clone(), v.mv.clone(), v.move_number))
        .collect()
}

async fn consult_queries(store: &Store) {
    let [a, b, c, d] = ["ann", "ben", "cat", "dan"].map(user);
    for u in [&a, &b, &c, &d] {
        assert!(server::create_user(store, u).await.unwrap());
    }
    // The agreement is stored before its challenge; the game finds it through the challenge.
    let ch = ChallengeRow {
        id: new_id(),
        challenger: a.id,
        opponent: None,
        size: 9,
        preset: "ing".into(),
        handicap: "nigiri".into(),
        time_control: "ing-pp:10m".into(),
        status: "open".into(),
        game_id: None,
        created_ms: 5,
    };
    consult::set_challenge_agreement(store, ch.id, "majority")
        .await
        .unwrap();
    let seat = |side: &str, n: i64, u: &UserRow| SeatRow {
        side: side.into(),
        seat: n,
        user_id: u.id,
        accepted: true,
    };
    let seats = vec![
        seat("challenger", 1, &a),
        seat("challenger", 2, &b),
        seat("opponent", 1, &c),
        seat("opponent", 2, &d),
    ];
    server::create_team_challenge(store, &ch, "consultation", &seats)
        .await
        .unwrap();
    assert_eq!(
        consult::challenge_agreement(store, ch.id).await.unwrap(),
        Some("majority".into())
    );
    assert_eq!(consult::challenge_agreement(store, 1).await.unwrap(), None);
    let game = game_row(a.id, c.id);
    let member = |color: &str, n: i64, u: &UserRow| MemberRow {
        color: color.into(),
        seat: n,
        user_id: u.id,
    };
    let members = [
        member("B", 1, &a),
        member("B", 2, &b),
        member("W", 1, &c),
        member("W", 2, &d),
    ];
    assert!(
        server::start_team_game(store, ch.id, &game, "consultation", &members)
            .await
            .unwrap()
    );
    assert_eq!(
        consult::game_agreement(store, game.id).await.unwrap(),
        Some("majority".into())
    );
    // A game made without a challenge has none.
    let other = GameRow {
        id: new_id(),
        ..game.clone()
    };
    server::create_team_game(store, &other, "consultation", &members)
        .await
        .unwrap();
    assert_eq!(
        consult::game_agreement(store, other.id).await.unwrap(),
        None
    );

    // One proposal a member: a new one replaces the member's own, not the others'.
    let g = game.id;
    let all = consult::propose(store, &vote(g, &a, 1, "E5", 10))
        .await
        .unwrap();
    assert_eq!(moves(&all), vec![("ann".into(), "E5".into(), 1)]);
    let all = consult::propose(store, &vote(g, &b, 1, "C3", 11))
        .await
        .unwrap();
    assert_eq!(
        moves(&all),
        vec![
            ("ann".into(), "E5".into(), 1),
            ("ben".into(), "C3".into(), 1)
        ]
    );
    let all = consult::propose(store, &vote(g, &a, 1, "C3", 12))
        .await
        .unwrap();
    assert_eq!(
        moves(&all),
        vec![
            ("ben".into(), "C3".into(), 1),
            ("ann".into(), "C3".into(), 1)
        ]
    );
    // Only this side's proposals for this number are answered.
    let mut white = vote(g, &c, 1, "resign", 13);
    white.color = "W".into();
    let w = consult::propose(store, &white).await.unwrap();
    assert_eq!(moves(&w), vec![("cat".into(), "resign".into(), 1)]);
    assert_eq!(consult::votes_of(store, g, "B", 1).await.unwrap().len(), 2);
    assert_eq!(consult::votes_of(store, g, "B", 2).await.unwrap(), vec![]);
    // Withdrawal, then the move played: every proposal up to its number is deleted.
    assert!(consult::withdraw(store, g, b.id).await.unwrap());
    assert!(!consult::withdraw(store, g, b.id).await.unwrap());
    assert_eq!(
        moves(&consult::votes_of(store, g, "B", 1).await.unwrap()),
        vec![("ann".into(), "C3".into(), 1)]
    );
    consult::propose(store, &vote(g, &b, 2, "D4", 14))
        .await
        .unwrap();
    consult::clear_votes(store, g, 1).await.unwrap();
    assert_eq!(consult::votes_of(store, g, "B", 1).await.unwrap(), vec![]);
    assert_eq!(consult::votes_of(store, g, "W", 1).await.unwrap(), vec![]);
    assert_eq!(consult::votes_of(store, g, "B", 2).await.unwrap().len(), 1);
}

#[tokio::test]
async fn consult_queries_on_sqlite() {
    let db = TestDb::sqlite().await.unwrap();
    consult_queries(&db.store).await;
}

#[tokio::test]
async fn consult_queries_on_postgres() {
    let db = TestDb::postgres()
        .await
        .expect("a PostgreSQL server (scripts/test starts one)");
    consult_queries(&db.store).await;
}
