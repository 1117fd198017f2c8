//! Division by a Newton reciprocal (`Nat::div_rem_newton`) against Knuth's Algorithm D
//! (`Nat::div_rem_knuth`) and num-bigint: every digit size, the recursion forced down to
//! 4 digits, the three paths of the division (one Barrett step, blocks of `n` digits, a
//! short quotient from the leading digits), divisors that make the estimates err, and
//! sizes where the products are transform-based.

mod reduce_util;

use modred::{Limb, Nat};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;
use num_traits::{One, Zero};
use reduce_util::{from_big, hard_divisors as divisors, pow_b, to_big, BigDraws};

fn check<L: Limb>(x: &BigUint, d: &BigUint, basecase: usize) {
    let (xn, dn) = (from_big::<L>(x), from_big::<L>(d));
    let got = xn.div_rem_newton_with(&dn, basecase);
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
            // Quotients of every length class: shorter than the divisor (the leading-digit
            // path), about as long (one Barrett step), and longer (blocks).
            for q_digits in [1, k / 3 + 1, k, k + 1, 2 * k + 3, 3 * k + 1] {
                let q = rng.big_bits(q_digits as u64 * w);
                for r in [BigUint::zero(), &d - 1u32, rng.big_below(&d)] {
                    let x = &q * &d + r;
                    for basecase in [4, 7, 32] {
                        check::<L>(&x, &d, basecase);
                    }
                }
            }
            check::<L>(&(&d - 1u32), &d, 4);
            check::<L>(&d, &d, 4);
            check::<L>(&BigUint::zero(), &d, 4);
        }
    }
}

#[test]
fn newton_division_matches_knuth_and_bigint_u8() {
    random_sizes::<u8>(0x4e57_0008, 40, 12);
}

#[test]
fn newton_division_matches_knuth_and_bigint_u16() {
    random_sizes::<u16>(0x4e57_0016, 40, 10);
}

#[test]
fn newton_division_matches_knuth_and_bigint_u32() {
    random_sizes::<u32>(0x4e57_0032, 40, 10);
}

#[test]
fn newton_division_matches_knuth_and_bigint_u64() {
    random_sizes::<u64>(0x4e57_0064, 48, 10);
}

/// Every 1-digit and 2-digit divisor of one byte digit against every dividend below
/// b^4 that is a multiple plus the largest remainder, with the recursion at its smallest.
#[test]
fn newton_division_small_exhaustive_u8() {
    for d in 1u64..=0xffff {
        if d % 7 != 0 && d > 300 {
            continue;
        }
        let db = BigUint::from(d);
        for q in [0u64, 1, 2, 255, 256, 0xffff, 0x1_0000, 0xff_ffff] {
            for r in [0, d - 1, d / 2] {
                check::<u8>(&(BigUint::from(q) * &db + BigUint::from(r)), &db, 4);
            }
        }
    }
    assert!(Nat::<u8>::from_u64(5).div_rem_newton(&Nat::zero()).is_none());
}

/// Large enough that the reciprocal's products are transform products (divisor of
/// 2^18 bits = 4096 digits, above `NTT_THRESHOLD`), and a 2^19-bit divisor.
#[test]
#[cfg_attr(debug_assertions, ignore = "large: run with --release")]
fn newton_division_with_transform_products() {
    let mut rng = SplitMix64::new(0x4e57_1000);
    let k = 4096usize;
    for d in divisors::<u64>(k, &mut rng).into_iter().take(3) {
        let q = rng.big_bits(5000 * 64);
        let x = &q * &d + rng.big_below(&d);
        check::<u64>(&x, &d, 32);
    }
    let k = 8192;
    let d = rng.big_exact_bits(k as u64 * 64);
    let x = rng.big_bits(2 * k as u64 * 64);
    let (q, r) = from_big::<u64>(&x).div_rem_newton(&from_big(&d)).unwrap();
    assert_eq!((to_big(&q), to_big(&r)), (&x / &d, &x % &d));
}

fn check_mu<L: Limb>(seed: u64, max_digits: usize) {
    let mut rng = SplitMix64::new(seed);
    for _ in 0..12 {
        let k = 1 + rng.below_u64(max_digits as u64) as usize;
        let mut ms = divisors::<L>(k, &mut rng);
        // Not normalized: the top digit small.
        ms.push(
            pow_b::<L>(k - 1) * (1u32 + rng.below_u64(3) as u32)
                + rng.big_bits((k as u64 - 1) * L::BITS as u64),
        );
        for m in ms {
            let want = pow_b::<L>(2 * k) / &m;
            let mn = from_big::<L>(&m);
            for basecase in [4, 9] {
                assert_eq!(
                    to_big(&mn.floor_b2k_div_newton_with(basecase).unwrap()),
                    want,
                    "m = {m:#x}"
                );
            }
            assert_eq!(to_big(&mn.floor_b2k_div().unwrap()), want);
        }
    }
    assert!(Nat::<L>::zero().floor_b2k_div().is_none());
}

/// Barrett's μ = ⌊b^(2k)/m⌋ from one reciprocal, for normalized and unnormalized m.
#[test]
fn floor_b2k_div_matches_bigint() {
    check_mu::<u8>(0x4e57_2008, 40);
    check_mu::<u16>(0x4e57_2016, 30);
    check_mu::<u32>(0x4e57_2032, 30);
    check_mu::<u64>(0x4e57_2064, 30);
}

/// The transform reducers derived with `to_second_product` (reusing the precalculation)
/// agree with the ones built from scratch.
#[test]
fn to_second_product_reuses_the_precalculation() {
    use modred::reduce::{NttBarrett, NttMontgomery, Reducer, Scratch, SecondProduct};
    let mut rng = SplitMix64::new(0x4e57_3000);
    for bits in [200u64, 1000, 5000] {
        let m = from_big::<u64>(&(rng.big_exact_bits(bits) | BigUint::one()));
        let k = m.len();
        let bar = NttBarrett::new(&m).unwrap();
        let mon = NttMontgomery::new(&m).unwrap();
        let bar_lin = bar.to_second_product(SecondProduct::Linear).unwrap();
        let mon_lin = mon.to_second_product(SecondProduct::Linear).unwrap();
        let bar_lin0 = NttBarrett::with_second_product(&m, SecondProduct::Linear).unwrap();
        let mon_lin0 = NttMontgomery::with_second_product(&m, SecondProduct::Linear).unwrap();
        assert_eq!(bar_lin.second_product(), SecondProduct::Linear);
        let mut sc = Scratch::new();
        for _ in 0..4 {
            let x = rng.big_below(&(to_big(&m) * to_big(&m)));
            let mut xs = from_big::<u64>(&x).limbs().to_vec();
            xs.resize(2 * k, 0);
            let mut outs = Vec::new();
            for r in [&bar as &dyn Reducer<u64>, &bar_lin, &bar_lin0, &mon, &mon_lin, &mon_lin0] {
                let mut out = vec![0u64; k];
                r.reduce_raw(&mut out, &xs, &mut sc);
                outs.push(out);
            }
            assert_eq!(to_big(&Nat::from_limbs(&outs[0])), &x % to_big(&m));
            assert!(outs[0] == outs[1] && outs[1] == outs[2]);
            assert!(outs[3] == outs[4] && outs[4] == outs[5]);
        }
    }
}
