//! Inputs of 10^8 bits: handled, or refused with a clear error, never an abort
//! or an hours-long hang. Hexadecimal text converts in linear time; decimal text longer
//! than `nat::MAX_DECIMAL_DIGITS` is refused (quadratic conversion); the constant-time
//! exponentiation refuses an exponent wider than the modulus.
//!
//! Arithmetic modulo a 10^8-bit modulus is handled, only slowly, so it is not run here:
//! measured once (release build, on a shared 2-core machine), a generic odd 10^8-bit
//! modulus took 100 s for `Modulus::new` (the transform reducer's precalculation),
//! 19 s for a residue and a product, 8 s for `reduce(m²)`; at 10^7 bits 5.5 s, 1.1 s and
//! 0.5 s. A variable-time exponentiation runs one squaring per exponent bit: its work is
//! estimated before it starts and refused above the modulus's work limit (`tests/limits.rs`).

use modred::nat::MAX_DECIMAL_DIGITS;
use modred::{Error, Modulus, Nat};
use std::time::Instant;

const HUNDRED_MILLION: u64 = 100_000_000;

#[test]
fn hundred_million_bit_hex_parses() {
    let text = format!("0x{}", "f".repeat((HUNDRED_MILLION / 4) as usize));
    let n: Nat = text.parse().expect("hexadecimal has no length limit");
    assert_eq!(n.bits(), HUNDRED_MILLION);
    assert_eq!(n.limbs().len() as u64, HUNDRED_MILLION.div_ceil(64));
    assert!(n.limbs().iter().all(|&d| d == u64::MAX));
}

#[test]
fn hundred_million_bit_decimal_is_refused() {
    // 10^8 bits are 30 102 999 decimal digits.
    let text = "9".repeat(30_103_000);
    let start = Instant::now();
    match text.parse::<Nat>() {
        Err(Error::Parse { input, reason }) => {
            assert!(reason.contains("too long") && reason.contains("30103000"), "{reason}");
            assert!(input.len() < 100, "the input is abbreviated in the message");
        }
        other => panic!("{:?}", other.map(|n| n.bits())),
    }
    assert!(start.elapsed().as_secs() < 30, "refused without converting");
}

#[test]
fn decimal_limit_is_exact() {
    // Leading zeros keep the value (and the conversion) small: only the length counts.
    let at = "0".repeat(MAX_DECIMAL_DIGITS - 1) + "7";
    assert_eq!(at.parse::<Nat>().unwrap(), Nat::from(7u64));
    let over = "0".repeat(MAX_DECIMAL_DIGITS) + "7";
    assert!(matches!(over.parse::<Nat>(), Err(Error::Parse { .. })));
    assert!(matches!(Nat::<u8>::from_str_radix(&over, 10), Err(Error::Parse { .. })));
    // Hexadecimal of the same length is fine.
    assert_eq!(Nat::<u64>::from_str_radix(&over, 16).unwrap(), Nat::from(7u64));
}

#[test]
fn megabit_modulus_is_handled() {
    // A generic odd modulus of 2^20 bits (a transform reducer) and one near a power of
    // two (pseudo-Mersenne): residues, a product and a one-off reduction.
    let generic = Nat::from_str_radix(&("9e3779b97f4a7c15".repeat(1 << 14) + "b"), 16).unwrap();
    let special = &Nat::power_of_two(1 << 20) - &Nat::from(3u64);
    for m in [generic, special] {
        let md = Modulus::new(&m).unwrap();
        let a = md.residue(&(&m - &Nat::from(5u64)));
        assert_eq!(md.to_nat(&md.mul(&a, &a).unwrap()), Ok(Nat::from(25u64)), "{}", md.algorithm());
        let x = &m.sqr() + &Nat::from(11u64);
        assert_eq!(md.reduce(&x).unwrap(), Nat::from(11u64));
    }
}

#[test]
fn hundred_million_bit_exponent_is_refused_by_pow_ct() {
    let m = Nat::from_str_radix(&"9e3779b97f4a7c15".repeat(4), 16).unwrap();
    let md = Modulus::new(&m).unwrap();
    let e = Nat::power_of_two(HUNDRED_MILLION - 1);
    let start = Instant::now();
    let base = md.residue(&Nat::from(3u64));
    assert!(matches!(md.pow_ct(&base, &e), Err(Error::OutOfRange { .. })));
    assert!(start.elapsed().as_secs() < 30);
}
