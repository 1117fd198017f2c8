//! Every error path of the command line, command by command: each `Fail::new` and each
//! library error a command can reach is triggered here and checked against the contract
//! (exit status 2, nothing on stdout, exactly one stderr line `error: …` that names the
//! problem, never a panic). `tests/cli.rs` covers the arithmetic commands' number parsing,
//! the argument parser on `reduce`, `opcount`'s options and `batch`'s bad lines; this file
//! covers the rest and hostile values (huge, negative, non-numeric, empty, NUL bytes,
//! non-UTF-8) for every option of every command.
//!
//! Paths no input can reach, and why:
//! - `radix2-model`'s "the datapath model disagrees with the software (a bug)", and
//!   `bench`'s "gave a wrong …" / "disagrees with modred": they report bugs.
//! - `guard`'s "internal error": a panic, which no known input causes.
//! - `bench --modulus` above 2^20 bits ("bench takes at most"): such a number is over
//!   262 000 characters, beyond the kernel's limit on one argument on Linux
//!   (`bench_size_limit_reasons_and_missing_anchors` shows the spawn refused).
//! - `bench`'s "--anchors needs a build with --features anchors" (in the candidates of a
//!   build without them): the option's own check refuses `--anchors` first, with the
//!   message tested there.
//! - A NUL byte cannot be passed in an argument at all (the operating system's argument
//!   vector is NUL-terminated; `nul_bytes_cannot_reach_arguments` shows it); in `batch`
//!   lines it is covered here and in `cli.rs`.

use std::process::{Command, Stdio};
use util::{check_error, fails_with, run, spawn_batch, BIN};

mod util;

/// Runs each command line, which must fail with a message containing its needle.
fn all_fail(cases: &[(&[&str], &str)]) {
    for (args, needle) in cases {
        fails_with(args, needle);
    }
}

/// Hostile values for options and arguments.
fn hostile() -> Vec<String> {
    vec![
        String::new(),
        "-1".into(),
        "-0x10".into(),
        "abc".into(),
        "0x".into(),
        "7_".into(),
        "_7".into(),
        "+7".into(),
        "1e3".into(),
        "1.5".into(),
        "\u{663}".into(),
        "\u{7f}".into(),
        "\u{1b}[31m".into(),
        "18446744073709551616".into(),
        "9".repeat(100_000),
        format!("{}x", "9".repeat(100_000)),
    ]
}

// ---------------------------------------------------------------------------------------
// The top level and the argument parser on every command

#[test]
fn top_level() {
    all_fail(&[
        (&["--bogus"], "unknown command '--bogus'"),
        (&["-x"], "unknown command '-x'"),
        (&[""], "unknown command ''"),
        (&["help", "help", "x"], "unexpected argument 'x'"),
        (&["-V", "extra"], "unexpected argument 'extra' after --version"),
    ]);
    let long = "z".repeat(100_000);
    let msg = check_error("huge command", &run(&[&long]));
    assert!(msg.contains("unknown command") && msg.contains("100000 characters"), "{msg}");
}

/// Every command rejects an unknown option, a repeated option, a flag with a value, a
/// missing option value and a stray or missing positional argument.
#[test]
fn argument_parser_on_every_command() {
    let commands: &[(&str, &[&str], &str, Option<&str>)] = &[
        // (command, valid positionals, an option with a value, a flag)
        ("algos", &["7"], "", None), // M is optional: `algos` alone is valid
        ("reduce", &["5", "7"], "algo", Some("hex")),
        ("mulmod", &["5", "6", "7"], "algo", Some("hex")),
        ("powm", &["5", "6", "7"], "window", Some("hex")),
        ("batch", &[], "algo", None),
        ("bench", &[], "bits", Some("quick")),
        ("opcount", &[], "bits", None),
        ("radix2-model", &[], "bits", None),
        ("radix2-vectors", &[], "count", None),
        ("report", &[], "out", Some("quick")),
        ("special-primes", &[], "bits", None),
        ("solinas-weights", &[], "poly", None),
        // Every case is refused while parsing, before anything is measured.
        ("tune", &[], "out", Some("quick")),
    ];
    for &(name, pos, opt, flag) in commands {
        let with = |extra: &[&str]| -> Vec<String> {
            let mut v = vec![name.to_string()];
            v.extend(pos.iter().map(|s| s.to_string()));
            v.extend(extra.iter().map(|s| s.to_string()));
            v
        };
        let check = |args: Vec<String>, needle: &str| {
            let a: Vec<&str> = args.iter().map(String::as_str).collect();
            let msg = check_error(&format!("{a:?}"), &run(&a));
            assert!(msg.contains(needle), "{a:?}: {msg:?} lacks {needle:?}");
        };
        check(with(&["--frobnicate"]), "unknown option '--frobnicate'");
        check(with(&["--frob=1"]), "unknown option '--frob'");
        check(with(&["-q"]), "unknown option '-q'");
        check(with(&["---"]), "unknown option");
        check(with(&["extra-positional"]), "unexpected argument 'extra-positional'");
        if !pos.is_empty() && name != "algos" {
            check(vec![name.to_string()], "missing argument");
        }
        if !opt.is_empty() {
            let o = format!("--{opt}");
            check(with(&[&o]), &format!("option --{opt} needs a value"));
            check(with(&[&o, "--other"]), &format!("option --{opt} needs a value"));
            check(with(&[&format!("{o}=1"), &format!("{o}=2")]), "given more than once");
        }
        if let Some(f) = flag {
            let f = format!("--{f}");
            check(with(&[&format!("{f}=yes")]), "takes no value");
            check(with(&[&f, &f]), "given more than once");
        }
    }
}

/// Each command, given a non-UTF-8 argument in any position, names it.
#[cfg(unix)]
#[test]
fn arguments_not_utf8_on_every_command() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let bad = OsStr::from_bytes(b"\xff\xfe");
    for name in [
        "algos",
        "reduce",
        "mulmod",
        "powm",
        "batch",
        "bench",
        "opcount",
        "radix2-model",
        "radix2-vectors",
        "report",
        "special-primes",
        "solinas-weights",
        "tune",
        "help",
    ] {
        let out = Command::new(BIN)
            .args([OsStr::new(name), OsStr::new("--bits"), bad])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let msg = check_error(name, &out);
        assert!(msg.contains("argument 3 is not valid UTF-8"), "{name}: {msg}");
    }
    let out = Command::new(BIN).arg(bad).output().unwrap();
    assert!(check_error("command", &out).contains("argument 1 is not valid UTF-8"));
}

#[test]
fn nul_bytes_cannot_reach_arguments() {
    // The standard library refuses to build such an argument vector before modred runs.
    let spawned = Command::new(BIN).args(["reduce", "5\0", "7"]).output();
    assert!(spawned.is_err(), "an argument with a NUL byte was passed");
}

// ---------------------------------------------------------------------------------------
// reduce, mulmod, powm

#[test]
fn arithmetic_library_errors() {
    let huge = format!("0x1{}", "0".repeat(20_000)); // 2^80000
    let longer = format!("0x1{}", "0".repeat(100_000)); // 2^400000
    all_fail(&[
        (&["powm", "2", &longer, &huge], "too much work: an exponentiation to a 400001-bit"),
        (&["powm", "--window", "3", "2", &longer, &huge], "is estimated at 3.4e11 digit"),
        (&["powm", "--max-work", "1e6", "2", "3", &huge], "over the work limit of 1.0e6"),
        (&["mulmod", "--algo", "hong", "--max-work", "2^20", "2", "3", &huge], "by hong"),
        (&["reduce", "--max-work", "100", &longer, &huge], "a division of a 400001-bit number"),
        (
            &["reduce", "--algo", "barrett", "--max-work", "100", "2", &huge],
            "one multiplication modulo a 80001-bit",
        ),
        (&["reduce", "--algo", "nist", "5", "1000003"], "nist does not apply"),
        (&["reduce", "--algo", "radix2-montgomery", "5", "1000000"], "does not apply"),
        (&["mulmod", "--algo", "ntt-montgomery", "5", "6", "1000000"], "does not apply"),
        (&["mulmod", "--algo", "radix2-montgomery-recoded", "5", "6", "10"], "does not apply"),
        (&["reduce", "--algo", "pseudo-mersenne", "5", "1000003"], "does not apply"),
        (&["powm", "--algo", "solinas", "2", "3", "1000003"], "does not apply"),
        (&["reduce", "--algo", "nist", "0x1", "0"], "zero"),
        (
            &["reduce", "--algo", "ntt-barrett", "0x1000000000000000000000000000000000", "7"],
            "ntt-barrett",
        ),
        (&["powm", "--window", "17", "2", "3", "7"], "invalid window '17'"),
        (&["reduce", "--", "--", "7"], "invalid x '--'"),
        (&["mulmod", "1", "2", "0x0"], "zero"),
    ]);
}

#[test]
fn arithmetic_hostile_values_in_every_position() {
    for h in hostile() {
        let h = h.as_str();
        // A huge valid number is a valid argument, computed elsewhere; skip it here.
        if h.bytes().all(|c| c.is_ascii_digit()) && !h.is_empty() {
            continue;
        }
        for args in [
            vec!["reduce", "--", h, "7"],
            vec!["reduce", "--", "7", h],
            vec!["mulmod", "--", "7", "3", h],
            vec!["powm", "--", h, "3", "7"],
            vec!["powm", "--", "2", h, "7"],
            vec!["mulmod", "--algo", h, "1", "2", "7"],
        ] {
            check_error(&format!("{:?}", &args[..args.len().min(4)]), &run(&args));
        }
    }
}

/// `algos M` fed hostile moduli: each refused with one error line (a valid number of any
/// size is analysed, or refused above the analysis limit; see `tune_cli.rs`).
#[test]
fn algos_hostile_moduli() {
    for h in hostile() {
        let h = h.as_str();
        if h.bytes().all(|c| c.is_ascii_digit()) && !h.is_empty() && h.len() < 1000 {
            continue;
        }
        check_error(&format!("algos {:?}", &h[..h.len().min(20)]), &run(&["algos", "--", h]));
    }
}

/// A command whose output cannot be written (stdout on a full device) fails with one
/// error line instead of losing the result quietly.
#[cfg(target_os = "linux")]
#[test]
fn output_that_cannot_be_written() {
    for args in [
        &["reduce", "10", "7"][..],
        &["mulmod", "2", "3", "7"],
        &["powm", "2", "3", "7"],
        &["algos"],
        &["help"],
        &["--version"],
        &["opcount", "--algo", "barrett", "--op", "reduce", "--bits", "64"],
        &["special-primes", "--form", "pseudo-mersenne", "--bits", "64", "--c-below", "100"],
        &["solinas-weights", "--poly", "t^3 - t - 1", "--word-bits", "64"],
        &["radix2-model", "--bits", "16"],
        &["radix2-vectors", "--bits", "8", "--count", "3", "--out", "-"],
        &["bench", "--algo", "montgomery", "--bits", "64", "--quick"],
    ] {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let out =
            Command::new(BIN).args(args).stdout(full).stderr(Stdio::piped()).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with("error: cannot write the output"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    // batch too, with a line to answer.
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let mut child = Command::new(BIN)
        .arg("batch")
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"{\"op\":\"reduce\",\"x\":\"10\",\"m\":\"7\"}\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().starts_with("error: cannot write the output"));
}

// ---------------------------------------------------------------------------------------
// batch

/// Input that cannot be read (stdin is a directory) stops the batch with one error line.
#[cfg(unix)]
#[test]
fn batch_input_that_cannot_be_read() {
    let dir = std::fs::File::open("/").unwrap();
    let out = Command::new(BIN).arg("batch").stdin(dir).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("error: cannot read the input"), "{err}");
    assert_eq!(err.lines().count(), 1);
}

/// Hostile values in every number field of every op of a batch line: each line gets an
/// error answer naming the field's role, and the batch goes on.
#[test]
fn batch_hostile_fields() {
    use std::io::Write;
    let fields: &[(&str, &[&str], &str)] = &[
        ("reduce", &["x", "m"], ""),
        ("mulmod", &["x", "y", "m"], ""),
        ("powm", &["x", "e", "m"], ""),
    ];
    let mut input = String::new();
    let mut expected = 0;
    for h in hostile() {
        if h.bytes().all(|c| c.is_ascii_digit()) && !h.is_empty() {
            continue;
        }
        for (op, names, _) in fields {
            for bad in names.iter() {
                let mut obj = serde_json::Map::new();
                obj.insert("op".into(), serde_json::Value::String(op.to_string()));
                for f in names.iter() {
                    let v = if f == bad { h.clone() } else { "7".to_string() };
                    obj.insert(f.to_string(), serde_json::Value::String(v));
                }
                input.push_str(&serde_json::Value::Object(obj).to_string());
                input.push('\n');
                expected += 1;
            }
        }
    }
    // NUL bytes inside and around a line, and a field of the wrong JSON type per op.
    for line in [
        "{\"op\":\"powm\",\"x\":\"2\\u0000\",\"e\":\"3\",\"m\":\"7\"}",
        "{\"op\":\"mulmod\",\"x\":\"2\",\"y\":{},\"m\":\"7\"}",
        "{\"op\":\"powm\",\"x\":\"2\",\"e\":true,\"m\":\"7\"}",
        "{\"op\":\"reduce\",\"x\":\"2\",\"m\":-7}",
        "{\"op\":\"reduce\",\"x\":\"2\",\"m\":\"7\",\"algo\":\"\"}",
        "{\"op\":\"reduce\",\"x\":\"2\",\"m\":\"8\",\"algo\":\"montgomery\"}",
        "{\"op\":\"powm\",\"x\":\"2\",\"e\":\"3\",\"m\":\"7\",\"algo\":\"nist\"}",
    ] {
        input.push_str(line);
        input.push('\n');
        expected += 1;
    }
    input.push_str("\0{\"op\":\"reduce\",\"x\":\"2\",\"m\":\"7\"}\n");
    expected += 1;
    let mut child = spawn_batch(&[]);
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        stdin.write_all(input.as_bytes()).unwrap();
        stdin.write_all(b"{\"op\":\"reduce\",\"x\":\"10\",\"m\":\"7\"}\n").unwrap();
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success() && out.stderr.is_empty());
    let lines: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(lines.len(), expected + 1);
    for l in &lines[..expected] {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        let e = v["error"].as_str().unwrap_or_else(|| panic!("not an error: {l}"));
        assert!(!e.is_empty() && !e.contains("internal error"), "{l}");
    }
    assert_eq!(lines[expected], "{\"ok\":\"3\"}");
}

// ---------------------------------------------------------------------------------------
// opcount, special-primes, solinas-weights

#[test]
fn opcount_hostile_values() {
    for h in hostile() {
        for args in [
            vec!["opcount", "--algo", &h, "--op", "reduce", "--bits", "64"],
            vec!["opcount", "--algo", "barrett", "--op", &h, "--bits", "64"],
            vec!["opcount", "--algo", "barrett", "--op", "reduce", "--bits", &h],
            vec![
                "opcount",
                "--algo",
                "barrett",
                "--op",
                "reduce",
                "--bits",
                "64",
                "--digit-bits",
                &h,
            ],
        ] {
            check_error(&format!("{:?}", &args[..args.len().min(7)]), &run(&args));
        }
    }
    all_fail(&[(
        &["opcount", "--algo", "barrett", "--op", "powm", "--bits", "64"],
        "invalid operation 'powm'",
    )]);
}

#[test]
fn special_primes_errors() {
    let sp = |extra: &[&'static str]| -> Vec<&'static str> {
        let mut v = vec!["special-primes"];
        v.extend_from_slice(extra);
        v
    };
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (sp(&["--bits", "64"]), "missing option --c-below"),
        (sp(&["--form", "pseudo-mersenne", "--c-below", "10"]), "missing option --bits"),
        (sp(&["--form", "pseudo-mersenne", "--bits", "64"]), "missing option --c-below"),
        (sp(&["--form", "solinas", "--bits", "64", "--c-below", "10"]), "unknown --form 'solinas'"),
        (sp(&["--form", "", "--bits", "64", "--c-below", "10"]), "unknown --form ''"),
        (
            sp(&["--form", "pseudo-mersenne", "--bits", "x", "--c-below", "10"]),
            "invalid --bits 'x'",
        ),
        (sp(&["--form", "pseudo-mersenne", "--bits", "", "--c-below", "10"]), "invalid --bits ''"),
        (
            sp(&["--form", "pseudo-mersenne", "--bits", "64", "--c-below", "-3"]),
            "invalid --c-below '-3'",
        ),
        (
            sp(&["--form", "pseudo-mersenne", "--bits", "1", "--c-below", "10"]),
            "--bits must be from 2",
        ),
        (
            sp(&["--form", "pseudo-mersenne", "--bits", "4097", "--c-below", "10"]),
            "--bits must be from 2",
        ),
        (
            sp(&["--form", "pseudo-mersenne", "--bits", "64", "--c-below", "0"]),
            "--c-below must be from 1",
        ),
        (
            sp(&["--form", "pseudo-mersenne", "--bits", "64", "--c-below", "1048577"]),
            "--c-below must be from 1",
        ),
        (sp(&["--form", "pseudo-mersenne", "--bits", "3", "--c-below", "9"]), "at most 2^bits"),
        (
            sp(&["--form", "pseudo-mersenne", "--bits", "18446744073709551616", "--c-below", "9"]),
            "invalid --bits",
        ),
    ];
    for (args, needle) in &cases {
        let msg = check_error(&format!("{args:?}"), &run(args));
        assert!(msg.contains(needle), "{args:?}: {msg:?} lacks {needle:?}");
    }
    for h in hostile() {
        for args in [
            vec!["special-primes", "--form", &h, "--bits", "64", "--c-below", "10"],
            vec!["special-primes", "--form", "pseudo-mersenne", "--bits", &h, "--c-below", "10"],
            vec!["special-primes", "--form", "pseudo-mersenne", "--bits", "64", "--c-below", &h],
        ] {
            check_error("special-primes hostile", &run(&args));
        }
    }
}

#[test]
fn solinas_weights_errors() {
    let sw = |poly: &str, w: &str| -> Vec<String> {
        vec!["solinas-weights".into(), "--poly".into(), poly.into(), "--word-bits".into(), w.into()]
    };
    let too_high = format!("t^{} - 1", 100_000);
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["solinas-weights".into(), "--word-bits".into(), "64".into()],
            "missing option --poly",
        ),
        (
            vec!["solinas-weights".into(), "--poly".into(), "t^3 - t - 1".into()],
            "missing option --word-bits",
        ),
        (sw("t^3 - t - 1", "x"), "invalid --word-bits 'x'"),
        (sw("t^3 - t - 1", "0"), "invalid --word-bits '0'"),
        (sw("t^3 - t - 1", "128"), "expected 32 or 64"),
        (sw("", "64"), "it is empty"),
        (sw("   ", "64"), "it is empty"),
        (sw("t^3 t - 1", "64"), "bad exponent in 't^3t'"),
        (sw("t^3 - t^ - 1", "64"), "bad exponent"),
        (sw("t^3 - t^x - 1", "64"), "bad exponent"),
        (sw(&too_high, "64"), "above"),
        (sw("t^3 - 2t - 1", "64"), "bad term '2t'"),
        (sw("t^3 - t - t - 1", "64"), "appears twice"),
        (sw("1", "64"), "degree must be at least 1"),
        (sw("-t^3 - t - 1", "64"), "leading coefficient must be +1"),
        (sw("t^3 + t + 1", "64"), "must be -1"),
        (sw("t^3 - t - 1\0", "64"), "bad term"),
    ];
    for (args, needle) in &cases {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        // A NUL byte cannot be an argument (see nul_bytes_cannot_reach_arguments).
        if a.iter().any(|s| s.contains('\0')) {
            continue;
        }
        let msg = check_error(&format!("{a:?}"), &run(&a));
        assert!(msg.contains(needle), "{a:?}: {msg:?} lacks {needle:?}");
    }
    for h in hostile() {
        check_error("poly", &run(&["solinas-weights", "--poly", &h, "--word-bits", "64"]));
        check_error(
            "word-bits",
            &run(&["solinas-weights", "--poly", "t^3 - t - 1", "--word-bits", &h]),
        );
    }
}

// ---------------------------------------------------------------------------------------
// radix2-model, radix2-vectors

#[test]
fn radix2_model_errors() {
    let n4097 = format!("0x1{}1", "0".repeat(1023)); // 4097 bits, odd
    all_fail(&[
        (&["radix2-model"], "give either --bits K or all of --a, --b and --n"),
        (&["radix2-model", "--a", "1", "--b", "2"], "give either --bits K or all of"),
        (&["radix2-model", "--bits", "8", "--a", "1", "--b", "2", "--n", "11"], "give either"),
        (&["radix2-model", "--seed", "3"], "give either"),
        (
            &["radix2-model", "--a", "1", "--b", "2", "--n", "11", "--seed", "3"],
            "--seed goes with --bits",
        ),
        (
            &["radix2-model", "--bits", "1"],
            "invalid --bits '1': expected a whole number from 2 to 4096",
        ),
        (&["radix2-model", "--bits", "4097"], "invalid --bits '4097'"),
        (&["radix2-model", "--bits", "16", "--seed", "x"], "invalid --seed 'x'"),
        (&["radix2-model", "--bits", "16", "--seed", "-1"], "invalid --seed '-1'"),
        (&["radix2-model", "--a", "1", "--b", "2", "--n", "0"], "zero"),
        (&["radix2-model", "--a", "1", "--b", "2", "--n", "10"], "odd"),
        (&["radix2-model", "--a", "11", "--b", "2", "--n", "11"], "A must be below N"),
        (&["radix2-model", "--a", "1", "--b", "12", "--n", "11"], "B must be below N"),
        (&["radix2-model", "--a", "x", "--b", "2", "--n", "11"], "invalid A 'x'"),
        (&["radix2-model", "--a", "1", "--b", "-2", "--n", "11"], "invalid B"),
        (&["radix2-model", "--a", "1", "--b", "2", "--n", ""], "invalid N ''"),
        (&["radix2-model", "--a", "1", "--b", "2", "--n", &n4097], "at most 4096 bits"),
    ]);
    for h in hostile() {
        for args in [
            vec!["radix2-model", "--bits", &h],
            vec!["radix2-model", "--bits", "16", "--seed", &h],
            vec!["radix2-model", "--a", &h, "--b", "2", "--n", "11"],
            vec!["radix2-model", "--a", "1", "--b", "2", "--n", &h],
        ] {
            check_error("radix2-model hostile", &run(&args));
        }
    }
}

#[test]
fn radix2_vectors_errors() {
    let dir = std::env::temp_dir().join(format!("modred-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("plain-file");
    std::fs::write(&file, "x").unwrap();
    let under_file = file.join("vectors.hex");
    let under = under_file.to_str().unwrap();
    all_fail(&[
        (&["radix2-vectors", "--bits", "8", "--count", "3"], "missing option --out"),
        (&["radix2-vectors", "--count", "3", "--out", "-"], "missing option --bits"),
        (&["radix2-vectors", "--bits", "8", "--out", "-"], "missing option --count"),
        (&["radix2-vectors", "--bits", "1", "--count", "3", "--out", "-"], "invalid --bits '1'"),
        (&["radix2-vectors", "--bits", "4097", "--count", "3", "--out", "-"], "invalid --bits"),
        (&["radix2-vectors", "--bits", "8", "--count", "0", "--out", "-"], "invalid --count '0'"),
        (&["radix2-vectors", "--bits", "8", "--count", "100001", "--out", "-"], "invalid --count"),
        (
            &["radix2-vectors", "--bits", "8", "--count", "3", "--out", "-", "--seed", "s"],
            "invalid --seed",
        ),
        (&["radix2-vectors", "--bits", "8", "--count", "3", "--out", under], "cannot write"),
        (&["radix2-vectors", "--bits", "8", "--count", "3", "--out", ""], "cannot write ''"),
        (
            &["radix2-vectors", "--bits", "8", "--count", "3", "--out", dir.to_str().unwrap()],
            "cannot write",
        ),
    ]);
    for h in hostile() {
        for args in [
            vec!["radix2-vectors", "--bits", &h, "--count", "3", "--out", "-"],
            vec!["radix2-vectors", "--bits", "8", "--count", &h, "--out", "-"],
            vec!["radix2-vectors", "--bits", "8", "--count", "3", "--out", "-", "--seed", &h],
        ] {
            check_error("radix2-vectors hostile", &run(&args));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------
// report

#[test]
fn report_errors() {
    let dir = std::env::temp_dir().join(format!("modred-report-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("plain-file");
    std::fs::write(&file, "x").unwrap();
    let under = file.join("report");
    all_fail(&[
        (
            &["report", "--quick", "--full", "--out", dir.to_str().unwrap()],
            "--quick and --full exclude each other",
        ),
        (&["report", "--out", ""], "needs a directory name"),
        (&["report", "--quick", "--out", file.to_str().unwrap()], "cannot create"),
        (&["report", "--quick", "--out", under.to_str().unwrap()], "cannot create"),
    ]);
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------
// bench

#[test]
fn bench_option_errors() {
    let mut sizes_over = Vec::new();
    for s in 2..70 {
        sizes_over.push(s.to_string());
    }
    let sizes_over = sizes_over.join(",");
    let powm_too_big = format!("0x1{}", "0".repeat(16384 / 4)); // 16385 bits
    let q = "--quick";
    all_fail(&[
        (&["bench", q, "--algo", ""], "invalid --algo '': an empty item"),
        (&["bench", q, "--algo", "montgomery,,barrett"], "an empty item"),
        (&["bench", q, "--algo", "montgomery,"], "an empty item"),
        (&["bench", q, "--algo", "all,montgomery"], "--algo all stands alone"),
        (&["bench", q, "--algo", "fourier"], "unknown algorithm 'fourier'"),
        (&["bench", q, "--algo", "Montgomery"], "unknown algorithm 'Montgomery'"),
        (&["bench", q, "--algo", "barrett,barrett"], "--algo names 'barrett' twice"),
        (&["bench", q, "--bits", ""], "invalid --bits ''"),
        (&["bench", q, "--bits", "x"], "invalid --bits 'x'"),
        (&["bench", q, "--bits", "1"], "expected sizes from 2 to 1048576 bits"),
        (&["bench", q, "--bits", "1048577"], "invalid --bits '1048577'"),
        (&["bench", q, "--bits", "-5"], "invalid --bits '-5'"),
        (&["bench", q, "--bits", "+256"], "invalid --bits"),
        (&["bench", q, "--bits", "256,"], "an empty item"),
        (&["bench", q, "--bits", "0..10"], "invalid --bits '0..10'"),
        (&["bench", q, "--bits", "256.."], "invalid --bits"),
        (&["bench", q, "--bits", "..256"], "invalid --bits"),
        (&["bench", q, "--bits", "256...512"], "invalid --bits"),
        (&["bench", q, "--bits", "4096..256"], "the start is above the end"),
        (&["bench", q, "--bits", "99999999999999999999999"], "invalid --bits"),
        (&["bench", q, "--bits", &sizes_over], "more than 64 sizes"),
        (&["bench", q, "--bits", "256", "--modulus", "7"], "give --bits or --modulus, not both"),
        (&["bench", q, "--modulus", "0"], "zero"),
        (&["bench", q, "--modulus", "abc"], "invalid modulus 'abc'"),
        (&["bench", q, "--modulus", "-7"], "negative"),
        (&["bench", q, "--modulus", ""], "invalid modulus"),
        (&["bench", q, "--op", "powm", "--bits", "256,32768"], "--op powm at 32768 bits"),
        (
            &["bench", q, "--op", "mulmod,powm", "--modulus", &powm_too_big],
            "--op powm at 16385 bits",
        ),
        (&["bench", q, "--op", ""], "invalid --op '': an empty item"),
        (
            &["bench", q, "--op", "div"],
            "invalid --op 'div': expected reduce, mulmod, sqrmod or powm",
        ),
        (&["bench", q, "--op", "mulmod,mulmod"], "--op names 'mulmod' twice"),
        (&["bench", q, "--op", "mulmod,"], "an empty item"),
        (&["bench", q, "--format", "xml"], "invalid --format 'xml'"),
        (
            &["bench", q, "--api", "slices"],
            "invalid --api 'slices': expected reducer, modulus or modulus-alloc",
        ),
        (&["bench", q, "--format", ""], "invalid --format ''"),
        (&["bench", q, "--baseline", "nope"], "invalid --baseline 'nope'"),
        (
            &["bench", q, "--algo", "montgomery", "--baseline", "barrett"],
            "invalid --baseline 'barrett'",
        ),
        (&["bench", q, "--seed", "x"], "invalid --seed 'x'"),
        (&["bench", q, "--seed", "-1"], "invalid --seed '-1'"),
        (&["bench", q, "--seed", ""], "invalid --seed ''"),
        (&["bench", q, "--seed", "18446744073709551616"], "invalid --seed"),
    ]);
}

#[test]
fn bench_with_nothing_to_time() {
    all_fail(&[
        (&["bench", "--quick", "--algo", "nist", "--bits", "1000"], "nothing to time"),
        (&["bench", "--quick", "--algo", "solinas", "--bits", "100"], "nothing to time"),
        (&["bench", "--quick", "--algo", "pseudo-mersenne", "--bits", "2"], "nothing to time"),
        (
            &["bench", "--quick", "--algo", "solinas", "--bits", "65536"],
            "the degree must be from 1 to 512",
        ),
        (
            &[
                "bench",
                "--quick",
                "--algo",
                "montgomery,montgomery-interleaved",
                "--modulus",
                "1000000",
            ],
            "does not apply",
        ),
        (&["bench", "--quick", "--algo", "nist", "--modulus", "1000003"], "nist does not apply"),
    ]);
}

#[test]
fn bench_size_limit_reasons_and_missing_anchors() {
    // 2^(2^20), one bit over bench's largest size, cannot be passed at all: in hex it is
    // 262 146 characters, over the kernel's limit for one argument (128 KiB on Linux).
    let over = format!("0x1{}", "0".repeat(1 << 18));
    let spawn = Command::new(BIN).args(["bench", "--quick", "--modulus", &over]).output();
    if cfg!(target_os = "linux") {
        let e = spawn.expect_err("a 256 KiB argument");
        assert_eq!(e.raw_os_error(), Some(7), "{e}"); // E2BIG
    } else if let Ok(out) = spawn {
        let msg = check_error("bench --modulus 2^(2^20)", &out);
        assert!(msg.contains("bench takes at most 1048576"), "{msg}");
    }
    // The reason an algorithm has no modulus of the size is in the message.
    all_fail(&[(
        &["bench", "--quick", "--algo", "pseudo-mersenne", "--bits", "2"],
        "no pseudo-Mersenne modulus 2^N - c has fewer than 3 bits",
    )]);
    if !cfg!(feature = "anchors") {
        all_fail(&[(
            &["bench", "--quick", "--anchors", "--bits", "256"],
            "--anchors needs GMP and OpenSSL, which this build of modred leaves out",
        )]);
    }
}

#[test]
fn bench_hostile_values() {
    for h in hostile() {
        for opt in ["algo", "bits", "op", "format", "baseline", "seed", "modulus", "api"] {
            if opt == "modulus" && !h.is_empty() && h.bytes().all(|c| c.is_ascii_digit()) {
                continue; // a valid modulus (2^64, a 332 193-bit one): bench takes it
            }
            let out = run(&["bench", "--quick", &format!("--{opt}"), &h]);
            if out.status.success() {
                panic!("--{opt} {h:?} was accepted");
            }
            check_error(&format!("bench --{opt} {:?}", &h[..h.len().min(20)]), &out);
        }
    }
}

#[cfg(not(feature = "anchors"))]
#[test]
fn bench_anchors_need_the_feature() {
    all_fail(&[
        (&["bench", "--quick", "--bits", "64", "--anchors"], "--features anchors"),
        (
            &["bench", "--quick", "--bits", "64", "--baseline", "gmp-powm", "--op", "powm"],
            "add --anchors",
        ),
    ]);
}

#[cfg(feature = "anchors")]
#[test]
fn bench_anchor_baseline_must_take_part() {
    all_fail(&[
        (
            &[
                "bench",
                "--quick",
                "--bits",
                "64",
                "--anchors",
                "--baseline",
                "gmp-powm",
                "--op",
                "mulmod",
            ],
            "--baseline gmp-powm takes no part in --op mulmod",
        ),
        (
            &["bench", "--quick", "--bits", "64", "--baseline", "gmp-powm", "--op", "powm"],
            "add --anchors",
        ),
    ]);
}
