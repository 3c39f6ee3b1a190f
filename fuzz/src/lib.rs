//! The bodies of ingo's fuzz targets, one module per target, each a `run(data: &[u8])` that
//! panics when a check fails.
//!
//! The libFuzzer entry points in `fuzz_targets/` only call these, so that the same code also runs
//! as an ordinary test on the stable toolchain (`tests/inputs.rs`, over the repository's own SGF
//! and GTP files, the inputs the fuzzers once found, and seeded pseudo-random bytes), and CI
//! compiles and runs it: a target cannot rot unnoticed between fuzzing sessions.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod data_files;
pub mod endgame_judge;
pub mod game_input;
pub mod gtp_engine;
pub mod gtp_parse;
pub mod play_undo;
pub mod sgf_parse;
pub mod text_fields;
