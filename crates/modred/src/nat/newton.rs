//! Division by a Newton-iteration reciprocal: `O(M(n))` work for an `n`-digit divisor
//! (`M(n)` = one `n × n` product, transform-based at large sizes), against the `O(n²)` of
//! Knuth's Algorithm D ([`super::div`]). It is what makes the precalculation of the
//! transform reducers (Barrett's `μ = b^(2k) div m`, Montgomery's `R² mod m`) and the
//! checks of `2^24`-bit and larger products practical.
//!
//! Three pieces, all on a **normalized** divisor `d` (`n` digits, top bit set):
//! - [`reciprocal`]: `V = ⌊b^(2n)/d⌋` (`b^n ≤ V ≤ 2b^n`), by the recursion
//!   "reciprocal of the top `h ≈ n/2` digits, then one Newton step, then an exact
//!   correction" (the scheme of Brent and Zimmermann, *Modern Computer Arithmetic*,
//!   §3.4.1, with the final correction made exact);
//! - [`barrett_step`]: `y div d` and `y mod d` for `y < b^(2n)` from `V` (Barrett's
//!   estimate, at most two corrections);
//! - [`div_rem_normalized`]: any dividend, by blocks of `n` quotient digits, or — when
//!   the quotient is shorter than the divisor — by dividing only the leading digits
//!   first and correcting with one product.

use super::Nat;
use crate::limb::Limb;

/// Divisor digits below which [`reciprocal`] divides `b^(2n)` by Knuth's Algorithm D
/// instead of recursing: Algorithm D's `n²` digit steps cost less than the recursion's
/// four to five products up to a few dozen digits. Any value `≥ 4` is correct (the
/// recursion needs `h < n`); tests run the recursion down to 4 digits.
pub(crate) const RECIPROCAL_BASECASE: usize = 32;

/// `(⌊b^(2n)/d⌋, b^(2n) mod d)` for a normalized `d` of `n ≥ 1` digits (the top bit of
/// the top digit set); the quotient has `n + 1` digits at most.
///
/// # Why it is exact, and why it is fast
/// For `n ≤ basecase` it is Algorithm D. Otherwise let `h = ⌊n/2⌋ + 2 < n`,
/// `d_h = d div b^(n−h)` (normalized, `h` digits) and `Y = ⌊b^(2h)/d_h⌋` (recursively,
/// exact). `X0 = Y·b^(n−h)` approximates `V* = b^(2n)/d` with relative error
/// `|X0/V* − 1| < 2b^(1−h)`: `X0/V* = Y·d/b^(n+h)` and
/// `d_h·b^(n−h) ≤ d < (d_h + 1)·b^(n−h)`, `b^(2h)/d_h − 1 < Y ≤ b^(2h)/d_h`,
/// `d_h ≥ b^h/2`. One Newton step for `1/d`,
/// `X1 = X0 + X0·(b^(2n) − d·X0)/b^(2n) = Y·b^(n−h) + Y·E/b^(2h)` with
/// `E = b^(n+h) − d·Y` (of either sign, `|E| < 2b^(n+1)`), satisfies
/// `V* − X1 = V*·(X0/V* − 1)² ∈ [0, 8b^(n+2−2h)) ⊂ [0, 8/b)` in exact arithmetic
/// (`f(X) = X(2 − dX/b^(2n))` has its maximum `V*` at `X = V*`). Rounding `Y·E/b^(2h)`
/// down (`E ≥ 0`: floor; `E < 0`: the negated ceiling) loses less than 1 more, so the
/// integer `X1` satisfies `V* − 1 − 8/b < X1 ≤ V*`. Hence `X1 ≤ ⌊V*⌋ ≤ X1 + 2`:
/// `R = b^(2n) − d·X1` is never negative and at most two steps `X1 += 1, R −= d` make
/// `R < d` (checked in debug builds). Cost: `d·Y` and `Y·E` (`n × n/2` digits each) and
/// the `n × n` correction product, plus the recursion at half the size — about four
/// `n × n` products in all.
pub(crate) fn reciprocal<L: Limb>(d: &Nat<L>, basecase: usize) -> (Nat<L>, Nat<L>) {
    let n = d.len();
    debug_assert!(n >= 1 && d.limbs()[n - 1].leading_zeros() == 0, "d must be normalized");
    let w = L::BITS as u64;
    if n <= basecase.max(4) {
        let top = Nat::power_of_two(2 * n as u64 * w);
        return top.div_rem_knuth(d).unwrap_or_default();
    }
    let h = n / 2 + 2;
    let dh = Nat::from_limbs(&d.limbs()[n - h..]);
    let (y, _) = reciprocal(&dh, basecase);
    let dy = d.mul(&y);
    let bnh = Nat::power_of_two((n + h) as u64 * w);
    let x0 = y.shl((n - h) as u64 * w);
    let shift = 2 * h as u64 * w;
    let mut x1 = if dy <= bnh {
        let e = &bnh - &dy;
        x0.add(&y.mul(&e).shr(shift))
    } else {
        let e = &dy - &bnh;
        let t = y.mul(&e);
        // ⌈t / b^(2h)⌉
        let mut c = t.shr(shift);
        if !t.low_bits(shift).is_zero() {
            c = c.add(&Nat::one());
        }
        x0.checked_sub(&c).unwrap_or_default()
    };
    let top = Nat::power_of_two(2 * n as u64 * w);
    let mut r = top.checked_sub(&d.mul(&x1)).expect("Newton step overshot (see the proof)");
    let mut steps = 0u32;
    while r >= *d {
        r = &r - d;
        x1 = x1.add(&Nat::one());
        steps += 1;
    }
    debug_assert!(steps <= 2, "reciprocal: {steps} corrections");
    (x1, r)
}

/// `⌊b^(2k)/m⌋` for any `m ≥ 1` of `k` digits (Barrett's `μ`): the reciprocal of the
/// normalized `d = m·2^s` (`s < w`), then `⌊2^s·b^(2k)/d⌋ = 2^s·V + ⌊2^s·R/d⌋` with
/// `(V, R)` = ([`reciprocal`] of `d`) — the last quotient is below `2^s < b`, one digit.
pub(crate) fn floor_b2k_div<L: Limb>(m: &Nat<L>, basecase: usize) -> Nat<L> {
    let s = m.limbs().last().map_or(0, |t| t.leading_zeros()) as u64;
    let d = m.shl(s);
    let (v, r) = reciprocal(&d, basecase);
    if s == 0 {
        return v;
    }
    let (q, _) = r.shl(s).div_rem_knuth(&d).unwrap_or_default();
    v.shl(s).add(&q)
}

/// `(y div d, y mod d)` for `y < b^(2n)`, `d` of `n` digits (normalized or not) and
/// `v = ⌊b^(2n)/d⌋` (Barrett; HAC Algorithm 14.42): `q̂ = ⌊⌊y/b^(n−1)⌋·v / b^(n+1)⌋`
/// satisfies `q − 2 ≤ q̂ ≤ q`, so `y − q̂·d ∈ [0, 3d)` and at most two subtractions of
/// `d` finish (checked in debug builds).
pub(crate) fn barrett_step<L: Limb>(y: &Nat<L>, d: &Nat<L>, v: &Nat<L>) -> (Nat<L>, Nat<L>) {
    let n = d.len() as u64;
    let w = L::BITS as u64;
    debug_assert!(y.bits() <= 2 * n * w);
    let q1 = y.shr((n - 1) * w);
    let mut q = q1.mul(v).shr((n + 1) * w);
    let mut r = y.checked_sub(&q.mul(d)).expect("Barrett's estimate is never too large");
    let mut steps = 0u32;
    while r >= *d {
        r = &r - d;
        q = q.add(&Nat::one());
        steps += 1;
    }
    debug_assert!(steps <= 2, "barrett_step: {steps} corrections");
    (q, r)
}

/// `(x div d, x mod d)` for a normalized `d` (`n ≥ 1` digits) and any `x`.
///
/// - `x` of at most `2n` digits with a quotient of `q_len = l − n + 1` digits where
///   `q_len + 1 < n`: divide the leading digits first. With `s = n − q_len − 1`,
///   `d' = d div b^s` (`q_len + 1` digits, normalized) and `x' = x div b^s` (at most
///   `2·q_len` digits), `q' = x' div d'` satisfies `q ≤ q' ≤ q + 4`:
///   `x/d < (x' + 1)/d'` gives `q ≤ q'`, and `q' − x/d ≤ x'/d' − x'/(d' + 1)
///   < (q' + 1)/(d' + 1) < 4 + 1/d'` with `q' < 2b^(q_len)`, `d' ≥ b^(q_len)/2`. One
///   `q_len × n` product `q'·d` and at most four subtractions of `d` finish (checked in
///   debug builds). This costs `O(M(q_len))` plus that product instead of a reciprocal of
///   `d` itself.
/// - Otherwise with `V = ⌊b^(2n)/d⌋` ([`reciprocal`]): one [`barrett_step`] if
///   `l ≤ 2n`, else one per block of `n` digits of `x`, from the top (the remainder so
///   far, below `d`, followed by the next block is below `d·b^n ≤ b^(2n)`).
pub(crate) fn div_rem_normalized<L: Limb>(
    x: &Nat<L>,
    d: &Nat<L>,
    basecase: usize,
) -> (Nat<L>, Nat<L>) {
    let n = d.len();
    debug_assert!(n >= 1 && d.limbs()[n - 1].leading_zeros() == 0, "d must be normalized");
    if x < d {
        return (Nat::zero(), x.clone());
    }
    let w = L::BITS as u64;
    let l = x.len();
    if l <= 2 * n {
        let q_len = l - n + 1;
        if q_len + 1 < n {
            let s = (n - q_len - 1) as u64 * w;
            let (dp, xp) = (d.shr(s), x.shr(s));
            let (mut q, _) = div_rem_normalized(&xp, &dp, basecase);
            let mut qd = q.mul(d);
            let mut steps = 0u32;
            while qd > *x {
                qd = &qd - d;
                q = &q - &Nat::one();
                steps += 1;
            }
            debug_assert!(steps <= 4, "short quotient: {steps} corrections");
            let r = x - &qd;
            return (q, r);
        }
        let (v, _) = reciprocal(d, basecase);
        return barrett_step(x, d, &v);
    }
    let (v, _) = reciprocal(d, basecase);
    super::div::by_blocks(x, n, |y| barrett_step(y, d, &v))
}
