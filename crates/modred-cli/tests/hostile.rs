//! Hostile inputs and hostile surroundings at the command line's contract: the hex prefix
//! `0X`, repeated JSON keys, control characters in quoted input, a closed output, and an
//! allocation the system refuses.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use util::{check_error, fails_with, run, spawn_batch, BIN};

mod util;

/// Runs `modred batch ARGS` on `input`; returns its answer lines.
fn batch(args: &[&str], input: &str) -> Vec<String> {
    let mut child = spawn_batch(args);
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?} {}", out.status, String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().map(String::from).collect()
}

#[test]
fn upper_case_hex_prefix_is_refused_everywhere() {
    fails_with(&["reduce", "0X1f", "7"], "invalid x '0X1f': the hexadecimal prefix is '0x'");
    fails_with(&["mulmod", "3", "0XFF", "7"], "invalid y '0XFF'");
    fails_with(&["powm", "3", "5", "0X65"], "invalid modulus '0X65'");
    fails_with(&["powm", "3", "0X5", "101"], "invalid exponent '0X5'");
    // Upper-case digits after a lower-case prefix are hexadecimal as before.
    assert_eq!(util::ok(&["reduce", "0xFF", "7"]), "3");
    let answers = batch(
        &["--threads", "1"],
        "{\"op\":\"reduce\",\"x\":\"0X1f\",\"m\":\"7\"}\n\
         {\"op\":\"reduce\",\"x\":\"0x1F\",\"m\":\"0X7\"}\n\
         {\"op\":\"reduce\",\"x\":\"0x1F\",\"m\":\"7\"}\n",
    );
    assert!(answers[0].contains("invalid x '0X1f': the hexadecimal prefix is '0x'"), "{answers:?}");
    assert!(answers[1].contains("invalid modulus '0X7'"), "{answers:?}");
    assert_eq!(answers[2], "{\"ok\":\"3\"}");
}

#[test]
fn repeated_json_keys_are_refused_by_name() {
    let answers = batch(
        &[],
        "{\"op\":\"powm\",\"op\":\"reduce\",\"x\":\"10\",\"e\":\"3\",\"m\":\"7\"}\n\
         {\"op\":\"reduce\",\"x\":\"10\",\"x\":\"11\",\"m\":\"7\"}\n\
         {\"op\":\"reduce\",\"algo\":\"barrett\",\"algo\":\"auto\",\"x\":\"10\",\"m\":\"7\"}\n\
         {\"op\":\"reduce\",\"x\":\"10\",\"m\":\"7\"}\n",
    );
    assert_eq!(answers.len(), 4);
    for (answer, key) in answers.iter().zip(["op", "x", "algo"]) {
        assert!(answer.starts_with("{\"error\":"), "{answer}");
        assert!(answer.contains(&format!("duplicate field '{key}'")), "{answer}");
    }
    assert_eq!(answers[3], "{\"ok\":\"3\"}");
}

#[test]
fn error_lines_never_carry_raw_control_characters() {
    // Arguments: a number, an algorithm, an option, a command, each quoting ESC and a C1
    // control character.
    let esc = "1\u{1b}[2J\u{9b}31m";
    for args in [
        vec!["reduce", esc, "7"],
        vec!["reduce", "--algo", esc, "5", "7"],
        vec!["reduce", "--max-work", esc, "5", "7"],
        vec!["powm", "--window", esc, "5", "3", "7"],
        vec![esc],
        vec!["reduce", "5", "7", esc],
        vec!["reduce", "--\u{1b}x", "5", "7"],
    ] {
        let message = check_error(&format!("{args:?}"), &run(&args));
        assert!(!message.chars().any(char::is_control), "{args:?}: {message:?}");
        assert!(message.contains("\\x1b"), "{args:?}: {message:?}");
    }
    // Batch lines: the answer is JSON, whose strings escape control characters too.
    let answers = batch(&[], "{\"op\":\"reduce\",\"x\":\"1\\u001b[2J\",\"m\":\"7\"}\n");
    assert!(!answers[0].chars().any(char::is_control), "{answers:?}");
    assert!(answers[0].contains("invalid x '1\\\\x1b[2J'"), "{answers:?}");
}

/// Many batch lines, enough to fill any pipe buffer many times over.
fn many_lines() -> String {
    "{\"op\":\"powm\",\"x\":\"3\",\"e\":\"65537\",\"m\":\"1000003\"}\n".repeat(200_000)
}

#[cfg(unix)]
#[test]
fn batch_with_standard_output_closed_stops_with_one_error_line() {
    for threads in ["1", "2"] {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("exec \"$0\" batch --threads \"$1\" >&-")
            .arg(BIN)
            .arg(threads)
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // It stops before reading: the write may find the pipe closed.
        let _ = child.stdin.take().unwrap().write_all(many_lines().as_bytes());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr, "error: standard output is closed: the answers would be lost\n");
    }
    // `> /dev/null` is an output like any other: the answers are written (and discarded).
    let out = Command::new("sh")
        .arg("-c")
        .arg("echo '{\"op\":\"reduce\",\"x\":\"10\",\"m\":\"7\"}' | \"$0\" batch > /dev/null")
        .arg(BIN)
        .output()
        .unwrap();
    assert!(out.status.success() && out.stderr.is_empty(), "{out:?}");
}

#[test]
fn batch_whose_reader_went_away_stops_with_one_error_line() {
    for threads in ["1", "2"] {
        let mut child = spawn_batch(&["--threads", threads]);
        drop(child.stdout.take());
        let mut stdin = child.stdin.take().unwrap();
        // The batch stops at its first write, so this write may fail half-way.
        let feeder = std::thread::spawn(move || {
            let _ = stdin.write_all(many_lines().as_bytes());
        });
        let mut stderr = String::new();
        child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
        let status = child.wait().unwrap();
        feeder.join().unwrap();
        assert_eq!(status.code(), Some(2), "{threads} threads: {stderr}");
        assert_eq!(
            stderr, "error: cannot write the answers: the output pipe was closed by its reader\n",
            "{threads} threads"
        );
    }
}

/// A batch line with a 4-Mbit modulus (its prepared transforms take about 90 MB; an
/// exponentiation, which always prepares them) under an address-space limit of 48 MB, where a small line still runs: the refused allocation is
/// one `error: ` line and exit status 3, not Rust's default message and an abort.
#[cfg(target_os = "linux")]
#[test]
fn a_refused_allocation_is_one_error_line() {
    let limited = |input: String| {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 48000 && exec \"$0\" batch --threads 1")
            .arg(BIN)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        child.wait_with_output().unwrap()
    };
    let small = limited("{\"op\":\"reduce\",\"x\":\"10\",\"m\":\"7\"}\n".into());
    assert!(small.status.success(), "{small:?}");
    assert_eq!(small.stdout, b"{\"ok\":\"3\"}\n");
    // A fixed odd 4-Mbit modulus: a repeating pattern of hex digits, top digit non-zero.
    let m: String = (0..1_000_000).map(|i| b"f3a91c7e5b2d8047"[i % 16] as char).collect();
    let out =
        limited(format!("{{\"op\":\"powm\",\"x\":\"12345\",\"e\":\"678\",\"m\":\"0x{m}\"}}\n"));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.starts_with("error: out of memory: the system refused "), "{stderr}");
    assert_eq!(stderr.matches('\n').count(), 1, "{stderr}");
}
