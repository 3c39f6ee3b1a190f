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

/// Two strings without eyes share three liberties (D7–D5): a seki, 7×7.
const SEKI_BLACK: &str = "b7 e7 b6 e6 b5 e5 b4 e4 a3 b3 c3 d3 d2 d1";
const SEKI_WHITE: &str = "c7 f7 c6 f6 c5 f5 c4 d4 f4 e3 f3 g3 e2 e1";

fn sorted(text: &str) -> Vec<String> {
    let mut v: Vec<String> = text.split_whitespace().map(str::to_uppercase).collect();
    v.sort();
    v
}

#[test]
fn final_status_list_and_final_score_use_the_end_of_game_judgement() {
    let mut f = front(7);
    for (b, w) in SEKI_BLACK.split(' ').zip(SEKI_WHITE.split(' ')) {
        assert!(ask(&mut f, &format!("play b {b}")).0, "{b}");
        assert!(ask(&mut f, &format!("play w {w}")).0, "{w}");
    }
    let (ok, seki) = ask(&mut f, "final_status_list seki");
    assert!(ok);
    assert_eq!(
        sorted(&seki),
        sorted("C7 C6 C5 C4 D4 E7 E6 E5 E4"),
        "the strings around the shared points are in seki"
    );
    assert_eq!(ask(&mut f, "final_status_list dead"), (true, String::new()));
    let (_, alive) = ask(&mut f, "final_status_list alive");
    assert_eq!(
        sorted(&alive),
        sorted("B7 B6 B5 B4 A3 B3 C3 D3 D2 D1 F7 F6 F5 F4 E3 F3 G3 E2 E1"),
        "alive and seki are distinct statuses"
    );
    // The shared points stay empty: Black 24, White 22, komi 8 (as in the player's own
    // hand-made test of this seki).
    assert_eq!(ask(&mut f, "final_score"), (true, "W+6".into()));
    assert_eq!(
        ingo_front::estimate_dead(f.table().game()),
        Vec::new(),
        "estimate_dead is the judgement's dead list"
    );
}

#[test]
fn final_score_fills_the_neutral_points_in_turn_from_the_player_to_move() {
    // Column D is dame between two walls on 7×7: seven neutral points, Black to move fills
    // four (the player's hand-made test of the same board: W+7; W+9 with White first).
    let mut f = front(7);
    for row in 1..=7 {
        assert!(ask(&mut f, &format!("play b c{row}")).0);
        assert!(ask(&mut f, &format!("play w e{row}")).0);
    }
    assert_eq!(ask(&mut f, "final_score"), (true, "W+7".into()));
    assert!(ask(&mut f, "play b pass").0);
    assert_eq!(ask(&mut f, "final_score"), (true, "W+9".into()));
}
