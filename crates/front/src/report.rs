//! The count in words, as an Ing referee reads it off the board.

use ingo_rules::{Board, Color, Score};

fn stones(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

fn net_words(net: f64) -> String {
    if net > 0.0 {
        format!("{} spaces left (勝空)", stones(net))
    } else if net < 0.0 {
        format!("{} stones left (負子)", stones(-net))
    } else {
        "filled exactly".into()
    }
}

/// The count in words and numbers: areas, shared points, the fill-in with its supplies, 勝空 or
/// 負子, 還子 and 罰子, then margin and winner. The fill-in is checked against the margin.
pub fn count_text(score: &Score, board: &Board) -> String {
    let f = &score.fill_in;
    let mut s = String::new();
    s.push_str(&format!(
        "Board {}x{}, {} points\n",
        board.width(),
        board.height(),
        board.area()
    ));
    for c in Color::ALL {
        s.push_str(&format!(
            "{:<5}: {} stones + {} spaces = area {}\n",
            if c == Color::Black { "Black" } else { "White" },
            score.stones.get(c),
            score.spaces.get(c),
            score.area.get(c)
        ));
    }
    s.push_str(&format!("Shared points (分空): {}\n", score.shared));
    if !score.dead.is_empty() {
        s.push_str(&format!("Dead stones removed: {}\n", score.dead.len()));
    }
    s.push_str(&format!(
        "Fill-in (填滿計點): each side fills its area{} from {} stones\n",
        if f.shared_filled > 0 {
            format!(" and {} shared points", f.shared_filled)
        } else {
            String::new()
        },
        f.supply
    ));
    for c in Color::ALL {
        let filled = f.filled.get(c);
        let rest = if *f.spaces_left.get(c) > 0 {
            format!("{} spaces left", f.spaces_left.get(c))
        } else if *f.stones_left.get(c) > 0 {
            format!("{} stones left", f.stones_left.get(c))
        } else {
            "filled exactly".into()
        };
        s.push_str(&format!(
            "  {}: fills {filled}, {rest}\n",
            if c == Color::Black { "Black" } else { "White" },
        ));
    }
    s.push_str(&format!(
        "Compensation stones (還子): {} White stones in Black's area (komi {})\n",
        stones(f.compensation_stones),
        score.komi
    ));
    if f.penalty_stones.black != 0.0 || f.penalty_stones.white != 0.0 {
        s.push_str(&format!(
            "Penalty stones (罰子): Black {} ({} points), White {} ({} points)\n",
            stones(f.penalty_stones.black),
            score.penalties.black,
            stones(f.penalty_stones.white),
            score.penalties.white
        ));
    }
    s.push_str(&format!(
        "After the exchanges: Black {}, White {}\n",
        net_words(f.black_net),
        net_words(f.white_net)
    ));
    s.push_str(&format!(
        "Margin: {} (area {} - {} - komi {}{}), result {}\n",
        score.margin(),
        score.area.black,
        score.area.white,
        score.komi,
        if score.penalties.black != 0 || score.penalties.white != 0 {
            format!(
                " - Black's penalty {} + White's penalty {}",
                score.penalties.black, score.penalties.white
            )
        } else {
            String::new()
        },
        score.result_string()
    ));
    s
}
