//! Fixed 2^w-ary window exponentiation (HAC Algorithm 14.82; paper 000 §5 uses w = 4).

use super::MulSqr;
use super::{bits_at, entry};
use crate::error::Error;
use crate::limb::Limb;
use crate::modulus::limits::try_zeroed;
use crate::reduce::Scratch;
use alloc::vec;
use alloc::vec::Vec;

/// The residue of `base^e` for a residue `base`, an exponent `e` of `n ≥ 1` bits and a
/// window `1 ≤ w ≤ min(n, 16)`.
///
/// `e` is written in radix 2^w with digits `e_{d−1} … e_0`, `d = ⌈n/w⌉`, the top one
/// nonzero. Table: `base^j` for `1 ≤ j < 2^w`, even powers by squaring `base^(j/2)`, odd
/// ones by multiplying `base^(j−1)` by `base`: `2^(w−1) − 1` of each. Loop: the
/// accumulator starts at `base^(e_{d−1})`; for each lower digit it is squared `w` times and,
/// unless the digit is zero, multiplied by `base^(e_i)`. Squarings `w·(d − 1)`,
/// multiplications one per nonzero digit below the top.
///
/// `base^0` is not stored: a zero digit costs only its squarings, which is HAC 14.82 less
/// its multiplications by one.
pub(super) fn pow<L: Limb, R: MulSqr<L> + ?Sized>(
    r: &R,
    base: &[L],
    e: &[L],
    n: u64,
    w: u32,
    scratch: &mut Scratch<L>,
) -> Result<Vec<L>, Error> {
    debug_assert!(n >= 1 && 1 <= w && w as u64 <= n);
    let k = base.len();
    // table[(j − 1)·k ..][..k] holds base^j.
    let size = (1usize << w) - 1;
    let mut table = try_zeroed(size * k, L::ZERO)?;
    table[..k].copy_from_slice(base);
    for j in 2..=size {
        let (done, rest) = table.split_at_mut((j - 1) * k);
        let out = &mut rest[..k];
        if j % 2 == 0 {
            r.sqr(out, entry(done, j / 2 - 1, k), scratch);
        } else {
            r.mul(out, entry(done, j - 2, k), base, scratch);
        }
    }

    let d = n.div_ceil(w as u64);
    let top = bits_at(e, (d - 1) * w as u64, w);
    debug_assert!(top != 0);
    let mut acc = entry(&table, top - 1, k).to_vec();
    let mut tmp = vec![L::ZERO; k];
    for i in (0..d - 1).rev() {
        for _ in 0..w {
            r.sqr(&mut tmp, &acc, scratch);
            core::mem::swap(&mut acc, &mut tmp);
        }
        let digit = bits_at(e, i * w as u64, w);
        if digit != 0 {
            r.mul(&mut tmp, &acc, entry(&table, digit - 1, k), scratch);
            core::mem::swap(&mut acc, &mut tmp);
        }
    }
    Ok(acc)
}
