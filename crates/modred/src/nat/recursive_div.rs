//! Division by recursion on the halves of the quotient: Burnikel and Ziegler's recursive
//! division, in the form of Brent and Zimmermann (*Modern Computer Arithmetic*, §1.4.3,
//! Algorithm 1.8 `RecursiveDivRem`). A `2n`-by-`n`-digit division becomes two `n`-by-
//! `n/2`-digit divisions and two `n/2 × n/2` products, so it costs about `2·K(n)` for
//! products of cost `K(n)` (Karatsuba's or the transforms') instead of Algorithm D's `n²`
//! digit steps. [`Nat::div_rem`] takes it from a few hundred digits; it measured faster
//! than the Newton reciprocal ([`super::newton`]) at every size up to 2^24 bits.

use super::div::rem_normalized_fastest;
use super::Nat;
use crate::limb::Limb;
use alloc::vec;
use alloc::vec::Vec;

/// Digits of the quotient below which the recursion hands the division to Algorithm D:
/// 160 measured fastest of 40, 80, 160 and 320 from 256 to 32768 digits (Intel Xeon,
/// with and without IFMA; docs/tuning.md).
pub(crate) const BASECASE: usize = 160;

/// `(x div d, x mod d)` for a normalized `d` (`n ≥ 1` digits, the top bit of the top digit
/// set) and any `x`: one [`recursive`] division up to `2n` digits, else blocks of `n`
/// digits of `x` from the top ([`super::div::by_blocks`]), each a `2n`-by-`n`-digit one.
pub(crate) fn div_rem_normalized<L: Limb>(
    x: &Nat<L>,
    d: &Nat<L>,
    basecase: usize,
) -> (Nat<L>, Nat<L>) {
    let n = d.len();
    debug_assert!(n >= 1 && d.limbs()[n - 1].leading_zeros() == 0, "d must be normalized");
    if x.len() <= 2 * n {
        return recursive(x, d, basecase);
    }
    super::div::by_blocks(x, n, |y| recursive(y, d, basecase))
}

/// `(a div b, a mod b)` for a normalized `b` of `n` digits and `a` of at most `2n` digits
/// (Algorithm 1.8 of Brent and Zimmermann).
///
/// With `m = len(a) − n ≤ n` and `k = ⌊m/2⌋`, split `b = b1·β^k + b0`. The top `m − k`
/// quotient digits come from `a div β^(2k)` divided by `b1` (a division of the same shape,
/// `n − k` digits by `m − k ≤ n − k`), corrected by the product `q1·b0`; the low `k` from
/// the remainder the same way. Because `b1` is normalized, each estimate is at most two
/// too large (MCA, the proof of Theorem 1.4), which the loops add back; debug builds check
/// the count. Quotients of `m + 1` digits (`a ≥ b·β^m`) are allowed at every level.
fn recursive<L: Limb>(a: &Nat<L>, b: &Nat<L>, basecase: usize) -> (Nat<L>, Nat<L>) {
    let n = b.len();
    if a < b {
        return (Nat::zero(), a.clone());
    }
    let m = a.len() - n;
    debug_assert!(m <= n);
    if m < basecase.max(2) {
        return knuth(a, b);
    }
    let k = m / 2;
    let (bs, as_) = (b.limbs(), a.limbs());
    let b1 = Nat::from_limbs(&bs[k..]);
    let b0 = Nat::from_limbs(&bs[..k]);

    let (mut q1, r1) = recursive(&Nat::from_limbs(&as_[2 * k..]), &b1, basecase);
    // a' = r1·β^(2k) + (a mod β^(2k)) − q1·b0·β^k, brought into [0, b·β^k).
    let mut p = join(&as_[..2 * k], 2 * k, &r1);
    let t = shifted(&q1.mul(&b0), k);
    let bk = shifted(b, k);
    let mut steps = 0;
    while p < t {
        p = p.add(&bk);
        q1 = &q1 - &Nat::one();
        steps += 1;
    }
    debug_assert!(steps <= 2, "recursive division: {steps} corrections");
    let a1 = &p - &t;

    let low = a1.limbs().get(..k).unwrap_or(a1.limbs());
    let high = Nat::from_limbs(a1.limbs().get(k..).unwrap_or(&[]));
    let (mut q0, r0) = recursive(&high, &b1, basecase);
    // a'' = r0·β^k + (a' mod β^k) − q0·b0, brought into [0, b).
    let mut p = join(low, k, &r0);
    let t = q0.mul(&b0);
    let mut steps = 0;
    while p < t {
        p = p.add(b);
        q0 = &q0 - &Nat::one();
        steps += 1;
    }
    debug_assert!(steps <= 2, "recursive division: {steps} corrections");
    (shifted(&q1, k).add(&q0), &p - &t)
}

/// Algorithm D on a normalized divisor ([`rem_normalized_fastest`]).
fn knuth<L: Limb>(a: &Nat<L>, b: &Nat<L>) -> (Nat<L>, Nat<L>) {
    let mut u = a.limbs().to_vec();
    let mut q = vec![L::ZERO; u.len() - b.len() + 1];
    rem_normalized_fastest(&mut u, b.limbs(), Some(&mut q));
    u.truncate(b.len());
    (Nat::from_vec(q), Nat::from_vec(u))
}

/// `x·β^k`.
fn shifted<L: Limb>(x: &Nat<L>, k: usize) -> Nat<L> {
    x.shl(k as u64 * L::BITS as u64)
}

/// `high·β^width + low` for `low` of at most `width` digits.
fn join<L: Limb>(low: &[L], width: usize, high: &Nat<L>) -> Nat<L> {
    let mut v = Vec::with_capacity(width + high.len());
    v.extend_from_slice(low);
    v.resize(width, L::ZERO);
    v.extend_from_slice(high.limbs());
    Nat::from_vec(v)
}
