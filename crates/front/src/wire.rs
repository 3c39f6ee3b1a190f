//! `serde` for [`Settings`] and [`Event`] (feature `serde`), so that a server can store a
//! table's settings and log as JSON and rebuild it with [`crate::Table::replay`].
//!
//! `ingo-rules` has no serde, so its values go through small plain forms: a colour is
//! `"black"`/`"white"`, a move is `[col, row]` (from the top-left corner, as
//! [`ingo_rules::Point`] counts) or `null` for a pass, the rules are their parts with the komi in
//! half points, a time control is its text (`ing-pp:3h`) and times are serde's `Duration`.

use std::time::Duration;

use ingo_clock::TimeControl;
use ingo_rules::{Color, KoRule, Komi, Move, Point, Rules, SuicideRule};
use serde::{de::Error as _, Deserialize, Deserializer, Serialize, Serializer};

use crate::{Event, Settings};

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum ColorRepr {
    Black,
    White,
}

impl From<Color> for ColorRepr {
    fn from(c: Color) -> Self {
        match c {
            Color::Black => ColorRepr::Black,
            Color::White => ColorRepr::White,
        }
    }
}

impl From<ColorRepr> for Color {
    fn from(c: ColorRepr) -> Self {
        match c {
            ColorRepr::Black => Color::Black,
            ColorRepr::White => Color::White,
        }
    }
}

fn point_repr(p: Point) -> [usize; 2] {
    [p.col(), p.row()]
}

fn point_of<E: serde::de::Error>([col, row]: [usize; 2]) -> Result<Point, E> {
    Point::new(col, row).ok_or_else(|| E::custom(format!("no point at column {col}, row {row}")))
}

fn move_repr(m: Move) -> Option<[usize; 2]> {
    match m {
        Move::Play(p) => Some(point_repr(p)),
        Move::Pass => None,
    }
}

#[derive(Serialize, Deserialize)]
struct RulesRepr {
    ko: String,
    suicide: String,
    komi_halves: i32,
    tie_even: ColorRepr,
    tie_handicap: ColorRepr,
}

#[derive(Serialize, Deserialize)]
struct SettingsRepr {
    size: usize,
    rules: RulesRepr,
    handicap_passes: u8,
    time_control: Option<String>,
}

impl Serialize for Settings {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let r = &self.rules;
        SettingsRepr {
            size: self.size,
            rules: RulesRepr {
                ko: r.ko.to_string(),
                suicide: r.suicide.to_string(),
                komi_halves: r.komi.halves(),
                tie_even: r.tie_even.into(),
                tie_handicap: r.tie_handicap.into(),
            },
            handicap_passes: self.handicap_passes,
            time_control: self.time_control.map(|tc| tc.to_string()),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Settings {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = SettingsRepr::deserialize(deserializer)?;
        let rules = Rules {
            ko: s.rules.ko.parse::<KoRule>().map_err(D::Error::custom)?,
            suicide: s
                .rules
                .suicide
                .parse::<SuicideRule>()
                .map_err(D::Error::custom)?,
            komi: Komi(s.rules.komi_halves),
            tie_even: s.rules.tie_even.into(),
            tie_handicap: s.rules.tie_handicap.into(),
        };
        let time_control = s
            .time_control
            .map(|t| t.parse::<TimeControl>())
            .transpose()
            .map_err(D::Error::custom)?;
        Ok(Settings {
            size: s.size,
            rules,
            handicap_passes: s.handicap_passes,
            time_control,
        })
    }
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
enum EventRepr {
    StartClock {
        at: Duration,
    },
    Play {
        color: ColorRepr,
        #[serde(rename = "move")]
        mv: Option<[usize; 2]>,
        at: Option<Duration>,
    },
    ProposeDead {
        by: Option<ColorRepr>,
        dead: Vec<[usize; 2]>,
    },
    AcceptDead {
        color: ColorRepr,
    },
    RejectDead {
        color: ColorRepr,
    },
    Resign {
        color: ColorRepr,
    },
    CheckTime {
        at: Duration,
    },
    LateArrival {
        color: ColorRepr,
        late: Duration,
    },
    TimeLoss {
        color: ColorRepr,
    },
    Forfeit {
        color: ColorRepr,
        reason: String,
    },
}

impl Serialize for Event {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let repr = match self {
            Event::StartClock { at } => EventRepr::StartClock { at: *at },
            Event::Play { color, mv, at } => EventRepr::Play {
                color: (*color).into(),
                mv: move_repr(*mv),
                at: *at,
            },
            Event::ProposeDead { by, dead } => EventRepr::ProposeDead {
                by: by.map(Into::into),
                dead: dead.iter().map(|&p| point_repr(p)).collect(),
            },
            Event::AcceptDead { color } => EventRepr::AcceptDead {
                color: (*color).into(),
            },
            Event::RejectDead { color } => EventRepr::RejectDead {
                color: (*color).into(),
            },
            Event::Resign { color } => EventRepr::Resign {
                color: (*color).into(),
            },
            Event::CheckTime { at } => EventRepr::CheckTime { at: *at },
            Event::LateArrival { color, late } => EventRepr::LateArrival {
                color: (*color).into(),
                late: *late,
            },
            Event::TimeLoss { color } => EventRepr::TimeLoss {
                color: (*color).into(),
            },
            Event::Forfeit { color, reason } => EventRepr::Forfeit {
                color: (*color).into(),
                reason: reason.clone(),
            },
        };
        repr.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match EventRepr::deserialize(deserializer)? {
            EventRepr::StartClock { at } => Event::StartClock { at },
            EventRepr::Play { color, mv, at } => Event::Play {
                color: color.into(),
                mv: match mv {
                    Some(p) => Move::Play(point_of(p)?),
                    None => Move::Pass,
                },
                at,
            },
            EventRepr::ProposeDead { by, dead } => Event::ProposeDead {
                by: by.map(Into::into),
                dead: dead.into_iter().map(point_of).collect::<Result<_, _>>()?,
            },
            EventRepr::AcceptDead { color } => Event::AcceptDead {
                color: color.into(),
            },
            EventRepr::RejectDead { color } => Event::RejectDead {
                color: color.into(),
            },
            EventRepr::Resign { color } => Event::Resign {
                color: color.into(),
            },
            EventRepr::CheckTime { at } => Event::CheckTime { at },
            EventRepr::LateArrival { color, late } => Event::LateArrival {
                color: color.into(),
                late,
            },
            EventRepr::TimeLoss { color } => Event::TimeLoss {
                color: color.into(),
            },
            EventRepr::Forfeit { color, reason } => Event::Forfeit {
                color: color.into(),
                reason,
            },
        })
    }
}
