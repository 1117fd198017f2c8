//! The transforms against schoolbook convolution, and the cyclic products against full
//! products modulo `B^n − 1`.

use super::*;
use crate::nat::Nat;
use alloc::vec;
use modred_testkit::SplitMix64;

/// A working buffer left dirty by earlier products: the transforms must overwrite every
/// word they read.
fn dirty_buf() -> Vec<u64> {
    vec![0xa5a5_a5a5_a5a5_a5a5; if cfg!(miri) { 1 << 8 } else { 1 << 15 }]
}

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
/// The IFMA engine alone.
#[cfg(x86_kernels_compiled)]
const IFMA: Allow = Allow { ifma: true, fma: None };

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
            mul_with(&mut r_ifma, &a, &b, &mut dirty_buf(), IFMA);
            mul_with(&mut r_scalar, &a, &b, &mut dirty_buf(), Allow::SCALAR);
            assert_eq!(r_ifma, r_scalar, "{la} x {lb}");
            assert_eq!(Nat::from_vec(r_ifma), want, "{la} x {lb}");
            let mut s_ifma = vec![0u64; 2 * la];
            let mut s_scalar = vec![0u64; 2 * la];
            sqr_with(&mut s_ifma, &a, &mut dirty_buf(), IFMA);
            sqr_with(&mut s_scalar, &a, &mut dirty_buf(), Allow::SCALAR);
            assert_eq!(s_ifma, s_scalar, "{la}²");
            assert_eq!(Nat::from_vec(s_ifma), schoolbook(&a, &a), "{la}²");
            // Prepared, at the shortest length that holds the product: la + lb − 1 = n
            // digits, so 2n + 1 piece coefficients in 2n pieces (the wrapped one).
            let n = transform_len_at_least(la + lb - 1);
            let t = Transform::new_with(&b, n, IFMA).unwrap();
            assert!(matches!(t.engine, Engine::Pieces(Pieces::Ifma(_))) || !ifma::is_len(2 * n));
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
        let t = Transform::new_with(&b, n, IFMA).unwrap();
        assert!(matches!(t.engine, Engine::Pieces(Pieces::Ifma(_))));
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
            let ti = Transform::new_with(&b, n, IFMA).unwrap();
            let ts = Transform::new_with(&b, n, Allow::SCALAR).unwrap();
            assert!(matches!(ti.engine, Engine::Pieces(Pieces::Ifma(_))));
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

/// The kernels of the FMA engine this CPU runs: the portable twin, and the AVX2 one
/// where the CPU has AVX2 and FMA.
fn fma_kernels() -> Vec<fma::Kernel> {
    #[cfg(x86_kernels_compiled)]
    if crate::kernels::cpu::avx2_fma() {
        return vec![fma::Kernel::Portable, fma::Kernel::Avx2];
    } else {
        std::eprintln!("no AVX2+FMA on this CPU: the FMA engine's vector kernel is not exercised");
    }
    vec![fma::Kernel::Portable]
}

/// The FMA engine alone, with kernel `k`, at every length it has.
fn fma_only(k: fma::Kernel) -> Allow {
    Allow { ifma: false, fma: Some((k, 0)) }
}

/// `r ≡ x (mod p)` with `|r| < bound` for integers held in `f64`.
fn check_residue(r: f64, x: i128, p: u64, bound: f64, what: &str) {
    assert!(r == r.trunc() && r.abs() < bound, "{what}: {r} out of range");
    assert_eq!((r as i128 - x).rem_euclid(p as i128), 0, "{what}: {r} ≢ {x}");
}

/// The error bound of `ntt/fma.rs` at the ends of each operation's input range, against
/// exact integer arithmetic: `mul_tw` with `|a| = 3p − 1` (and near it) against the
/// largest twiddles `|w| = (p − 1)/2`, `mul` with `|a| = |b| = p − 1`, `reduce` with
/// `|s| = 4p − 1`, plus random operands in range; and the twin's `fma` against the
/// hardware's (std's `mul_add`).
#[test]
fn fma_largest_error_cases_are_exact() {
    let mut rng = SplitMix64::new(21);
    for &p in &fma::PRIMES {
        let pf = p as f64;
        let pinv = 1.0 / pf;
        let h = ((p - 1) / 2) as i128;
        let big = 3 * p as i128 - 1;
        let mut ws: Vec<i128> = vec![h, -h, h - 1, -(h - 1), 1, -1, 0];
        let mut avals: Vec<i128> = vec![big, -big, big - 1, -(big - 1), 0, 1, -1];
        for _ in 0..200 {
            ws.push((rng.next_u64() % p) as i128 - h);
            avals.push((rng.next_u64() % (2 * big as u64 + 1)) as i128 - big);
        }
        for &w in &ws {
            let tw = fma::twiddle(w.rem_euclid(p as i128) as u64, p);
            assert_eq!(tw.0 as i128, w);
            for &a in &avals {
                let r = fma::mul_tw(a as f64, tw.0, tw.1, pf);
                check_residue(r, a * w, p, 0.876 * pf, "mul_tw");
            }
        }
        let m = p as i128 - 1;
        let mut bvals: Vec<i128> = vec![m, -m, m - 1, -(m - 1), 0, 1, -1];
        for _ in 0..200 {
            bvals.push((rng.next_u64() % (2 * m as u64 + 1)) as i128 - m);
        }
        for &a in &bvals {
            for &b in &bvals {
                let r = fma::mul(a as f64, b as f64, pf, pinv);
                check_residue(r, a * b, p, 0.876 * pf, "mul");
            }
        }
        let s4 = 4 * p as i128 - 1;
        for s in [s4, -s4, s4 - 1, -(s4 - 1), 2 * p as i128, p as i128, 0] {
            let r = fma::reduce(s as f64, pf, pinv);
            check_residue(r, s, p, pf / 2.0 + 1.5, "reduce");
        }
        // The twin's FMA is the hardware's.
        for _ in 0..1000 {
            let a = ((rng.next_u64() >> 12) as i64 - (1 << 51)) as f64;
            let b = ((rng.next_u64() >> 12) as i64 - (1 << 51)) as f64;
            let c = -(a * b);
            assert_eq!(fma::fma(a, b, c), a.mul_add(b, c));
        }
    }
}

/// The AVX2 passes against the portable twin on the same data: forward and inverse
/// transforms at every radix-2 length from 8 to 2^15 (below, at and above the block
/// size, so every fused, single and in-register pass runs) with and without the radix-3
/// pass, on random pieces, all-`2^32 − 1` pieces and residues at `±(p − 1)`; the
/// pointwise products and the final recombination.
#[cfg(x86_kernels_compiled)]
#[test]
fn fma_vector_passes_match_portable_twin() {
    if !crate::kernels::cpu::avx2_fma() {
        std::eprintln!("no AVX2+FMA on this CPU: the FMA engine's vector kernel is not exercised");
        return;
    }
    use crate::kernels::arch::avx2::ntt as vector;
    let mut rng = SplitMix64::new(22);
    let mut m = 8;
    while m <= 1 << 15 {
        for three in [false, true] {
            let n = if three { 3 * m } else { m };
            let plan = fma::Plan::get(n);
            for kind in 0..3 {
                for (j, t) in plan.tables.iter().enumerate() {
                    let p = fma::PRIMES[j];
                    let x: Vec<f64> = (0..n)
                        .map(|_| match kind {
                            0 => (rng.next_u64() & 0xffff_ffff) as f64,
                            1 => 4_294_967_295.0,
                            _ => {
                                if rng.next_u64() & 1 == 0 {
                                    (p - 1) as f64
                                } else {
                                    -((p - 1) as f64)
                                }
                            }
                        })
                        .collect();
                    let (mut a, mut b) = (x.clone(), x.clone());
                    fma::forward_portable(t, plan.m, &mut a);
                    // SAFETY: the CPU has AVX2 and FMA (checked above).
                    unsafe { vector::forward(t, plan.m, &mut b) };
                    assert!(a == b, "forward, n = {n}, kind {kind}");
                    assert!(a.iter().all(|v| v.abs() < p as f64));
                    let (mut c, mut d) = (a.clone(), a.clone());
                    fma::pointwise_portable(t, &mut c, Some(&x));
                    // SAFETY: as above.
                    unsafe { vector::pointwise(t, &mut d, Some(&x)) };
                    assert!(c == d, "pointwise, n = {n}");
                    fma::pointwise_portable(t, &mut c, None);
                    // SAFETY: as above.
                    unsafe { vector::pointwise(t, &mut d, None) };
                    assert!(c == d, "pointwise square, n = {n}");
                    fma::inverse_portable(t, plan.m, &mut c);
                    // SAFETY: as above.
                    unsafe { vector::inverse(t, plan.m, &mut d) };
                    assert!(c == d, "inverse, n = {n}, kind {kind}");
                    // The inverse of the forward transform is n times the input.
                    fma::inverse_portable(t, plan.m, &mut a);
                    for (v, &x0) in a.iter().zip(&x) {
                        let want = (x0 as i128 * n as i128).rem_euclid(p as i128);
                        assert_eq!((*v as i128).rem_euclid(p as i128), want, "n = {n}");
                    }
                }
                let [t1, t2] = &plan.tables;
                let mut f: Vec<f64> = (0..2 * n)
                    .map(|i| {
                        let p = fma::PRIMES[i / n];
                        ((rng.next_u64() % (2 * p - 1)) as i64 - (p as i64 - 1)) as f64
                    })
                    .collect();
                let mut g = f.clone();
                let (f1, f2) = f.split_at_mut(n);
                fma::scale_crt_portable(t1, t2, plan.garner, f1, f2);
                let (g1, g2) = g.split_at_mut(n);
                // SAFETY: as above.
                unsafe { vector::scale_crt(t1, t2, plan.garner, g1, g2) };
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<u64>>();
                assert_eq!(bits(&f), bits(&g), "scale_crt, n = {n}");
            }
        }
        m *= if m < 1 << 13 { 2 } else { 4 };
    }
}

/// The FMA engine (each kernel this CPU runs) against the scalar engine and schoolbook
/// products: linear products and squares at piece lengths `2^j` and `3·2^j` from the
/// smallest the engine takes, random and all-`b − 1` digits (the largest coefficients),
/// prepared products that fill their transform to the one coefficient that wraps, and
/// cyclic products.
#[test]
fn fma_engine_matches_scalar_engine_and_schoolbook() {
    for k in fma_kernels() {
        let allow = fma_only(k);
        let mut rng = SplitMix64::new(23);
        let sizes = [
            (4usize, 1usize),
            (3, 3),
            (5, 7),
            (12, 1),
            (17, 16),
            (33, 32),
            (40, 57),
            (96, 97),
            (100, 3),
            (150, 150),
            (500, 700),
            (1536, 1537),
            (2500, 2600),
            (9000, 7000),
        ];
        for &(la, lb) in &sizes {
            for all_max in [false, true] {
                let mut digits = |n: usize| -> Vec<u64> {
                    (0..n).map(|_| if all_max { u64::MAX } else { rng.next_u64() }).collect()
                };
                let (a, b) = (digits(la), digits(lb));
                let want = schoolbook(&a, &b);
                let mut r_fma = vec![0u64; la + lb];
                let mut r_scalar = vec![0u64; la + lb];
                mul_with(&mut r_fma, &a, &b, &mut dirty_buf(), allow);
                mul_with(&mut r_scalar, &a, &b, &mut dirty_buf(), Allow::SCALAR);
                assert_eq!(r_fma, r_scalar, "{la} x {lb}, {k:?}");
                assert_eq!(Nat::from_vec(r_fma), want, "{la} x {lb}, {k:?}");
                let mut s_fma = vec![0u64; 2 * la];
                sqr_with(&mut s_fma, &a, &mut dirty_buf(), allow);
                assert_eq!(Nat::from_vec(s_fma), schoolbook(&a, &a), "{la}², {k:?}");
                let n = transform_len_at_least(la + lb - 1);
                let t = Transform::new_with(&b, n, allow).unwrap();
                assert!(matches!(t.engine, Engine::Pieces(Pieces::Fma(..))) || !fma::is_len(2 * n));
                let mut r = vec![0u64; la + lb];
                mul_prepared(&mut r, &a, &t, &mut Vec::new()).unwrap();
                assert_eq!(Nat::from_vec(r), want, "prepared {la} x {lb} at {n}, {k:?}");
            }
        }
        // The exact fit: la + lb − 1 = n with both top pieces nonzero.
        for n in [4usize, 12, 24, 96, 128, 384, 1024, 3072] {
            let la = n / 2;
            let lb = n + 1 - la;
            let mut a: Vec<u64> = random_digits(&mut rng, la);
            let mut b: Vec<u64> = random_digits(&mut rng, lb);
            a[la - 1] |= 1 << 63;
            b[lb - 1] |= 1 << 63;
            let t = Transform::new_with(&b, n, allow).unwrap();
            assert!(matches!(t.engine, Engine::Pieces(Pieces::Fma(..))));
            let mut r = vec![0u64; la + lb];
            mul_prepared(&mut r, &a, &t, &mut Vec::new()).unwrap();
            assert_eq!(Nat::from_vec(r), schoolbook(&a, &b), "exact fit at {n}, {k:?}");
        }
        for n in [4usize, 8, 12, 24, 32, 64, 96, 128, 192, 768, 2048, 6144] {
            let modulus = &Nat::<u64>::power_of_two(64 * n as u64) - &Nat::one();
            for all_max in [false, true] {
                let la = if all_max { n } else { 1 + (rng.next_u64() as usize) % n };
                let a: Vec<u64> =
                    (0..la).map(|_| if all_max { u64::MAX } else { rng.next_u64() }).collect();
                let b: Vec<u64> =
                    (0..n).map(|_| if all_max { u64::MAX } else { rng.next_u64() }).collect();
                let tf = Transform::new_with(&b, n, allow).unwrap();
                assert!(matches!(tf.engine, Engine::Pieces(Pieces::Fma(..))));
                let mut rf = vec![0u64; n];
                cyclic_mul_prepared(&mut rf, &a, &tf, &mut Vec::new()).unwrap();
                let want = schoolbook(&a, &b).checked_rem(&modulus).unwrap();
                let got = Nat::from_vec(rf).checked_rem(&modulus).unwrap();
                assert_eq!(got, want, "cyclic {n}, {k:?}");
            }
        }
    }
}

/// Long carry chains through the FMA engine: operands `2^k − 1` and `2^k + 1` whose
/// product's digits carry across the whole length, and a square of all-ones at the
/// lengths around a power of two (`2^j`, `3·2^j` pieces and one digit more).
#[test]
fn fma_engine_long_carries() {
    for k in fma_kernels() {
        let allow = fma_only(k);
        for n in [31usize, 32, 33, 47, 48, 49, 1023, 1024, 1025, 4096] {
            let a = vec![u64::MAX; n];
            let mut b = vec![0u64; n];
            b[0] = 1;
            b[n - 1] = 1 << 63;
            let mut r = vec![0u64; 2 * n];
            mul_with(&mut r, &a, &b, &mut dirty_buf(), allow);
            assert_eq!(Nat::from_vec(r), schoolbook(&a, &b), "{n}, {k:?}");
            let mut s = vec![0u64; 2 * n];
            sqr_with(&mut s, &a, &mut dirty_buf(), allow);
            assert_eq!(Nat::from_vec(s), schoolbook(&a, &a), "{n}², {k:?}");
        }
    }
}
