//! The optional interoperation: `From` with num-bigint's `BigUint` (feature `num-bigint`)
//! and random numbers below a bound (feature `rand_core`). Run with
//! `cargo test -p modred --features num-bigint,rand_core --test interop`.

#![cfg(all(feature = "num-bigint", feature = "rand_core"))]

use modred::{Algorithm, Modulus, Nat};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;

/// A `rand_core` generator on the tests' fixed-seed SplitMix64.
struct Rng(SplitMix64);

impl rand_core::RngCore for Rng {
    fn next_u32(&mut self) -> u32 {
        self.0.next_u64() as u32
    }
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let v = self.0.next_u64().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

#[test]
fn biguint_both_ways_at_the_edges() {
    let mut rng = SplitMix64::new(3);
    let mut values = vec![BigUint::from(0u8), BigUint::from(1u8), BigUint::from(u64::MAX)];
    for bits in [63u64, 64, 65, 127, 128, 129, 1000, 4096] {
        values.push((BigUint::from(1u8) << bits) - 1u8);
        values.push(BigUint::from(1u8) << bits);
        let words: Vec<u32> = (0..bits.div_ceil(32)).map(|_| rng.next_u64() as u32).collect();
        values.push(BigUint::new(words));
    }
    for v in &values {
        let n: Nat<u64> = Nat::from(v);
        assert_eq!(BigUint::from(&n), *v);
        assert_eq!(n.to_hex(), v.to_str_radix(16));
        let n8: Nat<u8> = Nat::from(v);
        assert_eq!(BigUint::from(&n8), *v);
    }
}

#[test]
fn random_numbers_below_a_bound() {
    let mut rng = Rng(SplitMix64::new(9));
    assert_eq!(Nat::<u64>::random_below(&Nat::zero(), &mut rng), None);
    assert_eq!(Nat::<u64>::random_below(&Nat::one(), &mut rng), Some(Nat::zero()));
    // Every value of a small bound appears, none at or above it.
    let seven = Nat::<u64>::from(7u64);
    let mut seen = [0u32; 7];
    for _ in 0..7000 {
        let v = Nat::random_below(&seven, &mut rng).unwrap().to_u64().unwrap();
        seen[v as usize] += 1;
    }
    assert!(seen.iter().all(|&c| (850..1150).contains(&c)), "{seen:?}");
    // A bound just above a power of two (the worst case for rejection) and a large one.
    for bound in [Nat::power_of_two(200).add(&Nat::one()), Nat::power_of_two(4095).add(&seven)] {
        let mut high = false;
        for _ in 0..200 {
            let v = Nat::random_below(&bound, &mut rng).unwrap();
            assert!(v < bound);
            high |= v.bits() == bound.bits() - 1;
        }
        assert!(high, "the top bit is drawn");
    }
    // Residues of a modulus, for every algorithm that applies.
    let m = Nat::power_of_two(255).checked_sub(&Nat::from(19u64)).unwrap();
    for &algorithm in Algorithm::ALL {
        let Ok(md) = Modulus::with(algorithm, &m) else { continue };
        let r = md.random(&mut rng);
        assert!(md.to_nat(&r).unwrap() < m, "{algorithm}");
    }
}
