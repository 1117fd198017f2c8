//! `Nat` beside other crates, each behind its feature: `num-bigint` (`From` conversions
//! with `BigUint`, through little-endian bytes) and `rand_core` (uniform numbers below a
//! bound).

#[cfg(any(feature = "num-bigint", feature = "rand_core"))]
use super::Nat;
#[cfg(any(feature = "num-bigint", feature = "rand_core"))]
use crate::limb::Limb;

#[cfg(feature = "num-bigint")]
impl<L: Limb> From<&num_bigint::BigUint> for Nat<L> {
    fn from(n: &num_bigint::BigUint) -> Self {
        Nat::from_bytes_le(&n.to_bytes_le())
    }
}

#[cfg(feature = "num-bigint")]
impl<L: Limb> From<&Nat<L>> for num_bigint::BigUint {
    fn from(n: &Nat<L>) -> Self {
        num_bigint::BigUint::from_bytes_le(&n.to_bytes_le())
    }
}

#[cfg(feature = "rand_core")]
impl<L: Limb> Nat<L> {
    /// A uniformly random number in `0..bound` from `rng`, or `None` for `bound = 0`:
    /// candidates of `bits(bound)` random bits until one is below `bound` (fewer than two
    /// on average, since `bound ≥ 2^(bits − 1)`). Not constant time in the number of draws.
    pub fn random_below(bound: &Self, rng: &mut impl rand_core::RngCore) -> Option<Self> {
        if bound.is_zero() {
            return None;
        }
        let bits = bound.bits();
        let mut bytes = vec![0u8; bits.div_ceil(8) as usize];
        let spare = (bytes.len() as u64 * 8 - bits) as u32;
        loop {
            rng.fill_bytes(&mut bytes);
            // Little-endian: the top byte keeps only the bound's bits.
            if let Some(top) = bytes.last_mut() {
                *top &= 0xffu8 >> spare;
            }
            let candidate = Nat::from_bytes_le(&bytes);
            if candidate < *bound {
                return Some(candidate);
            }
        }
    }
}
