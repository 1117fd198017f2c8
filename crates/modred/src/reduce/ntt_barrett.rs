//! Barrett reduction with one linear and one cyclic convolution: paper 001, Algorithm 1
//! (Phatak and Goff's "separation principle"), on the exact transforms of [`crate::ntt`].

use super::{Bound, Reducer, Scratch};
use crate::error::Error;
use crate::kernels;
use crate::limb::Limb;
use crate::nat::add::sub_assign_slices;
use crate::nat::{cmp_slices, normalized_len, Nat};
use crate::ntt::{self, fold_mod_bk1, sub_mod_bk1, transform_len_at_least, Transform};
use crate::registry::Algorithm;
use alloc::vec::Vec;

/// How the second product `q̂·m` is formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecondProduct {
    /// Paper 001's way: a cyclic convolution of length `K ≥ k` (the product mod
    /// `B^K − 1`), the halves separated afterwards.
    Cyclic,
    /// The baseline the paper compares with: a full (linear) product on the same
    /// transform multiplier, with `m`'s transform precomputed too.
    Linear,
}

/// Barrett reduction whose quotient estimate is one linear convolution with the
/// precomputed transform of `μ`, and whose product `q̂·m` is a cyclic convolution modulo
/// `B^K − 1` with the precomputed transform of `m` (paper 001, Algorithm 1, corrected).
///
/// Computes `x mod m` for `0 ≤ x < b^(2k)` (`k` = digits of `m`, `B = b`); output below
/// `m`, standard representation. Precalculation: `μ = b^(2k) div m`, its transform at the
/// length of the first product, and `m`'s transform at the cyclic length
/// `K = `[`transform_len_at_least`]`(k)` (`K = k` when `k` is `2^j` or `3·2^j`).
///
/// Cost (dominant): one forward and one inverse transform at length `≥ 2k + 1` and one
/// forward and one inverse at length `K ≈ k`, against three at length `≈ 2k` for a full
/// multiplication — paper 001's `3N lg N` against `4N lg N` for Barrett with two full
/// products ([`SecondProduct::Linear`], kept for the comparison).
///
/// # The separation, corrected
/// The paper's steps 10–15 subtract `X_u` from `U + L` and then fix the result with a
/// "δ" from the least significant words, with slips in the signs and ranges. Here the
/// same principle is derived directly (proof on [`Reducer::reduce_raw`]): the remainder
/// estimate `r = x − q̂·m` lies in `[0, 3m)`, so it is determined by its residue modulo
/// `B^K − 1` (which the cyclic convolution gives) up to a multiple `j ∈ {0, 1, 2}` of
/// `B^K − 1`, and `j` is read off the least significant digit, which costs one digit
/// product `q̂_0·m_0`.
#[derive(Clone, Debug)]
pub struct NttBarrett<L: Limb> {
    m: Nat<L>,
    /// `μ = b^(2k) div m` (`k + 1` digits, `k + 2` for `m = b^(k−1)`), padded to `k + 2`.
    mu: Vec<L>,
    /// The transform of `μ mod b^k` at length `≥ 2k − 1`: `q1·μ` is split so that the
    /// transform product is only `k × k` digits (see `quotient_product`).
    mu_t: Transform,
    /// `m`'s transform at the cyclic length `K`.
    m_cyclic: Transform,
    /// `m`'s transform for a linear `q̂·m` (only for [`SecondProduct::Linear`]).
    m_linear: Option<Transform>,
}

impl<L: Limb> NttBarrett<L> {
    /// The reducer with the second product formed as `second` says
    /// ([`Reducer::new`] is `SecondProduct::Cyclic`).
    pub fn with_second_product(m: &Nat<L>, second: SecondProduct) -> Result<Self, Error> {
        if m.is_zero() {
            return Err(Error::ZeroModulus);
        }
        let k = m.len();
        // By a Newton reciprocal at large sizes: O(M(k)), not Algorithm D's O(k²).
        let mu = m.floor_b2k_div().ok_or(Error::ZeroModulus)?;
        let mut mu = mu.into_limbs();
        mu.resize(k + 2, L::ZERO);
        let mu_t = Transform::new(&mu[..k], transform_len_at_least(2 * k - 1))?;
        let m_cyclic = Transform::new(m.limbs(), transform_len_at_least(k))?;
        let m_linear = match second {
            SecondProduct::Cyclic => None,
            // q̂ has at most k + 2 digits (q̂ < b^(k+1) in value).
            SecondProduct::Linear => {
                Some(Transform::new(m.limbs(), transform_len_at_least(2 * k - 1))?)
            }
        };
        Ok(NttBarrett { m: m.clone(), mu, mu_t, m_cyclic, m_linear })
    }

    /// The same reducer with the second product formed as `second` says, reusing this
    /// one's precalculation (`μ` and the transforms); only a linear transform of `m` is
    /// added for [`SecondProduct::Linear`].
    pub fn to_second_product(&self, second: SecondProduct) -> Result<Self, Error> {
        let k = self.m.len();
        let m_linear = match second {
            SecondProduct::Cyclic => None,
            SecondProduct::Linear => {
                Some(Transform::new(self.m.limbs(), transform_len_at_least(2 * k - 1))?)
            }
        };
        Ok(NttBarrett { m_linear, ..self.clone() })
    }

    /// `p = q1·μ` (`p`: `2k + 3` digits) for `q1` of at most `k + 1` digits. With
    /// `q1 = q1_hi·b^k + q1_lo` and `μ = μ_hi·b^k + μ_lo` (`q1_lo`, `μ_lo` below `b^k`,
    /// `q1_hi < b`, `μ_hi ≤ b`): `q1·μ = q1_lo·μ_lo + (q1·μ_hi + q1_hi·μ_lo)·b^k`. Only
    /// `q1_lo·μ_lo` goes through the transforms (length `≥ 2k − 1`, which for `k = 2^j`
    /// is `2k`, where `(k+1) × (k+1)` digits would need the next length, `3k`); the rest
    /// are O(k) digit-times-slice products.
    fn quotient_product(&self, p: &mut [L], q1: &[L], buf: &mut Vec<u64>) {
        let k = self.m.len();
        let (q1_lo, q1_hi) = q1.split_at(q1.len().min(k));
        ntt::mul_prepared(&mut p[..2 * k], q1_lo, &self.mu_t, buf)
            .expect("transform length fixed at construction");
        p[2 * k..].fill(L::ZERO);
        let add_mul_at = |p: &mut [L], pos: usize, a: &[L], d: L| {
            if d.is_zero() {
                return;
            }
            let c = kernels::addmul_1(&mut p[pos..pos + a.len()], a, d);
            let carry = kernels::add_1(&mut p[pos + a.len()..], c);
            debug_assert!(!carry);
        };
        add_mul_at(p, k, q1, self.mu[k]);
        add_mul_at(p, k + 1, q1, self.mu[k + 1]);
        if let Some(&h) = q1_hi.first() {
            add_mul_at(p, k, &self.mu[..k], h);
        }
    }

    /// The cyclic length `K`.
    pub fn cyclic_len(&self) -> usize {
        self.m_cyclic.len()
    }

    /// How the second product is formed.
    pub fn second_product(&self) -> SecondProduct {
        if self.m_linear.is_some() {
            SecondProduct::Linear
        } else {
            SecondProduct::Cyclic
        }
    }
}

impl<L: Limb> Reducer<L> for NttBarrett<L> {
    fn heap_bytes(&self) -> usize {
        self.m.heap_bytes()
            + crate::nat::vec_bytes(&self.mu)
            + self.mu_t.heap_bytes()
            + self.m_cyclic.heap_bytes()
            + self.m_linear.as_ref().map_or(0, |t| t.heap_bytes())
    }

    fn new(m: &Nat<L>) -> Result<Self, Error> {
        Self::with_second_product(m, SecondProduct::Cyclic)
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::NttBarrett
    }

    fn modulus(&self) -> &Nat<L> {
        &self.m
    }

    /// `x < b^(2k)`.
    fn input_bound(&self) -> Bound<L> {
        Bound::Below(Nat::power_of_two(2 * self.m.len() as u64 * L::BITS as u64))
    }

    /// `out = x mod m` for `x < b^(2k)` (paper 001, Algorithm 1, corrected).
    ///
    /// # Why it is exact
    /// 1. Quotient (Part 1 of the algorithm, a linear convolution): `q1 = x div b^(k−1)`
    ///    (at most `k + 1` digits), `q̂ = (q1·μ) div b^(k+1)`. As for
    ///    [`Barrett`](super::Barrett) with the full product: `q − 2 ≤ q̂ ≤ q` for
    ///    `q = x div m`, so `r = x − q̂·m` satisfies `0 ≤ r < 3m`.
    /// 2. Second product (Part 2, cyclic): `Z ≡ q̂·m (mod B^K − 1)` from a cyclic
    ///    convolution of length `K` of `q̂ mod (B^K − 1)` (folded to `K` digits) and `m`.
    ///    With `x mod (B^K − 1)` (a fold of `x`, O(k)),
    ///    `D = (x − Z) mod (B^K − 1) ∈ [0, B^K − 1)` and `D ≡ r`.
    /// 3. Separation (Part 3): `r = D + j·(B^K − 1)` for an integer `j`, and
    ///    `0 ≤ r < 3m ≤ 3(B^K − 1)` with `0 ≤ D < B^K − 1` give `j ∈ {0, 1, 2}`.
    ///    Modulo `B`, `B^K − 1 ≡ −1`, so `r_0 ≡ D_0 − j`, where `r_0 = (x_0 − q̂_0·m_0)
    ///    mod B` is known from the lowest digits alone: `j = (D_0 − r_0) mod B`, exact
    ///    because `B > 2`. (This is the paper's `δ` of eq. (29): its step 10–15 version
    ///    compares with `X_u` instead and its ranges need the same care.)
    /// 4. At most two subtractions of `m` take `r < 3m` below `m`; the count and the
    ///    range of `j` are checked by debug assertions.
    fn reduce_raw(&self, out: &mut [L], x: &[L], scratch: &mut Scratch<L>) {
        let m = self.m.limbs();
        let k = m.len();
        debug_assert_eq!(out.len(), k);
        let l = normalized_len(x);
        debug_assert!(l <= 2 * k, "ntt-barrett needs x < b^(2k)");
        let x = &x[..l];
        if l < k || (l == k && kernels::cmp_n(x, m).is_lt()) {
            out.fill(L::ZERO);
            out[..l].copy_from_slice(x);
            return;
        }
        let big_k = self.m_cyclic.len();
        let q1 = &x[k - 1..];
        let plen = 2 * k + 3;
        let need = plen + 4 * big_k + 3 * k + 8;
        if scratch.work.len() < need {
            scratch.work.resize(need, L::ZERO);
        }
        let (p, rest) = scratch.work[..need].split_at_mut(plen);
        // Part 1: the linear convolution q1·μ.
        self.quotient_product(p, q1, &mut scratch.transform);
        let q = &p[k + 1..];
        let q = &q[..normalized_len(q)];
        let q0 = q.first().copied().unwrap_or(L::ZERO);
        let r_len = match &self.m_linear {
            None => big_k + 1,
            Some(_) => k + 1,
        };
        let (r, rest) = rest.split_at_mut(r_len);
        if let Some(m_linear) = &self.m_linear {
            // Baseline: r = (x − q̂·m) mod b^(k+1) from the full product, with q̂ split
            // as q1 is (q̂_lo·m through the transforms at length ≥ 2k − 1, q̂_hi·m·b^k by
            // digit-times-slice products), so both forms use the same transform lengths.
            let (qm, _) = rest.split_at_mut(2 * k + 3);
            let (q_lo, q_hi) = q.split_at(q.len().min(k));
            ntt::mul_prepared(&mut qm[..2 * k], q_lo, m_linear, &mut scratch.transform)
                .expect("transform length fixed at construction");
            qm[2 * k..].fill(L::ZERO);
            for (i, &d) in q_hi.iter().enumerate() {
                let c = kernels::addmul_1(&mut qm[k + i..2 * k + i], m, d);
                let carry = kernels::add_1(&mut qm[2 * k + i..], c);
                debug_assert!(!carry);
            }
            let xl = l.min(k + 1);
            r[..xl].copy_from_slice(&x[..xl]);
            r[xl..].fill(L::ZERO);
            // Modulo b^(k+1): r < 3m < b^(k+1), so the final borrow is dropped.
            let ql = qm.len().min(k + 1);
            let _ = sub_assign_slices(r, &qm[..ql]);
        } else {
            let (qf, rest) = rest.split_at_mut(big_k);
            let (z, rest) = rest.split_at_mut(big_k);
            let (xf, _) = rest.split_at_mut(big_k);
            // Part 2: Z = q̂·m mod (B^K − 1), a cyclic convolution.
            fold_mod_bk1(qf, q);
            ntt::cyclic_mul_prepared(z, qf, &self.m_cyclic, &mut scratch.transform)
                .expect("transform length fixed at construction");
            // Part 3: D = (x − Z) mod (B^K − 1), then r = D + j(B^K − 1).
            fold_mod_bk1(xf, x);
            sub_mod_bk1(&mut r[..big_k], xf, z);
            let r0 = x[0].wrapping_sub(q0.wrapping_mul(m[0]));
            let j = r[0].wrapping_sub(r0);
            debug_assert!(j.to_u64() <= 2, "ntt-barrett: separation j = {j:?}");
            r[big_k] = j;
            let br = kernels::sub_1(r, j);
            debug_assert!(!br);
        }
        let mut corrections = 0u32;
        while cmp_slices(r, m).is_ge() {
            let br = sub_assign_slices(r, m);
            debug_assert!(!br);
            corrections += 1;
        }
        debug_assert!(corrections <= 2, "ntt-barrett: {corrections} corrections");
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
