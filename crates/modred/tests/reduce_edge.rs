//! Edge inputs for the general-purpose reducers (`reduce_util::ALGORITHMS`), checked against `num-bigint` and against each other:
//! edge moduli (b^(k−1), top digit 1 and b − 1, all ones, b^k − small, …) with edge
//! arguments (0, 1, m − 1, m, m², each bound − 1, …); arguments that make the classical
//! quotient estimate wrong by two (before its three-digit test) and by one (after it, the
//! add-back case); arguments whose Barrett estimate is low by 1, 2 and 3; and the special
//! arguments of paper 000 §4.

mod reduce_util;

use modred::reduce::{Barrett, Reducer};
use modred::{Limb, Nat};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use reduce_util::{check_all, edge_moduli, edge_xs, from_big, pow_b, BigDraws};

fn edge_case_sweep<L: Limb>(ks: &[usize], seed: u64) {
    let mut rng = SplitMix64::new(seed);
    for &k in ks {
        for m in edge_moduli::<L>(k, &mut rng) {
            let xs = edge_xs::<L>(&m, k);
            let pairs = vec![
                (m.clone() - 1u32, m.clone() - 1u32),
                (BigUint::zero(), m.clone() - 1u32),
                (BigUint::one(), BigUint::one()),
                (rng.big_below(&m), m.clone() - 1u32),
            ];
            check_all::<L>(&m, &xs, &pairs);
        }
    }
}

#[test]
fn edge_moduli_and_arguments_u8() {
    edge_case_sweep::<u8>(&[1, 2, 3, 4, 5, 8, 17], 30);
}

#[test]
fn edge_moduli_and_arguments_u16() {
    edge_case_sweep::<u16>(&[1, 2, 3, 4, 8, 16], 31);
}

#[test]
fn edge_moduli_and_arguments_u32() {
    edge_case_sweep::<u32>(&[1, 2, 3, 4, 8, 16], 32);
}

#[test]
fn edge_moduli_and_arguments_u64() {
    edge_case_sweep::<u64>(&[1, 2, 3, 4, 8, 16, 32, 33, 64], 33);
}

fn digit(x: &BigUint, i: usize, d: u32) -> u64 {
    ((x >> (i * d as usize)) & BigUint::from((1u64 << d) - 1)).to_u64().unwrap()
}

/// The errors of the classical quotient digit estimates (paper 000, Algorithm 1; Knuth
/// 4.3.1 D) on `x mod m` with `d`-bit digits, step by step: `(q̂₀ − q, q̂₁ − q)` with `q̂₀`
/// the two-digit estimate `(x_i b + x_{i−1}) div m_{k−1}` (or `b − 1`) and `q̂₁` after the
/// three-digit test, both on the normalized operands as the implementation forms them.
fn classical_estimate_errors(m: &BigUint, x: &BigUint, d: u32) -> Vec<(u64, u64)> {
    let k = m.bits().div_ceil(d as u64) as usize;
    let s = k as u64 * d as u64 - m.bits();
    let (m, mut x) = (m << s, x << s);
    let l = (x.bits().div_ceil(d as u64) as usize).max(k);
    let b = 1u128 << d;
    let (m1, m2) =
        (digit(&m, k - 1, d) as u128, if k >= 2 { digit(&m, k - 2, d) as u128 } else { 0 });
    let shifted = |v: &BigUint, j: usize| v << (j * d as usize);
    if x >= shifted(&m, l - k) {
        x -= shifted(&m, l - k);
    }
    let mut errors = Vec::new();
    for i in (k..l).rev() {
        let xi = digit(&x, i, d) as u128;
        let xi1 = digit(&x, i - 1, d) as u128;
        let xi2 = if i >= 2 { digit(&x, i - 2, d) as u128 } else { 0 };
        let q0 = if xi == m1 { b - 1 } else { (xi * b + xi1) / m1 };
        let mut q1 = q0;
        while q1 * (m1 * b + m2) > xi * b * b + xi1 * b + xi2 {
            q1 -= 1;
        }
        let q = (&x >> ((i - k) * d as usize)) / &m;
        let q = q.to_u64().unwrap() as u128;
        assert!(q < b);
        errors.push(((q0 - q) as u64, (q1 - q) as u64));
        x -= shifted(&(&m * q as u64), i - k);
    }
    errors
}

/// Searches (fixed seed, `u8` digits, structured random moduli and arguments) for
/// arguments whose classical estimate is wrong by two before the three-digit test and by
/// one after it, checks Knuth's bounds (at most 2 and 1) on every step seen, and runs
/// every reducer on the arguments found.
#[test]
fn classical_quotient_estimate_off_by_two_and_by_one() {
    let mut rng = SplitMix64::new(40);
    let (mut off_by_two, mut add_back) = (Vec::new(), Vec::new());
    for trial in 0..20_000 {
        let k = 2 + trial % 3;
        let m = rng.big_structured(k, 8);
        if m.bits() <= 8 * (k as u64 - 1) {
            continue;
        }
        let x = rng.big_structured(2 * k, 8) % (&m * &m);
        let errs = classical_estimate_errors(&m, &x, 8);
        assert!(errs.iter().all(|&(e0, e1)| e0 <= 2 && e1 <= 1), "Knuth's bound, m = {m:#x}");
        if errs.iter().any(|&(e0, _)| e0 == 2) && off_by_two.len() < 50 {
            off_by_two.push((m.clone(), x.clone()));
        }
        if errs.iter().any(|&(_, e1)| e1 == 1) && add_back.len() < 50 {
            add_back.push((m, x));
        }
    }
    assert!(!off_by_two.is_empty(), "no argument with the two-digit estimate two too big");
    assert!(!add_back.is_empty(), "no argument needing the add-back step");
    for (m, x) in off_by_two.iter().chain(&add_back) {
        check_all::<u8>(m, &[x.clone(), x + 1u32, x * 256u32], &[]);
    }
}

/// Searches for arguments whose Barrett estimate `q̂` is low by 1 and by 2, checks the
/// proven bound `q − 3 ≤ q̂ ≤ q` (`q − 2` for one-digit moduli, where the product is
/// whole) on every argument seen, and runs every reducer on the arguments found. (The
/// third unit of the bound, from the truncated product, has not been observed: neither
/// here nor in directed searches near m = b^(k−1), x = b^(2k) − small.)
#[test]
fn barrett_quotient_estimate_low_by_one_and_two() {
    let mut rng = SplitMix64::new(41);
    let mut found: [Vec<(BigUint, BigUint)>; 4] = Default::default();
    for trial in 0..60_000 {
        let k = 1 + trial % 4;
        let m = rng.big_structured(k, 8);
        if m.is_zero() || m.bits() <= 8 * (k as u64 - 1) {
            continue;
        }
        let r = Barrett::<u8>::new(&from_big(&m)).unwrap();
        for _ in 0..4 {
            let x = rng.big_structured(2 * k, 8);
            let q = &x / &m;
            let qh = reduce_util::to_big(&r.quotient_estimate(&from_big(&x)).unwrap());
            assert!(qh <= q, "q̂ too big: m = {m:#x}, x = {x:#x}");
            let err = (&q - &qh).to_usize().unwrap();
            assert!(err <= if k == 1 { 2 } else { 3 }, "q̂ low by {err}: m = {m:#x}, x = {x:#x}");
            if found[err].len() < 20 {
                found[err].push((m.clone(), x));
            }
        }
    }
    assert!(!found[1].is_empty() && !found[2].is_empty(), "no estimate low by 1 or 2");
    eprintln!("Barrett estimates low by 3 found: {}", found[3].len());
    for (m, x) in found.iter().flatten() {
        check_all::<u8>(m, &[x.clone(), x - (x % m)], &[]);
    }
}

/// Paper 000 §2: "for about 90% of the values of x < m² and m the initial value of q̂ will
/// be equal to x div m and only in 1% of cases q̂ will be two in error" (b = 2^16). Our
/// truncated estimate, on random 8-digit moduli and x < m², stays close to that.
#[test]
fn barrett_estimate_error_distribution_at_b_2_16() {
    let mut rng = SplitMix64::new(42);
    let mut hist = [0u32; 4];
    let n = 4000;
    for _ in 0..n {
        let m = rng.big_exact_bits(128);
        let r = Barrett::<u16>::new(&from_big(&m)).unwrap();
        let x = rng.big_below(&(&m * &m));
        let qh = reduce_util::to_big(&r.quotient_estimate(&from_big(&x)).unwrap());
        hist[(&x / &m - qh).to_usize().unwrap()] += 1;
    }
    eprintln!("Barrett q − q̂ at b = 2^16, k = 8: {hist:?} of {n}");
    assert!(hist[0] as f64 > 0.8 * n as f64 && (hist[2] + hist[3]) as f64 <= 0.03 * n as f64);
}

/// `−m_0^(−1) mod b`.
fn m0_prime<L: Limb>(m: &BigUint) -> u64 {
    let b = pow_b::<L>(1);
    let inv = (m % &b).modinv(&b).unwrap();
    ((&b - inv) % &b).to_u64().unwrap()
}

/// Paper 000 §4: `x = h·b^k + b^k − (Σ_{i<n} t_i·m·b^i) mod b^k`, `t_i = y_i·m'_0 mod b`,
/// leaves `k − n` zero digits after `n` steps of Montgomery's reduction (checked here:
/// `x + Σ t_i·m·b^i ≡ 0 mod b^k`). Every reducer gets them.
fn montgomery_special<L: Limb>(bits: u64, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let d = L::BITS as u64;
    for _ in 0..6 {
        let m = rng.big_exact_bits(bits) | BigUint::one();
        let k = bits.div_ceil(d) as usize;
        let bk = pow_b::<L>(k);
        let mp = m0_prime::<L>(&m);
        let mut xs = Vec::new();
        for n in 1..=k {
            let mut s = BigUint::zero();
            for i in 0..n {
                let t = (rng.below_u64(1 << d.min(63)) as u128 * mp as u128) % (1u128 << d);
                s += (&m * BigUint::from(t)) << (i as u64 * d);
            }
            let h = 1u32 + rng.big_below(&(&m - 2u32));
            let x = &h * &bk + &bk - (&s % &bk);
            assert!((&x + &s) % &bk == BigUint::zero());
            assert!(x < &m * &bk);
            xs.push(x);
        }
        check_all::<L>(&m, &xs, &[]);
    }
}

#[test]
fn montgomery_special_arguments_of_section_4() {
    montgomery_special::<u8>(32, 50);
    montgomery_special::<u16>(128, 51);
    montgomery_special::<u64>(512, 52);
}

/// Paper 000 §4: `x = g·m·b^(l−k−n) + h` (`0 < n ≤ l − k`, `0 < g < b^n`, `0 ≤ h < m`) has
/// the quotient `g·b^(l−k−n)`, with `l − k − n` zero digits; Barrett's estimate is that
/// quotient or at most 3 below. Every reducer gets them.
fn classical_special<L: Limb>(bits: u64, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let d = L::BITS as u64;
    for _ in 0..6 {
        let m = rng.big_exact_bits(bits) | BigUint::one();
        let k = bits.div_ceil(d) as usize;
        let l = 2 * k;
        let r = Barrett::<L>::new(&from_big(&m)).unwrap();
        let mut xs = Vec::new();
        for n in 1..=l - k {
            let g = 1u32 + rng.big_below(&(pow_b::<L>(n) - 1u32));
            let h = rng.big_below(&m);
            let x = ((&g * &m) << ((l - k - n) as u64 * d)) + &h;
            if x >= pow_b::<L>(l) {
                continue;
            }
            let q = &x / &m;
            assert_eq!(q, &g << ((l - k - n) as u64 * d));
            let qh = reduce_util::to_big(&r.quotient_estimate(&from_big(&x)).unwrap());
            assert!(qh <= q && &q - &qh <= BigUint::from(3u32));
            xs.push(x);
        }
        check_all::<L>(&m, &xs, &[]);
    }
}

#[test]
fn classical_special_arguments_of_section_4() {
    classical_special::<u8>(32, 60);
    classical_special::<u16>(128, 61);
    classical_special::<u64>(512, 62);
}

/// Arguments much shorter than the modulus (every length), and `reduce_raw` on a slice
/// with many high zero digits.
#[test]
fn short_and_padded_arguments() {
    let m: BigUint = (BigUint::one() << 200u32) - 15u32;
    let mut rng = SplitMix64::new(70);
    let xs: Vec<BigUint> = (0..40).map(|i| rng.big_bits(5 * i + 1)).collect();
    check_all::<u64>(&m, &xs, &[]);
    let mn: Nat<u64> = from_big(&m);
    for alg in reduce_util::ALGORITHMS {
        let r = modred::reduce::make(alg, &mn).unwrap();
        let rho = if reduce_util::is_montgomery(alg) {
            pow_b::<u64>(r.width()) % &m
        } else {
            BigUint::one()
        };
        let mut out = vec![0u64; r.width()];
        for x in [vec![5u64, 0, 0, 0, 0, 0, 0, 0], vec![0; 8], vec![7, 0, 0, 1, 0, 0, 0, 0]] {
            r.reduce_raw(&mut out, &x, &mut modred::Scratch::new());
            let want = reduce_util::to_big(&Nat::from_limbs(&x)) % &m;
            assert_eq!(reduce_util::to_big(&Nat::from_limbs(&out)) * &rho % &m, want, "{alg}");
        }
    }
}
