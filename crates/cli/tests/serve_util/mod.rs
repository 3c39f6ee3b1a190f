//! `ingo serve` as a process, for the tests of `serve.rs` and `serve_engines.rs`.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A running `ingo serve`, killed on drop.
pub struct Server {
    pub child: Child,
    pub addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `ingo serve` run in `dir`, none of its settings taken from the environment; the caller adds
/// its flags.
pub fn ingo_serve(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ingo"));
    c.arg("serve")
        .current_dir(dir)
        .env_remove("INGO_DB")
        .env_remove("INGO_LISTEN")
        .env_remove("INGO_CONFIG");
    c
}

/// Starts `serve` and reads the address it bound from its first line ("ingo serve: listening
/// on http://127.0.0.1:PORT (database …)").
pub fn spawn(mut serve: Command) -> Server {
    let mut child = serve
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("ingo serve starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the first line of ingo serve");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    Server { child, addr }
}

/// The runtime the tests' API clients run on.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime")
}
