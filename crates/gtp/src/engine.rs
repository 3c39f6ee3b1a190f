//! The controller side of GTP: driving an external engine process.
//!
//! An [`Engine`] is a child process (GNU Go, KataGo, ...) that reads GTP
//! commands on its standard input and answers on its standard output. Every
//! call to [`Engine::send`] has a timeout, and no misbehaviour of the engine
//! can block the caller past it: the engine's output is read on a background
//! thread and handed over through a channel. An engine that times out, exits,
//! or answers with something that is not GTP is killed and marked closed;
//! later calls fail with [`EngineError::Closed`] rather than talking to an
//! engine whose state is unknown.
//!
//! ```no_run
//! use std::time::Duration;
//! use ingo_gtp::{engine::Engine, protocol::{GenmoveReply, Vertex}};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut gnugo = Engine::spawn("gnugo --mode gtp --level 1")?;
//! let second = Duration::from_secs(1);
//! gnugo.send("boardsize", &["9"], second)?;
//! gnugo.send("clear_board", &[], second)?;
//! let reply = gnugo.send("genmove", &["b"], Duration::from_secs(30))?;
//! println!("GNU Go played {} in {:?}", reply.text, reply.elapsed);
//! if let GenmoveReply::Move(Vertex::Point { col, row }) = GenmoveReply::parse(&reply.text, 9)? {
//!     println!("column {col}, row {row}");
//! }
//! gnugo.quit(second)?;
//! # Ok(())
//! # }
//! ```

use std::{
    collections::VecDeque,
    fmt, io,
    io::{BufReader, Write},
    path::PathBuf,
    process::{Child, ChildStdin, ExitStatus, Stdio},
    sync::{
        mpsc::{self, Receiver, RecvTimeoutError, Sender},
        Arc, Mutex, PoisonError,
    },
    thread,
    time::{Duration, Instant},
};

use crate::{
    line::{self, LineRead},
    protocol::{is_blank, quote, strip_controls, Command, Response, ResponseError, Status},
};

/// How long to wait for a killed engine to be reaped; see `Engine::kill`.
const KILL_GRACE: Duration = Duration::from_secs(2);

/// Longest line accepted from an engine's standard output, in bytes.
///
/// GTP responses are short lines; even `showboard` on 25×25 is far below
/// this. A longer line means the engine is not speaking GTP.
const MAX_STDOUT_LINE: usize = 1024 * 1024;

/// Longest response accepted from an engine, in bytes, over all its lines.
const MAX_RESPONSE: usize = 16 * 1024 * 1024;

/// Longest stderr line kept; longer lines are cut.
const MAX_STDERR_LINE: usize = 1000;

/// How many stderr lines [`EngineBuilder`] keeps by default.
pub const DEFAULT_STDERR_LINES: usize = 20;

/// How long to wait for an engine whose output has ended to exit on its own
/// before killing it, so that its real exit status can be reported.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// How long to wait for the stderr thread to read the last lines of an
/// engine that has exited. A grandchild holding the pipe open could delay
/// the end of the stream forever, so this is bounded too.
const STDERR_GRACE: Duration = Duration::from_millis(200);

/// A successful answer from an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The response text, without `=`, id and the terminating empty line;
    /// see [`Response::parse`].
    pub text: String,
    /// Wall time from just before the command was written to the arrival of
    /// the response's last line, for the referee's clock.
    pub elapsed: Duration,
}

/// Why an engine no longer accepts commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CloseReason {
    /// It did not answer in time and was killed.
    TimedOut,
    /// Its output ended (it exited or crashed).
    Exited,
    /// It sent something that is not a GTP response and was killed.
    Garbage,
    /// Writing a command to it failed and it was killed.
    Io,
    /// It was sent `quit`.
    Quit,
}

impl fmt::Display for CloseReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CloseReason::TimedOut => "it timed out",
            CloseReason::Exited => "it exited",
            CloseReason::Garbage => "it sent a malformed response",
            CloseReason::Io => "writing to it failed",
            CloseReason::Quit => "it was told to quit",
        })
    }
}

/// Everything that can go wrong when driving an engine.
///
/// `command` fields hold the command line as sent, without the id, e.g.
/// `genmove b`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    /// The engine command line could not be split into words.
    #[error("invalid engine command line: {0}")]
    CommandLine(#[from] CommandLineError),
    /// The process could not be started.
    #[error("failed to start engine {program:?}: {error}")]
    Spawn {
        /// The program that was to be run.
        program: String,
        /// Why starting it failed.
        error: io::Error,
    },
    /// The command cannot be sent as one GTP line; nothing was sent.
    #[error("cannot send {command:?}: {reason}")]
    InvalidCommand {
        /// The command as given (shortened if very long).
        command: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The engine answered with a GTP failure, `? message`.
    ///
    /// The engine is still usable.
    #[error("engine rejected `{command}`: {message}")]
    Failure {
        /// The command sent.
        command: String,
        /// The engine's error message.
        message: String,
        /// Wall time the command took, as in [`Reply::elapsed`].
        elapsed: Duration,
    },
    /// The engine's output ended before it answered: it exited or crashed.
    #[error("engine exited during `{command}` ({}){}", fmt_status(*.status), fmt_stderr(.stderr))]
    Exited {
        /// The command sent.
        command: String,
        /// The exit status, if it could be collected.
        status: Option<ExitStatus>,
        /// The last lines the engine wrote to its standard error.
        stderr: Vec<String>,
    },
    /// The engine did not answer within the timeout; it was killed.
    #[error("engine did not answer `{command}` within {timeout:?} and was killed")]
    Timeout {
        /// The command sent.
        command: String,
        /// The timeout that passed.
        timeout: Duration,
    },
    /// The engine answered with something that is not a GTP response; it
    /// was killed, since what it will say next cannot be trusted.
    #[error("engine sent a malformed response to `{command}`: {error}")]
    Garbage {
        /// The command sent.
        command: String,
        /// What was wrong, quoting what was received.
        error: ResponseError,
    },
    /// Writing the command to the engine failed while it was still
    /// running; it was killed.
    #[error("failed to send `{command}` to the engine: {error}")]
    Io {
        /// The command sent.
        command: String,
        /// The write error.
        error: io::Error,
    },
    /// An earlier error closed the engine; it accepts no more commands.
    #[error("engine is closed: {reason}")]
    Closed {
        /// What closed it.
        reason: CloseReason,
    },
}

fn fmt_status(status: Option<ExitStatus>) -> String {
    status.map_or_else(|| "exit status unknown".to_owned(), |s| s.to_string())
}

/// The last few stderr lines, for a one-line error message.
fn fmt_stderr(stderr: &[String]) -> String {
    const SHOWN: usize = 3;
    let shown: Vec<&str> = stderr
        .iter()
        .map(|line| line.trim())
        .filter(|line| !line.is_empty())
        .collect();
    if shown.is_empty() {
        return String::new();
    }
    let tail = &shown[shown.len().saturating_sub(SHOWN)..];
    format!("; stderr: {}", tail.join(" | "))
}

/// Configures and starts an [`Engine`].
///
/// ```no_run
/// use ingo_gtp::engine::EngineBuilder;
///
/// let engine = EngineBuilder::from_command_line("katago gtp -config 'my config.cfg'")?
///     .current_dir("/opt/katago")
///     .stderr_lines(50)
///     .spawn()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct EngineBuilder {
    program: String,
    args: Vec<String>,
    current_dir: Option<PathBuf>,
    stderr_lines: usize,
    command_ids: bool,
}

impl EngineBuilder {
    /// Starts building an engine that runs `program` (looked up on `PATH`
    /// if it has no slash).
    pub fn new(program: impl Into<String>) -> EngineBuilder {
        EngineBuilder {
            program: program.into(),
            args: Vec::new(),
            current_dir: None,
            stderr_lines: DEFAULT_STDERR_LINES,
            command_ids: true,
        }
    }

    /// Starts building from a shell-like command line; see
    /// [`split_command_line`].
    ///
    /// # Errors
    ///
    /// A [`CommandLineError`] for an empty line or unbalanced quotes.
    pub fn from_command_line(command_line: &str) -> Result<EngineBuilder, CommandLineError> {
        let mut words = split_command_line(command_line)?.into_iter();
        let program = words.next().ok_or(CommandLineError::Empty)?;
        Ok(EngineBuilder::new(program).args(words))
    }

    /// Adds one argument.
    #[must_use]
    pub fn arg(mut self, arg: impl Into<String>) -> EngineBuilder {
        self.args.push(arg.into());
        self
    }

    /// Adds arguments.
    #[must_use]
    pub fn args<I, A>(mut self, args: I) -> EngineBuilder
    where
        I: IntoIterator<Item = A>,
        A: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Runs the engine in `dir` instead of the current directory (engines
    /// often look for their data files relative to it).
    #[must_use]
    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> EngineBuilder {
        self.current_dir = Some(dir.into());
        self
    }

    /// How many of the engine's last stderr lines to keep for error reports
    /// (default [`DEFAULT_STDERR_LINES`]). Older lines are dropped, so a
    /// chatty engine cannot fill memory.
    #[must_use]
    pub fn stderr_lines(mut self, lines: usize) -> EngineBuilder {
        self.stderr_lines = lines;
        self
    }

    /// Whether to number commands (default `true`).
    ///
    /// With ids, a response that carries another command's id is caught as
    /// [`EngineError::Garbage`]. GTP requires engines to echo ids, but an
    /// engine that mishandles them can be driven with this turned off.
    #[must_use]
    pub fn command_ids(mut self, on: bool) -> EngineBuilder {
        self.command_ids = on;
        self
    }

    /// Starts the engine process.
    ///
    /// Nothing is sent yet, so an engine that starts but cannot work (a
    /// missing model file, say) is only noticed at the first command, as
    /// [`EngineError::Exited`] with its stderr.
    ///
    /// # Errors
    ///
    /// [`EngineError::Spawn`] if the process or its reader threads cannot
    /// be started.
    pub fn spawn(self) -> Result<Engine, EngineError> {
        let spawn_error = |error| EngineError::Spawn {
            program: self.program.clone(),
            error,
        };
        let mut command = std::process::Command::new(&self.program);
        command
            .args(&self.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &self.current_dir {
            command.current_dir(dir);
        }
        // A process group of its own lets `kill` reach whatever the engine
        // started too (a wrapper script's real engine, a `sleep`), so that a
        // hung engine leaves nothing behind that holds our pipes open.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        #[cfg(target_os = "linux")]
        die_with_parent(&mut command);
        let mut child = registry::spawn(command).map_err(spawn_error)?;

        let (stdin, stdout, stderr) =
            match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
                (Some(stdin), Some(stdout), Some(stderr)) => (stdin, stdout, stderr),
                // All three were asked for as pipes, so std always provides them.
                _ => {
                    kill_and_reap(&mut child);
                    return Err(spawn_error(io::Error::other(
                        "missing standard stream pipe",
                    )));
                }
            };

        let (line_tx, lines) = mpsc::channel();
        let stdout_thread = thread::Builder::new()
            .name("gtp-engine-stdout".into())
            .spawn(move || read_stdout(stdout, &line_tx));
        let stderr_tail = Arc::new(Mutex::new(StderrTail::new(self.stderr_lines)));
        let (done_tx, stderr_done) = mpsc::channel();
        let tail = Arc::clone(&stderr_tail);
        let stderr_thread = thread::Builder::new()
            .name("gtp-engine-stderr".into())
            .spawn(move || read_stderr(stderr, &tail, done_tx));
        if let Err(error) = stdout_thread.and(stderr_thread) {
            kill_and_reap(&mut child);
            return Err(spawn_error(error));
        }

        #[cfg(unix)]
        let guard = GroupGuard::spawn(child.id());
        #[cfg(not(unix))]
        let guard = None;
        Ok(Engine {
            _guard: guard,
            child,
            stdin: Some(stdin),
            lines,
            stderr_tail,
            stderr_done,
            status: None,
            closed: None,
            next_id: 1,
            command_ids: self.command_ids,
        })
    }
}

/// A running GTP engine process; see the [module docs](self).
///
/// Dropping an `Engine` kills the process (and its process group on Unix)
/// and reaps it, so no zombie is left, waiting at most a couple of seconds;
/// call [`Engine::quit`] first for a polite exit.
///
/// An engine never outlives its controller: on Linux the kernel kills it
/// (SIGKILL, a parent-death signal) when the controlling process dies, even
/// by SIGKILL; a controller that is asked to stop (SIGTERM, SIGINT) can kill
/// every engine at once with [`shut_down_engines`].
#[derive(Debug)]
pub struct Engine {
    /// Held for its `Drop`, which runs after `Engine`'s has killed the engine.
    _guard: Option<GroupGuard>,
    child: Child,
    /// `None` once closed, so that the engine sees end of input.
    stdin: Option<ChildStdin>,
    lines: Receiver<StdoutEvent>,
    stderr_tail: Arc<Mutex<StderrTail>>,
    /// Disconnected when the stderr thread has read everything.
    stderr_done: Receiver<()>,
    /// Set once the child has been reaped; its pid may then be reused, so
    /// it must not be signalled any more.
    status: Option<ExitStatus>,
    closed: Option<CloseReason>,
    next_id: u32,
    command_ids: bool,
}

impl Engine {
    /// Starts an engine from a shell-like command line such as
    /// `gnugo --mode gtp --level 1`; see [`split_command_line`] and
    /// [`EngineBuilder`] for more options.
    ///
    /// # Errors
    ///
    /// [`EngineError::CommandLine`] for an empty or badly quoted line,
    /// [`EngineError::Spawn`] if the process cannot be started.
    pub fn spawn(command_line: &str) -> Result<Engine, EngineError> {
        EngineBuilder::from_command_line(command_line)?.spawn()
    }

    /// Sends a command and waits at most `timeout` for the answer.
    ///
    /// An engine that has not answered by then is killed, which adds at
    /// most a couple of seconds (normally a few milliseconds) before this
    /// returns.
    ///
    /// `name` and each argument must be one non-empty word without
    /// whitespace, control characters or `#`.
    ///
    /// # Errors
    ///
    /// [`EngineError::Failure`] when the engine answers `? message` (the
    /// engine stays usable); [`EngineError::Timeout`],
    /// [`EngineError::Exited`], [`EngineError::Garbage`] and
    /// [`EngineError::Io`] when the engine misbehaves (it is then killed and
    /// closed); [`EngineError::Closed`] after any of those;
    /// [`EngineError::InvalidCommand`] for a command that cannot be sent.
    pub fn send(
        &mut self,
        name: &str,
        args: &[&str],
        timeout: Duration,
    ) -> Result<Reply, EngineError> {
        let mut line = String::from(name);
        for arg in args {
            line.push(' ');
            line.push_str(arg);
        }
        if let Some(reason) = std::iter::once(name)
            .chain(args.iter().copied())
            .find_map(invalid_word)
        {
            return Err(EngineError::InvalidCommand {
                command: quote(&line),
                reason,
            });
        }
        self.send_line(line, timeout)
    }

    /// Sends a [`Command`]; its `id` is ignored, since the engine numbers
    /// commands itself. Otherwise as [`Engine::send`].
    ///
    /// # Errors
    ///
    /// As for [`Engine::send`].
    pub fn send_command(
        &mut self,
        command: &Command,
        timeout: Duration,
    ) -> Result<Reply, EngineError> {
        let args: Vec<&str> = command.args.iter().map(String::as_str).collect();
        self.send(&command.name, &args, timeout)
    }

    /// Sends `quit`, then waits for the process to exit; after `timeout`
    /// (for both together) the engine is killed.
    ///
    /// An engine that exits without answering `quit` is fine too. Returns
    /// the exit status.
    ///
    /// # Errors
    ///
    /// [`EngineError::Timeout`] if the engine did not answer or exit in
    /// time (it was killed), [`EngineError::Closed`] if an earlier error
    /// closed it, [`EngineError::Garbage`] or [`EngineError::Io`] as for
    /// [`Engine::send`].
    pub fn quit(mut self, timeout: Duration) -> Result<ExitStatus, EngineError> {
        let deadline = Instant::now().checked_add(timeout);
        match self.send("quit", &[], timeout) {
            // A failure answer to `quit` is odd, but the engine is asked to
            // go either way.
            Ok(_) | Err(EngineError::Failure { .. }) => {}
            Err(EngineError::Exited {
                status: Some(status),
                ..
            }) => return Ok(status),
            Err(e) => return Err(e),
        }
        self.closed = Some(CloseReason::Quit);
        // End of input tells the few engines that keep running after `quit`
        // (wrongly) to stop.
        drop(self.stdin.take());
        match self.wait_exit(deadline) {
            Some(status) => Ok(status),
            None => {
                self.kill();
                Err(EngineError::Timeout {
                    command: "quit".into(),
                    timeout,
                })
            }
        }
    }

    /// The operating system's id for the engine process.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Why the engine accepts no more commands, or `None` while it does.
    pub fn closed(&self) -> Option<CloseReason> {
        self.closed
    }

    /// The exit status, once the process has exited and been reaped.
    pub fn exit_status(&self) -> Option<ExitStatus> {
        self.status
    }

    /// The last lines (up to the configured number) that the engine wrote
    /// to its standard error, oldest first. Lines are cut at 1000 bytes and
    /// bytes that are not UTF-8 are replaced with U+FFFD.
    pub fn stderr_tail(&self) -> Vec<String> {
        self.stderr_tail
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .lines
            .iter()
            .cloned()
            .collect()
    }

    /// Writes `line` with an id and collects the response.
    fn send_line(&mut self, line: String, timeout: Duration) -> Result<Reply, EngineError> {
        if let Some(reason) = self.closed {
            return Err(EngineError::Closed { reason });
        }
        let id = self.next_id;
        self.next_id = self.next_id.checked_add(1).unwrap_or(1);
        let wire = if self.command_ids {
            format!("{id} {line}\n")
        } else {
            format!("{line}\n")
        };

        let start = Instant::now();
        // `None`: the timeout is too large to represent; wait without limit.
        let deadline = start.checked_add(timeout);
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(wire.as_bytes())
                .and_then(|()| stdin.flush()),
            None => Err(io::ErrorKind::BrokenPipe.into()),
        };
        if let Err(error) = written {
            // Usually a broken pipe because the engine has died; report that
            // as such, with its status and stderr, if it did.
            let exited = self.wait_exit(Instant::now().checked_add(EXIT_GRACE));
            return Err(match exited {
                Some(status) => self.exited(line, Some(status)),
                None => self.close_with(
                    CloseReason::Io,
                    EngineError::Io {
                        command: line,
                        error,
                    },
                ),
            });
        }

        let mut block = String::new();
        loop {
            let event = match deadline {
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    match self.lines.recv_timeout(left) {
                        Ok(event) => event,
                        Err(RecvTimeoutError::Timeout) => {
                            return Err(self.close_with(
                                CloseReason::TimedOut,
                                EngineError::Timeout {
                                    command: line,
                                    timeout,
                                },
                            ))
                        }
                        Err(RecvTimeoutError::Disconnected) => StdoutEvent::Eof,
                    }
                }
                None => self.lines.recv().unwrap_or(StdoutEvent::Eof),
            };
            let text = match event {
                StdoutEvent::Line(text) => text,
                StdoutEvent::TooLong => {
                    let error = ResponseError::TooLong {
                        max: MAX_STDOUT_LINE,
                    };
                    return Err(self.garbage(line, error));
                }
                StdoutEvent::Eof => {
                    let status = self.wait_exit(Instant::now().checked_add(EXIT_GRACE));
                    return Err(self.exited(line, status));
                }
            };
            // CR (like every control character) is dropped so that `\r\n`
            // engines work; this agrees with `Response::parse` on what a
            // blank or an empty line is.
            let text = strip_controls(&text);
            let text = text.as_ref();
            if block.is_empty() {
                if is_blank(text) {
                    // Blank lines before a response are tolerated.
                    continue;
                }
                // Fail on the first line rather than waiting for an empty
                // line that a confused engine may never send.
                if !text.starts_with(['=', '?']) {
                    let error = ResponseError::NoStatus {
                        received: quote(text),
                    };
                    return Err(self.garbage(line, error));
                }
            } else if text.is_empty() {
                break;
            }
            if block.len() + text.len() > MAX_RESPONSE {
                return Err(self.garbage(line, ResponseError::TooLong { max: MAX_RESPONSE }));
            }
            block.push_str(text);
            block.push('\n');
        }
        let elapsed = start.elapsed();

        let response = match Response::parse(&block) {
            Ok(response) => response,
            Err(error) => return Err(self.garbage(line, error)),
        };
        if self.command_ids {
            if let Err(error) = response.check_id(id) {
                return Err(self.garbage(line, error));
            }
        }
        match response.status {
            Status::Success => Ok(Reply {
                text: response.text,
                elapsed,
            }),
            Status::Failure => Err(EngineError::Failure {
                command: line,
                message: response.text,
                elapsed,
            }),
        }
    }

    fn garbage(&mut self, command: String, error: ResponseError) -> EngineError {
        self.close_with(
            CloseReason::Garbage,
            EngineError::Garbage { command, error },
        )
    }

    /// Kills the engine and marks it closed, returning `error`.
    fn close_with(&mut self, reason: CloseReason, error: EngineError) -> EngineError {
        self.kill();
        self.closed = Some(reason);
        error
    }

    /// Builds [`EngineError::Exited`] once the engine's output has ended,
    /// killing the engine if it has not exited by itself.
    fn exited(&mut self, command: String, status: Option<ExitStatus>) -> EngineError {
        if status.is_none() {
            self.kill();
        }
        // Let the stderr thread catch the engine's last words (a crash
        // message is usually the last thing written).
        let _ = self.stderr_done.recv_timeout(STDERR_GRACE);
        self.closed = Some(CloseReason::Exited);
        EngineError::Exited {
            command,
            status: status.or(self.status),
            stderr: self.stderr_tail(),
        }
    }

    /// Polls until the process exits or `deadline` passes (`None`: no
    /// deadline). Returns the status if it exited.
    fn wait_exit(&mut self, deadline: Option<Instant>) -> Option<ExitStatus> {
        // std has no wait with a timeout; polling every few milliseconds
        // costs nothing next to a process exit.
        const POLL: Duration = Duration::from_millis(5);
        loop {
            if self.status.is_some() {
                return self.status;
            }
            match registry::try_reap(&mut self.child) {
                Ok(Some(status)) => {
                    self.status = Some(status);
                    return self.status;
                }
                Ok(None) => {}
                // Cannot happen for our own child; give up waiting.
                Err(_) => return None,
            }
            let now = Instant::now();
            if deadline.is_some_and(|deadline| now >= deadline) {
                return None;
            }
            let left = deadline.map_or(POLL, |deadline| deadline - now);
            thread::sleep(POLL.min(left));
        }
    }

    /// Kills the process (group) and reaps it, unless already reaped.
    ///
    /// The wait is bounded: a process stuck in the kernel (say, on a hung
    /// network file system) dies only when it gets out, and the caller of a
    /// timed command must not wait for that. Such a process stays unreaped;
    /// `Drop` tries again, and at worst it is reaped when we exit.
    fn kill(&mut self) {
        drop(self.stdin.take());
        if self.status.is_none() {
            send_kill(&mut self.child);
            self.wait_exit(Instant::now().checked_add(KILL_GRACE));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Kills `child` and everything in its process group, then waits for it
/// without a time limit (only for a child that never ran a command).
fn kill_and_reap(child: &mut Child) -> Option<ExitStatus> {
    // Out of the registry first, so that `shut_down_engines` cannot signal
    // the group once the pid is free again.
    registry::forget(child.id());
    send_kill(child);
    child.wait().ok()
}

/// Makes the kernel kill the engine (SIGKILL) when the thread that spawned
/// it exits, which covers the controller being killed with SIGKILL, when no
/// code of ours runs any more. Linux only (`PR_SET_PDEATHSIG`).
///
/// The parent-death signal belongs to the spawning *thread*, not the
/// process: an engine spawned on a thread that then exits would be killed
/// at once although its [`Engine`] lives on. So every engine is spawned on
/// one thread that lives as long as the process; see [`registry::spawn`].
///
/// The signal is not inherited by the engine's own children (a wrapper
/// script's real engine): those are killed with the process group by
/// [`Engine`]'s `Drop` and by [`shut_down_engines`], but not after a
/// SIGKILL of the controller.
#[cfg(target_os = "linux")]
// The workspace forbids unsafe code; this is its one, narrow exception (see
// ingo-gtp's Cargo.toml). `pre_exec` is the only way to run code in the child
// between fork and exec, and the parent-death signal can only be set there:
// std has no option for it, and no safe wrapper exists.
#[allow(unsafe_code)]
fn die_with_parent(command: &mut std::process::Command) {
    use rustix::process::{getpid, getppid, set_parent_process_death_signal, Signal};
    use std::os::unix::process::CommandExt;
    let parent = getpid();
    // SAFETY: the closure runs in the forked child before exec, where only
    // async-signal-safe operations are allowed. It makes two system calls,
    // prctl(PR_SET_PDEATHSIG) and getppid, through rustix (raw syscalls, no
    // allocation, no lock), and builds its error from an errno, which does
    // not allocate either. It touches no memory shared with the parent.
    unsafe {
        command.pre_exec(move || {
            set_parent_process_death_signal(Some(Signal::KILL))?;
            // If the controller died between fork and prctl, no signal will
            // ever come: give up rather than run an orphan engine.
            if getppid() != Some(parent) {
                return Err(rustix::io::Errno::SRCH.into());
            }
            Ok(())
        });
    }
}

/// A `/bin/sh` in the engine's process group that kills the whole group
/// (`kill -s KILL 0`) once its standard input ends: when the [`Engine`] is
/// dropped, or when the controller dies, however it dies (a SIGKILL
/// included, where no code of ours runs). The parent-death signal reaches
/// only the engine process itself; this reaches what it started too (the
/// real engine behind a wrapper script that does not `exec` it), and the
/// leftovers of an engine that exited by itself, whose group `Drop` no
/// longer signals.
///
/// Best effort: without `/bin/sh` the engine runs without a guard. The
/// guard gets no parent-death signal, since it must outlive the controller
/// to do its work, and the write end of its input is close-on-exec, so no
/// other child holds it open.
#[derive(Debug)]
struct GroupGuard {
    child: Child,
    stdin: Option<ChildStdin>,
}

impl GroupGuard {
    #[cfg(unix)]
    fn spawn(pgid: u32) -> Option<GroupGuard> {
        use std::os::unix::process::CommandExt;
        let mut child = std::process::Command::new("/bin/sh")
            .args(["-c", "read -r _ignored; kill -s KILL 0"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(i32::try_from(pgid).ok()?)
            .spawn()
            .ok()?;
        let stdin = child.stdin.take();
        Some(GroupGuard { child, stdin })
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        // End of input: the guard kills the group, itself included.
        drop(self.stdin.take());
        let deadline = Instant::now().checked_add(KILL_GRACE);
        loop {
            match self.child.try_wait() {
                Ok(None) => {}
                Ok(Some(_)) | Err(_) => return,
            }
            if deadline.is_none_or(|d| Instant::now() >= d) {
                // Still unreaped, so its pid is still its own.
                let _ = self.child.kill();
                let _ = self.child.try_wait();
                return;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }
}

/// Kills every engine this process started and has not reaped yet (SIGKILL
/// to each engine's process group), and makes every later spawn fail with
/// [`EngineError::Spawn`]. Returns how many engines were signalled.
///
/// This is for a program that is about to exit, from its SIGTERM or SIGINT
/// handler's thread: engines run in process groups of their own, so a
/// Ctrl-C in the terminal does not reach them, and an engine that ignores
/// end of input would outlive its controller. The [`Engine`] values stay
/// valid: their next command fails as if the engine had crashed, and
/// dropping them reaps the processes.
pub fn shut_down_engines() -> usize {
    registry::shut_down()
}

/// The engines this process has started and not reaped, so that
/// [`shut_down_engines`] can reach them from any thread.
mod registry {
    use std::{
        io,
        process::{Child, Command, ExitStatus},
        sync::{mpsc, Mutex, OnceLock, PoisonError},
        thread,
    };

    #[derive(Default)]
    struct Live {
        /// Set by [`shut_down`]: no more engines are started.
        shut_down: bool,
        /// Pids of unreaped engines, each also its process group's id.
        pids: Vec<u32>,
    }

    static LIVE: Mutex<Live> = Mutex::new(Live {
        shut_down: false,
        pids: Vec::new(),
    });

    type Request = (Command, mpsc::Sender<io::Result<Child>>);

    fn live() -> std::sync::MutexGuard<'static, Live> {
        LIVE.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The thread that spawns every engine. It never exits (its channel's
    /// sender is static), so an engine's parent-death signal fires only
    /// when the whole process dies, whichever thread drives the engine.
    fn spawner() -> io::Result<&'static mpsc::Sender<Request>> {
        static SPAWNER: OnceLock<io::Result<mpsc::Sender<Request>>> = OnceLock::new();
        let sender = SPAWNER.get_or_init(|| {
            let (tx, rx) = mpsc::channel::<Request>();
            thread::Builder::new()
                .name("gtp-engine-spawner".into())
                .spawn(move || {
                    for (mut command, reply) in rx {
                        let _ = reply.send(command.spawn());
                    }
                })?;
            Ok(tx)
        });
        sender
            .as_ref()
            .map_err(|e| io::Error::new(e.kind(), format!("cannot start the spawner thread: {e}")))
    }

    /// Starts `command` on the spawner thread and records its pid.
    pub(super) fn spawn(command: Command) -> io::Result<Child> {
        // Held across the spawn, so that `shut_down` either sees the new
        // engine or happens before it and refuses it.
        let mut live = live();
        if live.shut_down {
            return Err(io::Error::other(
                "the controller is shutting down its engines",
            ));
        }
        let (tx, rx) = mpsc::channel();
        spawner()?
            .send((command, tx))
            .map_err(|_| io::Error::other("the spawner thread is gone"))?;
        let child = rx
            .recv()
            .map_err(|_| io::Error::other("the spawner thread is gone"))??;
        live.pids.push(child.id());
        Ok(child)
    }

    /// `child.try_wait()`, forgetting the child once it is reaped. Done
    /// under the lock: once reaped, its pid may be reused by an unrelated
    /// process, which `shut_down` must then not signal.
    pub(super) fn try_reap(child: &mut Child) -> io::Result<Option<ExitStatus>> {
        let mut live = live();
        let status = child.try_wait()?;
        if status.is_some() {
            live.pids.retain(|&pid| pid != child.id());
        }
        Ok(status)
    }

    /// Forgets `pid` (before it is reaped by a blocking wait).
    pub(super) fn forget(pid: u32) {
        live().pids.retain(|&p| p != pid);
    }

    pub(super) fn shut_down() -> usize {
        let mut live = live();
        live.shut_down = true;
        #[cfg(unix)]
        for &pid in &live.pids {
            use rustix::process::{kill_process_group, Pid, Signal};
            if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
                if pid != Pid::INIT {
                    let _ = kill_process_group(pid, Signal::KILL);
                }
            }
        }
        live.pids.len()
    }
}

/// Sends SIGKILL to `child` and everything in its process group.
///
/// `child` must not have been reaped yet: until then its pid, which is
/// also its process group id, cannot be reused by an unrelated process.
fn send_kill(child: &mut Child) {
    #[cfg(unix)]
    {
        use rustix::process::{kill_process_group, Pid, Signal};
        // Never signal group 1: that means "every process we may signal".
        if let Some(pid) = i32::try_from(child.id()).ok().and_then(Pid::from_raw) {
            if pid != Pid::INIT {
                let _ = kill_process_group(pid, Signal::KILL);
            }
        }
    }
    // Also the portable way, and harmless if the group kill got it.
    let _ = child.kill();
}

/// Why `word` cannot be sent as one word of a GTP command, if it cannot.
fn invalid_word(word: &str) -> Option<&'static str> {
    if word.is_empty() {
        Some("empty command name or argument")
    } else if word.chars().any(char::is_whitespace) {
        Some("command name or argument contains whitespace")
    } else if word.chars().any(char::is_control) {
        Some("command name or argument contains a control character")
    } else if word.contains('#') {
        Some("command name or argument contains '#', which starts a GTP comment")
    } else {
        None
    }
}

/// What the stdout thread hands to the engine.
#[derive(Debug)]
enum StdoutEvent {
    /// One line, without `\n`, decoded as UTF-8 with replacements.
    Line(String),
    /// A line longer than [`MAX_STDOUT_LINE`].
    TooLong,
    /// The output ended, or could not be read any more.
    Eof,
}

/// Reads the engine's stdout until it ends, or until the [`Engine`] is gone.
fn read_stdout(stdout: impl io::Read, lines: &Sender<StdoutEvent>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        let event = match line::read_line(&mut reader, &mut buf, MAX_STDOUT_LINE) {
            Ok(LineRead::Line) => StdoutEvent::Line(String::from_utf8_lossy(&buf).into_owned()),
            Ok(LineRead::TooLong) => StdoutEvent::TooLong,
            Ok(LineRead::Eof) | Err(_) => StdoutEvent::Eof,
        };
        let end = matches!(event, StdoutEvent::Eof);
        if lines.send(event).is_err() || end {
            return;
        }
    }
}

/// The last lines of an engine's stderr, bounded in count and line length.
#[derive(Debug)]
struct StderrTail {
    lines: VecDeque<String>,
    max_lines: usize,
}

impl StderrTail {
    fn new(max_lines: usize) -> StderrTail {
        StderrTail {
            lines: VecDeque::with_capacity(max_lines.min(64)),
            max_lines,
        }
    }

    fn push(&mut self, line: String) {
        if self.max_lines == 0 {
            return;
        }
        if self.lines.len() == self.max_lines {
            self.lines.pop_front();
        }
        self.lines.push_back(line);
    }
}

/// Drains the engine's stderr into `tail`. Draining matters even when
/// nobody looks: an engine blocks once the stderr pipe buffer is full.
/// `done` is dropped on return, which tells [`Engine`] the stream ended.
fn read_stderr(stderr: impl io::Read, tail: &Mutex<StderrTail>, done: Sender<()>) {
    let mut reader = BufReader::new(stderr);
    let mut buf = Vec::new();
    while let Ok(LineRead::Line | LineRead::TooLong) =
        line::read_line(&mut reader, &mut buf, MAX_STDERR_LINE)
    {
        let text = String::from_utf8_lossy(&buf);
        let text = text.trim_end_matches('\r').to_owned();
        tail.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(text);
    }
    drop(done);
}

/// Splits an engine command line into words, the way a POSIX shell would,
/// without running a shell.
///
/// Words are separated by unquoted whitespace. Inside single quotes every
/// character is literal; inside double quotes a backslash escapes only
/// `"`, `\`, `$`, `` ` `` and newline; outside quotes a backslash escapes
/// any character. Quoted parts next to each other join into one word, and
/// `''` is an empty word. There is no expansion of variables, `~` or globs,
/// and no redirection or pipes.
///
/// ```
/// use ingo_gtp::engine::split_command_line;
///
/// assert_eq!(
///     split_command_line(r#"katago gtp -config "/my dir/gtp.cfg" -override-config 'a=1, b=2'"#).unwrap(),
///     ["katago", "gtp", "-config", "/my dir/gtp.cfg", "-override-config", "a=1, b=2"],
/// );
/// ```
///
/// # Errors
///
/// [`CommandLineError::UnterminatedQuote`] and
/// [`CommandLineError::TrailingBackslash`]; [`CommandLineError::Empty`] if
/// there are no words.
pub fn split_command_line(line: &str) -> Result<Vec<String>, CommandLineError> {
    let mut words = Vec::new();
    // `None` between words; `Some` once a word has started, even if it is
    // still empty (as after `''`).
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err(CommandLineError::UnterminatedQuote { quote: '\'' }),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some('\n') => {}
                            Some(c @ ('"' | '\\' | '$' | '`')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err(CommandLineError::UnterminatedQuote { quote: '"' }),
                        },
                        Some(c) => w.push(c),
                        None => return Err(CommandLineError::UnterminatedQuote { quote: '"' }),
                    }
                }
            }
            '\\' => match chars.next() {
                // A backslash-newline continues the line.
                Some('\n') => {}
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err(CommandLineError::TrailingBackslash),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    if words.is_empty() {
        return Err(CommandLineError::Empty);
    }
    Ok(words)
}

/// An engine command line that [`split_command_line`] cannot split.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CommandLineError {
    /// No words at all.
    #[error("empty command line")]
    Empty,
    /// A quote is opened but not closed.
    #[error("unterminated {quote} quote")]
    UnterminatedQuote {
        /// The quote character, `'` or `"`.
        quote: char,
    },
    /// The line ends in a backslash that escapes nothing.
    #[error("trailing backslash")]
    TrailingBackslash,
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn split(s: &str) -> Result<Vec<String>, CommandLineError> {
        split_command_line(s)
    }

    #[test]
    fn split_plain_and_quoted() {
        assert_eq!(
            split("gnugo --mode gtp --level 1"),
            Ok(vec![
                "gnugo".into(),
                "--mode".into(),
                "gtp".into(),
                "--level".into(),
                "1".into()
            ])
        );
        assert_eq!(split("  a\t b \n"), Ok(vec!["a".into(), "b".into()]));
        assert_eq!(
            split("a 'b c' \"d e\""),
            Ok(vec!["a".into(), "b c".into(), "d e".into()])
        );
        assert_eq!(split("a'b'\"c\"d"), Ok(vec!["abcd".into()]));
        assert_eq!(
            split("a '' \"\""),
            Ok(vec!["a".into(), String::new(), String::new()])
        );
        assert_eq!(split(r"a\ b c"), Ok(vec!["a b".into(), "c".into()]));
        assert_eq!(split(r#""a\"b\\c\d$""#), Ok(vec![r#"a"b\c\d$"#.into()]));
        assert_eq!(split(r"'a\b'"), Ok(vec![r"a\b".into()]));
        assert_eq!(split("a\\\nb"), Ok(vec!["ab".into()]));
        assert_eq!(split("ünï 'cödé'"), Ok(vec!["ünï".into(), "cödé".into()]));
    }

    #[test]
    fn split_errors() {
        assert_eq!(split(""), Err(CommandLineError::Empty));
        assert_eq!(split("  \t"), Err(CommandLineError::Empty));
        assert_eq!(
            split("a 'b"),
            Err(CommandLineError::UnterminatedQuote { quote: '\'' })
        );
        assert_eq!(
            split("a \"b"),
            Err(CommandLineError::UnterminatedQuote { quote: '"' })
        );
        assert_eq!(
            split("a \"b\\"),
            Err(CommandLineError::UnterminatedQuote { quote: '"' })
        );
        assert_eq!(split("a\\"), Err(CommandLineError::TrailingBackslash));
        assert_eq!(
            CommandLineError::UnterminatedQuote { quote: '\'' }.to_string(),
            "unterminated ' quote"
        );
    }

    #[test]
    fn invalid_words() {
        assert!(invalid_word("genmove").is_none());
        assert!(invalid_word("Q16").is_none());
        for bad in ["", "a b", "a\tb", "a\nb", "a\u{7}", "a#b", "\u{a0}"] {
            assert!(invalid_word(bad).is_some(), "{bad:?}");
        }
    }

    #[test]
    fn stderr_tail_is_bounded() {
        let mut tail = StderrTail::new(3);
        for i in 0..10 {
            tail.push(i.to_string());
        }
        assert_eq!(tail.lines, ["7", "8", "9"]);
        let mut none = StderrTail::new(0);
        none.push("x".into());
        assert!(none.lines.is_empty());
    }

    #[test]
    fn error_messages() {
        let e = EngineError::Exited {
            command: "genmove b".into(),
            status: None,
            stderr: vec![
                "a".into(),
                String::new(),
                "b".into(),
                "c".into(),
                "d".into(),
            ],
        };
        assert_eq!(
            e.to_string(),
            "engine exited during `genmove b` (exit status unknown); stderr: b | c | d"
        );
        let e = EngineError::Timeout {
            command: "genmove w".into(),
            timeout: Duration::from_millis(300),
        };
        assert_eq!(
            e.to_string(),
            "engine did not answer `genmove w` within 300ms and was killed"
        );
        let e = EngineError::Closed {
            reason: CloseReason::TimedOut,
        };
        assert_eq!(e.to_string(), "engine is closed: it timed out");
    }

    proptest! {
        #[test]
        fn split_never_panics(s in any::<String>()) {
            let _ = split_command_line(&s);
        }

        #[test]
        fn split_plain_words(words in proptest::collection::vec("[a-zA-Z0-9_./=-]{1,10}", 1..6)) {
            prop_assert_eq!(split_command_line(&words.join(" ")), Ok(words));
        }
    }
}
