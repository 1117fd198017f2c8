//! The transform engine on AVX-512 IFMA (`vpmadd52luq`/`vpmadd52huq`: the low and high 52
//! bits of a 52×52-bit product added to a 64-bit lane), eight residues to a register, in
//! the manner of Intel HEXL's NTT: primes below 2^50, Harvey's lazy butterflies with
//! Shoup-precomputed twiddles in radix 2^52.
//!
//! # Coefficients and exactness
//! Each 64-bit digit is cut into two 32-bit *pieces*, one coefficient each, and the
//! convolution is computed modulo the two primes [`PRIMES`] (`c·3·2^32 + 1`, just below
//! 2^50, product above `2^99.99`). A coefficient of a product of piece strings of lengths
//! `la ≤ lb` is below `la·2^64`, so it is recovered exactly by the CRT while `la < 2^35`
//! pieces — operands up to 2^40 bits, beyond the 2^30 this layer promises. A cyclic
//! product modulo `B^n − 1 = 2^(32·2n) − 1` is the cyclic convolution of length `2n` over
//! pieces, with coefficients below `2n·2^64`: exact for `n < 2^34`. Lengths are `2^j` and
//! `3·2^j` pieces up to `3·2^32`, with at least 64 in the radix-2 part (the last six
//! passes run on 64-value chunks in registers).
//!
//! # Lazy butterflies (D. Harvey, "Faster arithmetic for number-theoretic transforms",
//! J. Symb. Comp. 2014)
//! Shoup's product `a·w mod p` for a fixed `w < p`, `w' = ⌊w·2^52/p⌋` and any `a < 2^52`:
//! with `q = ⌊a·w'/2^52⌋` (one `vpmadd52huq`), `a·w − q·p ∈ [0, 2p)` (Harvey, Lemma 2 with
//! β = 2^52), so it is computed modulo 2^52 (two `vpmadd52luq` and a mask) without a
//! correction. Because `4p < 2^52`, values may stay in `[0, 2p)` or `[0, 4p)` between
//! passes:
//! - forward (decimation in frequency, natural order in): inputs in `[0, 2p)`;
//!   `x' = x + y` brought back below `2p` by one conditional subtraction of `2p` (an
//!   unsigned minimum), `y' = (x − y + 2p)·w` (argument below `4p`, product below `2p`);
//! - inverse (decimation in time): inputs in `[0, 4p)`; `x` brought below `2p`,
//!   `t = y·w < 2p`, `x' = x + t`, `y' = x − t + 2p`, both below `4p`;
//! - pointwise: Montgomery's product in radix 2^52 of two values below `2p`, result in
//!   `(0, 2p)` (the factor `2^(−52)` is folded into the final scaling by `n^(−1)·2^52`);
//! - the radix-3 passes keep the same ranges (bounds beside the code).
//!
//! The forward transform's output order is bit-reversed with every 64-value chunk
//! transposed as an 8×8 matrix (the last three passes work across registers after an
//! in-register transpose); the inverse transform reads that order and undoes it, and the
//! pointwise product does not care.
//!
//! This module holds the primes, the plans with their twiddle tables and the cutting of
//! digits into pieces; the vector passes that run on them are kernels
//! ([`crate::kernels::arch::avx512_ifma::ntt`]). They need AVX-512F and AVX-512 IFMA, so
//! the entry points here are `unsafe fn`s whose callers check the CPU first (`use_ifma`
//! in the parent module, through [`crate::kernels::cpu::avx512_ifma`]).

use super::cache::PlanCache;
use crate::kernels::arch::avx512_ifma::ntt::{self as vector, PrimeTables, MASK52, MIN_M};
use crate::limb::Limb;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;

/// The two largest primes `c·3·2^32 + 1` below 2^50 (c = 87377 and 87375), shared with
/// the FMA engine, whose recombined coefficients have the same form.
pub(crate) const PRIMES: [u64; 2] = super::fma::PRIMES;
/// Generators of their multiplicative groups.
const GENERATORS: [u64; 2] = super::fma::GENERATORS;
/// `2^32` divides `p − 1` for both primes.
pub(crate) const MAX_TWO_ADICITY: u32 = 32;

/// Whether `n` pieces is a length of this engine: `2^j` or `3·2^j` with `2^j ≥ 64`.
pub(crate) fn is_len(n: usize) -> bool {
    if n == 0 {
        return false;
    }
    let m = if n % 3 == 0 { n / 3 } else { n };
    m.is_power_of_two() && m >= MIN_M && m.trailing_zeros() <= MAX_TWO_ADICITY
}

fn mulmod(a: u64, b: u64, p: u64) -> u64 {
    ((a as u128 * b as u128) % p as u128) as u64
}

fn powmod(mut a: u64, mut e: u64, p: u64) -> u64 {
    let mut r = 1;
    while e > 0 {
        if e & 1 == 1 {
            r = mulmod(r, a, p);
        }
        a = mulmod(a, a, p);
        e >>= 1;
    }
    r
}

fn invmod(a: u64, p: u64) -> u64 {
    powmod(a, p - 2, p)
}

/// `(w, ⌊w·2^52/p⌋)` for `w < p`.
fn shoup(w: u64, p: u64) -> (u64, u64) {
    (w, (((w as u128) << 52) / p as u128) as u64)
}

/// The tables of prime `j` at `n` pieces, radix-2 length `m`.
fn tables(j: usize, n: usize, m: usize) -> PrimeTables {
    let (p, g) = (PRIMES[j], GENERATORS[j]);
    let mut pinv = p;
    for _ in 0..6 {
        pinv = pinv.wrapping_mul(2u64.wrapping_sub(p.wrapping_mul(pinv)));
    }
    let pinv = pinv & MASK52;
    let (mut fw, mut fs, mut iw, mut is) = (vec![0; m], vec![0; m], vec![0; m], vec![0; m]);
    let mut len = 1;
    while len < m {
        let w = powmod(g, (p - 1) / (2 * len as u64), p);
        let wi = invmod(w, p);
        let (mut x, mut y) = (1u64, 1u64);
        for t in 0..len {
            (fw[len + t], fs[len + t]) = shoup(x, p);
            (iw[len + t], is[len + t]) = shoup(y, p);
            x = mulmod(x, w, p);
            y = mulmod(y, wi, p);
        }
        len *= 2;
    }
    let mut r3: [Vec<u64>; 4] = Default::default();
    let mut r3i: [Vec<u64>; 4] = Default::default();
    let (mut omega, mut omega_inv) = (shoup(1, p), shoup(1, p));
    if n != m {
        let w = powmod(g, (p - 1) / n as u64, p);
        let wi = invmod(w, p);
        let (mut a, mut c) = (1u64, 1u64);
        for _ in 0..m {
            for (tab, x) in [(&mut r3, a), (&mut r3i, c)] {
                let (x1, s1) = shoup(x, p);
                let (x2, s2) = shoup(mulmod(x, x, p), p);
                tab[0].push(x1);
                tab[1].push(s1);
                tab[2].push(x2);
                tab[3].push(s2);
            }
            a = mulmod(a, w, p);
            c = mulmod(c, wi, p);
        }
        let om = powmod(w, m as u64, p);
        omega = shoup(om, p);
        omega_inv = shoup(invmod(om, p), p);
    }
    let scale = shoup(mulmod(invmod(n as u64 % p, p), (1u64 << 52) % p, p), p);
    PrimeTables { p, pinv, fw, fs, iw, is, r3, r3i, omega, omega_inv, scale }
}

/// Everything one length needs, for both primes.
#[derive(Debug)]
pub(crate) struct Plan {
    /// Transform length in pieces.
    pub(crate) n: usize,
    /// The radix-2 length: `n`, or `n/3` with a radix-3 pass.
    m: usize,
    tables: [PrimeTables; 2],
    /// `p1^(−1) mod p2` with its Shoup constant (Garner's recombination).
    garner: (u64, u64),
}

/// Plans are cached up to this many pieces (the tables take about `4n` words per prime).
const CACHE_MAX_LEN: usize = 1 << 23;

impl Plan {
    fn build(n: usize) -> Plan {
        debug_assert!(is_len(n));
        let m = if n % 3 == 0 { n / 3 } else { n };
        let tables = [tables(0, n, m), tables(1, n, m)];
        let garner = shoup(invmod(PRIMES[0] % PRIMES[1], PRIMES[1]), PRIMES[1]);
        Plan { n, m, tables, garner }
    }

    /// The plan for `n` pieces ([`is_len`]`(n)` must hold).
    pub(crate) fn get(n: usize) -> Arc<Plan> {
        static CACHE: PlanCache<Plan> = PlanCache::new(CACHE_MAX_LEN);
        CACHE.get(n, Plan::build)
    }
}

/// Forward transforms of the digits `a` (`2·a.len() ≤ n` pieces) into `out` (`2n` values,
/// prime-major).
///
/// # Safety
/// The CPU must have AVX-512F and AVX-512 IFMA.
pub(crate) unsafe fn forward_digits<L: Limb>(plan: &Plan, a: &[L], out: &mut [u64]) {
    let n = plan.n;
    debug_assert!(L::BITS == 64 && 2 * a.len() <= n && out.len() == 2 * n);
    let (first, second) = out.split_at_mut(n);
    for (o, d) in first.chunks_exact_mut(2).zip(a) {
        let d = d.to_u64();
        o[0] = d & 0xffff_ffff;
        o[1] = d >> 32;
    }
    first[2 * a.len()..].fill(0);
    second.copy_from_slice(first);
    // SAFETY: the caller guarantees the CPU features.
    unsafe {
        vector::forward(&plan.tables[0], plan.m, first);
        vector::forward(&plan.tables[1], plan.m, second);
    }
}

/// `x ← x ⋆ y` pointwise (both `2n` values, forward transforms).
///
/// # Safety
/// The CPU must have AVX-512F and AVX-512 IFMA.
pub(crate) unsafe fn pointwise(plan: &Plan, x: &mut [u64], y: Option<&[u64]>) {
    let n = plan.n;
    for (j, t) in plan.tables.iter().enumerate() {
        let ys = y.map(|y| &y[j * n..(j + 1) * n]);
        // SAFETY: the caller guarantees the CPU features.
        unsafe { vector::pointwise(t, &mut x[j * n..(j + 1) * n], ys) };
    }
}

/// Inverse transforms of `x` (`2n` values) and Garner's recombination: afterwards
/// `x[i] = x1 < p1` and `x[n + i] = x2 < p2` with coefficient `i` equal to
/// `x1 + p1·x2` (below `p1·p2`).
///
/// # Safety
/// The CPU must have AVX-512F and AVX-512 IFMA.
pub(crate) unsafe fn inverse_crt(plan: &Plan, x: &mut [u64]) {
    let (first, second) = x.split_at_mut(plan.n);
    let [t1, t2] = &plan.tables;
    // SAFETY: the caller guarantees the CPU features.
    unsafe {
        vector::inverse(t1, plan.m, first);
        vector::inverse(t2, plan.m, second);
        vector::scale_crt(t1, t2, plan.garner, first, second);
    }
}
