//! `modred radix2-model`, `modred radix2-vectors` and the radix-2 algorithms on the
//! command line.

use std::process::Command;

fn modred(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_modred")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn model_prints_cycles_levels_and_results() {
    let (code, out, err) = modred(&["radix2-model", "--a", "5", "--b", "7", "--n", "11"]);
    assert_eq!(code, 0, "{err}");
    // k = 4; modulo 11, 2^4 ≡ 5 and 5·9 = 45 ≡ 1, so 2^-4 ≡ 9; 2^5 ≡ 10 ≡ −1, so 2^-5 ≡ 10.
    assert!(out.contains("\"k\":4"), "{out}");
    assert!(out.contains("\"cycles\":5") && out.contains("\"cycles\":6"), "{out}");
    assert!(out.contains("\"critical_path_fa_levels\":5"), "{out}");
    assert!(out.contains("\"critical_path_fa_levels\":4"), "{out}");
    let result = |design: &str| -> u64 {
        let needle = format!("\"{design}\":{{\"result\":\"");
        let rest = &out[out.find(&needle).unwrap() + needle.len()..];
        rest[..rest.find('"').unwrap()].parse().unwrap()
    };
    assert_eq!(result("plain") % 11, 35 * 9 % 11);
    assert_eq!(result("recoded") % 11, 35 * 10 % 11);
    assert!(result("recoded") < 22);
    let (code, out, _) = modred(&["radix2-model", "--bits", "128", "--seed", "3"]);
    assert_eq!(code, 0);
    assert!(out.contains("\"k\":128") && out.contains("\"agrees_with_software\":true"));
}

#[test]
fn model_errors_are_one_line() {
    for args in [
        &["radix2-model"][..],
        &["radix2-model", "--bits", "1"],
        &["radix2-model", "--bits", "8", "--a", "1"],
        &["radix2-model", "--a", "1", "--b", "2", "--n", "10"],
        &["radix2-model", "--a", "11", "--b", "2", "--n", "11"],
        &["radix2-model", "--a", "1", "--b", "2", "--n", "0"],
    ] {
        let (code, out, err) = modred(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty() && err.starts_with("error: ") && err.lines().count() == 1, "{err}");
    }
}

#[test]
fn vectors_have_eight_fields_and_valid_operands() {
    let (code, out, err) =
        modred(&["radix2-vectors", "--bits", "16", "--count", "30", "--out", "-"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 30);
    for line in lines {
        let f: Vec<u128> = line.split(' ').map(|h| u128::from_str_radix(h, 16).unwrap()).collect();
        assert_eq!(f.len(), 8, "{line}");
        let (a, b, n, corr) = (f[0] + f[1], f[2] + f[3], f[4], f[5]);
        assert!(n & 1 == 1 && n >> 15 == 1 && a < n && b < n && corr < n, "{line}");
        // corr·2^16 ≡ A; S_plain·2^16 ≡ A·B; S_recoded·2^17 ≡ A·B; both below 2n.
        assert_eq!((corr << 16) % n, a);
        assert_eq!((f[6] << 16) % n, a * b % n);
        assert_eq!((f[7] << 17) % n, a * b % n);
        assert!(f[6] < 2 * n && f[7] < 2 * n);
    }
    let (code, _, err) = modred(&["radix2-vectors", "--bits", "16", "--count", "0", "--out", "-"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: invalid --count"));
}

#[test]
fn radix2_algorithms_in_mulmod_and_powm() {
    for algo in ["radix2-montgomery", "radix2-montgomery-recoded"] {
        let (code, out, _) =
            modred(&["mulmod", "--algo", algo, "123456789", "987654321", "1000000007"]);
        assert_eq!((code, out.trim()), (0, "259106859"));
        let (code, out, _) = modred(&["powm", "--algo", algo, "3", "1000", "1000000007"]);
        assert_eq!((code, out.trim()), (0, "56888193"));
        let (code, _, err) = modred(&["mulmod", "--algo", algo, "3", "4", "10"]);
        assert_eq!(code, 2);
        assert!(err.contains("odd modulus"), "{err}");
    }
}
