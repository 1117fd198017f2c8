//! Barrett reduction on a const number `N` of 64-bit digits.

use super::arith::{self, adc, get, mac, sbb, Wide};
use super::{arr, to_array};
use crate::error::Error;
use crate::exp::fixed_size::FixedProducts;
use crate::nat::Nat;
use crate::reduce::{Barrett, Bound, Reducer, Scratch};
use crate::registry::Algorithm;
use alloc::boxed::Box;
use alloc::format;

/// The widest Barrett modulus, in 64-bit digits, with a fixed-size path (1024 bits): the
/// widths 1 to 8 and 16 ([`barrett_fixed_width`]).
pub const MAX_BARRETT_LIMBS: usize = 16;

/// Whether `k` digits is one of the fixed-size Barrett's widths: 1 to 8 and 16 (1024-bit
/// moduli; the widths between are left to the slice reducer to keep the code small).
pub fn barrett_fixed_width(k: usize) -> bool {
    (1..=8).contains(&k) || k == 16
}

/// `body` for each row `i` from 0 to `N` (`N ≤ MAX_BARRETT_LIMBS`), written out one row
/// at a time with `i` a constant: the digit loops inside then have constant bounds and
/// conditions, and the compiler unrolls them, which it does not do for nested loops of
/// 72 steps and more.
macro_rules! each_row {
    ($i:ident, $body:block) => {
        each_row!(@rows $i, $body, 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
    };
    (@rows $i:ident, $body:block, $($row:literal)*) => {
        $(
            if $row < N + 1 {
                let $i: usize = $row;
                $body
            }
        )*
    };
}

/// Barrett reduction (paper 000, Algorithm 2, `t = k + 1`, the truncated products of HAC
/// 14.42) modulo an `m` of exactly `N` 64-bit digits whose top digit is at least `2^63`.
///
/// Computes `x mod m` for `x < b^(2N)`; the output is below `m`, in the standard
/// representation. The same quotient estimate `q̂`, remainder `r̂`, at most three
/// subtractions of `m` and results as [`Barrett`] (its proof applies unchanged): with
/// `m`'s top bit set, `μ = ⌊b^(2N)/m⌋ = b^N + μ'` with `μ' < b^N`, so the row of `μ`'s
/// top digit is an addition of `q1 = ⌊x/b^(N−1)⌋` shifted by `N` digits. Every loop runs
/// to a const bound, unrolled by the compiler; the digits stay in registers or on the
/// stack, nothing is allocated. [`Reducer::mul`] and [`Reducer::sqr`] are the full
/// product (unrolled `arith::mul_wide`, `arith::sqr_wide` up to 8 digits, the MULX/ADX
/// schoolbook kernels at 16) followed by this reduction.
///
/// Other moduli of `N` digits (a top digit below `2^63`, `μ`'s top digit then above 1)
/// keep the slice reducer; [`BarrettFixed::new`] refuses them, and every `N` that is not
/// one of its widths ([`barrett_fixed_width`]).
#[derive(Clone, Debug)]
pub struct BarrettFixed<const N: usize> {
    m: [u64; N],
    /// `μ − b^N`.
    mu: [u64; N],
    slow: Barrett<u64>,
}

/// Whether `make(Algorithm::Barrett, m)` gives a [`BarrettFixed`]: `m` of one of its
/// widths ([`barrett_fixed_width`]) with its top bit set, other than `b^k/2` (where
/// `μ = 2·b^k`).
pub fn barrett_fixed_applies(m: &Nat<u64>) -> bool {
    let k = m.len();
    barrett_fixed_width(k)
        && m.limbs()[k - 1] >> 63 == 1
        // Not 2^(64k − 1), tested without making it (the rule asks this of every modulus).
        && (m.limbs()[k - 1] != 1 << 63 || m.limbs()[..k - 1].iter().any(|&d| d != 0))
}

impl<const N: usize> BarrettFixed<N> {
    /// `x mod m` for `x < b^(2N)` given as `2N` digits.
    #[inline(always)]
    pub fn reduce_fixed(&self, x: &Wide<N>) -> [u64; N] {
        // p[s − (N − 1)] holds position s of q1·μ, for s from N − 1 to 2N + 1 (N + 3
        // digits; the array is sized for the widest N).
        let mut p = [0u64; MAX_BARRETT_LIMBS + 3];
        // Row i: q1_i·μ'_j for j ≥ N − 1 − i (the truncated product), its carry at
        // position i + N (index i + 1), which no earlier row reached.
        each_row!(i, {
            let d = get(x, N - 1 + i);
            let mut c = 0u64;
            for j in 0..N {
                if i + j + 1 >= N {
                    let s = i + j + 1 - N;
                    (p[s], c) = mac(p[s], d, self.mu[j], c);
                }
            }
            p[i + 1] = c;
        });
        // + q1·b^N: positions N to 2N (indices 1 to N + 1), the carry into 2N + 1.
        let mut c = 0u64;
        for i in 0..=N {
            (p[i + 1], c) = adc(p[i + 1], get(x, N - 1 + i), c);
        }
        p[N + 2] = c;
        // q̂: positions N + 1 to 2N + 1 (indices 2 to N + 2). qm = (q̂·m) mod b^(N+1).
        let mut qm = [0u64; MAX_BARRETT_LIMBS + 1];
        each_row!(i, {
            let d = p[i + 2];
            let mut c = 0u64;
            for j in 0..N {
                if i + j <= N {
                    (qm[i + j], c) = mac(qm[i + j], d, self.m[j], c);
                }
            }
            if i == 0 {
                qm[N] = c;
            }
        });
        // (top, r) = (x mod b^(N+1) − qm) mod b^(N+1), then at most three − m.
        let mut r = [0u64; N];
        let mut borrow = 0u64;
        for i in 0..N {
            (r[i], borrow) = sbb(get(x, i), qm[i], borrow);
        }
        let mut top = get(x, N).wrapping_sub(qm[N]).wrapping_sub(borrow);
        loop {
            let mut d = [0u64; N];
            let mut b = 0u64;
            for i in 0..N {
                (d[i], b) = sbb(r[i], self.m[i], b);
            }
            // top·b^N + r < m exactly when the subtraction borrows out of a zero top.
            if top == 0 && b != 0 {
                return r;
            }
            top = top.wrapping_sub(b);
            r = d;
        }
    }
}

impl<const N: usize> BarrettFixed<N> {
    /// `a·b mod m` for `a, b < m`.
    #[inline]
    pub fn mul_fixed(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        self.reduce_fixed(&product(a, b))
    }

    /// `a² mod m` for `a < m`.
    #[inline]
    pub fn sqr_fixed(&self, a: &[u64; N]) -> [u64; N] {
        self.reduce_fixed(&square(a))
    }
}

impl<const N: usize> Reducer<u64> for BarrettFixed<N> {
    /// Errors as [`Barrett`]'s, and [`Error::NotApplicable`] when `m` does not have
    /// exactly `N` digits or the fixed-size path does not apply ([`barrett_fixed_applies`]).
    fn new(m: &Nat<u64>) -> Result<Self, Error> {
        let slow = Barrett::new(m)?;
        if m.len() != N || !barrett_fixed_applies(m) {
            return Err(Error::NotApplicable {
                algorithm: Algorithm::Barrett.name(),
                reason: format!(
                    "this fixed-size path needs a modulus of {N} digits, one of its widths, \
                     with its top bit set, other than 2^(64·{N} − 1)"
                ),
            });
        }
        // b^N/2 < m < b^N, so b^N < μ < 2·b^N: μ's top digit (digit N) is 1, and μ − b^N
        // is its N low digits, which the slice Barrett has already computed.
        let (mu_low, mu_top) = slow.mu();
        debug_assert!(!mu_top && mu_low.len() == N + 1 && mu_low[N] == 1);
        let mut mu = [0u64; N];
        mu.copy_from_slice(&mu_low[..N]);
        Ok(BarrettFixed { m: to_array(m), mu, slow })
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::Barrett
    }

    delegate_to_slice_twin!();

    fn reduce_raw(&self, out: &mut [u64], x: &[u64], scratch: &mut Scratch<u64>) {
        match <&mut [u64; N]>::try_from(&mut *out) {
            Ok(o) if crate::nat::normalized_len(x) <= 2 * N => {
                *o = self.reduce_fixed(&arith::wide_from_slice(x));
            }
            _ => self.slow.reduce_raw(out, x, scratch),
        }
    }

    fixed_products_or_slice_twin!();
}

// The reduction inlined into the exponentiation loop: called, its result came back
// through memory and stalled the next product's loads.
impl<const N: usize> FixedProducts<N> for BarrettFixed<N> {
    #[inline(always)]
    fn mul(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        self.reduce_fixed(&product(a, b))
    }
    #[inline(always)]
    fn sqr(&self, a: &[u64; N]) -> [u64; N] {
        self.reduce_fixed(&square(a))
    }
}

/// `a·b`: unrolled up to 8 digits, the schoolbook kernels (MULX/ADX rows) above.
#[inline(always)]
fn product<const N: usize>(a: &[u64; N], b: &[u64; N]) -> Wide<N> {
    if N <= 8 {
        return arith::mul_wide(a, b);
    }
    let mut z: Wide<N> = [[0u64; N]; 2];
    crate::kernels::mul_basecase(z.as_flattened_mut(), a, b);
    z
}

/// `a²`: unrolled up to 8 digits, the schoolbook kernels above.
#[inline(always)]
fn square<const N: usize>(a: &[u64; N]) -> Wide<N> {
    if N <= 8 {
        return arith::sqr_wide(a);
    }
    let mut z: Wide<N> = [[0u64; N]; 2];
    crate::kernels::sqr_basecase(z.as_flattened_mut(), a);
    z
}

/// The boxed [`BarrettFixed`] for `m` when [`barrett_fixed_applies`] (only its widths are
/// instantiated).
pub(super) fn boxed(m: &Nat<u64>) -> Option<Box<dyn Reducer<u64>>> {
    fn make<const N: usize>(m: &Nat<u64>) -> Option<Box<dyn Reducer<u64>>> {
        Some(Box::new(BarrettFixed::<N>::new(m).ok()?))
    }
    match m.len() {
        1 => make::<1>(m),
        2 => make::<2>(m),
        3 => make::<3>(m),
        4 => make::<4>(m),
        5 => make::<5>(m),
        6 => make::<6>(m),
        7 => make::<7>(m),
        8 => make::<8>(m),
        16 => make::<16>(m),
        _ => None,
    }
}
