//! x86-64: the kernels for `u64` digits on BMI2 (MULX) and ADX (ADCX/ADOX).
//!
//! - [`rows`]: `mul_1`, `addmul_1`, `submul_1` and the schoolbook `mul_basecase`/
//!   `sqr_basecase` built on them (and the products of eight and nine digits in
//!   registers, `mul_8_regs` and `mul_9_regs`), MULX with two carry chains (ADCX, ADOX). The safe
//!   entry points below ([`mul_1`] etc., what `LimbKernels for u64` calls) run them where
//!   [`has_bmi2_adx`] says yes and their portable twins otherwise.
//! - [`mont3`]: 3-digit Montgomery multiplication and squaring in MULX/ADCX/ADOX
//!   assembly with the compiler's registers, inlined into the exponentiation loop (for
//!   `reduce::fixed::MontgomeryFixed<3>`, through `reduce::fixed::arith`).
//! - [`mont4`]: 4-digit Montgomery multiplication and squaring in MULX/ADCX/ADOX
//!   assembly, for `reduce::fixed::MontgomeryFixed<4>` (through `reduce::fixed::arith`,
//!   which makes the CPU check).
//! - [`mont_mulx`]: Montgomery multiplication of any width as one fused MULX/ADCX/ADOX
//!   pass per digit (after OpenSSL's `bn_mulx4x_mont`), and Montgomery squaring by the
//!   triangle and a reduction in MULX/ADX rows, for `reduce::montgomery_mulx` and
//!   `ct::MontgomeryCt` (the selector's `engine::rule::montgomery_mulx` decides).
//! - [`rows8`]: Montgomery's reduction, the product and the square eight rows per pass
//!   (a window of eight digits in registers, after OpenSSL's `bn_sqrx8x_internal`), for
//!   `mont_mulx` at `8n` digits; [`karatsuba`]: subtractive Karatsuba over them for the
//!   product at 24, 32, 40, 48, 56 and 64 digits and the square at 32, 56 and 64
//!   (constant time).
//! - [`unrolled`]: the reduction, the product and the square of `mont_mulx` at 10–47
//!   digits (but the multiples of 8) with each row written out (no digit loop inside a row).
//! - [`p25519`]: multiplication modulo `2^255 − 19` (product and fold) in MULX/ADCX/ADOX
//!   assembly, for `reduce::fixed::p25519`.
//! - [`p521`]: the Mersenne fold modulo `2^521 − 1` in two carry chains of assembly, and
//!   the P-521 product and square (45 digit products) before it, for `reduce::fixed::p521`.
//! - [`scalar`]: single baseline instructions (no detection) the compiler does not emit
//!   where needed: the two-by-one `div` of the `u64` digit and the CMOV corrections of the
//!   scalar transform's modular arithmetic.
//!
//! Tests: `tests.rs` checks the row kernels against their twins in `kernels::portable`
//! and `scalar` against `u128` arithmetic; `mont4` is checked against `arith::mont_mul`
//! in `reduce/fixed/arith.rs`.

pub(crate) mod karatsuba;
pub(crate) mod mont3;
pub(crate) mod mont4;
pub(crate) mod mont_mulx;
pub(crate) mod p25519;
pub(crate) mod p521;
mod rows;
pub(crate) mod rows8;
pub(crate) mod scalar;
#[cfg(test)]
mod tests;
pub(crate) mod unrolled;

pub(crate) use rows::{
    addmul_1_adx, mul_1_adx, mul_8_regs, mul_9_regs, mul_basecase_adx, sqr_basecase_adx,
    submul_1_adx,
};

/// Whether this CPU has BMI2 and ADX ([`crate::kernels::cpu::bmi2_adx`]).
#[inline(always)]
pub(crate) fn has_bmi2_adx() -> bool {
    crate::kernels::cpu::bmi2_adx()
}

/// [`crate::kernels::mul_1`] for `u64`: the ADX kernel where the CPU has it.
#[inline]
pub(crate) fn mul_1(r: &mut [u64], a: &[u64], b: u64) -> u64 {
    if has_bmi2_adx() {
        // SAFETY: the CPU has BMI2 and ADX (checked just above).
        unsafe { mul_1_adx(r, a, b) }
    } else {
        cold::mul_1(r, a, b)
    }
}

/// [`crate::kernels::addmul_1`] for `u64`: the ADX kernel where the CPU has it.
#[inline]
pub(crate) fn addmul_1(r: &mut [u64], a: &[u64], b: u64) -> u64 {
    if has_bmi2_adx() {
        // SAFETY: the CPU has BMI2 and ADX (checked just above).
        unsafe { addmul_1_adx(r, a, b) }
    } else {
        cold::addmul_1(r, a, b)
    }
}

/// [`crate::kernels::submul_1`] for `u64`: the ADX kernel where the CPU has it.
#[inline]
pub(crate) fn submul_1(r: &mut [u64], a: &[u64], b: u64) -> u64 {
    if has_bmi2_adx() {
        // SAFETY: the CPU has BMI2 and ADX (checked just above).
        unsafe { submul_1_adx(r, a, b) }
    } else {
        cold::submul_1(r, a, b)
    }
}

/// [`crate::kernels::mul_basecase`] for `u64`: one feature check for the whole product,
/// then rows of the ADX `mul_1`/`addmul_1`, or for nine digits by nine the product in
/// registers ([`mul_9_regs`]).
#[inline]
pub(crate) fn mul_basecase(r: &mut [u64], a: &[u64], b: &[u64]) {
    if let (Ok(r9), Ok(a9), Ok(b9)) = (r.try_into(), a.try_into(), b.try_into()) {
        if has_bmi2_adx() {
            // SAFETY: the CPU has BMI2 and ADX (checked just above).
            unsafe { mul_9_regs(r9, a9, b9) };
            return;
        }
    }
    if has_bmi2_adx() {
        // SAFETY: the CPU has BMI2 and ADX (checked just above).
        unsafe { mul_basecase_adx(r, a, b) }
    } else {
        cold::mul_basecase(r, a, b)
    }
}

/// [`crate::kernels::sqr_basecase`] for `u64`: one feature check for the whole square,
/// then rows of the ADX `mul_1`/`addmul_1`, or for nine digits the eight-digit square in
/// registers and two rows ([`mont_mulx::sqr_9`]: 53 digit products, no doubling pass; a
/// P-521 square 38.4 ns through [`mul_9_regs`] of `a` by itself, which was ahead of the
/// rows, and 31.4 ns so, Intel Xeon (Sapphire Rapids class); not re-measured on AMD).
#[inline]
pub(crate) fn sqr_basecase(r: &mut [u64], a: &[u64]) {
    if let (Ok(r9), Ok(a9)) = (r.try_into(), a.try_into()) {
        if has_bmi2_adx() {
            // SAFETY: the CPU has BMI2 and ADX (checked just above).
            unsafe { mont_mulx::sqr_9(r9, a9) };
            return;
        }
    }
    if has_bmi2_adx() {
        // SAFETY: the CPU has BMI2 and ADX (checked just above).
        unsafe { sqr_basecase_adx(r, a) }
    } else {
        cold::sqr_basecase(r, a)
    }
}

/// The portable kernels out of line, for the dispatch: inlined, their loops would sit
/// beside the assembly in every caller and crowd its registers. Measured on the loop of
/// a 4-digit Montgomery reduction (four `addmul_1` calls): 43 cycles calling the assembly
/// directly, 50 through the dispatch with the portable loops inlined, 46 with them out of
/// line. On a CPU without BMI2 and ADX this costs a call per kernel.
mod cold {
    use crate::kernels::portable;

    #[cold]
    #[inline(never)]
    pub(super) fn mul_1(r: &mut [u64], a: &[u64], b: u64) -> u64 {
        portable::mul_1(r, a, b)
    }

    #[cold]
    #[inline(never)]
    pub(super) fn addmul_1(r: &mut [u64], a: &[u64], b: u64) -> u64 {
        portable::addmul_1(r, a, b)
    }

    #[cold]
    #[inline(never)]
    pub(super) fn submul_1(r: &mut [u64], a: &[u64], b: u64) -> u64 {
        portable::submul_1(r, a, b)
    }

    #[cold]
    #[inline(never)]
    pub(super) fn mul_basecase(r: &mut [u64], a: &[u64], b: &[u64]) {
        portable::mul_basecase(r, a, b)
    }

    #[cold]
    #[inline(never)]
    pub(super) fn sqr_basecase(r: &mut [u64], a: &[u64]) {
        portable::sqr_basecase(r, a)
    }
}
