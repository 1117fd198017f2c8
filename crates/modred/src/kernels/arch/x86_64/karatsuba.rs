//! One level of subtractive Karatsuba over the eight-row products, constant time: the
//! product half of the MULX/ADX Montgomery multiplication at 32, 48 and 64 digits (2048,
//! 3072 and 4096 bits). On an AMD EPYC (Zen 4) it took the 2048-, 3072- and 4096-bit
//! Montgomery multiplication from 889, 1948 and 3396 ns to 878, 1841 and 3179; the same
//! level for the square (three half squares by `rows8::sqr_8rows`) measured 1586–1604 ns at
//! 3072 bits against 1547 and no gain at 4096, so squares stay on `sqr_8rows`.
//!
//! For `a = a_1·B + a_0`, `b = b_1·B + b_0` (`B = 2^(64h)`, `h = k/2`):
//!
//! ```text
//! a·b = z_2·B² + (z_0 + z_2 + (a_0 − a_1)·(b_1 − b_0))·B + z_0,   z_0 = a_0·b_0, z_2 = a_1·b_1
//! ```
//!
//! three half products instead of four (`3k²/4` digit products against `k²`). The middle
//! term's sign is that of `(a_0 − a_1)·(b_1 − b_0)`: both differences are taken as absolute
//! values with their signs as masks, and the product of the absolute values is added or
//! subtracted by a mask (two's complement), so no branch or address depends on the
//! operands, which `ct::MontgomeryCt` needs.

use super::rows8::mul_8rows;

/// `d = |x − y|` (`h` digits each), returning `1` if `x < y` (the difference was negated)
/// and `0` otherwise, without a branch on the values.
#[inline(always)]
fn abs_diff(d: &mut [u64], x: &[u64], y: &[u64]) -> u64 {
    let mut borrow = false;
    for ((di, &xi), &yi) in d.iter_mut().zip(x).zip(y) {
        let (s, b1) = xi.overflowing_sub(yi);
        let (s, b2) = s.overflowing_sub(borrow as u64);
        *di = s;
        borrow = b1 | b2;
    }
    // Negate by the mask: −d = (d XOR all-ones) + 1.
    let negative = borrow as u64;
    let mask = core::hint::black_box(0u64.wrapping_sub(negative));
    let mut carry = negative;
    for di in d.iter_mut() {
        let (s, c) = (*di ^ mask).overflowing_add(carry);
        *di = s;
        carry = c as u64;
    }
    negative
}

/// `r = a·b` for `a`, `b` of `K = 2H` digits (`H` a multiple of 8, `r` of `2K`): one level
/// of subtractive Karatsuba, the three half products by [`mul_8rows`]. `3K²/4` digit
/// products and about `6K` digit additions; constant time.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If the lengths differ from the above.
#[inline]
pub(crate) unsafe fn mul_karatsuba<const K: usize, const H: usize>(
    r: &mut [u64],
    a: &[u64],
    b: &[u64],
) {
    assert!(
        K == 2 * H && H % 8 == 0 && a.len() == K && b.len() == K && r.len() == 2 * K,
        "mul_karatsuba: operand lengths"
    );
    let (a0, a1) = a.split_at(H);
    let (b0, b1) = b.split_at(H);
    let mut da = [0u64; H];
    let mut db = [0u64; H];
    let sign_a = abs_diff(&mut da, a0, a1);
    let sign_b = abs_diff(&mut db, b1, b0);
    let mut zm = [0u64; K];
    {
        let (z0, z2) = r.split_at_mut(K);
        // SAFETY: the caller guarantees BMI2 and ADX.
        unsafe {
            mul_8rows(z0, a0, b0);
            mul_8rows(z2, a1, b1);
            mul_8rows(&mut zm, &da, &db);
        }
    }
    add_middle::<K, H>(r, &zm, sign_a ^ sign_b);
}

/// `r += (z_0 + z_2 ± zm)·B` with `z_0 = r[..K]`, `z_2 = r[K..]`, `B = 2^(64H)`; `zm`
/// subtracted where `negative` is 1. The middle term (`K + 1` digits, non-negative) is
/// summed with `zm` XOR a mask plus the mask's low bit (`−zm` in two's complement when
/// negative), then added at digit `H` with the carry taken through every digit above (no
/// early exit).
#[inline(always)]
fn add_middle<const K: usize, const H: usize>(r: &mut [u64], zm: &[u64; K], negative: u64) {
    let mask = core::hint::black_box(0u64.wrapping_sub(negative));
    let mut middle = [0u64; K];
    let mut carry = negative as u128;
    for i in 0..K {
        let sum = r[i] as u128 + r[K + i] as u128 + (zm[i] ^ mask) as u128 + carry;
        middle[i] = sum as u64;
        carry = sum >> 64;
    }
    // The top digit: the carries (0 to 2) plus the mask's sign extension, mod 2^64.
    let middle_top = (carry as u64).wrapping_add(mask);
    let mut carry = 0u128;
    for i in 0..K {
        let sum = r[H + i] as u128 + middle[i] as u128 + carry;
        r[H + i] = sum as u64;
        carry = sum >> 64;
    }
    let mut carry = carry + middle_top as u128;
    for d in &mut r[H + K..] {
        let sum = *d as u128 + carry;
        *d = sum as u64;
        carry = sum >> 64;
    }
    debug_assert_eq!(carry, 0, "the product fits 2K digits");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::portable;
    use alloc::vec::Vec;
    use modred_testkit::SplitMix64;
    use std::eprintln;

    fn check<const K: usize, const H: usize>(rng: &mut SplitMix64) {
        let mut ops: Vec<Vec<u64>> = alloc::vec![
            alloc::vec![0; K],
            alloc::vec![u64::MAX; K],
            // a_0 < a_1 and a_0 > a_1 with long borrows; equal halves (a zero difference).
            (0..K).map(|i| if i < H { 0 } else { u64::MAX }).collect(),
            (0..K).map(|i| if i < H { u64::MAX } else { 0 }).collect(),
            (0..K).map(|i| (i % H) as u64 * 0x9e37_79b9).collect(),
        ];
        for _ in 0..6 {
            ops.push((0..K).map(|_| rng.next_u64()).collect());
        }
        for a in &ops {
            for b in &ops {
                let mut want = alloc::vec![0; 2 * K];
                portable::mul_basecase(&mut want, a, b);
                let mut got = alloc::vec![u64::MAX; 2 * K];
                // SAFETY: the CPU has BMI2 and ADX (checked by the caller).
                unsafe { mul_karatsuba::<K, H>(&mut got, a, b) };
                assert_eq!(got, want, "K = {K}, a = {a:x?}, b = {b:x?}");
            }
        }
    }

    #[test]
    fn karatsuba_agrees_with_the_portable_schoolbook() {
        if !super::super::has_bmi2_adx() {
            eprintln!("skipped: this CPU has no BMI2/ADX (mul_karatsuba not run)");
            return;
        }
        let mut rng = SplitMix64::new(0x4a7a);
        check::<32, 16>(&mut rng);
        check::<48, 24>(&mut rng);
        check::<64, 32>(&mut rng);
    }
}
