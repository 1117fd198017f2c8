//! Fixed-size prime fields (paper 003 §2.1–2.2): ring axioms, inverses, and agreement of
//! the standard and Montgomery representations with each other and with num-bigint, for
//! NIST, pseudo-Mersenne and generic primes of 1 to 9 digits.

use modred::field::{Fe, PrimeField, Representation};
use modred::reduce::NistPrime;
use modred::Nat;
use num_bigint::BigUint;
use proptest::prelude::*;

fn big(n: &Nat) -> BigUint {
    BigUint::from_bytes_le(&n.to_bytes_le())
}

fn nat(b: &BigUint) -> Nat {
    Nat::from_bytes_le(&b.to_bytes_le())
}

fn pm(n: u64, c: u64) -> Nat {
    &Nat::power_of_two(n) - &Nat::from(c)
}

/// Checks every operation on `a, b, c` (below p) in both representations.
fn check<const N: usize>(p: &Nat, a: &BigUint, b: &BigUint, c: &BigUint) {
    let bp = big(p);
    let (a, b, c) = (a % &bp, b % &bp, c % &bp);
    let std = PrimeField::<N>::new(p, Representation::Standard).unwrap();
    let mont = PrimeField::<N>::new(p, Representation::Montgomery).unwrap();
    let mut results: Vec<Vec<BigUint>> = Vec::new();
    for f in [&std, &mont] {
        let (x, y, z) = (f.from_nat(&nat(&a)), f.from_nat(&nat(&b)), f.from_nat(&nat(&c)));
        let v = |e: &Fe<N>| big(&f.to_nat(e));
        assert_eq!(v(&x), a);
        // Against num-bigint.
        assert_eq!(v(&f.add(&x, &y)), (&a + &b) % &bp);
        assert_eq!(v(&f.sub(&x, &y)), (&a + &bp - &b) % &bp);
        assert_eq!(v(&f.neg(&x)), (&bp - &a) % &bp);
        assert_eq!(v(&f.mul(&x, &y)), (&a * &b) % &bp);
        assert_eq!(v(&f.sqr(&x)), (&a * &a) % &bp);
        // Ring axioms.
        assert_eq!(f.add(&x, &y), f.add(&y, &x));
        assert_eq!(f.mul(&x, &y), f.mul(&y, &x));
        assert_eq!(f.add(&f.add(&x, &y), &z), f.add(&x, &f.add(&y, &z)));
        assert_eq!(f.mul(&f.mul(&x, &y), &z), f.mul(&x, &f.mul(&y, &z)));
        assert_eq!(f.mul(&x, &f.add(&y, &z)), f.add(&f.mul(&x, &y), &f.mul(&x, &z)));
        assert_eq!(f.add(&x, &f.zero()), x);
        assert_eq!(f.mul(&x, &f.one()), x);
        assert_eq!(f.add(&x, &f.neg(&x)), f.zero());
        assert_eq!(f.sub(&x, &y), f.add(&x, &f.neg(&y)));
        // Inverse: a·a⁻¹ = 1, and 0 for 0.
        let xi = f.inv(&x);
        if x == f.zero() {
            assert_eq!(xi, f.zero());
        } else {
            assert_eq!(f.mul(&x, &xi), f.one());
            assert_eq!(v(&xi), a.modinv(&bp).expect("a prime modulus"));
        }
        results.push(
            [
                f.mul(&f.add(&x, &y), &f.sub(&z, &x)),
                f.sqr(&f.mul(&x, &z)),
                f.inv(&f.add(&y, &f.one())),
            ]
            .iter()
            .map(v)
            .collect(),
        );
    }
    // The same computation in both representations gives the same field elements.
    assert_eq!(results[0], results[1]);
}

fn edges(p: &Nat) -> Vec<BigUint> {
    let bp = big(p);
    vec![BigUint::from(0u32), BigUint::from(1u32), &bp - 1u32, &bp - 2u32, &bp >> 1u32]
}

fn check_edges<const N: usize>(p: &Nat) {
    let e = edges(p);
    for a in &e {
        for b in &e {
            check::<N>(p, a, b, &e[3]);
        }
    }
}

#[test]
fn edge_elements() {
    check_edges::<4>(&NistPrime::P256.modulus());
    check_edges::<4>(&NistPrime::P224.modulus());
    check_edges::<3>(&NistPrime::P192.modulus());
    check_edges::<6>(&NistPrime::P384.modulus());
    check_edges::<7>(&NistPrime::P448.modulus());
    check_edges::<8>(&NistPrime::P512.modulus());
    check_edges::<9>(&NistPrime::P521.modulus());
    check_edges::<4>(&pm(255, 19));
    check_edges::<4>(&pm(256, 189));
    check_edges::<3>(&pm(130, 5));
    check_edges::<2>(&pm(127, 1));
    check_edges::<1>(&pm(61, 1));
    check_edges::<1>(&Nat::from(1_000_003u64));
    check_edges::<3>(&pm(192, 237));
}

/// A prime of no special form of `n` digits (modred-testkit's).
fn phi_prime(n: usize) -> Nat {
    Nat::from_vec(modred_testkit::primes::generic_prime(n))
}

/// The inverse in every field kind (NIST, pseudo-Mersenne and generic primes; standard and
/// Montgomery representation) and every size from 1 to 16 digits: `a·inv(a) = 1` against
/// num-bigint's modular inverse on edge and random elements, `inv(0) = 0`.
#[test]
fn inverse_in_every_kind_and_size() {
    fn check_inv<const N: usize>(p: &Nat, seed: u64) {
        let bp = big(p);
        let mut rng = modred_testkit::SplitMix64::new(seed);
        let mut values = edges(p);
        for _ in 0..8 {
            values.push(
                BigUint::from_bytes_le(
                    &Nat::from_vec(rng.below_pow2(64 * N as u64 + 3)).to_bytes_le(),
                ) % &bp,
            );
        }
        for repr in [Representation::Standard, Representation::Montgomery] {
            let f = PrimeField::<N>::new(p, repr).unwrap();
            assert_eq!(f.inv(&f.zero()), f.zero(), "{repr:?} N = {N}");
            for a in &values {
                let x = f.from_nat(&nat(a));
                let xi = f.inv(&x);
                match a.modinv(&bp) {
                    Some(want) => assert_eq!(big(&f.to_nat(&xi)), want, "{repr:?} N = {N}"),
                    None => assert_eq!(xi, f.zero()),
                }
            }
        }
    }
    macro_rules! generic {
        ($($n:literal),*) => { $( check_inv::<$n>(&phi_prime($n), $n); )* };
    }
    generic!(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
    for prime in NistPrime::ALL {
        let p = prime.modulus();
        match p.len() {
            3 => check_inv::<3>(&p, 3),
            4 => check_inv::<4>(&p, 4),
            6 => check_inv::<6>(&p, 6),
            7 => check_inv::<7>(&p, 7),
            8 => check_inv::<8>(&p, 8),
            9 => check_inv::<9>(&p, 9),
            n => panic!("a NIST prime of {n} digits"),
        }
    }
    check_inv::<4>(&pm(255, 19), 19);
    check_inv::<4>(&pm(256, 189), 189);
    check_inv::<3>(&pm(130, 5), 5);
    check_inv::<2>(&pm(127, 1), 1);
    check_inv::<1>(&pm(64, 59), 59);
    check_inv::<1>(&Nat::from(3u64), 33);
}

#[test]
fn bad_fields_are_refused() {
    assert!(PrimeField::<4>::new(&NistPrime::P192.modulus(), Representation::Standard).is_err());
    assert!(PrimeField::<4>::new(&pm(256, 1), Representation::Standard).is_err()); // not prime
    assert!(PrimeField::<1>::new(&Nat::from(2u64), Representation::Montgomery).is_err());
    assert!(PrimeField::<1>::new(&Nat::from(15u64), Representation::Montgomery).is_err());
}

fn below(bits: usize) -> impl Strategy<Value = BigUint> {
    prop::collection::vec(any::<u32>(), bits.div_ceil(32)).prop_map(BigUint::new)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn p256(a in below(256), b in below(256), c in below(256)) {
        check::<4>(&NistPrime::P256.modulus(), &a, &b, &c);
    }

    #[test]
    fn p384_p521(a in below(521), b in below(521), c in below(521)) {
        check::<6>(&NistPrime::P384.modulus(), &a, &b, &c);
        check::<9>(&NistPrime::P521.modulus(), &a, &b, &c);
    }

    #[test]
    fn pseudo_mersenne(a in below(256), b in below(256), c in below(256)) {
        check::<4>(&pm(255, 19), &a, &b, &c);
        check::<4>(&pm(256, 189), &a, &b, &c);
        check::<3>(&pm(130, 5), &a, &b, &c);
    }

    #[test]
    fn generic(a in below(200), b in below(200), c in below(200)) {
        // 2^191 + 95, the least prime above 2^191 + 0x15: not special; classical reduction
        // in the standard representation (`PrimeField::new` checks that it is prime).
        let q = nat(&(BigUint::from(1u32) << 191u32)).add(&Nat::from(95u64));
        check::<3>(&q, &a, &b, &c);
    }
}
