//! Barrett reduction: paper 000, Algorithm 2 (Barrett's original choice t = k + 1, with
//! the truncated products of HAC 14.42 / Note 14.44).

use super::{Bound, Reducer, Scratch};
use crate::algorithm::Algorithm;
use crate::error::Error;
use crate::kernels;
use crate::limb::Limb;
use crate::nat::add::add_assign_slices;
use crate::nat::{normalized_len, Nat};

/// Barrett reduction (paper 000, Algorithm 2, `t = k + 1`).
///
/// Computes `x mod m` for `0 ≤ x < b^(2k)` (`k` = digits of `m`); the output is below `m`,
/// in the standard representation. Precalculation: `μ = b^(2k) div m`.
///
/// The quotient estimate is `q̂ = ((x div b^(k−1))·μ) div b^(k+1)`, where of the product
/// only the digit products `q1_i·μ_j` with `i + j ≥ k − 1` are computed (the paper's
/// "digits at position t − 1 and t": the lower ones only feed a carry). The remainder
/// estimate `r̂ = (x mod b^(k+1) − (q̂·m) mod b^(k+1)) mod b^(k+1)` needs only the digit
/// products below position `k + 1`. At most three subtractions of `m` follow (proof on
/// [`Barrett::reduce_raw`]).
///
/// Cost for a 2k-digit argument: `(k+1)² − k(k−1)/2` multiplications for `q̂` and
/// `k(k+3)/2` for `r̂`, in all `k² + 4k + 1` (paper 000, Table 1: `k(k + 4)`); no division.
/// Zero digits of `x div b^(k−1)` and of `q̂` are skipped, so the time falls with the
/// argument's length and with zero quotient digits, as paper 000 §4 describes.
///
/// `μ` has `k + 1` digits, except for `m = b^(k−1)`, where `μ = b^(k+1)` has `k + 2`: it is
/// kept as `μ_low + top·b^(k+1)` with `top ∈ {0, 1}`, and the `top` part of the product is
/// an addition of `q1` shifted by `k + 1` digits, not a multiplication.
#[derive(Clone, Debug)]
pub struct Barrett<L: Limb> {
    m: Nat<L>,
    /// `μ mod b^(k+1)`, exactly `k + 1` digits.
    mu_low: Vec<L>,
    /// Whether `μ = b^(k+1)` (then `mu_low` is zero and `m = b^(k−1)`).
    mu_top: bool,
    /// The lowest position of `q1·μ` computed: `k − 1` (the truncated product) when
    /// `k ≤ b + 1`, else 0 (the full product; see the proof on `reduce_raw`).
    low: usize,
    /// The most subtractions of `m` the proof allows: 3 truncated, 2 full.
    max_corrections: u32,
}

impl<L: Limb> Barrett<L> {
    /// `b^(2k)`, the bound on `x`.
    fn bound(&self) -> Nat<L> {
        Nat::power_of_two(2 * self.m.len() as u64 * L::BITS as u64)
    }

    /// The digits of the quotient estimate `q̂` for a normalized `x` of `l` digits,
    /// `k ≤ l ≤ 2k`, computed in `p` (at least `l + 2 − low` digits, zeroed). Returns the
    /// `l − k + 1` digits of `q̂` (a suffix of `p`).
    fn estimate_quotient<'a>(&self, x: &[L], p: &'a mut [L]) -> &'a [L] {
        let k = self.m.len();
        let l = x.len();
        let low = self.low;
        debug_assert!(k <= l && l <= 2 * k && p.len() == l + 2 - low);
        // q1 = x div b^(k−1): l − k + 1 digits.
        let q1 = &x[k - 1..];
        // p[s − low] holds position s of q1·μ; row i adds q1_i·μ_j for j ≥ low − i.
        for (i, &d) in q1.iter().enumerate() {
            if d.is_zero() {
                continue;
            }
            let j0 = low.saturating_sub(i);
            let start = i + j0 - low;
            let n = k + 1 - j0;
            let c = kernels::addmul_1(&mut p[start..start + n], &self.mu_low[j0..], d);
            // Position i + k + 1: no earlier row reached it (row i' ends at i' + k + 1).
            p[start + n] = c;
        }
        if self.mu_top {
            let c = add_assign_slices(&mut p[k + 1 - low..], q1);
            debug_assert!(!c);
        }
        &p[k + 1 - low..]
    }

    /// The quotient estimate `q̂` of `x div m` that [`Reducer::reduce_raw`] uses, for
    /// studying its error (`x div m − q̂` is 0, 1, 2 or, rarely and only through the
    /// truncated product, 3). An error when `x ≥ b^(2k)`.
    pub fn quotient_estimate(&self, x: &Nat<L>) -> Result<Nat<L>, Error> {
        if !self.input_bound().admits(x) {
            return Err(self.out_of_range());
        }
        let k = self.m.len();
        if x.len() < k {
            return Ok(Nat::zero());
        }
        let mut p = vec![L::ZERO; x.len() + 2 - self.low];
        Ok(Nat::from_limbs(self.estimate_quotient(x.limbs(), &mut p)))
    }
}

impl<L: Limb> Reducer<L> for Barrett<L> {
    fn new(m: &Nat<L>) -> Result<Self, Error> {
        if m.is_zero() {
            return Err(Error::ZeroModulus);
        }
        let k = m.len();
        let mu = &Nat::power_of_two(2 * k as u64 * L::BITS as u64) / m;
        // m ≥ b^(k−1) ⇒ μ ≤ b^(k+1), with equality exactly when m = b^(k−1).
        let mu_top = mu.len() == k + 2;
        let mut mu_low = mu.into_limbs();
        mu_low.resize(k + 2, L::ZERO);
        debug_assert!(!mu_top || mu_low[..k + 1].iter().all(|d| d.is_zero()));
        mu_low.truncate(k + 1);
        // Truncation is safe when k − 1 ≤ b (see reduce_raw): always for u16 and wider
        // digits in practice, up to k = 257 for u8.
        let truncate = (k as u128) <= (1u128 << L::BITS) + 1;
        let low = if truncate { k - 1 } else { 0 };
        let max_corrections = if truncate && k > 1 { 3 } else { 2 };
        Ok(Barrett { m: m.clone(), mu_low, mu_top, low, max_corrections })
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::Barrett
    }

    fn modulus(&self) -> &Nat<L> {
        &self.m
    }

    /// `x < b^(2k)`.
    fn input_bound(&self) -> Bound<L> {
        Bound::Below(self.bound())
    }

    fn bound_formula(&self) -> &'static str {
        "b^(2k)"
    }

    /// `out = x mod m` for `x < b^(2k)` (paper 000, Algorithm 2).
    ///
    /// # Why at most three subtractions of `m`
    /// Let `q = x div m`, `q1 = x div b^(k−1)` and `Q = (q1·μ) div b^(k+1)` (the exact
    /// estimate).
    /// 1. `Q ≤ q`: `q1·μ ≤ (x/b^(k−1))·(b^(2k)/m) = x·b^(k+1)/m`.
    /// 2. `Q ≥ q − 2`: `q1 > x/b^(k−1) − 1` and `μ > b^(2k)/m − 1`, so
    ///    `q1·μ > x·b^(k+1)/m − x/b^(k−1) − b^(2k)/m ≥ x·b^(k+1)/m − 2·b^(k+1)` because
    ///    `x < b^(2k)` and `m ≥ b^(k−1)`; thus `q1·μ/b^(k+1) > x/m − 2 ≥ q − 2`.
    /// 3. Truncation: the omitted digit products `q1_i·μ_j`, `i + j ≤ k − 2`, number at
    ///    most `s + 1` at position `s`, so their sum is
    ///    `S ≤ Σ_{s ≤ k−2} (s+1)(b−1)²·b^s ≤ (k−1)(b−1)(b^(k−1) − 1) < (k−1)·b^k`.
    ///    When `k − 1 ≤ b`, `S < b^(k+1)`, so dropping it lowers the quotient by at most
    ///    one: `q − 3 ≤ q̂ ≤ q`. (The paper's condition `b > l − k` bounds the number of
    ///    terms per position by `l − k + 1` instead; either suffices.) When `k − 1 > b`
    ///    (only `u8` digits beyond 257 digits) the full product is computed: `q̂ = Q`.
    /// 4. So `0 ≤ x − q̂·m < 4m < 4·b^k ≤ b^(k+1)` (b ≥ 4): computing `r̂` modulo
    ///    `b^(k+1)` loses nothing, and at most 3 (full product: 2) subtractions of `m`
    ///    follow. The count is checked by a debug assertion.
    fn reduce_raw(&self, out: &mut [L], x: &[L], scratch: &mut Scratch<L>) {
        let k = self.m.len();
        let m = self.m.limbs();
        debug_assert_eq!(out.len(), k);
        let l = normalized_len(x);
        debug_assert!(l <= 2 * k, "Barrett needs x < b^(2k)");
        let x = &x[..l];
        if l < k || (l == k && kernels::cmp_n(x, m).is_lt()) {
            out.fill(L::ZERO);
            out[..l].copy_from_slice(x);
            return;
        }
        let plen = l + 2 - self.low;
        let need = plen + 2 * (k + 1);
        if scratch.work.len() < need {
            scratch.work.resize(need, L::ZERO);
        }
        let (p, rest) = scratch.work[..need].split_at_mut(plen);
        let (qm, r) = rest.split_at_mut(k + 1);
        p.fill(L::ZERO);
        qm.fill(L::ZERO);
        let q = self.estimate_quotient(x, p);
        // qm = (q̂·m) mod b^(k+1): row i needs m_j for i + j ≤ k.
        for (i, &d) in q.iter().enumerate().take(k + 1) {
            if d.is_zero() {
                continue;
            }
            let n = k.min(k + 1 - i);
            let c = kernels::addmul_1(&mut qm[i..i + n], &m[..n], d);
            if i + n <= k {
                // Only row 0 ends below position k + 1, and it comes first.
                qm[i + n] = c;
            }
        }
        // r = (x mod b^(k+1) − qm) mod b^(k+1).
        let xl = l.min(k + 1);
        r[..xl].copy_from_slice(&x[..xl]);
        r[xl..].fill(L::ZERO);
        kernels::sub_assign_n(r, qm);
        let mut corrections = 0u32;
        while !r[k].is_zero() || kernels::cmp_n(&r[..k], m).is_ge() {
            let borrow = kernels::sub_assign_n(&mut r[..k], m);
            r[k] = r[k].wrapping_sub(if borrow { L::ONE } else { L::ZERO });
            corrections += 1;
        }
        debug_assert!(corrections <= self.max_corrections, "Barrett: {corrections} corrections");
        out.copy_from_slice(&r[..k]);
    }

    /// Any `x`: `reduce_raw` below `b^(2k)`, division with remainder above.
    fn to_residue(&self, x: &Nat<L>) -> Vec<L> {
        super::standard_residue_below_b2k(self, x)
    }

    fn from_residue(&self, r: &[L]) -> Nat<L> {
        Nat::from_limbs(r)
    }
}
