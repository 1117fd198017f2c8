//! Sliding-window exponentiation with odd powers only (HAC Algorithm 14.85).

use super::MulSqr;
use super::{bit, entry, odd_window};
use crate::error::Error;
use crate::limb::Limb;
use crate::modulus::limits::try_zeroed;
use crate::reduce::Scratch;
use alloc::vec;
use alloc::vec::Vec;

/// The residue of `base^e` for a residue `base`, an exponent `e` of `n ≥ 1` bits and a
/// window `1 ≤ w ≤ min(n, 16)`.
///
/// Table: the odd powers `base^(2j+1)` for `0 ≤ j < 2^(w−1)`, from `base²` (one squaring,
/// only when `w ≥ 2`) and `2^(w−1) − 1` multiplications. Loop, from the top bit down: a
/// zero bit squares the accumulator; a one bit at position `i` opens a window
/// `e_i … e_l`, the longest with `i − l < w` that ends in a one bit, and costs `i − l + 1`
/// squarings and one multiplication by the window's odd power. The top window initializes
/// the accumulator instead. Squarings `n − ℓ` (`ℓ` the top window's length),
/// multiplications one per window below the top.
pub(crate) fn pow<L: Limb, R: MulSqr<L> + ?Sized>(
    r: &R,
    base: &[L],
    e: &[L],
    n: u64,
    w: u32,
    scratch: &mut Scratch<L>,
) -> Result<Vec<L>, Error> {
    debug_assert!(n >= 1 && 1 <= w && w as u64 <= n && bit(e, n - 1));
    let k = base.len();
    // table[j·k ..][..k] holds base^(2j+1).
    let size = 1usize << (w - 1);
    let mut table = try_zeroed(size * k, L::ZERO)?;
    table[..k].copy_from_slice(base);
    if size > 1 {
        let mut square = vec![L::ZERO; k];
        r.sqr(&mut square, base, scratch);
        for j in 1..size {
            let (done, rest) = table.split_at_mut(j * k);
            r.mul(&mut rest[..k], entry(done, j - 1, k), &square, scratch);
        }
    }

    let window = |top: u64| odd_window(e, top, w);

    let (low, value) = window(n - 1);
    let mut acc = entry(&table, value >> 1, k).to_vec();
    let mut tmp = vec![L::ZERO; k];
    // Bits `0 .. remaining` are still to be processed.
    let mut remaining = low;
    while remaining > 0 {
        let top = remaining - 1;
        if !bit(e, top) {
            r.sqr(&mut tmp, &acc, scratch);
            core::mem::swap(&mut acc, &mut tmp);
            remaining = top;
            continue;
        }
        let (low, value) = window(top);
        for _ in low..=top {
            r.sqr(&mut tmp, &acc, scratch);
            core::mem::swap(&mut acc, &mut tmp);
        }
        r.mul(&mut tmp, &acc, entry(&table, value >> 1, k), scratch);
        core::mem::swap(&mut acc, &mut tmp);
        remaining = low;
    }
    Ok(acc)
}
