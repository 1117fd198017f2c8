//! `Nat` through its public API, as a user sees it: properties checked by proptest against
//! num-bigint (regressions kept in `proptest-regressions/nat.txt`), the parser's answer
//! for arbitrary text, and the documented panics of the operators.

use modred::{Counted, Error, Limb, Nat};
use num_bigint::BigUint;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

fn big<L: Limb>(n: &Nat<L>) -> BigUint {
    BigUint::from_bytes_le(&n.to_bytes_le())
}

fn nat<L: Limb>(x: &BigUint) -> Nat<L> {
    Nat::from_bytes_le(&x.to_bytes_le())
}

/// Up to 40 `u64` digits (2560 bits): across both Karatsuba thresholds.
fn nat64() -> impl Strategy<Value = Nat<u64>> {
    prop::collection::vec(any::<u64>(), 0..40).prop_map(Nat::from_vec)
}

/// Up to 120 `u8` digits, often with long runs of 0x00 and 0xff.
fn nat8() -> impl Strategy<Value = Nat<u8>> {
    let digit = prop_oneof![any::<u8>(), Just(0u8), Just(0xffu8), Just(0x80u8)];
    prop::collection::vec(digit, 0..120).prop_map(Nat::from_vec)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/nat.txt",
        ))),
        ..ProptestConfig::default()
    }
}

fn check_arithmetic<L: Limb>(a: &Nat<L>, b: &Nat<L>) -> Result<(), TestCaseError> {
    let (x, y) = (big(a), big(b));
    prop_assert_eq!(big(&(a + b)), &x + &y);
    prop_assert_eq!(big(&(a * b)), &x * &y);
    prop_assert_eq!(big(&a.sqr()), &x * &x);
    prop_assert_eq!(a.cmp(b), x.cmp(&y));
    prop_assert_eq!(a.checked_sub(b).map(|d| big(&d)), (x >= y).then(|| &x - &y));
    match a.div_rem(b) {
        None => prop_assert!(b.is_zero()),
        Some((q, r)) => {
            prop_assert_eq!(big(&q), &x / &y);
            prop_assert_eq!(big(&r), &x % &y);
        }
    }
    // The product is divisible by each factor, with the other as quotient.
    if !b.is_zero() {
        let (q, r) = (a * b).div_rem(b).unwrap();
        prop_assert_eq!(&q, a);
        prop_assert!(r.is_zero());
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arithmetic_u64(a in nat64(), b in nat64()) {
        check_arithmetic(&a, &b)?;
    }

    #[test]
    fn arithmetic_u8(a in nat8(), b in nat8()) {
        check_arithmetic(&a, &b)?;
        check_arithmetic(&a.to_radix::<Counted<u16>>(), &b.to_radix())?;
    }

    #[test]
    fn shifts(a in nat64(), n in 0u64..3000) {
        let x = big(&a);
        prop_assert_eq!(big(&a.shl(n)), &x << n);
        prop_assert_eq!(big(&a.shr(n)), &x >> n);
        prop_assert_eq!(big(&a.low_bits(n)), &x % (BigUint::from(1u8) << n));
        prop_assert_eq!(a.shl(n).shr(n), a);
    }

    #[test]
    fn format_parse_round_trip(a in nat64()) {
        let x = big(&a);
        prop_assert_eq!(a.to_string(), x.to_string());
        prop_assert_eq!(format!("{a:#x}"), format!("{x:#x}"));
        prop_assert_eq!(a.to_string().parse::<Nat<u64>>().unwrap(), a.clone());
        prop_assert_eq!(format!("{a:#x}").parse::<Nat<u64>>().unwrap(), a.clone());
        let small: Nat<u8> = a.to_string().parse().unwrap();
        prop_assert_eq!(small.to_radix::<u64>(), a.clone());
        prop_assert_eq!(nat::<u16>(&x).to_hex(), a.to_hex());
    }

    /// Any text: a number exactly when it is decimal digits, or `0x`/`0X` and hex digits;
    /// otherwise a parse error, never a panic.
    #[test]
    fn parse_any_text(s in "(0[xX])?[-+ 0-9a-fA-FxX_]{0,30}|\\PC{0,12}") {
        let hex = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"));
        let expected = match hex {
            Some(h) if !h.is_empty() && h.bytes().all(|c| c.is_ascii_hexdigit()) => {
                BigUint::parse_bytes(h.as_bytes(), 16)
            }
            Some(_) => None,
            None if !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit()) => {
                BigUint::parse_bytes(s.as_bytes(), 10)
            }
            None => None,
        };
        match (s.parse::<Nat<u32>>(), expected) {
            (Ok(n), Some(x)) => prop_assert_eq!(big(&n), x),
            (Err(Error::Parse { .. }), None) => {}
            (got, want) => prop_assert!(false, "{:?}: got {:?}, want {:?}", s, got, want),
        }
    }
}

/// The schoolbook product is the product at every length (across the Karatsuba
/// threshold, unbalanced, empty operands) and takes exactly `a.len()·b.len()` digit
/// multiplications on the counting digit.
#[test]
fn schoolbook_product() {
    use modred::limb::count_ops;
    use modred::nat::{mul_into, mul_schoolbook_into};
    let digits = |n: usize, seed: u64| -> Vec<u64> {
        (0..n as u64).map(|i| (i + seed).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ seed).collect()
    };
    for (n, m) in [(0, 3), (3, 0), (1, 1), (5, 2), (2, 5), (40, 40), (70, 33)] {
        let (a, b) = (digits(n, 1), digits(m, 2));
        let (mut r, mut want) = (vec![7u64; n + m], vec![0u64; n + m]);
        mul_schoolbook_into(&mut r, &a, &b);
        mul_into(&mut want, &a, &b);
        assert_eq!(r, want, "{n}×{m}");
        let ca: Vec<Counted<u64>> = a.iter().map(|&d| Counted(d)).collect();
        let cb: Vec<Counted<u64>> = b.iter().map(|&d| Counted(d)).collect();
        let mut cr = vec![Counted(0u64); n + m];
        let counts = count_ops(|| mul_schoolbook_into(&mut cr, &ca, &cb)).1;
        assert_eq!(counts.mul, (n * m) as u64, "{n}×{m}");
    }
}

#[test]
fn display_and_hex_formatting() {
    let n: Nat = "0xdeadbeefcafebabe0123456789abcdef".parse().unwrap();
    assert_eq!(n.to_string(), "295990755076957304698161171062762229231");
    assert_eq!(format!("{n:x}"), "deadbeefcafebabe0123456789abcdef");
    assert_eq!(format!("{n:#x}"), "0xdeadbeefcafebabe0123456789abcdef");
    assert_eq!(
        format!("{:>6}|{:<6}|{:06}", Nat::<u8>::from(42), Nat::<u8>::from(42), Nat::<u8>::from(42)),
        "    42|42    |000042"
    );
    assert_eq!(format!("{:#06x}", Nat::<u16>::from(255)), "0x00ff");
    assert_eq!(Nat::<u32>::zero().to_string(), "0");
    assert_eq!(format!("{:#x}", Nat::<u32>::zero()), "0x0");
}

#[test]
fn parse_errors_say_what_is_wrong() {
    let cases = [
        ("", "empty"),
        ("0x", "empty"),
        ("-5", "negative"),
        ("12a", "'a'"),
        (" 1", "' '"),
        ("0x-1", "'-'"),
    ];
    for (input, says) in cases {
        let msg = input.parse::<Nat>().unwrap_err().to_string();
        assert!(msg.starts_with("invalid number"), "{input:?}: {msg}");
        assert!(msg.contains(says), "{input:?}: {msg}");
    }
}

#[test]
#[should_panic(expected = "underflow")]
fn subtraction_below_zero_panics() {
    let _ = &Nat::<u64>::from(1) - &Nat::from(2);
}

#[test]
#[should_panic(expected = "division by zero")]
fn remainder_by_zero_panics() {
    let _ = &Nat::<u64>::from(1) % &Nat::zero();
}

#[test]
#[should_panic(expected = "division by zero")]
fn quotient_by_zero_panics() {
    let _ = &Nat::<u64>::from(1) / &Nat::zero();
}
