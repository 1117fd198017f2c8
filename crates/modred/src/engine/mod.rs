//! Layer 7: the engine — the concrete code that does one modulus's arithmetic.
//!
//! A [`crate::Modulus`] holds one engine and nothing else (but its lazily built
//! constant-time context). The engine is made by the selector (`select`), the only place
//! that maps an algorithm request (forced, or `auto` for an [`Operation`]), the modulus's
//! width and form, the CPU's features ([`crate::cpu_features`]) and the active tuning
//! profile to the code that runs, and says why. What it picks is a [`Plan`]: the algorithm,
//! the code of its products ([`Product`]: a slice reducer, unrolled fixed-size code, the
//! 4-digit MULX/ADX assembly, the AVX-512 IFMA radix-2^52 product, a transform engine), of
//! its exponentiation ([`Power`]) and of one-off reductions. [`plan`] gives the plan
//! without building anything (`modred algos M` prints it); [`crate::Modulus::plan`] gives
//! the plan of the engine a modulus built — the same, which a test checks for every
//! registry entry.
//!
//! - [`rule`]: the auto rule — which algorithm for a modulus and an operation, with the
//!   named thresholds;
//! - [`profile`]: tuning profiles written by `modred tune`, which the rule follows;
//! - `select`: the selector (plan, then build; a failed construction is an error);
//! - `core`: the arithmetic core a modulus multiplies with (fixed-size, assembly, boxed);
//! - `ifma`: Montgomery arithmetic in radix 2^52 on AVX-512 IFMA (not a reducer: its
//!   residues are not the reducers' `u64` digits), for products and exponentiations;
//! - `avx2`: Montgomery arithmetic in radix 2^28 on AVX2, for the constant-time
//!   exponentiation on CPUs without BMI2/ADX;
//! - `lanes`: four exponentiations side by side in the lanes of AVX2 registers, for the
//!   batch API (`rule::lanes_power`);
//! - `even`: an even modulus split by CRT for its exponentiations;
//! - `once`: an exponentiation modulo a modulus met once whose odd part has two to seven
//!   digits, on the fixed-size Montgomery products without an engine
//!   ([`rule::ONCE_FIXED_MAX_DIGITS`]).

mod analysis;
#[cfg(any(x86_kernels, all(test, x86_kernels_compiled)))]
pub(crate) mod avx2;
pub(crate) mod core;
mod even;
#[cfg(any(x86_kernels, all(test, x86_kernels_compiled)))]
pub(crate) mod ifma;
#[cfg(any(x86_kernels, all(test, x86_kernels_compiled)))]
pub(crate) mod lanes;
pub(crate) mod once;
pub mod profile;
#[cfg(any(x86_kernels, all(test, x86_kernels_compiled)))]
mod radix;
pub mod rule;
mod select;

pub(crate) use self::core::{with_work, Core};
pub use analysis::{analysis, MAX_ANALYSIS_DIGITS};
pub(crate) use select::{build, build_for_powers, Engine};
pub use select::{plan, reducer, Plan, Power, Product};

use crate::error::Error;
use ::core::fmt;
use ::core::str::FromStr;
use alloc::format;

/// The operation an algorithm is chosen for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    /// One reduction `x mod m`: no precalculation can be spread over other operations.
    Reduce,
    /// Modular multiplications `x·y mod m`.
    MulMod,
    /// Modular exponentiation `x^e mod m`: a long chain of multiplications.
    PowMod,
}

impl Operation {
    /// Every operation.
    pub const ALL: [Operation; 3] = [Operation::Reduce, Operation::MulMod, Operation::PowMod];

    /// The name in profiles and on the command line (`reduce`, `mulmod`, `powm`).
    pub const fn name(self) -> &'static str {
        match self {
            Operation::Reduce => "reduce",
            Operation::MulMod => "mulmod",
            Operation::PowMod => "powm",
        }
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Operation {
    type Err = Error;
    fn from_str(s: &str) -> Result<Operation, Error> {
        Operation::ALL.into_iter().find(|o| o.name() == s).ok_or_else(|| {
            Error::InvalidArgument(format!("unknown operation '{s}' (known: reduce, mulmod, powm)"))
        })
    }
}
