//! Golden GTP transcripts: each `tests/gtp/NAME.gtp` is fed to `ingo gtp` and the output must
//! equal `tests/gtp/NAME.out`. A first line `# args: ...` gives the command-line flags.
//! `INGO_BLESS=1 cargo test --test gtp_transcripts` rewrites the `.out` files (review the diff!).

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn run_transcript(input: &str) -> String {
    let args: Vec<&str> = input
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# args:"))
        .map(|a| a.split_whitespace().collect())
        .unwrap_or_default();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ingo"))
        .arg("gtp")
        .args(&args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gtp"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ingo starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("ingo reads its input");
    let out = child.wait_with_output().expect("ingo runs");
    assert!(
        out.status.success(),
        "ingo gtp failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("GTP output is UTF-8")
}

/// Shows the first differing line, ripgrep's `eqnice!` style.
fn assert_same(name: &str, want: &str, got: &str) {
    if want == got {
        return;
    }
    for (i, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        if w != g {
            panic!(
                "{name}: line {} differs\n want: {w:?}\n  got: {g:?}\n--- full output ---\n{got}",
                i + 1
            );
        }
    }
    panic!("{name}: outputs differ in length\n--- full output ---\n{got}");
}

#[test]
fn gtp_golden_transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gtp");
    let bless = std::env::var_os("INGO_BLESS").is_some();
    let mut names: Vec<_> = fs::read_dir(&dir)
        .expect("tests/gtp exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "gtp"))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no transcripts in {}", dir.display());
    for path in names {
        let input = fs::read_to_string(&path).expect("readable transcript");
        let got = run_transcript(&input);
        let out = path.with_extension("out");
        if bless {
            fs::write(&out, &got).expect("writable");
            continue;
        }
        let want = fs::read_to_string(&out)
            .unwrap_or_else(|_| panic!("missing {} (run with INGO_BLESS=1)", out.display()));
        assert_same(&path.display().to_string(), &want, &got);
    }
}
