//! Layer 6: exponentiation strategies generic over any [`Reducer`].
//!
//! Every strategy computes the residue of `base^e` from the residue of `base`, using only
//! the reducer's [`Reducer::mul`] and [`Reducer::sqr`], so it works unchanged for the
//! standard representation (classical, Barrett) and Montgomery's (`x·R mod m`): the
//! product of two residues is the residue of the product in either. All working memory
//! (the accumulator, the table of powers, a [`Scratch`]) is allocated before the loop.
//!
//! Which to use when (cost for an `n`-bit exponent, `n` squarings in every method):
//! - [`Method::Binary`] (HAC 14.79): about `n/2` multiplications. For short exponents
//!   (`n ≤ 6`), where no table pays for itself.
//! - [`Method::FixedWindow`] (HAC 14.82; paper 000 §5 uses the 16-ary form, `w = 4`):
//!   about `n/w` multiplications plus a table of `2^w − 2`. Its access pattern depends
//!   only on the exponent's length and digits, which is the shape a constant-time variant
//!   needs.
//! - [`Method::SlidingWindow`] (HAC 14.85): about `n/(w + 1)` multiplications plus a
//!   table of `2^(w−1)` odd powers; the fastest for all but the shortest exponents, and
//!   the default ([`default_method`]) with the window from [`default_window`].
//!
//! Paper 000 §5 quotes "about 1/8 the number of bits" multiplications for its optimized
//! 16-ary method; the plain 16-ary window makes `(n/4)(15/16) ≈ 0.23·n`, the sliding
//! window of width 4 `n/5`, and a sliding window needs width 7 to reach `n/8`. Both
//! agree with the paper that the number of squarings stays about `n`.
//!
//! The fixed-size reducers of one to eight digits run the sliding window themselves
//! ([`Reducer::pow_sliding_window`], `exp::fixed_size`): the same squarings and
//! multiplications on stack arrays, the products inlined into the loop.
//!
//! [`hong::pow_vartime`] walks the exponent the same ways with paper 002's table-based
//! window multiplication and squaring (it needs the concrete [`crate::reduce::Hong`]).
//!
//! None of these is constant time: all branch on the exponent's bits and index the table
//! by them, so their timing leaks the exponent. They are for public exponents (RSA
//! verification, primality tests).

mod binary;
pub(crate) mod fixed_size;
pub mod hong;
mod shared;
pub(crate) mod sliding;
mod two_power;
mod window;
pub(crate) mod word;

pub use shared::pow_shared_transform_vartime;
pub use two_power::pow_mod_power_of_two;

use crate::error::Error;
use crate::limb::Limb;
use crate::nat::Nat;
use crate::reduce::{Reducer, Scratch};
use alloc::format;
use alloc::vec::Vec;

/// How to exponentiate. Every method gives the same result; they differ in cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Left-to-right binary square-and-multiply (HAC Algorithm 14.79).
    ///
    /// For an `n`-bit exponent `e`: `n − 1` squarings and `popcount(e) − 1`
    /// multiplications (about `n/2` for a random exponent); no table.
    Binary,
    /// Fixed 2^w-ary window, `1 ≤ w ≤ 16` (HAC Algorithm 14.82; paper 000 §5 with
    /// `w = 4`, its "16-ary" method).
    ///
    /// The exponent is cut into `d = ⌈n/w⌉` digits of `w` bits from the bottom. Table:
    /// `base^1 … base^(2^w − 1)`, built with `2^(w−1) − 1` squarings and `2^(w−1) − 1`
    /// multiplications. Loop: `w·(d − 1)` squarings and one multiplication per nonzero
    /// digit below the top one (about `(n/w)(1 − 2^−w)`). A window wider than the
    /// exponent is narrowed to `n` bits (same result, smaller table).
    FixedWindow(u32),
    /// Sliding window with odd powers only, `1 ≤ w ≤ 16` (HAC Algorithm 14.85).
    ///
    /// Each window starts and ends with a one bit and is at most `w` bits long; zero bits
    /// between windows cost a squaring each. Table: `base^1, base^3, …, base^(2^w − 1)`,
    /// built with one squaring (for `w ≥ 2`) and `2^(w−1) − 1` multiplications. Loop:
    /// `n − ℓ` squarings, where `ℓ` is the length of the top window, and one
    /// multiplication per window below the top one (about `n/(w + 1)` for a random
    /// exponent). `w = 1` is [`Method::Binary`]. A window wider than the exponent is
    /// narrowed to `n` bits.
    SlidingWindow(u32),
}

/// The widest window [`Method::FixedWindow`] and [`Method::SlidingWindow`] accept: a
/// fixed-window table of 2^16 residues is already far past any exponent length where a
/// wider window would pay.
pub const MAX_WINDOW: u32 = 16;

/// `WINDOW_THRESHOLDS[w − 1]` is the exponent length in bits from which the sliding
/// window of width `w + 1` needs fewer operations than width `w`.
///
/// Why: for an `n`-bit exponent the sliding window costs about `n` squarings (for every
/// `w`), `n/(w + 1)` multiplications in the loop and `2^(w−1)` operations for its table.
/// Width `w + 1` beats `w` when `n·(1/(w+1) − 1/(w+2)) > 2^(w−1)`, that is when
/// `n > 2^(w−1)·(w + 1)·(w + 2)`; at equality the smaller table wins. GMP's `mpn_powm`
/// (`win_size` in `mpn/generic/powm.c`) uses the same numbers as strict bounds. The const
/// assertion below keeps the table and the formula in step.
pub const WINDOW_THRESHOLDS: [u64; 9] = [7, 25, 81, 241, 673, 1793, 4609, 11521, 28161];

/// The widest window [`default_window`] picks. Width 11 would beat 10 from 67 585 bits on,
/// but by less than 0.7% of all operations however long the exponent (the `n` squarings
/// dominate), while the table doubles to 1024 residues: not worth the memory.
pub const MAX_DEFAULT_WINDOW: u32 = WINDOW_THRESHOLDS.len() as u32 + 1;

const _: () = {
    let mut w = 1;
    while w <= WINDOW_THRESHOLDS.len() {
        let crossover = (1u64 << (w - 1)) * (w as u64 + 1) * (w as u64 + 2);
        assert!(WINDOW_THRESHOLDS[w - 1] == crossover + 1);
        w += 1;
    }
};

/// The window width for an exponent of `exponent_bits` bits that minimizes the number of
/// squarings and multiplications of [`Method::SlidingWindow`] (see [`WINDOW_THRESHOLDS`]):
/// 1 below 7 bits, 5 for 241 to 672 bits (512-bit exponents), 6 up to 1792 bits (1024),
/// 7 up to 4608 bits (2048 and 4096), 8 up to 11 520 bits, at most [`MAX_DEFAULT_WINDOW`].
///
/// For [`Method::FixedWindow`] (table `2^w − 2`, loop about `(n/w)(1 − 2^−w)`
/// multiplications) the same width is at most one off that method's own optimum and, for
/// exponents of 32 bits or more, costs under 4% more operations than it.
pub fn default_window(exponent_bits: u64) -> u32 {
    let below = WINDOW_THRESHOLDS.iter().take_while(|&&t| exponent_bits >= t).count();
    below as u32 + 1
}

/// The method [`crate::Modulus::pow_vartime`] uses when no profile decides
/// ([`crate::modulus::choose_method`]): the sliding window of [`default_window`] width.
///
/// Measured (`modred tune`, odd moduli, exponent as long as the modulus, against binary
/// and fixed and sliding windows one narrower and one wider): within 3% of the fastest
/// from 64 to 8192 bits but at one point of two runs (256 bits, 10%, the two runs
/// disagreeing on the winner), the fastest or tied at 1024, 2048 and 4096 bits; the
/// fixed window of the same width is 1–5% slower, binary 20–35% from 256 bits on.
pub fn default_method(exponent_bits: u64) -> Method {
    Method::SlidingWindow(default_window(exponent_bits))
}

/// The residue of `base^e`, computed with `method` by the reducer `r`.
///
/// `base` is a residue of `r`: exactly `r.width()` digits holding a value below `m`, in the
/// reducer's representation (from [`Reducer::to_residue`]); the result is one too
/// (`r.from_residue` turns it into `base^e mod m`). `e = 0` gives the residue of 1, which
/// is 0 when `m = 1`. The costs of each method are on [`Method`]'s variants.
///
/// Errors: [`Error::InvalidArgument`] for a window outside `1..=16`, or a `base` that is
/// not a residue (wrong length, or not below `m`).
///
/// Not constant time: see the [module documentation](self).
pub fn pow_vartime<L: Limb, R: Reducer<L> + ?Sized>(
    r: &R,
    base: &[L],
    e: &Nat<L>,
    method: Method,
) -> Result<Vec<L>, Error> {
    check_method(method)?;
    let m = r.modulus();
    if base.len() != r.width() || crate::nat::cmp_slices(base, m.limbs()).is_ge() {
        return Err(Error::InvalidArgument(format!(
            "the base is not a residue: it must have {} digits and be below the modulus",
            r.width()
        )));
    }
    let n = e.bits();
    if n == 0 {
        return Ok(r.to_residue(&Nat::one()));
    }
    if let Method::SlidingWindow(w) = method {
        let w = if (w as u64) > n { n as u32 } else { w };
        if let Some(y) = r.pow_sliding_window(base, e.limbs(), n, w) {
            return Ok(y);
        }
    }
    pow_loops(r, base, e, method, &mut Scratch::new())
}

/// Checks a window width: `1..=`[`MAX_WINDOW`].
pub(crate) fn check_method(method: Method) -> Result<(), Error> {
    if let Method::FixedWindow(w) | Method::SlidingWindow(w) = method {
        if !(1..=MAX_WINDOW).contains(&w) {
            return Err(Error::InvalidArgument(format!(
                "the window size must be between 1 and {MAX_WINDOW} (got {w})"
            )));
        }
    }
    Ok(())
}

/// The two operations every strategy here is built from: [`Reducer::mul`] and
/// [`Reducer::sqr`] on residues of one width. Every reducer has them; so has the radix-2^52
/// AVX-512 IFMA Montgomery context, which exponentiates through the same loops.
pub(crate) trait MulSqr<L> {
    /// `out = a·b` in the representation (`out` aliases neither).
    fn mul(&self, out: &mut [L], a: &[L], b: &[L], scratch: &mut Scratch<L>);
    /// `out = a²` in the representation (`out` does not alias `a`).
    fn sqr(&self, out: &mut [L], a: &[L], scratch: &mut Scratch<L>);
}

impl<L: Limb, R: Reducer<L> + ?Sized> MulSqr<L> for R {
    #[inline]
    fn mul(&self, out: &mut [L], a: &[L], b: &[L], scratch: &mut Scratch<L>) {
        Reducer::mul(self, out, a, b, scratch)
    }
    #[inline]
    fn sqr(&self, out: &mut [L], a: &[L], scratch: &mut Scratch<L>) {
        Reducer::sqr(self, out, a, scratch)
    }
}

/// [`pow_vartime`]'s loops for anything with [`MulSqr`], on a `base` already checked and an
/// exponent `e ≥ 1` (`n = e.bits() ≥ 1`); [`Error::OutOfMemory`] when the system refuses
/// the window table.
pub(crate) fn pow_loops<L: Limb, R: MulSqr<L> + ?Sized>(
    r: &R,
    base: &[L],
    e: &Nat<L>,
    method: Method,
    scratch: &mut Scratch<L>,
) -> Result<Vec<L>, Error> {
    let n = e.bits();
    debug_assert!(n >= 1);
    // A window wider than the exponent gives the same result with a larger table.
    let narrow = |w: u32| if (w as u64) > n { n as u32 } else { w };
    match method {
        Method::Binary => Ok(binary::pow(r, base, e.limbs(), n, scratch)),
        Method::FixedWindow(w) => window::pow(r, base, e.limbs(), n, narrow(w), scratch),
        Method::SlidingWindow(w) => sliding::pow(r, base, e.limbs(), n, narrow(w), scratch),
    }
}

/// Bit `i` of the number with digits `e` (0 beyond its end).
#[inline]
fn bit<L: Limb>(e: &[L], i: u64) -> bool {
    let (d, s) = ((i / L::BITS as u64) as usize, (i % L::BITS as u64) as u32);
    e.get(d).is_some_and(|v| v.shr(s).and(L::ONE) == L::ONE)
}

/// The sliding window whose top bit is `top` (a one bit of `e`): the longest run of at
/// most `w` bits `top … low` that ends in a one bit; its low end and its odd value.
fn odd_window<L: Limb>(e: &[L], top: u64, w: u32) -> (u64, usize) {
    let low = (top + 1).saturating_sub(w as u64);
    // All the window's bits at once, its zeros at the bottom dropped: a bit-by-bit scan
    // mispredicts a branch at nearly every window of a random exponent.
    let bits = bits_at(e, low, (top - low + 1) as u32);
    debug_assert!(bits != 0, "bit {top} is a one");
    let zeros = bits.trailing_zeros();
    (low + zeros as u64, bits >> zeros)
}

/// Bits `lo .. lo + len` of the number with digits `e`, as an integer (`len ≤ 16`; the
/// bits may span several digits when they are narrow).
#[inline]
fn bits_at<L: Limb>(e: &[L], lo: u64, len: u32) -> usize {
    debug_assert!(len <= MAX_WINDOW);
    let mut v = 0usize;
    let mut got = 0u32;
    while got < len {
        let pos = lo + got as u64;
        let (d, s) = ((pos / L::BITS as u64) as usize, (pos % L::BITS as u64) as u32);
        let take = (len - got).min(L::BITS - s);
        let digit = e.get(d).map_or(0, |x| x.to_u64());
        v |= (((digit >> s) & ((1u64 << take) - 1)) as usize) << got;
        got += take;
    }
    v
}

/// The residue at index `i` of a table of residues of `k` digits each.
#[inline]
fn entry<L>(table: &[L], i: usize, k: usize) -> &[L] {
    &table[i * k..(i + 1) * k]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_at_spans_digits() {
        let e: [u8; 3] = [0b1010_0000, 0b1111_0101, 0b0000_0011];
        assert_eq!(bits_at(&e, 5, 3), 0b101);
        assert_eq!(bits_at(&e, 4, 8), 0b0101_1010);
        assert_eq!(bits_at(&e, 4, 16), 0b0011_1111_0101_1010);
        assert_eq!(bits_at(&e, 20, 16), 0);
        assert!(bit(&e, 5) && !bit(&e, 6) && bit(&e, 17) && !bit(&e, 100));
    }

    #[test]
    fn default_window_follows_thresholds() {
        assert_eq!(default_window(0), 1);
        assert_eq!(default_window(6), 1);
        assert_eq!(default_window(7), 2);
        assert_eq!(default_window(240), 4);
        assert_eq!(default_window(241), 5);
        assert_eq!(default_window(512), 5);
        assert_eq!(default_window(1024), 6);
        assert_eq!(default_window(2048), 7);
        assert_eq!(default_window(4096), 7);
        assert_eq!(default_window(8192), 8);
        assert_eq!(default_window(u64::MAX), MAX_DEFAULT_WINDOW);
    }

    /// The thresholds are where the modelled cost `2^(w−1) + n/(w+1)` (table plus loop
    /// multiplications) of the wider window first drops below the narrower one's.
    #[test]
    fn default_window_minimizes_modelled_cost() {
        let cost = |w: u32, n: u64| (1u64 << (w - 1)) as f64 + n as f64 / (w as f64 + 1.0);
        for n in 1..40_000u64 {
            let best = default_window(n);
            for w in 1..=MAX_DEFAULT_WINDOW {
                assert!(cost(best, n) <= cost(w, n) + 1e-9, "n = {n}: {best} vs {w}");
            }
        }
    }
}
