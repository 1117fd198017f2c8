//! Four independent almost Montgomery products in radix 2^28 at once, one number to each
//! 64-bit lane of the AVX2 registers: the kernel of the batch exponentiations
//! (`engine::lanes`), where four exponentiations of the same size run side by side.
//!
//! Unlike [`super::radix28`], whose registers hold four digits of one number, a register
//! here holds digit `j` of four numbers, so a `vpmuludq` of two such registers is four
//! digit products that belong to four different products: no shifted loads, no
//! horizontal carries, and the quotient digits of the four reductions come out of one
//! `vpmuludq` too. On an AMD EPYC (Zen 3), a throw-away loop of 1024-bit products took
//! 167–180 ns per product this way against 237–290 for one product at a time on MULX/ADX.
//!
//! Layout: an operand of `n` digits is `4n` words, digit `j` of lane `l` at `4j + l`, each
//! below `2^28`. [`amm`] takes the rows of the product two at a time (operand scanning,
//! Montgomery's reduction interleaved: CIOS, Koç–Acar–Kaliski 1996), so that each column
//! of the running sum is loaded and stored once per two rows and each digit of `b` and
//! `m` serves two rows. The model `amm_model` (built for the tests) computes each lane
//! digit by digit with `radix28::amm_model`.

use super::radix28::{DIGIT_BITS, DIGIT_MASK};
use core::arch::x86_64::*;

/// The numbers side by side.
pub(crate) const LANES: usize = 4;

/// The most digits [`amm`] takes: a column of the running sum adds at most `2n` products
/// below `2^56` and a carry below `2^37`, which stays below `2^64` for `n ≤ 127`; 74 digits
/// hold a 2048-bit modulus with `2^(28n) ≥ 4m`.
pub(crate) const MAX_DIGITS: usize = 74;

/// Words of working space [`amm`] needs for `n` digits.
pub(crate) const fn scratch_len(n: usize) -> usize {
    LANES * (n + 2)
}

/// Four almost Montgomery products: in lane `l`, `out = a·b·2^(−28n) mod m` or that plus
/// `m` (below `2m`), normalized (every digit below `2^28`). Montgomery's reduction (paper
/// 000, Algorithm 3, with `b = 2^28`) interleaved with the product two rows at a time
/// (CIOS, Koç–Acar–Kaliski 1996; not in the papers), without the final subtraction, so
/// that the output can be an input again.
///
/// Input, in each lane: `a, b < 2m` in `n` normalized digits (`2 ≤ n ≤` [`MAX_DIGITS`]),
/// `m` odd with `2^(28n) ≥ 4m`, `m0inv = −m^(−1) mod 2^28`; `t` is working space of
/// [`scratch_len`] words (any contents). The layout is the module's. Constant time: no
/// branch or address depends on the values.
///
/// # Safety
/// The CPU must support AVX2.
///
/// # Panics
/// If a length is wrong or `n` is outside `2..=MAX_DIGITS`.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn amm(
    out: &mut [u64],
    a: &[u64],
    b: &[u64],
    m: &[u64],
    m0inv: &[u64; LANES],
    t: &mut [u64],
) {
    let n = a.len() / LANES;
    assert!(
        (2..=MAX_DIGITS).contains(&n)
            && a.len() == LANES * n
            && b.len() == a.len()
            && m.len() == a.len()
            && out.len() == a.len()
            && t.len() >= scratch_len(n),
        "lanes::amm: operand lengths"
    );
    let (a, b, m) = (a.as_ptr(), b.as_ptr(), m.as_ptr());
    let tp = t.as_mut_ptr();
    // SAFETY: every index below is a digit `j < n` of `a`, `b`, `m` or `j < n + 2` of `t`
    // (lengths checked above); the loads and stores are unaligned. The caller guarantees
    // AVX2.
    unsafe {
        let ld = |p: *const u64, j: usize| _mm256_loadu_si256(p.add(LANES * j).cast());
        let st = |j: usize, v: __m256i| _mm256_storeu_si256(tp.add(LANES * j).cast(), v);
        let mul = |x: __m256i, y: __m256i| _mm256_mul_epu32(x, y);
        let add = |x: __m256i, y: __m256i| _mm256_add_epi64(x, y);
        let mask = _mm256_set1_epi64x(DIGIT_MASK as i64);
        let minv = _mm256_loadu_si256(m0inv.as_ptr().cast());
        let zero = _mm256_setzero_si256();
        for j in 0..n + 2 {
            st(j, zero);
        }
        let (b0, m0) = (ld(b, 0), ld(m, 0));
        let mut i = 0;
        // Rows i and i + 1: t = (t + (a_i + a_(i+1)·2^28)·b + (u_i + u_(i+1)·2^28)·m)/2^56.
        while i + 1 < n {
            let (ai, ai1) = (ld(a, i), ld(a, i + 1));
            // Column 0: u_i makes it divisible by 2^28; its carry goes to column 1.
            let s0 = add(ld(tp, 0), mul(ai, b0));
            let ui = _mm256_and_si256(mul(s0, minv), mask);
            let c0 = _mm256_srli_epi64::<{ DIGIT_BITS as i32 }>(add(s0, mul(ui, m0)));
            // Column 1 with row i + 1's first product: u_(i+1) makes it divisible.
            let (b1, m1) = (ld(b, 1), ld(m, 1));
            let mut s1 = add(add(ld(tp, 1), c0), add(mul(ai, b1), mul(ui, m1)));
            s1 = add(s1, mul(ai1, b0));
            let ui1 = _mm256_and_si256(mul(s1, minv), mask);
            let mut carry = _mm256_srli_epi64::<{ DIGIT_BITS as i32 }>(add(s1, mul(ui1, m0)));
            // Columns 2 … n − 1: both rows; the sum moves down two digits.
            let (mut bp, mut mp) = (b1, m1);
            for j in 2..n {
                let (bj, mj) = (ld(b, j), ld(m, j));
                let s = add(add(ld(tp, j), carry), add(mul(ai, bj), mul(ui, mj)));
                st(j - 2, add(s, add(mul(ai1, bp), mul(ui1, mp))));
                carry = zero;
                (bp, mp) = (bj, mj);
            }
            // Column n: row i + 1's last products (t_n is zero).
            st(n - 2, add(carry, add(mul(ai1, bp), mul(ui1, mp))));
            st(n - 1, zero);
            i += 2;
        }
        // The last row of an odd n alone.
        if i < n {
            let ai = ld(a, i);
            let s0 = add(ld(tp, 0), mul(ai, b0));
            let ui = _mm256_and_si256(mul(s0, minv), mask);
            let mut carry = _mm256_srli_epi64::<{ DIGIT_BITS as i32 }>(add(s0, mul(ui, m0)));
            for j in 1..n {
                let s = add(add(ld(tp, j), carry), add(mul(ai, ld(b, j)), mul(ui, ld(m, j))));
                st(j - 1, s);
                carry = zero;
            }
            st(n - 1, zero);
        }
        // Normalize: the value is below 2m < 2^(28n), so no carry leaves the top digit.
        let op = out.as_mut_ptr();
        let mut carry = zero;
        for j in 0..n {
            let s = add(ld(tp, j), carry);
            _mm256_storeu_si256(op.add(LANES * j).cast(), _mm256_and_si256(s, mask));
            carry = _mm256_srli_epi64::<{ DIGIT_BITS as i32 }>(s);
        }
    }
}

#[cfg(test)]
/// [`amm`] lane by lane, on any CPU: [`super::radix28::amm_model`] on each lane's digits
/// (the same value: the quotient digits and the sum are unique, whatever the order of the
/// additions).
pub(crate) fn amm_model(out: &mut [u64], a: &[u64], b: &[u64], m: &[u64], m0inv: &[u64; LANES]) {
    let n = a.len() / LANES;
    let lane = |x: &[u64], l: usize| -> alloc::vec::Vec<u64> {
        (0..n).map(|j| x[LANES * j + l]).collect()
    };
    for l in 0..LANES {
        let mut o = alloc::vec![0u64; n];
        super::radix28::amm_model(&mut o, &lane(a, l), &lane(b, l), &lane(m, l), m0inv[l]);
        for j in 0..n {
            out[LANES * j + l] = o[j];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limb::Limb;
    use alloc::vec;
    use alloc::vec::Vec;
    use modred_testkit::SplitMix64;
    use std::eprintln;

    /// Four moduli of `n` digits with `2^(28n) ≥ 4m` (the top digit below 2^26), odd, in
    /// the lane layout: random, all digits at their largest, the smallest odd one of that
    /// length, and one with a single top bit.
    fn moduli(rng: &mut SplitMix64, n: usize) -> Vec<u64> {
        let top = (1u64 << 26) - 1;
        let mut m = vec![0u64; LANES * n];
        for j in 0..n {
            let last = j == n - 1;
            let digits = [
                rng.next_u64() & if last { top } else { DIGIT_MASK },
                if last { top } else { DIGIT_MASK },
                u64::from(j == 0 || last),
                if last { 1 << 25 } else { u64::from(j == 0) },
            ];
            m[LANES * j..LANES * j + LANES].copy_from_slice(&digits);
        }
        for l in 0..LANES {
            m[l] |= 1;
            m[LANES * (n - 1) + l] |= 1 << 20;
        }
        m
    }

    /// Operands below `2m` in each lane: random digits below the lane's top digit, all
    /// zero, and `2m − 1`'s neighbourhood (the top digit of `2m` minus one, the rest at
    /// their largest).
    fn operands(rng: &mut SplitMix64, m: &[u64], n: usize) -> Vec<Vec<u64>> {
        let mut random = vec![0u64; LANES * n];
        let mut high = vec![0u64; LANES * n];
        for j in 0..n {
            for l in 0..LANES {
                let mt = m[LANES * (n - 1) + l];
                let last = j == n - 1;
                random[LANES * j + l] =
                    if last { rng.next_u64() % mt } else { rng.next_u64() & DIGIT_MASK };
                high[LANES * j + l] = if last { 2 * mt - 1 } else { DIGIT_MASK };
            }
        }
        vec![random, high, vec![0; LANES * n]]
    }

    #[test]
    fn amm_matches_the_model_at_every_width() {
        if !crate::kernels::cpu::avx2() {
            eprintln!("skipped: this CPU has no AVX2 (lanes::amm not run; its model is tested in engine::lanes)");
            return;
        }
        let mut rng = SplitMix64::new(0x1a7e);
        for n in 2..=MAX_DIGITS {
            let m = moduli(&mut rng, n);
            let inv: [u64; LANES] =
                core::array::from_fn(|l| m[l].inverse_mod_b().wrapping_neg() & DIGIT_MASK);
            let ops = operands(&mut rng, &m, n);
            let mut t = vec![u64::MAX; scratch_len(n)];
            for a in &ops {
                for b in &ops {
                    let (mut got, mut want) = (vec![0u64; LANES * n], vec![0u64; LANES * n]);
                    // SAFETY: the CPU has AVX2 (checked above).
                    unsafe { amm(&mut got, a, b, &m, &inv, &mut t) };
                    amm_model(&mut want, a, b, &m, &inv);
                    assert_eq!(got, want, "n = {n}");
                }
            }
        }
    }
}
