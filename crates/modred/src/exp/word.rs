//! Exponentiation modulo a one-digit modulus in registers: no residue vectors, no window
//! table on the heap, no reducer behind a pointer.
//!
//! Each product `a·b` (`a, b < m < 2^64`) is reduced by the one-digit case of Barrett's
//! reduction in the form of Möller and Granlund, "Improved division by invariant
//! integers" (IEEE Transactions on Computers 60(2), 2011), Algorithm 4 (`div_2by1` with a
//! precomputed reciprocal, remainder only): the modulus is normalized (`d = m·2^s`, top
//! bit set), its reciprocal `v = ⌊(2^128 − 1)/d⌋ − 2^64` is made once, and a two-digit
//! `u < d·2^64` is reduced with two multiplications and at most two corrections. This is
//! GMP's `udiv_qrnnd_preinv`; a product is shifted left by `s` so that its high digit is
//! below `d`, and the remainder shifted back.
//!
//! An odd modulus multiplies by Montgomery's reduction with one digit instead (paper 000,
//! Algorithm 3 with `k = 1`): `q = t₀·m⁻¹ mod 2^64` and `(t − q·m)/2^64`, whose low digits
//! cancel, so the reduction is one product's high digit subtracted and `m` added back on a
//! borrow. Its chain of dependent operations is about two thirds of the reciprocal's (three
//! multiplications and a subtraction against three multiplications, two shifts and two
//! corrections), and an exponentiation is a chain of dependent products.
//!
//! The exponent is walked by the fixed 16-ary window (HAC Algorithm 14.82, paper 000 §5's
//! 16-ary method): 14 table products, then per 4-bit digit four squarings and at most one
//! product, the table on the stack.

use crate::limb::Limb;
use crate::nat::Nat;

/// The window's width in bits: a table of 16 powers on the stack.
pub(crate) const WINDOW: u32 = 4;

/// A modulus `1 ≤ m < 2^64` prepared for reduction by its normalized reciprocal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Word {
    /// `d = m·2^s`, top bit set.
    d: u64,
    /// `s`: the leading zeros of `m`.
    s: u32,
    /// `v = ⌊(2^128 − 1)/d⌋ − 2^64`.
    v: u64,
    /// `m⁻¹ mod 2^64` for an odd `m`, 0 for an even one.
    m_inv: u64,
}

impl Word {
    /// Prepares `m` (`m ≥ 1`); `None` for 0.
    pub(crate) fn new(m: u64) -> Option<Word> {
        if m == 0 {
            return None;
        }
        let s = m.leading_zeros();
        let d = m << s;
        // ⌊(2^128 − 1)/d⌋ − 2^64 = ⌊((2^64 − 1 − d)·2^64 + 2^64 − 1)/d⌋; !d < d.
        let (v, _) = u64::div_wide(!d, u64::MAX, d);
        let m_inv = if m & 1 == 1 { m.inverse_mod_b() } else { 0 };
        Some(Word { d, s, v, m_inv })
    }

    /// The modulus `m`.
    pub(crate) fn modulus(&self) -> u64 {
        self.d >> self.s
    }

    /// `(u1·2^64 + u0) mod d` for `u1 < d` (Möller–Granlund Algorithm 4, remainder only).
    #[inline(always)]
    fn rem_normalized(&self, u1: u64, u0: u64) -> u64 {
        let q = (self.v as u128) * (u1 as u128) + (((u1 as u128) << 64) | u0 as u128);
        let q1 = ((q >> 64) as u64).wrapping_add(1);
        let q0 = q as u64;
        let mut r = u0.wrapping_sub(q1.wrapping_mul(self.d));
        if r > q0 {
            r = r.wrapping_add(self.d);
        }
        if r >= self.d {
            r -= self.d;
        }
        r
    }

    /// `a·b mod m` for `a, b < m`: the product is below `m²`, so shifted by `s` its high
    /// digit is below `d` (`a·b·2^s < m·d`).
    #[inline(always)]
    pub(crate) fn mul(&self, a: u64, b: u64) -> u64 {
        let p = ((a as u128) * (b as u128)) << self.s;
        self.rem_normalized((p >> 64) as u64, p as u64) >> self.s
    }

    /// `x mod m` for any `x`: Horner from the top digit, each step `(r·2^64 + x_i) mod m`
    /// on the normalized modulus.
    pub(crate) fn reduce(&self, x: &[u64]) -> u64 {
        // r is kept normalized (r·2^s, below d); each digit enters shifted by s, its top s
        // bits carried into the digit above (r·2^s·2^64 + x_i·2^s < d·2^64).
        let mut r = 0u64;
        for &digit in x.iter().rev() {
            let (hi, lo) =
                if self.s == 0 { (0, digit) } else { (digit >> (64 - self.s), digit << self.s) };
            // r·2^64 + x_i·2^s = (r + hi)·2^64 + lo, and r + hi < d: r ≤ d − 2^s (a multiple
            // of 2^s below d) and hi < 2^s.
            r = self.rem_normalized(r + hi, lo);
        }
        r >> self.s
    }

    /// `a·b·2^-64 mod m`, in `[0, m)`, for `a, b < m`, `m` odd: Montgomery's reduction with
    /// one digit (paper 000, Algorithm 3, `k = 1`). With `q = t₀·m⁻¹ mod 2^64`, `q·m ≡ t` modulo 2^64, so `t − q·m` is its high digit
    /// difference times 2^64, and lies in `(−m·2^64, m·2^64)` (`t < m²`, `q·m < 2^64·m`).
    #[inline(always)]
    fn mont_mul(&self, a: u64, b: u64) -> u64 {
        let m = self.modulus();
        let t = (a as u128) * (b as u128);
        let q = (t as u64).wrapping_mul(self.m_inv);
        let qm_high = ((q as u128 * m as u128) >> 64) as u64;
        let (r, borrow) = ((t >> 64) as u64).overflowing_sub(qm_high);
        if borrow {
            r.wrapping_add(m)
        } else {
            r
        }
    }

    /// `x^e mod m` for `x < m` (`x^0 = 1`, 0 when `m = 1`): the 16-ary window from the
    /// top digit of `e`, on Montgomery's products for an odd `m` (the residues `v·2^64 mod
    /// m`, one reduction in and one product by 1 out), on the reciprocal's for an even one.
    pub(crate) fn pow(&self, x: u64, e: &Nat) -> u64 {
        if e.bits() == 0 {
            return 1 % self.modulus();
        }
        if self.m_inv == 0 {
            return self.window(x, 1 % self.modulus(), e, |a, b| self.mul(a, b));
        }
        let (one, x) = (self.reduce(&[0, 1]), self.reduce(&[0, x]));
        let power = self.window(x, one, e, |a, b| self.mont_mul(a, b));
        self.mont_mul(power, 1)
    }

    /// `x^e` for `e > 0` by the 16-ary window, `one` the product's identity.
    #[inline(always)]
    fn window(&self, x: u64, one: u64, e: &Nat, mul: impl Fn(u64, u64) -> u64) -> u64 {
        let mut table = [one; 1 << WINDOW];
        table[1] = x;
        for i in 2..table.len() {
            table[i] = mul(table[i - 1], x);
        }
        let digits = e.bits().div_ceil(WINDOW as u64);
        let w = WINDOW as u64;
        let digit = |i: u64| -> usize {
            let limb = e.limbs()[(w * i / 64) as usize];
            ((limb >> (w * i % 64)) & ((1 << w) - 1)) as usize
        };
        let mut acc = table[digit(digits - 1)];
        for i in (0..digits - 1).rev() {
            for _ in 0..WINDOW {
                acc = mul(acc, acc);
            }
            let d = digit(i);
            if d != 0 {
                acc = mul(acc, table[d]);
            }
        }
        acc
    }
}

#[cfg(test)]
mod tests {
    use super::Word;
    use crate::nat::Nat;

    /// Moduli at the edges of the normalization: 1, 2, 3, powers of two and their
    /// neighbours, the largest ones, and a seeded spread.
    fn moduli() -> alloc::vec::Vec<u64> {
        let mut ms = alloc::vec![1, 2, 3, 5, 7, u64::MAX, u64::MAX - 1, u64::MAX - 58];
        for k in 1..64 {
            ms.extend([1u64 << k, (1u64 << k) - 1, (1u64 << k) + 1]);
        }
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ms.push(s >> (s % 64));
        }
        ms.retain(|&m| m != 0);
        ms
    }

    #[test]
    fn products_and_reductions_match_u128() {
        for m in moduli() {
            let w = Word::new(m).unwrap();
            assert_eq!(w.modulus(), m);
            for a in [0, 1, m / 2, m - 1, m.wrapping_mul(0x5851_f42d) % m] {
                for b in [0, 1, m - 1, (m / 3).max(1) % m] {
                    let want = ((a as u128 * b as u128) % m as u128) as u64;
                    assert_eq!(w.mul(a, b), want, "{a}·{b} mod {m}");
                }
            }
            for x in [[0u64, 0, 0], [u64::MAX; 3], [m, m, m], [1, 0, u64::MAX]] {
                let n = Nat::from_limbs(&x);
                let want = n.checked_rem(&Nat::from(m)).unwrap();
                assert_eq!(Nat::from(w.reduce(&x)), want, "{x:?} mod {m}");
            }
        }
        assert!(Word::new(0).is_none());
    }

    #[test]
    fn montgomery_products_match_u128() {
        for m in moduli().into_iter().filter(|m| m & 1 == 1) {
            let w = Word::new(m).unwrap();
            // 2^-64 mod m, from 2^64 mod m and its inverse found by the products themselves:
            // mont_mul(a, b)·2^64 ≡ a·b.
            let r = ((1u128 << 64) % m as u128) as u64;
            for a in [0, 1 % m, m / 2, m - 1, m.wrapping_mul(0x5851_f42d) % m] {
                for b in [0, 1 % m, m - 1, (m / 3).max(1) % m, u64::MAX % m] {
                    let got = w.mont_mul(a, b);
                    assert!(got < m, "{a}·{b} mod {m}: {got} not reduced");
                    let lhs = (got as u128 * r as u128) % m as u128;
                    let want = (a as u128 * b as u128) % m as u128;
                    assert_eq!(lhs, want, "{a}·{b}·2^-64 mod {m}");
                }
            }
        }
    }

    #[test]
    fn powers_match_repeated_products() {
        for m in moduli() {
            let w = Word::new(m).unwrap();
            for x in [0, 1 % m, m - 1, m / 2] {
                for e in [0u64, 1, 2, 15, 16, 17, 0xffff, u64::MAX] {
                    let mut want = 1u128 % m as u128;
                    let (mut base, mut k) = (x as u128, e);
                    while k > 0 {
                        if k & 1 == 1 {
                            want = want * base % m as u128;
                        }
                        base = base * base % m as u128;
                        k >>= 1;
                    }
                    assert_eq!(w.pow(x, &Nat::from(e)) as u128, want, "{x}^{e} mod {m}");
                }
            }
            // A two-digit exponent: x^(2^64 + 3) = x^(2^64)·x^3.
            let e = Nat::from_limbs(&[3, 1]);
            let x = m / 3;
            let mut x64 = x;
            for _ in 0..64 {
                x64 = w.mul(x64, x64);
            }
            let want = w.mul(x64, w.mul(x, w.mul(x, x)));
            assert_eq!(w.pow(x, &e), want, "{x}^(2^64+3) mod {m}");
        }
    }
}
