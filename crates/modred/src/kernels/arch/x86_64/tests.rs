//! The x86-64 kernels against their portable twins, on the same inputs, in every build
//! (with `--features portable` too: these tests call the kernels directly, not through the
//! dispatch). Lengths 0 to 100, so that every tail length meets every number of unrolled
//! blocks; random digits and the edge cases: all digits b − 1 (the longest carry and
//! borrow chains), all zero, and multipliers 0, 1, b − 1. The destination starts with
//! random contents and has guard digits above the n digits, which must stay untouched.
//!
//! On a CPU without BMI2 and ADX the assembly kernels cannot run: those tests print a
//! note and pass, and only the safe entry points (then the portable kernels) are checked.

use super::{has_bmi2_adx, scalar};
use crate::kernels::arch::x86_64 as x;
use crate::kernels::portable;
use crate::kernels::tests::Rng;
use alloc::vec;
use alloc::vec::Vec;
use std::eprintln;

type RowKernel = unsafe fn(&mut [u64], &[u64], u64) -> u64;
type SafeRowKernel = fn(&mut [u64], &[u64], u64) -> u64;

/// Guard digits above the n digits a row kernel may write.
const GUARD: usize = 2;

/// Whether the assembly kernels can run here; says so on stderr when they cannot.
fn adx_or_note(test: &str) -> bool {
    let present = has_bmi2_adx();
    if !present {
        eprintln!("note: {test}: this CPU lacks BMI2/ADX, assembly kernels not tested");
    }
    present
}

/// The multipliers every row kernel is run with: edge digits and random ones.
fn multipliers(rng: &mut Rng) -> [u64; 8] {
    [0, 1, 2, u64::MAX, u64::MAX - 1, 1 << 63, rng.next(), rng.digit()]
}

/// Operands of n digits: random, biased towards edge digits, all b − 1, all zero.
fn operands(rng: &mut Rng, n: usize) -> [Vec<u64>; 4] {
    [(0..n).map(|_| rng.next()).collect(), rng.digits(n), vec![u64::MAX; n], vec![0; n]]
}

/// Runs `fast` and `slow` on the same `(r, a, b)` over lengths 0..=100 and compares the
/// returned digit and all of `r`, guard digits included.
fn check_rows(
    name: &str,
    seed: u64,
    fast: impl Fn(&mut [u64], &[u64], u64) -> u64,
    slow: SafeRowKernel,
) {
    let mut rng = Rng::new(seed);
    for n in 0..=100 {
        for a in operands(&mut rng, n) {
            // Destinations: random, all b − 1 (addmul_1's longest carries), all zero
            // (submul_1's longest borrows), each with random guard digits.
            for fill in 0..3 {
                let mut r0: Vec<u64> = match fill {
                    0 => (0..n).map(|_| rng.next()).collect(),
                    1 => vec![u64::MAX; n],
                    _ => vec![0; n],
                };
                r0.extend((0..GUARD).map(|_| rng.next()));
                for b in multipliers(&mut rng) {
                    let (mut r1, mut r2) = (r0.clone(), r0.clone());
                    let c1 = fast(&mut r1, &a, b);
                    let c2 = slow(&mut r2, &a, b);
                    assert_eq!(
                        c1, c2,
                        "{name}: returned digit, n = {n}, b = {b:#x}, a = {a:x?}, r = {r0:x?}"
                    );
                    assert_eq!(r1, r2, "{name}: r, n = {n}, b = {b:#x}, a = {a:x?}, r = {r0:x?}");
                }
            }
        }
    }
}

fn check_unsafe_rows(name: &str, seed: u64, fast: RowKernel, slow: SafeRowKernel) {
    // SAFETY: only called after `has_bmi2_adx()` returned true.
    check_rows(name, seed, |r, a, b| unsafe { fast(r, a, b) }, slow);
}

#[test]
fn mul_1_matches_portable() {
    check_rows("mul_1 (dispatch)", 21, x::mul_1, portable::mul_1);
    if adx_or_note("mul_1_matches_portable") {
        check_unsafe_rows("mul_1_adx", 22, x::mul_1_adx, portable::mul_1);
    }
}

#[test]
fn addmul_1_matches_portable() {
    check_rows("addmul_1 (dispatch)", 23, x::addmul_1, portable::addmul_1);
    if adx_or_note("addmul_1_matches_portable") {
        check_unsafe_rows("addmul_1_adx", 24, x::addmul_1_adx, portable::addmul_1);
    }
}

#[test]
fn submul_1_matches_portable() {
    check_rows("submul_1 (dispatch)", 25, x::submul_1, portable::submul_1);
    if adx_or_note("submul_1_matches_portable") {
        check_unsafe_rows("submul_1_adx", 26, x::submul_1_adx, portable::submul_1);
    }
}

/// The extreme cases by value: all b − 1 destination and operand with multiplier b − 1,
/// whose results are known in closed form.
#[test]
fn row_kernels_at_the_extremes() {
    if !adx_or_note("row_kernels_at_the_extremes") {
        return;
    }
    for n in 0..=100 {
        let a = vec![u64::MAX; n];
        // (b^n − 1)(b − 1) = (b − 2)·b^n + b^n − b + 1: digits 1, b − 1, …, b − 1; high b − 2.
        let mut r = vec![0u64; n];
        // SAFETY: has_bmi2_adx() returned true above.
        let high = unsafe { x::mul_1_adx(&mut r, &a, u64::MAX) };
        let mut expected = vec![u64::MAX; n];
        if n > 0 {
            expected[0] = 1;
        }
        assert_eq!(r, expected, "mul_1, n = {n}");
        assert_eq!(high, if n > 0 { u64::MAX - 1 } else { 0 });
        // (b^n − 1) + (b^n − 1)(b − 1) = (b^n − 1)·b: digits 0, b − 1, …, b − 1; carry b − 1.
        let mut r = vec![u64::MAX; n];
        // SAFETY: has_bmi2_adx() returned true above.
        let carry = unsafe { x::addmul_1_adx(&mut r, &a, u64::MAX) };
        let mut expected = vec![u64::MAX; n];
        if n > 0 {
            expected[0] = 0;
        }
        assert_eq!(r, expected, "addmul_1, n = {n}");
        assert_eq!(carry, if n > 0 { u64::MAX } else { 0 });
        // 0 − (b^n − 1)(b − 1): the borrow digit b − 1 when n > 0.
        let mut r = vec![0u64; n];
        // SAFETY: has_bmi2_adx() returned true above.
        let borrow = unsafe { x::submul_1_adx(&mut r, &a, u64::MAX) };
        let mut check = r.clone();
        // SAFETY: has_bmi2_adx() returned true above.
        let back = unsafe { x::addmul_1_adx(&mut check, &a, u64::MAX) };
        assert_eq!(back, borrow, "submul_1 undone by addmul_1, n = {n}");
        assert!(check.iter().all(|&d| d == 0));
        assert_eq!(borrow, if n > 0 { u64::MAX } else { 0 });
    }
}

/// Products built on the assembly rows against the portable schoolbook, including the
/// safe entry points.
#[test]
fn basecase_products_match_portable() {
    let adx = adx_or_note("basecase_products_match_portable");
    let mut rng = Rng::new(27);
    for n in 1..=100 {
        for m in [1, 2, 3, 4, 5, 7, 8, 9, 16, 31, n, 1 + rng.below(n as u64) as usize] {
            let [a, a_digits, ones, _] = operands(&mut rng, n);
            let b = match m % 3 {
                0 => vec![u64::MAX; m],
                1 => rng.digits(m),
                _ => (0..m).map(|_| rng.next()).collect(),
            };
            for a in [a, a_digits, ones] {
                let r0: Vec<u64> = (0..n + m).map(|_| rng.next()).collect();
                let mut expected = r0.clone();
                portable::mul_basecase(&mut expected, &a, &b);
                let mut r = r0.clone();
                x::mul_basecase(&mut r, &a, &b);
                assert_eq!(r, expected, "mul_basecase (dispatch) {n}×{m}");
                if adx {
                    let mut r = r0.clone();
                    // SAFETY: has_bmi2_adx() returned true.
                    unsafe { x::mul_basecase_adx(&mut r, &a, &b) };
                    assert_eq!(r, expected, "mul_basecase_adx {n}×{m}");
                }
            }
        }
        for a in operands(&mut rng, n) {
            let r0: Vec<u64> = (0..2 * n).map(|_| rng.next()).collect();
            let mut expected = r0.clone();
            portable::sqr_basecase(&mut expected, &a);
            let mut r = r0.clone();
            x::sqr_basecase(&mut r, &a);
            assert_eq!(r, expected, "sqr_basecase (dispatch) {n}²");
            if adx {
                let mut r = r0.clone();
                // SAFETY: has_bmi2_adx() returned true.
                unsafe { x::sqr_basecase_adx(&mut r, &a) };
                assert_eq!(r, expected, "sqr_basecase_adx {n}²");
            }
        }
    }
}

/// The two-by-one division against the `u128` one: random operands, the largest
/// remainders and quotients (`hi = d − 1`), one-digit and full-width divisors.
#[test]
fn div_2by1_matches_u128_division() {
    let mut rng = Rng::new(31);
    for i in 0..20_000u64 {
        let d = match i % 4 {
            0 => rng.next() | 1 << 63,
            1 => 1 + rng.below(1 << 20),
            2 => u64::MAX - rng.below(3),
            _ => 1.max(rng.next() >> rng.below(64)),
        };
        let hi = if i % 3 == 0 { d - 1 } else { rng.below(d) };
        let lo = if i % 5 == 0 { u64::MAX } else { rng.next() };
        let n = (hi as u128) << 64 | lo as u128;
        let want = ((n / d as u128) as u64, (n % d as u128) as u64);
        // SAFETY: hi < d.
        assert_eq!(unsafe { scalar::div_2by1(hi, lo, d) }, want, "{hi:#x}:{lo:#x} / {d:#x}");
    }
}

/// The CMOV corrections against their definitions, on the transform primes' range
/// (`2^61 < p < 2^62`) and on small and odd-sized moduli, with the edge operands 0, 1,
/// p − 1, and for `sub_mod` subtrahends up to `a + p − 1`.
#[test]
fn cmov_selects_match_their_definitions() {
    let mut rng = Rng::new(32);
    for i in 0..2_000u64 {
        let p = match i % 3 {
            0 => (1 << 61) + 1 + rng.below(1 << 61),
            1 => 2 + rng.below(1000),
            _ => 2 + rng.below((1 << 63) - 2),
        };
        let pick = |rng: &mut Rng, j: u64| match j % 4 {
            0 => 0,
            1 => p - 1,
            2 => 1 % p,
            _ => rng.below(p),
        };
        for j in 0..16 {
            let a = pick(&mut rng, j);
            let b = pick(&mut rng, j / 4);
            assert_eq!(scalar::add_mod(a, b, p), ((a as u128 + b as u128) % p as u128) as u64);
            let want = (a as i128 - b as i128).rem_euclid(p as i128) as u64;
            assert_eq!(scalar::sub_mod(a, b, p), want, "{a} − {b} mod {p}");
            // A subtrahend beyond p, as long as a − b > −p.
            let b = b + rng.below(a + 1);
            let want = (a as i128 - b as i128).rem_euclid(p as i128) as u64;
            assert_eq!(scalar::sub_mod(a, b, p), want, "{a} − {b} mod {p}");
        }
    }
}

/// The nine-digit product in registers against the portable schoolbook, on every pair of
/// operands from random digits, digits biased towards the edges, all b − 1 (the longest
/// carry chains: (b^9 − 1)² has the largest window), all zero, and 1; then through the
/// dispatch (`mul_basecase` takes it for nine digits by nine, `sqr_basecase` for nine).
#[test]
fn mul_9_regs_matches_portable() {
    if !adx_or_note("mul_9_regs") {
        return;
    }
    let mut rng = Rng::new(0x9_9);
    for _ in 0..200 {
        let [r0, r1, ones, zero] = operands(&mut rng, 9);
        let mut one = vec![0u64; 9];
        one[0] = 1;
        let ops = [r0, r1, ones, zero, one];
        for a in &ops {
            for b in &ops {
                let (a9, b9): (&[u64; 9], &[u64; 9]) =
                    (a.as_slice().try_into().unwrap(), b.as_slice().try_into().unwrap());
                let mut want = [0u64; 18];
                portable::mul_basecase(&mut want, a, b);
                let mut got = [rng.next(); 18];
                // SAFETY: the CPU has BMI2 and ADX (checked above).
                unsafe { x::mul_9_regs(&mut got, a9, b9) };
                assert_eq!(got, want, "{a:x?} · {b:x?}");
                let mut via = [rng.next(); 18];
                x::mul_basecase(&mut via, a, b);
                assert_eq!(via, want, "dispatch: {a:x?} · {b:x?}");
                if a == b {
                    let mut sq = [rng.next(); 18];
                    x::sqr_basecase(&mut sq, a);
                    assert_eq!(sq, want, "square dispatch: {a:x?}");
                }
            }
        }
    }
}

#[test]
fn mul_8_regs_matches_portable() {
    if !adx_or_note("mul_8_regs") {
        return;
    }
    let mut rng = Rng::new(0x88);
    for _ in 0..200 {
        let [r0, r1, ones, zero] = operands(&mut rng, 8);
        let mut one = vec![0u64; 8];
        one[0] = 1;
        let ops = [r0, r1, ones, zero, one];
        for a in &ops {
            for b in &ops {
                let (a8, b8): (&[u64; 8], &[u64; 8]) =
                    (a.as_slice().try_into().unwrap(), b.as_slice().try_into().unwrap());
                let mut want = [0u64; 16];
                portable::mul_basecase(&mut want, a, b);
                let mut got = [rng.next(); 16];
                // SAFETY: the CPU has BMI2 and ADX (checked above).
                unsafe { x::mul_8_regs(&mut got, a8, b8) };
                assert_eq!(got, want, "{a:x?} · {b:x?}");
            }
        }
    }
}
