//! Montgomery reduction: paper 000, Algorithm 3 (Hensel's b-ary form of Montgomery's
//! method), with the product and the reduction separated (paper 003 §2.3).
//!
//! The parts both Montgomery reducers share live here: [`MontgomeryParams`] (the
//! precalculation and the conversions into and out of the Montgomery representation)
//! and [`redc_in_place`], the reduction itself.

use super::{zeroed, Bound, Reducer, Scratch};
use crate::error::Error;
use crate::kernels;
use crate::limb::Limb;
use crate::nat::Nat;
use crate::registry::Algorithm;
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

/// Digits from which [`MontgomeryParams::mul_separated`] forms its product with Karatsuba
/// ([`crate::nat::mul`]) rather than the schoolbook kernel: one level over the ADX
/// schoolbook, then the reduction, took 1.61–1.10 of the fused MULX pass's time at 16–64
/// digits and only tied the schoolbook at 48–64 (docs/tuning.md); the schoolbook product
/// allocates nothing, so an exponentiation's loop stays allocation-free up to 4032 bits.
pub(crate) const PRODUCT_KARATSUBA_THRESHOLD: usize = 64;

/// The precalculation for a Montgomery representation modulo an odd `m` with `R = b^k`.
#[derive(Clone, Debug)]
pub(crate) struct MontgomeryParams<L: Limb> {
    pub(crate) m: Nat<L>,
    /// `m'_0 = −m_0^(−1) mod b`.
    pub(crate) m0inv: L,
    /// `R² mod m`, `k` digits, to convert into the representation with one reduction.
    r2: Vec<L>,
}

impl<L: Limb> MontgomeryParams<L> {
    /// The bytes of `m` and `R² mod m` on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.m.heap_bytes() + crate::nat::vec_bytes(&self.r2)
    }

    /// The precalculation; `algorithm` names the reducer in the error for an even `m`.
    pub(crate) fn new(m: &Nat<L>, algorithm: Algorithm) -> Result<Self, Error> {
        if m.is_zero() {
            return Err(Error::ZeroModulus);
        }
        if !m.is_odd() {
            return Err(Error::NotApplicable {
                algorithm: algorithm.name(),
                reason: "it needs an odd modulus (gcd(m, b) = 1)".to_string(),
            });
        }
        let k = m.len();
        let m0inv = m.limbs()[0].inverse_mod_b().wrapping_neg();
        let r2 = m.b2k_rem().unwrap_or_default();
        let r2 = r2.to_padded(k).unwrap_or_else(|| vec![L::ZERO; k]);
        Ok(MontgomeryParams { m: m.clone(), m0inv, r2 })
    }

    pub(crate) fn width(&self) -> usize {
        self.m.len()
    }

    /// `R² mod m`, `k` digits.
    pub(crate) fn r2(&self) -> &[L] {
        &self.r2
    }

    /// `x < m·b^k`.
    pub(crate) fn bound(&self) -> Nat<L> {
        self.m.shl(self.width() as u64 * L::BITS as u64)
    }

    /// `out = x·R⁻¹ mod m` for any slice `x < m·b^k` (high zeros allowed), through a copy in
    /// `scratch.work`.
    pub(crate) fn reduce_raw(&self, out: &mut [L], x: &[L], scratch: &mut Scratch<L>) {
        let k = self.width();
        let n = crate::nat::normalized_len(x);
        debug_assert!(n <= 2 * k, "Montgomery needs x < m·b^k");
        let t = zeroed(&mut scratch.work, 2 * k);
        t[..n].copy_from_slice(&x[..n]);
        redc_in_place(out, t, self.m.limbs(), self.m0inv);
    }

    /// `out = a·b·R⁻¹ mod m`: the full product in `scratch.product`, then [`redc_in_place`].
    pub(crate) fn mul_separated(&self, out: &mut [L], a: &[L], b: &[L], scratch: &mut Scratch<L>) {
        let k = self.width();
        let p = zeroed(&mut scratch.product, 2 * k);
        if k < PRODUCT_KARATSUBA_THRESHOLD && a.len() == k && b.len() == k {
            kernels::mul_basecase(p, a, b);
        } else {
            crate::nat::mul::mul_slices(p, a, b);
        }
        redc_in_place(out, p, self.m.limbs(), self.m0inv);
    }

    /// `out = a²·R⁻¹ mod m`, as [`MontgomeryParams::mul_separated`] with a square.
    pub(crate) fn sqr_separated(&self, out: &mut [L], a: &[L], scratch: &mut Scratch<L>) {
        let k = self.width();
        let p = zeroed(&mut scratch.product, 2 * k);
        crate::nat::mul::sqr_slice(p, a);
        redc_in_place(out, p, self.m.limbs(), self.m0inv);
    }

    /// `x·R mod m` for any `x`: `REDC((x mod m)·(R² mod m))`.
    pub(crate) fn to_residue(&self, x: &Nat<L>) -> Vec<L> {
        let k = self.width();
        let xm = if *x < self.m { x.clone() } else { x.checked_rem(&self.m).unwrap_or_default() };
        let xm = xm.to_padded(k).unwrap_or_else(|| vec![L::ZERO; k]);
        let mut out = vec![L::ZERO; k];
        self.mul_separated(&mut out, &xm, &self.r2, &mut Scratch::new());
        out
    }

    /// `r·R⁻¹ mod m`, the value a residue stands for.
    pub(crate) fn to_standard(&self, r: &[L]) -> Nat<L> {
        let mut out = vec![L::ZERO; self.width()];
        self.reduce_raw(&mut out, r, &mut Scratch::new());
        Nat::from_vec(out)
    }
}

/// Montgomery reduction, paper 000 Algorithm 3 (Hensel's b-ary division): `out = x·R⁻¹ mod
/// m` with `R = b^k`, for `0 ≤ x < m·b^k` given in `x` (exactly `2k` digits; destroyed).
/// `m` is odd with `k` digits, `m0inv = −m_0^(−1) mod b`, `out` has `k` digits.
///
/// For `i = 0 … k−1`: `t_i = x_i·m'_0 mod b` and `x += t_i·m·b^i`, which clears digit
/// `i`; then `x div b^k < (m·b^k + (b^k − 1)·m)/b^k < 2m` (paper 003, eq. 4.1), and one
/// subtraction of `m` gives the result. Exactly `k(k + 1)` digit multiplications (`k` for
/// the `t_i`, `k²` in `addmul_1`) and no division.
///
/// The carry out of step `i` belongs at position `i + k`; it is parked in the digit `x_i`
/// that the step just cleared and all `k` carries are added in one pass at the end (as
/// GMP's `redc_1`): no `t_j` reads a position `≥ k`, so deferring them changes nothing.
///
/// Constant time: no branch or memory access depends on the digits of `x` or `m` (the
/// zero digits of paper 000 §4's special arguments are not skipped), and the final
/// subtraction is a branch-free select.
pub(crate) fn redc_in_place<L: Limb>(out: &mut [L], x: &mut [L], m: &[L], m0inv: L) {
    let k = m.len();
    debug_assert!(x.len() == 2 * k && out.len() == k);
    for i in 0..k {
        let t = x[i].wrapping_mul(m0inv);
        let c = kernels::addmul_1(&mut x[i..i + k], m, t);
        debug_assert!(x[i].is_zero());
        x[i] = c;
    }
    let (carries, high) = x.split_at_mut(k);
    let top = kernels::add_assign_n(high, carries);
    // The value is top·b^k + high < 2m.
    conditional_subtract(out, high, top, m);
}

/// `out = v − m` if `v ≥ m`, else `v`, where `v = top·b^k + high < 2m`; branch-free.
#[inline]
pub(crate) fn conditional_subtract<L: Limb>(out: &mut [L], high: &[L], top: bool, m: &[L]) {
    let borrow = kernels::sub_n(out, high, m);
    // Keep the difference iff v ≥ m, i.e. top is set or the subtraction did not borrow.
    let keep_high = !top & borrow;
    let mask = L::ZERO.wrapping_sub(L::from_u64(keep_high as u64));
    for (o, &h) in out.iter_mut().zip(high) {
        *o = o.and(mask.not()).or(h.and(mask));
    }
}

/// Montgomery reduction with multiplication and reduction separated (paper 000,
/// Algorithm 3; paper 003 §2.3, the non-interleaved method).
///
/// Residues are in Montgomery's representation `x·R mod m`, `R = b^k`; odd moduli only
/// (`gcd(m, b) = 1`). [`Reducer::reduce_raw`] computes `x·R⁻¹ mod m` for `0 ≤ x < m·b^k`,
/// output below `m`; [`Reducer::mul`] is the full `k × k` product followed by it.
///
/// Cost: `k(k + 1)` digit multiplications for the reduction of a 2k-digit number (paper
/// 000, Table 1), `k²` more (schoolbook; fewer with Karatsuba from
/// [`crate::nat::KARATSUBA_THRESHOLD`] digits) for a product, `k(k+1)/2` for a square.
/// Precalculation: `m'_0 = −m_0^(−1) mod b` and `R² mod m` (for the conversion into the
/// representation); the conversion out is one more reduction.
#[derive(Clone, Debug)]
pub struct Montgomery<L: Limb> {
    params: MontgomeryParams<L>,
}

impl<L: Limb> Montgomery<L> {
    /// Its precalculation.
    pub(crate) fn params(&self) -> &MontgomeryParams<L> {
        &self.params
    }
}

impl<L: Limb> Reducer<L> for Montgomery<L> {
    fn heap_bytes(&self) -> usize {
        self.params.heap_bytes()
    }

    fn new(m: &Nat<L>) -> Result<Self, Error> {
        Ok(Montgomery { params: MontgomeryParams::new(m, Algorithm::Montgomery)? })
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::Montgomery
    }

    fn modulus(&self) -> &Nat<L> {
        &self.params.m
    }

    /// `x < m·b^k`.
    fn input_bound(&self) -> Bound<L> {
        Bound::Below(self.params.bound())
    }

    /// `out = x·R⁻¹ mod m` for `x < m·b^k`: paper 000, Algorithm 3 (Hensel's b-ary
    /// division), `k(k + 1)` digit multiplications, one branch-free final subtraction.
    fn reduce_raw(&self, out: &mut [L], x: &[L], scratch: &mut Scratch<L>) {
        self.params.reduce_raw(out, x, scratch);
    }

    /// The product in `scratch.product`, reduced there in place.
    fn mul(&self, out: &mut [L], a: &[L], b: &[L], scratch: &mut Scratch<L>) {
        self.params.mul_separated(out, a, b, scratch);
    }

    /// The square in `scratch.product`, reduced there in place.
    fn sqr(&self, out: &mut [L], a: &[L], scratch: &mut Scratch<L>) {
        self.params.sqr_separated(out, a, scratch);
    }

    /// `x·R mod m` for any `x`.
    fn to_residue(&self, x: &Nat<L>) -> Vec<L> {
        self.params.to_residue(x)
    }

    /// `r·R⁻¹ mod m`.
    fn from_residue(&self, r: &[L]) -> Nat<L> {
        self.params.to_standard(r)
    }
}
