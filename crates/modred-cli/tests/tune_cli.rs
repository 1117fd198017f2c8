//! `modred algos M`, `modred tune` and the profile at the command line: outputs checked
//! against the library's rule, every error path against the contract (exit status 2,
//! stdout empty, exactly one stderr line starting `error: `).

use modred::modulus::profile::{Form, Profile};
use modred::modulus::{choose_method_with, explain_with};
use modred::reduce::NistPrime;
use modred::{Algorithm, Nat, Operation};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use util::{check_error, BIN};

mod util;

/// Runs modred with `MODRED_PROFILE` set to `profile` ("" = none).
fn run_with(profile: &str, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("MODRED_PROFILE", profile)
        .stdin(Stdio::null())
        .output()
        .expect("run modred")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("UTF-8")
}

/// A command that must succeed without writing to stderr.
fn ok_with(profile: &str, args: &[&str]) -> String {
    let out = run_with(profile, args);
    assert!(out.status.success(), "modred {args:?}: {:?} {}", out.status, stderr(&out));
    assert!(out.stderr.is_empty(), "modred {args:?} wrote to stderr: {}", stderr(&out));
    stdout(&out)
}

/// A command that must fail by the contract; returns the message after `error: `.
fn fails_with(args: &[&str], needle: &str) {
    fails_with_env(args, needle, &[]);
}

fn fails_with_env(args: &[&str], needle: &str, env: &[(&str, Option<&str>)]) {
    let mut c = Command::new(BIN);
    c.args(args).env("MODRED_PROFILE", "").stdin(Stdio::null());
    for (k, v) in env {
        match v {
            Some(v) => c.env(k, v),
            None => c.env_remove(k),
        };
    }
    let msg = check_error(&format!("modred {args:?}"), &c.output().expect("run modred"));
    assert!(msg.contains(needle), "modred {args:?}: {msg:?} lacks {needle:?}");
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("modred-tune-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The value after `label` on the line of `algos M`'s "auto picks" block.
fn pick(text: &str, label: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{label} ")))
        .unwrap_or_else(|| panic!("no {label} line in {text}"));
    line.split_whitespace().nth(1).unwrap().to_string()
}

/// The verdict on `algorithm` in `algos M`'s list ("applies; runs …" or "does not apply: …").
fn verdict(text: &str, algorithm: &str) -> String {
    let line = text
        .lines()
        .skip_while(|l| !l.starts_with("algorithms"))
        .find(|l| l.split_whitespace().next() == Some(algorithm))
        .unwrap_or_else(|| panic!("{algorithm} missing: {text}"));
    line.trim_start()[algorithm.len()..].trim_start().to_string()
}

/// `x·y mod m` in machine arithmetic, for the expected answers.
fn mulmod(x: u64, y: u64, m: u64) -> String {
    ((x as u128 * y as u128) % m as u128).to_string()
}

/// Checks `algos M` against the library's rule (no profile) and the applicability column.
fn check_algos(m: &Nat, form: Form) -> String {
    let text = ok_with("", &["algos", &format!("0x{m:x}")]);
    assert!(text.contains(&format!("form: {} (", form.name())), "{text}");
    assert!(text.contains(&format!("modulus: {} bits", m.bits())), "{text}");
    assert!(text.contains("profile: none"), "{text}");
    for op in Operation::ALL {
        let c = explain_with(m, op, None);
        assert_eq!(pick(&text, op.name()), c.algorithm.name(), "{op}: {text}");
        assert!(text.contains(&c.reason), "{op}: reason {:?} missing in {text}", c.reason);
    }
    let method = modred::modulus::profile::method_name(choose_method_with(m.bits(), None).0);
    assert_eq!(pick(&text, "method"), method, "{text}");
    for a in Algorithm::ALL.iter().filter(|&&a| a != Algorithm::Auto) {
        let applies = modred::reduce::make::<u64>(*a, m).is_ok();
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(a.name()) && l.contains("appl"))
            .unwrap_or_else(|| panic!("{a} missing: {text}"));
        assert_eq!(line.contains(" applies"), applies, "{line}");
        assert_eq!(line.contains("does not apply: "), !applies, "{line}");
    }
    text
}

#[test]
fn algos_m_for_each_form() {
    let odd: Nat = "0xc5a1e0f3b2d4978601f2e3d4c5b6a79881726354453627180918273645546372\
                    8192a3b4c5d6e7f80112233445566778899aabbccddeeff0011223344556677"
        .parse()
        .unwrap();
    assert!(odd.is_odd());
    let text = check_algos(&odd, Form::Odd);
    assert!(verdict(&text, "pseudo-mersenne").starts_with("does not apply"), "{text}");
    assert!(verdict(&text, "nist").starts_with("does not apply"), "{text}");
    assert!(verdict(&text, "montgomery").starts_with("applies;"), "{text}");
    let even = odd.add(&Nat::one());
    let text = check_algos(&even, Form::Even);
    assert_eq!(
        verdict(&text, "montgomery"),
        "does not apply: it needs an odd modulus (gcd(m, b) = 1)"
    );
    assert!(verdict(&text, "barrett").starts_with("applies;"), "{text}");
    let c25519 = Nat::power_of_two(255).checked_sub(&Nat::from(19u64)).unwrap();
    let text = check_algos(&c25519, Form::PseudoMersenne);
    assert_eq!(pick(&text, "reduce"), "pseudo-mersenne", "{text}");
    for p in [NistPrime::P256, NistPrime::P384, NistPrime::P521] {
        let text = check_algos(&p.modulus(), Form::Nist);
        assert_eq!(pick(&text, "reduce"), "nist", "{text}");
    }
    let gm: Nat =
        "0xfffffffffffffffffffffffffffffffffffffffffffffffeffffffffffffffff".parse().unwrap();
    check_algos(&gm, Form::Solinas);
    // Small moduli, decimal.
    let text = ok_with("", &["algos", "1000003"]);
    assert!(text.contains("modulus: 20 bits (1 digit of 64 bits), odd"), "{text}");
    assert!(ok_with("", &["algos", "1"]).contains("auto picks"));
    // Without M: the table, as before.
    assert!(ok_with("", &["algos"]).starts_with("NAME"));
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

#[test]
fn algos_m_and_arithmetic_follow_a_profile() {
    let dir = temp_dir("follow");
    let file = dir.join("profile.txt");
    write(
        &file,
        "modred-profile 1\nmulmod odd 20 classical\npowm odd 20 barrett\nmethod 20 binary\n",
    );
    let f = file.to_str().unwrap();
    let text = ok_with(f, &["algos", "1000003"]);
    assert_eq!(pick(&text, "mulmod"), "classical", "{text}");
    assert_eq!(pick(&text, "powm"), "barrett", "{text}");
    assert_eq!(pick(&text, "method"), "binary", "{text}");
    assert!(text.contains(&format!("profile: {f} (3 entries)")), "{text}");
    assert!(text.contains(&format!("profile {f}: classical measured fastest")), "{text}");
    // The results are those of any algorithm.
    let want = mulmod(123_456_789, 987_654_321, 1_000_003);
    assert_eq!(ok_with(f, &["mulmod", "123456789", "987654321", "1000003"]).trim(), want);
    assert_eq!(ok_with(f, &["powm", "2", "1000002", "1000003"]).trim(), "1");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_profile_warns_and_auto_keeps_its_rule() {
    let dir = temp_dir("bad");
    let bad = dir.join("bad.txt");
    write(&bad, "modred-profile 1\nmulmod odd 20 fourier\n");
    let missing = dir.join("missing.txt");
    let binary = dir.join("binary.txt");
    std::fs::write(&binary, [0xc3u8, 0x28, 0xff]).unwrap();
    for (path, needle) in [
        (&bad, "line 2"),
        (&missing, "missing.txt"),
        (&binary, "not UTF-8"),
        (&dir, "not a regular file"),
    ] {
        let out =
            run_with(path.to_str().unwrap(), &["mulmod", "123456789", "987654321", "1000003"]);
        assert!(out.status.success(), "{path:?}: {}", stderr(&out));
        assert_eq!(stdout(&out).trim(), mulmod(123_456_789, 987_654_321, 1_000_003));
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("warning: ") && err.contains(needle), "{err}");
        assert!(err.contains("built-in rule"), "{err}");
        let out = run_with(path.to_str().unwrap(), &["algos", "1000003"]);
        assert!(out.status.success() && stdout(&out).contains("profile: none"), "{}", stdout(&out));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn algos_and_tune_errors() {
    fails_with(&["algos", "0"], "the modulus must not be zero");
    fails_with(&["algos", "12x"], "invalid modulus '12x'");
    fails_with(&["algos", "-7"], "invalid modulus");
    fails_with(&["algos", "7", "8"], "unexpected argument '8'");
    fails_with(&["algos", "--bogus"], "unknown option '--bogus'");
    // One bit more than the limit (2^12 digits).
    let huge = format!("0x1{}", "0".repeat(1 << 16));
    fails_with(&["algos", &huge], "modulus too large to analyse");
    fails_with(&["tune", "extra"], "unexpected argument 'extra'");
    fails_with(&["tune", "--bogus"], "unknown option '--bogus'");
    fails_with(&["tune", "--check", "--out", "x.txt"], "--out does not go with it");
    fails_with(&["tune", "--out", ""], "option --out needs a file name");
    fails_with(&["tune", "--csv="], "option --csv needs a file name");
    fails_with(&["tune", "--out"], "option --out needs a value");
    fails_with(&["tune", "--forms", "odd,prime"], "unknown form 'prime' in --forms");
    fails_with(&["tune", "--forms", ""], "unknown form '' in --forms");
    fails_with(&["tune", "--quick", "--quick"], "more than once");
    // Nowhere to write the profile.
    fails_with_env(
        &["tune", "--quick"],
        "no place for the profile",
        &[("MODRED_PROFILE", None), ("HOME", None), ("XDG_CONFIG_HOME", None)],
    );
    // A profile path that cannot be created: its "directory" is a file. Refused before
    // anything is measured.
    let dir = temp_dir("errors");
    let file = dir.join("plain");
    write(&file, "x");
    let target = file.join("profile.txt");
    fails_with(&["tune", "--quick", "--out", target.to_str().unwrap()], "cannot write the profile");
    fails_with(
        &["tune", "--quick", "--forms", "nist", "--csv", target.to_str().unwrap(), "--check"],
        "cannot write",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One quick tune of one form end to end: the table, the summary, a profile that reads
/// back and that `--check` then follows.
#[test]
fn tune_writes_a_profile_that_check_follows() {
    let dir = temp_dir("e2e");
    let file = dir.join("sub").join("profile.txt");
    let csv = dir.join("t.csv");
    let out = run_with(
        "",
        &[
            "tune",
            "--quick",
            "--forms",
            "nist",
            "--out",
            file.to_str().unwrap(),
            "--csv",
            csv.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("op "), "{text}");
    assert!(text.contains("auto within 10% of the fastest at "), "{text}");
    assert!(text.contains(&format!("profile written to {}", file.display())), "{text}");
    for l in text
        .lines()
        .skip(1)
        .filter(|l| l.starts_with("reduce") || l.starts_with("mulmod") || l.starts_with("powm"))
    {
        assert_eq!(l.split_whitespace().nth(1), Some("nist"), "{l}");
    }
    let p = Profile::load(&file).unwrap();
    // P-192, P-256, P-384 and P-521 for reduce, mulmod and powm.
    assert_eq!(p.algorithms.len(), 12, "{}", p.to_text());
    assert!(p.algorithms.iter().all(|e| e.form == Form::Nist));
    assert!(p.notes.iter().any(|n| n.contains("modred tune --quick")), "{:?}", p.notes);
    let csv_text = std::fs::read_to_string(&csv).unwrap();
    assert!(csv_text.starts_with("op,form,modulus,bits,candidate,ns,"), "{csv_text}");
    // algos M now explains by the profile.
    let f = file.to_str().unwrap();
    let a = ok_with(f, &["algos", &format!("0x{:x}", NistPrime::P384.modulus::<u64>())]);
    assert!(a.contains(&format!("profile {f}: ")), "{a}");
    // --check measures auto as the profile has it: every choice from the profile.
    let out = run_with(f, &["tune", "--quick", "--check", "--forms", "nist"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stdout(&out).contains("profile written"), "{}", stdout(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}
