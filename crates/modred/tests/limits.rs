//! Work limits: every request's work is estimated from the registry's cost models before it
//! runs, and one over the limit is refused at once with `Error::TooMuchWork`, which names
//! the estimate.

use modred::exp::{default_method, Method};
use modred::modulus::limits::pow_products;
use modred::registry::ALGORITHMS;
use modred::{Algorithm, Error, Limits, Modulus, Nat, Operation};
use modred_testkit::SplitMix64;

fn odd(bits: u64, seed: u64) -> Nat {
    Nat::from_vec(SplitMix64::new(seed).odd_modulus(bits))
}

fn too_much(r: Result<impl std::fmt::Debug, Error>) -> (String, u64, u64) {
    match r {
        Err(e @ Error::TooMuchWork { .. }) => {
            let message = e.to_string();
            let Error::TooMuchWork { estimate, limit, .. } = e else { unreachable!() };
            (message, estimate, limit)
        }
        other => panic!("expected TooMuchWork, got {other:?}"),
    }
}

/// Every algorithm states a cost model, and it grows with the width.
#[test]
fn every_algorithm_has_a_cost_model() {
    for info in ALGORITHMS {
        let (small, large) = (info.cost.mul_work(4), info.cost.mul_work(4096));
        assert!(small > 0 && large > 100 * small, "{}: {small} {large}", info.name());
        assert!(!info.cost.formula().is_empty());
        assert_eq!(info.cost.mul_work(u64::MAX), u64::MAX, "saturates");
    }
    let r2 = Algorithm::Radix2Montgomery.info().unwrap().cost;
    assert_eq!(r2.formula(), "256k²");
    assert_eq!(Algorithm::Montgomery.info().unwrap().cost.formula(), "2·M(k)");
}

/// The old command-line limit (bits(E)·bits(M) ≤ 2^32) let through exponentiations that the
/// automatic choice does in seconds; the default work limit still takes all of them.
#[test]
fn the_default_limit_takes_what_auto_did_before() {
    for log_m in [6u32, 8, 10, 12, 14, 16, 18, 20] {
        let m = odd(1 << log_m, log_m as u64);
        let md = Modulus::new(&m).unwrap();
        let e_bits = 1u64 << (32 - log_m);
        let estimate = pow_products(e_bits, default_method(e_bits)) * md.mul_work();
        assert!(
            estimate <= Limits::new().max_work,
            "2^{log_m}-bit modulus ({}), {e_bits}-bit exponent: {estimate}",
            md.algorithm()
        );
    }
}

/// Forced `radix2-montgomery` at the old documented limit (65 536-bit exponent and modulus)
/// would have run for hours: refused before it starts, the message naming the estimate.
#[test]
fn a_slow_forced_exponentiation_is_refused_at_once() {
    let m = odd(65_536, 1);
    let md = Modulus::with(Algorithm::Radix2Montgomery, &m).unwrap();
    let e = Nat::from_vec(SplitMix64::new(2).exact_bits(65_536));
    let (message, estimate, limit) = too_much(md.pow_mod_vartime(&Nat::from(3u64), &e));
    assert!(estimate > 100 * limit, "{estimate}");
    assert!(message.starts_with("too much work: an exponentiation to a 65536-bit exponent"));
    assert!(message.contains("radix2-montgomery") && message.contains("hours"), "{message}");
    // The automatic choice does the same request within the limit.
    let auto = Modulus::new(&m).unwrap();
    let products = pow_products(e.bits(), default_method(e.bits()));
    assert!(products * auto.mul_work() <= limit);
}

/// One product of a 4-Mbit modulus (a 1 MiB batch line) by `radix2-montgomery` would take
/// about 37 minutes: the modulus itself is refused, before any precalculation.
#[test]
fn a_slow_forced_product_is_refused_when_the_modulus_is_made() {
    let m = odd(1 << 22, 3);
    let (message, estimate, _) = too_much(Modulus::with(Algorithm::Radix2Montgomery, &m));
    assert!(message.contains("one multiplication modulo a 4194304-bit modulus"), "{message}");
    assert_eq!(estimate, ALGORITHMS[4].cost.mul_work(m.len() as u64));
    assert!(matches!(
        Modulus::with(Algorithm::Radix2MontgomeryRecoded, &m),
        Err(Error::TooMuchWork { .. })
    ));
    // The transform reducers multiply at this size within the limit.
    assert!(
        Modulus::with_limits(Algorithm::NttBarrett, Operation::MulMod, &m, Limits::new()).is_ok()
    );
}

/// Every kind of request obeys a limit set on the modulus; `UNLIMITED` takes them all.
#[test]
fn every_request_obeys_the_limit_it_was_given() {
    let m = odd(2048, 4);
    let limited = |max_work| {
        let limits = Limits::new().with_max_work(max_work);
        Modulus::with_limits(Algorithm::Auto, Operation::PowMod, &m, limits)
    };
    // Making the modulus: one multiplication (Montgomery's, 2·M(k)).
    let one = Modulus::new(&m).unwrap().mul_work();
    too_much(limited(one - 1));
    // A one-off reduction (auto: Barrett's, 3·M(k)) fits in twice that.
    let md = limited(2 * one).unwrap();
    assert_eq!(md.limits().max_work, 2 * one);
    let x = md.residue(&Nat::from(12345u64));
    // Single products fit (the modulus was made); exponentiations do not.
    assert!(md.mul(&x, &x).is_ok());
    too_much(md.pow_vartime(&x, &Nat::from(3u64)));
    too_much(md.pow_with_vartime(&x, &Nat::from(3u64), Method::Binary));
    too_much(md.pow_ct(&x, &Nat::from(3u64)));
    assert!(4 * modred::modulus::limits::ct_product_work(m.len() as u64) > 2 * one);
    too_much(md.mul_ct(&x, &x));
    assert_eq!(md.pow_vartime(&x, &Nat::zero()).map(|r| md.to_nat(&r)), Ok(Ok(Nat::one())));
    // One-off reductions: within the bound about a multiplication, beyond it a division.
    assert!(md.reduce(&m.sqr()).is_ok());
    let (message, _, _) = too_much(md.reduce(&Nat::power_of_two(1 << 20)));
    assert!(message.contains("a division of a 1048577-bit number"), "{message}");
    // No limit.
    let free =
        Modulus::with_limits(Algorithm::Auto, Operation::PowMod, &m, Limits::UNLIMITED).unwrap();
    let y = free.residue(&Nat::from(12345u64));
    assert!(free.pow_ct(&y, &m.shr(1)).is_ok());
    assert!(free.reduce(&Nat::power_of_two(1 << 20)).is_ok());
}
