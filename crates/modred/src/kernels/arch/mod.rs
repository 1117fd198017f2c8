//! Architecture-specific kernels, one folder per instruction-set family, each kernel with
//! a portable twin it is tested against (`kernels/portable.rs` for the slice kernels, the
//! callers' own portable code for the others).
//!
//! The kernels themselves do not choose: the ones that need a CPU feature are `unsafe fn`s
//! whose callers ask [`crate::kernels::cpu`] first (the safe entry points of [`x86_64`]
//! do it for the slice kernels) and fall back to the portable twin when it answers no;
//! algorithms never see the choice. The folders are compiled under
//! `x86_kernels_compiled` (x86-64, not Miri, which cannot run inline assembly or vector
//! intrinsics), the library calls into them under `x86_kernels` (the same, not the
//! `portable` feature): with `portable` they are still compiled, unused by the library
//! (hence the `dead_code` allowance below), for the tests that compare them with their
//! twins.
//!
//! - [`x86_64`]: BMI2 and ADX (MULX, ADCX/ADOX). `rows`: `mul_1`, `addmul_1`,
//!   `submul_1`, the schoolbook `mul_basecase`/`sqr_basecase` built on them, and their
//!   safe dispatching entry points; `mont4`: the 4-digit Montgomery product and square
//!   of `reduce::fixed`; `mont_mulx`: the Montgomery product (CIOS fused into one pass per
//!   digit) and square of any width, of `reduce::montgomery_mulx` and `ct`; `scalar`: the baseline instructions `div` and CMOV of
//!   `limb::native` and `ntt::prime`.
//! - [`avx512_ifma`]: AVX-512 IFMA (radix 2^52, eight digits to a register). `radix52`:
//!   the almost Montgomery product, its digit conversions and the constant-time table
//!   scan of `engine::ifma`; `ntt`: the vector passes of the IFMA
//!   transform engine of `ntt/ifma.rs`.
//! - [`avx2`]: AVX2, with FMA for the transform (four `f64` or 64-bit lanes to a
//!   register). `ntt`: the vector passes of the double-precision transform engine of
//!   `ntt/fma.rs`; `radix28`: the almost Montgomery product in radix 2^28 of
//!   `engine::avx2`. Same family, target and aliases as [`x86_64`]; detection by
//!   `kernels::cpu::avx2_fma` and `kernels::cpu::avx2`.
//! - `aarch64/`: the place for AArch64 (NEON, SVE) kernels, with their own aliases in
//!   `build.rs` and detection in `kernels::cpu`; none yet.

#![cfg_attr(not(x86_kernels), allow(dead_code))]

#[cfg(x86_kernels_compiled)]
pub(crate) mod x86_64;

#[cfg(x86_kernels_compiled)]
pub(crate) mod avx512_ifma;

#[cfg(x86_kernels_compiled)]
pub(crate) mod avx2;
