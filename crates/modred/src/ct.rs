//! Constant-time Montgomery arithmetic for secret operands and secret exponents.
//!
//! Everything in this module runs in time independent of the *values* of the operands and
//! the exponent: there is no branch and no memory index that depends on them. What may
//! vary is only what is public by construction: the modulus (its value and width `k`) and
//! the lengths of the slices passed in. The check is mechanical, not a promise: the
//! `ct-check` crate runs every function here under valgrind memcheck with the secret
//! bytes marked undefined (any secret-dependent branch or address is reported), and its
//! `dudect` tool measures them statistically (`docs/constant-time.md`).
//!
//! The pieces:
//! - [`MontgomeryCt::mul`] / [`MontgomeryCt::sqr`]: Montgomery multiplication `a·b·R⁻¹ mod
//!   m`, `R = b^k`, in the Coarsely Integrated Operand Scanning form (Koç, Acar and
//!   Kaliski 1996; not in the papers, see `reduce::montgomery_interleaved`), every digit loop of fixed length `k`, the final
//!   subtraction of `m` computed always and kept or discarded by a mask.
//! - [`MontgomeryCt::pow`]: fixed-window exponentiation (a window of `w ≤` [`MAX_WINDOW`]
//!   bits set by the lengths, [`window_for`]): the exponent is read as a fixed number of
//!   windows set by the length of its slice (the modulus's width in
//!   [`crate::Modulus::pow_ct`]), every window costs `w` squarings and one multiplication
//!   (also for a zero window), and the table entry is selected by reading *every* entry
//!   and combining them with masks.
//! - [`MontgomeryCt::to_montgomery`] / [`MontgomeryCt::from_montgomery`]: conversions for
//!   values already below `m` (one multiplication each, no division).
//!
//! On x86-64 CPUs with AVX-512 IFMA, [`MontgomeryCt::pow`] with `u64` digits and a modulus
//! of [`IFMA_MIN_BITS`] to [`IFMA_MAX_BITS`] bits runs the same method in radix 2^52,
//! eight digits to a vector register (almost Montgomery products, a 5- or 6-bit window, the
//! table scanned with vector masks), as OpenSSL's RSAZ code does: same result, same
//! contract, chosen once when the context is built ([`MontgomeryCt::pow_uses_ifma`]).
//!
//! On x86-64 CPUs with AVX2 and without BMI2/ADX (and off the IFMA path),
//! [`MontgomeryCt::pow`] with `u64` digits and a modulus of 8 to 32 digits runs the same
//! method in radix 2^28, four digits to a vector register (almost Montgomery products,
//! `engine::avx2`), as OpenSSL's `rsaz-avx2` does on such CPUs ([`MontgomeryCt::pow_uses_avx2`]).
//!
//! With `u64` digits on an x86-64 CPU with BMI2 and ADX, [`MontgomeryCt::mul`] and
//! [`MontgomeryCt::sqr`] (so the exponentiation off the IFMA path) run the MULX/ADCX/ADOX
//! Montgomery kernels (`kernels::arch::x86_64::mont_mulx`: CIOS fused into one pass per
//! digit, and at 8 digits and from 9 a square by the triangle and a reduction): the same
//! values, every loop of fixed length `k`, the final subtraction by a mask.
//!
//! The variable-time parts of the crate are elsewhere and named so (`*_vartime`).
//! Building a [`MontgomeryCt`] is variable time in the modulus, which is public.

#[cfg(x86_kernels)]
use crate::engine::avx2::MontgomeryAvx2;
#[cfg(x86_kernels)]
use crate::engine::ifma::{self as montgomery_ifma, Kernels, MontgomeryIfma};
use crate::error::Error;
use crate::kernels;
#[cfg(x86_kernels)]
use crate::kernels::arch::x86_64::mont_mulx;
use crate::limb::Limb;
use crate::nat::Nat;
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

/// The smallest modulus (bits) for which [`MontgomeryCt::pow`] runs on AVX-512 IFMA where
/// the CPU has it (and 0 where this build has no such path): the smallest it can take.
/// It is taken from one bit above, 513: at exactly 512 bits the eight-digit MULX/ADX code
/// measured faster on the IFMA CPUs tried ([`MontgomeryCt::pow_uses_ifma`] says which
/// runs).
#[cfg(x86_kernels)]
pub const IFMA_MIN_BITS: u64 = montgomery_ifma::CT_MIN_BITS;
/// The smallest modulus (bits) for which [`MontgomeryCt::pow`] runs on AVX-512 IFMA where
/// the CPU has it (and 0 where this build has no such path).
#[cfg(not(x86_kernels))]
pub const IFMA_MIN_BITS: u64 = 0;
/// The largest modulus (bits) for which [`MontgomeryCt::pow`] runs on AVX-512 IFMA.
#[cfg(x86_kernels)]
pub const IFMA_MAX_BITS: u64 = montgomery_ifma::MAX_BITS;
/// The largest modulus (bits) for which [`MontgomeryCt::pow`] runs on AVX-512 IFMA.
#[cfg(not(x86_kernels))]
pub const IFMA_MAX_BITS: u64 = 0;

/// The widest window of [`MontgomeryCt::pow_word`]: a table of 64 entries.
pub const MAX_WINDOW: u32 = 6;

/// The most bytes the table of [`MontgomeryCt::pow_word`] may take: wider windows are
/// not considered past it (at that width a product costs far more than the scan anyway).
const MAX_TABLE_BYTES: usize = 1 << 20;

/// The window width of [`MontgomeryCt::pow_word`] for an exponent of `ebits` bits and a
/// modulus of `k` digits of `digit_bits` bits: the one of least estimated cost in products,
/// `⌈ebits/w⌉·(1 + 2^w/(8k)) + 2^w − 2` — per window one product and the masked scan of
/// `2^w` entries of `k` digits (measured at about a fifth of a cycle per digit and entry
/// against about `1.6k²` cycles per product), plus the table. The squarings, `ebits`
/// whatever `w`, do not choose. Depends on the lengths only, which are public.
pub fn window_for(ebits: usize, k: usize, digit_bits: u32) -> u32 {
    let k = k.max(1);
    let bytes = k.saturating_mul(digit_bits as usize / 8);
    let mut best = (usize::MAX, 1);
    for w in 1..=MAX_WINDOW {
        let entries = 1usize << w;
        if w > 1 && entries.saturating_mul(bytes) > MAX_TABLE_BYTES {
            break;
        }
        // The estimate times 8k, in integers.
        let windows = ebits.div_ceil(w as usize);
        let cost = windows
            .saturating_mul(8 * k + entries)
            .saturating_add((entries - 2).saturating_mul(8 * k));
        if cost < best.0 {
            best = (cost, w);
        }
    }
    best.1
}

/// The Montgomery products [`MontgomeryCt::pow_word`] makes for an exponent of `ebits`
/// bits modulo `k` digits of `digit_bits` bits: the table's `2^w − 2`, then `w` squarings
/// and one product for each window but the first.
pub fn pow_products(ebits: usize, k: usize, digit_bits: u32) -> u64 {
    let w = window_for(ebits, k, digit_bits) as u64;
    let windows = (ebits as u64).div_ceil(w).max(1);
    (1u64 << w) - 2 + (windows - 1) * (w + 1)
}

/// `masks[j]` all ones for `j = digit`, all zeros for every other `j`, without a branch.
#[inline(always)]
fn set_masks<L: Limb>(masks: &mut [L], digit: u64) {
    for (j, m) in masks.iter_mut().enumerate() {
        *m = mask_from_bit(eq_bit(digit, j as u64));
    }
}

/// `entry = Σ_j table[j]·[masks[j] all ones]`: the table entry whose mask is set (one of
/// them is) read by reading every entry, `k = entry.len()` digits each. Where `L` is `u64`
/// and the CPU has AVX2, compiled for it (four digits to a register).
fn gather<L: Limb>(entry: &mut [L], table: &[L], masks: &[L]) {
    debug_assert_eq!(table.len(), masks.len() * entry.len());
    #[cfg(x86_kernels)]
    if core::any::TypeId::of::<L>() == core::any::TypeId::of::<u64>() && kernels::cpu::avx2() {
        #[target_feature(enable = "avx2")]
        unsafe fn gather_avx2(entry: &mut [u64], table: &[u64], masks: &[u64]) {
            gather_lanes(entry, table, masks);
        }
        // SAFETY: L is u64 (checked just above) and the CPU has AVX2, the function's only
        // requirement.
        unsafe { gather_avx2(as_u64_mut(entry), as_u64(table), as_u64(masks)) };
        return;
    }
    gather_lanes(entry, table, masks);
}

/// [`gather`]'s loop: eight digits at a time kept in an accumulator (registers) while
/// every entry's eight digits are masked into it, so each digit is stored once.
#[inline(always)]
fn gather_lanes<L: Limb>(entry: &mut [L], table: &[L], masks: &[L]) {
    const LANES: usize = 8;
    let k = entry.len();
    let mut c = 0;
    while c + LANES <= k {
        let mut acc = [L::ZERO; LANES];
        for (row, &mask) in table.chunks_exact(k).zip(masks) {
            let part: &[L; LANES] = row[c..c + LANES].try_into().expect("LANES digits");
            for (a, &x) in acc.iter_mut().zip(part) {
                *a = a.or(x.and(mask));
            }
        }
        entry[c..c + LANES].copy_from_slice(&acc);
        c += LANES;
    }
    if c < k {
        let tail = &mut entry[c..];
        tail.fill(L::ZERO);
        for (row, &mask) in table.chunks_exact(k).zip(masks) {
            for (a, &x) in tail.iter_mut().zip(&row[c..]) {
                *a = a.or(x.and(mask));
            }
        }
    }
}

/// An all-ones mask when `choice` is 1, all-zeros when 0 (`choice` must be 0 or 1).
///
/// The mask passes through [`core::hint::black_box`]: without it LLVM sees that the mask
/// is 0 or all ones and compiles the select `(o & !mask) | (x & mask)` that uses it into a
/// conditional branch (the valgrind check in `crates/ct-check` caught exactly that when
/// only `choice` went through `black_box`).
#[inline(always)]
fn mask_from_bit<L: Limb>(choice: u64) -> L {
    core::hint::black_box(L::ZERO.wrapping_sub(L::from_u64(choice & 1)))
}

/// 1 when `a == b`, else 0, without a branch.
#[inline(always)]
fn eq_bit(a: u64, b: u64) -> u64 {
    let x = a ^ b;
    // x | −x has its top bit set iff x ≠ 0.
    1 ^ ((x | x.wrapping_neg()) >> 63)
}

/// `out = a` where `mask` is all ones, unchanged where it is zero, digit by digit.
#[inline(always)]
fn select_into<L: Limb>(out: &mut [L], a: &[L], mask: L) {
    for (o, &x) in out.iter_mut().zip(a) {
        *o = o.and(mask.not()).or(x.and(mask));
    }
}

/// The digit loop of CIOS Montgomery multiplication (Koç, Acar and Kaliski 1996; not in
/// the papers), shared by [`MontgomeryCt::mul`] and [`crate::reduce::MontgomeryInterleaved`]:
/// for `a, b < m` (`k` digits each, `m` odd, `m0inv = −m_0^(−1) mod b`) and `t` of `2k + 2`
/// zero digits, leaves `a·b·R⁻¹ mod m` or that plus `m` (below `2m`) as
/// `t[2k]·b^k + t[k..2k]`, `t[2k] ∈ {0, 1}`; the final subtraction is the caller's.
///
/// For `i = 0 … k−1`: `t += a_i·b`, `u = t_0·m'_0 mod b`, `t = (t + u·m)/b`, the division
/// by `b` moving a window one digit up `t` instead of moving the digits. Invariant: `t <
/// 2m` after each step (`(2m + (b−1)m + (b−1)m)/b = 2m`). Constant time: every loop runs
/// `k` times and no branch or index depends on the digits of `a`, `b` or `t`.
pub(crate) fn cios<L: Limb>(t: &mut [L], a: &[L], b: &[L], m: &[L], m0inv: L) {
    let k = m.len();
    debug_assert!(a.len() == k && b.len() == k && t.len() == 2 * k + 2);
    for (i, &ai) in a.iter().enumerate() {
        // The window w holds the running value times b^i; w[k + 1] is still zero.
        let w = &mut t[i..i + k + 2];
        let c = kernels::addmul_1(&mut w[..k], b, ai);
        let (s, o) = w[k].carrying_add(c, false);
        w[k] = s;
        w[k + 1] = L::from_u64(o as u64);
        let u = w[0].wrapping_mul(m0inv);
        let c = kernels::addmul_1(&mut w[..k], m, u);
        let (s, o) = w[k].carrying_add(c, false);
        w[k] = s;
        w[k + 1] = w[k + 1].carrying_add(L::ZERO, o).0;
    }
}

/// [`MontgomeryCt::pow`] on arrays of `N` digits: the fixed window of
/// [`MontgomeryCt::pow_word`] (the same [`window_for`], table, masked scan and products per
/// window), with the table in one allocation, the accumulator on the stack and the
/// constant-time fixed-size Montgomery product and square of `reduce::fixed::arith`
/// (`mont_mul_ct`, `mont_sqr_ct`: on BMI2/ADX the 3- and 4-digit assembly and the 5–7-digit
/// CIOS in registers) inlined into the loop, every value below `m` (no final product). `m` (odd), `one = R mod m` and
/// `base < m` have `N` digits; the result is `x^e·R mod m` for `base = x·R mod m`.
/// Constant time: the time depends on `N` and `e.len()` only.
fn pow_fixed<const N: usize>(m: &[u64], one: &[u64], base: &[u64], e: &[u64]) -> [u64; N] {
    use crate::reduce::fixed::arith::{mont_mul_ct, mont_sqr_ct, MontConsts};
    let digits = |x: &[u64]| -> [u64; N] { x.try_into().expect("N digits") };
    let k = MontConsts::new(digits(m));
    let base = digits(base);
    let ebits = e.len() * 64;
    let w = window_for(ebits, N, 64);
    let entries = 1usize << w;
    // table[j] = base^j.
    let mut table = vec![[0u64; N]; entries];
    table[0] = digits(one);
    table[1] = base;
    for j in 2..entries {
        table[j] = mont_mul_ct(&table[j - 1], &base, &k);
    }
    let bit = |i: usize| -> u64 {
        if i >= ebits {
            return 0; // public: depends on the position only
        }
        e[i / 64] >> (i % 64) & 1
    };
    let digit = |wi: usize| -> u64 {
        let lo = wi * w as usize;
        (0..w as usize).fold(0, |d, j| d | bit(lo + j) << j)
    };
    let mut masks = vec![0u64; entries];
    let windows = ebits.div_ceil(w as usize).max(1);
    let mut acc = [0u64; N];
    set_masks(&mut masks, digit(windows - 1));
    gather(&mut acc, table.as_flattened(), &masks);
    let mut entry = [0u64; N];
    for wi in (0..windows - 1).rev() {
        for _ in 0..w {
            acc = mont_sqr_ct(&acc, &k);
        }
        set_masks(&mut masks, digit(wi));
        gather(&mut entry, table.as_flattened(), &masks);
        acc = mont_mul_ct(&acc, &entry, &k);
    }
    acc
}

/// Montgomery arithmetic modulo an odd public `m` for secret operands, in constant time.
///
/// Residues are slices of exactly [`MontgomeryCt::width`] digits holding `x·R mod m`,
/// `R = b^k` (the representation [`crate::reduce::Montgomery`] uses too). The slice methods
/// take their lengths as a precondition and panic (a programming error, independent of
/// any secret) when a length is wrong; values must be below `m` (a value `≥ m` gives a
/// wrong result, never undefined behaviour or a panic).
#[derive(Clone, Debug)]
pub struct MontgomeryCt<L: Limb> {
    m: Vec<L>,
    /// `−m_0^(−1) mod b`.
    m0inv: L,
    /// `R² mod m`.
    r2: Vec<L>,
    /// `R mod m`, the residue of 1.
    one: Vec<L>,
    /// For `u64` digits, a modulus of [`IFMA_MIN_BITS`]..=[`IFMA_MAX_BITS`] bits and a CPU
    /// with AVX-512 IFMA: the radix-2^52 context [`MontgomeryCt::pow`] runs on.
    #[cfg(x86_kernels)]
    ifma: Option<MontgomeryIfma>,
    /// For `u64` digits on a CPU with BMI2 and ADX ([`crate::engine::rule::montgomery_ct_mulx`]):
    /// products and squares by the MULX/ADX Montgomery kernels
    /// (`kernels::arch::x86_64::mont_mulx`, the same values and constant-time contract).
    #[cfg(x86_kernels)]
    mulx: bool,
    /// For `u64` digits on a CPU with AVX2 and without BMI2/ADX
    /// ([`crate::engine::rule::montgomery_ct_avx2`]): the radix-2^28 context
    /// [`MontgomeryCt::pow`] runs on.
    #[cfg(x86_kernels)]
    avx2: Option<MontgomeryAvx2>,
}

/// `x` as `u64` digits.
///
/// # Safety
/// `L` must be `u64`.
#[cfg(x86_kernels)]
#[inline(always)]
unsafe fn as_u64<L: Limb>(x: &[L]) -> &[u64] {
    debug_assert!(core::any::TypeId::of::<L>() == core::any::TypeId::of::<u64>());
    // SAFETY: L is u64 (the caller's guarantee): same size, alignment and values.
    unsafe { core::slice::from_raw_parts(x.as_ptr().cast::<u64>(), x.len()) }
}

/// `x` as mutable `u64` digits.
///
/// # Safety
/// `L` must be `u64`.
#[cfg(x86_kernels)]
#[inline(always)]
unsafe fn as_u64_mut<L: Limb>(x: &mut [L]) -> &mut [u64] {
    debug_assert!(core::any::TypeId::of::<L>() == core::any::TypeId::of::<u64>());
    // SAFETY: as in `as_u64`; the borrow is exclusive.
    unsafe { core::slice::from_raw_parts_mut(x.as_mut_ptr().cast::<u64>(), x.len()) }
}

/// The digits of `x` as `u64`s.
fn to_u64s<L: Limb>(x: &[L]) -> Vec<u64> {
    x.iter().map(|d| d.to_u64()).collect()
}

/// The radix-2^52 context for `m` when `L` is `u64` (not the counting digit, whose
/// operations must be counted) and `m` is in range; the CPU check is `new`'s.
#[cfg(x86_kernels)]
fn ifma_for<L: Limb>(m: &Nat<L>, any_cpu: bool) -> Option<MontgomeryIfma> {
    if core::any::TypeId::of::<L>() != core::any::TypeId::of::<u64>() {
        return None;
    }
    if m.bits() < montgomery_ifma::CT_MIN_BITS {
        return None;
    }
    let m64 = Nat::from_vec(to_u64s(m.limbs()));
    if any_cpu {
        MontgomeryIfma::new_any_cpu(&m64)
    } else {
        MontgomeryIfma::new(&m64)
    }
}

/// The radix-2^28 context for `m` where [`crate::engine::rule::montgomery_ct_avx2`] takes
/// it (`u64` digits only).
#[cfg(x86_kernels)]
fn avx2_for<L: Limb>(m: &Nat<L>) -> Option<MontgomeryAvx2> {
    if core::any::TypeId::of::<L>() != core::any::TypeId::of::<u64>()
        || !crate::engine::rule::montgomery_ct_avx2(m.len())
    {
        return None;
    }
    MontgomeryAvx2::new(&Nat::from_vec(to_u64s(m.limbs())))
}

/// [`MontgomeryCt::pow`] in radix 2^28 on AVX2: the fixed window of
/// [`MontgomeryCt::pow_word`] (the same [`window_for`], table, masked scan and products
/// per window) on the almost Montgomery product of [`MontgomeryAvx2`], the residue
/// converted into its representation first and out of it at the end (the only final
/// subtraction). `base` is `x·R mod m` in `k` digits, `m` the modulus's `k` digits; the
/// result is `x^e·R mod m`. Constant time: the time depends on `k` and `e.len()` only.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(x86_kernels)]
#[target_feature(enable = "avx2")]
unsafe fn pow_radix28(v: &MontgomeryAvx2, base: &[u64], e: &[u64], m: &[u64]) -> Vec<u64> {
    let (k, n) = (m.len(), v.digits());
    let ebits = e.len() * 64;
    let w = window_for(ebits, k, 64);
    let entries = 1usize << w;
    let mut work = v.scratch();
    // SAFETY: the caller guarantees AVX2 (so for every call below).
    let x = unsafe { v.enter(base, &mut work) };
    let mut table = vec![0u64; entries * n];
    table[..n].copy_from_slice(v.one());
    table[n..2 * n].copy_from_slice(&x);
    for j in 2..entries {
        let (done, rest) = table.split_at_mut(j * n);
        // SAFETY: AVX2, as above.
        unsafe { v.mul(&mut rest[..n], &done[(j - 1) * n..], &x, &mut work) };
    }
    let bit = |i: usize| -> u64 {
        if i >= ebits {
            return 0; // public: depends on the position only
        }
        (e[i / 64] >> (i % 64)) & 1
    };
    let digit = |wi: usize| -> u64 {
        let lo = wi * w as usize;
        (0..w as usize).fold(0, |d, j| d | bit(lo + j) << j)
    };
    let mut masks = vec![0u64; entries];
    let mut entry = vec![0u64; n];
    let mut acc = vec![0u64; n];
    let mut tmp = vec![0u64; n];
    let windows = ebits.div_ceil(w as usize).max(1);
    set_masks(&mut masks, digit(windows - 1));
    gather(&mut acc, &table, &masks);
    for wi in (0..windows - 1).rev() {
        for _ in 0..w {
            // SAFETY: AVX2, as above.
            unsafe { v.mul(&mut tmp, &acc, &acc, &mut work) };
            core::mem::swap(&mut acc, &mut tmp);
        }
        set_masks(&mut masks, digit(wi));
        gather(&mut entry, &table, &masks);
        // SAFETY: AVX2, as above.
        unsafe { v.mul(&mut tmp, &acc, &entry, &mut work) };
        core::mem::swap(&mut acc, &mut tmp);
    }
    // SAFETY: AVX2, as above.
    let v = unsafe { v.leave(&acc, &mut work) };
    // v < 2m, v[k] ∈ {0, 1}: one subtraction, undone by a mask as in `mul`.
    let mut out = vec![0u64; k];
    let borrow = kernels::sub_n(&mut out, &v[..k], m) as u64;
    select_into(&mut out, &v[..k], mask_from_bit((v[k] ^ 1) & borrow));
    out
}

impl<L: Limb> MontgomeryCt<L> {
    /// The bytes of its numbers on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        let vector = 0;
        #[cfg(x86_kernels)]
        let vector = vector
            + self.ifma.as_ref().map_or(0, MontgomeryIfma::heap_bytes)
            + self.avx2.as_ref().map_or(0, MontgomeryAvx2::heap_bytes);
        crate::nat::vec_bytes(&self.m)
            + crate::nat::vec_bytes(&self.r2)
            + crate::nat::vec_bytes(&self.one)
            + vector
    }

    /// The precalculation for an odd modulus `m` (`m = 1` allowed: every residue is 0).
    /// Variable time in `m`, which is public.
    ///
    /// Errors: [`Error::ZeroModulus`] for `m = 0`, [`Error::NotApplicable`] for an even `m`.
    pub fn new(m: &Nat<L>) -> Result<Self, Error> {
        if m.is_zero() {
            return Err(Error::ZeroModulus);
        }
        if !m.is_odd() {
            return Err(Error::NotApplicable {
                algorithm: "constant-time Montgomery",
                reason: "it needs an odd modulus (gcd(m, b) = 1)".to_string(),
            });
        }
        let k = m.len();
        let bits = k as u64 * L::BITS as u64;
        let pad = |x: Nat<L>| x.to_padded(k).unwrap_or_else(|| vec![L::ZERO; k]);
        let r2 = pad(Nat::power_of_two(2 * bits).checked_rem(m).unwrap_or_default());
        let one = pad(Nat::power_of_two(bits).checked_rem(m).unwrap_or_default());
        let m0inv = m.limbs()[0].inverse_mod_b().wrapping_neg();
        Ok(MontgomeryCt {
            m: m.limbs().to_vec(),
            m0inv,
            r2,
            one,
            #[cfg(x86_kernels)]
            ifma: ifma_for(m, false),
            #[cfg(x86_kernels)]
            mulx: core::any::TypeId::of::<L>() == core::any::TypeId::of::<u64>()
                && crate::engine::rule::montgomery_ct_mulx(k),
            #[cfg(x86_kernels)]
            avx2: avx2_for(m),
        })
    }

    /// Whether [`MontgomeryCt::pow`] runs in radix 2^28 on AVX2 for this modulus on this
    /// CPU: `u64` digits, an odd modulus of 8 to 32 digits, a CPU with AVX2 and without
    /// BMI2/ADX (the selector's rule `montgomery_ct_avx2`).
    pub fn pow_uses_avx2(&self) -> bool {
        #[cfg(x86_kernels)]
        return self.avx2.is_some();
        #[cfg(not(x86_kernels))]
        false
    }

    /// Whether [`MontgomeryCt::pow`] runs on AVX-512 IFMA (radix 2^52) for this modulus
    /// on this CPU: `u64` digits, a modulus of [`IFMA_MIN_BITS`]..=[`IFMA_MAX_BITS`] bits
    /// (from 513 in practice: see [`IFMA_MIN_BITS`]), and a CPU with AVX-512F and IFMA.
    pub fn pow_uses_ifma(&self) -> bool {
        #[cfg(x86_kernels)]
        return self.ifma.is_some();
        #[cfg(not(x86_kernels))]
        false
    }

    /// `k`, the number of digits of `m` and of every residue.
    pub fn width(&self) -> usize {
        self.m.len()
    }

    /// The digits of `m` (exactly `k`).
    pub fn modulus_limbs(&self) -> &[L] {
        &self.m
    }

    /// The residue of 1, `R mod m`.
    pub fn one(&self) -> &[L] {
        &self.one
    }

    /// Scratch space for [`MontgomeryCt::mul`] and [`MontgomeryCt::sqr`]: `2k + 2` digits.
    pub fn scratch_len(&self) -> usize {
        2 * self.width() + 2
    }

    /// `out = a·b·R⁻¹ mod m` for residues `a`, `b < m` (each `k` digits); `t` is scratch of
    /// at least [`MontgomeryCt::scratch_len`] digits. `out` may alias neither input (the
    /// borrow checker enforces it). Constant time.
    ///
    /// CIOS: for `i = 0 … k−1`, `t += a_i·b`, `u = t_0·m'_0 mod b`, `t = (t + u·m)/b`; the
    /// invariant `t < 2m` (from `a·b < m·R`) leaves one subtraction of `m`, always
    /// computed, and kept by a mask when it did not borrow or the top digit was set.
    ///
    /// Panics when a length is wrong.
    pub fn mul(&self, out: &mut [L], a: &[L], b: &[L], t: &mut [L]) {
        let k = self.width();
        assert!(
            a.len() == k && b.len() == k && out.len() == k && t.len() >= 2 * k + 2,
            "constant-time Montgomery multiplication: operand lengths must equal the modulus width"
        );
        let m = &self.m[..];
        #[cfg(x86_kernels)]
        if self.mulx {
            // SAFETY: `mulx` is set only where L is u64 and the CPU has BMI2 and ADX (`new`).
            unsafe {
                let (out, t) = (as_u64_mut(out), as_u64_mut(t));
                let m0inv = self.m0inv.to_u64();
                mont_mulx::mont_mul(out, as_u64(a), as_u64(b), as_u64(m), m0inv, t);
            }
            return;
        }
        let t = &mut t[..2 * k + 2];
        t.fill(L::ZERO);
        cios(t, a, b, m, self.m0inv);
        // The value is t[2k]·b^k + t[k..2k] < 2m, t[2k] ∈ {0, 1}.
        let (low, high) = t.split_at_mut(2 * k);
        let top = high[0].to_u64() & 1;
        let v = &low[k..];
        let borrow = kernels::sub_n(out, v, m) as u64;
        // Keep v (undo the subtraction) iff v < m: no top digit and a borrow.
        let keep_v = (top ^ 1) & borrow;
        select_into(out, v, mask_from_bit(keep_v));
    }

    /// `out = a²·R⁻¹ mod m`: [`MontgomeryCt::mul`] with `a` twice, or where the MULX/ADX
    /// kernels run and it measured faster for the width, the square of the triangle and
    /// its reduction (`kernels::arch::x86_64::mont_mulx::mont_sqr`). Constant time.
    pub fn sqr(&self, out: &mut [L], a: &[L], t: &mut [L]) {
        #[cfg(x86_kernels)]
        if self.mulx && crate::engine::rule::montgomery_mulx_sqr_separate(self.width()) {
            let k = self.width();
            assert!(
                a.len() == k && out.len() == k && t.len() >= 2 * k + 2,
                "constant-time Montgomery squaring: operand lengths must equal the modulus width"
            );
            // SAFETY: as in `mul`.
            unsafe {
                let (out, t) = (as_u64_mut(out), as_u64_mut(t));
                let m0inv = self.m0inv.to_u64();
                mont_mulx::mont_sqr::<false>(out, as_u64(a), as_u64(&self.m), m0inv, t);
            }
            return;
        }
        self.mul(out, a, a, t);
    }

    /// [`MontgomeryCt::mul`] for the inner products of [`MontgomeryCt::pow_word`]: inputs
    /// and output below `R = b^k` rather than `m` (almost Montgomery multiplication; on
    /// MULX/ADX at `8n ≥ 16` digits the final subtraction only where the reduction carried,
    /// `mont_mulx::mont_mul_to` lazy; elsewhere the full product, which meets the bound).
    /// Constant time. Kept apart from `mul`: one generic body for both measured a 1024-bit
    /// `Modulus::pow_ct` 264 → 268 µs (AMD EPYC Zen 4; the inlining into `pow_word` changed).
    fn mul_lazy(&self, out: &mut [L], a: &[L], b: &[L], t: &mut [L]) {
        #[cfg(x86_kernels)]
        if self.mulx {
            let k = self.width();
            assert!(a.len() == k && b.len() == k && out.len() == k && t.len() >= 2 * k + 2);
            // SAFETY: as in `mul`.
            unsafe {
                let (out, t) = (as_u64_mut(out), as_u64_mut(t));
                let (m, m0inv) = (as_u64(&self.m), self.m0inv.to_u64());
                mont_mulx::mont_mul_to::<true>(out, as_u64(a), as_u64(b), m, m0inv, t);
            }
            return;
        }
        self.mul(out, a, b, t);
    }

    /// [`MontgomeryCt::sqr`] with the bounds of [`MontgomeryCt::mul_lazy`].
    fn sqr_lazy(&self, out: &mut [L], a: &[L], t: &mut [L]) {
        #[cfg(x86_kernels)]
        if self.mulx && crate::engine::rule::montgomery_mulx_sqr_separate(self.width()) {
            let k = self.width();
            assert!(a.len() == k && out.len() == k && t.len() >= 2 * k + 2);
            // SAFETY: as in `mul`.
            unsafe {
                let (out, t) = (as_u64_mut(out), as_u64_mut(t));
                let (m, m0inv) = (as_u64(&self.m), self.m0inv.to_u64());
                mont_mulx::mont_sqr::<true>(out, as_u64(a), m, m0inv, t);
            }
            return;
        }
        self.mul_lazy(out, a, a, t);
    }

    /// `out = x·R mod m` for `x < m` given in `k` digits (one multiplication by `R² mod m`;
    /// no division). Constant time. Panics when a length is wrong.
    pub fn to_montgomery(&self, out: &mut [L], x: &[L], t: &mut [L]) {
        self.mul(out, x, &self.r2, t);
    }

    /// `out = r·R⁻¹ mod m`, the standard value of residue `r` (one multiplication by 1).
    /// Constant time. Panics when a length is wrong.
    pub fn from_montgomery(&self, out: &mut [L], r: &[L], t: &mut [L]) {
        let mut unit = vec![L::ZERO; self.width()];
        unit[0] = L::ONE;
        if self.m.len() == 1 && self.m[0] == L::ONE {
            unit[0] = L::ZERO; // m = 1: every value is 0.
        }
        self.mul(out, r, &unit, t);
    }

    /// `out = base^e` in Montgomery's representation: `base` a residue (`k` digits, below
    /// `m`), `e` the exponent's digits, least significant first, of any length; the time
    /// depends on `e.len()` and `k`, never on the digits of `e` or `base`. `e = 0` gives the
    /// residue of 1.
    ///
    /// Fixed window of `w` bits, `w` = [`window_for`] of the exponent's and the modulus's
    /// lengths (4 at 512 bits, 5 at 1024, 6 from 2048 for `u64` digits and an exponent of
    /// the modulus's width): a table `T[j] = base^j` (`2^w` entries); the accumulator
    /// starts as the top window's entry; then for each further window, most significant
    /// first, `w` squarings, a scan of the whole table that keeps the entry whose index
    /// equals the window's digit by a mask, and one multiplication by it (by `T[0] = 1`
    /// for a zero digit). Cost for a `b_e = e.len()·b`-bit exponent: [`pow_products`],
    /// about `b_e` squarings and `b_e/w + 2^w` multiplications. The products inside are
    /// lazy (`MontgomeryCt::mul_lazy`: values below `R`, the final subtraction only where
    /// the reduction carried; a 1024-bit exponentiation 266 → 262 µs on an AMD EPYC Zen 4);
    /// one product with `R mod m` at the end brings the result below `m`.
    ///
    /// For `u64` digits and 2–7-digit moduli the same method runs on arrays of that width
    /// (`pow_fixed`: the table, the accumulator and the 3-, 4- and 5–7-digit assembly
    /// products inlined into one loop; 256 bits 11.9 → 7.7 µs, 448 bits 39 → 28 µs on an
    /// AMD EPYC Zen 5). Where [`MontgomeryCt::pow_uses_ifma`], the same method runs in radix 2^52 on
    /// AVX-512 IFMA with a window of 5 bits (6 for exponents of more than 3072 bits),
    /// with the same result and the same constant-time contract.
    ///
    /// Panics when a length is wrong.
    pub fn pow(&self, out: &mut [L], base: &[L], e: &[L]) {
        let k = self.width();
        assert!(
            base.len() == k && out.len() == k,
            "constant-time exponentiation: residue lengths must equal the modulus width"
        );
        if core::any::TypeId::of::<L>() == core::any::TypeId::of::<u64>()
            && crate::engine::rule::montgomery_ct_fixed(k)
        {
            let (m, one, b, e64) =
                (to_u64s(&self.m), to_u64s(&self.one), to_u64s(base), to_u64s(e));
            let o: Vec<u64> = match k {
                2 => pow_fixed::<2>(&m, &one, &b, &e64).to_vec(),
                3 => pow_fixed::<3>(&m, &one, &b, &e64).to_vec(),
                4 => pow_fixed::<4>(&m, &one, &b, &e64).to_vec(),
                5 => pow_fixed::<5>(&m, &one, &b, &e64).to_vec(),
                6 => pow_fixed::<6>(&m, &one, &b, &e64).to_vec(),
                _ => pow_fixed::<7>(&m, &one, &b, &e64).to_vec(),
            };
            for (d, v) in out.iter_mut().zip(o) {
                *d = L::from_u64(v);
            }
            return;
        }
        #[cfg(x86_kernels)]
        if let Some(ifma) = &self.ifma {
            // L is u64 here (`ifma_for`): the conversions only copy.
            let mut o = vec![0u64; k];
            let e64 = to_u64s(e);
            ifma.pow_ct_word(Kernels::Vector, &mut o, &to_u64s(base), &e64);
            for (d, v) in out.iter_mut().zip(o) {
                *d = L::from_u64(v);
            }
            return;
        }
        #[cfg(x86_kernels)]
        if let Some(v) = &self.avx2 {
            // SAFETY: the context exists only on a CPU with AVX2 (`avx2_for`).
            let o = unsafe { pow_radix28(v, &to_u64s(base), &to_u64s(e), &to_u64s(&self.m)) };
            for (d, x) in out.iter_mut().zip(o) {
                *d = L::from_u64(x);
            }
            return;
        }
        self.pow_word(out, base, e);
    }

    /// [`MontgomeryCt::pow`] on the digit-level Montgomery multiplication, whatever the
    /// CPU has (the benchmarks compare it with the IFMA path).
    pub fn pow_word(&self, out: &mut [L], base: &[L], e: &[L]) {
        let k = self.width();
        assert!(
            base.len() == k && out.len() == k,
            "constant-time exponentiation: residue lengths must equal the modulus width"
        );
        let ebits = e.len() * L::BITS as usize;
        let w = window_for(ebits, k, L::BITS);
        let entries = 1usize << w;
        let mut t = vec![L::ZERO; self.scratch_len()];
        // table[j·k .. (j+1)·k] = base^j.
        let mut table = vec![L::ZERO; entries * k];
        table[..k].copy_from_slice(&self.one);
        table[k..2 * k].copy_from_slice(base);
        // Every product below is lazy (values below R, not m): one product with R mod m at
        // the end brings the result below m.
        for j in 2..entries {
            let (done, rest) = table.split_at_mut(j * k);
            self.mul_lazy(&mut rest[..k], &done[(j - 1) * k..], base, &mut t);
        }
        let bit = |i: usize| -> u64 {
            if i >= ebits {
                return 0; // public: depends on the position only
            }
            e[i / L::BITS as usize].shr(i as u32 % L::BITS).to_u64() & 1
        };
        let digit = |wi: usize| -> u64 {
            let lo = wi * w as usize;
            (0..w as usize).fold(0, |d, j| d | bit(lo + j) << j)
        };
        let mut masks = vec![L::ZERO; entries];
        let mut entry = vec![L::ZERO; k];
        let mut tmp = vec![L::ZERO; k];
        // The top window's entry is the accumulator's first value: its squarings of 1 and
        // its product by it would change nothing.
        let windows = ebits.div_ceil(w as usize).max(1);
        let mut acc = vec![L::ZERO; k];
        set_masks(&mut masks, digit(windows - 1));
        gather(&mut acc, &table, &masks);
        for wi in (0..windows - 1).rev() {
            for _ in 0..w {
                self.sqr_lazy(&mut tmp, &acc, &mut t);
                core::mem::swap(&mut acc, &mut tmp);
            }
            set_masks(&mut masks, digit(wi));
            gather(&mut entry, &table, &masks);
            self.mul_lazy(&mut tmp, &acc, &entry, &mut t);
            core::mem::swap(&mut acc, &mut tmp);
        }
        // acc < R and R mod m < m: the product is below 2m before its final subtraction.
        self.mul(out, &acc, &self.one, &mut t);
    }

    /// The radix-2^52 exponentiation of [`MontgomeryCt::pow`] with the portable twins of
    /// the AVX-512 kernels (one digit at a time, the same steps), on any CPU: for
    /// `crates/ct-check`, whose valgrind run cannot execute AVX-512 and so checks the code
    /// around the vector kernels this way. `false` (and `out` untouched) when the modulus
    /// is outside [`IFMA_MIN_BITS`]..=[`IFMA_MAX_BITS`] or the build has no such path.
    #[doc(hidden)]
    pub fn pow_radix52_portable(&self, out: &mut [L], base: &[L], e: &[L]) -> bool {
        #[cfg(x86_kernels)]
        {
            let Some(ifma) = ifma_for(&Nat::from_limbs(&self.m), true) else { return false };
            assert!(base.len() == self.width() && out.len() == self.width());
            let mut o = vec![0u64; self.width()];
            ifma.pow_ct_word(Kernels::Portable, &mut o, &to_u64s(base), &to_u64s(e));
            for (d, v) in out.iter_mut().zip(o) {
                *d = L::from_u64(v);
            }
            true
        }
        #[cfg(not(x86_kernels))]
        {
            let _ = (out, base, e);
            false
        }
    }

    /// Whether `x` (exactly `k` digits) is below `m`, as 1 or 0, without a branch on `x`.
    pub fn is_below_modulus(&self, x: &[L]) -> u64 {
        assert_eq!(x.len(), self.width(), "the value must have the modulus's width");
        let mut scratch = vec![L::ZERO; self.width()];
        kernels::sub_n(&mut scratch, x, &self.m) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use modred_testkit::SplitMix64;

    fn random_below(rng: &mut SplitMix64, m: &Nat<u64>) -> Nat<u64> {
        let limbs: Vec<u64> = (0..m.len() + 1).map(|_| rng.next_u64()).collect();
        Nat::from_vec(limbs).checked_rem(m).unwrap()
    }

    fn pow_naive(b: &Nat<u64>, e: &Nat<u64>, m: &Nat<u64>) -> Nat<u64> {
        let mut acc = Nat::one().checked_rem(m).unwrap();
        for i in (0..e.bits()).rev() {
            acc = acc.sqr().checked_rem(m).unwrap();
            if e.bit(i) {
                acc = acc.mul(b).checked_rem(m).unwrap();
            }
        }
        acc
    }

    #[test]
    fn pow_word_agrees_at_every_window_width() {
        // (k digits, exponent digits) pairs whose windows are 1, 2, …, 6 bits, then widths
        // with a tail of k mod 8 digits past the scan's eight-digit lanes.
        let cases = [(1, 0, 1), (1, 1, 2), (8, 1, 3), (8, 8, 4), (16, 16, 5), (64, 64, 6)];
        let tails = [(9, 9, 0), (17, 17, 0), (3, 5, 0)];
        let mut rng = SplitMix64::new(0x77);
        for (k, elen, w) in cases.into_iter().chain(tails) {
            if w != 0 {
                assert_eq!(window_for(elen * 64, k, 64), w, "window for {k} digits, e {elen}");
            }
            let mut limbs: Vec<u64> = (0..k).map(|_| rng.next_u64()).collect();
            limbs[0] |= 1;
            limbs[k - 1] |= 1 << 63;
            let m = Nat::from_vec(limbs);
            let ct = MontgomeryCt::new(&m).unwrap();
            let mut t = vec![0; ct.scratch_len()];
            let a = random_below(&mut rng, &m);
            let (mut ra, mut r, mut back) = (vec![0; k], vec![0; k], vec![0; k]);
            ct.to_montgomery(&mut ra, &a.to_padded(k).unwrap(), &mut t);
            let mut e: Vec<u64> = (0..elen).map(|_| rng.next_u64()).collect();
            if let Some(top) = e.last_mut() {
                *top >>= 7; // leading zero bits, read as digits of the window like any other
            }
            ct.pow_word(&mut r, &ra, &e);
            ct.from_montgomery(&mut back, &r, &mut t);
            let want = pow_naive(&a, &Nat::from_vec(e.clone()), &m);
            assert_eq!(Nat::from_vec(back), want, "{k} digits, exponent of {elen} digits");
            // The count the work limit uses: the table and w + 1 products per window but
            // the first.
            let w = window_for(elen * 64, k, 64) as u64;
            let windows = ((elen * 64) as u64).div_ceil(w).max(1);
            assert_eq!(pow_products(elen * 64, k, 64), (1 << w) - 2 + (windows - 1) * (w + 1));
        }
    }

    #[test]
    fn window_table_stays_bounded() {
        for k in [1usize, 2, 8, 64, 1 << 10, 1 << 11, 1 << 12, 1 << 16, 1 << 20] {
            for ebits in [0usize, 1, 64, 4096, 64 * k] {
                let w = window_for(ebits, k, 64);
                assert!((1..=MAX_WINDOW).contains(&w));
                assert!(w == 1 || (k * 8) << w <= MAX_TABLE_BYTES, "{k} digits: window {w}");
            }
        }
        // Longer exponents never choose narrower windows.
        let ws: Vec<u32> = (0..200).map(|d| window_for(64 * d, 16, 64)).collect();
        assert!(ws.windows(2).all(|p| p[0] <= p[1]), "{ws:?}");
    }

    /// The radix-2^28 exponentiation (what `pow` runs on a CPU with AVX2 and without
    /// BMI2/ADX) against `pow_word` on the same residues, at every width it takes and
    /// beyond (1–7 digits: the kernel itself, though the rule does not take it there),
    /// with all-ones moduli, a top digit of 1, exponents of zero, one, all ones and random.
    #[cfg(x86_kernels)]
    #[test]
    fn radix28_pow_agrees_with_pow_word() {
        if !kernels::cpu::avx2() {
            std::eprintln!("skipped: this CPU has no AVX2");
            return;
        }
        let mut rng = SplitMix64::new(0x28c7);
        for k in [1usize, 2, 4, 7, 8, 9, 12, 16, 17, 24, 31, 32] {
            for round in 0..4 {
                let mut limbs: Vec<u64> = (0..k).map(|_| rng.next_u64()).collect();
                limbs[0] |= 1;
                if round == 0 {
                    limbs.fill(u64::MAX);
                }
                if round == 1 {
                    limbs[k - 1] = 1;
                }
                let m = Nat::from_vec(limbs);
                let ct = MontgomeryCt::new(&m).unwrap();
                let v = MontgomeryAvx2::new(&m).expect("odd, at most 32 digits");
                let mut t = vec![0; ct.scratch_len()];
                let a = random_below(&mut rng, &m).to_padded(k).unwrap();
                let mut ra = vec![0; k];
                ct.to_montgomery(&mut ra, &a, &mut t);
                let elen = 1 + round % 3 * k / 2;
                let es = [
                    vec![0u64; elen],
                    {
                        let mut one = vec![0u64; elen];
                        one[0] = 1;
                        one
                    },
                    vec![u64::MAX; elen],
                    (0..elen).map(|_| rng.next_u64()).collect(),
                ];
                for e in es {
                    let mut want = vec![0; k];
                    ct.pow_word(&mut want, &ra, &e);
                    // SAFETY: the CPU has AVX2 (checked above).
                    let got = unsafe { pow_radix28(&v, &ra, &e, m.limbs()) };
                    assert_eq!(got, want, "{k} digits, exponent {e:x?}");
                }
            }
        }
    }

    /// The fixed-size exponentiation (what `pow` runs at 2–7 digits, the 3- and 4-digit
    /// assembly and the 5–7-digit register products where the CPU has BMI2/ADX) against
    /// `pow_word` on the same residues: every width it takes, all-ones and top-digit-1
    /// moduli, bases 0, 1 and `m − 1`, exponents of 0, 1 and several digits (other window
    /// widths), all ones.
    #[test]
    fn pow_fixed_agrees_with_pow_word() {
        let mut rng = SplitMix64::new(0xf1_7ed);
        for k in 2..=crate::engine::rule::MONTGOMERY_CT_FIXED_MAX_DIGITS {
            assert!(crate::engine::rule::montgomery_ct_fixed(k));
            for round in 0..4 {
                let mut limbs: Vec<u64> = (0..k).map(|_| rng.next_u64()).collect();
                limbs[0] |= 1;
                match round {
                    0 => limbs.fill(u64::MAX),
                    1 => limbs[k - 1] = 1,
                    _ => {}
                }
                let m = Nat::from_vec(limbs);
                let ct = MontgomeryCt::new(&m).unwrap();
                let mut t = vec![0; ct.scratch_len()];
                let m_minus_1 = &m - &Nat::one();
                for x in [random_below(&mut rng, &m), Nat::zero(), Nat::one(), m_minus_1] {
                    let mut base = vec![0; k];
                    ct.to_montgomery(&mut base, &x.to_padded(k).unwrap(), &mut t);
                    for elen in [0usize, 1, k, 3 * k] {
                        let mut e: Vec<u64> = (0..elen).map(|_| rng.next_u64()).collect();
                        if round == 3 {
                            e.fill(u64::MAX);
                        }
                        let (mut got, mut want) = (vec![0; k], vec![0; k]);
                        ct.pow(&mut got, &base, &e);
                        ct.pow_word(&mut want, &base, &e);
                        assert_eq!(got, want, "k = {k}, m = {m:?}, x = {x:?}, e = {e:x?}");
                    }
                }
            }
        }
    }

    #[test]
    fn mul_pow_agree_with_nat_arithmetic() {
        let mut rng = SplitMix64::new(0xc7);
        // 9–64 digits: the MULX/ADX kernels' widths where the CPU has BMI2 and ADX, with
        // and without a tail of k mod 4 digits.
        for k in [1usize, 2, 3, 5, 8, 9, 16, 17, 31, 32, 64] {
            for round in 0..6 {
                let mut limbs: Vec<u64> = (0..k).map(|_| rng.next_u64()).collect();
                limbs[0] |= 1;
                if round == 0 {
                    limbs.fill(u64::MAX); // all ones
                }
                if round == 1 {
                    limbs[k - 1] = 1; // top digit 1
                }
                let m = Nat::from_vec(limbs);
                let ct = MontgomeryCt::new(&m).unwrap();
                let mut t = vec![0; ct.scratch_len()];
                let (a, b) = (random_below(&mut rng, &m), random_below(&mut rng, &m));
                let pa = a.to_padded(k).unwrap();
                let pb = b.to_padded(k).unwrap();
                let (mut ra, mut rb, mut rp) = (vec![0; k], vec![0; k], vec![0; k]);
                ct.to_montgomery(&mut ra, &pa, &mut t);
                ct.to_montgomery(&mut rb, &pb, &mut t);
                ct.mul(&mut rp, &ra, &rb, &mut t);
                let mut back = vec![0; k];
                ct.from_montgomery(&mut back, &rp, &mut t);
                assert_eq!(Nat::from_vec(back.clone()), a.mul(&b).checked_rem(&m).unwrap());
                let e = Nat::from_vec((0..k).map(|_| rng.next_u64()).collect());
                for e in [e, Nat::zero(), Nat::one(), m.clone()] {
                    let mut pe = e.limbs().to_vec();
                    pe.resize(k, 0);
                    ct.pow(&mut rp, &ra, &pe);
                    ct.from_montgomery(&mut back, &rp, &mut t);
                    assert_eq!(Nat::from_vec(back.clone()), pow_naive(&a, &e, &m));
                }
                assert_eq!(ct.is_below_modulus(&pa), 1);
                assert_eq!(ct.is_below_modulus(&m.to_padded(k).unwrap()), 0);
            }
        }
    }

    fn pow_u64(a: u64, e: u64, m: u64) -> u64 {
        let (mut acc, mut sq, mut e) = (1 % m, a % m, e);
        while e > 0 {
            if e & 1 == 1 {
                acc = acc * sq % m;
            }
            sq = sq * sq % m;
            e >>= 1;
        }
        acc
    }

    #[test]
    fn exhaustive_with_byte_digits() {
        // Every odd 1- and some 2-digit moduli with u8 digits, every base, a few exponents.
        for m in (1u64..=255).step_by(2).chain((257..=65535).step_by(2 * 997)) {
            let mn = Nat::<u8>::from_u64(m);
            let ct = MontgomeryCt::new(&mn).unwrap();
            let k = ct.width();
            let mut t = vec![0u8; ct.scratch_len()];
            for a in (0..m).step_by((m as usize / 40).max(1)) {
                let pa = Nat::<u8>::from_u64(a).to_padded(k).unwrap();
                let mut ra = vec![0u8; k];
                ct.to_montgomery(&mut ra, &pa, &mut t);
                for e in [0u64, 1, 2, 3, 17, 255, 65535] {
                    let pe = Nat::<u8>::from_u64(e).to_padded(2).unwrap();
                    let (mut r, mut back) = (vec![0u8; k], vec![0u8; k]);
                    ct.pow(&mut r, &ra, &pe);
                    ct.from_montgomery(&mut back, &r, &mut t);
                    let want = pow_u64(a, e, m);
                    assert_eq!(Nat::from_vec(back), Nat::<u8>::from_u64(want), "{a}^{e} mod {m}");
                }
            }
        }
    }

    #[test]
    fn even_and_zero_moduli_are_refused() {
        assert_eq!(MontgomeryCt::<u64>::new(&Nat::zero()).unwrap_err(), Error::ZeroModulus);
        assert!(MontgomeryCt::<u64>::new(&Nat::from(10u64)).is_err());
    }
}
