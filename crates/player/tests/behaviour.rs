//! What the player must and must not do under Ing's rules: never fill its own eye, pass when the
//! board is settled and won, capture dead stones before passing, pass when a handicap pass is
//! due, resign only when asked to; and stop searching when its time is spent, timed by a clock
//! the test advances itself (no assertion on the machine's time).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ingo_player::{
    Action, Budget, Config, ConfigError, Player, RandomPlayer, Reason, ResignPolicy, TimeLeft,
    TimeSource,
};
use ingo_rules::{Board, Color, Game, Move, Phase, Point, Rules, Setup};

fn player(playouts: u64, seed: u64) -> Player {
    Player::new(Config {
        budget: Budget::playouts(playouts),
        seed,
        ..Config::default()
    })
    .expect("valid config")
}

/// A game from a diagram with `to_move` to play; with `opponent_passed`, the other side has just
/// passed (the game starts with it to move and it passes).
fn position(ascii: &str, to_move: Color, opponent_passed: bool) -> Game {
    let board = Board::from_ascii(ascii).expect("test diagram");
    let first = if opponent_passed {
        to_move.opponent()
    } else {
        to_move
    };
    let mut game = Game::new(
        Setup {
            board,
            to_move: first,
            handicap_passes: 0,
        },
        Rules::ing(),
    );
    if opponent_passed {
        game.play(Move::Pass).expect("a pass is always legal");
    }
    game
}

fn at(game: &Game, s: &str) -> Point {
    let b = game.board();
    Point::from_gtp(s, b.width(), b.height()).expect("vertex on the board")
}

fn decide(player: &mut Player, game: &Game) -> Move {
    match player.genmove(game, None).action {
        Action::Move(m) => m,
        Action::Resign => panic!("resignation is off by default"),
    }
}

#[test]
fn never_plays_into_its_own_eye() {
    // Random positions on 7×7 at every stage of the game, each searched briefly; the chosen move
    // and every candidate the root considered must avoid the mover's own eyes.
    let mut random = RandomPlayer::new(99);
    let mut eyes_seen = 0;
    for seed in 0..40u64 {
        let mut game = Game::new(Setup::empty(7).expect("size"), Rules::ing());
        let plies = (seed as usize * 7) % 90;
        while game.move_count() < plies && game.phase() != Phase::Ended {
            let mv = random.genmove(&game);
            game.play(mv).expect("the random player plays legal moves");
        }
        if game.phase() == Phase::Ended {
            continue;
        }
        let me = game.to_move();
        let board = game.board();
        eyes_seen += board
            .empty_points()
            .filter(|&p| board.is_eye(p, me))
            .count();
        let decision = player(64, seed).genmove(&game, None);
        let mut considered = decision
            .info
            .candidates
            .iter()
            .map(|c| c.mv)
            .collect::<Vec<_>>();
        considered.extend(decision.mv());
        for mv in considered {
            if let Move::Play(p) = mv {
                assert!(
                    !board.is_eye(p, me),
                    "seed {seed}: {me} considered its own eye {}\n{board:?}",
                    mv.to_gtp(7)
                );
                assert!(game.is_legal(mv));
            }
        }
    }
    // The positions must actually contain eyes for the test to mean anything.
    assert!(eyes_seen > 20, "only {eyes_seen} eyes in the sample");
}

/// White owns the right side, alive with eyes; Black the left; nothing is left to play but the
/// inside of one's own area. White wins by area and komi.
const SETTLED: &str = "
    . X . X O . .
    X X X X O O O
    . X . X O . O
    X X X X O O O
    . X . X O . .
    X X X X O O O
    . X . X O . O";

#[test]
fn passes_after_the_opponent_passes_on_a_settled_won_board() {
    let game = position(SETTLED, Color::White, true);
    assert_eq!(
        game.count(&[]).winner,
        Color::White,
        "premise: White wins as is"
    );
    let d = player(300, 1).genmove(&game, None);
    assert_eq!(d.action, Action::Move(Move::Pass));
    assert_eq!(d.info.reason, Reason::Winning);
    // And the game then ends by passes with White the winner.
    let mut game = game;
    game.play(Move::Pass).expect("pass");
    game.play(Move::Pass).expect("pass");
    let d = player(300, 2).genmove(&game, None);
    assert_eq!(d.action, Action::Move(Move::Pass));
    game.play(Move::Pass).expect("pass");
    assert_eq!(game.phase(), Phase::Ended);
    assert_eq!(game.winner(), Some(Color::White));
}

#[test]
fn passes_when_only_its_own_eyes_are_left() {
    // Black to move, White has not passed: every empty point is an eye of Black's or a
    // single-stone suicide inside White's area.
    let game = position(
        "
        . X O . O
        X X O O O
        . X O . O
        X X O O O
        . X O . O",
        Color::Black,
        false,
    );
    let d = player(300, 3).genmove(&game, None);
    assert_eq!(d.action, Action::Move(Move::Pass));
    assert_eq!(d.info.reason, Reason::NoPlay);
}

/// Black's area is the top, with a dead White stone on D6 that White will not agree is dead.
/// Captured, Black wins by 1 (29 points to 20, komi 8). Left on the board it counts as alive (as
/// Ing counts after the final passes), costing Black its point and at least one more next to it
/// (a shared or White point), so White wins however Black surrounds it: Black must capture.
const DEAD_STONE: &str = "
    . . . . . . .
    . . . O . . .
    . . . . . . .
    X X X X X X X
    O O O O O O X
    . O . O . O O
    . O . O . O .";

/// A stubborn opponent: it captures whatever it can capture and otherwise passes, so it never
/// gives up its dead stones and never lets stones thrown into its eyes count.
fn capture_or_pass(game: &Game) -> Move {
    let me = game.to_move();
    let board = game.board();
    board
        .empty_points()
        .find(|&p| game.is_legal(Move::Play(p)) && board.analyze(p, me).captured_stones > 0)
        .map_or(Move::Pass, Move::Play)
}

#[test]
fn captures_dead_stones_before_passing() {
    let mut game = position(DEAD_STONE, Color::Black, true);
    let d6 = at(&game, "D6");
    assert_eq!(
        game.count(&[]).winner,
        Color::White,
        "premise: as is, White wins"
    );
    assert_eq!(
        game.count(&[d6]).winner,
        Color::Black,
        "premise: captured, Black wins"
    );
    let white_in_black_area = |g: &Game| {
        g.board()
            .points()
            .any(|p| p.row() < 3 && g.board().color_at(p) == Some(Color::White))
    };
    let mut black = player(400, 4);
    while game.phase() != Phase::Ended && game.move_count() < 100 {
        let mv = if game.to_move() == Color::Black {
            let d = black.genmove(&game, None);
            let mv = d.mv().expect("resignation is off by default");
            assert!(
                mv != Move::Pass || !white_in_black_area(&game),
                "Black passed ({:?}) with White stones in its area\n{:?}",
                d.info.reason,
                game.board()
            );
            mv
        } else {
            capture_or_pass(&game)
        };
        game.play(mv).expect("legal");
    }
    assert_eq!(game.phase(), Phase::Ended, "\n{:?}", game.board());
    assert_eq!(game.board().color_at(d6), None);
    assert_eq!(game.winner(), Some(Color::Black), "\n{:?}", game.board());
}

/// An empty `size` board under Ing's rules on which White owes `passes` handicap passes.
fn handicap_game(size: usize, passes: u8) -> Game {
    let setup = Setup {
        handicap_passes: passes,
        ..Setup::empty(size).expect("size")
    };
    Game::new(setup, Rules::ing())
}

#[test]
fn handicap_passes_are_made_and_never_answered_by_a_pass() {
    // 3先: White owes two passes (讓手).
    let mut game = handicap_game(7, 2);
    let mut black = player(200, 5);
    let mut white = player(200, 6);
    for _ in 0..2 {
        let b = decide(&mut black, &game);
        assert_ne!(
            b,
            Move::Pass,
            "Black opens and answers handicap passes with stones"
        );
        game.play(b).expect("legal");
        let d = white.genmove(&game, None);
        assert_eq!(d.action, Action::Move(Move::Pass));
        assert_eq!(d.info.reason, Reason::HandicapPass);
        game.play(Move::Pass).expect("pass");
    }
    // After the second handicap pass Black is clearly winning as the board stands, yet it plays
    // on: a handicap pass is not the opponent's offer to end the game.
    assert_eq!(game.count(&[]).winner, Color::Black);
    let b = decide(&mut black, &game);
    assert_ne!(b, Move::Pass);
    game.play(b).expect("legal");
    let d = white.genmove(&game, None);
    assert_ne!(
        d.info.reason,
        Reason::HandicapPass,
        "the handicap is used up"
    );
}

/// Black's handicap stones go on the star points while White makes its handicap passes (the
/// search alone, from a nearly empty 19×19 board, spread ten of them over the top and left and
/// lost to GNU Go with them); past the star points, and once White plays, the search decides.
#[test]
fn handicap_stones_go_on_the_star_points() {
    // 6先 on 19×19: five White passes, six Black stones.
    let mut game = handicap_game(19, 5);
    let mut black = player(50, 5);
    let mut stones = Vec::new();
    for _ in 0..6 {
        let d = black.genmove(&game, None);
        assert_eq!(d.info.reason, Reason::HandicapStone);
        let Action::Move(mv) = d.action else {
            panic!("a move, not {:?}", d.action)
        };
        stones.push(mv.to_gtp(19));
        game.play(mv).expect("legal");
        if game.handicap_pass_due() {
            game.play(Move::Pass).expect("White's handicap pass");
        }
    }
    assert_eq!(stones, ["D4", "Q16", "D16", "Q4", "D10", "Q10"]);
    assert_eq!(game.to_move(), Color::White);
    game.play(Move::Play(Point::from_gtp("R3", 19, 19).expect("point")))
        .expect("legal");
    assert_eq!(black.genmove(&game, None).info.reason, Reason::Search);
}

#[test]
fn same_seed_same_move() {
    let game = Game::new(Setup::empty(7).expect("size"), Rules::ing());
    let a = player(200, 42).genmove(&game, None);
    let b = player(200, 42).genmove(&game, None);
    assert_eq!(a.action, b.action);
    assert_eq!(a.info.pv, b.info.pv);
    assert_eq!(a.info.playouts, b.info.playouts);
}

#[test]
fn info_describes_the_search() {
    let game = Game::new(Setup::empty(7).expect("size"), Rules::ing());
    let d = Player::new(Config {
        budget: Budget::playouts(300),
        early_stop: false,
        ..Config::default()
    })
    .expect("config")
    .genmove(&game, None);
    assert_eq!(d.info.reason, Reason::Search);
    assert_eq!(d.info.playouts, 300);
    assert_eq!(d.info.pv.first().copied(), d.mv());
    assert_eq!(d.info.candidates[0].mv, d.info.pv[0]);
    assert_eq!(d.info.candidates[0].visits, d.info.visits);
    let total: u32 = d.info.candidates.iter().map(|c| c.visits).sum();
    assert!(total <= 300);
    assert!((0.0..=1.0).contains(&d.info.win_rate));
    assert!(d.info.nodes > 49);
}

/// A clock for the player that advances one millisecond at every reading, so that a search
/// with a time limit makes an exact number of playouts (one reading after each) whatever the
/// machine's speed or load.
#[derive(Debug, Default)]
struct Ticks(AtomicU64);

impl TimeSource for Ticks {
    fn now(&self) -> Duration {
        Duration::from_millis(self.0.fetch_add(1, Ordering::Relaxed))
    }
}

fn ticking_player(budget: Budget) -> Player {
    Player::with_time_source(
        Config {
            budget,
            // The early stop estimates the playouts still to come from the rate so far; off,
            // the time limit alone ends the search.
            early_stop: false,
            ..Config::default()
        },
        Arc::new(Ticks::default()),
    )
    .expect("config")
}

#[test]
fn a_time_budget_ends_the_search_when_it_is_spent() {
    let game = Game::new(Setup::empty(9).expect("size"), Rules::ing());
    // 100 ms at 1 ms a playout: the search reads the clock after each playout and stops at the
    // first reading at or past 100 ms, the 100th.
    let d = ticking_player(Budget::time(Duration::from_millis(100))).genmove(&game, None);
    assert_eq!(d.info.reason, Reason::Search);
    assert_eq!(d.info.playouts, 100);
    assert_eq!(d.info.allotted, None);
    // Read at the start (0), after each playout (1 … 100) and at the end (101).
    assert_eq!(d.info.elapsed, Duration::from_millis(101));
    assert!(d.mv().is_some_and(|m| game.is_legal(m)));
}

#[test]
fn the_clock_allotment_bounds_the_search() {
    let game = Game::new(Setup::empty(9).expect("size"), Rules::ing());
    let policy = Config::default().time;
    // Half a second of absolute time and no byo-yomi: what is left minus the safety margin
    // (half a second) is nothing, so the move gets the policy's minimum (5 ms), which is less
    // than the budget's 100 ms: 5 playouts.
    let short = TimeLeft::absolute(Duration::from_millis(500));
    let d = ticking_player(Budget::time(Duration::from_millis(100))).genmove(&game, Some(short));
    assert_eq!(d.info.allotted, Some(policy.minimum));
    assert_eq!(policy.minimum, Duration::from_millis(5));
    assert_eq!(d.info.playouts, 5);
    assert!(d.mv().is_some_and(|m| game.is_legal(m)));
    // Ten minutes: 600 s over 27 moves (81 empty points / 3), of which the opening's share
    // (`TimePolicy::opening`), is far more than the budget, which then bounds the search: the
    // lesser of the two.
    let long = TimeLeft::absolute(Duration::from_secs(600));
    let d = ticking_player(Budget::time(Duration::from_millis(100))).genmove(&game, Some(long));
    assert_eq!(
        d.info.allotted,
        Some((Duration::from_secs(600) / 27).mul_f64(policy.opening))
    );
    assert_eq!(d.info.playouts, 100);
    // A playout budget with the clock: whichever ends first; here the 40 playouts.
    let both = Budget {
        playouts: Some(40),
        time: Some(Duration::from_millis(100)),
    };
    let d = ticking_player(both).genmove(&game, Some(long));
    assert_eq!(d.info.playouts, 40);
}

#[test]
fn a_wall_clock_time_budget_ends() {
    // The default time source, the wall clock: the search ends and plays a legal move (how long
    // it took is the machine's business, not asserted).
    let game = Game::new(Setup::empty(9).expect("size"), Rules::ing());
    let mut p = Player::new(Config {
        budget: Budget::time(Duration::from_millis(20)),
        ..Config::default()
    })
    .expect("config");
    let d = p.genmove(&game, Some(TimeLeft::absolute(Duration::from_millis(500))));
    assert!(d.info.playouts >= 1);
    assert!(d.mv().is_some_and(|m| game.is_legal(m)));
}

#[test]
fn resigns_only_when_enabled_and_hopeless() {
    // White's two living groups hold 28 points; Black can get at most the 21 between them.
    let game = position(
        "
        . O . O . O .
        O O O O O O O
        . . . . . . .
        . . X . . . .
        . . . . . . .
        O O O O O O O
        . O . O . O .",
        Color::Black,
        false,
    );
    let d = player(500, 7).genmove(&game, None);
    assert!(
        matches!(d.action, Action::Move(_)),
        "resignation is off by default"
    );
    let mut resigning = Player::new(Config {
        budget: Budget::playouts(500),
        resign: Some(ResignPolicy {
            below: 0.05,
            min_playouts: 100,
            ..ResignPolicy::default()
        }),
        ..Config::default()
    })
    .expect("config");
    let d = resigning.genmove(&game, None);
    assert_eq!(d.action, Action::Resign, "value {}", d.info.win_rate);
    assert_eq!(d.info.reason, Reason::Resign);
    // But not from the empty board.
    let empty = Game::new(Setup::empty(7).expect("size"), Rules::ing());
    assert!(matches!(
        resigning.genmove(&empty, None).action,
        Action::Move(_)
    ));
}

#[test]
fn a_finished_game_gets_a_pass() {
    let mut game = Game::new(Setup::empty(5).expect("size"), Rules::ing());
    for _ in 0..4 {
        game.play(Move::Pass).expect("pass");
    }
    let d = player(10, 8).genmove(&game, None);
    assert_eq!(d.info.reason, Reason::GameOver);
    assert_eq!(d.action, Action::Move(Move::Pass));
}

#[test]
fn invalid_configurations_are_refused() {
    let unbounded = Config {
        budget: Budget {
            playouts: None,
            time: None,
        },
        ..Config::default()
    };
    assert_eq!(
        Player::new(unbounded).err(),
        Some(ConfigError::UnboundedBudget)
    );
    let nan = Config {
        exploration: f64::NAN,
        ..Config::default()
    };
    assert!(matches!(
        Player::new(nan).err(),
        Some(ConfigError::BadParameter {
            name: "exploration",
            ..
        })
    ));
    let mut p = player(10, 0);
    assert_eq!(
        p.set_budget(Budget::playouts(0)),
        Err(ConfigError::ZeroPlayouts)
    );
    assert_eq!(p.config().budget, Budget::playouts(10));
}

#[test]
fn takes_a_group_in_atari() {
    // White's four stones have one liberty, C1; taking them decides the game.
    let game = position(
        "
        . . . . .
        . X X X .
        X O O O X
        . X O X .
        . . . . .",
        Color::Black,
        false,
    );
    let c1 = at(&game, "C1");
    assert_eq!(game.board().analyze(c1, Color::Black).captured_stones, 4);
    let mv = decide(&mut player(300, 9), &game);
    assert_eq!(mv, Move::Play(c1), "{}", mv.to_gtp(5));
}

/// The first 50 moves of a real game, as SGF points (Black first).
/// # Source: ../shared/sgf-corpus/aeb-pro/Ing/01/01.sgf (1st Ing Cup, round 1, 1988: Cho
/// Hunhyun against O Meien), moves 1 to 50.
const ING_01_01_OPENING: &str = "qd dp pq dd fc od ld og qf pe qe ph cf df dg ef cc ce dc cg \
                                 qo jq cn bo cj ch bn co dn fp lq cl ck hc gd jc pc oc kc kd \
                                 ke jd mc kb le mb hq ip fq eq";

/// The position after [`ING_01_01_OPENING`], Black to play.
fn ing_01_01_after_50() -> Game {
    let mut game = Game::new(Setup::empty(19).expect("size"), Rules::ing());
    for sgf in ING_01_01_OPENING.split_whitespace() {
        let point = Point::from_sgf(sgf, 19, 19).expect("a 19x19 point");
        game.play(Move::Play(point))
            .expect("the record's move is legal");
    }
    game
}

/// The most visited move's share of a 3,000-playout search (no early stop) from the position
/// after 50 moves of a real 19×19 game, with the exploration constant `exploration`.
fn top_share(exploration: f64) -> f64 {
    let game = ing_01_01_after_50();
    let d = Player::new(Config {
        budget: Budget::playouts(3000),
        early_stop: false,
        exploration,
        seed: 7,
        ..Config::default()
    })
    .expect("config")
    .genmove(&game, None);
    assert_eq!(d.info.playouts, 3000);
    f64::from(d.info.candidates[0].visits) / 3000.0
}

/// With RAVE and the pattern priors, a UCT exploration term of 0.1 spread a 19×19 search over
/// hundreds of moves (of 10,000 playouts from another middle-game position the most visited
/// move got about 1%) and it lost 37 of 40 games against the same search without it
/// (BENCHMARKS.md "Exploration"). The default search must concentrate: here its best move gets
/// a fifth of the playouts or more (24% when written, 10% with 0.1), and half as much again as
/// with 0.1.
#[test]
fn the_default_search_concentrates_on_its_best_moves_on_19x19() {
    let default = top_share(Config::default().exploration);
    let flat = top_share(0.1);
    assert!(
        default >= 0.2,
        "the most visited move got {default:.3} of the playouts"
    );
    assert!(
        default > 1.5 * flat,
        "default {default:.3}, exploration 0.1 {flat:.3}"
    );
}
