//! `Nat` beside other crates, each behind its feature: `num-bigint` (`From` conversions
//! with `BigUint`, through little-endian bytes), `crypto-bigint` (`From` a `Uint<N>`, and
//! `TryFrom` back when the value fits) and `rand_core` (uniform numbers below a bound).

#[cfg(feature = "rand_core")]
use alloc::vec;

#[cfg(any(feature = "num-bigint", feature = "rand_core", feature = "crypto-bigint"))]
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

/// The value of `n`, any `N` (crypto-bigint's words are 64 or 32 bits by target; the
/// conversion goes through little-endian bytes either way).
#[cfg(feature = "crypto-bigint")]
impl<const N: usize> From<crypto_bigint::Uint<N>> for Nat<u64> {
    fn from(n: crypto_bigint::Uint<N>) -> Self {
        let mut bytes =
            alloc::vec::Vec::with_capacity(N * core::mem::size_of::<crypto_bigint::Word>());
        for w in n.as_words() {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        Nat::from_bytes_le(&bytes)
    }
}

/// The value of `n` as a `Uint<N>`, or [`Error::InvalidArgument`] when it has more bits
/// than `Uint::<N>::BITS`.
///
/// [`Error::InvalidArgument`]: crate::Error::InvalidArgument
#[cfg(feature = "crypto-bigint")]
impl<const N: usize> TryFrom<&Nat<u64>> for crypto_bigint::Uint<N> {
    type Error = crate::Error;

    fn try_from(n: &Nat<u64>) -> Result<Self, crate::Error> {
        use crypto_bigint::{Uint, Word};
        const WORD_BYTES: usize = core::mem::size_of::<Word>();
        if n.bits() > u64::from(Uint::<N>::BITS) {
            return Err(crate::Error::InvalidArgument(alloc::format!(
                "a number of {} bits does not fit in a crypto_bigint::Uint of {} bits",
                n.bits(),
                Uint::<N>::BITS
            )));
        }
        let mut words = [0 as Word; N];
        for (w, chunk) in words.iter_mut().zip(n.to_bytes_le().chunks(WORD_BYTES)) {
            let mut b = [0u8; WORD_BYTES];
            b[..chunk.len()].copy_from_slice(chunk);
            *w = Word::from_le_bytes(b);
        }
        Ok(Uint::from_words(words))
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
