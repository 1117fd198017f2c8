//! The fixed-seed inputs of the report, `modred tune`, `modred bench` and the hardware
//! vectors: the testkit's generator, whose numbers (digits in radix 2^64) [`nat`] makes
//! numbers of any digit size, so one seed gives the same numbers at every digit size.

use modred::{Limb, Nat};
pub use modred_testkit::SplitMix64;

/// The testkit's digits (radix 2^64) as a number with `L` digits.
pub fn nat<L: Limb>(digits: Vec<u64>) -> Nat<L> {
    Nat::<u64>::from_vec(digits).to_radix()
}

/// The digits in radix 2^64 of `x`: a bound for the testkit's `below` and `between`.
pub fn digits<L: Limb>(x: &Nat<L>) -> Vec<u64> {
    x.to_radix::<u64>().into_limbs()
}
