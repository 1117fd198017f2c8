//! The vector passes of the double-precision transform engine (`ntt/fma.rs`: the primes,
//! the plans and their twiddle tables, the method and its error bound are there), four
//! residues to an AVX2 register, each operation the FMA sequence of the portable twin in
//! `ntt/fma.rs` (`vfmsub`/`vfnmadd` for its `fma`, `vroundpd` to nearest for its
//! `round`, the same integer for `|x| < 2^51`), so that both compute the same values.
//!
//! - [`forward`]: decimation in frequency, natural order in, bit-reversed order out, an
//!   optional radix-3 pass first; two radix-2 passes fused per sweep (radix 4), the
//!   passes below [`BLOCK`] values run block by block while the block is in cache, the
//!   last two inside registers;
//! - [`inverse`]: decimation in time, the mirror image;
//! - [`pointwise`]: the products of two transforms;
//! - [`scale_crt`]: the scaling by `n^(−1)` and Garner's recombination, into integers.
//!
//! All values are signed residues `|v| < p` (invariant **I** of `ntt/fma.rs`), those of
//! the inverse transform `|v| < 3p` (the ranges are `ntt/fma.rs`'s).

use crate::ntt::fma::PrimeTables;
use core::arch::x86_64::*;

/// Values per block for the passes that stay inside it (32 KiB of `f64`: L1-sized).
pub(crate) const BLOCK: usize = 1 << 12;

#[inline]
#[target_feature(enable = "avx2,fma")]
fn splat(x: f64) -> __m256d {
    _mm256_set1_pd(x)
}

#[inline]
#[target_feature(enable = "avx2,fma")]
fn add(a: __m256d, b: __m256d) -> __m256d {
    _mm256_add_pd(a, b)
}

#[inline]
#[target_feature(enable = "avx2,fma")]
fn sub(a: __m256d, b: __m256d) -> __m256d {
    _mm256_sub_pd(a, b)
}

/// The nearest integer, ties to even.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn round(x: __m256d) -> __m256d {
    _mm256_round_pd::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(x)
}

/// Per-prime constants.
#[derive(Clone, Copy)]
struct K {
    p: __m256d,
    pinv: __m256d,
}

impl K {
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn new(t: &PrimeTables) -> K {
        K { p: splat(t.p), pinv: splat(t.pinv) }
    }
}

/// `reduce` of `ntt/fma.rs`: `s mod p`, `|result| ≤ p/2 + 1`, for `|s| < 4p`.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn reduce(s: __m256d, k: K) -> __m256d {
    let q = round(_mm256_mul_pd(s, k.pinv));
    _mm256_fnmadd_pd(q, k.p, s)
}

/// `mul_tw` of `ntt/fma.rs`: `a·w mod p` in `(−0.876p, 0.876p)` for `|a| < 3p`.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn mul_tw(a: __m256d, w: __m256d, wp: __m256d, k: K) -> __m256d {
    let h = _mm256_mul_pd(a, w);
    let l = _mm256_fmsub_pd(a, w, h);
    let q = round(_mm256_mul_pd(a, wp));
    add(_mm256_fnmadd_pd(q, k.p, h), l)
}

/// `mul` of `ntt/fma.rs`: `a·b mod p` in `(−0.876p, 0.876p)` for `|a|, |b| < p`.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn mul(a: __m256d, b: __m256d, k: K) -> __m256d {
    let h = _mm256_mul_pd(a, b);
    let l = _mm256_fmsub_pd(a, b, h);
    let q = round(_mm256_mul_pd(h, k.pinv));
    add(_mm256_fnmadd_pd(q, k.p, h), l)
}

/// Forward butterfly: `(reduce(x + y), mul_tw(x − y, w))`.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn bf_dif(x: __m256d, y: __m256d, w: __m256d, wp: __m256d, k: K) -> (__m256d, __m256d) {
    (reduce(add(x, y), k), mul_tw(sub(x, y), w, wp, k))
}

/// Inverse butterfly on `|x|, |y| < 3p`: `u = reduce(x)`, `t = mul_tw(y, w)`,
/// `(u + t, u − t)`, below `1.376p + 1`.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn bf_dit(x: __m256d, y: __m256d, w: __m256d, wp: __m256d, k: K) -> (__m256d, __m256d) {
    let u = reduce(x, k);
    let t = mul_tw(y, w, wp, k);
    (add(u, t), sub(u, t))
}

#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn load(p: *const f64) -> __m256d {
    // SAFETY: the caller guarantees 4 readable f64s at `p`.
    unsafe { _mm256_loadu_pd(p) }
}

#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn store(p: *mut f64, v: __m256d) {
    // SAFETY: the caller guarantees 4 writable f64s at `p`.
    unsafe { _mm256_storeu_pd(p, v) }
}

/// One forward (`dif`) or inverse radix-2 pass of half-length `len ≥ 4` over `a`.
#[target_feature(enable = "avx2,fma")]
fn pass2(a: &mut [f64], len: usize, w: &[f64], wp: &[f64], k: K, forward: bool) {
    assert!(len >= 4 && a.len() % (2 * len) == 0 && w.len() >= 2 * len && wp.len() >= 2 * len);
    for block in a.chunks_exact_mut(2 * len) {
        let ptr = block.as_mut_ptr();
        for j in (0..len).step_by(4) {
            // SAFETY: j + 4 ≤ len, the block has 2·len values, the tables 2·len.
            unsafe {
                let x = load(ptr.add(j));
                let y = load(ptr.add(j + len));
                let (tw, twp) = (load(w.as_ptr().add(len + j)), load(wp.as_ptr().add(len + j)));
                let (x, y) =
                    if forward { bf_dif(x, y, tw, twp, k) } else { bf_dit(x, y, tw, twp, k) };
                store(ptr.add(j), x);
                store(ptr.add(j + len), y);
            }
        }
    }
}

/// Two forward passes in one sweep: half-lengths `len` then `len/2` (`len ≥ 8`).
#[target_feature(enable = "avx2,fma")]
fn pass4_dif(a: &mut [f64], len: usize, t: &PrimeTables, k: K) {
    let h = len / 2;
    assert!(h >= 4 && a.len() % (2 * len) == 0 && t.fw.len() >= 2 * len && t.fwp.len() >= 2 * len);
    let (w, wp) = (t.fw.as_ptr(), t.fwp.as_ptr());
    for block in a.chunks_exact_mut(2 * len) {
        let ptr = block.as_mut_ptr();
        for j in (0..h).step_by(4) {
            // SAFETY: j + 4 ≤ h; the offsets stay below 2·len, the table indices below
            // 2·len.
            unsafe {
                let a0 = load(ptr.add(j));
                let a1 = load(ptr.add(j + h));
                let a2 = load(ptr.add(j + len));
                let a3 = load(ptr.add(j + len + h));
                let (a0, a2) = bf_dif(a0, a2, load(w.add(len + j)), load(wp.add(len + j)), k);
                let (a1, a3) =
                    bf_dif(a1, a3, load(w.add(len + h + j)), load(wp.add(len + h + j)), k);
                let (w2, wp2) = (load(w.add(h + j)), load(wp.add(h + j)));
                let (a0, a1) = bf_dif(a0, a1, w2, wp2, k);
                let (a2, a3) = bf_dif(a2, a3, w2, wp2, k);
                store(ptr.add(j), a0);
                store(ptr.add(j + h), a1);
                store(ptr.add(j + len), a2);
                store(ptr.add(j + len + h), a3);
            }
        }
    }
}

/// Two inverse passes in one sweep: half-lengths `len` then `2·len` (`len ≥ 4`).
#[target_feature(enable = "avx2,fma")]
fn pass4_dit(a: &mut [f64], len: usize, t: &PrimeTables, k: K) {
    assert!(
        len >= 4 && a.len() % (4 * len) == 0 && t.iw.len() >= 4 * len && t.iwp.len() >= 4 * len
    );
    let (w, wp) = (t.iw.as_ptr(), t.iwp.as_ptr());
    for block in a.chunks_exact_mut(4 * len) {
        let ptr = block.as_mut_ptr();
        for j in (0..len).step_by(4) {
            // SAFETY: j + 4 ≤ len; the offsets stay below 4·len, the table indices too.
            unsafe {
                let a0 = load(ptr.add(j));
                let a1 = load(ptr.add(j + len));
                let a2 = load(ptr.add(j + 2 * len));
                let a3 = load(ptr.add(j + 3 * len));
                let (w1, wp1) = (load(w.add(len + j)), load(wp.add(len + j)));
                let (a0, a1) = bf_dit(a0, a1, w1, wp1, k);
                let (a2, a3) = bf_dit(a2, a3, w1, wp1, k);
                let (a0, a2) =
                    bf_dit(a0, a2, load(w.add(2 * len + j)), load(wp.add(2 * len + j)), k);
                let (a1, a3) =
                    bf_dit(a1, a3, load(w.add(3 * len + j)), load(wp.add(3 * len + j)), k);
                store(ptr.add(j), a0);
                store(ptr.add(j + len), a1);
                store(ptr.add(j + 2 * len), a2);
                store(ptr.add(j + 3 * len), a3);
            }
        }
    }
}

/// The last two forward passes (half-lengths 2 and 1) on groups of 8 values, inside
/// registers: blocks `[a0 a1 a2 a3]`, `[b0 b1 b2 b3]` regrouped so that each butterfly's
/// two values sit in the same lane of two registers.
#[target_feature(enable = "avx2,fma")]
fn dif_leaves(a: &mut [f64], t: &PrimeTables, k: K) {
    assert!(a.len() % 8 == 0 && t.fw.len() >= 4);
    let w2 = _mm256_setr_pd(t.fw[2], t.fw[3], t.fw[2], t.fw[3]);
    let wp2 = _mm256_setr_pd(t.fwp[2], t.fwp[3], t.fwp[2], t.fwp[3]);
    let (w1, wp1) = (splat(t.fw[1]), splat(t.fwp[1]));
    for g in a.chunks_exact_mut(8) {
        let ptr = g.as_mut_ptr();
        // SAFETY: 8 values in the group.
        unsafe {
            let (va, vb) = (load(ptr), load(ptr.add(4)));
            let x = _mm256_permute2f128_pd::<0x20>(va, vb); // a0 a1 b0 b1
            let y = _mm256_permute2f128_pd::<0x31>(va, vb); // a2 a3 b2 b3
            let (x, y) = bf_dif(x, y, w2, wp2, k);
            let u = _mm256_unpacklo_pd(x, y); // a0 a2 b0 b2
            let v = _mm256_unpackhi_pd(x, y); // a1 a3 b1 b3
            let (u, v) = bf_dif(u, v, w1, wp1, k);
            let lo = _mm256_unpacklo_pd(u, v); // a0 a1 b0 b1
            let hi = _mm256_unpackhi_pd(u, v); // a2 a3 b2 b3
            store(ptr, _mm256_permute2f128_pd::<0x20>(lo, hi));
            store(ptr.add(4), _mm256_permute2f128_pd::<0x31>(lo, hi));
        }
    }
}

/// The first two inverse passes (half-lengths 1 and 2) on groups of 8 values, inside
/// registers (the mirror image of [`dif_leaves`]).
#[target_feature(enable = "avx2,fma")]
fn dit_leaves(a: &mut [f64], t: &PrimeTables, k: K) {
    assert!(a.len() % 8 == 0 && t.iw.len() >= 4);
    let w2 = _mm256_setr_pd(t.iw[2], t.iw[3], t.iw[2], t.iw[3]);
    let wp2 = _mm256_setr_pd(t.iwp[2], t.iwp[3], t.iwp[2], t.iwp[3]);
    let (w1, wp1) = (splat(t.iw[1]), splat(t.iwp[1]));
    for g in a.chunks_exact_mut(8) {
        let ptr = g.as_mut_ptr();
        // SAFETY: 8 values in the group.
        unsafe {
            let (va, vb) = (load(ptr), load(ptr.add(4)));
            let lo = _mm256_permute2f128_pd::<0x20>(va, vb); // a0 a1 b0 b1
            let hi = _mm256_permute2f128_pd::<0x31>(va, vb); // a2 a3 b2 b3
            let u = _mm256_unpacklo_pd(lo, hi); // a0 a2 b0 b2
            let v = _mm256_unpackhi_pd(lo, hi); // a1 a3 b1 b3
            let (u, v) = bf_dit(u, v, w1, wp1, k);
            let x = _mm256_unpacklo_pd(u, v); // a0 a1 b0 b1
            let y = _mm256_unpackhi_pd(u, v); // a2 a3 b2 b3
            let (x, y) = bf_dit(x, y, w2, wp2, k);
            store(ptr, _mm256_permute2f128_pd::<0x20>(x, y));
            store(ptr.add(4), _mm256_permute2f128_pd::<0x31>(x, y));
        }
    }
}

/// The forward passes from half-length `len` down, on blocks of `2·len` values.
#[target_feature(enable = "avx2,fma")]
fn dif_from(a: &mut [f64], mut len: usize, t: &PrimeTables, k: K) {
    while len >= 4 {
        if len >= 8 {
            pass4_dif(a, len, t, k);
            len /= 4;
        } else {
            pass2(a, len, &t.fw, &t.fwp, k, true);
            len /= 2;
        }
    }
    // Every path from a half-length ≥ 4 ends at 2: the last two passes in registers.
    debug_assert_eq!(len, 2);
    dif_leaves(a, t, k);
}

/// The inverse passes of half-lengths 1, 2, …, `stop/2` (`stop ≥ 8`), on blocks of
/// `stop` values.
#[target_feature(enable = "avx2,fma")]
fn dit_until(a: &mut [f64], stop: usize, t: &PrimeTables, k: K) {
    dit_leaves(a, t, k);
    let mut len = 4;
    while len < stop {
        if 4 * len <= stop {
            pass4_dit(a, len, t, k);
            len *= 4;
        } else {
            pass2(a, len, &t.iw, &t.iwp, k, false);
            len *= 2;
        }
    }
}

/// Radix-2 forward transform of `a` (a power of two `≥ 8` values).
#[target_feature(enable = "avx2,fma")]
fn dif(a: &mut [f64], t: &PrimeTables, k: K) {
    let m = a.len();
    let mut len = m / 2;
    // Sweeps over the whole array while a block of 2·len exceeds BLOCK.
    while 2 * len > BLOCK {
        if len > BLOCK {
            pass4_dif(a, len, t, k);
            len /= 4;
        } else {
            pass2(a, len, &t.fw, &t.fwp, k, true);
            len /= 2;
        }
    }
    for block in a.chunks_exact_mut(2 * len) {
        dif_from(block, len, t, k);
    }
}

/// Radix-2 inverse transform of `a` (a power of two `≥ 8` values), times the length.
#[target_feature(enable = "avx2,fma")]
fn dit(a: &mut [f64], t: &PrimeTables, k: K) {
    let m = a.len();
    let block = m.min(BLOCK);
    for b in a.chunks_exact_mut(block) {
        dit_until(b, block, t, k);
    }
    let mut len = block;
    while len < m {
        if 4 * len <= m {
            pass4_dit(a, len, t, k);
            len *= 4;
        } else {
            pass2(a, len, &t.iw, &t.iwp, k, false);
            len *= 2;
        }
    }
}

/// The lengths every vector load relies on: `m` a power of two `≥ 8`, `len` (the values)
/// `m` or `3m`, the tables of at least `m` entries.
fn check_lengths(t: &PrimeTables, m: usize, len: usize) {
    assert!(m.is_power_of_two() && m >= 8, "transform: radix-2 length {m}");
    assert!(len == m || len == 3 * m, "transform: {len} values for a radix-2 length {m}");
    for w in [&t.fw, &t.fwp, &t.iw, &t.iwp] {
        assert!(w.len() >= m, "transform: twiddle table shorter than {m}");
    }
    if len != m {
        for w in t.r3.iter().chain(&t.r3i) {
            assert!(w.len() >= m, "transform: radix-3 twiddle table shorter than {m}");
        }
    }
}

/// Forward transform modulo `t.p` of `a` (`m` or `3m` values, **I**), the same values as
/// `ntt::fma::forward_portable`.
///
/// # Safety
/// The CPU must have AVX2 and FMA.
///
/// # Panics
/// If the lengths do not fit (see [`check_lengths`]).
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn forward(t: &PrimeTables, m: usize, a: &mut [f64]) {
    check_lengths(t, m, a.len());
    let k = K::new(t);
    if a.len() != m {
        let (om, omp) = (splat(t.omega.0), splat(t.omega.1));
        let (x0, rest) = a.split_at_mut(m);
        let (x1, x2) = rest.split_at_mut(m);
        for i in (0..m).step_by(4) {
            // SAFETY: i + 4 ≤ m, the length of x0, x1, x2 and of the radix-3 tables.
            unsafe {
                let u = load(x0.as_ptr().add(i));
                let v = load(x1.as_ptr().add(i));
                let w = load(x2.as_ptr().add(i));
                let s = mul_tw(sub(v, w), om, omp, k);
                let a0 = reduce(add(add(u, v), w), k);
                let a1 = add(sub(u, w), s);
                let a1 =
                    mul_tw(a1, load(t.r3[0].as_ptr().add(i)), load(t.r3[1].as_ptr().add(i)), k);
                let a2 = sub(sub(u, v), s);
                let a2 =
                    mul_tw(a2, load(t.r3[2].as_ptr().add(i)), load(t.r3[3].as_ptr().add(i)), k);
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

/// Inverse transform modulo `t.p` (times the length), **I** in, below `1.376p + 1` out,
/// the same values as `ntt::fma::inverse_portable`.
///
/// # Safety
/// The CPU must have AVX2 and FMA.
///
/// # Panics
/// As [`forward`].
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn inverse(t: &PrimeTables, m: usize, a: &mut [f64]) {
    check_lengths(t, m, a.len());
    let k = K::new(t);
    if a.len() != m {
        for part in a.chunks_exact_mut(m) {
            dit(part, t, k);
        }
        let (om, omp) = (splat(t.omega_inv.0), splat(t.omega_inv.1));
        let (x0, rest) = a.split_at_mut(m);
        let (x1, x2) = rest.split_at_mut(m);
        for i in (0..m).step_by(4) {
            // SAFETY: i + 4 ≤ m, the length of x0, x1, x2 and of the radix-3 tables.
            unsafe {
                let u = load(x0.as_ptr().add(i));
                let v = mul_tw(
                    load(x1.as_ptr().add(i)),
                    load(t.r3i[0].as_ptr().add(i)),
                    load(t.r3i[1].as_ptr().add(i)),
                    k,
                );
                let w = mul_tw(
                    load(x2.as_ptr().add(i)),
                    load(t.r3i[2].as_ptr().add(i)),
                    load(t.r3i[3].as_ptr().add(i)),
                    k,
                );
                let s = mul_tw(sub(v, w), om, omp, k);
                store(x0.as_mut_ptr().add(i), reduce(add(add(u, v), w), k));
                store(x1.as_mut_ptr().add(i), reduce(add(sub(u, w), s), k));
                store(x2.as_mut_ptr().add(i), reduce(sub(sub(u, v), s), k));
            }
        }
    } else {
        dit(a, t, k);
    }
}

/// `x ← x ⋆ y` pointwise modulo `t.p` (`y = None`: `x ← x ⋆ x`), lengths a multiple of 4.
///
/// # Safety
/// The CPU must have AVX2 and FMA.
///
/// # Panics
/// If the length is not a multiple of 4 or `ys` differs in length from `xs`.
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn pointwise(t: &PrimeTables, xs: &mut [f64], ys: Option<&[f64]>) {
    let n = xs.len();
    assert!(n % 4 == 0 && ys.is_none_or(|ys| ys.len() == n), "pointwise: lengths");
    let k = K::new(t);
    for i in (0..n).step_by(4) {
        // SAFETY: i + 4 ≤ n, the length of xs and ys.
        unsafe {
            let a = load(xs.as_ptr().add(i));
            let b = match ys {
                Some(ys) => load(ys.as_ptr().add(i)),
                None => a,
            };
            store(xs.as_mut_ptr().add(i), mul(a, b, k));
        }
    }
}

/// The scaling by `n^(−1)` and Garner's recombination of `ntt::fma::scale_crt_portable`:
/// afterwards the words of `first` hold `x1 ∈ [0, p1)` and those of `second`
/// `x2 ∈ [0, p2)` as integers, the coefficient being `x1 + p1·x2`.
///
/// # Safety
/// The CPU must have AVX2 and FMA.
///
/// # Panics
/// If the length is not a multiple of 4 or the two differ.
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn scale_crt(
    t1: &PrimeTables,
    t2: &PrimeTables,
    garner: (f64, f64),
    first: &mut [f64],
    second: &mut [f64],
) {
    assert!(first.len() == second.len() && first.len() % 4 == 0, "scale_crt: lengths");
    let (k1, k2) = (K::new(t1), K::new(t2));
    let (s1, s1p) = (splat(t1.scale.0), splat(t1.scale.1));
    let (s2, s2p) = (splat(t2.scale.0), splat(t2.scale.1));
    let (g, gp) = (splat(garner.0), splat(garner.1));
    // x + 2^52 has the integer x ∈ [0, 2^52) in its low 52 bits.
    let magic = splat(4_503_599_627_370_496.0);
    let zero = _mm256_setzero_pd();
    let to_int = |x: __m256d| {
        _mm256_castsi256_pd(_mm256_xor_si256(
            _mm256_castpd_si256(add(x, magic)),
            _mm256_castpd_si256(magic),
        ))
    };
    let n = first.len();
    for i in (0..n).step_by(4) {
        // SAFETY: i + 4 ≤ n, the length of both halves.
        unsafe {
            let x1 = mul_tw(load(first.as_ptr().add(i)), s1, s1p, k1);
            let x1 = add(x1, _mm256_and_pd(_mm256_cmp_pd::<_CMP_LT_OQ>(x1, zero), k1.p));
            let y2 = mul_tw(load(second.as_ptr().add(i)), s2, s2p, k2);
            let x2 = mul_tw(sub(y2, x1), g, gp, k2);
            let x2 = add(x2, _mm256_and_pd(_mm256_cmp_pd::<_CMP_LT_OQ>(x2, zero), k2.p));
            store(first.as_mut_ptr().add(i), to_int(x1));
            store(second.as_mut_ptr().add(i), to_int(x2));
        }
    }
}
