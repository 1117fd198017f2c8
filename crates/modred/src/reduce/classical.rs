//! Classical reduction: paper 000, Algorithm 1 (Knuth's Algorithm D without the quotient).

use super::{zeroed, Bound, Reducer, Scratch};
use crate::error::Error;
use crate::limb::Limb;
use crate::nat::div::{reciprocal_3by2, rem_normalized, rem_normalized_pi1};
use crate::nat::Nat;
use crate::registry::Algorithm;
use alloc::vec;
use alloc::vec::Vec;

/// Classical reduction (paper 000, Algorithm 1).
///
/// Computes `x mod m` for **any** `x ≥ 0`; the output is below `m`, in the standard
/// representation. Precalculation: the normalization shift `s` making the top bit of `m`
/// set (`m* = m·2^s`, so `m*_{k−1} ≥ b/2`); `x` is shifted by the same `s`, reduced modulo
/// `m*` digit by digit (one quotient digit per step, estimated from three digits of `x`
/// by two of `m*`, at most one in error), and the remainder shifted back.
///
/// Cost for a 2k-digit argument: `k` digit divisions and about `k(k + 2)` digit
/// multiplications (paper 000, Table 1: `k(k + 2.5)`).
///
/// With the native digit types (not the op-counting one, which keeps the paper's form
/// and counts) two speed-ups leave the quotient digits and the result unchanged:
///
/// - a one-digit modulus reduces by Horner's rule with one two-by-one digit division per
///   digit of `x` (x86-64's `div` instruction for `u64` digits), on `m` itself: no
///   normalization, no scratch, no multiplication — the `k = 1` case of Algorithm 1,
///   where the estimate from `x_i b + x_{i−1}` by `m_0` is exact;
/// - from two digits on, each quotient digit is the exact 3-by-2 quotient of the three
///   leading digits by `m*`'s two leading digits, from a reciprocal precomputed with the
///   shift (Möller and Granlund 2011): two digit multiplications instead of a digit
///   division and the estimate's test, and no division on the chain of dependent
///   operations from one step to the next.
#[derive(Clone, Debug)]
pub struct Classical<L: Limb> {
    m: Nat<L>,
    /// `m·2^shift`, with its top bit set.
    normalized: Vec<L>,
    shift: u32,
    /// `⌊(b³ − 1)/(m*_{k−1} b + m*_{k−2})⌋ − b` when the digit type divides by
    /// reciprocals (`LimbKernels::DIVIDE_BY_RECIPROCAL`) and `k ≥ 2`; else unused.
    reciprocal: L,
}

impl<L: Limb> Reducer<L> for Classical<L> {
    fn heap_bytes(&self) -> usize {
        self.m.heap_bytes() + crate::nat::vec_bytes(&self.normalized)
    }

    fn new(m: &Nat<L>) -> Result<Self, Error> {
        if m.is_zero() {
            return Err(Error::ZeroModulus);
        }
        let shift = m.limbs()[m.len() - 1].leading_zeros();
        let normalized = m.shl(shift as u64).into_limbs();
        debug_assert_eq!(normalized.len(), m.len());
        let k = normalized.len();
        let reciprocal = if L::DIVIDE_BY_RECIPROCAL && k >= 2 {
            reciprocal_3by2(normalized[k - 1], normalized[k - 2])
        } else {
            L::ZERO
        };
        Ok(Classical { m: m.clone(), normalized, shift, reciprocal })
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::Classical
    }

    fn modulus(&self) -> &Nat<L> {
        &self.m
    }

    fn input_bound(&self) -> Bound<L> {
        Bound::Unbounded
    }

    /// `out = x mod m` for any `x`.
    fn reduce_raw(&self, out: &mut [L], x: &[L], scratch: &mut Scratch<L>) {
        let k = self.normalized.len();
        let l = crate::nat::normalized_len(x);
        if l < k || (l == k && crate::kernels::cmp_n(&x[..k], self.m.limbs()).is_lt()) {
            // Already reduced: no step of the loop would run.
            out.fill(L::ZERO);
            out[..l].copy_from_slice(&x[..l]);
            return;
        }
        if L::DIVIDE_BY_RECIPROCAL && k == 1 {
            // Horner's rule: r = (r·b + x_i) mod m from the top digit down, r < m all along,
            // so each step is one two-by-one division by m itself.
            let m = self.m.limbs()[0];
            let (mut r, top) = if x[l - 1] < m { (x[l - 1], l - 1) } else { (L::ZERO, l) };
            for &d in x[..top].iter().rev() {
                r = L::div_wide(r, d, m).1;
            }
            out[0] = r;
            return;
        }
        // Normalize: x·2^s needs one more digit.
        let work = zeroed(&mut scratch.work, l + 1);
        let top = crate::kernels::shl_bits(&mut work[..l], &x[..l], self.shift);
        work[l] = top;
        // Without a carry out of the shift (always for x < m², and for s = 0) the extra
        // digit would cost a step (a division and k + 2 multiplications) for nothing.
        let len = if top.is_zero() { l } else { l + 1 };
        if L::DIVIDE_BY_RECIPROCAL {
            rem_normalized_pi1(&mut work[..len], &self.normalized, self.reciprocal, None);
        } else {
            rem_normalized(&mut work[..len], &self.normalized, None);
        }
        // Unnormalize the remainder.
        crate::kernels::shr_bits(out, &work[..k], self.shift);
    }

    fn to_residue(&self, x: &Nat<L>) -> Vec<L> {
        let mut out = vec![L::ZERO; self.width()];
        self.reduce_raw(&mut out, x.limbs(), &mut Scratch::new());
        out
    }

    fn from_residue(&self, r: &[L]) -> Nat<L> {
        Nat::from_limbs(r)
    }
}
