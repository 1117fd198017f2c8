//! Single x86-64 instructions the compiler does not emit where the library needs them, on
//! every x86-64 CPU (baseline instructions: nothing to detect). Each is an `asm!` block in
//! an `#[inline(always)]` function, so it lands in its caller as if written there.
//!
//! - [`div_2by1`]: the two-by-one division of `div`, for the `u64` digit's
//!   `div_wide` (`limb/native.rs`, whose portable twin is the `u128` division);
//! - [`sub_mod`], [`add_mod`]: the corrections of the scalar transform's modular
//!   arithmetic as a flag-setting SUB/ADD and a CMOV (`ntt/prime.rs`, whose portable twins
//!   are the masked selects there).
//!
//! Tested against `u128` arithmetic in `tests.rs`.

/// `(hi·2^64 + lo) divmod d` by one `div`. Rust lowers a `u128 / u64` division to a library
/// call that handles 128-bit divisors; x86-64's `div` does exactly the two-by-one division
/// the algorithms need, in a fraction of the time (it dominates the classical reduction's
/// quotient estimates).
///
/// # Safety
/// `hi < d` (so `d > 0` and the quotient fits 64 bits): `div` traps otherwise.
#[inline(always)]
pub(crate) unsafe fn div_2by1(hi: u64, lo: u64, d: u64) -> (u64, u64) {
    debug_assert!(hi < d);
    let (q, r): (u64, u64);
    // SAFETY: `div` traps only when the quotient overflows 64 bits or `d` is zero; the
    // caller's `hi < d` rules out both (so `d > 0` and `(hi·2^64 + lo)/d < 2^64`). It
    // touches only the named registers and the flags.
    unsafe {
        core::arch::asm!(
            "div {d}",
            d = in(reg) d,
            inout("rax") lo => q,
            inout("rdx") hi => r,
            options(pure, nomem, nostack),
        );
    }
    (q, r)
}

// The corrections of `sub_mod` and `add_mod` below are selects whose condition is a coin
// toss in a transform. Written as `if` (or as a mask, which the compiler turns back into
// a select), LLVM's x86 backend may lower them to conditional jumps, mispredicted about
// half the time: measured, the inverse transform compiled with three such jumps per
// butterfly ran five times slower than the forward one. Here they are therefore a
// flag-setting SUB/ADD and a CMOV.

/// `a − b mod p` for `a, b < p` (also `a < p`, `b < 2^64` with `a − b > −p`).
#[inline(always)]
pub(crate) fn sub_mod(a: u64, b: u64, p: u64) -> u64 {
    let mut d = a;
    // SAFETY: register-only arithmetic: no memory access, no stack use; every
    // register written (`d`, the scratch `t`) is declared and the flags are clobbered
    // (no `preserves_flags`).
    unsafe {
        core::arch::asm!(
            "sub {d}, {b}",
            "lea {t}, [{d} + {p}]",
            "cmovc {d}, {t}",
            d = inout(reg) d,
            b = in(reg) b,
            p = in(reg) p,
            t = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    d
}

/// `a + b mod p` for `a, b < p < 2^63`.
#[inline(always)]
pub(crate) fn add_mod(a: u64, b: u64, p: u64) -> u64 {
    let mut s = a + b;
    // SAFETY: as in `sub_mod`: registers only, all written ones declared.
    unsafe {
        core::arch::asm!(
            "mov {t}, {s}",
            "sub {s}, {p}",
            "cmovc {s}, {t}",
            s = inout(reg) s,
            p = in(reg) p,
            t = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    s
}
