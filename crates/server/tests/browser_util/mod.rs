//! Helpers of the browser tests (and of the web board's benchmark, `benches/web_board.rs`): the
//! app on a free loopback port, chromedriver and headless Chromium with a fresh profile each, and
//! waits on the page. Every wait polls an observable condition (a port that accepts, an element
//! that exists, a script that answers) under the deadline [`WAIT`]; nothing here sleeps in place
//! of an event.

#![allow(dead_code)]

use std::future::Future;
use std::net::{SocketAddr, TcpListener as StdListener};
use std::ops::Deref;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use ingo_server::client::Client as ApiClient;
use ingo_server::{AppState, Config};
use ingo_store::testing::TestDb;
use serde_json::{json, Value};

/// How long any one wait on a page may take.
pub const WAIT: Duration = Duration::from_secs(20);

pub use ingo_testkit::{CHROMEDRIVER, CHROMIUM};

/// Runs `f`, failing the test when it takes longer than `limit`. Without Chromium or
/// chromedriver the test fails under CI and is skipped with a note elsewhere
/// ([`ingo_testkit::chromium`]).
pub async fn bounded<F: Future<Output = ()>>(limit: Duration, f: F) {
    if !ingo_testkit::chromium() {
        return;
    }
    tokio::time::timeout(limit, f)
        .await
        .expect("the browser test finished within its time bound");
}

/// The server on 127.0.0.1:0 over a fresh SQLite database.
pub struct App {
    pub addr: SocketAddr,
    pub base: String,
    /// The server's own state, for a test to reach what the API does not (a game's settings
    /// an event would set).
    pub server: AppState,
    _db: TestDb,
}

pub async fn spawn_app() -> App {
    spawn_app_with(|_| {}).await
}

/// As [`spawn_app`], with the configuration changed by `change` first (the directors of
/// events, say).
pub async fn spawn_app_with(change: impl FnOnce(&mut Config)) -> App {
    let db = TestDb::sqlite().await.expect("a fresh SQLite database");
    let mut config = Config {
        database_url: db.url.clone(),
        ..Config::default()
    };
    change(&mut config);
    let state = AppState::new(db.store.clone(), config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(ingo_server::serve(listener, state.clone()));
    App {
        addr,
        base: format!("http://{addr}"),
        server: state,
        _db: db,
    }
}

impl App {
    /// `GET /api/games/{id}` as anyone sees it.
    pub async fn state(&self, gid: &str) -> Value {
        let r = ApiClient::new(self.addr)
            .get(&format!("/api/games/{gid}"))
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{:?}", r.body);
        r.body
    }

    pub async fn get_text(&self, path: &str) -> String {
        let r = ApiClient::new(self.addr).get(path).await.unwrap();
        assert_eq!(r.status, 200, "{path}: {}", r.text);
        r.text
    }
}

/// chromedriver on a free loopback port; killed when dropped.
pub struct ChromeDriver {
    child: Child,
    port: u16,
}

impl Drop for ChromeDriver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl ChromeDriver {
    pub async fn start() -> ChromeDriver {
        // (Whether both are installed was asked by `bounded`, or by the benchmark's start.)
        let port = StdListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free loopback port")
            .port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let driver = ChromeDriver { child, port };
        let start = Instant::now();
        while tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err()
        {
            assert!(
                start.elapsed() < WAIT,
                "chromedriver listens on port {port} within {WAIT:?}"
            );
            // The poll's interval: chromedriver says nothing when it listens.
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        driver
    }

    /// A new headless Chromium with a fresh profile and a `width`×`height` window.
    pub async fn browser(&self, width: u32, height: u32) -> Browser {
        self.browser_with(width, height, None).await
    }

    /// A phone: a `width`×`height` touch screen (Chromium's mobile emulation: a coarse
    /// pointer, touch events).
    pub async fn phone(&self, width: u32, height: u32) -> Browser {
        let emulation = json!({
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 1.0, "touch": true},
        });
        self.browser_with(width, height, Some(emulation)).await
    }

    async fn browser_with(&self, width: u32, height: u32, mobile: Option<Value>) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let mut caps = serde_json::Map::new();
        caps.insert("browserName".into(), json!("chrome"));
        let mut options = json!({
            "binary": CHROMIUM,
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-extensions",
                "--hide-scrollbars", "--force-device-scale-factor=1",
                format!("--window-size={width},{height}"),
                format!("--user-data-dir={}", profile.path().display()),
            ],
        });
        if let Some(m) = mobile {
            options["mobileEmulation"] = m;
        }
        caps.insert("goog:chromeOptions".into(), options);
        let client = tokio::time::timeout(
            WAIT,
            ClientBuilder::new(HttpConnector::new())
                .capabilities(caps)
                .connect(&format!("http://127.0.0.1:{}", self.port)),
        )
        .await
        .expect("Chromium starts in time")
        .expect("a WebDriver session");
        client.set_window_size(width, height).await.unwrap();
        Browser {
            client,
            _profile: profile,
        }
    }
}

/// A browser session and its profile directory.
pub struct Browser {
    client: Client,
    _profile: tempfile::TempDir,
}

impl Deref for Browser {
    type Target = Client;
    fn deref(&self) -> &Client {
        &self.client
    }
}

impl Browser {
    pub async fn close(self) -> Result<(), fantoccini::error::CmdError> {
        self.client.close().await
    }
}

pub fn css(s: &str) -> Locator<'_> {
    Locator::Css(s)
}

/// The first element matching `selector`, waited for.
pub async fn wait_css(b: &Client, selector: &str) -> Element {
    let start = Instant::now();
    loop {
        if let Ok(e) = b.find(css(selector)).await {
            return e;
        }
        if start.elapsed() > WAIT {
            let text = b
                .execute(
                    "return location.href + ' ' + document.body.innerText.slice(0, 2000)",
                    vec![],
                )
                .await
                .unwrap_or(Value::Null);
            panic!("{selector}: not seen within {WAIT:?}; the page shows: {text}");
        }
        // The poll's interval (WebDriver has no event for an element that appears).
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Runs `script` until it answers something other than `null`; that answer.
pub async fn wait_until(b: &Client, what: &str, script: &str) -> Value {
    let start = Instant::now();
    loop {
        match b.execute(script, vec![]).await {
            Ok(Value::Null) | Err(_) => {}
            Ok(v) => return v,
        }
        if start.elapsed() > WAIT {
            let notice = b
                .execute("return document.body.innerText.slice(0, 2000)", vec![])
                .await
                .unwrap_or(Value::Null);
            panic!("{what}: not seen within {WAIT:?}; the page shows: {notice}");
        }
        // The poll's interval (WebDriver has no event for a page's change).
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Waits until the game page shows `n` moves.
pub async fn wait_move_count(b: &Client, n: usize) {
    wait_until(
        b,
        &format!("move {n} on the page"),
        &format!("return document.getElementById('status')?.dataset.moves === '{n}' || null"),
    )
    .await;
}

/// Registers (and so logs in) through the page.
pub async fn register(b: &Client, base: &str, name: &str, rank: &str) {
    b.goto(&format!("{base}/#/login")).await.unwrap();
    let f = wait_css(b, "#register-form").await;
    f.find(css("input[name=name]"))
        .await
        .unwrap()
        .send_keys(name)
        .await
        .unwrap();
    f.find(css("input[name=password]"))
        .await
        .unwrap()
        .send_keys("correct horse")
        .await
        .unwrap();
    let r = f.find(css("input[name=rank]")).await.unwrap();
    r.clear().await.unwrap();
    r.send_keys(rank).await.unwrap();
    f.find(css("button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_css(b, "#me").await;
}

/// The columns of a board, as GTP names them (no I).
pub const LETTERS: &str = "ABCDEFGHJKLMNOPQRST";

/// The offset of point `name` from the board's centre, in CSS pixels.
async fn offset(b: &Client, size: usize, name: &str) -> (Element, f64, f64) {
    let board = wait_css(b, "svg.board").await;
    let rect = b
        .execute(
            "const r = document.querySelector('svg.board').getBoundingClientRect(); return [r.width, r.height]",
            vec![],
        )
        .await
        .unwrap();
    let (w, h) = (rect[0].as_f64().unwrap(), rect[1].as_f64().unwrap());
    let col = LETTERS.find(&name[..1]).unwrap() as f64;
    let row = name[1..].parse::<f64>().unwrap() - 1.0;
    let u = w / (size as f64 + 1.0);
    let x = (col + 1.0) * u - w / 2.0;
    let y = (size as f64 - row) * u - h / 2.0;
    (board, x.round(), y.round())
}

/// Clicks point `name` of the board with the mouse.
pub async fn click_point(b: &Client, size: usize, name: &str) {
    let (element, x, y) = offset(b, size, name).await;
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveToElement {
            element,
            duration: None,
            x,
            y,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    b.perform_actions(mouse).await.unwrap();
}

/// Moves the mouse over point `name` (the hover preview).
pub async fn hover_point(b: &Client, size: usize, name: &str) {
    let (element, x, y) = offset(b, size, name).await;
    let mouse = MouseActions::new("mouse".into()).then(PointerAction::MoveToElement {
        element,
        duration: None,
        x,
        y,
    });
    b.perform_actions(mouse).await.unwrap();
}

/// The stones on the page's board, as text.
pub async fn board_of(b: &Client) -> String {
    b.execute(
        "return [...document.querySelectorAll('svg.board circle.stone:not(.preview)')].map(c => c.dataset.point + (c.classList.contains('black') ? 'B' : 'W')).sort().join(' ')",
        vec![],
    )
    .await
    .unwrap()
    .as_str()
    .unwrap()
    .to_owned()
}

/// The stones of a game's state (`GET /api/games/{id}`, rows from the top, `X` and `O`) as
/// [`board_of`] writes a page's: `D4B C3W …`, sorted.
pub fn board_text(state: &Value) -> String {
    let rows = state["board"].as_array().expect("the state has a board");
    let size = rows.len();
    let mut stones = Vec::new();
    for (r, line) in rows.iter().enumerate() {
        for (c, ch) in line.as_str().expect("a board row").chars().enumerate() {
            let color = match ch {
                'X' => 'B',
                'O' => 'W',
                _ => continue,
            };
            stones.push(format!("{}{}{color}", &LETTERS[c..=c], size - r));
        }
    }
    stones.sort();
    stones.join(" ")
}

/// Waits until the page shows as many moves as the server's `state`, then checks that it shows
/// the server's board, stone by stone. The count and the stones are read in one script, so that
/// the board compared is the one drawn for that count (the page draws both in one task).
pub async fn assert_board_is_servers(b: &Client, state: &Value, what: &str) {
    let n = state["move_count"]
        .as_u64()
        .expect("the state's move count");
    let page = wait_until(
        b,
        &format!("{what}: move {n} on the page"),
        &format!(
            "return document.getElementById('status')?.dataset.moves === '{n}' ? [...document.querySelectorAll('svg.board circle.stone:not(.preview)')].map(c => c.dataset.point + (c.classList.contains('black') ? 'B' : 'W')).sort().join(' ') : null"
        ),
    )
    .await;
    assert_eq!(
        page.as_str(),
        Some(board_text(state).as_str()),
        "{what}: the page's board after move {n} is the server's"
    );
}

/// Checks that the page drew every move from `first` (the move count it opened with) to `last`
/// as a move of its own, one after another, in order: `window.__ingo.drawn` holds one entry per
/// move number drawn (a gap makes the page fetch the whole state instead, which leaves the
/// skipped numbers out), each the page's own monotonic time of the drawing.
pub async fn assert_moves_drawn_in_order(b: &Client, first: usize, last: usize, what: &str) {
    let drawn = b
        .execute(
            "return Object.entries(window.__ingo.drawn).map(([n, t]) => [Number(n), t]).sort((x, y) => x[0] - y[0])",
            vec![],
        )
        .await
        .unwrap();
    let drawn: Vec<(usize, f64)> = drawn
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e[0].as_u64().unwrap() as usize, e[1].as_f64().unwrap()))
        .collect();
    let numbers: Vec<usize> = drawn.iter().map(|d| d.0).collect();
    assert_eq!(
        numbers,
        (first..=last).collect::<Vec<_>>(),
        "{what}: every move from {first} to {last} drawn as it came"
    );
    assert!(
        drawn.windows(2).all(|w| w[0].1 <= w[1].1),
        "{what}: the moves drawn in the order played: {drawn:?}"
    );
}

/// A request to the API from a page, as its player (the CSRF token read from `/api/me`).
pub async fn page_api(b: &Client, method: &str, path: &str, body: Value) -> Value {
    b.execute_async(
        "const [method, path, body, done] = arguments; \
         fetch('/api/me').then((r) => r.json()).then((me) => fetch(path, { method, body: JSON.stringify(body), \
           headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': me.csrf } })) \
           .then((r) => r.json()).then(done, (e) => done({ error: String(e) }));",
        vec![json!(method), json!(path), body],
    )
    .await
    .unwrap()
}

/// Sends `text` in the chat panel of `channel`.
pub async fn chat(b: &Client, channel: &str, text: &str) {
    let input = wait_css(b, &format!("#chat-{channel} ~ form input")).await;
    input.send_keys(text).await.unwrap();
    b.find(css(&format!("#chat-{channel} ~ form button")))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// Where a screenshot goes: `target/screenshots/NAME.png` of the workspace.
pub fn shot_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{name}.png"))
}

pub async fn screenshot(b: &Client, name: &str) {
    let png = b.screenshot().await.unwrap();
    std::fs::write(shot_path(name), png).unwrap();
}

/// Opens the lobby of the server at `base` in `b` and waits for its challenge form.
pub async fn challenge_form(b: &Client, base: &str) -> Element {
    b.goto(&format!("{base}/#/")).await.unwrap();
    wait_css(b, "#challenge-form").await
}

/// Chooses `value` in the `select` named `name` of `form`.
pub async fn select(form: &Element, name: &str, value: &str) {
    form.find(css(&format!("select[name={name}]")))
        .await
        .unwrap()
        .select_by_value(value)
        .await
        .unwrap();
}

/// Types `text` into the `input` named `name` of `form`.
pub async fn type_into(form: &Element, name: &str, text: &str) {
    form.find(css(&format!("input[name={name}]")))
        .await
        .unwrap()
        .send_keys(text)
        .await
        .unwrap();
}

/// Presses the submit button of `form`.
pub async fn submit(form: &Element) {
    form.find(css("button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// Waits for the page of a game (after a challenge or a game against a program starts it).
pub async fn wait_game_page(b: &Client) {
    wait_until(
        b,
        "the game page",
        "return location.hash.startsWith('#/game/') || null",
    )
    .await;
}

/// A player on the API (a program, not a browser), registered as `name` of `rank`.
pub async fn api_player(app: &App, name: &str, rank: &str) -> ApiClient {
    let mut c = ApiClient::new(app.addr);
    assert_eq!(
        c.register(name, "correct horse", rank)
            .await
            .unwrap()
            .status,
        201
    );
    c
}

/// The first two moves of a game an opponent program answers (the person's E5, then the
/// program's move or pass) as the server has them, stone by stone, and the page's board is the
/// server's.
pub async fn assert_e5_answered(b: &Client, state: &Value, what: &str) {
    let first = state["moves"][0]["move"].as_str().map(str::to_uppercase);
    assert_eq!(first.as_deref(), Some("E5"), "{state}");
    assert_eq!(state["moves"][1]["color"], "W", "{state}");
    let stones = board_text(state);
    assert!(stones.split(' ').any(|s| s == "E5B"), "{stones}");
    let answer = state["moves"][1]["move"].as_str().unwrap();
    if answer != "pass" {
        let stone = format!("{}W", answer.to_uppercase());
        assert!(stones.split(' ').any(|s| s == stone), "{stone} in {stones}");
    }
    assert_board_is_servers(b, state, what).await;
}

/// A game on a `size`×`size` board between the browser `black` (registered 1段) and the API
/// player `white` (2段, named `bob`), by ranks so that the weaker holds Black with no handicap
/// pass; the game's id.
pub async fn ranked_game(app: &App, black: &Client, white: &mut ApiClient, size: usize) -> String {
    let challenge = page_api(
        black,
        "POST",
        "/api/challenges",
        json!({"size": size, "handicap": "ranks", "opponent": "bob", "time_control": "ing-pp:1h"}),
    )
    .await;
    let r = white
        .post(
            &format!("/api/challenges/{}/accept", challenge["id"]),
            json!({}),
        )
        .await
        .unwrap();
    assert_eq!(r.status, 201, "{:?}", r.body);
    let gid = r.body["game_id"].to_string();
    let state = app.state(&gid).await;
    assert_eq!(state["handicap_passes"], json!(0), "{state}");
    gid
}

/// The app, chromedriver, a 1280×1000 browser where alice (1段) is registered, the API player
/// bob (2段), and a ranked 9×9 game between them ([`ranked_game`]: alice Black), by its id. Keep
/// the driver alive for the test.
pub async fn nine_by_nine() -> (App, ChromeDriver, Browser, ApiClient, String) {
    let app = spawn_app().await;
    let driver = ChromeDriver::start().await;
    let b = driver.browser(1280, 1000).await;
    register(&b, &app.base, "alice", "1d").await;
    let mut bob = api_player(&app, "bob", "2d").await;
    let gid = ranked_game(&app, &b, &mut bob, 9).await;
    (app, driver, b, bob, gid)
}

/// Plays `moves` in game `gid` in turn from its move `first` (1 for the first): the odd
/// ones by the browser `black`, the even ones by the API player `white`.
pub async fn play_moves(
    black: &Client,
    white: &mut ApiClient,
    gid: &str,
    first: usize,
    moves: &[&str],
) {
    for (i, mv) in moves.iter().enumerate() {
        let number = first + i;
        let body = json!({"move": mv, "number": number});
        let path = format!("/api/games/{gid}/moves");
        if number % 2 == 1 {
            let r = page_api(black, "POST", &path, body).await;
            assert!(r.get("reason").is_none(), "move {number} {mv}: {r}");
        } else {
            let r = white.post(&path, body).await.unwrap();
            assert_eq!(r.status, 200, "move {number} {mv}: {:?}", r.body);
        }
    }
}

/// The points a page shades as a side's area (`svg.board rect.territory`): `D4B C3W …`,
/// sorted.
pub async fn shading_of(b: &Client) -> String {
    b.execute(
        "return [...document.querySelectorAll('svg.board rect.territory')].map(r => r.dataset.owner).sort().join(' ')",
        vec![],
    )
    .await
    .unwrap()
    .as_str()
    .unwrap()
    .to_owned()
}

/// The points a page should shade from the server's `owners` rows (rows from the top, `X`
/// Black's, `O` White's) on `board` (a state's board rows) with `dead` taken off: the empty
/// points and the dead stones, each with its owner, as [`shading_of`] writes them.
pub fn shading_expected(owners: &Value, board: &Value, dead: &[String]) -> String {
    let rows = owners.as_array().expect("owner rows");
    let board = board.as_array().expect("board rows");
    let size = rows.len();
    let mut out = Vec::new();
    for (r, line) in rows.iter().enumerate() {
        let stones: Vec<char> = board[r].as_str().unwrap().chars().collect();
        for (c, o) in line.as_str().unwrap().chars().enumerate() {
            let name = format!("{}{}", &LETTERS[c..=c], size - r);
            let owner = match o {
                'X' => 'B',
                'O' => 'W',
                _ => continue,
            };
            if stones[c] == '.' || dead.contains(&name) {
                out.push(format!("{name}{owner}"));
            }
        }
    }
    out.sort();
    out.join(" ")
}

/// A second server on the database of an [`App`] (a restart: its games rebuilt from the store
/// alone, with nothing of the first server's memory).
pub struct Restarted {
    pub addr: SocketAddr,
    pub base: String,
    pub server: AppState,
}

impl App {
    /// Starts another server on this app's database, opened anew from its URL.
    pub async fn restart(&self) -> Restarted {
        let store = ingo_store::Store::open(&self._db.url)
            .await
            .expect("the database opens again");
        let config = Config {
            database_url: self._db.url.clone(),
            ..Config::default()
        };
        let state = AppState::new(store, config);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(ingo_server::serve(listener, state.clone()));
        Restarted {
            addr,
            base: format!("http://{addr}"),
            server: state,
        }
    }
}
