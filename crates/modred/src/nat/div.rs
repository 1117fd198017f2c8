//! Division with remainder: Knuth's Algorithm D (TAOCP vol. 2, §4.3.1), in the form
//! paper 000 gives as Algorithm 1 (the quotient digit estimated from the three leading
//! digits of the dividend and the two leading digits of the divisor).

use super::Nat;
use crate::kernels;
use crate::limb::Limb;
use alloc::vec;
use core::cmp::Ordering;

/// Line 1 of Algorithm 1, the start of both divisions below: zeroes the quotient (when
/// given, `l − k + 1` digits) and makes the leading `k` digits of `x` smaller than `m`.
fn top_step<L: Limb>(x: &mut [L], m: &[L], mut quotient: Option<&mut [L]>) {
    let (k, l) = (m.len(), x.len());
    if let Some(q) = quotient.as_deref_mut() {
        debug_assert_eq!(q.len(), l - k + 1);
        q.fill(L::ZERO);
    }
    if kernels::cmp_n(&x[l - k..], m) != Ordering::Less {
        kernels::sub_assign_n(&mut x[l - k..], m);
        if let Some(q) = quotient {
            q[l - k] = L::ONE;
        }
    }
}

/// Reduces `x` modulo a normalized `m` in place (paper 000, Algorithm 1).
///
/// `m` has `k ≥ 1` digits and its top bit set (`m[k−1] ≥ b/2`); `x` has `l ≥ k` digits.
/// On return `x[..k]` holds `x mod m` and `x[k..]` is zero. When `quotient` is given it
/// must have `l − k + 1` digits and receives `x div m`.
///
/// Each of the `l − k` steps costs one digit division, two digit multiplications for the
/// first test of the estimate (the test `q·(m_{k−1}b + m_{k−2}) > x_i b² + x_{i−1}b +
/// x_{i−2}` is evaluated by two digit products; each further correction subtracts instead
/// of multiplying again) and `k` multiplications for `x −= q·m·b^(i−k)`.
///
/// Why the estimate is at most one too large after the test: Knuth, Theorem 4.3.1B and
/// exercise 4.3.1-20; the rare excess is repaired by adding `m` back once.
pub(crate) fn rem_normalized<L: Limb>(x: &mut [L], m: &[L], mut quotient: Option<&mut [L]>) {
    let (k, l) = (m.len(), x.len());
    debug_assert!(k >= 1 && l >= k && m[k - 1].leading_zeros() == 0);
    top_step(x, m, quotient.as_deref_mut());
    let m1 = m[k - 1];
    let m2 = if k >= 2 { m[k - 2] } else { L::ZERO };
    for i in (k..l).rev() {
        let (xi, xi1) = (x[i], x[i - 1]);
        let xi2 = if i >= 2 { x[i - 2] } else { L::ZERO };
        let mut q = if xi == m1 { L::MAX } else { L::div_wide(xi, xi1, m1).0 };
        // p = q·(m1·b + m2) as three digits, compared with (xi, xi1, xi2).
        let (p0, c0) = q.widening_mul(m2);
        let (lo, hi) = q.widening_mul(m1);
        let (mut p1, c1) = c0.carrying_add(lo, false);
        let mut p2 = hi.wrapping_add(if c1 { L::ONE } else { L::ZERO });
        let mut p0 = p0;
        while (p2, p1, p0) > (xi, xi1, xi2) {
            q = q.wrapping_sub(L::ONE);
            let (d0, b0) = p0.borrowing_sub(m2, false);
            let (d1, b1) = p1.borrowing_sub(m1, b0);
            p0 = d0;
            p1 = d1;
            p2 = p2.wrapping_sub(if b1 { L::ONE } else { L::ZERO });
        }
        if q.is_zero() {
            // A zero quotient digit is a void step (paper 000 §4): the window is already
            // below m, so x_i is zero and nothing needs subtracting.
            debug_assert!(x[i].is_zero());
            continue;
        }
        // x −= q·m·b^(i−k); add m back if that went below zero.
        let borrow = kernels::submul_1(&mut x[i - k..i], m, q);
        let (top, negative) = x[i].borrowing_sub(borrow, false);
        x[i] = top;
        if negative {
            q = q.wrapping_sub(L::ONE);
            let c = kernels::add_assign_n(&mut x[i - k..i], m);
            x[i] = x[i].wrapping_add(if c { L::ONE } else { L::ZERO });
        }
        debug_assert!(x[i].is_zero());
        if let Some(qs) = quotient.as_deref_mut() {
            qs[i - k] = q;
        }
    }
}

/// The reciprocal of a normalized two-digit divisor `d = d1·b + d0` (`d1 ≥ b/2`) for
/// [`div_3by2`]: `v = ⌊(b³ − 1)/d⌋ − b`, a digit (Möller and Granlund, "Improved division
/// by invariant integers", IEEE Trans. Computers 60(2), 2011, Algorithm 6; GMP's
/// `invert_pi1`). Precalculation: one double-digit division and a few digit operations.
pub(crate) fn reciprocal_3by2<L: Limb>(d1: L, d0: L) -> L {
    debug_assert!(d1.leading_zeros() == 0);
    // v = ⌊(b² − 1)/d1⌋ − b, the reciprocal of d1 alone, through double-width integers.
    let b_minus_1 = L::MAX.to_u64() as u128;
    let wide = ((b_minus_1 - d1.to_u64() as u128) << L::BITS) | b_minus_1;
    let mut v = L::from_u64((wide / d1.to_u64() as u128) as u64);
    // Step it down for d0 (at most three times; the paper's Algorithm 6).
    let mut p = d1.wrapping_mul(v).wrapping_add(d0);
    if p < d0 {
        v = v.wrapping_sub(L::ONE);
        if p >= d1 {
            v = v.wrapping_sub(L::ONE);
            p = p.wrapping_sub(d1);
        }
        p = p.wrapping_sub(d1);
    }
    let (t0, t1) = d0.widening_mul(v);
    let p2 = p.wrapping_add(t1);
    if p2 < t1 {
        v = v.wrapping_sub(L::ONE);
        if p2 > d1 || (p2 == d1 && t0 >= d0) {
            v = v.wrapping_sub(L::ONE);
        }
    }
    v
}

/// `(u2·b² + u1·b + u0) divmod (d1·b + d0)` for `(u2, u1) < (d1, d0)` and a normalized
/// divisor, with `v` from [`reciprocal_3by2`]: returns `(q, r1, r0)`, the quotient digit
/// and the two-digit remainder. Two digit multiplications and a few additions, no
/// division and no data-dependent branch but a rare final correction (Möller and
/// Granlund 2011, Algorithm 5; GMP's `udiv_qr_3by2`).
#[inline(always)]
pub(crate) fn div_3by2<L: Limb>(u2: L, u1: L, u0: L, d1: L, d0: L, v: L) -> (L, L, L) {
    debug_assert!((u2, u1) < (d1, d0));
    // (q1, q0) = v·u2 + (u2, u1): the quotient estimate and its fraction.
    let (q0, q1) = v.widening_mul(u2);
    let (q0, c) = q0.carrying_add(u1, false);
    let (q1, _) = q1.carrying_add(u2, c);
    // (r1, r0) = (u1 − q1·d1, u0) − q1·d0 − d, modulo b².
    let r1 = u1.wrapping_sub(q1.wrapping_mul(d1));
    let (t0, t1) = d0.widening_mul(q1);
    let (r0, br) = u0.borrowing_sub(t0, false);
    let (r1, _) = r1.borrowing_sub(t1, br);
    let (r0, br) = r0.borrowing_sub(d0, false);
    let (r1, _) = r1.borrowing_sub(d1, br);
    let q = q1.wrapping_add(L::ONE);
    // The estimate q is one too large when r1 ≥ q0: undo one subtraction of d, by masks
    // (this case is close to a coin toss, so a branch would be mispredicted).
    let mask = L::ZERO.wrapping_sub(L::from_u64((r1 >= q0) as u64));
    let q = q.wrapping_add(mask);
    let (r0, c) = r0.carrying_add(mask.and(d0), false);
    let (r1, _) = r1.carrying_add(mask.and(d1), c);
    // Rarely, one too small.
    if (r1, r0) >= (d1, d0) {
        let (r0, br) = r0.borrowing_sub(d0, false);
        let (r1, _) = r1.borrowing_sub(d1, br);
        return (q.wrapping_add(L::ONE), r1, r0);
    }
    (q, r1, r0)
}

/// [`rem_normalized`] with the quotient digits computed by [`div_3by2`] from the
/// precomputed reciprocal `v = reciprocal_3by2(m[k−1], m[k−2])` instead of a digit
/// division and the estimate's test: the same quotient digits and remainder (the 3-by-2
/// quotient of the three leading digits by the two leading digits of `m` is exactly
/// Algorithm 1's corrected estimate), with the division taken off the chain of dependent
/// operations that links one step to the next. `m` has `k ≥ 2` digits.
///
/// The classical reducer uses it for the native digit types; the op-counting digit keeps
/// [`rem_normalized`], so the counts stay those of paper 000's Algorithm 1.
pub(crate) fn rem_normalized_pi1<L: Limb>(
    x: &mut [L],
    m: &[L],
    v: L,
    mut quotient: Option<&mut [L]>,
) {
    let (k, l) = (m.len(), x.len());
    debug_assert!(k >= 2 && l >= k && m[k - 1].leading_zeros() == 0);
    top_step(x, m, quotient.as_deref_mut());
    let (d1, d0) = (m[k - 1], m[k - 2]);
    for i in (k..l).rev() {
        let (u2, u1, u0) = (x[i], x[i - 1], x[i - 2]);
        if u2.is_zero() && (u1, u0) < (d1, d0) {
            // The three leading digits are below m's two: the quotient digit is zero, a
            // void step (paper 000 §4, as in `rem_normalized`). Nothing to divide or
            // subtract; this costs one comparison, so an argument whose quotient has zero
            // digits (Figure 2) is reduced faster, as in the paper.
            if let Some(qs) = quotient.as_deref_mut() {
                qs[i - k] = L::ZERO;
            }
            continue;
        }
        let q = if u2 == d1 && u1 == d0 {
            // Outside the 3-by-2 division's domain; the window x[i−k..=i] is below m·b
            // and at least (d1, d0)·b^(k−1), so the quotient digit is b − 1.
            let borrow = kernels::submul_1(&mut x[i - k..i], m, L::MAX);
            debug_assert!(u2 == borrow);
            x[i] = L::ZERO;
            L::MAX
        } else {
            let (mut q, r1, r0) = div_3by2(u2, u1, u0, d1, d0, v);
            // The two leading digits of the remainder are (r1, r0) before the low k − 2
            // digits of q·m are subtracted; their borrow comes off (r1, r0).
            let cy = if k > 2 {
                kernels::submul_1(&mut x[i - k..i - 2], &m[..k - 2], q)
            } else {
                L::ZERO
            };
            let (r0, br) = r0.borrowing_sub(cy, false);
            let (r1, negative) = r1.borrowing_sub(L::ZERO, br);
            x[i - 2] = r0;
            x[i - 1] = r1;
            x[i] = L::ZERO;
            if negative {
                // q was one too large for the whole of m: add m back (its carry out
                // cancels the borrow).
                q = q.wrapping_sub(L::ONE);
                let c = kernels::add_assign_n(&mut x[i - k..i], m);
                debug_assert!(c);
            }
            q
        };
        if let Some(qs) = quotient.as_deref_mut() {
            qs[i - k] = q;
        }
    }
}

/// Algorithm D on a normalized `m` as [`rem_normalized`], by [`rem_normalized_pi1`] (no
/// digit division) where the digit type divides by reciprocals and `m` has two digits or
/// more: what [`Nat::div_rem`] and the recursive division's base case run.
pub(crate) fn rem_normalized_fastest<L: Limb>(x: &mut [L], m: &[L], quotient: Option<&mut [L]>) {
    let k = m.len();
    if L::DIVIDE_BY_RECIPROCAL && k >= 2 {
        let v = reciprocal_3by2(m[k - 1], m[k - 2]);
        rem_normalized_pi1(x, m, v, quotient);
    } else {
        rem_normalized(x, m, quotient);
    }
}

/// `(x div d, x mod d)` for an `n`-digit `d` and an `x` of any length, by schoolbook
/// division in blocks of `n` digits from the top: each step divides the remainder so far
/// (below `d`) followed by the next block — a number below `d·b^n` — by `step`, which
/// returns that quotient (at most a block long) and remainder. The long-dividend case of
/// the Newton and the recursive division.
pub(crate) fn by_blocks<L: Limb>(
    x: &Nat<L>,
    n: usize,
    mut step: impl FnMut(&Nat<L>) -> (Nat<L>, Nat<L>),
) -> (Nat<L>, Nat<L>) {
    let (xs, l) = (x.limbs(), x.len());
    let mut q = vec![L::ZERO; l + 1];
    let mut r = Nat::zero();
    for i in (0..l.div_ceil(n)).rev() {
        let (lo, hi) = (i * n, ((i + 1) * n).min(l));
        let mut y = xs[lo..hi].to_vec();
        y.extend_from_slice(r.limbs());
        let (qi, ri) = step(&Nat::from_vec(y));
        debug_assert!(qi.len() <= hi - lo);
        q[lo..lo + qi.len()].copy_from_slice(qi.limbs());
        r = ri;
    }
    (Nat::from_vec(q), r)
}

/// Digits of the divisor and of the quotient from which [`Nat::div_rem`] divides by the
/// recursive division ([`Nat::div_rem_recursive`]) instead of Algorithm D. Measured with
/// `cargo run --release -p modred --example calibrate_div` (all three divisions
/// interleaved in one process, `2n`-digit dividends; docs/tuning.md), Knuth/recursive
/// time 1.1 at 256 digits and 1.4 at 512 on Intel Xeon with AVX-512 IFMA, 0.9 and 1.2 with
/// IFMA hidden. The Newton division was slower than the recursive one at every size
/// measured, up to 2^24 bits, so `div_rem` does not take it.
pub const DIV_RECURSIVE_THRESHOLD: usize = 256;

impl<L: Limb> Nat<L> {
    /// `(self div d, self mod d)`, or `None` when `d` is zero: Knuth's Algorithm D
    /// ([`Nat::div_rem_knuth`]) when the divisor or the quotient is shorter than
    /// [`DIV_RECURSIVE_THRESHOLD`] digits, the recursive division
    /// ([`Nat::div_rem_recursive`]) otherwise.
    pub fn div_rem(&self, d: &Self) -> Option<(Self, Self)> {
        if d.is_zero() {
            return None;
        }
        if d.len() == 1 && !L::PAPER_FORM {
            return Some(self.div_rem_digit(d.limbs()[0]));
        }
        let q_len = (self.len() + 1).saturating_sub(d.len());
        let short = d.len().min(q_len);
        if L::PAPER_FORM || short < DIV_RECURSIVE_THRESHOLD {
            self.div_rem_knuth(d)
        } else {
            self.div_rem_recursive(d)
        }
    }

    /// `(self div d, self mod d)` by recursive division (Burnikel and Ziegler; see
    /// `nat/recursive_div.rs`): about two products' work per level of halving, `O(K(n))`
    /// for Karatsuba products. `None` when `d` is zero.
    pub fn div_rem_recursive(&self, d: &Self) -> Option<(Self, Self)> {
        self.div_rem_recursive_with(d, super::recursive_div::BASECASE)
    }

    /// [`Nat::div_rem_recursive`] with the recursion going down to quotients of
    /// `basecase` digits before Algorithm D takes over — for tests.
    #[doc(hidden)]
    pub fn div_rem_recursive_with(&self, d: &Self, basecase: usize) -> Option<(Self, Self)> {
        if d.is_zero() {
            return None;
        }
        let s = d.limbs().last().map_or(0, |t| t.leading_zeros()) as u64;
        let (q, r) = super::recursive_div::div_rem_normalized(&self.shl(s), &d.shl(s), basecase);
        Some((q, r.shr(s)))
    }

    /// `(self div d, self mod d)` by a Newton reciprocal of `d` (see
    /// `nat/newton.rs`): `O(M(n))` for `n`-digit operands, where `M` is the cost of a
    /// product. `None` when `d` is zero. Asymptotically ahead of the recursive division's
    /// `O(M(n) log n)`, but about 1.5–2 times slower than it at every size measured up to
    /// 2^24 bits (`calibrate_div`): the reference it is tested against.
    pub fn div_rem_newton(&self, d: &Self) -> Option<(Self, Self)> {
        self.div_rem_newton_with(d, super::newton::RECIPROCAL_BASECASE)
    }

    /// [`Nat::div_rem_newton`] with the recursion of the reciprocal going down to
    /// `basecase` digits (at least 4) before Algorithm D takes over — for tests.
    #[doc(hidden)]
    pub fn div_rem_newton_with(&self, d: &Self, basecase: usize) -> Option<(Self, Self)> {
        if d.is_zero() {
            return None;
        }
        if self < d {
            return Some((Nat::zero(), self.clone()));
        }
        let s = d.limbs().last().map_or(0, |t| t.leading_zeros()) as u64;
        let (q, r) = super::newton::div_rem_normalized(&self.shl(s), &d.shl(s), basecase);
        Some((q, r.shr(s)))
    }

    /// `⌊b^(2k)/self⌋` for `k = self.len()` — Barrett's `μ` — by [`Nat::div_rem`] (the
    /// Newton reciprocal measured no faster, 0.95–1.1 times its time from 4096 digits to
    /// 2^24 bits). `None` for zero.
    pub fn floor_b2k_div(&self) -> Option<Self> {
        if self.is_zero() {
            return None;
        }
        if self.len() < DIV_RECURSIVE_THRESHOLD {
            let mut q = vec![L::ZERO; self.len() + 2];
            self.b2k_by_knuth(Some(&mut q));
            return Some(Nat::from_vec(q));
        }
        Some(&Nat::power_of_two(2 * self.len() as u64 * L::BITS as u64) / self)
    }

    /// `b^(2k) mod self` for `k = self.len()` — Montgomery's `R² mod m` — as
    /// [`Nat::floor_b2k_div`]. `None` for zero.
    pub(crate) fn b2k_rem(&self) -> Option<Self> {
        if self.is_zero() {
            return None;
        }
        if self.len() < DIV_RECURSIVE_THRESHOLD {
            let (r, s) = self.b2k_by_knuth(None);
            return Some(Nat::from_vec(r).shr(s as u64));
        }
        Nat::power_of_two(2 * self.len() as u64 * L::BITS as u64).checked_rem(self)
    }

    /// `b^(2k) mod self` by Algorithm D ([`rem_normalized_fastest`]), shifted left by `s`
    /// bits (`self`'s top digit's leading zeros), and `s`; the quotient into `quotient`
    /// (`k + 2` digits) when given; for a nonzero `self` of `k` digits. The dividend is
    /// written already shifted, one digit `2^s` above `2k` zeros, where the general
    /// division would make `b^(2k)` and then shift it; a normalized `self` is not copied.
    fn b2k_by_knuth(&self, quotient: Option<&mut [L]>) -> (alloc::vec::Vec<L>, u32) {
        let k = self.len();
        let s = self.limbs()[k - 1].leading_zeros();
        let shifted;
        let v = if s == 0 {
            self.limbs()
        } else {
            shifted = self.shl(s as u64);
            shifted.limbs()
        };
        let mut u = vec![L::ZERO; 2 * k + 1];
        u[2 * k] = L::ONE.shl(s);
        rem_normalized_fastest(&mut u, v, quotient);
        u.truncate(k);
        (u, s)
    }

    /// [`Nat::floor_b2k_div`] by the Newton reciprocal at every size, its recursion going
    /// down to `basecase` digits (at least 4) — for tests.
    #[doc(hidden)]
    pub fn floor_b2k_div_newton_with(&self, basecase: usize) -> Option<Self> {
        (!self.is_zero()).then(|| super::newton::floor_b2k_div(self, basecase))
    }

    /// `(self div d, self mod d)` by Knuth's Algorithm D, `O(n²)`; `None` when `d` is zero.
    pub fn div_rem_knuth(&self, d: &Self) -> Option<(Self, Self)> {
        if d.is_zero() {
            return None;
        }
        if self < d {
            return Some((Nat::zero(), self.clone()));
        }
        let s = d.limbs().last().map_or(0, |t| t.leading_zeros());
        let v = d.shl(s as u64);
        let mut u = self.shl(s as u64).into_limbs();
        if u.len() < v.len() {
            u.resize(v.len(), L::ZERO);
        }
        let mut q = vec![L::ZERO; u.len() - v.len() + 1];
        rem_normalized_fastest(&mut u, v.limbs(), Some(&mut q));
        u.truncate(v.len());
        Some((Nat::from_vec(q), Nat::from_vec(u).shr(s as u64)))
    }

    /// `(self div d, self mod d)` for one nonzero digit `d`: short division, a two-by-one
    /// digit division per digit from the top (Knuth, TAOCP vol. 2, §4.3.1, exercise 16).
    fn div_rem_digit(&self, d: L) -> (Self, Self) {
        let mut q = vec![L::ZERO; self.len()];
        let mut r = L::ZERO;
        for (qi, &u) in q.iter_mut().zip(self.limbs()).rev() {
            // r < d, so the quotient digit fits.
            (*qi, r) = L::div_wide(r, u, d);
        }
        (Nat::from_vec(q), Nat::from_vec(vec![r]))
    }

    /// `self mod d`, or `None` when `d` is zero.
    pub fn checked_rem(&self, d: &Self) -> Option<Self> {
        self.div_rem(d).map(|(_, r)| r)
    }
}

/// Division as for the primitive unsigned integers: it panics on a zero divisor. Use
/// [`Nat::div_rem`] where the divisor can be zero.
impl<L: Limb> core::ops::Rem for &Nat<L> {
    type Output = Nat<L>;
    fn rem(self, rhs: &Nat<L>) -> Nat<L> {
        self.checked_rem(rhs).expect("Nat division by zero")
    }
}

/// Division as for the primitive unsigned integers: it panics on a zero divisor.
impl<L: Limb> core::ops::Div for &Nat<L> {
    type Output = Nat<L>;
    fn div(self, rhs: &Nat<L>) -> Nat<L> {
        self.div_rem(rhs).expect("Nat division by zero").0
    }
}
