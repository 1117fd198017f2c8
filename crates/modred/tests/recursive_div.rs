//! The recursive division (`Nat::div_rem_recursive`) against Knuth's Algorithm D
//! (`Nat::div_rem_knuth`) and num-bigint: every digit type, the recursion forced down to
//! quotients of 2 digits, quotients shorter than, as long as and longer than the divisor
//! (the blocks), divisors whose leading digits make the estimates err most, remainders at
//! both ends, `div_rem` on both sides of its threshold, and sizes where the products are
//! transform-based.

mod reduce_util;

use modred::{Limb, Nat};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;
use num_traits::{One, Zero};
use reduce_util::{from_big, hard_divisors as divisors, to_big, BigDraws};

fn check<L: Limb>(x: &BigUint, d: &BigUint, basecase: usize) {
    let (xn, dn) = (from_big::<L>(x), from_big::<L>(d));
    let got = xn.div_rem_recursive_with(&dn, basecase);
    if d.is_zero() {
        assert!(got.is_none());
        return;
    }
    let (q, r) = got.expect("nonzero divisor");
    assert_eq!(to_big(&q), x / d, "quotient of {x:#x} by {d:#x} (b = 2^{})", L::BITS);
    assert_eq!(to_big(&r), x % d, "remainder of {x:#x} by {d:#x} (b = 2^{})", L::BITS);
    assert_eq!(xn.div_rem_knuth(&dn), Some((q, r)));
}

fn random_sizes<L: Limb>(seed: u64, max_digits: usize, cases: usize) {
    let mut rng = SplitMix64::new(seed);
    let w = L::BITS as u64;
    for _ in 0..cases {
        let k = 1 + rng.below_u64(max_digits as u64) as usize;
        for d in divisors::<L>(k, &mut rng) {
            for q_digits in [1, k / 3 + 1, k - k / 4, k, k + 1, 2 * k + 3, 3 * k + 1] {
                let q = rng.big_bits(q_digits as u64 * w);
                let all_ones = (BigUint::one() << (q_digits as u64 * w)) - 1u32;
                for q in [q, all_ones] {
                    for r in [BigUint::zero(), &d - 1u32, rng.big_below(&d)] {
                        let x = &q * &d + r;
                        for basecase in [2, 3, 8] {
                            check::<L>(&x, &d, basecase);
                        }
                    }
                }
            }
            check::<L>(&(&d - 1u32), &d, 2);
            check::<L>(&d, &d, 2);
            check::<L>(&BigUint::zero(), &d, 2);
        }
    }
}

#[test]
fn recursive_division_matches_knuth_and_bigint_u8() {
    random_sizes::<u8>(0x7264_0008, 40, 12);
}

#[test]
fn recursive_division_matches_knuth_and_bigint_u16() {
    random_sizes::<u16>(0x7264_0016, 40, 10);
}

#[test]
fn recursive_division_matches_knuth_and_bigint_u32() {
    random_sizes::<u32>(0x7264_0032, 40, 10);
}

#[test]
fn recursive_division_matches_knuth_and_bigint_u64() {
    random_sizes::<u64>(0x7264_0064, 48, 10);
}

/// Every divisor of one or two byte digits (a sample above 300) against dividends of up
/// to four digits, each a multiple plus the largest and a middle remainder.
#[test]
fn recursive_division_small_exhaustive_u8() {
    for d in 1u64..=0xffff {
        if d % 7 != 0 && d > 300 {
            continue;
        }
        let db = BigUint::from(d);
        for q in [0u64, 1, 2, 255, 256, 0xffff, 0x1_0000, 0xff_ffff] {
            for r in [0, d - 1, d / 2] {
                check::<u8>(&(BigUint::from(q) * &db + BigUint::from(r)), &db, 2);
            }
        }
    }
    assert!(Nat::<u8>::from_u64(5).div_rem_recursive(&Nat::zero()).is_none());
}

/// `div_rem` just below and at `DIV_RECURSIVE_THRESHOLD` (Algorithm D, then the recursive
/// division), and a divisor of 4096 digits (2^18 bits) with quotients of 4096 and 12000
/// digits, whose products are transform-based, at the default base case.
#[test]
#[cfg_attr(debug_assertions, ignore = "large: run with --release")]
fn recursive_division_at_its_threshold_and_with_transform_products() {
    let mut rng = SplitMix64::new(0x7264_1000);
    let t = modred::nat::DIV_RECURSIVE_THRESHOLD;
    for k in [t - 1, t, 4096] {
        for d in divisors::<u64>(k, &mut rng).into_iter().take(4) {
            for q_digits in [k, 3 * k - 288] {
                let x = rng.big_bits(q_digits as u64 * 64) * &d + rng.big_below(&d);
                let (q, r) = from_big::<u64>(&x).div_rem(&from_big(&d)).unwrap();
                assert_eq!((to_big(&q), to_big(&r)), (&x / &d, &x % &d));
            }
        }
    }
}
