//! Multiplication and squaring: schoolbook below [`KARATSUBA_THRESHOLD`] digits,
//! Karatsuba above, with unbalanced operands cut into balanced pieces, and the exact
//! transform product of [`crate::ntt`] from [`NTT_THRESHOLD`] digits ([`NTT_IFMA_THRESHOLD`]
//! where the transform runs on AVX-512 IFMA).

use super::{normalized_len, Nat};
use crate::kernels;
use crate::limb::Limb;
use alloc::vec;
use alloc::vec::Vec;

/// Digits of the shorter operand from which Karatsuba's three half-size products beat one
/// schoolbook product. Measured with the portable `u64` kernels on x86-64 (interleaved
/// runs in one process): one level of Karatsuba overtakes schoolbook at 28–30 digits, and
/// products of 64–400 digits take the same time (within 2%) with thresholds 28–32, up to
/// 18% more with 36–48 and up to 25% more with 20–24. 32 is in that flat range.
pub const KARATSUBA_THRESHOLD: usize = 32;

/// Digits from which Karatsuba squaring beats schoolbook squaring. Schoolbook squaring
/// already halves the digit products, so the crossover sits higher than for products.
/// Measured as for [`KARATSUBA_THRESHOLD`]: one level of Karatsuba squaring overtakes
/// schoolbook at 54–56 digits; squares of 64–400 digits take the same time with
/// thresholds 52–64, while 48 cost 5–7% more wherever the recursion reached 48–51 digits.
pub const KARATSUBA_SQR_THRESHOLD: usize = 56;

/// Digits of the shorter operand from which the exact transform product
/// ([`crate::ntt::mul`]) beats Karatsuba on the scalar three-prime transform (every CPU
/// without AVX-512 IFMA, and the `portable` feature). Measured with `cargo run --release --example
/// calibrate_ntt` (both products in one process, best of 7 rounds, u64 digits, x86-64,
/// on a shared 2-core machine): Karatsuba/transform time ratio 0.63 at 1024 words, 0.90
/// at 2048, 1.19 at 4096, 1.77 at 8192 — the crossover lies between 2048 and 4096 words.
pub const NTT_THRESHOLD: usize = 3072;

/// Digits from which the transform square (one forward transform instead of two) beats
/// Karatsuba squaring. Same measurement: ratio 0.61 at 2048 words, 0.83 at 4096, 1.56 at
/// 8192 — crossover between 4096 and 8192 words.
pub const NTT_SQR_THRESHOLD: usize = 6144;

/// [`NTT_THRESHOLD`] where the transform runs on AVX-512 IFMA ([`crate::ntt::uses_ifma`]:
/// 64-bit digits on a CPU that has it). Measured as for [`NTT_THRESHOLD`] (two runs):
/// Karatsuba/transform time ratio 0.62–0.73 at 48 words, 1.28–1.30 at 64, 1.25–1.31 at
/// 96, 1.5–1.8 at 128, 2.4–2.7 at 256, 3.2–4.0 at 512 — the crossover lies between 48
/// and 64 words.
pub const NTT_IFMA_THRESHOLD: usize = 64;

/// [`NTT_SQR_THRESHOLD`] on the IFMA engine. Same measurement: Karatsuba square/transform
/// square 0.54–0.59 at 48 words, 0.96–0.99 at 64, 1.00–1.08 at 96, 1.42 at 128, 1.45–1.55
/// at 192 — crossover at about 96 words.
pub const NTT_IFMA_SQR_THRESHOLD: usize = 128;

/// [`NTT_THRESHOLD`] where the transform runs on the FMA engine ([`crate::ntt::uses_fma`]:
/// 64-bit digits, AVX2 and FMA, no AVX-512 IFMA). Measured with
/// `MODRED_CPU_OFF=avx512ifma cargo run --release -p modred --example calibrate_ntt` on
/// an Intel Xeon with AVX-512 IFMA hidden (2 shared cores, one run): Karatsuba/transform
/// time ratio 0.82 at 128 words, 1.07 at 192, 1.27 at 256, 1.65 at 384, 1.98 at 512 — the
/// crossover lies between 128 and 192 words.
pub const NTT_FMA_THRESHOLD: usize = 192;

/// [`NTT_SQR_THRESHOLD`] on the FMA engine. Same run: Karatsuba square/transform square
/// 0.71 at 128 words, 0.88 at 192, 1.29 at 256, 1.27 at 384, 1.81 at 512 — crossover
/// between 192 and 256 words.
pub const NTT_FMA_SQR_THRESHOLD: usize = 256;

/// The transform thresholds (product, square) for `L` digits on this CPU.
#[inline]
fn ntt_thresholds<L: Limb>() -> (usize, usize) {
    if crate::ntt::uses_ifma::<L>() {
        (NTT_IFMA_THRESHOLD, NTT_IFMA_SQR_THRESHOLD)
    } else if crate::ntt::uses_fma::<L>() {
        (NTT_FMA_THRESHOLD, NTT_FMA_SQR_THRESHOLD)
    } else {
        (NTT_THRESHOLD, NTT_SQR_THRESHOLD)
    }
}

/// `r = a · b` with `r.len() == a.len() + b.len()`. Either operand may be empty.
pub(crate) fn mul_slices<L: Limb>(r: &mut [L], a: &[L], b: &[L]) {
    mul_slices_buf(r, a, b, &mut Vec::new());
}

/// [`mul_slices`] with `buf` as the working transforms when the product is transform-based
/// (kept by the caller across products: the reducers' [`crate::Scratch`]).
pub(crate) fn mul_slices_buf<L: Limb>(r: &mut [L], a: &[L], b: &[L], buf: &mut Vec<u64>) {
    debug_assert_eq!(r.len(), a.len() + b.len());
    let (a, b) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    if b.is_empty() {
        r.fill(L::ZERO);
        return;
    }
    if b.len() < KARATSUBA_THRESHOLD {
        kernels::mul_basecase(r, a, b);
        return;
    }
    if b.len() >= ntt_thresholds::<L>().0 {
        crate::ntt::mul_with_buf(r, a, b, buf);
        return;
    }
    let h = a.len().div_ceil(2);
    if b.len() <= h {
        mul_unbalanced(r, a, b);
    } else {
        karatsuba(r, a, b, h);
    }
}

/// `r = a · b` into a caller-provided buffer, allocating nothing (below the Karatsuba
/// threshold) — the product the reducers' [`Reducer::mul`](crate::Reducer::mul) computes
/// before reducing. For timing a k×k product against a reduction, or for callers that keep
/// their own buffers.
///
/// `a` and `b` are digit slices of any lengths (high zeros allowed); `r` receives all
/// `a.len() + b.len()` digits of the product.
///
/// # Panics
/// If `r.len() != a.len() + b.len()`.
pub fn mul_into<L: Limb>(r: &mut [L], a: &[L], b: &[L]) {
    assert_eq!(r.len(), a.len() + b.len(), "mul_into: r must have a.len() + b.len() digits");
    mul_slices(r, a, b);
}

/// `r = a · b` by the schoolbook method whatever the lengths (no Karatsuba, no transform):
/// exactly `a.len() · b.len()` digit multiplications. The reference product of operation
/// counts (paper 000, Table 1: `k²` for two `k`-digit numbers, on [`crate::Counted`]
/// digits); for speed use [`mul_into`], which switches to Karatsuba from
/// [`KARATSUBA_THRESHOLD`] digits.
///
/// `a` and `b` are digit slices of any lengths (high zeros allowed); `r` receives all
/// `a.len() + b.len()` digits of the product.
///
/// # Panics
/// If `r.len() != a.len() + b.len()`.
pub fn mul_schoolbook_into<L: Limb>(r: &mut [L], a: &[L], b: &[L]) {
    assert_eq!(
        r.len(),
        a.len() + b.len(),
        "mul_schoolbook_into: r must have a.len() + b.len() digits"
    );
    let (a, b) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    if b.is_empty() {
        r.fill(L::ZERO);
    } else {
        kernels::mul_basecase(r, a, b);
    }
}

/// `r = a²` into a caller-provided buffer of `2·a.len()` digits (the square
/// [`Reducer::sqr`](crate::Reducer::sqr) computes before reducing).
///
/// # Panics
/// If `r.len() != 2·a.len()`.
pub fn sqr_into<L: Limb>(r: &mut [L], a: &[L]) {
    assert_eq!(r.len(), 2 * a.len(), "sqr_into: r must have 2·a.len() digits");
    sqr_slice(r, a);
}

/// `r = a · b` for `a` much longer than `b`: `a` in pieces of `b.len()` digits.
fn mul_unbalanced<L: Limb>(r: &mut [L], a: &[L], b: &[L]) {
    let n = b.len();
    r.fill(L::ZERO);
    let mut tmp = vec![L::ZERO; 2 * n];
    for (i, chunk) in a.chunks(n).enumerate() {
        let t = &mut tmp[..chunk.len() + n];
        mul_slices(t, chunk, b);
        let c = crate::nat::add::add_assign_slices(&mut r[i * n..], t);
        debug_assert!(!c);
    }
}

/// Karatsuba with split point `h` (`a.len() >= b.len() > h`):
/// a·b = z2·B^(2h) + ((a0+a1)(b0+b1) − z0 − z2)·B^h + z0.
fn karatsuba<L: Limb>(r: &mut [L], a: &[L], b: &[L], h: usize) {
    let (a0, a1) = a.split_at(h);
    let (b0, b1) = b.split_at(h);
    mul_slices(&mut r[..2 * h], a0, b0);
    mul_slices(&mut r[2 * h..], a1, b1);
    let sa = sum_halves(a0, a1);
    let sb = sum_halves(b0, b1);
    let mut t = vec![L::ZERO; sa.len() + sb.len()];
    mul_slices(&mut t, &sa, &sb);
    subtract_from_middle(r, &mut t, h);
}

/// `a0 + a1` with one extra digit for the carry, trimmed of high zeros.
fn sum_halves<L: Limb>(a0: &[L], a1: &[L]) -> Vec<L> {
    let mut s = vec![L::ZERO; a0.len() + 1];
    s[..a0.len()].copy_from_slice(a0);
    let c = crate::nat::add::add_assign_slices(&mut s, a1);
    debug_assert!(!c);
    s.truncate(normalized_len(&s));
    s
}

/// Given `r = z2·B^(2h) + z0` and `t = (a0+a1)(b0+b1)`, adds `(t − z0 − z2)·B^h` into `r`.
fn subtract_from_middle<L: Limb>(r: &mut [L], t: &mut [L], h: usize) {
    use crate::nat::add::{add_assign_slices, sub_assign_slices};
    let z0_len = normalized_len(&r[..2 * h]);
    let z2_len = normalized_len(&r[2 * h..]);
    let br0 = sub_assign_slices(t, &r[..z0_len]);
    let br2 = sub_assign_slices(t, &r[2 * h..2 * h + z2_len]);
    debug_assert!(!br0 && !br2);
    let n = normalized_len(t);
    let c = add_assign_slices(&mut r[h..], &t[..n]);
    debug_assert!(!c);
}

/// `r = a²` with `r.len() == 2·a.len()`.
pub(crate) fn sqr_slice<L: Limb>(r: &mut [L], a: &[L]) {
    sqr_slice_buf(r, a, &mut Vec::new());
}

/// [`sqr_slice`] with `buf` as the working transform, as [`mul_slices_buf`].
pub(crate) fn sqr_slice_buf<L: Limb>(r: &mut [L], a: &[L], buf: &mut Vec<u64>) {
    debug_assert_eq!(r.len(), 2 * a.len());
    if a.is_empty() {
        return;
    }
    if a.len() < KARATSUBA_SQR_THRESHOLD {
        kernels::sqr_basecase(r, a);
        return;
    }
    if a.len() >= ntt_thresholds::<L>().1 {
        crate::ntt::sqr_with_buf(r, a, buf);
        return;
    }
    let h = a.len().div_ceil(2);
    let (a0, a1) = a.split_at(h);
    sqr_slice(&mut r[..2 * h], a0);
    sqr_slice(&mut r[2 * h..], a1);
    let s = sum_halves(a0, a1);
    let mut t = vec![L::ZERO; 2 * s.len()];
    sqr_slice(&mut t, &s);
    subtract_from_middle(r, &mut t, h);
}

impl<L: Limb> Nat<L> {
    /// `self · other`.
    pub fn mul(&self, other: &Self) -> Self {
        let mut r = vec![L::ZERO; self.len() + other.len()];
        mul_slices(&mut r, self.limbs(), other.limbs());
        Nat::from_vec(r)
    }

    /// `self²`.
    pub fn sqr(&self) -> Self {
        let mut r = vec![L::ZERO; 2 * self.len()];
        sqr_slice(&mut r, self.limbs());
        Nat::from_vec(r)
    }

    /// `self · d` for one digit `d`.
    pub fn mul_limb(&self, d: L) -> Self {
        let mut r = vec![L::ZERO; self.len() + 1];
        let c = kernels::mul_1(&mut r[..self.len()], self.limbs(), d);
        r[self.len()] = c;
        Nat::from_vec(r)
    }
}

impl<L: Limb> core::ops::Mul for &Nat<L> {
    type Output = Nat<L>;
    fn mul(self, rhs: &Nat<L>) -> Nat<L> {
        Nat::mul(self, rhs)
    }
}
