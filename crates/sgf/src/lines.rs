//! Every line of play of a game tree: the main line and each variation, root to leaf.

use std::fmt;

use ingo_rules::{Rules, Setup};
use sgf_parse::go::Prop;
use sgf_parse::{SgfNode, SgfProp};

use crate::error::{SgfError, Warning};
use crate::record::{read_nodes, setup_of, GameInfo, Record, RecordedMove, SetupEvent};
use crate::replay::{replay_parts, Replay, ReplayMode};

/// One line of play of a game tree: the nodes from the root to a leaf, read like the main line
/// of a [`Record`].
///
/// Lines are numbered in the order the tree is written (depth first, the first variation at
/// every branch first), so line 1 is the main line and its moves are [`Record::moves`]. Each
/// later line shares its beginning with the line before it and leaves it at
/// [`Line::departure`]; it is described as `variation 3 at move 57`.
///
/// Game information is the record's: `PB`, `KM`, `HA` and the like inside a variation are not
/// read again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The number of the line, from 1 (the main line).
    pub number: usize,
    /// The child taken at each node of the line that has more than one (0 = the first), from
    /// the root down: the line's address in the tree. All zeros for the main line.
    pub path: Vec<usize>,
    /// Where the line leaves the line before it; `None` for the main line.
    pub departure: Option<Departure>,
    /// The setup properties of the line, as [`Record::setup_events`].
    pub setup_events: Vec<SetupEvent>,
    /// The moves of the line, passes included; `node_number` counts the nodes of this line
    /// (0 = the root).
    pub moves: Vec<RecordedMove>,
    /// What the reader noticed in the nodes of this line (two moves in a node, points off the
    /// board...).
    pub warnings: Vec<Warning>,
}

/// Where a variation leaves the line before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Departure {
    /// The first node of the variation that the line before it does not have (its number along
    /// the variation, 0 = the root).
    pub node_number: usize,
    /// The number of the first move from that node on (moves before it, plus one): the move at
    /// which the variation differs.
    pub move_number: usize,
}

impl Line {
    /// Whether this is the main line.
    pub fn is_main(&self) -> bool {
        self.departure.is_none()
    }

    /// The starting position of this line, as [`Record::setup`] gives it for the main line.
    ///
    /// # Errors
    /// When the board size is not supported (never, for a record built by this crate).
    pub fn setup(&self, record: &Record) -> Result<Setup, SgfError> {
        setup_of(
            record.size(),
            record.handicap,
            &self.setup_events,
            &self.moves,
        )
    }
}

impl fmt::Display for Line {
    /// `main line`, or `variation N at move M`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.departure {
            None => write!(f, "main line"),
            Some(d) => write!(f, "variation {} at move {}", self.number, d.move_number),
        }
    }
}

/// The iterator of [`Record::lines`]: every line of play, the main line first. A line whose
/// moves cannot be read (an invalid `B`/`W` or setup point in a variation) is an error naming
/// the variation; the others are still given.
///
/// It walks the tree without recursion and reads one line at a time, so memory stays at one
/// line however many variations there are.
///
/// ```
/// use ingo_rules::Rules;
/// use ingo_sgf::{parse, replay_line, ReplayMode};
///
/// let text = "(;GM[1]SZ[9];B[ee];W[gc](;B[gg];W[cc])(;B[cc]))";
/// let record = &parse(text)?[0];
/// let lines: Vec<_> = record.lines().collect::<Result<_, _>>()?;
/// assert_eq!(lines.len(), 2);
/// assert_eq!(lines[0].to_string(), "main line");
/// assert_eq!(lines[0].moves, record.moves);
/// assert_eq!(lines[1].to_string(), "variation 2 at move 3");
/// assert_eq!(lines[1].path, [1]);
///
/// let replayed = replay_line(record, &lines[1], Rules::ing(), ReplayMode::Strict)?;
/// assert_eq!(replayed.played, 3);
/// # Ok::<(), ingo_sgf::SgfError>(())
/// ```
#[derive(Debug)]
pub struct Lines<'a> {
    record: &'a Record,
    /// Nodes still to visit: the node, its depth, and whether it is a first child.
    stack: Vec<(&'a SgfNode<Prop>, usize, bool)>,
    /// The nodes from the root to the current one, each with the child index taken below it.
    path: Vec<(&'a SgfNode<Prop>, usize)>,
    /// The depth where the next line leaves the previous one.
    departure: Option<usize>,
    number: usize,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(record: &'a Record) -> Lines<'a> {
        Lines {
            record,
            stack: vec![(record.sgf_root(), 0, true)],
            path: Vec::new(),
            departure: None,
            number: 0,
        }
    }

    fn read(&self, departure: Option<usize>) -> Result<Line, SgfError> {
        let departure = departure.map(|node_number| Departure {
            node_number,
            move_number: self.path[..node_number.min(self.path.len())]
                .iter()
                .flat_map(|(node, _)| &node.properties)
                .filter(|p| matches!(p.identifier().as_str(), "B" | "W"))
                .count()
                + 1,
        });
        let path = self
            .path
            .iter()
            .filter(|(node, _)| node.children.len() > 1)
            .map(|&(_, child)| child)
            .collect();
        let mut line = Line {
            number: self.number,
            path,
            departure,
            setup_events: Vec::new(),
            moves: Vec::new(),
            warnings: Vec::new(),
        };
        // Game information inside a line is the record's; what this read finds is dropped.
        let mut info = GameInfo::default();
        let (setup_events, moves) = read_nodes(
            self.path.iter().map(|&(node, _)| node),
            self.record.size(),
            &mut info,
            &mut line.warnings,
        )
        .map_err(|kind| SgfError::new(kind).in_line(line.to_string()))?;
        line.setup_events = setup_events;
        line.moves = moves;
        Ok(line)
    }
}

impl Iterator for Lines<'_> {
    type Item = Result<Line, SgfError>;

    fn next(&mut self) -> Option<Self::Item> {
        while let Some((node, depth, first)) = self.stack.pop() {
            self.path.truncate(depth);
            if let Some(parent) = self.path.last_mut() {
                if !first {
                    parent.1 += 1;
                }
            }
            if !first && self.departure.is_none() {
                self.departure = Some(depth);
            }
            self.path.push((node, 0));
            if node.children.is_empty() {
                self.number += 1;
                let departure = self.departure.take();
                return Some(self.read(departure));
            }
            for (i, child) in node.children.iter().enumerate().rev() {
                self.stack.push((child, depth + 1, i == 0));
            }
        }
        None
    }
}

/// Replays one line of play of `record` (from [`Record::lines`]) under `rules`, as [`replay`]
/// replays the main line: from the line's own setup, with the record's handicap and penalty
/// points.
///
/// [`replay`]: crate::replay
///
/// # Errors
/// As [`replay`](crate::replay): when the setup cannot be built, or setup inside the line
/// changes the board.
pub fn replay_line(
    record: &Record,
    line: &Line,
    rules: Rules,
    mode: ReplayMode,
) -> Result<Replay, SgfError> {
    replay_parts(
        record,
        line.setup(record)?,
        &line.setup_events,
        &line.moves,
        rules,
        mode,
        line.moves.len(),
    )
    .map_err(|e| e.in_line(line.to_string()))
}

impl Record {
    /// Every line of play of the game tree, the main line first: see [`Line`](crate::Line).
    pub fn lines(&self) -> Lines<'_> {
        Lines::new(self)
    }
}

#[cfg(test)]
mod tests {
    use ingo_rules::Point;

    use super::*;
    use crate::parse;

    fn lines(text: &str) -> Vec<Result<Line, SgfError>> {
        parse(text).expect("text")[0].lines().collect()
    }

    fn points(line: &Line) -> Vec<String> {
        line.moves
            .iter()
            .map(|m| match m.mv {
                ingo_rules::Move::Play(p) => p.to_sgf(),
                ingo_rules::Move::Pass => String::new(),
            })
            .collect()
    }

    #[test]
    fn nested_variations() {
        let text = "(;GM[1]SZ[9];B[aa](;W[bb](;B[cc])(;B[dd]))(;W[ee];B[ff](;W[gg])(;W[hh])))";
        let all: Vec<Line> = lines(text).into_iter().map(|l| l.expect("line")).collect();
        let summary: Vec<(String, Vec<usize>, Vec<String>)> = all
            .iter()
            .map(|l| (l.to_string(), l.path.clone(), points(l)))
            .collect();
        let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            summary,
            vec![
                ("main line".into(), vec![0, 0], s(&["aa", "bb", "cc"])),
                (
                    "variation 2 at move 3".into(),
                    vec![0, 1],
                    s(&["aa", "bb", "dd"])
                ),
                (
                    "variation 3 at move 2".into(),
                    vec![1, 0],
                    s(&["aa", "ee", "ff", "gg"])
                ),
                (
                    "variation 4 at move 4".into(),
                    vec![1, 1],
                    s(&["aa", "ee", "ff", "hh"])
                ),
            ]
        );
        assert_eq!(
            all[2].departure,
            Some(Departure {
                node_number: 2,
                move_number: 2
            })
        );
        assert_eq!(all[3].moves[3].node_number, 4);
        assert!(all[0].is_main() && !all[1].is_main());
    }

    #[test]
    fn a_bad_variation_is_an_error_and_the_others_go_on() {
        let all = lines("(;GM[1]SZ[9];B[aa](;W[bb])(;W[zz])(;W[cc]))");
        assert_eq!(all.len(), 3);
        let err = all[1].as_ref().expect_err("W[zz] is off any board");
        assert_eq!(err.line(), Some("variation 2 at move 2"));
        assert_eq!(
            err.to_string(),
            "variation 2 at move 2: node 2: invalid W[zz]"
        );
        assert_eq!(points(all[2].as_ref().expect("line 3")), ["aa", "cc"]);
    }

    #[test]
    fn setup_per_line() {
        // Each variation starts from its own setup; the main line's replay is unchanged.
        let text = "(;GM[1]SZ[5](;AB[cc];W[aa])(;AW[cc]PL[B];B[aa]))";
        let record = &parse(text).expect("text")[0];
        let all: Vec<Line> = record.lines().map(|l| l.expect("line")).collect();
        let cc = Point::from_sgf("cc", 5, 5).expect("point");
        let first = all[0].setup(record).expect("setup");
        assert_eq!(first.board.color_at(cc), Some(ingo_rules::Color::Black));
        assert_eq!(first.to_move, ingo_rules::Color::White);
        let second = all[1].setup(record).expect("setup");
        assert_eq!(second.board.color_at(cc), Some(ingo_rules::Color::White));
        for line in &all {
            let r = replay_line(record, line, Rules::ing(), ReplayMode::Strict).expect("replay");
            assert!(r.is_clean() && r.played == 1);
        }
    }
}
