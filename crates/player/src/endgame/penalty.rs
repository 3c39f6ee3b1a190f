//! The time penalties (時差罰點) a game record states in its comments.
//!
//! Ing's count subtracts time-penalty points from the side that ran over its time ("局差還點、
//! 時差罰點，二點折一子"), and the result a referee writes on the record includes them. ingo's
//! own records carry them as the private root properties `BP`/`WP` (read by `ingo_sgf`); the
//! professional records of the corpus state them in words, in one of two forms:
//!
//! * the game comment `GC[8 komi, +2 time penalty]`: each signed number before
//!   `time penalty` is a penalty as it changes the komi, `+k` Black's (White gets `k` more),
//!   `-k` White's (`GC[8 komi, +4-2 time penalty]`: 4 for Black, 2 for White);
//! * a comment `C[Choi Cheolhan 2 Penalty and Lee Donghun +4.0.]`: the named player (`PB` or
//!   `PW`) loses the points after the `+` (one penalty is two points, one stone).
//!
//! When both forms are present the game comment is read (they state the same penalties).

use ingo_rules::{ByColor, Color};

/// The time-penalty points each side incurred, as the comments of the SGF text `sgf` state
/// them (see the module's documentation for the forms read); `black` and `white` are the
/// players' names (`PB`, `PW`), which the second form names. Zero for a side when nothing is
/// stated.
///
/// ```
/// use ingo_player::endgame::stated_penalties;
///
/// let p = stated_penalties("(;GC[8 komi, +2 time penalty];B[aa])", None, None);
/// assert_eq!((p.black, p.white), (2, 0));
/// let sgf = "(;PB[A]PW[B];B[aa]C[B 1 Penalty and A +2.0.])";
/// let p = stated_penalties(sgf, Some("A"), Some("B"));
/// assert_eq!((p.black, p.white), (0, 2));
/// ```
pub fn stated_penalties(sgf: &str, black: Option<&str>, white: Option<&str>) -> ByColor<i32> {
    let mut out = ByColor::default();
    let values = property_values(sgf);
    let gc: Vec<&str> = values
        .iter()
        .filter(|(name, text)| *name == "GC" && text.contains("time penalty"))
        .map(|(_, text)| *text)
        .collect();
    if let Some(text) = gc.first() {
        for (color, points) in komi_form(text) {
            *out.get_mut(color) += points;
        }
        return out;
    }
    let mut seen: Vec<&str> = Vec::new();
    for (name, text) in &values {
        if *name != "C" || !text.contains(" Penalty and ") || seen.contains(text) {
            continue;
        }
        seen.push(text);
        for (player, points) in named_form(text) {
            let color = if Some(player) == black {
                Color::Black
            } else if Some(player) == white {
                Color::White
            } else {
                continue;
            };
            *out.get_mut(color) += points;
        }
    }
    out
}

/// The `GC` and `C` values of an SGF text, with the property name (escapes left as they are:
/// the forms read have none).
fn property_values(sgf: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let bytes = sgf.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'[' {
            i += 1;
            continue;
        }
        // The property name: the upper-case letters just before `[`.
        let mut s = i;
        while s > 0 && bytes[s - 1].is_ascii_uppercase() {
            s -= 1;
        }
        let name = &sgf[s..i];
        // The value runs to the first `]` not escaped by `\`.
        let mut e = i + 1;
        while e < bytes.len() && !(bytes[e] == b']' && bytes[e - 1] != b'\\') {
            e += 1;
        }
        if name == "GC" || name == "C" {
            out.push((name, &sgf[i + 1..e.min(bytes.len())]));
        }
        i = e + 1;
    }
    out
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
    use super::*;

    #[test]
    fn the_komi_form_gives_plus_to_black_and_minus_to_white() {
        let p = stated_penalties("(;GC[8 komi, +4-2 time penalty])", None, None);
        assert_eq!((p.black, p.white), (4, 2));
        let p = stated_penalties(
            "(;GC[8 komi, +2 time penalty, -4 time penalty])",
            None,
            None,
        );
        assert_eq!((p.black, p.white), (2, 4));
        let p = stated_penalties("(;GC[8 komi, -4 time penalty])", None, None);
        assert_eq!((p.black, p.white), (0, 4));
    }

    #[test]
    fn the_named_form_is_read_once_even_when_repeated() {
        let sgf = "(;PB[Xie Ke]PW[Ichiriki Ryo];B[aa]C[Ichiriki Ryo 1 Penalty and Xie Ke +2.0.]\
                   ;W[bb]C[Ichiriki Ryo 1 Penalty and Xie Ke +2.0.])";
        let p = stated_penalties(sgf, Some("Xie Ke"), Some("Ichiriki Ryo"));
        assert_eq!((p.black, p.white), (0, 2));
        let sgf = "(;C[Ichiriki Ryo 2 Penalty and Xie Ke +4.0, Xie Ke 1 Penalty and \
                   Ichiriki Ryo +2.0.])";
        let p = stated_penalties(sgf, Some("Ichiriki Ryo"), Some("Xie Ke"));
        assert_eq!((p.black, p.white), (4, 2));
    }

    #[test]
    fn the_game_comment_wins_over_the_named_form_and_nothing_stated_is_zero() {
        let sgf = "(;GC[8 komi, +4-2 time penalty]C[A 2 Penalty and B +4.0, B 1 Penalty and \
                   A +2.0.])";
        let p = stated_penalties(sgf, Some("A"), Some("B"));
        assert_eq!((p.black, p.white), (4, 2));
        let p = stated_penalties("(;GC[8 komi]C[a nice game];B[aa])", None, None);
        assert_eq!((p.black, p.white), (0, 0));
    }
}
