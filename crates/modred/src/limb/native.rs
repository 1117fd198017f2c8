//! [`Limb`] for the native unsigned integers, each with its double-width type.

use super::Limb;

macro_rules! native_limb {
    ($t:ty, $wide:ty) => {
        impl Limb for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const MAX: Self = <$t>::MAX;

            #[inline(always)]
            fn from_u64(v: u64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn carrying_add(self, rhs: Self, carry: bool) -> (Self, bool) {
                let (s, c1) = self.overflowing_add(rhs);
                let (s, c2) = s.overflowing_add(carry as $t);
                (s, c1 | c2)
            }
            #[inline(always)]
            fn borrowing_sub(self, rhs: Self, borrow: bool) -> (Self, bool) {
                let (d, b1) = self.overflowing_sub(rhs);
                let (d, b2) = d.overflowing_sub(borrow as $t);
                (d, b1 | b2)
            }
            #[inline(always)]
            fn widening_mul(self, rhs: Self) -> (Self, Self) {
                let p = (self as $wide) * (rhs as $wide);
                (p as $t, (p >> <$t>::BITS) as $t)
            }
            #[inline(always)]
            fn mul_add_carry(self, rhs: Self, addend: Self, carry: Self) -> (Self, Self) {
                let p = (self as $wide) * (rhs as $wide) + (addend as $wide) + (carry as $wide);
                (p as $t, (p >> <$t>::BITS) as $t)
            }
            #[inline(always)]
            fn wrapping_mul(self, rhs: Self) -> Self {
                <$t>::wrapping_mul(self, rhs)
            }
            #[inline(always)]
            fn div_wide(hi: Self, lo: Self, d: Self) -> (Self, Self) {
                debug_assert!(hi < d);
                let n = ((hi as $wide) << <$t>::BITS) | (lo as $wide);
                ((n / d as $wide) as $t, (n % d as $wide) as $t)
            }
            #[inline(always)]
            fn wrapping_add(self, rhs: Self) -> Self {
                <$t>::wrapping_add(self, rhs)
            }
            #[inline(always)]
            fn wrapping_sub(self, rhs: Self) -> Self {
                <$t>::wrapping_sub(self, rhs)
            }
            #[inline(always)]
            fn wrapping_neg(self) -> Self {
                <$t>::wrapping_neg(self)
            }
            #[inline(always)]
            fn shl(self, s: u32) -> Self {
                self << s
            }
            #[inline(always)]
            fn shr(self, s: u32) -> Self {
                self >> s
            }
            #[inline(always)]
            fn or(self, rhs: Self) -> Self {
                self | rhs
            }
            #[inline(always)]
            fn and(self, rhs: Self) -> Self {
                self & rhs
            }
            #[inline(always)]
            fn not(self) -> Self {
                !self
            }
            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
        }
    };
}

native_limb!(u8, u16);
native_limb!(u16, u32);
native_limb!(u32, u64);
native_limb!(u64, u128);
