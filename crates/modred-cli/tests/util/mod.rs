//! Helpers shared by the command-line tests: running the binary, and the error contract
//! (exit status 2, nothing on stdout, exactly one stderr line `error: …`, never a panic).

#![allow(dead_code)] // each test file uses some of them

use std::process::{Child, Command, Output, Stdio};

/// The `modred` binary.
pub const BIN: &str = env!("CARGO_BIN_EXE_modred");

/// Runs `modred ARGS` with no input.
pub fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).stdin(Stdio::null()).output().expect("run modred")
}

/// Starts `modred batch ARGS` with its input, output and errors piped.
pub fn spawn_batch(args: &[&str]) -> Child {
    Command::new(BIN)
        .arg("batch")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start modred batch")
}

/// Runs a command that must succeed; returns its stdout without the final newline.
pub fn ok(args: &[&str]) -> String {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "modred {args:?} failed: {:?} {stderr}", out.status);
    assert!(stderr.is_empty(), "modred {args:?} wrote to stderr: {stderr}");
    let stdout = String::from_utf8(out.stdout).expect("stdout is UTF-8");
    stdout.strip_suffix('\n').expect("output ends with a newline").to_string()
}

/// Checks the error contract on `out` and returns the message after `error: `.
pub fn check_error(what: &str, out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "{what}: status {:?}", out.status);
    assert!(out.stdout.is_empty(), "{what}: stdout not empty: {:?}", out.stdout);
    let stderr = String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8");
    let line = stderr.strip_suffix('\n').unwrap_or_else(|| panic!("{what}: {stderr:?}"));
    assert!(!line.contains('\n'), "{what}: more than one line: {stderr:?}");
    assert!(line.starts_with("error: "), "{what}: {stderr:?}");
    assert!(!line.contains("panicked") && !line.contains("internal error"), "{what}: {line}");
    assert!(line.len() < 600, "{what}: message too long ({} bytes)", line.len());
    line["error: ".len()..].to_string()
}

/// Runs a command that must fail by the contract; returns the message.
pub fn fails(args: &[&str]) -> String {
    check_error(&format!("modred {args:?}"), &run(args))
}

/// Runs a failing command and checks that its message contains `needle`.
pub fn fails_with(args: &[&str], needle: &str) {
    let msg = fails(args);
    assert!(msg.contains(needle), "modred {args:?}: {msg:?} lacks {needle:?}");
}
