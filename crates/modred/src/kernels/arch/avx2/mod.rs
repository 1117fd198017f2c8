//! x86-64 AVX2 with FMA (`vfmadd`/`vfmsub`/`vfnmadd` on four `f64` lanes of a 256-bit
//! register).
//!
//! - [`ntt`]: the vector passes of the double-precision transform engine of
//!   `ntt/fma.rs` (which keeps the primes, plans, twiddle tables and the portable twin
//!   the passes are tested against): forward and inverse butterflies, the pointwise
//!   product, the final scaling and recombination.
//!
//! Everything here needs AVX2 and FMA: the kernels are `unsafe fn`s whose callers ask
//! `kernels::cpu::avx2_fma` first. The tests skip them on a CPU without both.

pub(crate) mod ntt;
