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
//! corrections), and an exponentiation is a chain of dependent products. Below `2^62` the
//! exponentiation's products leave the correction out (in `(0, 2m)`, `m` added to the
//! product's high digit beside the chain): even moduli `q·2` of 32–63 bits took 0.83–0.88
//! of the time with the correction (Intel Xeon, Sapphire Rapids class).
//!
//! An even modulus `m = q·2^k` is split as GMP's `mpz_powm` splits it: `x^e mod q` by
//! Montgomery's products on the odd part `q`, `x^e mod 2^k` by products that keep the low
//! `k` bits (an even `x` gives 0 once `e ≥ k`; an odd one's exponent is cut to the order
//! of the units modulo `2^k`), then one recombination (Garner), all in registers. The
//! split took 0.49–0.62 of the time of the reciprocal's products modulo the whole `m` at
//! 16–64 bits (Intel Xeon, Sapphire Rapids class; 64 bits against the fixed-size Barrett).
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
struct Reciprocal {
    /// `d = m·2^s`, top bit set.
    d: u64,
    /// `s`: the leading zeros of `m`.
    s: u32,
    /// `v = ⌊(2^128 − 1)/d⌋ − 2^64`.
    v: u64,
}

impl Reciprocal {
    /// Prepares `m ≥ 1`.
    fn new(m: u64) -> Reciprocal {
        debug_assert!(m != 0);
        let s = m.leading_zeros();
        let d = m << s;
        // ⌊(2^128 − 1)/d⌋ − 2^64 = ⌊((2^64 − 1 − d)·2^64 + 2^64 − 1)/d⌋; !d < d.
        let (v, _) = u64::div_wide(!d, u64::MAX, d);
        Reciprocal { d, s, v }
    }

    /// The modulus `m`.
    fn modulus(&self) -> u64 {
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
    /// digit is below `d` (`a·b·2^s < m·d`). The tests' reference product.
    #[cfg(test)]
    fn mul(&self, a: u64, b: u64) -> u64 {
        let p = ((a as u128) * (b as u128)) << self.s;
        self.rem_normalized((p >> 64) as u64, p as u64) >> self.s
    }

    /// `x mod m` for any `x`: Horner from the top digit, each step `(r·2^64 + x_i) mod m`
    /// on the normalized modulus.
    fn reduce(&self, x: &[u64]) -> u64 {
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
}

/// `a·b·2^-64 mod m`, in `[0, m)`, for `a, b < m`, `m` odd and `m_inv = m⁻¹ mod 2^64`:
/// Montgomery's reduction with one digit (paper 000, Algorithm 3, `k = 1`). With `q =
/// t₀·m⁻¹ mod 2^64`, `q·m ≡ t` modulo 2^64, so `t − q·m` is its high digit difference
/// times 2^64, and lies in `(−m·2^64, m·2^64)` (`t < m²`, `q·m < 2^64·m`).
#[inline(always)]
fn mont_mul(m: u64, m_inv: u64, a: u64, b: u64) -> u64 {
    let (t_high, qm_high) = product_and_quotient(m, m_inv, a, b);
    let (r, borrow) = t_high.overflowing_sub(qm_high);
    if borrow {
        r.wrapping_add(m)
    } else {
        r
    }
}

/// [`mont_mul`] for `m < 2^62` and `a, b < 2m`, without the correction: in `(0, 2m)`. The
/// product is below `4m² < m·2^64`, so `(t − q·m)/2^64` lies in `(−m, m)` and `m` is
/// added always — to the high digit of `t`, beside the chain of `q`, so that the chain
/// ends in one subtraction.
#[inline(always)]
fn mont_mul_lazy(m: u64, m_inv: u64, a: u64, b: u64) -> u64 {
    let (t_high, qm_high) = product_and_quotient(m, m_inv, a, b);
    (t_high + m) - qm_high
}

/// The high digits of `t = a·b` and of `q·m` for `q = t₀·m⁻¹ mod 2^64`, whose low digits
/// are equal: `(t − q·m)/2^64` is their difference.
#[inline(always)]
fn product_and_quotient(m: u64, m_inv: u64, a: u64, b: u64) -> (u64, u64) {
    let t = (a as u128) * (b as u128);
    let q = (t as u64).wrapping_mul(m_inv);
    ((t >> 64) as u64, ((q as u128 * m as u128) >> 64) as u64)
}

/// A modulus `1 ≤ m < 2^64` prepared for products and exponentiations in registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Word {
    /// `m` itself, for products and reductions.
    m: Reciprocal,
    /// The odd part `q` of `m = q·2^k` (`m` itself when odd), for Montgomery's products;
    /// `None` when `q = 1`.
    q: Option<Reciprocal>,
    /// `q⁻¹ mod 2^64`.
    q_inv: u64,
    /// `k`: the trailing zeros of `m`.
    k: u32,
}

impl Word {
    /// Prepares `m` (`m ≥ 1`); `None` for 0.
    pub(crate) fn new(m: u64) -> Option<Word> {
        if m == 0 {
            return None;
        }
        let k = m.trailing_zeros();
        let q = m >> k;
        let whole = Reciprocal::new(m);
        let q_prepared = match q {
            1 => None,
            _ if k == 0 => Some(whole),
            _ => Some(Reciprocal::new(q)),
        };
        Some(Word { m: whole, q: q_prepared, q_inv: q.inverse_mod_b(), k })
    }

    /// The modulus `m`.
    pub(crate) fn modulus(&self) -> u64 {
        self.m.modulus()
    }

    /// `a·b mod m` for `a, b < m` (the tests' reference product).
    #[cfg(test)]
    pub(crate) fn mul(&self, a: u64, b: u64) -> u64 {
        self.m.mul(a, b)
    }

    /// `x mod m` for any `x`.
    pub(crate) fn reduce(&self, x: &[u64]) -> u64 {
        self.m.reduce(x)
    }

    /// `x^e mod m` for `x < m` (`x^0 = 1`, 0 when `m = 1`): for an odd `m` the 16-ary
    /// window from the top digit of `e` on Montgomery's products (the residues `v·2^64 mod
    /// m`, one reduction in and one product by 1 out); for an even `m = q·2^k` the same
    /// modulo `q` and [`pow_mod_2k`], recombined by Garner's formula
    /// `r = r_q + q·((r_2 − r_q)·q⁻¹ mod 2^k)`, which is below `q·2^k`.
    pub(crate) fn pow(&self, x: u64, e: &Nat) -> u64 {
        if e.bits() == 0 {
            return 1 % self.modulus();
        }
        let r_q = self.q.map_or(0, |q| montgomery_pow(&q, self.q_inv, x, e));
        if self.k == 0 {
            return r_q;
        }
        let r_2 = pow_mod_2k(x, e, self.k);
        let h = r_2.wrapping_sub(r_q).wrapping_mul(self.q_inv) & low_mask(self.k);
        // r_q < q and h < 2^k: below q·2^k = m.
        r_q + (self.modulus() >> self.k) * h
    }
}

/// `2^k − 1` for `k ≤ 63`.
fn low_mask(k: u32) -> u64 {
    (1u64 << k) - 1
}

/// `x^e mod q` for any `x`, `e > 0`, `q` odd above 1 (`q_inv = q⁻¹ mod 2^64`): the 16-ary
/// window on Montgomery's products.
fn montgomery_pow(q: &Reciprocal, q_inv: u64, x: u64, e: &Nat) -> u64 {
    let m = q.modulus();
    let (one, x) = (q.reduce(&[0, 1]), q.reduce(&[0, x]));
    // Below 2^62 the products stay lazy (in (0, 2q)); the product by 1 out of the form
    // takes any value below q·2^64 to [0, q).
    let power = if m >> 62 == 0 {
        window(x, one, e, |a, b| mont_mul_lazy(m, q_inv, a, b))
    } else {
        window(x, one, e, |a, b| mont_mul(m, q_inv, a, b))
    };
    mont_mul(m, q_inv, power, 1)
}

/// `x^e mod 2^k` for any `x`, `e > 0`, `1 ≤ k ≤ 63`, by products that keep the low 64
/// bits. An even `x` (`2^t·u`, `t ≥ 1`) has `x^e ≡ 0` once `t·e ≥ k`, so only `e < k`
/// is computed; an odd one is a unit, and the units modulo `2^k` have exponent `2^(k−2)`
/// for `k ≥ 3` (`2^(k−1)` for `k ≤ 2`), so `e` is cut to its low `k − 2` bits.
fn pow_mod_2k(x: u64, e: &Nat, k: u32) -> u64 {
    let mask = low_mask(k);
    let x = x & mask;
    let e0 = e.limbs()[0];
    let e = if x & 1 == 1 {
        e0 & low_mask(if k <= 2 { k - 1 } else { k - 2 })
    } else if e.bits() <= 6 && e0 < k as u64 {
        e0
    } else {
        return 0;
    };
    // Left to right over the (at most 61) bits of the cut exponent.
    let mut acc = 1u64;
    for i in (0..u64::BITS - e.leading_zeros()).rev() {
        acc = acc.wrapping_mul(acc);
        if (e >> i) & 1 == 1 {
            acc = acc.wrapping_mul(x);
        }
    }
    acc & mask
}

/// `x^e` for `e > 0` by the 16-ary window, `one` the product's identity.
#[inline(always)]
fn window(x: u64, one: u64, e: &Nat, mul: impl Fn(u64, u64) -> u64) -> u64 {
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
                    let got = super::mont_mul(m, w.q_inv, a, b);
                    assert!(got < m, "{a}·{b} mod {m}: {got} not reduced");
                    let lhs = (got as u128 * r as u128) % m as u128;
                    let want = (a as u128 * b as u128) % m as u128;
                    assert_eq!(lhs, want, "{a}·{b}·2^-64 mod {m}");
                }
            }
        }
    }

    /// The lazy product below 2^62: in `(0, 2m)` and congruent for operands up to `2m − 1`.
    #[test]
    fn lazy_montgomery_products_stay_below_twice_the_modulus() {
        let small = moduli().into_iter().filter(|m| m & 1 == 1 && m >> 62 == 0);
        for m in small.chain([(1 << 62) - 1, (1 << 62) - 3]) {
            let w = Word::new(m).unwrap();
            let r = ((1u128 << 64) % m as u128) as u64;
            let top = 2 * m - 1;
            for a in [0, 1, m - 1, m, m + 1, top, m.wrapping_mul(0x5851_f42d) % (2 * m)] {
                for b in [0, 1, m, top, (m / 3).max(1), u64::MAX % (2 * m)] {
                    let got = super::mont_mul_lazy(m, w.q_inv, a, b);
                    assert!(got > 0 && got < 2 * m, "{a}·{b} mod {m}: {got} out of (0, 2m)");
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
            // Even and odd bases (for an even m, both branches of the power modulo 2^k), and
            // exponents on either side of k.
            let xs = [
                0,
                1 % m,
                m - 1,
                m / 2,
                2 % m,
                6 % m,
                (m / 3) | 1,
                m.wrapping_mul(0x5851_f42d) % m,
            ];
            for x in xs {
                for e in [0u64, 1, 2, 3, 5, 15, 16, 17, 62, 63, 64, 65, 0xffff, u64::MAX] {
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
            for x in [m / 3, (m / 3) | 1, 2 % m] {
                let mut x64 = x;
                for _ in 0..64 {
                    x64 = w.mul(x64, x64);
                }
                let want = w.mul(x64, w.mul(x, w.mul(x, x)));
                assert_eq!(w.pow(x, &e), want, "{x}^(2^64+3) mod {m}");
            }
        }
    }

    #[test]
    fn powers_modulo_two_to_the_k_match_u64_products() {
        for k in 1..64u32 {
            let mask = (1u64 << k) - 1;
            for x in [0u64, 1, 2, 3, 4, 12, 0x5851_f42d_4c95_7f2d, u64::MAX, 1 << 40] {
                for e in [1u64, 2, 3, k as u64 - 1, k as u64, k as u64 + 1, 0x1234_5678_9abc_def1] {
                    let e = e.max(1);
                    let mut want = 1u64;
                    let (mut base, mut left) = (x, e);
                    while left > 0 {
                        if left & 1 == 1 {
                            want = want.wrapping_mul(base);
                        }
                        base = base.wrapping_mul(base);
                        left >>= 1;
                    }
                    let got = super::pow_mod_2k(x, &Nat::from(e), k);
                    assert_eq!(got, want & mask, "{x}^{e} mod 2^{k}");
                }
                // e = 2^64 + 3: 0 for an even x, x^3 for an odd one (x^(2^64) ≡ 1).
                let got = super::pow_mod_2k(x, &Nat::from_limbs(&[3, 1]), k);
                let want = if x & 1 == 0 { 0 } else { x.wrapping_mul(x).wrapping_mul(x) & mask };
                assert_eq!(got, want, "{x}^(2^64+3) mod 2^{k}");
            }
        }
    }
}
