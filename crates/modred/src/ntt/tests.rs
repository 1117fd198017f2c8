//! The transforms against schoolbook convolution, and the cyclic products against full
//! products modulo `B^n − 1`.

use super::*;
use crate::nat::Nat;
use modred_testkit::SplitMix64;

fn random_digits<L: Limb>(rng: &mut SplitMix64, n: usize) -> Vec<L> {
    (0..n).map(|_| L::from_u64(rng.next_u64())).collect()
}

/// Schoolbook convolution of digit strings as exact u128/Nat coefficients, evaluated.
fn schoolbook<L: Limb>(a: &[L], b: &[L]) -> Nat<L> {
    Nat::from_limbs(a).mul(&Nat::from_limbs(b))
}

#[test]
fn transform_lengths() {
    let lens: Vec<usize> = (1..=50).map(transform_len_at_least).collect();
    for (i, &n) in lens.iter().enumerate() {
        assert!(is_transform_len(n) && n > i);
        // no transform length in between
        assert!((i + 1..n).all(|m| !is_transform_len(m)));
    }
    assert!(!is_transform_len(0) && !is_transform_len(5) && !is_transform_len(9));
    assert!(is_transform_len(3 << 20) && is_transform_len(1 << 25));
}

#[test]
fn coefficients_match_schoolbook_convolution() {
    // Coefficient-level check: one transform-convolution per length, against the
    // schoolbook sum of digit products computed in u128 (and for long strings a
    // random subset of coefficients), with every digit b − 1 (the largest coefficients).
    for n in [1usize, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 96, 192, 1024, 3072] {
        let plan = Plan::get(n);
        for all_max in [false, true] {
            let mut rng = SplitMix64::new(n as u64);
            let a: Vec<u64> =
                (0..n).map(|_| if all_max { u64::MAX } else { rng.next_u64() }).collect();
            let b: Vec<u64> =
                (0..n).map(|_| if all_max { u64::MAX } else { rng.next_u64() }).collect();
            let mut x = vec![0u64; 3 * n];
            let mut y = vec![0u64; 3 * n];
            forward_into(&plan, &a, &mut x);
            forward_into(&plan, &b, &mut y);
            pointwise(&plan, &mut x, &y);
            let mut got = Vec::new();
            inverse_coefficients(&plan, &mut x, n, |c| got.push(c));
            for (i, c) in got.iter().enumerate().step_by(1 + n / 64) {
                // cyclic coefficient i: Σ a_j b_(i−j mod n), as 192 bits
                let mut want = Acc::default();
                for j in 0..n {
                    let p = a[j] as u128 * b[(i + n - j) % n] as u128;
                    want.add(Acc { lo: p, hi: 0 });
                }
                assert_eq!((c.lo, c.hi), (want.lo, want.hi), "n = {n}, coefficient {i}");
            }
        }
    }
}

fn check_linear<L: Limb>(seed: u64, max: usize) {
    let mut rng = SplitMix64::new(seed);
    for _ in 0..40 {
        let la = 1 + (rng.next_u64() as usize) % max;
        let lb = 1 + (rng.next_u64() as usize) % max;
        let a: Vec<L> = random_digits(&mut rng, la);
        let b: Vec<L> = random_digits(&mut rng, lb);
        let mut r = vec![L::ZERO; la + lb];
        mul(&mut r, &a, &b);
        assert_eq!(Nat::from_vec(r), schoolbook(&a, &b), "{la} x {lb}");
        let mut s = vec![L::ZERO; 2 * la];
        sqr(&mut s, &a);
        assert_eq!(Nat::from_vec(s), schoolbook(&a, &a));
        // prepared at a longer length than needed
        let t = Transform::new(&b, transform_len_at_least(la + lb + 7)).unwrap();
        let mut r2 = vec![L::ZERO; la + lb];
        mul_prepared(&mut r2, &a, &t, &mut Vec::new()).unwrap();
        assert_eq!(Nat::from_vec(r2), schoolbook(&a, &b));
    }
}

#[test]
fn linear_products_match_schoolbook() {
    check_linear::<u64>(1, 300);
    check_linear::<u32>(2, 300);
    check_linear::<u16>(3, 100);
    check_linear::<u8>(4, 100);
    // all digits b − 1: the largest coefficients
    for n in [1usize, 5, 17, 200] {
        let a = vec![u64::MAX; n];
        let mut r = vec![0u64; 2 * n];
        mul(&mut r, &a, &a);
        assert_eq!(Nat::from_vec(r), schoolbook(&a, &a));
    }
}

fn check_cyclic<L: Limb>(seed: u64) {
    let mut rng = SplitMix64::new(seed);
    for n in [1usize, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 384] {
        for _ in 0..4 {
            let la = 1 + (rng.next_u64() as usize) % n;
            let a: Vec<L> = random_digits(&mut rng, la);
            let b: Vec<L> = random_digits(&mut rng, n);
            let mut r = vec![L::ZERO; n];
            cyclic_mul(&mut r, &a, &b).unwrap();
            let modulus = &Nat::<L>::power_of_two(n as u64 * L::BITS as u64) - &Nat::one();
            let want = schoolbook(&a, &b).checked_rem(&modulus).unwrap();
            let got = Nat::from_vec(r).checked_rem(&modulus).unwrap();
            assert_eq!(got, want, "n = {n}");
        }
        // all digits b − 1 (≡ 0): result stands for 0
        let a = vec![L::MAX; n];
        let mut r = vec![L::ZERO; n];
        cyclic_mul(&mut r, &a, &a).unwrap();
        assert!(r.iter().all(|d| *d == L::ZERO) || r.iter().all(|d| *d == L::MAX));
    }
}

#[test]
fn cyclic_products_match_full_products_mod_b_n_minus_1() {
    check_cyclic::<u64>(5);
    check_cyclic::<u32>(6);
    check_cyclic::<u8>(7);
}

#[test]
fn bad_lengths_are_errors() {
    assert!(Transform::new(&[1u64, 2], 5).is_err());
    assert!(Transform::new(&[1u64, 2, 3], 2).is_err());
    let t = Transform::new(&[1u64, 2], 4).unwrap();
    let mut r = vec![0u64; 8];
    assert!(mul_prepared(&mut r, &[1u64, 2, 3, 4], &t, &mut Vec::new()).is_err());
    assert!(cyclic_mul_prepared(&mut r, &[1u64], &t, &mut Vec::new()).is_err());
    assert!(cyclic_mul(&mut [0u64; 5], &[1u64], &[1u64]).is_err());
}

/// The IFMA engine against the scalar one and against schoolbook products: linear
/// products and squares at piece lengths `2^j` and `3·2^j` from the smallest the engine
/// takes, random and all-`b − 1` digits (the largest coefficients), prepared products
/// that fill their transform to the one coefficient that wraps, and cyclic products.
#[cfg(x86_kernels_compiled)]
#[test]
fn ifma_engine_matches_scalar_engine_and_schoolbook() {
    if !crate::kernels::cpu::avx512_ifma() {
        std::eprintln!("no AVX-512 IFMA on this CPU: the engine is not exercised");
        return;
    }
    let mut rng = SplitMix64::new(11);
    let sizes = [
        (32usize, 1usize),
        (17, 16),
        (33, 32),
        (40, 57),
        (96, 97),
        (100, 3),
        (150, 150),
        (500, 700),
        (1536, 1537),
        (2500, 2600),
    ];
    for &(la, lb) in &sizes {
        for all_max in [false, true] {
            let mut digits = |n: usize| -> Vec<u64> {
                (0..n).map(|_| if all_max { u64::MAX } else { rng.next_u64() }).collect()
            };
            let (a, b) = (digits(la), digits(lb));
            let want = schoolbook(&a, &b);
            let mut r_ifma = vec![0u64; la + lb];
            let mut r_scalar = vec![0u64; la + lb];
            mul_with(&mut r_ifma, &a, &b, true);
            mul_with(&mut r_scalar, &a, &b, false);
            assert_eq!(r_ifma, r_scalar, "{la} x {lb}");
            assert_eq!(Nat::from_vec(r_ifma), want, "{la} x {lb}");
            let mut s_ifma = vec![0u64; 2 * la];
            let mut s_scalar = vec![0u64; 2 * la];
            sqr_with(&mut s_ifma, &a, &mut Vec::new(), true);
            sqr_with(&mut s_scalar, &a, &mut Vec::new(), false);
            assert_eq!(s_ifma, s_scalar, "{la}²");
            assert_eq!(Nat::from_vec(s_ifma), schoolbook(&a, &a), "{la}²");
            // Prepared, at the shortest length that holds the product: la + lb − 1 = n
            // digits, so 2n + 1 piece coefficients in 2n pieces (the wrapped one).
            let n = transform_len_at_least(la + lb - 1);
            let t = Transform::new_with(&b, n, true).unwrap();
            assert!(matches!(t.engine, Engine::Ifma(_)) || !ifma::is_len(2 * n));
            let mut r = vec![0u64; la + lb];
            mul_prepared(&mut r, &a, &t, &mut Vec::new()).unwrap();
            assert_eq!(Nat::from_vec(r), want, "prepared {la} x {lb} at {n}");
        }
    }
    // The exact fit: la + lb − 1 = n with both top pieces nonzero.
    for n in [96usize, 128, 384, 1024, 3072] {
        let la = n / 2;
        let lb = n + 1 - la;
        let mut a: Vec<u64> = random_digits(&mut rng, la);
        let mut b: Vec<u64> = random_digits(&mut rng, lb);
        a[la - 1] |= 1 << 63;
        b[lb - 1] |= 1 << 63;
        let t = Transform::new_with(&b, n, true).unwrap();
        assert!(matches!(t.engine, Engine::Ifma(_)));
        let mut r = vec![0u64; la + lb];
        mul_prepared(&mut r, &a, &t, &mut Vec::new()).unwrap();
        assert_eq!(Nat::from_vec(r), schoolbook(&a, &b), "exact fit at {n}");
    }
    for n in [32usize, 64, 96, 128, 192, 768, 2048] {
        let modulus = &Nat::<u64>::power_of_two(64 * n as u64) - &Nat::one();
        for all_max in [false, true] {
            let la = if all_max { n } else { 1 + (rng.next_u64() as usize) % n };
            let a: Vec<u64> =
                (0..la).map(|_| if all_max { u64::MAX } else { rng.next_u64() }).collect();
            let b: Vec<u64> =
                (0..n).map(|_| if all_max { u64::MAX } else { rng.next_u64() }).collect();
            let ti = Transform::new_with(&b, n, true).unwrap();
            let ts = Transform::new_with(&b, n, false).unwrap();
            assert!(matches!(ti.engine, Engine::Ifma(_)));
            let (mut ri, mut rs) = (vec![0u64; n], vec![0u64; n]);
            cyclic_mul_prepared(&mut ri, &a, &ti, &mut Vec::new()).unwrap();
            cyclic_mul_prepared(&mut rs, &a, &ts, &mut Vec::new()).unwrap();
            let want = schoolbook(&a, &b).checked_rem(&modulus).unwrap();
            let got_i = Nat::from_vec(ri).checked_rem(&modulus).unwrap();
            let got_s = Nat::from_vec(rs).checked_rem(&modulus).unwrap();
            assert_eq!(got_i, want, "cyclic {n}");
            assert_eq!(got_s, want, "cyclic {n}");
        }
    }
}
