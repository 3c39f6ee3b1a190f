//! A game record as a referee counts it, one path for `ingo score` and the play server's judge
//! page: the rules a record is read under, its position with the time penalties its result
//! includes, and its count (the dead stones given, else those its territory markup agrees,
//! else the end-of-game judgement with the neutral points filled in turn).

use ingo_player::endgame::{Judgement, Status};
use ingo_rules::{Color, Game, Point, Preset, Rules, Score};
use ingo_sgf::{Record, Replay};

/// The rules to read `record` under: `preset` when one is chosen (with the record's komi, the
/// komi the game was played with), else the record's own `RU`, else Ing's.
pub fn rules_for(record: &Record, preset: Option<Preset>) -> Rules {
    preset.map_or_else(
        || record.rules_or(Preset::Ing),
        |p| record.with_komi(p.rules()),
    )
}

/// A position of a record: the game, how many moves of the record it holds, and what the
/// reader noticed.
#[derive(Clone, Debug)]
pub struct Position {
    /// The game after the moves, with the record's time penalties.
    pub game: Game,
    /// The moves of the record played: a node with two moves counts two (the pass the replay
    /// puts between two moves of one colour is not a move of the record, see
    /// [`Position::inserted_passes`]).
    pub moves: usize,
    /// Passes the replay put between two moves of the same colour.
    pub inserted_passes: usize,
    /// The reader's warnings, a warning when the record is incomplete, and one when time
    /// penalties are read from its comments.
    pub warnings: Vec<String>,
}

/// The position `replay` (a replay of `record`) reached, with the time penalties the record's
/// result includes: `BP`/`WP`, else those its comments state in words, which a warning says,
/// since they are read from prose; or none, when its `KM` already holds them (a warning says
/// that too).
pub fn position(record: &Record, replay: Replay) -> Position {
    let mut warnings: Vec<String> = record.warnings.iter().map(|w| w.to_string()).collect();
    if let Some(why) = &record.incomplete {
        warnings.push(format!(
            "INCOMPLETE RECORD, only what comes before was read: {why}"
        ));
    }
    let mut game = replay.game;
    let penalties = record.time_penalties();
    if penalties != game.penalties() {
        warnings.push(format!(
            "time penalties read from the record's comments: Black {}, White {} points",
            penalties.black, penalties.white
        ));
        game.set_penalties(penalties);
    }
    if record.penalties_in_komi() {
        let stated = record.stated_penalties();
        warnings.push(format!(
            "the record's komi (KM {}) already holds the time penalties its comments state (Black {}, White {} points): they are not taken off again",
            game.rules().komi,
            stated.black,
            stated.white
        ));
    }
    Position {
        moves: replay.played,
        inserted_passes: replay.inserted_passes.len(),
        game,
        warnings,
    }
}

/// Where the dead stones of a [`Count`] come from.
#[derive(Clone, Debug)]
pub enum DeadStones {
    /// Named by the caller (`ingo score --dead`).
    Given,
    /// The record's territory markup at the end (`TB`/`TW`): the players' agreement.
    Markup,
    /// The end-of-game judgement ([`crate::judge`]): dead stones, seki and the neutral points
    /// filled in turn (填滿計點).
    Judged(Box<Judgement>),
}

/// The count of a record's position and where its dead stones come from.
#[derive(Clone, Debug)]
pub struct Count {
    /// The count.
    pub score: Score,
    /// Where its dead stones come from.
    pub dead: DeadStones,
}

impl Count {
    /// The judgement the count comes from, when it was judged.
    pub fn judgement(&self) -> Option<&Judgement> {
        match &self.dead {
            DeadStones::Judged(j) => Some(j),
            DeadStones::Given | DeadStones::Markup => None,
        }
    }

    /// What a count picture marks beside the count: the neutral points filled and who fills
    /// each, and the points in seki (stones and shared points), both empty when the count was
    /// not judged.
    pub fn marks(&self) -> (Vec<(Point, Color)>, Vec<Point>) {
        match self.judgement() {
            Some(j) => {
                let mut seki = j.stones(Status::Seki);
                seki.extend(&j.seki_points);
                (j.fills.iter().map(|f| (f.point, f.color)).collect(), seki)
            }
            None => (Vec::new(), Vec::new()),
        }
    }

    /// Why the judgement filled the neutral points one move deep rather than reading them out,
    /// in words, the points named as GTP names on a board of `height` lines
    /// (`ingo_player::endgame::Judgement::fill_note`): the line the count picture adds under
    /// the count. `None` when they were read out, none were filled, or the count was not judged.
    pub fn fill_note(&self, height: usize) -> Option<String> {
        self.judgement()?.fill_note(|v| {
            v.iter()
                .map(|p| p.to_gtp(height))
                .collect::<Vec<_>>()
                .join(" ")
        })
    }

    /// The verdicts of the judgement a person should check, as notes for the count picture
    /// (`ingo_player::endgame::Judgement::checks`); none when the count was not judged.
    pub fn checks(&self) -> Vec<(Point, String)> {
        self.judgement()
            .map(ingo_player::endgame::Judgement::checks)
            .unwrap_or_default()
    }

    /// Of those verdicts, the ones the winner turns on, `game` being the position counted
    /// (`ingo_player::endgame::Judgement::winner_turns_on`, with the configuration of
    /// [`crate::judge`]); none when the count was not judged.
    pub fn winner_turns_on(&self, game: &Game) -> Vec<Point> {
        self.judgement()
            .map(|j| j.winner_turns_on(game, &ingo_player::endgame::EndgameConfig::default()))
            .unwrap_or_default()
    }
}

/// The count of `game`, the position of `record`: with `dead` taken off when the caller names
/// dead stones, else with those the record's territory markup agrees (`TB`/`TW` at the end),
/// else as the end-of-game judgement finds them. The caller checks that `dead` are stones.
pub fn count(record: &Record, game: &Game, dead: &[Point]) -> Count {
    if !dead.is_empty() {
        return Count {
            score: game.count(dead),
            dead: DeadStones::Given,
        };
    }
    if let Some(agreed) = record.dead_stones(game.board()) {
        return Count {
            score: game.count(&agreed),
            dead: DeadStones::Markup,
        };
    }
    let judgement = crate::judge(game);
    Count {
        score: judgement.score.clone(),
        dead: DeadStones::Judged(Box::new(judgement)),
    }
}
