//! Classical reduction: paper 000, Algorithm 1 (Knuth's Algorithm D without the quotient).

use super::{zeroed, Bound, Reducer, Scratch};
use crate::algorithm::Algorithm;
use crate::error::Error;
use crate::limb::Limb;
use crate::nat::div::rem_normalized;
use crate::nat::Nat;

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
#[derive(Clone, Debug)]
pub struct Classical<L: Limb> {
    m: Nat<L>,
    /// `m·2^shift`, with its top bit set.
    normalized: Vec<L>,
    shift: u32,
}

impl<L: Limb> Reducer<L> for Classical<L> {
    fn new(m: &Nat<L>) -> Result<Self, Error> {
        if m.is_zero() {
            return Err(Error::ZeroModulus);
        }
        let shift = m.limbs()[m.len() - 1].leading_zeros();
        let normalized = m.shl(shift as u64).into_limbs();
        debug_assert_eq!(normalized.len(), m.len());
        Ok(Classical { m: m.clone(), normalized, shift })
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
        // Normalize: x·2^s needs one more digit.
        let work = zeroed(&mut scratch.work, l + 1);
        let top = crate::kernels::shl_bits(&mut work[..l], &x[..l], self.shift);
        work[l] = top;
        // Without a carry out of the shift (always for x < m², and for s = 0) the extra
        // digit would cost a step (a division and k + 2 multiplications) for nothing.
        let len = if top.is_zero() { l } else { l + 1 };
        rem_normalized(&mut work[..len], &self.normalized, None);
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
