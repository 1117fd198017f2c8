//! Primality, private: the check of [`crate::field::PrimeField::new`] on its modulus, which
//! `modred-research` re-exports (with the special-prime searches of paper 003 built on it).
//!
//! [`is_probable_prime`]: Miller–Rabin (HAC Algorithm 4.24) on our own Montgomery reducer.
//! Below 2^64 the bases 2, 3, …, 37 make it a proof (Jaeschke; Sorenson and Webster 2015:
//! the first 12 primes are a deterministic base set up to 3.3·10^24); above, the same 12
//! bases and 20 more drawn from a fixed-seed generator, so a run is reproducible and a
//! composite survives with probability below 4^(−32).

use crate::exp::{pow_vartime, Method};
use crate::nat::Nat;
use crate::reduce::{Montgomery, Reducer};
use alloc::vec;
use alloc::vec::Vec;

/// The first twelve primes: trial divisors, and the Miller–Rabin bases that decide every
/// `n < 3.3·10^24` (so every `n < 2^64`).
const SMALL_PRIMES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];

/// Odd primes below 1000 for trial division before Miller–Rabin (cheap rejection of most
/// candidates of a search).
fn trial_divisors() -> impl Iterator<Item = u64> {
    (3u64..1000)
        .step_by(2)
        .filter(|&d| (3..).step_by(2).take_while(|f| f * f <= d).all(|f| d % f != 0))
}

/// How many random bases are added to the 12 fixed ones above 2^64.
pub const RANDOM_BASES: usize = 20;

/// The seed of the random bases.
const SEED: u64 = 0x0003_7a5c_bd1e_0003;

/// The random bases' generator: SplitMix64 (Steele, Lea and Flood 2014), the sequence of
/// `modred_testkit::SplitMix64`, which the library cannot depend on (no dependencies).
struct Bases(u64);

impl Bases {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform below `2^bits`, `bits ≥ 1` (the testkit's `below_pow2`).
    fn below_pow2(&mut self, bits: u64) -> Nat {
        let words = bits.div_ceil(64) as usize;
        let mut v: Vec<u64> = (0..words).map(|_| self.next_u64()).collect();
        v[words - 1] >>= words as u64 * 64 - bits;
        Nat::from_vec(v)
    }
}

/// Whether `n` is (probably) prime: exact for `n < 2^64`, error probability below
/// `4^(−32)` above (Miller–Rabin with 32 bases, 20 of them random from a fixed seed).
pub fn is_probable_prime(n: &Nat) -> bool {
    let Some(small) = n.to_u64().filter(|&v| v < 1_000_000) else {
        return miller_rabin_large(n);
    };
    if small < 2 {
        return false;
    }
    (2..).take_while(|d| d * d <= small).all(|d| small % d != 0)
}

fn miller_rabin_large(n: &Nat) -> bool {
    if !n.is_odd() {
        return false;
    }
    // Trial division by the odd primes below 1000 (n ≥ 10^6 here, so no divisor is n).
    for d in trial_divisors() {
        if n.checked_rem(&Nat::from(d)).is_some_and(|r| r.is_zero()) {
            return false;
        }
    }
    let Ok(mont) = Montgomery::new(n) else { return false };
    let one = Nat::one();
    let n_minus_1 = n - &one;
    let s = n_minus_1.trailing_zeros();
    let d = n_minus_1.shr(s);
    let one_r = mont.to_residue(&one);
    let minus_one_r = mont.to_residue(&n_minus_1);
    let witness = |a: &Nat| -> bool {
        // true when a proves n composite
        let a = a.checked_rem(n).unwrap_or_default();
        if a.is_zero() || a == one || a == n_minus_1 {
            return false;
        }
        let ar = mont.to_residue(&a);
        let Ok(mut x) = pow_vartime(&mont, &ar, &d, Method::SlidingWindow(4)) else { return true };
        if x == one_r || x == minus_one_r {
            return false;
        }
        let mut scratch = crate::reduce::Scratch::new();
        let mut t = vec![0u64; x.len()];
        for _ in 1..s {
            mont.sqr(&mut t, &x, &mut scratch);
            core::mem::swap(&mut x, &mut t);
            if x == minus_one_r {
                return false;
            }
            if x == one_r {
                return true;
            }
        }
        true
    };
    if SMALL_PRIMES.iter().any(|&a| witness(&Nat::from(a))) {
        return false;
    }
    if n.bits() <= 64 {
        return true;
    }
    let mut bases = Bases(SEED);
    let bits = n.bits() - 1;
    (0..RANDOM_BASES).all(|_| !witness(&bases.below_pow2(bits).add(&Nat::from(2u64))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_numbers_agree_with_trial_division() {
        let naive = |n: u64| n >= 2 && (2..n).take_while(|d| d * d <= n).all(|d| n % d != 0);
        for n in 0..3000u64 {
            assert_eq!(is_probable_prime(&Nat::from(n)), naive(n), "{n}");
        }
        // Above the trial-division range, through Miller–Rabin.
        for n in (1_000_000u64..1_003_000).chain(u64::MAX - 3000..=u64::MAX) {
            assert_eq!(is_probable_prime(&Nat::from(n)), naive_big(n), "{n}");
        }
    }

    fn naive_big(n: u64) -> bool {
        // Deterministic Miller–Rabin in u128 as an independent check.
        if n % 2 == 0 {
            return false;
        }
        let mulmod = |a: u64, b: u64| ((a as u128 * b as u128) % n as u128) as u64;
        let powmod = |mut a: u64, mut e: u64| {
            let mut r = 1u64;
            while e > 0 {
                if e & 1 == 1 {
                    r = mulmod(r, a);
                }
                a = mulmod(a, a);
                e >>= 1;
            }
            r
        };
        let s = (n - 1).trailing_zeros();
        let d = (n - 1) >> s;
        SMALL_PRIMES.iter().all(|&a| {
            let mut x = powmod(a % n, d);
            if x == 1 || x == n - 1 || a % n == 0 {
                return true;
            }
            for _ in 1..s {
                x = mulmod(x, x);
                if x == n - 1 {
                    return true;
                }
            }
            false
        })
    }

    #[test]
    fn strong_pseudoprimes_are_rejected() {
        // 3215031751 is a strong pseudoprime to bases 2, 3, 5 and 7;
        // 3825123056546413051 to bases 2 … 23 (Jaeschke / Zhang).
        for n in [3_215_031_751u64, 3_825_123_056_546_413_051] {
            assert!(!is_probable_prime(&Nat::from(n)), "{n}");
        }
        // A Carmichael number above 2^64: 2^64 + ... built as a product of primes.
        let p: Nat = "18446744073709551629".parse().unwrap(); // the least prime > 2^64
        assert!(is_probable_prime(&p));
        assert!(!is_probable_prime(&p.mul(&p)));
        // Mersenne primes and a Mersenne composite.
        assert!(is_probable_prime(&(&Nat::power_of_two(521) - &Nat::one())));
        assert!(is_probable_prime(&(&Nat::power_of_two(127) - &Nat::one())));
        assert!(!is_probable_prime(&(&Nat::power_of_two(67) - &Nat::one())));
    }

    #[test]
    fn the_random_bases_are_the_testkit_generator_s() {
        let mut ours = Bases(SEED);
        let mut testkit = modred_testkit::SplitMix64::new(SEED);
        for bits in [1u64, 63, 64, 65, 200, 4095] {
            assert_eq!(ours.below_pow2(bits), Nat::from_vec(testkit.below_pow2(bits)));
        }
    }
}
