//! Fixed-seed pseudo-random numbers for tests, examples, benchmarks and the report:
//! SplitMix64 (Steele, Lea and Flood, 2014), small and good enough for test data.
//! **Not for cryptography** — its output is predictable from any one value.
//!
//! Every number is drawn in radix 2^64 and converted, so one seed gives the same numbers
//! at every digit size:
//!
//! ```
//! use modred::{rng::SplitMix64, Nat};
//! let a: Nat<u64> = SplitMix64::new(3).exact_bits(300);
//! let b: Nat<u16> = SplitMix64::new(3).exact_bits(300);
//! assert_eq!(a.to_radix::<u16>(), b);
//! ```

use crate::limb::Limb;
use crate::nat::Nat;

/// The SplitMix64 generator: a 64-bit state advanced by a Weyl sequence and mixed by two
/// multiplications.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator with the given seed.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 pseudo-random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform below `2^bits` (`bits = 0` gives 0).
    pub fn below_pow2<L: Limb>(&mut self, bits: u64) -> Nat<L> {
        let words = bits.div_ceil(64) as usize;
        let mut v: Vec<u64> = (0..words).map(|_| self.next_u64()).collect();
        let spare = words as u64 * 64 - bits;
        if let Some(top) = v.last_mut() {
            *top >>= spare;
        }
        Nat::<u64>::from_vec(v).to_radix()
    }

    /// Uniform with exactly `bits` bits (the top one set); `bits = 0` gives 0.
    pub fn exact_bits<L: Limb>(&mut self, bits: u64) -> Nat<L> {
        if bits == 0 {
            return Nat::zero();
        }
        let low: Nat<L> = self.below_pow2(bits - 1);
        low.add(&Nat::power_of_two(bits - 1))
    }

    /// An odd number of exactly `bits ≥ 2` bits: a modulus every reducer accepts
    /// (`bits = 1` gives 1, `bits = 0` gives 1 as well: the smallest odd number).
    pub fn odd_modulus<L: Limb>(&mut self, bits: u64) -> Nat<L> {
        let m: Nat<L> = self.exact_bits(bits);
        if m.is_odd() {
            m
        } else {
            m.add(&Nat::one())
        }
    }

    /// Uniform below `bound`, by rejection (fewer than two draws on average).
    ///
    /// # Panics
    /// If `bound` is zero: the range is empty.
    pub fn below<L: Limb>(&mut self, bound: &Nat<L>) -> Nat<L> {
        assert!(!bound.is_zero(), "SplitMix64::below: empty range (bound 0)");
        loop {
            let x = self.below_pow2(bound.bits());
            if &x < bound {
                return x;
            }
        }
    }

    /// Uniform in `[lo, hi)`.
    ///
    /// # Panics
    /// If `lo ≥ hi`: the range is empty.
    pub fn between<L: Limb>(&mut self, lo: &Nat<L>, hi: &Nat<L>) -> Nat<L> {
        let width = hi.checked_sub(lo).unwrap_or_default();
        self.below(&width).add(lo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_output_matches_the_reference() {
        // Reference value of SplitMix64 seeded with 0 (as in Vigna's splitmix64.c).
        assert_eq!(SplitMix64::new(0).next_u64(), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn draws_respect_their_ranges_and_radix() {
        let mut rng = SplitMix64::new(7);
        for bits in [1u64, 2, 15, 16, 17, 63, 64, 65, 200, 512] {
            let x: Nat<u64> = rng.exact_bits(bits);
            assert_eq!(x.bits(), bits);
            let y: Nat<u16> = rng.below_pow2(bits);
            assert!(y.bits() <= bits);
        }
        assert!(rng.exact_bits::<u64>(0).is_zero() && rng.below_pow2::<u8>(0).is_zero());
        let m: Nat<u16> = rng.odd_modulus(100);
        assert!(m.is_odd() && m.bits() == 100);
        for _ in 0..100 {
            assert!(rng.below(&m) < m);
        }
        let lo = Nat::<u32>::from_u64(1000);
        let hi = Nat::<u32>::from_u64(1010);
        for _ in 0..50 {
            let x = rng.between(&lo, &hi);
            assert!(x >= lo && x < hi);
        }
    }

    #[test]
    #[should_panic(expected = "empty range")]
    fn an_empty_range_is_refused() {
        SplitMix64::new(1).below(&Nat::<u64>::zero());
    }
}
