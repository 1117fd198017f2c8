//! A tiny deterministic generator (SplitMix64, Steele, Lea and Flood 2014) for the
//! fixed-seed inputs of operation counts and benchmarks. Not for cryptography.

use crate::limb::Limb;
use crate::nat::Nat;

/// SplitMix64: a 64-bit state advanced by a Weyl sequence and mixed by two multiplications.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    pub(crate) fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniformly random number below `2^bits`.
    pub(crate) fn nat_below_pow2<L: Limb>(&mut self, bits: u64) -> Nat<L> {
        let words = bits.div_ceil(64) as usize;
        let mut bytes = Vec::with_capacity(8 * words);
        for _ in 0..words {
            bytes.extend_from_slice(&self.next_u64().to_le_bytes());
        }
        Nat::<L>::from_bytes_le(&bytes).low_bits(bits)
    }

    /// A random number of exactly `bits ≥ 1` bits (top bit set), odd if `odd`.
    pub(crate) fn nat_exact_bits<L: Limb>(&mut self, bits: u64, odd: bool) -> Nat<L> {
        let mut n = self.nat_below_pow2::<L>(bits - 1).add(&Nat::power_of_two(bits - 1));
        if odd && !n.is_odd() {
            n = n.add(&Nat::one());
        }
        n
    }

    /// A uniformly random number below `bound > 0` (by rejection of `bits(bound)`-bit ones).
    pub(crate) fn nat_below<L: Limb>(&mut self, bound: &Nat<L>) -> Nat<L> {
        loop {
            let n = self.nat_below_pow2(bound.bits());
            if n < *bound {
                return n;
            }
        }
    }
}
