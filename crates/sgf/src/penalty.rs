//! The time penalties (時差罰點) a game record states in words.
//!
//! Ing's count subtracts time-penalty points from the side that ran over its time ("局差還點、
//! 時差罰點，二點折一子"), and the result a referee writes on the record includes them. ingo's
//! own records carry them as the private root properties `BP`/`WP` ([`Record::penalties`]);
//! professional records state them in words, in one of two forms:
//!
//! * the game comment `GC[8 komi, +2 time penalty]`: each signed number before
//!   `time penalty` is a penalty as it changes the komi, `+k` Black's (White gets `k` more),
//!   `-k` White's (`GC[8 komi, +4-2 time penalty]`: 4 for Black, 2 for White);
//! * a comment of the main line `C[Choi Cheolhan 2 Penalty and Lee Donghun +4.0.]`: the named
//!   player (`PB` or `PW`) loses the points after the `+` (one penalty is two points, one stone).
//!
//! When both forms are present the game comment is read (they state the same penalties).
//! No library reads these: they are the words of one archive's editors, so they are read here,
//! with the forms above and nothing looser.

use ingo_rules::{ByColor, Color, Komi, MAX_PENALTY_POINTS};
use sgf_parse::go::Prop;

use crate::Record;

impl Record {
    /// The time-penalty points each side incurred as the record's comments state them (see
    /// the module's documentation for the forms read); zero for a side when nothing is stated,
    /// and a stated value past [`MAX_PENALTY_POINTS`] is not read. Builds the parsed tree.
    ///
    /// ```
    /// let r = &ingo_sgf::parse("(;GC[8 komi, +2 time penalty];B[aa])").unwrap()[0];
    /// assert_eq!((r.stated_penalties().black, r.stated_penalties().white), (2, 0));
    /// let r = &ingo_sgf::parse("(;PB[A]PW[B];B[aa]C[B 1 Penalty and A +2.0.])").unwrap()[0];
    /// assert_eq!((r.stated_penalties().black, r.stated_penalties().white), (0, 2));
    /// ```
    pub fn stated_penalties(&self) -> ByColor<i32> {
        let mut out = ByColor::default();
        if let Some(text) = self.penalty_comment() {
            for (color, points) in komi_form(text) {
                *out.get_mut(color) += points;
            }
            return capped(out);
        }
        let players = &self.info.players;
        let mut seen: Vec<&str> = Vec::new();
        let mut node = Some(self.sgf_root());
        while let Some(n) = node {
            for prop in &n.properties {
                let Prop::C(t) = prop else { continue };
                let text = t.text.as_str();
                if !text.contains(" Penalty and ") || seen.contains(&text) {
                    continue;
                }
                seen.push(text);
                for (player, points) in named_form(text) {
                    let color = if Some(player) == players.black.as_deref() {
                        Color::Black
                    } else if Some(player) == players.white.as_deref() {
                        Color::White
                    } else {
                        continue;
                    };
                    *out.get_mut(color) += points;
                }
            }
            node = n.children.first();
        }
        capped(out)
    }

    /// The time-penalty points a count of this record takes off: `BP`/`WP` when the record
    /// has them ([`Record::penalties`], ingo's own records), else what its comments state
    /// ([`Record::stated_penalties`]), unless its `KM` already holds them
    /// ([`Record::penalties_in_komi`]): then none, as they are in the komi.
    pub fn time_penalties(&self) -> ByColor<i32> {
        if self.penalties.black != 0 || self.penalties.white != 0 {
            self.penalties
        } else if self.penalties_in_komi() {
            ByColor::default()
        } else {
            self.stated_penalties()
        }
    }

    /// Whether the record's `KM` is the komi its game comment states changed by the time
    /// penalties it states (`KM[4]` with `GC[8 komi, -4 time penalty]`, `KM[10]` with
    /// `GC[8 komi, +2 time penalty]`): the archive's editors wrote the komi the penalties
    /// leave, so the result on the record, which includes the penalties once, is the count
    /// with that komi. Some editions of the archive do this (the 6th and 7th Ing Cups), others
    /// keep `KM[8]` beside the same comment (the 10th), where the penalties are taken off the
    /// count. Penalties that cancel leave the komi as it was, and are not in it.
    pub fn penalties_in_komi(&self) -> bool {
        let Some(text) = self.penalty_comment() else {
            return false;
        };
        let (Some(km), Some(base)) = (self.komi, stated_komi(text)) else {
            return false;
        };
        let p = self.stated_penalties();
        // `+k` (Black's) gives White k more, `-k` (White's) k fewer: points, two halves each.
        let changed = base.halves() + 2 * (p.black - p.white);
        p.black != p.white && km.halves() == changed
    }

    /// The game comment, when it states time penalties in the komi form.
    fn penalty_comment(&self) -> Option<&str> {
        self.info
            .comment
            .as_deref()
            .filter(|t| t.contains("time penalty"))
    }
}

/// The komi before `komi` in a game comment (`8` in `8 komi, +2 time penalty`, `7.5`), when
/// it is a whole or half number of points.
fn stated_komi(text: &str) -> Option<Komi> {
    let at = text.find(" komi")?;
    let head = &text[..at];
    let start = head
        .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map_or(0, |k| k + 1);
    let points: f64 = head[start..].parse().ok()?;
    let halves = points * 2.0;
    (halves.fract() == 0.0 && halves.abs() < 1000.0).then_some(Komi(halves as i32))
}

/// Values past the rules' limit are not read (a typo in a comment, not a penalty).
fn capped(p: ByColor<i32>) -> ByColor<i32> {
    let ok = |v: i32| {
        if (0..=MAX_PENALTY_POINTS).contains(&v) {
            v
        } else {
            0
        }
    };
    ByColor {
        black: ok(p.black),
        white: ok(p.white),
    }
}

/// `8 komi, +2 time penalty`, `+4-2 time penalty`, `+4 time penalty, -4 time penalty`: the
/// signed numbers just before each `time penalty`, `+` for Black and `-` for White.
fn komi_form(text: &str) -> Vec<(Color, i32)> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("time penalty") {
        let head = text[..at].trim_end();
        // The run of digits and signs that ends the text before `time penalty`.
        let start = head
            .rfind(|c: char| !(c.is_ascii_digit() || c == '+' || c == '-'))
            .map_or(0, |k| k + 1);
        let run = &head[start..];
        let mut sign: Option<Color> = None;
        let mut number = String::new();
        let push = |sign: Option<Color>, number: &mut String, out: &mut Vec<(Color, i32)>| {
            if let (Some(color), Ok(n)) = (sign, number.parse::<i32>()) {
                out.push((color, n));
            }
            number.clear();
        };
        for c in run.chars() {
            match c {
                '+' | '-' => {
                    push(sign, &mut number, &mut out);
                    sign = Some(if c == '+' { Color::Black } else { Color::White });
                }
                d => number.push(d),
            }
        }
        push(sign, &mut number, &mut out);
    }
    out
}

/// `A 2 Penalty and B +4.0, B 1 Penalty and A +2.0.`: for each clause, the player before the
/// count of penalties and the points after the `+`.
fn named_form(text: &str) -> Vec<(&str, i32)> {
    let mut out = Vec::new();
    for clause in text.split(", ") {
        let Some((who, rest)) = clause.split_once(" Penalty and ") else {
            continue;
        };
        // `who` is `NAME n`: drop the count.
        let Some((name, _count)) = who.trim().rsplit_once(' ') else {
            continue;
        };
        let Some((_, points)) = rest.rsplit_once('+') else {
            continue;
        };
        let points = points.trim_end_matches('.').trim();
        if let Ok(p) = points.parse::<f64>() {
            out.push((name.trim(), p.round() as i32));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    fn stated(sgf: &str) -> (i32, i32) {
        let r = &crate::parse(sgf).expect("parses")[0];
        let p = r.stated_penalties();
        (p.black, p.white)
    }

    #[test]
    fn the_komi_form_gives_plus_to_black_and_minus_to_white() {
        assert_eq!(stated("(;GC[8 komi, +4-2 time penalty])"), (4, 2));
        assert_eq!(
            stated("(;GC[8 komi, +2 time penalty, -4 time penalty])"),
            (2, 4)
        );
        assert_eq!(stated("(;GC[8 komi, -4 time penalty])"), (0, 4));
    }

    #[test]
    fn the_named_form_is_read_once_even_when_repeated() {
        let sgf = "(;PB[Xie Ke]PW[Ichiriki Ryo];B[aa]C[Ichiriki Ryo 1 Penalty and Xie Ke +2.0.]\
                   ;W[bb]C[Ichiriki Ryo 1 Penalty and Xie Ke +2.0.])";
        assert_eq!(stated(sgf), (0, 2));
        let sgf = "(;PB[Ichiriki Ryo]PW[Xie Ke]C[Ichiriki Ryo 2 Penalty and Xie Ke +4.0, Xie Ke 1 \
                   Penalty and Ichiriki Ryo +2.0.])";
        assert_eq!(stated(sgf), (4, 2));
    }

    #[test]
    fn the_game_comment_wins_over_the_named_form_and_nothing_stated_is_zero() {
        let sgf = "(;PB[A]PW[B]GC[8 komi, +4-2 time penalty]C[A 2 Penalty and B +4.0, B 1 \
                   Penalty and A +2.0.])";
        assert_eq!(stated(sgf), (4, 2));
        assert_eq!(stated("(;GC[8 komi]C[a nice game];B[aa])"), (0, 0));
    }

    #[test]
    fn comments_off_the_main_line_and_absurd_values_are_not_read() {
        let sgf = "(;PB[A]PW[B];B[aa](;W[bb])(;W[cc]C[A 1 Penalty and B +2.0.]))";
        assert_eq!(stated(sgf), (0, 0));
        assert_eq!(stated("(;GC[8 komi, +99999 time penalty])"), (0, 0));
    }

    #[test]
    fn stored_penalties_come_before_stated_ones() {
        let r = &crate::parse("(;BP[6]GC[8 komi, +2 time penalty])").expect("parses")[0];
        assert_eq!((r.time_penalties().black, r.time_penalties().white), (6, 0));
        let r = &crate::parse("(;GC[8 komi, +2 time penalty])").expect("parses")[0];
        assert_eq!((r.time_penalties().black, r.time_penalties().white), (2, 0));
    }

    fn to_take_off(sgf: &str) -> (i32, i32, bool) {
        let r = &crate::parse(sgf).expect("parses")[0];
        let p = r.time_penalties();
        (p.black, p.white, r.penalties_in_komi())
    }

    /// The 6th and 7th Ing Cups' records write the komi the penalties leave as `KM`
    /// (`07/07`: `KM[4]`, `GC[8 komi, -4 time penalty]`, `RE[W+1]`, the board W+5 with komi 8):
    /// the count takes them off once, through the komi.
    #[test]
    fn penalties_the_komi_already_holds_are_not_taken_off_again() {
        assert_eq!(
            to_take_off("(;KM[4]GC[8 komi, -4 time penalty])"),
            (0, 0, true)
        );
        assert_eq!(
            to_take_off("(;KM[10]GC[8 komi, +2 time penalty])"),
            (0, 0, true)
        );
        assert_eq!(
            to_take_off("(;KM[14]GC[8 komi, +6 time penalty])"),
            (0, 0, true)
        );
        assert_eq!(
            to_take_off("(;KM[6]GC[8 komi, +2 time penalty, -4 time penalty])"),
            (0, 0, true)
        );
        // `KM` is the komi before the penalties (the 10th Ing Cup's records): taken off.
        assert_eq!(
            to_take_off("(;KM[8]GC[8 komi, +2 time penalty])"),
            (2, 0, false)
        );
        assert_eq!(
            to_take_off("(;KM[8]GC[8 komi, -4 time penalty])"),
            (0, 4, false)
        );
        // Penalties that cancel leave `KM` as stated either way: taken off, to no effect.
        assert_eq!(
            to_take_off("(;KM[8]GC[8 komi, +4 time penalty, -4 time penalty])"),
            (4, 4, false)
        );
        // No `KM`, no komi stated, or a `KM` that is neither: the penalties stand.
        assert_eq!(to_take_off("(;GC[8 komi, -4 time penalty])"), (0, 4, false));
        assert_eq!(to_take_off("(;KM[4]GC[-4 time penalty])"), (0, 4, false));
        assert_eq!(
            to_take_off("(;KM[6.5]GC[8 komi, -4 time penalty])"),
            (0, 4, false)
        );
        assert_eq!(
            to_take_off("(;KM[3.5]GC[7.5 komi, -4 time penalty])"),
            (0, 0, true)
        );
    }
}
