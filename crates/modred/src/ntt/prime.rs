//! Arithmetic modulo one word-size transform prime, in Montgomery's form with R = 2^64.

/// A prime `p` with `2^61 < p < 2^62` and `3·2^33 | p − 1`, with the constants its
/// Montgomery multiplication and its roots of unity need.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Prime {
    pub(crate) p: u64,
    /// `p^(−1) mod 2^64`.
    pinv: u64,
    /// `R² mod p`, to bring a 64-bit number into Montgomery form (`R = 2^64`).
    r2: u64,
    /// A generator of the multiplicative group mod `p`.
    g: u64,
}

/// The largest `e` with `2^e | p − 1` for all three primes: transform lengths up to
/// `3·2^33` (far beyond the 2^30-bit operands this layer promises).
pub(crate) const MAX_TWO_ADICITY: u32 = 33;

impl Prime {
    pub(crate) const fn new(p: u64, g: u64) -> Prime {
        // Newton: each step doubles the correct low bits of p^(−1) mod 2^64.
        let mut inv = p;
        let mut i = 0;
        while i < 6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p.wrapping_mul(inv)));
            i += 1;
        }
        let r = ((1u128 << 64) % p as u128) as u64;
        let r2 = ((r as u128 * r as u128) % p as u128) as u64;
        Prime { p, pinv: inv, r2, g }
    }

    /// `a·b·R^(−1) mod p` in `[0, p)`, for any `a·b < p·2^64` (e.g. `a < 2^64`, `b < p`).
    ///
    /// With `T = a·b = hi·2^64 + lo` and `q = lo·p^(−1) mod 2^64`, `q·p` has the same low
    /// word as `T`, so `(T − q·p)/2^64 = hi − ⌊q·p/2^64⌋` exactly, and it lies in
    /// `(−p, p)` because `hi < p`.
    #[inline(always)]
    pub(crate) fn mul(&self, a: u64, b: u64) -> u64 {
        let t = a as u128 * b as u128;
        let (lo, hi) = (t as u64, (t >> 64) as u64);
        let q = lo.wrapping_mul(self.pinv);
        let qp = ((q as u128 * self.p as u128) >> 64) as u64;
        sub_mod(hi, qp, self.p)
    }

    /// Shoup's constant `⌊w·2^64/p⌋` of a multiplier `w < p` (see [`Prime::mul_shoup`]).
    pub(crate) fn shoup(&self, w: u64) -> u64 {
        (((w as u128) << 64) / self.p as u128) as u64
    }

    /// `a·w mod p` in `[0, p)` for any 64-bit `a`, a fixed `w < p` and `ws =`
    /// [`Prime::shoup`]`(w)` (V. Shoup's multiplication by a precomputed constant: one
    /// high and two low products instead of Montgomery's two high and one low). With
    /// `q = ⌊a·ws/2^64⌋`, `a·w − q·p ∈ [0, 2p)` (D. Harvey, "Faster arithmetic for
    /// number-theoretic transforms", 2014, Lemma 2), so it is computed modulo 2^64 and
    /// corrected once. Form-preserving: a Montgomery-form `a` gives a Montgomery-form
    /// result.
    #[inline(always)]
    pub(crate) fn mul_shoup(&self, a: u64, w: u64, ws: u64) -> u64 {
        let q = ((a as u128 * ws as u128) >> 64) as u64;
        let r = a.wrapping_mul(w).wrapping_sub(q.wrapping_mul(self.p));
        // r ∈ [0, 2p): subtract p unless that borrows.
        sub_mod(r, self.p, self.p)
    }

    /// `a + b mod p` for `a, b < p`.
    #[inline(always)]
    pub(crate) fn add(&self, a: u64, b: u64) -> u64 {
        add_mod(a, b, self.p)
    }

    /// `a − b mod p` for `a, b < p`.
    #[inline(always)]
    pub(crate) fn sub(&self, a: u64, b: u64) -> u64 {
        sub_mod(a, b, self.p)
    }

    /// `x·R mod p` for any 64-bit `x`.
    #[inline(always)]
    pub(crate) fn enter(&self, x: u64) -> u64 {
        self.mul(x, self.r2)
    }

    /// `x mod p` for `x` in Montgomery form.
    pub(crate) fn leave(&self, x: u64) -> u64 {
        self.mul(x, 1)
    }

    /// `x^e` for `x` in Montgomery form, result in Montgomery form.
    pub(crate) fn pow(&self, x: u64, mut e: u64) -> u64 {
        let mut base = x;
        let mut acc = self.enter(1);
        while e > 0 {
            if e & 1 == 1 {
                acc = self.mul(acc, base);
            }
            base = self.mul(base, base);
            e >>= 1;
        }
        acc
    }

    /// `x^(−1)` in Montgomery form (Fermat), for `x ≢ 0` in Montgomery form.
    pub(crate) fn inv(&self, x: u64) -> u64 {
        self.pow(x, self.p - 2)
    }

    /// A primitive `n`-th root of unity in Montgomery form; `n | p − 1`.
    pub(crate) fn root(&self, n: u64) -> u64 {
        debug_assert_eq!((self.p - 1) % n, 0);
        self.pow(self.enter(self.g), (self.p - 1) / n)
    }
}

// The corrections of `mul`, `add` and `sub` below are selects whose condition is a coin
// toss in a transform. Written as `if` (or as a mask, which the compiler turns back into
// a select), LLVM's x86 backend may lower them to conditional jumps, mispredicted about
// half the time (measured: five times slower). On x86-64 (`x86_kernels`) they are
// therefore a flag-setting SUB/ADD and a CMOV in assembly, the kernels of
// `kernels::arch::x86_64::scalar`; the masked selects here are their portable twins.

/// `a − b mod p` for `a, b < p` (also `a < p`, `b < 2^64` with `a − b > −p`).
#[inline(always)]
fn sub_mod(a: u64, b: u64, p: u64) -> u64 {
    #[cfg(x86_kernels)]
    {
        crate::kernels::arch::x86_64::scalar::sub_mod(a, b, p)
    }
    #[cfg(not(x86_kernels))]
    {
        let (d, borrow) = a.overflowing_sub(b);
        d.wrapping_add(p & 0u64.wrapping_sub(borrow as u64))
    }
}

/// `a + b mod p` for `a, b < p < 2^63`.
#[inline(always)]
fn add_mod(a: u64, b: u64, p: u64) -> u64 {
    #[cfg(x86_kernels)]
    {
        crate::kernels::arch::x86_64::scalar::add_mod(a, b, p)
    }
    #[cfg(not(x86_kernels))]
    {
        let (d, borrow) = (a + b).overflowing_sub(p);
        d.wrapping_add(p & 0u64.wrapping_sub(borrow as u64))
    }
}

/// The three transform primes `c·3·2^33 + 1`, the largest below 2^62, with generators.
/// Their product exceeds 2^185, so convolution coefficients below `2^128·2^57` are
/// recovered exactly by the CRT (see [`super`] for the bound).
pub(crate) const PRIMES: [Prime; 3] = [
    Prime::new(0x3fff_ffb4_0000_0001, 19),
    Prime::new(0x3fff_ff30_0000_0001, 5),
    Prime::new(0x3fff_ff18_0000_0001, 5),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn is_prime(n: u64) -> bool {
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
        let (mut d, mut s) = (n - 1, 0);
        while d % 2 == 0 {
            d /= 2;
            s += 1;
        }
        // These bases are a deterministic test for all n < 2^64.
        [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37].iter().all(|&a| {
            let mut x = powmod(a, d);
            if x == 1 || x == n - 1 {
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
    fn primes_roots_and_multiplication() {
        for pr in PRIMES {
            let p = pr.p;
            assert!(is_prime(p) && p > 1 << 61 && p < 1 << 62);
            assert_eq!((p - 1) % (3u64 << MAX_TWO_ADICITY), 0);
            // g generates: g^((p−1)/q) ≠ 1 for every prime q | p − 1.
            let mut rest = p - 1;
            let mut q = 2;
            while q * q <= rest {
                if rest % q == 0 {
                    assert_ne!(pr.leave(pr.pow(pr.enter(pr.g), (p - 1) / q)), 1);
                    while rest % q == 0 {
                        rest /= q;
                    }
                }
                q += 1;
            }
            if rest > 1 {
                assert_ne!(pr.leave(pr.pow(pr.enter(pr.g), (p - 1) / rest)), 1);
            }
            let mut x = 0x1234_5678_9abc_def1u64;
            for _ in 0..1000 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let a = x;
                let b = x.rotate_left(17) % p;
                let want = ((a as u128 * b as u128) % p as u128) as u64;
                assert_eq!(pr.leave(pr.mul(pr.enter(a), pr.enter(b))), want);
                assert_eq!(pr.leave(pr.enter(a)), a % p);
            }
            let w = pr.root(3 << 10);
            assert_eq!(pr.leave(pr.pow(w, 3 << 10)), 1);
            assert_ne!(pr.leave(pr.pow(w, 3 << 9)), 1);
            assert_ne!(pr.leave(pr.pow(w, 1 << 10)), 1);
        }
    }
}
