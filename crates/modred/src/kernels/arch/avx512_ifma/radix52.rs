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

use alloc::vec;
use core::arch::x86_64::*;

/// Bits per digit.
pub(crate) const DIGIT_BITS: u32 = 52;
/// `2^52 − 1`.
pub(crate) const DIGIT_MASK: u64 = (1 << DIGIT_BITS) - 1;
/// Digits per 512-bit register.
pub(crate) const LANES: usize = 8;
/// The most registers per number [`amm`] is instantiated for: 10 registers, 80 digits,
/// 4160 bits (a 4096-bit modulus needs 79 digits). Also the lane-overflow bound above.
pub(crate) const MAX_REGS: usize = 10;

/// Whether this CPU has AVX-512F and AVX-512 IFMA ([`crate::kernels::cpu::avx512_ifma`]).
#[inline]
pub(crate) fn has_ifma() -> bool {
    crate::kernels::cpu::avx512_ifma()
}

/// Whether this CPU has, besides [`has_ifma`]'s, AVX-512BW and AVX-512 VBMI
/// ([`crate::kernels::cpu::avx512_vbmi`]), for [`to_radix52_vbmi`] and [`from_radix52_vbmi`].
#[inline]
pub(crate) fn has_vbmi() -> bool {
    crate::kernels::cpu::avx512_vbmi()
}

/// The bytes `[from, from + 64)` of the little-endian `x`, those past its end zero,
/// with no masked memory access where `x` has 64 bytes or more: a load that would reach
/// past the end of `x` is made at its last 64 bytes instead and moved down (`vpermb`
/// with a zeroing mask). (A masked store or load whose masked-off bytes lie in another
/// page can cost hundreds of cycles — measured: a product 1.8 times slower when its
/// output happened to end 24 bytes before a page boundary.)
#[inline(always)]
unsafe fn load_bytes(x: &[u64], from: usize) -> __m512i {
    // SAFETY: inlined only into functions with AVX-512F, BW and VBMI enabled, on a CPU
    // that has them (their callers' guarantee); every load below reads bytes of `x` only.
    unsafe {
        let total = 8 * x.len();
        let ptr = x.as_ptr() as *const i8;
        if from >= total {
            _mm512_setzero_si512()
        } else if from + 64 <= total {
            _mm512_loadu_si512(ptr.add(from) as *const _)
        } else if total >= 64 {
            let last = _mm512_loadu_si512(ptr.add(total - 64) as *const _);
            let shift = from - (total - 64); // 1..=63
            let idx = _mm512_add_epi8(table(&IOTA), _mm512_set1_epi8(shift as i8));
            _mm512_maskz_permutexvar_epi8((1u64 << (64 - shift)) - 1, idx, last)
        } else {
            // `from < total < 64`: the mask selects only the bytes inside `x`.
            _mm512_maskz_loadu_epi8((1u64 << (total - from)) - 1, ptr.add(from))
        }
    }
}

/// `0, 1, …, 63`.
const IOTA: [u8; 64] = {
    let mut idx = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        idx[i] = i as u8;
        i += 1;
    }
    idx
};

/// Stores the digits in `v` (normalized, `8·REGS` of them) into the u64 digits `out`;
/// the value must fit. The 52 bytes of each register ([`from_radix52_reg`]) are written
/// at byte `52j` of a buffer on the stack by plain 64-byte stores, each overwriting the
/// previous one's 12 unused bytes, and the buffer copied into `out` by plain 64-byte
/// moves (the last one ending at `out`'s end, overlapping the one before): no masked
/// store (see [`load_bytes`]).
#[inline(always)]
unsafe fn store_words<const REGS: usize>(out: &mut [u64], v: &[__m512i; REGS]) {
    // The 52·REGS bytes and room for the last 64-byte store.
    let mut buf = [0u64; 8 * MAX_REGS];
    let total = 8 * out.len();
    assert!(total <= 52 * REGS, "store_words: more words than digits");
    // SAFETY: inlined only into functions with AVX-512F, BW and VBMI enabled, on a CPU
    // that has them (their callers' guarantee); the stores to `buf` are at bytes
    // `52j..52j + 64 ≤ 52·(MAX_REGS − 1) + 64 ≤ 8·8·MAX_REGS`, and the loads and stores
    // of the copy at bytes below `total ≤ 52·REGS`, inside `buf` and `out`.
    unsafe {
        let b = buf.as_mut_ptr() as *mut i8;
        for (j, r) in v.iter().enumerate() {
            _mm512_storeu_si512(b.add(52 * j) as *mut _, from_radix52_reg(*r));
        }
        let o = out.as_mut_ptr() as *mut i8;
        if total >= 64 {
            let mut at = 0;
            while at + 64 < total {
                _mm512_storeu_si512(o.add(at) as *mut _, _mm512_loadu_si512(b.add(at) as *const _));
                at += 64;
            }
            let last = total - 64;
            _mm512_storeu_si512(o.add(last) as *mut _, _mm512_loadu_si512(b.add(last) as *const _));
        } else {
            out.copy_from_slice(&buf[..out.len()]);
        }
    }
}

/// The `vpermb` index of [`to_radix52_reg`]: lane `l` gets the eight bytes from byte
/// `⌊52l/8⌋` (digit `l` starts there, at bit 0 for even `l` and bit 4 for odd `l`).
const GATHER_IDX: [u8; 64] = {
    let mut idx = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        let (lane, t) = (i / 8, i % 8);
        idx[i] = (52 * lane / 8 + t) as u8;
        i += 1;
    }
    idx
};

/// The `vpermb` index of [`from_radix52_reg`]: output byte `13p + t` (`t < 13`) of the 52
/// is byte `t` of the 16 bytes of lane pair `p` (the 104 bits of digits `2p`, `2p + 1`
/// laid out contiguously by [`from_radix52_reg`]); the last 12 bytes are not used.
const PACK_IDX: [u8; 64] = {
    let mut idx = [0u8; 64];
    let mut o = 0;
    while o < 52 {
        idx[o] = (16 * (o / 13) + o % 13) as u8;
        o += 1;
    }
    idx
};

/// A 64-byte table as a register.
#[inline(always)]
fn table(t: &'static [u8; 64]) -> __m512i {
    // SAFETY: inlined only into functions with AVX-512F (and where used IFMA, BW, VBMI)
    // enabled, on a CPU that has them (their callers' guarantee); the memory accesses are
    // explained where they are made.
    unsafe {
        // Reads the 64 bytes of `t`; unaligned load.
        _mm512_loadu_si512(t.as_ptr() as *const _)
    }
}

/// Register `j` of the 52-bit digits of `x` (digits `8j..8j + 8`), for
/// [`to_radix52_vbmi`]: digit `8j + l` is bits `[52l, 52l + 52)` of the 52 bytes from byte
/// `52j`, so the eight bytes from byte `⌊52l/8⌋` moved into lane `l` (`vpermb`), shifted
/// right by 4 in the odd lanes and masked to 52 bits.
#[inline(always)]
unsafe fn to_radix52_reg(x: &[u64], j: usize) -> __m512i {
    // SAFETY: inlined only into functions with AVX-512F (and where used IFMA, BW, VBMI)
    // enabled, on a CPU that has them (their callers' guarantee); the memory accesses are
    // explained where they are made.
    unsafe {
        let bytes = load_bytes(x, 52 * j);
        let v = _mm512_permutexvar_epi8(table(&GATHER_IDX), bytes);
        let v = _mm512_srlv_epi64(v, _mm512_set_epi64(4, 0, 4, 0, 4, 0, 4, 0));
        _mm512_and_si512(v, _mm512_set1_epi64(DIGIT_MASK as i64))
    }
}

/// The `vpermb` index of [`to_radix52_reg_shifted`] for a start 4 bits into a byte: lane
/// `l` gets the eight bytes from byte `⌊(4 + 52l)/8⌋` (its digit starts at bit 4 there
/// for even `l`, at bit 0 for odd `l`).
const GATHER_IDX_4: [u8; 64] = {
    let mut idx = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        let (lane, t) = (i / 8, i % 8);
        idx[i] = ((4 + 52 * lane) / 8 + t) as u8;
        i += 1;
    }
    idx
};

/// Register `j` of the 52-bit digits of `x·2^e` (digits `8j..8j + 8`), `e < 64`, `e ≡ 0
/// mod 4`: digit `i` is bits `[52i − e, 52i − e + 52)` of `x` (those below 0 zero). The
/// first digit of register `j` starts at bit `416j − e`, so at byte `⌊(416j − e)/8⌋`, at
/// bit 0 or 4 of it (the same for every `j`): the lanes are gathered by [`GATHER_IDX`] or
/// [`GATHER_IDX_4`] from there. Where that byte is before `x` (register 0, `e > 0`), the
/// bytes are loaded from `x`'s start and the index moved down, the lanes' bytes before
/// `x` zeroed by the permutation's mask.
#[inline(always)]
unsafe fn to_radix52_reg_shifted(x: &[u64], j: usize, e: u32) -> __m512i {
    // SAFETY: inlined only into functions with AVX-512F (and where used IFMA, BW, VBMI)
    // enabled, on a CPU that has them (their callers' guarantee); the memory accesses are
    // explained where they are made.
    unsafe {
        debug_assert!(e < 64 && e % 4 == 0);
        let start = 416 * j as isize - e as isize;
        let (base, bit) = (start.div_euclid(8), start.rem_euclid(8));
        let (idx, shifts) = if bit == 0 {
            (table(&GATHER_IDX), _mm512_set_epi64(4, 0, 4, 0, 4, 0, 4, 0))
        } else {
            (table(&GATHER_IDX_4), _mm512_set_epi64(0, 4, 0, 4, 0, 4, 0, 4))
        };
        let v = if base >= 0 {
            let bytes = load_bytes(x, base as usize);
            _mm512_permutexvar_epi8(idx, bytes)
        } else {
            let bytes = load_bytes(x, 0);
            let idx = _mm512_add_epi8(idx, _mm512_set1_epi8(base as i8));
            let inside = _mm512_cmpge_epi8_mask(idx, _mm512_setzero_si512());
            _mm512_maskz_permutexvar_epi8(inside, idx, bytes)
        };
        let v = _mm512_srlv_epi64(v, shifts);
        _mm512_and_si512(v, _mm512_set1_epi64(DIGIT_MASK as i64))
    }
}

/// The 52 bytes of the normalized digits in `v` (eight digits below 2^52, 416 bits) in
/// its low 52 bytes: each pair of digits `(d_2p, d_2p+1)` becomes `d_2p | d_2p+1 << 52`
/// and `d_2p+1 >> 12` in its two lanes (13 contiguous bytes of 16), then the pairs are
/// packed together (`vpermb`).
#[inline(always)]
fn from_radix52_reg(v: __m512i) -> __m512i {
    // SAFETY: inlined only into functions with AVX-512F (and where used IFMA, BW, VBMI)
    // enabled, on a CPU that has them (their callers' guarantee); the memory accesses are
    // explained where they are made.
    unsafe {
        let swapped = _mm512_shuffle_epi32::<0b0100_1110>(v); // the two lanes of each pair
        let low = _mm512_or_si512(v, _mm512_slli_epi64::<52>(swapped));
        let high = _mm512_srli_epi64::<12>(v);
        let pairs = _mm512_mask_blend_epi64(0xaa, low, high);
        _mm512_permutexvar_epi8(table(&PACK_IDX), pairs)
    }
}

/// `out` = `x` (u64 digits) in 52-bit digits, `out.len()` a multiple of 8, at most
/// `8·`[`MAX_REGS`]; `x` must fit (its bits past `52·out.len()` zero). The digits of
/// `engine::ifma`'s scalar conversion, eight at a time.
///
/// # Safety
/// The CPU must have AVX-512F, BW and VBMI ([`has_vbmi`]).
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(crate) unsafe fn to_radix52_vbmi(x: &[u64], out: &mut [u64]) {
    assert!(out.len().is_multiple_of(LANES), "to_radix52: whole registers");
    for (j, o) in out.chunks_exact_mut(LANES).enumerate() {
        // SAFETY: the CPU has the features (the caller's guarantee); `o` has 8 digits.
        unsafe {
            let v = to_radix52_reg(x, j);
            _mm512_storeu_si512(o.as_mut_ptr() as *mut _, v);
        }
    }
}

/// `out` = the 52-bit digits `d` (each below 2^52, `d.len()` a multiple of 8) as u64
/// digits; the value must fit in `out` (the digits past `64·out.len()` bits zero).
///
/// # Safety
/// The CPU must have AVX-512F, BW and VBMI ([`has_vbmi`]).
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(crate) unsafe fn from_radix52_vbmi(d: &[u64], out: &mut [u64]) {
    assert!(d.len().is_multiple_of(LANES), "from_radix52: whole registers");
    let total = 8 * out.len();
    let bytes = out.as_mut_ptr() as *mut i8;
    for (j, c) in d.chunks_exact(LANES).enumerate() {
        let from = 52 * j;
        if from >= total {
            debug_assert!(c.iter().all(|&v| v == 0), "from_radix52: the value does not fit");
            continue;
        }
        let n = (total - from).min(52);
        let mask: __mmask64 = (1u64 << n) - 1;
        // SAFETY: `c` has 8 digits; the masked store writes the `n` bytes
        // `[from, from + n)`, inside `out` (`from + n ≤ 8·out.len()`); the CPU has the
        // features (the caller's guarantee).
        unsafe {
            let v = from_radix52_reg(_mm512_loadu_si512(c.as_ptr() as *const _));
            _mm512_mask_storeu_epi8(bytes.add(from), mask, v);
        }
    }
    // The bytes past the digits' 52·d.len()/8 (when out is longer): zero.
    let written = (52 * (d.len() / LANES)).min(total);
    let mut i = written.div_ceil(8);
    if written % 8 != 0 {
        let keep = written % 8;
        out[i - 1] &= (1u64 << (8 * keep)) - 1;
    }
    while i < out.len() {
        out[i] = 0;
        i += 1;
    }
}

/// `out = AMM(a, b) = (a·b + y·m)/2^(52n)` (see the [module documentation](self)), in
/// normalized 52-bit digits.
///
/// `a`, `b`, `m`, `out`: exactly `8·regs` digits each, every digit below 2^52, `regs ≤`
/// [`MAX_REGS`]; `1 ≤ n ≤ 8·regs` digit steps; `m` odd, `m0inv = −m⁻¹ mod 2^52`. For
/// the result to be below `2m` and to fit in the `8·regs` digits: `a, b < 2m` and `4m ≤
/// 2^(52n)`. `out` may alias nothing (the borrow checker enforces it).
///
/// Constant time: no branch or address depends on the digits ([`amm_vartime`] is the
/// same product with a branch in its normalization).
///
/// # Safety
/// The CPU must have AVX-512F and AVX-512 IFMA ([`has_ifma`]).
///
/// # Panics
/// If a length is not `8·regs` or `regs` is 0 or above [`MAX_REGS`].
pub(crate) unsafe fn amm(out: &mut [u64], a: &[u64], b: &[u64], m: &[u64], m0inv: u64, n: usize) {
    // SAFETY: the caller's guarantee.
    unsafe { amm_any::<false>(out, a, b, m, m0inv, n) }
}

/// [`amm`] for the variable-time callers (the exponentiation by
/// `exp::pow_vartime`, one-off products): the same value, the normalization's second
/// pass skipped when no lane carries ([`normalize_regs`]). A branch on the values.
///
/// # Safety
/// As [`amm`].
///
/// # Panics
/// As [`amm`].
pub(crate) unsafe fn amm_vartime(
    out: &mut [u64],
    a: &[u64],
    b: &[u64],
    m: &[u64],
    m0inv: u64,
    n: usize,
) {
    // SAFETY: the caller's guarantee.
    unsafe { amm_any::<true>(out, a, b, m, m0inv, n) }
}

/// [`amm`] (`VARTIME` false) or [`amm_vartime`]: the checks and the dispatch on the
/// register count.
///
/// # Safety
/// As [`amm`].
#[inline(always)]
unsafe fn amm_any<const VARTIME: bool>(
    out: &mut [u64],
    a: &[u64],
    b: &[u64],
    m: &[u64],
    m0inv: u64,
    n: usize,
) {
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
            1 => amm_regs::<1, VARTIME>(out, a, b, m, m0inv, n),
            2 => amm_regs::<2, VARTIME>(out, a, b, m, m0inv, n),
            3 => amm_regs::<3, VARTIME>(out, a, b, m, m0inv, n),
            4 => amm_regs::<4, VARTIME>(out, a, b, m, m0inv, n),
            5 => amm_regs::<5, VARTIME>(out, a, b, m, m0inv, n),
            6 => amm_regs::<6, VARTIME>(out, a, b, m, m0inv, n),
            7 => amm_regs::<7, VARTIME>(out, a, b, m, m0inv, n),
            8 => amm_regs::<8, VARTIME>(out, a, b, m, m0inv, n),
            9 => amm_regs::<9, VARTIME>(out, a, b, m, m0inv, n),
            _ => amm_regs::<10, VARTIME>(out, a, b, m, m0inv, n),
        }
    }
}

/// [`amm`] for `REGS` registers per number: [`amm_core`] on the operands loaded from
/// memory, then [`normalize_regs`].
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn amm_regs<const REGS: usize, const VARTIME: bool>(
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
    let (mut av, mut bv, mut mv) = ([zero; REGS], [zero; REGS], [zero; REGS]);
    for j in 0..REGS {
        // SAFETY: a, b, m [8j..8j + 8] are in bounds (lengths 8·REGS); unaligned loads.
        unsafe {
            av[j] = _mm512_loadu_si512(a.as_ptr().add(8 * j) as *const _);
            bv[j] = _mm512_loadu_si512(b.as_ptr().add(8 * j) as *const _);
            mv[j] = _mm512_loadu_si512(m.as_ptr().add(8 * j) as *const _);
        }
    }
    // SAFETY: the CPU has AVX-512F and IFMA (the caller's guarantee); n ≤ 8·REGS.
    let mut v = unsafe { amm_core(&av, &mv, &bv, m0inv, n) };
    normalize_regs::<REGS, VARTIME>(&mut v);
    for (j, r) in v.iter().enumerate() {
        // SAFETY: out[8j..8j + 8] is in bounds (length 8·REGS); unaligned store.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(8 * j) as *mut _, *r) };
    }
}

/// The `n ≤ 8·REGS` steps of [`amm`] on operands in registers (`a`, `m`, `b` in 52-bit
/// digits, `m0inv = −m⁻¹ mod 2^52`): returns `(a·b + y·m)/2^(52n)` in unnormalized lanes
/// (each below 2^61, the module's bound).
///
/// Two accumulators, `T` for the terms of `a·b_i` and `U` for those of `m·y`, so that a
/// step's additions form two chains of a multiply-add, a shift and a multiply-add instead
/// of one of four. `y` is computed from digit 0 of `T + U` followed exactly in a scalar
/// register `D`, beside the vectors; with `x_1` digit 1 of `T + U` as the step starts:
///
/// ```text
/// s  = D + lo52(a_0·b_i)          y = s·m' mod 2^52
/// D' = x_1 + lo52(a_1·b_i) + lo52(m_1·y) + (D + a_0·b_i + m_0·y)/2^52
/// ```
///
/// (digit 0 after the step: the low halves of digit 1, and everything of digit 0 carried
/// down by the division, which is exact). The scalar recurrence `D → y → D'` is what a
/// step cannot be shorter than, so it is cut to two multiplications:
///
/// * the terms of `b_i` alone are computed for all `i` before the loop, eight at a time
///   (`lo52(a_0·b_i) + 2^52 − 1`, `hi52(a_0·b_i) + lo52(a_1·b_i)`, `lo52(a_0·m'·b_i)`);
/// * `y` is carried as `y·2^12` (the top 52 bits of a 64-bit word):
///   `y·2^12 = D·(m'·2^12) + lo52(a_0·m'·b_i)·2^12 mod 2^64` is one multiplication and an
///   addition; then the high word of `m_0·(y·2^12)` is `hi52(m_0·y)` and the low word of
///   `m_1·(y·2^12)` shifted right by 12 is `lo52(m_1·y)`, with no masking on the way;
/// * `(D + a_0·b_i + m_0·y)/2^52 = ⌈s/2^52⌉ + hi52(a_0·b_i) + hi52(m_0·y)`, because
///   `s + lo52(m_0·y)` is a multiple of 2^52 and `lo52(m_0·y) < 2^52` — no addition
///   that waits for `y` carries — and `⌈s/2^52⌉ = (s + 2^52 − 1) >> 52` is one shift
///   with the `2^52 − 1` added to the precomputed term.
///
/// Up to six registers `U` runs two steps behind: step `i` adds `m·y` of step `i − 2`,
/// so that the digit 1 read for a `y` does not wait for the broadcast, multiply-adds and
/// shift of either of the two `y` before it. Their terms in digit 1 are added in scalar:
/// `e = lo52(m_2·y) + hi52(m_1·y)` of the last step's `y`, `g = lo52(m_3·y) + hi52(m_2·y)`
/// of the one before. U's lanes are kept one digit below T's, as with a lag of one step
/// (the `m·y` of two steps back is taken with `m` moved down a lane: its digit-0 terms
/// fall below what `D` has already summed). From seven registers, where the multiply-adds'
/// rate rather than a step's latency bounds the product, `U` runs one step behind (`m·y`
/// of step `i − 1`, its terms `e` in scalar, `g` zero). (At 4096 bits a lag of one step
/// and the one-shift carry above took 0.89 of the time before; at 1024 bits on an AMD
/// Zen 5 the second step of lag took a product from 81 to 68 ns — the path from a `y`
/// through the vector unit back to a `y` now spans three steps and no longer outlasts the
/// scalar recurrence; at 1300–2300 bits, four to six registers, powm took 0.95–0.99 of
/// the time. A third step of lag measured slower, its copies of `m` spilling; two steps
/// took the same time at seven registers (2600 bits) and 1.03–1.05× at eight (3072).)
///
/// Up to three registers, where `a` and `m` leave the top two lanes zero (`n + 2 ≤
/// 8·REGS` for [`amm`]'s operands: the sizes of up to 1196 bits), the steps go in pairs
/// with one two-lane shift per pair: the second step's terms land one lane up, so they
/// are taken with `a` and `m` moved up one lane (and `a` two for its high halves), and each
/// step of a pair has its own accumulators (`T = Te + To`, `U = Ue + Uo`), so that no
/// register waits on more than two multiply-adds and a shift per pair. The digits read
/// for `y` go through memory (a store and loads) and the previous `y` is broadcast from
/// memory: the shuffle port is the one the multiply-adds share. With four registers or
/// more the copies and accumulators no longer fit in the 32 vector registers (measured:
/// 1536 and 3072 bits slower, up to twice), so those sizes take one step per shift.
///
/// Lane 0 of the vectors is not kept exact (the carry into digit 0 lives in `D` only;
/// lane 0 is shifted out by the next step before anything reads it) and is replaced by
/// `D` at the end.
///
/// # Safety
/// The CPU must have AVX-512F and IFMA; every digit below 2^52; `n ≤ 8·REGS`.
#[inline(always)]
unsafe fn amm_core<const REGS: usize>(
    av: &[__m512i; REGS],
    mv: &[__m512i; REGS],
    bv: &[__m512i; REGS],
    m0inv: u64,
    n: usize,
) -> [__m512i; REGS] {
    // SAFETY: inlined only into functions with AVX-512F (and where used IFMA, BW, VBMI)
    // enabled, on a CPU that has them (their callers' guarantee); the memory accesses are
    // explained where they are made.
    unsafe {
        let zero = _mm512_setzero_si512();
        let (a0, a1) = (lane0(av[0]), lane1(av[0]));
        let (m0, m1, m2) = (lane0(mv[0]), lane1(mv[0]), lane2(mv[0]));
        let m3 = lane_of(&low_lanes(mv[0]), 3);
        let m12 = m0inv << 12;
        let a0m = a0.wrapping_mul(m0inv) & DIGIT_MASK;
        let (a0v, a1v, a0mv) = (
            _mm512_set1_epi64(a0 as i64),
            _mm512_set1_epi64(a1 as i64),
            _mm512_set1_epi64(a0m as i64),
        );
        // The per-step terms of b, eight steps to a register.
        let mut bs = Lines([[0u64; LANES]; REGS]);
        let mut ks = Lines([[0u64; LANES]; REGS]);
        let mut hs = Lines([[0u64; LANES]; REGS]);
        let mut ys = Lines([[0u64; LANES]; REGS]);
        for (j, &b) in bv.iter().enumerate() {
            // lo52(a_0·b_i) + 2^52 − 1: the carry below is then one shift.
            let k = _mm512_madd52lo_epu64(_mm512_set1_epi64(DIGIT_MASK as i64), b, a0v);
            let h = _mm512_madd52lo_epu64(_mm512_madd52hi_epu64(zero, b, a0v), b, a1v);
            let y = _mm512_slli_epi64::<12>(_mm512_madd52lo_epu64(zero, b, a0mv));
            {
                _mm512_store_si512(bs.0[j].as_mut_ptr() as *mut _, b);
                _mm512_store_si512(ks.0[j].as_mut_ptr() as *mut _, k);
                _mm512_store_si512(hs.0[j].as_mut_ptr() as *mut _, h);
                _mm512_store_si512(ys.0[j].as_mut_ptr() as *mut _, y);
            }
        }
        let (bs, ks, hs, ys) =
            (bs.0.as_flattened(), ks.0.as_flattened(), hs.0.as_flattened(), ys.0.as_flattened());
        // U's lag (see above): two steps up to six registers, one above (measured).
        let lag2 = REGS <= 6;
        // m moved down one digit: U takes the m·y of a step two steps later, one lane
        // lower (its digit-0 terms are below what U must hold: D has them).
        let md1 = if lag2 { shifted_down::<REGS, 1>(mv) } else { *mv };
        let mut t = [zero; REGS];
        let mut u = [zero; REGS];
        let mut d = 0u64;
        // The two previous steps' y (their m·y not yet in U), and their terms of digit 1:
        // `e` those of the last step, `g` those of the one before.
        let (mut y_prev2, mut y_prev1) = (zero, zero);
        let (mut e, mut g, mut g_next) = (0u64, 0u64, 0u64);
        // One step's scalar part: y (as y·2^12) from D, D' from x_1 (T's and U's parts).
        let scalar =
            |d: &mut u64, e: &mut u64, g: &mut u64, g_next: &mut u64, x1: u64, i: usize| -> u64 {
                let y12 = d.wrapping_mul(m12).wrapping_add(ys[i]);
                let hi_m0y = ((m0 as u128 * y12 as u128) >> 64) as u64;
                let lo_m1y = m1.wrapping_mul(y12) >> DIGIT_SHIFT_12;
                // ⌈(D + lo52(a_0·b_i))/2^52⌉ (`ks` holds the 2^52 − 1).
                let c = (*d + ks[i]) >> DIGIT_BITS;
                *d = x1 + *e + *g + hs[i] + lo_m1y + hi_m0y + c;
                // This y's terms of the next digit up (digit 1 of the next step), and of the
                // one above it (digit 1 of the step after).
                *e = (m2.wrapping_mul(y12) >> DIGIT_SHIFT_12)
                    + ((m1 as u128 * y12 as u128) >> 64) as u64;
                if lag2 {
                    *g = *g_next;
                    *g_next = (m3.wrapping_mul(y12) >> DIGIT_SHIFT_12)
                        + ((m2 as u128 * y12 as u128) >> 64) as u64;
                }
                y12
            };
        let mut i = 0;
        // Pairs of steps where they fit (see above): 4·REGS accumulators and 6·REGS
        // copies of a and m in the 32 registers, and a, m (whatever `n`) with two lanes
        // of room at the top for the copies moved up.
        if REGS <= 3 && top_lanes_clear(&av[REGS - 1], &mv[REGS - 1]) {
            let (a1v, a2v) = (shifted_up::<REGS, 7>(av), shifted_up::<REGS, 6>(av));
            let m1v = shifted_up::<REGS, 7>(mv);
            let (mut te, mut to, mut ue, mut uo) =
                ([zero; REGS], [zero; REGS], [zero; REGS], [zero; REGS]);
            while i + 2 <= n {
                // T lane j is digit i + j, U lane j digit i − 1 + j: digit i + 1 is T's
                // lane 1 and U's lane 2, digit i + 2 (for the second step) lanes 2 and 3.
                let (tl, ul) = (
                    low_lanes(_mm512_add_epi64(te[0], to[0])),
                    low_lanes(_mm512_add_epi64(ue[0], uo[0])),
                );
                let x1 = lane_of(&tl, 1) + lane_of(&ul, 2);
                let y12 = scalar(&mut d, &mut e, &mut g, &mut g_next, x1, i);
                madd_lo_hi(&mut te, av, &a1v, _mm512_set1_epi64(bs[i] as i64));
                madd_lo_hi(&mut ue, &md1, mv, y_prev2);
                (y_prev2, y_prev1) = (y_prev1, broadcast_via_memory(y12 >> DIGIT_SHIFT_12));
                let (tl, ul) = (
                    low_lanes(_mm512_add_epi64(te[0], to[0])),
                    low_lanes(_mm512_add_epi64(ue[0], uo[0])),
                );
                let x1 = lane_of(&tl, 2) + lane_of(&ul, 3);
                let y12 = scalar(&mut d, &mut e, &mut g, &mut g_next, x1, i + 1);
                madd_lo_hi(&mut to, &a1v, &a2v, _mm512_set1_epi64(bs[i + 1] as i64));
                madd_lo_hi(&mut uo, mv, &m1v, y_prev2);
                (y_prev2, y_prev1) = (y_prev1, broadcast_via_memory(y12 >> DIGIT_SHIFT_12));
                shift_down::<REGS, 2>(&mut te);
                shift_down::<REGS, 2>(&mut to);
                shift_down::<REGS, 2>(&mut ue);
                shift_down::<REGS, 2>(&mut uo);
                i += 2;
            }
            for j in 0..REGS {
                t[j] = _mm512_add_epi64(te[j], to[j]);
                u[j] = _mm512_add_epi64(ue[j], uo[j]);
            }
        }
        while i < n {
            let x1 = lane1(t[0]) + lane2(u[0]);
            let y12 = scalar(&mut d, &mut e, &mut g, &mut g_next, x1, i);
            let bv = _mm512_set1_epi64(bs[i] as i64);
            step_regs(&mut t, av, bv);
            if lag2 {
                step_regs(&mut u, &md1, y_prev2);
            } else {
                step_regs(&mut u, mv, y_prev1);
            }
            (y_prev2, y_prev1) = (y_prev1, _mm512_set1_epi64((y12 >> DIGIT_SHIFT_12) as i64));
            i += 1;
        }
        if lag2 {
            step_regs(&mut u, &md1, y_prev2);
            madd_lo_hi(&mut u, &md1, mv, y_prev1);
        } else {
            step_regs(&mut u, mv, y_prev1);
        }
        let mut v = [zero; REGS];
        for j in 0..REGS {
            v[j] = _mm512_add_epi64(t[j], u[j]);
        }
        v[0] = _mm512_mask_set1_epi64(v[0], 1, d as i64);
        v
    }
}

/// Registers' worth of digits in memory, each on a cache line of its own: a vector store
/// or load that straddles two lines costs two, and a scalar load forwarded from a store
/// that straddles them waits longer; a plain array's place on the stack (8-byte aligned)
/// changed from one build to the next, and with it the time (4096-bit powm 2.3 to 5.4 ms).
#[repr(C, align(64))]
struct Lines<const N: usize>([[u64; LANES]; N]);

/// Whether lanes 6 and 7 of both `a` and `m` are zero.
#[inline(always)]
fn top_lanes_clear(a: &__m512i, m: &__m512i) -> bool {
    // SAFETY: inlined only into functions with AVX-512F enabled, on a CPU that has it
    // (their callers' guarantee); no memory access.
    unsafe {
        let x = _mm512_or_si512(*a, *m);
        _mm512_mask_test_epi64_mask(0b1100_0000, x, x) == 0
    }
}

/// `x·2^(52·(8 − K))` for `K` in 6..=7: the digits moved up `8 − K` lanes (those past the
/// top dropped; the caller keeps them zero).
#[inline(always)]
fn shifted_up<const REGS: usize, const K: i32>(x: &[__m512i; REGS]) -> [__m512i; REGS] {
    // SAFETY: inlined only into functions with AVX-512F enabled, on a CPU that has it
    // (their callers' guarantee); no memory access.
    unsafe {
        let mut out = [_mm512_setzero_si512(); REGS];
        out[0] = _mm512_alignr_epi64::<K>(x[0], _mm512_setzero_si512());
        for j in 1..REGS {
            out[j] = _mm512_alignr_epi64::<K>(x[j], x[j - 1]);
        }
        out
    }
}

/// `x·2^(−52K)` (the digits moved down `K` lanes, the bottom `K` dropped).
#[inline(always)]
fn shifted_down<const REGS: usize, const K: i32>(x: &[__m512i; REGS]) -> [__m512i; REGS] {
    let mut out = *x;
    shift_down::<REGS, K>(&mut out);
    out
}

/// The lanes moved down `K` (the bottom `K` dropped, zeros in at the top).
#[inline(always)]
fn shift_down<const REGS: usize, const K: i32>(acc: &mut [__m512i; REGS]) {
    // SAFETY: as `shifted_up`.
    unsafe {
        for j in 0..REGS - 1 {
            acc[j] = _mm512_alignr_epi64::<K>(acc[j + 1], acc[j]);
        }
        acc[REGS - 1] = _mm512_alignr_epi64::<K>(_mm512_setzero_si512(), acc[REGS - 1]);
    }
}

/// `acc += lo52(x·y) + hi52(x_hi·y)` lane by lane (`y` broadcast).
#[inline(always)]
fn madd_lo_hi<const REGS: usize>(
    acc: &mut [__m512i; REGS],
    x: &[__m512i; REGS],
    x_hi: &[__m512i; REGS],
    y: __m512i,
) {
    // SAFETY: inlined only into functions with AVX-512F and IFMA enabled, on a CPU that
    // has them (their callers' guarantee); no memory access.
    unsafe {
        for j in 0..REGS {
            acc[j] = _mm512_madd52lo_epu64(acc[j], x[j], y);
        }
        for j in 0..REGS {
            acc[j] = _mm512_madd52hi_epu64(acc[j], x_hi[j], y);
        }
    }
}

/// `acc += lo52(x·y)`, `acc /= 2^52` (the lanes moved down one, lane 0 dropped),
/// `acc += hi52(x·y)`: one step of [`amm_core`]'s accumulation of `x·y` (`y` broadcast).
#[inline(always)]
fn step_regs<const REGS: usize>(acc: &mut [__m512i; REGS], x: &[__m512i; REGS], y: __m512i) {
    // SAFETY: inlined only into functions with AVX-512F and IFMA enabled, on a CPU that
    // has them (their callers' guarantee); no memory access.
    unsafe {
        for j in 0..REGS {
            acc[j] = _mm512_madd52lo_epu64(acc[j], x[j], y);
        }
        shift_down::<REGS, 1>(acc);
        for j in 0..REGS {
            acc[j] = _mm512_madd52hi_epu64(acc[j], x[j], y);
        }
    }
}

/// `64 − 52`: the shift between `y` and `y·2^12`.
const DIGIT_SHIFT_12: u32 = 64 - DIGIT_BITS;

/// One bit per lane of `REGS` registers (lane `l` of register `j` is bit `8j + l`).
#[inline(always)]
fn lane_bits<const REGS: usize>(
    v: &[__m512i; REGS],
    w: &[__m512i; REGS],
    cmp: impl Fn(__m512i, __m512i) -> __mmask8,
) -> u128 {
    // Two words, so that up to eight registers the compiler keeps it to shifts and ors of
    // one general register (built as a u128 it went through vector shuffles).
    let (mut lo, mut hi) = (0u64, 0u64);
    for j in 0..REGS {
        let m = cmp(v[j], w[j]) as u64;
        if j < 8 {
            lo |= m << (LANES * j);
        } else {
            hi |= m << (LANES * (j - 8));
        }
    }
    (hi as u128) << 64 | lo as u128
}

/// The lanes of `REGS` registers with a bit of `bits` set (bit `8j + l` for lane `l` of
/// register `j`), as register `j`'s mask.
#[inline(always)]
fn lane_mask(bits: u128, j: usize) -> __mmask8 {
    (bits >> (LANES * j)) as __mmask8
}

/// Carries the lanes' excess over 52 bits upwards in registers (instead of a
/// scalar carry loop), leaving every digit below 2^52; the value must fit (no carry out of
/// the top lane). Two passes, as OpenSSL's RSAZ normalization: every lane's bits above
/// 52 added to the next lane (after which each lane is below `2^52 + 2^12`, so a carry out
/// of it is 0 or 1), then those single carries resolved all at once from two bit masks,
/// `g` (the lanes above `2^52 − 1`: they carry out) and `p` (the lanes equal to it: they
/// pass a carry on): the lanes that receive a carry are `((g << 1) + p) ^ p`, the
/// propagation of an addition's carries through runs of ones.
///
/// With `VARTIME` it returns after the first pass when no lane reached 2^52 there — almost
/// always: a lane does only when its low 52 bits were within its carry-in of 2^52 —
/// which saves the second pass's latency between the products of an exponentiation (on
/// an AMD EPYC Zen 4 a 1024-bit powm 148 → 124–130 µs); a branch on the values, for the
/// variable-time callers only.
#[inline(always)]
fn normalize_regs<const REGS: usize, const VARTIME: bool>(v: &mut [__m512i; REGS]) {
    // SAFETY: inlined only into functions with AVX-512F (and where used IFMA, BW, VBMI)
    // enabled, on a CPU that has them (their callers' guarantee); the memory accesses are
    // explained where they are made.
    unsafe {
        let mask = _mm512_set1_epi64(DIGIT_MASK as i64);
        let zero = _mm512_setzero_si512();
        let mut prev = zero;
        for r in v.iter_mut() {
            let hi = _mm512_srli_epi64::<52>(*r);
            // Lane l gets lane l − 1's excess; lane 0 gets the previous register's lane 7.
            let carry_in = _mm512_alignr_epi64::<7>(hi, prev);
            prev = hi;
            *r = _mm512_add_epi64(_mm512_and_si512(*r, mask), carry_in);
        }
        debug_assert_eq!(lane7(prev), 0, "normalize: the value does not fit in its digits");
        if VARTIME {
            let mut over = zero;
            for r in v.iter() {
                over = _mm512_or_si512(over, _mm512_srli_epi64::<52>(*r));
            }
            if _mm512_test_epi64_mask(over, over) == 0 {
                return;
            }
        }
        let masks = [mask; REGS];
        let g = lane_bits(v, &masks, |x, y| _mm512_cmpgt_epu64_mask(x, y));
        let p = lane_bits(v, &masks, |x, y| _mm512_cmpeq_epu64_mask(x, y));
        let receive = ((g << 1).wrapping_add(p)) ^ p;
        debug_assert_eq!(receive >> (LANES * REGS), 0, "normalize: carry out of the top");
        let one = _mm512_set1_epi64(1);
        for (j, r) in v.iter_mut().enumerate() {
            let x = _mm512_mask_add_epi64(*r, lane_mask(receive, j), *r, one);
            *r = _mm512_and_si512(x, mask);
        }
    }
}

/// `v − m` if `v ≥ m`, else `v`, in normalized 52-bit digits (both below 2^52 per lane),
/// without a branch: the borrows of `v − m` from the masks `v < m` (generate) and `v = m`
/// (propagate), as in [`normalize_regs`]; the borrow out of the top lane says `v < m`.
#[inline(always)]
fn sub_if_not_below<const REGS: usize>(v: &mut [__m512i; REGS], m: &[__m512i; REGS]) {
    // SAFETY: inlined only into functions with AVX-512F (and where used IFMA, BW, VBMI)
    // enabled, on a CPU that has them (their callers' guarantee); the memory accesses are
    // explained where they are made.
    unsafe {
        let lt = lane_bits(v, m, |x, y| _mm512_cmplt_epu64_mask(x, y));
        let eq = lane_bits(v, m, |x, y| _mm512_cmpeq_epu64_mask(x, y));
        let chain = (lt << 1).wrapping_add(eq);
        let borrow_in = chain ^ eq;
        let below = (chain >> (LANES * REGS)) & 1; // 1 iff v < m
        let keep_diff = (below as u8 ^ 1).wrapping_neg(); // all ones iff v ≥ m
        let mask = _mm512_set1_epi64(DIGIT_MASK as i64);
        let one = _mm512_set1_epi64(1);
        for j in 0..REGS {
            let d = _mm512_sub_epi64(v[j], m[j]);
            let d = _mm512_mask_sub_epi64(d, lane_mask(borrow_in, j), d, one);
            v[j] = _mm512_mask_mov_epi64(v[j], keep_diff, _mm512_and_si512(d, mask));
        }
    }
}

/// The word-level Montgomery product (paper 000, Algorithm 3, in radix 2^52 as [`amm`])
/// `out = a·b·2^(−64k) mod m` of `a, b < m` in `k =
/// out.len()` u64 digits, in one pass through AVX-512 (IFMA, and VBMI for the digit
/// conversions): `m` in `8·regs` 52-bit digits, `m0inv = −m⁻¹ mod 2^52`, `n` steps with
/// `e = 52n − 64k` in `0..52` (`e ≡ 0 mod 4` follows). `a = None` takes `a` from `out`
/// (in place); `b = None` squares.
///
/// `a` enters multiplied by `2^e` (its conversion into radix 2^52 starts `e` bits up), so
/// that the `n` steps' factor `2^(−52n)` becomes `2^(−64k)`, the word-level one:
/// `AMM(a·2^e, b) = (a·2^e·b + Y·m)/2^(52n) ≡ a·b·2^(−64k)`, and below `a·b/2^(64k) + m <
/// 2m` (`Y < 2^(52n)`, `a, b < m < 2^(64k)`). Then the lanes are normalized, `m`
/// subtracted once if the result is not below it (branch-free), and the digits converted
/// back into `out`. No scalar step, no memory pass over the digits but the stores of `b`'s
/// per-step terms.
///
/// # Safety
/// The CPU must have AVX-512F, IFMA, BW and VBMI ([`has_vbmi`]).
///
/// # Panics
/// If the lengths or `n`, `e` do not fit together as above, or `a`, `b` are not below `m`
/// in a debug build.
pub(crate) unsafe fn mul_word(
    out: &mut [u64],
    a: Option<&[u64]>,
    b: Option<&[u64]>,
    m: &[u64],
    m0inv: u64,
    n: usize,
) {
    let (k, len) = (out.len(), m.len());
    assert!(
        len.is_multiple_of(LANES)
            && (1..=MAX_REGS).contains(&(len / LANES))
            && a.is_none_or(|a| a.len() == k)
            && b.is_none_or(|b| b.len() == k)
            && (1..=len).contains(&n)
            && 52 * n >= 64 * k
            && 52 * n - 64 * k < 52,
        "mul_word: lengths do not fit together"
    );
    let e = (52 * n - 64 * k) as u32;
    // SAFETY: (every arm) the CPU has the features (the caller's guarantee), the lengths
    // are 8·REGS (asserted above).
    unsafe {
        match len / LANES {
            1 => mul_word_regs::<1>(out, a, b, m, m0inv, n, e),
            2 => mul_word_regs::<2>(out, a, b, m, m0inv, n, e),
            3 => mul_word_regs::<3>(out, a, b, m, m0inv, n, e),
            4 => mul_word_regs::<4>(out, a, b, m, m0inv, n, e),
            5 => mul_word_regs::<5>(out, a, b, m, m0inv, n, e),
            6 => mul_word_regs::<6>(out, a, b, m, m0inv, n, e),
            7 => mul_word_regs::<7>(out, a, b, m, m0inv, n, e),
            8 => mul_word_regs::<8>(out, a, b, m, m0inv, n, e),
            9 => mul_word_regs::<9>(out, a, b, m, m0inv, n, e),
            _ => mul_word_regs::<10>(out, a, b, m, m0inv, n, e),
        }
    }
}

/// [`mul_word`] for `REGS` registers per number.
#[target_feature(enable = "avx512f,avx512ifma,avx512bw,avx512vbmi")]
unsafe fn mul_word_regs<const REGS: usize>(
    out: &mut [u64],
    a: Option<&[u64]>,
    b: Option<&[u64]>,
    m: &[u64],
    m0inv: u64,
    n: usize,
    e: u32,
) {
    let zero = _mm512_setzero_si512();
    let (mut av, mut bv, mut mv) = ([zero; REGS], [zero; REGS], [zero; REGS]);
    let a = a.unwrap_or(out);
    let b = b.unwrap_or(a);
    for j in 0..REGS {
        // SAFETY: the CPU has the features (the caller's guarantee); m[8j..8j + 8] is in
        // bounds (length 8·REGS), unaligned load.
        unsafe {
            av[j] = to_radix52_reg_shifted(a, j, e);
            bv[j] = to_radix52_reg(b, j);
            mv[j] = _mm512_loadu_si512(m.as_ptr().add(8 * j) as *const _);
        }
    }
    // SAFETY: the CPU has AVX-512F and IFMA; n ≤ 8·REGS (mul_word's assertion).
    let mut v = unsafe { amm_core(&av, &mv, &bv, m0inv, n) };
    normalize_regs::<REGS, false>(&mut v);
    sub_if_not_below(&mut v, &mv);
    // SAFETY: the CPU has the features; the value is below m < 2^(64k), so it fits in
    // `out` (k words, 8k ≤ 52·8·REGS/8 + 12 bytes as 52n ≥ 64k with n ≤ 8·REGS).
    unsafe { store_words(out, &v) };
}

/// Lane 0 of `v`.
#[inline(always)]
fn lane0(v: __m512i) -> u64 {
    // SAFETY: MOVQ is SSE2, implied by AVX-512F, which every caller (a function with
    // `avx512f` enabled) has; the cast only reinterprets the low 128 bits.
    unsafe { _mm_cvtsi128_si64(_mm512_castsi512_si128(v)) as u64 }
}

/// Lane 2 of `v`.
#[inline(always)]
fn lane2(v: __m512i) -> u64 {
    // SAFETY: VEXTRACTI32X4 is AVX-512F, which every caller (a function with `avx512f`
    // enabled) has; MOVQ is SSE2.
    unsafe { _mm_cvtsi128_si64(_mm512_extracti32x4_epi32::<1>(v)) as u64 }
}

/// Lanes 0 to 3 of `v` in memory (a store; [`lane_of`] reads them), where a shuffle
/// would take a port the multiply-adds need.
#[inline(always)]
fn low_lanes(v: __m512i) -> LowLanes {
    let mut out = LowLanes([0u64; 4]);
    // SAFETY: AVX (implied by AVX-512F, which every caller has); `out` holds 32 bytes,
    // 32-byte aligned.
    unsafe { _mm256_store_si256(out.0.as_mut_ptr() as *mut __m256i, _mm512_castsi512_si256(v)) };
    out
}

/// Four lanes in memory, on one half of a cache line (see [`Lines`]).
#[repr(C, align(32))]
struct LowLanes([u64; 4]);

/// `lanes[l]` by a load the compiler cannot turn back into a shuffle of the register
/// [`low_lanes`] stored.
#[inline(always)]
fn lane_of(lanes: &LowLanes, l: usize) -> u64 {
    let lanes = &lanes.0;
    let x: u64;
    assert!(l < 4);
    // SAFETY: `l < 4` (the callers' constants): an 8-byte read inside the live array.
    unsafe {
        core::arch::asm!(
            "mov {x}, qword ptr [{p}]",
            p = in(reg) lanes.as_ptr().add(l),
            x = lateout(reg) x,
            options(nostack, preserves_flags, readonly)
        )
    };
    x
}

/// `y` in every lane by a broadcast from memory (a load port) rather than from a general
/// register (a shuffle port).
#[inline(always)]
fn broadcast_via_memory(y: u64) -> __m512i {
    let mut slot = 0u64;
    // SAFETY: an 8-byte write into the live `slot`, then a plain read of it.
    unsafe {
        core::arch::asm!(
            "mov qword ptr [{p}], {y}",
            p = in(reg) &mut slot as *mut u64,
            y = in(reg) y,
            options(nostack, preserves_flags)
        );
        _mm512_set1_epi64(core::ptr::read(&slot) as i64)
    }
}

/// Lane 7 of `v` (for the debug checks).
#[inline(always)]
fn lane7(v: __m512i) -> u64 {
    // SAFETY: as lane0, on the top 128 bits (VEXTRACTI64X2 is AVX-512DQ: use the
    // AVX-512F 32x4 extraction instead, the same bits).
    unsafe { _mm_extract_epi64::<1>(_mm512_extracti32x4_epi32::<3>(v)) as u64 }
}

/// Lane 1 of `v`.
#[inline(always)]
fn lane1(v: __m512i) -> u64 {
    // SAFETY: PEXTRQ is SSE4.1, implied by AVX-512F, which every caller (a function with
    // `avx512f` enabled) has; the cast only reinterprets the low 128 bits.
    unsafe { _mm_extract_epi64::<1>(_mm512_castsi512_si128(v)) as u64 }
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

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use modred_testkit::SplitMix64;
    use std::eprintln;

    /// The value of unnormalized lanes, as 64-bit digits of a `u64` vector (little-endian
    /// `Σ d_i·2^(52i)`), for comparisons.
    fn value(d: &[u64]) -> Vec<u64> {
        let mut out = vec![0u64; d.len() + 2];
        for (i, &x) in d.iter().enumerate() {
            let bit = 52 * i;
            let (w, s) = (bit / 64, bit % 64);
            let mut carry = (x as u128) << s;
            let mut j = w;
            while carry != 0 {
                let sum = out[j] as u128 + (carry as u64) as u128;
                out[j] = sum as u64;
                carry = (carry >> 64) + (sum >> 64);
                j += 1;
            }
        }
        out
    }

    #[target_feature(enable = "avx512f")]
    unsafe fn regs<const R: usize>(d: &[u64]) -> [__m512i; R] {
        let mut v = [_mm512_setzero_si512(); R];
        for (j, r) in v.iter_mut().enumerate() {
            // SAFETY: d has 8R digits (the callers'); unaligned load.
            *r = unsafe { _mm512_loadu_si512(d.as_ptr().add(8 * j) as *const _) };
        }
        v
    }

    #[target_feature(enable = "avx512f")]
    unsafe fn digits<const R: usize>(v: &[__m512i; R]) -> Vec<u64> {
        let mut d = vec![0u64; 8 * R];
        for (j, r) in v.iter().enumerate() {
            // SAFETY: d has 8R digits; unaligned store.
            unsafe { _mm512_storeu_si512(d.as_mut_ptr().add(8 * j) as *mut _, *r) };
        }
        d
    }

    #[target_feature(enable = "avx512f")]
    unsafe fn normalized<const R: usize, const VARTIME: bool>(d: &[u64]) -> Vec<u64> {
        // SAFETY: the CPU has AVX-512F (this function's requirement).
        let mut v = unsafe { regs::<R>(d) };
        normalize_regs::<R, VARTIME>(&mut v);
        // SAFETY: as above.
        unsafe { digits(&v) }
    }

    #[target_feature(enable = "avx512f")]
    unsafe fn subtracted<const R: usize>(d: &[u64], m: &[u64]) -> Vec<u64> {
        // SAFETY: the CPU has AVX-512F (this function's requirement).
        let (mut v, mv) = unsafe { (regs::<R>(d), regs::<R>(m)) };
        sub_if_not_below(&mut v, &mv);
        // SAFETY: as above.
        unsafe { digits(&v) }
    }

    /// The vector normalization against the value, on lanes with long runs of carries
    /// (every digit `2^52 − 1` plus a carry into the bottom, lanes near the 2^61 bound)
    /// and random ones, three register counts; the variable-time one gives the same digits
    /// (its early return taken on the random lanes, its second pass on the runs).
    #[test]
    fn normalize_regs_keeps_the_value() {
        if !has_ifma() {
            eprintln!("no AVX-512 IFMA on this CPU: not run");
            return;
        }
        let mut rng = SplitMix64::new(0x4e);
        fn check<const R: usize>(d: &[u64]) {
            // SAFETY: has_ifma (so AVX-512F), checked by the caller.
            let (n, v) = unsafe { (normalized::<R, false>(d), normalized::<R, true>(d)) };
            assert!(n.iter().all(|&x| x <= DIGIT_MASK), "{d:x?}");
            assert_eq!(value(&n), value(d), "{d:x?}");
            assert_eq!(v, n, "the variable-time normalization, {d:x?}");
        }
        for case in 0..200 {
            let mut d: Vec<u64> = (0..80)
                .map(|i| match case % 4 {
                    0 => DIGIT_MASK,
                    1 => DIGIT_MASK + (i as u64 & 1),
                    2 => rng.next_u64() >> 3,
                    _ => (rng.next_u64() & DIGIT_MASK) | (rng.next_u64() & 1) << 52,
                })
                .collect();
            if case % 4 == 0 {
                d[0] += 1 + (case as u64 / 4) % 3; // a carry through every lane
            }
            // Room at the top so that the value fits.
            for len in [8usize, 24, 80] {
                let mut e = d[..len].to_vec();
                e[len - 1] = 0;
                e[len - 2] &= DIGIT_MASK >> 8;
                match len {
                    8 => check::<1>(&e),
                    24 => check::<3>(&e),
                    _ => check::<10>(&e),
                }
            }
        }
    }

    /// The branch-free final subtraction against the value: `v` below, equal to, and
    /// above `m` by one, by a digit, by `m − 1`.
    #[test]
    fn sub_if_not_below_matches_the_value() {
        if !has_ifma() {
            eprintln!("no AVX-512 IFMA on this CPU: not run");
            return;
        }
        let mut rng = SplitMix64::new(0x5b);
        fn check<const R: usize>(v: &[u64], m: &[u64]) {
            // SAFETY: has_ifma (so AVX-512F), checked by the caller.
            let got = unsafe { subtracted::<R>(v, m) };
            let (vv, mv) = (value(v), value(m));
            let below = vv.iter().rev().cmp(mv.iter().rev()) == core::cmp::Ordering::Less;
            let mut want = vv.clone();
            if !below {
                let mut borrow = false;
                for (w, &x) in want.iter_mut().zip(&mv) {
                    let (d, b1) = w.overflowing_sub(x);
                    let (d, b2) = d.overflowing_sub(borrow as u64);
                    *w = d;
                    borrow = b1 | b2;
                }
            }
            assert!(got.iter().all(|&x| x <= DIGIT_MASK));
            assert_eq!(value(&got), want, "v {v:x?} m {m:x?}");
        }
        for round in 0..100 {
            let mut m: Vec<u64> = (0..24).map(|_| rng.next_u64() & DIGIT_MASK).collect();
            m[23] = 0;
            if round % 5 == 0 {
                m[..22].fill(DIGIT_MASK);
            }
            m[0] |= 1;
            let mut cases = vec![m.clone()];
            let mut plus_one = m.clone();
            let mut minus_one = m.clone();
            plus_one[0] += 1; // m odd: no carry
            minus_one[0] -= 1;
            cases.push(plus_one);
            cases.push(minus_one);
            let mut top_up = m.clone();
            top_up[22] += 1;
            cases.push(top_up);
            let mut twice_less_one = vec![0u64; 24];
            let mut carry = 0u64;
            for i in 0..24 {
                let x = 2 * m[i] + carry;
                twice_less_one[i] = x & DIGIT_MASK;
                carry = x >> 52;
            }
            twice_less_one[0] -= 1; // 2m − 1 (2m even, its digit 0 is not 0: m odd)
            cases.push(twice_less_one);
            cases.push(vec![0; 24]);
            for v in &cases {
                check::<3>(v, &m);
            }
        }
    }
}
