//! Automatic contexts of one-digit moduli run their exponentiations and one-off
//! reductions in registers (`exp::word`, [`Power::Word`], [`Product::Word`]): checked
//! against num-bigint and the forced algorithms' slice code for moduli at the edges of
//! the normalization (1, 2, powers of two and their neighbours, 2^64 − 1, pseudo-Mersenne
//! 2^64 − 59, even ones split by CRT) and seeded random ones, bases and exponents of zero
//! to three digits, every operation's context, and `Modulus::pow_mod_once`, which keeps
//! none.

use modred::engine::{Power, Product};
use modred::{Algorithm, Error, Limits, Modulus, Nat, Operation};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;

fn big(n: &Nat) -> BigUint {
    BigUint::from_bytes_le(&n.to_bytes_le())
}

#[test]
fn one_digit_contexts_against_num_bigint() {
    let mut rng = SplitMix64::new(0x0d16_1700);
    // Even ones with odd parts of one to 62 bits beside the powers of two.
    let mut moduli: Vec<u64> =
        vec![1, 2, 3, 4, 5, 6, 12, u64::MAX, u64::MAX - 1, u64::MAX - 58, 3 << 62, 5 << 61];
    for k in [1, 31, 32, 33, 62, 63] {
        moduli.extend([1u64 << k, (1u64 << k) - 1, (1u64 << k) + 1]);
    }
    for _ in 0..40 {
        let m = rng.next_u64() >> (rng.next_u64() % 64);
        moduli.push(m.max(1));
    }
    for &m in &moduli {
        let mn = Nat::from(m);
        for op in [Operation::Reduce, Operation::MulMod, Operation::PowMod] {
            let md = Modulus::for_operation(&mn, op).unwrap();
            assert_eq!(md.plan().power, Power::Word, "m = {m}, {op}");
            assert_eq!(md.plan().reduce, (Algorithm::Classical, Product::Word), "m = {m}, {op}");
            for _ in 0..6 {
                let x = Nat::from_vec((0..rng.next_u64() % 4).map(|_| rng.next_u64()).collect());
                let e = Nat::from_vec((0..rng.next_u64() % 4).map(|_| rng.next_u64()).collect());
                let want_r = big(&x) % m;
                assert_eq!(big(&md.reduce(&x).unwrap()), want_r, "{x:?} mod {m}");
                let want = big(&x).modpow(&big(&e), &BigUint::from(m));
                assert_eq!(big(&md.pow_mod_vartime(&x, &e).unwrap()), want, "{x:?}^{e:?} mod {m}");
                let r = md.pow_vartime(&md.residue(&x), &e).unwrap();
                assert_eq!(big(&md.to_nat(&r).unwrap()), want, "residue {x:?}^{e:?} mod {m}");
                // Without a context: the same register code, prepared for this one power.
                let once = Modulus::pow_mod_once(&x, &e, &mn, Limits::new()).unwrap();
                assert_eq!(big(&once), want, "once {x:?}^{e:?} mod {m}");
                // The forced slice code of the same modulus agrees.
                let forced = Modulus::with(Algorithm::Classical, &mn).unwrap();
                assert_eq!(
                    forced.pow_mod_vartime(&x, &e).unwrap(),
                    md.pow_mod_vartime(&x, &e).unwrap()
                );
            }
        }
        // Forced algorithms keep their own code.
        let forced = Modulus::with(Algorithm::Barrett, &mn).unwrap();
        assert_ne!(forced.plan().power, Power::Word);
    }
}

#[test]
fn one_digit_limits_still_apply() {
    // An exponent or a dividend over the work limit is refused before it starts, as on
    // every other path.
    let limits = Limits::new().with_max_work(1000);
    let m = Nat::from(1_000_003u64);
    let md = Modulus::with_limits(Algorithm::Auto, Operation::PowMod, &m, limits).unwrap();
    assert_eq!(md.plan().power, Power::Word);
    let e = Nat::power_of_two(1 << 16);
    assert!(matches!(md.pow_mod_vartime(&Nat::from(2u64), &e), Err(Error::TooMuchWork { .. })));
    assert!(matches!(md.pow_vartime(&md.one(), &e), Err(Error::TooMuchWork { .. })));
    let x = Nat::power_of_two(1 << 20);
    assert!(matches!(md.reduce(&x), Err(Error::TooMuchWork { .. })));
    let once = Modulus::pow_mod_once(&Nat::from(2u64), &e, &m, limits);
    assert!(matches!(once, Err(Error::TooMuchWork { .. })), "{once:?}");
    assert_eq!(
        Modulus::pow_mod_once(&Nat::from(2u64), &Nat::from(20u64), &m, limits).unwrap(),
        Nat::from(48_573u64)
    );
    let zero = Modulus::pow_mod_once(&Nat::from(2u64), &Nat::from(3u64), &Nat::zero(), limits);
    assert!(matches!(zero, Err(Error::ZeroModulus)), "{zero:?}");
    assert_eq!(
        md.pow_mod_vartime(&Nat::from(2u64), &Nat::from(20u64)).unwrap(),
        Nat::from(48_573u64)
    );
}

/// Longer moduli, odd and even, without a context: the automatic exponentiation context made
/// for the one power, against num-bigint.
#[test]
fn exponentiation_without_a_context_beyond_one_digit() {
    let mut rng = SplitMix64::new(0x0d16_1701);
    for bits in [65u64, 128, 129, 256, 521, 1024] {
        for even in [false, true] {
            let mut limbs = rng.odd_modulus(bits);
            if even {
                limbs[0] &= !1;
            }
            let m = Nat::from_vec(limbs);
            let x = Nat::from_vec((0..m.len() + 1).map(|_| rng.next_u64()).collect());
            let e = Nat::from_vec((0..2).map(|_| rng.next_u64()).collect());
            let want = big(&x).modpow(&big(&e), &big(&m));
            let once = Modulus::pow_mod_once(&x, &e, &m, Limits::new()).unwrap();
            assert_eq!(big(&once), want, "{bits} bits, even: {even}");
        }
    }
}
