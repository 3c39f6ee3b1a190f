//! The GTP front as a library: one command table behind `list_commands`, `known_command` and
//! dispatch, and a front whose game is a `Table`.

use ingo_front::gtp::{run, GtpFront, COMMANDS};
use ingo_gtp::Command;
use ingo_player::{Budget, Config, Player};
use ingo_rules::{Phase, Rules};

fn front(size: usize) -> GtpFront {
    let player = Player::new(Config {
        budget: Budget::playouts(20),
        ..Config::default()
    })
    .expect("a valid player");
    GtpFront::new(size, Rules::ing(), player).expect("a valid size")
}

fn ask(front: &mut GtpFront, line: &str) -> (bool, String) {
    let cmd = Command::parse(line)
        .expect("a command line")
        .expect("not empty");
    let out = front.handle(&cmd);
    (out.response.is_success(), out.response.text)
}

#[test]
fn list_commands_and_known_command_come_from_the_one_table() {
    let mut f = front(9);
    let (ok, list) = ask(&mut f, "list_commands");
    assert!(ok);
    let names: Vec<&str> = COMMANDS.iter().map(|s| s.name).collect();
    assert_eq!(list.lines().collect::<Vec<_>>(), names);
    for name in names {
        assert_eq!(
            ask(&mut f, &format!("known_command {name}")),
            (true, "true".into())
        );
        // Every listed command is dispatched: none answers "unknown command".
        let (_, text) = ask(&mut f, name);
        assert_ne!(text, "unknown command", "{name}");
    }
    assert_eq!(
        ask(&mut f, "known_command frobnicate"),
        (true, "false".into())
    );
    assert_eq!(ask(&mut f, "frobnicate"), (false, "unknown command".into()));
}

#[test]
fn the_front_plays_on_a_table_and_agrees_dead_stones_through_it() {
    let mut f = front(5);
    for line in [
        "play b c1",
        "play w d2",
        "play b c2",
        "play w pass",
        "play b c3",
        "play w pass",
        "play b c4",
        "play w pass",
        "play b c5",
        "play w pass",
        "play b pass",
    ] {
        assert_eq!(ask(&mut f, line), (true, String::new()), "{line}");
    }
    assert_eq!(f.table().phase(), Phase::Suspended);
    assert_eq!(ask(&mut f, "ingo-agree_dead d2"), (true, String::new()));
    assert_eq!(f.table().phase(), Phase::Ended);
    assert_eq!(ask(&mut f, "final_score"), (true, "B+17".into()));
    assert_eq!(ask(&mut f, "final_status_list dead"), (true, "D2".into()));
    // The table's log is the game: rebuilt, it counts the same.
    let again = ingo_front::Table::replay(f.table().settings().clone(), f.table().events())
        .expect("replays");
    assert_eq!(again.score(), f.table().score());
}

#[test]
fn run_answers_until_quit_and_ignores_what_follows() {
    let mut f = front(5);
    let mut out = Vec::new();
    run(&mut f, &b"1 name\n2 quit\n3 name\n"[..], &mut out).expect("in-memory streams");
    assert_eq!(String::from_utf8(out).expect("UTF-8"), "=1 ingo\n\n=2 \n\n");
}
