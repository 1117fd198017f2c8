//! Number-theoretic transforms of length `2^j` or `3·2^j` modulo one [`Prime`], with their
//! root tables (a [`Plan`], cached per length).
//!
//! The forward transform is decimation in frequency (Gentleman–Sande): natural order in,
//! a permuted order out; the inverse is decimation in time (Cooley–Tukey) and takes that
//! order back to natural, so no bit reversal is ever done. For `n = 3M` a radix-3 pass
//! comes first (last in the inverse): with `W` a primitive `n`-th root and `ω = W^M`,
//! `X_(3t+s) = Σ_i (W³)^(it) · W^(is) · Σ_r x_(i+rM) ω^(rs)`, i.e. three twiddled length-`M`
//! transforms. Every value stays in `[0, p)`.

use super::cache::PlanCache;
use super::prime::{Prime, MAX_TWO_ADICITY, PRIMES};
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;

/// The root tables of one prime for one length.
#[derive(Debug)]
struct Tables {
    /// `fwd[len + t] = (w_(2len)^t, its Shoup constant)` (plain, not Montgomery form) for
    /// `len = 1, 2, …, M/2`, `t < len`: the radix-2 butterflies multiply by them with
    /// [`Prime::mul_shoup`].
    fwd: Vec<(u64, u64)>,
    /// The same with inverse roots.
    inv: Vec<(u64, u64)>,
    /// Radix-3 twiddles `(W^i, W^(2i))` for `i < M`, and their inverses.
    r3: Vec<(u64, u64)>,
    r3_inv: Vec<(u64, u64)>,
    /// `ω = W^M` and `ω^(−1)`.
    omega: u64,
    omega_inv: u64,
    /// `n^(−1) mod p`, plain (see [`Plan::finish`]).
    n_inv: u64,
}

/// Everything the transforms of one length need, for the three primes.
#[derive(Debug)]
pub(crate) struct Plan {
    pub(crate) n: usize,
    /// Length of the radix-2 part: `n` or `n/3`.
    m: usize,
    three: bool,
    tables: [Tables; 3],
}

/// Whether `n` is a transform length: `2^j` or `3·2^j` within the primes' two-adicity.
pub(crate) fn is_transform_len(n: usize) -> bool {
    if n == 0 {
        return false;
    }
    let m = if n % 3 == 0 { n / 3 } else { n };
    m.is_power_of_two() && m.trailing_zeros() <= MAX_TWO_ADICITY
}

/// The smallest transform length `≥ min` (`min ≥ 1`): the next of 1, 2, 3, 4, 6, 8, 12, …
pub(crate) fn transform_len_at_least(min: usize) -> usize {
    let min = min.max(1);
    let p = min.next_power_of_two();
    // Three quarters of p is 3·2^(j−2); it is enough when it reaches min.
    if p >= 4 && (p / 4) * 3 >= min {
        (p / 4) * 3
    } else {
        p
    }
}

impl Tables {
    fn new(pr: &Prime, n: usize, m: usize) -> Tables {
        let one = pr.enter(1);
        let mut fwd = vec![(0u64, 0u64); m.max(1)];
        let mut inv = vec![(0u64, 0u64); m.max(1)];
        let mut len = 1;
        while len < m {
            let w = pr.root(2 * len as u64);
            let wi = pr.inv(w);
            let (mut x, mut y) = (one, one);
            for t in 0..len {
                let (xp, yp) = (pr.leave(x), pr.leave(y));
                fwd[len + t] = (xp, pr.shoup(xp));
                inv[len + t] = (yp, pr.shoup(yp));
                x = pr.mul(x, w);
                y = pr.mul(y, wi);
            }
            len *= 2;
        }
        let (mut r3, mut r3_inv) = (Vec::new(), Vec::new());
        let (mut omega, mut omega_inv) = (one, one);
        if n != m {
            let w = pr.root(n as u64);
            let wi = pr.inv(w);
            let (w2, wi2) = (pr.mul(w, w), pr.mul(wi, wi));
            let (mut a, mut b, mut c, mut d) = (one, one, one, one);
            for _ in 0..m {
                r3.push((a, b));
                r3_inv.push((c, d));
                a = pr.mul(a, w);
                b = pr.mul(b, w2);
                c = pr.mul(c, wi);
                d = pr.mul(d, wi2);
            }
            omega = pr.pow(w, m as u64);
            omega_inv = pr.inv(omega);
        }
        let n_inv = pr.leave(pr.inv(pr.enter(n as u64)));
        Tables { fwd, inv, r3, r3_inv, omega, omega_inv, n_inv }
    }
}

/// Plans are cached up to this length (the tables take about `2n` words per prime);
/// longer ones are built per use.
const CACHE_MAX_LEN: usize = 1 << 22;

impl Plan {
    fn build(n: usize) -> Plan {
        debug_assert!(is_transform_len(n));
        let three = n % 3 == 0;
        let m = if three { n / 3 } else { n };
        let tables = [
            Tables::new(&PRIMES[0], n, m),
            Tables::new(&PRIMES[1], n, m),
            Tables::new(&PRIMES[2], n, m),
        ];
        Plan { n, m, three, tables }
    }

    /// The plan for transform length `n` (which must satisfy [`is_transform_len`]).
    pub(crate) fn get(n: usize) -> Arc<Plan> {
        static CACHE: PlanCache<Plan> = PlanCache::new(CACHE_MAX_LEN);
        CACHE.get(n, Plan::build)
    }

    /// In-place forward transform of `a` (`n` values below `p_j`) modulo prime `j`.
    pub(crate) fn forward(&self, j: usize, a: &mut [u64]) {
        let (pr, t) = (&PRIMES[j], &self.tables[j]);
        debug_assert_eq!(a.len(), self.n);
        if self.three {
            let m = self.m;
            let (x0, rest) = a.split_at_mut(m);
            let (x1, x2) = rest.split_at_mut(m);
            for (((a0, a1), a2), &(w1, w2)) in
                x0.iter_mut().zip(x1.iter_mut()).zip(x2.iter_mut()).zip(&t.r3)
            {
                let (u, v, w) = (*a0, *a1, *a2);
                let s = pr.mul(pr.sub(v, w), t.omega);
                *a0 = pr.add(pr.add(u, v), w);
                *a1 = pr.mul(pr.add(pr.sub(u, w), s), w1);
                *a2 = pr.mul(pr.sub(pr.sub(u, v), s), w2);
            }
            for part in a.chunks_exact_mut(m) {
                dif(pr, &t.fwd, part);
            }
        } else {
            dif(pr, &t.fwd, a);
        }
    }

    /// In-place inverse transform (without the division by `n`; see [`Plan::finish`]).
    pub(crate) fn inverse(&self, j: usize, a: &mut [u64]) {
        let (pr, t) = (&PRIMES[j], &self.tables[j]);
        debug_assert_eq!(a.len(), self.n);
        if self.three {
            let m = self.m;
            for part in a.chunks_exact_mut(m) {
                dit(pr, &t.inv, part);
            }
            let (x0, rest) = a.split_at_mut(m);
            let (x1, x2) = rest.split_at_mut(m);
            for (((a0, a1), a2), &(w1, w2)) in
                x0.iter_mut().zip(x1.iter_mut()).zip(x2.iter_mut()).zip(&t.r3_inv)
            {
                let (u, v, w) = (*a0, pr.mul(*a1, w1), pr.mul(*a2, w2));
                let s = pr.mul(pr.sub(v, w), t.omega_inv);
                *a0 = pr.add(pr.add(u, v), w);
                *a1 = pr.add(pr.sub(u, w), s);
                *a2 = pr.sub(pr.sub(u, v), s);
            }
        } else {
            dit(pr, &t.inv, a);
        }
    }

    /// The constant that turns an inverse transform of a pointwise product of two forward
    /// transforms of Montgomery-form inputs (`x·R`) into the plain convolution: the
    /// transform holds `n·c·R`, and `mul(n·c·R, n^(−1)) = c`.
    pub(crate) fn finish(&self, j: usize) -> u64 {
        self.tables[j].n_inv
    }
}

/// Radix-2 decimation in frequency: natural order in, bit-reversed order out.
fn dif(pr: &Prime, tw: &[(u64, u64)], a: &mut [u64]) {
    let n = a.len();
    let mut len = n / 2;
    while len >= 1 {
        let w = &tw[len..2 * len];
        for block in a.chunks_exact_mut(2 * len) {
            let (lo, hi) = block.split_at_mut(len);
            for ((x, y), &(wt, ws)) in lo.iter_mut().zip(hi.iter_mut()).zip(w) {
                let (u, v) = (*x, *y);
                *x = pr.add(u, v);
                *y = pr.mul_shoup(pr.sub(u, v), wt, ws);
            }
        }
        len /= 2;
    }
}

/// Radix-2 decimation in time with inverse roots: bit-reversed order in, natural order
/// out, each value multiplied by `n`.
fn dit(pr: &Prime, tw: &[(u64, u64)], a: &mut [u64]) {
    let n = a.len();
    let mut len = 1;
    while len < n {
        let w = &tw[len..2 * len];
        for block in a.chunks_exact_mut(2 * len) {
            let (lo, hi) = block.split_at_mut(len);
            for ((x, y), &(wt, ws)) in lo.iter_mut().zip(hi.iter_mut()).zip(w) {
                let (u, v) = (*x, pr.mul_shoup(*y, wt, ws));
                *x = pr.add(u, v);
                *y = pr.sub(u, v);
            }
        }
        len *= 2;
    }
}
