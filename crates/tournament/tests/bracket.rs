//! A double knockout's bracket (複式淘汰制): each round's pairings sorted by the players'
//! losses before it, the unbeaten, the once-beaten and the final, and the winner.

use std::collections::BTreeMap;

use ingo_tournament::bracket::{Bracket, BracketMatch};
use ingo_tournament::{Agreement, Event};

fn event(kind: &str, n: usize) -> Event {
    let entrants: Vec<String> = (1..=n).map(|i| format!("{{ name = \"P{i}\" }}")).collect();
    Event::new(
        Agreement::from_toml(&format!(
            "name = \"Cup\"\npurpose = \"Tests\"\neligibility = \"Anyone\"\n\
             registration = {{ opens = \"2026-01-01\", closes = \"2026-01-31\" }}\n\
             format = {{ kind = \"{kind}\" }}\nentrants = [{}]\n",
            entrants.join(", ")
        ))
        .expect("agreement"),
    )
}

/// Plays a double knockout of six to its end: the higher seed wins, except that P6 beats P1
/// in their first meeting.
fn played() -> Event {
    let mut ev = event("double-knockout", 6);
    let seed = |n: &str| n[1..].parse::<u32>().expect("seed");
    let mut upset = false;
    while let Ok(games) = ev.pair_next() {
        ev.games.extend(games);
        let todo: Vec<(u32, u32, &str)> = ev
            .games
            .iter()
            .filter(|g| !g.is_done())
            .map(|g| {
                let (b, w) = (seed(&g.black), seed(g.white.as_deref().expect("a game")));
                let mut black_wins = b < w;
                if !upset && matches!((b, w), (1, 6) | (6, 1)) {
                    upset = true;
                    black_wins = !black_wins;
                }
                (g.round, g.board, if black_wins { "B+R" } else { "W+R" })
            })
            .collect();
        for (r, b, res) in todo {
            ev.enter(r, b, res.parse().expect("result")).expect("enter");
        }
    }
    assert!(ev.is_finished());
    ev
}

#[test]
fn a_double_knockout_bracket_sorts_each_round_by_losses() {
    let ev = played();
    let b = Bracket::new(&ev).expect("bracket");
    assert!(b.double);
    let rounds = ev.games.iter().map(|g| g.round).max().expect("rounds") as usize;
    assert_eq!((b.rounds.len(), b.losers.len()), (rounds, rounds));
    // Every game is in its round once, where the players' losses before the round put it.
    let mut lost: BTreeMap<String, u32> = BTreeMap::new();
    for r in 1..=rounds {
        let has = |ms: &[BracketMatch], g: &ingo_tournament::Game| {
            ms.iter()
                .filter(|m| {
                    m.players[0].as_deref() == Some(g.black.as_str()) && m.players[1] == g.white
                })
                .count()
        };
        let finals: Vec<BracketMatch> = b
            .finals
            .iter()
            .filter(|(f, _)| *f as usize == r)
            .map(|(_, m)| m.clone())
            .collect();
        let games: Vec<&ingo_tournament::Game> =
            ev.games.iter().filter(|g| g.round as usize == r).collect();
        for g in &games {
            let l = |n: &str| lost.get(n).copied().unwrap_or(0);
            let (upper, lower, fin) = (
                has(&b.rounds[r - 1], g),
                has(&b.losers[r - 1], g),
                has(&finals, g),
            );
            // A round of one game is a final; otherwise a game of two unbeaten players (or an
            // unbeaten player's bye) is an unbeaten one, and any other the once-beaten's (an
            // unbeaten player left over joins them).
            let want = if games.len() == 1 {
                (0, 0, 1)
            } else {
                match g.white.as_deref().map(l) {
                    None if l(&g.black) == 0 => (1, 0, 0),
                    Some(0) if l(&g.black) == 0 => (1, 0, 0),
                    _ => (0, 1, 0),
                }
            };
            assert_eq!((upper, lower, fin), want, "round {r}: {g:?}\n{}", b.text());
        }
        for g in &games {
            if let Some((_, loser)) = g.winner_loser() {
                *lost.entry(loser.to_owned()).or_default() += 1;
            }
        }
    }
    // The winner is the one player with fewer than two losses.
    let alive: Vec<&String> = ev
        .entrants
        .iter()
        .map(|e| &e.name)
        .filter(|n| lost.get(*n).copied().unwrap_or(0) < 2)
        .collect();
    assert_eq!(alive.len(), 1);
    assert_eq!(b.champion(), Some(alive[0].as_str()));
    assert!(!b.finals.is_empty(), "{}", b.text());
    let text = b.text();
    assert!(
        text.contains("  unbeaten: ") && text.contains("  once beaten: "),
        "{text}"
    );
    assert!(text.ends_with(&format!("winner: {}\n", alive[0])), "{text}");
}

/// A round robin has no bracket.
#[test]
fn a_round_robin_has_no_bracket() {
    let mut ev = event("round-robin", 4);
    ev.games = ev.draw().expect("draw");
    assert!(Bracket::new(&ev).is_err());
}
