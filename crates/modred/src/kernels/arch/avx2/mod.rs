//! x86-64 AVX2: with FMA (`vfmadd`/`vfmsub`/`vfnmadd` on four `f64` lanes of a 256-bit
//! register) for the transform, its 32 × 32-bit products (`vpmuludq` on four 64-bit
//! lanes) for the radix-2^28 Montgomery product.
//!
//! - [`ntt`]: the vector passes of the double-precision transform engine of
//!   `ntt/fma.rs` (which keeps the primes, plans, twiddle tables and the portable twin
//!   the passes are tested against): forward and inverse butterflies, the pointwise
//!   product, the final scaling and recombination;
//! - [`radix28`]: the almost Montgomery product in radix 2^28, four digits to a register
//!   (`vpmuludq`), of the constant-time exponentiation on CPUs without BMI2/ADX
//!   (`engine::avx2`), with its digit-by-digit model;
//! - [`lanes`]: four independent almost Montgomery products in radix 2^28, one number to
//!   each 64-bit lane, for the batch exponentiations (`engine::lanes`).
//!
//! The kernels are `unsafe fn`s whose callers ask `kernels::cpu` first: `ntt` needs AVX2
//! and FMA (`avx2_fma`), `radix28` and `lanes` AVX2 (`avx2`). The tests skip them on a CPU without.

pub(crate) mod lanes;
pub(crate) mod ntt;
pub(crate) mod radix28;
