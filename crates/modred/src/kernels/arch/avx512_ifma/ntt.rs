//! The vector passes of the AVX-512 IFMA transform engine (`ntt/ifma.rs`: the primes, the
//! plans and their twiddle tables, and the method with its bounds, are there): Harvey's
//! lazy butterflies with Shoup-precomputed twiddles in radix 2^52, eight residues to a
//! register, in the manner of Intel HEXL's NTT.
//!
//! - [`forward`]: decimation in frequency, natural order in, inputs below `p` and
//!   outputs in `[0, 2p)`, an optional radix-3 pass first; the output order is
//!   bit-reversed with every 64-value chunk transposed as an 8×8 matrix (the last three
//!   radix-2 passes work across registers after an in-register transpose);
//! - [`inverse`]: decimation in time, reads that order and undoes it, `[0, 4p)` in and out;
//! - [`pointwise`]: Montgomery's product in radix 2^52, which does not care about order;
//! - [`scale_crt`]: the final scaling and Garner's recombination of the two primes.
//!
//! The portable twin is the scalar engine (`ntt/transform.rs`, three other primes): the
//! tests in `ntt/tests.rs` compare the two engines' products, and skip on a CPU without
//! AVX-512 IFMA.

use alloc::vec::Vec;
use core::arch::x86_64::*;

/// The smallest radix-2 length: the last six passes run on 64-value chunks in registers.
pub(crate) const MIN_M: usize = 64;
/// `2^52 − 1`.
pub(crate) const MASK52: u64 = (1 << 52) - 1;

/// The tables of one prime at one transform length, as the passes read them (structure of
/// arrays, for vector loads); `ntt/ifma.rs` computes them. `M` is the radix-2 length
/// (the transform length `n`, or `n/3` with a radix-3 pass), every twiddle `w < p` comes
/// with Shoup's constant `⌊w·2^52/p⌋`.
#[derive(Debug)]
pub(crate) struct PrimeTables {
    /// The prime, below 2^50.
    pub(crate) p: u64,
    /// `p^(−1) mod 2^52`.
    pub(crate) pinv: u64,
    /// `fw[len + t] = w_(2len)^t` for `len = 1, 2, …, M/2`, `t < len`, and Shoup's
    /// constants in `fs`; `iw`/`is` the same for the inverse roots.
    pub(crate) fw: Vec<u64>,
    pub(crate) fs: Vec<u64>,
    pub(crate) iw: Vec<u64>,
    pub(crate) is: Vec<u64>,
    /// Radix-3 twiddles `W^i`, `W^(2i)` (`i < M`) with Shoup constants; `r3i` inverse.
    pub(crate) r3: [Vec<u64>; 4],
    pub(crate) r3i: [Vec<u64>; 4],
    /// `W^M` (a primitive cube root of unity, `W` the `n`-th root) and its inverse, for
    /// the radix-3 butterflies.
    pub(crate) omega: (u64, u64),
    pub(crate) omega_inv: (u64, u64),
    /// `n^(−1)·2^52 mod p`: undoes the length factor of the inverse transform and the
    /// `2^(−52)` of the pointwise Montgomery products.
    pub(crate) scale: (u64, u64),
}

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
fn dif_leaves(a: &mut [u64], t: &PrimeTables, k: K) {
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
fn dit_leaves(a: &mut [u64], t: &PrimeTables, k: K) {
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
fn dif(a: &mut [u64], t: &PrimeTables, k: K) {
    let mut len = a.len() / 2;
    while len >= 64 {
        pass(a, len, &t.fw, &t.fs, k, true);
        len /= 2;
    }
    dif_leaves(a, t, k);
}

/// Radix-2 inverse transform (times `M`), inputs and outputs in `[0, 4p)`.
#[target_feature(enable = "avx512f,avx512ifma")]
fn dit(a: &mut [u64], t: &PrimeTables, k: K) {
    dit_leaves(a, t, k);
    let mut len = 64;
    while len < a.len() {
        pass(a, len, &t.iw, &t.is, k, false);
        len *= 2;
    }
}

/// The lengths every vector load of [`forward`] and [`inverse`] relies on, checked once
/// per call: the radix-2 length `m` a power of two of at least [`MIN_M`] (the passes
/// load whole registers and 64-value chunks), `len` (the values) `m` or `3m`, and the
/// twiddle tables of `m` entries (`r3`, `r3i` for `3m`).
fn check_lengths(t: &PrimeTables, m: usize, len: usize) {
    assert!(m.is_power_of_two() && m >= MIN_M, "transform: radix-2 length {m}");
    assert!(len == m || len == 3 * m, "transform: {len} values for a radix-2 length {m}");
    for w in [&t.fw, &t.fs, &t.iw, &t.is] {
        assert!(w.len() >= m, "transform: twiddle table shorter than {m}");
    }
    if len != m {
        for w in t.r3.iter().chain(&t.r3i) {
            assert!(w.len() >= m, "transform: radix-3 twiddle table shorter than {m}");
        }
    }
}

/// Forward transform modulo `t.p` of `a` (values below `p`), output in `[0, 2p)`: `a`
/// holds `m` values (radix 2 only) or `3m` (a radix-3 pass first), `m ≥ 64` a power of
/// two, and `t` is the prime's tables for that length.
///
/// # Safety
/// The CPU must have AVX-512F and AVX-512 IFMA.
///
/// # Panics
/// If the lengths of `a` and of `t`'s tables do not fit `m` (see [`check_lengths`]).
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn forward(t: &PrimeTables, m: usize, a: &mut [u64]) {
    check_lengths(t, m, a.len());
    let k = K::new(t.p);
    if a.len() != m {
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

/// Inverse transform modulo `t.p` (times the length), inputs and outputs in `[0, 4p)`;
/// `m`, `a` and `t` as in [`forward`].
///
/// # Safety
/// The CPU must have AVX-512F and AVX-512 IFMA.
///
/// # Panics
/// As [`forward`].
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn inverse(t: &PrimeTables, m: usize, a: &mut [u64]) {
    check_lengths(t, m, a.len());
    let k = K::new(t.p);
    if a.len() != m {
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

/// `x ← x ⋆ y` pointwise modulo `t.p` (`y = None`: `x ← x ⋆ x`), both forward transforms
/// of the same length, a multiple of 8: Montgomery's product in radix 2^52 of values
/// below `2p`, result in `(0, 2p)` (the factor `2^(−52)` is undone by `t.scale` in
/// [`scale_crt`]).
///
/// # Safety
/// The CPU must have AVX-512F and AVX-512 IFMA.
///
/// # Panics
/// If the length is not a multiple of 8 or `ys` differs in length from `xs`.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn pointwise(t: &PrimeTables, xs: &mut [u64], ys: Option<&[u64]>) {
    let n = xs.len();
    assert!(n % 8 == 0 && ys.is_none_or(|ys| ys.len() == n), "pointwise: lengths");
    let (p, pinv) = (splat(t.p), splat(t.pinv));
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

/// After the inverse transforms modulo `t1.p` (`first`) and `t2.p` (`second`, of the same
/// length), values in `[0, 4p)`: each scaled by its `scale` (the length factor and the
/// pointwise products' `2^(−52)` undone) and recombined by Garner's method with `garner`
/// (`p1^(−1) mod p2` and its Shoup constant): afterwards `first[i] = x1 < p1` and
/// `second[i] = x2 < p2` with the coefficient `x1 + p1·x2`.
///
/// # Safety
/// The CPU must have AVX-512F and AVX-512 IFMA.
///
/// # Panics
/// If the length is not a multiple of 8 or the two differ.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn scale_crt(
    t1: &PrimeTables,
    t2: &PrimeTables,
    garner: (u64, u64),
    first: &mut [u64],
    second: &mut [u64],
) {
    assert!(first.len() == second.len() && first.len() % 8 == 0, "scale_crt: lengths");
    let (k1, k2) = (K::new(t1.p), K::new(t2.p));
    let (s1, s1s) = (splat(t1.scale.0), splat(t1.scale.1));
    let (s2, s2s) = (splat(t2.scale.0), splat(t2.scale.1));
    let (g, gs) = (splat(garner.0), splat(garner.1));
    let n = first.len();
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
