//! How the command line prints an error: its causes, each once.
//!
//! anyhow's alternate form (`{:#}`) joins the text of every cause in the chain with ": ". The
//! libraries' errors that wrap another (thiserror's `#[from]`) already end their own text with
//! the wrapped error's ("cannot read the file: No such file or directory (os error 2)"), since
//! the server and the GTP front show that text alone; printed as a chain, the wrapped error
//! then came twice. anyhow has no form that leaves out a repeated cause, so this walks the
//! chain itself.

/// The error's text with its causes, each cause that its wrapper's text does not already end
/// with added after ": ".
pub fn describe(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if text.is_empty() {
            text = part;
        } else if !part.is_empty() && !text.ends_with(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::describe;
    use anyhow::Context;

    /// An error that writes the one it wraps into its own text, as the libraries' do
    /// (`#[error("cannot read the file: {0}")]` with `#[from]`), or does not.
    #[derive(Debug)]
    struct Reading {
        inner: std::io::Error,
        writes_inner: bool,
    }

    impl std::fmt::Display for Reading {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            if self.writes_inner {
                write!(f, "cannot read the file: {}", self.inner)
            } else {
                write!(f, "cannot read the file")
            }
        }
    }

    impl std::error::Error for Reading {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.inner)
        }
    }

    fn reading(writes_inner: bool) -> Reading {
        Reading {
            inner: missing(),
            writes_inner,
        }
    }

    fn missing() -> std::io::Error {
        std::io::Error::new(std::io::ErrorKind::NotFound, "no such file")
    }

    #[test]
    fn a_cause_already_in_its_wrapper_is_not_repeated() {
        let e = anyhow::Error::from(reading(true));
        assert_eq!(
            format!("{e:#}"),
            "cannot read the file: no such file: no such file"
        );
        assert_eq!(describe(&e), "cannot read the file: no such file");
        let e = Err::<(), _>(reading(true))
            .context("game.sgf")
            .expect_err("an error");
        assert_eq!(describe(&e), "game.sgf: cannot read the file: no such file");
    }

    #[test]
    fn a_cause_not_in_its_wrapper_is_kept() {
        let e = Err::<(), _>(reading(false))
            .context("game.sgf")
            .expect_err("an error");
        assert_eq!(describe(&e), "game.sgf: cannot read the file: no such file");
        assert_eq!(describe(&anyhow::anyhow!("alone")), "alone");
    }
}
