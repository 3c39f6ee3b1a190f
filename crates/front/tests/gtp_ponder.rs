//! Pondering over GTP: with `Config::ponder` on, the loop searches on the opponent's time after
//! each of its own moves and stops when the next command comes; every command is still answered
//! as without pondering, and `quit` and the end of input still end the loop.

use ingo_front::gtp::{run, GtpFront};
use ingo_player::{Budget, Config, Player};
use ingo_rules::Rules;

fn front(ponder: bool) -> GtpFront {
    let player = Player::new(Config {
        budget: Budget::playouts(200),
        ponder,
        seed: 4,
        ..Config::default()
    })
    .expect("a valid player");
    GtpFront::new(7, Rules::ing(), player).expect("a valid size")
}

fn transcript(ponder: bool, input: &str) -> (String, GtpFront) {
    let mut f = front(ponder);
    let mut out = Vec::new();
    run(&mut f, input.as_bytes(), &mut out).expect("the loop runs");
    (String::from_utf8(out).expect("UTF-8"), f)
}

#[test]
fn commands_are_answered_alike_with_and_without_pondering() {
    let input = "boardsize 7\nclear_board\ngenmove b\nplay w D4\ngenmove b\nplay w C3\n\
                 genmove b\nshowboard\nquit\ngenmove b\n";
    let (with, f) = transcript(true, input);
    let answers: Vec<&str> = with.split("\n\n").filter(|a| !a.is_empty()).collect();
    // Nine answers, `quit` the last: the loop stopped there (the last genmove is unanswered).
    assert_eq!(answers.len(), 9, "{with}");
    assert!(answers.iter().all(|a| a.starts_with('=')), "{with}");
    assert_eq!(f.table().game().move_count(), 5);
    let (without, g) = transcript(false, input);
    assert_eq!(
        without.split("\n\n").filter(|a| !a.is_empty()).count(),
        9,
        "{without}"
    );
    assert_eq!(g.table().game().move_count(), 5);
}

#[test]
fn the_end_of_input_while_pondering_ends_the_loop() {
    let (out, f) = transcript(true, "genmove b\n");
    assert!(out.starts_with("= "), "{out}");
    assert_eq!(f.table().game().move_count(), 1);
}
