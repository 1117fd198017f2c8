//! Montgomery multiplication with the reduction interleaved in the product: the
//! Coarsely Integrated Operand Scanning (CIOS) method of Koç, Acar and Kaliski,
//! "Analyzing and comparing Montgomery multiplication algorithms" (IEEE Micro, 1996).
//!
//! None of the papers modred implements gives CIOS. Paper 003 [docs/papers.md] §2.3
//! describes interleaving only in standard representation (eq. 2.4: Horner's rule from
//! the most significant digit of `x`, reducing `(…)·b + x_i·y` modulo `p` after each
//! digit) and then keeps to the separated multiply-then-reduce method; its §4 and
//! Algorithm 2 give the separated word-level Montgomery reduction with `p'_0 = −p_0⁻¹ mod
//! b` (after Dussé and Kaliski). CIOS interleaves that reduction's per-digit step with the
//! product, from the least significant digit of `a`.

use super::montgomery::{conditional_subtract, MontgomeryParams};
use super::{zeroed, Bound, Reducer, Scratch};
use crate::ct;
use crate::error::Error;
use crate::limb::Limb;
use crate::nat::Nat;
use crate::registry::Algorithm;
use alloc::vec::Vec;

/// Interleaved Montgomery multiplication (CIOS, Koç–Acar–Kaliski; module docs).
///
/// Same representation as [`super::Montgomery`] (`x·R mod m`, `R = b^k`, odd moduli). For
/// residues `a, b < m`, [`Reducer::mul`] computes `a·b·R⁻¹ mod m` (output below `m`) one
/// digit of `a` at a time:
///
/// ```text
/// t = 0
/// for i in 0..k:  t += a_i·b;  u = t_0·m'_0 mod b;  t = (t + u·m)/b
/// if t ≥ m: t −= m
/// ```
///
/// Invariant: `t < 2m` after each step (`(2m + (b−1)m + (b−1)m)/b = 2m`), so `t` needs
/// `k + 1` digits and one digit more before the division. The division by `b` moves a
/// window one digit up a `2k + 2`-digit buffer instead of moving the digits. Exactly
/// `2k² + k` digit multiplications; no division; the final subtraction is branch-free.
/// Squaring is the same multiplication with `b = a`.
///
/// [`Reducer::reduce_raw`] is the separated reduction of [`super::Montgomery`] (the same
/// code): `x < m·b^k`.
#[derive(Clone, Debug)]
pub struct MontgomeryInterleaved<L: Limb> {
    params: MontgomeryParams<L>,
}

impl<L: Limb> Reducer<L> for MontgomeryInterleaved<L> {
    fn heap_bytes(&self) -> usize {
        self.params.heap_bytes()
    }

    fn new(m: &Nat<L>) -> Result<Self, Error> {
        Ok(MontgomeryInterleaved {
            params: MontgomeryParams::new(m, Algorithm::MontgomeryInterleaved)?,
        })
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::MontgomeryInterleaved
    }

    fn modulus(&self) -> &Nat<L> {
        &self.params.m
    }

    /// `x < m·b^k`.
    fn input_bound(&self) -> Bound<L> {
        Bound::Below(self.params.bound())
    }

    /// `out = x·R⁻¹ mod m` for `x < m·b^k` (the separated reduction).
    fn reduce_raw(&self, out: &mut [L], x: &[L], scratch: &mut Scratch<L>) {
        self.params.reduce_raw(out, x, scratch);
    }

    /// `out = a·b·R⁻¹ mod m` by CIOS, for residues `a, b < m`.
    fn mul(&self, out: &mut [L], a: &[L], b: &[L], scratch: &mut Scratch<L>) {
        let m = self.params.m.limbs();
        let k = m.len();
        debug_assert!(a.len() == k && b.len() == k && out.len() == k);
        let t = zeroed(&mut scratch.work, 2 * k + 2);
        ct::cios(t, a, b, m, self.params.m0inv);
        // t·b^k sits in t[k..2k + 1], below 2m.
        let top = !t[2 * k].is_zero();
        conditional_subtract(out, &t[k..2 * k], top, m);
    }

    /// `mul(a, a)`.
    fn sqr(&self, out: &mut [L], a: &[L], scratch: &mut Scratch<L>) {
        self.mul(out, a, a, scratch);
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
