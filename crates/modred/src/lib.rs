//! # modred
//!
//! Multi-precision modular arithmetic — reduction, multiplication and exponentiation —
//! with every algorithm of the papers it follows behind one interface.
//!
//! The layers, each depending only on those before it:
//! 1. [`limb`]: the digit type, generic from `u8` to `u64`, and an op-counting digit;
//! 2. `kernels`: slice kernels (private);
//! 3. [`nat`]: natural numbers;
//! 4. [`ntt`]: exact transform multiplication (linear and cyclic convolutions);
//! 5. [`reduce`]: the reduction algorithms behind [`Reducer`];
//! 6. [`exp`]: exponentiation over any reducer;
//! 7. [`modulus`]: the user-facing [`Modulus`], which picks a reducer, and the fixed-size
//!    prime fields of [`field`];
//! 8. [`primes`]: Miller–Rabin and the special-prime searches.
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
//! let xy = ctx.mul(&x, &y); // x·y mod m
//! let x2 = ctx.sqr(&x); // x² mod m
//! let x_e = ctx.pow_vartime(&x, &Nat::from(65537u64)); // x^65537 mod m (public exponent)
//! assert_eq!(ctx.to_nat(&xy), &(&ctx.to_nat(&x) * &ctx.to_nat(&y)) % &m);
//! assert_eq!(ctx.to_nat(&x2), ctx.mul_mod(&ctx.to_nat(&x), &ctx.to_nat(&x)));
//!
//! // One-shot forms on plain numbers, and a forced algorithm:
//! let barrett = Modulus::with(Algorithm::Barrett, &m)?;
//! let z = barrett.pow_mod_vartime(&"12345678901234567890".parse()?, &Nat::from(65537u64));
//! assert_eq!(z, ctx.to_nat(&x_e));
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
//! assert_eq!(p.to_nat(&public), p.pow_mod_vartime(&Nat::from(5u64), &secret));
//! let product = p.mul_ct(&public, &g)?;
//! assert_eq!(p.to_nat(&product), p.mul_mod(&p.to_nat(&public), &Nat::from(5u64)));
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
//! let b = f.inv(&a).expect("3 is invertible");
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
//! Which reducer to use when (paper 000 §6, with thresholds measured by `modred tune` on
//! x86-64; the named constants of [`modulus`] carry the figures): for a one-off reduction
//! [`reduce::Classical`] (no precalculation beyond a shift, any argument) below 2048 bits
//! and [`reduce::Barrett`] from there; for many multiplications modulo an odd modulus
//! Montgomery — interleaved ([`reduce::MontgomeryInterleaved`], CIOS) up to 8192 bits
//! for multiplications and 512 for exponentiations, separated ([`reduce::Montgomery`])
//! above; for an even modulus classical for small and Barrett for larger ones; the
//! transform reducers of paper 001 from about 100 000 bits; for the special primes of
//! paper 003 [`reduce::PseudoMersenne`] and [`reduce::Nist`] where measured faster
//! ([`modulus::special_form`]). [`Modulus::new`] applies this rule, or a profile that
//! `modred tune` measured on the machine at hand ([`modulus::profile`]);
//! [`modulus::explain`] says which algorithm it picks and why.
//!
//! In short, and when to force another algorithm with [`Modulus::with`]:
//!
//! | situation | reducer | why |
//! |---|---|---|
//! | one reduction of one number, small modulus | [`reduce::Classical`] | no precalculation beyond a shift; any argument; time falls with the argument's length (paper 000 §6) |
//! | one reduction, from about 1024–2048 bits | [`reduce::Barrett`] | measured 0.8× classical there (table below) |
//! | many multiplications, odd modulus (exponentiation, RSA, DH) | [`reduce::Montgomery`], [`reduce::MontgomeryInterleaved`] | the reduction costs about one multiplication and no division; the interleaved (CIOS) form measured 0.85–0.98× the separated one for multiplications |
//! | the same, even modulus | [`reduce::Barrett`] | applies to every modulus; a precomputed reciprocal instead of division |
//! | `2^N − c` with one-digit `c` (e.g. 2^255 − 19), above 224 bits | [`reduce::PseudoMersenne`] | two folds by `c`: cheaper than Montgomery's reduction |
//! | P-224, P-256, P-521 (and one-off reductions modulo P-192) | [`reduce::Nist`] | hard-coded additions and subtractions of the prime's digits |
//! | moduli of 65 536 bits and more | [`reduce::NttMontgomery`] (odd), [`reduce::NttBarrett`] | transform products: quasi-linear instead of quadratic |
//! | secrets | [`Modulus::mul_ct`], [`Modulus::pow_ct`], [`ct::MontgomeryCt`] | constant time |
//! | studying the papers | `montgomery-interleaved`, `radix2-*`, `hong`, `solinas` | exact to their papers; measured slower here, never chosen by `auto` |
//!
//! Measured with `modred bench` (x86-64 Xeon with BMI2/ADX, 2 shared cores; time per
//! operation, and in parentheses the ratio to `montgomery` on a random odd modulus of the
//! same size — or to Montgomery on the special reducers' own primes, which have the same
//! size — timed interleaved in one run):
//!
//! | op | bits | `montgomery` | `montgomery-interleaved` | `classical` | `barrett` | `ntt-montgomery` | `ntt-barrett` | `hong` | `pseudo-mersenne` | `nist` | `auto` |
//! |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
//! | reduce | 256 | 37 ns (1.00) | 35 ns (1.00) | 86 ns (2.31) | 80 ns (2.33) | 746 ns (20.26) | 749 ns (21.38) | 571 ns (15.28) | 27 ns (0.73) | 37 ns (1.02) | 84 ns (2.31) → classical |
//! | reduce | 1024 | 187 ns (1.00) | 193 ns (1.04) | 385 ns (2.11) | 319 ns (1.77) | 4.9 µs (26.18) | 5.2 µs (26.81) | 4.2 µs (22.36) | 58 ns (0.31) | — | 398 ns (2.12) → classical |
//! | reduce | 4096 | 2.4 µs (1.00) | 2.5 µs (1.00) | 3.8 µs (1.50) | 2.9 µs (1.21) | 37.3 µs (15.58) | 38.2 µs (15.69) | 52.7 µs (21.81) | 153 ns (0.06) | — | 3.7 µs (1.52) → classical |
//! | mulmod | 256 | 51 ns (1.00) | 48 ns (0.95) | 102 ns (2.00) | 101 ns (2.00) | 748 ns (14.41) | 762 ns (14.74) | 781 ns (16.83) | 50 ns (0.98) | 60 ns (1.14) | 51 ns (1.00) → montgomery |
//! | mulmod | 1024 | 348 ns (1.00) | 357 ns (0.96) | 575 ns (1.57) | 506 ns (1.43) | 5.8 µs (16.30) | 6.6 µs (18.21) | 5.9 µs (16.61) | 227 ns (0.60) | — | 341 ns (0.97) → montgomery |
//! | mulmod | 4096 | 5.4 µs (1.00) | 5.0 µs (0.95) | 7.1 µs (1.33) | 5.6 µs (1.16) | 41.7 µs (8.58) | 41.1 µs (8.27) | 70.7 µs (14.93) | 3.0 µs (0.67) | — | 5.2 µs (1.01) → montgomery |
//! | powm | 256 | 18.3 µs (1.00) | 15.7 µs (0.87) | 36.0 µs (2.06) | 35.9 µs (2.01) | 423.3 µs (22.92) | 439.2 µs (23.57) | 200.5 µs (10.37) | 19.2 µs (1.06) | 21.8 µs (1.13) | 18.7 µs (0.99) → montgomery |
//! | powm | 1024 | 412.5 µs (1.00) | 426.7 µs (1.01) | 839.6 µs (1.99) | 605.0 µs (1.42) | 9.6 ms (23.35) | 9.6 ms (23.65) | 5.6 ms (13.73) | 256.9 µs (0.61) | — | 403.7 µs (1.00) → montgomery |
//! | powm | 4096 | 21.4 ms (1.00) | 23.8 ms (1.11) | 30.6 ms (1.18) | 24.6 ms (0.98) | 218.2 ms (7.97) | 207.2 ms (7.27) | 274.5 ms (9.73) | 9.6 ms (0.43) | — | 23.7 ms (0.99) → montgomery |
//!
//! Large moduli (the transform reducers of paper 001):
//!
//! | op | bits | `montgomery` | `barrett` | `ntt-montgomery` | `ntt-barrett` | `auto` |
//! |---|---:|---:|---:|---:|---:|---:|
//! | mulmod | 16384 | 78.1 µs (1.00) | 79.5 µs (1.01) | 236.8 µs (3.00) | 239.0 µs (3.07) | 79.3 µs (1.00) → montgomery |
//! | mulmod | 65536 | 1.1 ms (1.00) | 1.1 ms (0.99) | 1.3 ms (1.16) | 1.3 ms (1.18) | 1.3 ms (1.16) → ntt-montgomery |
//! | mulmod | 262144 | 22.6 ms (1.00) | 23.1 ms (1.03) | 11.0 ms (0.47) | 10.6 ms (0.47) | 10.7 ms (0.46) → ntt-montgomery |
//! | mulmod | 1048576 | 219.8 ms (1.00) | 212.3 ms (0.98) | 36.1 ms (0.17) | 35.2 ms (0.16) | 34.9 ms (0.16) → ntt-montgomery |
//!
//! Read off the tables: Montgomery (either form) is the fastest generic reducer for
//! multiplications at every size up to 65 536 bits, Barrett a close second from 4096 bits
//! on; `pseudo-mersenne` beats it on its own primes by 1.5–2.3× from 1024 bits on; `hong`
//! and the transform reducers are 8–24× slower below 16 384 bits, and the transform
//! reducers win from 262 144 bits on (2× there, 6× at a million bits). These tables were measured
//! before the tuned rule above landed (the `auto` column shows the earlier rule), and
//! showed three disagreements with that rule, which the tuned thresholds now address: `nist` on P-256
//! measured 1.14× Montgomery in this run (the rule picks it from an earlier 0.91); one-off
//! reductions by `barrett` cost about 0.8× `classical`'s from 1024 bits on (the rule picks
//! classical), and at 65 536 bits `ntt-montgomery` (auto's choice from 1024 words) is still
//! 1.16× Montgomery. Reproduce with
//!
//! ```text
//! modred bench --algo montgomery,montgomery-interleaved,classical,barrett,ntt-montgomery,ntt-barrett,hong,pseudo-mersenne,nist,auto \
//!     --bits 256,1024,4096 --op reduce,mulmod,powm
//! modred bench --algo montgomery,barrett,ntt-montgomery,ntt-barrett,auto --bits 16384..1048576 --op mulmod
//! ```
//!
//! # Cargo features
//!
//! - `portable`: use the portable slice kernels for every digit type, never the
//!   architecture-specific ones (on x86-64: MULX/ADCX/ADOX assembly for `u64` digits,
//!   otherwise chosen at run time when the CPU has BMI2 and ADX). Results are the same
//!   either way; the feature is there so that CI runs everything on the portable kernels
//!   too. (Under Miri the portable kernels are always used.)

#![forbid(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

mod algorithm;
mod error;
mod kernels;
pub mod limb;
pub mod nat;
pub mod ntt;
pub mod opcount;
pub mod reduce;
pub mod rng;

pub use algorithm::Algorithm;
pub use error::Error;
pub use limb::{Counted, Limb};
pub use nat::Nat;
pub use reduce::{Bound, Reducer, Scratch};
pub mod batch;
pub mod ct;
pub mod exp;
pub mod field;
pub mod modulus;
pub mod primes;

pub use modulus::{Form, Modulus, Operation, Profile, Residue};
