//! The modified radix-2 Montgomery multiplication with the multiplier recoded to an even
//! number, paper 004 §4.

use super::{add_masked, bit, bool_mask, odd_mask, shr1, subtract_if_at_least, Radix2Params};
use crate::error::Error;
use crate::limb::Limb;
use crate::nat::Nat;
use crate::reduce::{zeroed, Bound, Reducer, Scratch};
use crate::registry::Algorithm;
use alloc::vec;
use alloc::vec::Vec;

/// The modified radix-2 Montgomery multiplication of paper 004 §4. `B` is recoded as
/// `x1 ⊖ x2` (Table I): `x1 = B, x2 = 0` for even `B`, `x1 = B − 1, x2 = −1` for odd `B`,
/// so `x1_0 = 0` and `q_i` is just the low bit of `S[i]` (no `A_i·B_0` term). The term
/// dropped from the product is restored after the loop with the extra input `a`:
///
/// ```text
/// S[0] = 0
/// for i in 0..k:  S[i+1] = (S[i] + A_i·x1 + S[i]_0·n) / 2
/// q = (S[k]_0 + B_0·a_0) mod 2
/// S[k+1] = (S[k] + B_0·a + q·n) / 2        // = A·B·2^(−(k+1)) mod n, below 2n
/// ```
///
/// where `a = A·2^(−k) mod n` (below `n`). Then
/// `2^(k+1)·S[k+1] ≡ A·x1 + B_0·A = A·B (mod n)`.
///
/// **Correction to the paper.** The paper takes `A = a·2^k mod n`, i.e. `a` is the standard
/// value of `A`. That holds with the factor `2^k`, but the product carries
/// `2^(−(k+1))`, so a chain of products (an exponentiation) must use `ρ = 2^(k+1)`, as the
/// paper's own conversion out (multiply by `2^(−(k+1))`) implies. In that representation
/// `A = ā·2^(k+1) mod n` and the input the correction needs is
/// `a = A·2^(−k) mod n = 2ā mod n`, not `ā`. [`Radix2MontgomeryRecoded::correction`]
/// computes it (`k` halvings modulo `n`); [`Reducer::mul`] does that for every product.
///
/// Bound (the paper's, checked by the tests): for `A, B, a < n`,
/// `S[k] = (A·x1 + Q·n)/2^k < (n² + 2^k·n)/2^k < 2n`, so
/// `S[k+1] ≤ (2n − 1 + n − 1 + n)/2 < 2n`: no final subtraction is needed for a result
/// below `2n` ([`Radix2MontgomeryRecoded::mul_raw`]). The bound needs `A, B < n`: with
/// inputs up to `2n` it is `S[k] < 5n`. Because a [`Reducer`]'s residues must be below
/// `n`, [`Reducer::mul`] normalises the raw result with one masked subtraction.
///
/// [`Reducer::reduce_raw`] is the bit-serial reduction with `k + 1` halvings:
/// `x·2^(−(k+1)) mod n` for `x < n·2^(k+1)`, below `n` after one subtraction.
#[derive(Clone, Debug)]
pub struct Radix2MontgomeryRecoded<L: Limb> {
    params: Radix2Params<L>,
}

impl<L: Limb> Radix2MontgomeryRecoded<L> {
    /// `k`, the bit length of the modulus: the loop has `k` steps and one more follows.
    pub fn bits(&self) -> u64 {
        self.params.k
    }

    /// The correction input `a = A·2^(−k) mod n` for a residue `A < n` (`width()` digits).
    pub fn correction(&self, a: &[L]) -> Vec<L> {
        let w = self.width();
        let mut out = vec![L::ZERO; w];
        self.correction_into(&mut out, a, &mut vec![L::ZERO; w + 1]);
        out
    }

    /// [`Self::correction`] into `out` (`width()` digits), with `t` (`width() + 1` digits)
    /// as working space: `k` times "add `n` if odd, halve".
    fn correction_into(&self, out: &mut [L], a: &[L], t: &mut [L]) {
        let w = self.width();
        let n = self.params.n.limbs();
        t[..w].copy_from_slice(a);
        t[w] = L::ZERO;
        for _ in 0..self.params.k {
            let q = odd_mask(t[0]);
            add_masked(t, n, q);
            shr1(t);
        }
        // (A + (2^k − 1)·n)/2^k < 2n.
        subtract_if_at_least(out, t, n);
    }

    /// The paper's modified algorithm, no final subtraction: `s = A·B·2^(−(k+1)) mod n`
    /// plus 0 or `n`, **always below `2n`**, in `width() + 1` digits. `a` (`A`), `b` (`B`)
    /// and `corr` (`A·2^(−k) mod n`, from [`Self::correction`]) are `width()` digits, each
    /// below `n`.
    pub fn mul_raw(&self, s: &mut [L], a: &[L], b: &[L], corr: &[L]) {
        let n = self.params.n.limbs();
        let w = n.len();
        debug_assert!(a.len() == w && b.len() == w && corr.len() == w && s.len() == w + 1);
        s.fill(L::ZERO);
        // x1 = B with its low bit cleared; x2 = −B_0.
        let b_odd = odd_mask(b[0]);
        let mut x1_low = [L::ZERO];
        x1_low[0] = b[0].and(L::ONE.not());
        for i in 0..self.params.k {
            let ai = bool_mask::<L>(bit(a, i));
            // q_i = S[i]_0: x1 is even, so adding A_i·x1 leaves the low bit alone.
            let q = odd_mask(s[0]);
            add_masked(&mut s[..], &x1_low, ai);
            add_masked(&mut s[1..], &b[1..], ai);
            add_masked(s, n, q);
            shr1(s);
        }
        // S[k] Θ (x2·a) = S[k] + B_0·a, then one more halving step.
        add_masked(s, corr, b_odd);
        let q = odd_mask(s[0]);
        add_masked(s, n, q);
        shr1(s);
    }
}

impl<L: Limb> Reducer<L> for Radix2MontgomeryRecoded<L> {
    fn new(m: &Nat<L>) -> Result<Self, Error> {
        Ok(Radix2MontgomeryRecoded {
            params: Radix2Params::new(m, Algorithm::Radix2MontgomeryRecoded, 1)?,
        })
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::Radix2MontgomeryRecoded
    }

    fn modulus(&self) -> &Nat<L> {
        &self.params.n
    }

    /// `x < n·2^(k+1)`.
    fn input_bound(&self) -> Bound<L> {
        Bound::Below(self.params.bound())
    }

    /// `out = x·2^(−(k+1)) mod n` for `x < n·2^(k+1)`, bit-serially, output below `n`.
    fn reduce_raw(&self, out: &mut [L], x: &[L], scratch: &mut Scratch<L>) {
        self.params.reduce_raw(out, x, scratch);
    }

    /// `out = a·b·2^(−(k+1)) mod n`: the correction `a·2^(−k) mod n`, §4's loop (below
    /// `2n`), then one masked subtraction to keep residues below `n`.
    fn mul(&self, out: &mut [L], a: &[L], b: &[L], scratch: &mut Scratch<L>) {
        let w = self.width();
        let buf = zeroed(&mut scratch.product, 2 * w + 1);
        let (t, corr) = buf.split_at_mut(w + 1);
        self.correction_into(corr, a, t);
        let s = zeroed(&mut scratch.work, w + 1);
        self.mul_raw(s, a, b, corr);
        subtract_if_at_least(out, s, self.params.n.limbs());
    }

    /// `mul(a, a)`.
    fn sqr(&self, out: &mut [L], a: &[L], scratch: &mut Scratch<L>) {
        self.mul(out, a, a, scratch);
    }

    /// `x·2^(k+1) mod n`.
    fn to_residue(&self, x: &Nat<L>) -> Vec<L> {
        self.params.to_residue(x)
    }

    /// `r·2^(−(k+1)) mod n`.
    fn from_residue(&self, r: &[L]) -> Nat<L> {
        self.params.to_standard(r)
    }
}
