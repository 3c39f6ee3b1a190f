//! Writing SGF: records read from files, losslessly, and games played through [`Game`].
//!
//! Both writers produce text (a Rust `String`, so UTF-8, declared as `CA[UTF-8]`) that this
//! crate and sgfmill read back. Properties are written one after another, nodes follow each
//! other on lines of about 72 characters, and every game tree ends with a newline.

use std::collections::HashSet;
use std::time::Duration;

use ingo_clock::sgf_real;
use ingo_rules::{Color, Game, GameEnd, Move, Owner, Point, Preset, Rules};
use sgf_parse::go::{self, Prop};
use sgf_parse::{SgfNode, SgfProp};

use crate::names::{letter, rules_sgf_name, BLACK_PENALTY, WHITE_PENALTY};
use crate::record::{GameInfo, Record};

/// Lines are broken before a node once they are this long.
const LINE_WIDTH: usize = 72;

/// The SGF text of a record read from a file: its whole game tree, every property and every
/// variation, as [`Record::sgf_root`] holds it (see [`write_tree`]).
///
/// The fields of the record ([`Record::moves`], [`Record::info`]...) are what was read from
/// that tree; they are not written back, so changing them changes nothing here. To write a game
/// after changing it, replay it and use [`write_game`].
///
/// ```
/// use ingo_sgf::{parse, write};
///
/// let text = "(;GM[1]FF[4]SZ[9]CoPyright[\\]ingo\\]]XY[a\\\\b];B[ee]C[hi: there];W[])";
/// let record = &parse(text)?[0];
/// let written = write(record);
/// assert_eq!(written, "(;GM[1]FF[4]SZ[9]CP[\\]ingo\\]]XY[a\\\\b]\n;B[ee]C[hi: there];W[])\n");
/// let again = &parse(&written)?[0];
/// assert_eq!(again.sgf_root(), record.sgf_root());
/// # Ok::<(), ingo_sgf::SgfError>(())
/// ```
pub fn write(record: &Record) -> String {
    write_tree(record.sgf_root())
}

/// The SGF text of several records, one game tree after another (an SGF collection).
pub fn write_collection(records: &[Record]) -> String {
    records.iter().map(write).collect()
}

/// The SGF text of a game tree as sgf-parse holds it, written without recursion (a tree as deep
/// as [`crate::MAX_DEPTH`] is fine).
///
/// It is lossless: reading the text back gives the same tree, except for the character set.
///
/// * **Every property is kept**, unknown and invalid ones included, in their order. FF\[3]
///   mixed-case identifiers were already made upper case by the reader (`CoPyright` → `CP`);
///   a property left with no identifier at all (`[x]`, or `lowercase[x]`) cannot be written
///   and is dropped.
/// * **Escapes:** `\` and `]` are escaped in every value; `:` too in the parts of a composed
///   value (`AP[name:version]`, `LB[pd:text]`). sgf-parse removes escapes as it reads, so a `:`
///   in the value of an unknown property is written plain (`a\:b` cannot be told from a
///   composed `a:b`), and a composed value with an escaped colon, which sgf-parse then finds
///   invalid, is kept and written as its text (`AP[my\:app:1]` becomes `AP[my:app:1]`).
/// * **Character set:** the text is UTF-8, so the root's `CA` is written as `CA[UTF-8]`, and
///   added when the root has none and the text is not plain ASCII.
/// * **Normal forms:** a square `SZ` is written `SZ[19]` (sgfmill reads no other form), point
///   lists are written one point per value in alphabetical order (`AB[aa:bb]` becomes
///   `AB[aa][ab][ba][bb]`), numbers as Rust prints them (`KM[6.50]` becomes `KM[6.5]`).
pub fn write_tree(root: &SgfNode<Prop>) -> String {
    enum Step<'a> {
        Open,
        Close,
        Node(&'a SgfNode<Prop>),
    }
    let mut w = Writer::default();
    w.push("(");
    let mut stack = vec![Step::Node(root)];
    let mut has_charset = false;
    while let Some(step) = stack.pop() {
        match step {
            Step::Open => {
                w.wrap();
                w.push("(");
            }
            Step::Close => w.push(")"),
            Step::Node(node) => {
                let is_root = std::ptr::eq(node, root);
                if !is_root {
                    w.wrap();
                }
                w.push(";");
                for prop in &node.properties {
                    let id = prop.identifier();
                    if id.is_empty() {
                        // A value with no identifier (or one of lower-case letters only, which
                        // the reader turns into none) cannot be written as SGF.
                        continue;
                    }
                    if is_root && id == "CA" {
                        // The text is UTF-8 whatever the file was: one CA, saying so.
                        if !has_charset {
                            w.push("CA[UTF-8]");
                            has_charset = true;
                        }
                    } else {
                        write_prop(&mut w, prop);
                    }
                }
                if is_root && !node.children.is_empty() {
                    w.newline();
                }
                match node.children.as_slice() {
                    [] => {}
                    [only] => stack.push(Step::Node(only)),
                    children => {
                        for child in children.iter().rev() {
                            stack.push(Step::Close);
                            stack.push(Step::Node(child));
                            stack.push(Step::Open);
                        }
                    }
                }
            }
        }
    }
    w.push(")\n");
    let mut out = w.out;
    if !has_charset && !out.is_ascii() {
        out.insert_str("(;".len(), "CA[UTF-8]");
    }
    out
}

/// What [`write_game`] writes besides the game itself: game information, comments, and the
/// clock after each move.
///
/// ```
/// use ingo_sgf::{MoveInfo, WriteInfo};
/// use std::time::Duration;
///
/// let mut info = WriteInfo::default();
/// info.info.players.black = Some("Nie Weiping".into());
/// info.info.players.white = Some("Cho Hunhyun".into());
/// info.info.event = Some("1st Ing Cup, final".into());
/// info.info.time = Some("10800".into());
/// info.info.overtime = Some("Ing PP 2 points per 1/6 of basic time".into());
/// info.moves.push(MoveInfo {
///     time_left: Some(Duration::from_secs(10_790)),
///     ..MoveInfo::default()
/// });
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteInfo {
    /// Game information, in the reader's vocabulary, so that a record's [`Record::info`] can be
    /// written again. Written when set: `PB`/`PW`, `BR`/`WR`, `BT`/`WT`, `EV`, `RO`, `DT`,
    /// `PC`, `GN`, `SO`, `TM` and `OT` (the texts of `ingo-clock`'s `sgf_tm` and `sgf_ot`), and
    /// `GC` ([`GameInfo::comment`]).
    ///
    /// These replace what [`write_game`] would write: `RE` ([`GameInfo::result`], for a result
    /// the game does not know, such as `Void`), `RU` ([`GameInfo::rules`]) and `AP`
    /// ([`GameInfo::application`], `name:version`). [`GameInfo::komi`] and
    /// [`GameInfo::handicap`] are not used: the game's komi and handicap are written.
    pub info: GameInfo,
    /// `C` of the root node: a comment on the whole game.
    ///
    /// (Time-penalty points are not here: they are the game's own, [`Game::set_penalty`],
    /// since its count and so `RE` depend on them.)
    pub comment: Option<String>,
    /// What to write with each move, by its index in [`Game::history`] (handicap passes
    /// included); moves past the end of the list get nothing.
    pub moves: Vec<MoveInfo>,
}

/// What [`write_game`] writes with one move.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveInfo {
    /// `C`: a comment.
    pub comment: Option<String>,
    /// `BL` or `WL` (the mover's): the time left on the mover's clock after the move, in
    /// seconds with at most three decimals (`1799.5`), rounded down like a clock display.
    pub time_left: Option<Duration>,
    /// `OB` or `OW` (the mover's): byo-yomi periods, or Canadian stones, left after the move.
    pub periods_left: Option<u32>,
}

/// The preset `rules` are: the one equal to them, komi included, else the first one (in
/// [`Preset::ALL`] order) that differs only in komi; `None` for rules of no preset.
pub fn preset_of(rules: &Rules) -> Option<Preset> {
    let same_play = |p: &Preset| {
        let r = p.rules();
        (r.ko, r.suicide, r.tie_even, r.tie_handicap)
            == (rules.ko, rules.suicide, rules.tie_even, rules.tie_handicap)
    };
    Preset::ALL
        .into_iter()
        .find(|p| same_play(p) && p.rules().komi == rules.komi)
        .or_else(|| Preset::ALL.into_iter().find(same_play))
}

/// The SGF record of a game played through [`Game`]: ingo's own format, which this crate's
/// reader and [`crate::replay`] turn back into the same game, and which sgfmill reads.
///
/// * **Root:** `FF[4]GM[1]CA[UTF-8]AP[ingo:VERSION]RU[GOE]SZ[19]KM[8]`, then `HA`, the game
///   information of `info`, `RE`, the penalty points, `GC`, `C`, and the setup: `AB`/`AW` for
///   stones on the board at the start and `PL` when White starts or there are stones. `RU` is
///   the SGF name of the game's preset ([`rules_sgf_name`], [`preset_of`]), absent for rules
///   of no preset; `KM` is the komi as [`Komi`](ingo_rules::Komi) displays it (`8`, `7.5`).
/// * **Handicap:** Ing gives a handicap by White passes (讓手: "N先 → N−1 White passes"),
///   which the game has played as ordinary passes: they are written as the `W[]` moves they
///   are, and `HA` is their number plus one (`HA[3]` for two passes, "3先"), as
///   [`Record::setup`] reads it back.
/// * **Moves:** one node each, passes as `B[]`/`W[]` (never `tt`; 第十條 記譜), with the
///   [`MoveInfo`] given for it: `BL`/`WL`, `OB`/`OW`, `C`.
/// * **Result:** `RE` from the way the game ended: the count's
///   [`result_string`](ingo_rules::Score::result_string) (`B+7`, `W+0.5`, and `B+0` for a
///   tie, since under Ing's rules a tie is won, "和棋黑勝", never a draw), `B+R` when White
///   resigned, `B+T` on time, `B+F` by forfeit (the reason is not written: put it in
///   [`GameInfo::comment`]). No `RE` while the game goes on, unless `info` gives one.
/// * **Penalty points:** the game's ([`Game::penalties`]), nonzero ones as ingo's private root
///   properties `BP[2]` and `WP[4]`; [`Record::penalties`] reads them and [`crate::replay`]
///   gives them back to the game. Other programs ignore them; `RE` already counts them.
/// * **Dead stones agreed at the end** ([`GameEnd::Agreement`]): one more node after the last
///   pass with the territory as counted, `TB` and `TW`, the agreed dead stones included in the
///   other side's territory (as CGoban and KGS mark the end of a game). The stones are not
///   taken off (no `AE`), so every reader replays the final position unchanged; sgfmill reads
///   `TB`/`TW` as the standard territory markup, and [`Record::dead_stones`] finds the dead
///   stones again: the stones lying in the other side's territory.
///
/// ```
/// use ingo_rules::{Game, Move, Point, Rules, Setup};
/// use ingo_sgf::{parse, replay, write_game, ReplayMode, WriteInfo};
///
/// let mut game = Game::new(Setup::empty(9).expect("size"), Rules::ing());
/// let e5 = Point::from_gtp("E5", 9, 9).expect("point");
/// for mv in [Move::Play(e5), Move::Pass, Move::Pass, Move::Pass, Move::Pass] {
///     game.play(mv).expect("legal");
/// }
/// let text = write_game(&game, &WriteInfo::default());
/// assert!(text.starts_with("(;FF[4]GM[1]CA[UTF-8]AP[ingo:"));
/// assert!(text.contains("RU[GOE]SZ[9]KM[8]\nRE[B+73]\n;B[ee]"));
/// assert!(text.contains(";B[ee];W[];B[];W[];B[])"));
///
/// let record = &parse(&text)?[0];
/// let replayed = replay(record, record.rules_or(ingo_rules::Preset::Ing), ReplayMode::Strict)?;
/// assert_eq!(replayed.game.board(), game.board());
/// assert_eq!(replayed.game.score(), game.score());
/// # Ok::<(), ingo_sgf::SgfError>(())
/// ```
pub fn write_game(game: &Game, info: &WriteInfo) -> String {
    let setup = game.setup();
    let (width, height) = (setup.board.width(), setup.board.height());
    let gi = &info.info;
    let mut w = Writer::default();
    w.push("(;FF[4]GM[1]CA[UTF-8]");
    let application = gi
        .application
        .clone()
        .unwrap_or_else(|| format!("ingo:{}", env!("CARGO_PKG_VERSION")));
    let (name, version) = application
        .split_once(':')
        .unwrap_or((application.as_str(), ""));
    w.push(&format!(
        "AP[{}:{}]",
        escape_compose(name),
        escape_compose(version)
    ));
    let rules = gi
        .rules
        .clone()
        .or_else(|| preset_of(game.rules()).map(|p| rules_sgf_name(p).to_string()));
    w.text_prop("RU", rules.as_deref());
    if width == height {
        w.push(&format!("SZ[{width}]"));
    } else {
        w.push(&format!("SZ[{width}:{height}]"));
    }
    w.push(&format!("KM[{}]", game.rules().komi));
    if setup.handicap_passes > 0 {
        w.push(&format!("HA[{}]", u32::from(setup.handicap_passes) + 1));
    }
    // Game information on the lines after, wrapped between properties.
    w.newline();
    w.wrap_props = true;
    w.text_prop("PB", gi.players.black.as_deref());
    w.text_prop("BR", gi.ranks.black.as_deref());
    w.text_prop("BT", gi.teams.black.as_deref());
    w.text_prop("PW", gi.players.white.as_deref());
    w.text_prop("WR", gi.ranks.white.as_deref());
    w.text_prop("WT", gi.teams.white.as_deref());
    w.text_prop("EV", gi.event.as_deref());
    w.text_prop("RO", gi.round.as_deref());
    w.text_prop("DT", gi.date.as_deref());
    w.text_prop("PC", gi.place.as_deref());
    w.text_prop("GN", gi.name.as_deref());
    w.text_prop("SO", gi.source.as_deref());
    w.text_prop("TM", gi.time.as_deref());
    w.text_prop("OT", gi.overtime.as_deref());
    let result = gi.result.clone().or_else(|| result_of(game));
    w.text_prop("RE", result.as_deref());
    let penalties = game.penalties();
    for (id, color) in [(BLACK_PENALTY, Color::Black), (WHITE_PENALTY, Color::White)] {
        let points = *penalties.get(color);
        if points != 0 {
            w.wrap();
            w.push(&format!("{id}[{points}]"));
        }
    }
    w.text_prop("GC", gi.comment.as_deref());
    w.text_prop("C", info.comment.as_deref());
    let stones = |color| {
        let mut points: Vec<Point> = setup
            .board
            .points()
            .filter(|&p| setup.board.color_at(p) == Some(color))
            .collect();
        points.sort_by_key(|p| p.to_sgf());
        points
    };
    let (black, white) = (stones(Color::Black), stones(Color::White));
    w.point_list("AB", &black);
    w.point_list("AW", &white);
    if setup.to_move == Color::White || !black.is_empty() || !white.is_empty() {
        w.wrap();
        w.push(&format!("PL[{}]", setup.to_move.letter()));
    }
    w.wrap_props = false;
    if w.out.len() > w.line_start {
        w.newline();
    }
    for (i, played) in game.history().enumerate() {
        if i > 0 {
            w.wrap();
        }
        let letter = played.color.letter();
        match played.mv {
            Move::Play(p) => w.push(&format!(";{letter}[{}]", p.to_sgf())),
            Move::Pass => w.push(&format!(";{letter}[]")),
        }
        if let Some(extra) = info.moves.get(i) {
            if let Some(left) = extra.time_left {
                w.push(&format!("{letter}L[{}]", sgf_real(left)));
            }
            if let Some(periods) = extra.periods_left {
                let id = match played.color {
                    Color::Black => "OB",
                    Color::White => "OW",
                };
                w.push(&format!("{id}[{periods}]"));
            }
            w.text_prop("C", extra.comment.as_deref());
        }
    }
    if let Some(GameEnd::Agreement(dead)) = game.end() {
        let score = game.count(dead);
        let board = game.board();
        let mut territory = ingo_rules::ByColor::<Vec<Point>>::default();
        for (p, owner) in board.points().zip(&score.owners) {
            let color = match owner {
                Owner::Black => Color::Black,
                Owner::White => Color::White,
                Owner::Shared => continue,
            };
            // A live stone is not territory; a dead one goes to the other side below.
            if board.color_at(p).is_none() {
                territory.get_mut(color).push(p);
            }
        }
        for &p in dead {
            if let Some(color) = board.color_at(p) {
                territory.get_mut(color.opponent()).push(p);
            }
        }
        w.wrap();
        w.push(";");
        for (id, color) in [("TB", Color::Black), ("TW", Color::White)] {
            let mut points = std::mem::take(territory.get_mut(color));
            points.sort_by_key(|p| p.to_sgf());
            points.dedup();
            if points.is_empty() {
                w.push(&format!("{id}[]"));
            } else {
                w.point_list(id, &points);
            }
        }
    }
    w.push(")\n");
    w.out
}

/// `RE` for the way `game` ended; `None` while it goes on.
fn result_of(game: &Game) -> Option<String> {
    Some(match game.end()? {
        GameEnd::Passes | GameEnd::Agreement(_) => game.score()?.result_string(),
        GameEnd::Resignation(c) => format!("{}+R", c.opponent().letter()),
        GameEnd::Time(c) => format!("{}+T", c.opponent().letter()),
        GameEnd::Forfeit(c, _) => format!("{}+F", c.opponent().letter()),
    })
}

/// Escapes a Text or SimpleText value: `\` and `]`.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// Escapes one part of a composed value: `\`, `]` and `:`.
fn escape_compose(s: &str) -> String {
    escape(s).replace(':', "\\:")
}

fn point_name(p: &go::Point) -> String {
    format!("{}{}", letter(p.x), letter(p.y))
}

fn sorted_points(set: &HashSet<go::Point>) -> Vec<String> {
    let mut names: Vec<String> = set.iter().map(point_name).collect();
    names.sort();
    names
}

/// Writes one property of a parsed tree.
fn write_prop(w: &mut Writer, prop: &Prop) {
    let id = prop.identifier();
    let values: Vec<String> = match prop {
        Prop::B(m) | Prop::W(m) => vec![match m {
            go::Move::Pass => String::new(),
            go::Move::Move(p) => point_name(p),
        }],
        Prop::AB(set)
        | Prop::AW(set)
        | Prop::AE(set)
        | Prop::TB(set)
        | Prop::TW(set)
        | Prop::CR(set)
        | Prop::MA(set)
        | Prop::SL(set)
        | Prop::SQ(set)
        | Prop::TR(set)
        | Prop::DD(set)
        | Prop::VW(set) => sorted_points(set),
        Prop::AR(pairs) | Prop::LN(pairs) => {
            let mut v: Vec<String> = pairs
                .iter()
                .map(|(a, b)| format!("{}:{}", point_name(a), point_name(b)))
                .collect();
            v.sort();
            v
        }
        Prop::LB(labels) => {
            let mut v: Vec<(String, String)> = labels
                .iter()
                .map(|(p, t)| (point_name(p), escape_compose(&t.text)))
                .collect();
            v.sort();
            v.into_iter().map(|(p, t)| format!("{p}:{t}")).collect()
        }
        Prop::SZ((width, height)) if width == height => vec![width.to_string()],
        Prop::SZ((width, height)) => vec![format!("{width}:{height}")],
        Prop::AP((name, version)) => vec![format!(
            "{}:{}",
            escape_compose(&name.text),
            escape_compose(&version.text)
        )],
        Prop::FG(Some((flags, name))) => vec![format!("{flags}:{}", escape_compose(&name.text))],
        Prop::FG(None) => vec![String::new()],
        Prop::C(t) | Prop::GC(t) => vec![escape(&t.text)],
        Prop::N(t)
        | Prop::CA(t)
        | Prop::AN(t)
        | Prop::BR(t)
        | Prop::BT(t)
        | Prop::CP(t)
        | Prop::DT(t)
        | Prop::EV(t)
        | Prop::GN(t)
        | Prop::ON(t)
        | Prop::OT(t)
        | Prop::PB(t)
        | Prop::PC(t)
        | Prop::PW(t)
        | Prop::RE(t)
        | Prop::RO(t)
        | Prop::RU(t)
        | Prop::SO(t)
        | Prop::US(t)
        | Prop::WR(t)
        | Prop::WT(t) => vec![escape(&t.text)],
        Prop::Unknown(_, values) | Prop::Invalid(_, values) => {
            values.iter().map(|v| escape(v)).collect()
        }
        // Numbers, reals, colours, doubles and the empty KO, DO, IT: sgf-parse writes them
        // plainly, with nothing to escape.
        other => {
            w.push(&other.to_string());
            return;
        }
    };
    w.push(&id);
    if values.is_empty() {
        w.push("[]");
    }
    for v in &values {
        w.push("[");
        w.push(v);
        w.push("]");
    }
}

/// SGF text being written, knowing where its current line starts.
#[derive(Default)]
struct Writer {
    out: String,
    line_start: usize,
    /// Whether [`Writer::text_prop`] and [`Writer::point_list`] may start a new line (in the
    /// root of [`write_game`]; between moves, lines break only between nodes).
    wrap_props: bool,
}

impl Writer {
    fn push(&mut self, s: &str) {
        if let Some(i) = s.rfind('\n') {
            self.line_start = self.out.len() + i + 1;
        }
        self.out.push_str(s);
    }

    fn newline(&mut self) {
        self.push("\n");
    }

    /// Starts a new line if the current one is long enough.
    fn wrap(&mut self) {
        if self.out.len() - self.line_start >= LINE_WIDTH {
            self.newline();
        }
    }

    /// `ID[value]`, escaped, when there is a value.
    fn text_prop(&mut self, id: &str, value: Option<&str>) {
        if let Some(v) = value {
            if self.wrap_props {
                self.wrap();
            }
            self.push(&format!("{id}[{}]", escape(v)));
        }
    }

    /// `ID[aa][bb]...` when there are points.
    fn point_list(&mut self, id: &str, points: &[Point]) {
        if points.is_empty() {
            return;
        }
        if self.wrap_props {
            self.wrap();
        }
        self.push(id);
        for p in points {
            self.push(&format!("[{}]", p.to_sgf()));
        }
    }
}

/// Today's date (UTC) as `YYYY-MM-DD`, the form of `DT` (FF\[4\]), from the system clock.
///
/// By hand, not by a date crate: one conversion of days to a civil date, and nothing else of
/// dates is needed.
pub fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400);
    // Howard Hinnant's civil_from_days.
    let z = i64::try_from(days).unwrap_or(0) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use ingo_rules::{Komi, SuicideRule};

    use super::*;
    use crate::parse;

    fn round(text: &str) -> String {
        write(&parse(text).expect("text")[0])
    }

    #[test]
    fn escapes() {
        assert_eq!(escape("a]b\\c:d"), "a\\]b\\\\c:d");
        assert_eq!(escape_compose("a]b\\c:d"), "a\\]b\\\\c\\:d");
        // Unknown values are escaped (sgf-parse alone would write `XX[a]b]`).
        assert_eq!(round("(;XX[a\\]b][c\\\\])"), "(;XX[a\\]b][c\\\\])\n");
        // Composed values: `]` escaped inside a part.
        assert_eq!(round("(;LB[aa:x\\]y])"), "(;LB[aa:x\\]y])\n");
        // sgf-parse unescapes `\:` before splitting a composed value, so one with an escaped
        // colon is invalid to it, kept as its text, and written as that text.
        assert_eq!(round("(;AP[my\\:app:1.0])"), "(;AP[my:app:1.0])\n");
    }

    #[test]
    fn normal_forms() {
        assert_eq!(round("(;SZ[19:19]KM[6.50])"), "(;SZ[19]KM[6.5])\n");
        assert_eq!(round("(;SZ[9:13])"), "(;SZ[9:13])\n");
        assert_eq!(
            round("(;SZ[9]AB[cc:dd][aa]TB[])"),
            "(;SZ[9]AB[aa][cc][cd][dc][dd]TB[])\n"
        );
        assert_eq!(round("(;B[tt];W[])"), "(;B[tt]\n;W[])\n");
        // A value with no identifier cannot be written; lower-case identifiers lose it.
        assert_eq!(round("(;GM[1]lowercase[x]C[y])"), "(;GM[1]C[y])\n");
    }

    #[test]
    fn charset() {
        // Whatever the file declared, the text written is UTF-8.
        assert_eq!(round("(;CA[GB2312]PB[聶])"), "(;CA[UTF-8]PB[聶])\n");
        assert_eq!(round("(;CA[UTF-8][UTF-8]PB[x])"), "(;CA[UTF-8]PB[x])\n");
        assert_eq!(round("(;PB[聶])"), "(;CA[UTF-8]PB[聶])\n");
        assert_eq!(round("(;PB[x])"), "(;PB[x])\n");
    }

    #[test]
    fn variations_and_lines() {
        let text = "(;GM[1]\n;B[aa](;W[bb])(;W[cc];B[dd](;W[ee])(;W[ff])))\n";
        assert_eq!(round(text), text);
        let long = ";B[aa]".repeat(30);
        let written = round(&format!("(;GM[1]{long})"));
        assert!(
            written.lines().all(|l| l.len() <= LINE_WIDTH + 6),
            "{written}"
        );
        assert_eq!(written.replace('\n', ""), format!("(;GM[1]{long})"));
    }

    #[test]
    fn deep_trees_without_recursion() {
        let depth = crate::MAX_DEPTH - 1;
        let text = format!("(;GM[1]{})", ";C[x]".repeat(depth));
        let records = parse(&text).expect("deep tree");
        let written = write(&records[0]);
        assert_eq!(written.matches(';').count(), depth + 1);
        assert_eq!(parse(&written).expect("written").len(), 1);
    }

    #[test]
    fn seconds() {
        assert_eq!(sgf_real(Duration::from_secs(1800)), "1800");
        assert_eq!(sgf_real(Duration::from_millis(29_500)), "29.5");
        assert_eq!(sgf_real(Duration::from_micros(1_999)), "0.001");
        assert_eq!(sgf_real(Duration::ZERO), "0");
    }

    #[test]
    fn presets() {
        for preset in Preset::ALL {
            assert_eq!(preset_of(&preset.rules()), Some(preset));
            let mapped = crate::names::map_rules(rules_sgf_name(preset)).expect("known");
            assert_eq!((mapped.preset, mapped.exact), (preset, true));
        }
        // Komi alone does not change the preset.
        let ing0 = Rules {
            komi: Komi(0),
            ..Rules::ing()
        };
        assert_eq!(preset_of(&ing0), Some(Preset::Ing));
        // Chinese and Japanese play alike: the komi tells them apart, else Chinese.
        let jp = Preset::Japanese.rules();
        assert_eq!(
            preset_of(&Rules {
                komi: Komi(0),
                ..jp
            }),
            Some(Preset::Chinese)
        );
        let odd = Rules {
            suicide: SuicideRule::All,
            ..Rules::ing()
        };
        assert_eq!(preset_of(&odd), None);
    }
}
