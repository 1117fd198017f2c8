//! Primality and the search for special primes (paper 003, Tables 1 and 2).
//!
//! - [`is_probable_prime`]: Miller–Rabin (HAC Algorithm 4.24) on the library's Montgomery
//!   reducer. Below 2^64 the bases 2, 3, …, 37 make it a proof (Jaeschke; Sorenson and
//!   Webster 2015: the first 12 primes are a deterministic base set up to 3.3·10^24);
//!   above, the same 12 bases and [`RANDOM_BASES`] more drawn from a fixed-seed generator,
//!   so a run is reproducible and a composite survives with probability below 4^(−32).
//!   It is the test `modred::field::PrimeField::new` applies to its modulus, so it lives
//!   in the library (privately) and is re-exported here.
//! - [`pseudo_mersenne_c`]: the `c` below a bound with `2^N − c` prime (Table 1).
//! - The generalized Mersenne side (reduction matrix and weights of Table 2) lives with
//!   its reducer, in `modred::reduce::SolinasPoly`.

use modred::{Error, Nat};

pub use modred::__research::{is_probable_prime, RANDOM_BASES};

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
