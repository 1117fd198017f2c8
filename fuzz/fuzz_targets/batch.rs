//! Arbitrary bytes as the input of `modred batch` (the CLI's own code, from the
//! modred-cli library): one answer line per input line, each `{"ok":…}` or
//! `{"error":…}`, and no panic (libFuzzer's panic hook aborts even inside the CLI's
//! panic guard, so a panic is a finding, not an error line).
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::io::BufReader;

fuzz_target!(|data: &[u8]| {
    let mut out = Vec::new();
    modred_cli::commands::batch::answer_all(
        BufReader::new(data),
        &mut out,
        modred_cli::engine::Algorithm::Auto,
        // The sequential and the threaded batch (`--threads`), half of the inputs each.
        1 + data.len() % 2,
        modred::Limits::new(),
        // Decimal or hexadecimal answers (`--hex`), a third of the inputs hex.
        data.len() % 3 == 0,
    )
    .expect("writing to memory cannot fail");
    let text = String::from_utf8(out).expect("answers are UTF-8");
    let lines = data.split(|&b| b == b'\n').count() - usize::from(data.ends_with(b"\n"));
    let answers: Vec<&str> = text.lines().collect();
    assert_eq!(answers.len(), if data.is_empty() { 0 } else { lines }, "one answer per line");
    for a in answers {
        assert!(a.starts_with("{\"ok\":\"") || a.starts_with("{\"error\":"), "{a}");
    }
});
