//! x86-64 AVX-512 IFMA: Montgomery multiplication in radix 2^52, eight digits to a
//! 512-bit register, on `vpmadd52luq`/`vpmadd52huq` (the low and high 52 bits of a 52×52-bit
//! product added to a 64-bit lane), the way OpenSSL's RSAZ code (`rsaz-*-avx512.pl`,
//! Gueron and Drucker's "almost Montgomery multiplication") does for its sizes.
//!
//! Numbers here are little-endian slices of *52-bit digits* in `u64`s, `8·NV` of them
//! (`NV` registers), the top ones zero. [`amm`] computes, for `n ≤ 8·NV` digit steps,
//!
//! ```text
//! AMM(a, b) = (a·b + y·m) / 2^(52n)   for the y < 2^(52n) that makes the division exact
//! ```
//!
//! which is `a·b·2^(−52n) mod m` up to one multiple of `m`: for `a, b < 2m` and
//! `4m ≤ 2^(52n)` the result is below `(4m²)/2^(52n) + m ≤ 2m` — an *almost* Montgomery
//! product, kept below `2m` rather than `m`, so that a chain of them (an exponentiation)
//! needs no final subtraction until its end.
//!
//! The loop, one digit `b_i` at a time (operand scanning, the CIOS of the word-level
//! reducer with 52-bit digits and the digit sums left unnormalized in 64-bit lanes):
//!
//! ```text
//! T += lo52(a·b_i)                       vpmadd52luq, NV registers
//! y  = (T_0 · m') mod 2^52               scalar, m' = −m⁻¹ mod 2^52
//! T += lo52(m·y)                         T_0 is now ≡ 0 mod 2^52
//! T  = T / 2^52: lanes down one (valignq), T_0 >> 52 added to the new T_0
//! T += hi52(a·b_i) + hi52(m·y)           vpmadd52huq: the high halves belong one digit
//!                                        up, which after the shift is the same lane
//! ```
//!
//! Each lane gains at most four values below 2^52 per step, so after `n ≤ 80` steps a lane
//! holds less than `4·80·2^52 + 2^12 < 2^61`: no lane overflows. The lanes are normalized
//! to 52-bit digits once, at the end.
//!
//! Calling these on a CPU without AVX-512F and AVX-512 IFMA is undefined behaviour, hence
//! the `unsafe fn`s; [`has_ifma`] says whether the CPU has them (checked once, cached).

use core::arch::x86_64::*;
use core::sync::atomic::{AtomicU8, Ordering};

/// Bits per digit.
pub(crate) const DIGIT_BITS: u32 = 52;
/// `2^52 − 1`.
pub(crate) const DIGIT_MASK: u64 = (1 << DIGIT_BITS) - 1;
/// Digits per 512-bit register.
pub(crate) const LANES: usize = 8;
/// The most registers per number [`amm`] is instantiated for: 10 registers, 80 digits,
/// 4160 bits (a 4096-bit modulus needs 79 digits). Also the lane-overflow bound above.
pub(crate) const MAX_REGS: usize = 10;

const UNKNOWN: u8 = 0;
const ABSENT: u8 = 1;
const PRESENT: u8 = 2;

static IFMA: AtomicU8 = AtomicU8::new(UNKNOWN);

/// Whether this CPU has AVX-512F and AVX-512 IFMA (CPUID through
/// `is_x86_feature_detected!`, checked once and cached).
#[inline]
pub(crate) fn has_ifma() -> bool {
    match IFMA.load(Ordering::Relaxed) {
        PRESENT => true,
        ABSENT => false,
        _ => detect_ifma(),
    }
}

#[cold]
#[inline(never)]
fn detect_ifma() -> bool {
    let present =
        std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512ifma");
    IFMA.store(if present { PRESENT } else { ABSENT }, Ordering::Relaxed);
    present
}

/// `out = AMM(a, b) = (a·b + y·m)/2^(52n)` (see the [module documentation](self)), in
/// normalized 52-bit digits.
///
/// `a`, `b`, `m`, `out`: exactly `8·regs` digits each, every digit below 2^52, `regs ≤`
/// [`MAX_REGS`]; `1 ≤ n ≤ 8·regs` digit steps; `m` odd, `m0inv = −m⁻¹ mod 2^52`. For
/// the result to be below `2m` and to fit in the `8·regs` digits: `a, b < 2m` and `4m ≤
/// 2^(52n)`. `out` may alias nothing (the borrow checker enforces it).
///
/// # Safety
/// The CPU must have AVX-512F and AVX-512 IFMA ([`has_ifma`]).
///
/// # Panics
/// If a length is not `8·regs` or `regs` is 0 or above [`MAX_REGS`].
pub(crate) unsafe fn amm(out: &mut [u64], a: &[u64], b: &[u64], m: &[u64], m0inv: u64, n: usize) {
    let len = m.len();
    assert!(
        len.is_multiple_of(LANES)
            && (1..=MAX_REGS).contains(&(len / LANES))
            && a.len() == len
            && b.len() == len
            && out.len() == len
            && (1..=len).contains(&n),
        "amm: operands must have 8·regs digits, regs ≤ {MAX_REGS}"
    );
    // SAFETY: (every arm) the CPU has AVX-512F and IFMA (the caller's guarantee), and the
    // lengths are 8·REGS (asserted above).
    unsafe {
        match len / LANES {
            1 => amm_regs::<1>(out, a, b, m, m0inv, n),
            2 => amm_regs::<2>(out, a, b, m, m0inv, n),
            3 => amm_regs::<3>(out, a, b, m, m0inv, n),
            4 => amm_regs::<4>(out, a, b, m, m0inv, n),
            5 => amm_regs::<5>(out, a, b, m, m0inv, n),
            6 => amm_regs::<6>(out, a, b, m, m0inv, n),
            7 => amm_regs::<7>(out, a, b, m, m0inv, n),
            8 => amm_regs::<8>(out, a, b, m, m0inv, n),
            9 => amm_regs::<9>(out, a, b, m, m0inv, n),
            _ => amm_regs::<10>(out, a, b, m, m0inv, n),
        }
    }
}

/// [`amm`] for `REGS` registers per number.
///
/// Two accumulators, `T` for the terms of `a·b_i` and `U` for those of `m·y`, so that each
/// step's additions form two chains of two multiply-adds and a shift instead of one of four;
/// and digit 0 of `T + U` is followed exactly in a scalar register (`acc0`), so that `y`
/// comes from scalar arithmetic beside the vectors rather than from a lane extracted after
/// them: with `x_1` digit 1 of `T + U` at the start of a step,
///
/// ```text
/// s   = acc0 + lo52(a_0·b_i),   y = s·m' mod 2^52,   c = (s + lo52(m_0·y)) >> 52
/// acc0' = x_1 + lo52(a_1·b_i) + lo52(m_1·y) + c + hi52(a_0·b_i) + hi52(m_0·y)
/// ```
///
/// which is digit 0 after the step (the low halves of digit 1, the carry out of digit 0,
/// and the high halves of digit 0, all moved down by the shift).
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn amm_regs<const REGS: usize>(
    out: &mut [u64],
    a: &[u64],
    b: &[u64],
    m: &[u64],
    m0inv: u64,
    n: usize,
) {
    debug_assert!(a.len() == 8 * REGS && b.len() == 8 * REGS && m.len() == 8 * REGS);
    debug_assert!(out.len() == 8 * REGS && n <= 8 * REGS);
    let zero = _mm512_setzero_si512();
    let mut av = [zero; REGS];
    let mut mv = [zero; REGS];
    for j in 0..REGS {
        // SAFETY: a[8j..8j + 8] and m[8j..8j + 8] are in bounds (lengths 8·REGS);
        // unaligned loads.
        unsafe {
            av[j] = _mm512_loadu_si512(a.as_ptr().add(8 * j) as *const _);
            mv[j] = _mm512_loadu_si512(m.as_ptr().add(8 * j) as *const _);
        }
    }
    let (a0, a1, m0, m1) = (a[0], a[1], m[0], m[1]);
    let mut t = [zero; REGS];
    let mut u = [zero; REGS];
    let mut acc0 = 0u64;
    for &bi in &b[..n] {
        // Digit 1 of T + U as the step starts (the vectors of the previous step).
        let x1 = lane1(_mm512_add_epi64(t[0], u[0]));
        let ab0 = a0 as u128 * bi as u128;
        let s = acc0 + (ab0 as u64 & DIGIT_MASK);
        let y = s.wrapping_mul(m0inv) & DIGIT_MASK;
        let my0 = m0 as u128 * y as u128;
        let c = (s + (my0 as u64 & DIGIT_MASK)) >> DIGIT_BITS;
        acc0 = x1
            + (a1.wrapping_mul(bi) & DIGIT_MASK)
            + (m1.wrapping_mul(y) & DIGIT_MASK)
            + c
            + (ab0 >> DIGIT_BITS) as u64
            + (my0 >> DIGIT_BITS) as u64;

        let bv = _mm512_set1_epi64(bi as i64);
        let yv = _mm512_set1_epi64(y as i64);
        for j in 0..REGS {
            t[j] = _mm512_madd52lo_epu64(t[j], av[j], bv);
            u[j] = _mm512_madd52lo_epu64(u[j], mv[j], yv);
        }
        // Digit 0 of T + U is now ≡ 0 mod 2^52 (its value is s + lo52(m_0·y)): shift both
        // down one lane and put the carry c into the new digit 0.
        for j in 0..REGS - 1 {
            t[j] = _mm512_alignr_epi64::<1>(t[j + 1], t[j]);
            u[j] = _mm512_alignr_epi64::<1>(u[j + 1], u[j]);
        }
        t[REGS - 1] = _mm512_alignr_epi64::<1>(zero, t[REGS - 1]);
        u[REGS - 1] = _mm512_alignr_epi64::<1>(zero, u[REGS - 1]);
        t[0] = _mm512_mask_add_epi64(t[0], 1, t[0], _mm512_set1_epi64(c as i64));
        for j in 0..REGS {
            t[j] = _mm512_madd52hi_epu64(t[j], av[j], bv);
            u[j] = _mm512_madd52hi_epu64(u[j], mv[j], yv);
        }
    }
    for j in 0..REGS {
        let v = _mm512_add_epi64(t[j], u[j]);
        // SAFETY: out[8j..8j + 8] is in bounds (length 8·REGS); unaligned store.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(8 * j) as *mut _, v) };
    }
    debug_assert_eq!(out[0], acc0);
    normalize(out);
}

/// Lane 1 of `v`.
#[inline(always)]
fn lane1(v: __m512i) -> u64 {
    // SAFETY: PEXTRQ is SSE4.1, implied by AVX-512F, which every caller (a function with
    // `avx512f` enabled) has; the cast only reinterprets the low 128 bits.
    unsafe { _mm_extract_epi64::<1>(_mm512_castsi512_si128(v)) as u64 }
}

/// Carries the lanes' excess over 52 bits upwards, leaving every digit below 2^52. The
/// value must fit in the digits (the carry out of the top is zero by [`amm`]'s bound).
#[inline]
pub(crate) fn normalize(d: &mut [u64]) {
    let mut carry = 0u64;
    for x in d.iter_mut() {
        let v = *x + carry;
        *x = v & DIGIT_MASK;
        carry = v >> DIGIT_BITS;
    }
    debug_assert_eq!(carry, 0, "amm: the value does not fit in its digits");
}

/// The portable twin of [`amm`]: the same steps with one digit at a time and the digit
/// sums in `u128`, for the tests, for the valgrind check of the constant-time
/// exponentiation around the kernels (`ct::MontgomeryCt::pow_radix52_portable`), and for
/// reading: it is the algorithm without the lanes. Branch-free like [`amm`]: every loop
/// runs over lengths only.
pub(crate) fn amm_portable(out: &mut [u64], a: &[u64], b: &[u64], m: &[u64], m0inv: u64, n: usize) {
    let len = m.len();
    let mut t = vec![0u128; len + 2];
    for &bi in &b[..n] {
        for j in 0..len {
            t[j] += a[j] as u128 * bi as u128;
        }
        let y = ((t[0] as u64) & DIGIT_MASK).wrapping_mul(m0inv) & DIGIT_MASK;
        for j in 0..len {
            t[j] += m[j] as u128 * y as u128;
        }
        // Normalize just enough to divide by 2^52: t_0 is now ≡ 0 mod 2^52.
        debug_assert_eq!(t[0] as u64 & DIGIT_MASK, 0);
        let c = t[0] >> DIGIT_BITS;
        for j in 0..=len {
            t[j] = t[j + 1];
        }
        t[len + 1] = 0;
        t[0] += c;
        // Keep the digit sums small: carry each one's excess over 52 bits upwards.
        let mut carry = 0u128;
        for x in t.iter_mut() {
            let v = *x + carry;
            *x = v & DIGIT_MASK as u128;
            carry = v >> DIGIT_BITS;
        }
    }
    for (o, &x) in out.iter_mut().zip(&t) {
        *o = x as u64;
    }
    debug_assert!(t[len..].iter().all(|&x| x == 0));
}

/// The all-ones masks `mask[j] = −[j = idx]` for the table scans, each through
/// [`core::hint::black_box`] (an LLVM that sees a mask is 0 or all ones may turn the
/// select into a branch; see `crate::ct`).
#[inline(always)]
fn scan_masks(entries: usize, idx: u64, masks: &mut [u64; MAX_ENTRIES]) {
    for (j, mask) in masks.iter_mut().enumerate().take(entries) {
        let x = j as u64 ^ idx;
        // x | −x has its top bit set iff x ≠ 0.
        let ne = (x | x.wrapping_neg()) >> 63;
        *mask = (ne ^ 1).wrapping_neg();
    }
    core::hint::black_box(&mut *masks);
}

/// The most entries a table scan takes (a 6-bit window).
pub(crate) const MAX_ENTRIES: usize = 64;

/// `out = table[idx]` for a table of `table.len() / out.len()` entries of `out.len()`
/// digits each (at most [`MAX_ENTRIES`]), in constant time: every entry is read in full
/// and combined into `out` with an all-ones or all-zeros mask, so neither the addresses
/// read nor any branch depend on `idx` (OpenSSL's RSAZ code gathers its window entries the
/// same way). `out.len()` a multiple of 8.
///
/// # Safety
/// The CPU must have AVX-512F ([`has_ifma`] implies it).
///
/// # Panics
/// If the lengths do not fit together.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn select_ct(out: &mut [u64], table: &[u64], idx: u64) {
    let len = out.len();
    assert!(
        len.is_multiple_of(LANES)
            && len <= LANES * MAX_REGS
            && len > 0
            && table.len().is_multiple_of(len)
            && table.len() / len <= MAX_ENTRIES,
        "select_ct: the table must hold whole entries of the output's length"
    );
    let entries = table.len() / len;
    let mut masks = [0u64; MAX_ENTRIES];
    scan_masks(entries, idx, &mut masks);
    let regs = len / LANES;
    let mut acc = [_mm512_setzero_si512(); MAX_REGS];
    for (j, &mask) in masks.iter().enumerate().take(entries) {
        let mv = _mm512_set1_epi64(mask as i64);
        let row = &table[j * len..(j + 1) * len];
        for (r, a) in acc.iter_mut().enumerate().take(regs) {
            // SAFETY: row[8r..8r + 8] is in bounds (r < regs = len/8); unaligned load.
            let v = unsafe { _mm512_loadu_si512(row.as_ptr().add(LANES * r) as *const _) };
            *a = _mm512_or_si512(*a, _mm512_and_si512(v, mv));
        }
    }
    for (r, a) in acc.iter().enumerate().take(regs) {
        // SAFETY: out[8r..8r + 8] is in bounds (r < regs); unaligned store.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(LANES * r) as *mut _, *a) };
    }
}

/// The portable twin of [`select_ct`]: the same scan one digit at a time.
pub(crate) fn select_ct_portable(out: &mut [u64], table: &[u64], idx: u64) {
    let len = out.len();
    assert!(
        len > 0 && table.len().is_multiple_of(len) && table.len() / len <= MAX_ENTRIES,
        "select_ct: the table must hold whole entries of the output's length"
    );
    let entries = table.len() / len;
    let mut masks = [0u64; MAX_ENTRIES];
    scan_masks(entries, idx, &mut masks);
    out.fill(0);
    for (row, &mask) in table.chunks_exact(len).zip(&masks) {
        for (o, &x) in out.iter_mut().zip(row) {
            *o |= x & mask;
        }
    }
}
