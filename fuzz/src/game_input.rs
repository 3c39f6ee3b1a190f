//! The game an input describes, shared by the targets that play one (`play_undo`,
//! `endgame_judge`): byte 0 the width (`1 + b % 13`), byte 1 the preset (`b % 5`, in
//! `Preset::ALL` order), the handicap passes (`(b >> 4) & 3`) and who starts (top bit: White),
//! byte 2 the height (the width unless its top bit is set, then `1 + (b & 0x7f) % 13`), byte 3
//! the penalty points (low and high nibble − 4); the rest are the actions.

use ingo_rules::{Board, Color, Game, Preset, Setup};

/// The game of the input's first four bytes, before any move, and the rest of the input; `None`
/// for an input shorter than four bytes.
pub fn start(data: &[u8]) -> Option<(Game, &[u8])> {
    let [w, rules, h, pen, actions @ ..] = data else {
        return None;
    };
    let width = 1 + *w as usize % 13;
    let height = if h & 0x80 != 0 {
        1 + (h & 0x7f) as usize % 13
    } else {
        width
    };
    let preset = Preset::ALL[*rules as usize % Preset::ALL.len()];
    let to_move = if rules & 0x80 != 0 {
        Color::White
    } else {
        Color::Black
    };
    let board = Board::with_dims(width, height).expect("sizes are in 1..=13");
    let setup = Setup {
        board,
        to_move,
        handicap_passes: (rules >> 4) & 3,
    };
    let mut game = Game::new(setup, preset.rules());
    game.set_penalty(Color::Black, (pen & 0x0f) as i32 - 4);
    game.set_penalty(Color::White, (pen >> 4) as i32 - 4);
    Some((game, actions))
}
