//! A batch's peak memory stays within its memory budget times its threads, whatever the
//! lines ask: lines over the budget are refused before they allocate, and the others hold
//! at most the budget each (the estimates are upper bounds: the library's
//! `tests/memory_model.rs`). Alone in its test binary, so that the peak of the children
//! this process waited for is the batch's.

#![cfg(target_os = "linux")]

use std::io::Write;
use util::spawn_batch;

mod util;

const MIB: i64 = 1 << 20;

/// `2^bits + 1` in hex.
fn power_plus_one(bits: usize) -> String {
    let mut s = format!("0x{}", 1u32 << (bits % 4));
    s.push_str(&"0".repeat(bits / 4 - 1));
    s.push('1');
    s
}

/// The largest resident set of the children this process has waited for, in bytes.
fn children_peak_rss() -> i64 {
    // SAFETY: `getrusage` writes into the zeroed struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid `who` and a pointer to a live `rusage`.
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) }, 0);
    usage.ru_maxrss * 1024 // kilobytes on Linux
}

#[test]
fn peak_memory_stays_within_the_budget_times_the_threads() {
    let budget = 64 * MIB;
    let big = power_plus_one(1 << 20); // 2^2^20 + 1: a product needs about 36 MiB
    let bigger = power_plus_one(1 << 22); // a product needs about 140 MiB: refused
    let million = power_plus_one(1_000_000); // Hong: 1.8 GiB of tables: refused
    let long_x = power_plus_one(1 << 24); // its division needs about 64 MiB: refused
    let mut lines = vec![
        format!(r#"{{"op":"mulmod","algo":"hong","x":"5","y":"7","m":"{million}"}}"#),
        format!(r#"{{"op":"mulmod","x":"5","y":"7","m":"{bigger}"}}"#),
        format!(r#"{{"op":"reduce","x":"{long_x}","m":"{big}"}}"#),
    ];
    for i in 0..4 {
        lines.push(format!(r#"{{"op":"mulmod","x":"{}","y":"{big}","m":"{big}"}}"#, i + 2));
        lines.push(r#"{"op":"powm","x":"3","e":"65537","m":"1000003"}"#.to_string());
    }
    let threads = 2;
    let mut child = spawn_batch(&[
        "--threads",
        &threads.to_string(),
        "--max-memory",
        &budget.to_string(),
        "--max-work",
        "unlimited",
    ]);
    let mut stdin = child.stdin.take().unwrap();
    let input = lines.join("\n") + "\n";
    let input_bytes = input.len() as i64;
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let answers: Vec<String> =
        String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect();
    assert_eq!(answers.len(), lines.len());
    for refused in &answers[..3] {
        assert!(refused.starts_with(r#"{"error":"too much memory: "#), "{refused}");
    }
    for (i, pair) in answers[3..].chunks(2).enumerate() {
        // (i + 2)·(2^2^20 + 1) mod (2^2^20 + 1) = 0.
        assert_eq!(pair[0], r#"{"ok":"0"}"#, "mulmod {i}");
        assert_eq!(pair[1], format!(r#"{{"ok":"{}"}}"#, pow_small()), "powm {i}");
    }
    // The budget per thread, the input held (the chunk read and the line's text and
    // number), and the binary and its runtime.
    let peak = children_peak_rss();
    let allowed = threads * budget + 3 * input_bytes + 16 * MIB;
    eprintln!(
        "peak {} MiB, allowed {} MiB (input {} MiB)",
        peak / MIB,
        allowed / MIB,
        input_bytes / MIB
    );
    assert!(peak <= allowed, "peak resident set {peak} bytes over {allowed}");
}

/// 3^65537 mod 1000003.
fn pow_small() -> u64 {
    let (mut acc, mut base, mut e) = (1u64, 3u64, 65537u64);
    while e > 0 {
        if e & 1 == 1 {
            acc = acc * base % 1_000_003;
        }
        base = base * base % 1_000_003;
        e >>= 1;
    }
    acc
}
