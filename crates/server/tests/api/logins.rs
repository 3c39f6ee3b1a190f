//! Log-ins tell nothing by their time, and guesses sprayed over many names and addresses are
//! held by one budget that never holds up an owner whose name was not guessed.

use ingo_server::wall::ManualClock;
use ingo_store::testing::TestDb;

use crate::*;

/// A client that connects from another loopback address, as another machine would.
fn from_address(app: &App, ip: &str) -> Client {
    let mut c = Client::new(app.addr);
    c.from = Some(ip.parse().unwrap());
    c
}

#[tokio::test]
async fn a_log_in_for_an_unknown_name_is_verified_against_a_dummy_hash() {
    bounded(async {
        let app = sqlite().await;
        let _alice = user(&app, "alice", "2k").await;
        let before = ingo_server::play::sessions::dummy_checks();
        let r = Client::new(app.addr)
            .login("nobody-at-all", "guess guess")
            .await
            .unwrap();
        assert_eq!(r.status, 401, "{:?}", r.body);
        assert_eq!(r.body["reason"], "bad-credentials");
        // The same argon2 path as a wrong password for a known name (other tests in this
        // process may add to the count, never take from it).
        assert!(
            ingo_server::play::sessions::dummy_checks() > before,
            "an unknown name skipped the password check"
        );
    })
    .await;
}

#[tokio::test]
async fn sprayed_guesses_are_held_by_an_overall_budget_that_lets_owners_in() {
    bounded(async {
        // On a clock that moves only when told: every failure falls in one minute.
        let clock = ManualClock::starting_now();
        let app = spawn_configured(TestDb::sqlite().await.unwrap(), clock.clone().into(), |c| {
            c.login_failures_per_minute_overall = 5
        })
        .await;
        let _alice = user(&app, "alice", "2k").await;
        let _bob = user(&app, "bob", "2k").await;
        // Five names guessed once each, from five addresses: each is checked.
        for i in 0..5 {
            let r = from_address(&app, &format!("127.0.3.{}", i + 1))
                .login(&format!("victim{i}"), "guess guess")
                .await
                .unwrap();
            assert_eq!(r.status, 401, "{i}: {:?}", r.body);
        }
        // The budget is spent: a name that failed within the minute waits, from anywhere...
        let r = from_address(&app, "127.0.4.1")
            .login("victim0", "guess guess")
            .await
            .unwrap();
        assert_eq!(r.status, 429, "{:?}", r.body);
        assert_eq!(r.body["reason"], "rate-limited");
        let wait: i64 = r.header("retry-after").unwrap().parse().unwrap();
        assert!((1..=60).contains(&wait), "{wait}");
        // ...while an owner whose name did not fail logs in, from an address never seen...
        let r = from_address(&app, "127.0.4.2")
            .login("alice", "correct horse")
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
        // ...and a name with no recent failure is still checked once, then waits.
        let r = from_address(&app, "127.0.4.3")
            .login("bob", "guess guess")
            .await
            .unwrap();
        assert_eq!(r.status, 401, "{:?}", r.body);
        let r = from_address(&app, "127.0.4.4")
            .login("bob", "correct horse")
            .await
            .unwrap();
        assert_eq!(r.status, 429, "{:?}", r.body);
        // Once the minute is over, the budget is free again.
        clock.advance(Duration::from_millis(60_000));
        let r = from_address(&app, "127.0.4.4")
            .login("bob", "correct horse")
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
    })
    .await;
}
