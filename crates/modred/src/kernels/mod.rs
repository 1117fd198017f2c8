//! Layer 2: slice kernels on limbs, and every piece of CPU-specific code of the library.
//!
//! Names follow GMP's `mpn` shapes: `add_n` adds two n-digit slices, `addmul_1` adds a
//! slice times one digit, `mul_basecase` is the schoolbook product. Each kernel has one
//! portable version in [`portable`]; a limb type may override any of them through
//! [`LimbKernels`] (architecture-specific versions live in [`arch`], are chosen at run
//! time and are tested against their portable twins). Algorithms call the free functions
//! below and never know which version runs.
//!
//! Kernels stay `pub(crate)`: nothing outside the crate can come to depend on them.
//!
//! # CPU-specific code
//! All code that needs particular instructions (`asm!`, `#[target_feature]`, vector
//! intrinsics) is under [`arch`], one folder per instruction-set family:
//!
//! - `arch/x86_64/`: BMI2 and ADX (MULX, ADCX, ADOX): the `u64` row kernels and
//!   schoolbook products behind `LimbKernels for u64`, the 4-digit Montgomery product
//!   and square of `reduce::fixed`; and the baseline x86-64 instructions the compiler
//!   does not emit where needed (`div`, CMOV);
//! - `arch/avx512_ifma/`: AVX-512 IFMA, radix 2^52: the almost Montgomery product of
//!   `engine::ifma` and the vector passes of the transform engine of
//!   `ntt/ifma.rs` (whose primes, plans and twiddle tables stay in `ntt/`);
//! - `arch/avx2/` (x86-64 AVX2) and `arch/aarch64/` (NEON, SVE) are where those
//!   families' kernels go; there are none yet.
//!
//! [`cpu`] is the only place that asks the CPU what it has: each feature set detected
//! once and cached (`bmi2_adx`, `avx2`, `avx512_ifma`, `avx512_vbmi`).
//!
//! Two cfg aliases from `build.rs` replace the repeated predicate:
//! - `x86_kernels_compiled` (an x86-64 target, not Miri): the x86-64 kernels are
//!   compiled, with the `portable` feature too, so that their tests compare them with the
//!   portable twins in every build; used on `arch`'s modules and those tests;
//! - `x86_kernels` (the same, without the `portable` feature): the library uses them;
//!   used on every call into them and every field holding an x86-64 context, and as
//!   `not(x86_kernels)` on the portable-only alternatives.
//!
//! Outside this module the CPU-specific parts are choices, not kernels: under
//! `x86_kernels` and asking [`cpu`], `ct` (the IFMA exponentiation), `ntt` (the IFMA
//! engine), `modulus` and `engine::ifma` (the radix-2^52 contexts), and
//! `reduce::fixed::arith::with_bmi2!`, which compiles portable code a second time with
//! BMI2 and ADX enabled.
//!
//! # Adding a CPU backend
//! 1. A folder `arch/<family>/` with the kernels, declared in `arch/mod.rs` under the
//!    family's own pair of aliases, added to `build.rs` beside the x86-64 ones.
//! 2. The detection in [`cpu`]: one cached answer per feature set the kernels need, and
//!    its name in `used_features`.
//! 3. The dispatch: a safe entry point that asks [`cpu`] and falls back to the portable
//!    twin (as `arch::x86_64::mul_1`), called from [`LimbKernels`] for the limb type or
//!    from the engine that uses it, under the "used" alias.
//! 4. The twin test: each kernel against its portable twin on the same inputs (edge
//!    digits, every tail length), under the "compiled" alias so that it also runs with
//!    `portable`, skipping (with a note) on a CPU without the feature.

pub(crate) mod arch;
pub(crate) mod cpu;
pub(crate) mod portable;

use crate::limb::{Counted, Limb};

/// Per-limb-type choice of kernel implementation. Every method defaults to the portable
/// version; the trait is the seal of [`Limb`] and cannot be implemented outside the crate.
pub trait LimbKernels: Sized {
    /// Whether the classical reduction takes its quotient digits from a precomputed
    /// reciprocal of the divisor's leading digits (`nat::div::rem_normalized_pi1`, and a
    /// direct two-by-one division for one-digit moduli) rather than from the digit division
    /// and estimate test of paper 000's Algorithm 1 (`nat::div::rem_normalized`). True for
    /// the native digits; the op-counting digit keeps the paper's form, whose operation
    /// counts it reproduces.
    const DIVIDE_BY_RECIPROCAL: bool = true;

    /// Whether the reducers keep the papers' digit operations exactly, shortcuts that
    /// leave every result unchanged left out (Barrett's `μ_k = 1` rows, see
    /// `reduce::barrett`). False for the native digits; true for the op-counting digit,
    /// whose counts reproduce the papers' tables.
    const PAPER_FORM: bool = false;

    /// See [`add_n`].
    #[inline(always)]
    fn add_n(r: &mut [Self], a: &[Self], b: &[Self]) -> bool
    where
        Self: Limb,
    {
        portable::add_n(r, a, b)
    }
    /// See [`add_assign_n`].
    #[inline(always)]
    fn add_assign_n(a: &mut [Self], b: &[Self]) -> bool
    where
        Self: Limb,
    {
        portable::add_assign_n(a, b)
    }
    /// See [`sub_n`].
    #[inline(always)]
    fn sub_n(r: &mut [Self], a: &[Self], b: &[Self]) -> bool
    where
        Self: Limb,
    {
        portable::sub_n(r, a, b)
    }
    /// See [`sub_assign_n`].
    #[inline(always)]
    fn sub_assign_n(a: &mut [Self], b: &[Self]) -> bool
    where
        Self: Limb,
    {
        portable::sub_assign_n(a, b)
    }
    /// See [`mul_1`].
    #[inline(always)]
    fn mul_1(r: &mut [Self], a: &[Self], b: Self) -> Self
    where
        Self: Limb,
    {
        portable::mul_1(r, a, b)
    }
    /// See [`addmul_1`].
    #[inline(always)]
    fn addmul_1(r: &mut [Self], a: &[Self], b: Self) -> Self
    where
        Self: Limb,
    {
        portable::addmul_1(r, a, b)
    }
    /// See [`submul_1`].
    #[inline(always)]
    fn submul_1(r: &mut [Self], a: &[Self], b: Self) -> Self
    where
        Self: Limb,
    {
        portable::submul_1(r, a, b)
    }
    /// See [`mul_basecase`].
    #[inline(always)]
    fn mul_basecase(r: &mut [Self], a: &[Self], b: &[Self])
    where
        Self: Limb,
    {
        portable::mul_basecase(r, a, b)
    }
    /// See [`sqr_basecase`].
    #[inline(always)]
    fn sqr_basecase(r: &mut [Self], a: &[Self])
    where
        Self: Limb,
    {
        portable::sqr_basecase(r, a)
    }
}

impl LimbKernels for u8 {}
impl LimbKernels for u16 {}
impl LimbKernels for u32 {}
#[cfg(not(x86_kernels))]
impl LimbKernels for u64 {}

/// x86-64: MULX/ADCX/ADOX kernels, chosen at run time (see [`arch::x86_64`]); the
/// portable ones on CPUs without BMI2 and ADX and for every kernel not listed here.
#[cfg(x86_kernels)]
impl LimbKernels for u64 {
    #[inline(always)]
    fn mul_1(r: &mut [u64], a: &[u64], b: u64) -> u64 {
        arch::x86_64::mul_1(r, a, b)
    }
    #[inline(always)]
    fn addmul_1(r: &mut [u64], a: &[u64], b: u64) -> u64 {
        arch::x86_64::addmul_1(r, a, b)
    }
    #[inline(always)]
    fn submul_1(r: &mut [u64], a: &[u64], b: u64) -> u64 {
        arch::x86_64::submul_1(r, a, b)
    }
    #[inline(always)]
    fn mul_basecase(r: &mut [u64], a: &[u64], b: &[u64]) {
        arch::x86_64::mul_basecase(r, a, b)
    }
    #[inline(always)]
    fn sqr_basecase(r: &mut [u64], a: &[u64]) {
        arch::x86_64::sqr_basecase(r, a)
    }
}
impl<L: Limb> LimbKernels for Counted<L> {
    const DIVIDE_BY_RECIPROCAL: bool = false;
    const PAPER_FORM: bool = true;
}

/// `r = a + b` over n digits (all three of length n); returns the carry out.
#[inline]
pub(crate) fn add_n<L: Limb>(r: &mut [L], a: &[L], b: &[L]) -> bool {
    L::add_n(r, a, b)
}

/// `a += b` over n digits; returns the carry out.
#[inline]
pub(crate) fn add_assign_n<L: Limb>(a: &mut [L], b: &[L]) -> bool {
    L::add_assign_n(a, b)
}

/// `r = a − b` over n digits; returns the borrow out.
#[inline]
pub(crate) fn sub_n<L: Limb>(r: &mut [L], a: &[L], b: &[L]) -> bool {
    L::sub_n(r, a, b)
}

/// `a −= b` over n digits; returns the borrow out.
#[inline]
pub(crate) fn sub_assign_n<L: Limb>(a: &mut [L], b: &[L]) -> bool {
    L::sub_assign_n(a, b)
}

/// `r = a · b` for an n-digit `a` and one digit `b` (r of length n); returns the high digit.
#[inline]
pub(crate) fn mul_1<L: Limb>(r: &mut [L], a: &[L], b: L) -> L {
    L::mul_1(r, a, b)
}

/// `r[..n] += a · b` for an n-digit `a`; returns the carry digit out of position n.
#[inline]
pub(crate) fn addmul_1<L: Limb>(r: &mut [L], a: &[L], b: L) -> L {
    L::addmul_1(r, a, b)
}

/// `r[..n] −= a · b` for an n-digit `a`; returns the borrow digit out of position n.
#[inline]
pub(crate) fn submul_1<L: Limb>(r: &mut [L], a: &[L], b: L) -> L {
    L::submul_1(r, a, b)
}

/// Schoolbook product `r = a · b`, `r.len() == a.len() + b.len()`, `a`, `b` non-empty.
/// Exactly `a.len() · b.len()` digit multiplications.
#[inline]
pub(crate) fn mul_basecase<L: Limb>(r: &mut [L], a: &[L], b: &[L]) {
    L::mul_basecase(r, a, b)
}

/// Schoolbook square `r = a²`, `r.len() == 2·a.len()`: the n(n−1)/2 cross products once,
/// doubled by a shift, plus the n squares: n(n+1)/2 digit multiplications.
#[inline]
pub(crate) fn sqr_basecase<L: Limb>(r: &mut [L], a: &[L]) {
    L::sqr_basecase(r, a)
}

/// Number of significant digits of a slice (its length without high zeros).
pub(crate) fn normalized_len<L: Limb>(a: &[L]) -> usize {
    let mut n = a.len();
    while n > 0 && a[n - 1].is_zero() {
        n -= 1;
    }
    n
}

/// `a += b` for `a.len() >= b.len()`; returns the carry out of `a`.
pub(crate) fn add_assign_slices<L: Limb>(a: &mut [L], b: &[L]) -> bool {
    let n = b.len();
    debug_assert!(a.len() >= n);
    let c = add_assign_n(&mut a[..n], b);
    add_1(&mut a[n..], if c { L::ONE } else { L::ZERO })
}

/// `a −= b` for `a.len() >= b.len()`; returns the borrow out of `a`.
pub(crate) fn sub_assign_slices<L: Limb>(a: &mut [L], b: &[L]) -> bool {
    let n = b.len();
    debug_assert!(a.len() >= n);
    let br = sub_assign_n(&mut a[..n], b);
    sub_1(&mut a[n..], if br { L::ONE } else { L::ZERO })
}

/// Propagates `carry` (any digit) into `a`; returns the carry out of the top, which is
/// 0 or 1 when `a` is non-empty. An empty `a` returns only whether `carry` is non-zero.
#[inline]
pub(crate) fn add_1<L: Limb>(a: &mut [L], carry: L) -> bool {
    portable::add_1(a, carry)
}

/// Propagates a borrow of `borrow` (any digit) through `a`; returns the borrow out of the
/// top, which is 0 or 1 when `a` is non-empty. An empty `a` returns whether `borrow ≠ 0`.
#[inline]
pub(crate) fn sub_1<L: Limb>(a: &mut [L], borrow: L) -> bool {
    portable::sub_1(a, borrow)
}

/// `r = a << s` for `s < BITS` (r and a of length n); returns the bits shifted out.
#[inline]
pub(crate) fn shl_bits<L: Limb>(r: &mut [L], a: &[L], s: u32) -> L {
    portable::shl_bits(r, a, s)
}

/// `r = a >> s` for `s < BITS`; returns the bits shifted out, in the high end of a digit.
#[inline]
pub(crate) fn shr_bits<L: Limb>(r: &mut [L], a: &[L], s: u32) -> L {
    portable::shr_bits(r, a, s)
}

/// Compares two n-digit slices as numbers.
#[inline]
pub(crate) fn cmp_n<L: Limb>(a: &[L], b: &[L]) -> core::cmp::Ordering {
    debug_assert_eq!(a.len(), b.len());
    for i in (0..a.len()).rev() {
        if a[i] != b[i] {
            return a[i].cmp(&b[i]);
        }
    }
    core::cmp::Ordering::Equal
}

/// `a = a · b + c` in place; returns the high digit.
#[inline]
pub(crate) fn mul_add_1_in_place<L: Limb>(a: &mut [L], b: L, mut c: L) -> L {
    for ai in a.iter_mut() {
        let (lo, hi) = ai.mul_add_carry(b, L::ZERO, c);
        *ai = lo;
        c = hi;
    }
    c
}

#[cfg(test)]
pub(crate) mod tests;
