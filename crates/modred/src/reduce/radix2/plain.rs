//! The conventional radix-2 Montgomery multiplication, paper 004 §2.

use super::{add_masked, bit, bool_mask, odd_mask, shr1, subtract_if_at_least, Radix2Params};
use crate::error::Error;
use crate::limb::Limb;
use crate::nat::Nat;
use crate::reduce::{zeroed, Bound, Reducer, Scratch};
use crate::registry::Algorithm;
use alloc::vec::Vec;

/// Radix-2 Montgomery multiplication (paper 004 §2, after McIvor et al.): for a `k`-bit odd
/// modulus `n` and residues `A, B < n`,
///
/// ```text
/// S[0] = 0
/// for i in 0..k:  q_i = (S[i]_0 + A_i·B_0) mod 2;  S[i+1] = (S[i] + A_i·B + q_i·n) / 2
/// return S[k]            // = A·B·2^(−k) mod n, below 2n
/// ```
///
/// Representation factor `ρ = 2^k` (`k` = bit length of `n`, the paper's operand
/// length): the residue of `x` is `x·2^k mod n`.
///
/// Bound: `S[i] < 2n` for every `i` (`(2n + n + n)/2 = 2n`), and `S[k] = (A·B + Q·n)/2^k`
/// with `Q < 2^k` gives `S[k] < (n² + 2^k·n)/2^k < 2n`. The paper's algorithm stops there;
/// [`Radix2Montgomery::mul_raw`] returns that value, and [`Reducer::mul`] adds the usual
/// final subtraction so that residues stay below `n`.
///
/// [`Reducer::reduce_raw`] is the same bit-serial loop on a given double-length `x`
/// (`steps = k` times "add `n` if odd, halve"): `x·2^(−k) mod n` for `x < n·2^k`, below
/// `n` after one subtraction.
///
/// Cost: `k` steps, each two masked additions and a one-bit shift of `w + 1` digits.
#[derive(Clone, Debug)]
pub struct Radix2Montgomery<L: Limb> {
    params: Radix2Params<L>,
}

impl<L: Limb> Radix2Montgomery<L> {
    /// `k`, the bit length of the modulus: the number of loop steps.
    pub fn bits(&self) -> u64 {
        self.params.k
    }

    /// The paper's algorithm without a final subtraction: `s = A·B·2^(−k) mod n + {0, n}`,
    /// below `2n`, in `width() + 1` digits. `a` and `b` are `width()` digits below `n`;
    /// `work` is scratch space.
    pub fn mul_raw(&self, s: &mut [L], a: &[L], b: &[L]) {
        let n = self.params.n.limbs();
        let w = n.len();
        debug_assert!(a.len() == w && b.len() == w && s.len() == w + 1);
        s.fill(L::ZERO);
        let b0 = b[0].and(L::ONE);
        for i in 0..self.params.k {
            let ai = bool_mask::<L>(bit(a, i));
            // q_i = (S_0 + A_i·B_0) mod 2.
            let q = odd_mask(s[0].wrapping_add(ai.and(b0)));
            add_masked(s, b, ai);
            add_masked(s, n, q);
            debug_assert!(s[0].and(L::ONE).is_zero());
            shr1(s);
        }
    }
}

impl<L: Limb> Reducer<L> for Radix2Montgomery<L> {
    fn new(m: &Nat<L>) -> Result<Self, Error> {
        Ok(Radix2Montgomery { params: Radix2Params::new(m, Algorithm::Radix2Montgomery, 0)? })
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::Radix2Montgomery
    }

    fn modulus(&self) -> &Nat<L> {
        &self.params.n
    }

    /// `x < n·2^k`.
    fn input_bound(&self) -> Bound<L> {
        Bound::Below(self.params.bound())
    }

    /// `out = x·2^(−k) mod n` for `x < n·2^k`, bit-serially, output below `n`.
    fn reduce_raw(&self, out: &mut [L], x: &[L], scratch: &mut Scratch<L>) {
        self.params.reduce_raw(out, x, scratch);
    }

    /// `out = a·b·2^(−k) mod n` by §2's loop and one masked subtraction.
    fn mul(&self, out: &mut [L], a: &[L], b: &[L], scratch: &mut Scratch<L>) {
        let w = self.width();
        let s = zeroed(&mut scratch.work, w + 1);
        self.mul_raw(s, a, b);
        subtract_if_at_least(out, s, self.params.n.limbs());
    }

    /// `mul(a, a)`.
    fn sqr(&self, out: &mut [L], a: &[L], scratch: &mut Scratch<L>) {
        self.mul(out, a, a, scratch);
    }

    /// `x·2^k mod n`.
    fn to_residue(&self, x: &Nat<L>) -> Vec<L> {
        self.params.to_residue(x)
    }

    /// `r·2^(−k) mod n`.
    fn from_residue(&self, r: &[L]) -> Nat<L> {
        self.params.to_standard(r)
    }
}
