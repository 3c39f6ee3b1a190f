#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod bracket;
mod count;
mod crosstable;
mod png;
mod svg;

use ingo_rules::{Board, Color, Game, Move, Point, Score};

pub use crate::bracket::{bracket_png, bracket_svg};
pub use crate::count::{count_picture, CountPicture, CHECKS_KEY, FILL_NOTE, TURNS_KEY};
pub use crate::crosstable::{crosstable_png, crosstable_svg};
pub use crate::png::{render_png, render_png_with_fonts, RenderError};
pub use crate::svg::render_svg;
/// The font database [`render_png_with_fonts`] takes (re-exported so that callers build it with
/// the same `fontdb` version as resvg's).
pub use resvg::usvg::fontdb;

/// The smallest point size a diagram is drawn at: below it numbers and markers stop being legible.
pub const MIN_POINT_SIZE: u32 = 8;

/// The largest point size a diagram is drawn at: 25×25 points of 256 pixels is already a
/// 7000-pixel square PNG (200 MB of pixels), and point sizes come from users.
pub const MAX_POINT_SIZE: u32 = 256;

/// What a diagram shows, and how large.
///
/// ```
/// use ingo_render::DiagramOptions;
/// let options = DiagramOptions { move_numbers: true, ..DiagramOptions::default() };
/// assert!(options.coordinates && options.last_move);
/// assert_eq!(options.point_size_px, 32);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagramOptions {
    /// GTP coordinates around the board: letters from `A` (skipping `I`) along the top and
    /// bottom, numbers from 1 at the bottom along both sides. Default `true`.
    pub coordinates: bool,
    /// The diagram's move numbers on the stones ([`Diagram::with_move_numbers`]). Default `false`.
    pub move_numbers: bool,
    /// A marker on the last move ([`Diagram::with_last_move`]). Default `true`.
    pub last_move: bool,
    /// The distance between two lines, in pixels; clamped to
    /// [`MIN_POINT_SIZE`]`..=`[`MAX_POINT_SIZE`]. Default 32.
    pub point_size_px: u32,
    /// A caption above the board, such as the players' names. Default none.
    pub title: Option<String>,
    /// Marks, from the diagram's [`Score`], each empty point and dead stone with a small square
    /// of its owner's colour, and shared points (分空) with a half-black, half-white square.
    /// Default `false`.
    pub shade_territory: bool,
}

impl Default for DiagramOptions {
    fn default() -> Self {
        DiagramOptions {
            coordinates: true,
            move_numbers: false,
            last_move: true,
            point_size_px: 32,
            title: None,
            shade_territory: false,
        }
    }
}

/// A position to draw: a board and what to mark on it.
///
/// Marks on points outside the board are ignored, and so is a score counted on a board of
/// another size, so that a diagram built from a damaged record still draws.
#[derive(Clone, Debug)]
pub struct Diagram<'a> {
    board: &'a Board,
    move_numbers: Vec<(Point, u32)>,
    last_move: Option<Point>,
    score: Option<&'a Score>,
    fills: Vec<(Point, Color)>,
    seki: Vec<Point>,
    notes: Vec<(Point, String)>,
    note_key: Option<String>,
    fill_note: Option<String>,
}

impl<'a> Diagram<'a> {
    /// A diagram of `board` with no marks.
    pub fn new(board: &'a Board) -> Self {
        Diagram {
            board,
            move_numbers: Vec::new(),
            last_move: None,
            score: None,
            fills: Vec::new(),
            seki: Vec::new(),
            notes: Vec::new(),
            note_key: None,
            fill_note: None,
        }
    }

    /// A diagram of a game's current board, with its last move and, for each stone on the board,
    /// the number of the move that played it (passes count as moves, as in SGF; setup and
    /// handicap stones have none).
    ///
    /// ```
    /// use ingo_render::Diagram;
    /// use ingo_rules::{Game, Move, Point, Rules, Setup};
    /// let mut game = Game::new(Setup::empty(9).unwrap(), Rules::ing());
    /// let e5 = Point::from_gtp("E5", 9, 9).unwrap();
    /// let c3 = Point::from_gtp("C3", 9, 9).unwrap();
    /// game.play(Move::Play(e5)).unwrap();
    /// game.play(Move::Pass).unwrap();
    /// game.play(Move::Play(c3)).unwrap();
    /// let diagram = Diagram::from_game(&game);
    /// assert_eq!(diagram.move_numbers(), &[(e5, 1), (c3, 3)]);
    /// assert_eq!(diagram.last_move(), Some(c3));
    /// ```
    pub fn from_game(game: &'a Game) -> Self {
        let board = game.board();
        let mut numbers: Vec<(Point, u32)> = Vec::new();
        for (i, played) in game.history().enumerate() {
            if let Move::Play(p) = played.mv {
                // A stone played again where one was captured takes the newer number.
                numbers.retain(|&(q, _)| q != p);
                numbers.push((p, u32::try_from(i + 1).unwrap_or(u32::MAX)));
            }
        }
        // Numbers of stones captured since would label empty points, which reads as a stone.
        numbers.retain(|&(p, _)| board.color_at(p).is_some());
        let last_move = match game.last_move().map(|m| m.mv) {
            Some(Move::Play(p)) => Some(p),
            _ => None,
        };
        Diagram {
            board,
            move_numbers: numbers,
            last_move,
            score: None,
            fills: Vec::new(),
            seki: Vec::new(),
            notes: Vec::new(),
            note_key: None,
            fill_note: None,
        }
    }

    /// Sets the move numbers, drawn on their points when [`DiagramOptions::move_numbers`] is on.
    /// A number on an empty point is drawn on the bare board. When a point has several numbers,
    /// the last in the list is drawn.
    pub fn with_move_numbers(mut self, numbers: Vec<(Point, u32)>) -> Self {
        self.move_numbers = numbers;
        self
    }

    /// Sets the last move, marked when [`DiagramOptions::last_move`] is on: by a small circle,
    /// or by drawing its move number in red when that is shown.
    pub fn with_last_move(mut self, last_move: Option<Point>) -> Self {
        self.last_move = last_move;
        self
    }

    /// Sets the count to show: its dead stones are drawn faded, its owners mark territory when
    /// [`DiagramOptions::shade_territory`] is on, and a line under the board gives the areas,
    /// the shared points and the result.
    pub fn with_score(mut self, score: Option<&'a Score>) -> Self {
        self.score = score;
        self
    }

    /// Sets the neutral points filled before counting (填滿計點) and who fills each: drawn as
    /// small stones of the filler's colour on the empty point (the end-of-game judgement of
    /// `ingo-player` gives them).
    pub fn with_fills(mut self, fills: Vec<(Point, Color)>) -> Self {
        self.fills = fills;
        self
    }

    /// Sets the points in seki: stones in seki get a triangle, and empty points shared in seki
    /// (分空) a ring, on top of the count's marks.
    pub fn with_seki(mut self, seki: Vec<Point>) -> Self {
        self.seki = seki;
        self
    }

    /// Sets short notes on points (a few characters each, such as `48%` or `R`), each drawn
    /// inside an amber ring so that it stands out, and `key`, a line under the count that says
    /// what the notes mean (left out when there is no note). The count picture marks with them
    /// the verdicts of the end-of-game judgement a person should check.
    pub fn with_notes(mut self, notes: Vec<(Point, String)>, key: Option<String>) -> Self {
        self.notes = notes;
        self.note_key = key;
        self
    }

    /// Sets a line under the count about the fill of the neutral points (the count picture
    /// says there when the end-of-game judgement filled them one move deep rather than read
    /// them out, and why); `None` draws none.
    pub fn with_fill_note(mut self, note: Option<String>) -> Self {
        self.fill_note = note;
        self
    }

    /// The notes on points.
    pub fn notes(&self) -> &[(Point, String)] {
        &self.notes
    }

    /// The neutral points filled before counting.
    pub fn fills(&self) -> &[(Point, Color)] {
        &self.fills
    }

    /// The points in seki (stones and shared points).
    pub fn seki(&self) -> &[Point] {
        &self.seki
    }

    /// The board.
    pub fn board(&self) -> &Board {
        self.board
    }

    /// The move numbers.
    pub fn move_numbers(&self) -> &[(Point, u32)] {
        &self.move_numbers
    }

    /// The last move.
    pub fn last_move(&self) -> Option<Point> {
        self.last_move
    }

    /// The count, if any.
    pub fn score(&self) -> Option<&Score> {
        self.score
    }
}
