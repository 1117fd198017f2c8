//! Shifts of natural numbers by any number of bits.

use super::Nat;
use crate::kernels;
use crate::limb::Limb;
use alloc::vec;

impl<L: Limb> Nat<L> {
    /// `self · 2^n`.
    pub fn shl(&self, n: u64) -> Self {
        if self.is_zero() {
            return Nat::zero();
        }
        let (d, s) = ((n / L::BITS as u64) as usize, (n % L::BITS as u64) as u32);
        let mut r = vec![L::ZERO; d + self.len() + 1];
        let out = kernels::shl_bits(&mut r[d..d + self.len()], &self.limbs, s);
        r[d + self.len()] = out;
        Nat::from_vec(r)
    }

    /// `self div 2^n`.
    pub fn shr(&self, n: u64) -> Self {
        let d = (n / L::BITS as u64) as usize;
        if d >= self.len() {
            return Nat::zero();
        }
        let s = (n % L::BITS as u64) as u32;
        let mut r = vec![L::ZERO; self.len() - d];
        kernels::shr_bits(&mut r, &self.limbs[d..], s);
        Nat::from_vec(r)
    }

    /// `self mod 2^n`.
    pub fn low_bits(&self, n: u64) -> Self {
        let d = (n / L::BITS as u64) as usize;
        if d >= self.len() {
            return self.clone();
        }
        let mut r = self.limbs[..=d].to_vec();
        let s = (n % L::BITS as u64) as u32;
        r[d] = if s == 0 { L::ZERO } else { r[d].and(L::MAX.shr(L::BITS - s)) };
        Nat::from_vec(r)
    }
}
