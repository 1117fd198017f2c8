//! Layer 8: primality and the search for special primes (paper 003, Tables 1 and 2).
//!
//! - [`is_probable_prime`]: Miller–Rabin (HAC Algorithm 4.24) on our own Montgomery
//!   reducer. Below 2^64 the bases 2, 3, …, 37 make it a proof (Jaeschke; Sorenson and
//!   Webster 2015: the first 12 primes are a deterministic base set up to 3.3·10^24);
//!   above, the same 12 bases and 20 more drawn from a fixed-seed generator, so a run is
//!   reproducible and a composite survives with probability below 4^(−32).
//! - [`pseudo_mersenne_c`]: the `c` below a bound with `2^N − c` prime (Table 1).
//! - The generalized Mersenne side (reduction matrix and weights of Table 2) lives with
//!   its reducer, in [`crate::reduce::SolinasPoly`].

use crate::error::Error;
use crate::exp::{pow_vartime, Method};
use crate::nat::Nat;
use crate::reduce::{Montgomery, Reducer};
use crate::rng::SplitMix64;

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
    let mut rng = SplitMix64::new(SEED);
    let bits = n.bits() - 1;
    (0..RANDOM_BASES).all(|_| !witness(&rng.below_pow2::<u64>(bits).add(&Nat::from(2u64))))
}

/// The largest `N` [`pseudo_mersenne_c`] searches.
pub const MAX_SEARCH_BITS: u64 = 4096;
/// The largest `c_below` [`pseudo_mersenne_c`] accepts (the search's cost is linear in it).
pub const MAX_C_BELOW: u64 = 1 << 20;

/// Every `c` with `0 < c < c_below` and `2^bits − c` (probably) prime, ascending: the rows
/// of paper 003, Table 1 (there with `c_below = 1024`).
///
/// Errors ([`Error::InvalidArgument`]): `bits` outside `2..=4096`, `c_below` outside
/// `1..=2^20`, or `c_below > 2^bits` (then `2^bits − c` would not be positive).
pub fn pseudo_mersenne_c(bits: u64, c_below: u64) -> Result<Vec<u64>, Error> {
    if !(2..=MAX_SEARCH_BITS).contains(&bits) {
        return Err(Error::InvalidArgument(format!(
            "--bits must be from 2 to {MAX_SEARCH_BITS}, got {bits}"
        )));
    }
    if !(1..=MAX_C_BELOW).contains(&c_below) {
        return Err(Error::InvalidArgument(format!(
            "--c-below must be from 1 to {MAX_C_BELOW}, got {c_below}"
        )));
    }
    if bits < 64 && c_below > 1u64 << bits {
        return Err(Error::InvalidArgument(format!(
            "--c-below must be at most 2^bits = {} so that 2^bits - c > 0, got {c_below}",
            1u64 << bits
        )));
    }
    let top = Nat::power_of_two(bits);
    Ok((1..c_below)
        .filter(|&c| c % 2 == 1 || (bits < 64 && c + 2 == 1u64 << bits)) // 2^N − c = 2
        .filter(|&c| is_probable_prime(&(&top - &Nat::from(c))))
        .collect())
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
    fn search_arguments_are_checked() {
        assert!(pseudo_mersenne_c(1, 10).is_err());
        assert!(pseudo_mersenne_c(4097, 10).is_err());
        assert!(pseudo_mersenne_c(64, 0).is_err());
        assert!(pseudo_mersenne_c(64, (1 << 20) + 1).is_err());
        assert!(pseudo_mersenne_c(3, 9).is_err());
        assert_eq!(pseudo_mersenne_c(3, 8).unwrap(), vec![1, 3, 5, 6]); // 7, 5, 3, 2
        assert_eq!(pseudo_mersenne_c(2, 4).unwrap(), vec![1, 2]); // 3, 2
    }
}
