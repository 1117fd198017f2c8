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
//! Everything here needs AVX-512F and AVX-512 IFMA: the entry points are `unsafe fn`s
//! whose callers check the CPU first (`use_ifma` in the parent module, through std's
//! feature detection, which the `portable` build keeps).

use super::cache::PlanCache;
use crate::limb::Limb;
use core::arch::x86_64::*;
use std::sync::Arc;

/// The two largest primes `c·3·2^32 + 1` below 2^50 (c = 87377 and 87375).
pub(crate) const PRIMES: [u64; 2] = [0x3_fff3_0000_0001, 0x3_ffed_0000_0001];
/// Generators of their multiplicative groups.
const GENERATORS: [u64; 2] = [5, 7];
/// `2^32` divides `p − 1` for both primes.
pub(crate) const MAX_TWO_ADICITY: u32 = 32;
/// The smallest radix-2 part: the register kernels work on 64-value chunks.
const MIN_M: usize = 64;
const MASK52: u64 = (1 << 52) - 1;

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

/// The tables of one prime at one length (structure of arrays, for vector loads).
#[derive(Debug)]
struct Tables {
    p: u64,
    /// `p^(−1) mod 2^52`.
    pinv: u64,
    /// `fw[len + t] = w_(2len)^t` for `len = 1, 2, …, M/2`, `t < len`, and Shoup's
    /// constants in `fs`; `iw`/`is` the same for the inverse roots.
    fw: Vec<u64>,
    fs: Vec<u64>,
    iw: Vec<u64>,
    is: Vec<u64>,
    /// Radix-3 twiddles `W^i`, `W^(2i)` (`i < M`) with Shoup constants; `r3i` inverse.
    r3: [Vec<u64>; 4],
    r3i: [Vec<u64>; 4],
    omega: (u64, u64),
    omega_inv: (u64, u64),
    /// `n^(−1)·2^52 mod p`: undoes the length factor of the inverse transform and the
    /// `2^(−52)` of the pointwise Montgomery products.
    scale: (u64, u64),
}

impl Tables {
    fn new(j: usize, n: usize, m: usize) -> Tables {
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
        Tables { p, pinv, fw, fs, iw, is, r3, r3i, omega, omega_inv, scale }
    }
}

/// Everything one length needs, for both primes.
#[derive(Debug)]
pub(crate) struct Plan {
    /// Transform length in pieces.
    pub(crate) n: usize,
    m: usize,
    three: bool,
    tables: [Tables; 2],
    /// `p1^(−1) mod p2` with its Shoup constant (Garner's recombination).
    garner: (u64, u64),
}

/// Plans are cached up to this many pieces (the tables take about `4n` words per prime).
const CACHE_MAX_LEN: usize = 1 << 23;

impl Plan {
    fn build(n: usize) -> Plan {
        debug_assert!(is_len(n));
        let three = n % 3 == 0;
        let m = if three { n / 3 } else { n };
        let tables = [Tables::new(0, n, m), Tables::new(1, n, m)];
        let garner = shoup(invmod(PRIMES[0] % PRIMES[1], PRIMES[1]), PRIMES[1]);
        Plan { n, m, three, tables, garner }
    }

    /// The plan for `n` pieces ([`is_len`]`(n)` must hold).
    pub(crate) fn get(n: usize) -> Arc<Plan> {
        static CACHE: PlanCache<Plan> = PlanCache::new(CACHE_MAX_LEN);
        CACHE.get(n, Plan::build)
    }
}

// ---------------------------------------------------------------------------------------
// Vector arithmetic. All of these need AVX-512F and IFMA (the `target_feature`s).

#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn splat(x: u64) -> __m512i {
    _mm512_set1_epi64(x as i64)
}

#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn add(a: __m512i, b: __m512i) -> __m512i {
    _mm512_add_epi64(a, b)
}

#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn sub(a: __m512i, b: __m512i) -> __m512i {
    _mm512_sub_epi64(a, b)
}

/// `x mod m` for `x < 2m` (`m < 2^63`): `min(x, x − m)` unsigned, since `x − m` wraps to
/// above `x` when `x < m`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn red(x: __m512i, m: __m512i) -> __m512i {
    _mm512_min_epu64(x, _mm512_sub_epi64(x, m))
}

/// Shoup's product: `a·w mod p` in `[0, 2p)` for `a < 2^52`, `w < p`, `ws = ⌊w·2^52/p⌋`,
/// `negp = 2^52 − p` (so that `lo52(q·negp) = −q·p mod 2^52`).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn mul_shoup(a: __m512i, w: __m512i, ws: __m512i, negp: __m512i) -> __m512i {
    let zero = _mm512_setzero_si512();
    let q = _mm512_madd52hi_epu64(zero, a, ws);
    let r = _mm512_madd52lo_epu64(zero, a, w);
    let r = _mm512_madd52lo_epu64(r, q, negp);
    _mm512_and_si512(r, splat(MASK52))
}

/// Montgomery's product in radix 2^52: `a·b·2^(−52) mod p` in `(0, 2p)` for `a, b < 2p`.
/// With `T = a·b = hi·2^52 + lo` and `m = lo·p^(−1) mod 2^52`, `m·p = mh·2^52 + lo`
/// exactly, so `(T − m·p)/2^52 = hi − mh`, which lies in `(−p, p)` because
/// `hi < 4p²/2^52 < p` (as `4p < 2^52`) and `mh < p`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn mul_mont(a: __m512i, b: __m512i, p: __m512i, pinv: __m512i) -> __m512i {
    let zero = _mm512_setzero_si512();
    let lo = _mm512_madd52lo_epu64(zero, a, b);
    let hi = _mm512_madd52hi_epu64(zero, a, b);
    let m = _mm512_madd52lo_epu64(zero, lo, pinv);
    let mh = _mm512_madd52hi_epu64(zero, m, p);
    add(sub(hi, mh), p)
}

#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn load(p: *const u64) -> __m512i {
    // SAFETY: the caller guarantees 8 readable u64s at `p`.
    unsafe { _mm512_loadu_si512(p as *const _) }
}

#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn store(p: *mut u64, v: __m512i) {
    // SAFETY: the caller guarantees 8 writable u64s at `p`.
    unsafe { _mm512_storeu_si512(p as *mut _, v) }
}

/// Per-prime vector constants.
#[derive(Clone, Copy)]
struct K {
    p: __m512i,
    p2: __m512i,
    p4: __m512i,
    negp: __m512i,
}

impl K {
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn new(p: u64) -> K {
        K { p: splat(p), p2: splat(2 * p), p4: splat(4 * p), negp: splat((1u64 << 52) - p) }
    }
}

/// Forward (decimation-in-frequency) butterfly on `[0, 2p)`: `(x + y, (x − y)·w)`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn bf_dif(x: __m512i, y: __m512i, w: __m512i, ws: __m512i, k: K) -> (__m512i, __m512i) {
    let s = red(add(x, y), k.p2);
    let d = mul_shoup(add(sub(x, y), k.p2), w, ws, k.negp);
    (s, d)
}

/// The same with `w = 1`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn bf_dif1(x: __m512i, y: __m512i, k: K) -> (__m512i, __m512i) {
    (red(add(x, y), k.p2), red(add(sub(x, y), k.p2), k.p2))
}

/// Inverse (decimation-in-time) butterfly on `[0, 4p)`: `(x + y·w, x − y·w)`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn bf_dit(x: __m512i, y: __m512i, w: __m512i, ws: __m512i, k: K) -> (__m512i, __m512i) {
    let u = red(x, k.p2);
    let t = mul_shoup(y, w, ws, k.negp);
    (add(u, t), add(sub(u, t), k.p2))
}

/// The same with `w = 1`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn bf_dit1(x: __m512i, y: __m512i, k: K) -> (__m512i, __m512i) {
    let u = red(x, k.p2);
    let t = red(y, k.p2);
    (add(u, t), add(sub(u, t), k.p2))
}

/// Transposes the 8×8 matrix whose rows are `r[0..8]`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn transpose(r: &mut [__m512i; 8]) {
    // SAFETY: 8 readable i64s in each array.
    let idx = |a: &[i64; 8]| unsafe { _mm512_loadu_si512(a.as_ptr() as *const _) };
    let lo128 = idx(&[0, 1, 8, 9, 4, 5, 12, 13]);
    let hi128 = idx(&[2, 3, 10, 11, 6, 7, 14, 15]);
    let lo256 = idx(&[0, 1, 2, 3, 8, 9, 10, 11]);
    let hi256 = idx(&[4, 5, 6, 7, 12, 13, 14, 15]);
    // t[2i] = (r[2i][0], r[2i+1][0], r[2i][2], r[2i+1][2], …), t[2i+1] the odd columns.
    let mut t = [_mm512_setzero_si512(); 8];
    for i in 0..4 {
        t[2 * i] = _mm512_unpacklo_epi64(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_epi64(r[2 * i], r[2 * i + 1]);
    }
    // u[0] = columns 0 and 4 of rows 0–3, u[1] columns 1 and 5, u[2] 2 and 6, u[3] 3
    // and 7; u[4..8] the same for rows 4–7.
    let mut u = [_mm512_setzero_si512(); 8];
    for h in [0, 4] {
        u[h] = _mm512_permutex2var_epi64(t[h], lo128, t[h + 2]);
        u[h + 1] = _mm512_permutex2var_epi64(t[h + 1], lo128, t[h + 3]);
        u[h + 2] = _mm512_permutex2var_epi64(t[h], hi128, t[h + 2]);
        u[h + 3] = _mm512_permutex2var_epi64(t[h + 1], hi128, t[h + 3]);
    }
    for c in 0..4 {
        r[c] = _mm512_permutex2var_epi64(u[c], lo256, u[c + 4]);
        r[c + 4] = _mm512_permutex2var_epi64(u[c], hi256, u[c + 4]);
    }
}

/// Six forward passes (`len = 32, 16, 8` on rows, then, transposed, `4, 2, 1`) on every
/// 64-value chunk of `a`.
#[target_feature(enable = "avx512f,avx512ifma")]
fn dif_leaves(a: &mut [u64], t: &Tables, k: K) {
    let vw = |i: usize| {
        // SAFETY: i + 8 ≤ 64 ≤ M = the tables' length.
        unsafe { (load(t.fw.as_ptr().add(i)), load(t.fs.as_ptr().add(i))) }
    };
    let sw = |i: usize| (splat(t.fw[i]), splat(t.fs[i]));
    let w32 = [vw(32), vw(40), vw(48), vw(56)];
    let w16 = [vw(16), vw(24)];
    let w8 = vw(8);
    let w4 = [sw(4), sw(5), sw(6), sw(7)];
    let w2 = [sw(2), sw(3)];
    for chunk in a.chunks_exact_mut(64) {
        let ptr = chunk.as_mut_ptr();
        let mut r = [_mm512_setzero_si512(); 8];
        for (i, v) in r.iter_mut().enumerate() {
            // SAFETY: the chunk has 64 values.
            *v = unsafe { load(ptr.add(8 * i)) };
        }
        for i in 0..4 {
            (r[i], r[i + 4]) = bf_dif(r[i], r[i + 4], w32[i].0, w32[i].1, k);
        }
        for i in [0, 1, 4, 5] {
            (r[i], r[i + 2]) = bf_dif(r[i], r[i + 2], w16[i % 2].0, w16[i % 2].1, k);
        }
        for i in [0, 2, 4, 6] {
            (r[i], r[i + 1]) = bf_dif(r[i], r[i + 1], w8.0, w8.1, k);
        }
        transpose(&mut r);
        for i in 0..4 {
            (r[i], r[i + 4]) = bf_dif(r[i], r[i + 4], w4[i].0, w4[i].1, k);
        }
        for i in [0, 1, 4, 5] {
            (r[i], r[i + 2]) = bf_dif(r[i], r[i + 2], w2[i % 2].0, w2[i % 2].1, k);
        }
        for i in [0, 2, 4, 6] {
            (r[i], r[i + 1]) = bf_dif1(r[i], r[i + 1], k);
        }
        for (i, v) in r.iter().enumerate() {
            // SAFETY: as above.
            unsafe { store(ptr.add(8 * i), *v) };
        }
    }
}

/// The inverse of [`dif_leaves`]' passes (decimation in time, `len = 1, 2, 4`, transpose,
/// `8, 16, 32`).
#[target_feature(enable = "avx512f,avx512ifma")]
fn dit_leaves(a: &mut [u64], t: &Tables, k: K) {
    let vw = |i: usize| {
        // SAFETY: i + 8 ≤ 64 ≤ M = the tables' length.
        unsafe { (load(t.iw.as_ptr().add(i)), load(t.is.as_ptr().add(i))) }
    };
    let sw = |i: usize| (splat(t.iw[i]), splat(t.is[i]));
    let w32 = [vw(32), vw(40), vw(48), vw(56)];
    let w16 = [vw(16), vw(24)];
    let w8 = vw(8);
    let w4 = [sw(4), sw(5), sw(6), sw(7)];
    let w2 = [sw(2), sw(3)];
    for chunk in a.chunks_exact_mut(64) {
        let ptr = chunk.as_mut_ptr();
        let mut r = [_mm512_setzero_si512(); 8];
        for (i, v) in r.iter_mut().enumerate() {
            // SAFETY: the chunk has 64 values.
            *v = unsafe { load(ptr.add(8 * i)) };
        }
        for i in [0, 2, 4, 6] {
            (r[i], r[i + 1]) = bf_dit1(r[i], r[i + 1], k);
        }
        for i in [0, 1, 4, 5] {
            (r[i], r[i + 2]) = bf_dit(r[i], r[i + 2], w2[i % 2].0, w2[i % 2].1, k);
        }
        for i in 0..4 {
            (r[i], r[i + 4]) = bf_dit(r[i], r[i + 4], w4[i].0, w4[i].1, k);
        }
        transpose(&mut r);
        for i in [0, 2, 4, 6] {
            (r[i], r[i + 1]) = bf_dit(r[i], r[i + 1], w8.0, w8.1, k);
        }
        for i in [0, 1, 4, 5] {
            (r[i], r[i + 2]) = bf_dit(r[i], r[i + 2], w16[i % 2].0, w16[i % 2].1, k);
        }
        for i in 0..4 {
            (r[i], r[i + 4]) = bf_dit(r[i], r[i + 4], w32[i].0, w32[i].1, k);
        }
        for (i, v) in r.iter().enumerate() {
            // SAFETY: as above.
            unsafe { store(ptr.add(8 * i), *v) };
        }
    }
}

/// One radix-2 pass over memory (`len ≥ 64`, a multiple of 8).
#[target_feature(enable = "avx512f,avx512ifma")]
fn pass(a: &mut [u64], len: usize, w: &[u64], ws: &[u64], k: K, forward: bool) {
    let (w, ws) = (&w[len..2 * len], &ws[len..2 * len]);
    for block in a.chunks_exact_mut(2 * len) {
        let (lo, hi) = block.split_at_mut(len);
        for i in (0..len).step_by(8) {
            // SAFETY: i + 8 ≤ len, the length of lo, hi, w and ws.
            unsafe {
                let x = load(lo.as_ptr().add(i));
                let y = load(hi.as_ptr().add(i));
                let wv = load(w.as_ptr().add(i));
                let wsv = load(ws.as_ptr().add(i));
                let (x, y) =
                    if forward { bf_dif(x, y, wv, wsv, k) } else { bf_dit(x, y, wv, wsv, k) };
                store(lo.as_mut_ptr().add(i), x);
                store(hi.as_mut_ptr().add(i), y);
            }
        }
    }
}

/// Radix-2 forward transform of `a` (`M` values in `[0, 2p)`, `M ≥ 64`), output in
/// `[0, 2p)`.
#[target_feature(enable = "avx512f,avx512ifma")]
fn dif(a: &mut [u64], t: &Tables, k: K) {
    let mut len = a.len() / 2;
    while len >= 64 {
        pass(a, len, &t.fw, &t.fs, k, true);
        len /= 2;
    }
    dif_leaves(a, t, k);
}

/// Radix-2 inverse transform (times `M`), inputs and outputs in `[0, 4p)`.
#[target_feature(enable = "avx512f,avx512ifma")]
fn dit(a: &mut [u64], t: &Tables, k: K) {
    dit_leaves(a, t, k);
    let mut len = 64;
    while len < a.len() {
        pass(a, len, &t.iw, &t.is, k, false);
        len *= 2;
    }
}

/// Forward transform modulo prime `j` of `a` (`n` values below `p`), output in `[0, 2p)`.
#[target_feature(enable = "avx512f,avx512ifma")]
fn forward(plan: &Plan, j: usize, a: &mut [u64]) {
    let t = &plan.tables[j];
    let k = K::new(t.p);
    if plan.three {
        let m = plan.m;
        let (om, oms) = (splat(t.omega.0), splat(t.omega.1));
        let (x0, rest) = a.split_at_mut(m);
        let (x1, x2) = rest.split_at_mut(m);
        for i in (0..m).step_by(8) {
            // SAFETY: i + 8 ≤ m, the length of x0, x1, x2 and of the twiddle tables.
            unsafe {
                let u = load(x0.as_ptr().add(i));
                let v = load(x1.as_ptr().add(i));
                let w = load(x2.as_ptr().add(i));
                // u, v, w < p.
                let s = mul_shoup(add(sub(v, w), k.p), om, oms, k.negp); // < 2p
                let a0 = red(add(add(u, v), w), k.p2); // u + v + w < 3p
                let a1 = add(add(sub(u, w), s), k.p); // in (0, 4p)
                let a2 = sub(add(sub(u, v), k.p4), add(s, k.p)); // u − v − s + 3p ∈ (0, 4p)
                let a1 = mul_shoup(
                    a1,
                    load(t.r3[0].as_ptr().add(i)),
                    load(t.r3[1].as_ptr().add(i)),
                    k.negp,
                );
                let a2 = mul_shoup(
                    a2,
                    load(t.r3[2].as_ptr().add(i)),
                    load(t.r3[3].as_ptr().add(i)),
                    k.negp,
                );
                store(x0.as_mut_ptr().add(i), a0);
                store(x1.as_mut_ptr().add(i), a1);
                store(x2.as_mut_ptr().add(i), a2);
            }
        }
        for part in a.chunks_exact_mut(m) {
            dif(part, t, k);
        }
    } else {
        dif(a, t, k);
    }
}

/// Inverse transform modulo prime `j` (times `n`), inputs and outputs in `[0, 4p)`.
#[target_feature(enable = "avx512f,avx512ifma")]
fn inverse(plan: &Plan, j: usize, a: &mut [u64]) {
    let t = &plan.tables[j];
    let k = K::new(t.p);
    if plan.three {
        let m = plan.m;
        for part in a.chunks_exact_mut(m) {
            dit(part, t, k);
        }
        let (om, oms) = (splat(t.omega_inv.0), splat(t.omega_inv.1));
        let (x0, rest) = a.split_at_mut(m);
        let (x1, x2) = rest.split_at_mut(m);
        for i in (0..m).step_by(8) {
            // SAFETY: i + 8 ≤ m, the length of x0, x1, x2 and of the twiddle tables.
            unsafe {
                let u = red(load(x0.as_ptr().add(i)), k.p2); // < 2p
                let v = mul_shoup(
                    load(x1.as_ptr().add(i)),
                    load(t.r3i[0].as_ptr().add(i)),
                    load(t.r3i[1].as_ptr().add(i)),
                    k.negp,
                ); // < 2p
                let w = mul_shoup(
                    load(x2.as_ptr().add(i)),
                    load(t.r3i[2].as_ptr().add(i)),
                    load(t.r3i[3].as_ptr().add(i)),
                    k.negp,
                ); // < 2p
                let s = mul_shoup(add(sub(v, w), k.p2), om, oms, k.negp); // < 2p
                let b0 = red(add(add(u, v), w), k.p4); // u + v + w < 6p
                let b1 = red(add(add(sub(u, w), s), k.p2), k.p4); // in (0, 6p)
                let b2 = red(sub(add(u, k.p4), add(v, s)), k.p4); // u − v − s + 4p ∈ (0, 6p)
                store(x0.as_mut_ptr().add(i), b0);
                store(x1.as_mut_ptr().add(i), b1);
                store(x2.as_mut_ptr().add(i), b2);
            }
        }
    } else {
        dit(a, t, k);
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
        forward(plan, 0, first);
        forward(plan, 1, second);
    }
}

/// `x ← x ⋆ y` pointwise (both `2n` values, forward transforms).
///
/// # Safety
/// The CPU must have AVX-512F and AVX-512 IFMA.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn pointwise(plan: &Plan, x: &mut [u64], y: Option<&[u64]>) {
    let n = plan.n;
    for j in 0..2 {
        let t = &plan.tables[j];
        let (p, pinv) = (splat(t.p), splat(t.pinv));
        let xs = &mut x[j * n..(j + 1) * n];
        let ys = y.map(|y| &y[j * n..(j + 1) * n]);
        for i in (0..n).step_by(8) {
            // SAFETY: i + 8 ≤ n, the length of xs and ys.
            unsafe {
                let a = load(xs.as_ptr().add(i));
                let b = match ys {
                    Some(ys) => load(ys.as_ptr().add(i)),
                    None => a,
                };
                store(xs.as_mut_ptr().add(i), mul_mont(a, b, p, pinv));
            }
        }
    }
}

/// Inverse transforms of `x` (`2n` values) and Garner's recombination: afterwards
/// `x[i] = x1 < p1` and `x[n + i] = x2 < p2` with coefficient `i` equal to
/// `x1 + p1·x2` (below `p1·p2`).
///
/// # Safety
/// The CPU must have AVX-512F and AVX-512 IFMA.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn inverse_crt(plan: &Plan, x: &mut [u64]) {
    let n = plan.n;
    let (first, second) = x.split_at_mut(n);
    inverse(plan, 0, first);
    inverse(plan, 1, second);
    let (t1, t2) = (&plan.tables[0], &plan.tables[1]);
    let (k1, k2) = (K::new(t1.p), K::new(t2.p));
    let (s1, s1s) = (splat(t1.scale.0), splat(t1.scale.1));
    let (s2, s2s) = (splat(t2.scale.0), splat(t2.scale.1));
    let (g, gs) = (splat(plan.garner.0), splat(plan.garner.1));
    for i in (0..n).step_by(8) {
        // SAFETY: i + 8 ≤ n, the length of both halves.
        unsafe {
            let v1 = load(first.as_ptr().add(i)); // < 4p1
            let v2 = load(second.as_ptr().add(i)); // < 4p2
            let x1 = red(mul_shoup(v1, s1, s1s, k1.negp), k1.p); // < p1
            let y2 = red(mul_shoup(v2, s2, s2s, k2.negp), k2.p); // < p2
                                                                 // y2 − x1 + 2p2 ∈ (0, 3p2) since x1 < p1 < 2p2.
            let d = sub(add(y2, k2.p2), x1);
            let x2 = red(mul_shoup(d, g, gs, k2.negp), k2.p);
            store(first.as_mut_ptr().add(i), x1);
            store(second.as_mut_ptr().add(i), x2);
        }
    }
}

/// Coefficient `i` after [`inverse_crt`].
#[inline(always)]
pub(crate) fn coefficient(x: &[u64], n: usize, i: usize) -> u128 {
    x[i] as u128 + PRIMES[0] as u128 * x[n + i] as u128
}
