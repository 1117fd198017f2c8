//! `Modulus` against num-bigint: its arithmetic on residues, the one-shot operations, the
//! auto rule, and the errors.

use modred::exp::Method;
use modred::modulus::choose;
use modred::{Algorithm, Error, Modulus, Nat, Operation};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;

/// Every algorithm, `auto` included.
const IMPLEMENTED: &[Algorithm] = Algorithm::ALL;

/// Whether `algorithm` applies to `m > 0` (the registry's facts).
fn applies(algorithm: Algorithm, m: &Nat) -> bool {
    algorithm.applies(m)
}

fn big(x: &Nat) -> BigUint {
    BigUint::from_bytes_le(&x.to_bytes_le())
}

/// Odd and even moduli from 1 to 2048 bits, and 1, 2, 3.
fn moduli(rng: &mut SplitMix64) -> Vec<Nat> {
    let mut v: Vec<Nat> = [1u64, 2, 3].into_iter().map(Nat::from).collect();
    for bits in [8u64, 64, 65, 128, 521, 1024, 2048] {
        let x = Nat::from_vec(rng.exact_bits(bits));
        let (odd, even) = if x.is_odd() {
            (x.clone(), &x - &Nat::one())
        } else {
            (x.add(&Nat::one()), x.clone())
        };
        v.extend([odd, even]);
    }
    v.push(&Nat::power_of_two(256) - &Nat::one());
    v.push(Nat::power_of_two(255));
    // Special primes (paper 003): pseudo-Mersenne, generalized Mersenne, NIST.
    v.push(&Nat::power_of_two(255) - &Nat::from(19u64));
    v.push(modred::reduce::NistPrime::P256.modulus());
    v.push(modred::reduce::NistPrime::P521.modulus());
    v
}

/// Every operation of `md` against num-bigint on operands of all sizes.
fn check_arithmetic(md: &Modulus, rng: &mut SplitMix64) {
    let m = md.modulus().clone();
    let bm = big(&m);
    let bits = m.bits();
    let mut xs = vec![Nat::zero(), Nat::one(), m.clone(), m.add(&Nat::one()), m.sqr()];
    if let Some(m1) = m.checked_sub(&Nat::one()) {
        xs.push(m1);
    }
    xs.extend([
        Nat::from_vec(rng.below_pow2(bits)),
        Nat::from_vec(rng.below_pow2(bits)),
        Nat::from_vec(rng.below_pow2(3 * bits + 70)),
    ]);
    let es = [
        Nat::zero(),
        Nat::one(),
        Nat::from(2u64),
        Nat::from_vec(rng.below_pow2(bits.min(300))),
        Nat::from_vec(rng.below_pow2(20)),
    ];
    let ctx = format!("{} mod {m:#x}", md.algorithm());
    for x in &xs {
        let (bx, a) = (big(x), md.residue(x));
        assert_eq!(big(&md.to_nat(&a).unwrap()), &bx % &bm, "residue/to_nat, {ctx}");
        match md.reduce(x) {
            Ok(r) => assert_eq!(big(&r), &bx % &bm, "reduce {x:#x}, {ctx}"),
            // Only a forced bounded algorithm refuses, and never below m².
            Err(e) => assert!(
                !md.is_auto() && md.algorithm() != Algorithm::Classical && *x >= m.sqr(),
                "reduce {x:#x}, {ctx}: {e}"
            ),
        }
        assert_eq!(
            big(&md.to_nat(&md.neg(&a).unwrap()).unwrap()),
            (&bm - &bx % &bm) % &bm,
            "neg, {ctx}"
        );
        assert_eq!(big(&md.to_nat(&md.sqr(&a).unwrap()).unwrap()), &bx * &bx % &bm, "sqr, {ctx}");
        for y in xs.iter().step_by(2) {
            let (by, b) = (big(y), md.residue(y));
            let (rx, ry) = (&bx % &bm, &by % &bm);
            assert_eq!(
                big(&md.to_nat(&md.add(&a, &b).unwrap()).unwrap()),
                (&rx + &ry) % &bm,
                "add, {ctx}"
            );
            assert_eq!(
                big(&md.to_nat(&md.sub(&a, &b).unwrap()).unwrap()),
                (&rx + &bm - &ry) % &bm,
                "sub, {ctx}"
            );
            assert_eq!(
                big(&md.to_nat(&md.mul(&a, &b).unwrap()).unwrap()),
                &bx * &by % &bm,
                "mul, {ctx}"
            );
            assert_eq!(big(&md.mul_mod(x, y)), &bx * &by % &bm, "mul_mod, {ctx}");
        }
        for e in &es {
            let expected = bx.modpow(&big(e), &bm);
            assert_eq!(
                big(&md.to_nat(&md.pow_vartime(&a, e).unwrap()).unwrap()),
                expected,
                "pow {x:#x}^{e:#x}, {ctx}"
            );
            assert_eq!(big(&md.pow_mod_vartime(x, e).unwrap()), expected, "pow_mod, {ctx}");
            for method in [Method::Binary, Method::FixedWindow(3), Method::SlidingWindow(5)] {
                let got = md.to_nat(&md.pow_with_vartime(&a, e, method).unwrap());
                assert_eq!(big(&got.unwrap()), expected, "{method:?}, {ctx}");
            }
        }
    }
    assert_eq!(big(&md.to_nat(&md.zero()).unwrap()), BigUint::ZERO);
    assert_eq!(big(&md.to_nat(&md.one()).unwrap()), BigUint::from(1u8) % &bm);
}

#[test]
fn arithmetic_with_every_implemented_algorithm() {
    let mut rng = SplitMix64::new(21);
    for m in moduli(&mut rng) {
        for &algorithm in IMPLEMENTED {
            if !applies(algorithm, &m) {
                continue;
            }
            // The bit-serial radix-2 reducers (paper 004) are slow in software: only up to
            // 521 bits here (tests/radix2.rs checks them up to 2048).
            let bit_serial = matches!(
                algorithm,
                Algorithm::Radix2Montgomery | Algorithm::Radix2MontgomeryRecoded
            );
            if bit_serial && m.bits() > 521 {
                continue;
            }
            let md = Modulus::with(algorithm, &m).unwrap();
            assert_eq!(md.modulus(), &m);
            assert_eq!(md.is_auto(), algorithm == Algorithm::Auto);
            if algorithm != Algorithm::Auto {
                assert_eq!(md.algorithm(), algorithm);
            }
            check_arithmetic(&md, &mut rng);
        }
    }
}

/// Every algorithm of `Algorithm::ALL` either works (when implemented and applicable) or
/// says why not; none panics.
#[test]
fn with_every_algorithm_builds_or_explains() {
    for m in [1u64, 2, 3, 10, 1_000_003, u64::MAX] {
        let m = Nat::from(m);
        for &algorithm in Algorithm::ALL {
            match Modulus::with(algorithm, &m) {
                Ok(md) => assert!(applies(algorithm, &m), "{algorithm} mod {m}: {md:?}"),
                Err(Error::NotApplicable { algorithm: name, reason }) => {
                    assert_eq!(name, algorithm.name());
                    assert!(!reason.is_empty());
                    assert!(
                        !IMPLEMENTED.contains(&algorithm) || !applies(algorithm, &m),
                        "{algorithm} mod {m}: {reason}"
                    );
                }
                Err(e) => panic!("{algorithm} mod {m}: {e}"),
            }
        }
    }
}

#[test]
fn montgomery_needs_an_odd_modulus() {
    let even = Nat::from(1_000_000u64);
    for algorithm in [Algorithm::Montgomery, Algorithm::MontgomeryInterleaved] {
        let err = Modulus::with(algorithm, &even).unwrap_err();
        assert!(matches!(err, Error::NotApplicable { .. }), "{err:?}");
    }
}

#[test]
fn zero_modulus_is_an_error() {
    assert_eq!(Modulus::new(&Nat::zero()).unwrap_err(), Error::ZeroModulus);
    for &algorithm in Algorithm::ALL {
        assert_eq!(Modulus::with(algorithm, &Nat::zero()).unwrap_err(), Error::ZeroModulus);
    }
}

#[test]
fn invalid_windows_are_errors() {
    let md = Modulus::new(&Nat::from(97u64)).unwrap();
    let a = md.residue(&Nat::from(5u64));
    for w in [0, 17] {
        for method in [Method::FixedWindow(w), Method::SlidingWindow(w)] {
            let err = md.pow_with_vartime(&a, &Nat::from(10u64), method).unwrap_err();
            assert!(matches!(err, Error::InvalidArgument(_)), "{err:?}");
        }
    }
}

#[test]
fn modulus_one_makes_everything_zero() {
    for &algorithm in IMPLEMENTED.iter().filter(|&&a| applies(a, &Nat::one())) {
        let md = Modulus::with(algorithm, &Nat::one()).unwrap();
        let a = md.residue(&Nat::from(12345u64));
        assert_eq!(a, md.zero());
        assert_eq!(md.one(), md.zero());
        assert!(md.to_nat(&md.pow_vartime(&a, &Nat::zero()).unwrap()).unwrap().is_zero());
        assert!(md.pow_mod_vartime(&Nat::from(7u64), &Nat::zero()).unwrap().is_zero());
        assert!(md.reduce(&Nat::one()).unwrap().is_zero());
        // A bounded algorithm may refuse x ≥ m² (radix-2 Montgomery: x < 1·2^1 here).
        match md.reduce(&Nat::from(u64::MAX)) {
            Ok(r) => assert!(r.is_zero()),
            Err(e) => assert!(matches!(e, modred::Error::OutOfRange { .. }), "{algorithm}: {e}"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// The auto rule

#[test]
fn new_uses_the_auto_rule_for_repeated_arithmetic() {
    let mut rng = SplitMix64::new(22);
    for m in moduli(&mut rng) {
        let md = Modulus::new(&m).unwrap();
        assert!(md.is_auto());
        let chosen = choose(&m, Operation::PowMod);
        // Until a chosen reducer is built in this tree, `new` falls back to classical.
        let expected = if IMPLEMENTED.contains(&chosen) { chosen } else { Algorithm::Classical };
        assert_eq!(md.algorithm(), expected, "mod {m:#x}");
        let auto = Modulus::with(Algorithm::Auto, &m).unwrap();
        assert_eq!(auto.algorithm(), md.algorithm());
        assert!(auto.is_auto());
    }
}

/// An automatic context reduces any x; a forced one enforces its algorithm's bound.
#[test]
fn one_off_reduction_bounds() {
    let mut rng = SplitMix64::new(23);
    for bits in [64u64, 200, 1024] {
        for m in
            [Nat::from_vec(rng.exact_bits(bits)), Nat::from_vec(rng.exact_bits(bits)).shr(1).shl(1)]
        {
            // Beyond b^(2k) and m·b^k, the bounds of Barrett and Montgomery.
            let huge = Nat::from_vec(rng.exact_bits(64 * 3 * m.len() as u64 + 5));
            let expected = big(&huge) % big(&m);
            assert_eq!(big(&Modulus::new(&m).unwrap().reduce(&huge).unwrap()), expected);
            for &algorithm in IMPLEMENTED.iter().filter(|&&a| applies(a, &m)) {
                let md = Modulus::with(algorithm, &m).unwrap();
                match (algorithm, md.reduce(&huge)) {
                    // Unbounded: classical, and hong's reduction by multiples of m.
                    (Algorithm::Auto | Algorithm::Classical | Algorithm::Hong, got) => {
                        assert_eq!(big(&got.unwrap()), expected)
                    }
                    (_, got) => assert!(matches!(got, Err(Error::OutOfRange { .. })), "{got:?}"),
                }
                // Within every bound: x < m².
                let x = &m.sqr() - &Nat::one();
                assert_eq!(big(&md.reduce(&x).unwrap()), big(&x) % big(&m), "{algorithm}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Misuse and properties of the types

#[test]
fn contexts_are_shareable_between_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<Modulus>();
    shareable::<modred::Residue>();
    let md = Modulus::new(&Nat::from(1_000_003u64)).unwrap();
    let debug = format!("{md:?}");
    assert!(
        debug.contains("1000003") && debug.contains(&format!("{:?}", md.algorithm())),
        "{debug}"
    );
}

#[test]
fn auto_rule_takes_special_forms_where_measured_faster() {
    use modred::reduce::NistPrime;
    let c25519 = &Nat::power_of_two(255) - &Nat::from(19u64);
    let pm192 = &Nat::power_of_two(192) - &Nat::from(237u64);
    let pm384 = &Nat::power_of_two(384) - &Nat::from(317u64);
    // Where the fixed-size Montgomery assembly runs (BMI2/ADX, not `portable`).
    let montgomery_asm = modred::modulus::plan(
        Algorithm::Montgomery,
        &Nat::power_of_two(255).add(&Nat::one()),
        Operation::MulMod,
    )
    .unwrap()
    .product
        == modred::modulus::Product::MontgomeryAsm4;
    let asm_or = |a: Algorithm| if montgomery_asm { Algorithm::Montgomery } else { a };
    // Where Montgomery's products of 1024-bit moduli run on AVX-512 IFMA (the CPU has it).
    let pm1024 = &Nat::power_of_two(1024) - &Nat::from(189u64);
    let ifma =
        modred::modulus::plan(Algorithm::Montgomery, &pm1024, Operation::PowMod).unwrap().product
            == modred::modulus::Product::Ifma52;
    for op in [Operation::MulMod, Operation::PowMod] {
        assert_eq!(choose(&NistPrime::P256.modulus(), op), Algorithm::Montgomery);
        assert_eq!(choose(&NistPrime::P521.modulus(), op), Algorithm::Nist);
        // P-192 and 2^448 − 2^224 − 1: Montgomery's assembly beats the hard-coded reduction;
        // P-384 and 2^512 − 2^32 − 1 too, but for the exponentiation.
        assert_eq!(choose(&NistPrime::P192.modulus(), op), asm_or(Algorithm::Nist));
        assert_eq!(choose(&NistPrime::P448.modulus(), op), asm_or(Algorithm::Nist));
        for p in [NistPrime::P384, NistPrime::P512] {
            let want =
                if op == Operation::PowMod { Algorithm::Nist } else { asm_or(Algorithm::Nist) };
            assert_eq!(choose(&p.modulus(), op), want, "{}", p.name());
        }
        // At 4 digits the fixed-size Montgomery's assembly, where it runs, is faster; for
        // the exponentiation only where the CPU has AVX-512 IFMA (on an AVX2-only Zen 3 the
        // fold's).
        let at_4_digits = if op == Operation::PowMod && !ifma {
            Algorithm::PseudoMersenne
        } else {
            asm_or(Algorithm::PseudoMersenne)
        };
        assert_eq!(choose(&c25519, op), at_4_digits);
        let even_pm = &Nat::power_of_two(255) - &Nat::from(20u64);
        assert_eq!(choose(&even_pm, op), Algorithm::PseudoMersenne);
        // 3 digits: Montgomery's assembly where it runs; 6: the fold.
        assert_eq!(choose(&pm192, op), asm_or(Algorithm::PseudoMersenne));
        assert_eq!(choose(&pm384, op), Algorithm::PseudoMersenne);
    }
    assert_eq!(choose(&pm192, Operation::Reduce), Algorithm::PseudoMersenne);
    // 8 digits: Montgomery's register code for the products where MULX runs, the fold for
    // the exponentiation.
    let pm512 = &Nat::power_of_two(512) - &Nat::from(189u64);
    assert_eq!(choose(&pm512, Operation::PowMod), Algorithm::PseudoMersenne);
    assert_eq!(choose(&pm512, Operation::MulMod), asm_or(Algorithm::PseudoMersenne));
    // From 10 digits Montgomery where its products run on AVX-512 IFMA, else the fold;
    // one-off reductions stay pseudo-Mersenne.
    for op in [Operation::MulMod, Operation::PowMod] {
        let got = choose(&pm1024, op);
        if ifma {
            assert!(matches!(got, Algorithm::Montgomery | Algorithm::MontgomeryInterleaved));
        } else {
            assert_eq!(got, Algorithm::PseudoMersenne);
        }
    }
    assert_eq!(choose(&pm1024, Operation::Reduce), Algorithm::PseudoMersenne);
    for p in NistPrime::ALL {
        assert_eq!(choose(&p.modulus(), Operation::Reduce), Algorithm::Nist);
    }
    // The automatic context works on them, any x for a one-off reduction included.
    for m in [NistPrime::P256.modulus(), NistPrime::P521.modulus(), c25519, pm192, pm384] {
        let md = Modulus::new(&m).unwrap();
        let huge = Nat::power_of_two(3000).add(&Nat::from(12345u64));
        assert_eq!(big(&md.reduce(&huge).unwrap()), big(&huge) % big(&m));
        let a = md.residue(&Nat::from(3u64));
        let e = &m - &Nat::one();
        assert_eq!(md.to_nat(&md.pow_vartime(&a, &e).unwrap()), Ok(Nat::one()));
        // Fermat
    }
}
