//! The transform engine in double precision with fused multiply-add, for CPUs without
//! AVX-512 IFMA, in the manner of FLINT's `fft_small` (D. Schultz's small-prime FFT:
//! primes below 2^50, residues held in `f64`, products reduced with FMA):
//! four residues to an AVX2 register (`kernels/arch/avx2/ntt.rs`), or one at a time in
//! the portable twin below, which computes bit for bit the same values (up to the sign
//! of zero).
//!
//! # Coefficients and exactness
//! The coefficients, primes and recombination are the IFMA engine's (`ntt/ifma.rs`):
//! each 64-bit digit is cut into two 32-bit *pieces*, the convolution is computed modulo
//! the two primes [`PRIMES`] (`c·3·2^32 + 1`, just below 2^50, product above `2^99.99`)
//! and recombined by Garner's method into `x1 + p1·x2`, stored in the same layout, so
//! that the parent module's carry code serves both engines. A coefficient of a product
//! of piece strings of lengths `la ≤ lb` is below `la·2^64`: exact while `la < 2^35`
//! pieces (operands up to 2^40 bits); a cyclic product of `n` digits is exact for
//! `n < 2^34`. Lengths are `2^j` and `3·2^j` pieces with at least [`MIN_M`] in the
//! radix-2 part (the last two passes work on groups of 8 values).
//!
//! # The arithmetic and its error bound
//! Every residue is an integer held exactly in an `f64`, in the *signed* range
//! `|v| < p` (invariant **I**); twiddles are kept as signed representatives
//! `|w| ≤ (p − 1)/2` together with `ω = fl(w/p)`, and `π = fl(1/p)`. With `u = 2^(−53)`
//! (round to nearest) and `p < 2^50`:
//!
//! - **reduce**`(s)` for an integer `|s| < 4p`: `q = round(fl(s·π))`,
//!   `r = fma(−q, p, s)`. `fl(s·π) = (s/p)(1 + δ)` with `|δ| ≤ 2u + u²`, so
//!   `|fl(s·π) − s/p| < 4·2^(−52)` and `|s/p − q| ≤ 1/2 + 2^(−50)`; `s − q·p` is an
//!   integer below `2^50` in magnitude, so the FMA computes it exactly:
//!   `r ≡ s`, `|r| ≤ p/2 + 1 < p`.
//! - **mul_tw**`(a, w)` (a twiddle) for an integer `|a| < 3p`: `h = fl(a·w)`,
//!   `l = fma(a, w, −h)`, `q = round(fl(a·ω))`, `r = fma(−q, p, h) + l`. The product's
//!   rounding error `l = a·w − h` is representable and the FMA computes it exactly (the
//!   error-free product `2MultFMA`, Muller et al., *Handbook of Floating-Point
//!   Arithmetic*; `|a·w| < 2^101`, no underflow), `|l| ≤ u·2^101 = 2^48`. `fl(a·ω) = (a·w/p)(1 + δ)`, `|δ| ≤ 2u + u²`, and
//!   `|a·w/p| < 1.5p < 1.5·2^50`, so `|fl(a·ω) − a·w/p| < 0.376` and, with `e = a·w − q·p`,
//!   `|e| < (1/2 + 0.376)·p < 0.876p`. `h − q·p = e − l` is an integer below
//!   `0.876·2^50 + 2^48 < 2^53` in magnitude, so the first FMA is exact, and so is the
//!   sum `(e − l) + l = e`: `r ≡ a·w`, `|r| < 0.876p`.
//! - **mul**`(a, b)` (pointwise) for integers `|a|, |b| < p`: `h = fl(a·b)`,
//!   `l = fma(a, b, −h)`, `q = round(fl(h·π))`, `r = fma(−q, p, h) + l`. Three roundings:
//!   `|fl(h·π) − a·b/p| ≤ (a·b/p)(3u + 3u² + u³) < 2^50·3.0001·2^(−53) < 0.376`, and the
//!   rest as for `mul_tw`: `r ≡ a·b`, `|r| < 0.876p`.
//!
//! In every case `|fl(·)| < 1.5·2^50 < 2^51`, where rounding to the nearest integer (ties
//! to even) is `(x + 1.5·2^52) − 1.5·2^52` (the portable twin) or `vroundpd` (AVX2): the
//! same integer. The passes keep **I** (bounds beside the code): forward butterflies
//! `x' = reduce(x + y)`, `y' = mul_tw(x − y, w)` (`|x − y| < 2p`); the inverse transform
//! runs on the looser range `|v| < 3p`, its butterflies reducing the input `x` instead of
//! both outputs: `u = reduce(x)`, `t = mul_tw(y, w)`, `x' = u + t`, `y' = u − t`, all
//! below `p/2 + 1 + 0.876p < 1.376p + 1` (so the pointwise products' outputs, in **I**,
//! are valid inputs); the radix-3 passes feed `mul_tw` at most `2.876p` and `reduce` at
//! most `3.13p`, and the final scaling `mul_tw` at most `1.376p + 1`. The test
//! `fma_largest_error_cases_are_exact` (`ntt/tests.rs`) runs each operation at the ends of
//! its input range (`|a| = 3p − 1` against the largest twiddles, `|a| = |b| = p − 1`,
//! `|s| = 4p − 1`) against exact integer arithmetic.
//!
//! The portable twin computes each FMA `fma(a, b, c)` of integers as
//! `(a·b + c) as f64` in `i128`: Rust's integer-to-float conversion rounds to nearest,
//! ties to even, which is the single rounding of the FMA, so it runs without std's
//! `mul_add` (and without FMA hardware) and agrees with the vector kernels.
//!
//! # Memory
//! A product of two operands of `k` bits each takes a transform of `N ≥ 2k/32` pieces
//! (at most 4/3 more: lengths `2^j`, `3·2^j`) and two buffers of `2N` words, one per
//! operand: `32N` bytes, `2k` to `2.7k` bytes for two `k`-bit operands, as the IFMA
//! engine; a square one buffer, a prepared product one more ([`super::Transform`]). A plan (cached up to 2^23
//! pieces) holds per prime four twiddle tables of `M` values (`M` the radix-2 length) and
//! for lengths `3·2^j` four more radix-3 tables: at most `12N` words per prime.

use super::cache::PlanCache;
use crate::limb::Limb;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;

/// The two largest primes `c·3·2^32 + 1` below 2^50 (c = 87377 and 87375), shared with
/// the IFMA engine.
pub(crate) const PRIMES: [u64; 2] = [0x3_fff3_0000_0001, 0x3_ffed_0000_0001];
/// Generators of their multiplicative groups.
pub(crate) const GENERATORS: [u64; 2] = [5, 7];
/// `2^32` divides `p − 1` for both primes.
pub(crate) const MAX_TWO_ADICITY: u32 = 32;
/// The smallest radix-2 length (the last two passes work on groups of 8 values).
pub(crate) const MIN_M: usize = 8;

/// Which implementation of the engine's passes runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// The scalar twin in this module (every target; the library chooses the vector
    /// kernel or another engine, the tests this one).
    #[cfg_attr(not(test), allow(dead_code))]
    Portable,
    /// The AVX2+FMA passes of `kernels/arch/avx2/ntt.rs` (the CPU must have both). The
    /// `portable` build compiles them for their tests only, which take this variant there.
    #[cfg(x86_kernels_compiled)]
    #[cfg_attr(not(any(x86_kernels, test)), allow(dead_code))]
    Avx2,
}

/// The vector kernel where this build uses the x86-64 kernels and the CPU has AVX2 and
/// FMA ([`crate::kernels::cpu::avx2_fma`]), else none.
pub(crate) fn vector_kernel() -> Option<Kernel> {
    #[cfg(x86_kernels)]
    {
        if crate::kernels::cpu::avx2_fma() {
            return Some(Kernel::Avx2);
        }
    }
    None
}

/// Whether `n` pieces is a length of this engine: `2^j` or `3·2^j` with `2^j ≥ 8`.
pub(crate) fn is_len(n: usize) -> bool {
    if n == 0 {
        return false;
    }
    let m = if n % 3 == 0 { n / 3 } else { n };
    m.is_power_of_two() && m >= MIN_M && m.trailing_zeros() <= MAX_TWO_ADICITY
}

/// The tables of one prime at one length, as the passes read them (structure of
/// arrays, for vector loads). Every twiddle is a signed representative `|w| ≤ (p − 1)/2`
/// followed by `fl(w/p)`.
#[derive(Debug)]
pub(crate) struct PrimeTables {
    /// The prime, below 2^50.
    pub(crate) p: f64,
    /// `fl(1/p)`.
    pub(crate) pinv: f64,
    /// `fw[len + t] = w_(2len)^t` for `len = 1, 2, …, M/2`, `t < len`, with `fl(w/p)` in
    /// `fwp`; `iw`/`iwp` the same for the inverse roots.
    pub(crate) fw: Vec<f64>,
    pub(crate) fwp: Vec<f64>,
    pub(crate) iw: Vec<f64>,
    pub(crate) iwp: Vec<f64>,
    /// Radix-3 twiddles `W^i`, `fl(W^i/p)`, `W^(2i)`, `fl(W^(2i)/p)` for `i < M`; `r3i`
    /// the inverses.
    pub(crate) r3: [Vec<f64>; 4],
    pub(crate) r3i: [Vec<f64>; 4],
    /// `W^M` (a primitive cube root of unity, `W` the `n`-th root) and its inverse.
    pub(crate) omega: (f64, f64),
    pub(crate) omega_inv: (f64, f64),
    /// `n^(−1) mod p`: undoes the length factor of the inverse transform.
    pub(crate) scale: (f64, f64),
}

fn mulmod_u(a: u64, b: u64, p: u64) -> u64 {
    ((a as u128 * b as u128) % p as u128) as u64
}

fn powmod(mut a: u64, mut e: u64, p: u64) -> u64 {
    let mut r = 1;
    while e > 0 {
        if e & 1 == 1 {
            r = mulmod_u(r, a, p);
        }
        a = mulmod_u(a, a, p);
        e >>= 1;
    }
    r
}

fn invmod(a: u64, p: u64) -> u64 {
    powmod(a, p - 2, p)
}

/// `(w, fl(w/p))` with `w` the signed representative of `x < p`: `|w| ≤ (p − 1)/2`.
pub(crate) fn twiddle(x: u64, p: u64) -> (f64, f64) {
    let w = if x > p / 2 { x as f64 - p as f64 } else { x as f64 };
    (w, w / p as f64)
}

/// The tables of prime `j` at `n` pieces, radix-2 length `m`.
fn tables(j: usize, n: usize, m: usize) -> PrimeTables {
    let (p, g) = (PRIMES[j], GENERATORS[j]);
    let (mut fw, mut fwp, mut iw, mut iwp) =
        (vec![0.0; m], vec![0.0; m], vec![0.0; m], vec![0.0; m]);
    let mut len = 1;
    while len < m {
        let w = powmod(g, (p - 1) / (2 * len as u64), p);
        let wi = invmod(w, p);
        let (mut x, mut y) = (1u64, 1u64);
        for t in 0..len {
            (fw[len + t], fwp[len + t]) = twiddle(x, p);
            (iw[len + t], iwp[len + t]) = twiddle(y, p);
            x = mulmod_u(x, w, p);
            y = mulmod_u(y, wi, p);
        }
        len *= 2;
    }
    let mut r3: [Vec<f64>; 4] = Default::default();
    let mut r3i: [Vec<f64>; 4] = Default::default();
    let (mut omega, mut omega_inv) = (twiddle(1, p), twiddle(1, p));
    if n != m {
        let w = powmod(g, (p - 1) / n as u64, p);
        let wi = invmod(w, p);
        let (mut a, mut c) = (1u64, 1u64);
        for _ in 0..m {
            for (tab, x) in [(&mut r3, a), (&mut r3i, c)] {
                let (x1, s1) = twiddle(x, p);
                let (x2, s2) = twiddle(mulmod_u(x, x, p), p);
                tab[0].push(x1);
                tab[1].push(s1);
                tab[2].push(x2);
                tab[3].push(s2);
            }
            a = mulmod_u(a, w, p);
            c = mulmod_u(c, wi, p);
        }
        let om = powmod(w, m as u64, p);
        omega = twiddle(om, p);
        omega_inv = twiddle(invmod(om, p), p);
    }
    let scale = twiddle(invmod(n as u64 % p, p), p);
    PrimeTables {
        p: p as f64,
        pinv: 1.0 / p as f64,
        fw,
        fwp,
        iw,
        iwp,
        r3,
        r3i,
        omega,
        omega_inv,
        scale,
    }
}

/// Everything one length needs, for both primes.
#[derive(Debug)]
pub(crate) struct Plan {
    /// Transform length in pieces.
    pub(crate) n: usize,
    /// The radix-2 length: `n`, or `n/3` with a radix-3 pass.
    pub(crate) m: usize,
    pub(crate) tables: [PrimeTables; 2],
    /// `p1^(−1) mod p2` as a twiddle (Garner's recombination).
    pub(crate) garner: (f64, f64),
}

/// Plans are cached up to this many pieces (the tables take up to `12n` words per prime).
const CACHE_MAX_LEN: usize = 1 << 23;

impl Plan {
    fn build(n: usize) -> Plan {
        debug_assert!(is_len(n));
        let m = if n % 3 == 0 { n / 3 } else { n };
        let tables = [tables(0, n, m), tables(1, n, m)];
        let garner = twiddle(invmod(PRIMES[0] % PRIMES[1], PRIMES[1]), PRIMES[1]);
        Plan { n, m, tables, garner }
    }

    /// The plan for `n` pieces ([`is_len`]`(n)` must hold).
    pub(crate) fn get(n: usize) -> Arc<Plan> {
        static CACHE: PlanCache<Plan> = PlanCache::new(CACHE_MAX_LEN);
        CACHE.get(n, Plan::build)
    }
}

/// The `f64` view of a buffer of words (same size and alignment; every bit pattern is
/// some `f64`).
pub(crate) fn as_f64(x: &mut [u64]) -> &mut [f64] {
    // SAFETY: u64 and f64 have the same size and alignment and no invalid values; the
    // borrow of `x` is carried over to the result.
    unsafe { core::slice::from_raw_parts_mut(x.as_mut_ptr() as *mut f64, x.len()) }
}

/// The `f64` view of a shared buffer of words.
pub(crate) fn as_f64_ref(x: &[u64]) -> &[f64] {
    // SAFETY: as in `as_f64`.
    unsafe { core::slice::from_raw_parts(x.as_ptr() as *const f64, x.len()) }
}

// The scalar arithmetic: the portable twin of the vector kernels (see the module
// documentation for the bounds).

/// `fma(a, b, c)` for integers `a`, `b`, `c` (as `f64`) with `|a·b + c| < 2^126`: the
/// exact value rounded once to nearest, ties to even, as the FMA instruction does.
#[inline(always)]
pub(crate) fn fma(a: f64, b: f64, c: f64) -> f64 {
    ((a as i128) * (b as i128) + c as i128) as f64
}

/// The nearest integer to `x` (ties to even) for `|x| < 2^51`.
#[inline(always)]
pub(crate) fn round(x: f64) -> f64 {
    const C: f64 = 6_755_399_441_055_744.0; // 1.5·2^52
    (x + C) - C
}

/// `s mod p` in `[−p/2 − 1, p/2 + 1]` for an integer `|s| < 4p`.
#[inline(always)]
pub(crate) fn reduce(s: f64, p: f64, pinv: f64) -> f64 {
    let q = round(s * pinv);
    fma(-q, p, s)
}

/// `a·w mod p` in `(−0.876p, 0.876p)` for an integer `|a| < 3p` and a twiddle
/// `|w| ≤ (p − 1)/2`, `wp = fl(w/p)`.
#[inline(always)]
pub(crate) fn mul_tw(a: f64, w: f64, wp: f64, p: f64) -> f64 {
    let h = a * w;
    let l = fma(a, w, -h);
    let q = round(a * wp);
    fma(-q, p, h) + l
}

/// `a·b mod p` in `(−0.876p, 0.876p)` for integers `|a|, |b| < p`.
#[inline(always)]
pub(crate) fn mul(a: f64, b: f64, p: f64, pinv: f64) -> f64 {
    let h = a * b;
    let l = fma(a, b, -h);
    let q = round(h * pinv);
    fma(-q, p, h) + l
}

/// Radix-2 decimation in frequency (natural order in, bit-reversed out), **I** kept.
fn dif(t: &PrimeTables, a: &mut [f64]) {
    let (p, pinv) = (t.p, t.pinv);
    let mut len = a.len() / 2;
    while len >= 1 {
        let (w, wp) = (&t.fw[len..2 * len], &t.fwp[len..2 * len]);
        for block in a.chunks_exact_mut(2 * len) {
            let (lo, hi) = block.split_at_mut(len);
            for (((x, y), &w), &wp) in lo.iter_mut().zip(hi.iter_mut()).zip(w).zip(wp) {
                let (u, v) = (*x, *y);
                *x = reduce(u + v, p, pinv); // |u + v| < 2p
                *y = mul_tw(u - v, w, wp, p); // |u − v| < 2p
            }
        }
        len /= 2;
    }
}

/// Radix-2 decimation in time with inverse roots (bit-reversed in, natural out), each
/// value times the length: inputs and outputs below `1.376p + 1 < 3p` in magnitude.
fn dit(t: &PrimeTables, a: &mut [f64]) {
    let (p, pinv) = (t.p, t.pinv);
    let n = a.len();
    let mut len = 1;
    while len < n {
        let (w, wp) = (&t.iw[len..2 * len], &t.iwp[len..2 * len]);
        for block in a.chunks_exact_mut(2 * len) {
            let (lo, hi) = block.split_at_mut(len);
            for (((x, y), &w), &wp) in lo.iter_mut().zip(hi.iter_mut()).zip(w).zip(wp) {
                let u = reduce(*x, p, pinv); // |x| < 3p, |u| ≤ p/2 + 1
                let v = mul_tw(*y, w, wp, p); // |y| < 3p, |v| < 0.876p
                *x = u + v; // < 1.376p + 1
                *y = u - v;
            }
        }
        len *= 2;
    }
}

/// The portable forward transform modulo `t.p` of `a` (`m` or `3m` values, **I**).
pub(crate) fn forward_portable(t: &PrimeTables, m: usize, a: &mut [f64]) {
    let (p, pinv) = (t.p, t.pinv);
    if a.len() != m {
        let (x0, rest) = a.split_at_mut(m);
        let (x1, x2) = rest.split_at_mut(m);
        for i in 0..m {
            let (u, v, w) = (x0[i], x1[i], x2[i]);
            let s = mul_tw(v - w, t.omega.0, t.omega.1, p); // |v − w| < 2p
            x0[i] = reduce(u + v + w, p, pinv); // < 3p
            x1[i] = mul_tw(u - w + s, t.r3[0][i], t.r3[1][i], p); // < 2.876p
            x2[i] = mul_tw(u - v - s, t.r3[2][i], t.r3[3][i], p); // < 2.876p
        }
        for part in a.chunks_exact_mut(m) {
            dif(t, part);
        }
    } else {
        dif(t, a);
    }
}

/// The portable inverse transform (times the length): inputs in **I**, outputs below
/// `1.376p + 1` in magnitude.
pub(crate) fn inverse_portable(t: &PrimeTables, m: usize, a: &mut [f64]) {
    let (p, pinv) = (t.p, t.pinv);
    if a.len() != m {
        for part in a.chunks_exact_mut(m) {
            dit(t, part);
        }
        let (x0, rest) = a.split_at_mut(m);
        let (x1, x2) = rest.split_at_mut(m);
        for i in 0..m {
            let u = x0[i]; // < 1.376p + 1
            let v = mul_tw(x1[i], t.r3i[0][i], t.r3i[1][i], p); // < 0.876p
            let w = mul_tw(x2[i], t.r3i[2][i], t.r3i[3][i], p); // < 0.876p
            let s = mul_tw(v - w, t.omega_inv.0, t.omega_inv.1, p); // |v − w| < 1.752p
            x0[i] = reduce(u + v + w, p, pinv); // < 3.13p
            x1[i] = reduce(u - w + s, p, pinv); // < 3.13p
            x2[i] = reduce(u - v - s, p, pinv); // < 3.13p
        }
    } else {
        dit(t, a);
    }
}

/// The portable pointwise product `x ← x ⋆ y` (`y = None`: `x ← x ⋆ x`), **I** kept.
pub(crate) fn pointwise_portable(t: &PrimeTables, xs: &mut [f64], ys: Option<&[f64]>) {
    let (p, pinv) = (t.p, t.pinv);
    match ys {
        Some(ys) => xs.iter_mut().zip(ys).for_each(|(x, &y)| *x = mul(*x, y, p, pinv)),
        None => xs.iter_mut().for_each(|x| *x = mul(*x, *x, p, pinv)),
    }
}

/// The portable scaling and Garner recombination: from inverse transforms (below `3p`) to
/// `first[i] = x1 ∈ [0, p1)`, `second[i] = x2 ∈ [0, p2)` as integers (the words' bits),
/// the coefficient being `x1 + p1·x2`.
pub(crate) fn scale_crt_portable(
    t1: &PrimeTables,
    t2: &PrimeTables,
    garner: (f64, f64),
    first: &mut [f64],
    second: &mut [f64],
) {
    for (a, b) in first.iter_mut().zip(second.iter_mut()) {
        // |a|, |b| < 1.376p + 1 < 3p.
        let x1 = mul_tw(*a, t1.scale.0, t1.scale.1, t1.p); // (−0.876p1, 0.876p1)
        let x1 = if x1 < 0.0 { x1 + t1.p } else { x1 }; // [0, p1)
        let y2 = mul_tw(*b, t2.scale.0, t2.scale.1, t2.p);
        // |y2 − x1| < 0.876p2 + p1 < 3p2 (p1 < 1.0001p2).
        let x2 = mul_tw(y2 - x1, garner.0, garner.1, t2.p);
        let x2 = if x2 < 0.0 { x2 + t2.p } else { x2 };
        *a = f64::from_bits(x1 as u64);
        *b = f64::from_bits(x2 as u64);
    }
}

/// Forward transforms of the digits `a` (`2·a.len() ≤ n` pieces) into `out` (`2n`
/// words, prime-major, the `f64` residues' bits).
pub(crate) fn forward_digits<L: Limb>(plan: &Plan, k: Kernel, a: &[L], out: &mut [u64]) {
    let n = plan.n;
    assert!(L::BITS == 64 && 2 * a.len() <= n && out.len() == 2 * n, "fma transform: lengths");
    let out = as_f64(out);
    let (first, second) = out.split_at_mut(n);
    for (o, d) in first.chunks_exact_mut(2).zip(a) {
        let d = d.to_u64();
        o[0] = (d & 0xffff_ffff) as f64;
        o[1] = (d >> 32) as f64;
    }
    first[2 * a.len()..].fill(0.0);
    second.copy_from_slice(first);
    for (t, part) in plan.tables.iter().zip([first, second]) {
        match k {
            Kernel::Portable => forward_portable(t, plan.m, part),
            // SAFETY: `Kernel::Avx2` is only chosen where the CPU has AVX2 and FMA.
            #[cfg(x86_kernels_compiled)]
            Kernel::Avx2 => unsafe { crate::kernels::arch::avx2::ntt::forward(t, plan.m, part) },
        }
    }
}

/// `x ← x ⋆ y` pointwise (both `2n` words, forward transforms; `None`: squares).
pub(crate) fn pointwise(plan: &Plan, k: Kernel, x: &mut [u64], y: Option<&[u64]>) {
    let n = plan.n;
    assert!(x.len() == 2 * n && y.is_none_or(|y| y.len() == 2 * n), "fma pointwise: lengths");
    let x = as_f64(x);
    for (j, t) in plan.tables.iter().enumerate() {
        let xs = &mut x[j * n..(j + 1) * n];
        let ys = y.map(|y| &as_f64_ref(y)[j * n..(j + 1) * n]);
        match k {
            Kernel::Portable => pointwise_portable(t, xs, ys),
            // SAFETY: as in `forward_digits`.
            #[cfg(x86_kernels_compiled)]
            Kernel::Avx2 => unsafe { crate::kernels::arch::avx2::ntt::pointwise(t, xs, ys) },
        }
    }
}

/// Inverse transforms of `x` (`2n` words) and Garner's recombination: afterwards
/// `x[i] = x1 < p1` and `x[n + i] = x2 < p2` (integers) with coefficient `i` equal to
/// `x1 + p1·x2`, the layout of the IFMA engine.
pub(crate) fn inverse_crt(plan: &Plan, k: Kernel, x: &mut [u64]) {
    assert!(x.len() == 2 * plan.n, "fma inverse: lengths");
    let x = as_f64(x);
    let (first, second) = x.split_at_mut(plan.n);
    let [t1, t2] = &plan.tables;
    match k {
        Kernel::Portable => {
            inverse_portable(t1, plan.m, first);
            inverse_portable(t2, plan.m, second);
            scale_crt_portable(t1, t2, plan.garner, first, second);
        }
        // SAFETY: as in `forward_digits`.
        #[cfg(x86_kernels_compiled)]
        Kernel::Avx2 => unsafe {
            use crate::kernels::arch::avx2::ntt as vector;
            vector::inverse(t1, plan.m, first);
            vector::inverse(t2, plan.m, second);
            vector::scale_crt(t1, t2, plan.garner, first, second);
        },
    }
}
