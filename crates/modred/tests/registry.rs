//! The registry against the code: every entry of `modred::registry::ALGORITHMS` is
//! exercised (a consumer that forgets one fails here), its facts — which moduli it applies
//! to, its representation, its input bound — hold for the reducer that runs, and the engine
//! `Modulus` builds is the plan the selector names (`modred algos M` prints that plan).

use modred::modulus::{plan, Product};
use modred::registry::{Algorithm, Moduli, Representation, ALGORITHMS};
use modred::{Error, Modulus, Nat, Operation};
use num_bigint::BigUint;

fn big(x: &Nat) -> BigUint {
    BigUint::from_bytes_le(&x.to_bytes_le())
}

/// A modulus of exactly `bits` bits from a fixed digit pattern, odd or even.
fn patterned(bits: u64, odd: bool) -> Nat {
    let digits = bits.div_ceil(64) as usize;
    let v: Vec<u64> = (0..digits as u64)
        .map(|i| 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(2 * i + 1).rotate_left(i as u32))
        .collect();
    let x = Nat::from_vec(v);
    let x = &x.checked_rem(&Nat::power_of_two(bits - 1)).unwrap() + &Nat::power_of_two(bits - 1);
    if x.is_odd() == odd {
        x
    } else {
        &x - &Nat::one()
    }
}

/// The widths every entry is tried at, and the special moduli of paper 003.
fn test_moduli() -> Vec<Nat> {
    let mut v = Vec::new();
    for bits in [61u64, 64, 128, 192, 256, 320, 512, 521, 1024, 2048] {
        v.push(patterned(bits, true));
        v.push(patterned(bits, false));
    }
    v.push(&Nat::power_of_two(255) - &Nat::from(19u64));
    v.push(&Nat::power_of_two(127) - &Nat::one());
    v.push(&(&Nat::power_of_two(256) - &Nat::power_of_two(64)) - &Nat::one()); // Solinas
    for p in modred::reduce::NistPrime::ALL {
        v.push(p.modulus());
    }
    v
}

/// Arguments below `m`, and the value `m²`-ish for reductions.
fn values(m: &Nat) -> Vec<Nat> {
    let third = &(m - &Nat::one()) / &Nat::from(3u64);
    vec![Nat::default(), Nat::one(), m - &Nat::one(), third.clone(), &third + &Nat::from(7u64)]
}

#[test]
fn every_entry_is_in_all_once_with_its_facts() {
    assert_eq!(ALGORITHMS.len() + 1, Algorithm::ALL.len());
    for info in ALGORITHMS {
        assert_eq!(info.algorithm.info(), Some(info));
        assert_eq!(info.name().parse::<Algorithm>().unwrap(), info.algorithm);
        assert!(info.source.contains("paper 00"), "{}: {}", info.name(), info.source);
        assert!(!info.input_bound.is_empty());
    }
    assert!(Algorithm::Auto.info().is_none());
}

#[test]
fn every_entry_applies_exactly_where_the_registry_says_and_computes_right() {
    let mut checked = vec![0usize; ALGORITHMS.len()];
    for m in test_moduli() {
        for (n, info) in ALGORITHMS.iter().enumerate() {
            let a = info.algorithm;
            let md = Modulus::with(a, &m);
            assert_eq!(a.applies(&m), md.is_ok(), "{a} modulo {m:#x}: {:?}", md.as_ref().err());
            assert_eq!(info.moduli.admits(&m), a.applies(&m));
            let md = match md {
                Ok(md) => md,
                Err(e) => {
                    assert!(matches!(e, Error::NotApplicable { .. }), "{a}: {e}");
                    continue;
                }
            };
            checked[n] += 1;
            let mb = big(&m);
            // The representation's factor ρ: the residue of 1 is ρ mod m.
            let one = Nat::from_limbs(md.one().limbs());
            let k = m.len() as u64;
            let rho = match info.representation {
                Representation::Standard => Some(Nat::one()),
                Representation::Montgomery => Some(Nat::power_of_two(64 * k)),
                Representation::Radix2 | Representation::Transform => None,
            };
            if let Some(rho) = rho {
                assert_eq!(big(&one), big(&rho) % &mb, "{a}: representation of 1");
            }
            for x in values(&m) {
                let r = md.residue(&x);
                assert_eq!(md.to_nat(&r).as_ref(), Ok(&x), "{a}: round trip");
                for y in values(&m) {
                    let p = md.to_nat(&md.mul(&r, &md.residue(&y)).unwrap());
                    assert_eq!(big(&p.unwrap()), big(&x) * big(&y) % &mb, "{a}: {x} * {y}");
                }
                let sq = x.mul(&x);
                match md.reduce(&sq) {
                    Ok(z) => assert_eq!(big(&z), big(&sq) % &mb, "{a}: reduce"),
                    Err(Error::OutOfRange { bound, .. }) => {
                        assert!(bound.contains(info.input_bound), "{a}: {bound}")
                    }
                    Err(e) => panic!("{a}: {e}"),
                }
            }
        }
    }
    for (n, info) in ALGORITHMS.iter().enumerate() {
        assert!(checked[n] > 0, "{} was never exercised", info.name());
    }
    // The modulus kinds: Any applies to every modulus.
    assert!(ALGORITHMS.iter().any(|i| i.moduli == Moduli::Any));
}

#[test]
fn modulus_runs_the_plan_the_selector_names() {
    let mut products = Vec::new();
    for m in test_moduli() {
        for info in ALGORITHMS {
            let Ok(md) = Modulus::with(info.algorithm, &m) else { continue };
            let named = plan(info.algorithm, &m, Operation::PowMod).unwrap();
            assert_eq!(md.plan(), &named, "{} modulo {m:#x}", info.name());
            assert_eq!(named.algorithm, info.algorithm);
            assert!(!named.auto);
            products.push(named.product);
        }
        for op in Operation::ALL {
            let md = Modulus::for_operation(&m, op).unwrap();
            let named = plan(Algorithm::Auto, &m, op).unwrap();
            assert_eq!(md.plan(), &named, "auto {op} modulo {m:#x}");
            assert!(named.auto);
            assert_eq!(named.algorithm, modred::modulus::choose(&m, op));
        }
    }
    // Which CPU-specific products ran, and which this CPU (or build) could not run.
    let features = modred::cpu_features();
    let asm = products.contains(&Product::MontgomeryAsm4);
    let ifma = products.contains(&Product::Ifma52);
    assert_eq!(asm, features.contains(&"bmi2+adx"), "the 4-digit assembly follows the CPU");
    assert_eq!(ifma, features.contains(&"avx512ifma"), "the IFMA product follows the CPU");
    for (name, ran) in [("MULX/ADX 4-digit assembly", asm), ("AVX-512 IFMA product", ifma)] {
        if !ran {
            eprintln!("registry: {name} skipped: this CPU or build does not have it");
        }
    }
}

#[test]
fn a_failed_construction_is_an_error_not_a_fallback() {
    let even = patterned(256, false);
    for a in [Algorithm::Montgomery, Algorithm::Nist, Algorithm::PseudoMersenne] {
        assert!(matches!(Modulus::with(a, &even), Err(Error::NotApplicable { .. })), "{a}");
        assert!(plan(a, &even, Operation::MulMod).is_err());
    }
    assert_eq!(plan(Algorithm::Auto, &Nat::default(), Operation::PowMod), Err(Error::ZeroModulus));
}
