//! The web board in a real browser: Debian's Chromium, headless, driven over WebDriver
//! (chromedriver, started here on a free loopback port) against the real server on
//! 127.0.0.1:0 over a fresh SQLite database.
//!
//! One flow: two browsers register, one challenges, the other accepts; they
//! play a 9×9 game with a ko that is retaken only after a threat, and an illegal immediate
//! retake refused with its explanation on the page; both pass, a dead group is marked with one
//! click and accepted, and both see the same count; a spectator (on a phone-size window) sees
//! every move; a reload in the middle of the game restores it. Screenshots go to
//! `target/screenshots/`.
//!
//! After every move each page's board is compared with the server's, stone by stone, and at the
//! end of each game each page must have drawn every move as it came, in order. How fast the
//! pages are (the game page in under 300 ms, a move on the opponent's board in under 100 ms) is
//! no test's business, the machine being shared: the benchmark `benches/web_board.rs` measures
//! it (`cargo bench -p ingo-server --bench web_board`, see BENCHMARKS.md).
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (`scripts/test` installs them); without
//! them a test fails under CI and is skipped with a note elsewhere (`ingo_testkit::chromium`).

// A failed step of a browser test is a failed test: its panic says where.
#![allow(clippy::unwrap_used)]

mod browser_util;

use std::time::Duration;

use browser_util::*;
use serde_json::json;

/// The moves of the game, Black first; `None` marks the refused immediate retake (tried by
/// the player to move, then replaced by the next entry, the threat).
///
/// ```text
///   A B C D E F G H J         The ko: White D5 is taken by Black E5 (move 9); White's
/// 9 . . . X O . . . .         retake at D5 at once is refused (hot stone), so White plays
/// 8 . O . X O . . . .         a threat at B7 (10), Black answers at C7 (11), and White
/// 7 . O X X O . . . .         retakes at D5 (12), then connects at E5 (14). White's B7-B8
/// 6 . . X X O . . . .         is the dead group marked after both pass.
/// 5 . . X O O X . . .
/// 4 . . . X O . . . .
/// 3 . . X X O . . . .
/// 2 . . X X O . . . .
/// 1 . . . X O . . . .
/// ```
const GAME: &[&str] = &[
    "D6", "E6", "C5", "F5", "D4", "E4", "D7", "D5", "E5", // 9: Black takes the ko
    "B7", "C7", "D5", // 12: White retakes after the threat B7 and Black's answer C7
    "D3", "E5", "D8", "E7", "D9", "E8", "D2", "E9", "D1", "E3", "C6", "E2", "C3", "E1", "C2", "B8",
];
/// After this many moves, White (to move) tries the retake at once and is refused.
const REFUSED_AFTER: usize = 9;
/// After this many moves, the second player's browser reloads the page: Black's, White having
/// just played.
const RELOAD_AFTER: usize = 14;
const _: () = assert!(RELOAD_AFTER.is_multiple_of(2));

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_browsers_play_a_ko_game_to_the_count() {
    bounded(Duration::from_secs(300), flow()).await;
}

async fn flow() {
    let app = spawn_app().await;
    let driver = ChromeDriver::start().await;
    let alice = driver.browser(1280, 1000).await;
    let bob = driver.browser(1280, 1000).await;
    // The spectator watches on a phone-size screen.
    let sam = driver.browser(412, 915).await;
    let base = app.base.clone();

    register(&alice, &base, "alice", "2d").await;
    register(&bob, &base, "bob", "1d").await;
    register(&sam, &base, "sam", "5k").await;

    // Alice challenges: 9×9, nigiri, Ing's penalty-point clock.
    let form = challenge_form(&alice, &base).await;
    select(&form, "size", "9").await;
    let tc = form.find(css("input[name=time_control]")).await.unwrap();
    tc.clear().await.unwrap();
    tc.send_keys("ing-pp:1h").await.unwrap();
    submit(&form).await;

    // Bob sees it in the lobby and accepts; both land on the game page.
    bob.goto(&format!("{base}/#/")).await.unwrap();
    let accept = wait_css(&bob, "[data-challenge] button.accept").await;
    screenshot(&bob, "lobby").await;
    accept.click().await.unwrap();
    let gid = wait_until(
        &bob,
        "the game page",
        "return location.hash.startsWith('#/game/') ? location.hash.slice(7) : null",
    )
    .await;
    let gid = gid.as_str().unwrap().to_owned();
    wait_until(
        &alice,
        "the challenger's game page",
        &format!("return location.hash === '#/game/{gid}' || null"),
    )
    .await;
    let state = app.state(&gid).await;
    let (black, white) = if state["black"]["name"] == "alice" {
        (&alice, &bob)
    } else {
        (&bob, &alice)
    };

    // The spectator opens the game; it shows the empty board.
    sam.goto(&format!("{base}/#/game/{gid}")).await.unwrap();
    wait_move_count(&sam, 0).await;
    wait_move_count(black, 0).await;
    wait_move_count(white, 0).await;

    for (i, mv) in GAME.iter().enumerate() {
        let n = i + 1;
        let (me, other) = if !n.is_multiple_of(2) {
            (black, white)
        } else {
            (white, black)
        };
        if i == REFUSED_AFTER {
            // The immediate retake of the hot stone: refused, explained in words, marked.
            click_point(me, 9, "D5").await;
            let text = wait_until(me, "the refusal", "const n = document.getElementById('notice'); return n && n.dataset.reason === 'hot-stone' ? n.textContent : null").await;
            let text = text.as_str().unwrap();
            assert!(
                text.contains("hot stone") && text.contains("a pass included"),
                "{text}"
            );
            let marked = me
                .execute(
                    "return !!document.querySelector('svg.board rect.illegal')",
                    vec![],
                )
                .await
                .unwrap();
            assert_eq!(
                marked,
                json!(true),
                "the refused point is marked on the board"
            );
            assert_eq!(
                app.state(&gid).await["move_count"],
                json!(n - 1),
                "nothing was played"
            );
        }
        click_point(me, 9, mv).await;
        wait_move_count(me, n).await;
        // The move arrives on every page, the spectator's too, and each page's board is then
        // the server's (captures included: each page works them out itself).
        let state = app.state(&gid).await;
        assert_eq!(state["move_count"], json!(n), "move {n} was played");
        for (b, who) in [
            (me, "the mover"),
            (other, "the opponent"),
            (&sam, "the spectator"),
        ] {
            assert_board_is_servers(b, &state, &format!("9×9, {who}")).await;
        }
        if n == 12 {
            // Move numbers on demand, and the player to move hovering over G3 (the preview
            // stone): a game in progress for the README.
            other
                .find(css("#numbers"))
                .await
                .unwrap()
                .click()
                .await
                .unwrap();
            hover_point(other, 9, "G3").await;
            wait_css(other, "svg.board circle.preview").await;
            screenshot(other, "game").await;
            // The spectator's phone-size page.
            screenshot(&sam, "spectator-phone").await;
            other
                .find(css("#numbers"))
                .await
                .unwrap()
                .click()
                .await
                .unwrap();
        }
        if n == RELOAD_AFTER {
            // A reload in the middle of the game restores it, board and clocks.
            let before = board_of(other).await;
            other.refresh().await.unwrap();
            wait_move_count(other, n).await;
            assert_eq!(
                board_of(other).await,
                before,
                "the reloaded page shows the same board"
            );
            // (Read in one script: the clocks are redrawn four times a second.)
            let clock = other
                .execute(
                    "return document.getElementById('clock-B').textContent",
                    vec![],
                )
                .await
                .unwrap();
            // Black has used less than a second or a few: 1:00:00 or 59:xx left of the hour.
            let shown = clock.as_str().unwrap_or_default();
            assert!(
                shown.contains("Basic time 59:") || shown.contains("Basic time 1:00:00"),
                "the clock is shown again: {clock}"
            );
        }
    }

    // The stones are where they were played (columns A–J without I, row 1 at the bottom).
    let stones = board_of(&sam).await;
    for stone in ["D7B", "B8W", "C2B", "E1W", "D5W"] {
        assert!(stones.split(' ').any(|s| s == stone), "{stone} in {stones}");
    }
    assert!(!stones.contains("E5B"), "Black's E5 was retaken: {stones}");
    // Every move came to every page as a move of its own, in order (to Black's page from the
    // move it was reloaded at).
    for (b, who, first) in [
        (black, "Black", RELOAD_AFTER),
        (white, "White", 0),
        (&sam, "the spectator", 0),
    ] {
        assert_moves_drawn_in_order(b, first, GAME.len(), &format!("9×9, {who}'s page")).await;
    }

    // Chat: the players' chat reaches the opponent and the spectator; the spectators' chat
    // stays away from the players.
    chat(black, "players", "good game").await;
    wait_until(
        white,
        "the players' chat",
        "return document.querySelector('#chat-players')?.textContent.includes('good game') || null",
    )
    .await;
    wait_until(
        &sam,
        "the players' chat for spectators",
        "return document.querySelector('#chat-players')?.textContent.includes('good game') || null",
    )
    .await;
    chat(&sam, "spectators", "nice ko").await;
    wait_until(&sam, "the spectators' chat", "return document.querySelector('#chat-spectators')?.textContent.includes('nice ko') || null").await;
    // A barrier: once the spectator's page shows his message, the server has published it to
    // every socket of the game; a players' message sent after it comes to White's socket after
    // it. When White reads that one, a leaked spectators' message would already be on the page.
    chat(black, "players", "your move").await;
    for (b, who) in [(white, "White"), (black, "Black")] {
        wait_until(
            b,
            &format!("{who}: the players' message after the spectators' one"),
            "return document.querySelector('#chat-players')?.textContent.includes('your move') || null",
        )
        .await;
        let leaked = b
            .execute(
                "return document.body.textContent.includes('nice ko')",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(
            leaked,
            json!(false),
            "{who}, a player, does not read the spectators' chat"
        );
    }

    // Both pass: play is suspended and the dead-stone step shows the server's proposal.
    let n = GAME.len();
    let (first, second) = if n.is_multiple_of(2) {
        (black, white)
    } else {
        (white, black)
    };
    first
        .find(css("#pass"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_move_count(second, n + 1).await;
    second
        .find(css("#pass"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    for b in [black, white, &sam] {
        wait_css(b, "#dead-step").await;
    }
    // The server's proposal (the referee-grade judgement) may already hold White's B7–B8: then
    // Black's click on B7 frees the whole string first, and the next click marks it again.
    let first = wait_until(
        white,
        "the server's proposal",
        "return document.getElementById('proposal')?.textContent || null",
    )
    .await;
    if first.as_str().unwrap().contains("B7") {
        click_point(black, 9, "B7").await;
        wait_until(white, "B7-B8 freed", "const p = document.getElementById('proposal')?.textContent || ''; return p && !p.includes('B7') && !p.includes('B8') || null").await;
    }
    // Black marks White's B7–B8 with one click on B7: the whole string is proposed.
    click_point(black, 9, "B7").await;
    let proposal = wait_until(white, "the proposal", "const p = document.getElementById('proposal'); return p && p.textContent.includes('B8') ? p.textContent : null").await;
    assert!(proposal.as_str().unwrap().contains("B7"), "{proposal}");
    screenshot(white, "dead-stones").await;
    white
        .find(css("#accept-dead"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();

    // Both players and the spectator see the same count.
    let mut counts = Vec::new();
    for b in [black, white, &sam] {
        wait_css(b, "#count img").await;
        wait_until(b, "the count picture", "const i = document.querySelector('#count img'); return i && i.complete && i.naturalWidth > 0 || null").await;
        counts.push(b.find(css("#count")).await.unwrap().text().await.unwrap());
    }
    assert_eq!(counts[0], counts[1]);
    assert_eq!(counts[0], counts[2]);
    let result = app.state(&gid).await["result"]["result"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(counts[0].contains(&result), "{result} in {}", counts[0]);
    assert!(
        counts[0].contains("還子") && counts[0].contains("勝空"),
        "{}",
        counts[0]
    );
    black
        .execute("document.getElementById('count').scrollIntoView()", vec![])
        .await
        .unwrap();
    screenshot(black, "count").await;
    // The picture is the one `ingo score --svg` draws: ingo-render's SVG with the count.
    let svg = app.get_text(&format!("/api/games/{gid}/count.svg")).await;
    assert!(
        svg.starts_with("<svg") && svg.contains(&result),
        "{svg:.200}"
    );

    // The SGF download link, the review page and the finished-games list.
    let href = black
        .find(css("#sgf"))
        .await
        .unwrap()
        .attr("href")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(href, format!("/api/games/{gid}/sgf"));
    black.goto(&format!("{base}/#/user/alice")).await.unwrap();
    wait_until(
        black,
        "the finished games",
        &format!(
            "return document.querySelector('#finished a[href=\"#/review/{gid}\"]') ? true : null"
        ),
    )
    .await;
    black.goto(&format!("{base}/#/review/{gid}")).await.unwrap();
    wait_css(black, "#step-label").await;
    black
        .find(css("body"))
        .await
        .unwrap()
        .send_keys("\u{E012}")
        .await
        .unwrap(); // ArrowLeft
    let total = GAME.len() + 2;
    let label = wait_until(
        black,
        "a step back",
        &format!("const l = document.getElementById('step-label').textContent; return l.startsWith('Move {} of {total}') ? l : null", total - 1),
    )
    .await;
    assert!(label.as_str().unwrap().ends_with("pass"), "{label}");

    // Sixty moves on the largest board: a 19×19 game between the same two players (made
    // through the API from their pages), its moves clicked on the board, the last one played
    // with the keyboard.
    let challenge = page_api(
        &alice,
        "POST",
        "/api/challenges",
        json!({"size": 19, "handicap": "nigiri", "opponent": "bob"}),
    )
    .await;
    let accepted = page_api(
        &bob,
        "POST",
        &format!("/api/challenges/{}/accept", challenge["id"]),
        json!({}),
    )
    .await;
    assert!(accepted["game_id"].is_i64(), "a 19×19 game: {accepted}");
    let gid19 = accepted["game_id"].to_string();
    for b in [&alice, &bob] {
        // Reloaded after the change of address (within the page, only its `#` differs): the
        // page's record of the moves it drew (`window.__ingo`) starts again with the new game.
        b.goto(&format!("{base}/#/game/{gid19}")).await.unwrap();
        b.refresh().await.unwrap();
        wait_move_count(b, 0).await;
    }
    let (black, white) = if app.state(&gid19).await["black"]["name"] == "alice" {
        (&alice, &bob)
    } else {
        (&bob, &alice)
    };
    for k in 0..60 {
        let n = k + 1;
        let (me, other, row) = if k % 2 == 0 {
            (black, white, if k < 38 { 4 } else { 6 })
        } else {
            (white, black, if k < 38 { 16 } else { 14 })
        };
        let mv = format!("{}{row}", &LETTERS[(k / 2) % 19..][..1]);
        if k == 59 {
            // The last one with the keyboard: to A1 with the arrows, then to L14, and Enter.
            assert_eq!(mv, "L14");
            let keys = [
                ("\u{E012}", 18),
                ("\u{E015}", 18),
                ("\u{E014}", 10),
                ("\u{E013}", 13),
            ]
            .map(|(key, times)| key.repeat(times))
            .concat();
            let board = me.find(css("svg.board")).await.unwrap();
            board.send_keys(&format!("{keys}\u{E007}")).await.unwrap();
        } else {
            click_point(me, 19, &mv).await;
        }
        wait_move_count(me, n).await;
        let state = app.state(&gid19).await;
        assert_eq!(state["move_count"], json!(n), "move {n} was played");
        for (b, who) in [(me, "the mover"), (other, "the opponent")] {
            assert_board_is_servers(b, &state, &format!("19×19, {who}")).await;
        }
    }
    for (b, who) in [(black, "Black"), (white, "White")] {
        assert_moves_drawn_in_order(b, 0, 60, &format!("19×19, {who}'s page")).await;
    }
    for b in [alice, bob, sam] {
        b.close().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_judge_page_marks_the_first_illegal_move() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let b = driver.browser(1000, 1000).await;
        b.goto(&format!("{}/#/judge", app.base)).await.unwrap();
        // T1 of docs/rules.md: White retakes the ko at once.
        let text = wait_css(&b, "#sgf-text").await;
        text.send_keys("(;SZ[5]AB[ba][ab][bc]AW[ca][bb][db][cc]PL[B];B[cb];W[bb])")
            .await
            .unwrap();
        b.find(css("#judge-run"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let msg = wait_until(
            &b,
            "the judgement",
            "return document.getElementById('judge-illegal')?.textContent || null",
        )
        .await;
        let msg = msg.as_str().unwrap();
        assert!(
            msg.contains("Illegal move 2") && msg.contains("B4") && msg.contains("hot"),
            "{msg}"
        );
        let marked = b
            .execute(
                "return !!document.querySelector('svg.board rect.illegal')",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(marked, json!(true));
        screenshot(&b, "judge").await;
        // In Chinese, the rule text's words.
        b.find(css("#lang"))
            .await
            .unwrap()
            .select_by_value("zh")
            .await
            .unwrap();
        let text = wait_css(&b, "#sgf-text").await;
        text.send_keys("(;SZ[5]AB[ba][ab][bc]AW[ca][bb][db][cc]PL[B];B[cb];W[bb])")
            .await
            .unwrap();
        b.find(css("#judge-run"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let msg = wait_until(
            &b,
            "the judgement in Chinese",
            "return document.getElementById('judge-illegal')?.textContent || null",
        )
        .await;
        assert!(msg.as_str().unwrap().contains("熱子"), "{msg}");
        // A legal record gets its count.
        b.find(css("#lang"))
            .await
            .unwrap()
            .select_by_value("en")
            .await
            .unwrap();
        let text = wait_css(&b, "#sgf-text").await;
        text.send_keys("(;SZ[9]KM[8];B[ee];W[];B[];W[])")
            .await
            .unwrap();
        b.find(css("#judge-run"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let score = wait_until(
            &b,
            "the count",
            "return document.getElementById('judge-score')?.textContent || null",
        )
        .await;
        assert!(score.as_str().unwrap().contains("B+73"), "{score}");
        b.close().await.unwrap();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_built_in_player_from_the_lobby() {
    bounded(Duration::from_secs(120), async {
        let app = spawn_app().await;
        let driver = ChromeDriver::start().await;
        let b = driver.browser(1280, 1000).await;
        register(&b, &app.base, "carol", "5k").await;
        b.goto(&format!("{}/#/", app.base)).await.unwrap();
        let form = wait_css(&b, "#bot-form").await;
        // Each strength shows the rank measured for it (GET /api/bot-levels).
        let label = wait_until(
            &b,
            "the weak level's rank",
            "const o = document.querySelector(\"#bot-form option[value='100']\"); \
             return o && o.textContent.includes('級') ? [o.textContent, o.title] : null",
        )
        .await;
        assert_eq!(
            label[0], "weak (100 playouts a move) · 30級 on 19×19",
            "{label}"
        );
        assert!(label[1].as_str().unwrap().contains("7先"), "{label}");
        select(&form, "size", "9").await;
        select(&form, "playouts", "100").await;
        select(&form, "color", "black").await;
        submit(&form).await;
        wait_game_page(&b).await;
        wait_move_count(&b, 0).await;
        click_point(&b, 9, "E5").await;
        // The built-in player answers through the same move path as a person: the page shows
        // the server's board after the answer, stone by stone.
        wait_move_count(&b, 2).await;
        let gid = b
            .execute("return location.hash.slice(7)", vec![])
            .await
            .unwrap();
        let state = app.state(gid.as_str().unwrap()).await;
        assert_e5_answered(&b, &state, "the game against the built-in player").await;
        b.close().await.unwrap();
    })
    .await;
}
