//! Radix-2 (bit-serial) Montgomery multiplication, paper 004 (Manochehri, Sadeghian,
//! Pourmozafari): the conventional algorithm of §2 ([`Radix2Montgomery`]), the modified
//! algorithm of §4 with the multiplier recoded to an even number
//! ([`Radix2MontgomeryRecoded`]). The cycle-level model of both carry-save datapaths of §5
//! is in the `modred-research` crate (`radix2_model`).
//!
//! These are hardware algorithms: one bit of the multiplier per step, so `k` steps of
//! `O(k/w)` digit additions each for a `k`-bit modulus (`w` bits a digit). In software
//! they are far slower than the word-level Montgomery reducers and are here to be
//! checked and compared, not to be chosen by `auto`.
//!
//! Both loops are branch-free in the data: the conditional additions (`A_i·B`, `q_i·n`)
//! add a masked operand, and the final subtraction is a masked select; the step count
//! depends only on the modulus' bit length.
//!
//! When to use which: [`Radix2Montgomery`] when the result must be below `n` after each
//! product; [`Radix2MontgomeryRecoded::mul_raw`] when a result below `2n` is enough (the
//! paper's point: no final subtraction in hardware).

mod plain;
mod recoded;

pub use plain::Radix2Montgomery;
pub use recoded::Radix2MontgomeryRecoded;

use super::Scratch;
use crate::error::Error;
use crate::limb::Limb;
use crate::nat::Nat;
use crate::registry::Algorithm;
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

/// What both radix-2 reducers keep: the odd modulus `n`, its bit length `k` and the
/// number of halvings `steps` in the representation factor `ρ = 2^steps`.
#[derive(Clone, Debug)]
pub(crate) struct Radix2Params<L: Limb> {
    pub(crate) n: Nat<L>,
    /// `k`, the bit length of `n` (the paper's operand length).
    pub(crate) k: u64,
    /// `ρ = 2^steps`: `k` for the plain algorithm, `k + 1` for the recoded one.
    pub(crate) steps: u64,
}

impl<L: Limb> Radix2Params<L> {
    /// Checks `n` (non-zero, odd); `extra` is `steps − k`.
    pub(crate) fn new(n: &Nat<L>, algorithm: Algorithm, extra: u64) -> Result<Self, Error> {
        if n.is_zero() {
            return Err(Error::ZeroModulus);
        }
        if !n.is_odd() {
            return Err(Error::NotApplicable {
                algorithm: algorithm.name(),
                reason: "it needs an odd modulus (the radix-2 step divides by 2 modulo n)"
                    .to_string(),
            });
        }
        let k = n.bits();
        Ok(Radix2Params { n: n.clone(), k, steps: k + extra })
    }

    pub(crate) fn width(&self) -> usize {
        self.n.len()
    }

    /// The input bound of the bit-serial reduction: `x < n·2^steps`.
    pub(crate) fn bound(&self) -> Nat<L> {
        self.n.shl(self.steps)
    }

    /// `out = x·2^(−steps) mod n` for `x < n·2^steps`, output below `n`: `steps` times
    /// "add `n` if odd, halve" (the loop of §2 with `A·B` replaced by `x`), which leaves a
    /// value below `(n·2^s + (2^s − 1)·n)/2^s < 2n`, then one masked subtraction.
    pub(crate) fn reduce_raw(&self, out: &mut [L], x: &[L], scratch: &mut Scratch<L>) {
        let w = self.width();
        let len = crate::nat::normalized_len(x);
        // x + n < n·2^steps + n < 2^(2k + 2): 2w + 2 digits always hold it.
        let t = super::zeroed(&mut scratch.work, (2 * w + 2).max(len + 1));
        t[..len].copy_from_slice(&x[..len]);
        let n = self.n.limbs();
        for _ in 0..self.steps {
            let q = odd_mask(t[0]);
            add_masked(t, n, q);
            shr1(t);
        }
        debug_assert!(t[w + 1..].iter().all(|d| d.is_zero()) && t[w] <= L::ONE);
        subtract_if_at_least(out, &t[..w + 1], n);
    }

    /// `x·ρ mod n` for any `x`.
    pub(crate) fn to_residue(&self, x: &Nat<L>) -> Vec<L> {
        let r = x.shl(self.steps).checked_rem(&self.n).unwrap_or_default();
        r.to_padded(self.width()).unwrap_or_else(|| vec![L::ZERO; self.width()])
    }

    /// `r·ρ⁻¹ mod n`.
    pub(crate) fn to_standard(&self, r: &[L]) -> Nat<L> {
        let mut out = vec![L::ZERO; self.width()];
        self.reduce_raw(&mut out, r, &mut Scratch::new());
        Nat::from_vec(out)
    }
}

/// All ones if `d` is odd, else zero.
#[inline]
pub(crate) fn odd_mask<L: Limb>(d: L) -> L {
    L::ZERO.wrapping_sub(d.and(L::ONE))
}

/// All ones if `bit`, else zero.
#[inline]
pub(crate) fn bool_mask<L: Limb>(bit: bool) -> L {
    L::ZERO.wrapping_sub(L::from_u64(bit as u64))
}

/// `t += b & mask` (digit-wise mask), the carry rippling through all of `t`, which must be
/// long enough to hold the sum (`t.len() > b.len()`).
#[inline]
pub(crate) fn add_masked<L: Limb>(t: &mut [L], b: &[L], mask: L) {
    let mut carry = false;
    let (low, high) = t.split_at_mut(b.len());
    for (ti, &bi) in low.iter_mut().zip(b) {
        let (s, c) = ti.carrying_add(bi.and(mask), carry);
        *ti = s;
        carry = c;
    }
    for ti in high {
        let (s, c) = ti.carrying_add(L::ZERO, carry);
        *ti = s;
        carry = c;
    }
    debug_assert!(!carry, "add_masked overflowed its buffer");
}

/// `t >>= 1` in place.
#[inline]
pub(crate) fn shr1<L: Limb>(t: &mut [L]) {
    let top = L::BITS - 1;
    for i in 0..t.len() {
        let next = if i + 1 < t.len() { t[i + 1].shl(top) } else { L::ZERO };
        t[i] = t[i].shr(1).or(next);
    }
}

/// The value `t` has bit `i`.
#[inline]
pub(crate) fn bit<L: Limb>(t: &[L], i: u64) -> bool {
    let (d, b) = ((i / L::BITS as u64) as usize, (i % L::BITS as u64) as u32);
    t.get(d).is_some_and(|x| !x.shr(b).and(L::ONE).is_zero())
}

/// `out = v − n` if `v ≥ n` else `v`, for `v < 2n` given in `n.len() + 1` digits;
/// branch-free.
pub(crate) fn subtract_if_at_least<L: Limb>(out: &mut [L], v: &[L], n: &[L]) {
    let w = n.len();
    debug_assert!(v.len() == w + 1 && out.len() == w);
    super::montgomery::conditional_subtract(out, &v[..w], !v[w].is_zero(), n);
}
