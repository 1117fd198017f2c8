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
//! ```
//! use modred::{Algorithm, Modulus, Nat};
//!
//! let m: Nat = "0xfffffffffffffffffffffffffffffffeffffffffffffffff".parse()?;
//! let ctx = Modulus::new(&m)?; // auto: Montgomery for an odd modulus
//! let x = ctx.residue(&"12345678901234567890".parse()?);
//! let y = ctx.pow_vartime(&x, &Nat::from(65537u64));
//!
//! let barrett = Modulus::with(Algorithm::Barrett, &m)?; // or force one
//! let z = barrett.pow_mod_vartime(&"12345678901234567890".parse()?, &Nat::from(65537u64));
//! assert_eq!(z, ctx.to_nat(&y));
//! # Ok::<(), modred::Error>(())
//! ```
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
mod rng;

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
