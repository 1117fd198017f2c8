//! Subtractive Karatsuba over the eight-row products, constant time: the product half of
//! the MULX/ADX Montgomery multiplication at 24, 32, 40, 48, 56 and 64 digits (1536, 2048,
//! 2560, 3072, 3584 and 4096 bits; two levels at 48 and 64; the halves of 12, 20 and 28
//! digits and the quarters of 12 by `super::unrolled`) and the square at 32, 56 and 64
//! digits (two levels at 64); above, for the constant-time context, the product and the
//! square at 72, 80, 88, 96, 112 and 128 digits (on an AMD EPYC Zen 3 the products 27–41%
//! and the squares 17–30% faster than `mul_8rows` and the schoolbook square).
//!
//! The level's additions are assembly passes on the carry flags (the absolute differences
//! one SBB pass and one negating pass, the middle term one pass on ADCX and ADOX and one
//! ADC pass that adds it): on an AMD EPYC (Zen 4) they took a 32-digit level's additions
//! from about 95 to 41 ns, after which a second level and the square pay. Timed alone,
//! chained, same CPU: the 32-digit product 408 → 310 ns (against `rows8::mul_8rows`), the
//! 64-digit product about 1,330 (one level) → 1,150–1,210 ns (two), the 32-digit square
//! 227–235 → 183–185 ns and the 64-digit one 810–850 → 619 ns (against
//! `rows8::sqr_8rows`), the 24-digit product 214 → 195 ns (halves of 12, written out; on an
//! AMD EPYC Zen 3 a 1536-bit Montgomery multiplication, product and reduction, 569 → 529
//! ns; the 40- and 56-digit products there 904–928 → 742–777 and 1,445–1,450 → 1,148–1,174
//! ns against `mul_8rows`, halves written out; the 56-digit square 839–851 → 757–770 ns
//! against `sqr_8rows`, the 40-digit one 460–557 → 447–536, not taken). At 48
//! digits the square measured no gain (one level: a 3072-bit Montgomery square 1,730–1,850
//! ns both ways; the 24-digit square by halves of 12 141 ns against 135) and stays on
//! `sqr_8rows`. The
//! entry points are `#[inline(never)]`: the 64-digit square with the 32-digit levels
//! inlined into it measured 870 ns, not 619.
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

use super::rows8::{mul_8rows, sqr_8rows};
use core::arch::asm;

/// Four digits of a pass, at byte offsets 0, 8, 16 and 24 from its pointers.
macro_rules! four_digits {
    ($digit:ident) => {
        concat!($digit!("0"), $digit!("8"), $digit!("16"), $digit!("24"))
    };
}

/// `d = x − y` at a digit, on the borrow chain ([`abs_diff`]'s first pass).
macro_rules! sbb_digit {
    ($off:literal) => {
        concat!(
            "mov r8, [{x} + ",
            $off,
            "]\n",
            "sbb r8, [{y} + ",
            $off,
            "]\n",
            "mov [{dp} + ",
            $off,
            "], r8\n",
        )
    };
}

/// `d = (d XOR mask) + carry` at a digit: complemented by CMOV where ZF is clear, the
/// carry on ADCX ([`abs_diff`]'s second pass).
macro_rules! negate_digit {
    ($off:literal) => {
        concat!(
            "mov r8, [{d} + ",
            $off,
            "]\n",
            "mov r9, r8\n",
            "not r9\n",
            "cmovnz r8, r9\n",
            "adcx r8, {zero}\n",
            "mov [{d} + ",
            $off,
            "], r8\n",
        )
    };
}

/// `middle = (zm XOR mask) + z_0 + z_2` at a digit: `zm`'s complement by CMOV, `z_0` on
/// ADCX, `z_2` (`kb` bytes above `z_0`) on ADOX ([`add_middle`]'s first pass).
macro_rules! middle_digit {
    ($off:literal) => {
        concat!(
            "mov r8, [{zm} + ",
            $off,
            "]\n",
            "mov r9, r8\n",
            "not r9\n",
            "cmovnz r8, r9\n",
            "adcx r8, [{z0} + ",
            $off,
            "]\n",
            "adox r8, [{z0} + {kb} + ",
            $off,
            "]\n",
            "mov [{mp} + ",
            $off,
            "], r8\n",
        )
    };
}

/// `r += middle` at a digit, on the carry chain ([`add_middle`]'s second pass).
macro_rules! add_digit {
    ($off:literal) => {
        concat!(
            "mov r9, [{rh} + ",
            $off,
            "]\n",
            "adc r9, [{mid} + ",
            $off,
            "]\n",
            "mov [{rh} + ",
            $off,
            "], r9\n",
        )
    };
}

/// `r += carry` at a digit ([`add_middle`]'s carry through the top digits).
macro_rules! carry_digit {
    ($off:literal) => {
        concat!(
            "mov r9, [{rh} + ",
            $off,
            "]\n",
            "adc r9, {zero}\n",
            "mov [{rh} + ",
            $off,
            "], r9\n",
        )
    };
}

/// `d = |x − y|` (`n` digits each, `n` a positive multiple of 4), returning `1` if `x < y`
/// (the difference was negated) and `0` otherwise: one pass of SBB, then one pass that
/// negates by the mask (each digit complemented by CMOV on the mask's zero flag, which
/// ADCX leaves alone, and the `+1` carried on ADCX). No branch or address depends on the
/// values.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If the lengths differ or are not a positive multiple of 4.
#[inline]
unsafe fn abs_diff(d: &mut [u64], x: &[u64], y: &[u64]) -> u64 {
    let n = d.len();
    assert!(n >= 4 && n % 4 == 0 && x.len() == n && y.len() == n, "abs_diff: operand lengths");
    let mask: u64;
    // SAFETY: the caller guarantees ADX. The loops read x[..n] and y[..n] and write and
    // read back d[..n] (`d` is exclusive); LEA and JRCXZ leave the flags alone (each loop
    // runs at least once).
    unsafe {
        asm!(
            "xor {zero:e}, {zero:e}",
            "mov rcx, {groups}",
            "mov {dp}, {d}",
            "2:",
            four_digits!(sbb_digit),
            "lea {x}, [{x} + 32]",
            "lea {y}, [{y} + 32]",
            "lea {dp}, [{dp} + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 3f",
            "jmp 2b",
            "3:",
            "sbb {mask}, {mask}",
            // CF = the mask's low bit (the +1 of −d), ZF set when nothing is negated.
            "mov r9, {mask}",
            "neg r9",
            "mov rcx, {groups}",
            "4:",
            four_digits!(negate_digit),
            "lea {d}, [{d} + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 5f",
            "jmp 4b",
            "5:",
            d = inout(reg) d.as_mut_ptr() => _,
            x = inout(reg) x.as_ptr() => _,
            y = inout(reg) y.as_ptr() => _,
            groups = in(reg) n / 4,
            dp = out(reg) _,
            zero = out(reg) _,
            mask = out(reg) mask,
            out("rcx") _,
            out("r8") _,
            out("r9") _,
            options(nostack),
        );
    }
    mask & 1
}

/// `r = a·b` exactly, for any `a`, `b` of `K = 2H` digits (`H` a multiple of 4, at least 8;
/// `r` of `2K`): one level of subtractive Karatsuba (Karatsuba and Ofman 1962), the three
/// half products by [`mul_by_width`] (Karatsuba again where it takes one). `3K²/4` digit
/// products at this level and about `5K` digit additions; constant time.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If the lengths differ from the above.
#[inline(never)]
pub(crate) unsafe fn mul_karatsuba<const K: usize, const H: usize>(
    r: &mut [u64],
    a: &[u64],
    b: &[u64],
) {
    assert!(
        K == 2 * H && H % 4 == 0 && H >= 8 && a.len() == K && b.len() == K && r.len() == 2 * K,
        "mul_karatsuba: operand lengths"
    );
    let (a0, a1) = a.split_at(H);
    let (b0, b1) = b.split_at(H);
    let mut da = [0u64; H];
    let mut db = [0u64; H];
    let mut zm = [0u64; K];
    // SAFETY: the caller guarantees BMI2 and ADX.
    unsafe {
        let sign = abs_diff(&mut da, a0, a1) ^ abs_diff(&mut db, b1, b0);
        let (z0, z2) = r.split_at_mut(K);
        mul_by_width(z0, a0, b0);
        mul_by_width(z2, a1, b1);
        mul_by_width(&mut zm, &da, &db);
        add_middle::<K, H>(r, &zm, sign);
    }
}

/// `r = a²` exactly, for any `a` of `K = 2H` digits (`H` a multiple of 8, or of 4 with
/// written-out rows, `super::unrolled::rows_unrolled`; `r` of `2K`): one
/// level of subtractive Karatsuba (Karatsuba and Ofman 1962), `a² = z_2·B² + (z_0 + z_2 − (a_0 − a_1)²)·B + z_0` with `z_0 =
/// a_0²`, `z_2 = a_1²` (`B = 2^(64H)`), the three half squares by [`sqr_by_width`] (Karatsuba
/// again where it takes one). Constant time.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If the lengths differ from the above.
#[inline(never)]
pub(crate) unsafe fn sqr_karatsuba<const K: usize, const H: usize>(r: &mut [u64], a: &[u64]) {
    assert!(
        K == 2 * H
            && H % 4 == 0
            && (H % 8 == 0 || super::unrolled::rows_unrolled(H))
            && a.len() == K
            && r.len() == 2 * K,
        "sqr_karatsuba: operand lengths"
    );
    let (a0, a1) = a.split_at(H);
    let mut da = [0u64; H];
    let mut zm = [0u64; K];
    // SAFETY: the caller guarantees BMI2 and ADX.
    unsafe {
        abs_diff(&mut da, a0, a1);
        let (z0, z2) = r.split_at_mut(K);
        sqr_by_width(z0, a0);
        sqr_by_width(z2, a1);
        sqr_by_width(&mut zm, &da);
        add_middle::<K, H>(r, &zm, 1);
    }
}

/// `r = a²` for `a` of any width this module's callers use (`r` of `2·a.len()`), the one
/// place that picks the square's code by width: Karatsuba at 32, 56, 64, 72, 80, 88, 96,
/// 112 and 128 digits (its halves by this function again), the written-out rows at widths
/// that are not multiples of 8 (`super::unrolled`), [`sqr_8rows`] at other multiples of 8
/// up to its 64 digits, the schoolbook square above. [`super::mont_mulx::mont_sqr`] and
/// [`sqr_karatsuba`]'s halves call it. Constant time.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
#[inline(always)]
pub(crate) unsafe fn sqr_by_width(r: &mut [u64], a: &[u64]) {
    // SAFETY: the caller guarantees BMI2 and ADX.
    unsafe {
        match a.len() {
            32 => sqr_karatsuba::<32, 16>(r, a),
            56 => sqr_karatsuba::<56, 28>(r, a),
            64 => sqr_karatsuba::<64, 32>(r, a),
            // Above the reducer's widths (the constant-time context takes these).
            72 => sqr_karatsuba::<72, 36>(r, a),
            80 => sqr_karatsuba::<80, 40>(r, a),
            88 => sqr_karatsuba::<88, 44>(r, a),
            96 => sqr_karatsuba::<96, 48>(r, a),
            112 => sqr_karatsuba::<112, 56>(r, a),
            128 => sqr_karatsuba::<128, 64>(r, a),
            h if super::unrolled::rows_unrolled(h) => super::unrolled::sqr_unrolled(r, a),
            h if h <= super::rows8::SQR_8ROWS_MAX_DIGITS => sqr_8rows(r, a),
            _ => super::sqr_basecase_adx(r, a),
        }
    }
}

/// `r = a·b` for `a`, `b` of the same width, any this module's callers use (`r` of
/// `2·a.len()`), the one place that picks the product's code by width: Karatsuba at 24,
/// 32, 40, 48, 56, 64, 72, 80, 88, 96, 112 and 128 digits (its halves by this function
/// again), the written-out rows at widths that are not multiples of 8 (`super::unrolled`),
/// else [`mul_8rows`]. [`super::mont_mulx::mont_mul_to`] and [`mul_karatsuba`]'s halves
/// call it. Constant time.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
#[inline(always)]
pub(crate) unsafe fn mul_by_width(r: &mut [u64], a: &[u64], b: &[u64]) {
    // SAFETY: the caller guarantees BMI2 and ADX.
    unsafe {
        match a.len() {
            24 => mul_karatsuba::<24, 12>(r, a, b),
            32 => mul_karatsuba::<32, 16>(r, a, b),
            40 => mul_karatsuba::<40, 20>(r, a, b),
            48 => mul_karatsuba::<48, 24>(r, a, b),
            56 => mul_karatsuba::<56, 28>(r, a, b),
            64 => mul_karatsuba::<64, 32>(r, a, b),
            // Above the reducer's widths (the constant-time context takes these).
            72 => mul_karatsuba::<72, 36>(r, a, b),
            80 => mul_karatsuba::<80, 40>(r, a, b),
            88 => mul_karatsuba::<88, 44>(r, a, b),
            96 => mul_karatsuba::<96, 48>(r, a, b),
            112 => mul_karatsuba::<112, 56>(r, a, b),
            128 => mul_karatsuba::<128, 64>(r, a, b),
            h if super::unrolled::rows_unrolled(h) => super::unrolled::mul_unrolled(r, a, b),
            _ => mul_8rows(r, a, b),
        }
    }
}

/// `r += (z_0 + z_2 ± zm)·B` with `z_0 = r[..K]`, `z_2 = r[K..]`, `B = 2^(64H)`; `zm`
/// subtracted where `negative` is 1. One pass sums the middle term `z_0 + z_2 + (zm XOR
/// mask) + (mask's low bit)` (`−zm` in two's complement when negative; `zm` on the ADCX
/// chain, `z_2` on ADOX), a second adds it at digit `H` and takes the carry, the middle
/// term's top digit (its carries plus the mask, `0` to `2`) through every digit above: no
/// early exit.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
#[inline]
unsafe fn add_middle<const K: usize, const H: usize>(r: &mut [u64], zm: &[u64; K], negative: u64) {
    assert!(K == 2 * H && H % 4 == 0 && H >= 8 && r.len() == 2 * K, "add_middle: operand lengths");
    let mut middle = [0u64; K];
    let rp = r.as_mut_ptr();
    // SAFETY: the caller guarantees ADX. Pass one reads zm[..K] and r[..2K] and writes
    // middle[..K]; pass two reads middle and reads and writes r[H..2K] (`r` is exclusive).
    // LEA, MOV, NOT, CMOV and JRCXZ leave the flags alone, ADCX and ADOX touch only their
    // own. Each loop runs at least once (`H ≥ 8`).
    unsafe {
        asm!(
            "xor {zero:e}, {zero:e}",
            // CF = negative (the +1 of −zm), ZF set when zm is added, OF = 0; t = mask.
            "neg {t}",
            "mov rcx, {groups}",
            "mov {mp}, {mid}",
            "2:",
            four_digits!(middle_digit),
            "lea {zm}, [{zm} + 32]",
            "lea {z0}, [{z0} + 32]",
            "lea {mp}, [{mp} + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 3f",
            "jmp 2b",
            "3:",
            // The middle term's top digit, CF + OF + mask: 0, 1 or 2 (the term is
            // a_0·b_1 + a_1·b_0 ≥ 0).
            "mov r8d, 0",
            "seto r8b",
            "adc r8, {t}",
            "clc",
            // r[H..H+K] += middle.
            "mov rcx, {groups}",
            "4:",
            four_digits!(add_digit),
            "lea {rh}, [{rh} + 32]",
            "lea {mid}, [{mid} + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 5f",
            "jmp 4b",
            "5:",
            // r[H+K..2K] += the top digit and the carry.
            "mov r9, [{rh}]",
            "adc r9, r8",
            "mov [{rh}], r9",
            carry_digit!("8"),
            carry_digit!("16"),
            carry_digit!("24"),
            "lea {rh}, [{rh} + 32]",
            "mov rcx, {tail}",
            "6:",
            four_digits!(carry_digit),
            "lea {rh}, [{rh} + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 7f",
            "jmp 6b",
            "7:",
            zm = inout(reg) zm.as_ptr() => _,
            z0 = inout(reg) rp => _,
            // SAFETY: `r` has 2K > H digits.
            rh = inout(reg) rp.add(H) => _,
            mid = inout(reg) middle.as_mut_ptr() => _,
            t = inout(reg) negative => _,
            kb = const 8 * K,
            groups = const K / 4,
            tail = const H / 4 - 1,
            mp = out(reg) _,
            zero = out(reg) _,
            out("rcx") _,
            out("r8") _,
            out("r9") _,
            options(nostack),
        );
    }
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
            if H % 8 != 0 && !crate::kernels::arch::x86_64::unrolled::rows_unrolled(H) {
                continue;
            }
            let mut want = alloc::vec![0; 2 * K];
            portable::mul_basecase(&mut want, a, a);
            let mut got = alloc::vec![u64::MAX; 2 * K];
            // SAFETY: the CPU has BMI2 and ADX (checked by the caller).
            unsafe { sqr_karatsuba::<K, H>(&mut got, a) };
            assert_eq!(got, want, "K = {K}, a² for a = {a:x?}");
        }
    }

    #[test]
    fn karatsuba_agrees_with_the_portable_schoolbook() {
        if !super::super::has_bmi2_adx() {
            eprintln!("skipped: this CPU has no BMI2/ADX (mul_karatsuba not run)");
            return;
        }
        let mut rng = SplitMix64::new(0x4a7a);
        check::<24, 12>(&mut rng);
        check::<32, 16>(&mut rng);
        check::<40, 20>(&mut rng);
        check::<48, 24>(&mut rng);
        check::<56, 28>(&mut rng);
        check::<64, 32>(&mut rng);
        check::<72, 36>(&mut rng);
        check::<80, 40>(&mut rng);
        check::<88, 44>(&mut rng);
        check::<96, 48>(&mut rng);
        check::<112, 56>(&mut rng);
        check::<128, 64>(&mut rng);
    }
}
