//! Layer 1: the digit type.
//!
//! Every algorithm in modred is generic over [`Limb`], a single-precision digit of radix
//! b = 2^BITS. The papers use b = 2^16, 2^32 and 2^64; `u8` digits make exhaustive tests
//! cheap, and [`Counted`] counts the single-precision operations an algorithm performs so
//! that the papers' operation-count tables can be reproduced.
//!
//! The primitives reuse the vocabulary of `core` (`carrying_add`, `borrowing_sub`,
//! `widening_mul`). Those are the operations [`Counted`] counts: one widening or wrapping
//! multiplication is one `mul`, one two-by-one division is one `div`, one carrying addition
//! or borrowing subtraction is one `add`. Comparisons, shifts and logic are not counted.

mod counted;
mod native;

pub use counted::{count_ops, Counted, OpCounts};

use core::fmt::Debug;
use core::hash::Hash;

/// A single-precision digit of radix b = 2^[`Limb::BITS`].
///
/// Implemented for `u8`, `u16`, `u32`, `u64` and for [`Counted`] wrappers around them.
/// The trait is sealed through its kernel supertrait: the slice kernels of layer 2 are
/// chosen per limb type (portable everywhere, architecture-specific for `u64`).
pub trait Limb:
    Copy
    + Clone
    + Eq
    + Ord
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + crate::kernels::LimbKernels
{
    /// Bits in one digit: b = 2^BITS.
    const BITS: u32;
    /// The digit 0.
    const ZERO: Self;
    /// The digit 1.
    const ONE: Self;
    /// The digit b − 1.
    const MAX: Self;

    /// The low `BITS` bits of `v`.
    fn from_u64(v: u64) -> Self;
    /// The digit as a `u64` (zero-extended).
    fn to_u64(self) -> u64;

    /// `self + rhs + carry`, as (sum mod b, carry out). Counted as one addition.
    fn carrying_add(self, rhs: Self, carry: bool) -> (Self, bool);
    /// `self − rhs − borrow`, as (difference mod b, borrow out). Counted as one addition.
    fn borrowing_sub(self, rhs: Self, borrow: bool) -> (Self, bool);
    /// `self · rhs` as (low, high) digits. Counted as one multiplication.
    fn widening_mul(self, rhs: Self) -> (Self, Self);
    /// `self · rhs + addend + carry` as (low, high); never overflows two digits since
    /// (b−1)² + 2(b−1) = b² − 1. Counted as one multiplication and two additions.
    fn mul_add_carry(self, rhs: Self, addend: Self, carry: Self) -> (Self, Self);
    /// `self · rhs mod b`. Counted as one multiplication.
    fn wrapping_mul(self, rhs: Self) -> Self;
    /// `(hi·b + lo) div d` and `mod d`. Requires `hi < d` (so the quotient fits one digit).
    /// Counted as one division.
    fn div_wide(hi: Self, lo: Self, d: Self) -> (Self, Self);

    /// `self + rhs mod b` without counting (index arithmetic, not part of the algorithm).
    fn wrapping_add(self, rhs: Self) -> Self;
    /// `self − rhs mod b` without counting.
    fn wrapping_sub(self, rhs: Self) -> Self;
    /// `−self mod b`.
    fn wrapping_neg(self) -> Self;
    /// Logical shift left by `s < BITS`.
    fn shl(self, s: u32) -> Self;
    /// Logical shift right by `s < BITS`.
    fn shr(self, s: u32) -> Self;
    /// Bitwise or.
    fn or(self, rhs: Self) -> Self;
    /// Bitwise and.
    fn and(self, rhs: Self) -> Self;
    /// Bitwise not.
    fn not(self) -> Self;
    /// Number of leading zero bits.
    fn leading_zeros(self) -> u32;
    /// Number of trailing zero bits (`BITS` for zero).
    fn trailing_zeros(self) -> u32;

    /// Whether the digit is zero.
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }

    /// `m0^(−1) mod b` for odd `m0`, by Newton iteration (each step doubles the number of
    /// correct low bits; 2·m0 − m0²·x starts with 3 correct bits since m0·m0 ≡ 1 mod 8).
    /// These multiplications are precalculation and are done uncounted on `u64`.
    fn inverse_mod_b(self) -> Self {
        let m0 = self.to_u64();
        debug_assert!(m0 & 1 == 1, "inverse_mod_b needs an odd digit");
        let mut inv = m0; // correct to 3 bits
        for _ in 0..5 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(m0.wrapping_mul(inv)));
        }
        Self::from_u64(inv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_primitives<L: Limb>() {
        let vals = [
            0u64,
            1,
            2,
            3,
            0x7f,
            0x80,
            0xff,
            0xffff,
            0xfffe,
            u64::MAX,
            u64::MAX - 1,
            0x1234_5678_9abc_def0,
        ];
        let mask: u128 = if L::BITS == 64 { u64::MAX as u128 } else { (1u128 << L::BITS) - 1 };
        for &a in &vals {
            for &b in &vals {
                let (x, y) = (L::from_u64(a), L::from_u64(b));
                let (xa, yb) = (x.to_u64() as u128, y.to_u64() as u128);
                let (s, c) = x.carrying_add(y, true);
                assert_eq!(s.to_u64() as u128 + ((c as u128) << L::BITS), xa + yb + 1);
                let (d, br) = x.borrowing_sub(y, false);
                assert_eq!(d.to_u64() as u128, (xa.wrapping_sub(yb)) & mask);
                assert_eq!(br, xa < yb);
                let (lo, hi) = x.widening_mul(y);
                assert_eq!(lo.to_u64() as u128 + ((hi.to_u64() as u128) << L::BITS), xa * yb);
                let (lo, hi) = x.mul_add_carry(y, L::MAX, L::MAX);
                let full = xa * yb + 2 * mask;
                assert_eq!(lo.to_u64() as u128 + ((hi.to_u64() as u128) << L::BITS), full);
                // div_wide needs hi < d: take hi = a mod d. The answer is the unique
                // q, r with q·d + r = hi·b + lo and r < d.
                if let Some(hi) = (a as u128).checked_rem(yb) {
                    let hi = L::from_u64(hi as u64);
                    let (q, r) = L::div_wide(hi, x, y);
                    let num = ((hi.to_u64() as u128) << L::BITS) + xa;
                    assert_eq!(q.to_u64() as u128 * yb + r.to_u64() as u128, num);
                    assert!((r.to_u64() as u128) < yb);
                }
            }
            let x = L::from_u64(a | 1);
            assert_eq!(x.wrapping_mul(x.inverse_mod_b()), L::ONE);
        }
    }

    #[test]
    fn primitives_agree_with_u128_arithmetic() {
        check_primitives::<u8>();
        check_primitives::<u16>();
        check_primitives::<u32>();
        check_primitives::<u64>();
        check_primitives::<Counted<u16>>();
    }
}
