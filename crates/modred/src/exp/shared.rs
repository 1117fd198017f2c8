//! Exponentiation that shares the transforms of its common operands (paper 001 §IV-A):
//! every power in the window table is transformed once, so each multiplication by it
//! costs one forward and one inverse transform instead of two forward and one inverse,
//! and each squaring one forward and one inverse.

use super::{bits_at, Method, MAX_WINDOW};
use crate::error::Error;
use crate::limb::Limb;
use crate::nat::Nat;
use crate::ntt::{self, transform_len_at_least, Transform};
use crate::reduce::{Reducer, Scratch};
use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

/// The residue of `base^e` by the fixed 2^w-ary window (`Method::Binary` is `w = 1`;
/// `Method::SlidingWindow(w)` is served by the fixed window of the same width, with the
/// same result), with every product of two `k`-digit residues formed by the exact
/// transforms of [`crate::ntt`] and the transforms of the table entries computed once.
/// Works with any reducer (the reduction is `r.reduce_raw` of the `2k`-digit product);
/// with `ntt-barrett` or `ntt-montgomery` it is paper 001's modular exponentiation.
///
/// Cost, with `T` one transform of length `n ≈ 2k`: table `2^w − 2` products, loop
/// `n_e` squarings at `2T` each and about `n_e/w` multiplications at `2T` each, plus one
/// reduction per product.
///
/// Errors: as [`super::pow_vartime`].
///
/// Not constant time: the exponent's bits choose branches and table entries.
pub fn pow_shared_transform_vartime<L: Limb, R: Reducer<L> + ?Sized>(
    r: &R,
    base: &[L],
    e: &Nat<L>,
    method: Method,
) -> Result<Vec<L>, Error> {
    let w = match method {
        Method::Binary => 1,
        Method::FixedWindow(w) | Method::SlidingWindow(w) => w,
    };
    if !(1..=MAX_WINDOW).contains(&w) {
        return Err(Error::InvalidArgument(format!(
            "the window size must be between 1 and {MAX_WINDOW} (got {w})"
        )));
    }
    let k = r.width();
    if base.len() != k || crate::nat::cmp_slices(base, r.modulus().limbs()).is_ge() {
        return Err(Error::InvalidArgument(format!(
            "the base is not a residue: it must have {k} digits and be below the modulus"
        )));
    }
    let nbits = e.bits();
    if nbits == 0 {
        return Ok(r.to_residue(&Nat::one()));
    }
    let w = w.min(nbits as u32);
    let n = transform_len_at_least(2 * k - 1);
    let mut scratch = Scratch::new();
    let mut product = vec![L::ZERO; 2 * k];
    let mut buf: Vec<u64> = Vec::new();

    // table[j − 1] = base^j and its transform, for 1 ≤ j < 2^w.
    let size = (1usize << w) - 1;
    let mut table: Vec<(Vec<L>, Transform)> = Vec::with_capacity(size);
    table.push((base.to_vec(), Transform::new(base, n)?));
    for j in 2..=size {
        let mut out = vec![L::ZERO; k];
        let (prev, _) = &table[j - 2];
        ntt::mul_prepared(&mut product, prev, &table[0].1, &mut buf)?;
        r.reduce_raw(&mut out, &product, &mut scratch);
        let t = Transform::new(&out, n)?;
        table.push((out, t));
    }

    let d = nbits.div_ceil(w as u64);
    let top = bits_at(e.limbs(), (d - 1) * w as u64, w);
    let mut acc = table[top - 1].0.clone();
    let mut tmp = vec![L::ZERO; k];
    for i in (0..d - 1).rev() {
        for _ in 0..w {
            ntt::sqr_with_buf(&mut product, &acc, &mut buf);
            r.reduce_raw(&mut tmp, &product, &mut scratch);
            core::mem::swap(&mut acc, &mut tmp);
        }
        let digit = bits_at(e.limbs(), i * w as u64, w);
        if digit != 0 {
            ntt::mul_prepared(&mut product, &acc, &table[digit - 1].1, &mut buf)?;
            r.reduce_raw(&mut tmp, &product, &mut scratch);
            core::mem::swap(&mut acc, &mut tmp);
        }
    }
    Ok(acc)
}
