//! A batch whose lines ask for more memory than the budget answers every line: each such
//! line an `{"error":…}` naming the need, the others their answers, in order — never an
//! abort that loses the batch.

use std::io::Write;
use util::spawn_batch;

mod util;

/// `t^n − t^(n−1) − … − t − 1` at `t = 2^64`, in hex: its Solinas weights grow
/// exponentially.
fn heavy_solinas(n: usize) -> String {
    // The subtrahend t^(n−1) + … + 1 has every 64-bit digit 1.
    let mut sub = num_bigint::BigUint::from(0u8);
    for _ in 0..n {
        sub = (sub << 64) + 1u8;
    }
    let m = num_bigint::BigUint::from(1u8) << (64 * n);
    format!("0x{:x}", m - sub)
}

#[test]
fn lines_over_the_budget_are_answered_with_errors_and_the_batch_goes_on() {
    let million = format!("0x1{}1", "0".repeat(249_999)); // 2^1000000 + 1
    let lines = [
        r#"{"op":"reduce","x":"10","m":"7"}"#.to_string(),
        format!(r#"{{"op":"mulmod","algo":"hong","x":"5","y":"7","m":"{million}"}}"#),
        r#"{"op":"mulmod","x":"6","y":"7","m":"1000003"}"#.to_string(),
        format!(
            r#"{{"op":"mulmod","algo":"solinas","x":"5","y":"7","m":"{}"}}"#,
            heavy_solinas(300)
        ),
        format!(r#"{{"op":"mulmod","x":"5","y":"7","m":"{}"}}"#, heavy_solinas(300)),
        r#"{"op":"powm","x":"3","e":"5","m":"1000003"}"#.to_string(),
    ];
    for threads in ["1", "2"] {
        let mut child = spawn_batch(&["--threads", threads]);
        let mut stdin = child.stdin.take().unwrap();
        let input = lines.join("\n") + "\n";
        let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap();
        assert!(out.status.success(), "threads {threads}");
        let answers: Vec<String> =
            String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect();
        assert_eq!(answers.len(), lines.len(), "{answers:?}");
        assert_eq!(answers[0], r#"{"ok":"3"}"#);
        assert!(answers[1].starts_with(r#"{"error":"too much memory: "#), "{}", answers[1]);
        assert!(answers[1].contains("--max-memory"), "{}", answers[1]);
        assert_eq!(answers[2], r#"{"ok":"42"}"#);
        assert!(answers[3].starts_with(r#"{"error":"solinas does not apply"#), "{}", answers[3]);
        assert!(answers[3].contains("w_a + w_s"), "{}", answers[3]);
        assert_eq!(answers[4], r#"{"ok":"35"}"#);
        assert_eq!(answers[5], r#"{"ok":"243"}"#);
    }
}

/// Memory the system refuses — here an address-space limit below what a line's tables
/// need, with the budget lifted — is that line's error too: the library allocates its
/// tables fallibly, and the binary's allocator lets such a refusal return.
#[cfg(target_os = "linux")]
#[test]
fn memory_the_system_refuses_is_the_lines_error() {
    use std::process::{Command, Stdio};
    // Hong at 2^19 bits: every window table of an exponentiation is 512 MiB.
    let m = format!("0x8{}1", "0".repeat((1 << 19) / 4 - 2));
    let input = format!(
        "{}\n{}\n",
        format_args!(r#"{{"op":"powm","algo":"hong","x":"3","e":"12345678901","m":"{m}"}}"#),
        r#"{"op":"mulmod","x":"6","y":"7","m":"1000003"}"#
    );
    let script = format!(
        "ulimit -v 1800000 && exec {} batch --threads 1 --max-memory unlimited --max-work unlimited",
        util::BIN
    );
    let mut child = Command::new("sh")
        .args(["-c", &script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    let answers: Vec<String> =
        String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect();
    assert_eq!(answers.len(), 2, "{answers:?} {stderr}");
    assert_eq!(
        answers[0],
        r#"{"error":"out of memory: the system refused 512.0 MiB of working memory"}"#
    );
    assert_eq!(answers[1], r#"{"ok":"42"}"#);
}
