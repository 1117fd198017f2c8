//! Fixed-seed pseudo-random inputs: SplitMix64 (Steele, Lea and Flood, 2014), small and
//! good enough for test data. Every number is drawn in radix 2^64 and converted, so the
//! same seed gives the same numbers at every digit size.

use modred::{Limb, Nat};

/// The SplitMix64 generator.
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

    /// Uniform below `2^bits`.
    pub fn below_pow2<L: Limb>(&mut self, bits: u64) -> Nat<L> {
        let words = bits.div_ceil(64) as usize;
        let mut v: Vec<u64> = (0..words).map(|_| self.next_u64()).collect();
        let spare = words as u64 * 64 - bits;
        if let Some(top) = v.last_mut() {
            *top = if spare == 64 { 0 } else { *top >> spare };
        }
        Nat::<u64>::from_vec(v).to_radix()
    }

    /// Uniform with exactly `bits` bits (the top one set), `bits ≥ 1`.
    pub fn exact_bits<L: Limb>(&mut self, bits: u64) -> Nat<L> {
        let low: Nat<L> = self.below_pow2(bits - 1);
        low.add(&Nat::power_of_two(bits - 1))
    }

    /// An odd number of exactly `bits ≥ 2` bits: a modulus Montgomery's method accepts.
    pub fn odd_modulus<L: Limb>(&mut self, bits: u64) -> Nat<L> {
        let m: Nat<L> = self.exact_bits(bits);
        if m.is_odd() {
            m
        } else {
            m.add(&Nat::one())
        }
    }

    /// Uniform below `bound > 0`, by rejection (fewer than two draws on average).
    pub fn below<L: Limb>(&mut self, bound: &Nat<L>) -> Nat<L> {
        loop {
            let x = self.below_pow2(bound.bits());
            if &x < bound {
                return x;
            }
        }
    }

    /// Uniform in `[lo, hi)`, `lo < hi`.
    pub fn between<L: Limb>(&mut self, lo: &Nat<L>, hi: &Nat<L>) -> Nat<L> {
        let width = hi.checked_sub(lo).expect("between: lo < hi");
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
        let m: Nat<u16> = rng.odd_modulus(100);
        assert!(m.is_odd() && m.bits() == 100);
        for _ in 0..100 {
            assert!(rng.below(&m) < m);
        }
        // Same seed, different radix: the same number.
        let a: Nat<u64> = SplitMix64::new(3).exact_bits(300);
        let b: Nat<u16> = SplitMix64::new(3).exact_bits(300);
        assert_eq!(a.to_radix::<u16>(), b);
    }
}
