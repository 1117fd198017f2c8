//! x86-64 AVX-512 IFMA (`vpmadd52luq`/`vpmadd52huq`: the low and high 52 bits of a
//! 52×52-bit product added to each 64-bit lane of a 512-bit register): arithmetic in
//! radix 2^52, eight digits or residues to a register.
//!
//! - [`radix52`]: the almost Montgomery product of multi-digit numbers in radix 2^52 and
//!   the digit conversions and constant-time table scan around it, for
//!   `engine::ifma` (and through it `ct` and `Modulus`); each with its portable
//!   twin beside it and tested against it there.
//! - [`ntt`]: the vector passes of the IFMA transform engine of `ntt/ifma.rs` (which
//!   keeps the primes, plans and twiddle tables): forward and inverse butterflies, the
//!   pointwise product, the final scaling and recombination.
//!
//! Everything here needs AVX-512F and IFMA (the radix conversions also BW and VBMI): the
//! kernels are `unsafe fn`s whose callers ask `kernels::cpu` first ([`radix52::has_ifma`],
//! [`radix52::has_vbmi`]). The tests skip the vector kernels on a CPU without them.

pub(crate) mod ntt;
pub(crate) mod radix52;
