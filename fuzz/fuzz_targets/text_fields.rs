//! libFuzzer entry point of [`ingo_fuzz::text_fields`]: the body is a library function, so that
//! `fuzz/tests/inputs.rs` runs it as an ordinary test on stable (and CI builds it).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ingo_fuzz::text_fields::run(data));
