//! Barrett reduction: paper 000, Algorithm 2 (Barrett's original choice t = k + 1, with
//! the truncated products of HAC 14.42 / Note 14.44).

use super::{Bound, Reducer, Scratch};
use crate::error::Error;
use crate::kernels;
use crate::limb::Limb;
use crate::nat::add::add_assign_slices;
use crate::nat::{normalized_len, Nat};
use crate::registry::Algorithm;
use alloc::vec;
use alloc::vec::Vec;

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
///
/// With the native digit types (not the op-counting one, which keeps the paper's form and
/// counts) the same `q̂` and `r̂` come from rows written without zeroing their buffers
/// first, and `μ`'s top digit `μ_k` takes one row of its own: for a modulus whose top
/// digit is at least `b/2` (every modulus of a whole number of digits' bits) `μ_k = 1`,
/// and that row is an addition of `q1` shifted by `k` digits, `k + 1` digit products fewer
/// (`Barrett::reduce_unzeroed`).
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
    /// Whether [`Barrett::reduce_unzeroed`] runs: native digits, the truncated product and
    /// `μ < b^(k+1)`.
    unzeroed: bool,
}

impl<L: Limb> Barrett<L> {
    /// `μ mod b^(k+1)` (`k + 1` digits), and whether `μ = b^(k+1)`: what the fixed-size
    /// Barrett takes instead of dividing again.
    pub(crate) fn mu(&self) -> (&[L], bool) {
        (&self.mu_low, self.mu_top)
    }

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

    /// [`Reducer::reduce_raw`] for the native digits (`unzeroed`), for `x` normalized, of
    /// `l` digits, `k < l ≤ 2k`: the same `q̂`, `r̂` and corrections, with
    /// `q1·μ = q1·(μ mod b^k) + q1·μ_k·b^k` (the last term an addition when `μ_k = 1`).
    ///
    /// No buffer is zeroed: row `i` of `q1·(μ mod b^k)` covers positions `k − 1` (or
    /// `i − 1` when higher) to `i + k − 1` and writes its carry to `i + k`, so each row
    /// reads only digits the rows before it wrote, the first row writing rather than
    /// adding (a zero digit of `q1` writes its zero carry and nothing else); row 0 of
    /// `q̂·m` writes `k + 1` digits and every later row ends at position `k`.
    fn reduce_unzeroed(&self, out: &mut [L], x: &[L], scratch: &mut Scratch<L>) {
        let k = self.m.len();
        let l = x.len();
        let m = self.m.limbs();
        let mu = &self.mu_low[..k];
        let low = k - 1;
        debug_assert!(self.unzeroed && self.low == low && k < l && l <= 2 * k);
        // p[s − low] holds position s of q1·μ, for s from k − 1 to l + 1.
        let plen = l + 3 - k;
        let need = plen + k + 1;
        if scratch.work.len() < need {
            scratch.work.resize(need, L::ZERO);
        }
        let (p, qm) = scratch.work[..need].split_at_mut(plen);
        let q1 = &x[low..];
        for (i, &d) in q1.iter().enumerate() {
            // Row i: q1_i·μ_j for j from j0 = max(k − 1 − i, 0) to k − 1, from p[start].
            let j0 = low.saturating_sub(i);
            let start = i + j0 - low;
            let end = i + k - low;
            p[end] = if i == 0 {
                kernels::mul_1(&mut p[..end], &mu[j0..], d)
            } else if d.is_zero() {
                L::ZERO
            } else {
                kernels::addmul_1(&mut p[start..end], &mu[j0..], d)
            };
        }
        // + q1·μ_k·b^k: positions k to l, the carry into l + 1 (no row reached it).
        let mu_k = self.mu_low[k];
        p[plen - 1] = if mu_k == L::ONE {
            let carry = kernels::add_assign_n(&mut p[1..plen - 1], q1);
            if carry {
                L::ONE
            } else {
                L::ZERO
            }
        } else {
            kernels::addmul_1(&mut p[1..plen - 1], q1, mu_k)
        };
        let q = &p[2..];
        // qm = (q̂·m) mod b^(k+1).
        qm[k] = kernels::mul_1(&mut qm[..k], m, q[0]);
        for (i, &d) in q.iter().enumerate().take(k + 1).skip(1) {
            if !d.is_zero() {
                kernels::addmul_1(&mut qm[i..], &m[..k + 1 - i], d);
            }
        }
        // (top, out) = (x mod b^(k+1) − qm) mod b^(k+1).
        let borrow = kernels::sub_n(out, &x[..k], &qm[..k]);
        let mut top = x[k].wrapping_sub(qm[k]).wrapping_sub(if borrow { L::ONE } else { L::ZERO });
        let mut corrections = 0u32;
        while !top.is_zero() || kernels::cmp_n(out, m).is_ge() {
            let borrow = kernels::sub_assign_n(out, m);
            top = top.wrapping_sub(if borrow { L::ONE } else { L::ZERO });
            corrections += 1;
        }
        debug_assert!(corrections <= self.max_corrections, "Barrett: {corrections} corrections");
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
    fn heap_bytes(&self) -> usize {
        self.m.heap_bytes() + crate::nat::vec_bytes(&self.mu_low)
    }

    fn new(m: &Nat<L>) -> Result<Self, Error> {
        if m.is_zero() {
            return Err(Error::ZeroModulus);
        }
        let k = m.len();
        let mu = m.floor_b2k_div().ok_or(Error::ZeroModulus)?;
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
        let unzeroed = !L::PAPER_FORM && truncate && !mu_top;
        Ok(Barrett { m: m.clone(), mu_low, mu_top, low, max_corrections, unzeroed })
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
        if self.unzeroed && l > k {
            return self.reduce_unzeroed(out, x, scratch);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limb::Counted;
    use crate::reduce::Classical;
    use modred_testkit::SplitMix64;

    /// `reduce_raw` through the unzeroed path (native digits) against the paper's form
    /// (the op-counting digit, same `q̂`) and the classical reduction.
    fn check(m: &Nat<u64>, x: &[u64]) {
        let fast = Barrett::new(m).unwrap();
        let paper = Barrett::<Counted<u64>>::new(&Nat::from_limbs(
            &m.limbs().iter().map(|&d| Counted(d)).collect::<Vec<_>>(),
        ))
        .unwrap();
        let classical = Classical::new(m).unwrap();
        let k = m.len();
        let mut scratch = Scratch::new();
        let mut got = vec![0u64; k];
        fast.reduce_raw(&mut got, x, &mut scratch);
        let mut want = vec![0u64; k];
        classical.reduce_raw(&mut want, x, &mut Scratch::new());
        assert_eq!(got, want, "m = {m:?}, x = {x:?}");
        let xc: Vec<_> = x.iter().map(|&d| Counted(d)).collect();
        let mut paper_out = vec![Counted(0u64); k];
        paper.reduce_raw(&mut paper_out, &xc, &mut Scratch::new());
        assert_eq!(paper_out.iter().map(|d| d.0).collect::<Vec<_>>(), want);
    }

    #[test]
    fn unzeroed_path_is_taken_for_native_digits_only() {
        let mut rng = SplitMix64::new(71);
        for k in 1..=9usize {
            let m = Nat::<u64>::from_vec(rng.exact_bits(64 * k as u64));
            assert!(Barrett::new(&m).unwrap().unzeroed);
            let counted = m.limbs().iter().map(|&d| Counted(d)).collect::<Vec<_>>();
            assert!(!Barrett::<Counted<u64>>::new(&Nat::from_limbs(&counted)).unwrap().unzeroed);
            // m = b^(k−1): μ = b^(k+1), the paper's form.
            let m = Nat::<u64>::power_of_two(64 * (k as u64 - 1));
            assert!(!Barrett::new(&m).unwrap().unzeroed);
        }
    }

    #[test]
    fn unzeroed_path_matches_paper_form_and_classical() {
        let mut rng = SplitMix64::new(72);
        for k in [1usize, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 64] {
            let bits = 64 * k as u64;
            let b_k = Nat::<u64>::power_of_two(bits);
            let mut moduli: Vec<Nat<u64>> =
                (0..4).map(|_| Nat::from_vec(rng.exact_bits(bits))).collect();
            moduli.push(&b_k - &Nat::from_limbs(&[1u64])); // b^k − 1: μ = b^k + 1
            moduli.push(&Nat::power_of_two(bits - 1) + &Nat::from_limbs(&[1u64]));
            // μ_k > 1: top digits below b/2, down to one bit; b^k/2 (μ = 2·b^k).
            moduli.push(Nat::from_vec(rng.exact_bits(bits - 1)));
            moduli.push(Nat::from_vec(rng.exact_bits(bits - 40)));
            moduli.push(Nat::from_vec(rng.exact_bits(bits - 63)));
            moduli.push(Nat::power_of_two(bits - 1));
            for m in &moduli {
                let all_ones = vec![u64::MAX; 2 * k];
                let m2 = (m * m).limbs().to_vec();
                let mut xs = vec![all_ones, m2, m.limbs().to_vec()];
                for len in [k + 1, 2 * k - 1, 2 * k] {
                    for _ in 0..20 {
                        let mut x: Vec<u64> = (0..len).map(|_| rng.next_u64()).collect();
                        // Zero digits, including some of q1's and x's top.
                        for d in x.iter_mut() {
                            if rng.next_u64() % 5 == 0 {
                                *d = 0;
                            }
                        }
                        xs.push(x);
                    }
                }
                for x in &xs {
                    if x.len() <= 2 * k {
                        check(m, x);
                    }
                }
            }
        }
    }
}
