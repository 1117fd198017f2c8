//! # modred
//!
//! Multi-precision modular arithmetic — reduction, multiplication and exponentiation —
//! with every algorithm of the papers it follows behind one interface. The documentation
//! cites them as "paper 000" … "paper 004"; `docs/papers.md` in the repository gives each
//! one's full citation, what modred takes from it and where.
//!
//! The layers, each depending only on those before it (`docs/architecture.md` draws them):
//! 1. [`limb`]: the digit type, generic from `u8` to `u64`, and an op-counting digit;
//! 2. `kernels`: slice kernels (private), the CPU-specific ones beside their portable twins,
//!    and the CPU's features detected once ([`cpu_features`]);
//! 3. [`ntt`]: exact transform multiplication (linear and cyclic convolutions);
//! 4. [`nat`]: natural numbers (their large products through [`ntt`]);
//! 5. [`reduce`]: the reduction algorithms behind [`Reducer`];
//! 6. [`exp`]: exponentiation over any reducer;
//! 7. [`registry`]: every algorithm's facts; [`engine`]: the selector, the only place that
//!    decides which code runs for a modulus ([`engine::Plan`]), and the auto rule;
//! 8. [`modulus`]: the user-facing [`Modulus`], holding one engine; the constant-time
//!    arithmetic of [`ct`]; the fixed-size prime fields of [`field`] (whose modulus a
//!    private Miller–Rabin test checks).
//!
//! What the papers' reproduction needs beyond the arithmetic lives in the `modred-research`
//! crate of the workspace: the operation-counting driver (over [`Counted`] digits), the
//! cycle-level model of paper 004's radix-2 datapaths, and primality with the special-prime
//! searches of paper 003. The fixed-seed
//! generator and the timing harness of the tests, benchmarks and report are in
//! `modred-testkit`.
//!
//! # Quick start
//!
//! A [`Modulus`] is the context for arithmetic modulo one number: [`Modulus::new`] analyses
//! `m` and picks the reducer ([`modulus::choose`]); values live as [`Residue`]s in that
//! reducer's representation between operations, so a chain of multiplications pays for
//! conversions only at its ends.
//!
//! ```
//! use modred::{Algorithm, Modulus, Nat};
//!
//! let m: Nat = "0xfffffffffffffffffffffffffffffffeffffffffffffffff".parse()?; // P-192
//! let ctx = Modulus::new(&m)?;
//! let x = ctx.residue(&"12345678901234567890".parse()?);
//! let y = ctx.residue(&Nat::from(987_654_321u64));
//! let xy = ctx.mul(&x, &y)?; // x·y mod m
//! let x2 = ctx.sqr(&x)?; // x² mod m
//! let x_e = ctx.pow_vartime(&x, &Nat::from(65537u64))?; // x^65537 mod m (public exponent)
//! assert_eq!(ctx.to_nat(&xy)?, &(&ctx.to_nat(&x)? * &ctx.to_nat(&y)?) % &m);
//! assert_eq!(ctx.to_nat(&x2)?, ctx.mul_mod(&ctx.to_nat(&x)?, &ctx.to_nat(&x)?));
//!
//! // One-shot forms on plain numbers, and a forced algorithm:
//! let barrett = Modulus::with(Algorithm::Barrett, &m)?;
//! let z = barrett.pow_mod_vartime(&"12345678901234567890".parse()?, &Nat::from(65537u64))?;
//! assert_eq!(z, ctx.to_nat(&x_e)?);
//! // A residue belongs to the modulus that made it: another one refuses it.
//! assert_eq!(barrett.to_nat(&x), Err(modred::Error::ForeignResidue));
//! assert_eq!(barrett.algorithm(), Algorithm::Barrett);
//! assert_eq!(ctx.reduce(&Nat::power_of_two(300))?, &Nat::power_of_two(300) % &m);
//! # Ok::<(), modred::Error>(())
//! ```
//!
//! **Secrets** (private keys, secret exponents) go through the constant-time methods —
//! Montgomery multiplication with a masked final subtraction, a fixed-window exponentiation
//! that reads every table entry — for odd moduli:
//!
//! ```
//! use modred::{Modulus, Nat};
//!
//! let p = Modulus::new(&Nat::from(0xffff_ffff_ffff_ffc5u64))?; // the largest 64-bit prime
//! let secret = Nat::from(0x1234_5678_9abc_def0u64);
//! let g = p.residue(&Nat::from(5u64));
//! let public = p.pow_ct(&g, &secret)?; // no branch or index depends on `secret`
//! assert_eq!(p.to_nat(&public)?, p.pow_mod_vartime(&Nat::from(5u64), &secret)?);
//! let product = p.mul_ct(&public, &g)?;
//! assert_eq!(p.to_nat(&product)?, p.mul_mod(&p.to_nat(&public)?, &Nat::from(5u64)));
//! # Ok::<(), modred::Error>(())
//! ```
//!
//! **Fixed-size prime fields** ([`field`]): elements are `[u64; N]` on the stack, with the
//! hard-coded reduction for the NIST primes in the standard representation:
//!
//! ```
//! use modred::field::{PrimeField, Representation};
//! use modred::reduce::NistPrime;
//! use modred::Nat;
//!
//! let p: Nat = NistPrime::P256.modulus();
//! let f = PrimeField::<4>::new(&p, Representation::Standard)?;
//! let a = f.from_u64(3);
//! let b = f.inv(&a); // constant time; the inverse of 0 is 0
//! assert_eq!(f.mul(&a, &b), f.one());
//! assert_eq!(f.to_nat(&f.sqr(&f.neg(&a))), Nat::from(9u64));
//! # Ok::<(), modred::Error>(())
//! ```
//!
//! **Errors** are values of [`Error`], never panics, for every bad input:
//!
//! ```
//! use modred::{Algorithm, Error, Modulus, Nat};
//!
//! assert_eq!(Modulus::new(&Nat::default()).unwrap_err(), Error::ZeroModulus);
//! let even = Nat::from(1_000_000u64);
//! assert!(matches!(
//!     Modulus::with(Algorithm::Montgomery, &even),
//!     Err(Error::NotApplicable { algorithm: "montgomery", .. })
//! ));
//! let barrett = Modulus::with(Algorithm::Barrett, &Nat::from(7u64))?;
//! assert!(matches!(barrett.reduce(&Nat::power_of_two(128)), Err(Error::OutOfRange { .. })));
//! assert!(matches!("12a".parse::<Nat>(), Err(Error::Parse { .. })));
//! assert!(matches!("fourier".parse::<Algorithm>(), Err(Error::UnknownAlgorithm(_))));
//! let even_ctx = Modulus::new(&even)?;
//! assert!(even_ctx.pow_ct(&even_ctx.one(), &Nat::from(3u64)).is_err()); // odd moduli only
//! # Ok::<(), modred::Error>(())
//! ```
//!
//! # Which reducer to use when
//!
//! [`Modulus::new`] picks the reducer by the rule of [`modulus::choose`] (paper 000 §6,
//! with thresholds measured by `modred tune` on x86-64; each named constant of [`modulus`]
//! carries its figures), or by a profile that `modred tune` measured on the machine at
//! hand ([`modulus::profile`]); [`modulus::explain`] (and `modred algos M`) says which
//! algorithm it picks and why. The built-in rule, with `k` the modulus's 64-bit digits:
//!
//! - one-off reduction: [`reduce::Barrett`] from 2 digits — its unrolled fixed-size form
//!   ([`reduce::BarrettFixed`]) at 2–8 and 16 digits with the top bit set, the slice
//!   form from 9 digits — and [`reduce::Classical`] (no precalculation beyond a shift and
//!   a reciprocal, any argument) for one digit and for the moduli up to 8 digits whose top
//!   digit is below 2^63 (odd ones of 4 digits: Montgomery's reduction and one
//!   multiplication where its assembly runs); [`reduce::NttBarrett`] from 512 digits
//!   (32 768 bits), from 128 digits (8192 bits) where the transforms run on AVX-512 IFMA;
//! - multiplications and exponentiations, odd modulus: [`reduce::Montgomery`] (its
//!   fixed-size, unrolled form) up to 8 digits; then for multiplications the interleaved
//!   form ([`reduce::MontgomeryInterleaved`], CIOS) up to 128 digits (8192 bits) and the
//!   separated one above, for exponentiations the separated one (on a CPU with AVX-512
//!   IFMA its exponentiation runs in radix 2^52 from 512 bits), except exponentiations
//!   modulo 1- and 2-digit moduli with the top bit set (the fixed-size Barrett);
//!   [`reduce::NttMontgomery`]
//!   from 512 digits, from 128 digits (8192 bits) where the transforms run on AVX-512 IFMA;
//! - even modulus (no Montgomery): Barrett (fixed-size where it has that form, else the
//!   slice form from 9 digits), classical for the other moduli up to 8 digits,
//!   `ntt-barrett` from the same thresholds;
//! - special primes (paper 003): [`reduce::PseudoMersenne`] for `2^N − c` with a one-digit
//!   `c` (exponentiations only up to 512 bits), [`reduce::Nist`] for P-192, P-384,
//!   P-521, 2^448 − 2^224 − 1 and 2^512 − 2^32 − 1, and for one-off reductions modulo
//!   P-224 and P-256 ([`engine::rule`]).
//!
//! In short, and when to force another algorithm with [`Modulus::with`]:
//!
//! | situation | reducer | why |
//! |---|---|---|
//! | one reduction of one number, 128 to 8192 bits (to 32 768 without AVX-512 IFMA) | [`reduce::Barrett`] | multiplications by a precomputed reciprocal, unrolled at 2–8 and 16 digits with the top bit set: 1.2–2.3× classical on an undisturbed core; from 1024 bits up to 1.3× slower than classical on a core whose neighbour is busy (below) |
//! | one reduction, 64 bits and less, or a top digit below 2^63 | [`reduce::Classical`] | any argument; time falls with the argument's length (paper 000 §6); quotient digits from a precomputed reciprocal |
//! | many multiplications, odd modulus (exponentiation, RSA, DH) | [`reduce::Montgomery`], [`reduce::MontgomeryInterleaved`] | the reduction costs about one multiplication and no division; 1.2–7× classical and Barrett up to 4096 bits |
//! | the same, even modulus | [`reduce::Barrett`] | Montgomery does not apply; a precomputed reciprocal instead of division (classical for moduli up to 512 bits whose top digit is below 2^63) |
//! | `2^N − c` with one-digit `c` (e.g. 2^255 − 19) | [`reduce::PseudoMersenne`] | two folds by `c`: 2–6× classical for a reduction, up to 1.7× Montgomery for a multiplication |
//! | P-192, P-384, P-521, 2^448 − 2^224 − 1, 2^512 − 2^32 − 1 (and one-off reductions modulo P-224, P-256) | [`reduce::Nist`] | hard-coded additions and subtractions of the prime's digits |
//! | moduli of 8192 bits and more on AVX-512 IFMA (32 768 elsewhere) | [`reduce::NttMontgomery`] (odd), [`reduce::NttBarrett`] | transform products: quasi-linear instead of quadratic; 1.15–5× the others at 32 768–131 072 bits |
//! | secrets | [`Modulus::mul_ct`], [`Modulus::pow_ct`], [`ct::MontgomeryCt`] | constant time |
//! | studying the papers | `radix2-*`, `hong`, `solinas` | exact to their papers; measured slower here, never chosen by `auto` |
//!
//! Measured with `MODRED_PROFILE= modred tune --check` (the built-in rule, no profile; x86-64
//! Xeon with BMI2/ADX and AVX-512 IFMA, 2 shared and loaded cores, 64-bit digits, 22 Nov
//! 2026): every algorithm that applies is timed interleaved in one run at each point; a
//! cell gives `auto`'s choice, its time over the fastest's, and the fastest where that is
//! another algorithm; "time" is the fastest's time per operation (a reduction of a product of two
//! residues, a multiplication, an exponentiation with an exponent as long as the modulus).
//! Within 10 % (ratios up to 1.10) at 125 of 125 points of this run (worst 1.03); each
//! comparison's rounds come from three passes over all points, so a few seconds of a busy
//! neighbour cannot decide one.
//!
//! <!-- tune-table -->
//! | op | bits | odd modulus: auto, auto/fastest (fastest) | time | even modulus | time |
//! |---|---:|---|---:|---|---:|
//! | reduce | 64 | `classical` 1.00 | 8 ns | `classical` 1.00 | 8 ns |
//! | reduce | 128 | `barrett` 1.00 | 16 ns | `barrett` 1.00 | 15 ns |
//! | reduce | 256 | `barrett` 1.00 | 42 ns | `barrett` 1.00 | 38 ns |
//! | reduce | 512 | `barrett` 1.00 | 102 ns | `barrett` 1.00 | 92 ns |
//! | reduce | 1024 | `barrett` 1.00 | 290 ns | `barrett` 1.00 | 299 ns |
//! | reduce | 2048 | `barrett` 1.00 | 914 ns | `barrett` 1.00 | 870 ns |
//! | reduce | 4096 | `barrett` 1.00 | 2.80 µs | `barrett` 1.00 | 2.69 µs |
//! | reduce | 8192 | `ntt-barrett` 1.00 | 8.31 µs | `ntt-barrett` 1.00 | 8.19 µs |
//! | reduce | 16384 | `ntt-barrett` 1.00 | 16.27 µs | `ntt-barrett` 1.00 | 16.10 µs |
//! | reduce | 32768 | `ntt-barrett` 1.00 | 38.94 µs | `ntt-barrett` 1.00 | 40.88 µs |
//! | reduce | 65536 | `ntt-barrett` 1.00 | 87.56 µs | `ntt-barrett` 1.00 | 88.69 µs |
//! | reduce | 131072 | `ntt-barrett` 1.00 | 210.91 µs | `ntt-barrett` 1.00 | 212.97 µs |
//! | mulmod | 64 | `montgomery` 1.00 | 7 ns | `barrett` 1.00 | 8 ns |
//! | mulmod | 128 | `montgomery` 1.00 | 15 ns | `barrett` 1.00 | 17 ns |
//! | mulmod | 256 | `montgomery` 1.00 | 32 ns | `barrett` 1.00 | 77 ns |
//! | mulmod | 512 | `montgomery` 1.02 (`montgomery-interleaved`) | 110 ns | `barrett` 1.00 | 155 ns |
//! | mulmod | 1024 | `montgomery-interleaved` 1.00 | 331 ns | `barrett` 1.00 | 442 ns |
//! | mulmod | 2048 | `montgomery-interleaved` 1.00 | 1.19 µs | `barrett` 1.00 | 1.60 µs |
//! | mulmod | 4096 | `montgomery-interleaved` 1.00 | 4.77 µs | `barrett` 1.00 | 5.78 µs |
//! | mulmod | 8192 | `ntt-montgomery` 1.00 | 14.66 µs | `ntt-barrett` 1.00 | 14.74 µs |
//! | mulmod | 16384 | `ntt-montgomery` 1.00 | 32.67 µs | `ntt-barrett` 1.00 | 31.75 µs |
//! | mulmod | 32768 | `ntt-montgomery` 1.00 | 72.51 µs | `ntt-barrett` 1.00 | 74.50 µs |
//! | mulmod | 65536 | `ntt-montgomery` 1.00 | 163.42 µs | `ntt-barrett` 1.00 | 166.61 µs |
//! | mulmod | 131072 | `ntt-montgomery` 1.00 | 392.91 µs | `ntt-barrett` 1.00 | 413.57 µs |
//! | powm | 64 | `barrett` 1.00 | 684 ns | `barrett` 1.00 | 702 ns |
//! | powm | 128 | `barrett` 1.00 | 2.18 µs | `barrett` 1.00 | 2.38 µs |
//! | powm | 256 | `montgomery` 1.00 | 7.42 µs | `barrett` 1.00 | 15.64 µs |
//! | powm | 512 | `montgomery` 1.00 | 53.71 µs | `barrett` 1.00 | 76.71 µs |
//! | powm | 1024 | `montgomery` 1.03 (`montgomery-interleaved`) | 194.26 µs | `barrett` 1.00 | 555.38 µs |
//! | powm | 2048 | `montgomery` 1.03 (`montgomery-interleaved`) | 884.94 µs | `barrett` 1.00 | 3.13 ms |
//! | powm | 4096 | `montgomery` 1.00 | 6.33 ms | `barrett` 1.00 | 21.67 ms |
//! | powm | 8192 | `ntt-montgomery` 1.00 | 122.12 ms | `ntt-barrett` 1.00 | 124.27 ms |
//!
//! Special forms (same run; `solinas` is the generalized Mersenne form that is neither a
//! NIST prime nor one-digit pseudo-Mersenne, for which the generic rule decides):
//!
//! | modulus | form | reduce | mulmod | powm |
//! |---|---|---|---|---|
//! | 2^128-189 | pseudo-mersenne | `pseudo-mersenne` 1.00 | `pseudo-mersenne` 1.00 | `barrett` 1.00 |
//! | 2^192-189 | pseudo-mersenne | `pseudo-mersenne` 1.00 | `pseudo-mersenne` 1.00 | `pseudo-mersenne` 1.00 (`barrett`) |
//! | 2^224-189 | pseudo-mersenne | `pseudo-mersenne` 1.00 | `montgomery` 1.00 | `montgomery` 1.00 |
//! | 2^255-19 | pseudo-mersenne | `pseudo-mersenne` 1.00 | `montgomery` 1.00 | `montgomery` 1.00 |
//! | 2^256-189 | pseudo-mersenne | `pseudo-mersenne` 1.00 | `montgomery` 1.00 | `montgomery` 1.00 |
//! | 2^384-189 | pseudo-mersenne | `pseudo-mersenne` 1.00 | `pseudo-mersenne` 1.00 | `pseudo-mersenne` 1.00 |
//! | 2^512-189 | pseudo-mersenne | `pseudo-mersenne` 1.00 | `pseudo-mersenne` 1.00 | `pseudo-mersenne` 1.00 |
//! | 2^1024-189 | pseudo-mersenne | `pseudo-mersenne` 1.00 | `pseudo-mersenne` 1.00 | `montgomery` 1.01 (`montgomery-interleaved`) |
//! | P-192 | nist | `nist` 1.00 | `nist` 1.00 | `nist` 1.00 |
//! | P-224 | nist | `nist` 1.00 | `montgomery` 1.00 | `montgomery` 1.00 |
//! | P-256 | nist | `nist` 1.00 | `montgomery` 1.00 | `montgomery` 1.00 |
//! | P-384 | nist | `nist` 1.00 | `nist` 1.00 | `nist` 1.00 |
//! | 2^448-2^224-1 | nist | `nist` 1.00 | `nist` 1.00 | `nist` 1.00 |
//! | 2^512-2^32-1 | nist | `nist` 1.00 | `nist` 1.00 | `nist` 1.00 |
//! | P-521 | nist | `nist` 1.00 | `nist` 1.00 | `nist` 1.00 |
//! | 2^256-2^64-1 | solinas | `barrett` 1.00 | `montgomery` 1.00 | `montgomery` 1.00 |
//! | 2^384-2^192-1 | solinas | `barrett` 1.00 | `montgomery` 1.00 | `montgomery` 1.00 |
//! | 2^512-2^128-1 | solinas | `barrett` 1.00 | `montgomery` 1.00 | `montgomery` 1.01 (`montgomery-interleaved`) |
//! <!-- /tune-table -->
//!
//! The shared machine of these measurements runs in two states that last minutes: in the
//! slow one (a busy neighbour on the physical core) every scalar reducer is 1.2–1.8 times
//! slower while the multiplier- and AVX-512-bound paths are not, and Barrett's
//! multiplication rows lose more than the classical division chain: in a slow-state run
//! of this rule classical was 1.17–1.28 faster at 1024 bits and 1.15–1.23 at 2048 (one-off
//! reductions, even moduli), while Barrett kept 1.13 ahead at 512 bits
//! (`docs/tune-sample/` has both states). The rule follows the fast state, the undisturbed
//! machine. A profile written by `modred tune` on the machine at hand follows that
//! machine's order. Reproduce with
//!
//! ```text
//! MODRED_PROFILE= modred tune --check            # the built-in rule, about 2 minutes
//! modred tune && modred tune --check             # write a profile for this machine, then follow it
//! modred bench --algo classical,barrett,montgomery,auto --bits 256..8192 --op reduce,mulmod,powm
//! ```
//!
//! `docs/benchmarks.md` has the times beside GMP and OpenSSL.
//!
//! # Cargo features
//!
//! - `std` (default): the standard library. Without it the crate is `#![no_std]` and needs
//!   only `alloc` (a global allocator) and 64-bit atomics; everything works the same except:
//!   CPU features are not detected at run time — only those the build enables
//!   (`-C target-cpu=…`, `-C target-feature=+bmi2,+adx`) are used, else the portable
//!   kernels ([`cpu_features`]); the tuning profile's file and environment variables are
//!   absent ([`engine::profile`]: parse a text and activate it instead); [`batch`] runs
//!   one job after another; the working space and the [`Counted`] counters kept per thread
//!   are kept once for the program. On x86-64 targets without SSE2 (`x86_64-unknown-none`)
//!   only the portable kernels are compiled.
//! - `rayon` (implies `std`): [`batch`] spreads its jobs over every core.
//! - `num-bigint`: `From` both ways between [`Nat`] and `num_bigint::BigUint`.
//! - `crypto-bigint`: `Nat<u64>` from a `crypto_bigint::Uint<N>` (`From`, any `N`), and a
//!   `Uint<N>` from a `&Nat<u64>` (`TryFrom`: [`Error::InvalidArgument`] when the value has
//!   more than `Uint::<N>::BITS` bits).
//! - `rand_core`: uniform random numbers below a bound and residues (`Nat::random_below`,
//!   `Modulus::random`).
//! - `portable`: use the portable slice kernels for every digit type, never the
//!   architecture-specific ones (on x86-64: MULX/ADCX/ADOX assembly for `u64` digits,
//!   otherwise chosen at run time when the CPU has BMI2 and ADX). Results are the same
//!   either way; the feature is there so that CI runs everything on the portable kernels
//!   too. (Under Miri the portable kernels are always used.)

#![no_std]
#![forbid(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

extern crate alloc;
// The unit tests use the standard library whatever the features (the test harness needs it).
#[cfg(any(feature = "std", test))]
extern crate std;

mod error;
mod kernels;
pub mod limb;
pub mod nat;
pub mod ntt;
mod primality;
pub mod reduce;
pub mod registry;
mod sync;

pub use error::Error;
pub use limb::{Counted, Limb};
pub use nat::Nat;
pub use reduce::{Bound, Reducer, Scratch};
pub use registry::Algorithm;
pub mod batch;
pub mod ct;
pub mod engine;
pub mod exp;
pub mod field;
pub mod modulus;

pub use engine::Operation;
pub use modulus::{Form, Limits, Modulus, Plan, Profile, Residue};

/// Not part of the interface: the library internals `modred-research` builds on. They may
/// change in any release.
#[doc(hidden)]
pub mod __research {
    pub use crate::primality::{is_probable_prime, RANDOM_BASES};
}

/// The CPU features this build's CPU-specific code uses and this CPU has (detected once;
/// without the `std` feature, those the build enables): any of `bmi2+adx`, `avx2`, `avx2+fma`,
/// `avx512ifma`, `avx512vbmi`; empty with the `portable` feature, under Miri and on other architectures.
pub fn cpu_features() -> alloc::vec::Vec<&'static str> {
    kernels::cpu::used_features()
}
