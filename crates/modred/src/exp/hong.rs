//! Paper 002's exponentiation: the small-window method (§2) with every multiplication a
//! window modular multiplication by a precomputed power (eq. 8) and every squaring the
//! paper's modular squaring (eqs. 10–13), all through [`Hong`].
//!
//! Each precomputed power `M^α` gets its window table `b^j·M^α mod N` (eq. 9) once; all
//! the multiplications by `M^α` in the loop share it. Building a table costs `k`
//! reductions by one digit and no digit multiplication; it holds `k²` digits, so a
//! sliding window of width `w` keeps `2^(w−1)·k²` digits of tables (the paper's Table 1:
//! `k·2^(w−1)` operands), a fixed window `(2^w − 1)·k²`.

use super::{bit, bits_at, odd_window, Method, MAX_WINDOW};
use crate::error::Error;
use crate::limb::Limb;
use crate::nat::Nat;
use crate::reduce::{Hong, Reducer, Scratch, WindowTable};
use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

/// The residue of `base^e` modulo `h`'s modulus, by `method` (the same exponent walks as
/// [`super::pow_vartime`], with paper 002's multiplication and squaring). `base` is a
/// residue (`k` digits, below `N`); `e = 0` gives 1 (0 when `N = 1`).
///
/// Errors: [`Error::InvalidArgument`] for a window outside `1..=16` or a `base` that is
/// not a residue.
///
/// Not constant time: it branches on the exponent's bits and indexes the tables by them,
/// and the reductions branch on the values (the pointer lookups and final corrections).
pub fn pow_vartime<L: Limb>(
    h: &Hong<L>,
    base: &[L],
    e: &Nat<L>,
    method: Method,
) -> Result<Vec<L>, Error> {
    if let Method::FixedWindow(w) | Method::SlidingWindow(w) = method {
        if !(1..=MAX_WINDOW).contains(&w) {
            return Err(Error::InvalidArgument(format!(
                "the window size must be between 1 and {MAX_WINDOW} (got {w})"
            )));
        }
    }
    let k = h.width();
    if base.len() != k || crate::nat::cmp_slices(base, h.modulus().limbs()).is_ge() {
        return Err(Error::InvalidArgument(format!(
            "the base is not a residue: it must have {k} digits and be below the modulus"
        )));
    }
    let n = e.bits();
    if n == 0 {
        return Ok(h.to_residue(&Nat::one()));
    }
    let narrow = |w: u32| if (w as u64) > n { n as u32 } else { w };
    let mut scratch = Scratch::new();
    match method {
        Method::Binary => sliding(h, base, e.limbs(), n, 1, &mut scratch),
        Method::SlidingWindow(w) => sliding(h, base, e.limbs(), n, narrow(w), &mut scratch),
        Method::FixedWindow(w) => fixed(h, base, e.limbs(), n, narrow(w), &mut scratch),
    }
}

/// Squares `acc` `times` times in place (through `tmp`).
fn square_times<L: Limb>(
    h: &Hong<L>,
    acc: &mut Vec<L>,
    tmp: &mut Vec<L>,
    times: u64,
    scratch: &mut Scratch<L>,
) {
    for _ in 0..times {
        h.sqr_paper(tmp, acc, scratch);
        core::mem::swap(acc, tmp);
    }
}

/// Sliding window of odd powers (HAC 14.85; `w = 1` is binary square-and-multiply): the
/// tables of `base^(2j+1)`, `0 ≤ j < 2^(w−1)`, the powers from `base²` and its table.
fn sliding<L: Limb>(
    h: &Hong<L>,
    base: &[L],
    e: &[L],
    n: u64,
    w: u32,
    scratch: &mut Scratch<L>,
) -> Result<Vec<L>, Error> {
    debug_assert!(n >= 1 && 1 <= w && w as u64 <= n && bit(e, n - 1));
    let k = base.len();
    let size = 1usize << (w - 1);
    let mut tables: Vec<WindowTable<L>> = Vec::with_capacity(size);
    tables.push(h.try_window_table(base)?);
    if size > 1 {
        let mut square = vec![L::ZERO; k];
        h.sqr_paper(&mut square, base, scratch);
        let square_table = h.try_window_table(&square)?;
        let mut power = vec![L::ZERO; k];
        for j in 1..size {
            h.mul_by_table(&mut power, tables[j - 1].multiplicand(k), &square_table, scratch);
            tables.push(h.try_window_table(&power)?);
        }
    }

    let window = |top: u64| odd_window(e, top, w);

    let (low, value) = window(n - 1);
    let mut acc = tables[value >> 1].multiplicand(k).to_vec();
    let mut tmp = vec![L::ZERO; k];
    let mut remaining = low;
    while remaining > 0 {
        let top = remaining - 1;
        if !bit(e, top) {
            square_times(h, &mut acc, &mut tmp, 1, scratch);
            remaining = top;
            continue;
        }
        let (low, value) = window(top);
        square_times(h, &mut acc, &mut tmp, top - low + 1, scratch);
        h.mul_by_table(&mut tmp, &acc, &tables[value >> 1], scratch);
        core::mem::swap(&mut acc, &mut tmp);
        remaining = low;
    }
    Ok(acc)
}

/// Fixed 2^w-ary window (HAC 14.82): the tables of `base^j`, `1 ≤ j < 2^w`; even powers
/// by squaring, odd ones by the window multiplication with `base`'s table.
fn fixed<L: Limb>(
    h: &Hong<L>,
    base: &[L],
    e: &[L],
    n: u64,
    w: u32,
    scratch: &mut Scratch<L>,
) -> Result<Vec<L>, Error> {
    debug_assert!(n >= 1 && 1 <= w && w as u64 <= n);
    let k = base.len();
    let size = (1usize << w) - 1;
    let mut tables: Vec<WindowTable<L>> = Vec::with_capacity(size);
    tables.push(h.try_window_table(base)?);
    let mut power = vec![L::ZERO; k];
    for j in 2..=size {
        if j % 2 == 0 {
            h.sqr_paper(&mut power, tables[j / 2 - 1].multiplicand(k), scratch);
        } else {
            h.mul_by_table(&mut power, tables[j - 2].multiplicand(k), &tables[0], scratch);
        }
        tables.push(h.try_window_table(&power)?);
    }

    let d = n.div_ceil(w as u64);
    let top = bits_at(e, (d - 1) * w as u64, w);
    debug_assert!(top != 0);
    let mut acc = tables[top - 1].multiplicand(k).to_vec();
    let mut tmp = vec![L::ZERO; k];
    for i in (0..d - 1).rev() {
        square_times(h, &mut acc, &mut tmp, w as u64, scratch);
        let digit = bits_at(e, i * w as u64, w);
        if digit != 0 {
            h.mul_by_table(&mut tmp, &acc, &tables[digit - 1], scratch);
            core::mem::swap(&mut acc, &mut tmp);
        }
    }
    Ok(acc)
}
