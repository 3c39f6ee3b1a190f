//! The picture of a count, one drawing for every caller (`ingo score --svg`, the play
//! server's count of a game and its judge page), so a count looks the same wherever it is shown.

use ingo_rules::{Board, Color, Point, Score};

use crate::{render_png, render_svg, Diagram, DiagramOptions, RenderError};

/// A count as it is drawn: the diagram and the options every count picture uses.
#[derive(Clone, Debug)]
pub struct CountPicture<'a> {
    /// The board with the count, and the judgement's fills and seki when there is one.
    pub diagram: Diagram<'a>,
    /// Territory shaded, shared points half and half, no last-move mark, the title above.
    pub options: DiagramOptions,
}

/// The picture of `score` on `board` with `title` above: territory shaded, shared points half
/// and half, dead stones faded, no last-move mark, and, when the count comes from an
/// end-of-game judgement, the neutral points it filled (`fills`, with who fills each) and the
/// points in seki (`seki`, stones and shared points). A count agreed by the players has neither:
/// pass empty lists.
///
/// ```
/// use ingo_render::count_picture;
/// use ingo_rules::{score, Board, ByColor, Color, Komi};
/// let board = Board::from_ascii("X.\n..").unwrap();
/// let count = score(&board, &[], Komi::points(0), ByColor::default(), Color::Black);
/// let svg = count_picture(&board, &count, Vec::new(), Vec::new(), "B+4".into()).svg();
/// assert!(svg.contains(r#"class="territory-black""#));
/// ```
pub fn count_picture<'a>(
    board: &'a Board,
    score: &'a Score,
    fills: Vec<(Point, Color)>,
    seki: Vec<Point>,
    title: String,
) -> CountPicture<'a> {
    CountPicture {
        diagram: Diagram::new(board)
            .with_score(Some(score))
            .with_fills(fills)
            .with_seki(seki),
        options: DiagramOptions {
            shade_territory: true,
            last_move: false,
            title: Some(title),
            ..DiagramOptions::default()
        },
    }
}

/// What the notes of [`CountPicture::with_checks`] mean, the line under the count.
pub const CHECKS_KEY: &str =
    "Ringed, to check: 48% held in the playouts · R race · A race in atari · S eye shape · G group read · E large eye space · F fill · K ko taken last";

/// What a note ending with `!` means ([`CountPicture::with_winner_turns_on`]).
pub const TURNS_KEY: &str = "! the winner turns on it";

/// How the line of [`CountPicture::with_fill_note`] starts.
pub const FILL_NOTE: &str = "Dame filled one move deep, to check";

impl CountPicture<'_> {
    /// Marks the verdicts of the end-of-game judgement a person should check (each a short
    /// note on one stone of its string: `ingo_player::endgame::Judgement::checks`), with
    /// [`CHECKS_KEY`] under the count. Nothing is marked when `checks` is empty.
    ///
    /// ```
    /// use ingo_render::count_picture;
    /// use ingo_rules::{score, Board, ByColor, Color, Komi, Point};
    /// let board = Board::from_ascii("X.\n.O").unwrap();
    /// let count = score(&board, &[], Komi::points(0), ByColor::default(), Color::Black);
    /// let a2 = Point::from_gtp("A2", 2, 2).unwrap();
    /// let picture = count_picture(&board, &count, Vec::new(), Vec::new(), "B+0".into())
    ///     .with_checks(vec![(a2, "52%".into())]);
    /// let svg = picture.svg();
    /// assert!(svg.contains(r#"class="check""#) && svg.contains(">52%<"));
    /// assert!(svg.contains(r#"class="key""#));
    /// ```
    pub fn with_checks(mut self, checks: Vec<(Point, String)>) -> Self {
        self.diagram = self
            .diagram
            .with_notes(checks, Some(CHECKS_KEY.to_string()));
        self
    }

    /// Marks, among the verdicts of [`CountPicture::with_checks`], those the winner turns on
    /// (`ingo_player::endgame::Judgement::winner_turns_on`: each alone, turned the other way,
    /// makes the count name the other winner): their notes end with `!`, and the key under the
    /// count says so. Points without a note are left alone; nothing changes when `points` is
    /// empty.
    ///
    /// ```
    /// use ingo_render::count_picture;
    /// use ingo_rules::{score, Board, ByColor, Color, Komi, Point};
    /// let board = Board::from_ascii("X.\n.O").unwrap();
    /// let count = score(&board, &[], Komi::points(0), ByColor::default(), Color::Black);
    /// let (a2, b1) = (Point::from_gtp("A2", 2, 2).unwrap(), Point::from_gtp("B1", 2, 2).unwrap());
    /// let picture = count_picture(&board, &count, Vec::new(), Vec::new(), "B+0".into())
    ///     .with_checks(vec![(a2, "52%".into()), (b1, "R".into())])
    ///     .with_winner_turns_on(&[b1]);
    /// let svg = picture.svg();
    /// assert!(svg.contains(">52%<") && svg.contains(">R!<"));
    /// assert!(svg.contains("! the winner turns on it"));
    /// ```
    pub fn with_winner_turns_on(mut self, points: &[Point]) -> Self {
        let mut marked = false;
        for (p, note) in &mut self.diagram.notes {
            if points.contains(p) {
                note.push('!');
                marked = true;
            }
        }
        if marked {
            self.diagram.note_key = Some(format!("{CHECKS_KEY} · {TURNS_KEY}"));
        }
        self
    }

    /// Says under the count that the end-of-game judgement filled the neutral points one move
    /// deep rather than reading them out, and why (`why`, from
    /// `ingo_player::endgame::Judgement::fill_note`), so that a person checks those fills.
    /// Nothing is added when `why` is `None`.
    ///
    /// ```
    /// use ingo_render::count_picture;
    /// use ingo_rules::{score, Board, ByColor, Color, Komi};
    /// let board = Board::from_ascii("X.\n.O").unwrap();
    /// let count = score(&board, &[], Komi::points(0), ByColor::default(), Color::Black);
    /// let picture = count_picture(&board, &count, Vec::new(), Vec::new(), "B+0".into())
    ///     .with_fill_note(Some("the 2 dame A1 B2 are too many to read together".into()));
    /// let svg = picture.svg();
    /// assert!(svg.contains(r#"class="fill-note""#));
    /// assert!(svg.contains("Dame filled one move deep, to check: the 2 dame A1 B2"));
    /// ```
    pub fn with_fill_note(mut self, why: Option<String>) -> Self {
        self.diagram = self
            .diagram
            .with_fill_note(why.map(|w| format!("{FILL_NOTE}: {w}")));
        self
    }

    /// The picture as SVG text.
    pub fn svg(&self) -> String {
        render_svg(&self.diagram, &self.options)
    }

    /// The picture as PNG bytes.
    ///
    /// # Errors
    /// As [`render_png`].
    pub fn png(&self) -> Result<Vec<u8>, RenderError> {
        render_png(&self.diagram, &self.options)
    }
}
