//! The server's logs, through `tracing`: each HTTP request is a span (method, route, game id)
//! closed by an event with its status and latency ([`crate::http::trace`]); faults and internal
//! errors are events of their own. [`init`] writes them to standard error as text for a
//! person, or as one JSON object a line for an operator's tools. `RUST_LOG` filters them
//! (default `info`).

use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::EnvFilter;

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LogFormat {
    /// Plain text, one line an event.
    #[default]
    Text,
    /// One JSON object a line, with the span's fields.
    Json,
}

impl LogFormat {
    /// `text` or `json`.
    pub fn parse(s: &str) -> Option<LogFormat> {
        match s {
            "text" => Some(LogFormat::Text),
            "json" => Some(LogFormat::Json),
            _ => None,
        }
    }
}

/// A subscriber writing `format` lines to `writer`.
pub fn subscriber<W>(format: LogFormat, writer: W) -> Box<dyn tracing::Subscriber + Send + Sync>
where
    W: for<'a> MakeWriter<'a> + Send + Sync + 'static,
{
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer);
    match format {
        LogFormat::Text => Box::new(builder.finish()),
        LogFormat::Json => Box::new(
            builder
                .json()
                .with_current_span(true)
                .with_span_list(false)
                .finish(),
        ),
    }
}

/// Sends this process's logs to standard error in `format`.
///
/// # Errors
/// When a global subscriber is set already.
pub fn init(format: LogFormat) -> Result<(), tracing::subscriber::SetGlobalDefaultError> {
    tracing::subscriber::set_global_default(subscriber(format, std::io::stderr))
}
