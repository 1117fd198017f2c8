//! [`Limb`] for the native unsigned integers, each with its double-width type.

use super::Limb;

macro_rules! native_limb {
    ($t:ty, $wide:ty, $div:path) => {
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
                $div(hi, lo, d)
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

macro_rules! div_by_widening {
    ($name:ident, $t:ty, $wide:ty) => {
        /// `(hi·b + lo) divmod d` through the double-width type.
        #[inline(always)]
        fn $name(hi: $t, lo: $t, d: $t) -> ($t, $t) {
            let n = ((hi as $wide) << <$t>::BITS) | (lo as $wide);
            ((n / d as $wide) as $t, (n % d as $wide) as $t)
        }
    };
}

div_by_widening!(div_u8, u8, u16);
div_by_widening!(div_u16, u16, u32);
div_by_widening!(div_u32, u32, u64);
div_by_widening!(div_u64_widening, u64, u128);

/// `(hi·2^64 + lo) divmod d` for `hi < d`: on x86-64 (`x86_kernels`) one `div`
/// instruction ([`crate::kernels::arch::x86_64::scalar::div_2by1`]), far faster than the
/// library call Rust makes for a `u128 / u64` division, which is the portable twin.
#[inline(always)]
fn div_u64(hi: u64, lo: u64, d: u64) -> (u64, u64) {
    #[cfg(x86_kernels)]
    if hi < d {
        // SAFETY: `hi < d`, the kernel's precondition.
        return unsafe { crate::kernels::arch::x86_64::scalar::div_2by1(hi, lo, d) };
    }
    // A caller outside the precondition gets the widening division's answer (truncated
    // quotient), or its panic for a zero divisor, never a trap.
    div_u64_widening(hi, lo, d)
}

native_limb!(u8, u16, div_u8);
native_limb!(u16, u32, div_u16);
native_limb!(u32, u64, div_u32);
native_limb!(u64, u128, div_u64);
