//! The optional interoperation: `From` with num-bigint's `BigUint` (feature `num-bigint`)
//! and random numbers below a bound (feature `rand_core`). Run with
//! `cargo test -p modred --features num-bigint,rand_core,crypto-bigint --test interop`; the
//! crypto-bigint conversions (feature `crypto-bigint`) are tested when it is on.

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

/// `BigUint` of a `crypto_bigint::Uint`, through its words (the reference for the
/// conversions below).
#[cfg(feature = "crypto-bigint")]
fn big_of_uint<const N: usize>(u: &crypto_bigint::Uint<N>) -> BigUint {
    let bytes: Vec<u8> = u.as_words().iter().flat_map(|w| w.to_le_bytes()).collect();
    BigUint::from_bytes_le(&bytes)
}

/// Round trips `Uint<N>` → `Nat<u64>` → `Uint<N>` at the edges (0, 1, all ones, every
/// count of words up to `N` with the top one set), each value checked against num-bigint;
/// a value one word too long is refused, the widest that fits is not.
#[cfg(feature = "crypto-bigint")]
fn crypto_bigint_round_trips<const N: usize>(rng: &mut SplitMix64) {
    use crypto_bigint::{Uint, Word};
    let word_bits = Word::BITS as u64;
    let mut values = vec![Uint::<N>::ZERO, Uint::<N>::ONE, Uint::<N>::MAX];
    for used in 1..=N {
        let mut words = [0 as Word; N];
        for w in &mut words[..used] {
            *w = rng.next_u64() as Word;
        }
        words[used - 1] |= 1 << (word_bits - 1);
        values.push(Uint::from_words(words));
        // The same count of words, only the top bit of the top one set.
        let mut top = [0 as Word; N];
        top[used - 1] = 1 << (word_bits - 1);
        values.push(Uint::from_words(top));
    }
    for u in &values {
        let n = Nat::<u64>::from(*u);
        assert_eq!(BigUint::from(&n), big_of_uint(u), "N = {N}");
        assert_eq!(n.bits(), u64::from(u.bit_width()), "N = {N}");
        assert_eq!(Uint::<N>::try_from(&n), Ok(*u), "N = {N}");
    }
    let widest = Nat::<u64>::from(Uint::<N>::MAX);
    assert_eq!(widest.bits(), u64::from(Uint::<N>::BITS));
    assert_eq!(BigUint::from(&widest), (BigUint::from(1u8) << Uint::<N>::BITS) - 1u8);
    // One bit too many, and one whole word too many (random below it): refused.
    let over = &widest + &Nat::one();
    assert!(matches!(Uint::<N>::try_from(&over), Err(modred::Error::InvalidArgument(_))));
    let mut longer: Vec<u64> = (0..N as u64 * word_bits / 64).map(|_| rng.next_u64()).collect();
    longer.push(rng.next_u64() | 1);
    let e = Uint::<N>::try_from(&Nat::from_vec(longer)).unwrap_err();
    assert!(e.to_string().contains("does not fit"), "{e}");
}

#[cfg(feature = "crypto-bigint")]
#[test]
fn crypto_bigint_uint_both_ways_at_the_edges() {
    let mut rng = SplitMix64::new(0xc0de);
    crypto_bigint_round_trips::<1>(&mut rng);
    crypto_bigint_round_trips::<2>(&mut rng);
    crypto_bigint_round_trips::<3>(&mut rng);
    crypto_bigint_round_trips::<4>(&mut rng);
    crypto_bigint_round_trips::<8>(&mut rng);
    crypto_bigint_round_trips::<17>(&mut rng);
    crypto_bigint_round_trips::<64>(&mut rng);
}

/// The conversions agree with num-bigint's on random values of every width to 4096 bits,
/// and arithmetic commutes with them (a product modulo a `Uint` modulus).
#[cfg(feature = "crypto-bigint")]
#[test]
fn crypto_bigint_random_values_agree_with_num_bigint() {
    use crypto_bigint::U4096;
    let mut rng = SplitMix64::new(0x4096);
    for bits in (1..=4096).step_by(37) {
        let n = Nat::<u64>::from_vec(rng.below_pow2(bits));
        let u = U4096::try_from(&n).unwrap();
        assert_eq!(big_of_uint(&u), BigUint::from(&n));
        assert_eq!(Nat::from(u), n);
    }
    let m = Nat::<u64>::from_vec(rng.odd_modulus(1024));
    let (x, y) = (Nat::from_vec(rng.below_pow2(1000)), Nat::from_vec(rng.below_pow2(1000)));
    let ctx = Modulus::new(&m).unwrap();
    let got = ctx.mul_mod(&x, &y);
    let want = (BigUint::from(&x) * BigUint::from(&y)) % BigUint::from(&m);
    assert_eq!(big_of_uint(&U4096::try_from(&got).unwrap()), want);
}
