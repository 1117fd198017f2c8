//! Architecture-specific kernels, one module per target, each beside the portable twin it
//! is tested against (`kernels/portable.rs`).
//!
//! Every module here decides at run time, once, whether the CPU has what its kernels
//! need, and falls back to the portable kernels when it has not; algorithms never see
//! the choice. The `portable` cargo feature (and Miri, which cannot run inline assembly)
//! routes every limb type to the portable kernels; the modules are then still compiled
//! for the tests, which keep checking them against the portable versions.
//!
//! - [`x86_64`]: `u64` kernels on MULX (BMI2) and ADCX/ADOX (ADX): `mul_1`, `addmul_1`,
//!   `submul_1`, and the schoolbook `mul_basecase`/`sqr_basecase` built on them.
//! - [`ifma`]: AVX-512 IFMA almost Montgomery multiplication in radix 2^52 (eight digits
//!   to a register), for the exponentiations of [`crate::reduce::montgomery_ifma`].

#![cfg_attr(not(x86_kernels), allow(dead_code))]

#[cfg(x86_kernels_compiled)]
pub(crate) mod x86_64;

#[cfg(x86_kernels_compiled)]
pub(crate) mod avx512_ifma;

/// The former path of [`avx512_ifma::radix52`], still used by `reduce::montgomery_ifma`.
#[cfg(x86_kernels_compiled)]
#[cfg_attr(not(x86_kernels), allow(unused_imports))]
pub(crate) use avx512_ifma::radix52 as ifma;
