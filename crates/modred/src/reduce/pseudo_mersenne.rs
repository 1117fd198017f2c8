//! Reduction modulo a pseudo-Mersenne number `p = 2^N − c` with small `c`: paper 003,
//! Algorithm 3 (Crandall's reduction, any `c`) and Algorithm 4 (its optimised form for a
//! one-digit `c` and a double-length argument), extended to `N` not a multiple of the
//! digit size (2^255 − 19, 2^130 − 5, 2^521 − 1 with 64-bit digits).
//!
//! # Applicability
//! `m` is of the form when, with `N = bits(m)` and `c = 2^N − m`,
//! `1 ≤ c` and `2·bits(c) < N` (equivalently `c < 2^⌊(N−1)/2⌋`). Every `m` is
//! `2^N − c` with `c < 2^(N−1)`; the bound on `c` is what makes the method pay and keeps
//! its correction steps bounded: each fold `q·2^N + r ↦ q·c + r` shrinks `q` by at least
//! `N/2` bits, and `c² + c < 2^(N−1) < p`, which the one-subtraction bound below needs.
//!
//! # Which algorithm
//! - `c < b` (one digit): the two-fold reduction below (Algorithm 4, and its form for
//!   `N ≠ n·w`), input `x < 2^(2N)` (so every product of two residues, `< p²`).
//! - `c ≥ b`: Algorithm 3 with `b^n` replaced by `2^N`, any input.
//!
//! # The fold for any `N` (Algorithm 4 generalised), and why one subtraction suffices
//! Let `x < 2^(2N)`, `k = ⌈N/w⌉` digits, `s = N − (k−1)w ∈ [1, w]` bits of `N` in the top
//! digit. Write `x = q·2^N + r` with `r < 2^N`, so `q < 2^N`.
//! 1. `t = r + q·c < 2^N(c + 1) ≤ 2^N·b` fits in `k + 1` digits (an `addmul_1` into `r`).
//! 2. `t = q₂·2^N + r₂` with `q₂ ≤ c < b` (one digit, read off digits `k−1, k` of `t`);
//!    `t₂ = r₂ + q₂·c ≤ 2^N − 1 + c²`.
//! 3. If `t₂ ≥ 2^N` then `t₂ ≥ p` and `t₂ − p = t₂ − 2^N + c < c² + c < p`; if
//!    `t₂ < 2^N` then `t₂ − p < c < p`. Either way one conditional subtraction of `p`
//!    gives `t₂ mod p`. For `s = w` (`N = n·w`) this is Algorithm 4 exactly, with its
//!    carry `C ≤ 1` and its `while` loop running at most once; for `s < w` the sum never
//!    leaves `k` digits because `2^N + c² < 2^(kw)`.
//!
//! Cost: `k + 1` digit multiplications (`k` for `q·c`, one for `q₂·c`) and no division,
//! so a modular multiplication costs about the product alone (paper 003 §5).

use super::{zeroed, Bound, Reducer, Scratch};
use crate::error::Error;
use crate::kernels;
use crate::limb::Limb;
use crate::nat::Nat;
use crate::registry::Algorithm;
use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

/// `p = 2^N − c` if `p` has the pseudo-Mersenne form (see the module docs): `(N, c)`.
pub fn pseudo_mersenne_form<L: Limb>(m: &Nat<L>) -> Option<(u64, Nat<L>)> {
    let n = m.bits();
    if n < 3 {
        return None;
    }
    // 0 < c < 2^h with h = ⌊(n − 1)/2⌋ sets bits h to n − 1 of m: a few of the top ones
    // first, which refuse most moduli without the subtraction.
    let h = (n - 1) / 2;
    if (h.max(n.saturating_sub(16))..n).any(|i| !m.bit(i)) {
        return None;
    }
    let c = Nat::power_of_two(n).checked_sub(m)?;
    (!c.is_zero() && 2 * c.bits() < n).then_some((n, c))
}

/// Pseudo-Mersenne reduction modulo `p = 2^N − c` (paper 003, Algorithms 3 and 4).
///
/// Standard representation. [`Reducer::reduce_raw`] computes `x mod p` for
/// `x < 2^(2N)` when `c` is one digit (the optimised fold, `k + 1` digit
/// multiplications), for any `x` otherwise (Algorithm 3). Output below `p`.
#[derive(Clone, Debug)]
pub struct PseudoMersenne<L: Limb> {
    m: Nat<L>,
    /// `N = bits(p)`.
    n_bits: u64,
    /// `c = 2^N − p`.
    c: Nat<L>,
    /// `c` when it is one digit: the optimised fold applies.
    c_digit: Option<L>,
}

impl<L: Limb> PseudoMersenne<L> {
    /// `N`, with `p = 2^N − c`.
    pub fn exponent(&self) -> u64 {
        self.n_bits
    }

    /// `c`, with `p = 2^N − c`.
    pub fn c(&self) -> &Nat<L> {
        &self.c
    }

    /// Whether the one-digit-`c` fold (Algorithm 4 and its extension) is used, rather
    /// than the general Algorithm 3.
    pub fn is_optimized(&self) -> bool {
        self.c_digit.is_some()
    }

    /// The optimised two-fold reduction, module docs. `x < 2^(2N)`.
    fn fold(&self, out: &mut [L], x: &[L], c: L, scratch: &mut Scratch<L>) {
        let k = self.m.len();
        let w = L::BITS;
        let s = (self.n_bits - (k as u64 - 1) * w as u64) as u32; // 1 ..= w
        let n = crate::nat::normalized_len(x);
        debug_assert!(n <= 2 * k);
        // work = [ x (2k digits) | q (k digits) | r (k + 1 digits) ]
        let work = zeroed(&mut scratch.work, 4 * k + 1);
        let (xs, rest) = work.split_at_mut(2 * k);
        let (q, r) = rest.split_at_mut(k);
        xs[..n].copy_from_slice(&x[..n]);
        // q = x >> N: digits k−1 … 2k−1 shifted right by s.
        if s == w {
            q.copy_from_slice(&xs[k..2 * k]);
        } else {
            for i in 0..k {
                q[i] = xs[k - 1 + i].shr(s).or(xs[k + i].shl(w - s));
            }
        }
        // r = x mod 2^N
        r[..k].copy_from_slice(&xs[..k]);
        r[k] = L::ZERO;
        let mask_top = |d: L| if s == w { d } else { d.and(L::ONE.shl(s).wrapping_sub(L::ONE)) };
        r[k - 1] = mask_top(r[k - 1]);
        // 1. t = r + q·c (k + 1 digits).
        r[k] = kernels::addmul_1(&mut r[..k], q, c);
        // 2. q₂ = t >> N (≤ c), r₂ = t mod 2^N, t₂ = r₂ + q₂·c.
        let q2 = if s == w { r[k] } else { r[k].shl(w - s).or(r[k - 1].shr(s)) };
        r[k] = L::ZERO;
        r[k - 1] = mask_top(r[k - 1]);
        let (lo, hi) = q2.widening_mul(c);
        crate::nat::add::add_assign_slices(r, &[lo, hi]);
        // 3. One conditional subtraction (C = r[k] ≤ 1).
        super::montgomery::conditional_subtract(out, &r[..k], !r[k].is_zero(), self.m.limbs());
    }

    /// Algorithm 3 with `b^n` replaced by `2^N`: `r = x mod 2^N`, `q = x div 2^N`; while
    /// `q > 0`: `r += (c·q) mod 2^N`, `q = (c·q) div 2^N`; then subtract `p` while `r ≥ p`.
    fn general(&self, x: &[L]) -> Nat<L> {
        let x = Nat::from_limbs(x);
        let mut r = x.low_bits(self.n_bits);
        let mut q = x.shr(self.n_bits);
        while !q.is_zero() {
            let cq = q.mul(&self.c);
            r = r.add(&cq.low_bits(self.n_bits));
            q = cq.shr(self.n_bits);
        }
        while r >= self.m {
            r = &r - &self.m;
        }
        r
    }
}

impl<L: Limb> Reducer<L> for PseudoMersenne<L> {
    fn heap_bytes(&self) -> usize {
        self.m.heap_bytes() + self.c.heap_bytes()
    }

    /// Error: [`Error::NotApplicable`] naming the form when `m ≠ 2^N − c` with
    /// `N = bits(m)`, `c ≥ 1`, `2·bits(c) < N`.
    fn new(m: &Nat<L>) -> Result<Self, Error> {
        if m.is_zero() {
            return Err(Error::ZeroModulus);
        }
        let Some((n_bits, c)) = pseudo_mersenne_form(m) else {
            let n = m.bits();
            let detail = match Nat::<L>::power_of_two(n).checked_sub(m) {
                Some(c) if !c.is_zero() && n >= 3 => {
                    format!("here N = {n} and c = 2^N - m has {} bits", c.bits())
                }
                _ => format!("here m has {n} bits and c = 2^N - m would be 0 or m too small"),
            };
            return Err(Error::NotApplicable {
                algorithm: Algorithm::PseudoMersenne.name(),
                reason: format!(
                    "it needs a pseudo-Mersenne modulus m = 2^N - c with N = bits(m), c >= 1 \
                     and 2*bits(c) < N ({detail})"
                ),
            });
        };
        let c_digit = (c.len() == 1).then(|| c.limbs()[0]);
        Ok(PseudoMersenne { m: m.clone(), n_bits, c, c_digit })
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::PseudoMersenne
    }

    fn modulus(&self) -> &Nat<L> {
        &self.m
    }

    /// `x < 2^(2N)` for a one-digit `c`; unbounded otherwise.
    fn input_bound(&self) -> Bound<L> {
        if self.c_digit.is_some() {
            Bound::Below(Nat::power_of_two(2 * self.n_bits))
        } else {
            Bound::Unbounded
        }
    }

    fn reduce_raw(&self, out: &mut [L], x: &[L], scratch: &mut Scratch<L>) {
        match self.c_digit {
            Some(c) => self.fold(out, x, c, scratch),
            None => {
                let r = self.general(x);
                out.fill(L::ZERO);
                out[..r.len()].copy_from_slice(r.limbs());
            }
        }
    }

    fn to_residue(&self, x: &Nat<L>) -> Vec<L> {
        let r = x.checked_rem(&self.m).unwrap_or_default();
        r.to_padded(self.width()).unwrap_or_else(|| vec![L::ZERO; self.width()])
    }

    fn from_residue(&self, r: &[L]) -> Nat<L> {
        Nat::from_limbs(r)
    }
}
