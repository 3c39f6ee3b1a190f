//! A game read from SGF: its size, komi, rules, players, setup and main line.

use std::str::FromStr;
use std::sync::OnceLock;

use ingo_rules::{Board, ByColor, Color, Komi, Move, Point, Preset, Rules, Setup};
use sgf_parse::go::{self, Prop};
use sgf_parse::{GameTree, SgfNode};

use crate::error::{ErrorKind, SgfError, Warning};
use crate::fast::{read, Sink};
use crate::names::{letter, map_rules, RulesMapping, BLACK_PENALTY, WHITE_PENALTY};

/// One move of the main line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RecordedMove {
    /// Who moved (`B` or `W`).
    pub color: Color,
    /// The move. `B[]`, and `B[tt]` on boards up to 19×19, are passes.
    pub mv: Move,
    /// The node of the main line holding it (0 = the root).
    pub node_number: usize,
}

/// The setup properties of one node of the main line: `AB`, `AW`, `AE` and `PL`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SetupEvent {
    /// The node of the main line (0 = the root).
    pub node_number: usize,
    /// How many moves of the main line come before it (0 for the starting position).
    pub after_move: usize,
    /// `AB`: Black stones added, sorted.
    pub black: Vec<Point>,
    /// `AW`: White stones added, sorted.
    pub white: Vec<Point>,
    /// `AE`: points cleared, sorted.
    pub empty: Vec<Point>,
    /// `PL`: who is to move.
    pub to_move: Option<Color>,
}

fn has_stones(ev: &SetupEvent) -> bool {
    !(ev.black.is_empty() && ev.white.is_empty() && ev.empty.is_empty())
}

impl SetupEvent {
    fn is_empty(&self) -> bool {
        self.black.is_empty()
            && self.white.is_empty()
            && self.empty.is_empty()
            && self.to_move.is_none()
    }
}

/// Game information, as written (SGF "game-info" and a few root properties). Every value is the
/// unescaped text, trimmed; `None` when the property is absent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameInfo {
    /// `PB` and `PW`: the players' names.
    pub players: ByColor<Option<String>>,
    /// `BR` and `WR`: the players' ranks.
    pub ranks: ByColor<Option<String>>,
    /// `BT` and `WT`: the players' teams.
    pub teams: ByColor<Option<String>>,
    /// `EV`: the event.
    pub event: Option<String>,
    /// `RO`: the round.
    pub round: Option<String>,
    /// `DT`: the date.
    pub date: Option<String>,
    /// `PC`: the place.
    pub place: Option<String>,
    /// `GN`: the name of the game.
    pub name: Option<String>,
    /// `RE`: the result, raw (`B+R`, `W+2.5`, `B+1 5/6`, `Void`…).
    pub result: Option<String>,
    /// `RU`: the rules, raw (see [`Record::rules`] for the preset it maps to).
    pub rules: Option<String>,
    /// `KM`: the komi, raw (see [`Record::komi`]).
    pub komi: Option<String>,
    /// `HA`: the handicap, raw (see [`Record::handicap`]).
    pub handicap: Option<String>,
    /// `TM`: the main time, in seconds.
    pub time: Option<String>,
    /// `OT`: the overtime.
    pub overtime: Option<String>,
    /// `GC`: the game comment.
    pub comment: Option<String>,
    /// `SO`: the source.
    pub source: Option<String>,
    /// `AP`: the application that wrote the file, `name:version`.
    pub application: Option<String>,
}

/// Why a result that reads as a count is none ([`Record::not_a_count`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotACount {
    /// The record holds neither a move nor a stone: no board its result counts.
    NoBoard,
    /// A zero margin beside a half-point komi, with which no count ends level (Fox writes
    /// `W+0.0` for a win it did not count).
    ZeroBesideHalfPointKomi,
}

/// A game read from SGF: one game tree of a collection.
///
/// The main line (the first variation at every branch) is read into [`Record::moves`]; the
/// whole parsed tree, unknown properties included, stays available from [`Record::sgf_root`] for
/// tools that write records back.
#[derive(Clone)]
pub struct Record {
    /// Board width (`SZ[w:h]` or `SZ[n]`; 19 when absent).
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// The komi, when `KM` gives one that is a whole or half point (Fox's ×100 values are
    /// converted, with a warning). The raw text is in [`GameInfo::komi`].
    pub komi: Option<Komi>,
    /// `HA`, when it is a whole number.
    pub handicap: Option<u32>,
    /// The preset that `RU` maps to (see [`map_rules`]); without `RU`, Ing's rules when the
    /// event (`EV`) is an Ing Cup game (`2nd Ing Cup`, `應氏杯`: the Ing Cup is played under
    /// them); `None` when `RU` is absent or unknown.
    pub rules: Option<RulesMapping>,
    /// Players, event, result and the other game information, as written.
    pub info: GameInfo,
    /// The setup properties of the main line, in order. Those with `after_move == 0` make the
    /// starting position ([`Record::setup`]); later ones change the board inside the game, which
    /// [`crate::replay`] refuses.
    pub setup_events: Vec<SetupEvent>,
    /// The moves of the main line, passes included, in order.
    pub moves: Vec<RecordedMove>,
    /// `TB` and `TW` of the last node of the main line, when it has either: the territory as
    /// the game was scored, dead stones included (how [`crate::write_game`] records dead stones
    /// agreed at the end, and how CGoban and KGS mark them). See [`Record::dead_stones`].
    pub territory: Option<ByColor<Vec<Point>>>,
    /// Ing's time-penalty points (罰點) of each side, from ingo's private root properties `BP`
    /// and `WP` (0 when absent). [`crate::replay`] gives them to the game, so its count matches.
    pub penalties: ByColor<i32>,
    /// What the reader noticed: encoding guesses, repairs, values ignored or converted.
    pub warnings: Vec<Warning>,
    /// Why the record is incomplete, when the text was cut off inside it (a property not
    /// closed, game trees not closed, the parser stopping early): the lenient reader keeps what
    /// came before, and says so here. Only the last game of a collection can be cut off.
    pub incomplete: Option<String>,
    /// The parsed tree; for a record read by [`crate::fast`], built from `source` when first
    /// asked for (the judge path never asks).
    root: OnceLock<SgfNode<Prop>>,
    /// The text of the game tree while `root` is not built (empty for a record built from a
    /// parsed tree).
    source: Box<str>,
}

impl std::fmt::Debug for Record {
    /// As derived, the parsed tree shown as `root` (built if need be).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Record")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("komi", &self.komi)
            .field("handicap", &self.handicap)
            .field("rules", &self.rules)
            .field("info", &self.info)
            .field("setup_events", &self.setup_events)
            .field("moves", &self.moves)
            .field("territory", &self.territory)
            .field("penalties", &self.penalties)
            .field("warnings", &self.warnings)
            .field("incomplete", &self.incomplete)
            .field("root", self.sgf_root())
            .finish()
    }
}

impl Record {
    /// The parsed SGF tree of this game (sgf-parse's type): every property, unknown ones
    /// included, and every variation.
    pub fn sgf_root(&self) -> &SgfNode<Prop> {
        self.root.get_or_init(|| crate::fast::tree(&self.source))
    }

    /// The starting position: the setup of the root and of any node before the first move
    /// (`AE`, then `AB` and `AW`, node by node), and who moves first: `PL`, else the colour of the
    /// first move, else Black. `handicap_passes` is `HA − 1` for a handicap game with no Black
    /// setup stones (Ing's handicap by passes); it is 0 otherwise.
    ///
    /// # Errors
    /// When the board size is not supported (never, for a record built by this crate).
    pub fn setup(&self) -> Result<Setup, SgfError> {
        setup_of(
            (self.width, self.height),
            self.handicap,
            &self.setup_events,
            &self.moves,
        )
    }

    /// The result `RE` states when it is a count (`B+3`, `W+0.5`): the winner and the margin in
    /// half points ([`crate::counted_result`]). A zero margin is a count only where the komi
    /// allows a tie (a whole komi, or none stated; under Ing's rules a tie is Black's,
    /// "和棋黑勝", written `B+0`): with a half-point komi no count ends level, and the Fox
    /// client writes `B+0.0` for a win it did not count (`RE[W+0.0]` after 18 moves). A record
    /// that holds neither a move nor a stone (a game's header kept without its moves:
    /// `Asahi_Top8/4` of the shared corpus, `RE[B+7.5]` on an empty board) has no board its
    /// result counts, and gives none.
    pub fn counted_result(&self) -> Option<(Color, i32)> {
        self.read_result()?.ok()
    }

    /// Why the result `RE`, which reads as a count (`B+7.5`), is none
    /// ([`Record::counted_result`]); `None` when it is a count, or reads as none at all (a
    /// resignation, no `RE`).
    pub fn not_a_count(&self) -> Option<NotACount> {
        self.read_result()?.err()
    }

    /// The result `RE` when it reads as a count: the count, or why it is none.
    fn read_result(&self) -> Option<Result<(Color, i32), NotACount>> {
        let (winner, halves) = crate::counted_result(self.info.result.as_deref()?)?;
        let half_point_komi = self.komi.is_some_and(|k| k.halves() % 2 != 0);
        let no_board = self.moves.is_empty()
            && self
                .setup_events
                .iter()
                .all(|e| e.black.is_empty() && e.white.is_empty());
        Some(if no_board {
            Err(NotACount::NoBoard)
        } else if halves == 0 && half_point_komi {
            Err(NotACount::ZeroBesideHalfPointKomi)
        } else {
            Ok((winner, halves))
        })
    }

    /// The rules to replay this record under: the preset `RU` maps to (or the event names,
    /// [`Record::rules`]), else `default`, with the record's komi ([`Record::with_komi`]).
    pub fn rules_or(&self, default: Preset) -> Rules {
        self.with_komi(self.rules.map_or(default, |m| m.preset).rules())
    }

    /// `rules` with the komi the game was played with (a preset chosen instead of the record's
    /// `RU` still counts with it): the record's `KM` when it has one; none (0) when the record
    /// names neither a komi nor its rules, as SGF readers take a record without `KM` (sgfmill's
    /// `get_komi`, GNU Go's `loadsgf`): the old games of the professional collections, played
    /// without komi, write none; else the komi of `rules` (an `RU` or an Ing Cup event without
    /// `KM` is counted with that ruleset's komi).
    pub fn with_komi(&self, mut rules: Rules) -> Rules {
        match self.komi {
            Some(komi) => rules.komi = komi,
            None if self.rules.is_none()
                && self.info.rules.is_none()
                && self.info.komi.is_none() =>
            {
                rules.komi = Komi(0)
            }
            None => {}
        }
        rules
    }

    /// The first setup that changes the board inside the game (after a move), if any.
    pub fn setup_in_game(&self) -> Option<&SetupEvent> {
        self.setup_events.iter().find(|e| e.after_move > 0)
    }

    /// The stones that the territory markup of the last node ([`Record::territory`]) counts for
    /// the other side: the dead stones agreed at the end of the game, as [`crate::write_game`]
    /// writes them. `board` is the final position, as the replay leaves it (dead stones are not
    /// taken off the board by the record). `None` when the record has no `TB`/`TW` at the end.
    ///
    /// ```
    /// use ingo_rules::{GameEnd, Preset};
    /// use ingo_sgf::{parse, replay, ReplayMode};
    ///
    /// // Black's stone at `aa` is agreed dead: it lies in White's territory (TW).
    /// let text = "(;GM[1]FF[4]SZ[3]KM[0];B[aa];W[bb];B[];W[]\
    ///             ;TB[]TW[aa][ab][ac][ba][bc][ca][cb][cc])";
    /// let record = &parse(text)?[0];
    /// let mut replayed = replay(record, record.rules_or(Preset::Ing), ReplayMode::Strict)?;
    /// let dead = record.dead_stones(replayed.game.board()).expect("territory markup");
    /// assert_eq!(dead.len(), 1);
    /// replayed.game.agree_dead(&dead).expect("play is suspended after two passes");
    /// assert!(matches!(replayed.game.end(), Some(GameEnd::Agreement(_))));
    /// assert_eq!(replayed.game.score().expect("counted").result_string(), "W+9");
    /// # Ok::<(), ingo_sgf::SgfError>(())
    /// ```
    pub fn dead_stones(&self, board: &Board) -> Option<Vec<Point>> {
        let territory = self.territory.as_ref()?;
        let mut dead = Vec::new();
        for color in [Color::Black, Color::White] {
            for &p in territory.get(color) {
                if board.contains(p) && board.color_at(p) == Some(color.opponent()) {
                    dead.push(p);
                }
            }
        }
        dead.sort();
        dead.dedup();
        Some(dead)
    }

    /// Gives the record its tree.
    pub(crate) fn set_tree(&mut self, tree: Tree) {
        match tree {
            Tree::Built(root) => {
                self.root = OnceLock::from(root);
                self.source = Box::default();
            }
            Tree::Text(text) => {
                self.root = OnceLock::new();
                self.source = text;
            }
        }
    }

    /// The board size, `(width, height)`.
    pub(crate) fn size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    /// Builds the record of one game tree.
    pub(crate) fn from_tree(tree: GameTree) -> Result<Record, ErrorKind> {
        match tree {
            GameTree::GoGame(root) => Record::from_root(root),
            GameTree::Unknown(root) => {
                let gm = root
                    .get_property("GM")
                    .map(|p| match p {
                        sgf_parse::unknown_game::Prop::GM(n) => n.to_string(),
                        sgf_parse::unknown_game::Prop::Invalid(_, v)
                        | sgf_parse::unknown_game::Prop::Unknown(_, v) => v.join(","),
                        _ => String::new(),
                    })
                    .unwrap_or_default();
                Err(ErrorKind::NotGo(gm))
            }
        }
    }

    fn from_root(root: SgfNode<Prop>) -> Result<Record, ErrorKind> {
        let mut builder = RecordBuilder::start(&root.properties)?;
        for node in root.main_variation() {
            builder.node(&node.properties)?;
        }
        let mut record = builder.finish(&root.properties);
        record.set_tree(Tree::Built(root));
        Ok(record)
    }
}

/// Where a record's parsed tree comes from.
pub(crate) enum Tree {
    /// Built already.
    Built(SgfNode<Prop>),
    /// To be built from this text (one game tree, read by [`crate::fast`]) when first asked for.
    Text(Box<str>),
}

/// Builds a [`Record`] from the main line of a game tree, node by node (the root first), without
/// needing the tree itself: [`Record::from_tree`] feeds it the nodes of a parsed tree, and
/// [`crate::fast`] the nodes of the main line as it reads them.
pub(crate) struct RecordBuilder {
    size: (usize, usize),
    info: GameInfo,
    warnings: Vec<Warning>,
    nodes: NodeReader,
    /// `TB` and `TW` of the last node so far.
    territory: Option<ByColor<Vec<Point>>>,
}

impl RecordBuilder {
    /// Starts with the properties of the root (which [`RecordBuilder::node`] must be given too).
    pub(crate) fn start(root: &[Prop]) -> Result<RecordBuilder, ErrorKind> {
        // sgf-parse picks the game from an identifier spelt exactly `GM`, but then reads FF[3]
        // identifiers with lowercase letters (`bbGM`) as the property they name. Check the
        // property it read too, or `bbGM[2]` would be taken for Go here and refused once
        // written back as `GM[2]` (found by the sgf_parse fuzz target).
        if let Some(Prop::GM(n)) = root_property(root, "GM") {
            if *n != 1 {
                return Err(ErrorKind::NotGo(n.to_string()));
            }
        }
        Ok(RecordBuilder {
            size: board_size(root)?,
            info: GameInfo::default(),
            warnings: Vec::new(),
            nodes: NodeReader::default(),
            territory: None,
        })
    }

    /// Reads the next node of the main line.
    pub(crate) fn node(&mut self, props: &[Prop]) -> Result<(), ErrorKind> {
        self.nodes
            .node(props, self.size, &mut self.info, &mut self.warnings)?;
        self.territory = read_territory(props, self.size);
        Ok(())
    }

    /// The record, once every node of the main line was read; `root` holds the properties of
    /// the root. Its tree is still to be given ([`Record::set_tree`]).
    pub(crate) fn finish(self, root: &[Prop]) -> Record {
        let RecordBuilder {
            size: (width, height),
            info,
            mut warnings,
            nodes,
            territory,
        } = self;
        let NodeReader {
            setup_events,
            moves,
            ..
        } = nodes;
        let penalties = read_penalties(root, &mut warnings);
        let rules = info.rules.as_deref().and_then(|ru| {
            let mapping = map_rules(ru);
            match mapping {
                None => warnings.push(Warning::UnknownRules(ru.to_string())),
                Some(m) if !m.exact => warnings.push(Warning::RulesMapped {
                    raw: ru.to_string(),
                    preset: m.preset,
                    note: m.note,
                }),
                Some(_) => {}
            }
            mapping
        });
        // Without `RU`, the event may name the rules.
        let rules = match info.rules {
            Some(_) => rules,
            None => info.event.as_deref().and_then(event_rules),
        };
        let komi = info.komi.as_deref().and_then(|raw| {
            let (komi, warning) = read_komi(raw, rules.map(|m| m.preset));
            warnings.extend(warning);
            komi
        });
        let handicap = info.handicap.as_deref().and_then(|raw| {
            let h = raw.trim().parse::<u32>().ok();
            if h.is_none() {
                warnings.push(Warning::Handicap(raw.to_string()));
            }
            h
        });
        let even = handicap.unwrap_or(0) == 0 && !setup_events.iter().any(|e| e.after_move == 0);
        let komi = match (komi, info.komi.as_deref()) {
            (Some(Komi(0)), Some(raw)) if even && (width, height) == (19, 19) && is_fox(&info) => {
                warnings.push(Warning::Komi {
                    raw: raw.to_string(),
                    note: format!(
                        "read as {FOX_EVEN_KOMI}: Fox writes KM[0] on an even game played with its default komi of 3¾ stones"
                    ),
                });
                Some(FOX_EVEN_KOMI)
            }
            (k, _) => k,
        };
        Record {
            width,
            height,
            komi,
            handicap,
            rules,
            info,
            setup_events,
            moves,
            territory,
            penalties,
            warnings,
            incomplete: None,
            root: OnceLock::new(),
            source: Box::default(),
        }
    }
}

/// Reads the nodes of one line of play one by one (root first): setup and moves, and the game
/// information they hold (the first value of each property wins).
#[derive(Default)]
pub(crate) struct NodeReader {
    setup_events: Vec<SetupEvent>,
    moves: Vec<RecordedMove>,
    /// The number of the next node.
    node_number: usize,
    /// The first `SZ`, `KM`, `RU` and `HA` seen, as written, to warn about any other value.
    first_seen: Vec<(&'static str, String)>,
}

/// The identifier of `prop` when it is one of the properties whose repetition is warned about.
fn repeat_checked(prop: &Prop) -> Option<&'static str> {
    const CHECKED: [&str; 4] = ["SZ", "KM", "RU", "HA"];
    match prop {
        Prop::SZ(_) => Some("SZ"),
        Prop::KM(_) => Some("KM"),
        Prop::RU(_) => Some("RU"),
        Prop::HA(_) => Some("HA"),
        Prop::Invalid(id, _) | Prop::Unknown(id, _) => CHECKED.into_iter().find(|c| c == id),
        _ => None,
    }
}

impl NodeReader {
    fn node(
        &mut self,
        props: &[Prop],
        size: (usize, usize),
        info: &mut GameInfo,
        warnings: &mut Vec<Warning>,
    ) -> Result<(), ErrorKind> {
        let node_number = self.node_number;
        self.node_number += 1;
        let moves = &mut self.moves;
        // The node's moves are `moves[first..]`.
        let first = moves.len();
        // Setup written before the node's move applies before it, setup written after it
        // (GNU Go clears dead stones with `W[tt]AE[...]`) applies after it.
        let mut before = SetupEvent {
            node_number,
            after_move: first,
            ..SetupEvent::default()
        };
        let mut after = before.clone();
        for prop in props {
            if let Some(id) = repeat_checked(prop) {
                // sgf-parse writes `SZ[9:9]`; files say `SZ[9]`.
                let written = match prop {
                    Prop::SZ((w, h)) if w == h => format!("SZ[{w}]"),
                    _ => prop.to_string(),
                };
                // The same value twice loses nothing: only a different one is worth a word.
                match self.first_seen.iter().find(|(seen, _)| *seen == id) {
                    Some((_, first)) if *first == written => {}
                    Some((_, first)) => warnings.push(Warning::Duplicate {
                        node: node_number,
                        value: written,
                        first: first.clone(),
                    }),
                    None => self.first_seen.push((id, written)),
                }
            }
            let setup = if moves.len() == first {
                &mut before
            } else {
                &mut after
            };
            read_prop(prop, node_number, size, info, setup, moves, warnings)?;
        }
        for ev in [&before, &after] {
            for p in ev.white.iter().filter(|p| ev.black.contains(p)) {
                warnings.push(Warning::SetupConflict {
                    node: node_number,
                    point: p.to_sgf(),
                });
            }
        }
        let node_moves = moves.len() - first;
        if node_moves > 1 {
            warnings.push(Warning::TwoMoves(node_number));
        }
        if node_moves > 0 && (has_stones(&before) || has_stones(&after)) {
            warnings.push(Warning::SetupAndMove(node_number));
        }
        after.after_move += node_moves;
        keep_setup(&mut self.setup_events, before);
        keep_setup(&mut self.setup_events, after);
        Ok(())
    }
}

/// Adds `ev` to `events` (its points sorted) unless it is empty.
fn keep_setup(events: &mut Vec<SetupEvent>, mut ev: SetupEvent) {
    if !ev.is_empty() {
        ev.black.sort();
        ev.white.sort();
        ev.empty.sort();
        events.push(ev);
    }
}

/// Reads the nodes of one line of play (root first): setup, moves, and the game information
/// they hold (the first value of each property wins).
pub(crate) fn read_nodes<'a>(
    nodes: impl Iterator<Item = &'a SgfNode<Prop>>,
    size: (usize, usize),
    info: &mut GameInfo,
    warnings: &mut Vec<Warning>,
) -> Result<(Vec<SetupEvent>, Vec<RecordedMove>), ErrorKind> {
    let mut reader = NodeReader::default();
    for node in nodes {
        reader.node(&node.properties, size, info, warnings)?;
    }
    Ok((reader.setup_events, reader.moves))
}

/// The starting position of a line of play: its setup before the first move, who moves first
/// (`PL`, else the colour of the first move, else Black) and Ing's handicap passes (`HA − 1` when
/// there are no Black setup stones).
pub(crate) fn setup_of(
    (width, height): (usize, usize),
    handicap: Option<u32>,
    setup_events: &[SetupEvent],
    moves: &[RecordedMove],
) -> Result<Setup, SgfError> {
    let mut board = Board::with_dims(width, height).map_err(ErrorKind::from)?;
    let mut to_move = None;
    for ev in setup_events.iter().take_while(|e| e.after_move == 0) {
        apply_setup(&mut board, ev);
        if ev.to_move.is_some() {
            to_move = ev.to_move;
        }
    }
    let to_move = to_move
        .or(moves.first().map(|m| m.color))
        .unwrap_or(Color::Black);
    let handicap = handicap.unwrap_or(0);
    let handicap_passes = if handicap >= 2 && board.stone_count(Color::Black) == 0 {
        u8::try_from(handicap - 1).unwrap_or(u8::MAX)
    } else {
        0
    };
    Ok(Setup {
        board,
        to_move,
        handicap_passes,
    })
}

/// `TB` and `TW` among `props` (of the last node of the main line), when it has either.
fn read_territory(props: &[Prop], size: (usize, usize)) -> Option<ByColor<Vec<Point>>> {
    let on_board = |set: &std::collections::HashSet<go::Point>| {
        let mut points: Vec<Point> = set
            .iter()
            .filter(|p| usize::from(p.x) < size.0 && usize::from(p.y) < size.1)
            .filter_map(|p| Point::new(usize::from(p.x), usize::from(p.y)))
            .collect();
        points.sort();
        points
    };
    let mut territory: Option<ByColor<Vec<Point>>> = None;
    for prop in props {
        let (color, set) = match prop {
            Prop::TB(set) => (Color::Black, set),
            Prop::TW(set) => (Color::White, set),
            _ => continue,
        };
        let t = territory.get_or_insert_with(ByColor::default);
        t.get_mut(color).extend(on_board(set));
    }
    territory
}

/// Ing's time-penalty points, from ingo's private root properties `BP` and `WP`.
fn read_penalties(root: &[Prop], warnings: &mut Vec<Warning>) -> ByColor<i32> {
    let mut penalties = ByColor::default();
    for prop in root {
        let Prop::Unknown(id, values) = prop else {
            continue;
        };
        let color = match id.as_str() {
            BLACK_PENALTY => Color::Black,
            WHITE_PENALTY => Color::White,
            _ => continue,
        };
        let raw = values.join("][");
        match raw.trim().parse::<i32>() {
            Ok(points) => *penalties.get_mut(color) = points,
            Err(_) => warnings.push(Warning::Ignored {
                node: 0,
                property: id.clone(),
                value: raw,
                why: "not a whole number of penalty points",
            }),
        }
    }
    penalties
}

/// Applies one setup node to `board`: `AE` first, then `AB` and `AW` (replacing any stone there).
pub(crate) fn apply_setup(board: &mut Board, ev: &SetupEvent) {
    for &p in &ev.empty {
        board.clear_stone(p);
    }
    for (points, color) in [(&ev.black, Color::Black), (&ev.white, Color::White)] {
        for &p in points {
            if board.color_at(p) == Some(color.opponent()) {
                board.clear_stone(p);
            }
            board.set_stone(p, color);
        }
    }
}

/// `root.get_property(id)` for `id` = `SZ` or `GM`, without the `String` that sgf-parse's
/// `get_property` makes of every property it compares.
fn root_property<'a>(root: &'a [Prop], id: &str) -> Option<&'a Prop> {
    debug_assert!(matches!(id, "SZ" | "GM"));
    root.iter().find(|p| match p {
        Prop::SZ(_) => id == "SZ",
        Prop::GM(_) => id == "GM",
        Prop::Invalid(name, _) | Prop::Unknown(name, _) => name == id,
        _ => false,
    })
}

/// `SZ` of the root: `(width, height)`, 19×19 when absent.
fn board_size(root: &[Prop]) -> Result<(usize, usize), ErrorKind> {
    let (w, h) = match root_property(root, "SZ") {
        None => (19, 19),
        Some(Prop::SZ((w, h))) => (usize::from(*w), usize::from(*h)),
        Some(Prop::Invalid(_, v) | Prop::Unknown(_, v)) => {
            // sgf-parse refuses sizes above 255 and anything that is not `n` or `w:h`;
            // whitespace around the number is common enough to accept.
            let raw = v.join("][");
            let t = raw.trim();
            let parse = |s: &str| s.trim().parse::<usize>().ok();
            match t.split_once(':') {
                Some((a, b)) => parse(a).zip(parse(b)),
                None => parse(t).map(|n| (n, n)),
            }
            .ok_or_else(|| ErrorKind::BoardSize(raw.clone()))?
        }
        Some(_) => (19, 19),
    };
    if !(1..=ingo_rules::MAX_SIZE).contains(&w) || !(1..=ingo_rules::MAX_SIZE).contains(&h) {
        let raw = if w == h {
            w.to_string()
        } else {
            format!("{w}:{h}")
        };
        return Err(ErrorKind::BoardSize(raw));
    }
    Ok((w, h))
}

/// The SGF letters of a sgf-parse point (`a`–`z`, then `A`–`Z`).
fn sgf_name(p: &go::Point) -> String {
    format!("{}{}", letter(p.x), letter(p.y))
}

fn bad_value(node: usize, property: &str, value: String) -> ErrorKind {
    ErrorKind::BadValue {
        node,
        property: property.to_string(),
        value,
    }
}

/// A move value: `[]` is a pass, and so is `[tt]` on boards up to 19×19 (FF\[3] and many
/// programs still write it). Points off the board but within 25×25 are kept, for the replay to
/// refuse as `off-board`.
fn read_move(
    m: &go::Move,
    size: (usize, usize),
    node: usize,
    prop: &str,
) -> Result<Move, ErrorKind> {
    match m {
        go::Move::Pass => Ok(Move::Pass),
        go::Move::Move(p) if p.x == 19 && p.y == 19 && size.0 <= 19 && size.1 <= 19 => {
            Ok(Move::Pass)
        }
        go::Move::Move(p) => Point::new(usize::from(p.x), usize::from(p.y))
            .map(Move::Play)
            .ok_or_else(|| bad_value(node, prop, sgf_name(p))),
    }
}

fn first_text(slot: &mut Option<String>, text: &str) {
    if slot.is_none() {
        *slot = Some(text.trim().to_string());
    }
}

#[allow(clippy::too_many_arguments)]
fn read_prop(
    prop: &Prop,
    node: usize,
    size: (usize, usize),
    info: &mut GameInfo,
    ev: &mut SetupEvent,
    moves: &mut Vec<RecordedMove>,
    warnings: &mut Vec<Warning>,
) -> Result<(), ErrorKind> {
    let points = |set: &std::collections::HashSet<go::Point>,
                  id: &str,
                  out: &mut Vec<Point>,
                  warnings: &mut Vec<Warning>| {
        for p in set {
            let (x, y) = (usize::from(p.x), usize::from(p.y));
            match Point::new(x, y) {
                Some(pt) if x < size.0 && y < size.1 => out.push(pt),
                _ => warnings.push(Warning::Ignored {
                    node,
                    property: id.to_string(),
                    value: sgf_name(p),
                    why: "off the board",
                }),
            }
        }
    };
    match prop {
        Prop::B(m) => moves.push(RecordedMove {
            color: Color::Black,
            mv: read_move(m, size, node, "B")?,
            node_number: node,
        }),
        Prop::W(m) => moves.push(RecordedMove {
            color: Color::White,
            mv: read_move(m, size, node, "W")?,
            node_number: node,
        }),
        Prop::AB(set) => points(set, "AB", &mut ev.black, warnings),
        Prop::AW(set) => points(set, "AW", &mut ev.white, warnings),
        Prop::AE(set) => points(set, "AE", &mut ev.empty, warnings),
        Prop::PL(c) => {
            ev.to_move = Some(match c {
                sgf_parse::Color::Black => Color::Black,
                sgf_parse::Color::White => Color::White,
            })
        }
        Prop::PB(t) => first_text(&mut info.players.black, &t.text),
        Prop::PW(t) => first_text(&mut info.players.white, &t.text),
        Prop::BR(t) => first_text(&mut info.ranks.black, &t.text),
        Prop::WR(t) => first_text(&mut info.ranks.white, &t.text),
        Prop::BT(t) => first_text(&mut info.teams.black, &t.text),
        Prop::WT(t) => first_text(&mut info.teams.white, &t.text),
        Prop::EV(t) => first_text(&mut info.event, &t.text),
        Prop::RO(t) => first_text(&mut info.round, &t.text),
        Prop::DT(t) => first_text(&mut info.date, &t.text),
        Prop::PC(t) => first_text(&mut info.place, &t.text),
        Prop::GN(t) => first_text(&mut info.name, &t.text),
        Prop::RE(t) => first_text(&mut info.result, &t.text),
        Prop::RU(t) => first_text(&mut info.rules, &t.text),
        Prop::OT(t) => first_text(&mut info.overtime, &t.text),
        Prop::SO(t) => first_text(&mut info.source, &t.text),
        Prop::GC(t) => first_text(&mut info.comment, &t.text),
        Prop::TM(v) => first_text(&mut info.time, &v.to_string()),
        Prop::KM(v) => first_text(&mut info.komi, &v.to_string()),
        Prop::HA(v) => first_text(&mut info.handicap, &v.to_string()),
        Prop::AP((name, version)) => {
            let ap = if version.text.is_empty() {
                name.text.clone()
            } else {
                format!("{}:{}", name.text, version.text)
            };
            first_text(&mut info.application, &ap);
        }
        Prop::Invalid(id, values) => read_invalid(id, values, node, info, ev, warnings)?,
        _ => {}
    }
    Ok(())
}

/// Properties that sgf-parse found invalid: some are still readable (`HA[1]`, `KM[6.5 ]`,
/// `PL[b]`, `AB[]`, a duplicated `CA[UTF-8][UTF-8]`), others are fatal (a bad move).
fn read_invalid(
    id: &str,
    values: &[String],
    node: usize,
    info: &mut GameInfo,
    ev: &mut SetupEvent,
    warnings: &mut Vec<Warning>,
) -> Result<(), ErrorKind> {
    let raw = values.join("][");
    let first = values.first().map(String::as_str).unwrap_or_default();
    match id {
        "B" | "W" => return Err(bad_value(node, id, raw)),
        // An empty list (`AE[]`) means nothing; anything else names an impossible point.
        "AB" | "AW" | "AE" if values.iter().any(|v| !v.trim().is_empty()) => {
            return Err(bad_value(node, id, raw))
        }
        "PL" => match Color::from_str(first.trim()) {
            Ok(c) => ev.to_move = Some(c),
            Err(_) => warnings.push(Warning::Ignored {
                node,
                property: id.to_string(),
                value: raw,
                why: "not B or W",
            }),
        },
        "KM" => first_text(&mut info.komi, first),
        "HA" => first_text(&mut info.handicap, first),
        "TM" => first_text(&mut info.time, first),
        "SZ" => {}
        // Game-info text with several values, such as a doubled `PB[x][x]`: keep the first.
        "PB" => first_text(&mut info.players.black, first),
        "PW" => first_text(&mut info.players.white, first),
        "BR" => first_text(&mut info.ranks.black, first),
        "WR" => first_text(&mut info.ranks.white, first),
        "EV" => first_text(&mut info.event, first),
        "RO" => first_text(&mut info.round, first),
        "DT" => first_text(&mut info.date, first),
        "PC" => first_text(&mut info.place, first),
        "GN" => first_text(&mut info.name, first),
        "RE" => first_text(&mut info.result, first),
        "RU" => first_text(&mut info.rules, first),
        "AP" => first_text(&mut info.application, first),
        _ => {}
    }
    Ok(())
}

/// The komi of an even 19×19 game on the Fox server (3¾ stones, 7.5 points), which its client
/// writes as `KM[0]`. Measured on the corpus's counted Fox records with `KM[0]`, no handicap and
/// no setup (`../shared/sgf-corpus/yenw-computer-go-dataset`): counted by area, 55 of 56 name
/// their recorded winner with 7.5 and 31 of 56 with 0; the recorded margins are the area count
/// less 7.5 (21 records) or 6.5 (24, one shared point apart).
pub const FOX_EVEN_KOMI: Komi = Komi(15);

/// The rules an event is played under, when its name says so: the Ing Cup (應氏杯), under Ing's.
fn event_rules(event: &str) -> Option<RulesMapping> {
    let ing_cup = event.to_lowercase().contains("ing cup")
        || event.contains("應氏杯")
        || event.contains("应氏杯");
    ing_cup.then_some(RulesMapping {
        preset: Preset::Ing,
        exact: true,
        note: "Ing's rules, from the event: an Ing Cup game",
    })
}

/// Whether the record was written by the Fox client (`AP[YuanYu]`, `AP[foxwq]`).
fn is_fox(info: &GameInfo) -> bool {
    info.application.as_deref().is_some_and(|ap| {
        let name = ap.split(':').next().unwrap_or(ap).trim();
        name.eq_ignore_ascii_case("YuanYu") || name.eq_ignore_ascii_case("foxwq")
    })
}

/// Reads a `KM` value. Ordinary values (`6.5`, `7.50`, `6.500000`, `-1.5`) are exact. Fox writes
/// komi ×100 (`KM[650]` for 6.5), and for Chinese rules in stones (`KM[375]`: 3¾ stones, that is
/// 7.5 points); a whole value of 100 or more is read that way, with a warning. Anything else that
/// is not a whole or half point is ignored, with a warning.
fn read_komi(raw: &str, preset: Option<Preset>) -> (Option<Komi>, Option<Warning>) {
    let t = raw.trim();
    if t.is_empty() {
        return (None, None);
    }
    if let Ok(k) = Komi::from_str(t) {
        if k.halves().abs() < 200 {
            return (Some(k), None);
        }
    }
    let warn = |note: String| {
        Some(Warning::Komi {
            raw: raw.to_string(),
            note,
        })
    };
    let Ok(v) = t.parse::<f64>() else {
        return (None, warn("not a number; ignored".into()));
    };
    if v.is_finite() && v.abs() >= 100.0 && v.abs() < 100_000.0 && v.fract() == 0.0 {
        let hundredths = v as i64;
        if hundredths % 50 == 0 {
            let k = Komi((hundredths / 50) as i32);
            return (
                Some(k),
                warn(format!("read as {k} (komi ×100, as Fox writes it)")),
            );
        }
        if hundredths % 25 == 0 && preset == Some(Preset::Chinese) {
            let k = Komi((hundredths / 25) as i32);
            return (
                Some(k),
                warn(format!(
                    "read as {} stones = {k} points (Fox writes Chinese komi ×100, in stones)",
                    v / 100.0
                )),
            );
        }
    }
    (None, warn("not a whole or half point; ignored".into()))
}

/// Builds the records straight from the main lines, without the trees (built on demand from the
/// text of each game tree, [`Record::sgf_root`]).
#[derive(Default)]
struct RecordSink {
    games: Vec<Result<Record, ErrorKind>>,
    /// The game being read: its root's properties and the record so far, or why it fails.
    game: Option<Result<(Vec<Prop>, RecordBuilder), ErrorKind>>,
}

impl Sink for RecordSink {
    const ALL_NODES: bool = false;

    fn open(&mut self, top: bool) {
        if top {
            self.game = None;
        }
    }

    fn node(&mut self, props: &mut Vec<Prop>, main: bool) -> Option<()> {
        debug_assert!(main);
        match &mut self.game {
            None => {
                let root = std::mem::take(props);
                let game = RecordBuilder::start(&root).and_then(|mut builder| {
                    builder.node(&root)?;
                    Ok((root, builder))
                });
                self.game = Some(game);
            }
            Some(Ok((_, builder))) => {
                if let Err(e) = builder.node(props) {
                    self.game = Some(Err(e));
                }
            }
            Some(Err(_)) => {}
        }
        Some(())
    }

    fn close(&mut self, tree: Option<&str>) -> Option<()> {
        if let Some(text) = tree {
            let record = match self.game.take()? {
                Ok((root, builder)) => {
                    let mut record = builder.finish(&root);
                    record.set_tree(Tree::Text(text.into()));
                    Ok(record)
                }
                Err(e) => Err(e),
            };
            self.games.push(record);
        }
        Some(())
    }
}

/// The records of `text` (one result per game tree), read from the main lines without building
/// the trees, when `text` is well-formed SGF of Go whose lines of play are at most `max_depth`
/// nodes deep; `None` for anything else (see the module documentation). Each is what
/// [`Record::from_tree`] gives for the tree that [`parse`] reads.
pub(crate) fn records(text: &str, max_depth: usize) -> Option<Vec<Result<Record, ErrorKind>>> {
    let mut sink = RecordSink::default();
    read(text, max_depth, &mut sink)?;
    Some(sink.games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn komi_values() {
        let k = |s: &str, p| read_komi(s, p).0;
        assert_eq!(k("6.5", None), Some(Komi(13)));
        assert_eq!(k("6.500000", None), Some(Komi(13)));
        assert_eq!(k("7.50", None), Some(Komi(15)));
        assert_eq!(k("-1.5", None), Some(Komi(-3)));
        assert_eq!(k("8", None), Some(Komi(16)));
        assert_eq!(k("750", None), Some(Komi(15)));
        assert_eq!(k("650", Some(Preset::Japanese)), Some(Komi(13)));
        assert_eq!(k("375", Some(Preset::Chinese)), Some(Komi(15)));
        assert_eq!(k("375", None), None);
        assert_eq!(k("3.75", None), None);
        assert_eq!(k("six", None), None);
        assert!(read_komi("375", None).1.is_some());
        assert!(read_komi("7.5", None).1.is_none());
    }

    #[test]
    fn a_record_without_komi_or_rules_counts_with_no_komi() {
        let r = |sgf: &str| crate::parse(sgf).expect("parses").remove(0);
        // Neither KM nor RU: no komi, as SGF readers take it (sgfmill, GNU Go's loadsgf).
        let old = r("(;SZ[19]PB[Honinbo Shusaku]PW[Ota Yuzo];B[pd])");
        assert_eq!(old.rules_or(Preset::Ing).komi, Komi(0));
        assert_eq!(old.with_komi(Preset::Chinese.rules()).komi, Komi(0));
        // A komi written is the komi, whatever the rules.
        let km = r("(;SZ[19]KM[6.5];B[pd])");
        assert_eq!(km.rules_or(Preset::Ing).komi, Komi(13));
        // Rules named without a komi: that ruleset's komi.
        let ru = r("(;SZ[19]RU[Chinese];B[pd])");
        assert_eq!(ru.rules_or(Preset::Ing).komi, Komi(15));
        // An Ing Cup record names its rules by its event: Ing's, komi 8.
        for ev in [
            "2nd Ing Cup",
            "7th Ing Cup, Korean preliminary",
            "第五屆應氏杯",
        ] {
            let ing = r(&format!("(;SZ[19]EV[{ev}];B[pd])"));
            assert_eq!(ing.rules.map(|m| m.preset), Some(Preset::Ing), "{ev}");
            assert_eq!(ing.rules_or(Preset::Japanese), Rules::ing(), "{ev}");
        }
        // An RU the event does not override.
        let named = r("(;SZ[19]EV[3rd Ing Cup]RU[Japanese];B[pd])");
        assert_eq!(named.rules.map(|m| m.preset), Some(Preset::Japanese));
    }

    #[test]
    fn rules_names() {
        let p = |s: &str| map_rules(s).map(|m| (m.preset, m.exact));
        assert_eq!(p("Ing"), Some((Preset::Ing, true)));
        assert_eq!(p("Ing Goe"), Some((Preset::Ing, true)));
        assert_eq!(p("GOE"), Some((Preset::Ing, true)));
        assert_eq!(p("sst"), Some((Preset::Ing, true)));
        assert_eq!(p("Chinese"), Some((Preset::Chinese, true)));
        assert_eq!(p("japanese"), Some((Preset::Japanese, true)));
        assert_eq!(p("JPN"), Some((Preset::Japanese, true)));
        assert_eq!(p("Korean"), Some((Preset::Japanese, false)));
        assert_eq!(p("AGA"), Some((Preset::Chinese, false)));
        assert_eq!(p("NZ"), Some((Preset::TrompTaylor, false)));
        assert_eq!(p("New Zealand"), Some((Preset::TrompTaylor, false)));
        assert_eq!(p("Tromp/Taylor"), Some((Preset::TrompTaylor, true)));
        assert_eq!(p("TT--"), Some((Preset::TrompTaylor, true)));
        assert_eq!(p("應氏規則"), Some((Preset::Ing, true)));
        assert_eq!(p("Pair go"), None);
        assert_eq!(p("Uchikomi"), None);
    }
}
