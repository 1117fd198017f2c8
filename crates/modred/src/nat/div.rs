//! Division with remainder: Knuth's Algorithm D (TAOCP vol. 2, §4.3.1), in the form
//! paper 000 gives as Algorithm 1 (the quotient digit estimated from the three leading
//! digits of the dividend and the two leading digits of the divisor).

use super::Nat;
use crate::kernels;
use crate::limb::Limb;
use core::cmp::Ordering;

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
    if let Some(q) = quotient.as_deref_mut() {
        debug_assert_eq!(q.len(), l - k + 1);
        q.fill(L::ZERO);
    }
    // Line 1 of Algorithm 1: make the leading k digits smaller than m.
    if kernels::cmp_n(&x[l - k..], m) != Ordering::Less {
        kernels::sub_assign_n(&mut x[l - k..], m);
        if let Some(q) = quotient.as_deref_mut() {
            q[l - k] = L::ONE;
        }
    }
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

/// Digits of the divisor and of the quotient from which [`Nat::div_rem`] divides by a
/// Newton reciprocal ([`Nat::div_rem_newton`]) instead of Algorithm D. Measured with
/// `cargo run --release -p modred --example calibrate_div` (both divisions interleaved in
/// one process, u64 digits, x86-64, on a shared 2-core machine under load; `2n`-digit
/// dividends): Knuth/Newton time ratio 0.30 at 512 digits, 0.43 at 1024, 0.49 at 2048,
/// 0.76 at 4096, 0.83 at 6144, 0.99 at 8192, 1.03 at 12288, 1.42 at 16384 — Newton's
/// four to six products only beat Algorithm D's `n²` steps once the products are
/// transform-based. Above the threshold the gap grows like `n/log n` (at 2^24 bits,
/// 262144 digits, Algorithm D takes over a minute).
pub const DIV_NEWTON_THRESHOLD: usize = 8192;

impl<L: Limb> Nat<L> {
    /// `(self div d, self mod d)`, or `None` when `d` is zero: Knuth's Algorithm D
    /// ([`Nat::div_rem_knuth`]) when the divisor or the quotient is shorter than
    /// [`DIV_NEWTON_THRESHOLD`] digits, division by a Newton reciprocal
    /// ([`Nat::div_rem_newton`]) otherwise.
    pub fn div_rem(&self, d: &Self) -> Option<(Self, Self)> {
        if d.is_zero() {
            return None;
        }
        let q_len = (self.len() + 1).saturating_sub(d.len());
        if d.len() >= DIV_NEWTON_THRESHOLD && q_len >= DIV_NEWTON_THRESHOLD {
            self.div_rem_newton(d)
        } else {
            self.div_rem_knuth(d)
        }
    }

    /// `(self div d, self mod d)` by a Newton reciprocal of `d` (see
    /// [`super::newton`]): `O(M(n))` for `n`-digit operands, where `M` is the cost of a
    /// product. `None` when `d` is zero.
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

    /// `⌊b^(2k)/self⌋` for `k = self.len()` — Barrett's `μ` — by a Newton reciprocal
    /// above [`DIV_NEWTON_THRESHOLD`] digits (one reciprocal, no division steps), by
    /// Algorithm D below. `None` for zero.
    pub fn floor_b2k_div(&self) -> Option<Self> {
        if self.is_zero() {
            return None;
        }
        if self.len() >= DIV_NEWTON_THRESHOLD {
            Some(super::newton::floor_b2k_div(self, super::newton::RECIPROCAL_BASECASE))
        } else {
            Some(&Nat::power_of_two(2 * self.len() as u64 * L::BITS as u64) / self)
        }
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
        rem_normalized(&mut u, v.limbs(), Some(&mut q));
        u.truncate(v.len());
        Some((Nat::from_vec(q), Nat::from_vec(u).shr(s as u64)))
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
