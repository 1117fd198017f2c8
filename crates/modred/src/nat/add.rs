//! Addition and subtraction of natural numbers.

use super::Nat;
use crate::kernels;
use crate::limb::Limb;
use alloc::vec;

/// `r = a + b` for `a.len() >= b.len()`, `r.len() == a.len()`; returns the carry out.
pub(crate) fn add_slices<L: Limb>(r: &mut [L], a: &[L], b: &[L]) -> bool {
    let n = b.len();
    debug_assert!(a.len() >= n && r.len() == a.len());
    let c = kernels::add_n(&mut r[..n], &a[..n], b);
    r[n..].copy_from_slice(&a[n..]);
    kernels::add_1(&mut r[n..], if c { L::ONE } else { L::ZERO })
}

pub(crate) use crate::kernels::{add_assign_slices, sub_assign_slices};

impl<L: Limb> Nat<L> {
    /// `self + other`.
    pub fn add(&self, other: &Self) -> Self {
        let (a, b) = if self.len() >= other.len() { (self, other) } else { (other, self) };
        let n = a.len();
        let mut r = vec![L::ZERO; n + 1];
        let c = add_slices(&mut r[..n], &a.limbs, &b.limbs);
        r[n] = if c { L::ONE } else { L::ZERO };
        Nat::from_vec(r)
    }

    /// `self − other`, or `None` when `other > self`.
    pub fn checked_sub(&self, other: &Self) -> Option<Self> {
        if *other > *self {
            return None;
        }
        let mut r = self.limbs.clone();
        let br = sub_assign_slices(&mut r, &other.limbs);
        debug_assert!(!br);
        Some(Nat::from_vec(r))
    }

    /// `|self − other|`.
    pub fn abs_diff(&self, other: &Self) -> Self {
        if self >= other {
            self.checked_sub(other).unwrap_or_default()
        } else {
            other.checked_sub(self).unwrap_or_default()
        }
    }
}

impl<L: Limb> core::ops::Add for &Nat<L> {
    type Output = Nat<L>;
    fn add(self, rhs: &Nat<L>) -> Nat<L> {
        Nat::add(self, rhs)
    }
}

/// Subtraction as for the primitive unsigned integers: it panics when the result would be
/// negative. Use [`Nat::checked_sub`] where that can happen.
impl<L: Limb> core::ops::Sub for &Nat<L> {
    type Output = Nat<L>;
    fn sub(self, rhs: &Nat<L>) -> Nat<L> {
        self.checked_sub(rhs).expect("Nat subtraction underflow")
    }
}
