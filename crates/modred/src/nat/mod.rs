//! Layer 3: natural numbers.
//!
//! [`Nat<L>`] is an owned, normalized (no high zero digits) little-endian vector of
//! digits. The arithmetic lives in one private module per operation, each with a
//! slice-level function that the reducers call on their own buffers and an owned wrapper
//! on `Nat`: `add` (addition and subtraction), `shift`, `mul` (schoolbook and Karatsuba
//! products and squares), `div` (Knuth's Algorithm D), `recursive_div` (Burnikel and
//! Ziegler's recursive division for long operands), `newton` (division by a Newton
//! reciprocal), `gcd` (Euclid's gcd and modular inverse) and `radix`
//! (parsing and formatting in decimal and hexadecimal).

pub(crate) mod add;
pub(crate) mod div;
mod gcd;
mod interop;
pub(crate) mod mul;
pub(crate) mod newton;
pub(crate) mod radix;
pub(crate) mod recursive_div;
pub(crate) mod shift;

use crate::limb::Limb;
use alloc::vec;
use alloc::vec::Vec;
use core::cmp::Ordering;

pub use div::DIV_RECURSIVE_THRESHOLD;
pub use mul::{
    mul_into, mul_schoolbook_into, sqr_into, KARATSUBA_THRESHOLD, NTT_FMA_SQR_THRESHOLD,
    NTT_FMA_THRESHOLD, NTT_IFMA_SQR_THRESHOLD, NTT_IFMA_THRESHOLD, NTT_SQR_THRESHOLD,
    NTT_THRESHOLD,
};
pub use radix::MAX_DECIMAL_DIGITS;

/// A natural number in radix b = 2^`L::BITS`, normalized: the top digit is never zero, and
/// zero has no digits.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Nat<L: Limb = u64> {
    limbs: Vec<L>,
}

impl<L: Limb> Nat<L> {
    /// The bytes its digits take on the heap (the capacity held, not only the length).
    pub(crate) fn heap_bytes(&self) -> usize {
        vec_bytes(&self.limbs)
    }
}

/// The bytes `v`'s buffer takes on the heap.
pub(crate) fn vec_bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * core::mem::size_of::<T>()
}

// A number is zero, not empty: `is_zero` is the counterpart of `len` here.
#[allow(clippy::len_without_is_empty)]
impl<L: Limb> Nat<L> {
    /// Zero.
    pub const fn zero() -> Self {
        Nat { limbs: Vec::new() }
    }

    /// One.
    pub fn one() -> Self {
        Nat { limbs: vec![L::ONE] }
    }

    /// The number whose digits, least significant first, are `limbs` (high zeros allowed).
    pub fn from_limbs(limbs: &[L]) -> Self {
        Self::from_vec(limbs.to_vec())
    }

    /// Like [`Nat::from_limbs`], taking ownership of the vector.
    pub fn from_vec(limbs: Vec<L>) -> Self {
        let mut n = Nat { limbs };
        n.normalize();
        n
    }

    /// `v` as a number.
    pub fn from_u64(v: u64) -> Self {
        let mut limbs = Vec::new();
        let mut v = v;
        while v != 0 {
            limbs.push(L::from_u64(v));
            v = if L::BITS >= 64 { 0 } else { v >> L::BITS };
        }
        Nat { limbs }
    }

    /// `v` as a number.
    pub fn from_u128(v: u128) -> Self {
        let lo = Self::from_u64(v as u64);
        let hi = Self::from_u64((v >> 64) as u64);
        hi.shl(64).add(&lo)
    }

    /// The value if it fits in a `u64`.
    pub fn to_u64(&self) -> Option<u64> {
        if self.bits() > 64 {
            return None;
        }
        let mut v = 0u64;
        for (i, d) in self.limbs.iter().enumerate() {
            v |= d.to_u64() << (i as u32 * L::BITS);
        }
        Some(v)
    }

    /// Little-endian bytes to a number.
    pub fn from_bytes_le(bytes: &[u8]) -> Self {
        let per = (L::BITS / 8) as usize;
        let mut limbs = Vec::with_capacity(bytes.len().div_ceil(per));
        for chunk in bytes.chunks(per) {
            let mut v = 0u64;
            for (i, &b) in chunk.iter().enumerate() {
                v |= (b as u64) << (8 * i);
            }
            limbs.push(L::from_u64(v));
        }
        Self::from_vec(limbs)
    }

    /// Little-endian bytes of the number, without high zero bytes (zero gives none).
    pub fn to_bytes_le(&self) -> Vec<u8> {
        let per = (L::BITS / 8) as usize;
        let mut out = Vec::with_capacity(self.limbs.len() * per);
        for d in &self.limbs {
            let v = d.to_u64();
            for i in 0..per {
                out.push((v >> (8 * i)) as u8);
            }
        }
        while out.last() == Some(&0) {
            out.pop();
        }
        out
    }

    /// Big-endian bytes to a number (leading zero bytes allowed; none is zero).
    pub fn from_bytes_be(bytes: &[u8]) -> Self {
        let le: Vec<u8> = bytes.iter().rev().copied().collect();
        Self::from_bytes_le(&le)
    }

    /// Big-endian bytes of the number, without leading zero bytes (zero gives none).
    pub fn to_bytes_be(&self) -> Vec<u8> {
        let mut b = self.to_bytes_le();
        b.reverse();
        b
    }

    /// The same number with digits of another radix.
    pub fn to_radix<M: Limb>(&self) -> Nat<M> {
        Nat::from_bytes_le(&self.to_bytes_le())
    }

    /// The digits, least significant first, without high zeros.
    pub fn limbs(&self) -> &[L] {
        &self.limbs
    }

    /// The digits padded with zeros to `len` digits. `None` if the number needs more.
    pub fn to_padded(&self, len: usize) -> Option<Vec<L>> {
        if self.limbs.len() > len {
            return None;
        }
        let mut v = self.limbs.clone();
        v.resize(len, L::ZERO);
        Some(v)
    }

    /// Consumes the number, returning its digits.
    pub fn into_limbs(self) -> Vec<L> {
        self.limbs
    }

    /// Number of digits (0 for zero).
    pub fn len(&self) -> usize {
        self.limbs.len()
    }

    /// Whether the number is zero.
    pub fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    /// Whether the number is one.
    pub fn is_one(&self) -> bool {
        self.limbs.len() == 1 && self.limbs[0] == L::ONE
    }

    /// Whether the number is odd.
    pub fn is_odd(&self) -> bool {
        self.limbs.first().is_some_and(|d| d.and(L::ONE) == L::ONE)
    }

    /// Bit length: the least `n` with `self < 2^n`.
    pub fn bits(&self) -> u64 {
        match self.limbs.last() {
            None => 0,
            Some(top) => self.limbs.len() as u64 * L::BITS as u64 - top.leading_zeros() as u64,
        }
    }

    /// Bit `i` (0 = least significant).
    pub fn bit(&self, i: u64) -> bool {
        let (d, s) = ((i / L::BITS as u64) as usize, (i % L::BITS as u64) as u32);
        self.limbs.get(d).is_some_and(|v| v.shr(s).and(L::ONE) == L::ONE)
    }

    /// Number of trailing zero bits (0 for zero).
    pub fn trailing_zeros(&self) -> u64 {
        for (i, d) in self.limbs.iter().enumerate() {
            if !d.is_zero() {
                return i as u64 * L::BITS as u64 + d.trailing_zeros() as u64;
            }
        }
        0
    }

    /// `2^n`.
    pub fn power_of_two(n: u64) -> Self {
        let d = (n / L::BITS as u64) as usize;
        let mut limbs = vec![L::ZERO; d + 1];
        limbs[d] = L::ONE.shl((n % L::BITS as u64) as u32);
        Nat { limbs }
    }

    pub(crate) fn normalize(&mut self) {
        while self.limbs.last().is_some_and(|d| d.is_zero()) {
            self.limbs.pop();
        }
    }
}

pub(crate) use crate::kernels::normalized_len;

/// Compares two digit slices of any lengths as numbers.
pub(crate) fn cmp_slices<L: Limb>(a: &[L], b: &[L]) -> Ordering {
    let (na, nb) = (normalized_len(a), normalized_len(b));
    if na != nb {
        return na.cmp(&nb);
    }
    crate::kernels::cmp_n(&a[..na], &b[..nb])
}

impl<L: Limb> Ord for Nat<L> {
    fn cmp(&self, other: &Self) -> Ordering {
        cmp_slices(&self.limbs, &other.limbs)
    }
}

impl<L: Limb> PartialOrd for Nat<L> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<L: Limb> From<u64> for Nat<L> {
    fn from(v: u64) -> Self {
        Nat::from_u64(v)
    }
}

#[cfg(test)]
mod tests;
