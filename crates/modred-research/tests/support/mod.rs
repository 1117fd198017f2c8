//! What the tests share: conversions to the `num-bigint` oracle and draws of the
//! testkit's fixed-seed generator as its numbers.

#![allow(dead_code)]

use modred::{Limb, Nat};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;
use num_traits::One;

pub fn to_big<L: Limb>(n: &Nat<L>) -> BigUint {
    BigUint::from_bytes_le(&n.to_bytes_le())
}

pub fn from_big<L: Limb>(x: &BigUint) -> Nat<L> {
    Nat::from_bytes_le(&x.to_bytes_le())
}

/// Draws from the testkit's generator (the same sequences as modred's own tests' helpers)
/// as num-bigint numbers.
pub trait BigDraws {
    /// Exactly `bits ≥ 1` bits.
    fn big_exact_bits(&mut self, bits: u64) -> BigUint;
    /// Uniform below `n > 0` (0 for `n = 0`).
    fn big_below(&mut self, n: &BigUint) -> BigUint;
}

impl BigDraws for SplitMix64 {
    fn big_exact_bits(&mut self, bits: u64) -> BigUint {
        let low = BigUint::from_slice(&to_u32(&self.below_pow2(bits - 1)));
        low | (BigUint::one() << (bits - 1))
    }

    fn big_below(&mut self, n: &BigUint) -> BigUint {
        if n.bits() == 0 {
            return BigUint::default();
        }
        BigUint::from_slice(&to_u32(&self.below(&n.to_u64_digits())))
    }
}

fn to_u32(digits: &[u64]) -> Vec<u32> {
    digits.iter().flat_map(|&d| [d as u32, (d >> 32) as u32]).collect()
}
