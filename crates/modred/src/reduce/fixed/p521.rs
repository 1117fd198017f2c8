//! Multiplication in the field of `p = 2^521 − 1` (P-521) on nine 64-bit digits: the
//! product, then the Mersenne fold `z = q·2^521 + r ≡ q + r` (paper 003 §6.2). Where the
//! CPU has BMI2 and ADX, the product runs in registers, the square takes 45 digit products
//! (the top digit of a field element is below `2^9`, so `2·a_8·A` is one row) and the fold
//! is two carry chains of assembly (`kernels/arch/x86_64/p521.rs`); elsewhere
//! [`mul_portable`] and [`sqr_portable`], the product of [`arith`] and the fold of
//! `reduce::nist`.
//!
//! Montgomery's representation (`R = 2^576`) takes the same product and square: dividing
//! by `R ≡ 2^55` is a rotation of the 521 bits ([`mont_mul`], [`mont_sqr`]).
//!
//! Tested against `Nat` arithmetic below and through `PrimeField` in `field`'s tests; the
//! assembly against the portable twins in its own module.

use super::arith;
use crate::reduce::nist::NistPrime;

/// `a·b mod p` for `a, b < p`, in `[0, p)`: `mul_mod_p521_adx` where the CPU has BMI2 and
/// ADX, else [`mul_portable`]. Constant time for `CT` (the CPU check is the only branch).
#[inline(always)]
pub(crate) fn mul<const CT: bool>(a: &[u64; 9], b: &[u64; 9]) -> [u64; 9] {
    #[cfg(x86_kernels)]
    if crate::kernels::cpu::bmi2_adx() {
        let mut out = [0u64; 9];
        // SAFETY: the CPU has BMI2 and ADX (checked just above).
        unsafe { crate::kernels::arch::x86_64::p521::mul_mod_p521_adx(&mut out, a, b) };
        return out;
    }
    mul_portable::<CT>(a, b)
}

/// `a² mod p` for `a < p`, in `[0, p)`: `sqr_mod_p521_adx` where the CPU has BMI2 and
/// ADX, else [`sqr_portable`]. Constant time for `CT` (the CPU check is the only branch).
#[inline(always)]
pub(crate) fn sqr<const CT: bool>(a: &[u64; 9]) -> [u64; 9] {
    #[cfg(x86_kernels)]
    if crate::kernels::cpu::bmi2_adx() {
        let mut out = [0u64; 9];
        // SAFETY: the CPU has BMI2 and ADX (checked just above).
        unsafe { crate::kernels::arch::x86_64::p521::sqr_mod_p521_adx(&mut out, a) };
        return out;
    }
    sqr_portable::<CT>(a)
}

/// `x·2^466 mod p` for `x < p`, in `[0, p)`: since `2^521 ≡ 1`, a rotation of the 521
/// bits by 466 (`x`'s low 55 bits move to the top). It is the division by `R = 2^576 ≡
/// 2^55` that turns a product into Montgomery's (`2^(−55) ≡ 2^466`); `p` itself, all ones,
/// is the only 521-bit number that rotates to `p`. Straight-line.
#[inline(always)]
fn times_2_466(x: &[u64; 9]) -> [u64; 9] {
    let mut y = [0u64; 9];
    for i in 0..8 {
        y[i] = (x[i] >> 55) | (x[i + 1] << 9);
    }
    // x >> 55 < 2^466 ends at bit 18 of digit 7; the low 55 bits go above it.
    let low = x[0] & ((1 << 55) - 1);
    y[7] |= low << 18;
    y[8] = low >> 46;
    y
}

/// Montgomery's product `a·b·R⁻¹ mod p`, `R = 2^576`, for `a, b < p`, in `[0, p)`:
/// [`mul`], then the division by `R ≡ 2^55` as a rotation ([`times_2_466`]) — not a
/// reduction by the digits of `p` (paper 000 eq. 2.3's result, computed through the
/// special form). Constant time for `CT`.
#[inline(always)]
pub(crate) fn mont_mul<const CT: bool>(a: &[u64; 9], b: &[u64; 9]) -> [u64; 9] {
    times_2_466(&mul::<CT>(a, b))
}

/// Montgomery's square `a²·R⁻¹ mod p` for `a < p`, as [`mont_mul`] by [`sqr`].
#[inline(always)]
pub(crate) fn mont_sqr<const CT: bool>(a: &[u64; 9]) -> [u64; 9] {
    times_2_466(&sqr::<CT>(a))
}

/// [`mul`] on any CPU: the product by [`arith::mul_wide`], then the NIST fold. The
/// assembly's twin.
#[inline(always)]
pub(crate) fn mul_portable<const CT: bool>(a: &[u64; 9], b: &[u64; 9]) -> [u64; 9] {
    NistPrime::P521.reduce_wide::<9, CT>(&arith::mul_wide(a, b))
}

/// [`sqr`] on any CPU: the square by [`arith::sqr_wide`], then the NIST fold. The
/// assembly's twin.
#[inline(always)]
pub(crate) fn sqr_portable<const CT: bool>(a: &[u64; 9]) -> [u64; 9] {
    NistPrime::P521.reduce_wide::<9, CT>(&arith::sqr_wide(a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nat::Nat;
    use modred_testkit::SplitMix64;

    /// Products and squares of field elements at the edges (0, 1, `p − 1`, `2^520`, the
    /// top digit all ones, every digit all ones) and at random, through the dispatching
    /// functions and the portable twins, against `Nat`'s remainder.
    #[test]
    fn product_and_square_match_nat() {
        let p = Nat::from_limbs(&NistPrime::P521.modulus_u64());
        let nat = |d: &[u64; 9]| Nat::from_limbs(d);
        let mut rng = SplitMix64::new(0x0000_0521);
        let pm1: [u64; 9] = (&p - &Nat::one()).to_padded(9).unwrap().try_into().unwrap();
        let mut xs: alloc::vec::Vec<[u64; 9]> = alloc::vec![
            [0; 9],
            [1, 0, 0, 0, 0, 0, 0, 0, 0],
            pm1,
            [0, 0, 0, 0, 0, 0, 0, 0, 1 << 8],
            [0, 0, 0, 0, 0, 0, 0, 0, 0x1ff],
            [u64::MAX, u64::MAX, u64::MAX, u64::MAX, u64::MAX, u64::MAX, u64::MAX, u64::MAX, 0],
        ];
        for _ in 0..400 {
            let mut x: [u64; 9] = core::array::from_fn(|_| rng.next_u64());
            x[8] &= 0x1ff;
            if nat(&x) < p {
                xs.push(x);
            }
        }
        for a in &xs {
            for b in xs.iter().take(40) {
                let want = nat(a).mul(&nat(b)).checked_rem(&p).unwrap();
                assert_eq!(nat(&mul::<true>(a, b)), want, "{a:x?}·{b:x?}");
                assert_eq!(nat(&mul::<false>(a, b)), want);
                assert_eq!(nat(&mul_portable::<true>(a, b)), want);
            }
            // R⁻¹ = 2^466 mod p.
            let r_inv = Nat::power_of_two(466);
            for b in xs.iter().take(8) {
                let want = nat(a).mul(&nat(b)).mul(&r_inv).checked_rem(&p).unwrap();
                assert_eq!(nat(&mont_mul::<true>(a, b)), want, "Montgomery {a:x?}·{b:x?}");
            }
            let want_mont = nat(a).sqr().mul(&r_inv).checked_rem(&p).unwrap();
            assert_eq!(nat(&mont_sqr::<false>(a)), want_mont, "Montgomery {a:x?}²");
            let want = nat(a).sqr().checked_rem(&p).unwrap();
            assert_eq!(nat(&sqr::<true>(a)), want, "{a:x?}²");
            assert_eq!(nat(&sqr::<false>(a)), want, "{a:x?}²");
            assert_eq!(nat(&sqr_portable::<true>(a)), want, "{a:x?}² (portable)");
        }
    }
}
