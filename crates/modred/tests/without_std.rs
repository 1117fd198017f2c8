//! The library built without its `std` feature (`#![no_std]` + `alloc`; this test and its
//! harness have std): what differs from a std build. Run with
//! `cargo test -p modred --release --no-default-features --test without_std`.

#![cfg(not(feature = "std"))]

use modred::limb::{count_ops, Counted};
use modred::modulus::profile::{self, Form, Profile};
use modred::{Algorithm, Modulus, Nat, Operation};
use modred_testkit::SplitMix64;

/// Without run-time detection the CPU features are the build's: none for a build for
/// no particular CPU (as CI's), whatever this CPU has.
#[test]
fn cpu_features_are_the_builds() {
    let built_for_adx = cfg!(all(target_feature = "bmi2", target_feature = "adx"));
    let built_for_ifma = cfg!(all(target_feature = "avx512f", target_feature = "avx512ifma"));
    let features = modred::cpu_features();
    if !built_for_adx && !built_for_ifma {
        assert!(features.is_empty(), "{features:?}");
    }
    // The arithmetic is the same on whichever kernels run.
    let mut rng = SplitMix64::new(0x57d);
    let m = Nat::from_vec(rng.odd_modulus(4096));
    let (x, y) = (Nat::from_vec(rng.below_pow2(4096)), Nat::from_vec(rng.below_pow2(4096)));
    let classical = Modulus::with(Algorithm::Classical, &m).unwrap();
    assert_eq!(Modulus::new(&m).unwrap().mul_mod(&x, &y), classical.mul_mod(&x, &y));
}

/// The operation counters are the program's (no thread-locals): a schoolbook product of
/// `k`-digit numbers counts `k²` digit multiplications, and nested counts see their own.
/// (The only test of this file that counts: the others would add to its counts.)
#[test]
fn operation_counts_without_thread_locals() {
    let a: Nat<Counted<u16>> = Nat::from_vec((1..=5u16).map(|d| Counted(d * 4099)).collect());
    let b: Nat<Counted<u16>> = Nat::from_vec((1..=7u16).map(|d| Counted(d * 257)).collect());
    let ((p, inner), outer) = count_ops(|| {
        let p = &a * &b;
        (p, count_ops(|| &a * &a).1)
    });
    assert_eq!(inner.mul, 25);
    assert_eq!(outer.mul, 35 + 25);
    assert_eq!(inner.div, 0);
    let plain = |n: &Nat<Counted<u16>>| Nat::<u64>::from_bytes_le(&n.to_bytes_le());
    assert_eq!(plain(&p), &plain(&a) * &plain(&b));
}

/// A profile comes from text (no files), and activation works as with std.
#[test]
fn profile_from_text_activates() {
    let mut p = Profile::new();
    p.set_algorithm(Operation::MulMod, Form::Odd, 2048, Algorithm::Classical);
    let p = Profile::parse(&p.to_text()).unwrap();
    let m = Nat::from_vec(SplitMix64::new(0x2048).odd_modulus(2048));
    let builtin_mul = Modulus::for_operation(&m, Operation::MulMod).unwrap().algorithm();
    p.activate();
    let picked = Modulus::for_operation(&m, Operation::MulMod).unwrap().algorithm();
    let why = modred::modulus::explain(&m, Operation::MulMod);
    profile::deactivate();
    assert_eq!(picked, Algorithm::Classical);
    assert!(why.from_profile && why.reason.starts_with("the profile:"), "{}", why.reason);
    assert!(profile::active().is_none());
    assert_eq!(Modulus::for_operation(&m, Operation::MulMod).unwrap().algorithm(), builtin_mul);
}
