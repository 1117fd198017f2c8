//! Greatest common divisors and modular inverses: Euclid's algorithm (Knuth, TAOCP vol. 2,
//! §4.5.2, Algorithm A and its extension, Algorithm X), each step one division by
//! [`Nat::div_rem`]. Variable time in the values (the number of steps and the quotients
//! depend on them): for public values; a secret's inverse modulo a prime goes through the
//! constant-time exponentiation (Fermat) instead.

use super::Nat;
use crate::limb::Limb;

impl<L: Limb> Nat<L> {
    /// `gcd(self, other)`, with `gcd(x, 0) = x` (so `gcd(0, 0) = 0`). Euclid's algorithm.
    /// Variable time.
    pub fn gcd(&self, other: &Self) -> Self {
        let (mut a, mut b) = (self.clone(), other.clone());
        while !b.is_zero() {
            let r = a.checked_rem(&b).unwrap_or_default();
            a = core::mem::replace(&mut b, r);
        }
        a
    }

    /// The inverse of `self` modulo `m`: the `x` in `0..m` with `self·x ≡ 1 (mod m)`, or
    /// `None` when there is none (`gcd(self, m) ≠ 1`, or `m = 0`). `m = 1` gives `Some(0)`.
    /// Any `self` (reduced first). Extended Euclid (Knuth's Algorithm X) on `(m, self mod m)`,
    /// keeping only the coefficient of `self`, whose sign alternates from step to step, so
    /// it is carried as a magnitude: `|t_{i+1}| = |t_{i−1}| + q_i·|t_i|`. Variable time.
    pub fn inverse_mod(&self, m: &Self) -> Option<Self> {
        if m.is_zero() {
            return None;
        }
        if m.is_one() {
            return Some(Nat::zero());
        }
        let a = self.checked_rem(m)?;
        let (mut r0, mut r1) = (m.clone(), a);
        let (mut t0, mut t1) = (Nat::zero(), Nat::one());
        let mut steps = 0usize;
        while !r1.is_zero() {
            let (q, r) = r0.div_rem(&r1)?;
            let t2 = t0.add(&q.mul(&t1));
            r0 = core::mem::replace(&mut r1, r);
            t0 = core::mem::replace(&mut t1, t2);
            steps += 1;
        }
        if !r0.is_one() {
            return None;
        }
        // t_j (j = steps) is positive for odd j, negative for even j.
        if steps % 2 == 1 || t0.is_zero() {
            Some(t0)
        } else {
            m.checked_sub(&t0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use modred_testkit::SplitMix64;

    #[test]
    fn small_values_exhaustively() {
        // Under Miri (CI runs nat's tests there) a smaller square.
        let (ms, as_) = if cfg!(miri) { (12u64, 20u64) } else { (60, 130) };
        for m in 0..ms {
            for a in 0..as_ {
                let (na, nm) = (Nat::<u64>::from(a), Nat::<u64>::from(m));
                let g = (1..=a.max(m)).rev().find(|d| a % d == 0 && m % d == 0).unwrap_or(0);
                assert_eq!(na.gcd(&nm), Nat::from(g), "gcd({a}, {m})");
                let want = (0..m).find(|x| (a % m.max(1)) * x % m == 1 % m.max(1));
                let want = if m == 0 { None } else { want };
                assert_eq!(na.inverse_mod(&nm), want.map(Nat::from), "{a}⁻¹ mod {m}");
            }
        }
    }

    #[test]
    fn random_large_values() {
        let mut rng = SplitMix64::new(0x6cd);
        let sizes: &[u64] = if cfg!(miri) { &[64, 130] } else { &[64, 65, 127, 521, 1024, 3000] };
        for &bits in sizes {
            for _ in 0..6 {
                let m = Nat::<u64>::from_vec(rng.odd_modulus(bits));
                let a = Nat::from_vec(rng.below_pow2(bits + 40));
                match a.inverse_mod(&m) {
                    Some(x) => {
                        assert!(x < m);
                        assert!(a.mul(&x).checked_rem(&m).unwrap().is_one(), "{bits} bits");
                        assert!(a.gcd(&m).is_one());
                    }
                    None => assert!(!a.gcd(&m).is_one()),
                }
            }
            // A common factor: no inverse; the gcd finds it.
            let p = Nat::<u64>::from_vec(rng.odd_modulus(bits / 2 + 2));
            let m = p.mul(&Nat::from(3u64));
            let a = p.mul(&Nat::from(5u64));
            assert_eq!(a.inverse_mod(&m), None);
            assert_eq!(a.gcd(&m), p);
        }
    }
}
