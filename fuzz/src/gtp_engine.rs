//! Arbitrary command lines to ingo's GTP engine (`ingo gtp`), as a controller that sends
//! nonsense would: each line of the input is parsed as a GTP command and answered by the
//! engine's front on a fresh game. Nothing may panic, and every answer must be one well-formed
//! GTP response (it parses back with its status, and holds no blank line, which would end it
//! early on the wire). `loadsgf` is left out: it reads the file system.

use ingo_front::gtp::GtpFront;
use ingo_gtp::protocol::{Command, Response};
use ingo_player::{Budget, Config, Player};
use ingo_rules::Rules;

/// The most command lines one input runs: `genmove` and `final_score` search, so a long input
/// would make each run slow.
const MAX_COMMANDS: usize = 64;

/// The target's body: runs one input, and panics when a check fails.
pub fn run(data: &[u8]) {
    let config = Config {
        budget: Budget::playouts(8),
        ..Config::default()
    };
    let Ok(player) = Player::new(config) else {
        panic!("the fuzz player's configuration is valid");
    };
    let Ok(mut front) = GtpFront::new(9, Rules::ing(), player) else {
        panic!("a 9×9 front starts");
    };
    for line in data.split(|&b| b == b'\n').take(MAX_COMMANDS) {
        let Ok(Some(cmd)) = Command::parse_bytes(line) else {
            continue;
        };
        if cmd.name == "loadsgf" {
            continue;
        }
        let outcome = front.handle(&cmd);
        let text = outcome.response.to_string();
        let body = text.strip_suffix("\n\n").unwrap_or(&text);
        assert!(
            !body.contains("\n\n"),
            "{cmd:?}: the answer holds a blank line: {text:?}"
        );
        let again = Response::parse(&text);
        assert_eq!(
            again.as_ref().map(|r| r.status),
            Ok(outcome.response.status),
            "{cmd:?}: the answer {text:?} does not parse back"
        );
        if outcome.quit {
            break;
        }
    }
}
