//! An op-counting digit: [`Counted<L>`] behaves exactly like `L` and records every
//! single-precision multiplication, division and addition in thread-local counters
//! (without the `std` feature, counters for the whole program).
//!
//! This is how the papers' complexity tables are reproduced from the real code rather
//! than from formulas: run an algorithm on `Counted<u16>` digits inside [`count_ops`].

use super::Limb;
#[cfg(any(feature = "std", test))]
use core::cell::Cell;
use core::fmt;
#[cfg(not(any(feature = "std", test)))]
use core::sync::atomic::{AtomicU64, Ordering};

/// Single-precision operations performed, as counted by [`Counted`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OpCounts {
    /// Digit multiplications (widening or wrapping).
    pub mul: u64,
    /// Two-digit by one-digit divisions.
    pub div: u64,
    /// Digit additions and subtractions with carry or borrow.
    pub add: u64,
}

impl core::ops::Sub for OpCounts {
    type Output = OpCounts;
    fn sub(self, rhs: OpCounts) -> OpCounts {
        OpCounts { mul: self.mul - rhs.mul, div: self.div - rhs.div, add: self.add - rhs.add }
    }
}

// Per thread also in the unit tests without the feature (the harness links std), so that
// the tests that count run in parallel.
#[cfg(any(feature = "std", test))]
std::thread_local! {
    static COUNTS: Cell<OpCounts> = const { Cell::new(OpCounts { mul: 0, div: 0, add: 0 }) };
}

#[cfg(any(feature = "std", test))]
fn bump(f: impl FnOnce(&mut OpCounts)) {
    COUNTS.with(|c| {
        let mut v = c.get();
        f(&mut v);
        c.set(v);
    });
}

#[cfg(any(feature = "std", test))]
fn snapshot() -> OpCounts {
    COUNTS.with(|c| c.get())
}

/// Without std (no thread-locals): counters for the whole program, so [`count_ops`] counts
/// every thread's operations meanwhile.
#[cfg(not(any(feature = "std", test)))]
static COUNTS: [AtomicU64; 3] = [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)];

#[cfg(not(any(feature = "std", test)))]
fn bump(f: impl FnOnce(&mut OpCounts)) {
    let mut d = OpCounts::default();
    f(&mut d);
    for (c, n) in COUNTS.iter().zip([d.mul, d.div, d.add]) {
        if n != 0 {
            c.fetch_add(n, Ordering::Relaxed);
        }
    }
}

#[cfg(not(any(feature = "std", test)))]
fn snapshot() -> OpCounts {
    let [mul, div, add] = COUNTS.each_ref().map(|c| c.load(Ordering::Relaxed));
    OpCounts { mul, div, add }
}

/// Runs `f` and returns its result with the operations that [`Counted`] digits performed
/// on this thread meanwhile (without the `std` feature: on every thread). Calls nest
/// correctly (each sees its own difference).
pub fn count_ops<R>(f: impl FnOnce() -> R) -> (R, OpCounts) {
    let before = snapshot();
    let r = f();
    (r, snapshot() - before)
}

/// A digit of type `L` whose arithmetic is counted; see [`count_ops`].
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Counted<L>(pub L);

impl<L: fmt::Debug> fmt::Debug for Counted<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<L: Limb> Limb for Counted<L> {
    const BITS: u32 = L::BITS;
    const ZERO: Self = Counted(L::ZERO);
    const ONE: Self = Counted(L::ONE);
    const MAX: Self = Counted(L::MAX);

    fn from_u64(v: u64) -> Self {
        Counted(L::from_u64(v))
    }
    fn to_u64(self) -> u64 {
        self.0.to_u64()
    }
    fn carrying_add(self, rhs: Self, carry: bool) -> (Self, bool) {
        bump(|c| c.add += 1);
        let (s, c) = self.0.carrying_add(rhs.0, carry);
        (Counted(s), c)
    }
    fn borrowing_sub(self, rhs: Self, borrow: bool) -> (Self, bool) {
        bump(|c| c.add += 1);
        let (d, b) = self.0.borrowing_sub(rhs.0, borrow);
        (Counted(d), b)
    }
    fn widening_mul(self, rhs: Self) -> (Self, Self) {
        bump(|c| c.mul += 1);
        let (lo, hi) = self.0.widening_mul(rhs.0);
        (Counted(lo), Counted(hi))
    }
    fn mul_add_carry(self, rhs: Self, addend: Self, carry: Self) -> (Self, Self) {
        bump(|c| {
            c.mul += 1;
            c.add += 2;
        });
        let (lo, hi) = self.0.mul_add_carry(rhs.0, addend.0, carry.0);
        (Counted(lo), Counted(hi))
    }
    fn wrapping_mul(self, rhs: Self) -> Self {
        bump(|c| c.mul += 1);
        Counted(self.0.wrapping_mul(rhs.0))
    }
    fn div_wide(hi: Self, lo: Self, d: Self) -> (Self, Self) {
        bump(|c| c.div += 1);
        let (q, r) = L::div_wide(hi.0, lo.0, d.0);
        (Counted(q), Counted(r))
    }
    fn wrapping_add(self, rhs: Self) -> Self {
        Counted(self.0.wrapping_add(rhs.0))
    }
    fn wrapping_sub(self, rhs: Self) -> Self {
        Counted(self.0.wrapping_sub(rhs.0))
    }
    fn wrapping_neg(self) -> Self {
        Counted(self.0.wrapping_neg())
    }
    fn shl(self, s: u32) -> Self {
        Counted(self.0.shl(s))
    }
    fn shr(self, s: u32) -> Self {
        Counted(self.0.shr(s))
    }
    fn or(self, rhs: Self) -> Self {
        Counted(self.0.or(rhs.0))
    }
    fn and(self, rhs: Self) -> Self {
        Counted(self.0.and(rhs.0))
    }
    fn not(self) -> Self {
        Counted(self.0.not())
    }
    fn leading_zeros(self) -> u32 {
        self.0.leading_zeros()
    }
    fn trailing_zeros(self) -> u32 {
        self.0.trailing_zeros()
    }
    fn inverse_mod_b(self) -> Self {
        // Precalculation: not part of any counted reduction.
        Counted(self.0.inverse_mod_b())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_each_primitive_once() {
        let a = Counted(7u16);
        let ((), n) = count_ops(|| {
            let _ = a.widening_mul(a);
            let _ = a.wrapping_mul(a);
            let _ = a.carrying_add(a, false);
            let _ = a.borrowing_sub(a, true);
            let _ = Counted::div_wide(Counted(1u16), a, a);
            let _ = a.mul_add_carry(a, a, a);
            let _ = a.shl(3);
        });
        assert_eq!(n, OpCounts { mul: 3, div: 1, add: 4 });
    }
}
