//! Arbitrary bytes as the input of `modred batch` (the CLI's own code, compiled in from
//! crates/modred-cli/src): one answer line per input line, each `{"ok":…}` or
//! `{"error":…}`, and no panic (libFuzzer's panic hook aborts even inside the CLI's
//! panic guard, so a panic is a finding, not an error line).
#![no_main]
#![allow(dead_code, unused_imports)]

#[path = "../../crates/modred-cli/src/algorithms.rs"]
mod algorithms;
#[path = "../../crates/modred-cli/src/args.rs"]
mod args;
#[path = "../../crates/modred-cli/src/commands/mod.rs"]
mod commands;
#[path = "../../crates/modred-cli/src/engine.rs"]
mod engine;
#[path = "../../crates/modred-cli/src/fail.rs"]
mod fail;
#[path = "../../crates/modred-cli/src/guard.rs"]
mod guard;
#[path = "../../crates/modred-cli/src/help.rs"]
mod help;
#[path = "../../crates/modred-cli/src/numbers.rs"]
mod numbers;
#[path = "../../crates/modred-cli/src/report/mod.rs"]
mod report;

use libfuzzer_sys::fuzz_target;
use std::io::BufReader;

fuzz_target!(|data: &[u8]| {
    let mut out = Vec::new();
    commands::batch::answer_all(BufReader::new(data), &mut out, engine::Algorithm::Auto)
        .expect("writing to memory cannot fail");
    let text = String::from_utf8(out).expect("answers are UTF-8");
    let lines = data.split(|&b| b == b'\n').count() - usize::from(data.ends_with(b"\n"));
    let answers: Vec<&str> = text.lines().collect();
    assert_eq!(answers.len(), if data.is_empty() { 0 } else { lines }, "one answer per line");
    for a in answers {
        assert!(a.starts_with("{\"ok\":\"") || a.starts_with("{\"error\":"), "{a}");
    }
});
