//! A small client of the server's API for tests, the load test and bots: HTTP/1.1 requests
//! (one connection each) with the session cookie and CSRF token kept, and the game WebSocket.

use std::io;
use std::net::SocketAddr;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

/// A WebSocket message, as [`WsStream`] yields them.
pub use tokio_tungstenite::tungstenite::Message;

/// The WebSocket stream [`Client::websocket`] gives.
pub type WsStream =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// An answer.
#[derive(Clone, Debug)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// Header lines, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body as JSON (`Null` when empty, a string when not JSON).
    pub body: Value,
    /// The body as text.
    pub text: String,
}

impl Reply {
    /// The first header of that (lower-case) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A user agent: a server address, and the session once logged in.
#[derive(Clone, Debug)]
pub struct Client {
    /// The server.
    pub addr: SocketAddr,
    /// The session cookie's value.
    pub session: Option<String>,
    /// The CSRF token sent with state-changing requests.
    pub csrf: Option<String>,
    /// The local address to connect from (another loopback address plays another machine);
    /// `None`: the system's choice.
    pub from: Option<std::net::IpAddr>,
}

fn bad(e: impl ToString) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e.to_string())
}

impl Client {
    /// A client of the server at `addr`, not logged in.
    pub fn new(addr: SocketAddr) -> Client {
        Client {
            addr,
            session: None,
            csrf: None,
            from: None,
        }
    }

    /// Sends one request; keeps a session cookie and CSRF token the answer gives.
    ///
    /// # Errors
    /// When the connection fails or the answer is not HTTP.
    pub async fn request(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> io::Result<Reply> {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        self.send(method, path, "application/json", &body).await
    }

    /// `POST path` with a body of text of type `content_type` (an event's agreement as TOML).
    ///
    /// # Errors
    /// As [`request`](Self::request).
    pub async fn post_text(
        &mut self,
        path: &str,
        content_type: &str,
        body: &str,
    ) -> io::Result<Reply> {
        self.send("POST", path, content_type, body).await
    }

    async fn send(
        &mut self,
        method: &str,
        path: &str,
        content_type: &str,
        body: &str,
    ) -> io::Result<Reply> {
        let mut req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n",
            self.addr,
            body.len()
        );
        if !body.is_empty() {
            req.push_str(&format!("Content-Type: {content_type}\r\n"));
        }
        if let Some(s) = &self.session {
            req.push_str(&format!("Cookie: ingo_session={s}\r\n"));
        }
        if let Some(c) = &self.csrf {
            req.push_str(&format!("X-CSRF-Token: {c}\r\n"));
        }
        req.push_str("\r\n");
        req.push_str(body);
        let mut stream = match self.from {
            None => TcpStream::connect(self.addr).await?,
            Some(ip) => {
                let socket = if ip.is_ipv4() {
                    tokio::net::TcpSocket::new_v4()?
                } else {
                    tokio::net::TcpSocket::new_v6()?
                };
                socket.bind(SocketAddr::new(ip, 0))?;
                socket.connect(self.addr).await?
            }
        };
        stream.write_all(req.as_bytes()).await?;
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).await?;
        let raw = String::from_utf8(raw).map_err(bad)?;
        let (head, text) = raw
            .split_once("\r\n\r\n")
            .ok_or_else(|| bad("no end of headers"))?;
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad("no status line"))?;
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        for (k, v) in &headers {
            if k == "set-cookie" {
                if let Some(rest) = v.strip_prefix("ingo_session=") {
                    let value = rest.split(';').next().unwrap_or("");
                    self.session = (!value.is_empty()).then(|| value.to_owned());
                }
            }
        }
        let body = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
        };
        if let Some(c) = body.get("csrf").and_then(Value::as_str) {
            self.csrf = Some(c.to_owned());
        }
        Ok(Reply {
            status,
            headers,
            body,
            text: text.to_owned(),
        })
    }

    /// `GET path`.
    ///
    /// # Errors
    /// As [`request`](Self::request).
    pub async fn get(&mut self, path: &str) -> io::Result<Reply> {
        self.request("GET", path, None).await
    }

    /// `POST path` with a JSON body.
    ///
    /// # Errors
    /// As [`request`](Self::request).
    pub async fn post(&mut self, path: &str, body: Value) -> io::Result<Reply> {
        self.request("POST", path, Some(&body)).await
    }

    /// Registers (and so logs in).
    ///
    /// # Errors
    /// As [`request`](Self::request).
    pub async fn register(&mut self, name: &str, password: &str, rank: &str) -> io::Result<Reply> {
        self.post(
            "/api/register",
            serde_json::json!({"name": name, "password": password, "rank": rank}),
        )
        .await
    }

    /// Logs in.
    ///
    /// # Errors
    /// As [`request`](Self::request).
    pub async fn login(&mut self, name: &str, password: &str) -> io::Result<Reply> {
        self.post(
            "/api/login",
            serde_json::json!({"name": name, "password": password}),
        )
        .await
    }

    /// Opens game `id`'s WebSocket with this client's session (and CSRF token, to act).
    ///
    /// # Errors
    /// When the connection or the upgrade fails.
    pub async fn websocket(&self, id: i64) -> io::Result<WsStream> {
        let csrf = self.csrf.as_deref().unwrap_or("");
        self.socket(&format!("/api/games/{id}/ws?csrf={csrf}"))
            .await
    }

    /// Opens event `id`'s WebSocket (its changes).
    ///
    /// # Errors
    /// When the connection or the upgrade fails.
    pub async fn event_websocket(&self, id: i64) -> io::Result<WsStream> {
        self.socket(&format!("/api/events/{id}/ws")).await
    }

    async fn socket(&self, path: &str) -> io::Result<WsStream> {
        let url = format!("ws://{}{path}", self.addr);
        let mut req = url.into_client_request().map_err(bad)?;
        if let Some(s) = &self.session {
            req.headers_mut().insert(
                "cookie",
                HeaderValue::from_str(&format!("ingo_session={s}")).map_err(bad)?,
            );
        }
        // Reads of 4 KiB, not the default 128 KiB zeroed at every read; no Nagle delay on
        // small frames.
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(4096);
        let (ws, _) = tokio_tungstenite::connect_async_with_config(req, Some(config), true)
            .await
            .map_err(bad)?;
        Ok(ws)
    }
}

/// The most moves [`quiet_moves`] gives: nine rows of 19 points for each side.
pub const QUIET_MOVES: usize = 2 * 9 * 19;

/// The first `n` moves (at most [`QUIET_MOVES`]) of a 19×19 game without captures, Black and
/// White in turn: Black fills the lower nine rows, White the upper nine. The load test and the
/// tests that need many legal moves play it.
#[must_use]
pub fn quiet_moves(n: usize) -> Vec<String> {
    const COLUMNS: &str = "ABCDEFGHJKLMNOPQRST";
    let (mut b, mut w) = (Vec::new(), Vec::new());
    for row in 1..=9 {
        for c in COLUMNS.chars() {
            b.push(format!("{c}{row}"));
            w.push(format!("{c}{}", 20 - row));
        }
    }
    b.into_iter()
        .zip(w)
        .flat_map(|(x, y)| [x, y])
        .take(n)
        .collect()
}
