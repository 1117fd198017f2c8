//! Left-to-right binary exponentiation (HAC Algorithm 14.79).

use super::bit;
use super::MulSqr;
use crate::limb::Limb;
use crate::reduce::Scratch;
use alloc::vec;
use alloc::vec::Vec;

/// The residue of `base^e` for a residue `base` and an exponent `e` of `n ≥ 1` bits.
///
/// Scans `e` from its top bit down: the accumulator starts at `base` (the top bit is one)
/// and each further bit squares it, then multiplies by `base` when the bit is one.
/// `n − 1` squarings and `popcount(e) − 1` multiplications.
pub(super) fn pow<L: Limb, R: MulSqr<L> + ?Sized>(
    r: &R,
    base: &[L],
    e: &[L],
    n: u64,
    scratch: &mut Scratch<L>,
) -> Vec<L> {
    debug_assert!(n >= 1 && bit(e, n - 1));
    let mut acc = base.to_vec();
    let mut tmp = vec![L::ZERO; base.len()];
    for i in (0..n - 1).rev() {
        r.sqr(&mut tmp, &acc, scratch);
        core::mem::swap(&mut acc, &mut tmp);
        if bit(e, i) {
            r.mul(&mut tmp, &acc, base, scratch);
            core::mem::swap(&mut acc, &mut tmp);
        }
    }
    acc
}
