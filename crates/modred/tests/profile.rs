//! Tuning profiles: the file format round trip, malformed files (always an `Err`, never a
//! panic), and how the auto rule follows a profile and falls back to the built-in rule.
//!
//! The active profile is global: only `activation_and_files` activates one or reads the
//! environment; every other test passes its profile explicitly (`explain_with`).

use modred::exp::Method;
use modred::modulus::profile::{self, method_name, parse_method, Form, Profile};
use modred::modulus::{choose_method_with, explain_with};
use modred::reduce::NistPrime;
use modred::{Algorithm, Nat, Operation};
use modred_testkit::SplitMix64;

fn nat(s: &str) -> Nat {
    s.parse().unwrap()
}

/// An odd modulus of exactly `bits` bits with no special form.
fn odd(bits: u64) -> Nat {
    let mut limbs: Vec<u64> = (0..bits.div_ceil(64))
        .map(|i| 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(i + 3) ^ 0x5555_0000_aaaa_1234)
        .collect();
    let top = bits - 64 * (limbs.len() as u64 - 1);
    let last = limbs.last_mut().unwrap();
    *last = (*last >> (64 - top)) | (1 << (top - 1));
    limbs[0] |= 1;
    let m = Nat::from_vec(limbs);
    assert_eq!((m.bits(), Form::of(&m)), (bits, Form::Odd));
    m
}

fn sample() -> Profile {
    let mut p = Profile::new();
    p.notes = vec!["measured on a test machine".to_string()];
    p.set_algorithm(Operation::MulMod, Form::Odd, 2048, Algorithm::MontgomeryInterleaved);
    p.set_algorithm(Operation::MulMod, Form::Odd, 256, Algorithm::Montgomery);
    p.set_algorithm(Operation::PowMod, Form::Even, 1024, Algorithm::Classical);
    p.set_algorithm(Operation::Reduce, Form::Nist, 256, Algorithm::Nist);
    p.set_algorithm(Operation::MulMod, Form::PseudoMersenne, 255, Algorithm::PseudoMersenne);
    p.set_method(1024, Method::SlidingWindow(6));
    p.set_method(64, Method::FixedWindow(3));
    p.set_method(17, Method::Binary);
    p
}

#[test]
fn round_trip() {
    let p = sample();
    let text = p.to_text();
    assert!(text.contains(profile::HEADER), "{text}");
    let back = Profile::parse(&text).unwrap();
    assert_eq!(back.notes, p.notes);
    let mut a = back.algorithms.clone();
    let mut b = p.algorithms.clone();
    a.sort_by_key(|e| (e.op as u8, e.form, e.bits));
    b.sort_by_key(|e| (e.op as u8, e.form, e.bits));
    assert_eq!(a, b);
    let mut ma = back.methods.clone();
    let mut mb = p.methods.clone();
    ma.sort_by_key(|e| e.bits);
    mb.sort_by_key(|e| e.bits);
    assert_eq!(ma, mb);
    // Writing again gives the same text: the format is canonical.
    assert_eq!(back.to_text(), text);
    // set_* replace rather than duplicate.
    let mut q = p.clone();
    q.set_algorithm(Operation::MulMod, Form::Odd, 2048, Algorithm::Barrett);
    q.set_method(1024, Method::Binary);
    assert_eq!(q.algorithms.len(), p.algorithms.len());
    assert_eq!(q.methods.len(), p.methods.len());
}

#[test]
fn hand_written_profile_with_comments() {
    let text = "# my notes\n\n  modred-profile 1  # header\nmulmod odd 512 barrett # a comment\n\
                \tpowm\teven\t4096\tclassical\nmethod 300 fixed-5\n";
    let p = Profile::parse(text).unwrap();
    assert_eq!(p.notes, ["my notes"]);
    assert_eq!(p.algorithms.len(), 2);
    assert_eq!(p.methods[0].method, Method::FixedWindow(5));
}

#[test]
fn method_names() {
    for m in
        [Method::Binary, Method::FixedWindow(1), Method::FixedWindow(16), Method::SlidingWindow(7)]
    {
        assert_eq!(parse_method(&method_name(m)).unwrap(), m);
    }
    for bad in [
        "",
        "sliding",
        "sliding-",
        "sliding-0",
        "sliding-17",
        "fixed-x",
        "fixed--1",
        "fixed-+3",
        "window-4",
        "binary-1",
        "sliding-99999999999999999999",
    ] {
        assert!(parse_method(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn malformed_profiles_are_errors() {
    let h = "modred-profile 1\n";
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "empty"),
        ("# only a comment\n".to_string(), "empty"),
        ("mulmod odd 64 classical\n".to_string(), "expected the header"),
        ("modred-profile 2\n".to_string(), "unsupported profile version"),
        ("modred-profile\n".to_string(), "unsupported profile version"),
        ("modred-profile 1 extra\n".to_string(), "unsupported profile version"),
        (format!("{h}mulmod odd 64\n"), "expected 'OP FORM BITS ALGORITHM'"),
        (format!("{h}mulmod odd 64 classical extra\n"), "expected 'OP FORM BITS ALGORITHM'"),
        (format!("{h}divide odd 64 classical\n"), "unknown operation 'divide'"),
        (format!("{h}mulmod prime 64 classical\n"), "unknown modulus form 'prime'"),
        (format!("{h}mulmod odd 0 classical\n"), "invalid size '0'"),
        (format!("{h}mulmod odd -64 classical\n"), "invalid size '-64'"),
        (format!("{h}mulmod odd +64 classical\n"), "invalid size '+64'"),
        (format!("{h}mulmod odd 64k classical\n"), "invalid size '64k'"),
        (format!("{h}mulmod odd 4294967297 classical\n"), "invalid size"),
        (format!("{h}mulmod odd 99999999999999999999999 classical\n"), "invalid size"),
        (format!("{h}mulmod odd 64 fourier\n"), "unknown algorithm 'fourier'"),
        (format!("{h}mulmod odd 64 auto\n"), "'auto' is what a profile decides"),
        (format!("{h}mulmod even 64 montgomery\n"), "montgomery does not apply"),
        (format!("{h}powm odd 64 nist\n"), "nist does not apply"),
        (format!("{h}powm odd 256 pseudo-mersenne\n"), "pseudo-mersenne does not apply"),
        (format!("{h}powm even 256 solinas\n"), "solinas does not apply"),
        (format!("{h}mulmod odd 64 classical\nmulmod odd 64 barrett\n"), "a second entry"),
        (format!("{h}method 64\n"), "expected 'method BITS METHOD'"),
        (format!("{h}method 64 sliding-0\n"), "unknown exponentiation method"),
        (format!("{h}method 0 binary\n"), "invalid size '0'"),
        (format!("{h}method 64 binary\nmethod 64 fixed-4\n"), "a second method entry"),
        (format!("{h}{h}"), "expected 'OP FORM BITS ALGORITHM'"),
    ];
    for (text, needle) in cases {
        let e = Profile::parse(&text).expect_err(&text).to_string();
        assert!(e.contains(needle), "{text:?}: {e:?} lacks {needle:?}");
        assert!(!e.contains('\n'), "{e:?}");
    }
    // The line number is named.
    let e = Profile::parse(&format!("{h}\n# c\nmulmod odd x classical\n")).unwrap_err().to_string();
    assert!(e.starts_with("profile line 4:"), "{e}");
    // Arbitrary bytes never panic.
    for seed in 0..300u64 {
        let mut rng = SplitMix64::new(seed);
        let junk: String = (0..(seed % 97))
            .map(|_| {
                b"modred-profile 1 \n#\tmulmodpowreduce odd even nist 0123456789 -binaryfixed"
                    [rng.below_u64(72) as usize] as char
            })
            .collect();
        let _ = Profile::parse(&junk);
        let _ = Profile::parse(&format!("{h}{junk}"));
    }
}

#[test]
fn forms_of_moduli() {
    assert_eq!(Form::of(&NistPrime::P256.modulus()), Form::Nist);
    assert_eq!(Form::of(&NistPrime::P521.modulus()), Form::Nist);
    let c25519 = Nat::power_of_two(255).checked_sub(&Nat::from(19u64)).unwrap();
    assert_eq!(Form::of(&c25519), Form::PseudoMersenne);
    // 2^256 − 2^64 − 1 = f(2^64), f = t^4 − t − 1; c = 2^64 + 1 is two digits.
    let gm = nat("0xfffffffffffffffffffffffffffffffffffffffffffffffeffffffffffffffff");
    assert_eq!(Form::of(&gm), Form::Solinas);
    assert_eq!(Form::of(&odd(1000)), Form::Odd);
    assert_eq!(Form::of(&odd(1000).add(&Nat::one())), Form::Even);
    for f in Form::ALL {
        assert_eq!(f.name().parse::<Form>().unwrap(), f);
    }
    for op in Operation::ALL {
        assert_eq!(op.name().parse::<Operation>().unwrap(), op);
    }
}

#[test]
fn auto_follows_the_profile_where_it_decides() {
    let p = sample();
    let m2048 = odd(2048);
    let c = explain_with(&m2048, Operation::MulMod, Some(&p));
    assert_eq!(
        (c.algorithm, c.form, c.from_profile),
        (Algorithm::MontgomeryInterleaved, Form::Odd, true)
    );
    assert!(c.reason.contains("2048"), "{}", c.reason);
    // Nearest entry by the ratio of sizes: 600 bits is nearer 256 (×2.3) than 2048 (×3.4)
    // but beyond a factor two of both: built-in.
    let c = explain_with(&odd(600), Operation::MulMod, Some(&p));
    assert!(!c.from_profile, "{c:?}");
    assert_eq!(c, explain_with(&odd(600), Operation::MulMod, None));
    // 400 bits: within ×2 of 256 only.
    let c = explain_with(&odd(400), Operation::MulMod, Some(&p));
    assert_eq!((c.algorithm, c.from_profile), (Algorithm::Montgomery, true));
    // 4096 bits: exactly ×2 from 2048, still covered; 4097: not.
    assert!(explain_with(&odd(4096), Operation::MulMod, Some(&p)).from_profile);
    assert!(!explain_with(&odd(4097), Operation::MulMod, Some(&p)).from_profile);
    // Other operations and forms without entries: built-in.
    for (m, op) in [(odd(2048), Operation::PowMod), (odd(2048).add(&Nat::one()), Operation::MulMod)]
    {
        assert_eq!(explain_with(&m, op, Some(&p)), explain_with(&m, op, None));
    }
    // An even pseudo-Mersenne modulus: a montgomery entry for the form cannot be used.
    let mut q = Profile::new();
    q.set_algorithm(Operation::MulMod, Form::PseudoMersenne, 255, Algorithm::Montgomery);
    let even_pm = Nat::power_of_two(255).checked_sub(&Nat::from(20u64)).unwrap();
    assert_eq!(Form::of(&even_pm), Form::PseudoMersenne);
    let c = explain_with(&even_pm, Operation::MulMod, Some(&q));
    assert!(!c.from_profile && c.algorithm != Algorithm::Montgomery, "{c:?}");
    // A NIST-form entry naming pseudo-mersenne applies to P-521 (2^521 − 1), not P-256.
    let mut n = Profile::new();
    n.set_algorithm(Operation::MulMod, Form::Nist, 384, Algorithm::PseudoMersenne);
    let c = explain_with(&NistPrime::P521.modulus(), Operation::MulMod, Some(&n));
    assert_eq!((c.algorithm, c.from_profile), (Algorithm::PseudoMersenne, true));
    let c = explain_with(&NistPrime::P256.modulus(), Operation::MulMod, Some(&n));
    assert!(!c.from_profile && c.algorithm != Algorithm::PseudoMersenne, "{c:?}");
    let odd_pm = Nat::power_of_two(255).checked_sub(&Nat::from(19u64)).unwrap();
    assert_eq!(explain_with(&odd_pm, Operation::MulMod, Some(&q)).algorithm, Algorithm::Montgomery);
}

#[test]
fn methods_follow_the_profile_by_exponent_length() {
    let p = sample();
    assert_eq!(choose_method_with(17, Some(&p)).0, Method::Binary);
    assert_eq!(choose_method_with(64, Some(&p)).0, Method::FixedWindow(3));
    assert_eq!(choose_method_with(1500, Some(&p)).0, Method::SlidingWindow(6));
    // 5000 bits: beyond ×2 of 1024: the built-in default.
    assert_eq!(choose_method_with(5000, Some(&p)).0, modred::exp::default_method(5000));
    assert_eq!(choose_method_with(2048, None).0, modred::exp::default_method(2048));
}

// Files and environment variables are the `std` feature's (`tests/without_std.rs` activates
// a profile without them).
#[cfg(feature = "std")]
#[test]
fn activation_and_files() {
    use modred::Modulus;
    let dir = std::env::temp_dir().join(format!("modred-profile-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("profile.txt");
    // A profile that makes a 2048-bit odd modulus use classical for multiplications.
    let mut p = Profile::new();
    p.set_algorithm(Operation::MulMod, Form::Odd, 2048, Algorithm::Classical);
    p.set_algorithm(Operation::PowMod, Form::Odd, 2048, Algorithm::Barrett);
    std::fs::write(&path, p.to_text()).unwrap();

    let loaded = Profile::load(&path).unwrap();
    assert_eq!(loaded.source.as_deref(), Some(path.as_path()));
    assert_eq!(loaded.algorithms, p.algorithms);

    // Files that cannot be used: Err naming the file, never a panic.
    let missing = dir.join("missing.txt");
    assert!(Profile::load(&missing).unwrap_err().to_string().contains("missing.txt"));
    assert!(Profile::load(&dir).unwrap_err().to_string().contains("not a regular file"));
    let binary = dir.join("binary.txt");
    std::fs::write(&binary, [0xff, 0xfe, 0x00, 0x41]).unwrap();
    assert!(Profile::load(&binary).unwrap_err().to_string().contains("not UTF-8"));
    let big = dir.join("big.txt");
    std::fs::write(&big, vec![b'#'; profile::MAX_FILE_BYTES as usize + 1]).unwrap();
    assert!(Profile::load(&big).unwrap_err().to_string().contains("longer than"));
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "modred-profile 1\nmulmod odd 64 nonsense\n").unwrap();
    let e = Profile::load(&bad).unwrap_err().to_string();
    assert!(e.contains("bad.txt") && e.contains("line 2"), "{e}");

    // The default place: MODRED_PROFILE first, empty meaning none.
    std::env::set_var(profile::ENV_VAR, &path);
    assert_eq!(profile::default_path().as_deref(), Some(path.as_path()));
    assert_eq!(Profile::load_default().unwrap().unwrap().algorithms, p.algorithms);
    std::env::set_var(profile::ENV_VAR, &missing);
    assert!(Profile::load_default().is_err(), "a named file that is missing is an error");
    std::env::set_var(profile::ENV_VAR, "");
    assert_eq!(profile::default_path(), None);
    assert_eq!(Profile::load_default().unwrap(), None);
    std::env::remove_var(profile::ENV_VAR);
    std::env::set_var("XDG_CONFIG_HOME", &dir);
    assert_eq!(profile::default_path(), Some(dir.join("modred").join("profile.txt")));
    assert_eq!(Profile::load_default().unwrap(), None, "no file there: no profile, no error");

    // Activation: Modulus follows the profile, deactivation restores the built-in rule.
    let m = odd(2048);
    let builtin_mul = Modulus::for_operation(&m, Operation::MulMod).unwrap().algorithm();
    loaded.activate();
    assert_eq!(
        Modulus::for_operation(&m, Operation::MulMod).unwrap().algorithm(),
        Algorithm::Classical
    );
    let ctx = Modulus::new(&m).unwrap();
    assert_eq!(ctx.algorithm(), Algorithm::Barrett);
    // The results do not change, only the algorithm.
    let x = Nat::from(123_456_789u64);
    let want = Modulus::with(Algorithm::Classical, &m).unwrap().pow_mod_vartime(&x, &m);
    assert_eq!(ctx.pow_mod_vartime(&x, &m), want);
    assert!(profile::active().is_some());
    profile::deactivate();
    assert!(profile::active().is_none());
    assert_eq!(Modulus::for_operation(&m, Operation::MulMod).unwrap().algorithm(), builtin_mul);
    std::fs::remove_dir_all(&dir).unwrap();
}
