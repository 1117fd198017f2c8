//! Bad input is an error, never a panic: a zero modulus, an even modulus for the
//! Montgomery forms, `auto` without a modulus context, arguments at or beyond a bound.

mod reduce_util;

use modred::reduce::{make, Barrett, Classical, Montgomery, MontgomeryInterleaved, Reducer};
use modred::{Algorithm, Error, Nat};
use reduce_util::{to_big, ALGORITHMS};

#[test]
fn zero_modulus_is_an_error_for_every_reducer() {
    let zero = Nat::<u64>::zero();
    assert_eq!(Classical::new(&zero).unwrap_err(), Error::ZeroModulus);
    assert_eq!(Barrett::new(&zero).unwrap_err(), Error::ZeroModulus);
    assert_eq!(Montgomery::new(&zero).unwrap_err(), Error::ZeroModulus);
    assert_eq!(MontgomeryInterleaved::new(&zero).unwrap_err(), Error::ZeroModulus);
    for alg in ALGORITHMS {
        assert_eq!(make(alg, &zero).err(), Some(Error::ZeroModulus), "{alg}");
    }
}

#[test]
fn even_modulus_is_not_applicable_to_montgomery() {
    for m in [2u64, 4, 256, 1 << 40, u64::MAX - 1] {
        let m = Nat::<u64>::from_u64(m);
        for alg in [Algorithm::Montgomery, Algorithm::MontgomeryInterleaved] {
            match make(alg, &m).err() {
                Some(e @ Error::NotApplicable { algorithm, .. }) => {
                    assert_eq!(algorithm, alg.name());
                    assert!(e.to_string().contains("odd modulus"), "{e}");
                }
                other => panic!("{alg}: expected NotApplicable, got {other:?}"),
            }
        }
        // The others take it.
        assert!(make(Algorithm::Classical, &m).is_ok() && make(Algorithm::Barrett, &m).is_ok());
    }
    // An even modulus with u8 digits too.
    assert!(matches!(
        Montgomery::<u8>::new(&Nat::from_u64(0x1000)),
        Err(Error::NotApplicable { .. })
    ));
}

#[test]
fn auto_must_be_resolved_first() {
    match make(Algorithm::Auto, &Nat::<u64>::from_u64(7)) {
        Err(Error::InvalidArgument(msg)) => assert!(msg.contains("auto"), "{msg}"),
        other => panic!("expected InvalidArgument, got {:?}", other.err()),
    }
}

#[test]
fn arguments_beyond_the_bound_are_out_of_range() {
    let m = Nat::<u64>::from_u128(0xffff_ffff_ffff_ffc5_0000_0000_0000_0001); // two digits
    let k = m.len() as u64;
    let b2k = Nat::<u64>::power_of_two(128 * k);
    let mbk = m.shl(64 * k);
    let one = Nat::one();
    for (alg, bound) in [
        (Algorithm::Barrett, &b2k),
        (Algorithm::Montgomery, &mbk),
        (Algorithm::MontgomeryInterleaved, &mbk),
    ] {
        let r = make(alg, &m).unwrap();
        for x in [bound.clone(), bound.add(&one), bound.shl(1000)] {
            match r.reduce(&x) {
                Err(e @ Error::OutOfRange { algorithm, .. }) => {
                    assert_eq!(algorithm, alg.name());
                    assert!(e.to_string().contains(r.bound_formula()), "{e}");
                }
                other => panic!("{alg}: expected OutOfRange, got {other:?}"),
            }
        }
        // Just below the bound is fine, and conversions take any argument.
        let below = bound.checked_sub(&one).unwrap();
        let want = to_big(&below) % to_big(&m);
        assert_eq!(to_big(&r.reduce(&below).unwrap()), want);
        let huge = bound.shl(1000).add(&one);
        let want = to_big(&huge) % to_big(&m);
        assert_eq!(to_big(&r.from_residue(&r.to_residue(&huge))), want, "{alg}");
    }
    // Classical has no bound.
    let r = make(Algorithm::Classical, &m).unwrap();
    let huge = b2k.shl(5000).add(&one);
    assert_eq!(to_big(&r.reduce(&huge).unwrap()), to_big(&huge) % to_big(&m));
}

#[test]
fn barrett_quotient_estimate_checks_its_bound() {
    let m = Nat::<u16>::from_u64(0x1234_5677);
    let r = Barrett::new(&m).unwrap();
    assert!(matches!(r.quotient_estimate(&Nat::power_of_two(64)), Err(Error::OutOfRange { .. })));
    let x = Nat::power_of_two(64).checked_sub(&Nat::one()).unwrap();
    let q = to_big(&r.quotient_estimate(&x).unwrap());
    let exact = to_big(&x) / to_big(&m);
    assert!(q <= exact && exact - q <= 3u32.into());
}
