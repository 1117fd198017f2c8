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
//! The final subtraction sits on that chain too: it runs on `u128` (the digit arrays'
//! selection compiled to a longer chain), and an exponentiation ([`pow_sliding_lazy`])
//! leaves it out — below `2^126` its products stay below `2m` without it ([`Lazy`]),
//! above they subtract `m` only under the carry's mask ([`Almost`]) — with one correction
//! at the end. A 96-bit exponentiation 1.19 → 0.69–0.74 µs, 127 bits 1.27–1.31 → 1.21
//! (Intel Xeon, Sapphire Rapids class).
//!
//! Used by the fixed-size Montgomery reducer's variable-time products at `N = 2`
//! (`arith::mont_mul_vartime_into`, `mont_sqr_vartime_into`), its exponentiation loop and
//! that of `engine::once`; the constant-time callers keep the CIOS. Tested against the
//! CIOS and `Nat` below.

use super::arith::sub_if_ge;

/// `m' = −m^(−1) mod 2^128` for an odd `m` given by its low 128 bits, from `minv = m_0^(−1)
/// mod 2^64` by one Newton step (`x ← x·(2 − m·x)` doubles the bits of an inverse).
pub(crate) fn neg_inverse_128(m: u128, minv: u64) -> u128 {
    let x = minv as u128;
    let x = x.wrapping_mul(2u128.wrapping_sub(m.wrapping_mul(x)));
    debug_assert_eq!(m.wrapping_mul(x), 1);
    x.wrapping_neg()
}

/// `(t + u·m)/2^128` modulo `2^128` and whether it carries out of `2^128`, for a
/// four-digit `t`, `u = t·m' mod 2^128` and `m' = −m^(−1) mod 2^128`: Montgomery's
/// reduction with `R = 2^128` (paper 000, Theorem 1) before any final subtraction. The
/// whole value is below `t/2^128 + m`; the low half of `t + u·m` is never formed (it is
/// zero modulo `R`, so it carries exactly when `t mod R ≠ 0`).
#[inline(always)]
fn redc_sum(t: [u64; 4], m: &[u64; 2], m_inv: u128) -> (u128, bool) {
    let t_lo = t[0] as u128 | (t[1] as u128) << 64;
    let t_hi = t[2] as u128 | (t[3] as u128) << 64;
    let u = t_lo.wrapping_mul(m_inv);
    let (u0, u1) = (u as u64, (u >> 64) as u64);
    let (m0, m1) = (m[0] as u128, m[1] as u128);
    let (p00, p01, p10, p11) = (u0 as u128 * m0, u0 as u128 * m1, u1 as u128 * m0, u1 as u128 * m1);
    // The middle column of u·m (below 3·2^64), then its high half (exact: u·m < 2^256).
    let mid = (p00 >> 64) + (p01 as u64 as u128) + (p10 as u64 as u128);
    let um_hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    // 1 when t_lo ≠ 0 (the top bit of t_lo | −t_lo): arithmetic, not a comparison, so
    // that the constant-time form ([`redc_ct`]) has no branch on it either.
    let nonzero = (t_lo | t_lo.wrapping_neg()) >> 127;
    let (s, c1) = t_hi.overflowing_add(um_hi);
    let (s, c2) = s.overflowing_add(nonzero);
    (s, c1 | c2)
}

/// `m` as one `u128`.
#[inline(always)]
fn wide(m: &[u64; 2]) -> u128 {
    m[0] as u128 | (m[1] as u128) << 64
}

/// `t·2^(−128) mod m`, in `[0, m)`, for `t < m·2^128` ([`redc_sum`], below `2m`, then one
/// subtraction). Branch-free.
#[inline(always)]
fn redc(t: [u64; 4], m: &[u64; 2], m_inv: u128) -> [u64; 2] {
    let (s, carry) = redc_sum(t, m, m_inv);
    // Minus m unless below it (no carry out and the subtraction borrowed), on u128 so
    // that the selection stays in registers.
    let (d, borrow) = s.overflowing_sub(wide(m));
    let r = if !carry && borrow { s } else { d };
    [r as u64, (r >> 64) as u64]
}

/// [`redc`] in constant time: the final selection by a mask through
/// [`core::hint::black_box`] (as `arith::sub_if_ge` with `CT`), so that no branch depends
/// on `t` ([`redc_sum`] takes the low half's carry by arithmetic on its bits).
#[inline(always)]
fn redc_ct(t: [u64; 4], m: &[u64; 2], m_inv: u128) -> [u64; 2] {
    let (s, carry) = redc_sum(t, m, m_inv);
    let (d, borrow) = s.overflowing_sub(wide(m));
    // Keep s (all ones) when there was no carry and the subtraction borrowed.
    let keep = core::hint::black_box(0u128.wrapping_sub((!carry & borrow) as u128));
    let r = d ^ ((s ^ d) & keep);
    [r as u64, (r >> 64) as u64]
}

/// [`redc_sum`] for `t < m·2^128` and `m < 2^126`, without the final subtraction: congruent
/// to `t·2^(−128)`, in `[0, 2m)`, which is below `2^127`, so the sum never carries.
#[inline(always)]
fn redc_lazy(t: [u64; 4], m: &[u64; 2], m_inv: u128) -> [u64; 2] {
    let (s, carry) = redc_sum(t, m, m_inv);
    debug_assert!(!carry);
    [s as u64, (s >> 64) as u64]
}

/// The two-digit products of an exponentiation modulo an odd `m < 2^126` with the final
/// subtraction left out (lazy, as `mont_mulx`'s lazy products): inputs and results in
/// `[0, 2m)`. With `m < R/4` a product of two such values is below `4m² < m·R`,
/// so its reduction is below `(m·R + m·R)/R = 2m`. The subtraction sits on the chain of
/// dependent products of an exponentiation; the closing reduction out of Montgomery's form
/// (of a value below `2m`, so at most `m` before its own subtraction) takes it once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lazy {
    m: [u64; 2],
    m_inv: u128,
}

impl Lazy {
    /// The lazy products modulo `m` (`m_inv = −m^(−1) mod 2^128`); `None` unless `m < 2^126`.
    pub(crate) fn new(m: [u64; 2], m_inv: u128) -> Option<Lazy> {
        (m[1] >> 62 == 0).then_some(Lazy { m, m_inv })
    }
}

impl crate::exp::fixed_size::FixedProducts<2> for Lazy {
    #[inline(always)]
    fn mul(&self, a: &[u64; 2], b: &[u64; 2]) -> [u64; 2] {
        redc_lazy(product(a, b), &self.m, self.m_inv)
    }
    #[inline(always)]
    fn sqr(&self, a: &[u64; 2]) -> [u64; 2] {
        redc_lazy(square(a), &self.m, self.m_inv)
    }
}

/// [`redc_sum`] for any four-digit `t` (inputs below `2^128`, not `m`), less `m` only
/// when the sum carries out of `2^128`: below `2^128 + m` before, so below `2^128` after,
/// congruent to `t·2^(−128)` and not necessarily below `m` (almost-Montgomery). The
/// subtraction is a masked `m`, without the comparison with `m` that [`redc`] makes.
#[inline(always)]
fn redc_almost(t: [u64; 4], m: &[u64; 2], m_inv: u128) -> [u64; 2] {
    let (s, carry) = redc_sum(t, m, m_inv);
    let s = s.wrapping_sub(wide(m) & 0u128.wrapping_sub(carry as u128));
    [s as u64, (s >> 64) as u64]
}

/// The two-digit products of an exponentiation modulo any odd two-digit `m` by
/// [`redc_almost`]: inputs and results below `2^128`, congruent to the exact ones.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Almost {
    m: [u64; 2],
    m_inv: u128,
}

impl crate::exp::fixed_size::FixedProducts<2> for Almost {
    #[inline(always)]
    fn mul(&self, a: &[u64; 2], b: &[u64; 2]) -> [u64; 2] {
        redc_almost(product(a, b), &self.m, self.m_inv)
    }
    #[inline(always)]
    fn sqr(&self, a: &[u64; 2]) -> [u64; 2] {
        redc_almost(square(a), &self.m, self.m_inv)
    }
}

/// [`crate::exp::fixed_size::pow_sliding`] (same arguments, `base < m`) for a two-digit
/// `m`: on the [`Lazy`] products below `2^126`, on the [`Almost`] ones above, the result
/// brought below `m` at the end; `None` for other widths.
pub(crate) fn pow_sliding_lazy<const N: usize>(
    m: &[u64; N],
    m_inv: u128,
    base: &[u64; N],
    e: &[u64],
    n: u64,
    w: u32,
) -> Option<[u64; N]> {
    let (m, base) = (<&[u64; 2]>::try_from(&m[..]).ok()?, <&[u64; 2]>::try_from(&base[..]).ok()?);
    // Lazy: below 2m, one subtraction. Almost: below 2^128 ≤ 4m (m ≥ 2^126), three.
    let (mut power, subtractions) = match Lazy::new(*m, m_inv) {
        Some(lazy) => (crate::exp::fixed_size::pow_sliding(&lazy, base, e, n, w), 1),
        None => (crate::exp::fixed_size::pow_sliding(&Almost { m: *m, m_inv }, base, e, n, w), 3),
    };
    for _ in 0..subtractions {
        power = sub_if_ge::<2, false>(&power, 0, m);
    }
    let mut out = [0; N];
    out.copy_from_slice(&power);
    Some(out)
}

/// `a·b` as four digits.
#[inline(always)]
fn product(a: &[u64; 2], b: &[u64; 2]) -> [u64; 4] {
    let (a0, a1, b0, b1) = (a[0] as u128, a[1] as u128, b[0] as u128, b[1] as u128);
    let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
    let mid = (p00 >> 64) + (p01 as u64 as u128) + (p10 as u64 as u128);
    let high = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    [p00 as u64, mid as u64, high as u64, (high >> 64) as u64]
}

/// `a²` as four digits: three digit products, twice the cross product (below 2^129) as
/// its low half doubled plus its high half doubled one digit up.
#[inline(always)]
fn square(a: &[u64; 2]) -> [u64; 4] {
    let (a0, a1) = (a[0] as u128, a[1] as u128);
    let (p00, p01, p11) = (a0 * a0, a0 * a1, a1 * a1);
    let mid = (p00 >> 64) + ((p01 as u64 as u128) << 1);
    let high = p11 + ((p01 >> 64) << 1) + (mid >> 64);
    [p00 as u64, mid as u64, high as u64, (high >> 64) as u64]
}

/// `a·b·2^(−128) mod m` for `a, b < m` (two digits each, `m` odd): the product, then
/// [`redc`]. `4 + 4` digit products and the three of `u`.
#[inline(always)]
pub(crate) fn mont_mul(a: &[u64; 2], b: &[u64; 2], m: &[u64; 2], m_inv: u128) -> [u64; 2] {
    redc(product(a, b), m, m_inv)
}

/// [`mont_mul`] in constant time ([`redc_ct`]).
#[inline(always)]
pub(crate) fn mont_mul_ct(a: &[u64; 2], b: &[u64; 2], m: &[u64; 2], m_inv: u128) -> [u64; 2] {
    redc_ct(product(a, b), m, m_inv)
}

/// [`mont_sqr`] in constant time ([`redc_ct`]).
#[inline(always)]
pub(crate) fn mont_sqr_ct(a: &[u64; 2], m: &[u64; 2], m_inv: u128) -> [u64; 2] {
    redc_ct(square(a), m, m_inv)
}

/// `a²·2^(−128) mod m` for `a < m`: the square (three digit products), then [`redc`].
#[inline(always)]
pub(crate) fn mont_sqr(a: &[u64; 2], m: &[u64; 2], m_inv: u128) -> [u64; 2] {
    redc(square(a), m, m_inv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nat::Nat;
    use crate::reduce::fixed::arith::{self, MontConsts};
    use modred_testkit::SplitMix64;

    /// The products and squares (and their constant-time forms) against the digit-serial
    /// CIOS (`arith::mont_mul`) and `Nat`,
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
                    assert_eq!(mont_mul_ct(a, b, &m, m_inv), got, "m = {m:x?} (constant time)");
                    r_inv_check(&got, &Nat::from_limbs(a).mul(&Nat::from_limbs(b)));
                }
                let got = mont_sqr(a, &m, m_inv);
                assert_eq!(got, mont_mul(a, a, &m, m_inv), "m = {m:x?}, a = {a:x?}");
                assert_eq!(
                    mont_sqr_ct(a, &m, m_inv),
                    got,
                    "m = {m:x?}, a = {a:x?} (constant time)"
                );
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

    /// The lazy (`m < 2^126`) and almost-Montgomery products: congruent to `a·b·2^(−128)`
    /// and within their bounds (below `2m`, below `2^128`) for operands at those bounds
    /// (`2m − 1`, all ones); and their exponentiation equal to the exact products' for
    /// moduli at the `2^126` boundary and random ones, every window, exponents of one
    /// bit, all ones and random.
    #[test]
    fn lazy_and_almost_products_and_their_powers() {
        use crate::exp::fixed_size::{pow_sliding, FixedProducts, MAX_FIXED_WINDOW};
        let mut rng = SplitMix64::new(0x6c61_7a79_3221);
        let mut moduli: alloc::vec::Vec<[u64; 2]> = alloc::vec![
            [u64::MAX, (1 << 62) - 1],
            [1, 1 << 62],
            [u64::MAX, u64::MAX],
            [1, 1],
            [0x8000_0000_0000_0001, 0x3fff_ffff_ffff_ffff],
        ];
        for i in 0..100 {
            moduli.push([rng.next_u64() | 1, (rng.next_u64() >> (i % 64)) | 1]);
        }
        for m in moduli {
            let k = MontConsts::new(m);
            let (mn, r) = (Nat::from_limbs(&m), Nat::power_of_two(128));
            let lazy = Lazy::new(m, k.m_inv_128);
            assert_eq!(lazy.is_some(), m[1] >> 62 == 0, "m = {m:x?}");
            // Operands up to the bound of the products' inputs.
            let bound = if lazy.is_some() { mn.shl(1) } else { r.clone() };
            let top = bound.checked_sub(&Nat::one()).unwrap().to_padded(2).unwrap();
            let mut xs = alloc::vec![[0u64, 0], [1, 0], [top[0], top[1]]];
            for _ in 0..6 {
                let v = Nat::from_limbs(&[rng.next_u64(), rng.next_u64()]).checked_rem(&bound);
                let v = v.unwrap().to_padded(2).unwrap();
                xs.push([v[0], v[1]]);
            }
            let almost = Almost { m, m_inv: k.m_inv_128 };
            for a in &xs {
                for b in &xs {
                    let want = Nat::from_limbs(a).mul(&Nat::from_limbs(b));
                    // The almost product always; the lazy one where it exists (both below
                    // 2m for operands below 2m, m < 2^126: no carry out of 2^128).
                    let mut got = alloc::vec![almost.mul(a, b)];
                    got.extend(lazy.map(|l| l.mul(a, b)));
                    for g in got {
                        let g = Nat::from_limbs(&g);
                        assert!(g < bound, "m = {m:x?}, {a:x?}·{b:x?}");
                        let lhs = g.mul(&r).checked_rem(&mn).unwrap();
                        assert_eq!(lhs, want.checked_rem(&mn).unwrap(), "m = {m:x?}");
                    }
                }
                let sq = lazy.map_or(almost.sqr(a), |l| l.sqr(a));
                let plain = lazy.map_or(almost.mul(a, a), |l| l.mul(a, a));
                assert_eq!(sq, plain, "m = {m:x?}, a = {a:x?}");
                assert_eq!(almost.sqr(a), almost.mul(a, a), "m = {m:x?}, a = {a:x?}");
            }
            let base = Nat::from_limbs(&[rng.next_u64(), rng.next_u64()]).checked_rem(&mn);
            let base = base.unwrap().to_padded(2).unwrap();
            let base = [base[0], base[1]];
            for e in [
                alloc::vec![1u64],
                alloc::vec![u64::MAX, u64::MAX],
                alloc::vec![rng.next_u64(), rng.next_u64() | 1 << 63],
            ] {
                let n = Nat::from_limbs(&e).bits();
                for w in 1..=MAX_FIXED_WINDOW.min(n as u32) {
                    let got = pow_sliding_lazy(&m, k.m_inv_128, &base, &e, n, w).unwrap();
                    assert_eq!(got, pow_sliding(&k, &base, &e, n, w), "m = {m:x?}, w = {w}");
                }
            }
        }
        // Other widths are not its.
        let k3 = MontConsts::new([3u64, 5, 7]);
        assert!(pow_sliding_lazy(&k3.m, k3.m_inv_128, &[1, 0, 0], &[3], 2, 1).is_none());
    }
}
