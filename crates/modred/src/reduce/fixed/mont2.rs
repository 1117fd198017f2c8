//! Montgomery multiplication for two-digit moduli (65 to 128 bits) with one 128-bit
//! quotient digit: Montgomery's reduction as his theorem states it (paper 000, Theorem 1,
//! with `R = 2^128` taken whole: `u = T·m' mod R`, `t = (T + u·m)/R`), not digit by digit
//! as in the paper's Algorithm 3.
//!
//! # Why
//! An exponentiation is a chain of dependent products, so at two digits its speed is the
//! latency of one product, not its throughput. The digit-serial reduction (CIOS or
//! Algorithm 3) waits twice on `u_i = t_i·m' mod 2^64`, `u_i·m` and the carry into the
//! next `t_i`; here the two digits of `u` come from one 128-bit product of `T mod R` and
//! `m' = −m^(−1) mod 2^128` (three multiplications side by side), and the low half of `T +
//! u·m` is never formed: it is zero modulo `R`, so it carries one exactly when `T mod R ≠
//! 0`. A 128-bit exponentiation took 1.50 µs with the digit-serial CIOS and takes 1.44 µs
//! this way, a square 13.4 ns and now 10.8 (AMD EPYC Zen 4, `modred bench --algo auto --api
//! modulus --bits 128 --op sqrmod,powm`). At three digits the same method (`u` a truncated
//! 3×3 product, `u·m` summed by columns: 21 digit products against 15) was slower than
//! LLVM's digit-serial code: a 192-bit exponentiation 3.90 → 4.14 µs.
//!
//! Used by the fixed-size Montgomery reducer's variable-time products at `N = 2`
//! (`arith::mont_mul_vartime_into`, `mont_sqr_vartime_into`); the constant-time callers keep
//! the CIOS. Tested against the CIOS and `Nat` below.

use super::arith::sub_if_ge;

/// `m' = −m^(−1) mod 2^128` for an odd `m` given by its low 128 bits, from `minv = m_0^(−1)
/// mod 2^64` by one Newton step (`x ← x·(2 − m·x)` doubles the bits of an inverse).
pub(crate) fn neg_inverse_128(m: u128, minv: u64) -> u128 {
    let x = minv as u128;
    let x = x.wrapping_mul(2u128.wrapping_sub(m.wrapping_mul(x)));
    debug_assert_eq!(m.wrapping_mul(x), 1);
    x.wrapping_neg()
}

/// `(t + u·m)/2^128` for `t < m·2^128` of four digits, `u = t·m' mod 2^128`, and `m' =
/// −m^(−1) mod 2^128`: below `2m`, so then one subtraction gives `t·2^(−128) mod m`.
/// Branch-free.
#[inline(always)]
fn redc(t: [u64; 4], m: &[u64; 2], m_inv: u128) -> [u64; 2] {
    let t_lo = t[0] as u128 | (t[1] as u128) << 64;
    let t_hi = t[2] as u128 | (t[3] as u128) << 64;
    let u = t_lo.wrapping_mul(m_inv);
    let (u0, u1) = (u as u64, (u >> 64) as u64);
    let (m0, m1) = (m[0] as u128, m[1] as u128);
    let (p00, p01, p10, p11) = (u0 as u128 * m0, u0 as u128 * m1, u1 as u128 * m0, u1 as u128 * m1);
    // The middle column of u·m (below 3·2^64), then its high half (exact: u·m < 2^256).
    let mid = (p00 >> 64) + (p01 as u64 as u128) + (p10 as u64 as u128);
    let um_hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    // t_lo + (u·m mod R) = 0 mod R: the sum carries exactly when t_lo ≠ 0.
    let (s, c1) = t_hi.overflowing_add(um_hi);
    let (s, c2) = s.overflowing_add((t_lo != 0) as u128);
    sub_if_ge::<2, false>(&[s as u64, (s >> 64) as u64], (c1 | c2) as u64, m)
}

/// `a·b·2^(−128) mod m` for `a, b < m` (two digits each, `m` odd): the product, then
/// [`redc`]. `4 + 4` digit products and the three of `u`.
#[inline(always)]
pub(crate) fn mont_mul(a: &[u64; 2], b: &[u64; 2], m: &[u64; 2], m_inv: u128) -> [u64; 2] {
    let (a0, a1, b0, b1) = (a[0] as u128, a[1] as u128, b[0] as u128, b[1] as u128);
    let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
    let mid = (p00 >> 64) + (p01 as u64 as u128) + (p10 as u64 as u128);
    let high = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    redc([p00 as u64, mid as u64, high as u64, (high >> 64) as u64], m, m_inv)
}

/// `a²·2^(−128) mod m` for `a < m`: the square (three digit products), then [`redc`].
#[inline(always)]
pub(crate) fn mont_sqr(a: &[u64; 2], m: &[u64; 2], m_inv: u128) -> [u64; 2] {
    let (a0, a1) = (a[0] as u128, a[1] as u128);
    let (p00, p01, p11) = (a0 * a0, a0 * a1, a1 * a1);
    // Twice the cross product: below 2^129, as its low half doubled plus its high half
    // doubled one digit up.
    let mid = (p00 >> 64) + ((p01 as u64 as u128) << 1);
    let high = p11 + ((p01 >> 64) << 1) + (mid >> 64);
    redc([p00 as u64, mid as u64, high as u64, (high >> 64) as u64], m, m_inv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nat::Nat;
    use crate::reduce::fixed::arith::{self, MontConsts};
    use modred_testkit::SplitMix64;

    /// The products and squares against the digit-serial CIOS (`arith::mont_mul`) and `Nat`,
    /// on moduli from 2^64 + 1 to 2^128 − 1 (all-ones digits, a zero digit, the top bit
    /// alone, random of every length) and operands 0, 1, m − 1, m − 2 and random; then
    /// chains of squarings as an exponentiation runs them.
    #[test]
    fn whole_digit_reduction_matches_cios_and_nat() {
        let mut rng = SplitMix64::new(0x006d_6f6e_7432);
        let mut moduli: alloc::vec::Vec<[u64; 2]> = alloc::vec![
            [u64::MAX, u64::MAX],
            [1, 1],
            [u64::MAX, 1],
            [1, 1 << 63],
            [u64::MAX - 2, u64::MAX],
            [0x8000_0000_0000_0001, 0x7fff_ffff_ffff_ffff],
        ];
        for i in 0..200 {
            let mut m = [rng.next_u64() | 1, rng.next_u64() >> (i % 64)];
            m[1] |= 1;
            moduli.push(m);
        }
        for m in moduli {
            let k = MontConsts::new(m);
            let m_inv = k.m_inv_128;
            assert_eq!(m_inv, neg_inverse_128(m[0] as u128 | (m[1] as u128) << 64, k.minv));
            let mn = Nat::from_limbs(&m);
            let r_inv_check = |x: &[u64; 2], want: &Nat| {
                // x·2^128 ≡ want (mod m), x < m.
                let xn = Nat::from_limbs(x);
                assert!(xn < mn, "m = {m:x?}");
                assert_eq!(xn.shl(128).checked_rem(&mn).unwrap(), want.checked_rem(&mn).unwrap());
            };
            let below = |v: Nat| -> [u64; 2] {
                let v = v.checked_rem(&mn).unwrap().to_padded(2).unwrap();
                [v[0], v[1]]
            };
            let one = Nat::one();
            let mut xs = alloc::vec![
                [0u64, 0],
                [1, 0],
                below(mn.checked_sub(&one).unwrap()),
                below(mn.checked_sub(&Nat::from(2u64)).unwrap()),
            ];
            for _ in 0..6 {
                xs.push(below(Nat::from_limbs(&[rng.next_u64(), rng.next_u64(), rng.next_u64()])));
            }
            for a in &xs {
                for b in &xs {
                    let got = mont_mul(a, b, &m, m_inv);
                    assert_eq!(got, arith::mont_mul::<2, false>(a, b, &m, k.m0inv), "m = {m:x?}");
                    r_inv_check(&got, &Nat::from_limbs(a).mul(&Nat::from_limbs(b)));
                }
                let got = mont_sqr(a, &m, m_inv);
                assert_eq!(got, mont_mul(a, a, &m, m_inv), "m = {m:x?}, a = {a:x?}");
                r_inv_check(&got, &Nat::from_limbs(a).sqr());
            }
            let (mut x, mut y) = (xs[4], xs[4]);
            for _ in 0..100 {
                x = mont_sqr(&x, &m, m_inv);
                y = arith::mont_mul::<2, false>(&y, &y, &m, k.m0inv);
                assert_eq!(x, y, "m = {m:x?}");
            }
        }
    }
}
