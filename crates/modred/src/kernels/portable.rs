//! Portable kernels: the reference every specialised kernel is tested against, and the
//! only kernels for `u8`, `u16`, `u32` and the counting limb. Written on the [`Limb`]
//! primitives so that [`crate::limb::Counted`] sees every digit operation.

use crate::limb::Limb;

pub(crate) fn add_n<L: Limb>(r: &mut [L], a: &[L], b: &[L]) -> bool {
    debug_assert!(r.len() == a.len() && a.len() == b.len());
    let mut c = false;
    for ((ri, &ai), &bi) in r.iter_mut().zip(a).zip(b) {
        let (s, c2) = ai.carrying_add(bi, c);
        *ri = s;
        c = c2;
    }
    c
}

pub(crate) fn add_assign_n<L: Limb>(a: &mut [L], b: &[L]) -> bool {
    debug_assert_eq!(a.len(), b.len());
    let mut c = false;
    for (ai, &bi) in a.iter_mut().zip(b) {
        let (s, c2) = ai.carrying_add(bi, c);
        *ai = s;
        c = c2;
    }
    c
}

pub(crate) fn sub_n<L: Limb>(r: &mut [L], a: &[L], b: &[L]) -> bool {
    debug_assert!(r.len() == a.len() && a.len() == b.len());
    let mut br = false;
    for ((ri, &ai), &bi) in r.iter_mut().zip(a).zip(b) {
        let (d, b2) = ai.borrowing_sub(bi, br);
        *ri = d;
        br = b2;
    }
    br
}

pub(crate) fn sub_assign_n<L: Limb>(a: &mut [L], b: &[L]) -> bool {
    debug_assert_eq!(a.len(), b.len());
    let mut br = false;
    for (ai, &bi) in a.iter_mut().zip(b) {
        let (d, b2) = ai.borrowing_sub(bi, br);
        *ai = d;
        br = b2;
    }
    br
}

pub(crate) fn add_1<L: Limb>(a: &mut [L], carry: L) -> bool {
    let mut c = carry;
    for ai in a.iter_mut() {
        if c.is_zero() {
            return false;
        }
        let (s, o) = ai.carrying_add(c, false);
        *ai = s;
        c = if o { L::ONE } else { L::ZERO };
    }
    !c.is_zero()
}

pub(crate) fn sub_1<L: Limb>(a: &mut [L], borrow: L) -> bool {
    let mut b = borrow;
    for ai in a.iter_mut() {
        if b.is_zero() {
            return false;
        }
        let (d, o) = ai.borrowing_sub(b, false);
        *ai = d;
        b = if o { L::ONE } else { L::ZERO };
    }
    !b.is_zero()
}

pub(crate) fn mul_1<L: Limb>(r: &mut [L], a: &[L], b: L) -> L {
    debug_assert!(r.len() >= a.len());
    let mut c = L::ZERO;
    for (ri, &ai) in r.iter_mut().zip(a) {
        let (lo, hi) = ai.mul_add_carry(b, L::ZERO, c);
        *ri = lo;
        c = hi;
    }
    c
}

pub(crate) fn addmul_1<L: Limb>(r: &mut [L], a: &[L], b: L) -> L {
    debug_assert!(r.len() >= a.len());
    let mut c = L::ZERO;
    for (ri, &ai) in r.iter_mut().zip(a) {
        let (lo, hi) = ai.mul_add_carry(b, *ri, c);
        *ri = lo;
        c = hi;
    }
    c
}

pub(crate) fn submul_1<L: Limb>(r: &mut [L], a: &[L], b: L) -> L {
    debug_assert!(r.len() >= a.len());
    let mut c = L::ZERO;
    for (ri, &ai) in r.iter_mut().zip(a) {
        // ai·b + c fits two digits; subtract its low digit and carry the rest.
        let (lo, hi) = ai.mul_add_carry(b, L::ZERO, c);
        let (d, br) = ri.borrowing_sub(lo, false);
        *ri = d;
        c = if br { hi.wrapping_add(L::ONE) } else { hi };
    }
    c
}

pub(crate) fn mul_basecase<L: Limb>(r: &mut [L], a: &[L], b: &[L]) {
    let (n, m) = (a.len(), b.len());
    debug_assert!(n > 0 && m > 0 && r.len() == n + m);
    r[n] = mul_1(&mut r[..n], a, b[0]);
    for j in 1..m {
        r[n + j] = addmul_1(&mut r[j..j + n], a, b[j]);
    }
}

pub(crate) fn sqr_basecase<L: Limb>(r: &mut [L], a: &[L]) {
    let n = a.len();
    debug_assert!(n > 0 && r.len() == 2 * n);
    r.fill(L::ZERO);
    // Cross products a_i·a_j for i < j.
    for i in 0..n.saturating_sub(1) {
        let c = addmul_1(&mut r[2 * i + 1..i + n], &a[i + 1..], a[i]);
        r[i + n] = c;
    }
    sqr_add_doubled_squares(r, a);
}

/// The last step of a schoolbook square: `r = 2·r + Σ a_i²·b^(2i)`, where `r` (2n digits)
/// holds the sum of the cross products `a_i·a_j·b^(i+j)`, `i < j`, so that the result is
/// `a²`. The MULX/ADX square finishes the same way in one pass of its own
/// (`arch::x86_64::rows::sqr_add_doubled_squares_adx`).
pub(crate) fn sqr_add_doubled_squares<L: Limb>(r: &mut [L], a: &[L]) {
    let n = a.len();
    debug_assert!(r.len() == 2 * n);
    // Double the cross products.
    let top = shl_bits_in_place(r, 1);
    debug_assert!(top.is_zero());
    // Add the squares a_i² at position 2i.
    let mut carry = false;
    for i in 0..n {
        let (lo, hi) = a[i].widening_mul(a[i]);
        let (s0, c0) = r[2 * i].carrying_add(lo, carry);
        let (s1, c1) = r[2 * i + 1].carrying_add(hi, c0);
        r[2 * i] = s0;
        r[2 * i + 1] = s1;
        carry = c1;
    }
    debug_assert!(!carry);
}

fn shl_bits_in_place<L: Limb>(a: &mut [L], s: u32) -> L {
    if s == 0 {
        return L::ZERO;
    }
    let mut out = L::ZERO;
    for ai in a.iter_mut() {
        let v = *ai;
        *ai = v.shl(s).or(out);
        out = v.shr(L::BITS - s);
    }
    out
}

pub(crate) fn shl_bits<L: Limb>(r: &mut [L], a: &[L], s: u32) -> L {
    debug_assert!(r.len() == a.len() && s < L::BITS);
    if s == 0 {
        r.copy_from_slice(a);
        return L::ZERO;
    }
    let mut out = L::ZERO;
    for (ri, &ai) in r.iter_mut().zip(a) {
        *ri = ai.shl(s).or(out);
        out = ai.shr(L::BITS - s);
    }
    out
}

pub(crate) fn shr_bits<L: Limb>(r: &mut [L], a: &[L], s: u32) -> L {
    debug_assert!(r.len() == a.len() && s < L::BITS);
    if s == 0 {
        r.copy_from_slice(a);
        return L::ZERO;
    }
    let mut out = L::ZERO;
    for (ri, &ai) in r.iter_mut().zip(a).rev() {
        *ri = ai.shr(s).or(out);
        out = ai.shl(L::BITS - s);
    }
    out
}
