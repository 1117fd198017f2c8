//! Exhaustive tests with `u8` digits (b = 256), the oracle being native `u64` arithmetic.
//!
//! What "every x" means here, and why it is enough:
//! - **One-digit moduli** (every `m` in 1..=255; every odd one for Montgomery): every `x`
//!   below the bound — `b² = 2^16` for Barrett, `m·b` for Montgomery, and for the
//!   unbounded classical algorithm every `x` of up to two digits (`x < b²`, the range of
//!   a product of residues) — and every product and square of two residues.
//! - **Two-digit moduli**, all 65 280 of them (the 32 640 odd ones for Montgomery): the
//!   edge arguments (0, 1, m − 1, m, m + 1, 2m − 1, m², m² − 1, (m − 1)², b^k ± 1,
//!   bound − 1, bound − 2, b³ − 1, …) and a few random ones, and three products.
//! - **Two-digit moduli, a spread of edge moduli** (top digit 1 and b − 1, b^(k−1),
//!   b^(k−1) + 1, 2^15 ± 1, b^k − 3, all ones), every argument in the following sense.
//!   Barrett's bound is b^4 = 2^32, too many to enumerate; but its quotient estimate
//!   `q̂` depends only on `q1 = x div b`, and for fixed `q1` the remainder estimate
//!   `x − q̂·m` grows with `x_0`, so the number of final subtractions is extreme at
//!   `x_0 = 0` and `x_0 = b − 1`: every `q1 < b³` with those two `x_0` covers every
//!   quotient estimate and the extremes of every correction. Montgomery's bound `m·b²`
//!   reaches 2^32 too; its quotient digits `t_i` depend only on `x mod b²`, so every low
//!   half with a set of high halves (0, 1, b − 1, b, m − 2, m − 1 and random, which
//!   exercise the carries into them) covers every `t`; for `m = 0x101` and `m = 0x1ff`
//!   every `x < m·b²` is run outright. Classical: every `x < b³` for two moduli. For
//!   time (the suite runs on two cores), Barrett's sweep takes two of the moduli.

use modred::reduce::{Barrett, Classical, Montgomery, MontgomeryInterleaved, Reducer, Scratch};
use modred::{Error, Nat};
use modred_testkit::SplitMix64;

const B: u64 = 256;

/// The digits of `x` (little-endian), `n` of them.
fn digits(x: u64, n: usize) -> [u8; 8] {
    let mut d = x.to_le_bytes();
    d[n..].fill(0);
    d
}

fn nat(v: u64) -> Nat<u8> {
    Nat::from_u64(v)
}

/// Runs `reduce_raw` on every `x` of `xs` (passed as `n` digits) and checks the result:
/// `x mod m` in the standard representation, `x·R⁻¹ mod m` (checked as `out·R ≡ x`,
/// `out < m`) in Montgomery's.
fn sweep<R: Reducer<u8>>(r: &R, montgomery: bool, n: usize, xs: impl Iterator<Item = u64>) {
    let m = r.modulus().to_u64().unwrap();
    let k = r.width();
    let rk = B.pow(k as u32) % m;
    let mut out = vec![0u8; k];
    let mut scratch = Scratch::new();
    for x in xs {
        let d = digits(x, n);
        r.reduce_raw(&mut out, &d[..n], &mut scratch);
        let got = Nat::from_limbs(&out).to_u64().unwrap();
        let ok = if montgomery { got < m && (got * rk) % m == x % m } else { got == x % m };
        assert!(ok, "{}: reduce_raw({x:#x}) mod {m:#x} gave {got:#x}", r.algorithm());
    }
}

/// `mul` and `sqr` of the residues `a` (each of `avals`) and `b` (each of `bvals`),
/// checked against `a·b·ρ⁻¹ mod m` through `out·ρ ≡ a·b`.
fn products<R: Reducer<u8>>(
    r: &R,
    montgomery: bool,
    avals: impl Iterator<Item = u64>,
    bvals: &[u64],
) {
    let m = r.modulus().to_u64().unwrap();
    let k = r.width();
    let rho = if montgomery { B.pow(k as u32) % m } else { 1 % m };
    let mut out = vec![0u8; k];
    let mut scratch = Scratch::new();
    for a in avals {
        let da = digits(a, k);
        for &b in bvals {
            let db = digits(b, k);
            r.mul(&mut out, &da[..k], &db[..k], &mut scratch);
            let got = Nat::from_limbs(&out).to_u64().unwrap();
            assert!(
                got < m && (got * rho) % m == (a * b) % m,
                "{}: mul({a}, {b}) mod {m}",
                r.algorithm()
            );
        }
        r.sqr(&mut out, &da[..k], &mut scratch);
        let got = Nat::from_limbs(&out).to_u64().unwrap();
        assert!(got < m && (got * rho) % m == (a * a) % m, "{}: sqr({a}) mod {m}", r.algorithm());
    }
}

/// Every argument at the bound is refused by `reduce`, and the one below accepted.
fn bound_enforced<R: Reducer<u8>>(r: &R, bound: u64) {
    assert!(matches!(r.reduce(&nat(bound)), Err(Error::OutOfRange { .. })));
    let m = r.modulus().to_u64().unwrap();
    assert_eq!(r.reduce(&nat(bound - 1)).unwrap().to_u64().unwrap(), (bound - 1) % m);
}

#[test]
fn one_digit_moduli_classical_and_barrett_every_x() {
    for m in 1..B {
        let c = Classical::new(&nat(m)).unwrap();
        sweep(&c, false, 2, 0..B * B);
        let r = Barrett::new(&nat(m)).unwrap();
        sweep(&r, false, 2, 0..B * B);
        bound_enforced(&r, B * B);
    }
}

#[test]
fn one_digit_moduli_montgomery_every_x() {
    for m in (1..B).step_by(2) {
        let r = Montgomery::new(&nat(m)).unwrap();
        sweep(&r, true, 2, 0..m * B);
        bound_enforced(&r, m * B);
        let r = MontgomeryInterleaved::new(&nat(m)).unwrap();
        sweep(&r, true, 2, 0..m * B);
        bound_enforced(&r, m * B);
    }
}

#[test]
fn one_digit_moduli_every_product() {
    for m in 1..B {
        let all: Vec<u64> = (0..m).collect();
        products(&Classical::new(&nat(m)).unwrap(), false, 0..m, &all);
        products(&Barrett::new(&nat(m)).unwrap(), false, 0..m, &all);
        if m % 2 == 1 {
            products(&Montgomery::new(&nat(m)).unwrap(), true, 0..m, &all);
            products(&MontgomeryInterleaved::new(&nat(m)).unwrap(), true, 0..m, &all);
        }
    }
}

/// The edge arguments of a two-digit modulus below `limit` (b^4 for the 4-digit sweep).
fn edge_args(m: u64, bound: u64, rng: &mut SplitMix64) -> Vec<u64> {
    let mut v = vec![
        0,
        1,
        m - 1,
        m,
        m + 1,
        2 * m - 1,
        2 * m,
        3 * m + 1,
        (m - 1) * (m - 1),
        m * m - 1,
        m * m,
        m * m + 1,
        B * B - 1,
        B * B,
        B * B + 1,
        B * B * B - 1,
        B * B * B,
        m * B - 1,
        m * B,
        m * B * B - 1,
        m * B * B - 2,
        bound - 1,
        bound - 2,
    ];
    for _ in 0..6 {
        v.push(rng.below_u64(bound));
    }
    v.retain(|&x| x < bound);
    v
}

#[test]
fn two_digit_moduli_edge_arguments_and_products() {
    let mut rng = SplitMix64::new(20);
    let b4 = B.pow(4);
    for m in B..B * B {
        let pairs = [m - 1, 1, rng.below_u64(m)];
        let avals = [m - 1, rng.below_u64(m)];
        let c = Classical::new(&nat(m)).unwrap();
        sweep(&c, false, 4, edge_args(m, b4, &mut rng).into_iter());
        products(&c, false, avals.into_iter(), &pairs);
        let r = Barrett::new(&nat(m)).unwrap();
        sweep(&r, false, 4, edge_args(m, b4, &mut rng).into_iter());
        products(&r, false, avals.into_iter(), &pairs);
        if m % 2 == 1 {
            let r = Montgomery::new(&nat(m)).unwrap();
            sweep(&r, true, 4, edge_args(m, m * B * B, &mut rng).into_iter());
            products(&r, true, avals.into_iter(), &pairs);
            let r = MontgomeryInterleaved::new(&nat(m)).unwrap();
            products(&r, true, avals.into_iter(), &pairs);
        }
    }
}

/// The spread of two-digit edge moduli.
const SPREAD: [u64; 9] = [0x100, 0x101, 0x1ff, 0x7fff, 0x8000, 0x8001, 0xff01, 0xfffd, 0xffff];

#[test]
fn two_digit_moduli_barrett_every_quotient_estimate() {
    // Two moduli: 2^25 arguments each. (m = b^(k−1) = 0x100, where μ has k + 2 digits,
    // is exact and gets every edge argument above.)
    for m in [0x1ff, 0xffff] {
        let r = Barrett::new(&nat(m)).unwrap();
        sweep(&r, false, 4, (0..B * B * B).flat_map(|q1| [q1 * B, q1 * B + B - 1]));
        bound_enforced(&r, B.pow(4));
    }
}

#[test]
fn two_digit_moduli_classical_every_three_digit_x() {
    for m in [0x101, 0xffff] {
        sweep(&Classical::new(&nat(m)).unwrap(), false, 4, 0..B * B * B);
    }
}

#[test]
fn two_digit_moduli_montgomery_every_low_half() {
    let mut rng = SplitMix64::new(21);
    for m in SPREAD.into_iter().filter(|m| m % 2 == 1) {
        let r = Montgomery::new(&nat(m)).unwrap();
        let mut highs = vec![0, 1, B - 1, B, m - 2, m - 1];
        for _ in 0..4 {
            highs.push(rng.below_u64(m));
        }
        highs.retain(|&h| h < m);
        sweep(&r, true, 4, highs.iter().flat_map(|&h| (0..B * B).map(move |l| h * B * B + l)));
        bound_enforced(&r, m * B * B);
    }
    // Every x below the bound, outright, where the bound is small enough.
    for m in [0x101, 0x1ff] {
        sweep(&Montgomery::new(&nat(m)).unwrap(), true, 4, 0..m * B * B);
    }
}

#[test]
fn two_digit_moduli_every_product_with_edge_residues() {
    let mut rng = SplitMix64::new(22);
    for m in SPREAD {
        let mut avals = vec![0, 1, 2, m - 1, m - 2, m / 2, B - 1, B];
        for _ in 0..8 {
            avals.push(rng.below_u64(m));
        }
        avals.retain(|&a| a < m);
        let all: Vec<u64> = (0..m).collect();
        products(&Classical::new(&nat(m)).unwrap(), false, avals.iter().copied(), &all);
        products(&Barrett::new(&nat(m)).unwrap(), false, avals.iter().copied(), &all);
        if m % 2 == 1 {
            products(&Montgomery::new(&nat(m)).unwrap(), true, avals.iter().copied(), &all);
            let r = MontgomeryInterleaved::new(&nat(m)).unwrap();
            products(&r, true, avals.iter().copied(), &all);
        }
    }
}
