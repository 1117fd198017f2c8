//! The `modred` binary, end to end: results checked against num-bigint, and every error
//! path checked against the contract (exit status 2, stdout empty, exactly one stderr
//! line starting `error: `).

use modred_testkit::SplitMix64;
use num_bigint::BigUint;
use num_traits::One;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use util::{check_error, fails, fails_with, ok, run, spawn_batch, BIN};

mod util;

/// The algorithms this build implements, from `modred algos` (its first table).
fn implemented() -> Vec<String> {
    let table = ok(&["algos"]);
    table
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

/// The draws of these tests from the testkit's fixed-seed generator, as num-bigint numbers.
trait Draws {
    /// A number of exactly `bits` bits (top bit set); 0 when `bits` is 0.
    fn bits(&mut self, bits: u64) -> BigUint;
    /// A number of 1 to `max_bits` bits, the length uniform.
    fn upto(&mut self, max_bits: u64) -> BigUint;
}

impl Draws for SplitMix64 {
    fn bits(&mut self, bits: u64) -> BigUint {
        BigUint::from_slice(
            &self
                .exact_bits(bits)
                .iter()
                .flat_map(|&d| [d as u32, (d >> 32) as u32])
                .collect::<Vec<_>>(),
        )
    }

    fn upto(&mut self, max_bits: u64) -> BigUint {
        let bits = self.below_u64(max_bits) + 1;
        self.bits(bits)
    }
}

fn hex(n: &BigUint) -> String {
    format!("0x{}", n.to_str_radix(16))
}

/// `n` in decimal or in hex, alternately by `flip`.
fn either(n: &BigUint, flip: bool) -> String {
    if flip {
        hex(n)
    } else {
        n.to_string()
    }
}

/// The special-form reducers (paper 003): random moduli are not of their forms; they
/// have their own test below.
const SPECIAL: &[&str] = &["pseudo-mersenne", "solinas", "nist"];

/// The implemented algorithms that apply to every (odd) modulus.
fn general() -> Vec<String> {
    implemented().into_iter().filter(|a| !SPECIAL.contains(&a.as_str())).collect()
}

fn applies(algo: &str, m: &BigUint) -> bool {
    !algo.contains("montgomery") || m.bit(0)
}

// ---------------------------------------------------------------------------------------
// Happy paths

#[test]
fn reduce_matches_num_bigint() {
    let mut rng = SplitMix64::new(0x5eed_0001);
    let algos = general();
    for round in 0..12u64 {
        let m_bits = [1, 2, 63, 64, 65, 127, 128, 200, 521, 1024, 2048, 4096][round as usize];
        let mut m = rng.bits(m_bits);
        if round % 2 == 1 {
            m |= BigUint::one();
        }
        let limbs = m_bits.div_ceil(64);
        // Below b^(2k) with b = 2^64: Barrett's bound.
        let wide = rng.upto(128 * limbs);
        for algo in &algos {
            if !applies(algo, &m) {
                continue;
            }
            // Montgomery's bound is m·b^k (also the transform Montgomery's); radix-2
            // Montgomery's m·2^bits(m).
            let x = if algo.starts_with("montgomery") || algo == "ntt-montgomery" {
                &wide % (&m << (64 * limbs))
            } else if algo.starts_with("radix2") {
                &wide % (&m << m.bits())
            } else {
                wide.clone()
            };
            let want = &x % &m;
            let flip = rng.below_u64(2) == 1;
            let got = ok(&["reduce", "--algo", algo, &either(&x, flip), &either(&m, !flip)]);
            assert_eq!(got, want.to_string(), "{algo}: {x} mod {m}");
            let algo_eq = format!("--algo={algo}");
            let got = ok(&["reduce", &either(&x, !flip), "--hex", &either(&m, flip), &algo_eq]);
            assert_eq!(got, hex(&want), "{algo} --hex: {x} mod {m}");
        }
    }
}

#[test]
fn reduce_auto_takes_any_argument() {
    let mut rng = SplitMix64::new(0x5eed_0002);
    for (x_bits, m_bits) in [(5000, 64), (3000, 1000), (64, 3000), (129, 64), (10, 1)] {
        let x = rng.bits(x_bits);
        let m = rng.bits(m_bits);
        assert_eq!(ok(&["reduce", &x.to_string(), &m.to_string()]), (&x % &m).to_string());
        assert_eq!(
            ok(&["reduce", "--algo", "classical", &hex(&x), &hex(&m)]),
            (&x % &m).to_string()
        );
    }
}

#[test]
fn mulmod_matches_num_bigint() {
    let mut rng = SplitMix64::new(0x5eed_0003);
    let algos = general();
    for m_bits in [1u64, 2, 64, 100, 256, 511, 1024, 3000] {
        for parity in 0..2 {
            let mut m = rng.bits(m_bits);
            if parity == 1 {
                m |= BigUint::one();
            }
            let x = rng.upto(m_bits + 70);
            let y = rng.upto(m_bits + 70);
            let want = &x * &y % &m;
            for algo in &algos {
                if !applies(algo, &m) {
                    continue;
                }
                let flip = rng.below_u64(2) == 1;
                let (xs, ys, ms) = (either(&x, flip), either(&y, !flip), either(&m, flip));
                assert_eq!(ok(&["mulmod", "--algo", algo, &xs, &ys, &ms]), want.to_string());
                assert_eq!(ok(&["mulmod", &xs, &ys, &ms, "--hex", "--algo", algo]), hex(&want));
            }
        }
    }
}

#[test]
fn powm_matches_num_bigint() {
    let mut rng = SplitMix64::new(0x5eed_0004);
    let algos = general();
    for m_bits in [2u64, 17, 64, 65, 192, 512, 1024] {
        let mut m = rng.bits(m_bits) | BigUint::one();
        if m_bits == 17 {
            m = BigUint::from(1_000_003u32);
        }
        let b = rng.upto(m_bits + 40);
        let e = rng.upto(300);
        let want = b.modpow(&e, &m);
        for algo in &algos {
            let (bs, es, ms) = (b.to_string(), hex(&e), m.to_string());
            assert_eq!(ok(&["powm", "--algo", algo, &bs, &es, &ms]), want.to_string(), "{algo}");
            for w in ["1", "2", "4", "5"] {
                let got = ok(&["powm", &bs, "--window", w, &es, &ms, "--hex", "--algo", algo]);
                assert_eq!(got, hex(&want), "{algo} window {w}");
            }
        }
        // Even moduli, for the algorithms that take them.
        let even = &m + 1u32;
        let want = b.modpow(&e, &even);
        assert_eq!(
            ok(&["powm", &b.to_string(), &e.to_string(), &even.to_string()]),
            want.to_string()
        );
    }
}

#[test]
fn small_cases() {
    assert_eq!(ok(&["reduce", "100", "7"]), "2");
    assert_eq!(ok(&["reduce", "0", "7"]), "0");
    assert_eq!(ok(&["reduce", "7", "7"]), "0");
    assert_eq!(ok(&["reduce", "6", "7"]), "6");
    assert_eq!(ok(&["reduce", "123", "1"]), "0");
    assert_eq!(ok(&["reduce", "--hex", "0xff", "0x10"]), "0xf");
    assert_eq!(ok(&["reduce", "--hex", "0", "0x10"]), "0x0");
    assert_eq!(ok(&["reduce", "0xFF", "1000"]), "255");
    assert_eq!(ok(&["mulmod", "0", "5", "7"]), "0");
    let want = (123_456_789u64 * 987_654_321) % 1_000_003;
    assert_eq!(ok(&["mulmod", "123456789", "987654321", "1000003"]), want.to_string());
    assert_eq!(
        ok(&["powm", "0x1f", "65537", "1000003"]),
        BigUint::from(31u32)
            .modpow(&BigUint::from(65537u32), &BigUint::from(1000003u32))
            .to_string()
    );
    assert_eq!(ok(&["powm", "5", "0", "7"]), "1");
    assert_eq!(ok(&["powm", "5", "0", "1"]), "0");
    assert_eq!(ok(&["powm", "0", "0", "7"]), "1");
    assert_eq!(ok(&["powm", "0", "5", "7"]), "0");
    assert_eq!(ok(&["powm", "--algo", "barrett", "2", "10", "1000"]), "24");
    // `--` ends the options.
    assert_eq!(ok(&["reduce", "--", "100", "7"]), "2");
}

#[test]
fn algos_lists_every_name() {
    let table = ok(&["algos"]);
    let header = table.lines().next().unwrap();
    assert!(
        header.starts_with("NAME") && header.contains("APPLIES TO") && header.contains("SOURCE")
    );
    let names = implemented();
    for name in [
        "auto",
        "classical",
        "barrett",
        "montgomery",
        "montgomery-interleaved",
        "radix2-montgomery",
        "radix2-montgomery-recoded",
        "pseudo-mersenne",
        "solinas",
        "nist",
        "ntt-barrett",
        "ntt-montgomery",
        "hong",
    ] {
        assert_eq!(names.iter().filter(|n| *n == name).count(), 1, "{name} in\n{table}");
    }
    assert_eq!(implemented()[0], "auto");
}

#[test]
fn help_and_version() {
    for args in [&["help"][..], &["--help"], &["-h"], &["help", "help"], &["help", "--help"]] {
        let text = ok(args);
        for cmd in ["algos", "reduce", "mulmod", "powm", "batch", "opcount", "report", "tune"] {
            assert!(text.contains(cmd), "{args:?} lacks {cmd}");
        }
    }
    for cmd in ["algos", "reduce", "mulmod", "powm", "batch", "opcount", "report", "tune"] {
        let text = ok(&[cmd, "--help"]);
        assert!(text.contains(&format!("usage: modred {cmd}")), "{cmd}: {text}");
        assert_eq!(ok(&["help", cmd]), text);
        assert_eq!(ok(&[cmd, "-h"]), text);
    }
    assert!(ok(&["powm", "1", "--help"]).contains("--window"));
    assert_eq!(ok(&["--version"]), format!("modred {}", env!("CARGO_PKG_VERSION")));
}

#[test]
fn opcount_prints_the_three_counts() {
    for (algo, op) in [("classical", "reduce"), ("barrett", "mulmod"), ("montgomery", "sqrmod")] {
        for digit_bits in [None, Some("8"), Some("32"), Some("64")] {
            let mut args = vec!["opcount", "--algo", algo, "--op", op, "--bits", "512"];
            if let Some(d) = digit_bits {
                args.extend(["--digit-bits", d]);
            }
            let out = ok(&args);
            let v: serde_json::Value = serde_json::from_str(&out).expect("opcount prints JSON");
            let obj = v.as_object().expect("an object");
            let mut keys: Vec<_> = obj.keys().map(String::as_str).collect();
            keys.sort_unstable();
            assert_eq!(keys, ["add", "div", "mul"], "{out}");
            assert!(obj.values().all(|c| c.as_u64().is_some()), "{out}");
            assert!(obj["mul"].as_u64().unwrap() > 0, "{args:?}: {out}");
        }
    }
    // Classical reduction divides, Montgomery does not (paper 000, Table 1).
    let count = |algo: &str, key: &str| {
        let out = ok(&["opcount", "--algo", algo, "--op", "reduce", "--bits", "512"]);
        serde_json::from_str::<serde_json::Value>(&out).unwrap()[key].as_u64().unwrap()
    };
    assert!(count("classical", "div") > 0);
    assert_eq!(count("montgomery", "div"), 0);
}

#[test]
fn opcount_counts_the_special_reductions() {
    // A default modulus of the form each needs, or one given with --modulus.
    let mul = |args: &[&str]| {
        let out = ok(args);
        serde_json::from_str::<serde_json::Value>(&out).unwrap()["mul"].as_u64().unwrap()
    };
    // P-192 = f(2^64), f = t^3 − t − 1: the 12×12 product of 16-bit digits, and no
    // multiplication in the reduction (additions only).
    assert_eq!(mul(&["opcount", "--algo", "solinas", "--op", "mulmod", "--bits", "192"]), 144);
    assert_eq!(mul(&["opcount", "--algo", "solinas", "--op", "reduce", "--bits", "192"]), 0);
    // 2^256 − 189 (paper 003, Table 1): n + 1 = 17 multiplications by c (paper 003 §5).
    assert_eq!(
        mul(&["opcount", "--algo", "pseudo-mersenne", "--op", "reduce", "--bits", "256"]),
        17
    );
    // 2^255 − 19 given by its value: 16 digits of q times the one-digit c, plus one.
    let p25519 = "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed";
    let by_value = ["opcount", "--algo", "pseudo-mersenne", "--op", "reduce", "--modulus", p25519];
    assert!(mul(&by_value) > 0);
    let m = ["opcount", "--algo", "montgomery", "--op", "reduce", "--modulus", "0xfffffffb"];
    // Montgomery's k(k + 1) at k = 2 digits of 16 bits.
    assert_eq!(mul(&m), 6);
}

// ---------------------------------------------------------------------------------------
// Error paths

/// Both spellings of an option's value, values that start with '-', `--`, and control
/// characters of a bad option escaped in the one error line.
#[test]
fn option_spellings() {
    let a = ok(&["powm", "--algo", "barrett", "--window", "3", "0x1f", "65537", "1000003"]);
    assert_eq!(ok(&["powm", "--algo=barrett", "--window=3", "0x1f", "65537", "1000003"]), a);
    assert_eq!(ok(&["powm", "0x1f", "--window=3", "65537", "--algo=barrett", "1000003"]), a);
    assert_eq!(ok(&["powm", "--window", "3", "--", "0x1f", "65537", "1000003"]), a);
    fails_with(&["powm", "--window", "-1", "2", "3", "5"], "invalid window '-1'");
    fails_with(&["powm", "--window=-0x1", "2", "3", "5"], "invalid window '-0x1'");
    fails_with(&["reduce", "--\u{1b}[31m", "5", "7"], "unknown option '--\\x1b[31m'");
    fails_with(&["reduce", "5", "7", "\u{9b}"], "unexpected argument '\\u{9b}'");
}

#[test]
fn usage_errors() {
    fails_with(&[], "no command");
    fails_with(&["frobnicate"], "unknown command 'frobnicate'");
    fails_with(&["--frobnicate"], "unknown command");
    fails_with(&["reduce", "5"], "missing argument M");
    fails_with(&["reduce"], "missing arguments X M");
    fails_with(&["reduce", "5", "7", "9"], "unexpected argument '9'");
    fails_with(&["mulmod", "1", "2"], "missing argument M");
    fails_with(&["powm", "1", "2", "3", "4"], "unexpected argument '4'");
    fails_with(&["algos", "x"], "invalid modulus 'x'");
    fails_with(&["algos", "7", "x"], "unexpected argument 'x'");
    fails_with(&["batch", "x"], "unexpected argument 'x'");
    fails_with(&["reduce", "--bogus", "5", "7"], "unknown option '--bogus'");
    fails_with(&["reduce", "-x", "5", "7"], "unknown option '-x'");
    fails_with(&["reduce", "--window", "2", "5", "7"], "unknown option '--window'");
    fails_with(&["reduce", "5", "7", "--algo"], "option --algo needs a value");
    fails_with(&["reduce", "--algo", "--hex", "5", "7"], "option --algo needs a value");
    fails_with(&["reduce", "--hex=yes", "5", "7"], "takes no value");
    fails_with(&["reduce", "--hex", "5", "7", "--hex"], "more than once");
    fails_with(&["reduce", "--algo", "barrett", "--algo=classical", "5", "7"], "more than once");
    fails_with(&["help", "frob"], "unknown command 'frob'");
    fails_with(&["help", "reduce", "x"], "unexpected argument 'x'");
    fails_with(&["--version", "x"], "unexpected argument 'x'");
    fails_with(&["report", "--bogus"], "unknown option '--bogus'");
    fails_with(&["report", "--out"], "needs a value");
    fails_with(&["report", "x"], "unexpected argument 'x'");
}

#[test]
fn malformed_numbers() {
    for bad in
        ["12a", "0x", "0xg1", "", " ", "+5", "_1000", "1__000", "1e5", "0b101", "--5", "-", "١٢"]
    {
        let msg = fails(&["reduce", "--", bad, "7"]);
        assert!(msg.contains("x"), "{bad:?}: {msg}");
        let msg = fails(&["reduce", "--", "7", bad]);
        assert!(msg.contains("modulus"), "{bad:?}: {msg}");
    }
    fails_with(&["reduce", "-5", "7"], "negative");
    fails_with(&["reduce", "5", "-7"], "negative");
    fails_with(&["mulmod", "5", "-0x7", "9"], "negative");
    fails_with(&["mulmod", "5", "zz", "9"], "invalid y 'zz'");
    fails_with(&["powm", "x", "2", "9"], "invalid base 'x'");
    fails_with(&["powm", "2", "2.5", "9"], "invalid exponent '2.5'");
    // A huge bad argument is quoted abbreviated, still on one line.
    let long = format!("{}z", "9".repeat(100_000));
    let msg = fails(&["reduce", &long, "7"]);
    assert!(msg.len() < 300, "{msg}");
}

#[test]
fn negative_exponent() {
    fails_with(&["powm", "3", "-5", "7"], "negative exponent");
    fails_with(&["powm", "3", "-0x5", "7"], "negative exponent");
    fails_with(&["powm", "--hex", "3", "-5", "7"], "negative exponent");
    fails_with(&["powm", "--", "3", "-5", "7"], "negative exponent");
}

#[test]
fn zero_modulus() {
    for algo in implemented() {
        fails_with(&["reduce", "--algo", &algo, "5", "0"], "zero");
        fails_with(&["mulmod", "--algo", &algo, "5", "6", "0x0"], "zero");
        fails_with(&["powm", "--algo", &algo, "5", "6", "0"], "zero");
        fails_with(&["powm", "--algo", &algo, "--window", "3", "5", "6", "0"], "zero");
    }
}

#[test]
fn algorithm_errors() {
    fails_with(&["reduce", "--algo", "fourier", "5", "7"], "unknown algorithm 'fourier'");
    fails_with(&["reduce", "--algo", "", "5", "7"], "unknown algorithm ''");
    fails_with(&["reduce", "--algo", "Barrett", "5", "7"], "unknown algorithm 'Barrett'");
    // Montgomery needs an odd modulus.
    for algo in ["montgomery", "montgomery-interleaved"] {
        fails_with(&["reduce", "--algo", algo, "5", "8"], algo);
        fails_with(&["mulmod", "--algo", algo, "5", "6", "1000000"], "does not apply");
        fails_with(&["powm", "--algo", algo, "5", "6", "0x10000000000000000"], "does not apply");
    }
}

#[test]
fn argument_beyond_a_forced_bound() {
    // Barrett takes x < b^(2k); with a one-digit modulus (b = 2^64) that is 2^128.
    let bound = BigUint::one() << 128u32;
    let m = BigUint::from(1_000_003u32);
    fails_with(&["reduce", "--algo", "barrett", &bound.to_string(), &m.to_string()], "barrett");
    let below = &bound - 1u32;
    assert_eq!(
        ok(&["reduce", "--algo", "barrett", &below.to_string(), &m.to_string()]),
        (&below % &m).to_string()
    );
    // Montgomery takes x < m·b^k.
    let m = BigUint::from(1_000_003u32);
    let bound = &m << 64u32;
    fails_with(
        &["reduce", "--algo", "montgomery", &bound.to_string(), &m.to_string()],
        "montgomery",
    );
    let below = &bound - 1u32;
    assert_eq!(
        ok(&["reduce", "--algo", "montgomery", &below.to_string(), &m.to_string()]),
        (&below % &m).to_string()
    );
    // auto and classical take anything.
    let bound = BigUint::one() << 128u32;
    assert_eq!(ok(&["reduce", &bound.to_string(), &m.to_string()]), (&bound % &m).to_string());
}

#[test]
fn invalid_window() {
    for w in ["0", "17", "abc", "", "-1", "+3", "1.5", "99999999999"] {
        let msg = fails(&["powm", "--window", w, "3", "5", "7"]);
        assert!(msg.contains("window"), "{w:?}: {msg}");
    }
    fails_with(&["powm", "--window=0", "3", "5", "7"], "invalid window '0'");
    fails_with(&["powm", "3", "5", "7", "--window"], "needs a value");
}

#[test]
fn opcount_errors() {
    fails_with(&["opcount", "--op", "reduce", "--bits", "64"], "missing option --algo");
    fails_with(&["opcount", "--algo", "barrett", "--bits", "64"], "missing option --op");
    fails_with(
        &["opcount", "--algo", "barrett", "--op", "reduce"],
        "missing option --bits or --modulus",
    );
    fails_with(
        &["opcount", "--algo", "barrett", "--op", "reduce", "--bits", "8", "--modulus", "251"],
        "not both",
    );
    fails_with(&["opcount", "--algo", "barrett", "--op", "reduce", "--modulus", "0"], "modulus");
    // The transform reducers are refused, not counted without their transforms.
    for algo in ["ntt-barrett", "ntt-montgomery"] {
        fails_with(
            &["opcount", "--algo", algo, "--op", "reduce", "--bits", "65536"],
            "number-theoretic transforms",
        );
    }
    fails_with(&["opcount", "--algo", "nist", "--op", "reduce", "--bits", "256"], "native 64-bit");
    fails_with(&["opcount", "--algo", "solinas", "--op", "reduce", "--bits", "200"], "--modulus");
    fails_with(&["opcount", "--algo", "auto", "--op", "reduce", "--bits", "64"], "not auto");
    fails_with(
        &["opcount", "--algo", "nope", "--op", "reduce", "--bits", "64"],
        "unknown algorithm",
    );
    fails_with(
        &["opcount", "--algo", "barrett", "--op", "div", "--bits", "64"],
        "invalid operation 'div'",
    );
    for bits in ["0", "65537", "x", "-3", ""] {
        fails_with(&["opcount", "--algo", "barrett", "--op", "reduce", "--bits", bits], "--bits");
    }
    for d in ["7", "128", "x", "0"] {
        let args =
            ["opcount", "--algo", "barrett", "--op", "reduce", "--bits", "64", "--digit-bits", d];
        fails_with(&args, "--digit-bits");
    }
    fails_with(
        &["opcount", "--algo", "barrett", "--op", "reduce", "--bits", "64", "5"],
        "unexpected",
    );
}

#[cfg(unix)]
#[test]
fn argument_not_utf8() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let out = Command::new(BIN)
        .args([OsStr::new("reduce"), OsStr::from_bytes(b"\xff\xfe"), OsStr::new("7")])
        .output()
        .unwrap();
    let msg = check_error("non-UTF-8 argument", &out);
    assert!(msg.contains("not valid UTF-8"), "{msg}");
}

// ---------------------------------------------------------------------------------------
// batch

/// Runs `modred batch` with `args` on `input`; returns the status and the output lines.
fn batch(args: &[&str], input: &[u8]) -> Vec<String> {
    let mut child = spawn_batch(args);
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        stdin.write_all(&input).unwrap();
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "batch failed: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.is_empty() || stdout.ends_with('\n'));
    stdout.lines().map(str::to_string).collect()
}

/// What an answer line says: `Ok(decimal)` or `Err(message)`; the line must be a JSON
/// object with exactly one of the two keys.
fn parse_answer(line: &str) -> Result<String, String> {
    let v: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    let obj = v.as_object().unwrap();
    assert_eq!(obj.len(), 1, "{line}");
    match (obj.get("ok"), obj.get("error")) {
        (Some(serde_json::Value::String(s)), None) => {
            assert!(s.bytes().all(|c| c.is_ascii_digit()) && !s.is_empty(), "{line}");
            Ok(s.clone())
        }
        (None, Some(serde_json::Value::String(s))) => {
            assert!(!s.is_empty(), "{line}");
            Err(s.clone())
        }
        _ => panic!("bad answer line {line}"),
    }
}

#[test]
fn batch_mixed_good_and_bad_lines() {
    // A 1 MB line that is a good one: x of ~4 million bits.
    let mut big_hex = String::from("0x");
    big_hex.push_str(&"f".repeat(999_900));
    let big = BigUint::parse_bytes(&big_hex.as_bytes()[2..], 16).unwrap();
    let m = BigUint::from(1_000_003u32);
    // Over 1 MiB (the line limit once; 256 MiB now, tested in the batch module): answered.
    // The repunit of 2^20 + 10 ones is 11 mod 7 (10^6 ≡ 1), so 4.
    let mut long_line = b"{\"op\":\"reduce\",\"m\":\"7\",\"x\":\"".to_vec();
    long_line.extend(std::iter::repeat_n(b'1', (1 << 20) + 10));
    long_line.extend_from_slice(b"\"}");

    // (input line, expected answer: Ok(value) or Err(part of the message))
    let cases: Vec<(Vec<u8>, Result<String, &str>)> = vec![
        (br#"{"op":"reduce","x":"100","m":"7"}"#.to_vec(), Ok("2".into())),
        (br#"{"op":"powm","algo":"barrett","x":"0x1f","e":"65537","m":"1000003"}"#.to_vec(),
            Ok(BigUint::from(31u32).modpow(&BigUint::from(65537u32), &m).to_string())),
        (br#"{"op":"mulmod","x":"123456789","y":"0x3ade68b1","m":"1000003"}"#.to_vec(),
            Ok(((123456789u64 * 987654321) % 1000003).to_string())),
        (b"".to_vec(), Err("empty line")),
        (b"   ".to_vec(), Err("empty line")),
        (b"{\"op\":\"reduce\"".to_vec(), Err("malformed JSON")),
        (b"not json at all".to_vec(), Err("malformed JSON")),
        (b"[1,2,3]".to_vec(), Err("JSON object")),
        (b"\"reduce\"".to_vec(), Err("JSON object")),
        (br#"{"x":"1","m":"7"}"#.to_vec(), Err("missing field 'op'")),
        (br#"{"op":"divide","x":"1","m":"7"}"#.to_vec(), Err("unknown op 'divide'")),
        (br#"{"op":7,"x":"1","m":"7"}"#.to_vec(), Err("'op' must be a string")),
        (br#"{"op":"reduce","x":"1"}"#.to_vec(), Err("missing field 'm'")),
        (br#"{"op":"mulmod","x":"1","m":"7"}"#.to_vec(), Err("missing field 'y'")),
        (br#"{"op":"powm","x":"1","y":"2","m":"7"}"#.to_vec(), Err("unexpected field 'y'")),
        (br#"{"op":"reduce","x":"1","m":"7","id":5}"#.to_vec(), Err("unexpected field 'id'")),
        (br#"{"op":"reduce","x":"12a","m":"7"}"#.to_vec(), Err("invalid x '12a'")),
        (br#"{"op":"reduce","x":"1","m":"0"}"#.to_vec(), Err("zero")),
        (br#"{"op":"reduce","x":"1","m":0}"#.to_vec(), Err("zero")),
        (br#"{"op":"reduce","x":"1","m":"-7"}"#.to_vec(), Err("negative")),
        (br#"{"op":"powm","x":"2","e":"-5","m":"7"}"#.to_vec(), Err("negative exponent")),
        (br#"{"op":"powm","x":"2","e":-5,"m":"7"}"#.to_vec(), Err("negative exponent")),
        (br#"{"op":"reduce","x":1.5,"m":"7"}"#.to_vec(), Err("whole number")),
        (br#"{"op":"reduce","x":1e30,"m":"7"}"#.to_vec(), Err("as strings")),
        (br#"{"op":"reduce","x":null,"m":"7"}"#.to_vec(), Err("must be a number as a string")),
        (br#"{"op":"reduce","x":["1"],"m":"7"}"#.to_vec(), Err("must be a number as a string")),
        (br#"{"op":"reduce","x":18446744073709551615,"m":1000}"#.to_vec(), Ok("615".into())),
        (br#"{"op":"reduce","algo":"fourier","x":"1","m":"7"}"#.to_vec(), Err("unknown algorithm 'fourier'")),
        (br#"{"op":"reduce","algo":7,"x":"1","m":"7"}"#.to_vec(), Err("'algo' must be a string")),
        (br#"{"op":"mulmod","algo":"montgomery","x":"3","y":"5","m":"8"}"#.to_vec(), Err("does not apply")),
        (br#"{"op":"reduce","algo":"barrett","x":"0x100000000000000000000000000000000","m":"7"}"#.to_vec(), Err("barrett")),
        (br#"{"op":"reduce","algo":"classical","x":"0x100000000000000000000000000000000","m":"7"}"#.to_vec(),
            Ok(((BigUint::one() << 128u32) % 7u32).to_string())),
        (b"{\"op\":\"reduce\",\"x\":\"1\0\",\"m\":\"7\"}".to_vec(), Err("malformed JSON")),
        (b"\0\0\0".to_vec(), Err("malformed JSON")),
        ("[".repeat(100_000).into_bytes(), Err("malformed JSON")),
        (br#"{"op":"reduce","x":"1\u0000","m":"7"}"#.to_vec(), Err("invalid x")),
        (b"{\"op\":\"reduce\",\"x\":\"\xff\xfe\",\"m\":\"7\"}".to_vec(), Err("not valid UTF-8")),
        (b"\xc3\x28".to_vec(), Err("not valid UTF-8")),
        (format!(r#"{{"op":"reduce","x":"{big_hex}","m":"1000003"}}"#).into_bytes(),
            Ok((&big % &m).to_string())),
        (long_line, Ok("4".into())),
        (b"{\"op\":\"reduce\",\"x\":\"10\",\"m\":\"7\"}\r".to_vec(), Ok("3".into())),
    ];
    let mut input = Vec::new();
    for (line, _) in &cases {
        input.extend_from_slice(line);
        input.push(b'\n');
    }
    // The last line needs no newline.
    input.extend_from_slice(br#"{"op":"reduce","x":"11","m":"7"}"#);
    let answers = batch(&[], &input);
    assert_eq!(answers.len(), cases.len() + 1);
    for ((line, want), got) in cases.iter().zip(&answers) {
        let shown = String::from_utf8_lossy(&line[..line.len().min(120)]);
        match (want, parse_answer(got)) {
            (Ok(w), Ok(g)) => assert_eq!(&g, w, "{shown}"),
            (Err(w), Err(g)) => assert!(g.contains(w), "{shown}: {g:?} lacks {w:?}"),
            (w, g) => panic!("{shown}: wanted {w:?}, got {g:?}"),
        }
    }
    assert_eq!(parse_answer(answers.last().unwrap()), Ok("4".into()));
    // The threaded batch (the default uses every core) answers the same, line for line.
    for threads in ["1", "2", "3", "8"] {
        assert_eq!(batch(&["--threads", threads], &input), answers, "--threads {threads}");
    }
}

#[test]
fn batch_threads_option_is_checked() {
    for bad in ["0", "-1", "two", "1.5", "99999", "", "+2"] {
        let out = run(&["batch", "--threads", bad]);
        let msg = check_error(&format!("batch --threads {bad:?}"), &out);
        assert!(msg.contains("--threads"), "{bad:?}: {msg}");
    }
    let line = b"{\"op\":\"powm\",\"x\":\"3\",\"e\":\"100\",\"m\":\"1000003\"}\n";
    let want = BigUint::from(3u32).modpow(&BigUint::from(100u32), &BigUint::from(1_000_003u32));
    for threads in ["1", "64"] {
        let answers = batch(&["--threads", threads], line);
        assert_eq!(answers, [format!("{{\"ok\":\"{want}\"}}")], "--threads {threads}");
    }
}

#[test]
fn batch_default_algorithm() {
    let x = (BigUint::one() << 128u32).to_string();
    let input = format!(
        "{{\"op\":\"reduce\",\"x\":\"{x}\",\"m\":\"7\"}}\n\
         {{\"op\":\"reduce\",\"algo\":\"classical\",\"x\":\"{x}\",\"m\":\"7\"}}\n\
         {{\"op\":\"reduce\",\"algo\":\"auto\",\"x\":\"{x}\",\"m\":\"7\"}}\n"
    );
    let answers = batch(&["--algo", "barrett"], input.as_bytes());
    assert!(parse_answer(&answers[0]).unwrap_err().contains("barrett"));
    let want = ((BigUint::one() << 128u32) % 7u32).to_string();
    assert_eq!(parse_answer(&answers[1]), Ok(want.clone()));
    assert_eq!(parse_answer(&answers[2]), Ok(want.clone()));
    let answers = batch(&["--algo=classical"], input.as_bytes());
    assert_eq!(parse_answer(&answers[0]), Ok(want));
    // No input, no output.
    assert!(batch(&[], b"").is_empty());
}

#[test]
fn batch_bad_options_stop_before_reading() {
    fails_with(&["batch", "--algo", "fourier"], "unknown algorithm");
    fails_with(&["batch", "--bytes"], "unknown option");
}

#[test]
fn batch_many_lines_in_order() {
    let mut rng = SplitMix64::new(0x5eed_0005);
    let moduli: Vec<BigUint> = (0..8).map(|i| rng.bits(64 + 200 * i) | BigUint::one()).collect();
    let algos = general();
    let n = 100_000;
    let mut input = String::with_capacity(n * 120);
    let mut want = Vec::with_capacity(n);
    for i in 0..n {
        let m = &moduli[rng.below_u64(moduli.len() as u64) as usize];
        let algo = &algos[rng.below_u64(algos.len() as u64) as usize];
        let x = rng.upto(m.bits());
        match i % 3 {
            0 => {
                input.push_str(&format!(
                    "{{\"op\":\"reduce\",\"algo\":\"{algo}\",\"x\":\"{x}\",\"m\":\"{}\"}}\n",
                    hex(m)
                ));
                want.push((&x % m).to_string());
            }
            1 => {
                let y = rng.upto(m.bits());
                input.push_str(&format!(
                    "{{\"op\":\"mulmod\",\"algo\":\"{algo}\",\"x\":\"{}\",\"y\":\"{y}\",\"m\":\"{m}\"}}\n",
                    hex(&x)
                ));
                want.push((&x * &y % m).to_string());
            }
            _ => {
                let e = rng.next_u64() % 1000;
                input.push_str(&format!(
                    "{{\"op\":\"powm\",\"x\":\"{x}\",\"e\":{e},\"m\":\"{m}\"}}\n"
                ));
                want.push(x.modpow(&BigUint::from(e), m).to_string());
            }
        }
    }
    let start = Instant::now();
    let answers = batch(&[], input.as_bytes());
    eprintln!("batch of {n} lines: {:?}", start.elapsed());
    assert_eq!(answers.len(), n);
    for (i, (got, want)) in answers.iter().zip(&want).enumerate() {
        assert_eq!(parse_answer(got).as_ref(), Ok(want), "line {i}");
    }
    // On one thread the same lines as on every core (the default).
    assert_eq!(batch(&["--threads", "1"], input.as_bytes()), answers);
}

#[test]
fn batch_answers_each_line_before_the_next_arrives() {
    for threads in ["1", "4"] {
        answers_each_line_before_the_next_arrives(threads);
    }
}

fn answers_each_line_before_the_next_arrives(threads: &str) {
    let mut child = Command::new(BIN)
        .args(["batch", "--threads", threads])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    for (x, want) in [("10", "3"), ("11", "4")] {
        stdin
            .write_all(format!("{{\"op\":\"reduce\",\"x\":\"{x}\",\"m\":\"7\"}}\n").as_bytes())
            .unwrap();
        stdin.flush().unwrap();
        let line = rx.recv_timeout(Duration::from_secs(20)).expect("an answer while stdin is open");
        assert_eq!(line, format!("{{\"ok\":\"{want}\"}}"));
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
    reader.join().unwrap();
}

/// The answers after the reader left are lost, so the batch says so (exit status 2, one
/// line) rather than stopping quietly.
#[test]
fn batch_stops_with_an_error_when_the_reader_goes_away() {
    let mut child = spawn_batch(&[]);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 10];
    let line = b"{\"op\":\"reduce\",\"x\":\"10\",\"m\":\"7\"}\n".repeat(1000);
    stdin.write_all(&line).unwrap();
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    // Keep writing until the child has gone; errors here just mean it has.
    for _ in 0..2000 {
        if stdin.write_all(&line).is_err() {
            break;
        }
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: cannot write the answers: the output pipe was closed by its reader\n"
    );
}

// ---------------------------------------------------------------------------------------
// hostile input

/// Every arithmetic command and `opcount`, fed hostile arguments: each gives one clean
/// `error:` line and exit status 2 (never a panic, a backtrace or a hang).
#[test]
fn hostile_arguments_give_one_error_line() {
    let huge_bad = format!("{}x", "9".repeat(100_000));
    let hostile: Vec<String> = vec![
        "".into(),
        "-1".into(),
        "-0x5".into(),
        "abc".into(),
        "0x".into(),
        "0xg".into(),
        "+5".into(),
        "1__0".into(),
        "1e9".into(),
        "1.5".into(),
        "\u{663}".into(),  // ARABIC-INDIC DIGIT THREE
        "\u{ff15}".into(), // FULLWIDTH DIGIT FIVE
        "5\u{7f}".into(),
        huge_bad.clone(),
    ];
    for h in &hostile {
        let h = h.as_str();
        for args in [
            vec!["reduce", h, "7"],
            vec!["reduce", "7", h],
            vec!["mulmod", h, "2", "7"],
            vec!["mulmod", "2", h, "7"],
            vec!["mulmod", "2", "3", h],
            vec!["powm", h, "2", "7"],
            vec!["powm", "2", h, "7"],
            vec!["powm", "2", "3", h],
            vec!["powm", "--window", h, "2", "3", "7"],
            vec!["reduce", "--algo", h, "2", "7"],
            vec!["opcount", "--algo", "barrett", "--op", "reduce", "--bits", h],
            vec!["opcount", "--algo", "barrett", "--op", h, "--bits", "64"],
            vec![
                "opcount",
                "--algo",
                "barrett",
                "--op",
                "reduce",
                "--bits",
                "64",
                "--digit-bits",
                h,
            ],
        ] {
            check_error(&format!("{:?}", &args[..args.len().min(4)]), &run(&args));
        }
    }
    // Extreme values that parse: zero moduli, a zero-width request, huge sizes.
    let huge_ok = "9".repeat(100_000);
    for args in [
        vec!["reduce", "5", "0"],
        vec!["mulmod", "5", "5", "0"],
        vec!["powm", "5", "5", "0"],
        vec!["opcount", "--algo", "barrett", "--op", "reduce", "--bits", "0"],
        vec!["opcount", "--algo", "barrett", "--op", "reduce", "--bits", "99999999999"],
        vec!["opcount", "--algo", "barrett", "--op", "reduce", "--bits", "18446744073709551616"],
        vec!["opcount", "--algo", "barrett", "--op", "reduce", "--bits", "64", "--digit-bits", "7"],
        vec!["powm", "--window", "0", "2", "3", "7"],
        vec!["powm", "--window", "4294967297", "2", "3", "7"],
        vec!["powm", "2", &huge_ok, &huge_ok],
        vec!["reduce", "--algo", "montgomery", "5", "10"],
        vec!["algos", "extra"],
        vec!["frobnicate"],
    ] {
        check_error(&format!("{:?}", &args[..args.len().min(3)]), &run(&args));
    }
    // A 100 000-digit operand that is valid is computed, not refused.
    let x = ok(&["reduce", &huge_ok, "1000003"]);
    let want = BigUint::parse_bytes(huge_ok.as_bytes(), 10).unwrap() % 1_000_003u32;
    assert_eq!(x, want.to_string());
}

/// `batch` fed hostile lines: huge, negative, non-numeric, empty, NUL bytes, a 10^8-bit
/// number (refused by the line limit), a powm beyond the work limit; every line gets
/// its own error answer and the batch goes on.
#[test]
fn batch_survives_hostile_lines() {
    let hundred_million_bits = format!(
        r#"{{"op":"reduce","x":"0x{}","m":"0"}}"#,
        "f".repeat(100_000_000 / 4) // 10^8 bits in hex: 25 MB, read whole, then refused
    );
    let mut lines: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"\0".to_vec(),
        b"{\"op\":\"reduce\",\"x\":\"\0\",\"m\":\"7\"}".to_vec(),
        br#"{"op":"reduce","x":"-1","m":"7"}"#.to_vec(),
        br#"{"op":"reduce","x":"five","m":"7"}"#.to_vec(),
        br#"{"op":"reduce","x":"","m":"7"}"#.to_vec(),
        br#"{"op":"reduce","x":"0x","m":"7"}"#.to_vec(),
        br#"{"op":"mulmod","x":"1","y":"1","m":""}"#.to_vec(),
        br#"{"op":"powm","x":"1","e":"","m":"7"}"#.to_vec(),
        br#"{"op":"powm","x":"1","e":"1","m":"0"}"#.to_vec(),
        br#"{"op":"","x":"1","m":"7"}"#.to_vec(),
        br#"{}"#.to_vec(),
        br#"{"op":"reduce","x":"1","m":"7","op":"powm"}"#.to_vec(),
        format!(
            r#"{{"op":"powm","x":"3","e":"0x{}","m":"0x{}d"}}"#,
            "f".repeat(100_000),
            "f".repeat(20_000)
        )
        .into_bytes(),
        hundred_million_bits.into_bytes(),
    ];
    // A 3 MiB number with a bad last character.
    let mut long_bad = br#"{"op":"reduce","m":"7","x":""#.to_vec();
    long_bad.extend(std::iter::repeat_n(b'9', 3 << 20));
    long_bad.extend_from_slice(br#"z"}"#);
    lines.push(long_bad);
    let mut input = Vec::new();
    for l in &lines {
        input.extend_from_slice(l);
        input.push(b'\n');
    }
    input.extend_from_slice(br#"{"op":"reduce","x":"10","m":"7"}"#);
    let answers = batch(&[], &input);
    assert_eq!(answers.len(), lines.len() + 1);
    for (l, a) in lines.iter().zip(&answers) {
        let shown = String::from_utf8_lossy(&l[..l.len().min(80)]);
        let err = parse_answer(a).expect_err(&shown);
        assert!(!err.contains("internal error"), "{shown}: {err}");
    }
    assert!(answers[answers.len() - 4].contains("too much work"), "{}", answers[answers.len() - 4]);
    assert!(
        answers[answers.len() - 3].contains("must not be zero"),
        "{}",
        answers[answers.len() - 3]
    );
    assert!(answers[answers.len() - 2].contains("invalid x"), "{}", answers[answers.len() - 2]);
    assert_eq!(parse_answer(answers.last().unwrap()), Ok("3".into()));
}

/// Paper 002's Table 1 through the command line: at 512 bits and b = 2^16 (k = 32) hong's
/// window multiplication takes k² = 1024 multiplications, its squaring (k² + k)/2 = 528.
#[test]
fn opcount_hong_follows_paper_002() {
    let mul = |op: &str| {
        let out = ok(&["opcount", "--algo", "hong", "--op", op, "--bits", "512"]);
        serde_json::from_str::<serde_json::Value>(&out).unwrap()["mul"].as_u64().unwrap()
    };
    assert_eq!(mul("mulmod"), 1024);
    assert_eq!(mul("sqrmod"), 528);
}

/// hong works for even moduli in `powm`, `mulmod` and `batch`.
#[test]
fn hong_takes_even_moduli() {
    let m = BigUint::from(10u32).pow(30) + 2u32;
    let (x, e) = (BigUint::from(123_456_789_123u64), BigUint::from(65_537u32));
    let ms = m.to_string();
    assert_eq!(
        ok(&["powm", "--algo", "hong", &x.to_string(), &e.to_string(), &ms]),
        x.modpow(&e, &m).to_string()
    );
    assert_eq!(
        ok(&["powm", "--algo", "hong", "--window", "3", &x.to_string(), &e.to_string(), &ms]),
        x.modpow(&e, &m).to_string()
    );
    let y = BigUint::from(987_654_321_987u64);
    assert_eq!(
        ok(&["mulmod", "--algo", "hong", &x.to_string(), &y.to_string(), &ms]),
        (&x * &y % &m).to_string()
    );
}

#[test]
fn special_reducers_on_their_primes() {
    let one = BigUint::one();
    let p256 = (&one << 256u32) - (&one << 224u32) + (&one << 192u32) + (&one << 96u32) - 1u32;
    let c25519 = (&one << 255u32) - 19u32;
    let p521 = (&one << 521u32) - 1u32;
    let mut rng = SplitMix64::new(0x5eed_0103);
    for (algo, m) in [
        ("pseudo-mersenne", &c25519),
        ("pseudo-mersenne", &p521),
        ("solinas", &p256),
        ("nist", &p256),
        ("nist", &p521),
    ] {
        for _ in 0..5 {
            let x = rng.upto(m.bits());
            let y = rng.upto(m.bits());
            let want = &x * &y % m;
            assert_eq!(
                ok(&["mulmod", "--algo", algo, &hex(&x), &y.to_string(), &hex(m)]),
                want.to_string()
            );
            let e = rng.upto(200);
            let want = x.modpow(&e, m);
            assert_eq!(
                ok(&["powm", "--algo", algo, &x.to_string(), &e.to_string(), &m.to_string()]),
                want.to_string()
            );
        }
    }
    let out = run(&["mulmod", "--algo", "nist", "2", "3", &c25519.to_string()]);
    assert!(check_error("nist", &out).contains("P-256"));
    let out = run(&["mulmod", "--algo", "pseudo-mersenne", "2", "3", &p256.to_string()]);
    assert!(check_error("pseudo-mersenne", &out).contains("pseudo-Mersenne modulus"));
    let out = run(&["mulmod", "--algo", "solinas", "2", "3", &c25519.to_string()]);
    assert!(check_error("solinas", &out).contains("generalized Mersenne modulus"));
}

#[test]
fn special_primes_and_solinas_weights() {
    let line =
        ok(&["special-primes", "--form", "pseudo-mersenne", "--bits", "256", "--c-below", "1024"]);
    assert_eq!(line, "189 357 435 587 617 923");
    let json = ok(&["solinas-weights", "--poly", "t^12 - t^4 - t^3 + t - 1", "--word-bits", "32"]);
    assert!(json.contains("\"add_weight\":7,\"sub_weight\":3"), "{json}");
    let json = ok(&["solinas-weights", "--poly", "t^3 - t - 1", "--word-bits", "64"]);
    assert!(json.contains("\"add_matrix\":[[3,3,4],[5,4,5],[-1,5,-1]]"), "{json}");
    for args in [
        &["special-primes", "--form", "pseudo-mersenne", "--bits", "1", "--c-below", "10"][..],
        &["special-primes", "--form", "pseudo-mersenne", "--bits", "5000", "--c-below", "10"],
        &["special-primes", "--form", "pseudo-mersenne", "--bits", "64", "--c-below", "0"],
        &["special-primes", "--form", "pseudo-mersenne", "--bits", "64", "--c-below", "-3"],
        &["special-primes", "--form", "solinas", "--bits", "64", "--c-below", "10"],
        &["special-primes", "--form", "", "--bits", "64", "--c-below", "10"],
        &["solinas-weights", "--poly", "t^3 + t - 1", "--word-bits", "64"],
        &["solinas-weights", "--poly", "t^3 - t - 1", "--word-bits", "16"],
        &["solinas-weights", "--poly", "banana", "--word-bits", "64"],
    ] {
        let out = run(args);
        check_error(&args.join(" "), &out);
    }
}
